"""The rule catalogue, generated from the rule table (`campaign-rules rules`, the rule pages)."""

from __future__ import annotations

from typing import Any

import attrs

from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.outcome import STATUS_OF_KEY
from campaign_rules._rules.scope import Fact, When
from campaign_rules._rules.table import (
    BODY_RULES,
    CONTACT_PATH_RULES,
    CREATE_RULES,
    ERROR_RESPONSE_RULES,
    FINGERPRINT_RULES,
    IDEMPOTENCY_KEY_RULES,
    IDEMPOTENCY_RULES,
    LIFECYCLE_RULES,
    LOOKUP_RULES,
    RATE_RULES,
    RESPONSE_RULES,
    STORED_CAMPAIGN_RULES,
    THREAD_PATH_RULES,
    UPDATE_RULES,
    Gate,
    Rule,
)

__all__ = [
    "OTHER_CHECKS",
    "OtherCheck",
    "RuleInfo",
    "catalogue",
    "render_markdown",
    "rule_readings",
    "rule_rows",
]


@attrs.frozen
class RuleInfo:
    """One row of the catalogue: a rule as an auditor reads it."""

    id: str
    key: ErrorKey
    status: int
    source: str
    summary: str
    stage: str


def catalogue() -> tuple[RuleInfo, ...]:
    """Every rule, stage by stage, from the request body to the rate limit.

    `validate_create_json` and `validate_update_json` run the body rules first, on the text.
    `validate_create` runs the creation rules, then the look-ups; `validate_update` runs the
    update rules, then the creation rules and the look-ups on the merged campaign. The
    `parse_*` functions run the response rules; `parse_error` runs the error rules first. The
    request rules are run by `check_contact_path`, `check_thread_path` and
    `check_idempotency_key`, the lifecycle rules by `check_transition`, the idempotency rules
    by `request_fingerprint` and `decide_idempotency`, the rate rules by `RateLimiter.acquire`.
    """
    return tuple(
        RuleInfo(rule.id, rule.key, STATUS_OF_KEY[rule.key], rule.source, rule.summary, stage)
        for stage, rules in _stages()
        for rule in rules
    )


def _stages() -> tuple[tuple[str, tuple[Rule[Any], ...]], ...]:
    """Every table of rules, with the stage it runs at, in the order the stages run."""
    return (
        ("body", BODY_RULES),
        ("create", CREATE_RULES),
        ("lookup", LOOKUP_RULES),
        ("update", (*STORED_CAMPAIGN_RULES, *UPDATE_RULES)),
        ("response", RESPONSE_RULES),
        ("error", ERROR_RESPONSE_RULES),
        ("request", (*CONTACT_PATH_RULES, *THREAD_PATH_RULES, *IDEMPOTENCY_KEY_RULES)),
        ("lifecycle", LIFECYCLE_RULES),
        ("idempotency", (*FINGERPRINT_RULES, *IDEMPOTENCY_RULES)),
        ("rate", RATE_RULES),
    )


def rule_readings() -> dict[str, dict[str, Any]]:
    """What `rules --json` adds to each rule of the catalogue, by id: how its verdict is made.

    `scope` (what of its subject it reads), `when` (the facts of a body it reads in, as its row
    names them: `When`), `gates` (every other condition of its verdict: `Rule.gates`), and
    either its row's `pointers` and `constraint` (`_rules.keywords`) or its `function`, as
    `"module:qualname"`.
    """
    readings: dict[str, dict[str, Any]] = {}
    for _, rules in _stages():
        for rule in rules:
            reading: dict[str, Any] = {
                "scope": rule.scope.value,
                "when": _when_json(rule.when),
                "gates": [_gate_json(gate) for gate in rule.gates],
            }
            if rule.constraint is not None:
                reading["pointers"] = list(rule.pointers)
                reading["constraint"] = dict(rule.constraint)
            else:
                reading["function"] = f"{rule.check.__module__}:{rule.check.__qualname__}"
            readings[rule.id] = reading
    return readings


def rule_rows() -> list[dict[str, Any]]:
    """The rules as `rules --json` lists them: each catalogue row with its `rule_readings`."""
    readings = rule_readings()
    return [
        {
            "id": info.id,
            "stage": info.stage,
            "key": info.key.value,
            "status": info.status,
            "source": info.source,
            "summary": info.summary,
            **readings[info.id],
        }
        for info in catalogue()
    ]


