"""The conformance kit: cases any executor can judge, the protocol to drive one, and the runner.

`export` writes the kit (manifest, definitions, cases with their exact expected answers, the
JSON Schemas of every file); `executor` is this library as an executor (`conformance serve`);
`runner` drives an executor process through the kit and compares its answers (`conformance
run`). The protocol between a runner and an executor is `protocol` (docs/conformance.md).
"""
