"""Data-driven rule cases: one JSON file per rule id in `tests/cases/`, run against the library.

The format of a case file, and the reading of it, are `tests/cases_support.py`. Each case gives
the EXACT ordered list of `[rule_id, error_key, field]` its input must give; it also checks that
its input is left unchanged, and a case marked `"xfail": "reason"` records a library bug.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from campaign_rules.schema import catalogue
from tests.cases_support import (
    CASE_KEYS,
    DIRECTORY_KEYS,
    READERS,
    REQUEST_SOURCES,
    RESPONSE_KEYS,
    STATUS_OF_KEY,
    UPDATE_KEYS,
    Triple,
    all_cases,
    build_directory,
    case_files,
    catalogue_ids,
    expected_of,
    primary_of,
    read_response,
    run,
    run_request,
    run_text,
    triples,
)
from tests.response_support import RESPONSE_BASES
from tests.support import BASES, FakeDirectory


def check_request_case(case: dict[str, Any], expected: list[Triple]) -> None:
    result = run_request(case)
    assert triples(result) == expected
    assert result.ok is (not expected)
    # An absent Idempotency-Key, and a request to execute, are ok with no value.
    assert (result.value is None) is (not result.ok) or {"idempotency_key", "idempotency"} & set(
        case
    )
    envelope = result.envelope()
    json.dumps(envelope, allow_nan=False)
    if result.ok:
        assert envelope is None
        assert result.status == 200
        return
    _, key, field = primary_of(expected)
    assert result.status == STATUS_OF_KEY[key]
    assert envelope is not None
    if "thread_path" in case:
        # D-thread-id: thread errors have the body of spec 7.4, `{error: int, message}`.
        assert set(envelope) == {"error", "message"}
        assert envelope["error"] == STATUS_OF_KEY[key]
        return
    members = {"success", "error", "message"} | ({"field"} if field else set())
    if key == "INVALID_STATUS_TRANSITION":
        # D-lifecycle: the 409 says where the campaign is and where it can go.
        members |= {"current_status", "valid_targets"}
        assert envelope["current_status"] == case["transition"]["status"]
    assert set(envelope) == members
    assert envelope["error"] == key
    assert envelope.get("field") == field


def check_envelope(result: Any, expected: list[Triple], ok_status: int) -> None:
    """The status and the error body of spec 7.1 match the expected violations."""
    envelope = result.envelope()
    json.dumps(envelope, allow_nan=False)
    if result.ok:
        assert envelope is None
        assert result.status == ok_status
        return
    # spec 7.1 and D-envelope-field: the primary violation's key, a message, and its field.
    _, key, field = primary_of(expected)
    assert result.status == STATUS_OF_KEY[key]
    assert envelope is not None
    assert set(envelope) == {"success", "error", "message"} | ({"field"} if field else set())
    assert envelope["success"] is False
    assert envelope["error"] == key
    assert isinstance(envelope["message"], str)
    assert envelope["message"]
    assert envelope.get("field") == field


# The cases


def _params() -> Iterator[Any]:
    for stem, case in all_cases():
        marks = []
        if "xfail" in case:
            marks.append(pytest.mark.xfail(reason=case["xfail"], strict=True))
        yield pytest.param(case, id=f"{stem}::{case['title']}", marks=marks)


@pytest.mark.parametrize("case", list(_params()))
def test_case(case: dict[str, Any]) -> None:
    expected = expected_of(case)
    if any(source in case for source in REQUEST_SOURCES):
        check_request_case(case, expected)
        return
    if "text" in case:
        # D-body-limits: a body as received; D-positions: each violation's place in it.
        result = run_text(case)
        assert triples(result) == expected
        assert result.ok is (not expected)
        assert (result.value is None) is (not result.ok)
        check_envelope(result, expected, ok_status=201)
        if "places" in case:
            places = [None if v.line is None else [v.line, v.column] for v in result.violations]
            assert places == case["places"]
        return
    if "response" in case:
        # D-response-violations: a reader's result is 200 when ok, else 500 (SERVER_ERROR).
        response = read_response(case["response"])
        assert triples(response) == expected
        assert response.ok is (not expected)
        assert (response.value is None) is (not response.ok)
        check_envelope(response, expected, ok_status=200)
        return

    directory = build_directory(case["directory"]) if "directory" in case else None
    result = run(case, directory)

    assert triples(result) == expected
    assert result.ok is (not expected)
    assert (result.value is None) is (not result.ok)
    check_envelope(result, expected, ok_status=200 if "update" in case else 201)

    # api-contract: what is found offline is always found with a directory too, and the
    # look-up rules run after the offline ones, so the offline list is a prefix.
    if directory is None:
        directory = FakeDirectory()
        offline, online = result, run(case, directory)
    else:
        offline, online = run(case, None), result
    assert triples(online)[: len(offline.violations)] == triples(offline)

    # api-contract, "Look-ups": billing_limit_reached always runs, past the 50-violation cap of
    # D-hostile-input too. D-filter-lists and the library's one reading of a payload: no
    # look-up is asked twice.
    assert len(directory.calls) == len(set(directory.calls)), directory.calls
    # D-stored-campaign: an update of a stored campaign the rules refuse is judged no further.
    if not any(rule == "update.existing_is_a_campaign" for rule, _, _ in expected):
        assert ("billing_limit_reached", ()) in directory.calls


# Meta-tests on the corpus


# That every rule has its case file is tests/test_rule_completeness.py's to check.


def test_every_case_file_names_an_existing_rule() -> None:
    ids = set(catalogue_ids())
    for stem, doc in case_files().items():
        assert doc["rule"] == stem, f"{stem}.json names rule {doc['rule']!r}"
        assert doc["rule"] in ids, f"{stem}.json: no rule {doc['rule']!r} in the catalogue"


def test_every_rule_fires_in_the_corpus_and_is_silent_in_its_own_file() -> None:
    fired = {
        rule for _, case in all_cases() if "xfail" not in case for rule, _, _ in expected_of(case)
    }
    for rule in catalogue_ids():
        assert rule in fired, f"no case shows {rule} firing"
        own = case_files()[rule]["cases"]
        assert any(rule not in {r for r, _, _ in expected_of(case)} for case in own), (
            f"no case of {rule}.json shows it silent"
        )


def test_every_case_file_shows_its_own_rule_firing() -> None:
    for stem, doc in case_files().items():
        assert any(stem in {r for r, _, _ in expected_of(case)} for case in doc["cases"]), (
            f"no case of {stem}.json shows it firing"
        )


def test_no_two_catalogue_rules_share_an_id() -> None:
    ids = catalogue_ids()
    assert len(ids) == len(set(ids))


def test_every_case_file_cites_what_the_table_cites() -> None:
    # One fact, one place: the rule table holds a rule's source; a case file repeats it as it
    # is, so that it can be read alone, and cites nothing the table does not.
    sources = {info.id: info.source for info in catalogue()}
    for stem, doc in case_files().items():
        assert doc.get("cites") == sources[doc["rule"]], (
            f"{stem}.json cites {doc.get('cites')!r}; the table cites {sources[doc['rule']]!r}"
        )


def test_case_files_are_well_formed() -> None:
    keys_of_rule = {info.id: info.key.value for info in catalogue()}
    lookup_rules = {info.id for info in catalogue() if info.stage == "lookup"}
    response_rules = {info.id for info in catalogue() if info.stage in ("response", "error")}
    for stem, doc in case_files().items():
        assert set(doc) == {"rule", "cites", "cases"}, stem
        assert doc["cases"], f"{stem}.json has no cases"
        titles = [case.get("title") for case in doc["cases"]]
        assert len(titles) == len(set(titles)), f"{stem}.json repeats a title"
        for case in doc["cases"]:
            where = f"{stem}.json: {case.get('title')!r}"
            assert isinstance(case.get("title"), str), where
            assert case["title"].strip(), where
            assert set(case) <= CASE_KEYS, where
            sources = [
                name
                for name in ("payload", "base", "update", "response", "text", *REQUEST_SOURCES)
                if name in case
            ]
            assert len(sources) == 1, f"{where}: give one of payload, base, update, response, ..."
            if sources[0] in (*REQUEST_SOURCES, "text"):
                assert "directory" not in case, where
            if "text" in case:
                assert len(case["text"]) == 1, where
                assert set(case["text"]) <= {"utf8", "str", "hex", "value", "sized"}, where
            else:
                assert "places" not in case, where
            if "base" in case:
                assert case["base"] in BASES, where
            else:
                assert "set" not in case, where
                assert "drop" not in case, where
            assert isinstance(case.get("set", {}), dict), where
            assert isinstance(case.get("drop", []), list), where
            if "directory" in case:
                assert set(case["directory"]) <= DIRECTORY_KEYS, where
            if "update" in case:
                update = case["update"]
                assert set(update) <= UPDATE_KEYS, where
                assert {"existing_base", "patch"} <= set(update), where
                assert update["existing_base"] in BASES, where
                assert update.get("status") is None or isinstance(update["status"], str), where
            if "response" in case:
                response = case["response"]
                assert "directory" not in case, where
                assert set(response) <= RESPONSE_KEYS, where
                assert response.get("parse") in (*READERS, "error"), where
                assert ("status" in response) is (response["parse"] == "error"), where
                assert ("body" in response) is not ("base" in response), where
                if "base" in response:
                    assert response["base"] in RESPONSE_BASES, where
                else:
                    assert "set" not in response, where
                    assert "drop" not in response, where
                assert isinstance(response.get("set", {}), dict), where
                assert isinstance(response.get("drop", []), list), where
            if "xfail" in case:
                assert isinstance(case["xfail"], str), where
                assert case["xfail"].strip(), where
            assert isinstance(case["violations"], list), where
            for triple in case["violations"]:
                assert isinstance(triple, list), where
                assert len(triple) == 3, where
                rule, key, field = triple
                assert rule in keys_of_rule, f"{where}: unknown rule {rule!r}"
                assert key == keys_of_rule[rule], f"{where}: {rule} yields {keys_of_rule[rule]}"
                assert key in STATUS_OF_KEY, f"{where}: no status known for {key}"
                assert field is None or isinstance(field, str), where
                if rule in lookup_rules:
                    assert "directory" in case, f"{where}: {rule} needs a directory"
                # A response rule reads response bodies only, and only they give its violations.
                assert (rule in response_rules) is ("response" in case), f"{where}: {rule}"
