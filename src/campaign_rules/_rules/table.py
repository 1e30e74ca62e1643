"""The rule table: every rule's id, error key, source, summary and function.

Declared once, here. The runner takes the key and the id of each violation from this table,
and the catalogue (`campaign_rules.schema.catalogue()`, `campaign-rules rules`, the rule pages of the docs) is
generated from it. Rules run in table order. A source is a section of the spec ("spec 2.4
rule 3"), an RFC, or a decision of `docs/decisions.md` ("D-time-format").
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Final, Generic, TypeVar

from campaign_rules._campaign.change import Change
from campaign_rules._campaign.document import Document
from campaign_rules._campaign.stored import StoredCampaign
from campaign_rules._core.enums import CampaignStatus, CyclesMode, ErrorKey, IntegrationType
from campaign_rules._core.limits import (
    BODY_MAX_BYTES,
    BODY_MAX_DEPTH,
    COOLDOWN_MINUTES,
    COOLDOWN_MODE,
    CYCLES_ENABLED,
    ERROR_STATUSES,
    FILTER_LIST_MAX_ITEMS,
    IDEMPOTENCY_CLAIM_SECONDS,
    IDEMPOTENCY_KEY_MAX_LENGTH,
    IDEMPOTENCY_WINDOW_SECONDS,
    JSON_INTEGERS,
    MAX_ITERATIONS,
    MESSAGE_LIMIT,
    NAME_MAX_LENGTH,
    NS_PER_SECOND,
    PATCH_MAX_MEMBERS,
    PATH_ID_MAX,
    RATE_LIMIT_BURST,
    RATE_LIMIT_PERIOD_NS,
    RATE_LIMIT_REQUESTS,
    RESPONSE_OPAQUE_MAX_DEPTH,
    RESPONSE_OPAQUE_MAX_VALUES,
    RETRIES,
    SCHEDULE_ONLY_CYCLES_FIELDS,
    THREAD_ID_MAX_LENGTH,
    Bounds,
)
from campaign_rules._core.strict_json import BodyReading
from campaign_rules._core.unicode import LONE_SURROGATE
from campaign_rules._core.violations import Finding
from campaign_rules._rules import (
    body,
    cycles,
    fields,
    lifecycle,
    lookups,
    request,
    responses,
    schedule,
    shape,
    update,
)
from campaign_rules._rules._common import with_article
from campaign_rules._rules.keywords import keyword_checks
from campaign_rules._rules.plan import MemberRun, RowCheck
from campaign_rules._rules.row_calls import RowJudge, RunSkip
from campaign_rules._rules.scope import (
    ALWAYS,
    POSSIBLE_FACTS,
    When,
    directory_given,
    sites_not_clean,
    windows_in_force,
)
from campaign_rules._server.lifecycle import CampaignAction, TransitionRequest
from campaign_rules._server.paths import ContactPathParameters
from campaign_rules._server.request_state import CanonicalRequest, IdempotencyState, RateRequest
from campaign_rules._wire.reading import ResponseReading

__all__ = [
    "BODY_RULES",
    "CONTACT_PATH_RULES",
    "CREATE_RULES",
    "ERROR_RESPONSE_RULES",
    "FINGERPRINT_RULES",
    "IDEMPOTENCY_KEY_RULES",
    "IDEMPOTENCY_RULES",
    "LIFECYCLE_RULES",
    "LOOKUP_RULES",
    "RATE_RULES",
    "RESPONSE_RULES",
    "STORED_CAMPAIGN_RULES",
    "THREAD_PATH_RULES",
    "UPDATE_RULES",
    "Gate",
    "Rule",
]

Subject = TypeVar("Subject")


def _one_of(values: type[enum.Enum]) -> str:
    """The wire values of an enumeration, for a summary: "`cooldown` or `scheduled`"."""
    spelt = [f"`{member.value}`" for member in values]
    return f"{', '.join(spelt[:-1])} or {spelt[-1]}"


def _values(values: type[enum.Enum]) -> list[str]:
    """The wire values of an enumeration, for a row's `enum`."""
    return [str(member.value) for member in values]


def _bounds(bounds: Bounds) -> dict[str, object]:
    """The constraint of an integer within `bounds`."""
    return {"minimum": bounds.low, "maximum": bounds.high}


