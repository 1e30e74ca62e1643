"""The JSON Schema (2020-12) of `campaign-rules diff --format json`: `schema/diff.schema.json`.

Written from the report's own names (`report.VERDICTS`, `structure.COMPARED`), so the schema
lists what the report can say and nothing else.
"""

from __future__ import annotations

import json

from campaign_rules._diff.report import VERDICTS
from campaign_rules._diff.structure import COMPARED

__all__ = ["diff_schema", "render_diff_schema"]

_TEXT_OR_NULL = {"type": ["string", "null"]}
_CHANGES = ["added", "removed", *dict.fromkeys(COMPARED.values()), "behaviour"]


def diff_schema() -> dict[str, object]:
    """The schema of a diff report."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "CampaignRulesDiff",
        "description": "What `campaign-rules diff OLD --format json` prints: both rule sets, "
        "the environment's differences, and every change with its verdict and witness "
        "(D-diff).",
        "type": "object",
        "additionalProperties": False,
        "required": ["old", "new", "environment", "bodies", "summary", "changes", "unprobed"],
        "properties": {
            "old": {"$ref": "#/$defs/side"},
            "new": {"$ref": "#/$defs/side"},
            "environment": _environment(),
            "bodies": {"type": "integer", "minimum": 0, "description": "bodies judged by both"},
            "summary": _summary(),
            "changes": {"type": "array", "items": {"$ref": "#/$defs/change"}},
            "unprobed": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["rule", "reason"],
                    "properties": {"rule": {"type": "string"}, "reason": {"type": "string"}},
                },
            },
        },
        "$defs": {
            "side": _side(),
            "change": _change(),
            "witness": _witness(),
            "answer": _answer(),
        },
    }


def render_diff_schema() -> str:
    """The schema as `schema/diff.schema.json` holds it."""
    return json.dumps(diff_schema(), indent=2, ensure_ascii=True) + "\n"


def _side() -> dict[str, object]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["command", "executor", "version", "fingerprint", "rules", "tzdata"],
        "properties": {
            "command": {**_TEXT_OR_NULL, "description": "OLD as given; null for the installed"},
            "executor": {"type": "string"},
            "version": _TEXT_OR_NULL,
            "fingerprint": _TEXT_OR_NULL,
            "rules": {"type": "integer", "minimum": 0},
            "tzdata": _TEXT_OR_NULL,
        },
    }


def _environment() -> dict[str, object]:
    zones = {"type": "array", "items": {"type": "string"}}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": [
            "known",
            "changed",
            "old_tzdata",
            "new_tzdata",
            "zones_added",
            "zones_removed",
            "breaking",
        ],
        "properties": {
            "known": {"type": "boolean", "description": "both sides told their zone names"},
            "changed": {"type": "boolean"},
            "old_tzdata": _TEXT_OR_NULL,
            "new_tzdata": _TEXT_OR_NULL,
            "zones_added": zones,
            "zones_removed": zones,
            "breaking": {"type": "boolean", "description": "the new side lacks a zone"},
        },
    }


def _summary() -> dict[str, object]:
    counts = ["changes", "breaking", *VERDICTS, "rules_unprobed"]
    return {
        "type": "object",
        "additionalProperties": False,
        "required": counts,
        "properties": {name: {"type": "integer", "minimum": 0} for name in counts},
    }


def _change() -> dict[str, object]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["rule", "change", "old", "new", "verdict", "breaking", "note", "witness"],
        "properties": {
            "rule": {"type": "string"},
            "change": {"enum": _CHANGES},
            "old": {"description": "the member's old value (a row, for removed); null if none"},
            "new": {"description": "the member's new value (a row, for added); null if none"},
            "verdict": {"enum": list(VERDICTS)},
            "breaking": {"type": "boolean"},
            "note": {"type": "string"},
            "witness": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/witness"}]},
        },
    }


def _witness() -> dict[str, object]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["origin", "member", "body", "request", "old", "new", "breaking"],
        "properties": {
            "origin": {"type": "string", "description": "where the body came from"},
            "member": {**_TEXT_OR_NULL, "description": "the JSON Pointer of the member changed"},
            "body": {
                "description": "the body's text; {base64} for bytes that are not UTF-8",
                "oneOf": [
                    {"type": "string"},
                    {
                        "type": "object",
                        "required": ["base64"],
                        "properties": {"base64": {"type": "string"}},
                    },
                ],
            },
            "request": {
                "type": "object",
                "description": "the rest of the executor request: kind, directory, existing, ...",
            },
            "old": {"$ref": "#/$defs/answer"},
            "new": {"$ref": "#/$defs/answer"},
            "breaking": {"type": "boolean"},
        },
    }


def _answer() -> dict[str, object]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["ok", "status", "violations"],
        "properties": {
            "ok": {"type": "boolean"},
            "status": {"type": ["integer", "null"]},
            "violations": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["rule", "key", "field", "pointer"],
                    "properties": {
                        "rule": {"type": "string"},
                        "key": {"type": "string"},
                        "field": _TEXT_OR_NULL,
                        "pointer": _TEXT_OR_NULL,
                    },
                },
            },
        },
    }
