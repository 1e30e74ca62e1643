"""`conformance run DIR --http URL`: the kit's HTTP cases against a live server.

Each case's steps run in order, each request on a connection of its own, and each answer is
compared strictly with the one the case expects (`http_compare`). Requests are paced inside the
server's rate budget as the reference SDK paces them (D-sdk-pacing: a burst one short of the
server's, a period 0.1 % longer), per API key and operation; a step marked unpaced is sent back
to back once the budget is full again. A 429 a paced step did not expect is sent again after its
`Retry-After`, at most twice, as the SDK does. The exit status is 0 when every case passes (or
fails as listed), 1 when one fails, 2 when the kit cannot be read or the server not reached.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import sys
import time
import uuid
from collections.abc import Mapping, MutableMapping
from contextlib import suppress
from pathlib import Path
from typing import Final, TextIO
from urllib.parse import urlsplit

import attrs

from campaign_rules._conformance.compare import Difference
from campaign_rules._conformance.http_compare import Received, compare
from campaign_rules._conformance.http_format import (
    HTTP_KIND,
    MANIFEST,
    CaseFormatError,
    HttpCase,
    Request,
    Step,
    read_case,
)
from campaign_rules._core.limits import BODY_MAX_BYTES, NS_PER_SECOND
from campaign_rules.rate import (
    RATE_LIMIT_BURST,
    RATE_LIMIT_PERIOD_NS,
    RATE_LIMIT_REQUESTS,
    RateLimiter,
)

__all__ = [
    "EXIT_FAILED",
    "EXIT_PASSED",
    "EXIT_UNUSABLE",
    "CaseResult",
    "HttpOptions",
    "StepFailure",
    "Unreachable",
    "load_cases",
    "run_case",
    "run_http",
]

EXIT_PASSED: Final = 0
EXIT_FAILED: Final = 1
EXIT_UNUSABLE: Final = 2  # the kit cannot be read, or the server cannot be reached

# D-sdk-pacing: one request of burst and 0.1 % of rate inside the server's budget.
_PACE_BURST: Final = RATE_LIMIT_BURST - 1
_PACE_PERIOD_NS: Final = RATE_LIMIT_PERIOD_NS * 1001 // 1000
_RATE_LIMITED: Final = 429
_RETRIES_OF_429: Final = 2
_RETRY_AFTER_MAX_SECONDS: Final = 60
_VARIABLE: Final = re.compile(r"\{\{([a-z][a-z0-9_]*)\}\}")


@attrs.frozen
class HttpOptions:
    """How the HTTP cases run: messages compared or not, the cases expected to fail, timeout."""

    strict_messages: bool = False
    expected_failures: frozenset[str] = frozenset()
    timeout: float = 10.0


@attrs.frozen
class StepFailure:
    """A step whose answer differs: which step and answer, the request, the differences."""

    step: int
    answer: int
    request: str
    differences: tuple[Difference, ...]

    def to_json(self) -> dict[str, object]:
        """The failure as JSON data: want and got for each difference."""
        return {
            "step": self.step,
            "answer": self.answer,
            "request": self.request,
            "differences": [difference.to_json() for difference in self.differences],
        }


@attrs.frozen
class CaseResult:
    """A case's run: its failures (none when it passed) and how many requests it sent."""

    id: str
    failures: tuple[StepFailure, ...]
    requests: int

    @property
    def passed(self) -> bool:
        """Whether every answer was the one expected."""
        return not self.failures


class Unreachable(Exception):
    """The server could not be reached, or did not answer in time; the message says which."""


