"""Every name a docstring, comment or page gives in backticks for a part of this project exists.

A reorganisation that moves a module leaves its old name behind in prose; nothing fails on it.
This test reads the backticked names in the Python sources (docstrings, comments and strings
alike), in `README.md` and in the Markdown pages of `docs/` and `benchmarks/`, picks those that
name a part of this project, and resolves each one:

- a dotted name from the package (`campaign_rules.schema.catalogue`, `_core.limits.WHITESPACE`,
  `_rules.validation`): the longest prefix that imports as a module, then each further part as
  an attribute; a name that starts with a private subpackage or module (`_core`, `_rules`) is
  read from the package root or from one of its subpackages;
- an attribute of a class of the package (`Document.sites_clean`, `CreateResult.envelope()`);
- a private name on its own (`_convert`, `_read_enabled_cycles`): a module of the package, or a
  name the file that writes it defines;
- a path (`_core/limits.py`, `src/campaign_rules/_rules/`, `tests/cases/<rule>.json`): a file or
  folder of the repository, or of the package for a path that starts with a private subpackage.

The changelog is history and names what no longer exists on purpose; it is not read.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

import campaign_rules
from campaign_rules.schema import catalogue

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "campaign_rules"
# Where a reader meets prose about the project: its Python sources and its Markdown pages.
PYTHON_FOLDERS = ("src", "tests", "benchmarks", "examples", "scripts", "fuzz")
# The pages written by hand: the ones the site's build writes beside them from the code (the
# rule pages, traceability, listed in docs/.gitignore) name what the code holds, private
# functions included, and may lie on disk after a build.
_BUILT_PAGES = (
    ROOT / "docs" / "rules",
    ROOT / "docs" / "_build",
    ROOT / "docs" / "traceability.md",
)
PAGES = (
    ROOT / "README.md",
    *sorted(
        path
        for path in (ROOT / "docs").rglob("*.md")
        if not any(path == built or built in path.parents for built in _BUILT_PAGES)
    ),
    *sorted((ROOT / "benchmarks").glob("*.md")),
)
# The top of the repository: a path that starts with one of these is a path of the repository.
TOP = frozenset(path.name for path in ROOT.iterdir() if not path.name.startswith(".git"))
# Written as a path, but made at run time (or by a tool) and never committed.
MADE_AT_RUN_TIME = (
    "benchmarks/.data/",
    "mutants/",
    "fuzz/artifacts/",
    ".venv/",
    "schema/",
    "docs/_build/",  # the built site
    "rules/index",  # the site's rule pages, which docs/_ext/rule_pages.py writes at build time
    "rules/<",
)

TICKED = re.compile(r"`([^`\n]+)`")
DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?:\(\))?")
PRIVATE = re.compile(r"_[a-z][a-z0-9_]*")
PATH = re.compile(r"[A-Za-z0-9_.<>*-]+(?:/[A-Za-z0-9_.<>*-]*)+")
# A mutant's name, as mutmut writes it: `module.x_function__mutmut_3` for `module.function`.
MUTANT = re.compile(r"(?P<module>.+)\.x_(?P<function>\w+?)__mutmut_\d+")


def sources() -> Iterator[Path]:
    for folder in PYTHON_FOLDERS:
        yield from sorted(
            path
            for path in (ROOT / folder).rglob("*.py")
            if "node_modules" not in path.parts and path != Path(__file__).resolve()
        )
    yield ROOT / "setup.py"
    yield from PAGES


def package_modules() -> dict[str, str]:
    """The package's modules by their full name, and each private one by its last part."""
    names = {"campaign_rules": "campaign_rules"}
    for module in pkgutil.walk_packages(campaign_rules.__path__, "campaign_rules."):
        names[module.name] = module.name
    return names


MODULES = package_modules()
SUBPACKAGES = sorted(
    name for name in MODULES if name.count(".") == 1 and (PACKAGE / name.split(".")[1]).is_dir()
)


# A subpackage by its name, and `rules`, the name `_rules` had until 0.2.0 (D-private-rules).
SUBPACKAGE_NAMES = frozenset({*(package.split(".")[1] for package in SUBPACKAGES), "rules"})


def package_classes() -> dict[str, list[type]]:
    """Every class a module of the package defines, by its name."""
    found: dict[str, list[type]] = {}
    for name in MODULES:
        if name.endswith("__main__"):
            continue
        module = importlib.import_module(name)
        for value in vars(module).values():
            if inspect.isclass(value) and value.__module__ == name:
                found.setdefault(value.__name__, []).append(value)
    return found


CLASSES = package_classes()
RULE_IDS = frozenset(info.id for info in catalogue())


