"""The package's public names: all of them resolve, and only the create path loads at import.

`campaign_rules/__init__.py` imports what checking a campaign body needs and imports the rest
of the interface on first use of one of its names (PEP 562).
"""

from __future__ import annotations

import json
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import campaign_rules

ROOT = Path(__file__).resolve().parent.parent
# Modules of the interface beyond the campaign body, loaded on first use only.
LOADED_ON_FIRST_USE = (
    "campaign_rules._authorization",
    "campaign_rules._catalogue",
    "campaign_rules._checks",
    "campaign_rules._fingerprint",
    "campaign_rules._idempotency",
    "campaign_rules._parse",
    "campaign_rules._rate",
    "campaign_rules._response_models",
    "campaign_rules._schema",
)


@pytest.mark.parametrize("name", campaign_rules.__all__)
def test_every_public_name_resolves_and_is_listed(name: str) -> None:
    assert getattr(campaign_rules, name) is not None
    assert name in dir(campaign_rules)


def test_the_lazy_names_are_the_objects_of_their_modules() -> None:
    from campaign_rules._parse import parse_thread
    from campaign_rules._response_models import Thread

    assert campaign_rules.parse_thread is parse_thread
    assert campaign_rules.Thread is Thread


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'parse_anything'"):
        campaign_rules.parse_anything  # noqa: B018


def test_star_import_gives_every_public_name() -> None:
    namespace: dict[str, object] = {}
    exec("from campaign_rules import *", namespace)
    assert set(campaign_rules.__all__) <= set(namespace)


def _modules_loaded_after(code: str) -> set[str]:
    script = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    output = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    return set(json.loads(output))


def test_validating_a_body_loads_none_of_the_rest_of_the_interface() -> None:
    loaded = _modules_loaded_after(
        "import campaign_rules\n"
        "body = json.load(open('examples/phone_call.json'))\n"
        "assert campaign_rules.validate_create(body).ok"
    )
    assert "campaign_rules._validate" in loaded
    assert loaded.isdisjoint(LOADED_ON_FIRST_USE)
    assert "cattrs" not in loaded


def test_a_name_of_the_rest_loads_its_module_on_first_use() -> None:
    loaded = _modules_loaded_after("import campaign_rules\ncampaign_rules.parse_thread")
    assert "campaign_rules._parse" in loaded
    assert "campaign_rules._authorization" not in loaded


def test_type_checkers_see_every_public_name_and_no_other(tmp_path: Path) -> None:
    # The lazy `__getattr__` is hidden from type checkers, so a misspelt name is still an error.
    from mypy import api

    # Every public name, so that the lazy table and the imports type checkers read agree.
    snippet = tmp_path / "uses.py"
    snippet.write_text(
        "import campaign_rules\n"
        f"from campaign_rules import {', '.join(campaign_rules.__all__)}\n"
        "reveal_type(parse_thread({}).ok)\n"
        "campaign_rules.validate_creat({})\n",
        encoding="utf-8",
    )
    report, _, status = api.run(["--strict", "--no-incremental", str(snippet)])
    assert status == 1
    assert 'Revealed type is "bool"' in report
    assert 'Module has no attribute "validate_creat"' in report
    assert report.count("error:") == 1


def test_annotations_can_be_read_at_run_time() -> None:
    # Tools that read annotations (typing.get_type_hints) find every name they use.
    for name in campaign_rules.__all__:
        value = getattr(campaign_rules, name)
        if callable(value) and not isinstance(value, type):
            typing.get_type_hints(value)
