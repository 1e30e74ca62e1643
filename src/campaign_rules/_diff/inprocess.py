"""The installed version as a side, judged in this process by the kit's executor.

Its answers are those `conformance serve` writes (`_conformance.executor.answer`), so the new
side of a diff judges as an executor process of this version would, without the process.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from campaign_rules._conformance.executor import answer, describe
from campaign_rules._diff.environment import environment_here
from campaign_rules._diff.sides import (
    Answer,
    Description,
    Environment,
    Request,
    description_of,
)
from campaign_rules._export.catalogue import rule_rows
from campaign_rules._export.json_schema import json_schema

__all__ = ["InProcessSide"]


class InProcessSide:
    """The rules of this process: `answer` for each request, the catalogue for the rows."""

    def describe(self) -> Description:
        """The installed package's rule set, as `conformance serve` describes it."""
        description = description_of(describe())
        assert description is not None  # the kit's executor speaks protocol 1
        return description

    def rules(self) -> list[dict[str, object]]:
        """The rows `rules --json` prints, as JSON reads them back (enumerations as strings)."""
        read_back: list[dict[str, object]] = json.loads(json.dumps(rule_rows()))
        return read_back

    def bounds(self) -> dict[str, object] | None:
        """The JSON Schema `schema` prints."""
        return dict(json_schema())

    def environment(self) -> Environment:
        """The tzdata of this process."""
        return environment_here()

    def judge(self, requests: Sequence[Request]) -> list[Answer]:
        """Each request's answer, judged here."""
        return [answer(request) for request in requests]

    def close(self) -> None:
        """Nothing to end: nothing was started."""
