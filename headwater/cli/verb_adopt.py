"""`headwater adopt`."""

from __future__ import annotations

from headwater.adoption.adopt import adopt
from headwater.cli.output import Result
from headwater.clock import run_date
from headwater.snapshot import load


def run(invocation) -> Result:
    args = invocation.args
    snapshot = load(invocation.root, run_date(args.now))
    lines = adopt(snapshot, args.dry_run)
    if not lines:
        return Result("nothing to adopt: every record on a shelf already carries what its body says\n")
    verb = "would write" if args.dry_run else "wrote"
    tail = ("run it without `--dry-run` to write them" if args.dry_run
            else "review them with `git diff`, then run `headwater check --strict`")
    head = "\n".join(line.replace("adopted ", "would adopt ", 1) if args.dry_run else line for line in lines)
    return Result(f"{head}\n{verb} front matter into {len(lines)} records; {tail}\n")
