"""The zone names of the tzdata package, read as any user of a peer library would read them."""

from __future__ import annotations

import importlib.resources

ZONE_NAMES = frozenset(importlib.resources.files("tzdata").joinpath("zones").read_text().split())
