"""The interface and its rules as documents, generated from the library's own tables.

`json_schema()` is the JSON Schema (2020-12) of a campaign creation body: it gives the same
verdicts as `validate_create` offline, but for the exceptions listed in D-json-schema.
`openapi()` is the OpenAPI 3.1 document of the whole interface: the three operations, their
parameters, headers and security scheme, and every response with its exact body (D-openapi).
`catalogue()` lists every rule with its id, error key, HTTP status, source and summary, as
`campaign-rules rules` and the rule pages of the documentation site show it. `ruleset()` is
the identity of the rule set that judges, the package's version and the SHA-256 fingerprint of
the rule table, its bounds, the code that decides verdicts and the zone names, which every
verdict of an audit carries (D-ruleset).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

from campaign_rules._export.catalogue import RuleInfo, catalogue
from campaign_rules._export.ruleset import Ruleset, fingerprint

if TYPE_CHECKING:  # what a type checker reads; at run time, `__getattr__` imports each name
    from campaign_rules._export.json_schema import json_schema
    from campaign_rules._export.openapi import openapi

__all__ = ["RuleInfo", "Ruleset", "catalogue", "json_schema", "openapi", "ruleset"]

# The documents, by the module that makes them, imported when first used (PEP 562), as the
# root's names are: an audit, which needs the rule set's identity, builds neither.
LAZY_NAMES: Final[dict[str, str]] = {
    "json_schema": "campaign_rules._export.json_schema",
    "openapi": "campaign_rules._export.openapi",
}


def ruleset() -> Ruleset:
    """The identity of the rules that judge: `{"version": ..., "fingerprint": ...}`.

    `version` is the package's version; `fingerprint` the SHA-256 (64 hex digits) of what
    decides a verdict: every rule's row (id, stage, error key, status, citation and summary), in
    the order they run, every bound of the rules, the code of every module that decides a
    verdict (without its docstrings and comments) and the time zone names `timezone` accepts.
    It changes when any of these does, and only then (D-ruleset).
    """
    from campaign_rules import __version__

    return Ruleset(version=__version__, fingerprint=fingerprint())


if not TYPE_CHECKING:  # a type checker sees the imports above

    def __getattr__(name: str) -> Any:
        """A document's function, imported on first use."""
        module = LAZY_NAMES.get(name)
        if module is None:
            raise AttributeError(f"module 'campaign_rules.schema' has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value  # found here from now on, as an imported name is
        return value

    def __dir__() -> list[str]:
        """The module's names, those not imported yet included."""
        return sorted({*globals(), *LAZY_NAMES})
