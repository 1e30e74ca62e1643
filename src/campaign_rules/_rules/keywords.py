"""The constraint vocabulary of the rule rows: one small check per keyword.

A row of the rule table (`_rules.table`) states what a member's value must be as a
`constraint`, a mapping of keywords to their arguments. Where JSON Schema has a keyword of
exactly that meaning, the row uses it (`minimum`, `maxLength`, `enum`, `maxItems`, `type`...);
where it has none, the library's own keyword, named for what it checks (`hhMm`, `isoDate`,
`uuidV4`, `ianaZone`, `notBlank`, `unicodeText`, `itemsUnique`). `VOCABULARY` lists them all,
with how the JSON Schema export writes each (docs/constraints.md is generated from it).

As in JSON Schema, a keyword judges values of its own JSON type only (`maxLength` a string,
`minimum` an integer, `maxItems` an array) and passes every other value: the value of another
type is the type rule's (`payload.members_have_json_types`), which the row's gates name. A
check reads its value with the exact-type readers of `_core.json`, and never raises.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from campaign_rules._core.formats import HH_MM_TEXTS, is_blank, is_uuid_v4, parse_date
from campaign_rules._core.limits import TIMEZONE_NAME_MAX_LENGTH
from campaign_rules._core.timezones import is_timezone_name
from campaign_rules._core.unicode import has_surrogate, string_has_surrogate
from campaign_rules._rules.reader import array_length, as_integer, as_string, as_string_head

__all__ = ["VOCABULARY", "Keyword", "KeywordInfo", "constraint_check", "keyword_checks"]

# The length of `HH:MM`, `YYYY-MM-DD` and a UUID: a `str` subclass is copied one character
# further at most, which refuses it as the whole would (D-hostile-input).
_HH_MM_LENGTH: Final = len("HH:MM")
_DATE_LENGTH: Final = len("YYYY-MM-DD")
_UUID_LENGTH: Final = len("00000000-0000-0000-0000-000000000000")


class Keyword:
    """The check of one keyword of a constraint, with its argument: `refuses(value)`.

    `name` is the keyword as the row spells it; `json_type` the JSON type it judges (any other
    value passes). `accepted`: when its verdict on an exact `str` is whether the text is one of
    a set, that set (else `None`), which the plan looks a text up in without calling `refuses`.
    """

    name: str = ""
    json_type: str = ""
    accepted: frozenset[str] | None = None

    def refuses(self, value: object) -> bool:
        """Whether the keyword refuses `value`; a value of another JSON type passes."""
        raise NotImplementedError


class Minimum(Keyword):
    """JSON Schema's `minimum`, on an integer (an integral float included, D-integral-floats)."""

    name = "minimum"
    json_type = "integer"

    def __init__(self, low: int) -> None:
        self.low = low

    def refuses(self, value: object) -> bool:
        number = as_integer(value)
        return number is not None and number < self.low


class Maximum(Keyword):
    """JSON Schema's `maximum`, on an integer (an integral float included, D-integral-floats)."""

    name = "maximum"
    json_type = "integer"

    def __init__(self, high: int) -> None:
        self.high = high

    def refuses(self, value: object) -> bool:
        number = as_integer(value)
        return number is not None and number > self.high


class IntegerRange(Keyword):
    """`minimum` and `maximum` together, as one check: one reading of the integer."""

    name = "minimum, maximum"
    json_type = "integer"

    def __init__(self, low: int, high: int) -> None:
        self.low = low
        self.high = high

    def refuses(self, value: object) -> bool:
        if type(value) is int:  # the common case, without a reader's call
            return not self.low <= value <= self.high
        number = as_integer(value)
        return number is not None and not self.low <= number <= self.high


class NonEmptyString(Keyword):
    """`"type": "string"` with `minLength` 1, as one check: a string of a character or more."""

    name = "type, minLength"
    json_type = "any"

    def refuses(self, value: object) -> bool:
        if type(value) is str:  # the common case, without a reader's call
            return not value
        return not as_string(value)


