"""The write tools and the one-write seal."""

import pytest

NEW = {"kind": "decision", "title": "Deliver in order per tenant"}


def test_a_landed_new_spends_the_server_for_every_later_call(writer):
    result = writer.call("new", **NEW)["result"]
    assert result["isError"] is False
    account, artifact = (block["text"] for block in result["content"])
    assert "wrote docs/decisions/0004-deliver-in-order-per-tenant.md" in account
    assert artifact.startswith("---\nid: ACME-DR-0004\n")
    assert (writer.root / "docs/decisions/0004-deliver-in-order-per-tenant.md").read_text() == artifact
    error = writer.call("route", task="why postgres")["error"]
    assert error["code"] == -32000 and error["data"]["error_code"] == "server_spent"
    assert writer.send({"jsonrpc": "2.0", "id": 99, "method": "tools/list"})["result"]["tools"]
    assert writer.send({"jsonrpc": "2.0", "id": 98, "method": "initialize", "params": {}})["result"]


def test_the_account_of_a_landed_new_names_the_tools_arguments_never_a_command_line_flag(writer):
    account = writer.call("new", **NEW)["result"]["content"][0]["text"]
    assert "  title — from `title`\n" in account
    assert "  summary — a TODO: pass `summary`, or write the sentence\n" in account
    assert '  none; `"relates": ["rel=target"]` declares one\n' in account
    assert "--" not in account


def test_a_refused_new_writes_nothing_and_does_not_spend(writer):
    error = writer.call("new", kind="memo", title="x")["error"]
    assert error["code"] == -32602 and error["data"]["error_code"] == "invalid_argument"
    assert error["data"]["rejected_field"] == "kind"
    assert error["message"].startswith("nothing was written. `memo` is not a kind")
    assert not list((writer.root / "docs/decisions").glob("0004-*"))
    assert writer.text("resolve_identifier", id="ACME-DR-0001").startswith("docs/")


def test_new_takes_relates_as_an_array_of_pairs(writer):
    error = writer.call("new", **NEW, relates="supersedes=ACME-DR-0002")["error"]
    assert error["code"] == -32602 and error["data"]["rejected_field"] == "relates"
    result = writer.call("new", **NEW, relates=["supersedes=ACME-DR-0002"])["result"]
    assert "edited docs/decisions/0002-deliver-at-least-once.md" in result["content"][0]["text"]


def test_each_array_argument_of_new_is_shown_an_example_of_its_own(writer):
    for field, example in (("relates", '["supersedes=ACME-DR-0001"]'), ("facets", '["status=draft"]')):
        error = writer.call("new", **NEW, **{field: "x=y"})["error"]
        assert error["code"] == -32602 and error["data"]["rejected_field"] == field
        assert error["message"] == f"`new` takes `{field}` as an array of strings, such as {example}"
    assert not list((writer.root / "docs/decisions").glob("0004-*"))


REFUSED_ARGUMENTS = [
    ("title", {"title": "   "}, "`title` takes text, and it is empty"),
    ("title", {"title": "!!!"}, 'add a few, as in `"title": "Привет мир (hello world)"`'),
    ("summary", {"summary": "one\ntwo"}, "`summary` takes one line of text"),
    ("directory", {"directory": "/tmp"}, "`directory` takes a folder inside the repository, and `/tmp` is not one"),
    ("facets", {"facets": ["=low"]}, "`facets` takes FACET=VALUE with neither side empty, and `=low` is not that"),
    ("facets", {"facets": ["risk=low", "risk=high"]}, "`facets` names one facet twice"),
    ("facets", {"facets": ["status=current"]}, "`status` is decided by the taxonomy, not by `facets`"),
    ("relates", {"relates": ["supersedes="]}, "`relates` takes REL=TARGET with neither side empty"),
    ("relates", {"relates": ["supersedes=ACME-DR-0099"]}, "no document carries `ACME-DR-0099`"),
    ("relates", {"relates": ["supersedes=ACME-DR-0002", "supersedes=ACME-DR-0002"]},
     '`"relates": ["supersedes=ACME-DR-0002"]` is given twice'),
]


@pytest.mark.parametrize(("field", "arguments", "sentence"), REFUSED_ARGUMENTS,
                         ids=[f"{r[0]}: {r[2][:30]}" for r in REFUSED_ARGUMENTS])
def test_a_refused_argument_of_new_is_named_as_the_tool_names_it(writer, field, arguments, sentence):
    error = writer.call("new", **{**NEW, **arguments})["error"]
    assert error["code"] == -32602 and error["data"]["error_code"] == "invalid_argument", error
    assert error["data"]["rejected_field"] == field
    assert error["message"].startswith("nothing was written. ") and sentence in error["message"]
    assert "--" not in error["message"]  # no command-line flag in a tool's answer
    assert not list((writer.root / "docs/decisions").glob("0004-*"))
    assert writer.text("resolve_identifier", id="ACME-DR-0001").startswith("docs/")  # the server is not spent


def test_the_read_only_server_registers_no_write_tool(session):
    error = session.call("new", **NEW)["error"]
    assert error["data"]["error_code"] == "unknown_tool"
    assert "`--write` would register `new` and `fix`" in error["message"]


def test_new_takes_a_summary_facets_and_a_directory_like_the_cli(writer):
    refused = writer.call("new", **NEW, facets=["status=current"])["error"]  # read, and judged like --facet
    assert refused["code"] == -32602 and "`status` is decided by the taxonomy" in refused["message"]
    result = writer.call("new", **NEW, summary="Each tenant's jobs run in the order they came.",
                         facets=[], directory="docs/decisions/ingest")["result"]
    assert result["isError"] is False, result
    artifact = result["content"][1]["text"]
    assert 'summary: "Each tenant\'s jobs run in the order they came."\n' in artifact
    assert (writer.root / "docs/decisions/ingest/0004-deliver-in-order-per-tenant.md").read_text() == artifact


def test_an_argument_new_does_not_take_is_invalid_params_and_writes_nothing(writer):
    error = writer.call("new", **NEW, sumary="a typo")["error"]
    assert error["code"] == -32602 and error["data"]["rejected_field"] == "sumary"
    assert "takes no argument `sumary`" in error["message"]
    assert not list((writer.root / "docs/decisions").glob("0004-*"))


def test_every_listed_schema_names_exactly_the_arguments_its_tool_reads(writer):
    tools = writer.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})["result"]["tools"]
    new = next(t for t in tools if t["name"] == "new")["inputSchema"]
    assert sorted(new["properties"]) == ["directory", "facets", "kind", "relates", "summary", "title"]
    assert new["additionalProperties"] is False


def test_a_write_after_the_overlay_moved_past_the_lock_is_refused_and_writes_nothing(writer):
    overlay = writer.root / ".headwater/overlay.yml"
    overlay.write_text(overlay.read_text().replace("decision_id.namespace: ACME", "decision_id.namespace: ZZZ"))
    for tool, arguments in (("new", NEW), ("fix", {"format": "json"})):
        error = writer.call(tool, **arguments)["error"]
        assert error["data"]["error_code"] == "write_refused", error
        assert "taxonomy.lock is stale: .headwater/overlay.yml changed since it was resolved" in error["message"]
    assert not list((writer.root / "docs/decisions").glob("0004-*"))
