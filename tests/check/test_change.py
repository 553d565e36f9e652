"""`headwater change` writes the manifest (the only verb that runs git); `check --change` reads it
and gives the change-scoped rules their prior versions; `Change.restates_edge` decides stamps."""

from __future__ import annotations

import datetime as dt
import errno
import json
import os
import subprocess
import tempfile
from pathlib import Path

import pytest

from headwater.check.change_manifest import read_manifest
from headwater.errors import Refusal
from headwater.snapshot import load
from headwater.writes.change_capture import GitFailed, run_git
from tests.conftest import copy_tree
from tests.fixture_locks import FIXTURES

NOW = "2026-11-01"
DR1 = "docs/decisions/0001-store-attempts-in-postgres.md"
DR2 = "docs/decisions/0002-deliver-at-least-once.md"
DR3 = "docs/decisions/0003-rate-limit-per-tenant.md"
CHANGE_SCOPED = {"lifecycle.transition.not_permitted", "warrant.promoted", "lifecycle.deletion.not_permitted"}


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(quickstart) -> Path:
    """The quickstart fixture as a git repository with one commit, the base of every change."""
    git(quickstart, "init", "-q")
    git(quickstart, "config", "user.name", "Test")
    git(quickstart, "config", "user.email", "test@example.invalid")
    git(quickstart, "add", "-A")
    git(quickstart, "commit", "-q", "-m", "base")
    return quickstart


def edit(root: Path, path: str, old: str, new: str) -> None:
    target = root / path
    text = target.read_text(encoding="utf-8")
    assert old in text
    target.write_text(text.replace(old, new, 1), encoding="utf-8")


def manifest_lines(out: Path) -> list[str]:
    return (out / "manifest").read_text(encoding="utf-8").splitlines()


def check_json(hw, root: Path, *more: str) -> dict:
    ran = hw("check", "--root", str(root), "--now", NOW, "--no-cache", "--format", "json", *more)
    assert ran.err == "" or ran.status == 0, ran.err
    return json.loads(ran.out)


def change_findings(data: dict) -> list[tuple[str, str, str, int]]:
    return [(f["rule"], f["severity"], f["path"], f["line"]) for f in data["findings"] if f["rule"] in CHANGE_SCOPED]


# -- the manifest `headwater change` writes -------------------------------------------------


def test_the_manifest_lists_added_changed_renamed_and_deleted_paths_with_their_base_bytes(hw, repo, tmp_path):
    base_bytes = (repo / DR3).read_bytes()
    edit(repo, DR1, "status: superseded", "status: current")
    git(repo, "mv", DR3, "docs/decisions/0003-rate-limit.md")
    (repo / "docs/specifications/queue-retries.md").unlink()
    (repo / "docs/notes/new.md").write_text("# New\n", encoding="utf-8")
    out = tmp_path / "change"
    ran = hw("change", "HEAD", str(out), "--root", str(repo))
    assert ran.status == 0 and ran.out == f"{out / 'manifest'}\n"
    assert manifest_lines(out) == [
        "headwater change 1",
        "added\tdocs/notes/new.md",
        f"prior\t{DR1}\tprior/1",
        f"prior\t{DR3}\tprior/2",  # the path a rename left, as a deletion leaves one
        "prior\tdocs/decisions/0003-rate-limit.md\tprior/3",
        "prior\tdocs/specifications/queue-retries.md\tprior/4",
    ]
    assert (out / "prior" / "2").read_bytes() == (out / "prior" / "3").read_bytes() == base_bytes
    assert b"status: superseded" in (out / "prior" / "1").read_bytes()


def test_verified_lines_name_documents_by_path_or_identifier(hw, repo, tmp_path):
    out = tmp_path / "change"
    ran = hw("change", "HEAD", str(out), "--root", str(repo), "--verified", "ACME-DR-0003",
             "--verified-edge", DR2, "./src/queue/**")
    assert ran.status == 0, ran.err
    assert manifest_lines(out) == ["headwater change 1", f"verified\t{DR3}", f"verified\t{DR2}\tsrc/queue/**"]


def test_change_says_what_it_captured_on_stderr_and_prints_only_the_manifest_path(hw, repo, tmp_path):
    edit(repo, DR1, "status: superseded", "status: current")
    (repo / "docs/notes/new.md").write_text("# New\n", encoding="utf-8")
    out = tmp_path / "change"
    ran = hw("change", "HEAD", str(out), "--root", str(repo), "--verified", DR2, "--verified-edge", DR2, "src/queue/**")
    assert ran.status == 0 and ran.out == f"{out / 'manifest'}\n"  # what `check --change "$(…)"` reads
    assert ran.err == ("headwater: captured 1 added path, 1 prior version, 1 verified document, "
                       "1 verified edge against `HEAD`\n")


