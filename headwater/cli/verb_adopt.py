"""`headwater adopt`: migrate the records once, and (`--baseline`) hold what remains under a task."""

from __future__ import annotations

from headwater.adoption.adopt import adopt, baseline
from headwater.adoption.adr_tools import said
from headwater.cli.output import Result
from headwater.clock import parse_date, run_date
from headwater.errors import Refusal
from headwater.snapshot import load
from headwater.taxonomy.staleness import refuse_stale
from headwater.textsafe import visible

STATEMENT = "the findings present when this repository adopted headwater"


def _held_until(args, today):
    """`--owner` and `--until` for `--baseline`, refused before anything is written."""
    if not args.baseline:
        if args.owner or args.until:
            raise Refusal("`--owner` and `--until` name the adoption task `--baseline` writes; add `--baseline`")
        return None
    if args.dry_run:
        raise Refusal("`--baseline` writes the adoption task from the corpus after migration, so it takes no "
                      "`--dry-run`")
    if not args.owner or not args.owner.strip():
        raise Refusal('`--baseline` takes `--owner`, who answers for the held findings. Try `--owner "@docs-team"`')
    until = parse_date(args.until or "")
    if until is None or until <= today:
        raise Refusal("`--baseline` takes `--until`, a date after today written YYYY-MM-DD, when the held "
                      "findings count again")
    return until


def run(invocation) -> Result:
    from headwater.check.runner import run as run_checks

    args = invocation.args
    today = run_date(args.now)
    until = _held_until(args, today)
    snapshot = load(invocation.root, today)
    refuse_stale(snapshot)  # a document shaped by a lock its sources moved past would be shaped wrong
    adopted = adopt(snapshot, args.dry_run)
    lines = adopted.lines
    verb = "would write" if args.dry_run else "wrote"
    out = [visible(line.replace("adopted ", "would adopt ", 1) if args.dry_run else line) for line in lines]
    out += [visible(line) for line in adopted.left]
    out.append(f"{verb} front matter into {len(lines)} record{'s' if len(lines) != 1 else ''}" if lines else
               "nothing to migrate: every record on a shelf already carries what its body says" if not adopted.left
               else "nothing else to migrate: every other record on a shelf already carries what its body says")
    if adopted.title_readers is not None:
        out += said(adopted.title_readers, f"this run {verb}", snapshot.taxonomy.facet_for_role("name"))
    if until is not None:
        after = load(invocation.root, today)
        out += baseline(after, list(run_checks(after).findings), args.owner.strip(), until, STATEMENT)
    if args.dry_run and lines:
        out.append("run it without `--dry-run` to write them")
    elif lines or until is not None:
        out.append("review with `git diff`, then run `headwater check --strict`")
    return Result("\n".join(out) + "\n")
