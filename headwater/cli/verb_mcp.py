"""`headwater mcp`: take the snapshot, then serve line-delimited JSON-RPC on stdin/stdout."""

from __future__ import annotations

import signal
import sys

from headwater.cli.output import Result, write_whole
from headwater.clock import run_date
from headwater.errors import Refusal
from headwater.mcp.protocol import MAX_LINE, Server
from headwater.snapshot import load


def run(invocation) -> Result:
    today = run_date(invocation.args.now)
    server = Server(load(invocation.root, today), write=invocation.args.write)
    serve(server, sys.stdin.buffer, sys.stdout.buffer)
    return Result()


def serve(server: Server, stdin, stdout) -> None:
    while True:
        line = stdin.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            _drain(stdin)
        response = server.handle_line(line)
        if response is None:
            continue
        try:
            write_whole(stdout, response.encode("utf-8") + b"\n")
        except OSError as error:
            raise Refusal(f"cannot write to standard output ({error.strerror or error})") from None
        if server.interrupted:  # the call it cut short is answered; now the signal ends the server, as when idle
            signal.raise_signal(server.interrupted)
        server.settle()


def _drain(stdin) -> None:
    """Skip the rest of an over-long line, so the next message starts clean."""
    while True:
        chunk = stdin.readline(MAX_LINE)
        if not chunk or chunk.endswith(b"\n"):
            return
