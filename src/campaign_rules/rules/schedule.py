"""Rules on weekly schedules (spec 2.3): `scheduling` and, in force, `cycles.schedule`."""

from __future__ import annotations

from collections.abc import Iterator

from campaign_rules._document import Document
from campaign_rules._violations import Finding

__all__ = ["window_starts_before_stop", "window_times_are_hh_mm"]


def window_times_are_hh_mm(doc: Document) -> Iterator[Finding]:
    """`startTime` and `stopTime` are 24-hour `HH:MM` times, 00:00 to 23:59 (D-time-format)."""
    for times in doc.window_times:
        for time in times:
            if time is not None and time.time is None:
                yield Finding(
                    time.path, f"{time.path} must be a 24-hour time HH:MM, 00:00 to 23:59"
                )


def window_starts_before_stop(doc: Document) -> Iterator[Finding]:
    """A window's `startTime` is before its `stopTime` (D-time-format)."""
    for start, stop in doc.window_times:
        if start is None or stop is None or start.time is None or stop.time is None:
            continue  # a time that is missing or not HH:MM is another rule's to report
        if start.time >= stop.time:
            yield Finding(stop.path, f"{stop.path} must be later than {start.path}")
