"""Time `validate_create` against pydantic, msgspec, hand-written checks and JSON Schema.

    python benchmarks/run.py [--size N] [--rounds R] [--seed S] [--import-also SRC]
                             [--audit-records N]

1. Builds the two seeded corpora (`benchmarks/corpus.py`: `realistic` and `small`) and checks
   that every implementation accepts every valid payload and refuses every invalid one, and
   that `validate_create` reports exactly the violations injected; a disagreement stops the
   run.
2. Times every implementation over the same corpus in this one process, round by round, the
   order of implementations turning each round, so drift of a shared machine cancels out. For
   the valid and the invalid set it prints the median nanoseconds per payload and the median of
   the per-round ratios to pydantic (with their spread). Times are the process's CPU time, so
   that other processes of a shared machine count as little as they can.
3. Times, in fresh interpreters, importing each implementation until it has validated one
   payload (median of several runs, interleaved, in CPU time too), as a ratio to pydantic.
4. Measures, in a fresh interpreter per implementation, the peak memory of validating the
   whole corpus: the Python heap's peak as tracemalloc sees it, and the process's peak resident
   set (VmHWM).
5. Bytes to verdict (issue 29): the same corpora as request bodies (`json.dumps`, UTF-8, as
   a JavaScript client sends them), from the bytes to the verdict: `validate_create_json`,
   `validate_create(json.loads(body))`, `validate_create(msgspec.json.decode(body))` and, as
   peers, pydantic's `model_validate_json` (strict, the baseline of this table) and msgspec's
   typed `json.Decoder` with the cross-field checks (times of day by pattern, and as a
   `Literal`); also `validate_create_json` with the standard library's decoder forced (as
   without the `fast` extra). `--bytes-only` runs the agreement check and this table alone.
6. Times `campaign-rules audit --jobs 1` on a store of `--audit-records` records
   (`benchmarks/audit.py`'s store, made once in `benchmarks/.data/`), in a fresh interpreter, with
   the fast JSON decoder where it is installed and with the standard library's, in records/s.
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.corpus import SHAPES, Corpus, make_corpus  # noqa: E402

BASELINE = "pydantic"


class Implementation(NamedTuple):
    """A validator under test: its module, and the function that validates one payload."""

    name: str
    module: str
    function: str
    distribution: str


IMPLEMENTATIONS = (
    Implementation("campaign_rules", "campaign_rules", "validate_create", "campaign-rules"),
    Implementation("pydantic", "benchmarks.peers.pydantic_rules", "validate", "pydantic"),
    Implementation("msgspec", "benchmarks.peers.msgspec_rules", "validate", "msgspec"),
    Implementation("msgspec_tuned", "benchmarks.peers.msgspec_tuned", "validate", "msgspec"),
    Implementation("handwritten", "benchmarks.peers.handwritten_rules", "validate", ""),
    Implementation("jsonschema", "benchmarks.peers.jsonschema_rules", "validate", "jsonschema"),
    Implementation(
        "fastjsonschema", "benchmarks.peers.fastjsonschema_rules", "validate", "fastjsonschema"
    ),
)

# When `campaign_rules` here is the compiled build, the pure-Python build of the same source
# (`src/`) is timed beside it under this name, in a process of its own (D-compiled-build).
PURE = "pure_python"
SOURCE = ROOT / "src"

# The targets of issue 22 for the compiled build, on each corpus, as the largest ratio to
# pydantic each may reach (issue 13's were 1.0x, 0.8x and 0.5x).
TARGETS = {"valid": 0.75, "invalid": 0.45, "import": 0.5}

# Bytes to verdict (issue 29): each validator of a body's bytes, by name; the baseline is
# pydantic's `model_validate_json`. The targets of the compiled build with the `fast` extra, as
# the largest ratio to it; and without the extra (the standard library's decoder forced), the
# largest ratio to `validate_create(json.loads(body))`.
BYTES_BASELINE = "pydantic_json"
BYTES_TARGETS = {"valid": 0.70, "invalid": 0.40}
BYTES_STDLIB_FACTOR = 1.2
BYTES_OURS = "validate_create_json"
BYTES_STDLIB = "validate_create_json (json)"
BYTES_LOADS = "validate_create(json.loads)"
# ... and the least factor by which campaign_rules must beat jsonschema on both sets.
JSONSCHEMA_FACTOR = 25.0

Validate = Callable[[object], Any]


def _load(implementation: Implementation) -> Validate:
    function: Validate = getattr(
        importlib.import_module(implementation.module), implementation.function
    )
    return function


def _accepts(implementation: Implementation, validate: Validate, payload: object) -> bool:
    if implementation.name == "campaign_rules":
        return bool(validate(payload).ok)
    ok, _ = validate(payload)
    return bool(ok)


def check_agreement(corpus: Corpus, validators: dict[str, Validate]) -> list[str]:
    """Every disagreement of an implementation with the corpus, as lines to print.

    `validators` holds campaign_rules' `validate_create` and those of any peers to check.
    """
    problems = []
    for implementation in IMPLEMENTATIONS:
        validate = validators.get(implementation.name)
        if validate is None:
            continue
        for index, payload in enumerate(corpus.valid):
            if not _accepts(implementation, validate, payload):
                problems.append(f"{implementation.name} refuses valid payload {index}")
        for index, (payload, _) in enumerate(corpus.invalid):
            if _accepts(implementation, validate, payload):
                problems.append(f"{implementation.name} accepts invalid payload {index}")
    validate_create = validators["campaign_rules"]
    for index, (payload, expected) in enumerate(corpus.invalid):
        found = sorted((v.key.value, v.field) for v in validate_create(payload).violations)
        if found != sorted(expected):
            problems.append(f"campaign_rules on invalid payload {index}: {found} != {expected}")
    return problems


def ns_per_payload(validate: Validate, payloads: list[Any]) -> float:
    # As timeit does: no garbage collection inside the timed loop.
    gc.collect()
    gc.disable()
    try:
        start = time.process_time_ns()
        for payload in payloads:
            validate(payload)
        return (time.process_time_ns() - start) / len(payloads)
    finally:
        gc.enable()


class Figures(NamedTuple):
    """One implementation's figures on one set: median time, and its per-round ratios."""

    median_ns: float
    ratios: list[float]