class AllOf(Keyword):
    """Several keywords of one constraint: refused when one of them refuses."""

    name = "allOf"
    json_type = "any"

    def __init__(self, keywords: tuple[Keyword, ...]) -> None:
        self.keywords = keywords

    def refuses(self, value: object) -> bool:
        for keyword in self.keywords:  # noqa: SIM110 (a loop: no generator made, as `_core.json`)
            if keyword.refuses(value):
                return True
        return False


class MaxLength(Keyword):
    """JSON Schema's `maxLength`: at most so many code points."""

    name = "maxLength"
    json_type = "string"

    def __init__(self, length: int) -> None:
        self.length = length

    def refuses(self, value: object) -> bool:
        # An exact `str`, the common case, is read without a reader's call.
        text = value if type(value) is str else as_string_head(value, self.length + 1)
        return text is not None and len(text) > self.length


class MinLength(Keyword):
    """JSON Schema's `minLength`: at least so many code points."""

    name = "minLength"
    json_type = "string"

    def __init__(self, length: int) -> None:
        self.length = length

    def refuses(self, value: object) -> bool:
        # An exact `str`, the common case, is read without a reader's call.
        text = value if type(value) is str else as_string_head(value, self.length)
        return text is not None and len(text) < self.length


class StringType(Keyword):
    """JSON Schema's `"type": "string"`: of an array's items, where no type rule reads them."""

    name = "type"
    json_type = "any"

    def refuses(self, value: object) -> bool:
        return as_string(value) is None


class NullType(Keyword):
    """JSON Schema's `"type": "null"`: a member present only as `null` (absent passes)."""

    name = "type"
    json_type = "any"

    def refuses(self, value: object) -> bool:
        return value is not None


class Enum(Keyword):
    """JSON Schema's `enum`, of strings: one of the values listed."""

    name = "enum"
    json_type = "string"

    def __init__(self, values: frozenset[str]) -> None:
        self.values = values
        self.accepted = values
        # A longer text is none of them: a `str` subclass is copied no further.
        self.head = max(len(value) for value in values) + 1

    def refuses(self, value: object) -> bool:
        # An exact `str`, the common case, is read without a reader's call.
        text = value if type(value) is str else as_string_head(value, self.head)
        return text is not None and text not in self.values


class NotBlank(Keyword):
    """The library's `notBlank`: a character other than white space (D-blank-name)."""

    name = "notBlank"
    json_type = "string"

    def refuses(self, value: object) -> bool:
        text = value if type(value) is str else as_string(value)
        return text is not None and is_blank(text)


class UuidV4(Keyword):
    """The library's `uuidV4`: a version 4 UUID in 8-4-4-4-12 form, either case (D-agent-id)."""

    name = "uuidV4"
    json_type = "string"

    def refuses(self, value: object) -> bool:
        # An exact `str`, the common case, is read without a reader's call.
        text = value if type(value) is str else as_string_head(value, _UUID_LENGTH + 1)
        return text is not None and not is_uuid_v4(text)


class IanaZone(Keyword):
    """The library's `ianaZone`: a zone name the tzdata package lists (D-timezone)."""

    name = "ianaZone"
    json_type = "string"

    def refuses(self, value: object) -> bool:
        # An exact `str`, the common case, is read without a reader's call.
        text = value if type(value) is str else as_string_head(value, TIMEZONE_NAME_MAX_LENGTH + 1)
        return text is not None and not is_timezone_name(text)


