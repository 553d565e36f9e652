"""The sentences every format of `impact` shares: the headline, the changed paths a document
governs as shown, and how to re-verify."""

from __future__ import annotations

from headwater.reads.impact import Impact
from headwater.words import plural

SHOWN_PATHS = 5  # changed paths named per document; the rest are counted


def shown_paths(paths: tuple[str, ...]) -> str:
    named = ", ".join(paths[:SHOWN_PATHS])
    return named + (f" and {len(paths) - SHOWN_PATHS} more" if len(paths) > SHOWN_PATHS else "")


def headline(answer: Impact) -> str:
    found = answer.items
    if not found:
        return "This change touches no path a governed document governs."
    stale = answer.stale
    return (f"This change touches paths that {plural(len(found), 'governed document')} "
            f"{'governs' if len(found) == 1 else 'govern'}; {stale} of them "
            f"{'was' if stale == 1 else 'were'} not re-verified in it.")


def how_to_reverify(answer: Impact) -> str:
    facet = answer.freshness
    moved = f"move its `{facet}` facet" if facet else "edit it"
    return (f"Re-read each document not re-verified; then {moved} in this change, or state the re-read with "
            "`headwater change <base> <dir> --verified <document>`.")
