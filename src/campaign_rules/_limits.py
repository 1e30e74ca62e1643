"""Every bound, default and channel table of the rules, once, each with its source.

The rules, the value objects' defaults and the docs read these names; no other module writes
a bound as a literal. "spec N" is a section of `spec/campaign-outreach-api.md`; "D-x" is an
entry of `docs/decisions.md`, where the spec says "not shown" and the library decides.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

import attrs

from campaign_rules._enums import ContactStatus, IntegrationType

__all__ = [
    "CHANNEL_OF_FIELD",
    "CONTACT_STATUSES",
    "COOLDOWN_MINUTES",
    "DEFAULT_MESSAGE_LIMIT",
    "DEFAULT_RETRIES",
    "DEFAULT_TIMEZONE",
    "FIELD_PATH_MAX_LENGTH",
    "FILTER_LISTS",
    "FILTER_LIST_MAX_ITEMS",
    "MAX_ITERATIONS",
    "MESSAGE_LIMIT",
    "NAME_MAX_LENGTH",
    "OBJECT_MAX_MEMBERS",
    "RESPONSE_ARRAY_MAX_ITEMS",
    "RESPONSE_MAP_MAX_MEMBERS",
    "RESPONSE_OPAQUE_MAX_DEPTH",
    "RESPONSE_OPAQUE_MAX_VALUES",
    "RETRIES",
    "SCHEDULE_ONLY_CYCLES_FIELDS",
    "TIMEZONE_NAME_MAX_LENGTH",
    "VIOLATIONS_MAX",
    "WEEKDAYS",
    "WHITESPACE",
    "Bounds",
]


@attrs.frozen
class Bounds:
    """An inclusive range of integers, `low` to `high`."""

    low: int
    high: int

    def __contains__(self, value: int) -> bool:
        return self.low <= value <= self.high

    def describe(self) -> str:
        """Say the range in words, for messages: "from 0 to 5"."""
        return f"from {self.low} to {self.high}"


# spec 2.1, spec 8: `name` is at most 255 characters (counted in code points).
NAME_MAX_LENGTH: Final = 255

# spec 2.1: `timezone` is an IANA name, default America/Mexico_City.
DEFAULT_TIMEZONE: Final = "America/Mexico_City"
# D-timezone: no tzdata name is longer than 32 characters; longer input is refused unread.
TIMEZONE_NAME_MAX_LENGTH: Final = 64

# spec 2.1, spec 8: `retries` 0 to 5, default 1.
RETRIES: Final = Bounds(0, 5)
DEFAULT_RETRIES: Final = 1

# spec 2.1, spec 8: `message_limit` 1 to 10000, default 250.
MESSAGE_LIMIT: Final = Bounds(1, 10_000)
DEFAULT_MESSAGE_LIMIT: Final = 250

# spec 2.4, spec 8: `cycles.max_iterations` 2 to 12.
MAX_ITERATIONS: Final = Bounds(2, 12)

# spec 2.4, spec 8: `cycles.cooldown_minutes` 0 to 1440.
COOLDOWN_MINUTES: Final = Bounds(0, 1440)

# spec 4.1 rule 1: the channel each channel-only field belongs to.
CHANNEL_OF_FIELD: Final = {
    "first_message": IntegrationType.PHONE_CALL,
    "template": IntegrationType.WHATSAPP,
    "template_alt": IntegrationType.WHATSAPP,
}

# spec 2.3: the keys of a Schedule object, in week order.
WEEKDAYS: Final = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

# spec 2.4 rule 3: the cycles fields that only `scheduled` mode takes.
SCHEDULE_ONLY_CYCLES_FIELDS: Final = ("schedule", "schedule_start_date", "schedule_end_date")

# D-contact-statuses: the contact statuses of each channel, as the public service documents
# them; `cycles.filter_statuses` takes only those of the campaign's channel.
_S = ContactStatus
CONTACT_STATUSES: Final[Mapping[IntegrationType, frozenset[ContactStatus]]] = MappingProxyType({
    IntegrationType.PHONE_CALL: frozenset({
        _S.QUEUE, _S.SENDING, _S.FAILED, _S.RETRYING, _S.CONVERTED, _S.VOICEMAIL, _S.ANSWERED,
    }),
    IntegrationType.WHATSAPP: frozenset({
        _S.QUEUE, _S.SENDING, _S.SENT, _S.DELIVERED, _S.READ, _S.ACCEPTED, _S.REJECTED,
        _S.FAILED, _S.RETRYING, _S.CONVERTED,
    }),
})  # fmt: skip

# D-filter-lists: `cycles.filter_statuses` and `cycles.filter_tags` hold at most 100 items.
FILTER_LISTS: Final = ("filter_statuses", "filter_tags")
FILTER_LIST_MAX_ITEMS: Final = 100

# D-hostile-input: an object of the creation input has at most 13 members; one with more
# than 64 is refused as a whole, unread, so that a huge object costs no more than a small one.
OBJECT_MAX_MEMBERS: Final = 64

# D-hostile-input: a field path names at most this many characters of a member name.
FIELD_PATH_MAX_LENGTH: Final = 64

# D-hostile-input: a result reports at most this many violations.
VIOLATIONS_MAX: Final = 50

# D-response-caps: what a response reader reads at most. Documented objects keep the creation
# input's cap (OBJECT_MAX_MEMBERS); an array of a response holds at most 1,000 items, a free-form
# map (`extracted_data`) 1,000 members, and the opaque `analytics` 10,000 values, 32 levels deep.
RESPONSE_ARRAY_MAX_ITEMS: Final = 1_000
RESPONSE_MAP_MAX_MEMBERS: Final = 1_000
RESPONSE_OPAQUE_MAX_VALUES: Final = 10_000
RESPONSE_OPAQUE_MAX_DEPTH: Final = 32

# D-blank-name: the characters that make a name blank. These are exactly the characters that
# ECMAScript's `\s` matches, so a JSON Schema `pattern` can state the same rule.
WHITESPACE: Final = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
