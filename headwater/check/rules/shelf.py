"""Shelves: where a document stands against the shelf its kind is placed on."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Severity, Skip
from headwater.check.rule import Scope, rule
from headwater.check.rules.hits import hit
from headwater.corpus.document import Document


def _discriminators(ctx: Context) -> list[str]:
    return sorted({s.discriminator for s in ctx.taxonomy.shelves.values()
                   if not s.homogeneous and s.discriminator})


@rule("shelf.placement_is_primary", 2, Scope.DOCUMENT, Severity.ERROR,
      short="A document restates its kind on a homogeneous shelf.",
      full="On a homogeneous shelf placement alone gives the kind; a discriminator facet written "
           "there restates it and can only disagree.",
      help="""
Homogeneous shelves type every file by where it stands. Writing the discriminator facet (for
example `doc_type`) on such a shelf says the kind twice; delete it and let placement decide.
""",
      tags=("shape", "shelf"),
      routes=lambda ctx, doc: any(name in doc.front for name in _discriminators(ctx)))
def shelf_placement_is_primary(ctx: Context, doc: Document):
    shelves = ctx.shelves.matching_shelves(doc.path)
    if len(shelves) != 1 or not shelves[0].homogeneous:
        return Skip("the shelf is heterogeneous, so its discriminator is what names the kind")
    shelf = shelves[0]
    return [hit(doc, doc.front.key(name), f"`{name}` restates the kind on the homogeneous shelf "
                 f"`{shelf.name}`, where placement alone makes this a `{doc.kind}`",
                 f"delete `{name}:`; the shelf `{shelf.name}` already decides the kind", name)
            for name in _discriminators(ctx) if name in doc.front]


RULES = (shelf_placement_is_primary,)
