"""`headwater impact`: the governed documents a change touches, and which it did not re-verify."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]
DR2 = "docs/decisions/0002-deliver-at-least-once.md"
SPEC = "docs/specifications/queue-retries.md"
DR3 = "docs/decisions/0003-rate-limit-per-tenant.md"  # constrains ACME-SPEC-0002
INGEST = "docs/specifications/ingest-api.md"  # ACME-SPEC-0002


@pytest.fixture
def repo(quickstart) -> Path:
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
        subprocess.run([*GIT, *args], cwd=quickstart, check=True, capture_output=True)
    return quickstart


def impact(hw, root: Path, *verified: str) -> tuple[list[dict], int]:
    out = root.parent / "change"
    assert hw("change", "HEAD", str(out), *verified, "--root", str(root)).status == 0
    ran = hw("impact", str(out / "manifest"), "--json", "--strict", "--root", str(root))
    document = json.loads(ran.out)
    assert list(document) == ["version", "impacted"] and document["version"] == "1.0"
    return document["impacted"], ran.status


def test_a_deleted_governed_file_touches_every_document_that_governs_it(hw, repo):
    (repo / "src/queue/retry.py").unlink()
    found, status = impact(hw, repo)
    assert [(d["path"], d["paths"], d["reverified"]) for d in found] == [
        (DR2, ["src/queue/retry.py"], False), (SPEC, ["src/queue/retry.py"], False)]
    assert status == 1


def test_a_renamed_governed_file_touches_every_document_that_governed_its_old_path(hw, repo):
    subprocess.run([*GIT, "mv", "src/queue/retry.py", "src/retry.py"], cwd=repo, check=True, capture_output=True)
    found, status = impact(hw, repo)
    assert [(d["path"], d["paths"], d["reverified"]) for d in found] == [
        (DR2, ["src/queue/retry.py"], False), (SPEC, ["src/queue/retry.py"], False)]
    assert status == 1


def test_a_deleted_document_touches_every_document_whose_governing_edge_names_it(hw, repo):
    (repo / INGEST).unlink()
    found, status = impact(hw, repo)
    assert [(d["path"], d["paths"], d["reverified"]) for d in found] == [(DR3, [INGEST], False)]
    assert status == 1


def test_a_document_governing_a_deleted_one_is_re_verified_only_when_the_change_says_so(hw, repo):
    (repo / INGEST).unlink()
    found, status = impact(hw, repo, "--verified", "ACME-DR-0003")
    assert [(d["path"], d["paths"], d["reverified"]) for d in found] == [(DR3, [INGEST], True)]
    assert status == 0

def test_a_verified_line_or_a_moved_freshness_facet_re_verifies_a_document(hw, repo):
    (repo / "src/queue/retry.py").write_text("# rewritten\n")
    spec = repo / SPEC
    spec.write_text(spec.read_text().replace("last_verified: 2026-09-10", "last_verified: 2026-11-02"))
    found, status = impact(hw, repo, "--verified", "ACME-DR-0002")
    assert {d["path"]: d["reverified"] for d in found} == {DR2: True, SPEC: True}
    assert status == 0


def test_a_change_to_ungoverned_paths_touches_nothing(hw, repo):
    (repo / "README.txt").write_text("notes\n")
    found, status = impact(hw, repo)
    assert found == [] and status == 0
    ran = hw("impact", str(repo.parent / "change" / "manifest"), "--root", str(repo))
    assert ran.out == "This change touches no path a governed document governs.\n"


def test_the_markdown_impact_stays_under_its_bound_and_counts_the_rest(hw, repo):
    for name in ("retry.py", "backoff.py", "worker.py"):
        (repo / "src/queue" / name).write_text("# moved\n")
    (repo / "src/ingest/api.py").write_text("# moved\n")
    impact(hw, repo)
    from headwater.check.change_manifest import read_manifest
    from headwater.clock import run_date
    from headwater.reads.impact import impact as read
    from headwater.render.reads import Layout, render
    from headwater.snapshot import load

    found = read(load(repo, run_date(None)), read_manifest(repo.parent / "change" / "manifest", repo))
    whole = render("markdown", found, Layout(max_bytes=100_000))
    bound = len(whole.encode()) - 1
    cut = render("markdown", found, Layout(max_bytes=bound))
    rows = cut.count("| **no** |")
    assert whole.count("| **no** |") == 3 and rows < 3 and len(cut.encode()) <= bound
    assert f"_{3 - rows} document{'s are' if 3 - rows > 1 else ' is'} not in this table, which stops short of" in cut


def test_impact_text_folds_at_eighty_columns_unless_wide(hw, repo, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    (repo / "src/queue/retry.py").unlink()
    impact(hw, repo)
    manifest = str(repo.parent / "change" / "manifest")
    narrow, wide = (hw("impact", manifest, "--root", str(repo), *extra) for extra in ((), ("--wide",)))
    assert (narrow.status, narrow.err, wide.status, wide.err) == (0, "", 0, "")
    assert max(len(line) for line in narrow.out.splitlines()) <= 80
    assert 80 < max(len(line) for line in wide.out.splitlines()) <= 120
    assert wide.out.split() == narrow.out.split()  # the same words, only folded elsewhere
    dashed = [line for line in narrow.out.splitlines() if "\u2014" in line]
    assert [line.split()[0] for line in dashed] == [DR2, SPEC]  # a pointer's em dash stays on its first line
    refused = hw("impact", manifest, "--root", str(repo), "--wide", "--format", "markdown")
    assert (refused.status, refused.out) == (1, "") and "`--format markdown` lays nothing out" in refused.err


def test_impact_refuses_an_unreadable_manifest_and_a_format_it_does_not_write(hw, repo):
    missing = hw("impact", "nowhere/manifest", "--root", str(repo))
    assert missing.status == 1 and missing.out == "" and missing.err.startswith("headwater: the change manifest")
    wrong = hw("impact", "nowhere/manifest", "--format", "sarif", "--root", str(repo))
    assert wrong.status == 1 and wrong.err.startswith("headwater: `--format` takes text, markdown, json or github")
