"""One snapshot per process: the lock, the declaration, the census, the graph, the date.

This is the only place the corpus is walked and parsed; every verb and every MCP tool reads
the snapshot it returns.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from headwater.corpus import census as census_module
from headwater.corpus.census import Census
from headwater.corpus.tree import SourceTree
from headwater.graph import Graph, build
from headwater.taxonomy.declaration import Declaration, read_declaration
from headwater.taxonomy.lock import Lock, read_lock
from headwater.taxonomy.model import Taxonomy


@dataclass(frozen=True)
class Snapshot:
    root: Path
    declaration: Declaration
    lock: Lock
    census: Census
    graph: Graph
    tree: SourceTree
    today: dt.date

    @property
    def taxonomy(self) -> Taxonomy:
        return self.lock.taxonomy


def load(root: Path, today: dt.date) -> Snapshot:
    declaration = read_declaration(root)
    lock = read_lock(root)
    census = census_module.take(root, declaration.corpus_root, declaration.exclusions, lock.taxonomy)
    tree = SourceTree(root, declaration.exclusions)
    graph = build(lock.taxonomy, census, tree)
    return Snapshot(root, declaration, lock, census, graph, tree, today)
