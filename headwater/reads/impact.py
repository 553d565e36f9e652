"""`impact`: the governed documents a change touches, and which of them it did not re-verify.

A document is touched when one of its governing edges reaches a path the change adds, changes
or removes (the reading `governing_docs_for_path` gives; a pinned file a refreshed pin moved is
such a path, `<corpus>:<path>`), or names the identifier a document
the change removes carried (that edge binds nothing today, so no path reaches it). It is re-verified when the change
states so as `check --change` reads it: the change adds it, moves its freshness facet, or a
`verified` line names it. A touched document that is not re-verified is what a reviewer should
re-read before merging.
"""

from __future__ import annotations

from headwater.check.change_manifest import Change
from headwater.corpus.census import Outcome
from headwater.corpus.document import Document
from headwater.federation.pinned import listed_files
from headwater.frozen import frozen
from headwater.reads.governing import governing_documents, governing_documents_naming
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Taxonomy

VERSION = "1.0"  # of the `impact --format json` document's shape


@frozen
class Impacted:
    document: Document
    paths: tuple[str, ...]  # the changed paths its edges govern, sorted
    reverified: bool


@frozen
class Impact:
    """`impact`'s answer: every touched document, those not re-verified first, each group in path
    order; and the freshness facet a re-verification moves (None when the taxonomy has none)."""

    items: tuple[Impacted, ...]
    taxonomy: Taxonomy
    freshness: str | None

    @property
    def stale(self) -> int:
        return sum(1 for i in self.items if not i.reverified)


def impact(snapshot: Snapshot, change: Change) -> Impact:
    graph, tax = snapshot.graph, snapshot.taxonomy
    governed: dict[str, list[str]] = {}
    for path in sorted(change.touched | _moved_by_pins(snapshot, change)):
        for document in _governing(snapshot, change, path):
            if document.path != path:  # a document's own edit re-reads it, it does not impact it
                governed.setdefault(document.path, []).append(path)
    found = [Impacted(graph.documents[doc], tuple(paths), change.reverifies(doc, snapshot))
             for doc, paths in governed.items()]
    return Impact(tuple(sorted(found, key=lambda i: (i.reverified, i.document.path))), tax,
                  tax.facet_for_role("freshness"))


def _moved_by_pins(snapshot: Snapshot, change: Change) -> frozenset[str]:
    """The pinned files (`<corpus>:<path>`) whose revision a refreshed pin moved: listed before and
    not now, now and not before, or at another revision. A refresh changes no path of this
    repository's own that a governing edge names, only the pinned listing its edges bind through."""
    moved: set[str] = set()
    for pin in snapshot.declaration.pins:
        if pin.at not in change.touched:
            continue
        before = listed_files(pin, change.prior[pin.at]) if pin.at in change.prior else {}
        now = snapshot.federation.files_of(pin.name)
        moved |= {path for path in before.keys() | now.keys() if before.get(path) != now.get(path)}
    return frozenset(moved)


def _governing(snapshot: Snapshot, change: Change, path: str) -> list[Document]:
    """The documents governing a changed path; for a departed document, also those whose edges
    name the identifier it carried at the base revision (an untyped file bound no edge then)."""
    graph, tax = snapshot.graph, snapshot.taxonomy
    found = governing_documents(graph, tax, path)
    row = change.prior_row(path, tax) if path in change.departed else None
    if row is None or row.outcome is not Outcome.TYPED or not row.document.id:
        return found
    seen = {d.path for d in found}
    return found + [d for d in governing_documents_naming(graph, tax, row.document.id) if d.path not in seen]
