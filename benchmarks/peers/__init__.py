"""The same context-free creation rules, written with each peer library, for the benchmark.

Each module exposes `validate(payload) -> (ok, report)`: the library's own result on success,
and on failure what the library reports (every error where it collects them all).
"""
