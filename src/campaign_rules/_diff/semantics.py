"""The semantic part of a diff: every candidate judged by both sides, and each rule's verdict.

A rule's verdict comes from the bodies the two sides judge differently on that rule (D-diff):
`stricter` when the new side alone refuses bodies by it, `looser` when the old side alone does,
`incomparable` when both happen or a body refused by it by both changes its key, `equivalent`
when no body tried differs ("no differing body found in N"), `unprobed` when no request of the
protocol reaches the rule on both sides. A witness is re-judged by both sides before it is
shown, so that what the report says is what the two versions say now.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs

from campaign_rules._diff.candidates import Candidate, value_at
from campaign_rules._diff.narrowing import one_member_versions
from campaign_rules._diff.sides import Answer, Side

__all__ = ["Finding", "Judged", "Witness", "findings", "judge_both", "reach_of"]

# The kind of request that reaches a rule of each stage; stages absent reach none.
_REACH = {
    "body": "create",
    "create": "create",
    "lookup": "lookup",
    "update": "update",
    "response": "response",
    "error": "response",
}
# Which sort of evidence makes which verdict.
_STRICTER, _LOOSER, _REKEYED = "stricter", "looser", "rekeyed"


@attrs.frozen
class Judged:
    """A candidate and both sides' answers to it."""

    candidate: Candidate
    old: Answer
    new: Answer

    @property
    def reach(self) -> str:
        """What kind of rule this request can reach: create, lookup, update or response."""
        kind = str(self.candidate.request.get("kind"))
        if kind == "create" and self.candidate.request.get("directory") is not None:
            return "lookup"
        return kind

    @property
    def breaking(self) -> bool:
        """Old accepts and new refuses, or a refused body's status or error key changes."""
        if self.old.get("ok") is True:
            return self.new.get("ok") is False
        if self.new.get("ok") is True:
            return False
        return (self.old.get("status"), _error_key(self.old)) != (
            self.new.get("status"),
            _error_key(self.new),
        )


@attrs.frozen
class Witness:
    """A body the two sides judge differently on one rule, with both answers, re-judged."""

    candidate: Candidate
    old: Answer
    new: Answer
    breaking: bool


@attrs.frozen
class Finding:
    """A rule's verdict, whether it breaks clients, its witness, and how many bodies were tried."""

    rule: str
    verdict: str  # equivalent | stricter | looser | incomparable | unprobed
    breaking: bool
    witness: Witness | None
    tried: int
    reason: str | None = None  # why a rule is unprobed

    @property
    def note(self) -> str:
        """The finding in words: no differing body found in N, or why it was not probed."""
        if self.verdict == "unprobed":
            return f"not probed: {self.reason}"
        if self.witness is None and self.verdict != "equivalent":
            return f"{self.verdict}: a differing body found among {self.tried} differed no more"
        if self.witness is None:
            return f"no differing body found in {self.tried}"
        return f"{self.verdict}: a differing body among {self.tried}"


def judge_both(old: Side, new: Side, candidates: Sequence[Candidate]) -> list[Judged]:
    """Each candidate's answers from both sides (each side given every request at once)."""
    requests = [
        {"id": f"c{index}", **candidate.request} for index, candidate in enumerate(candidates)
    ]
    old_answers = old.judge(requests)
    new_answers = new.judge(requests)
    return [
        Judged(candidate, old_answer, new_answer)
        for candidate, old_answer, new_answer in zip(
            candidates, old_answers, new_answers, strict=True
        )
    ]


def reach_of(row: Mapping[str, object]) -> str | None:
    """The kind of request that reaches a rule, by its stage; None for one none reaches."""
    return _REACH.get(str(row.get("stage")))


def findings(
    judged: Sequence[Judged],
    rows: Mapping[str, Mapping[str, object]],
    old: Side,
    new: Side,
    zones: frozenset[str] = frozenset(),
) -> dict[str, Finding]:
    """Every rule's finding by id (`rows`: each rule's row, of either side); witnesses re-judged.

    A body whose changed member is a zone name only one side's tzdata has (`zones`) shows the
    environment, which the report gives apart, not a rule's change (D-diff).
    """
    evidence: dict[str, list[tuple[str, Judged]]] = {}
    for pair in judged:
        if _supported(pair) and not _environmental(pair.candidate, zones):
            for rule, sort in _differences(pair):
                evidence.setdefault(rule, []).append((sort, pair))
    chosen = {rule: _chosen(found) for rule, found in evidence.items()}
    chosen |= _narrowed(chosen, evidence, old, new)
    confirmed = _rejudged(chosen, old, new)
    result: dict[str, Finding] = {}
    for rule, row in rows.items():
        reach = reach_of(row)
        tried = sum(1 for pair in judged if pair.reach == reach and _supported(pair))
        if reach is None or tried == 0:
            result[rule] = Finding(rule, "unprobed", False, None, 0, _why_unprobed(row, judged))
            continue
        sorts = {sort for sort, _ in evidence.get(rule, [])}
        witness = confirmed.get(rule)
        if witness is None:
            result[rule] = Finding(rule, "equivalent", False, None, tried)
            continue
        breaking = any(pair.breaking for _, pair in evidence.get(rule, []))
        verdict = _verdict(sorts) if sorts else "equivalent"
        result[rule] = Finding(rule, verdict, breaking, witness, tried)
    return result


