"""What every check returns: a value or its violations, the HTTP status and the error body.

Spec 7.1 fixes the error envelope, D-statuses the status precedence.
"""

from __future__ import annotations

from typing import ClassVar, Final, Generic, TypeVar

import attrs

from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.violations import Violation

__all__ = [
    "STATUS_OF_KEY",
    "STATUS_PRECEDENCE",
    "Outcome",
    "primary_violation",
    "status_body",
]

# The HTTP status each error key answers with. Spec 7.3 fixes those of a create's keys;
# D-statuses settles the rest, which spec 7.2 lists without one.
STATUS_OF_KEY: Final = {
    ErrorKey.INVALID_REQUEST: 400,
    ErrorKey.INVALID_INTEGRATION_TYPE: 400,
    ErrorKey.INVALID_FILTER_TAG: 400,
    ErrorKey.SCHEDULED_MODE_ONLY: 400,
    ErrorKey.IMMUTABLE_FIELD: 400,
    ErrorKey.CYCLES_NOT_ENABLED: 400,
    ErrorKey.INVALID_STATUS: 400,
    ErrorKey.UNKNOWN_ACTION: 400,
    ErrorKey.INVALID_PHONE_NUMBER: 400,
    ErrorKey.MISSING_CONTACT: 400,
    ErrorKey.BILLING_LIMIT_REACHED: 402,
    ErrorKey.FORBIDDEN: 403,
    ErrorKey.NOT_FOUND: 404,
    ErrorKey.AGENT_NOT_FOUND: 404,
    ErrorKey.INTEGRATION_NOT_FOUND: 404,
    ErrorKey.CONTACT_NOT_FOUND: 404,
    ErrorKey.CAMPAIGN_FINISHED: 409,
    ErrorKey.CONTACT_NOT_DELETABLE: 409,
    ErrorKey.INVALID_STATUS_TRANSITION: 409,
    ErrorKey.RATE_LIMITED: 429,
    ErrorKey.SERVER_ERROR: 500,
}

# D-statuses: the primary violation is the first by status precedence 400, 404, 409, 402;
# statuses the contract does not rank come after those, lowest first.
STATUS_PRECEDENCE: Final = (400, 404, 409, 402)


def _rank(violation: Violation) -> tuple[int, int]:
    status = STATUS_OF_KEY[violation.key]
    if status in STATUS_PRECEDENCE:
        return (STATUS_PRECEDENCE.index(status), 0)
    return (len(STATUS_PRECEDENCE), status)


def primary_violation(violations: tuple[Violation, ...]) -> Violation | None:
    """The violation a response reports: the first of the highest-ranked status."""
    # min() keeps the first of equals, so "among equals, the first found" holds.
    return min(violations, key=_rank, default=None)


def status_body(violation: Violation | None) -> dict[str, object] | None:
    """The error body of spec 7.4 for `violation`, `{"error": <status>, "message": ...}`.

    It is what a thread request answers with (spec 7.4: `{error: integer, message: string}`):
    the status of the violation's key, and its message. `None` when there is no violation.
    """
    if violation is None:
        return None
    return {"error": STATUS_OF_KEY[violation.key], "message": violation.message}


Value = TypeVar("Value")


@attrs.frozen
class Outcome(Generic[Value]):
    """What every check of the library returns: a value, or the violations that refused it.

    Subclasses fix the status of success (`_ok_status`) and the type of `value`.
    """

    value: Value | None
    violations: tuple[Violation, ...]

    _ok_status: ClassVar[int]

    @property
    def ok(self) -> bool:
        """Whether the input broke no rule."""
        return not self.violations

    @property
    def keys(self) -> tuple[ErrorKey, ...]:
        """The error keys of the violations, in the same order."""
        return tuple(violation.key for violation in self.violations)

    @property
    def primary(self) -> Violation | None:
        """The violation the response reports (D-statuses precedence); `None` when ok."""
        return primary_violation(self.violations)

    @property
    def status(self) -> int:
        """The HTTP status to answer with."""
        primary = self.primary
        return self._ok_status if primary is None else STATUS_OF_KEY[primary.key]

    def envelope(self) -> dict[str, object] | None:
        """The error body of spec 7.1 for the primary violation; `None` when ok.

        It holds only strings and `False`, so `json.dumps(..., allow_nan=False)` encodes it.
        """
        primary = self.primary
        if primary is None:
            return None
        body: dict[str, object] = {
            "success": False,
            "error": primary.key.value,
            "message": primary.message,
        }
        if primary.field is not None:
            body["field"] = primary.field
        body.update(self._envelope_extras(primary))
        return body

    def _envelope_extras(self, primary: Violation) -> dict[str, object]:
        """Members a subclass adds to the envelope of `primary` (none here)."""
        return {}
