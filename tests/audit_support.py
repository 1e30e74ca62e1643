"""Small stores of JSON Lines for the audit tests: realistic bodies, blank and broken lines."""

import gzip
import json
import random
from pathlib import Path

from benchmarks.corpus import make_corpus

from campaign_rules import validate_create_json
from campaign_rules._core.limits import LINE_MAX_BYTES

EXAMPLES = Path(__file__).parent.parent / "examples"
VALID = json.dumps(json.loads((EXAMPLES / "phone_call.json").read_text()))
INVALID = json.dumps(json.loads((EXAMPLES / "invalid.json").read_text()))
BROKEN = '{"name": "cut in half'


def store_lines(count: int, seed: int) -> list[str]:
    """`count` lines: bodies from the benchmark corpus (half of them invalid), some blank, some
    broken, and some of other JSON types."""
    corpus = make_corpus(seed, size=40)
    bodies = [json.dumps(payload) for payload in corpus.valid]
    bodies += [json.dumps(case.payload) for case in corpus.invalid]
    odd = ["", "   ", BROKEN, "[1, 2]", "null", "NaN", '{"name": 1e999}']
    rng = random.Random(seed)
    return [rng.choice(odd) if rng.random() < 0.1 else rng.choice(bodies) for _ in range(count)]


def write_store(directory: Path, parts: int, count: int, seed: int) -> list[Path]:
    """`parts` files of `count` lines each; the last one gzip-compressed."""
    paths = []
    for index in range(parts):
        text = "".join(line + "\n" for line in store_lines(count, seed + index))
        if index == parts - 1:
            path = directory / f"part-{index}.jsonl.gz"
            path.write_bytes(gzip.compress(text.encode()))
        else:
            path = directory / f"part-{index}.jsonl"
            path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


# Issue 37's table: lines the audit once judged otherwise than the server, each with the body
# rule `validate_create_json` refuses a body of its bytes by.
SERVER_TABLE = [
    (b'{"retries": 9, ' + VALID[1:].encode(), "body.member_names_unique"),
    (VALID.replace('"retries": 2', '"retries": 1e400').encode(), "body.numbers_fit_a_double"),
    (VALID.replace('"retries": 2', '"retries": NaN').encode(), "body.numbers_fit_a_double"),
    (b"\xef\xbb\xbf" + VALID.encode(), "body.has_no_byte_order_mark"),
    (
        VALID.replace('"description": "', '"description": "\\ud800').encode(),
        "body.strings_are_unicode",
    ),
]
# More lines at the edges of the body rules: other marks, bytes that are no UTF-8, text that is
# no JSON, numbers and nesting past the limits, a lone surrogate in a `str`, a line too long.
EDGE_LINES = [
    b"\xff\xfe{}",
    b'{"name": "\xff"}',
    BROKEN.encode(),
    b"\x0c",
    b"[1] x",
    b'{"retries": -Infinity}',
    b"1" * 5000,
    b"[" * 100_000,
    '{"name": "\udcff"}',
    b"[" + b" " * LINE_MAX_BYTES + b"]",
    VALID.encode(),
    INVALID.encode(),
]
# What a body that is not UTF-8 text or not JSON is refused by: such a line is unreadable.
UNREADABLE_RULES = frozenset({"body.is_utf8", "body.is_json"})


def server_verdict(line):
    """What `validate_create_json` says of a body of the line's bytes (without its line break):
    `valid`, `invalid` or `unreadable`, and each violation as the audit's row shows it."""
    body = line[:-1] if line.endswith(b"\n" if isinstance(line, bytes) else "\n") else line
    violations = validate_create_json(body).violations
    if not violations:
        kind = "valid"
    elif {violation.rule for violation in violations} & UNREADABLE_RULES:
        kind = "unreadable"
    else:
        kind = "invalid"
    assert all(violation.line in (1, None) for violation in violations)  # one line, one body
    shown = [(v.rule, v.key.value, v.field, v.message, v.pointer, v.column) for v in violations]
    return kind, shown


def row_verdict(row):
    """A row of the audit as `server_verdict` shows a violation."""
    return (row["rule"], row["key"], row["field"], row["message"], row["pointer"], row["column"])


def expected_summary(lines):
    """The counts and rules of a summary of `lines`, from `validate_create_json`'s verdicts:
    valid, invalid and unreadable records, and each rule's count and first records."""
    counts = {"valid": 0, "invalid": 0, "unreadable": 0}
    rules = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip(b" \t\r\n" if isinstance(line, bytes) else " \t\r\n"):
            continue  # a blank line is no record (D-audit-records)
        kind, violations = server_verdict(line)
        counts[kind] += 1
        if kind == "invalid":
            for rule in dict.fromkeys(violation[0] for violation in violations):
                rules.setdefault(rule, []).append(number)
    return counts, {rule: (len(records), tuple(records[:5])) for rule, records in rules.items()}


def summary_verdicts(summary):
    """A summary's counts and rules, shaped as `expected_summary` gives them."""
    counts = {"valid": summary.valid, "invalid": summary.invalid, "unreadable": summary.unreadable}
    rules = {rule: (tally.count, tally.first_records) for rule, tally in summary.rules.items()}
    return counts, rules