def _narrowed(
    chosen: Mapping[str, Judged],
    evidence: Mapping[str, list[tuple[str, Judged]]],
    old: Side,
    new: Side,
) -> dict[str, Judged]:
    """For each witness with more than one member changed, one with one, when one is found."""
    tries: dict[str, list[Candidate]] = {
        rule: one_member_versions(pair.candidate)
        for rule, pair in chosen.items()
        if pair.candidate.member is None
    }
    flat = [candidate for listed in tries.values() for candidate in listed]
    judged = iter(judge_both(old, new, flat))
    narrowed: dict[str, Judged] = {}
    for rule, listed in tries.items():
        sorts = {sort for sort, _ in evidence[rule]}
        for pair in [next(judged) for _ in listed]:
            if rule not in narrowed and any(
                found == rule and sort in sorts for found, sort in _differences(pair)
            ):
                narrowed[rule] = pair
    return narrowed


def _environmental(candidate: Candidate, zones: frozenset[str]) -> bool:
    if candidate.member is None or not zones:
        return False
    _, value = value_at(candidate.request.get("body"), candidate.member)
    return isinstance(value, str) and value in zones


def _supported(pair: Judged) -> bool:
    return "unsupported" not in pair.old and "unsupported" not in pair.new


def _keys_by_rule(answer: Answer) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    violations = answer.get("violations")
    for violation in violations if isinstance(violations, list) else []:
        if isinstance(violation, dict):
            found.setdefault(str(violation.get("rule")), []).append(str(violation.get("key")))
    return found


def _differences(pair: Judged) -> Iterable[tuple[str, str]]:
    """Each rule the two answers disagree on, and how: stricter, looser or rekeyed."""
    old, new = _keys_by_rule(pair.old), _keys_by_rule(pair.new)
    for rule in [*new, *(rule for rule in old if rule not in new)]:
        if rule not in old:
            yield rule, _STRICTER
        elif rule not in new:
            yield rule, _LOOSER
        elif sorted(old[rule]) != sorted(new[rule]):
            yield rule, _REKEYED
    if pair.breaking and old.keys() == new.keys() and old == new:
        # The same violations with another status: the rule of the first violation decides it.
        for rule in list(new)[:1]:
            yield rule, _REKEYED


def _verdict(sorts: set[str]) -> str:
    if sorts == {_STRICTER}:
        return "stricter"
    if sorts == {_LOOSER}:
        return "looser"
    return "incomparable"


def _chosen(found: list[tuple[str, Judged]]) -> Judged:
    """The witness shown: shown answers that differ, breaking, one member, then the shortest.

    Two answers may differ only in their envelope (which violation is primary) while the
    violations and statuses the report shows are the same: such a body is kept only when no
    other shows the difference (D-diff).
    """
    return min(
        (pair for _, pair in found),
        key=lambda pair: (
            _shown_alike(pair),
            not pair.breaking,
            pair.candidate.member is None,
            pair.reach != "create",
            len(str(pair.candidate.request.get("body"))),
        ),
    )


def _rejudged(chosen: Mapping[str, Judged], old: Side, new: Side) -> dict[str, Witness]:
    """The chosen witnesses judged again by both sides; kept when they still differ as before."""
    rules = list(chosen)
    candidates = [chosen[rule].candidate for rule in rules]
    again = judge_both(old, new, candidates)
    witnesses: dict[str, Witness] = {}
    for rule, first, second in zip(rules, (chosen[rule] for rule in rules), again, strict=True):
        if _verdict_part(first) == _verdict_part(second):
            witnesses[rule] = Witness(second.candidate, second.old, second.new, second.breaking)
    return witnesses


def _shown_alike(pair: Judged) -> bool:
    """Whether the two answers agree in all the report shows of them: ok, status, violations."""
    old, new = _verdict_part(pair)
    return bool(old == new)


def _verdict_part(pair: Judged) -> tuple[object, object]:
    """What a verdict is made of: ok, status, and every violation's rule, key and pointer."""

    def part(answer: Answer) -> object:
        violations = answer.get("violations")
        listed = violations if isinstance(violations, list) else []
        return (
            answer.get("ok"),
            answer.get("status"),
            [
                (item.get("rule"), item.get("key"), item.get("pointer"))
                for item in listed
                if isinstance(item, dict)
            ],
        )

    return part(pair.old), part(pair.new)


def _error_key(answer: Answer) -> object:
    envelope = answer.get("envelope")
    if isinstance(envelope, dict) and "error" in envelope:
        return envelope.get("error")
    violations = answer.get("violations")
    if isinstance(violations, list) and violations and isinstance(violations[0], dict):
        return violations[0].get("key")
    return None


def _why_unprobed(row: Mapping[str, object], judged: Sequence[Judged]) -> str:
    reach = reach_of(row)
    if reach is None:
        return f"no executor request reaches a rule of stage {row.get('stage')!r}"
    for pair in judged:
        if pair.reach == reach:
            for side, answer in (("old", pair.old), ("new", pair.new)):
                if "unsupported" in answer:
                    return f"the {side} version judges no {reach} request ({answer['unsupported']})"
    return f"no {reach} request was tried"
