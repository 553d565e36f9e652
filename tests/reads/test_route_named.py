"""`route` offers a document the task names by its path or its identifier, as identity: first,
never cut by the budget, never silenced, a superseded one only behind its successor."""

import json

import pytest

from headwater.mcp.schemas import ROUTE

DR1 = "docs/decisions/0001-store-attempts-in-postgres.md"
DR2 = "docs/decisions/0002-deliver-at-least-once.md"
DR3 = "docs/decisions/0003-rate-limit-per-tenant.md"


def _json(hw, root, task: str, *more: str) -> dict:
    ran = hw("route", task, "--json", "--root", str(root), *more)
    assert ran.status == 0, ran.err
    return json.loads(ran.out)


@pytest.mark.parametrize("word", ["ACME-DR-0003", "(ACME-DR-0003),", "ACME-DR-0003's", "ACME-DR-0003."])
def test_a_task_naming_an_identifier_offers_its_document_first_even_where_words_alone_are_silent(quickstart, hw, word):
    data = _json(hw, quickstart, f"fix a typo in {word}")
    assert data["named"] == ["ACME-DR-0003"] and "silence" not in data
    assert [(p["path"], p["evidence"]) for p in data["pointers"]] == [
        (DR3, {"by": "named", "named": "ACME-DR-0003"})]
    text = hw("route", f"fix a typo in {word}", "--root", str(quickstart)).out.splitlines()
    assert "  names the document ACME-DR-0003" in text and "    the task names it: ACME-DR-0003" in text


@pytest.mark.parametrize("word", [DR3, f"./{DR3}", f"{DR3}:12"])
def test_a_task_naming_a_document_s_path_offers_it_first(quickstart, hw, word):
    data = _json(hw, quickstart, f"tighten the wording of {word} before review")
    assert data["named"] == [DR3]
    assert data["pointers"][0]["path"] == DR3 and data["pointers"][0]["evidence"] == {"by": "named", "named": DR3}


def test_a_named_superseded_document_comes_behind_its_successor(quickstart, hw):
    data = _json(hw, quickstart, "why was ACME-DR-0001 written")
    assert [p["path"] for p in data["pointers"][:2]] == [DR2, DR1]
    assert data["pointers"][1]["successor"] == DR2


def test_named_documents_are_never_cut_by_the_budget(quickstart, hw):
    data = _json(hw, quickstart, "compare ACME-DR-0002 with ACME-DR-0003", "--budget", "1")
    assert {p["path"] for p in data["pointers"]} >= {DR2, DR3}


def test_an_identifier_shaped_word_no_document_declares_names_nothing(quickstart, hw):
    data = _json(hw, quickstart, "what is the weather in ACME-DR-0099")
    assert data["named"] == [] and data["pointers"] == [] and data["silence"]["reason"] == "not_confident"


def test_an_identifier_two_documents_declare_names_both(quickstart, hw):
    path = quickstart / DR3
    path.write_text(path.read_text().replace("id: ACME-DR-0003", "id: ACME-DR-0002"))
    data = _json(hw, quickstart, "fix a typo in ACME-DR-0002")
    assert {p["path"] for p in data["pointers"] if p["evidence"]["by"] == "named"} == {DR2, DR3}


def test_a_named_route_validates_against_the_mcp_output_schema(quickstart, hw):
    jsonschema = pytest.importorskip("jsonschema")
    data = _json(hw, quickstart, "why was ACME-DR-0001 written")
    data.pop("text")
    jsonschema.validate(data, ROUTE)
