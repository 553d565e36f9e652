"""A cache this machine did not write is never read, and no patch lands outside the root.

The attack: `.headwater/cache/` is gitignored, but `git add -f` commits it and a clone carries it.
A planted file is written in the engine's own record format (what an attacker can read off the
source), either unsealed or sealed with a key that is not this user's.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest

from headwater import cachekey
from headwater.check.cache import NAME
from tests.check.test_cache import rewritten

FIXTURE = "rules/relation.reciprocity.missing/fail"
NOW = ("--now", "2026-11-01")


def cache_file(root: Path) -> Path:
    return root / ".headwater" / "cache" / NAME


def records(root: Path) -> tuple[str, list[str]]:
    """The header and the record lines of the cache a real run wrote (its seal line dropped)."""
    head, *rest = cache_file(root).read_text().split("\n")[:-1]
    if rest and "\t" not in rest[0]:
        rest = rest[1:]
    return head, rest


def planted(root: Path, verdict) -> str:
    """The records with every stored findings list replaced by `verdict(findings)`, as text."""
    head, lines = records(root)
    written, _ = rewritten(lines, lambda stored: json.dumps(
        [verdict(v) if isinstance(v, list) else v for v in json.loads(stored)]))
    return head + "\n" + "".join(line + "\n" for line in written)


def plant(root: Path, text: str, secret: bytes | None) -> None:
    """Write the planted cache, unsealed (`secret` None) or sealed with `secret`."""
    head, _, payload = text.partition("\n")
    if secret is not None:
        seal = cachekey.seal(secret, NAME.encode(), head.encode(), payload.encode())
        text = f"{head}\n{seal}\n{payload}"
    cache_file(root).write_text(text)


def redirect(target: str):
    def to(findings: list) -> list:
        return [[*finding[:9], [target, None, [["create", "owned\n"]]], *finding[10:]] if finding[9] else finding
                for finding in findings]
    return to


ATTACKERS = {"unsealed": lambda: None, "sealed with another key": lambda: secrets.token_bytes(32)}


@pytest.mark.parametrize("attacker", ATTACKERS)
@pytest.mark.parametrize("where", ["../victim.txt", "absolute"])
def test_a_planted_cache_cannot_drive_fix_to_write_outside_the_root(hw, copy_fixture, attacker, where):
    root = copy_fixture(FIXTURE)
    victim = root.parent / "victim.txt"
    target = str(victim) if where == "absolute" else "../victim.txt"
    assert hw("check", "--root", str(root), *NOW).status == 0  # a real cache, then the planted one
    plant(root, planted(root, redirect(target)), ATTACKERS[attacker]())
    ran = hw("check", "--fix", "--root", str(root), *NOW)
    assert not victim.exists(), ran.err
    assert ran.status == 0 and "headwater: fixed docs/decisions/0001-base.md (1 patch)" in ran.err
    assert "superseded_by" in (root / "docs/decisions/0001-base.md").read_text()


def test_a_patch_outside_the_root_is_refused_even_from_a_cache_sealed_with_this_users_key(hw, copy_fixture):
    """Confinement does not rest on the seal: every patch path is checked before any write."""
    root = copy_fixture(FIXTURE)
    hw("check", "--root", str(root), *NOW)
    plant(root, planted(root, redirect("../victim.txt")), cachekey.key(create=False))
    before = (root / "docs/decisions/0001-base.md").read_bytes()
    ran = hw("check", "--fix", "--root", str(root), *NOW)
    assert ran.status == 1 and ran.out == ""
    assert ran.err == ("headwater: a patch names `../victim.txt`, which is not a path under the repository "
                       "root, so `--fix` wrote nothing\n")
    assert not (root.parent / "victim.txt").exists()
    assert (root / "docs/decisions/0001-base.md").read_bytes() == before


@pytest.mark.parametrize("attacker", ATTACKERS)
def test_a_planted_cache_that_drops_a_finding_cannot_pass_strict(hw, copy_fixture, attacker):
    root = copy_fixture(FIXTURE)
    assert hw("check", "--strict", "--no-cache", "--root", str(root), *NOW).status == 1
    hw("check", "--root", str(root), *NOW)
    plant(root, planted(root, lambda findings: []), ATTACKERS[attacker]())
    ran = hw("check", "--strict", "--root", str(root), *NOW)
    assert ran.status == 1 and "relation.reciprocity.missing" in ran.out


def test_the_key_lives_outside_the_repository_and_only_its_owner_reads_it(hw, copy_fixture, cache_key_home):
    root = copy_fixture(FIXTURE)
    hw("check", "--root", str(root), *NOW)
    key = cache_key_home / cachekey.KEY_FILE
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_bytes()) == cachekey.SIZE
    assert not any(p.name == cachekey.KEY_FILE for p in root.rglob("*"))


@pytest.mark.parametrize("spoilt", ["readable by others", "a symlink"])
def test_a_key_others_could_read_or_swap_is_no_key_and_nothing_is_cached(hw, copy_fixture, tmp_path, monkeypatch,
                                                                        spoilt):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HEADWATER_KEY_HOME", str(home))
    key = home / cachekey.KEY_FILE
    if spoilt == "a symlink":
        (tmp_path / "elsewhere").write_bytes(secrets.token_bytes(cachekey.SIZE))
        (tmp_path / "elsewhere").chmod(0o600)
        key.symlink_to(tmp_path / "elsewhere")
    else:
        key.write_bytes(secrets.token_bytes(cachekey.SIZE))
        key.chmod(0o644)
    root = copy_fixture(FIXTURE)
    ran = hw("check", "--root", str(root), *NOW)
    assert ran.status == 0
    no_key = f"headwater: the cache was not written (no key this user alone can read in {home})"
    assert ran.err.splitlines()[0] == no_key
    assert not cache_file(root).exists()


def test_a_private_key_cut_short_is_replaced_and_the_run_answers_as_without_a_cache(hw, copy_fixture, tmp_path,
                                                                                    monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HEADWATER_KEY_HOME", str(home))
    key = home / cachekey.KEY_FILE
    key.write_bytes(secrets.token_bytes(5))
    key.chmod(0o600)
    root = copy_fixture(FIXTURE)
    uncached = hw("check", "--no-cache", "--root", str(root), *NOW)
    ran = hw("check", "--root", str(root), *NOW)
    assert (ran.status, ran.out, ran.err) == (uncached.status, uncached.out, uncached.err)
    assert len(key.read_bytes()) == cachekey.SIZE and cache_file(root).exists()
