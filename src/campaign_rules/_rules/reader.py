"""The reader of the creation rules: how a rule reads a value of the decoded body.

Every creation rule reads the body through these functions, and the keyword checks of the rows
(`_rules.keywords`) too: a value of one JSON type is read as a plain built-in value of that
type, and any other value is `None`, so a rule never runs code of the value's class (a `str`
or `dict` subclass, D-hostile-input) and never raises. They are defined in `_core.json`, which
the response readers share; this module is the list a rule's page links to (docs/reader.md).

- `read_object(value)`: the string-named members of a readable JSON object, as a plain `dict`;
  `None` for another value or an object of more members than any campaign object holds.
- `array_length(value)`: the number of items of a JSON array, counted without reading them.
- `read_list(value)`: the items of a JSON array, as a plain `list`.
- `as_string(value)`: a JSON string as a plain `str`.
- `as_string_head(value, length)`: the same, a `str` subclass copied at most `length`
  characters (for a rule that refuses every longer text).
- `as_integer(value)`: a JSON integer as a plain `int` (an integral float included,
  D-integral-floats; a boolean is not one).
- `member_path(parent, name)` and `item_path(parent, index)`: the field path a finding
  reports a member or an item at.
"""

from __future__ import annotations

from campaign_rules._core.json import (
    array_length,
    as_integer,
    as_string,
    as_string_head,
    item_path,
    member_path,
    read_list,
    read_object,
)

__all__ = [
    "array_length",
    "as_integer",
    "as_string",
    "as_string_head",
    "item_path",
    "member_path",
    "read_list",
    "read_object",
]
