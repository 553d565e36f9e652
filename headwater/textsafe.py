"""Values made safe to show: on a terminal, and in GitHub-flavoured Markdown.

Every value a renderer interpolates (a path, a front-matter value, a message built from them)
passes through here, so a file name or a field cannot clear a screen, hide text, plant an OSC 8
link, reorder what a reader sees, start a heading, open HTML or a comment, or break out of a table
cell or a code span. Control characters (C0 but tab, DEL, C1) and the bidirectional embeddings,
overrides and isolates (U+202A–U+202E, U+2066–U+2069, which make text display in another order
than it reads) are shown as `\\u{1b}`, the notation `route` uses for the task it quotes.
"""

from __future__ import annotations

import re

CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
MARKDOWN_SPECIAL = re.compile(r"([\\|<>])")
BACKTICKS = re.compile("`+")


def visible(text: str) -> str:
    """Control characters escaped visibly; everything else as it is."""
    return CONTROL.sub(lambda m: f"\\u{{{ord(m.group()):x}}}", text)


def by_its_start(text: str, most: int) -> str:
    """`text` whole up to `most` characters, else its start and an ellipsis: how a sentence quotes
    what was typed, so a runaway argument does not make a runaway answer."""
    return text if len(text) <= most else text[:most - 1] + "…"


SHOWN = 80  # characters of a typed value (a flag, a verb, a name, a number) a sentence quotes


def shown(text: str) -> str:
    """A typed value as a sentence quotes it: by its start, `SHOWN` characters at most."""
    return by_its_start(text, SHOWN)


def markdown_text(text: str) -> str:
    """Inline Markdown text fit for a table cell: no control character, no raw `|`, `<` or `>`."""
    return MARKDOWN_SPECIAL.sub(r"\\\1", visible(text))


def markdown_code(text: str) -> str:
    """A code span holding `text` literally: fenced by a longer run of backticks than any inside,
    padded where it meets a backtick, and `|` escaped so a table cell still ends where it should."""
    body = visible(text).replace("|", "\\|")
    fence = "`" * (max((len(run) for run in BACKTICKS.findall(body)), default=0) + 1)
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    return f"{fence}{pad}{body}{pad}{fence}"
