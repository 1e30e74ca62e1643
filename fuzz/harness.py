"""The atheris harness: the fuzzer's bytes, decoded as JSON, through every entry point.

Run it from the repository root with `fuzz/run.sh` (docs/testing.md). For each input that decodes
as JSON, it checks what the library promises for any input (D-hostile-input, D-look-ups):

- `validate_create` offline and with a directory, and `validate_update` offline and with a
  directory, never raise; the patch is applied to one of three campaigns (without cycles, in
  cooldown mode, in scheduled mode) with one of three statuses, picked by the input's length;
- the offline violations are a prefix of those found with a directory;
- every result's envelope, and its campaign when it is ok, encode with
  `json.dumps(..., allow_nan=False)`.

An assertion that fails, or any exception, is a crash: libFuzzer stops and writes the input to
`fuzz/artifacts/`, from where it becomes a case file under `tests/cases/`.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import atheris

# Coverage is measured in the library only, not in attrs, cattrs or the standard library.
with atheris.instrument_imports(include=["campaign_rules"]):
    from campaign_rules import (
        CampaignStatus,
        CreateResult,
        UpdateResult,
        to_wire,
        validate_create,
        validate_update,
    )

from tests.support import BASES, FakeDirectory

# The campaigns that the fuzzer's patches are applied to: no cycles, and each cycles mode.
EXISTING = tuple(
    value
    for base in ("phone_call", "cooldown", "scheduled")
    if (value := validate_create(BASES[base]).value) is not None
)
STATUSES = (None, CampaignStatus.ACTIVE, CampaignStatus.FINISHED)


class NotJson:
    """Stands for bytes that do not decode as JSON."""


def decode(data: bytes) -> Any:
    """The JSON value of `data`, or `NotJson` when it is not JSON (not a finding)."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the decoder goes
        return NotJson


def check_result(result: CreateResult | UpdateResult) -> None:
    """The result's envelope, and its campaign when ok, are JSON a server can send."""
    json.dumps(result.envelope(), allow_nan=False)
    if result.value is not None:
        json.dumps(to_wire(result.value), allow_nan=False)


def check_prefix(offline: CreateResult | UpdateResult, online: CreateResult | UpdateResult) -> None:
    """D-look-ups: what is found offline is found online too, first and in the same order."""
    count = len(offline.violations)
    assert online.violations[:count] == offline.violations, "offline is not a prefix of online"


def test_one_input(data: bytes) -> None:
    """One fuzzer input through every entry point; any exception is a crash."""
    value = decode(data)
    if value is NotJson:
        return
    offline = validate_create(value)
    online = validate_create(value, directory=FakeDirectory())
    check_result(offline)
    check_result(online)
    check_prefix(offline, online)
    existing = EXISTING[len(data) % len(EXISTING)]
    status = STATUSES[len(data) // len(EXISTING) % len(STATUSES)]
    offline_update = validate_update(existing, value, status=status)
    online_update = validate_update(existing, value, status=status, directory=FakeDirectory())
    check_result(offline_update)
    check_result(online_update)
    check_prefix(offline_update, online_update)


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
