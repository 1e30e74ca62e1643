"""Defects of the cycles block (spec 2.4)."""

from __future__ import annotations

import datetime
from typing import Any, Final

from hypothesis import strategies as st

from campaign_rules._campaign.shape import REQUIRED_CYCLES_MEMBER_IN_MODE, REQUIRED_CYCLES_MEMBERS
from campaign_rules._core.enums import CyclesMode, ErrorKey, IntegrationType
from campaign_rules._core.json import member_path
from campaign_rules._core.limits import (
    CONTACT_STATUSES,
    COOLDOWN_MINUTES,
    FILTER_LIST_MAX_ITEMS,
    FILTER_LISTS,
    MAX_ITERATIONS,
    OBJECT_MAX_MEMBERS,
)
from campaign_rules.strategies._defect_parts import (
    NOT_ARRAYS,
    NOT_OBJECTS,
    NOT_STRINGS,
    NOT_STRINGS_NOR_NULL,
    Defect,
    bad_integers,
    unknown_names,
)
from campaign_rules.strategies._payloads import (
    STATUSES,
    create_payloads,
    enabled_cycles,
    ignored_cycles_rest,
    schedules,
)
from campaign_rules.strategies._tables import (
    CYCLES_MEMBER_NAMES,
    DATES,
    INVALID_REQUEST,
    MODES,
    SAMPLE_TAGS,
    SCHEDULE_ONLY,
)
from campaign_rules.strategies._texts import texts
from campaign_rules.strategies._values import json_like


def cycles_not_an_object(draw: st.DrawFn) -> Defect:
    value = draw(NOT_OBJECTS)
    return draw(create_payloads()) | {"cycles": value}, INVALID_REQUEST, "cycles"


def cycles_enabled_not_boolean(draw: st.DrawFn) -> Defect:
    block = draw(ignored_cycles_rest)
    block["enabled"] = draw(st.one_of(st.sampled_from(("true", 1, 0, None, 1.0, [], {})), texts))
    return draw(create_payloads()) | {"cycles": block}, INVALID_REQUEST, "cycles.enabled"


def cycles_too_large(draw: st.DrawFn) -> Defect:
    block = draw(enabled_cycles())
    block.update(
        {
            f"extra_{index}": index
            for index in range(draw(st.integers(OBJECT_MAX_MEMBERS + 1, OBJECT_MAX_MEMBERS + 6)))
        }
    )
    return draw(create_payloads()) | {"cycles": block}, INVALID_REQUEST, "cycles"


def cycles_enabled_on_whatsapp(draw: st.DrawFn) -> Defect:
    block = draw(enabled_cycles())
    # Only that one defect: the filter statuses are read as the campaign's channel's.
    whatsapp = CONTACT_STATUSES[IntegrationType.WHATSAPP]
    if "filter_statuses" in block:
        block["filter_statuses"] = [s for s in block["filter_statuses"] if s in whatsapp]
    return draw(create_payloads("whatsapp")) | {"cycles": block}, INVALID_REQUEST, "cycles"


# Each member an enabled block requires, by the mode of the block it is dropped from. `mode` is
# dropped only in scheduled mode: without a mode, a cooldown block's `schedule: null` would be
# read as a schedule and give a second violation.
_REQUIRED_BY_MODE: Final = tuple(
    (mode.value, name)
    for mode in CyclesMode
    for name in (*REQUIRED_CYCLES_MEMBERS, REQUIRED_CYCLES_MEMBER_IN_MODE[mode])
    if not (name == "mode" and mode is CyclesMode.COOLDOWN)
)


def cycles_required_missing(draw: st.DrawFn) -> Defect:
    mode, name = draw(st.sampled_from(_REQUIRED_BY_MODE))
    base = draw(create_payloads(cycles=mode))
    del base["cycles"][name]
    return base, INVALID_REQUEST, f"cycles.{name}"


def cycles_mode_bad(draw: st.DrawFn) -> Defect:
    # Scheduled blocks only, for the same reason as above.
    base = draw(create_payloads(cycles="scheduled"))
    base["cycles"]["mode"] = draw(
        st.one_of(
            st.sampled_from(("weekly", "COOLDOWN", "Scheduled", "", 1, None, [])),
            texts.filter(lambda text: text not in MODES),
        )
    )
    return base, INVALID_REQUEST, "cycles.mode"


