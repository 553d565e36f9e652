"""`route` through the CLI: anchors, silences, budget refusals, determinism, pointer shape, em dashes."""

import json
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
RATE = "docs/decisions/0003-rate-limit-per-tenant.md"
POINTER_KEYS = {"path", "kind", "id", "name", "purpose", "summary", "state", "unwarranted", "evidence",
                "successor"}
QUICKSTART_TASKS = {
    "postgres": "why do we keep delivery attempts in postgres",
    "anchor": "add rate limiting to src/ingest/rate_limit.py",
    "silent": "what is the weather in paris",
}


@pytest.fixture
def routing(copy_fixture):
    return copy_fixture("routing")


def _route(hw, root, *words):
    return hw("route", *words, "--root", str(root))


@pytest.mark.parametrize("word", ["src/ingest/rate_limit.py.", "src/ingest/rate_limit.py:12",
                                  "(src/ingest/rate_limit.py),", "src/ingest/rate_limit.py's",
                                  "src/ingest/rate_limit.py:12:3."])
def test_a_path_named_with_punctuation_is_an_anchor_and_its_governors_come_first(quickstart, hw, word):
    ran = _route(hw, quickstart, f"Look at {word}")
    assert ran.status == 0
    assert "  names the anchor src/ingest/rate_limit.py" in ran.out.splitlines()
    data = json.loads(_route(hw, quickstart, f"Look at {word}", "--json").out)
    assert data["pointers"][0]["path"] == RATE
    assert data["pointers"][0]["evidence"] == {"by": "anchor", "anchors": ["src/ingest/rate_limit.py"]}


def test_a_url_names_no_anchor(quickstart, hw):
    data = json.loads(_route(hw, quickstart, "see https://example.com/src/ingest/rate_limit.py", "--json").out)
    assert data["anchors"] == []


def test_anchored_pointers_are_never_cut_by_the_budget(quickstart, hw):
    data = json.loads(_route(hw, quickstart, "why limit src/ingest/rate_limit.py", "--budget", "1", "--json").out)
    anchored = [p for p in data["pointers"] if p["evidence"]["by"] == "anchor"]
    assert len(anchored) == 2 and len(data["pointers"]) == 2
    assert data["withheld"] == 0  # nothing but the anchored two was reached


def test_a_corpus_with_no_typed_document_yet_says_so_rather_than_that_no_document_holds_a_word(quickstart, hw):
    for document in (quickstart / "docs").rglob("*.md"):  # set up, not yet adopted: every record untyped
        text = document.read_text(encoding="utf-8")
        document.write_text(text.split("---\n", 2)[2] if text.startswith("---\n") else text, encoding="utf-8")
    data = json.loads(_route(hw, quickstart, "why do we keep delivery attempts in postgres", "--json").out)
    assert data["silence"] == {"reason": "no_documents",
                               "says": "no file of the corpus is typed as a document yet, so the route is silent; "
                                       "`headwater adopt` types the records already on a shelf"}
    assert data["pointers"] == [] and data["version"] == "1.4"


def test_a_pointer_the_budget_cuts_is_counted_as_withheld_and_shown_when_the_budget_allows(routing, hw):
    task = "why do we keep delivery attempts in postgres and src/delivery/worker.py"
    answers = [json.loads(_route(hw, routing, task, "--budget", str(budget), "--json").out) for budget in (1, 2, 5)]
    assert [len(a["pointers"]) for a in answers] == [1, 2, 5] and answers[0]["withheld"] > 0
    assert answers[0]["pointers"][0]["evidence"]["by"] == "anchor"
    assert len({len(a["pointers"]) + a["withheld"] for a in answers}) == 1  # every cut pointer is counted
    for tighter, roomier in zip(answers, answers[1:], strict=False):
        assert roomier["pointers"][:len(tighter["pointers"])] == tighter["pointers"]


@pytest.mark.parametrize(("task", "reason"), [
    ("x y", "no_terms"),
    ("and the of it", "no_terms"),
    ("zebra", "no_document_reached"),
    ("what is the weather in paris", "not_confident"),
])
def test_every_silence_is_reachable_and_exits_0(quickstart, hw, task, reason):
    root = quickstart
    says = {"no_terms": "the task carries no word of two characters or more that is not a stop word",
            "no_document_reached": "no document holds a word of the task, so the route is silent",
            "not_confident": ("no document matches enough of the task to be trusted, "
                              "so the route is silent")}[reason]
    ran = _route(hw, root, task)
    assert ran.status == 0 and ran.err == ""
    assert ran.out.splitlines()[-1] == "  " + says
    data = json.loads(_route(hw, root, task, "--json").out)
    assert data["silence"] == {"reason": reason, "says": says}
    assert data["pointers"] == []


