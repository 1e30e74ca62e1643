"""The OpenAPI document: the committed file, the command, the validator, and each piece of it.

Whether its response schemas accept what the readers accept is `test_openapi_agreement.py`'s
to check, and whether the reference server keeps to it is the contract test's
(`tests/contract/run.py`). Here each piece is checked against the spec, written out by hand,
and against the library's checks of the same thing.
"""

from __future__ import annotations

import functools
import json
import string
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

import campaign_rules
from campaign_rules import json_schema, validate_create
from campaign_rules._cli import main
from campaign_rules._core.limits import (
    IDEMPOTENCY_KEY_MAX_LENGTH,
    PATH_ID_MAX,
    THREAD_ID_MAX_LENGTH,
)
from campaign_rules._export.openapi import render_openapi
from campaign_rules.idempotency import check_idempotency_key
from campaign_rules.requests import check_contact_path, check_thread_path
from campaign_rules.responses import (
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)
from campaign_rules.schema import openapi

ROOT = Path(__file__).parent.parent
DOCUMENT_FILE = ROOT / "schema" / "openapi.json"
EXAMPLES = ROOT / "examples"

CREATE = ("/campaigns", "post")
CONTACT = ("/campaigns/{id}/contacts/{contact_id}", "get")
THREAD = ("/thread/{id}", "get")


@functools.cache
def document() -> dict[str, Any]:
    return openapi()


def operation(where: tuple[str, str]) -> dict[str, Any]:
    path, method = where
    found: dict[str, Any] = document()["paths"][path][method]
    return found


def validator(schema: dict[str, Any]) -> Draft202012Validator:
    """A validator of `schema`, resolving `$ref`s against the whole document."""
    return Draft202012Validator({**schema, "components": document()["components"]})


def example_file(name: str) -> Any:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


# The document as a whole


def test_the_committed_file_is_the_generated_document() -> None:
    assert DOCUMENT_FILE.read_text(encoding="utf-8") == render_openapi(), (
        "schema/openapi.json is stale: run `python scripts/regenerate.py`"
    )


def test_the_openapi_command_prints_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["openapi"]) == 0
    assert capsys.readouterr().out == DOCUMENT_FILE.read_text(encoding="utf-8")


def test_openapi_spec_validator_accepts_it() -> None:
    validate(openapi())  # raises on any error


def test_the_root_and_the_schema_module_give_it_anew_each_call() -> None:
    first, second = campaign_rules.openapi(), openapi()

    assert first == second
    first["paths"].clear()
    assert openapi() == second


def test_it_is_openapi_3_1_under_the_versioned_base_path() -> None:
    assert document()["openapi"] == "3.1.0"
    assert document()["info"]["version"] == "1.0"  # spec 9
    assert [server["url"] for server in document()["servers"]] == ["/api/v1.0"]
    assert {path: sorted(item) for path, item in document()["paths"].items()} == {
        "/campaigns": ["post"],
        "/campaigns/{id}/contacts/{contact_id}": ["get"],
        "/thread/{id}": ["get"],
    }


def test_every_operation_needs_the_api_key_scheme_of_spec_5() -> None:
    schemes = document()["components"]["securitySchemes"]

    assert document()["security"] == [{"apiKey": []}]
    assert schemes["apiKey"]["type"] == "apiKey"
    assert (schemes["apiKey"]["in"], schemes["apiKey"]["name"]) == ("header", "Authorization")
    assert "`Authorization: api-key <API_KEY>`" in schemes["apiKey"]["description"]
    for where in (CREATE, CONTACT, THREAD):
        assert "security" not in operation(where)  # the document's applies
        assert "401" in operation(where)["responses"]


def test_it_names_the_rules_it_cannot_say() -> None:
    description = document()["info"]["description"]

    for rule in (
        "schedule.window_starts_before_stop",
        "cycles.start_date_not_after_end_date",
        "response.opaque_members_hold_plain_json",
        "error.status_is_an_error_status",
    ):
        assert rule in description


