"""Validation from many threads at once gives the answers it gives from one (issue 6, item 5).

The rules are pure functions of their input. Four things are shared between calls: the set of
time zone names (`_core.timezones.timezone_names`, read lazily on first use), so each run here
starts with it cleared and the threads race to fill it; the frozen day windows that
`build_campaign` gives again (`_campaign.build.DAY_WINDOWS_KEPT` of them), which the threads
fill as they go; and the violations the runner made of each rule's ready findings
(`_rules.runner._MADE`), which the threads race to make. Switching threads
every microsecond makes them interleave inside the rules, not only between calls.
"""

from __future__ import annotations

import copy
import json
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from campaign_rules import validate_create, validate_update
from campaign_rules._core import timezones
from campaign_rules._rules import runner
from tests.cases_support import (
    build_directory,
    build_existing,
    build_payload,
    case_files,
    case_status,
    is_creation_case,
)
from tests.support import BASES, payload

THREADS = 8
EXAMPLES = Path(__file__).parent.parent / "examples"


def corpus() -> list[Callable[[], Any]]:
    """Every case of `tests/cases/` and a few more, each as a call that validates it afresh.

    Each call builds its own input and directory, so the threads share the library and the
    payloads' prototypes, never a directory's record of calls.
    """
    calls: list[Callable[[], Any]] = []
    for doc in case_files().values():
        for case in doc["cases"]:
            directory = case.get("directory")
            if "update" in case:
                calls.append(_update_call(case["update"], directory))
            elif is_creation_case(case):
                calls.append(_create_call(build_payload(case), directory))
            # Other cases (responses, requests, transitions) are not creation or update bodies.
    for base in BASES:
        calls.append(_create_call(payload(base, timezone="Europe/Madrid"), {}))
    for example in sorted(EXAMPLES.glob("*.json")):
        calls.append(_create_call(json.loads(example.read_text(encoding="utf-8")), {}))
    return calls


def _create_call(body: object, directory: dict[str, Any] | None) -> Callable[[], Any]:
    def call() -> Any:
        found = None if directory is None else build_directory(directory)
        return validate_create(copy.deepcopy(body), directory=found)

    return call


def _update_call(update: dict[str, Any], directory: dict[str, Any] | None) -> Callable[[], Any]:
    existing = build_existing(update)

    def call() -> Any:
        found = None if directory is None else build_directory(directory)
        status = case_status(update.get("status"))
        return validate_update(
            existing, copy.deepcopy(update["patch"]), status=status, directory=found
        )

    return call


def _forget_made_violations() -> None:
    """Forget the violations the runner made of ready findings."""
    runner._MADE.clear()


@pytest.fixture
def fine_grained_switching() -> Iterator[None]:
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


@pytest.mark.usefixtures("fine_grained_switching")
def test_eight_threads_over_a_shared_corpus_give_the_single_threaded_results() -> None:
    calls = corpus()
    expected = [call() for call in calls]
    timezones._LOADED.names = None  # as before the first use: the threads race to read them
    _forget_made_violations()  # and to make the violations of the ready findings

    results: list[list[Any] | None] = [None] * THREADS
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def worker(index: int) -> None:
        try:
            start.wait()
            # Each thread walks the corpus from its own offset, so that different threads run
            # different rules at the same moment.
            offset = index * len(calls) // THREADS
            order = list(range(offset, len(calls))) + list(range(offset))
            found: list[Any] = [None] * len(calls)
            for position in order:
                found[position] = calls[position]()
            results[index] = found
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(index,)) for index in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert len(calls) > 300
    for found in results:
        assert found == expected


def test_the_corpus_has_both_outcomes_and_both_entry_points() -> None:
    """The comparison above is worth something only if the corpus is varied."""
    results = [call() for call in corpus()]
    assert any(result.ok for result in results)
    assert any(not result.ok for result in results)
    assert {type(result).__name__ for result in results} == {
        *("CreateAccepted", "CreateRefused", "UpdateAccepted", "UpdateRefused")
    }
