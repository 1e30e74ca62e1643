"""The reference server reads each request body as bytes, through the library (issue 29).

Over HTTP, on the real server: a body not declared JSON is a 415 envelope, one past the size
limit a 413 envelope, refused before it is read to its end; every other body is what
`validate_create_json` says of its bytes; no body, however hostile, is answered with a 5xx, and
no 5xx is ever stored under an `Idempotency-Key` (D-body-reading).
"""

from __future__ import annotations

import codecs
import json
import socket
import sqlite3
import time
import uuid
from collections.abc import Iterable, Iterator
from contextlib import closing
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from examples.server import seed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from campaign_rules import validate_create_json
from campaign_rules.requests import BODY_MAX_BYTES
from campaign_rules.responses import ApiError, parse_error
from campaign_rules.schema import openapi
from tests.e2e.support import Server, seeded_server

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
VALID = (ROOT / "examples" / "phone_call.json").read_bytes()
# High enough that no request of these tests meets a 429 (tests/contract/run.py does the same).
RATE_PER_SECOND = "100000"


@pytest.fixture(scope="module")
def roomy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of this module's own, whose rate no test here can spend."""
    settings = {"CAMPAIGN_SERVER_RATE_PER_SECOND": RATE_PER_SECOND}
    with seeded_server(tmp_path_factory.mktemp("bodies"), settings) as started:
        yield started


def post(
    http: httpx.Client,
    server: Server,
    content: bytes,
    *,
    content_type: str | None = "application/json",
    idempotency_key: str | None = None,
) -> httpx.Response:
    headers = {"Authorization": f"api-key {seed.ACME_KEY}"}
    if content_type is not None:
        headers["Content-Type"] = content_type
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key
    return http.post(f"{server.base_url}/campaigns", content=content, headers=headers)


def named(name: str) -> bytes:
    """The phone example with a unique name, so a test finds its own campaign."""
    body = json.loads(VALID)
    body["name"] = name
    return json.dumps(body).encode()


def envelope(response: httpx.Response) -> ApiError:
    assert response.headers["content-type"] == "application/json"
    error = parse_error(response.status_code, response.json()).value
    assert isinstance(error, ApiError), response.text
    return error


def stored_campaigns(server: Server, name: str) -> int:
    rows = server.query("SELECT campaign FROM campaigns")
    return sum(json.loads(str(campaign))["name"] == name for (campaign,) in rows)


# The media type (D-body-reading)


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "APPLICATION/JSON",
        "Application/Json",
        "application/json; charset=utf-8",
        "application/json;charset=UTF-8",
        'application/json; charset="utf-8"',
        "application/json ; charset=utf-8",
        "application/json;",
    ],
)
def test_a_body_declared_json_in_utf_8_is_read(
    roomy: Server, http: httpx.Client, content_type: str
) -> None:
    name = f"declared {uuid.uuid4()}"
    response = post(http, roomy, named(name), content_type=content_type)

    assert response.status_code == 201, response.text
    assert stored_campaigns(roomy, name) == 1


@pytest.mark.parametrize(
    "content_type",
    [
        None,
        "",
        "text/plain",
        "application/x-www-form-urlencoded",  # what curl -d sends unless told otherwise
        "text/json",
        "application/jsonl",
        "application/problem+json",
        "application/json-patch+json",
        "application/json; charset=latin-1",
        "application/json; charset=utf-16",
        "application/json; charset=utf8",
        "application/json; profile=campaign",
        "application/json, text/plain",
        "application/json; charset",
    ],
)
def test_a_body_not_declared_json_is_a_415_envelope_and_not_read(
    roomy: Server, http: httpx.Client, content_type: str | None
) -> None:
    name = f"undeclared {uuid.uuid4()}"
    response = post(http, roomy, named(name), content_type=content_type)

    assert response.status_code == 415
    error = envelope(response)
    assert (error.error.value, error.field) == ("INVALID_REQUEST", "Content-Type")
    assert stored_campaigns(roomy, name) == 0


