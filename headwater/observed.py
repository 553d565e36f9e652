"""What a run read of the file system: noted as it reads, observed as it ends, observed again later.

A `Recorder` notes, through the process's one audit hook (PEP 578), every path the process opens
to read and every directory it lists (`os.listdir`, `os.scandir`). What Python raises no event
for, the code announces: a path it only looks at (a stat, a test for existence or type, a link
read) as `headwater.probe`; a folder it lists by its descriptor as `headwater.listed`, with the
entries it found; a file it opens by a name relative to a folder's descriptor as `headwater.read`
with the bytes it read and, when it hashed them anyway, their sha256 hex (each folder on the way
announced as a probe), many files of one folder at once as `headwater.reads`, with each name and
its bytes, or files opened so and read elsewhere (the census's, which its forked reader sends with
their digests) as `headwater.opened`, with their paths. Every thread is heard; a forked worker
notes into a file the recorder shares with it (a worker `headwater.forked` made, in one write
before each time it hands work back); a run that starts another program (whose reads no hook
hears) keeps nothing. `Recorder.observations` turns the notes into
observations, each a path and the state `state` finds there: a file by the digest of its bytes,
a listing by its names and entry types, a probe by the entry's type (a link by where it points),
an absent path as absent. `unchanged` makes each observation again, reading every file again: an
observation is never trusted from a stat.

Where the run has a file's bytes or a folder's entries in hand it announces them (`READ`, `READS`,
`LISTING`), and the observation is what the run itself read. Anything else is observed as the run
ends, so a path that moved while the run read it would pair this run's answer with bytes it did
not read: `Recorder.observations` gives nothing when such an entry, or the folder holding it (where
an entry that stood when the run looked can be gone without a time of its own), changed (by its
ctime, which no one can set back) since the run began, less a tick of the file system's coarse
clock. What the run had in hand needs neither: it is what the run read, however it moved since.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import stat
import sys
import time
from collections.abc import Iterable, Mapping, Sequence

from headwater.announcements import LISTING, OPENED_IN, PROBE, READ, READS
from headwater.forked import HANDING, WORKING  # a worker forked there says it starts, and hands work back
from headwater.frozen import frozen

OPENED, LISTED, PROBED = "open", "list", "probe"
WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
SLACK_NS = 50_000_000  # a file system stamps times from a clock one tick (≤ 10 ms) coarse
HEARD = frozenset({"open", "os.listdir", "os.scandir", PROBE, READ, READS, LISTING, OPENED_IN, WORKING, HANDING})
ELSEWHERE = frozenset({"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn"})  # reads unheard
END = "\0\0"  # the end of a note a forked worker spills
UNCLEAN = re.compile(r"/\.\.?(?:/|$)|//|/$")  # what `os.path.normpath` would spell otherwise
UNCLEAN_JOINED = re.compile(r"/\.\.?(?:/|\0)|//|/\0")  # the same, of paths each ended by NUL, which none holds
Observation = tuple[str, str, str]  # (what was done, path, the state found)


def state(what: str, path: str) -> str:
    """What stands at `path` as the run saw it: read, listed, or looked at."""
    if what == OPENED:
        return _opened(path)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return "-"
    except OSError as error:
        return f"!{error.errno}"
    return _standing(what, path, mode)


def _standing(what: str, path: str, mode: int) -> str:
    """What stands at `path`, an entry of `mode`, as `state` gives it."""
    if stat.S_ISLNK(mode):
        return "l:" + _followed(path)
    if what == LISTED and stat.S_ISDIR(mode):
        return "d:" + _listing(path)
    return _type(mode)


def _opened(path: str) -> str:
    """A file's state as `state` gives it, in one open where it is a regular file (most are)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:  # a link, nothing, or what this user may not read: what stands there
        return state(PROBED, path)
    try:
        mode = os.fstat(fd).st_mode
        return "f:" + _digest(fd) if stat.S_ISREG(mode) else _type(mode)
    except OSError as error:
        return f"!{error.errno}"
    finally:
        os.close(fd)


def _type(mode: int) -> str:
    return "f" if stat.S_ISREG(mode) else "d" if stat.S_ISDIR(mode) else "o"


def _followed(path: str) -> str:
    """A link's text and the type of what it reaches (`-` when nothing)."""
    try:
        target = os.readlink(path)
    except OSError as error:
        return f"!{error.errno}"
    try:
        reached = _type(os.stat(path).st_mode)
    except OSError:
        reached = "-"
    return f"{reached}:{target}"


def _digest(fd: int) -> str:
    digest = hashlib.sha256()
    while chunk := os.read(fd, 1 << 20):
        digest.update(chunk)
    return "sha256:" + digest.hexdigest()


