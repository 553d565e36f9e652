"""SIGINT and SIGTERM during a write run put back what it wrote, exactly as a failed write does; a
run killed outright leaves temp files the next write run recognizes and removes.

Each run is a real process (a signal is the point), which sends the signal to itself right after
its Nth write has landed: the worst moment, with part of the batch on disk.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from headwater.atomic import TEMP_PREFIX

SELF_SIGNALLING = """
import os, signal, sys
from headwater import atomic
from headwater.cli.main import main

number, after, args = getattr(signal, sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
landed = []

def signalling(real):
    def write(path, data, **where):
        result = real(path, data, **where)
        landed.append(path)
        if len(landed) == after:
            os.kill(os.getpid(), number)
        return result
    return write

atomic.write_bytes = signalling(atomic.write_bytes)
atomic.create_exclusive = signalling(atomic.create_exclusive)
sys.exit(main(args))
"""


def run(signame: str, after: int, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", SELF_SIGNALLING, signame, str(after), *args],
                          capture_output=True, text=True, timeout=120)


def tree(root: Path) -> dict[str, bytes]:
    """Every file but the disposable cache folder (which holds the write lock)."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.relative_to(root).as_posix().startswith(".headwater/cache/")}


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_an_interrupted_fix_puts_back_every_file_it_wrote(copy_fixture, signame):
    root = copy_fixture("check-all")
    before = tree(root)
    ran = run(signame, 2, "check", "--fix", "--no-cache", "--now", "2026-11-01", "--root", str(root))
    assert ran.returncode == 1 and ran.stdout == ""
    assert ran.stderr == (f"headwater: the run was interrupted ({signame}), so `--fix` put back every file "
                          "it had written\n")
    assert tree(root) == before


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_an_interrupted_new_takes_back_its_document_and_far_half(quickstart, signame):
    before = tree(quickstart)
    ran = run(signame, 2, "new", "decision", "--title", "Deliver in order", "--relates", "supersedes=ACME-DR-0002",
              "--now", "2026-11-01", "--root", str(quickstart))
    assert ran.returncode == 1 and ran.stdout == ""
    assert ran.stderr.startswith(f"headwater: the run was interrupted ({signame}); the document and its far "
                                 "halves were taken back") and ran.stderr.count("\n") == 1
    after = tree(quickstart)
    claims = [path for path in after if path not in before]
    assert len(claims) == 1 and claims[0].startswith(".headwater/ids/decision_id/")  # a claim stays spent
    assert {k: v for k, v in after.items() if k not in claims} == before


@pytest.mark.parametrize("after", [1, 2, 3])
def test_an_interrupted_init_puts_back_every_file_it_wrote_even_its_lock(tmp_path, after):
    ran = run("SIGINT", after, "init", "--namespace", "ACME", "--root", str(tmp_path))
    assert ran.returncode == 1 and ran.stdout == ""
    put_back = "put back every file it had written" if after == 3 else "wrote nothing"
    assert ran.stderr == f"headwater: the run was interrupted (SIGINT), so `headwater init` {put_back}\n"
    assert tree(tmp_path) == {}


def test_a_killed_write_leaves_a_recognizable_temp_file_that_the_next_write_run_removes(copy_fixture):
    root = copy_fixture("check-all")
    killed = subprocess.run([sys.executable, "-c", SELF_SIGNALLING.replace(
        "result = real(path, data, **where)", "os.replace = lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL)\n"
        "        result = real(path, data, **where)"), "SIGKILL", "99",
        "check", "--fix", "--no-cache", "--now", "2026-11-01", "--root", str(root)], capture_output=True, timeout=120)
    assert killed.returncode == -signal.SIGKILL
    assert [p for p in root.rglob(f"{TEMP_PREFIX}*") if not p.is_relative_to(root / ".headwater/cache")]
    planted = root / ".headwater" / "ids" / f"{TEMP_PREFIX}ACME-DR-0001.0a1b2c3d"
    planted.parent.mkdir(parents=True, exist_ok=True)
    planted.write_text("left by a run killed earlier\n")
    fixed = subprocess.run([sys.executable, "-m", "headwater", "check", "--fix", "--no-cache", "--now", "2026-11-01",
                            "--root", str(root)], capture_output=True, text=True, timeout=120)
    assert fixed.returncode == 0 and "headwater: fixed" in fixed.stderr
    assert not [p for p in root.rglob(f"{TEMP_PREFIX}*")]
    assert not os.path.lexists(planted)


def test_holding_interrupts_off_across_a_write_leaves_blocked_what_the_caller_blocked():
    from headwater import writelock

    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        with writelock.steady():
            assert {signal.SIGINT, signal.SIGTERM} <= signal.pthread_sigmask(signal.SIG_BLOCK, set())
        assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == before | {signal.SIGINT}
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
    with writelock.steady():
        pass
    assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == before  # and unblocked what it blocked itself
