"""How fast could any pure-Python `validate_create` be? A lower bound, timed beside pydantic.

    python benchmarks/floor.py [--size N] [--rounds R] [--seed S]

`build_only` does, for a valid payload, a part of the work that any pure-Python implementation
of the issue must do: read each member once (a plain `dict` look-up, trusting its type) and
build the frozen attrs value objects (`CampaignCreate`, `Schedule`, `DayWindow`,
`CyclesConfig`). It checks nothing: no rule runs, no violation is made, no type is checked, an
invalid payload may even raise. Whatever it costs, a validator that also checks every rule and
reports every violation costs more; so if this floor alone takes most of pydantic's time, the
rules cannot fit in the rest.

Before timing, `build_only` must build, for every valid corpus payload, a value equal to the
one `validate_create` builds; a difference stops the run. The rounds interleave `build_only`,
pydantic and `validate_create` as `run.py` does, and the ratios are taken within each round.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.corpus import make_corpus  # noqa: E402
from benchmarks.peers import pydantic_rules  # noqa: E402
from benchmarks.run import Validate, ns_per_payload  # noqa: E402
from campaign_rules import (  # noqa: E402
    CampaignCreate,
    CyclesConfig,
    CyclesMode,
    DayWindow,
    IntegrationType,
    Schedule,
    validate_create,
)

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


def main() -> int:
    """Time the floor; exit status 1 when it builds a value other than `validate_create`'s."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=500, help="valid payloads")
    parser.add_argument("--rounds", type=int, default=15, help="timed rounds")
    parser.add_argument("--seed", type=int, default=20261122, help="corpus seed")
    args = parser.parse_args()

    payloads = make_corpus(args.seed, args.size).valid
    for index, payload in enumerate(payloads):
        if build_only(payload) != validate_create(payload).value:
            print(f"build_only and validate_create build different values for payload {index}")
            return 1

    contenders: dict[str, Validate] = {
        "pydantic": pydantic_rules.validate,
        "build_only": build_only,  # type: ignore[dict-item]
        "campaign_rules": validate_create,
    }
    names = list(contenders)
    times: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(args.rounds + 1):
        order = names[round_ % 3 :] + names[: round_ % 3]
        measured = {name: ns_per_payload(contenders[name], payloads) for name in order}
        if round_:  # the first round warms up
            for name in names:
                times[name].append(measured[name])

    print(f"{args.size} valid payloads, seed {args.seed}, {args.rounds} rounds")
    print("median ns per payload; ratio to pydantic (median of the rounds, min-max)")
    for name in names:
        ratios = [mine / base for mine, base in zip(times[name], times["pydantic"], strict=True)]
        print(
            f"  {name:<15} {statistics.median(times[name]):>9,.0f} ns"
            f"  {statistics.median(ratios):5.2f}x  ({min(ratios):.2f}-{max(ratios):.2f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
