"""One renderer per format, shared by `headwater check` and the MCP `check` tool.

Each takes the run's report and the snapshot it was computed from and returns the exact text.
"""

from __future__ import annotations

from headwater.check.runner import Report
from headwater.cli.output import Palette
from headwater.render.common import PLAIN
from headwater.snapshot import Snapshot

FORMATS = ("text", "json", "sarif", "markdown")


def render(fmt: str, report: Report, snapshot: Snapshot, *, width: int = 80,
           palette: Palette = PLAIN) -> str:
    """The bytes `headwater check --format <fmt>` writes (colour only ever in text)."""
    if fmt == "text":
        from headwater.render.text import render_text

        return render_text(report, snapshot, width=width, palette=palette)
    if fmt == "json":
        from headwater.render.json import render_json

        return render_json(report)
    if fmt == "sarif":
        from headwater.render.sarif import render_sarif

        return render_sarif(report, snapshot)
    from headwater.render.markdown import render_markdown

    return render_markdown(report, snapshot)
