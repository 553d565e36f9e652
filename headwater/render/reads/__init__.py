"""One renderer per format for every read's answer, shared by the CLI verbs and the MCP tools.

A read (`headwater.reads.<verb>`) computes a frozen answer dataclass and renders nothing; a
refusal is a `Refusal` it raises. Each format is one function here with one signature,
`(answer, layout) -> str`, dispatched on the answer's type: `text` and `json` for every read,
`markdown` and `github` for those with a pull-request form. `data` is the JSON document as a
value: what MCP sends as `structuredContent`.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from headwater.frozen import frozen
from headwater.render import MARKDOWN_MAX_BYTES

FORMATS = ("text", "json", "markdown", "github")  # each `answer_<format>.py` here, and its function
Paint = Callable[[str, str], str]  # (role, text) → text; roles as `cli.output.CODES` names them


def plain(_role: str, text: str) -> str:
    return text


@frozen
class Layout:
    """What the caller decides about the bytes: the fill width (None: unfolded, as an MCP client
    reads it), the colour, the markdown bound, and the root's folder in its git work tree, which
    GitHub reads an annotation's `file` from (`discovery.place_in_work_tree`)."""

    width: int | None = 80
    paint: Paint = plain
    max_bytes: int = MARKDOWN_MAX_BYTES
    place: str = ""


FOLDED = Layout()
UNFOLDED = Layout(width=None)


def render(fmt: str, answer: object, layout: Layout = FOLDED) -> str:
    """The bytes of one read's answer in one format; only that format's module is imported."""
    if fmt not in FORMATS:
        raise ValueError(f"no read format {fmt}")
    renderer = getattr(import_module(f"headwater.render.reads.answer_{fmt}"), fmt)
    return renderer(answer, layout)
