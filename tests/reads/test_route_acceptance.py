"""The route issue's acceptance: the quickstart retry task, taxonomies without function words or
purposes, state-aware pointers, and the JSON and MCP contracts."""

import json
from functools import cache
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headwater.mcp import schemas

SPEC = "docs/specifications/queue-retries.md"
DR1 = "docs/decisions/0001-store-attempts-in-postgres.md"
DR2 = "docs/decisions/0002-deliver-at-least-once.md"

BLOG_TAXONOMY = """\
taxonomy: acme/blog
version: 1.0.0
{purposes}
facets:
  title: {{type: string, role: name}}
  summary: {{type: string, role: scent}}
kinds:
  guide:
    {purpose}
    facets: {{require: [title]}}
shelves:
  guides: {{path: docs/**, kind: guide}}
"""
PURPOSES = """purposes:
  howto:
    intent: show how to change the site
    answers: [how do I change the site]
"""
BLOG_DOCS = {
    "docs/feeds.md": ("Syndication feeds", "Publish the posts as an RSS and Atom feed.",
                      "## Feed settings\n\nThe feed lists the newest twenty posts.\n"),
    "docs/themes.md": ("Themes", "Change the colours and fonts of the site.",
                       "## Colours\n\nA theme is a folder of templates.\n"),
    "docs/deploy.md": ("Publishing the site", "Build the site and push it to the host.",
                       "## Hosting\n\nThe build writes static files.\n"),
}


def _route(hw, root, *words) -> dict:
    ran = hw("route", *words, "--json", "--root", str(root))
    assert ran.status == 0 and ran.err == ""
    return json.loads(ran.out)


def _blog(tmp_path: Path, hw, *, purposes: bool) -> Path:
    """A small site whose own taxonomy declares no function words (and, if asked, no purposes)."""
    root = tmp_path / "blog"
    package = root / ".headwater/packages/blog"
    package.mkdir(parents=True)
    (package / "package.yml").write_text(
        "package: acme/blog\nversion: 1.0.0\nrequires_engine: \">=0.1 <2\"\ncontents: {taxonomy: taxonomy.yml}\n")
    (package / "taxonomy.yml").write_text(BLOG_TAXONOMY.format(
        purposes=PURPOSES if purposes else "", purpose="purpose: howto" if purposes else ""))
    (root / ".headwater/taxonomy.yml").write_text(
        "taxonomy: {package: acme/blog, version: 1.0.0, bundles: []}\ncorpus: {root: docs}\n")
    for path, (title, summary, body) in BLOG_DOCS.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(f"---\ntitle: {title}\nsummary: {summary}\n---\n\n# {title}\n\n{body}")
    assert hw("taxonomy", "resolve", "--root", str(root)).status == 0
    return root


def test_the_retry_task_points_at_the_retry_specification_and_the_decision_it_traces_to(quickstart, hw):
    data = _route(hw, quickstart, "why do we retry deliveries with backoff")
    paths = [p["path"] for p in data["pointers"]]
    assert paths[0] == SPEC and DR2 in paths
    assert data["pointers"][paths.index(DR2)]["id"] == "ACME-DR-0002"
    assert "silence" not in data


@pytest.mark.parametrize("purposes", [True, False])
def test_an_rss_task_routes_on_a_taxonomy_without_function_words_with_or_without_purposes(tmp_path, hw, purposes):
    data = _route(hw, _blog(tmp_path, hw, purposes=purposes), "add an RSS feed to the site")
    assert [p["path"] for p in data["pointers"]][:1] == ["docs/feeds.md"]
    assert "an" not in data["distinctive"] and "to" not in data["distinctive"]
    assert data["matched"] == ([{"purpose": "howto", "score": 3}] if purposes else [])


def test_stemming_lets_a_plural_reach_a_singular(tmp_path, hw):
    data = _route(hw, _blog(tmp_path, hw, purposes=False), "feeds")
    assert data["pointers"][0]["path"] == "docs/feeds.md"
    assert data["pointers"][0]["evidence"]["fields"][0] == {"term": "feeds",
                                                            "fields": ["title", "summary", "headings", "path", "body"]}


@pytest.mark.parametrize("budget", ["1", "2", "3", "5"])
def test_a_superseded_document_is_never_the_only_pointer_for_a_task_its_successor_answers(quickstart, hw, budget):
    data = _route(hw, quickstart, "why do we keep delivery attempts in postgres", "--budget", budget)
    paths = [p["path"] for p in data["pointers"]]
    assert DR2 in paths
    if DR1 in paths:
        assert paths.index(DR2) < paths.index(DR1)
        superseded = data["pointers"][paths.index(DR1)]
        assert superseded["state"] == "superseded" and superseded["successor"] == DR2
    assert data["pointers"][paths.index(DR2)]["state"] == "current"


