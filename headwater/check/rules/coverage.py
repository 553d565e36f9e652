"""Coverage: a typed document that no check reached, judged by the runner after every instance ran."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.coverage_tally import Tally
from headwater.check.finding import Hit, Severity
from headwater.check.rule import Scope, rule


@rule("coverage.document_unchecked", 1, Scope.RUNNER, Severity.WARN,
      short="A classified document reached no check.",
      full="A typed document got no check instance, or every one of its instances was skipped, "
           "so nothing vouches for it.",
      help="""
The census typed this document, yet no rule reached a verdict on it. Check that the shelf
claims the right files and that the kind declares what its documents must carry; the skip
reasons in the coverage block say why each instance stopped.
""",
      tags=("coverage",))
def coverage_document_unchecked(ctx: Context, tally: Tally) -> list[Hit]:
    hits = []
    for doc in ctx.graph.census.documents:
        reached, skipped = tally.documents.get(doc.path, (0, 0))
        if not reached:
            message = "this document is classified and no check instance reached it"
        elif skipped == reached:
            message = f"this document is classified and all {reached} of its check instances were skipped"
        else:
            continue
        hits.append(Hit(doc.path, 0, 0, message, "check that the shelf claims the right files and that "
                        "the kind declares what its documents must carry", "coverage"))
    return hits


RULES = (coverage_document_unchecked,)
