"""What a version's verdicts depend on beside its code: the tzdata package its interpreter has.

The zone names decide `timezone.is_iana_name`, so a diff shows a tzdata change in a section of
its own rather than as a change of that rule's code (D-diff).
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
from collections.abc import Mapping

from campaign_rules._core.timezones import timezone_names
from campaign_rules._diff.sides import Environment

__all__ = ["environment_here", "environment_of_command", "with_schema_zones"]

# What an interpreter prints about its tzdata: one JSON object, `{"tzdata", "zones"}`.
_ASK = """
import importlib.metadata, json, pkgutil
try:
    version = importlib.metadata.version("tzdata")
except Exception:
    version = None
try:
    zones = sorted((pkgutil.get_data("tzdata", "zones") or b"").decode("utf-8").split())
except Exception:
    zones = None
print(json.dumps({"tzdata": version, "zones": zones}))
"""


def environment_here() -> Environment:
    """The tzdata of this process: its version and the zone names the rules read."""
    try:
        version: str | None = importlib.metadata.version("tzdata")
    except importlib.metadata.PackageNotFoundError:
        version = None
    return Environment(tzdata=version, zones=timezone_names())


def environment_of_command(command: str) -> Environment:
    """The tzdata of the interpreter that runs `command`, a Python script: named by its `#!`.

    Unknown (both None) when the command is not a Python script or its interpreter cannot say.
    """
    interpreter = _interpreter_of(command)
    if interpreter is None:
        return Environment(tzdata=None, zones=None)
    try:
        done = subprocess.run(
            [interpreter, "-c", _ASK], capture_output=True, timeout=60, check=False
        )
        told = json.loads(done.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return Environment(tzdata=None, zones=None)
    if not isinstance(told, dict):
        return Environment(tzdata=None, zones=None)
    version = told.get("tzdata")
    zones = told.get("zones")
    return Environment(
        tzdata=version if isinstance(version, str) else None,
        zones=frozenset(str(zone) for zone in zones) if isinstance(zones, list) else None,
    )


def _interpreter_of(command: str) -> str | None:
    """The interpreter a script's `#!` line names, when it names Python; else None."""
    try:
        with open(command, "rb") as script:
            first = script.readline(4096)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", "replace").split()
    if not words:
        return None
    if words[0].endswith("/env") and len(words) > 1:
        words = words[1:]
    name = words[0].rsplit("/", 1)[-1]
    # A wrapper in another language (a shell script) runs Python as it likes: unknown.
    return words[0] if name.startswith("python") else None


def with_schema_zones(environment: Environment, schema: Mapping[str, object] | None) -> Environment:
    """`environment`, its zone names taken from its schema when it could not tell them.

    A version's JSON Schema lists the zone names `timezone` accepts, its tzdata's (D-timezone):
    an OLD behind a shell script, whose interpreter is not known, still says them there.
    """
    if environment.zones is not None or schema is None:
        return environment
    properties = schema.get("properties")
    member = properties.get("timezone") if isinstance(properties, Mapping) else None
    listed = member.get("enum") if isinstance(member, Mapping) else None
    if not isinstance(listed, list) or not all(isinstance(zone, str) for zone in listed):
        return environment
    return Environment(tzdata=environment.tzdata, zones=frozenset(map(str, listed)))
