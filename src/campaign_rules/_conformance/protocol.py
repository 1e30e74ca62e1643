"""The executor protocol, version 1: what a request and an answer hold, and a body's two forms.

A request's body is the bytes a server received: `{"text": ...}` when they are UTF-8 (their
text, which a JSON line carries as it is), else `{"base64": ...}`, so that byte order marks,
UTF-16, invalid UTF-8 and the bytes of a lone surrogate travel unchanged (docs/conformance.md).
"""

from __future__ import annotations

import base64
import binascii
from typing import Final

__all__ = [
    "ANSWER_KINDS",
    "DESCRIBE",
    "PROTOCOL",
    "READERS",
    "body_bytes",
    "body_of",
]

PROTOCOL: Final = 1
# The first request of every run, and its id.
DESCRIBE: Final = "describe"
# The case kinds an answer judges, in the order the kit lists them.
ANSWER_KINDS: Final = ("create", "update", "response")
# The response readers a `response` request names.
READERS: Final = ("create_response", "contact_response", "thread", "error")


def body_of(data: bytes) -> dict[str, str]:
    """The protocol's form of a body's bytes: its text when they are UTF-8, else base64."""
    try:
        return {"text": data.decode("utf-8")}  # strict: the bytes of a surrogate are no UTF-8
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}


def body_bytes(body: object) -> bytes | None:
    """The bytes of a request's `body`, or `None` when it is neither of the protocol's forms."""
    if type(body) is not dict or len(body) != 1:
        return None
    text = body.get("text")
    if type(text) is str:
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: no bytes are this text
            return None
    encoded = body.get("base64")
    if type(encoded) is str:
        try:
            return base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            return None
    return None
