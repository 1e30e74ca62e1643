"""The records a server holds for the kit's HTTP cases: the reference server's seed.

The reference server's `examples/server/seed.py` makes these records; the installed package
cannot import the examples, so the cases carry them as data, and a test holds the two equal
(tests/test_conformance_http.py). A server in another language that runs the HTTP cases holds
the same records (docs/conformance-http.md). `SeedDirectory` answers the rules' look-ups from
them, so that the answers the cases expect are the library's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

import attrs

__all__ = [
    "ACME",
    "CAMPAIGN_ID",
    "CONTACT",
    "CONTACT_ID",
    "ORGANIZATIONS",
    "OVERDRAWN",
    "THREAD",
    "THREAD_ID",
    "Agent",
    "Organization",
    "SeedDirectory",
]


@attrs.frozen
class Agent:
    """An agent: its name, and its integrations by id with their types."""

    name: str
    integrations: Mapping[str, str]


@attrs.frozen
class Organization:
    """An organization: its API key, billing, agents by id, thread tags and threads' ids."""

    api_key: str
    billing_limit_reached: bool
    agents: Mapping[str, Agent]
    tags: tuple[str, ...]
    threads: tuple[str, ...]


def _both_channels(phone: str, whatsapp: str) -> Mapping[str, str]:
    return MappingProxyType({phone: "phone_call", whatsapp: "whatsapp"})


ACME: Final = Organization(
    api_key="acme-demo-key",
    billing_limit_reached=False,
    agents=MappingProxyType({
        "3f9c2a7e-5b1d-4c8e-9a2f-6d4b8e1c7a90": Agent(
            "Lucía", _both_channels("int_voice_mx_01", "int_wa_mx_02")
        ),
        "5a1e9c3b-7d2f-4b8a-a6e0-3c9f1d7b5e24": Agent(
            "Grace", MappingProxyType({"int_voice_us_07": "phone_call"})
        ),
        "b7e4d2c1-9a3f-4e6b-8c5d-2f1a0e9d8c7b": Agent(
            "Nuria", MappingProxyType({"int_wa_es_02": "whatsapp"})
        ),
    }),
    tags=("tag_vip", "tag_do_not_call"),
    threads=("th_5f2a9c",),
)  # fmt: skip
OVERDRAWN: Final = Organization(
    api_key="overdrawn-demo-key",
    billing_limit_reached=True,
    agents=MappingProxyType({
        "7d1e4b2a-9c3f-4a6d-8e5b-1f2a3c4d5e6f": Agent(
            "Bruno", _both_channels("int_voice_mx_01", "int_wa_mx_02")
        ),
    }),
    tags=(),
    threads=(),
)  # fmt: skip
ORGANIZATIONS: Final = MappingProxyType({"acme": ACME, "overdrawn": OVERDRAWN})

# Acme's campaign, its contact and its thread, as the server stores them.
CAMPAIGN_ID: Final = 1042
CONTACT_ID: Final = 17
(THREAD_ID,) = ACME.threads
CONTACT: Final[Mapping[str, object]] = MappingProxyType({
    "f_id": "c-88f1",
    "id": CONTACT_ID,
    "name": "Marta Ruiz",
    "contact": "+525512345678",
    "status": "answered",
    "context": "renewal due in December",
    "retries": 1,
    "has_follow_up": False,
    "call_count": 2,
    "billed_duration": 94,
    "last_call_at": "2026-11-21 17:42:10",
    "extracted_data": {"renewal": "yes", "preferred_time": "mornings"},
    "tags": ["tag_vip"],
})  # fmt: skip
THREAD: Final[Mapping[str, object]] = MappingProxyType({
    "id": THREAD_ID,
    "agent": {"id": "3f9c2a7e-5b1d-4c8e-9a2f-6d4b8e1c7a90", "name": "Lucía"},
    "end_user": {"id": "eu_301", "display_name": "Marta Ruiz", "info": "+525512345678"},
    "integration": {"id": "int_wa_mx_02", "type": "whatsapp"},
    "updated_at": "2026-11-21T17:45:03.120000+00:00",
    "active": True,
    "blocked": False,
    "tags": [{"id": "tag_vip", "name": "VIP"}],
    "assigned_to": [
        {"id": "u_12", "email": "ana@example.com", "first_name": "Ana", "last_name": "Gómez"}
    ],
})  # fmt: skip


@attrs.frozen
class SeedDirectory:
    """The look-ups of `campaign_rules.Directory`, answered from one organization's records."""

    organization: Organization

    def agent_exists(self, agent_id: str) -> bool:
        """Whether the organization has this agent."""
        return agent_id in self.organization.agents

    def integration_type(self, agent_id: str, integration_id: str) -> str | None:
        """The type of this agent's integration, `None` when it has none of this id."""
        agent = self.organization.agents.get(agent_id)
        return None if agent is None else agent.integrations.get(integration_id)

    def tag_exists(self, tag_id: str) -> bool:
        """Whether the organization has this thread tag."""
        return tag_id in self.organization.tags

    def billing_limit_reached(self) -> bool:
        """Whether the organization's billing limit is reached."""
        return self.organization.billing_limit_reached
