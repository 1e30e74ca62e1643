"""The request rules (`campaign_rules._rules.request`): path parameters, `Idempotency-Key`, and
the rules on the state a server keeps: a request's fingerprint, its key's record, its rate.

Sources: spec 2.2, 2.5, 2.6, 4.1 rule 2, 4.2, 4.3, 7.4, 8; decisions D-path-ids, D-thread-id,
D-idempotency-key, D-fingerprint, D-idempotency, D-rate-limit.
"""

from __future__ import annotations

from typing import Any

import pytest

from campaign_rules import ErrorKey
from campaign_rules._core.limits import (
    IDEMPOTENCY_KEY_MAX_LENGTH,
    IDEMPOTENCY_WINDOW_SECONDS,
    PATH_ID_MAX,
    THREAD_ID_MAX_LENGTH,
)
from campaign_rules.idempotency import (
    IdempotencyAction,
    IdempotencyClaim,
    IdempotencyRecord,
    check_idempotency_key,
    decide_idempotency,
    request_fingerprint,
)
from campaign_rules.rate import RateLimiter, decide_rate
from campaign_rules.requests import ContactPath, check_contact_path, check_thread_path

MAX_ID = PATH_ID_MAX
WINDOW = IDEMPOTENCY_WINDOW_SECONDS


def found(result: Any) -> list[tuple[ErrorKey, str | None, str]]:
    return [(v.key, v.field, v.rule) for v in result.violations]


CAMPAIGN_BAD = (ErrorKey.NOT_FOUND, "id", "path.campaign_id_is_positive_integer")
CONTACT_BAD = (ErrorKey.CONTACT_NOT_FOUND, "contact_id", "path.contact_id_is_positive_integer")

GOOD_IDS = [
    ("1", 1),
    ("9", 9),
    ("10", 10),
    ("1234567890123456", 1_234_567_890_123_456),
    (str(MAX_ID), MAX_ID),
    (1, 1),
    (MAX_ID, MAX_ID),
    (7.0, 7),
]
BAD_IDS = [
    "0",
    "00",
    "01",
    "007",
    str(MAX_ID + 1),
    "9999999999999999",
    "1" * 17,
    "1" * 5000,
    "",
    " 1",
    "1 ",
    "+1",
    "-1",
    "1.0",
    "1e3",
    "0x1F",
    "1_000",
    "١٢",
    "１２",
    "²",
    0,
    -1,
    MAX_ID + 1,
    2**64,
    1.5,
    float("nan"),
    float("inf"),
    True,
    False,
    None,
    [1],
    {"id": 1},
    b"12",
]


class TestCampaignIdIsPositiveInteger:
    @pytest.mark.parametrize(("given", "expected"), GOOD_IDS, ids=repr)
    def test_a_positive_id_is_read(self, given: object, expected: int) -> None:
        result = check_contact_path(given, "5")
        assert result.ok
        assert result.status == 200
        assert result.value == ContactPath(expected, 5)
        assert type(result.value.campaign_id) is int

    @pytest.mark.parametrize("given", BAD_IDS, ids=repr)
    def test_a_malformed_id_is_not_found(self, given: object) -> None:
        result = check_contact_path(given, "5")
        assert found(result) == [CAMPAIGN_BAD]
        assert result.status == 404
        assert result.value is None
        assert result.envelope() == {
            "success": False,
            "error": "NOT_FOUND",
            "message": f"id must be a decimal integer from 1 to {MAX_ID} without leading zeros",
            "field": "id",
        }


class TestContactIdIsPositiveInteger:
    @pytest.mark.parametrize(("given", "expected"), GOOD_IDS, ids=repr)
    def test_a_positive_id_is_read(self, given: object, expected: int) -> None:
        result = check_contact_path("5", given)
        assert result.ok
        assert result.value == ContactPath(5, expected)

    @pytest.mark.parametrize("given", BAD_IDS, ids=repr)
    def test_a_malformed_id_is_contact_not_found(self, given: object) -> None:
        result = check_contact_path("5", given)
        assert found(result) == [CONTACT_BAD]
        assert result.status == 404
        envelope = result.envelope()
        assert envelope is not None
        assert (envelope["error"], envelope["field"]) == ("CONTACT_NOT_FOUND", "contact_id")

    def test_both_malformed_are_both_reported_campaign_first(self) -> None:
        result = check_contact_path("0", "0")
        assert found(result) == [CAMPAIGN_BAD, CONTACT_BAD]
        assert result.envelope()["error"] == "NOT_FOUND"

    def test_a_str_subclass_is_read_as_its_text(self) -> None:
        class Sneaky(str):
            def isdigit(self) -> bool:
                raise AssertionError("an override ran")

            def __len__(self) -> int:
                raise AssertionError("an override ran")

        result = check_contact_path(Sneaky("12"), Sneaky("3"))
        assert result.value == ContactPath(12, 3)


