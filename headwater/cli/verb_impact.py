"""`headwater impact <manifest>`: the governed documents a change touches, in one format."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from headwater.check.change_manifest import read_manifest
from headwater.cli.output import Result
from headwater.cli.verb_check import chosen_format, max_bytes, refuse_stale_lock
from headwater.clock import run_date
from headwater.jsonout import dumps
from headwater.reads import impact
from headwater.snapshot import Snapshot, load

# The impact report's formats, in the order `--format` lists them (the verb table's choices; a test holds them equal).
RENDERERS: dict[str, Callable[[Snapshot, tuple[impact.Impacted, ...], int], str]] = {
    "text": lambda snapshot, found, bound: impact.render_text(snapshot, found),
    "markdown": impact.render_markdown,
    "json": lambda snapshot, found, bound: dumps(impact.as_json(snapshot, found)),
    "github": lambda snapshot, found, bound: impact.render_github(found),
}


def run(invocation) -> Result:
    args = invocation.args
    fmt = chosen_format(args)
    bound = max_bytes(args)
    change = read_manifest(Path(args.manifest), invocation.root, args.manifest)
    snapshot = load(invocation.root, run_date(None))
    refuse_stale_lock(snapshot)
    found = impact.impact(snapshot, change)
    text = RENDERERS[fmt](snapshot, found, bound)
    return Result(text, status=1 if args.strict and any(not i.reverified for i in found) else 0)
