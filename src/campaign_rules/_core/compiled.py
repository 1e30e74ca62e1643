"""Which build runs: the one compiled with mypyc, or the pure-Python one (D-compiled-build).

A module compiled with mypyc is an extension module, and so is its `__file__`; this module is
compiled exactly when the rest of the hot path is (setup.py), so its own file tells the build.
"""

from __future__ import annotations

import importlib.machinery
from typing import Final

__all__ = ["COMPILED"]

#: Whether this is the build compiled with mypyc, rather than the pure-Python one.
COMPILED: Final[bool] = __file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
