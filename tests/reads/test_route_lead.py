"""Route's lead (HW-DR-0026): where a document has no summary facet, the summary its body gives —
the section its kind declares for the `scent` role, else its first paragraph — ranks it, and is
found by the taxonomy's declaration, never by a section's English name."""

import datetime as dt
from pathlib import Path

import pytest

from headwater.reads.route.index import FIELDS, RouteIndex, body_terms
from headwater.snapshot import load
from headwater.taxonomy.model import Taxonomy
from headwater.taxonomy.validate import validate

TAXONOMY = """\
taxonomy: acme/plans
version: 1.0.0
facets:
  title: {{type: string, role: name}}
  blurb: {{type: string, role: scent}}
kinds:
  plan:
    facets: {{require: [title]}}
    sections: {{optional: [{section}], roles: {{scent: {section}}}}}
  note:
    facets: {{require: [title]}}
shelves:
  plans: {{path: docs/plans/**, kind: plan}}
  notes: {{path: docs/notes/**, kind: note}}
"""
DOCS = {
    "docs/plans/migrate.md": "---\ntitle: Widget plan\n---\n\n# Widget plan\n\nContents alpha.\n\n"
                             "## {section}\n\nThe quokka migration moves beta.\n\nIt takes gamma.\n\n"
                             "## Details\n\nZebra text.\n",
    "docs/notes/first.md": "---\ntitle: A note\n---\n\n# A note\n\nThe wombat opens it.\n\nA koala follows.\n",
    "docs/notes/blurbed.md": "---\ntitle: Blurbed\nblurb: about the koala\n---\n\n# Blurbed\n\nThe wombat.\n",
}


def _corpus(tmp_path: Path, hw, section: str = "Synopsis") -> Path:
    root = tmp_path / "plans"
    package = root / ".headwater/packages/plans"
    package.mkdir(parents=True)
    (package / "package.yml").write_text(
        "package: acme/plans\nversion: 1.0.0\nrequires_engine: \">=0.1 <2\"\ncontents: {taxonomy: taxonomy.yml}\n")
    (package / "taxonomy.yml").write_text(TAXONOMY.format(section=section))
    (root / ".headwater/taxonomy.yml").write_text(
        "taxonomy: {package: acme/plans, version: 1.0.0, bundles: []}\ncorpus: {root: docs}\n")
    for path, text in DOCS.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text.format(section=section))
    assert hw("taxonomy", "resolve", "--root", str(root)).status == 0
    return root


def _leads(root: Path) -> dict[str, set[str]]:
    snapshot = load(root, dt.date(2026, 11, 1))
    index = RouteIndex.of(snapshot.census.documents, snapshot.taxonomy, "docs")
    return {e.document.path: set(e.counts[FIELDS.index("lead")]) for e in index.entries}


@pytest.mark.parametrize("section", ["Synopsis", "Zusammenfassung"])
def test_a_kind_s_scent_section_is_the_lead_whatever_it_is_called(tmp_path, hw, section):
    leads = _leads(_corpus(tmp_path, hw, section))
    assert leads["docs/plans/migrate.md"] == {"quokka", "migrat", "move", "beta", "take", "gamma"}


def test_without_a_declared_section_the_lead_is_the_first_paragraph_and_a_summary_facet_needs_none(tmp_path, hw):
    leads = _leads(_corpus(tmp_path, hw))
    assert leads["docs/notes/first.md"] == {"wombat", "open"}
    assert leads["docs/notes/blurbed.md"] == set()


def test_the_kept_counts_are_keyed_by_the_sections_the_taxonomy_declares_for_the_summary(tmp_path, hw):
    one = load(_corpus(tmp_path / "a", hw, "Synopsis"), dt.date(2026, 11, 1)).taxonomy
    other = load(_corpus(tmp_path / "b", hw, "Overview"), dt.date(2026, 11, 1)).taxonomy
    assert body_terms(one).key != body_terms(other).key


def _kinds(sections: dict) -> dict:
    return {"taxonomy": "t", "version": "1", "kinds": {"plan": {"sections": sections}}}


def test_a_section_role_must_be_a_known_role_played_by_a_declared_section():
    assert validate(_kinds({"optional": ["Synopsis"], "roles": {"scent": "Synopsis"}})) == []
    assert validate(_kinds({"optional": ["Synopsis"], "roles": {"name": "Synopsis"}})) == [
        "kinds.plan.sections.roles.name: `name` is not a section role (roles: scent)"]
    assert validate(_kinds({"roles": {"scent": "Synopsis"}})) == [
        "kinds.plan.sections.roles.scent: names `Synopsis`, which the kind declares in neither "
        "`sections.require` nor `sections.optional`"]
    assert validate(_kinds({"roles": ["scent"]})) == [
        "kinds.plan.sections.roles: must map section roles to section names"]


def test_an_ancestor_s_section_role_is_inherited_and_a_kind_s_own_wins():
    tax = Taxonomy({"kinds": {"base": {"abstract": True, "sections": {"roles": {"scent": "Summary"}}},
                              "plan": {"is_a": "base"},
                              "memo": {"is_a": "base", "sections": {"roles": {"scent": "Gist"}}}}})
    assert (tax.section_for_role("plan", "scent"), tax.section_for_role("memo", "scent")) == ("Summary", "Gist")
    assert tax.sections_for_role("scent") == ("Gist", "Summary")


def test_a_route_reads_the_same_lead_from_the_kept_counts_as_from_the_body(tmp_path, hw):
    root = _corpus(tmp_path, hw)
    ask = ("route", "widget plan quokka migration", "--json", "--root", str(root))
    uncached = hw(*ask)
    assert hw("check", "--now", "2026-11-01", "--root", str(root)).status == 0
    assert (root / ".headwater/cache/derived").is_file()
    cached = hw(*ask)
    assert uncached.status == cached.status == 0 and '"docs/plans/migrate.md"' in cached.out and '"lead"' in cached.out
    assert cached.out == uncached.out
