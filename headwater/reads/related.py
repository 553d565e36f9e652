"""`related`: a document's edges, outbound in graph order, then inbound from other documents."""

from __future__ import annotations

from dataclasses import dataclass

from headwater.corpus.census import Outcome
from headwater.errors import Refusal
from headwater.graph import Bound, Edge, Graph
from headwater.reads.answer import Answer
from headwater.reads.pointer import pointer, remote_pointer
from headwater.reads.target import find_row
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Taxonomy

GOVERNS_NOTE = {"source": " [this document governs the reading]",
                "target": " [that document governs the reading]", "neither": ""}


@dataclass(frozen=True)
class Neighbour:
    relation: str
    inbound: bool
    targets: tuple[str, ...]
    pointer: dict | None
    cue: str | None
    cue_is_declared: bool
    governs: str

    @property
    def target(self) -> str:
        return ", ".join(self.targets)

    def line(self) -> str:
        text = f"{'from' if self.inbound else 'to'} {self.target} {self.relation}"
        if self.cue:
            text += f": {self.cue}"
            text += "" if self.cue_is_declared else " (the target's own summary)"
        if self.pointer and self.pointer.get("harvested"):
            text += f" [harvested from {self.pointer['corpus']}]"
        return text + GOVERNS_NOTE[self.governs]

    def as_json(self) -> dict:
        out = {"relation": self.relation, "inbound": self.inbound, "target": self.target,
               "targets": list(self.targets), "pointer": self.pointer}
        if self.cue:
            out["cue"] = self.cue
            out["cue_is_declared"] = self.cue_is_declared
        out["governs"] = self.governs
        return out


def _flip(end: str) -> str:
    return {"source": "target", "target": "source"}.get(end, end)


def _targets(edge: Edge) -> tuple[str, ...]:
    if edge.target.anchor is not None and edge.target.bound is Bound.ANCHOR:
        return edge.target.anchor.patterns
    if edge.target.bound is Bound.DOCUMENT and edge.target.id:
        return (edge.target.id,)
    return tuple(p.strip() for p in edge.target.raw.split(",")) if edge.target.raw else ("",)


def neighbours(graph: Graph, tax: Taxonomy, path: str) -> list[Neighbour]:
    scent = tax.facet_for_role("scent")
    found = []
    for edge in graph.outbound.get(path, ()):
        bound = edge.target.bound is Bound.DOCUMENT
        far = graph.documents.get(edge.target.path or "") if bound else None
        remote = edge.target.remote
        declared = edge.attribute("cue")
        cue = declared or (far.text_of(scent) if far else remote.summary if remote else None)
        shape = pointer(far, tax) if far else remote_pointer(remote) if remote else None
        found.append(Neighbour(edge.written_as, False, _targets(edge), shape, cue, bool(declared),
                               tax.governs_reading(edge.relation, edge.inverse)))
    for edge in graph.inbound.get(path, ()):
        if edge.source == path:
            continue
        far = graph.documents[edge.source]
        relation = edge.relation
        if edge.inverse:
            name = relation.name
        else:
            symmetric = relation.reciprocal == "symmetric"
            name = relation.inverse or (relation.name if symmetric else f"{relation.name} of")
        cue = far.text_of(scent)
        found.append(Neighbour(name, True, (edge.source,), pointer(far, tax), cue, False,
                               _flip(tax.governs_reading(relation, edge.inverse))))
    return found


def no_edges_sentence(argument: str) -> str:
    return f"{argument} declares no relation, and none names it"


def related(snapshot: Snapshot, argument: str) -> Answer:
    """The MCP tool's answer for a path or an identifier: one line per edge, read as `explain`
    reads its argument, with the same refusals (`related` named as the verb)."""
    try:
        row = find_row(snapshot, argument, "related")
    except Refusal as refusal:
        return Answer(refusal.sentence + "\n", refused=True)
    if row.outcome is not Outcome.TYPED:
        return Answer(f"{argument} is not a document of this corpus\n", refused=True)
    found = neighbours(snapshot.graph, snapshot.taxonomy, row.path)
    structured = {"related": [n.as_json() for n in found]}
    if not found:
        return Answer(no_edges_sentence(argument) + "\n", structured)
    return Answer("".join(n.line() + "\n" for n in found), structured)
