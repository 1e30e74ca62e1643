"""The rules that need a Directory (`campaign_rules._rules.lookups`), and which look-ups run.

Sources: spec 4.1 rules 3 and 4, spec 7.3; api-contract "Error keys" and "Look-ups";
decisions D-agent-id, D-filter-lists, D-statuses.
"""

from __future__ import annotations

from typing import Any

import pytest

from campaign_rules import CampaignStatus, ErrorKey, validate_create, validate_update
from campaign_rules._core.limits import NAME_MAX_LENGTH, RETRIES
from tests.support import (
    AGENT,
    BASES,
    DROP,
    OTHER_AGENT,
    PHONE_INTEGRATION,
    WHATSAPP_INTEGRATION,
    FakeDirectory,
    label,
    payload,
)

INVALID = ErrorKey.INVALID_REQUEST
AGENT_CALL = ("agent_exists", (AGENT,))
PHONE_CALL_TYPE = ("integration_type", (AGENT, PHONE_INTEGRATION))
BILLING = ("billing_limit_reached", ())


def found(result: Any) -> list[tuple[ErrorKey, str | None, str]]:
    return [(v.key, v.field, v.rule) for v in result.violations]


def with_cycles(base: str, **members: Any) -> dict[str, Any]:
    body = payload(base)
    body["cycles"].update(members)
    return body


def tag(name: str) -> tuple[str, tuple[str, ...]]:
    return ("tag_exists", (name,))


class TestAgentExists:
    def test_an_unknown_agent_is_agent_not_found(self) -> None:
        directory = FakeDirectory(agents={OTHER_AGENT})
        result = validate_create(payload(), directory=directory)
        assert found(result) == [(ErrorKey.AGENT_NOT_FOUND, "agent_id", "lookup.agent_exists")]
        assert result.status == 404
        assert result.envelope() == {
            "success": False,
            "error": "AGENT_NOT_FOUND",
            "message": "no agent has this agent_id",
            "field": "agent_id",
        }

    def test_a_known_agent_is_accepted(self) -> None:
        assert validate_create(payload(), directory=FakeDirectory()).ok

    def test_the_agent_id_is_looked_up_in_lower_case(self) -> None:
        directory = FakeDirectory()
        result = validate_create(payload(agent_id=AGENT.upper()), directory=directory)
        assert result.ok
        assert directory.calls[0] == AGENT_CALL

    def test_without_a_directory_nothing_is_looked_up(self) -> None:
        assert validate_create(payload(agent_id=OTHER_AGENT.replace("0", "1", 1))).ok


class TestIntegrationBelongsToAgent:
    def test_an_unknown_integration_is_integration_not_found(self) -> None:
        result = validate_create(payload(integration_id="int-nope"), directory=FakeDirectory())
        assert found(result) == [
            (
                ErrorKey.INTEGRATION_NOT_FOUND,
                "integration_id",
                "lookup.integration_belongs_to_agent",
            )
        ]
        assert result.status == 404
        assert result.envelope() == {
            "success": False,
            "error": "INTEGRATION_NOT_FOUND",
            "message": "the agent has no integration with this integration_id",
            "field": "integration_id",
        }

    def test_an_integration_of_another_agent_counts_as_not_found(self) -> None:
        directory = FakeDirectory()
        directory.integrations[(OTHER_AGENT, "int-other")] = "phone_call"
        result = validate_create(payload(agent_id=OTHER_AGENT), directory=directory)
        assert found(result) == [
            (
                ErrorKey.INTEGRATION_NOT_FOUND,
                "integration_id",
                "lookup.integration_belongs_to_agent",
            )
        ]
        assert ("integration_type", (OTHER_AGENT, PHONE_INTEGRATION)) in directory.calls
        other = validate_create(
            payload(agent_id=OTHER_AGENT, integration_id="int-other"), directory=directory
        )
        assert other.ok

    def test_an_unknown_agent_leaves_the_integration_unjudged(self) -> None:
        directory = FakeDirectory(agents=set())
        result = validate_create(payload(integration_id="int-nope"), directory=directory)
        assert result.keys == (ErrorKey.AGENT_NOT_FOUND,)


