"""Route's reader kept between processes, in sealed cache files (`.headwater/cache/route`, and
`route-rows` beside it).

Building the reader (every document's stem counts folded into the index's columns and sums,
HW-DR-0030) is most of what an MCP server does before its first answer, and the next server
over the same corpus would build the same reader again. So the first server to build it keeps
it, once its first answer is written (HW-DR-0052), and later ones read it back (HW-DR-0036).

The reader is a function of the documents (each one's path and content digest, in census
order: counts, kinds, states and successors all come from those bytes at those paths), of the
lock (the tokenizer, the roles, the purposes, the succession relations), of the declaration (the
corpus root names the path noise), of the identifiers pinned corpora answer to (an edge to one
of them is bound to a document), of the code that builds it (the package's modules, and the
stemmer's, which the tokenizer's key names) and of the interpreter that pickles it. The reader's
header names a key over all of these but the documents, and a listing of the documents, so a
reader built from anything else is never read as this one. The reader is pickled whole, so a
column or a field added to it is kept with no change here; each document stands for its census
position, and the tokenizer for the one the lock gives.

A server after an edit misses the reader, but not what each unchanged document gave it: the
rows file (`refold`, HW-DR-0052), under the key without the listing, holds every document's row
named by its (path, digest), and only the documents not found there are counted again; the sums
are made afresh from the rows, as a whole build makes them: a server's first answer makes only
its task's stems' sums, and the rest are made once that answer is out, as the reader is kept
(HW-DR-0053). Both files are read back by an unpickler that makes nothing but arrays and the
classes route's own modules define (the rows' two long arrays follow their pickle raw, and are
checked against it). A file that is missing,
symlinked, foreign, tampered with, truncated, of another key, or that does not decode into a
reader (rows of the shape `refold` reads) serves nothing: the reader is built afresh and both
are kept for the next server, so an answer never depends on either file.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import pickle
import sys
from array import array
from collections.abc import Callable
from dataclasses import replace

from headwater import cachedir
from headwater.atomic import Unconfined
from headwater.codeprint import code_fingerprint
from headwater.corpus.document import Document
from headwater.reads.route.index import RouteIndex
from headwater.reads.route.rank import Folded
from headwater.reads.route.refold import Rows, refolded
from headwater.reads.route.router import Reader
from headwater.reads.route.tokens import Tokenizer
from headwater.snapshot import Snapshot, collector_paused

KEPT_FILE = "route"
ROWS_FILE = "route-rows"  # what each document gave the reader (`refold`), under the key alone
READER = "route.reader"  # the name `router.route` asks the snapshot for its reader under
TOKENIZER = "tokenizer"  # the persistent id the tokenizer is pickled as
PROTOCOL = 5
ROUTE_PACKAGE = "headwater.reads.route."
ARRAYS = frozenset({("array", "array"), ("array", "_array_reconstructor")})


def prime(snapshot: Snapshot) -> Callable[[], None] | None:
    """Set the snapshot's route reader, read from the kept files when they are this corpus's,
    else built, where `router.route` finds it; on the call that built it, what keeps it for the
    next server, for the caller to run once its answer is out (an agent waits for no write)."""
    pending: list[Callable[[], None]] = []

    def made() -> Reader:
        found, keep = reader_and_keeping(snapshot)
        pending.extend([keep] if keep else [])
        return found

    snapshot.derived(READER, made)
    return pending[0] if pending else None


def read_back(snapshot: Snapshot) -> None:
    """Set the snapshot's route reader for one read from a terminal: read back from the kept
    files when they are this corpus's, else built with only its task's sums (`deferring`), and
    kept nowhere, since a read verb writes nothing."""
    snapshot.derived(READER, lambda: reader_and_keeping(snapshot)[0])


def reader(snapshot: Snapshot) -> Reader:
    """The reader, read back or built and kept."""
    found, keep = reader_and_keeping(snapshot)
    if keep:
        keep()
    return found


def reader_and_keeping(snapshot: Snapshot) -> tuple[Reader, Callable[[], None] | None]:
    """The reader read back (and nothing to keep), or built (and what keeps it and its rows)."""
    tokenizer = Tokenizer.of(snapshot.taxonomy)
    header, rows_header = headers(snapshot, tokenizer)
    found = _read(snapshot, header, tokenizer)
    if isinstance(found, Reader):
        return found, None
    folded = _refolded(snapshot, rows_header, tokenizer)
    if folded is None:
        folded = Folded.of(_index(snapshot, snapshot.census.documents).entries)
    # The answer waits only for the sums its task's stems need; the rest are made as it is kept.
    built = Reader.over(snapshot, folded, tokenizer, deferring=True)

    def keep() -> None:
        built.scorer.complete()
        _keep(snapshot, header, built)
        _keep_rows(snapshot, rows_header, Rows.of(folded, built.scorer.idf.__contains__))

    return built, keep


def headers(snapshot: Snapshot, tokenizer: Tokenizer) -> tuple[str, str]:
    """The reader's header, naming the key and the documents, and the rows' header, naming the key."""
    named = key(snapshot, tokenizer)
    return (f"headwater route reader {named} {listing(snapshot)} pickle {PROTOCOL}",
            f"headwater route rows {named} pickle {PROTOCOL} arrays {array('i').itemsize}")


def key(snapshot: Snapshot, tokenizer: Tokenizer) -> str:
    """A digest of everything the reader is a function of but the documents (the module's
    docstring says what): a document's row is a function of it and of these alone."""
    digest = hashlib.sha256()
    for part in (code_fingerprint(), sys.version, sys.byteorder, tokenizer.key, snapshot.lock.digest,
                 repr(snapshot.declaration), repr(sorted(snapshot.federation.documents))):
        digest.update(part.encode("utf-8") + b"\0")
    return digest.hexdigest()


