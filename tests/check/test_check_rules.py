"""Every rule has its own pass and fail fixture, and each behaves as its fixture says."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from headwater.check.change_manifest import read_manifest
from headwater.check.finding import Finding
from headwater.check.registry import RULES
from headwater.check.runner import run
from headwater.snapshot import load

FIXTURES = Path(__file__).resolve().parents[2] / "corpus_fixtures"
RULE_FIXTURES = FIXTURES / "rules"
NOW = dt.date(2026, 11, 1)
EXPECTED = "fail.expected"  # beside the fail fixture: `path:line:column rule`, one finding a line


def findings(root: Path) -> list[Finding]:
    """The findings, with the fixture's change when it carries one (`change/manifest`)."""
    manifest = root / "change" / "manifest"
    change = read_manifest(manifest, root) if manifest.is_file() else None
    return list(run(load(root, NOW), change).findings)


def fired(root: Path) -> list[str]:
    return [finding.rule for finding in findings(root)]


def expected(rule_id: str) -> list[tuple[str, str, int, int]]:
    """(rule, path, line, column) of each finding the fail fixture's expectation names."""
    rows = []
    for line in (RULE_FIXTURES / rule_id / EXPECTED).read_text(encoding="utf-8").splitlines():
        where, rule = line.rsplit(" ", 1)
        path, row, column = where.rsplit(":", 2)
        rows.append((rule, path, int(row), int(column)))
    return rows


def test_every_registered_rule_has_a_pass_and_a_fail_fixture_and_an_expectation():
    lacking = [f"{r.id}/{side}" for r in RULES for side in ("pass", "fail")
               if not (RULE_FIXTURES / r.id / side / ".headwater" / "taxonomy.yml").is_file()]
    lacking += [f"{r.id}/{EXPECTED}" for r in RULES if not (RULE_FIXTURES / r.id / EXPECTED).is_file()]
    assert lacking == []


def test_no_fixture_names_a_rule_the_registry_lacks():
    assert sorted(p.name for p in RULE_FIXTURES.iterdir()) == sorted(r.id for r in RULES)


@pytest.mark.parametrize("rule_id", [r.id for r in RULES])
def test_a_rule_finds_what_its_fail_fixture_expects_where_it_expects_it(rule_id, copy_fixture):
    want = expected(rule_id)
    named = {rule for rule, *_ in want}
    got = [(f.rule, f.path, f.line, f.column) for f in findings(copy_fixture(f"rules/{rule_id}/fail"))]
    found = sorted(g for g in got if g[0] in named)
    assert rule_id in named
    assert found == sorted(want), "found:\n" + "".join(f"{p}:{line}:{column} {r}\n" for r, p, line, column in found)


@pytest.mark.parametrize("rule_id", [r.id for r in RULES])
def test_a_rule_stays_silent_on_its_pass_fixture(rule_id, copy_fixture):
    assert rule_id not in fired(copy_fixture(f"rules/{rule_id}/pass"))


def test_the_check_all_fixture_trips_every_rule():
    assert {r.id for r in RULES} - set(fired(FIXTURES / "check-all")) == set()


def test_the_quickstart_fixture_is_clean():
    assert fired(FIXTURES / "quickstart") == []


def test_rule_ids_are_unique_and_each_rule_carries_its_descriptions():
    assert len({r.id for r in RULES}) == len(RULES)
    for r in RULES:
        assert r.version >= 1 and r.short and r.full and r.help and r.tags


def test_findings_come_sorted_by_path_line_column_rule_and_message():
    findings = run(load(FIXTURES / "check-all", NOW)).findings
    keys = [(f.path, f.line, f.column, f.rule, f.message) for f in findings]
    assert keys == sorted(keys)
    assert all(f.remediation for f in findings)
    assert all(f.column == 0 for f in findings if f.line == 0)


