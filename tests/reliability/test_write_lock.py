"""The write lock and its interrupts, in-process: what the lock leaves on disk, how a lock it cannot
take reads, and what a signal does while it is held. `test_interrupts.py` sends the signals to
real runs; these pin the pieces those runs are made of."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest

from headwater import atomic, writelock
from headwater.writelock import Interrupted, Unavailable


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_the_lock_is_a_private_file_in_a_cache_folder_that_ignores_itself(tmp_path):
    with writelock.held(tmp_path):
        lock = tmp_path / ".headwater" / "cache" / "lock"
        assert lock.is_file() and lock.stat().st_mode & 0o777 == 0o600
    ignore = tmp_path / ".headwater" / "cache" / ".gitignore"
    assert ignore.read_bytes() == b"*\n" and ignore.stat().st_mode & 0o777 == 0o644 & ~_umask()


def test_a_gitignore_already_in_the_cache_folder_is_left_as_it_is(tmp_path):
    ignore = tmp_path / ".headwater" / "cache" / ".gitignore"
    ignore.parent.mkdir(parents=True)
    ignore.write_bytes(b"# mine\n")
    with writelock.held(tmp_path):
        pass
    assert ignore.read_bytes() == b"# mine\n"


def test_a_lock_another_run_holds_is_unavailable_at_once_when_the_run_will_not_wait(tmp_path):
    with writelock.held(tmp_path, sweep=False), pytest.raises(Unavailable) as refused, \
            writelock.held(tmp_path, wait=False):
        pass
    assert refused.value.why == "another run holds it"
    assert str(refused.value) == ("the write lock .headwater/cache/lock could not be taken (another run holds it), "
                                  "so nothing was written")
    with writelock.held(tmp_path, wait=False):  # let go when the holder's block ended
        pass


def test_a_file_where_the_cache_folder_goes_makes_the_lock_unavailable_in_the_system_s_words(tmp_path):
    (tmp_path / ".headwater").mkdir()
    (tmp_path / ".headwater" / "cache").write_text("a file\n")
    with pytest.raises(Unavailable) as refused, writelock.held(tmp_path):
        pass
    assert str(refused.value) == ("the write lock .headwater/cache/lock could not be taken (a file where a folder "
                                  "must be), so nothing was written")


def test_the_lock_is_let_go_when_its_block_fails(tmp_path):
    with pytest.raises(RuntimeError), writelock.held(tmp_path):
        raise RuntimeError("the batch failed")
    with writelock.held(tmp_path, wait=False):
        pass


def test_a_link_where_the_lock_file_goes_is_refused_and_never_followed(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_bytes(b"not a lock\n")
    cache = tmp_path / ".headwater" / "cache"
    cache.mkdir(parents=True)
    (cache / "lock").symlink_to(target)
    with pytest.raises(atomic.Unconfined) as refused, writelock.held(tmp_path):
        pass
    assert str(refused.value) == "`.headwater/cache/lock` is a symlink, and headwater writes nothing through a symlink"
    assert target.read_bytes() == b"not a lock\n" and not (cache / ".gitignore").exists()


def test_a_write_run_sweeps_the_temp_files_a_killed_run_left_and_a_cache_write_does_not(tmp_path):
    left = tmp_path / "docs" / f"{atomic.TEMP_PREFIX}ACME-DR-0001.0a1b2c3d"
    left.parent.mkdir()
    left.write_bytes(b"half a write\n")
    with writelock.held(tmp_path, sweep=False):
        pass
    assert left.exists()
    with writelock.held(tmp_path):
        pass
    assert not left.exists()


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_the_lock_is_held_is_raised_once_as_interrupted_and_the_handlers_come_back(tmp_path, number):
    before = {n: signal.getsignal(n) for n in writelock.SIGNALS}
    with pytest.raises(Interrupted) as interrupted, writelock.held(tmp_path):
        os.kill(os.getpid(), number)
        signal.pthread_sigmask(signal.SIG_BLOCK, set())  # a point at which Python runs the handler
    assert interrupted.value.number == number
    assert str(interrupted.value) == f"the run was interrupted ({signal.Signals(number).name})"
    assert {n: signal.getsignal(n) for n in writelock.SIGNALS} == before


def test_a_second_signal_does_not_cut_short_the_clean_up_the_first_started():
    put_back = []
    with pytest.raises(Interrupted) as interrupted, writelock.interruptible():
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            signal.pthread_sigmask(signal.SIG_BLOCK, set())
        finally:
            os.kill(os.getpid(), signal.SIGINT)  # the clean-up goes on past it
            signal.pthread_sigmask(signal.SIG_BLOCK, set())
            put_back.append("done")
    assert interrupted.value.number == signal.SIGTERM and put_back == ["done"]


def test_off_the_main_thread_the_lock_neither_sets_handlers_nor_blocks_signals(tmp_path):
    seen = []

    def run() -> None:
        with writelock.held(tmp_path):
            seen.append(signal.getsignal(signal.SIGINT))
        with writelock.steady():
            seen.append(signal.pthread_sigmask(signal.SIG_BLOCK, set()))

    before_handler = signal.getsignal(signal.SIGINT)
    before_mask = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    assert seen == [before_handler, before_mask]


def test_the_lock_is_taken_under_the_root_it_is_given(tmp_path: Path):
    (tmp_path / "a").mkdir()
    with writelock.held(tmp_path / "a"):
        assert (tmp_path / "a" / writelock.LOCK).is_file() and not (tmp_path / ".headwater").exists()
