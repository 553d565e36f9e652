"""`check --staged`: a commit gate judges what git's index holds, never the working tree beside it."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, copy_tree
from tests.fixture_locks import REPO

GIT = ("git", "-c", "user.name=headwater tests", "-c", "user.email=tests@headwater.invalid",
       "-c", "commit.gpgsign=false")
RATE = "docs/decisions/0003-rate-limit-per-tenant.md"
BROKEN = "status: bogus"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed here")


def _git(root: Path, *args: str) -> None:
    subprocess.run([*GIT, *args], cwd=root, check=True, capture_output=True)


@pytest.fixture
def committed(quickstart) -> Path:
    _git(quickstart, "init", "--quiet")
    _git(quickstart, "add", "--all")
    _git(quickstart, "commit", "--quiet", "--message", "corpus")
    return quickstart


def _gate(hw, root: Path, *more: str):
    return hw("check", "--strict", "--staged", "--root", str(root), "--now", "2026-11-01", *more)


def _break(root: Path) -> str:
    path = root / RATE
    original = path.read_text(encoding="utf-8")
    path.write_text(original.replace("status: current", BROKEN), encoding="utf-8")
    return original


def test_a_staged_error_fails_the_gate_though_an_unstaged_edit_fixed_it(hw, committed):
    original = _break(committed)
    _git(committed, "add", RATE)
    (committed / RATE).write_text(original, encoding="utf-8")  # fixed in the tree, never staged
    gate = _gate(hw, committed)
    assert gate.status == 1 and f"{RATE}:" in gate.out and "facet.value" in gate.out
    assert hw("check", "--strict", "--root", str(committed), "--now", "2026-11-01").status == 0


def test_an_unstaged_error_or_an_untracked_draft_does_not_fail_the_gate(hw, committed):
    _break(committed)
    (committed / "docs/decisions/0099-draft.md").write_text("---\nid: ACME-DR-0099\nstatus: bogus\n---\n# Draft\n")
    assert hw("check", "--strict", "--root", str(committed), "--now", "2026-11-01").status == 1
    gate = _gate(hw, committed)
    assert gate.status == 0, gate.out
    assert "0099-draft" not in gate.out and BROKEN not in gate.out


def test_a_binding_the_working_tree_holds_and_the_index_does_not_is_refused_naming_what_to_stage(hw, quickstart):
    """After `init`, the gate would otherwise tell the user to run `init` again."""
    _git(quickstart, "init", "--quiet")
    _git(quickstart, "add", "docs")
    gate = _gate(hw, quickstart)
    assert gate.status == 1 and gate.out == ""
    assert gate.err == ("headwater: `--staged` checks what the commit holds, and git's index does not hold "
                        ".headwater/taxonomy.yml or .headwater/taxonomy.lock, which the working tree does: "
                        "stage them with `git add .headwater/taxonomy.yml .headwater/taxonomy.lock`\n")
    _git(quickstart, "add", ".headwater/taxonomy.yml")
    assert _gate(hw, quickstart).err.endswith("stage it with `git add .headwater/taxonomy.lock`\n")


def test_a_file_only_intended_to_be_added_is_not_in_the_commit_the_gate_checks(hw, committed):
    """`git add -N` puts an empty entry in the index, which the commit leaves out."""
    draft = "docs/decisions/0099-draft.md"
    (committed / draft).write_text("---\nid: ACME-DR-0099\nstatus: bogus\n---\n# Draft\n")
    _git(committed, "add", "--intent-to-add", draft)
    gate = _gate(hw, committed)
    assert gate.status == 0 and "0099-draft" not in gate.out, gate.out


def test_the_gate_writes_nothing_in_the_working_tree_and_leaves_no_folder_behind(hw, committed):
    assert hw("check", "--root", str(committed), "--now", "2026-11-01").status == 0  # the cache it copies
    before = {p: p.read_bytes() for p in committed.rglob("*") if p.is_file()}
    scratch = set(Path(tempfile.gettempdir()).glob("headwater-staged-*"))
    gate = _gate(hw, committed, "--verbose")
    assert gate.status == 0
    assert "headwater: cache: " in gate.err and ", 0 misses" in gate.err  # every verdict reused from the copy
    assert {p: p.read_bytes() for p in committed.rglob("*") if p.is_file()} == before
    assert set(Path(tempfile.gettempdir()).glob("headwater-staged-*")) == scratch


def test_a_root_in_no_git_work_tree_and_fix_beside_staged_are_refused(hw, quickstart):
    refused = _gate(hw, quickstart)
    assert refused.status == 1 and refused.out == "" and refused.err == (  # no absolute path of the machine
        "headwater: `--staged` checks what git's index holds, and this repository is in no git work tree\n")
    both = _gate(hw, quickstart, "--fix")
    assert both.status == 1 and both.err.startswith("headwater: `--fix` writes the working tree and `--staged`")


def test_a_lock_left_unstaged_is_refused_with_the_files_to_stage_not_only_resolve(hw, committed):
    """Resolving again changes nothing the gate reads: the commit needs the fresh lock staged."""
    overlay = committed / ".headwater/overlay.yml"
    overlay.write_text(overlay.read_text(encoding="utf-8") + "override:\n  facets.status.guidance: \"its status\"\n",
                       encoding="utf-8")
    assert hw("taxonomy", "resolve", "--root", str(committed)).status == 0
    _git(committed, "add", ".headwater/overlay.yml")  # the source staged, its lock forgotten
    assert hw("check", "--strict", "--root", str(committed), "--now", "2026-11-01").status == 0
    gate = _gate(hw, committed)
    assert gate.status == 1 and gate.out == ""
    assert gate.err == ("headwater: the .headwater/taxonomy.lock git's index holds is stale: .headwater/overlay.yml "
                        "changed since it was resolved. Run `headwater taxonomy resolve`, then stage the lock with "
                        "its sources: `git add .headwater/taxonomy.lock .headwater/overlay.yml`\n")


def test_a_staged_root_in_a_folder_of_the_work_tree_names_github_s_paths_from_the_work_tree_s_top(hw, tmp_path):
    """The index is checked in a private folder, which lies in no work tree; the annotations and
    the SARIF locations still name each file where GitHub reads it, from the repository's top."""
    top = tmp_path / "monorepo"
    root = copy_tree(FIXTURES / "quickstart", top / "site")
    _break(root)
    _git(top, "init", "--quiet")
    _git(top, "add", "--all")
    github = _gate(hw, root, "--format", "github")
    assert github.status == 1 and f"::error file=site/{RATE}," in github.out, github.out
    sarif = _gate(hw, root, "--format", "sarif")
    assert sarif.status == 1 and f'"uri": "site/{RATE}"' in sarif.out
    text = _gate(hw, root).out
    assert f"  {RATE}:" in text and "site/" not in text  # the text report keeps its paths at the root


