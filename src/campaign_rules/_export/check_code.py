"""The code a rule's verdict is made by, read from the source tree, for the rule pages.

For a rule with a function: the function, then every function and class of the package it
calls, and what they call, down to the reader (`_rules.reader`), whose functions are named and
linked to its page rather than shown again. For a row: the keyword checks of its constraint
and of the rows it defers to (`_rules.keywords`), then what they call, the same way. Then, for
a rule that reads in some bodies only, the facts it reads in (`_rules.scope.When`), which decide
whether it runs: a fact no member holds by its test, a member fact as `_core.limits` declares
it. A function shown is followed by the
facts it reads that are declared as data (a `MemberIs`, and what it is made of, such as
`_core.limits.CYCLES_ENABLED`). The generic runner and plan (`_rules.runner`, `_rules.plan`)
are shown once, on the reader's page, not on every rule's. Read from the source files, so that
the compiled build, whose functions have no source, shows the same.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Any, Final

from campaign_rules._core import limits
from campaign_rules._core.limits import CYCLES_ENABLED
from campaign_rules._core.object_reading import MemberIs
from campaign_rules._rules import reader
from campaign_rules._rules.keywords import AllOf, Keyword, constraint_check, keyword_checks
from campaign_rules._rules.plan import RowCheck
from campaign_rules._rules.scope import Fact, is_fact
from campaign_rules._rules.table import Rule

__all__ = ["READER_NAMES", "Piece", "code_of", "declared_name"]

_SOURCE: Final = Path(__file__).resolve().parents[2]
_PACKAGE: Final = "campaign_rules"
# The reader's documented functions: named and linked on a rule's page, not shown again.
READER_NAMES: Final = frozenset(reader.__all__)
# The modules whose code is the generic machinery, counted once apart (issue 38 item 9).
_GENERIC: Final = frozenset({"campaign_rules._rules.runner", "campaign_rules._rules.plan"})


class Piece:
    """One function or class of the package a rule's check reaches: where, and its source.

    `declaration`: whether it is a value declared at the top of its module (a fact a gate
    tests, `MemberIs`, and what it is made of) rather than a function or a class.
    """

    __slots__ = ("declaration", "module", "name", "path", "source")

    def __init__(
        self, module: str, name: str, path: str, source: str, declaration: bool = False
    ) -> None:
        self.module = module
        self.name = name
        self.path = path
        self.source = source
        self.declaration = declaration


def code_of(rule: Rule[Any]) -> tuple[list[Piece], list[str]]:
    """The code `rule`'s verdict is made by, in reading order, and the reader's it calls."""
    pieces: list[Piece] = []
    readers: list[str] = []
    seen: set[tuple[str, str]] = set()
    if rule.constraint is None:
        _add(rule.check.__module__, rule.check.__name__, pieces, readers, seen)
    else:
        for keyword in _keywords_of(rule):
            cls = type(keyword)
            _add(cls.__module__, cls.__name__, pieces, readers, seen)
    # Its gate: the facts it reads in, which decide whether it runs at all, and a row's test of
    # the cycles block before it reads its members.
    tests_block = isinstance(rule.row, RowCheck) and rule.row.tests_block
    when = rule.when
    for fact in (*when.needs, *when.unless, *((CYCLES_ENABLED,) if tests_block else ())):
        if callable(fact):
            _add(fact.__module__, fact.__name__, pieces, readers, seen)
        else:  # told by the object reading's `MemberIs`, made of its data
            _add_declaration(limits.__name__, declared_name(fact), pieces, readers, seen)
    return pieces, readers


def declared_name(fact: Fact) -> str:
    """The name `_core.limits` declares the member fact `fact` by (`CYCLES_ENABLED`)."""
    return next(name for name, value in vars(limits).items() if is_fact(value, fact))


def _add_declaration(
    module: str, name: str, pieces: list[Piece], readers: list[str], seen: set[tuple[str, str]]
) -> None:
    """Add the module-level assignment of `name` in `module`, then the package's names it reads.

    A name imported from another module of the package is added where it is assigned there; a
    class of the package it reads (an enumeration, for its values), as `_add` adds one.
    """
    found = _module_source(module)
    if (module, name) in seen or found is None:
        return
    path, text = found
    for node in ast.parse(text).body:
        if (
            isinstance(node, ast.ImportFrom)
            and (node.module or "").startswith(_PACKAGE)
            and any((alias.asname or alias.name) == name for alias in node.names)
        ):
            _add_declaration(node.module or "", name, pieces, readers, seen)
            return
        if isinstance(node, ast.Assign | ast.AnnAssign) and name in _assigned_names(node):
            segment = ast.get_source_segment(text, node)
            if segment is None:
                return
            seen.add((module, name))
            where = str(path.relative_to(_SOURCE.parent))
            pieces.append(Piece(module, name, where, segment, declaration=True))
            namespace = vars(importlib.import_module(module))
            for read in _read_names(segment):
                target = namespace.get(read)
                if read == name or read not in namespace or target is MemberIs:
                    continue
                if isinstance(target, type):
                    _add(target.__module__, target.__name__, pieces, readers, seen)
                else:
                    _add_declaration(module, read, pieces, readers, seen)
            return


def _assigned_names(node: ast.Assign | ast.AnnAssign) -> list[str]:
    """The plain names an assignment at the top of a module assigns."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return [target.id for target in targets if isinstance(target, ast.Name)]


