"""How the runner compares an executor's answer with a case's: strict by default.

Always compared: `ok`, `status`, and for every violation, in order, its `rule`, `key`, `field`
and `pointer`, and the `envelope` but for its `message`. `places` adds each violation's `line`
and `column`; `messages` adds each violation's `message` and the envelope's.
"""

from __future__ import annotations

import json
from typing import Any, Final

import attrs

__all__ = ["ABSENT", "Difference", "Strictness", "differences", "shown"]

_ALWAYS: Final = ("rule", "key", "field", "pointer")
_PLACES: Final = ("line", "column")
_MESSAGE: Final = "message"


class _Absent:
    """What a side lacks: a violation, a member of an envelope or an HTTP body, a header."""

    def __repr__(self) -> str:
        return "absent"


ABSENT: Final = _Absent()
# The characters of a value a difference line shows: an HTTP body can be as long as the body
# limit, and the point of the line is where the answers part.
_SHOWN_CHARACTERS: Final = 300


@attrs.frozen
class Strictness:
    """What a comparison adds to the default: places, messages."""

    places: bool = False
    messages: bool = False

    def violation_fields(self) -> tuple[str, ...]:
        """The members of a violation compared."""
        return (
            *_ALWAYS,
            *(_PLACES if self.places else ()),
            *((_MESSAGE,) if self.messages else ()),
        )


@attrs.frozen
class Difference:
    """One place where an answer differs: where, what was wanted and what came.

    `at` is a path in an executor's answer (`violations[0].rule`), or `status`, `header NAME`
    or `body POINTER` of an HTTP one.
    """

    at: str
    want: object
    got: object

    def __str__(self) -> str:
        return f"{self.at}: want {shown(self.want)}, got {shown(self.got)}"

    def to_json(self) -> dict[str, object]:
        """The difference as JSON data; a side that is absent is left out."""
        sides = {"want": self.want, "got": self.got}
        return {"at": self.at, **{name: v for name, v in sides.items() if v is not ABSENT}}


def shown(value: object) -> str:
    """A value as a difference line shows it: JSON, cut when long, or `absent`."""
    if value is ABSENT:
        return "absent"
    text = json.dumps(value, ensure_ascii=True, sort_keys=True)
    return text if len(text) <= _SHOWN_CHARACTERS else text[:_SHOWN_CHARACTERS] + "..."


def differences(
    want: dict[str, Any], got: dict[str, Any], strictness: Strictness
) -> list[Difference]:
    """Every difference between a case's answer (`want`) and an executor's (`got`), in order.

    Both are judged answers of the protocol (`ok`, `status`, `violations`, `envelope`).
    """
    found = [
        Difference(name, want[name], got[name])
        for name in ("ok", "status")
        if not _same(want[name], got[name])
    ]
    fields = strictness.violation_fields()
    wanted, given = want["violations"], got["violations"]
    for index in range(max(len(wanted), len(given))):
        path = f"violations[{index}]"
        if index >= len(given):
            found.append(Difference(path, _only(wanted[index], fields), ABSENT))
        elif index >= len(wanted):
            found.append(Difference(path, ABSENT, _only(given[index], fields)))
        else:
            found.extend(
                Difference(f"{path}.{name}", wanted[index][name], given[index][name])
                for name in fields
                if not _same(wanted[index][name], given[index][name])
            )
    found.extend(_envelope_differences(want["envelope"], got["envelope"], strictness))
    return found


def _envelope_differences(
    want: dict[str, Any] | None, got: dict[str, Any] | None, strictness: Strictness
) -> list[Difference]:
    if want is None or got is None:
        return [] if want is got else [Difference("envelope", want, got)]
    names = [*want, *(name for name in got if name not in want)]
    return [
        Difference(f"envelope.{name}", want.get(name, ABSENT), got.get(name, ABSENT))
        for name in names
        if (strictness.messages or name != _MESSAGE)
        and not _same(want.get(name, ABSENT), got.get(name, ABSENT))
    ]


def _only(violation: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    return {name: violation[name] for name in fields}


def _same(want: object, got: object) -> bool:
    """Equal as JSON texts: `1` is not `true`, and `1.0` is not `1`."""
    if want is ABSENT or got is ABSENT:
        return want is got
    return json.dumps(want, sort_keys=True) == json.dumps(got, sort_keys=True)
