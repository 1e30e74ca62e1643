"""Seeded corpora of campaign creation bodies, as a server would receive them.

Valid payloads are realistic: both channels, names and descriptions with accents and emoji,
schedules on most weekdays, cycles blocks in both modes on many phone campaigns. Two shapes
(`Shape`): `REALISTIC`, the first corpus (a valid body about 770 bytes of JSON, 4.8 windows in
`scheduling`, cycles enabled on 38 %), and `SMALL`, the smaller bodies of issue 22 (590 bytes
valid and 660 invalid, 3.0 windows, cycles enabled on 15 %). Each invalid payload is a valid
one with one to three defects, each on a field of its own, so that each defect gives exactly
one violation; the corpus records the error key and field path each defect
must give, and `benchmarks/run.py` checks that `validate_create` reports exactly those.

Only the standard library is used, so the corpus is the same whatever is installed.
"""

from __future__ import annotations

import copy
import random
import uuid
from collections.abc import Callable
from typing import Any, NamedTuple

from campaign_rules._core.limits import (
    COOLDOWN_MINUTES,
    MAX_ITERATIONS,
    MESSAGE_LIMIT,
    NAME_MAX_LENGTH,
    RETRIES,
    Bounds,
)

__all__ = [
    "REALISTIC",
    "SHAPES",
    "SMALL",
    "Corpus",
    "Invalid",
    "Shape",
    "make_corpus",
    "valid_payload",
]

Payload = dict[str, Any]
# An injected defect's error key and field path.
Expected = tuple[str, str | None]

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
ZONES = (
    "America/Mexico_City",
    "America/Bogota",
    "America/Argentina/Buenos_Aires",
    "America/Sao_Paulo",
    "America/New_York",
    "America/Los_Angeles",
    "Europe/Madrid",
    "Europe/Paris",
    "Europe/Lisbon",
    "Asia/Tokyo",
    "UTC",
    "US/Eastern",
)
# Contact statuses a caller filters on (D-filter-lists); all of them are phone-call statuses.
# The phone_call contact statuses (D-contact-statuses): cycles run on phone_call campaigns only.
STATUSES = ("queue", "sending", "failed", "retrying", "converted", "voicemail", "answered")
_BOTH_CHANNELS = frozenset(STATUSES) - {"voicemail", "answered"}
TAGS = ("tag_do_not_call", "tag_vip", "tag_moroso", "tag_🌱", "tag_follow_up", "tag_q3")
_NAME_WORDS = (
    "Renovación",
    "de",
    "pólizas",
    "Campaña",
    "cobranza",
    "Encuesta",
    "satisfacción",
    "Rappel",
    "échéance",
    "Pedidos",
    "promo",
    "Spring",
    "renewals",
    "Q3",
    "🌱",
    "📞",
    "✅",
    "Zoé",
    "São",
    "Müller",
    "日本",
)
_SENTENCES = (
    "Remind customers whose policy ends this month.",
    "Recordatorio amable de pago pendiente 💳",
    "Encuesta de satisfacción tras la visita técnica.",
    "Rappel de rendez-vous pour la semaine prochaine 📅",
    "Follow up on orders that were not delivered ✅",
    "",
)
_GREETINGS = (
    "Hola, le llama Ana de Seguros Acme.",
    "Bonjour, ici Zoé de la part de votre assurance.",
    "Hi! This is Max from Acme, do you have a minute?",
)
_TEMPLATES = ("order_update_v2", "renewal_reminder", "promo_spring_es", "survey_nps")


class Shape(NamedTuple):
    """How a corpus's bodies are drawn: each a probability, per body or per weekday."""

    weekday: float  # a window on each of Monday to Friday
    weekend: float  # a window on Saturday, and on Sunday
    scheduling: float  # a `scheduling` block
    cycles: float  # an enabled cycles block, on a phone call campaign
    description: float  # a `description`


REALISTIC = Shape(weekday=0.9, weekend=0.5, scheduling=0.85, cycles=0.6, description=0.7)
# Issue 22: fewer windows (3.0 in `scheduling`, against 4.8), fewer enabled cycles blocks (15 %,
# against 38 %), a description on every body: 590 bytes a valid body, 660 an invalid one.
SMALL = Shape(weekday=0.66, weekend=0.1, scheduling=0.85, cycles=0.25, description=1.0)
SHAPES = {"realistic": REALISTIC, "small": SMALL}


class Invalid(NamedTuple):
    """An invalid payload and the (error key, field) of each violation it must give."""

    payload: Payload
    expected: tuple[Expected, ...]


class Corpus(NamedTuple):
    """Valid payloads, and invalid ones with their expected violations."""

    valid: list[Payload]
    invalid: list[Invalid]


