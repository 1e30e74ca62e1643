"""`campaign-rules audit PATH...`: a store of creation bodies, as JSON Lines, on every core.

The files are read in blocks of whole lines (`CHUNK_BYTES`), and each block is audited by a
worker process into a summary and, with `--violations`, its violation rows. The blocks are
taken back in the order they were read, so record numbers and the rows' order are those of a
run on one process, and at most `IN_FLIGHT_PER_JOB` blocks per worker are read ahead, so
memory stays flat whatever the size of the store (D-audit-chunks).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import gzip
import importlib
import json
import os
import sys
import zlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import IO, Any, Final, Protocol

from campaign_rules._export.catalogue import catalogue
from campaign_rules._export.report import DOCS_URL
from campaign_rules.audit import AuditSummary, audit_chunk, html_report

__all__ = [
    "CHUNK_BYTES",
    "IN_FLIGHT_PER_JOB",
    "add_parser",
    "audit_paths",
    "available_cpus",
    "run",
]

# A block handed to a worker: about 1 MiB of whole lines (about 1,000 campaign bodies).
CHUNK_BYTES: Final = 1 << 20
# Blocks read ahead per worker: one being audited, one waiting.
IN_FLIGHT_PER_JOB: Final = 2

EXIT_VALID: Final = 0
EXIT_INVALID: Final = 1
EXIT_UNREADABLE: Final = 2

# What the optional extras add to this command.
_PROGRESS_EXTRA: Final = "campaign-rules[progress]"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `audit` sub-command to the parser's sub-commands."""
    audit = commands.add_parser(
        "audit",
        help="audit a store of creation bodies in JSON Lines, on every core",
        description="Check every campaign creation body of JSON Lines files offline (one body "
        "a line; blank lines skipped, a line that is not JSON counted as unreadable) and print "
        "a summary: records, valid, invalid, unreadable, and each broken rule with its first "
        "records. Records are numbered by line, across the files in the order given. A .gz "
        "file is read as gzip. Exit status: 0 all valid, 1 some invalid or unreadable, 2 a "
        f"file could not be read. A progress bar needs {_PROGRESS_EXTRA} (tqdm); more than "
        "one machine, campaign_rules.dask (campaign-rules[dask]).",
    )
    audit.add_argument(
        "paths", nargs="+", metavar="PATH", help="a JSON Lines file, or - for standard input"
    )
    audit.add_argument(
        "--jobs",
        type=_jobs,
        default=None,
        help="worker processes (default: the number of CPUs this process may use)",
    )
    audit.add_argument(
        "--json", action="store_true", help="print the summary as JSON instead of a table"
    )
    audit.add_argument(
        "--violations",
        metavar="FILE",
        help="write every violation as a JSON line: record, rule, key, field, message",
    )
    audit.add_argument(
        "--html",
        metavar="REPORT",
        help="also write the summary as one self-contained HTML page, with charts",
    )
    audit.add_argument(
        "--docs-url",
        metavar="URL",
        default=DOCS_URL,
        help=f"the documentation site the report links each rule to (default: {DOCS_URL})",
    )


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of processes, 1 or more: {text}")
    return jobs


def run(args: argparse.Namespace) -> tuple[int, str]:
    """Run `campaign-rules audit` with parsed arguments: the exit status and what to print."""
    jobs = args.jobs or available_cpus()
    with contextlib.ExitStack() as stack:
        try:
            rows = _output(stack, args.violations)
            report = _output(stack, args.html)
        except OSError as error:
            _say(f"cannot write {error.filename}: {error}")
            return EXIT_UNREADABLE, ""
        advance = stack.enter_context(_progress())
        summary, failed = audit_paths(args.paths, jobs=jobs, rows=rows, advance=advance)
        if report is not None:
            report.write(html_report(summary, docs_url=args.docs_url))
    text = json.dumps(summary.to_json(), indent=2) if args.json else render_table(summary)
    if failed:
        return EXIT_UNREADABLE, text + "\n"
    return (EXIT_VALID if summary.all_valid else EXIT_INVALID), text + "\n"


def _output(stack: contextlib.ExitStack, path: str | None) -> IO[str] | None:
    """The file `path` opened for writing text, closed with `stack`; None for no path."""
    return None if path is None else stack.enter_context(open(path, "w", encoding="utf-8"))


