"""Pieces that several rules share."""

from __future__ import annotations

from collections.abc import Iterator

from campaign_rules._json import as_integer
from campaign_rules._limits import Bounds
from campaign_rules._violations import Finding

__all__ = ["integer_outside"]


def integer_outside(value: object, bounds: Bounds, path: str) -> Iterator[Finding]:
    """Report an integer `value` outside `bounds`; other types are the type rule's to report."""
    number = as_integer(value)
    if number is not None and number not in bounds:
        yield Finding(path, f"{path} must be {bounds.describe()}")
