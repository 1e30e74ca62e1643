"""`campaign_rules.dask.audit` where operators run it: separate processes over S3 (issue 20).

A scheduler and a worker command of 2 worker processes, each started with Dask's own command
line (`dask scheduler`, `dask worker ADDRESS --nworkers 2`), and clients connected by address;
the store is 4 gzip files of JSON Lines in a bucket of moto's S3 server, itself a process on
the loopback, read through `s3://` with `storage_options`. The fixtures start every process
and always stop it (its whole process group); every wait is bounded. docs/guides/dask.md is
the same recipe for a real cluster.

Needs the `dask` and `s3` extras and moto (`test` extra); without them the module is skipped.
"""

from __future__ import annotations

import gzip
import importlib.util
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import attrs
import pytest

dask = pytest.importorskip("dask", reason="the dask extra is not installed")
pytest.importorskip("dask.bag", reason="the dask extra is not installed")
distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
s3fs = pytest.importorskip("s3fs", reason="the s3 extra is not installed")
# moto runs in a process of its own; this one only needs to know it is there.
if importlib.util.find_spec("moto") is None:
    pytest.skip("moto[server] (the test extra) is not installed", allow_module_level=True)

from campaign_rules.audit import AuditSummary, audit_lines  # noqa: E402
from campaign_rules.dask import audit  # noqa: E402
from tests.audit_support import store_lines  # noqa: E402
from tests.e2e.support import answers, free_port, running, wait_for  # noqa: E402

STARTUP_SECONDS = 60.0  # a process up, on 2 busy cores
AUDIT_SECONDS = 60.0  # an audit of the store, a worker lost or not
FILES, LINES = 4, 2_000
ATTEMPTS = 3  # audits to catch a worker in a task (one is almost always enough)
# Lines the command and the audit read as `unreadable`, and which a text reader would not
# count the same way: bytes that are not UTF-8, and a lone carriage return inside a line.
ODD_LINES = (b"{\xff not UTF-8", b'{"name": "half\rway"}', b"\xc3(")


@attrs.frozen
class Store:
    """The S3 store: its glob, the options to read it, and its summary by one process."""

    url: str
    storage_options: dict[str, object]
    expected: AuditSummary
    command_json: dict[str, object]


@attrs.frozen
class Cluster:
    """The scheduler's address, a client connected to it, and its worker processes' ids."""

    address: str
    client: distributed.Client

    def worker_pids(self) -> dict[str, int]:
        """The process id of each worker, by worker address."""
        pids: dict[str, int] = self.client.run(os.getpid)
        return pids


def store_file(index: int) -> bytes:
    """One file of the store: bodies valid and invalid, blank lines, unreadable ones."""
    lines = [line.encode() for line in store_lines(LINES - len(ODD_LINES), seed=40 + index)]
    for offset, odd in enumerate(ODD_LINES):
        lines.insert((offset + 1) * LINES // 4, odd)
    return b"".join(line + b"\n" for line in lines)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """moto's S3 server on a free loopback port, holding the store in `s3://campaigns/`."""
    directory = tmp_path_factory.mktemp("s3")
    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "moto.server", "--host", "127.0.0.1", "--port", str(port)]
    log = directory / "moto.log"
    with running(command, log) as server:
        moto_api = f"{endpoint}/moto-api/"
        wait_for(lambda: answers(moto_api), "moto's S3 server", server, log, STARTUP_SECONDS)
        options: dict[str, object] = {
            "endpoint_url": endpoint,
            "key": "test-access-key",
            "secret": "test-secret-key",
        }
        filesystem = s3fs.S3FileSystem(**options)
        filesystem.mkdir("campaigns")
        files = [store_file(index) for index in range(FILES)]
        local = [directory / f"part-{index}.jsonl.gz" for index in range(FILES)]
        for path, data in zip(local, files, strict=True):
            path.write_bytes(gzip.compress(data))
            filesystem.put_file(str(path), f"campaigns/exports/{path.name}")
        # Not part of the glob: the audit must leave it alone.
        filesystem.pipe_file("campaigns/exports/manifest.json", b'{"files": 4}')
        expected = audit_lines(line for data in files for line in io.BytesIO(data).readlines())
        assert min(expected.valid, expected.invalid, expected.unreadable) > 0
        # The command, in one process, over the same files on the local disk.
        command = [sys.executable, "-m", "campaign_rules", "audit", "--json", "--jobs", "1"]
        done = subprocess.run(
            [*command, *map(str, local)],
            capture_output=True,
            timeout=AUDIT_SECONDS,
            check=False,
        )
        assert (done.returncode, done.stderr) == (1, b"")
        yield Store(
            url="s3://campaigns/exports/*.jsonl.gz",
            storage_options=options,
            expected=expected,
            command_json=json.loads(done.stdout),
        )


