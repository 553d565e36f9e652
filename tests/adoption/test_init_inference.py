"""What `init` reads off a tree that already keeps records, line by line, and the overlay it writes."""

from __future__ import annotations

import json
import subprocess

import pytest
from adoption_harness import NOW, headwater, unpack

RECORD = """---
status: {status}
date: 2024-0{n}-01
---
# Record {n}

## Context and Problem Statement

Why.

## Decision Outcome

What.
"""


@pytest.fixture
def madr_like(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    decisions = tmp_path / "docs/decisions"
    decisions.mkdir(parents=True)
    for n, status in enumerate(["accepted", "on hold", "accepted", "superseded"], start=1):
        (decisions / f"000{n}-record-{n}.md").write_text(RECORD.format(status=status, n=n))
    (decisions / "index.md").write_text("# Decisions\n")
    (decisions / "adr-template.md").write_text("# {title}\n")
    (tmp_path / "src").mkdir()
    for n in range(6):  # more Markdown elsewhere than in the records folder: not the signal
        (tmp_path / "src" / f"notes-{n}.md").write_text("# notes\n")
    return tmp_path


def test_a_dry_run_says_each_inference_and_writes_nothing(madr_like, hw):
    ran = hw("init", "--dry-run", "--root", str(madr_like))
    assert ran.status == 0 and not (madr_like / ".headwater").exists()
    said = ran.out.split("what this read off the tree\n", 1)[1]
    assert ("  corpus root docs: `docs` holds the decision records in `docs/decisions`; `src` (6 Markdown files) "
            "lies outside it, so `check` and `route` never read it (`--corpus` names another root)\n") in said
    assert "  shelf decisions: 4 records in `docs/decisions`, numbered `NNNN-slug.md`" in said
    assert "  exclude docs/decisions/adr-template.md: a page beside the records, not a record\n" in said
    assert "  exclude docs/decisions/index.md: a page beside the records, not a record\n" in said
    assert "  facet date: the records carry `date`" in said
    assert "accepted (live), on hold (live), superseded (terminal-retained)" in said
    assert "  kind governed_document requires status, date: not every record carries summary, last_verified\n" in said
    assert "requires the sections Context and Problem Statement, Decision Outcome" in said
    assert '    - "on hold"' in ran.out or '    - value: "on hold"' in ran.out


def test_the_written_overlay_resolves_and_the_records_check_clean_once_adopted(madr_like, hw):
    ran = hw("init", "--root", str(madr_like))
    assert ran.status == 0 and "wrote .headwater/taxonomy.lock" in ran.out, ran.err
    assert ran.out.endswith("\nNext: run `headwater adopt`, which writes into the front matter of 4 documents what "
                            "the bodies and file names say (title, status, date, identifier), then `headwater check`\n")
    assert hw("taxonomy", "resolve", "--check", "--root", str(madr_like)).status == 0
    assert hw("adopt", "--root", str(madr_like), "--now", "2026-11-30").status == 0
    strict = hw("check", "--strict", "--json", "--root", str(madr_like), "--now", "2026-11-30")
    assert strict.status == 0, strict.out
    assert json.loads(strict.out)["coverage"]["classified"] == 4
    assert (madr_like / "docs/decisions/0002-record-2.md").read_text().startswith(
        "---\nstatus: on hold\ndate: 2024-02-01\ntitle: \"Record 2\"\nid: ADR-0002\n---\n# Record 2\n")


def test_a_record_linked_to_dev_zero_is_not_read_by_init(madr_like):
    import resource
    import sys

    (madr_like / "docs/decisions/0005-record-5.md").symlink_to("/dev/zero")
    ran = subprocess.run([sys.executable, "-m", "headwater", "init", "--dry-run", "--root", str(madr_like)],
                         capture_output=True, text=True, timeout=60, check=False,
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)))
    assert ran.returncode == 0, ran.stderr
    assert "  shelf decisions: 4 records in `docs/decisions`, numbered `NNNN-slug.md`" in ran.stdout


def test_init_over_records_that_carry_their_front_matter_says_to_check_next(madr_like, hw):
    assert hw("init", "--root", str(madr_like)).status == 0
    assert hw("adopt", "--root", str(madr_like), "--now", "2026-11-30").status == 0
    for bound in ("taxonomy.yml", "overlay.yml", "taxonomy.lock"):
        (madr_like / ".headwater" / bound).unlink()
    ran = hw("init", "--root", str(madr_like))
    assert ran.status == 0, ran.err
    assert ran.out.endswith("\nNext: run `headwater check`\n")


def _records(root, statuses: list[str]) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    decisions = root / "docs/decisions"
    decisions.mkdir(parents=True)
    for n, status in enumerate(statuses, start=1):
        (decisions / f"{n:04d}-record-{n}.md").write_text(RECORD.format(status=status, n=n % 9 + 1))


