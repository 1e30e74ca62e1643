"""The plan of a rule row: its pointers and constraint, made at import into one check.

A row of the rule table (`_rules.table`) says what each value at its RFC 6901 pointers must
be. `RowCheck` is the check the runner calls for it, generated here from the row alone: its
pointers grouped by the object that holds them, the keyword checks of its constraint
(`_rules.keywords`), and what its gates leave to other rows. Nothing in it decides a verdict
that the row does not say.

A pointer is read in the objects of the payload: its members (`Payload.root_values`, each at
its place in the payload's shape), the `cycles` member's, and the windows of the schedules in
force (as the `Document` read them once). A `*` stands for each item of an array (as the last
segment) or each window of a schedule (`/scheduling/*/startTime`). The cycles block's members
are read when it is enabled only (spec 2.4 rule 2): by a row that reads in bodies with an
enabled block (`When(CYCLES_ENABLED)`), which the runner calls on such a payload only, or else
after the row's test of the block (`tests_block`). A row's `check` tests the facts it reads in
first, for a caller that holds a callable.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Final

from campaign_rules._campaign.document import Document
from campaign_rules._campaign.shape import START_TIME, STOP_TIME
from campaign_rules._campaign.sites import CAMPAIGN, WINDOW_PATHS, Window
from campaign_rules._core.findings import PathThen, ReadyFindings
from campaign_rules._core.limits import CYCLES_ENABLED
from campaign_rules._core.violations import Finding
from campaign_rules._rules.keywords import (
    AllOf,
    ItemsUnique,
    Keyword,
    constraint_check,
)
from campaign_rules._rules.reader import as_string, item_path, member_path, read_list
from campaign_rules._rules.row_calls import RowJudge, RunSkip
from campaign_rules._rules.scope import ALWAYS, ENABLED_BLOCK, When

__all__ = ["PARENTS", "MemberRun", "RowCheck", "split_pointer"]

# The objects a pointer's parent can be, by the pointer of their parent.
_ROOT: Final = 0
_CYCLES: Final = 1
_SCHEDULING_WINDOWS: Final = 2
_CYCLES_SCHEDULE_WINDOWS: Final = 3
PARENTS: Final[dict[str, int]] = {
    "": _ROOT,
    "/cycles": _CYCLES,
    "/scheduling/*": _SCHEDULING_WINDOWS,
    "/cycles/schedule/*": _CYCLES_SCHEDULE_WINDOWS,
}
# The field paths each parent can have, for the findings made at import.
_PARENT_PATHS: Final[dict[int, tuple[str | None, ...]]] = {
    _ROOT: (None,),
    _CYCLES: ("cycles",),
    _SCHEDULING_WINDOWS: WINDOW_PATHS["scheduling"],
    _CYCLES_SCHEDULE_WINDOWS: WINDOW_PATHS["cycles.schedule"],
}
# The payload's member whose object is `_CYCLES`.
_CYCLES_NAME: Final = "cycles"
# A place past the last of the payload's members among the values the `Document` keeps of them
# (`Payload.root_values`, read against `CAMPAIGN`): a row on another object's has it, never read.
_NO_PLACE: Final = len(CAMPAIGN.specs)


def split_pointer(pointer: str) -> tuple[str, str, bool]:
    """The parent of `pointer`, its member's name, and whether it stands for each item of it.

    `/name` is `("", "name", False)`; `/cycles/filter_tags/*` is `("/cycles", "filter_tags",
    True)`; `/scheduling/*/startTime` is `("/scheduling/*", "startTime", False)`.
    """
    each_item = pointer.endswith("/*") and pointer[:-2] not in PARENTS
    if each_item:
        pointer = pointer[:-2]
    parent, _, name = pointer.rpartition("/")
    if parent not in PARENTS or not name or "~" in name:
        raise ValueError(f"{pointer}: no object in force has it")
    # Interned, as the names the library spells in its code are: a payload's member of that
    # name, when it is the same object, is found by identity, its text not compared.
    return parent, sys.intern(name), each_item


def _refuses(keyword: Keyword | None, value: object) -> bool:
    """Whether `keyword` refuses `value` (`None`: no keyword, which refuses nothing)."""
    return keyword is not None and keyword.refuses(value)


def _refused(target: _Target, value: object) -> bool:
    """Whether the row refuses `value` at `target`, unless a row it defers to does first.

    An exact `str` judged by a set of texts (`Keyword.accepted`) is looked up there, without a
    call of `refuses`.
    """
    left_if = target.left_if
    if left_if is not None and left_if.refuses(value):
        return False  # the deferred row's: not read further (D-hostile-input)
    keyword = target.keyword
    accepted = keyword.accepted
    if accepted is not None and type(value) is str:
        return value not in accepted
    return keyword.refuses(value)


def _member_refused(keyword: Keyword, left_if: Keyword | None, value: object) -> bool:
    """Whether a row on one member whose `null` passes refuses its `value` (`None`: absent).

    The deferral first: a value it refuses is not read further (a name over the length limit
    is never stripped whole, D-hostile-input). An exact `str` judged by a set of texts
    (`Keyword.accepted`) is looked up there, without a call of `refuses`.
    """
    if value is None:
        return False
    if left_if is not None and left_if.refuses(value):
        return False
    accepted = keyword.accepted
    if accepted is not None and type(value) is str:
        return value not in accepted
    return keyword.refuses(value)


def _joined(keywords: list[Keyword]) -> Keyword | None:
    """The keywords of the rows deferred to, as one check; `None` when there is none."""
    if not keywords:
        return None
    return keywords[0] if len(keywords) == 1 else AllOf(tuple(keywords))


class _Target:
    """One member a row judges in each object of a parent.

    `keyword`: the row's constraint as one check; `left_if`: the check of the rows it defers to
    at the same pointer (a value it refuses is theirs); `unread_if`: of those at the array, of
    a row on its items (an array it refuses is not read); `items_left_if`: of those at the
    items, of a row on an array (an item it refuses is theirs). `null_passes`: whether the row's
    keyword lets `null` pass, found by asking it: an absent or `null` member is then judged no
    further. `place`: its place in `Payload.root_values` when its group reads the
    payload's members there (its group's `by_place`), else past the last place (an error if read).
    """

    __slots__ = (
        "each_item",
        "items_left_if",
        "keyword",
        "left_if",
        "name",
        "null_passes",
        "place",
        "unique",
        "unread_if",
    )

    def __init__(
        self,
        name: str,
        each_item: bool,
        keyword: Keyword,
        left_if: Keyword | None,
        unread_if: Keyword | None,
        items_left_if: Keyword | None,
    ) -> None:
        self.name = name
        self.each_item = each_item
        self.keyword = keyword
        self.unique = isinstance(keyword, ItemsUnique)
        self.null_passes = not keyword.refuses(None)
        self.left_if = left_if
        self.unread_if = unread_if
        self.items_left_if = items_left_if
        self.place = _NO_PLACE


class _Group:
    """The targets of a row under one parent, in the row's order.

    `by_place`: whether every target judges one value (no items) and lets `null` pass: each
    value is then judged with nothing read of its target but its name, its place
    (each target's `place`, where a group of the payload's members reads its value in
    `Payload.root_values`) and the check of the rows it defers to (`RowCheck._judge_group`).
    `window_times`: when, besides, no target defers and the row judges a text by a set of texts
    (`Keyword.accepted`),
    the names are a window's times in their order and the set judges strings only, whether each
    time (`startTime`, `stopTime`) is a target, else `None`:
    each is then the text the window read of it (`Window.start`, `Window.stop`, `None` for a
    value that is no string, which such a set passes), with no look-up of its name.
    """

    __slots__ = ("by_place", "parent", "targets", "window_times")

    def __init__(self, parent: int, targets: tuple[_Target, ...]) -> None:
        self.parent = parent
        self.targets = targets
        self.by_place = False
        self.window_times: tuple[bool, bool] | None = None

    def settle(self) -> None:
        """Note `by_place`, each target's place and `window_times`, once every target is added."""
        simple = all(
            target.null_passes and not (target.each_item or target.unique)
            for target in self.targets
        )
        if not simple:
            return
        self.by_place = True
        if self.parent == _ROOT:
            for target in self.targets:
                target.place = CAMPAIGN.place(target.name)
        names = [target.name for target in self.targets]
        if (
            all(target.left_if is None for target in self.targets)
            and self.targets[0].keyword.accepted is not None
            and self.parent in (_SCHEDULING_WINDOWS, _CYCLES_SCHEDULE_WINDOWS)
            and self.targets[0].keyword.json_type == "string"
            and names in ([START_TIME], [STOP_TIME], [START_TIME, STOP_TIME])
        ):
            self.window_times = (START_TIME in names, STOP_TIME in names)


