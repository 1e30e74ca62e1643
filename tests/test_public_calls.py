"""No public function raises anything but a documented `TypeError` for a wrong argument type.

Every callable that a public module exports is called with each hostile value in each of its
parameters (the others at their defaults, or hostile too). It returns, or raises `TypeError`
with a message that names what it needed; nothing else escapes. The enumerations are left out:
`CampaignStatus("x")` is a look-up by value, whose `ValueError` is the `enum` module's contract;
so is `Directory`, a `typing.Protocol`, which has no instances.
"""

from __future__ import annotations

import datetime
import enum
import importlib
import inspect
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from campaign_rules import CampaignStatus, validate_create
from campaign_rules._core.limits import PATH_ID_MAX
from campaign_rules.rate import RateLimiter
from campaign_rules.responses import CampaignDetail
from tests.support import BASES, PUBLIC_MODULES

HOSTILE: tuple[object, ...] = (
    None,
    0,
    -1,
    2**80,
    float("nan"),
    "x",
    b"x",
    [],
    {},
    {"name": 1},
    object(),
    type,
)
# The public functions documented to raise TypeError for a wrong argument, and the words of it.
DOCUMENTED = {
    "to_wire": "to_wire takes a value object",
    "validate_create": "directory must be a campaign_rules.Directory",
    "validate_update": "directory must be a campaign_rules.Directory",
    "validate_create_json": "directory must be a campaign_rules.Directory",
    "validate_update_json": "directory must be a campaign_rules.Directory",
    "RateLimiter": "must be a positive int",
    "CampaignDetail.from_create": "",
    "CampaignContact": "a mapping is needed here",
    "CampaignDetail": "a mapping is needed here",
    "audit_lines": "must be an iterable",
    "audit_chunk": "must be a",
    "violation_rows": "must be a",
    "merge_summaries": "summaries must",
    "html_report": "must be a",
    "audit": "must be a",
}


# The functions that open the files their arguments name, and say so.
READS_FILES = {"audit"}
# A Protocol has no instances, a TypedDict makes a plain dict; an enumeration is looked up by
# value, and its ValueError is the `enum` module's contract.
NOT_CALLED = {"Directory", "ViolationRow", "Ruleset"}


def public_callables() -> Iterator[tuple[str, Callable[..., Any]]]:
    for module in PUBLIC_MODULES:
        namespace = importlib.import_module(module)
        for name in namespace.__all__:
            value = getattr(namespace, name)
            if name in NOT_CALLED or (isinstance(value, type) and issubclass(value, enum.Enum)):
                continue
            if callable(value):
                yield name, value
    limiter = RateLimiter()
    yield "RateLimiter.acquire", limiter.acquire
    yield "RateLimiter.prune", limiter.prune
    yield "CampaignDetail.from_create", CampaignDetail.from_create


def calls(function: Callable[..., Any]) -> Iterator[tuple[list[object], dict[str, object]]]:
    """Each hostile value in each parameter, the others at their defaults (or hostile too)."""
    parameters = [
        parameter
        for parameter in inspect.signature(function).parameters.values()
        if parameter.kind is not parameter.VAR_POSITIONAL
        and parameter.kind is not parameter.VAR_KEYWORD
    ]
    if not parameters:
        yield [], {}
    for target in parameters:
        for value in HOSTILE:
            for others_hostile in (False, True):
                args: list[object] = []
                kwargs: dict[str, object] = {}
                for parameter in parameters:
                    hostile = parameter is target or others_hostile
                    required = parameter.default is parameter.empty
                    chosen = value if hostile or required else parameter.default
                    if parameter.kind is parameter.KEYWORD_ONLY:
                        kwargs[parameter.name] = chosen
                    else:
                        args.append(chosen)
                yield args, kwargs


@pytest.mark.parametrize(("name", "function"), list(public_callables()))
def test_a_public_callable_raises_nothing_but_a_documented_type_error(
    name: str, function: Callable[..., Any]
) -> None:
    for args, kwargs in calls(function):
        try:
            result = function(*args, **kwargs)
            if inspect.isgenerator(result):
                list(result)
        except OSError:
            # campaign_rules.dask.audit opens the files named: a missing one is its OSError.
            assert name in READS_FILES, (name, args, kwargs)
        except TypeError as error:
            message = str(error)
            if name in DOCUMENTED:
                assert DOCUMENTED[name] in message, (name, args, kwargs, message)
            else:
                # Only Python's own refusal of the call's shape, never one from inside.
                assert "argument" in message, (name, args, kwargs, message)


def test_every_documented_type_error_is_raised() -> None:
    campaign = validate_create(BASES["phone_call"]).value
    assert campaign is not None
    now = datetime.datetime.now(datetime.UTC)
    with pytest.raises(TypeError, match="must be a positive int, not a number below 1"):
        RateLimiter(requests=0)
    with pytest.raises(TypeError, match="burst must be a positive int, not a str"):
        RateLimiter(burst="12")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"directory must be a campaign_rules\.Directory"):
        validate_create(BASES["phone_call"], directory=object())  # type: ignore[arg-type]
    for wrong in ({"id": 0}, {"id": PATH_ID_MAX + 1}, {"id": "7"}):
        with pytest.raises(TypeError, match="a campaign id is an int from 1 to"):
            CampaignDetail.from_create(
                campaign,
                status="active",  # type: ignore[arg-type]
                created_at=now,
                agent_name="Ana",
                **wrong,  # type: ignore[arg-type]
            )
    with pytest.raises(TypeError, match="created_at must be a datetime, not str"):
        CampaignDetail.from_create(
            campaign,
            id=1,
            status=CampaignStatus.ACTIVE,
            created_at="today",  # type: ignore[arg-type]
            agent_name="Ana",
        )
