"""Rules on the parts of a request outside its body: path parameters and headers.

Sources: spec 4.1 rule 2, 4.2, 4.3, 8; D-path-ids, D-thread-id, D-idempotency-key,
D-fingerprint, D-idempotency, D-idempotency-claim, D-rate-limit,
D-rate-shared.
"""

from __future__ import annotations

from typing import Final

from campaign_rules._core.json import as_string
from campaign_rules._core.limits import (
    IDEMPOTENCY_IN_USE_RETRY_SECONDS,
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
    "key_not_in_use",
    "rate_key_is_usable",
    "same_request_for_key",
    "shared_state_is_usable",
    "thread_id_is_url_safe",
    "within_rate_limit",
]

_ID_RANGE: Final = f"a decimal integer from 1 to {PATH_ID_MAX} without leading zeros"
# D-idempotency-key: the header's own name is the field of its violation.
IDEMPOTENCY_KEY_FIELD: Final = "Idempotency-Key"


def campaign_id_is_positive_integer(path: ContactPathParameters, findings: list[Finding]) -> None:
    """Reads the id with `read_path_id`, a string of digits or an SDK's integer; reports at `id`."""
    if read_path_id(path.campaign_id) is None:
        findings.append(Finding("id", f"id must be {_ID_RANGE}"))


def contact_id_is_positive_integer(path: ContactPathParameters, findings: list[Finding]) -> None:
    """Reads the id with `read_path_id`, a string of digits or an SDK's integer.

    An id it cannot read is reported at `contact_id`.
    """
    if read_path_id(path.contact_id) is None:
        findings.append(Finding("contact_id", f"contact_id must be {_ID_RANGE}"))


def thread_id_is_url_safe(thread_id: object, findings: list[Finding]) -> None:
    """Reads the thread id with `is_thread_id`, a string only; reports at `id`."""
    if not is_thread_id(thread_id):
        findings.append(
            Finding(
                "id",
                f"id must be 1 to {THREAD_ID_MAX_LENGTH} letters, digits, '-', '.', '_' or '~'",
            )
        )


def idempotency_key_is_visible_ascii(value: object, findings: list[Finding]) -> None:
    """Skips an absent header (`None`); reports any other value at the header's name.

    A value passes when it is a string of the allowed length whose characters are all in
    `_core.limits.VISIBLE_ASCII`.
    """
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
    """Reports at the root a request whose canonical text could not be made."""
    if request.text is None:
        findings.append(
            Finding(None, "the request body is not plain JSON data and cannot be made idempotent")
        )


def idempotency_arguments_are_usable(state: IdempotencyState, findings: list[Finding]) -> None:
    """Reports at the root, by name, the first argument that cannot be read."""
    if state.unusable is not None:
        findings.append(Finding(None, f"the idempotency check was given {state.unusable}"))


def same_request_for_key(state: IdempotencyState, findings: list[Finding]) -> None:
    """Reports at the header's name a key whose live record holds another request's fingerprint."""
    if state.reused:
        findings.append(
            Finding(
                IDEMPOTENCY_KEY_FIELD,
                "this Idempotency-Key was already used for a different request",
            )
        )


def key_not_in_use(state: IdempotencyState, findings: list[Finding]) -> None:
    """Reports at the header's name a key claimed by the same request, still running.

    The wait it names is `Retry-After`'s, which `IdempotencyDecision.headers()` gives.
    """
    if state.in_use:
        seconds = IDEMPOTENCY_IN_USE_RETRY_SECONDS
        unit = "second" if seconds == 1 else "seconds"
        findings.append(
            Finding(
                IDEMPOTENCY_KEY_FIELD,
                "a request with this Idempotency-Key is still running:"
                f" retry after {seconds} {unit}",
            )
        )


def rate_key_is_usable(request: RateRequest, findings: list[Finding]) -> None:
    """Reports at the root a key the limiter could not read; such a request is not counted."""
    if request.key is None:
        findings.append(Finding(None, "the rate limiter was given an unusable key"))


def shared_state_is_usable(request: RateRequest, findings: list[Finding]) -> None:
    """Reports at the root, by name, a stored state or setting the shared step could not read."""
    if request.unusable is not None:
        findings.append(Finding(None, f"the rate step was given {request.unusable}"))


def clock_reading_is_usable(request: RateRequest, findings: list[Finding]) -> None:
    """Reports at the root a clock reading the limiter could not read; it is not counted."""
    if request.reading is None:
        findings.append(Finding(None, "the rate limiter was given an unusable clock"))


def within_rate_limit(request: RateRequest, findings: list[Finding]) -> None:
    """Reports at the root a request the limiter made wait, with the wait in whole seconds.

    The wait is rounded up, as `Retry-After` gives it.
    """
    if request.wait_ns > 0:
        seconds = whole_seconds(request.wait_ns)
        unit = "second" if seconds == 1 else "seconds"
        findings.append(Finding(None, f"too many requests: retry after {seconds} {unit}"))