def test_a_state_a_relation_sets_is_reported_once_where_both_halves_are_written_and_at_the_half_written(copy_fixture):
    root = copy_fixture("rules/lifecycle.state.not_set_by_edge/fail")  # supersedes and superseded_by both written
    both = [(f.path, f.line) for f in findings(root) if f.rule == "lifecycle.state.not_set_by_edge"]
    assert both == [("docs/decisions/0002-next.md", 10)]  # the source's own half
    source = root / "docs/decisions/0002-next.md"
    source.write_text(source.read_text(encoding="utf-8").replace("relations:\n  supersedes: ACME-DR-0001\n", ""),
                      encoding="utf-8")
    alone = [(f.path, f.line) for f in findings(root) if f.rule == "lifecycle.state.not_set_by_edge"]
    assert alone == [("docs/decisions/0001-base.md", 10)]  # the inverse half, written alone, still reports it


def _relate(root: Path, path: str, relation: str) -> None:
    """Add `relation` (an indented YAML line) under the document's `relations:`."""
    document = root / path
    front, body = document.read_text(encoding="utf-8").split("\n---\n", 1)
    front = (front.replace("\nrelations:", f"\nrelations:\n{relation}", 1) if "\nrelations:" in front
             else f"{front}\nrelations:\n{relation}")
    document.write_text(f"{front}\n---\n{body}", encoding="utf-8")


CURRENT = "docs/decisions/0003-rate-limit-per-tenant.md"
SUPERSEDED = "docs/decisions/0001-store-attempts-in-postgres.md"


def _resting(root: Path) -> list[tuple[str, int, str]]:
    return [(f.path, f.line, f.message) for f in findings(root) if f.rule == "lifecycle.dependency.on_terminal"]


RESTS = ("`ACME-DR-0003` (current) rests on `ACME-DR-0001`, which is superseded: "
         "`ACME-DR-0003` `traces_to` `ACME-DR-0001`")


def test_a_live_document_tracing_to_a_terminal_one_is_reported_at_the_half_the_terminal_one_writes(copy_fixture):
    root = copy_fixture("quickstart")
    _relate(root, SUPERSEDED, "  traced_by: [ACME-DR-0003]")  # written by the document rested on, alone
    assert _resting(root) == [(SUPERSEDED, 10, RESTS)]


def test_a_live_document_tracing_to_a_terminal_one_with_both_halves_written_is_reported_once(copy_fixture):
    root = copy_fixture("quickstart")
    _relate(root, SUPERSEDED, "  traced_by: [ACME-DR-0003]")
    _relate(root, CURRENT, "  traces_to: [ACME-DR-0001]")
    assert _resting(root) == [(CURRENT, 10, RESTS)]  # at the source's own half


def test_an_inverse_half_reads_the_relation_in_its_own_direction(copy_fixture):
    root = copy_fixture("quickstart")
    # `traced_by: ACME-DR-0001` in a current decision says the superseded one traces to it: the
    # superseded document rests on the current one, and nothing live rests on anything terminal
    _relate(root, "docs/decisions/0002-deliver-at-least-once.md", "  traced_by: [ACME-DR-0001]")
    assert _resting(root) == []


def test_an_evidenced_claim_resting_on_asserted_evidence_with_both_halves_written_is_reported_once(copy_fixture):
    root = copy_fixture("rules/warrant.evidence.unsupported/fail")  # ACME-DR-0001 traces_to ACME-DR-0002
    _relate(root, "docs/decisions/0002-next.md", "  traced_by: [ACME-DR-0001]")
    unsupported = [(f.path, f.line) for f in findings(root) if f.rule == "warrant.evidence.unsupported"]
    assert unsupported == [("docs/decisions/0001-base.md", 10)]


