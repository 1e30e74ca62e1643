"""The values at each side of a bound: what a member is set to, to find where two versions part.

`minimum` m gives m - 1 and m, `maximum` M gives M and M + 1; a length or a count one under,
at and one over; every value of a short enumeration (of a long one, those one side lists and
the other does not) and one unlisted; each library keyword of the rows its edge cases (D-diff).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from campaign_rules._core.limits import BODY_MAX_BYTES

__all__ = ["bound_values"]

# Of an enumeration longer than this, only the values one side lists and the other does not.
_ENUM_SHOWN = 30


def bound_values(
    keyword: str, values: list[object], zones: Sequence[frozenset[str] | None]
) -> Iterator[tuple[object, str]]:
    """The values at each side of each bound `keyword` takes, each with why it is tried."""
    for bound in values:
        yield from _each_side(keyword, bound, values, zones)


def _each_side(
    keyword: str, bound: object, values: list[object], zones: Sequence[frozenset[str] | None]
) -> Iterator[tuple[object, str]]:
    number = bound if isinstance(bound, int) and not isinstance(bound, bool) else None
    if keyword in {"minimum", "exclusiveMaximum"} and number is not None:
        yield number - 1, f"{keyword} {number} - 1"
        yield number, f"{keyword} {number}"
    elif keyword in {"maximum", "exclusiveMinimum"} and number is not None:
        yield number, f"{keyword} {number}"
        yield number + 1, f"{keyword} {number} + 1"
    elif keyword in {"minLength", "maxLength"} and number is not None:
        for length in (number - 1, number, number + 1):
            if 0 <= length <= BODY_MAX_BYTES // 4:
                yield "a" * length, f"{keyword} {number}: {length} characters"
    elif keyword in {"minItems", "maxItems"} and number is not None:
        for count in (number - 1, number, number + 1):
            if 0 <= count <= 10_000:
                yield (
                    [f"item_{index}" for index in range(count)],
                    f"{keyword} {number}: {count} items",
                )
    elif keyword == "enum" and isinstance(bound, list):
        yield from _enumerated(bound, values)
    elif keyword == "const":
        yield bound, "const"
        if isinstance(bound, bool):
            yield not bound, "const negated"
    elif keyword == "type" and bound == "null":
        yield None, "type null"
    elif keyword in {"uniqueItems", "itemsUnique"} and bound is True:
        yield ["item_0", "item_0"], f"{keyword}: an item repeated"
    elif keyword == "notBlank":
        for text in (" ", "\u3000", "\u200b", "a"):
            yield text, f"notBlank: {text!r}"
    elif keyword == "uuidV4":
        for text in (
            "3f9c2a7e-5b1d-1c8e-9a2f-6d4b8e1c7a90",
            "3F9C2A7E-5B1D-4C8E-9A2F-6D4B8E1C7A90",
            "3f9c2a7e5b1d4c8e9a2f6d4b8e1c7a90",
            "3f9c2a7e-5b1d-4c8e-ca2f-6d4b8e1c7a90",
        ):
            yield text, f"uuidV4: {text}"
    elif keyword == "ianaZone":
        yield from _zones(zones)
    elif keyword == "hhMm":
        for text in ("00:00", "23:59", "24:00", "9:00", "09:60", "12:00:00"):
            yield text, f"hhMm: {text}"
    elif keyword == "isoDate":
        for text in ("2028-02-29", "2027-02-29", "2027-13-01", "2027-1-04", "0000-01-01"):
            yield text, f"isoDate: {text}"


def _enumerated(bound: list[object], values: list[object]) -> Iterator[tuple[object, str]]:
    """Each listed value (of a long list, those the other side's list lacks), and one unlisted."""
    lists = [value for value in values if isinstance(value, list)]
    everyone = [item for listed in lists for item in listed]
    if len(set(map(repr, everyone))) > _ENUM_SHOWN:
        common = [item for item in bound if all(item in listed for listed in lists)]
        shown = [item for item in bound if item not in common][:_ENUM_SHOWN] + common[:1]
    else:
        shown = list(bound)
    for item in shown:
        yield item, f"enum value {item!r}"
    yield "not_a_listed_value", "enum: a value not listed"


def _zones(zones: Sequence[frozenset[str] | None]) -> Iterator[tuple[object, str]]:
    known = [side for side in zones if side is not None]
    differing: set[str] = set()
    if len(known) == 2:
        differing = set(known[0] ^ known[1])
    for zone in [*sorted(differing)[:_ENUM_SHOWN], "UTC", "Etc/Nowhere"]:
        yield zone, f"ianaZone: {zone}"
