"""Auditing a store beyond one machine, with Dask (`pip install 'campaign-rules[dask]'`).

`audit(paths)` makes a `dask.bag` of the JSON Lines files, one file a partition, audits each
file on a worker with `campaign_rules.audit.audit_lines` and reduces the summaries in the order
of the files, so the result is exactly the summary `campaign-rules audit` prints for the same
files in the same order. It runs on the cluster of the `client` it is given (a
`distributed.Client`, or a scheduler's address to connect to for the call), or else on whatever
Dask scheduler is current: a `distributed.Client` connected to a cluster's scheduler, a
`LocalCluster`, or Dask's default local scheduler. docs/guides/dask.md is the recipe for a
cluster of separate processes over object storage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

try:
    import dask.bag
    import distributed
    import fsspec
except ImportError as error:  # pragma: no cover - the extra is missing
    raise ImportError(
        "campaign_rules.dask needs Dask: pip install 'campaign-rules[dask]'"
    ) from error

from campaign_rules.audit import AuditSummary, audit_lines, merge_summaries

__all__ = ["audit"]


def audit(
    paths: str | Sequence[str],
    *,
    storage_options: Mapping[str, Any] | None = None,
    client: distributed.Client | str | None = None,
) -> AuditSummary:
    """Audit JSON Lines files on a Dask cluster; the same summary as one process.

    `paths` are local paths or any URL fsspec opens (`s3://bucket/store/*.jsonl.gz`, with the
    `s3` extra, and `storage_options` for its credentials and endpoint), globs expanded in
    sorted order; one `str` is one path or glob, never a sequence of one-character paths; `.gz`
    and other compressions are read by their suffix. Records are numbered across the files in
    order, as the command does. Each file is one partition, so a store in many files runs on as
    many workers. The files are listed where `audit` is called and read on the workers, so both
    need to reach the store; `storage_options` travel to the workers with the tasks.

    `client` is the cluster to run on: a `distributed.Client`, or the address of a scheduler
    (`"tcp://10.0.0.5:8786"`), which `audit` connects to for the call and disconnects from after
    it (`ConnectionError`, an `OSError`, if the address is malformed or no scheduler answers
    there within Dask's connect timeout, `distributed.comm.timeouts.connect`). With None, the
    audit runs on the current scheduler (the last `Client` made, or Dask's local one). A worker
    that dies mid-run costs time, not records: the scheduler runs its tasks again on the others,
    and the summary is the same (D-audit-engines).

    Lines never raise (an unreadable line is counted); a file that cannot be opened or read to
    its end raises its error from the worker (an `OSError`, or `EOFError` for a gzip stream cut
    short), and the audit gives no summary. Raises `TypeError` for `paths` that are not a
    string or a sequence of strings, `storage_options` that are not a mapping, or a `client`
    that is not a `distributed.Client`, a string or None.
    """
    names = [paths] if isinstance(paths, str) else paths
    if not isinstance(names, Sequence) or not all(isinstance(name, str) for name in names):
        raise TypeError(f"paths must be a str or a sequence of str, not {type(paths).__name__}")
    if storage_options is not None and not isinstance(storage_options, Mapping):
        kind = type(storage_options).__name__
        raise TypeError(f"storage_options must be a mapping or None, not {kind}")
    if client is not None and not isinstance(client, distributed.Client | str):
        kind = type(client).__name__
        raise TypeError(f"client must be a distributed.Client, an address or None, not {kind}")
    if not names:
        return AuditSummary()
    files = fsspec.open_files(paths, mode="rb", compression="infer", **dict(storage_options or {}))
    if not files:
        return AuditSummary()
    bag = dask.bag.from_sequence(files, npartitions=len(files)).map(_audit_file)
    total = bag.reduction(merge_summaries, merge_summaries)
    if isinstance(client, str):
        with _connect(client) as connected:
            summary: AuditSummary = total.compute(scheduler=connected)
    else:
        summary = total.compute(scheduler=client)
    return summary


def _connect(address: str) -> distributed.Client:
    """A client of the scheduler at `address`, not made the default one.

    Raises `ConnectionError` when the address is malformed or no scheduler answers there within
    Dask's connect timeout. The error is raised outside the `except` block, so that it holds no
    reference to the half-made client, which `distributed` would otherwise try to close at exit.
    """
    try:
        return distributed.Client(address, set_as_default=False)
    except (OSError, ValueError) as error:
        reason = str(error)
    raise ConnectionError(f"cannot connect to the Dask scheduler at {address!r}: {reason}")


def _audit_file(file: Any) -> AuditSummary:
    """Audit one file, read as bytes and split at each line break (on a worker)."""
    with file as lines:
        return audit_lines(lines)
