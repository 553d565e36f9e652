"""What a verb hands back, and colour that only a terminal ever sees."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field

ANSI = re.compile(r"\x1b\[[0-9;]*m")
CODES = {"error": "1;31", "warn": "1;33", "info": "34", "path": "36", "verb": "1;32",
         "heading": "1", "dim": "2", "id": "35"}


@dataclass(frozen=True)
class Result:
    """A verb's answer: bytes for stdout, lines for stderr (accounts), and the exit status."""

    stdout: str | bytes = ""
    stderr: tuple[str, ...] = ()
    status: int = 0
    # What the answer was computed from (a snapshot), kept alive until the process exits: freeing
    # a loaded corpus object by object costs a tenth of a warm run, and an exiting process need not.
    holds: object = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Palette:
    enabled: bool

    def paint(self, role: str, text: str) -> str:
        if not self.enabled or not text:
            return text
        return f"\x1b[{CODES[role]}m{text}\x1b[0m"


def colour_wanted(stream, no_color_flag: bool) -> bool:
    if no_color_flag or "NO_COLOR" in os.environ:
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def strip(text: str) -> str:
    return ANSI.sub("", text)


def layout_width(wide: bool) -> int:
    if not wide:
        return 80
    try:
        columns = int(os.environ.get("COLUMNS", "80"))
    except ValueError:
        return 80
    return max(80, min(120, columns))


def stdout_palette(no_color_flag: bool) -> Palette:
    return Palette(colour_wanted(sys.stdout, no_color_flag))
