"""Pieces that several rules share."""

from __future__ import annotations

from campaign_rules._json import as_integer
from campaign_rules._limits import Bounds
from campaign_rules._violations import Finding

__all__ = ["integer_outside"]


def integer_outside(value: object, bounds: Bounds, path: str) -> Finding | None:
    """The finding for an integer `value` outside `bounds`; `None` for any other value.

    A value that is not an integer is the type rule's to report.
    """
    number = as_integer(value)
    if number is not None and number not in bounds:
        return Finding(path, f"{path} must be {bounds.describe()}")
    return None
