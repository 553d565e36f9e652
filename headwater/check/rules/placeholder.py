"""Placeholders `new` wrote and nobody replaced: the TODO summary and the TODO section lines.

The texts are the writer's own (`writes.shape`), so the rule recognizes exactly what the engine
wrote and nothing an author typed.
"""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity
from headwater.check.rule import Scope, rule
from headwater.check.rules.hits import folded, hit
from headwater.corpus.document import Document
from headwater.writes.shape import SCENT_TODO, SECTION_TODO


def _scent(ctx: Context, doc: Document):
    node = doc.value(ctx.taxonomy.facet_for_role("scent"))
    return node if doc.text_of(ctx.taxonomy.facet_for_role("scent")) == SCENT_TODO else None


def _section_lines(doc: Document) -> list[tuple[int, str]]:
    """(line, the heading above it) for every placeholder line; the heading is what fingerprints read."""
    if SECTION_TODO not in doc.body_text:
        return []
    found, heading = [], ""
    for index, line in enumerate(doc.body_text.split("\n")):
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        elif line.strip() == SECTION_TODO:
            found.append((doc.body_line + index, heading))
    return found


@rule("placeholder.unwritten", 2, Scope.DOCUMENT, Severity.ERROR,
      short="A placeholder `headwater new` wrote is still in the document.",
      full="The summary is still the TODO sentence `new` writes without `--summary`, or a section "
           "still holds `new`'s TODO line. A summary placeholder is an error (routing reads it); a "
           "section placeholder is an error once the document has left its initial state, and a "
           "warning while it is being drafted.",
      help="""
`headwater new` fills what it cannot know with TODO lines so the document has its shape. A
placeholder left in a document that is no longer a draft reads as content: write the summary
sentence and each section, or move the document back to its initial state.
""",
      tags=("shape", "body", "placeholder"),
      routes=lambda ctx, doc: _scent(ctx, doc) is not None or bool(_section_lines(doc)))
def placeholder_unwritten(ctx: Context, doc: Document) -> list[Hit]:
    hits = []
    scent = ctx.taxonomy.facet_for_role("scent")
    node = _scent(ctx, doc)
    if node is not None:
        hits.append(hit(doc, node, f"`{scent}` is still the placeholder `new` wrote, and routing reads it",
                        f"write `{scent}:` as the one sentence a reader learns here", scent))
    lifecycle = ctx.taxonomy.lifecycle_of(doc.kind)
    drafting = lifecycle is not None and ctx.state(doc) == lifecycle.initial
    required = {folded(name) for name in ctx.taxonomy.required_sections(doc.kind)}
    for line, heading in _section_lines(doc):
        remedy = (f"write the section: the kind `{doc.kind}` requires it" if folded(heading) in required
                  else f"write the section, or delete it: the kind `{doc.kind}` does not require it")
        hits.append(Hit(doc.path, line, 1, f"the section `{heading}` still says `{SECTION_TODO}`, the placeholder "
                        "`new` wrote", remedy, f"section:{heading}", Severity.WARN if drafting else None))
    return hits


RULES = (placeholder_unwritten,)
