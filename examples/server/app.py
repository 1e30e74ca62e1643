"""The reference server: the three operations of the spec, every decision made by the library.

Run it from the repository's root on a database made by `seed.py`
(docs/guides/reference-server.md)::

    .venv/bin/python -m examples.server.seed demo.db
    CAMPAIGN_SERVER_DB=demo.db .venv/bin/uvicorn --factory examples.server.app:create_app

Settings, from the environment when uvicorn calls `create_app()` without arguments:

- `CAMPAIGN_SERVER_DB`: the SQLite file (required), made by `seed.py`, or a `postgresql://` URL
  of a database `seed.py` made (docs/guides/fleet.md).
- `CAMPAIGN_SERVER_REDIS`: a `redis://` URL: the rate limits' state is kept there, shared by
  every worker and instance (D-rate-shared, D-fleet); unset, each worker limits alone.
- `CAMPAIGN_SERVER_RATE_PER_SECOND`: the requests per second (and burst) each API key has per
  operation; the spec's 12 when unset. The contract test raises it, so that Schemathesis tests
  the operations rather than the limiter (docs/decisions.md, D-contract-test).
- `CAMPAIGN_SERVER_FROZEN_CLOCK_NS`: for tests only. The rate limiters read this fixed time
  instead of `time.monotonic_ns()`, so each API key has exactly its burst of 12 requests per
  operation for the life of the process, and the 13th is refused however fast the machine is.

A setting that is missing or wrong, or a database that does not exist or was not made by
`seed.py`, stops the start with one line on standard error, `campaign server: ...`, and exit
status 2 (a setting) or 1 (the database), never a traceback or a server that answers 500.

The endpoints are coroutines that call SQLite directly: each call takes a millisecond or so on
a local file. A busier service would move the database work to a thread pool (the limiters
then need a lock, as `RateLimiter` says) or run several worker processes and instances, over
PostgreSQL and Redis (docs/guides/fleet.md); the create below is safe across processes.

Each endpoint reads top-down in the order a request is decided: credentials (the key's form,
then whether it was issued), rate, then the operation's own checks. Where the server answers
from its own records (an unknown API key, a campaign it does not have) it still lets the
library's result types write the body, so every status and every error body has one author.
What Starlette itself refuses (a path of no operation, a method the path does not allow) and
an exception in an endpoint are answered in the same shapes (D-server-errors). A create body is
read as bytes, only when declared JSON (else 415) and no longer than the library reads (else
413), and judged by `validate_create_json`, so no body is answered with a 5xx (D-body-reading).
"""

from __future__ import annotations

import datetime
import itertools
import json
import logging
import os
import secrets
import shlex
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack, closing, contextmanager, suppress
from pathlib import Path
from typing import Any, NoReturn, Protocol, TypeVar

import psycopg
from examples.server import postgres, shared_rate, store
from redis import Redis
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from campaign_rules import CreateResult, ErrorKey, Violation, to_wire, validate_create_json
from campaign_rules.idempotency import (
    FingerprintResult,
    IdempotencyAction,
    IdempotencyClaim,
    IdempotencyRecord,
    check_idempotency_key,
    decide_idempotency,
    is_storable_status,
    request_fingerprint,
)
from campaign_rules.lifecycle import INITIAL_STATUS
from campaign_rules.rate import RateLimiter, RateResult
from campaign_rules.requests import (
    BODY_MAX_BYTES,
    AuthorizationResult,
    ContactPathResult,
    ThreadPathResult,
    check_contact_path,
    check_thread_path,
    parse_authorization,
)
from campaign_rules.responses import CampaignDetail, parse_contact_response, parse_thread
from campaign_rules.schema import openapi

