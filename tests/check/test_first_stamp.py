"""A bare `governs` entry gets its first `verified_revision` once a change states its re-read."""

import subprocess

DOC = "docs/decisions/0003-rate-limit-per-tenant.md"
CODE = "src/ingest/rate_limit.py"
NOW = ("--now", "2026-11-01")


def git_repo(root):
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base"]):
        subprocess.run(["git", *args], cwd=root, check=True)


def test_an_unstamped_edge_is_stamped_only_after_the_change_states_its_re_read(quickstart, tmp_path, hw):
    git_repo(quickstart)
    root = ("--root", str(quickstart))
    assert "relation.target.suspect" not in hw("check", *NOW, *root).out
    manifest = tmp_path / "change" / "manifest"
    assert hw("change", "HEAD", str(manifest.parent), *root).status == 0
    unstated = hw("check", "--change", str(manifest), *NOW, *root)
    assert "relation.target.suspect" not in unstated.out
    assert hw("change", "HEAD", str(manifest.parent), "--verified-edge", DOC, CODE, *root).status == 0
    stated = hw("check", "--change", str(manifest), *NOW, *root)
    assert f"{DOC}:10:12 · info" in stated.out and "fix (mechanical)" in stated.out
    fixed = hw("check", "--fix", "--change", str(manifest), *NOW, *root)
    assert f"headwater: fixed {DOC} (1 patch)" in fixed.err
    assert "  governs: {to: src/ingest/rate_limit.py, verified_revision: \"sha256:" in (quickstart / DOC).read_text()
    assert hw("check", "--strict", *NOW, *root).status == 0
    with (quickstart / CODE).open("a") as code:
        code.write("# the code moved\n")
    moved = hw("check", *NOW, *root)
    assert f"{DOC}:10:62 ▲ warn" in moved.out and "relation.target.suspect" in moved.out
