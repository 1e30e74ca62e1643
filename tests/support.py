"""What the tests share: valid base payloads, an in-memory Directory and hostile values."""

from __future__ import annotations

import contextlib
import copy
import importlib.util
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import attrs
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import campaign_rules._core.json as json_core

if TYPE_CHECKING:
    from campaign_rules._core.limits import Bounds

AGENT = "9b2f1c1e-3c4d-4e5f-8a6b-7c8d9e0f1a2b"
OTHER_AGENT = "0c7d3b8a-1e2f-4a5b-9c6d-7e8f9a0b1c2d"
PHONE_INTEGRATION = "int-phone-1"
WHATSAPP_INTEGRATION = "int-wa-1"
TAGS = ("tag-vip", "tag-optout", "tag-3")

# D-statuses (docs/decisions.md), written here from the page, not read from the library:
# the HTTP status of every error key.
STATUS = {
    "INVALID_REQUEST": 400,
    "INVALID_INTEGRATION_TYPE": 400,
    "INVALID_FILTER_TAG": 400,
    "SCHEDULED_MODE_ONLY": 400,
    "IMMUTABLE_FIELD": 400,
    "CYCLES_NOT_ENABLED": 400,
    "INVALID_STATUS": 400,
    "UNKNOWN_ACTION": 400,
    "INVALID_PHONE_NUMBER": 400,
    "MISSING_CONTACT": 400,
    "BILLING_LIMIT_REACHED": 402,
    "FORBIDDEN": 403,
    "NOT_FOUND": 404,
    "AGENT_NOT_FOUND": 404,
    "INTEGRATION_NOT_FOUND": 404,
    "CONTACT_NOT_FOUND": 404,
    "CAMPAIGN_FINISHED": 409,
    "CONTACT_NOT_DELETABLE": 409,
    "INVALID_STATUS_TRANSITION": 409,
    "RATE_LIMITED": 429,
    "SERVER_ERROR": 500,
}

WINDOW = {"startTime": "09:00", "stopTime": "17:00", "active": True}

# Valid payloads, one per channel and cycles mode; tests copy them with `payload(...)`.
BASES: dict[str, dict[str, Any]] = {
    "phone_call": {
        "name": "Spring renewals",
        "agent_id": AGENT,
        "integration_id": PHONE_INTEGRATION,
        "integration_type": "phone_call",
    },
    "whatsapp": {
        "name": "Order follow-up",
        "agent_id": AGENT,
        "integration_id": WHATSAPP_INTEGRATION,
        "integration_type": "whatsapp",
        "template": "order_update",
    },
    "cooldown": {
        "name": "Debt reminders",
        "agent_id": AGENT,
        "integration_id": PHONE_INTEGRATION,
        "integration_type": "phone_call",
        "first_message": "Hello, this is Ana from Acme.",
        "scheduling": {"mon": dict(WINDOW), "tue": dict(WINDOW)},
        "cycles": {
            "enabled": True,
            "mode": "cooldown",
            "max_iterations": 3,
            "cooldown_minutes": 60,
            "filter_statuses": ["converted"],
            "filter_tags": ["tag-optout"],
        },
    },
    "scheduled": {
        "name": "Weekly survey",
        "agent_id": AGENT,
        "integration_id": PHONE_INTEGRATION,
        "integration_type": "phone_call",
        "timezone": "Europe/Madrid",
        "cycles": {
            "enabled": True,
            "mode": "scheduled",
            "max_iterations": 4,
            "schedule": {"wed": dict(WINDOW)},
            "schedule_start_date": "2026-03-01",
            "schedule_end_date": "2026-04-30",
        },
    },
}


@contextlib.contextmanager
def json_decoder(kind: str) -> Iterator[None]:
    """Run with the JSON decoder as installed (`"installed"`) or with `json` only (`"stdlib"`).

    `"stdlib"` is the library where the `fast` extra is not installed: the two paths of
    `_core.strict_json` and of the audit's reading.
    """
    json_core.fast_decoder()
    saved = list(json_core._fast_decoder)
    if kind == "stdlib":
        json_core._fast_decoder[:] = [None]
    try:
        yield
    finally:
        json_core._fast_decoder[:] = saved


# A test taking `decoder`, run on each JSON decoder (`json_decoder`).
JSON_DECODERS = pytest.mark.parametrize("decoder", ["installed", "stdlib"])


def payload(base: str = "phone_call", **members: Any) -> dict[str, Any]:
    """A deep copy of a base payload with top-level members set (a value of DROP removes it)."""
    result = copy.deepcopy(BASES[base])
    for name, value in members.items():
        if value is DROP:
            result.pop(name, None)
        else:
            result[name] = value
    return result


DROP = object()


@attrs.define
class FakeDirectory:
    """An in-memory Directory that records every look-up it answers."""

    agents: set[str] = attrs.Factory(lambda: {AGENT, OTHER_AGENT})
    integrations: dict[tuple[str, str], str] = attrs.Factory(
        lambda: {
            (AGENT, PHONE_INTEGRATION): "phone_call",
            (AGENT, WHATSAPP_INTEGRATION): "whatsapp",
        }
    )
    tags: set[str] = attrs.Factory(lambda: set(TAGS))
    billing_reached: bool = False
    calls: list[tuple[str, tuple[str, ...]]] = attrs.Factory(list)

    def agent_exists(self, agent_id: str) -> bool:
        self.calls.append(("agent_exists", (agent_id,)))
        return agent_id in self.agents

    def integration_type(self, agent_id: str, integration_id: str) -> str | None:
        self.calls.append(("integration_type", (agent_id, integration_id)))
        return self.integrations.get((agent_id, integration_id))

    def tag_exists(self, tag_id: str) -> bool:
        self.calls.append(("tag_exists", (tag_id,)))
        return tag_id in self.tags

    def billing_limit_reached(self) -> bool:
        self.calls.append(("billing_limit_reached", ()))
        return self.billing_reached


