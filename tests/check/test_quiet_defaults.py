"""Defaults that are quiet on real records: terminal freshness, distinct fixable identifiers, and a
strict gate over nothing classified."""

from __future__ import annotations

import json

NOW = ("--now", "2026-11-01")
STALE = "rules/facet.freshness.stale/fail"
DOC = "docs/decisions/0001-base.md"


def findings(hw, root, *extra) -> list[dict]:
    ran = hw("check", "--root", str(root), *NOW, "--json", "--no-cache", *extra)
    return json.loads(ran.out)["findings"]


def test_a_superseded_record_never_goes_stale_and_a_current_one_does(hw, copy_fixture):
    root = copy_fixture(STALE)
    assert [f["rule"] for f in findings(hw, root)].count("facet.freshness.stale") == 1
    text = (root / DOC).read_text().replace("status: current", "status: deprecated")
    (root / DOC).write_text(text)
    assert "facet.freshness.stale" not in [f["rule"] for f in findings(hw, root)]


def _strip_ids(root, names: list[str]) -> None:
    for name in names:
        path = root / "docs/decisions" / name
        path.write_text("\n".join(line for line in path.read_text().split("\n") if not line.startswith("id: ")))


def test_documents_without_an_id_are_proposed_distinct_ones_from_their_own_numbers(hw, quickstart):
    _strip_ids(quickstart, ["0002-deliver-at-least-once.md", "0003-rate-limit-per-tenant.md"])
    (quickstart / "docs/decisions/notes-on-queues.md").write_text(
        (quickstart / "docs/decisions/0003-rate-limit-per-tenant.md").read_text())
    (quickstart / ".headwater/ids/decision_id/ACME-DR-0003").unlink()
    unusable = {f["path"].split("/")[-1]: f["remediation"].split("`")[1]
                for f in findings(hw, quickstart) if f["rule"] == "identifier.unusable"}
    # 0002's claim holds its own path, so it is its own; the copy cannot take 0003 twice
    assert unusable == {"0002-deliver-at-least-once.md": "id: ACME-DR-0002",
                        "0003-rate-limit-per-tenant.md": "id: ACME-DR-0003",
                        "notes-on-queues.md": "id: ACME-DR-0004"}



def test_a_claim_linked_out_of_the_root_is_not_read_as_the_documents_own_and_is_spent(hw, quickstart, tmp_path):
    _strip_ids(quickstart, ["0002-deliver-at-least-once.md"])
    outside = tmp_path / "outside"
    outside.write_text("docs/decisions/0002-deliver-at-least-once.md\n")
    claim = quickstart / ".headwater/ids/decision_id/ACME-DR-0002"
    claim.unlink()
    claim.symlink_to(outside)
    unusable = {f["path"].split("/")[-1]: f["remediation"].split("`")[1]
                for f in findings(hw, quickstart) if f["rule"] == "identifier.unusable"}
    # read through the link, the outside file would have made 0002 this document's own claim
    assert unusable == {"0002-deliver-at-least-once.md": "id: ACME-DR-0004"}
    assert claim.is_symlink() and outside.read_text() == "docs/decisions/0002-deliver-at-least-once.md\n"

def test_fix_mints_the_missing_identifiers_with_their_claims_and_a_second_fix_writes_nothing(hw, copy_fixture):
    root = copy_fixture(STALE)
    _strip_ids(root, ["0001-base.md"])
    (root / ".headwater/ids/decision_id/ACME-DR-0001").unlink()
    assert [f["remediation"] for f in findings(hw, root) if f["rule"] == "identifier.unusable"] == [
        "add `id: ACME-DR-0001` and its claim `.headwater/ids/decision_id/ACME-DR-0001` "
        "(`headwater check --fix` writes both)"]
    fixed = hw("check", "--root", str(root), *NOW, "--fix", "--no-cache")
    assert fixed.status == 0 and f"headwater: fixed {DOC}" in fixed.err
    assert "id: ACME-DR-0001\n" in (root / DOC).read_text()
    assert (root / ".headwater/ids/decision_id/ACME-DR-0001").read_text() == DOC + "\n"
    after = [f["rule"] for f in findings(hw, root)]
    assert "identifier.unusable" not in after and "identifier.claim.missing" not in after
    again = hw("check", "--root", str(root), *NOW, "--fix", "--no-cache")
    assert "fixed" not in again.err


