"""The speed benchmark of spec 06 §1: whole processes over generated corpora, written to BENCHMARKS.md.

    python tests/benchmarks/run.py                      # 1,000 and 10,000 documents, then 100,000
    python tests/benchmarks/run.py --sizes 1000 --big 0 --reps 3

Every figure is the wall time of a whole process, interpreter start included, measured by a
fresh wrapper (measure.py) that also reads the child's peak memory: median of `--reps` runs
after one warm-up, with min and max. The 100,000-document run (`--big`) takes `--big-reps`
runs and no warm-up. Alongside: the floor (one Python process that reads and hashes every
file of the corpus) and markdownlint-cli2 through npx over the same files, where npx can fetch
it. Corpora come from corpus_fixtures/generate.py and are kept under `--work` between runs.

The script replaces the `## Speed` section of BENCHMARKS.md and keeps every other section.
Run on demand; pytest does not collect it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MEASURE = Path(__file__).resolve().parent / "measure.py"
GENERATE = REPO / "corpus_fixtures" / "generate.py"
NOW = "2026-10-01"  # the date the generated corpus is fresh on
SEED = 1
FLOOR = (
    "import hashlib, os, sys\n"
    "for directory, _, files in os.walk(os.path.join(sys.argv[1], 'docs')):\n"
    "    for name in files:\n"
    "        with open(os.path.join(directory, name), 'rb') as handle:\n"
    "            hashlib.sha256(handle.read()).hexdigest()\n"
)


@dataclass(frozen=True)
class Target:
    key: str
    label: str
    small: float  # at 1,000 documents
    large: float  # at 10,000 documents
    unit: str  # "s", "ms" or "MB"


TARGETS = (
    Target("check_cold", "`check --no-cache` (cold)", 1.5, 10, "s"),
    Target("check_warm", "`check` warm cache, nothing changed", 0.35, 2, "s"),
    Target("check_edit", "`check` warm cache, one document edited", 0.4, 2.2, "s"),
    Target("mcp_first", "`mcp`: spawn → first `route` answer", 0.6, 3, "s"),
    Target("mcp_call", "`route` inside a warm MCP session, per call", 10, 30, "ms"),
    Target("check_memory", "peak memory of `check` (cold)", 250, 800, "MB"),
)
SIDE_ROWS = (
    ("route_cli", "`route` as its own process (for comparison)", "s"),
    ("explain_cli", "`explain <id>` as its own process", "s"),
    ("floor", "floor: read and sha256 every file (one Python process)", "s"),
    ("markdownlint", "`markdownlint-cli2` through npx, same files", "s"),
)


@dataclass
class Figure:
    """One measure at one size: samples, or the reason there are none (or a caveat)."""

    samples: list[float] = field(default_factory=list)
    note: str = ""
    missing: bool = False  # "skipped", "did not finish", "failed": no samples at all
    judged: bool = True  # False: measured, but not what the target describes (a piece is not built yet)

    def cell(self, unit: str) -> str:
        if self.missing or not self.samples:
            return self.note or "—"
        scale = 1000 if unit == "ms" else 1
        values = [v * scale for v in self.samples]
        digits = 0 if unit == "MB" else (1 if unit == "ms" else 2)
        median = statistics.median(values)
        text = f"{median:.{digits}f} {unit}"
        if len(values) > 1:
            text += f" ({min(values):.{digits}f}–{max(values):.{digits}f})"
        return text + (f" — {self.note}" if self.note else "")


def last_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    return lines[-1][:120] if lines else ""


# -- running ----------------------------------------------------------------------------------


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.work = Path(args.work).resolve()
        self.headwater = str(Path(sys.executable).parent / "headwater")
        self.results: dict[int, dict[str, Figure]] = self.saved()
        self.reps: dict[int, tuple[int, bool]] = {}  # size → (timed runs, with a warm-up)

    @property
    def store(self) -> Path:
        return self.work / "results.json"

    def saved(self) -> dict[int, dict[str, Figure]]:
        """Figures of earlier runs (kept unless `--fresh`), so one size can be re-measured alone."""
        if self.args.fresh or not self.store.is_file():
            return {}
        raw = json.loads(self.store.read_text())
        return {int(size): {key: Figure(**value) for key, value in figures.items()} for size, figures in raw.items()}

    def save(self) -> None:
        raw = {size: {key: vars(figure) for key, figure in figures.items()} for size, figures in self.results.items()}
        self.store.write_text(json.dumps(raw, indent=1, sort_keys=True) + "\n")

    def log(self, text: str) -> None:
        sys.stderr.write(f"[{time.strftime('%H:%M:%S')}] {text}\n")
        sys.stderr.flush()

    def measure(self, cwd: Path, argv: list[str]) -> dict:
        done = subprocess.run([sys.executable, str(MEASURE), "run", str(cwd), str(self.args.timeout), "--", *argv],
                              capture_output=True, text=True, check=True)
        return json.loads(done.stdout)

    def repeat(self, cwd: Path, argv: list[str], reps: int, warmup: bool, before=None) -> tuple[Figure, Figure]:
        """(wall figure, peak-memory figure in MB) of `reps` runs after an optional warm-up."""
        wall, memory = Figure(), Figure()
        for index in range(reps + (1 if warmup else 0)):
            if before:
                before(index)
            result = self.measure(cwd, argv)
            if "timed_out" in result:
                note = f"did not finish within {result['timed_out']:.0f} s"
                return Figure(note=note, missing=True), Figure(note=note, missing=True)
            if result["status"] not in (0, 1) or (result["status"] == 1 and "headwater:" in result["stderr"]
                                                 and argv[0] == self.headwater):
                note = f"failed: {last_line(result['stderr']) or result['status']}"
                return Figure(note=note, missing=True), Figure(note=note, missing=True)
            if warmup and index == 0:
                continue
            wall.samples.append(result["wall"])
            memory.samples.append(result["maxrss_kb"] / 1024)
        return wall, memory

    # -- corpora --------------------------------------------------------------------------------

    def corpus(self, size: int) -> Path:
        """The generated corpus (kept between runs), with its lock current; a fresh copy to run in."""
        source = self.work / f"corpus-{size}-seed{SEED}"
        if not (source / "generator.json").is_file():
            shutil.rmtree(source, ignore_errors=True)
            self.log(f"generating {size} documents")
            subprocess.run([sys.executable, str(GENERATE), "--docs", str(size), "--seed", str(SEED), str(source)],
                           check=True, stdout=subprocess.DEVNULL)
        stale = subprocess.run([self.headwater, "taxonomy", "resolve", "--check", "--root", str(source)],
                               capture_output=True, check=False)
        if stale.returncode != 0:  # the embedded package moved since the corpus was generated
            subprocess.run([self.headwater, "taxonomy", "resolve", "--root", str(source)],
                           capture_output=True, check=True)
        target = self.work / f"run-{size}"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(source, target, symlinks=True)
        return target

    # -- the measures ---------------------------------------------------------------------------

    def size(self, size: int, reps: int, warmup: bool) -> None:
        root = self.corpus(size)
        figures: dict[str, Figure] = {}
        self.results[size] = figures
        check = [self.headwater, "check", "--now", NOW]

        self.log(f"{size}: floor")
        figures["floor"], _ = self.repeat(root, [sys.executable, "-c", FLOOR, str(root)], reps, warmup)
        self.log(f"{size}: check --no-cache")
        figures["check_cold"], figures["check_memory"] = self.repeat(root, [*check, "--no-cache"], reps, warmup)

        if figures["check_cold"].missing:  # a check that cannot finish cold is not timed warm either
            for key in ("check_warm", "check_edit"):
                figures[key] = Figure(note=f"not run: the cold check {figures['check_cold'].note}", missing=True)
        else:
            self.warm_checks(root, size, figures, reps, warmup)
        self.log(f"{size}: mcp")
        figures["mcp_first"], figures["mcp_call"] = self.mcp(root, reps, warmup)
        self.log(f"{size}: route and explain as processes")
        route = [self.headwater, "route", "add rate limiting to the ingest service"]
        figures["route_cli"], _ = self.repeat(root, route, reps, warmup)
        figures["explain_cli"], _ = self.repeat(root, [self.headwater, "explain", "GEN-DR-0002"], reps, warmup)
        figures["markdownlint"] = self.markdownlint(root, reps, warmup)
        self.save()

    def warm_checks(self, root: Path, size: int, figures: dict[str, Figure], reps: int, warmup: bool) -> None:
        check = [self.headwater, "check", "--now", NOW]
        self.log(f"{size}: check, warm")
        self.measure(root, check)  # fills whatever caches check writes
        verdicts = self.verdict_cache(root)
        figures["check_warm"], _ = self.repeat(root, check, reps, warmup)
        edited = self.edited_document(root)
        self.log(f"{size}: check, warm, one document edited ({edited.relative_to(root)})")
        original = edited.read_text(encoding="utf-8")

        def edit(index: int) -> None:
            edited.write_text(original + f"\nEdited for run {index} of the benchmark.\n", encoding="utf-8")

        figures["check_edit"], _ = self.repeat(root, check, reps, warmup, before=edit)
        if not verdicts:
            for key in ("check_warm", "check_edit"):
                figures[key].note = figures[key].note or "not built yet: check writes no verdict cache"
                figures[key].judged = False

    def verdict_cache(self, root: Path) -> bool:
        """Whether check left a cache of verdicts (anything beyond the parse cache)."""
        directory = root / ".headwater" / "cache"
        names = {p.name for p in directory.iterdir()} if directory.is_dir() else set()
        return bool(names - {".gitignore", "parsed"})

    def edited_document(self, root: Path) -> Path:
        return sorted((root / "docs" / "decisions").iterdir())[len(os.listdir(root / "docs" / "decisions")) // 2]

    def mcp(self, root: Path, reps: int, warmup: bool) -> tuple[Figure, Figure]:
        first, calls = Figure(), Figure()
        for index in range(reps + (1 if warmup else 0)):
            done = subprocess.run([sys.executable, str(MEASURE), "mcp", str(root), self.headwater,
                                   str(self.args.calls)], capture_output=True, text=True, check=False,
                                  timeout=self.args.timeout)
            if done.returncode != 0:
                note = f"failed: {last_line(done.stderr) or done.returncode}"
                return Figure(note=note, missing=True), Figure(note=note, missing=True)
            result = json.loads(done.stdout)
            if warmup and index == 0:
                continue
            first.samples.append(result["first_answer"])
            calls.samples.extend(result["per_call"])
        return first, calls

    def markdownlint(self, root: Path, reps: int, warmup: bool) -> Figure:
        if self.args.no_markdownlint:
            return Figure(note="skipped (--no-markdownlint)", missing=True)
        npx = shutil.which("npx")
        if npx is None:
            return Figure(note="skipped: npx is not installed", missing=True)
        self.log("markdownlint-cli2 through npx")
        argv = [npx, "--yes", "markdownlint-cli2", "docs/**/*.md"]
        fetched = subprocess.run(argv, cwd=root, capture_output=True, text=True, check=False,
                                 timeout=self.args.timeout)
        if fetched.returncode not in (0, 1) or "npm ERR" in fetched.stderr or "npm error" in fetched.stderr:
            return Figure(note="skipped: npx could not fetch markdownlint-cli2", missing=True)
        wall, _ = self.repeat(root, argv, reps, warmup)
        return wall


# -- writing BENCHMARKS.md ------------------------------------------------------------------


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        model = platform.processor()
    return (f"{os.cpu_count()} cores ({model or 'unknown CPU'}), {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}")


def revision() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True,
                          check=False)
    return done.stdout.strip() or "unknown"


def verdict(figure: Figure, limit: float | None, unit: str) -> str:
    if limit is None or figure.missing or not figure.judged or not figure.samples:
        return ""
    scale = 1000 if unit == "ms" else 1
    return " ✓" if statistics.median(figure.samples) * scale <= limit else " ✗"


def runs(figures: dict[str, Figure]) -> int:
    return max((len(f.samples) for key, f in figures.items() if key != "mcp_call"), default=0)


def speed_section(bench: Bench, command: str) -> str:
    sizes = sorted(bench.results)
    small, large = (1000, 10000)
    header = ["measure"] + [f"{s:,} docs, {runs(bench.results[s])} run(s)" for s in sizes]
    lines = [
        "## Speed",
        "",
        f"Measured {dt.date.today().isoformat()} on {machine()}; headwater at `{revision()}`. "
        "The machine was shared with other work while it ran, so single figures carry noise.",
        f"Reproduce with `{command}` (flags: `--sizes`, `--big`, `--reps`, `--big-reps`, `--calls`, "
        "`--timeout`, `--work`, `--no-markdownlint`, `--fresh`); figures of a size not re-measured "
        "are kept from the last run that measured it.",
        "",
        "Wall time of whole processes, interpreter start included, over corpora from "
        f"`corpus_fixtures/generate.py --seed {SEED}` (about 2% of documents carry a planted defect); "
        "the median of the timed runs after one warm-up (none at 100,000), (min–max). "
        f"Per-call `route` figures pool {bench.args.calls} calls from each MCP session. "
        "✓ meets the spec 06 §1 target in brackets, ✗ misses it.",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    for target in TARGETS:
        row = [target.label]
        for size in sizes:
            figure = bench.results[size].get(target.key, Figure(note="—", missing=True))
            limit = target.small if size == small else target.large if size == large else None
            cell = figure.cell(target.unit) + verdict(figure, limit, target.unit)
            if limit is not None:
                cell += f" (≤ {limit:g} {target.unit})"
            row.append(cell)
        lines.append("| " + " | ".join(row) + " |")
    for key, label, unit in SIDE_ROWS:
        row = [label] + [bench.results[size].get(key, Figure(note="—", missing=True)).cell(unit) for size in sizes]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def replace_section(text: str, section: str) -> str:
    """Put `section` (which opens with its own `## ` heading) in place of the old one, or append it."""
    title = section.splitlines()[0]
    parts: list[str] = []
    current: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("## ") and current:
            parts.append("".join(current))
            current = []
        current.append(line)
    if current:
        parts.append("".join(current))
    replaced = False
    for index, part in enumerate(parts):
        if part.splitlines()[0].rstrip() == title:
            parts[index] = section + "\n"
            replaced = True
    if not replaced:
        parts.append(("\n" if parts and not parts[-1].endswith("\n\n") else "") + section + "\n")
    return "".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000", help="corpus sizes, comma-separated (default 1000,10000)")
    parser.add_argument("--big", type=int, default=100000, help="the large run's size; 0 skips it")
    parser.add_argument("--reps", type=int, default=5, help="timed runs per measure (default 5)")
    parser.add_argument("--big-reps", type=int, default=1, help="timed runs at --big (default 1)")
    parser.add_argument("--calls", type=int, default=20, help="route calls timed per MCP session (default 20)")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds before one process is abandoned")
    parser.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "headwater-bench"),
                        help="where generated corpora are kept")
    parser.add_argument("--no-markdownlint", action="store_true", help="skip the markdownlint-cli2 row")
    parser.add_argument("--fresh", action="store_true",
                        help="forget figures of earlier runs (otherwise sizes not measured now keep them)")
    parser.add_argument("--out", default=str(REPO / "BENCHMARKS.md"), help="the file to write")
    args = parser.parse_args(argv)
    bench = Bench(args)
    bench.work.mkdir(parents=True, exist_ok=True)
    for size in (int(s) for s in args.sizes.split(",") if s):
        bench.size(size, args.reps, warmup=True)
    if args.big:
        bench.size(args.big, args.big_reps, warmup=False)
    raw = {size: {k: {"samples": f.samples, "note": f.note} for k, f in figures.items()}
           for size, figures in bench.results.items()}
    (bench.work / "results.json").write_text(json.dumps(raw, indent=1) + "\n")
    command = "python tests/benchmarks/run.py" + (f" --timeout {args.timeout:g}" if args.timeout != 3600 else "")
    out = Path(args.out)
    existing = out.read_text(encoding="utf-8") if out.is_file() else "# Benchmarks\n\n"
    out.write_text(replace_section(existing, speed_section(bench, command)), encoding="utf-8")
    bench.log(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
