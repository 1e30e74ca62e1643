"""The spec inside the site: an anchor for each clause of `spec.html`, a link for each citation.

`spec.md` includes the spec shipped in the package (`src/campaign_rules/_export/interface/`) as
it is. When it is read, each numbered section gets the anchor `spec-2-4` and each numbered rule
`spec-2-4-rule-3` (`campaign_rules._export.clauses`), registered as labels, so that any page
may link to a clause with ``{ref}`spec 2.4 rule 3 <spec-2-4-rule-3>` ``. On every other page, a
citation in the text ("spec 2.1, 2.4 rule 2", "Spec 5") becomes links to its clauses; a cited
clause the spec lacks is a warning, so the strict build fails on it.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging

from campaign_rules._export.clauses import CITATION, anchor_of, cited_clauses, clauses

SPEC_DOC = "spec"
_LOGGER = logging.getLogger(__name__)
_NUMBER = re.compile(r"(\d+(?:\.\d+)?)\.? ")
_ITEM_SPLIT = re.compile(r"(, | and )")
# Text inside these is left as it is: code, links, titles, raw markup.
_SKIPPED = (
    nodes.literal,
    nodes.literal_block,
    nodes.reference,
    nodes.title,
    nodes.raw,
    nodes.comment,
    nodes.target,
    addnodes.pending_xref,
    addnodes.toctree,
)


def _register(app: Sphinx, anchor: str, title: str) -> None:
    std: Any = app.env.get_domain("std")
    std.anonlabels[anchor] = (SPEC_DOC, anchor)
    std.labels[anchor] = (SPEC_DOC, anchor, title)


def anchor_clauses(app: Sphinx, doctree: nodes.document) -> None:
    """Give the spec page's sections and numbered rules their clauses' anchors."""
    if app.env.docname != SPEC_DOC:
        return
    known = {clause.id: clause for clause in clauses()}
    placed: set[str] = set()
    for section in doctree.findall(nodes.section):
        number = _NUMBER.match(section[0].astext())
        if number is None or number.group(1) not in known:
            continue
        section_id = number.group(1)
        section["ids"].append(anchor_of(section_id))
        _register(app, anchor_of(section_id), f"spec {section_id}")
        placed.add(section_id)
        for child in section.children:
            if isinstance(child, nodes.enumerated_list):
                for n, item in enumerate(child.children, start=child.get("start", 1)):
                    rule_id = f"{section_id} rule {n}"
                    if rule_id in known:
                        item["ids"].append(anchor_of(rule_id))
                        item["classes"].append("spec-rule")
                        _register(app, anchor_of(rule_id), f"spec {rule_id}")
                        placed.add(rule_id)
                break
    for missing in sorted(set(known) - placed, key=list(known).index):
        _LOGGER.warning("spec %s has no anchor on the spec page", missing, location=SPEC_DOC)


def _link(docname: str, text: str, clause_id: str) -> nodes.Node:
    return addnodes.pending_xref(
        "",
        nodes.inline(text, text, classes=["spec-citation"]),
        refdomain="std",
        reftype="ref",
        reftarget=anchor_of(clause_id),
        refexplicit=True,
        refwarn=True,
        refdoc=docname,
    )


def _linked(docname: str, text: str, node: nodes.Node) -> list[nodes.Node] | None:
    """The text with its citations as links, or None when it has none."""
    known = {clause.id for clause in clauses()}
    out: list[nodes.Node] = []
    at = 0
    for match in CITATION.finditer(text):
        pieces = _ITEM_SPLIT.split(match.group(1))
        first = cited_clauses(f"spec {pieces[0]}")
        if not first or first[0] not in known:
            _LOGGER.warning("citation %r names no clause of the spec", match.group(), location=node)
            continue
        out.append(nodes.Text(text[at : match.start()]))
        prefix = text[match.start() : match.start(1)]
        out.append(_link(docname, prefix + pieces[0], first[0]))
        end = match.start(1) + len(pieces[0])
        for separator, item in zip(pieces[1::2], pieces[2::2], strict=True):
            ids = cited_clauses(f"spec {item}")
            if not ids or ids[0] not in known:
                break  # "spec 8, 12 items": the citation ended
            out += [nodes.Text(separator), _link(docname, item, ids[0])]
            end += len(separator) + len(item)
        at = end
    if not out:
        return None
    out.append(nodes.Text(text[at:]))
    return out


def link_citations(app: Sphinx, doctree: nodes.document) -> None:
    """Turn the citations of a page's text into links to the spec page's clauses."""
    docname = app.env.docname
    if docname == SPEC_DOC:
        return
    for text in list(doctree.findall(nodes.Text)):
        parent = text.parent
        if parent is None or _inside_skipped(text):
            continue
        replaced = _linked(docname, text.astext(), parent)
        if replaced is not None:
            parent.replace(text, replaced)


def _inside_skipped(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, _SKIPPED):
            return True
        parent = parent.parent
    return False


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the anchors and the links with Sphinx."""
    app.connect("doctree-read", anchor_clauses)
    app.connect("doctree-read", link_citations)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
