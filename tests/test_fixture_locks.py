"""The fixtures share one lock per taxonomy (decision HW-DR-0022), and every shared lock is one
`headwater taxonomy resolve --check` accepts against the embedded package today."""

from __future__ import annotations

from tests.conftest import copy_tree
from tests.fixture_locks import FIXTURES, LOCK, LOCKS, lockless_fixtures, shared_lock


def test_every_lockless_fixture_has_its_shared_lock():
    missing = [f"{f.relative_to(FIXTURES)} → {shared_lock(f).name}" for f in lockless_fixtures()
               if not shared_lock(f).is_file()]
    assert missing == [], "run `python tests/fixture_locks.py` and commit corpus_fixtures/locks/"


def test_every_shared_lock_is_read_by_some_fixture():
    used = {shared_lock(f).name for f in lockless_fixtures()}
    assert sorted(p.name for p in LOCKS.glob("*.lock") if p.name not in used) == []


def test_a_rule_fixture_keeps_its_own_lock_only_when_it_vendors_its_package():
    own = [p.parent.parent for p in (FIXTURES / "rules").glob(f"*/*/{LOCK}")]
    assert [f for f in own if not (f / ".headwater" / "packages").is_dir()] == []
    assert len(lockless_fixtures()) > 2 * len(list(LOCKS.glob("*.lock")))


def test_no_fixture_keeps_a_copy_of_a_shared_lock():
    shared = {p.read_bytes() for p in LOCKS.glob("*.lock")}
    copies = [p.relative_to(FIXTURES).as_posix() for p in FIXTURES.rglob("taxonomy.lock")
              if p.parent.name == ".headwater" and p.read_bytes() in shared]
    assert copies == [], "delete these: the fixture's copy places the shared lock"


def test_every_copied_fixture_passes_resolve_check_against_the_embedded_package(hw, tmp_path):
    stale = []
    for number, fixture in enumerate(lockless_fixtures()):
        copy = copy_tree(fixture, tmp_path / str(number))
        ran = hw("taxonomy", "resolve", "--check", "--root", str(copy))
        if ran.status != 0:
            stale.append(f"{fixture.relative_to(FIXTURES)}: {ran.err.strip()}")
    assert stale == [], "run `python tests/fixture_locks.py` after reviewing why the lock moved"


def test_a_shared_lock_the_embedded_package_moved_under_fails_resolve_check(hw, tmp_path):
    copy = copy_tree(FIXTURES / "rules" / "facet.required.missing" / "fail", tmp_path / "copy")
    lock = copy / LOCK
    text = lock.read_text(encoding="utf-8")
    embedded = text.index("embedded:headwater-standard/taxonomy.yml")
    digest = text.index("sha256:", embedded)
    lock.write_text(text[:digest] + "sha256:" + "0" * 64 + text[digest + 71:], encoding="utf-8")
    ran = hw("taxonomy", "resolve", "--check", "--root", str(copy))
    assert ran.status == 1 and "embedded:headwater-standard/taxonomy.yml" in ran.err
