"""Hypothesis profiles: `ci` (derandomized, 200 examples a property) when CI is set.

`HYPOTHESIS_PROFILE` picks one by name; `scripts/mutation.py` picks `mutation`.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

# CI's, for the suite on the compiled build (.ci/run runs the README's suite without CI=true):
# the same examples on every run, twice as many as a developer's run draws, and few enough that
# CI stays well under 20 minutes (the commits that lowered it from 1,000 and from 400 say how
# long each took).
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", max_examples=100, deadline=None)
# Mutation testing runs the suite once per mutant: fewer examples, the same ones every run.
settings.register_profile(
    "mutation", derandomize=True, max_examples=50, deadline=None, database=None
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

# The headless browser (tests/browser.py): any test may ask for `browser_page`.
from tests.browser import browser_page, chromium  # noqa: E402, F401

# The version at 5d4e07d installed as a command, once a session (tests/diff_support.py): any test
# may ask for `legacy_command`.
from tests.diff_support import legacy_command  # noqa: E402, F401


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Refuse a test id that names a memory address (`<object object at 0x...>`).

    Each process that collects the suite must name its tests alike: noxfile.py runs it in a
    process per core (pytest-xdist), which stops when two processes name a test differently.
    `tests.support.label` gives such a parameter an id of its type.
    """
    named = [item.nodeid for item in items if " at 0x" in item.nodeid]
    if named:
        raise pytest.UsageError(f"test ids that name a memory address: {named[:5]}")
