"""One measurement in a fresh process, so `RUSAGE_CHILDREN` holds exactly one child's peak.

    python measure.py run <cwd> <timeout> -- <argv...> → {"wall", "cpu", "maxrss_kb", "status", "stderr"}
    python measure.py mcp <root> <headwater> <calls> → {"first_answer", "per_call", "maxrss_kb", ...}

`run` times a whole process (interpreter start included) from spawn to exit. `mcp` spawns
`headwater mcp`, times spawn → the first `route` answer, then times `calls` further route
calls in the same session one by one. Prints one JSON object on stdout.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

TASKS = (
    "add rate limiting to the ingest service",
    "change how the billing service stores each invoice line",
    "why does the queue retry a delivery attempt",
    "how do I configure the audit record retention",
    "what must the search index do when a region is unreachable",
    "fix the session token expiry in the identity service",
    "what options exist for the export batch size",
    "how is a webhook signature validated",
    "add a tenant quota check to uploads",
    "what decision settled the ledger entry ordering",
)


def peak_kb() -> int:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # kilobytes on Linux


def cpu_seconds() -> float:
    """User and system CPU of the child and the workers it waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(cwd: str, timeout: float, argv: list[str]) -> dict:
    started = time.perf_counter()
    try:
        done = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"timed_out": timeout, "maxrss_kb": peak_kb()}
    wall = time.perf_counter() - started
    return {"wall": wall, "cpu": cpu_seconds(), "maxrss_kb": peak_kb(), "status": done.returncode,
            "stderr": done.stderr.decode("utf-8", "replace")[-2000:]}


def _send(process, message: dict) -> None:
    process.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
    process.stdin.flush()


def _answer(process, ident: int) -> dict:
    while True:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError("the server closed its output before answering")
        message = json.loads(line)
        if message.get("id") == ident:
            return message


def _route(process, ident: int, task: str) -> dict:
    _send(process, {"jsonrpc": "2.0", "id": ident, "method": "tools/call",
                    "params": {"name": "route", "arguments": {"task": task}}})
    return _answer(process, ident)


def mcp(root: str, headwater: str, calls: int) -> dict:
    started = time.perf_counter()
    process = subprocess.Popen([headwater, "mcp", "--root", root], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _send(process, {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                               "clientInfo": {"name": "headwater-benchmark", "version": "1"}}})
    _answer(process, 0)
    _send(process, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    first = _route(process, 1, TASKS[0])
    first_answer = time.perf_counter() - started
    per_call = []
    for ident in range(2, calls + 2):
        began = time.perf_counter()
        answer = _route(process, ident, TASKS[ident % len(TASKS)])
        per_call.append(time.perf_counter() - began)
        if "error" in answer:
            raise RuntimeError(f"route answered an error: {answer['error']}")
    process.stdin.close()
    process.wait(timeout=60)
    stderr = process.stderr.read().decode("utf-8", "replace")
    return {"first_answer": first_answer, "per_call": per_call, "maxrss_kb": peak_kb(),
            "status": process.returncode, "first_is_error": "error" in first, "stderr": stderr[-2000:]}


def main(argv: list[str]) -> int:
    if argv[0] == "run":
        cwd, timeout, separator, *command = argv[1:]
        if separator != "--":
            raise SystemExit("usage: measure.py run <cwd> <timeout> -- <argv...>")
        result = run(cwd, float(timeout), command)
    elif argv[0] == "mcp":
        result = mcp(argv[1], argv[2], int(argv[3]))
    else:
        raise SystemExit(f"measure.py: unknown mode {argv[0]!r}")
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
