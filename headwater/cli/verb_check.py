"""`headwater check`: refuse bad flags first, load the snapshot once, run, render one format."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from dataclasses import replace
from pathlib import Path

from headwater.cli.output import Result, layout_width
from headwater.clock import run_date
from headwater.discovery import place_in_work_tree
from headwater.errors import Refusal
from headwater.render import MARKDOWN_MAX_BYTES, Layout, format_named, render_shown
from headwater.render.palette import Palette, stdout_palette
from headwater.textsafe import shown

FILTER_FLAGS = {"paths": "--path", "rules": "--rule", "min_severity": "--min-severity", "limit": "--limit"}
MIN_MARKDOWN_BYTES = 1024  # room for the heading, the summary, coverage and the note of what was left out


def chosen_format(args) -> str:
    """The format argparse let through (one of the flag's choices), or what `--json` spells."""
    if args.json and args.format:
        raise Refusal("`--json` is another spelling of `--format json`, so give one of them, not both")
    fmt = args.format or ("json" if args.json else "text")
    if args.wide and not format_named(fmt).human:
        given = "--json" if args.json else f"--format {fmt}"  # the user's own spelling
        raise Refusal(f"`--wide` sets the width of the text report, and `{given}` lays nothing out")
    if args.max_bytes is not None and fmt != "markdown":
        raise Refusal(f"`--max-bytes` bounds the markdown report, and `--format {fmt}` is not markdown")
    return fmt


def max_bytes(args) -> int:
    if args.max_bytes is None:
        return MARKDOWN_MAX_BYTES
    if not args.max_bytes.isdigit() or int(args.max_bytes) < MIN_MARKDOWN_BYTES:
        raise Refusal(f"`--max-bytes` takes a number of bytes, {MIN_MARKDOWN_BYTES} or more, "
                      f"and `{shown(args.max_bytes)}` is not one")
    return int(args.max_bytes)


def chosen_selection(args):
    from headwater.check.registry import rule_ids
    from headwater.check.selection import selection

    return selection(args.path, args.rule, args.min_severity, args.limit, rule_ids(), FILTER_FLAGS)


def read_change(args, root: Path):
    """The `--change` manifest, read in full before anything else runs, or None without one."""
    from headwater.check.change_manifest import read_manifest

    return read_manifest(Path(args.change), root, args.change) if args.change else None


def run(invocation) -> Result:
    # read off the root itself: the folder `--staged` writes the index out to lies in no work tree;
    # only the formats GitHub reads write it
    place = place_in_work_tree(invocation.root) if format_named(chosen_format(invocation.args)).from_top else ""
    if not invocation.args.staged:
        return _checked(invocation, place)
    if invocation.args.fix:
        raise Refusal("`--fix` writes the working tree and `--staged` checks git's index, so they "
                      "do not run together; fix, stage, then check the index")
    from headwater.cli.staged import staged_root
    from headwater.taxonomy.staleness import StaleLock

    with staged_root(invocation.root) as staged:
        try:
            return _checked(replace(invocation, root=staged), place)
        except StaleLock as stale:
            raise stale.in_the_index() from None


def _checked(invocation, place: str) -> Result:
    """`place`: the root's folder in its git work tree, which the formats GitHub reads write first."""
    from headwater.check.selection import refuse_naming_nothing

    args = invocation.args
    fmt = chosen_format(args)
    layout_bytes = max_bytes(args)
    refuse_naming_nothing(args.path, invocation.root, FILTER_FLAGS["paths"])
    run_key = replay_key(args, invocation.root)
    if run_key is not None:
        from headwater.check import replay

        replayed = replay.recall(invocation.root, run_key)
        if replayed is not None:
            return replayed_run(args, fmt, layout_bytes, replayed, place)
    return full_run(invocation, fmt, layout_bytes, run_key, place)


def replay_key(args, root: Path) -> str | None:
    """The key a full run is kept and replayed under (HW-DR-0037), or None when this run is never
    kept: it fixes, reads no cache, reads a change manifest, or gives a date it will refuse."""
    if args.fix or args.no_cache or args.change:
        return None
    try:
        today = run_date(args.now)
    except Refusal:
        return None  # refused by the full run, in its order
    from headwater.check import replay

    return replay.key(root, today)


def replayed_run(args, fmt: str, layout_bytes: int, replayed, place: str) -> Result:
    """The kept report, narrowed and rendered as a full run renders its own."""
    from headwater.check.selection import bounded, narrowed, selection

    report, shown = replayed.report, replayed.shown
    chosen = selection(args.path, args.rule, args.min_severity, args.limit,
                       frozenset(r.id for r in report.rules), FILTER_FLAGS)
    report = narrowed(report, chosen)
    text = render_shown(fmt, bounded(report, chosen.limit), shown, layout(args, fmt, layout_bytes, chosen.limit, place))
    account = f"headwater: cache: replayed the last run, {replayed.observations} observations unchanged"
    return finished(args, report, shown, text, [], account)


def layout(args, fmt: str, layout_bytes: int, rows: int | None, place: str) -> Layout:
    chosen = format_named(fmt)
    palette = stdout_palette(args.no_color) if chosen.human else Palette(False)
    return Layout(layout_width(args.wide), palette, layout_bytes, rows, place)


def full_run(invocation, fmt: str, layout_bytes: int, run_key: str | None, place: str) -> Result:
    from headwater.check.cache import Verdicts
    from headwater.check.runner import run as run_checks
    from headwater.check.selection import Selection, bounded, narrowed
    from headwater.check.shown import Shown
    from headwater.cli.progress import Progress
    from headwater.corpus.parses import CacheUse
    from headwater.reads.route.index import body_terms  # kept beside each body for route
    from headwater.snapshot import load
    from headwater.taxonomy.staleness import refuse_stale

    args = invocation.args
    chosen = chosen_selection(args)
    if args.fix and chosen != Selection(limit=chosen.limit):
        raise Refusal("`--fix` applies every mechanical patch of the corpus, so it takes no "
                      "`--path`, `--rule` or `--min-severity`")
    today = run_date(args.now)
    change = read_change(args, invocation.root)
    shown = format_named(fmt).human and not args.quiet and sys.stderr.isatty()
    recorder = recording(invocation.root) if run_key is not None else contextlib.nullcontext()
    with Progress(sys.stderr, shown, "reading the corpus") as progress:
        with recorder:
            # the verdict cache read by the corpus's forked reader where there is one: its core is
            # idle while this process classifies and builds the graph
            verdicts = None if args.no_cache else functools.partial(Verdicts.read, invocation.root)
            snapshot = load(invocation.root, today, CacheUse.OFF if args.no_cache else CacheUse.WRITE,
                            spread=True, derive=body_terms, beside=verdicts)
            refuse_stale(snapshot)
            progress.phase(f"checking {len(snapshot.census.documents)} documents")
            cache = None if verdicts is None else Verdicts(snapshot.root, *(snapshot.read_beside or verdicts()))
            # what the report shows of the snapshot, made while a forked worker serves verdicts
            aside = None if args.fix else functools.cache(functools.partial(Shown.of, snapshot))
            checks = lambda s: run_checks(s, change, cache, spread=True, meanwhile=aside)  # noqa: E731
            if args.fix:
                from headwater.check.fix import fixed_run  # and the writes it applies: only when fixing

                snapshot, report, fixed = fixed_run(snapshot, checks)
            else:
                report, fixed = checks(snapshot), []
        failures = [] if cache is None else [*snapshot.save_parses(), *cache.save()]
        seen = aside() if aside is not None else Shown.of(snapshot)
        if run_key is not None:
            failures += kept(snapshot, run_key, recorder, report, seen)
        failures = list(dict.fromkeys(failures))
        progress.phase("writing the report")
        report = narrowed(report, chosen)
        text = render_shown(fmt, bounded(report, chosen.limit), seen,
                            layout(args, fmt, layout_bytes, chosen.limit, place))
    account = cache.account if cache is not None else None
    # the verdict file's records too: freeing its tens of thousands of strings one by one, as the
    # verb returns, would take milliseconds an exiting process need not spend
    return replace(finished(args, report, seen, text, fixed + failures, account,
                            quiet_lines=len(fixed)), holds=(snapshot, cache))


def recording(root: Path):
    """What the run reads, less the cache and the key that seals it (HW-DR-0037)."""
    from headwater import cachedir, cachekey, observed

    ignored = (os.path.join(os.path.abspath(root), cachedir.CACHE_DIR), os.path.abspath(cachekey.folder()))
    return observed.Recorder(observed.Scope(ignored))


def kept(snapshot, run_key: str, recorder, report, shown) -> list[str]:
    """Keep the run to be replayed, unless something it read moved while it ran."""
    from headwater.check import replay

    root = os.path.join(os.path.abspath(snapshot.root), "")
    read = {root + d.path: d.digest for d in snapshot.census.parsed}
    observations = recorder.observations(read)
    if observations is None:
        return []
    return replay.keep(snapshot.root, run_key, observations, recorder.began, report, shown)


def finished(args, report, shown, text: str, lines: list[str], account: str | None,
             quiet_lines: int = 0) -> Result:
    """The run's answer: `--strict`'s status, and stderr (what `--fix` wrote unless `--quiet`,
    failures always, the cache's account under `--verbose`). A repository with pins and no
    document (a service that only imports or harvests) is judged on its pins alone."""
    empty = args.strict and not report.coverage.classified and not shown.pins
    shown_lines = lines[quiet_lines:] if args.quiet else list(lines)
    if empty:
        shown_lines.append(nothing_checked(shown.census_root, report.coverage.seen))
    if args.verbose and account:
        shown_lines.append(account)
    return Result(text, tuple(shown_lines), status=1 if args.strict and (report.live_errors or empty) else 0)


def nothing_checked(where: str, seen: int) -> str:
    """Why a strict gate over no classified document fails: it would pass whatever the corpus holds."""
    files = f"{seen} file{'s' if seen != 1 else ''}"
    return (f"headwater: --strict fails because no document is classified: {files} seen under "
            f"`{where}`, none of them typed, so no rule judged anything. Run `headwater adopt` to type the records "
            "already on a shelf, or `headwater taxonomy kinds` to see where each kind lives")
