"""A version of campaign-rules as a command, for the diff's tests: what `campaign-rules` does,
and `conformance serve` answering the executor protocol with the in-process executor.

Run by the wrapper scripts `tests/diff_support.py` writes, with PYTHONPATH naming the source
tree of the version wanted (this one, or a scratch copy with one row changed).
"""

from __future__ import annotations

import json
import sys


def serve() -> int:
    """Answer one protocol request a line, in order, until standard input ends."""
    from campaign_rules._diff.inprocess import InProcessSide, answer

    described = InProcessSide().describe()
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("kind") == "describe":
            told: dict[str, object] = {
                "id": request.get("id"),
                "protocol": 1,
                "executor": described.executor.replace("in-process", "test executor"),
                "ruleset": {"version": described.version, "fingerprint": described.fingerprint},
                "kinds": list(described.kinds),
            }
        else:
            told = answer(request)
        sys.stdout.write(json.dumps(told) + "\n")  # ASCII: a lone surrogate escaped
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["conformance", "serve"]:
        raise SystemExit(serve())
    from campaign_rules._cli import main

    raise SystemExit(main())
