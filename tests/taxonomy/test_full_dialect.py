"""A package in the reference engine's full dialect, vendored and resolved as a team would, then
checked over a corpus that trips every rule of the registry."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from headwater.check.change_manifest import read_manifest
from headwater.check.registry import RULES
from headwater.check.runner import run
from headwater.snapshot import load
from headwater.taxonomy.lock import read_lock
from headwater.writes.vendor import computed_digest

FIXTURES = Path(__file__).resolve().parents[2] / "corpus_fixtures"
PACKAGE = FIXTURES / "full-dialect" / "package"
CORPUS = FIXTURES / "check-all"  # documents that trip every rule; the taxonomy here is ours
NOW = dt.date(2026, 11, 1)
DECLARATION = """taxonomy:
  package: acme/full-dialect
  version: 2.0.0
  bundles: [modes]
  overlay: .headwater/overlay.yml
corpus:
  root: docs
"""
# Every member of the reference meta-schema, as a dotted path over the resolved tree: `*` is any
# key of a mapping, `[]` any item of a list. Written from its shape language, one line a member.
MEMBER_LINES = """
taxonomy version extends vocabularies.*.[].value vocabularies.*.[].role purposes.*.intent purposes.*.answers
facets.*.role facets.*.values facets.*.type facets.*.required facets.*.severity facets.*.stale_after_days
facets.*.volatility facets.*.guidance
regimes.voice.*.forbid regimes.lifecycle.*.initial regimes.lifecycle.*.transitions
regimes.lifecycle.*.retain_terminal regimes.language.*.tag regimes.language.*.controlled
regimes.language.*.profile regimes.language.*.source_form regimes.language.*.retired_terms.[].term
regimes.language.*.retired_terms.[].reason regimes.language.*.retired_terms.[].replacement
surface.archive surface.integration_points.*.depends_on surface.prerequisites surface.companions
surface.adopter_documents surface.local_roots surface.commands
relations.*.family relations.*.from relations.*.to relations.*.inverse relations.*.reciprocal
relations.*.nuclearity relations.*.nucleus relations.*.inherits relations.*.cardinality relations.*.created_by
relations.*.lifecycle_sensitive relations.*.attributes.*.type relations.*.attributes.*.values
relations.*.attributes.*.owner relations.*.on_target.set_state relations.*.invalid_when.both relations.*.evidence_at
anchors.*.resolver anchors.*.pattern anchors.*.scope
shelves.*.path shelves.*.homogeneous shelves.*.kind shelves.*.discriminator shelves.*.kinds shelves.*.group_by
shelves.*.layout shelves.*.title
kinds.*.abstract kinds.*.is_a kinds.*.purpose kinds.*.identifier.scheme kinds.*.voice kinds.*.lifecycle
kinds.*.language kinds.*.facets.require kinds.*.facets.optional kinds.*.facets.forbid kinds.*.facets.values
kinds.*.sections.require kinds.*.sections.optional kinds.*.relations.expect.[].id
kinds.*.relations.expect.[].relation kinds.*.relations.expect.[].to_kind kinds.*.relations.expect.[].when
kinds.*.relations.expect.[].within kinds.*.relations.expect.[].since kinds.*.relations.expect.[].severity
kinds.*.relations.expect.[].rationale
identifier_schemes.*.pattern identifier_schemes.*.namespace identifier_schemes.*.allocation
core.requires.[].facet_role core.requires.[].purpose core.requires.[].relation_family
core.requires.[].lifecycle_sensitive core.requires.[].identifier_scheme
mappings.[].to mappings.[].kinds.*.relation mappings.[].kinds.*.target mappings.[].facet_values.*.relation
mappings.[].facet_values.*.target
projections.[].kind projections.[].for projections.[].output projections.[].profile projections.[].format
projections.[].filter.include projections.[].filter.exclude projections.[].tombstone projections.[].from.anchor
projections.[].identity.id projections.[].identity.kind projections.[].identity.name
obligations.*.statement obligations.*.rationale obligations.*.class obligations.*.prevents obligations.*.severity
obligations.*.disposition.gap.owner obligations.*.disposition.gap.target
obligations.*.disposition.unverifiable.reasoning
controls.*.mechanism controls.*.discharges controls.*.trigger controls.*.posture controls.*.acts controls.*.handoff
controls.*.promotion.criteria.window controls.*.promotion.criteria.threshold controls.*.promotion.criteria.sample
controls.*.promotion.final_posture.reasoning controls.*.promotion.permanently_advisory.reasoning
controls.*.promotion.produces_facts.reasoning
"""
MEMBERS = MEMBER_LINES.split()


def _present(node, segments: list[str]) -> bool:
    if not segments:
        return node is not None
    head, rest = segments[0], segments[1:]
    if head == "*":
        return isinstance(node, dict) and any(_present(v, rest) for v in node.values())
    if head == "[]":
        return isinstance(node, list) and any(_present(v, rest) for v in node)
    return isinstance(node, dict) and head in node and _present(node[head], rest)


@pytest.fixture(scope="module")
def team(tmp_path_factory):
    """check-all's documents bound to the full-dialect package, vendored and resolved by the CLI."""
    from headwater.cli.main import main

    root = tmp_path_factory.mktemp("team")
    for part in ("docs", "src", "change"):
        shutil.copytree(CORPUS / part, root / part)
    for part in ("ids", "imports", "harvested"):
        if (CORPUS / ".headwater" / part).is_dir():
            shutil.copytree(CORPUS / ".headwater" / part, root / ".headwater" / part)
    for state in ("observations.yml", "adoption.yml"):
        shutil.copy(CORPUS / ".headwater" / state, root / ".headwater" / state)
    shutil.copy(FIXTURES / "full-dialect" / "overlay.yml", root / ".headwater" / "overlay.yml")
    pins = (CORPUS / ".headwater" / "taxonomy.yml").read_text().partition("\n  root: docs\n")[2]
    (root / ".headwater" / "taxonomy.yml").write_text(DECLARATION + pins)  # check-all's federation pins
    vendored = main(["taxonomy", "vendor", str(PACKAGE), "--expect", computed_digest(PACKAGE), "--root", str(root)])
    resolved = main(["taxonomy", "resolve", "--root", str(root)])
    return root, vendored, resolved


