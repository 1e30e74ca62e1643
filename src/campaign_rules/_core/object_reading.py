"""Reading a JSON object of the payload against its declared shape, in one pass: the shape scan.

A shape (`ObjectKind`) is declared data: an object's members and their JSON types, the members
it must hold, whether it holds no other, and the members whose type another rule owns; JSON
Schema's `properties`, `type`, `required` and `additionalProperties`. A `Site` is an object of
the payload read against its kind: its members read once, as the reader reads an object
(`_core.json.read_object`), with what the shape rules (`_rules.shape`) would each walk them for.
A `Payload` is a body whose root is such a site: the creation rules' `Document` is one, and a
rule on a member of the payload reads it in `Payload.root`, or at its place in the shape in
`Payload.root_values`. A `MemberIs` is a fact of a payload
declared as data: its member at a pointer is a given JSON value.

Generic: nothing here names a member of the campaign. The campaign's shapes are
`_campaign.shape`'s, and its objects in force `_campaign.sites`'.
"""

from __future__ import annotations

import sys
from typing import Any, Final

from campaign_rules._core.compiled import mypyc_attr
from campaign_rules._core.json import PLAIN_CLASSES, as_string_head, read_object
from campaign_rules._core.limits import OBJECT_MAX_MEMBERS

__all__ = ["MemberIs", "MemberSpec", "MemberTypes", "ObjectKind", "Payload", "Site"]

# A member name, mapped to the JSON types it may hold.
MemberTypes = dict[str, tuple[str, ...]]


class MemberSpec:
    """What `Site._scan` reads of one member of an `ObjectKind`'s shape.

    `cls`: the built-in class of its first JSON type (an exact `str` for a string member, ...);
    `required`: whether its object must hold it; `index`: its place in the shape, where a site
    that keeps its members' values keeps its value (`Site.values`).
    """

    __slots__ = ("cls", "index", "required")

    def __init__(self, cls: type, required: bool, index: int) -> None:
        self.cls = cls
        self.required = required
        self.index = index


class ObjectKind:
    """What an object of the payload is checked against, for `Site`.

    `shape`: its members and their JSON types; `required`: the members it must hold; `closed`:
    whether members outside `shape` are refused; `left_to_others`: members whose JSON type
    another rule owns; `specs`: each member's `MemberSpec` (the built-in class of its first JSON
    type, whether it is required, its place in the shape), for `Site._scan`, made once here
    rather than on every site; `no_values`, the values of a site that holds none of them, which
    a site that keeps its values starts from (a tuple: shared by every such site).
    """

    __slots__ = ("closed", "left_to_others", "no_values", "required", "shape", "specs")

    def __init__(
        self,
        shape: MemberTypes,
        required: tuple[str, ...] = (),
        closed: bool = True,
        left_to_others: tuple[str, ...] = (),
    ) -> None:
        self.shape = shape
        self.required = required
        self.closed = closed
        self.left_to_others = left_to_others
        self.specs = {
            name: MemberSpec(PLAIN_CLASSES[types[0]], name in required, index)
            for index, (name, types) in enumerate(shape.items())
        }
        self.no_values: tuple[object, ...] = (None,) * len(shape)

    def place(self, name: str) -> int:
        """The place of the member `name` among a site's values (`Site.values`); refused if none.

        Read once, where a module sets a member's place aside for every body: a read of a value
        at its place looks no name up.
        """
        spec = self.specs.get(name)
        if spec is None:
            raise ValueError(f"{name!r}: not a member of the shape")
        return spec.index


