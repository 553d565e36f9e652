"""Governance across three repositories, end to end through the CLI and the MCP server."""

from __future__ import annotations

import json
import subprocess

import jsonschema

from headwater.clock import run_date
from headwater.mcp.schemas import POINTERS, ROUTE
from headwater.snapshot import load
from tests.check.fixtures import decision, write
from tests.federation.conftest import (
    DATE,
    DECISION,
    pinned_service,
    platform_spec,
    refresh_import,
)
from tests.mcp.mcp_session import Session


def findings(hw, root) -> list[tuple[str, str]]:
    ran = hw("check", "--root", str(root), "--now", DATE, "--format", "json")
    assert ran.status == 0, ran.err
    return [(f["rule"], f["message"]) for f in json.loads(ran.out)["findings"]]


def governors(root, path: str) -> list[dict]:
    response = Session(root).call("governing_docs_for_path", path=path)
    return response["result"]["structuredContent"]["pointers"]


def test_a_decision_governs_code_in_the_service_repository_it_imported(repos, hw):
    assert findings(hw, repos.decisions) == []
    [pointer] = governors(repos.decisions, "svc:src/app.py")
    assert (pointer["id"], pointer["path"]) == ("ACME-DR-0001", DECISION)
    assert "harvested" not in pointer
    assert governors(repos.decisions, "svc:src/worker.py") == []


def test_the_service_reads_the_decision_that_governs_its_own_code_as_harvested(repos):
    [pointer] = governors(repos.service, "src/app.py")
    assert pointer | {} == {"path": DECISION, "kind": "decision", "id": "ACME-DR-0001", "name": "A record",
                            "purpose": "rationale", "summary": "One sentence a reader learns here.", "state": "current",
                            "unwarranted": True, "harvested": True, "corpus": "decisions"}
    text = Session(repos.service).text("governing_docs_for_path", path="src/app.py")
    assert text.startswith("decisions:docs/decisions/0001-base.md (A record)")
    assert text.endswith("[harvested from decisions]\n")
    assert governors(repos.service, "src/worker.py") == []


def test_the_platform_names_a_harvested_decision_and_sees_what_it_governs(repos, hw):
    assert findings(hw, repos.platform) == []
    explained = hw("explain", "--root", str(repos.platform), "ACME-SPEC-0001")
    assert explained.status == 0
    assert "to decisions:ACME-DR-0001 constrained_by" in explained.out
    assert "[harvested from decisions]" in explained.out
    related = json.loads(hw("explain", "--root", str(repos.platform), "ACME-SPEC-0001", "--json").out)["related"]
    assert related[0]["pointer"]["harvested"] is True and related[0]["pointer"]["corpus"] == "decisions"
    mcp = Session(repos.platform).text("related", target="ACME-SPEC-0001")
    assert "decisions:ACME-DR-0001" in mcp and "[harvested from decisions]" in mcp
    [pointer] = governors(repos.platform, "svc:src/app.py")
    assert pointer["corpus"] == "decisions" and pointer["id"] == "ACME-DR-0001"
    elsewhere = hw("explain", "--root", str(repos.platform), "decisions:ACME-DR-0001")
    assert elsewhere.status == 1 and elsewhere.err == (
        "headwater: `decisions:ACME-DR-0001` is docs/decisions/0001-base.md of the harvested corpus "
        "`decisions`, which this repository reads only through its pinned export; `resolve_identifier` "
        "gives its pointer\n")
    resolved = Session(repos.platform).call("resolve_identifier", id="decisions:ACME-DR-0001")["result"]
    assert resolved["content"][0]["text"].endswith("[harvested from decisions]\n")


def test_an_edge_to_the_services_code_turns_suspect_once_the_code_moves_and_the_pin_is_refreshed(repos, hw):
    stamped = (repos.decisions / DECISION).read_text(encoding="utf-8")
    (repos.service / "src" / "app.py").write_text("print('the application, rewritten')\n", encoding="utf-8")
    refresh_import(hw, repos.service, repos.decisions, stamped)
    [(rule, message)] = findings(hw, repos.decisions)
    assert rule == "relation.target.suspect"
    assert message.startswith("`governs: svc:src/app.py` was verified at")


def test_a_harvested_identifier_the_export_lacks_binds_nothing_and_says_so(repos, hw):
    write(repos.platform, platform_spec(repos.export, repos.anchors))
    spec = repos.platform / "docs" / "specifications" / "api.md"
    spec.write_text(spec.read_text().replace("decisions:ACME-DR-0001", "decisions:ACME-DR-0042"))
    assert findings(hw, repos.platform) == [(
        "relation.target.unresolved", "`constrained_by: decisions:ACME-DR-0042` binds to nothing: "
        "the pinned export `decisions` carries no document `ACME-DR-0042`")]



