"""`headwater impact <manifest>`: the governed documents a change touches, in one format."""

from __future__ import annotations

from pathlib import Path

from headwater.check.change_manifest import read_manifest
from headwater.cli.output import Result, layout_width
from headwater.cli.verb_check import chosen_format, max_bytes
from headwater.clock import run_date
from headwater.discovery import place_in_work_tree
from headwater.reads.impact import impact
from headwater.render.reads import Layout, render
from headwater.snapshot import load
from headwater.taxonomy.staleness import refuse_stale


def run(invocation) -> Result:
    args = invocation.args
    fmt = chosen_format(args)
    bound = max_bytes(args)
    change = read_manifest(Path(args.manifest), invocation.root, args.manifest)
    snapshot = load(invocation.root, run_date(None))
    refuse_stale(snapshot)
    answer = impact(snapshot, change)
    layout = Layout(layout_width(args.wide), max_bytes=bound, place=place_in_work_tree(invocation.root))
    return Result(render(fmt, answer, layout), status=1 if args.strict and answer.stale else 0)
