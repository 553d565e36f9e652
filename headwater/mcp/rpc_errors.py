"""JSON-RPC errors with a structured `data` a client can switch on, never on message text."""

from __future__ import annotations

from enum import Enum

from headwater.frozen import frozen

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_ERROR = -32000


class ErrorCode(Enum):
    MISSING_ARGUMENT = "missing_argument"
    UNKNOWN_TOOL = "unknown_tool"
    INVALID_ARGUMENT = "invalid_argument"
    SERVER_SPENT = "server_spent"
    WRITE_REFUSED = "write_refused"
    INTERNAL_ERROR = "internal_error"


class Retry(Enum):
    SAFE = "retry_safe"
    WITH_CHANGES = "retry_with_changes"
    FATAL = "fatal"


@frozen
class RpcError(Exception):
    code: int
    message: str
    error_code: ErrorCode
    retryability: Retry
    rejected_field: str | None = None
    hint: str | None = None

    def as_json(self) -> dict:
        data = {"error_code": self.error_code.value, "retryability": self.retryability.value}
        if self.rejected_field:
            data["rejected_field"] = self.rejected_field
        if self.hint:
            data["hint"] = self.hint
        return {"code": self.code, "message": self.message, "data": data}


def invalid(message: str, field: str | None = None, hint: str | None = None) -> RpcError:
    return RpcError(INVALID_PARAMS, message, ErrorCode.INVALID_ARGUMENT, Retry.WITH_CHANGES, field, hint)
