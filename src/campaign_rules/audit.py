"""Auditing a store of campaign creation bodies: JSON Lines in, a mergeable summary out.

A store is read as JSON Lines, one creation body per line, and every line is judged as
`validate_create_json` judges a body of its bytes, offline (no directory; D-audit-bytes): the
same rule ids, pointers and places, the body rules included. `audit_lines` folds the lines
into an `AuditSummary`; `violation_rows` yields one row per violation. Records are numbered by
their line, blank lines included, so that record 7 is the seventh line of the input
(D-audit-records).

Summaries merge: `first.merge(then)` is the summary of the lines of `first` followed by those of
`then`, and merging is associative, with the empty `AuditSummary()` as identity. So any engine
can audit the partitions of a store on its own workers and reduce the summaries in partition
order: `campaign-rules audit --jobs N` does it over chunks of a file, `campaign_rules.dask`
over the files of a `dask.bag`.

Nothing here raises on a line: a line that is not UTF-8 text or not JSON is counted as
`unreadable`.
`html_report` renders a summary, from any engine, as one self-contained HTML page.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Final, TypedDict, TypeVar

import attrs

from campaign_rules import __version__
from campaign_rules._audit import FIRST_RECORDS_KEPT, Tally, line_body, read_line, tally_lines
from campaign_rules._core.json import ONE_TEXT_CLASSES
from campaign_rules._core.pointers import output_pointer
from campaign_rules._core.strict_json import read_body
from campaign_rules._core.violations import Violation
from campaign_rules._core.written_json import i_json
from campaign_rules._export.links import DOCS_URL
from campaign_rules._export.ruleset import ruleset
from campaign_rules._rules.json_validation import body_refusal, placed_violations

__all__ = [
    "FIRST_RECORDS_KEPT",
    "AuditSummary",
    "RuleTally",
    "ViolationRow",
    "audit_chunk",
    "audit_lines",
    "html_report",
    "merge_summaries",
    "violation_rows",
]

_Item = TypeVar("_Item")


@attrs.frozen
class RuleTally:
    """How many records break one rule, and the numbers of the first of them, in order.

    `first_records` holds the first `FIRST_RECORDS_KEPT` record numbers (fewer when `count` is
    smaller). `field` and `message` are those of the rule's first violation in the first of
    them, an example for a report (`field` is `None` for the body as a whole).
    """

    count: int
    first_records: tuple[int, ...]
    field: str | None = None
    message: str = ""


@attrs.frozen
class AuditSummary:
    """What an audit of some lines found; `AuditSummary()` is the audit of no line.

    `lines` counts every line read, blank ones included; `records` (a property) the non-blank
    ones, each `valid`, `invalid` or `unreadable` (not UTF-8 text or not JSON).
    `unreadable_records` holds the numbers of the first unreadable lines. `rules` maps a rule
    id to its `RuleTally`, and `keys` an error key (`"INVALID_REQUEST"`) to the number of
    records with at least one violation of that key. Record numbers count from 1 at the first
    line of the lines audited.
    The mappings are read-only by convention: build a new summary with `merge`.
    """

    lines: int = 0
    valid: int = 0
    invalid: int = 0
    unreadable: int = 0
    unreadable_records: tuple[int, ...] = ()
    rules: Mapping[str, RuleTally] = attrs.field(factory=dict)
    keys: Mapping[str, int] = attrs.field(factory=dict)

    @property
    def records(self) -> int:
        """The number of non-blank lines: valid, invalid and unreadable records together."""
        return self.valid + self.invalid + self.unreadable

    @property
    def all_valid(self) -> bool:
        """True when every record was read and is valid (also when there is no record)."""
        return self.invalid == 0 and self.unreadable == 0

    def merge(self, then: AuditSummary) -> AuditSummary:
        """The summary of this summary's lines followed by those of `then`.

        The record numbers of `then` move on by `self.lines`. Associative, not commutative:
        reduce the summaries of partitions in the order of the partitions.
        """
        shift = self.lines
        rules = dict(self.rules)
        for rule, tally in then.rules.items():
            mine = rules.get(rule, _NO_TALLY)
            example = mine if mine.count else tally
            rules[rule] = RuleTally(
                mine.count + tally.count,
                _first(mine.first_records, tally.first_records, shift),
                example.field,
                example.message,
            )
        keys = dict(self.keys)
        for key, count in then.keys.items():
            keys[key] = keys.get(key, 0) + count
        return AuditSummary(
            lines=self.lines + then.lines,
            valid=self.valid + then.valid,
            invalid=self.invalid + then.invalid,
            unreadable=self.unreadable + then.unreadable,
            unreadable_records=_first(self.unreadable_records, then.unreadable_records, shift),
            rules=rules,
            keys=keys,
        )

    def ranked_rules(self) -> list[tuple[str, RuleTally]]:
        """The rules and their tallies, the rule broken by most records first, then by id."""
        return sorted(self.rules.items(), key=lambda item: (-item[1].count, item[0]))

    def ranked_keys(self) -> list[tuple[str, int]]:
        """The error keys and their counts, the key of most records first, then by name."""
        return sorted(self.keys.items(), key=lambda item: (-item[1], item[0]))

    def to_json(self) -> dict[str, object]:
        """The summary as JSON data: counts first, then rules and keys, most records first.

        `ruleset` names the rules that judged: this library's version and the fingerprint of
        its rule table and of the code that decides verdicts (`campaign_rules.schema.ruleset()`,
        D-ruleset).
        """
        return {
            "ruleset": dict(ruleset(__version__)),
            "records": self.records,
            "valid": self.valid,
            "invalid": self.invalid,
            "unreadable": self.unreadable,
            "lines": self.lines,
            "unreadable_records": list(self.unreadable_records),
            "rules": {
                rule: {
                    "count": tally.count,
                    "first_records": list(tally.first_records),
                    "field": tally.field,
                    "message": tally.message,
                }
                for rule, tally in self.ranked_rules()
            },
            "keys": dict(self.ranked_keys()),
        }


_NO_TALLY: Final = RuleTally(0, ())


def _first(earlier: tuple[int, ...], later: tuple[int, ...], shift: int) -> tuple[int, ...]:
    """The first record numbers of two runs of lines, the later one moved on by `shift`."""
    room = FIRST_RECORDS_KEPT - len(earlier)
    if room <= 0 or not later:
        return earlier
    return earlier + tuple(number + shift for number in later[:room])


def merge_summaries(summaries: Iterable[AuditSummary]) -> AuditSummary:
    """Merge summaries of consecutive runs of lines, in order (`AuditSummary()` for none).

    Raises `TypeError` for anything but an iterable of `AuditSummary`.
    """
    merged = AuditSummary()
    for summary in _iterable(summaries, "summaries"):
        if not isinstance(summary, AuditSummary):
            raise TypeError(f"summaries must hold AuditSummary, not {type(summary).__name__}")
        merged = merged.merge(summary)
    return merged


def _int(number: int, name: str) -> int:
    if type(number) is not int:
        raise TypeError(f"{name} must be an int, not {type(number).__name__}")
    return number


def _iterable(value: Iterable[_Item], name: str) -> Iterator[_Item]:
    """An iterator over `value`, or a `TypeError` that names the argument."""
    try:
        return iter(value)
    except TypeError:
        raise TypeError(f"{name} must be an iterable, not {type(value).__name__}") from None


def html_report(summary: AuditSummary, *, docs_url: str = DOCS_URL) -> str:
    """The summary as one self-contained HTML page, for an auditor to open in a browser.

    The page shows the totals, bar charts of the records by rule and by error key, each broken
    rule with its first records and the message of its first violation, linked to the rule's
    page at `docs_url` (`rules/<rule id>.html` under the documentation site), the first
    unreadable lines, and the rule set that judged (`campaign_rules.schema.ruleset()`). It
    loads nothing (inline CSS and SVG, no script), and every text from the data is escaped.
    Write it with `Path(name).write_text(page, encoding="utf-8")`; the summary may come from
    `audit_lines`, `campaign-rules audit` or `campaign_rules.dask.audit`. Raises `TypeError`
    when `summary` is not an `AuditSummary` or `docs_url` not a `str`.
    """
    if not isinstance(summary, AuditSummary):
        raise TypeError(f"summary must be an AuditSummary, not {type(summary).__name__}")
    if not isinstance(docs_url, str):
        raise TypeError(f"docs_url must be a str, not {type(docs_url).__name__}")
    # Imported on first use: an audit that writes no page renders none.
    from campaign_rules._audit.report import render_report

    return render_report(summary, docs_url=docs_url, ruleset=ruleset(__version__))


def _lines(lines: Iterable[bytes | str]) -> Iterator[bytes | str]:
    """An iterator over the lines, or a `TypeError` for one text or for no iterable at all."""
    # Iterating one text would audit each of its characters or byte values as a line.
    if isinstance(lines, ONE_TEXT_CLASSES):
        kind = type(lines).__name__
        raise TypeError(
            f"lines must be an iterable of lines, not one {kind}: pass text.splitlines() "
            "or an open file"
        )
    return _iterable(lines, "lines")


class ViolationRow(TypedDict):
    """One violation of one record, as a JSON object: a violation `validate_create_json` reports.

    `record` is the record's number, across the files of a store; `file` names its file (`None`
    when the lines were given without one) and `line` is its line there. `pointer` is the
    violation's JSON Pointer and `column` where it is in that line (from 1, in characters;
    D-positions): the start of its member's value, or where the line stops being UTF-8 or JSON.
    A pointer longer than 256 characters is shortened to its first 128, `~…` (which no JSON
    Pointer holds) and its last 126 (D-shown-text).
    `column` is `None` for a line over the size limit, or an item that is no line. An
    unreadable record gives one row, of `body.is_utf8`, `body.is_json` or
    `body.is_bytes_or_text` (D-audit-unreadable).
    """

    record: int
    rule: str
    key: str
    field: str | None
    message: str
    pointer: str
    file: str | None
    line: int
    column: int | None


def audit_lines(lines: Iterable[bytes | str]) -> AuditSummary:
    """Audit JSON Lines: each line one campaign creation body, judged offline.

    Each line is judged as `validate_create_json` judges a body of its bytes (D-audit-bytes).
    `lines` are `bytes` (UTF-8) or `str`, with or without their line break; blank lines are
    skipped but numbered. Never raises for any line; raises `TypeError` when `lines` is not
    iterable, or is one `str`, `bytes`, `bytearray` or `memoryview` (which would be audited a
    character or a byte at a time): pass `text.splitlines()` or an open file.
    """
    return audit_chunk(lines, first_line=1, rows=False)[0]


def violation_rows(
    lines: Iterable[bytes | str],
    *,
    first_line: int = 1,
    file: str | None = None,
    file_line: int | None = None,
) -> Iterator[ViolationRow]:
    """Yield a row for each violation of each record of `lines`, in order.

    Record numbers start at `first_line` (the number of the first line, when `lines` are a part
    of a larger input). `file` names the file the lines are read from, in each row, and
    `file_line` is the line of the first of them in it (by default `first_line`: the lines are
    numbered as one input). A valid record gives no row; an unreadable one gives one. Raises
    `TypeError` when `lines` is not iterable or is one text, as `audit_lines` does, or when
    `first_line` or `file_line` is not an `int` or `file` not a `str` or `None`; being a
    generator, it raises when first advanced.
    """
    lines, first_line = _lines(lines), _int(first_line, "first_line")
    place = _place(first_line, file, file_line)
    for number, line in enumerate(lines, start=first_line):
        verdict = read_line(line)
        if verdict:
            yield from _rows(number, verdict, line, place)


def audit_chunk(
    lines: Iterable[bytes | str],
    *,
    first_line: int,
    rows: bool,
    file: str | None = None,
    file_line: int | None = None,
) -> tuple[AuditSummary, str]:
    """The summary of `lines` and, in the same pass, their violation rows as JSON Lines text.

    The summary numbers records from 1, to be merged after the summary of the lines before;
    the rows number them from `first_line`, and place them in `file` from `file_line`, as
    `violation_rows` does. With `rows=False` the text is empty. For engines that write the
    rows as they go, such as `campaign-rules audit`. Raises `TypeError` as `violation_rows`
    does.
    """
    lines, first_line = _lines(lines), _int(first_line, "first_line")
    place = _place(first_line, file, file_line)
    # The lines are read, checked and counted in compiled code (campaign_rules._audit).
    tally = tally_lines(lines, rows)
    text = [
        i_json(row) + "\n"
        for count, verdict, line in tally.findings
        for row in _rows(first_line + count - 1, verdict, line, place)
    ]
    return _summary(tally), "".join(text)


# Where the rows of some lines are: their file, and how far its line numbers are from the
# record numbers.
_Place = tuple[str | None, int]


def _place(first_line: int, file: str | None, file_line: int | None) -> _Place:
    if file is not None and not isinstance(file, str):
        raise TypeError(f"file must be a str or None, not {type(file).__name__}")
    if file_line is None:
        return file, 0
    return file, _int(file_line, "file_line") - first_line


def _rows(
    number: int, verdict: tuple[Violation, ...] | Violation, line: object, place: _Place
) -> Iterator[ViolationRow]:
    file, shift = place
    for violation in _placed(verdict, line):
        yield ViolationRow(
            record=number,
            rule=violation.rule,
            key=violation.key.value,
            field=violation.field,
            message=violation.message,
            pointer=output_pointer(violation.pointer),
            file=file,
            line=number + shift,
            column=violation.column,
        )


def _placed(verdict: tuple[Violation, ...] | Violation, line: object) -> tuple[Violation, ...]:
    """The violations of a refused record, each with its place in the record's line.

    Found here, for a row, and only for a refused record: the audit reads no place for a valid
    one (D-positions). The line's body is read again, as `validate_create_json` reads it, for
    the places in it; a line refused by the body rules gets the violations of that reading,
    in which it stops being UTF-8 or JSON where its body does, not where its line break is.
    """
    violations = (verdict,) if isinstance(verdict, Violation) else verdict
    reading = read_body(line_body(line) if type(line) is bytes or type(line) is str else line)
    if reading.refused:
        return body_refusal(reading)
    return placed_violations(violations, reading)


def _summary(tally: Tally) -> AuditSummary:
    """The summary of the lines `tally` counted."""
    return AuditSummary(
        lines=tally.lines,
        valid=tally.valid,
        invalid=tally.invalid,
        unreadable=tally.unreadable,
        unreadable_records=tuple(tally.unreadable_records),
        rules={
            rule: RuleTally(
                count,
                tuple(tally.rule_records[rule]),
                tally.rule_examples[rule].field,
                tally.rule_examples[rule].message,
            )
            for rule, count in tally.rule_counts.items()
        },
        keys=dict(tally.keys),
    )
