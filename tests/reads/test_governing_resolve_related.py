"""`governing_docs_for_path`, `resolve_identifier` and `related`: text and structured answers."""

import datetime as dt
import json
import os

import pytest

from headwater.errors import Refusal
from headwater.mcp.tools import registered
from headwater.reads.governing import governing_docs_for_path
from headwater.reads.identifiers import resolve_identifier
from headwater.reads.related import related
from headwater.render.reads import render
from headwater.render.reads.answer_json import data
from headwater.snapshot import load
from tests.mcp.mcp_session import Session

TODAY = dt.date(2026, 11, 1)
SPEC = "docs/specifications/ingest-api.md"
RATE = "docs/decisions/0003-rate-limit-per-tenant.md"


def _write_governs(root, target):
    path = root / SPEC
    path.write_text(path.read_text().replace("    - src/ingest/**", f"    - {target}"))


def test_a_double_star_anchor_governs_the_files_under_it(quickstart):
    answer = governing_docs_for_path(load(quickstart, TODAY), "src/ingest/api.py")
    assert [p["path"] for p in data(answer)["pointers"]] == [SPEC]
    assert render("text", answer).startswith(SPEC + " (Ingest API) \u2014 ")


def test_a_literal_directory_anchor_governs_only_itself(quickstart):
    _write_governs(quickstart, "src/ingest")
    snapshot = load(quickstart, TODAY)
    assert render("text", governing_docs_for_path(snapshot, "src/ingest/api.py")) == (
        "no document governs src/ingest/api.py\n")
    assert [p["path"] for p in data(governing_docs_for_path(snapshot, "src/ingest"))["pointers"]] == [SPEC]


def test_src_double_star_governs_a_file_directly_under_src(quickstart):
    _write_governs(quickstart, "src/**")
    answer = governing_docs_for_path(load(quickstart, TODAY), "src/a.py")
    assert [p["path"] for p in data(answer)["pointers"]] == [SPEC]


def test_governors_are_deduplicated_and_sorted_by_path(quickstart):
    answer = governing_docs_for_path(load(quickstart, TODAY), "./src/ingest/rate_limit.py")
    assert [p["path"] for p in data(answer)["pointers"]] == [RATE, SPEC]
    assert len(render("text", answer).splitlines()) == 2


@pytest.mark.parametrize("named", ["src/ingest/rate_limit.py:12", "src/ingest/rate_limit.py:12:5",
                                   "src/ingest/rate_limit.py#L12", "src/ingest/rate_limit.py#L12-L20",
                                   "file://{root}/src/ingest/rate_limit.py", "file://localhost{root}/src/ingest/rate_limit.py"])
def test_a_line_in_a_file_or_a_file_uri_is_governed_as_the_file_is(quickstart, named):
    """`x.py:12` is how an editor or a compiler names a place; the literal anchor of that file
    did not reach it, so the answer left out a governing document without a word."""
    answer = governing_docs_for_path(load(quickstart, TODAY), named.format(root=quickstart))
    assert answer.path == "src/ingest/rate_limit.py"
    assert [p["path"] for p in data(answer)["pointers"]] == [RATE, SPEC]


def test_a_file_whose_name_ends_like_a_line_number_is_read_as_named(quickstart):
    (quickstart / "src/ingest/odd.py:12").write_text("x = 1\n")
    assert governing_docs_for_path(load(quickstart, TODAY), "src/ingest/odd.py:12").path == "src/ingest/odd.py:12"


def test_a_successor_governs_the_document_it_supersedes(quickstart):
    answer = governing_docs_for_path(load(quickstart, TODAY), "docs/decisions/0001-store-attempts-in-postgres.md")
    assert [p["path"] for p in data(answer)["pointers"]] == ["docs/decisions/0002-deliver-at-least-once.md"]


def test_a_path_outside_the_repository_gets_the_outside_sentence_and_no_pointers(quickstart):
    snapshot = load(quickstart, TODAY)
    sentence = "../elsewhere.py is outside this repository, or is not a path it can read"
    with pytest.raises(Refusal) as refused:
        governing_docs_for_path(snapshot, "../elsewhere.py")
    assert refused.value.sentence == sentence
    tool = {t.name: t for t in registered(False)}["governing_docs_for_path"]
    outcome = tool.run(snapshot, {"path": "../elsewhere.py"})
    assert outcome.blocks == (sentence + "\n",) and outcome.structured == {"pointers": []}


def test_resolve_identifier_answers_a_pointer_a_near_miss_or_nothing(quickstart):
    (quickstart / "docs/notes/carried.md").write_text("---\nid: ACME-NOTE-0001\n---\n\n# Note\n")
    snapshot = load(quickstart, TODAY)
    found = resolve_identifier(snapshot, "ACME-DR-0003")
    assert render("text", found).startswith(RATE + " (Rate limit per tenant) \u2014 ")
    assert render("text", found).endswith("[asserted: nobody accepted this document]\n")
    assert render("text", resolve_identifier(snapshot, "ACME-NOTE-0001")) == (
        "no typed document carries ACME-NOTE-0001; docs/notes/carried.md carries it, untyped\n")
    assert render("text", resolve_identifier(snapshot, "ACME-DR-0404")) == "no document carries ACME-DR-0404\n"


