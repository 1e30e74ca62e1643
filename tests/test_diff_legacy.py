"""The legacy side of `campaign-rules diff` (issue 40): 5d4e07d, driven through its command line.

The version at 5d4e07d speaks no executor protocol; `_diff.legacy` asks its `rules --json`,
`schema` and `check --json`. Its answers must be the ones that version's own library gives
(`validate_create_json`, `parse_error`), read in a process of its own: the command line reached
through files and JSON says what the library says, violation by violation, in order.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_rules._diff.legacy import open_legacy
from campaign_rules._diff.sides import CannotCompare
from tests.cases_support import all_cases, build_payload, is_creation_case, text_data
from tests.diff_support import old_library_answers

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _case_bodies() -> list[bytes]:
    """Every creation body of tests/cases that needs no directory, as bytes: some hundreds."""
    bodies = []
    for _, case in all_cases():
        if "text" in case:
            data = text_data(case["text"])
            if isinstance(data, bytes):
                bodies.append(data)
        elif is_creation_case(case) and "directory" not in case and "update" not in case:
            try:
                bodies.append(json.dumps(build_payload(case)).encode("utf-8"))
            except (TypeError, ValueError):
                continue  # a payload that is no JSON text (a Python object) has no bytes
    return bodies


def _requests(bodies: list[bytes], **members: object) -> list[dict[str, object]]:
    return [
        {"id": f"case-{number}", "body": {"base64": _base64(body)}, **members}
        for number, body in enumerate(bodies)
    ]


def _base64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _written(directory: Path, bodies: list[bytes]) -> list[Path]:
    files = []
    for number, body in enumerate(bodies):
        path = directory / f"body-{number}.json"
        path.write_bytes(body)
        files.append(path)
    return files


def test_creation_bodies_are_judged_as_its_own_library_judges_them(
    legacy_command: Path, tmp_path: Path
) -> None:
    bodies = _case_bodies()
    assert len(bodies) > 200  # more than one batch of `check --json`
    side = open_legacy(str(legacy_command))
    answers = side.judge(_requests(bodies, kind="create", directory=None))
    expected = old_library_answers(legacy_command, "create", _written(tmp_path, bodies))
    assert [answer.pop("id") for answer in answers] == [f"case-{n}" for n in range(len(bodies))]
    assert answers == expected
    assert any(answer["ok"] for answer in answers)
    assert not all(a["ok"] for a in answers)


def test_error_bodies_are_read_with_their_status(legacy_command: Path, tmp_path: Path) -> None:
    bodies = [
        b'{"success": false, "error": "NOT_FOUND", "message": "no campaign 7"}',
        b'{"error": 404, "message": "no thread"}',
        b'{"success": false}',
        b"[]",
    ]
    side = open_legacy(str(legacy_command))
    answers = side.judge(_requests(bodies, kind="response", reader="error", http_status=404))
    expected = old_library_answers(legacy_command, "404", _written(tmp_path, bodies))
    assert [{k: v for k, v in a.items() if k != "id"} for a in answers] == expected


def test_what_its_command_line_cannot_reach_is_unsupported_with_the_reason(
    legacy_command: Path,
) -> None:
    body = {"text": (EXAMPLES / "phone_call.json").read_text(encoding="utf-8")}
    requests = [
        {
            "id": 1,
            "kind": "update",
            "body": body,
            "directory": None,
            "existing": {},
            "status": None,
        },
        {"id": 2, "kind": "create", "body": body, "directory": {"agents": [], "tags": []}},
        {"id": 3, "kind": "response", "body": {"text": "{"}, "reader": "thread"},
        {"id": 4, "kind": "response", "body": {"text": "{}"}, "reader": "error"},
        {"id": 5, "kind": "create", "body": {"base64": "not base64!"}, "directory": None},
        {"id": 6, "kind": "create", "body": body, "directory": None},
    ]
    answers = open_legacy(str(legacy_command)).judge(requests)
    assert [answer["id"] for answer in answers] == [1, 2, 3, 4, 5, 6]
    reasons = [str(answer.get("unsupported")) for answer in answers]
    assert "judges no update" in reasons[0]
    assert "no directory" in reasons[1]
    assert "could not read it: it is not valid JSON" in reasons[2]
    assert "needs the HTTP status" in reasons[3]
    assert "neither" in reasons[4]
    assert answers[5] == {"id": 6, "ok": True, "status": None, "violations": [], "envelope": None}


def test_it_says_who_it_is_from_its_own_outputs(legacy_command: Path) -> None:
    side = open_legacy(str(legacy_command))

    def printed(*arguments: str) -> object:
        done = subprocess.run([legacy_command, *arguments], capture_output=True, check=True)
        return json.loads(done.stdout)

    catalogue = printed("rules", "--json")
    assert isinstance(catalogue, dict)
    description = side.describe()
    assert (description.version, description.fingerprint) == (
        catalogue["ruleset"]["version"],
        catalogue["ruleset"]["fingerprint"],
    )
    assert description.version == "0.2.0"
    assert description.kinds == ("create", "response")
    assert side.rules() == catalogue["rules"]
    assert "scope" not in side.rules()[0]  # what that version does not give is not invented
    assert side.bounds() == printed("schema")
    environment = side.environment()
    assert environment.zones is not None
    assert "America/Mexico_City" in environment.zones
    side.close()


def test_a_batch_it_fails_on_is_halved_down_to_the_body(
    legacy_command: Path, tmp_path: Path
) -> None:
    # A broken version: a traceback, and no report, for any batch holding the word CRASH.
    broken = tmp_path / "broken-campaign-rules"
    broken.write_text(
        f"#!{sys.executable}\n"
        "import os, sys\n"
        "for name in sys.argv[1:]:\n"
        "    if os.path.isfile(name) and b'CRASH' in open(name, 'rb').read():\n"
        "        raise RuntimeError('a defect of this version')\n"
        f"os.execv({str(legacy_command)!r}, [{str(legacy_command)!r}, *sys.argv[1:]])\n",
        encoding="utf-8",
    )
    broken.chmod(0o755)
    bodies = [(EXAMPLES / "phone_call.json").read_bytes(), b"{}", b'{"name": "CRASH"}', b"[1]"]
    answers = open_legacy(str(broken)).judge(_requests(bodies, kind="create", directory=None))
    assert answers[2] == {
        "id": "case-2",
        "ok": False,
        "status": 500,
        "violations": [],
        "envelope": None,
        "failed": "check --json failed on it: RuntimeError: a defect of this version",
    }
    others = [answers[n] for n in (0, 1, 3)]
    expected = old_library_answers(legacy_command, "create", _written(tmp_path, bodies))
    assert [{k: v for k, v in a.items() if k != "id"} for a in others] == [
        expected[n] for n in (0, 1, 3)
    ]


def test_a_command_that_is_not_a_campaign_rules_cannot_be_compared(tmp_path: Path) -> None:
    with pytest.raises(CannotCompare, match=r"^cannot compare: .* is not an executable command$"):
        open_legacy(str(tmp_path / "missing"))
    with pytest.raises(
        CannotCompare, match=r"is not a campaign-rules command \(its --version says 'Python "
    ):
        open_legacy(sys.executable)
