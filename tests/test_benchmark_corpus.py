"""The benchmark's corpus is what it claims: valid payloads, and invalid ones with known defects.

The corpus generator needs only the standard library, so this runs with the test extra; the
peers' agreement, which needs the bench extra, is checked when their libraries are installed.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
from benchmarks.corpus import make_corpus
from benchmarks.floor import EMPTY_TABLE, build_only, empty_rules, visit_all

from campaign_rules import validate_create
from campaign_rules._rules.table import CREATE_RULES

CORPUS = make_corpus(seed=7, size=60)


def test_every_valid_payload_is_accepted() -> None:
    assert all(validate_create(payload).ok for payload in CORPUS.valid)


def test_each_injected_defect_gives_exactly_its_violation() -> None:
    for payload, expected in CORPUS.invalid:
        found = sorted((v.key.value, v.field) for v in validate_create(payload).violations)
        assert found == sorted(expected)
        assert 1 <= len(expected) <= 3


def test_the_corpus_is_the_same_for_the_same_seed() -> None:
    assert make_corpus(seed=7, size=60) == CORPUS
    assert make_corpus(seed=8, size=60) != CORPUS


def test_the_floor_builds_the_value_validate_create_builds() -> None:
    # benchmarks/floor.py's lower bound must do the building it claims to, no less.
    for payload in CORPUS.valid:
        assert build_only(payload) == validate_create(payload).value


def test_the_floor_visits_every_value_once() -> None:
    assert visit_all({"a": [1, "x"], "b": {"c": None}, "d": {}}) == 7
    assert visit_all(5) == 1


def test_the_empty_table_is_the_creation_table_finding_nothing() -> None:
    assert [rule.id for rule in EMPTY_TABLE] == [rule.id for rule in CREATE_RULES]
    assert empty_rules(CORPUS.invalid[0][0]) == []


@pytest.mark.parametrize(
    ("module", "library"),
    [
        ("benchmarks.peers.pydantic_rules", "pydantic"),
        ("benchmarks.peers.msgspec_rules", "msgspec"),
        ("benchmarks.peers.jsonschema_rules", "jsonschema"),
        ("benchmarks.peers.fastjsonschema_rules", "fastjsonschema"),
    ],
)
def test_each_peer_agrees_on_the_corpus(module: str, library: str) -> None:
    pytest.importorskip(library, reason=f"the bench extra is not installed (no {library})")
    validate = importlib.import_module(module).validate
    assert all(validate(payload)[0] for payload in CORPUS.valid)
    assert not any(validate(payload)[0] for payload, _ in CORPUS.invalid)


def test_the_parts_benchmark_runs_to_its_end() -> None:
    # benchmarks/parts.py makes the public value objects field by field, as the library does:
    # a field added to one must not leave the profile broken until someone next runs it.
    completed = subprocess.run(
        [sys.executable, "benchmarks/parts.py", "--size", "2"],
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "Violation, by `violation` (the runner's)" in completed.stdout
