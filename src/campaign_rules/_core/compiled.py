"""Which build runs: the one compiled with mypyc, or the pure-Python one (D-compiled-build).

A module compiled with mypyc is an extension module, and so is its `__file__`. The compiled
build compiles this module with the others setup.py lists as compiled, so its own file tells
the build; tests/test_builds.py checks each module of both builds against that list.
"""

from __future__ import annotations

import importlib.machinery
from collections.abc import Callable
from typing import Final, TypeVar

try:
    # What mypyc reads to lay out a native class (it never calls it); mypy_extensions comes
    # with mypy, which compiles the package, and an installed build may lack it.
    from mypy_extensions import mypyc_attr
except ImportError:
    _Class = TypeVar("_Class", bound=type)

    def mypyc_attr(**_: object) -> Callable[[_Class], _Class]:  # type: ignore[misc]
        """The class as it is: outside mypyc, its attributes mean nothing."""
        return lambda cls: cls


__all__ = ["COMPILED", "mypyc_attr"]

#: Whether this is the build compiled with mypyc, rather than the pure-Python one.
COMPILED: Final[bool] = __file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