# spec 7.2: the 21 error keys, written out here, independently of `ErrorKey`.
SPEC_ERROR_KEYS = (
    "FORBIDDEN",
    "NOT_FOUND",
    "RATE_LIMITED",
    "SERVER_ERROR",
    "INVALID_REQUEST",
    "INVALID_STATUS",
    "IMMUTABLE_FIELD",
    "UNKNOWN_ACTION",
    "AGENT_NOT_FOUND",
    "INTEGRATION_NOT_FOUND",
    "INVALID_INTEGRATION_TYPE",
    "INVALID_FILTER_TAG",
    "INVALID_PHONE_NUMBER",
    "MISSING_CONTACT",
    "CONTACT_NOT_FOUND",
    "CONTACT_NOT_DELETABLE",
    "CAMPAIGN_FINISHED",
    "CYCLES_NOT_ENABLED",
    "SCHEDULED_MODE_ONLY",
    "INVALID_STATUS_TRANSITION",
    "BILLING_LIMIT_REACHED",
)

# Hostile values: subclasses of the JSON types whose overridden methods raise once armed.

TRAPPED = (
    "__eq__",
    "__ne__",
    "__lt__",
    "__hash__",
    "__len__",
    "__iter__",
    "__getitem__",
    "__contains__",
    "__str__",
    "__repr__",
    "__format__",
    "__bool__",
    "__int__",
    "__float__",
    "__index__",
    "keys",
    "items",
    "values",
    "get",
    "copy",
    "lower",
    "strip",
)


class Trap:
    """Whether the hostile classes' overridden methods raise (off while a test builds them)."""

    armed = False


class HostileCall(Exception):
    pass


def hostile(base: type) -> type:
    def trap(name: str) -> Any:
        original = getattr(base, name)

        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            if Trap.armed:
                raise HostileCall(name)
            return original(self, *args, **kwargs)

        return method

    members = {name: trap(name) for name in TRAPPED if hasattr(base, name)}
    return type(f"Hostile{base.__name__.title()}", (base,), members)


HostileDict = hostile(dict)
HostileStr = hostile(str)
HostileList = hostile(list)
HostileInt = hostile(int)
HostileFloat = hostile(float)


class HostileObject:
    """Not a JSON value at all; once armed, every method a reader might call raises."""

    def __getattribute__(self, name: str) -> Any:
        if Trap.armed:
            raise HostileCall(name)
        return object.__getattribute__(self, name)

    def __eq__(self, other: object) -> bool:
        raise HostileCall("__eq__")

    def __hash__(self) -> int:
        raise HostileCall("__hash__")

    def __len__(self) -> int:
        raise HostileCall("__len__")

    def __iter__(self) -> Iterator[Any]:
        raise HostileCall("__iter__")

    def __getitem__(self, key: object) -> Any:
        raise HostileCall("__getitem__")

    def __str__(self) -> str:
        raise HostileCall("__str__")

    def __bool__(self) -> bool:
        raise HostileCall("__bool__")


def rfc7396_merge(target: Any, patch: Any) -> Any:
    """RFC 7396 section 2, as written there (the library's own merge is not used here)."""
    if type(patch) is not dict:
        return patch
    result = dict(target) if type(target) is dict else {}
    for name, value in patch.items():
        if value is None:
            result.pop(name, None)
        else:
            result[name] = rfc7396_merge(result.get(name), value)
    return result


# Draw examples only, the same on every run: no shrinking, no database, no deadline, no health
# check (for helpers that collect or search examples rather than test them).
GENERATE_ONLY = settings(
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)


def draw(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    """`count` examples of `strategy`, the same on every run (derandomized, no database)."""
    found: list[Any] = []

    @settings(GENERATE_ONLY, max_examples=count)
    @given(strategy)
    def collect(value: Any) -> None:
        found.append(value)

    collect()
    return found


def label(value: object) -> str:
    """A test id that runs no code of a hostile value, and names no memory address.

    Every process that collects the suite must name each test alike (noxfile.py runs it in a
    process per core, with pytest-xdist; tests/conftest.py refuses an id that names an
    address): a plain object is named by its type.
    """
    if type(value) is HostileObject:
        return "HostileObject"
    if type(value).__repr__ is object.__repr__:
        return f"<{type(value).__name__}>"
    return repr(value)[:40]


# The package's public modules: the root, and one module per concern.
PUBLIC_MODULES = (
    "campaign_rules",
    "campaign_rules.requests",
    "campaign_rules.idempotency",
    "campaign_rules.rate",
    "campaign_rules.lifecycle",
    "campaign_rules.responses",
    "campaign_rules.schema",
    "campaign_rules.audit",
    # The engine beyond one machine, with the dask extra (which CI installs).
    *(["campaign_rules.dask"] if importlib.util.find_spec("dask") else []),
)


# Both sides of a bound of `campaign_rules._core.limits` (the spec's own numbers are the
# oracle's: tests/test_oracle_bounds.py).


def inside(bounds: Bounds) -> list[float]:
    """Values within `bounds`: both ends, their neighbours inside, and the ends as floats."""
    low, high = bounds.low, bounds.high
    return [low, low + 1, high - 1, high, float(low), float(high)]


def outside(bounds: Bounds) -> list[float]:
    """Values past `bounds`: next to each end, as integers and floats, and far past."""
    low, high = bounds.low, bounds.high
    return [low - 1, high + 1, float(low - 1), float(high + 1), 10**100, -(10**100), 2**63, 1e300]
