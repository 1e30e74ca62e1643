"""The conformance kit: cases any language can run, and the runner that runs them (issue 39)."""
