"""The look-ups a server supplies to the rules that need its records."""

from __future__ import annotations

from typing import Protocol

__all__ = ["Directory", "checked_directory"]


class Directory(Protocol):
    """What the rules ask of a server's records (D-look-ups).

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


_LOOK_UPS = ("agent_exists", "integration_type", "tag_exists", "billing_limit_reached")


def checked_directory(directory: object) -> Directory | None:
    """`directory` when it is `None` or has the four look-ups; else a `TypeError` that says so.

    A directory is the server's own object, not a request's input: one without its look-ups is
    a programming error, told at once rather than as an `AttributeError` half-way through.
    """
    if directory is None:
        return None
    missing = [name for name in _LOOK_UPS if not callable(getattr(directory, name, None))]
    if missing:
        raise TypeError(
            f"directory must be a campaign_rules.Directory (None for offline checks); this "
            f"{type(directory).__name__} has no {', '.join(missing)}"
        )
    return directory  # type: ignore[return-value]  # it has every look-up a Directory has
