"""The audit's work on each line: reading it, checking its body, counting what it found.

`campaign_rules.audit` holds the public names and their documentation and is left interpreted;
this module is what it runs once per line, compiled in the compiled build (setup.py), so that a
line crosses into compiled code once: the line's reading, the decoder, the rules and the tally
call each other directly (issue 22, D-audit-compiled-lines).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from campaign_rules._core.json import NotJson, decode_json, decode_json_line
from campaign_rules._core.limits import LINE_MAX_BYTES
from campaign_rules._core.violations import Violation
from campaign_rules._rules.validation import create_violations

__all__ = ["FIRST_RECORDS_KEPT", "Tally", "Verdict", "read_line", "tally_lines"]

# How many record numbers a summary keeps per rule, and of unreadable lines (D-audit-summary).
FIRST_RECORDS_KEPT: Final = 5

# A line is blank when it holds nothing but JSON white space (RFC 8259 section 2).
_JSON_WHITESPACE: Final = " \t\r\n"
_JSON_WHITESPACE_BYTES: Final = b" \t\r\n"
# The byte values of JSON white space: a line that starts with none of them is not blank.
_JSON_WHITESPACE_BYTE_VALUES: Final = frozenset(_JSON_WHITESPACE_BYTES)

# Why a line longer than `LINE_MAX_BYTES` is unreadable (D-audit-lines).
_TOO_LONG: Final = f"the line is longer than {LINE_MAX_BYTES:,} bytes, the longest a body may be"

# What reading a line gives: `None` for a blank line, the violations of its record (none for a
# valid one), or, as a `str`, why it is unreadable (D-audit-unreadable).
Verdict = tuple[Violation, ...] | str | None


def read_line(line: object) -> Verdict:
    """Decode one line and check the body it holds, as `validate_create` checks it offline."""
    try:
        if isinstance(line, bytes):
            if len(line) > LINE_MAX_BYTES and len(line) - line.endswith(b"\n") > LINE_MAX_BYTES:
                return _TOO_LONG
            # Most lines start with "{": only a line that starts with white space may be blank.
            if (not line or line[0] in _JSON_WHITESPACE_BYTE_VALUES) and not line.strip(
                _JSON_WHITESPACE_BYTES
            ):
                return None
            body = decode_json_line(line)
        elif isinstance(line, str):
            # A lone surrogate (an undecodable byte, escaped) is not text.
            if len(line.encode("utf-8")) - line.endswith("\n") > LINE_MAX_BYTES:
                return _TOO_LONG
            if not line.strip(_JSON_WHITESPACE):
                return None
            body = decode_json(line)
        else:
            return "the line is neither bytes nor text"
    except UnicodeError:  # only ever from the codec, before any decoder has its say
        return "the line is not UTF-8 text"
    except NotJson as error:
        where = f" (column {error.where[1]})" if error.where else ""
        return f"the line is not JSON: {error.reason}{where}"
    return create_violations(body)


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
        self.findings: list[tuple[int, tuple[Violation, ...] | str, object]] = []

    def add(self, number: int, verdict: tuple[Violation, ...] | str) -> None:
        """Count the record of line `number` (from 1), which is not blank."""
        if isinstance(verdict, str):
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
            for key in {violation.key.value: None for violation in verdict}:
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