def _listing(path: str) -> str:
    """Each entry's name and type, sorted."""
    try:
        with os.scandir(path) as entries:
            found = _entries(list(entries))
    except OSError as error:
        return f"!{error.errno}"
    return "\0".join(f"{name}/{kind}" for name, kind in found)


def _entries(entries: list[os.DirEntry]) -> list[tuple[str, str]]:
    """Each entry's name and type (from the listing itself), sorted by name."""
    return sorted((os.fsdecode(e.name), "l" if e.is_symlink() else "d" if e.is_dir(follow_symlinks=False)
                   else "f" if e.is_file(follow_symlinks=False) else "o") for e in entries)


def unchanged(observations: Sequence[Observation], since: int) -> bool:
    """Whether every observation, made again now, finds what it found. An entry whose ctime moved
    since the recording run began is made as it is met, and the first that differs stops the
    look, so an edit costs the stats up to it and one read, not a stat of every entry first; a
    stat only orders the work, it never answers, so when none differs every one is made again."""
    for what, path, found in observations:
        if _changed_since(path, since) is not False and state(what, path) != found:
            return False
    return all(state(what, path) == found for what, path, found in observations)


def _changed_since(path: str, since: int) -> bool | None:
    """Whether the entry's ctime is within a clock tick of `since` or later (None: nothing there)."""
    try:
        return os.lstat(path).st_ctime_ns >= since - SLACK_NS
    except OSError:
        return None


@frozen
class Scope:
    """Which notes are observations: every path but those whose bytes are no input to the answer
    (the disposable cache, which can only save work, and the key that seals it) and the bytecode
    of modules imported on the way (the program's fingerprint in the key covers the code)."""

    ignored: tuple[str, ...]

    def holds(self, path: str) -> bool:
        clean = os.path.normpath(path) if UNCLEAN.search(path) else path  # most are clean already
        return "/__pycache__/" not in clean and not (clean in self.ignored or clean.startswith(self.within))

    def held(self, paths: Iterable[str]) -> list[str]:
        """The paths it holds, sorted: a path that is clean, outside every ignored folder and no
        bytecode is held without asking `holds` (most are). Most runs, every path is so, which one
        scan of them all joined by NUL tells (a path ending in a newline, whose end `UNCLEAN`
        reads otherwise, is asked alone): a run at 10,000 documents asks of 22,000 paths."""
        ordered = sorted(paths)
        joined = "\0" + "\0".join(ordered) + "\0"
        within, ignored = self.within, self.ignored
        if not (UNCLEAN_JOINED.search(joined) or "\n" in joined or "/__pycache__/" in joined
                or any("\0" + folder in joined for folder in within)
                or any(f"\0{path}\0" in joined for path in ignored)):
            return ordered
        return [path for path in ordered if not (UNCLEAN.search(path) or "/__pycache__/" in path
                                                 or path.startswith(within) or path in ignored)
                or self.holds(path)]

    @functools.cached_property
    def within(self) -> tuple[str, ...]:
        """What a path under an ignored folder starts with."""
        return tuple(folder.rstrip(os.sep) + os.sep for folder in self.ignored)


def _plainly_read(path: str, flags: int) -> bool:
    """Whether an `open` is of a full path `_spelled_once` leaves as it is, to read a file."""
    return (path.startswith(os.sep) and not flags & (WRITING | os.O_DIRECTORY)
            and "/./" not in path and "//" not in path and not path.endswith("/."))


def _spelled_once(path: str) -> str:
    """The path without `.` or empty segments, which name the same entry (`..` may not, through a
    link, so it stays): a file opened as `root/./docs/a.md` is the one the run hashed as
    `root/docs/a.md`, and is observed by that digest, not read again."""
    if "/./" not in path and "//" not in path and not path.endswith("/."):
        return path  # most are clean already
    return os.sep + os.sep.join(part for part in path.split(os.sep) if part not in ("", "."))


@functools.cache
def _sink() -> list[Recorder | None]:
    """The one audit hook of the process (a hook cannot be removed), and the recorder it sends notes
    to: one for the whole process, so a thread's reads are noted too."""
    sink: list[Recorder | None] = [None]
    sys.addaudithook(functools.partial(_heard, sink))
    return sink


def _heard(sink: list[Recorder | None], event: str, args: tuple) -> None:
    if event in HEARD:  # first: most events (`builtins.id`, imports) are none of these
        recorder = sink[0]
        if recorder is not None:
            recorder.hear(event, args)
    elif event in ELSEWHERE and sink[0] is not None:
        sink[0].blind = True


def _spill() -> int:
    """A file no folder holds: made in the temporary folder, a spill would change that folder's
    time as the run began, and a repository kept in that folder would never be kept to replay."""
    if hasattr(os, "memfd_create"):
        return os.memfd_create("headwater-notes", os.MFD_CLOEXEC)
    import tempfile  # only where there is no memfd: every check imports this module

    fd, name = tempfile.mkstemp(prefix="headwater-notes-")
    os.unlink(name)
    return fd


