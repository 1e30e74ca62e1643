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

from campaign_rules._export.catalogue import RuleInfo, catalogue
from campaign_rules._export.json_schema import json_schema
from campaign_rules._export.openapi import openapi
from campaign_rules._export.ruleset import Ruleset
from campaign_rules._export.ruleset import ruleset as _ruleset

__all__ = ["RuleInfo", "Ruleset", "catalogue", "json_schema", "openapi", "ruleset"]


def ruleset() -> Ruleset:
    """The identity of the rules that judge: `{"version": ..., "fingerprint": ...}`.

    `version` is the package's version; `fingerprint` the SHA-256 (64 hex digits) of what
    decides a verdict: every rule's row (id, stage, error key, status, citation and summary), in
    the order they run, every bound of the rules, the code of every module that decides a
    verdict (without its docstrings and comments) and the time zone names `timezone` accepts.
    It changes when any of these does, and only then (D-ruleset).
    """
    from campaign_rules import __version__

    return _ruleset(__version__)
