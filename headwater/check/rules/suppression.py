"""Suppressions: a suppression directive that cannot be read, judged by the runner."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity
from headwater.check.rule import Scope, rule
from headwater.check.suppressions import directives


@rule("suppression.refused", 1, Scope.RUNNER, Severity.ERROR,
      short="A suppression directive names an unknown rule, an unknown reason or a bad date.",
      full="A `<!-- headwater allow=… -->` directive that cannot be read hides nothing; it names "
           "a rule this engine does not carry, a reason outside the two, a scope outside "
           "`block`/`file`, or an `until` that is not a date.",
      help="""
A directive reads `<!-- headwater allow=<rule> scope=block|file until=YYYY-MM-DD
reason=false_positive|accepted_deviation note=<text> -->`. Expiry is mandatory. Correct the
directive, or delete it.
""",
      tags=("suppression",))
def suppression_refused(ctx: Context, _tally) -> list[Hit]:
    return [Hit(d.path, d.line, d.column, d.problem,
                "correct the directive (rule id, scope, until date and reason), or delete it", d.rule)
            for doc in ctx.graph.census.documents for d in directives(doc, ctx.rule_ids) if d.problem]


RULES = (suppression_refused,)
