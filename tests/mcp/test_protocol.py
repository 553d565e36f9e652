"""The JSON-RPC handler: what the SDK never sends, errors with structured data, the path rule."""

import json
import os

import pytest

from headwater.mcp.protocol import SUPPORTED
from headwater.reads.route.task import TASK_MOST

QS_DECISION = "docs/decisions/0002-deliver-at-least-once.md"


def test_a_line_that_is_not_json_gets_a_parse_error_with_a_null_id(session):
    response = session.raw(b"this is not json\n")
    assert response["id"] is None and response["error"]["code"] == -32700
    assert response["error"]["data"] == {"error_code": "invalid_argument", "retryability": "retry_with_changes"}


@pytest.mark.parametrize("line", [b"[1, 2]", b'"a string"', b"42", b"null"])
def test_a_json_value_that_is_not_an_object_is_an_invalid_request(session, line):
    response = session.raw(line)
    assert response["id"] is None and response["error"]["code"] == -32600


def test_notifications_and_blank_lines_get_no_answer(session):
    assert session.send({"jsonrpc": "2.0", "method": "notifications/initialized"}) is None
    assert session.send({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "route"}}) is None
    assert session.raw(b"   \n") is None


@pytest.mark.parametrize("response", [{"jsonrpc": "2.0", "id": 1, "result": {}},
                                      {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "?"}}])
def test_a_response_sent_to_the_server_gets_no_answer(session, response):
    assert session.send(response) is None
    assert session.send({"jsonrpc": "2.0", "id": 2, "method": "ping"}) == {"jsonrpc": "2.0", "id": 2, "result": {}}


@pytest.mark.parametrize("ident", ["abc", 7, 0, -3])
def test_ids_are_echoed_in_their_own_type(session, ident):
    assert session.send({"jsonrpc": "2.0", "id": ident, "method": "ping"}) == \
        {"jsonrpc": "2.0", "id": ident, "result": {}}


@pytest.mark.parametrize(("asked", "answered"), [("2024-11-05", "2024-11-05"), ("2025-06-18", "2025-06-18"),
                                                 ("1999-01-01", SUPPORTED[-1]), (None, SUPPORTED[-1])])
def test_initialize_negotiates_the_protocol_version(session, asked, answered):
    result = session.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                           "params": {"protocolVersion": asked}})["result"]
    assert result["protocolVersion"] == answered
    assert result["capabilities"] == {"tools": {"listChanged": False}}
    assert result["serverInfo"]["name"] == "headwater" and "route" in result["instructions"]


def _initialize(session, version: str) -> None:
    session.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": version}})


def test_under_2025_03_26_a_batch_is_answered_member_by_member_in_one_array(session):
    _initialize(session, "2025-03-26")
    answers = session.raw(json.dumps([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "r", "method": "tools/call",
         "params": {"name": "resolve_identifier", "arguments": {"id": "ACME-DR-0003"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "resources/list"},
        7,
    ]).encode())
    assert [answer["id"] for answer in answers] == [1, "r", 3, None]
    assert answers[0]["result"] == {}
    assert answers[1]["result"]["content"][0]["text"].startswith("docs/decisions/0003-")
    assert answers[2]["error"]["code"] == -32601 and answers[3]["error"]["code"] == -32600


def test_under_2025_03_26_a_batch_of_notifications_alone_gets_no_answer(session):
    _initialize(session, "2025-03-26")
    assert session.raw(json.dumps([{"jsonrpc": "2.0", "method": "notifications/initialized"},
                                   {"jsonrpc": "2.0", "method": "notifications/cancelled",
                                    "params": {"requestId": 1}}]).encode()) is None


def test_initialize_in_a_batch_is_refused_and_the_session_keeps_its_revision(session):
    _initialize(session, "2025-03-26")
    answers = session.raw(json.dumps([
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}},
        {"jsonrpc": "2.0", "id": 2, "method": "ping"}]).encode())
    assert answers[0]["error"]["code"] == -32600 and answers[0]["id"] == 1
    assert answers[1] == {"jsonrpc": "2.0", "id": 2, "result": {}}
    assert isinstance(session.raw(b'[{"jsonrpc": "2.0", "id": 3, "method": "ping"}]'), list)


