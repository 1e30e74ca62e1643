"""Records per CPU second of `campaign-rules audit --jobs 1`, for two source trees side by side.

Issue 37 has the audit judge each line as `validate_create_json` judges its bytes, and allows
its records per CPU second to fall by at most 10 %. This runs the command over one generated
store (`benchmarks/audit.py`'s, 100,000 records by default) from each tree in turn, each run
in a fresh interpreter with the tree's `src` first on the path, the trees alternated round
after round so that a busy machine weighs on both alike. A run's figure is its process CPU
time, the whole process's (the interpreter's start and every import included: what a run of
the command costs, whichever modules a tree imports first and which it loads on first use), and
the ratio is taken within each round.

    python benchmarks/audit_ab.py --parent /tmp/parent                 # this tree and another
    python benchmarks/audit_ab.py --parent /tmp/parent --stdlib        # without msgspec

Make the other tree with `git worktree add /tmp/parent COMMIT`; for the compiled build, compile
each tree's modules in place (mypyc, as setup.py chooses them) and pass both with `--this`
too. Either way, the code run is the tree's `src`. It prints a Markdown table:
records per CPU second of each tree in each round, the ratio, and the median ratio. Each round
also audits a store of one record with each tree: that run's CPU time is what an audit costs
whatever its size (the interpreter, the imports, the summary's ruleset fingerprint), and
the last columns give the ratio of records per CPU second with it taken off, the cost a record.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.audit import HERE, write_store

ROOT = HERE.parent
# Where the trees' bytecode is cached, kept between runs of the script.
_BYTECODE = HERE / ".data" / "bytecode"

# Run in the child: the command's CPU time over the files, and its summary.
_CHILD = """
import contextlib, io, json, sys, time
if sys.argv[1] == "stdlib":
    sys.modules["msgspec"] = None
from campaign_rules._cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    main(["audit", "--json", "--jobs", "1", *sys.argv[2:]])
cpu = time.process_time()  # the whole process's: its start and every import included
print(json.dumps({"cpu": cpu, "summary": json.loads(out.getvalue())}))
"""


def run(tree: Path, decoder: str, files: list[Path]) -> tuple[float, dict[str, object]]:
    """The CPU seconds of one audit of `files` by the code of `tree`, and its summary.

    Both trees run with their bytecode cached, as an installed package runs (pip compiles it):
    a tree's interpreted modules are compiled once, at the warm-up run, into one cache under
    `.data` (which mirrors each source's path), and read from it afterwards, even where
    `PYTHONDONTWRITEBYTECODE` is set.
    """
    environment = {
        **{name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"},
        "PYTHONPATH": str(tree / "src"),
        "PYTHONPYCACHEPREFIX": str(_BYTECODE),
    }
    command = [sys.executable, "-c", _CHILD, decoder, *map(str, files)]
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    return float(found["cpu"]), found["summary"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parent", type=Path, required=True, help="the other source tree")
    parser.add_argument("--this", type=Path, default=ROOT, help="this source tree, or a copy")
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--stdlib", action="store_true", help="decode with `json` (no msgspec)")
    parser.add_argument("--data", type=Path, default=HERE / ".data", help="where stores live")
    args = parser.parse_args()
    files = write_store(args.data, args.records, 8, args.seed)
    one = write_store(args.data, 1, 1, args.seed)
    decoder = "stdlib" if args.stdlib else "fast"
    trees = {"parent": args.parent.resolve(), "this": args.this.resolve()}
    print(f"{args.records:,} records, decoder {decoder}, load average {os.getloadavg()[0]:.2f}")
    print()
    print(
        "| round | parent records/CPU s | this tree records/CPU s | this / parent "
        "| parent, one record: CPU s | this tree, one record: CPU s | this / parent, per record |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for tree in trees.values():  # the warm-up: each tree's bytecode cache written
        run(tree, decoder, one)
    ratios, net_ratios = [], []
    for index in range(args.rounds):
        rates, fixed, net = {}, {}, {}
        # Alternated: the parent first in even rounds, this tree first in odd ones.
        for name in sorted(trees, reverse=bool(index % 2)):
            cpu, summary = run(trees[name], decoder, files)
            fixed[name] = run(trees[name], decoder, one)[0]
            records = int(summary["records"])  # type: ignore[call-overload]
            rates[name] = records / cpu
            net[name] = records / (cpu - fixed[name])
        ratios.append(rates["this"] / rates["parent"])
        net_ratios.append(net["this"] / net["parent"])
        print(
            f"| {index + 1} | {rates['parent']:,.0f} | {rates['this']:,.0f} | {ratios[-1]:.3f} "
            f"| {fixed['parent']:.3f} | {fixed['this']:.3f} | {net_ratios[-1]:.3f} |",
            flush=True,
        )
    print()
    print(
        f"median ratio: {statistics.median(ratios):.3f}, per record "
        f"{statistics.median(net_ratios):.3f}; load average {os.getloadavg()[0]:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
