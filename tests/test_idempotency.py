"""`decide_idempotency` and `is_storable_status` (spec 4.1 rule 2; decision D-idempotency)."""

from __future__ import annotations

import math
from http import HTTPStatus

import attrs
import pytest

from campaign_rules import ErrorKey
from campaign_rules._core.limits import IDEMPOTENCY_WINDOW_SECONDS
from campaign_rules.idempotency import (
    IdempotencyAction,
    IdempotencyDecision,
    IdempotencyRecord,
    decide_idempotency,
    is_storable_status,
    request_fingerprint,
)

DAY = IDEMPOTENCY_WINDOW_SECONDS  # the default window (D-idempotency)
BODY = {"name": "Spring renewals", "retries": 2}
PRINT = request_fingerprint(BODY).value
RESPONSE = {"success": True, "campaign": {"id": 7}}
RECORD = IdempotencyRecord(fingerprint=PRINT, status=201, body=RESPONSE, stored_at=1_000.0)
OTHER = request_fingerprint({**BODY, "retries": 3}).value


def decide(
    stored: object, fingerprint: object, now: object, **kwargs: object
) -> IdempotencyDecision:
    decision = decide_idempotency(stored, fingerprint, now, **kwargs)
    assert type(decision) is IdempotencyDecision
    assert decision.ok is (decision.action is not IdempotencyAction.REJECT)
    assert (decision.value is not None) is (decision.action is IdempotencyAction.REPLAY)
    return decision


class TestDecision:
    def test_no_record_executes(self) -> None:
        decision = decide(None, PRINT, 1_000.0)
        assert decision.action is IdempotencyAction.EXECUTE
        assert decision.status == 200
        assert decision.envelope() is None

    def test_the_same_request_within_the_window_replays_the_stored_response(self) -> None:
        decision = decide(RECORD, PRINT, 1_000.0 + DAY - 0.001)
        assert decision.action is IdempotencyAction.REPLAY
        assert decision.value == RECORD
        assert decision.value.body is RESPONSE
        assert decision.status == 201

    def test_the_same_request_reordered_replays(self) -> None:
        reordered = request_fingerprint({"retries": 2.0, "name": "Spring renewals"}).value
        assert decide(RECORD, reordered, 1_001).action is IdempotencyAction.REPLAY

    def test_another_request_within_the_window_is_refused(self) -> None:
        decision = decide(RECORD, OTHER, 1_000.0 + DAY - 1)
        assert decision.action is IdempotencyAction.REJECT
        assert decision.keys == (ErrorKey.INVALID_REQUEST,)
        assert decision.status == 400
        assert decision.envelope() == {
            "success": False,
            "error": "INVALID_REQUEST",
            "message": "this Idempotency-Key was already used for a different request",
            "field": "Idempotency-Key",
        }

    @pytest.mark.parametrize("fingerprint", [PRINT, OTHER])
    def test_at_the_end_of_the_window_the_key_is_free(self, fingerprint: str) -> None:
        assert decide(RECORD, fingerprint, 1_000 + DAY).action is IdempotencyAction.EXECUTE
        assert decide(RECORD, fingerprint, 10**30).action is IdempotencyAction.EXECUTE

    def test_the_window_is_a_parameter(self) -> None:
        assert decide(RECORD, PRINT, 1_059, window_seconds=60).action is IdempotencyAction.REPLAY
        assert decide(RECORD, PRINT, 1_060, window_seconds=60).action is IdempotencyAction.EXECUTE
        assert decide(RECORD, PRINT, 1_000, window_seconds=0).action is IdempotencyAction.EXECUTE

    @pytest.mark.parametrize(
        "now", [0.0, -(10**30), math.nan, math.inf, None, "2026-01-01", True], ids=repr
    )
    def test_a_clock_that_went_back_or_cannot_be_read_keeps_the_record(self, now: object) -> None:
        assert decide(RECORD, PRINT, now).action is IdempotencyAction.REPLAY
        assert decide(RECORD, OTHER, now).action is IdempotencyAction.REJECT

    def test_an_unreadable_stored_time_keeps_the_record(self) -> None:
        record = attrs.evolve(RECORD, stored_at=math.nan)
        assert decide(record, PRINT, 10**12).action is IdempotencyAction.REPLAY

    def test_exact_times_do_not_overflow(self) -> None:
        record = attrs.evolve(RECORD, stored_at=10**400)
        assert decide(record, PRINT, 1e300).action is IdempotencyAction.REPLAY
        assert decide(record, PRINT, 10**400 + DAY).action is IdempotencyAction.EXECUTE


class TestRecord:
    def test_a_record_with_a_dict_body_can_be_hashed(self) -> None:
        same = IdempotencyRecord(fingerprint=PRINT, status=201, body=dict(RESPONSE), stored_at=1e3)
        assert hash(RECORD) == hash(same)
        assert {RECORD, same} == {RECORD}

    def test_records_that_differ_only_in_body_are_not_equal(self) -> None:
        other = attrs.evolve(RECORD, body={"success": False})
        assert other != RECORD
        assert len({RECORD, other}) == 2

    def test_a_replay_decision_can_be_hashed(self) -> None:
        decision = decide(RECORD, PRINT, 1_000.0)
        assert hash(decision) == hash(decide(RECORD, PRINT, 1_000.0))


class TestServerErrors:
    @pytest.mark.parametrize(
        ("stored", "fingerprint", "window"),
        [
            (RECORD, None, DAY),
            (RECORD, 5, DAY),
            (None, None, DAY),
            ({"fingerprint": PRINT}, PRINT, DAY),
            (attrs.evolve(RECORD, fingerprint=None), PRINT, DAY),
            (attrs.evolve(RECORD, status="201"), PRINT, DAY),
            (attrs.evolve(RECORD, status=99), PRINT, DAY),
            (attrs.evolve(RECORD, status=600), PRINT, DAY),
            (RECORD, PRINT, -1),
            (RECORD, PRINT, math.nan),
            (RECORD, PRINT, None),
        ],
        ids=repr,
    )
    def test_unusable_arguments_refuse_as_a_server_error(
        self, stored: object, fingerprint: object, window: object
    ) -> None:
        decision = decide(stored, fingerprint, 1_000, window_seconds=window)
        assert decision.action is IdempotencyAction.REJECT
        assert decision.keys == (ErrorKey.SERVER_ERROR,)
        assert decision.status == 500


class TestIsStorableStatus:
    @pytest.mark.parametrize("status", [200, 201, 299, 402, 403, 404, 409, 422, 499, 500, 503, 599])
    def test_responses_of_requests_that_ran_are_stored(self, status: int) -> None:
        assert is_storable_status(status)

    @pytest.mark.parametrize(
        "status",
        [100, 199, 300, 399, 400, 401, 429, 600, 400.0, 201.5, True, "201", None, -201],
        ids=repr,
    )
    def test_other_responses_are_not(self, status: object) -> None:
        assert not is_storable_status(status)

    @pytest.mark.parametrize("status", [201.0, 404.0, 599.0, HTTPStatus.CREATED], ids=repr)
    def test_a_status_is_read_as_any_json_integer(self, status: object) -> None:
        # D-integral-floats: 201.0 is 201, as a path id or a record's status is.
        assert is_storable_status(status)