def _read_names(source: str) -> list[str]:
    """The plain names `source` reads, in order, once each."""
    names = [
        node.id
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    ]
    return list(dict.fromkeys(names))


def _keywords_of(rule: Rule[Any]) -> list[Keyword]:
    """The keyword checks a row's verdict runs: its own, its deferrals', as the plan joins them."""
    from campaign_rules._rules.table import CREATE_RULES

    by_id = {other.id: other for other in CREATE_RULES}
    constraints = [rule.constraint or {}]
    # The rows it defers to; a body rule it names has no keywords, and judges only a text.
    constraints += [by_id[name].constraint or {} for name in rule.defers_to if name in by_id]
    found: list[Keyword] = []
    for constraint in constraints:
        joined = constraint_check(constraint)
        found.append(joined)
        if isinstance(joined, AllOf):  # it calls each of its keywords' checks
            found += keyword_checks(constraint)
    return found


def _module_source(module: str) -> tuple[Path, str] | None:
    """The path and text of the source file of `module` of the package, if it has one."""
    path = _SOURCE.joinpath(*module.split(".")).with_suffix(".py")
    return (path, path.read_text(encoding="utf-8")) if path.is_file() else None


def _definition(module: str, name: str) -> tuple[str, str] | None:
    """The path and source of the top-level function or class `name` of `module`."""
    found = _module_source(module)
    if found is None:
        return None
    path, text = found
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == name:
            segment = ast.get_source_segment(text, node)
            if segment is not None:
                return str(path.relative_to(_SOURCE.parent)), segment
    return None


def _add(
    module: str,
    name: str,
    pieces: list[Piece],
    readers: list[str],
    seen: set[tuple[str, str]],
) -> None:
    """Add the definition `name` of `module`, then what it calls, depth first.

    Then the facts it reads that are declared as data (`MemberIs`), as `_add_declaration`
    adds them.
    """
    if (module, name) in seen or module in _GENERIC:
        return
    seen.add((module, name))
    found = _definition(module, name)
    if found is None:
        return
    path, source = found
    pieces.append(Piece(module, name, path, source))
    namespace = vars(importlib.import_module(module))
    for called in _called_names(source):
        target = namespace.get(called)
        if target is None:
            continue
        where = getattr(target, "__module__", "") or ""
        if not where.startswith(_PACKAGE):
            continue
        if called in READER_NAMES:
            if called not in readers:
                readers.append(called)
            continue
        _add(where, getattr(target, "__name__", called), pieces, readers, seen)
    for read in _read_names(source):
        if isinstance(namespace.get(read), MemberIs):
            _add_declaration(module, read, pieces, readers, seen)


def _called_names(source: str) -> list[str]:
    """The plain names `source` calls or names as a base class, in order, once each."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            names.append(node.func.id)
        elif isinstance(node, ast.ClassDef):
            names += [base.id for base in node.bases if isinstance(base, ast.Name)]
    return list(dict.fromkeys(names))