THREAD_BAD = (ErrorKey.NOT_FOUND, "id", "path.thread_id_is_url_safe")


class TestThreadIdIsUrlSafe:
    @pytest.mark.parametrize(
        "given",
        [
            "a",
            "t" * THREAD_ID_MAX_LENGTH,
            "3f2c9a1e-8b7d-4c6e-9f0a-1b2c3d4e5f60",
            "thread_ABC.def~1",
            "...",
            ".a",
            "-",
            "0",
        ],
        ids=repr,
    )
    def test_unreserved_text_is_accepted(self, given: str) -> None:
        result = check_thread_path(given)
        assert result.ok
        assert result.value == given
        assert result.envelope() is None

    @pytest.mark.parametrize(
        "given",
        [
            "",
            "t" * (THREAD_ID_MAX_LENGTH + 1),
            ".",
            "..",
            "a/b",
            "/",
            "a%20b",
            "a b",
            "a+b",
            "a?b",
            "a#b",
            "a\x00",
            "é",
            "\ud800",
            12,
            None,
            b"abc",
            ["a"],
        ],
        ids=repr,
    )
    def test_anything_else_is_not_found_in_the_thread_body_shape(self, given: object) -> None:
        result = check_thread_path(given)
        assert found(result) == [THREAD_BAD]
        assert result.status == 404
        # D-thread-id, spec 7.4: `{error: integer, message: string}`.
        assert result.envelope() == {
            "error": 404,
            "message": "id must be 1 to 128 letters, digits, '-', '.', '_' or '~'",
        }


KEY_BAD = (ErrorKey.INVALID_REQUEST, "Idempotency-Key", "header.idempotency_key_is_visible_ascii")


class TestIdempotencyKeyIsVisibleAscii:
    def test_absent_is_fine_and_has_no_key(self) -> None:
        result = check_idempotency_key(None)
        assert result.ok
        assert result.value is None

    @pytest.mark.parametrize(
        "given",
        [
            "k",
            "k" * IDEMPOTENCY_KEY_MAX_LENGTH,
            "8e03978e-40d5-43e8-bc93-6894a57f9324",
            "8E03978E-40D5-43E8-BC93-6894A57F9324",
            '"quoted"',
            "".join(map(chr, range(0x21, 0x7F))),
        ],
        ids=lambda text: repr(text[:20]),
    )
    def test_visible_ascii_up_to_the_max_length_is_kept_exactly(self, given: str) -> None:
        result = check_idempotency_key(given)
        assert result.ok
        assert result.value == given

    @pytest.mark.parametrize(
        "given",
        [
            "",
            "k" * (IDEMPOTENCY_KEY_MAX_LENGTH + 1),
            "k" * 100_000,
            " k",
            "a b",
            "a\tb",
            "\x7f",
            "\x1f",
            "clé",
            "\ud800",
            5,
            b"k",
        ],
        ids=lambda value: repr(value)[:20],
    )
    def test_anything_else_is_invalid(self, given: object) -> None:
        result = check_idempotency_key(given)
        assert found(result) == [KEY_BAD]
        assert result.status == 400
        assert result.value is None
        assert result.envelope()["field"] == "Idempotency-Key"


# ---------------------------------------------------------------------------------------------
# The state a server keeps. Each check hands its rules one subject; these tests run the public
# check, so they prove the rule is wired as well as what it requires.

PRINT = request_fingerprint({"name": "x"}).value
RECORD = IdempotencyRecord(fingerprint=str(PRINT), status=201, body={}, stored_at=1_000)


class TestBodyIsPlainJson:
    RULE = (ErrorKey.INVALID_REQUEST, None, "idempotency.body_is_plain_json")

    @pytest.mark.parametrize(
        "body", [{}, [], None, 0, 1.5, "text", {"a": [1, {"b": None}]}], ids=repr
    )
    def test_plain_json_has_a_fingerprint(self, body: object) -> None:
        result = request_fingerprint(body)
        assert result.ok
        assert len(str(result.value)) == 64

    @pytest.mark.parametrize(
        "body",
        [float("nan"), float("-inf"), {1: "a"}, {"a": {1, 2}}, b"x", 2**4096, [[]] * 100_001],
        ids=lambda value: type(value).__name__,
    )
    def test_anything_else_is_refused(self, body: object) -> None:
        result = request_fingerprint(body)
        assert found(result) == [self.RULE]
        assert result.status == 400
        assert result.value is None

    def test_the_largest_integer_is_plain(self) -> None:
        assert request_fingerprint(2**4096 - 1).ok


