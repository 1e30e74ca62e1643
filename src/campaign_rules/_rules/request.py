"""Rules on the parts of a request outside its body: path parameters and headers.

Sources: spec 4.1 rule 2, 4.2, 4.3, 8; D-path-ids, D-thread-id, D-idempotency-key,
D-fingerprint, D-idempotency, D-rate-limit.
"""

from __future__ import annotations

from typing import Final

from campaign_rules._core.json import as_string
from campaign_rules._core.limits import (
    IDEMPOTENCY_KEY_MAX_LENGTH,
    PATH_ID_MAX,
    THREAD_ID_MAX_LENGTH,
    VISIBLE_ASCII,
)
from campaign_rules._core.violations import Finding
from campaign_rules._server.paths import ContactPathParameters, is_thread_id, read_path_id
from campaign_rules._server.request_state import (
    CanonicalRequest,
    IdempotencyState,
    RateRequest,
    whole_seconds,
)

__all__ = [
    "IDEMPOTENCY_KEY_FIELD",
    "body_is_plain_json",
    "campaign_id_is_positive_integer",
    "clock_reading_is_usable",
    "contact_id_is_positive_integer",
    "idempotency_arguments_are_usable",
    "idempotency_key_is_visible_ascii",
    "rate_key_is_usable",
    "same_request_for_key",
    "thread_id_is_url_safe",
    "within_rate_limit",
]

_ID_RANGE: Final = f"a decimal integer from 1 to {PATH_ID_MAX} without leading zeros"
# D-idempotency-key: the header's own name is the field of its violation.
IDEMPOTENCY_KEY_FIELD: Final = "Idempotency-Key"


def campaign_id_is_positive_integer(path: ContactPathParameters, findings: list[Finding]) -> None:
    """The campaign `id` of the path is a positive integer id."""
    if read_path_id(path.campaign_id) is None:
        findings.append(Finding("id", f"id must be {_ID_RANGE}"))


def contact_id_is_positive_integer(path: ContactPathParameters, findings: list[Finding]) -> None:
    """The `contact_id` of the path is a positive integer id."""
    if read_path_id(path.contact_id) is None:
        findings.append(Finding("contact_id", f"contact_id must be {_ID_RANGE}"))


def thread_id_is_url_safe(thread_id: object, findings: list[Finding]) -> None:
    """The thread `id` is a short run of unreserved URL characters."""
    if not is_thread_id(thread_id):
        findings.append(
            Finding(
                "id",
                f"id must be 1 to {THREAD_ID_MAX_LENGTH} letters, digits, '-', '.', '_' or '~'",
            )
        )


def idempotency_key_is_visible_ascii(value: object, findings: list[Finding]) -> None:
    """`Idempotency-Key` is a short run of visible ASCII characters."""
    if value is None:
        return  # spec 4.1: the header is optional
    text = as_string(value)
    if (
        text is None
        or not 0 < len(text) <= IDEMPOTENCY_KEY_MAX_LENGTH
        or not VISIBLE_ASCII.issuperset(text)
    ):
        message = (
            f"Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters"
        )
        findings.append(Finding(IDEMPOTENCY_KEY_FIELD, message))


def body_is_plain_json(request: CanonicalRequest, findings: list[Finding]) -> None:
    """An idempotent request's body is plain JSON data."""
    if request.text is None:
        findings.append(
            Finding(None, "the request body is not plain JSON data and cannot be made idempotent")
        )


def idempotency_arguments_are_usable(state: IdempotencyState, findings: list[Finding]) -> None:
    """The server gives the idempotency check usable arguments."""
    if state.unusable is not None:
        findings.append(Finding(None, f"the idempotency check was given {state.unusable}"))


def same_request_for_key(state: IdempotencyState, findings: list[Finding]) -> None:
    """An `Idempotency-Key` seen within the window comes with the same request."""
    if state.reused:
        findings.append(
            Finding(
                IDEMPOTENCY_KEY_FIELD,
                "this Idempotency-Key was already used for a different request",
            )
        )


def rate_key_is_usable(request: RateRequest, findings: list[Finding]) -> None:
    """The server gives the rate limiter an API key that is a string."""
    if request.key is None:
        findings.append(Finding(None, "the rate limiter was given an unusable key"))


def clock_reading_is_usable(request: RateRequest, findings: list[Finding]) -> None:
    """The server gives the rate limiter an integer nanosecond clock reading."""
    if request.reading is None:
        findings.append(Finding(None, "the rate limiter was given an unusable clock"))


def within_rate_limit(request: RateRequest, findings: list[Finding]) -> None:
    """A request is within its API key's rate for its operation."""
    if request.wait_ns > 0:
        seconds = whole_seconds(request.wait_ns)
        unit = "second" if seconds == 1 else "seconds"
        findings.append(Finding(None, f"too many requests: retry after {seconds} {unit}"))
