#!/usr/bin/env bash
# Fuzz the validators with atheris for RUNS executions (default 100,000; a release runs
# 1,000,000: fuzz/release.sh). Needs the `fuzz` extra: pip install -e '.[test,fuzz]'.
# The seed corpus (every input of tests/cases/ and examples/) is written to a fresh temporary
# folder, where libFuzzer also keeps what it finds; a crashing input is written to
# fuzz/artifacts/ and the script fails. Extra arguments go to libFuzzer (e.g. -seed=7).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-100000}"
shift || true
python="${PYTHON:-.venv/bin/python}"

corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
"$python" -m fuzz.seeds "$corpus"
mkdir -p fuzz/artifacts

# -timeout: one input taking 10 s is a hang (bounded time, D-hostile-input).
# -max_len: the longest seed is 10 kB; a little more lets mutations grow it.
"$python" -m fuzz.harness \
    -runs="$runs" \
    -dict=fuzz/fields.dict \
    -timeout=10 \
    -max_len=16384 \
    -seed="${FUZZ_SEED:-1}" \
    -artifact_prefix=fuzz/artifacts/ \
    -print_final_stats=1 \
    "$@" \
    "$corpus"