def test_route_points_at_the_harvested_decision_that_governs_a_path_the_task_names(repos, hw):
    ran = hw("route", "--root", str(repos.service), "--json", "fix the retry loop in src/app.py")
    assert ran.status == 0, ran.err
    harvested = [p for p in json.loads(ran.out)["pointers"] if p.get("harvested")]
    assert json.loads(ran.out)["ungoverned"] == []  # the harvested decision governs it
    elsewhere = json.loads(hw("route", "--root", str(repos.service), "--json", "fix src/worker.py").out)
    assert [u["path"] for u in elsewhere["ungoverned"]] == ["src/worker.py"]
    assert harvested == [{"path": DECISION, "kind": "decision", "id": "ACME-DR-0001", "name": "A record",
                          "purpose": "rationale", "summary": "One sentence a reader learns here.", "state": "current",
                          "unwarranted": True, "harvested": True, "corpus": "decisions",
                          "evidence": {"by": "anchor", "anchors": ["src/app.py"]}}]
    text = hw("route", "--root", str(repos.service), "fix the retry loop in src/app.py").out
    assert "  decisions:docs/decisions/0001-base.md (A record) \u2014 One sentence" in text
    assert text.endswith("decisions]\n    governs src/app.py\n") and "silent" not in text
    mcp = Session(repos.service).call("route", task="fix the retry loop in src/app.py")
    assert mcp["result"]["structuredContent"]["pointers"][-1]["corpus"] == "decisions"
    jsonschema.validate(mcp["result"]["structuredContent"], ROUTE)
    governing = Session(repos.service).call("governing_docs_for_path", path="src/app.py")
    jsonschema.validate(governing["result"]["structuredContent"], POINTERS)


def test_route_reads_an_absolute_path_under_the_root_as_the_path_a_harvested_decision_governs(repos, hw):
    ran = hw("route", "--root", str(repos.service), "--json", f"fix the retry loop in {repos.service / 'src/app.py'}")
    assert ran.status == 0, ran.err
    harvested = [p for p in json.loads(ran.out)["pointers"] if p.get("harvested")]
    assert [(p["path"], p["evidence"]) for p in harvested] == [(DECISION, {"by": "anchor", "anchors": ["src/app.py"]})]


def test_change_and_fix_stamp_an_edge_to_imported_code_as_the_guide_says(repos, hw):
    root = repos.decisions
    (root / DECISION).write_text(decision(relations="  governs: svc:src/app.py\n"), encoding="utf-8")
    for command in (["init", "-q"], ["add", "-A"],
                    ["-c", "user.email=ci@example.com", "-c", "user.name=ci", "commit", "-qm", "base"]):
        subprocess.run(["git", *command], cwd=root, check=True)
    (root / DECISION).write_text(decision(relations="  governs: svc:src/app.py\n", title="Re-read"), encoding="utf-8")
    out = root / ".headwater" / "change"
    changed = hw("change", "--root", str(root), "HEAD", str(out), "--verified-edge", DECISION, "svc:src/app.py")
    assert changed.status == 0
    fixed = hw("check", "--root", str(root), "--now", DATE, "--fix", "--change", str(out / "manifest"))
    assert fixed.status == 0 and f"fixed {DECISION} (1 patch)" in fixed.err
    revision = load(root, run_date(DATE)).tree.revision(("svc:src/app.py",))
    assert f'governs: {{to: "svc:src/app.py", verified_revision: "{revision}"}}' in (root / DECISION).read_text()
    assert findings(hw, root) == []


def test_a_harvested_corpus_governing_its_own_code_answers_under_the_harvests_name(quickstart, repos, hw):
    assert hw("export", "--root", str(quickstart)).status == 0
    export = (quickstart / ".headwater" / "export.json").read_text(encoding="utf-8")
    write(repos.platform, platform_spec(export, repos.anchors))
    assert [(p["corpus"], p["id"]) for p in governors(repos.platform, "decisions:src/ingest/rate_limit.py")] == [
        ("decisions", "ACME-DR-0003"), ("decisions", "ACME-SPEC-0002")]
    assert governors(repos.platform, "src/ingest/rate_limit.py") == []  # not this repository's path
    assert [p["id"] for p in governors(repos.platform, "decisions:src/queue/backoff.py")] == [
        "ACME-DR-0002", "ACME-SPEC-0001"]


def test_a_relation_here_can_name_a_file_the_harvested_export_anchors(quickstart, repos, hw):
    hw("export", "--root", str(quickstart))
    spec = platform_spec((quickstart / ".headwater" / "export.json").read_text(encoding="utf-8"), repos.anchors)
    spec["files"]["docs/specifications/api.md"] = spec["files"]["docs/specifications/api.md"].replace(
        "relations:\n", "relations:\n  governs: decisions:src/ingest/**\n")
    write(repos.platform, spec)
    assert findings(hw, repos.platform) == []
    pointers = governors(repos.platform, "decisions:src/ingest/api.py")
    assert [(p["id"], p.get("corpus")) for p in pointers] == [("ACME-SPEC-0001", None), ("ACME-SPEC-0002", "decisions")]
    spec["files"]["docs/specifications/api.md"] = spec["files"]["docs/specifications/api.md"].replace(
        "decisions:src/ingest/**", "decisions:src/billing/**")
    write(repos.platform, spec)
    [(rule, message)] = findings(hw, repos.platform)
    assert rule == "relation.target.unresolved" and "matches nothing" in message


def test_a_harvested_document_in_a_terminal_state_says_so_on_its_line(repos, hw):
    export = repos.export.replace('"status": "current"', '"status": "superseded"').replace(
        '"state": "current"', '"state": "superseded"').replace('"terminal": "false"', '"terminal": "true"')
    write(repos.service, pinned_service(export, repos.anchors))
    [pointer] = governors(repos.service, "src/app.py")
    assert pointer["state"] == "superseded"
    text = Session(repos.service).text("governing_docs_for_path", path="src/app.py")
    assert text.endswith("[superseded] [harvested from decisions]\n")
