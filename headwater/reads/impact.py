"""`impact`: the governed documents a change touches, and which of them it did not re-verify.

A document is touched when one of its governing edges reaches a path the change adds, changes
or removes (the reading `governing_docs_for_path` gives). It is re-verified when the change
states so as `check --change` reads it: the change adds it, moves its freshness facet, or a
`verified` line names it. A touched document that is not re-verified is what a reviewer should
re-read before merging.
"""

from __future__ import annotations

from dataclasses import dataclass

from headwater.bounded import fitted
from headwater.check.change_manifest import Change
from headwater.corpus.document import Document
from headwater.reads.governing import governing_documents
from headwater.reads.pointer import pointer, pointer_line
from headwater.snapshot import Snapshot
from headwater.textsafe import markdown_code, markdown_text, visible
from headwater.words import plural
from headwater.workflow import workflow_command

SHOWN_PATHS = 5  # changed paths named per document; the rest are counted


@dataclass(frozen=True)
class Impacted:
    document: Document
    paths: tuple[str, ...]  # the changed paths its edges govern, sorted
    reverified: bool


def impact(snapshot: Snapshot, change: Change) -> tuple[Impacted, ...]:
    """Every touched document, those not re-verified first, each group in path order."""
    graph, tax = snapshot.graph, snapshot.taxonomy
    governed: dict[str, list[str]] = {}
    for path in sorted(change.touched):
        for document in governing_documents(graph, tax, path):
            if document.path != path:  # a document's own edit re-reads it, it does not impact it
                governed.setdefault(document.path, []).append(path)
    found = [Impacted(graph.documents[doc], tuple(paths), change.reverifies(doc, snapshot))
             for doc, paths in governed.items()]
    return tuple(sorted(found, key=lambda i: (i.reverified, i.document.path)))


def _paths(paths: tuple[str, ...]) -> str:
    named = ", ".join(paths[:SHOWN_PATHS])
    return named + (f" and {len(paths) - SHOWN_PATHS} more" if len(paths) > SHOWN_PATHS else "")


def headline(found: tuple[Impacted, ...]) -> str:
    stale = sum(1 for i in found if not i.reverified)
    if not found:
        return "This change touches no path a governed document governs."
    return (f"This change touches paths that {plural(len(found), 'governed document')} "
            f"{'governs' if len(found) == 1 else 'govern'}; {stale} of them "
            f"{'was' if stale == 1 else 'were'} not re-verified in it.")


def how_to_reverify(snapshot: Snapshot) -> str:
    facet = snapshot.taxonomy.facet_for_role("freshness")
    moved = f"move its `{facet}` facet" if facet else "edit it"
    return (f"Re-read each document not re-verified; then {moved} in this change, or state the re-read with "
            "`headwater change <base> <dir> --verified <document>`.")


def render_text(snapshot: Snapshot, found: tuple[Impacted, ...]) -> str:
    lines = [headline(found)]
    for item in found:
        mark = "re-verified" if item.reverified else "not re-verified"
        lines += [f"  {visible(pointer_line(item.document, snapshot.taxonomy))}",
                  f"    {mark}; governs {visible(_paths(item.paths))}"]
    if any(not i.reverified for i in found):
        lines.append(how_to_reverify(snapshot))
    return "\n".join(lines) + "\n"


def _row(item: Impacted) -> str:
    doc = item.document
    name = markdown_code(doc.path) + (f" ({markdown_text(doc.id)})" if doc.id else "")
    governs = ", ".join(markdown_code(p) for p in item.paths[:SHOWN_PATHS])
    if len(item.paths) > SHOWN_PATHS:
        governs += f" and {len(item.paths) - SHOWN_PATHS} more"
    return f"| {'yes' if item.reverified else '**no**'} | {name} | {governs} |"


def render_markdown(snapshot: Snapshot, found: tuple[Impacted, ...], max_bytes: int) -> str:
    """A pull-request section, held under `max_bytes` with a count of the rows it left out."""

    def compose(keep: int) -> str:
        lines = ["## Governed documents this change touches", "", headline(found)]
        if found:
            lines += ["", "| Re-verified | Document | Governs, of the changed paths |", "|---|---|---|",
                      *(_row(i) for i in found[:keep])]
        if keep < len(found):
            lines += ["", f"_{plural(len(found) - keep, 'document is', 'documents are')} not in this table, "
                          f"which stops short of {max_bytes:,} bytes; `headwater impact` lists every one._"]
        if any(not i.reverified for i in found):
            lines += ["", how_to_reverify(snapshot)]
        return "\n".join(lines) + "\n"

    return fitted(compose, len(found), max_bytes)


def render_github(found: tuple[Impacted, ...]) -> str:
    """A warning annotation on each touched document the change did not re-verify."""
    return "".join(workflow_command("warning", (("file", visible(i.document.path)), ("title", "not re-verified")),
                                    f"this change touches {visible(_paths(i.paths))}, which this document governs, "
                                    "and does not re-verify it") + "\n"
                   for i in found if not i.reverified) + headline(found) + "\n"


def as_json(snapshot: Snapshot, found: tuple[Impacted, ...]) -> dict:
    return {"impacted": [{**pointer(i.document, snapshot.taxonomy), "paths": list(i.paths),
                          "reverified": i.reverified} for i in found]}
