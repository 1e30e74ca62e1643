"""The creation rules `_rules.validation` leaves out of a document: each finds nothing in it.

Source: issues 22 and 30. A creation or update runs only the rules whose facts (`When`, in their
row of the table) its document has (`_rules.validation._create_rules`), so a rule left out must find
nothing, whatever the input; the violations are then those of the whole table. Run on both
builds, for generated, hostile and matrix inputs. A row of the table (issue 38) has no guard
of its own: the facts it reads in are its gate, so the comparison of the whole table with the
rules chosen is what holds it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from campaign_rules import strategies as cs
from campaign_rules._campaign.document import Document
from campaign_rules._rules.scope import Scope
from campaign_rules._rules.table import CREATE_RULES
from campaign_rules._rules.validation import _create_rules
from tests import strategies_support as parts
from tests.adversarial_support import FIELDS, HOSTILE, body_with
from tests.property import strategies as s
from tests.support import BASES, HostileDict, payload


def said(findings: list[Any]) -> list[tuple[object, ...]]:
    """What each finding says: its field, message and pointer."""
    return [(finding.field, finding.message, finding.pointer) for finding in findings]


def assert_left_out_rules_find_nothing(wire: Any) -> None:
    """The rules chosen for `wire` are in table order, and the others find nothing in it."""
    doc = Document(wire)
    chosen = _create_rules(doc)
    assert chosen == tuple(rule for rule in CREATE_RULES if rule in chosen)
    for rule in CREATE_RULES:
        # A row's `check` tests the facts it reads in, and then finds what the plan the runner calls
        # finds; a function rule keeps its own guard.
        findings: list[Any] = []
        rule.check(doc, findings)
        if rule not in chosen:
            assert findings == [], rule.id
        elif rule.row is not None:
            planned: list[Any] = []
            rule.row.judge(doc, planned)
            assert said(findings) == said(planned), rule.id


@given(st.one_of(cs.create_payloads(), s.hostile_payloads, s.spliced_payloads(), parts.json_like))
def test_a_rule_left_out_finds_nothing(wire: Any) -> None:
    assert_left_out_rules_find_nothing(wire)


@given(cs.invalid_create_payloads())
def test_a_rule_left_out_finds_nothing_beside_one_defect(triple: cs.Defect) -> None:
    # Each defect is one violation of one rule: of every kind of rule the tables leave out.
    assert_left_out_rules_find_nothing(triple[0])


def test_a_rule_left_out_finds_nothing_in_the_hostile_matrix() -> None:
    for field, (base, _) in FIELDS.items():
        for hostile in HOSTILE:
            assert_left_out_rules_find_nothing(body_with(base, field, hostile.value))


def test_every_base_payload_leaves_the_shape_rules_out() -> None:
    # A clean document (`Document.sites_clean`) is the common case the tables are made for.
    for base in BASES:
        doc = Document(payload(base))
        assert doc.sites_clean, base
        assert not any(rule.scope is Scope.UNCLEAN_SITES for rule in _create_rules(doc))


def test_an_object_the_shape_rules_must_read_keeps_them() -> None:
    # Each of these has an object that a shape rule reads (of them, only a dict subclass, read
    # as a copy, holds nothing that one finds).
    window = {"startTime": "09:00", "stopTime": "17:00", "active": True}
    for wire in (
        [],
        HostileDict(payload()),
        payload(colour="red"),
        payload(name=None),
        payload(retries="3"),
        payload(scheduling={"mon": {**window, "colour": "red"}}),
        payload(scheduling={"mon": {"startTime": "09:00", "active": True}}),
        payload(scheduling={"mon": {**window, "active": "yes"}}),
        payload(scheduling={"mon": HostileDict(window)}),
        payload(scheduling={1: window}),
        payload(cycles={"enabled": False, "mode": "cooldown"}),
    ):
        doc = Document(wire)
        assert not doc.sites_clean, wire
        assert _create_rules(doc)[:4] == CREATE_RULES[:4]
        assert_left_out_rules_find_nothing(wire)
