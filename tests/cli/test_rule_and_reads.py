"""`headwater rule` and the rules page, held to the registry; `related` and `resolve` on the
command line, held to the MCP tools' answers."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from headwater import REPOSITORY, RULES_PAGE
from headwater.check.reference import help_uri
from headwater.check.registry import RULES
from headwater.clock import run_date
from headwater.corpus.body import github_slug
from headwater.mcp.protocol import Server
from headwater.snapshot import load

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_rule_prints_every_registered_rule_with_its_facts_and_help(hw, rule):
    ran = hw("rule", rule.id)
    assert ran.status == 0 and ran.err == ""
    assert ran.out.startswith(f"# {rule.id}\n\n`{rule.name}` · {rule.severity.value} · {rule.scope.value} scope")
    assert rule.short in ran.out and rule.full in ran.out and ran.out.rstrip().endswith(rule.help)
    [entry] = json.loads(hw("rule", rule.id, "--json").out)["rules"]
    assert entry["rule"] == rule.id and entry["version"] == rule.version and entry["help_uri"] == help_uri(rule)


def test_rule_list_names_every_rule_once_in_registry_order(hw):
    lines = hw("rule", "--list").out.splitlines()
    assert [line.split()[0] for line in lines] == [r.id for r in RULES]


@pytest.mark.parametrize("asked", [("--list",), ("--all",), ("facet.required.missing",)])
def test_rule_json_names_its_shape_in_version_and_lists_the_rules_it_answers(hw, asked):
    ran = hw("rule", *asked, "--json")
    document = json.loads(ran.out)
    assert ran.status == 0 and list(document) == ["version", "rules"] and document["version"] == "1.0"
    named = [r.id for r in RULES] if asked[0].startswith("--") else list(asked)
    assert [entry["rule"] for entry in document["rules"]] == named


@pytest.mark.parametrize(("args", "sentence"), [
    (("no.such.rule",), "`no.such.rule` is not a rule this engine carries"),
    ((), "`rule` takes a rule id, `--list` or `--all`, one of them"),
    (("--list", "--all"), "`rule` takes one of `--list` and `--all`, not both"),
])
def test_rule_refuses_what_it_cannot_answer(hw, args, sentence):
    ran = hw("rule", *args)
    assert ran.status == 1 and ran.out == "" and ran.err.startswith("headwater: " + sentence)


def test_the_rules_page_is_what_the_registry_generates(hw):
    """Regenerate with `headwater rule --all > docs/rules.md`."""
    assert (REPO / RULES_PAGE).read_text(encoding="utf-8") == hw("rule", "--all").out


def test_every_help_uri_reaches_a_heading_of_the_rules_page():
    page = (REPO / RULES_PAGE).read_text(encoding="utf-8")
    anchors = {github_slug(h) for h in re.findall(r"^## (.+)$", page, re.M)}
    for rule in RULES:
        uri = help_uri(rule)
        assert uri.startswith(f"{REPOSITORY}/blob/main/{RULES_PAGE}#") and uri.split("#")[1] in anchors


def test_sarif_names_the_repository_and_gives_each_rule_its_help_uri_and_precision(hw):
    sarif = json.loads(hw("check", "--root", str(REPO / "corpus_fixtures" / "quickstart"), "--no-cache",
                          "--format", "sarif").out)
    driver = sarif["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == REPOSITORY
    by_id = {r.id: r for r in RULES}
    for entry in driver["rules"]:
        assert entry["helpUri"] == help_uri(by_id[entry["id"]])
        assert entry["properties"]["precision"] in ("very-high", "high", "medium", "low")


def test_the_repository_url_is_the_one_pyproject_declares():
    urls = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["urls"]
    assert urls["Repository"] == REPOSITORY


def tool_text(root: Path, tool: str, **arguments) -> dict:
    server = Server(load(root, run_date(None)))
    line = server.handle_line(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                          "params": {"name": tool, "arguments": arguments}}).encode())
    return json.loads(line)["result"]


@pytest.mark.parametrize("target", ["docs/decisions/0001-store-attempts-in-postgres.md", "ACME-DR-0002",
                                    "docs/specifications/ingest-api.md",
                                    "./docs/decisions/../decisions/0003-rate-limit-per-tenant.md"])
def test_related_on_the_command_line_equals_the_mcp_answer(hw, quickstart, target):
    tool = tool_text(quickstart, "related", target=target)
    ran = hw("related", target, "--root", str(quickstart))
    assert ran.status == 0 and ran.out == tool["content"][0]["text"] and ran.out


@pytest.mark.parametrize("target", ["docs/notes/meeting-2026-09.md", "ACME-DR-9999", "../outside.md"])
def test_a_related_refusal_is_the_mcp_sentence_on_stderr(hw, quickstart, target):
    tool = tool_text(quickstart, "related", target=target)
    ran = hw("related", target, "--root", str(quickstart))
    assert ran.status == 1 and ran.out == "" and ran.err == "headwater: " + tool["content"][0]["text"]


@pytest.mark.parametrize("identifier", ["ACME-DR-0001", "ACME-DR-0404", "acme-dr-0001"])
def test_resolve_on_the_command_line_equals_the_mcp_answer(hw, quickstart, identifier):
    tool = tool_text(quickstart, "resolve_identifier", id=identifier)
    ran = hw("resolve", identifier, "--root", str(quickstart))
    assert ran.status == 0 and ran.out == tool["content"][0]["text"]


@pytest.mark.parametrize("identifier", ["", "   "])
def test_a_blank_identifier_is_a_refusal_on_the_command_line_and_the_mcp_sentence(hw, quickstart, identifier):
    tool = tool_text(quickstart, "resolve_identifier", id=identifier)
    ran = hw("resolve", identifier, "--root", str(quickstart))
    assert tool["content"][0]["text"] == "an identifier is a word such as ACME-DR-0001, and this one is blank\n"
    assert ran.status == 1 and ran.out == "" and ran.err == "headwater: " + tool["content"][0]["text"]


@pytest.mark.parametrize(("read", "argument", "member", "version"), [("related", "ACME-DR-0001", "related", "1.0"),
                                                                     ("resolve", "ACME-DR-0001", "pointers", "1.1"),
                                                                     ("resolve", "ACME-DR-0404", "pointers", "1.1")])
def test_related_and_resolve_json_open_with_the_version_of_their_shape(hw, quickstart, read, argument, member, version):
    ran = hw(read, argument, "--json", "--root", str(quickstart))
    assert ran.status == 0 and list(json.loads(ran.out)) == ["version", member]
    assert json.loads(ran.out)["version"] == version


def test_resolve_json_is_the_structured_answer_of_the_library_read(hw, quickstart):
    from headwater.reads.identifiers import resolve_identifier
    from headwater.render.reads.answer_json import data

    answer = resolve_identifier(load(quickstart, run_date(None)), "ACME-DR-0001")
    assert json.loads(hw("resolve", "ACME-DR-0001", "--json", "--root", str(quickstart)).out) == data(answer)


def test_related_json_is_the_structured_answer_of_the_library_read(hw, quickstart):
    from headwater.reads.related import related
    from headwater.render.reads.answer_json import data

    answer = related(load(quickstart, run_date(None)), "ACME-DR-0001")
    assert json.loads(hw("related", "ACME-DR-0001", "--json", "--root", str(quickstart)).out) == data(answer)
