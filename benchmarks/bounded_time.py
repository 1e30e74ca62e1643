"""Bounded time on hostile input: each huge, deep or cyclic input, timed against a valid payload.

Run from the repository root: `python benchmarks/bounded_time.py` (about a minute). It prints,
for each hostile input, the best time of one validation and its ratio to the best time of the
full valid payload `examples/phone_call.json` (target: every ratio at most 50), then pairs of
inputs that differ only in the size of a value the rules refuse by type or length (target: the
large one costs about what the small one costs). It exits 1 when a target is missed.

Times are the best of several rounds, each the mean of many calls, measured in one run on one
machine, so only the ratios are compared (the test suite never times anything).
"""

from __future__ import annotations

import copy
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from campaign_rules import CampaignCreate, validate_create, validate_update

ROOT = Path(__file__).resolve().parent.parent
VALID = json.loads((ROOT / "examples" / "phone_call.json").read_text(encoding="utf-8"))

MAX_RATIO = 50.0  # issue 6: every hostile input costs at most 50 valid payloads
# A pair passes when its large input costs at most this many times its small one: the same
# work within timing noise, where a size-bound cost would show as a thousandfold.
MAX_SIZE_GROWTH = 2.0

MB = 1_000_000


def deep_dict(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def deep_list(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def self_dict() -> dict[str, Any]:
    value: dict[str, Any] = {"enabled": True, "mode": "scheduled"}
    value["self"] = value
    value["schedule"] = value
    value["mon"] = value
    return value


def self_list() -> list[Any]:
    value: list[Any] = ["x"]
    value.append(value)
    return value


class Text(str):
    """A `str` subclass: the one value the rules copy (D-hostile-input)."""


def at(path: str, value: object) -> dict[str, Any]:
    """The valid payload with `value` put at the dotted `path`."""
    body = copy.deepcopy(VALID)
    *parents, last = path.split(".")
    node = body
    for name in parents:
        node = node[name]
    node[last] = value
    return body


def with_members(count: int) -> dict[str, Any]:
    """The valid payload plus `count` unknown members."""
    return {**VALID, **{f"unknown{i}": i for i in range(count)}}


# Each input is built once, before any timing; the large objects are shared between inputs.
MILLION_MEMBERS = {f"m{i}": i for i in range(MB)}
DEEP_DICT = deep_dict(100_000)

HOSTILE: dict[str, object] = {
    "name: 10 MB string (refused by length)": at("name", "n" * (10 * MB)),
    "name: 10 MB str subclass (its head copied)": at("name", Text("n" * (10 * MB))),
    "description: 10 MB string (legal)": at("description", "d" * (10 * MB)),
    "timezone: 10 MB string": at("timezone", "t" * (10 * MB)),
    "agent_id: 10 MB string": at("agent_id", "a" * (10 * MB)),
    "scheduling.mon.startTime: 10 MB string": at("scheduling.mon.startTime", "9" * (10 * MB)),
    "cycles.filter_tags: 1,000,000 items": at("cycles.filter_tags", ["t"] * MB),
    "cycles.filter_statuses: 1,000,000 items": at("cycles.filter_statuses", ["s"] * MB),
    "name: 1,000,000-item list": at("name", ["n"] * MB),
    "retries: 10**5000": at("retries", 10**5000),
    "scheduling: 1,000,000 members": at("scheduling", MILLION_MEMBERS),
    "payload: 1,000,000 unknown members": with_members(MB),
    "payload: 100,000-deep dict": DEEP_DICT,
    "payload: 100,000-deep list": deep_list(100_000),
    "scheduling: 100,000-deep dict": at("scheduling", DEEP_DICT),
    "cycles.filter_tags: 100,000-deep list": at("cycles.filter_tags", deep_list(100_000)),
    "cycles: self-referencing dict": at("cycles", self_dict()),
    "scheduling: self-referencing dict": at("scheduling", self_dict()),
    "cycles.filter_tags: self-referencing list": at("cycles.filter_tags", self_list()),
}

# Patches of the valid campaign, through `validate_update`.
HOSTILE_PATCHES: dict[str, object] = {
    "patch: 1,000,000 members": MILLION_MEMBERS,
    "patch: 100,000-deep dict": DEEP_DICT,
    "patch scheduling: 100,000-deep dict": {"scheduling": DEEP_DICT},
    "patch cycles: self-referencing dict": {"cycles": self_dict()},
    "patch name: 10 MB string": {"name": "n" * (10 * MB)},
    "patch cycles.filter_tags: 1,000,000 items": {"cycles": {"filter_tags": ["t"] * MB}},
}

# Inputs that differ only in the size of a refused value: small, then large.
SIZE_PAIRS: dict[str, tuple[object, object]] = {
    "name string, 10 kB vs 10 MB": (
        at("name", "n" * 10_000),
        HOSTILE["name: 10 MB string (refused by length)"],
    ),
    "timezone string, 10 kB vs 10 MB": (
        at("timezone", "t" * 10_000),
        HOSTILE["timezone: 10 MB string"],
    ),
    "filter_tags list, 1,000 vs 1,000,000 items": (
        at("cycles.filter_tags", ["t"] * 1_000),
        HOSTILE["cycles.filter_tags: 1,000,000 items"],
    ),
    "name list, 1,000 vs 1,000,000 items": (
        at("name", ["n"] * 1_000),
        HOSTILE["name: 1,000,000-item list"],
    ),
    "unknown members, 1,000 vs 1,000,000": (
        with_members(1_000),
        HOSTILE["payload: 1,000,000 unknown members"],
    ),
    "nesting, 1,000 vs 100,000 deep": (
        at("scheduling", deep_dict(1_000)),
        HOSTILE["scheduling: 100,000-deep dict"],
    ),
}


def best_times(*calls: Callable[[], object], budget: float = 0.2, rounds: int = 7) -> list[float]:
    """The best time of one call of each of `calls`: over `rounds`, each the mean over about
    `budget` seconds. The calls take turns round by round, so that a slower spell of a shared
    machine falls on all of them alike."""
    numbers = []
    for call in calls:
        call()  # warm up: the time zone list, cattrs' generated functions
        start = time.perf_counter()
        call()
        once = max(time.perf_counter() - start, 1e-7)
        numbers.append(max(1, int(budget / rounds / once)))
    best = [float("inf")] * len(calls)
    for _ in range(rounds):
        for index, (call, number) in enumerate(zip(calls, numbers, strict=True)):
            start = time.perf_counter()
            for _ in range(number):
                call()
            best[index] = min(best[index], (time.perf_counter() - start) / number)
    return best


def created(body: object) -> Callable[[], object]:
    return lambda: validate_create(body)


def updated(existing: CampaignCreate, patch: object) -> Callable[[], object]:
    return lambda: validate_update(existing, patch)


def main() -> int:
    existing = validate_create(VALID).value
    assert existing is not None, "examples/phone_call.json must be valid"
    for name, body in HOSTILE.items():
        assert validate_create(body).ok is ("legal" in name), name

    valid = created(VALID)
    print("| hostile input | µs | valid payload µs | ratio |")
    print("|---|---:|---:|---:|")
    worst = 0.0
    timed = {name: created(body) for name, body in HOSTILE.items()}
    timed |= {name: updated(existing, patch) for name, patch in HOSTILE_PATCHES.items()}
    for name, call in timed.items():
        seconds, base = best_times(call, valid)
        worst = max(worst, seconds / base)
        print(f"| {name} | {seconds * 1e6:.1f} | {base * 1e6:.1f} | {seconds / base:.2f} |")

    print("\n| refused value, small vs large | small µs | large µs | growth |")
    print("|---|---:|---:|---:|")
    growth = 0.0
    for name, (small, large) in SIZE_PAIRS.items():
        small_time, large_time = best_times(created(small), created(large))
        growth = max(growth, large_time / small_time)
        row = f"{small_time * 1e6:.1f} | {large_time * 1e6:.1f} | {large_time / small_time:.2f}"
        print(f"| {name} | {row} |")

    ok = worst <= MAX_RATIO and growth <= MAX_SIZE_GROWTH
    print(f"\nworst ratio to the valid payload: {worst:.2f} (target: at most {MAX_RATIO:.0f})")
    print(f"worst growth with size: {growth:.2f} (target: at most {MAX_SIZE_GROWTH:.0f})")
    print("targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
