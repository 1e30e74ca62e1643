"""The benchmark's corpus is what it claims: valid payloads, and invalid ones with known defects.

The corpus generator needs only the standard library, so this runs with the test extra; the
peers' agreement, which needs the bench extra, is checked when their libraries are installed.
"""

from __future__ import annotations

import importlib

import pytest
from benchmarks.corpus import make_corpus

from campaign_rules import validate_create

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
    pytest.importorskip(library)
    validate = importlib.import_module(module).validate
    assert all(validate(payload)[0] for payload in CORPUS.valid)
    assert not any(validate(payload)[0] for payload, _ in CORPUS.invalid)
