"""Rules on weekly schedules (spec 2.3): `scheduling` and, in force, `cycles.schedule`."""

from __future__ import annotations

from collections.abc import Iterator

from campaign_rules._document import Document
from campaign_rules._formats import parse_time
from campaign_rules._json import member_path
from campaign_rules._violations import Finding

__all__ = ["window_starts_before_stop", "window_times_are_hh_mm"]


def window_times_are_hh_mm(doc: Document) -> Iterator[Finding]:
    """`startTime` and `stopTime` are 24-hour `HH:MM` times, 00:00 to 23:59 (D-time-format)."""
    for window in doc.windows:
        for name, text in (("startTime", window.start), ("stopTime", window.stop)):
            # A member that is missing or not a string is another rule's to report.
            if text is not None and parse_time(text) is None:
                path = member_path(window.path, name)
                yield Finding(path, f"{path} must be a 24-hour time HH:MM, 00:00 to 23:59")


def window_starts_before_stop(doc: Document) -> Iterator[Finding]:
    """A window's `startTime` is before its `stopTime` (D-time-format)."""
    for window in doc.windows:
        start, stop = parse_time(window.start or ""), parse_time(window.stop or "")
        if start is None or stop is None:
            continue  # a time that is missing or not HH:MM is another rule's to report
        if start >= stop:
            yield Finding(
                member_path(window.path, "stopTime"),
                f"{member_path(window.path, 'stopTime')} must be later than "
                f"{member_path(window.path, 'startTime')}",
            )