def test_an_out_dir_inside_the_repository_is_not_news_and_a_rerun_replaces_it(hw, repo):
    out = repo / ".headwater" / "change"
    assert hw("change", "HEAD", str(out), "--root", str(repo)).status == 0
    edit(repo, DR2, "last_verified: 2026-09-10", "last_verified: 2026-10-30")
    assert hw("change", "HEAD", str(out), "--root", str(repo)).status == 0
    assert manifest_lines(out) == ["headwater change 1", f"prior\t{DR2}\tprior/1"]
    assert sorted(p.name for p in out.iterdir()) == ["manifest", "prior"]
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".change.")]  # no staging left


@pytest.mark.parametrize(("args", "says"), [
    (("NOPE",), "`NOPE` names no commit of this repository"),
    (("HEAD", "--verified", "docs/notes/meeting-2026-09.md"), "is not a document"),
    (("HEAD", "--verified", "ACME-DR-0002", "--verified", "ACME-DR-0002"), "is named twice"),
    (("HEAD", "--verified-edge", DR2), "`--verified-edge` takes two values"),
])
def test_change_refusals_write_nothing(hw, repo, tmp_path, args, says):
    out = tmp_path / "change"
    base, *flags = args
    ran = hw("change", base, str(out), "--root", str(repo), *flags)
    assert ran.status == 1 and ran.out == "" and says in ran.err
    assert not out.exists()


def test_change_outside_a_git_work_tree_is_refused_naming_no_absolute_path(hw, quickstart, tmp_path):
    ran = hw("change", "HEAD", str(tmp_path / "change"), "--root", str(quickstart))
    assert ran.status == 1 and ran.out == "" and ran.err == (
        "headwater: this repository is in no git work tree, and `change` compares it with a git revision\n")


