"""A directory built from a request's records, so that an executor answers the look-up rules.

The records are the protocol's `directory`: the agents, each with its integrations by id and
their types, the thread tags, and whether the billing limit is reached.
"""

from __future__ import annotations

import attrs

__all__ = ["RecordsDirectory", "directory_of"]


@attrs.frozen
class RecordsDirectory:
    """A `campaign_rules.Directory` answering from records held in memory."""

    agents: frozenset[str]
    integrations: dict[tuple[str, str], str]
    tags: frozenset[str]
    billing_reached: bool

    def agent_exists(self, agent_id: str) -> bool:
        """Whether the records hold this agent."""
        return agent_id in self.agents

    def integration_type(self, agent_id: str, integration_id: str) -> str | None:
        """The type of this agent's integration in the records; `None` if it has none."""
        return self.integrations.get((agent_id, integration_id))

    def tag_exists(self, tag_id: str) -> bool:
        """Whether the records hold this tag."""
        return tag_id in self.tags

    def billing_limit_reached(self) -> bool:
        """Whether the records say the billing limit is reached."""
        return self.billing_reached


def directory_of(records: object) -> RecordsDirectory | str:
    """The directory of a request's records, or why they are not the protocol's form."""
    if type(records) is not dict or set(records) != {"agents", "tags", "billing_limit_reached"}:
        return "directory must be null or hold exactly agents, tags and billing_limit_reached"
    agents, tags, billing = records["agents"], records["tags"], records["billing_limit_reached"]
    if type(agents) is not list or type(tags) is not list or type(billing) is not bool:
        return "directory: agents and tags must be arrays, billing_limit_reached a boolean"
    if not all(type(tag) is str for tag in tags):
        return "directory: every tag must be a string"
    ids: set[str] = set()
    integrations: dict[tuple[str, str], str] = {}
    for agent in agents:
        if type(agent) is not dict or set(agent) != {"id", "integrations"}:
            return "directory: every agent must hold exactly id and integrations"
        agent_id, owned = agent["id"], agent["integrations"]
        if type(agent_id) is not str or type(owned) is not dict:
            return "directory: an agent's id must be a string, its integrations an object"
        if not all(type(kind) is str for kind in owned.values()):
            return "directory: an integration's type must be a string"
        ids.add(agent_id)
        integrations.update({(agent_id, name): kind for name, kind in owned.items()})
    return RecordsDirectory(frozenset(ids), integrations, frozenset(tags), billing)
