"""The rule on the channel-only members of the payload (spec 4.1 rule 1)."""

from __future__ import annotations

from typing import Final

from campaign_rules._campaign.document import Document
from campaign_rules._core.findings import ready
from campaign_rules._core.limits import CHANNEL_OF_FIELD, FIELDS_OF_OTHER_CHANNELS
from campaign_rules._core.violations import Finding

__all__ = ["channel_fields_match_integration_type"]

# The rule says one sentence for each field, so its finding is made once, at import, and given
# each time: the runner may then give again the violation it made of it. The rules on one
# member's value each (`name`, `agent_id`, `retries`...) are rows of the table (`_rules.table`),
# with no function of their own.
_FOR_ITS_CHANNEL_ONLY: Final = {
    name: ready(name, f"{name} is for {channel.value} campaigns only")
    for name, channel in CHANNEL_OF_FIELD.items()
}


def channel_fields_match_integration_type(doc: Document, findings: list[Finding]) -> None:
    """Runs on a known channel; reports each field of another one, whatever its value, at its name.

    The fields and their channels are `_core.limits.CHANNEL_OF_FIELD`, and by channel
    `FIELDS_OF_OTHER_CHANNELS`; `null` counts as sent.
    """
    if doc.channel is None:
        return
    for name in FIELDS_OF_OTHER_CHANNELS[doc.channel]:
        if name in doc.root:
            findings.append(_FOR_ITS_CHANNEL_ONLY[name])
