"""`headwater new`: a correctly shaped document, a minted identifier, far halves, the cost line."""

from __future__ import annotations

import datetime as dt
import json
import os

import pytest

from headwater.corpus.census import Outcome
from headwater.snapshot import load

NOW = "2026-11-01"
SUMMARY = "The queue moves every delivery attempt to Kafka."


def _new(hw, root, *args):
    return hw("new", *args, "--root", str(root), "--now", NOW)


def test_a_fresh_decision_with_a_summary_is_typed_and_meets_every_requirement(hw, quickstart):
    ran = _new(hw, quickstart, "decision", "--title", "Queue everything in Kafka", "--summary", SUMMARY)
    assert ran.status == 0, ran.err
    path = "docs/decisions/0004-queue-everything-in-kafka.md"
    snapshot = load(quickstart, dt.date(2026, 11, 1))
    row = snapshot.census.by_path[path]
    assert row.outcome is Outcome.TYPED and row.kind == "decision"
    document, taxonomy = row.document, snapshot.taxonomy
    assert document.id == "ACME-DR-0004"
    for facet in taxonomy.required_facets("decision"):
        assert document.text_of(facet), facet
    assert document.text_of(taxonomy.facet_for_role("scent")) == SUMMARY
    assert document.text_of(taxonomy.facet_for_role("state")) == taxonomy.lifecycle_of("decision").initial
    headings = {h.text.strip().casefold() for h in document.body.headings}
    assert {s.casefold() for s in taxonomy.required_sections("decision")} <= headings
    assert document.warrant == "asserted"
    explained = hw("explain", "ACME-DR-0004", "--root", str(quickstart))
    assert explained.status == 0 and path in explained.out and "kind decision" in explained.out


def test_a_fresh_decision_with_a_summary_passes_check_strict(hw, quickstart):
    assert _new(hw, quickstart, "decision", "--title", "Queue everything in Kafka", "--summary", SUMMARY).status == 0
    ran = hw("check", "--strict", "--root", str(quickstart), "--now", NOW)
    assert ran.status == 0, ran.out + ran.err


def test_the_written_document_has_the_documented_front_matter_and_body(hw, quickstart):
    assert _new(hw, quickstart, "decision", "--title", "Queue everything in Kafka", "--summary", SUMMARY).status == 0
    text = (quickstart / "docs/decisions/0004-queue-everything-in-kafka.md").read_text()
    assert text == (
        "---\n"
        "id: ACME-DR-0004\n"
        "status: draft\n"
        "status_since: 2026-11-01\n"
        f'summary: "{SUMMARY}"\n'
        "last_verified: 2026-11-01\n"
        'title: "Queue everything in Kafka"\n'
        "provenance: {warrant: asserted}\n"
        "---\n"
        "\n# Queue everything in Kafka\n"
        "\n## Context\n\nTODO write this section.\n"
        "\n## Decision\n\nTODO write this section.\n"
        "\n## Consequences\n\nTODO write this section.\n"
    )
    assert (quickstart / ".headwater/ids/decision_id/ACME-DR-0004").read_text() == \
        "docs/decisions/0004-queue-everything-in-kafka.md\n"
    umask = os.umask(0)
    os.umask(umask)
    mode = (quickstart / "docs/decisions/0004-queue-everything-in-kafka.md").stat().st_mode & 0o777
    assert mode == 0o666 & ~umask, "a new document gets the mode any new file gets, not a temp file's 0600"


def test_without_a_summary_the_scent_facet_is_a_marked_todo(hw, quickstart):
    assert _new(hw, quickstart, "specification", "--title", "Dead letters").status == 0
    text = (quickstart / "docs/specifications/dead-letters.md").read_text()
    assert 'summary: "TODO one sentence:' in text
    assert "id: ACME-SPEC-0003\n" in text


