"""Rules on weekly schedules (spec 2.3): `scheduling` and, in force, `cycles.schedule`."""

from __future__ import annotations

from typing import Final

from campaign_rules._campaign.document import Document
from campaign_rules._campaign.shape import START_TIME, STOP_TIME
from campaign_rules._campaign.sites import WINDOW_PATHS
from campaign_rules._core.findings import ReadyFindings, places
from campaign_rules._core.formats import minute_of_day
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
    """Compares the times of each window in force; reports a stop not later at its path.

    Two `HH:MM` texts compare as the times they spell (two digits, a colon, two digits), so the
    texts are compared first, and only a stop not after its start is parsed, with its start:
    a window a time of which is missing or not `HH:MM` is skipped (another rule reports it).
    """
    for window in doc.windows:
        start, stop = window.start, window.stop
        if start is None or stop is None or start < stop:
            continue  # in order, or a time missing: nothing to report here
        if minute_of_day(start) >= 0 and minute_of_day(stop) >= 0:
            findings.append(_NOT_LATER.at(window.path, STOP_TIME))
