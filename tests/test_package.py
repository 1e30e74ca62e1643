"""The package's public names: a small root, public modules by concern, and the moved names.

The root holds what checking a campaign needs; the server-side checks and the response readers
live in public modules of their own. The names the root exported in 0.1.0 still resolve, with a
DeprecationWarning that names the new import.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import campaign_rules
from tests.support import PUBLIC_MODULES

ROOT = Path(__file__).resolve().parent.parent
# Modules of the interface beyond the campaign body: validating a body loads none of them.
NOT_ON_THE_CREATE_PATH = (
    *(module for module in PUBLIC_MODULES if module != "campaign_rules"),
    "campaign_rules._wire.models",
    "campaign_rules._export.json_schema",
    "campaign_rules._export.catalogue",
    "campaign_rules._export.openapi",
    "cattrs",
)
PUBLIC_NAMES = [
    (module, name) for module in PUBLIC_MODULES for name in importlib.import_module(module).__all__
]


def test_the_root_is_small() -> None:
    assert len(campaign_rules.__all__) <= 25


@pytest.mark.parametrize(("module", "name"), PUBLIC_NAMES)
def test_every_public_name_resolves_and_is_documented(module: str, name: str) -> None:
    value = getattr(importlib.import_module(module), name)
    assert value is not None
    if callable(value):
        assert (value.__doc__ or "").strip(), f"{module}.{name} has no docstring"


def test_each_name_has_one_public_home() -> None:
    homes: dict[str, list[str]] = {}
    for module, name in PUBLIC_NAMES:
        homes.setdefault(name, []).append(module)
    assert {name: modules for name, modules in homes.items() if len(modules) > 1} == {
        # Conveniences at the root: `campaign_rules.json_schema()` and `.openapi()` call them.
        "json_schema": ["campaign_rules", "campaign_rules.schema"],
        "openapi": ["campaign_rules", "campaign_rules.schema"],
    }


@pytest.mark.parametrize(("name", "module"), sorted(campaign_rules.MOVED_NAMES.items()))
def test_a_moved_name_still_works_and_warns_with_its_new_import(name: str, module: str) -> None:
    new_home = importlib.import_module(module)
    assert name in new_home.__all__
    with pytest.warns(DeprecationWarning, match=rf"use `from {module} import {name}`"):
        value = getattr(campaign_rules, name)
    assert value is getattr(new_home, name)


def test_a_moved_name_warns_in_a_from_import_too() -> None:
    from campaign_rules.responses import parse_thread

    with pytest.warns(DeprecationWarning, match="campaign_rules.responses"):
        from campaign_rules import parse_thread as old  # type: ignore[attr-defined]
    assert old is parse_thread


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'parse_anything'"):
        campaign_rules.parse_anything  # type: ignore[attr-defined]  # noqa: B018


def test_star_import_gives_the_root_names_only() -> None:
    namespace: dict[str, object] = {}
    exec("from campaign_rules import *", namespace)
    assert set(campaign_rules.__all__) == set(namespace) - {"__builtins__"}


def test_json_schema_at_the_root_is_the_schema_modules() -> None:
    from campaign_rules.schema import json_schema

    assert campaign_rules.json_schema() == json_schema()


def _modules_loaded_after(code: str) -> set[str]:
    script = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    output = subprocess.run(
        [sys.executable, "-W", "error", "-c", script],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return set(json.loads(output))


def test_validating_a_body_loads_none_of_the_rest_of_the_interface() -> None:
    loaded = _modules_loaded_after(
        "import campaign_rules\n"
        "body = json.load(open('examples/phone_call.json'))\n"
        "assert campaign_rules.validate_create(body).ok"
    )
    assert "campaign_rules._validate" in loaded
    assert loaded.isdisjoint(NOT_ON_THE_CREATE_PATH)


def test_type_checkers_see_the_root_names_and_no_moved_one(tmp_path: Path) -> None:
    from mypy import api

    snippet = tmp_path / "uses.py"
    snippet.write_text(
        "import campaign_rules\n"
        f"from campaign_rules import {', '.join(campaign_rules.__all__)}\n"
        "from campaign_rules.responses import parse_thread\n"
        "reveal_type(parse_thread({}).ok)\n"
        "campaign_rules.validate_creat({})\n",
        encoding="utf-8",
    )
    report, _, status = api.run(["--strict", "--no-incremental", str(snippet)])
    assert status == 1
    assert 'Revealed type is "bool"' in report
    assert 'Module has no attribute "validate_creat"' in report
    assert report.count("error:") == 1


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_annotations_can_be_read_at_run_time(module: str) -> None:
    # Tools that read annotations (typing.get_type_hints) find every name they use.
    namespace = importlib.import_module(module)
    for name in namespace.__all__:
        value = getattr(namespace, name)
        if callable(value) and not isinstance(value, type):
            typing.get_type_hints(value)


def test_a_type_checker_narrows_a_result_by_its_ok(tmp_path: Path) -> None:
    # After `if result.ok:`, `value` is a CampaignCreate: no assert, no cast.
    from mypy import api

    snippet = tmp_path / "narrowing.py"
    snippet.write_text(
        "from campaign_rules import CampaignCreate, validate_create, validate_update\n"
        "def name_of(body: object) -> str:\n"
        "    result = validate_create(body)\n"
        "    if result.ok:\n"
        "        return result.value.name\n"
        "    return result.violations[0].message\n"
        "def updated(existing: CampaignCreate, patch: object) -> CampaignCreate | None:\n"
        "    result = validate_update(existing, patch)\n"
        "    if not result.ok:\n"
        "        return None\n"
        "    return result.value\n"
        "def wrong(body: object) -> str:\n"
        "    result = validate_create(body)\n"
        "    if not result.ok:\n"
        "        return result.value.name\n"  # the one error: value is None here
        "    return ''\n",
        encoding="utf-8",
    )
    report, _, status = api.run(["--strict", "--no-incremental", str(snippet)])
    assert status == 1, report
    # Every error is on line 15, where `value` is None.
    errors = [line for line in report.splitlines() if "error:" in line]
    assert errors, report
    assert all("narrowing.py:15:" in line for line in errors), report
    assert 'error: "None" has no attribute "name"' in report


def documented_imports() -> list[tuple[str, str]]:
    """Every `from campaign_rules... import ...` of the README and of the site's pages."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
    text = "\n".join(
        page.read_text(encoding="utf-8")
        for page in pages
        if not page.is_relative_to(ROOT / "docs" / "rules")  # generated at build time
        and not page.is_relative_to(ROOT / "docs" / "_build")
    )
    return re.findall(r"^from (campaign_rules[\w.]*) import (\([^)]*\)|[^\n]*)", text, re.M)