Timer = Callable[[], float]


def time_rounds(
    payloads: list[Any],
    validators: dict[str, Validate],
    rounds: int,
    elsewhere: dict[str, Timer] | None = None,
    baseline: str = BASELINE,
) -> dict[str, Figures]:
    """Per implementation: the median ns per payload, and the ratio to pydantic of each round.

    `validators` maps each name to its function, pydantic's among them; `elsewhere` maps a name
    to a function that has another process time the same payloads and returns its ns per
    payload. They take turns in the order given, shifted by one each round.
    """
    timers: dict[str, Timer] = {
        name: functools.partial(ns_per_payload, validate, payloads)
        for name, validate in validators.items()
    }
    timers.update(elsewhere or {})
    names = list(timers)
    times: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(rounds + 1):
        turn = round_ % len(names)
        order = names[turn:] + names[:turn]
        measured = {name: timers[name]() for name in order}
        if round_ == 0:
            continue  # a warm-up round
        for name in names:
            times[name].append(measured[name])
    return {
        name: Figures(
            statistics.median(times[name]),
            [mine / base for mine, base in zip(times[name], times[baseline], strict=True)],
        )
        for name in names
    }


_SAMPLE = json.dumps(json.loads((ROOT / "examples" / "phone_call.json").read_text("utf-8")))

_READY_SCRIPT = """
import json, time
sample = json.loads({sample!r})
start = time.process_time_ns()
from {module} import {function}
{function}(sample)
print(time.process_time_ns() - start)
"""

_MEMORY_SCRIPT = """
import gc, tracemalloc
from benchmarks.corpus import make_corpus
from {module} import {function}
corpus = make_corpus({seed}, {size})
payloads = corpus.valid + [payload for payload, _ in corpus.invalid]
{function}(payloads[0])
gc.collect()
tracemalloc.start()
for payload in payloads:
    {function}(payload)
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
status = open("/proc/self/status").read().split("VmHWM:")[1].split()
print(peak, int(status[0]) * 1024)
"""


