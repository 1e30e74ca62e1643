"""Hypothesis strategies for campaign creation bodies and their update patches.

Import requires Hypothesis: install the extra, `pip install 'campaign-rules[strategies]'`.

- `create_payloads()` draws creation bodies that `validate_create` accepts: both channels,
  every optional field, cycles absent, disabled (with ignored junk) or enabled in either mode.
- `invalid_create_payloads()` draws `(payload, expected_key, expected_field)`: a valid body
  with one defect, and the one violation it gives (`expected_field` is `None` for the body as
  a whole). There are as many kinds of defect as `DEFECT_KINDS` lists.
- `update_patches(existing)` draws JSON Merge Patches that `validate_update(existing, patch)`
  accepts on a campaign that is not finished.
- `invalid_update_patches(existing)` draws `(patch, status, expected_key, expected_field)`: an
  update with one defect (an owner field, `cycles.enabled` or `cycles.mode` changed, a cycles
  field on a campaign without cycles, a finished campaign, a patch that is not an object, a
  merged campaign that breaks a creation rule), and the one violation it gives.

A service that embeds the rules can property-test its handler in three lines::

    @given(invalid_create_payloads(json_only=True))
    def test_handler_refuses(case):
        payload, key, field = case
        ...  # post `payload`; expect status 400, error `key` and field `field`

Bounds, members and enumerations are read from the library's own tables, so the strategies
follow the rules. Free text comes mostly from pools built once from a fixed seed (accents,
emoji, control characters, every plane but surrogates), since drawing text is the costliest
thing Hypothesis does.

Only `__all__` is the public surface. The modules of this package each hold one part: the
tables (`_tables`), text (`_texts`), valid bodies (`_payloads`), JSON-like and hostile values
(`_values`), the defects of a body by subject (`_field_defects`, `_schedule_defects`,
`_cycles_defects`, sharing `_defect_parts`, gathered by `_defects`), and update patches
(`_patches`).
"""

from __future__ import annotations

try:
    import hypothesis  # noqa: F401 - imported first to name the extra when it is missing
except ImportError as error:  # pragma: no cover - only without the extra
    raise ImportError(
        "campaign_rules.strategies needs Hypothesis: pip install 'campaign-rules[strategies]'"
    ) from error

from campaign_rules.strategies._defect_parts import Defect
from campaign_rules.strategies._defects import DEFECT_KINDS, invalid_create_payloads
from campaign_rules.strategies._patches import (
    PATCH_DEFECT_KINDS,
    PatchDefect,
    invalid_update_patches,
    update_patches,
)
from campaign_rules.strategies._payloads import create_payloads, is_plain_json

__all__ = [
    "DEFECT_KINDS",
    "PATCH_DEFECT_KINDS",
    "Defect",
    "PatchDefect",
    "create_payloads",
    "invalid_create_payloads",
    "invalid_update_patches",
    "is_plain_json",
    "update_patches",
]
