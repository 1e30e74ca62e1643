"""Time one revision of campaign_rules against another, side by side on this machine.

    python benchmarks/ab.py [--build pure|compiled] [--corpus small] [--kind valid] [--size N]
                            [--rounds R] [--passes P] [--seed S] [--cache DIR] [--json FILE]
                            OLD NEW

OLD and NEW are each a git revision of this repository (`HEAD~1`, `main`, a commit) or a
directory holding a source tree (`.`, to time uncommitted work). A revision is checked out with
`git worktree add --detach` into a temporary directory this run makes, and removed with it at
the end, on a signal too; a directory is used as it is.

- `--build pure` (the default) runs each tree's `src/` with this interpreter and its
  dependencies. `--build compiled` installs each revision with `pip install --no-deps --target`
  (mypyc: minutes each on two cores; pip fetches the build requirements pyproject.toml names)
  into a cache directory this run owns (`--cache`; a commit is built once and
  reused by later runs); both sides then share the interpreter and every dependency, so that
  only the revision differs. The compiled build takes commits only: pip would write its build
  files into a directory given as it is.
- One corpus of bodies is made once (`benchmarks/corpus.py`: each `--corpus` shape, `--size`
  valid and as many invalid bodies, as compact UTF-8 JSON, as a JavaScript client sends them)
  and read by both sides. `--kind valid` keeps the valid bodies only (or `invalid`, the
  invalid ones): to time a revision that judges valid bodies only, such as one with rules left
  out to measure what they cost (benchmarks/experiments/).
- Each round runs one fresh interpreter per side (`ab_child.py`), the sides taking turns, the
  first of each round alternating (A B, B A, A B, ...): each times `validate_create` on the
  decoded bodies (the dict path) and `validate_create_json` on the bytes (the bytes path, where
  the revision has it), in process CPU time, the least of `--passes` passes. A first round,
  untimed, writes the bytecode caches and the results.
- The results of the two sides must be identical on every body, path by path (whether ok, the
  value's `repr`, each violation's key, field, message, rule, pointer, line and column, those
  of them that both revisions have): a difference is shown and the run exits with status 1,
  after its table.

Printed per set and path: each side's median microseconds per body, and the median of the
per-round ratios NEW/OLD with their least and greatest: a ratio is taken within one round, so
a shared machine's drift cancels out. A ratio above 1 is a slowdown.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.corpus import SHAPES, make_corpus  # noqa: E402

CHILD = HERE / "ab_child.py"
# What marks a cache directory as this tool's own: it builds in no other and empties none.
CACHE_MARK = ".campaign-rules-ab"
DEFAULT_CACHE = Path(tempfile.gettempdir()) / "campaign-rules-ab-cache"


class Side(NamedTuple):
    """One side of the comparison: its label, and how a child process imports its code."""

    label: str
    commit: str | None  # None for a directory used as it is
    python_path: Path  # the directory put first on the child's PYTHONPATH
    origin: Path  # where the child's `campaign_rules` must come from


def main(argv: list[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    signal.signal(signal.SIGTERM, _exit_on_signal)
    with tempfile.TemporaryDirectory(prefix="campaign-rules-ab-") as scratch:
        work = Path(scratch)
        with _checkouts(work) as checkout:
            sides = [
                _side(label, spec, arguments, checkout, work)
                for label, spec in (("OLD", arguments.old), ("NEW", arguments.new))
            ]
            bodies = work / "bodies.json"
            bodies.write_text(json.dumps(_bodies(arguments)), encoding="utf-8")
            return _compare(sides, bodies, arguments, work)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", metavar="OLD", help="a git revision or a source tree's directory")
    parser.add_argument("new", metavar="NEW", help="a git revision or a source tree's directory")
    parser.add_argument("--build", choices=("pure", "compiled"), default="pure")
    parser.add_argument(
        "--corpus",
        action="append",
        choices=sorted(SHAPES),
        help="a corpus shape (repeatable; both by default)",
    )
    parser.add_argument(
        "--kind",
        action="append",
        choices=("valid", "invalid"),
        help="the valid or the invalid bodies only (repeatable; both by default)",
    )
    parser.add_argument("--size", type=int, default=500, help="valid and invalid bodies each")
    parser.add_argument("--rounds", type=int, default=11, help="timed rounds (each side once)")
    parser.add_argument("--passes", type=int, default=3, help="timed passes within a process")
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="compiled builds")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    return parser


def _exit_on_signal(number: int, _frame: object) -> None:
    # As SystemExit, so that the checkouts are removed and `subprocess.run` kills its child.
    raise SystemExit(128 + number)


def _bodies(arguments: argparse.Namespace) -> dict[str, list[str]]:
    sets: dict[str, list[str]] = {}
    for shape in arguments.corpus or sorted(SHAPES, reverse=True):
        corpus = make_corpus(arguments.seed, arguments.size, SHAPES[shape])
        kinds = {
            "valid": corpus.valid,
            "invalid": [invalid.payload for invalid in corpus.invalid],
        }
        for kind, payloads in kinds.items():
            if arguments.kind is None or kind in arguments.kind:
                sets[f"{shape}/{kind}"] = [_text(payload) for payload in payloads]
    return sets


def _text(payload: object) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


# Checking out revisions.


@contextlib.contextmanager
def _checkouts(work: Path) -> Iterator[dict[str, Path]]:
    """A map from commit to its checkout under `work`, filled on demand; removed at the end."""
    made: dict[str, Path] = {}
    try:
        yield made
    finally:
        for path in made.values():
            _git("worktree", "remove", "--force", str(path))


def _checkout(commit: str, checkout: dict[str, Path], work: Path) -> Path:
    if commit not in checkout:
        path = work / f"tree-{commit[:12]}"
        _git("worktree", "add", "--detach", "--quiet", str(path), commit)
        checkout[commit] = path
    return checkout[commit]


def _git(*arguments: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(ROOT), *arguments], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(arguments)}: {done.stderr.strip()}")
    return done.stdout.strip()


def _side(
    label: str, spec: str, arguments: argparse.Namespace, checkout: dict[str, Path], work: Path
) -> Side:
    directory = Path(spec)
    if directory.is_dir() and (directory / "src" / "campaign_rules").is_dir():
        if arguments.build == "compiled":
            raise SystemExit(f"{spec}: the compiled build takes a commit, not a directory")
        source = (directory / "src").resolve()
        return Side(f"{label} {spec}", None, source, source / "campaign_rules")
    commit = _git("rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}")
    name = f"{label} {spec} ({commit[:7]})"
    if arguments.build == "pure":
        source = _checkout(commit, checkout, work) / "src"
        return Side(name, commit, source, source / "campaign_rules")
    installed = _compiled(commit, arguments.cache, checkout, work)
    return Side(name, commit, installed, installed / "campaign_rules")


def _compiled(commit: str, cache: Path, checkout: dict[str, Path], work: Path) -> Path:
    """The directory where `commit` is installed compiled, built into the cache if not there."""
    _own(cache)
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    built = cache / f"{commit}-{tag}"
    if built.is_dir():
        return built
    partial = cache / f"{built.name}.partial-{os.getpid()}"
    print(f"building {commit[:7]} compiled (mypyc) into {built} ...", file=sys.stderr, flush=True)
    environment = {k: v for k, v in os.environ.items() if k != "CAMPAIGN_RULES_PURE_PYTHON"}
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
    # Built in isolation, with the build requirements pyproject.toml names (pip fetches them).
    command += ["--target", str(partial)]
    command.append(str(_checkout(commit, checkout, work)))
    try:
        if subprocess.run(command, env=environment, check=False).returncode != 0:
            raise SystemExit(f"{commit[:7]}: the compiled build failed (pip's output above)")
        try:
            partial.rename(built)
        except OSError:
            if not built.is_dir():
                raise
            # Another run built the same commit meanwhile: its build is used, this one dropped.
    finally:
        shutil.rmtree(partial, ignore_errors=True)  # made by this run, left only by a failure
    return built


def _own(cache: Path) -> None:
    """Make `cache` this tool's, or check that it is: a directory it did not make is not used."""
    if not cache.exists():
        cache.mkdir(parents=True)
        (cache / CACHE_MARK).touch()
    elif not (cache / CACHE_MARK).is_file():
        raise SystemExit(f"{cache} exists and is not ab.py's cache: give another --cache")