def test_two_content_type_headers_are_a_415(roomy: Server, http: httpx.Client) -> None:
    # A proxy in front may read either one: the server reads neither.
    headers = [
        ("Authorization", f"api-key {seed.ACME_KEY}"),
        ("Content-Type", "application/json"),
        ("Content-Type", "application/json"),
    ]
    response = http.post(f"{roomy.base_url}/campaigns", content=VALID, headers=headers)

    assert response.status_code == 415
    assert envelope(response).field == "Content-Type"


# The size limit (D-body-reading, D-body-limits)


def test_a_body_of_the_limit_is_read_and_one_byte_more_is_a_413(
    roomy: Server, http: httpx.Client
) -> None:
    name = f"limit {uuid.uuid4()}"
    body = named(name)
    at_limit = body + b" " * (BODY_MAX_BYTES - len(body))

    read = post(http, roomy, at_limit)
    refused = post(http, roomy, at_limit + b" ")

    assert len(at_limit) == BODY_MAX_BYTES
    assert read.status_code == 201, read.text
    assert refused.status_code == 413
    error = envelope(refused)
    assert (error.error.value, error.field) == ("INVALID_REQUEST", None)
    assert stored_campaigns(roomy, name) == 1


def exchange(server: Server, head: list[str], parts: Iterable[bytes]) -> tuple[int, bytes]:
    """Send a request's head and then `parts` on a socket of its own, and read the answer.

    The request need not be complete: the answer is read whenever it comes (for at most 10 s).
    """
    address = urlsplit(server.base_url)
    assert address.hostname is not None
    with socket.create_connection((address.hostname, address.port or 80), timeout=10) as sock:
        sock.sendall("".join(line + "\r\n" for line in [*head, ""]).encode("latin-1"))
        for part in parts:
            sock.sendall(part)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = sock.recv(65536)
            assert chunk, f"the server closed the connection without answering: {received!r}"
            received += chunk
        header_text, _, body = received.partition(b"\r\n\r\n")
        status_line, *header_lines = header_text.decode("latin-1").split("\r\n")
        length = next(
            int(value)
            for name, _, value in (line.partition(":") for line in header_lines)
            if name.lower() == "content-length"
        )
        while len(body) < length:
            chunk = sock.recv(65536)
            assert chunk
            body += chunk
    return int(status_line.split()[1]), body


def request_head(server: Server, *extra: str) -> list[str]:
    address = urlsplit(server.base_url)
    return [
        f"POST {address.path}/campaigns HTTP/1.1",
        f"Host: {address.netloc}",
        f"Authorization: api-key {seed.ACME_KEY}",
        "Content-Type: application/json",
        *extra,
    ]


@pytest.mark.parametrize("declared", [BODY_MAX_BYTES + 1, 2**40])
def test_a_declared_length_past_the_limit_is_a_413_before_any_byte_is_sent(
    roomy: Server, declared: int
) -> None:
    status, body = exchange(roomy, request_head(roomy, f"Content-Length: {declared}"), [])

    assert status == 413
    assert json.loads(body)["error"] == "INVALID_REQUEST"


def test_a_chunked_body_past_the_limit_is_a_413_before_its_end(roomy: Server) -> None:
    # The chunks hold one byte more than the limit, and the body never ends (no last chunk):
    # the server can only answer by refusing it as soon as it holds too much.
    chunk = b" " * 65536
    count = BODY_MAX_BYTES // len(chunk) + 1
    parts = [b"%x\r\n%s\r\n" % (len(chunk), chunk)] * count

    status, body = exchange(roomy, request_head(roomy, "Transfer-Encoding: chunked"), parts)

    assert status == 413
    assert json.loads(body)["error"] == "INVALID_REQUEST"


