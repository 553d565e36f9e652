"""What a run read of the file system: noted as it reads, observed as it ends, observed again later.

A `Recorder` notes, through the process's one audit hook (PEP 578), every path the process opens
to read and every directory it lists (`os.listdir`, `os.scandir`). What Python raises no event
for, the code announces: a path it only looks at (a stat, a test for existence or type, a link
read) as `headwater.probe`, a folder it lists by its descriptor as `headwater.lists`, and a file
it opens by a name relative to a folder's descriptor as `headwater.read` with the bytes it read
(each folder on the way announced as a probe). Every thread is heard; a forked worker notes into a
file the recorder shares with it; a run that starts another program (whose reads no hook hears)
keeps nothing. `Recorder.observations` turns the notes into observations, each a path and the
state `state` finds there: a file by the digest of its bytes, a listing by its names and entry
types, a probe by the entry's type (a link by where it points), an absent path as absent.
`unchanged` makes each observation again, reading every file again: an observation is never
trusted from a stat.

Where the run has a file's bytes or a folder's entries in hand it announces them (`READ`,
`LISTING`), and the observation is what the run itself read. Anything else is observed as the run
ends, so a path that moved while the run read it would pair this run's answer with bytes it did
not read: `Recorder.observations` gives nothing when such an entry, or the folder holding any
observed path, changed (by its ctime, which no one can set back) since the run began, less a tick
of the file system's coarse clock.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import os
import stat
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

PROBE = "headwater.probe"  # sys.audit(PROBE, path) where the load stats, tests or reads a link
READ = "headwater.read"  # sys.audit(READ, path, data) where the load has a file's bytes in hand
LISTING = "headwater.listed"  # sys.audit(LISTING, path, entries) where it has a folder's `os.DirEntry`s
LISTS = "headwater.lists"  # sys.audit(LISTS, path) where it lists a folder by its descriptor
OPENED, LISTED, PROBED = "open", "list", "probe"
WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
SLACK_NS = 50_000_000  # a file system stamps times from a clock one tick (≤ 10 ms) coarse
HEARD = frozenset({"open", "os.listdir", "os.scandir", PROBE, READ, LISTING, LISTS})
ELSEWHERE = frozenset({"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn"})  # reads unheard
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
    """Whether every observation, made again now, finds what it found (the first change stops).
    The entries whose ctime moved since the recording run began are made first, so an edit costs
    one read to find, not half the corpus: a stat only orders the work, it never answers."""
    first = [o for o in observations if _changed_since(o[1], since) is not False]
    return all(state(what, path) == found for what, path, found in itertools.chain(first, observations))


def _changed_since(path: str, since: int) -> bool | None:
    """Whether the entry's ctime is within a clock tick of `since` or later (None: nothing there)."""
    try:
        return os.lstat(path).st_ctime_ns >= since - SLACK_NS
    except OSError:
        return None


@dataclass(frozen=True)
class Scope:
    """Which notes are observations: every path but those whose bytes are no input to the answer
    (the disposable cache, which can only save work, and the key that seals it) and the bytecode
    of modules imported on the way (the program's fingerprint in the key covers the code)."""

    ignored: tuple[str, ...]

    def holds(self, path: str) -> bool:
        clean = os.path.normpath(path) if "/." in path or "//" in path else path  # most are clean already
        return "/__pycache__/" not in clean and not any(_under(clean, f) for f in self.ignored)


def _spelled_once(path: str) -> str:
    """The path without `.` or empty segments, which name the same entry (`..` may not, through a
    link, so it stays): a file opened as `root/./docs/a.md` is the one the run hashed as
    `root/docs/a.md`, and is observed by that digest, not read again."""
    if "/./" not in path and "//" not in path and not path.endswith("/."):
        return path  # most are clean already
    return os.sep + os.sep.join(part for part in path.split(os.sep) if part not in ("", "."))


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


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
    fd, name = tempfile.mkstemp(prefix="headwater-notes-")
    os.unlink(name)
    return fd


class Recorder:
    """Notes what the process reads while entered (see the module's docstring)."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.pid = os.getpid()
        self.cwd = os.getcwd()
        self.notes: set[tuple[str, str]] = set()
        self.digests: dict[str, str] = {}  # what `READ` announced: the digest of the bytes the run read
        self.listings: dict[str, str] = {}  # what `LISTING` announced: a folder's entries as the run listed them
        self.began = 0
        self.spill = -1
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
            for line in spilled.read().decode("utf-8", "surrogateescape").splitlines():
                what, path, *digest = line.split("\0")
                if digest:
                    self.digests[path] = digest[0]
                self.notes.add((OPENED if digest else what, path))

    def hear(self, event: str, args: tuple) -> None:
        path = args[0]
        if isinstance(path, int):
            return  # a folder listed by its descriptor is announced (`LISTS`) by the code that lists it
        if not isinstance(path, str):
            path = os.fsdecode(os.fspath(path if path is not None else "."))
        if event == LISTING:  # kept in this process alone: a worker's listing is noted, and listed again
            entries = "\0".join(f"{n}/{k}" for n, k in _entries(args[1]))
            self.listings[_spelled_once(os.path.join(self.cwd, path))] = "d:" + entries
            return
        digest = ""
        if event == "open":
            flags = args[2] or 0
            if flags & WRITING or (args[1] is None and os.sep not in path and not flags & os.O_DIRECTORY):
                return  # a write, or a name opened relative to a folder's descriptor: its reader announces it
            what = PROBED if flags & os.O_DIRECTORY else OPENED  # a folder opened to reach what it holds
        elif event == READ:
            what, digest = OPENED, "sha256:" + hashlib.sha256(args[1]).hexdigest()
        else:
            what = PROBED if event == PROBE else LISTED
        self._note(what, _spelled_once(path if path.startswith(os.sep) else os.path.join(self.cwd, path)), digest)

    def _note(self, what: str, full: str, digest: str) -> None:
        if (full in self.digests) if digest else ((what, full) in self.notes):
            return  # noted already (a worker holds a copy of what was noted before it was forked)
        if digest:
            self.digests[full] = digest
        else:
            self.notes.add((what, full))
        if os.getpid() != self.pid:
            line = f"{what}\0{full}\0{digest}\n" if digest else f"{what}\0{full}\n"
            os.write(self.spill, line.encode("utf-8", "surrogateescape"))

    def observations(self, read: Mapping[str, str]) -> tuple[Observation, ...] | None:
        """Every note under the scope observed now, or None when any of it moved since the run
        began (asked first, so a run that moved keeps nothing at no cost); `read` gives the digest
        the run itself took of a file's bytes, by full path."""
        if self.blind:
            return None
        known = {**read, **self.digests}
        kept = [(what, path, known.get(path) if what == OPENED else self.listings.get(path) if what == LISTED else None)
                for what, path in sorted({*self.notes, *((OPENED, path) for path in self.digests)})
                if self.scope.holds(path)]
        watched = {path.rpartition(os.sep)[0] for _, path, _ in kept} | {path for _, path, had in kept if not had}
        if any(_changed_since(path, self.began) for path in watched):
            return None
        return tuple((what, path, (("f:" + had) if what == OPENED else had) if had else state(what, path))
                     for what, path, had in kept)
