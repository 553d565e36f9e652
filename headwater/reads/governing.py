"""`governing_docs_for_path`: the documents whose edges govern the reading of one path.

An edge counts when its relation puts the governing end at the source (custom governance
relations included, an inverse spelling flipped) and its target reaches the path: an anchor
when any of its patterns matches the path, a document target by equality. A literal anchor
governs only itself; `src/ingest/**` is how a directory's contents are governed.
"""

from __future__ import annotations

from headwater.corpus.document import Document
from headwater.graph import Bound, Edge, Graph
from headwater.paths import OutsidePath, relative_to_root
from headwater.reads.answer import Answer
from headwater.reads.pointer import pointer, pointer_line
from headwater.reads.target import outside_sentence
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Taxonomy


def reaches(edge: Edge, path: str) -> bool:
    """Whether the edge's target stands for the path (a lexical test: nothing is walked)."""
    target = edge.target
    if target.anchor is not None:
        return target.anchor.reaches(path)
    return target.bound is Bound.DOCUMENT and target.path == path


def names(edge: Edge, path: str) -> bool:
    """Whether the edge's target names the path itself: a document, a literal pattern, or an
    entry its anchor matched in the tree (a surer reading than a wildcard's reach)."""
    target = edge.target
    if target.anchor is not None:
        return path in target.anchor.patterns or path in target.anchor.matched
    return target.bound is Bound.DOCUMENT and target.path == path


def source_governs(edge: Edge, tax: Taxonomy) -> bool:
    return tax.governs_reading(edge.relation, edge.inverse) == "source"


def governing_documents(graph: Graph, tax: Taxonomy, path: str) -> list[Document]:
    """Sources of governing edges that reach the path, de-duplicated and sorted by path."""
    found = {edge.source for edge in graph.edges
             if source_governs(edge, tax) and reaches(edge, path)}
    return [graph.documents[source] for source in sorted(found)]


def no_governor_sentence(path: str) -> str:
    return f"no document governs {path}"


def governing_docs_for_path(snapshot: Snapshot, argument: str) -> Answer:
    """The MCP tool's answer: one pointer line per document, and `{"pointers": [...]}`."""
    try:
        path = relative_to_root(argument, snapshot.root)
    except OutsidePath:
        return Answer(outside_sentence(argument) + "\n", {"pointers": []}, refused=True)
    tax = snapshot.taxonomy
    documents = governing_documents(snapshot.graph, tax, path)
    structured = {"pointers": [pointer(d, tax) for d in documents]}
    if not documents:
        return Answer(no_governor_sentence(path) + "\n", structured)
    return Answer("".join(pointer_line(d, tax) + "\n" for d in documents), structured)
