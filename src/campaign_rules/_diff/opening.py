"""Which kind of side an OLD command is: an executor, a legacy version, or not comparable."""

from __future__ import annotations

import os
import shutil

from campaign_rules._cli.wording import printable
from campaign_rules._diff.process import ProcessSide
from campaign_rules._diff.sides import CannotCompare, Side

__all__ = ["open_old"]


def open_old(command: str) -> Side:
    """The version behind `command`, driven through its executor or, failing that, as legacy.

    Raises `CannotCompare` (one line) when `command` is missing or is not a campaign-rules.
    """
    found = shutil.which(command) if os.sep not in command else command
    if found is None or not os.path.isfile(found) or not os.access(found, os.X_OK):
        raise CannotCompare(f"cannot compare: {printable(command)} is not an executable command")
    side = ProcessSide.start(found)
    if side is not None:
        return side
    try:
        from campaign_rules._diff.legacy import open_legacy  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise CannotCompare(
            f"cannot compare: {printable(command)} speaks no conformance executor protocol"
        ) from None
    legacy: Side = open_legacy(found)
    return legacy
