"""The contract test: Schemathesis against the reference server over HTTP (issue 14).

`python -m tests.contract.run` seeds a fresh database, starts the server on a free port with a
rate of its own (`CAMPAIGN_SERVER_RATE_PER_SECOND`, so that the run tests the operations and
not the limiter; the end-to-end tests keep the spec's rate), and runs Schemathesis on the
document the server serves at `/api/v1.0/openapi.json`, with the seeded API key, the fixed seed
and settings of `schemathesis.toml`, and every check. The exit status is Schemathesis's: 0 when
no check failed. Extra arguments go to `schemathesis run` (e.g. `--max-examples 20`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import attrs
from examples.server import seed

from tests.e2e.support import ROOT, running_server

CONFIG = Path(__file__).with_name("schemathesis.toml")
# High enough that no generated request meets a 429: one run sends a few thousand requests.
RATE_PER_SECOND = "100000"
# Issue 14: at least this many generated requests per operation.
MIN_REQUESTS = 100


def main(arguments: list[str]) -> int:
    """Run the contract test; the exit status."""
    with tempfile.TemporaryDirectory(prefix="campaign-contract-") as directory:
        database, log = Path(directory) / "contract.db", Path(directory) / "server.log"
        events = Path(directory) / "events.ndjson"
        seed.seed(database)
        settings = {"CAMPAIGN_SERVER_RATE_PER_SECOND": RATE_PER_SECOND}
        with running_server(database, log, settings) as server:
            command = [
                *(sys.executable, "-m", "schemathesis.cli", "--config-file", str(CONFIG)),
                *("run", f"{server.base_url}/openapi.json", "--checks", "all"),
                *("--report", "ndjson", "--report-ndjson-path", str(events)),
                *arguments,
            ]
            environment = {**os.environ, "CAMPAIGN_CONTRACT_API_KEY": seed.ACME_KEY}
            started = time.monotonic()
            status = subprocess.run(command, cwd=ROOT, env=environment, check=False).returncode
            seconds = time.monotonic() - started
        summary = Summary.read(events)
        print(summary.render(seconds), flush=True)
        if status != 0:
            print(log.read_text(encoding="utf-8", errors="replace")[-4000:], file=sys.stderr)
            return status
        short = [label for label, count in summary.requests.items() if count < MIN_REQUESTS]
        if short:
            print(f"contract test: fewer than {MIN_REQUESTS} requests: {short}", file=sys.stderr)
            return 1
    return 0


@attrs.frozen
class Summary:
    """What the run did, read from Schemathesis's event stream (`--report ndjson`)."""

    requests: dict[str, int]
    statuses: dict[str, Counter[int]]
    checks: Counter[str]
    failed_checks: Counter[str]

    @classmethod
    def read(cls, events: Path) -> Summary:
        """Count the requests per operation, their statuses, and the checks run and failed."""
        requests: Counter[str] = Counter()
        statuses: dict[str, Counter[int]] = {}
        checks: Counter[str] = Counter()
        failed: Counter[str] = Counter()
        for line in events.read_text(encoding="utf-8").splitlines():
            event = json.loads(line)
            if "ScenarioFinished" not in event:
                continue
            recorder = event["ScenarioFinished"]["recorder"]
            label = recorder["label"]
            for interaction in recorder["interactions"].values():
                requests[label] += 1
                response = interaction.get("response") or {}
                statuses.setdefault(label, Counter())[response.get("status_code", 0)] += 1
            for results in recorder["checks"].values():
                for check in results:
                    checks[check["name"]] += 1
                    if check["status"] != "success":
                        failed[check["name"]] += 1
        return cls(dict(requests), statuses, checks, failed)

    def render(self, seconds: float) -> str:
        """The lines the runner prints."""
        lines = [f"contract test: {seconds:.0f} s"]
        for label, count in sorted(self.requests.items()):
            answered = ", ".join(f"{code}: {n}" for code, n in sorted(self.statuses[label].items()))
            lines.append(f"  {label}: {count} requests ({answered})")
        lines.append(f"  {len(self.checks)} checks: {', '.join(sorted(self.checks))}")
        failures = sum(self.failed_checks.values())
        lines.append(f"  {sum(self.checks.values())} check results, {failures} failed")
        return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
