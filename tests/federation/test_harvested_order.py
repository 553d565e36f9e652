"""Harvested decisions read in the order their pinned export states: a successor ahead of what it
superseded, a terminal one beside its live successor, and two corpora's documents kept apart."""

from __future__ import annotations

import json

import jsonschema

from headwater.mcp.schemas import POINTERS, ROUTE
from tests.check.fixtures import IMPORTED, NEXT, decision, fixture, import_pin, write
from tests.federation.conftest import DECISION, pinned_service
from tests.mcp.mcp_session import Session

GOVERNS = "  governs: svc:src/app.py\n"
SUPERSEDES = GOVERNS + "  supersedes: ACME-DR-0001\n"


def export_of(hw, repos, first_status: str = "current") -> str:
    """A decisions corpus where 0002 supersedes 0001 and both govern the service's app."""
    files = {DECISION: decision(status=first_status, relations=GOVERNS),
             NEXT: decision("ACME-DR-0002", title="The next record", relations=SUPERSEDES)}
    root = repos.decisions
    write(root, fixture({IMPORTED: repos.anchors, **files}, base=False, pins=import_pin()))
    assert hw("export", "--root", str(root)).status == 0
    return (root / ".headwater" / "export.json").read_text(encoding="utf-8")


def routed(hw, root, task: str = "fix src/app.py") -> dict:
    ran = hw("route", "--root", str(root), "--json", task)
    assert ran.status == 0, ran.err
    return json.loads(ran.out)


def test_a_harvested_successor_is_read_before_the_decision_it_supersedes(repos, hw):
    write(repos.service, pinned_service(export_of(hw, repos), repos.anchors))
    answer = routed(hw, repos.service)
    assert [(p["id"], p["evidence"]) for p in answer["pointers"]] == [
        ("ACME-DR-0002", {"by": "anchor", "anchors": ["src/app.py"]}),
        ("ACME-DR-0001", {"by": "anchor", "anchors": ["src/app.py"]})]
    mcp = Session(repos.service).call("route", task="fix src/app.py")["result"]["structuredContent"]
    assert mcp == {k: v for k, v in answer.items() if k != "text"}


def test_a_superseded_harvested_decision_comes_with_its_live_successor_ahead_of_it(repos, hw):
    write(repos.service, pinned_service(export_of(hw, repos, "superseded"), repos.anchors))
    answer = routed(hw, repos.service)
    assert [(p["id"], p["state"], p.get("successor")) for p in answer["pointers"]] == [
        ("ACME-DR-0002", "current", None), ("ACME-DR-0001", "superseded", NEXT)]
    assert f"  decisions:{DECISION} (A record) \u2014" in answer["text"]
    assert answer["text"].endswith(f"    governs src/app.py\n    read decisions:{NEXT} first: it succeeds this\n")
    jsonschema.validate({k: v for k, v in answer.items() if k != "text"}, ROUTE)
    governing = Session(repos.service).call("governing_docs_for_path", path="src/app.py")
    pointers = governing["result"]["structuredContent"]["pointers"]
    assert [(p["id"], p["state"], p.get("successor")) for p in pointers] == [
        ("ACME-DR-0001", "superseded", NEXT), ("ACME-DR-0002", "current", None)]
    jsonschema.validate(governing["result"]["structuredContent"], POINTERS)


def test_a_successor_only_the_succession_reaches_is_offered_as_its_successor(repos, hw):
    export = export_of(hw, repos, "superseded")
    # 0002 no longer governs the code: it is offered only as 0001's successor
    document = json.loads(export)
    document["graph"]["edges"] = [e for e in document["graph"]["edges"]
                                  if not (e["source"] == NEXT and e["target"]["bound"] == "anchor")]
    write(repos.service, pinned_service(json.dumps(document, indent=2) + "\n", repos.anchors))
    answer = routed(hw, repos.service)
    assert [(p["id"], p["evidence"]) for p in answer["pointers"]] == [
        ("ACME-DR-0002", {"by": "successor", "succeeds": DECISION}),
        ("ACME-DR-0001", {"by": "anchor", "anchors": ["src/app.py"]})]
    assert f"    succeeds decisions:{DECISION}\n" in answer["text"]


def test_two_harvested_corpora_with_one_identifier_stay_two_pointers_each_under_its_corpus(repos, hw):
    export = export_of(hw, repos)
    spec = pinned_service(export, repos.anchors)
    spec["files"][".headwater/harvested/team2.json"] = export
    spec["pins"] += ("  team2:\n    at: .headwater/harvested/team2.json\n"
                     "    digest: \"DIGEST(.headwater/harvested/team2.json)\"\n    here: svc\n")
    write(repos.service, spec)
    answer = routed(hw, repos.service)
    assert [(p["corpus"], p["id"]) for p in answer["pointers"]] == [
        ("decisions", "ACME-DR-0002"), ("decisions", "ACME-DR-0001"), ("team2", "ACME-DR-0002"),
        ("team2", "ACME-DR-0001")]


def test_route_anchors_list_the_paths_only_a_harvested_edge_reaches(repos, hw):
    write(repos.service, pinned_service(export_of(hw, repos), repos.anchors))
    answer = routed(hw, repos.service)
    assert answer["anchors"] == ["src/app.py"]
    assert "  names the anchor src/app.py\n" in answer["text"]
    assert {a for p in answer["pointers"] for a in p["evidence"].get("anchors", ())} == set(answer["anchors"])