def test_the_guide_s_baseline_lets_a_corpus_with_errors_commit_and_a_new_error_still_fails(hw, tmp_path):
    guide = (REPO / "docs" / "guides" / "pre-commit.md").read_text(encoding="utf-8")
    baseline = re.search(r"`headwater (adopt --baseline [^`]*)`", guide).group(1)
    root = copy_tree(FIXTURES / "check-all", tmp_path / "legacy")
    _git(root, "init", "--quiet")
    _git(root, "add", "--all")
    assert _gate(hw, root).status == 1
    assert hw(*shlex.split(baseline), "--root", str(root), "--now", "2026-11-01").status == 0
    _git(root, "add", "--all")
    assert _gate(hw, root).status == 0
    base = root / "docs/decisions/0001-base.md"
    (root / "docs/decisions/0099-copy.md").write_text(base.read_text(encoding="utf-8"), encoding="utf-8")
    _git(root, "add", "docs/decisions/0099-copy.md")
    again = _gate(hw, root)
    assert again.status == 1 and "identifier.claimed_twice" in again.out and "0099-copy.md" in again.out


@pytest.fixture
def monorepo(tmp_path) -> Path:
    """The quickstart corpus governing `site/` of a repository that holds code beside it."""
    top = tmp_path / "monorepo"
    copy_tree(FIXTURES / "quickstart", top / "site")
    (top / "service").mkdir()
    (top / "service/app.py").write_text("print('not the corpus')\n")
    (top / "README.md").write_text("# a repository with a docs site\n")
    _git(top, "init", "--quiet")
    _git(top, "add", "--all")
    _git(top, "commit", "--quiet", "--message", "monorepo")
    return top / "site"


def test_a_gate_over_a_folder_writes_out_only_the_index_s_entries_under_it(monorepo):
    """A docs site of a large repository would pay for every file of the repository at every commit."""
    from headwater.cli.staged import staged_root

    with staged_root(monorepo) as staged:
        assert (staged / RATE).read_bytes() == (monorepo / RATE).read_bytes()
        assert (staged / "src/ingest/rate_limit.py").is_file()  # the code its anchors name, under the root
        assert [p.name for p in staged.parent.iterdir()] == ["site"]
        assert not (staged.parent / "service/app.py").exists() and not (staged.parent / "README.md").exists()


def test_a_gate_over_a_folder_judges_as_a_plain_check_does_and_its_anchors_bind_what_the_index_holds(hw, monorepo):
    gate = _gate(hw, monorepo, "--format", "json")
    plain = hw("check", "--strict", "--root", str(monorepo), "--now", "2026-11-01", "--format", "json")
    assert gate.status == plain.status == 0 and gate.out == plain.out
    _git(monorepo.parent, "rm", "--cached", "--quiet", "site/src/ingest/rate_limit.py")  # in the tree, not the commit
    unbound = _gate(hw, monorepo)
    assert unbound.status == 1, unbound.out
    assert "relation.target.unresolved: `governs: src/ingest/rate_limit.py` binds to" in unbound.out
    assert hw("check", "--strict", "--root", str(monorepo), "--now", "2026-11-01").status == 0


