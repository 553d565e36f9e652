"""Every rule's cache declaration is verified, not trusted.

A rule states what its verdict depends on (`reads`, `reads_clock`, `needs_change`, `by_document`),
and the verdict cache keys each verdict on exactly that. A declaration that leaves an input out lets
the cache serve a stale verdict without a word. So each fixture is judged in worlds that differ in
one input at a time (the run date, the change manifest, another document deleted or edited, the
claim store emptied, a source file edited), every verdict is keyed as the cache keys it, and a key
two worlds share must carry the same verdict in both. The lock needs no world of its own: its
digest opens every key, so no lock change can be served a stale verdict.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from headwater.check import links
from headwater.check.cache import Records, encode
from headwater.check.change_manifest import read_manifest
from headwater.check.context import Context
from headwater.check.instances import Section, kind_of, subjects, verdict
from headwater.check.registry import RULES, rule_ids
from headwater.check.rule import Reads, Scope
from headwater.snapshot import load
from tests.conftest import FIXTURES, copy_tree

NOW = dt.date(2026, 11, 1)
CLOCKS = (dt.date(2025, 1, 1), dt.date(2027, 12, 1))
CACHED = [r for r in RULES if r.scope is not Scope.RUNNER and Reads.UNSTATED not in r.reads]
EVERY = ["check-all", "quickstart", *sorted(p.relative_to(FIXTURES).as_posix() for p in FIXTURES.glob("rules/*/fail"))]
Keyed = dict[tuple[str, tuple[str, ...]], str]  # (rule, the cache's key) → the verdict it would serve


def keyed_verdicts(root: Path, today: dt.date, with_change: bool = True, rules=CACHED) -> Keyed:
    """Every cached rule's verdict on every subject of the world at `root`, by the key the cache gives it."""
    manifest = root / "change" / "manifest"
    change = read_manifest(manifest, root) if with_change and manifest.is_file() else None
    ctx = Context(load(root, today), rule_ids(), change)
    out: Keyed = {}
    for rule in rules:
        section = Section(kind_of(rule), (rule,), (0,), frozenset(rule.reads), rule.by_document)
        records = Records(ctx, None, {section.kind: (section,)})  # it keeps stamps by the section's identity
        for subject, _ in subjects(ctx, section.kind):
            reads = links.reads(subject, ctx.snapshot.declaration.site_roots) if section.reads_links else ""
            key = (ctx.snapshot.lock.digest, section.kind.value, records._subject(section.kind, subject),
                   records._stamp(section, subject, reads), reads)
            out[(rule.id, key)] = encode((verdict(ctx, rule, subject),))
    return out


def stale(base: Keyed, other: Keyed, world: str) -> list[str]:
    """Each verdict the cache would serve from one world into the other although it moved."""
    return [f"{rule} under {world}" for (rule, key), found in base.items()
            if other.get((rule, key), found) != found]


def edits(root: Path) -> list[tuple[str, Callable[[Path], None]]]:
    """One change a world makes to the fixture, named: every document deleted, edited and copied
    (its identifier then carried twice) in turn, the claim store emptied, every source file edited."""
    documents = sorted(p.relative_to(root).as_posix() for p in (root / "docs").rglob("*.md"))
    out: list[tuple[str, Callable[[Path], None]]] = []
    for path in documents:
        out.append((f"{path} deleted", lambda copy, path=path: (copy / path).unlink()))
        out.append((f"{path} edited", lambda copy, path=path: _append(copy / path, "\nA paragraph more.\n")))
        out.append((f"{path} copied", lambda copy, path=path: shutil.copyfile(copy / path, copy / _first(path))))
    if (root / ".headwater" / "ids").is_dir():
        out.append(("the claim store emptied", lambda copy: shutil.rmtree(copy / ".headwater" / "ids")))
    for source in sorted(p.relative_to(root).as_posix() for p in (root / "src").rglob("*") if p.is_file()):
        out.append((f"{source} edited", lambda copy, source=source: _append(copy / source, "# one more line\n")))
    return out


def _first(path: str) -> str:
    """A path beside `path` that sorts before every other, so its copy is the one found first."""
    folder, _, name = path.rpartition("/")
    return f"{folder}/0-copy-of-{name}"


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


@pytest.mark.parametrize("name", EVERY)
def test_no_input_a_rule_leaves_undeclared_moves_a_verdict_the_cache_would_serve(tmp_path, name):
    root = copy_tree(FIXTURES / name, tmp_path / "base")
    base = keyed_verdicts(root, NOW)
    moved = []
    for today in CLOCKS:
        moved += stale(base, keyed_verdicts(root, today), f"the run date {today}")
    if (root / "change" / "manifest").is_file():
        moved += stale(base, keyed_verdicts(root, NOW, with_change=False), "no change manifest")
    for number, (world, edit) in enumerate(edits(root)):
        copy = copy_tree(FIXTURES / name, tmp_path / str(number))
        edit(copy)
        moved += stale(base, keyed_verdicts(copy, NOW), world)
    assert moved == []


def test_a_rule_that_reads_the_clock_without_declaring_it_is_caught(tmp_path):
    """The test above can fail: the freshness rule with `reads_clock` dropped is served stale."""
    import dataclasses

    freshness = next(r for r in RULES if r.id == "facet.freshness.stale")
    undeclared = dataclasses.replace(freshness, reads_clock=False)
    root = copy_tree(FIXTURES / "rules" / "facet.freshness.stale" / "pass", tmp_path / "base")
    base = keyed_verdicts(root, NOW, rules=[undeclared])
    assert stale(base, keyed_verdicts(root, dt.date(2028, 1, 1), rules=[undeclared]), "later") != []
    assert stale(base, keyed_verdicts(root, dt.date(2028, 1, 1), rules=[freshness]), "later") == []


def test_every_cached_rule_is_judged_on_the_check_all_fixture(tmp_path):
    """A rule no fixture reaches would be verified on nothing: check-all reaches every one."""
    keyed = keyed_verdicts(copy_tree(FIXTURES / "check-all", tmp_path / "copy"), NOW)
    assert {r.id for r in CACHED} - {rule for rule, _ in keyed} == set()


def test_a_lock_that_resolves_otherwise_re_judges_every_cached_verdict(hw, copy_fixture):
    """The lock's parts are no rule's declaration: the lock's digest opens every key, so a taxonomy
    that resolves otherwise (one more lifecycle state here) is served nothing from the cache."""
    root = copy_fixture("quickstart")
    check = ("check", "--root", str(root), "--now", "2026-11-01", "--verbose")
    assert hw(*check).status == 0
    assert re.fullmatch(r"headwater: cache: [1-9]\d* hits, 0 misses\n", hw(*check).err)
    _append(root / ".headwater" / "overlay.yml",
            "add_to:\n  vocabularies.lifecycle_state:\n    - {value: archived, role: terminal-retained}\n")
    assert hw("taxonomy", "resolve", "--root", str(root)).status == 0
    assert re.fullmatch(r"headwater: cache: 0 hits, [1-9]\d* misses\n", hw(*check).err)