# Compiled, each body makes its sites and frees them all once its result is made: a free list of
# one per class keeps the last one freed for the next body, without the allocator.
@mypyc_attr(free_list_len=1)
class Site:
    """An object of the payload whose members are checked, and the shape they are checked against.

    `raw` is the object as given; `members` its string-named members, read once (`None` when it
    is too large to read); `kind` the `ObjectKind` it is checked against (its `shape`,
    `required`, `closed` and `left_to_others`), referred to rather than copied: four fields
    fewer to set and free on every site.

    Its members are read in one pass when it is made, with the check that their names are plain
    strings, for the shape rules, which would each walk them otherwise: `all_known`, whether
    every name is in `shape`; `to_type_check`, the known names whose value is not of the
    built-in class of its first JSON type (an exact `str` for a string member, ...), which the
    type rule checks, the others being of their type; `required_absent`, how many of the
    members of `required` it lacks, which the rule on required members then looks for only when
    there are some. `clean` sums them up: a plain `dict` that is its own members, every name
    known, no required member absent, nothing to type-check; in such a site the shape rules find
    nothing. `values`, when the site is given a list to keep them in: the value of each member
    of its shape among `members`, at its place (`MemberSpec.index`), `None` for one it lacks, so
    that a rule reads it with no look-up of its name.

    A plain class with typed attributes rather than a `NamedTuple`: compiled with mypyc, its
    attributes are read as fields of a C struct (D-compiled-build).
    """

    clean: bool
    __slots__ = (
        "all_known",
        "clean",
        "kind",
        "members",
        "path",
        "raw",
        "required_absent",
        "to_type_check",
        "values",
    )

    def __init__(
        self, path: str | None, raw: object, kind: ObjectKind, values: list[object] | None = None
    ) -> None:
        self.path = path
        self.raw = raw
        self.kind = kind
        # What a complete object of its kind has, as a subclass's `_scan` may find one without
        # reading on.
        self.all_known = True
        self.required_absent = 0
        self.to_type_check: tuple[str, ...] = ()
        self.members: dict[str, object] | None = None
        self.values = values
        # The common case, in one pass: a plain `dict` within the member limit whose names are
        # all plain strings is its own members, as `read_object` would give it (and its scan
        # says whether it is `clean`).
        if type(raw) is dict and len(raw) <= OBJECT_MAX_MEMBERS and self._scan(raw, kind):
            self.members = raw
            return
        # Any other value: `read_object` reads it, or refuses it (`None`); never clean.
        members = read_object(raw)
        if values is not None and type(raw) is dict:  # what a scan stopped on a name kept
            values[:] = kind.no_values
        if members is not None and self._scan(members, kind):
            self.members = members
        self.clean = False

    def _scan(self, members: dict[Any, object], kind: ObjectKind) -> bool:
        """Read `all_known`, `to_type_check`, `required_absent` and `clean` off `members`.

        The answer is whether every name is a plain `str`; when one is not, nothing is read
        (but the values kept of the members met before it, which `__init__` clears).
        """
        specs = kind.specs
        values = self.values
        all_known = True
        required_held = 0  # names are unique, so this counts distinct members of `required`
        odd: list[str] | None = None  # made only when needed: most sites have none
        for name, value in members.items():
            if type(name) is not str:
                return False
            spec = specs.get(name)
            if spec is None:
                all_known = False
                continue
            if values is not None:
                values[spec.index] = value
            if spec.required:
                required_held += 1
            if type(value) is not spec.cls:
                if odd is None:
                    odd = []
                odd.append(name)
        required_absent = len(kind.required) - required_held
        self.all_known = all_known
        self.required_absent = required_absent
        if odd is not None:
            self.to_type_check = tuple(odd)
        # From the locals, as it stands, rather than reading the attributes back.
        self.clean = all_known and required_absent == 0 and odd is None
        return True


# What `Payload.object_at` has kept before it has read any object: no name is it.
_NOTHING_KEPT: Final = object()


class Payload:
    """A body as the rules read it: `payload` as given, its root site, and the root's members.

    `root_site` is the payload read against `kind` (a `Site` with no path); `root` its members
    (`Site.members`), `{}` when the payload is no object or one too large to read
    (D-hostile-input); `root_values` the values of the members of `kind`'s shape among them, at
    their places (`Site.values`). A rule on a member of the payload reads it in `root`, or at its
    place in `root_values`, and on a member of an object member of the payload in
    `object_at(name)`.
    """

    def __init__(self, payload: object, kind: ObjectKind) -> None:
        self.payload = payload
        self.root_values: list[object] = list(kind.no_values)
        root_site = Site(None, payload, kind, self.root_values)
        self.root_site = root_site
        self.root: dict[str, object] = root_site.members if root_site.members is not None else {}
        self._kept_name: object = _NOTHING_KEPT
        self._kept: dict[str, object] | None = None

    def object_at(self, name: str) -> dict[str, object] | None:
        """The payload's member `name` read as the reader reads an object (`read_object`).

        `None` when it is absent, no object, or one too large to read. The object last read is
        kept for the next ask of the same name: the facts and the rows of an object member ask
        for it several times a payload, and reading it checks every member name.
        """
        # Kept by the name's identity: the library's names are interned constants. Another
        # object of the same text is read again, which gives an equal object.
        if name is not self._kept_name:
            self._kept = read_object(self.root.get(name))
            self._kept_name = name
        return self._kept


class MemberIs:
    """A fact of a payload: its member at `pointer` is the JSON value `value`.

    JSON Schema's `const` on a member that must be present. `pointer` (RFC 6901, plain names:
    no `~` escape, no `*`) names a member of the payload, `/enabled`, or a member of an object
    member of the payload, `/cycles/enabled`, read in `Payload.object_at`. The member's value is
    read as the reader reads one (`_core.json`): a boolean fact holds of `true` or `false`
    itself (an integer is no boolean), a string fact of a JSON string of that text (a `str`
    subclass read as the text it holds, none of its code run). An absent member, or an object
    that is none or too large to read, does not hold.
    """

    __slots__ = ("name", "object_name", "value")

    def __init__(self, pointer: str, value: bool | str) -> None:
        steps = pointer.split("/")
        plain = all(steps[1:]) and "~" not in pointer and "*" not in steps
        if steps[0] or not 2 <= len(steps) <= 3 or not plain:
            raise ValueError(f"{pointer!r} is not a pointer to a member, or to one of an object")
        # Interned, as the names the library spells in its code are: a member of that name,
        # when it is the same object, is found by identity.
        self.object_name: str | None = sys.intern(steps[1]) if len(steps) == 3 else None
        self.name = sys.intern(steps[-1])
        self.value = value

    def holds(self, payload: Payload) -> bool:
        """Whether the fact holds of `payload`."""
        object_name = self.object_name
        members = payload.root if object_name is None else payload.object_at(object_name)
        return members is not None and self.holds_in(members)

    def holds_in(self, members: dict[str, object]) -> bool:
        """Whether the fact holds of the member's object, whose members are `members`."""
        value = members.get(self.name)
        expected = self.value
        if type(expected) is str:
            # Cut one character past the text: a longer `str` subclass is not copied whole.
            return as_string_head(value, len(expected) + 1) == expected
        return value is expected
