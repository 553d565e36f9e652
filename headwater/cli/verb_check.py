"""`headwater check`: refuse bad flags first, load the snapshot once, run, render one format."""

from __future__ import annotations

import sys
from pathlib import Path

from headwater.cli.output import Result, layout_width
from headwater.cli.progress import Progress
from headwater.clock import run_date
from headwater.corpus.parses import CacheUse
from headwater.errors import Refusal
from headwater.render import MARKDOWN_MAX_BYTES, Layout, format_named, render
from headwater.render.palette import Palette, stdout_palette
from headwater.snapshot import load
from headwater.taxonomy.declaration import LOCK
from headwater.taxonomy.staleness import changed_sources

FILTER_FLAGS = {"paths": "--path", "rules": "--rule", "min_severity": "--min-severity", "limit": "--limit"}
MIN_MARKDOWN_BYTES = 1024  # room for the heading, the summary, coverage and the note of what was left out


def chosen_format(args) -> str:
    """The format argparse let through (one of the flag's choices), or what `--json` spells."""
    if args.json and args.format:
        raise Refusal("`--json` is another spelling of `--format json`, so give one of them, not both")
    fmt = args.format or ("json" if args.json else "text")
    if args.wide and not format_named(fmt).human:
        raise Refusal(f"`--wide` sets the width of the text report, and `--format {fmt}` lays nothing out")
    if args.max_bytes is not None and fmt != "markdown":
        raise Refusal(f"`--max-bytes` bounds the markdown report, and `--format {fmt}` is not markdown")
    return fmt


def max_bytes(args) -> int:
    if args.max_bytes is None:
        return MARKDOWN_MAX_BYTES
    if not args.max_bytes.isdigit() or int(args.max_bytes) < MIN_MARKDOWN_BYTES:
        raise Refusal(f"`--max-bytes` takes a number of bytes, {MIN_MARKDOWN_BYTES} or more, "
                      f"and `{args.max_bytes}` is not one")
    return int(args.max_bytes)


def chosen_selection(args):
    from headwater.check.registry import rule_ids
    from headwater.check.selection import selection

    return selection(args.path, args.rule, args.min_severity, args.limit, rule_ids(), FILTER_FLAGS)


def read_change(args, root: Path):
    """The `--change` manifest, read in full before anything else runs, or None without one."""
    from headwater.check.change_manifest import read_manifest

    return read_manifest(Path(args.change), root, args.change) if args.change else None


def refuse_stale_lock(snapshot) -> None:
    changed = changed_sources(snapshot.root, snapshot.lock)
    if changed:
        raise Refusal(f"{LOCK} is stale: {', '.join(changed)} changed since it was resolved. "
                      "Run `headwater taxonomy resolve`")


def stderr_lines(args, fixed: list[str], failures: list[str], cache_line: str | None) -> tuple[str, ...]:
    """What `--fix` wrote unless `--quiet`; failures always; the cache's account under `--verbose`."""
    lines = ([] if args.quiet else fixed) + failures
    return tuple(lines + ([cache_line] if args.verbose and cache_line else []))


def run(invocation) -> Result:
    from headwater.check.cache import Verdicts
    from headwater.check.runner import run as run_checks
    from headwater.check.selection import Selection, bounded, narrowed
    from headwater.reads.route.index import body_terms  # kept beside each body for route

    args = invocation.args
    fmt = chosen_format(args)
    layout_bytes = max_bytes(args)
    chosen = chosen_selection(args)
    if args.fix and chosen != Selection(limit=chosen.limit):
        raise Refusal("`--fix` applies every mechanical patch of the corpus, so it takes no "
                      "`--path`, `--rule` or `--min-severity`")
    today = run_date(args.now)
    change = read_change(args, invocation.root)
    shown = format_named(fmt).human and not args.quiet and sys.stderr.isatty()
    with Progress(sys.stderr, shown, "reading the corpus") as progress:
        snapshot = load(invocation.root, today, CacheUse.OFF if args.no_cache else CacheUse.WRITE,
                        spread=True, derive=body_terms)
        refuse_stale_lock(snapshot)
        progress.phase(f"checking {len(snapshot.census.documents)} documents")
        cache = None if args.no_cache else Verdicts.load(snapshot.root)
        checks = lambda s: run_checks(s, change, cache, spread=True)  # noqa: E731
        if args.fix:
            from headwater.check.fix import fixed_run  # and the writes it applies: only when fixing

            snapshot, report, fixed = fixed_run(snapshot, checks)
        else:
            report, fixed = checks(snapshot), []
        failures = [] if cache is None else list(dict.fromkeys([*snapshot.save_parses(), *cache.save()]))
        report = narrowed(report, chosen)
        progress.phase("writing the report")
        palette = stdout_palette(args.no_color) if format_named(fmt).human else Palette(False)
        layout = Layout(layout_width(args.wide), palette, layout_bytes, chosen.limit)
        text = render(fmt, bounded(report, chosen.limit), snapshot, layout)
    empty = args.strict and not report.coverage.classified
    if empty:
        failures.append(nothing_checked(snapshot, report.coverage.seen))
    account = stderr_lines(args, fixed, failures, cache.account if cache is not None else None)
    return Result(text, account, status=1 if args.strict and (report.live_errors or empty) else 0,
                  holds=snapshot)


def nothing_checked(snapshot, seen: int) -> str:
    """Why a strict gate over no classified document fails: it would pass whatever the corpus holds."""
    where = snapshot.declaration.corpus_root
    return (f"headwater: --strict fails because no document is classified: {seen} files seen under "
            f"`{where}`, none on a shelf of a kind, so no rule judged anything. Run `headwater taxonomy kinds` "
            f"to see where each kind lives, or `headwater adopt` to type the records already there")