def run_http(
    kit_dir: str | Path,
    url: object,
    options: object = None,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Run every HTTP case of the kit in `kit_dir` against the server at `url`; the exit status.

    `url` is the server's base URL (`http://127.0.0.1:8000/api/v1.0`). `options` is an
    `HttpOptions`, or any object or mapping with some of its names (`strict_messages`,
    `expected_failures`: case ids or the path of a file listing them, `timeout`);
    `None` is the defaults. Each failure is printed with its differences, and a count line last.
    """
    out, err = out or sys.stdout, err or sys.stderr
    try:
        settings = _options(options)
        cases = load_cases(Path(kit_dir))
    except (CaseFormatError, OSError, ValueError, TypeError) as error:
        print(f"conformance: the HTTP cases cannot be read: {error}", file=err)
        return EXIT_UNUSABLE
    try:
        _Target.of(url)
    except Unreachable as error:
        print(f"conformance: {error}", file=err)
        return EXIT_UNUSABLE
    results: list[CaseResult] = []
    for case in cases:
        try:
            result = run_case(case, url, settings)
        except (Unreachable, CaseFormatError) as error:
            print(f"conformance: {case.id}: {error}", file=err)
            _print_count(results, len(cases), settings, out)
            return EXIT_UNUSABLE
        results.append(result)
        _print_result(result, settings, out)
    return _print_count(results, len(cases), settings, out)


def load_cases(kit_dir: Path) -> list[HttpCase]:
    """The kit's HTTP cases, in the order of its manifest's files and lines.

    `CaseFormatError` when the manifest, a file it lists as `http`, or a case cannot be read.
    """
    manifest = _read_json(kit_dir / MANIFEST)
    files = manifest.get("files") if type(manifest) is dict else None
    if type(files) is not list:
        raise CaseFormatError(f"{kit_dir / MANIFEST} lists no files")
    paths = [
        entry["path"]
        for entry in files
        if type(entry) is dict and entry.get("kind") == HTTP_KIND and type(entry.get("path")) is str
    ]
    cases = []
    for path in paths:
        for number, line in enumerate((kit_dir / path).read_bytes().splitlines(), start=1):
            try:
                cases.append(read_case(json.loads(line)))
            except (CaseFormatError, ValueError, RecursionError) as error:
                raise CaseFormatError(f"{kit_dir / path}:{number}: {error}") from None
    if not cases:
        raise CaseFormatError(f"{kit_dir / MANIFEST} lists no HTTP case")
    return cases


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_bytes())
    except (ValueError, RecursionError) as error:
        raise CaseFormatError(f"{path}: {error}") from None


def run_case(case: HttpCase, url: object, options: HttpOptions) -> CaseResult:
    """Run one case's steps in order, until the first step whose answer differs."""
    target = _Target.of(url)
    variables: dict[str, object] = {name: str(uuid.uuid4()) for name in case.fresh}
    sent = 0
    for number, step in enumerate(case.steps, start=1):
        failure, count = _run_step(number, step, target, variables, options)
        sent += count
        if failure is not None:
            return CaseResult(case.id, (failure,), sent)
    return CaseResult(case.id, (), sent)


def _run_step(
    number: int,
    step: Step,
    target: _Target,
    variables: MutableMapping[str, object],
    options: HttpOptions,
) -> tuple[StepFailure | None, int]:
    """The step's failure (or `None`) and how many requests it sent."""
    request = step.request
    try:
        filled = _Filled.of(request, variables)
    except KeyError as error:
        why = Difference("request", f"the variable {error} captured", "not captured")
        return StepFailure(number, 1, f"{request.method} {request.path}", (why,)), 0
    repeat = step.repeat
    at_least, at_most = (1, 1) if repeat is None else (repeat.at_least, repeat.at_most)
    until = None if repeat is None else repeat.until
    if not step.paced:
        _PACER.wait_until_full(filled.bucket)
    for answer in range(1, at_most + 1):
        received = _exchange(target, filled, step, options)
        if until is not None and received.status == until.status:
            differences = compare(
                until, received, variables, strict_messages=options.strict_messages
            )
            if answer - 1 < at_least:
                want = f"at least {at_least} answers before a {until.status}"
                differences.insert(0, Difference("answers", want, answer - 1))
            return _failure(number, answer, filled, differences), answer
        differences = compare(
            step.expect, received, variables, strict_messages=options.strict_messages
        )
        if differences:
            return _failure(number, answer, filled, differences), answer
    if until is not None:
        want = f"a {until.status} within {at_most} answers"
        missing = Difference("answers", want, f"none in {at_most}")
        return _failure(number, at_most, filled, [missing]), at_most
    return None, at_most


def _failure(
    number: int, answer: int, filled: _Filled, differences: list[Difference]
) -> StepFailure | None:
    if not differences:
        return None
    return StepFailure(number, answer, filled.shown, tuple(differences))


def _exchange(target: _Target, filled: _Filled, step: Step, options: HttpOptions) -> Received:
    """Send the request, paced unless the step says not; a 429 it did not expect, again."""
    for attempt in range(_RETRIES_OF_429 + 1):
        if step.paced:
            _PACER.pace(filled.bucket)
        received = target.send(filled, options.timeout)
        _PACER.answered(filled.bucket, received, paced=step.paced)
        if not _retried(received, step, attempt):
            return received
    return received


def _retried(received: Received, step: Step, attempt: int) -> bool:
    """Whether a 429 is sent again: a paced step's, unexpected, with a wait worth waiting."""
    if received.status != _RATE_LIMITED or not step.paced or attempt >= _RETRIES_OF_429:
        return False
    until = None if step.repeat is None else step.repeat.until
    if _RATE_LIMITED in (step.expect.status, None if until is None else until.status):
        return False
    return _retry_after_seconds(received) <= _RETRY_AFTER_MAX_SECONDS


@attrs.frozen
class _Filled:
    """A request with its variables filled: what is sent, and whose budget it spends."""

    method: str
    path: str
    headers: tuple[tuple[str, str], ...]
    body: bytes | None
    bucket: str

    @property
    def shown(self) -> str:
        return f"{self.method} {self.path}"

    @classmethod
    def of(cls, request: Request, variables: Mapping[str, object]) -> _Filled:
        """`request` filled; `KeyError` naming a variable that has no value."""
        headers = tuple((name, _fill(value, variables)) for name, value in request.headers)
        body = request.raw
        if request.text is not None:
            body = _fill(request.text, variables).encode("utf-8")
        if request.pad_to is not None and body is not None and len(body) < request.pad_to:
            body += b" " * (request.pad_to - len(body))
        credentials = [value for name, value in headers if name.lower() == "authorization"]
        bucket = json.dumps([request.operation, credentials])
        return cls(request.method, _fill(request.path, variables), headers, body, bucket)


def _fill(text: str, variables: Mapping[str, object]) -> str:
    return _VARIABLE.sub(lambda match: str(variables[match.group(1)]), text)


@attrs.frozen
class _Target:
    """Where the server is: scheme, host, port and the base path the case paths follow."""

    secure: bool
    host: str
    port: int | None
    base_path: str

    @classmethod
    def of(cls, url: object) -> _Target:
        """The target of `url`; `Unreachable` when it is not an http(s) URL."""
        if type(url) is not str:
            raise Unreachable(f"the server's URL must be text, not {type(url).__name__}")
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as error:
            raise Unreachable(f"{url!r} is not a URL ({error})") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise Unreachable(f"{url!r} is not an http:// or https:// URL")
        return cls(parts.scheme == "https", parts.hostname, port, parts.path.rstrip("/"))

    def send(self, request: _Filled, timeout: float) -> Received:
        """Send `request` on a connection of its own; `Unreachable` when no answer comes."""
        kind = http.client.HTTPSConnection if self.secure else http.client.HTTPConnection
        connection = kind(self.host, self.port, timeout=timeout)
        try:
            connection.putrequest(
                request.method, self.base_path + request.path, skip_accept_encoding=True
            )
            for name, value in request.headers:
                connection.putheader(name, value)
            declared = any(name.lower() == "content-length" for name, _ in request.headers)
            if request.body is not None and not declared:
                connection.putheader("Content-Length", str(len(request.body)))
            # The server may answer before it reads the whole body (a 413): read that answer.
            with suppress(BrokenPipeError, ConnectionResetError):
                connection.endheaders(request.body)
            response = connection.getresponse()
            # Read no more of an answer than the library reads of a body (D-body-limits).
            body = response.read(BODY_MAX_BYTES + 1)
            return Received(response.status, tuple(response.getheaders()), body)
        except ValueError as error:  # a method, path or header that HTTP cannot carry
            raise CaseFormatError(f"{request.shown} cannot be sent ({error})") from None
        except (OSError, http.client.HTTPException) as error:
            where = f"{self.host}:{self.port}" if self.port else self.host
            unreachable = isinstance(error, (ConnectionRefusedError, socket.gaierror))
            what = "cannot be reached" if unreachable else "gave no usable answer"
            raise Unreachable(
                f"the server at {where} {what} ({request.shown}: {error!r})"
            ) from None
        finally:
            connection.close()


class _Pacer:
    """Each (operation, credentials) paced inside the server's budget (D-sdk-pacing)."""

    def __init__(self) -> None:
        self._limiters: dict[str, RateLimiter] = {}
        self._answered_at: dict[str, int] = {}
        self._idle_at: dict[str, int] = {}

    def pace(self, bucket: str) -> None:
        """Wait until a request of `bucket` fits the pace."""
        _sleep_until(self._idle_at.get(bucket, 0))
        limiter = self._limiters.setdefault(
            bucket,
            RateLimiter(requests=RATE_LIMIT_REQUESTS, period_ns=_PACE_PERIOD_NS, burst=_PACE_BURST),
        )
        while True:
            decision = limiter.acquire(bucket, time.monotonic_ns())
            if decision.ok:
                return
            time.sleep(decision.retry_after)

    def wait_until_full(self, bucket: str) -> None:
        """Wait until the server's budget of `bucket` is whole again: one period after its use.

        A budget this run has not used may have been used just before by another: one period.
        """
        last = self._answered_at.get(bucket, time.monotonic_ns())
        _sleep_until(max(last + _PACE_PERIOD_NS, self._idle_at.get(bucket, 0)))

    def answered(self, bucket: str, received: Received, *, paced: bool) -> None:
        """Note an answer; after a burst or a 429 the pace starts again once the budget is full."""
        now = time.monotonic_ns()
        self._answered_at[bucket] = now
        if not paced or received.status == _RATE_LIMITED:
            wait = max(_PACE_PERIOD_NS, _retry_after_seconds(received) * NS_PER_SECOND)
            self._idle_at[bucket] = now + wait
            self._limiters.pop(bucket, None)


_PACER: Final = _Pacer()  # one pace per process: budgets are the server's, per key


def _sleep_until(moment_ns: int) -> None:
    wait = moment_ns - time.monotonic_ns()
    if wait > 0:
        time.sleep(wait / NS_PER_SECOND)


def _retry_after_seconds(received: Received) -> int:
    """`Retry-After` in whole seconds, at most the longest wait waited for (then one more).

    1 (the spec's second) when it is missing or not a number of seconds.
    """
    longest = _RETRY_AFTER_MAX_SECONDS + 1
    for name, value in received.headers:
        if name.lower() == "retry-after" and value.isascii() and value.isdigit():
            digits = value.lstrip("0") or "0"
            return longest if len(digits) > len(str(longest)) else min(int(digits), longest)
    return 1


def _options(options: object) -> HttpOptions:
    """`options` read as `HttpOptions`: from itself, a mapping, or an object's attributes."""
    if isinstance(options, HttpOptions):
        return options
    if options is None:
        return HttpOptions()
    names = ("strict_messages", "expected_failures", "timeout")
    if isinstance(options, Mapping):
        given = {name: options[name] for name in names if options.get(name) is not None}
    else:
        given = {
            name: getattr(options, name)
            for name in names
            if getattr(options, name, None) is not None
        }
    failures = given.get("expected_failures", frozenset())
    if isinstance(failures, str | Path):
        failures = _listed_ids(Path(failures))
    return HttpOptions(
        strict_messages=bool(given.get("strict_messages", False)),
        expected_failures=frozenset(str(name) for name in failures),
        timeout=float(given.get("timeout", 10.0)),
    )


def _listed_ids(path: Path) -> frozenset[str]:
    """The case ids of an expected-failures file: the first word of each line; `#` comments."""
    ids = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        words = line.partition("#")[0].split()
        if words:
            ids.add(words[0])
    return frozenset(ids)


def _print_result(result: CaseResult, options: HttpOptions, out: TextIO) -> None:
    """Show a case that failed, or that passed though listed as an expected failure."""
    listed = result.id in options.expected_failures
    if result.passed and listed:
        print(f"PASSED {result.id}\n  listed as an expected failure, but it passes", file=out)
    if result.passed or listed:
        return
    print(f"FAILED {result.id}", file=out)
    for failure in result.failures:
        print(f"  step {failure.step}, answer {failure.answer}: {failure.request}", file=out)
        for difference in failure.differences:
            print(f"  {difference}", file=out)


def _print_count(results: list[CaseResult], total: int, options: HttpOptions, out: TextIO) -> int:
    """Print the count line; the exit status it says."""
    listed = options.expected_failures
    passed = sum(result.passed and result.id not in listed for result in results)
    failed = sum(not result.passed and result.id not in listed for result in results)
    expected = sum(not result.passed and result.id in listed for result in results)
    unexpected_passes = sum(result.passed and result.id in listed for result in results)
    parts = [f"{passed} passed", f"{failed} failed"]
    if expected:
        parts.append(f"{expected} failed as expected")
    if unexpected_passes:
        parts.append(f"{unexpected_passes} listed as expected failures passed")
    if len(results) < total:
        parts.append(f"{total - len(results)} not run")
    requests = _counted(sum(result.requests for result in results), "request")
    print(f"{_counted(total, 'HTTP case')}: {', '.join(parts)} ({requests})", file=out)
    if len(results) < total:
        return EXIT_UNUSABLE
    return EXIT_FAILED if failed or unexpected_passes else EXIT_PASSED


def _counted(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
