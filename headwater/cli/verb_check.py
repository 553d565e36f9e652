"""`headwater check`: refuse bad flags first, load the snapshot once, run, render one format."""

from __future__ import annotations

from pathlib import Path

from headwater.cli.output import Palette, Result, layout_width, stdout_palette
from headwater.clock import run_date
from headwater.corpus.parses import CacheUse
from headwater.errors import Refusal
from headwater.render import FORMATS, render
from headwater.snapshot import load
from headwater.taxonomy.declaration import LOCK
from headwater.taxonomy.staleness import changed_sources


def chosen_format(args) -> str:
    if args.json and args.format:
        raise Refusal("`--json` is another spelling of `--format json`, so give one of them, not both")
    fmt = args.format or ("json" if args.json else "text")
    if fmt not in FORMATS:
        raise Refusal(f"`--format` takes text, json, sarif or markdown, and `{fmt}` is not one of them")
    if args.wide and fmt != "text":
        raise Refusal(f"`--wide` sets the width of the text report, and `--format {fmt}` lays nothing out")
    return fmt


def read_change(args, root: Path):
    """The `--change` manifest, read in full before anything else runs, or None without one."""
    from headwater.check.change import read_manifest

    return read_manifest(Path(args.change), root, args.change) if args.change else None


def refuse_stale_lock(snapshot) -> None:
    changed = changed_sources(snapshot.root, snapshot.lock)
    if changed:
        raise Refusal(f"{LOCK} is stale: {', '.join(changed)} changed since it was resolved. "
                      "Run `headwater taxonomy resolve`")


def run(invocation) -> Result:
    from headwater.check.cache import Verdicts
    from headwater.check.fix import fixed_run
    from headwater.check.runner import run as run_checks

    args = invocation.args
    fmt = chosen_format(args)
    today = run_date(args.now)
    change = read_change(args, invocation.root)
    snapshot = load(invocation.root, today, CacheUse.OFF if args.no_cache else CacheUse.WRITE, spread=True)
    refuse_stale_lock(snapshot)
    cache = None if args.no_cache else Verdicts.load(snapshot.root)
    checks = lambda s: run_checks(s, change, cache, spread=True)  # noqa: E731
    if args.fix:
        snapshot, report, account = fixed_run(snapshot, checks)
    else:
        report, account = checks(snapshot), []
    if cache is not None:
        failures = dict.fromkeys([*snapshot.save_parses(), *cache.save()])  # one cause, one line
        account += [*failures, cache.account]
    palette = stdout_palette(args.no_color) if fmt == "text" else Palette(False)
    text = render(fmt, report, snapshot, width=layout_width(args.wide), palette=palette)
    empty = args.strict and not report.coverage.classified
    if empty:
        account.append(nothing_checked(snapshot, report.coverage.seen))
    return Result(text, tuple(account), status=1 if args.strict and (report.live_errors or empty) else 0,
                  holds=snapshot)


def nothing_checked(snapshot, seen: int) -> str:
    """Why a strict gate over no classified document fails: it would pass whatever the corpus holds."""
    where = snapshot.declaration.corpus_root
    return (f"headwater: --strict fails because no document is classified: {seen} files seen under "
            f"`{where}`, none on a shelf of a kind, so no rule judged anything. Run `headwater taxonomy kinds` "
            f"to see where each kind lives, or `headwater adopt` to type the records already there")
