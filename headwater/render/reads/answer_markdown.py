"""Read answers as a pull-request section, held under the layout's byte bound: `impact`'s form."""

from __future__ import annotations

from functools import singledispatch

from headwater.bounded import fitted
from headwater.reads.impact import Impact, Impacted
from headwater.render.reads import FOLDED, Layout
from headwater.render.reads.impact_lines import SHOWN_PATHS, headline, how_to_reverify
from headwater.textsafe import markdown_code, markdown_text
from headwater.words import plural


@singledispatch
def markdown(answer: object, layout: Layout = FOLDED) -> str:
    raise TypeError(f"no markdown renderer for {type(answer).__name__}")


def _row(item: Impacted) -> str:
    doc = item.document
    name = markdown_code(doc.path) + (f" ({markdown_text(doc.id)})" if doc.id else "")
    governs = ", ".join(markdown_code(p) for p in item.paths[:SHOWN_PATHS])
    if len(item.paths) > SHOWN_PATHS:
        governs += f" and {len(item.paths) - SHOWN_PATHS} more"
    return f"| {'yes' if item.reverified else '**no**'} | {name} | {governs} |"


@markdown.register(Impact)
def _impact(answer: Impact, layout: Layout = FOLDED) -> str:
    """A count of the rows the bound left out closes the table."""
    found, max_bytes = answer.items, layout.max_bytes

    def compose(keep: int) -> str:
        lines = ["## Governed documents this change touches", "", headline(answer)]
        if found:
            lines += ["", "| Re-verified | Document | Governs, of the changed paths |", "|---|---|---|",
                      *(_row(i) for i in found[:keep])]
        if keep < len(found):
            lines += ["", f"_{plural(len(found) - keep, 'document is', 'documents are')} not in this table, "
                          f"which stops short of {max_bytes:,} bytes; `headwater impact` lists every one._"]
        if answer.stale:
            lines += ["", how_to_reverify(answer)]
        return "\n".join(lines) + "\n"

    return fitted(compose, len(found), max_bytes)
