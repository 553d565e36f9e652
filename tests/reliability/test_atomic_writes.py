"""Atomic writes: exact bytes in one step, an existing file's mode kept, a new file's mode from the
umask, and no temp file left behind, whether the write lands or fails."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from headwater import atomic


@pytest.fixture
def umask():
    """Set the process umask for one test, and put the old one back."""
    old = os.umask(0o022)
    os.umask(old)

    def set_to(mask: int) -> None:
        os.umask(mask)

    yield set_to
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("kept", [0o640, 0o751, 0o604, 0o2750])
def test_replacing_a_file_keeps_its_mode_whatever_the_umask(tmp_path, umask, kept):
    target = tmp_path / "doc.md"
    target.write_bytes(b"old\n")
    target.chmod(kept)
    umask(0o077)
    atomic.write_bytes(target, b"new\n")
    assert target.read_bytes() == b"new\n" and mode(target) == kept


@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664), (0o000, 0o666)])
def test_a_new_file_gets_the_mode_open_would_give_it_and_the_umask_stays(tmp_path, umask, mask, expected):
    umask(mask)
    atomic.write_bytes(tmp_path / "new.md", b"a")
    atomic.create_exclusive(tmp_path / "claim", b"b")
    assert mode(tmp_path / "new.md") == mode(tmp_path / "claim") == expected
    assert os.umask(mask) == mask  # reading the umask did not change it


def test_a_write_lands_exactly_and_leaves_nothing_else_beside_it(tmp_path):
    target = tmp_path / "deep" / "er" / "doc.md"
    atomic.write_bytes(target, b"first\n")
    atomic.write_bytes(target, b"second, longer\n")
    atomic.write_bytes(target, b"")
    assert target.read_bytes() == b""
    assert sorted(os.listdir(target.parent)) == ["doc.md"]


def test_a_write_that_fails_before_the_rename_leaves_the_target_and_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "doc.md"
    target.write_bytes(b"kept\n")

    def full(_fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        atomic.write_bytes(target, b"lost\n")
    with pytest.raises(OSError, match="No space left"):
        atomic.create_exclusive(tmp_path / "claim", b"lost\n")
    assert target.read_bytes() == b"kept\n"
    assert sorted(os.listdir(tmp_path)) == ["doc.md"]


def test_an_exclusive_create_publishes_the_whole_file_once_and_never_replaces_one(tmp_path):
    claim = tmp_path / "ids" / "ACME-DR-0001"
    atomic.create_exclusive(claim, b"docs/decisions/0001.md\n")
    assert claim.read_bytes() == b"docs/decisions/0001.md\n"
    with pytest.raises(FileExistsError):
        atomic.create_exclusive(claim, b"someone/else.md\n")
    assert claim.read_bytes() == b"docs/decisions/0001.md\n"
    assert sorted(os.listdir(claim.parent)) == ["ACME-DR-0001"]
