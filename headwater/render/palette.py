"""Colour that only a terminal ever sees: the roles a renderer paints, and when to paint them."""

from __future__ import annotations

import os
import re
import sys

from headwater.frozen import frozen

ANSI = re.compile(r"\x1b\[[0-9;]*m")
CODES = {"error": "1;31", "warn": "1;33", "info": "34", "path": "36", "verb": "1;32",
         "heading": "1", "dim": "2", "id": "35"}


@frozen
class Palette:
    enabled: bool

    def paint(self, role: str, text: str) -> str:
        if not self.enabled or not text:
            return text
        return f"\x1b[{CODES[role]}m{text}\x1b[0m"


def is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def colour_wanted(stream, no_color_flag: bool) -> bool:
    """`--no-color` and NO_COLOR win; a non-empty FORCE_COLOR colours even a pipe (CI logs
    render it); TERM=dumb, or a stream that is no terminal, is never coloured."""
    if no_color_flag or "NO_COLOR" in os.environ:
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return os.environ.get("TERM") != "dumb" and is_terminal(stream)


def strip(text: str) -> str:
    return ANSI.sub("", text)


def stdout_palette(no_color_flag: bool) -> Palette:
    return Palette(colour_wanted(sys.stdout, no_color_flag))
