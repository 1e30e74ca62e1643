"""The rule table: every rule's id, the error key it yields, its source, and its function.

Declared once, here. The runner takes the key and the id of each violation from this table,
and the catalogue (`campaign_rules.catalogue()`, `campaign-rules rules`, `docs/rules.md`) is
generated from it. Rules run in table order. A source is a section of the spec ("spec 2.4
rule 3"), the api-contract, or a decision of `docs/decisions.md` ("D-time-format").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

import attrs

from campaign_rules._campaign.change import Change
from campaign_rules._campaign.document import Document
from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.violations import Finding
from campaign_rules._server.lifecycle import TransitionRequest
from campaign_rules._server.paths import ContactPathParameters
from campaign_rules._server.request_state import CanonicalRequest, IdempotencyState, RateRequest
from campaign_rules._wire.reading import ResponseReading
from campaign_rules.rules import (
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

__all__ = [
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
    "THREAD_PATH_RULES",
    "UPDATE_RULES",
    "Rule",
]

Subject = TypeVar("Subject")

_400 = ErrorKey.INVALID_REQUEST
_500 = ErrorKey.SERVER_ERROR


@attrs.frozen
class Rule(Generic[Subject]):
    """One rule: its id, the error key it yields, the clause it enforces, and its check."""

    id: str
    key: ErrorKey
    source: str
    check: Callable[[Subject], Iterator[Finding]]

    @property
    def summary(self) -> str:
        """What the rule requires, in one sentence: the first line of its docstring."""
        return (self.check.__doc__ or "").strip().splitlines()[0]


# fmt: off
# Offline: what an SDK can check with no server records.
CREATE_RULES: tuple[Rule[Document], ...] = (
    Rule("payload.is_object", _400, "spec 4.1; api-contract", shape.payload_is_object),
    Rule("payload.known_members_only", _400, "spec 2.1, 2.3, 2.4; D-unknown-members, D-hostile-input", shape.known_members_only),
    Rule("payload.required_members_present", _400, "spec 2.1; D-window-members", shape.required_members_present),
    Rule("payload.members_have_json_types", _400, "spec 2.1, 2.3, 2.4; D-integral-floats, D-null-members", shape.members_have_json_types),
    Rule("name.within_max_length", _400, "spec 2.1, 8", fields.name_within_max_length),
    Rule("name.not_blank", _400, "D-blank-name", fields.name_not_blank),
    Rule("agent_id.is_uuid_v4", _400, "spec 2.1; D-agent-id", fields.agent_id_is_uuid_v4),
    Rule("integration_id.not_empty", _400, "D-integration-id", fields.integration_id_not_empty),
    Rule("integration_type.is_supported", ErrorKey.INVALID_INTEGRATION_TYPE, "spec 2.1, 7.3; api-contract", fields.integration_type_is_supported),
    Rule("timezone.is_iana_name", _400, "spec 2.1; D-timezone", fields.timezone_is_iana_name),
    Rule("retries.within_bounds", _400, "spec 2.1, 8", fields.retries_within_bounds),
    Rule("message_limit.within_bounds", _400, "spec 2.1, 8", fields.message_limit_within_bounds),
    Rule("channel.fields_match_integration_type", _400, "spec 4.1 rule 1, 7.3", fields.channel_fields_match_integration_type),
    Rule("schedule.window_times_are_hh_mm", _400, "spec 2.3; D-time-format", schedule.window_times_are_hh_mm),
    Rule("schedule.window_starts_before_stop", _400, "D-time-format", schedule.window_starts_before_stop),
    Rule("cycles.enabled_only_on_phone_call", _400, "spec 2.1, 2.4 rule 2; api-contract", cycles.enabled_only_on_phone_call),
    Rule("cycles.required_when_enabled", _400, "D-cycles-required", cycles.required_when_enabled),
    Rule("cycles.mode_is_known", _400, "spec 2.4", cycles.mode_is_known),
    Rule("cycles.max_iterations_within_bounds", _400, "spec 2.4, 8", cycles.max_iterations_within_bounds),
    Rule("cycles.cooldown_minutes_within_bounds", _400, "spec 2.4, 8", cycles.cooldown_minutes_within_bounds),
    Rule("cycles.filter_lists_within_max_items", _400, "D-filter-lists", cycles.filter_lists_within_max_items),
    Rule("cycles.filter_items_are_non_empty_strings", _400, "spec 2.4; D-filter-lists", cycles.filter_items_are_non_empty_strings),
    Rule("cycles.filter_items_are_unique", _400, "D-filter-lists", cycles.filter_items_are_unique),
    Rule("cycles.filter_statuses_match_channel", ErrorKey.INVALID_STATUS, "spec 2.4; D-contact-statuses", cycles.filter_statuses_match_channel),
    Rule("cycles.cooldown_mode_has_no_schedule", ErrorKey.SCHEDULED_MODE_ONLY, "spec 2.4 rule 3; api-contract", cycles.cooldown_mode_has_no_schedule),
    Rule("cycles.dates_are_iso", _400, "spec 2.4; D-cycle-dates", cycles.dates_are_iso),
    Rule("cycles.start_date_not_after_end_date", _400, "D-cycle-dates", cycles.start_date_not_after_end_date),
)

# With a Directory: what only the server's records can tell.
LOOKUP_RULES: tuple[Rule[Document], ...] = (
    Rule("lookup.agent_exists", ErrorKey.AGENT_NOT_FOUND, "spec 4.1 rule 3, 7.3", lookups.agent_exists),
    Rule("lookup.integration_belongs_to_agent", ErrorKey.INTEGRATION_NOT_FOUND, "spec 2.1, 4.1 rule 3, 7.3", lookups.integration_belongs_to_agent),
    Rule("lookup.integration_type_matches", ErrorKey.INVALID_INTEGRATION_TYPE, "spec 2.1; api-contract", lookups.integration_type_matches),
    Rule("lookup.filter_tags_exist", ErrorKey.INVALID_FILTER_TAG, "spec 2.4; api-contract", lookups.filter_tags_exist),
    Rule("lookup.billing_limit_not_reached", ErrorKey.BILLING_LIMIT_REACHED, "spec 4.1 rule 4, 7.3; api-contract", lookups.billing_limit_not_reached),
)

# Updates: checked on the change itself, before the creation rules run on the merged campaign.
UPDATE_RULES: tuple[Rule[Change], ...] = (
    Rule("update.status_is_a_campaign_status", _500, "spec 2.2; D-update-status", update.status_is_a_campaign_status),
    Rule("update.patch_is_object", _400, "D-merge-patch", update.patch_is_object),
    Rule("update.owner_fields_immutable", ErrorKey.IMMUTABLE_FIELD, "api-contract", update.owner_fields_immutable),
    Rule("update.cycles_enabled_immutable", ErrorKey.IMMUTABLE_FIELD, "spec 2.4 rule 4, 7.3", update.cycles_enabled_immutable),
    Rule("update.cycles_mode_immutable", ErrorKey.IMMUTABLE_FIELD, "spec 2.4 rule 4, 7.3", update.cycles_mode_immutable),
    Rule("update.cycles_fields_need_enabled_cycles", ErrorKey.CYCLES_NOT_ENABLED, "spec 2.4 rule 4; api-contract", update.cycles_fields_need_enabled_cycles),
    Rule("update.campaign_not_finished", ErrorKey.CAMPAIGN_FINISHED, "api-contract", update.campaign_not_finished),
)

# Responses: what an SDK reads (and a server may check before sending). A broken body is the
# server's fault: SERVER_ERROR (D-response-violations).
RESPONSE_RULES: tuple[Rule[ResponseReading], ...] = (
    Rule("response.body_is_object", _500, "spec 4.1-4.3, 5, 7.1", responses.body_is_object),
    Rule("response.sizes_within_caps", _500, "D-response-caps", responses.sizes_within_caps),
    Rule("response.required_members_present", _500, "spec 2.2, 2.5, 2.6, 4.1, 4.2, 7.1; D-tolerant-reading, D-detail-cycles, D-contact-last-call", responses.required_members_present),
    Rule("response.members_have_json_types", _500, "spec 2.2-2.6, 4.1-4.3, 5, 7.1; D-tolerant-reading, D-integral-floats", responses.members_have_json_types),
    Rule("response.values_have_formats", _500, "spec 2.2-2.6, 7.1, 7.2; D-date-times, D-response-times, D-response-violations", responses.values_have_formats),
    Rule("response.maps_hold_strings", _500, "spec 2.5; D-response-caps", responses.maps_hold_strings),
    Rule("response.analytics_holds_plain_json", _500, "spec 2.2; D-response-caps", responses.opaque_members_hold_plain_json),
)

# Error bodies: which of the two shapes it is, told by its members, then the response rules.
ERROR_RESPONSE_RULES: tuple[Rule[ResponseReading], ...] = (
    Rule("error.status_is_an_error_status", _500, "spec 7.3, 7.4; D-response-violations", responses.error_status_is_an_error_status),
    Rule("error.body_has_a_known_shape", _500, "spec 5, 7.1, 7.4", responses.error_body_has_a_known_shape),
)

# Requests: the path parameters and headers of an endpoint, checked before its body.
CONTACT_PATH_RULES: tuple[Rule[ContactPathParameters], ...] = (
    Rule("path.campaign_id_is_positive_integer", ErrorKey.NOT_FOUND, "spec 2.2, 4.2; D-path-ids", request.campaign_id_is_positive_integer),
    Rule("path.contact_id_is_positive_integer", ErrorKey.CONTACT_NOT_FOUND, "spec 2.5, 4.2; D-path-ids", request.contact_id_is_positive_integer),
)
THREAD_PATH_RULES: tuple[Rule[object], ...] = (
    Rule("path.thread_id_is_url_safe", ErrorKey.NOT_FOUND, "spec 2.6, 4.3, 7.4; D-thread-id", request.thread_id_is_url_safe),
)
IDEMPOTENCY_KEY_RULES: tuple[Rule[object], ...] = (
    Rule("header.idempotency_key_is_visible_ascii", ErrorKey.INVALID_REQUEST, "spec 4.1 rule 2; D-idempotency-key", request.idempotency_key_is_visible_ascii),
)
# The state a server keeps: a request's fingerprint, its Idempotency-Key's record, its rate.
# Unusable arguments from the server itself are its bug: SERVER_ERROR, and nothing runs.
FINGERPRINT_RULES: tuple[Rule[CanonicalRequest], ...] = (
    Rule("idempotency.body_is_plain_json", ErrorKey.INVALID_REQUEST, "spec 4.1 rule 2; D-fingerprint", request.body_is_plain_json),
)
IDEMPOTENCY_RULES: tuple[Rule[IdempotencyState], ...] = (
    Rule("idempotency.arguments_are_usable", _500, "D-idempotency", request.idempotency_arguments_are_usable),
    Rule("idempotency.same_request_for_key", ErrorKey.INVALID_REQUEST, "spec 4.1 rule 2; D-idempotency", request.same_request_for_key),
)
RATE_RULES: tuple[Rule[RateRequest], ...] = (
    Rule("rate.key_is_usable", _500, "D-rate-limit", request.rate_key_is_usable),
    Rule("rate.clock_reading_is_usable", _500, "D-rate-limit", request.clock_reading_is_usable),
    Rule("rate.within_limit", ErrorKey.RATE_LIMITED, "spec 4.2, 8; D-rate-limit, D-rate-scope", request.within_rate_limit),
)

# Lifecycle: an action on a campaign in a status; the status and action first, then the move.
LIFECYCLE_RULES: tuple[Rule[TransitionRequest], ...] = (
    Rule("lifecycle.status_is_known", ErrorKey.INVALID_STATUS, "spec 2.2, 3; D-lifecycle", lifecycle.status_is_known),
    Rule("lifecycle.action_is_known", ErrorKey.UNKNOWN_ACTION, "spec 7.2; D-lifecycle", lifecycle.action_is_known),
    Rule("lifecycle.transition_is_allowed", ErrorKey.INVALID_STATUS_TRANSITION, "spec 3, 7.2; D-lifecycle", lifecycle.transition_is_allowed),
    Rule("lifecycle.billing_limit_allows_start", ErrorKey.BILLING_LIMIT_REACHED, "spec 4.1 rule 4; D-lifecycle", lifecycle.billing_limit_allows_start),
)
# fmt: on
