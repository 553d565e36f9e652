"""`headwater rule`: the rule reference, read from the registry alone (no corpus, no lock)."""

from __future__ import annotations

from headwater.check import reference
from headwater.check.registry import RULES
from headwater.cli.output import Result
from headwater.errors import Refusal
from headwater.jsonout import dumps
from headwater.textsafe import shown


def run(invocation) -> Result:
    args = invocation.args
    asked = [name for name, given in (("a rule id", bool(args.rule)), ("`--list`", args.list), ("`--all`", args.all))
             if given]
    if len(asked) != 1:
        raise Refusal("`rule` takes a rule id, `--list` or `--all`, one of them. Try `headwater rule --list`"
                      if not asked else f"`rule` takes one of {' and '.join(asked)}, not both")
    if args.list:
        return Result(dumps(reference.document(RULES)) if args.json else reference.listing(RULES))
    if args.all:
        return Result(dumps(reference.document(RULES)) if args.json else reference.page(RULES))
    chosen = next((r for r in RULES if r.id == args.rule), None)
    if chosen is None:
        raise Refusal(f"`{shown(args.rule)}` is not a rule this engine carries. `headwater rule --list` lists them")
    return Result(dumps(reference.document((chosen,))) if args.json else reference.section(chosen))