class TestIdempotencyArgumentsAreUsable:
    RULE = (ErrorKey.SERVER_ERROR, None, "idempotency.arguments_are_usable")

    @pytest.mark.parametrize(
        ("stored", "fingerprint", "window"),
        [
            (None, None, 10),
            (None, 5, 10),
            (None, PRINT, -1),
            (None, PRINT, float("nan")),
            ({"fingerprint": PRINT}, PRINT, 10),
            (IdempotencyRecord(fingerprint=None, status=201, body={}, stored_at=0), PRINT, 10),  # type: ignore[arg-type]
            (IdempotencyRecord(fingerprint="a", status=99, body={}, stored_at=0), "a", 10),
        ],
        ids=repr,
    )
    def test_unusable_arguments_are_a_server_error(
        self, stored: object, fingerprint: object, window: object
    ) -> None:
        decision = decide_idempotency(stored, fingerprint, 0, window_seconds=window)
        assert found(decision) == [self.RULE]
        assert decision.status == 500
        assert decision.action is IdempotencyAction.REJECT

    @pytest.mark.parametrize("window", [0, 0.5, WINDOW])
    def test_a_window_of_zero_or_more_is_usable(self, window: object) -> None:
        decision = decide_idempotency(None, PRINT, 0, window_seconds=window)
        assert decision.ok
        assert decision.action is IdempotencyAction.EXECUTE


class TestSameRequestForKey:
    RULE = (ErrorKey.INVALID_REQUEST, "Idempotency-Key", "idempotency.same_request_for_key")

    def test_another_request_within_the_window_is_refused(self) -> None:
        decision = decide_idempotency(RECORD, "0" * 64, 1_000 + WINDOW - 1)
        assert found(decision) == [self.RULE]
        assert decision.status == 400
        assert decision.envelope() == {
            "success": False,
            "error": "INVALID_REQUEST",
            "message": "this Idempotency-Key was already used for a different request",
            "field": "Idempotency-Key",
        }

    def test_another_request_when_the_window_ends_executes(self) -> None:
        decision = decide_idempotency(RECORD, "0" * 64, 1_000 + WINDOW)
        assert decision.action is IdempotencyAction.EXECUTE

    def test_the_same_request_replays(self) -> None:
        decision = decide_idempotency(RECORD, PRINT, 1_000)
        assert decision.action is IdempotencyAction.REPLAY
        assert decision.violations == ()


class TestRateKeyIsUsable:
    RULE = (ErrorKey.SERVER_ERROR, None, "rate.key_is_usable")

    @pytest.mark.parametrize("key", [None, 5, b"k", ["k"]], ids=repr)
    def test_a_key_that_is_not_a_string_is_a_server_error(self, key: object) -> None:
        limiter = RateLimiter()
        assert found(limiter.acquire(key, 0)) == [self.RULE]
        assert len(limiter) == 0

    @pytest.mark.parametrize("key", ["", "k", "k" * 10_000])
    def test_any_string_is_a_key(self, key: str) -> None:
        assert RateLimiter().acquire(key, 0).value == key


class TestClockReadingIsUsable:
    RULE = (ErrorKey.SERVER_ERROR, None, "rate.clock_reading_is_usable")

    @pytest.mark.parametrize("now", [None, 0.0, 5.0, True, "0"], ids=repr)
    def test_a_reading_that_is_not_an_exact_int_is_a_server_error(self, now: object) -> None:
        limiter = RateLimiter()
        assert found(limiter.acquire("k", now)) == [self.RULE]
        assert len(limiter) == 0

    @pytest.mark.parametrize("now", [-(10**30), -1, 0, 1, 10**30])
    def test_any_int_is_a_reading(self, now: int) -> None:
        assert RateLimiter().acquire("k", now).ok

    def test_an_unusable_key_and_clock_are_both_reported(self) -> None:
        result = RateLimiter().acquire(None, None)
        assert [rule for _, _, rule in found(result)] == [
            "rate.key_is_usable",
            "rate.clock_reading_is_usable",
        ]


class TestWithinRateLimit:
    RULE = (ErrorKey.RATE_LIMITED, None, "rate.within_rate_limit")

    def test_the_thirteenth_at_once_is_refused_and_the_twelfth_is_not(self) -> None:
        limiter = RateLimiter()
        assert [limiter.acquire("k", 0).ok for _ in range(12)] == [True] * 12
        refused = limiter.acquire("k", 0)
        assert found(refused) == [self.RULE]
        assert refused.status == 429
        assert refused.violations[0].message == "too many requests: retry after 1 second"

    def test_a_longer_wait_says_seconds(self) -> None:
        limiter = RateLimiter(requests=1, period_ns=2_000_000_000, burst=1)
        limiter.acquire("k", 0)
        message = limiter.acquire("k", 0).violations[0].message
        assert message == "too many requests: retry after 2 seconds"