class Gate:
    """A condition a rule's verdict depends on besides the value it judges.

    `kind`: `scope` (the facts of a body it reads in, `When`), `type` (a value of
    another JSON type is the rule `rule`'s), or `defers_to` (a value, an array or an item the
    rule `rule` refuses is that rule's); `says`: the condition in words.
    """

    __slots__ = ("kind", "rule", "says")

    def __init__(self, kind: str, says: str, rule: str | None = None) -> None:
        self.kind = kind
        self.says = says
        self.rule = rule

    def __repr__(self) -> str:
        return f"Gate({self.kind!r}, {self.says!r}, {self.rule!r})"


_400 = ErrorKey.INVALID_REQUEST
_500 = ErrorKey.SERVER_ERROR


class Rule(Generic[Subject]):
    """One rule: its id, the error key it yields, the clause it enforces, what it requires, its check.

    `summary` says in one sentence what the rule requires; its numbers come from `_core.limits`.
    `when` says the facts of a body the rule reads in (`_rules.scope.When`), and `scope` names
    them: the runner calls it only on a body that has them, and the rule finds nothing on any
    other. Every table but the creation and look-up tables reads its whole subject, the
    default.
    The function's docstring says how it reads its subject (its guard, what it leaves to other
    rules, where it reports), and repeats neither the summary, a citation, a bound nor the values
    of an enumeration.
    A plain slotted class rather than an attrs one: the table is made at every import, and it
    is never changed after.

    A row (`row`) has no function of its own: its `pointers` (RFC 6901, `*` for each item or
    window) and its `constraint` (`_rules.keywords`) say what it checks, `says` what its
    finding says after the value's path, and `defers_to` the rules whose refusal of the same
    value, of its array or of its items leaves the value to them; its plan is made of these
    (`row`, a `_rules.plan.RowCheck`, which the runner calls as a native method), and its
    `check` is the plan's, as a callable. A rule with a function has no pointers, no
    constraint and no `row` (`None`); its
    `defers_to` names body rules, which own what it would find in a value read from a text.
    `gates` lists every condition its verdict depends on besides the value: the facts it reads
    in, made here, and for a row what `_plan_rows` adds.
    `run`: for the first row of consecutive rows of one scope (the same facts) on one member
    each of the same object, those rows, and `run_skip` their `_rules.plan.MemberRun`, which
    tells how many of their first find nothing in a subject, for the runner to skip in one call;
    else `()` and `None`.
    """

    __slots__ = (
        "check",
        "constraint",
        "defers_to",
        "gates",
        "id",
        "key",
        "pointers",
        "row",
        "run",
        "run_skip",
        "says",
        "scope",
        "source",
        "summary",
        "when",
    )

    def __init__(
        self,
        id: str,
        key: ErrorKey,
        source: str,
        summary: str,
        check: Callable[[Subject, list[Finding]], None],
        when: When = ALWAYS,
        pointers: tuple[str, ...] = (),
        constraint: Mapping[str, object] | None = None,
        says: str = "",
        defers_to: tuple[str, ...] = (),
    ) -> None:
        self.id = id
        self.key = key
        self.source = source
        self.summary = summary
        self.check = check
        self.when = when
        self.scope = when.scope
        self.pointers = pointers
        self.constraint = constraint
        self.says = says
        self.defers_to = defers_to
        # A rule that reads in some bodies only has their facts as its first gate, in words;
        # a row's other gates are added when the rows are planned (`_plan_rows`).
        self.gates: tuple[Gate, ...] = () if when.always else (Gate("scope", when.says()),)
        self.row: RowJudge[Subject] | None = None
        self.run: tuple[Rule[Subject], ...] = ()
        self.run_skip: RunSkip[Subject] | None = None

    def __repr__(self) -> str:
        return f"Rule({self.id!r}, {self.key}, {self.source!r})"


def _unplanned(subject: object, findings: list[Finding]) -> None:
    """The check of a row until `_plan_rows` makes its own, at import."""


def _row(
    id: str,
    key: ErrorKey,
    source: str,
    summary: str,
    pointers: tuple[str, ...],
    constraint: Mapping[str, object],
    says: str,
    when: When = ALWAYS,
    defers_to: tuple[str, ...] = (),
) -> Rule[Document]:
    """A rule row: what the values at `pointers` must be, with no function of its own."""
    return Rule(id, key, source, summary, _unplanned, when, pointers, constraint, says, defers_to)


# The facts of a body the creation rules read in, as the column spells them (`When`).
_ALL = ALWAYS
_SITES = When(sites_not_clean)
_CYCLES = When(CYCLES_ENABLED)
_COOLDOWN = When(CYCLES_ENABLED, COOLDOWN_MODE)
_SCHEDULED = When(CYCLES_ENABLED, unless=(COOLDOWN_MODE,))
_WINDOWS = When(windows_in_force)
_DIRECTORY = When(directory_given)


