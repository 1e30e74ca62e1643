"""Properties of audit summaries: merging is associative, and any split gives the whole.

Any engine may cut a store into consecutive parts and reduce their summaries in any grouping
(issue 15; decision D-audit-summary): the merge must be associative, have `AuditSummary()` as
identity, and the merged summary of the parts must be the summary of the whole.
"""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from campaign_rules.audit import AuditSummary, audit_lines
from tests.audit_support import store_lines

# Realistic lines, blank, broken and odd ones included.
POOL = store_lines(120, seed=11)

stores = st.lists(st.sampled_from(POOL), max_size=40)


@given(stores, stores, stores)
def test_merging_is_associative(first, second, third):
    a, b, c = audit_lines(first), audit_lines(second), audit_lines(third)
    assert a.merge(b).merge(c) == a.merge(b.merge(c))


@given(stores)
def test_the_empty_summary_is_the_identity(lines):
    summary = audit_lines(lines)
    assert AuditSummary().merge(summary) == summary == summary.merge(AuditSummary())


@given(stores, st.data())
def test_the_parts_of_any_split_merge_into_the_summary_of_the_whole(lines, data):
    cuts = sorted(data.draw(st.lists(st.integers(0, len(lines)), max_size=4)))
    bounds = [0, *cuts, len(lines)]
    parts = [lines[start:stop] for start, stop in itertools.pairwise(bounds)]
    merged = AuditSummary()
    for part in parts:
        merged = merged.merge(audit_lines(part))
    assert merged == audit_lines(lines)
