"""Route names a suspect edge on the pointer it reaches, as `relation.target.suspect` decides it."""

from __future__ import annotations

import json

import jsonschema

from headwater.mcp.schemas import ROUTE
from tests.check.fixtures import APP, fixture, suspect, write
from tests.federation.conftest import DECISION, refresh_import
from tests.mcp.mcp_session import Session

TASK = "fix svc:src/app.py"


def route(hw, root) -> dict:
    ran = hw("route", "--root", str(root), "--json", TASK)
    assert ran.status == 0, ran.err
    return json.loads(ran.out)


def test_route_evidence_names_the_edge_whose_imported_code_moved_since_it_was_verified(repos, hw):
    stamped = (repos.decisions / DECISION).read_text(encoding="utf-8")
    assert route(hw, repos.decisions)["pointers"][0]["evidence"] == {"by": "anchor", "anchors": ["svc:src/app.py"]}
    (repos.service / "src" / "app.py").write_text("print('the application, rewritten')\n", encoding="utf-8")
    refresh_import(hw, repos.service, repos.decisions, stamped)
    answer = route(hw, repos.decisions)
    [pointer] = answer["pointers"]
    assert pointer["evidence"] == {"by": "anchor", "anchors": ["svc:src/app.py"], "suspect": ["svc:src/app.py"]}
    assert answer["text"].endswith("    governs svc:src/app.py; suspect: the target of its edge to svc:src/app.py\n"
                                   "    changed since the edge was verified\n")
    mcp = Session(repos.decisions).call("route", task=TASK)["result"]
    assert mcp["structuredContent"] == {k: v for k, v in answer.items() if k != "text"}
    jsonschema.validate(mcp["structuredContent"], ROUTE)
    assert "; suspect: the target of its edge to svc:src/app.py changed since" in mcp["content"][0]["text"]


def test_route_evidence_names_a_suspect_edge_to_this_repositorys_own_code_too(tmp_path, hw):
    write(tmp_path, fixture({"src/app.py": APP, DECISION: suspect("sha256:" + "0" * 64)}, base=False))
    ran = hw("route", "--root", str(tmp_path), "--json", "fix src/app.py")
    assert ran.status == 0, ran.err
    assert json.loads(ran.out)["pointers"][0]["evidence"] == {
        "by": "anchor", "anchors": ["src/app.py"], "suspect": ["src/app.py"]}