# Running and comparing.


def _run(side: Side, bodies: Path, arguments: argparse.Namespace, work: Path, *extra: str) -> Any:
    out = work / "child.json"
    environment = dict(os.environ, PYTHONPATH=str(side.python_path), PYTHONHASHSEED="0")
    command = [sys.executable, str(CHILD), str(bodies), str(out), str(arguments.passes), *extra]
    subprocess.run(command, env=environment, check=True)
    report = json.loads(out.read_text(encoding="utf-8"))
    out.unlink()
    if Path(report["file"]).resolve().parent != side.origin.resolve():
        raise SystemExit(f"{side.label}: imported {report['file']}, not from {side.origin}")
    if report["compiled"] != (arguments.build == "compiled"):
        raise SystemExit(f"{side.label}: not the {arguments.build} build")
    return report


def _compare(sides: list[Side], bodies: Path, arguments: argparse.Namespace, work: Path) -> int:
    first = [_run(side, bodies, arguments, work, "--results") for side in sides]
    differences = _differences(first[0]["results"], first[1]["results"])
    times: list[list[dict[str, float]]] = [[], []]
    for round_number in range(arguments.rounds):
        order = (0, 1) if round_number % 2 == 0 else (1, 0)
        for index in order:
            times[index].append(_run(sides[index], bodies, arguments, work)["times"])
    rows = _rows(times)
    _print(sides, rows, arguments, differences)
    if arguments.json is not None:
        figures = {"old": sides[0].label, "new": sides[1].label, "build": arguments.build}
        figures |= {"rows": rows, "differences": differences}
        arguments.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 1 if differences else 0


