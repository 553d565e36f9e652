"""Reading the files the pins name: what each binds, or why it binds nothing.

A harvest binds the documents of another corpus's export (`<corpus>:<id>`), the files its
anchors matched (`<corpus>:<path>`, with the revision of each) and the edges by which its
documents govern those anchors. An import binds the files of another repository's anchors
snapshot. Nothing is merged: each pinned file stays its own small index, keyed by its name.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from dataclasses import field
from functools import cached_property
from pathlib import Path

from headwater.federation import formats
from headwater.frozen import frozen
from headwater.hashing import digest
from headwater.inplace import read_regular
from headwater.patterns import compile_pattern, is_wild
from headwater.taxonomy.pins import Family, Pin


class NotAnArtifact(ValueError):
    """The file parsed, but it is not the artifact the pin's family reads."""


class OtherVersion(NotAnArtifact):
    """The artifact the pin's family reads, in a version this headwater does not read."""

    def __init__(self, found: object, reads: str) -> None:
        super().__init__(found)
        self.found, self.reads = found, reads


@frozen(slots=True)
class RemoteDocument:
    corpus: str
    path: str
    kind: str
    id: str
    name: str | None
    purpose: str | None
    summary: str | None
    state: str | None
    terminal: bool  # as the exporting corpus's taxonomy reads its state
    warrant: str | None
    digest: str

    @property
    def reference(self) -> str:
        return f"{self.corpus}:{self.id}"


@frozen(slots=True)
class RemoteGoverning:
    """A harvested document governing an anchor, its patterns spelled as this repository reads them."""

    document: RemoteDocument
    relation: str
    patterns: tuple[str, ...]


@frozen(slots=True)
class RemoteLink:
    """An exported edge between two of the export's documents, one governing the other's reading."""

    governing: str  # the path of the document read first
    governed: str
    succession: bool  # the exporting taxonomy files the relation under succession


@frozen
class Pinned:
    pin: Pin
    files: dict[str, str]  # `<corpus>:<path>` → content digest (hex)
    documents: dict[str, RemoteDocument] = field(default_factory=dict)  # `<corpus>:<id>` → document
    governing: tuple[RemoteGoverning, ...] = ()
    links: tuple[RemoteLink, ...] = ()


@frozen
class Unread:
    pin: Pin
    reason: str

    def names(self, spelled: str) -> bool:
        """Whether a path, pattern or identifier is spelled under this pin's corpus (`<name>:…`)."""
        return spelled.startswith(self.pin.name + ":")


