"""One renderer per format, shared by `headwater check` and the MCP `check` tool.

`FORMATS` is the one table of them: the CLI's `--format` choices, its help and the MCP tool's
`enum` all read it. Each renderer takes the run's report and what it shows of the snapshot it was computed from
(`Shown`: a replayed run keeps that, not the snapshot) and returns the exact text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from headwater.frozen import frozen
from headwater.render.palette import Palette

if TYPE_CHECKING:  # the table is read at parse time, so it imports no engine
    from headwater.check.report import Report
    from headwater.check.shown import Shown
    from headwater.snapshot import Snapshot

MARKDOWN_MAX_BYTES = 60_000  # under a pull-request comment's 65,536 characters and far under a step summary's 1 MiB


@frozen
class Layout:
    """What the caller decides about the bytes: the text width and colour, the markdown bound, how
    many census rows the text report lists (a limit bounds them as it bounds findings), and the
    root's place in its git work tree, which the formats GitHub reads write before each path
    (`discovery.place_in_work_tree`)."""

    width: int = 80
    palette: Palette = Palette(False)
    max_bytes: int = MARKDOWN_MAX_BYTES
    rows: int | None = None
    place: str = ""


def _text(report: Report, shown: Shown, layout: Layout) -> str:
    from headwater.render.text import render_text

    return render_text(report, shown, width=layout.width, palette=layout.palette, rows=layout.rows)


def _json(report: Report, shown: Shown, layout: Layout) -> str:
    from headwater.render.json import render_json

    return render_json(report)


def _sarif(report: Report, shown: Shown, layout: Layout) -> str:
    from headwater.render.sarif import render_sarif

    return render_sarif(report, shown, layout.place)


def _markdown(report: Report, shown: Shown, layout: Layout) -> str:
    from headwater.render.markdown import render_markdown

    return render_markdown(report, max_bytes=layout.max_bytes)


def _github(report: Report, shown: Shown, layout: Layout) -> str:
    from headwater.render.lines import render_github

    return render_github(report, layout.place)


def _concise(report: Report, shown: Shown, layout: Layout) -> str:
    from headwater.render.lines import render_concise

    return render_concise(report)


@frozen
class Format:
    name: str
    summary: str
    human: bool  # read by a person at a terminal: the only format that is coloured, laid out, or shown progress
    renderer: Callable[[Report, Shown, Layout], str]
    from_top: bool = False  # GitHub reads its paths from the repository's top (`Layout.place`)


FORMATS: tuple[Format, ...] = (
    Format("text", "the report for a terminal: census, graph, checks, findings, counts at both ends", True, _text),
    Format("json", "one JSON document: coverage, rules and every finding", False, _json),
    Format("sarif", "SARIF 2.1.0 for GitHub code scanning", False, _sarif, from_top=True),
    Format("markdown", "a pull-request comment or step summary, bounded by `--max-bytes`", False, _markdown),
    Format("github", "GitHub Actions workflow commands: one annotation per live finding", False, _github,
           from_top=True),
    Format("concise", "one line per live finding, `path:line:col: severity rule message`", False, _concise),
)
FORMAT_NAMES = tuple(f.name for f in FORMATS)


def format_named(name: str) -> Format | None:
    return next((f for f in FORMATS if f.name == name), None)


def render(fmt: str, report: Report, snapshot: Snapshot, layout: Layout = Layout()) -> str:  # noqa: B008 - frozen
    """The bytes `headwater check --format <fmt>` writes (colour only ever in text)."""
    from headwater.check.shown import Shown

    return render_shown(fmt, report, Shown.of(snapshot), layout)


def render_shown(fmt: str, report: Report, shown: Shown, layout: Layout = Layout()) -> str:  # noqa: B008 - frozen
    """The same bytes from what the report shows of its snapshot (a replayed run has no other)."""
    chosen = format_named(fmt)
    if chosen is None:
        raise ValueError(f"no format {fmt}")
    return chosen.renderer(report, shown, layout)
