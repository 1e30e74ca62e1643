"""A campaign a server reads back from its storage, as the creation rules find it."""

from __future__ import annotations

from campaign_rules._core.violations import Violation

__all__ = ["StoredCampaign"]


class StoredCampaign:
    """The wire JSON of a stored campaign, read as a creation body: what the rules found in it.

    `problems` are the violations of the offline creation rules, empty when the campaign is
    sound. The update rule `existing_is_a_campaign` reports each as the server's own fault.
    """

    __slots__ = ("problems",)

    def __init__(self, problems: tuple[Violation, ...]) -> None:
        self.problems = problems
