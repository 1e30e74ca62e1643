"""Pieces that several rules share."""

from __future__ import annotations

from campaign_rules._core.json import as_integer, json_type
from campaign_rules._core.limits import Bounds

__all__ = ["article_of", "integer_outside", "with_article"]


def integer_outside(value: object, bounds: Bounds) -> bool:
    """Whether `value` is an integer outside `bounds`; `False` for any other value.

    A value that is not an integer is the type rule's to report.
    """
    number = as_integer(value)
    return number is not None and number not in bounds


def with_article(type_name: str) -> str:
    """A JSON type's name with its article, for messages: "an integer", "a string", "null"."""
    if type_name == "null":
        return "null"
    return f"an {type_name}" if type_name[0] in "aeiou" else f"a {type_name}"


def article_of(value: object) -> str:
    """The JSON type of `value` with its article, for messages ("an array")."""
    kind = json_type(value)
    return "a Python value JSON cannot hold" if kind == "unsupported" else with_article(kind)
