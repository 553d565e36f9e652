"""The federation benchmark: a platform tier harvesting pinned exports of many team corpora.

    python tests/benchmarks/federation.py                  # ten exports of 10,000 documents
    python tests/benchmarks/federation.py --teams 2 --docs 1000 --reps 1

Each team corpus comes from corpus_fixtures/generate.py (seed = its number) and writes its
export with `headwater export`; the platform tier is a copy of corpus_fixtures/quickstart that
pins every export under `harvests` (the copy and its digest, as a CI job commits them). Every
figure is a whole process measured by measure.py (wall time, interpreter start included, and
peak resident memory), the median of `--reps` runs after one warm-up: `headwater explain` with
no harvest and with every harvest, and `headwater mcp` from spawn to its first `route` answer.
Corpora and exports are kept under `--work` between runs.

The script replaces the `## Federation` section of BENCHMARKS.md and keeps every other section.
Run on demand; pytest does not collect it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from run import machine, replace_section, revision

REPO = Path(__file__).resolve().parents[2]
MEASURE = Path(__file__).resolve().parent / "measure.py"
GENERATE = REPO / "corpus_fixtures" / "generate.py"
QUICKSTART = REPO / "corpus_fixtures" / "quickstart"
NOW = "2026-10-01"


def headwater() -> str:
    return str(Path(sys.executable).with_name("headwater"))


def team(work: Path, number: int, docs: int) -> tuple[Path, int]:
    """A generated team corpus with its export written; (the export, its size in bytes)."""
    root = work / f"team-{number}-{docs}"
    export = root / ".headwater" / "export.json"
    if not export.is_file():
        if root.exists():
            shutil.rmtree(root)
        subprocess.run([sys.executable, str(GENERATE), "--docs", str(docs), "--seed", str(number), str(root)],
                       check=True, stdout=subprocess.DEVNULL)
        subprocess.run([headwater(), "export", "--root", str(root)], check=True, stdout=subprocess.DEVNULL)
    return export, export.stat().st_size


def platform(work: Path, exports: list[Path]) -> Path:
    """The quickstart corpus pinning each export, as `harvests.team-<n>`."""
    root = work / f"platform-{len(exports)}"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(QUICKSTART, root, symlinks=True)
    lines = ["harvests:"]
    for number, export in enumerate(exports, start=1):
        at = f".headwater/harvested/team-{number}.json"
        (root / at).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(export, root / at)
        pinned = "sha256:" + hashlib.sha256((root / at).read_bytes()).hexdigest()
        lines += [f"  team-{number}:", f"    at: {at}", f"    digest: \"{pinned}\""]
    with (root / ".headwater" / "taxonomy.yml").open("a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n" if exports else "")
    return root


def measured(argv: list[str]) -> dict:
    done = subprocess.run([sys.executable, str(MEASURE), *argv], check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def explain(root: Path, reps: int) -> tuple[float, float]:
    argv = ["run", str(root), "600", "--", headwater(), "explain", "ACME-DR-0001", "--root", str(root)]
    measured(argv)  # warm-up
    runs = [measured(argv) for _ in range(reps)]
    if any(r.get("status") != 0 for r in runs):
        raise SystemExit(f"explain failed: {runs[-1].get('stderr')}")
    return statistics.median(r["wall"] for r in runs), statistics.median(r["maxrss_kb"] for r in runs) / 1024


def first_route(root: Path, reps: int) -> tuple[float, float]:
    runs = [measured(["mcp", str(root), headwater(), "0"]) for _ in range(reps + 1)][1:]
    if any(r["first_is_error"] or r["status"] != 0 for r in runs):
        raise SystemExit(f"mcp failed: {runs[-1]['stderr']}")
    return statistics.median(r["first_answer"] for r in runs), statistics.median(r["maxrss_kb"] for r in runs) / 1024


def section(args, sizes: list[int], bare, harvested, mcp, command: str) -> str:
    total = sum(sizes) / 1e6
    rows = [
        ("`explain`, no harvest", bare),
        (f"`explain`, {args.teams} harvests", harvested),
        (f"`mcp` spawn → first `route` answer, {args.teams} harvests", mcp),
    ]
    lines = ["## Federation", "",
             f"A platform tier (the quickstart corpus) pins {args.teams} exports of {args.docs:,} generated "
             f"documents each ({total:.0f} MB of JSON in all) under `harvests`, and every process loads "
             "them all at start-up: each file read, its digest checked, its documents, anchor files "
             "and governing edges indexed; nothing merged into one graph. Whole processes, median of "
             f"{args.reps} after one warm-up; peak resident memory of the process.", "",
             "| what | wall (s) | peak memory (MB) |", "|---|---:|---:|"]
    lines += [f"| {label} | {wall:.2f} | {memory:.0f} |" for label, (wall, memory) in rows]
    extra = harvested[0] - bare[0]
    lines += ["", f"The harvests add {extra:.2f} s and {harvested[1] - bare[1]:.0f} MB to a load "
              f"({extra / args.teams * 1000:.0f} ms per export of {args.docs:,} documents).", "",
              f"Measured on {machine()} (load average {os.getloadavg()[0]:.1f} when it ended: the "
              f"machine was shared), at revision {revision()}, by `{command}`."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teams", type=int, default=10)
    parser.add_argument("--docs", type=int, default=10000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path("/tmp/headwater-federation"))
    parser.add_argument("--no-write", action="store_true", help="print the section, leave BENCHMARKS.md alone")
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    made = [team(args.work, number, args.docs) for number in range(1, args.teams + 1)]
    bare = explain(platform(args.work, []), args.reps)
    root = platform(args.work, [export for export, _ in made])
    text = section(args, [size for _, size in made], bare, explain(root, args.reps), first_route(root, args.reps),
                   "python tests/benchmarks/federation.py " + " ".join(argv if argv is not None else sys.argv[1:]))
    print(text)
    if not args.no_write:
        path = REPO / "BENCHMARKS.md"
        path.write_text(replace_section(path.read_text(encoding="utf-8"), text.rstrip("\n")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
