"""The JavaScript executor (conformance/js/executor.mjs) run on the cases of `tests/cases/`.

A small driver of the executor protocol (docs/conformance, version 1): each case of a file
becomes one request, named `<rule id>/<index>` (its file's stem and its place in the file, from
0), as the kit names it; the expected answer is the library's, `validate_create_json` on the
same bytes; an answer passes when it agrees strictly (ok, status, each violation's rule, key,
field and pointer in order, the envelope but its message), as `conformance run` compares.

The cases the kit does not send to an executor (path parameters, headers, idempotency, the
rate, the lifecycle: a server's) and the inputs no bytes carry (`text.value`, a payload that is
not JSON) are left out. Updates, responses and creations with a directory are sent as the
requests of their kind with the members this executor reads; it answers them `unsupported`.

`tests/test_conformance_js.py` checks the run against `conformance/js/expected-failures.txt`;
`scripts/conformance_js.py` writes that file and the scoreboard from it.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from campaign_rules import validate_create_json
from campaign_rules._core.limits import VIOLATIONS_MAX
from campaign_rules._export.json_schema import SCHEMA_EXCEPTIONS
from tests.cases_support import (
    REQUEST_SOURCES,
    build_body,
    build_payload,
    case_files,
    text_data,
)

ROOT = Path(__file__).resolve().parent.parent
EXECUTOR_DIR = ROOT / "conformance" / "js"
EXECUTOR = EXECUTOR_DIR / "executor.mjs"
EXPECTED_FAILURES = EXECUTOR_DIR / "expected-failures.txt"
SCHEMA_FILE = ROOT / "schema" / "campaign-create.rules.schema.json"
SCOREBOARD = ROOT / "docs" / "conformance-scoreboard.md"
NODE = shutil.which("node")

# Why the executor fails a case, by the rules of the two answers, in this order: the groups of
# expected-failures.txt. A failure none of them explains is "unexplained", which the test refuses.
JSON_PARSE_HIDES = {
    "body.member_names_unique": "JSON.parse keeps the last of repeated member names",
    "body.numbers_fit_a_double": (
        "JSON.parse reads a number past the double range (1e999) as Infinity"
    ),
    "body.strings_are_unicode": "JSON.parse accepts an escaped lone surrogate (\\ud800)",
    "body.depth_within_limit": "JSON.parse reads any depth, and the schema bounds none",
}
NOT_IN_SCHEMA = {
    "body.within_size_limit": "it judges a decoded value, not the size of its bytes",
    **SCHEMA_EXCEPTIONS,
    "cycles.filter_items_are_unique": (
        "`uniqueItems` refuses the array once, naming one repeated pair; the library reports "
        "each repeated item, and a later rule still judges it"
    ),
}
CAPPED = (
    f"the library stops at {VIOLATIONS_MAX} violations (D-hostile-input); the executor reports "
    "them all"
)
SHOWN = (
    "the library shows a long member name shortened in `field` (D-shown-text); the executor "
    "shows it whole (the pointers agree)"
)
UNEXPLAINED = "unexplained"


def node_ready() -> str | None:
    """Why the executor cannot run here, or `None` when node and its ajv are installed."""
    if NODE is None:
        return "node (Node.js) is not installed: the JavaScript executor needs it"
    if not (EXECUTOR_DIR / "node_modules" / "ajv").is_dir():
        return "ajv is not installed: run `npm ci --prefix conformance/js` (.ci/run does)"
    return None


def body_of(data: bytes) -> dict[str, str]:
    """The protocol's `body`: the text when the bytes are UTF-8, else their base64."""
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}


