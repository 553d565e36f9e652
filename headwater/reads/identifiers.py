"""`resolve_identifier`: the document an identifier names, by exact match and nothing looser.

A near miss is exact too: an untyped file that carries the very same identifier. An identifier
two documents declare (`identifier.claimed_twice`) answers with both, and says so. A miss never
resolves to a guess; it asks about the identifiers documents carry that differ from it only
mechanically (case, or the scheme's number written another way: `kep-1287`, `ADR-3`), and no
edit distance. `<corpus>:<id>` names a document of a harvested corpus, answered as its pinned
export states it.
"""

from __future__ import annotations

import re

from headwater.corpus.document import Document
from headwater.errors import Refusal
from headwater.federation.pinned import RemoteDocument, Unread
from headwater.frozen import frozen
from headwater.graph import Graph, ProblemKind
from headwater.snapshot import Snapshot
from headwater.taxonomy.model import Taxonomy

VERSION = "1.1"  # of the `resolve --json` document's shape; 1.1: `near` on a miss
BLANK = "an identifier is a word such as ACME-DR-0001, and this one is blank"


@frozen
class Resolution:
    """`resolve_identifier`'s answer: at most one of a document, a harvested document, or the
    untyped file that carries the identifier (its `carrier`); none of them is a miss."""

    identifier: str
    taxonomy: Taxonomy
    document: Document | None = None
    remote: RemoteDocument | None = None
    carrier: str | None = None
    others: tuple[Document, ...] = ()  # the other typed documents that declare it too (a duplicate)
    unread: tuple[Unread, ...] = ()  # on a miss, the pin binding nothing whose corpus the identifier names
    near: tuple[str, ...] = ()  # on a miss, the identifiers it misses only mechanically (`near_identifiers`)


def other_declarers(graph: Graph, identifier: str) -> tuple[str, ...]:
    """The paths of the documents that declare `identifier` beside the one the graph binds it to
    (the first, by no merit): empty unless the identifier is claimed twice."""
    bound = graph.ids.get(identifier)
    return tuple(p.path for p in graph.problems if p.kind is ProblemKind.DUPLICATE_ID
                 and p.subject == identifier and p.path != bound)


def resolve_identifier(snapshot: Snapshot, identifier: str) -> Resolution:
    # blanks around it are no part of an identifier (an id is one word), as `explain` reads one;
    # a miss echoing them would also break its one-line answer
    identifier = identifier.strip()
    if not identifier:  # exact match only: a blank id would "resolve" to a silent miss
        raise Refusal(BLANK)
    graph, tax = snapshot.graph, snapshot.taxonomy
    document = graph.document_by_id(identifier)
    if document is not None:
        others = tuple(graph.documents[path] for path in other_declarers(graph, identifier))
        return Resolution(identifier, tax, document=document, others=others)
    remote = snapshot.federation.documents.get(identifier)  # `<corpus>:<id>`, from a pinned export
    if remote is not None:
        return Resolution(identifier, tax, remote=remote)
    carrier = graph.near_miss.get(identifier)
    return Resolution(identifier, tax, carrier=carrier, unread=snapshot.federation.unread_naming(identifier),
                      near=near_identifiers(graph, tax, identifier) if carrier is None else ())


_NUMBER = re.compile(r"\d+")
_SEPARATORS = re.compile(r"[\d\s_.-]+")


def near_identifiers(graph: Graph, taxonomy: Taxonomy, text: str) -> tuple[str, ...]:
    """The identifiers documents carry that `text` differs from only mechanically: in case
    (`kep-1287`), or, for a scheme numbered by sequence alone, in how its one number and the
    letters around it are written (`ADR-3`, `adr0003`, `3` → `ADR-0003`). A question for the
    reader, never an answer: the miss stands."""
    near = {known for known in graph.ids if known.casefold() == text.casefold()}
    numbers = _NUMBER.findall(text)
    letters = _SEPARATORS.sub("", text).casefold()
    # a number with more digits than any carried identifier has characters mints none of them
    # (and Python's `int` refuses a string past 4,300 digits)
    readable = len(numbers) == 1 and len(numbers[0].lstrip("0")) <= max(map(len, graph.ids), default=0)
    for scheme in taxonomy.schemes.values() if readable else ():
        if "{seq" not in scheme.pattern or "{slug" in scheme.pattern:
            continue  # a slug is no number to read, and a scheme with no sequence has none
        candidate = scheme.mint(int(numbers[0]))
        if candidate in graph.ids and letters in ("", _SEPARATORS.sub("", candidate).casefold()):
            near.add(candidate)
    near.discard(text)
    return tuple(sorted(near))
