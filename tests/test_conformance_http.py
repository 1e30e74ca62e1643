"""The kit's HTTP cases against the reference server, started as a process (issue 39).

The server runs as a user runs it: uvicorn on the loopback, on the real clock, with the spec's
rate, over a freshly seeded SQLite file. Every case passes against it, with messages compared;
a wrong expectation fails with its want/got difference; a URL nothing answers is exit 2. The
seed records the cases carry are the reference server's (`examples/server/seed.py`).
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from examples.server import seed
from jsonschema import Draft202012Validator

from campaign_rules._cli.exits import ExitStatus
from campaign_rules._conformance import http_cases, http_seed
from campaign_rules._conformance.http_format import HTTP_KIND, MANIFEST
from campaign_rules._conformance.http_run import (
    EXIT_FAILED,
    EXIT_PASSED,
    EXIT_UNUSABLE,
    HttpOptions,
    run_http,
)
from tests.cli_support import COMMAND
from tests.e2e.support import Server, free_port, seeded_server

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parent.parent
STRICT = HttpOptions(strict_messages=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with seeded_server(tmp_path_factory.mktemp("server")) as started:
        yield started


def kit_of(folder: Path, cases: list[dict[str, object]]) -> Path:
    """A kit of these HTTP cases, laid out as `conformance export` lays a kit out."""
    (folder / "cases").mkdir(parents=True)
    lines = "".join(json.dumps(case) + "\n" for case in cases)
    (folder / "cases" / "http.jsonl").write_text(lines, encoding="utf-8")
    listed = {"path": "cases/http.jsonl", "count": len(cases), "kind": HTTP_KIND}
    (folder / MANIFEST).write_text(json.dumps({"files": [listed]}), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return kit_of(tmp_path_factory.mktemp("kit"), http_cases.sequences())


def run(kit: Path, url: str, options: object = STRICT) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run_http(kit, url, options, out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def test_every_http_case_passes_against_the_reference_server(server: Server, kit: Path) -> None:
    status, out, err = run(kit, server.base_url)

    cases = len(http_cases.sequences())
    assert (status, err) == (EXIT_PASSED, ""), out
    assert out.splitlines()[-1].startswith(f"{cases} HTTP cases: {cases} passed, 0 failed ("), out


def case_of(case_id: str) -> dict[str, object]:
    (case,) = (case for case in http_cases.sequences() if case["id"] == case_id)
    return case


@pytest.mark.skipif(
    importlib.util.find_spec("campaign_rules._conformance.export") is None,
    reason="the kit's export and its command line come with the kit's own change",
)
def test_the_command_line_exports_the_kit_and_runs_its_http_cases(
    server: Server, tmp_path: Path
) -> None:
    kit = tmp_path / "kit"
    exported = subprocess.run(
        [*COMMAND, "conformance", "export", str(kit)], capture_output=True, text=True, check=False
    )
    ran = subprocess.run(
        [*COMMAND, "conformance", "run", str(kit), "--strict-messages", "--http", server.base_url],
        capture_output=True,
        text=True,
        check=False,
    )

    cases = len(http_cases.sequences())
    assert exported.returncode == 0, exported.stderr
    assert (ran.returncode, ran.stderr) == (EXIT_PASSED, ""), ran.stdout
    assert ran.stdout.splitlines()[-1].startswith(f"{cases} HTTP cases: {cases} passed, 0 failed")


def test_a_wrong_expectation_fails_with_its_difference(server: Server, tmp_path: Path) -> None:
    case: Any = case_of("http.paths.contact")
    case["steps"][0]["expect"]["body"]["error"] = "CONTACT_NOT_FOUND"
    case["steps"][0]["expect"]["status"] = 400

    status, out, _ = run(kit_of(tmp_path, [case]), server.base_url)

    assert status == EXIT_FAILED
    assert out.splitlines() == [
        "FAILED http.paths.contact",
        "  step 1, answer 1: GET /campaigns/0/contacts/17",
        "  status: want 400, got 404",
        '  body /error: want "CONTACT_NOT_FOUND", got "NOT_FOUND"',
        "1 HTTP case: 0 passed, 1 failed (1 request)",
    ]


def test_a_difference_in_a_message_fails_only_with_strict_messages(
    server: Server, tmp_path: Path
) -> None:
    case: Any = case_of("http.paths.thread")
    case["steps"][0]["expect"]["body"]["message"] = "another message"
    kit = kit_of(tmp_path, [case])

    strict, out, _ = run(kit, server.base_url)
    lenient = run(kit, server.base_url, HttpOptions())[0]

    assert (strict, lenient) == (EXIT_FAILED, EXIT_PASSED)
    assert '  body /message: want "another message", got "id must be 1 to 128' in out


def test_a_server_without_the_rate_limit_fails_the_rate_case(tmp_path: Path) -> None:
    unlimited = {"CAMPAIGN_SERVER_RATE_PER_SECOND": "100000"}
    kit = kit_of(tmp_path / "kit", [case_of("http.rate.contact")])
    with seeded_server(tmp_path, unlimited) as server:
        status, out, _ = run(kit, server.base_url)

    assert status == EXIT_FAILED
    assert out.splitlines() == [
        "FAILED http.rate.contact",
        "  step 1, answer 60: GET /campaigns/1042/contacts/17",
        '  answers: want "a 429 within 60 answers", got "none in 60"',
        "1 HTTP case: 0 passed, 1 failed (60 requests)",
    ]


def test_a_listed_expected_failure_that_passes_fails_the_run(
    server: Server, tmp_path: Path
) -> None:
    kit = kit_of(tmp_path, [case_of("http.paths.thread")])
    listed = tmp_path / "expected-failures.txt"
    listed.write_text("# why each fails\nhttp.paths.thread  a reason\n", encoding="utf-8")

    status, out, _ = run(kit, server.base_url, {"expected_failures": str(listed)})

    assert status == EXIT_FAILED
    assert out.splitlines() == [
        "PASSED http.paths.thread",
        "  listed as an expected failure, but it passes",
        "1 HTTP case: 0 passed, 0 failed, 1 listed as expected failures passed (5 requests)",
    ]


@pytest.mark.parametrize(
    ("manifest", "lines", "said"),
    [
        (None, "", "manifest.json"),
        ({"files": []}, "", "lists no HTTP case"),
        ({"files": [{"path": "cases/http.jsonl", "kind": "http"}]}, "{", "http.jsonl:1"),
        ({"files": [{"path": "cases/http.jsonl", "kind": "http"}]}, '{"format": 2}', "format"),
    ],
)
def test_a_kit_that_cannot_be_read_is_exit_2(
    tmp_path: Path, manifest: object, lines: str, said: str
) -> None:
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "http.jsonl").write_text(lines, encoding="utf-8")
    if manifest is not None:
        (tmp_path / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")

    status, out, err = run(tmp_path, "http://127.0.0.1:1/api/v1.0")

    assert (status, out) == (EXIT_UNUSABLE, "")
    assert err.startswith("conformance: the HTTP cases cannot be read: ")
    assert said in err


def test_a_request_http_cannot_carry_is_exit_2_naming_its_case(
    server: Server, tmp_path: Path
) -> None:
    case: Any = case_of("http.paths.thread")
    case["steps"][0]["request"]["headers"].append(["X-Broken", "two\r\nlines"])

    status, out, err = run(kit_of(tmp_path, [case]), server.base_url)

    assert status == EXIT_UNUSABLE
    assert err.startswith("conformance: http.paths.thread: GET /thread/a%20b cannot be sent")
    assert out.splitlines()[-1] == "1 HTTP case: 0 passed, 0 failed, 1 not run (0 requests)"


@pytest.mark.parametrize("url", ["ftp://127.0.0.1/api", "http://", "http://[::1/api", None])
def test_a_url_that_is_not_an_http_url_is_exit_2(kit: Path, url: object) -> None:
    status, out, err = run(kit, url)  # type: ignore[arg-type]

    assert (status, out) == (EXIT_UNUSABLE, "")
    assert err.startswith("conformance: ")


def test_the_exit_statuses_are_those_of_the_command_line() -> None:
    assert (EXIT_PASSED, EXIT_FAILED, EXIT_UNUSABLE) == (
        ExitStatus.VALID,
        ExitStatus.INVALID,
        ExitStatus.UNREADABLE,
    )


def test_a_url_nothing_answers_is_exit_2(kit: Path) -> None:
    status, out, err = run(kit, f"http://127.0.0.1:{free_port()}/api/v1.0")

    assert status == EXIT_UNUSABLE
    assert "cannot be reached" in err
    assert "not run" in out.splitlines()[-1]


def test_every_case_is_valid_by_its_json_schema() -> None:
    schema = http_cases.schema()
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)

    for case in http_cases.sequences():
        assert [error.message for error in validator.iter_errors(case)] == [], case["id"]


def test_the_answers_judged_by_a_matcher_hold_null_in_the_case() -> None:
    cases = http_cases.sequences()
    matchers = [
        (answer["body"], matcher["pointer"])
        for case in cases
        for step in case["steps"]
        for answer in (step["expect"], step.get("repeat", {}).get("until"))
        if answer is not None
        for matcher in answer.get("matchers", [])
    ]

    assert matchers
    assert all(resolve(body, pointer) is None for body, pointer in matchers)
    assert len({case["id"] for case in cases}) == len(cases)


def test_every_case_cites_decisions_that_exist() -> None:
    decisions = (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8")
    cited = {
        name
        for case in http_cases.sequences()
        for name in re.findall(r"D-[a-z0-9-]+", case["cites"])
    }

    assert cited
    assert [name for name in sorted(cited) if f"\n## {name}:" not in decisions] == []


def resolve(document: Any, pointer: str) -> Any:
    for token in pointer.split("/")[1:]:
        document = document[int(token) if isinstance(document, list) else token]
    return document


def test_the_seed_records_the_cases_carry_are_the_reference_servers(tmp_path: Path) -> None:
    database = tmp_path / "seeded.db"
    seed.seed(database)
    with closing(sqlite3.connect(database)) as connection:
        keys = dict(connection.execute("SELECT key, organization_id FROM api_keys"))
        agents = set(connection.execute("SELECT organization_id, id, name FROM agents"))
        integrations = set(connection.execute("SELECT agent_id, id, type FROM integrations"))
        tags = set(connection.execute("SELECT organization_id, id FROM tags"))
        threads = set(connection.execute("SELECT organization_id, id FROM threads"))
        billing = dict(connection.execute("SELECT id, billing_limit_reached FROM organizations"))

    numbers = {"acme": seed.ACME, "overdrawn": seed.OVERDRAWN}
    organizations = http_seed.ORGANIZATIONS
    assert keys == {org.api_key: numbers[name] for name, org in organizations.items()}
    assert billing == {numbers[n]: org.billing_limit_reached for n, org in organizations.items()}
    assert agents == {
        (numbers[name], agent_id, agent.name)
        for name, org in organizations.items()
        for agent_id, agent in org.agents.items()
    }
    assert integrations == {
        (agent_id, integration, kind)
        for org in organizations.values()
        for agent_id, agent in org.agents.items()
        for integration, kind in agent.integrations.items()
    }
    assert tags == {(numbers[n], tag) for n, org in organizations.items() for tag in org.tags}
    assert threads == {(numbers[n], id) for n, org in organizations.items() for id in org.threads}
    assert (http_seed.CAMPAIGN_ID, http_seed.CONTACT_ID) == (seed.CAMPAIGN_ID, seed.CONTACT_ID)
    assert (http_seed.CONTACT, http_seed.THREAD) == (seed.CONTACT, seed.THREAD)


def test_the_page_lists_every_case_and_the_seed_records_they_rely_on() -> None:
    page = (ROOT / "docs" / "conformance-http.md").read_text(encoding="utf-8")
    cases = http_cases.sequences()
    rows = [
        f"| `{case['id']}` | {case['title']} | {case['cites']} | {len(case['steps'])} |"
        for case in cases
    ]
    records = [
        f"`{value}`"
        for organization in http_seed.ORGANIZATIONS.values()
        for value in (
            organization.api_key,
            *organization.tags,
            *organization.agents,
            *(i for agent in organization.agents.values() for i in agent.integrations),
        )
    ]
    records += [
        f"`{http_seed.CAMPAIGN_ID}`",
        f"`{http_seed.CONTACT_ID}`",
        f"`{http_seed.THREAD_ID}`",
    ]

    assert [row for row in rows if row not in page] == []
    assert page.count("\n| `http.") == len(cases)
    assert [record for record in records if record not in page] == []
