"""Parsed documents by content digest: what an earlier run parsed, reused when the bytes match.

A file's front matter (and, once a consumer asked for it, its body) depends on nothing but its
bytes, so the digest the census computes anyway is the whole key. Entries rebuild exactly the
nodes and bodies a fresh parse gives, so cached and uncached runs print the same bytes. The
store counts what it parsed and what it reused; that count, not a stopwatch, is what tests read.

The cache file lives in `.headwater/cache/` (see `headwater.cachedir`); its header carries a
fingerprint of the parsing code and of markdown-it, so a changed parser reads the old file as
empty. Reads never write it: only a verb that may write (check) calls `save`. A check with
many documents to parse parses them ahead on every core (`prepare`, through `headwater.forked`).
A writing run given a `Derivation` keeps, beside the bodies, what a reader derives from each
(`headwater.corpus.derived`); readers ask for it with `derived`. The parse cache's first line
then names the derivation's key (`DERIVED_UNDER`), saying the derived file lists every digest
the parse cache holds, so a warm check need not read that file to know nothing is missing.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from enum import Enum
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TypeVar

from headwater import cachedir, forked
from headwater.corpus import derived as derived_file
from headwater.corpus import fronts as fronts_file
from headwater.corpus.body import Body, Code, Heading, Link, Prose, parse
from headwater.corpus.derived import Derivation
from headwater.corpus.frontmatter import FrontMatterRefusal, Split, split
from headwater.frozen import frozen
from headwater.yaml.nodes import Map, Node, Scalar, Seq

T = TypeVar("T")

CACHE_FILE = "parsed"
FORMAT = 3  # one line per document: digest, front, body; each decoded only when asked for
MALFORMED = (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError)


class CacheUse(Enum):
    OFF = "off"  # neither read nor write (`check --no-cache`)
    READ = "read"  # reuse what is there, write nothing (every read verb)
    WRITE = "write"  # reuse, and `save` writes back what this run parsed (check)


@frozen
class ParseAccount:
    """How many fronts and bodies a run reused from the caches and how many it parsed."""

    fronts_reused: int
    fronts_parsed: int
    bodies_reused: int
    bodies_parsed: int


@lru_cache(maxsize=1)
def header() -> str:
    """The cache's first line: its format and a fingerprint of everything that shapes a parse."""
    fingerprint = hashlib.sha256(sys.version.encode("utf-8"))
    here = Path(__file__).resolve().parent
    sources = [here / "parses.py", here / "frontmatter.py", here / "body.py", here / "commonmark.py",
               here.parent / "yaml" / "strict.py", here.parent / "yaml" / "shallow.py",
               here.parent / "yaml" / "nodes.py"]
    spec = importlib.util.find_spec("markdown_it")  # finds the package without importing it
    if spec is not None and spec.origin:
        sources.append(Path(spec.origin))
    for source in sources:
        fingerprint.update(source.read_bytes())
    return f"headwater parsed documents {FORMAT} {fingerprint.hexdigest()[:16]}"


REWRITE_AFTER = 64  # fresh parses (fronts and bodies) worth rewriting a warm cache for
# Reading, verifying and splitting the parse cache runs at about 300 MB/s, parsing at about 4 MB/s
# of text (measured at 10,000 generated documents): a missed front or body is parsed afresh until
# the text so parsed reaches a 128th of the cache's size, half what opening it would cost, so a
# handful of edited documents never pays for the whole file, and many pay at most half again.
SPARE_PER = 128
WORTH_IT = 200  # documents to parse per process before a fork pays for itself
# Bytes of fronts file per process before reading the files in a worker while it is rebuilt
# pays: at 10,000 generated documents (4.8 MB) the reading and the rebuild took 0.12 and 0.13 s
# of CPU, the way back about 0.03 s; at 1,000 the fork would save a few milliseconds at most.
FRONTS_WORTH_IT = 1 << 20

# A document parsed ahead of its turn: its cache entry, and the split (or refusal) when this
# process parsed it; the entry holds its front (`f`) only once needed: when a worker parsed it
# (then the split is None, decoded from the entry) or when the run saves it.
Ahead = tuple[dict, "Split | FrontMatterRefusal | None"]
# From a worker: the entry without its body, as JSON, then the body's line and its derived value
# (empty when none): bytes pickle as they are, where a front's nested lists cost the parent a
# transient heap as large as the fronts themselves.
Packed = tuple[bytes, bytes, bytes]
DERIVED = "d"  # the member of an entry parsed ahead that carries its body's derived value
DERIVED_UNDER = b"derived under "  # the payload's first line when every digest has its derived value


