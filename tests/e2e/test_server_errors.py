"""Every error of the reference server in the interface's shapes, over HTTP (issue 20).

What Starlette refuses itself (a method the path does not allow, a path of no operation) and an
exception in an endpoint are answered in the envelope of spec 7.1, or the thread body of spec
7.4 for the thread operation (D-server-errors), never in plain text.
"""

from __future__ import annotations

import httpx
import pytest
from examples.server import seed

from campaign_rules.responses import ApiError, CredentialsError, parse_error
from tests.e2e.support import Server

pytestmark = pytest.mark.e2e

CONTACT = f"/campaigns/{seed.CAMPAIGN_ID}/contacts/{seed.CONTACT_ID}"
THREAD = f"/thread/{seed.THREAD_ID}"
WRONG_METHODS = [
    ("GET", "/campaigns", "POST"),
    ("PUT", "/campaigns", "POST"),
    ("DELETE", "/campaigns", "POST"),
    ("POST", CONTACT, "GET, HEAD"),
    ("PATCH", CONTACT, "GET, HEAD"),
    ("POST", THREAD, "GET, HEAD"),
    ("DELETE", THREAD, "GET, HEAD"),
    ("POST", "/openapi.json", "GET, HEAD"),
]


def envelope_of(response: httpx.Response) -> ApiError:
    """The response read as the envelope of spec 7.1, after checking it is JSON."""
    assert response.headers["content-type"] == "application/json"
    assert set(response.json()) == {"success", "error", "message"}
    error = parse_error(response.status_code, response.json()).value
    assert isinstance(error, ApiError), response.text
    return error


@pytest.mark.parametrize(("method", "path", "allowed"), WRONG_METHODS)
@pytest.mark.parametrize("credentials", [True, False], ids=["with a key", "without"])
def test_a_method_the_path_does_not_allow_is_a_405_envelope_with_allow(
    server: Server, http: httpx.Client, method: str, path: str, allowed: str, credentials: bool
) -> None:
    headers = {"Authorization": f"api-key {server.new_key()}"} if credentials else {}
    response = http.request(method, server.base_url + path, headers=headers)

    assert response.status_code == 405
    assert response.headers["Allow"] == allowed
    error = envelope_of(response)
    assert error.error.value == "INVALID_REQUEST"
    assert error.message == f"{method} is not allowed on this path; it allows {allowed}"


@pytest.mark.parametrize(
    "path", ["", "/", "/campaign", "/campaigns/1042", "/threads/th_5f2a9c", "/openapi.yaml"]
)
@pytest.mark.parametrize("method", ["GET", "POST", "DELETE"])
def test_a_path_of_no_operation_is_a_404_envelope(
    server: Server, http: httpx.Client, method: str, path: str
) -> None:
    response = http.request(method, server.base_url + path)

    assert response.status_code == 404
    assert "Allow" not in response.headers
    assert envelope_of(response).error.value == "NOT_FOUND"


def test_a_path_outside_the_base_address_is_a_404_envelope(
    server: Server, http: httpx.Client
) -> None:
    response = http.get(server.base_url.removesuffix("/api/v1.0") + "/index.html")

    assert response.status_code == 404
    assert envelope_of(response).error.value == "NOT_FOUND"


def test_an_exception_in_an_endpoint_is_a_500_in_the_operations_shape(
    breakable: Server, http: httpx.Client
) -> None:
    headers = {"Authorization": f"api-key {seed.ACME_KEY}"}
    body = {"name": "x", "agent_id": seed.ACME_AGENT, "integration_id": seed.PHONE_INTEGRATION}
    body["integration_type"] = "phone_call"
    # Another part of the service broke the tables: the endpoints meet sqlite3 errors.
    for table in ("contacts", "threads", "campaigns"):
        breakable.execute(f"DROP TABLE {table}")

    contact = http.get(breakable.base_url + CONTACT, headers=headers)
    thread = http.get(breakable.base_url + THREAD, headers=headers)
    create = http.post(breakable.base_url + "/campaigns", json=body, headers=headers)

    assert (contact.status_code, thread.status_code, create.status_code) == (500, 500, 500)
    for response in (contact, create):
        error = envelope_of(response)
        assert (error.error.value, error.message) == ("SERVER_ERROR", "the server failed to answer")
    assert thread.headers["content-type"] == "application/json"
    assert thread.json() == {"error": 500, "message": "the server failed to answer"}
    assert isinstance(parse_error(500, thread.json()).value, CredentialsError)
    # The server goes on answering what it can.
    assert http.get(f"{breakable.base_url}/openapi.json").status_code == 200
