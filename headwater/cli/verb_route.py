"""`route`: the task's words joined into one task; every silence is an answer, exit 0."""

from __future__ import annotations

from headwater.cli.output import Result, text_width
from headwater.clock import run_date
from headwater.errors import Refusal
from headwater.reads.route.answer import route_answer
from headwater.reads.route.kept import read_back
from headwater.reads.route.router import DEFAULT_BUDGET
from headwater.reads.route.task import checked_task
from headwater.render.palette import stdout_palette
from headwater.render.reads import Layout, render
from headwater.snapshot import load
from headwater.textsafe import shown


def budget_of(value: str | None) -> int:
    """`--budget` as a whole number of 1 or more, decided before anything loads."""
    if value is None:
        return DEFAULT_BUDGET
    text = value.strip()
    if not text.lstrip("-").isdigit() or int(text) < 1:
        raise Refusal(f"`--budget` takes a whole number of 1 or more, and `{shown(value)}` is not one")
    return int(text)


def run(invocation) -> Result:
    args = invocation.args
    budget = budget_of(args.budget)
    width = text_width(args.wide, args.json)
    task = checked_task(" ".join(args.task), "task")
    snapshot = load(invocation.root, run_date(None))
    read_back(snapshot)  # the reader an MCP server kept, when it is this corpus's (HW-DR-0061)
    answer = route_answer(snapshot, task, budget)
    if args.json:
        return Result(render("json", answer))
    return Result(render("text", answer, Layout(width, stdout_palette(args.no_color).paint)))
