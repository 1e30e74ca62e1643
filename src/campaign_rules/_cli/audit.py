"""`campaign-rules audit PATH...`: a store of creation bodies, as JSON Lines, on every core.

The files are read in blocks of whole lines (`CHUNK_BYTES`), and each block is audited by a
worker process into a summary and, with `--violations`, its violation rows. The blocks are
taken back in the order they were read, so record numbers and the rows' order are those of a
run on one process, and each worker has one block at a time, the main process reading the
next, so memory stays flat whatever the size of the store (D-audit-chunks); a line longer than
`LINE_MAX_BYTES` is read no further than that (D-audit-lines). The workers are bounded by the
CPUs (D-audit-jobs), and end with the command, however it ends (`_cli.pool`).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import importlib
import io
import os
import stat
import sys
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, Final, Protocol, cast

from campaign_rules._cli.exits import ExitStatus, describe_exits, say
from campaign_rules._cli.inputs import STDIN, interruptible, standard_input
from campaign_rules._cli.options import add_docs_url, add_inputs, add_output, ascii_integer
from campaign_rules._cli.outputs import OutputFile, output_file
from campaign_rules._cli.pool import WorkerDied, Workers, workers
from campaign_rules._cli.wording import cannot_read, counted, printable
from campaign_rules._cli.wording import reason as why
from campaign_rules._core.limits import LINE_MAX_BYTES
from campaign_rules._core.written_json import i_json

if TYPE_CHECKING:  # at run time, imported where the audit runs: building the parser needs none
    from campaign_rules.audit import AuditSummary

__all__ = [
    "CHUNK_BYTES",
    "add_parser",
    "audit_paths",
    "available_cpus",
    "run",
]

# A block handed to a worker: about 1 MiB of whole lines (about 1,000 campaign bodies).
CHUNK_BYTES: Final = 1 << 20
# What an empty `.gz` file is told: it cannot be a whole store, not even of no lines.
_EMPTY_GZIP: Final = (
    "the file is empty, and no gzip file is: one of no lines still holds a header and an end "
    "(RFC 1952)"
)

# What the optional extras add to this command.
_PROGRESS_EXTRA: Final = "campaign-rules[progress]"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `audit` sub-command to the parser's sub-commands."""
    audit = commands.add_parser(
        "audit",
        help="audit a store of creation bodies in JSON Lines, on every core",
        description="Judge every line of JSON Lines files as validate_create_json judges a "
        "creation body of its bytes, offline (one body a line; blank lines skipped, a line "
        "that is not UTF-8 text or not JSON counted as unreadable) and print "
        "a summary: records, valid, invalid, unreadable, and each broken rule with its first "
        "records. Records are numbered by line, across the files in the order given. A .gz "
        "file is read as gzip. A file that cannot be read to its end stops the audit with "
        "the last line read from it, and no summary; so does a regular file that shrinks "
        "while it is read (truncated or rotated), and an empty .gz file. From a pipe or "
        "standard input an early end cannot be told from the end. A line of more than "
        f"{LINE_MAX_BYTES >> 20} MiB is refused as a body over the size limit, and read no "
        "further. The --violations and "
        "--html files appear whole when the summary is printed, or not at all: a stopped or "
        "failed audit leaves each path as it was (a FIFO or a device is written in place). "
        + describe_exits(
            valid="all valid",
            invalid="some invalid or unreadable",
            unreadable="a file could not be read",
        )
        + f" A progress bar needs {_PROGRESS_EXTRA} (tqdm); more than "
        "one machine, campaign_rules.dask (campaign-rules[dask]).",
    )
    add_inputs(audit, "paths", metavar="PATH", help="a JSON Lines file, or - for standard input")
    audit.add_argument(
        "--jobs",
        type=_jobs,
        default=None,
        help="worker processes: at most the number of CPUs this process may use, which is "
        "the default (a larger number is lowered to it, with a line on standard error); "
        f"no more start than there are blocks of {CHUNK_BYTES >> 20} MiB to audit",
    )
    audit.add_argument(
        "--json", action="store_true", help="print the summary as JSON instead of a table"
    )
    add_output(
        audit,
        "--violations",
        metavar="FILE",
        help="write every violation as a JSON line: record (numbered across the files), rule, "
        "key, field, message, pointer, file, line (in the file) and column (of the violation's "
        "member in the record's line)",
    )
    add_output(
        audit,
        "--html",
        metavar="REPORT",
        help="also write the summary as one self-contained HTML page, with charts",
    )
    add_docs_url(audit, "the report links each rule to")


