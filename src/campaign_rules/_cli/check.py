"""`campaign-rules check FILE...`: bodies read as the server reads them, each violation in place.

A creation body is read from its bytes with `validate_create_json`, as the reference server
reads a request's body, so the command and a server give one verdict on one file, a byte order
mark, a text that is not UTF-8 or not JSON and a duplicate member included. Each file's
violations are printed in the order of its text, one a line, `FILE:LINE:COL: KEY message
[rule]`, as ruff and mypy print theirs, then a count (D-check-output). A response body
(`--kind`) is decoded as JSON and read by its reader.
No input is read past one byte more than a body may hold: a longer one, of any kind, is
answered by the size rule (D-cli-bounded-inputs).
"""

from __future__ import annotations

import argparse
import codecs
import enum
import sys
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

from campaign_rules._cli.colour import BOLD, DIM, GREEN, RED, Paint, paint_for
from campaign_rules._cli.exits import ExitStatus, describe_exits, say
from campaign_rules._cli.inputs import read_at_most
from campaign_rules._cli.options import add_docs_url, add_inputs, whole_number
from campaign_rules._cli.wording import cannot_read, counted, printable, reason
from campaign_rules._core.json import NotJson, decode_json
from campaign_rules._core.json_syntax import JSON_WHITESPACE_BYTES
from campaign_rules._core.limits import BODY_MAX_BYTES, VIOLATIONS_MAX
from campaign_rules._core.outcome import Outcome
from campaign_rules._core.pointers import output_pointer
from campaign_rules._core.violations import Violation
from campaign_rules._core.written_json import i_json
from campaign_rules._export.links import rule_url

__all__ = ["add_parser", "run"]

# What `check --kind` reads a response body as, from its decoded JSON, each with the function
# of `campaign_rules.responses` that reads it, named: that module is imported on first use
# (`_read_response`), since a creation body, the default kind, needs no response reader.
_RESPONSE_READERS: Final = {
    "contact-response": "parse_contact_response",
    "create-response": "parse_create_response",
    "error": "parse_error",
    "thread": "parse_thread",
}
# A creation request (the default) is read from its bytes, as a server reads it.
_CREATE: Final = "create"
# How the body rules name the body they judge, which is a request's.
_REQUEST_BODY: Final = "the request body"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `check` sub-command to the parser's sub-commands."""
    check = commands.add_parser(
        "check",
        help="validate JSON bodies: campaign creation requests, or responses",
        description="Validate JSON bodies offline (no directory look-ups): campaign creation "
        "requests, read from their bytes as the server reads a request's body (UTF-8, no byte "
        "order mark, I-JSON: no duplicate member names), or response bodies of the service. "
        "Each file's violations are printed by line and column, as FILE:LINE:COL: KEY message "
        "[rule] (with the field before the message, FIELD: message, when the message does not "
        "begin with it), then the count. "
        + describe_exits(
            valid="every file valid",
            invalid="violations found",
            unreadable="a file could not be read (or, with --kind, held no JSON value), or "
            "flags that do not go together",
        ),
    )
    add_inputs(check, "files", metavar="FILE", help="a JSON file, or - for standard input")
    check.add_argument(
        "--kind",
        choices=sorted([_CREATE, *_RESPONSE_READERS]),
        default=_CREATE,
        help="what the bodies are (default: create, a campaign creation request)",
    )
    check.add_argument(
        "--status",
        type=whole_number,
        help="with --kind error: the HTTP status the error body came with",
    )
    check.add_argument(
        "--json",
        action="store_true",
        help='print a JSON array, one {"file", "status", "body", "violations"} a file: the HTTP '
        "status, the error envelope or the normalized body, and every violation with all its "
        f"fields ({', '.join(field.name for field in attrs.fields(Violation))}) and the url of "
        'its rule\'s page; a file that could not be read is {"file", "error"}, the error '
        "as standard error says it",
    )
    add_docs_url(check, "each violation's url points into")