@pytest.mark.parametrize("version", [None, "2024-11-05", "2025-06-18", "2025-11-25"])
def test_a_batch_outside_2025_03_26_is_one_invalid_request(session, version):
    if version:
        _initialize(session, version)
    answer = session.raw(b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]')
    assert answer["id"] is None and answer["error"]["code"] == -32600
    assert answer["error"]["message"].startswith("a JSON-RPC batch is read only under protocol 2025-03-26")
    assert (version or "has not been initialized") in answer["error"]["message"]


def test_an_empty_batch_is_one_invalid_request_whatever_the_revision(session):
    _initialize(session, "2025-03-26")
    answer = session.raw(b"[]")
    assert answer["id"] is None and answer["error"]["code"] == -32600


def test_tools_answer_before_any_initialize(session):
    assert session.text("resolve_identifier", id="ACME-DR-0001").startswith("docs/decisions/0001-")


def test_an_unknown_method_is_method_not_found(session):
    error = session.send({"jsonrpc": "2.0", "id": 1, "method": "resources/list"})["error"]
    assert error["code"] == -32601 and error["data"]["error_code"] == "invalid_argument"


def test_an_unknown_tool_names_what_is_registered(session):
    error = session.call("commit")["error"]
    assert error["code"] == -32602 and error["data"]["error_code"] == "unknown_tool"
    assert error["message"].startswith("`commit` is not a tool this server registers. It registers route, explain")


def test_a_missing_argument_names_the_tool_and_the_argument(session):
    error = session.call("route")["error"]
    assert error["message"] == "`route` takes `task`, and none was given"
    assert error["data"] == {"error_code": "missing_argument", "retryability": "retry_with_changes",
                             "rejected_field": "task"}


@pytest.mark.parametrize("arguments", ["add rate limiting", ["add rate limiting"], 7])
def test_arguments_that_are_not_an_object_are_invalid_not_missing(session, arguments):
    error = session.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                          "params": {"name": "route", "arguments": arguments}})["error"]
    assert error["code"] == -32602
    assert error["message"] == "`route` takes its arguments as an object of task, such as {\"task\": …}"
    assert error["data"] == {"error_code": "invalid_argument", "retryability": "retry_with_changes",
                             "rejected_field": "arguments"}


def test_a_format_outside_the_enum_is_refused(session):
    error = session.call("check", format="yaml")["error"]
    assert error["message"] == "`check` takes a format, one of text, json, sarif, markdown, github, concise"


def test_the_server_keeps_answering_after_errors(session):
    session.raw(b"{{{")
    session.call("nope")
    session.call("route")
    assert "ACME-DR-0003" in session.text("explain", target="ACME-DR-0003")


def test_a_defect_in_a_tool_is_an_internal_error_and_the_server_keeps_serving(session, monkeypatch):
    from headwater.mcp import tools

    tool = session.server.tools["related"]
    broken = type(tool)(**{**tool.__dict__, "run": lambda snapshot, args: 1 / 0})
    monkeypatch.setitem(session.server.tools, "related", broken)
    error = session.call("related", target="ACME-DR-0001")["error"]
    assert error["code"] == -32603 and error["data"]["error_code"] == "internal_error"
    assert session.text("explain", target="ACME-DR-0001")
    assert tools.READS  # the module's registry is untouched


def test_tools_list_has_seven_reads_in_order_with_annotations(session):
    listed = session.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})["result"]["tools"]
    assert [t["name"] for t in listed] == ["route", "explain", "related", "resolve_identifier",
                                           "governing_docs_for_path", "check", "kinds"]
    for tool in listed:
        assert tool["annotations"]["readOnlyHint"] is True and tool["title"]
        assert tool["annotations"]["destructiveHint"] is False
    with_schema = {t["name"] for t in listed if "outputSchema" in t}
    assert with_schema == {"route", "governing_docs_for_path", "kinds"}


def test_the_write_server_registers_new_and_fix_after_the_reads(writer):
    listed = writer.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})["result"]["tools"]
    assert [t["name"] for t in listed][-2:] == ["new", "fix"]
    assert listed[-1]["annotations"]["readOnlyHint"] is False


