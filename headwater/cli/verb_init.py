"""`headwater init`."""

from __future__ import annotations

from headwater.adoption import init
from headwater.cli.output import Result
from headwater.errors import Refusal
from headwater.taxonomy.declaration import LOCK


def run(invocation) -> Result:
    args = invocation.args
    binding = init.plan(invocation.root, args.corpus, args.package, args.bundle, args.namespace)
    if args.dry_run:
        return Result(init.dry_run(binding))
    written = init.write(invocation.root, binding)
    try:
        to_adopt = _to_adopt(invocation.root) if LOCK in written else 0
    except KeyboardInterrupt:  # the binding is whole: say so, rather than leave the user guessing
        raise Refusal(f"interrupted after writing {', '.join(written)}, which bind this repository; "
                      "run `headwater check`") from None
    return Result(init.report(binding, written, to_adopt))


def _to_adopt(root) -> int:
    """How many records `adopt` would migrate, read from the tree `init` just bound; none when the
    tree cannot be read, since the binding is written and `check` then says why in its own words."""
    from headwater.adoption.adopt import adoption
    from headwater.clock import run_date
    from headwater.snapshot import load

    try:
        return len(adoption(load(root, run_date(None))).lines)
    except Refusal:
        return 0
