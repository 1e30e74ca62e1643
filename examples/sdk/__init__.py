"""A reference Campaign Outreach client on httpx, built on `campaign_rules`."""

from examples.sdk.client import CampaignClient, Reply

__all__ = ["CampaignClient", "Reply"]
