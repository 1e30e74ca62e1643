"""A version that speaks no executor protocol, driven through its command line (D-diff-legacy).

The version at 5d4e07d (0.2.0 in its metadata) has no `conformance serve`; what it says of its
rules is in three sub-commands, and this side asks them:

- `--version`: whether the command is a campaign-rules at all (`campaign-rules 0.2.0 (...)`);
- `rules --json`: `{"ruleset": {"version", "fingerprint"}, "rules": [...]}`, the rows as it
  gives them (id, stage, key, status, source, summary);
- `schema`: the JSON Schema of a creation body, its bounds;
- `check --json [--kind K] [--status S] FILE...`: one report a file, `{"file", "status",
  "body", "violations"}`, `body` being the error envelope when refused; a file it could not
  read is named on standard error (5d4e07d) or listed as `{"file", "error"}` (later versions).

`check` reaches creation bodies offline (no directory) and the response kinds its `--kind`
lists; every other request (an update, a creation with a directory, a reader it lacks) is
answered `unsupported`, with the reason, and the diff names the rules it could therefore not
probe. Bodies are judged in batches: each batch is written to files of a scratch directory and
judged by one `check --json` process. A batch the command fails on as a whole (a traceback, no
JSON) is halved until the body it fails on is alone, whose answer is a refusal with status 500
and no violation, as a server running that version answers it, and `failed`: the command's last
line.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from campaign_rules._cli.wording import printable
from campaign_rules._diff.environment import environment_of_command
from campaign_rules._diff.sides import (
    Answer,
    CannotCompare,
    Description,
    Environment,
    Request,
    Side,
    failed_answer,
)

__all__ = ["BATCH_SIZE", "LegacySide", "open_legacy"]

# Bodies judged by one `check --json` process: one start-up (about half a second) for many
# bodies, and a command line far below the system's limit (each file name is short).
BATCH_SIZE: Final = 200
# How long one process of OLD may take: `check` of a full batch of bodies of 1 MiB included.
_TIMEOUT_SECONDS: Final = 300.0
# What `--version` prints first: the program's name, then its version.
_VERSION_LINE: Final = re.compile(r"campaign-rules (\S+)")
# The `--kind` choices `check --help` lists, as argparse prints them.
_KIND_CHOICES: Final = re.compile(r"--kind \{([^}]*)\}")
# The protocol's response readers, by the `--kind` that reads the same body.
_KIND_OF_READER: Final = {
    "create_response": "create-response",
    "contact_response": "contact-response",
    "thread": "thread",
    "error": "error",
}
_CREATE: Final = "create"
# What a violation of the protocol holds, each read from `check --json`'s violation.
_VIOLATION_MEMBERS: Final = ("rule", "key", "field", "pointer", "line", "column", "message")


def open_legacy(command: str) -> Side:
    """The side of the campaign-rules command `command` (a path, or a name on PATH).

    Raises `CannotCompare` when there is no such command, or when its `--version` does not
    name campaign-rules.
    """
    found = shutil.which(command)
    if found is None:
        raise CannotCompare(f"cannot compare: {printable(command)} is not an executable command")
    said = _run([found, "--version"], what=f"{printable(command)} --version", check=False)
    match = _VERSION_LINE.match(said)
    if match is None:
        first = said.strip().splitlines()[0] if said.strip() else "nothing"
        raise CannotCompare(
            f"cannot compare: {printable(command)} is not a campaign-rules command "
            f"(its --version says {printable(first)!r})"
        )
    return LegacySide(found, said.strip().splitlines()[0])


class LegacySide:
    """A campaign-rules command without the executor protocol: its CLI's outputs, as a `Side`."""

    def __init__(self, command: str, version_line: str) -> None:
        self.command = command
        self.version_line = version_line
        self._name = printable(command)
        self._catalogue: dict[str, object] | None = None
        self._kinds: tuple[str, ...] | None = None

    def describe(self) -> Description:
        """Its rule set's version and fingerprint, from `rules --json`; the kinds `check` reads."""
        identity = self._rules_document().get("ruleset")
        version = fingerprint = None
        if isinstance(identity, dict):
            version = _text_or_none(identity.get("version"))
            fingerprint = _text_or_none(identity.get("fingerprint"))
        responses = any(kind in self._check_kinds() for kind in _KIND_OF_READER.values())
        return Description(
            executor=f"{self.version_line}, through rules --json, schema and check --json",
            version=version,
            fingerprint=fingerprint,
            kinds=(_CREATE, "response") if responses else (_CREATE,),
        )

    def rules(self) -> list[dict[str, object]]:
        """The rows of its `rules --json`, as it gives them."""
        rows = self._rules_document().get("rules")
        if not isinstance(rows, list):
            raise CannotCompare(f"cannot compare: {self._name} rules --json gives no list of rules")
        return [row for row in rows if isinstance(row, dict)]

    def bounds(self) -> dict[str, object] | None:
        """Its `schema` output, parsed; None when it has no `schema` or prints no object."""
        try:
            schema = json.loads(self._ask("schema"))
        except (CannotCompare, ValueError, RecursionError):
            return None
        return schema if isinstance(schema, dict) else None

    def environment(self) -> Environment:
        """The tzdata version and zones of the command's interpreter, when its `#!` names one."""
        return environment_of_command(self.command)

    def judge(self, requests: Sequence[Request]) -> list[Answer]:
        """One answer per request: `check --json` for those it reaches, `unsupported` else."""
        answers: list[Answer | None] = [None] * len(requests)
        groups: dict[tuple[str, int | None], list[tuple[int, bytes]]] = {}
        for index, request in enumerate(requests):
            planned = self._plan(request)
            if isinstance(planned, str):
                answers[index] = _unsupported(request.get("id"), planned)
            else:
                options, body = planned
                groups.setdefault(options, []).append((index, body))
        for (kind, status), bodies in groups.items():
            for start in range(0, len(bodies), BATCH_SIZE):
                batch = bodies[start : start + BATCH_SIZE]
                judged = self._judge_batch(kind, status, [body for _, body in batch])
                for (index, _), answer in zip(batch, judged, strict=True):
                    answers[index] = {"id": requests[index].get("id"), **answer}
        return [answer for answer in answers if answer is not None]

    def close(self) -> None:
        """Nothing to end: each question was one process, ended when it answered."""

    # What each request needs.

    def _plan(self, request: Request) -> tuple[tuple[str, int | None], bytes] | str:
        """The `--kind` and `--status` that judge the request, and its bytes; or why none does."""
        body = _body_bytes(request.get("body"))
        if body is None:
            return 'the request\'s body is neither {"text": ...} nor {"base64": ...}'
        kind = request.get("kind")
        if kind == _CREATE:
            if request.get("directory") is not None:
                return "check runs no look-ups: this version takes no directory"
            return (_CREATE, None), body
        if kind == "update":
            return "this version's command line judges no update"
        if kind != "response":
            return f"no such kind of request: {kind!r}"
        reader = request.get("reader")
        option = _KIND_OF_READER.get(reader) if isinstance(reader, str) else None
        if option is None or option not in self._check_kinds():
            return f"this version's check --kind reads no {reader!r} body"
        if option != "error":
            return (option, None), body
        status = request.get("http_status")
        if not isinstance(status, int) or isinstance(status, bool):
            return "check --kind error needs the HTTP status the body came with"
        return (option, status), body

    # Judging a batch with `check --json`.

    def _judge_batch(self, kind: str, status: int | None, bodies: list[bytes]) -> list[Answer]:
        """The answers (without ids) of one `check --json` run over `bodies`.

        A run that gives no report (the command failed on the batch as a whole) is halved, down
        to the body it fails on.
        """
        with tempfile.TemporaryDirectory(prefix="campaign-rules-diff-") as scratch:
            files = []
            for number, body in enumerate(bodies):
                path = Path(scratch, f"{number}.json")
                path.write_bytes(body)
                files.append(str(path))
            options = ["--kind", kind] + ([] if status is None else ["--status", str(status)])
            done = self._process(["check", "--json", *options, *files])
        reports = _reports(done.stdout) if done.returncode in (0, 1, 2) else None
        if reports is not None:
            unread = _unread_files(done.stderr)
            return [_answer(reports.get(path), unread.get(path), kind) for path in files]
        if len(bodies) == 1:
            return [
                failed_answer(f"check --json failed on it: {printable(_last_line(done.stderr))}")
            ]
        half = len(bodies) // 2
        return [
            *self._judge_batch(kind, status, bodies[:half]),
            *self._judge_batch(kind, status, bodies[half:]),
        ]

    # Asking the command.

    def _rules_document(self) -> dict[str, object]:
        if self._catalogue is None:
            try:
                document = json.loads(self._ask("rules", "--json"))
            except (ValueError, RecursionError):  # no JSON, or nested past the decoder's limit
                document = None
            if not isinstance(document, dict):
                raise CannotCompare(
                    f"cannot compare: {self._name} rules --json prints no JSON object"
                )
            self._catalogue = document
        return self._catalogue

    def _check_kinds(self) -> tuple[str, ...]:
        """The `--kind` choices of its `check`, from `check --help` (`create` alone if none)."""
        if self._kinds is None:
            found = _KIND_CHOICES.search(self._ask("check", "--help"))
            self._kinds = tuple(found.group(1).split(",")) if found else (_CREATE,)
        return self._kinds

    def _ask(self, *arguments: str) -> str:
        """What the command prints for `arguments`; `CannotCompare` when it fails."""
        what = f"{self._name} {' '.join(arguments)}"
        return _run([self.command, *arguments], what=what, check=True)

    def _process(self, arguments: list[str]) -> subprocess.CompletedProcess[str]:
        return _completed([self.command, *arguments], what=f"{self._name} {arguments[0]}")


