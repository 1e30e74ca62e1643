"""`campaign_rules.dask` on a real local `distributed` cluster of 2 worker processes.

Needs the `dask` extra (`.ci/run` installs it); without it the module is skipped.
"""

import gzip
import io

import pytest

dask = pytest.importorskip("dask", reason="the dask extra is not installed")
pytest.importorskip("dask.bag", reason="the dask extra is not installed")
distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")

from campaign_rules.audit import audit_lines  # noqa: E402
from campaign_rules.dask import audit  # noqa: E402
from tests.audit_support import (  # noqa: E402
    EDGE_LINES,
    SERVER_TABLE,
    VALID,
    expected_summary,
    summary_verdicts,
    write_store,
)
from tests.e2e.support import free_port  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        client.wait_for_workers(2)
        yield client


def test_the_cluster_summary_of_several_files_is_the_single_process_one(client, tmp_path):
    paths = write_store(tmp_path, parts=5, count=150, seed=21)
    lines = [line for path in paths for line in _lines(path)]
    expected = audit_lines(lines)
    assert min(expected.valid, expected.invalid, expected.unreadable) > 0
    summary = audit([str(path) for path in paths])
    assert summary == expected
    assert summary.to_json() == expected.to_json()
    # Both workers took part: the audit really ran on the cluster.
    assert len(client.scheduler_info()["workers"]) == 2


def test_each_line_gets_the_verdict_of_validate_create_json_on_the_cluster(client, tmp_path):
    table = [line for line, _ in SERVER_TABLE]
    edges = [line for line in EDGE_LINES if isinstance(line, bytes)]
    parts = [[VALID.encode(), *table], edges, table]
    paths = []
    for index, lines in enumerate(parts):
        paths.append(tmp_path / f"part-{index}.jsonl")
        paths[-1].write_bytes(b"".join(line + b"\n" for line in lines))
    summary = audit([str(path) for path in paths])
    assert summary_verdicts(summary) == expected_summary([line for part in parts for line in part])
    for _, rule in SERVER_TABLE:
        assert rule in summary.rules


def test_a_glob_is_read_in_sorted_order(client, tmp_path):
    paths = write_store(tmp_path, parts=3, count=60, seed=31)
    expected = audit_lines([line for path in sorted(paths) for line in _lines(path)])
    assert audit(str(tmp_path / "part-*")) == expected


def test_a_missing_file_raises_its_os_error(client, tmp_path):
    with pytest.raises(FileNotFoundError):
        audit([str(tmp_path / "absent.jsonl")])


@pytest.mark.parametrize("wrong", [b"store.jsonl", bytearray(b"store.jsonl"), [b"store.jsonl"]])
def test_paths_as_bytes_are_refused_and_one_str_is_one_path(client, tmp_path, wrong):
    path = write_store(tmp_path, parts=1, count=40, seed=41)[0]
    assert audit(str(path)) == audit([str(path)]) == audit_lines(_lines(path))
    with pytest.raises(TypeError, match="paths must be a str or a sequence of str, not "):
        audit(wrong)


def _lines(path):
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    return io.BytesIO(data).readlines()


def test_a_client_that_is_neither_a_client_nor_an_address_is_a_type_error(tmp_path):
    refusal = r"client must be a distributed\.Client, an address or None, not int"
    with pytest.raises(TypeError, match=refusal):
        audit(str(tmp_path / "*.jsonl"), client=8786)


@pytest.mark.parametrize("address", ["x", "tcp://127.0.0.1:port"])
def test_a_malformed_address_is_a_connection_error(tmp_path, address):
    paths = write_store(tmp_path, parts=1, count=5, seed=41)
    with pytest.raises(ConnectionError, match="cannot connect to the Dask scheduler at"):
        audit([str(path) for path in paths], client=address)


def test_an_address_where_no_scheduler_answers_is_a_connection_error(tmp_path):
    paths = write_store(tmp_path, parts=1, count=5, seed=43)
    address = f"tcp://127.0.0.1:{free_port()}"
    with (
        dask.config.set({"distributed.comm.timeouts.connect": "1s"}),
        pytest.raises(
            ConnectionError, match=f"cannot connect to the Dask scheduler at '{address}'"
        ),
    ):
        audit([str(path) for path in paths], client=address)
