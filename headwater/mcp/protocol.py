"""The JSON-RPC 2.0 message handler: one message in, one response (or none) out.

Pure over the snapshot it was given, so it can be driven line by line by tests and by the
stdio loop alike. It never raises: a defect in a tool is answered with -32603 and the server
keeps serving.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from headwater import __version__, writelock
from headwater.errors import ArgumentRefused, Refusal
from headwater.jsonout import prune
from headwater.mcp.rpc_errors import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    SERVER_ERROR,
    ErrorCode,
    Retry,
    RpcError,
    invalid,
)
from headwater.mcp.tools import Outcome, Tool, registered
from headwater.paths import is_text
from headwater.snapshot import Snapshot

SUPPORTED = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
BATCHING = "2025-03-26"  # the one revision whose servers must read JSON-RPC batches (2025-06-18 removed them)
INSTRUCTIONS = (
    "headwater answers from the governed documentation of this repository. Before a task, call "
    "`route` with the task in your own words; then `explain` a pointer you will rely on. "
    "`governing_docs_for_path` names the documents that govern a file you are about to change. "
    "structuredContent is the machine contract; text blocks are for display."
)
MAX_LINE = 16 * 1024 * 1024


class Server:
    def __init__(self, snapshot: Snapshot, write: bool = False) -> None:
        self.snapshot = snapshot
        self.tools = {tool.name: tool for tool in registered(write)}
        self.write = write
        self.spent_by: str | None = None
        self.protocol: str | None = None  # the revision the last initialize settled on
        self.interrupted: int | None = None  # a signal that cut a write short: it ends the server once answered
        self.pending: list[Callable[[], None]] = []  # what the tools left for after their answers

    # -- lines ---------------------------------------------------------------------------

    def handle_line(self, line: bytes) -> str | None:
        """One input line → one response line (without newline), or None."""
        if not line.strip():
            return None
        if len(line) > MAX_LINE:
            return _error_line(None, RpcError(INVALID_REQUEST, "a message longer than 16 MiB is not read",
                                              ErrorCode.INVALID_ARGUMENT, Retry.WITH_CHANGES))
        try:
            message = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return _error_line(None, RpcError(PARSE_ERROR, "the line is not a JSON object",
                                              ErrorCode.INVALID_ARGUMENT, Retry.WITH_CHANGES))
        if isinstance(message, list) and message:
            return self.handle_batch(message)
        response = self.handle_text(message)
        return None if response is None else _line(response)

    def handle_batch(self, batch: list) -> str | None:
        """A JSON-RPC batch: under 2025-03-26 each member is answered in turn (notifications not
        at all) and the answers go out as one array; no other revision has batches."""
        if self.protocol != BATCHING:
            return _error_line(None, RpcError(
                INVALID_REQUEST, f"a JSON-RPC batch is read only under protocol {BATCHING}, and this session "
                + (f"speaks {self.protocol}" if self.protocol else "has not been initialized")
                + ": send one message per line", ErrorCode.INVALID_ARGUMENT, Retry.WITH_CHANGES))
        answers = [self.in_batch(member) for member in batch]
        answered = [answer for answer in answers if answer is not None]
        return _line(answered) if answered else None

    def in_batch(self, member: Any) -> dict | None:
        if isinstance(member, dict) and member.get("method") == "initialize" and _valid_id(member.get("id")):
            return _error(member["id"], RpcError(
                INVALID_REQUEST, "`initialize` is never part of a batch: send it alone",
                ErrorCode.INVALID_ARGUMENT, Retry.WITH_CHANGES, "method"))
        return self.handle_text(member)

    def handle_text(self, message: Any) -> dict | None:
        """One message, answered once every string in it is Unicode text."""
        if not _all_text(message):
            ident = message.get("id") if isinstance(message, dict) else None
            return _error(ident if _valid_id(ident) else None, RpcError(
                INVALID_REQUEST, "a string in the message holds a lone surrogate, which is not Unicode text",
                ErrorCode.INVALID_ARGUMENT, Retry.WITH_CHANGES))
        return self.handle(message)

    # -- messages ------------------------------------------------------------------------

    def handle(self, message: Any) -> dict | None:
        if not isinstance(message, dict):
            return _error(None, RpcError(INVALID_REQUEST, "a request is a JSON object",
                                         ErrorCode.INVALID_ARGUMENT, Retry.WITH_CHANGES))
        if "id" not in message:
            return None  # a notification: never answered, never executed
        if "method" not in message and ("result" in message or "error" in message):
            return None  # a response: this server asks nothing, and answering one could echo back and forth
        ident = message["id"]
        if not _valid_id(ident):
            return _error(None, RpcError(INVALID_REQUEST, "`id` must be a string or an integer",
                                         ErrorCode.INVALID_ARGUMENT, Retry.WITH_CHANGES, "id"))
        method = message.get("method")
        if message.get("jsonrpc") != "2.0" or not isinstance(method, str):
            return _error(ident, RpcError(INVALID_REQUEST, "a request carries `jsonrpc: \"2.0\"` and a `method`",
                                          ErrorCode.INVALID_ARGUMENT, Retry.WITH_CHANGES, "method"))
        try:
            return {"jsonrpc": "2.0", "id": ident, "result": self.dispatch(method, message.get("params"))}
        except RpcError as error:
            return _error(ident, error)
        except Exception as error:  # noqa: BLE001 — a defect is answered, and the server keeps serving
            return _error(ident, RpcError(INTERNAL_ERROR, f"internal defect ({type(error).__name__}: {error})",
                                          ErrorCode.INTERNAL_ERROR, Retry.FATAL))

    def dispatch(self, method: str, params: Any) -> dict:
        if method == "initialize":
            return self.initialize(params)
        if method == "ping":
            return {}
        if method == "tools/list":
            return {"tools": [tool.listing() for tool in self.tools.values()]}
        if method == "tools/call":
            return self.call(params)
        raise RpcError(METHOD_NOT_FOUND, f"`{method}` is not a method this server implements",
                       ErrorCode.INVALID_ARGUMENT, Retry.FATAL, "method")

    def initialize(self, params: Any) -> dict:
        asked = params.get("protocolVersion") if isinstance(params, dict) else None
        self.protocol = asked if asked in SUPPORTED else SUPPORTED[-1]
        return {
            "protocolVersion": self.protocol,
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "headwater", "version": __version__},
            "instructions": INSTRUCTIONS,
        }

    # -- tools ---------------------------------------------------------------------------

    def call(self, params: Any) -> dict:
        if not isinstance(params, dict) or not isinstance(params.get("name"), str):
            raise RpcError(INVALID_PARAMS, "a call names a tool (`name`) and its `arguments`",
                           ErrorCode.MISSING_ARGUMENT, Retry.WITH_CHANGES, "name")
        tool = self.tools.get(params["name"])
        if tool is None:
            raise self.unknown_tool(params["name"])
        if self.spent_by:
            raise RpcError(SERVER_ERROR,
                           f"this server walked the corpus once, and `{self.spent_by}` then moved a byte of "
                           "that tree, so any answer would describe a tree that is gone. Start another server",
                           ErrorCode.SERVER_SPENT, Retry.FATAL,
                           hint="start a new `headwater mcp` process")
        arguments = _arguments(tool, params.get("arguments"))
        try:
            outcome = tool.run(self.snapshot, arguments)
        except ArgumentRefused as refusal:  # one argument refused, named as this tool names it
            raise invalid(("nothing was written. " if tool.writes else "") + refusal.sentence, refusal.field) from None
        except Refusal as refusal:
            if isinstance(refusal, writelock.Interrupted):  # what it wrote was put back; answered, then it ends
                self.interrupted = refusal.number
            raise RpcError(INVALID_PARAMS if tool.name == "new" else SERVER_ERROR,
                           f"nothing was written. {refusal.sentence}", ErrorCode.WRITE_REFUSED,
                           Retry.WITH_CHANGES) from None
        if outcome.landed:
            self.spent_by = tool.name
        if outcome.after is not None:
            self.pending.append(outcome.after)
        return _result(outcome)

    def settle(self) -> None:
        """Run what the tools left for after their answer (keeping what a later server reads
        back), once the answer is written: the agent does not wait for it."""
        while self.pending:
            self.pending.pop(0)()

    def unknown_tool(self, name: str) -> RpcError:
        names = ", ".join(self.tools)
        tail = ("" if self.write else
                "; `--write` would register `new` and `fix`, and no switch registers commit, push or merge")
        return RpcError(INVALID_PARAMS, f"`{name}` is not a tool this server registers. It registers {names}{tail}",
                        ErrorCode.UNKNOWN_TOOL, Retry.WITH_CHANGES, "name")


def _all_text(message: Any) -> bool:
    """Whether every string in the message (keys included) is Unicode text: JSON's `\\ud800`
    escapes decode to lone surrogates, which no tool can read and no answer can encode."""
    pending = [message]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            pending += [*value.keys(), *value.values()]
        elif isinstance(value, list):
            pending += value
        elif isinstance(value, str) and not is_text(value):
            return False
    return True


def _valid_id(ident: Any) -> bool:
    return isinstance(ident, str) or (isinstance(ident, int) and not isinstance(ident, bool))


def _arguments(tool: Tool, raw: Any) -> dict:
    names = [argument.name for argument in tool.arguments]
    if raw is not None and not isinstance(raw, dict):  # `"arguments": "add rate limiting"` gave one, in no shape
        raise invalid(f"`{tool.name}` takes its arguments as an object of {', '.join(names)}, "
                      f"such as {{\"{names[0]}\": …}}", "arguments")
    given = raw or {}
    unknown = sorted(name for name in given if name not in names)
    if unknown:  # the schema says additionalProperties: false, so an argument is never silently dropped
        raise invalid(f"`{tool.name}` takes no argument `{unknown[0]}`; it takes {', '.join(names)}", unknown[0])
    out: dict = {}
    for argument in tool.arguments:
        value = given.get(argument.name)
        if value is None:
            if argument.required:
                raise RpcError(INVALID_PARAMS, f"`{tool.name}` takes `{argument.name}`, and none was given",
                               ErrorCode.MISSING_ARGUMENT, Retry.WITH_CHANGES, argument.name)
            out[argument.name] = [] if argument.array else None
            continue
        if argument.integer:
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise invalid(f"`{tool.name}` takes `{argument.name}` as a whole number, 0 or more", argument.name)
        elif argument.array:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise invalid(f"`{tool.name}` takes `{argument.name}` as an array of strings, "
                              f"such as {argument.example}", argument.name)
        elif not isinstance(value, str):
            raise invalid(f"`{tool.name}` takes `{argument.name}` as a string", argument.name)
        elif argument.enum and value not in argument.enum:
            raise invalid(f"`{tool.name}` takes a {argument.name}, one of {', '.join(argument.enum)}",
                          argument.name)
        out[argument.name] = value
    return out


def _result(outcome: Outcome) -> dict:
    result: dict = {"content": [{"type": "text", "text": block} for block in outcome.blocks if block],
                    "isError": outcome.is_error}
    if outcome.structured is not None:
        result["structuredContent"] = prune(outcome.structured)
    return result


def _error(ident: Any, error: RpcError) -> dict:
    return {"jsonrpc": "2.0", "id": ident, "error": error.as_json()}


def _error_line(ident: Any, error: RpcError) -> str:
    return _line(_error(ident, error))


def _line(response: dict | list[dict]) -> str:
    """Compact JSON on one line; the envelope keeps `id: null` where JSON-RPC asks for it. Text that
    UTF-8 cannot carry (an echoed lone surrogate) goes out as `\\u` escapes: always an answer."""
    text = json.dumps(response, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(response, ensure_ascii=True, separators=(",", ":"))
    return text