def _differences(old: dict[str, list[Any]], new: dict[str, list[Any]]) -> list[str]:
    """Where the two sides' results differ: the first body of each set and path, and a count."""
    found = []
    for key in old.keys() & new.keys():
        pairs = zip(old[key], new[key], strict=True)
        differing = [index for index, pair in enumerate(pairs) if not _same(*pair)]
        if differing:
            index = differing[0]
            found.append(
                f"{key}: {len(differing)} bodies differ; body {index}:\n"
                f"  OLD {old[key][index]}\n  NEW {new[key][index]}"
            )
    return sorted(found)


def _same(old: list[Any], new: list[Any]) -> bool:
    """Whether two results agree on all that both revisions have (`ab_child._comparable`)."""
    (old_ok, old_value, old_violations), (new_ok, new_value, new_violations) = old, new
    if (old_ok, old_value, len(old_violations)) != (new_ok, new_value, len(new_violations)):
        return False
    return all(
        before == after
        for old_parts, new_parts in zip(old_violations, new_violations, strict=True)
        for before, after in zip(old_parts, new_parts, strict=True)
        if before is not None and after is not None  # a part one of the revisions lacks
    )


def _rows(times: list[list[dict[str, float]]]) -> list[dict[str, Any]]:
    rows = []
    for key in times[0][0]:
        if key not in times[1][0]:
            continue  # the bytes path, which a revision from before issue 29 lacks
        old = [each[key] for each in times[0]]
        new = [each[key] for each in times[1]]
        ratios = [after / before for before, after in zip(old, new, strict=True)]
        rows.append(
            {
                "set": key,
                "old_us": statistics.median(old) / 1000,
                "new_us": statistics.median(new) / 1000,
                "ratio": statistics.median(ratios),
                "least": min(ratios),
                "greatest": max(ratios),
            }
        )
    return rows


def _print(
    sides: list[Side],
    rows: list[dict[str, Any]],
    arguments: argparse.Namespace,
    differences: list[str],
) -> None:
    print(f"{arguments.build} build, {arguments.rounds} rounds, {arguments.size} bodies a set")
    print(f"OLD: {sides[0].label}\nNEW: {sides[1].label}\n")
    print("| set / path | OLD µs | NEW µs | NEW/OLD | least | greatest |")
    print("|---|---:|---:|---:|---:|---:|")
    for row in rows:
        print(
            f"| {row['set']} | {row['old_us']:.2f} | {row['new_us']:.2f} | {row['ratio']:.3f} "
            f"| {row['least']:.3f} | {row['greatest']:.3f} |"
        )
    if differences:
        print("\nThe results differ:")
        print("\n".join(differences))
    else:
        print("\nThe results are identical on every body.")


if __name__ == "__main__":
    sys.exit(main())
