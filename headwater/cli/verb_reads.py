"""`related` and `resolve`: the MCP tools' reads on the command line, over the same functions.

The text is the tool's answer byte for byte; `--json` prints its `structuredContent`. A read the
tool answers with a refusal sentence is a refusal here (stderr, exit 1).
"""

from __future__ import annotations

from headwater.cli.output import Result
from headwater.clock import run_date
from headwater.render.reads import render
from headwater.snapshot import load


def run_related(invocation) -> Result:
    from headwater.reads.related import related

    snapshot = load(invocation.root, run_date(None))
    return Result(render("json" if invocation.args.json else "text", related(snapshot, invocation.args.target)))


def run_resolve(invocation) -> Result:
    from headwater.reads.identifiers import resolve_identifier

    snapshot = load(invocation.root, run_date(None))
    return Result(render("json" if invocation.args.json else "text", resolve_identifier(snapshot, invocation.args.id)))
