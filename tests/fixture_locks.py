"""One lock per taxonomy for the fixtures (decision HW-DR-0022).

A fixture without `.headwater/taxonomy.lock` shares the lock of every fixture that declares the
same taxonomy: `corpus_fixtures/locks/<key>.lock`, where the key digests the declaration's
`taxonomy:` block and the bytes of the overlay it names. `copy_tree` places it in the copy, so a
test sees a whole repository; a user runs a fixture by copying it and running
`headwater taxonomy resolve` in the copy. A fixture that keeps its own lock (quickstart, a
vendored package) is left alone.

    python tests/fixture_locks.py     # resolve every lockless fixture, write its shared lock

`tests/test_fixture_locks.py` fails when a shared lock is missing, unused or stale against the
embedded package.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import re
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "corpus_fixtures"
LOCKS = FIXTURES / "locks"
DECLARATION = ".headwater/taxonomy.yml"
LOCK = ".headwater/taxonomy.lock"
# the `taxonomy:` block: its line and the indented lines under it
BLOCK = re.compile(r"^taxonomy:[^\n]*\n(?:[ \t][^\n]*\n|\n)*", re.MULTILINE)
OVERLAY = re.compile(r"^\s+overlay:\s*\"?([^\"\n]+?)\"?\s*$", re.MULTILINE)


def shared_key(fixture: Path) -> str | None:
    """The key of the lock a fixture shares, or None when it keeps its own (or declares nothing)."""
    declaration = fixture / DECLARATION
    if (fixture / LOCK).exists() or not declaration.is_file():
        return None
    match = BLOCK.search(declaration.read_text(encoding="utf-8"))
    block = match.group(0) if match else ""
    named = OVERLAY.search(block)
    overlay = (fixture / named.group(1)).read_bytes() if named and (fixture / named.group(1)).is_file() else b""
    return hashlib.sha256(block.encode("utf-8") + b"\0" + overlay).hexdigest()[:16]


def shared_lock(fixture: Path) -> Path | None:
    """The shared lock a fixture reads, or None when it keeps its own."""
    key = shared_key(fixture)
    return LOCKS / f"{key}.lock" if key else None


def place_lock(fixture: Path, copy: Path) -> None:
    """Give a copy of a lockless fixture its shared lock (when the store has one)."""
    lock = shared_lock(fixture)
    if lock is not None and lock.is_file():
        shutil.copyfile(lock, copy / LOCK)


def lockless_fixtures() -> list[Path]:
    """Every fixture repository under `corpus_fixtures/` that shares a lock."""
    roots = sorted(p.parent.parent for p in FIXTURES.rglob(DECLARATION))
    return [root for root in roots if shared_key(root) is not None]


def resolved(fixture: Path) -> str:
    """The lock `headwater taxonomy resolve` writes for the fixture today, in a scratch copy."""
    from headwater.cli.main import run

    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "fixture"
        shutil.copytree(fixture, copy, symlinks=True, ignore=shutil.ignore_patterns("cache"))
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
            if run(["taxonomy", "resolve", "--root", str(copy)]) != 0:
                raise SystemExit(f"resolve failed for {fixture}: {err.getvalue()}")
        return (copy / LOCK).read_text(encoding="utf-8")


def write_shared_locks() -> list[str]:
    """Resolve every lockless fixture into the store and drop the locks no fixture uses."""
    LOCKS.mkdir(exist_ok=True)
    used = set()
    for fixture in lockless_fixtures():
        lock = shared_lock(fixture)
        if lock.name not in used:
            lock.write_text(resolved(fixture), encoding="utf-8")
            used.add(lock.name)
    for stale in LOCKS.glob("*.lock"):
        if stale.name not in used:
            stale.unlink()
    return sorted(used)


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    print(f"{len(write_shared_locks())} shared locks in {LOCKS.relative_to(REPO)}")
