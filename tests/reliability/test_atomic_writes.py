"""`headwater.atomic`: every write complete or absent, under the root, never through a symlink."""

from __future__ import annotations

import errno
import os

import pytest

from headwater import atomic
from headwater.atomic import TEMP_PREFIX, Unconfined, Unwritable


@pytest.mark.parametrize("path", ["../x", "/etc/x", "a//b", "a/./b", "a/../../x", ""])
def test_a_path_that_is_not_strictly_under_the_root_is_refused_and_nothing_is_written(tmp_path, path):
    root = tmp_path / "root"
    root.mkdir()
    with pytest.raises(Unconfined, match="is not a path under the repository root"):
        atomic.write_bytes(path, b"x", root=root)
    assert list(tmp_path.rglob("*")) == [root]


def test_missing_folders_are_created_and_the_file_lands_whole(tmp_path):
    atomic.write_bytes(tmp_path / "a" / "b" / "c.md", b"whole\n", root=tmp_path)
    assert (tmp_path / "a/b/c.md").read_bytes() == b"whole\n"
    assert [p.name for p in tmp_path.rglob("*") if p.name.startswith(TEMP_PREFIX)] == []


def test_a_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "script.sh"
    target.write_bytes(b"old\n")
    target.chmod(0o751)
    atomic.write_bytes(target, b"new\n", root=tmp_path)
    assert target.read_bytes() == b"new\n" and target.stat().st_mode & 0o7777 == 0o751


def test_a_new_file_gets_the_mode_open_would_give_it(tmp_path):
    previous = os.umask(0o027)
    try:
        atomic.write_bytes(tmp_path / "new.md", b"x", root=tmp_path)
        atomic.create_exclusive(tmp_path / "claim", b"x", root=tmp_path)
    finally:
        os.umask(previous)
    assert (tmp_path / "new.md").stat().st_mode & 0o777 == 0o640
    assert (tmp_path / "claim").stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize("write", ["write_bytes", "create_exclusive", "append", "remove"])
@pytest.mark.parametrize("linked", ["folder", "file"])
def test_no_write_passes_a_symlink_in_the_folders_or_at_the_file(tmp_path, write, linked):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "f").write_bytes(b"theirs\n")
    if linked == "folder":
        os.symlink(outside, root / "state")
        target, named = root / "state" / "f", "`state`"
    else:
        os.symlink(outside / "f", root / "f")
        target, named = root / "f", "`f`"
    arguments = (target,) if write == "remove" else (target, b"ours\n")
    with pytest.raises(Unconfined, match=f"{named} is a symlink"):
        getattr(atomic, write)(*arguments, root=root)
    assert (outside / "f").read_bytes() == b"theirs\n" and os.listdir(outside) == ["f"]


def test_create_exclusive_never_replaces_a_file(tmp_path):
    (tmp_path / "claim").write_bytes(b"first\n")
    with pytest.raises(FileExistsError):
        atomic.create_exclusive(tmp_path / "claim", b"second\n", root=tmp_path)
    assert (tmp_path / "claim").read_bytes() == b"first\n"
    assert [p.name for p in tmp_path.iterdir()] == ["claim"]


def test_append_adds_and_remove_takes_away_even_what_is_gone(tmp_path):
    atomic.append(tmp_path / "log" / "cost.jsonl", b"one\n", root=tmp_path)
    atomic.append(tmp_path / "log" / "cost.jsonl", b"two\n", root=tmp_path)
    assert (tmp_path / "log/cost.jsonl").read_bytes() == b"one\ntwo\n"
    atomic.remove(tmp_path / "log" / "cost.jsonl", root=tmp_path)
    atomic.remove(tmp_path / "log" / "cost.jsonl", root=tmp_path)
    assert not (tmp_path / "log/cost.jsonl").exists()


def test_a_temp_name_fits_a_file_system_even_for_the_longest_name(tmp_path):
    name = "é" * 125 + ".md"  # 253 bytes: the name fits, and its temp name (cut at a character) must too
    atomic.write_bytes(tmp_path / name, b"x", root=tmp_path)
    assert (tmp_path / name).read_bytes() == b"x"


