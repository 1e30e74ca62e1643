"""`campaign-rules conformance export|serve|run`: the conformance kit from the command line.

The kit's modules (`campaign_rules._conformance`) are imported when a `conformance` command
runs, not when the parser is built: the other sub-commands do not pay for them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from campaign_rules._cli.exits import ExitStatus, describe_exits, say
from campaign_rules._cli.outputs import CannotWrite
from campaign_rules._cli.wording import reason

__all__ = ["add_parser", "run", "split_executor"]

# `runner.DEFAULT_TIMEOUT_SECONDS`, written here for the help: the parser imports no kit module.
_DEFAULT_TIMEOUT = 30.0
# `serve` reads and writes the descriptors, not Python's buffered streams: a request and its
# answer each pass whole, and every wait ends on SIGINT and SIGTERM (`_cli.signals`).
_STDIN = 0
_STDOUT = 1


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `conformance` sub-command, with its own `export`, `serve` and `run`."""
    conformance = commands.add_parser(
        "conformance",
        help="the conformance kit: export it, serve this library as an executor, run a kit",
        description="The conformance kit: every case with its exact expected answer, for any "
        "language's implementation of the rules to run through an executor "
        "(docs/conformance.md).",
    )
    actions = conformance.add_subparsers(
        dest="conformance",
        required=True,
        metavar="ACTION",
        help="export the kit, serve this library as an executor, or run a kit",
    )
    export = actions.add_parser(
        "export",
        help="write the kit into a folder",
        description="Write the kit into DIR (made if missing): manifest.json, definitions.json, "
        "the cases as JSON Lines under cases/, and the JSON Schemas of every file under "
        "schemas/. Only these files are written; the same library writes the same bytes. "
        + describe_exits(valid="written", invalid=None, unreadable="the kit could not be written"),
    )
    export.add_argument("dir", metavar="DIR", help="the folder to write the kit into")
    actions.add_parser(
        "serve",
        help="judge the protocol's requests on standard input, one answer line each",
        description="Serve this library as an executor of the conformance protocol: one JSON "
        "request a line on standard input, one JSON answer a line on standard output, until "
        "the input ends. A line that is not a request is answered as unsupported. "
        + describe_exits(
            valid="the input ended", invalid=None, unreadable="standard input could not be read"
        ),
    )
    run = actions.add_parser(
        "run",
        usage="%(prog)s [options] DIR -- COMMAND...",
        help="run a kit's cases through an executor command",
        description="Run every case of the kit in DIR through one executor process, COMMAND "
        "(after --), and compare its answers: ok, status, the envelope but its message, and "
        "every violation in order by rule, key, field and pointer. Each failure is printed "
        "with what was wanted and what came, then a count line. "
        + describe_exits(
            valid="every case passed, or failed as expected",
            invalid="a case failed, or an expected failure passed",
            unreadable="the kit or the expected failures could not be read, the kit was made "
            "by another rule set, or the executor timed out, ended or wrote a line that is "
            "not the protocol's",
        ),
    )
    run.add_argument("dir", metavar="DIR", help="the folder of an exported kit")
    run.add_argument(
        "--strict-places", action="store_true", help="compare each violation's line and column"
    )
    run.add_argument(
        "--strict-messages",
        action="store_true",
        help="compare each violation's message, and the envelope's",
    )
    run.add_argument(
        "--expected-failures",
        metavar="FILE",
        help="a file of case ids, one a line (# starts a comment), that are expected to fail: "
        "they do not fail the run, but one that passes does",
    )
    run.add_argument(
        "--allow-other-ruleset",
        action="store_true",
        help="run a kit made by another rule set than the executor's (its describe answer)",
    )
    run.add_argument(
        "--timeout",
        type=float,
        default=_DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"how long the executor may take to answer one case (default {_DEFAULT_TIMEOUT:g})",
    )
    run.add_argument(
        "--http",
        metavar="URL",
        help="run the kit's HTTP cases against the server at URL instead of an executor",
    )
    # The executor's command is what follows `--`, taken whole by `split_executor`.
    run.set_defaults(executor=[])


def split_executor(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """The arguments of `conformance run` before its `--`, and the executor's command after it.

    argparse reads the options of a command given after a positional argument as its own: the
    command is taken out first. Any other command's arguments are left as they are.
    """
    words = list(argv)
    if words[:2] == ["conformance", "run"] and "--" in words:
        at = words.index("--")
        return words[:at], words[at + 1 :]
    return words, []


def run(args: argparse.Namespace, command: argparse.ArgumentParser) -> int:
    """Run the `conformance` action of the parsed arguments; return the exit status."""
    if args.conformance == "export":
        return _export(Path(args.dir))
    if args.conformance == "serve":
        return _serve()
    executor = args.executor
    if args.timeout <= 0:
        command.error("--timeout must be a number of seconds above 0")
    options = {
        "strict_places": args.strict_places,
        "strict_messages": args.strict_messages,
        "expected_failures": args.expected_failures,
        "allow_other_ruleset": args.allow_other_ruleset,
        "timeout": args.timeout,
    }
    if args.http is not None:
        if executor:
            command.error("--http runs the HTTP cases against a server: give no COMMAND")
        from campaign_rules._conformance.http_run import run_http

        return run_http(Path(args.dir), args.http, options)
    if not executor:
        command.error("give the executor to run after --: run DIR -- COMMAND...")
    from campaign_rules._conformance.compare import Strictness
    from campaign_rules._conformance.runner import RunOptions, run_kit

    run_options = RunOptions(
        strictness=Strictness(places=args.strict_places, messages=args.strict_messages),
        expected_failures=None if args.expected_failures is None else Path(args.expected_failures),
        allow_other_ruleset=args.allow_other_ruleset,
        timeout=args.timeout,
    )
    return run_kit(Path(args.dir), executor, run_options, _write)


def _write(text: str) -> None:
    """Standard output, flushed: each failure shows as the run finds it."""
    sys.stdout.write(text)
    sys.stdout.flush()


def _export(directory: Path) -> int:
    from campaign_rules._conformance.export import export_kit

    try:
        manifest = export_kit(directory)
    except OSError as error:
        say(f"conformance export: cannot write the kit into {directory}: {error}")
        return ExitStatus.UNREADABLE
    cases = sum(entry["count"] for entry in manifest["files"] if "kind" in entry)
    sys.stdout.write(f"Wrote a kit of {cases:,} cases into {directory}\n")
    return ExitStatus.VALID


def _serve() -> int:
    from campaign_rules._conformance.executor import LINE_MAX_BYTES, serve
    from campaign_rules._conformance.lines import LineReader, write_all

    def write(line: bytes) -> None:
        # Each answer whole and at once: the runner waits for it before its next request.
        try:
            write_all(_STDOUT, line)
        except OSError as error:
            raise CannotWrite("standard output", reason(error)) from None

    try:
        serve(LineReader(_STDIN, LINE_MAX_BYTES), write)
    except CannotWrite:
        raise
    except OSError as error:
        say(f"conformance serve: cannot read standard input: {reason(error)}")
        return ExitStatus.UNREADABLE
    return ExitStatus.VALID
