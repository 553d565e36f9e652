"""What a verb hands back, and how wide a terminal lays it out."""

from __future__ import annotations

import os
from dataclasses import field

from headwater.errors import Refusal
from headwater.frozen import frozen


@frozen
class Result:
    """A verb's answer: bytes for stdout, lines for stderr (accounts), and the exit status."""

    stdout: str | bytes = ""
    stderr: tuple[str, ...] = ()
    status: int = 0
    # What the answer was computed from (a snapshot), kept alive until the process exits: freeing
    # a loaded corpus object by object costs a tenth of a warm run, and an exiting process need not.
    holds: object = field(default=None, compare=False, repr=False)


def write_whole(sink, payload: bytes) -> None:
    """Write until nothing is left: a raw file (an unbuffered stdout) may take part of a write,
    and the next write is where a closed pipe says so."""
    left = memoryview(payload)
    while left:
        left = left[sink.write(left):]
    sink.flush()


def layout_width(wide: bool) -> int:
    if not wide:
        return 80
    try:
        columns = int(os.environ.get("COLUMNS", "80"))
    except ValueError:
        return 80
    return max(80, min(120, columns))


def text_width(wide: bool, as_json: bool) -> int:
    """The fill width of a read verb's text report. JSON is never folded, so `--wide` beside
    `--json` would be ignored: it is refused instead, as `check --wide --format json` is."""
    if wide and as_json:
        raise Refusal("`--wide` sets the width of the text report, and `--json` lays nothing out")
    return layout_width(wide)
