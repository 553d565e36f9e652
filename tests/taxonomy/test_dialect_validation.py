"""The taxonomy language reads the reference dialect: what it accepts, what it refuses, and what
it reads with no effect."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from headwater.taxonomy.resolve import resolve

EMBEDDED = Path(__file__).resolve().parents[2] / "taxonomy" / "headwater-standard"


def problems(root: Path, overlay: str = "", bundles: str = "") -> list[str]:
    """Resolve a one-decision fixture with `overlay` appended under its `add:` (and `bundles`)."""
    declaration = root / ".headwater/taxonomy.yml"
    declaration.write_text(declaration.read_text().replace("bundles: []", f"bundles: [{bundles}]"))
    with (root / ".headwater/overlay.yml").open("a") as handle:
        handle.write(overlay)
    return list(resolve(root).problems)


@pytest.fixture
def repo(copy_fixture) -> Path:
    return copy_fixture("rules/link.identifier.mismatch/pass")


def test_boolean_and_duration_facets_and_relation_descriptors_validate(repo):
    assert problems(repo, """\
  facets.reviewed: {type: boolean, volatility: mutable, severity: warn}
  facets.window: {type: duration, volatility: stable}
  relations.supersedes.created_by: scaffold
  relations.supersedes.nuclearity: multinuclear
  relations.constrains.nucleus: from
  relations.constrains.cardinality: one
  relations.traces_to.evidence_at: from
  relations.traces_to.reciprocal: optional
""") == []


def test_a_mutable_facet_in_a_layout_is_refused(repo):
    assert problems(repo, """\
  facets.status.volatility: mutable
override:
  shelves.decisions.layout: "{status}-{seq:04d}-{slug}.md"
""") == ["shelves.decisions.layout: names the mutable facet `status`, whose value moves"]


def test_a_shelf_path_or_layout_that_new_could_not_write_at_plainly_is_refused(repo):
    assert problems(repo, """\
override:
  shelves.decisions.layout: "../../{seq:04d}-{slug}.md"
  shelves.specifications.path: "./docs/specifications/**"
""") == ["shelves.decisions.layout: `../../{seq:04d}-{slug}.md` leaves the repository, and so would a document "
         "`new` placed by it",
         "shelves.specifications.path: `./docs/specifications/**` reads as `docs/specifications/**`; write it so"]


def test_an_obligation_with_two_dispositions_is_refused_by_its_shape(repo):
    found = problems(repo, """\
  obligations.OB-1:
    statement: s
    rationale: r
    class: cohesion
    prevents: content.unclear
    severity: urgent
    disposition: {gap: {owner: me}, unverifiable: {reasoning: prose}}
""")
    assert found == ["obligations.OB-1.severity: must be one of high, medium, low",
                     "obligations.OB-1.disposition: must be exactly one of gap, unverifiable"]


def test_an_expectation_names_a_relation_a_duration_and_an_origin(repo):
    found = problems(repo, """\
  kinds.decision.relations:
    expect:
      - {id: e, relation: cites, within: soon, since: created_at, rationale: r}
""")
    assert found == ["kinds.decision.relations.expect[0].relation: names `cites`, which is not a relation",
                     "kinds.decision.relations.expect[0].within: `soon` is not a duration such as 90d or 12w",
                     "kinds.decision.relations.expect[0].since: must be created or state_entered"]


def test_core_requires_is_checked_on_the_resolved_tree(repo):
    found = problems(repo, """\
  core:
    requires:
      - facet_role: freshness
      - purpose: obligation
      - relation_family: derivation
""")
    assert found == ["core.requires[1]: the purpose `obligation` is gone",
                     "core.requires[2]: no relation of the `derivation` family is declared"]


def test_a_control_discharging_an_unknown_obligation_is_refused(repo):
    found = problems(repo, """\
  controls.CT-1: {mechanism: "check:x", discharges: [OB-9], trigger: weekly, posture: advisory, acts: detective}
