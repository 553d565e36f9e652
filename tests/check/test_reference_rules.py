"""The rules read from the reference's registry, beyond their pass and fail fixtures."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

from headwater.check.observations import Entry, Observations
from headwater.check.runner import run
from headwater.snapshot import load

NOW = dt.date(2026, 11, 1)
DOC = "docs/decisions/0001-base.md"
NEXT = "docs/decisions/0002-next.md"


def findings(root: Path, rule: str) -> list:
    return [f for f in run(load(root, NOW)).findings if f.rule == rule]


def _append(root: Path, path: str, text: str) -> None:
    with (root / path).open("a", encoding="utf-8") as handle:
        handle.write("\n" + text + "\n")


def _relations(root: Path, path: str, block: str) -> None:
    text = (root / path).read_text(encoding="utf-8")
    head, _, rest = text.partition("\n---\n")
    (root / path).write_text(head + "\nrelations:\n" + block + "\n---\n" + rest, encoding="utf-8")


def test_a_list_where_only_a_document_may_stand_is_an_unusable_declaration(copy_fixture):
    root = copy_fixture("rules/link.identifier.mismatch/pass")
    _relations(root, DOC, "  constrains:\n    - [ACME-DR-0002, ACME-DR-0003]")
    [finding] = findings(root, "relation.declaration.unusable")
    assert "is a list" in finding.message and "each identifier as its own entry" in finding.remediation
    assert findings(root, "relation.target.unresolved") == []


def test_a_list_of_patterns_under_an_anchor_relation_still_binds(copy_fixture):
    root = copy_fixture("quickstart")
    assert findings(root, "relation.declaration.unusable") == []
    edges = load(root, NOW).graph.edges
    assert any(e.target.anchor is not None and len(e.target.anchor.patterns) == 2 for e in edges)


def test_a_british_spelling_and_a_contraction_are_fixed_and_a_possessive_is_not_a_contraction(copy_fixture):
    root = copy_fixture("rules/language.controlled.not_met/pass")
    _append(root, DOC, "The team's behaviour isn't organised.")
    found = sorted((f.message, f.fixable) for f in findings(root, "language.controlled.not_met"))
    assert found == [("`behaviour` is not en-US spelling", True), ("`isn't` is a contraction, which the "
                     "controlled language does not write", True), ("`organised` is not en-US spelling", True)]


def test_jargon_the_word_list_lacks_is_not_a_spelling_finding(copy_fixture):
    root = copy_fixture("rules/language.controlled.not_met/pass")
    _append(root, DOC, "The config sits beside the namespace.")
    assert findings(root, "language.controlled.not_met") == []


def test_a_long_sentence_and_an_ambiguous_contraction_are_reported_without_a_fix(copy_fixture):
    root = copy_fixture("rules/language.controlled.not_met/pass")
    _append(root, DOC, "It's " + " ".join(["word"] * 30) + ".")
    found = {(f.severity.value, f.fixable) for f in findings(root, "language.controlled.not_met")}
    assert found == {("warn", False), ("error", False)}


def test_an_expectation_is_met_by_the_far_half_written_at_the_other_end(copy_fixture):
    root = copy_fixture("rules/relation.participation.overdue/fail")
    assert len(findings(root, "relation.participation.overdue")) == 1
    (root / NEXT).write_text((root / DOC).read_text(encoding="utf-8").replace("ACME-DR-0001", "ACME-DR-0002")
                             .replace("2026-06-01", "2026-10-25"), encoding="utf-8")
    (root / ".headwater/ids/decision_id/ACME-DR-0002").write_text(NEXT + "\n")
    _relations(root, NEXT, "  constrained_by: [ACME-DR-0001]")
    assert findings(root, "relation.participation.overdue") == []


def test_a_hard_break_keeps_its_line_under_one_line_per_block(copy_fixture):
    root = copy_fixture("rules/language.source_form.not_met/pass")
    _append(root, DOC, "First line of an address\\\nsecond line of it.")
    assert findings(root, "language.source_form.not_met") == []


def test_console_output_is_not_a_command_and_a_prompted_line_is(copy_fixture):
    root = copy_fixture("rules/surface.command.undeclared/pass")
    _append(root, DOC, "```console\n$ FOO=1 make install\nmake: nothing to do\n```")
    [finding] = findings(root, "surface.command.undeclared")
    assert "`make`" in finding.message


def test_a_shell_block_is_read_past_quotes_reserved_words_continuations_and_here_documents(copy_fixture):
    root = copy_fixture("rules/surface.command.undeclared/pass")
    _append(root, DOC, "```sh\nif headwater check; then git commit -m 'a | b && c'; fi\n"
                       "headwater check \\\n  --strict && ./bin/deploy 2>&1 | tee log\n"
                       "cat <<EOF\nrm -rf everything\nEOF\n```")
    found = sorted(f.message.split("`")[1] for f in findings(root, "surface.command.undeclared"))
    assert found == ["cat", "deploy", "tee"]


def test_a_claim_empty_of_a_claimant_is_stale(copy_fixture):
    root = copy_fixture("rules/identifier.claim.stale/pass")
    (root / ".headwater/ids/decision_id/ACME-DR-0001").write_text("")
    [finding] = findings(root, "identifier.claim.stale")
    assert finding.path == ".headwater/ids/decision_id/ACME-DR-0001" and "names no claimant" in finding.message


def test_a_claim_that_is_a_link_a_directory_or_a_fifo_names_no_claimant_and_a_long_one_is_read_whole(copy_fixture):
    root = copy_fixture("rules/identifier.claim.stale/pass")
    store = root / ".headwater/ids/decision_id"
    (store / "ACME-DR-0002").symlink_to(store / "ACME-DR-0001")
    (store / "ACME-DR-0003").mkdir()
    os.mkfifo(store / "ACME-DR-0004")
    (store / "ACME-DR-0005").write_text(" " * 70_000 + "docs/gone.md\n")  # its claimant lies past one read
    found = {f.path.rsplit("/", 1)[1]: f.message for f in findings(root, "identifier.claim.stale")}
    assert sorted(found) == ["ACME-DR-0002", "ACME-DR-0003", "ACME-DR-0004"]
    assert all("names no claimant" in message for message in found.values())


def test_a_claim_naming_a_document_that_now_declares_another_identifier_is_an_orphan(copy_fixture, hw):
    root = copy_fixture("rules/identifier.claim.stale/pass")
    record = root / DOC
    record.write_text(record.read_text().replace("id: ACME-DR-0001", "id: ACME-DR-0002"))
    (root / ".headwater/ids/decision_id/ACME-DR-0002").write_text(DOC + "\n")
    ran = hw("check", "--now", "2026-11-01", "--root", str(root), "--format", "json", "--no-cache")
    [finding] = [f for f in json.loads(ran.out)["findings"] if f["rule"] == "identifier.claim.stale"]
    assert ran.status == 0 and finding["path"] == ".headwater/ids/decision_id/ACME-DR-0001"
    assert finding["message"] == (f"the claim of `ACME-DR-0001` names `{DOC}`, which declares `ACME-DR-0002`, "
                                  "and no document holds `ACME-DR-0001`")
    assert finding["remediation"] == (f"write `id: ACME-DR-0001` back into `{DOC}`, or, where it keeps "
                                      "`ACME-DR-0002` for good, delete `.headwater/ids/decision_id/ACME-DR-0001` "
                                      "(`ACME-DR-0001` may then be minted again)")


def test_a_claim_naming_a_document_that_lost_its_identifier_is_left_to_the_identifier_it_is_proposed(copy_fixture):
    root = copy_fixture("rules/identifier.claim.stale/pass")
    record = root / DOC
    record.write_text(record.read_text().replace("id: ACME-DR-0001\n", ""))
    assert findings(root, "identifier.claim.stale") == []
    [finding] = findings(root, "identifier.unusable")
    assert "`id: ACME-DR-0001`, which `.headwater/ids/decision_id/ACME-DR-0001` claims" in finding.remediation


def test_an_obligation_discharged_and_declared_a_gap_has_two_dispositions(copy_fixture):
    root = copy_fixture("rules/control.mechanism.unimplemented/pass")
    overlay = root / ".headwater/overlay.yml"
    overlay.write_text(overlay.read_text().replace("    severity: high\n", "    severity: high\n"
                                                   "    disposition:\n      gap: {owner: the docs team}\n", 1))
    from headwater.cli.main import main

    assert main(["taxonomy", "resolve", "--root", str(root)]) == 0
    [finding] = findings(root, "obligation.disposition.not_one")
    assert "2 dispositions" in finding.message and finding.path == ".headwater/taxonomy.lock" and finding.line > 0


def test_a_claim_rewritten_to_a_wrong_path_is_stale_on_a_warm_cache(copy_fixture, hw):
    root = copy_fixture("rules/identifier.claim.stale/pass")
    assert "identifier.claim.stale" not in hw("check", "--now", "2026-11-01", "--root", str(root)).out
    (root / ".headwater/ids/decision_id/ACME-DR-0001").write_text("docs/decisions/0009-elsewhere.md\n")
    assert "identifier.claim.stale" in hw("check", "--now", "2026-11-01", "--root", str(root)).out


def test_fix_writes_the_contraction_out_and_the_american_spelling(copy_fixture, hw):
    root = copy_fixture("rules/language.controlled.not_met/fail")
    ran = hw("check", "--fix", "--now", "2026-11-01", "--root", str(root))
    assert ran.status == 0 and "fixed docs/decisions/0001-base.md (2 patches)" in ran.err
    assert "The check does not stop; the color of a finding" in (root / DOC).read_text(encoding="utf-8")


def test_a_local_path_in_front_matter_of_an_adopter_page_is_instructed(copy_fixture):
    root = copy_fixture("rules/surface.local_path.instructed/pass")
    text = (root / DOC).read_text(encoding="utf-8")
    (root / DOC).write_text(text.replace("title: A record", "title: A record\nsetup: ./tools/dev/setup.sh", 1))
    [finding] = findings(root, "surface.local_path.instructed")
    assert "`./tools/dev/setup.sh`" in finding.message and finding.line > 0


def test_a_controlled_profile_this_engine_has_no_rules_for_skips_and_names_it(copy_fixture):
    root = copy_fixture("rules/language.controlled.not_met/fail")
    overlay = root / ".headwater/overlay.yml"
    overlay.write_text(overlay.read_text().replace("profile: house", "profile: aerospace"))
    from headwater.cli.main import main

    assert main(["taxonomy", "resolve", "--root", str(root)]) == 0
    report = run(load(root, NOW))
    assert [f for f in report.findings if f.rule == "language.controlled.not_met"] == []
    assert "`default` declares ASD-STE100, profile aerospace, and this engine has no rules for it" in [
        skip.reason for skip in report.coverage.skips]


def test_a_pipe_table_is_cells_not_a_long_sentence(copy_fixture):
    root = copy_fixture("rules/language.controlled.not_met/pass")
    row = "| " + " | ".join(["cell"] * 30) + " |"
    _append(root, DOC, row + "\n" + row)
    assert findings(root, "language.controlled.not_met") == []


def test_the_summary_is_held_to_the_controlled_language_without_a_patch(copy_fixture):
    root = copy_fixture("rules/language.controlled.not_met/pass")
    text = (root / DOC).read_text(encoding="utf-8")
    (root / DOC).write_text(text.replace('summary: "One sentence a reader learns here."',
                                         'summary: "It doesn\'t change behaviour."'), encoding="utf-8")
    found = sorted((f.line, f.message, f.fixable) for f in findings(root, "language.controlled.not_met"))
    assert [(m.split(":")[0], fixable) for _, m, fixable in found] == [("the `summary` facet", False)] * 2


def test_the_first_well_formed_verification_of_a_pair_is_the_one_an_edge_reads():
    def entry(criterion: str, digest: str, problem: str | None = None) -> Entry:
        return Entry(1, 1, {"kind": "verification", "document": "ACME-AC-1", "criterion": criterion,
                            "criterion_digest": digest, "commit": "3f2a9c1"}, problem)

    broken, first, second = entry("ACME-REQ-1", "a", "not read"), entry("ACME-REQ-1", "b"), entry("ACME-REQ-1", "c")
    control = Entry(1, 1, {"kind": "control", "control": "CT-1", "commit": "3f2a9c1"}, None)
    observations = Observations(None, 0, (control, broken, first, second))
    assert observations.verification("ACME-AC-1", "ACME-REQ-1") is first
    assert observations.verification("ACME-AC-1", "ACME-REQ-2") is None
    assert Observations(None, 0, (control, broken)).verifications == {}
