"""The tests. Every way of running them (pytest on `tests/`, on the README, on the site's pages)
imports this package first.
"""

import os

# The command line colours its text when FORCE_COLOR asks, even in a pipe (D-cli-colour); the
# tests read that text, so no run inherits the variable (`tests/test_cli_colour.py` sets it).
os.environ.pop("FORCE_COLOR", None)
