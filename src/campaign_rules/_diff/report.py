"""A diff's outcome: one JSON document (`schema/diff.schema.json`), and it as text or Markdown.

The document is the one model: the text and the Markdown are written from it, so the three
formats say the same thing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from campaign_rules._cli.wording import counted
from campaign_rules._diff.candidates import value_at
from campaign_rules._diff.semantics import Finding, Witness
from campaign_rules._diff.sides import Answer, Description, Environment
from campaign_rules._diff.structure import EnvironmentChange, RowChange

__all__ = ["VERDICTS", "document", "fails", "render"]

VERDICTS = ("stricter", "looser", "incomparable", "equivalent", "unprobed")
# A structural change that breaks clients whatever the bodies say: they branch on both.
_BREAKING_MEMBERS = {"key", "status"}
# How much of a witness body the text and the Markdown show (the JSON shows all of it).
_SHOWN = 240


def document(
    sides: Mapping[str, tuple[str | None, Description, Environment, int]],
    environment: EnvironmentChange,
    rows: Sequence[RowChange],
    found: Mapping[str, Finding],
    order: Sequence[str],
    bodies: int,
) -> dict[str, object]:
    """The report: both sides, the environment, every change with its verdict, what was unprobed.

    `sides` maps "old" and "new" to (command, description, environment, number of rules);
    `order` is every rule id, in the order the report lists them.
    """
    by_rule: dict[str, list[RowChange]] = {}
    for change in rows:
        by_rule.setdefault(change.rule, []).append(change)
    changes: list[dict[str, object]] = []
    for rule in order:
        finding = found.get(rule)
        listed = by_rule.get(rule, [])
        if not listed and finding is not None and finding.verdict not in {"equivalent", "unprobed"}:
            listed = [RowChange(rule, "behaviour", None, None)]
        for change in listed:
            changes.append(_change(change, finding))
    unprobed = [
        {"rule": rule, "reason": found[rule].reason or ""}
        for rule in order
        if rule in found and found[rule].verdict == "unprobed"
    ]
    counts = dict.fromkeys(VERDICTS, 0)
    for entry in changes:
        counts[str(entry["verdict"])] += 1
    return {
        "old": _side(*sides["old"]),
        "new": _side(*sides["new"]),
        "environment": {
            "known": environment.known,
            "changed": environment.changed,
            "old_tzdata": environment.old_tzdata,
            "new_tzdata": environment.new_tzdata,
            "zones_added": list(environment.zones_added),
            "zones_removed": list(environment.zones_removed),
            # A zone the new side lacks refuses bodies the old one accepted.
            "breaking": bool(environment.zones_removed),
        },
        "bodies": bodies,
        "summary": {
            "changes": len(changes),
            "breaking": sum(1 for change in changes if change["breaking"]),
            **counts,
            "rules_unprobed": len(unprobed),
        },
        "changes": changes,
        "unprobed": unprobed,
    }


def _side(
    command: str | None, described: Description, environment: Environment, rules: int
) -> dict[str, object]:
    return {
        "command": command,
        "executor": described.executor,
        "version": described.version,
        "fingerprint": described.fingerprint,
        "rules": rules,
        "tzdata": environment.tzdata,
    }


def _change(change: RowChange, finding: Finding | None) -> dict[str, object]:
    verdict = "unprobed" if finding is None else finding.verdict
    witness = None if finding is None else finding.witness
    breaking = change.change in _BREAKING_MEMBERS or (finding is not None and finding.breaking)
    return {
        "rule": change.rule,
        "change": change.change,
        "old": change.old,
        "new": change.new,
        "verdict": verdict,
        "breaking": breaking,
        "note": "not probed" if finding is None else finding.note,
        "witness": None if witness is None else _witness(witness),
    }


def _witness(witness: Witness) -> dict[str, object]:
    request = witness.candidate.request
    body = request.get("body")
    text = body.get("text") if isinstance(body, dict) else None
    context = {name: value for name, value in request.items() if name not in {"id", "body"}}
    return {
        "origin": witness.candidate.origin,
        "member": witness.candidate.member,
        "body": text if isinstance(text, str) else body,
        "request": context,
        "old": _answer(witness.old),
        "new": _answer(witness.new),
        "breaking": witness.breaking,
    }


def _answer(answer: Answer) -> dict[str, object]:
    """What an answer says that a verdict is made of: ok, status, each violation's identity."""
    violations = answer.get("violations")
    listed = violations if isinstance(violations, list) else []
    return {
        "ok": answer.get("ok") is True,
        "status": answer.get("status"),
        "violations": [
            {name: item.get(name) for name in ("rule", "key", "field", "pointer")}
            for item in listed
            if isinstance(item, dict)
        ],
    }


def fails(report: Mapping[str, object], fail_on: str) -> bool:
    """Whether the report fails `--fail-on`: a breaking change, any change, or never.

    The environment counts as a change when it differs, and as a breaking one when the new
    side lacks a zone name the old one has.
    """
    changes = report["changes"]
    assert isinstance(changes, list)
    environment = report["environment"]
    assert isinstance(environment, dict)
    if fail_on == "breaking":
        return any(change["breaking"] for change in changes) or bool(environment["breaking"])
    if fail_on == "any":
        return bool(changes) or bool(environment["changed"])
    return False


def render(report: Mapping[str, object], form: str) -> str:
    """The report as `form`: json, markdown or text."""
    if form == "json":
        return json.dumps(report, indent=2, ensure_ascii=False) + "\n"
    if form == "markdown":
        return _markdown(report)
    return _text(report)


