"""The object reading: an object of a body read against a declared shape, and a `Payload`'s root.

Generic: the shapes here are made up, not the campaign's, so what is tested is the reading
alone; the campaign's own objects are tested through the shape rules (tests/test_rules_shape.py).
"""

from __future__ import annotations

import collections

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_rules._campaign.document import Document
from campaign_rules._core.limits import OBJECT_MAX_MEMBERS
from campaign_rules._core.object_reading import MemberIs, ObjectKind, Payload, Site

KIND = ObjectKind({"label": ("string",), "count": ("integer",)}, required=("label",))
# A shape that declares no member: every member is read, none is checked.
OPEN = ObjectKind({})


class Text(str):
    """A `str` subclass, as a hostile caller's member name could be."""


def test_a_plain_object_is_its_own_members_and_clean_when_it_fits_its_shape() -> None:
    raw = {"label": "a", "count": 1}
    site = Site(None, raw, KIND)
    assert site.members is raw
    assert site.clean
    assert Payload(raw, KIND).root is raw


def test_an_unknown_member_a_missing_required_one_and_a_wrong_type_are_each_noted() -> None:
    site = Site("x", {"count": "1", "other": True}, KIND)
    assert (site.all_known, site.required_absent, site.to_type_check) == (False, 1, ("count",))
    assert not site.clean


def test_a_payload_that_is_no_object_or_too_large_has_no_members() -> None:
    too_large = {f"m{index}": index for index in range(OBJECT_MAX_MEMBERS + 1)}
    for payload in (None, [], "label", 3, too_large):
        assert Payload(payload, KIND).root == {}
    at_the_limit = {f"m{index}": index for index in range(OBJECT_MAX_MEMBERS)}
    assert Payload(at_the_limit, KIND).root is at_the_limit


def test_names_that_are_not_plain_strings_are_read_as_plain_ones_or_left_out() -> None:
    raw = {Text("label"): "a", 1: "b"}
    root = Payload(raw, KIND).root
    assert root == {"label": "a"}
    assert [type(name) for name in root] == [str]
    # The input is not changed: its names keep their classes.
    assert [type(name) for name in raw] == [Text, int]


def _members_at_their_places(payload: Payload) -> dict[str, object]:
    """The members `root_values` holds, by name."""
    return {name: payload.root_values[spec.index] for name, spec in KIND.specs.items()}


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ({"label": "a", "count": 1, "other": 2}, {"label": "a", "count": 1}),
        ({"count": 1}, {"label": None, "count": 1}),
        # A scan stopped on a name that is not a plain `str` kept the members before it: the
        # members read as the reader reads them replace them.
        ({"label": "a", Text("count"): 2, "other": 3}, {"label": "a", "count": 2}),
        ({"count": 1, 7: "x"}, {"label": None, "count": 1}),
        (collections.OrderedDict(label="b"), {"label": "b", "count": None}),
        # Too large to read, or no object: no member, whatever a scan met first.
        ({"label": "a"} | {f"m{index}": index for index in range(OBJECT_MAX_MEMBERS)}, {}),
        (
            {"label": "a", Text("x"): 0} | {f"m{index}": 0 for index in range(OBJECT_MAX_MEMBERS)},
            {},
        ),
        (["label"], {}),
    ],
)
def test_the_members_of_the_shape_are_kept_at_their_places(
    raw: object, kept: dict[str, object]
) -> None:
    payload = Payload(raw, KIND)
    expected = {name: kept.get(name) for name in KIND.specs}
    assert _members_at_their_places(payload) == expected
    for name, spec in KIND.specs.items():
        assert payload.root_values[spec.index] is payload.root.get(name)


def test_a_member_s_place_is_where_a_site_keeps_its_value_and_a_name_outside_is_refused() -> None:
    payload = Payload({"count": 2, "label": "b"}, KIND)
    assert [payload.root_values[KIND.place(name)] for name in ("count", "label")] == [2, "b"]
    assert [KIND.place(name) for name in KIND.shape] == list(range(len(KIND.shape)))
    with pytest.raises(ValueError, match="'nickname': not a member of the shape"):
        KIND.place("nickname")


@given(st.dictionaries(st.text(max_size=8) | st.builds(Text, st.text(max_size=8)), st.integers()))
def test_every_member_of_the_shape_is_at_its_place(raw: dict[str, object]) -> None:
    payload = Payload(raw, KIND)
    assert _members_at_their_places(payload) == {
        name: payload.root.get(name) for name in KIND.specs
    }


def test_a_dict_subclass_is_read_into_a_plain_dict_and_never_clean() -> None:
    raw = collections.OrderedDict(label="a")
    site = Site(None, raw, KIND)
    assert type(site.members) is dict
    assert site.members == {"label": "a"}
    assert not site.clean


