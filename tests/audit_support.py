"""Small stores of JSON Lines for the audit tests: realistic bodies, blank and broken lines."""

import gzip
import json
import random
from pathlib import Path

from benchmarks.corpus import make_corpus

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
