"""`governing_docs_for_path`: the documents whose edges govern the reading of one path.

An edge counts when its relation puts the governing end at the source (custom governance
relations included, an inverse spelling flipped) and its target reaches the path: an anchor
when any of its patterns matches the path, a document target by equality. A literal anchor
governs only itself; `src/ingest/**` is how a directory's contents are governed.
"""

from __future__ import annotations

import os
from functools import cached_property
from itertools import accumulate
from pathlib import Path
from urllib.parse import unquote, urlsplit

from headwater.corpus.document import Document
from headwater.errors import Refusal
from headwater.federation.pinned import RemoteDocument, Unread
from headwater.frozen import frozen
from headwater.graph import Anchor, Bound, Edge, Graph
from headwater.paths import OutsidePath, relative_to_root
from headwater.patterns import Pattern, compile_pattern
from headwater.reads.route.state import remote_successors, successors
from headwater.reads.target import outside_sentence
from headwater.reads.terms import LOCATION
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Taxonomy


def reaches(edge: Edge, path: str) -> bool:
    """Whether the edge's target stands for the path (a lexical test: nothing is walked)."""
    target = edge.target
    if target.anchor is not None:
        return target.anchor.reaches(path)
    return target.bound is Bound.DOCUMENT and target.path == path


@frozen
class Targets:
    """What the edges' targets reach and name, gathered once per snapshot: a question about a
    path then costs the distinct anchors, not every edge."""

    documents: frozenset[str]
    anchors: tuple[Anchor, ...]
    named: frozenset[str]

    @staticmethod
    def of(graph: Graph) -> Targets:
        anchors = {e.target.anchor.key: e.target.anchor for e in graph.edges if e.target.anchor is not None}
        documents = {e.target.path for e in graph.edges if e.target.bound is Bound.DOCUMENT and e.target.path}
        named = {p for a in anchors.values() for p in (*a.patterns, *a.matched)}
        return Targets(frozenset(documents), tuple(anchors.values()), frozenset(named))

    @cached_property
    def _patterns(self) -> tuple[Pattern, ...]:
        """Every anchor's distinct patterns, compiled once per snapshot."""
        return tuple(compile_pattern(p) for p in dict.fromkeys(p for a in self.anchors for p in a.patterns))

    @cached_property
    def _by_prefix(self) -> dict[str, tuple[Pattern, ...]]:
        """The patterns by their literal prefix: only those whose prefix opens a path can match it."""
        grouped: dict[str, list[Pattern]] = {}
        for pattern in self._patterns:
            grouped.setdefault(pattern.literal_prefix, []).append(pattern)
        return {prefix: tuple(found) for prefix, found in grouped.items()}

    @cached_property
    def _deepest(self) -> int:
        """The most segments a literal prefix holds: no longer opening of a path is one."""
        return max((len(prefix.split("/")) for prefix in self._by_prefix if prefix), default=0)

    def reaches(self, path: str) -> bool:
        if path in self.documents:
            return True
        # only the openings a literal prefix could be are looked up, each built on the one before:
        # the work stays bounded by the deepest prefix, however many segments a task's word has
        names = path.split("/", self._deepest)[: self._deepest]
        openings = ("", *accumulate(names, lambda opening, name: f"{opening}/{name}"))
        return any(pattern.matches(path) for opening in openings for pattern in self._by_prefix.get(opening, ()))

    def names(self, path: str) -> bool:
        """The path itself is a target: a document, a literal pattern, or an entry an anchor
        matched in the tree (a surer reading than a wildcard's reach)."""
        return path in self.documents or path in self.named


def source_governs(edge: Edge, tax: Taxonomy) -> bool:
    return tax.governs_reading(edge.relation, edge.inverse) == "source"


def governing_documents(graph: Graph, tax: Taxonomy, path: str) -> list[Document]:
    """Sources of governing edges that reach the path, de-duplicated and sorted by path."""
    found = {edge.source for edge in graph.edges
             if source_governs(edge, tax) and reaches(edge, path)}
    return [graph.documents[source] for source in sorted(found)]


def governing_documents_naming(graph: Graph, tax: Taxonomy, identifier: str) -> list[Document]:
    """Sources of governing edges that write the identifier as their target, bound or not: what
    governs a document a change deleted, whose edges now bind nothing."""
    found = {edge.source for edge in graph.edges
             if source_governs(edge, tax) and edge.target.anchor is None and edge.target.text == identifier}
    return [graph.documents[source] for source in sorted(found)]


@frozen
class Governing:
    """`governing_docs_for_path`'s answer: this corpus's governing documents in path order, each
    terminal one with the live successor to read instead, then those of harvested corpora, each
    terminal one with its successor as its export states it; and the pins that bind nothing and
    could govern the path, so a miss is not read as "nothing governs it" when a pin is broken."""

    path: str
    taxonomy: Taxonomy
    documents: tuple[Document, ...]
    successors: dict[str, str]  # a document's path → its live successor's, for the terminal ones
    harvested: tuple[RemoteDocument, ...]
    harvested_successors: dict[tuple[str, str], tuple[str, str]]  # the same, keyed (corpus, path)
    unread: tuple[Unread, ...] = ()


EMPTY = "the path is empty: name a file or a directory by its path from the repository root"


def governing_docs_for_path(snapshot: Snapshot, argument: str) -> Governing:
    """The documents that govern a path; a `Refusal` for a path outside the repository, or for
    none at all (which would read as the root and answer "no document governs ", naming nothing)."""
    if not argument.strip():
        raise Refusal(EMPTY)
    try:
        path = relative_to_root(_the_file(argument, snapshot.root), snapshot.root)
    except OutsidePath:
        raise Refusal(outside_sentence(argument)) from None
    tax = snapshot.taxonomy
    documents = tuple(governing_documents(snapshot.graph, tax, path))
    after = snapshot.derived("route.successors", lambda: successors(snapshot.graph, tax))
    federation = snapshot.federation
    remote_after = snapshot.derived("route.remote_successors", lambda: remote_successors(federation))
    return Governing(path, tax, documents, {d.path: after[d.path] for d in documents if d.path in after},
                     tuple(federation.governors_of(path)), remote_after, federation.unread_governing(path))


def _the_file(argument: str, root: Path) -> str:
    """The path the argument names: a `file://` URI as its path, and a line in a file as the file,
    unless a file is there under the name as written."""
    text = argument.strip()
    if text.startswith("file://"):
        uri = urlsplit(text)
        text = unquote(uri.path) if uri.netloc in ("", "localhost") else text
    bare = LOCATION.sub("", text)
    return bare if bare and bare != text and not _there(text, root) else text


def _there(text: str, root: Path) -> bool:
    try:
        return os.path.lexists(root / relative_to_root(text, root))
    except OutsidePath:
        return False
