"""Every bound, default and channel table of the rules, once, each with its source.

The rules, the value objects' defaults and the docs read these names; no other module writes
a bound as a literal. "spec N" is a section of the spec, shipped as
`_export/interface/campaign-outreach-api.md`; "D-x" is an entry of `docs/decisions.md`, where
the spec says "not shown" and the library decides.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from campaign_rules._core.enums import ContactStatus, CyclesMode, IntegrationType

__all__ = [
    "AUTHORIZATION_MAX_LENGTH",
    "AUTHORIZATION_SCHEME",
    "BODY_MAX_BYTES",
    "BODY_MAX_DEPTH",
    "CHANNEL_OF_FIELD",
    "CLOCK_NS",
    "CONTACT_STATUSES",
    "COOLDOWN_MINUTES",
    "COOLDOWN_MODE",
    "CYCLES_ENABLED",
    "DATE_TIME_FRACTION_MAX_DIGITS",
    "DATE_TIME_MAX_LENGTH",
    "DEFAULT_MESSAGE_LIMIT",
    "DEFAULT_RETRIES",
    "DEFAULT_TIMEZONE",
    "ERROR_STATUSES",
    "FIELDS_OF_OTHER_CHANNELS",
    "FIELD_MAX_LENGTH",
    "FIELD_PATH_MAX_LENGTH",
    "FILTER_LISTS",
    "FILTER_LIST_MAX_ITEMS",
    "FINGERPRINT_MAX_DEPTH",
    "FINGERPRINT_MAX_INTEGER_BITS",
    "FINGERPRINT_MAX_VALUES",
    "HTTP_STATUSES",
    "IDEMPOTENCY_CLAIM_SECONDS",
    "IDEMPOTENCY_IN_USE_RETRY_SECONDS",
    "IDEMPOTENCY_KEY_MAX_LENGTH",
    "IDEMPOTENCY_NOT_STORED_STATUSES",
    "IDEMPOTENCY_STORED_STATUSES",
    "IDEMPOTENCY_WINDOW_SECONDS",
    "JSON_INTEGERS",
    "LINE_MAX_BYTES",
    "MAX_ITERATIONS",
    "MESSAGE_LIMIT",
    "NAME_MAX_LENGTH",
    "NS_PER_SECOND",
    "OBJECT_MAX_MEMBERS",
    "PATCH_MAX_MEMBERS",
    "PATH_ID_MAX",
    "PATH_ID_MAX_DIGITS",
    "POINTER_OUTPUT_MAX_LENGTH",
    "RATE_LIMIT_BURST",
    "RATE_LIMIT_PERIOD_NS",
    "RATE_LIMIT_REQUESTS",
    "RATE_LIMIT_SWEEP_FLOOR",
    "RESPONSE_ARRAY_MAX_ITEMS",
    "RESPONSE_MAP_MAX_MEMBERS",
    "RESPONSE_OPAQUE_MAX_DEPTH",
    "RESPONSE_OPAQUE_MAX_VALUES",
    "RETRIES",
    "SCHEDULE_ONLY_CYCLES_FIELDS",
    "THREAD_ID_MAX_LENGTH",
    "TIMEZONE_NAME_MAX_LENGTH",
    "VIOLATIONS_MAX",
    "VISIBLE_ASCII",
    "WEEKDAYS",
    "WHITESPACE",
    "Bounds",
]


class Bounds:
    """An inclusive range of integers, `low` to `high`.

    A plain class rather than an attrs one: compiled with mypyc, an attrs class in a compiled
    module is a Python class, whose `in` costs far more than a native class's (D-compiled-build).
    """

    __slots__ = ("_words", "high", "low")

    def __init__(self, low: int, high: int) -> None:
        self.low = low
        self.high = high
        # Said once: each violation of a bound says it, and writing the two numbers out was
        # most of a message's cost (issue 22).
        self._words = f"from {low} to {high}"

    def __repr__(self) -> str:
        return f"Bounds({self.low}, {self.high})"

    def __contains__(self, value: int) -> bool:
        return self.low <= value <= self.high

    def describe(self) -> str:
        """Say the range in words, for messages: `Bounds(1, 3)` says "from 1 to 3"."""
        return self._words

    def must_be(self, subject: str) -> str:
        """Say that `subject` must be in the range, for messages: "tries must be from 1 to 3"."""
        return f"{subject} must be {self._words}"


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
# The same, by channel: the fields of the other channels, in the order above, which a campaign
# of the channel refuses. Typed as tuples of any length (see `FILTER_LISTS`); a plain `dict`: a
# channel hashes as its `str` value does (`StrEnum`), its hash kept in the string.
FIELDS_OF_OTHER_CHANNELS: Final[dict[IntegrationType, tuple[str, ...]]] = {
    channel: tuple(name for name, owner in CHANNEL_OF_FIELD.items() if owner is not channel)
    for channel in IntegrationType
}

# spec 2.3: the keys of a Schedule object, in week order.
WEEKDAYS: Final = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

# The facts of the cycles block the rules' rows name (`_rules.scope.When`), each a member of
# the payload (an RFC 6901 pointer) and the JSON value it holds when the fact holds (`MemberIs` of
# `_core.object_reading`): spec 2.4 rule 2, a block is enabled when its `enabled` is `true`
# (`false` or omitted, it is ignored); spec 2.4 rule 3, a block in `cooldown` mode has no
# schedule in force.
CYCLES_ENABLED: Final = ("/cycles/enabled", True)
COOLDOWN_MODE: Final = ("/cycles/mode", CyclesMode.COOLDOWN.value)

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
# Typed as a tuple of any length: compiled, a final tuple of fixed length is a C struct, boxed
# into a new tuple and walked with a generic iterator at every `for` over it.
FILTER_LISTS: Final[tuple[str, ...]] = ("filter_statuses", "filter_tags")
FILTER_LIST_MAX_ITEMS: Final = 100

# D-hostile-input: an object of the creation input has at most 13 members; one with more
# than 64 is refused as a whole, unread, so that a huge object costs no more than a small one.
OBJECT_MAX_MEMBERS: Final = 64

# D-merge-patch: a patch has at most this many members: the object limit less the members of a
# campaign (`_campaign.shape.CAMPAIGN_MEMBERS`), so that the merged campaign is never over the
# object limit and stays readable.
PATCH_MAX_MEMBERS: Final = 51

# D-body-limits: a request body read as text (`validate_create_json`) holds at most this many
# bytes of UTF-8 (1 MiB: a campaign body is a few kilobytes, and its free-text members have no
# bound of their own, D-channel-fields), and its values nest at most this deep (no campaign
# object is deeper than 4; 64 as D-fingerprint, far below any decoder's recursion limit).
BODY_MAX_BYTES: Final = 1_048_576
BODY_MAX_DEPTH: Final = 64

# D-hostile-input: a field path names at most `FIELD_PATH_MAX_LENGTH` characters of a member
# name, and holds at most `FIELD_MAX_LENGTH` characters in all: the longest path a shape of the
# spec gives, a caller's member of a window of the cycles schedule (`cycles.schedule.wed.`, 64
# characters and `…`). A deeper path is shortened to it (D-shown-text).
FIELD_PATH_MAX_LENGTH: Final = 64
FIELD_MAX_LENGTH: Final = len("cycles.schedule.wed.") + FIELD_PATH_MAX_LENGTH + len("…")

# D-shown-text: an output (`check --json`, the audit's rows) writes a violation's pointer whole
# up to this many characters, and shortened, marked, beyond.
POINTER_OUTPUT_MAX_LENGTH: Final = 256

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

# spec 5 rule 1: the `Authorization` value is the word `api-key`, space(s), and the key.
AUTHORIZATION_SCHEME: Final = "api-key"
# D-authorization: a longer `Authorization` value is refused unread, so that a hostile header
# costs no more than a real one. 4096 is half of the 8 KiB that common HTTP servers allow for
# one header line, and far above any API key.
AUTHORIZATION_MAX_LENGTH: Final = 4096
# D-authorization, D-idempotency-key: an API key and an `Idempotency-Key` are visible ASCII
# characters, 0x21 to 0x7E (RFC 9110 section 5.5 `VCHAR`, without obs-text).
VISIBLE_ASCII: Final = frozenset(map(chr, range(0x21, 0x7F)))

# D-rate-limit: the limiter's clock counts integer nanoseconds; `Retry-After` says seconds.
NS_PER_SECOND: Final = 1_000_000_000
# D-json-integers: a clock reading of more than 128 bits is no reading (the limiter refuses
# it, as it refuses a float), so that every wait it reports can be written, in nanoseconds and
# as a float of seconds. A clock's reading fits 64 bits (`time.monotonic_ns()`); the room above
# keeps a wrong reading far ahead a reading, which D-rate-limit keeps from harming other keys.
CLOCK_NS: Final = Bounds(-(2**128), 2**128)

# spec 4.2, 8: 12 requests per second per API key (create, contact retrieval; D-rate-scope adds
# thread retrieval). D-rate-limit: a GCRA of 12 per second with a burst of 12, on an integer
# nanosecond clock.
RATE_LIMIT_REQUESTS: Final = 12
RATE_LIMIT_PERIOD_NS: Final = NS_PER_SECOND
RATE_LIMIT_BURST: Final = 12
# D-rate-limit: below this many keys the limiter's table is never swept; above it, a sweep runs
# when the table has doubled since the last one, so sweeping costs O(1) amortized per request.
RATE_LIMIT_SWEEP_FLOOR: Final = 1024

# spec 4.1 rule 2, D-idempotency: a stored response is replayed for 24 hours.
IDEMPOTENCY_WINDOW_SECONDS: Final = 24 * 60 * 60
# D-idempotency-claim: a key claimed by a request that is still running, with no response stored
# yet, is released 60 seconds after the claim: the claim of a process that died (killed, or its
# machine lost) must not hold its key for the whole window, and a create's claim lives for one
# request, far shorter than a minute (the reference server's statements time out after seconds),
# so a live one is never taken over. A request that finds its key claimed is told to come back
# in 1 second (`Retry-After`): a create takes milliseconds, and one second is the least
# `Retry-After` can say.
IDEMPOTENCY_CLAIM_SECONDS: Final = 60
IDEMPOTENCY_IN_USE_RETRY_SECONDS: Final = 1
# D-idempotency-key: 1 to 255 visible ASCII characters (Stripe's maximum; a UUID is 36).
IDEMPOTENCY_KEY_MAX_LENGTH: Final = 255

# RFC 9110 section 15: an HTTP status is a three-digit integer from 100 to 599.
HTTP_STATUSES: Final = range(100, 600)
# spec 7, D-response-violations: an error body comes with a 4xx or 5xx status.
ERROR_STATUSES: Final = range(400, 600)
# D-idempotency: the statuses whose response is stored under its key and replayed (2xx, 4xx,
# 5xx: the request began to run), less those given before it ran: 400 (the body was refused,
# so the client may fix it and retry with the same key), 401 and 429.
IDEMPOTENCY_NOT_STORED_STATUSES: Final = frozenset({400, 401, 429})
IDEMPOTENCY_STORED_STATUSES: Final = frozenset(
    status
    for status in (*range(200, 300), *ERROR_STATUSES)
    if status not in IDEMPOTENCY_NOT_STORED_STATUSES
)

# D-fingerprint: a body nested deeper than this, with more values than this, or with an
# integer of more bits than this is not plain JSON data and cannot be fingerprinted. No create
# body nests deeper than 4 or holds more than about 250 values; 4096 bits is some 1,233 digits,
# far below the 4,300 digits past which Python refuses to print an integer.
FINGERPRINT_MAX_DEPTH: Final = 64
FINGERPRINT_MAX_VALUES: Final = 100_000
FINGERPRINT_MAX_INTEGER_BITS: Final = 4096

# spec 2.2, 2.5, 4.2, D-path-ids: a campaign or contact id in a path is a positive integer of
# at most 2**53 - 1 (I-JSON, RFC 7493 section 2.2: the largest integer every JSON client reads
# exactly), in decimal ASCII digits: at most 16 of them.
PATH_ID_MAX: Final = 2**53 - 1
PATH_ID_MAX_DIGITS: Final = len(str(PATH_ID_MAX))
# D-json-integers: the integers a response reader takes where the value goes back out as a
# JSON number (to_wire): the same I-JSON range as the path ids, either sign.
JSON_INTEGERS: Final = Bounds(-PATH_ID_MAX, PATH_ID_MAX)

# spec 2.6, 4.3, D-thread-id: a thread id is 1 to 128 URL-safe characters.
THREAD_ID_MAX_LENGTH: Final = 128

# D-date-times: a fraction of at most nine digits (nanoseconds); with an offset that makes 35
# characters, and a longer date-time is refused unread.
DATE_TIME_FRACTION_MAX_DIGITS: Final = 9
DATE_TIME_MAX_LENGTH: Final = (
    len("YYYY-MM-DDTHH:MM:SS.") + DATE_TIME_FRACTION_MAX_DIGITS + len("+HH:MM")
)

# D-audit-lines: an audited line is one creation body of a JSON Lines store, so a line of more
# bytes than a body may hold, before its line break, is a body over the size limit, and the
# audit reads no more of it than this: reading it whole would cost memory without bound.
LINE_MAX_BYTES: Final = BODY_MAX_BYTES
