"""Rules on the single-valued members of the payload (spec 2.1, 4.1 rule 1, 8)."""

from __future__ import annotations

from typing import Final

from campaign_rules._campaign.document import Document
from campaign_rules._core.enums import IntegrationType
from campaign_rules._core.findings import ready
from campaign_rules._core.formats import is_blank
from campaign_rules._core.limits import (
    CHANNEL_OF_FIELD,
    FIELDS_OF_OTHER_CHANNELS,
    MESSAGE_LIMIT,
    NAME_MAX_LENGTH,
    RETRIES,
)
from campaign_rules._core.timezones import is_timezone_name
from campaign_rules._core.violations import Finding
from campaign_rules._rules._common import integer_outside

__all__ = [
    "agent_id_is_uuid_v4",
    "channel_fields_match_integration_type",
    "integration_id_not_empty",
    "integration_type_is_supported",
    "message_limit_within_bounds",
    "name_not_blank",
    "name_within_max_length",
    "retries_within_bounds",
    "timezone_is_iana_name",
]

# Each rule says one sentence at one field (the channel rule one for each field), so its finding
# is made once, at import, and given each time: the runner may then give again the violation it
# made of it, and no sentence is built anew at each use.
_NAME_TOO_LONG: Final = ready("name", f"name must be at most {NAME_MAX_LENGTH} characters")
_NAME_BLANK: Final = ready("name", "name must not be empty or only white space")
_AGENT_ID_NOT_UUID_V4: Final = ready("agent_id", "agent_id must be a UUID v4 in 8-4-4-4-12 form")
_INTEGRATION_ID_EMPTY: Final = ready("integration_id", "integration_id must not be empty")
_UNSUPPORTED_TYPE: Final = ready(
    "integration_type",
    f"integration_type must be one of {', '.join(channel.value for channel in IntegrationType)}",
)
_NOT_A_TIMEZONE: Final = ready("timezone", "timezone must be an IANA time zone name")
_RETRIES_OUTSIDE: Final = ready("retries", RETRIES.must_be("retries"))
_MESSAGE_LIMIT_OUTSIDE: Final = ready("message_limit", MESSAGE_LIMIT.must_be("message_limit"))
_FOR_ITS_CHANNEL_ONLY: Final = {
    name: ready(name, f"{name} is for {channel.value} campaigns only")
    for name, channel in CHANNEL_OF_FIELD.items()
}


def name_within_max_length(doc: Document, findings: list[Finding]) -> None:
    """Counts the code points of a string `name` (another type is the type rule's)."""
    name = doc.name_text
    if name is not None and len(name) > NAME_MAX_LENGTH:
        findings.append(_NAME_TOO_LONG)


def name_not_blank(doc: Document, findings: list[Finding]) -> None:
    """Strips `_core.limits.WHITESPACE` from a string `name` within the length limit.

    A longer one is `name_within_max_length`'s; another type is the type rule's.
    """
    name = doc.name_text
    if name is not None and len(name) <= NAME_MAX_LENGTH and is_blank(name):
        findings.append(_NAME_BLANK)


def agent_id_is_uuid_v4(doc: Document, findings: list[Finding]) -> None:
    """Reports a string that the document did not keep as its `agent_id`.

    The document keeps one only when `is_uuid_v4` accepts it; another type is the type rule's.
    """
    if doc.agent_id is None and doc.agent_id_text is not None:
        findings.append(_AGENT_ID_NOT_UUID_V4)


def integration_id_not_empty(doc: Document, findings: list[Finding]) -> None:
    """Reports only a string of length zero: white space is an id, another type the type rule's."""
    if doc.integration_id is None and doc.integration_id_text == "":
        findings.append(_INTEGRATION_ID_EMPTY)


def integration_type_is_supported(doc: Document, findings: list[Finding]) -> None:
    """Reports a string the document could not read as a channel (`Document.channel` is `None`)."""
    if doc.channel is None and doc.integration_type_text is not None:
        findings.append(_UNSUPPORTED_TYPE)


def timezone_is_iana_name(doc: Document, findings: list[Finding]) -> None:
    """Looks a string up in the zone names read once (`_core.timezones`): it opens no file."""
    timezone = doc.timezone_text
    if timezone is not None and not is_timezone_name(timezone):
        findings.append(_NOT_A_TIMEZONE)


def retries_within_bounds(doc: Document, findings: list[Finding]) -> None:
    """Reads a JSON integer, an integral float included, against `_core.limits.RETRIES`.

    A boolean or a value of another type is the type rule's.
    """
    if integer_outside(doc.root.get("retries"), RETRIES):
        findings.append(_RETRIES_OUTSIDE)


def message_limit_within_bounds(doc: Document, findings: list[Finding]) -> None:
    """Reads a JSON integer, an integral float included, against `_core.limits.MESSAGE_LIMIT`.

    A boolean or a value of another type is the type rule's.
    """
    if integer_outside(doc.root.get("message_limit"), MESSAGE_LIMIT):
        findings.append(_MESSAGE_LIMIT_OUTSIDE)


def channel_fields_match_integration_type(doc: Document, findings: list[Finding]) -> None:
    """Runs on a known channel; reports each field of another one, whatever its value, at its name.

    The fields and their channels are `_core.limits.CHANNEL_OF_FIELD`, and by channel
    `FIELDS_OF_OTHER_CHANNELS`; `null` counts as sent.
    """
    if doc.channel is None:
        return
    for name in FIELDS_OF_OTHER_CHANNELS[doc.channel]:
        if name in doc.root:
            findings.append(_FOR_ITS_CHANNEL_ONLY[name])
