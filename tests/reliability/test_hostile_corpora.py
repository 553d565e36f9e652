"""Hostile corpora: each pathology becomes a census row or a finding, and the run completes."""

import os
from pathlib import Path

from headwater.clock import run_date
from headwater.corpus import census as census_module
from headwater.corpus.census import Outcome
from headwater.snapshot import load

TODAY = run_date("2026-11-01")
FRONT = ("---\nid: ACME-DR-{n:04d}\nstatus: current\nstatus_since: 2026-10-01\nsummary: \"S.\"\n"
         "last_verified: 2026-10-01\n---\n")


def test_a_fifty_megabyte_document_is_typed_without_parsing_its_body(quickstart):
    big = quickstart / "docs/decisions/0100-big.md"
    with big.open("w") as handle:
        handle.write(FRONT.format(n=100))
        line = "A long paragraph of prose that goes on and on. " * 20 + "\n"
        for _ in range(50 * 1024 * 1024 // len(line)):
            handle.write(line)
    row = load(quickstart, TODAY).census.by_path["docs/decisions/0100-big.md"]
    assert row.outcome is Outcome.TYPED and row.document.id == "ACME-DR-0100"


def test_a_hundred_level_nested_mapping_is_an_unreadable_row_with_its_line(quickstart):
    nested = "".join("  " * depth + f"k{depth}:\n" for depth in range(100)) + "  " * 100 + "leaf\n"
    (quickstart / "docs/decisions/0101-deep.md").write_text("---\n" + nested + "---\n")
    row = load(quickstart, TODAY).census.by_path["docs/decisions/0101-deep.md"]
    assert row.outcome is Outcome.UNREADABLE and "nests deeper than 64 levels" in row.reason


def test_ten_thousand_files_in_one_directory_each_get_one_row(quickstart):
    crowd = quickstart / "docs/notes/crowd"
    crowd.mkdir()
    for index in range(10_000):
        (crowd / f"n{index:05d}.txt").write_bytes(b"")
    census = load(quickstart, TODAY).census
    assert sum(1 for row in census.rows if row.path.startswith("docs/notes/crowd/")) == 10_000


def test_a_file_that_vanishes_between_walk_and_read_is_an_unreadable_row(quickstart, monkeypatch):
    doomed = quickstart / "docs/decisions/0003-rate-limit-per-tenant.md"
    real = census_module.read_regular

    def vanish(name, directory):  # a name in the folder the census opened (HW-DR-0045)
        if Path(os.readlink(f"/proc/self/fd/{directory}")) / name == doomed:
            os.unlink(doomed)
        return real(name, directory)

    monkeypatch.setattr(census_module, "read_regular", vanish)
    row = load(quickstart, TODAY).census.by_path["docs/decisions/0003-rate-limit-per-tenant.md"]
    assert row.outcome is Outcome.UNREADABLE and "could not be read" in row.reason


def test_a_file_swapped_for_a_pipe_after_the_walk_is_never_opened_for_reading(quickstart, monkeypatch):
    target = quickstart / "docs/decisions/0003-rate-limit-per-tenant.md"
    real = census_module.read_regular

    def swap(name, directory):  # a name in the folder the census opened (HW-DR-0045)
        if Path(os.readlink(f"/proc/self/fd/{directory}")) / name == target:
            os.unlink(target)
            os.mkfifo(target)
        return real(name, directory)

    monkeypatch.setattr(census_module, "read_regular", swap)
    row = load(quickstart, TODAY).census.by_path["docs/decisions/0003-rate-limit-per-tenant.md"]
    assert row.outcome is Outcome.UNREADABLE


def test_a_directory_made_unreadable_mid_run_is_a_row(quickstart, monkeypatch):
    real = os.scandir

    def scandir(path):
        if os.fsencode(path).endswith(b"docs/specifications"):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    rows = load(quickstart, TODAY).census.by_path
    assert rows["docs/specifications"].outcome is Outcome.UNWALKABLE
    assert rows["docs/decisions/0002-deliver-at-least-once.md"].outcome is Outcome.TYPED


def test_a_symlink_loop_and_a_link_out_are_rows_and_the_explain_of_them_is_a_sentence(quickstart, tmp_path, hw):
    os.symlink("loop-b", quickstart / "docs/loop-a")
    os.symlink("loop-a", quickstart / "docs/loop-b")
    os.symlink(tmp_path, quickstart / "docs/out")
    rows = load(quickstart, TODAY).census.by_path
    assert rows["docs/loop-a"].outcome is Outcome.UNWALKABLE and rows["docs/out"].outcome is Outcome.UNWALKABLE
    ran = hw("explain", "docs/loop-a", "--root", str(quickstart))
    assert ran.status == 1 and "symlink" in ran.err and "Traceback" not in ran.err


def test_a_folder_swapped_for_a_link_out_after_the_walk_is_never_read_through(quickstart, tmp_path, monkeypatch):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "0001-store-attempts-in-postgres.md").write_text("---\nid: SECRET\n---\n")
    real = census_module.walk

    def swap(repo, start):  # the walk saw a folder; a link out stands there when the census reads it
        entries = real(repo, start)
        os.rename(quickstart / "docs/decisions", tmp_path / "moved")
        os.symlink(outside, quickstart / "docs/decisions")
        return entries

    monkeypatch.setattr(census_module, "walk", swap)
    stdout = os.fstat(1)
    rows = load(quickstart, TODAY).census.by_path
    row = rows["docs/decisions/0001-store-attempts-in-postgres.md"]
    assert row.outcome is Outcome.UNREADABLE and row.document is None
    assert row.reason == "could not be read (a symlink, which headwater never follows)"
    assert rows["docs/specifications/ingest-api.md"].outcome is Outcome.TYPED  # the folders after it are read
    assert os.path.samestat(os.fstat(1), stdout)  # and no descriptor but the census's own was closed


def test_every_folder_the_walk_cannot_read_is_a_row_not_only_the_first(quickstart, monkeypatch):
    real = os.scandir

    def scandir(path):
        if os.fsencode(path).endswith((b"docs/specifications", b"docs/decisions")):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    rows = load(quickstart, TODAY).census.by_path
    for folder in ("docs/decisions", "docs/specifications"):
        row = rows[folder]
        assert (row.outcome, row.reason) == (Outcome.UNWALKABLE, "a directory the walk could not read")
    assert rows["docs/notes/meeting-2026-09.md"].outcome is Outcome.UNTYPED
