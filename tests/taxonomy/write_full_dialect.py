"""Write corpus_fixtures/full-dialect/package: our embedded standard package in the reference's
full dialect (every meta-schema member used once at least), and its corpus overlay."""
import copy, shutil
from pathlib import Path
from headwater.yaml.files import load_file
from headwater.yaml.nodes import to_plain
from headwater.taxonomy import canonical

OUT = Path("corpus_fixtures/full-dialect")
EMB = Path("taxonomy/headwater-standard")
tax = to_plain(load_file(EMB / "taxonomy.yml", "t"))
tax["taxonomy"] = "acme/full-dialect"
tax["version"] = "2.0.0"
tax = {"taxonomy": tax.pop("taxonomy"), "version": tax.pop("version"), "extends": "headwater/standard@1.0.0", **tax}
f = tax["facets"]
for name in f:
    f[name]["volatility"] = "stable" if name == "title" else "mutable"
f["status"]["severity"] = "error"
f["reviewed"] = {"type": "boolean", "required": "false", "volatility": "mutable",
                 "guidance": "whether a second reader has read the document"}
f["review_window"] = {"type": "duration", "required": "false", "volatility": "stable",
                      "guidance": "how long a review may take"}
f["seq_hint"] = {"type": "integer", "required": "false", "volatility": "stable", "guidance": "an ordering hint"}
k = tax["kinds"]
k["governed_document"]["facets"]["optional"] = ["reviewed", "review_window", "seq_hint"]
k["decision"]["sections"]["optional"] = ["Alternatives"]
k["specification"]["facets"] = {"forbid": ["seq_hint"]}
k["decision"]["facets"] = {"values": {"status": ["draft", "current", "superseded", "deprecated", "archived"]}}
k["specification"]["relations"] = {"expect": [{
    "id": "spec-constrained", "relation": "constrained_by", "to_kind": "decision", "when": {"status": "current"},
    "within": "P365D", "since": "state_entered", "severity": "info",
    "rationale": "a specification no decision constrains was never argued"}]}
r = tax["relations"]
r["supersedes"].update({"created_by": "scaffold", "nuclearity": "multinuclear", "cardinality": "many"})
r["governs"].update({"created_by": "agent", "cardinality": "many"})
r["constrains"].update({"created_by": "agent", "nuclearity": "nucleus-satellite", "nucleus": "from",
                        "reciprocal": "optional", "inherits": ["verified_revision"]})
r["conflicts_with"].update({"created_by": "agent"})
r["traces_to"].update({"created_by": "author", "evidence_at": "to"})
r["traces_to"]["attributes"]["weight"] = {"type": "string", "values": ["strong", "weak"], "owner": "edge"}
tax["anchors"]["code_path"].update({"scope": ["src/**"], "pattern": "HW-TRACE:"})
tax["regimes"]["voice"]["declarative"]["forbid"].append("hedging")
tax["regimes"]["language"]["default"].update({"controlled": "none", "profile": "house",
                                               "source_form": "unconstrained"})
tax["shelves"]["specifications"]["group_by"] = "title"
tax["core"] = {"requires": [{"facet_role": "state"}, {"facet_role": "freshness"}, {"purpose": "rationale"},
                            {"relation_family": "succession", "lifecycle_sensitive": "true"},
                            {"identifier_scheme": "decision_id"}]}
tax["mappings"] = [{"to": "https://schema.example/docs#", "kinds": {"decision": {"relation": "exactMatch", "target": "Decision"}},
                    "facet_values": {"status.current": {"relation": "closeMatch", "target": "Active"}}}]
tax["projections"] = [{"kind": "shelf_index", "for": ["decisions"], "output": "{shelf}/README.md", "profile": "default",
                       "format": "markdown", "filter": {"include": {"status": ["current"]}, "exclude": {"status": ["draft"]}},
                       "tombstone": "counted", "from": {"anchor": "code_path"},
                       "identity": {"id": "ACME-REG-decisions", "kind": "decision", "name": "Decisions"}}]
