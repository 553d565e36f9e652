"""Coverage, judged by the runner after every instance ran: a typed document that no check reached,
and a file a shelf claims that could not be read as a document at all."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.coverage_tally import Tally
from headwater.check.finding import Hit, Severity
from headwater.check.rule import Scope, rule
from headwater.corpus.census import Outcome


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


@rule("coverage.document_unreadable", 1, Scope.RUNNER, Severity.ERROR,
      short="A file a shelf claims could not be read as a document.",
      full="A shelf's pattern claims the file, and the census could not read it: it is not UTF-8, or "
           "its front matter is unterminated, not a mapping, or refused by the strict loader. No rule "
           "reads it, and nothing that names its identifier finds it.",
      help="""
The census row says why the file could not be read, with the line of the front matter where
the loader stopped. Repair the front matter (or the file's encoding) so it reads as a
document; a file that is not a document of that shelf belongs under an exclusion.
""",
      tags=("coverage",))
def coverage_document_unreadable(ctx: Context, _tally: Tally) -> list[Hit]:
    unreadable = [row for row in ctx.graph.census.rows if row.outcome is Outcome.UNREADABLE]
    shelves = [shelf.pattern for shelf in ctx.taxonomy.shelves.values()] if unreadable else []
    return [Hit(row.path, 0, 0, f"a shelf claims this file, and it could not be read as a document: {row.reason}",
                "repair it so it reads as a document, or exclude the path", "unreadable")
            for row in unreadable if any(pattern.matches(row.path) for pattern in shelves)]


RULES = (coverage_document_unchecked, coverage_document_unreadable)
