"""Creation bodies with one defect: every kind, by name, and the public strategy."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from hypothesis import strategies as st

from campaign_rules.strategies._cycles_defects import (
    cooldown_minutes_bad,
    cycles_enabled_not_boolean,
    cycles_enabled_on_whatsapp,
    cycles_member_unknown,
    cycles_mode_bad,
    cycles_not_an_object,
    cycles_required_missing,
    cycles_schedule_not_an_object,
    cycles_too_large,
    date_malformed,
    date_not_a_string,
    filter_item_bad,
    filter_item_repeated,
    filter_list_not_an_array,
    filter_list_too_long,
    filter_status_unknown,
    max_iterations_bad,
    scheduled_mode_only,
    start_date_after_end_date,
)
from campaign_rules.strategies._defect_parts import Defect, chosen_kinds, draw_kind
from campaign_rules.strategies._field_defects import (
    agent_id_malformed,
    body_not_an_object,
    channel_field_on_wrong_channel,
    integration_id_empty,
    integration_type_unsupported,
    member_name_not_a_string,
    message_limit_bad,
    name_blank,
    name_too_long,
    payload_too_large,
    required_missing,
    retries_bad,
    string_member_not_a_string,
    text_holds_lone_surrogate,
    timezone_unknown,
    unknown_member,
)
from campaign_rules.strategies._payloads import is_plain_json
from campaign_rules.strategies._schedule_defects import (
    schedule_member_unknown,
    schedule_too_large,
    scheduling_not_an_object,
    window_active_not_boolean,
    window_member_missing,
    window_member_unknown,
    window_not_an_object,
    window_not_before_stop,
    window_time_malformed,
    window_time_not_a_string,
)

# The kinds of defect, by name; each draws one `Defect`.
_DEFECTS: Final[dict[str, Callable[[st.DrawFn], Defect]]] = {
    "not_an_object": body_not_an_object,
    "required_missing": required_missing,
    "name_too_long": name_too_long,
    "name_blank": name_blank,
    "agent_id_malformed": agent_id_malformed,
    "integration_id_empty": integration_id_empty,
    "integration_type_unsupported": integration_type_unsupported,
    "timezone_unknown": timezone_unknown,
    "retries_bad": retries_bad,
    "message_limit_bad": message_limit_bad,
    "string_member_not_a_string": string_member_not_a_string,
    "text_holds_lone_surrogate": text_holds_lone_surrogate,
    "channel_field_on_wrong_channel": channel_field_on_wrong_channel,
    "unknown_member": unknown_member,
    "member_name_not_a_string": member_name_not_a_string,
    "payload_too_large": payload_too_large,
    "scheduling_not_an_object": scheduling_not_an_object,
    "schedule_member_unknown": schedule_member_unknown,
    "schedule_too_large": schedule_too_large,
    "window_not_an_object": window_not_an_object,
    "window_time_malformed": window_time_malformed,
    "window_time_not_a_string": window_time_not_a_string,
    "window_not_before_stop": window_not_before_stop,
    "window_member_missing": window_member_missing,
    "window_active_not_boolean": window_active_not_boolean,
    "window_member_unknown": window_member_unknown,
    "cycles_not_an_object": cycles_not_an_object,
    "cycles_enabled_not_boolean": cycles_enabled_not_boolean,
    "cycles_too_large": cycles_too_large,
    "cycles_enabled_on_whatsapp": cycles_enabled_on_whatsapp,
    "cycles_required_missing": cycles_required_missing,
    "cycles_mode_bad": cycles_mode_bad,
    "max_iterations_bad": max_iterations_bad,
    "cooldown_minutes_bad": cooldown_minutes_bad,
    "cycles_member_unknown": cycles_member_unknown,
    "filter_list_not_an_array": filter_list_not_an_array,
    "filter_item_bad": filter_item_bad,
    "filter_item_repeated": filter_item_repeated,
    "filter_status_unknown": filter_status_unknown,
    "filter_list_too_long": filter_list_too_long,
    "scheduled_mode_only": scheduled_mode_only,
    "cycles_schedule_not_an_object": cycles_schedule_not_an_object,
    "date_malformed": date_malformed,
    "date_not_a_string": date_not_a_string,
    "start_date_after_end_date": start_date_after_end_date,
}

DEFECT_KINDS: Final = tuple(_DEFECTS)
"""The names of the kinds of defect `invalid_create_payloads` draws."""

# The kinds whose payload always holds a Python value that JSON cannot (a tuple, bytes, a
# member name that is not a string).
_NOT_JSON_KINDS: Final = frozenset({"member_name_not_a_string"})


def invalid_create_payloads(
    *, kinds: Iterable[str] | None = None, json_only: bool = False
) -> st.SearchStrategy[Defect]:
    """`(payload, expected_key, expected_field)`: a valid body with one defect, and its violation.

    `validate_create(payload)` reports exactly one violation, with the error key `expected_key`
    and the field path `expected_field` (`None` for the body as a whole). `kinds` limits the
    defects to some of `DEFECT_KINDS` (all by default). Defects include Python values JSON
    cannot hold (NaN, tuples, member names that are not strings), for callers that pass
    decoded values around; with `json_only=True` every payload is plain JSON that
    `json.dumps(payload, allow_nan=False)` encodes and `json.loads` reads back equal, as a body
    sent over HTTP would be. Raises `ValueError` when no kind is left to draw.
    """
    unfit = _NOT_JSON_KINDS if json_only else frozenset()
    defects = _one_defect(chosen_kinds(kinds, DEFECT_KINDS, unfit, "to draw"))
    return defects.filter(lambda defect: is_plain_json(defect[0])) if json_only else defects


@st.composite
def _one_defect(draw: st.DrawFn, kinds: tuple[str, ...]) -> Defect:
    return _DEFECTS[draw_kind(draw, kinds)](draw)
