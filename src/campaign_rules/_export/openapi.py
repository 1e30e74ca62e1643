"""The OpenAPI 3.1 document of the whole interface, generated from the library's own tables.

The creation body is `json_schema()`, as one component. The path parameters say what the path
checks accept (D-path-ids, D-thread-id), the `Idempotency-Key` header what
`check_idempotency_key` accepts (D-idempotency-key), and the security scheme what
`parse_authorization` reads (spec 5). Each response schema is the shape a reader of
`campaign_rules.responses` reads (`_wire/shapes`), so a body the schema accepts is one the
reader accepts, except where `OPENAPI_EXCEPTIONS` says JSON Schema cannot follow. Each error
status of an operation, and the error keys it can carry, come from the rules the operation runs
and `STATUS_OF_KEY` (D-statuses). The examples are the files of `examples/`, shipped with the
package. This module writes down only how OpenAPI says each of these (D-openapi).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from typing import Any, Final

import attrs

from campaign_rules._core.enums import ErrorKey
from campaign_rules._core.formats import (
    is_uuid_v4,
    parse_contact_time,
    parse_date,
    parse_date_time,
    parse_response_time,
)
from campaign_rules._core.limits import (
    AUTHORIZATION_SCHEME,
    IDEMPOTENCY_KEY_MAX_LENGTH,
    IDEMPOTENCY_WINDOW_SECONDS,
    JSON_INTEGERS,
    OBJECT_MAX_MEMBERS,
    PATH_ID_MAX,
    RESPONSE_ARRAY_MAX_ITEMS,
    RESPONSE_MAP_MAX_MEMBERS,
    RESPONSE_OPAQUE_MAX_DEPTH,
    RESPONSE_OPAQUE_MAX_VALUES,
    THREAD_ID_MAX_LENGTH,
    VISIBLE_ASCII,
)
from campaign_rules._core.outcome import STATUS_OF_KEY
from campaign_rules._export.json_schema import SCHEMA_EXCEPTIONS, json_schema
from campaign_rules._export.patterns import (
    CONTACT_TIME,
    DATE,
    DATE_TIME,
    HH_MM,
    HH_MM_SS,
    LINE_BREAK,
    UUID_V4,
    Pattern,
    character_class,
)
from campaign_rules._rules.table import (
    CONTACT_PATH_RULES,
    CREATE_RULES,
    FINGERPRINT_RULES,
    IDEMPOTENCY_KEY_RULES,
    IDEMPOTENCY_RULES,
    LOOKUP_RULES,
    RATE_RULES,
    RESPONSE_RULES,
    THREAD_PATH_RULES,
    Rule,
)
from campaign_rules._server.paths import DOT_SEGMENTS, UNRESERVED
from campaign_rules._wire.shapes import (
    API_ERROR,
    CONTACT_RESPONSE,
    CREATE_RESPONSE,
    CREDENTIALS_ERROR,
    THREAD,
    Format,
    Member,
    Shape,
)

__all__ = ["OPENAPI_EXCEPTIONS", "OPENAPI_VERSION", "openapi", "render_openapi"]

OPENAPI_VERSION: Final = "3.1.0"
# spec 9: the base address ends with the version segment.
_BASE_PATH: Final = "/api/v1.0"
_API_VERSION: Final = "1.0"

# D-openapi: the response rules JSON Schema cannot state, each with the reason. Where one of
# them fires, a response schema accepts a body its reader refuses; nowhere else do they differ.
OPENAPI_EXCEPTIONS: Final[Mapping[str, str]] = {
    "response.opaque_members_hold_plain_json": (
        "JSON Schema cannot count the values of a free-form object nor bound its depth: the "
        "schema of `analytics` is any object, where the reader also caps it at "
        f"{RESPONSE_OPAQUE_MAX_VALUES:,} values {RESPONSE_OPAQUE_MAX_DEPTH} levels deep "
        f"(D-response-caps), and takes its integers from {JSON_INTEGERS.low} to "
        f"{JSON_INTEGERS.high} only (D-json-integers)"
    ),
    "error.status_is_an_error_status": (
        "the status is not part of the body: the document has an error body only under the "
        "error statuses, so a body that came with another status is outside it"
    ),
}

_JSON: Final = "application/json"
_SECURITY_SCHEME: Final = "apiKey"


def _component(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


# What each string format of a response is, by the `_core.formats` function that reads it.
_STRING_FORMATS: Final[Mapping[Callable[[str], object], Callable[[], dict[str, Any]]]] = {
    is_uuid_v4: UUID_V4.keywords,
    parse_date: DATE.keywords,
    parse_date_time: DATE_TIME.keywords,
    parse_contact_time: CONTACT_TIME.keywords,
    # D-response-times: HH:MM or HH:MM:SS.
    parse_response_time: lambda: {"anyOf": [HH_MM.keywords(), HH_MM_SS.keywords()]},
}


@attrs.frozen
class _Operation:
    """One operation of the spec: where it is, what it runs, and how it answers."""

    path: str
    method: str
    operation_id: str
    summary: str
    description: str
    rules: tuple[Rule[Any], ...]
    success_status: int
    success_schema: str
    success_example: str
    parameters: Callable[[], list[dict[str, Any]]]  # a lambda: the builders come further down
    # Spec 7.4: the thread operation's errors are `{error: <status>, message}` bodies.
    status_bodies: bool = False


_OPERATIONS: Final = (
    _Operation(
        path="/campaigns",
        method="post",
        operation_id="createCampaign",
        summary="Create a campaign",
        description="Spec 4.1. Every violation is found; the envelope reports the primary one.",
        rules=(
            *IDEMPOTENCY_KEY_RULES,
            *FINGERPRINT_RULES,
            *IDEMPOTENCY_RULES,
            *CREATE_RULES,
            *LOOKUP_RULES,
            *RATE_RULES,
        ),
        success_status=201,
        success_schema="CreateResponse",
        success_example="responses/create_response.json",
        parameters=lambda: _create_parameters(),
    ),
    _Operation(
        path="/campaigns/{id}/contacts/{contact_id}",
        method="get",
        operation_id="getCampaignContact",
        summary="Retrieve a campaign contact",
        description="Spec 4.2. A stored contact that breaks the spec is answered with a 500.",
        rules=(*CONTACT_PATH_RULES, *RATE_RULES, *RESPONSE_RULES),
        success_status=200,
        success_schema="ContactResponse",
        success_example="responses/contact_response.json",
        parameters=lambda: _contact_parameters(),
    ),
    _Operation(
        path="/thread/{id}",
        method="get",
        operation_id="getThread",
        summary="Retrieve a thread",
        description=(
            "Spec 4.3. The thread is the body itself; errors are `{error: <status>, message}` "
            "(spec 7.4, D-thread-id). A stored thread that breaks the spec is a 500."
        ),
        rules=(*THREAD_PATH_RULES, *RATE_RULES, *RESPONSE_RULES),
        success_status=200,
        success_schema="Thread",
        success_example="responses/thread.json",
        parameters=lambda: _thread_parameters(),
        status_bodies=True,
    ),
)

_STATUS_DESCRIPTIONS: Final = {
    400: "The request is refused: the body, or the Idempotency-Key header (D-statuses).",
    401: "Missing or invalid credentials (spec 5).",
    402: "The organization's billing limit is reached (spec 4.1 rule 4).",
    404: "No such record, or a path that cannot name one (D-path-ids, D-thread-id).",
    429: (
        "Over the rate of the API key for this operation (spec 8, D-rate-limit, D-rate-scope); "
        "for a create with an Idempotency-Key, also while the same request is still running "
        "(D-idempotency-claim)."
    ),
    413: "The body is larger than the service reads; it is refused unread (D-body-reading).",
    415: (
        "The body is not declared `Content-Type: application/json` (with `charset=utf-8` or "
        "no parameter); it is refused unread (D-body-reading)."
    ),
    500: "The server found a broken record or broke its own rules (D-response-violations).",
    503: "The service cannot reach its records now; it is worth sending again (D-fleet).",
}

# D-body-reading: what an operation that takes a body answers, before reading it, to a body it
# will not read (too large, or not declared JSON): the status, and the key of its envelope.
_BODY_REFUSALS: Final = {413: ErrorKey.INVALID_REQUEST, 415: ErrorKey.INVALID_REQUEST}
# D-fleet: what any operation answers while the service cannot reach its records, in the
# operation's error shape.
_UNAVAILABLE: Final = {503: ErrorKey.SERVER_ERROR}
# The statuses answered with `Retry-After`: the rate (D-rate-limit) and the records' absence.
_RETRY_LATER: Final = frozenset({STATUS_OF_KEY[ErrorKey.RATE_LIMITED], *_UNAVAILABLE})


def openapi() -> dict[str, Any]:
    """The OpenAPI 3.1 document of the interface of the spec (a new dict, JSON-ready, each call).

    Three operations under a server URL ending in `/api/v1.0`: `POST /campaigns`,
    `GET /campaigns/{id}/contacts/{contact_id}` and `GET /thread/{id}`, each behind the
    `Authorization: api-key <KEY>` scheme, with every status it can answer and the exact body
    of each. The creation body is the component `CampaignCreate`, the schema of `json_schema()`.
    """
    document = {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "Campaign Outreach Service",
            "version": _API_VERSION,
            "description": (
                "Campaigns, campaign contacts and threads (spec of the Campaign Outreach "
                "Service), generated by campaign_rules.openapi() from the library's rules. "
                "Schemas that accept more than the library, and why: "
                + "; ".join(
                    f"{rule} ({reason})"
                    for rule, reason in {**SCHEMA_EXCEPTIONS, **OPENAPI_EXCEPTIONS}.items()
                )
                + "."
            ),
        },
        "servers": [
            {
                "url": _BASE_PATH,
                "description": "Relative to the service's address; the path ends in the "
                "version (spec 9).",
            }
        ],
        "security": [{_SECURITY_SCHEME: []}],
        "paths": _paths(),
        "components": {
            "securitySchemes": {_SECURITY_SCHEME: _security_scheme()},
            "schemas": _schemas(),
            "headers": {"Retry-After": _retry_after()},
        },
    }
    return copy.deepcopy(document)  # no part shared with another call or within the document


def render_openapi() -> str:
    """The document as the text `campaign-rules openapi` prints and `schema/` holds."""
    return json.dumps(openapi(), indent=2, ensure_ascii=True) + "\n"


def _example(name: str) -> Any:
    """An example body, from the files of `examples/` that the package ships."""
    text = resources.files(__package__).joinpath("examples", name).read_text(encoding="utf-8")
    return json.loads(text)


# The interface: security, parameters, operations.


def _security_scheme() -> dict[str, Any]:
    return {
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
        "description": (
            f"The word `{AUTHORIZATION_SCHEME}`, a space, and the API key: "
            f"`Authorization: {AUTHORIZATION_SCHEME} <API_KEY>` (spec 5). The word is matched "
            "in any ASCII case; the key is one or more visible ASCII characters "
            "(D-authorization). Without valid credentials the answer is 401."
        ),
    }


def _retry_after() -> dict[str, Any]:
    return {
        "description": (
            "Whole seconds to wait before the next request, rounded up (D-rate-limit, D-fleet)."
        ),
        "required": True,
        "schema": {"type": "string", "pattern": "^[1-9][0-9]*$", "not": dict(LINE_BREAK)},
    }


def _idempotency_key() -> dict[str, Any]:
    key = Pattern(f"^{character_class(VISIBLE_ASCII)}+$", IDEMPOTENCY_KEY_MAX_LENGTH, fixed=False)
    return {
        "name": "Idempotency-Key",
        "in": "header",
        "required": False,
        "description": (
            "Optional; a UUID is recommended. A replay of the same request within "
            f"{IDEMPOTENCY_WINDOW_SECONDS // 3600} hours answers the first response again; "
            "the key with another body is a 400 "
            "(spec 4.1 rule 2, D-idempotency-key, D-idempotency)."
        ),
        "schema": {"type": "string", "minLength": 1, **key.keywords()},
    }


def _path_id(name: str, description: str, example: int) -> dict[str, Any]:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": f"{description}: a positive integer without leading zeros (D-path-ids).",
        "schema": {"type": "integer", "minimum": 1, "maximum": PATH_ID_MAX},
        "example": example,
    }


def _thread_id(example: str) -> dict[str, Any]:
    schema = {
        "type": "string",
        "minLength": 1,
        **Pattern(
            f"^{character_class(UNRESERVED)}+$", THREAD_ID_MAX_LENGTH, fixed=False
        ).keywords(),
    }
    schema["not"] = {"anyOf": [schema["not"], {"enum": sorted(DOT_SEGMENTS)}]}
    return {
        "name": "id",
        "in": "path",
        "required": True,
        "description": "The thread's id: URL-safe characters, not `.` or `..` (D-thread-id).",
        "schema": schema,
        "example": example,
    }


def _create_parameters() -> list[dict[str, Any]]:
    return [_idempotency_key()]


def _contact_parameters() -> list[dict[str, Any]]:
    campaign = _example("responses/create_response.json")["campaign"]["id"]
    contact = _example("responses/contact_response.json")["contact"]["id"]
    return [
        _path_id("id", "The campaign's id", campaign),
        _path_id("contact_id", "The contact's id within the campaign", contact),
    ]


def _thread_parameters() -> list[dict[str, Any]]:
    return [_thread_id(_example("responses/thread.json")["id"])]


def _paths() -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for operation in _OPERATIONS:
        item: dict[str, Any] = {
            "operationId": operation.operation_id,
            "summary": operation.summary,
            "description": operation.description,
            "parameters": operation.parameters(),
            "responses": _responses(operation),
        }
        if _takes_body(operation):
            item["requestBody"] = _creation_body()
        paths.setdefault(operation.path, {})[operation.method] = item
    return paths


def _takes_body(operation: _Operation) -> bool:
    return operation.method == "post"


def _creation_body() -> dict[str, Any]:
    names = ("phone_call", "whatsapp", "scheduled_cycles")
    return {
        "required": True,
        "content": {
            _JSON: {
                "schema": _component("CampaignCreate"),
                "examples": {name: {"value": _example(f"{name}.json")} for name in names},
            }
        },
    }


def _keys_by_status(rules: Iterable[Rule[Any]]) -> dict[int, list[str]]:
    """The error keys the rules can give, by the status each answers with (D-statuses)."""
    keys = {rule.key for rule in rules}
    by_status: dict[int, list[str]] = {}
    for key in ErrorKey:  # in the order of spec 7.2
        if key in keys:
            by_status.setdefault(STATUS_OF_KEY[key], []).append(key.value)
    return by_status


def _responses(operation: _Operation) -> dict[str, Any]:
    success = {
        "description": "Success.",
        "content": {
            _JSON: {
                "schema": _component(operation.success_schema),
                "example": _example(operation.success_example),
            }
        },
    }
    responses: dict[str, Any] = {str(operation.success_status): success}
    statuses = {401: None, **_keys_by_status(operation.rules)}
    if _takes_body(operation):
        statuses |= {status: [key.value] for status, key in _BODY_REFUSALS.items()}
    statuses |= {status: [key.value] for status, key in _UNAVAILABLE.items()}
    for status, keys in sorted(statuses.items()):
        if keys is None or operation.status_bodies:
            body = {"allOf": [_component("CredentialsError"), _error_is(status)]}
        else:
            body = {"allOf": [_component("ApiError"), {"properties": {"error": {"enum": keys}}}]}
        response: dict[str, Any] = {
            "description": _STATUS_DESCRIPTIONS[status],
            "content": {_JSON: {"schema": body}},
        }
        if status in _RETRY_LATER:
            response["headers"] = {"Retry-After": {"$ref": "#/components/headers/Retry-After"}}
        responses[str(status)] = response
    return responses


def _error_is(status: int) -> dict[str, Any]:
    return {"properties": {"error": {"const": status}}}


# The schemas: the creation body, and each response body from its reader's shape.


def _schemas() -> dict[str, Any]:
    return {
        "CampaignCreate": _creation_schema(),
        "CreateResponse": _shape_schema(CREATE_RESPONSE, "The 201 body of spec 4.1."),
        "ContactResponse": _shape_schema(CONTACT_RESPONSE, "The body of spec 4.2."),
        "Thread": _shape_schema(THREAD, "The thread of spec 2.6, the body of spec 4.3."),
        "ApiError": {
            **_shape_schema(API_ERROR, "The error envelope of spec 7.1."),
            "examples": [_example("responses/api_error.json")],
        },
        "CredentialsError": {
            **_shape_schema(
                CREDENTIALS_ERROR,
                "`{error: <status>, message}`: the 401 of spec 5 and the thread errors of 7.4.",
            ),
            "examples": [_example("responses/credentials_error.json")],
        },
        "Error": {
            "description": "Any error body, told apart by the type of `error` "
            "(D-response-violations).",
            "anyOf": [_component("ApiError"), _component("CredentialsError")],
        },
    }


def _creation_schema() -> dict[str, Any]:
    """`json_schema()`, its references pointed at its place in the document."""
    schema = json_schema()
    here = "#/components/schemas/CampaignCreate"

    def repoint(node: Any) -> None:
        if isinstance(node, dict):
            reference = node.get("$ref")
            if isinstance(reference, str) and reference.startswith("#/"):
                node["$ref"] = here + reference[1:]
            for value in node.values():
                repoint(value)
        elif isinstance(node, list):
            for value in node:
                repoint(value)

    repoint(schema)
    return schema


def _shape_schema(shape: Shape, description: str) -> dict[str, Any]:
    return {"description": description, "type": "object", **_object(shape)}


def _object(shape: Shape) -> dict[str, Any]:
    """A documented object: open to members the spec does not list (D-tolerant-reading)."""
    return {
        "maxProperties": OBJECT_MAX_MEMBERS,  # D-response-caps
        "required": [name for name, member in shape.items() if member.required],
        "properties": {name: _member(member) for name, member in shape.items()},
    }


def _member(member: Member) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": member.type}
    if member.type == "integer":  # D-json-integers; a format's own minimum comes after
        schema |= {"minimum": JSON_INTEGERS.low, "maximum": JSON_INTEGERS.high}
    if member.format is not None:
        schema.update(_format(member.format))
    if member.members is not None:
        schema.update(_object(member.members))
    if member.items is not None:
        schema.update({"maxItems": RESPONSE_ARRAY_MAX_ITEMS, "items": _member(member.items)})
    if member.map_of_strings:
        schema.update(
            {"maxProperties": RESPONSE_MAP_MAX_MEMBERS, "additionalProperties": {"type": "string"}}
        )
    if member.opaque:
        schema["description"] = "Opaque plain JSON (spec 2.2: its shape is not shown)."
    if member.nullable or not member.required:
        # An optional member sent as null counts as absent (D-tolerant-reading).
        schema = _or_null(schema)
    return schema


def _format(format: Format) -> dict[str, Any]:
    if format.reader is not None:
        return _STRING_FORMATS[format.reader]()
    return dict(format.keywords)


def _or_null(schema: dict[str, Any]) -> dict[str, Any]:
    nullable = {**schema, "type": [schema["type"], "null"]}
    if "const" in nullable:
        nullable["enum"] = [nullable.pop("const")]
    if "enum" in nullable:
        nullable["enum"] = [*nullable["enum"], None]
    return nullable