def test_fix_is_announced_as_destructive_since_its_patches_rewrite_what_an_author_wrote_and_new_as_additive(writer):
    listed = writer.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})["result"]["tools"]
    hints = {tool["name"]: tool["annotations"] for tool in listed}
    assert hints["fix"]["readOnlyHint"] is False and hints["fix"]["destructiveHint"] is True
    assert hints["new"]["readOnlyHint"] is False and hints["new"]["destructiveHint"] is False


@pytest.mark.parametrize("spelling", ["./" + QS_DECISION, "docs/x/../decisions/0002-deliver-at-least-once.md",
                                      "ABSOLUTE"])
@pytest.mark.parametrize("tool", ["explain", "related"])
def test_path_arguments_read_relative_to_the_root(session, spelling, tool):
    if spelling == "ABSOLUTE":
        spelling = str(session.root / QS_DECISION)
    assert session.text(tool, target=spelling) == session.text(tool, target=QS_DECISION)


@pytest.mark.parametrize("spelling", ["./src/queue/retry.py", "src/x/../queue/retry.py", "ABSOLUTE"])
def test_governing_reads_a_path_relative_to_the_root(session, spelling):
    if spelling == "ABSOLUTE":
        spelling = str(session.root / "src/queue/retry.py")
    plain = session.call("governing_docs_for_path", path="src/queue/retry.py")["result"]
    assert session.call("governing_docs_for_path", path=spelling)["result"]["structuredContent"] == \
        plain["structuredContent"]
    assert len(plain["structuredContent"]["pointers"]) == 2


@pytest.mark.parametrize("outside", ["../outside.md", "/etc/passwd", "LINK"])
def test_a_path_outside_the_repository_gets_the_outside_sentence(session, tmp_path, outside):
    if outside == "LINK":
        (tmp_path / "elsewhere").mkdir()
        os.symlink(tmp_path / "elsewhere", session.root / "src" / "out")
        outside = "src/out/x.py"
    sentence = f"{outside} is outside this repository, or is not a path it can read\n"
    assert session.text("explain", target=outside) == sentence
    assert session.text("related", target=outside) == sentence
    result = session.call("governing_docs_for_path", path=outside)["result"]
    assert result["content"][0]["text"] == sentence and result["isError"] is False
    assert result["structuredContent"] == {"pointers": []}


@pytest.mark.parametrize("blank", ["", " "])
def test_an_empty_path_is_refused_as_explain_refuses_an_empty_target_not_answered_for_no_path(session, blank):
    result = session.call("governing_docs_for_path", path=blank)["result"]
    assert result["isError"] is False and result["structuredContent"] == {"pointers": []}
    assert result["content"][0]["text"] == \
        "the path is empty: name a file or a directory by its path from the repository root\n"
    assert session.text("explain", target=blank) == \
        "the target is empty: name a document by its identifier or its path\n"


@pytest.mark.parametrize("blank", ["", "  "])
def test_a_blank_task_is_refused_as_the_command_line_refuses_it_not_routed_for_no_terms(session, hw, quickstart,
                                                                                         blank):
    error = session.call("route", task=blank)["error"]
    assert error["code"] == -32602 and error["data"]["error_code"] == "invalid_argument"
    assert error["data"]["rejected_field"] == "task"
    assert error["message"].startswith("`route` takes a task description, and `task` is empty")
    cli = hw("route", blank, "--root", str(quickstart))
    assert cli.status == 1 and cli.out == "" and "`route` takes a task description" in cli.err


def test_a_task_longer_than_route_reads_is_refused_in_one_short_sentence_on_both_surfaces(session, hw, quickstart):
    huge = "retry " * 20_000
    error = session.call("route", task=huge)["error"]
    assert error["code"] == -32602 and error["data"]["error_code"] == "invalid_argument"
    assert error["data"]["rejected_field"] == "task"
    sentence = "`route` reads a task of at most 10,000 characters, and this one has 120,000: give it in fewer words"
    assert error["message"] == sentence
    cli = hw("route", huge, "--root", str(quickstart))
    assert (cli.status, cli.out, cli.err) == (1, "", f"headwater: {sentence}\n")
    assert session.call("route", task="r" * TASK_MOST)["result"]["isError"] is False  # the bound itself is read
    tools = session.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})["result"]["tools"]
    task = next(t for t in tools if t["name"] == "route")["inputSchema"]["properties"]["task"]
    assert (task["minLength"], task["maxLength"]) == (1, TASK_MOST) and "at most 10,000" in task["description"]


