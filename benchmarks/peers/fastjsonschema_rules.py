"""The creation rules as the draft 2020-12 schema, compiled once by `fastjsonschema`.

fastjsonschema implements drafts 4, 6 and 7; the keywords this schema uses mean the same in
draft 7 (`$defs` is reached by its JSON pointer). It stops at the first error.
"""

from __future__ import annotations

import fastjsonschema

from benchmarks.peers.campaign_schema import SCHEMA, post_check

_DRAFT_7 = {**SCHEMA, "$schema": "http://json-schema.org/draft-07/schema#"}
VALIDATE = fastjsonschema.compile(_DRAFT_7)


def validate(payload: object) -> tuple[bool, object]:
    """The payload, or the first error the schema finds, or the post-check's errors."""
    try:
        VALIDATE(payload)
    except fastjsonschema.JsonSchemaValueException as error:
        return False, error.message
    errors = post_check(payload)  # type: ignore[arg-type]
    return not errors, errors or payload
