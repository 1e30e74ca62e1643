"""What a server checks of a request before its body: credentials, path parameters, size.

The `Authorization` header is `api-key <KEY>` (spec 5, D-authorization); the ids in the paths
of `GET /campaigns/{id}/contacts/{contact_id}` and `GET /thread/{id}` are D-path-ids and
D-thread-id. Each check takes any value and never raises. `BODY_MAX_BYTES` is the most a body
read as text may hold (D-body-limits): `validate_create_json` refuses a longer one, and a server
refuses it unread with 413 (D-body-reading).


A refused header answers 401 with the credentials body of spec 5 rule 3, `{error, message}`,
not the error envelope of spec 7.1: no key of spec 7.2 names it, so this check has no rule in
the rule table and its result is not an `Outcome`.
"""

from __future__ import annotations

from typing import ClassVar, Final

import attrs

from campaign_rules._core.json import as_string
from campaign_rules._core.limits import (
    AUTHORIZATION_MAX_LENGTH,
    AUTHORIZATION_SCHEME,
    BODY_MAX_BYTES,
    VISIBLE_ASCII,
)
from campaign_rules._core.outcome import Outcome, status_body
from campaign_rules._rules.runner import run_rules
from campaign_rules._rules.table import CONTACT_PATH_RULES, THREAD_PATH_RULES
from campaign_rules._server.paths import ContactPath, ContactPathParameters, read_path_id

__all__ = [
    "BODY_MAX_BYTES",
    "AuthorizationResult",
    "ContactPath",
    "ContactPathResult",
    "ThreadPathResult",
    "check_contact_path",
    "check_thread_path",
    "parse_authorization",
]

# RFC 9110 section 5.5: the optional white space around a field value is not part of it.
_OWS: Final = " \t"

_MISSING: Final = "the Authorization header is missing"
_NOT_TEXT: Final = "the Authorization header must be text"
_TOO_LONG: Final = f"the Authorization header must be at most {AUTHORIZATION_MAX_LENGTH} characters"
_NOT_API_KEY: Final = "the Authorization header must be `api-key` followed by the key"
_NO_SPACE: Final = "the Authorization header needs a space between `api-key` and the key"
_NO_KEY: Final = "the Authorization header has no key after `api-key`"
_BAD_KEY: Final = "the API key must be visible ASCII characters without spaces"


@attrs.frozen
class AuthorizationResult:
    """The outcome of `parse_authorization`: the API key, or why the request is unauthorized.

    `value` is the key exactly as sent when `ok`, else `None`; `message` says what is wrong
    (never repeating the header, which may hold a secret), `None` when ok.
    """

    value: str | None
    message: str | None

    @property
    def ok(self) -> bool:
        """Whether the header carries an API key in the `api-key <KEY>` form."""
        return self.message is None

    @property
    def status(self) -> int:
        """The HTTP status: 200 when ok (the request goes on), else 401 (spec 5 rule 3)."""
        return 200 if self.message is None else 401

    def body(self) -> dict[str, object] | None:
        """The 401 body of spec 5 rule 3, `{"error": 401, "message": ...}`; `None` when ok."""
        if self.message is None:
            return None
        return {"error": 401, "message": self.message}


def parse_authorization(header_value: object) -> AuthorizationResult:
    """Read the API key from an `Authorization` header value (spec 5, D-authorization).

    `header_value` is the field value as the server received it, or `None` when the header is
    absent. The scheme word `api-key` is matched in any ASCII case, one or more spaces follow
    it, and the key is the rest: one or more visible ASCII characters (0x21 to 0x7E), kept as
    given. Spaces and tabs around the whole value are ignored (RFC 9110 section 5.5). Never
    raises for any value.
    """
    if header_value is None:
        return _refused(_MISSING)
    text = as_string(header_value)
    if text is None:
        return _refused(_NOT_TEXT)
    if len(text) > AUTHORIZATION_MAX_LENGTH:
        return _refused(_TOO_LONG)
    text = text.strip(_OWS)
    scheme, rest = text[: len(AUTHORIZATION_SCHEME)], text[len(AUTHORIZATION_SCHEME) :]
    # `isascii` first: `str.lower` folds non-ASCII letters too (KELVIN SIGN to "k").
    if not scheme.isascii() or scheme.lower() != AUTHORIZATION_SCHEME:
        return _refused(_NOT_API_KEY)
    key = rest.lstrip(" ")
    if not key:
        return _refused(_NO_KEY)
    if key == rest:
        # `api-keys x` names another scheme; `api-key\tx` lacks the space.
        return _refused(_NOT_API_KEY if rest[0] in VISIBLE_ASCII else _NO_SPACE)
    if not VISIBLE_ASCII.issuperset(key):
        return _refused(_BAD_KEY)
    return AuthorizationResult(value=key, message=None)


def _refused(message: str) -> AuthorizationResult:
    return AuthorizationResult(value=None, message=message)


@attrs.frozen
class ContactPathResult(Outcome[ContactPath]):
    """The outcome of `check_contact_path`: the two ids as integers, or violations.

    A malformed campaign id is `NOT_FOUND` (field `id`), a malformed contact id
    `CONTACT_NOT_FOUND` (field `contact_id`), both 404 (D-path-ids). `status` is 200 when ok.
    """

    _ok_status: ClassVar[int] = 200


@attrs.frozen
class ThreadPathResult(Outcome[str]):
    """The outcome of `check_thread_path`: the thread id, or a `NOT_FOUND` violation (404).

    Thread errors have the body of spec 7.4, `{"error": <status>, "message": ...}`, so
    `envelope()` gives that shape (D-thread-id). `status` is 200 when ok.
    """

    _ok_status: ClassVar[int] = 200

    def envelope(self) -> dict[str, object] | None:
        """The thread error body of spec 7.4, `{"error": 404, "message": ...}`; `None` when ok."""
        return status_body(self.primary)


def check_contact_path(campaign_id: object, contact_id: object) -> ContactPathResult:
    """Check the path of `GET /campaigns/{id}/contacts/{contact_id}` (spec 4.2, D-path-ids).

    Each id is a string of 1 to 16 ASCII digits without a leading zero, or an integer, from 1
    to 2**53 - 1. Both are checked, and every violation reported.
    """
    parameters = ContactPathParameters(campaign_id, contact_id)
    violations = tuple(run_rules(parameters, CONTACT_PATH_RULES))
    campaign, contact = read_path_id(campaign_id), read_path_id(contact_id)
    if violations or campaign is None or contact is None:
        return ContactPathResult(value=None, violations=violations)
    return ContactPathResult(value=ContactPath(campaign, contact), violations=())


def check_thread_path(thread_id: object) -> ThreadPathResult:
    """Check the path of `GET /thread/{id}` (spec 4.3, D-thread-id).

    The id is 1 to 128 of the characters a URL path holds unescaped: ASCII letters, digits,
    `-`, `.`, `_` and `~`, and not `.` or `..`.
    """
    violations = tuple(run_rules(thread_id, THREAD_PATH_RULES))
    if violations:
        return ThreadPathResult(value=None, violations=violations)
    return ThreadPathResult(value=str.__str__(thread_id), violations=())