# fmt: off
# Offline: what an SDK can check with no server records.
CREATE_RULES: Final[tuple[Rule[Document], ...]] = (
    Rule("payload.is_object", _400, "spec 4.1; D-error-keys", "The request body is a JSON object.", shape.payload_is_object, _SITES),
    Rule("payload.known_members_only", _400, "spec 2.1, 2.3, 2.4; D-unknown-members, D-hostile-input", "Every object holds only the members its spec table lists.", shape.known_members_only, _SITES),
    Rule("payload.required_members_present", _400, "spec 2.1; D-window-members", "Every object holds its required members.", shape.required_members_present, _SITES),
    Rule("payload.members_have_json_types", _400, "spec 2.1, 2.3, 2.4; D-error-keys, D-integral-floats, D-null-members", "Every known member holds a value of its JSON type.", shape.members_have_json_types, _SITES),
    _row("name.within_max_length", _400, "spec 2.1, 8; D-blank-name", f"`name` is at most {NAME_MAX_LENGTH} characters.", ("/name",), {"maxLength": NAME_MAX_LENGTH}, f"must be at most {NAME_MAX_LENGTH} characters"),
    _row("name.not_blank", _400, "D-blank-name", "`name` has a character other than white space.", ("/name",), {"notBlank": True}, "must not be empty or only white space", defers_to=("name.within_max_length",)),
    _row("agent_id.is_uuid_v4", _400, "spec 2.1; D-agent-id", "`agent_id` is a UUID v4 in 8-4-4-4-12 form.", ("/agent_id",), {"uuidV4": True}, "must be a UUID v4 in 8-4-4-4-12 form"),
    _row("integration_id.not_empty", _400, "D-integration-id", "`integration_id` is not the empty string.", ("/integration_id",), {"minLength": 1}, "must not be empty"),
    _row("integration_type.is_supported", ErrorKey.INVALID_INTEGRATION_TYPE, "spec 2.1, 7.3; D-error-keys", f"`integration_type` is {_one_of(IntegrationType)}.", ("/integration_type",), {"enum": _values(IntegrationType)}, f"must be one of {', '.join(_values(IntegrationType))}"),
    _row("timezone.is_iana_name", _400, "spec 2.1; D-timezone", "`timezone` is an IANA time zone name listed by the tzdata package.", ("/timezone",), {"ianaZone": True}, "must be an IANA time zone name"),
    _row("retries.within_bounds", _400, "spec 2.1, 8", f"`retries` is {RETRIES.describe()}.", ("/retries",), _bounds(RETRIES), f"must be {RETRIES.describe()}"),
    _row("message_limit.within_bounds", _400, "spec 2.1, 8", f"`message_limit` is {MESSAGE_LIMIT.describe()}.", ("/message_limit",), _bounds(MESSAGE_LIMIT), f"must be {MESSAGE_LIMIT.describe()}"),
    Rule("channel.fields_match_integration_type", _400, "spec 4.1 rule 1, 7.3; D-channel-fields", "A channel-only field is sent only on its own channel.", fields.channel_fields_match_integration_type, _ALL),
    # The strings the campaign keeps that no other rule reads against an alphabet: any other
    # string member is a format or an enumeration value, whose own row refuses a surrogate.
    _row("text.free_text_is_unicode", _400, "D-lone-surrogates", "`name`, `integration_id`, the free-text members and each `cycles.filter_tags` item hold no lone surrogate.", ("/name", "/integration_id", "/description", "/first_message", "/template", "/template_alt", "/cycles/filter_tags/*"), {"unicodeText": True}, LONE_SURROGATE, _ALL, defers_to=("name.within_max_length", "body.strings_are_unicode", "cycles.filter_lists_within_max_items", "cycles.filter_items_are_non_empty_strings")),
    _row("schedule.window_times_are_hh_mm", _400, "spec 2.3; D-time-format", "`startTime` and `stopTime` are 24-hour `HH:MM` times.", ("/scheduling/*/startTime", "/scheduling/*/stopTime", "/cycles/schedule/*/startTime", "/cycles/schedule/*/stopTime"), {"hhMm": True}, "must be a 24-hour time HH:MM, 00:00 to 23:59", _WINDOWS),
    Rule("schedule.window_starts_before_stop", _400, "D-time-format", "A window's `startTime` is before its `stopTime`.", schedule.window_starts_before_stop, _WINDOWS),
    Rule("cycles.enabled_only_on_phone_call", _400, "spec 2.1, 2.4 rule 2; D-error-keys", f"Cycles are enabled only on `{IntegrationType.PHONE_CALL.value}` campaigns.", cycles.enabled_only_on_phone_call, _CYCLES),
    Rule("cycles.required_when_enabled", _400, "D-cycles-required", "An enabled block has `mode`, `max_iterations` and its mode's own field.", cycles.required_when_enabled, _CYCLES),
    _row("cycles.mode_is_known", _400, "spec 2.4", f"`cycles.mode` is {_one_of(CyclesMode)}.", ("/cycles/mode",), {"enum": _values(CyclesMode)}, f"must be one of {', '.join(_values(CyclesMode))}", _CYCLES),
    _row("cycles.max_iterations_within_bounds", _400, "spec 2.4, 8", f"`cycles.max_iterations` is {MAX_ITERATIONS.describe()}.", ("/cycles/max_iterations",), _bounds(MAX_ITERATIONS), f"must be {MAX_ITERATIONS.describe()}", _CYCLES),
    _row("cycles.cooldown_minutes_within_bounds", _400, "spec 2.4, 8", f"`cycles.cooldown_minutes` is {COOLDOWN_MINUTES.describe()}.", ("/cycles/cooldown_minutes",), _bounds(COOLDOWN_MINUTES), f"must be {COOLDOWN_MINUTES.describe()}", _CYCLES),
    _row("cycles.filter_lists_within_max_items", _400, "D-filter-lists", f"`cycles.filter_statuses` and `cycles.filter_tags` hold at most {FILTER_LIST_MAX_ITEMS} items.", ("/cycles/filter_statuses", "/cycles/filter_tags"), {"maxItems": FILTER_LIST_MAX_ITEMS}, f"must hold at most {FILTER_LIST_MAX_ITEMS} items", _CYCLES),
    _row("cycles.filter_items_are_non_empty_strings", _400, "spec 2.4; D-filter-lists", "Each filter item is a non-empty string.", ("/cycles/filter_statuses/*", "/cycles/filter_tags/*"), {"type": "string", "minLength": 1}, "must be a non-empty string", _CYCLES, defers_to=("cycles.filter_lists_within_max_items",)),
    _row("cycles.filter_items_are_unique", _400, "D-filter-lists", "No filter item repeats an earlier one.", ("/cycles/filter_statuses", "/cycles/filter_tags"), {"itemsUnique": True}, "repeats an earlier item", _CYCLES, defers_to=("cycles.filter_lists_within_max_items", "cycles.filter_items_are_non_empty_strings")),
    Rule("cycles.filter_statuses_match_channel", ErrorKey.INVALID_STATUS, "spec 2.4; D-contact-statuses", "Each `cycles.filter_statuses` item is a contact status of the campaign's channel.", cycles.filter_statuses_match_channel, _CYCLES),
    _row("cycles.cooldown_mode_has_no_schedule", ErrorKey.SCHEDULED_MODE_ONLY, "spec 2.4 rule 3; D-error-keys, D-null-members", "In `cooldown` mode, the schedule fields are absent or null.", tuple(f"/cycles/{name}" for name in SCHEDULE_ONLY_CYCLES_FIELDS), {"type": "null"}, "is for scheduled mode only", _COOLDOWN),
    _row("cycles.dates_are_iso", _400, "spec 2.4; D-cycle-dates", "The schedule dates are ISO 8601 calendar dates, `YYYY-MM-DD`.", ("/cycles/schedule_start_date", "/cycles/schedule_end_date"), {"isoDate": True}, "must be a calendar date YYYY-MM-DD", _SCHEDULED),
    Rule("cycles.start_date_not_after_end_date", _400, "D-cycle-dates", "`cycles.schedule_start_date` is not after `cycles.schedule_end_date`.", cycles.start_date_not_after_end_date, _SCHEDULED),
)

