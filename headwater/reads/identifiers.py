"""`resolve_identifier`: the document an identifier names, by exact match and nothing looser.

A near miss is exact too: an untyped file that carries the very same identifier. Telling a
typo from an invention is left to the reader; no case, separator or edit-distance folding.
`<corpus>:<id>` names a document of a harvested corpus, answered as its pinned export states it.
"""

from __future__ import annotations

from headwater.reads.answer import Answer
from headwater.reads.pointer import pointer, pointer_line, remote_pointer, remote_pointer_line
from headwater.snapshot import Snapshot


def resolve_identifier(snapshot: Snapshot, identifier: str) -> Answer:
    if not identifier.strip():  # exact match only: a blank id would "resolve" to a silent miss
        return Answer("an identifier is a word such as ACME-DR-0001, and this one is blank\n",
                      {"pointers": []}, refused=True)
    graph, tax = snapshot.graph, snapshot.taxonomy
    document = graph.document_by_id(identifier)
    if document is not None:
        return Answer(pointer_line(document, tax) + "\n", {"pointers": [pointer(document, tax)]})
    remote = snapshot.federation.documents.get(identifier)  # `<corpus>:<id>`, from a pinned export
    if remote is not None:
        return Answer(remote_pointer_line(remote) + "\n", {"pointers": [remote_pointer(remote)]})
    carrier = graph.near_miss.get(identifier)
    if carrier is not None:
        return Answer(f"no typed document carries {identifier}; {carrier} carries it, untyped\n",
                      {"pointers": []})
    return Answer(f"no document carries {identifier}\n", {"pointers": []})