class HhMm(Keyword):
    """The library's `hhMm`: a 24-hour `HH:MM` time, 00:00 to 23:59 (D-time-format).

    Judged by the texts the one parser accepts (`_core.formats.HH_MM_TEXTS`, the keys of its
    table): one look-up, where the parser reads the text anew for each value.
    """

    name = "hhMm"
    json_type = "string"

    def __init__(self) -> None:
        self.accepted = HH_MM_TEXTS

    def refuses(self, value: object) -> bool:
        # An exact `str`, the common case, is read without a reader's call.
        text = value if type(value) is str else as_string_head(value, _HH_MM_LENGTH + 1)
        return text is not None and text not in HH_MM_TEXTS


class IsoDate(Keyword):
    """The library's `isoDate`: an ISO 8601 calendar date `YYYY-MM-DD` that exists."""

    name = "isoDate"
    json_type = "string"

    def refuses(self, value: object) -> bool:
        # An exact `str`, the common case, is read without a reader's call.
        text = value if type(value) is str else as_string_head(value, _DATE_LENGTH + 1)
        return text is not None and parse_date(text) is None


class UnicodeText(Keyword):
    """The library's `unicodeText`: a string holding no lone surrogate (D-lone-surrogates).

    A string a JSON text could not carry in UTF-8: JSON Schema has no keyword for it.
    """

    name = "unicodeText"
    json_type = "string"

    def refuses(self, value: object) -> bool:
        # An exact `str`, the common case, is read without the dispatch's call. A `str`
        # subclass is read without a copy (D-hostile-input); either is encoded whole when it is
        # not ASCII, which is why the row leaves a name over its length limit to that row.
        return has_surrogate(value) if type(value) is str else string_has_surrogate(value)


class MaxItems(Keyword):
    """JSON Schema's `maxItems`: an array of at most so many items, counted without reading them."""

    name = "maxItems"
    json_type = "array"

    def __init__(self, count: int) -> None:
        self.count = count

    def refuses(self, value: object) -> bool:
        length = array_length(value)
        return length is not None and length > self.count


class ItemsUnique(Keyword):
    """The library's `itemsUnique`: JSON Schema's `uniqueItems`, each repeat reported at its index.

    Judged by the plan (`_rules.plan`) on the items of an array, not on one value: `refuses`
    passes every value.
    """

    name = "itemsUnique"
    json_type = "array"

    def refuses(self, value: object) -> bool:
        return False


class KeywordInfo:
    """A keyword of the vocabulary: whose it is, what it means, how JSON Schema says it."""

    __slots__ = ("exported", "json_type", "meaning", "name", "standard")

    def __init__(
        self, name: str, json_type: str, standard: bool, meaning: str, exported: str
    ) -> None:
        self.name = name
        self.json_type = json_type
        self.standard = standard
        self.meaning = meaning
        self.exported = exported


VOCABULARY: Final[tuple[KeywordInfo, ...]] = (
    KeywordInfo(
        "type",
        "any",
        True,
        '`"string"`: an item is a string; `"null"`: a member is absent or `null`.',
        "as it is",
    ),
    KeywordInfo(
        "minimum",
        "integer",
        True,
        "The integer is at least the argument (D-integral-floats).",
        "as it is",
    ),
    KeywordInfo(
        "maximum",
        "integer",
        True,
        "The integer is at most the argument (D-integral-floats).",
        "as it is",
    ),
    KeywordInfo(
        "minLength",
        "string",
        True,
        "The string has at least so many code points.",
        "as it is",
    ),
    KeywordInfo(
        "maxLength",
        "string",
        True,
        "The string has at most so many code points.",
        "as it is",
    ),
    KeywordInfo(
        "enum",
        "string",
        True,
        "The string is one of the values listed.",
        "as it is",
    ),
    KeywordInfo(
        "maxItems",
        "array",
        True,
        "The array has at most so many items; a longer one is not read.",
        "as it is",
    ),
    KeywordInfo(
        "notBlank",
        "string",
        False,
        "A character other than white space (D-blank-name).",
        "`pattern`: a class of every character but white space",
    ),
    KeywordInfo(
        "uuidV4",
        "string",
        False,
        "A UUID v4 in 8-4-4-4-12 form, either case (D-agent-id).",
        "`pattern`, `minLength` and `maxLength` 36",
    ),
    KeywordInfo(
        "ianaZone",
        "string",
        False,
        "A zone name the tzdata package lists (D-timezone).",
        "`enum` of the tzdata package's names",
    ),
    KeywordInfo(
        "hhMm",
        "string",
        False,
        "A 24-hour time `HH:MM`, 00:00 to 23:59 (D-time-format).",
        "`pattern`, `minLength` and `maxLength` 5: no `format` (D-json-schema)",
    ),
    KeywordInfo(
        "isoDate",
        "string",
        False,
        "An ISO 8601 date `YYYY-MM-DD` that exists (D-cycle-dates).",
        "`pattern`, `minLength` and `maxLength` 10: no `format` (D-json-schema)",
    ),
    KeywordInfo(
        "unicodeText",
        "string",
        False,
        "Unicode text: no lone surrogate, which UTF-8 cannot write (D-lone-surrogates).",
        "not exported: a JSON text read as I-JSON holds none (D-json-schema)",
    ),
    KeywordInfo(
        "itemsUnique",
        "array",
        False,
        "No item repeats an earlier one; each repeat at its index.",
        "`uniqueItems: true`",
    ),
)