def test_the_413_and_415_bodies_are_those_the_openapi_document_lists(
    roomy: Server, http: httpx.Client
) -> None:
    document = openapi()
    answers = {
        413: post(http, roomy, b" " * (BODY_MAX_BYTES + 1)),
        415: post(http, roomy, VALID, content_type="text/plain"),
    }
    for status, response in answers.items():
        listed = document["paths"]["/campaigns"]["post"]["responses"][str(status)]
        schema = listed["content"]["application/json"]["schema"]
        validator = Draft202012Validator({**schema, "components": document["components"]})

        assert response.status_code == status
        assert list(validator.iter_errors(response.json())) == []


# What the library reads (validate_create_json)


@pytest.mark.parametrize(
    "content",
    [
        b'{"name": ',
        b"",
        codecs.BOM_UTF8 + VALID,
        VALID.decode("utf-8").encode("utf-16"),
        VALID.replace(b'"retries": 2', b'"retries": 2, "retries": 9'),
        VALID.replace(b'"mode": "cooldown"', b'"mode": "cooldown", "mode": "scheduled"'),
        VALID.replace("Renovación".encode(), b"\\ud800"),
        VALID.replace("Renovación".encode(), b"\xed\xa0\x80"),
        VALID.replace(b'"retries": 2', b'"retries": 1e400'),
        VALID.replace(b'"retries": 2', b'"retries": NaN'),
    ],
    ids=[
        "truncated",
        "empty",
        "byte order mark",
        "UTF-16",
        "duplicate member",
        "duplicate member at depth",
        "escaped lone surrogate",
        "encoded lone surrogate",
        "number past a double",
        "NaN",
    ],
)
def test_a_body_the_library_refuses_is_its_400_and_creates_nothing(
    roomy: Server, http: httpx.Client, content: bytes
) -> None:
    before = roomy.query("SELECT count(*) FROM campaigns")
    expected = validate_create_json(content)

    response = post(http, roomy, content, idempotency_key=str(uuid.uuid4()))

    assert not expected.ok
    assert response.status_code == expected.status == 400
    assert response.json() == expected.envelope()
    assert roomy.query("SELECT count(*) FROM campaigns") == before


# Never a 5xx for a body, and never a 5xx stored under a key


def _spliced(text: bytes, at: str, insert: bytes) -> bytes:
    return text.replace(at.encode(), at.encode() + insert, 1)


