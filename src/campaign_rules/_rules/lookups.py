"""Rules that need the server's records, through a `Directory` (spec 4.1 rules 3 and 4).

The answers they read are asked once for each payload, by `_campaign.lookups.Lookups`.

D-look-ups: each look-up runs when its own inputs passed their offline rules,
whatever else is wrong with the payload; the billing look-up always runs.
"""

from __future__ import annotations

from typing import Final

from campaign_rules._campaign.document import Document
from campaign_rules._core.findings import ready
from campaign_rules._core.unicode import has_surrogate
from campaign_rules._core.violations import Finding
from campaign_rules._rules.reader import as_string, item_path

__all__ = [
    "agent_exists",
    "billing_limit_not_reached",
    "filter_tags_exist",
    "integration_belongs_to_agent",
    "integration_type_matches",
]

_NO_AGENT: Final = ready("agent_id", "no agent has this agent_id")
_NO_INTEGRATION: Final = ready(
    "integration_id", "the agent has no integration with this integration_id"
)
_OTHER_TYPE: Final = ready(
    "integration_type", "integration_type is not the type of this integration"
)
_BILLING_LIMIT: Final = ready(None, "the billing limit is reached")


def agent_exists(doc: Document, findings: list[Finding]) -> None:
    """Asks the directory once, with a well-formed `agent_id` (`Lookups.agent_found`).

    Without a directory, or with an ill-formed id, it stays silent; it reports at `agent_id`.
    """
    lookups = doc.lookups
    if lookups is not None and lookups.agent_id is not None and not lookups.agent_found:
        findings.append(_NO_AGENT)


def integration_belongs_to_agent(doc: Document, findings: list[Finding]) -> None:
    """Asks only when the agent was found and the id is a non-empty string; reports at the id."""
    lookups = doc.lookups
    if (
        lookups is not None
        and lookups.agent_found
        and lookups.integration_id is not None
        and lookups.integration_type_found is None
    ):
        findings.append(_NO_INTEGRATION)


def integration_type_matches(doc: Document, findings: list[Finding]) -> None:
    """Compares the type the directory gave with the body's channel, when both are known.

    A mismatch is reported at `integration_type`; an unknown one is left to the rules before.
    """
    lookups = doc.lookups
    found = lookups.integration_type_found if lookups is not None else None
    if found is not None and doc.channel is not None and found != doc.channel:
        findings.append(_OTHER_TYPE)


def filter_tags_exist(doc: Document, findings: list[Finding]) -> None:
    """Asks about each distinct non-empty string tag of an array read, once, at its first place.

    A long array is not read, so its tags are not asked about.
    """
    items = doc.cycles.filter_lists.get("filter_tags")
    if doc.directory is None or items is None:
        return
    asked: set[str] = set()
    for index, item in enumerate(items):
        tag = as_string(item)
        # Ill-formed and repeated items are the offline rules' to report, and not looked up;
        # nor is a tag that is not Unicode text, which no store can be asked for
        # (D-lone-surrogates).
        if not tag or tag in asked or has_surrogate(tag):
            continue
        asked.add(tag)
        if not doc.directory.tag_exists(tag):
            path = item_path("cycles.filter_tags", index)
            findings.append(Finding(path, f"{path} is not a known tag"))


def billing_limit_not_reached(doc: Document, findings: list[Finding]) -> None:
    """Asks the directory whenever there is one, whatever else is wrong; reports at the root."""
    if doc.directory is not None and doc.directory.billing_limit_reached():
        findings.append(_BILLING_LIMIT)
