"""`request_fingerprint` (spec 4.1 rule 2; decision D-fingerprint).

Examples at the edges; `tests/property/test_request_properties.py` has the properties.
"""

from __future__ import annotations

import decimal
import hashlib
import json
import math

import pytest

from campaign_rules import ErrorKey
from campaign_rules._core.limits import FINGERPRINT_MAX_INTEGER_BITS
from campaign_rules.idempotency import FingerprintResult, request_fingerprint
from tests.support import label


def fingerprint(body: object, **kwargs: object) -> str:
    result = request_fingerprint(body, **kwargs)
    assert result.ok, result.violations
    assert type(result.value) is str
    return result.value


def refused(body: object, **kwargs: object) -> bool:
    result = request_fingerprint(body, **kwargs)
    assert type(result) is FingerprintResult
    if result.ok:
        return False
    assert result.keys == (ErrorKey.INVALID_REQUEST,)
    assert result.status == 400
    assert result.value is None
    assert result.envelope()["message"] == (
        "the request body is not plain JSON data and cannot be made idempotent"
    )
    return True


class TestCanonicalForm:
    def test_the_digest_is_sha256_of_the_documented_text(self) -> None:
        body = {"b": [1, 2.5, None, True], "a": "é\n"}
        text = '["POST","/campaigns",{"a":"\\u00e9\\n","b":[1,2.5,null,true]}]'
        assert fingerprint(body) == hashlib.sha256(text.encode()).hexdigest()

    def test_key_order_and_white_space_do_not_count(self) -> None:
        texts = [
            '{"name": "x", "retries": 2, "cycles": {"enabled": false, "mode": "cooldown"}}',
            '{"cycles":{"mode":"cooldown","enabled":false},"retries":2,"name":"x"}',
            '{\n  "retries" : 2 ,\n\t"name":"x",  "cycles" : '
            '{ "enabled":false,"mode":"cooldown"}\n}',
        ]
        assert len({fingerprint(json.loads(text)) for text in texts}) == 1

    @pytest.mark.parametrize(
        ("one", "other"),
        [(1, 1.0), (0, -0.0), (0, 0.0), (10**20, 1e20), ([1.0, {"a": 2.0}], [1, {"a": 2}])],
        ids=repr,
    )
    def test_an_integral_float_is_the_integer(self, one: object, other: object) -> None:
        assert fingerprint(one) == fingerprint(other)

    @pytest.mark.parametrize(
        ("one", "other"),
        [
            (1, 2),
            (1, 1.5),
            (2**53, 2**53 + 1),
            (1, "1"),
            (1, True),
            (0, False),
            (None, False),
            ("", None),
            ([], {}),
            ([1, 2], [2, 1]),
            ({"a": 1}, {"a": 1, "b": None}),
            ({"a": 1}, {"A": 1}),
            ("é", "e\u0301"),
            ("\ud800", "\udc00"),
        ],
        ids=repr,
    )
    def test_a_different_value_is_a_different_fingerprint(self, one: object, other: object) -> None:
        assert fingerprint(one) != fingerprint(other)

    def test_a_surrogate_pair_is_the_character_it_encodes(self) -> None:
        # D-fingerprint: both are the JSON text "\ud83d\ude00", which every decoder reads as 😀.
        assert fingerprint("\ud83d\ude00") == fingerprint("😀")
        assert fingerprint(json.loads('"\\ud83d\\ude00"')) == fingerprint("😀")

    def test_method_and_path_count(self) -> None:
        body = {"name": "x"}
        base = fingerprint(body)
        assert fingerprint(body, method="PATCH") != base
        assert fingerprint(body, path="/campaigns/1") != base
        assert fingerprint(body, method="POST", path="/campaigns") == base

    def test_subclasses_are_read_as_their_base_values(self) -> None:
        class Odd(dict):  # type: ignore[type-arg]
            def items(self):  # type: ignore[no-untyped-def]
                raise AssertionError("an override ran")

        class Text(str):
            def __str__(self) -> str:
                raise AssertionError("an override ran")

        assert fingerprint(Odd({Text("a"): Text("b")})) == fingerprint({"a": "b"})

    def test_the_body_is_not_changed(self) -> None:
        body = {"b": [1.0, {"z": 1, "a": 2}], "a": None}
        before = json.dumps(body)
        fingerprint(body)
        assert json.dumps(body) == before


class TestNotPlainJson:
    def test_depth_64_is_read_and_65_is_not(self) -> None:
        # The body sits at depth 1 inside [method, path, body].
        ok: object = 0
        for _ in range(63):
            ok = [ok]
        assert not refused(ok)
        assert refused([ok])

    def test_100_000_values_are_read_and_one_more_is_not(self) -> None:
        # [method, path, body] and the two strings are 3 values; the body array is one.
        assert not refused([0] * (100_000 - 4))
        assert refused([0] * (100_000 - 3))

    def test_integers_of_the_max_bits_are_read_and_one_bit_more_are_not(self) -> None:
        bits = FINGERPRINT_MAX_INTEGER_BITS
        assert not refused(2**bits - 1)
        assert not refused(-(2**bits) + 1)
        assert refused(2**bits)
        assert refused(10**5000)

    @pytest.mark.parametrize(
        "body",
        [
            math.nan,
            math.inf,
            -math.inf,
            {"a": [1, math.nan]},
            {1: "a"},
            {None: 1},
            {("a",): 1},
            (1, 2),
            {1, 2},
            decimal.Decimal("1.5"),
            b"x",
            object(),
            1e400,
        ],
        ids=label,
    )
    def test_values_json_cannot_hold(self, body: object) -> None:
        assert refused(body)

    def test_a_cycle_is_refused(self) -> None:
        looped: list[object] = []
        looped.append(looped)
        assert refused(looped)
        mapping: dict[str, object] = {}
        mapping["self"] = mapping
        assert refused(mapping)

    def test_a_shared_value_that_doubles_each_level_is_refused_quickly(self) -> None:
        value: object = [0]
        for _ in range(60):
            value = [value, value]  # 2**60 leaves if walked naively
        assert refused(value)

    def test_two_members_of_one_name_are_refused(self) -> None:
        class Same(str):
            __hash__ = object.__hash__

            def __eq__(self, other: object) -> bool:
                return other is self

        assert refused({"a": 1, Same("a"): 2})

    @pytest.mark.parametrize("method", [None, 1, b"POST"], ids=repr)
    def test_a_method_or_path_that_is_not_text(self, method: object) -> None:
        assert refused({}, method=method)
        assert refused({}, path=method)
