"""The rules of the campaign creation input and of its updates, one small function each.

`campaign_rules._rules.table` wires them: each rule's id, error key and source, in one place.
"""