class RowCheck(RowJudge[Document]):
    """The check of one row, made of its pointers, its constraint and its deferrals.

    `deferred` gives, for each row the row defers to, its pointers and constraint; `when`, the
    facts of a body the row reads in (`_rules.scope.When`). `tests_block`: whether the row tests
    that the cycles block is enabled (`CYCLES_ENABLED`, by `_rules.scope.ENABLED_BLOCK`) before
    it reads the block's members, as it does when it reads in bodies without that fact.
    Called by the runner (`judge`), on a subject with the facts it reads in: it reports each
    value its constraint refuses, at its path, in the order of the row's pointers, object by
    object.
    `check` tests the gate first: the rule's `check`, for a caller that holds a callable.
    """

    __slots__ = (
        "_excluded",
        "_found",
        "_found_one",
        "_groups",
        "_keyword",
        "_left_if",
        "_name",
        "_needed",
        "_one",
        "_place",
        "_says",
        "member_parent",
        "tests_block",
    )

    def __init__(
        self,
        pointers: tuple[str, ...],
        constraint: Mapping[str, object],
        says: str,
        deferred: tuple[tuple[tuple[str, ...], Mapping[str, object]], ...],
        when: When = ALWAYS,
    ) -> None:
        self._needed, self._excluded = when.tests()
        _check_deferrals(pointers, deferred)
        keyword = constraint_check(constraint)
        groups: list[_Group] = []
        places: list[tuple[str | None, str]] = []
        for pointer in pointers:
            parent_pointer, name, each_item = split_pointer(pointer)
            parent = PARENTS[parent_pointer]
            target = _Target(name, each_item, keyword, *_deferrals(pointer, deferred))
            if groups and groups[-1].parent == parent:
                groups[-1].targets = (*groups[-1].targets, target)
            else:
                groups.append(_Group(parent, (target,)))
            if not each_item and not target.unique:
                places += [(path, name) for path in _PARENT_PATHS[parent]]
        for group in groups:
            group.settle()
        self._groups = tuple(groups)
        # spec 2.4 rule 2: a block that is not enabled is not read. A row that reads in enabled
        # blocks only has it tested; any other tests it itself.
        tests_block = any(group.parent == _CYCLES for group in groups) and (
            CYCLES_ENABLED not in when.needs
        )
        self.tests_block = tests_block
        self._says = says
        self._found = ReadyFindings(PathThen(says), places)
        # A row on one member of the payload or of the cycles block, whose `null` passes: the
        # common row, its target's parts and its finding read into fields of their own. On the
        # payload, judged at its place by `judge`; consecutive ones are judged together
        # (`MemberRun`, which reads the block as it is: not for a row that must test it first).
        one = groups[0].targets[0]
        self.member_parent: int | None = (
            groups[0].parent
            if len(groups) == 1
            and groups[0].parent in (_ROOT, _CYCLES)
            and len(groups[0].targets) == 1
            and not (one.each_item or one.unique)
            and one.null_passes
            and not tests_block
            else None
        )
        self._one = self.member_parent == _ROOT
        self._name = one.name
        # The place its group found (its `settle`). Past the last place for a row on another
        # object: never read (`judge` reads it for a row on the payload's), and an error if it
        # were, where -1 would read the last member.
        self._place = one.place if self._one else _NO_PLACE
        self._keyword = one.keyword
        self._left_if = one.left_if
        self._found_one = self._found.at(None, one.name)

    def check(self, doc: Document, findings: list[Finding]) -> None:
        """`judge`, when `doc` has the facts the row needs and none it excludes (`When`)."""
        if all(test(doc) for test in self._needed) and not any(
            test(doc) for test in self._excluded
        ):
            self.judge(doc, findings)

    def judge(self, doc: Document, findings: list[Finding]) -> None:
        """Report each value of `doc` at the row's pointers that its constraint refuses.

        What the runner calls. A row on one member of the payload whose `null` passes, the
        common row, judges the value at its member's place, and no group.
        """
        if self._one:
            if _member_refused(self._keyword, self._left_if, doc.root_values[self._place]):
                findings.append(self._found_one)
            return
        for group in self._groups:
            parent = group.parent
            if parent == _ROOT:
                self._judge_group(None, doc.root, group, findings, doc.root_values)
            elif parent == _CYCLES:
                if self.tests_block and not ENABLED_BLOCK.holds(doc):
                    continue
                block = doc.object_at(_CYCLES_NAME)
                if block is not None:
                    self._judge_group("cycles", block, group, findings)
            else:
                windows: list[Window] | None = (
                    doc.scheduling_windows
                    if parent == _SCHEDULING_WINDOWS
                    else doc.cycles_schedule_windows
                )
                if windows is not None:
                    self._judge_windows(windows, group, findings)

    def _judge_windows(self, windows: list[Window], group: _Group, findings: list[Finding]) -> None:
        """`_judge_group` on each readable window of a schedule."""
        times = group.window_times
        # A row has one constraint: its targets share their keyword (see `_Group`).
        accepted = group.targets[0].keyword.accepted
        if times is not None and accepted is not None:  # the window's times: ten a body and more
            start_read, stop_read = times
            for window in windows:
                start, stop = window.start, window.stop
                if start_read and start is not None and start not in accepted:
                    findings.append(self._found.at(window.path, START_TIME))
                if stop_read and stop is not None and stop not in accepted:
                    findings.append(self._found.at(window.path, STOP_TIME))
            return
        for window in windows:
            members = window.members
            if members is not None:
                self._judge_group(window.path, members, group, findings)

    def _judge_group(
        self,
        path: str | None,
        members: dict[str, object],
        group: _Group,
        findings: list[Finding],
        root_values: list[object] | None = None,
    ) -> None:
        """Judge the group's targets in the object at `path`, whose members are `members`.

        By each target's name and place alone when the group is read so (`by_place`), else
        target by target. The payload's members are read at their places in `root_values`
        (`Payload.root_values`).
        """
        targets = group.targets
        if not group.by_place:
            self._judge(path, members, targets, findings)
            return
        keyword = targets[0].keyword
        accepted = keyword.accepted
        for target in targets:
            value = (
                root_values[target.place] if root_values is not None else members.get(target.name)
            )
            if value is None:
                continue  # absent, or `null`, which every target lets pass
            left_if = target.left_if
            if left_if is not None and left_if.refuses(value):
                continue  # the deferred row's: not read further (D-hostile-input)
            if (
                value not in accepted
                if accepted is not None and type(value) is str
                else keyword.refuses(value)
            ):
                findings.append(self._found.at(path, target.name))

    def _judge(
        self,
        path: str | None,
        members: dict[str, object],
        targets: tuple[_Target, ...],
        findings: list[Finding],
    ) -> None:
        """Judge each target member of the object at `path`, whose members are `members`."""
        for target in targets:
            value = members.get(target.name)
            if target.each_item or target.unique:
                self._judge_items(path, value, target, findings)
                continue
            if value is None and target.null_passes:
                continue
            if _refused(target, value):
                findings.append(self._found.at(path, target.name))

    def _judge_items(
        self, parent: str | None, value: object, target: _Target, findings: list[Finding]
    ) -> None:
        """Judge the items of the array `value`, member `target.name` of the object at `parent`.

        Unless a deferred row refuses the array: then it is that row's, and not read.
        """
        if _refuses(target.unread_if, value):
            return
        items = read_list(value)
        if items is None:
            return
        if target.unique:
            # The row judges the array itself: a deferred row at its pointer refuses it whole.
            if _refuses(target.left_if, value):
                return
            _report_repeats(parent, target.name, items, target.items_left_if, self._says, findings)
            return
        keyword, left_if = target.keyword, target.left_if
        for index, item in enumerate(items):
            if (left_if is None or not left_if.refuses(item)) and keyword.refuses(item):
                at = item_path(member_path(parent, target.name), index)
                findings.append(Finding(at, f"{at} {self._says}"))


