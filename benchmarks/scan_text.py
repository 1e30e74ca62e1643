"""The text walk's budget (issue 36): `scan_text` against `json.loads` on the same 1 MiB texts.

Run from the repository root: `python benchmarks/scan_text.py` (a few seconds). For each text of
about 1 MiB (`BODY_MAX_BYTES`), each with one problem at its very end, so that the walk reads the
whole text, it prints the best CPU time of `json.loads` and of the walk that finds and places
I-JSON's problems (`_core.json_text.scan_text`, as `read_body` calls it), and their ratio
(target: at most 10). It exits 1 when a target is missed. It times the build it imports: the
pure-Python one from `src/` (`PYTHONPATH=src`), or the compiled one where that is installed.

Times are the best of several rounds, measured in one run on one machine, so only the ratios
are compared (the test suite never times anything).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable

from campaign_rules._core import json_text
from campaign_rules._core.json_text import scan_text
from campaign_rules._core.limits import BODY_MAX_BYTES, BODY_MAX_DEPTH

MAX_RATIO = 10.0  # issue 36: the walk costs at most 10 times `json.loads` of the same text
ROUNDS = 7
NOTHING: frozenset[str] = frozenset()


def filled(item: str, last: str, separator: str = ",") -> str:
    """An array of copies of `item` and then `last`, of about `BODY_MAX_BYTES` characters."""
    count = (BODY_MAX_BYTES - len(last) - 2) // (len(item) + len(separator))
    return "[" + (item + separator) * count + last + "]"


def nested(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


# Each text holds one problem, at its end.
TEXTS: dict[str, str] = {
    "many small tokens": filled("1", "1e999"),
    "short strings": filled('"ab"', '"\\ud800"'),
    "long strings": filled('"' + "x" * 1000 + '"', '"\\ud800"'),
    "escaped strings": filled('"\\u00e9\\n\\"é"', '"\\ud800"'),
    "small objects": filled('{"id": 1, "name": "ab", "ok": true}', '{"a": 1, "a": 2}'),
    "objects of objects": filled('{"a": {"b": 1}}', '{"a": {"b": 1, "b": 2}}'),
    "escaped pairs, big numbers": filled('"\\ud83d\\ude00", 1.5e300', "-1e309"),
    # Each read token by token: numbers a double holds only just, which no run passes over.
    "numbers near the largest double": filled("1.7e308", "1.8e308"),
    "empty containers": filled("[], {}", "NaN"),
    "deep-ish nesting": filled('{"a": [{"b": [1, 2, {"c": "d"}]}]}', "1e999"),
    f"nested {BODY_MAX_DEPTH - 2} deep": filled(nested(BODY_MAX_DEPTH - 2), "1e999"),
    "one object of many members": "{"
    + ", ".join(f'"k{i}": {i}' for i in range(BODY_MAX_BYTES // 14))
    + ', "k0": 0}',
    "names with escapes": "{"
    + ", ".join(f'"\\u006b{i}": [{i}]' for i in range(BODY_MAX_BYTES // 20))
    + ', "\\u006b0": 0}',
}


def best(call: Callable[[], object]) -> float:
    """The least CPU time of one call, over `ROUNDS` rounds."""
    times = []
    for _ in range(ROUNDS):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return min(times)


def main() -> int:
    compiled = not json_text.__file__.endswith(".py")
    print(f"scan_text against json.loads, {'compiled' if compiled else 'pure-Python'} build")
    print(f"{'text':<30} {'bytes':>9} {'json.loads':>11} {'scan_text':>10} {'ratio':>6}")
    missed = 0
    for name, text in TEXTS.items():
        loads = best(lambda text=text: json.loads(text))  # type: ignore[misc]
        scan = best(lambda text=text: scan_text(text, NOTHING, BODY_MAX_DEPTH))  # type: ignore[misc]
        found = scan_text(text, NOTHING, BODY_MAX_DEPTH)
        assert len(found.problems) == 1, (name, len(found.problems))
        ratio = scan / loads
        missed += ratio > MAX_RATIO
        print(
            f"{name:<30} {len(text.encode()):>9,} {loads * 1000:>8.1f} ms {scan * 1000:>7.1f} ms"
            f" {ratio:>5.1f}x"
        )
    print(f"target: every ratio at most {MAX_RATIO:g}: {'missed' if missed else 'met'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
