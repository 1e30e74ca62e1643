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

Reading a module's tree is most of the fingerprint's cost, so what it gives (the module's
imports and its digest) is stored beside this module (`STORED`, written by
`scripts/regenerate.py`) with the SHA-256 of the source it was read from: a run hashes each
module's bytes and reads the tree only of a module whose bytes are not the stored ones (an
edited source, a patched install), so the answer is the source's whatever the stored file says.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
from collections.abc import Callable, Iterator
from importlib import resources
from importlib.resources.abc import Traversable
from typing import NamedTuple

__all__ = [
    "ENTRY_MODULES",
    "SHOWING_MODULES",
    "STORED",
    "ModuleCode",
    "code_digests",
    "deciding_modules",
    "normal_form",
    "read_code",
    "render_stored",
    "stored_code",
]

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
# The stored code of the deciding modules, in the package beside this module.
STORED = "rule_code.json"


class ModuleCode(NamedTuple):
    """What the fingerprint reads of one module's source.

    `source` is the SHA-256 (hex) of the file's bytes; `imports`, the package's modules its
    statements import, sorted: `"campaign_rules._core.json"` for a module named as one, and
    `"campaign_rules._rules:body"` for a name imported from one (the module `body` when the
    package ships its file, else a name of `campaign_rules._rules`); `digest`, the SHA-256
    (hex) of its normal form.
    """

    source: str
    imports: tuple[str, ...]
    digest: str


def read_code(source: bytes) -> ModuleCode:
    """The `ModuleCode` of a module's source, read from its syntax tree."""
    tree = ast.parse(source)
    return ModuleCode(
        source=_sha256(source),
        imports=tuple(sorted(_import_names(tree))),
        digest=_sha256(_dump(tree).encode("utf-8")),
    )


@functools.cache
def stored_code() -> dict[str, ModuleCode]:
    """The stored `ModuleCode` of each deciding module, by name; none if the file is absent."""
    file = resources.files(PACKAGE).joinpath("_export", STORED)
    if not file.is_file():
        return {}
    data = json.loads(file.read_text(encoding="utf-8"))
    return {
        module: ModuleCode(entry["source"], tuple(entry["imports"]), entry["digest"])
        for module, entry in data.items()
    }


def render_stored() -> str:
    """The text of the stored file: each deciding module's code read from its source now."""
    code = _walk(lambda module: read_code(_read(module)))
    data = {module: item._asdict() for module, item in sorted(code.items())}
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


@functools.cache
def deciding_modules() -> tuple[str, ...]:
    """The modules that decide a verdict, by dotted name, sorted: see the module's docstring."""
    return tuple(sorted(_known_code()))


@functools.cache
def code_digests() -> dict[str, str]:
    """The SHA-256 (hex) of each deciding module's normal form, by module name."""
    return {module: code.digest for module, code in sorted(_known_code().items())}


@functools.cache
def _known_code() -> dict[str, ModuleCode]:
    """Each deciding module's code: the stored one where its source is the stored source."""
    stored = stored_code()

    def code_of(module: str) -> ModuleCode:
        source = _read(module)
        known = stored.get(module)
        return known if known is not None and known.source == _sha256(source) else read_code(source)

    return _walk(code_of)


def _walk(code_of: Callable[[str], ModuleCode]) -> dict[str, ModuleCode]:
    """The code of each module the entry modules reach, up to the showing ones, by name."""
    found: dict[str, ModuleCode] = {}
    waiting = list(ENTRY_MODULES)
    while waiting:
        module = waiting.pop()
        if module in found or _is_shown_only(module):
            continue
        code = found[module] = code_of(module)
        for name in code.imports:
            waiting.extend(_with_parents(_imported_module(name)))
        waiting.extend(_with_parents(module))
    return found


def _source_file(module: str) -> str | None:
    """The path in the package of the shipped `.py` file of `module`, or `None` without one."""
    parts = module.split(".")[1:]
    plain = "/".join([*parts[:-1], f"{parts[-1]}.py"]) if parts else None
    package = "/".join([*parts, "__init__.py"])
    shipped = _shipped_sources()
    return plain if plain in shipped else package if package in shipped else None


@functools.cache
def _shipped_sources() -> frozenset[str]:
    """The path in the package of every `.py` file it ships, as `"_rules/body.py"`.

    Listed once: asking the resources whether each imported name is a module's file costs a
    path's parsing a name, a few hundred a walk.
    """
    found: set[str] = set()
    waiting: list[tuple[Traversable, str]] = [(resources.files(PACKAGE), "")]
    while waiting:
        folder, prefix = waiting.pop()
        for entry in folder.iterdir():
            if entry.is_dir():
                if entry.name != "__pycache__":
                    waiting.append((entry, f"{prefix}{entry.name}/"))
            elif entry.name.endswith(".py"):
                found.add(f"{prefix}{entry.name}")
    return frozenset(found)


def _read(module: str) -> bytes:
    """The source of `module`; a `LookupError` naming it when the package lacks its file."""
    found = _source_file(module)
    if found is None:
        raise LookupError(f"{module}: no source file in the installed package")
    return resources.files(PACKAGE).joinpath(*found.split("/")).read_bytes()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _is_shown_only(module: str) -> bool:
    return module == PACKAGE or any(
        module == name or module.startswith(f"{name}.") for name in SHOWING_MODULES
    )


def _import_names(tree: ast.Module) -> set[str]:
    """The package's names that the statements of `tree` import, anywhere in it (`ModuleCode`)."""
    found: set[str] = set()
    for node in _statements(tree.body):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if _in_package(alias.name))
        elif isinstance(node, ast.ImportFrom) and node.module and _in_package(node.module):
            found.update(f"{node.module}:{alias.name}" for alias in node.names)
    return found


def _imported_module(name: str) -> str:
    """The module an import name of `ModuleCode.imports` imports."""
    module, _, member = name.partition(":")
    # `from campaign_rules._rules import body` imports the module `body` when there is one.
    named = f"{module}.{member}"
    return named if member and _source_file(named) is not None else module


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