BASE_PATH = "/api/v1.0"
_LOG = logging.getLogger("uvicorn.error")  # where uvicorn logs its own errors
T = TypeVar("T")
_UNKNOWN_KEY = "the API key is not known"
# What is answered 503, with `Retry-After: 1`, rather than 500: a database that cannot be reached
# (D-fleet), and SQLite that stayed busy past its timeout (`store.is_busy`, D-write-lock).
_UNREACHABLE = (store.Unavailable, psycopg.OperationalError)
_UNREACHABLE_CAUSE = "the database cannot be reached now"
_BUSY_CAUSE = "the database is busy now"


class _ClaimLost(Exception):
    """Another request took this request's claim of its Idempotency-Key over (D-fleet)."""


class _Limit(Protocol):
    """What an operation's rate limit answers: `RateLimiter`, or `shared_rate.SharedLimiter`."""

    def acquire(self, key: str, now_ns: int) -> RateResult: ...


class CampaignService:
    """The endpoints, over one SQLite file, with one rate limiter per operation (D-rate-scope)."""

    def __init__(
        self,
        database: str | Path,
        clock: Callable[[], int] = time.monotonic_ns,
        rate_per_second: int | None = None,
        redis_url: str | None = None,
    ):
        """Serve `database`; `clock` gives the limiters' time in integer nanoseconds.

        `rate_per_second` sets each operation's rate and burst per API key; `None` keeps the
        spec's 12 (spec 8, D-rate-limit). With `redis_url`, the limits' state is in that Redis,
        on its clock, and `clock` only times the worker's own limiter when Redis is gone.
        """
        self.database = database
        self.clock = clock
        redis = None if redis_url is None else shared_rate.connect(redis_url)
        self.create_limit = _limit("create", rate_per_second, redis)
        self.contact_limit = _limit("contact", rate_per_second, redis)
        self.thread_limit = _limit("thread", rate_per_second, redis)

    # POST /campaigns (spec 4.1)

    async def create_campaign(self, request: Request) -> Response:
        """Create a campaign: 201 with its detail, or the error of spec 7.3."""
        admitted = self._admit(request, self.create_limit)
        if isinstance(admitted, Response):
            return admitted
        api_key, organization = admitted

        key = check_idempotency_key(request.headers.get("Idempotency-Key"))
        if not key.ok:
            return _reply(key.status, key.envelope())
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        fingerprint = None
        if key.value is not None:
            fingerprinted = _fingerprint(body)
            if not fingerprinted.ok:
                return _reply(fingerprinted.status, fingerprinted.envelope())
            fingerprint = fingerprinted.value

        if key.value is None or fingerprint is None:
            with self._transaction_begun_on_use() as transaction:
                status, answer = self._create(transaction, organization, body)
                # Encoded before the transaction commits: an answer that cannot be sent rolls
                # the campaign back (D-body-reading).
                return _reply(status, answer)
        return self._create_once(api_key, key.value, fingerprint, organization, body)

    def _create_once(
        self,
        api_key: str,
        idempotency_key: str,
        fingerprint: str,
        organization: store.Organization,
        body: bytes,
    ) -> Response:
        """Create under an `Idempotency-Key`: claim it, then create and store in one transaction.

        The claim is committed first, so that every instance sees the key taken while this
        request runs (D-idempotency-claim). The campaign's insert and the stored response are
        one transaction, which commits only if the claim is still this request's: so a campaign
        exists once per key, whichever instance runs it and whatever process dies (D-fleet).
        """
        claimed = self._claim(api_key, idempotency_key, fingerprint)
        if isinstance(claimed, Response):
            return claimed
        try:
            with self._transaction_begun_on_use() as transaction:
                status, answer = self._create(transaction, organization, body)
                # Encoded before anything is stored or committed: an answer that cannot be sent
                # rolls the campaign back, and no 5xx is ever stored under the key
                # (D-body-reading).
                response = _reply(status, answer)
                connection = transaction()
                if is_storable_status(status):
                    record = IdempotencyRecord(fingerprint, status, answer, store.clock(connection))
                    kept = store.finish_claim(connection, api_key, idempotency_key, claimed, record)
                else:  # a 400: nothing ran, and the fixed body may come with the same key
                    kept = store.release_claim(connection, api_key, idempotency_key, claimed)
                if not kept:
                    raise _ClaimLost
        except _ClaimLost:
            # This request outlived its claim and another took it over: that one's campaign is
            # the key's, this one's was rolled back; the answer is the library's for a claim.
            now = time.time()
            lost = decide_idempotency(IdempotencyClaim(fingerprint, now), fingerprint, now)
            return _reply(lost.status, lost.envelope(), lost.headers())
        except Exception:
            # Nothing was committed: free the key at once rather than after the claim's time.
            with suppress(Exception), self._transaction() as connection:
                store.release_claim(connection, api_key, idempotency_key, claimed)
            raise
        return response

    def _claim(self, api_key: str, idempotency_key: str, fingerprint: str) -> str | Response:
        """The request's claim token for the key, or the answer the key's record or claim gets.

        The library decides over what the key holds (D-idempotency, D-idempotency-claim):
        replay, reject, 429 while the same request runs, or take over what expired.
        """
        token = secrets.token_hex(16)
        with self._transaction() as connection:
            now = store.clock(connection)
            claim = IdempotencyClaim(fingerprint, now)
            if store.claim_key(connection, api_key, idempotency_key, claim, token):
                return token
            stored = store.idempotency_entry(connection, api_key, idempotency_key)
            decision = decide_idempotency(stored, fingerprint, now)
            if decision.action is IdempotencyAction.REPLAY and decision.value is not None:
                return _reply(decision.status, decision.value.body)
            if decision.action is IdempotencyAction.REJECT:
                return _reply(decision.status, decision.envelope(), decision.headers())
            store.take_claim(connection, api_key, idempotency_key, claim, token)
        return token

    def _create(
        self,
        transaction: Callable[[], store.Connection],
        organization: store.Organization,
        body: bytes,
    ) -> tuple[int, Any]:
        """The status and body of a create, the campaign inserted through `transaction`.

        The library runs the body's and the offline rules before its first look-up, so they
        run before `transaction` begins and hold no lock: only the look-ups and the insert run
        inside it (D-write-lock).
        """
        directory = store.OrganizationDirectory(transaction, organization)
        result = validate_create_json(body, directory=directory)
        if not result.ok:
            return result.status, result.envelope()
        campaign = result.value
        created_at = datetime.datetime.now(datetime.UTC).replace(microsecond=0)
        agent_name = directory.agent_name(campaign.agent_id)
        campaign_id = store.insert_campaign(
            transaction(),
            organization,
            status=INITIAL_STATUS.value,
            created_at=created_at.isoformat(),
            agent_name=agent_name,
            campaign=to_wire(campaign),
        )
        detail = CampaignDetail.from_create(
            campaign,
            id=campaign_id,
            status=INITIAL_STATUS,
            created_at=created_at,
            agent_name=agent_name,
        )
        return result.status, {"success": True, "campaign": to_wire(detail)}

    # GET /campaigns/{id}/contacts/{contact_id} (spec 4.2)

    async def get_contact(self, request: Request) -> Response:
        """One contact of one of the organization's campaigns."""
        admitted = self._admit(request, self.contact_limit)
        if isinstance(admitted, Response):
            return admitted
        _, organization = admitted

        path = check_contact_path(request.path_params["id"], request.path_params["contact_id"])
        if not path.ok or path.value is None:
            return _reply(path.status, path.envelope())
        with closing(store.connect(self.database)) as connection:
            has_campaign, members = store.contact_members(
                connection, organization, path.value.campaign_id, path.value.contact_id
            )
        if not has_campaign:
            return _answer(_not_found(ErrorKey.NOT_FOUND, "id", "campaign"))
        if members is None:
            return _answer(_not_found(ErrorKey.CONTACT_NOT_FOUND, "contact_id", "contact"))
        # The stored row goes out through the library's reader, so a bad row is a 500 here and
        # never a response that breaks the spec (D-response-violations).
        contact = parse_contact_response({"success": True, "contact": members})
        if not contact.ok or contact.value is None:
            return _reply(contact.status, contact.envelope())
        return _reply(200, {"success": True, "contact": to_wire(contact.value)})

    # GET /thread/{id} (spec 4.3): errors are `{error: <status>, message}` (D-thread-id)

    async def get_thread(self, request: Request) -> Response:
        """One of the organization's threads, as the body itself."""
        admitted = self._admit(request, self.thread_limit, thread_shaped=True)
        if isinstance(admitted, Response):
            return admitted
        _, organization = admitted

        path = check_thread_path(request.path_params["id"])
        if not path.ok or path.value is None:
            return _reply(path.status, path.envelope())
        with closing(store.connect(self.database)) as connection:
            members = store.thread_members(connection, organization, path.value)
        if members is None:
            missing = _not_found(ErrorKey.NOT_FOUND, "id", "thread").violations
            return _answer(ThreadPathResult(value=None, violations=missing))
        thread = parse_thread(members)
        if not thread.ok or thread.value is None:
            return _answer(ThreadPathResult(value=None, violations=thread.violations))
        return _reply(200, to_wire(thread.value))

    # What every operation decides first: who is asking, and whether they may ask now.

    def _admit(
        self, request: Request, limit: _Limit, *, thread_shaped: bool = False
    ) -> tuple[str, store.Organization] | Response:
        """The API key and its organization, or the 401 or 429 response (spec 5, 8).

        The key is checked before the rate (D-credentials-first): a key nobody issued is a 401
        however often it comes, and only an issued key spends its operation's budget. The
        limiter reads `self.clock` here, once the request has arrived (D-sdk-pacing).
        """
        auth = parse_authorization(request.headers.get("Authorization"))
        if not auth.ok or auth.value is None:
            return _reply(auth.status, auth.body())
        with closing(store.connect(self.database)) as connection:
            organization = store.organization_of(connection, auth.value)
        if organization is None:
            unknown = AuthorizationResult(value=None, message=_UNKNOWN_KEY)
            return _reply(unknown.status, unknown.body())
        rate = limit.acquire(auth.value, self.clock())
        if not rate.ok:
            body = rate.thread_body() if thread_shaped else rate.envelope()
            return _reply(rate.status, body, rate.headers())
        return auth.value, organization

    @contextmanager
    def _transaction_begun_on_use(self) -> Iterator[Callable[[], store.Connection]]:
        """A function that gives one write transaction's connection, begun at its first call.

        The transaction is committed when the block ends, rolled back on an exception; a block
        that never calls the function opens no connection at all (D-write-lock).
        """
        with ExitStack() as stack:
            begun: list[store.Connection] = []

            def transaction() -> store.Connection:
                if not begun:
                    begun.append(stack.enter_context(self._transaction()))
                return begun[0]

            yield transaction

    @contextmanager
    def _transaction(self) -> Iterator[store.Connection]:
        with closing(store.connect(self.database)) as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")


def _limiter(rate_per_second: int | None) -> RateLimiter:
    if rate_per_second is None:
        return RateLimiter()
    return RateLimiter(requests=rate_per_second, burst=rate_per_second)


def _limit(operation: str, rate_per_second: int | None, redis: Redis | None) -> _Limit:
    """One operation's limit: in Redis when there is one, else the worker's own (D-rate-scope)."""
    local = _limiter(rate_per_second)
    if redis is None:
        return local
    return shared_rate.SharedLimiter(redis, operation, local, requests=rate_per_second)


# Reading a request body (D-body-reading): the media type it must be declared as. The most the
# server reads of it is the library's `BODY_MAX_BYTES` (D-body-limits), so that a body is either
# refused unread (413) or read whole and judged by the library (`validate_create_json`), which
# refuses every text that is not I-JSON as a violation (400).
_MEDIA_TYPE = "application/json"
_CHARSET = "utf-8"
_OWS = " \t"  # RFC 9110 section 5.6.3: optional white space
_NOT_DECLARED_JSON = (
    f"the body must be declared Content-Type: {_MEDIA_TYPE} (with charset={_CHARSET} or no "
    "parameter)"
)
_TOO_LARGE = f"the body must be at most {BODY_MAX_BYTES:,} bytes"


async def _json_body(request: Request) -> bytes | Response:
    """The request body, or the 415 or 413 envelope that refuses it unread (D-body-reading)."""
    if not _declared_json(request.headers.getlist("Content-Type")):
        return _refusal(415, "Content-Type", _NOT_DECLARED_JSON, "server.body_is_declared_json")
    body = await _bounded_body(request, BODY_MAX_BYTES)
    if body is None:
        return _refusal(413, None, _TOO_LARGE, "server.body_within_size")
    return body


