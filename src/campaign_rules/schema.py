"""The interface as machine-readable documents, generated from the library's own tables.

`json_schema()` is the JSON Schema (2020-12) of a campaign creation body: it gives the same
verdicts as `validate_create` offline, but for the exceptions listed in D-json-schema.
"""

from __future__ import annotations

from campaign_rules._export.json_schema import json_schema

__all__ = ["json_schema"]