def _run(command: list[str], *, what: str, check: bool) -> str:
    done = _completed(command, what=what)
    if check and done.returncode != 0:
        raise CannotCompare(
            f"cannot compare: {what} failed (exit status {done.returncode}): "
            f"{printable(_last_line(done.stderr))}"
        )
    return done.stdout


def _completed(command: list[str], *, what: str) -> subprocess.CompletedProcess[str]:
    """Run the command with no input and the environment of a user's shell; its outputs.

    `PYTHONPATH` is left out: set for this tree's own package (a development run), it would
    make OLD import this version instead of its own. Colour is off: the outputs are parsed.
    """
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    environment["NO_COLOR"] = "1"
    try:
        return subprocess.run(
            command,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=environment,
            timeout=_TIMEOUT_SECONDS,
            check=False,
            encoding="utf-8",
            errors="replace",
        )
    except subprocess.TimeoutExpired:
        raise CannotCompare(
            f"cannot compare: {what} did not answer within {_TIMEOUT_SECONDS:.0f} s"
        ) from None
    except OSError as error:
        raise CannotCompare(
            f"cannot compare: {what} cannot run: {error.strerror or error}"
        ) from None


# Reading `check --json`.


def _reports(stdout: str) -> dict[str, Mapping[str, object]] | None:
    """`check --json`'s reports by file name; None when it printed no list of reports."""
    try:
        reports = json.loads(stdout)
    except (ValueError, RecursionError):
        return None
    if not isinstance(reports, list):
        return None
    by_file: dict[str, Mapping[str, object]] = {}
    for report in reports:
        if not isinstance(report, dict) or not isinstance(report.get("file"), str):
            return None
        by_file[report["file"]] = report
    return by_file


