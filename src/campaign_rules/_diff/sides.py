"""What the diff asks of a version of the rules: a `Side`.

A side answers five questions: who it is (`describe`), its rules as `rules --json` gives them
(`rules`), its bounds as its `schema` gives them (`bounds`), what it runs on (`environment`),
and how it judges requests of the conformance executor protocol (`judge`), version 1: a request
is `{"id", "kind", "body": {"text"} | {"base64"}, "directory", "existing", "status", "reader",
"http_status"}`, an answer `{"id", "ok", "status", "violations": [{"rule", "key", "field",
"pointer", "line", "column", "message"}], "envelope"}`, or `{"id", "unsupported": reason}` for a
request it cannot judge. A side that cannot be driven at all raises `CannotCompare`, whose one
line the command prints before it exits 2.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import attrs

__all__ = [
    "Answer",
    "CannotCompare",
    "Description",
    "Environment",
    "Request",
    "Side",
    "description_of",
    "failed_answer",
]

# One request, one answer, in the protocol's JSON shapes (PROTOCOL version 1).
Request = Mapping[str, object]
Answer = dict[str, object]


class CannotCompare(Exception):
    """The diff cannot compare: an OLD missing, not a campaign-rules, or that stopped answering.

    Its text is one line, printed as it is before the command exits 2.
    """


@attrs.frozen
class Description:
    """Who a side is: its executor's name, its rule set's identity and the kinds it judges."""

    executor: str
    version: str | None  # the rule set's version; None when the side cannot say
    fingerprint: str | None
    kinds: tuple[str, ...]  # of "create", "update", "response"


@attrs.frozen
class Environment:
    """What a side's verdicts depend on beside its code: the tzdata package and its zones."""

    tzdata: str | None  # tzdata's version; None when unknown
    zones: frozenset[str] | None  # the zone names `timezone` accepts; None when unknown


class Side(Protocol):
    """One version of the rules, as the diff drives it."""

    def describe(self) -> Description:
        """Who this side is."""
        ...

    def rules(self) -> list[dict[str, object]]:
        """Its rules, in their order, as the rows of `rules --json` (`{"ruleset", "rules"}`).

        Each row has `id`, `key` and `status`; where the version says them, `stage`, `source`
        (the clause), `summary`, `scope`, `gates`, and `pointers` with `constraint` (a row) or
        `function`. A member the version does not give is absent, not invented.
        """
        ...

    def bounds(self) -> dict[str, object] | None:
        """Its JSON Schema of a creation body, as `schema` prints it; None when it has none."""
        ...

    def environment(self) -> Environment:
        """Its tzdata version and zone names, each None when this side cannot tell."""
        ...

    def judge(self, requests: Sequence[Request]) -> list[Answer]:
        """One answer per request, in order, with its `id`: the protocol's answer shapes.

        A request of a kind, a reader or a directory this side cannot judge gets
        `{"id", "unsupported": reason}`. Raises `CannotCompare` only when the side stops
        answering altogether.
        """
        ...

    def close(self) -> None:
        """Ends whatever this side started (its process): called once, at the end of a diff."""
        ...


def description_of(told: Answer) -> Description | None:
    """A protocol-1 describe answer read, or None when it is not one."""
    if told.get("protocol") != 1:
        return None
    identity = told.get("ruleset")
    identity = identity if isinstance(identity, dict) else {}
    kinds = told.get("kinds")
    version = identity.get("version")
    fingerprint = identity.get("fingerprint")
    return Description(
        executor=str(told.get("executor", "")),
        version=version if isinstance(version, str) else None,
        fingerprint=fingerprint if isinstance(fingerprint, str) else None,
        kinds=tuple(str(kind) for kind in kinds) if isinstance(kinds, list) else (),
    )


def failed_answer(reason: str) -> Answer:
    """The answer (without its id) to a body a version fails on (D-diff-legacy).

    Not `unsupported`: the version judges such bodies, and fails. A server running it answers
    them 500, with none of its rules named; `failed` says why.
    """
    return {"ok": False, "status": 500, "violations": [], "envelope": None, "failed": reason}
