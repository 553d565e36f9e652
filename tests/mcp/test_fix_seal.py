"""The MCP `fix` tool: the batch of `check --fix`, and the seal a landed write sets."""

from __future__ import annotations

import io
import json
import os
import signal

import pytest

from tests.mcp.mcp_session import Session

FIRST = "docs/decisions/0001-store-attempts-in-postgres.md"
FAR_HALF = "relations:\n  superseded_by:\n    - ACME-DR-0002\n"


@pytest.fixture
def broken(quickstart):
    """The quickstart with one far half lost, so one mechanical patch is owed."""
    target = quickstart / FIRST
    target.write_text(target.read_text().replace(FAR_HALF, ""))
    return quickstart


def test_a_fix_that_lands_answers_the_report_after_the_writes_and_spends_the_server(broken, hw):
    writer = Session(broken, write=True)
    result = writer.call("fix", format="text")["result"]
    account, report = (block["text"] for block in result["content"])
    assert result["isError"] is False
    assert account == f"headwater: fixed {FIRST} (1 patch)\n"
    assert FAR_HALF in (broken / FIRST).read_text()
    assert report == hw("check", "--root", str(broken), "--now", "2026-11-01", "--no-cache").out
    error = writer.call("route", task="why postgres")["error"]
    assert error["data"]["error_code"] == "server_spent"


def test_a_fix_with_nothing_to_patch_writes_nothing_and_does_not_spend(quickstart, hw):
    writer = Session(quickstart, write=True)
    result = writer.call("fix", format="json")["result"]
    expected = hw("check", "--root", str(quickstart), "--now", "2026-11-01", "--no-cache", "--json").out
    assert [block["text"] for block in result["content"]] == [expected]  # no account: nothing was written
    assert writer.text("resolve_identifier", id="ACME-DR-0001").startswith("docs/")


def test_a_refused_fix_writes_nothing_and_does_not_spend(broken):
    writer = Session(broken, write=True)
    target = broken / FIRST
    target.write_text(target.read_text() + "\nEdited after the server read the corpus.\n")
    kept = target.read_bytes()
    error = writer.call("fix", format="text")["error"]
    assert error["data"]["error_code"] == "write_refused"
    assert error["message"].startswith("nothing was written. ") and FIRST in error["message"]
    assert target.read_bytes() == kept
    assert writer.text("resolve_identifier", id="ACME-DR-0001").startswith("docs/")


class _Ended(Exception):
    """What the test's own SIGTERM handler raises, where the default would end the process."""


def test_a_sigterm_that_cuts_a_fix_short_is_answered_then_ends_the_server(broken, monkeypatch):
    from headwater.check import fix
    from headwater.cli.verb_mcp import serve

    def signalled(*args, **kwargs):  # the signal arrives as the batch is about to write
        os.kill(os.getpid(), signal.SIGTERM)
        return real(*args, **kwargs)

    def ended(number, frame):
        raise _Ended

    real = fix.write
    monkeypatch.setattr(fix, "write", signalled)
    server = Session(broken, write=True).server
    calls = [{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
              "params": {"name": "fix", "arguments": {"format": "text"}}},
             {"jsonrpc": "2.0", "id": 2, "method": "ping"}]
    sink = io.BytesIO()
    before = signal.signal(signal.SIGTERM, ended)
    try:
        with pytest.raises(_Ended):
            serve(server, io.BytesIO(b"".join(json.dumps(c).encode() + b"\n" for c in calls)), sink)
    finally:
        signal.signal(signal.SIGTERM, before)
    answers = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [answer["id"] for answer in answers] == [1]  # the ping after it is never read
    assert answers[0]["error"]["data"]["error_code"] == "write_refused"
    assert "interrupted (SIGTERM)" in answers[0]["error"]["message"]
    assert FAR_HALF not in (broken / FIRST).read_text()