def _by_descriptor(flags: int) -> bool:
    """Whether `os.open` of a bare name with `flags` is one relative to a folder's descriptor, which
    the audit event does not carry: a file always is, and a folder when it is opened without
    following a link, as headwater opens each folder on the way down (`inplace.folder`), announced
    by its reader where it is; the folder a run starts from is opened by its own path."""
    return not flags & os.O_DIRECTORY or bool(flags & os.O_NOFOLLOW)


class Recorder:
    """Notes what the process reads while entered (see the module's docstring)."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.pid = os.getpid()
        self.cwd = os.getcwd()
        self.noted: dict[str, set[str]] = {LISTED: set(), OPENED: set(), PROBED: set()}  # paths, by what was done
        self.digests: dict[str, str] = {}  # what `READ` announced: the digest of the bytes the run read
        self.listings: dict[str, str] = {}  # what `LISTING` announced: a folder's entries as the run listed them
        self.began = 0
        self.spill = -1
        self.held_back: list[str] | None = None  # a worker's notes not yet spilled (see `_spilled`)
        self.blind = False  # another program ran: what it read was not heard, so nothing is kept

    def __enter__(self) -> Recorder:
        self.spill = _spill()  # a forked worker's notes: appended, then read back by this process
        self.began = time.time_ns()
        _sink()[0] = self
        return self

    def __exit__(self, *exc: object) -> None:
        _sink()[0] = None
        os.lseek(self.spill, 0, os.SEEK_SET)
        with os.fdopen(self.spill, "rb") as spilled:
            for note in spilled.read().decode("utf-8", "surrogateescape").split(END)[:-1]:
                fields = note.split("\0", 2)
                if len(fields) < 2 or fields[0] not in self.noted or not fields[1].startswith(os.sep):
                    self.blind = True  # a note no recorder wrote whole: what the workers read is not known
                    continue
                what, path, had = fields[0], fields[1], fields[2] if len(fields) == 3 else ""
                if not had:
                    self.noted[what].add(path)
                elif what == LISTED:
                    self.listings[path] = had
                    self.noted[LISTED].add(path)
                else:
                    self.digests[path] = had

    def hear(self, event: str, args: tuple) -> None:
        if not args:  # `WORKING` or `HANDING`: the worker starts, or is about to hand its work back
            self._working(event == WORKING)
            return
        path = args[0]
        if event == "open" and type(path) is str:  # most events
            flags = args[2] or 0
            if args[1] is None and os.sep not in path and _by_descriptor(flags):
                return  # a name opened relative to a folder's descriptor: its reader announces it
            if _plainly_read(path, flags):  # a file opened by its full, clean path to be read
                noted = self.noted[OPENED]
                if path not in noted:
                    noted.add(path)
                    self._spilled(OPENED, path, "")
                return
        if isinstance(path, int):
            return  # a folder listed by its descriptor is announced (`LISTING`) by the code that lists it
        if not isinstance(path, str):
            path = os.fsdecode(os.fspath(path if path is not None else "."))
        if event == LISTING:  # the folder is listed, and as the run listed it
            full = _spelled_once(os.path.join(self.cwd, path))
            if full not in self.listings:
                self.listings[full] = listing = "d:" + "\0".join(f"{n}/{k}" for n, k in _entries(args[1]))
                self.noted[LISTED].add(full)
                self._spilled(LISTED, full, listing)
            return
        if event == READS:
            self._read_in(_spelled_once(os.path.join(self.cwd, path)), args[1])
            return
        if event == OPENED_IN:
            self._opened_in(_spelled_once(os.path.join(self.cwd, path)), args[1])
            return
        digest = ""
        if event == "open":
            flags = args[2] or 0
            if flags & WRITING or (args[1] is None and os.sep not in path and _by_descriptor(flags)):
                return  # a write, or a name opened relative to a folder's descriptor: its reader announces it
            what = PROBED if flags & os.O_DIRECTORY else OPENED  # a folder opened to reach what it holds
        elif event == READ:  # hashed here unless the reader, which hashed the bytes anyway, says what it found
            what, digest = OPENED, "sha256:" + (args[2] if len(args) > 2 else hashlib.sha256(args[1]).hexdigest())
        else:
            what = PROBED if event == PROBE else LISTED
        self._note(what, _spelled_once(path if path.startswith(os.sep) else os.path.join(self.cwd, path)), digest)

    def _note(self, what: str, full: str, digest: str) -> None:
        noted = self.noted[what]
        if (full in self.digests) if digest else (full in noted):
            return  # noted already (a worker holds a copy of what was noted before it was forked)
        if digest:
            self.digests[full] = digest
        else:
            noted.add(full)
        self._spilled(what, full, digest)

    def _read_in(self, folder: str, read: list[tuple[str, bytes]]) -> None:
        """Each file read by name in `folder`, by the digest of its bytes: `_note` for many at once."""
        digests, inside, sha256 = self.digests, os.path.join(folder, ""), hashlib.sha256
        spilled = []
        for name, data in read:
            full = inside + name
            if full not in digests:
                digests[full] = digest = "sha256:" + sha256(data).hexdigest()
                spilled.append(f"{OPENED}\0{full}\0{digest}{END}")
        if spilled and os.getpid() != self.pid:
            self._spill_out("".join(spilled))

    def _opened_in(self, folder: str, names: list[str]) -> None:
        """Files opened by their clean relative paths under `folder`: `_note` for many at once."""
        inside, noted = os.path.join(folder, ""), self.noted[OPENED]
        fresh = [full for full in [inside + name for name in names] if full not in noted]
        noted.update(fresh)
        if fresh and os.getpid() != self.pid:
            self._spill_out("".join(f"{OPENED}\0{full}{END}" for full in fresh))

    def _spilled(self, what: str, full: str, had: str) -> None:
        """A note made in a forked worker, written where this process reads it back as it ends: its
        fields apart by a NUL and ended by two, which no path or entry name holds (nor any field
        that is never empty)."""
        if os.getpid() != self.pid:
            self._spill_out(f"{what}\0{full}\0{had}{END}" if had else f"{what}\0{full}{END}")

    def _spill_out(self, notes: str) -> None:
        """Spill notes now, or, in a worker `headwater.forked` made, hold them back until it hands
        its work back (`HANDING`): whatever this process takes from the worker was read after the
        notes of its reads were spilled, and work a worker never handed back is done again here,
        heard here. A worker forked any other way spills each note as it is made."""
        if self.held_back is not None:
            self.held_back.append(notes)
        else:
            _written(self.spill, notes.encode("utf-8", "surrogateescape"))

    def _working(self, starts: bool) -> None:
        """A worker starts (notes are held back from now on) or hands its work back (those held are
        spilled); a worker's copy of notes held before it was forked are spilled again, harmlessly."""
        if os.getpid() == self.pid:
            return  # this process's notes are its own, never spilled
        held = self.held_back
        if held:
            _written(self.spill, "".join(held).encode("utf-8", "surrogateescape"))
        self.held_back = [] if starts or held is not None else None

    def observations(self, read: Mapping[str, str]) -> tuple[Observation, ...] | None:
        """Every note under the scope observed now, or None when any of it moved since the run
        began; `read` gives the digest the run itself took of a file's bytes, by full path. What
        the run did not have in hand is observed first, and its entry's ctime asked after (a look
        by the same stat), so a change made while it is observed is caught too; then the folders
        holding what it observed so. The files of `read` come first, each kind of note after
        them in path order: a replay looks for a change in that order (`unchanged`), and what a
        user edits is most often a document."""
        if self.blind:
            return None
        known = {**read, **self.digests}
        first: list[Observation] = []
        made: list[Observation] = []
        folders: set[str] = set()  # holding what was observed as the run ends
        for what in sorted(self.noted):
            had = known if what == OPENED else self.listings if what == LISTED else {}
            paths = self.scope.held(self.noted[what].union(self.digests) if what == OPENED else self.noted[what])
            if what == OPENED:  # the files of `read` (most) at once
                first = [(what, path, "f:" + known[path]) for path in paths if path in read]
                paths = [path for path in paths if path not in read]
            for path in paths:
                found = had.get(path)
                if found is None:
                    found = _looked(what, path, self.began)
                    if found is None:
                        return None
                    folders.add(path.rpartition(os.sep)[0])
                elif what == OPENED:
                    found = "f:" + found
                made.append((what, path, found))
        if any(_changed_since(folder, self.began) for folder in folders):
            return None
        return (*first, *made)


def _written(fd: int, data: bytes) -> None:
    """All of `data`, however many writes it takes."""
    left = memoryview(data)
    while left:
        left = left[os.write(fd, left):]


def _looked(what: str, path: str, since: int) -> str | None:
    """The state of an entry the run did not have in hand, or None when it changed since `since`
    (`_changed_since`): a look (one stat) is answered by the stat it is asked of, a read or a
    listing by a stat taken after it."""
    if what != PROBED:
        found = state(what, path)
        return None if _changed_since(path, since) else found
    try:
        entry = os.lstat(path)
    except FileNotFoundError:
        return "-"
    except OSError as error:
        return f"!{error.errno}"
    return _standing(what, path, entry.st_mode) if entry.st_ctime_ns < since - SLACK_NS else None
