"""The census: one row per file under the corpus root, each with one outcome and its reason.

The census is the denominator every report states before what failed. Each Markdown file is
read once, hashed once and parsed here; no later phase opens it again.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from enum import Enum
from functools import cached_property
from pathlib import Path
from typing import TypeVar

from headwater.announcements import OPENED_IN
from headwater.corpus.document import Document
from headwater.corpus.frontmatter import FrontMatterRefusal, foreign, split
from headwater.corpus.parses import ParseStore
from headwater.corpus.walk import Entry, EntryKind, walk
from headwater.frozen import frozen
from headwater.hashing import digest
from headwater.inplace import folder as open_folder
from headwater.inplace import read_regular
from headwater.patterns import Pattern, compile_pattern
from headwater.taxonomy.declaration import Exclusion
from headwater.taxonomy.model import Shelf, Taxonomy
from headwater.yaml.nodes import Map, scalar_text

T = TypeVar("T")


class Outcome(Enum):
    UNWALKABLE = "unwalkable"
    EXCLUDED = "excluded"
    NOT_A_DOCUMENT = "not_a_document"
    UNREADABLE = "unreadable"
    UNTYPED = "untyped"
    TYPED = "typed"


UNWALKABLE_REASONS = {
    EntryKind.SYMLINK: "a symlink, which the walk does not follow",
    EntryKind.SPECIAL: "a special file (a pipe, socket or device), which the walk never opens",
    EntryKind.UNREADABLE_DIRECTORY: "a directory the walk could not read",
    EntryKind.UNDECODABLE_NAME: "a name that is not UTF-8",
    EntryKind.MISSING_ROOT: "a corpus root that does not exist",
}


@frozen
class Row:
    """One file of the census: its outcome, why, and the document when its front matter loaded."""

    path: str
    outcome: Outcome
    reason: str = ""
    kind: str | None = None
    derivation: tuple[str, ...] = ()
    document: Document | None = None
    exclusion: Exclusion | None = None

    @property
    def label(self) -> str:
        """`typed decision`, `untyped`, … as reports print the outcome."""
        return f"typed {self.kind}" if self.outcome is Outcome.TYPED else self.outcome.value


@frozen
class Census:
    """Every file under the corpus root, one row each, in path order."""

    root: str  # the corpus root, repository-relative
    rows: tuple[Row, ...]

    @cached_property
    def by_path(self) -> dict[str, Row]:
        return {row.path: row for row in self.rows}

    @cached_property
    def documents(self) -> tuple[Document, ...]:
        """Typed documents, in path order."""
        return tuple(r.document for r in self.rows if r.outcome is Outcome.TYPED and r.document)

    @cached_property
    def parsed(self) -> tuple[Document, ...]:
        """Every file whose front matter loaded, typed or not, in path order."""
        return tuple(r.document for r in self.rows if r.document is not None)

    def count(self, outcome: Outcome) -> int:
        return sum(1 for row in self.rows if row.outcome is outcome)


def is_markdown(path: str) -> bool:
    return path.lower().endswith(".md")


# A Markdown file read and hashed, not yet parsed: its path, its text (decoded, without a
# byte-order mark) and its digest. A plain tuple: ten thousand of them are made on every run,
# and sent back from the worker that reads them (`ParseStore.beside_the_fronts`) as they are.
Read = tuple[str, str, str]


# What the census reads in one piece: the path (as bytes, the walk's order) of its last entry, its
# rows and files, and whether it is the corpus's last piece. A forked reader sends each piece back
# as it is read (`ParseStore.beside_the_fronts`), then what it reads beside the corpus (`take`).
Piece = tuple[bytes, list["Row | Read"], bool]
PIECE = 256


def take(repo: Path, corpus_root: str, exclusions: tuple[Exclusion, ...], taxonomy: Taxonomy,
         parses: ParseStore, then: Callable[[], T] = lambda: None) -> tuple[Census, Callable[[], T]]:
    """Every file read, then parsed (on every core when the store spreads), then classified; a file
    whose front the fronts file holds is classified as soon as it is read, as a forked reader's
    later pieces come. And `then()`, made by whoever read the corpus once it is read: a forked
    reader makes it while this process classifies the last pieces and goes on past the census;
    the function returned gives its answer, waiting for it only when asked."""
    classifier = Classifier(taxonomy, parses)

    def reading(after: Piece | None) -> Iterator[Piece | T]:
        if after is None or not after[2]:  # the corpus, or its rest after a reader that failed part way
            yield from _pieces(repo, walk(repo, corpus_root), after, exclusions, classifier)
        yield then()

    stream = parses.beside_the_fronts(reading)
    read: list[Row | Read] = []
    for _, piece, last in stream:
        _announce(repo, piece)
        read += [classifier.classify(*item) if type(item) is tuple and parses.held(item[2]) else item
                 for item in piece]
        if last:
            break
    parses.prepare([item[1:] for item in read if type(item) is tuple])  # (text, digest) of each file left
    rows = tuple(classifier.classify(*item) if type(item) is tuple else item for item in read)
    parses.split_all()
    return Census(corpus_root, rows), lambda: _rest(stream)


def _pieces(repo: Path, entries: list[Entry], after: Piece | None, exclusions: tuple[Exclusion, ...],
            classifier: Classifier) -> Iterator[Piece]:
    """The census's reading of the walk's entries, past `after`'s, in pieces of `PIECE`; at least
    one, so the last is always told."""
    if after is not None:
        entries = [entry for entry in entries if entry.raw > after[0]]
    with Folders(repo) as folders:
        for start in range(0, max(len(entries), 1), PIECE):
            piece = entries[start:start + PIECE]
            rows = [_row(entry, exclusions, classifier, folders) for entry in piece]
            yield (piece[-1].raw if piece else b""), rows, start + PIECE >= len(entries)


def _rest(stream: Iterator) -> object:
    """What the stream sends after the corpus's last piece; the stream is then done with."""
    try:
        return next(stream)
    finally:
        stream.close()