def json_bytes(value: object) -> bytes | None:
    """`value` as the kit writes it: its JSON text in UTF-8, escaped where it holds a lone
    surrogate; `None` for a value JSON cannot write as it is."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return None
    if json.loads(text) != value:
        return None
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, allow_nan=False).encode("ascii")


def executor_cases(kit_cases: Path | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
    """`(case id, request)` for each case an executor is sent.

    From `kit_cases`, a kit's `cases.json` (`{"cases": [{"request": ...}, ...]}`), when given;
    else the kit's own, once the package holds them (issue 39's conformance package); else made
    here from `tests/cases/` as the kit makes them, with the kit's ids (`<rule id>::<title>`).
    """
    if kit_cases is not None:
        sources = json.loads(kit_cases.read_text(encoding="utf-8"))["cases"]
        for source in sources:
            request = source["request"]
            packed = request["body"].get("packed")
            if packed is not None:  # the kit's long bodies, stored as a run of one character
                text = packed["head"] + packed["repeat"] * packed["count"] + packed["tail"]
                request = {**request, "body": {"text": text}}
            yield request["id"], request
        return
    try:
        from campaign_rules._conformance.cases import source_cases  # type: ignore[import-not-found]
    except ImportError:
        source_cases = None
    if source_cases is not None:
        for source in source_cases():
            yield source["request"]["id"], source["request"]
        return
    for stem, doc in case_files().items():
        for case in doc["cases"]:
            request = _request(case)
            if request is not None:
                case_id = f"{stem}::{case['title']}"
                yield case_id, {"id": case_id, **request}


def _request(case: dict[str, Any]) -> dict[str, Any] | None:
    if any(source in case for source in REQUEST_SOURCES):
        return None  # a server's: the kit's HTTP cases
    if "response" in case:
        response = case["response"]
        body = json_bytes(build_body(response))
        status = response.get("status")
        if body is None or (status is not None and type(status) is not int):
            return None
        return {
            "kind": "response",
            "body": body_of(body),
            "reader": response["parse"],
            "http_status": status,
        }
    if "update" in case:
        patch = json_bytes(case["update"]["patch"])
        if patch is None:
            return None
        status = case["update"].get("status")
        return {
            "kind": "update",
            "body": body_of(patch),
            "directory": None,
            "existing": {},
            "status": status,
        }
    if "text" in case:
        data = text_data(case["text"])
        if isinstance(data, str):
            try:
                data = data.encode("utf-8")
            except UnicodeEncodeError:
                return None  # a lone surrogate, which no bytes are
        if not isinstance(data, bytes):
            return None  # a Python argument, `body.is_bytes_or_text`'s
        return {"kind": "create", "body": body_of(data), "directory": None}
    data = json_bytes(build_payload(case))
    if data is None:
        return None
    directory = None
    if "directory" in case:
        spec = case["directory"]
        directory = {
            "agents": [],
            "tags": sorted(spec.get("tags", ())),
            "billing_limit_reached": spec.get("billing_reached", False),
        }
    return {"kind": "create", "body": body_of(data), "directory": directory}


def bytes_of(body: dict[str, str]) -> bytes:
    return body["text"].encode("utf-8") if "text" in body else base64.b64decode(body["base64"])


def library_answer(request: dict[str, Any]) -> dict[str, Any]:
    """The library's answer to a creation request with no directory, as the protocol writes it."""
    result = validate_create_json(bytes_of(request["body"]))
    return {
        "id": request["id"],
        "ok": result.ok,
        "status": None if result.ok else result.status,
        "violations": [
            {"rule": v.rule, "key": v.key.value, "field": v.field, "pointer": v.pointer}
            for v in result.violations
        ],
        "envelope": result.envelope(),
    }


def compared(answer: dict[str, Any]) -> dict[str, Any]:
    """What the strict comparison reads of an answer: no messages, no places."""
    if "unsupported" in answer:
        return {"unsupported": True}
    envelope = answer["envelope"]
    return {
        "ok": answer["ok"],
        "status": answer["status"],
        "violations": [
            [v["rule"], v["key"], v["field"], v["pointer"]] for v in answer["violations"]
        ],
        "envelope": None
        if envelope is None
        else {name: value for name, value in envelope.items() if name != "message"},
    }