def test_the_report_says_what_was_written_what_the_taxonomy_decided_and_what_to_run_next(hw, quickstart):
    ran = _new(hw, quickstart, "decision", "--title", "Queue everything in Kafka", "--summary", SUMMARY)
    lines = ran.out.splitlines()
    assert lines[0] == "wrote docs/decisions/0004-queue-everything-in-kafka.md"
    assert "  kind decision, on the shelf `decisions` (docs/decisions/**)" in lines
    assert any(line.startswith("  identifier ACME-DR-0004 under `decision_id`, allocation reconcile-first")
               for line in lines)
    assert "  status — draft, the initial state of the lifecycle `standard`" in lines
    assert "  status_since — 2026-11-01, the run date" in lines
    assert "  summary — from --summary" in lines
    assert "  section `Consequences` — the kind requires it" in lines
    assert lines[-1] == "Next: run `headwater check`"
    assert ran.err == ""


def test_a_reciprocal_relation_writes_the_far_half_into_the_target_and_reports_the_edit(hw, quickstart):
    target = quickstart / "docs/decisions/0002-deliver-at-least-once.md"
    before = target.read_text()
    ran = _new(hw, quickstart, "decision", "--title", "Deliver in order", "--summary", SUMMARY,
               "--relates", "supersedes=ACME-DR-0002", "--relates", "governs=src/queue/**")
    assert ran.status == 0, ran.err
    assert "edited docs/decisions/0002-deliver-at-least-once.md" in ran.out.splitlines()
    assert "    the far half `superseded_by` went into docs/decisions/0002-deliver-at-least-once.md" in ran.out
    inserted = "  superseded_by:\n    - ACME-DR-0004\n"
    assert target.read_text() == before.replace("---\n\n# Deliver", inserted + "---\n\n# Deliver")
    text = (quickstart / "docs/decisions/0004-deliver-in-order.md").read_text()
    assert "relations:\n  supersedes:\n    - ACME-DR-0002\n  governs:\n    - \"src/queue/**\"\n" in text
    snapshot = load(quickstart, dt.date(2026, 11, 1))
    touched = ("docs/decisions/0002-deliver-at-least-once.md", "docs/decisions/0004-deliver-in-order.md")
    assert not [p for p in snapshot.graph.problems if p.path in touched]


def test_a_symmetric_relation_never_edits_its_target(hw, quickstart):
    target = quickstart / "docs/decisions/0003-rate-limit-per-tenant.md"
    before = target.read_bytes()
    ran = _new(hw, quickstart, "decision", "--title", "Limit per client", "--relates", "conflicts_with=ACME-DR-0003")
    assert ran.status == 0, ran.err
    assert target.read_bytes() == before
    assert not [line for line in ran.out.splitlines() if line.startswith("edited ")]


def test_a_new_decision_that_conflicts_with_another_passes_check_strict_and_fix_leaves_the_target_alone(
        hw, quickstart):
    target = quickstart / "docs/decisions/0003-rate-limit-per-tenant.md"
    before = target.read_bytes()
    ran = _new(hw, quickstart, "decision", "--title", "Limit per client", "--summary", SUMMARY,
               "--relates", "conflicts_with=ACME-DR-0003")
    assert ran.status == 0, ran.err
    checked = hw("check", "--strict", "--root", str(quickstart), "--now", NOW)
    assert checked.status == 0, checked.out + checked.err
    assert "relation.reciprocity.missing" not in checked.out
    fixed = hw("check", "--fix", "--strict", "--root", str(quickstart), "--now", NOW)
    assert fixed.status == 0, fixed.out + fixed.err
    assert "fixed" not in fixed.err and target.read_bytes() == before


