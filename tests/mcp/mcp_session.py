"""An in-process MCP server over a temporary copy of a fixture, driven line by line: a module of
its own, so `from tests.mcp.mcp_session import Session` names it whichever test folders run."""

from __future__ import annotations

import json

from headwater.clock import run_date
from headwater.mcp.protocol import Server
from headwater.snapshot import load

DATE = "2026-11-01"


class Session:
    def __init__(self, root, write: bool = False) -> None:
        self.root = root
        self.server = Server(load(root, run_date(DATE)), write=write)
        self.next_id = 0

    def send(self, message) -> dict | None:
        line = self.server.handle_line(json.dumps(message).encode())
        return None if line is None else json.loads(line)

    def raw(self, text: bytes) -> dict | None:
        line = self.server.handle_line(text)
        return None if line is None else json.loads(line)

    def call(self, tool: str, **arguments) -> dict:
        self.next_id += 1
        return self.send({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
                          "params": {"name": tool, "arguments": arguments}})

    def text(self, tool: str, **arguments) -> str:
        response = self.call(tool, **arguments)
        assert "result" in response, response
        return "".join(block["text"] for block in response["result"]["content"])
