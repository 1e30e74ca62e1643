"""The results of `validate_create` and `validate_update`."""

from __future__ import annotations

from typing import ClassVar

import attrs

from campaign_rules._campaign.models import CampaignCreate
from campaign_rules._core.outcome import Outcome

__all__ = ["CreateResult", "UpdateResult"]


@attrs.frozen
class CreateResult(Outcome[CampaignCreate]):
    """The outcome of `validate_create`: the campaign with defaults applied, or violations.

    `value` is `None` unless `ok`. `status` is 201 when ok, else the primary violation's.
    """

    _ok_status: ClassVar[int] = 201


@attrs.frozen
class UpdateResult(Outcome[CampaignCreate]):
    """The outcome of `validate_update`: the merged campaign, or violations.

    `value` is `None` unless `ok`. `status` is 200 when ok, else the primary violation's.
    """

    _ok_status: ClassVar[int] = 200