@frozen
class Federation:
    pinned: tuple[Pinned, ...] = ()
    unread: tuple[Unread, ...] = ()

    @cached_property
    def names(self) -> frozenset[str]:
        return frozenset(p.pin.name for p in self.pinned)

    @cached_property
    def documents(self) -> dict[str, RemoteDocument]:
        return {ref: doc for p in self.pinned for ref, doc in p.documents.items()}

    @cached_property
    def files(self) -> dict[str, str]:
        return {path: hexdigest for p in self.pinned for path, hexdigest in p.files.items()}

    @cached_property
    def governing(self) -> tuple[RemoteGoverning, ...]:
        return tuple(g for p in self.pinned for g in p.governing)

    @cached_property
    def at_path(self) -> dict[tuple[str, str], RemoteDocument]:
        """(corpus, path) → document: two corpora's documents stay apart however their ids agree."""
        return {(doc.corpus, doc.path): doc for p in self.pinned for doc in p.documents.values()}

    @cached_property
    def links(self) -> tuple[tuple[str, RemoteLink], ...]:
        """(corpus, link) for every exported document edge with a governing end."""
        return tuple((p.pin.name, link) for p in self.pinned for link in p.links)

    @cached_property
    def precedes(self) -> frozenset[tuple[tuple[str, str], tuple[str, str]]]:
        """((corpus, governing path), (corpus, governed path)): reading precedence within a corpus."""
        return frozenset(((corpus, link.governing), (corpus, link.governed)) for corpus, link in self.links)

    def files_of(self, name: str) -> dict[str, str]:
        """The listing the pin of that name binds (empty when it binds nothing)."""
        return next((p.files for p in self.pinned if p.pin.name == name), {})

    def corpus_of(self, path: str) -> str | None:
        """The pinned corpus a `<corpus>:<path>` spelling names, if it names one."""
        name, colon, _ = path.partition(":")
        return name if colon and name in self.names else None

    @cached_property
    def _governing_by_head(self) -> dict[str, tuple[tuple[str, str, RemoteDocument], ...]]:
        """(literal prefix, pattern, document) filed under the pattern's first segment ("" when
        that segment is wild): a question reads its own segment's entries, and compiles only the
        patterns whose literal prefix the path carries (an export holds thousands)."""
        index: dict[str, list[tuple[str, str, RemoteDocument]]] = defaultdict(list)
        for governing in self.governing:
            for pattern in governing.patterns:
                prefix = _literal_prefix(pattern)
                head = prefix.split("/", 1)[0] if "/" in prefix or prefix == pattern else ""
                index[head].append((prefix, pattern, governing.document))
        return {head: tuple(entries) for head, entries in index.items()}

    def governors_of(self, path: str) -> list[RemoteDocument]:
        """Harvested documents whose exported edges govern the path, sorted by corpus and path."""
        entries = (*self._governing_by_head.get(path.split("/", 1)[0], ()), *self._governing_by_head.get("", ()))
        found = {(doc.corpus, doc.path): doc for prefix, pattern, doc in entries
                 if path.startswith(prefix) and compile_pattern(pattern).matches(path)}
        return [found[key] for key in sorted(found)]

    def unread_in(self, family: Family) -> tuple[Unread, ...]:
        return tuple(u for u in self.unread if u.pin.family is family)

    def unread_naming(self, spelled: str) -> tuple[Unread, ...]:
        """The pins binding nothing whose corpus a path, pattern or identifier is spelled under."""
        return tuple(u for u in self.unread if u.names(spelled))

    def unread_governing(self, path: str) -> tuple[Unread, ...]:
        """The pins binding nothing that could change which documents govern the path: every
        harvest (an export unread could govern any path, and which ones cannot be known) and an
        import the path is spelled under (that repository's files are not known)."""
        return tuple(u for u in self.unread if u.pin.family is Family.HARVEST or u.names(path))


def _literal_prefix(pattern: str) -> str:
    """The segments before the first wild one, with their slash; the whole of a literal pattern."""
    segments = pattern.split("/")
    for index, segment in enumerate(segments):
        if is_wild(segment):
            return "".join(s + "/" for s in segments[:index])
    return pattern


def read_federation(root: Path, pins: tuple[Pin, ...]) -> Federation:
    """Each pin read on its own: one that binds nothing never stops another."""
    outcomes = [_read(root, pin, {p.name for p in pins}) for pin in pins]
    return Federation(tuple(o for o in outcomes if isinstance(o, Pinned)),
                      tuple(o for o in outcomes if isinstance(o, Unread)))


def _read(root: Path, pin: Pin, names: set[str]) -> Pinned | Unread:
    what = "export" if pin.family is Family.HARVEST else "anchors snapshot"
    if not pin.digest:
        return Unread(pin, "the pin has no `digest`, so nothing vouches for the file")
    try:
        data = read_regular(root / pin.at)
    except FileNotFoundError:
        return Unread(pin, f"{pin.at} is missing")
    except OSError as error:
        return Unread(pin, f"{pin.at} could not be read ({error.strerror or error})")
    found = digest(data)
    if found != pin.digest:
        return Unread(pin, f"{pin.at} hashes to {found}, not the pinned {pin.digest}")
    try:
        return _parse(pin, data, names)
    except OtherVersion as other:
        found = "no version" if other.found is None else f"version {json.dumps(other.found)}"
        return Unread(pin, f"{pin.at} is a headwater {what} of {found}, which this headwater does not read "
                           f"(it reads version \"{other.reads}\"); pin a copy written in that version")
    except SHAPES:
        return Unread(pin, f"{pin.at} is not a headwater {what} (`{_producer(pin)}` writes one)")


SHAPES = (ValueError, KeyError, TypeError, AttributeError, RecursionError)  # any shape but the artifact's


