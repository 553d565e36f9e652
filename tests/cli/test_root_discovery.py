"""Every verb finds the governed root from a subdirectory, as git finds its repository."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

NOW = ("--now", "2026-11-01")


@pytest.fixture
def deep(quickstart, monkeypatch):
    """The quickstart corpus as a git repository, with the working directory two levels down."""
    subprocess.run(["git", "init", "-q", str(quickstart)], check=True)
    subprocess.run(["git", "-C", str(quickstart), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(quickstart), "-c", "user.name=t", "-c", "user.email=t@e",
                    "commit", "-qm", "base"], check=True)
    here = quickstart / "docs" / "decisions"
    monkeypatch.chdir(here)
    return quickstart


@pytest.mark.parametrize("argv", [
    ("check", *NOW),
    ("route", "why do we keep delivery attempts in postgres"),
    ("explain", "ACME-DR-0001"),
    ("show", "ACME-DR-0001"),
    ("taxonomy", "kinds"),
    ("taxonomy", "validate"),
    ("taxonomy", "resolve", "--check"),
])
def test_a_read_from_a_subdirectory_answers_about_the_governed_root(deep, hw, argv):
    from_root = hw(*argv, "--root", str(deep))
    from_below = hw(*argv)
    assert from_below.status == from_root.status == 0, from_below.err
    assert from_below.out == from_root.out and from_below.out


@pytest.mark.parametrize("typed", ["0001-store-attempts-in-postgres.md", "./0001-store-attempts-in-postgres.md",
                                   "../decisions/0001-store-attempts-in-postgres.md",
                                   "docs/decisions/0001-store-attempts-in-postgres.md"])
@pytest.mark.parametrize("verb", ["explain", "show", "related"])
def test_a_path_typed_in_a_subdirectory_is_read_from_there_or_else_as_the_reports_print_it(deep, hw, verb, typed):
    from_root = hw(verb, "docs/decisions/0001-store-attempts-in-postgres.md", "--root", str(deep))
    from_below = hw(verb, typed)
    assert from_below.status == from_root.status == 0, from_below.err
    assert from_below.out == from_root.out


def test_check_path_typed_in_a_subdirectory_selects_that_file(deep, hw):
    (deep / "docs/decisions/0001-store-attempts-in-postgres.md").write_text(
        (deep / "docs/decisions/0001-store-attempts-in-postgres.md").read_text() + "\n[gone](0099-gone.md)\n")
    ran = hw("check", "--path", "0001-store-attempts-in-postgres.md", "--format", "concise", *NOW)
    assert ran.out.startswith("docs/decisions/0001-store-attempts-in-postgres.md:"), ran.out
    assert "link.path.unresolved" in ran.out


@pytest.mark.parametrize("typed", ["does-not-exist", "docs/nowhere/x.md"])
def test_a_check_path_naming_nothing_is_refused_rather_than_passing_strict(deep, hw, typed):
    ran = hw("check", "--path", typed, "--strict", *NOW)
    assert ran.status == 1 and ran.out == ""
    assert ran.err == f"headwater: `--path` names `{typed}`, which is no file or folder of the repository, so " \
        "it would select nothing\n"


def test_new_from_a_subdirectory_writes_on_the_shelf_of_the_root(deep, hw):
    ran = hw("new", "decision", "--title", "Deliver in order", "--summary", "Per tenant.", *NOW)
    assert ran.status == 0, ran.err
    assert "wrote docs/decisions/0004-deliver-in-order.md" in ran.out
    assert (deep / "docs/decisions/0004-deliver-in-order.md").is_file()
    assert not (deep / "docs/decisions/docs").exists()


def test_change_from_a_subdirectory_compares_the_whole_repository(deep, hw, tmp_path):
    (deep / "docs/specifications/ingest-api.md").write_text("# gone\n")
    ran = hw("change", "HEAD", str(tmp_path / "change"))  # an output path is the user's, read from here
    assert ran.status == 0, ran.err
    assert "docs/specifications/ingest-api.md" in (tmp_path / "change/manifest").read_text()


def test_init_inside_a_governed_repository_is_a_refusal_naming_its_root(deep, hw):
    ran = hw("init", "--namespace", "ACME")
    assert ran.status == 1 and ran.out == ""
    assert ran.err.startswith(f"headwater: this directory is inside the repository governed at {deep}")
    assert not (deep / "docs/decisions/.headwater").exists()


def test_init_from_a_subdirectory_of_an_ungoverned_git_repository_binds_its_top_level(tmp_path, hw, monkeypatch):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "docs/adr").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "docs/adr")
    assert hw("init", "--namespace", "ACME").status == 0
    assert (tmp_path / ".headwater/taxonomy.yml").is_file()
    assert not (tmp_path / "docs/adr/.headwater").exists()


def test_root_still_wins_over_discovery(deep, hw, copy_fixture):
    other = copy_fixture("routing")
    assert hw("check", "--root", str(other), *NOW).out != hw("check", *NOW).out


def test_the_mcp_server_started_in_a_subdirectory_serves_the_governed_root(deep):
    lines = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
              "params": {"name": "resolve_identifier", "arguments": {"id": "ACME-DR-0001"}}}]
    process = subprocess.run([sys.executable, "-m", "headwater", "mcp", *NOW], cwd=deep / "docs/decisions",
                             input=b"".join(json.dumps(m).encode() + b"\n" for m in lines),
                             capture_output=True, timeout=60)
    assert process.returncode == 0, process.stderr
    answer = json.loads(process.stdout.splitlines()[1])["result"]["content"][0]["text"]
    assert answer.startswith("docs/decisions/0001-store-attempts-in-postgres.md")
