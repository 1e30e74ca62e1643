"""The JSON Schema accepts exactly what `validate_create` accepts, under jsonschema and under ajv.

One corpus for both: every creation case of `tests/cases/` (and the merged campaign of every
update case), 2,500 payloads drawn from the public strategies (1,000 valid ones, 1,500 valid ones
with one field replaced by a bad value), and hand-picked edges where JSON Schema validators and
Python are known to differ (numbers, white space, line breaks before the end of a string).
Each payload goes through `json.dumps(allow_nan=False)` and back first, so Python and Node.js
judge the same decoded JSON.

Offline rules only (no directory). The one tolerated disagreement: the schema accepts and the
library refuses, and every violation comes from a rule of `SCHEMA_EXCEPTIONS`, which JSON Schema
cannot express (D-json-schema).
"""

from __future__ import annotations

import functools
import json
import math
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from campaign_rules import to_wire, validate_create
from campaign_rules._core.limits import MESSAGE_LIMIT, NAME_MAX_LENGTH, RETRIES, WHITESPACE
from campaign_rules._export.json_schema import SCHEMA_EXCEPTIONS
from campaign_rules.strategies import create_payloads, invalid_create_payloads, is_plain_json
from tests.cases_support import all_cases, build_existing, build_payload, is_creation_case
from tests.property.strategies import ECMASCRIPT_WHITESPACE
from tests.support import draw, payload, rfc7396_merge

ROOT = Path(__file__).parent.parent
SCHEMA_FILE = ROOT / "schema" / "campaign-create.schema.json"
AJV_DIR = Path(__file__).parent / "ajv"
MAX = NAME_MAX_LENGTH

VALID_DRAWN = 1_000
INVALID_DRAWN = 1_500

# ---------------------------------------------------------------------------------------------
# The corpus.


def case_payloads() -> Iterator[tuple[str, Any]]:
    for stem, case in all_cases():
        where = f"{stem}::{case['title']}"
        if "update" in case:
            existing = build_existing(case["update"])
            if not isinstance(existing, dict):  # a value object, not stored JSON
                existing = to_wire(existing)
            yield f"{where} (merged)", rfc7396_merge(existing, case["update"]["patch"])
        elif is_creation_case(case):
            yield where, build_payload(case)
        # Other cases (responses, path parameters, headers, transitions) hold no creation body.


def _at(path: tuple[str, ...], value: Any, base: str = "phone_call") -> dict[str, Any]:
    wire = payload(base)
    node = wire
    for name in path[:-1]:
        node = node[name]
    node[path[-1]] = value
    return wire


_MON = ("scheduling", "mon")


