"""The audit's work on each line: reading it, judging its body, counting what it found.

`campaign_rules.audit` holds the public names and their documentation and is left interpreted;
this module is what it runs once per line, compiled in the compiled build (setup.py), so that a
line crosses into compiled code once: the line's reading, the rules and the tally call each
other directly (issue 22, D-audit-compiled-lines).

A line is judged as `validate_create_json` judges a body of its bytes (D-audit-bytes): read as
I-JSON by `read_body`, refused by the body rules, or judged by the creation rules offline.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, cast

from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.json_syntax import JSON_WHITESPACE, JSON_WHITESPACE_BYTES
from campaign_rules._core.limits import LINE_MAX_BYTES, VIOLATIONS_MAX
from campaign_rules._core.strict_json import NOT_ACCEPTED, accepted_value, read_body
from campaign_rules._core.violations import Violation
from campaign_rules._rules.runner import run_rules
from campaign_rules._rules.table import BODY_RULES
from campaign_rules._rules.validation import create_violations

__all__ = ["FIRST_RECORDS_KEPT", "Tally", "Verdict", "line_body", "read_line", "tally_lines"]

# How many record numbers a summary keeps per rule, and of unreadable lines (D-audit-summary).
FIRST_RECORDS_KEPT: Final = 5

# A line is blank when it holds nothing but JSON white space. Its byte values: a line that
# starts with none of them is not blank.
_JSON_WHITESPACE_BYTE_VALUES: Final = frozenset(JSON_WHITESPACE_BYTES)
_LINE_BREAK: Final = ord("\n")

# What reading a line gives: `None` for a blank line, the violations of its record (none for a
# valid one), or, as one `Violation` of the body rules, why it is unreadable: not bytes or
# text, not UTF-8, not JSON (D-audit-unreadable).
Verdict = tuple[Violation, ...] | Violation | None
# The text of each error key, which a summary counts by: looked up, where an `ErrorKey`'s
# `value` is a Python property called for each violation.
_KEY_TEXTS: Final[dict[ErrorKey, str]] = {key: key.value for key in ErrorKey}


def read_line(line: object) -> Verdict:
    """Judge one line as `validate_create_json` judges a body of its bytes, offline.

    A line break at its end is not part of the body (`line_body`): it is read with it, as the
    JSON white space it is, where it changes no verdict; `line_body` drops it for the places.
    """
    # Exact types only: a subclass's methods are the caller's code, which may raise, and it is
    # read as `validate_create_json` reads it, by its base value (D-hostile-input).
    if type(line) is bytes:
        # Most lines start with "{": only a line that starts with white space may be blank.
        if (not line or line[0] in _JSON_WHITESPACE_BYTE_VALUES) and not line.strip(
            JSON_WHITESPACE_BYTES
        ):
            return None
        # A line of the longest body and its line break is no longer than that body.
        body = cast("bytes", line_body(line)) if len(line) > LINE_MAX_BYTES else line
        # Most lines: read by msgspec and surely I-JSON, judged with no `BodyReading` made.
        value = accepted_value(body)
        if value is not NOT_ACCEPTED:
            return create_violations(value, from_text=True)
        reading = read_body(body)
    elif type(line) is str:
        if not line.strip(JSON_WHITESPACE):
            return None
        reading = read_body(line_body(line) if len(line) * 4 > LINE_MAX_BYTES else line)
    else:  # a subclass, a `bytearray` or a `memoryview` as its value; anything else no text
        reading = read_body(line)
    if not reading.refused:
        return create_violations(reading.value, from_text=True)
    violations = run_rules(reading, BODY_RULES, VIOLATIONS_MAX)
    if reading.not_text is not None or reading.not_utf8 or reading.not_json is not None:
        return violations[0]  # judged no further: the only violation
    return violations


def line_body(line: bytes | str) -> bytes | str:
    """The body a line holds: the line without the line break at its end, if any."""
    if isinstance(line, bytes):
        return line[:-1] if line and line[-1] == _LINE_BREAK else line
    return line[:-1] if line.endswith("\n") else line


class Tally:
    """A summary being built, one record at a time, in the order of the lines.

    `campaign_rules.audit` makes its `AuditSummary` from these counts; `findings` holds each
    record that has a row to write (invalid or unreadable) with its number and its line, when
    asked for, so that the rows can place each violation in its line.
    """

    def __init__(self) -> None:
        self.lines = 0
        self.valid = 0
        self.invalid = 0
        self.unreadable = 0
        self.unreadable_records: list[int] = []
        self.rule_counts: dict[str, int] = {}
        self.rule_records: dict[str, list[int]] = {}
        self.rule_examples: dict[str, Violation] = {}
        self.keys: dict[str, int] = {}
        self.findings: list[tuple[int, tuple[Violation, ...] | Violation, object]] = []

    def add(self, number: int, verdict: tuple[Violation, ...] | Violation) -> None:
        """Count the record of line `number` (from 1), which is not blank."""
        # Told by the tuple, which compiled is a test of the type's flags: `isinstance` with
        # `Violation`, a class of an interpreted module, was a generic call on every record.
        if not isinstance(verdict, tuple):
            self.unreadable += 1
            if len(self.unreadable_records) < FIRST_RECORDS_KEPT:
                self.unreadable_records.append(number)
        elif not verdict:
            self.valid += 1
        else:
            self.invalid += 1
            # A record counts once per rule and once per key, however many violations it has.
            for rule in {violation.rule: None for violation in verdict}:
                self.rule_counts[rule] = self.rule_counts.get(rule, 0) + 1
                first = self.rule_records.setdefault(rule, [])
                if not first:
                    self.rule_examples[rule] = next(v for v in verdict if v.rule == rule)
                if len(first) < FIRST_RECORDS_KEPT:
                    first.append(number)
            for key in {_KEY_TEXTS[violation.key]: None for violation in verdict}:
                self.keys[key] = self.keys.get(key, 0) + 1


def tally_lines(lines: Iterator[object], rows: bool) -> Tally:
    """Read and count every line, numbered from 1; keep the findings too with `rows`."""
    tally = Tally()
    count = 0
    for line in lines:
        count += 1
        verdict = read_line(line)
        if verdict is None:
            continue
        tally.add(count, verdict)
        if rows and verdict:
            tally.findings.append((count, verdict, line))
    tally.lines = count
    return tally
