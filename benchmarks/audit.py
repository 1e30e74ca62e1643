"""Throughput and peak memory of `campaign-rules audit`, against a bare loop (issue 15).

Generates stores of JSON Lines (by default 100,000 and 1,000,000 records, each in `--parts`
files; kept in `--data` for the next run, never committed), then runs each of these in a fresh
interpreter, one after another, and prints records per second and peak memory:

- `ceiling`: `validate_create` in a bare loop over decoded dicts (decoded 10,000 at a time,
  untimed);
- `bare`: the same loop over the lines of the files, JSON decoding included;
- `audit`, 1 job and all jobs: `campaign-rules audit --json` on the files;
- `dask`: `campaign_rules.dask.audit` on a `distributed.LocalCluster` of one single-threaded
  worker process per core (the cluster's start is not timed).

It checks that every audit gives the same summary, then the targets: 1 job within 1.3x of
`bare`'s time, all jobs at least 0.8 x cores x the 1-job throughput, peak memory under 100 MiB
for 1,000,000 records. Times are wall-clock: parallel work is what is measured. Exit status 1
when the summaries differ; a missed target is printed, not hidden.

    python benchmarks/audit.py                    # about ten minutes on 2 cores
    python benchmarks/audit.py --sizes 20000      # a quick look
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.corpus import make_corpus
from campaign_rules._cli.audit import available_cpus

HERE = Path(__file__).resolve().parent
MiB = 1024 * 1024
BATCH = 10_000


# --- The store --------------------------------------------------------------------------------


def write_store(directory: Path, records: int, parts: int, seed: int) -> list[Path]:
    """`records` lines in `parts` files: mostly valid bodies, 8 % invalid, a few broken lines.

    One line in 1,000 is blank and one in 10,000 is a body cut in half (not JSON). The bodies
    are drawn from `benchmarks/corpus.py`'s seeded corpus of 2,000 valid and 2,000 invalid ones.
    """
    store = directory / f"store-{records}-{parts}-{seed}"
    files = [store / f"part-{index:02d}.jsonl" for index in range(parts)]
    if (store / "complete").exists():
        return files
    store.mkdir(parents=True, exist_ok=True)
    corpus = make_corpus(seed, size=2_000)
    valid = [json.dumps(payload, ensure_ascii=False) for payload in corpus.valid]
    invalid = []
    for case in corpus.invalid:
        with contextlib.suppress(ValueError):  # a defect that is a Python value such as NaN
            invalid.append(json.dumps(case.payload, ensure_ascii=False, allow_nan=False))
    rng = random.Random(seed)
    per_part = -(-records // parts)
    for index, path in enumerate(files):
        count = min(per_part, records - index * per_part)
        with open(path, "w", encoding="utf-8") as file:
            for _ in range(count):
                draw = rng.random()
                if draw < 0.001:
                    line = ""
                elif draw < 0.0011:
                    body = rng.choice(valid)
                    line = body[: len(body) // 2]
                elif draw < 0.08:
                    line = rng.choice(invalid)
                else:
                    line = rng.choice(valid)
                file.write(line + "\n")
    (store / "complete").touch()
    return files


# --- One measurement, in a fresh interpreter -------------------------------------------------


def _peak_kib(pid: int | str = "self") -> int:
    """The peak resident set (VmHWM) of a process, in KiB; 0 once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


class ChildPeaks:
    """Samples the peak resident set of this process's children until stopped."""

    def __init__(self) -> None:
        self.peaks: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> ChildPeaks:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def sample(self) -> None:
        me = str(os.getpid())
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                stat = Path(entry.path, "stat").read_text()
            except OSError:
                continue
            if stat.rsplit(")", 1)[1].split()[1] == me:
                pid = int(entry.name)
                self.peaks[pid] = max(self.peaks.get(pid, 0), _peak_kib(pid))

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            self.sample()


def measure(mode: str, jobs: int, files: list[str]) -> dict[str, Any]:
    """Run one measurement here; what it found, as JSON data.

    `audit-stdlib` is `audit` with the fast JSON decoder made impossible to import, so that the
    audit decodes with the standard library's (D-audit-fast-decoder).
    """
    if mode == "audit-stdlib":
        sys.modules["msgspec"] = None  # type: ignore[assignment]
        mode = "audit"
    from campaign_rules import validate_create

    summary, cpu_seconds = None, None
    with ChildPeaks() as children:
        if mode == "ceiling":
            seconds, records = 0.0, 0
            for batch in _batches(files):
                start = time.perf_counter()
                for body in batch:
                    validate_create(body)
                seconds += time.perf_counter() - start
                records += len(batch)
        elif mode == "bare":
            start, records = time.perf_counter(), 0
            # The last value of `records` is the count.
            for records, line in enumerate(_lines(files), start=1):  # noqa: B007
                with contextlib.suppress(ValueError):
                    validate_create(json.loads(line))
            seconds = time.perf_counter() - start
        elif mode == "audit":
            from campaign_rules._cli import main

            out = io.StringIO()
            start, cpu = time.perf_counter(), time.process_time()
            with contextlib.redirect_stdout(out):
                main(["audit", "--json", "--jobs", str(jobs), *files])
            seconds = time.perf_counter() - start
            # This process's CPU time: with 1 job, the audit's own, whatever else runs.
            cpu_seconds = time.process_time() - cpu
            summary = json.loads(out.getvalue())
            records = summary["records"]
        else:
            return _measure_dask(jobs, files, children)
        children.sample()
    return {
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "records": records,
        "summary": summary,
        "main_kib": _peak_kib(),
        "children_kib": sorted(children.peaks.values()),
    }