def audit_paths(
    paths: list[str],
    *,
    jobs: int,
    rows: IO[str] | None = None,
    advance: Callable[[int], object] = lambda records: None,
) -> tuple[AuditSummary, bool]:
    """Audit the files in order on `jobs` processes; say whether a file could not be read.

    A file that cannot be opened or read to its end is reported on standard error, and the
    audit goes on with the next file: its lines read so far count, and no others. `rows`
    receives the violation rows, in order; `advance` the number of records of each block done.
    """
    summary = AuditSummary()
    with _executor(jobs) as pool:
        pending: collections.deque[Future[tuple[AuditSummary, str]]] = collections.deque()

        def take() -> None:
            nonlocal summary
            part, text = pending.popleft().result()
            summary = summary.merge(part)
            if rows is not None:
                rows.write(text)
            advance(part.records)

        want_rows = rows is not None
        failures: list[str] = []
        next_line = 1
        for path in paths:
            for block in _blocks(path, failures):
                pending.append(pool.submit(_audit_block, block, next_line, want_rows))
                next_line += block.count(b"\n") + (not block.endswith(b"\n"))
                if len(pending) >= IN_FLIGHT_PER_JOB * jobs:
                    take()
        while pending:
            take()
    return summary, bool(failures)


def _audit_block(block: bytes, first_line: int, rows: bool) -> tuple[AuditSummary, str]:
    """Audit one block of whole lines (in a worker process)."""
    lines = block.split(b"\n")
    if not lines[-1]:
        lines.pop()  # the empty piece after the last line break
    return audit_chunk(lines, first_line=first_line, rows=rows)


class _Binary(Protocol):
    """A file read as bytes: a regular file, standard input or a gzip file."""

    def read(self, size: int = -1, /) -> bytes: ...

    def readline(self, size: int = -1, /) -> bytes: ...


def _open(path: str) -> contextlib.AbstractContextManager[_Binary]:
    if path == "-":
        return contextlib.nullcontext(sys.stdin.buffer)
    if path.endswith(".gz"):
        return gzip.open(path, "rb")
    return open(path, "rb")


def _blocks(path: str, failures: list[str]) -> Iterator[bytes]:
    """The file in blocks of about `CHUNK_BYTES` that end at a line break or at its end.

    A file that cannot be opened or read to its end is reported and added to `failures`.
    """
    try:
        with _open(path) as file:
            while block := file.read(CHUNK_BYTES):
                if not block.endswith(b"\n"):
                    block += file.readline()  # the rest of the line, however long it is
                yield block
    except (OSError, EOFError, zlib.error) as error:
        _say(f"cannot read {path}: {error}")
        failures.append(path)


class _InProcess(Executor):
    """Runs each task at once in this process: one job needs no worker and no copying."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def _executor(jobs: int) -> Executor:
    return _InProcess() if jobs == 1 else ProcessPoolExecutor(max_workers=jobs)


def available_cpus() -> int:
    """The number of CPUs this process may run on."""
    with contextlib.suppress(AttributeError):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@contextlib.contextmanager
def _progress() -> Iterator[Callable[[int], object]]:
    """A function that advances a progress bar on standard error, when it is a terminal."""
    if not sys.stderr.isatty():
        yield lambda records: None
        return
    try:
        tqdm: Any = importlib.import_module("tqdm").tqdm
    except ImportError:
        _say(f"no progress bar: install {_PROGRESS_EXTRA} (tqdm) for one")
        yield lambda records: None
        return
    with tqdm(unit=" records", unit_scale=True, file=sys.stderr, smoothing=0.1) as bar:
        yield bar.update


def render_table(summary: AuditSummary) -> str:
    """The summary as text: the counts, each broken rule (most records first), each key."""
    counts = [
        ("records", summary.records),
        ("valid", summary.valid),
        ("invalid", summary.invalid),
        ("unreadable", summary.unreadable),
    ]
    lines = [f"{name:<10} {count:>12,}" for name, count in counts]
    if summary.unreadable_records:
        lines[-1] += f"  first on lines {_numbers(summary.unreadable_records)}"
    if summary.rules:
        rules = {info.id: info for info in catalogue()}
        table = [("records", "rule", "key", "first records", "summary")]
        for rule, tally in summary.ranked_rules():
            info = rules.get(rule)
            key, what = (info.key.value, info.summary) if info else ("", "")
            table.append((f"{tally.count:,}", rule, key, _numbers(tally.first_records), what))
        lines += ["", *_aligned(table)]
    if summary.keys:
        keys = [(f"{count:,}", key) for key, count in summary.ranked_keys()]
        lines += ["", *_aligned([("records", "error key"), *keys])]
    return "\n".join(lines)


def _aligned(table: Sequence[tuple[str, ...]]) -> list[str]:
    """The rows of a table in columns: counts on the right, text on the left, two spaces apart."""
    widths = [max(len(row[column]) for row in table) for column in range(len(table[0]) - 1)]
    return [
        "  ".join(
            [row[0].rjust(widths[0])]
            + [cell.ljust(width) for cell, width in zip(row[1:-1], widths[1:], strict=False)]
            + [row[-1]]
        )
        for row in table
    ]


def _numbers(numbers: tuple[int, ...]) -> str:
    return ", ".join(str(number) for number in numbers)


def _say(reason: str) -> None:
    print(f"campaign-rules: {reason}", file=sys.stderr)
