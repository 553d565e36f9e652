"""The server never dies on input, and a long session stays correct with flat memory."""

import json
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DATE = "2026-11-01"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
requests = st.fixed_dictionaries(
    {"jsonrpc": st.sampled_from(["2.0", "1.0", 2]),
     "method": st.sampled_from(["initialize", "ping", "tools/list", "tools/call", "nope"]) | json_values},
    optional={"id": st.integers() | st.text(max_size=5) | json_values, "params": json_values | st.fixed_dictionaries(
        {"name": st.sampled_from(["route", "explain", "related", "resolve_identifier",
                                  "governing_docs_for_path", "check", "kinds", "new"]) | json_values,
         "arguments": json_values | st.dictionaries(
             st.sampled_from(["task", "target", "id", "path", "format"]), json_values | st.text(max_size=30),
             max_size=3)})},
)


def well_formed(response, message) -> None:
    if response is None:  # a notification, or a response (no method, a result or an error)
        assert isinstance(message, dict)
        assert "id" not in message or ("method" not in message and ("result" in message or "error" in message))
        return
    assert response["jsonrpc"] == "2.0" and "id" in response
    assert ("result" in response) != ("error" in response)
    if "error" in response:
        error = response["error"]
        assert isinstance(error["code"], int) and error["message"]
        assert error["data"]["error_code"] in ("missing_argument", "unknown_tool", "invalid_argument",
                                               "server_spent", "write_refused", "internal_error")
        assert error["data"]["retryability"] in ("retry_safe", "retry_with_changes", "fatal")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(message=json_values | requests)
def test_any_json_value_gets_a_well_formed_answer_or_none(session, message):
    response = session.send(message)
    well_formed(response, message)
    assert response is None or response.get("error", {}).get("code") != -32603, response
    assert session.send({"jsonrpc": "2.0", "id": 1, "method": "ping"})["result"] == {}


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(json_values | requests, min_size=1, max_size=5))
def test_any_batch_under_2025_03_26_gets_one_well_formed_answer_per_request_or_none(session, batch):
    session.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-03-26"}})
    answers = session.raw(json.dumps(batch).encode())
    if answers is None:
        for member in batch:
            well_formed(None, member)
        return
    assert isinstance(answers, list) and answers
    for answer in answers:
        assert answer["jsonrpc"] == "2.0" and "id" in answer and ("result" in answer) != ("error" in answer)
        assert answer.get("error", {}).get("code") != -32603, answer


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=st.binary(max_size=200))
def test_any_bytes_get_a_well_formed_answer_or_none(session, line):
    response = session.raw(line)
    if response is not None:
        assert response["jsonrpc"] == "2.0" and ("error" in response or "result" in response)
    assert session.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})["result"] == {}


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def test_five_thousand_calls_stay_correct_and_memory_stays_flat(quickstart):
    process = subprocess.Popen([sys.executable, "-m", "headwater", "mcp", "--root", str(quickstart), "--now", DATE],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    calls = [("resolve_identifier", {"id": "ACME-DR-0002"}, "docs/decisions/0002-"),
             ("governing_docs_for_path", {"path": "src/ingest/api.py"}, "docs/specifications/ingest-api.md"),
             ("related", {"target": "ACME-SPEC-0001"}, "to src/queue/backoff.py, src/queue/retry.py governs"),
             ("route", {"task": "why do we keep delivery attempts in postgres"}, "route \"why")]
    rss = []
    try:
        for index in range(5000):
            name, arguments, expected = calls[index % len(calls)]
            request = {"jsonrpc": "2.0", "id": index, "method": "tools/call",
                       "params": {"name": name, "arguments": arguments}}
            process.stdin.write(json.dumps(request).encode() + b"\n")
            process.stdin.flush()
            response = json.loads(process.stdout.readline())
            assert response["id"] == index and expected in response["result"]["content"][0]["text"]
            if index in (999, 4999):
                rss.append(_rss_kib(process.pid))
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    assert process.returncode == 0
    growth = rss[1] - rss[0]
    print(f"mcp soak: RSS {rss[0]} KiB after 1,000 calls, {rss[1]} KiB after 5,000 (+{growth} KiB)")
    assert growth < 8 * 1024, f"memory grew by {growth} KiB over 4,000 calls"


# Any Unicode, lone surrogates included (JSON's `\ud800` escapes decode to them).
# Surrogates are drawn as often as everything else together, or they would hardly ever be drawn.
any_text = st.text(st.characters(exclude_categories=()) | st.characters(categories=["Cs"]), max_size=12)


def answered_in_utf8(session, message) -> dict:
    """The answer line as the stdio loop writes it: it must encode to UTF-8 and parse back."""
    line = session.server.handle_line(json.dumps(message).encode())
    assert line is not None
    return json.loads(line.encode("utf-8"))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ident=any_text, method=any_text | st.just("tools/call"), name=any_text | st.sampled_from(
    ["route", "explain", "related", "governing_docs_for_path"]), argument=any_text)
def test_any_unicode_in_any_field_gets_an_answer_and_the_server_keeps_serving(session, ident, method, name,
                                                                             argument):
    message = {"jsonrpc": "2.0", "id": ident, "method": method,
               "params": {"name": name, "arguments": {"task": argument, "target": argument, "path": argument}}}
    response = answered_in_utf8(session, message)
    well_formed(response, message)
    assert response["id"] in (ident, None)
    assert response.get("error", {}).get("code") != -32603, response
    assert answered_in_utf8(session, {"jsonrpc": "2.0", "id": 1, "method": "ping"})["result"] == {}


def test_a_lone_surrogate_over_stdio_is_answered_and_the_session_goes_on(quickstart):
    lines = [r'{"jsonrpc":"2.0","id":"\ud800","method":"ping"}',
             r'{"jsonrpc":"2.0","id":2,"method":"\ud800"}',
             r'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"\udfff","arguments":{}}}',
             r'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"route","arguments":{"task":"a\ud800"}}}',
             '{"jsonrpc":"2.0","id":5,"method":"ping"}']
    ran = subprocess.run([sys.executable, "-m", "headwater", "mcp", "--root", str(quickstart)],
                         input=("\n".join(lines) + "\n").encode(), capture_output=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    answers = [json.loads(line) for line in ran.stdout.decode("utf-8").splitlines()]
    assert [a["id"] for a in answers] == ["\ud800", 2, 3, 4, 5]
    assert all("error" in a for a in answers[:4]) and answers[4]["result"] == {}