def _run_fresh(script: str, first_on_path: Path | None = None) -> list[int]:
    """Run `script` in a fresh interpreter; `first_on_path` is searched before anything else."""
    path = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    if first_on_path is not None:
        path.insert(0, str(first_on_path))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    # Every library is timed as installed, with its bytecode compiled: pip compiles the peers
    # when it installs them, and the first, dropped run writes the caches of the source trees
    # here, which an environment that forbids writing them would leave to compile every time.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    output = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [int(number) for number in output.split()]


def _entries(sources: dict[str, Path]) -> list[tuple[Implementation, Path | None]]:
    return [(implementation, None) for implementation in IMPLEMENTATIONS] + [
        (IMPLEMENTATIONS[0]._replace(name=name), source) for name, source in sources.items()
    ]


def time_imports(runs: int, sources: dict[str, Path] | None = None) -> dict[str, list[float]]:
    """Per implementation, the ns from import to one payload validated, in `runs` fresh runs.

    `sources` maps a name to a source tree of campaign_rules (the pure-Python build of this
    one, or the `src` folder of another checkout), timed too, in the same interleaved runs.
    """
    entries = _entries(sources or {})
    times: dict[str, list[float]] = {implementation.name: [] for implementation, _ in entries}
    for run in range(runs + 1):
        turn = run % len(entries)
        for implementation, source in entries[turn:] + entries[:turn]:
            script = _READY_SCRIPT.format(
                sample=_SAMPLE, module=implementation.module, function=implementation.function
            )
            (elapsed,) = _run_fresh(script, source)
            if run:  # the first run writes the bytecode caches
                times[implementation.name].append(elapsed)
    return times


def measure_memory(
    seed: int, size: int, sources: dict[str, Path] | None = None
) -> dict[str, tuple[int, int]]:
    """Per implementation: the traced heap peak and the peak RSS of validating the corpus."""
    figures = {}
    for implementation, source in _entries(sources or {}):
        script = _MEMORY_SCRIPT.format(
            module=implementation.module, function=implementation.function, seed=seed, size=size
        )
        peak, rss = _run_fresh(script, source)
        figures[implementation.name] = (peak, rss)
    return figures


_PURE_WORKER = """
import sys
import campaign_rules
from benchmarks.corpus import SHAPES, make_corpus
from benchmarks.run import check_agreement, ns_per_payload
assert not getattr(campaign_rules, "COMPILED", False)  # a tree from before issue 13 has none
sets, problems = {{}}, []
for name, shape in SHAPES.items():
    corpus = make_corpus({seed}, {size}, shape)
    sets[name + " valid"] = corpus.valid
    sets[name + " invalid"] = [payload for payload, _ in corpus.invalid]
    problems += check_agreement(corpus, {{"campaign_rules": campaign_rules.validate_create}})
print(len(problems), flush=True)
for line in sys.stdin:
    print(ns_per_payload(campaign_rules.validate_create, sets[line.strip()]), flush=True)
"""


