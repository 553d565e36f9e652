"""The committed state files every verb reads first (declaration, lock, overlay, a vendored package)
are read in place: a symlink is a one-sentence refusal, a special file is never opened."""

from __future__ import annotations

import errno
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from headwater.inplace import NotInPlace, read, read_regular

NOW = ("--now", "2026-11-01")
STANDARD = Path(__file__).resolve().parents[2] / "taxonomy" / "headwater-standard"


def moved_out(root: Path, relative: str) -> Path:
    """`relative` replaced by a symlink to the same bytes outside the root; the copy's path."""
    outside = root.parent / f"outside-{relative.replace('/', '-')}"
    shutil.move(root / relative, outside)
    os.symlink(outside, root / relative)
    return outside


def refused(ran, sentence: str) -> None:
    assert ran.status == 1 and ran.out == ""
    assert ran.err == f"headwater: {sentence}\n"


@pytest.mark.parametrize("relative", [".headwater/taxonomy.yml", ".headwater/taxonomy.lock",
                                      ".headwater/overlay.yml"])
def test_a_state_file_linked_out_of_the_root_is_refused_even_when_its_bytes_are_right(hw, quickstart, relative):
    assert hw("check", "--root", str(quickstart), *NOW).status == 0
    moved_out(quickstart, relative)
    refused(hw("check", "--root", str(quickstart), *NOW),
            f"{relative} cannot be read: a symlink, which headwater never follows")


def test_resolving_refuses_an_overlay_reached_through_a_symlink(hw, quickstart):
    moved_out(quickstart, ".headwater/overlay.yml")
    refused(hw("taxonomy", "resolve", "--root", str(quickstart)),
            ".headwater/taxonomy.yml: the overlay .headwater/overlay.yml cannot be read: "
            "a symlink, which headwater never follows")


def _limited() -> None:  # the old read of /dev/zero grew without end: stop it at 1 GB, not the machine
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_a_declaration_that_is_a_fifo_or_links_to_dev_zero_is_a_refusal_not_a_hang(quickstart, special):
    declaration = quickstart / ".headwater" / "taxonomy.yml"
    declaration.unlink()
    if special == "fifo":
        os.mkfifo(declaration)
        reason = "not a regular file"
    else:
        os.symlink(special, declaration)
        reason = "a symlink, which headwater never follows"
    ran = subprocess.run([sys.executable, "-m", "headwater", "route", "retry deliveries", "--root", str(quickstart)],
                         capture_output=True, text=True, timeout=60, preexec_fn=_limited, check=False)
    assert (ran.returncode, ran.stdout) == (1, "")
    assert ran.stderr == f"headwater: .headwater/taxonomy.yml cannot be read: {reason}\n"


@pytest.fixture
def vendored(hw, quickstart) -> Path:
    """The quickstart on a vendored copy of the standard package, its lock resolved from it."""
    from headwater.taxonomy.package import release_digest, release_members

    expect = release_digest(release_members(STANDARD))
    assert hw("taxonomy", "vendor", str(STANDARD), "--expect", expect, "--root", str(quickstart)).status == 0
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0
    assert hw("check", "--root", str(quickstart), *NOW).status == 0
    return quickstart


def test_a_vendored_package_folder_that_is_a_symlink_is_refused_by_every_verb(hw, vendored):
    moved_out(vendored, ".headwater/packages/headwater-standard")
    for verb in (("check", *NOW), ("route", "retry deliveries"), ("taxonomy", "resolve")):
        refused(hw(*verb, "--root", str(vendored)), "`.headwater/packages/headwater-standard` is a symlink, "
                "and headwater reads and writes its state only in place")


def test_a_file_of_a_vendored_package_linked_elsewhere_is_never_read(hw, vendored):
    relative = ".headwater/packages/headwater-standard/taxonomy.yml"
    moved_out(vendored, relative)
    sentence = f"{relative} cannot be read: a symlink, which headwater never follows"
    refused(hw("check", "--root", str(vendored), *NOW), sentence)
    refused(hw("taxonomy", "resolve", "--root", str(vendored)), sentence)


