"""`explain`: what a file is, how its kind was derived, what is required of it, its edges."""

from __future__ import annotations

from headwater.corpus.census import Outcome, Row
from headwater.frozen import frozen
from headwater.reads.related import Neighbour, neighbours
from headwater.reads.target import find_row
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Taxonomy

VERSION = "1.1"  # 1.1: `unread_pins` on an edge naming a corpus whose pin binds nothing


@frozen
class Permission:
    """A relation the kind may declare, the kinds it may reach, and what the other end writes."""

    relation: str
    to: tuple[str, ...]
    inverse: str | None


@frozen
class Purpose:
    name: str
    intent: str | None


@frozen
class Explanation:
    """`explain`'s answer. `kind` is None for a file that is no typed document; then only the
    derivation (ending in why it has no kind) is known, and nothing is required of it."""

    path: str
    taxonomy: Taxonomy
    id: str | None
    kind: str | None
    derivation: tuple[str, ...]
    purpose: Purpose | None = None
    summary: str | None = None
    warrant: str | None = None
    facets: tuple[str, ...] = ()
    sections: tuple[str, ...] = ()
    permitted: tuple[Permission, ...] = ()
    related: tuple[Neighbour, ...] = ()


def explain(snapshot: Snapshot, argument: str) -> Explanation:
    """The explanation of the file a path or an identifier names; a `Refusal` when it names none."""
    return explanation(snapshot, find_row(snapshot, argument, "explain"))


def explanation(snapshot: Snapshot, row: Row) -> Explanation:
    tax = snapshot.taxonomy
    doc = row.document
    ident = doc.id if doc else None
    if row.outcome is not Outcome.TYPED or doc is None or row.kind is None:
        return Explanation(row.path, tax, ident, None, (*row.derivation, row.reason))
    kind = row.kind
    purpose = tax.purpose_of(kind)
    intent = (tax.purposes.get(purpose or "") or {}).get("intent")
    permitted = tuple(Permission(p.written_as, tuple(p.far_kinds), p.relation.name if p.inverse else p.relation.inverse)
                      for p in tax.permitted(kind))
    return Explanation(
        row.path, tax, ident, kind, row.derivation,
        purpose=Purpose(purpose, intent) if purpose else None,
        summary=doc.text_of(tax.facet_for_role("scent")),
        warrant=doc.warrant.strip() if doc.warrant and doc.warrant.strip() else None,
        facets=tuple(tax.required_facets(kind)),
        sections=tuple(tax.required_sections(kind)),
        permitted=permitted,
        related=tuple(neighbours(snapshot.graph, tax, row.path, snapshot.federation)),
    )
