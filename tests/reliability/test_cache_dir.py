"""`headwater.cachedir`: a cache file is read only as this repository's own, sealed with this user's
key and reached by no symlink; its first line is read whole whatever its length; a write waits its
turn at the write lock and leaves every other writer's temp files alone."""

from __future__ import annotations

import errno
import os
import threading
import time

import pytest

from headwater import atomic, cachedir, cachekey, writelock

HEADER = "headwater test cache v1"


def _written(root, name: str, payload: bytes) -> None:
    assert cachedir.write(root, name, HEADER, payload) is None


def test_a_cache_file_reached_through_a_symlinked_cache_folder_is_not_read(tmp_path):
    elsewhere, root = tmp_path / "elsewhere", tmp_path / "repo"
    elsewhere.mkdir()
    root.mkdir()
    _written(elsewhere, "kept", b"first\nsecond\n")  # sealed with this user's key: only the link is wrong
    os.makedirs(root / ".headwater")
    os.symlink(elsewhere / cachedir.CACHE_DIR, root / cachedir.CACHE_DIR)
    assert cachedir.read(elsewhere, "kept", HEADER) == b"first\nsecond\n"
    assert cachedir.read(root, "kept", HEADER) is None
    assert cachedir.first_line(root, "kept", HEADER) is None


def test_reading_a_cache_creates_no_key(tmp_path, monkeypatch):
    monkeypatch.setenv("HEADWATER_KEY_HOME", str(tmp_path / "home"))
    assert cachedir.read(tmp_path, "kept", HEADER) is None
    assert cachedir.first_line(tmp_path, "kept", HEADER) is None
    assert cachekey.key(create=False) is None and not (tmp_path / "home").exists()


@pytest.mark.parametrize(("payload", "first"), [
    (b"", b""),
    (b"\nthe rest\n", b""),
    (b"no line break at all", b"no line break at all"),
    (b"x" * 20_000 + b"\nthe rest\n", b"x" * 20_000),
    (b"one\n" + bytes(3 * cachekey.PIECE + 7), b"one"),  # a payload sealed in pieces, each read where it lies
])
def test_the_first_line_of_a_payload_is_read_whole_and_verified(tmp_path, payload, first):
    _written(tmp_path, "kept", payload)
    assert cachedir.first_line(tmp_path, "kept", HEADER) == first
    assert cachedir.read(tmp_path, "kept", HEADER) == payload


def test_a_first_line_whose_payload_was_changed_after_it_is_not_trusted(tmp_path):
    _written(tmp_path, "kept", b"one\n" + bytes(2 * cachekey.PIECE))
    path = tmp_path / cachedir.CACHE_DIR / "kept"
    data = bytearray(path.read_bytes())
    data[-1] ^= 1  # in the last piece, far from the line asked for
    path.write_bytes(bytes(data))
    assert cachedir.first_line(tmp_path, "kept", HEADER) is None


def test_a_cache_write_leaves_the_temp_files_of_other_writers_alone(tmp_path):
    planted = tmp_path / "docs" / f"{atomic.TEMP_PREFIX}another-run"
    planted.parent.mkdir()
    planted.write_bytes(b"half a write\n")
    _written(tmp_path, "kept", b"payload\n")
    assert planted.read_bytes() == b"half a write\n"


def test_a_cache_write_waits_for_the_run_that_holds_the_write_lock(tmp_path):
    holding, letting_go = threading.Event(), threading.Event()

    def hold() -> None:
        with writelock.held(tmp_path, sweep=False):
            holding.set()
            time.sleep(0.3)
            letting_go.set()  # before the lock is let go, so the write cannot have finished first

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait()
    assert cachedir.write(tmp_path, "kept", HEADER, b"after the other run\n") is None
    assert letting_go.is_set()  # it waited: the lock was free only once the other run let go
    holder.join()
    assert cachedir.read(tmp_path, "kept", HEADER) == b"after the other run\n"
    with writelock.held(tmp_path, sweep=False):
        refused = cachedir.write(tmp_path, "kept", HEADER, b"now\n", wait=False)
    assert refused == f"headwater: the cache was not written ({cachedir.CACHE_DIR}: another run holds it)"


def test_a_cache_write_that_fails_says_why_in_the_system_s_words(tmp_path):
    _written(tmp_path, "other", b"the folder exists\n")
    (tmp_path / cachedir.CACHE_DIR / "kept").mkdir()  # a folder where the file goes
    refused = cachedir.write(tmp_path, "kept", HEADER, b"payload\n")
    assert refused == f"headwater: the cache was not written ({cachedir.CACHE_DIR}/kept: Is a directory)"


def test_a_pipe_where_a_cache_file_goes_is_neither_opened_nor_replaced(tmp_path):
    _written(tmp_path, "other", b"the folder exists\n")
    os.mkfifo(tmp_path / cachedir.CACHE_DIR / "kept")
    refused = cachedir.write(tmp_path, "kept", HEADER, b"payload\n")
    assert refused == f"headwater: the cache was not written ({cachedir.CACHE_DIR}/kept: not a regular file)"
    assert (tmp_path / cachedir.CACHE_DIR / "kept").is_fifo()


def test_a_file_where_a_folder_of_the_path_must_be_names_that_folder(tmp_path):
    (tmp_path / "docs").write_text("a file\n")
    with pytest.raises(NotADirectoryError) as refused:
        atomic.write_bytes(tmp_path / "docs/decisions/x.md", b"x\n", root=tmp_path)
    assert (refused.value.errno, refused.value.strerror, refused.value.filename) == (
        errno.ENOTDIR, "a file where a folder must be", "docs")


@pytest.mark.parametrize(("make", "raised", "said"), [(os.mkdir, IsADirectoryError, "Is a directory"),
                                                      (os.mkfifo, FileExistsError, "not a regular file")])
def test_a_write_over_anything_but_a_regular_file_is_refused_as_what_stands_there(tmp_path, make, raised, said):
    make(tmp_path / "target")
    with pytest.raises(raised) as refused:
        atomic.write_bytes(tmp_path / "target", b"x\n", root=tmp_path)
    assert (refused.value.strerror, refused.value.filename) == (said, "target")