""")
    assert found == ["controls.CT-1.discharges: names `OB-9`, which is not an obligation"]


def test_an_unknown_voice_category_and_a_new_allocation_are_read_with_no_effect(repo):
    assert problems(repo, """\
  regimes.voice.cautious.forbid: [hedging]
override:
  identifier_schemes.specification_id.allocation: per-branch
""") == []
    inert = {i.address: i.reason for i in resolve(repo).read_only}
    assert "regimes.voice.cautious.forbid.hedging" in inert
    assert "mints it as reconcile-first" in inert["identifier_schemes.specification_id.allocation"]


def test_an_allocation_or_a_voice_category_a_typo_away_from_one_implemented_is_a_problem_not_inert(repo):
    # inert, the typo would silently switch the claim rule or the voice rule off
    assert problems(repo, """\
  regimes.voice.cautious.forbid: [future-intent, hedging]
override:
  identifier_schemes.specification_id.allocation: reconcile_first
""") == ["identifier_schemes.specification_id.allocation: `reconcile_first` is not one this engine knows; "
         "write `reconcile-first`",
         "regimes.voice.cautious.forbid: `future-intent` is not one this engine knows; write `future_intent`"]


def test_a_facet_value_written_as_a_mapping_without_its_value_is_a_problem(repo):
    assert problems(repo, "  facets.severity: {type: string, values: [{value: sev1}, {valeu: sev3}]}\n") == [
        "facets.severity.values[1]: an entry written as a mapping names its `value`"]


@pytest.mark.parametrize("days", ["six months", "-3", "1.5"])
def test_stale_after_days_that_is_not_a_whole_number_is_a_problem_not_a_defect(repo, days):
    assert problems(repo, f"override:\n  facets.last_verified.stale_after_days: {days}\n") == [
        "facets.last_verified.stale_after_days: must be a whole number of days"]


def test_a_bundle_requiring_an_unselected_bundle_resolves_when_its_own_adds_stand(repo):
    package = repo / ".headwater/packages/headwater-standard"
    shutil.copytree(EMBEDDED, package, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "bundles/notes").mkdir()
    (package / "bundles/notes/bundle.yml").write_text(
        "bundle: notes\nextends: headwater/standard@1.0.0\nrequires: [requirements]\nadd:\n"
        "  facets.audience: {type: string, volatility: stable}\n")
    assert problems(repo, bundles="notes") == []


@pytest.mark.parametrize(("snippet", "problem"), [
    ("  obligations: [OB-1]\n", "obligations: must be a mapping"),
    ("  surface: [docs]\n", "surface: must be a mapping"),
    ("  extends: {base: standard}\n", "extends: must be a single value"),
    ("  shelves.decisions.group_by: [status]\n", "shelves.decisions.group_by: must be a single value"),
    ("  regimes.language.default.outside_root: {a: b}\n",
     "regimes.language.default.outside_root: must be a pattern or a list of patterns"),
    ("  core: {requires: [purpose]}\n", "core.requires[0]: must be a mapping"),
    ("  projections: {index: {}}\n", "projections: must be a list"),
])
def test_a_misshapen_reference_member_is_a_named_problem_not_a_defect(repo, snippet, problem):
    assert problems(repo, snippet) == [problem]


def test_an_overlay_operation_that_fails_is_listed_beside_every_other_problem_of_the_tree(repo):
    # validate lists every problem (spec 05): a failed operation hid the tree's own until it was fixed
    overlay = "override:\n  kinds.decision.purpose: nowhere\nadd_to:\n  shelves.decisions.kinds: [x]\n"
    assert problems(repo, overlay) == [
        ".headwater/overlay.yml: `shelves.decisions.kinds` does not exist, so `add_to` has nothing to change",
        "kinds.decision.purpose: names `nowhere`, which is not a purpose"]


TEAM_STATES = """\
override:
  vocabularies.lifecycle_state:
    - {value: proposed, role: initial}
    - {value: accepted, role: live}
    - {value: "on hold", role: live}
    - {value: superseded, role: terminal-retained}
  regimes.lifecycle.standard.initial: proposed
  regimes.lifecycle.standard.transitions: {proposed: [accepted, "on hold", superseded], accepted: [superseded]}