def resolves_dotted(name: str) -> bool:
    """Whether a dotted name of the package names a module, or an attribute of one."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        if module_name not in MODULES:
            continue
        value: object = importlib.import_module(module_name)
        for part in parts[cut:]:
            if not has_attribute(value, part):
                return False
            value = getattr(value, part, None)
        return True
    return False


def module_source(module: str) -> str:
    """The source of a module of the package, read from `src/`: a compiled build has none."""
    path = PACKAGE.joinpath(*module.split(".")[1:])
    file = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    return file.read_text(encoding="utf-8")


def has_attribute(value: object, name: str) -> bool:
    with warnings.catch_warnings():
        # A name the root keeps only for 0.1.0's users warns: prose names its new home.
        warnings.simplefilter("error", DeprecationWarning)
        try:
            if hasattr(value, name):
                return True
        except DeprecationWarning:
            return False
    if not inspect.isclass(value):
        return False
    # A field of a class without slots, or of a protocol, is an annotation; an attribute that
    # `__init__` sets is only in the source.
    if attrs.has(value) and name in attrs.fields_dict(value):
        return True
    for base in value.__mro__:
        if name in getattr(base, "__annotations__", {}) or name in getattr(base, "__slots__", ()):
            return True
        if base.__module__.startswith("campaign_rules") and re.search(
            rf"\bself\.{name}\b\s*[:=]", module_source(base.__module__)
        ):
            return True
    return False


def candidates(name: str) -> list[str]:
    """The full names a dotted name of the package may stand for."""
    if name.startswith("campaign_rules."):
        return [name]
    # `_core.limits`, `_rules.validation`: a subpackage, from the root; `_limits`, `limits`,
    # `validation`: a module of a subpackage.
    return [f"campaign_rules.{name}"] + [f"{package}.{name}" for package in SUBPACKAGES]


def defines(text: str, name: str) -> bool:
    """Whether the Python source `text` defines or imports `name` anywhere in it."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name == name:
                return True
        elif isinstance(node, ast.Name | ast.arg):
            if getattr(node, "id", getattr(node, "arg", None)) == name:
                return True
        elif isinstance(node, ast.alias):
            if (node.asname or node.name.split(".")[-1]) == name:
                return True
        elif isinstance(node, ast.Attribute) and node.attr == name:
            return True
    return False


FILE_NAMES = frozenset(path.name for path in sources())


def path_exists(written: str) -> bool:
    """Whether a path names a file or folder of the repository, or of the package."""
    path = written.rstrip("/")
    for base in (ROOT, PACKAGE):
        if "<" in path or "*" in path:
            if any(base.glob(re.sub(r"<[^>]*>", "*", path))):
                return True
        elif (base / path).exists() or (base / f"{path}.py").exists():
            return True
    return False


def is_path_of_the_project(written: str) -> bool:
    if written.startswith(MADE_AT_RUN_TIME) or "://" in written:
        return False
    return written.split("/")[0] in TOP | SUBPACKAGE_NAMES


def dangling(text: str, is_python: bool) -> Iterator[str]:
    """The backticked names of the project in `text` that name nothing."""
    for match in TICKED.finditer(text):
        written = match.group(1).strip()
        if " " in written or "{" in written:
            continue
        if re.fullmatch(r"_[a-z0-9_]+\.py", written):  # a file name alone: `_common.py`
            if written not in FILE_NAMES:
                yield written
            continue
        if PATH.fullmatch(written):
            if is_path_of_the_project(written) and not path_exists(written):
                yield written
            continue
        if DOTTED.fullmatch(written):
            name = written.removesuffix("()")
            mutant = MUTANT.fullmatch(name)
            if mutant:
                name = f"{mutant['module']}.{mutant['function']}"
            first, _, rest = name.partition(".")
            if name in RULE_IDS:
                continue
            if first == "campaign_rules" or first.startswith("_") or first in SUBPACKAGE_NAMES:
                if not any(resolves_dotted(full) for full in candidates(name)):
                    yield written
            elif first in CLASSES:
                attribute = rest.split(".")[0]
                if not any(has_attribute(cls, attribute) for cls in CLASSES[first]):
                    yield written
            continue
        if PRIVATE.fullmatch(written):
            if any(full.rsplit(".", 1)[-1] == written for full in MODULES):
                continue
            if is_python and defines(text, written):
                continue
            yield written


@pytest.mark.parametrize("path", list(sources()), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_backticked_name_of_the_project_exists(path: Path) -> None:
    found = sorted(set(dangling(path.read_text(encoding="utf-8"), path.suffix == ".py")))
    assert not found, f"{path.relative_to(ROOT)} names what does not exist: {found}"


@pytest.mark.parametrize(
    "written",
    [
        "`_convert`",
        "`_build.build_campaign`",
        "`rules.validation`",
        "`_limits.WHITESPACE`",
        "`campaign_rules._rules.table.NO_SUCH_NAME`",
        "`Document.no_such_attribute`",
        "`_core/no_such_module.py`",
        "`src/campaign_rules/rules/`",
        "`rules/lifecycle.py`",
        "`campaign_rules.TRANSITIONS`",
        "`campaign_rules._rules.shape.x_no_such_rule__mutmut_1`",
    ],
)
def test_a_name_that_does_not_exist_is_found(written: str) -> None:
    assert list(dangling(f"Read {written} first.", is_python=False)) == [written.strip("`")]


@pytest.mark.parametrize(
    "written",
    [
        "`_core.limits.WHITESPACE`",
        "`campaign_rules.schema.catalogue()`",
        "`_rules.validation`",
        "`Document.sites_clean`",
        "`CreateResult.envelope()`",
        "`_core/limits.py`",
        "`strategies/`",
        "`src/campaign_rules/_rules/`",
        "`tests/cases/<rule>.json`",
        "`retries.within_bounds`",
        "`_wire`",
        "`campaign_rules._rules.shape.x_known_members_only__mutmut_22`",
    ],
)
def test_a_name_that_exists_is_not_found(written: str) -> None:
    assert list(dangling(f"Read {written} first.", is_python=False)) == []


def test_the_root_docstring_lists_every_public_module() -> None:
    public = {
        f"campaign_rules.{path.stem if path.is_file() else path.name}"
        for path in PACKAGE.iterdir()
        if not path.name.startswith("_")
        and (path.suffix == ".py" or (path / "__init__.py").is_file())
    }
    listed = set(re.findall(r"^- `(campaign_rules\.\w+)`", campaign_rules.__doc__ or "", re.M))
    assert listed == public