def _jobs(text: str) -> int:
    jobs = ascii_integer(text)
    if jobs is None or jobs < 1:
        raise argparse.ArgumentTypeError(
            f"must be a whole number of processes, 1 or more, written in the digits 0 to 9: "
            f"{printable(text)}"
        )
    return jobs


def run(args: argparse.Namespace) -> tuple[int, str]:
    """Run `campaign-rules audit` with parsed arguments: the exit status and what to print.

    The output files are opened before the audit, so that a path that cannot be written fails
    at once, and are put in place only when the audit printed its summary: an audit that ends
    without one (a file it could not read, a signal) leaves every path as it was, and removes
    only the temporary files it made (D-cli-outputs). `CannotWrite` when an output fails.
    """
    jobs = _jobs_to_run(args.jobs)
    with contextlib.ExitStack() as stack:
        rows = _output(stack, args.violations)
        report = _output(stack, args.html)
        advance = stack.enter_context(_progress())
        try:
            summary, failed = audit_paths(args.paths, jobs=jobs, rows=rows, advance=advance)
        except WorkerDied as error:
            say(f"the audit stopped: {error}")
            return ExitStatus.UNREADABLE, ""
        if failed:  # the summary of part of the store would read as an audit of all of it
            return ExitStatus.UNREADABLE, ""
        if report is not None:
            from campaign_rules.audit import html_report  # loaded on first use: --html only

            report.write(html_report(summary, docs_url=args.docs_url))
        for output in (rows, report):
            if output is not None:
                output.commit()
    text = i_json(summary.to_json(), indent=2) if args.json else render_table(summary)
    return (ExitStatus.VALID if summary.all_valid else ExitStatus.INVALID), text + "\n"


def _output(stack: contextlib.ExitStack, path: str | None) -> OutputFile | None:
    """The output file `path`, discarded with `stack` unless committed."""
    return None if path is None else stack.enter_context(output_file(path))


def _jobs_to_run(requested: int | None) -> int:
    """The worker processes to run: `--jobs`, at most the CPUs this process may use.

    More than that is clamped, with one line on standard error (D-audit-jobs).
    """
    cpus = available_cpus()
    if requested is None:
        return cpus
    if requested > cpus:
        say(
            f"--jobs {requested} is more than the {counted(cpus, 'CPU')} this process may "
            f"use: auditing with {cpus}"
        )
        return cpus
    return requested


def audit_paths(
    paths: list[str],
    *,
    jobs: int,
    rows: _Rows | None = None,
    advance: Callable[[int], object] = lambda records: None,
) -> tuple[AuditSummary, bool]:
    """Audit the files in order on `jobs` processes; say whether a file could not be read.

    A file that cannot be opened, or read to its end, or that shrinks while it is read (a
    regular file only: the end of a pipe or of standard input cannot be checked), is reported
    on standard error with the last line read from it, and no other file is read: the summary
    is of the lines read before, and is no audit of the store. `rows` receives the violation
    rows, in order; `advance` the number of records of each block done.
    """
    # Imported on first use: the command line imports this module to build its parser.
    from campaign_rules.audit import AuditSummary

    summary = AuditSummary()
    failed = False
    want_rows = rows is not None
    with _engine(jobs) as engine:

        def take() -> None:
            nonlocal summary
            part, text = engine.take()
            summary = summary.merge(part)
            if rows is not None:
                rows.write(text)
            advance(part.records)

        next_line = 1
        for path in paths:
            first_line = next_line
            try:
                for block in _blocks(path):
                    if engine.full:
                        take()
                    file_line = next_line - first_line + 1
                    engine.submit((block, next_line, want_rows, path, file_line))
                    next_line += block.count(b"\n") + (not block.endswith(b"\n"))
            except _CannotRead as error:
                say(_cannot_read(path, str(error), next_line - first_line, next_line - 1))
                failed = True
                break
        while engine.pending:
            take()
    return summary, failed


