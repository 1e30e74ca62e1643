#!/usr/bin/env bash
# The release fuzz run: 1,000,000 executions with a seed of the day (see fuzz/run.sh).
set -euo pipefail
FUZZ_SEED="${FUZZ_SEED:-$(date +%Y%m%d)}" exec "$(dirname "$0")/run.sh" 1000000 "$@"
