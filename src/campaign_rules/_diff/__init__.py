"""`campaign-rules diff OLD`: what changed between two rule sets, each difference proven by a body.

One job per module: `sides` (what the diff asks of a version: the interface every side
implements), `inprocess` (the installed version, judged in this process), `process` (a version
driven through its executor, `OLD conformance serve`), `legacy` (a version that speaks no
executor protocol, driven through `rules --json`, `schema` and `check --json`), `opening` (which
of these an OLD command is), `structure` (the rule sets' rows compared), `candidates` (the
bodies tried), `semantics` (the bodies judged by both sides, the verdicts), `report` (the
outcome as text, JSON and Markdown), `document` (the JSON Schema of the JSON report) and
`command` (the sub-command).
"""
