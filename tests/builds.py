"""The pure-Python build in a process of its own, to compare with the compiled one.

`python -m tests.builds`, with the source tree first on `PYTHONPATH`, answers requests on its
standard input, each a pickled tuple sent after its length, with the pickled answer:

- `("build",)`: the build it runs, `campaign_rules.COMPILED`;
- `("create", payload)`: the outcome of `validate_create(payload)`;
- `("matrix",)`: the outcomes of the adversarial matrix (`tests/adversarial_support.py`), every
  hostile value in every field of a body and of a patch, and as the whole body and patch.

An outcome holds everything a caller can read of a result, so that equal outcomes mean the two
builds answered alike.
"""

from __future__ import annotations

import pickle
import struct
import sys
from typing import IO, Any

from campaign_rules import (
    COMPILED,
    CreateResult,
    UpdateResult,
    to_wire,
    validate_create,
    validate_update,
)

Outcome = tuple[bool, int, tuple[tuple[str, str | None, str, str], ...], object]
_LENGTH = struct.Struct("<Q")


def outcome(result: CreateResult | UpdateResult) -> Outcome:
    """What a caller reads of `result`: ok, status, every violation, and the value as JSON."""
    violations = tuple((v.key.value, v.field, v.message, v.rule) for v in result.violations)
    value = to_wire(result.value) if result.value is not None else None
    return result.ok, result.status, violations, value


def matrix_outcomes() -> list[Outcome]:
    """The outcome of every case of the adversarial matrix, offline and with a directory."""
    from tests import adversarial_support as matrix
    from tests.support import FakeDirectory

    found = []
    for value in matrix.HOSTILE:
        campaign = matrix.EXISTING["phone_call"]
        for directory in (None, FakeDirectory()):
            found.append(outcome(validate_create(value.value, directory=directory)))
            found.append(outcome(validate_update(campaign, value.value, directory=directory)))
        for field, (base, _) in matrix.FIELDS.items():
            body = matrix.body_with(base, field, value.value)
            patch = matrix.patch_with(field, value.value)
            for directory in (None, FakeDirectory()):
                found.append(outcome(validate_create(body, directory=directory)))
                found.append(
                    outcome(validate_update(matrix.EXISTING[base], patch, directory=directory))
                )
    return found


def send(stream: IO[bytes], message: object) -> None:
    """Write `message`, pickled, after its length."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)) + data)
    stream.flush()


def receive(stream: IO[bytes]) -> Any:
    """Read one message that `send` wrote; `None` at the end of the stream."""
    header = stream.read(_LENGTH.size)
    if len(header) < _LENGTH.size:
        return None
    return pickle.loads(stream.read(_LENGTH.unpack(header)[0]))


def main() -> None:
    """Answer requests until the standard input ends."""
    while (request := receive(sys.stdin.buffer)) is not None:
        if request[0] == "build":
            send(sys.stdout.buffer, COMPILED)
        elif request[0] == "create":
            send(sys.stdout.buffer, outcome(validate_create(request[1])))
        elif request[0] == "matrix":
            send(sys.stdout.buffer, matrix_outcomes())


if __name__ == "__main__":
    main()