class TestIntegrationTypeMatches:
    @pytest.mark.parametrize(
        ("base", "integration_id"),
        [("phone_call", WHATSAPP_INTEGRATION), ("whatsapp", PHONE_INTEGRATION)],
    )
    def test_an_integration_of_the_other_type_is_invalid_integration_type(
        self, base: str, integration_id: str
    ) -> None:
        result = validate_create(
            payload(base, integration_id=integration_id), directory=FakeDirectory()
        )
        assert found(result) == [
            (
                ErrorKey.INVALID_INTEGRATION_TYPE,
                "integration_type",
                "lookup.integration_type_matches",
            )
        ]
        assert result.status == 400
        assert result.envelope() == {
            "success": False,
            "error": "INVALID_INTEGRATION_TYPE",
            "message": "integration_type is not the type of this integration",
            "field": "integration_type",
        }

    def test_a_type_the_library_does_not_know_is_a_mismatch(self) -> None:
        directory = FakeDirectory()
        directory.integrations[(AGENT, PHONE_INTEGRATION)] = "sms"
        assert validate_create(payload(), directory=directory).keys == (
            ErrorKey.INVALID_INTEGRATION_TYPE,
        )

    def test_an_unsupported_integration_type_is_reported_once_offline(self) -> None:
        result = validate_create(payload(integration_type="sms"), directory=FakeDirectory())
        assert found(result) == [
            (ErrorKey.INVALID_INTEGRATION_TYPE, "integration_type", "integration_type.is_supported")
        ]

    @pytest.mark.parametrize("base", ["phone_call", "whatsapp", "cooldown", "scheduled"])
    def test_a_matching_type_is_accepted(self, base: str) -> None:
        result = validate_create(payload(base), directory=FakeDirectory())
        assert result.ok, found(result)


class TestFilterTagsExist:
    @pytest.mark.parametrize("base", ["cooldown", "scheduled"])
    def test_each_unknown_tag_is_invalid_filter_tag_at_its_index(self, base: str) -> None:
        body = with_cycles(base, filter_tags=["tag-vip", "nope", "tag-3", "nope-2"])
        result = validate_create(body, directory=FakeDirectory())
        assert found(result) == [
            (ErrorKey.INVALID_FILTER_TAG, "cycles.filter_tags[1]", "lookup.filter_tags_exist"),
            (ErrorKey.INVALID_FILTER_TAG, "cycles.filter_tags[3]", "lookup.filter_tags_exist"),
        ]
        assert result.status == 400
        assert result.envelope()["field"] == "cycles.filter_tags[1]"

    def test_a_repeated_unknown_tag_is_reported_and_asked_once(self) -> None:
        directory = FakeDirectory()
        result = validate_create(
            with_cycles("cooldown", filter_tags=["nope", "nope"]), directory=directory
        )
        assert found(result) == [
            (INVALID, "cycles.filter_tags[1]", "cycles.filter_items_are_unique"),
            (ErrorKey.INVALID_FILTER_TAG, "cycles.filter_tags[0]", "lookup.filter_tags_exist"),
        ]
        assert directory.calls.count(tag("nope")) == 1

    def test_known_tags_are_accepted(self) -> None:
        body = with_cycles("cooldown", filter_tags=["tag-vip", "tag-optout", "tag-3"])
        assert validate_create(body, directory=FakeDirectory()).ok

    def test_filter_statuses_are_not_tags(self) -> None:
        directory = FakeDirectory()
        assert validate_create(
            with_cycles("cooldown", filter_statuses=["voicemail"]), directory=directory
        ).ok
        assert tag("nope") not in directory.calls


class TestBillingLimitNotReached:
    def test_a_reached_limit_is_billing_limit_reached_without_a_field(self) -> None:
        result = validate_create(payload(), directory=FakeDirectory(billing_reached=True))
        assert found(result) == [
            (ErrorKey.BILLING_LIMIT_REACHED, None, "lookup.billing_limit_not_reached")
        ]
        assert result.status == 402
        assert result.envelope() == {
            "success": False,
            "error": "BILLING_LIMIT_REACHED",
            "message": "the billing limit is reached",
        }

    def test_a_limit_not_reached_is_accepted(self) -> None:
        assert validate_create(payload(), directory=FakeDirectory(billing_reached=False)).ok


