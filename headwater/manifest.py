"""The change manifest's format, which `headwater change` writes and `check --change` reads.

The first line is `headwater change 1`; then one TAB-separated line each:

    added     <path>
    prior     <path>  <file holding the bytes at the base revision>
    verified  <doc>
    verified  <doc>   <target>

Document paths are relative to the repository root `check` reads. A prior file is named
relative to the manifest's own directory (an absolute name is taken as written), so the
manifest and its `prior/` copies move together. A path the manifest omits did not move.
"""

from __future__ import annotations

HEADER = "headwater change 1"
ADDED, PRIOR, VERIFIED = "added", "prior", "verified"
SHAPES = frozenset({(ADDED, 2), (PRIOR, 3), (VERIFIED, 2), (VERIFIED, 3)})  # (first field, field count)
SEPARATOR = "\t"


def line(*fields: str) -> str:
    return SEPARATOR.join(fields)


def fields(text: str) -> tuple[str, ...]:
    return tuple(text.split(SEPARATOR))