class MemberRun(RunSkip[Document]):
    """Consecutive rows of one scope, each on one member of the same object, judged in one call.

    Made of the rows' `RowCheck`s (each with a `member_parent`), in table order.
    `clean_rows(doc)` is how many of its first rows find nothing in `doc`: the runner skips
    them without calling each (one call, where a body's rows are mostly clean), and runs the
    rows from the first that finds something as it runs any row.
    """

    __slots__ = ("_checks", "_parent")

    def __init__(self, checks: tuple[RowCheck, ...]) -> None:
        parents = {check.member_parent for check in checks}
        if len(parents) != 1 or None in parents:
            raise ValueError("a run's rows each judge one member of the same object")
        self._parent = checks[0].member_parent
        self._checks = checks

    def clean_rows(self, doc: Document) -> int:
        """How many of the run's first rows find nothing in `doc`.

        The payload's members are read at their places in `Payload.root_values`.
        """
        root_values = doc.root_values if self._parent == _ROOT else None
        members = doc.root if root_values is not None else doc.object_at(_CYCLES_NAME)
        if members is None:  # no cycles object: its rows find nothing
            return len(self._checks)
        index = 0
        for check in self._checks:
            # `_member_refused`, inlined: the call it saves is most of a clean row's time.
            value = (
                root_values[check._place] if root_values is not None else members.get(check._name)
            )
            if value is not None:
                left_if = check._left_if
                if left_if is None or not left_if.refuses(value):
                    keyword = check._keyword
                    accepted = keyword.accepted
                    if (
                        value not in accepted
                        if accepted is not None and type(value) is str
                        else keyword.refuses(value)
                    ):
                        return index
            index += 1
        return index