def test_the_capture_cost_line_has_its_members_in_order(hw, quickstart):
    _new(hw, quickstart, "decision", "--title", "Deliver in order", "--summary", SUMMARY,
         "--relates", "supersedes=ACME-DR-0002")
    _new(hw, quickstart, "specification", "--title", "Dead letters")
    lines = (quickstart / ".headwater/capture-cost.jsonl").read_text().splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert list(first) == ["lock", "date", "kind", "document", "id", "fields", "sections", "identifier", "edge_halves"]
    assert first["lock"].startswith("sha256:") and first["date"] == NOW and first["id"] == "ACME-DR-0004"
    assert first["identifier"] == [1, 1] and first["sections"] == [3, 3] and first["edge_halves"] == [1, 2]
    assert json.loads(lines[1])["document"] == "docs/specifications/dead-letters.md"


def test_a_deleted_number_is_never_minted_again(hw, quickstart):
    assert _new(hw, quickstart, "decision", "--title", "First try").status == 0
    (quickstart / "docs/decisions/0004-first-try.md").unlink()
    assert _new(hw, quickstart, "decision", "--title", "Second try").status == 0
    assert (quickstart / "docs/decisions/0005-second-try.md").read_text().startswith("---\nid: ACME-DR-0005\n")


def test_the_corpus_ids_count_even_where_the_claim_store_is_empty(hw, quickstart):
    for claim in (quickstart / ".headwater/ids/decision_id").iterdir():
        claim.unlink()
    assert _new(hw, quickstart, "decision", "--title", "Next one").status == 0
    assert (quickstart / "docs/decisions/0004-next-one.md").is_file()


def test_a_record_numbered_only_in_its_file_name_keeps_its_number_from_new(hw, quickstart):
    # a record not yet adopted: its number is in its name, not yet in its front matter
    (quickstart / "docs/decisions/0007-use-sqs.md").write_text("---\ntitle: Use SQS\n---\n\n# Use SQS\n")
    ran = _new(hw, quickstart, "decision", "--title", "Next one")
    assert ran.status == 0, ran.err
    assert (quickstart / "docs/decisions/0008-next-one.md").read_text().startswith("---\nid: ACME-DR-0008\n")
    assert "the numbers its file names carry, and claims (7)" in ran.out


def test_a_record_with_no_front_matter_yet_keeps_its_number_from_new(hw, tmp_path):
    """adr-tools' records, bound by `init` and not yet adopted, have no front matter at all: `new`
    counted none of their numbers and wrote `doc/adr/0001-….md` as ADR-0001 beside
    `0001-record-architecture-decisions.md`, so `adopt` then moved that record to another number."""
    records = tmp_path / "doc/adr"
    records.mkdir(parents=True)
    for n, name in ((1, "record-architecture-decisions"), (2, "implement-as-shell-scripts")):
        (records / f"000{n}-{name}.md").write_text(f"# {n}. {name}\n\nDate: 2016-02-12\n\n## Status\n\nAccepted\n"
                                                   "\n## Context\n\nWhy.\n")
    assert hw("init", "--root", str(tmp_path)).status == 0
    ran = _new(hw, tmp_path, "decision", "--title", "Next one")
    assert ran.status == 0 and ran.out.startswith("wrote doc/adr/0003-next-one.md\n"), ran.out
    assert "the numbers its file names carry, and claims (2)" in ran.out
    adopted = hw("adopt", "--root", str(tmp_path))
    assert "adopted doc/adr/0001-record-architecture-decisions.md: status accepted, status_since 2016-02-12, " \
           "title, id ADR-0001\n" in adopted.out, adopted.out


def test_a_heterogeneous_shelf_gets_its_discriminator_and_a_facet_from_the_command_line(hw, quickstart):
    declaration = quickstart / ".headwater/taxonomy.yml"
    declaration.write_text(declaration.read_text().replace("bundles: []", "bundles: [diataxis]"))
    overlay = quickstart / ".headwater/overlay.yml"
    overlay.write_text(overlay.read_text() + (
        '  identifier_schemes.guide_id: {pattern: "{namespace}-GUIDE-{seq:04d}", namespace: ACME, '
        "allocation: reconcile-first}\n"
        "  kinds.how_to.identifier: {scheme: guide_id}\n"))
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0
    ran = _new(hw, quickstart, "how_to", "--title", "Rotate the keys", "--summary", "How to rotate keys.")
    assert ran.status == 0, ran.err
    text = (quickstart / "docs/guides/rotate-the-keys.md").read_text()
    assert "id: ACME-GUIDE-0001\n" in text and "doc_type: how_to\n" in text
    row = load(quickstart, dt.date(2026, 11, 1)).census.by_path["docs/guides/rotate-the-keys.md"]
    assert row.outcome is Outcome.TYPED and row.kind == "how_to"


