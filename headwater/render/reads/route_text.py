"""The route report as text: the one renderer for the CLI and MCP.

Only a pointer line carries an em dash (a hook finds pointer lines by grepping for one), so a
fold never moves the dash off a pointer's first line. Pointer and evidence lines fold at the
fill width, keeping their indentation; MCP text is unfolded (`width=None`). Colour is painted
after folding, so stripping it gives the plain report exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from headwater.reads.route.answer import RouteAnswer
from headwater.render.reads import FOLDED, Layout, Paint
from headwater.render.reads.pointer import pointer_line, remote_pointer_line
from headwater.render.reads.unread import unread_pin_line
from headwater.textsafe import visible

if TYPE_CHECKING:
    from headwater.reads.route.router import Route

DASH = "\u2014"


def quoted(task: str) -> str:
    """The task in double quotes with `\\`, `"` and control characters escaped; an em dash is
    escaped too, so the task line can never pass for a pointer line."""
    out = ['"']
    for char in task:
        if char in '"\\':
            out.append("\\" + char)
        elif char in "\n\r\t":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F or char == DASH:
            out.append(f"\\u{{{ord(char):x}}}")
        else:
            out.append(char)
    return "".join(out) + '"'


def fold(text: str, indent: int, width: int | None) -> list[str]:
    """Greedy fold on spaces; continuation lines keep the indent. Everything up to a pointer's
    em dash is one unbreakable unit, and a path is never split."""
    pad = " " * indent
    head, dash, rest = text.partition(" " + DASH + " ")
    units = [head + dash.rstrip()] + rest.split(" ") if dash else text.split(" ")
    if width is None:
        return [pad + " ".join(units)]
    lines: list[str] = []
    current = ""
    for unit in units:
        if current and len(pad) + len(current) + 1 + len(unit) > width:
            lines.append(pad + current)
            current = unit
        else:
            current = f"{current} {unit}" if current else unit
    lines.append(pad + current)
    return lines


def _ungoverned_lines(entry) -> list[str]:
    lines = [f"  {entry.path} is in the governed scope, and nothing governs it"]
    if not entry.relations:
        return lines + ["    no declared relation that governs takes it as a target"]
    lines += ["    a document declares the edge in its front matter:", "    relations:"]
    for relation in entry.relations:
        lines += [f"      {relation}:", f"        - {entry.path}"]
    return lines


def _harvested_lines(answer: Route, width: int | None, paint: Paint) -> list[str]:
    """Pointers into pinned corpora, each with its evidence: what another corpus states, escaped."""
    lines: list[str] = []
    for offer in answer.harvested:
        corpus = offer.document.corpus
        lines += [visible(line) for line in fold(remote_pointer_line(offer.document), 2, width)]
        lines += _evidence_lines(offer.evidence.line(corpus), f"{corpus}:{offer.successor}" if offer.successor else "",
                                 width, paint)
    return lines


def _evidence_lines(evidence: str, successor: str, width: int | None, paint: Paint) -> list[str]:
    """The evidence line under a pointer, and the successor to read first when it is terminal."""
    lines = [paint("dim", visible(line)) for line in fold(evidence, 4, width)]
    if successor:
        lines += [paint("dim", visible(line)) for line in fold(f"read {successor} first: it succeeds this", 4, width)]
    return lines


def route_text(routed: RouteAnswer, layout: Layout = FOLDED) -> str:
    answer, tax, width, paint = routed.route, routed.taxonomy, layout.width, layout.paint
    lines = [paint("heading", f"route {quoted(answer.task)}"),
             paint("dim", f"  terms {' '.join(answer.terms)}")]
    if answer.distinctive:
        lines.append(paint("dim", f"  distinctive {' '.join(answer.distinctive)}"))
    lines += [visible(f"  names the anchor {anchor}") for anchor in answer.anchors]
    lines += [visible(f"  names the document {name}") for name in answer.named]
    for entry in answer.ungoverned:
        lines += [visible(line) for line in _ungoverned_lines(entry)]
    lines += [visible(line) for unread in answer.unread for line in fold(unread_pin_line(unread), 2, width)]
    lines += [visible(f"  purpose {name} {score}") for name, score in answer.matched]
    harvested = _harvested_lines(answer, width, paint)
    if answer.silence is not None:
        return "\n".join(lines + harvested + [visible(f"  {answer.silence.says}")]) + "\n"
    for offered in answer.pointers:  # values escaped before painting, so the paint is the only escape
        folded = [visible(line) for line in fold(pointer_line(offered.document, tax), 2, width)]
        path = visible(offered.document.path)
        lines.append(folded[0].replace(path, paint("path", path), 1))
        lines += folded[1:]
        lines += _evidence_lines(offered.evidence.line(), offered.successor, width, paint)
    if answer.withheld:
        noun = "pointer" if answer.withheld == 1 else "pointers"
        lines.append(paint("dim", f"  the budget withheld {answer.withheld} more {noun}"))
    return "\n".join(lines + harvested) + "\n"