# The request body as received (`validate_create_json`, `validate_update_json`): read as I-JSON
# (RFC 7493) before any rule above runs; a body one of these refuses is judged no further.
BODY_RULES: Final[tuple[Rule[BodyReading], ...]] = (
    Rule("body.is_bytes_or_text", _500, "D-body-limits", "The caller gives the body as `bytes`, `bytearray`, `memoryview` or `str`.", body.body_is_bytes_or_text),
    Rule("body.within_size_limit", _400, "D-body-limits", f"The body is at most {BODY_MAX_BYTES} bytes of UTF-8.", body.body_within_size_limit),
    Rule("body.has_no_byte_order_mark", _400, "RFC 8259 section 8.1; D-byte-order-mark", "The body does not start with a byte order mark.", body.body_has_no_byte_order_mark),
    Rule("body.is_utf8", _400, "RFC 8259 section 8.1; RFC 7493 section 2.1; D-body-limits", "The body is UTF-8 text.", body.body_is_utf8),
    Rule("body.is_json", _400, "RFC 8259; D-body-limits", "The body is one JSON value.", body.body_is_json),
    Rule("body.depth_within_limit", _400, "D-body-limits", f"Arrays and objects nest at most {BODY_MAX_DEPTH} levels deep.", body.depth_within_limit),
    Rule("body.member_names_unique", _400, "RFC 7493 section 2.3; D-body-limits", "No object repeats a member name.", body.member_names_unique),
    Rule("body.strings_are_unicode", _400, "RFC 7493 section 2.1; D-lone-surrogates", "No string or member name holds a lone surrogate, escaped or not.", body.strings_are_unicode),
    Rule("body.numbers_fit_a_double", _400, "RFC 7493 section 2.2; D-body-limits", "Every number is finite as an IEEE double: no `NaN`, no infinity, none that rounds to one.", body.numbers_fit_a_double),
)

