"""The IANA time zone names the tzdata package lists (D-timezone).

The set is read once, on first use, from the `zones` file that the tzdata package ships. No
name given by a caller is ever used to open a file or passed to `zoneinfo.ZoneInfo`, so the
answer is the same on every host, whatever zone files it has.
"""

from __future__ import annotations

import pkgutil
from typing import Final

from campaign_rules._core.limits import TIMEZONE_NAME_MAX_LENGTH

__all__ = ["is_timezone_name", "timezone_names"]


class _ZoneNames:
    """The set of names once read: `None` until the first call of `timezone_names`.

    An attribute, not `functools.cache`: compiled, this is a read of a C struct's field, where
    the cache's wrapper was called as any Python object. Two threads that both find it empty
    both read the file and store equal sets.
    """

    names: frozenset[str] | None = None


_LOADED: Final = _ZoneNames()


def timezone_names() -> frozenset[str]:
    """Every zone name of the installed tzdata package, backward-compatible links included."""
    names = _LOADED.names
    if names is None:
        names = _LOADED.names = _read_zone_names()
    return names


def _read_zone_names() -> frozenset[str]:
    # The package loader's own read, as importlib.resources would do it, but without importing
    # pathlib, tempfile and the rest, which cost more than the rest of the first validation.
    listing = pkgutil.get_data("tzdata", "zones") or b""
    return frozenset(listing.decode("utf-8").split())


def is_timezone_name(text: str) -> bool:
    """Whether `text` is a zone name of the tzdata package."""
    return len(text) <= TIMEZONE_NAME_MAX_LENGTH and text in timezone_names()