def test_the_full_dialect_package_vendors_and_resolves(team):
    root, vendored, resolved = team
    assert (vendored, resolved) == (0, 0)
    assert read_lock(root).package == "acme/full-dialect"


def test_the_package_uses_every_member_of_the_reference_meta_schema(team):
    root, _, _ = team
    tree = read_lock(root).taxonomy.raw
    assert [m for m in MEMBERS if not _present(tree, m.split("."))] == []


def test_validate_verbose_lists_what_is_read_with_no_effect(team, hw):
    root, _, _ = team
    ran = hw("taxonomy", "validate", "--verbose", "--root", str(root))
    assert ran.status == 0
    for address in ("mappings:", "projections:", "extends:", "surface.archive:", "anchors.code_path.pattern:",
                    "shelves.specifications.group_by:", "relations.constrains.nucleus:",
                    "regimes.voice.declarative.forbid.hedging:", "kinds.governed_document.facets.optional:"):
        assert f"  {address}" in ran.out
    assert "surface.commands" not in ran.out and "obligations" not in ran.out


def test_the_lock_records_the_read_only_constructs(team):
    root, _, _ = team
    text = (root / ".headwater" / "taxonomy.lock").read_text()
    head = text[: text.index("\nresolved:\n")]
    assert "read_only:" in head and "address: relations.supersedes.created_by" in head


def test_check_over_the_team_corpus_trips_every_rule(team):
    root, _, _ = team
    vendored = root / ".headwater" / "packages" / "package" / "taxonomy.yml"
    vendored.write_text(vendored.read_text() + "# a local edit after vendoring\n")  # the pin now diverges
    change = read_manifest(root / "change" / "manifest", root)
    fired = {f.rule for f in run(load(root, NOW), change).findings}
    assert {r.id for r in RULES} - fired == set()


def test_a_kinds_expectations_are_gathered_once_and_a_kind_without_any_has_none(team):
    # the rule asks for them of every document of every run
    taxonomy = read_lock(team[0]).taxonomy
    assert [e.id for e in taxonomy.expectations_of("specification")] == ["spec-constrained"]
    assert taxonomy.expectations_of("specification") is taxonomy.expectations_of("specification")
    assert taxonomy.expectations_of("decision") == () and taxonomy.expectations_of("no such kind") == ()