hostile_bodies = st.one_of(
    st.binary(max_size=4096),
    st.integers(0, len(VALID) - 1).map(lambda end: VALID[:end]),
    st.sampled_from(["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32"]).map(
        lambda codec: VALID.decode("utf-8").encode(codec)
    ),
    st.sampled_from([b"\\ud800", b"\\udfff x", b"\\udc00\\ud800", b"\xed\xa0\x80", b"\xff"]).map(
        lambda junk: _spliced(VALID, '"name": "', junk)
    ),
    st.integers(1, 100_000).flatmap(
        lambda depth: st.sampled_from(
            [b"[" * depth + b"]" * depth, b'{"a":' * depth + b"1" + b"}" * depth, b"[" * depth]
        )
    ),
    st.integers(1, 6).map(
        lambda depth: b'{"cycles": ' + b'{"a": ' * depth + b'{"x": 1, "x": 2}' + b"}" * depth + b"}"
    ),
    st.sampled_from([b"1e400", b"-1e400", b"NaN", b"-Infinity", b"1" * 5000, b"1e-400"]).map(
        lambda number: VALID.replace(b'"retries": 2', b'"retries": ' + number)
    ),
    st.just(b" " * (BODY_MAX_BYTES + 1)),
    st.just(b"[" + b"1," * (BODY_MAX_BYTES // 2) + b"1]"),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(content=hostile_bodies, with_key=st.booleans())
def test_no_body_is_answered_with_a_5xx(
    roomy: Server, http: httpx.Client, content: bytes, with_key: bool
) -> None:
    key = str(uuid.uuid4()) if with_key else None

    response = post(http, roomy, content, idempotency_key=key)

    assert response.status_code < 500, response.text
    assert response.status_code in {201, 400, 413}
    if response.status_code != 201:
        envelope(response)
    assert roomy.query("SELECT count(*) FROM idempotency_records WHERE status >= 500") == [(0,)]


def test_no_truncation_of_a_valid_body_is_answered_with_a_5xx(
    roomy: Server, http: httpx.Client
) -> None:
    body = VALID.rstrip()  # a truncation of its final line break alone is the valid body
    statuses = {post(http, roomy, body[:end]).status_code for end in range(len(body))}

    assert statuses == {400}


def test_a_5xx_is_never_stored_under_an_idempotency_key(
    breakable: Server, http: httpx.Client
) -> None:
    key, name = str(uuid.uuid4()), f"after a failure {uuid.uuid4()}"
    schema = (ROOT / "examples" / "server" / "schema.sql").read_text(encoding="utf-8")
    campaigns_table = next(part for part in schema.split(";") if "CREATE TABLE campaigns" in part)
    breakable.execute("DROP TABLE campaigns")  # another part of the service broke the table

    failed = post(http, breakable, named(name), idempotency_key=key)
    breakable.execute(campaigns_table)  # and mended it
    retried = post(http, breakable, named(name), idempotency_key=key)

    assert failed.status_code == 500
    assert retried.status_code == 201, retried.text  # run again, not the 500 replayed
    assert stored_campaigns(breakable, name) == 1
    with closing(sqlite3.connect(breakable.database)) as connection:
        statuses = connection.execute("SELECT status FROM idempotency_records").fetchall()
    assert statuses == [(201,)]


# A client that leaves mid-body (issue 36, D-client-gone)

ABANDONED = [
    ("Content-Length: 4096", b'{"name": "half a bo'),
    ("Content-Length: 4096", b""),
    ("Transfer-Encoding: chunked", b'13\r\n{"name": "half a bo\r\n'),
]
LEFT = "left before sending the whole body of POST /api/v1.0/campaigns; nothing answered"


def test_a_client_that_leaves_mid_body_is_logged_once_as_gone_not_as_a_500(
    tmp_path: Path,
) -> None:
    with seeded_server(tmp_path, log_level="info") as server:
        for framing, part in ABANDONED:
            key = str(uuid.uuid4())
            head = request_head(server, framing, f"Idempotency-Key: {key}")
            leave_mid_body(server, head, part)
        log = tmp_path / "server.log"
        wait_until_logged(log, LEFT, len(ABANDONED))
        with httpx.Client(timeout=10.0) as http:
            after = post(http, server, VALID, idempotency_key=str(uuid.uuid4()))
        assert after.status_code == 201, after.text
        records = server.query("SELECT count(*) FROM idempotency_records")

    assert records == [(1,)]  # the abandoned requests claimed no key
    lines = log.read_text(encoding="utf-8").splitlines()
    left = [line for line in lines if LEFT in line]
    assert len(left) == len(ABANDONED)
    assert all(line.startswith("INFO:") for line in left)
    assert not [line for line in lines if line.startswith("ERROR:") or "Traceback" in line]
    assert not [line for line in lines if "answered 500" in line]


def leave_mid_body(server: Server, head: list[str], part: bytes) -> None:
    """Send a request's head and `part` of its body, then close the connection."""
    address = urlsplit(server.base_url)
    assert address.hostname is not None
    with socket.create_connection((address.hostname, address.port or 80), timeout=10) as sock:
        sock.sendall("".join(line + "\r\n" for line in [*head, ""]).encode("latin-1") + part)


def wait_until_logged(log: Path, text: str, count: int) -> None:
    """Wait until `log` holds `count` lines with `text` (at most 20 s)."""
    deadline = time.monotonic() + 20
    while log.read_text(encoding="utf-8").count(text) < count:
        assert time.monotonic() < deadline, log.read_text(encoding="utf-8")
        time.sleep(0.05)