def _cannot_read(path: str, reason: str, lines: int, last_record: int) -> str:
    """What to say of a file that could not be read, and how far it was read."""
    if not lines:
        return cannot_read(path, reason)
    return (
        f"cannot read {printable(path)} to its end: {reason}; the last line read was line "
        f"{lines:,} of the file (record {last_record:,}), and no summary is printed"
    )


# A block of lines to audit: its bytes, the record number of its first line, whether to write
# rows, and the file it is read from with the number of its first line there.
_Task = tuple[bytes, int, bool, str, int]


def _audit_block(task: _Task) -> tuple[AuditSummary, str]:
    """Audit one block of whole lines, numbered from `first_line` (in a worker process)."""
    from campaign_rules.audit import audit_chunk  # loaded on first use, as in `audit_paths`

    block, first_line, rows, path, file_line = task
    lines = block.split(b"\n")
    if not lines[-1]:
        lines.pop()  # the empty piece after the last line break
    return audit_chunk(lines, first_line=first_line, rows=rows, file=path, file_line=file_line)


class _Rows(Protocol):
    """Where the violation rows go: an `OutputFile`, or any text file."""

    def write(self, text: str, /) -> object: ...


class _Binary(Protocol):
    """A file read as bytes: a regular file, standard input or a gzip file."""

    def read(self, size: int = -1, /) -> bytes: ...

    def readline(self, size: int = -1, /) -> bytes: ...


class _CannotRead(Exception):
    """Why a file could not be opened or read to its end."""


@contextlib.contextmanager
def _open(path: str) -> Iterator[tuple[_Binary, BinaryIO | None]]:
    """The file to read lines from, and the file on the disk under it (`None` for a pipe)."""
    if path == STDIN:
        yield standard_input(), None
        return
    with open(path, "rb") as raw:
        source = interruptible(raw)  # a FIFO, read so that a signal ends its waits
        if path.endswith(".gz"):
            if not cast("io.BufferedReader", source).peek(1):
                raise _CannotRead(_EMPTY_GZIP)
            import gzip  # loaded on first use: for a .gz file only

            with gzip.GzipFile(fileobj=source, mode="rb") as unzipped:
                yield unzipped, raw
        else:
            yield source, raw


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
                    block = _to_line_end(file, block)
                yield block
            if disk is not None and size is not None:
                _check_unchanged(disk, size)
    except (OSError, EOFError, zlib.error) as error:
        raise _CannotRead(why(error)) from None


def _to_line_end(file: _Binary, block: bytes) -> bytes:
    """The block with the rest of its last line, or of the line's first `LINE_MAX_BYTES` + 1.

    A longer line is read no further: the rest of it is skipped, a block at a time, and its
    first bytes stand for it, which the audit refuses as a body over the size limit, as
    `validate_create_json` would refuse the whole line (D-audit-lines).
    """
    start = block.rfind(b"\n") + 1  # where the last line begins
    block += file.readline(max(LINE_MAX_BYTES + 1 - (len(block) - start), 0))
    if block.endswith(b"\n") or len(block) - start <= LINE_MAX_BYTES:
        return block  # the line ended: at a line break, or at the end of the file
    while (rest := file.readline(CHUNK_BYTES)) and not rest.endswith(b"\n"):
        pass
    return block + b"\n"


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


class _InProcess:
    """Audits each block at once in this process: one job needs no worker and no copying."""

    def __init__(self) -> None:
        self._results: collections.deque[tuple[AuditSummary, str]] = collections.deque()

    @property
    def full(self) -> bool:
        return bool(self._results)

    @property
    def pending(self) -> int:
        return len(self._results)

    def submit(self, task: _Task) -> None:
        self._results.append(_audit_block(task))

    def take(self) -> tuple[AuditSummary, str]:
        return self._results.popleft()


@contextlib.contextmanager
def _engine(jobs: int) -> Iterator[_InProcess | Workers[_Task, tuple[AuditSummary, str]]]:
    """`jobs` worker processes, or this process alone for one job."""
    if jobs == 1:
        yield _InProcess()
        return
    with workers(_audit_block, jobs) as pool:
        yield pool


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
    # No monitor thread: the worker processes are forked, and a fork copies no other thread.
    tqdm.monitor_interval = 0
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
        from campaign_rules._export.catalogue import catalogue  # loaded on first use

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
