"""The write tools behind `--write`: the same library calls as `headwater new` and `check --fix`.

Each returns the account and the artifact as separate blocks, and says whether a byte landed,
which is what spends the server.
"""

from __future__ import annotations

from headwater.mcp.tools import Outcome
from headwater.snapshot import Snapshot


def new_document(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.writes.new import Aborted
    from headwater.writes.new import new_document as write_new

    try:
        written = write_new(snapshot, args["kind"], args["title"], relates=args["relates"], summary=args["summary"],
                            facets=args["facets"], directory=args["directory"])
    except Aborted as aborted:
        return Outcome((aborted.sentence + "\n",), is_error=True, landed=bool(aborted.written))
    return Outcome((written.account, written.artifact), landed=written.landed)


def fix_corpus(snapshot: Snapshot, args: dict) -> Outcome:
    from headwater.check.fix import fix_report

    fixed = fix_report(snapshot, args["format"])
    return Outcome((fixed.account, fixed.report), landed=fixed.landed)
