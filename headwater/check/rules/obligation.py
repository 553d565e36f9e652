"""Obligations: every invariant the taxonomy declares carries exactly one disposition."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Severity
from headwater.check.rule import Reads, Scope, rule
from headwater.check.rules.hits import lock_hit, ticked


@rule("obligation.disposition.not_one", 1, Scope.CORPUS, Severity.WARN,
      short="An obligation has no disposition, or more than one.",
      full="Every obligation the taxonomy declares is verified (a control discharges it), a "
           "`gap` (a control is wanted, with an owner), or `unverifiable` (no mechanism can "
           "exist, with the reasoning). This one states none of the three, or two of them.",
      help="""
An obligation that nothing discharges and that states neither a gap nor an acceptance reads
like one that is met. Name it in a control's `discharges`, or write `disposition: {gap: {owner:
…}}` or `disposition: {unverifiable: {reasoning: …}}` — exactly one of the three.
""",
      tags=("register", "obligation"),
      reads=(Reads.SUBJECT,))
def obligation_disposition_not_one(ctx: Context, _subject):
    hits = []
    controls = ctx.taxonomy.controls.values()
    for obligation in ctx.taxonomy.obligations.values():
        discharging = sorted(c.id for c in controls if obligation.id in c.discharges)
        stated = ([f"verified by {ticked(discharging)}"] if discharging else []) + [
            f"`{d}`" for d in obligation.written]
        if len(stated) == 1:
            continue
        if not stated:
            message = f"`{obligation.id}` has no disposition: no control discharges it and it states no gap"
            remedy = "name it in a control's `discharges`, or write a `gap` or `unverifiable` disposition"
        else:
            message = f"`{obligation.id}` has {len(stated)} dispositions: {' and '.join(stated)}"
            remedy = "keep one: drop the written disposition, or the control's claim to discharge it"
        hits.append(lock_hit(ctx, ("obligations", obligation.id), message, remedy, obligation.id))
    return hits


RULES = (obligation_disposition_not_one,)
