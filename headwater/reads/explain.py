"""`explain`: what a file is, how its kind was derived, what is required of it, its edges."""

from __future__ import annotations

import textwrap

from headwater.corpus.census import Outcome, Row
from headwater.errors import Refusal
from headwater.jsonout import dumps
from headwater.reads.answer import Answer
from headwater.reads.related import neighbours
from headwater.reads.target import find_row
from headwater.snapshot import Snapshot
from headwater.textsafe import visible

VERSION = "1.0"


def explanation(snapshot: Snapshot, row: Row) -> dict:
    tax = snapshot.taxonomy
    doc = row.document
    typed = row.outcome is Outcome.TYPED and doc is not None and row.kind is not None
    derivation = list(row.derivation)
    if not typed:
        derivation.append(row.reason)
    out: dict = {"version": VERSION, "path": row.path, "id": doc.id if doc else None}
    out["kind"] = row.kind if typed else None
    out["derivation"] = derivation
    if not typed:
        return out | {"facets": [], "sections": [], "permitted": [], "related": []}
    kind = row.kind
    purpose = tax.purpose_of(kind)
    intent = (tax.purposes.get(purpose or "") or {}).get("intent")
    out["purpose"] = {"name": purpose, "intent": intent} if purpose else None
    out["summary"] = doc.text_of(tax.facet_for_role("scent"))
    out["warrant"] = doc.warrant.strip() if doc.warrant and doc.warrant.strip() else None
    out["facets"] = tax.required_facets(kind)
    out["sections"] = tax.required_sections(kind)
    out["permitted"] = [{"relation": p.written_as, "to": list(p.far_kinds),
                         "inverse": p.relation.name if p.inverse else p.relation.inverse}
                        for p in tax.permitted(kind)]
    out["related"] = [n.as_json() for n in neighbours(snapshot.graph, tax, row.path)]
    return out


def render_json(snapshot: Snapshot, row: Row) -> str:
    return dumps(explanation(snapshot, row))


def _fold(line: str, indent: int, width: int = 80) -> list[str]:
    return textwrap.wrap(line, width, initial_indent=" " * indent, subsequent_indent=" " * (indent + 2),
                         break_on_hyphens=False, break_long_words=False) or [" " * indent]


def render_text(snapshot: Snapshot, row: Row) -> str:
    """The explanation as text, control characters in its values shown escaped."""
    return "".join(visible(line) + "\n" for line in _text_lines(snapshot, row))


def _text_lines(snapshot: Snapshot, row: Row) -> list[str]:
    shape = explanation(snapshot, row)
    lines = [row.path]
    if shape.get("id"):
        lines.append(f"  {shape['id']}")
    if shape.get("kind") is None:
        lines += _fold("no kind, so nothing is required of it", 2)
        for step in shape["derivation"]:
            lines += _fold(step, 4)
        return lines
    lines.append(f"  kind {shape['kind']}")
    for step in shape["derivation"]:
        lines += _fold(step, 4)
    purpose = shape.get("purpose")
    if purpose:
        lines += _fold(f"purpose {purpose['name']}" + (f", to {purpose['intent']}" if purpose.get("intent") else ""), 2)
    if shape.get("summary"):
        lines += _fold(f"summary {shape['summary']}", 2)
    if shape.get("warrant"):
        lines.append(f"  warrant {shape['warrant']}")
    if shape["facets"]:
        lines += _fold("requires the facets " + ", ".join(shape["facets"]), 2)
    if shape["sections"]:
        lines += _fold("requires the sections " + ", ".join(shape["sections"]), 2)
    for permitted in shape["permitted"]:
        line = f"may declare {permitted['relation']} to {', '.join(permitted['to'])}"
        if permitted.get("inverse"):
            line += f", and the other end writes {permitted['inverse']}"
        lines += _fold(line, 2)
    for neighbour in neighbours(snapshot.graph, snapshot.taxonomy, row.path):
        lines += _fold(neighbour.line(), 2)
    return lines


def explain_answer(snapshot: Snapshot, argument: str) -> Answer:
    """The MCP tool's answer: the explanation, or the refusal sentence as a normal answer."""
    try:
        row = find_row(snapshot, argument, "explain")
    except Refusal as refusal:
        return Answer(refusal.sentence + "\n", refused=True)
    return Answer(render_text(snapshot, row))