def test_a_check_between_init_and_adopt_says_adopt_types_the_records_and_never_that_none_is_on_a_shelf(hw, tmp_path):
    """On adr-tools after `init`, every record lies on the `decisions` shelf with no front matter yet:
    the report sent a newcomer to `taxonomy kinds` alone, and `--strict` said none was on a shelf."""
    records = tmp_path / "doc/adr"
    records.mkdir(parents=True)
    for n in (1, 2):
        (records / f"000{n}-record-{n}.md").write_text(f"# {n}. Record\n\nDate: 2016-02-12\n\n## Status\n\n"
                                                       "Accepted\n\n## Context\n\nWhy.\n")
    assert hw("init", "--root", str(tmp_path)).status == 0
    text = " ".join(hw("check", "--root", str(tmp_path), *NOW).out.split())
    assert ("nothing was checked: no file under the corpus root has a kind; `headwater adopt` types the records "
            "already on a shelf, and `headwater taxonomy kinds` names the shelf each kind lives on") in text, text
    strict = hw("check", "--root", str(tmp_path), *NOW, "--strict")
    assert strict.status == 1 and strict.err == (
        "headwater: --strict fails because no document is classified: 2 files seen under `doc`, none of them "
        "typed, so no rule judged anything. Run `headwater adopt` to type the records already on a shelf, or "
        "`headwater taxonomy kinds` to see where each kind lives\n"), strict.err


def test_strict_over_a_corpus_with_nothing_classified_fails_and_says_what_to_run(hw, quickstart):
    for path in (quickstart / "docs").rglob("*.md"):
        path.rename(path.with_suffix(".txt"))
    ran = hw("check", "--root", str(quickstart), *NOW, "--strict")
    assert ran.status == 1
    assert "headwater: --strict fails because no document is classified" in ran.err
    assert "headwater taxonomy kinds" in ran.err
    assert hw("check", "--root", str(quickstart), *NOW).status == 0


def placeholders(hw, root) -> list[tuple[str, str]]:
    """(severity, what is still a placeholder: the facet or the section)."""
    return [(f["severity"], f["message"].split("`")[1]) for f in findings(hw, root)
            if f["rule"] == "placeholder.unwritten"]


def test_a_placeholder_new_wrote_fails_strict_once_the_document_is_no_longer_a_draft(hw, quickstart):
    assert hw("new", "decision", "--title", "Deliver in order", "--root", str(quickstart), *NOW).status == 0
    path = quickstart / "docs/decisions/0004-deliver-in-order.md"
    held = placeholders(hw, quickstart)
    assert held == [("error", "summary"), ("warn", "Context"), ("warn", "Decision"),
                    ("warn", "Consequences")]
    text = path.read_text().replace("status: draft", "status: current")
    text = text.replace("summary: \"TODO one sentence: what a reader learns here, which is what routing reads\"",
                        "summary: Jobs of one tenant run in order.")
    path.write_text(text)
    live = placeholders(hw, quickstart)
    assert live == [("error", "Context"), ("error", "Decision"), ("error", "Consequences")]
    assert hw("check", "--root", str(quickstart), *NOW, "--strict").status == 1


def test_a_section_placeholder_s_fix_says_whether_the_kind_requires_the_section(hw, quickstart):
    """Every section placeholder said `write the section, or delete it if the kind does not require
    it`, and a newcomer had to look up whether the kind does: `new` writes only required sections."""
    assert hw("new", "decision", "--title", "Deliver in order", "--root", str(quickstart), *NOW).status == 0
    path = quickstart / "docs/decisions/0004-deliver-in-order.md"
    path.write_text(path.read_text() + "\n## Alternatives\n\nTODO write this section.\n")
    fixes = {f["message"].split("`")[1]: f["remediation"] for f in findings(hw, quickstart)
             if f["rule"] == "placeholder.unwritten" and "section" in f["message"]}
    assert fixes == {"Context": "write the section: the kind `decision` requires it",
                     "Decision": "write the section: the kind `decision` requires it",
                     "Consequences": "write the section: the kind `decision` requires it",
                     "Alternatives": "write the section, or delete it: the kind `decision` does not require it"}


def test_an_author_writing_todo_is_not_an_engine_placeholder(hw, copy_fixture):
    root = copy_fixture(STALE)
    (root / DOC).write_text((root / DOC).read_text() + "\nTODO: ask the vendor about limits.\n")
    assert "placeholder.unwritten" not in [f["rule"] for f in findings(hw, root)]


def test_a_footnote_definition_with_an_indented_fenced_block_is_not_a_link(hw, copy_fixture):
    root = copy_fixture(STALE)
    note = "\nAs measured.[^1]\n\n[^1]:\n    ```csl-json\n    {\"id\": \"x\"}\n    ```\n"
    (root / DOC).write_text((root / DOC).read_text() + note)
    assert [f["rule"] for f in findings(hw, root) if f["rule"].startswith("link.")] == []


def test_one_file_seen_is_one_file():
    from headwater.cli.verb_check import nothing_checked

    assert ": 1 file seen under `docs`," in nothing_checked("docs", 1)
    assert ": 2 files seen under `docs`," in nothing_checked("docs", 2)
