"""The command line: `campaign-rules check`, `audit`, `rules`, `explain`, `schema`, `openapi`."""

from __future__ import annotations

import argparse
import codecs
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn

from campaign_rules import COMPILED, __version__
from campaign_rules._cli import audit, explain
from campaign_rules._cli.exits import SIGNAL_MEANINGS, ExitStatus, describe_exits, say
from campaign_rules._cli.signals import Stopped, stop_on_signals
from campaign_rules._core.json import NotJson, decode_json
from campaign_rules._core.outcome import Outcome
from campaign_rules._export.catalogue import catalogue, render_markdown
from campaign_rules._export.json_schema import render_schema
from campaign_rules._export.openapi import render_openapi
from campaign_rules._validate import validate_create
from campaign_rules._wire.convert import to_wire
from campaign_rules.responses import (
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)
from campaign_rules.schema import ruleset

__all__ = ["main"]

# What `check --kind` reads a body as: a creation request (offline), or a response.
_READERS: dict[str, Callable[[object, int | None], Outcome[Any]]] = {
    "create": lambda body, _: validate_create(body),
    "create-response": lambda body, _: parse_create_response(body),
    "contact-response": lambda body, _: parse_contact_response(body),
    "thread": lambda body, _: parse_thread(body),
    "error": lambda body, status: parse_error(status, body),
}


# The white space of JSON (RFC 8259 section 2): a file of nothing else holds no value.
_JSON_WHITESPACE = b" \t\r\n"

# The machine-readable documents the command line prints.
_DOCUMENTS: dict[str, Callable[[], str]] = {"schema": render_schema, "openapi": render_openapi}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (`ExitStatus`).

    SIGINT (Ctrl-C) and SIGTERM stop a command with one line on standard error and the status
    128 + the signal's number, 130 or 143, with no traceback and no worker process left.
    """
    # A field path may name a member with any character, a lone surrogate included.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args, command = _parse(argv)
    with stop_on_signals():
        try:
            return _run(args, command)
        except Stopped as stop:
            say(f"{args.command} {SIGNAL_MEANINGS[stop.status]}")
            return stop.status


def _run(args: argparse.Namespace, command: argparse.ArgumentParser) -> int:
    if args.command == "rules":
        with _reader_may_leave():
            sys.stdout.write(_rules_json() if args.json else render_markdown())
        return ExitStatus.VALID
    if args.command == "explain":
        status, text = explain.explain(args)
        if status != ExitStatus.VALID:
            say(text)
            return status
        with _reader_may_leave():
            sys.stdout.write(text)
        return status
    if args.command in _DOCUMENTS:
        with _reader_may_leave():
            sys.stdout.write(_DOCUMENTS[args.command]())
        return ExitStatus.VALID
    if args.command == "audit":
        status, text = audit.run(args)
        with _reader_may_leave():
            sys.stdout.write(text)
        return status
    if args.kind == "error" and args.status is None:
        command.error("--kind error needs --status, the HTTP status the body came with")
    if args.kind != "error" and args.status is not None:
        command.error(f"--status goes with --kind error only, not with --kind {args.kind}")
    return _check(args.file, kind=args.kind, status=args.status, as_json=args.json)


def _parse(argv: Sequence[str] | None) -> tuple[argparse.Namespace, argparse.ArgumentParser]:
    """The arguments, and the parser of their sub-command, whose usage its errors print.

    argparse hands the arguments a sub-command does not know back to the top-level parser,
    which would print its own usage: they are refused here by the sub-command's parser.
    """
    parser, commands = _parser()
    args, unknown = parser.parse_known_args(argv)
    command = commands.choices[args.command]
    if unknown:
        command.error(f"unrecognized arguments: {' '.join(unknown)}")
    return args, command


@contextlib.contextmanager
def _reader_may_leave() -> Iterator[None]:
    """Stop writing quietly when the reader goes away (`campaign-rules rules | head`)."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        # Point stdout at devnull so that the flush at exit does not fail a second time.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


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
    check = commands.add_parser(
        "check",
        help="validate one JSON body: a campaign creation request, or a response",
        description="Validate one JSON body offline (no directory look-ups): a campaign "
        "creation request, or a response body of the service. "
        + describe_exits(
            valid="valid",
            invalid="invalid",
            unreadable="unreadable file (empty, not UTF-8, a byte order mark), malformed JSON "
            "or flags that do not go together",
        ),
    )
    check.add_argument("file", help="path of a JSON file, or - for standard input")
    check.add_argument(
        "--kind",
        choices=sorted(_READERS),
        default="create",
        help="what the body is (default: create, a campaign creation request)",
    )
    check.add_argument(
        "--status",
        type=int,
        help="with --kind error: the HTTP status the error body came with",
    )
    check.add_argument(
        "--json",
        action="store_true",
        help='print {"status", "body", "violations"}: the HTTP status, the error envelope or the '
        "normalized campaign, and every violation with its key, field, message and rule",
    )
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
    explain.add_parser(commands)
    audit.add_parser(commands)
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
    """What `rules --json` prints: the rule set's identity and every rule of the catalogue."""
    rows = [
        {
            "id": info.id,
            "stage": info.stage,
            "key": info.key.value,
            "status": info.status,
            "source": info.source,
            "summary": info.summary,
        }
        for info in catalogue()
    ]
    return json.dumps({"ruleset": dict(ruleset()), "rules": rows}, indent=2) + "\n"


