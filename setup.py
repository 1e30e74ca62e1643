"""Build campaign-rules: compiled with mypyc where it can be, pure Python where it cannot.

`pip install .` and wheels compile the modules below with mypyc (decision D-compiled-build).
The pure-Python build, from the very same source, is what you get:

- with `CAMPAIGN_RULES_PURE_PYTHON=1` in the environment (any value but empty or `0`);
- on a Python other than CPython, or where no C compiler can build an extension against this
  Python's headers (checked first, by compiling a few lines that include `Python.h`);
- from an editable install (`pip install -e .`), which runs the source tree as it is.

Where the C compiler is GCC, the extension is compiled twice: instrumented, trained on the
package's own workload, then with the counts the training wrote (D-pgo; `CAMPAIGN_RULES_NO_PGO=1`
compiles it once).

The project's metadata is in pyproject.toml; this file only chooses the extension modules and
how they are compiled.
`INTERPRETED` below is the one list of what the compiled build leaves interpreted; every other
module of the package is compiled. tests/test_builds.py loads this file (it builds nothing
unless run as a script) and checks both builds against `compiled_modules()`.
"""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PURE_SWITCH = "CAMPAIGN_RULES_PURE_PYTHON"
PGO_SWITCH = "CAMPAIGN_RULES_NO_PGO"
ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "campaign_rules"
# Left interpreted: modules by path inside the package, and folders (D-compiled-build). The one
# list: the tests, the documentation and the sources derive from it, and none repeats it.
INTERPRETED = (
    "__init__.py",  # the PEP 562 `__getattr__` of the root's names and of the moved ones
    "__main__.py",
    "_validate.py",  # `validate_create`, `validate_update`: public, with docstrings and any types
    "_cli/",  # argparse and printing: not on the path of a request
    "_conformance/",  # the conformance kit: its export, executor and runner are tools
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
            compiler = c_compiler()
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


def c_compiler() -> Any:
    """The C compiler this Python builds extensions with, set up as setuptools sets it up."""
    from distutils.ccompiler import new_compiler
    from distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    return compiler


def wants_profile_guided() -> bool:
    """Whether the compiled build is trained and compiled again (D-pgo): not when switched off."""
    return os.environ.get(PGO_SWITCH, "") in ("", "0")


def is_gcc(command: list[str]) -> bool:
    """Whether the C compiler run as `command` is GCC, whose profile files are read as written.

    Clang takes the same `-fprofile-generate` but must merge its profiles with a tool of its
    own first; Apple's `gcc` is Clang.
    """
    try:
        done = subprocess.run([command[0], "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0 and "Free Software Foundation" in done.stdout


@contextlib.contextmanager
def training_folder() -> Iterator[Path]:
    """A scratch folder of the build's own, made in the temporary directory, for the training.

    It is removed on the way out, whatever ends the block: an error, Ctrl-C, or SIGTERM, which
    Python's default would end the process on at once, leaving the folder. While the block
    runs, SIGTERM raises `SystemExit` (status 143, as the signal's default gives), so the
    folder is removed and `subprocess.run` kills the training's process on the way out;
    outside the main thread, where no handler can be set, SIGTERM is left as it is.
    """
    handles = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _exit_on_signal) if handles else None
    try:
        scratch = Path(tempfile.mkdtemp(prefix="campaign-rules-pgo-"))
        try:
            yield scratch
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    finally:
        if handles:
            # `None`: the handler before was not set from Python; the default is restored.
            signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _profile_guided_build_ext() -> type:
    """The `build_ext` of setuptools, compiling the extension twice: trained, then with a profile.

    Made when the compiled build runs, so that reading this file needs no setuptools.
    """
    from setuptools.command.build_ext import build_ext

    class ProfileGuidedBuildExt(build_ext):  # type: ignore[misc, valid-type]
        """Profile-guided optimisation with GCC (D-pgo), or the one plain compile elsewhere.

        The extension is compiled with GCC's instrumentation into a scratch folder of the
        build's own, beside a copy of the package's source; `campaign_rules._conformance.
        training.train` runs in a fresh interpreter over it; then the extension is compiled
        again, into the build, with the counts it wrote. When anything of this fails, it says
        so in one line and the extension is compiled once, without a profile: never a failed
        install for want of an optimisation.
        """

        def run(self) -> None:
            command = getattr(c_compiler(), "compiler_so", None) or ["cc"]
            if not (self.extensions and wants_profile_guided() and is_gcc(command)):
                super().run()
                return
            with training_folder() as scratch:
                self._compile(self._trained(scratch))

        def _trained(self, scratch: Path) -> list[str]:
            """The flags that compile with the profile the training wrote; `[]` when none."""
            profiles = scratch / "profiles"
            instrumented = scratch / "lib"
            generate = ["-fprofile-generate", f"-fprofile-dir={profiles}"]
            build_lib, inplace = self.build_lib, self.inplace
            try:
                self.build_lib, self.inplace = str(instrumented), False
                self._compile(generate, link=["-fprofile-generate"])
            except Exception as error:
                print(f"campaign-rules: the instrumented build failed ({error}): one plain compile")
                return []
            finally:
                self.build_lib, self.inplace = build_lib, inplace
            try:
                done = self._train(instrumented)
            except (OSError, subprocess.SubprocessError) as error:
                print(f"campaign-rules: training failed ({error}): one plain compile")
                return []
            if done.returncode != 0:
                reason = (done.stderr.strip().splitlines() or ["no message"])[-1]
                print(f"campaign-rules: training failed ({reason}): one plain compile")
                return []
            print(f"campaign-rules: trained on {done.stdout.strip()} bodies (D-pgo)")
            # `-Wno-missing-profile`: a module the workload never imports has no counts, and
            # mypyc compiles with `-Werror`.
            return [
                "-fprofile-use",
                f"-fprofile-dir={profiles}",
                "-fprofile-correction",
                "-Wno-missing-profile",
            ]

        def _train(self, instrumented: Path) -> subprocess.CompletedProcess[str]:
            """Run the workload over the instrumented build in `instrumented`, in a new process."""
            # The package's modules beside the extension (which an import prefers to them), its
            # data files read through symbolic links, as a wheel holds them; no extension or
            # bytecode a build in place may have left in the source.
            shutil.copytree(
                PACKAGE,
                instrumented / "campaign_rules",
                dirs_exist_ok=True,
                ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
            )
            path = os.pathsep.join(filter(None, [str(instrumented), os.environ.get("PYTHONPATH")]))
            return subprocess.run(
                [sys.executable, "-c", _TRAINING],
                env={**os.environ, "PYTHONPATH": path, "PYTHONHASHSEED": "0"},
                capture_output=True,
                text=True,
                timeout=600,
            )

        def _compile(self, flags: list[str], link: list[str] | None = None) -> None:
            """Compile every extension with `flags` added, and `link` at the link."""
            saved = [(ext.extra_compile_args, ext.extra_link_args) for ext in self.extensions]
            # `run` replaces the compiler's name (or `None`) by the compiler it made: given again.
            compiler = self.compiler
            for ext in self.extensions:
                ext.extra_compile_args = [*ext.extra_compile_args, *flags]
                ext.extra_link_args = [*ext.extra_link_args, *(link or [])]
            self.force = True  # the second compile is of the same files, with other flags
            try:
                super().run()
            finally:
                self.compiler = compiler
                for ext, (compile_args, link_args) in zip(self.extensions, saved, strict=True):
                    ext.extra_compile_args, ext.extra_link_args = compile_args, link_args

    return ProfileGuidedBuildExt


# Run by the training's interpreter; `train` refuses a build that is not compiled.
_TRAINING = "from campaign_rules._conformance.training import train; print(train())"


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

    extensions = extension_modules()
    setup(
        ext_modules=extensions,
        cmdclass={"build_ext": _profile_guided_build_ext()} if extensions else {},
    )
