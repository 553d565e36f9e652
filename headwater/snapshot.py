"""One snapshot per process: the lock, the declaration, the census, the graph, the date.

This is the only place the corpus is walked and parsed; every verb and every MCP tool reads
the snapshot it returns.
"""

from __future__ import annotations

import datetime as dt
import gc
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import field
from pathlib import Path
from typing import TypeVar

from headwater.corpus import census as census_module
from headwater.corpus.adoption_file import Task, read_tasks
from headwater.corpus.census import Census
from headwater.corpus.claims import Claims, read_claims
from headwater.corpus.derived import Derivation
from headwater.corpus.parses import CacheUse, ParseAccount, ParseStore
from headwater.corpus.tree import SourceTree
from headwater.federation.federated_tree import FederatedTree
from headwater.federation.pinned import Federation, read_federation
from headwater.frozen import frozen
from headwater.graph import Graph, build
from headwater.taxonomy.declaration import Declaration, read_declaration
from headwater.taxonomy.lock import Lock, read_lock
from headwater.taxonomy.model import Taxonomy

T = TypeVar("T")


@frozen
class Snapshot:
    """Everything one walk of the corpus read, which every verb and MCP tool reads."""

    root: Path
    declaration: Declaration
    lock: Lock
    census: Census
    graph: Graph
    tree: SourceTree
    today: dt.date
    federation: Federation = field(default_factory=Federation)
    parses: ParseStore | None = field(default=None, compare=False, repr=False)
    adoption: tuple[Task, ...] = ()  # `.headwater/adoption.yml`: findings held while adopting
    _derived: dict = field(default_factory=dict, compare=False, repr=False)
    # each scheme's claim store as the load read it (`claims`), where it did
    claims_read: Mapping[str, Claims] = field(default_factory=dict, compare=False, repr=False)
    # what the caller's `beside` gave (`load`), where the corpus's forked reader read it; else None
    read_beside: object = field(default=None, compare=False, repr=False)

    @property
    def taxonomy(self) -> Taxonomy:
        return self.lock.taxonomy

    def derived(self, name: str, build: Callable[[], T]) -> T:
        """A read model built from this snapshot once, on first use (e.g. route's term index),
        so a long-lived MCP session pays for it once, not per call."""
        if name not in self._derived:
            self._derived[name] = build()
        return self._derived[name]

    def claims(self, scheme: str) -> Claims:
        """(identifier, the path its claim records) for every entry of a scheme's claim store, by
        name: as the load's forked reader read it, else read now (a server's snapshot outlives its
        claims, and every run reads every claim)."""
        read = self.claims_read.get(scheme)
        return read if read is not None else read_claims(self.root, scheme)

    @property
    def parse_account(self) -> ParseAccount:
        """How many fronts and bodies this process parsed, and how many it reused from the cache."""
        return self.parses.account if self.parses else ParseAccount(0, 0, 0, 0)

    def save_parses(self) -> list[str]:
        """Write the parse cache back (only when loaded with `CacheUse.WRITE`): stderr lines, if any."""
        failure = self.parses.save() if self.parses else None
        return [failure] if failure else []


def load(root: Path, today: dt.date, cache: CacheUse = CacheUse.READ, spread: bool = False,
         derive: Callable[[Taxonomy], Derivation] | None = None,
         beside: Callable[[], object] | None = None) -> Snapshot:
    """`cache`: reads reuse parses an earlier `check` cached and never write; check passes
    `CacheUse.WRITE` (then `save_parses()` at its end), and `--no-cache` passes `CacheUse.OFF`.
    `spread`: parse what the cache lacks, bodies included, on every core (check reads every body),
    and read every claim beside the corpus. Any load whose fronts file is large reads the corpus in
    a forked reader while it rebuilds that file (`ParseStore.beside_the_fronts`).
    `derive`: what a writing run keeps beside each body for a reader (route's stem counts).
    `beside`: what the caller reads next that needs nothing the load makes (check's verdict
    cache), made by the corpus's forked reader where there is one (`Snapshot.read_beside`)."""
    declaration = read_declaration(root)
    lock = read_lock(root)
    with collector_paused():
        federation = read_federation(root, declaration.pins)
        parses = ParseStore(root, cache, spread, derive(lock.taxonomy) if derive is not None else None)
        census, read_beside = census_module.take(root, declaration.corpus_root, declaration.exclusions,
                                                 lock.taxonomy, parses, _beside(root, lock.taxonomy, parses, beside))
        tree = FederatedTree(root, declaration.exclusions, federation)
        graph = build(lock.taxonomy, census, tree, federation)
        claims_read, first, read_by_the_reader = read_beside()
        parses.saves_with(first)
    return Snapshot(root, declaration, lock, census, graph, tree, today, federation, parses, read_tasks(root),
                    claims_read=claims_read, read_beside=read_by_the_reader)


Beside = tuple[dict[str, Claims], bytes | None, object]


def _beside(root: Path, taxonomy: Taxonomy, parses: ParseStore, caller: Callable[[], object] | None
            ) -> Callable[[], Beside]:
    """What a run reads later that the corpus's forked reader (`ParseStore.beside_the_fronts`),
    its core idle once the corpus is read, reads then, while this process classifies and builds
    the graph: every claim store when the load spreads (check reads every claim; a server's
    snapshot outlives its claims, so it reads them when asked), what `save_parses` reads of the
    parse cache, and the caller's own (`load`'s `beside`). Nothing where this process read the
    corpus itself: each is read when asked."""
    loading = os.getpid()

    def beside() -> Beside:
        if os.getpid() == loading:
            return {}, None, None
        schemes = sorted(taxonomy.schemes) if parses.spread else []
        claims = {scheme: read_claims(root, scheme) for scheme in schemes}
        return claims, parses.ahead_of_save(), caller() if caller is not None else None

    return beside


@contextmanager
def collector_paused() -> Iterator[None]:
    """The load allocates millions of small objects that live as long as the process and hold
    no cycles (refcounting still frees them). The cyclic collector would rescan that heap again
    and again, during the load and after it (a third of the load, and ten times the cost of
    reusing cached bodies, at 10,000 documents); so it pauses, and the loaded objects are then
    frozen out of its sight. The parse cache's decode is inside: with the collector running,
    its cost grew faster than the corpus (at 100,000 documents, 7.4 s against 1.9 s). The
    runner judges under it too, for the same reason (`check.runner.run`)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()