def listing(snapshot: Snapshot) -> str:
    """A digest of the documents, each one's path and content digest, in census order."""
    listed = "".join(f"{d.path}\t{d.digest}\n" for d in snapshot.census.documents)
    return hashlib.sha256(listed.encode("utf-8")).hexdigest()


def _index(snapshot: Snapshot, documents: tuple[Document, ...]) -> RouteIndex:
    return RouteIndex.of(documents, snapshot.taxonomy, snapshot.declaration.corpus_root)


def _keep(snapshot: Snapshot, header: str, built: Reader) -> None:
    positions = {id(document): at for at, document in enumerate(snapshot.census.documents)}
    buffer = io.BytesIO()
    try:
        _Pickler(buffer, positions).dump(built)
    except (pickle.PicklingError, TypeError, AttributeError):  # a field pickle cannot hold: nothing kept
        return
    _write(snapshot, KEPT_FILE, header, buffer)


def _keep_rows(snapshot: Snapshot, header: str, rows: Rows) -> None:
    """The rows, their two long arrays written raw after the pickle of the rest (no copy made)."""
    buffer = io.BytesIO()
    _Pickler(buffer, {}).dump(replace(rows, ids=array("i"), counts=array("i")))
    buffer.write(memoryview(rows.ids))
    buffer.write(memoryview(rows.counts))
    _write(snapshot, ROWS_FILE, header, buffer)


def _write(snapshot: Snapshot, name: str, header: str, buffer: io.BytesIO) -> None:
    # A server that cannot keep the reader still answers, the same bytes: the next one builds it again.
    # Nor does it wait for a run holding the write lock: an agent's first answer is not held up by a
    # long check, and keeping the reader only saves a later server work.
    with contextlib.suppress(Unconfined):  # the file, or a folder on its way, is a symlink: nothing kept
        cachedir.write(snapshot.root, name, header, buffer.getvalue(), wait=False)


def _read(snapshot: Snapshot, header: str, tokenizer: Tokenizer) -> object:
    payload = cachedir.read(snapshot.root, KEPT_FILE, header)
    return None if payload is None else _loaded(io.BytesIO(payload), snapshot, tokenizer)


def _refolded(snapshot: Snapshot, header: str, tokenizer: Tokenizer) -> Folded | None:
    """The census's rows, those of unchanged documents read from the rows file; None where it
    serves nothing."""
    rows = _read_rows(snapshot, header, tokenizer)
    if rows is None:
        return None
    return refolded(rows, snapshot.census.documents, lambda fresh: _index(snapshot, fresh).entries)


def _read_rows(snapshot: Snapshot, header: str, tokenizer: Tokenizer) -> Rows | None:
    payload = cachedir.read(snapshot.root, ROWS_FILE, header)
    if payload is None:
        return None
    buffer = io.BytesIO(payload)
    rows = _loaded(buffer, snapshot, tokenizer)
    if not isinstance(rows, Rows) or not rows.shaped() or rows.ids or rows.counts:
        return None
    size = rows.ids.itemsize * sum(rows.sizes)
    raw = memoryview(payload)[buffer.tell():]
    if len(raw) != 2 * size:
        return None
    rows.ids.frombytes(raw[:size])
    rows.counts.frombytes(raw[size:])
    return rows if rows.whole() else None


def _loaded(payload: io.BytesIO, snapshot: Snapshot, tokenizer: Tokenizer) -> object:
    """What the pickle `payload` holds decodes into, or None where it does not decode."""
    unpickler = _Unpickler(payload, snapshot.census.documents, tokenizer)
    try:
        with collector_paused():  # a reader is many small arrays: the collector would only walk them
            return unpickler.load()
    except Exception:  # whatever fails to decode serves nothing: the reader is built instead
        return None


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, positions: dict[int, int]) -> None:
        super().__init__(file, protocol=PROTOCOL)
        self.positions = positions

    def persistent_id(self, obj: object) -> object:
        if isinstance(obj, Tokenizer):
            return TOKENIZER
        if isinstance(obj, Document):
            if id(obj) not in self.positions:  # the reader holds a document off the census: nothing kept
                raise pickle.PicklingError(f"{obj.path} is not a document of the census")
            return self.positions[id(obj)]
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, documents: tuple[Document, ...], tokenizer: Tokenizer) -> None:
        super().__init__(file)
        self.documents, self.tokenizer = documents, tokenizer

    def persistent_load(self, pid: object) -> object:
        if pid == TOKENIZER:
            return self.tokenizer
        if isinstance(pid, int) and 0 <= pid < len(self.documents):
            return self.documents[pid]
        raise pickle.UnpicklingError(f"no document at {pid!r}")

    def find_class(self, module: str, name: str) -> type:
        """Arrays, and the classes route's own modules define (not those they import), nothing
        else: even a file sealed with this user's key makes nothing more."""
        if (module, name) in ARRAYS:
            return super().find_class(module, name)
        if module.startswith(ROUTE_PACKAGE) and "." not in name:
            found = getattr(sys.modules.get(module), name, None)
            if isinstance(found, type) and found.__module__ == module:
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not route's to make")
