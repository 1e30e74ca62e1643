"""Rules on weekly schedules (`campaign_rules._rules.schedule`): `scheduling`, `cycles.schedule`.

Sources: spec 2.3; decisions D-time-format, D-window-members, D-unknown-members.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from campaign_rules import DayWindow, ErrorKey, Schedule, validate_create
from tests.support import BASES, WINDOW, payload

INVALID = ErrorKey.INVALID_REQUEST
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def found(result: Any) -> list[tuple[ErrorKey, str | None, str]]:
    return [(v.key, v.field, v.rule) for v in result.violations]


def with_window(where: str, window: dict[str, Any], day: str = "mon") -> dict[str, Any]:
    """A valid payload whose schedule `where` has `window` on `day`."""
    if where == "scheduling":
        return payload(scheduling={day: window})
    cycles = {**BASES["scheduled"]["cycles"], "schedule": {day: window}}
    return payload("scheduled", cycles=cycles)


WHERE = ["scheduling", "cycles.schedule"]

BAD_TIMES = [
    "24:00",
    "9:00",
    "09:60",
    "٠٩:٠٠",
    "０９:００",
    "09:00:00",
    "09:00Z",
    "",
    "0900",
    "09.00",
    "09-00",
    " 9:00",
    "+9:00",
    "-1:00",
    "09: 0",
    "9:0 ",
    "99:99",
    "25:00",
    "1e:00",
    "0x:10",
    "²³:00",
    "09:5٩",
    "9am",
    "T09:00",
    "x" * 10_000_000,
]


class TestWindowTimesAreHhMm:
    @pytest.mark.parametrize("where", WHERE)
    @pytest.mark.parametrize(
        ("start", "stop"),
        [
            ("00:00", "23:59"),
            ("00:00", "00:01"),
            ("23:58", "23:59"),
            ("09:00", "17:00"),
            ("12:30", "12:31"),
        ],
    )
    def test_24_hour_hh_mm_is_accepted(self, where: str, start: str, stop: str) -> None:
        result = validate_create(
            with_window(where, {"startTime": start, "stopTime": stop, "active": True})
        )
        assert result.ok, found(result)

    @pytest.mark.parametrize("where", WHERE)
    @pytest.mark.parametrize("text", BAD_TIMES, ids=lambda v: repr(v)[:20])
    def test_a_bad_start_time_is_refused(self, where: str, text: str) -> None:
        result = validate_create(
            with_window(where, {**WINDOW, "startTime": text, "stopTime": "23:59"})
        )
        assert found(result) == [
            (INVALID, f"{where}.mon.startTime", "schedule.window_times_are_hh_mm")
        ]
        assert result.violations[0].message == (
            f"{where}.mon.startTime must be a 24-hour time HH:MM, 00:00 to 23:59"
        )

    @pytest.mark.parametrize("where", WHERE)
    @pytest.mark.parametrize("text", BAD_TIMES, ids=lambda v: repr(v)[:20])
    def test_a_bad_stop_time_is_refused(self, where: str, text: str) -> None:
        result = validate_create(
            with_window(where, {**WINDOW, "startTime": "00:00", "stopTime": text})
        )
        assert found(result) == [
            (INVALID, f"{where}.mon.stopTime", "schedule.window_times_are_hh_mm")
        ]

    @pytest.mark.parametrize("where", WHERE)
    def test_both_bad_times_are_reported(self, where: str) -> None:
        result = validate_create(
            with_window(where, {**WINDOW, "startTime": "9:00", "stopTime": "24:00"})
        )
        assert found(result) == [
            (INVALID, f"{where}.mon.startTime", "schedule.window_times_are_hh_mm"),
            (INVALID, f"{where}.mon.stopTime", "schedule.window_times_are_hh_mm"),
        ]

    @pytest.mark.parametrize("where", WHERE)
    def test_an_inactive_window_is_checked_too(self, where: str) -> None:
        result = validate_create(
            with_window(where, {**WINDOW, "startTime": "24:00", "active": False})
        )
        assert found(result) == [
            (INVALID, f"{where}.mon.startTime", "schedule.window_times_are_hh_mm")
        ]

    @pytest.mark.parametrize("day", WEEKDAYS)
    def test_every_weekday_is_checked(self, day: str) -> None:
        result = validate_create(with_window("scheduling", {**WINDOW, "stopTime": "17:60"}, day))
        assert found(result) == [
            (INVALID, f"scheduling.{day}.stopTime", "schedule.window_times_are_hh_mm")
        ]

    def test_a_non_string_time_is_the_type_rules_only(self) -> None:
        result = validate_create(with_window("scheduling", {**WINDOW, "startTime": 900}))
        assert found(result) == [
            (INVALID, "scheduling.mon.startTime", "payload.members_have_json_types")
        ]

    def test_the_times_become_datetime_times(self) -> None:
        window = {"startTime": "00:00", "stopTime": "23:59", "active": False}
        value = validate_create(payload(scheduling={"sun": window, "mon": dict(WINDOW)})).value
        assert value.scheduling == Schedule(
            mon=DayWindow(datetime.time(9, 0), datetime.time(17, 0), True),
            sun=DayWindow(datetime.time(0, 0), datetime.time(23, 59), False),
        )

    def test_a_cooldown_block_schedule_is_left_to_scheduled_mode_only(self) -> None:
        cycles = {
            **BASES["cooldown"]["cycles"],
            "schedule": {"mon": {**WINDOW, "startTime": "24:00"}},
        }
        result = validate_create(payload("cooldown", cycles=cycles))
        assert found(result) == [
            (
                ErrorKey.SCHEDULED_MODE_ONLY,
                "cycles.schedule",
                "cycles.cooldown_mode_has_no_schedule",
            )
        ]

    def test_a_disabled_block_schedule_is_not_read(self) -> None:
        cycles = {"enabled": False, "schedule": {"mon": {**WINDOW, "startTime": "24:00"}}}
        assert validate_create(payload(cycles=cycles)).ok


class TestWindowStartsBeforeStop:
    @pytest.mark.parametrize("where", WHERE)
    @pytest.mark.parametrize(
        ("start", "stop"),
        [
            ("09:00", "09:00"),
            ("00:00", "00:00"),
            ("23:59", "23:59"),
            ("09:01", "09:00"),
            ("17:00", "09:00"),
            ("22:00", "02:00"),
            ("23:59", "00:00"),
        ],
    )
    @pytest.mark.parametrize("active", [True, False])
    def test_a_window_that_does_not_start_before_it_stops_is_refused(
        self, where: str, start: str, stop: str, active: bool
    ) -> None:
        result = validate_create(
            with_window(where, {"startTime": start, "stopTime": stop, "active": active})
        )
        assert found(result) == [
            (INVALID, f"{where}.mon.stopTime", "schedule.window_starts_before_stop")
        ]
        assert result.violations[0].message == (
            f"{where}.mon.stopTime must be later than {where}.mon.startTime"
        )

    @pytest.mark.parametrize("where", WHERE)
    def test_a_one_minute_window_is_accepted(self, where: str) -> None:
        window = {"startTime": "09:00", "stopTime": "09:01", "active": False}
        assert validate_create(with_window(where, window)).ok

    def test_each_window_is_judged_on_its_own(self) -> None:
        bad = {"startTime": "10:00", "stopTime": "10:00", "active": True}
        result = validate_create(payload(scheduling={"mon": dict(WINDOW), "tue": bad, "sun": bad}))
        assert found(result) == [
            (INVALID, "scheduling.tue.stopTime", "schedule.window_starts_before_stop"),
            (INVALID, "scheduling.sun.stopTime", "schedule.window_starts_before_stop"),
        ]

    def test_a_bad_time_is_not_also_compared(self) -> None:
        result = validate_create(
            with_window("scheduling", {**WINDOW, "startTime": "24:00", "stopTime": "23:00"})
        )
        assert [v.rule for v in result.violations] == ["schedule.window_times_are_hh_mm"]


class TestScheduleShape:
    """Weekday keys and window members (spec 2.3, D-unknown-members, D-window-members)."""

    @pytest.mark.parametrize("where", WHERE)
    @pytest.mark.parametrize("day", ["monday", "Mon", "MON", "mon ", "", "1", "weekend", "lun"])
    def test_an_unknown_weekday_key_is_refused(self, where: str, day: str) -> None:
        result = validate_create(with_window(where, dict(WINDOW), day))
        assert found(result) == [(INVALID, f"{where}.{day}", "payload.known_members_only")]

    def test_all_seven_weekdays_are_known(self) -> None:
        value = validate_create(payload(scheduling={day: dict(WINDOW) for day in WEEKDAYS})).value
        assert all(getattr(value.scheduling, day) is not None for day in WEEKDAYS)

    @pytest.mark.parametrize("where", WHERE)
    def test_an_unknown_window_member_is_refused(self, where: str) -> None:
        result = validate_create(with_window(where, {**WINDOW, "timezone": "UTC"}))
        assert found(result) == [(INVALID, f"{where}.mon.timezone", "payload.known_members_only")]

    @pytest.mark.parametrize("where", WHERE)
    def test_an_empty_window_lacks_all_three_members(self, where: str) -> None:
        result = validate_create(with_window(where, {}))
        assert found(result) == [
            (INVALID, f"{where}.mon.{name}", "payload.required_members_present")
            for name in ("startTime", "stopTime", "active")
        ]

    def test_the_wire_names_are_camel_case_only(self) -> None:
        window = {"start_time": "09:00", "stop_time": "17:00", "active": True}
        result = validate_create(payload(scheduling={"mon": window}))
        assert found(result) == [
            (INVALID, "scheduling.mon.start_time", "payload.known_members_only"),
            (INVALID, "scheduling.mon.stop_time", "payload.known_members_only"),
            (INVALID, "scheduling.mon.startTime", "payload.required_members_present"),
            (INVALID, "scheduling.mon.stopTime", "payload.required_members_present"),
        ]


class TestEqualWindowsAreOneValue:
    """A `DayWindow` is frozen: equal windows may be one object, and those kept are bounded."""

    def test_an_equal_window_is_the_same_frozen_value(self) -> None:
        window = {"startTime": "07:13", "stopTime": "19:47", "active": False}
        first = validate_create(payload(scheduling={"mon": window})).value
        again = validate_create(payload(scheduling={"fri": dict(window)})).value
        assert first is not None
        assert again is not None
        assert first.scheduling is not None
        assert again.scheduling is not None
        assert again.scheduling.fri is first.scheduling.mon
        assert first.scheduling.mon == DayWindow(datetime.time(7, 13), datetime.time(19, 47), False)

    def test_the_windows_kept_are_bounded(self) -> None:
        from campaign_rules._campaign import build

        def hh_mm(minute: int) -> str:
            return f"{minute // 60:02d}:{minute % 60:02d}"

        windows = [
            {"startTime": hh_mm(start), "stopTime": hh_mm(start + length), "active": active}
            for start in range(1400)
            for length in (1, 2, 3)
            for active in (True, False)
        ]
        assert len(windows) > 2 * build.DAY_WINDOWS_KEPT
        for first in range(0, len(windows), len(WEEKDAYS)):
            scheduling = dict(zip(WEEKDAYS, windows[first : first + len(WEEKDAYS)], strict=False))
            assert validate_create(payload(scheduling=scheduling)).ok
        kept = [*build._ACTIVE_WINDOWS.values(), *build._INACTIVE_WINDOWS.values()]
        assert sum(len(by_stop) for by_stop in kept) == build.DAY_WINDOWS_KEPT
