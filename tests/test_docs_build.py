"""The site is built the same way everywhere: Read the Docs, `.ci/run` and `docs/conf.py` agree.

Read the Docs installs the `docs` extra alone and runs one Sphinx command (`.readthedocs.yaml`);
`.ci/run` does exactly that in a fresh environment; `docs/conf.py`'s docstring tells a reader
the same. This test reads the three and fails when one drifts (issue 31).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPHINX = "python -m sphinx -W --keep-going -n"


def test_read_the_docs_installs_the_docs_extra_alone_and_builds_strictly() -> None:
    config = (ROOT / ".readthedocs.yaml").read_text(encoding="utf-8")
    assert re.search(r"extra_requirements:\n\s+- docs\n", config)
    assert f"- {SPHINX} -b html docs $READTHEDOCS_OUTPUT/html" in config
    assert "fail_on_warning: true" in config


def test_ci_builds_the_site_as_read_the_docs_does() -> None:
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m venv .venv-docs\n" in run
    assert "-m pip install --quiet '.[docs]'\n" in run
    assert f".venv-docs/bin/{SPHINX} -q docs " in run


def test_the_configurations_docstring_says_the_same() -> None:
    text = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    docstring = text.split('"""')[1]
    assert "python -m pip install '.[docs]'" in docstring
    assert f"{SPHINX} docs OUT" in " ".join(docstring.split())


def test_the_docs_extra_holds_what_autodoc_imports() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    docs = {
        re.split(r"[<>=\[]", requirement)[0]
        for requirement in extras["optional-dependencies"]["docs"]
    }
    for extra in ("dask", "strategies"):
        needed = extras["optional-dependencies"][extra]
        assert {re.split(r"[<>=\[]", requirement)[0] for requirement in needed} <= docs, extra