@pytest.mark.parametrize("setting", ["GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS",
                                     "GIT_LITERAL_PATHSPECS"])
def test_a_user_s_global_pathspec_setting_does_not_change_what_a_gate_over_a_folder_reads(hw, monorepo, monkeypatch,
                                                                                          setting):
    """git refuses `--literal-pathspecs` beside any other global pathspec setting, and the gate's paths are literal."""
    plain = _gate(hw, monorepo, "--format", "json")
    monkeypatch.setenv(setting, "1")
    gate = _gate(hw, monorepo, "--format", "json")
    assert (gate.status, gate.err, gate.out) == (plain.status, "", plain.out)
    assert plain.status == 0


def test_odd_names_links_and_a_submodule_under_the_root_come_through_as_the_index_holds_them(monorepo):
    from headwater.cli.staged import staged_root

    odd = [b"docs/notes/a b.md", b"docs/notes/new\nline.md", b"docs/notes/caf\xe9.md", b"docs/notes/-dash.md"]
    for name in odd:
        (monorepo / os.fsdecode(name)).write_bytes(b"# " + name + b"\n")
    (monorepo / "docs/notes/linked.md").symlink_to("a b.md")
    _git(monorepo, "add", "--all")
    submodule = "160000,1234567890123456789012345678901234567890,site/vendored"  # a gitlink: no file, a folder
    _git(monorepo, "update-index", "--add", "--cacheinfo", submodule)
    with staged_root(monorepo) as staged:
        for name in odd:
            assert (staged / os.fsdecode(name)).read_bytes() == b"# " + name + b"\n"
        assert os.readlink(staged / "docs/notes/linked.md") == "a b.md"
        assert (staged / "vendored").is_dir() and not any((staged / "vendored").iterdir())


def test_a_gate_over_a_folder_writes_nothing_outside_its_private_folder(hw, monorepo):
    top = monorepo.parent
    assert hw("check", "--root", str(monorepo), "--now", "2026-11-01").status == 0  # the cache it copies

    def held() -> dict[Path, tuple[bytes, int]]:  # `.git` too: the gate reads the index, never writes it
        return {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in top.rglob("*") if p.is_file()}

    before = held()
    scratch = set(Path(tempfile.gettempdir()).glob("headwater-staged-*"))
    assert _gate(hw, monorepo).status == 0
    assert held() == before
    assert set(Path(tempfile.gettempdir()).glob("headwater-staged-*")) == scratch


def test_a_root_reached_through_a_link_out_of_its_work_tree_is_refused(hw, tmp_path):
    """Its place in git's index would be the link, and the folder it leads to is no part of the commit."""
    elsewhere = copy_tree(FIXTURES / "quickstart", tmp_path / "elsewhere")
    top = tmp_path / "repository"
    top.mkdir()
    (top / "site").symlink_to(elsewhere, target_is_directory=True)
    _git(top, "init", "--quiet")
    _git(top, "add", "--all")
    gate = _gate(hw, top / "site")
    assert gate.status == 1 and gate.out == ""
    assert gate.err == ("headwater: `--staged` checks what git's index holds, and the root is a link out of "
                        "its git work tree\n")


