"""`headwater init`."""

from __future__ import annotations

from headwater.adoption import init
from headwater.cli.output import Result


def run(invocation) -> Result:
    args = invocation.args
    if not invocation.root.is_dir():
        from headwater.errors import Refusal

        raise Refusal(f"`{invocation.root}` is not a directory")
    binding = init.plan(invocation.root, args.corpus, args.package, args.bundle, args.namespace)
    if args.dry_run:
        return Result(init.dry_run(binding))
    written = init.write(invocation.root, binding)
    return Result(init.report(binding, written))
