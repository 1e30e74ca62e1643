"""`campaign-rules conformance export DIR`: the kit written to a folder, the same bytes each time.

The kit is `manifest.json` (what made it, and every file with its schema and count),
`definitions.json`, the cases as JSON Lines by kind under `cases/`, and the JSON Schemas under
`schemas/`. Only these files are written; nothing else in the folder is touched.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from campaign_rules import __version__
from campaign_rules._conformance import http_cases
from campaign_rules._conformance.cases import kit_cases
from campaign_rules._conformance.definitions import definitions
from campaign_rules._conformance.protocol import ANSWER_KINDS, PROTOCOL
from campaign_rules._conformance.schemas import KIT_FORMAT, SCHEMAS, schema_path
from campaign_rules.schema import ruleset

__all__ = ["MANIFEST", "cases_path", "export_kit", "kit_files", "kit_schemas", "schema_text"]

MANIFEST: Final = "manifest.json"
_META_SCHEMA: Final = "https://json-schema.org/draft/2020-12/schema"
_HTTP: Final = "http"


def cases_path(kind: str) -> str:
    """The path in the kit of the cases of `kind` (`create`, `update`, `response`, `http`)."""
    return f"cases/{kind}.jsonl"


def export_kit(directory: Path) -> dict[str, Any]:
    """Write the kit into `directory` (made if missing); return its manifest."""
    files = kit_files()
    for path, data in files.items():
        target = directory / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    manifest: dict[str, Any] = json.loads(files[MANIFEST])
    return manifest


def kit_files() -> dict[str, bytes]:
    """Every file of the kit by its path in it, the manifest among them."""
    cases = kit_cases()
    listed: list[dict[str, Any]] = []
    files: dict[str, bytes] = {}

    def add(path: str, data: bytes, schema: str, count: int = 1, kind: str | None = None) -> None:
        files[path] = data
        listed.append({"path": path, "schema": schema, "count": count})
        if kind is not None:
            listed[-1]["kind"] = kind

    add("definitions.json", _document(definitions()), schema_path("definitions"))
    for kind in ANSWER_KINDS:
        lines = [case for case in cases if case["request"]["kind"] == kind]
        add(cases_path(kind), _lines(lines), schema_path("case"), len(lines), kind)
    sequences = http_cases.sequences()
    add(cases_path(_HTTP), _lines(sequences), schema_path("http-sequence"), len(sequences), _HTTP)
    for name, schema in kit_schemas().items():
        add(schema_path(name), _document(schema), _META_SCHEMA)
    manifest = {
        "kit": {"format": KIT_FORMAT, "protocol": PROTOCOL},
        "generator": f"campaign-rules {__version__}",
        "ruleset": dict(ruleset()),
        "files": [{"path": MANIFEST, "schema": schema_path("manifest"), "count": 1}, *listed],
    }
    return {MANIFEST: _document(manifest), **files}


def kit_schemas() -> dict[str, dict[str, Any]]:
    """Every JSON Schema of the kit by name, the HTTP sequences' among them."""
    return {**SCHEMAS, "http-sequence": http_cases.schema()}


def schema_text(name: str) -> str:
    """The text of the kit's schema `name`, as the kit and `schema/conformance/` hold it."""
    return _document(kit_schemas()[name]).decode()


def _document(value: object) -> bytes:
    # ASCII: a lone surrogate of a case's field or message is written escaped, as JSON allows.
    return (json.dumps(value, indent=2, ensure_ascii=True, allow_nan=False) + "\n").encode()


def _lines(values: Iterable[object]) -> bytes:
    return b"".join(
        json.dumps(value, ensure_ascii=True, allow_nan=False).encode() + b"\n" for value in values
    )