def test_reading_in_place_refuses_a_link_on_the_way_and_a_path_that_climbs_out(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "file").write_bytes(b"bytes")
    os.symlink(tmp_path / "real", tmp_path / "linked")
    assert read(tmp_path, "real/file") == b"bytes"
    for relative in ("linked/file", "../real/file", "real/../real/file", "/etc/hostname", "real//file"):
        with pytest.raises(NotInPlace):
            read(tmp_path, relative)
    with pytest.raises(FileNotFoundError):
        read(tmp_path, "real/missing")


def test_a_path_that_climbs_out_is_refused_with_the_reason_it_names(tmp_path):
    for relative in ("../x", "a/./b", "/etc/hostname"):
        with pytest.raises(NotInPlace) as refused:
            read(tmp_path, relative)
        assert (refused.value.errno, refused.value.strerror) == (errno.EINVAL, "not a path inside the repository")


def test_a_link_and_a_special_file_are_refused_with_their_reasons(tmp_path):
    os.symlink("/etc/hostname", tmp_path / "link")
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(NotInPlace) as linked:
        read(tmp_path, "link")
    assert (linked.value.errno, linked.value.strerror) == (errno.ELOOP, "a symlink, which headwater never follows")
    with pytest.raises(NotInPlace) as special:
        read(tmp_path, "fifo")
    assert (special.value.errno, special.value.strerror) == (errno.EINVAL, "not a regular file")


def test_a_file_standing_where_a_folder_should_be_is_not_mistaken_for_a_link(tmp_path):
    (tmp_path / "file").write_bytes(b"x")
    with pytest.raises(NotADirectoryError) as raised:
        read(tmp_path, "file/inner")
    assert not isinstance(raised.value, NotInPlace)


def test_an_empty_file_and_one_whose_size_the_system_understates_are_read_whole(tmp_path):
    (tmp_path / "empty").write_bytes(b"")
    assert read(tmp_path, "empty") == b""
    status = Path("/proc/self/status")
    if not status.is_file():
        pytest.skip("no procfs here: no file whose reported size is 0 while it holds text")
    text = read_regular(status)  # procfs reports st_size 0: the first read is short, the rest follows
    assert text.startswith(b"Name:") and b"\nPid:" in text and len(text) > 200


def test_a_link_at_any_folder_on_the_way_is_refused_however_deep_the_file(tmp_path):
    (tmp_path / "real" / "inner").mkdir(parents=True)
    (tmp_path / "real" / "inner" / "file").write_bytes(b"bytes")
    os.symlink(tmp_path / "real", tmp_path / "linked")
    (tmp_path / "real" / "a b").mkdir()
    (tmp_path / "real" / "a b" / "file").write_bytes(b"spaced")
    assert read(tmp_path, "real/inner/file") == b"bytes" and read(tmp_path, "real/a b/file") == b"spaced"
    with pytest.raises(NotInPlace) as refused:
        read(tmp_path, "linked/inner/file")  # the link is the first of two folders, not the file's own
    assert refused.value.strerror == "a symlink, which headwater never follows"


def test_a_full_path_through_a_file_is_no_folder_and_no_link(tmp_path):
    (tmp_path / "file").write_bytes(b"x")
    with pytest.raises(NotADirectoryError) as raised:
        read_regular(tmp_path / "file" / "inner")  # the name cannot be looked at either: still not a link
    assert not isinstance(raised.value, NotInPlace)


def test_an_in_place_read_announces_each_folder_on_the_way_and_the_bytes_it_read(tmp_path):
    import hashlib

    from headwater import observed

    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "file").write_bytes(b"bytes")
    with observed.Recorder(observed.Scope(())) as recorder:
        assert read(tmp_path, "a/b/file") == b"bytes"
    base = str(tmp_path)
    assert {path for path in recorder.noted[observed.PROBED] if path.startswith(base)} == {
        base, str(tmp_path / "a"), str(tmp_path / "a" / "b")}  # the base by the open that starts the way down
    assert {path: digest for path, digest in recorder.digests.items() if path.startswith(base)} == {
        str(tmp_path / "a" / "b" / "file"): "sha256:" + hashlib.sha256(b"bytes").hexdigest()}
