"""Build campaign-rules: compiled with mypyc where it can be, pure Python where it cannot.

`pip install .` and wheels compile the modules below with mypyc (decision D-compiled-build).
The pure-Python build, from the very same source, is what you get:

- with `CAMPAIGN_RULES_PURE_PYTHON=1` in the environment (any value but empty or `0`);
- on a Python other than CPython, or where no C compiler can build an extension against this
  Python's headers (checked first, by compiling a few lines that include `Python.h`);
- from an editable install (`pip install -e .`), which runs the source tree as it is.

The project's metadata is in pyproject.toml; this file only chooses the extension modules.
`INTERPRETED` below is the one list of what the compiled build leaves interpreted; every other
module of the package is compiled. tests/test_builds.py loads this file (it builds nothing
unless run as a script) and checks both builds against `compiled_modules()`.
"""

from __future__ import annotations

import os
import platform
import shutil
import sys
import tempfile
from pathlib import Path

PURE_SWITCH = "CAMPAIGN_RULES_PURE_PYTHON"
ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "campaign_rules"
# Left interpreted: modules by path inside the package, and folders (D-compiled-build). The one
# list: the tests, the documentation and the sources derive from it, and none repeats it.
INTERPRETED = (
    "__init__.py",  # the PEP 562 `__getattr__` of the root's names and of the moved ones
    "__main__.py",
    "_validate.py",  # `validate_create`, `validate_update`: public, with docstrings and any types
    "_cli/",  # argparse and printing: not on the path of a request
    "_export/",  # the catalogue and the JSON Schema, made once from the tables
    "_diff/",  # `campaign-rules diff`: drives other versions, draws Hypothesis bodies
    "_audit/report.py",  # the audit's HTML report, written once per audit
    "strategies/",  # Hypothesis strategies for tests
    "_wire/convert.py",  # the cattrs converter
    # Public attrs value objects: cattrs reads their annotations, and they stay plain classes.
    "_campaign/directory.py",  # the public `Directory` protocol, with its docstrings
    "_campaign/models.py",
    "_campaign/results.py",
    "_core/outcome.py",
    "_core/violations.py",
    "_server/lifecycle.py",
    "_server/paths.py",
    "_wire/models.py",
    "_wire/reading.py",  # an attrs class with a field of any type (`value: object`)
    "audit.py",  # public modules, with their docstrings; the audit's work per line is _audit's
    "dask.py",
    "idempotency.py",
    "lifecycle.py",
    "rate.py",
    "requests.py",
    "responses.py",
    "schema.py",
)
# setup.py commands that build the package's code (not merely read its metadata).
_BUILDS = {"bdist_wheel", "build", "build_ext", "install"}


def wants_pure_python() -> bool:
    """Whether the environment asks for the pure-Python build."""
    return os.environ.get(PURE_SWITCH, "") not in ("", "0")


# Calls made directly, on compilers that take these (GCC, Clang): `-fvisibility=hidden` exports
# only the modules' `PyInit_` functions (mypyc's modules reach each other through capsules), so
# the extension's calls to its own functions no longer go through the PLT, nor may they be
# interposed, which lets the compiler inline them; `-fno-plt` calls libpython through the GOT
# without the PLT's jump. About 4.6 % fewer instructions an invalid small body and 5.0 % a
# valid one (callgrind, issue 22, benchmarks/RESULTS.md step 17).
DIRECT_CALL_FLAGS = ("-fvisibility=hidden", "-fno-plt")


def compile_flags() -> list[str] | None:
    """The extra flags the C compiler here takes: `DIRECT_CALL_FLAGS` or none.

    `None` when no C compiler builds an extension against this Python's headers at all.
    """
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext

    command = build_ext(Distribution())
    command.finalize_options()
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch, "probe.c")
        source.write_text("#include <Python.h>\nint probe(void) { return Py_IsInitialized(); }\n")
        try:
            from distutils.ccompiler import new_compiler
            from distutils.sysconfig import customize_compiler

            compiler = new_compiler()
            customize_compiler(compiler)
        except Exception as error:  # no compiler at all
            print(f"campaign-rules: no usable C compiler ({error}): pure-Python build")
            return None
        for flags in ([*DIRECT_CALL_FLAGS], []):
            try:
                compiler.compile(
                    [str(source)],
                    output_dir=scratch,
                    include_dirs=command.include_dirs,
                    extra_postargs=flags,
                )
            except Exception as error:  # no headers, a compiler that fails or refuses a flag
                failure = error
                continue
            return flags
    print(f"campaign-rules: no usable C compiler ({failure}): pure-Python build")
    return None


def compiled_paths() -> list[str]:
    """The modules mypyc compiles, as paths relative to the project root."""
    return [
        path.relative_to(ROOT).as_posix()
        for path in sorted(PACKAGE.rglob("*.py"))
        if not path.relative_to(PACKAGE).as_posix().startswith(INTERPRETED)
    ]


def module_name(path: str) -> str:
    """The dotted name of the module at `path`, relative to the project root."""
    parts = Path(path).relative_to("src").with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def compiled_modules() -> list[str]:
    """The modules mypyc compiles, by their dotted names (`campaign_rules._core.json`)."""
    return [module_name(path) for path in compiled_paths()]


def extension_modules() -> list[object]:
    """The mypyc extensions of this build: none for the pure-Python build."""
    if not _BUILDS.intersection(sys.argv) or "editable_wheel" in sys.argv:
        return []
    # setuptools' scratch folder: an extension left there by an earlier build would go into
    # this one's wheel beside its source, even into a pure-Python one.
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    if wants_pure_python():
        print(f"campaign-rules: {PURE_SWITCH} is set: pure-Python build")
        return []
    if platform.python_implementation() != "CPython":
        print("campaign-rules: mypyc compiles for CPython only: pure-Python build")
        return []
    flags = compile_flags()
    if flags is None:
        return []
    from mypyc.build import mypycify

    extensions = mypycify(
        [*compiled_paths(), "--config-file", str(ROOT / "pyproject.toml")],
        opt_level="3",
        debug_level="0",
        group_name="campaign_rules",
    )
    for extension in extensions:
        extension.extra_compile_args = [*extension.extra_compile_args, *flags]
    return extensions


# setuptools runs this file as `__main__`, both from `pip install` (its PEP 517 backend) and as
# `python setup.py`; imported under another name, it only defines the lists above.
if __name__ == "__main__":
    from setuptools import setup

    setup(ext_modules=extension_modules())
