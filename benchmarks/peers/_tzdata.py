"""The zone names of the tzdata package, read as campaign_rules reads them (D-timezone)."""

from __future__ import annotations

import pkgutil

ZONE_NAMES = frozenset((pkgutil.get_data("tzdata", "zones") or b"").decode("utf-8").split())