def _unread_files(stderr: str) -> dict[str, str]:
    """The files `check` named on standard error as unreadable.

    Each is a line `campaign-rules: cannot read FILE: why`; the file names are the scratch
    directory's, which hold no `: `.
    """
    unread = {}
    for line in stderr.splitlines():
        _, said, rest = line.partition("cannot read ")
        name, separator, why = rest.partition(": ")
        if said and separator:
            unread[name] = why
    return unread


def _answer(report: Mapping[str, object] | None, unread: str | None, kind: str) -> Answer:
    """The protocol's answer (without its id) to the report `check --json` gave of one file."""
    if report is None or "error" in report:
        why = unread if report is None else report.get("error")
        return {"unsupported": f"check --kind {kind} could not read it: {why or 'no report'}"}
    listed = report.get("violations")
    if not isinstance(listed, list) or not all(isinstance(item, dict) for item in listed):
        return {"unsupported": "check --json gave no list of violations for it"}
    violations = [{name: item.get(name) for name in _VIOLATION_MEMBERS} for item in listed]
    ok = not violations
    return {
        "ok": ok,
        "status": None if ok else report.get("status"),
        "violations": violations,
        "envelope": None if ok else report.get("body"),
    }


# Small pieces.


def _body_bytes(body: object) -> bytes | None:
    """The bytes of a request's `body`: `{"text"}` as UTF-8, `{"base64"}` decoded; else None."""
    if not isinstance(body, dict):
        return None
    text = body.get("text")
    if isinstance(text, str):
        # The protocol sends "text" only for text with no lone surrogate; one that does is
        # written as the bytes such a code point would be, which `check` refuses as not UTF-8.
        return text.encode("utf-8", "surrogatepass")
    encoded = body.get("base64")
    if isinstance(encoded, str):
        try:
            return base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            return None
    return None


def _unsupported(identifier: object, reason: str) -> Answer:
    return {"id": identifier, "unsupported": reason}


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else "nothing on standard error"