def test_an_out_dir_that_cannot_be_written_is_refused(hw, repo, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way\n")
    for out in (blocker, blocker / "change"):
        ran = hw("change", "HEAD", str(out), "--root", str(repo))
        assert ran.status == 1 and ran.out == "" and ran.err.count("\n") == 1
    assert blocker.read_text() == "in the way\n"


def test_an_out_dir_holding_other_files_is_never_swapped_away(hw, repo, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me\n")
    ran = hw("change", "HEAD", str(out), "--root", str(repo))
    assert ran.status == 1 and "`notes.txt`" in ran.err
    assert (out / "notes.txt").read_text() == "keep me\n"


# -- check --change -------------------------------------------------------------------------


def test_without_change_every_change_scoped_instance_is_skipped_with_its_reason(hw, repo):
    data = check_json(hw, repo)
    assert change_findings(data) == []
    [skip] = [s for s in data["coverage"]["skips"] if "change-scoped" in s["reason"]]
    assert "`--change`" in skip["reason"] and skip["instances"] > 0


def test_a_change_from_headwater_change_reaches_the_change_scoped_verdicts(hw, repo, tmp_path):
    old = "docs/decisions/0004-old.md"
    (repo / old).write_text((repo / DR1).read_text().replace("ACME-DR-0001", "ACME-DR-0004"), encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a second superseded record, to delete")
    edit(repo, DR1, "status: superseded", "status: current")  # superseded is terminal: no way back
    edit(repo, DR3, "provenance: {warrant: asserted}", "provenance: {warrant: accepted, accepted_by: j.doe}")
    (repo / old).unlink()
    out = tmp_path / "change"
    assert hw("change", "HEAD", str(out), "--root", str(repo)).status == 0
    data = check_json(hw, repo, "--change", str(out / "manifest"))
    assert data["change"]["departed"] == [old]
    assert change_findings(data) == [
        ("lifecycle.transition.not_permitted", "error", DR1, 3),
        ("warrant.promoted", "info", DR3, 8),
        ("lifecycle.deletion.not_permitted", "error", old, 0),
    ]
    assert not [s for s in data["coverage"]["skips"] if "change-scoped" in s["reason"]]


def test_a_renamed_terminal_document_is_moved_not_deleted(hw, repo, tmp_path):
    git(repo, "mv", DR1, "docs/decisions/0001-attempts-in-postgres.md")
    out = tmp_path / "change"
    assert hw("change", "HEAD", str(out), "--root", str(repo)).status == 0
    data = check_json(hw, repo, "--change", str(out / "manifest"))
    assert data["change"]["departed"] == [DR1]
    assert change_findings(data) == []


def test_a_transition_the_regime_reaches_in_several_steps_is_permitted(hw, repo, tmp_path):
    edit(repo, DR3, "status: current", "status: draft")
    git(repo, "commit", "-q", "-am", "back to draft")
    edit(repo, DR3, "status: draft", "status: deprecated")  # draft → deprecated is one step; fine
    out = tmp_path / "change"
    hw("change", "HEAD", str(out), "--root", str(repo))
    assert change_findings(check_json(hw, repo, "--change", str(out / "manifest"))) == []


def test_a_deleted_document_that_was_not_terminal_may_go(hw, repo, tmp_path):
    (repo / DR3).unlink()
    out = tmp_path / "change"
    hw("change", "HEAD", str(out), "--root", str(repo))
    assert change_findings(check_json(hw, repo, "--change", str(out / "manifest"))) == []


@pytest.mark.parametrize(("manifest", "says"), [
    (None, "does not read"),
    ("headwater change 2\n", "does not open with `headwater change 1`"),
    ("headwater change 1\nremoved\tdocs/x.md\n", "line 2 is not an `added`, `prior` or `verified` line"),
    ("headwater change 1\nprior\tdocs/x.md\tprior/9\n", "names the prior copy prior/9"),
])
def test_an_unreadable_manifest_is_a_refusal(hw, quickstart, tmp_path, manifest, says):
    path = tmp_path / "manifest"
    if manifest is not None:
        path.write_text(manifest, encoding="utf-8")
    ran = hw("check", "--root", str(quickstart), "--now", NOW, "--no-cache", "--change", str(path))
    assert ran.status == 1 and ran.out == "" and says in ran.err


# -- restates_edge --------------------------------------------------------------------------


def restated(repo: Path, out: Path, doc: str, target: str) -> bool:
    change = read_manifest(out / "manifest", repo)
    return change.restates_edge(doc, target, load(repo, dt.date(2026, 11, 1)))


def test_an_edge_is_restated_when_the_document_is_reverified_and_the_target_is_named(hw, repo, tmp_path):
    out = tmp_path / "change"
    edit(repo, "src/queue/retry.py", "", "# touched\n")
    hw("change", "HEAD", str(out), "--root", str(repo))
    assert not restated(repo, out, DR2, "src/queue/**")  # the target moved; nobody re-read the edge
    edit(repo, DR2, "last_verified: 2026-09-10", "last_verified: 2026-10-30")
    hw("change", "HEAD", str(out), "--root", str(repo))
    assert restated(repo, out, DR2, "src/queue/**")
    assert not restated(repo, out, DR2, "src/ingest/**")  # a moved freshness date alone names no target


def test_a_verified_line_reverifies_the_document_and_a_verified_edge_names_the_edge(hw, repo, tmp_path):
    out = tmp_path / "change"
    edit(repo, "src/queue/retry.py", "", "# touched\n")
    hw("change", "HEAD", str(out), "--root", str(repo), "--verified", DR2)
    assert restated(repo, out, DR2, "src/queue/**")
    hw("change", "HEAD", str(out), "--root", str(repo), "--verified-edge", DR3, "src/ingest/rate_limit.py")
    assert restated(repo, out, DR3, "src/ingest/rate_limit.py")
    assert not restated(repo, out, DR2, "src/queue/**")


def test_an_added_document_is_reverified(hw, repo, tmp_path):
    text = (repo / DR3).read_text().replace("ACME-DR-0003", "ACME-DR-0009")
    (repo / "docs/decisions/0009-new.md").write_text(text, encoding="utf-8")
    out = tmp_path / "change"
    hw("change", "HEAD", str(out), "--root", str(repo))
    assert not restated(repo, out, "docs/decisions/0009-new.md", "src/ingest/rate_limit.py")
    edit(repo, "src/ingest/rate_limit.py", "", "# touched\n")
    hw("change", "HEAD", str(out), "--root", str(repo))
    assert restated(repo, out, "docs/decisions/0009-new.md", "src/ingest/rate_limit.py")


# -- what `change` asks git, and what it refuses to write -----------------------------------


def test_a_path_git_names_in_bytes_that_are_not_utf_8_is_refused_before_anything_is_written(hw, repo, tmp_path):
    # the manifest is UTF-8 text: writing it raised UnicodeEncodeError and left the staging folder behind
    (repo / os.fsdecode(b"docs/notes/caf\xe9.md")).write_text("# Caf\n", encoding="utf-8")
    out = tmp_path / "change"
    ran = hw("change", "HEAD", str(out), "--root", str(repo))
    assert ran.status == 1 and ran.out == "" and ran.err == (
        "headwater: `b'docs/notes/caf\\xe9.md'` is a file name that is not UTF-8, which a manifest line cannot carry\n")
    assert sorted(tmp_path.iterdir()) == [repo]


@pytest.mark.parametrize("name", ["docs/notes/a\tb.md", "docs/notes/a\nb.md"])
def test_a_path_holding_a_tab_or_a_line_break_is_refused_naming_it(hw, repo, tmp_path, name):
    (repo / name).write_text("# A\n", encoding="utf-8")
    ran = hw("change", "HEAD", str(tmp_path / "change"), "--root", str(repo))
    assert ran.status == 1 and ran.err == (
        f"headwater: `{name!r}` holds a tab or a line break, which a manifest line cannot carry\n")


def test_a_file_added_to_the_index_is_added_and_an_ignored_one_is_not_news(hw, repo, tmp_path):
    (repo / "docs/notes/staged.md").write_text("# Staged\n", encoding="utf-8")
    git(repo, "add", "docs/notes/staged.md")
    (repo / ".gitignore").write_text("*.log\n", encoding="utf-8")
    (repo / "docs/notes/run.log").write_text("noise\n", encoding="utf-8")
    out = tmp_path / "change"
    assert hw("change", "HEAD", str(out), "--root", str(repo)).status == 0
    assert manifest_lines(out) == ["headwater change 1", "added\t.gitignore", "added\tdocs/notes/staged.md"]


def test_a_rename_is_found_though_the_user_s_git_looks_for_none(hw, repo, tmp_path):
    git(repo, "config", "diff.renames", "false")
    git(repo, "mv", DR3, "docs/decisions/0003-rate-limit.md")
    out = tmp_path / "change"
    assert hw("change", "HEAD", str(out), "--root", str(repo)).status == 0
    assert manifest_lines(out) == ["headwater change 1", f"prior\t{DR3}\tprior/1",
                                   "prior\tdocs/decisions/0003-rate-limit.md\tprior/2"]


def test_a_copy_is_an_addition_though_the_user_s_git_looks_for_copies(hw, repo, tmp_path):
    git(repo, "config", "diff.renames", "copies")
    (repo / "docs/decisions/0009-copy.md").write_bytes((repo / DR2).read_bytes())
    edit(repo, DR2, "last_verified: 2026-09-10", "last_verified: 2026-10-30")  # git finds copies of changed files
    git(repo, "add", "-A")
    assert "C" in git(repo, "diff", "--name-status", "HEAD")
    out = tmp_path / "change"
    assert hw("change", "HEAD", str(out), "--root", str(repo)).status == 0
    assert manifest_lines(out) == ["headwater change 1", "added\tdocs/decisions/0009-copy.md", f"prior\t{DR2}\tprior/1"]


def test_a_root_below_the_repository_s_top_names_paths_from_the_root(hw, tmp_path):
    top = tmp_path / "top"
    copy_tree(FIXTURES / "quickstart", top / "site")
    git(top, "init", "-q")
    git(top, "add", "-A")
    git(top, "-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "base")
    edit(top / "site", DR1, "status: superseded", "status: current")
    out = tmp_path / "change"
    assert hw("change", "HEAD", str(out), "--root", str(top / "site")).status == 0
    assert manifest_lines(out) == ["headwater change 1", f"prior\t{DR1}\tprior/1"]


def test_a_file_named_like_the_base_does_not_make_it_ambiguous(hw, repo, tmp_path):
    (repo / "HEAD").write_text("a file named HEAD\n", encoding="utf-8")
    out = tmp_path / "change"
    assert hw("change", "HEAD", str(out), "--root", str(repo)).status == 0, "ambiguous"
    assert manifest_lines(out) == ["headwater change 1", "added\tHEAD"]


def test_a_committed_out_dir_inside_the_repository_is_not_news_when_it_changes(hw, repo):
    out = repo / "change"
    assert hw("change", "HEAD", str(out), "--root", str(repo)).status == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the manifest, committed")
    edit(repo, DR2, "last_verified: 2026-09-10", "last_verified: 2026-10-30")
    for _ in range(2):  # the second run finds the first's manifest changed since the commit
        assert hw("change", "HEAD", str(out), "--root", str(repo)).status == 0
        assert manifest_lines(out) == ["headwater change 1", f"prior\t{DR2}\tprior/1"]


def test_an_out_dir_two_folders_down_is_made_with_the_modes_the_umask_allows(hw, repo, tmp_path):
    out = tmp_path / "a" / "b" / "change"
    assert hw("change", "HEAD", str(out), "--root", str(repo)).status == 0
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o777 & ~mask


def test_an_out_dir_is_staged_beside_itself_not_in_the_system_s_temp_folder(hw, repo, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "no-such-folder"))
    out = tmp_path / "change"
    for _ in range(2):  # written, then swapped for the old one
        assert hw("change", "HEAD", str(out), "--root", str(repo)).status == 0


def test_a_swap_that_fails_puts_the_old_manifest_back_and_leaves_no_folder_behind(hw, repo, tmp_path, monkeypatch):
    out = tmp_path / "change"
    assert hw("change", "HEAD", str(out), "--root", str(repo)).status == 0
    before = (out / "manifest").read_bytes()
    edit(repo, DR2, "last_verified: 2026-09-10", "last_verified: 2026-10-30")
    real = os.rename

    def rename(source, target):
        if Path(source).name.startswith(".change.") and Path(target) == out:
            raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))
        real(source, target)

    monkeypatch.setattr(os, "rename", rename)
    ran = hw("change", "HEAD", str(out), "--root", str(repo))
    assert ran.status == 1 and ran.err == f"headwater: `{out}` is not writable ({os.strerror(errno.EXDEV)})\n"
    assert (out / "manifest").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["change", repo.name])


