"""`related` and `resolve`: the MCP tools' reads on the command line, over the same functions.

The text is the tool's answer byte for byte; `--json` prints its `structuredContent`. A read the
tool answers with a refusal sentence is a refusal here (stderr, exit 1).
"""

from __future__ import annotations

from headwater.cli.output import Result
from headwater.clock import run_date
from headwater.errors import Refusal
from headwater.jsonout import dumps
from headwater.reads.answer import Answer
from headwater.snapshot import load


def _result(answer: Answer, json: bool) -> Result:
    if answer.refused:
        raise Refusal(answer.text.rstrip("\n"))
    return Result(dumps(answer.structured) if json else answer.text)


def run_related(invocation) -> Result:
    from headwater.reads.related import related

    snapshot = load(invocation.root, run_date(None))
    return _result(related(snapshot, invocation.args.target), invocation.args.json)


def run_resolve(invocation) -> Result:
    from headwater.reads.identifiers import resolve_identifier

    snapshot = load(invocation.root, run_date(None))
    return _result(resolve_identifier(snapshot, invocation.args.id), invocation.args.json)