def _hhmm(minute_of_day: int) -> str:
    return f"{minute_of_day // 60:02d}:{minute_of_day % 60:02d}"


def _window(rng: random.Random) -> dict[str, Any]:
    start = rng.choice(range(6 * 60, 12 * 60, 30))
    stop = start + rng.choice(range(2 * 60, 10 * 60, 15))
    return {"startTime": _hhmm(start), "stopTime": _hhmm(stop), "active": rng.random() < 0.85}


def _schedule(rng: random.Random, shape: Shape = REALISTIC) -> dict[str, Any]:
    # REALISTIC: every weekday but now and then one, weekends half the time.
    days = [day for day in WEEKDAYS[:5] if rng.random() < shape.weekday]
    days += [day for day in WEEKDAYS[5:] if rng.random() < shape.weekend]
    return {day: _window(rng) for day in WEEKDAYS if day in days} or {"mon": _window(rng)}


def _ends(bounds: Bounds) -> tuple[int, int]:
    return bounds.low, bounds.high


def _past(bounds: Bounds) -> tuple[int, int, int]:
    """Values past `bounds`: below, just above, and well above."""
    return bounds.low - 1, bounds.high + 1, bounds.high + 5


def _name(rng: random.Random) -> str:
    return " ".join(rng.choice(_NAME_WORDS) for _ in range(rng.randint(2, 6)))


def _cycles(rng: random.Random, shape: Shape = REALISTIC) -> dict[str, Any]:
    cycles: dict[str, Any] = {
        "enabled": True,
        "max_iterations": rng.randint(*_ends(MAX_ITERATIONS)),
    }
    if rng.random() < 0.6:
        cycles["mode"] = "cooldown"
        cycles["cooldown_minutes"] = rng.choice(
            (COOLDOWN_MINUTES.low, 30, 60, 120, 720, COOLDOWN_MINUTES.high)
        )
    else:
        cycles["mode"] = "scheduled"
        cycles["schedule"] = _schedule(rng, shape)
        month = rng.randint(1, 6)
        cycles["schedule_start_date"] = f"2027-{month:02d}-{rng.randint(1, 28):02d}"
        cycles["schedule_end_date"] = (
            f"2027-{month + rng.randint(1, 6):02d}-{rng.randint(1, 28):02d}"
        )
    cycles["filter_statuses"] = rng.sample(STATUSES, rng.randint(0, 3))
    if rng.random() < 0.7:
        cycles["filter_tags"] = rng.sample(TAGS, rng.randint(1, 3))
    return cycles


def valid_payload(rng: random.Random, shape: Shape = REALISTIC) -> Payload:
    """A realistic valid creation body."""
    channel = "phone_call" if rng.random() < 0.6 else "whatsapp"
    payload: Payload = {
        "name": _name(rng),
        "agent_id": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
        "integration_id": f"int_{channel}_{rng.randint(1, 999):03d}",
        "integration_type": channel,
    }
    if rng.random() < shape.description:
        payload["description"] = rng.choice(_SENTENCES)
    if rng.random() < 0.8:
        payload["timezone"] = rng.choice(ZONES)
    if rng.random() < 0.6:
        payload["retries"] = rng.randint(*_ends(RETRIES))
    if rng.random() < 0.6:
        payload["message_limit"] = rng.choice(
            (MESSAGE_LIMIT.low, 50, 250, 500, 1000, MESSAGE_LIMIT.high)
        )
    if channel == "phone_call":
        if rng.random() < 0.8:
            payload["first_message"] = rng.choice(_GREETINGS)
    else:
        payload["template"] = rng.choice(_TEMPLATES)
        if rng.random() < 0.5:
            payload["template_alt"] = rng.choice(_TEMPLATES)
    if rng.random() < shape.scheduling:
        payload["scheduling"] = _schedule(rng, shape)
    if channel == "phone_call" and rng.random() < shape.cycles:
        payload["cycles"] = _cycles(rng, shape)
    elif rng.random() < 0.1:
        payload["cycles"] = {"enabled": False}  # spec 2.4 rule 2: ignored
    return payload


# Defects. Each takes a valid payload, changes one thing and returns the violation it must
# give, or None when it does not apply to this payload (then another is tried). Each belongs to
# groups; two defects of one payload never share a group, so that they cannot hide or repeat
# each other (a defect of `integration_type` would hide the channel-only field rule).
_INVALID = "INVALID_REQUEST"
Defect = Callable[[Payload, random.Random], Expected | None]


def _name_too_long(payload: Payload, rng: random.Random) -> Expected:
    payload["name"] = ("Campaña 🌱 " * 40)[: rng.randint(NAME_MAX_LENGTH + 1, NAME_MAX_LENGTH + 45)]
    return (_INVALID, "name")