def _declared_json(content_types: list[str]) -> bool:
    """Whether the one `Content-Type` header says `application/json`, in UTF-8 if it says.

    The media type and the parameter's name and value in any case (RFC 9110 section 8.3.1), the
    value quoted or not, white space around each part; two headers are refused, since a proxy
    in front may read the other one.
    """
    if len(content_types) != 1:
        return False
    media_type, *parameters = content_types[0].split(";")
    if media_type.strip(_OWS).lower() != _MEDIA_TYPE:
        return False
    for parameter in parameters:
        name, equals, value = parameter.strip(_OWS).partition("=")
        if (name or equals) and (name.lower(), _unquoted(value).lower()) != ("charset", _CHARSET):
            return False
    return True


def _unquoted(value: str) -> str:
    """A parameter's value without the quotes of a quoted string (RFC 9110 section 5.6.4)."""
    quoted = len(value) >= 2 and value[0] == value[-1] == '"'
    return value[1:-1] if quoted else value


async def _bounded_body(request: Request, limit: int) -> bytes | None:
    """The body, read from the ASGI stream; `None` as soon as it is longer than `limit` bytes.

    A declared `Content-Length` over the limit is refused before any byte is read, and no more
    than `limit` bytes and the chunk being received are ever held.
    """
    declared = request.headers.get("Content-Length", "")
    if declared.isascii() and declared.isdigit() and _exceeds(declared, limit):
        return None
    body = bytearray()
    async for chunk in request.stream():
        if len(body) + len(chunk) > limit:
            return None
        body += chunk
    return bytes(body)


