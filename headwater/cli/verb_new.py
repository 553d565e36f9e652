"""`headwater new`."""

from __future__ import annotations

from headwater.cli.output import Result
from headwater.clock import run_date
from headwater.errors import Refusal
from headwater.snapshot import load
from headwater.taxonomy.staleness import refuse_stale
from headwater.writes.new import new_document, pair


def run(invocation) -> Result:
    args = invocation.args
    if args.title is None or not args.title.strip():
        raise Refusal(f'`new` takes a title. Try `headwater new {args.kind} --title "Adopt an overlay"`')
    relates = [pair(text, "relates") for text in args.relates]
    facets = [pair(text, "facets") for text in args.facet]
    today = run_date(args.now)
    snapshot = load(invocation.root, today)
    refuse_stale(snapshot)  # a document shaped by a lock its sources moved past would be shaped wrong
    written = new_document(snapshot, args.kind, args.title, relates, args.summary, facets, args.directory)
    return Result(written.account)
