"""Rules on weekly schedules (spec 2.3): `scheduling` and, in force, `cycles.schedule`."""

from __future__ import annotations

from collections.abc import Iterator

from campaign_rules._document import Document
from campaign_rules._formats import parse_time
from campaign_rules._json import as_string, member_path
from campaign_rules._violations import Finding

__all__ = ["window_starts_before_stop", "window_times_are_hh_mm"]

_TIME_MEMBERS = ("startTime", "stopTime")


def window_times_are_hh_mm(doc: Document) -> Iterator[Finding]:
    """`startTime` and `stopTime` are 24-hour `HH:MM` times, 00:00 to 23:59 (D-time-format)."""
    for path, window in doc.windows:
        for name in _TIME_MEMBERS:
            text = as_string(window.get(name))
            if text is not None and parse_time(text) is None:
                where = member_path(path, name)
                yield Finding(where, f"{where} must be a 24-hour time HH:MM, 00:00 to 23:59")


def window_starts_before_stop(doc: Document) -> Iterator[Finding]:
    """A window's `startTime` is before its `stopTime` (D-time-format)."""
    for path, window in doc.windows:
        start, stop = (parse_time(as_string(window.get(name)) or "") for name in _TIME_MEMBERS)
        if start is not None and stop is not None and start >= stop:
            where = member_path(path, "stopTime")
            yield Finding(where, f"{where} must be later than {member_path(path, 'startTime')}")
