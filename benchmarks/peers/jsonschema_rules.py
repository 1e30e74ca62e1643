"""The creation rules as the draft 2020-12 schema, run by `jsonschema`: a validator built once,
with format assertion on, collecting every error.
"""

from __future__ import annotations

from jsonschema import Draft202012Validator

from benchmarks.peers.campaign_schema import SCHEMA, post_check

VALIDATOR = Draft202012Validator(SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER)


def validate(payload: object) -> tuple[bool, object]:
    """The payload, or every error the schema finds (then those of the post-check)."""
    errors: list[object] = list(VALIDATOR.iter_errors(payload))
    if not errors:
        errors += post_check(payload)  # type: ignore[arg-type]
    return not errors, errors or payload
