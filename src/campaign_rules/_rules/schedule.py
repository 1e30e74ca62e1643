"""Rules on weekly schedules (spec 2.3): `scheduling` and, in force, `cycles.schedule`."""

from __future__ import annotations

from campaign_rules._campaign.document import Document
from campaign_rules._campaign.shape import START_TIME, STOP_TIME
from campaign_rules._core.json import member_path
from campaign_rules._core.violations import Finding

__all__ = ["window_starts_before_stop", "window_times_are_hh_mm"]


def window_times_are_hh_mm(doc: Document, findings: list[Finding]) -> None:
    """Reads each time of the windows in force (`Document.windows`) that is a string, once.

    A time that does not parse is reported at its path; a missing time, or one of another type,
    is the shape rules'.
    """
    for window in doc.windows:
        # A member that is missing or not a string (text None) is another rule's to report;
        # a minute of the day below 0 is a string that is not HH:MM (`Window`).
        if window.start is not None and window.start_minute < 0:
            findings.append(_not_hh_mm(member_path(window.path, START_TIME)))
        if window.stop is not None and window.stop_minute < 0:
            findings.append(_not_hh_mm(member_path(window.path, STOP_TIME)))


def _not_hh_mm(path: str) -> Finding:
    return Finding(path, f"{path} must be a 24-hour time HH:MM, 00:00 to 23:59")


def window_starts_before_stop(doc: Document, findings: list[Finding]) -> None:
    """Compares the parsed times of each window in force; reports a stop not later at its path.

    A window a time of which did not parse is skipped: `window_times_are_hh_mm` reports it.
    """
    for window in doc.windows:
        # Its minutes of the day: native integers, compiled (`Window`).
        start, stop = window.start_minute, window.stop_minute
        if start < 0 or stop < 0:
            continue  # a time that is missing or not HH:MM is another rule's to report
        if start >= stop:
            start_path = member_path(window.path, START_TIME)
            stop_path = member_path(window.path, STOP_TIME)
            findings.append(Finding(stop_path, f"{stop_path} must be later than {start_path}"))