def _lines(files: list[str]) -> Iterator[bytes]:
    """The lines of the files that are not blank."""
    for path in files:
        with open(path, "rb") as file:
            yield from (line for line in file if line.strip())


def _batches(files: list[str]) -> Iterator[list[Any]]:
    """The bodies of the files, decoded, `BATCH` at a time (lines that are not JSON left out)."""
    batch: list[Any] = []
    for line in _lines(files):
        with contextlib.suppress(ValueError):
            batch.append(json.loads(line))
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _measure_dask(jobs: int, files: list[str], children: ChildPeaks) -> dict[str, Any]:
    from distributed import Client, LocalCluster

    from campaign_rules.dask import audit

    start = time.perf_counter()
    with (
        LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True) as cluster,
        Client(cluster) as client,
    ):
        client.wait_for_workers(jobs)
        client.run(lambda: None)
        started = time.perf_counter() - start
        start = time.perf_counter()
        summary = audit(files)
        seconds = time.perf_counter() - start
        children.sample()
    return {
        "seconds": seconds,
        "records": summary.records,
        "summary": summary.to_json(),
        "cluster_start_seconds": started,
        "main_kib": _peak_kib(),
        "children_kib": sorted(children.peaks.values()),
    }


# --- The driver -------------------------------------------------------------------------------


def run_child(mode: str, jobs: int, files: list[Path]) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", mode, "--jobs", str(jobs)]
    done = subprocess.run([*command, *map(str, files)], check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout)
    # Other jobs on the machine take cores from the parallel runs: say how busy it was.
    result["load_after"] = os.getloadavg()[0]
    return result


def _mib(kib: int) -> str:
    return f"{kib / 1024:.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000", help="records in each store")
    parser.add_argument("--parts", type=int, default=8, help="files a store is written in")
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--data", type=Path, default=HERE / ".data", help="where stores live")
    parser.add_argument(
        "--jobs", type=int, default=available_cpus(), help="all jobs (default: the cores)"
    )
    parser.add_argument("--no-dask", action="store_true", help="leave the Dask run out")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("files", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.jobs, args.files)))
        return 0

    cores = args.jobs
    print(f"cores: {cores}; load average before: {os.getloadavg()[0]:.2f}")
    agreed = True
    for size in (int(text) for text in args.sizes.split(",")):
        files = write_store(args.data, size, args.parts, args.seed)
        runs = [("ceiling", 1), ("bare", 1), ("audit", 1), ("audit", cores)]
        if not args.no_dask:
            runs.append(("dask", cores))
        results = {}
        for mode, jobs in runs:
            results[(mode, jobs)] = found = run_child(mode, jobs, files)
            print(f"  {size:,} {mode} jobs={jobs}: {found['seconds']:.1f} s", flush=True)
        summaries = [found["summary"] for found in results.values() if found["summary"]]
        same = all(summary == summaries[0] for summary in summaries)
        agreed = agreed and same
        _report(size, cores, results, same)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0 if agreed else 1


def _report(size: int, cores: int, results: dict[tuple[str, int], Any], same: bool) -> None:
    def rate(key: tuple[str, int]) -> float:
        return float(results[key]["records"] / results[key]["seconds"])

    print(f"\n### {size:,} records\n")
    print(
        "| run | records/s | seconds | peak MiB, main process | peak MiB, its child processes "
        "| load average after |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    names = {
        ("ceiling", 1): "validate_create over decoded dicts (ceiling)",
        ("bare", 1): "bare loop + JSON decoding",
        ("audit", 1): "audit --jobs 1",
        ("audit", cores): f"audit --jobs {cores}",
        ("dask", cores): f"Dask, LocalCluster of {cores} workers",
    }
    for key, found in results.items():
        other = " + ".join(_mib(kib) for kib in found["children_kib"]) or "-"
        print(
            f"| {names[key]} | {rate(key):,.0f} | {found['seconds']:.1f} | "
            f"{_mib(found['main_kib'])} | {other} | {found['load_after']:.2f} |"
        )
    one, bare = results[("audit", 1)], results[("bare", 1)]
    slowdown = one["seconds"] / bare["seconds"] * bare["records"] / one["records"]
    scaling = rate(("audit", cores)) / (cores * rate(("audit", 1)))
    parallel = results[("audit", cores)]
    total = parallel["main_kib"] + sum(parallel["children_kib"])
    print()
    print(f"- 1 job / bare loop + decoding: {slowdown:.2f}x (target at most 1.3x)")
    print(f"- {cores} jobs / ({cores} x 1 job): {scaling:.2f} (target at least 0.8)")
    print(
        f"- peak memory, 1 job: {_mib(one['main_kib'])} MiB; {cores} jobs: "
        f"{_mib(total)} MiB for all processes together (target under 100 MiB)"
    )
    if ("dask", cores) in results:
        print(f"- Dask cluster start: {results[('dask', cores)]['cluster_start_seconds']:.1f} s")
    print(f"- summaries all equal: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    raise SystemExit(main())
