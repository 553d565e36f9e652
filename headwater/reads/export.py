"""What `headwater export` writes: the export, the corpus descriptor, the anchors snapshot.

Each is a pure function of the snapshot (or the tree), in path order, every scalar a string,
so exporting twice gives the same bytes and a digest can pin them.
"""

from __future__ import annotations

from headwater.corpus.census import Outcome
from headwater.corpus.document import Document
from headwater.corpus.tree import SourceTree
from headwater.federation import formats
from headwater.graph import Bound, Edge, Target
from headwater.snapshot import Snapshot
from headwater.yaml.nodes import to_plain


def export_document(snapshot: Snapshot) -> dict:
    tax, lock = snapshot.taxonomy, snapshot.lock
    return {
        formats.MARKER: formats.EXPORT,
        "export_version": formats.EXPORT_VERSION,
        "taxonomy": {"package": lock.package, "version": lock.version, "lock": lock.digest},
        "census": _census(snapshot),
        "graph": {
            "documents": [_document(snapshot, d) for d in snapshot.census.documents],
            "edges": [_edge(e, tax.governs_reading(e.relation, e.inverse)) for e in snapshot.graph.edges],
        },
        "anchors": _anchor_files(snapshot),
    }


def _census(snapshot: Snapshot) -> dict:
    rows = snapshot.census.rows
    counts = {outcome.value: snapshot.census.count(outcome) for outcome in Outcome}
    return {"accounted for": len(rows), "unaccounted for": 0, **counts}


def _document(snapshot: Snapshot, doc: Document) -> dict:
    tax = snapshot.taxonomy
    state = doc.text_of(tax.facet_for_role("state"))
    return {"path": doc.path, "kind": doc.kind, "id": doc.id, "name": doc.text_of(tax.facet_for_role("name")),
            "purpose": tax.purpose_of(doc.kind or ""), "summary": doc.text_of(tax.facet_for_role("scent")),
            "state": state, "terminal": tax.is_terminal(state) if state else None, "warrant": doc.warrant,
            "digest": doc.digest, "facets": to_plain(doc.front)}


def _edge(edge: Edge, governs: str) -> dict:
    """The relation's family rides along so a harvest can tell succession (a successor read before
    what it superseded) from other governance without this corpus's taxonomy."""
    return {"source": edge.source, "relation": edge.relation.name, "family": edge.relation.family,
            "written_as": edge.written_as, "governs": governs, "target": _target(edge.target)}


def _target(target: Target) -> dict:
    if target.bound is Bound.ANCHOR and target.anchor is not None:
        anchor = target.anchor
        return {"bound": "anchor", "anchor_kind": anchor.kind, "id": anchor.text,
                "patterns": list(anchor.patterns), "matched": list(anchor.matched)}
    if target.remote is not None:
        remote = target.remote
        return {"bound": "document", "id": target.raw, "corpus": remote.corpus, "path": remote.path,
                "kind": remote.kind}
    if target.bound is Bound.DOCUMENT:
        return {"bound": "document", "id": target.id, "path": target.path}
    return {"bound": "unbound", "id": target.raw, "reason": target.reason}


def _anchor_files(snapshot: Snapshot) -> list[dict]:
    """Every file an anchor of this corpus matched, with its content digest: what a harvest binds."""
    matched = {p for e in snapshot.graph.edges if e.target.bound is Bound.ANCHOR and e.target.anchor
               for p in e.target.anchor.matched}
    return _revisions(snapshot.tree, matched)


def _revisions(tree: SourceTree, paths) -> list[dict]:
    lines = {line for path in paths for line in tree.revision_lines(path)}
    pairs = sorted(line.rstrip("\n").split("\t", 1) for line in lines)
    return [{"path": path, "revision": revision} for path, revision in pairs]


def descriptor(snapshot: Snapshot, export_digest: str) -> dict:
    declaration, lock = snapshot.declaration, snapshot.lock
    return {
        formats.MARKER: formats.EXPORT,
        "descriptor_version": formats.DESCRIPTOR_VERSION,
        "corpora": [{
            "root": declaration.corpus_root,
            "excluded": [{"path": e.pattern, "reason": e.reason} for e in declaration.exclusions],
            "taxonomy": {"package": lock.package, "version": lock.version, "lock": lock.digest},
            "entry_points": _entry_points(snapshot),
            "exports": [{"output": formats.EXPORT_PATH, "digest": export_digest}],
        }],
    }


def _entry_points(snapshot: Snapshot) -> list[dict]:
    """One per shelf that holds a document: its index (`index.md`, `README.md`), else its first."""
    points = []
    for shelf in snapshot.taxonomy.shelves.values():
        held = [d for d in snapshot.census.documents if d.kind in shelf.carries and shelf.pattern.matches(d.path)]
        if not held:
            continue
        index = [d for d in held if d.path.rsplit("/", 1)[-1].lower() in ("index.md", "readme.md")]
        entry = (index or held)[0]
        points.append({"shelf": shelf.name, "path": entry.path, "id": entry.id})
    return points


def anchors_document(tree: SourceTree, patterns: tuple[str, ...]) -> dict:
    matched = {p for pattern in patterns for p in tree.matches(pattern)}
    return {formats.MARKER: formats.ANCHORS, "anchors_version": formats.ANCHORS_VERSION,
            "patterns": sorted(set(patterns)), "files": _revisions(tree, matched)}
