"""`scripts/regenerate.py`: nothing committed is stale, and a stale text is found, named and fixed.

The command writes the exports of `schema/` and every text that states a bound of
`campaign_rules._core.limits` (`scripts/bound_texts.py`); `.ci/run` runs it with `--check`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scripts import bound_texts, regenerate

from campaign_rules._core.limits import (
    IDEMPOTENCY_WINDOW_SECONDS,
    MAX_ITERATIONS,
    MESSAGE_LIMIT,
    NAME_MAX_LENGTH,
    RATE_LIMIT_REQUESTS,
    RETRIES,
)

ROOT = Path(__file__).parent.parent


def test_no_committed_file_is_stale() -> None:
    stale = sorted(path.relative_to(ROOT).as_posix() for path in regenerate.derived())
    assert stale == [], f"stale: {stale}; run `python scripts/regenerate.py`"


def test_the_check_names_each_stale_text_and_fails(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "page.md"
    page.write_text("Fine.\n`retries` must be from 0 to 99, says this page.\n", encoding="utf-8")
    stale = regenerate.derived(tmp_path)
    # The three exports are missing here, so stale too; the page is named, with its line.
    assert sorted(path.relative_to(tmp_path).as_posix() for path in stale) == [
        "docs/page.md",
        "schema/campaign-create.schema.json",
        "schema/diff.schema.json",
        "schema/openapi.json",
    ]
    [entry] = bound_texts.stale(page.read_text(encoding="utf-8"), "docs/page.md")
    assert (entry.path, entry.line, entry.name) == ("docs/page.md", 2, "RETRIES")
    assert str(entry).startswith("docs/page.md:2: ")
    assert stale[page] == page.read_text(encoding="utf-8").replace(
        "0 to 99", f"{RETRIES.low} to {RETRIES.high}"
    )


def test_the_command_exits_1_naming_the_file_only_with_check() -> None:
    # On this tree nothing is stale: exit status 0, nothing written.
    done = subprocess.run(
        [sys.executable, "scripts/regenerate.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("message_limit 1 to 9", f"message_limit {MESSAGE_LIMIT.low} to {MESSAGE_LIMIT.high}"),
        ("`message_limit` is 1 to 9,999", f"`message_limit` is 1 to {MESSAGE_LIMIT.high:,}"),
        ("Bounds: message_limit 1 to 9_999", f"Bounds: message_limit 1 to {MESSAGE_LIMIT.high:_}"),
        ("retries must be from 1 to 9", f"retries must be from {RETRIES.low} to {RETRIES.high}"),
    ],
)
def test_a_bound_is_rewritten_in_the_text_s_own_spelling(text: str, fixed: str) -> None:
    assert bound_texts.rewrite(text) == fixed
    assert bound_texts.stale(fixed, "x") == []


@pytest.mark.parametrize(
    "text",
    [
        "retries 9, integration_type fax",  # a value, not a bound
        "retries: 2, message_limit: 30",
        "with a burst of 1, every gap is a whole interval",
        "a burst of 11 instead of 12",  # the SDK's margin, below the bound
        "255 is Stripe's maximum",  # a reason: rewritten by hand when the bound changes
    ],
)
def test_what_is_not_a_bound_is_left_alone(text: str) -> None:
    assert bound_texts.rewrite(text) == text


@pytest.mark.parametrize(
    "quote",
    [
        # Numbers other than the library's, whatever `limits` says.
        f"# spec 2.1, spec 8: `retries` {RETRIES.low} to {RETRIES.high + 2}, default 1.",
        f"# spec 2.4, spec 8: `cycles.max_iterations` 2 to {MAX_ITERATIONS.high + 8}.",
        f"# spec 4.2, 8: {RATE_LIMIT_REQUESTS + 18} requests per second per API key",
        f"Spec 2.1: `name` is at most {NAME_MAX_LENGTH + 45} characters, in a quote.",
    ],
)
def test_a_quote_of_the_spec_is_left_as_the_spec_says_it(quote: str) -> None:
    # The spec's number, not the library's: a bound changed in `limits` leaves it as it is.
    assert bound_texts.rewrite(quote) == quote
    assert bound_texts.stale(quote, "x") == []
    # The same words elsewhere on the page state the library's bound, and are rewritten.
    said = quote.split(": ", 1)[1]
    assert bound_texts.rewrite(f"{quote}\n{said}") != f"{quote}\n{said}"
    assert bound_texts.rewrite(f"{quote}\n{said}").startswith(f"{quote}\n")


def test_a_citation_that_names_a_decision_states_the_library_s_bound() -> None:
    hours = IDEMPOTENCY_WINDOW_SECONDS // 3600 + 75
    text = f"# spec 4.1 rule 2, D-idempotency: a stored response is replayed for {hours} hours."
    assert bound_texts.rewrite(text) != text


def test_the_oracle_and_the_history_are_not_read() -> None:
    read = {path.relative_to(ROOT).as_posix() for path in bound_texts.scanned_files()}
    assert "README.md" in read
    assert "src/campaign_rules/_core/limits.py" in read
    assert not {"CHANGELOG.md", "tests/test_oracle_bounds.py", "benchmarks/RESULTS.md"} & read
    assert not any(name.startswith(("tests/cases/", "docs/benchmarks/")) for name in read)