def _address(scheduler_file: Path) -> str | None:
    """The scheduler's address, once its file is written whole."""
    try:
        address: str = json.loads(scheduler_file.read_text())["address"]
    except (OSError, ValueError, KeyError):
        return None
    return address


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """`dask scheduler` and `dask worker --nworkers 2 --nthreads 1`, on the loopback."""
    directory = tmp_path_factory.mktemp("dask")
    scheduler_file = directory / "scheduler.json"
    command = [sys.executable, "-m", "dask"]  # the `dask` command of the environment
    scheduler_command = [
        *command,
        *("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"),
        *("--scheduler-file", str(scheduler_file), "--idle-timeout", "300"),
    ]
    scheduler_log = directory / "scheduler.log"
    with running(scheduler_command, scheduler_log) as scheduler:
        wait_for(
            lambda: _address(scheduler_file),
            "dask scheduler",
            scheduler,
            scheduler_log,
            STARTUP_SECONDS,
        )
        address = _address(scheduler_file)
        worker_command = [
            *(*command, "worker", address, "--nworkers", "2", "--nthreads", "1"),
            *("--host", "127.0.0.1", "--no-dashboard", "--death-timeout", "60"),
            *("--local-directory", str(directory / "workers")),
        ]
        with (
            running(worker_command, directory / "worker.log"),
            distributed.Client(address, timeout=STARTUP_SECONDS) as client,
        ):
            client.wait_for_workers(2, timeout=STARTUP_SECONDS)
            yield Cluster(address=address, client=client)


def test_the_cluster_summary_of_an_s3_store_is_the_single_process_one(cluster, store):
    # Dask's default scheduler is the local one: only `client` sends the audit to the cluster.
    with (
        dask.config.set(scheduler="synchronous"),
        distributed.get_task_stream(cluster.client) as tasks,
    ):
        summary = audit(store.url, storage_options=store.storage_options, client=cluster.address)
    assert summary == store.expected
    assert summary.to_json() == store.command_json
    audited = _files_audited(tasks.data)
    assert sorted(audited) == list(range(FILES))
    assert set(audited.values()) <= set(cluster.worker_pids())


def test_a_connected_client_is_used_as_given(cluster, store):
    with (
        dask.config.set(scheduler="synchronous"),
        distributed.get_task_stream(cluster.client) as tasks,
    ):
        summary = audit(store.url, storage_options=store.storage_options, client=cluster.client)
    assert summary.to_json() == store.command_json
    audited = _files_audited(tasks.data)
    assert sorted(audited) == list(range(FILES))
    assert set(audited.values()) <= set(cluster.worker_pids())


def _files_audited(tasks) -> dict[int, str]:
    """The worker that audited each file, by the file's index, from a task stream."""
    return {index: task["worker"] for task in tasks if (index := _file_of(task["key"])) is not None}


def test_a_worker_killed_mid_run_costs_no_record(cluster, store):
    """SIGKILL the worker running a task: the scheduler runs it again; the summary is exact.

    An audit that ends before a worker could be stopped in one of its tasks is run again, up to
    `ATTEMPTS` times in all.
    """
    pids = cluster.worker_pids()
    with ThreadPoolExecutor(max_workers=1) as pool:
        for _ in range(ATTEMPTS):
            running_audit = pool.submit(
                audit, store.url, storage_options=store.storage_options, client=cluster.address
            )
            stopped = _stop_a_worker_in_a_task(cluster, pids, running_audit)
            if stopped is not None:
                break
            assert running_audit.result() == store.expected
        else:
            pytest.fail(f"each of {ATTEMPTS} audits ended before a worker could be stopped")
        victim, key = stopped
        killed_at = time.time()
        os.kill(pids[victim], signal.SIGKILL)
        summary = running_audit.result(timeout=AUDIT_SECONDS)
    assert summary == store.expected
    assert summary.to_json() == store.command_json
    # The worker is gone from the cluster, and its nanny started another in its place.
    assert victim not in cluster.client.scheduler_info()["workers"]
    cluster.client.wait_for_workers(2, timeout=STARTUP_SECONDS)
    # The scheduler took the task back from the dead worker, and another worker ran it.
    story = [entry for entry in cluster.client.story(key) if entry[-1] >= killed_at]
    scheduler = [entry[2:4] for entry in story if entry[0] == "scheduler"]
    assert ("processing", "released") in scheduler
    assert scheduler.index(("processing", "memory")) > scheduler.index(("processing", "released"))
    ran_on = {entry[0] for entry in story if entry[0] != "scheduler" and "executing" in entry}
    assert ran_on
    assert victim not in ran_on


def _file_of(key: object) -> int | None:
    """The index of the file a task of the audit reads, or None for a task that reads none.

    Dask names a task of a bag by the bag and the partition: `("audit_file-...", 2)`.
    """
    if isinstance(key, tuple) and str(key[0]).startswith("audit_file-"):
        index: int = key[1]
        return index
    return None


def _stop_a_worker_in_a_task(cluster, pids, running_audit) -> tuple[str, object] | None:
    """SIGSTOP a worker while the scheduler has one of the audit's tasks on it.

    A stopped worker cannot finish its task, so once the scheduler still lists the task on it
    after the stop, the audit cannot end without running that task again elsewhere. The
    worker's address and the task's key; None if the audit ended first.
    """
    deadline = time.monotonic() + AUDIT_SECONDS
    while not running_audit.done():
        if time.monotonic() > deadline:
            pytest.fail(f"no worker was running a task of the audit within {AUDIT_SECONDS} s")
        for worker, keys in cluster.client.processing().items():
            if worker in pids and any(_file_of(key) is not None for key in keys):
                os.kill(pids[worker], signal.SIGSTOP)
                time.sleep(0.1)  # let a message the worker sent before the stop arrive
                still = [
                    key
                    for key in cluster.client.processing().get(worker, [])
                    if _file_of(key) is not None
                ]
                if still and not running_audit.done():
                    return worker, still[0]
                os.kill(pids[worker], signal.SIGCONT)
        time.sleep(0.005)
    return None
