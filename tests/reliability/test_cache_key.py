"""Where the cache key lives and how it comes to be: this user's alone, created only when asked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from headwater import cachekey


@pytest.fixture
def no_key_home(monkeypatch, tmp_path):
    """Neither variable set, and a home of this test's own."""
    monkeypatch.delenv("HEADWATER_KEY_HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return tmp_path


def test_the_key_folder_is_headwater_key_home_else_the_xdg_cache_else_the_home_cache(no_key_home, monkeypatch):
    assert cachekey.folder() == no_key_home / "home" / ".cache" / "headwater"
    monkeypatch.setenv("XDG_CACHE_HOME", str(no_key_home / "xdg"))
    assert cachekey.folder() == no_key_home / "xdg" / "headwater"
    monkeypatch.setenv("HEADWATER_KEY_HOME", str(no_key_home / "explicit"))
    assert cachekey.folder() == no_key_home / "explicit"


def test_a_missing_key_is_none_and_nothing_is_created_unless_asked(no_key_home):
    assert cachekey.key(create=False) is None
    assert not (no_key_home / "home").exists()


def test_a_key_asked_for_is_created_private_in_a_private_folder_and_kept(no_key_home, monkeypatch):
    home = no_key_home / "nested" / "key-home"  # neither folder exists yet
    monkeypatch.setenv("HEADWATER_KEY_HOME", str(home))
    previous = os.umask(0o022)
    try:
        created = cachekey.key(create=True)
    finally:
        os.umask(previous)
    assert created is not None and len(created) == cachekey.SIZE
    assert (home.stat().st_mode & 0o777, (home / cachekey.KEY_FILE).stat().st_mode & 0o777) == (0o700, 0o600)
    assert cachekey.key(create=True) == cachekey.key(create=False) == created


def test_a_key_file_someone_else_could_read_is_no_key_and_is_never_replaced(no_key_home, monkeypatch):
    home = Path(no_key_home / "shared")
    home.mkdir()
    monkeypatch.setenv("HEADWATER_KEY_HOME", str(home))
    spoilt = home / cachekey.KEY_FILE
    spoilt.write_bytes(b"k" * cachekey.SIZE)
    spoilt.chmod(0o640)
    assert cachekey.key(create=True) is None
    assert spoilt.read_bytes() == b"k" * cachekey.SIZE  # created exclusively: an existing file is left as it is


def test_a_key_file_another_user_owns_is_no_key(no_key_home, monkeypatch):
    home = no_key_home / "theirs"
    home.mkdir()
    monkeypatch.setenv("HEADWATER_KEY_HOME", str(home))
    (home / cachekey.KEY_FILE).write_bytes(b"k" * cachekey.SIZE)
    (home / cachekey.KEY_FILE).chmod(0o600)
    assert cachekey.key(create=False) == b"k" * cachekey.SIZE
    monkeypatch.setattr(os, "getuid", lambda: os.stat(home).st_uid + 1)
    assert cachekey.key(create=False) is None


def test_a_home_that_is_not_there_is_never_made_and_the_run_goes_uncached(no_key_home):
    # `nobody`'s home, /nonexistent, and many a container user's
    assert cachekey.key(create=True) is None
    assert not (no_key_home / "home").exists()


@pytest.mark.parametrize("damaged", [b"", b"cut s", b"k" * (cachekey.SIZE + 1)], ids=["empty", "short", "long"])
def test_a_private_key_file_of_another_size_is_replaced_whole_when_a_key_is_asked_for(no_key_home, monkeypatch,
                                                                                      damaged):
    home = no_key_home / "keys"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("HEADWATER_KEY_HOME", str(home))
    spoilt = home / cachekey.KEY_FILE
    spoilt.write_bytes(damaged)  # a write cut short, by a run killed or a disk that filled
    spoilt.chmod(0o600)
    assert cachekey.key(create=False) is None  # a read never writes
    replaced = cachekey.key(create=True)
    assert replaced is not None and len(replaced) == cachekey.SIZE
    assert spoilt.read_bytes() == replaced and spoilt.stat().st_mode & 0o777 == 0o600
    assert sorted(os.listdir(home)) == [cachekey.KEY_FILE]  # no temp file stays beside it
    assert cachekey.key(create=True) == replaced
