"""A claim holds its document's path on one line, trimmed; a path it cannot hold that way (a line
break in a file name, blanks at its end) is never written into one, and `check` asks for a rename
instead of offering a fix that would write a claim naming another path."""

from __future__ import annotations

import json
import subprocess

import pytest

from headwater.corpus.claims import claim_text

NOW = ("--now", "2026-11-01")
RECORD = "# {n}. {title}\n\nDate: 2024-01-0{n}\n\n## Status\n\nAccepted\n\n## Context\n\nX.\n\n## Decision\n\nY.\n"


@pytest.mark.parametrize(("path", "held"), [
    ("docs/adr/0001-use-markdown.md", "docs/adr/0001-use-markdown.md\n"),
    ("docs/adr/0002 with blanks inside.md", "docs/adr/0002 with blanks inside.md\n"),
    ("docs/adr/0003-line\nbreak.md", None),
    ("docs/adr/0004-line\u2028separator.md", None),
    ("docs/adr/0005-carriage\rreturn.md", None),
    ("docs/adr/0006-blank-at-the-end.md ", None),
])
def test_a_claim_holds_a_path_only_where_reading_it_back_gives_that_path(path, held):
    assert claim_text(path) == held


@pytest.fixture
def records(tmp_path):
    root = tmp_path / "repo"
    (root / "docs/adr").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "docs/adr/0001-use-markdown.md").write_text(RECORD.format(n=1, title="Use Markdown"))
    (root / "docs/adr/0002-line\nbreak.md").write_text(RECORD.format(n=2, title="Line break"))
    return root


def test_adopt_claims_no_path_a_claim_cannot_hold_and_check_asks_for_a_rename(hw, records):
    assert hw("init", "--root", str(records)).status == 0
    adopted = hw("adopt", "--root", str(records), *NOW)
    assert adopted.status == 0 and "adopted docs/adr/0002-line\\u{a}break.md: " in adopted.out
    claims = records / ".headwater/ids/decision_id"
    assert sorted(p.name for p in claims.iterdir()) == ["ADR-0001"]
    for _ in range(2):  # a fix that cannot write the claim leaves the finding, not a claim naming another path
        assert hw("check", "--fix", "--root", str(records), *NOW).status == 0
        assert sorted(p.name for p in claims.iterdir()) == ["ADR-0001"]
    found = json.loads(hw("check", "--format", "json", "--root", str(records), *NOW).out)["findings"]
    assert [(f["rule"], f["path"], f["fixable"]) for f in found] == [
        ("identifier.claim.missing", "docs/adr/0002-line\nbreak.md", False)]
    assert found[0]["remediation"].startswith("rename the file, then create `.headwater/ids/decision_id/ADR-0002`")


def _files(root) -> dict[str, bytes]:
    """Every file but the disposable cache folder (which holds the write lock)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not str(p.relative_to(root)).startswith(".headwater/cache/")}


def test_new_refuses_a_directory_whose_name_a_claim_cannot_hold_before_it_claims(hw, quickstart):
    (quickstart / "docs/decisions/line\nbreak").mkdir()
    before = _files(quickstart)
    ran = hw("new", "decision", "--title", "Odd folder", "--directory", "docs/decisions/line\nbreak",
             "--root", str(quickstart), *NOW)
    assert ran.status == 1 and ran.out == ""
    assert "a claim holds its document's path on one line, so nothing was written" in ran.err
    assert _files(quickstart) == before