def _name_blank(payload: Payload, rng: random.Random) -> Expected:
    payload["name"] = rng.choice(("", "   ", "\t\n"))
    return (_INVALID, "name")


def _agent_id_not_v4(payload: Payload, rng: random.Random) -> Expected:
    agent = payload["agent_id"]
    payload["agent_id"] = agent[:14] + rng.choice("1235") + agent[15:]
    return (_INVALID, "agent_id")


def _agent_id_missing(payload: Payload, rng: random.Random) -> Expected:
    del payload["agent_id"]
    return (_INVALID, "agent_id")


def _integration_id_empty(payload: Payload, rng: random.Random) -> Expected:
    payload["integration_id"] = ""
    return (_INVALID, "integration_id")


def _integration_type_unknown(payload: Payload, rng: random.Random) -> Expected | None:
    if "cycles" in payload or "first_message" in payload or "template" in payload:
        return None
    payload["integration_type"] = rng.choice(("sms", "email", "Phone_Call"))
    return ("INVALID_INTEGRATION_TYPE", "integration_type")


def _field_of_other_channel(payload: Payload, rng: random.Random) -> Expected:
    if payload["integration_type"] == "phone_call":
        payload["template"] = rng.choice(_TEMPLATES)
        return (_INVALID, "template")
    payload["first_message"] = rng.choice(_GREETINGS)
    return (_INVALID, "first_message")


def _cycles_on_whatsapp(payload: Payload, rng: random.Random) -> Expected | None:
    if payload["integration_type"] != "whatsapp":
        return None
    cycles = _cycles(rng)
    # Keep this the one defect: the block is read with whatsapp's statuses (D-contact-statuses).
    cycles["filter_statuses"] = [s for s in cycles["filter_statuses"] if s in _BOTH_CHANNELS]
    payload["cycles"] = cycles
    return (_INVALID, "cycles")


def _timezone_unknown(payload: Payload, rng: random.Random) -> Expected:
    payload["timezone"] = rng.choice(("Mexico City", "GMT+1", "Europe/Springfield", "CEST"))
    return (_INVALID, "timezone")


def _retries_out_of_bounds(payload: Payload, rng: random.Random) -> Expected:
    payload["retries"] = rng.choice(_past(RETRIES))
    return (_INVALID, "retries")


def _retries_a_string(payload: Payload, rng: random.Random) -> Expected:
    payload["retries"] = "3"
    return (_INVALID, "retries")


def _message_limit_out_of_bounds(payload: Payload, rng: random.Random) -> Expected:
    payload["message_limit"] = rng.choice((0, MESSAGE_LIMIT.high + 1, MESSAGE_LIMIT.high * 5))
    return (_INVALID, "message_limit")


def _unknown_member(payload: Payload, rng: random.Random) -> Expected:
    name = rng.choice(("retry", "timeZone", "webhook_url"))
    payload[name] = 2
    return (_INVALID, name)


def _a_window(payload: Payload, rng: random.Random) -> tuple[str, dict[str, Any]]:
    schedule = payload.setdefault("scheduling", {"mon": _window(rng)})
    day = rng.choice(sorted(schedule))
    return f"scheduling.{day}", schedule[day]


def _window_time_not_hh_mm(payload: Payload, rng: random.Random) -> Expected:
    path, window = _a_window(payload, rng)
    window["startTime"] = rng.choice(("9:00", "24:00", "09:00:00", "9h00"))
    return (_INVALID, f"{path}.startTime")


def _window_stops_before_start(payload: Payload, rng: random.Random) -> Expected:
    path, window = _a_window(payload, rng)
    window["startTime"], window["stopTime"] = window["stopTime"], window["startTime"]
    return (_INVALID, f"{path}.stopTime")


def _window_active_a_string(payload: Payload, rng: random.Random) -> Expected:
    path, window = _a_window(payload, rng)
    window["active"] = "yes"
    return (_INVALID, f"{path}.active")


def _window_unknown_member(payload: Payload, rng: random.Random) -> Expected:
    path, window = _a_window(payload, rng)
    window["timezone"] = "Europe/Madrid"
    return (_INVALID, f"{path}.timezone")


def _enabled_cycles(payload: Payload) -> dict[str, Any] | None:
    cycles = payload.get("cycles")
    return cycles if cycles is not None and cycles.get("enabled") is True else None


def _max_iterations_out_of_bounds(payload: Payload, rng: random.Random) -> Expected | None:
    cycles = _enabled_cycles(payload)
    if cycles is None:
        return None
    cycles["max_iterations"] = rng.choice((MAX_ITERATIONS.low - 1, MAX_ITERATIONS.high + 1, 100))
    return (_INVALID, "cycles.max_iterations")


