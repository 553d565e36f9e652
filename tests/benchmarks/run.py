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
import math
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_corpora import KEPS, unpack  # noqa: E402

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
    """A limit per corpus size: seconds, milliseconds or MB, or a multiple of the same run's floor."""

    key: str
    label: str
    unit: str  # "s", "ms" or "MB"
    limits: dict[int, float]  # size → limit in `unit`
    of_floor: dict[int, float] = field(default_factory=dict)  # size → limit as a multiple of the floor
    p90: bool = False  # judged on the 90th percentile rather than the median

    def limit(self, size: int, floor: float | None) -> tuple[float, str] | None:
        """(the limit in the unit's scale, how the bracket states it), or None where none is set."""
        if size in self.of_floor and floor:
            times = self.of_floor[size]
            return times * floor, f"≤ {times:g}× floor = {times * floor:.2f} s"
        if size in self.limits:
            return self.limits[size], f"≤ {self.limits[size]:g} {self.unit}"
        return None


KEP_SIZE = -1  # the results key of the KEP corpus
TARGETS = (
    Target("check_cold", "`check --no-cache` (cold)", "s", {10000: 5, 100000: 60, KEP_SIZE: 4}),
    Target("check_warm", "`check` warm cache, nothing changed", "s", {1000: 0.15, KEP_SIZE: 0.5}, {10000: 5}),
    Target("check_edit", "`check` warm cache, one document edited", "s", {}, {10000: 6}),
    Target("mcp_first", "`mcp`: spawn → first `route` answer", "s", {10000: 1.0}),
    Target("mcp_edit", "`mcp`: spawn → first `route` answer, one document edited since the last server", "s",
           {10000: 1.0}),
    Target("mcp_call", "`route` inside a warm MCP session, per call (p90)", "ms", {1000: 10, 10000: 10}, p90=True),
    Target("check_memory", "peak memory of `check` (cold)", "MB", {10000: 150}),
    Target("warm_memory", "peak memory of `check` (warm)", "MB", {10000: 150}),
    Target("mcp_memory", "peak memory of the MCP server (after its route calls)", "MB", {10000: 150}),
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

    samples: list[float] = field(default_factory=list)  # wall seconds (or MB for memory)
    cpu: list[float] = field(default_factory=list)  # CPU seconds of the same runs, workers included
    note: str = ""
    missing: bool = False  # "skipped", "did not finish", "failed": no samples at all
    judged: bool = True  # False: measured, but not what the target describes (a piece is not built yet)

    def value(self, p90: bool = False) -> float:
        if p90:
            ordered = sorted(self.samples)
            return ordered[min(len(ordered) - 1, math.ceil(0.9 * len(ordered)) - 1)]
        return statistics.median(self.samples)

    def cell(self, unit: str, floors: Floors | None = None, p90: bool = False) -> str:
        if self.missing or not self.samples:
            return self.note or "—"
        scale = 1000 if unit == "ms" else 1
        values = [v * scale for v in self.samples]
        digits = 0 if unit == "MB" else (1 if unit == "ms" else 2)
        text = f"{statistics.median(values):.{digits}f} {unit}"
        if p90:
            text += f", p90 {self.value(True) * scale:.{digits}f} {unit}"
        if len(values) > 1:
            text += f" ({min(values):.{digits}f}–{max(values):.{digits}f})"
        if floors and floors.wall and unit == "s":
            text += f" = {statistics.median(self.samples) / floors.wall:.1f}× floor"
        if self.cpu:
            text += f"; CPU {statistics.median(self.cpu):.2f} s"
            if floors and floors.cpu and unit == "s":
                text += f" = {statistics.median(self.cpu) / floors.cpu:.1f}× floor"
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
        self.began = Usage()  # what other work took of the cores is told against this

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
        """(wall figure with CPU, peak-memory figure in MB) of `reps` runs after an optional warm-up."""
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
            wall.cpu.append(result["cpu"])
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
        if size <= self.args.identity_up_to:
            self.log(f"{size}: byte identity of cold, first and warm runs")
            figures["identity"] = Figure(note=byte_identity(self.headwater, root), missing=True)

        if figures["check_cold"].missing:  # a check that cannot finish cold is not timed warm either
            for key in ("check_warm", "check_edit"):
                figures[key] = Figure(note=f"not run: the cold check {figures['check_cold'].note}", missing=True)
        else:
            self.warm_checks(root, size, figures, reps, warmup)
        self.log(f"{size}: mcp")
        figures["mcp_first"], figures["mcp_call"], figures["mcp_memory"] = self.mcp(root, reps, warmup)
        edited = self.edited_document(root)
        self.log(f"{size}: mcp, one document edited since the last server ({edited.relative_to(root)})")
        figures["mcp_edit"], _, _ = self.mcp(root, reps, warmup, before=self.editing(edited, "server"))
        self.log(f"{size}: route and explain as processes")
        route = [self.headwater, "route", "add rate limiting to the ingest service"]
        figures["route_cli"], _ = self.repeat(root, route, reps, warmup)
        figures["explain_cli"], _ = self.repeat(root, [self.headwater, "explain", "GEN-DR-0002"], reps, warmup)
        figures["markdownlint"] = self.markdownlint(root, reps, warmup)
        self.save()

    def warm_checks(self, root: Path, size: int, figures: dict[str, Figure], reps: int, warmup: bool) -> None:
        check = [self.headwater, "check", "--now", NOW]
        self.log(f"{size}: check, warm")
        # fills whatever caches check writes: twice, since a first run on a fresh tree makes the cache
        # folder as it reads, and a run that saw what it read move keeps nothing to replay (HW-DR-0037)
        self.measure(root, check)
        self.measure(root, check)
        verdicts = self.verdict_cache(root)
        figures["check_warm"], figures["warm_memory"] = self.repeat(root, check, reps, warmup)
        edited = self.edited_document(root)
        self.log(f"{size}: check, warm, one document edited ({edited.relative_to(root)})")
        figures["check_edit"], _ = self.repeat(root, check, reps, warmup, before=self.editing(edited, "run"))
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

    def editing(self, edited: Path, what: str) -> Callable[[int], None]:
        """Before each rep, `edited` as it was with one line more, another each rep."""
        original = edited.read_text(encoding="utf-8")

        def edit(index: int) -> None:
            edited.write_text(original + f"\nEdited for {what} {index} of the benchmark.\n", encoding="utf-8")

        return edit

    def mcp(self, root: Path, reps: int, warmup: bool,
            before: Callable[[int], None] | None = None) -> tuple[Figure, Figure, Figure]:
        first, calls, memory = Figure(), Figure(), Figure()
        for index in range(reps + (1 if warmup else 0)):
            if before:
                before(index)
            done = subprocess.run([sys.executable, str(MEASURE), "mcp", str(root), self.headwater,
                                   str(self.args.calls)], capture_output=True, text=True, check=False,
                                  timeout=self.args.timeout)
            if done.returncode != 0:
                note = f"failed: {last_line(done.stderr) or done.returncode}"
                return Figure(note=note, missing=True), Figure(note=note, missing=True), Figure(note=note, missing=True)
            result = json.loads(done.stdout)
            if warmup and index == 0:
                continue
            first.samples.append(result["first_answer"])
            calls.samples.extend(result["per_call"])
            memory.samples.append(result["maxrss_kb"] / 1024)
        return first, calls, memory

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


    def kep(self, reps: int) -> None:
        """The KEP corpus (real, long documents), unpacked once as the route sets read it (sidecar
        metadata converted to front matter), measured cold and warm in its own row."""
        if not KEPS.archive.is_file():
            self.results[KEP_SIZE] = {"check_cold": Figure(note=f"skipped: {KEPS.archive} is absent", missing=True)}
            return
        source = self.work / "kep-source"
        if not (source / KEPS.name / ".headwater" / "taxonomy.lock").is_file():
            shutil.rmtree(source, ignore_errors=True)
            self.log("unpacking and converting the KEP corpus")
            unpack(KEPS, source)
        root = self.work / "run-kep"
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(source / KEPS.name, root, symlinks=True)
        figures: dict[str, Figure] = {}
        self.results[KEP_SIZE] = figures
        check = [self.headwater, "check", "--now", NOW]
        self.log("kep: floor, cold, warm")
        floor = FLOOR.replace("'docs'", repr(KEPS.corpus_root))
        figures["floor"], _ = self.repeat(root, [sys.executable, "-c", floor, str(root)], reps, True)
        figures["check_cold"], figures["check_memory"] = self.repeat(root, [*check, "--no-cache"], reps, True)
        figures["identity"] = Figure(note=byte_identity(self.headwater, root), missing=True)
        self.measure(root, check)
        figures["check_warm"], figures["warm_memory"] = self.repeat(root, check, reps, True)
        self.save()


def byte_identity(headwater: str, root: Path) -> str:
    """Whether `--no-cache`, a first run (writing the caches) and a warm run print the same bytes,
    as text and as JSON; the caches are removed before and after."""
    cache = root / ".headwater" / "cache"
    outputs: dict[str, list[bytes]] = {}
    for fmt in ("text", "json"):
        shutil.rmtree(cache, ignore_errors=True)
        argv = [headwater, "check", "--now", NOW, "--format", fmt]
        runs = [[*argv, "--no-cache"], argv, argv]
        outputs[fmt] = [subprocess.run(run, cwd=root, capture_output=True, check=False).stdout for run in runs]
    shutil.rmtree(cache, ignore_errors=True)
    differ = [fmt for fmt, found in outputs.items() if len(set(found)) != 1]
    if differ:
        return f"DIFFER ({', '.join(differ)})"
    return f"identical ({sum(len(found[0]) for found in outputs.values()):,} bytes of text and JSON)"


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


def busy_seconds(stat: str | None = None) -> float | None:
    """CPU seconds all cores have spent busy since boot (user, nice, system, irq, softirq and the
    time a hypervisor gave another guest), from the first line of /proc/stat; None off Linux."""
    try:
        line = stat if stat is not None else Path("/proc/stat").read_text().splitlines()[0]
        user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, line.split()[1:9])
    except (OSError, IndexError, ValueError):
        return None
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_seconds() -> float:
    """CPU seconds of this process and every process it waited for (theirs include their own)."""
    mine, theirs = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + theirs.ru_utime + theirs.ru_stime


