"""The taxonomy language reads the reference dialect: what it accepts, what it refuses, and what
it reads with no effect."""

from __future__ import annotations

import shutil
from pathlib import Path

from headwater.taxonomy.resolve import resolve

EMBEDDED = Path(__file__).resolve().parents[2] / "taxonomy" / "headwater-standard"
DECLARATION = """taxonomy:
  package: headwater/standard
  version: 1.0.0
  bundles: [{bundles}]
  overlay: .headwater/overlay.yml
corpus:
  root: docs
"""
NAMESPACES = """add:
  identifier_schemes.decision_id.namespace: ACME
  identifier_schemes.specification_id.namespace: ACME
"""


def problems(root: Path, overlay: str = "", bundles: str = "") -> list[str]:
    (root / ".headwater").mkdir(parents=True, exist_ok=True)
    (root / ".headwater/taxonomy.yml").write_text(DECLARATION.format(bundles=bundles))
    (root / ".headwater/overlay.yml").write_text(NAMESPACES + overlay)
    return list(resolve(root).problems)


def test_boolean_and_duration_facets_and_relation_descriptors_validate(tmp_path):
    assert problems(tmp_path, """\
  facets.reviewed: {type: boolean, volatility: mutable, severity: warn}
  facets.window: {type: duration, volatility: stable}
  relations.supersedes.created_by: scaffold
  relations.supersedes.nuclearity: multinuclear
  relations.constrains.nucleus: from
  relations.constrains.cardinality: one
  relations.traces_to.evidence_at: from
  relations.traces_to.reciprocal: optional
""") == []


def test_a_mutable_facet_in_a_layout_is_refused(tmp_path):
    assert problems(tmp_path, """\
  facets.status.volatility: mutable
override:
  shelves.decisions.layout: "{status}-{seq:04d}-{slug}.md"
""") == ["shelves.decisions.layout: names the mutable facet `status`, whose value moves"]


def test_an_obligation_with_two_dispositions_is_refused_by_its_shape(tmp_path):
    found = problems(tmp_path, """\
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


def test_an_expectation_names_a_relation_a_duration_and_an_origin(tmp_path):
    found = problems(tmp_path, """\
  kinds.decision.relations:
    expect:
      - {id: e, relation: cites, within: soon, since: created_at, rationale: r}
""")
    assert found == ["kinds.decision.relations.expect[0].relation: names `cites`, which is not a relation",
                     "kinds.decision.relations.expect[0].within: `soon` is not a duration such as 90d or 12w",
                     "kinds.decision.relations.expect[0].since: must be created or state_entered"]


def test_core_requires_is_checked_on_the_resolved_tree(tmp_path):
    found = problems(tmp_path, """\
  core:
    requires:
      - facet_role: freshness
      - purpose: obligation
      - relation_family: derivation
""")
    assert found == ["core.requires[1]: the purpose `obligation` is gone",
                     "core.requires[2]: no relation of the `derivation` family is declared"]


def test_a_control_discharging_an_unknown_obligation_is_refused(tmp_path):
    found = problems(tmp_path, """\
  controls.CT-1: {mechanism: "check:x", discharges: [OB-9], trigger: weekly, posture: advisory, acts: detective}
""")
    assert found == ["controls.CT-1.discharges: names `OB-9`, which is not an obligation"]


def test_an_unknown_voice_category_and_a_new_allocation_are_read_with_no_effect(tmp_path):
    assert problems(tmp_path, """\
  regimes.voice.cautious.forbid: [hedging]
override:
  identifier_schemes.specification_id.allocation: per-branch
""") == []
    inert = {i.address: i.reason for i in resolve(tmp_path).read_only}
    assert "regimes.voice.cautious.forbid.hedging" in inert
    assert "mints it as reconcile-first" in inert["identifier_schemes.specification_id.allocation"]


def test_a_bundle_requiring_an_unselected_bundle_resolves_when_its_own_adds_stand(tmp_path):
    package = tmp_path / ".headwater/packages/headwater-standard"
    shutil.copytree(EMBEDDED, package, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "bundles/notes").mkdir()
    (package / "bundles/notes/bundle.yml").write_text(
        "bundle: notes\nextends: headwater/standard@1.0.0\nrequires: [requirements]\nadd:\n"
        "  facets.audience: {type: string, volatility: stable}\n")
    assert problems(tmp_path, bundles="notes") == []
