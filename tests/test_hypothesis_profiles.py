"""The Hypothesis profiles the README, the testing page and .ci/run state are the registered ones.

conftest.py registers them; the pages state the number of examples CI draws, which this keeps
true when the profile changes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("page", ["README.md", "docs/testing.md", ".ci/run"])
def test_the_pages_state_the_examples_ci_draws(page: str) -> None:
    ci = settings.get_profile("ci")
    assert ci.derandomize
    stated = f"derandomized, {ci.max_examples:,} examples a property"
    assert stated in " ".join((ROOT / page).read_text(encoding="utf-8").split())
