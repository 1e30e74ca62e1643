"""The results of `validate_create` and `validate_update`.

Each is one of two classes, so that a type checker narrows it: after `if result.ok:`, `value`
is a `CampaignCreate`; otherwise it is `None` and `violations` is not empty. `CreateResult` and
`UpdateResult` are their common bases, for `isinstance` and for code that takes either. The
four are plain subclasses of those attrs classes, with no fields of their own: making an attrs
class costs import time, and each variant differs only in what a type checker knows (its `ok`
from `_Accepted` or `_Refused`, and the type of its `value`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

import attrs

from campaign_rules._campaign.models import CampaignCreate
from campaign_rules._core.outcome import Outcome

__all__ = [
    "CreateAccepted",
    "CreateRefused",
    "CreateResult",
    "UpdateAccepted",
    "UpdateRefused",
    "UpdateResult",
]


class _Accepted:
    """What every accepted result says of itself: `ok` is always true."""

    __slots__ = ()

    @property
    def ok(self) -> Literal[True]:
        """Always true: nothing broke a rule."""
        return True


class _Refused:
    """What every refused result says of itself: `ok` is always false."""

    __slots__ = ()

    @property
    def ok(self) -> Literal[False]:
        """Always false: a rule was broken."""
        return False


@attrs.frozen
class CreateResult(Outcome[CampaignCreate]):
    """The outcome of `validate_create`: a `CreateAccepted` or a `CreateRefused`.

    `value` is `None` unless `ok`. `status` is 201 when ok, else the primary violation's.
    """

    _ok_status: ClassVar[int] = 201


class CreateAccepted(_Accepted, CreateResult):
    """A creation body that broke no rule: `value` is the campaign, with defaults applied."""

    __slots__ = ()
    if TYPE_CHECKING:  # narrowed for type checkers; the field itself is the base's
        value: CampaignCreate


class CreateRefused(_Refused, CreateResult):
    """A creation body that broke a rule: `violations` says which; `value` is `None`."""

    __slots__ = ()
    if TYPE_CHECKING:
        value: None


@attrs.frozen
class UpdateResult(Outcome[CampaignCreate]):
    """The outcome of `validate_update`: an `UpdateAccepted` or an `UpdateRefused`.

    `value` is `None` unless `ok`. `status` is 200 when ok, else the primary violation's.
    """

    _ok_status: ClassVar[int] = 200


class UpdateAccepted(_Accepted, UpdateResult):
    """An update that broke no rule: `value` is the merged campaign."""

    __slots__ = ()
    if TYPE_CHECKING:
        value: CampaignCreate


class UpdateRefused(_Refused, UpdateResult):
    """An update that broke a rule: `violations` says which; `value` is `None`."""

    __slots__ = ()
    if TYPE_CHECKING:
        value: None
