"""Rules on weekly schedules (spec 2.3): `scheduling` and, in force, `cycles.schedule`."""

from __future__ import annotations

from typing import Final

from campaign_rules._campaign.document import Document
from campaign_rules._campaign.shape import START_TIME, STOP_TIME
from campaign_rules._campaign.sites import WINDOW_PATHS
from campaign_rules._core.findings import PathThen, ReadyFindings, places
from campaign_rules._core.json import member_path
from campaign_rules._core.violations import Finding

__all__ = ["window_starts_before_stop", "window_times_are_hh_mm"]

# What each rule says of a window's time, made once for each window's member (`ReadyFindings`).
_WINDOWS: Final = [path for paths in WINDOW_PATHS.values() for path in paths]
_NOT_HH_MM: Final = ReadyFindings(
    PathThen("must be a 24-hour time HH:MM, 00:00 to 23:59"),
    places(_WINDOWS, (START_TIME, STOP_TIME)),
)
_NOT_LATER: Final = ReadyFindings(
    lambda path, window: f"{path} must be later than {member_path(window, START_TIME)}",
    places(_WINDOWS, (STOP_TIME,)),
)


def window_times_are_hh_mm(doc: Document, findings: list[Finding]) -> None:
    """Reads each time of the windows in force (`Document.windows`) that is a string, once.

    A time that does not parse is reported at its path; a missing time, or one of another type,
    is the shape rules'.
    """
    for window in doc.windows:
        # A member that is missing or not a string (text None) is another rule's to report;
        # a minute of the day below 0 is a string that is not HH:MM (`Window`).
        if window.start is not None and window.start_minute < 0:
            findings.append(_NOT_HH_MM.at(window.path, START_TIME))
        if window.stop is not None and window.stop_minute < 0:
            findings.append(_NOT_HH_MM.at(window.path, STOP_TIME))


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
            findings.append(_NOT_LATER.at(window.path, STOP_TIME))
