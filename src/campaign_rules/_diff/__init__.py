"""`campaign-rules diff OLD`: what changed between two rule sets, each difference proven by a body.

One job per module:

- `sides`: what the diff asks of a version, the interface every side implements;
- `inprocess`: the installed version, judged in this process; `process`: a version driven
  through its executor, `OLD conformance serve`; `legacy`: a version that speaks no executor
  protocol, driven through `rules --json`, `schema` and `check --json`; `opening`: which of
  these an OLD command is; `environment`: a side's tzdata;
- `structure`: the rule sets' rows compared;
- `bounds`: a side's declared bounds; `edges`: the values at each side of a bound;
  `candidates`: the bodies tried; `drawn`, `kit`, `replay`: more bodies (Hypothesis', a
  conformance kit's, a caller's); `narrowing`: a witness brought to one member changed;
- `semantics`: the bodies judged by both sides, and each rule's verdict;
- `report`: the outcome as JSON, text and Markdown; `document`: the JSON Schema of the JSON;
- `comparing`: one diff, start to end; `command`: the sub-command.
"""
