"""The paths a task names that the corpus expects governed and that nothing governs.

The governed scope is a claim the taxonomy makes about its own repository: the `scope`
patterns of each anchor kind (`anchors.<kind>.scope`). A taxonomy that declares none expects
nothing, so the list stays empty. The list never changes a route's pointers or its silence.
"""

from __future__ import annotations

from collections.abc import Callable

from headwater.frozen import frozen
from headwater.graph import Graph
from headwater.paths import OutsidePath, normalize
from headwater.patterns import compile_pattern
from headwater.reads.governing import governing_documents
from headwater.reads.route.ignored import ignored
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Taxonomy


@frozen
class Ungoverned:
    path: str
    relations: tuple[str, ...]  # declared relations that could govern it, in declaration order

    def as_json(self) -> dict:
        return {"path": self.path, "relations": list(self.relations)}


def scope_members(tax: Taxonomy) -> list[tuple[str, str]]:
    """(anchor kind, normalized pattern) for every declared scope pattern, in declaration order."""
    members = []
    for kind, raw in tax.anchors.items():
        scope = (raw or {}).get("scope") or []
        for written in scope if isinstance(scope, list) else [scope]:
            try:
                pattern = normalize(str(written))
            except OutsidePath:
                continue
            if pattern:
                members.append((kind, pattern))
    return members


def governing_relations(tax: Taxonomy, anchor_kinds: set[str]) -> tuple[str, ...]:
    return tuple(r.name for r in tax.relations.values()
                 if r.governing_end == "source" and anchor_kinds.intersection(r.targets))


def ungoverned(snapshot: Snapshot, task: str, path_of: Callable[[str], str | None],
               is_directory: Callable[[str], bool]) -> tuple[Ungoverned, ...]:
    tax, graph = snapshot.taxonomy, snapshot.graph
    members = scope_members(tax)
    if not members:
        return ()
    found: list[Ungoverned] = []
    for word in task.split():
        entry = _named(word, path_of, is_directory, graph, tax, members)
        if entry and entry.path not in {f.path for f in found}:
            found.append(entry)
    return tuple(f for f in found if not ignored(snapshot.root, f.path))


def _named(word: str, path_of: Callable[[str], str | None], is_directory: Callable[[str], bool],
           graph: Graph, tax: Taxonomy, members: list[tuple[str, str]]) -> Ungoverned | None:
    if "/" not in word:
        return None
    path = path_of(word)
    if path is None or is_directory(path):
        return None
    kinds = {kind for kind, pattern in members if compile_pattern(pattern).matches(path)}
    if not kinds or governing_documents(graph, tax, path):
        return None
    return Ungoverned(path, governing_relations(tax, kinds))