class FalsyDirectory(FakeDirectory):
    """A directory that is a perfectly good Directory but is false in a boolean context."""

    def __len__(self) -> int:
        return 0


class TestLookupCalls:
    """api-contract "Look-ups": every look-up whose inputs passed their own offline rules runs."""

    @pytest.mark.parametrize(
        ("body", "calls"),
        [
            (payload(), [AGENT_CALL, PHONE_CALL_TYPE, BILLING]),
            (
                payload("whatsapp"),
                [AGENT_CALL, ("integration_type", (AGENT, WHATSAPP_INTEGRATION)), BILLING],
            ),
            (payload("cooldown"), [AGENT_CALL, PHONE_CALL_TYPE, tag("tag-optout"), BILLING]),
            (payload("scheduled"), [AGENT_CALL, PHONE_CALL_TYPE, BILLING]),
        ],
        ids=["phone_call", "whatsapp", "cooldown", "scheduled"],
    )
    def test_a_valid_payload_asks_each_look_up_once_in_order(
        self, body: dict[str, Any], calls: list[Any]
    ) -> None:
        directory = FakeDirectory()
        validate_create(body, directory=directory)
        assert directory.calls == calls

    def test_the_agent_id_is_passed_in_lower_case_to_both_look_ups(self) -> None:
        directory = FakeDirectory()
        validate_create(payload(agent_id=AGENT.upper()), directory=directory)
        assert directory.calls == [AGENT_CALL, PHONE_CALL_TYPE, BILLING]

    @pytest.mark.parametrize(
        "agent_id",
        [
            DROP,
            None,
            5,
            "",
            "nope",
            AGENT.replace("-", ""),
            "{" + AGENT + "}",
            AGENT[:14] + "1" + AGENT[15:],
        ],
        ids=label,
    )
    def test_an_ill_formed_agent_id_is_not_looked_up_nor_its_integration(
        self, agent_id: object
    ) -> None:
        directory = FakeDirectory()
        result = validate_create(payload(agent_id=agent_id), directory=directory)
        assert directory.calls == [BILLING]
        assert result.keys == (INVALID,)

    def test_an_unknown_agent_stops_the_integration_look_up(self) -> None:
        directory = FakeDirectory(agents={OTHER_AGENT})
        validate_create(payload(), directory=directory)
        assert directory.calls == [AGENT_CALL, BILLING]

    @pytest.mark.parametrize("integration_id", [DROP, None, "", 5, ["int-phone-1"]], ids=label)
    def test_an_ill_formed_integration_id_is_not_looked_up(self, integration_id: object) -> None:
        directory = FakeDirectory()
        validate_create(payload(integration_id=integration_id), directory=directory)
        assert directory.calls == [AGENT_CALL, BILLING]

    def test_each_well_formed_distinct_tag_of_an_enabled_block_is_asked_once(self) -> None:
        directory = FakeDirectory()
        tags = ["tag-vip", "", 5, None, "nope", "tag-vip", "nope", "tag-3", ["x"]]
        validate_create(with_cycles("cooldown", filter_tags=tags), directory=directory)
        assert directory.calls == [
            AGENT_CALL,
            PHONE_CALL_TYPE,
            tag("tag-vip"),
            tag("nope"),
            tag("tag-3"),
            BILLING,
        ]

    @pytest.mark.parametrize(
        "block",
        [
            {"enabled": False, "mode": "cooldown", "filter_tags": ["tag-vip", "nope"]},
            {"mode": "cooldown", "filter_tags": ["tag-vip", "nope"]},
            {"enabled": "yes", "filter_tags": ["tag-vip", "nope"]},
        ],
        ids=["disabled", "omitted", "not a boolean"],
    )
    def test_tags_of_a_block_not_enabled_are_not_looked_up(self, block: dict[str, Any]) -> None:
        directory = FakeDirectory()
        validate_create(payload(cycles=block), directory=directory)
        assert directory.calls == [AGENT_CALL, PHONE_CALL_TYPE, BILLING]

    def test_tags_of_a_list_over_100_items_are_not_looked_up(self) -> None:
        directory = FakeDirectory()
        tags = [f"t{i}" for i in range(101)]
        result = validate_create(with_cycles("cooldown", filter_tags=tags), directory=directory)
        assert directory.calls == [AGENT_CALL, PHONE_CALL_TYPE, BILLING]
        assert result.keys == (INVALID,)

    def test_tags_of_a_list_of_100_items_are_each_looked_up(self) -> None:
        tags = [f"t{i}" for i in range(100)]
        directory = FakeDirectory(tags=set(tags))
        result = validate_create(with_cycles("cooldown", filter_tags=tags), directory=directory)
        assert directory.calls == [AGENT_CALL, PHONE_CALL_TYPE, *map(tag, tags), BILLING]
        assert result.ok

    def test_look_ups_run_whatever_400s_the_payload_has(self) -> None:
        body = payload(
            "cooldown",
            name="x" * (NAME_MAX_LENGTH + 1),
            retries=9,
            colour="red",
            template="wrong channel",
            timezone="Mars/Olympus",
            scheduling={"mon": {"startTime": "24:00", "stopTime": "09:00", "active": "yes"}},
        )
        body["cycles"].update(
            max_iterations=99, schedule={"mon": {}}, filter_tags=["", "tag-3", "nope"]
        )
        directory = FakeDirectory(billing_reached=True)
        result = validate_create(body, directory=directory)
        assert directory.calls == [AGENT_CALL, PHONE_CALL_TYPE, tag("tag-3"), tag("nope"), BILLING]
        assert result.status == 400
        assert ErrorKey.INVALID_FILTER_TAG in result.keys
        assert result.keys[-1] == ErrorKey.BILLING_LIMIT_REACHED

    def test_tags_of_an_enabled_block_on_whatsapp_are_looked_up(self) -> None:
        directory = FakeDirectory()
        body = payload("whatsapp", cycles=BASES["cooldown"]["cycles"])
        result = validate_create(body, directory=directory)
        assert tag("tag-optout") in directory.calls
        assert found(result) == [(INVALID, "cycles", "cycles.enabled_only_on_phone_call")]

    @pytest.mark.parametrize("body", [None, [], "x", 5, {}, {"name": 5}], ids=repr)
    def test_billing_is_asked_even_of_a_body_that_is_no_campaign(self, body: object) -> None:
        directory = FakeDirectory(billing_reached=True)
        result = validate_create(body, directory=directory)
        assert directory.calls == [BILLING]
        assert result.keys[-1] == ErrorKey.BILLING_LIMIT_REACHED
        assert result.status == 400

    def test_a_directory_false_in_a_boolean_context_is_still_asked(self) -> None:
        directory = FalsyDirectory()
        result = validate_create(payload(), directory=directory)
        assert directory.calls == [AGENT_CALL, PHONE_CALL_TYPE, BILLING]
        assert result.ok

    def test_billing_is_asked_even_past_the_violation_cap(self) -> None:
        directory = FakeDirectory()
        body = payload(**{f"extra{i}": 1 for i in range(55)})
        result = validate_create(body, directory=directory)
        assert len(result.violations) == 50
        assert directory.calls == [AGENT_CALL, PHONE_CALL_TYPE, BILLING]

    def test_every_tag_and_billing_are_asked_past_the_violation_cap(self) -> None:
        tags = [f"t{i}" for i in range(100)]
        directory = FakeDirectory()
        validate_create(with_cycles("cooldown", filter_tags=tags), directory=directory)
        assert directory.calls == [AGENT_CALL, PHONE_CALL_TYPE, *map(tag, tags), BILLING]

    @pytest.mark.parametrize(
        "body",
        [
            payload(),
            payload(agent_id=OTHER_AGENT, retries=RETRIES.high + 1),
            payload(integration_id="int-nope", colour=1),
            with_cycles("cooldown", filter_tags=["nope", "", "nope"]),
            payload("whatsapp", integration_id=PHONE_INTEGRATION, first_message="x"),
            None,
        ],
        ids=["valid", "agent", "integration", "tags", "type", "none"],
    )
    def test_offline_violations_are_a_subset_of_those_found_with_a_directory(
        self, body: object
    ) -> None:
        offline = validate_create(body).violations
        online = validate_create(body, directory=FakeDirectory(billing_reached=True)).violations
        assert set(offline) <= set(online)
        assert online[: len(offline)] == offline