def run(args: argparse.Namespace, command: argparse.ArgumentParser) -> tuple[int, str]:
    """Run `campaign-rules check` with parsed arguments: the exit status and what to print.

    A file that cannot be read is named on standard error (and in `--json`), the others are
    checked all the same, and the status is then 2.
    """
    if args.kind == "error" and args.status is None:
        command.error("--kind error needs --status, the HTTP status the body came with")
    if args.kind != "error" and args.status is not None:
        command.error(f"--status goes with --kind error only, not with --kind {args.kind}")
    results: list[tuple[str, Outcome[Any] | str]] = []
    for path in args.files:
        result = _check_file(path, kind=args.kind, status=args.status)
        if isinstance(result, str):
            say(cannot_read(path, result))
        results.append((path, result))
    checked = [(path, result) for path, result in results if not isinstance(result, str)]
    unreadable = len(results) - len(checked)
    if args.json:
        reports = [_json_report(path, result, args.docs_url) for path, result in results]
        text = i_json(reports, indent=2) + "\n"
    else:
        paint = paint_for(sys.stdout)
        lines = [
            _line(path, violation, paint)
            for path, result in checked
            for violation in in_text_order(result.violations)
        ]
        text = "".join(line + "\n" for line in [*lines, _count(checked, unreadable, paint)])
    if unreadable:
        return ExitStatus.UNREADABLE, text
    invalid = any(not result.ok for _, result in checked)
    return (ExitStatus.INVALID if invalid else ExitStatus.VALID), text


def _check_file(path: str, *, kind: str, status: int | None) -> Outcome[Any] | str:
    """The result of the file's body, or why it could not be read."""
    # Imported on first use: the command line imports this module to build its parser.
    from campaign_rules import validate_create_json

    try:
        data = read_at_most(path, BODY_MAX_BYTES)
    except OSError as error:
        return reason(error)
    if kind == _CREATE:
        return validate_create_json(data)
    if len(data) > BODY_MAX_BYTES:
        # A body past the limit, of any kind, is answered by the size rule, unread
        # (D-cli-bounded-inputs): only its length was taken, one byte past the limit.
        return _named_for(kind, validate_create_json(data))
    try:
        body = _decoded(data)
    except _CannotRead as error:
        return str(error)
    return _read_response(kind, body, status)


def _read_response(kind: str, body: object, status: int | None) -> Outcome[Any]:
    """A response body of `kind` (a key of `_RESPONSE_READERS`), read by its reader."""
    from campaign_rules import responses

    reader: Callable[..., Outcome[Any]] = getattr(responses, _RESPONSE_READERS[kind])
    if kind == "error":  # the one reader that also reads the status the body came with
        return reader(status, body)
    return reader(body)


def _named_for(kind: str, result: Outcome[Any]) -> Outcome[Any]:
    """The size rule's answer to a response body of `kind`, naming that body, not a request's.

    The rule, key and status stay the rule's (D-cli-bounded-inputs): only the words change.
    """
    return attrs.evolve(
        result,
        violations=tuple(
            attrs.evolve(
                violation,
                message=violation.message.replace(_REQUEST_BODY, f"the {kind} body", 1),
            )
            for violation in result.violations
        ),
    )


class _CannotRead(Exception):
    """Why a response body holds no JSON value."""


def _decoded(data: bytes) -> object:
    """The JSON value of a response body; `_CannotRead` says why there is none.

    A byte order mark is named as such (D-byte-order-mark), and so is an empty file.
    """
    if data.startswith(codecs.BOM_UTF8):
        raise _CannotRead(
            "the file starts with a UTF-8 byte order mark; save it as UTF-8 without one "
            "(JSON text has none, RFC 8259 section 8.1)"
        )
    if not data.strip(JSON_WHITESPACE_BYTES):  # a file of nothing else holds no value
        what = "the file is empty" if not data else "the file holds only white space"
        raise _CannotRead(f"{what}; it should hold one JSON value")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _CannotRead(f"it is not UTF-8 text: {error}") from None
    try:
        return decode_json(text)
    except NotJson as error:
        where = f" at line {error.where[0]} column {error.where[1]}" if error.where else ""
        raise _CannotRead(f"it is not valid JSON: {error.reason}{where}") from None