def imports_work_without_a_warning(imports: list[tuple[str, str]]) -> None:
    # In a fresh interpreter where a DeprecationWarning is an error.
    code = "\n".join(f"from {module} import {names}" for module, names in imports)
    subprocess.run([sys.executable, "-W", "error", "-c", code], cwd=ROOT, check=True)


def test_the_strategies_export_only_their_all() -> None:
    # Private parts look private: the building blocks the project's tests draw from are
    # imported from the private modules by `tests/strategies_support.py`, not re-exported here.
    import types

    from campaign_rules import strategies

    extra = {
        name
        for name, value in vars(strategies).items()
        if not name.startswith("_")
        and not isinstance(value, types.ModuleType)
        and name != "annotations"
    } - set(strategies.__all__)
    assert extra == set()


def test_the_documented_imports_work_without_a_warning() -> None:
    imports = [found for found in documented_imports() if found[0] != "campaign_rules.dask"]
    assert len(imports) >= 8
    imports_work_without_a_warning(imports)


def test_the_documented_dask_imports_work_without_a_warning() -> None:
    imports = [found for found in documented_imports() if found[0] == "campaign_rules.dask"]
    if not imports:
        pytest.skip("no page imports campaign_rules.dask yet")
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    imports_work_without_a_warning(imports)
