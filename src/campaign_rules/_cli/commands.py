"""The sub-commands of the command line, their parser, and what every one of them shares.

Imported by `campaign_rules._cli.main` once the signal handlers are set. Building the parser
imports each sub-command's module, which imports at its top only what its parser needs: what a
sub-command runs is imported when it runs, so that a command pays for its own work alone
(`check` of one file, its start and little else; D-cli-startup).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from campaign_rules import COMPILED, __version__
from campaign_rules._cli.audit import add_parser as add_audit
from campaign_rules._cli.audit import run as run_audit
from campaign_rules._cli.check import add_parser as add_check
from campaign_rules._cli.check import run as run_check
from campaign_rules._cli.conformance import add_parser as add_conformance
from campaign_rules._cli.conformance import split_executor
from campaign_rules._cli.exits import SIGNAL_MEANINGS, ExitStatus, say
from campaign_rules._cli.explain import add_parser as add_explain
from campaign_rules._cli.explain import explain
from campaign_rules._cli.options import refuse_outputs_that_are_inputs
from campaign_rules._cli.outputs import CannotWrite, guarded_stdout
from campaign_rules._cli.signals import Stopped
from campaign_rules._cli.wording import printable
from campaign_rules._diff.command import add_parser as add_diff
from campaign_rules._diff.command import run as run_diff

__all__ = ["run_command"]


def run_command(argv: Sequence[str] | None) -> int:
    """Parse the arguments and run their sub-command: `campaign_rules._cli.main` says how.

    A signal that stops the sub-command once its name is known is told with that name.
    """
    # A field path may name a member with any character, a lone surrogate included.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        with guarded_stdout():
            args, command = _parse(argv)
            try:
                return _run(args, command)
            except Stopped as stop:
                say(f"{args.command} {SIGNAL_MEANINGS[stop.status]}")
                return stop.status
    except CannotWrite as error:
        say(str(error))
        return ExitStatus.UNREADABLE


def _run(args: argparse.Namespace, command: argparse.ArgumentParser) -> int:
    # The modules of the documents are imported by the command that prints each.
    if args.command == "rules":
        from campaign_rules._export.catalogue import render_markdown

        sys.stdout.write(_rules_json() if args.json else render_markdown())
        return ExitStatus.VALID
    if args.command == "explain":
        status, text = explain(args)
        if status != ExitStatus.VALID:
            say(text)
            return status
        sys.stdout.write(text)
        return status
    if args.command == "schema":
        from campaign_rules._export.json_schema import render_schema

        sys.stdout.write(render_schema())
        return ExitStatus.VALID
    if args.command == "openapi":
        from campaign_rules._export.openapi import render_openapi

        sys.stdout.write(render_openapi())
        return ExitStatus.VALID
    if args.command == "conformance":
        from campaign_rules._cli.conformance import run as run_conformance

        return run_conformance(args, command)
    if args.command == "audit":
        status, text = run_audit(args)
    elif args.command == "diff":
        status, text = run_diff(args)
    else:
        status, text = run_check(args, command)
    sys.stdout.write(text)
    return status


def _parse(argv: Sequence[str] | None) -> tuple[argparse.Namespace, argparse.ArgumentParser]:
    """The arguments, and the parser of their sub-command, whose usage its errors print.

    An output option that names an input is refused here, before anything is read. argparse
    hands the arguments a sub-command does not know back to the top-level parser, which would
    print its own usage: they are refused here by the sub-command's parser.
    """
    parser, commands = _parser()
    words, executor = split_executor(sys.argv[1:] if argv is None else argv)
    args, unknown = parser.parse_known_args(words)
    if executor:
        args.executor = executor
    command = commands.choices[args.command]
    if unknown:
        command.error(f"unrecognized arguments: {printable(' '.join(unknown))}")
    refuse_outputs_that_are_inputs(args, command)
    return args, command


def _parser() -> tuple[
    argparse.ArgumentParser, argparse._SubParsersAction[argparse.ArgumentParser]
]:
    parser = argparse.ArgumentParser(
        prog="campaign-rules",
        description="Check Campaign Outreach Service requests against the spec's rules.",
    )
    build = "compiled with mypyc" if COMPILED else "pure Python"
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__} ({build})")
    commands = parser.add_subparsers(dest="command", required=True)
    add_check(commands)
    rules = commands.add_parser(
        "rules",
        help="print the rule catalogue as a Markdown table",
        description="Print the rule catalogue: every rule's id, stage, error key, HTTP status, "
        "source and summary, as a Markdown table.",
    )
    rules.add_argument(
        "--json",
        action="store_true",
        help='print {"ruleset", "rules"} instead: the rule set\'s version and fingerprint, and '
        "every rule with its id, stage, key, status, source and summary",
    )
    add_explain(commands)
    add_audit(commands)
    add_conformance(commands)
    add_diff(commands)
    commands.add_parser(
        "schema",
        help="print the JSON Schema (draft 2020-12) of the campaign creation input",
        description="Print the JSON Schema of the campaign creation input, generated from the "
        "rules (the file schema/campaign-create.schema.json of the repository).",
    )
    commands.add_parser(
        "openapi",
        help="print the OpenAPI 3.1 document of the whole interface",
        description="Print the OpenAPI 3.1 document of the service's interface, generated from "
        "the rules and the response readers (the file schema/openapi.json of the repository).",
    )
    return parser, commands


def _rules_json() -> str:
    """What `rules --json` prints: the rule set's identity and every rule of the catalogue.

    Each rule with how its verdict is made: its scope, its gates, and its row's pointers and
    constraint or its function (`rule_rows`).
    """
    from campaign_rules._export.catalogue import rule_rows
    from campaign_rules.schema import ruleset

    return json.dumps({"ruleset": dict(ruleset()), "rules": rule_rows()}, indent=2) + "\n"
