"""The JSON Schemas (draft 2020-12) of the kit's files and of the protocol's lines.

Each is written to the kit's `schemas/` folder; they refer to each other by file name, beside
one another (`$id`s share one base). The protocol's request and answer are the lines between a
runner and an executor (docs/conformance.md).
"""

from __future__ import annotations

from typing import Any, Final

from campaign_rules._conformance.protocol import ANSWER_KINDS, PROTOCOL, READERS
from campaign_rules._export.links import DOCS_URL

__all__ = ["KIT_FORMAT", "SCHEMAS", "schema_document", "schema_path"]

# The version of the kit's layout and files; the protocol has its own.
KIT_FORMAT: Final = 1
_BASE: Final = f"{DOCS_URL}conformance/schemas/"
_DRAFT: Final = "https://json-schema.org/draft/2020-12/schema"


def schema_path(name: str) -> str:
    """The path in the kit of the schema `name` (`case`, `request`, ...)."""
    return f"schemas/{name}.schema.json"


def schema_document(name: str, title: str, body: dict[str, Any]) -> dict[str, Any]:
    """The schema of the kit's file kind `name`: its draft, its `$id`, its title and `body`."""
    return {"$schema": _DRAFT, "$id": f"{_BASE}{name}.schema.json", "title": title, **body}


def _object(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    """An object of exactly these members (all required unless `required` says which)."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


_STRING: Final = {"type": "string"}
_NULLABLE_STRING: Final = {"type": ["string", "null"]}
_NULLABLE_INTEGER: Final = {"type": ["integer", "null"]}
_RULESET: Final = _object(
    {"version": _STRING, "fingerprint": {"type": "string", "pattern": "^[0-9a-f]{64}$"}}
)

_BODY: Final = {
    "description": "The bytes received: their text when they are UTF-8 (with no lone "
    "surrogate), else their base64.",
    "oneOf": [
        _object({"text": _STRING}),
        _object({"base64": {"type": "string", "contentEncoding": "base64"}}),
    ],
}
_DIRECTORY: Final = {
    "description": "The server's records the look-up rules read; null: offline, no look-up.",
    "oneOf": [
        {"type": "null"},
        _object(
            {
                "agents": {
                    "type": "array",
                    "items": _object(
                        {
                            "id": _STRING,
                            "integrations": {
                                "description": "The agent's integrations: id to type.",
                                "type": "object",
                                "additionalProperties": _STRING,
                            },
                        }
                    ),
                },
                "tags": {"type": "array", "items": _STRING},
                "billing_limit_reached": {"type": "boolean"},
            }
        ),
    ],
}

REQUEST: Final = schema_document(
    "request",
    "A request of the executor protocol: one JSON line a runner writes",
    {
        "oneOf": [
            {"$ref": "#/$defs/describe"},
            {"$ref": "#/$defs/create"},
            {"$ref": "#/$defs/update"},
            {"$ref": "#/$defs/response"},
        ],
        "$defs": {
            "describe": _object({"id": {"const": "describe"}, "kind": {"const": "describe"}}),
            "create": _object(
                {"id": _STRING, "kind": {"const": "create"}, "body": _BODY, "directory": _DIRECTORY}
            ),
            "update": _object(
                {
                    "id": _STRING,
                    "kind": {"const": "update"},
                    "body": {**_BODY, "description": "The JSON Merge Patch's bytes."},
                    "directory": _DIRECTORY,
                    "existing": {"description": "The stored campaign's wire JSON, any value."},
                    "status": {
                        "description": "The campaign's current status, when known.",
                        **_NULLABLE_STRING,
                    },
                }
            ),
            "response": _object(
                {
                    "id": _STRING,
                    "kind": {"const": "response"},
                    "body": _BODY,
                    "reader": {"enum": list(READERS)},
                    "http_status": {
                        "description": "The HTTP status an error body came with.",
                        **_NULLABLE_INTEGER,
                    },
                }
            ),
        },
    },
)

ANSWER: Final = schema_document(
    "answer",
    "An answer of the executor protocol: one JSON line an executor writes per request",
    {
        "oneOf": [
            {"$ref": "#/$defs/describe"},
            {"$ref": "#/$defs/judged"},
            {"$ref": "#/$defs/unsupported"},
        ],
        "$defs": {
            "describe": _object(
                {
                    "id": {"const": "describe"},
                    "protocol": {"const": PROTOCOL},
                    "executor": _STRING,
                    "ruleset": {"oneOf": [{"type": "null"}, _RULESET]},
                    "kinds": {"type": "array", "items": {"enum": list(ANSWER_KINDS)}},
                }
            ),
            "judged": _object(
                {
                    "id": _STRING,
                    "ok": {"type": "boolean"},
                    "status": _NULLABLE_INTEGER,
                    "violations": {"type": "array", "items": {"$ref": "#/$defs/violation"}},
                    "envelope": {"type": ["object", "null"]},
                }
            ),
            "violation": _object(
                {
                    "rule": _STRING,
                    "key": _STRING,
                    "field": _NULLABLE_STRING,
                    "pointer": _NULLABLE_STRING,
                    "line": _NULLABLE_INTEGER,
                    "column": _NULLABLE_INTEGER,
                    "message": _STRING,
                }
            ),
            "unsupported": _object({"id": _NULLABLE_STRING, "unsupported": _STRING}),
        },
    },
)

CASE: Final = schema_document(
    "case",
    "A case of the kit: one line of a cases/*.jsonl file, a request and its exact answer",
    _object(
        {
            "id": {"description": "The request's and the answer's id.", **_STRING},
            "rule": {"description": "The rule whose case file in tests/cases/ it comes from."}
            | _STRING,
            "title": _STRING,
            "request": {"$ref": "request.schema.json"},
            "answer": {"$ref": "answer.schema.json#/$defs/judged"},
        }
    ),
)

_FILE: Final = _object(
    {
        "path": _STRING,
        "schema": {"description": "The path of the file's JSON Schema, or a meta-schema."}
        | _STRING,
        "count": {"description": "Lines of a .jsonl file; 1 otherwise.", "type": "integer"},
        "kind": {"description": "The kind of the cases a .jsonl file holds.", **_STRING},
    },
    required=["path", "schema", "count"],
)

MANIFEST: Final = schema_document(
    "manifest",
    "The manifest of a conformance kit: what made it, and every file in it",
    _object(
        {
            "kit": _object({"format": {"const": KIT_FORMAT}, "protocol": {"const": PROTOCOL}}),
            "generator": {"description": "The library that exported the kit.", **_STRING},
            "ruleset": _RULESET,
            "files": {"type": "array", "items": _FILE},
        }
    ),
)

DEFINITIONS: Final = schema_document(
    "definitions",
    "What the rules rest on: formats, time zones, white space, length units and limits",
    _object(
        {
            "formats": {"type": "object", "additionalProperties": {"type": "object"}},
            "timezones": _object(
                {
                    "tzdata": _STRING,
                    "iana": _NULLABLE_STRING,
                    "names": {"type": "array", "items": _STRING},
                }
            ),
            "whitespace": {
                "type": "array",
                "items": {"type": "string", "pattern": "^U\\+[0-9A-F]{4,6}$"},
            },
            "length_unit": {"const": "code point"},
            "column_unit": {"const": "code point"},
            "limits": {"type": "object"},
        }
    ),
)

# Every schema of the kit, by name.
SCHEMAS: Final = {
    "manifest": MANIFEST,
    "definitions": DEFINITIONS,
    "case": CASE,
    "request": REQUEST,
    "answer": ANSWER,
}
