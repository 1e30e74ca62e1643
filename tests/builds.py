"""The pure-Python build in a process of its own, to compare with the compiled one.

`python -m tests.builds`, with the source tree first on `PYTHONPATH`, answers requests on its
standard input, each a pickled tuple sent after its length, with the pickled answer:

- `("build",)`: the build it runs, `campaign_rules.COMPILED`;
- `("call", name, args, kwargs)`: the outcome of `CALLS[name](*args, **kwargs)`;
- `("matrix",)`: the outcomes of the adversarial matrix (`tests/adversarial_support.py`), every
  hostile value in every field of a body and of a patch, and as the whole body and patch.

`CALLS` are the public functions whose work the compiled modules do (setup.py): validation,
the response readers, the request checks, the fingerprint, the idempotency decision, the
lifecycle, the rate limiter, the audit of JSON Lines and the tables the exports read. An
outcome holds everything a caller can read of a result, so that equal outcomes mean the two
builds answered alike.
"""

from __future__ import annotations

import importlib.util
import pickle
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import IO, Any

import attrs

from campaign_rules import COMPILED, to_wire, validate_create, validate_update
from campaign_rules.audit import audit_chunk
from campaign_rules.idempotency import (
    check_idempotency_key,
    decide_idempotency,
    request_fingerprint,
)
from campaign_rules.lifecycle import check_transition
from campaign_rules.rate import RateLimiter
from campaign_rules.requests import check_contact_path, check_thread_path, parse_authorization
from campaign_rules.responses import (
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)
from campaign_rules.schema import catalogue, json_schema, openapi, ruleset

_LENGTH = struct.Struct("<Q")
# What a caller reads of a result beside its fields: the bodies it answers with.
_BODIES = ("envelope", "body", "thread_body", "headers")


def load_setup() -> ModuleType:
    """setup.py as a module: imported, it defines its lists and functions and builds nothing."""
    path = Path(__file__).resolve().parent.parent / "setup.py"
    spec = importlib.util.spec_from_file_location("campaign_rules_setup", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def acquisitions(settings: dict[str, int], requests: list[tuple[object, object]]) -> list[Any]:
    """The result of each `(key, now_ns)` in turn, asked of one new `RateLimiter(**settings)`."""
    limiter = RateLimiter(**settings)
    return [limiter.acquire(key, now_ns) for key, now_ns in requests]


CALLS: dict[str, Callable[..., Any]] = {
    function.__name__: function
    for function in (
        validate_create,
        validate_update,
        parse_create_response,
        parse_contact_response,
        parse_thread,
        parse_error,
        parse_authorization,
        check_contact_path,
        check_thread_path,
        check_idempotency_key,
        request_fingerprint,
        decide_idempotency,
        check_transition,
        acquisitions,
        audit_chunk,
        catalogue,
        json_schema,
        openapi,
        ruleset,
    )
}


def outcome(result: object) -> object:
    """What a caller reads of `result`, a result of `CALLS` or a list of them, written out.

    For a result: every field (the violations with key, field, message and rule among them),
    `ok` and `status`, each body it gives, and its value as wire JSON, for a value object of
    the library. Anything else (the tables) as it is. Written out by `repr`, which tells `1`
    from `True`, `-0.0` from `0.0` and a tuple from a list, and in which NaN equals NaN.
    """
    if isinstance(result, list):
        return [outcome(item) for item in result]
    if not hasattr(result, "ok"):
        return _repr(result)
    bodies = [getattr(result, name)() for name in _BODIES if hasattr(result, name)]
    value = getattr(result, "value", None)
    wire = to_wire(value) if attrs.has(type(value)) else None
    return _repr((result, result.ok, result.status, bodies, wire))


def _repr(value: object) -> str:
    """`repr(value)`, with integers of any length written out (a value may hold one it read)."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return repr(value)
    finally:
        sys.set_int_max_str_digits(limit)


def call(name: str, *args: object, **kwargs: object) -> object:
    """The outcome of `CALLS[name](*args, **kwargs)` in this process's build.

    A documented `TypeError` (a `RateLimiter` setting, a wrong `existing`) is an outcome too,
    by its class and message; so is any other exception, which the two builds must then share.
    """
    try:
        result = CALLS[name](*args, **kwargs)
    except Exception as error:
        return "raised", type(error).__qualname__, str(error)
    return outcome(result)


def matrix_outcomes() -> list[object]:
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
        elif request[0] == "call":
            _, name, args, kwargs = request
            send(sys.stdout.buffer, call(name, *args, **kwargs))
        elif request[0] == "matrix":
            send(sys.stdout.buffer, matrix_outcomes())


if __name__ == "__main__":
    main()
