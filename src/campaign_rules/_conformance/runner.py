"""`campaign-rules conformance run DIR -- COMMAND...`: every case of a kit through one executor.

The executor is started once; its `describe` answer is checked first (the protocol's version,
and the rule set: a kit made by another is refused unless allowed); then each case's request is
written and its answer compared (`compare`). Each failure is printed with its differences, a
count line last. Status 0 when every case passed (or failed as expected), 1 when one failed or
an expected failure passed, 2 when the kit, the expected failures or the executor failed the
run (`ExecutorFailed`, `KitError`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from campaign_rules._cli.exits import ExitStatus, say
from campaign_rules._cli.wording import counted
from campaign_rules._conformance.compare import Difference, Strictness, differences
from campaign_rules._conformance.kit import Kit, KitError, read_expected_failures, read_kit
from campaign_rules._conformance.process import ExecutorFailed, ExecutorProcess
from campaign_rules._conformance.protocol import DESCRIBE, PROTOCOL

__all__ = ["DEFAULT_TIMEOUT_SECONDS", "RunOptions", "run_kit"]

# How long an executor may take over one case, unless `--timeout` says otherwise.
DEFAULT_TIMEOUT_SECONDS = 30.0


@attrs.frozen
class RunOptions:
    """The flags of a run."""

    strictness: Strictness = attrs.field(factory=Strictness)
    expected_failures: Path | None = None
    allow_other_ruleset: bool = False
    timeout: float = DEFAULT_TIMEOUT_SECONDS


@attrs.define
class _Tally:
    passed: int = 0
    failed: int = 0
    failed_as_expected: int = 0
    passed_unexpectedly: int = 0


def run_kit(
    directory: Path, command: Sequence[str], options: RunOptions, write: Callable[[str], None]
) -> int:
    """Run the kit in `directory` through the executor `command`; return the exit status.

    `write` takes what standard output shows: each failure, then the count line. Why a run
    stops with status 2 is said on standard error.
    """
    tally = _Tally()
    try:
        kit = read_kit(directory)
        expected = _expected_failures(kit, options.expected_failures)
        with ExecutorProcess(command, options.timeout) as executor:
            kinds = _described(executor.ask({"id": DESCRIBE, "kind": DESCRIBE}), kit, options)
            for case in kit.cases:
                found = _judge(executor, case, kinds, options.strictness)
                _count(tally, case["id"], found, case["id"] in expected, write)
            status = executor.end()
        if status:
            say(f"conformance run: the executor exited with status {status} at the end")
    except (KitError, ExecutorFailed) as error:
        say(f"conformance run: {error}")
        return ExitStatus.UNREADABLE
    write(_count_line(tally) + "\n")
    return ExitStatus.INVALID if tally.failed or tally.passed_unexpectedly else ExitStatus.VALID


def _expected_failures(kit: Kit, path: Path | None) -> frozenset[str]:
    if path is None:
        return frozenset()
    listed = read_expected_failures(path)
    unknown = sorted(set(listed) - {case["id"] for case in kit.cases})
    if unknown:
        raise KitError(f"{path} lists cases the kit has not: {', '.join(unknown[:5])}")
    return frozenset(listed)


def _described(answer: dict[str, Any], kit: Kit, options: RunOptions) -> frozenset[str]:
    """The case kinds the executor judges, once its `describe` answer is found good."""
    kinds = answer.get("kinds")
    if answer.get("protocol") != PROTOCOL or type(kinds) is not list:
        raise ExecutorFailed(
            f"case {DESCRIBE}: the executor does not speak protocol {PROTOCOL} "
            f'(its answer has "protocol": {answer.get("protocol")!r} and "kinds": {kinds!r})'
        )
    ruleset = answer.get("ruleset")
    if ruleset is None:
        say(f"conformance run: the executor names no rule set; the kit's is {kit.fingerprint}")
    elif type(ruleset) is not dict or ruleset.get("fingerprint") != kit.fingerprint:
        theirs = ruleset.get("fingerprint") if type(ruleset) is dict else ruleset
        version = ruleset.get("version") if type(ruleset) is dict else None
        if not options.allow_other_ruleset:
            raise KitError(
                f"the kit was made by another rule set than the executor's: kit {kit.fingerprint} "
                f"(version {kit.version}), executor {theirs} (version {version}); "
                "--allow-other-ruleset runs it all the same"
            )
        say(f"conformance run: the kit's rule set is {kit.fingerprint}, the executor's {theirs}")
    return frozenset(kind for kind in kinds if type(kind) is str)


def _judge(
    executor: ExecutorProcess, case: dict[str, Any], kinds: frozenset[str], strictness: Strictness
) -> list[Difference] | str:
    """The case's differences (none: it passed), or why the executor did not judge it."""
    kind = case["request"]["kind"]
    if kind not in kinds:
        return f"the executor does not judge {kind} cases"
    answer = executor.ask(case["request"])
    if "unsupported" in answer:
        return f"unsupported: {answer['unsupported']}"
    problem = _answer_problem(answer)
    if problem:
        raise ExecutorFailed(f"case {case['id']}: the executor's answer {problem}")
    return differences(case["answer"], answer, strictness)


def _answer_problem(answer: dict[str, Any]) -> str | None:
    """What makes a judged answer not the protocol's; `None` when nothing does."""
    members = {"id", "ok", "status", "violations", "envelope"}
    if set(answer) != members:
        return f"holds {sorted(answer)}, not {sorted(members)}"
    violations = answer["violations"]
    if type(violations) is not list or not all(
        type(violation) is dict and set(violation) == _VIOLATION for violation in violations
    ):
        return f"has violations that are not objects of {sorted(_VIOLATION)}"
    if answer["envelope"] is not None and type(answer["envelope"]) is not dict:
        return "has an envelope that is neither null nor an object"
    return None


_VIOLATION = {"rule", "key", "field", "pointer", "line", "column", "message"}


def _count(
    tally: _Tally,
    case_id: str,
    found: list[Difference] | str,
    listed: bool,
    write: Callable[[str], None],
) -> None:
    """Count the case, and show it when it failed or, listed as failing, passed."""
    if not found:
        if listed:
            tally.passed_unexpectedly += 1
            write(f"PASSED {case_id}\n  listed as an expected failure, but it passes\n")
        else:
            tally.passed += 1
        return
    if listed:
        tally.failed_as_expected += 1
        return
    tally.failed += 1
    reasons = [found] if isinstance(found, str) else [str(difference) for difference in found]
    write(f"FAILED {case_id}\n" + "".join(f"  {reason}\n" for reason in reasons))


def _count_line(tally: _Tally) -> str:
    total = tally.passed + tally.failed + tally.failed_as_expected + tally.passed_unexpectedly
    parts = [f"{tally.passed} passed", f"{tally.failed} failed"]
    if tally.failed_as_expected:
        parts.append(f"{tally.failed_as_expected} failed as expected")
    if tally.passed_unexpectedly:
        parts.append(f"{tally.passed_unexpectedly} listed as expected failures passed")
    return f"{counted(total, 'case')}: {', '.join(parts)}"
