"""The service's spec, clause by clause: its sections and numbered rules, and the citations of them.

The spec is shipped in the package as it was given (`_export/interface/campaign-outreach-api.md`,
package data), so that `campaign-rules explain` can print a clause's text from an installed
package, and the documentation site renders the same file as `spec.html`. `clauses()` reads it
into `Clause` values: each numbered section ("2.4") and each numbered rule of a section
("2.4 rule 3"), with its text and a stable anchor (`spec-2-4`, `spec-2-4-rule-3`), the id of
the element of `spec.html` that shows it. `cited_clauses` reads the clauses a citation of the
rule table names ("spec 2.1, 2.4 rule 2; D-error-keys" gives 2.1 and 2.4 rule 2).
"""

from __future__ import annotations

import functools
import re
from importlib import resources

import attrs

__all__ = [
    "CITATION",
    "SPEC_FILE",
    "Clause",
    "anchor_of",
    "cited_clauses",
    "cited_in_text",
    "clauses",
    "first_words",
    "spec_text",
]

# The spec's file in the package, and in the repository under src/campaign_rules/.
SPEC_FILE = "_export/interface/campaign-outreach-api.md"

_HEADING = re.compile(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? (.+)$")
_NUMBERED = re.compile(r"^(\d+)\. (.+)$")
# One item of a citation's spec part: "2.4", "2.4 rule 3", "2.2-2.6", "4.1-4.3", "1-3".
_ITEM = re.compile(r"(\d+)(?:\.(\d+))?(?: rule (\d+))?(?:-(\d+)(?:\.(\d+))?)?$")
_ITEM_TEXT = r"\d+(?:\.\d+)?(?: rule \d+)?(?:-\d+(?:\.\d+)?)?"
# A citation in prose: "spec 2.4 rule 3", "Spec 5", "spec 2.2-2.6, 4.1-4.3, 5 and 7.1". Group 1
# holds its items.
CITATION = re.compile(rf"\b[Ss]pec ({_ITEM_TEXT}(?:(?:, | and ){_ITEM_TEXT}(?![.\d]))*)")


@attrs.frozen
class Clause:
    """A section of the spec ("2.4") or one of its numbered rules ("2.4 rule 3").

    `title` is the section's heading without its number ("Cycles config object"), or "rule 3";
    `text` is the clause's Markdown as the spec writes it: a section's own text (up to its
    first subsection), a rule's line. `section` is the section a rule belongs to (the section
    itself for a section), `parent` the enclosing clause ("2" for "2.4", "2.4" for its rules).
    """

    id: str
    title: str
    text: str
    section: str
    parent: str | None
    rule: int | None = None

    @property
    def anchor(self) -> str:
        """The id of the clause's element on the site's `spec.html`: `spec-2-4-rule-3`."""
        return anchor_of(self.id)

    @property
    def label(self) -> str:
        """How a citation names it: "spec 2.4 rule 3"."""
        return f"spec {self.id}"

    @property
    def headline(self) -> str:
        """How a list of clauses names it: a section's title, or a rule's first words.

        "Cycles config object" for 2.4; "When `cycles.mode` is `cooldown`, the `schedule`, …"
        for 2.4 rule 3, since "rule 3" tells a reader nothing of what it asks.
        """
        return self.title if self.rule is None else first_words(self.text)


# How many words of a rule's text its headline shows, at least.
HEADLINE_WORDS = 8


def first_words(text: str, count: int = HEADLINE_WORDS) -> str:
    """The first `count` words of a Markdown text, and "…" when there are more.

    A code span is never cut: words are added up to the one that closes it.
    """
    words = text.split()
    taken = words[:count]
    while "".join(taken).count("`") % 2 and len(taken) < len(words):
        taken.append(words[len(taken)])
    shown = " ".join(taken)
    return shown if len(taken) == len(words) else shown.rstrip(",;:") + " …"


def anchor_of(clause_id: str) -> str:
    """The anchor of a clause id: "2.4 rule 3" is `spec-2-4-rule-3`."""
    return "spec-" + re.sub(r"[ .]+", "-", clause_id)


def spec_text() -> str:
    """The spec's Markdown, from the package's data."""
    return (
        resources.files("campaign_rules")
        .joinpath(*SPEC_FILE.split("/"))
        .read_text(encoding="utf-8")
    )


@functools.cache
def clauses() -> tuple[Clause, ...]:
    """Every section and numbered rule of the shipped spec, in the order it writes them."""
    return parse(spec_text())


def parse(text: str) -> tuple[Clause, ...]:
    """The sections and numbered rules of a spec written as Markdown.

    A section is a `##` or `###` heading that starts with its number ("## 1. What the service
    does", "### 2.4 Cycles config object"); a numbered rule, an item of a numbered list of a
    section's own text ("3. When `cycles.mode` ..."), continued by its indented lines.
    """
    found: list[Clause] = []
    section: str | None = None
    title = ""
    own: list[str] = []

    def close() -> None:
        if section is None:
            return
        parent = section.rpartition(".")[0] or None
        found.append(Clause(section, title, "\n".join(own).strip(), section, parent))
        rules: list[list[str]] = []
        ended = False
        for line in own:
            numbered = _NUMBERED.match(line)
            if not ended and numbered and int(numbered.group(1)) == len(rules) + 1:
                rules.append([numbered.group(2)])
            elif rules and not ended and line.startswith((" ", "\t")) and line.strip():
                rules[-1].append(line.strip())
            elif rules and line.strip():
                ended = True  # the list ended: a later numbered line is no rule of it
        for number, lines in enumerate(rules, start=1):
            found.append(
                Clause(
                    f"{section} rule {number}",
                    f"rule {number}",
                    " ".join(lines),
                    section,
                    section,
                    number,
                )
            )

    for line in text.splitlines():
        heading = _HEADING.match(line)
        if heading:
            close()
            section, title, own = heading.group(2), heading.group(3).strip(), []
        elif section is not None:
            own.append(line)
    close()
    return tuple(found)


def cited_clauses(source: str) -> list[str]:
    """The clause ids a citation names, in order, ranges spelt out, each once.

    A citation is the rule table's `source`: "spec 2.2-2.6, 4.1 rule 3, 5; D-tolerant-reading"
    names 2.2, 2.3, 2.4, 2.5, 2.6, 4.1 rule 3 and 5. An item of another form is left out;
    whether each id names a clause of the spec is for its caller (and the tests) to check.
    """
    found: list[str] = []
    for part in source.replace(" and ", ", ").split(";"):
        part = part.strip()
        if not part.startswith("spec "):
            continue
        for item in part.removeprefix("spec ").split(","):
            match = _ITEM.match(item.strip())
            if match is None:
                continue
            major, minor, rule, end_major, end_minor = match.groups()
            if rule is not None:
                found.append(f"{major}.{minor} rule {rule}" if minor else f"{major} rule {rule}")
            elif end_minor is not None and minor is not None and end_major == major:
                found += [f"{major}.{n}" for n in range(int(minor), int(end_minor) + 1)]
            elif end_major is not None and minor is None and end_minor is None:
                found += [str(n) for n in range(int(major), int(end_major) + 1)]
            else:
                found.append(major if minor is None else f"{major}.{minor}")
    return list(dict.fromkeys(found))


def cited_in_text(text: str) -> list[str]:
    """The clause ids that the citations in a text name ("as spec 2.4 rule 2 says"), each once."""
    found: list[str] = []
    for match in CITATION.finditer(text):
        found += cited_clauses(f"spec {match.group(1)}")
    return list(dict.fromkeys(found))