def _announce(repo: Path, piece: list[Row | Read]) -> None:
    """The files a piece opened, announced (`headwater.opened`, HW-DR-0045): each is opened by its
    name in a folder's descriptor, which the replay's recorder hears from no one else (so a forked
    reader notes none of ten thousand opens), and this process announces the piece it takes,
    whoever read it."""
    opened = [item[0] if type(item) is tuple else item.path for item in piece
              if type(item) is tuple or item.outcome is Outcome.UNREADABLE]
    if opened:
        sys.audit(OPENED_IN, os.fspath(repo), opened)


class Folders:
    """The descriptor of each folder the census reads files in, opened once (the walk's order
    keeps a folder's files together) and closed with the next or at the end."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self.folder: str | None = None
        self.fd = -1

    def __enter__(self) -> Folders:
        return self

    def __exit__(self, *exc: object) -> None:
        self._close()

    def of(self, folder: str) -> int:
        """The descriptor of a folder of the repository, never reached through a symlink: one
        swapped in for a folder after the walk is not read through (OSError when it cannot be
        opened)."""
        if folder != self.folder:
            self._close()
            self.fd = open_folder(self.repo, folder)
            self.folder = folder
        return self.fd

    def _close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
        self.folder, self.fd = None, -1


# A shelf a file of a directory may match: the pattern left to read its name (None: any name
# matches), the pattern's rank, and its positions after the directory.
Started = tuple[Shelf, "Pattern | None", tuple[int, int], frozenset[int]]


def _row(entry: Entry, exclusions: tuple[Exclusion, ...], classifier: Classifier, folders: Folders) -> Row | Read:
    if entry.kind is not EntryKind.FILE:
        reason = UNWALKABLE_REASONS[entry.kind]
        if entry.kind is EntryKind.SYMLINK and entry.detail:
            reason += f" (it points at `{entry.detail}`)"
        return Row(entry.path, Outcome.UNWALKABLE, reason)
    exclusion = excluded_by(entry.path, exclusions)
    if exclusion:
        return Row(entry.path, Outcome.EXCLUDED, f"excluded by `{exclusion.pattern}`: {exclusion.reason}",
                   exclusion=exclusion)
    if not is_markdown(entry.path):
        return Row(entry.path, Outcome.NOT_A_DOCUMENT, "not a Markdown file")
    return classifier.read(entry.path, folders)


def excluded_by(path: str, exclusions: tuple[Exclusion, ...]) -> Exclusion | None:
    for exclusion in exclusions:
        if compile_pattern(exclusion.pattern).matches(path):
            return exclusion
    return None


def _undecodable(data: bytes, at: int) -> str:
    """Where a file stops being UTF-8, as an editor shows it: the byte, its line and column (the
    characters before it on its line decode, being UTF-8 up to it) and its offset."""
    start = data.rfind(b"\n", 0, at) + 1
    line, column = data.count(b"\n", 0, at) + 1, len(data[start:at].decode("utf-8")) + 1
    return (f"not UTF-8 text: the byte 0x{data[at]:02x} at line {line}, column {column} (offset {at}) "
            "cannot be decoded; save the file as UTF-8")


class Classifier:
    """Reads one Markdown file and decides its outcome: unreadable, untyped or typed."""

    def __init__(self, taxonomy: Taxonomy, parses: ParseStore | None = None) -> None:
        self.taxonomy = taxonomy
        self.shelves = list(taxonomy.shelves.values())
        self.parses = parses
        self.opened = parses.opened if parses is not None else _opened
        # compiled once here, not once per file: the census asks for every Markdown file
        self.patterns = [(shelf, shelf.pattern, shelf.pattern.specificity) for shelf in self.shelves]
        # each pattern's positions after a directory, read once for all the files it holds
        self.directories: dict[str, list[Started]] = {}
        # and, where every shelf a directory starts takes any name, what its every file matches
        self.settled: dict[str, tuple[Shelf, ...]] = {}
        # what a shelf and its discriminator's value decide (the kind and the derivation's lines),
        # and each kind's identifier key: the same few answers for every document of a shelf
        self.decided: dict[tuple[str, str | None], tuple[str | None, tuple[str, ...]]] = {}
        self.id_keys: dict[str | None, str] = {}

    def read(self, path: str, folders: Folders) -> Row | Read:
        """The file read by its name in its folder's descriptor, which the caller announces."""
        folder, _, name = path.rpartition("/")
        try:
            data = read_regular(name, folders.of(folder))
        except OSError as error:
            return Row(path, Outcome.UNREADABLE, f"could not be read ({error.strerror or error})")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            return Row(path, Outcome.UNREADABLE, _undecodable(data, error.start))
        return path, text.removeprefix("\ufeff"), digest(data)

    def classify(self, path: str, text: str, content_digest: str) -> Row:
        try:
            front, offset, body_line = self.opened(text, content_digest)  # the front (None: none), the body's place
        except FrontMatterRefusal as refusal:
            return Row(path, Outcome.UNREADABLE, str(refusal))
        shelves = self._shelves_of(path)
        if not shelves:
            return Row(path, Outcome.UNTYPED, "no shelf pattern claims this path",
                       document=self.document(path, None, front, offset, body_line, text, content_digest))
        if len(shelves) > 1:
            names = " and ".join(f"`{s.name}`" for s in shelves)
            return Row(path, Outcome.UNTYPED, f"shelves {names} claim it equally, and a tie is not a coin flip",
                       document=self.document(path, None, front, offset, body_line, text, content_digest))
        shelf = shelves[0]
        if front is None:
            written = foreign(text)
            reason = (f"its front matter is written in {written}, which headwater does not read; write it as "
                      "YAML between `---` lines" if written else "no front matter, so nobody has typed this file")
            return Row(path, Outcome.UNTYPED, reason, derivation=(_matched(shelf),))
        kind, derivation = self.decide(shelf, front)
        if kind is None:
            return Row(path, Outcome.UNTYPED, derivation[-1], derivation=derivation[:-1],
                       document=self.document(path, None, front, offset, body_line, text, content_digest))
        return Row(path, Outcome.TYPED, "", kind, derivation,
                   self.document(path, kind, front, offset, body_line, text, content_digest))


    def document(self, path: str, kind: str | None, front: Map | None, offset: int, body_line: int, text: str,
                 content_digest: str) -> Document | None:
        """The file's document (None without front matter), built once, typed or not."""
        if front is None:
            return None
        id_key = self.id_keys.get(kind)
        if id_key is None:
            id_key = self.id_keys[kind] = self.taxonomy.identifier_key(kind)
        return Document(path, kind, front, text, offset, body_line, content_digest, self.parses, id_key)

    def decide(self, shelf: Shelf, front: Map) -> tuple[str | None, tuple[str, ...]]:
        """The kind the shelf gives this front (None: untyped) and the derivation: the shelf's
        match, then why the kind (or, untyped, why not), decided once per shelf and value."""
        named = None if shelf.homogeneous else scalar_text(front.get(shelf.discriminator or ""))
        found = self.decided.get((shelf.name, named))
        if found is None:
            kind, why = self.kind_on(shelf, named)
            found = self.decided[(shelf.name, named)] = (kind, (_matched(shelf), why))
        return found

    def matching_shelves(self, path: str) -> list[Shelf]:
        """The most specific shelves that match; more than one is a tie."""
        return list(self._shelves_of(path))

    def _shelves_of(self, path: str) -> tuple[Shelf, ...]:
        directory, _, name = path.rpartition("/")
        settled = self.settled.get(directory)
        if settled is not None:
            return settled
        started = self.directories.get(directory)
        if started is None:
            started = self.directories[directory] = self._started(directory)
            if all(pattern is None for _, pattern, _, _ in started):  # whatever the file's name
                settled = self.settled[directory] = _best((shelf, rank) for shelf, _, rank, _ in started)
                return settled
        return _best((shelf, rank) for shelf, pattern, rank, positions in started
                     if pattern is None or pattern.accepts(pattern.after([name], positions)))

    def _started(self, directory: str) -> list[Started]:
        """The shelves a file of this directory may match, each with its pattern's positions after
        the directory; with no pattern when it matches whatever the file's name (it reaches a
        trailing `**` here, as `docs/decisions/**` does: a name is never empty, and `**` takes any)."""
        names = directory.split("/") if directory else []
        started: list[Started] = []
        for shelf, pattern, rank in self.patterns:
            positions = pattern.after(names)
            if any(at < len(pattern.segments) and all(s == "**" for s in pattern.segments[at:]) for at in positions):
                started.append((shelf, None, rank, positions))
            elif positions:
                started.append((shelf, pattern, rank, positions))
        return started

    def kind_on(self, shelf: Shelf, named: str | None) -> tuple[str | None, str]:
        """The kind and why, given the discriminator's value a heterogeneous shelf reads."""
        if shelf.homogeneous:
            kind = shelf.kind or ""
            why = f"`{shelf.name}` is homogeneous, so placement carries the kind `{kind}`"
        else:
            field = shelf.discriminator or ""
            if named is None:
                return None, f"the shelf `{shelf.name}` is heterogeneous and the document declares no `{field}`"
            if named not in shelf.kinds:
                admitted = ", ".join(shelf.kinds)
                return None, f"`{field}: {named}` is not a kind the shelf `{shelf.name}` carries ({admitted})"
            kind = named
            why = f"`{shelf.name}` is heterogeneous, and `{field}: {named}` names the kind `{kind}`"
        declared = self.taxonomy.kinds.get(kind)
        if declared is None or declared.abstract:
            return None, f"the shelf resolves to `{kind}`, which is abstract or undeclared, and no document is"
        return kind, why


def _opened(text: str, content_digest: str) -> tuple[Map | None, int, int]:
    """The front (None: none), where the body starts and its line, split here."""
    parts = split(text)
    return parts.front, len(text) - len(parts.body), parts.body_line


def _best(matched: Iterable[tuple[Shelf, tuple[int, int]]]) -> tuple[Shelf, ...]:
    """The shelves of the highest rank among those matched."""
    ranked = list(matched)
    if not ranked:
        return ()
    best = max(rank for _, rank in ranked)
    return tuple(shelf for shelf, rank in ranked if rank == best)


def _matched(shelf: Shelf) -> str:
    return f"shelf `{shelf.name}` matched on `{shelf.path}`"