class ParseStore:
    """One run's parses, keyed by content digest; lives as long as the snapshot that made it."""

    def __init__(self, root: Path, use: CacheUse, spread: bool = False,
                 derive: Derivation | None = None) -> None:
        self.root = root
        self.use = use
        self.spread = spread  # parse what the cache lacks, bodies too, on every core (`prepare`)
        self.derive = derive if use is CacheUse.WRITE else None  # derived from each body it parses
        self.derived_here: dict[str, bytes] = {}  # digest → its value, derived by this run
        # bodies parsed here, whose value is derived only when the derived file is written: a run
        # with a handful of edits writes no file, and would import a stemmer to throw its work away
        self.underived: dict[str, tuple[Map, Body]] = {}
        off = use is CacheUse.OFF
        self.stored = Stored(lambda: b"" if off else _read(root), lambda: b"" if off else _first_line(root))
        # what this run's corpus holds, for `save`: an entry this run parsed, or what it adds (a
        # body) to the stored one (an entry without `f` or `r` keeps the stored front); a body is
        # held as its JSON line, a tenth of the memory of the lists it decodes to
        self.current: dict[str, dict] = {}
        self.ahead: dict[str, Ahead] = {}
        self.packed: dict[str, Packed] = {}  # parsed ahead by a worker (`Packed`)
        # bodies parsed ahead, as their cache lines, from the census's split until a document asks
        self.lines: dict[str, bytes] = {}
        self.slug_sets: dict[str, frozenset[str]] = {}  # of bodies still held as lines (`slugs`)
        self.scalars: dict[tuple, Scalar] = {}  # decoded scalars, shared (`_decode`)
        self.kept_fronts: dict[str, fronts_file.Kept] = {}  # this run's fronts, for the fronts file
        self.table_hits = 0  # fronts rebuilt from the fronts file
        self.spared = 0  # characters parsed rather than opening the parse cache (`_consults`)
        self.spared_fronts = 0  # fronts so parsed
        self.parsed_fronts: dict[str, int] = {}  # characters of each text whose front was parsed, by digest
        self.table_size = 0  # the entries it held
        self.fronts_reused = self.fronts_parsed = self.bodies_reused = self.bodies_parsed = 0

    @property
    def account(self) -> ParseAccount:
        return ParseAccount(self.fronts_reused, self.fronts_parsed, self.bodies_reused, self.bodies_parsed)

    def prepare(self, files: list[tuple[str, str]]) -> None:
        """Parse ahead, across the cores, the fronts (and bodies) of those (text, digest) pairs the
        cache does not hold, when the store spreads and they are enough to be worth it."""
        table = self.table.entries
        missed = {digest: text for text, digest in files if digest not in table}
        if not self.spread or forked.workers_for(len(missed), WORTH_IT) < 2:
            return  # not before this: the parse cache is read only when the misses are worth a fork
        todo = [(digest, text) for digest, text in missed.items() if digest not in self.stored.fronts]
        workers = forked.workers_for(len(todo), WORTH_IT)
        if workers < 2:
            return

        # Bodies too, even when nothing is saved: a document's rules read the bodies its links
        # reach, which the process judging it would otherwise parse again (a third more bodies).
        derive = self.derive
        # Largest first, each share taking the next piece as it becomes free: the KEPs' READMEs
        # differ a hundredfold in length, and every n-th document left one share half a second
        # of parsing behind the other.
        todo.sort(key=lambda item: len(item[1]), reverse=True)
        size = forked.piece_size(len(todo))
        tickets = forked.Tickets(-(-len(todo) // size))

        def share(_first: int, _step: int) -> list[tuple[str, Ahead]]:
            return [(digest, _parsed(text, derive, self.scalars))
                    for ticket in tickets for digest, text in todo[ticket * size:(ticket + 1) * size]]

        def pack(parsed: list[tuple[str, Ahead]]) -> list[tuple[str, Packed]]:
            return [(digest, _packed(entry, parts)) for digest, (entry, parts) in parsed]

        with tickets:
            mine, theirs = forked.in_shares(share, workers, pack)
        self.ahead.update(mine)
        for part in theirs:
            self.packed.update(part)

    def beside_the_fronts(self, reading: Callable[[T | None], Iterator[T]]) -> Iterator[T]:
        """`reading(None)`'s pieces (the census reading and hashing every file), made by a forked
        worker while this process rebuilds the fronts file, which needs nothing it reads, then
        taken as they come (`forked.streamed`): the census classifies the first pieces while the
        worker reads the last. Whenever the fronts file is large enough for the fork and the way
        back to pay, whoever loads (a check, and a server or a read, whose load is all of their
        start); a worker that fails costs the rest read here."""
        if self.use is CacheUse.OFF or forked.workers_for(self._fronts_bytes, FRONTS_WORTH_IT) < 2:
            return reading(None)
        return forked.streamed(reading, lambda: self.table)

    def ahead_of_save(self) -> bytes | None:
        """What `save` reads of a warm parse cache (its first line, the whole file verified), for a
        process with a core to spare to read before it is asked (`saves_with`); None when this run
        writes no cache. Hashed by one thread: the process beside it has the other core."""
        return _first_line(self.root, alone=True) if self.use is CacheUse.WRITE else None

    def saves_with(self, first: bytes | None) -> None:
        """`ahead_of_save()`'s answer, read by another process of this run."""
        if first is not None:
            self.stored.knows_first(first)

    def held(self, digest: str) -> bool:
        """Whether the fronts file holds this digest's front: it then needs no parse ahead."""
        return digest in self.table.entries

    @cached_property
    def _fronts_bytes(self) -> int:
        try:
            return os.stat(self.root / cachedir.CACHE_DIR / fronts_file.FRONTS_FILE).st_size
        except OSError:
            return 0

    @cached_property
    def table(self) -> fronts_file.Fronts:
        """The fronts file (`headwater.corpus.fronts`), read on first use."""
        table = fronts_file.read(self.root, header()) if self.use is not CacheUse.OFF else fronts_file.EMPTY
        self.table_size = len(table.entries)
        return table

    def opened(self, text: str, digest: str) -> tuple[Map | None, int, int]:
        """`frontmatter.split(text)` as the front (None: none), where the body starts in `text` and
        its line: from the fronts file, with no copy of the body (a warm run's every front), or
        from the parse cache or a parse when this digest is not held there."""
        held = self.table.opened(digest, len(text)) if digest not in self.packed and digest not in self.ahead else None
        if held is None:
            return self._split_opened(text, digest)
        self.fronts_reused += 1
        self.table_hits += 1
        if self.use is CacheUse.WRITE:
            self.current[digest] = {}  # as the parse cache stores it: `save` copies its line
            self.kept_fronts[digest] = str(held) if type(held) is FrontMatterRefusal else (held[1], held[2], held[0])
        if type(held) is FrontMatterRefusal:
            raise held
        return held

    def _split_opened(self, text: str, digest: str) -> tuple[Map | None, int, int]:
        """`opened` for a digest the fronts file does not hold."""
        try:
            parts = self._split(text, digest)
        except FrontMatterRefusal as refusal:
            if self.use is CacheUse.WRITE:
                self.kept_fronts[digest] = str(refusal)
            raise
        found = parts.front, len(text) - len(parts.body), parts.body_line
        if parts.front is not None and self.use is CacheUse.WRITE:
            self.kept_fronts[digest] = (found[1], found[2], parts.front)
        return found

    def split_all(self) -> None:
        """Every file is split: let the fronts file's entries go (a long-lived server would hold
        them for nothing; the nodes built from them stay with their documents)."""
        self.__dict__.pop("table", None)
        self.scalars.clear()

    def _split(self, text: str, digest: str) -> Split:
        if digest in self.packed:
            meta, body, derived = self.packed.pop(digest)
            self.ahead[digest] = ({**json.loads(meta), **_unpacked(body, derived)}, None)
        if digest in self.ahead:
            return self._split_ahead(text, digest)
        consulted = self._consults(self.stored.fronts_open, sparable=True)
        entry = self.stored.entry(digest) if consulted else None
        if entry is not None:
            reused = _split_of(entry, text, self.scalars)
            if reused is not None:
                self.fronts_reused += 1
                self._keep(digest, {})  # as stored: `save` copies its line
                if isinstance(reused, FrontMatterRefusal):
                    raise reused
                return reused
        self.fronts_parsed += 1
        self.parsed_fronts[digest] = len(text)
        try:
            parts = split(text, self.scalars)
        except FrontMatterRefusal as refusal:
            self.spared += 0 if consulted else len(text)
            self._keep(digest, {"r": str(refusal)})
            raise
        if not consulted:
            self.spared += len(text) - len(parts.body)
            self.spared_fronts += 1
        if parts.front is not None and self.use is CacheUse.WRITE:
            self._keep(digest, {"f": _encode(parts.front), "o": len(text) - len(parts.body), "n": parts.body_line})
        return parts

    def _split_ahead(self, text: str, digest: str) -> Split:
        entry, parts = self.ahead.pop(digest)  # a second file of the same bytes is parsed again
        if DERIVED in entry:
            self.derived_here[digest] = entry.pop(DERIVED)
        self.fronts_parsed += 1
        self.parsed_fronts[digest] = len(text)
        if "b" in entry:  # the body is still to be asked for; the front is the census's now
            self.lines[digest] = entry["b"]
        if "r" in entry:
            self._keep(digest, entry)
            raise FrontMatterRefusal(entry["r"])
        if "o" not in entry:
            return Split(None, text, 1)
        if "f" not in entry and self.use is CacheUse.WRITE and isinstance(parts, Split) and parts.front:
            entry["f"] = _encode(parts.front)  # parsed here, and saved: encoded only now
        self._keep(digest, entry)
        found = parts if parts is not None else _split_of(entry, text, self.scalars)
        return found if isinstance(found, Split) else split(text)

    def _keep(self, digest: str, entry: dict) -> None:
        """Hold an entry for `save`, which only a writing run does."""
        if self.use is CacheUse.WRITE:
            self.current[digest] = entry

    def body(self, digest: str, text: str, first_line: int, front: Map) -> Body:
        """`body.parse(text, first_line)`, from the cache when this digest's body was parsed before."""
        line = self.lines.pop(digest, None)  # the document keeps what it decodes to; `save` reads `current`
        if line is not None:
            self.bodies_parsed += 1
            return _body_of(json.loads(line))
        entry = self.current.get(digest) or {}
        # a body is spared only once a parser's import (a third of opening the cache at 10,000)
        # is paid or due: after a body was parsed, or a front that missed the fronts file (a new
        # document, whose body is parsed in any case)
        sparable = self.bodies_parsed > 0 or self.spared_fronts > 0
        consulted = "b" in entry or self._consults(self.stored.bodies_open, sparable)
        try:
            encoded = (json.loads(entry["b"]) if "b" in entry else self.stored.body(digest)) if consulted else None
            if encoded is not None:
                found = _body_of(encoded)
                self.bodies_reused += 1
                return found
        except MALFORMED:
            pass
        self.bodies_parsed += 1
        self.spared += 0 if consulted else len(text)
        parsed = parse(text, first_line)
        if digest in self.current:
            self._keep(digest, {**self.current[digest], "b": _json(encode_body(parsed))})
            if self.derive is not None:
                self.underived[digest] = (front, parsed)
        return parsed

    def _consults(self, opened: bool, sparable: bool) -> bool:
        """Whether a missed front or body is looked for in the parse cache rather than parsed: once
        the part it needs is open, when it may not be spared, or once the text parsed in its place
        reaches the cache's size over `SPARE_PER`."""
        return opened or not sparable or self.spared >= self._spare

    @cached_property
    def _spare(self) -> int:
        try:
            return os.stat(self.root / cachedir.CACHE_DIR / CACHE_FILE).st_size // SPARE_PER
        except OSError:
            return 0

    def slugs(self, digest: str) -> frozenset[str] | None:
        """The heading slugs of a body parsed ahead and not yet asked for, leaving its line for
        the document; None when there is no such line."""
        line = self.lines.get(digest)
        if line is None:
            return None
        found = self.slug_sets.get(digest)
        if found is None:
            try:
                entry = json.loads(line)
                found = self.slug_sets[digest] = frozenset(h[3] for h in entry[0]).union(entry[4])
            except MALFORMED:
                return None
        return found

    def derived(self, digests: list[str], key: str) -> Sequence[object | None]:
        """Per digest, the value a writing run derived from its body under `key`, or None (none
        kept, another key, the file foreign): the caller then derives it from the body. The file
        is read on each call and not held: a reader asks once and keeps what it builds. Nor is it
        read for a few documents whose fronts were all parsed afresh (an MCP server refolding the
        documents edited since the last one): their bytes are newer than the caches a check kept,
        which rewrites the derived file with its parse cache, so they are derived from their bodies
        while their text is under the file's size over `SPARE_PER`, as a missed body is parsed
        rather than open the parse cache (at 10,000 documents the file is 12.7 MB: 43 ms to read)."""
        if self.use is CacheUse.OFF or self._spares_derived(digests):
            return [None] * len(digests)
        return derived_file.values(derived_file.read(self.root, header(), key), digests)

    def _spares_derived(self, digests: list[str]) -> bool:
        parsed = self.parsed_fronts
        if not digests or any(digest not in parsed for digest in digests):
            return False
        try:
            size = os.stat(self.root / cachedir.CACHE_DIR / derived_file.DERIVED_FILE).st_size
        except OSError:
            return True  # no file to read
        return sum(parsed[digest] for digest in set(digests)) < size // SPARE_PER

    @cached_property
    def _stored_derived(self) -> dict[str, bytes]:
        """The derived file's values under this run's key, for `save`."""
        return derived_file.read(self.root, header(), self.derive.key) if self.derive is not None else {}

    def save(self) -> str | None:
        """Write what this run holds (entries of files gone since are dropped); None or one stderr line.

        A warm cache is rewritten only once enough new parses have gathered: rewriting the whole
        file costs more than re-parsing a handful of edited documents on the next run."""
        if self.use is not CacheUse.WRITE:
            return None
        failed = self._save_fronts()
        fresh = self.fronts_parsed + self.bodies_parsed + self._derive_missing(trusting=True)
        if fresh == 0 or (self.stored.held and fresh < REWRITE_AFTER):
            return None
        lines = []
        for digest in sorted(self.current):
            entry = self.current[digest]
            parsed_here = "f" in entry or "r" in entry
            front = (_json({k: v for k, v in entry.items() if k != "b"}) if parsed_here
                     else self.stored.front_raw(digest))
            body = entry["b"] if "b" in entry else self.stored.body_raw(digest)
            lines.append(b"\t".join((digest.encode("utf-8"), front, body)))
        failed = self._save_derived() or failed
        if self.derive is not None and failed is None:
            lines.insert(0, DERIVED_UNDER + self.derive.key.encode("utf-8"))
        return cachedir.write(self.root, CACHE_FILE, header(), b"".join(line + b"\n" for line in lines)) or failed

    def _save_fronts(self) -> str | None:
        """Rewrite the fronts file when it lacks enough of this run's fronts, or holds enough
        that this run did not see (as the parse cache, a handful is cheaper to rebuild)."""
        missing = len(self.kept_fronts) - self.table_hits
        stale = self.table_size - self.table_hits
        if not self.kept_fronts or (self.table_size and max(missing, stale) < REWRITE_AFTER):
            return None
        return fronts_file.write(self.root, header(), self.kept_fronts)

    def _save_derived(self) -> str | None:
        """Write every digest's derived value (empty for want of a body); None, or why not."""
        if self.derive is None:
            return None
        for digest, (front, parsed) in self.underived.items():
            self.derived_here[digest] = self.derive.encoded(front, parsed)
        self.underived.clear()
        self._derive_missing(trusting=False)
        stored = self._stored_derived
        values = {digest: self.derived_here.get(digest) or stored.get(digest, b"") for digest in self.current}
        return derived_file.write(self.root, header(), self.derive.key, values)

    def _derive_missing(self, trusting: bool) -> int:
        """Derive, from the body decoded, the value of each body `save` would write that has none
        under this run's key (reused from a cache written without one, or under another key), into
        `derived_here`; how many (a body parsed here is `underived` until the file is written).
        `trusting`: take the parse cache's word (`DERIVED_UNDER`) that the derived file lists every
        digest it holds, so a warm check deciding whether to rewrite reads neither the bodies nor
        that file; `save` looks each digest up before it writes."""
        if self.derive is None:
            return 0
        trusted = trusting and self.stored.derived_under == self.derive.key and derived_file.present(self.root)
        made = 0
        for digest, entry in self.current.items():
            if digest in self.derived_here or digest in self.underived or (
                    "b" not in entry if trusted else digest in self._stored_derived):
                continue
            body = entry["b"] if "b" in entry else self.stored.body_raw(digest)
            front = entry["f"] if "f" in entry else (self.stored.entry(digest) or {}).get("f")
            if body and front:
                try:
                    self.derived_here[digest] = self.derive.encoded(_front_of(front, self.scalars),
                                                                    _body_of(json.loads(body)))
                    made += 1
                except MALFORMED:
                    continue
        return made


class Stored:
    """The cache file's lines (`<digest>\\t<front>\\t<body>`, JSON, the body empty when none was
    parsed), each part decoded only when asked for. Fronts are held as bytes; bodies are not held
    at all until one is asked for (a run served from its verdict cache never asks), and then the
    file is read again: entries are keyed by content, so any copy of the file answers alike. Nor
    is the file read before something asks: a run whose fronts all come from the fronts file
    may never need it."""

    def __init__(self, read: Callable[[], bytes], first_line: Callable[[], bytes]) -> None:
        self.read = read
        self.first_line = first_line

    @cached_property
    def _opening(self) -> tuple[str, dict[str, bytes]]:
        payload = self.read()
        return _derived_under(payload[:max(0, payload.find(b"\n"))]), _parts(payload, 0)

    @cached_property
    def derived_under(self) -> str:
        """The key every digest has its derived value under, if any (a warm check asks for this
        alone: the file is then verified in pieces for its first line, not held)."""
        return self._opening[0] if self.fronts_open else _derived_under(self.first)

    @cached_property
    def first(self) -> bytes:
        """The file's first line: the file is verified in pieces, never held whole."""
        return self.first_line()

    def knows_first(self, first: bytes) -> None:
        """`first`, as another process of this run read it (`ParseStore.ahead_of_save`)."""
        self.__dict__["first"] = first

    @property
    def held(self) -> bool:
        """Whether the file holds any entry, read whole only if it already is."""
        return bool(self.fronts) if self.fronts_open else bool(self.first)

    @property
    def fronts_open(self) -> bool:
        return "_opening" in self.__dict__

    @property
    def bodies_open(self) -> bool:
        return "bodies" in self.__dict__

    @property
    def fronts(self) -> dict[str, bytes]:
        return self._opening[1]

    @cached_property
    def bodies(self) -> dict[str, bytes]:
        return _parts(self.read(), 1)

    def entry(self, digest: str) -> dict | None:
        """The stored entry without its body (front, offsets, or refusal), or None."""
        raw = self.fronts.get(digest)
        if raw is None:
            return None
        try:
            entry = json.loads(raw)
        except (UnicodeDecodeError, ValueError, RecursionError):
            return None
        return entry if isinstance(entry, dict) and "b" not in entry else None

    def front_raw(self, digest: str) -> bytes:
        return self.fronts.get(digest, b"{}")

    def body_raw(self, digest: str) -> bytes:
        return self.bodies.get(digest, b"")  # not through `fronts`: a body alone splits the file once

    def body(self, digest: str) -> list | None:
        """The encoded body stored for this digest, or None."""
        raw = self.body_raw(digest)
        return json.loads(raw) if raw else None


def _derived_under(first: bytes) -> str:
    return first[len(DERIVED_UNDER):].decode("utf-8", "replace") if first.startswith(DERIVED_UNDER) else ""


def _parts(payload: bytes, which: int) -> dict[str, bytes]:
    """Each line's front (0) or body (1), by digest."""
    out = {}
    for line in payload.split(b"\n"):
        digest, tab, rest = line.partition(b"\t")
        if tab:
            out[digest.decode("utf-8", "replace")] = rest.split(b"\t", 1)[which] if b"\t" in rest else b""
    return out


def _json(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")


def _parsed(text: str, derive: Derivation | None, scalars: dict[tuple, Scalar]) -> Ahead:
    """One document parsed: its cache entry (front, body, and the body's derived value when asked)
    and the split. The body is held as its line only, a tenth of the memory of the objects it
    decodes to."""
    try:
        parts = split(text, scalars)
    except FrontMatterRefusal as refusal:
        return {"r": str(refusal)}, refusal
    if parts.front is None:
        return {}, parts
    body = parse(parts.body, parts.body_line)
    derived = {DERIVED: derive.encoded(parts.front, body)} if derive is not None else {}
    entry = {"o": len(text) - len(parts.body), "n": parts.body_line}
    return {**entry, "b": _json(encode_body(body)), **derived}, parts


def _packed(entry: dict, parts: Split | FrontMatterRefusal) -> Packed:
    """A worker's entry for the way back (`Packed`), its front encoded."""
    front = {"f": _encode(parts.front)} if isinstance(parts, Split) and parts.front is not None else {}
    meta = {key: value for key, value in entry.items() if key not in ("b", DERIVED)}
    return _json({**meta, **front}), entry.get("b", b""), entry.get(DERIVED, b"")


def _unpacked(body: bytes, derived: bytes) -> dict:
    return {**({"b": body} if body else {}), **({DERIVED: derived} if derived else {})}


def _read(root: Path) -> bytes:
    return cachedir.read(root, CACHE_FILE, header()) or b""


def _first_line(root: Path, alone: bool = False) -> bytes:
    return cachedir.first_line(root, CACHE_FILE, header(), alone) or b""


# -- the entry format: nested lists, a tag first -------------------------------------------------

SCALAR, SEQ, MAP = 0, 1, 2


def _encode(node: Node) -> list:
    if isinstance(node, Scalar):
        return [SCALAR, node.text, node.line, node.column, int(node.quoted)]
    if isinstance(node, Seq):
        return [SEQ, node.line, node.column, [_encode(item) for item in node.items]]
    return [MAP, node.line, node.column, [_encode(part) for pair in node.entries for part in pair]]


def _decode(entry: list, scalars: dict[tuple, Scalar]) -> Node:
    """The node an entry encodes. Scalars are immutable and most recur across documents (the same
    key on the same line and column), so equal ones are built once per store and shared."""
    tag = entry[0]
    if tag == SCALAR:
        key = (entry[1], entry[2], entry[3], entry[4])
        found = scalars.get(key)
        if found is None:
            found = scalars[key] = Scalar(entry[1], entry[2], entry[3], bool(entry[4]))
        return found
    if tag == SEQ:
        return Seq(tuple([_decode(item, scalars) for item in entry[3]]), entry[1], entry[2])
    if tag != MAP:
        raise ValueError(f"unknown node tag {tag!r}")
    parts = [_decode(part, scalars) for part in entry[3]]
    keys = parts[0::2]
    if not all(isinstance(key, Scalar) for key in keys):
        raise ValueError("a mapping key that is not a scalar")
    return Map(tuple(zip(keys, parts[1::2], strict=True)), entry[1], entry[2])


def _front_of(encoded: list, scalars: dict[tuple, Scalar]) -> Map:
    front = _decode(encoded, scalars)
    if not isinstance(front, Map):
        raise ValueError("a front matter that is not a mapping")
    return front


def _split_of(entry: dict, text: str, scalars: dict[tuple, Scalar]) -> Split | FrontMatterRefusal | None:
    """The cached split (or refusal); None when the entry is malformed."""
    try:
        if "r" in entry:
            return FrontMatterRefusal(str(entry["r"]))
        return Split(_front_of(entry["f"], scalars), text[entry["o"]:], int(entry["n"]))
    except MALFORMED:
        return None


def encode_body(body: Body) -> list:
    """Every field of Body, in order (a test round-trips a corpus, so a new field cannot slip by)."""
    return [[[h.text, h.level, h.line, h.slug] for h in body.headings],
            [[link.href, link.text, link.line, link.column] for link in body.links],
            [[prose.line, list(prose.lines)] for prose in body.prose],
            [[c.kind, c.info, c.line, c.text] for c in body.code],
            list(body.anchors)]


def _body_of(entry: list) -> Body:
    headings, links, prose, code, anchors = entry
    return Body(tuple(Heading(*h) for h in headings), tuple(Link(*link) for link in links),
                tuple(Prose(line, tuple(lines)) for line, lines in prose), tuple(Code(*c) for c in code),
                tuple(anchors))
