"""Read answers as GitHub Actions workflow commands: `impact`'s annotations."""

from __future__ import annotations

from functools import singledispatch

from headwater.reads.impact import Impact
from headwater.render.reads import FOLDED, Layout
from headwater.render.reads.impact_lines import headline, shown_paths
from headwater.textsafe import visible
from headwater.workflow import workflow_command


@singledispatch
def github(answer: object, layout: Layout = FOLDED) -> str:
    raise TypeError(f"no github renderer for {type(answer).__name__}")


@github.register(Impact)
def _impact(answer: Impact, layout: Layout = FOLDED) -> str:
    """A warning annotation on each touched document the change did not re-verify."""
    return "".join(workflow_command("warning", (("file", visible(layout.place + i.document.path)),
                                                ("title", "not re-verified")),
                                    f"this change touches {visible(shown_paths(i.paths))}, which this document "
                                    "governs, and does not re-verify it") + "\n"
                   for i in answer.items if not i.reverified) + headline(answer) + "\n"
