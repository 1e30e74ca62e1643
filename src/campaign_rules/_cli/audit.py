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
import stat
import sys
import zlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import IO, Any, BinaryIO, Final, Protocol

from campaign_rules._audit.report import DOCS_URL
from campaign_rules._cli.exits import ExitStatus, describe_exits, say
from campaign_rules._cli.signals import ignore_in_worker, ignored_in_workers
from campaign_rules._export.catalogue import catalogue
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
        "file is read as gzip. A file that cannot be read to its end stops the audit with "
        "the last line read from it, and no summary; so does a regular file that shrinks "
        "while it is read (truncated or rotated). From a pipe or standard input an early end "
        "cannot be told from the end. "
        + describe_exits(
            valid="all valid",
            invalid="some invalid or unreadable",
            unreadable="a file could not be read, or an output file written",
        )
        + f" A progress bar needs {_PROGRESS_EXTRA} (tqdm); more than "
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
    """Run `campaign-rules audit` with parsed arguments: the exit status and what to print.

    The output files are opened before the audit, so that a path that cannot be written fails
    at once; an audit that ends without its summary (a file it could not read, Ctrl-C) leaves
    no empty report behind, and one that could not open all its outputs leaves none of them.
    """
    jobs = args.jobs or available_cpus()
    opened: list[str] = []  # the output files this run made, emptied as it opened them
    report_written = False
    try:
        with contextlib.ExitStack() as stack:
            try:
                rows = _output(stack, args.violations, opened)
                report = _output(stack, args.html, opened)
            except OSError as error:
                say(f"cannot write {error.filename}: {error}")
                _remove(opened)
                return ExitStatus.UNREADABLE, ""
            advance = stack.enter_context(_progress())
            summary, failed = audit_paths(args.paths, jobs=jobs, rows=rows, advance=advance)
            if report is not None and not failed:
                report.write(html_report(summary, docs_url=args.docs_url))
                report_written = True
    finally:
        if args.html in opened and not report_written:
            _remove([args.html])  # the rows written before a stop stay (D-cli-signals)
    if failed:  # the summary of part of the store would read as an audit of all of it
        return ExitStatus.UNREADABLE, ""
    text = json.dumps(summary.to_json(), indent=2) if args.json else render_table(summary)
    return (ExitStatus.VALID if summary.all_valid else ExitStatus.INVALID), text + "\n"


def _output(stack: contextlib.ExitStack, path: str | None, opened: list[str]) -> IO[str] | None:
    """The file `path` opened for writing text, closed with `stack` and added to `opened`."""
    if path is None:
        return None
    file = stack.enter_context(open(path, "w", encoding="utf-8"))  # noqa: SIM115 (`stack` closes it)
    opened.append(path)
    return file


def _remove(paths: list[str]) -> None:
    """Remove the output files `paths`, which this run made and left incomplete."""
    for path in paths:
        with contextlib.suppress(OSError):
            os.remove(path)


def audit_paths(
    paths: list[str],
    *,
    jobs: int,
    rows: IO[str] | None = None,
    advance: Callable[[int], object] = lambda records: None,
) -> tuple[AuditSummary, bool]:
    """Audit the files in order on `jobs` processes; say whether a file could not be read.

    A file that cannot be opened, or read to its end, or that shrinks while it is read (a
    regular file only: the end of a pipe or of standard input cannot be checked), is reported
    on standard error with the last line read from it, and no other file is read: the summary
    is of the lines read before, and is no audit of the store. `rows` receives the violation
    rows, in order; `advance` the number of records of each block done.
    """
    summary = AuditSummary()
    failed = False
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
        next_line = 1
        for path in paths:
            first_line = next_line
            try:
                for block in _blocks(path):
                    pending.append(pool.submit(_audit_block, block, next_line, want_rows))
                    if isinstance(pool, _InProcess):  # audited already: its summary counts them
                        next_line += pending[-1].result()[0].lines
                    else:  # the next block goes to a worker before this one is audited
                        next_line += block.count(b"\n") + (not block.endswith(b"\n"))
                    if len(pending) >= IN_FLIGHT_PER_JOB * jobs:
                        take()
            except _CannotRead as error:
                say(_cannot_read(path, str(error), next_line - first_line, next_line - 1))
                failed = True
                break
        while pending:
            take()
    return summary, failed


