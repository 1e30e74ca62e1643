"""The library as an executor of the protocol: one request in, its answer out.

`answer` judges one request in-process (`campaign-rules diff` calls it for the library it runs
in); `serve` answers a stream of JSON lines, as `campaign-rules conformance serve` does. No
request makes either raise: one that is not the protocol's is answered `unsupported`, with why.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final, cast

from campaign_rules import CampaignStatus, __version__, validate_create_json, validate_update_json
from campaign_rules._conformance.directory import RecordsDirectory, directory_of
from campaign_rules._conformance.lines import LineReader, LineTooLong
from campaign_rules._conformance.protocol import ANSWER_KINDS, DESCRIBE, PROTOCOL, body_bytes
from campaign_rules._core.json import NotJson, decode_json
from campaign_rules._core.limits import BODY_MAX_BYTES
from campaign_rules._core.outcome import Outcome
from campaign_rules._core.pointers import output_pointer
from campaign_rules._core.violations import Violation
from campaign_rules.responses import (
    parse_contact_response,
    parse_create_response,
    parse_error,
    parse_thread,
)
from campaign_rules.schema import ruleset

__all__ = ["LINE_MAX_BYTES", "answer", "describe", "serve"]

# The longest request or answer line read: a body at the size limit as base64 (4/3 of it),
# beside the campaign an update starts from, fits many times over.
LINE_MAX_BYTES: Final = 4 * BODY_MAX_BYTES

_CREATE_KEYS: Final = {"id", "kind", "body", "directory"}
_UPDATE_KEYS: Final = _CREATE_KEYS | {"existing", "status"}
_RESPONSE_KEYS: Final = {"id", "kind", "body", "reader", "http_status"}
_READERS: Final[dict[str, Callable[[object, object], Outcome[Any]]]] = {
    "create_response": lambda body, _: parse_create_response(body),
    "contact_response": lambda body, _: parse_contact_response(body),
    "thread": lambda body, _: parse_thread(body),
    "error": lambda body, status: parse_error(status, body),
}
_STATUSES: Final = frozenset(status.value for status in CampaignStatus)


def describe() -> dict[str, object]:
    """The answer to `describe`: the protocol, this executor, its rule set and case kinds."""
    return {
        "id": DESCRIBE,
        "protocol": PROTOCOL,
        "executor": f"campaign-rules {__version__} (Python)",
        "ruleset": dict(ruleset()),
        "kinds": list(ANSWER_KINDS),
    }


def answer(request: object) -> dict[str, object]:
    """The answer to one request of the protocol (a decoded JSON line); never raises.

    A request that is not the protocol's is answered `{"id", "unsupported": <why>}`, with its
    `id` when it has a string one, else `null`.
    """
    if type(request) is not dict or type(request.get("id")) is not str:
        return _unsupported(None, "a request is an object with a string id")
    case_id: str = request["id"]
    kind = request.get("kind")
    if kind == DESCRIBE and case_id == DESCRIBE:
        return describe()
    if kind not in ANSWER_KINDS:
        return _unsupported(case_id, f"kind must be one of {', '.join(ANSWER_KINDS)}")
    data = body_bytes(request.get("body"))
    if data is None:
        return _unsupported(case_id, 'body must be {"text": <str>} or {"base64": <bytes>}')
    if kind == "response":
        return _judge_response(case_id, request, data)
    expected = _CREATE_KEYS if kind == "create" else _UPDATE_KEYS
    if set(request) != expected:
        return _unsupported(
            case_id, f"a {kind} request holds exactly {', '.join(sorted(expected))}"
        )
    records = request["directory"]
    directory = None if records is None else directory_of(records)
    if isinstance(directory, str):
        return _unsupported(case_id, directory)
    if kind == "create":
        return _answer(case_id, validate_create_json(data, directory=directory))
    return _judge_update(case_id, request, data, directory)


def _judge_update(
    case_id: str, request: dict[str, Any], data: bytes, directory: RecordsDirectory | None
) -> dict[str, object]:
    status = request["status"]
    if status is not None and type(status) is not str:
        return _unsupported(case_id, "status must be null or a string")
    # A text that names no status reaches the library as it is, for its rule to refuse it
    # (`update.status_is_a_campaign_status` judges any value the argument is given).
    current = CampaignStatus(status) if status in _STATUSES else status
    result = validate_update_json(
        request["existing"],
        data,
        status=cast("CampaignStatus | None", current),
        directory=directory,
    )
    return _answer(case_id, result)


def _judge_response(case_id: str, request: dict[str, Any], data: bytes) -> dict[str, object]:
    if set(request) != _RESPONSE_KEYS:
        return _unsupported(case_id, f"a response request holds exactly {sorted(_RESPONSE_KEYS)}")
    reader, http_status = request["reader"], request["http_status"]
    if type(reader) is not str or reader not in _READERS:
        return _unsupported(case_id, f"reader must be one of {', '.join(_READERS)}")
    if http_status is not None and type(http_status) is not int:
        return _unsupported(case_id, "http_status must be null or an integer")
    try:
        body = decode_json(data.decode("utf-8"))
    except (UnicodeDecodeError, NotJson) as error:
        return _unsupported(case_id, f"a response body must be JSON text: {error}")
    return _answer(case_id, _READERS[reader](body, http_status))


def _answer(case_id: str, result: Outcome[Any]) -> dict[str, object]:
    return {
        "id": case_id,
        "ok": result.ok,
        "status": None if result.ok else result.status,
        "violations": [_violation(violation) for violation in result.violations],
        "envelope": result.envelope(),
    }


def _violation(violation: Violation) -> dict[str, object]:
    return {
        "rule": violation.rule,
        "key": violation.key.value,
        "field": violation.field,
        "pointer": output_pointer(violation.pointer),  # as every output writes it (D-shown-text)
        "line": violation.line,
        "column": violation.column,
        "message": violation.message,
    }


def _unsupported(case_id: str | None, reason: str) -> dict[str, object]:
    return {"id": case_id, "unsupported": reason}


def serve(reader: LineReader, write: Callable[[bytes], None]) -> None:
    """Answer every line `reader` gives, one line each, in order, until it ends.

    A line that is no JSON, or longer than the reader keeps, is answered `unsupported` too:
    the executor never stops on a request, only at the end of its input.
    """
    while True:
        try:
            line = reader.next_line()
        except LineTooLong:
            reply = _unsupported(None, "a request line is longer than an executor reads")
        else:
            if line is None:
                return
            reply = _reply(line)
        write(json.dumps(reply, ensure_ascii=True, allow_nan=False).encode("ascii") + b"\n")


def _reply(line: bytes) -> dict[str, object]:
    try:
        request: object = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError) as error:  # not UTF-8, not JSON, or nested too deep
        return _unsupported(None, f"a request is one JSON object on a line: {error}")
    return answer(request)
