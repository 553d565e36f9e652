"""Every read's answer as text: the one text renderer the CLI verbs and the MCP tools share."""

from __future__ import annotations

import textwrap
from functools import singledispatch

from headwater.federation.pinned import RemoteDocument
from headwater.reads.explain import Explanation
from headwater.reads.governing import Governing
from headwater.reads.identifiers import Resolution
from headwater.reads.impact import Impact
from headwater.reads.kinds import Kinds
from headwater.reads.related import Neighbour, Related
from headwater.reads.route.answer import RouteAnswer
from headwater.render.reads import FOLDED, Layout
from headwater.render.reads.impact_lines import headline, how_to_reverify, shown_paths
from headwater.render.reads.pointer import pointer_line, remote_pointer_line
from headwater.render.reads.route_text import fold, route_text
from headwater.render.reads.unread import unread_pin_line, unread_pin_note
from headwater.textsafe import shown, visible

GOVERNS_NOTE = {"source": " [this document governs the reading]",
                "target": " [that document governs the reading]", "neither": ""}


@singledispatch
def text(answer: object, layout: Layout = FOLDED) -> str:
    raise TypeError(f"no text renderer for {type(answer).__name__}")


def neighbour_line(neighbour: Neighbour) -> str:
    line = f"{'from' if neighbour.inbound else 'to'} {neighbour.target} {neighbour.relation}"
    if neighbour.cue:
        line += f": {neighbour.cue}"
        line += "" if neighbour.cue_is_declared else " (the target's own summary)"
    if isinstance(neighbour.far, RemoteDocument):
        line += f" [harvested from {neighbour.far.corpus}]"
    return line + GOVERNS_NOTE[neighbour.governs] + unread_pin_note(neighbour.unread)


def _lines(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


@text.register(Related)
def _related(answer: Related, layout: Layout = FOLDED) -> str:
    if not answer.neighbours:
        return f"{answer.argument} declares no relation, and none names it\n"
    return _lines([neighbour_line(n) for n in answer.neighbours])


@text.register(Resolution)
def _resolution(answer: Resolution, layout: Layout = FOLDED) -> str:
    if answer.document is not None:
        declarers = (answer.document, *answer.others)
        lines = [pointer_line(d, answer.taxonomy) for d in declarers]
        if answer.others:
            lines.append(f"{answer.identifier} is declared by {len(declarers)} documents, so it names none of "
                         "them for certain; `headwater check` reports each (identifier.claimed_twice)")
        return "".join(line + "\n" for line in lines)
    if answer.remote is not None:
        return remote_pointer_line(answer.remote) + "\n"
    if answer.carrier is not None:
        return f"no typed document carries {answer.identifier}; {answer.carrier} carries it, untyped\n"
    asked = f"; did you mean {' or '.join(answer.near)}?" if answer.near else ""
    missed = f"no document carries {shown(answer.identifier)}{asked}"  # by its start: what was typed
    return _lines([missed] + [unread_pin_line(u) for u in answer.unread])


@text.register(Governing)
def _governing(answer: Governing, layout: Layout = FOLDED) -> str:
    found = ([pointer_line(d, answer.taxonomy) for d in answer.documents]
             + [remote_pointer_line(d) for d in answer.harvested])
    return _lines((found or [f"no document governs {answer.path}"]) + [unread_pin_line(u) for u in answer.unread])


def _fold(line: str, indent: int, width: int | None) -> list[str]:
    if width is None:
        return [" " * indent + line]
    return textwrap.wrap(line, width, initial_indent=" " * indent, subsequent_indent=" " * (indent + 2),
                         break_on_hyphens=False, break_long_words=False) or [" " * indent]


@text.register(Explanation)
def _explanation(answer: Explanation, layout: Layout = FOLDED) -> str:
    """Control characters in the explanation's values are shown escaped."""
    return "".join(visible(line) + "\n" for line in _explanation_lines(answer, layout.width))


def _explanation_lines(answer: Explanation, width: int | None) -> list[str]:
    lines = [answer.path] + ([f"  {answer.id}"] if answer.id else [])
    if answer.kind is None:
        lines += _fold("no kind, so nothing is required of it", 2, width)
        return lines + [line for step in answer.derivation for line in _fold(step, 4, width)]
    lines.append(f"  kind {answer.kind}")
    lines += [line for step in answer.derivation for line in _fold(step, 4, width)]
    purpose = answer.purpose
    if purpose:
        lines += _fold(f"purpose {purpose.name}" + (f", to {purpose.intent}" if purpose.intent else ""), 2, width)
    if answer.summary:
        lines += _fold(f"summary {answer.summary}", 2, width)
    if answer.warrant:
        lines.append(f"  warrant {answer.warrant}")
    if answer.facets:
        lines += _fold("requires the facets " + ", ".join(answer.facets), 2, width)
    if answer.sections:
        lines += _fold("requires the sections " + ", ".join(answer.sections), 2, width)
    for permitted in answer.permitted:
        line = f"may declare {permitted.relation} to {', '.join(permitted.to)}"
        if permitted.inverse:
            line += f", and the other end writes {permitted.inverse}"
        lines += _fold(line, 2, width)
    for neighbour in answer.related:
        lines += _fold(neighbour_line(neighbour), 2, width)
    return lines


def _label(label: str, values: list[str]) -> list[str]:
    return [f"  {(label if index == 0 else '').ljust(9)} {value}" for index, value in enumerate(values)]


@text.register(Kinds)
def _kinds(answer: Kinds, layout: Layout = FOLDED) -> str:
    count = len(answer.kinds)
    header = f"{answer.package} {answer.package_version}: {count} kind{'s' if count != 1 else ''} a document can be"
    if answer.abstract:
        abstract = len(answer.abstract)
        header += (f", and {abstract} abstract kind{'s' if abstract != 1 else ''} no document is: "
                   + ", ".join(answer.abstract))
    lines = [header]
    for kind in answer.kinds:
        purpose = kind.purpose
        lines += ["", kind.name]
        lines += _label("is a", [kind.is_a or "(no parent)"])
        if purpose is None:
            lines += _label("purpose", ["(none declared)"])
        else:
            lines += _label("purpose", [f"{purpose.name}: {purpose.intent}" if purpose.intent else purpose.name])
            if purpose.answers:
                lines += _label("answers", list(purpose.answers))
        shelves = [f"{s.name} ({s.path}" + (f", where `{s.discriminator}` names it)" if s.discriminator else ")")
                   for s in kind.shelves]
        lines += _label("shelf", shelves or ["(no shelf carries this kind)"])
        lines += _label("facets", [", ".join(kind.required_facets) or "(none)"])
        lines += _label("sections", [", ".join(kind.required_sections) or "(none)"])
        lines += _label("draft", [kind.draft or "(no shelf can place one)"])
        lines += _label("when", [kind.when.declared or kind.when.note or ""])
    return "\n".join(lines) + "\n"


@text.register(Impact)
def _impact(answer: Impact, layout: Layout = FOLDED) -> str:
    """Folded at the fill width as route's report is: a pointer's em dash stays on its first line."""
    width = layout.width
    lines = fold(headline(answer), 0, width)
    for item in answer.items:
        mark = "re-verified" if item.reverified else "not re-verified"
        lines += fold(pointer_line(item.document, answer.taxonomy), 2, width)
        lines += fold(f"{mark}; governs {shown_paths(item.paths)}", 4, width)
    if answer.stale:
        lines += fold(how_to_reverify(answer), 0, width)
    return "".join(visible(line) + "\n" for line in lines)


text.register(RouteAnswer)(route_text)