@pytest.mark.parametrize("title", ["null", "No", "on", "2024-01-01", "3.14", "1e3", "12:30"])
def test_a_title_a_yaml_reader_would_take_for_null_a_boolean_a_number_or_a_date_is_quoted(hw, quickstart, title):
    # headwater reads it as text either way; Jekyll, Hugo and js-yaml, fed the same file, do not
    ran = _new(hw, quickstart, "decision", "--title", title, "--summary", SUMMARY)
    assert ran.status == 0, ran.err
    [written] = [p for p in (quickstart / "docs/decisions").iterdir() if p.name.startswith("0004-")]
    front = written.read_text(encoding="utf-8").split("---\n")[1].splitlines()
    assert f'title: "{title}"' in front and "status_since: 2026-11-01" in front  # a date facet stays a date
    assert hw("check", "--strict", "--root", str(quickstart), "--now", NOW).status == 0


def test_a_run_that_read_the_corpus_before_another_wrote_the_same_title_takes_the_next_number(quickstart):
    from headwater import writelock
    from headwater.writes.new import carry_out, prepare

    snapshot = load(quickstart, dt.date(2026, 11, 1))
    first, second = (prepare(snapshot, "decision", "Same title", [], f"Plan {n}.", [], None) for n in (1, 2))
    with writelock.held(quickstart):
        written = [carry_out(first), carry_out(second)]  # the second's snapshot never saw the first's file
    assert [w.paths[:2] for w in written] == [
        (".headwater/ids/decision_id/ACME-DR-0004", "docs/decisions/0004-same-title.md"),
        (".headwater/ids/decision_id/ACME-DR-0005", "docs/decisions/0005-same-title.md")]
    assert "Plan 1." in (quickstart / "docs/decisions/0004-same-title.md").read_text()
    assert "id: ACME-DR-0005\n" in (quickstart / "docs/decisions/0005-same-title.md").read_text()


def test_a_date_in_a_compact_layout_field_loses_its_dashes_in_the_file_name(hw, quickstart):
    overlay = quickstart / ".headwater/overlay.yml"
    overlay.write_text(overlay.read_text() + "override:\n"
                       "  shelves.decisions.layout: \"{status_since:yyyymmdd}-{slug}.md\"\n")
    assert hw("taxonomy", "resolve", "--root", str(quickstart)).status == 0
    ran = _new(hw, quickstart, "decision", "--title", "Use slugs", "--summary", SUMMARY)
    assert ran.status == 0, ran.err
    assert ran.out.startswith("wrote docs/decisions/20261101-use-slugs.md\n")
    assert "status_since: 2026-11-01\n" in (quickstart / "docs/decisions/20261101-use-slugs.md").read_text()


def test_a_directory_given_on_the_shelf_takes_the_document_and_keeps_its_kind(hw, quickstart):
    ran = _new(hw, quickstart, "decision", "--title", "Use slugs", "--summary", SUMMARY,
               "--directory", "docs/decisions/2026")
    assert ran.status == 0, ran.err
    assert ran.out.startswith("wrote docs/decisions/2026/0004-use-slugs.md\n")
    assert "  kind decision, on the shelf `decisions` (docs/decisions/**)\n" in ran.out
    row = load(quickstart, dt.date(2026, 11, 1)).census.by_path["docs/decisions/2026/0004-use-slugs.md"]
    assert (row.outcome, row.kind, row.document.id) == (Outcome.TYPED, "decision", "ACME-DR-0004")