# With a Directory: what only the server's records can tell.
LOOKUP_RULES: Final[tuple[Rule[Document], ...]] = (
    Rule("lookup.agent_exists", ErrorKey.AGENT_NOT_FOUND, "spec 4.1 rule 3, 7.3; D-error-keys, D-look-ups, D-agent-id", "The directory knows the agent `agent_id`.", lookups.agent_exists, _DIRECTORY),
    Rule("lookup.integration_belongs_to_agent", ErrorKey.INTEGRATION_NOT_FOUND, "spec 2.1, 4.1 rule 3, 7.3; D-error-keys, D-look-ups", "The agent has the integration `integration_id`.", lookups.integration_belongs_to_agent, _DIRECTORY),
    Rule("lookup.integration_type_matches", ErrorKey.INVALID_INTEGRATION_TYPE, "spec 2.1; D-error-keys, D-look-ups", "The integration found is of the type `integration_type` names.", lookups.integration_type_matches, _DIRECTORY),
    Rule("lookup.filter_tags_exist", ErrorKey.INVALID_FILTER_TAG, "spec 2.4; D-error-keys, D-look-ups, D-filter-lists", "Each well-formed tag of `cycles.filter_tags` names a thread tag that exists.", lookups.filter_tags_exist, _DIRECTORY),
    Rule("lookup.billing_limit_not_reached", ErrorKey.BILLING_LIMIT_REACHED, "spec 4.1 rule 4, 7.3; D-error-keys, D-look-ups", "The organization's billing limit is not reached.", lookups.billing_limit_not_reached, _DIRECTORY),
)

# Updates of a campaign given as stored wire JSON: that JSON, read with the creation rules first.
STORED_CAMPAIGN_RULES: Final[tuple[Rule[StoredCampaign], ...]] = (
    Rule("update.existing_is_a_campaign", _500, "D-stored-campaign", "The stored campaign an update starts from passes every offline creation rule.", update.existing_is_a_campaign),
)

# Updates: checked on the change itself, before the creation rules run on the merged campaign.
UPDATE_RULES: Final[tuple[Rule[Change], ...]] = (
    Rule("update.status_is_a_campaign_status", _500, "spec 2.2; D-update-status", "The `status` a server passes is `None` or a campaign status.", update.status_is_a_campaign_status),
    Rule("update.patch_is_object", _400, "D-merge-patch", f"The patch is a JSON object of at most {PATCH_MAX_MEMBERS} members.", update.patch_is_object),
    Rule("update.owner_fields_immutable", ErrorKey.IMMUTABLE_FIELD, "D-error-keys, D-agent-id, D-merge-patch", "`agent_id`, `integration_id` and `integration_type` keep their values.", update.owner_fields_immutable),
    Rule("update.cycles_enabled_immutable", ErrorKey.IMMUTABLE_FIELD, "spec 2.4 rule 4, 7.3; D-error-keys, D-merge-patch", "`cycles.enabled` keeps its value: cycles are enabled at creation or never.", update.cycles_enabled_immutable),
    Rule("update.cycles_mode_immutable", ErrorKey.IMMUTABLE_FIELD, "spec 2.4 rule 4, 7.3; D-merge-patch", "`cycles.mode` keeps its value.", update.cycles_mode_immutable),
    Rule("update.cycles_fields_need_enabled_cycles", ErrorKey.CYCLES_NOT_ENABLED, "spec 2.4 rule 4; D-error-keys, D-merge-patch", "A change sets no cycles field but `enabled` on a campaign without cycles.", update.cycles_fields_need_enabled_cycles),
    Rule("update.campaign_not_finished", ErrorKey.CAMPAIGN_FINISHED, "D-error-keys, D-merge-patch", "A finished campaign takes no change.", update.campaign_not_finished),
)

