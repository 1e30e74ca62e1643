"""The path parameters of the retrieval endpoints (spec 4.2, 4.3; D-path-ids, D-thread-id)."""

from __future__ import annotations

from typing import Final

import attrs

from campaign_rules._core.json import as_integer, as_string
from campaign_rules._core.limits import PATH_ID_MAX, PATH_ID_MAX_DIGITS, THREAD_ID_MAX_LENGTH

__all__ = [
    "DOT_SEGMENTS",
    "UNRESERVED",
    "ContactPath",
    "ContactPathParameters",
    "is_thread_id",
    "read_path_id",
]

_DIGITS: Final = frozenset("0123456789")
# D-thread-id: RFC 3986's unreserved characters, which a path segment holds unescaped.
UNRESERVED: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# RFC 3986 section 5.2.4: these segments are removed from a path, so no id can be one.
DOT_SEGMENTS: Final = frozenset({".", ".."})


@attrs.frozen
class ContactPath:
    """The path parameters of `GET /campaigns/{id}/contacts/{contact_id}`, read (spec 4.2)."""

    campaign_id: int
    contact_id: int


@attrs.frozen
class ContactPathParameters:
    """The path parameters of a contact retrieval as received: any values, unread."""

    campaign_id: object
    contact_id: object


def read_path_id(value: object) -> int | None:
    """The id when `value` names a positive integer id (D-path-ids), else `None`.

    A string must be ASCII digits, at most `PATH_ID_MAX_DIGITS` of them, without a leading zero;
    an integer (what an SDK holds from a parsed response) is taken as it is. Either way the id
    is from 1 to `PATH_ID_MAX`.
    """
    text = as_string(value)
    if text is None:
        number = as_integer(value)
    elif 0 < len(text) <= PATH_ID_MAX_DIGITS and _DIGITS.issuperset(text) and text[0] != "0":
        number = int(text)
    else:
        return None
    return number if number is not None and 0 < number <= PATH_ID_MAX else None


def is_thread_id(value: object) -> bool:
    """Whether `value` is a thread id (D-thread-id).

    A thread id is a string of unreserved URL characters, at most `THREAD_ID_MAX_LENGTH` of them,
    and not a dot segment.
    """
    text = as_string(value)
    return (
        text is not None
        and 0 < len(text) <= THREAD_ID_MAX_LENGTH
        and UNRESERVED.issuperset(text)
        and text not in DOT_SEGMENTS
    )