def _exceeds(digits: str, limit: int) -> bool:
    """Whether the decimal `digits` name a number over `limit` (without converting a huge one)."""
    digits = digits.lstrip("0")
    return len(digits) > len(str(limit)) or int(digits or "0") > limit


def _fingerprint(body: bytes) -> FingerprintResult | CreateResult:
    """The fingerprint of a create request with `body`, or the refusal of a body with none.

    The fingerprint is of the JSON data (D-fingerprint), so the body is decoded for it. A body
    with none (not JSON, NaN, a number past a double) is refused as `validate_create_json`
    refuses it, with its place, as it is without a key.
    """
    try:
        decoded = json.loads(body)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested past the stack
        decoded = NotImplemented  # no JSON data: `request_fingerprint` refuses it
    fingerprinted = request_fingerprint(decoded, method="POST", path="/campaigns")
    if fingerprinted.ok:
        return fingerprinted
    refused = validate_create_json(body)
    return fingerprinted if refused.ok else refused


def _refusal(status: int, field: str | None, message: str, rule: str) -> Response:
    """A refusal of the request's body as such, in the envelope of spec 7.1 (D-body-reading)."""
    violation = Violation(ErrorKey.INVALID_REQUEST, field, message, rule)
    return _reply(status, CreateResult(value=None, violations=(violation,)).envelope())


def _not_found(key: ErrorKey, field: str, what: str) -> ContactPathResult:
    """A look-up in the server's records found nothing: the library gives status and body."""
    violation = Violation(key, field, f"no {what} has this id", f"server.{what}_exists")
    return ContactPathResult(value=None, violations=(violation,))


