"""The server's answers that the look-up rules read, each asked at most once.

A `Document` made with a directory holds one `Lookups`; the answers wait until a rule asks.
"""

from __future__ import annotations

from campaign_rules._campaign.directory import Directory
from campaign_rules._core.compiled import mypyc_attr

__all__ = ["Lookups", "agent_found", "integration_type_found"]


# Compiled, each payload checked with a directory makes one and frees it with its `Document`:
# a free list of one keeps the last one freed for the next payload (as `Document`).
@mypyc_attr(free_list_len=1)
class Lookups:
    """What the directory is asked about a payload, and its answers once asked.

    `agent_id`: the payload's `agent_id` in lower case when it is a well-formed UUID v4
    (D-agent-id); `integration_id`: its `integration_id` when it is a well-formed one
    (`Document.integration_id`); both as the `Document` read them.
    """

    def __init__(
        self, directory: Directory, agent_id: str | None, integration_id: str | None
    ) -> None:
        self.directory = directory
        self.agent_id = agent_id
        self.integration_id = integration_id
        self._agent_found: bool | None = None
        # The answer in a tuple of one once asked, `None` before: the answer may be `None`.
        self._integration_type: tuple[str | None] | None = None

    # Each property only caches; the plain function of its name below decides, where mutation
    # testing reaches it. (Cached by hand: `functools.cached_property` does not cache in a
    # compiled class.)

    @property
    def agent_found(self) -> bool:
        """Whether the directory knows the well-formed `agent_id`."""
        if self._agent_found is None:
            self._agent_found = agent_found(self)
        return self._agent_found

    @property
    def integration_type_found(self) -> str | None:
        """The type of the agent's integration, when the agent exists and the id is well-formed."""
        answer = self._integration_type
        if answer is None:
            answer = self._integration_type = (integration_type_found(self),)
        return answer[0]


def agent_found(lookups: Lookups) -> bool:
    """Whether the directory knows the well-formed `agent_id`."""
    if lookups.agent_id is None:
        return False
    return lookups.directory.agent_exists(lookups.agent_id)


def integration_type_found(lookups: Lookups) -> str | None:
    """The type of the agent's integration, when the agent exists and the ids are well-formed."""
    if lookups.agent_id is None or lookups.integration_id is None:
        return None
    if not lookups.agent_found:
        return None
    return lookups.directory.integration_type(lookups.agent_id, lookups.integration_id)
