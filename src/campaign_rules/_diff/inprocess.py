"""The installed version as a side, judged in this process by the in-process executor.

`answer(request)` answers one request of the conformance executor protocol (version 1) with
this library's verdict. It stands in for the executor behind `conformance serve` (issue 39),
which the diff uses in its place once both are in one tree.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping, Sequence

from campaign_rules import __version__
from campaign_rules._core.enums import CampaignStatus
from campaign_rules._core.outcome import Outcome
from campaign_rules._diff.environment import environment_here
from campaign_rules._diff.sides import Answer, Description, Environment, Request
from campaign_rules._export.catalogue import catalogue, rule_readings
from campaign_rules._export.json_schema import json_schema
from campaign_rules._validate import validate_create_json, validate_update_json
from campaign_rules.responses import (
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)
from campaign_rules.schema import ruleset

__all__ = ["InProcessSide", "answer"]

KINDS = ("create", "update", "response")


class InProcessSide:
    """The rules of this process: `answer` for each request, the catalogue for the rows."""

    def describe(self) -> Description:
        """The installed package's rule set."""
        identity = ruleset()
        return Description(
            executor=f"campaign-rules {__version__} (in-process)",
            version=identity["version"],
            fingerprint=identity["fingerprint"],
            kinds=KINDS,
        )

    def rules(self) -> list[dict[str, object]]:
        """The rows `rules --json` prints, as JSON reads them back (enumerations as strings)."""
        readings = rule_readings()
        rows = [
            {
                "id": info.id,
                "stage": info.stage,
                "key": info.key.value,
                "status": info.status,
                "source": info.source,
                "summary": info.summary,
                **readings[info.id],
            }
            for info in catalogue()
        ]
        read_back: list[dict[str, object]] = json.loads(json.dumps(rows))
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


def answer(request: Request) -> Answer:
    """The protocol's answer to `request`, or `{"id", "unsupported"}` for one it cannot read."""
    ident = request.get("id")
    body = _body_of(request.get("body"))
    if body is None:
        return {"id": ident, "unsupported": "the body is neither {text} nor {base64}"}
    kind = request.get("kind")
    directory = _Records.of(request.get("directory"))
    if kind == "create":
        return _answered(ident, validate_create_json(body, directory=directory))
    if kind == "update":
        status = _status_of(request.get("status"))
        if isinstance(status, str):
            return {"id": ident, "unsupported": status}
        existing = request.get("existing")
        return _answered(
            ident, validate_update_json(existing, body, status=status, directory=directory)
        )
    if kind == "response":
        return _response(ident, request, body)
    return {"id": ident, "unsupported": f"no kind {str(kind)[:40]!r}"}


class _Records:
    """A request's `directory`: the server's records the look-up rules ask about."""

    def __init__(self, agents: dict[str, dict[str, str]], tags: set[str], full: bool) -> None:
        self._agents = agents
        self._tags = tags
        self._full = full

    @classmethod
    def of(cls, told: object) -> _Records | None:
        """The records a request's `directory` describes; None for none (offline)."""
        if not isinstance(told, Mapping):
            return None
        agents: dict[str, dict[str, str]] = {}
        for agent in told.get("agents") or ():
            if isinstance(agent, Mapping) and isinstance(agent.get("id"), str):
                integrations = agent.get("integrations")
                agents[str(agent["id"])] = (
                    {str(k): str(v) for k, v in integrations.items()}
                    if isinstance(integrations, Mapping)
                    else {}
                )
        tags = {str(tag) for tag in told.get("tags") or ()}
        return cls(agents, tags, told.get("billing_limit_reached") is True)

    def agent_exists(self, agent_id: str) -> bool:
        """Whether the records hold this agent."""
        return agent_id in self._agents

    def integration_type(self, agent_id: str, integration_id: str) -> str | None:
        """The type of this agent's integration, if it has it."""
        return self._agents.get(agent_id, {}).get(integration_id)

    def tag_exists(self, tag_id: str) -> bool:
        """Whether the records hold this tag."""
        return tag_id in self._tags

    def billing_limit_reached(self) -> bool:
        """Whether the organization is at its billing limit."""
        return self._full


def _body_of(body: object) -> str | bytes | None:
    if not isinstance(body, Mapping):
        return None
    text = body.get("text")
    if isinstance(text, str):
        return text
    coded = body.get("base64")
    if isinstance(coded, str):
        try:
            return base64.b64decode(coded, validate=True)
        except (binascii.Error, ValueError):
            return None
    return None


def _status_of(value: object) -> CampaignStatus | str | None:
    """The campaign status named, None for none, or the reason it cannot be read (a str)."""
    if value is None:
        return None
    if isinstance(value, str) and value in CampaignStatus.__members__.values():
        return CampaignStatus(value)
    return f"no campaign status {str(value)[:40]!r}"


def _response(ident: object, request: Request, body: str | bytes) -> Answer:
    try:
        value = json.loads(body)
    except ValueError:
        return {"id": ident, "unsupported": "a response body that is not JSON"}
    reader = request.get("reader")
    if reader == "create_response":
        return _answered(ident, parse_create_response(value))
    if reader == "contact_response":
        return _answered(ident, parse_contact_response(value))
    if reader == "thread":
        return _answered(ident, parse_thread(value))
    if reader == "error":
        return _answered(ident, parse_error(request.get("http_status"), value))
    return {"id": ident, "unsupported": f"no reader {str(reader)[:40]!r}"}


def _answered(ident: object, result: object) -> Answer:
    """A result as the protocol's answer: ok, status, every violation, the envelope."""
    violations = getattr(result, "violations", ())
    ok = not violations
    status = getattr(result, "status", None) if isinstance(result, Outcome) else None
    envelope = result.envelope() if isinstance(result, Outcome) else None
    return {
        "id": ident,
        "ok": ok,
        "status": None if ok else status,
        "violations": [
            {
                "rule": violation.rule,
                "key": violation.key.value,
                "field": violation.field,
                "pointer": violation.pointer,
                "line": violation.line,
                "column": violation.column,
                "message": violation.message,
            }
            for violation in violations
        ],
        "envelope": envelope,
    }
