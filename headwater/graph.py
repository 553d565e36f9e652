"""The corpus graph: documents and anchors as nodes, typed relation edges, the identifier index.

Built once per process from the census, in path order, so every traversal is deterministic.
The dataclasses are the truth; the networkx MultiDiGraph is an index over them, built on first
use. Building decides identity only: legality and severity are `check`'s business, so problems
are recorded here with their position and turned into findings there.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import field
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING

from headwater.corpus.census import Census
from headwater.corpus.document import Document
from headwater.corpus.tree import SourceTree
from headwater.federation.pinned import Federation, RemoteDocument
from headwater.frozen import frozen
from headwater.paths import OutsidePath, normalize
from headwater.patterns import opening_wildcard
from headwater.taxonomy.model import Relation, Taxonomy
from headwater.yaml.nodes import Map, Node, Scalar, Seq

if TYPE_CHECKING:
    import networkx


class Bound(Enum):
    DOCUMENT = "document"
    ANCHOR = "anchor"
    UNBOUND = "unbound"


class ProblemKind(Enum):
    RELATIONS_NOT_A_MAPPING = "relations_not_a_mapping"
    UNKNOWN_RELATION = "unknown_relation"
    ENTRY_WITHOUT_TO = "entry_without_to"
    DUPLICATE_TARGET = "duplicate_target"
    LIST_TARGET = "list_target"  # a list where only a document (one identifier) can stand
    DUPLICATE_ID = "duplicate_id"
    ID_NOT_A_SCALAR = "id_not_a_scalar"


@frozen
class Problem:
    """A relation or identifier the graph could not bind, where it was written and why."""

    kind: ProblemKind
    path: str
    line: int
    column: int
    subject: str  # the key, id or target the problem is about
    message: str


@frozen
class Anchor:
    """The repository paths a set of patterns names, matched once per snapshot."""

    kind: str
    patterns: tuple[str, ...]  # normalized and sorted: the anchor's identity
    matched: tuple[str, ...]

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        return (self.kind, self.patterns)

    @property
    def text(self) -> str:
        return ", ".join(self.patterns)

    def reaches(self, path: str) -> bool:
        from headwater.patterns import compile_pattern

        return any(compile_pattern(p).matches(path) for p in self.patterns)


@frozen
class Target:
    """What a relation entry binds to: a document, an anchor, or nothing (and why)."""

    bound: Bound
    raw: str
    path: str | None = None  # the document's path, when bound to a document
    id: str | None = None
    anchor: Anchor | None = None
    reason: str = ""
    remote: RemoteDocument | None = None  # a document of a harvested corpus (`<corpus>:<id>`)

    @property
    def text(self) -> str:
        if self.anchor is not None:
            return self.anchor.text
        return self.id or self.raw


@frozen
class Edge:
    """One typed relation from a document to its target, as written in its front matter."""

    source: str
    relation: Relation
    written_as: str
    inverse: bool  # written under the relation's inverse name
    target: Target
    attributes: tuple[tuple[str, Scalar], ...]
    line: int
    column: int

    def attribute(self, name: str) -> str | None:
        for key, value in self.attributes:
            if key == name:
                return value.text
        return None


@frozen
class Graph:
    """Every edge of one snapshot, the identifiers they bind by, and what failed to bind."""

    census: Census
    edges: tuple[Edge, ...]
    ids: dict[str, str]  # identifier → path of the typed document carrying it (first by path)
    near_miss: dict[str, str]  # identifier → path of an untyped file carrying it
    problems: tuple[Problem, ...]
    anchors: dict[tuple[str, tuple[str, ...]], Anchor] = field(default_factory=dict)

    @cached_property
    def documents(self) -> dict[str, Document]:
        return {d.path: d for d in self.census.documents}

    @cached_property
    def outbound(self) -> dict[str, tuple[Edge, ...]]:
        grouped: dict[str, list[Edge]] = defaultdict(list)
        for edge in self.edges:
            grouped[edge.source].append(edge)
        return {k: tuple(v) for k, v in grouped.items()}

    @cached_property
    def inbound(self) -> dict[str, tuple[Edge, ...]]:
        grouped: dict[str, list[Edge]] = defaultdict(list)
        for edge in self.edges:
            if edge.target.bound is Bound.DOCUMENT and edge.target.path:
                grouped[edge.target.path].append(edge)
        return {k: tuple(v) for k, v in grouped.items()}

    @property
    def unbound(self) -> tuple[Edge, ...]:
        return tuple(e for e in self.edges if e.target.bound is Bound.UNBOUND)

    def document_by_id(self, identifier: str) -> Document | None:
        return self.documents[self.ids[identifier]] if identifier in self.ids else None

    @cached_property
    def nx(self) -> networkx.MultiDiGraph:
        import networkx

        graph = networkx.MultiDiGraph()
        for document in self.census.documents:
            graph.add_node(document.path, type="document", kind=document.kind, id=document.id)
        for anchor in self.anchors.values():
            graph.add_node(anchor.key, type="anchor", kind=anchor.kind, matched=anchor.matched)
        for index, edge in enumerate(self.edges):
            if edge.target.bound is Bound.DOCUMENT and edge.target.path:
                graph.add_edge(edge.source, edge.target.path, key=index, edge=edge)
            elif edge.target.bound is Bound.ANCHOR and edge.target.anchor:
                graph.add_edge(edge.source, edge.target.anchor.key, key=index, edge=edge)
        return graph


@frozen(slots=True)
class Spelling:
    """A relation as one name writes it, and what binding its entries needs: the kinds at the far
    end that are anchors and those that are documents."""

    relation: Relation
    written: str
    inverse: bool
    identity: str  # the relation's name, with `~` when written as its inverse: a duplicate's key
    far_anchors: tuple[str, ...]
    far_kinds: tuple[str, ...]


def build(taxonomy: Taxonomy, census: Census, tree: SourceTree, federation: Federation) -> Graph:
    builder = _Builder(taxonomy, census, tree, federation)
    builder.index()
    for document in census.documents:
        builder.edges_of(document)
    return Graph(census, tuple(builder.edges), builder.ids, builder.near_miss,
                 tuple(builder.problems), builder.anchors)


class _Builder:
    def __init__(self, taxonomy: Taxonomy, census: Census, tree: SourceTree, federation: Federation) -> None:
        self.taxonomy = taxonomy
        self.federation = federation
        self.census = census
        self.tree = tree
        self.edges: list[Edge] = []
        self.ids: dict[str, str] = {}
        self.near_miss: dict[str, str] = {}
        self.problems: list[Problem] = []
        self.anchors: dict[tuple[str, tuple[str, ...]], Anchor] = {}
        self.paths_with_ids: dict[str, str] = {}
        self.spellings: dict[str, Spelling | None] = {}  # by the name written under `relations:`
        self.keyed = tuple(self.spelling(key, relation, inverse) for relation, key, inverse in taxonomy.relation_keys)

    def problem(self, kind: ProblemKind, doc: Document, node: Node, subject: str, message: str) -> None:
        self.problems.append(Problem(kind, doc.path, node.line, node.column, subject, message))

    # -- identity ------------------------------------------------------------------------

    def index(self) -> None:
        claimed: dict[str, list[tuple[Document, Scalar]]] = defaultdict(list)
        for document in self.census.documents:
            node = document.id_node
            if node is None:
                continue
            if not isinstance(node, Scalar):
                key = document.id_key
                self.problem(ProblemKind.ID_NOT_A_SCALAR, document, node, key, f"`{key}` is not a single value")
                continue
            if document.id:  # the scalar's text, stripped: kept on the document before any fork
                claimed[document.id].append((document, node))
        for identifier, holders in claimed.items():
            first = holders[0][0].path
            self.ids[identifier] = first
            self.paths_with_ids[first] = identifier
            if len(holders) > 1:
                for doc, node in holders:
                    others = ", ".join(d.path for d, _ in holders if d is not doc)
                    self.problem(ProblemKind.DUPLICATE_ID, doc, node, identifier,
                                 f"`{identifier}` is also declared by {others}")
        for document in self.census.parsed:
            if document.kind is None and document.id and document.id not in self.ids:
                self.near_miss.setdefault(document.id, document.path)

    # -- edges ---------------------------------------------------------------------------

    def edges_of(self, document: Document) -> None:
        seen: set[tuple[str, str]] = set()
        if self.keyed:
            self.keyed_edges(document, seen)
        block = document.relations
        if block is None:
            return
        if not isinstance(block, Map):
            self.problem(ProblemKind.RELATIONS_NOT_A_MAPPING, document, block, "relations",
                         "`relations:` must map relation names to targets")
            return
        spellings = self.spellings
        for key, value in block.entries:
            spelling = spellings[key.text] if key.text in spellings else self.spelled(key.text)
            if spelling is None:
                self.problem(ProblemKind.UNKNOWN_RELATION, document, key, key.text,
                             f"`{key.text}` is not a relation the taxonomy declares")
                continue
            for entry in value.items if type(value) is Seq else (value,):
                self.edge(document, spelling, entry, seen)

    def keyed_edges(self, document: Document, seen: set[tuple[str, str]]) -> None:
        """Relations written as top-level keys the taxonomy names (`requires: 2718, 2930`,
        `superseded-by: […]`), as a standards corpus writes them; a comma-separated scalar is a list."""
        for spelling in self.keyed:
            value = document.front.get(spelling.written)
            if value is None:
                continue
            for entry in _entries(value):
                for part in _split(entry):
                    self.edge(document, spelling, part, seen)

    def spelled(self, written: str) -> Spelling | None:
        """What a relation name under `relations:` needs to bind (None: no relation has that name),
        sorted out once per name."""
        named = self.taxonomy.relation_named(written)
        spelling = self.spellings[written] = self.spelling(written, *named) if named else None
        return spelling

    def spelling(self, written: str, relation: Relation, inverse: bool) -> Spelling:
        far = relation.sources if inverse else relation.targets
        return Spelling(relation, written, inverse, relation.name + ("~" if inverse else ""),
                        tuple(a for a in far if self.taxonomy.is_anchor_kind(a)),
                        tuple(k for k in far if k in self.taxonomy.kinds))

    def edge(self, doc: Document, spelling: Spelling, entry: Node, seen: set[tuple[str, str]]) -> None:
        target_node: Node | None = entry
        attributes: tuple[tuple[str, Scalar], ...] = ()
        if type(entry) is Map:
            target_node = entry.get("to")
            attributes = tuple([(k.text, v) for k, v in entry.entries if k.text != "to" and type(v) is Scalar])
            if target_node is None:
                self.problem(ProblemKind.ENTRY_WITHOUT_TO, doc, entry, spelling.written,
                             f"an entry under `{spelling.written}` has no `to`")
                return
        path = self.ids.get(target_node.text.strip()) if type(target_node) is Scalar else None
        if path is not None:  # most targets: one identifier a document carries
            raw = target_node.text.strip()
            target = Target(Bound.DOCUMENT, raw, path, raw)
        elif type(target_node) is Seq and not spelling.far_anchors:
            written = spelling.written
            self.problem(ProblemKind.LIST_TARGET, doc, target_node, written,
                         f"an entry under `{written}` is a list, and `{written}` reaches only documents, "
                         "each named by one identifier")
            return
        else:
            target = self.bind(spelling, target_node)
        identity = (spelling.identity, target.text)
        if identity in seen:
            self.problem(ProblemKind.DUPLICATE_TARGET, doc, entry, target.text,
                         f"`{spelling.written}` names `{target.text}` twice")
            return
        seen.add(identity)
        self.edges.append(Edge(doc.path, spelling.relation, spelling.written, spelling.inverse, target, attributes,
                               entry.line, entry.column))

    def bind(self, spelling: Spelling, node: Node) -> Target:
        far_anchors, far_kinds = spelling.far_anchors, spelling.far_kinds
        if isinstance(node, Seq):
            raws = [i.text for i in node.items if isinstance(i, Scalar)]
            if far_anchors and len(raws) == len(node.items) and raws:
                return self.anchor(far_anchors[0], raws)
            return Target(Bound.UNBOUND, ", ".join(raws), reason="a list whose every item must be a pattern")
        if not isinstance(node, Scalar) or not node.text.strip():
            return Target(Bound.UNBOUND, "", reason="an empty target names nothing")
        raw = node.text.strip()  # not an identifier a document carries: `edge` bound those
        if raw in self.federation.documents:
            return Target(Bound.DOCUMENT, raw, id=raw, remote=self.federation.documents[raw])
        if far_kinds and not far_anchors and ":" in raw:
            return Target(Bound.UNBOUND, raw, reason=self.missing_remote(raw))
        if far_kinds and raw in self.near_miss:
            return Target(Bound.UNBOUND, raw, reason=f"`{raw}` is carried by {self.near_miss[raw]}, which is untyped")
        if far_kinds and (self.shaped_like_id(raw) or not far_anchors):
            return Target(Bound.UNBOUND, raw, reason=self.missing_document(raw))
        return self.anchor(far_anchors[0], [raw])

    def shaped_like_id(self, raw: str) -> bool:
        return any(s.regex.match(raw) or (s.fixed_prefix and raw.startswith(s.fixed_prefix))
                   for s in self.taxonomy.schemes.values())

    def missing_document(self, raw: str) -> str:
        try:
            identifier = self.paths_with_ids.get(normalize(raw))
        except OutsidePath:
            identifier = None
        if identifier:
            return f"`{raw}` is a path; a document target is an identifier: write `{identifier}`"
        return f"no document carries `{raw}`"

    def missing_remote(self, raw: str) -> str:
        corpus, _, identifier = raw.partition(":")
        if corpus in self.federation.names:
            return f"the pinned export `{corpus}` carries no document `{identifier}`"
        if any(u.pin.name == corpus for u in self.federation.unread):
            return f"the pin `{corpus}` binds nothing, so `{identifier}` cannot be read there"
        return f"no document carries `{raw}`, and no harvest is named `{corpus}`"

    def anchor(self, kind: str, raws: list[str]) -> Target:
        text = ", ".join(raws)
        patterns = []
        for raw in raws:
            try:
                pattern = normalize(raw)
            except OutsidePath:
                return Target(Bound.UNBOUND, text, reason=f"`{raw}` climbs above the repository or is absolute")
            if not pattern:
                return Target(Bound.UNBOUND, text, reason="an empty anchor names nothing")
            if opening_wildcard(pattern):
                return Target(Bound.UNBOUND, text,
                              reason=f"`{raw}` opens with a wildcard, and no literal segment bounds the search")
            patterns.append(pattern)
        key = (kind, tuple(sorted(set(patterns))))
        anchor = self.anchors.get(key)
        if anchor is None:
            matched = tuple(sorted({m for p in key[1] for m in self.tree.matches(p)}))
            anchor = self.anchors[key] = Anchor(kind, key[1], matched)
        if not anchor.matched:
            return Target(Bound.UNBOUND, text, anchor=anchor,
                          reason=f"`{anchor.text}` matches nothing in the repository")
        return Target(Bound.ANCHOR, text, anchor=anchor)


def _split(entry: Node) -> tuple[Node, ...]:
    """`2718, 2930` → two scalars, each at its own column."""
    if not isinstance(entry, Scalar) or "," not in entry.text:
        return (entry,)
    parts, offset = [], 0
    for piece in entry.text.split(","):
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            parts.append(Scalar(piece.strip(), entry.line, entry.column + offset + lead))
        offset += len(piece) + 1
    return tuple(parts)


def _entries(value: Node) -> tuple[Node, ...]:
    if isinstance(value, Seq):
        return value.items
    return (value,)
