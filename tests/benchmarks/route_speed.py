"""Route's speed at scale: per call inside one long-lived snapshot (what an MCP session holds), the
one-off index build, and a cold CLI `route` after a `check` wrote the parse cache.

    python tests/benchmarks/route_speed.py [--docs 10000] [--work /tmp/route-speed]

Generates the corpus with corpus_fixtures/generate.py (kept under --work), runs `headwater check`
once so the parse cache holds every body, then measures in one process: the snapshot load, the
first call (it builds the route index), and the median of the later calls over a fixed task list;
then a cold `headwater route` process, wall time, and how many bodies it parsed versus reused.
Run on demand; pytest does not collect it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import subprocess
import sys
import time
from pathlib import Path

from headwater.corpus.parses import CacheUse
from headwater.mcp.tools import registered
from headwater.snapshot import load

REPO = Path(__file__).resolve().parents[2]
ROUTE = {tool.name: tool for tool in registered(False)}["route"]  # what an MCP client's call runs
TASKS = ("why do we retry deliveries with backoff", "add rate limiting to the ingest api",
         "change the schema of the ledger", "who owns the billing export", "rotate the signing keys",
         "what is the weather in paris", "make the worker pool smaller", "deprecate the v1 endpoint")
NOW = dt.date(2026, 10, 1)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", type=int, default=10000)
    parser.add_argument("--work", type=Path, default=Path("/tmp/route-speed"))
    parser.add_argument("--calls", type=int, default=400)
    args = parser.parse_args()
    root = args.work / f"corpus-{args.docs}"
    if not root.exists():
        subprocess.run([sys.executable, str(REPO / "corpus_fixtures" / "generate.py"), "--docs",
                        str(args.docs), "--seed", "1", str(root)], check=True)
    headwater = [sys.executable, "-m", "headwater"]
    subprocess.run(headwater + ["check", "--root", str(root), "--now", NOW.isoformat()],
                   capture_output=True, check=False)
    started = time.perf_counter()
    snapshot = load(root, NOW, CacheUse.READ)
    loaded = time.perf_counter() - started
    started = time.perf_counter()
    ROUTE.run(snapshot, {"task": TASKS[0]})
    first = time.perf_counter() - started
    account = snapshot.parse_account
    times = []
    for call in range(args.calls):
        started = time.perf_counter()
        ROUTE.run(snapshot, {"task": TASKS[call % len(TASKS)]})
        times.append(time.perf_counter() - started)
    started = time.perf_counter()
    subprocess.run(headwater + ["route", TASKS[0], "--root", str(root)], capture_output=True, check=True)
    cold = time.perf_counter() - started
    print(f"| documents | load | first call (builds the index) | later calls, median (max) | "
          f"bodies reused / parsed by the first call | cold CLI route |\n|---|---|---|---|---|---|\n"
          f"| {args.docs:,} | {loaded:.2f} s | {first:.2f} s | {statistics.median(times) * 1000:.1f} ms "
          f"({max(times) * 1000:.1f} ms) | {account.bodies_reused:,} / {account.bodies_parsed:,} | {cold:.2f} s |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
