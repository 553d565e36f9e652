"""The pointer: how every read names a document — never its body, never a heading in it."""

from __future__ import annotations

from headwater.corpus.document import Document
from headwater.federation.pinned import RemoteDocument
from headwater.taxonomy.model import Taxonomy

ASSERTED = "[asserted: nobody accepted this document]"


def pointer(doc: Document, tax: Taxonomy) -> dict:
    """The JSON pointer; absent values are absent members, `unwarranted` always present."""
    return {
        "path": doc.path,
        "kind": doc.kind,
        "id": doc.id,
        "name": doc.text_of(tax.facet_for_role("name")),
        "purpose": tax.purpose_of(doc.kind) if doc.kind else None,
        "summary": doc.text_of(tax.facet_for_role("scent")),
        "state": doc.text_of(tax.facet_for_role("state")),
        "unwarranted": doc.warrant == "asserted",
    }


def pointer_line(doc: Document, tax: Taxonomy) -> str:
    """`path (name) — summary [asserted: …] [superseded]`: the only read line that carries an em
    dash; a terminal lifecycle state is named, a live one goes without saying."""
    shape = pointer(doc, tax)
    line = shape["path"]
    if shape.get("name"):
        line += f" ({shape['name']})"
    if shape.get("summary"):
        line += f" — {shape['summary']}"
    if shape["unwarranted"]:
        line += f" {ASSERTED}"
    if tax.is_terminal(shape.get("state")):
        line += f" [{shape['state']}]"
    return line


def remote_pointer(doc: RemoteDocument) -> dict:
    """A document of a harvested corpus, as its pinned export states it, marked with that corpus."""
    return {"path": doc.path, "kind": doc.kind, "id": doc.id, "name": doc.name, "purpose": doc.purpose,
            "summary": doc.summary, "state": doc.state,
            "unwarranted": doc.warrant == "asserted", "harvested": True, "corpus": doc.corpus}


def remote_pointer_line(doc: RemoteDocument) -> str:
    """`<corpus>:path (name) — summary [harvested from <corpus>]`."""
    line = f"{doc.corpus}:{doc.path}"
    if doc.name:
        line += f" ({doc.name})"
    if doc.summary:
        line += f" — {doc.summary}"
    if doc.warrant == "asserted":
        line += f" {ASSERTED}"
    if doc.terminal:
        line += f" [{doc.state}]"
    return line + f" [harvested from {doc.corpus}]"