def _schedule_in_cooldown_mode(payload: Payload, rng: random.Random) -> Expected | None:
    cycles = _enabled_cycles(payload)
    if cycles is None or cycles["mode"] != "cooldown":
        return None
    cycles["schedule_start_date"] = "2027-01-04"
    return ("SCHEDULED_MODE_ONLY", "cycles.schedule_start_date")


def _dates_reversed(payload: Payload, rng: random.Random) -> Expected | None:
    cycles = _enabled_cycles(payload)
    if cycles is None or cycles["mode"] != "scheduled":
        return None
    start, end = cycles["schedule_start_date"], cycles["schedule_end_date"]
    cycles["schedule_start_date"], cycles["schedule_end_date"] = end, start
    return (_INVALID, "cycles.schedule_end_date")


def _date_not_a_day(payload: Payload, rng: random.Random) -> Expected | None:
    cycles = _enabled_cycles(payload)
    if cycles is None or cycles["mode"] != "scheduled":
        return None
    cycles["schedule_start_date"] = rng.choice(("2027-02-29", "2027-13-01", "04/01/2027"))
    return (_INVALID, "cycles.schedule_start_date")


def _filter_status_repeated(payload: Payload, rng: random.Random) -> Expected | None:
    cycles = _enabled_cycles(payload)
    if cycles is None or not cycles["filter_statuses"]:
        return None
    statuses = cycles["filter_statuses"]
    statuses.append(statuses[0])
    return (_INVALID, f"cycles.filter_statuses[{len(statuses) - 1}]")


def _filter_tag_empty(payload: Payload, rng: random.Random) -> Expected | None:
    cycles = _enabled_cycles(payload)
    if cycles is None:
        return None
    tags = cycles.setdefault("filter_tags", [])
    tags.append("")
    return (_INVALID, f"cycles.filter_tags[{len(tags) - 1}]")


def _max_iterations_missing(payload: Payload, rng: random.Random) -> Expected | None:
    cycles = _enabled_cycles(payload)
    if cycles is None or cycles["mode"] != "cooldown":
        return None
    del cycles["max_iterations"]
    return (_INVALID, "cycles.max_iterations")


# (defect, the groups it belongs to)
DEFECTS: tuple[tuple[Defect, frozenset[str]], ...] = tuple(
    (defect, frozenset(groups.split()))
    for defect, groups in (
        (_name_too_long, "name"),
        (_name_blank, "name"),
        (_agent_id_not_v4, "agent_id"),
        (_agent_id_missing, "agent_id"),
        (_integration_id_empty, "integration_id"),
        (_integration_type_unknown, "channel"),
        (_field_of_other_channel, "channel"),
        (_cycles_on_whatsapp, "channel cycles"),
        (_timezone_unknown, "timezone"),
        (_retries_out_of_bounds, "retries"),
        (_retries_a_string, "retries"),
        (_message_limit_out_of_bounds, "message_limit"),
        (_unknown_member, "unknown"),
        (_window_time_not_hh_mm, "scheduling"),
        (_window_stops_before_start, "scheduling"),
        (_window_active_a_string, "scheduling"),
        (_window_unknown_member, "scheduling"),
        (_max_iterations_out_of_bounds, "cycles"),
        (_schedule_in_cooldown_mode, "cycles"),
        (_dates_reversed, "cycles"),
        (_date_not_a_day, "cycles"),
        (_filter_status_repeated, "cycles"),
        (_filter_tag_empty, "cycles"),
        (_max_iterations_missing, "cycles"),
    )
)


def invalid_payload(rng: random.Random, shape: Shape = REALISTIC) -> Invalid:
    """A realistic payload with one to three defects, each on a field of its own."""
    payload = valid_payload(rng, shape)
    wanted = rng.randint(1, 3)
    taken: set[str] = set()
    expected: list[Expected] = []
    for defect, groups in rng.sample(DEFECTS, len(DEFECTS)):
        if len(expected) == wanted:
            break
        if groups & taken:
            continue
        trial = copy.deepcopy(payload)
        found = defect(trial, rng)
        if found is not None:
            payload, taken = trial, taken | groups
            expected.append(found)
    return Invalid(payload, tuple(expected))


def make_corpus(seed: int = 20261122, size: int = 500, shape: Shape = REALISTIC) -> Corpus:
    """`size` valid and `size` invalid payloads of `shape`, the same for the same seed."""
    rng = random.Random(seed)
    valid = [valid_payload(rng, shape) for _ in range(size)]
    invalid = [invalid_payload(rng, shape) for _ in range(size)]
    return Corpus(valid, invalid)
