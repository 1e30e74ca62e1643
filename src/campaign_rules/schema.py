"""The interface and its rules as documents, generated from the library's own tables.

`json_schema()` is the JSON Schema (2020-12) of a campaign creation body: it gives the same
verdicts as `validate_create` offline, but for the exceptions listed in D-json-schema.
`openapi()` is the OpenAPI 3.1 document of the whole interface: the three operations, their
parameters, headers and security scheme, and every response with its exact body (D-openapi).
`catalogue()` lists every rule with its id, error key, HTTP status, source and summary, as
`campaign-rules rules` and the rule pages of the documentation site show it.
"""

from __future__ import annotations

from campaign_rules._export.catalogue import RuleInfo, catalogue
from campaign_rules._export.json_schema import json_schema
from campaign_rules._export.openapi import openapi

__all__ = ["RuleInfo", "catalogue", "json_schema", "openapi"]