class TestKeyNotInUse:
    RULE = (ErrorKey.RATE_LIMITED, "Idempotency-Key", "idempotency.key_not_in_use")
    CLAIM = IdempotencyClaim(fingerprint=PRINT, claimed_at=1_000)

    def test_the_same_request_under_a_live_claim_is_told_to_retry(self) -> None:
        decision = decide_idempotency(self.CLAIM, PRINT, 1_000)
        assert found(decision) == [self.RULE]
        assert decision.action is IdempotencyAction.REJECT
        assert (decision.status, decision.headers(), decision.retry_after) == (
            429,
            {"Retry-After": "1"},
            1,
        )
        assert decision.envelope() == {
            "success": False,
            "error": "RATE_LIMITED",
            "message": "a request with this Idempotency-Key is still running: retry after 1 second",
            "field": "Idempotency-Key",
        }

    @pytest.mark.parametrize(
        ("now", "in_use"), [(1_059, True), (1_059.999, True), (1_060, False), (1_061, False)]
    )
    def test_a_claim_is_released_sixty_seconds_after_it_was_made(
        self, now: float, in_use: bool
    ) -> None:
        decision = decide_idempotency(self.CLAIM, PRINT, now)
        assert (found(decision) == [self.RULE]) is in_use
        assert (decision.action is IdempotencyAction.EXECUTE) is not in_use

    @pytest.mark.parametrize(("claim_seconds", "in_use"), [(5, True), (4, False), (0, False)])
    def test_the_claim_time_is_the_servers_to_set(self, claim_seconds: int, in_use: bool) -> None:
        decision = decide_idempotency(self.CLAIM, PRINT, 1_004, claim_seconds=claim_seconds)
        assert (found(decision) == [self.RULE]) is in_use

    def test_another_request_under_a_live_claim_is_a_reused_key(self) -> None:
        decision = decide_idempotency(self.CLAIM, "0" * 64, 1_000)
        assert [rule for _, _, rule in found(decision)] == ["idempotency.same_request_for_key"]
        assert decision.headers() == {}

    @pytest.mark.parametrize("now", [float("nan"), float("inf"), None, "1061"], ids=repr)
    def test_an_unreadable_clock_keeps_the_claim(self, now: object) -> None:
        assert found(decide_idempotency(self.CLAIM, PRINT, now)) == [self.RULE]

    @pytest.mark.parametrize("claim_seconds", [-1, float("nan"), None, "60"], ids=repr)
    def test_an_unusable_claim_time_is_a_server_error(self, claim_seconds: object) -> None:
        decision = decide_idempotency(None, PRINT, 0, claim_seconds=claim_seconds)
        assert [rule for _, _, rule in found(decision)] == ["idempotency.arguments_are_usable"]

    def test_a_record_is_not_a_claim(self) -> None:
        assert decide_idempotency(RECORD, PRINT, 1_000).action is IdempotencyAction.REPLAY


class TestSharedStateIsUsable:
    RULE = (ErrorKey.SERVER_ERROR, None, "rate.shared_state_is_usable")

    @pytest.mark.parametrize("stored", ["12", 1.0, True, b"1", [1]], ids=repr)
    def test_a_stored_state_that_is_not_an_int_is_a_server_error(self, stored: object) -> None:
        decision = decide_rate(stored, "k", 0)
        assert found(decision) == [self.RULE]
        assert (decision.status, decision.state) == (500, None)

    @pytest.mark.parametrize(
        "settings",
        [{"requests": 0}, {"period_ns": -1}, {"burst": 0}, {"burst": 1.0}, {"requests": True}],
        ids=repr,
    )
    def test_a_setting_that_is_not_a_positive_int_is_a_server_error(
        self, settings: dict[str, object]
    ) -> None:
        assert found(decide_rate(None, "k", 0, **settings)) == [self.RULE]  # type: ignore[arg-type]

    @pytest.mark.parametrize("stored", [None, 0, -(10**30), 10**30])
    def test_none_or_any_int_is_a_state(self, stored: int | None) -> None:
        assert self.RULE not in found(decide_rate(stored, "k", 0))

    def test_the_least_settings_are_usable(self) -> None:
        assert decide_rate(None, "k", 0, requests=1, period_ns=1, burst=1).ok

    def test_an_unusable_key_clock_and_state_are_all_reported(self) -> None:
        assert [rule for _, _, rule in found(decide_rate("x", None, None))] == [
            "rate.key_is_usable",
            "rate.clock_reading_is_usable",
            "rate.shared_state_is_usable",
        ]