def test_sweep_removes_temp_files_and_staging_folders_but_nothing_else(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / f"{TEMP_PREFIX}a.md.0a1b2c3d").write_bytes(b"half")
    (tmp_path / "docs" / "a.md").write_bytes(b"kept")
    (tmp_path / f"{TEMP_PREFIX}pkg.0a1b2c3d" / "sub").mkdir(parents=True)
    (tmp_path / f"{TEMP_PREFIX}pkg.0a1b2c3d" / "sub" / "f.yml").write_bytes(b"staged")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / f"{TEMP_PREFIX}theirs").write_bytes(b"git's own")
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / f"{TEMP_PREFIX}x").write_bytes(b"not ours to remove")
    os.symlink(outside, tmp_path / "link")
    atomic.sweep(tmp_path)
    left = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    assert left == [".git", f".git/{TEMP_PREFIX}theirs", "docs", "docs/a.md", "link"]
    assert (outside / f"{TEMP_PREFIX}x").exists()


@pytest.fixture
def umask():
    """Set the process umask for one test, and put the old one back."""
    old = os.umask(0o022)
    os.umask(old)
    yield os.umask
    os.umask(old)


@pytest.mark.parametrize("kept", [0o640, 0o604, 0o2750])
def test_a_replaced_file_keeps_its_mode_whatever_the_umask(tmp_path, umask, kept):
    target = tmp_path / "doc.md"
    target.write_bytes(b"old\n")
    target.chmod(kept)
    umask(0o077)
    atomic.write_bytes(target, b"new\n", root=tmp_path)
    assert target.read_bytes() == b"new\n" and target.stat().st_mode & 0o7777 == kept


@pytest.mark.parametrize("mode", [0o444, 0o464])
def test_a_file_its_owner_keeps_read_only_is_never_replaced_and_the_refusal_says_how_to_allow_it(tmp_path, mode):
    # a rename in a writable folder replaced it whatever its mode (and as root, a write would have too):
    # a file Perforce keeps read-only until `p4 edit`, or one a team locked, was written behind its back
    target = tmp_path / "docs" / "0001-kept.md"
    target.parent.mkdir()
    target.write_bytes(b"old\n")
    target.chmod(mode)
    with pytest.raises(Unwritable) as refused:
        atomic.write_bytes(target, b"new\n", root=tmp_path)
    assert refused.value.sentence == ("docs/0001-kept.md is read-only, and headwater writes no file its owner keeps "
                                      "read-only; make it writable (`chmod u+w`) and run it again")
    assert target.read_bytes() == b"old\n" and sorted(p.name for p in target.parent.iterdir()) == ["0001-kept.md"]


def test_a_file_with_a_second_name_is_never_replaced_under_one_of_them(tmp_path):
    # the rename gave one name the new text and left the hard link holding the old, without a word
    target, other = tmp_path / "doc.md", tmp_path / "same-doc.md"
    target.write_bytes(b"old\n")
    os.link(target, other)
    with pytest.raises(Unwritable, match="^doc.md has 2 names \\(hard links\\), and a write replaces it under this"):
        atomic.write_bytes(target, b"new\n", root=tmp_path)
    assert target.read_bytes() == other.read_bytes() == b"old\n" and target.stat().st_nlink == 2


def test_a_cache_file_is_headwaters_own_to_replace_whatever_its_mode(tmp_path):
    target = tmp_path / "cached"
    target.write_bytes(b"old\n")
    target.chmod(0o444)
    atomic.write_bytes(target, b"new\n", root=tmp_path, durable=False)
    assert target.read_bytes() == b"new\n"


@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o644), (0o002, 0o664), (0o000, 0o666)])
def test_a_new_file_follows_the_umask_and_leaves_it_as_it_was(tmp_path, umask, mask, expected):
    umask(mask)
    atomic.write_bytes(tmp_path / "new.md", b"a", root=tmp_path)
    atomic.create_exclusive(tmp_path / "claim", b"b", root=tmp_path)
    assert (tmp_path / "new.md").stat().st_mode & 0o777 == (tmp_path / "claim").stat().st_mode & 0o777 == expected
    assert os.umask(mask) == mask  # reading the umask did not change it


