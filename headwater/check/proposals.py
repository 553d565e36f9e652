"""Identifiers proposed for documents that lack one: distinct, and the file's own number first.

A record named `0007-use-postgres.md` on a shelf laid out `{seq:04d}-{slug}.md` is proposed the
identifier with sequence 7 when nobody carries or claimed it; else an identifier whose claim names
the document and which no document carries; every other document without an identifier takes the
next free sequence, in path order, so no two are told to add the same one.
"""

from __future__ import annotations

from headwater.corpus.census import Classifier
from headwater.corpus.claims import read_claims
from headwater.corpus.document import Document
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Scheme
from headwater.writes.minting import has_sequence, highest_sequence
from headwater.writes.placement import named_slug, own_number, slug
from headwater.yaml.nodes import Scalar


def proposed_identifiers(snapshot: Snapshot) -> dict[str, str]:
    """Path → the identifier proposed for each typed document whose kind's scheme it lacks."""
    taxonomy = snapshot.taxonomy
    lacking: dict[str, list[Document]] = {}
    schemes = {kind: taxonomy.scheme_of(kind) for kind in {doc.kind for doc in snapshot.census.documents}}
    for doc in snapshot.census.documents:  # every run asks of every document; its kind's scheme once
        scheme = schemes[doc.kind]
        if scheme is not None and _lacks_identifier(doc):
            lacking.setdefault(scheme.name, []).append(doc)
    proposed: dict[str, str] = {}
    classifier = Classifier(taxonomy)
    for name, docs in sorted(lacking.items()):
        proposed.update(propose(snapshot, classifier, taxonomy.schemes[name], sorted(d.path for d in docs)))
    return proposed


def _lacks_identifier(doc: Document) -> bool:
    if doc.id is not None:  # kept on the document: most carry one, and a carried one is a scalar's text
        return False
    node = doc.id_node
    return node is None or (isinstance(node, Scalar) and not node.text.strip())


def propose(snapshot: Snapshot, classifier: Classifier, scheme: Scheme, paths: list[str]) -> dict[str, str]:
    """Path → a distinct identifier of `scheme` for each of `paths` (in order), none already spent."""
    claims = {name: holder for name, holder in read_claims(snapshot.root, scheme.name) if not name.startswith(".")}
    unheld = {name: holder for name, holder in claims.items() if name not in snapshot.graph.ids}
    # a claim naming this very file that no document carries was minted for it (by `new` and the id
    # later lost, or by an `adopt` or `--fix` killed before the file took it): the file's own
    minted_for: dict[str, str] = {}
    for name, holder in sorted(unheld.items()):
        if holder is not None and scheme.regex.match(name):
            minted_for.setdefault(holder, name)
    taken = set(snapshot.graph.ids) | set(claims)
    out: dict[str, str] = {}
    for path in paths:
        candidate = own_identifier(classifier, scheme, path)
        if candidate is None or (candidate in taken and unheld.get(candidate) != path) \
                or not scheme.regex.match(candidate):
            candidate = minted_for.get(path)
        if candidate is not None:
            out[path] = candidate
            taken.add(candidate)
    sequence = highest_sequence(scheme, taken)
    for path in paths:
        if path in out or not has_sequence(scheme):  # without `{seq}` only the slug can differ
            continue
        while True:
            sequence += 1
            candidate = scheme.mint(sequence, _slug_of(path))
            if candidate not in taken:
                break
        out[path] = candidate
        taken.add(candidate)
    return out


def own_identifier(classifier: Classifier, scheme: Scheme, path: str) -> str | None:
    """The identifier the number in the file's own name makes under `scheme`, when it has one; for
    a scheme without `{seq}`, the one the file's whole name makes (`placement.named_slug`)."""
    if not has_sequence(scheme):
        named = next(filter(None, (named_slug(s.layout, path) for s in classifier.matching_shelves(path))), None)
        return scheme.mint(0, named) if named else None
    own = own_number(classifier.matching_shelves(path), path)
    return scheme.mint(own, _slug_of(path)) if own is not None else None


def _slug_of(path: str) -> str:
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    return slug(stem.lstrip("0123456789-")) or slug(stem) or "document"