def test_each_refusal_of_an_out_dir_says_what_stands_there(hw, repo, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way\n")
    assert hw("change", "HEAD", str(blocker), "--root", str(repo)).err == (
        f"headwater: `{blocker}` is a file, and `change` writes a directory there\n")
    assert hw("change", "HEAD", str(blocker / "change"), "--root", str(repo)).err == (
        f"headwater: `{blocker / 'change'}` is not writable ({os.strerror(errno.EEXIST)})\n")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me\n")
    assert hw("change", "HEAD", str(tmp_path / "mine"), "--root", str(repo)).err == (
        f"headwater: `{tmp_path / 'mine'}` holds `notes.txt`, which `change` did not write; name an empty or new "
        "directory\n")


def test_without_git_on_the_path_change_is_refused_naming_itself(hw, repo, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs"))
    ran = hw("change", "HEAD", str(tmp_path / "change"), "--root", str(repo))
    assert ran.status == 1 and ran.err == "headwater: `change` runs git, and no `git` program is on the PATH\n"


def test_git_s_complaint_is_its_own_words_even_in_bytes_that_are_not_utf_8(repo):
    with pytest.raises(GitFailed) as failed:
        run_git(repo, "`x`", "show", os.fsdecode(b"HEAD:./caf\xe9.md"))
    assert str(failed.value) == "fatal: path 'caf\ufffd.md' does not exist in 'HEAD'"
    with pytest.raises(Refusal) as refused:
        run_git(repo / DR1, "`x`", "status")
    assert str(refused.value) == f"`{repo / DR1}` is not a directory"


def test_a_range_names_no_commit(hw, repo, tmp_path):
    ran = hw("change", "HEAD..HEAD", str(tmp_path / "change"), "--root", str(repo))
    assert ran.status == 1 and ran.err == (
        "headwater: `HEAD..HEAD` names no commit of this repository (a shallow clone may lack it)\n")


def test_a_submodule_that_moved_is_not_a_file_that_changed(hw, repo, tmp_path):
    library = tmp_path / "library"
    library.mkdir()
    git(library, "init", "-q")
    for n in (1, 2):
        (library / "README.md").write_text(f"version {n}\n", encoding="utf-8")
        git(library, "add", "-A")
        git(library, "-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", f"v{n}")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(library), "vendor/library")
    git(repo, "commit", "-q", "-m", "the library")
    git(repo / "vendor/library", "checkout", "-q", "HEAD~1")
    out = tmp_path / "change"
    assert hw("change", "HEAD", str(out), "--root", str(repo)).status == 0
    assert manifest_lines(out) == ["headwater change 1"]
