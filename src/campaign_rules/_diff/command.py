"""`campaign-rules diff OLD`: the sub-command's parser, and the run that compares two versions.

Only the parser is defined at import: the run imports the diff's modules (and Hypothesis) when
the sub-command is the one run, so the other sub-commands start no slower.
"""

from __future__ import annotations

import argparse

from campaign_rules._cli.exits import ExitStatus, describe_exits

__all__ = ["add_parser", "run"]

FORMATS = ("text", "json", "markdown")
FAIL_ON = ("breaking", "any", "none")


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `diff` to the command line's sub-commands."""
    command = commands.add_parser(
        "diff",
        help="compare the installed rules with another version's, each difference with a body",
        description="Compare the installed version's rule set with OLD's, rule by rule: the "
        "rules added and removed, each change of key, status, clause, gate or constraint, and, "
        "for every rule, the bodies the two versions judge differently (each changes one member "
        "of a valid body and is judged again by both). Each change gets a verdict: stricter, "
        "looser, incomparable or equivalent; breaking when OLD accepts a body this version "
        "refuses, or a refused body's status or error key changes. "
        + describe_exits(
            valid="no change fails --fail-on",
            invalid="a change fails --fail-on",
            unreadable="OLD is missing or not a campaign-rules, or FILE.jsonl or the kit "
            "cannot be read",
        ),
    )
    command.add_argument(
        "old", metavar="OLD", help="the other version's `campaign-rules` command (its path)"
    )
    command.add_argument("--format", choices=FORMATS, default="text", help="default: text")
    command.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default="breaking",
        help="exit 1 on a breaking change (default), on any change, or never",
    )
    command.add_argument(
        "--replay",
        metavar="FILE.jsonl",
        help="also judge these bodies, one a line (or one protocol request a line); the first "
        "1000 lines are read, each of at most the body size limit",
    )
    command.add_argument(
        "--kit",
        metavar="DIR",
        help="also judge the requests of this exported conformance kit "
        "(`campaign-rules conformance export DIR`)",
    )


def run(args: argparse.Namespace) -> tuple[int, str]:
    """The exit status and the report; 2 and one line when the versions cannot be compared."""
    from campaign_rules._cli.exits import say
    from campaign_rules._diff.comparing import compare
    from campaign_rules._diff.kit import CannotReadKit, kit_candidates
    from campaign_rules._diff.replay import CannotReplay, read_replay
    from campaign_rules._diff.report import fails, render
    from campaign_rules._diff.sides import CannotCompare

    try:
        replay = [] if args.replay is None else read_replay(args.replay)
        kit = [] if args.kit is None else kit_candidates(args.kit)
        report = compare(args.old, [*kit, *replay])
    except (CannotCompare, CannotReplay, CannotReadKit) as error:
        say(str(error))
        return ExitStatus.UNREADABLE, ""
    status = ExitStatus.INVALID if fails(report, args.fail_on) else ExitStatus.VALID
    return status, render(report, args.format)
