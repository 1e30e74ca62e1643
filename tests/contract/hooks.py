"""Schemathesis hooks of the contract test: valid requests meet the seeded records.

Path ids drawn at random name no record, so the retrievals would almost always answer 404: a
valid pair of ids is, half of the time, the seeded contact (or thread) instead. A body the
document accepts names an agent, an integration and filter tags; Schemathesis draws
them at random, so almost every create would end in a 404 or `INVALID_FILTER_TAG` and the run
would test little beyond the look-ups. For a positive case (one Schemathesis means to be
accepted) these hooks point those members at the seeded Acme records, as a client that knows
its records does, and keep the case schema-valid. A body that one of the rules the creation
schema cannot state refuses (`SCHEMA_EXCEPTIONS`, D-json-schema) is not a positive case of the
interface, and is dropped. Negative cases are left as drawn (D-contract-test).
"""

from __future__ import annotations

import uuid
from typing import Any

import schemathesis
from examples.server import seed
from hypothesis import strategies as st
from schemathesis import Case, HookContext

from campaign_rules import validate_create
from campaign_rules._export.json_schema import SCHEMA_EXCEPTIONS
from campaign_rules.requests import check_contact_path, check_thread_path

_CREATE = "POST /campaigns"
_INTEGRATION_OF_CHANNEL = {
    "phone_call": seed.PHONE_INTEGRATION,
    "whatsapp": seed.WHATSAPP_INTEGRATION,
}


def _is_positive_create(case: Case) -> bool:
    return (
        case.operation.label == _CREATE
        and not case.meta.generation.mode.is_negative
        and isinstance(case.body, dict)
    )


@schemathesis.hook
def map_case(context: HookContext, case: Case) -> Case:
    """Point a positive create body at Acme's agent, integration and tags."""
    if not _is_positive_create(case):
        return case
    if case.headers and "Idempotency-Key" in case.headers:
        # A client takes a new key for each new request (a UUID, spec 4.1); a key drawn again
        # for another body is refused with a 400, which the interface means (D-idempotency).
        case.headers["Idempotency-Key"] = str(uuid.uuid4())
    body: dict[str, Any] = case.body
    body["agent_id"] = seed.ACME_AGENT
    body["integration_id"] = _INTEGRATION_OF_CHANNEL.get(body.get("integration_type"), "")
    cycles = body.get("cycles")
    if isinstance(cycles, dict) and isinstance(cycles.get("filter_tags"), list):
        cycles["filter_tags"] = list(seed.TAGS[: len(cycles["filter_tags"])])
    return case


@schemathesis.hook
def filter_case(context: HookContext, case: Case) -> bool:
    """Drop a positive create body that only a rule outside the schema refuses."""
    if not _is_positive_create(case):
        return True
    refused_by = {violation.rule for violation in validate_create(case.body).violations}
    return not refused_by or not refused_by <= set(SCHEMA_EXCEPTIONS)


@schemathesis.hook
def flatmap_path_parameters(
    context: HookContext, path_parameters: dict[str, Any]
) -> st.SearchStrategy[dict[str, Any]]:
    """Valid path ids as drawn, or the seeded record's, each half of the time."""
    label = context.operation.label if context.operation is not None else ""
    if label == "GET /campaigns/{id}/contacts/{contact_id}":
        drawn = check_contact_path(path_parameters.get("id"), path_parameters.get("contact_id"))
        seeded = {"id": seed.CAMPAIGN_ID, "contact_id": seed.CONTACT_ID}
    elif label == "GET /thread/{id}":
        drawn = check_thread_path(path_parameters.get("id"))
        seeded = {"id": seed.THREAD_ID}
    else:
        return st.just(path_parameters)
    return st.sampled_from([path_parameters, seeded]) if drawn.ok else st.just(path_parameters)