def run_executor(requests: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The executor's answers by case id: one process, `describe` first, every request after."""
    assert NODE is not None
    lines = [{"id": "describe", "kind": "describe"}, *requests]
    done = subprocess.run(
        [NODE, str(EXECUTOR), str(SCHEMA_FILE)],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [answer["id"] for answer in answers] == [line["id"] for line in lines]
    return {answer["id"]: answer for answer in answers}


def run_cases(
    kit_cases: Path | None = None,
) -> dict[str, tuple[dict[str, Any], dict[str, Any] | None]]:
    """Each case's `(answer, the library's answer)`: `None` for a kind this driver leaves to
    the kit (the executor must call it unsupported)."""
    cases = dict(executor_cases(kit_cases))
    answers = run_executor(list(cases.values()))
    return {
        case_id: (
            answers[case_id],
            library_answer(request)
            if request["kind"] == "create" and request["directory"] is None
            else None,
        )
        for case_id, request in cases.items()
    }


def failures(
    runs: dict[str, tuple[dict[str, Any], dict[str, Any] | None]],
) -> dict[str, str]:
    """The cases the executor fails in `runs`, each with the reason of its group."""
    failed = {}
    for case_id, (answer, want) in runs.items():
        if want is not None and compared(answer) == compared(want):
            continue
        failed[case_id] = reason_of(answer, want)
    return failed


def reason_of(answer: dict[str, Any], want: dict[str, Any] | None) -> str:
    """Why a case fails, said once for each cause."""
    if "unsupported" in answer:
        return f"not judged: {answer['unsupported']}"
    assert want is not None
    rules = {v["rule"] for v in want["violations"]} | {v["rule"] for v in answer["violations"]}
    for rule, why in JSON_PARSE_HIDES.items():
        if rule in rules:
            return f"JavaScript's JSON.parse hides it ({rule}): {why}"
    for rule, why in NOT_IN_SCHEMA.items():
        if rule in rules:
            return f"JSON Schema cannot say it ({rule}): {why}"
    if len(want["violations"]) == VIOLATIONS_MAX < len(answer["violations"]):
        return f"the cap: {CAPPED}"
    pointers = [[v["rule"], v["pointer"]] for v in want["violations"]]
    if pointers == [[v["rule"], v["pointer"]] for v in answer["violations"]]:
        return f"shown text: {SHOWN}"
    return UNEXPLAINED


def grouped(failed: dict[str, str]) -> dict[str, list[str]]:
    """The failing case ids by reason, each group in case order, the groups largest first."""
    groups: dict[str, list[str]] = defaultdict(list)
    for case_id, reason in failed.items():
        groups[reason].append(case_id)
    return dict(sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])))


def expected_failures_text(failed: dict[str, str]) -> str:
    """conformance/js/expected-failures.txt: the failing cases, grouped by reason."""
    lines = [
        "# The cases conformance/js/executor.mjs fails: give this file to",
        "# `campaign-rules conformance run --expected-failures`. Written by",
        "# scripts/conformance_js.py; docs/conformance-scoreboard.md counts them.",
        "# Each group: `# ` and its reason, then its case ids (`<rule id>/<index>`), one a line.",
    ]
    for reason, case_ids in grouped(failed).items():
        lines += ["", f"# {reason}", *case_ids]
    return "\n".join(lines) + "\n"


def scoreboard_text(total: int, failed: dict[str, str]) -> str:
    """docs/conformance-scoreboard.md: how many cases each executor passes, and why not."""
    lines = [
        "# Conformance scoreboard",
        "",
        "<!-- Written by scripts/conformance_js.py from a run; tests/test_conformance_js.py",
        "checks it. Do not edit by hand. -->",
        "",
        "The cases each executor passes, compared strictly (ok, status, each violation's rule,",
        "key, field and pointer in order, the envelope but its message), on the cases of",
        "`tests/cases/` that an executor is sent.",
        "",
        "| executor | cases | passed | expected failures |",
        "|---|---:|---:|---:|",
        f"| the library (`validate_create_json`: its answers are the expected ones) | {total} "
        f"| {total} | 0 |",
        f"| JavaScript, ajv on the exported schema (`conformance/js/executor.mjs`) | {total} "
        f"| {total - len(failed)} | {len(failed)} |",
        "",
        "## Why each expected failure of the JavaScript executor fails",
        "",
        "Listed, case by case, in `conformance/js/expected-failures.txt`.",
        "",
        "| cases | reason |",
        "|---:|---|",
    ]
    lines += [f"| {len(ids)} | {reason} |" for reason, ids in grouped(failed).items()]
    lines += [
        "",
        "## Running it",
        "",
        "`npm ci --prefix conformance/js` installs its ajv; then the kit's runner drives it:",
        "`campaign-rules conformance run KIT --expected-failures "
        "conformance/js/expected-failures.txt -- node conformance/js/executor.mjs "
        "schema/campaign-create.rules.schema.json`. `python scripts/conformance_js.py` runs it on",
        "the cases by a driver of its own and writes this page and that file.",
    ]
    return "\n".join(lines) + "\n"
