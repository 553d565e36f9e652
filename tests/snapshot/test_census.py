"""The census: every file under the corpus root gets exactly one row with one outcome."""

import os
from pathlib import Path

import pytest

from headwater.clock import run_date
from headwater.corpus import census as census_module
from headwater.corpus.census import Outcome
from headwater.snapshot import load

TODAY = run_date("2026-11-01")

DECISION = """---
id: ACME-DR-00{n}
status: current
status_since: 2026-10-01
summary: "A decision."
last_verified: 2026-10-01
---

# A decision
"""


def pathological(repo: Path) -> dict[str, Outcome]:
    """A walk tree holding what git cannot: built at run time. Returns the expected outcomes."""
    docs = repo / "docs"
    decisions = docs / "decisions"
    decisions.mkdir(parents=True)
    outside = repo.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.md").write_text("---\nid: SECRET\n---\n")
    (decisions / "0001-typed.md").write_text(DECISION.format(n="01"))
    (decisions / "0002-bom.md").write_bytes(b"\xef\xbb\xbf" + DECISION.format(n="02").encode())
    (decisions / "0003-crlf.md").write_bytes(DECISION.format(n="03").replace("\n", "\r\n").encode())
    (decisions / "0004-big.md").write_text(DECISION.format(n="04") + ("words " * 20 + "\n") * 80_000)
    (decisions / "no-front-matter.md").write_text("# Just a heading\n")
    (decisions / "unterminated.md").write_text("---\nid: X\n")
    (decisions / "not-a-mapping.md").write_text("---\n- a\n- b\n---\n")
    (decisions / "duplicate-key.md").write_text("---\nid: A\nid: B\n---\n")
    (decisions / "latin1.md").write_bytes(b"---\nid: caf\xe9\n---\n")
    (decisions / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (docs / ".hidden.md").write_text("hidden but walked\n")
    (docs / "archive").mkdir()
    (docs / "archive" / "old.md").write_text("# old\n")
    os.symlink("0001-typed.md", decisions / "link-to-file.md")
    os.symlink(decisions, docs / "link-to-dir")
    os.symlink(outside, docs / "link-out")
    os.symlink(outside / "secret.md", docs / "link-out-file.md")
    os.symlink("loop-b", docs / "loop-a")
    os.symlink("loop-a", docs / "loop-b")
    os.symlink("nowhere.md", docs / "broken.md")
    os.mkfifo(docs / "a-fifo.md")
    (docs / os.fsdecode(b"bad-\xff-name.md")).write_text("x\n")
    (docs / "locked").mkdir()
    (docs / "locked" / "inside.md").write_text("x\n")
    return {
        "docs/decisions/0001-typed.md": Outcome.TYPED,
        "docs/decisions/0002-bom.md": Outcome.TYPED,
        "docs/decisions/0003-crlf.md": Outcome.TYPED,
        "docs/decisions/0004-big.md": Outcome.TYPED,
        "docs/decisions/no-front-matter.md": Outcome.UNTYPED,
        "docs/decisions/unterminated.md": Outcome.UNREADABLE,
        "docs/decisions/not-a-mapping.md": Outcome.UNREADABLE,
        "docs/decisions/duplicate-key.md": Outcome.UNREADABLE,
        "docs/decisions/latin1.md": Outcome.UNREADABLE,
        "docs/decisions/picture.png": Outcome.NOT_A_DOCUMENT,
        "docs/decisions/link-to-file.md": Outcome.UNWALKABLE,
        "docs/.hidden.md": Outcome.UNTYPED,
        "docs/archive/old.md": Outcome.EXCLUDED,
        "docs/link-to-dir": Outcome.UNWALKABLE,
        "docs/link-out": Outcome.UNWALKABLE,
        "docs/link-out-file.md": Outcome.UNWALKABLE,
        "docs/loop-a": Outcome.UNWALKABLE,
        "docs/loop-b": Outcome.UNWALKABLE,
        "docs/broken.md": Outcome.UNWALKABLE,
        "docs/a-fifo.md": Outcome.UNWALKABLE,
        "docs/bad-\\xff-name.md": Outcome.UNWALKABLE,
        "docs/locked": Outcome.UNWALKABLE,
    }


@pytest.fixture
def walked(quickstart, monkeypatch):
    """The quickstart's lock over a pathological tree; `docs/locked` cannot be listed."""
    import shutil

    shutil.rmtree(quickstart / "docs")
    expected = pathological(quickstart)
    real_scandir = os.scandir

    def scandir(path):
        if os.fsencode(path).endswith(b"docs/locked"):
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    opened: list[Path] = []
    real_read = census_module.read_regular

    def read(name, directory):  # a name in the folder the census opened (HW-DR-0045)
        opened.append(Path(os.readlink(f"/proc/self/fd/{directory}")) / name)
        return real_read(name, directory)

    monkeypatch.setattr(census_module, "read_regular", read)
    snapshot = load(quickstart, TODAY)
    return snapshot, expected, opened, quickstart


def test_every_pathology_lands_in_the_outcome_the_spec_names(walked):
    snapshot, expected, _, _ = walked
    outcomes = {row.path: row.outcome for row in snapshot.census.rows}
    assert outcomes == expected


def test_every_file_gets_exactly_one_row_sorted_by_path_bytes(walked):
    snapshot, expected, _, _ = walked
    paths = [row.path for row in snapshot.census.rows]
    assert len(paths) == len(set(paths)) == len(expected)
    raw = [os.fsencode(p.replace("\\xff", "\udcff")) for p in paths]
    assert raw == sorted(raw)


def test_each_row_that_is_not_typed_states_its_reason(walked):
    snapshot, _, _, _ = walked
    rows = snapshot.census.by_path
    assert all(r.reason for r in snapshot.census.rows if r.outcome is not Outcome.TYPED)
    assert rows["docs/decisions/unterminated.md"].reason.endswith("is never closed")
    assert "line 3" in rows["docs/decisions/duplicate-key.md"].reason
    assert rows["docs/decisions/no-front-matter.md"].reason == "no front matter, so nobody has typed this file"
    assert "symlink" in rows["docs/link-out"].reason
    assert "could not read" in rows["docs/locked"].reason
    assert rows["docs/archive/old.md"].reason.startswith("excluded by `docs/archive/**`")
    # `---\nid: caf\xe9`: where an editor would find the byte, not a bare offset read as a byte's value
    assert rows["docs/decisions/latin1.md"].reason == (
        "not UTF-8 text: the byte 0xe9 at line 2, column 8 (offset 11) cannot be decoded; save the file as UTF-8")


def test_nothing_outside_the_root_is_read_and_no_symlink_or_pipe_is_opened(walked):
    _, _, opened, root = walked
    assert opened, "the census read the documents"
    for path in opened:
        resolved = path.resolve()
        assert resolved.is_relative_to(root.resolve())
        assert not path.is_symlink() and not path.is_fifo()


def test_a_typed_row_records_its_derivation(walked):
    snapshot, _, _, _ = walked
    row = snapshot.census.by_path["docs/decisions/0002-bom.md"]
    assert row.kind == "decision"
    assert row.derivation == (
        "shelf `decisions` matched on `docs/decisions/**`",
        "`decisions` is homogeneous, so placement carries the kind `decision`",
    )
    assert row.document.id == "ACME-DR-0002"


def test_a_missing_corpus_root_is_a_row_rather_than_an_empty_census(quickstart):
    import shutil

    shutil.rmtree(quickstart / "docs")
    snapshot = load(quickstart, TODAY)
    (row,) = snapshot.census.rows
    assert row.path == "docs" and row.outcome is Outcome.UNWALKABLE
    assert row.reason == "a corpus root that does not exist"


def test_tied_shelves_leave_a_file_untyped_and_say_so(quickstart, hw):
    overlay = quickstart / ".headwater/overlay.yml"
    overlay.write_text(overlay.read_text() + "  shelves.twins:\n    path: docs/decisions/**\n"
                       "    homogeneous: true\n    kind: specification\n")
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0
    row = load(quickstart, TODAY).census.by_path["docs/decisions/0002-deliver-at-least-once.md"]
    assert row.outcome is Outcome.UNTYPED and "tie is not a coin flip" in row.reason


def test_a_heterogeneous_shelf_reads_the_discriminator(quickstart, hw):
    declaration = quickstart / ".headwater/taxonomy.yml"
    declaration.write_text(declaration.read_text().replace("bundles: []", "bundles: [diataxis]"))
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0
    guides = quickstart / "docs/guides"
    guides.mkdir()
    (guides / "a.md").write_text("---\ndoc_type: how_to\n---\n")
    (guides / "b.md").write_text("---\ntitle: x\n---\n")
    (guides / "c.md").write_text("---\ndoc_type: novel\n---\n")
    rows = load(quickstart, TODAY).census.by_path
    assert rows["docs/guides/a.md"].kind == "how_to"
    assert "declares no `doc_type`" in rows["docs/guides/b.md"].reason
    assert "`doc_type: novel` is not a kind" in rows["docs/guides/c.md"].reason


def test_the_quickstart_census(quickstart):
    snapshot = load(quickstart, TODAY)
    labels = {row.path: row.label for row in snapshot.census.rows}
    assert labels == {
        "docs/archive/old-plan.md": "excluded",
        "docs/decisions/0001-store-attempts-in-postgres.md": "typed decision",
        "docs/decisions/0002-deliver-at-least-once.md": "typed decision",
        "docs/decisions/0003-rate-limit-per-tenant.md": "typed decision",
        "docs/notes/meeting-2026-09.md": "untyped",
        "docs/specifications/ingest-api.md": "typed specification",
        "docs/specifications/queue-retries.md": "typed specification",
    }


def test_a_corpus_rooted_at_the_top_lists_no_cache_file_so_a_warm_run_prints_what_a_cold_one_does(quickstart, hw):
    declaration = quickstart / ".headwater/taxonomy.yml"
    declaration.write_text(declaration.read_text().replace("root: docs", "root: ."))
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0
    check = ("check", "--root", str(quickstart), "--now", "2026-11-01")
    cold = hw(*check, "--no-cache").out
    hw(*check)  # keeps the cache the next run reads
    assert (quickstart / ".headwater/cache").is_dir() and hw(*check).out == cold
    assert ".headwater/cache" not in cold
