"""A read whose answer a pin that binds nothing could change says so, as `check` reports the pin:
`governing_docs_for_path`, `route`, `explain`/`related` and `resolve_identifier` (HW-DR-0067)."""

from __future__ import annotations

import json

import jsonschema

from headwater.mcp.schemas import POINTERS, ROUTE
from tests.check.fixtures import HARVESTED, harvest_pin, import_pin
from tests.federation.conftest import DATE
from tests.federation.test_pins import WRONG, pinned_platform
from tests.mcp.mcp_session import Session

HARVEST = "`harvests.decisions` binds nothing, so what the documents of `decisions` govern cannot be read here: "
IMPORT = "`imports.svc` binds nothing, so the files of `svc` cannot be read here: "


def reason(hw, root, rule: str) -> str:
    """Why the pin binds nothing, as `check` reports it."""
    ran = hw("check", "--root", str(root), "--now", DATE, "--format", "json")
    [message] = [f["message"] for f in json.loads(ran.out)["findings"] if f["rule"] == rule]
    return message.split(" binds nothing: ", 1)[1]


def broken_service(repos):
    """The service, whose own code only the harvested decision governs, with its export spoiled."""
    (repos.service / HARVESTED).write_text("{}\n", encoding="utf-8")
    return repos.service


def test_governing_docs_for_path_says_a_harvest_that_binds_nothing_could_govern_the_path(repos, hw):
    root = broken_service(repos)
    why = reason(hw, root, "harvest.pin.unread")
    result = Session(root).call("governing_docs_for_path", path="src/app.py")["result"]
    assert result["isError"] is False
    assert result["content"][0]["text"] == f"no document governs src/app.py\n{HARVEST}{why}\n"
    assert result["structuredContent"] == {
        "pointers": [], "unread_pins": [{"pin": "harvests.decisions", "corpus": "decisions", "reason": why}]}
    jsonschema.validate(result["structuredContent"], POINTERS)


def test_an_import_that_binds_nothing_bears_only_on_the_paths_spelled_under_its_name(repos, hw):
    root = pinned_platform(repos, harvest_pin() + import_pin(WRONG))
    why = reason(hw, root, "import.pin.unread")
    session = Session(root)
    imported = session.call("governing_docs_for_path", path="svc:src/app.py")["result"]["structuredContent"]
    assert [p["corpus"] for p in imported["pointers"]] == ["decisions"]  # the harvested edge still reads
    assert imported["unread_pins"] == [{"pin": "imports.svc", "corpus": "svc", "reason": why}]
    assert session.text("governing_docs_for_path", path="svc:src/app.py").endswith(f"\n{IMPORT}{why}\n")
    own = session.call("governing_docs_for_path", path="docs/specifications/api.md")["result"]
    assert own["structuredContent"] == {"pointers": []}


def test_route_says_a_pin_binds_nothing_where_the_task_names_a_path_it_could_govern(repos, hw):
    root = broken_service(repos)
    why = reason(hw, root, "harvest.pin.unread")
    ran = hw("route", "--root", str(root), "--json", "fix the retry loop in src/app.py")
    document = json.loads(ran.out)
    assert ran.status == 0 and document["version"] == "1.4"
    assert document["unread_pins"] == [{"pin": "harvests.decisions", "corpus": "decisions", "reason": why}]
    assert " ".join(document["text"].split()).count(HARVEST + why) == 1
    served = Session(root).call("route", task="fix the retry loop in src/app.py")["result"]["structuredContent"]
    assert served["unread_pins"] == document["unread_pins"]  # the server reads the word as a path without a tree
    jsonschema.validate(served, ROUTE)
    unnamed = json.loads(hw("route", "--root", str(root), "--json", "retry failed deliveries").out)
    assert "unread_pins" not in unnamed and "binds nothing" not in unnamed["text"]


def test_explain_and_related_mark_an_edge_to_a_corpus_whose_pin_binds_nothing(repos, hw):
    root = pinned_platform(repos, harvest_pin(WRONG) + import_pin())
    explained = hw("explain", "--root", str(root), "ACME-SPEC-0001")
    assert explained.status == 0
    assert "to decisions:ACME-DR-0001 constrained_by [that document governs the reading] [`harvests.decisions` " \
           "binds nothing]" in " ".join(explained.out.split())
    as_json = json.loads(hw("explain", "--root", str(root), "ACME-SPEC-0001", "--json").out)
    assert as_json["version"] == "1.1"
    assert [u["pin"] for u in as_json["related"][0]["unread_pins"]] == ["harvests.decisions"]
    related = hw("related", "--root", str(root), "ACME-SPEC-0001")
    assert related.out == ("to decisions:ACME-DR-0001 constrained_by [that document governs the reading] "
                           "[`harvests.decisions` binds nothing]\n")


def test_resolve_says_the_pin_of_the_corpus_an_identifier_names_binds_nothing(repos, hw):
    root = pinned_platform(repos, harvest_pin(WRONG) + import_pin())
    why = reason(hw, root, "harvest.pin.unread")
    ran = hw("resolve", "--root", str(root), "decisions:ACME-DR-0001")
    assert ran.status == 0 and ran.out == f"no document carries decisions:ACME-DR-0001\n{HARVEST}{why}\n"
    document = json.loads(hw("resolve", "--root", str(root), "decisions:ACME-DR-0001", "--json").out)
    assert document == {"version": "1.1", "pointers": [],
                        "unread_pins": [{"pin": "harvests.decisions", "corpus": "decisions", "reason": why}]}
    assert "binds nothing" not in hw("resolve", "--root", str(root), "ACME-SPEC-0404").out


def test_reads_over_pins_that_bind_say_nothing_of_pins(repos, hw):
    for root, path in ((repos.service, "src/app.py"), (repos.platform, "svc:src/app.py")):
        result = Session(root).call("governing_docs_for_path", path=path)["result"]
        assert "unread_pins" not in result["structuredContent"] and "binds nothing" not in result["content"][0]["text"]
        routed = json.loads(hw("route", "--root", str(root), "--json", f"fix {path}").out)
        assert "unread_pins" not in routed
