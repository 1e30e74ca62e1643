"""What each rule of the table comes with; each test names what a new rule lacks and where it goes.

A rule is listed once in `src/campaign_rules/_rules/table.py`. It also needs:

- its case file, `tests/cases/<id>.json`, citing what the table cites (`tests/cases_support.py`
  says the format; `tests/test_cases.py` runs it);
- a line of `CHANGELOG.md` naming its id, under "## Unreleased", for its users;
- for a creation or update rule, a kind of defect of `campaign_rules.strategies` that draws a
  body it refuses (`_DEFECTS` in `strategies/_defects.py`, `_PATCH_DEFECTS` in
  `strategies/_patches.py`), so that the properties and the users' own tests reach it. The
  rules of the other tables judge what no public strategy draws (responses, paths, headers,
  the server's state, transitions): their properties live in `tests/property/`.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from campaign_rules import strategies as cs
from campaign_rules import validate_create, validate_update
from campaign_rules._rules.table import CREATE_RULES, UPDATE_RULES
from campaign_rules.schema import catalogue
from tests.cases_support import CASES_DIR
from tests.support import BASES, draw, payload

ROOT = Path(__file__).parent.parent
CHANGELOG = ROOT / "CHANGELOG.md"

# The rules older than the changelog's line per rule: the 0.1.0 release and the rounds before
# this one described them by what they do, not by id. Never add to this list: a new rule gets
# its own line.
NAMED_BEFORE_THE_CHANGELOG_DID = frozenset({
    "payload.is_object", "payload.known_members_only", "payload.required_members_present",
    "agent_id.is_uuid_v4",
    "payload.members_have_json_types", "name.within_max_length", "name.not_blank",
    "integration_id.not_empty", "integration_type.is_supported", "timezone.is_iana_name",
    "retries.within_bounds", "message_limit.within_bounds", "schedule.window_times_are_hh_mm",
    "schedule.window_starts_before_stop", "cycles.enabled_only_on_phone_call",
    "cycles.required_when_enabled", "cycles.mode_is_known", "cycles.max_iterations_within_bounds",
    "cycles.cooldown_minutes_within_bounds", "cycles.filter_lists_within_max_items",
    "cycles.filter_items_are_non_empty_strings", "cycles.filter_items_are_unique",
    "cycles.dates_are_iso", "cycles.start_date_not_after_end_date",
    "lookup.integration_belongs_to_agent", "lookup.integration_type_matches",
    "lookup.filter_tags_exist", "lookup.billing_limit_not_reached", "update.patch_is_object",
    "update.owner_fields_immutable", "update.cycles_enabled_immutable",
    "update.cycles_mode_immutable", "update.cycles_fields_need_enabled_cycles",
    "update.campaign_not_finished", "response.body_is_object", "response.sizes_within_caps",
    "response.required_members_present", "response.members_have_json_types",
    "response.values_have_formats", "response.maps_hold_strings",
    "error.status_is_an_error_status", "error.body_has_a_known_shape",
    "path.campaign_id_is_positive_integer", "path.contact_id_is_positive_integer",
    "path.thread_id_is_url_safe", "header.idempotency_key_is_visible_ascii",
    "lifecycle.status_is_known", "lifecycle.action_is_known", "lifecycle.transition_is_allowed",
    "lifecycle.billing_limit_allows_start",
})  # fmt: skip

# Body rules no defect of a body can show, each with why.
NO_DEFECT_OF_A_BODY = {
    # It judges the `status` argument a server passes with the patch, not the patch.
    "update.status_is_a_campaign_status",
}

# How many bodies each kind of defect draws (derandomized): enough to reach each rule it can.
DRAWN_PER_KIND = 8
DRAWN_PER_PATCH_KIND = 4

RULE_IDS = [info.id for info in catalogue()]


@functools.cache
def rules_the_defects_reach() -> frozenset[str]:
    """The ids of the rules whose violations the strategies' defects give, creation and update."""
    reached: set[str] = set()
    for kind in cs.DEFECT_KINDS:
        for body, _, _ in draw(cs.invalid_create_payloads(kinds=(kind,)), DRAWN_PER_KIND):
            reached |= {violation.rule for violation in validate_create(body).violations}
    for base in sorted(BASES):
        existing = validate_create(payload(base)).value
        assert existing is not None
        for kind in cs.PATCH_DEFECT_KINDS:
            try:
                patches = cs.invalid_update_patches(existing, kinds=(kind,))
            except ValueError:  # the kind does not fit this campaign
                continue
            for patch, status, _, _ in draw(patches, DRAWN_PER_PATCH_KIND):
                result = validate_update(existing, patch, status=status)
                reached |= {violation.rule for violation in result.violations}
    return frozenset(reached)


@pytest.mark.parametrize("rule", RULE_IDS)
def test_the_rule_has_its_case_file(rule: str) -> None:
    assert (CASES_DIR / f"{rule}.json").is_file(), (
        f"rule {rule} has no case file: add tests/cases/{rule}.json, citing the rule's source, "
        "with cases on both sides of it (format: tests/cases_support.py)"
    )


@pytest.mark.parametrize("rule", RULE_IDS)
def test_the_rule_has_its_changelog_line(rule: str) -> None:
    if rule in NAMED_BEFORE_THE_CHANGELOG_DID:
        return
    named = re.search(rf"(?<![\w.]){re.escape(rule)}(?!\w)", CHANGELOG.read_text(encoding="utf-8"))
    assert named, (
        f"rule {rule} has no line in CHANGELOG.md: add one under '## Unreleased' naming "
        f"`{rule}` and what it refuses, in the past tense"
    )


@pytest.mark.parametrize(
    "rule", [rule.id for rules in (CREATE_RULES, UPDATE_RULES) for rule in rules]
)
def test_a_kind_of_defect_reaches_the_rule(rule: str) -> None:
    if rule in NO_DEFECT_OF_A_BODY:
        assert rule not in rules_the_defects_reach(), f"{rule} is reached: drop it from the list"
        return
    table = (
        "_DEFECTS in strategies/_defects.py"
        if rule in {r.id for r in CREATE_RULES}
        else ("_PATCH_DEFECTS in strategies/_patches.py")
    )
    assert rule in rules_the_defects_reach(), (
        f"no kind of defect of campaign_rules.strategies draws a body that rule {rule} refuses: "
        f"add one to {table} (a function drawing a valid body with that one defect and its "
        "expected key and field), or, if no body can show it, list it in NO_DEFECT_OF_A_BODY "
        "with the reason"
    )


def test_the_lists_name_only_rules_of_the_table() -> None:
    assert set(NAMED_BEFORE_THE_CHANGELOG_DID) <= set(RULE_IDS)
    assert set(NO_DEFECT_OF_A_BODY) <= set(RULE_IDS)
