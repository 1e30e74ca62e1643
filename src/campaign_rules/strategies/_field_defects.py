"""Defects of the body and of its single-valued members."""

from __future__ import annotations

import uuid

from hypothesis import strategies as st

from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.json import member_path
from campaign_rules._core.limits import (
    CHANNEL_OF_FIELD,
    MESSAGE_LIMIT,
    NAME_MAX_LENGTH,
    OBJECT_MAX_MEMBERS,
    RETRIES,
    TIMEZONE_NAME_MAX_LENGTH,
    WHITESPACE,
)
from campaign_rules.strategies._defect_parts import (
    NOT_STRINGS,
    Defect,
    bad_integers,
    unknown_names,
)
from campaign_rules.strategies._payloads import channel_fields, create_payloads
from campaign_rules.strategies._tables import (
    CHANNELS,
    INVALID_REQUEST,
    REQUIRED_MEMBERS,
    ZONES,
)
from campaign_rules.strategies._texts import non_empty_texts, texts, uuid4_texts
from campaign_rules.strategies._values import json_like, json_scalars, non_string_keys


def body_not_an_object(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    value = draw(
        st.sampled_from(
            ([base], list(base), tuple(base.items()), "body", 1, None, 1.5, True, b"{}")
        )
    )
    return value, INVALID_REQUEST, None


def required_missing(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    name = draw(st.sampled_from(REQUIRED_MEMBERS))
    del base[name]
    return base, INVALID_REQUEST, name


def name_too_long(draw: st.DrawFn) -> Defect:
    # Blank or not: a name over 255 is reported as too long only (D-blank-name).
    size = draw(st.one_of(st.just(NAME_MAX_LENGTH + 1), st.integers(NAME_MAX_LENGTH + 1, 2000)))
    unit = draw(st.one_of(non_empty_texts, st.sampled_from(WHITESPACE)))
    name = (unit * size)[:size]
    return draw(create_payloads()) | {"name": name}, INVALID_REQUEST, "name"


def name_blank(draw: st.DrawFn) -> Defect:
    name = draw(
        st.one_of(
            st.text(st.sampled_from(WHITESPACE), max_size=8),
            st.builds(
                str.__mul__,
                st.sampled_from(WHITESPACE),
                st.sampled_from((0, 1, NAME_MAX_LENGTH - 1, NAME_MAX_LENGTH)),
            ),
        )
    )
    return draw(create_payloads()) | {"name": name}, INVALID_REQUEST, "name"


@st.composite
def malformed_agent_ids(draw: st.DrawFn) -> str:
    good = draw(uuid4_texts)
    return draw(
        st.sampled_from(
            (
                str(uuid.uuid1()),
                str(uuid.uuid3(uuid.NAMESPACE_DNS, "x")),
                str(uuid.uuid5(uuid.NAMESPACE_DNS, "x")),
                good[:14] + draw(st.sampled_from("0123567")) + good[15:],
                good[:19] + draw(st.sampled_from("01234567cdefCDEF")) + good[20:],
                "{" + good + "}",
                "urn:uuid:" + good,
                good.replace("-", ""),
                good + " ",
                " " + good,
                good[:-1],
                good[:8] + "_" + good[9:],
                good.replace("4", "\uff14", 1),
                "",
                "not-a-uuid",
            )
        )
    )


def agent_id_malformed(draw: st.DrawFn) -> Defect:
    return (
        draw(create_payloads()) | {"agent_id": draw(malformed_agent_ids())},
        INVALID_REQUEST,
        "agent_id",
    )


def integration_id_empty(draw: st.DrawFn) -> Defect:
    return draw(create_payloads()) | {"integration_id": ""}, INVALID_REQUEST, "integration_id"


def integration_type_unsupported(draw: st.DrawFn) -> Defect:
    value = draw(
        st.one_of(
            st.sampled_from(("sms", "PHONE_CALL", "WhatsApp", "", "phone call", "whatsapp ")),
            texts.filter(lambda text: text not in CHANNELS),
        )
    )
    return (
        draw(create_payloads()) | {"integration_type": value},
        ErrorKey.INVALID_INTEGRATION_TYPE,
        "integration_type",
    )


BAD_TIMEZONES = (
    "Mars/Base",
    "europe/madrid",
    "EUROPE/MADRID",
    "posix/Europe/Paris",
    "right/UTC",
    "../zoneinfo/UTC",
    "/usr/share/zoneinfo/UTC",
    "Europe//Paris",
    "Europe/Paris/",
    "localtime",
    "",
    "UTC\x00",
    " UTC",
    "A" * (TIMEZONE_NAME_MAX_LENGTH + 1),  # longer than any name: refused unread (D-timezone)
    "zone.tab",
    "tzdata.zi",
    "__init__.py",
    "Europe/__init__.py",
    "./UTC",
)


def timezone_unknown(draw: st.DrawFn) -> Defect:
    value = draw(st.one_of(st.sampled_from(BAD_TIMEZONES), texts.filter(lambda t: t not in ZONES)))
    return draw(create_payloads()) | {"timezone": value}, INVALID_REQUEST, "timezone"


def retries_bad(draw: st.DrawFn) -> Defect:
    return (
        draw(create_payloads()) | {"retries": draw(bad_integers(RETRIES))},
        INVALID_REQUEST,
        "retries",
    )


def message_limit_bad(draw: st.DrawFn) -> Defect:
    value = draw(bad_integers(MESSAGE_LIMIT))
    return draw(create_payloads()) | {"message_limit": value}, INVALID_REQUEST, "message_limit"


def string_member_not_a_string(draw: st.DrawFn) -> Defect:
    channel = draw(st.sampled_from(CHANNELS))
    own = channel_fields(channel)
    strings = ("name", "description", "agent_id", "integration_id", "integration_type", "timezone")
    name = draw(st.sampled_from((*strings, *own)))
    base = draw(create_payloads(channel))
    return base | {name: draw(NOT_STRINGS)}, INVALID_REQUEST, name


def text_holds_lone_surrogate(draw: st.DrawFn) -> Defect:
    # A visible character first, so that a name is neither blank nor empty: the lone surrogate
    # is the one defect (D-lone-surrogates).
    channel = draw(st.sampled_from(CHANNELS))
    name = draw(
        st.sampled_from(("name", "description", "integration_id", *channel_fields(channel)))
    )
    surrogate = chr(draw(st.integers(0xD800, 0xDFFF)))
    value = "x" + draw(st.sampled_from(("", " ", "y"))) + surrogate
    return draw(create_payloads(channel)) | {name: value}, INVALID_REQUEST, name


def channel_field_on_wrong_channel(draw: st.DrawFn) -> Defect:
    channel = draw(st.sampled_from(CHANNELS))
    others = tuple(name for name in CHANNEL_OF_FIELD if name not in channel_fields(channel))
    name = draw(st.sampled_from(others))
    value = draw(st.one_of(st.just(""), texts))
    return draw(create_payloads(channel)) | {name: value}, INVALID_REQUEST, name


def unknown_member(draw: st.DrawFn) -> Defect:
    name = draw(unknown_names)
    base = draw(create_payloads())
    return base | {name: draw(json_like)}, INVALID_REQUEST, member_path(None, name)


def member_name_not_a_string(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    base[draw(non_string_keys)] = draw(json_scalars)
    return base, INVALID_REQUEST, None


def payload_too_large(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads())
    extra = draw(
        st.integers(OBJECT_MAX_MEMBERS + 1 - len(base), OBJECT_MAX_MEMBERS + 16 - len(base))
    )
    base.update({f"extra_{index}": index for index in range(extra)})
    return base, INVALID_REQUEST, None