@dataclass(frozen=True)
class Usage:
    """Where the machine's cores stood at one moment (by default, now): wall, busy and own CPU seconds."""

    wall: float = field(default_factory=time.monotonic)
    busy: float | None = field(default_factory=busy_seconds)
    own: float = field(default_factory=own_seconds)

    def others(self, cores: int, now: Usage | None = None) -> float | None:
        """The share of every core's time since then that processes other than these runs took."""
        now = now or Usage()
        if self.busy is None or now.busy is None or now.wall <= self.wall:
            return None
        return max(0.0, (now.busy - self.busy) - (now.own - self.own)) / ((now.wall - self.wall) * cores)


def shared(others: float | None) -> str:
    """The sentence that says how far other work shared the machine, and what to read therefore."""
    noisy = "so wall times carry noise: read the CPU seconds and the ratios to the floor of the same run beside them."
    if others is None:
        return f"Whether other work shared the machine was not measured (no /proc/stat), {noisy}"
    if others < 0.05:
        return (f"Other processes took {others:.0%} of the cores' time the system saw while it ran (a virtual "
                "machine does not see what its host runs beside it); the ratios to the floor of the same run "
                "stand beside the wall times.")
    return f"Other processes took {others:.0%} of the cores' time while it ran, {noisy}"


def revision() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True,
                          check=False)
    return done.stdout.strip() or "unknown"