@pytest.mark.parametrize("typed", ["acme-dr-0003", "ACME-DR-3", "acme-dr-03", "ACMEDR0003"])
def test_a_miss_by_case_or_by_how_the_number_is_written_asks_about_the_identifier_it_misses(quickstart, hw, typed):
    ran = hw("resolve", typed, "--root", str(quickstart))
    assert ran.status == 0 and ran.out == f"no document carries {typed}; did you mean ACME-DR-0003?\n"
    answer = json.loads(hw("resolve", typed, "--json", "--root", str(quickstart)).out)
    assert answer == {"version": "1.1", "pointers": [], "near": ["ACME-DR-0003"]}
    assert Session(quickstart).text("resolve_identifier", id=typed) == ran.out
    explained = hw("explain", typed, "--root", str(quickstart))
    assert explained.status == 1
    assert explained.err == f"headwater: `{typed}` names no document; did you mean ACME-DR-0003?\n"


def test_a_miss_with_another_number_or_a_second_one_asks_nothing(quickstart, hw):
    for typed in ("ACME-DR-0404", "ACME-DR-0003-rev2", "ACME-SPEC-0003"):
        assert hw("resolve", typed, "--root", str(quickstart)).out == f"no document carries {typed}\n"


def test_an_identifier_with_blanks_or_a_line_break_around_it_resolves_as_explain_reads_it(quickstart, hw):
    ran = hw("resolve", " ACME-DR-0003\n", "--root", str(quickstart))
    assert ran.status == 0 and ran.out.startswith(RATE + " (Rate limit per tenant)"), ran.out + ran.err
    missed = hw("resolve", "ACME-DR-0404\n", "--root", str(quickstart))
    assert missed.status == 0 and missed.out == "no document carries ACME-DR-0404\n"
    assert Session(quickstart).text("resolve_identifier", id="ACME-DR-0003\n").startswith(RATE + " (")


def test_an_identifier_two_documents_declare_resolves_to_both_and_says_so(quickstart):
    dr3 = quickstart / RATE
    dr3.write_text(dr3.read_text().replace("id: ACME-DR-0003", "id: ACME-DR-0002"))
    found = resolve_identifier(load(quickstart, TODAY), "ACME-DR-0002")
    lines = render("text", found).splitlines()
    assert [line.split(" ")[0] for line in lines[:2]] == ["docs/decisions/0002-deliver-at-least-once.md", RATE]
    assert lines[2] == ("ACME-DR-0002 is declared by 2 documents, so it names none of them for certain; "
                        "`headwater check` reports each (identifier.claimed_twice)")
    assert [p["path"] for p in data(found)["pointers"]] == ["docs/decisions/0002-deliver-at-least-once.md", RATE]
    assert len(render("text", resolve_identifier(load(quickstart, TODAY), "ACME-DR-0001")).splitlines()) == 1


def test_related_lists_outbound_then_inbound_with_a_colon_before_the_cue(quickstart):
    answer = related(load(quickstart, TODAY), "ACME-DR-0002")
    assert render("text", answer).splitlines() == [
        "to ACME-DR-0001 supersedes: The queue keeps every delivery attempt in Postgres. "
        "(the target's own summary) [this document governs the reading]",
        "to src/queue/** governs [this document governs the reading]",
        "from docs/decisions/0001-store-attempts-in-postgres.md supersedes: The queue keeps every "
        "delivery attempt in Postgres. (the target's own summary) [this document governs the reading]",
        "from docs/specifications/queue-retries.md traced_by: How the queue retries a failed delivery, "
        "and how long it waits between attempts. (the target's own summary)",
    ]
    assert [n["relation"] for n in data(answer)["related"]] == ["supersedes", "governs", "supersedes", "traced_by"]
    assert "\u2014" not in render("text", answer)


def test_related_with_no_edges_says_so(quickstart):
    path = quickstart / SPEC
    text = path.read_text()
    path.write_text(text[: text.index("relations:")] + text[text.index("---", 4):])
    (quickstart / RATE).write_text((quickstart / RATE).read_text().replace("  constrains: ACME-SPEC-0002\n", ""))
    answer = related(load(quickstart, TODAY), "ACME-SPEC-0002")
    assert render("text", answer) == "ACME-SPEC-0002 declares no relation, and none names it\n"


def test_related_refuses_an_unreadable_row_with_related_as_the_verb(quickstart):
    os.symlink("/etc/hostname", quickstart / "docs/notes/link.md")
    with pytest.raises(Refusal) as refused:
        related(load(quickstart, TODAY), "docs/notes/link.md")
    assert refused.value.sentence.endswith("so `related` prints nothing")


@pytest.mark.parametrize("verb", ["explain", "related", "show"])
def test_a_read_by_an_identifier_two_documents_declare_is_refused_naming_both(quickstart, hw, verb):
    dr3 = quickstart / RATE
    dr3.write_text(dr3.read_text().replace("id: ACME-DR-0003", "id: ACME-DR-0002"))
    result = hw(verb, "ACME-DR-0002", "--root", str(quickstart))
    assert result.status == 1 and result.out == ""
    assert result.err == ("headwater: `ACME-DR-0002` is declared by 2 documents "
                             f"(docs/decisions/0002-deliver-at-least-once.md, {RATE}), so it names none of them "
                             "for certain: name the one you mean by its path\n")
    assert hw(verb, RATE, "--root", str(quickstart)).status == 0
