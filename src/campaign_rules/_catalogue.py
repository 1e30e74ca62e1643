"""The rule catalogue, generated from the rule table (`docs/rules.md`, `campaign-rules rules`)."""

from __future__ import annotations

from typing import Any

import attrs

from campaign_rules import _fingerprint, _idempotency, _rate
from campaign_rules._enums import ErrorKey
from campaign_rules._results import STATUS_OF_KEY
from campaign_rules.rules.table import (
    CONTACT_PATH_RULES,
    CREATE_RULES,
    ERROR_RESPONSE_RULES,
    IDEMPOTENCY_KEY_RULES,
    LIFECYCLE_RULES,
    LOOKUP_RULES,
    RESPONSE_RULES,
    THREAD_PATH_RULES,
    UPDATE_RULES,
    Rule,
)

__all__ = ["RuleInfo", "catalogue", "render_markdown"]


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
    """Every rule, by stage: creation, look-ups, update, response, error, request, lifecycle.

    `validate_create` runs the creation rules, then the look-ups; `validate_update` runs the
    update rules, then the creation rules and the look-ups on the merged campaign. The
    `parse_*` functions run the response rules; `parse_error` runs the error rules first. The
    request rules are run by `check_contact_path`, `check_thread_path` and
    `check_idempotency_key`, the lifecycle rules by `check_transition`.
    """
    stages: tuple[tuple[str, tuple[Rule[Any], ...]], ...] = (
        ("create", CREATE_RULES),
        ("lookup", LOOKUP_RULES),
        ("update", UPDATE_RULES),
        ("response", RESPONSE_RULES),
        ("error", ERROR_RESPONSE_RULES),
        ("request", (*CONTACT_PATH_RULES, *THREAD_PATH_RULES, *IDEMPOTENCY_KEY_RULES)),
        ("lifecycle", LIFECYCLE_RULES),
    )
    return tuple(
        RuleInfo(rule.id, rule.key, STATUS_OF_KEY[rule.key], rule.source, rule.summary, stage)
        for stage, rules in stages
        for rule in rules
    )


_HEADER = """\
# Rule catalogue

Generated from `src/campaign_rules/rules/table.py` by `campaign-rules rules`; a test fails
when this page is stale. Stages: `create` rules run offline on every creation payload and on
every merged update; `lookup` rules run when a `Directory` is given; `update` rules run on the
change itself; `response` rules run on every response body a `parse_*` function reads, after
the `error` rules for an error body; `request` rules check path parameters and headers
(`check_contact_path`, `check_thread_path`, `check_idempotency_key`); `lifecycle` rules check a
status change (`check_transition`). Sources: "spec N" is a section of the service spec,
"D-..." an entry of [decisions.md](decisions.md).

From a rule to its proof: the cases that make it fire and keep it silent are in
`tests/cases/<rule>.json`, each citing its clause; its example tests are the class named after
its function (`retries_within_bounds` is tested by `TestRetriesWithinBounds`) in the test module
of its rule module (`rules/fields.py`, `tests/test_rules_fields.py`).

| rule | stage | key | status | source | requires |
|---|---|---|---|---|---|
"""


# The checks that judge a header or the state of a server rather than one input's members, so
# have no place in the rule table: each is one function; its violations carry the id given here.
_OTHER_CHECKS: tuple[tuple[str, str, str, str, str], ...] = (
    (
        "`parse_authorization`",
        "none: the 401 body of spec 5",
        "401",
        "spec 5; D-authorization",
        "`Authorization` is `api-key`, one or more spaces, and a visible ASCII key.",
    ),
    (
        "`RateLimiter.acquire`",
        f"`{_rate.RULE_ID}`",
        "`RATE_LIMITED` 429",
        "spec 4.2, 8; D-rate-limit, D-rate-scope",
        "At most 12 requests per second per API key and operation, in bursts of at most 12.",
    ),
    (
        "`request_fingerprint`",
        f"`{_fingerprint.RULE_ID}`",
        "`INVALID_REQUEST` 400",
        "spec 4.1 rule 2; D-fingerprint",
        "An idempotent request's body is plain JSON data.",
    ),
    (
        "`decide_idempotency`",
        f"`{_idempotency.RULE_ID}`",
        "`INVALID_REQUEST` 400",
        "spec 4.1 rule 2; D-idempotency",
        "An `Idempotency-Key` seen within 24 hours comes with the same request.",
    ),
)

_OTHER_HEADER = """
## Checks outside the rule table

These judge a header or the state a server keeps, not the members of one input. Given unusable
arguments by the server itself, `RateLimiter.acquire` and `decide_idempotency` answer
`SERVER_ERROR` (500) under the same rule id.

| check | rule id | key and status | source | requires |
|---|---|---|---|---|
"""


def render_markdown() -> str:
    """The catalogue as the Markdown page `docs/rules.md`."""
    rows = (
        f"| `{info.id}` | {info.stage} | `{info.key.value}` | {info.status} | {info.source} "
        f"| {_escape_cell(info.summary)} |\n"
        for info in catalogue()
    )
    others = (f"| {' | '.join(map(_escape_cell, check))} |\n" for check in _OTHER_CHECKS)
    return _HEADER + "".join(rows) + _OTHER_HEADER + "".join(others)


def _escape_cell(text: str) -> str:
    return text.replace("|", "\\|")
