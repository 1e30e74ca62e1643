"""`parse_authorization` (spec 5; decision D-authorization)."""

from __future__ import annotations

import pytest

from campaign_rules._core.limits import AUTHORIZATION_MAX_LENGTH
from campaign_rules.requests import AuthorizationResult, parse_authorization

VISIBLE = "".join(map(chr, range(0x21, 0x7F)))
# The longest key the longest header holds: the header less "api-key ".
LONGEST_KEY = "k" * (AUTHORIZATION_MAX_LENGTH - len("api-key "))


class TestAccepted:
    @pytest.mark.parametrize(
        ("header", "key"),
        [
            ("api-key abc", "abc"),
            ("api-key k", "k"),
            ("API-KEY abc", "abc"),
            ("Api-Key abc", "abc"),
            ("aPI-kEY abc", "abc"),
            ("api-key   abc", "abc"),
            ("api-key " + VISIBLE, VISIBLE),
            ("api-key sk_live_AbC", "sk_live_AbC"),
            ("api-key api-key", "api-key"),
            ("  api-key abc", "abc"),
            ("api-key abc  ", "abc"),
            ("\tapi-key abc\t", "abc"),
            (
                "api-key " + "k" * (AUTHORIZATION_MAX_LENGTH - 8),
                "k" * (AUTHORIZATION_MAX_LENGTH - 8),
            ),
        ],
        ids=repr,
    )
    def test_the_key_is_kept_exactly(self, header: str, key: str) -> None:
        result = parse_authorization(header)
        assert result == AuthorizationResult(value=key, message=None)
        assert result.ok
        assert result.status == 200
        assert result.body() is None

    def test_a_str_subclass_is_read_as_its_text(self) -> None:
        class Header(str):
            def lower(self) -> str:
                raise AssertionError("an override ran")

            def strip(self, chars: str | None = None) -> str:
                raise AssertionError("an override ran")

        result = parse_authorization(Header("api-key abc"))
        assert result.value == "abc"
        assert type(result.value) is str


TOO_LONG = f"the Authorization header must be at most {AUTHORIZATION_MAX_LENGTH} characters"

REFUSED = [
    (None, "the Authorization header is missing"),
    ("", "the Authorization header must be `api-key` followed by the key"),
    ("   ", "the Authorization header must be `api-key` followed by the key"),
    ("api-key", "the Authorization header has no key after `api-key`"),
    ("api-key ", "the Authorization header has no key after `api-key`"),
    ("api-key    ", "the Authorization header has no key after `api-key`"),
    ("api-keyabc", "the Authorization header must be `api-key` followed by the key"),
    ("api-keys abc", "the Authorization header must be `api-key` followed by the key"),
    ("api-key\tabc", "the Authorization header needs a space between `api-key` and the key"),
    ("api-key\u00a0abc", "the Authorization header needs a space between `api-key` and the key"),
    ("api_key abc", "the Authorization header must be `api-key` followed by the key"),
    ("apikey abc", "the Authorization header must be `api-key` followed by the key"),
    ("Bearer abc", "the Authorization header must be `api-key` followed by the key"),
    ("Basic YWxhZGRpbjpvcGVu", "the Authorization header must be `api-key` followed by the key"),
    ("abc", "the Authorization header must be `api-key` followed by the key"),
    ("api-\u212aey abc", "the Authorization header must be `api-key` followed by the key"),
    ("\u0430pi-key abc", "the Authorization header must be `api-key` followed by the key"),
    ("api-key a b", "the API key must be visible ASCII characters without spaces"),
    ("api-key a\tb", "the API key must be visible ASCII characters without spaces"),
    ("api-key abc\x00", "the API key must be visible ASCII characters without spaces"),
    ("api-key abc\x7f", "the API key must be visible ASCII characters without spaces"),
    ("api-key clé", "the API key must be visible ASCII characters without spaces"),
    ("api-key \ud800", "the API key must be visible ASCII characters without spaces"),
    ("api-key abc\r\n", "the API key must be visible ASCII characters without spaces"),
    ("api-key " + "k" * (AUTHORIZATION_MAX_LENGTH - 7), TOO_LONG),
    ("x" * 10_000_000, TOO_LONG),
    (b"api-key abc", "the Authorization header must be text"),
    (42, "the Authorization header must be text"),
    (["api-key abc"], "the Authorization header must be text"),
]


class TestRefused:
    @pytest.mark.parametrize(("header", "message"), REFUSED, ids=lambda v: repr(v)[:30])
    def test_unauthorized_with_the_credentials_body(self, header: object, message: str) -> None:
        result = parse_authorization(header)
        assert not result.ok
        assert result.value is None
        assert result.status == 401
        # spec 5 rule 3: exactly `{error: integer, message: string}`.
        assert result.body() == {"error": 401, "message": message}
        assert type(result.body()["error"]) is int

    @pytest.mark.parametrize(
        "header", ["Bearer sk_live_SECRET", "api-key sk_live SECRET", "api-key\tsk_live_SECRET"]
    )
    def test_the_message_never_repeats_the_header(self, header: str) -> None:
        assert "SECRET" not in parse_authorization(header).body()["message"]