@pytest.mark.parametrize("args", [("--budget", "0", "task"), ("--budget", "-2", "task"), ("--budget=-2", "task"),
                                  ("--budget", "two", "task"), ("--budget", "1.5", "task"), ()])
def test_a_bad_budget_or_a_missing_task_is_a_refusal_with_empty_stdout(quickstart, hw, args):
    ran = hw("route", *args, "--root", str(quickstart), "--json")
    assert ran.status == 1 and ran.out == ""
    assert ran.err.startswith("headwater: ") and len(ran.err.splitlines()) == 1


def test_a_run_in_another_process_with_another_hash_seed_is_byte_identical(routing, hw):
    from tests.conftest import hw_process

    task = "why do we keep delivery attempts in postgres"
    for extra in ((), ("--json",)):
        here = _route(hw, routing, task, *extra)
        elsewhere = hw_process("route", task, "--root", str(routing), *extra, hash_seed="4242")
        assert here.status == elsewhere.status == 0 and here.err == elsewhere.err == ""
        assert "docs/" in here.out and here.out == elsewhere.out


def test_a_pointer_carries_no_body_score_or_confidence(routing, hw):
    data = json.loads(_route(hw, routing, "change the retry schedule in src/delivery/retry.py", "--json").out)
    assert data["pointers"]
    for pointer in data["pointers"]:
        assert set(pointer) <= POINTER_KEYS
        text = json.dumps(pointer)
        assert "confidence" not in text and "probability" not in text and 'score":' not in text
        assert "## " not in text


def test_the_json_members_come_in_the_contract_order_and_text_is_the_plain_report(routing, hw):
    task = "why do we keep delivery attempts in postgres"
    data = json.loads(_route(hw, routing, task, "--json").out)
    assert list(data) == ["version", "task", "terms", "separating", "distinctive", "anchors", "named", "matched",
                          "pointers", "withheld", "ungoverned", "text"]
    assert data["version"] == "1.4"
    assert data["text"] == _route(hw, routing, task).out


@pytest.mark.parametrize("task", ["why do we keep delivery attempts in postgres", "make the backoff smaller in "
                                  "src/delivery/retry.py and src/admin/console.py", "zebra \u2014 crossing"])
def test_no_line_but_a_pointer_line_carries_an_em_dash(routing, hw, task):
    ran = _route(hw, routing, task, "--budget", "10")
    data = json.loads(_route(hw, routing, task, "--budget", "10", "--json").out)
    starts = tuple("  " + p["path"] + " " for p in data["pointers"])
    for line in ran.out.splitlines():
        if "\u2014" in line:
            assert line.startswith(starts), line


def test_a_named_path_in_the_governed_scope_that_nothing_governs_is_listed_with_its_relations(routing, hw):
    ran = _route(hw, routing, "tidy up src/admin/console.py")
    assert ("  src/admin/console.py is in the governed scope, and nothing governs it\n"
            "    a document declares the edge in its front matter:\n"
            "    relations:\n"
            "      governs:\n"
            "        - src/admin/console.py\n") in ran.out
    data = json.loads(_route(hw, routing, "tidy up src/admin/console.py", "--json").out)
    assert data["ungoverned"] == [{"path": "src/admin/console.py", "relations": ["governs"]}]


def test_a_git_ignored_path_is_not_listed_as_ungoverned(routing, hw):
    (routing / ".gitignore").write_text("src/admin/\n")
    data = json.loads(_route(hw, routing, "tidy up src/admin/console.py", "--json").out)
    assert data["ungoverned"] == []


def test_a_path_outside_the_scope_or_a_directory_is_not_listed(routing, hw):
    data = json.loads(_route(hw, routing, "tidy up tools/x.sh and src/admin/", "--json").out)
    assert data["ungoverned"] == []


def test_the_mcp_answer_is_the_unfolded_report_and_the_document_without_text(quickstart):
    import datetime as dt

    from headwater.mcp.tools import registered
    from headwater.snapshot import load

    tool = {t.name: t for t in registered(False)}["route"]
    answer = tool.run(load(quickstart, dt.date(2026, 11, 1)), {"task": QUICKSTART_TASKS["postgres"]})
    assert "text" not in answer.structured and answer.structured["version"] == "1.4"
    assert any(len(line) > 80 for line in answer.blocks[0].splitlines())


@pytest.mark.parametrize("name", sorted(QUICKSTART_TASKS))
def test_route_over_the_quickstart_matches_its_golden_text_and_json(quickstart, hw, golden, name):
    for suffix, extra in ((".txt", ()), (".json", ("--json",))):
        ran = _route(hw, quickstart, QUICKSTART_TASKS[name], *extra)
        assert ran.status == 0 and ran.err == ""
        golden(GOLDEN / f"quickstart-{name}{suffix}", ran.out)