# Responses: what an SDK reads (and a server may check before sending). A broken body is the
# server's fault: SERVER_ERROR (D-response-violations).
RESPONSE_RULES: Final[tuple[Rule[ResponseReading], ...]] = (
    Rule("response.body_is_object", _500, "spec 4.1-4.3, 5, 7.1; D-response-violations", "The response body is a JSON object.", responses.body_is_object),
    Rule("response.sizes_within_caps", _500, "D-response-caps", "Documented objects and arrays are within the reading caps.", responses.sizes_within_caps),
    Rule("response.required_members_present", _500, "spec 2.2, 2.5, 2.6, 4.1, 4.2, 7.1; D-tolerant-reading, D-detail-cycles, D-contact-last-call", "Every member the spec's tables list is present, but the optional ones.", responses.required_members_present),
    Rule("response.members_have_json_types", _500, "spec 2.2-2.6, 4.1-4.3, 5, 7.1; D-tolerant-reading, D-integral-floats", "Each documented member has its JSON type; `null` only where allowed.", responses.members_have_json_types),
    Rule("response.values_have_formats", _500, "spec 2.2-2.6, 7.1, 7.2; D-date-times, D-response-times, D-contact-last-call, D-response-violations", "Each value of the right type has its documented format or enum value.", responses.values_have_formats),
    Rule("response.integers_are_interoperable", _500, "RFC 7493 section 2.2; D-json-integers", f"Each documented integer is from -{JSON_INTEGERS.high} to {JSON_INTEGERS.high}, as every JSON reader reads it (an opaque member's too).", responses.integers_are_interoperable),
    Rule("response.maps_hold_strings", _500, "spec 2.5; D-response-caps", "A free-form map (`extracted_data`) maps string names to string values.", responses.maps_hold_strings),
    Rule("response.opaque_members_hold_plain_json", _500, "spec 2.2; D-response-caps", f"An opaque member (`analytics`) holds plain JSON, at most {RESPONSE_OPAQUE_MAX_VALUES} values nested at most {RESPONSE_OPAQUE_MAX_DEPTH} deep.", responses.opaque_members_hold_plain_json),
)

# Error bodies: which of the two shapes it is, told by its members, then the response rules.
ERROR_RESPONSE_RULES: Final[tuple[Rule[ResponseReading], ...]] = (
    Rule("error.status_is_an_error_status", _500, "spec 7.3, 7.4; D-response-violations", f"An error body comes with an HTTP status from {ERROR_STATUSES.start} to {ERROR_STATUSES.stop - 1}.", responses.error_status_is_an_error_status),
    Rule("error.body_has_a_known_shape", _500, "spec 5, 7.1, 7.4", "An error body has a string `error` (the envelope) or an integer one (the status body).", responses.error_body_has_a_known_shape),
)