def max_iterations_bad(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    base["cycles"]["max_iterations"] = draw(bad_integers(MAX_ITERATIONS))
    return base, INVALID_REQUEST, "cycles.max_iterations"


def cooldown_minutes_bad(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    base["cycles"]["cooldown_minutes"] = draw(bad_integers(COOLDOWN_MINUTES))
    return base, INVALID_REQUEST, "cycles.cooldown_minutes"


def cycles_member_unknown(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(
        st.one_of(
            st.sampled_from(("colour", "maxIterations", "filter_status")), unknown_names
        ).filter(lambda name: name not in CYCLES_MEMBER_NAMES)
    )
    base["cycles"][name] = draw(json_like)
    return base, INVALID_REQUEST, member_path("cycles", name)


def filter_list_not_an_array(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(st.sampled_from(FILTER_LISTS))
    value = draw(NOT_ARRAYS)
    base["cycles"][name] = value
    return base, INVALID_REQUEST, f"cycles.{name}"


def filter_item_bad(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(st.sampled_from(FILTER_LISTS))
    items = base["cycles"].setdefault(name, [])
    index = draw(st.integers(0, len(items)))
    items.insert(index, draw(st.one_of(st.just(""), NOT_STRINGS)))
    return base, INVALID_REQUEST, f"cycles.{name}[{index}]"


def filter_item_repeated(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(st.sampled_from(FILTER_LISTS))
    items = base["cycles"].setdefault(name, [])
    if not items:
        items.append(draw(st.sampled_from(STATUSES if name == "filter_statuses" else SAMPLE_TAGS)))
    original = draw(st.integers(0, len(items) - 1))
    index = draw(st.integers(original + 1, len(items)))
    items.insert(index, items[original])
    return base, INVALID_REQUEST, f"cycles.{name}[{index}]"


def filter_status_unknown(draw: st.DrawFn) -> Defect:
    # D-contact-statuses: a status of the other channel, another spelling, or any other text.
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    items = base["cycles"].setdefault("filter_statuses", [])
    index = draw(st.integers(0, len(items)))
    whatsapp_only = CONTACT_STATUSES[IntegrationType.WHATSAPP] - set(STATUSES)
    unknown = st.one_of(
        st.sampled_from(sorted(whatsapp_only)),
        st.sampled_from(("Converted", "QUEUE", " queue", "failed ", "no_answer", "busy")),
        texts.filter(lambda text: text != "" and text not in STATUSES),
    )
    items.insert(index, draw(unknown))
    return base, ErrorKey.INVALID_STATUS, f"cycles.filter_statuses[{index}]"


def filter_list_too_long(draw: st.DrawFn) -> Defect:
    # D-filter-lists: a list over 100 items is refused whole, unread, so even bad items in it
    # give no second violation.
    base = draw(create_payloads(cycles=draw(st.sampled_from(MODES))))
    name = draw(st.sampled_from(FILTER_LISTS))
    size = draw(st.integers(FILTER_LIST_MAX_ITEMS + 1, FILTER_LIST_MAX_ITEMS + 20))
    item = draw(st.sampled_from(("distinct", "repeated", "bad")))
    if item == "distinct":
        items: list[Any] = [f"item-{index}" for index in range(size)]
    elif item == "repeated":
        items = ["same"] * size
    else:
        items = [None, "", 5] * (size // 3 + 1)
    base["cycles"][name] = items
    return base, INVALID_REQUEST, f"cycles.{name}"


def scheduled_mode_only(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles="cooldown"))
    name = draw(st.sampled_from(SCHEDULE_ONLY))
    if name == "schedule":
        value = draw(st.one_of(st.just({}), schedules(), NOT_STRINGS_NOR_NULL, texts))
    else:
        value = draw(
            st.one_of(
                st.dates().map(datetime.date.isoformat),
                NOT_STRINGS_NOR_NULL,
                texts,
            )
        )
    base["cycles"][name] = value
    return base, ErrorKey.SCHEDULED_MODE_ONLY, f"cycles.{name}"


def cycles_schedule_not_an_object(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles="scheduled"))
    value = draw(NOT_OBJECTS)
    base["cycles"]["schedule"] = value
    return base, INVALID_REQUEST, "cycles.schedule"


BAD_DATES = (
    "2026-02-29",
    "2025-02-29",
    "2026-13-01",
    "2026-00-10",
    "2026-04-31",
    "0000-01-01",
    "2026-1-01",
    "20260101",
    "2026/01/01",
    "2026-01-01T00:00:00",
    "",
    "２０２６-01-01",
    "+2026-01-01",
    "-001-01-01",
)


def date_malformed(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles="scheduled"))
    name = draw(st.sampled_from(DATES))
    base["cycles"][name] = draw(st.sampled_from(BAD_DATES))
    return base, INVALID_REQUEST, f"cycles.{name}"


def date_not_a_string(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles="scheduled"))
    name = draw(st.sampled_from(DATES))
    base["cycles"][name] = draw(NOT_STRINGS_NOR_NULL)
    return base, INVALID_REQUEST, f"cycles.{name}"


def start_date_after_end_date(draw: st.DrawFn) -> Defect:
    base = draw(create_payloads(cycles="scheduled"))
    end = draw(st.dates(max_value=datetime.date(9999, 12, 30)))
    start = draw(st.dates(min_value=end + datetime.timedelta(days=1)))
    base["cycles"]["schedule_start_date"] = start.isoformat()
    base["cycles"]["schedule_end_date"] = end.isoformat()
    return base, INVALID_REQUEST, "cycles.schedule_end_date"