def test_a_write_that_fails_before_the_rename_leaves_the_target_and_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "doc.md"
    target.write_bytes(b"kept\n")

    def full(_fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        atomic.write_bytes(target, b"lost\n", root=tmp_path)
    with pytest.raises(OSError, match="No space left"):
        atomic.create_exclusive(tmp_path / "claim", b"lost\n", root=tmp_path)
    assert target.read_bytes() == b"kept\n"
    assert sorted(os.listdir(tmp_path)) == ["doc.md"]


def test_a_created_folder_and_an_appended_file_get_the_modes_the_umask_allows(tmp_path, umask):
    umask(0o022)
    atomic.write_bytes(tmp_path / "new" / "doc.md", b"x", root=tmp_path)
    atomic.append(tmp_path / "log.jsonl", b"one\n", root=tmp_path)
    assert (tmp_path / "new").stat().st_mode & 0o7777 == 0o755
    assert (tmp_path / "log.jsonl").stat().st_mode & 0o7777 == 0o644


def test_a_path_relative_to_the_root_or_a_root_given_with_a_slash_lands_under_the_root(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path.parent)
    atomic.write_bytes("docs/a.md", b"relative\n", root=tmp_path)
    atomic.write_bytes(f"{tmp_path}/docs/b.md", b"slashed\n", root=f"{tmp_path}/")
    assert (tmp_path / "docs/a.md").read_bytes() == b"relative\n"
    assert (tmp_path / "docs/b.md").read_bytes() == b"slashed\n"


def test_a_folder_the_working_directory_also_holds_is_the_roots_own(tmp_path, monkeypatch):
    root, elsewhere = tmp_path / "root", tmp_path / "elsewhere"
    (elsewhere / "docs").mkdir(parents=True)
    root.mkdir()
    monkeypatch.chdir(elsewhere)
    atomic.write_bytes(root / "docs" / "a.md", b"mine\n", root=root)
    assert (root / "docs/a.md").read_bytes() == b"mine\n" and os.listdir(elsewhere / "docs") == []


def test_a_file_where_a_folder_should_be_is_not_a_folder_and_not_called_a_symlink(tmp_path):
    (tmp_path / "docs").write_bytes(b"a file\n")
    with pytest.raises(NotADirectoryError):
        atomic.write_bytes(tmp_path / "docs" / "a.md", b"x", root=tmp_path)
    assert (tmp_path / "docs").read_bytes() == b"a file\n"


def test_a_symlink_deep_in_the_path_is_named_by_its_path_from_the_root(tmp_path):
    root = tmp_path / "root"
    (root / "docs").mkdir(parents=True)
    os.symlink(tmp_path, root / "docs" / "linked")
    with pytest.raises(Unconfined, match="^`docs/linked` is a symlink, and headwater writes nothing through a symlink"):
        atomic.write_bytes(root / "docs" / "linked" / "a.md", b"x", root=root)


def test_a_document_is_synced_before_its_rename_and_a_cache_file_is_not(tmp_path, monkeypatch):
    from headwater import cachedir

    monkeypatch.setenv("HEADWATER_KEY_HOME", str(tmp_path / "key"))
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real(fd))
    atomic.write_bytes(tmp_path / "docs" / "a.md", b"a user's words\n", root=tmp_path)
    assert len(synced) == 1
    atomic.create_exclusive(tmp_path / "claim", b"docs/a.md\n", root=tmp_path)
    assert len(synced) == 2
    assert cachedir.write(tmp_path, "checks", "a header", b"payload\n") is None
    assert len(synced) == 2  # a torn cache file fails its seal: it costs a rerun, never a wrong answer
    assert cachedir.read(tmp_path, "checks", "a header") == b"payload\n"


def test_sweep_leaves_a_nested_root_s_temp_files_to_that_root_s_own_lock(tmp_path):
    (tmp_path / ".headwater").mkdir()
    (tmp_path / ".headwater" / f"{TEMP_PREFIX}taxonomy.yml.0a1b2c3d").write_bytes(b"ours")
    inner = tmp_path / "vendor" / "inner"
    (inner / ".headwater" / "ids").mkdir(parents=True)
    (inner / "docs").mkdir()
    kept = [inner / "docs" / f"{TEMP_PREFIX}KEP-1.0a1b2c3d", inner / f"{TEMP_PREFIX}README.md.0a1b2c3d",
            inner / ".headwater" / "ids" / f"{TEMP_PREFIX}KEP-1.0a1b2c3d"]
    for path in kept:
        path.write_bytes(b"another run, writing now")
    atomic.sweep(tmp_path)
    assert not (tmp_path / ".headwater" / f"{TEMP_PREFIX}taxonomy.yml.0a1b2c3d").exists()
    assert all(path.exists() for path in kept)
    atomic.sweep(inner)  # its own sweep, under its own lock, removes them
    assert not any(path.exists() for path in kept)