@pytest.mark.parametrize(("tool", "arguments"), [
    ("resolve_identifier", {"id": "ACME-DR-" + "9" * 5000}),
    ("check", {"format": "text", "rules": ["q" * 5000]}),
    ("new", {"kind": "q" * 5000, "title": "x"}),
    ("new", {"kind": "decision", "title": "x", "relates": ["supersedes=ACME-DR-" + "9" * 5000]}),
    ("new", {"kind": "decision", "title": "x", "facets": ["q" * 5000 + "=1"]}),
], ids=lambda value: value if isinstance(value, str) else "".join(value)[:30])
def test_an_answer_or_refusal_quotes_a_long_argument_by_its_start(writer, tool, arguments):
    response = writer.call(tool, **arguments)
    said = response["error"]["message"] if "error" in response else \
        "".join(block["text"] for block in response["result"]["content"])
    assert "…" in said and len(said) < 400, said[:300]


def test_nothing_found_is_a_normal_answer(session):
    result = session.call("governing_docs_for_path", path="src/elsewhere.py")["result"]
    assert result["isError"] is False
    assert result["content"][0]["text"] == "no document governs src/elsewhere.py\n"
    assert session.text("resolve_identifier", id="ACME-DR-0404") == "no document carries ACME-DR-0404\n"


def test_kinds_answers_the_bytes_of_taxonomy_kinds(session, hw):
    for fmt, flags in (("text", []), ("json", ["--json"])):
        cli = hw("taxonomy", "kinds", *flags, "--root", str(session.root)).out
        result = session.call("kinds", format=fmt)["result"]
        assert result["content"][0]["text"] == cli
    import json

    assert result["structuredContent"] == json.loads(cli)


def test_the_check_tool_answers_a_summary_then_the_bytes_of_check_no_cache_at_the_session_date(session, hw):
    from headwater.render import FORMAT_NAMES

    for fmt in FORMAT_NAMES:
        cli = hw("check", "--format", fmt, "--no-cache", "--now", "2026-11-01", "--root", str(session.root))
        summary, report = (b["text"] for b in session.call("check", format=fmt)["result"]["content"])
        assert summary == "Over 5 documents: 0 findings.\n"
        assert report == cli.out, fmt


def test_the_check_tool_reads_the_verdicts_a_check_kept_writes_none_and_judges_a_session_once(quickstart, hw,
                                                                                              monkeypatch):
    from headwater.check import runner
    from tests.mcp.mcp_session import Session

    assert hw("check", "--now", "2026-11-01", "--root", str(quickstart)).status == 0  # keeps its verdicts
    cli = hw("check", "--format", "json", "--no-cache", "--now", "2026-11-01", "--root", str(quickstart)).out
    kept = {p.name: p.read_bytes() for p in (quickstart / ".headwater/cache").iterdir() if p.is_file()}
    ledgers = []
    original = runner.run

    def counted(snapshot, **how):
        ledgers.append(how["cache"])
        return original(snapshot, **how)

    monkeypatch.setattr(runner, "run", counted)
    session = Session(quickstart)
    for _ in range(2):
        assert session.call("check", format="json")["result"]["content"][1]["text"] == cli
    [ledger] = ledgers  # the session's snapshot judged once
    assert ledger.hits > 0 and ledger.misses == 0  # every verdict served from what check kept
    assert {p.name: p.read_bytes() for p in (quickstart / ".headwater/cache").iterdir() if p.is_file()} == kept


def test_the_explain_text_block_is_never_folded(session, hw):
    cli = hw("explain", QS_DECISION, "--root", str(session.server.snapshot.root)).out
    text = session.text("explain", target=QS_DECISION)
    assert max(map(len, cli.splitlines())) <= 80 < max(map(len, text.splitlines()))
    assert " ".join(text.split()) == " ".join(cli.split())  # the same words, laid out unfolded
