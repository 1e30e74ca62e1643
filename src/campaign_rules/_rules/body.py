"""Rules on the request body as text: what I-JSON (RFC 7493) and the body limits refuse.

Each reads what `_core.strict_json.read_body` found (`BodyReading`); the text is read once,
there. Sources: RFC 8259, RFC 7493, D-body-limits, D-byte-order-mark.
"""

from __future__ import annotations

from typing import Final

from campaign_rules._core.display import shown_name
from campaign_rules._core.json_text import DEPTH, DUPLICATE, NUMBER, SURROGATE, TextProblem
from campaign_rules._core.limits import BODY_MAX_BYTES, BODY_MAX_DEPTH
from campaign_rules._core.strict_json import BodyReading
from campaign_rules._core.unicode import LONE_SURROGATE
from campaign_rules._core.violations import Finding

__all__ = [
    "body_has_no_byte_order_mark",
    "body_is_bytes_or_text",
    "body_is_json",
    "body_is_utf8",
    "body_within_size_limit",
    "depth_within_limit",
    "member_names_unique",
    "numbers_fit_a_double",
    "strings_are_unicode",
]

_TOO_LARGE: Final = Finding(None, f"the request body must be at most {BODY_MAX_BYTES} bytes")
_BYTE_ORDER_MARK: Final = Finding(None, "the request body must not start with a byte order mark")
_NOT_UTF8: Final = Finding(None, "the request body must be UTF-8 text")


def body_is_bytes_or_text(reading: BodyReading, findings: list[Finding]) -> None:
    """Reports at the root data of another type, by its type's name only."""
    if reading.not_text is not None:
        findings.append(
            # A class's name is the caller's text: shown as a member name is (D-shown-text).
            Finding(
                None, f"the request body must be bytes or str, not {shown_name(reading.not_text)}"
            )
        )


def body_within_size_limit(reading: BodyReading, findings: list[Finding]) -> None:
    """Counts bytes, a `str` by its UTF-8 length; reports at the root, the text unread."""
    if reading.too_large:
        findings.append(_TOO_LARGE)


def body_has_no_byte_order_mark(reading: BodyReading, findings: list[Finding]) -> None:
    """Looks at the first bytes (the UTF-8 and UTF-sixteen marks) or character; at the root."""
    if reading.byte_order_mark:
        findings.append(_BYTE_ORDER_MARK)


def body_is_utf8(reading: BodyReading, findings: list[Finding]) -> None:
    """Decodes strictly (an encoded surrogate is no UTF-8); reports at the root."""
    if reading.not_utf8:
        findings.append(_NOT_UTF8)


def body_is_json(reading: BodyReading, findings: list[Finding]) -> None:
    """Reports at the root why the text is not JSON, placed where it stops being JSON.

    The reason is a sentence of the library's own, the same whichever decoder read the text
    (`_core.json_syntax`).
    """
    if reading.not_json is not None:
        findings.append(Finding(None, f"the request body must be JSON: {reading.not_json}"))


def _at(problem: TextProblem, predicate: str) -> Finding:
    where = problem.path if problem.path is not None else "the request body"
    return Finding(problem.path, f"{where} {predicate}", problem.pointer)


def depth_within_limit(reading: BodyReading, findings: list[Finding]) -> None:
    """Reports the first container nested too deeply, at its path; the text after is unread."""
    for problem in reading.problems:
        if problem.kind == DEPTH:
            findings.append(_at(problem, f"is nested more than {BODY_MAX_DEPTH} levels deep"))


def member_names_unique(reading: BodyReading, findings: list[Finding]) -> None:
    """Reports each repeat of a name in its object, at the member's path, at any depth."""
    for problem in reading.problems:
        if problem.kind == DUPLICATE:
            findings.append(_at(problem, "is given more than once in its object"))


def strings_are_unicode(reading: BodyReading, findings: list[Finding]) -> None:
    """Reports each string or name holding a lone surrogate, escaped or not, at its member."""
    for problem in reading.problems:
        if problem.kind == SURROGATE:
            findings.append(_at(problem, LONE_SURROGATE))


def numbers_fit_a_double(reading: BodyReading, findings: list[Finding]) -> None:
    """Reports each `NaN`, infinity, or number that rounds to an infinity, at its path."""
    for problem in reading.problems:
        if problem.kind == NUMBER:
            findings.append(_at(problem, "must be a number an IEEE double holds"))