class SourceTree:
    """campaign_rules run from a source tree (pure Python), in a process of its own.

    It checks the corpus as `check_agreement` does, then times a set on request.
    """

    def __init__(self, source: Path, seed: int, size: int) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(source), str(ROOT)])}
        self.process = subprocess.Popen(
            [sys.executable, "-c", _PURE_WORKER.format(seed=seed, size=size)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.problems = int(self._line())

    def _line(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline()

    def timer(self, label: str) -> Timer:
        """A function that has the process time the set `label` ("small valid", ...)."""

        def ns_per_payload_there() -> float:
            assert self.process.stdin is not None
            self.process.stdin.write(label + "\n")
            self.process.stdin.flush()
            return float(self._line())

        return ns_per_payload_there

    def close(self) -> None:
        """End the process."""
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.close()
        self.process.wait()
        self.process.stdout.close()


def _spread(values: list[float]) -> str:
    return f"{min(values):.2f}-{max(values):.2f}"


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _print_header(size: int, rounds: int, seed: int) -> None:
    print(f"machine: {_cpu()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}")
    print(f"python: {platform.python_implementation()} {platform.python_version()}")
    compiled = importlib.import_module("campaign_rules").COMPILED
    print(f"campaign_rules: the {'compiled (mypyc)' if compiled else 'pure-Python'} build")
    distributions = {i.distribution: None for i in IMPLEMENTATIONS if i.distribution}
    versions = ", ".join(f"{name} {metadata.version(name)}" for name in distributions)
    print(f"versions: {versions}")
    print(
        f"corpora: {', '.join(SHAPES)}; seed {seed}, {size} valid and {size} invalid payloads"
        f" each; {rounds} rounds"
    )


def print_set(label: str, figures: dict[str, Figures], baseline: str = BASELINE) -> None:
    """Print one set's figures: median ns per payload, median ratio to pydantic, its spread."""
    print(f"\n{label}: median ns per payload; ratio to {baseline} (median of rounds, min-max)")
    for name, (median_ns, ratios) in figures.items():
        ratio = statistics.median(ratios)
        print(f"  {name:<19} {median_ns:>11,.0f} ns  {ratio:6.2f}x  ({_spread(ratios)})")


def main() -> int:
    """Run the benchmark; exit status 1 when the implementations disagree on the corpus."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=500, help="payloads in each set")
    parser.add_argument("--rounds", type=int, default=15, help="timed rounds")
    parser.add_argument("--seed", type=int, default=20261122, help="corpus seed")
    parser.add_argument("--import-runs", type=int, default=9, help="fresh interpreters each")
    parser.add_argument(
        "--import-also",
        type=Path,
        action="append",
        default=[],
        metavar="SRC",
        help="the src folder of another checkout to time beside this one (repeatable)",
    )
    parser.add_argument(
        "--bytes-only",
        action="store_true",
        help="check agreement and time the bytes-to-verdict table only (issue 29)",
    )
    parser.add_argument(
        "--audit-records",
        type=int,
        default=1_000_000,
        metavar="N",
        help="records of the store `campaign-rules audit --jobs 1` is timed on (0: not timed)",
    )
    args = parser.parse_args()

    _print_header(args.size, args.rounds, args.seed)
    corpora = {name: make_corpus(args.seed, args.size, shape) for name, shape in SHAPES.items()}
    if args.bytes_only:
        return run_bytes(corpora, args.rounds)
    validators = {implementation.name: _load(implementation) for implementation in IMPLEMENTATIONS}
    sources = {f"campaign_rules@{source.parent.name}": source for source in args.import_also}
    if importlib.import_module("campaign_rules").COMPILED:
        sources = {PURE: SOURCE, **sources}
    trees = {name: SourceTree(source, args.seed, args.size) for name, source in sources.items()}
    problems = [
        f"{name} corpus: {problem}"
        for name, corpus in corpora.items()
        for problem in check_agreement(corpus, validators)
    ] + [f"{name}: {tree.problems} disagreements" for name, tree in trees.items() if tree.problems]
    if problems:
        print("\nthe implementations disagree on the corpus:", *problems[:20], sep="\n  ")
        return 1
    print("agreement: every implementation accepts every valid and refuses every invalid payload")

    sets = {}
    for name, corpus in corpora.items():
        sets[f"{name} valid"] = corpus.valid
        sets[f"{name} invalid"] = [payload for payload, _ in corpus.invalid]
    results = {}
    for label, payloads in sets.items():
        elsewhere = {name: tree.timer(label) for name, tree in trees.items()}
        results[label] = time_rounds(payloads, validators, args.rounds, elsewhere)
    for tree in trees.values():
        tree.close()
    for label, figures in results.items():
        print_set(f"{label} payloads", figures)
    print_table(results)

    imports = time_imports(args.import_runs, sources)
    base_import = statistics.median(imports[BASELINE])
    print(
        f"\nimport until one payload is validated, fresh interpreter, median of {args.import_runs}"
    )
    for name, runs in imports.items():
        median = statistics.median(runs)
        low, high = min(runs) / 1e6, max(runs) / 1e6
        ratio = median / base_import
        print(
            f"  {name:<19} {median / 1e6:8.1f} ms  {ratio:6.2f}x  (min-max {low:.1f}-{high:.1f} ms)"
        )

    print(f"\npeak memory of validating the corpus ({2 * args.size} payloads), fresh interpreter")
    for name, (peak, rss) in measure_memory(args.seed, args.size, sources).items():
        print(
            f"  {name:<19} traced heap peak {peak / 1024:8.1f} KiB  peak RSS {rss / 2**20:6.1f} MiB"
        )

    bytes_status = run_bytes(corpora, args.rounds)
    if bytes_status:
        return bytes_status
    audit_rates = time_audit(args.audit_records) if args.audit_records else {}

    print("\ntargets (issue 22, the compiled build)")
    ours = "campaign_rules"
    for label, figures in results.items():
        kind = label.split()[-1]
        ratio = statistics.median(figures[ours].ratios)
        _print_target(
            f"{label}: {ratio:.2f}x {BASELINE}, at most {TARGETS[kind]}x", ratio <= TARGETS[kind]
        )
        factor = figures["jsonschema"].median_ns / figures[ours].median_ns
        _print_target(
            f"{label}: {factor:.0f}x faster than jsonschema, at least {JSONSCHEMA_FACTOR:.0f}x",
            factor >= JSONSCHEMA_FACTOR,
        )
    ratio = statistics.median(imports[ours]) / base_import
    _print_target(
        f"import: {ratio:.2f}x {BASELINE}, at most {TARGETS['import']}x", ratio <= TARGETS["import"]
    )
    for name, rate in audit_rates.items():
        print(f"  audit --jobs 1, {name}: {rate:,.0f} records per CPU second")
    for name in sources:
        speeds = ", ".join(
            f"{label} {statistics.median(figures[name].ratios):.2f}x"
            for label, figures in results.items()
        )
        print(f"  {name}: {speeds}, import {statistics.median(imports[name]) / base_import:.2f}x")
    return 0


def print_table(results: dict[str, dict[str, Figures]], baseline: str = BASELINE) -> None:
    """Print every implementation's median ratio to pydantic on every set, as one table."""
    labels = list(results)
    print(f"\nratio to {baseline} (median of rounds), every set")
    print("| implementation | " + " | ".join(labels) + " |")
    print("|---|" + "---:|" * len(labels))
    for name in next(iter(results.values())):
        ratios = [f"{statistics.median(results[label][name].ratios):.2f}x" for label in labels]
        print(f"| {name} | " + " | ".join(ratios) + " |")


def bytes_validators() -> dict[str, Callable[[bytes], Any]]:
    """The validators of a body's bytes (issue 29), pydantic's `model_validate_json` first."""
    import msgspec

    from benchmarks.peers import msgspec_literal, msgspec_rules, pydantic_rules
    from campaign_rules import validate_create, validate_create_json

    decode = msgspec.json.decode
    loads = json.loads
    return {
        BYTES_BASELINE: pydantic_rules.validate_json,
        "msgspec_decoder": msgspec_rules.validate_json,
        "msgspec_decoder_literal": msgspec_literal.validate_json,
        BYTES_LOADS: lambda body: validate_create(loads(body)),
        "validate_create(msgspec)": lambda body: validate_create(decode(body)),
        BYTES_OURS: validate_create_json,
    }


def _stdlib_only_timer(validate: Callable[[bytes], Any], bodies: list[bytes]) -> Timer:
    """A timer of `validate` with the standard library's decoder forced, as without `fast`."""
    json_core = importlib.import_module("campaign_rules._core.json")

    def timer() -> float:
        json_core.fast_decoder()
        saved = list(json_core._fast_decoder)
        json_core._fast_decoder[:] = [None]
        try:
            return ns_per_payload(validate, bodies)
        finally:
            json_core._fast_decoder[:] = saved

    return timer


def body_bytes(payload: object) -> bytes:
    """A payload as a request body: `json.dumps` as JavaScript's `JSON.stringify`, UTF-8."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def check_bytes_agreement(
    corpus: Corpus, validators: dict[str, Callable[[bytes], Any]]
) -> list[str]:
    """Every disagreement on the corpus as bodies: accepted, refused, and our violations."""
    from campaign_rules import validate_create

    problems = []
    for name, validate in validators.items():
        for index, payload in enumerate(corpus.valid):
            result = validate(body_bytes(payload))
            ok = result.ok if hasattr(result, "ok") else result[0]
            if not ok:
                problems.append(f"{name} refuses valid body {index}")
        for index, (payload, _) in enumerate(corpus.invalid):
            result = validate(body_bytes(payload))
            ok = result.ok if hasattr(result, "ok") else result[0]
            if ok:
                problems.append(f"{name} accepts invalid body {index}")
    ours = validators[BYTES_OURS]
    for index, (payload, _) in enumerate(corpus.invalid):
        found = [(v.key, v.field, v.rule) for v in ours(body_bytes(payload)).violations]
        expected = [(v.key, v.field, v.rule) for v in validate_create(payload).violations]
        if found != expected:
            problems.append(f"{BYTES_OURS} on invalid body {index}: {found} != {expected}")
    return problems


def run_bytes(corpora: dict[str, Corpus], rounds: int) -> int:
    """Time the bytes-to-verdict table (issue 29); exit status 1 when the validators disagree."""
    validators = bytes_validators()
    problems = [
        f"{name} corpus: {problem}"
        for name, corpus in corpora.items()
        for problem in check_bytes_agreement(corpus, validators)
    ]
    if problems:
        print("\nbytes: the validators disagree on the corpus:", *problems[:20], sep="\n  ")
        return 1
    print("\nbytes: every validator accepts every valid body and refuses every invalid one")
    results = {}
    for name, corpus in corpora.items():
        for kind, payloads in (
            ("valid", corpus.valid),
            ("invalid", [p for p, _ in corpus.invalid]),
        ):
            bodies = [body_bytes(payload) for payload in payloads]
            elsewhere = {BYTES_STDLIB: _stdlib_only_timer(validators[BYTES_OURS], bodies)}
            results[f"{name} {kind}"] = time_rounds(
                bodies, validators, rounds, elsewhere, baseline=BYTES_BASELINE
            )
    for label, figures in results.items():
        print_set(f"bytes, {label} bodies", figures, BYTES_BASELINE)
    print_table(results, BYTES_BASELINE)
    compiled = importlib.import_module("campaign_rules").COMPILED
    print(f"\nbytes targets (issue 29; the compiled build with the fast extra: {compiled})")
    for label, figures in results.items():
        kind = label.split()[-1]
        ratio = statistics.median(figures[BYTES_OURS].ratios)
        limit = BYTES_TARGETS[kind]
        _print_target(f"{label}: {ratio:.2f}x {BYTES_BASELINE}, at most {limit}x", ratio <= limit)
        stdlib = [
            mine / loads
            for mine, loads in zip(
                figures[BYTES_STDLIB].ratios, figures[BYTES_LOADS].ratios, strict=True
            )
        ]
        factor = statistics.median(stdlib)
        _print_target(
            f"{label}, without the fast extra: {factor:.2f}x {BYTES_LOADS},"
            f" at most {BYTES_STDLIB_FACTOR}x",
            factor <= BYTES_STDLIB_FACTOR,
        )
    return 0


def time_audit(records: int) -> dict[str, float]:
    """`campaign-rules audit --jobs 1` on a store of `records` records, in records per second.

    Run in fresh interpreters by `benchmarks/audit.py`: with the decoder the audit chooses (the
    fast one where it is installed), and with the standard library's forced. Per second of
    the process's CPU time, which other jobs of a shared machine do not lengthen; the
    wall-clock figure is printed too.
    """
    from benchmarks.audit import HERE, write_store

    files = write_store(HERE / ".data", records, 8, 20261125)
    rates = {}
    for mode, name in (("audit", "as installed"), ("audit-stdlib", "standard library json")):
        command = [sys.executable, str(HERE / "audit.py"), "--child", mode, "--jobs", "1"]
        done = subprocess.run(
            [*command, *map(str, files)], check=True, capture_output=True, text=True
        )
        found = json.loads(done.stdout)
        rates[name] = found["records"] / found["cpu_seconds"]
        print(
            f"\naudit --jobs 1, {records:,} records, {name}: {rates[name]:,.0f} records per"
            f" CPU second ({found['records'] / found['seconds']:,.0f} per second of wall clock)"
        )
    return rates


def _print_target(text: str, met: bool) -> None:
    print(f"  {'met   ' if met else 'MISSED'} {text}")


if __name__ == "__main__":
    sys.exit(main())