def _report_repeats(
    parent: str | None,
    name: str,
    items: list[object],
    left_if: Keyword | None,
    says: str,
    findings: list[Finding],
) -> None:
    """Report each string item of `items`, member `name` of `parent`, equal to an earlier one.

    An item a deferred row refuses (`left_if`) is that row's, and not compared.
    """
    if len(items) < 2:
        return  # nothing to repeat: no set made and freed
    seen: set[str] = set()
    for index, item in enumerate(items):
        if left_if is not None and left_if.refuses(item):
            continue
        text = as_string(item)
        if text is None:
            continue
        if text in seen:
            at = item_path(member_path(parent, name), index)
            findings.append(Finding(at, f"{at} {says}"))
        seen.add(text)


def _deferrals(
    pointer: str, deferred: tuple[tuple[tuple[str, ...], Mapping[str, object]], ...]
) -> tuple[Keyword | None, Keyword | None, Keyword | None]:
    """What the rows deferred to refuse at `pointer`, at its array, and at its items."""
    left_if: list[Keyword] = []
    unread_if: list[Keyword] = []
    items_left_if: list[Keyword] = []
    for their_pointers, constraint in deferred:
        for theirs in their_pointers:
            if theirs == pointer:
                left_if.append(constraint_check(constraint))
            elif pointer == f"{theirs}/*":
                unread_if.append(constraint_check(constraint))
            elif theirs == f"{pointer}/*":
                items_left_if.append(constraint_check(constraint))
    return _joined(left_if), _joined(unread_if), _joined(items_left_if)


def _check_deferrals(
    pointers: tuple[str, ...],
    deferred: tuple[tuple[tuple[str, ...], Mapping[str, object]], ...],
) -> None:
    """Refuse, at import, a deferral to a row that judges no pointer of a row, array or item.

    It would leave the row nothing: a name spelt wrong in `defers_to`, or a row moved.
    """
    for their_pointers, _ in deferred:
        if not any(
            theirs in (pointer, f"{pointer}/*") or pointer == f"{theirs}/*"
            for pointer in pointers
            for theirs in their_pointers
        ):
            raise ValueError(f"{pointers}: a row it defers to judges none of them")