# Requests: the path parameters and headers of an endpoint, checked before its body.
CONTACT_PATH_RULES: Final[tuple[Rule[ContactPathParameters], ...]] = (
    Rule("path.campaign_id_is_positive_integer", ErrorKey.NOT_FOUND, "spec 2.2, 4.2; D-path-ids", f"The campaign `id` of the path is an integer id from 1 to {PATH_ID_MAX}.", request.campaign_id_is_positive_integer),
    Rule("path.contact_id_is_positive_integer", ErrorKey.CONTACT_NOT_FOUND, "spec 2.5, 4.2; D-path-ids", f"The `contact_id` of the path is an integer id from 1 to {PATH_ID_MAX}.", request.contact_id_is_positive_integer),
)
THREAD_PATH_RULES: Final[tuple[Rule[object], ...]] = (
    Rule("path.thread_id_is_url_safe", ErrorKey.NOT_FOUND, "spec 2.6, 4.3, 7.4; D-thread-id", f"The thread `id` is 1 to {THREAD_ID_MAX_LENGTH} unreserved URL characters.", request.thread_id_is_url_safe),
)
IDEMPOTENCY_KEY_RULES: Final[tuple[Rule[object], ...]] = (
    Rule("header.idempotency_key_is_visible_ascii", ErrorKey.INVALID_REQUEST, "spec 4.1 rule 2; D-idempotency-key", f"`Idempotency-Key` is 1 to {IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters.", request.idempotency_key_is_visible_ascii),
)
# The state a server keeps: a request's fingerprint, its Idempotency-Key's record, its rate.
# Unusable arguments from the server itself are its bug: SERVER_ERROR, and nothing runs.
FINGERPRINT_RULES: Final[tuple[Rule[CanonicalRequest], ...]] = (
    Rule("idempotency.body_is_plain_json", ErrorKey.INVALID_REQUEST, "spec 4.1 rule 2; D-fingerprint", "An idempotent request's body is plain JSON data.", request.body_is_plain_json),
)
IDEMPOTENCY_RULES: Final[tuple[Rule[IdempotencyState], ...]] = (
    Rule("idempotency.arguments_are_usable", _500, "D-idempotency", "The server gives the idempotency check usable arguments.", request.idempotency_arguments_are_usable),
    Rule("idempotency.same_request_for_key", ErrorKey.INVALID_REQUEST, "spec 4.1 rule 2; D-idempotency", f"An `Idempotency-Key` seen within {IDEMPOTENCY_WINDOW_SECONDS // 3600} hours comes with the same request.", request.same_request_for_key),
    Rule("idempotency.key_not_in_use", ErrorKey.RATE_LIMITED, "spec 4.1 rule 2; D-idempotency-claim", f"A request does not come while the same request with its `Idempotency-Key` is still running (claimed within {IDEMPOTENCY_CLAIM_SECONDS} s).", request.key_not_in_use),
)
RATE_RULES: Final[tuple[Rule[RateRequest], ...]] = (
    Rule("rate.key_is_usable", _500, "D-rate-limit", "The server gives the rate limiter an API key that is a string.", request.rate_key_is_usable),
    Rule("rate.clock_reading_is_usable", _500, "D-rate-limit", "The server gives the rate limiter an integer nanosecond clock reading.", request.clock_reading_is_usable),
    Rule("rate.shared_state_is_usable", _500, "D-rate-shared", "The server gives the shared rate step a stored state that is `None` or an `int` it gave, and positive `int` settings.", request.shared_state_is_usable),
    Rule("rate.within_rate_limit", ErrorKey.RATE_LIMITED, "spec 4.2, 8; D-rate-limit, D-rate-scope", f"At most {RATE_LIMIT_REQUESTS} requests per {RATE_LIMIT_PERIOD_NS // NS_PER_SECOND} s per API key and operation, in bursts of {RATE_LIMIT_BURST}.", request.within_rate_limit),
)

# Lifecycle: an action on a campaign in a status; the status and action first, then the move.
LIFECYCLE_RULES: Final[tuple[Rule[TransitionRequest], ...]] = (
    Rule("lifecycle.status_is_known", ErrorKey.INVALID_STATUS, "spec 2.2, 3; D-lifecycle", f"The current status is one of the {len(CampaignStatus)} campaign states.", lifecycle.status_is_known),
    Rule("lifecycle.action_is_known", ErrorKey.UNKNOWN_ACTION, "spec 7.2; D-lifecycle", f"The action is {_one_of(CampaignAction)}.", lifecycle.action_is_known),
    Rule("lifecycle.transition_is_allowed", ErrorKey.INVALID_STATUS_TRANSITION, "spec 3, 7.2; D-lifecycle", "The lifecycle table allows the action from the current status.", lifecycle.transition_is_allowed),
    Rule("lifecycle.billing_limit_allows_start", ErrorKey.BILLING_LIMIT_REACHED, "spec 4.1 rule 4; D-lifecycle", "An activate or resume that changes the status needs billing room.", lifecycle.billing_limit_allows_start),
)
# fmt: on


def _check_scopes(table: tuple[Rule[Document], ...]) -> None:
    """Refuse, at import, a row of a body's table whose rule would run for no body.

    The rows of the other tables read their whole subject (tests/test_scope.py checks it): the
    runner reads the rows' facts (`When`) only for a body's document.
    """
    for rule in table:
        if not any(rule.when.reads_in(facts) for facts in POSSIBLE_FACTS):
            raise ValueError(f"{rule.id} reads {rule.when.says()}, which no body has")


_check_scopes(CREATE_RULES)
_check_scopes(LOOKUP_RULES)

# The rule whose value of another JSON type a row's keywords pass (`_rules.keywords`).
_TYPE_RULE: Final = "payload.members_have_json_types"
# The gate of a row on the block's members that reads in bodies whose block may not be enabled.
_BLOCK_NOT_ENABLED: Final = (
    "the members of a cycles block are read only when it is enabled (spec 2.4 rule 2)"
)


