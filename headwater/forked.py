"""Work split across the cores: forked workers each take a share, and the parent takes one too.

A worker is forked after the parent has loaded what the work reads, so nothing is sent to it;
its result comes back pickled through a pipe. A worker that fails, a fork the system refuses,
or a platform that cannot fork, costs its share being done in the parent, never a different
answer. The fork is `os.fork` itself: `multiprocessing` would add a hundredth of a second of
imports to every run that spreads, for a process object, a pipe and a join this module needs
no more of.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")
SIZE = 8  # bytes announcing each streamed item's length; a length of 0 ends the stream
# A worker says it starts, and that it is about to hand work back, to whoever listens (the replay's
# recorder, `headwater.observed`, holds a worker's notes back in between).
WORKING, HANDING = "headwater.working", "headwater.handing"


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def workers_for(items: int, worth_it: int) -> int:
    """How many processes `items` pieces of work are worth: one per core, each with `worth_it` or more."""
    workers = max(1, min(cores(), items // max(worth_it, 1)))
    return workers if hasattr(os, "fork") else 1


class Tickets:
    """The numbers 0 … count - 1, each handed out once across this process and those forked after
    it was made, so each share takes the next piece of work as it becomes free and the shares end
    together however fast each runs (a share that dies loses only the pieces it took). They wait
    in a pipe, four bytes each, read four at a time: a read that small is never split between
    readers, and once the pipe is empty a read finds its end."""

    SIZE = 4
    MOST = (1 << 16) // SIZE  # what a pipe holds before a write would wait for a reader

    def __init__(self, count: int) -> None:
        if count > self.MOST:
            raise ValueError(f"{count} tickets do not fit in a pipe")
        self._read, write = os.pipe()
        try:
            os.write(write, b"".join(number.to_bytes(self.SIZE, "little") for number in range(count)))
        finally:
            os.close(write)

    def __iter__(self) -> Iterator[int]:
        while len(taken := os.read(self._read, self.SIZE)) == self.SIZE:
            yield int.from_bytes(taken, "little")

    def close(self) -> None:
        os.close(self._read)

    def __enter__(self) -> Tickets:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def piece_size(count: int, least: int = 1, tickets: int = Tickets.MOST) -> int:
    """Items per piece when `count` items are shared by tickets: at least `least`, and few enough
    pieces that `tickets` tickets hand them all out."""
    return max(least, -(-count // tickets))


def in_shares(work: Callable[[int, int], T], workers: int,
              pack: Callable[[T], Any] = lambda result: result) -> tuple[T, list[Any]]:
    """`work(share, workers)` for every share: share 0 here, as it is; shares 1… in forked workers,
    each as `pack` makes it for the way back (or, when its worker failed, done here and packed)."""
    if workers < 2:
        return work(0, 1), []
    import pickle  # only a run that spreads pays for its import

    started = []
    for share in range(1, workers):
        started.append((share, *_forked(work, pack, share, workers)))
    mine, results = work(0, workers), []
    for share, worker, receive in started:
        try:
            with os.fdopen(receive, "rb") as pipe:
                done, result = pickle.load(pipe)
        except (EOFError, OSError, pickle.UnpicklingError):  # the worker died, or was never forked
            done, result = False, None
        finally:
            if worker > 0:
                os.waitpid(worker, 0)
        results.append(result if done else pack(work(share, workers)))  # a failed share is done here
    return mine, results


def _forked(work: Callable[[int, int], T], pack: Callable[[T], Any], share: int, workers: int) -> tuple[int, int]:
    """A worker forked for the share, and the end of the pipe its answer comes back through; when
    the system refuses the fork (no memory, too many processes), no worker and a pipe that reads
    as empty, so the share is done here."""
    receive, send = os.pipe()
    try:
        worker = os.fork()
    except OSError:
        worker = -1
    if worker == 0:  # the child: never returns
        os.close(receive)
        _worker(work, pack, share, workers, send)
        os._exit(1)
    os.close(send)
    return worker, receive


def _worker(work: Callable[[int, int], T], pack: Callable[[T], Any], share: int, workers: int, send: int) -> None:
    """A forked child's whole life: its share, packed and sent, then `os._exit` (no cleanup the
    parent owns runs twice, and no buffered output is written twice)."""
    import pickle

    try:
        sys.audit(WORKING)
        try:
            answer = (True, pack(work(share, workers)))
        except Exception:  # noqa: BLE001 — the parent does the share again, and reports what fails there
            answer = (False, None)
        sys.audit(HANDING)
        with os.fdopen(send, "wb") as pipe:
            pickle.dump(answer, pipe, pickle.HIGHEST_PROTOCOL)
    except BaseException:  # interrupted with the parent (Ctrl-C reaches the group), or the parent is gone
        os._exit(1)
    os._exit(0)



def streamed(produce: Callable[[T | None], Iterator[T]], meanwhile: Callable[[], object]) -> Iterator[T]:
    """`produce(None)`'s items, made by a forked worker while `meanwhile()` runs here, then taken
    as they come, so this process works on the first while the worker makes the last. Should the
    worker fail part way (or never be forked), `produce(last)` here makes the rest, `last` being
    the last item that came (None: none did). Each item is pickled into a spool no folder holds
    and only its length goes through the pipe, so the worker never waits for this process."""
    import pickle  # only a run that spreads pays for its import

    spool = _spool()
    receive, send = os.pipe()
    try:
        worker = os.fork()
    except OSError:  # refused: everything is made here
        worker = -1
    if worker == 0:  # the child: never returns
        os.close(receive)
        _producer(produce, spool, send)
    os.close(send)
    last, offset, ended = None, 0, False
    try:
        with os.fdopen(receive, "rb") as pipe:
            meanwhile()
            while not ended and len(told := pipe.read(SIZE)) == SIZE:
                length = int.from_bytes(told, "little")
                ended = length == 0
                data = os.pread(spool, length, offset) if length else b""
                if len(data) != length:
                    break
                if length:
                    offset += length
                    last = pickle.loads(data)
                    yield last
        if not ended:
            yield from produce(last)
    finally:
        os.close(spool)
        if worker > 0:
            os.waitpid(worker, 0)


def _spool() -> int:
    """A file no folder holds (memory, where the system offers it)."""
    if hasattr(os, "memfd_create"):
        return os.memfd_create("headwater-stream", os.MFD_CLOEXEC)
    import tempfile

    fd, name = tempfile.mkstemp(prefix="headwater-stream-")
    os.unlink(name)
    return fd


def _producer(produce: Callable[[T | None], Iterator[T]], spool: int, send: int) -> None:
    """A streaming child's whole life: each item pickled into the spool and its length sent, then
    a length of 0 (the end), then `os._exit`. One that fails sends no end: the parent makes the rest."""
    import pickle

    try:
        sys.audit(WORKING)
        try:
            for item in produce(None):
                data = pickle.dumps(item, pickle.HIGHEST_PROTOCOL)
                left = memoryview(data)
                while left:
                    left = left[os.write(spool, left):]
                sys.audit(HANDING)
                os.write(send, len(data).to_bytes(SIZE, "little"))  # a pipe takes a write this small whole
            sys.audit(HANDING)
            os.write(send, bytes(SIZE))
        except Exception:  # noqa: BLE001, S110 — the parent makes the rest, and reports what fails there
            pass
    except BaseException:  # interrupted with the parent, or the parent is gone
        os._exit(1)
    os._exit(0)
