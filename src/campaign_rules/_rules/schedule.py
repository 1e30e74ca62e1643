"""Rules on weekly schedules (spec 2.3): `scheduling` and, in force, `cycles.schedule`."""

from __future__ import annotations

from typing import Final

from campaign_rules._campaign.document import Document
from campaign_rules._campaign.shape import START_TIME, STOP_TIME
from campaign_rules._campaign.sites import WINDOW_PATHS
from campaign_rules._core.findings import ReadyFindings, places
from campaign_rules._core.violations import Finding
from campaign_rules._rules.reader import member_path

__all__ = ["window_starts_before_stop"]

# What the rule says of a window's stop, made once for each window (`ReadyFindings`). That each
# time is `HH:MM` is a row of the table (`schedule.window_times_are_hh_mm`).
_WINDOWS: Final = [path for paths in WINDOW_PATHS.values() for path in paths]
_NOT_LATER: Final = ReadyFindings(
    lambda path, window: f"{path} must be later than {member_path(window, START_TIME)}",
    places(_WINDOWS, (STOP_TIME,)),
)


def window_starts_before_stop(doc: Document, findings: list[Finding]) -> None:
    """Compares the parsed times of each window in force; reports a stop not later at its path.

    A window a time of which did not parse is skipped: the row of `HH:MM` times reports it.
    """
    for window in doc.windows:
        # Its minutes of the day: native integers, compiled (`Window`).
        start, stop = window.start_minute, window.stop_minute
        if start < 0 or stop < 0:
            continue  # a time that is missing or not HH:MM is another rule's to report
        if start >= stop:
            findings.append(_NOT_LATER.at(window.path, STOP_TIME))
