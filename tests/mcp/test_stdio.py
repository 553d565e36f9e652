"""The real transport: a `headwater mcp` process driven by the official SDK client and raw lines."""

import datetime as dt
import io
import json
import subprocess
import sys
from pathlib import Path

import anyio
import jsonschema
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

DATE = "2026-11-01"
HEADWATER = [sys.executable, "-m", "headwater"]


def spawn(root: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([*HEADWATER, "mcp", "--root", str(root), "--now", DATE, *extra],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def exchange(root: Path, lines: list[bytes], *extra: str) -> tuple[list[dict], bytes, int]:
    process = spawn(root, *extra)
    out, err = process.communicate(b"".join(line + b"\n" for line in lines), timeout=60)
    return [json.loads(line) for line in out.splitlines()], err, process.returncode


def test_the_sdk_client_initializes_lists_and_calls_every_tool(quickstart, hw):
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "headwater", "mcp", "--root", str(quickstart), "--now", DATE])

    async def session() -> dict:
        seen: dict = {}
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            seen["init"] = await client.initialize()
            seen["tools"] = (await client.list_tools()).tools
            calls = {
                "route": {"task": "why do we keep delivery attempts in postgres"},
                "explain": {"target": "ACME-DR-0002"},
                "related": {"target": "ACME-DR-0002"},
                "resolve_identifier": {"id": "ACME-DR-0001"},
                "governing_docs_for_path": {"path": "src/queue/retry.py"},
                "check": {"format": "json"},
                "kinds": {"format": "json"},
            }
            seen["calls"] = {name: await client.call_tool(name, args) for name, args in calls.items()}
        return seen

    seen = anyio.run(session)
    assert seen["init"].server_info.name == "headwater"
    assert [tool.name for tool in seen["tools"]] == ["route", "explain", "related", "resolve_identifier",
                                                     "governing_docs_for_path", "check", "kinds"]
    for tool in seen["tools"]:
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        if tool.output_schema:
            jsonschema.Draft202012Validator.check_schema(tool.output_schema)
    for name, result in seen["calls"].items():
        assert result.is_error is False, name
        assert result.content and result.content[0].text.endswith("\n"), name
    route_json = json.loads(hw("route", "why do we keep delivery attempts in postgres", "--json",
                               "--root", str(quickstart)).out)
    route_json.pop("text")
    assert seen["calls"]["route"].structured_content == route_json


def test_raw_lines_get_their_answers_and_stdin_eof_exits_zero(quickstart):
    responses, err, status = exchange(quickstart, [
        b"not json",
        b"[]",
        b'{"jsonrpc":"2.0","method":"notifications/initialized"}',
        b'{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"resolve_identifier","arguments":{"id":"ACME-DR-0003"}}}',
        b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"kinds","arguments":{}}}',
        b'{"jsonrpc":"2.0","id":10,"method":"ping"}',
    ])
    assert status == 0 and err == b""
    assert [r.get("id") for r in responses] == [None, None, "s", 9, 10]
    assert responses[0]["error"]["code"] == -32700 and responses[1]["error"]["code"] == -32600
    assert responses[2]["result"]["content"][0]["text"].startswith("docs/decisions/0003-")
    assert responses[3]["error"]["message"] == "`kinds` takes `format`, and none was given"


def test_a_missing_lock_stops_the_server_before_it_reads_a_message(quickstart):
    (quickstart / ".headwater/taxonomy.lock").unlink()
    responses, err, status = exchange(quickstart, [b'{"jsonrpc":"2.0","id":1,"method":"ping"}'])
    assert status == 1 and responses == []
    assert err.decode().count("\n") == 1 and "headwater taxonomy resolve" in err.decode()


def test_the_server_refuses_wide_and_a_bad_date_before_starting(quickstart):
    for extra in (["--wide"], ["--now", "2026-02-30"]):
        process = subprocess.run([*HEADWATER, "mcp", "--root", str(quickstart), *extra],
                                 input=b"", capture_output=True)
        assert process.returncode == 1 and process.stdout == b""


class _Trickle(io.RawIOBase):
    """A raw stdout (as `python -u` has) that takes at most seven bytes per write."""

    def __init__(self) -> None:
        self.taken = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.taken += bytes(data[:7])
        return min(7, len(data))


def test_a_raw_stdout_that_takes_part_of_a_write_still_gets_every_whole_line(quickstart):
    from headwater.cli.verb_mcp import serve
    from headwater.mcp.protocol import Server
    from headwater.snapshot import load

    server = Server(load(quickstart, dt.date(2026, 11, 1)), write=False)
    requests = [{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                 "params": {"name": "explain", "arguments": {"target": "ACME-DR-0002"}}},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
    sink = _Trickle()
    serve(server, io.BytesIO(b"".join(json.dumps(r).encode() + b"\n" for r in requests)), sink)
    answers = [json.loads(line) for line in bytes(sink.taken).splitlines()]
    assert [answer["id"] for answer in answers] == [1, 2]
    assert "ACME-DR-0002" in answers[0]["result"]["content"][0]["text"]
    assert answers[1]["result"]["tools"]