# The creation body


def test_the_creation_body_is_json_schema_as_one_referenced_component() -> None:
    body = operation(CREATE)["requestBody"]
    component = document()["components"]["schemas"]["CampaignCreate"]
    unpointed = json.loads(
        json.dumps(component).replace('"#/components/schemas/CampaignCreate/', '"#/')
    )

    assert body["required"] is True
    assert body["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/CampaignCreate"
    }
    assert unpointed == json_schema()


@pytest.mark.parametrize("name", ["phone_call", "whatsapp", "scheduled_cycles"])
def test_the_request_examples_are_the_example_files_and_valid(name: str) -> None:
    examples = operation(CREATE)["requestBody"]["content"]["application/json"]["examples"]
    value = examples[name]["value"]

    assert value == example_file(f"{name}.json")
    assert validate_create(value).ok
    assert validator({"$ref": "#/components/schemas/CampaignCreate"}).is_valid(value)


# Parameters and headers


def test_the_idempotency_key_header_is_optional_visible_ascii_up_to_its_max_length() -> None:
    [header] = operation(CREATE)["parameters"]
    schema = validator(header["schema"])
    samples = [
        "k",
        "!~",
        "x" * IDEMPOTENCY_KEY_MAX_LENGTH,
        "x" * (IDEMPOTENCY_KEY_MAX_LENGTH + 1),
        "",
        "two words",
        "tab\tkey",
        "é",
        "key\n",
    ]

    assert (header["name"], header["in"], header["required"]) == (
        "Idempotency-Key",
        "header",
        False,
    )
    for value in [*samples, *string.printable]:
        assert schema.is_valid(value) == check_idempotency_key(value).ok, repr(value)


CONTACT_IDS = ["1", "17", str(PATH_ID_MAX), str(PATH_ID_MAX + 1), "0", "007", "-1", "+1", "1.0"]


def test_the_contact_path_ids_are_the_positive_integers_the_path_check_accepts() -> None:
    parameters = {parameter["name"]: parameter for parameter in operation(CONTACT)["parameters"]}

    assert sorted(parameters) == ["contact_id", "id"]
    for name, parameter in parameters.items():
        assert (parameter["in"], parameter["required"]) == ("path", True)
        schema = validator(parameter["schema"])
        for text in CONTACT_IDS:
            accepted = text.isdigit() and schema.is_valid(int(text)) and str(int(text)) == text
            checked = check_contact_path(text, 1) if name == "id" else check_contact_path(1, text)
            assert accepted == checked.ok, (name, text)


THREAD_IDS = [
    "th_5f2a9c",
    "a",
    "A-Z.0_9~",
    "x" * THREAD_ID_MAX_LENGTH,
    "x" * (THREAD_ID_MAX_LENGTH + 1),
    "",
    ".",
    "..",
    "a b",
    "a/b",
]


def test_the_thread_id_is_what_the_path_check_accepts() -> None:
    [parameter] = operation(THREAD)["parameters"]
    schema = validator(parameter["schema"])

    for text in [*THREAD_IDS, *string.printable, "\u00e9", "id\n"]:
        assert schema.is_valid(text) == check_thread_path(text).ok, repr(text)


def test_the_path_examples_name_the_example_responses_records() -> None:
    [campaign, contact] = operation(CONTACT)["parameters"]
    [thread] = operation(THREAD)["parameters"]

    assert campaign["example"] == example_file("responses/create_response.json")["campaign"]["id"]
    assert contact["example"] == example_file("responses/contact_response.json")["contact"]["id"]
    assert thread["example"] == example_file("responses/thread.json")["id"]


# Responses