def verdict(figure: Figure, target: Target, size: int, floors: Floors) -> str:
    """` ✓ (≤ …)` or ` ✗ (≤ …)` on the wall median (the p90 where the target says so), then the
    same judgement on the CPU median where one was measured (a multiple of the floor's CPU for a
    target stated against the floor); nothing where no limit applies."""
    limit = target.limit(size, floors.wall)
    if limit is None or figure.missing or not figure.judged or not figure.samples:
        return "" if limit is None else f" ({limit[1]})"
    scale = 1000 if target.unit == "ms" else 1
    text = f" {'✓' if figure.value(target.p90) * scale <= limit[0] else '✗'} ({limit[1]})"
    cpu_limit = target.limit(size, floors.cpu)
    if figure.cpu and cpu_limit is not None:
        text += f", CPU {'✓' if statistics.median(figure.cpu) <= cpu_limit[0] else '✗'}"
    return text


@dataclass(frozen=True)
class Floors:
    """The floor's wall and CPU medians in the same run (None where it was not measured)."""

    wall: float | None
    cpu: float | None


def exponent(bench: Bench, key: str) -> str:
    """The scaling exponent k in time ∝ size^k from the smallest size to the largest, and from the
    one before the largest (where a fixed start-up cost no longer flattens it)."""
    sizes = sorted(size for size in bench.results if size > 0 and key in bench.results[size]
                   and bench.results[size][key].samples)
    if len(sizes) < 2:
        return "—"
    spans = [(sizes[0], sizes[-1])] + ([(sizes[-2], sizes[-1])] if len(sizes) > 2 else [])
    parts = []
    for low, high in spans:
        k = math.log(bench.results[high][key].value() / bench.results[low][key].value()) / math.log(high / low)
        parts.append(f"{k:.2f} ({low // 1000}k→{high // 1000}k)")
    return "; ".join(parts)


