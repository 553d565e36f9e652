"""`explain` and `show`: one resolver, one set of refusals."""

from __future__ import annotations

from headwater.cli.output import Result, text_width
from headwater.clock import run_date
from headwater.errors import Refusal
from headwater.inplace import read_regular
from headwater.paths import symlink_on_the_way
from headwater.reads.explain import explain
from headwater.reads.target import find_row
from headwater.render.reads import Layout, render
from headwater.snapshot import load


def run_explain(invocation) -> Result:
    args = invocation.args
    width = text_width(args.wide, args.json)
    snapshot = load(invocation.root, run_date(None))
    answer = explain(snapshot, args.target)
    return Result(render("json" if args.json else "text", answer, Layout(width)), holds=snapshot)


def run_show(invocation) -> Result:
    snapshot = load(invocation.root, run_date(None))
    row = find_row(snapshot, invocation.args.target, "show", bytes_only=True)
    link = symlink_on_the_way(row.path, invocation.root)
    if link:
        raise Refusal(f"`{link}` is a symlink, which the walk does not follow, so `show` prints nothing")
    try:
        return Result(read_regular(invocation.root / row.path))
    except OSError as error:
        raise Refusal(f"`{row.path}` could not be read ({error.strerror or error}), so `show` prints nothing") from None