class TestStatusPrecedence:
    """api-contract: the primary violation is the first by status 400, then 404, 409, 402."""

    def test_404_beats_402(self) -> None:
        result = validate_create(
            payload(), directory=FakeDirectory(agents=set(), billing_reached=True)
        )
        assert result.keys == (ErrorKey.AGENT_NOT_FOUND, ErrorKey.BILLING_LIMIT_REACHED)
        assert result.status == 404
        assert result.envelope()["error"] == "AGENT_NOT_FOUND"

    def test_an_integration_404_beats_402(self) -> None:
        directory = FakeDirectory(billing_reached=True)
        result = validate_create(payload(integration_id="int-nope"), directory=directory)
        assert result.status == 404
        assert result.envelope()["field"] == "integration_id"

    def test_400_beats_404_and_402(self) -> None:
        directory = FakeDirectory(agents=set(), billing_reached=True)
        result = validate_create(payload(retries=9), directory=directory)
        assert result.keys == (
            INVALID,
            ErrorKey.AGENT_NOT_FOUND,
            ErrorKey.BILLING_LIMIT_REACHED,
        )
        assert result.status == 400
        assert result.envelope()["field"] == "retries"

    def test_a_400_found_after_a_404_is_still_primary(self) -> None:
        directory = FakeDirectory(agents=set(), billing_reached=True)
        result = validate_create(with_cycles("cooldown", filter_tags=["nope"]), directory=directory)
        assert result.keys == (
            ErrorKey.AGENT_NOT_FOUND,
            ErrorKey.INVALID_FILTER_TAG,
            ErrorKey.BILLING_LIMIT_REACHED,
        )
        assert result.status == 400
        assert result.envelope()["error"] == "INVALID_FILTER_TAG"
        assert result.envelope()["field"] == "cycles.filter_tags[0]"

    def test_400_then_404_then_409_then_402_on_update(self) -> None:
        existing = validate_create(BASES["phone_call"]).value
        finished = CampaignStatus.FINISHED

        def update(patch: dict[str, Any], directory: FakeDirectory) -> Any:
            return validate_update(existing, patch, status=finished, directory=directory)

        billing = update({"name": "x"}, FakeDirectory(billing_reached=True))
        assert billing.keys == (ErrorKey.CAMPAIGN_FINISHED, ErrorKey.BILLING_LIMIT_REACHED)
        assert billing.status == 409

        missing = update({"name": "x"}, FakeDirectory(agents=set(), billing_reached=True))
        assert set(missing.keys) == {
            ErrorKey.CAMPAIGN_FINISHED,
            ErrorKey.AGENT_NOT_FOUND,
            ErrorKey.BILLING_LIMIT_REACHED,
        }
        assert missing.status == 404
        assert missing.envelope()["error"] == "AGENT_NOT_FOUND"

        invalid = update({"retries": 9}, FakeDirectory(agents=set(), billing_reached=True))
        assert invalid.status == 400
        assert invalid.envelope() == {
            "success": False,
            "error": "INVALID_REQUEST",
            "message": RETRIES.must_be("retries"),
            "field": "retries",
        }

    def test_the_directory_sees_the_merged_campaign_on_update(self) -> None:
        existing = validate_create(BASES["cooldown"]).value
        directory = FakeDirectory()
        result = validate_update(
            existing, {"cycles": {"filter_tags": ["nope"]}}, directory=directory
        )
        assert found(result) == [
            (ErrorKey.INVALID_FILTER_TAG, "cycles.filter_tags[0]", "lookup.filter_tags_exist")
        ]
        assert directory.calls == [AGENT_CALL, PHONE_CALL_TYPE, tag("nope"), BILLING]
