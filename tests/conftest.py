"""Hypothesis profiles: `ci` (derandomized, 1,000 examples a property) when CI is set.

`ci-second` takes 200 examples a property, for CI's run of the suite on the second build.

`HYPOTHESIS_PROFILE` picks one by name; `scripts/mutation.py` picks `mutation`.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
# CI's second run of the suite, on the pure-Python build (D-compiled-build): the same properties
# with fewer examples, since the first run, on the compiled build, took 1,000 of each.
settings.register_profile("ci-second", parent=settings.get_profile("ci"), max_examples=200)
settings.register_profile("dev", max_examples=100, deadline=None)
# Mutation testing runs the suite once per mutant: fewer examples, the same ones every run.
settings.register_profile(
    "mutation", derandomize=True, max_examples=50, deadline=None, database=None
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

# The headless browser (tests/browser.py): any test may ask for `browser_page`.
from tests.browser import browser_page, chromium  # noqa: E402, F401
