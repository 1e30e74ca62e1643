"""The results of `validate_create` and `validate_update`.

Each is one of two classes, so that a type checker narrows it: after `if result.ok:`, `value`
is a `CampaignCreate`; otherwise it is `None` and `violations` is not empty. `CreateResult` and
`UpdateResult` are their common bases, for `isinstance` and for code that takes either.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import attrs

from campaign_rules._campaign.models import CampaignCreate
from campaign_rules._core.outcome import Outcome
from campaign_rules._core.violations import Violation

__all__ = [
    "CreateAccepted",
    "CreateRefused",
    "CreateResult",
    "UpdateAccepted",
    "UpdateRefused",
    "UpdateResult",
]


@attrs.frozen
class CreateResult(Outcome[CampaignCreate]):
    """The outcome of `validate_create`: a `CreateAccepted` or a `CreateRefused`.

    `value` is `None` unless `ok`. `status` is 201 when ok, else the primary violation's.
    """

    _ok_status: ClassVar[int] = 201


@attrs.frozen
class CreateAccepted(CreateResult):
    """A creation body that broke no rule: `value` is the campaign, with defaults applied."""

    value: CampaignCreate
    violations: tuple[Violation, ...] = ()

    @property
    def ok(self) -> Literal[True]:
        """Always true: the body broke no rule."""
        return True


@attrs.frozen
class CreateRefused(CreateResult):
    """A creation body that broke a rule: `violations` says which; `value` is `None`."""

    violations: tuple[Violation, ...]
    value: None = None

    @property
    def ok(self) -> Literal[False]:
        """Always false: the body broke a rule."""
        return False


@attrs.frozen
class UpdateResult(Outcome[CampaignCreate]):
    """The outcome of `validate_update`: an `UpdateAccepted` or an `UpdateRefused`.

    `value` is `None` unless `ok`. `status` is 200 when ok, else the primary violation's.
    """

    _ok_status: ClassVar[int] = 200


@attrs.frozen
class UpdateAccepted(UpdateResult):
    """An update that broke no rule: `value` is the merged campaign."""

    value: CampaignCreate
    violations: tuple[Violation, ...] = ()

    @property
    def ok(self) -> Literal[True]:
        """Always true: the update broke no rule."""
        return True


@attrs.frozen
class UpdateRefused(UpdateResult):
    """An update that broke a rule: `violations` says which; `value` is `None`."""

    violations: tuple[Violation, ...]
    value: None = None

    @property
    def ok(self) -> Literal[False]:
        """Always false: the update broke a rule."""
        return False