def _plan_rows(table: tuple[Rule[Document], ...]) -> None:
    """Make the check and the gates of each row of `table`, from the rows alone, at import."""
    by_id = {rule.id: rule for rule in table}
    # The rows of the run being read: (rule, its check) of consecutive rows of one scope, each
    # on one member of the same object.
    run: list[tuple[Rule[Document], RowCheck]] = []
    for rule in table:
        if rule.constraint is None:
            rule.gates += tuple(_body_deferral(name) for name in rule.defers_to)
            _end_run(run)
            continue
        body_rules = tuple(name for name in rule.defers_to if name not in by_id)
        deferred = tuple(by_id[name] for name in rule.defers_to if name in by_id)
        planned = RowCheck(
            rule.pointers,
            rule.constraint,
            rule.says,
            tuple((other.pointers, other.constraint or {}) for other in deferred),
            rule.when,
        )
        rule.check = planned.check
        rule.row = planned
        # spec 2.4 rule 2: a row on the block's members that reads in bodies whose block may not
        # be enabled tests it before reading them (`RowCheck.tests_block`).
        if planned.tests_block:
            rule.gates += (Gate("scope", _BLOCK_NOT_ENABLED),)
        rule.gates += (
            _type_gates(rule)
            + tuple(_deferral(rule, other) for other in deferred)
            + tuple(_body_deferral(name) for name in body_rules)
        )
        if run and (
            planned.member_parent != run[0][1].member_parent or rule.scope is not run[0][0].scope
        ):
            _end_run(run)
        if planned.member_parent is None:
            _end_run(run)
        else:
            run.append((rule, planned))
    _end_run(run)


def _end_run(run: list[tuple[Rule[Document], RowCheck]]) -> None:
    """Give the first row of `run` the run's rows and their `MemberRun`; empty `run`.

    A run of one row is left as it is: its own check is the one call.
    """
    if len(run) > 1:
        head = run[0][0]
        head.run = tuple(rule for rule, _ in run)
        head.run_skip = MemberRun(tuple(check for _, check in run))
    run.clear()


def _deferral(rule: Rule[Document], other: Rule[Document]) -> Gate:
    """The gate of a row that defers to `other`: what of its values `other` owns."""
    if set(rule.pointers) & set(other.pointers):
        says = f"a value {other.id} refuses is its, and not judged here"
    elif any(f"{theirs}/*" in rule.pointers for theirs in other.pointers):
        says = f"an array {other.id} refuses is not read: its bound stops the reading"
    else:
        says = f"an item {other.id} refuses is its, and not compared"
    return Gate("defers_to", says, other.id)


def _body_deferral(name: str) -> Gate:
    """The gate of a rule with a function that defers to the body rule `name`.

    A body rule judges a text before any creation rule (`BODY_RULES`), and a body it refuses is
    judged no further: a value read from a text is its, and the runner does not call the rule
    there (`_rules.validation`); a value given decoded is the rule's.
    """
    if name not in {rule.id for rule in BODY_RULES}:
        raise ValueError(f"{name} is not a body rule")
    return Gate("defers_to", f"a value read from a text is left to {name}", name)


def _type_gates(rule: Rule[Document]) -> tuple[Gate, ...]:
    """The JSON types a row's keywords judge; a value of another is the type rule's."""
    if all(pointer.endswith("/*") for pointer in rule.pointers):
        return ()  # an array's items: no type rule reads them, the row's own `type` does
    if (rule.constraint or {}).get("type") == "null":
        # spec 2.4 rule 3: in its scope the type rule leaves these members to the row
        # (`_campaign.sites.COOLDOWN_CYCLES`; tests/test_rule_rows.py holds the two equal).
        return (Gate("type", f"{_TYPE_RULE} leaves these members to it, any type", _TYPE_RULE),)
    types = sorted(
        {keyword.json_type for keyword in keyword_checks(rule.constraint or {})} - {"any"}
    )
    # A row on items too (`text.free_text_is_unicode`) leaves an item's type to the rule it
    # defers to for them, which its deferral gate names.
    value = (
        "a member's value"
        if any(pointer.endswith("/*") for pointer in rule.pointers)
        else "a value"
    )
    return tuple(
        Gate("type", f"{value} that is not {with_article(kind)} is {_TYPE_RULE}'s", _TYPE_RULE)
        for kind in types
    )


_plan_rows(CREATE_RULES)