tax["obligations"] = {
    "OB-SECT-1": {"statement": "Every section a kind requires is a heading", "rationale": "A missing section is a question unanswered",
                  "class": "cohesion", "prevents": "content.incomplete", "severity": "high"},
    "OB-DR-1": {"statement": "A decision is amended by succession", "rationale": "An edited record cannot be cited",
                "class": "cohesion", "prevents": "content.inconsistent", "severity": "medium",
                "disposition": {"gap": {"owner": "the docs team", "target": "a change-scoped rule"}}},
    "OB-DR-2": {"statement": "A decision records one decision", "rationale": "Two cannot be superseded apart",
                "class": "coherence", "prevents": "content.unclear", "severity": "low",
                "disposition": {"unverifiable": {"reasoning": "counting decisions reads meaning"}}},
    "OB-COV-1": {"statement": "Every file is classified or reported", "rationale": "A missed file reports nothing",
                 "class": "cohesion", "prevents": "process.maintenance", "severity": "high"},
    "OB-VOICE-1": {"statement": "Prose states what holds", "rationale": "Narration goes stale",
                   "class": "cohesion", "prevents": "content.inconsistent", "severity": "low"},
    "OB-LIFE-1": {"statement": "States move along declared edges", "rationale": "A skipped state hides a step",
                  "class": "cohesion", "prevents": "process.traceability", "severity": "medium"},
}
base = {"trigger": "pull_request", "acts": "detective"}
tax["controls"] = {
    "CT-SECT-1": {"mechanism": "check:section.required.missing", "discharges": ["OB-SECT-1"], "posture": "advisory",
                  "handoff": "task-per-finding", **base,
                  "promotion": {"criteria": {"window": "one release", "threshold": "no false positive",
                                             "sample": "every finding of one run"}}},
    "CT-COV-1": {"mechanism": "phase:census.classification", "discharges": ["OB-COV-1"], "posture": "advisory", **base,
                 "promotion": {"produces_facts": {"reasoning": "the census is a fixture-tested producer"}}},
    "CT-VOICE-1": {"mechanism": "check:voice.forbidden_construction", "discharges": ["OB-VOICE-1"], "posture": "advisory",
                   **base, "promotion": {"permanently_advisory": {"reasoning": "a rewrite needs judgement"}}},
    "CT-LIFE-1": {"mechanism": "check:lifecycle.transition.not_permitted", "discharges": ["OB-LIFE-1"],
                  "posture": "blocking", **base,
                  "promotion": {"final_posture": {"reasoning": "the machine is declared data"}}},
    "CT-REVIEW-1": {"mechanism": "scheduled:review-sweep", "discharges": ["OB-LIFE-1"], "trigger": "weekly",
                    "posture": "advisory", "acts": "adaptive"},
}
tax["surface"] = {"archive": ["bin/headwater", "README.md"], "integration_points": {"pre-commit": {"depends_on": ["git"]}},
                  "prerequisites": ["git"], "companions": ["pre-commit"], "adopter_documents": ["docs/briefs/**"],
                  "local_roots": ["tools/dev"], "commands": ["headwater"]}
tax["identifier_schemes"]["specification_id"]["allocation"] = "minted-once"
pkg = OUT / "package"
if pkg.exists():
    shutil.rmtree(pkg)
(pkg / "bundles/modes").mkdir(parents=True)
(pkg / "package.yml").write_text("package: acme/full-dialect\nversion: 2.0.0\nrequires_engine: \">=0.1 <2\"\n"
                                 "contents:\n  taxonomy: taxonomy.yml\n  bundles: bundles\n")
(pkg / "taxonomy.yml").write_text(
    "# A package in the reference engine's full dialect: every member of its meta-schema, used once at\n"
    "# least, over the embedded standard package. Written for tests/taxonomy/test_full_dialect.py.\n"
    + canonical.dump(tax, tax))
bundle = (EMB / "bundles/diataxis/bundle.yml").read_text()
bundle = bundle.replace("bundle: diataxis\nrequires: []\n",
                        "bundle: modes\ntaxonomy: acme/full-dialect\nextends: acme/full-dialect@2.0.0\nrequires: []\n")
(pkg / "bundles/modes/bundle.yml").write_text(bundle)
print("ok")