def test_a_terminal_document_without_a_live_successor_is_not_offered(quickstart, hw):
    rate = quickstart / "docs/decisions/0003-rate-limit-per-tenant.md"
    rate.write_text(rate.read_text().replace("status: current", "status: deprecated"))
    data = _route(hw, quickstart, "rate limit per tenant")
    assert "docs/decisions/0003-rate-limit-per-tenant.md" not in [p["path"] for p in data["pointers"]]


def test_a_superseded_document_governing_a_named_path_comes_with_its_successor_ahead_of_it(quickstart, hw):
    dr1 = quickstart / DR1  # its successor governs src/queue/**, not the ingest API
    dr1.write_text(dr1.read_text().replace("relations:\n", "relations:\n  governs:\n    - src/ingest/api.py\n", 1))
    data = _route(hw, quickstart, "refactor src/ingest/api.py", "--budget", "1")
    paths = [p["path"] for p in data["pointers"]]
    assert DR1 in paths and paths.index(DR2) == paths.index(DR1) - 1  # never alone, its successor read first
    assert data["pointers"][paths.index(DR2)]["evidence"] == {"by": "successor", "succeeds": DR1}
    superseded = data["pointers"][paths.index(DR1)]
    assert superseded["successor"] == DR2
    assert superseded["evidence"] == {"by": "anchor", "anchors": ["src/ingest/api.py"]}
    out = hw("route", "refactor src/ingest/api.py", "--root", str(quickstart)).out
    assert f"    read {DR2} first: it succeeds this\n" in out


def test_the_text_names_a_terminal_state_and_the_successor_to_read_first(quickstart, hw):
    out = hw("route", "why do we keep delivery attempts in postgres", "--root", str(quickstart)).out
    assert "The queue keeps every delivery attempt in Postgres. [superseded]" in out
    assert f"    read {DR2} first: it succeeds this\n" in out
    assert f"    succeeds {DR1}\n" in out


@pytest.mark.parametrize("task", ["why do we retry deliveries with backoff", "what is the weather in paris",
                                  "why do we keep delivery attempts in postgres", "x y",
                                  "add rate limiting to src/ingest/rate_limit.py"])
def test_route_json_validates_against_the_mcp_output_schema_and_equals_its_structured_content(quickstart, hw, task):
    from tests.mcp.mcp_session import Session

    data = _route(hw, quickstart, task)
    data.pop("text")
    jsonschema.validate(data, schemas.ROUTE)
    assert Session(quickstart).call("route", task=task)["result"]["structuredContent"] == data


def test_a_real_shaped_task_routed_in_another_process_with_another_hash_seed_is_byte_identical(quickstart, hw):
    from tests.conftest import hw_process

    task = ("route", "why do we retry deliveries with backoff", "--json", "--root", str(quickstart))
    here, elsewhere = hw(*task), hw_process(*task, hash_seed="4242")
    assert here.status == elsewhere.status == 0 and here.err == elsewhere.err == ""
    assert '"pointers": [' in here.out and here.out == elsewhere.out


def test_governing_pointers_carry_the_lifecycle_state(quickstart):
    from tests.mcp.mcp_session import Session

    pointers = Session(quickstart).call("governing_docs_for_path", path="src/queue/retry.py")[
        "result"]["structuredContent"]["pointers"]
    assert pointers and all(p["state"] == "current" for p in pointers)
    jsonschema.validate({"pointers": pointers}, schemas.POINTERS)


def test_a_terminal_governing_document_names_its_live_successor(quickstart):
    from tests.mcp.mcp_session import Session

    dr1 = quickstart / DR1
    dr1.write_text(dr1.read_text().replace("relations:\n", "relations:\n  governs:\n    - src/queue/worker.py\n", 1))
    pointers = Session(quickstart).call("governing_docs_for_path", path="src/queue/worker.py")[
        "result"]["structuredContent"]["pointers"]
    old = [p for p in pointers if p["path"] == DR1]
    assert old and old[0]["state"] == "superseded" and old[0]["successor"] == DR2


@cache
def _loaded(root: Path):
    import datetime as dt

    from headwater.snapshot import load

    return load(root, dt.date(2026, 11, 1))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(task=st.text(max_size=80))
def test_any_task_routes_or_is_silent_and_never_raises(quickstart, task):
    from headwater.reads.route.router import route

    snapshot = _loaded(quickstart)  # one snapshot for every example of this run
    answer = route(snapshot, task, read_tree=False)
    assert (answer.silence is None) == bool(answer.pointers)
    assert route(snapshot, task, read_tree=False) == answer
