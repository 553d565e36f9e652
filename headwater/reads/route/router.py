"""`route`: the documents that govern a task, each with the evidence that reached it, or silence.

The order of work: documents the task names by path or identifier, and those governing the
paths it names (identity, first, never cut by the budget); the task's
words through the one tokenizer (stop words out, Snowball stems); purposes matched as a prior;
every document ranked by field-weighted BM25 (`rank`); silence when the task as a whole is
not confident; the budget; state (a terminal document only beside its live successor); reading
precedence. A wrong pointer costs more than a missing one, so a route that is not confident is
silent and says why in one sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from enum import Enum
from functools import cache, partial

from headwater.check.suspect import is_suspect
from headwater.corpus.document import Document
from headwater.federation.pinned import Federation, Unread
from headwater.frozen import frozen
from headwater.graph import Bound, Graph
from headwater.paths import relative_to_root
from headwater.reads.governing import Targets, governing_documents, reaches, source_governs
from headwater.reads.identifiers import other_declarers
from headwater.reads.route.abstention import CONFIDENT
from headwater.reads.route.evidence import Evidence
from headwater.reads.route.harvested import HarvestedOffer, harvested_offers
from headwater.reads.route.index import RouteIndex
from headwater.reads.route.purposes import PurposeWords
from headwater.reads.route.rank import Folded, Scorer
from headwater.reads.route.scope import Ungoverned, ungoverned
from headwater.reads.route.state import (
    Anchored,
    Place,
    anchored_places,
    placed,
    remote_successors,
    successors,
    terminal_paths,
)
from headwater.reads.route.tokens import Tokenizer
from headwater.reads.route.turns import by_precedence
from headwater.reads.terms import read_path, readings, terms
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Taxonomy

# 1.2: the `no_documents` silence; 1.3: `named` documents, `suspect` on anchor evidence; 1.4: `unread_pins`
VERSION = "1.4"
DEFAULT_BUDGET = 5


class Silence(Enum):
    NO_TERMS = ("no_terms", "the task carries no word of two characters or more that is not a stop word")
    NO_DOCUMENT_REACHED = ("no_document_reached",
                           "no document holds a word of the task, so the route is silent")
    NOT_CONFIDENT = ("not_confident",
                     "no document matches enough of the task to be trusted, so the route is silent")
    NO_DOCUMENTS = ("no_documents",
                    "no file of the corpus is typed as a document yet, so the route is silent; `headwater adopt` "
                    "types the records already on a shelf")

    @property
    def reason(self) -> str:
        return self.value[0]

    @property
    def says(self) -> str:
        return self.value[1]


@frozen
class Offered:
    document: Document
    evidence: Evidence
    successor: str = ""  # a terminal document's live successor, offered beside it


@frozen
class Route:
    task: str
    terms: tuple[str, ...]
    anchors: tuple[str, ...]
    ungoverned: tuple[Ungoverned, ...]
    named: tuple[str, ...] = ()  # the paths and identifiers of documents the task names
    separating: tuple[str, ...] = ()
    distinctive: tuple[str, ...] = ()
    matched: tuple[tuple[str, int], ...] = ()
    pointers: tuple[Offered, ...] = ()
    withheld: int = 0
    silence: Silence | None = None
    harvested: tuple[HarvestedOffer, ...] = ()  # pointers into pinned corpora, after these
    unread: tuple[Unread, ...] = ()  # pins binding nothing that could govern a path the task names


@frozen
class Reader:
    """Everything route reads from one snapshot, built on the first call and kept."""

    scorer: Scorer
    purposes: PurposeWords
    served: tuple[str, ...]  # per index position, the purpose its kind serves ("" for none)
    successors: dict[str, str]  # terminal path → its live successor's path
    terminal: frozenset[str]  # the paths of documents in a terminal state

    @staticmethod
    def of(snapshot: Snapshot) -> Reader:
        index = RouteIndex.of(snapshot.census.documents, snapshot.taxonomy, snapshot.declaration.corpus_root)
        return Reader.over(snapshot, Folded.of(index.entries), index.tokenizer)  # the entries read once

    @staticmethod
    def over(snapshot: Snapshot, folded: Folded, tokenizer: Tokenizer, *, deferring: bool = False) -> Reader:
        """The reader of the census's documents, whose rows `folded` holds in census order;
        `deferring`, its scorer makes a stem's sums when a task first asks for it, until
        completed (`Scorer.deferring`)."""
        tax = snapshot.taxonomy
        scorer = (Scorer.deferring if deferring else Scorer.over)(folded, tokenizer)
        served = tuple(tax.purpose_of(d.kind or "") or "" for d in scorer.documents)
        after = snapshot.derived("route.successors", lambda: successors(snapshot.graph, tax))
        return Reader(scorer, PurposeWords.of(tax, tokenizer), served, after,
                      terminal_paths(scorer.documents, tax))


def route(snapshot: Snapshot, task: str, budget: int = DEFAULT_BUDGET, *,
          read_tree: bool = True) -> Route:
    """Route one task. `read_tree=False` reads a task's words as paths through the edges alone
    (the MCP server holds no tree)."""
    graph, tax = snapshot.graph, snapshot.taxonomy

    def in_tree(path: str) -> bool:
        return read_tree and snapshot.tree.exists(path)

    targets = snapshot.derived("route.targets", lambda: Targets.of(graph))
    known = (in_tree, targets.names, targets.reaches)
    # a word is read as a path the way the path verbs read one: an absolute path under the root is
    # its relative path, and one leaving the root (`..`, a symlink out) or too long to look up names
    # nothing here, so it is neither an anchor nor ungoverned. Each word is read once a task: a
    # reading looks its shapes up on disk, and anchors, named documents, pinned corpora ask it.
    read = cache(partial(readings, normal=partial(relative_to_root, root=snapshot.root)))

    @cache  # anchors and the ungoverned paths ask it of each word
    def path_of(word: str) -> str | None:
        return read_path(word, *known, read=read)

    def is_directory(path: str) -> bool:
        return read_tree and (snapshot.root / path).is_dir()

    anchors = _named_anchors(task, targets, path_of)
    named = _named_documents(task, graph, read)
    anchored = _anchored(snapshot, named, anchors,
                         snapshot.derived("route.successors", lambda: successors(graph, tax)))
    governed_elsewhere = snapshot.federation.governors_of  # a harvested governor governs it too
    remote_after = snapshot.derived("route.remote_successors", lambda: remote_successors(snapshot.federation))
    harvested = harvested_offers(snapshot.federation, task, read, remote_after)
    # `anchors` lists every path a pointer's anchor evidence names, a harvested edge's included
    reached = tuple(dict.fromkeys((*anchors, *(a for offer in harvested for a in offer.evidence.anchors))))
    base = Route(task, terms(task), reached,
                 tuple(u for u in ungoverned(snapshot, task, path_of, is_directory) if not governed_elsewhere(u.path)),
                 named=tuple(dict.fromkeys(named.values())), harvested=harvested,
                 unread=_unread_bearing(snapshot.federation, task, reached, read))
    if not snapshot.census.documents:  # a corpus set up and not yet adopted: say so, not "no word"
        return _settle(base, snapshot, anchored, Silence.NO_DOCUMENTS)
    reader = snapshot.derived("route.reader", lambda: Reader.of(snapshot))
    words = reader.scorer.tokenizer.task_words(base.terms)
    if not words:
        return _settle(base, snapshot, anchored, Silence.NO_TERMS)
    word_of = {stem: word for word, stem in words}
    stems = tuple(stem for _, stem in words)
    separating = reader.purposes.separating(stems)
    matched = reader.purposes.matched(separating)
    chosen = {name for name, _ in matched}
    ranking = reader.scorer.rank(stems, lambda position: reader.served[position] in chosen,
                                 reader.purposes.declared_by(chosen), confident=CONFIDENT)
    base = replace(base, separating=tuple(word_of[s] for s in separating), matched=matched,
                   distinctive=tuple(word_of[s] for s in ranking.reached))
    if not ranking.reached:
        return _settle(base, snapshot, anchored, Silence.NO_DOCUMENT_REACHED)
    if not ranking.hits:
        return _settle(base, snapshot, anchored, Silence.NOT_CONFIDENT)
    taken = {o.document.path for o in anchored}
    scorer = reader.scorer
    kept = [(scorer.documents[h.position].path, h) for h in ranking.hits]
    if taken:
        kept = [(path, h) for path, h in kept if path not in taken]
    rank_of = {path: (rank, h) for rank, (path, h) in enumerate(kept, start=1)}
    places, withheld = placed(list(rank_of), max(0, budget - len(anchored)), reader.successors,
                              reader.terminal, frozenset(taken))
    ranked = [_offer(place, rank_of, len(kept), stems, word_of, snapshot.graph.documents, scorer)
              for place in places]
    return replace(base, pointers=tuple(_ordered(snapshot, anchored)) + tuple(_ordered(snapshot, ranked)),
                   withheld=withheld)


def _offer(place: Place, rank_of: dict, of: int, stems: tuple[str, ...], word_of: dict[str, str],
           documents: dict[str, Document], scorer: Scorer) -> Offered:
    """The pointer for one placed path: the terms that reached it and their fields, and the
    terminal document it succeeds or the successor to read first."""
    if place.path not in rank_of:
        return Offered(documents[place.path], Evidence(succeeds=place.succeeds))
    rank, hit = rank_of[place.path]
    found = scorer.fields(hit.position, stems)
    evidence = Evidence(terms=tuple(word_of[stem] for stem, _ in found),
                        fields=tuple(fields for _, fields in found), rank=rank, of=of,
                        succeeds=place.succeeds)
    return Offered(scorer.document(hit), evidence, place.successor)


def _settle(base: Route, snapshot: Snapshot, anchored: list[Offered],
            silence: Silence) -> Route:
    """A branch that ends early: the anchored pointers in full, or silence when there are none."""
    if anchored or base.harvested:
        return replace(base, pointers=tuple(_ordered(snapshot, anchored)))
    return replace(base, silence=silence)


def _named_anchors(task: str, targets: Targets, path_of: Callable[[str], str | None]) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for word in dict.fromkeys(task.split()):  # a word said twice names one path: read it once
        path = path_of(word)
        if path and path not in found and targets.reaches(path):
            found[path] = None
    return tuple(found)


def _unread_bearing(federation: Federation, task: str, anchors: tuple[str, ...],
                    read: Callable[[str], tuple[str, ...]]) -> tuple[Unread, ...]:
    """The pins binding nothing that could govern a path the task names (an anchor it names, a
    word written as a path, or one spelled under such a pin's corpus), in declaration order: what
    they would bind is unknown, so the answer must say it is."""
    if not federation.unread:
        return ()
    named = list(anchors)
    for word in task.split():
        shapes = read(word) if "/" in word or federation.unread_naming(word) else ()
        named += shapes[:1]
    bearing = {u for path in named for u in federation.unread_governing(path)}
    return tuple(u for u in federation.unread if u in bearing)


def _named_documents(task: str, graph: Graph, read: Callable[[str], tuple[str, ...]]) -> dict[str, str]:
    """The documents the task names by path or by identifier, each path with the name it was
    read by: identity, as an anchor is. An identifier two documents declare names both."""
    found: dict[str, str] = {}
    for word in dict.fromkeys(task.split()):
        path = next((shape for shape in read(word) if shape in graph.documents), None)
        if path is not None:
            found.setdefault(path, path)
            continue
        identifier = next((shape for shape in readings(word, str) if shape in graph.ids), None)
        if identifier is not None:
            for declarer in (graph.ids[identifier], *other_declarers(graph, identifier)):
                found.setdefault(declarer, identifier)
    return found


def _anchored(snapshot: Snapshot, named: dict[str, str], anchors: tuple[str, ...],
              successor_of: dict[str, str]) -> list[Offered]:
    """The documents the task names, then those governing the paths it names, each terminal one
    with its live successor ahead of it, and each governor naming its edges to those paths whose
    target moved since they were verified."""
    graph, tax = snapshot.graph, snapshot.taxonomy
    governs: dict[str, list[str]] = {}
    for anchor in anchors:
        for document in governing_documents(graph, tax, anchor):
            governs.setdefault(document.path, []).append(anchor)
    suspect = _suspect(snapshot, governs) if governs else {}
    identity = {path: () for path in named} | {path: tuple(found) for path, found in governs.items()
                                               if path not in named}

    def evidence(place: Anchored[str]) -> Evidence:
        if place.key in named:
            return Evidence(named=named[place.key])
        return Evidence(anchors=place.anchors, succeeds=place.succeeds or "",
                        suspect=suspect.get(place.key, ()) if place.anchors else ())

    return [Offered(graph.documents[place.key], evidence(place), place.successor or "")
            for place in anchored_places(identity, successor_of)]


def _suspect(snapshot: Snapshot, governs: dict[str, list[str]]) -> dict[str, tuple[str, ...]]:
    """Per governing document, the targets (as written) of its governing edges that reach one of
    its named paths and that `relation.target.suspect` would report."""
    found: dict[str, tuple[str, ...]] = {}
    for source, named in governs.items():
        targets = dict.fromkeys(edge.target.text for edge in snapshot.graph.outbound.get(source, ())
                                if source_governs(edge, snapshot.taxonomy) and any(reaches(edge, p) for p in named)
                                and is_suspect(snapshot, edge))
        if targets:
            found[source] = tuple(targets)
    return found


def _ordered(snapshot: Snapshot, block: list[Offered]) -> list[Offered]:
    pairs = snapshot.derived("route.precedence", lambda: governance_pairs(snapshot.graph, snapshot.taxonomy))
    return by_precedence(block, lambda a, b: (a.document.path, b.document.path) in pairs)


def governance_pairs(graph: Graph, tax: Taxonomy) -> set[tuple[str, str]]:
    """(governing, governed) paths, from every document-target edge with a governing end."""
    pairs = set()
    for edge in graph.edges:
        if edge.target.bound is not Bound.DOCUMENT or not edge.target.path:
            continue
        end = tax.governs_reading(edge.relation, edge.inverse)
        if end == "source":
            pairs.add((edge.source, edge.target.path))
        elif end == "target":
            pairs.add((edge.target.path, edge.source))
    return pairs