def in_text_order(violations: Sequence[Violation]) -> list[Violation]:
    """The violations by line, then column, as a reader meets them in the file.

    Those with no place (a response body's, or a body over the size limit) come first: they
    are of the whole body. At one place, they stay in the order of the rule table, which
    `Result.violations` keeps (the envelope names its first).
    """
    return sorted(violations, key=_place)


def _place(violation: Violation) -> tuple[bool, int, int]:
    if violation.line is None or violation.column is None:
        return (False, 0, 0)
    return (True, violation.line, violation.column)


def _line(path: str, violation: Violation, paint: Paint) -> str:
    """One violation as ruff and mypy print theirs: `FILE:LINE:COL: KEY message [rule]`.

    The message names its field as its subject (`retries must be from 0 to 5`); one that does
    not begin with it (an unknown member's, which names the object) has it before, `FIELD: `.
    """
    place = paint(printable(path), BOLD)
    if violation.line is not None and violation.column is not None:
        place = f"{place}:{violation.line}:{violation.column}"
    message = violation.message
    field = violation.field
    if field is not None and not message.startswith(f"{field} "):
        message = f"{field}: {message}"
    key = paint(violation.key.value, BOLD, RED)
    rule = paint(f"[{violation.rule}]", DIM)
    return f"{place}: {key} {printable(message)} {rule}"


def _count(checked: Sequence[tuple[str, Outcome[Any]]], unreadable: int, paint: Paint) -> str:
    """The last line: `Found 7 violations in 1 of 2 files`, or `No violations in 2 files`.

    The files whose violations reached the cap, and those that could not be read, are counted
    after it, when there are any.
    """
    violations = sum(len(result.violations) for _, result in checked)
    files = len(checked)
    if violations:
        invalid = sum(1 for _, result in checked if result.violations)
        where = f"{invalid} of {counted(files, 'file')}" if files > 1 else counted(files, "file")
        line = paint(f"Found {counted(violations, 'violation')} in {where}", BOLD, RED)
        # The rules stop at the cap (D-hostile-input): a file that reached it may hold more.
        cut = sum(1 for _, result in checked if len(result.violations) >= VIOLATIONS_MAX)
        if cut:
            line += (
                f"; {counted(cut, 'file')} reached the limit of {VIOLATIONS_MAX} violations "
                "listed, and may have more"
            )
    elif files:
        line = paint(f"No violations in {counted(files, 'file')}", BOLD, GREEN)
    else:
        line = "No files checked"
    if unreadable:
        line += f"; {paint(counted(unreadable, 'file'), BOLD)} could not be read"
    return line


def _json_report(path: str, result: Outcome[Any] | str, docs_url: str) -> dict[str, object]:
    """What `check --json` prints of one file: status, body to answer with, every violation.

    A file that could not be read is `{"file", "error"}`, the error as standard error says it.
    """
    if isinstance(result, str):
        return {"file": path, "error": result}
    from campaign_rules._wire.convert import to_wire  # loaded on first use: --json only

    return {
        "file": path,
        "status": result.status,
        "body": result.envelope() if result.value is None else to_wire(result.value),
        "violations": [_json_violation(violation, docs_url) for violation in result.violations],
    }


def _json_violation(violation: Violation, docs_url: str) -> dict[str, object]:
    """Every field of the violation, in its class's order, and the address of its rule's page."""
    fields: dict[str, object] = {
        field.name: _plain(getattr(violation, field.name)) for field in attrs.fields(Violation)
    }
    fields["pointer"] = output_pointer(violation.pointer)  # bounded (D-shown-text)
    fields["url"] = rule_url(violation.rule, docs_url)
    return fields


def _plain(value: object) -> object:
    return value.value if isinstance(value, enum.Enum) else value
