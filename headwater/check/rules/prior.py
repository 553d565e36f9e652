"""The prior version of a document, read from the `--change` manifest, for the change-scoped rules.

The runner skips change-scoped rules with a stated reason when the run carries no change; where
these are called `ctx.change` is always a `headwater.check.change_manifest.Change`."""

from __future__ import annotations

from headwater.check.context import Context
from headwater.check.finding import Skip
from headwater.corpus.census import Row
from headwater.corpus.document import Document
from headwater.yaml.nodes import Map

UNREAD_PRIOR = "the prior version has no front matter that reads, so there is nothing to compare"


def prior_row(ctx: Context, path: str) -> Row | None:
    """The prior version of a path as the census would have read it, or None when it had none."""
    return ctx.change.prior_row(path, ctx.taxonomy)


def prior_front(ctx: Context, doc: Document) -> Map | None | Skip:
    """The front matter at the base revision; None when the document did not move (or is new)."""
    row = prior_row(ctx, doc.path)
    if row is None:
        return None
    return row.document.front if row.document is not None else Skip(UNREAD_PRIOR)
