"""The enumerations of the spec: channels, cycle modes, campaign states and error keys.

Each is an `enum.StrEnum`: a member is a `str` equal to its wire value, and `str()` of it
is that value, so a member can go into JSON and messages as it is.
"""

from __future__ import annotations

import enum

__all__ = ["CampaignStatus", "ContactStatus", "CyclesMode", "ErrorKey", "IntegrationType"]


class IntegrationType(enum.StrEnum):
    """The channel a campaign runs on (spec 2.1 `integration_type`)."""

    PHONE_CALL = "phone_call"
    WHATSAPP = "whatsapp"


class CyclesMode(enum.StrEnum):
    """How the iterations of a cycling campaign are spaced (spec 2.4 `mode`)."""

    COOLDOWN = "cooldown"
    SCHEDULED = "scheduled"


class CampaignStatus(enum.StrEnum):
    """The states of a campaign (spec 2.2 `status`, spec 3)."""

    PENDING = "pending"
    READY = "ready"
    ACTIVE = "active"
    INACTIVE = "inactive"
    COOLDOWN = "cooldown"
    FINISHED = "finished"


class ContactStatus(enum.StrEnum):
    """The statuses of a campaign contact, on either channel (D-contact-statuses).

    The spec leaves them "not shown" (2.5); these are the ones the public service documents.
    Which channel has which is `CONTACT_STATUSES`, in `_core.limits`.
    """

    QUEUE = "queue"
    SENDING = "sending"
    SENT = "sent"
    DELIVERED = "delivered"
    READ = "read"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    ANSWERED = "answered"
    VOICEMAIL = "voicemail"
    RETRYING = "retrying"
    FAILED = "failed"
    CONVERTED = "converted"


class ErrorKey(enum.StrEnum):
    """The stable error keys of spec 7.2; each member's value is its own name."""

    FORBIDDEN = "FORBIDDEN"
    NOT_FOUND = "NOT_FOUND"
    RATE_LIMITED = "RATE_LIMITED"
    SERVER_ERROR = "SERVER_ERROR"
    INVALID_REQUEST = "INVALID_REQUEST"
    INVALID_STATUS = "INVALID_STATUS"
    IMMUTABLE_FIELD = "IMMUTABLE_FIELD"
    UNKNOWN_ACTION = "UNKNOWN_ACTION"
    AGENT_NOT_FOUND = "AGENT_NOT_FOUND"
    INTEGRATION_NOT_FOUND = "INTEGRATION_NOT_FOUND"
    INVALID_INTEGRATION_TYPE = "INVALID_INTEGRATION_TYPE"
    INVALID_FILTER_TAG = "INVALID_FILTER_TAG"
    INVALID_PHONE_NUMBER = "INVALID_PHONE_NUMBER"
    MISSING_CONTACT = "MISSING_CONTACT"
    CONTACT_NOT_FOUND = "CONTACT_NOT_FOUND"
    CONTACT_NOT_DELETABLE = "CONTACT_NOT_DELETABLE"
    CAMPAIGN_FINISHED = "CAMPAIGN_FINISHED"
    CYCLES_NOT_ENABLED = "CYCLES_NOT_ENABLED"
    SCHEDULED_MODE_ONLY = "SCHEDULED_MODE_ONLY"
    INVALID_STATUS_TRANSITION = "INVALID_STATUS_TRANSITION"
    BILLING_LIMIT_REACHED = "BILLING_LIMIT_REACHED"