def test_the_document_is_a_payload_of_the_campaigns_shape() -> None:
    body = {"name": "n", "retries": 2}
    document = Document(body)
    assert isinstance(document, Payload)
    assert document.root is body
    assert document.root_site.members is body


@given(st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=4), max_size=8))
def test_the_root_holds_every_string_named_member_as_given(raw: dict[str, object]) -> None:
    assert Payload(raw, KIND).root == raw


class Flag(int):
    pass


@pytest.mark.parametrize(
    ("root", "holds"),
    [
        ({"block": {"on": True}}, True),
        ({"block": {"on": True, "other": 1}, "name": "x"}, True),
        ({"block": collections.UserDict({"on": True})}, False),  # no JSON object
        ({"block": {"on": False}}, False),
        ({"block": {"on": 1}}, False),  # an integer is no boolean, though `1 == True`
        ({"block": {"on": Flag(1)}}, False),
        ({"block": {"on": "true"}}, False),
        ({"block": {"on": None}}, False),
        ({"block": {}}, False),  # absent
        ({"block": [True]}, False),
        ({"block": None}, False),
        ({"on": True}, False),  # at the wrong depth
        ({}, False),
        ({"block": {f"m{index}": 0 for index in range(OBJECT_MAX_MEMBERS)} | {"on": True}}, False),
    ],
)
def test_a_member_is_a_boolean_only_when_present_of_its_type_and_equal(
    root: dict[str, object], holds: bool
) -> None:
    fact = MemberIs("/block/on", True)
    assert fact.holds(Payload(root, OPEN)) is holds


@pytest.mark.parametrize(
    ("value", "holds"),
    [
        ("cooldown", True),
        ("scheduled", False),
        ("Cooldown", False),
        (Text("cooldown"), True),  # read as the text it holds, as the reader reads it
        (Text("cooldown "), False),
        (Text("cooldown" * 1000), False),
        (b"cooldown", False),
        ("", False),
        (None, False),
    ],
)
def test_a_member_is_a_string_when_it_holds_that_text(value: object, holds: bool) -> None:
    fact = MemberIs("/mode", "cooldown")
    assert fact.holds(Payload({"mode": value}, OPEN)) is holds
    assert fact.holds_in({"mode": value}) is holds


@pytest.mark.parametrize(
    "pointer", ["", "cycles/enabled", "/", "/cycles/", "/a~1b", "/items/*", "/a/b/c", "//x"]
)
def test_a_member_fact_takes_a_pointer_of_plain_names_only(pointer: str) -> None:
    with pytest.raises(ValueError, match="not a pointer to a member"):
        MemberIs(pointer, True)


@given(st.dictionaries(st.text(max_size=3), st.none() | st.booleans() | st.integers() | st.text()))
def test_a_member_fact_reads_and_leaves_the_payload_as_given(block: dict[str, object]) -> None:
    root: dict[str, object] = {"block": block}
    before = repr(root)
    fact = MemberIs("/block/on", True)
    assert fact.holds(Payload(root, OPEN)) is (block.get("on") is True)
    assert repr(root) == before


def test_a_member_of_the_payload_itself_is_read_in_its_root() -> None:
    fact = MemberIs("/on", True)
    assert fact.holds(Payload({"on": True}, OPEN))
    assert not fact.holds(Payload({"block": {"on": True}}, OPEN))
    assert not fact.holds(Payload([True], OPEN))


def test_an_object_member_is_read_once_and_as_the_reader_reads_it() -> None:
    block = {"on": True}
    payload = Payload({"block": block, "list": [1], "": {"x": 1}}, OPEN)
    assert payload.object_at("block") is block
    assert payload.object_at("block") is block
    assert payload.object_at("list") is None
    assert payload.object_at("missing") is None
    assert payload.object_at("") == {"x": 1}  # the empty name is a name like any other
    assert Payload({"block": {1: "x", "on": True}}, OPEN).object_at("block") == {"on": True}


def test_an_object_asked_by_another_name_object_of_the_same_text_is_the_same_object() -> None:
    # Kept by the name's identity: a name of the same text that is another object reads the
    # member again, which gives an equal object (the same one, for a plain `dict`).
    block = collections.OrderedDict(on=True)  # a `dict` subclass: read into a plain copy
    payload = Payload({"block": block}, OPEN)
    first = payload.object_at("block")
    assert first == {"on": True}
    assert type(first) is dict
    assert payload.object_at("block") is first
    other_name = "".join(["blo", "ck"])
    assert other_name is not "block"  # noqa: F632
    assert payload.object_at(other_name) == first
    assert block == collections.OrderedDict(on=True)
