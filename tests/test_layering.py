"""The package's imports flow one way: no module imports a layer above its own, and no cycle.

The folder tree is the architecture. From the bottom up:

- `_core`: enums, bounds, the JSON reading helpers, formats, time zones, violations, outcomes;
- `_campaign` (the reading of a campaign body and patch, and its value objects) and `_server`
  (what the server-side checks read: path parameters, request state, the lifecycle table);
- `_wire`: the wire responses, their shapes and models, and the one converter;
- `_rules`: the rule functions, the rule table and the runner;
- `_export`: the catalogue and the JSON Schema, generated from the tables;
- the public modules, the entry points and the command line, with the diff (`_diff`).

Every import counts, at module level or inside a function: a deferred import still ties the
two modules together.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "campaign_rules"
NAME = "campaign_rules"
# From the top down; a module is in the first layer whose prefix its name starts with.
LAYERS: tuple[tuple[str, ...], ...] = (
    # The command line, and the diff it runs against another version.
    (
        "campaign_rules._cli",
        "campaign_rules._diff",
        "campaign_rules.strategies",
        "campaign_rules.__main__",
    ),
    ("campaign_rules",),  # the root and the public modules beside it, with `_validate`
    ("campaign_rules._export",),
    ("campaign_rules._rules",),
    ("campaign_rules._wire",),
    ("campaign_rules._campaign", "campaign_rules._server"),
    ("campaign_rules._core",),
)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> int:
    for index, prefixes in reversed(list(enumerate(LAYERS))):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                return index
    raise AssertionError(f"{module} is in no layer")


def imports_of(path: Path) -> set[str]:
    """The modules of the package that `path` imports, anywhere in it."""
    found: set[str] = set()
    this = module_name(path)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith(NAME))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolved against this module's package
                package = this if path.name == "__init__.py" else this.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            if base.startswith(NAME):
                found.add(base)
                # `from campaign_rules._rules import cycles` imports a submodule.
                found.update(
                    f"{base}.{alias.name}"
                    for alias in node.names
                    if (PACKAGE.parent / f"{base}.{alias.name}".replace(".", "/")).exists()
                    or (PACKAGE.parent / f"{base}.{alias.name}.py".replace(".", "/")).exists()
                )
    found.discard(this)
    return found


GRAPH = {module_name(path): imports_of(path) for path in sorted(PACKAGE.rglob("*.py"))}


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_no_module_imports_a_layer_above_its_own(module: str) -> None:
    upward = sorted(name for name in GRAPH[module] if layer_of(name) < layer_of(module))
    assert upward == [], f"{module} (layer {layer_of(module)}) imports upward"


def test_no_import_cycle() -> None:
    # The package itself (`__init__`) is left out as a target: importing any submodule runs it.
    edges = {
        module: {name for name in targets if name in GRAPH and name != NAME}
        for module, targets in GRAPH.items()
    }
    state: dict[str, str] = {}

    def visit(module: str, trail: list[str]) -> None:
        state[module] = "open"
        for target in sorted(edges[module]):
            if state.get(target) == "open":
                cycle = [*trail[trail.index(target) :], target] if target in trail else [target]
                raise AssertionError(" -> ".join(cycle))
            if target not in state:
                visit(target, [*trail, target])
        state[module] = "done"

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])


def test_every_module_is_in_a_layer() -> None:
    for module in GRAPH:
        layer_of(module)


def test_the_top_level_stays_small() -> None:
    assert len([path for path in PACKAGE.iterdir() if path.is_file()]) <= 13


def test_the_graph_sees_imports_and_the_layers_are_ordered() -> None:
    # The checks above are worth something only if the graph holds the real imports.
    assert "campaign_rules._rules.validation" in GRAPH["campaign_rules._validate"]
    assert "campaign_rules._campaign.document" in GRAPH["campaign_rules._rules.fields"]
    assert "campaign_rules._wire.models" in GRAPH["campaign_rules._wire.convert"]  # in a function
    # An import of the rule table from the reading of a body would be upward.
    assert layer_of("campaign_rules._rules.table") < layer_of("campaign_rules._campaign.document")
    assert layer_of("campaign_rules.requests") < layer_of("campaign_rules._export.catalogue")


def test_no_module_imports_a_test_module() -> None:
    # What tests share lives in support modules (`tests/support.py`, `tests/cases_support.py`,
    # ...): a test module is run, never imported, so that its tests run once, from one place.
    root = PACKAGE.parent.parent
    found = []
    for folder in ("tests", "fuzz", "benchmarks", "scripts"):
        for path in sorted((root / folder).rglob("*.py")):
            if "node_modules" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
                if any(name.split(".")[-1].startswith("test_") for name in names):
                    found.append(f"{path.relative_to(root)}:{node.lineno}")
    assert found == []
