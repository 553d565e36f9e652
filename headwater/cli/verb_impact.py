"""`headwater impact <manifest>`: the governed documents a change touches, in one format."""

from __future__ import annotations

from pathlib import Path

from headwater.check.change_manifest import read_manifest
from headwater.cli.output import Result
from headwater.cli.verb_check import chosen_format, max_bytes, refuse_stale_lock
from headwater.clock import run_date
from headwater.jsonout import dumps
from headwater.reads import impact
from headwater.snapshot import load


def run(invocation) -> Result:
    args = invocation.args
    fmt = chosen_format(args, ("text", "markdown", "json", "github"))
    bound = max_bytes(args)
    change = read_manifest(Path(args.manifest), invocation.root, args.manifest)
    snapshot = load(invocation.root, run_date(None))
    refuse_stale_lock(snapshot)
    found = impact.impact(snapshot, change)
    if fmt == "json":
        text = dumps(impact.as_json(snapshot, found))
    elif fmt == "github":
        text = impact.render_github(found)
    elif fmt == "markdown":
        text = impact.render_markdown(snapshot, found, bound)
    else:
        text = impact.render_text(snapshot, found)
    return Result(text, status=1 if args.strict and any(not i.reverified for i in found) else 0)