def _answer(refusal: ContactPathResult | ThreadPathResult) -> Response:
    return _reply(refusal.status, refusal.envelope())


def _reply(status: int, body: Any, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse(body, status_code=status, headers=headers)


def create_app(
    database: str | Path | None = None,
    *,
    frozen_clock_ns: int | None = None,
    rate_per_second: int | None = None,
    redis_url: str | None = None,
) -> Starlette:
    """The ASGI application; without arguments, its settings come from the environment.

    A missing or wrong setting, and a database `seed.py` did not make, end the process with one
    line on standard error (`SystemExit`, status 2 or 1) before anything is served.
    """
    if database is None:
        database = _setting("CAMPAIGN_SERVER_DB", str, required=True)
    if frozen_clock_ns is None:
        frozen_clock_ns = _setting("CAMPAIGN_SERVER_FROZEN_CLOCK_NS", _integer(minimum=0))
    if rate_per_second is None:
        rate_per_second = _setting("CAMPAIGN_SERVER_RATE_PER_SECOND", _integer(minimum=1))
    if redis_url is None:
        redis_url = _setting("CAMPAIGN_SERVER_REDIS", _redis_url)
    if postgres.is_url(database):
        _check_postgresql(str(database))
    else:
        _check_database(database)
    clock = time.monotonic_ns if frozen_clock_ns is None else (lambda: frozen_clock_ns)
    service = CampaignService(database, clock, rate_per_second, redis_url)
    document = openapi()  # one document for the life of the process

    async def interface(_: Request) -> Response:
        return JSONResponse(document)

    # A path parameter is whatever the path holds there, even empty or with a line break: the
    # library's path checks judge it, so a malformed id is its 404, never the router's.
    routes = [
        # The interface as OpenAPI 3.1, from the library; no credentials needed (D-openapi).
        Route(f"{BASE_PATH}/openapi.json", interface, methods=["GET"]),
        Route(f"{BASE_PATH}/campaigns", service.create_campaign, methods=["POST"]),
        Route(
            f"{BASE_PATH}/campaigns/{{id:anything}}/contacts/{{contact_id:anything}}",
            service.get_contact,
            methods=["GET"],
        ),
        Route(f"{BASE_PATH}/thread/{{id:anything}}", service.get_thread, methods=["GET"]),
    ]

    async def failed(request: Request, error: Exception) -> Response:
        """An exception in an endpoint: a 500 in the operation's error shape (D-server-errors).

        A database that cannot be reached (D-fleet), or SQLite's that stayed busy (D-write-lock),
        is a 503 in the same shape, `Retry-After: 1`.
        """
        thread = request.scope.get("endpoint") == service.get_thread
        unavailable = _unavailable_because(error)
        if unavailable is not None:
            return _unavailable(unavailable, thread_shaped=thread)
        violation = Violation(
            ErrorKey.SERVER_ERROR, None, "the server failed to answer", "server.no_exception"
        )
        if thread:
            return _answer(ThreadPathResult(value=None, violations=(violation,)))
        return _answer(ContactPathResult(value=None, violations=(violation,)))

    return Starlette(
        routes=routes,
        middleware=[Middleware(_Failures, answer=failed)],
        exception_handlers={HTTPException: _refused},
    )


class _Failures:
    """Answer an exception of an endpoint with `answer`'s response, and log it.

    Starlette's own 500 handler re-raises, after which uvicorn closes the connection, so a
    client's next request on it would fail; here the exception ends with the response.
    """

    def __init__(
        self, app: ASGIApp, answer: Callable[[Request, Exception], Awaitable[Response]]
    ) -> None:
        self.app, self.answer = app, answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except ClientDisconnect:
            # The client closed the connection before its body was whole: nothing failed, and
            # there is no one to answer (D-client-gone).
            _LOG.info(
                "the client%s left before sending the whole body of %s %s; nothing answered",
                _address(scope.get("client")),
                scope["method"],
                scope["path"],
            )
        except Exception as error:
            if started or scope["type"] != "http":
                raise
            unavailable = _unavailable_because(error)
            if unavailable is not None:
                _LOG.warning("%s (%s); answered 503", unavailable, store.one_line(error))
            else:
                _LOG.exception("the endpoint failed; answered 500")
            response = await self.answer(Request(scope), error)
            await response(scope, receive, send)


def _address(client: tuple[str, int] | None) -> str:
    """`" HOST:PORT"`, or nothing for a connection reset before uvicorn read its address."""
    return "" if client is None else f" {client[0]}:{client[1]}"


def _unavailable_because(error: Exception) -> str | None:
    """Why `error` is a 503, or `None` when it is a server error (a 500).

    Only a database that cannot be reached (D-fleet) and SQLite's busy and locked errors
    (D-write-lock) are worth sending again; a schema, disk or any other error is not.
    """
    if isinstance(error, _UNREACHABLE):
        return _UNREACHABLE_CAUSE
    if store.is_busy(error):
        return _BUSY_CAUSE
    return None


def _unavailable(cause: str, *, thread_shaped: bool) -> Response:
    """503, `Retry-After: 1`, for `cause` (D-fleet, D-write-lock, D-server-errors)."""
    message = f"{cause}: retry after 1 second"
    violation = Violation(ErrorKey.SERVER_ERROR, None, message, "server.database_available")
    envelope = ContactPathResult(value=None, violations=(violation,)).envelope()
    body = {"error": 503, "message": message} if thread_shaped else envelope
    return _reply(503, body, {"Retry-After": "1"})


class _Anything(Convertor[str]):
    """Any text of a path, slashes and line breaks included (Starlette's `path` stops at those)."""

    regex = "[\\s\\S]*"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("anything", _Anything())


async def _refused(request: Request, error: Exception) -> Response:
    """What the router or Starlette refuses: the envelope of spec 7.1, never plain text.

    A path that no operation has is the library's 404 envelope; a method the path does not
    allow is a 405 envelope of `INVALID_REQUEST` with Starlette's `Allow` header; any other
    refusal keeps its status, with `SERVER_ERROR` for a 5xx (D-server-errors).
    """
    status = error.status_code if isinstance(error, HTTPException) else 500
    headers = dict(getattr(error, "headers", None) or {})
    if status == 404:
        violation = Violation(
            ErrorKey.NOT_FOUND, None, "no operation has this path", "server.route"
        )
        return _answer(ContactPathResult(value=None, violations=(violation,)))
    if status == 405:
        # Starlette joins a set of methods, in an order that changes from process to process.
        allowed = ", ".join(sorted(headers.get("Allow", "").split(", ")))
        headers["Allow"] = allowed
        message = f"{request.method} is not allowed on this path; it allows {allowed}"
        key = ErrorKey.INVALID_REQUEST
    else:
        message = str(getattr(error, "detail", "the request was refused"))
        key = ErrorKey.SERVER_ERROR if status >= 500 else ErrorKey.INVALID_REQUEST
    violation = Violation(key, None, message, "server.http")
    envelope = ContactPathResult(value=None, violations=(violation,)).envelope()
    return _reply(status, envelope, headers)


# Start-up: settings and the database, each refused with one line and an exit status.

_SETTING_STATUS = 2  # a usage error, as argparse exits
_DATABASE_STATUS = 1
_FRESH_NAME = "campaigns"  # the file a hint suggests when the one named cannot be seeded


def _stop(message: str, status: int) -> NoReturn:
    print(f"campaign server: {message}", file=sys.stderr)
    raise SystemExit(status)


def _integer(*, minimum: int) -> Callable[[str], int]:
    """A reader of a decimal integer setting of at least `minimum`."""

    def read(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or int(text) < minimum:
            raise ValueError(f"must be a whole number of at least {minimum}, not {text!r}")
        return int(text)

    return read


def _setting(name: str, read: Callable[[str], T], *, required: bool = False) -> T | None:
    """The environment variable `name`, read; `None` when unset and not required."""
    text = os.environ.get(name, "")
    if not text:
        if required:
            _stop(f"{name} is not set: it names the SQLite file of the server", _SETTING_STATUS)
        return None
    try:
        return read(text)
    except ValueError as error:
        _stop(f"{name} {error}", _SETTING_STATUS)


def _redis_url(text: str) -> str:
    """A Redis URL, as redis-py reads it (`redis://`, `rediss://` or `unix://`)."""
    if not text.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"must be a redis:// URL, not {text!r}")
    return text


def _check_postgresql(url: str) -> None:
    """Stop unless `url` is a PostgreSQL database with the server's tables (made by `seed.py`)."""
    try:
        with closing(store.connect(url)) as connection:
            tables = store.table_names(connection)
    except (store.Unavailable, psycopg.Error) as error:
        _stop(f"the database {url!r} cannot be used ({store.one_line(error)})", _DATABASE_STATUS)
    missing = sorted(store.TABLES - tables)
    if missing:
        python = shlex.quote(os.path.relpath(sys.executable))
        hint = f"make them with: {python} -m examples.server.seed {shlex.quote(url)}"
        _stop(f"the database {url!r} lacks the table(s) {', '.join(missing)}; {hint}", 1)


def _check_database(database: str | Path) -> None:
    """Stop unless `database` is an SQLite file with the server's tables (made by `seed.py`)."""
    path = Path(database)
    if not path.is_file():
        _stop_on(path, "does not exist")
    try:
        tables = _tables_of(path)
    except sqlite3.DatabaseError as error:  # not an SQLite file, unreadable, locked
        _stop_on(path, f"cannot be read ({error})")
    missing = sorted(store.TABLES - tables)
    if missing:
        _stop_on(path, f"lacks the table(s) {', '.join(missing)}")


def _stop_on(database: Path, problem: str) -> NoReturn:
    """Stop with what is wrong with the database and a command that makes a usable one."""
    _stop(f"the database {str(database)!r} {problem}; {_seed_hint(database)}", _DATABASE_STATUS)


def _seed_hint(database: Path) -> str:
    """A command that makes a database the server starts on, as it runs from here.

    It seeds `database` itself where `seed.py` can (a new file, its folder made first when
    missing, or an SQLite file without tables); a file that holds something else is left alone,
    and the hint names a new file beside it instead (D-server-errors; a test runs the command).
    """
    python = os.path.relpath(sys.executable)
    if python.startswith(os.pardir):
        python = sys.executable
    seed = f"{shlex.quote(python)} -m examples.server.seed"
    if not database.exists() and not database.parent.is_dir():
        return f"make one with: mkdir -p {_quoted(database.parent)} && {seed} {_quoted(database)}"
    if _seedable(database):
        return f"make one with: {seed} {_quoted(database)}"
    fresh = database.parent / f"{_FRESH_NAME}.db"
    for number in itertools.count(2):
        if not fresh.exists():
            break
        fresh = database.parent / f"{_FRESH_NAME}-{number}.db"
    return (
        f"make a new one with: {seed} {_quoted(fresh)}"
        f" and start with CAMPAIGN_SERVER_DB={_quoted(fresh)}"
    )


def _seedable(database: Path) -> bool:
    """Whether `seed.py` can make the server's database in this file (a new or empty one)."""
    if not database.exists():
        return True
    if not database.is_file():
        return False
    try:
        return not _tables_of(database)
    except sqlite3.DatabaseError:
        return False


def _tables_of(database: Path) -> frozenset[str]:
    """The tables of an existing SQLite file, opened read-only: looking never changes the file.

    `sqlite3.DatabaseError` when it is no SQLite file, cannot be read or is locked.
    """
    uri = f"{database.resolve().as_uri()}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True)) as connection:
        return store.table_names(connection)


def _quoted(path: Path) -> str:
    return shlex.quote(str(path))
