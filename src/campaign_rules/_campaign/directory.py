"""The look-ups a server supplies to the rules that need its records."""

from __future__ import annotations

from typing import Protocol

__all__ = ["Directory"]


class Directory(Protocol):
    """What the rules ask of a server's records (api-contract, "Directory").

    The rules call each method only with well-formed input (a canonical lower-case UUID v4 for
    `agent_id`, a non-empty string for the rest). An exception raised here is the server's own
    and is not caught: a database error is not a validation result.
    """

    def agent_exists(self, agent_id: str) -> bool:
        """Whether the organization has an agent with this public id."""
        ...

    def integration_type(self, agent_id: str, integration_id: str) -> str | None:
        """The type (`phone_call`, `whatsapp`) of this agent's integration; `None` if none."""
        ...

    def tag_exists(self, tag_id: str) -> bool:
        """Whether a thread tag with this id exists."""
        ...

    def billing_limit_reached(self) -> bool:
        """Whether the organization's billing limit is reached."""
        ...
