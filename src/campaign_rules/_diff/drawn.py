"""Bodies drawn from the public Hypothesis strategies: the same ones at every run.

Drawn derandomized (Hypothesis' own fixed seed), with no example database, so that a diff run
twice tries the same bodies and says the same thing.
"""

from __future__ import annotations

from campaign_rules._diff.candidates import HYPOTHESIS_DRAWS, Candidate, text_body

__all__ = ["drawn_bodies"]


def drawn_bodies(count: int = HYPOTHESIS_DRAWS) -> list[Candidate]:
    """`count` valid creation bodies and `count` bodies with one defect, as create requests.

    No bodies when Hypothesis is not installed (the `strategies` extra): the report's count of
    bodies then holds none of them.
    """
    try:
        from hypothesis import HealthCheck, Phase, given, settings

        from campaign_rules.strategies import create_payloads, invalid_create_payloads
    except ImportError:
        return []
    found: list[Candidate] = []
    drawing = settings(
        max_examples=count,
        derandomize=True,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        deadline=None,
    )

    @drawing
    @given(create_payloads(json_only=True))
    def valid(body: object) -> None:
        found.append(_candidate("hypothesis create_payloads", body))

    @drawing
    @given(invalid_create_payloads(json_only=True))
    def invalid(case: tuple[object, object, object]) -> None:
        found.append(_candidate("hypothesis invalid_create_payloads", case[0]))

    valid()
    invalid()
    return found


def _candidate(origin: str, body: object) -> Candidate:
    return Candidate(origin, None, {"kind": "create", "body": text_body(body), "directory": None})
