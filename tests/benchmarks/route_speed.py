"""Route's speed at scale: per call inside one long-lived snapshot (what an MCP session holds), the
one-off index build, and a cold CLI `route` after a `check` wrote the parse cache.

    python tests/benchmarks/route_speed.py [--docs 10000] [--work /tmp/route-speed]

Generates the corpus with corpus_fixtures/generate.py (kept under --work), runs `headwater check`
once so the parse cache holds every body and route's kept stem counts, then measures in one
process, in CPU seconds (the steadier reading on a shared machine): the snapshot load, the first
call (it builds the route reader, then keeps it for the next server, HW-DR-0036 and HW-DR-0052), the later calls
over a fixed task list (median and p90), how many bodies the first call parsed and reused (none
of either when the kept counts served it), and this process's peak memory; then the first call of
a second server over the same snapshot, which reads the kept reader back; then a cold `headwater
route` process (CPU of the child, and its wall time), with the kept counts and with them removed.
Run on demand; pytest does not collect it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from headwater.cachedir import CACHE_DIR
from headwater.corpus.derived import DERIVED_FILE
from headwater.corpus.parses import CacheUse
from headwater.mcp.tools import registered
from headwater.reads.route.kept import KEPT_FILE, ROWS_FILE
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
    for name in (KEPT_FILE, ROWS_FILE):  # the first call builds the reader, every document counted
        (root / CACHE_DIR / name).unlink(missing_ok=True)
    started = time.process_time()
    snapshot = load(root, NOW, CacheUse.READ)
    loaded = time.process_time() - started
    started = time.process_time()
    keep = ROUTE.run(snapshot, {"task": TASKS[0]}).after
    first = time.process_time() - started
    keep()  # as a server does once its first answer is out (HW-DR-0052)
    account = snapshot.parse_account
    times = []
    for call in range(args.calls):
        started = time.process_time()
        ROUTE.run(snapshot, {"task": TASKS[call % len(TASKS)]})
        times.append(time.process_time() - started)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    started = time.process_time()
    ROUTE.run(replace(snapshot, _derived={}), {"task": TASKS[0]})  # a second server: the reader read back
    second = time.process_time() - started
    kept = _cold_route(headwater, root)
    (root / CACHE_DIR / DERIVED_FILE).unlink()
    unkept = _cold_route(headwater, root)
    times.sort()
    print(f"| documents | load | first call (builds the reader) | later calls, median (p90) | "
          f"bodies reused / parsed by the first call | peak memory | a second server's first call (kept reader) "
          f"| cold CLI route | cold CLI route without the kept counts |\n|---|---|---|---|---|---|---|---|---|\n"
          f"| {args.docs:,} | {loaded:.2f} s | {first:.2f} s | {statistics.median(times) * 1000:.1f} ms "
          f"({times[int(len(times) * 0.9)] * 1000:.1f} ms) | {account.bodies_reused:,} / {account.bodies_parsed:,} "
          f"| {peak} MB | {second:.2f} s | {kept} | {unkept} |")
    return 0


def _cold_route(headwater: list[str], root: Path) -> str:
    """A `headwater route` process: its CPU seconds, and its wall time in brackets."""
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run(headwater + ["route", TASKS[0], "--root", str(root)], capture_output=True, check=True)
    wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return f"{cpu:.2f} s CPU ({wall:.2f} s)"


if __name__ == "__main__":
    raise SystemExit(main())