"""


def test_validate_refuses_an_invalid_when_naming_a_state_no_kind_it_joins_admits(repo, hw):
    problems(repo, TEAM_STATES)
    ran = hw("taxonomy", "validate", "--root", str(repo))
    assert ran.status == 1 and ran.out == ""
    assert ran.err == ("headwater: the taxonomy has 1 problem(s)\n  relations.conflicts_with.invalid_when.both.status: "
                       "names `current`, which no kind the relation joins admits\n")


@pytest.mark.parametrize("held", ["accepted", '[accepted, "on hold"]'])
def test_an_invalid_when_naming_states_the_lifecycle_has_validates(repo, held):
    assert problems(repo, TEAM_STATES + f"  relations.conflicts_with.invalid_when.both.status: {held}\n") == []


def test_an_unknown_key_inside_a_nested_mapping_is_a_problem_naming_what_the_mapping_admits(repo):
    assert problems(repo, """\
  kinds.decision.facets.nosuch_thing: {type: wat}
  kinds.decision.sections.mandatory: [Context]
  kinds.decision.identifier.sheme: decision_id
  relations.supersedes.on_target.set_sate: superseded
  relations.conflicts_with.invalid_when.either: {status: current}
  relations.traces_to.attributes.cue.owenr: source
""") == [
        "kinds.decision.facets.nosuch_thing: is not a key this mapping may hold; it admits require, forbid, values, "
        "optional",
        "kinds.decision.sections.mandatory: is not a key this mapping may hold; it admits require, optional, roles",
        "kinds.decision.identifier.sheme: is not a key this mapping may hold; it admits scheme, key",
        "relations.supersedes.on_target.set_sate: is not a key this mapping may hold; it admits set_state",
        "relations.conflicts_with.invalid_when.either: is not a key this mapping may hold; it admits both",
        "relations.traces_to.attributes.cue.owenr: is not a key this mapping may hold; it admits type, owner, values",
    ]


def test_an_unknown_top_level_key_or_declaration_member_is_a_problem_naming_the_keys_admitted_there(repo):
    assert problems(repo, """\
  colours: {red: 1}
  kinds.decision.colour: red
  regimes.lifecycle.standard.bogus: 1
""") == [
        "colours: is not a declaration this engine reads; it admits taxonomy, version, extends, purposes, "
        "vocabularies, facets, kinds, relations, anchors, regimes, shelves, identifier_schemes, core, projections, "
        "mappings, obligations, controls, surface",
        "kinds.decision.colour: is not a member a declaration here may have; it admits abstract, is_a, purpose, "
        "identifier, lifecycle, voice, language, facets, sections, relations, write_when",
        "regimes.lifecycle.standard.bogus: is not a member a regime may have; it admits initial, transitions, "
        "retain_terminal",
    ]


def test_an_unknown_key_in_an_expectation_or_a_retired_term_is_a_problem(repo):
    assert problems(repo, """\
  kinds.decision.relations: {expect: [{id: e1, relation: constrains, within: 90d, since: created,
                                        rationale: r, witin: 30d}]}
override:
  regimes.language.default.retired_terms: [{term: whitelist, reason: r, replacment: allowlist}]
""") == [
        "regimes.language.default.retired_terms[0].replacment: is not a key this mapping may hold; it admits term, "
        "reason, replacement",
        "kinds.decision.relations.expect[0].witin: is not a key this mapping may hold; it admits id, relation, "
        "to_kind, when, within, since, severity, rationale",
    ]


def test_a_kind_facet_contract_member_the_reference_defines_stays_inert_and_validates(repo):
    assert problems(repo, "  kinds.decision.facets.optional: [summary]\n") == []