def _parse(pin: Pin, data: bytes, names: set[str]) -> Pinned:
    """The pinned file's bytes as what they bind; one of `SHAPES` for bytes of another shape."""
    document = json.loads(data.decode("utf-8"))
    if pin.family is Family.HARVEST:
        return _harvest(pin, document, names)
    return Pinned(pin, _files(pin.name, _expect(document, formats.ANCHORS, "anchors_version",
                                                formats.ANCHORS_VERSION)["files"]))


def listed_files(pin: Pin, data: bytes) -> dict[str, str]:
    """The `<corpus>:<path>` → revision listing of another version of a pin's file (the one a
    change replaced, which no digest vouches for now); empty when it is not the artifact."""
    try:
        return _parse(pin, data, {pin.name}).files
    except SHAPES:
        return {}


def _producer(pin: Pin) -> str:
    return formats.EXPORT if pin.family is Family.HARVEST else formats.ANCHORS + " <pattern>"


def _expect(document: dict, marker: str, version_key: str, version: str) -> dict:
    if not isinstance(document, dict) or document.get(formats.MARKER) != marker:
        raise NotAnArtifact(marker)
    if document.get(version_key) != version:
        raise OtherVersion(document.get(version_key), version)
    return document


def _text(entry: dict, key: str) -> str:
    value = entry[key]
    if not isinstance(value, str) or not value:
        raise NotAnArtifact(key)
    return value


def _shared(value: str | None) -> str | None:
    """One string object for a value thousands of documents repeat (a kind, a state)."""
    return sys.intern(value) if isinstance(value, str) else None


def _files(corpus: str, entries: list) -> dict[str, str]:
    return {f"{corpus}:{_text(e, 'path')}": _text(e, "revision") for e in entries}


def _harvest(pin: Pin, document: dict, names: set[str]) -> Pinned:
    graph = _expect(document, formats.EXPORT, "export_version", formats.EXPORT_VERSION)["graph"]
    by_path = {}
    for entry in graph["documents"]:
        if "id" not in entry:
            continue  # a document without an identifier cannot be named from here
        remote = RemoteDocument(pin.name, _text(entry, "path"), _shared(_text(entry, "kind")), _text(entry, "id"),
                                entry.get("name"), _shared(entry.get("purpose")), entry.get("summary"),
                                _shared(entry.get("state")), entry.get("terminal") == "true",
                                _shared(entry.get("warrant")), _text(entry, "digest"))
        by_path[remote.path] = remote
    governing, links = [], []
    for edge in graph["edges"]:
        target, source = edge["target"], by_path.get(_text(edge, "source"))
        if source is not None and target["bound"] == "anchor" and edge.get("governs") == "source":
            patterns = tuple(_spelled(p, pin, names) for p in target["patterns"])
            governing.append(RemoteGoverning(source, _text(edge, "relation"), patterns))
        link = _link(edge, source, by_path)
        if link is not None:
            links.append(link)
    return Pinned(pin, _files(pin.name, document["anchors"]),
                  {d.reference: d for d in by_path.values()}, tuple(governing), tuple(links))


def _link(edge: dict, source: RemoteDocument | None, by_path: dict[str, RemoteDocument]) -> RemoteLink | None:
    """The edge as a governing pair when it joins two documents of the export (an edge to another
    corpus's document names a path this export does not hold) and one end governs the reading."""
    target = edge["target"]
    if source is None or target["bound"] != "document" or "corpus" in target or target.get("path") not in by_path:
        return None
    succession = edge.get("family") == "succession"
    if edge.get("governs") == "source":
        return RemoteLink(source.path, target["path"], succession)
    if edge.get("governs") == "target":
        return RemoteLink(target["path"], source.path, succession)
    return None


def _spelled(pattern: str, pin: Pin, names: set[str]) -> str:
    """An anchor pattern of the exporting corpus as this repository writes it: its own paths
    under the harvest's name, a corpus it imported under that corpus's name (names are shared
    across an organization), and this repository's own paths (`here`) bare."""
    corpus, colon, rest = pattern.partition(":")
    if colon and pin.here and corpus == pin.here:
        return rest
    if colon and corpus in names:
        return pattern
    return f"{pin.name}:{pattern}"