def _check(path: str, *, kind: str, status: int | None, as_json: bool) -> int:
    body = _load(path)
    result = _READERS[kind](body, status)
    with _reader_may_leave():
        if as_json:
            print(json.dumps(_json_report(result), indent=2, allow_nan=False))
        else:
            _print_result(result)
    return ExitStatus.VALID if result.ok else ExitStatus.INVALID


def _json_report(result: Outcome[Any]) -> dict[str, object]:
    """What `check --json` prints: the status, the body to answer with, and every violation."""
    return {
        "status": result.status,
        "body": result.envelope() if result.value is None else to_wire(result.value),
        "violations": [
            {"key": v.key.value, "field": v.field, "message": v.message, "rule": v.rule}
            for v in result.violations
        ],
    }


def _print_result(result: Outcome[Any]) -> None:
    if result.value is not None:
        print("ok")
        print(json.dumps(to_wire(result.value), indent=2, ensure_ascii=False))
        return
    for violation in result.violations:
        print(f"{violation.key.value} {_printable(violation.field)}: {violation.message}")


def _printable(field: str | None) -> str:
    """The field path on one line: a member name may hold a line break or a control character."""
    if field is None:
        return "(body)"
    return field if field.isprintable() else field.encode("unicode_escape").decode("ascii")


def _load(path: str) -> object:
    """The JSON value in the file (or standard input), or exit 2 with a one-line reason.

    A byte order mark is refused (D-byte-order-mark), and an empty file is named as such.
    """
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as file:
                data = file.read()
    except OSError as error:
        _fail(f"cannot read {path}: {error}")
    if data.startswith(codecs.BOM_UTF8):
        _fail(
            f"cannot read {path}: the file starts with a UTF-8 byte order mark; "
            "save it as UTF-8 without one (JSON text has none, RFC 8259 section 8.1)"
        )
    if not data.strip(_JSON_WHITESPACE):
        what = "the file is empty" if not data else "the file holds only white space"
        _fail(f"cannot read {path}: {what}; it should hold one JSON value")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        _fail(f"cannot read {path}: it is not UTF-8 text: {error}")
    try:
        return decode_json(text)
    except NotJson as error:
        where = f" at line {error.where[0]} column {error.where[1]}" if error.where else ""
        _fail(f"{path} is not valid JSON: {error.reason}{where}")


def _fail(reason: str) -> NoReturn:
    say(reason)
    raise SystemExit(ExitStatus.UNREADABLE)
