"""Which build runs: the one compiled with mypyc, or the pure-Python one (D-compiled-build).

A module compiled with mypyc is an extension module, and so is its `__file__`. The compiled
build compiles this module with the others setup.py lists as compiled, so its own file tells
the build; tests/test_builds.py checks each module of both builds against that list.
"""

from __future__ import annotations

import importlib.machinery
from typing import Final

__all__ = ["COMPILED"]

#: Whether this is the build compiled with mypyc, rather than the pure-Python one.
COMPILED: Final[bool] = __file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
