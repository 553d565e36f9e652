"""Faults in writes: a full disk at each write step of `new` leaves every file as it was."""

import errno
import os
from pathlib import Path

import pytest

from headwater import atomic
from headwater.writes import minting
from headwater.writes import new as new_module
from tests.conftest import copy_tree

ARGS = ["new", "decision", "--title", "Deliver in order", "--summary", "Events arrive in order.",
        "--relates", "supersedes=ACME-DR-0002", "--now", "2026-11-01"]


def tree(root: Path) -> dict[str, bytes]:
    """Every file under the root but the disposable cache folder (which holds the write lock)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not str(p.relative_to(root)).startswith(".headwater/cache/")}


def full_disk(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("step", ["claim", "document", "far half", "capture cost"])
def test_a_full_disk_at_any_step_of_new_leaves_the_corpus_as_it_was(quickstart, hw, monkeypatch, step):
    before = tree(quickstart)
    real_create, real_open = atomic.create_exclusive, os.open
    if step == "claim":
        monkeypatch.setattr(minting.atomic, "create_exclusive", full_disk)
    elif step == "document":
        calls = []

        def second_create(path, data, **where):
            calls.append(path)
            if len(calls) == 2:
                full_disk()
            real_create(path, data, **where)

        monkeypatch.setattr(atomic, "create_exclusive", second_create)
    elif step == "far half":
        monkeypatch.setattr(new_module.atomic, "write_bytes", full_disk)
    else:
        def no_append(path, flags, *rest, **where):
            if str(path).endswith("capture-cost.jsonl"):
                full_disk()
            return real_open(path, flags, *rest, **where)

        monkeypatch.setattr(os, "open", no_append)
    ran = hw(*ARGS, "--root", str(quickstart))
    monkeypatch.undo()
    assert ran.status == 1 and ran.out == ""
    assert ran.err.startswith("headwater: ") and ran.err.count("\n") == 1 and "Traceback" not in ran.err
    after = tree(quickstart)
    claims = {path for path in after if path.startswith(".headwater/ids/") and path not in before}
    assert {k: v for k, v in after.items() if k not in claims} == before
    assert len(claims) <= 1  # a claimed number stays spent by design; nothing else changes


def test_a_read_only_target_refuses_the_far_half_and_takes_back_the_document(quickstart, hw, monkeypatch):
    before = tree(quickstart)

    def read_only(path, data, **where):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(new_module.atomic, "write_bytes", read_only)
    ran = hw(*ARGS, "--root", str(quickstart))
    monkeypatch.undo()
    assert ran.status == 1 and "taken back" in ran.err
    assert not list((quickstart / "docs/decisions").glob("0004-*"))
    after = tree(quickstart)
    assert {k: v for k, v in after.items() if not k.startswith(".headwater/ids/")} == \
        {k: v for k, v in before.items() if not k.startswith(".headwater/ids/")}


def _fix(hw, root):
    return hw("check", "--fix", "--no-cache", "--now", "2026-11-01", "--root", str(root))


def test_a_full_disk_at_every_write_of_a_fix_batch_leaves_every_file_as_it_was(copy_fixture, hw, monkeypatch):
    """Count the writes a batch makes, then fail each one in turn: all or nothing, every time."""
    pristine = copy_fixture("check-all")
    writes: list[Path] = []
    probe = pristine.parent / "probe"
    copy_tree(pristine, probe)
    real_write, real_create = atomic.write_bytes, atomic.create_exclusive
    monkeypatch.setattr(atomic, "write_bytes", lambda p, d, **w: (writes.append(p), real_write(p, d, **w))[1])
    monkeypatch.setattr(atomic, "create_exclusive", lambda p, d, **w: (writes.append(p), real_create(p, d, **w))[1])
    assert _fix(hw, probe).status == 0
    monkeypatch.undo()
    assert len(writes) >= 3
    for failing_at in range(1, len(writes) + 1):
        root = pristine.parent / f"fail-{failing_at}"
        copy_tree(pristine, root)
        before = tree(root)
        calls: list[Path] = []

        def counting(real, calls=calls, failing_at=failing_at):
            def write(path, data, **where):
                calls.append(path)
                if len(calls) == failing_at:
                    full_disk()
                return real(path, data, **where)
            return write

        monkeypatch.setattr(atomic, "write_bytes", counting(real_write))
        monkeypatch.setattr(atomic, "create_exclusive", counting(real_create))
        ran = _fix(hw, root)
        monkeypatch.undo()
        assert ran.status == 1 and ran.out == "", failing_at
        failed = calls[failing_at - 1].relative_to(root).as_posix()
        assert ran.err.startswith(f"headwater: {failed} could not be written ([Errno 28] No space left on device)")
        assert ran.err.endswith(", so `--fix` put back every file it had written\n") and ran.err.count("\n") == 1
        for landed in {p.relative_to(root).as_posix() for p in calls[:failing_at - 1]}:
            assert (root / landed).read_bytes() == before[landed] if landed in before else not (root / landed).exists()
        assert tree(root) == before, f"the batch failing at write {failing_at} left a change behind"
