"""The sentences that state a bound of `campaign_rules._core.limits`: found, checked and fixed.

A page, a docstring, a comment or an example output that says "retries must be from 0 to 5"
states a bound that `_core/limits.py` declares. Each `Phrase` below finds one way of saying one
bound, and its numbers are checked against `limits` (`stale`) or rewritten from it (`rewrite`),
so that a bound changed in `limits` only changes every text that says it
(`python scripts/regenerate.py`). The spec's own numbers live in the oracle, which is not read:
`tests/cases/` (each file cites its clause) and `tests/test_oracle_bounds.py`.

A bound stated as a reason ("255 is Stripe's maximum") is not a phrase here: when the bound
changes, the reason has to be rewritten by hand. Nor is a quote of the spec: a citation of the
spec's clauses alone, a colon, and the rest of its line (`# spec 2.1, spec 8: `retries` 0 to 5,
default 1.` in `limits.py`) says what the spec says, which a change of `limits` leaves as it was
(`SPEC_QUOTE`); a citation that names a decision beside the spec ("spec 4.1 rule 2,
D-idempotency: ...") states the library's own bound, and is rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from campaign_rules._core import limits

ROOT = Path(__file__).resolve().parent.parent

# The texts read: the project's own prose and code. Not the changelog (history), the
# measurements (history), the oracle, the spec, what the docs build generates, nor the stale
# texts this module and its test show on purpose.
SCANNED = (
    "README.md",
    "docs/**/*.md",
    "src/**/*.py",
    "examples/**/*.py",
    "examples/**/*.sql",
    "benchmarks/**/*.py",
    "benchmarks/README.md",
    "scripts/*.py",
    "fuzz/*.py",
    "tests/**/*.py",
)
NOT_SCANNED = (
    "docs/_build/",
    "docs/rules/",
    "docs/benchmarks/",
    "docs/changelog.md",
    "tests/test_oracle_bounds.py",
    "scripts/bound_texts.py",
    "tests/test_regenerate.py",
)

# A number as the texts write it: 10000, 10_000 or 10,000.
_NUMBER = r"(\d(?:[\d_,]*\d)?)"
# A quote of the spec: "spec 2.1, spec 8: ..." or "spec 4.2, 8: ...", to the end of its line.
_CLAUSE = r"\d+(?:\.\d+)?(?: rule \d+)?"
SPEC_QUOTE = re.compile(rf"\b[Ss]pec {_CLAUSE}(?:(?:, | and )(?:spec )?{_CLAUSE})*: [^\n]*")


@dataclass(frozen=True)
class Phrase:
    """One way the texts say one bound: `pattern`'s groups are the numbers, in `values`' order."""

    name: str
    pattern: re.Pattern[str]
    values: tuple[int, ...]


def _range(subject: str, name: str, bounds: limits.Bounds) -> Phrase:
    # "retries must be from 0 to 5", "`retries` is from 0 to 5", "`retries` 0 to 5": the
    # subject, then within the line and before any other number, "LOW to HIGH".
    pattern = re.compile(rf"\b{subject}\b[^\d\n]{{0,40}}?(?<![\w.-]){_NUMBER} to {_NUMBER}\b")
    return Phrase(name, pattern, (bounds.low, bounds.high))


def _at_most(words: str, name: str, value: int) -> Phrase:
    # `words` holds one group, the number; it is matched as written.
    return Phrase(name, re.compile(words.replace("N", _NUMBER)), (value,))


PHRASES: tuple[Phrase, ...] = (
    _range("retries", "RETRIES", limits.RETRIES),
    _range("message_limit", "MESSAGE_LIMIT", limits.MESSAGE_LIMIT),
    _range("max_iterations", "MAX_ITERATIONS", limits.MAX_ITERATIONS),
    _range("cooldown_minutes", "COOLDOWN_MINUTES", limits.COOLDOWN_MINUTES),
    _at_most(r"`name` is at most N characters", "NAME_MAX_LENGTH", limits.NAME_MAX_LENGTH),
    _at_most(r"\bname over N\b", "NAME_MAX_LENGTH", limits.NAME_MAX_LENGTH),
    _at_most(r"valid `name`: 1 to N\b", "NAME_MAX_LENGTH", limits.NAME_MAX_LENGTH),
    _at_most(r"\bhold at most N items\b", "FILTER_LIST_MAX_ITEMS", limits.FILTER_LIST_MAX_ITEMS),
    _at_most(r"\blist over N items\b", "FILTER_LIST_MAX_ITEMS", limits.FILTER_LIST_MAX_ITEMS),
    _at_most(
        r"\bkey is 1 to N visible\b",
        "IDEMPOTENCY_KEY_MAX_LENGTH",
        limits.IDEMPOTENCY_KEY_MAX_LENGTH,
    ),
    _at_most(
        r"\bheader of 1 to N visible\b",
        "IDEMPOTENCY_KEY_MAX_LENGTH",
        limits.IDEMPOTENCY_KEY_MAX_LENGTH,
    ),
    _at_most(r"\bid`? is 1 to N\b", "THREAD_ID_MAX_LENGTH", limits.THREAD_ID_MAX_LENGTH),
    _at_most(r"\bN requests per second\b", "RATE_LIMIT_REQUESTS", limits.RATE_LIMIT_REQUESTS),
    _at_most(r"\bN per second per API key\b", "RATE_LIMIT_REQUESTS", limits.RATE_LIMIT_REQUESTS),
    # Not "with a burst of 1, ..." nor the SDK's margin, "a burst of 11 instead of 12".
    _at_most(r"\bbursts? of N\b(?!,| instead)", "RATE_LIMIT_BURST", limits.RATE_LIMIT_BURST),
    _at_most(
        r"\breplayed for N hours\b",
        "IDEMPOTENCY_WINDOW_SECONDS",
        limits.IDEMPOTENCY_WINDOW_SECONDS // 3600,
    ),
    _at_most(
        r"\(N hours by\b", "IDEMPOTENCY_WINDOW_SECONDS", limits.IDEMPOTENCY_WINDOW_SECONDS // 3600
    ),
    _at_most(r"\bat most N violations\b", "VIOLATIONS_MAX", limits.VIOLATIONS_MAX),
    _at_most(r"\bobject of at most N members\b", "PATCH_MAX_MEMBERS", limits.PATCH_MAX_MEMBERS),
)


@dataclass(frozen=True)
class Stale:
    """A text that states a bound other than `limits`' own."""

    path: str
    line: int
    found: str
    expected: str
    name: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}"
        return f"{where}: {self.found!r}, where limits.{self.name} says {self.expected!r}"


