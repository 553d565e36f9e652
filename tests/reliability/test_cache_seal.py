"""`headwater.cachekey`'s seal: an HMAC over the parts and the SHA-256 of each piece of the last,
the pieces hashed on two threads, alike however they are read."""

from __future__ import annotations

import hashlib
import hmac
import threading

import pytest

from headwater import cachekey

SECRET = bytes(range(32))


def _one_thread(secret: bytes, name: bytes, head: bytes, payload: bytes) -> str:
    mac = hmac.new(secret, digestmod=hashlib.sha256)
    for part in (name, head):
        mac.update(len(part).to_bytes(8, "big") + part)
    mac.update(len(payload).to_bytes(8, "big"))
    for at in range(0, len(payload), cachekey.PIECE):
        mac.update(hashlib.sha256(payload[at:at + cachekey.PIECE]).digest())
    return mac.hexdigest()


@pytest.mark.parametrize("size", [0, 1, cachekey.PIECE, cachekey.PIECE + 1, 3 * cachekey.PIECE - 7])
def test_a_seal_hashed_on_two_threads_is_the_seal_of_its_pieces_hashed_in_order(size):
    payload = (bytes(range(251)) * (size // 251 + 1))[:size]
    expected = _one_thread(SECRET, b"parsed", b"a header", payload)
    assert cachekey.seal(SECRET, b"parsed", b"a header", payload) == expected


@pytest.mark.parametrize("at", [0, cachekey.PIECE + 5, 2 * cachekey.PIECE + 1])
def test_a_byte_changed_in_any_piece_changes_the_seal(at):
    payload = bytearray(3 * cachekey.PIECE)
    before = cachekey.seal(SECRET, b"parsed", b"a header", bytes(payload))
    payload[at] ^= 1
    assert cachekey.seal(SECRET, b"parsed", b"a header", bytes(payload)) != before


def test_a_piece_the_helper_thread_cannot_read_is_hashed_again_here_and_an_error_there_is_raised_here():
    payload = bytes(range(256)) * (3 * cachekey.PIECE // 256)
    failed = []

    def read(at: int, size: int) -> bytes:
        if threading.current_thread() is not threading.main_thread() and not failed:
            failed.append(at)
            raise OSError("a read that fails once, in the helper")
        return payload[at:at + size]

    raised = []
    hook, threading.excepthook = threading.excepthook, raised.append
    try:
        sealed = cachekey.sealed(SECRET, b"parsed", b"a header", rest=len(payload), read=read)
    finally:
        threading.excepthook = hook
    assert failed and sealed == _one_thread(SECRET, b"parsed", b"a header", payload)
    assert raised == []  # the helper's failure is no traceback on stderr

    def never(at: int, size: int) -> bytes:
        raise OSError("no read succeeds")

    with pytest.raises(OSError, match="no read succeeds"):
        cachekey.sealed(SECRET, b"parsed", b"a header", rest=len(payload), read=never)
    assert threading.active_count() == 1  # no helper outlives a seal: a fork after finds none


@pytest.mark.parametrize("count", [1, 2, 5])
def test_this_thread_hashes_the_even_pieces_and_one_helper_the_odd_each_read_once(count, monkeypatch):
    payload = bytes(count * cachekey.PIECE)
    reads: list[tuple[bool, int]] = []
    started = []
    raised = []
    real = threading.Thread
    monkeypatch.setattr(cachekey.threading, "Thread", lambda **kw: started.append(kw) or real(**kw))
    monkeypatch.setattr(threading, "excepthook", raised.append)

    def read(at: int, size: int) -> bytes:
        reads.append((threading.current_thread() is threading.main_thread(), at // cachekey.PIECE))
        return payload[at:at + size]

    sealed = cachekey.sealed(SECRET, b"parsed", b"a header", rest=len(payload), read=read)
    assert sealed == _one_thread(SECRET, b"parsed", b"a header", payload)
    assert sorted(reads, key=lambda read: read[1]) == [(index % 2 == 0, index) for index in range(count)]
    assert len(started) == (count > 1) and raised == []


def test_a_seal_hashed_alone_starts_no_thread_and_is_the_seal_of_two(monkeypatch):
    """A forked reader seals with one thread (`alone`): its process beside has the other core."""
    payload = bytes(range(256)) * (3 * cachekey.PIECE // 256 + 1)
    monkeypatch.setattr(cachekey.threading, "Thread", lambda **kw: pytest.fail("a helper thread was started"))
    view = memoryview(payload)
    sealed = cachekey.sealed(SECRET, b"parsed", b"a header", rest=len(payload),
                             read=lambda at, size: view[at:at + size], alone=True)
    assert sealed == _one_thread(SECRET, b"parsed", b"a header", payload)
