"""Where the time of `validate_create` goes, part by part, on the build that is installed.

    python benchmarks/parts.py [--size N] [--seed S]

A profile that a compiled build cannot give: cProfile and pyinstrument see a module compiled
with mypyc as one opaque call, so this times each part of `validate_create` on its own, on the
corpus of `run.py`, best of 7 rounds, in process CPU time: reading the payload (`Document`),
the creation rules (all, then each), building the value (`build_campaign`), and the attrs
constructors of the public value objects and of `Violation`, which stay attrs classes, beside
`slots_filled`, which makes them on the compiled build (D-compiled-build; called from here,
both pay for a call from interpreted code). Figures are microseconds per payload (per call
for the constructors).
"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import campaign_rules  # noqa: E402
from benchmarks.corpus import SHAPES, make_corpus  # noqa: E402
from benchmarks.run import ns_per_payload  # noqa: E402
from campaign_rules import (  # noqa: E402
    CampaignCreate,
    CyclesConfig,
    CyclesMode,
    DayWindow,
    ErrorKey,
    IntegrationType,
    Schedule,
    Violation,
    validate_create,
)
from campaign_rules._campaign.build import build_campaign  # noqa: E402
from campaign_rules._campaign.document import Document  # noqa: E402
from campaign_rules._core.construct import slots_filled, violation  # noqa: E402
from campaign_rules._core.findings import Finding  # noqa: E402
from campaign_rules._rules.runner import collect_violations  # noqa: E402
from campaign_rules._rules.table import CREATE_RULES  # noqa: E402


def best_us(function: Callable[[Any], object], items: list[Any], rounds: int = 7) -> float:
    """The best of `rounds` of calling `function` on every item, in µs per item."""
    return min(ns_per_payload(function, items) for _ in range(rounds)) / 1000


def all_rules(doc: Document) -> None:
    collect_violations(doc, CREATE_RULES, [])


def main() -> int:
    """Print the parts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=500, help="payloads in each set")
    parser.add_argument("--seed", type=int, default=20261122, help="corpus seed")
    parser.add_argument("--corpus", choices=SHAPES, default="realistic", help="corpus shape")
    args = parser.parse_args()

    from benchmarks.peers import pydantic_rules

    corpus = make_corpus(args.seed, args.size, SHAPES[args.corpus])
    sets = {"valid": corpus.valid, "invalid": [payload for payload, _ in corpus.invalid]}
    build = "compiled (mypyc)" if campaign_rules.COMPILED else "pure-Python"
    print(f"the {build} build; µs per payload, best of 7 rounds")
    for label, payloads in sets.items():
        docs = [Document(payload) for payload in payloads]
        print(f"\n{label} payloads")
        whole = best_us(pydantic_rules.validate, payloads)
        print(f"  {'pydantic (whole validation)':<45} {whole:6.2f}")
        print(f"  {'validate_create':<45} {best_us(validate_create, payloads):6.2f}")
        print(f"  {'Document (reading)':<45} {best_us(Document, payloads):6.2f}")
        rules = f"the {len(CREATE_RULES)} creation rules, violations made"
        print(f"  {rules:<45} {best_us(all_rules, docs):6.2f}")
        if label == "valid":
            print(f"  {'build_campaign (the value)':<45} {best_us(build_campaign, docs):6.2f}")
        for rule in CREATE_RULES:
            check = rule.check
            print(f"    {rule.id:<43} {best_us(lambda doc: check(doc, []), docs):6.2f}")  # noqa: B023

    nine, five = datetime.time(9), datetime.time(17)
    window = DayWindow(nine, five, True)
    constructors: dict[str, Callable[[object], object]] = {
        "DayWindow": lambda _: DayWindow(nine, five, True),
        "Schedule (5 windows, by keyword)": lambda _: Schedule(
            mon=window, tue=window, wed=window, thu=window, fri=window
        ),
        "CyclesConfig": lambda _: CyclesConfig(mode=CyclesMode.COOLDOWN, max_iterations=3),
        "CampaignCreate": lambda _: CampaignCreate(
            "n", "a", "i", IntegrationType.PHONE_CALL, None, "UTC", 1, 250, None, None, None
        ),
        "CampaignCreate, slots filled (`construct`)": lambda _: slots_filled(
            CampaignCreate,
            ("n", "a", "i", IntegrationType.PHONE_CALL, None, "UTC", 1, 250, *[None] * 5),
        ),
        "Violation": lambda _: Violation(
            ErrorKey.INVALID_REQUEST, "name", "m", "rule", pointer="/name"
        ),
        "Violation, slots filled (`construct`)": lambda _: slots_filled(
            Violation, (ErrorKey.INVALID_REQUEST, "name", "m", "rule", "/name", None, None)
        ),
        "Violation, by `violation` (the runner's)": lambda _: violation(
            ErrorKey.INVALID_REQUEST, "name", "m", "rule", "/name"
        ),
        "Finding": lambda _: Finding("name", "m"),
        "(an empty call, for scale)": lambda _: None,
    }
    print("\nconstructors, µs per call")
    for name, make in constructors.items():
        print(f"  {name:<45} {best_us(make, list(range(args.size * 4))):6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