def _when_json(when: When) -> dict[str, list[dict[str, object]]]:
    """The facts a rule reads in, as `rules --json` gives them: each one it needs, each it can't.

    A member fact is its `pointer` and the JSON value it holds there (JSON Schema's `const`); a
    fact no member holds is the name of its `test`.
    """

    def fact_json(fact: Fact) -> dict[str, object]:
        if callable(fact):
            return {"test": fact.__name__}
        pointer, value = fact
        return {"pointer": pointer, "const": value}

    return {
        "needs": [fact_json(fact) for fact in when.needs],
        "unless": [fact_json(fact) for fact in when.unless],
    }


def _gate_json(gate: Gate) -> dict[str, str]:
    """A gate as `rules --json` gives it: its kind, in words, and the rule it names, if any."""
    written = {"kind": gate.kind, "says": gate.says}
    if gate.rule is not None:
        written["rule"] = gate.rule
    return written


_HEADER = """\
# Rule catalogue

Generated from `src/campaign_rules/_rules/table.py` by `campaign-rules rules`; the documentation
site has a page for each rule, with its decisions, its code and its cases. Stages: `body` rules
read a request body as received, as I-JSON (`validate_create_json`, `validate_update_json`),
before any other rule; `create` rules
run offline on every creation payload and on every merged update; `lookup` rules run when a
`Directory` is given; `update` rules run on the change itself; `response` rules run on every
response body a `parse_*` function reads, after the `error` rules for an error body; `request` rules
check path parameters and headers (`check_contact_path`, `check_thread_path`,
`check_idempotency_key`); `lifecycle` rules check a status change (`check_transition`);
`idempotency` rules judge a request's fingerprint and its `Idempotency-Key`'s stored record
(`request_fingerprint`, `decide_idempotency`); `rate` rules judge a request's rate
(`RateLimiter.acquire`). Sources: "spec N" is a section of the service spec, "D-..." an entry of
docs/decisions.md.

From a rule to its proof: the cases that make it fire and keep it silent are in
`tests/cases/<rule>.json`, each citing its clause; its example tests are the class named after
its function (`retries_within_bounds` is tested by `TestRetriesWithinBounds`) in the test module
of its rule module (`_rules/fields.py`, `tests/test_rules_fields.py`).

| rule | stage | key | status | source | requires |
|---|---|---|---|---|---|
"""


@attrs.frozen
class OtherCheck:
    """A check outside the rule table: no error key of spec 7.2 names its answer, so no rule id.

    `function` is the public function that runs it, whose page is its entry in the API
    reference; `source` cites what it enforces, as a rule's citation does; `tests` are the test
    modules that prove it.
    """

    function: str
    answer: str
    status: int
    source: str
    summary: str
    tests: tuple[str, ...]

    @property
    def name(self) -> str:
        """The function's own name: `parse_authorization`."""
        return self.function.rpartition(".")[2]

    def row(self) -> tuple[str, str, str, str, str]:
        """Its row of the catalogue: check, rule id, key and status, source, requires."""
        return (f"`{self.name}`", self.answer, str(self.status), self.source, self.summary)


# The one check whose answer is not an error key of spec 7.2, so has no place in the rule table.
OTHER_CHECKS: tuple[OtherCheck, ...] = (
    OtherCheck(
        "campaign_rules.requests.parse_authorization",
        "none: the 401 body of spec 5",
        401,
        "spec 5 rule 1, 5 rule 2, 5 rule 3; D-authorization",
        "`Authorization` is `api-key`, one or more spaces, and a visible ASCII key.",
        ("tests/test_authorization.py",),
    ),
)

_OTHER_HEADER = """
## A check outside the rule table

`parse_authorization` answers a refused `Authorization` header with the 401 body of spec 5
rule 3, `{error, message}`: no error key of spec 7.2 names it, so it has no rule id.

| check | rule id | key and status | source | requires |
|---|---|---|---|---|
"""


def render_markdown() -> str:
    """The catalogue as a Markdown table, which `campaign-rules rules` prints."""
    rows = (
        f"| `{info.id}` | {info.stage} | `{info.key.value}` | {info.status} | {info.source} "
        f"| {_escape_cell(info.summary)} |\n"
        for info in catalogue()
    )
    others = (f"| {' | '.join(map(_escape_cell, check.row()))} |\n" for check in OTHER_CHECKS)
    return _HEADER + "".join(rows) + _OTHER_HEADER + "".join(others)


def _escape_cell(text: str) -> str:
    return text.replace("|", "\\|")
