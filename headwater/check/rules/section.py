"""Sections: the headings a document's kind requires."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Severity
from headwater.check.rule import Scope, rule
from headwater.check.rules.hits import folded, hit
from headwater.corpus.document import Document


@rule("section.required.missing", 1, Scope.DOCUMENT, Severity.ERROR,
      short="No heading satisfies a section the kind requires.",
      full="The kind requires sections by heading; the body has no heading (at any level, "
           "compared trimmed and case-folded) for one of them.",
      help="""
A kind can require sections, such as `Context`, `Decision` and `Consequences` for a decision.
Add a heading with the section's name and write the section.
""",
      tags=("shape", "section"),
      routes=lambda ctx, doc: bool(ctx.taxonomy.required_sections(doc.kind)))
def section_required_missing(ctx: Context, doc: Document):
    present = {folded(h.text) for h in doc.body.headings}
    return [hit(doc, None, f"the kind `{doc.kind}` requires a `{name}` section, and no heading "
                 "says it", f"add a `## {name}` heading and write the section", name)
            for name in ctx.taxonomy.required_sections(doc.kind) if folded(name) not in present]


RULES = (section_required_missing,)
