"""The object reading: an object of a body read against a declared shape, and a `Payload`'s root.

Generic: the shapes here are made up, not the campaign's, so what is tested is the reading
alone; the campaign's own objects are tested through the shape rules (tests/test_rules_shape.py).
"""

from __future__ import annotations

import collections

from hypothesis import given
from hypothesis import strategies as st

from campaign_rules._campaign.document import Document
from campaign_rules._core.limits import OBJECT_MAX_MEMBERS
from campaign_rules._core.object_reading import ObjectKind, Payload, Site

KIND = ObjectKind({"label": ("string",), "count": ("integer",)}, required=("label",))


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