def floor_of(figures: dict[str, Figure]) -> Floors:
    floor = figures.get("floor")
    if not floor or not floor.samples:
        return Floors(None, None)
    return Floors(floor.value(), statistics.median(floor.cpu) if floor.cpu else None)


def runs(figures: dict[str, Figure]) -> int:
    return max((len(f.samples) for key, f in figures.items() if key not in ("mcp_call", "identity")), default=0)


def speed_section(bench: Bench, command: str) -> str:
    sizes = sorted(size for size in bench.results if size > 0)
    header = ["measure"] + [f"{s:,} docs, {runs(bench.results[s])} run(s)" for s in sizes] + ["scaling exponent"]
    lines = [
        "## Speed",
        "",
        f"Measured {dt.date.today().isoformat()} on {machine()}; headwater at `{revision()}`. "
        + shared(bench.began.others(os.cpu_count() or 1)),
        f"Reproduce with `{command}` (flags: `--sizes`, `--big`, `--reps`, `--big-reps`, `--calls`, "
        "`--timeout`, `--work`, `--no-markdownlint`, `--no-kep`, `--identity-up-to`, `--fresh`); figures "
        "of a size not "
        "re-measured are kept from the last run that measured it.",
        "",
        "Wall time of whole processes, interpreter start included, over corpora from "
        f"`corpus_fixtures/generate.py --seed {SEED}` (about 2% of documents carry a planted defect); "
        "the median of the timed runs after one warm-up (none at 100,000), (min–max), and that median "
        "as a multiple of the floor's (one process reading and hashing every file, same run); then the "
        "median CPU seconds of the same runs, worker processes included, and that as a multiple of the "
        "floor's CPU. The package's bytecode is compiled before the runs, as an installed wheel ships "
        "it (a process that compiles every module from source on each start, as one under "
        "`PYTHONDONTWRITEBYTECODE` does, pays about 0.09 s more). "
        f"Per-call `route` figures pool {bench.args.calls} calls from each MCP session. "
        "✓ meets the target in brackets, ✗ misses it, judged on the wall median and then on the CPU "
        "median (`CPU ✓`): on a machine shared with other work the CPU seconds are the steadier "
        "reading of what an idle machine's wall clock would show for one process. The scaling "
        "exponent k fits time ∝ size^k between the smallest and largest size (1 is linear).",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    for target in TARGETS:
        row = [target.label]
        for size in sizes:
            figures = bench.results[size]
            figure = figures.get(target.key, Figure(note="—", missing=True))
            floor = floor_of(figures)
            row.append(figure.cell(target.unit, floor, target.p90) + verdict(figure, target, size, floor))
        row.append(exponent(bench, target.key) if target.unit != "MB" else "—")
        lines.append("| " + " | ".join(row) + " |")
    for key, label, unit in SIDE_ROWS:
        row = [label] + [bench.results[size].get(key, Figure(note="—", missing=True)).cell(unit) for size in sizes]
        lines.append("| " + " | ".join(row + [exponent(bench, key)]) + " |")
    identity = [f"{size:,}: {bench.results[size]['identity'].note}" for size in sizes
                if "identity" in bench.results[size]]
    if identity:
        lines += ["", "Byte identity of `check --no-cache`, a first `check` (writing the caches) and a warm "
                  "`check`, as text and as JSON: " + "; ".join(identity) + "."]
    lines += kep_section(bench)
    return "\n".join(lines) + "\n"


def kep_section(bench: Bench) -> list[str]:
    figures = bench.results.get(KEP_SIZE)
    if not figures:
        return []
    floor = floor_of(figures)
    lines = ["", "### The KEP corpus", "",
             "`kubernetes-enhancements.tar.gz` (kubernetes/enhancements at `64765b4b0238`): 676 Markdown "
             "files under `keps/`, 29 MB, long READMEs, unpacked as the route sets read it "
             "(`tests/benchmarks/real_corpora.py`: its own taxonomy package, each KEP's sidecar "
             "`kep.yaml` written into its README's front matter). Same columns as above.", "",
             "| measure | KEP corpus |", "|---|---|"]
    for key in ("check_cold", "check_warm", "check_memory", "warm_memory", "floor"):
        target = next((t for t in TARGETS if t.key == key), None)
        figure = figures.get(key, Figure(note="—", missing=True))
        if target is None:
            lines.append(f"| {SIDE_ROWS[2][1]} | {figure.cell('s')} |")  # the floor
            continue
        judged = verdict(figure, target, KEP_SIZE, floor)
        lines.append(f"| {target.label} | {figure.cell(target.unit, floor)}{judged} |")
    if "identity" in figures:
        lines += ["", f"Byte identity on the KEP corpus: {figures['identity'].note}."]
    return lines


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


def compile_bytecode() -> None:
    """Write the package's bytecode once, as installing a wheel does: what is measured is the tool,
    not recompiling its sources on every start (which `PYTHONDONTWRITEBYTECODE` would cause)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "headwater")], check=True,
                   stdout=subprocess.DEVNULL)


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
    parser.add_argument("--no-kep", action="store_true", help="skip the KEP corpus")
    parser.add_argument("--identity-up-to", type=int, default=10000,
                        help="compare cold, first and warm output bytes at sizes up to this (default 10000)")
    parser.add_argument("--fresh", action="store_true",
                        help="forget figures of earlier runs (otherwise sizes not measured now keep them)")
    parser.add_argument("--out", default=str(REPO / "BENCHMARKS.md"), help="the file to write")
    args = parser.parse_args(argv)
    bench = Bench(args)
    bench.work.mkdir(parents=True, exist_ok=True)
    compile_bytecode()
    for size in (int(s) for s in args.sizes.split(",") if s):
        bench.size(size, args.reps, warmup=True)
    if not args.no_kep:
        bench.kep(args.reps)
    if args.big:
        bench.size(args.big, args.big_reps, warmup=False)
    bench.save()
    command = "python tests/benchmarks/run.py" + (f" --timeout {args.timeout:g}" if args.timeout != 3600 else "")
    out = Path(args.out)
    existing = out.read_text(encoding="utf-8") if out.is_file() else "# Benchmarks\n\n"
    out.write_text(replace_section(existing, speed_section(bench, command)), encoding="utf-8")
    bench.log(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
