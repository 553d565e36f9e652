"""The MCP `check` tool's filters: each answers a summary first, then what the CLI writes with the
same filters, and its text is bounded by default with a count of what was left out."""

from __future__ import annotations

import json

import pytest

from headwater.mcp import tools
from tests.conftest import check_all_tally
from tests.mcp.mcp_session import DATE, Session


@pytest.fixture
def check_all(copy_fixture):
    return Session(copy_fixture("check-all"))


def cli(hw, session: Session, *flags: str) -> str:
    return hw("check", "--no-cache", "--now", DATE, "--root", str(session.root), *flags).out


def blocks(session: Session, **arguments) -> list[str]:
    return [b["text"] for b in session.call("check", **arguments)["result"]["content"]]


@pytest.mark.parametrize(("arguments", "flags"), [
    ({"paths": ["docs/specifications"]}, ("--path", "docs/specifications")),
    ({"paths": ["docs/decisions/0001-base.md", "docs/memos"]},
     ("--path", "docs/decisions/0001-base.md", "--path", "docs/memos")),
    ({"rules": ["facet", "identifier.claimed_twice"]}, ("--rule", "facet", "--rule", "identifier.claimed_twice")),
    ({"min_severity": "error"}, ("--min-severity", "error")),
    ({"min_severity": "warn", "limit": 3}, ("--min-severity", "warn", "--limit", "3")),
    ({"limit": 0}, ("--limit", "0")),
])
def test_each_filter_answers_a_summary_then_the_bytes_the_cli_writes_with_it(check_all, hw, arguments, flags):
    for fmt in ("json", "concise"):
        summary, report = blocks(check_all, format=fmt, **arguments)
        assert report == cli(hw, check_all, "--format", fmt, *flags)
        counts = cli(hw, check_all, "--format", "concise", *flags).splitlines()[-1]
        assert summary.startswith(f"Over {check_all_tally().documents} documents: " + counts)
    every = json.loads(blocks(check_all, format="json")[1])["findings"]
    chosen = json.loads(blocks(check_all, format="json", **arguments)[1])["findings"]
    assert len(chosen) < len(every)


def test_the_summary_states_what_a_limit_left_out(check_all):
    summary, report = blocks(check_all, format="text", limit=2)
    tally = check_all_tally()
    live, held = tally.counts.split("; ")
    assert summary == (f"Over {tally.documents} documents: {live}; {tally.total - 2} of {tally.total} not written, "
                       f"past the limit; {held}. "
                       "Pass a larger `limit`, or narrow by `paths`, `rules` or `min_severity`, to read the rest.\n")
    assert report.count("✗ error") == 1 + 2  # the count of every error at the top, then the two written


def test_without_a_limit_the_answer_is_bounded_by_default(check_all, monkeypatch):
    monkeypatch.setattr(tools, "CHECK_LIMIT", 4)
    summary, report = blocks(check_all, format="json")
    total = check_all_tally().total
    assert len(json.loads(report)["findings"]) == 4 and f"{total - 4} of {total} not written" in summary


@pytest.mark.parametrize(("arguments", "field"), [
    ({"rules": ["no.such"]}, "rules"),
    ({"min_severity": "fatal"}, "min_severity"),
    ({"limit": -1}, "limit"),
    ({"limit": "5"}, "limit"),
    ({"paths": "docs"}, "paths"),
    ({"paths": ["../out"]}, "paths"),
    ({"paths": ["docs/nowhere.md"]}, "paths"),
])
def test_a_bad_filter_is_an_invalid_argument_error_naming_the_argument_to_change(check_all, arguments, field):
    error = check_all.call("check", format="text", **arguments)["error"]
    assert error["code"] == -32602 and error["data"]["error_code"] == "invalid_argument"
    assert error["data"].get("rejected_field") == field


@pytest.mark.parametrize(("arguments", "field", "example"), [
    ({"paths": "docs"}, "paths", '["docs/decisions"]'),
    ({"paths": [1]}, "paths", '["docs/decisions"]'),
    ({"rules": "link"}, "rules", '["link", "facet.required.missing"]'),
    ({"rules": [None]}, "rules", '["link", "facet.required.missing"]'),
])
def test_an_array_filter_in_the_wrong_shape_is_shown_an_example_of_its_own(check_all, arguments, field, example):
    error = check_all.call("check", format="text", **arguments)["error"]
    assert error["code"] == -32602 and error["data"]["rejected_field"] == field
    assert error["message"] == f"`check` takes `{field}` as an array of strings, such as {example}"


@pytest.mark.parametrize("field", ["paths", "rules"])
def test_the_example_an_array_filter_shows_is_one_the_tool_takes(check_all, field):
    from headwater.check.registry import rule_ids

    check = next(tool for tool in tools.READS if tool.name == "check")
    example = json.loads(next(a.example for a in check.arguments if a.name == field))
    response = check_all.call("check", format="text", **{field: example})
    assert "result" in response and response["result"]["isError"] is False, response
    if field == "rules":  # each a rule id or a family of them, read off the registry, not a made-up name
        assert all(any(i == rule or i.startswith(rule + ".") for i in rule_ids()) for rule in example)


def test_the_listing_declares_the_optional_filters(check_all):
    listed = {t["name"]: t for t in check_all.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})["result"]
              ["tools"]}
    schema = listed["check"]["inputSchema"]
    assert schema["required"] == ["format"]
    assert schema["properties"]["limit"]["type"] == "integer"
    assert schema["properties"]["min_severity"]["enum"] == ["error", "warn", "info"]
    assert schema["properties"]["paths"]["type"] == schema["properties"]["rules"]["type"] == "array"