def _cannot_read(path: str, reason: str, lines: int, last_record: int) -> str:
    """What to say of a file that could not be read, and how far it was read."""
    if not lines:
        return f"cannot read {path}: {reason}"
    return (
        f"cannot read {path} to its end: {reason}; the last line read was line {lines:,} of "
        f"the file (record {last_record:,}), and no summary is printed"
    )


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


class _CannotRead(Exception):
    """Why a file could not be opened or read to its end."""


@contextlib.contextmanager
def _open(path: str) -> Iterator[tuple[_Binary, BinaryIO | None]]:
    """The file to read lines from, and the file on the disk under it (`None` for a pipe)."""
    if path == "-":
        yield sys.stdin.buffer, None
        return
    with open(path, "rb") as raw:
        if path.endswith(".gz"):
            with gzip.GzipFile(fileobj=raw, mode="rb") as unzipped:
                yield unzipped, raw
        else:
            yield raw, raw


def _blocks(path: str) -> Iterator[bytes]:
    """The file in blocks of about `CHUNK_BYTES` that end at a line break or at its end.

    Raises `_CannotRead` when the file cannot be opened or read to its end (a gzip stream that
    ends early), or when it is a regular file that is shorter at the end of the read than it
    was when opened, or than the bytes read from it: it was truncated or rewritten while it was
    read (a store being rotated), and its last lines are lost or mixed. A pipe, a FIFO or
    standard input has no size to compare: there, a writer that stops early looks like the end.
    """
    try:
        with _open(path) as (file, disk):
            size = _regular_size(disk)
            while block := file.read(CHUNK_BYTES):
                if not block.endswith(b"\n"):
                    block += file.readline()  # the rest of the line, however long it is
                yield block
            if disk is not None and size is not None:
                _check_unchanged(disk, size)
    except (OSError, EOFError, zlib.error) as error:
        raise _CannotRead(str(error)) from None


def _regular_size(disk: BinaryIO | None) -> int | None:
    """The size of a regular file when it is opened; `None` for a pipe, a FIFO or a device."""
    if disk is None:
        return None
    status = os.fstat(disk.fileno())
    return status.st_size if stat.S_ISREG(status.st_mode) else None


def _check_unchanged(disk: BinaryIO, size: int) -> None:
    """Raise `_CannotRead` when the file read to its end was cut short while it was read."""
    end, now = disk.tell(), os.fstat(disk.fileno()).st_size
    if end < size or now < end:
        raise _CannotRead(
            f"it changed while it was read (truncated, or rewritten by a rotation): it had "
            f"{size:,} bytes when opened, the read ended at byte {end:,}, and it has {now:,} now"
        )


class _InProcess(Executor):
    """Runs each task at once in this process: one job needs no worker and no copying."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


class _Workers(ProcessPoolExecutor):
    """A pool of worker processes that ignore SIGINT and SIGTERM: only the parent answers them.

    When the audit stops early (`Stopped`, or any error), `kill` ends the workers at once and
    waits for them, so that none outlives the command.
    """

    def __init__(self, jobs: int) -> None:
        super().__init__(max_workers=jobs, initializer=ignore_in_worker)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with ignored_in_workers():  # a submit may start a worker
            return super().submit(fn, *args, **kwargs)

    def kill(self) -> None:
        """Cancel what is queued, kill every worker (they ignore SIGTERM) and wait for them."""
        # The pool's own list of its processes: Python 3.14 adds `kill_workers()` for this,
        # which does not wait for them; `shutdown` forgets the list, so it is read first.
        workers = list((getattr(self, "_processes", None) or {}).values())
        self.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.kill()
        for worker in workers:
            worker.join()


@contextlib.contextmanager
def _executor(jobs: int) -> Iterator[Executor]:
    """`jobs` worker processes, or this process alone for one job."""
    if jobs == 1:
        yield _InProcess()
        return
    pool = _Workers(jobs)
    try:
        yield pool
    except BaseException:
        pool.kill()
        raise
    pool.shutdown()


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
        say(f"no progress bar: install {_PROGRESS_EXTRA} (tqdm) for one")
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
