"""One writer at a time, and a write run that an interrupt cannot cut in half.

Every run that writes holds an exclusive `fcntl` lock on `.headwater/cache/lock` (the cache
directory, which the lock creates with a `.gitignore` of `*`) while it
checks and writes, so a check-then-write (a far half, a `--fix` batch) cannot be overtaken by
another run between its check and its write. A write run (`sweep=True`) first removes the temp
files a killed run left behind. While the lock is held, SIGINT and SIGTERM raise `Interrupted`
(a refusal) at the next safe point, so the batch's own failure path puts back what it wrote,
exactly as on a failed write; `steady()` holds them off across one write and its bookkeeping.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

from headwater import atomic
from headwater.errors import Refusal
from headwater.statefolder import CACHE

DIRECTORY = CACHE  # disposable, and it ignores itself
LOCK_NAME = "lock"
LOCK = f"{DIRECTORY}/{LOCK_NAME}"
SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Unavailable(Refusal):
    """The lock could not be taken (a read-only file system, a file where the folder goes)."""

    def __init__(self, why: str) -> None:
        super().__init__(f"the write lock {LOCK} could not be taken ({why}), so nothing was written")
        self.why = why


class Interrupted(Refusal):
    """SIGINT or SIGTERM arrived while a write run held the lock; `number` names it, for a process
    that answers the run's refusal and goes on (the MCP server) still owes it the ending it asks for."""

    def __init__(self, number: int) -> None:
        super().__init__(f"the run was interrupted ({signal.Signals(number).name})")
        self.number = number


@contextlib.contextmanager
def held(root: Path, *, sweep: bool = True, wait: bool = True) -> Iterator[None]:
    """The lock on `root`, with interrupts turned into `Interrupted`; released whatever happens.
    With `wait` false, a lock another run holds is `Unavailable` at once rather than waited for."""
    try:
        fd = _locked(root, wait)
    except BlockingIOError:
        raise Unavailable("another run holds it") from None
    except OSError as error:
        raise Unavailable(error.strerror or str(error)) from None
    try:
        if sweep:
            atomic.sweep(root)
        with interruptible():
            yield
    finally:
        os.close(fd)


def _locked(root: Path, wait: bool) -> int:
    """The lock file's descriptor, locked; the folder ignores itself from the start."""
    with atomic.directory_of(root, root / LOCK) as (directory, name):
        fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600, dir_fd=directory)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
            with contextlib.suppress(FileExistsError):  # two bytes: no half-written file to fear
                ignore = os.open(".gitignore", os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644,
                                 dir_fd=directory)
                os.write(ignore, b"*\n")
                os.close(ignore)
        except BaseException:
            os.close(fd)
            raise
    return fd


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """SIGINT and SIGTERM raised as `Interrupted` while the block runs, so what it holds is put back
    or cleaned up (Python's own SIGTERM ends the process with no clean-up at all); once: a second
    signal must not cut that short."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread receives signals
        return
    raised: list[int] = []

    def interrupt(number: int, _frame) -> None:
        if not raised:
            raised.append(number)
            raise Interrupted(number)

    previous = {number: signal.signal(number, interrupt) for number in SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def steady() -> Iterator[None]:
    """Hold SIGINT and SIGTERM off until the block is done: a write and the note that it was made
    land together, so the put-back never misses a file."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)  # what the caller blocked stays blocked
