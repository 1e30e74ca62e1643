r"""The rule on the free text of the payload: every string the campaign keeps is Unicode text.

A string holding a lone surrogate (`"\ud800"`, which Python's `json` decodes) cannot be
written as UTF-8, so a campaign holding one could be stored and then not sent back
(D-lone-surrogates).
"""

from __future__ import annotations

from typing import Final

from campaign_rules._campaign.document import Document
from campaign_rules._core.findings import ready
from campaign_rules._core.unicode import LONE_SURROGATE, has_surrogate
from campaign_rules._core.violations import Finding
from campaign_rules._rules.reader import as_string, item_path

__all__ = ["FREE_TEXT_MEMBERS", "free_text_is_unicode"]

# The members of the payload whose strings no other rule reads against an alphabet: any other
# string member is a name, a format or an enumeration value, whose own rule refuses a lone
# surrogate. `name` and `integration_id` are read by the document already.
FREE_TEXT_MEMBERS: Final[tuple[str, ...]] = (
    "description",
    "first_message",
    "template",
    "template_alt",
)
_NAME: Final = ready("name", f"name {LONE_SURROGATE}")
_INTEGRATION_ID: Final = ready("integration_id", f"integration_id {LONE_SURROGATE}")
_FREE_TEXT: Final = {name: ready(name, f"{name} {LONE_SURROGATE}") for name in FREE_TEXT_MEMBERS}
_FILTER_TAGS: Final = "cycles.filter_tags"


def free_text_is_unicode(doc: Document, findings: list[Finding]) -> None:
    """Reads the members the campaign keeps as text; reports each holding a surrogate at its path.

    They are `name`, `integration_id`, the free-text members and the items of an enabled
    block's `filter_tags`, each when a string; other types are the type rules'. An ASCII
    string is told at once (`has_surrogate`).
    """
    name = doc.name_text
    if name is not None and has_surrogate(name):
        findings.append(_NAME)
    integration_id = doc.integration_id_text
    if integration_id is not None and has_surrogate(integration_id):
        findings.append(_INTEGRATION_ID)
    root = doc.root
    for member in FREE_TEXT_MEMBERS:
        text = as_string(root.get(member))
        if text is not None and has_surrogate(text):
            findings.append(_FREE_TEXT[member])
    tags = doc.cycles.filter_lists.get("filter_tags")
    if tags is None:
        return
    for index, item in enumerate(tags):
        text = as_string(item)
        if text is not None and has_surrogate(text):
            path = item_path(_FILTER_TAGS, index)
            findings.append(Finding(path, f"{path} {LONE_SURROGATE}"))