def keyword_checks(constraint: Mapping[str, object]) -> tuple[Keyword, ...]:
    """The checks of `constraint`'s keywords, in the order the constraint lists them.

    Refuses, at import, a keyword outside the vocabulary or an argument of the wrong kind.
    """
    checks: list[Keyword] = []
    for name, argument in constraint.items():
        checks.append(_check_of(name, argument))
    return tuple(checks)


def constraint_check(constraint: Mapping[str, object]) -> Keyword:
    """One check of the whole of `constraint`: its keyword's, or the keywords' together.

    `minimum` with `maximum` is one check of the range (the integer read once); any other
    set of keywords is `AllOf` them, in order.
    """
    checks = keyword_checks(constraint)
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2 and isinstance(checks[0], Minimum) and isinstance(checks[1], Maximum):
        return IntegerRange(checks[0].low, checks[1].high)
    if (
        len(checks) == 2
        and isinstance(checks[0], StringType)
        and isinstance(checks[1], MinLength)
        and checks[1].length == 1
    ):
        return NonEmptyString()
    return AllOf(checks)


def _check_of(name: str, argument: object) -> Keyword:
    """The check of keyword `name` with its `argument`."""
    if name in ("minimum", "maximum", "minLength", "maxLength", "maxItems"):
        if type(argument) is not int:
            raise ValueError(f"{name} takes an integer, not {argument!r}")
        return _BOUNDED[name](argument)
    if name == "type":
        if argument == "string":
            return StringType()
        if argument == "null":
            return NullType()
        raise ValueError(f"type {argument!r} is not in the vocabulary")
    if name == "enum":
        if not isinstance(argument, (list, tuple)) or not all(
            type(value) is str for value in argument
        ):
            raise ValueError(f"enum takes a list of strings, not {argument!r}")
        return Enum(frozenset(argument))
    flag = _FLAGS.get(name)
    if flag is None:
        raise ValueError(f"{name} is not a keyword of the vocabulary")
    if argument is not True:
        raise ValueError(f"{name} takes true, not {argument!r}")
    return flag()


_BOUNDED: Final[dict[str, Callable[[int], Keyword]]] = {
    "minimum": Minimum,
    "maximum": Maximum,
    "minLength": MinLength,
    "maxLength": MaxLength,
    "maxItems": MaxItems,
}
_FLAGS: Final[dict[str, type[Keyword]]] = {
    "notBlank": NotBlank,
    "uuidV4": UuidV4,
    "ianaZone": IanaZone,
    "hhMm": HhMm,
    "isoDate": IsoDate,
    "unicodeText": UnicodeText,
    "itemsUnique": ItemsUnique,
}