def _spelt(value: int, like: str) -> str:
    """`value` written as `like` writes its number: with `,` or `_` between thousands, or not."""
    if "," in like:
        return f"{value:,}"
    if "_" in like:
        return f"{value:_}"
    return str(value)


def _fixed(match: re.Match[str], phrase: Phrase) -> str:
    """The matched text with its numbers replaced by the phrase's values."""
    text, start = match.group(0), match.start()
    for group in range(len(phrase.values), 0, -1):
        left, right = match.start(group) - start, match.end(group) - start
        text = text[:left] + _spelt(phrase.values[group - 1], text[left:right]) + text[right:]
    return text


def _matches(text: str) -> Iterator[tuple[re.Match[str], Phrase]]:
    """Each phrase that states a bound, but those inside a quote of the spec."""
    quotes = [quote.span() for quote in SPEC_QUOTE.finditer(text)]
    for phrase in PHRASES:
        for match in phrase.pattern.finditer(text):
            if not any(start <= match.start() < end for start, end in quotes):
                yield match, phrase


def rewrite(text: str) -> str:
    """`text` with every bound it states as `limits` states it."""
    fixes = sorted(
        ((match.start(), match.end(), _fixed(match, phrase)) for match, phrase in _matches(text)),
        reverse=True,
    )
    for start, end, fixed in fixes:
        text = text[:start] + fixed + text[end:]
    return text


def stale(text: str, path: str) -> list[Stale]:
    """Where `text` states a bound other than `limits`' own, in the order of the text."""
    found = [
        Stale(path, text.count("\n", 0, match.start()) + 1, match.group(0), fixed, phrase.name)
        for match, phrase in _matches(text)
        if (fixed := _fixed(match, phrase)) != match.group(0)
    ]
    return sorted(found, key=lambda entry: entry.line)


def scanned_files(root: Path = ROOT) -> list[Path]:
    """The files whose texts are read, under `root`."""
    files = {path for pattern in SCANNED for path in root.glob(pattern) if path.is_file()}
    return sorted(
        path
        for path in files
        if not any(path.relative_to(root).as_posix().startswith(skip) for skip in NOT_SCANNED)
        and ".venv" not in path.parts
    )