def edge_payloads() -> Iterator[tuple[str, Any]]:
    """Values where validators, Python and ECMAScript are known to part ways."""
    with_window = payload(
        "phone_call",
        scheduling={"mon": {"startTime": "09:00", "stopTime": "17:00", "active": True}},
    )
    for char in ECMASCRIPT_WHITESPACE + "\x85\u200b\u180e\x00\ud800":
        yield f"name {char!r}", payload(name=char)
        yield f"name {char!r}x", payload(name=char + "x")
    for name in (
        "🚀" * MAX,
        "🚀" * (MAX + 1),
        "é" * MAX,
        "e\u0301" * (MAX // 2 + 1),
        "a" * MAX + "\n",
    ):
        yield f"name of {len(name)}", payload(name=name)
    agent = payload()["agent_id"]
    for text in (agent + "\n", agent.upper(), "\n" + agent, agent[:-1] + "\n"):
        yield f"agent_id {text!r}", payload(agent_id=text)
    for time in ("09:00\n", "23:59", "24:00", "9:00"):
        window = {"startTime": "00:00", "stopTime": time, "active": False}
        yield f"stopTime {time!r}", {**with_window, "scheduling": {"mon": window}}
    for date in ("2024-02-29", "2100-02-29", "2000-02-29", "0000-01-01", "0001-01-01",
                 "9999-12-31", "2026-02-28\n"):  # fmt: skip
        yield f"date {date!r}", _at(("cycles", "schedule_end_date"), date, "scheduled")
    high = RETRIES.high  # a float at the bound, a hair over it, and a little under it
    numbers = (
        float(high),
        -0.0,
        0.0,
        1e300,
        -1e300,
        2**53 + 1,
        2**64,
        math.nextafter(high, math.inf),
        1e-300,
        high - 0.1,
    )
    for number in numbers:
        yield f"retries {number!r}", payload(retries=number)
        yield f"max_iterations {number!r}", _at(("cycles", "max_iterations"), number, "cooldown")
    for number in (float(MESSAGE_LIMIT.high), MESSAGE_LIMIT.high + 1, 1.0, 0.5):
        yield f"message_limit {number!r}", payload(message_limit=number)
    yield "timezone in lower case", payload(timezone="utc")
    yield "timezone UTC", payload(timezone="UTC")
    yield "cycles of 65 members, not enabled", payload(cycles={f"k{i}": i for i in range(65)})
    yield "cycles of 64 members, not enabled", payload(cycles={f"k{i}": i for i in range(64)})
    yield "a repeated status", _at(("cycles", "filter_statuses"), ["failed", "failed"], "cooldown")
    yield "a whatsapp status", _at(("cycles", "filter_statuses"), ["read"], "cooldown")
    disabled = {"enabled": False, "filter_statuses": ["nope", 1], "colour": None}
    yield "a whatsapp campaign with a disabled block", payload("whatsapp", cycles=disabled)
    yield (
        "a whatsapp campaign with an enabled block",
        payload("whatsapp", cycles=payload("cooldown")["cycles"]),
    )


def round_trip(value: Any) -> Any:
    return json.loads(json.dumps(value, allow_nan=False))


@functools.cache
def corpus() -> tuple[tuple[str, Any], ...]:
    """Every payload of the comparison, with where it comes from, as decoded JSON."""
    drawn_valid = draw(create_payloads(json_only=True), VALID_DRAWN)
    drawn_invalid = [
        triple[0] for triple in draw(invalid_create_payloads(json_only=True), INVALID_DRAWN)
    ]
    sources = [
        *case_payloads(),
        *edge_payloads(),
        *((f"drawn valid #{index}", value) for index, value in enumerate(drawn_valid)),
        *((f"drawn with one defect #{index}", value) for index, value in enumerate(drawn_invalid)),
    ]
    assert all(is_plain_json(value) for _, value in sources)
    return tuple((where, round_trip(value)) for where, value in sources)


def compare(verdicts: list[bool]) -> tuple[list[str], set[str]]:
    """The disagreements outside the listed exceptions, and the exception rules that showed."""
    items = corpus()
    assert len(verdicts) == len(items)
    wrong: list[str] = []
    excused: set[str] = set()
    for (where, value), schema_ok in zip(items, verdicts, strict=True):
        result = validate_create(value)
        if schema_ok == result.ok:
            continue
        rules = {violation.rule for violation in result.violations}
        if schema_ok and rules <= set(SCHEMA_EXCEPTIONS):
            excused |= rules
            continue
        found = [(v.rule, v.field) for v in result.violations]
        wrong.append(f"{where}: schema says {schema_ok}, validate_create {found}: {value!r:.300}")
    return wrong, excused


def assert_agreement(verdicts: list[bool]) -> None:
    wrong, excused = compare(verdicts)
    assert wrong == [], f"{len(wrong)} disagreements:\n" + "\n".join(wrong[:10])
    # Each listed exception is real: the corpus shows it, so the list cannot go stale.
    assert excused == set(SCHEMA_EXCEPTIONS)


# ---------------------------------------------------------------------------------------------
# The corpus itself.


def test_the_corpus_is_large_and_mixed() -> None:
    items = corpus()
    drawn = [value for where, value in items if where.startswith("drawn")]
    distinct = {json.dumps(value, sort_keys=True) for value in drawn}
    assert len(distinct) >= 2_000
    verdicts = [validate_create(value).ok for _, value in items]
    assert verdicts.count(True) >= 1_000
    assert verdicts.count(False) >= 1_500
    assert sum(1 for where, _ in items if "::" in where) >= 300  # the case files


# ---------------------------------------------------------------------------------------------
# jsonschema.


def test_jsonschema_agrees_with_validate_create() -> None:
    validator = Draft202012Validator(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    assert_agreement([validator.is_valid(value) for _, value in corpus()])


# ---------------------------------------------------------------------------------------------
# ajv, under Node.js.

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    NODE is None, reason="node (Node.js) is not installed: the ajv agreement test needs it"
)


def run_node(*args: str, stdin: str | None = None) -> str:
    assert NODE is not None
    assert (AJV_DIR / "node_modules" / "ajv").is_dir(), (
        "ajv is not installed: run `npm ci --prefix tests/ajv` (.ci/run does)"
    )
    done = subprocess.run(
        [NODE, *args],
        cwd=AJV_DIR,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@needs_node
def test_ajv_agrees_with_validate_create(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    lines = (json.dumps(value, allow_nan=False) for _, value in corpus())
    cases.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    out = run_node("verdicts.mjs", str(SCHEMA_FILE), str(cases))
    verdicts = [json.loads(line)["valid"] for line in out.splitlines()]
    assert_agreement(verdicts)


@needs_node
def test_the_white_space_of_the_rules_is_ecmascripts_backslash_s() -> None:
    # D-blank-name: `_core.limits.WHITESPACE` is exactly what ECMAScript's `\s` matches, asked of
    # Node.js itself over every code point.
    script = (
        "const out = [];"
        "for (let c = 0; c <= 0x10ffff; c++) {"
        "  if (/^\\s$/u.test(String.fromCodePoint(c))) out.push(c);"
        "}"
        "process.stdout.write(JSON.stringify(out));"
    )
    codes = json.loads(run_node("-e", script))
    assert sorted(codes) == sorted(map(ord, WHITESPACE))
