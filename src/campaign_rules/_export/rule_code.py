"""The code that decides verdicts, as the rule set's fingerprint reads it (D-ruleset).

The modules that decide a verdict are the entry modules that give verdicts (`ENTRY_MODULES`)
and every module of the package they import, directly or through others, up to the modules
that only show verdicts (`SHOWING_MODULES`), which are not followed. Imports are read from the
source, so a module added to the rules is counted the day it is imported, with no list to keep.

Each module is read as the `.py` file the package ships, through the package's resources: both
builds ship it (the compiled one beside its extension module, which `inspect` cannot read), so
both give one answer (tests/test_builds.py). A module is hashed in a normal form, its syntax
tree without positions, comments or docstrings: reformatting it, or rewording a comment or a
docstring, decides no verdict and keeps its digest; any change of its code changes it.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from collections.abc import Iterator
from importlib import resources
from importlib.resources.abc import Traversable

__all__ = ["ENTRY_MODULES", "SHOWING_MODULES", "code_digests", "deciding_modules", "normal_form"]

PACKAGE = "campaign_rules"
# The modules whose public functions give verdicts: validation, the request, response,
# idempotency, lifecycle and rate checks, the audit's reading of a line, and the rule table.
ENTRY_MODULES = (
    "campaign_rules._validate",
    "campaign_rules.requests",
    "campaign_rules.responses",
    "campaign_rules.idempotency",
    "campaign_rules.lifecycle",
    "campaign_rules.rate",
    "campaign_rules._audit",
    "campaign_rules._rules.table",
)
# Modules that print, export or generate, and the package's front (its version is the ruleset's
# own field): no verdict is decided there, and the walk stops at them.
SHOWING_MODULES = (
    "campaign_rules._cli",
    "campaign_rules._export",
    "campaign_rules.strategies",
    "campaign_rules._audit.report",
    "campaign_rules.schema",
    "campaign_rules.audit",
    "campaign_rules.dask",
    "campaign_rules.__main__",
)


def _source_file(module: str) -> Traversable | None:
    """The shipped `.py` file of `module` of the package, or `None` when there is none."""
    parts = module.split(".")[1:]
    root = resources.files(PACKAGE)
    if parts:
        plain = root.joinpath(*parts[:-1], f"{parts[-1]}.py")
        if plain.is_file():
            return plain
    package = root.joinpath(*parts, "__init__.py")
    return package if package.is_file() else None


def _read(module: str) -> str:
    """The source text of `module`; a `LookupError` naming it when the package lacks its file."""
    found = _source_file(module)
    if found is None:
        raise LookupError(f"{module}: no source file in the installed package")
    return found.read_text(encoding="utf-8")


def _is_shown_only(module: str) -> bool:
    return module == PACKAGE or any(
        module == name or module.startswith(f"{name}.") for name in SHOWING_MODULES
    )


def _imported(module: str, tree: ast.Module) -> set[str]:
    """The modules of the package that `module`'s source imports, anywhere in it."""
    found: set[str] = set()
    for node in _statements(tree.body):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if _in_package(alias.name))
        elif isinstance(node, ast.ImportFrom) and node.module and _in_package(node.module):
            for alias in node.names:
                # `from campaign_rules._rules import body` imports the module `body`.
                named = f"{node.module}.{alias.name}"
                found.add(named if _source_file(named) is not None else node.module)
    return found


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of `body`, and of the blocks within it, at any depth.

    An import is a statement: only the blocks of statements are walked, not the expressions,
    which are most of a tree's nodes.
    """
    for node in body:
        yield node
        for block in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(node, block, None)
            if isinstance(inner, list):
                for item in inner:
                    if isinstance(item, ast.stmt):
                        yield from _statements([item])
                    else:  # an `except` clause or a `case`: a block of statements of its own
                        yield from _statements(getattr(item, "body", []))


def _in_package(name: str) -> bool:
    return name == PACKAGE or name.startswith(f"{PACKAGE}.")


def _with_parents(module: str) -> list[str]:
    """`module` and the packages Python runs before it, but the package's front."""
    parts = module.split(".")
    return [".".join(parts[:end]) for end in range(2, len(parts) + 1)]


@functools.cache
def deciding_modules() -> tuple[str, ...]:
    """The modules that decide a verdict, by dotted name, sorted: see the module's docstring."""
    seen: set[str] = set()
    waiting = list(ENTRY_MODULES)
    while waiting:
        module = waiting.pop()
        if module in seen or _is_shown_only(module):
            continue
        seen.add(module)
        tree = ast.parse(_read(module))
        for name in _imported(module, tree):
            waiting.extend(_with_parents(name))
        waiting.extend(_with_parents(module))
    return tuple(sorted(seen))


@functools.cache
def code_digests() -> dict[str, str]:
    """The SHA-256 (hex) of each deciding module's normal form, by module name."""
    return {
        module: hashlib.sha256(normal_form(_read(module)).encode("utf-8")).hexdigest()
        for module in deciding_modules()
    }


def normal_form(source: str) -> str:
    """Python source as its syntax tree without positions, comments or docstrings, as text.

    Fields left empty (`None`, `[]`) are left out, so the form is the same under Pythons whose
    trees differ only by such fields (3.12's `type_params`).
    """
    return _dump(ast.parse(source))


_HOLDS_DOCSTRING = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _dump(node: object) -> str:
    if isinstance(node, list):
        return f"[{','.join(_dump(item) for item in node)}]"
    if not isinstance(node, ast.AST):
        return repr(node)
    fields = []
    for name in node._fields:
        value: object = getattr(node, name, None)
        if isinstance(node, _HOLDS_DOCSTRING) and name == "body" and _has_docstring(node.body):
            value = node.body[1:]
        if value is None or (isinstance(value, list) and not value):
            continue
        fields.append(f"{name}={_dump(value)}")
    return f"{type(node).__name__}({','.join(fields)})"


def _has_docstring(body: list[ast.stmt]) -> bool:
    first = body[0] if body else None
    return (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )
