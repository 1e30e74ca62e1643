"""How fast could a pure-Python `validate_create` of this design be? A floor, beside pydantic.

    python benchmarks/floor.py [--size N] [--rounds R] [--seed S] [--corpus small]

`build_only` does, for a valid payload, a part of the work that a pure-Python implementation
of the issue's design (fresh frozen attrs value objects, rules as functions in a table) does:
read each member once (a plain `dict` look-up, trusting its type) and build the frozen attrs
value objects (`CampaignCreate`, `Schedule`, `DayWindow`, `CyclesConfig`). It checks nothing:
no rule runs, no violation is made, no type is checked, an invalid payload may even raise.
Whatever it costs, a validator of that design that also checks every rule and reports every
violation costs more; so if this floor alone takes most of pydantic's time, the rules cannot
fit in the rest.

`visit_all` looks at every value of a payload once and does nothing else: about the least
reading of a validator that reports every violation, valid payload or not.

`empty_rules` is the other part that the issue's design makes certain: running the creation
rule table, every rule a function that appends what it finds to a list, when every rule finds
nothing at once (each of its 27 checks replaced by one that finds nothing, on a payload nobody
reads). It is what running
the rules costs before any rule looks at anything. On a valid payload, `build_only` and
`empty_rules` add up: a validator built as the issue asks costs at least their sum, plus the
real checks; on an invalid one, at least `visit_all` and `empty_rules`.

`value_objects` (issue 22) is the value part of the compiled build as it is: `build_campaign`
(the frozen attrs objects, their slots filled from compiled code, D-compiled-build) on the
payload's `Document`, made before the timing; `reading` is making that `Document` (every
object in force read once, its times parsed). On the compiled build a valid payload costs at
least `reading`, `value_objects` and `empty_rules`, before any check and any result.

Before timing, `build_only` must build, for every valid corpus payload, a value equal to the
one `validate_create` builds; a difference stops the run. The rounds interleave the
contenders as `run.py` does, and the ratios are taken within each round.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


from benchmarks.corpus import SHAPES, make_corpus  # noqa: E402
from benchmarks.run import print_set, time_rounds  # noqa: E402
from campaign_rules import (  # noqa: E402
    CampaignCreate,
    CyclesConfig,
    CyclesMode,
    DayWindow,
    IntegrationType,
    Schedule,
    Violation,
    validate_create,
)
from campaign_rules._campaign.build import build_campaign  # noqa: E402
from campaign_rules._campaign.document import Document  # noqa: E402
from campaign_rules._rules.runner import collect_violations  # noqa: E402
from campaign_rules._rules.table import CREATE_RULES, Rule  # noqa: E402

_CHANNELS = {channel.value: channel for channel in IntegrationType}
_MODES = {mode.value: mode for mode in CyclesMode}
# The one C call that turns "HH:MM" into a time: cheaper than any check of the format.
_time = datetime.time.fromisoformat
_date = datetime.date.fromisoformat


def _schedule(raw: dict[str, Any] | None) -> Schedule | None:
    if raw is None:
        return None
    return Schedule(
        **{
            day: DayWindow(_time(window["startTime"]), _time(window["stopTime"]), window["active"])
            for day, window in raw.items()
        }
    )


def _optional_date(text: str | None) -> datetime.date | None:
    return None if text is None else _date(text)


def _cycles(raw: dict[str, Any] | None) -> CyclesConfig | None:
    if raw is None or raw["enabled"] is not True:
        return None
    return CyclesConfig(
        mode=_MODES[raw["mode"]],
        max_iterations=raw["max_iterations"],
        cooldown_minutes=raw.get("cooldown_minutes"),
        filter_statuses=tuple(raw.get("filter_statuses", ())),
        filter_tags=tuple(raw.get("filter_tags", ())),
        schedule=_schedule(raw.get("schedule")),
        schedule_start_date=_optional_date(raw.get("schedule_start_date")),
        schedule_end_date=_optional_date(raw.get("schedule_end_date")),
    )


def build_only(payload: dict[str, Any]) -> CampaignCreate:
    """The value `validate_create` builds from a valid `payload`, with no check at all."""
    get = payload.get
    return CampaignCreate(
        payload["name"],
        payload["agent_id"].lower(),
        payload["integration_id"],
        _CHANNELS[payload["integration_type"]],
        get("description"),
        get("timezone", "America/Mexico_City"),
        get("retries", 1),
        get("message_limit", 250),
        get("first_message"),
        get("template"),
        get("template_alt"),
        _schedule(get("scheduling")),
        _cycles(get("cycles")),
    )


def _finds_nothing(subject: object, findings: list[Any]) -> None:
    return


# The creation rule table, each rule's check replaced by one that finds nothing at once.
EMPTY_TABLE = tuple(
    Rule(rule.id, rule.key, rule.source, rule.summary, _finds_nothing) for rule in CREATE_RULES
)


def empty_rules(payload: object) -> list[Violation]:
    """Run the creation table's rules, each finding nothing, as `validate_create` runs them."""
    found: list[Violation] = []
    collect_violations(payload, EMPTY_TABLE, found)
    return found


# The Document of each valid payload, made before the timing, by the payload's id.
_DOCUMENTS: dict[int, Document] = {}


def value_objects(payload: object) -> CampaignCreate:
    """`validate_create`'s value of a valid payload, built from its ready `Document`."""
    return build_campaign(_DOCUMENTS[id(payload)])


def reading(payload: object) -> Document:
    """The `Document` of `payload`: what `validate_create` reads before any rule runs."""
    return Document(payload)


def visit_all(payload: object) -> int:
    """Look at every value of `payload` once: the least reading that can find every violation."""
    pending = [payload]
    seen = 0
    while pending:
        value = pending.pop()
        seen += 1
        if type(value) is dict:
            pending.extend(value.values())
        elif type(value) is list:
            pending.extend(value)
    return seen


def main() -> int:
    """Time the floor; exit status 1 when it builds a value other than `validate_create`'s."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=500, help="payloads in each set")
    parser.add_argument("--rounds", type=int, default=15, help="timed rounds")
    parser.add_argument("--seed", type=int, default=20261122, help="corpus seed")
    parser.add_argument("--corpus", choices=SHAPES, default="realistic", help="corpus shape")
    args = parser.parse_args()

    from benchmarks.peers import pydantic_rules  # the bench extra's; the parts above need none

    corpus = make_corpus(args.seed, args.size, SHAPES[args.corpus])
    for index, payload in enumerate(corpus.valid):
        _DOCUMENTS[id(payload)] = Document(payload)
        if not build_only(payload) == value_objects(payload) == validate_create(payload).value:
            print(f"build_only and validate_create build different values for payload {index}")
            return 1

    print(
        f"{args.corpus} corpus, seed {args.seed}, {args.size} payloads in each set,"
        f" {args.rounds} rounds"
    )
    valid = time_rounds(
        corpus.valid,
        {
            "pydantic": pydantic_rules.validate,
            "build_only": build_only,  # type: ignore[dict-item]
            "value_objects": value_objects,
            "reading": reading,
            "visit_all": visit_all,
            "empty_rules": empty_rules,
            "campaign_rules": validate_create,
        },
        args.rounds,
    )
    invalid = time_rounds(
        [payload for payload, _ in corpus.invalid],
        {
            "pydantic": pydantic_rules.validate,
            "reading": reading,
            "visit_all": visit_all,
            "empty_rules": empty_rules,
            "campaign_rules": validate_create,
        },
        args.rounds,
    )
    print_set("valid payloads", valid)
    print_set("invalid payloads (build_only cannot take them)", invalid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
