"""Pieces that several rules share."""

from __future__ import annotations

from campaign_rules._core.json import json_type

__all__ = ["article_of", "with_article"]


def with_article(type_name: str) -> str:
    """A JSON type's name with its article, for messages: "an integer", "a string", "null"."""
    if type_name == "null":
        return "null"
    return f"an {type_name}" if type_name[0] in "aeiou" else f"a {type_name}"


def article_of(value: object) -> str:
    """The JSON type of `value` with its article, for messages ("an array")."""
    kind = json_type(value)
    return "a Python value JSON cannot hold" if kind == "unsupported" else with_article(kind)
