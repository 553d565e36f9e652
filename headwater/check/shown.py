"""What a report shows of the snapshot it was judged from, so a replayed run renders without one."""

from __future__ import annotations

from collections import Counter
from operator import attrgetter
from typing import TYPE_CHECKING

from headwater.frozen import frozen

if TYPE_CHECKING:
    from headwater.snapshot import Snapshot


@frozen
class Shown:
    """The census and graph counts, each row that is not a typed document, and each document's
    identifier (SARIF's fingerprints read it): all a renderer reads besides the report."""

    census_root: str
    files: int
    outcomes: tuple[tuple[str, int], ...]  # (outcome, rows) in the report's order, none empty
    kinds: tuple[tuple[str, int], ...]  # (kind, typed documents), sorted by kind
    listed: tuple[tuple[str, str, str], ...]  # (path, label, reason) of each row not typed, in path order
    documents: int
    anchors: int
    edges: int
    unbound: int
    identity: tuple[tuple[str, str], ...]  # (path, id) of each typed document that carries one
    pins: int = 0  # the `harvests` and `imports` the declaration names: what a run judges besides documents

    @classmethod
    def of(cls, snapshot: Snapshot) -> Shown:
        from headwater.corpus.census import Outcome

        census, graph = snapshot.census, snapshot.graph
        order = (Outcome.TYPED, Outcome.UNTYPED, Outcome.UNREADABLE, Outcome.NOT_A_DOCUMENT,
                 Outcome.EXCLUDED, Outcome.UNWALKABLE)
        counts = Counter(map(attrgetter("outcome"), census.rows))  # counted in C: a row each
        kinds = Counter(map(attrgetter("kind"), census.documents))
        return cls(
            census_root=census.root, files=len(census.rows),
            outcomes=tuple((o.value, counts[o]) for o in order if counts[o]),
            kinds=tuple(sorted(kinds.items())),
            listed=tuple((r.path, r.label, r.reason) for r in census.rows if r.outcome is not Outcome.TYPED),
            documents=len(graph.documents), anchors=len(graph.anchors), edges=len(graph.edges),
            unbound=len(graph.unbound),
            identity=tuple((doc.path, doc.id) for doc in census.documents if doc.id),
            pins=len(snapshot.declaration.pins))
