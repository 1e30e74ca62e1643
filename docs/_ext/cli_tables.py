"""The command line's sub-commands and their options as tables, read from its argparse parser.

`{cli-options}` writes, for each sub-command of `campaign-rules` (and each of its own, as
`conformance run`), its description and a table of its arguments: name, value, default and
help, exactly as `campaign-rules CMD --help` says them (`campaign_rules._cli._parser`).
Nothing is written twice: a new option shows up here.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from campaign_rules._cli.commands import _parser


def _cell(text: str) -> str:
    """A table cell's text; an option it names (`--kind`) set as code, so no dash is merged."""
    text = re.sub(r"(?<![\w`-])(--[a-z][\w-]*)", r"`\1`", text)
    text = re.sub(r"(?<!`)(\{[^{}`]*\})", r"`\1`", text)  # JSON, not curly quotes
    return text.replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    return f"``{text}``" if "`" in text else f"`{text}`"


def _row(action: argparse.Action) -> str:
    if action.option_strings:
        name = ", ".join(_code(option) for option in action.option_strings)
    else:
        name = _code(action.metavar or action.dest)  # a positional argument
    if action.choices is not None:
        value = " ".join(_code(str(choice)) for choice in action.choices)
    elif action.nargs == 0:
        value = "(a flag)"
    else:
        value = _code(str(action.metavar or action.dest.upper()))
    default = action.default
    shown = "" if default in (None, False, argparse.SUPPRESS) else _code(str(default))
    return f"| {name} | {value} | {shown} | {_cell(action.help or '')} |"


def markdown() -> str:
    """Every sub-command, with its description and its table of arguments, as MyST text."""
    parser, commands = _parser()
    lines = []
    for name, command in commands.choices.items():
        lines += _tables(f"campaign-rules {name}", command)
    top = [
        _row(action)
        for action in parser._actions
        if not isinstance(action, argparse._HelpAction)
        and not isinstance(action, argparse._SubParsersAction)
    ]
    lines += ["**`campaign-rules`** itself:", "", "| argument | value | default | what it does |"]
    lines += ["|---|---|---|---|", *top, ""]
    return "\n".join(lines)


def _tables(name: str, command: argparse.ArgumentParser) -> list[str]:
    """A sub-command's description and table, then those of its own sub-commands, if any."""
    lines = [f"**`{name}`**: {_cell(command.description or '')}", ""]
    lines += ["| argument | value | default | what it does |", "|---|---|---|---|"]
    lines += [
        _row(action) for action in command._actions if not isinstance(action, argparse._HelpAction)
    ]
    lines.append("")
    for action in command._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub_command in action.choices.items():
                lines += _tables(f"{name} {sub_name}", sub_command)
    return lines


class CliOptions(SphinxDirective):
    """`{cli-options}`: the tables of the command line's sub-commands."""

    def run(self) -> list[nodes.Node]:
        """The sub-commands' descriptions and tables."""
        box = nodes.container(classes=["cli-options"])
        box += self.parse_text_to_nodes(markdown())
        return [box]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive with Sphinx."""
    app.add_directive("cli-options", CliOptions)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