def test_a_hook_in_a_linked_work_tree_checks_the_index_each_kind_of_commit_writes(tmp_path, monkeypatch):
    """git hands a hook `GIT_DIR` in a linked work tree (git run in a folder below then takes that folder
    for the top) and, for `commit -a` or `commit <path>`, an index of its own in `GIT_INDEX_FILE`: the
    gate over a folder reads the commit's index from the top, and writes out only the folder."""
    from headwater.cli.staged import staged_root

    main = tmp_path / "main"
    copy_tree(FIXTURES / "quickstart", main / "site")
    (main / "README.md").write_text("# a repository with a docs site\n")
    _git(main, "init", "--quiet")
    _git(main, "add", "--all")
    _git(main, "commit", "--quiet", "--message", "corpus")
    linked = tmp_path / "linked"
    _git(main, "worktree", "add", "--quiet", str(linked))
    hooks = Path(subprocess.run(["git", "rev-parse", "--git-path", "hooks"], cwd=linked, check=True,
                                capture_output=True, text=True).stdout.strip())
    hooks = hooks if hooks.is_absolute() else linked / hooks
    hooks.mkdir(parents=True, exist_ok=True)
    (hooks / "pre-commit").write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m headwater check --strict "
                                      "--staged --root site --now 2026-11-01\n")
    (hooks / "pre-commit").chmod(0o755)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with monkeypatch.context() as hook:
        hook.setenv("GIT_DIR", subprocess.run(["git", "rev-parse", "--absolute-git-dir"], cwd=linked, check=True,
                                              capture_output=True, text=True).stdout.strip())
        hook.chdir(linked)
        with staged_root(linked / "site") as staged:
            assert [p.name for p in staged.parent.iterdir()] == ["site"] and (staged / RATE).is_file()

    def commit(*args: str) -> tuple[int, str]:  # git hands the hook's output on to its stderr
        ran = subprocess.run([*GIT, "commit", "--quiet", "--message", "edit", *args], cwd=linked, env=env,
                             capture_output=True, text=True)
        return ran.returncode, ran.stdout + ran.stderr

    _break(linked / "site")
    status, said = commit("--all")
    assert status == 1 and f"{RATE}:" in said and "facet.value" in said, said
    status, said = commit("--", f"site/{RATE}")
    assert status == 1 and f"{RATE}:" in said and "facet.value" in said, said
    (linked / "site" / RATE).write_text((main / "site" / RATE).read_text(encoding="utf-8"), encoding="utf-8")
    (linked / "site/docs/notes/meeting-2026-09.md").write_text("# Meeting\n\nMoved.\n", encoding="utf-8")
    status, said = commit("--all")
    assert status == 0, said


def test_the_gate_carries_the_cache_it_wrote_back_so_the_next_commit_starts_warm(hw, committed):
    """A team that only ever commits runs no plain check: each gate would start cold."""
    first = _gate(hw, committed, "--verbose")
    assert first.status == 0 and ", 0 misses" not in first.err and "headwater: cache: " in first.err
    second = _gate(hw, committed, "--verbose")
    assert second.status == 0 and "headwater: cache: " in second.err and ", 0 misses" in second.err
    assert {p.name for p in (committed / ".headwater/cache").iterdir()} >= {"checks", "fronts", "parsed"}
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=committed,
                            capture_output=True, text=True, check=True)
    assert status.stdout == ""  # the cache ignores itself; no tracked file moved


def test_a_cache_another_run_rewrote_during_the_gate_is_left_as_that_run_wrote_it(committed):
    from headwater import atomic
    from headwater.cli.staged import staged_root

    cache = committed / ".headwater/cache"
    with staged_root(committed) as staged:
        (staged / ".headwater/cache").mkdir(parents=True, exist_ok=True)
        (staged / ".headwater/cache/parsed").write_bytes(b"the gate's\n")
        atomic.write_bytes(cache / "parsed", b"a plain check's, meanwhile\n", root=committed, durable=False)
    assert (cache / "parsed").read_bytes() == b"a plain check's, meanwhile\n"
    with staged_root(committed) as staged:
        (staged / ".headwater/cache/parsed").write_bytes(b"the gate's\n")
    assert (cache / "parsed").read_bytes() == b"the gate's\n"  # nobody wrote meanwhile: carried back


def test_the_gate_carries_nothing_back_through_a_linked_cache_folder(hw, committed, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (committed / ".headwater/cache").symlink_to(outside, target_is_directory=True)
    gate = _gate(hw, committed)
    assert gate.status == 0, gate.err
    assert list(outside.iterdir()) == []


def test_a_gate_ended_by_sigterm_says_so_and_leaves_no_private_folder_behind(committed, tmp_path):
    """A timeout or a CI runner ends a hook with SIGTERM, whose default ends Python with no clean-up:
    the written-out index stayed in the temporary folder, one copy per killed commit."""
    import signal
    import time

    scratch, bin_folder, began = tmp_path / "scratch", tmp_path / "bin", tmp_path / "began"
    scratch.mkdir()
    bin_folder.mkdir()
    real = shutil.which("git")
    fake = bin_folder / "git"  # git, but slow once the index is written out
    fake.write_text(f'#!/bin/sh\ncase "$*" in *diff-files*) touch {shlex.quote(str(began))}; sleep 30;; esac\n'
                    f'exec {shlex.quote(real)} "$@"\n', encoding="utf-8")
    fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_folder}{os.pathsep}{os.environ['PATH']}", "TMPDIR": str(scratch)}
    gate = subprocess.Popen([sys.executable, "-m", "headwater", "check", "--staged", "--root", str(committed)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not began.exists() and gate.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert began.exists(), gate.communicate()
    assert list(scratch.glob("headwater-staged-*"))  # the folder is there while the gate runs
    gate.send_signal(signal.SIGTERM)
    out, err = gate.communicate(timeout=60)
    assert gate.returncode == 1 and out == "", (out, err)
    assert "interrupted (SIGTERM)" in err
    assert not list(scratch.glob("headwater-staged-*"))