def _compact(value: object, limit: int = _SHOWN) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _judged(answer: Mapping[str, object]) -> str:
    if answer["ok"]:
        return "accepted"
    violations = answer["violations"]
    assert isinstance(violations, list)
    named = ", ".join(
        f"{item['rule']} {item['key']} at {item['pointer']!r}" for item in violations[:3]
    )
    more = f" and {len(violations) - 3} more" if len(violations) > 3 else ""
    return f"refused {answer['status']}: {named}{more}"


def _changed_member(witness: Mapping[str, object]) -> str:
    """The member a witness changed and its value there, and where the body came from."""
    member = witness["member"]
    if not isinstance(member, str) or not isinstance(witness["body"], str):
        return str(witness["origin"])
    held, value = value_at({"text": witness["body"]}, member)
    if not held:
        return f"{member} left out ({witness['origin']})"
    return f"{member} = {_compact(value, 60)} ({witness['origin']})"


def _identity(side: Mapping[str, object]) -> str:
    fingerprint = str(side["fingerprint"] or "unknown")[:16]
    return (
        f"{side['executor']} — rule set {side['version'] or 'unknown'}, fingerprint "
        f"{fingerprint}, {side['rules']} rules, tzdata {side['tzdata'] or 'unknown'}"
    )


def _parts(
    report: Mapping[str, object],
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]], dict[str, Any]]:
    """The summary, changes, rules not probed and environment of `report`, for the writers."""
    summary, changes = report["summary"], report["changes"]
    unprobed, environment = report["unprobed"], report["environment"]
    assert isinstance(summary, dict)
    assert isinstance(environment, dict)
    assert isinstance(changes, list)
    assert isinstance(unprobed, list)
    return summary, changes, unprobed, environment


def _text(report: Mapping[str, object]) -> str:
    summary, changes, unprobed, environment = _parts(report)
    lines = [
        f"old: {_identity(report['old'])}",  # type: ignore[arg-type]
        f"new: {_identity(report['new'])}",  # type: ignore[arg-type]
        f"{report['bodies']} bodies judged by both; "
        f"{counted(summary['changes'], 'change')}, {summary['breaking']} breaking.",
    ]
    if not changes:
        lines.append("No change found.")
    for change in changes:
        breaking = ", BREAKING" if change["breaking"] else ""
        lines.append(f"- {change['rule']}: {change['change']} ({change['verdict']}{breaking})")
        if change["change"] not in {"behaviour"}:
            lines.append(f"    {_compact(change['old'])} -> {_compact(change['new'])}")
        witness = change["witness"]
        if witness is None:
            lines.append(f"    {change['note']}")
            continue
        lines.append(f"    witness: {_changed_member(witness)}")
        lines.append(f"      body: {_compact(witness['body'])}")
        lines.append(f"      old: {_judged(witness['old'])}")
        lines.append(f"      new: {_judged(witness['new'])}")
    lines.append(_environment_line(environment))
    if unprobed:
        lines.append(f"Not probed ({len(unprobed)} rules):")
        lines.extend(f"- {item['rule']}: {item['reason']}" for item in unprobed)
    return "\n".join(lines) + "\n"


def _environment_line(environment: Mapping[str, object]) -> str:
    old, new = environment["old_tzdata"] or "unknown", environment["new_tzdata"] or "unknown"
    versions = f"tzdata {old} -> {new}"
    if not environment["known"]:
        return f"Environment: {versions}; zone lists not known on both sides."
    added, removed = environment["zones_added"], environment["zones_removed"]
    assert isinstance(added, list)
    assert isinstance(removed, list)
    if not added and not removed:
        return f"Environment: {versions}; the same zone names."
    return (
        f"Environment: {versions}; zones added: {_compact(added)}; "
        f"zones removed: {_compact(removed)}."
    )


def _cell(value: object) -> str:
    return _compact(value, 120).replace("|", "\\|").replace("\n", " ")


def _whole_cell(text: str) -> str:
    """A table-safe line that is never cut: a side's identity, whose path may be long."""
    return text.replace("|", "\\|").replace("\n", " ")


def _markdown(report: Mapping[str, object]) -> str:
    summary, changes, unprobed, environment = _parts(report)
    old, new = report["old"], report["new"]
    assert isinstance(old, dict)
    assert isinstance(new, dict)
    lines = [
        "## Rule set diff",
        "",
        "| changes | breaking | stricter | looser | incomparable | equivalent | not probed |",
        "|---|---|---|---|---|---|---|",
        f"| {summary['changes']} | {summary['breaking']} | {summary['stricter']} "
        f"| {summary['looser']} | {summary['incomparable']} | {summary['equivalent']} "
        f"| {summary['rules_unprobed']} rules |",
        "",
        f"Old: {_whole_cell(_identity(old))}  ",
        f"New: {_whole_cell(_identity(new))}  ",
        f"{report['bodies']} bodies judged by both.",
        "",
    ]
    if changes:
        lines += [
            "| rule | change | old → new | verdict | breaking | witness |",
            "|---|---|---|---|---|---|",
        ]
        for change in changes:
            witness = change["witness"]
            shown = (
                _cell(change["note"])
                if witness is None
                else f"{_cell(_changed_member(witness))}: old {_cell(_judged(witness['old']))}; "
                f"new {_cell(_judged(witness['new']))}"
            )
            lines.append(
                f"| `{change['rule']}` | {change['change']} | {_cell(change['old'])} → "
                f"{_cell(change['new'])} | {change['verdict']} | "
                f"{'yes' if change['breaking'] else 'no'} | {shown} |"
            )
    else:
        lines.append("No change found.")
    lines += ["", _environment_line(environment)]
    if unprobed:
        named = ", ".join(f"`{item['rule']}`" for item in unprobed)
        lines += ["", f"Not probed: {named}."]
    return "\n".join(lines) + "\n"
