"""The entry points: `validate_create` and `validate_update`, and the same from the body's text."""

from __future__ import annotations

from campaign_rules._campaign.directory import Directory, checked_directory
from campaign_rules._campaign.results import (
    CreateAccepted,
    CreateRefused,
    UpdateAccepted,
    UpdateRefused,
)
from campaign_rules._core.enums import CampaignStatus
from campaign_rules._rules.json_validation import create_json_result, update_json_result
from campaign_rules._rules.validation import create_result, update_result

__all__ = ["validate_create", "validate_create_json", "validate_update", "validate_update_json"]

# These two hold the documentation: a compiled function has no docstring, and checks the types
# of its arguments at run time. What they run is in `_rules.validation` (setup.py says which
# modules the compiled build compiles; D-compiled-build).


def validate_create(
    payload: object, *, directory: Directory | None = None
) -> CreateAccepted | CreateRefused:
    """Check a campaign creation body (spec 2.1, 4.1) against every rule.

    `payload` is the decoded JSON body, any Python value. With a `directory`, the rules that
    need the server's records run too; without one, only the offline rules do, and what they
    find is always a subset of what they find with one. Never raises for any payload, never
    changes it, and reports every violation in rule order: at most 50 offline ones, then those
    of the look-ups (D-hostile-input). Raises `TypeError` only for a `directory` that is not
    a `Directory`.
    """
    # `checked_directory` answers `None` too, but it is an interpreted call on every request:
    # skipped for the offline check.
    if directory is not None:
        directory = checked_directory(directory)
    return create_result(payload, directory)


def validate_update(
    existing: object,
    patch: object,
    *,
    status: CampaignStatus | None = None,
    directory: Directory | None = None,
) -> UpdateAccepted | UpdateRefused:
    """Check a JSON Merge Patch (RFC 7396) of a campaign's creation fields.

    `existing` is the campaign as created: the `CampaignCreate` that `validate_create` gave, or
    the campaign's wire JSON as the server stored it (`to_wire` of that value, read back from a
    database). Stored JSON is read with the offline creation rules first; what they refuse in it
    is the server's fault, reported as `SERVER_ERROR` violations (500) of the rule
    `update.existing_is_a_campaign`, and the patch is then not judged. `status` is the
    campaign's current status, when known. The rules of the change itself run next (immutable
    fields, cycles not enabled, finished campaign), then every creation rule on the merged
    campaign. Never raises for any value of `existing`, `patch` or `status`, and changes none;
    raises `TypeError` only for a `directory` that is not a `Directory`.
    """
    if directory is not None:  # as in `validate_create`
        directory = checked_directory(directory)
    return update_result(existing, patch, status, directory)


def validate_create_json(
    data: object, *, directory: Directory | None = None
) -> CreateAccepted | CreateRefused:
    """Check a campaign creation body as received, as bytes or text.

    `data` is its `bytes` (or a `bytearray`, a `memoryview`), or its text as a `str`.
    The body is read strictly as I-JSON (RFC 7493, D-body-limits): a body that is not bytes or
    text, over the size limit (`BODY_MAX_BYTES`), with a byte order mark, not UTF-8, not JSON,
    nested too deeply, with a member name repeated in its object, a lone surrogate, or a number
    no IEEE double holds, is refused with a violation of its body rule for each such defect
    (at most 50, the first of the text, as offline: D-hostile-input), and judged no further.
    Any other body is judged by `validate_create` on its value: on an I-JSON text the verdict
    (ok, each violation's key, field, rule and pointer, in order, and the value) is that of
    `validate_create(json.loads(text))`.

    Each violation of a refused body holds the `line` and `column` of its member in the text
    (the start of its value; of its object, for an absent member; for a body rule's, the token
    at fault: a repeated name at the name), found only when there is something to report.
    Never raises for any `data`; raises `TypeError` only for a `directory` that is not a
    `Directory`.
    """
    if directory is not None:  # as in `validate_create`
        directory = checked_directory(directory)
    return create_json_result(data, directory)


def validate_update_json(
    existing: object,
    patch_data: object,
    *,
    status: CampaignStatus | None = None,
    directory: Directory | None = None,
) -> UpdateAccepted | UpdateRefused:
    """Check a JSON Merge Patch (RFC 7396) as received: `patch_data` is its bytes or text.

    The patch is read as `validate_create_json` reads a body, then judged by `validate_update`
    (`existing`, `status` and `directory` as there). Its violations are placed in the patch's
    text, but those about `existing` or `status`, which are not in it. Never raises for any
    value of `existing`, `patch_data` or `status`; raises `TypeError` only for a `directory`
    that is not a `Directory`.
    """
    if directory is not None:
        directory = checked_directory(directory)
    return update_json_result(existing, patch_data, status, directory)
