"""Confinement: no path argument of any verb or tool reads or writes outside the root."""

import os

import pytest

from tests.conftest import hw_process

OUTSIDE = ["../outside.md", "/etc/passwd", "~/notes.md", "docs/../../x.md", "docs/\udcff.md"]


@pytest.fixture
def escape(quickstart, tmp_path):
    """A symlink inside the corpus that leads out, and a secret beyond it."""
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "plans.md").write_text("---\nid: ACME-DR-0999\n---\n")
    os.symlink(secret, quickstart / "docs" / "out")
    os.symlink(quickstart / "docs", quickstart / "docs" / "in")  # inside, on the way to the one out
    return quickstart


@pytest.mark.parametrize("argument", [*OUTSIDE, "docs/out/plans.md", "docs/in/out/plans.md"])
@pytest.mark.parametrize("verb", ["explain", "show"])
def test_explain_and_show_never_follow_a_path_out(escape, hw, verb, argument):
    inside = hw(verb, "docs/decisions/0001-store-attempts-in-postgres.md", "--root", str(escape))
    assert inside.status == 0 and "ACME-DR-0001" in inside.out  # the same verb reads a path inside
    # an undecodable argument arrives from a real argv: the in-process capture cannot print it back
    run = hw_process if "\udcff" in argument else hw
    ran = run(verb, argument, "--root", str(escape))
    assert ran.status == 1 and ran.out == ""
    # an undecodable byte is refused as such before any path is read (the command line's one rule)
    said = "is not valid UTF-8" if "\udcff" in argument else "outside"
    assert ran.err.startswith("headwater: ") and ran.err.count("\n") == 1 and said in ran.err
    assert "ACME-DR-0999" not in ran.err


@pytest.mark.parametrize("argument", [*OUTSIDE, "docs/out/plans.md", "docs/in/out/plans.md", "a\x00b"])
def test_mcp_path_tools_answer_outside_and_read_nothing(escape, argument):
    from tests.mcp.mcp_session import Session

    session = Session(escape)
    if "\udcff" in argument:  # JSON carries it as a lone surrogate: not text, so not a request
        response = session.call("explain", target=argument)
        assert response["error"]["code"] == -32600 and "lone surrogate" in response["error"]["message"]
        return
    for tool, key in (("explain", "target"), ("related", "target"), ("governing_docs_for_path", "path")):
        result = session.call(tool, **{key: argument})["result"]
        text = result["content"][0]["text"]
        assert "ACME-DR-0999" not in text
        assert result["isError"] is False
    assert session.call("governing_docs_for_path", path=argument)["result"]["structuredContent"] == {"pointers": []}


@pytest.mark.parametrize("directory", ["../elsewhere", "/tmp", "docs/out", "~"])
def test_new_never_writes_outside_the_shelf(escape, hw, directory):
    ran = hw("new", "decision", "--title", "Escape", "--directory", directory, "--root", str(escape))
    assert ran.status == 1 and ran.out == ""
    assert not list((escape / "docs" / "out").iterdir())[1:]  # only the secret's own file


@pytest.mark.parametrize("target", ["../outside/**", "/etc/**", "docs/out/**"])
def test_new_refuses_a_code_path_target_outside_the_repository(escape, hw, target):
    """`docs/out/**` lists nothing: a subtree reached through a symlink is not the repository's."""
    ran = hw("new", "decision", "--title", "Escape", "--relates", f"governs={target}", "--root", str(escape))
    assert ran.status == 1 and ran.out == ""


def test_route_reads_no_path_outside_the_root(escape, hw):
    ran = hw("route", "look at ../../etc/passwd and docs/out/plans.md and /etc/shadow", "--json",
             "--root", str(escape))
    assert ran.status == 0
    import json

    answer = json.loads(ran.out)
    assert answer["ungoverned"] == [] and answer["anchors"] == []
    assert "ACME-DR-0999" not in ran.out


def test_init_refuses_a_corpus_root_outside(tmp_path, hw):
    ran = hw("init", "--corpus", "../x", "--root", str(tmp_path))
    assert ran.status == 1 and not (tmp_path / ".headwater").exists()


@pytest.mark.parametrize("line", [
    "prior\tdocs/decisions/0002-deliver-at-least-once.md\t../../../etc/passwd",
    "prior\tdocs/decisions/0002-deliver-at-least-once.md\t/etc/passwd",
    "prior\t../../etc/passwd\tprior/1",
    "added\t/etc/passwd",
    "verified\t../outside.md",
])
def test_a_change_manifest_never_reaches_outside_the_repository_or_its_own_folder(quickstart, tmp_path, hw, line):
    manifest = tmp_path / "change" / "manifest"
    (manifest.parent / "prior").mkdir(parents=True)
    (manifest.parent / "prior" / "1").write_text("x\n")
    manifest.write_text(f"headwater change 1\n{line}\n")
    ran = hw("check", "--change", str(manifest), "--root", str(quickstart))
    assert ran.status == 1 and ran.out == "" and "outside" in ran.err


def test_an_anchor_revision_never_follows_a_symlink_out_of_the_root(quickstart, tmp_path):
    """A link beside governed code to a pipe outside: followed, the revision would block."""
    import subprocess
    import sys

    os.mkfifo(tmp_path / "pipe")
    os.symlink(tmp_path / "pipe", quickstart / "src" / "queue" / "escape.py")
    doc = quickstart / "docs/decisions/0002-deliver-at-least-once.md"
    doc.write_text(doc.read_text().replace("    - src/queue/**\n",
                                           "    - {to: src/queue, verified_revision: \"sha256:00\"}\n"))
    ran = subprocess.run([sys.executable, "-m", "headwater", "check", "--no-cache", "--root", str(quickstart)],
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0 and "relation.target.suspect" in ran.stdout


def test_route_reads_no_gitignore_through_a_symlinked_directory(copy_fixture, tmp_path, hw):
    """A `.gitignore` of `*` beyond a symlinked directory would hide its paths: beyond a link that
    stays inside, it is not read, so the path is listed; a path through a link out of the root
    names nothing in this repository, so it is not listed at all. Read in place, a real
    directory's `.gitignore` hides what it names (the control)."""
    import json

    routing = copy_fixture("routing")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / ".gitignore").write_text("*\n")
    os.symlink(tmp_path / "outside", routing / "src" / "linked")
    (routing / "kept").mkdir()
    (routing / "kept" / ".gitignore").write_text("*\n")
    os.symlink(routing / "kept", routing / "src" / "inward")
    (routing / "src" / "other").mkdir()
    (routing / "src" / "other" / ".gitignore").write_text("*.tmp\n")
    ran = hw("route", "tidy src/linked/x.py and src/inward/x.py and src/other/y.py and src/other/z.tmp", "--json",
             "--root", str(routing))
    assert ran.status == 0 and ran.err == ""
    assert [entry["path"] for entry in json.loads(ran.out)["ungoverned"]] == ["src/inward/x.py", "src/other/y.py"]