def test_two_current_decisions_that_conflict_written_at_both_ends_are_one_finding_at_the_first_path(copy_fixture):
    root = copy_fixture("quickstart")  # conflicts_with is symmetric: either end may write it, or both
    _relate(root, CURRENT, "  conflicts_with: [ACME-DR-0002]")
    _relate(root, "docs/decisions/0002-deliver-at-least-once.md", "  conflicts_with: [ACME-DR-0003]")
    invalid = [(f.path, f.line) for f in findings(root) if f.rule == "relation.pair.invalid"]
    assert invalid == [("docs/decisions/0002-deliver-at-least-once.md", 10)]


def test_a_symmetric_relation_written_at_one_end_owes_no_far_half(copy_fixture):
    root = copy_fixture("quickstart")  # `reciprocal: symmetric`: one fact, which either end alone states
    _relate(root, CURRENT, "  conflicts_with: [ACME-DR-0002]")
    assert "relation.reciprocity.missing" not in fired(root)


ON_INITIAL = "rules/lifecycle.dependency.on_initial/fail"  # current ACME-DR-0001 traces_to draft ACME-DR-0002
BASE, DRAFT = "docs/decisions/0001-base.md", "docs/decisions/0002-next.md"


def _rewrite(root: Path, path: str, old: str, new: str) -> None:
    document = root / path
    document.write_text(document.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def _relying(root: Path) -> list[tuple[str, int, str]]:
    return [(f.path, f.line, f.message) for f in findings(root) if f.rule == "lifecycle.dependency.on_initial"]


def test_a_live_decision_that_conflicts_with_a_draft_does_not_rely_on_it(copy_fixture):
    root = copy_fixture(ON_INITIAL)
    _rewrite(root, BASE, "  traces_to: [ACME-DR-0002]", "  conflicts_with: [ACME-DR-0002]")  # not lifecycle_sensitive
    assert _relying(root) == []


def test_an_inverse_half_naming_a_draft_says_the_draft_relies_on_the_live_document(copy_fixture):
    root = copy_fixture(ON_INITIAL)
    # `traced_by: ACME-DR-0002` in the current decision says the draft traces to it, not the other way
    _rewrite(root, BASE, "  traces_to: [ACME-DR-0002]", "  traced_by: [ACME-DR-0002]")
    assert _relying(root) == []


def test_an_inverse_half_written_by_a_draft_reports_the_live_document_resting_on_it(copy_fixture):
    root = copy_fixture(ON_INITIAL)
    _rewrite(root, BASE, "relations:\n  traces_to: [ACME-DR-0002]\n", "")
    _relate(root, DRAFT, "  traced_by: [ACME-DR-0001]")  # the current decision traces to the draft
    assert _relying(root) == [(DRAFT, 10, "`ACME-DR-0001` (current) rests on `ACME-DR-0002`, which is still "
                                          "draft: `ACME-DR-0001` `traces_to` `ACME-DR-0002`")]


def test_a_live_document_resting_on_a_draft_with_both_halves_written_is_reported_once(copy_fixture):
    root = copy_fixture(ON_INITIAL)
    _relate(root, DRAFT, "  traced_by: [ACME-DR-0001]")
    assert [(p, line) for p, line, _ in _relying(root)] == [(BASE, 10)]  # at the source's own half


def test_a_dependency_finding_states_the_relation_in_the_direction_its_name_reads(quickstart):
    """The superseded end rests on its successor: the finding must not read as if it superseded it."""
    for path, old, new in (("docs/decisions/0001-store-attempts-in-postgres.md", "superseded", "current"),
                           ("docs/decisions/0002-deliver-at-least-once.md", "current", "deprecated")):
        document = quickstart / path
        text = document.read_text(encoding="utf-8")
        document.write_text(text.replace(f"status: {old}", f"status: {new}", 1), encoding="utf-8")
    messages = [f.message for f in findings(quickstart) if f.rule == "lifecycle.dependency.on_terminal"]
    assert ("`ACME-DR-0001` (current) rests on `ACME-DR-0002`, which is deprecated: "
            "`ACME-DR-0002` `supersedes` `ACME-DR-0001`") in messages
