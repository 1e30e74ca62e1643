"""Print the README's set-up commands, one a line, exactly as the README writes them.

`.ci/run` runs each line of this output with bash, first, so that CI runs the very text a new
user copies and the two cannot drift apart (issue 19). The commands are the fenced `sh` blocks
of the section `## Set-up` of README.md, in order; each is one line. No standard library
beyond `re` and `pathlib`, so that it runs before any environment is made:

    python3 scripts/readme_commands.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
SECTION = "## Set-up"
EXPECTED = 2


def set_up_commands(text: str) -> list[str]:
    """The `sh` blocks of the Set-up section, each a one-line command; ValueError otherwise."""
    heading = re.search(f"^{re.escape(SECTION)}$", text, re.M)
    if heading is None:
        raise ValueError(f"README.md has no section {SECTION!r}")
    body = text[heading.end() :]
    following = re.search(r"^## ", body, re.M)
    section = body[: following.start()] if following else body
    blocks = re.findall(r"^```sh\n(.*?)^```$", section, re.M | re.S)
    commands = [block.strip() for block in blocks]
    if len(commands) != EXPECTED or any("\n" in command for command in commands):
        raise ValueError(f"{SECTION} must hold {EXPECTED} one-line sh blocks, not {commands!r}")
    return commands


def main() -> int:
    """Print the commands; exit status 1, with the reason, when the README does not hold them."""
    try:
        commands = set_up_commands(README.read_text(encoding="utf-8"))
    except ValueError as error:
        print(f"scripts/readme_commands.py: {error}", file=sys.stderr)
        return 1
    print("\n".join(commands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
