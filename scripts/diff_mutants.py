"""The mutation proof of `campaign-rules diff` (issue 40, item 5): every mutant of a row is found.

Usage, from the repository root, in the development environment:

    .venv/bin/python scripts/diff_mutants.py [--revision REV] [--only TEXT]... [--limit N]
                                              [--jobs N] [--pip] [--json FILE] [--list]

A mutant is one edit of the rule table's declarations, made in a scratch copy of the revision
(`git archive`, HEAD by default): mutmut does not mutate module constants, so the rows and the
constants they name are edited directly. The edits, each found in the code with `ast` (none is
a list kept by hand):

- **bound**: each integer of a creation row's constraint, one less and one more: the integers
  written in the row (`{"minLength": 1}`) and the constants of `_core/limits.py` it names
  (`NAME_MAX_LENGTH`, each end of `Bounds(low, high)` of `_bounds(RETRIES)`);
- **enumeration**: each value of a row's `enum` left out, and a value added; each contact status
  of each channel (`CONTACT_STATUSES`) left out, and one of the other channel's added;
- **required**: each required member left out (the campaign's, a window's, an enabled cycles
  block's and each mode's own, `_campaign/shape.py`), and one optional member made required;
- **key**: each creation and body rule's error key changed (`INVALID_REQUEST` to
  `INVALID_STATUS`, which keeps the status, any other to `INVALID_REQUEST`);
- **status**: the HTTP status of each error key a creation or body rule gives (`STATUS_OF_KEY`,
  `_core/outcome.py`) changed to 422.

The revision is installed once, pure Python, with scripts/install_revision.py (`pip install
--target`). Each mutant is installed as a copy of that installation with its one edited module
in place of the original: the pure-Python build installs each module's source as it is, so
this is what `pip install` of the mutated tree gives, in a fraction of the time (`--pip`
installs each mutant with pip instead). Then the revision's command runs `campaign-rules diff
MUTANT --format json`, and the mutant passes when the report names a change on each rule the
edit touches, none of them `equivalent`, each with a witness that this script judges again with
both installed commands (through `_diff.opening.open_old`, as the diff opens OLD) and finds
judged as the report says. The summary table is printed; `--json` writes the run as JSON, and
`--write` writes a full run into docs/guides/diff.md, with the commit it ran at (`--write-from`
writes one a `--json` file holds).
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# This tree's scripts, and its package: the one whose `_diff.opening` opens both commands.
for _path in (ROOT / "src", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from scripts.install_revision import (  # noqa: E402
    InstallFailed,
    install_revision,
    install_tree,
    unpack,
    write_command,
)

PACKAGE = "src/campaign_rules"
TABLE = f"{PACKAGE}/_rules/table.py"
LIMITS = f"{PACKAGE}/_core/limits.py"
SHAPE = f"{PACKAGE}/_campaign/shape.py"
ENUMS = f"{PACKAGE}/_core/enums.py"
OUTCOME = f"{PACKAGE}/_core/outcome.py"
# The tables whose rules a body reaches: their keys and statuses are mutated.
BODY_TABLES = ("BODY_RULES", "CREATE_RULES")
# A rule no body reaches: its subject is an argument that is not a body (a Python object).
UNREACHABLE = {"body.is_bytes_or_text": "its subject is a Python value given instead of bytes"}
# Why a rule whose row defers to a body rule is not reached through bytes: the diff judges texts.
NOT_THROUGH_BYTES = (
    "not reachable through bytes: its row's gate says {says}, and every request the diff "
    "sends is a text (a stored campaign of an update is judged by "
    "update.existing_is_a_campaign first); only a Python value reaches it"
)
# The required members, the rule that reads each list, and whether the value is a mapping.
REQUIRED = {
    "REQUIRED_CAMPAIGN_MEMBERS": "payload.required_members_present",
    "REQUIRED_WINDOW_MEMBERS": "payload.required_members_present",
    "REQUIRED_CYCLES_MEMBERS": "cycles.required_when_enabled",
    "REQUIRED_CYCLES_MEMBER_IN_MODE": "cycles.required_when_enabled",
}
# An optional member of the campaign made required: the mutant that is stricter.
MADE_REQUIRED = "timezone"
STATUS_RULE = "cycles.filter_statuses_match_channel"
MUTATED_STATUS = 422
# The key a rule's key becomes: one of the same status, so that only the key changes.
OTHER_KEY = {"_400": "ErrorKey.INVALID_STATUS"}
DEFAULT_OTHER_KEY = "_400"
ADDED_VALUE = "mutant_value"


@dataclass(frozen=True)
class Mutant:
    """One edit of one file: `text` replaces the bytes `start` to `end` of `path`."""

    name: str
    kind: str  # bound, enumeration, required, key, status
    rules: tuple[str, ...]  # the rules the diff must report it on
    path: str  # relative to the tree's root
    start: int
    end: int
    text: str

    def applied(self, source: bytes) -> bytes:
        """`source` with the edit made."""
        return source[: self.start] + self.text.encode("utf-8") + source[self.end :]


# Finding the edits.


class Source:
    """A module of the tree: its bytes, its syntax tree, and each node's place in the bytes."""

    def __init__(self, tree: Path, path: str) -> None:
        self.path = path
        self.data = (tree / path).read_bytes()
        self.module = ast.parse(self.data)
        self._line_starts = [0]
        for line in self.data.splitlines(keepends=True):
            self._line_starts.append(self._line_starts[-1] + len(line))

    def span(self, node: ast.AST) -> tuple[int, int]:
        """The bytes a node covers (`ast` gives columns in bytes of UTF-8)."""
        start = self._line_starts[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
        end = self._line_starts[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
        return start, end

    def text(self, node: ast.AST) -> str:
        """The source of a node."""
        start, end = self.span(node)
        return self.data[start:end].decode("utf-8")

    def assigned(self, name: str) -> ast.expr:
        """The value a module-level assignment gives `name`."""
        for statement in self.module.body:
            if isinstance(statement, ast.AnnAssign | ast.Assign):
                targets = (
                    [statement.target]
                    if isinstance(statement, ast.AnnAssign)
                    else statement.targets
                )
                if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                    assert statement.value is not None
                    return statement.value
        raise LookupError(f"{self.path} assigns no {name}")

    def mutant(
        self, node: ast.AST, text: str, name: str, kind: str, rules: Sequence[str]
    ) -> Mutant:
        """The mutant that writes `text` in place of `node`."""
        start, end = self.span(node)
        return Mutant(name, kind, tuple(rules), self.path, start, end, text)


def mutants(tree: Path) -> list[Mutant]:
    """Every mutant of the tree's rule table, in a stable order."""
    table = Source(tree, TABLE)
    limits = Source(tree, LIMITS)
    enums = _enumerations(Source(tree, ENUMS))
    rows = list(_rows(table))
    return [
        *_bound_mutants(table, limits, rows),
        *_enumeration_mutants(table, limits, enums, rows),
        *_required_mutants(Source(tree, SHAPE), enums),
        *_key_mutants(table, rows),
        *_status_mutants(Source(tree, OUTCOME), rows),
    ]


@dataclass(frozen=True)
class _Row:
    """A rule of a body's table: its id, its key's node, and its constraint's node if a row."""

    table: str
    id: str
    key: ast.expr
    constraint: ast.expr | None


def _rows(table: Source) -> Iterator[_Row]:
    for name in BODY_TABLES:
        value = table.assigned(name)
        assert isinstance(value, ast.Tuple)
        for call in value.elts:
            assert isinstance(call, ast.Call)
            assert isinstance(call.func, ast.Name)
            first = call.args[0]
            assert isinstance(first, ast.Constant)
            assert isinstance(first.value, str)
            constraint = call.args[5] if call.func.id == "_row" else None
            yield _Row(name, first.value, call.args[1], constraint)


def _bound_mutants(table: Source, limits: Source, rows: list[_Row]) -> Iterator[Mutant]:
    for row in rows:
        if isinstance(row.constraint, ast.Dict):
            for key, value in zip(row.constraint.keys, row.constraint.values, strict=True):
                assert isinstance(key, ast.Constant)
                if isinstance(value, ast.Constant) and type(value.value) is int:
                    yield from _plus_minus(
                        table, value, f"{row.id}: {key.value}", row.id, counts=True
                    )
                elif isinstance(value, ast.Name):
                    constant = limits.assigned(value.id)
                    assert isinstance(constant, ast.Constant)
                    what = f"{row.id}: {value.id}"
                    yield from _plus_minus(limits, constant, what, row.id, counts=True)
        elif isinstance(row.constraint, ast.Call):  # _bounds(NAME): both ends of its Bounds
            argument = row.constraint.args[0]
            assert isinstance(argument, ast.Name)
            bounds = limits.assigned(argument.id)
            assert isinstance(bounds, ast.Call)
            for end, node in zip(("low", "high"), bounds.args, strict=True):
                assert isinstance(node, ast.Constant)
                what = f"{row.id}: {argument.id} {end}"
                yield from _plus_minus(limits, node, what, row.id, counts=False)


def _plus_minus(
    source: Source, node: ast.Constant, what: str, rule: str, *, counts: bool
) -> Iterator[Mutant]:
    """One less and one more; `counts` (a length, a number of items) is never below 0."""
    value = node.value
    assert type(value) is int
    for changed in (value - 1, value + 1):
        if changed >= 0 or not counts:
            yield source.mutant(node, str(changed), f"{what} {value} -> {changed}", "bound", [rule])


def _enumerations(enums: Source) -> dict[str, dict[str, str]]:
    """Each enumeration class: its members' names and wire values."""
    found: dict[str, dict[str, str]] = {}
    for statement in enums.module.body:
        if isinstance(statement, ast.ClassDef):
            found[statement.name] = {
                target.id: item.value.value
                for item in statement.body
                if isinstance(item, ast.Assign) and isinstance(item.value, ast.Constant)
                for target in item.targets
                if isinstance(target, ast.Name)
            }
    return found


def _enumeration_mutants(
    table: Source, limits: Source, enums: dict[str, dict[str, str]], rows: list[_Row]
) -> Iterator[Mutant]:
    for row in rows:
        if not isinstance(row.constraint, ast.Dict):
            continue
        for key, value in zip(row.constraint.keys, row.constraint.values, strict=True):
            if isinstance(key, ast.Constant) and key.value == "enum":
                assert isinstance(value, ast.Call)
                assert isinstance(value.args[0], ast.Name)
                spelt = table.text(value)
                for wire in enums[value.args[0].id].values():
                    text = f"[v for v in {spelt} if v != {wire!r}]"
                    yield table.mutant(
                        value, text, f"{row.id}: {wire} left out", "enumeration", [row.id]
                    )
                text = f"[*{spelt}, {ADDED_VALUE!r}]"
                yield table.mutant(
                    value, text, f"{row.id}: {ADDED_VALUE} added", "enumeration", [row.id]
                )
    statuses = limits.assigned("CONTACT_STATUSES")
    assert isinstance(statuses, ast.Call)
    assert isinstance(statuses.args[0], ast.Dict)
    channels = statuses.args[0]
    every = {limits.text(element) for value in channels.values for element in _set_of(value).elts}
    for channel, value in zip(channels.keys, channels.values, strict=True):
        assert channel is not None
        elements = [limits.text(element) for element in _set_of(value).elts]
        where = limits.text(channel).rpartition(".")[2].lower()
        for left_out in elements:
            kept = ", ".join(element for element in elements if element != left_out)
            name = f"CONTACT_STATUSES {where}: {left_out.rpartition('.')[2].lower()} left out"
            yield limits.mutant(value, f"frozenset({{{kept}}})", name, "enumeration", [STATUS_RULE])
        added = sorted(every - set(elements))[0]
        name = f"CONTACT_STATUSES {where}: {added.rpartition('.')[2].lower()} added"
        text = f"frozenset({{{', '.join([*elements, added])}}})"
        yield limits.mutant(value, text, name, "enumeration", [STATUS_RULE])


def _set_of(value: ast.expr) -> ast.Set:
    assert isinstance(value, ast.Call)
    assert isinstance(value.args[0], ast.Set)
    return value.args[0]


def _required_mutants(shape: Source, enums: dict[str, dict[str, str]]) -> Iterator[Mutant]:
    for name, rule in REQUIRED.items():
        value = shape.assigned(name)
        if isinstance(value, ast.Dict):  # a mode's own member: the mode's entry left out
            for key in value.keys:
                assert key is not None
                kept = [
                    f"{shape.text(k)}: {shape.text(v)}"
                    for k, v in zip(value.keys, value.values, strict=True)
                    if k is not key and k is not None
                ]
                text = "{" + ", ".join(kept) + "}"
                what = f"{name}: {shape.text(key)} left out"
                yield shape.mutant(value, text, what, "required", [rule])
            continue
        members = _members(shape, value)
        for left_out in members:
            text = repr(tuple(member for member in members if member != left_out))
            yield shape.mutant(value, text, f"{name}: {left_out} left out", "required", [rule])
        if name == "REQUIRED_CAMPAIGN_MEMBERS":
            text = repr((*members, MADE_REQUIRED))
            what = f"{name}: {MADE_REQUIRED} made required"
            yield shape.mutant(value, text, what, "required", [rule])


def _members(shape: Source, value: ast.expr) -> tuple[str, ...]:
    """The member names a tuple of the shape lists: written out, or `tuple(SOME_MEMBERS)`."""
    if isinstance(value, ast.Tuple):
        return tuple(_constant(shape, element) for element in value.elts)
    assert isinstance(value, ast.Call)
    assert isinstance(value.args[0], ast.Name)
    mapping = shape.assigned(value.args[0].id)
    assert isinstance(mapping, ast.Dict)
    return tuple(_constant(shape, key) for key in mapping.keys if key is not None)


def _constant(shape: Source, node: ast.expr) -> str:
    """A string written out, or named by a constant of the same module."""
    if isinstance(node, ast.Name):
        node = shape.assigned(node.id)
    assert isinstance(node, ast.Constant)
    assert isinstance(node.value, str)
    return node.value


def _key_mutants(table: Source, rows: list[_Row]) -> Iterator[Mutant]:
    for row in rows:
        if row.id in UNREACHABLE:
            continue
        key = table.text(row.key)
        other = OTHER_KEY.get(key, DEFAULT_OTHER_KEY)
        yield table.mutant(row.key, other, f"{row.id}: key {key} -> {other}", "key", [row.id])


def _status_mutants(outcome: Source, rows: list[_Row]) -> Iterator[Mutant]:
    statuses = outcome.assigned("STATUS_OF_KEY")
    assert isinstance(statuses, ast.Dict)
    by_key: dict[str, list[str]] = {}
    for row in rows:
        if row.id not in UNREACHABLE:
            by_key.setdefault(_key_name(row.key), []).append(row.id)
    for key, value in zip(statuses.keys, statuses.values, strict=True):
        assert isinstance(key, ast.Attribute)
        if key.attr in by_key:
            what = f"STATUS_OF_KEY {key.attr}: {outcome.text(value)} -> {MUTATED_STATUS}"
            yield outcome.mutant(value, str(MUTATED_STATUS), what, "status", by_key[key.attr])


def _key_name(node: ast.expr) -> str:
    """The ErrorKey member a row's key names: `_400` is INVALID_REQUEST, `_500` SERVER_ERROR."""
    if isinstance(node, ast.Name):
        return {"_400": "INVALID_REQUEST", "_500": "SERVER_ERROR"}[node.id]
    assert isinstance(node, ast.Attribute)
    return node.attr


# Running the diff against each mutant.


def not_through_bytes() -> dict[str, str]:
    """The rules no text reaches, each with why: those whose row defers to a body rule.

    Read from the rows of this tree's package (`rules --json`'s), not kept by hand.
    """
    from campaign_rules._diff.inprocess import InProcessSide

    rows = InProcessSide().rules()
    stages = {str(row["id"]): row.get("stage") for row in rows}
    found: dict[str, str] = {}
    for row in rows:
        gates = row.get("gates")
        for gate in gates if isinstance(gates, list) else []:
            if gate.get("kind") == "defers_to" and stages.get(str(gate.get("rule"))) == "body":
                found[str(row["id"])] = NOT_THROUGH_BYTES.format(says=gate.get("says"))
    return found


@dataclass
class Outcome:
    """What the diff said of one mutant, and whether that passes."""

    mutant: Mutant
    verdicts: dict[str, str]  # each expected rule's verdict ("missing" when not listed)
    verified: int  # witnesses judged again by both commands and found as the report says
    problems: list[str]
    seconds: float
    # The rules of the mutant not reported because no text reaches them, each with why.
    unreachable: dict[str, str] | None = None

    @property
    def passed(self) -> bool:
        """Reported on each rule bytes reach, none equivalent, every witness verified."""
        return not self.problems

    @property
    def reachable(self) -> bool:
        """Whether bytes reach any rule of the mutant (when not, it is listed, not counted)."""
        return not self.unreachable or len(self.unreachable) < len(self.mutant.rules)


def run(
    revision: str,
    chosen: Sequence[Mutant] | None = None,
    *,
    pip: bool = False,
    jobs: int = 1,
    progress: bool = True,
) -> list[Outcome]:
    """Install `revision` and each mutant of it (`chosen`, else all); diff each; the outcomes.

    `jobs` mutants are diffed at once (one at a time with `pip`, which installs from the one
    scratch tree). On an interrupt, every diff still running is ended with its processes.
    """
    with tempfile.TemporaryDirectory(prefix="diff-mutants-") as scratch:
        work = Path(scratch)
        tree = work / "tree"
        base = work / "base"
        install_revision(revision, base, unpack_into=tree)
        base_command = base / "bin" / "campaign-rules"
        # Found again in the revision's own files: `chosen` may come from a tree that differs.
        found = mutants(tree)
        names = {mutant.name for mutant in found if chosen is None} | {m.name for m in chosen or ()}
        selected = [mutant for mutant in found if mutant.name in names]

        def one(number: int, mutant: Mutant) -> Outcome:
            started = time.monotonic()
            installed = work / f"mutant-{number}"
            try:
                command = _install_mutant(mutant, tree, base, installed, pip=pip)
                outcome = _diffed(mutant, base_command, command)
            finally:
                shutil.rmtree(installed, ignore_errors=True)
            outcome.seconds = time.monotonic() - started
            if progress:
                mark = "ok  " if outcome.passed else "FAIL"
                print(
                    f"{mark} {number}/{len(selected)} {mutant.name} ({outcome.seconds:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
            return outcome

        workers = 1 if pip else max(1, jobs)
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(one, n, m) for n, m in enumerate(selected, 1)]
            try:
                return [future.result() for future in futures]
            except BaseException:
                for future in futures:
                    future.cancel()
                _end_running()
                raise


# The diff processes running, each in a session of its own: ended, with the processes they
# started, when the run is interrupted.
_RUNNING: set[subprocess.Popen[str]] = set()
_RUNNING_LOCK = threading.Lock()


def _end_running() -> None:
    with _RUNNING_LOCK:
        for process in _RUNNING:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)


def _install_mutant(mutant: Mutant, tree: Path, base: Path, installed: Path, *, pip: bool) -> Path:
    """The mutant's command: `base` copied with its one module edited, or installed with pip."""
    source = tree / mutant.path
    original = source.read_bytes()
    mutated = mutant.applied(original)
    if pip:
        source.write_bytes(mutated)
        try:
            return install_tree(tree, installed, what=f"mutant {mutant.name}")
        finally:
            source.write_bytes(original)
    shutil.copytree(base, installed, symlinks=True)
    module = installed / Path(mutant.path).relative_to("src")
    assert module.read_bytes() == original, f"{module} is not {mutant.path} as installed"
    module.write_bytes(mutated)
    shutil.rmtree(module.parent / "__pycache__", ignore_errors=True)
    return write_command(installed, what=f"mutant {mutant.name}")


def _diffed(mutant: Mutant, base_command: Path, mutant_command: Path) -> Outcome:
    """Run `BASE diff MUTANT --format json` and judge its report of the mutant."""
    process = subprocess.Popen(
        [str(base_command), "diff", str(mutant_command), "--format", "json", "--fail-on", "none"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
        env=_environment(),
        start_new_session=True,
    )
    with _RUNNING_LOCK:
        _RUNNING.add(process)
    try:
        stdout, stderr = process.communicate()
    finally:
        with _RUNNING_LOCK:
            _RUNNING.discard(process)
    if process.returncode != 0:
        said = stderr.strip().splitlines()[-1:] or [f"exit status {process.returncode}"]
        return Outcome(mutant, {}, 0, [f"the diff failed: {said[0]}"], 0.0)
    report = json.loads(stdout)
    return _judged(mutant, report, base_command, mutant_command)


def _judged(
    mutant: Mutant, report: dict[str, object], base_command: Path, mutant_command: Path
) -> Outcome:
    changes = report.get("changes")
    assert isinstance(changes, list)
    verdicts: dict[str, str] = {}
    problems: list[str] = []
    witnesses: list[tuple[str, dict[str, object]]] = []
    unreachable: dict[str, str] = {}
    beyond_bytes = not_through_bytes()
    for rule in mutant.rules:
        listed = [change for change in changes if change.get("rule") == rule]
        found = [change for change in listed if change.get("witness")]
        verdicts[rule] = ", ".join(sorted({str(c.get("verdict")) for c in listed})) or "missing"
        if rule in beyond_bytes and not found:
            # Listed with its reason, not counted as reported: the diff judges bytes.
            unreachable[rule] = beyond_bytes[rule]
            continue
        if any(change.get("verdict") == "equivalent" for change in listed):
            problems.append(f"{rule} called equivalent")
        if not found:
            problems.append(f"{rule}: no change with a witness")
        else:
            witnesses.append((rule, found[0]["witness"]))
    verified = _verified(witnesses, base_command, mutant_command, problems)
    return Outcome(mutant, verdicts, verified, problems, 0.0, unreachable)


def _verified(
    witnesses: list[tuple[str, dict[str, object]]],
    base_command: Path,
    mutant_command: Path,
    problems: list[str],
) -> int:
    """How many witnesses both commands judge again as the report says (the mutant is OLD)."""
    if not witnesses:
        return 0
    from campaign_rules._diff.opening import open_old

    requests = [_request(number, witness) for number, (_, witness) in enumerate(witnesses)]
    answers = {}
    for side_name, command in (("old", mutant_command), ("new", base_command)):
        side = open_old(str(command))
        try:
            answers[side_name] = side.judge(requests)
        finally:
            side.close()
    count = 0
    for number, (rule, witness) in enumerate(witnesses):
        again = {name: _identity(answers[name][number]) for name in ("old", "new")}
        said = {name: _identity(witness[name]) for name in ("old", "new")}
        if again != said:
            problems.append(f"the witness of {rule} is judged otherwise when judged again")
        elif again["old"] == again["new"]:
            problems.append(f"the witness of {rule} is judged alike by both")
        else:
            count += 1
    return count


def _request(number: int, witness: dict[str, object]) -> dict[str, object]:
    """The protocol request a witness was: its context, and its body as text or as given."""
    body = witness["body"]
    context = witness.get("request")
    assert isinstance(context, dict)
    return {
        "id": f"witness-{number}",
        **context,
        "body": {"text": body} if isinstance(body, str) else body,
    }


def _identity(answer: object) -> object:
    """What a verdict is made of: ok, status, and each violation's rule, key, field, pointer."""
    if not isinstance(answer, dict):
        return answer
    if "unsupported" in answer:
        return {"unsupported": answer["unsupported"]}
    violations = answer.get("violations")
    return {
        "ok": answer.get("ok") is True,
        "status": answer.get("status"),
        "violations": [
            {name: item.get(name) for name in ("rule", "key", "field", "pointer")}
            for item in (violations if isinstance(violations, list) else [])
        ],
    }


def _environment() -> dict[str, str]:
    """The environment without PYTHONPATH, so that each command imports its own package."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


# The summary.


PAGE = ROOT / "docs" / "guides" / "diff.md"
BEGIN = "<!-- diff-mutants: the last full run, written by scripts/diff_mutants.py --write -->"
END = "<!-- diff-mutants: end -->"


def record(
    outcomes: Sequence[Outcome], commit: str, seconds: float, jobs: int
) -> dict[str, object]:
    """A run as JSON: the commit mutated, its time, and each mutant's outcome."""
    return {
        "commit": commit,
        "seconds": round(seconds),
        "jobs": jobs,
        "mutants": [
            {
                "mutant": o.mutant.name,
                "kind": o.mutant.kind,
                "rules": list(o.mutant.rules),
                "verdicts": o.verdicts,
                "verified": o.verified,
                "problems": o.problems,
                "unreachable": o.unreachable or {},
                "seconds": round(o.seconds, 1),
            }
            for o in outcomes
        ],
    }


def table(run_record: dict[str, object]) -> str:
    """A run as Markdown: a table of the mutants, then how many were reported."""
    rows = run_record["mutants"]
    assert isinstance(rows, list)
    lines = [
        "| mutant | kind | verdict on its rule | witnesses verified | result |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        verdicts = sorted(set(row["verdicts"].values())) or ["—"]
        lines.append(
            f"| {row['mutant']} | {row['kind']} | {', '.join(verdicts)} "
            f"| {row['verified']} | {_result(row)} |"
        )
    beyond = [row for row in rows if _beyond_bytes(row)]
    reached = [row for row in rows if not _beyond_bytes(row)]
    reported = sum(1 for row in reached if not row["problems"])
    lines += [
        "",
        f"{reported} of {len(reached)} mutants reported on their rules with a verified witness"
        + (
            f"; {len(beyond)} more not reachable through bytes, listed with why." if beyond else "."
        ),
    ]
    reasons = sorted({why for row in rows for why in row.get("unreachable", {}).values()})
    if reasons:
        lines += ["", *(f"- {why}." for why in reasons)]
    return "\n".join(lines) + "\n"


def _beyond_bytes(row: dict[str, object]) -> bool:
    """Whether no rule of a mutant's is reached through bytes (each listed with why)."""
    unreachable = row.get("unreachable") or {}
    rules = row["rules"]
    assert isinstance(unreachable, dict)
    assert isinstance(rules, list)
    return bool(unreachable) and len(unreachable) == len(rules)


def _result(row: dict[str, object]) -> str:
    problems = row["problems"]
    unreachable = row.get("unreachable") or {}
    assert isinstance(problems, list)
    assert isinstance(unreachable, dict)
    more = f"; and {len(problems) - 3} more" if len(problems) > 3 else ""
    if problems:
        return "not reported: " + "; ".join(problems[:3]) + more
    if _beyond_bytes(row):
        return "not reachable through bytes (below)"
    if unreachable:
        return f"reported ({', '.join(sorted(unreachable))}: not reachable through bytes)"
    return "reported"


def docs_section(run_record: dict[str, object]) -> str:
    """The page's section of a full run: when and how it ran, the counts by kind, the table."""
    rows = run_record["mutants"]
    assert isinstance(rows, list)
    kinds: dict[str, list[int]] = {}
    for row in rows:
        counts = kinds.setdefault(row["kind"], [0, 0])
        counts[0] += 1
        counts[1] += not row["problems"] and not _beyond_bytes(row)
    minutes = int(str(run_record["seconds"])) / 60
    label = (
        f"The last full run, at commit {run_record['commit']}, took {minutes:.0f} minutes "
        f"(`--jobs {run_record['jobs']}`, on two cores shared with other work):"
    )
    by_kind = ["| kind | mutants | reported |", "|---|---|---|"] + [
        f"| {kind} | {counts[0]} | {counts[1]} |" for kind, counts in kinds.items()
    ]
    return "\n".join([BEGIN, label, "", *by_kind, "", table(run_record).rstrip(), END])


def write_docs(run_record: dict[str, object]) -> None:
    """Write the run into docs/guides/diff.md, in place of the last one."""
    page = PAGE.read_text(encoding="utf-8")
    start = page.index(BEGIN)
    end = page.index(END, start) + len(END)
    PAGE.write_text(page[:start] + docs_section(run_record) + page[end:], encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the mutants chosen; 0 when every one is reported, 1 otherwise, 2 when it cannot run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--revision", default="HEAD", help="the revision to mutate (HEAD)")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="TEXT",
        help="only the mutants whose name holds TEXT (repeatable)",
    )
    parser.add_argument("--limit", type=int, help="at most this many mutants (the first ones)")
    parser.add_argument("--pip", action="store_true", help="install each mutant with pip")
    parser.add_argument("--jobs", type=int, default=1, help="mutants diffed at once (1)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the run as JSON too")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument(
        "--write", action="store_true", help=f"write a full run into {PAGE.relative_to(ROOT)}"
    )
    parser.add_argument(
        "--write-from",
        type=Path,
        metavar="FILE",
        help="write the run FILE (from --json) into the page, and run nothing",
    )
    arguments = parser.parse_args(argv)
    if arguments.write_from is not None:
        write_docs(json.loads(arguments.write_from.read_text(encoding="utf-8")))
        return 0
    if arguments.write and (arguments.only or arguments.limit is not None):
        parser.error("--write takes a full run: no --only, no --limit")
    with tempfile.TemporaryDirectory(prefix="diff-mutants-list-") as scratch:
        tree = Path(scratch)
        try:
            commit = unpack(arguments.revision, tree)
        except InstallFailed as error:
            print(f"diff_mutants: {error}", file=sys.stderr)
            return 2
        chosen = [
            mutant
            for mutant in mutants(tree)
            if not arguments.only or any(text in mutant.name for text in arguments.only)
        ][: arguments.limit]
    if arguments.list:
        for mutant in chosen:
            print(f"{mutant.kind:12} {mutant.name}  [{', '.join(mutant.rules)}]")
        return 0
    started = time.monotonic()
    signal.signal(signal.SIGTERM, _interrupted)
    try:
        outcomes = run(commit, chosen, pip=arguments.pip, jobs=arguments.jobs)
    except InstallFailed as error:
        print(f"diff_mutants: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("diff_mutants: interrupted; the diffs running were ended", file=sys.stderr)
        return 130
    run_record = record(outcomes, commit[:7], time.monotonic() - started, arguments.jobs)
    print(table(run_record))
    print(f"{run_record['seconds']} s in all.")
    if arguments.json is not None:
        arguments.json.write_text(json.dumps(run_record, indent=2) + "\n", encoding="utf-8")
    if arguments.write:
        write_docs(run_record)
    return 0 if all(outcome.passed for outcome in outcomes) else 1


def _interrupted(number: int, frame: object) -> None:
    """SIGTERM as Ctrl-C: the diffs running are ended, and the scratch directory removed."""
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