# Spec 7.3 and D-statuses, written out: the statuses each operation answers, and the error keys
# each status can carry (`None`: the `{error: <status>, message}` body of spec 5 and 7.4).
EXPECTED_ERRORS: dict[tuple[str, str], dict[int, list[str] | None]] = {
    CREATE: {
        400: [
            "INVALID_REQUEST",
            "INVALID_STATUS",
            "INVALID_INTEGRATION_TYPE",
            "INVALID_FILTER_TAG",
            "SCHEDULED_MODE_ONLY",
        ],
        401: None,
        402: ["BILLING_LIMIT_REACHED"],
        404: ["AGENT_NOT_FOUND", "INTEGRATION_NOT_FOUND"],
        413: ["INVALID_REQUEST"],  # D-body-reading: too large to read
        415: ["INVALID_REQUEST"],  # D-body-reading: not declared JSON
        429: ["RATE_LIMITED"],
        500: ["SERVER_ERROR"],
        503: ["SERVER_ERROR"],  # D-fleet: the records cannot be reached now
    },
    CONTACT: {
        401: None,
        404: ["NOT_FOUND", "CONTACT_NOT_FOUND"],
        429: ["RATE_LIMITED"],
        500: ["SERVER_ERROR"],
        503: ["SERVER_ERROR"],
    },
    THREAD: {401: None, 404: None, 429: None, 500: None, 503: None},
}


@pytest.mark.parametrize("where", EXPECTED_ERRORS, ids=lambda where: " ".join(where))
def test_each_error_status_has_its_body_and_keys(where: tuple[str, str]) -> None:
    responses = operation(where)["responses"]
    errors = {int(status): response for status, response in responses.items() if status >= "4"}

    assert sorted(errors) == sorted(EXPECTED_ERRORS[where])
    for status, keys in EXPECTED_ERRORS[where].items():
        [first, narrowing] = errors[status]["content"]["application/json"]["schema"]["allOf"]
        if keys is None:
            assert first == {"$ref": "#/components/schemas/CredentialsError"}
            assert narrowing == {"properties": {"error": {"const": status}}}
        else:
            assert first == {"$ref": "#/components/schemas/ApiError"}
            assert sorted(narrowing["properties"]["error"]["enum"]) == sorted(keys)
        headers = errors[status].get("headers", {})
        assert sorted(headers) == (["Retry-After"] if status in (429, 503) else [])


def test_retry_after_is_whole_seconds() -> None:
    header = document()["components"]["headers"]["Retry-After"]
    schema = validator(header["schema"])

    assert header["required"] is True
    assert [schema.is_valid(text) for text in ["1", "86400", "0", "1.5", "", "1\n"]] == [
        True,
        True,
        False,
        False,
        False,
        False,
    ]


SUCCESS = {
    CREATE: ("201", "CreateResponse", "responses/create_response.json", parse_create_response),
    CONTACT: ("200", "ContactResponse", "responses/contact_response.json", parse_contact_response),
    THREAD: ("200", "Thread", "responses/thread.json", parse_thread),
}


@pytest.mark.parametrize("where", SUCCESS, ids=lambda where: " ".join(where))
def test_the_success_example_is_the_example_file_and_the_reader_accepts_it(
    where: tuple[str, str],
) -> None:
    status, component, name, read = SUCCESS[where]
    content = operation(where)["responses"][status]["content"]["application/json"]

    assert content["schema"] == {"$ref": f"#/components/schemas/{component}"}
    assert content["example"] == example_file(name)
    assert read(content["example"]).ok
    assert validator(content["schema"]).is_valid(content["example"])


@pytest.mark.parametrize(
    ("component", "name", "status"),
    [("ApiError", "api_error.json", 400), ("CredentialsError", "credentials_error.json", 401)],
)
def test_the_error_examples_are_the_example_files_and_the_reader_accepts_them(
    component: str, name: str, status: int
) -> None:
    schema = document()["components"]["schemas"][component]
    [example] = schema["examples"]

    assert example == example_file(f"responses/{name}")
    assert parse_error(status, example).ok
    assert validator({"$ref": f"#/components/schemas/{component}"}).is_valid(example)
