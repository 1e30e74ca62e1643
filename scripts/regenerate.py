"""Write every committed file derived from the code again; with `--check`, only say which differ.

Usage, from the repository root, in the development environment:

    .venv/bin/python scripts/regenerate.py           # write what is stale, name each file
    .venv/bin/python scripts/regenerate.py --check   # write nothing; exit 1 naming each stale file

What is derived: the JSON Schema and the OpenAPI document under `schema/` (what
`campaign-rules schema` and `campaign-rules openapi` print), the JSON Schema of the diff's
report (`schema/diff.schema.json`), and every sentence of the pages,
docstrings, comments and example outputs that states a bound of `campaign_rules._core.limits`
(`scripts/bound_texts.py` lists how each bound is said), and the table of what an auditor
reads of each rule in `docs/testing.md` (`scripts/rule_reach.py`). So a bound or a rule is
changed, then this command is run. `.ci/run` runs it with `--check`;
tests/test_regenerate.py does too. The docs site's rule pages are made by the docs build itself
(`docs/_ext/rule_pages.py`) and are not committed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts import bound_texts, rule_reach  # noqa: E402

from campaign_rules._diff.document import render_diff_schema  # noqa: E402
from campaign_rules._export.json_schema import render_schema  # noqa: E402
from campaign_rules._export.openapi import render_openapi  # noqa: E402

# Each committed export, by path, and the function that writes it.
EXPORTS: dict[str, Callable[[], str]] = {
    "schema/campaign-create.schema.json": render_schema,
    "schema/openapi.json": render_openapi,
    "schema/diff.schema.json": render_diff_schema,
}


def derived(root: Path = ROOT) -> dict[Path, str]:
    """Each derived file under `root` whose committed text differs, with the text it should hold."""
    stale: dict[Path, str] = {}
    for name, render in EXPORTS.items():
        path = root / name
        text = render()
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale[path] = text
    for path in bound_texts.scanned_files(root):
        text = path.read_text(encoding="utf-8")
        fixed = bound_texts.rewrite(text)
        if fixed != text:
            stale[path] = fixed
    # The table of what an auditor reads of each rule, measured on the package's code.
    testing = root / rule_reach.DOC.relative_to(ROOT)
    if testing.is_file():
        text = stale.get(testing) or testing.read_text(encoding="utf-8")
        fixed = rule_reach.with_table(text, rule_reach.render_table(root / "src"))
        if fixed != testing.read_text(encoding="utf-8"):
            stale[testing] = fixed
    return stale


def main(argv: list[str] | None = None) -> int:
    """Write (or, with `--check`, report) the stale files; 1 when `--check` finds one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; fail when stale")
    check = parser.parse_args(argv).check
    stale = derived()
    for path, text in stale.items():
        name = path.relative_to(ROOT).as_posix()
        if check:
            print(f"{name} is stale: run `python scripts/regenerate.py`", file=sys.stderr)
            for entry in bound_texts.stale(path.read_text(encoding="utf-8"), name):
                print(f"  {entry}", file=sys.stderr)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {name}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