def test_a_rare_status_one_letter_from_a_common_one_is_a_typo_to_report_not_a_state(tmp_path, hw):
    _records(tmp_path, ["accepted"] * 10 + ["acecpted", "superseded"])
    ran = hw("init", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert ("  status acecpted (1 of the records) reads as a misspelling of accepted (10): not a state, so "
            "`check` reports it where it is written\n") in ran.out
    assert "acecpted" not in (tmp_path / ".headwater/taxonomy.yml").read_text().split("add:", 1)[-1]
    assert hw("adopt", "--root", str(tmp_path), "--now", "2026-11-30").status == 0
    report = json.loads(hw("check", "--json", "--root", str(tmp_path), "--now", "2026-11-30").out)
    assert [(f["rule"], f["path"]) for f in report["findings"]] == [
        ("facet.value.not_permitted", "docs/decisions/0011-record-11.md")]


def test_two_statuses_apart_in_one_letter_and_both_common_are_both_states(tmp_path, hw):
    _records(tmp_path, ["accepted"] * 10 + ["accepter"] * 3)
    ran = hw("init", "--dry-run", "--root", str(tmp_path))
    assert "misspelling" not in ran.out and "accepted (live), accepter (live)" in ran.out


def test_supersession_sets_the_successor_word_most_of_the_records_use(tmp_path, hw):
    _records(tmp_path, ["accepted"] * 4 + ["replaced"] * 3 + ["superseded"])
    ran = hw("init", "--dry-run", "--root", str(tmp_path))
    assert "  relation supersedes sets `replaced`, the team's word for a record another replaced\n" in ran.out
    _records(tmp_path / "other", ["accepted"] * 4 + ["replaced"] + ["superseded"] * 3)
    assert "relation supersedes sets" not in hw("init", "--dry-run", "--root", str(tmp_path / "other")).out


@pytest.mark.parametrize(("a", "b", "apart"), [
    ("imlpemented", "implemented", True), ("implemnted", "implemented", True),
    ("implementted", "implemented", True), ("implemanted", "implemented", True),
    ("implemented", "implemented", False), ("implementable", "implemented", False),
    ("mlpiemented", "implemented", False), ("acceptde", "accepted", True),
    ("accepetd", "accepted", True), ("acecpetd", "accepted", False), ("rejected", "removed", False)])
def test_a_typo_is_one_letter_changed_added_dropped_or_two_neighbours_swapped(a, b, apart):
    from headwater.adoption.overlay_inference import _one_edit

    assert _one_edit(a, b) is apart and _one_edit(b, a) is apart


CONTEXTS = ["Deliveries to partner webhooks fail under load, and partners ask us to retry them with backoff.",
            "Engineers cannot find the reasoning behind past choices anywhere in the wiki.",
            "Nightly exports of the billing ledger to the warehouse take six hours.",
            "Mobile clients cache stale feature flags for days after a release."]


def _contexts(root, heading: str) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    decisions = root / "docs/decisions"
    decisions.mkdir(parents=True)
    for n, context in enumerate(CONTEXTS, start=1):
        (decisions / f"000{n}-record-{n}.md").write_text(
            f"# Record {n}\n\nStatus: accepted\n\n## {heading}\n\n{context}\n\n## Decision\n\nWe will act.\n\n"
            "## Consequences\n\nSome.\n")


def _nygard(root, rest: str = "") -> None:
    """Four records in `doc/adr` as adr-tools writes them (a `Date:` line, `## Status`, `## Context`),
    then `rest`."""
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    records = root / "doc/adr"
    records.mkdir(parents=True)
    for n, context in enumerate(CONTEXTS, start=1):
        (records / f"000{n}-record-{n}.md").write_text(
            f"# {n}. Record\n\nDate: 2016-02-12\n\n## Status\n\nAccepted\n\n## Context\n\n{context}\n{rest}")


def test_init_reads_the_records_context_as_they_spell_it_as_their_summary(tmp_path, hw):
    _contexts(tmp_path, "Context and Problem Statement")
    ran = hw("init", "--dry-run", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert "  kind decision reads `Context and Problem Statement` as a record's summary where it has none\n" in ran.out
    assert '  kinds.decision.sections.roles.scent: "Context and Problem Statement"\n' in ran.out


def test_records_that_spell_the_package_s_context_need_nothing_inferred(tmp_path, hw):
    _contexts(tmp_path, "Context")
    ran = hw("init", "--dry-run", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert "as a record's summary" not in ran.out and "sections.roles" not in ran.out


@pytest.mark.parametrize("heading", ["Context", "Context and Problem Statement"])
def test_route_answers_from_a_record_s_context_where_the_records_have_no_summary(tmp_path, hw, heading):
    _contexts(tmp_path, heading)
    assert hw("init", "--root", str(tmp_path)).status == 0
    assert hw("adopt", "--root", str(tmp_path), "--now", "2026-11-30").status == 0
    ran = hw("route", "--json", "--root", str(tmp_path), "partner webhooks keep failing, should we retry with backoff")
    assert ran.status == 0, ran.err
    pointers = json.loads(ran.out)["pointers"]
    assert [p["path"] for p in pointers][:1] == ["docs/decisions/0001-record-1.md"], ran.out


def test_a_package_whose_summary_section_is_no_name_gets_nothing_inferred_for_it():
    from collections import Counter

    from headwater.adoption.overlay_inference import _Draft, _summary_section

    spelled = Counter({"Context and Problem Statement": 3})
    for sections in ({"roles": {"scent": 5}}, {"roles": {"scent": "Context"}, "optional": "Context"}):
        drafted = _Draft()
        _summary_section({"kinds": {"decision": {"sections": sections}}}, "decision", spelled, [], drafted, 3)
        assert (drafted.add, drafted.override, drafted.said) == ({}, {}, [])
    drafted = _Draft()
    _summary_section({"kinds": {"decision": {"sections": {"roles": {"scent": "Context"}}}}}, "decision", spelled, [],
                     drafted, 3)
    assert drafted.add == {"kinds.decision.sections.optional": ["Context and Problem Statement"]}


def _drafted_summary(spelled: dict[str, int], records: int = 4, required: tuple[str, ...] = ()):
    from collections import Counter

    from headwater.adoption.overlay_inference import _Draft, _summary_section

    drafted = _Draft()
    sections = {"require": list(required), "optional": ["Context"], "roles": {"scent": "Context"}}
    _summary_section({"kinds": {"decision": {"sections": sections}}}, "decision", Counter(spelled), list(required),
                     drafted, records)
    return drafted


def test_proposals_with_a_summary_section_and_no_context_are_read_by_their_summary():
    drafted = _drafted_summary({"Summary": 3, "Motivation": 4})
    assert drafted.override == {"kinds.decision.sections.roles.scent": "Summary",
                                "kinds.decision.sections.optional": ["Context", "Summary"]}
    assert drafted.said == ["kind decision reads `Summary` as a record's summary where it has none"]


def test_a_summary_section_half_the_records_have_or_fewer_is_not_their_summary():
    assert _drafted_summary({"Summary": 2, "Motivation": 4}).override == {}


def test_records_without_the_package_s_section_get_nothing_inferred_and_no_section_admitted_twice():
    for spelled in ({"Motivation": 4}, {"Context": 2, "Decision": 4}):
        drafted = _drafted_summary(spelled, required=("Decision",))
        assert (drafted.add, drafted.override, drafted.said) == ({}, {}, [])


def test_init_says_plainly_when_no_heading_is_in_every_record(tmp_path, hw):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    decisions = tmp_path / "docs/decisions"
    decisions.mkdir(parents=True)
    for n, heading in enumerate(["Why", "Background", "Problem"], start=1):
        (decisions / f"000{n}-record-{n}.md").write_text(f"# Record {n}\n\nStatus: accepted\n\n## {heading}\n\nText.\n")
    ran = hw("init", "--dry-run", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert "  kind decision requires no section: no heading is in every record\n" in ran.out
    assert "sections none" not in ran.out


def test_a_dry_run_ends_by_naming_the_run_that_writes(tmp_path, hw):
    _contexts(tmp_path, "Context")
    ran = hw("init", "--dry-run", "--root", str(tmp_path))
    assert ran.status == 0
    assert ran.out.endswith("\nNext: run `headwater init` without `--dry-run` to write these files\n")
    assert not (tmp_path / ".headwater").exists()


def test_the_package_s_other_shelves_move_under_a_corpus_root_that_is_not_docs(tmp_path, hw):
    _nygard(tmp_path)
    ran = hw("init", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert ("  shelf specifications: `doc/specifications/**`, under the corpus root (the package puts it at "
            "`docs/specifications/**`)\n") in ran.out
    written = hw("new", "specification", "--title", "Subcommand dispatch", "--root", str(tmp_path),
                 "--now", "2026-11-30")
    assert written.status == 0 and written.out.startswith("wrote doc/specifications/subcommand-dispatch.md\n")


def test_a_record_folder_at_the_top_keeps_the_other_shelves_outside_its_pattern(tmp_path, hw):
    """Records directly in `decisions/` make it the corpus root, so the other shelves go below it:
    the records' shelf then claims only the files directly in it, and a template in a folder below
    is excluded as a page beside the records rather than being adopted as a record."""
    import datetime as dt

    from headwater.snapshot import load

    _nygard(tmp_path)
    (tmp_path / "doc").rename(tmp_path / "old")
    (tmp_path / "old/adr").rename(tmp_path / "decisions")
    (tmp_path / "decisions/templates").mkdir()
    (tmp_path / "decisions/templates/template.md").write_text("# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n")
    root = ("--root", str(tmp_path))
    ran = hw("init", "--bundle", "diataxis", *root)
    assert ran.status == 0, ran.err
    assert ("  shelf decisions: `decisions/*`, the files directly in `decisions`, where the records lie: the shelves "
            "guides (`decisions/guides/**`), specifications (`decisions/specifications/**`) stand in folders below "
            "it, which `decisions/**` would claim as records too\n") in ran.out, ran.out
    assert '  shelves.decisions.path: "decisions/*"\n' in (tmp_path / ".headwater/overlay.yml").read_text()
    adopted = hw("adopt", "--now", NOW, *root)
    assert adopted.status == 0 and "templates" not in adopted.out, adopted.out
    assert "wrote front matter into 4 records\n" in adopted.out
    spec = hw("new", "specification", "--title", "Widget API", "--summary", "How the widget API answers.",
              "--now", NOW, *root)
    assert spec.status == 0 and spec.out.startswith("wrote decisions/specifications/widget-api.md\n"), spec.out
    written = tmp_path / "decisions/specifications/widget-api.md"
    written.write_text(written.read_text().replace("TODO write this section.", "The widget API answers."))
    strict = hw("check", "--strict", "--json", "--now", NOW, *root)
    assert strict.status == 0 and json.loads(strict.out)["findings"] == [], strict.out
    snapshot = load(tmp_path, dt.date(2026, 11, 30))
    shelves = snapshot.taxonomy.shelves.values()
    rows = {row.path: row for row in snapshot.census.rows}
    assert len(rows) == len(snapshot.census.rows) == 6  # four records, the template, the specification
    assert all(len([s for s in shelves if s.pattern.matches(path)]) <= 1 for path in rows), \
        {path: [s.name for s in shelves if s.pattern.matches(path)] for path in rows}
    assert rows["decisions/templates/template.md"].outcome.value == "excluded"
    assert rows["decisions/specifications/widget-api.md"].kind == "specification"


@pytest.mark.parametrize("corpus", [(), ("--corpus", "."), ("--corpus", "website")])
def test_a_shelf_no_record_placed_claims_the_folder_the_tree_keeps_under_its_name(tmp_path, hw, corpus):
    """A record without a number is no numbering to read a shelf from, so the package's
    `docs/decisions/**` stands: it goes on `website/docs/decisions`, where the record is, not beside
    it (`website/decisions`)."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    record = "website/docs/decisions/use-postgres.md"
    (tmp_path / "website/docs/decisions").mkdir(parents=True)
    (tmp_path / record).write_text("# 1. Use Postgres\n\nDate: 2024-02-12\n\n## Status\n\nAccepted\n\n"
                                   "## Context\n\nWe need a database.\n")
    (tmp_path / "website/blog").mkdir()
    (tmp_path / "website/blog/welcome.md").write_text("# Welcome\n")
    root = ("--root", str(tmp_path))
    ran = hw("init", "--namespace", "ACME", *corpus, *root)
    assert ran.status == 0, ran.err
    assert hw("taxonomy", "resolve", *root).status == 0
    adopted = hw("adopt", *root)
    assert adopted.status == 0 and f"adopted {record}: " in adopted.out, adopted.out
    checked = hw("check", "--now", NOW, *root)
    assert record in checked.out and f"{record} untyped" not in checked.out
    written = hw("new", "decision", "--title", "Use Redis", "--now", NOW, *root)
    assert written.status == 0 and written.out.startswith("wrote website/docs/decisions/0002-use-redis.md\n")
    assert ("  shelf decisions: `website/docs/decisions/**`, on the `decisions` folder the tree already holds "
            "(the package puts it at `docs/decisions/**`)\n") in ran.out


def test_records_under_a_nested_docs_tree_are_claimed_where_they_are(tmp_path):
    """MADR's records moved to `website/docs/decisions`, as a Docusaurus site keeps them."""
    top = unpack("madr", tmp_path)
    (top / "website").mkdir()
    (top / "docs").rename(top / "website/docs")
    ran = headwater(top, "init", "--namespace", "ACME")
    assert ran.status == 0, ran.err
    assert "  corpus root website/docs: `website/docs` holds the decision records in `website/docs/decisions`\n" \
        in ran.out
    assert '  shelves.decisions.path: "website/docs/decisions/**"\n' in (top / ".headwater/overlay.yml").read_text()
    assert headwater(top, "adopt").out.endswith("wrote front matter into 19 records\n"
                                                 "review with `git diff`, then run `headwater check --strict`\n")
    checked = headwater(top, "check", "--now", NOW)
    assert checked.status == 0 and "  19 documents and 0 anchors" in checked.out, checked.out
    assert not [line for line in checked.out.split("\n") if "/decisions/0" in line and line.endswith(" untyped")]


def test_a_heading_every_record_has_beyond_the_package_s_is_required_and_new_writes_it_where_they_do(tmp_path, hw):
    _nygard(tmp_path, "\n## Decision\n\nWe will.\n\n## Consequences\n\nSome.\n")
    ran = hw("init", "--root", str(tmp_path))
    assert ("  kind decision requires the sections Status, Context, Decision, Consequences: the headings every "
            "record has\n") in ran.out, ran.out
    assert hw("adopt", "--root", str(tmp_path), "--now", "2026-11-30").status == 0
    written = hw("new", "decision", "--title", "Lint the scripts", "--root", str(tmp_path), "--now", "2026-11-30")
    body = (tmp_path / "doc/adr/0005-lint-the-scripts.md").read_text().split("---\n", 2)[2]
    assert written.status == 0 and [line for line in body.splitlines() if line.startswith("## ")] == [
        "## Status", "## Context", "## Decision", "## Consequences"]


MADR_TEMPLATE = """---
title: ADR Template
# status: "{proposed | rejected | accepted | deprecated | … | superseded by ADR-0123"
---
# {short title}
"""


@pytest.mark.parametrize(("line", "offered"), [
    ('# status: "{proposed | rejected | accepted | deprecated | … | superseded by ADR-0123"',
     ("proposed", "rejected", "accepted", "deprecated", "superseded")),
    ("- Status: [draft | proposed | accepted | … | superseded by [xxx](yyyymmdd-xxx.md)] <!-- optional -->",
     ("draft", "proposed", "accepted", "superseded")),
    ("- Status: accepted", ()),
    ("```\nStatus: [a | b]\n```", ())], ids=["madr", "log4brains", "one status", "fenced"])
def test_a_template_offers_the_statuses_its_status_line_lists_as_a_record_would_carry_them(line, offered):
    from headwater.adoption.forms import offered_statuses

    assert offered_statuses(f"# Template\n\n{line}\n") == offered


def test_the_lifecycle_admits_the_states_the_template_offers_that_no_record_carries_yet(tmp_path, hw):
    _records(tmp_path, ["proposed", "on hold", "proposed"])
    (tmp_path / "docs/decisions/adr-template.md").write_text(MADR_TEMPLATE)
    ran = hw("init", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert ("  lifecycle standard: the statuses the records use and docs/decisions/adr-template.md offers, "
            "proposed (initial), rejected (terminal-retained), accepted (live), deprecated (terminal-retained), "
            "superseded (terminal-retained), on hold (live); rejected, deprecated, superseded terminal\n") in ran.out
    assert hw("adopt", "--root", str(tmp_path), "--now", "2026-11-30").status == 0
    record = tmp_path / "docs/decisions/0001-record-1.md"
    record.write_text(record.read_text().replace("status: proposed", "status: accepted", 1))
    checked = hw("check", "--json", "--root", str(tmp_path), "--now", "2026-11-30")
    assert checked.status == 0 and json.loads(checked.out)["findings"] == [], checked.out


def test_init_says_which_states_it_added_beside_the_statuses_the_records_use(tmp_path, hw):
    """Every record says `Accepted`: the start state and the state `supersedes` sets are not theirs."""
    _records(tmp_path, ["accepted"] * 3)
    ran = hw("init", "--dry-run", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert ("  lifecycle standard: the statuses the records use, accepted (live); and added proposed "
            "(initial), where a new record starts, and superseded (terminal-retained), which a relation sets "
            "on its target; superseded terminal\n") in ran.out


def test_a_madr_team_accepts_a_decision_without_a_finding(tmp_path):
    root = unpack("madr", tmp_path)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"],
                   check=True)
    assert headwater(root, "init", "--namespace", "MADR").status == 0
    assert headwater(root, "adopt", "--now", NOW).status == 0
    [record] = root.glob("docs/decisions/0013-*.md")
    record.write_text(record.read_text().replace("---\n", "---\nstatus: accepted\n", 1))
    checked = headwater(root, "check", "--json", "--now", NOW)
    assert checked.status == 0 and checked.json["findings"] == [], checked.out
    lock = (root / ".headwater/taxonomy.lock").read_text()
    for state, role in (("accepted", "live"), ("rejected", "terminal-retained"), ("deprecated", "terminal-retained"),
                        ("superseded", "terminal-retained")):
        assert f"- value: {state}\n        role: {role}\n" in lock


def _conflicting(root, first: str, second: str) -> None:
    """Two adopted records that each say they conflict with the other."""
    for path, other in ((first, second), (second, first)):
        record = root / path
        other_id = next(line for line in (root / other).read_text().splitlines() if line.startswith("id: "))[4:]
        record.write_text(record.read_text().replace("---\n", f"---\nrelations: {{conflicts_with: {other_id}}}\n", 1))


def test_two_accepted_adr_tools_records_that_conflict_are_an_invalid_pair(tmp_path):
    root = unpack("adr-tools", tmp_path)
    init = headwater(root, "init", "--namespace", "ADR")
    assert init.status == 0, init.err
    assert ("  relation conflicts_with: two records it joins cannot both be accepted, the team's word for the "
            "package's `current`\n") in init.out
    assert "      invalid_when:\n        both:\n          status: accepted\n" in (
        root / ".headwater/taxonomy.lock").read_text()
    assert headwater(root, "adopt", "--now", NOW).status == 0
    _conflicting(root, "doc/adr/0004-markdown-format.md", "doc/adr/0005-help-comments.md")
    checked = headwater(root, "check", "--json", "--now", NOW)
    assert checked.status == 0, checked.err
    assert [(f["rule"], f["path"], f["message"]) for f in checked.json["findings"]] == [
        ("relation.pair.invalid", "doc/adr/0004-markdown-format.md", "`conflicts_with: ADR-DR-0005` joins two "
         "documents that both hold `status: accepted`, which `conflicts_with` declares invalid")]


def test_a_conflict_between_two_records_in_different_live_states_is_an_invalid_pair(madr_like, hw):
    ran = hw("init", "--root", str(madr_like))
    assert ran.status == 0, ran.err
    assert ("  relation conflicts_with: two records it joins cannot both be accepted or on hold, the team's words "
            "for the package's `current`\n") in ran.out
    assert hw("adopt", "--root", str(madr_like), "--now", NOW).status == 0
    _conflicting(madr_like, "docs/decisions/0001-record-1.md", "docs/decisions/0002-record-2.md")
    checked = hw("check", "--json", "--root", str(madr_like), "--now", NOW)
    assert checked.status == 0, checked.err
    assert [(f["rule"], f["message"]) for f in json.loads(checked.out)["findings"]] == [
        ("relation.pair.invalid", "`conflicts_with: ADR-0002` joins two documents that hold `status: accepted` and "
         "`status: on hold`, which `conflicts_with` declares invalid")]


def test_records_with_no_live_status_bind_with_no_pair_read_invalid(tmp_path, hw):
    _records(tmp_path, ["proposed", "proposed", "superseded"])
    ran = hw("init", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert "  relation conflicts_with reads no pair invalid: no status of the records stands for the package's " \
           "`current`\n" in ran.out
    assert "invalid_when" not in (tmp_path / ".headwater/taxonomy.lock").read_text()


def test_dated_record_names_are_a_layout_of_their_own_and_no_identifier_is_minted_from_a_year(tmp_path, hw):
    # `2023-05-01-title.md` read as `NNNN-slug.md` minted ACME-DR-2023 and named the next record `2026-…`
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    adr = tmp_path / "doc/adr"
    adr.mkdir(parents=True)
    for n in (1, 2, 3):
        (adr / f"2023-05-0{n}-use-thing-{n}.md").write_text(
            f"# {n}. Use thing {n}\n\nDate: 2023-05-0{n}\n\n## Status\n\nAccepted\n\n## Context\n\nC.\n")
    ran = hw("init", "--namespace", "ACME", "--root", str(tmp_path))
    assert ran.status == 0, ran.err
    assert ("  shelf decisions: 3 records in `doc/adr`, numbered `YYYY-MM-DD-slug.md`, so `new` writes "
            "`{status_since}-{slug}.md`") in ran.out
    assert hw("adopt", "--root", str(tmp_path), "--now", NOW).status == 0
    assert "id: ACME-DR-0001\n" in (adr / "2023-05-01-use-thing-1.md").read_text()
    written = hw("new", "decision", "--title", "Next one", "--summary", "N.", "--root", str(tmp_path),
                 "--now", "2026-12-01")
    assert written.status == 0, written.err
    assert (adr / "2026-12-01-next-one.md").read_text().startswith("---\nid: ACME-DR-0004\n")


ADR_TOOLS_RECORD = ("# {n}. Record {n}\n\nDate: 2024-0{n}-01\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n"
                    "## Decision\n\nWhat.\n\n## Consequences\n\nSo.\n")
ADR_TOOLS_TEMPLATE = "# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n\n## Context\n\nThe issue.\n"


def _adr_tools_records(tmp_path, below: str):
    """A git repository whose `doc/adr` holds three adr-tools records and a folder `below` them."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    records = tmp_path / "doc/adr"
    (records / below).mkdir(parents=True)
    for n in (1, 2, 3):
        (records / f"000{n}-record-{n}.md").write_text(ADR_TOOLS_RECORD.format(n=n))
    return records


def test_a_team_template_below_the_records_is_excluded_not_numbered_as_a_record(tmp_path):
    records = _adr_tools_records(tmp_path, "templates")
    template = records / "templates/template.md"
    template.write_text(ADR_TOOLS_TEMPLATE)
    init = headwater(tmp_path, "init", "--namespace", "ADR")
    assert init.status == 0, init.err
    assert "  exclude doc/adr/templates/template.md: a page beside the records, not a record\n" in init.out
    adopted = headwater(tmp_path, "adopt", "--now", NOW)
    assert adopted.status == 0 and "templates/template.md" not in adopted.out, adopted.out
    assert template.read_text() == ADR_TOOLS_TEMPLATE
    checked = headwater(tmp_path, "check", "--strict", "--json", "--now", NOW)
    assert checked.status == 0 and checked.json["findings"] == [], checked.out


def test_a_page_in_a_folder_below_flat_records_is_not_numbered_as_a_record(tmp_path):
    records = _adr_tools_records(tmp_path, "notes")
    notes = records / "notes/meeting.md"
    notes.write_text("# Meeting notes\n\nStatus: open questions\n")
    init = headwater(tmp_path, "init", "--namespace", "ADR")
    assert init.status == 0, init.err
    assert ("  shelf decisions: `doc/adr/*`, the files directly in `doc/adr`, where the records lie: no shelf claims "
            "`doc/adr/notes/meeting.md` in a folder below, so the census reports it untyped rather than `adopt` "
            "numbering it as a record\n") in init.out, init.out
    assert "front matter of 3 documents" in init.out
    assert '  shelves.decisions.path: "doc/adr/*"\n' in (tmp_path / ".headwater/overlay.yml").read_text()
    adopted = headwater(tmp_path, "adopt", "--now", NOW)
    assert adopted.status == 0 and "notes" not in adopted.out and "into 3 records\n" in adopted.out, adopted.out
    assert notes.read_text() == "# Meeting notes\n\nStatus: open questions\n"
    checked = headwater(tmp_path, "check", "--strict", "--now", NOW)
    assert checked.status == 0 and "\n  0 findings" in checked.out, checked.out
    assert "  doc/adr/notes/meeting.md untyped\n    no shelf pattern claims this path\n" in checked.out


@pytest.mark.parametrize(("folder", "shelf"), [("doc/adr", "doc/adr/**"), ("adr", "adr/*")])
def test_the_lone_record_adr_init_leaves_is_read_as_the_records_numbering(tmp_path, folder, shelf):
    """`adr init` starts a repository with one record; the package's `doc/decisions/**` beside it
    claimed none of it (`adr/decisions/**` for a top-level folder)."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / folder).mkdir(parents=True)
    record = f"{folder}/0001-record-architecture-decisions.md"
    (tmp_path / record).write_text(ADR_TOOLS_RECORD.format(n=1))
    init = headwater(tmp_path, "init")
    assert init.status == 0, init.err
    assert (f"  shelf decisions: 1 record in `{folder}`, numbered `NNNN-slug.md`, so `new` writes "
            "`{seq:04d}-{slug}.md`\n") in init.out, init.out
    assert f'  shelves.decisions.path: "{shelf}"\n' in (tmp_path / ".headwater/overlay.yml").read_text()
    adopted = headwater(tmp_path, "adopt", "--now", NOW)
    assert adopted.status == 0 and f"adopted {record}: " in adopted.out and ", id ADR-0001" in adopted.out
    written = headwater(tmp_path, "new", "decision", "--title", "Use Redis", "--summary", "R.", "--now", NOW)
    assert written.status == 0 and written.out.startswith(f"wrote {folder}/0002-use-redis.md\n"), written.out


def test_the_lone_record_in_the_folder_adr_dir_names_is_read_as_the_records_numbering(tmp_path):
    """`adr init architecture/log` writes `.adr-dir` and one record there, in a folder not named for records."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "architecture/log").mkdir(parents=True)
    (tmp_path / ".adr-dir").write_text("architecture/log\n")
    record = "architecture/log/0001-record-architecture-decisions.md"
    (tmp_path / record).write_text(ADR_TOOLS_RECORD.format(n=1))
    init = headwater(tmp_path, "init")
    assert init.status == 0, init.err
    assert "  shelf decisions: 1 record in `architecture/log`, numbered `NNNN-slug.md`" in init.out, init.out
    adopted = headwater(tmp_path, "adopt", "--now", NOW)
    assert adopted.status == 0 and f"adopted {record}: " in adopted.out and ", id ADR-0001" in adopted.out


LOG4BRAINS_RECORD = ("# {title}\n\n- Status: {status}\n- Date: {date}\n\n## Context and Problem Statement\n\n"
                     "Why.\n{links}")


def _two_records(root, first: str, second: str, second_links: str) -> None:
    """In a git repository, `docs/adr/<first>` superseded by `docs/adr/<second>`, log4brains' way."""
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    adr = root / "docs/adr"
    adr.mkdir(parents=True)
    (adr / first).write_text(LOG4BRAINS_RECORD.format(
        title="Use numbers", date="2020-09-26", links="", status=f"superseded by [{second[:-3]}]({second})"))
    (adr / second).write_text(LOG4BRAINS_RECORD.format(
        title="Use slugs", status="accepted", date="2020-10-16", links=second_links))


def test_dated_records_are_known_by_their_names_as_log4brains_knows_them(tmp_path):
    """log4brains names a record `YYYYMMDD-slug.md` and identifies it by that name, having dropped
    numbers for the merge conflicts they caused; numbering the records in file order would undo that."""
    _two_records(tmp_path, "20200926-use-numbers.md", "20201016-use-slugs.md",
                 "\n## Links\n\n- Supersedes [20200926-use-numbers](20200926-use-numbers.md)\n")
    init = headwater(tmp_path, "init")
    assert init.status == 0, init.err
    assert ("  identifiers decision_id: `{namespace}-{slug}`, the namespace and each record's file name less `.md` "
            "(`20200926-use-numbers`): dated names carry no number, and a record is known by its name\n") in init.out
    adopted = headwater(tmp_path, "adopt", "--now", NOW)
    assert adopted.status == 0, adopted.err
    assert ("adopted docs/adr/20201016-use-slugs.md: status accepted, status_since 2020-10-16, title, "
            "id ADR-20201016-use-slugs, supersedes ADR-20200926-use-numbers\n") in adopted.out, adopted.out
    assert (tmp_path / ".headwater/ids/decision_id/ADR-20200926-use-numbers").read_text() == \
        "docs/adr/20200926-use-numbers.md\n"
    _the_next_record_is_new_s_and_its_todo_the_only_finding(tmp_path, "docs/adr/20261130-use-redis.md",
                                                            "ADR-20261130-use-redis")


def _the_next_record_is_new_s_and_its_todo_the_only_finding(root, path: str, identifier: str) -> None:
    written = headwater(root, "new", "decision", "--title", "Use Redis", "--summary", "R.", "--now", NOW)
    assert written.status == 0 and written.out.startswith(f"wrote {path}\n"), written.out
    assert (root / path).read_text().startswith(f"---\nid: {identifier}\n")
    checked = headwater(root, "check", "--strict", "--json", "--now", NOW)
    found = [(f["rule"], f["path"]) for f in checked.json["findings"]]
    assert found == [("placeholder.unwritten", path)], checked.out  # `new`'s TODO


def test_records_named_with_a_word_and_a_padded_number_are_read_in_the_teams_own_numbering(tmp_path):
    """`ADR-001-use-numbers.md` is how many teams name records; init found none there and chose the
    corpus by its Markdown alone, saying nothing of the records it passed over."""
    _two_records(tmp_path, "ADR-001-use-numbers.md", "ADR-002-use-slugs.md", "")
    init = headwater(tmp_path, "init")
    assert init.status == 0, init.err
    assert ("  shelf decisions: 2 records in `docs/adr`, numbered `ADR-NNN-slug.md`, so `new` writes "
            "`ADR-{seq:03d}-{slug}.md`\n  identifiers decision_id: `{namespace}-{seq:03d}`, the number each file "
            "name carries\n") in init.out, init.out
    adopted = headwater(tmp_path, "adopt", "--now", NOW)
    assert adopted.status == 0, adopted.err
    assert ("adopted docs/adr/ADR-001-use-numbers.md: status superseded, status_since 2020-10-16 (the date of the "
            "record that superseded it), title, id ADR-001, superseded_by ADR-002\n") in adopted.out, adopted.out
    _the_next_record_is_new_s_and_its_todo_the_only_finding(tmp_path, "docs/adr/ADR-003-use-redis.md", "ADR-003")


def test_the_word_records_names_open_with_is_their_namespace(tmp_path):
    """`RFC-0007-x.md` in a folder named for decisions is RFC-0007, not ADR-0007."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    folder = tmp_path / "docs/decisions"
    folder.mkdir(parents=True)
    for n in (7, 8):
        (folder / f"rfc-000{n}-record-{n}.md").write_text(LOG4BRAINS_RECORD.format(
            title=f"Record {n}", status="accepted", date=f"2021-01-0{n}", links=""))
    init = headwater(tmp_path, "init")
    assert init.status == 0 and "numbered `rfc-NNNN-slug.md`, so `new` writes `rfc-{seq:04d}-{slug}.md`" in init.out
    adopted = headwater(tmp_path, "adopt", "--now", NOW)
    assert adopted.status == 0 and "title, id RFC-0007\n" in adopted.out, adopted.out


@pytest.mark.parametrize("status", ['"superseded by ADR-0002"', '"superseded by [ADR-0002](0002-record-2.md)"'])
def test_a_madr_status_naming_its_successor_is_the_state_superseded_and_the_relation_to_it(tmp_path, status):
    """MADR's template writes `status: "superseded by ADR-0123"` in front matter. init read the
    whole value as a live state of its own, and adopt left the record live with no relation."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    decisions = tmp_path / "docs/decisions"
    decisions.mkdir(parents=True)
    for n, written in enumerate([status, "accepted", "accepted"], start=1):
        (decisions / f"000{n}-record-{n}.md").write_text(RECORD.format(status=written, n=n))
    init = headwater(tmp_path, "init")
    assert init.status == 0, init.err
    assert "the statuses the records use, superseded (terminal-retained), accepted (live); " in init.out, init.out
    assert "superseded by" not in init.out + (tmp_path / ".headwater/overlay.yml").read_text()
    adopted = headwater(tmp_path, "adopt", "--now", NOW)
    assert adopted.status == 0, adopted.err
    assert (f"adopted docs/decisions/0001-record-1.md: status superseded (was `{status.strip(chr(34))}`), title, "
            "id ADR-0001, superseded_by ADR-0002\n") in adopted.out, adopted.out
    assert ("adopted docs/decisions/0002-record-2.md: title, id ADR-0002, supersedes ADR-0001\n") in adopted.out
    assert (decisions / "0001-record-1.md").read_text().startswith('---\nstatus: "superseded"\ndate: 2024-01-01\n')
    checked = headwater(tmp_path, "check", "--strict", "--now", NOW)
    assert checked.status == 0 and "\n  0 findings" in checked.out, checked.out
    again = headwater(tmp_path, "adopt", "--now", NOW)
    assert again.status == 0 and again.out.startswith("nothing to migrate"), again.out


@pytest.mark.parametrize(("records", "template"), [
    (["keps/sig-a/100-a/README.md", "keps/sig-a/101-b/README.md", "keps/sig-b/102-c/README.md",
      "keps/sig-b/103-d/README.md"], "keps/sig-b/providers/0000-cloud-provider-template/README.md"),
    (["text/0001-first.md", "text/0002-second.md"], "text/0000-template.md")])
def test_a_template_numbered_zero_is_a_page_beside_the_records_not_a_record(tmp_path, records, template):
    """kubernetes/enhancements keeps `0000-cloud-provider-template/` among the KEPs and Rust's RFCs
    keep `0000-template.md`: adopt gave the template a record's identifier and the census typed it."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    for path in [*records, template]:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("# Title\n\n- Status: accepted\n- Date: 2024-01-01\n\n## Summary\n\nText.\n")
    init = headwater(tmp_path, "init")
    assert init.status == 0, init.err
    assert f"  shelf decisions: {len(records)} records in " in init.out, init.out
    assert f"  exclude {template}: a page beside the records, not a record\n" in init.out, init.out
    adopted = headwater(tmp_path, "adopt", "--now", NOW)
    assert adopted.status == 0 and template not in adopted.out, adopted.out
    assert (tmp_path / template).read_text().startswith("# Title\n")


def test_a_records_folder_holding_only_its_template_numbered_zero_is_read_without_a_fault(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "docs/adr").mkdir(parents=True)
    (tmp_path / "docs/adr/0000-template.md").write_text("# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n")
    init = headwater(tmp_path, "init")
    assert init.status == 0 and "  exclude docs/adr/0000-template.md: a page beside the records" in init.out, init.err
    written = headwater(tmp_path, "new", "decision", "--title", "Use Redis", "--summary", "R.", "--now", NOW)
    assert written.status == 0 and written.out.startswith("wrote docs/adr/0001-use-redis.md\n"), written.out


def test_init_says_new_takes_a_folder_where_the_records_lie_only_in_folders_below_the_shelf(tmp_path):
    """A KEP lies in its SIG's folder; `new` without `--directory` wrote `keps/6183-x/README.md`,
    where no KEP lies, and nothing had said that it would."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    for folder in ("sig-a/100-a", "sig-a/101-b", "sig-a/102-c", "sig-b/103-d", "sig-b/104-e"):
        (tmp_path / "keps" / folder).mkdir(parents=True)
        (tmp_path / "keps" / folder / "kep.yaml").write_text(f"title: {folder}\nstatus: implemented\n")
        (tmp_path / "keps" / folder / "README.md").write_text(f"# {folder}\n\n## Summary\n\nText.\n")
    init = headwater(tmp_path, "init")
    assert init.status == 0, init.err
    assert ("  shelf decisions: 5 records in `keps`, numbered `NNN-slug/README.md`, so `new` writes "
            "`{seq}-{slug}/README.md` in the folder `--directory` names (`new --directory keps/sig-a`): the records "
            "lie in 2 folders below `keps` and none directly in it, where `new` writes without one\n") in init.out, \
        init.out


def test_records_numbered_with_three_digits_are_read_as_wide_as_they_are_written(tmp_path):
    """`001-use-redis.md`: init read only four-digit numbers and passed over the records in silence."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "docs/adr").mkdir(parents=True)
    for n in (1, 2):
        (tmp_path / f"docs/adr/00{n}-record-{n}.md").write_text(ADR_TOOLS_RECORD.format(n=n))
    init = headwater(tmp_path, "init")
    assert init.status == 0, init.err
    assert ("  shelf decisions: 2 records in `docs/adr`, numbered `NNN-slug.md`, so `new` writes "
            "`{seq:03d}-{slug}.md`\n  identifiers decision_id: `{namespace}-{seq:03d}`") in init.out, init.out
    adopted = headwater(tmp_path, "adopt", "--now", NOW)
    assert adopted.status == 0 and "title, id ADR-002\n" in adopted.out, adopted.out
    written = headwater(tmp_path, "new", "decision", "--title", "Use Redis", "--summary", "R.", "--now", NOW)
    assert written.status == 0 and written.out.startswith("wrote docs/adr/003-use-redis.md\n"), written.out


def test_statuses_written_capitalised_are_the_template_s_words_as_the_records_spell_them(tmp_path):
    """Records writing `status: Accepted` beside MADR's template offering `accepted`: init made
    `Accepted` and `Proposed` live states of their own beside the template's, so `new` wrote
    `proposed`, a spelling no record uses, and a proposed record counted as live."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    decisions = tmp_path / "docs/decisions"
    decisions.mkdir(parents=True)
    for n, status in enumerate(["Accepted", "Accepted", "Proposed"], start=1):
        (decisions / f"000{n}-record-{n}.md").write_text(RECORD.format(status=status, n=n))
    (decisions / "adr-template.md").write_text('---\n# status: "{proposed | rejected | accepted | superseded by '
                                               'ADR-0123"\n---\n# {title}\n')
    init = headwater(tmp_path, "init")
    assert init.status == 0, init.err
    assert ("the statuses the records use and docs/decisions/adr-template.md offers, Proposed (initial), rejected "
            "(terminal-retained), Accepted (live), superseded (terminal-retained); ") in init.out, init.out
    assert "cannot both be Accepted, the team's word for the package's `current`\n" in init.out
    assert headwater(tmp_path, "adopt", "--now", NOW).status == 0
    written = headwater(tmp_path, "new", "decision", "--title", "Use Redis", "--summary", "R.", "--now", NOW)
    assert written.status == 0 and "  status — Proposed, the initial state" in written.out, written.out
    checked = headwater(tmp_path, "check", "--strict", "--now", NOW)
    assert checked.status == 0, checked.out
