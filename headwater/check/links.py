"""Where a document's relative links land, and what a verdict on them reads.

The link rules judge one document at a time (`by_document`). Their verdict on a document reads
the document itself, what stands at each path its links reach (the census row there, or
whether any file does), and which document carries each identifier its link texts name:
`reads` lists those paths and texts from the document alone, and `material` states them as
they are this run, so the cache can tell whether a stored verdict still holds without opening
the body again.
"""

from __future__ import annotations

import os
import posixpath
import re
import sys
from urllib.parse import unquote

from headwater.announcements import PROBE
from headwater.check.context import Context
from headwater.corpus.body import Link
from headwater.corpus.document import Document
from headwater.frozen import frozen

SCHEME = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:")
INDEX_PAGES = ("_index", "index", "readme")  # served at their folder's own address
SEP = "\x1f"
LIST = "\x1c"


@frozen
class Reach:
    """Where a relative link lands: a repository path (None when it climbs out) and a fragment;
    for a link opening with `/` under several site roots, where it lands under each later one."""

    path: str | None
    fragment: str
    elsewhere: tuple[str, ...] = ()


def reach(doc: Document, href: str, site_roots: tuple[str, ...] = ()) -> Reach | None:
    """None for what this engine does not resolve: URLs (`scheme:`, `//host`) and empty links. A
    link opening with `/` lands under each site root (`corpus.site_roots`), else at the root; on a
    published site (site roots declared) any other link may also land as the browser resolves it
    from the page's own address, a folder named for the page."""
    if not href or SCHEME.match(href) or href.startswith("//"):
        return None
    written, _, fragment = href.partition("#")
    written, fragment = unquote(written.partition("?")[0]), unquote(fragment)
    if not written:
        return Reach(doc.path, fragment)
    if written.startswith("/"):
        bases = site_roots or ("",)
    else:
        bases = (posixpath.dirname(doc.path), *(_published(doc.path) if site_roots else ()))
    landed = [_joined(base, written.lstrip("/")) for base in bases]
    inside = [path for path in landed if path is not None]
    if not inside:
        return Reach(None, fragment)
    return Reach(inside[0], fragment, tuple(inside[1:]))


def _published(path: str) -> tuple[str, ...]:
    """The folder a site generator serves a page at (`guide/setup.md` at `guide/setup/`); an index
    page is served at its own folder, which the file's directory already is."""
    folder, _, name = path.rpartition("/")
    stem = name.rpartition(".")[0] or name
    if stem.lower() in INDEX_PAGES:
        return ()
    return (f"{folder}/{stem}" if folder else stem,)


def _joined(base: str, written: str) -> str | None:
    joined = posixpath.normpath(posixpath.join(base, written))
    if joined == ".." or joined.startswith("../"):
        return None
    return "" if joined == "." else joined


def reaches(doc: Document, site_roots: tuple[str, ...]) -> list[tuple[Link, Reach]]:
    """The document's links that this engine resolves, in body order, each with every place it may
    land: what the document alone says."""
    found = []
    for link in doc.body.links:
        landed = reach(doc, link.href, site_roots)
        if landed is not None:
            found.append((link, landed))
    return found


def landings(ctx: Context, doc: Document) -> list[tuple[Link, Reach]]:
    """Each resolved link with where it lands this run: under the first site root where anything
    stands, else under the first. The link rules judge one document after the other, so the latest
    document's are kept for the next of them: each resolved them afresh, three times a link."""
    path, found = ctx.memo.get("landings", (None, None))
    if path != doc.path:
        found = [(link, _settled(ctx, landed)) for link, landed in reaches(doc, ctx.snapshot.declaration.site_roots)]
        ctx.memo["landings"] = (doc.path, found)
    return found


def _settled(ctx: Context, landed: Reach) -> Reach:
    if landed.elsewhere and landed.path is not None and not stands(ctx, landed.path):
        found = next((path for path in landed.elsewhere if stands(ctx, path)), None)
        if found is not None:
            return Reach(found, landed.fragment)
    return landed


def named(link: Link) -> str:
    """The identifier a link's text may be: the text, trimmed and unticked."""
    return link.text.strip().strip("`")


def stands(ctx: Context, path: str) -> bool:
    """Whether anything stands at a repository path: a census row, or any file (one lstat a run)."""
    if path in ctx.snapshot.census.by_path:
        return True
    known = ctx.standing.get(path)
    if known is None:
        sys.audit(PROBE, ctx.snapshot.root / path)  # looked at again by a replay (HW-DR-0037)
        known = ctx.standing[path] = os.path.lexists(ctx.snapshot.root / path)
    return known


def reads(doc: Document, site_roots: tuple[str, ...]) -> str:
    """The paths the document's links may reach and the texts they are written with, from its
    bytes and the declared site roots (which the lock does not cover: the cache stamps them)."""
    landed = reaches(doc, site_roots)
    paths = sorted({p for _, r in landed for p in (r.path, *r.elsewhere) if p is not None})
    texts = sorted({named(link) for link, _ in landed} - {""})
    return SEP.join(paths) + LIST + SEP.join(texts)


def material(ctx: Context, read: str) -> str:
    """What stands at each path `reads` listed, and who carries each text, as this run finds them."""
    paths, _, texts = read.partition(LIST)
    by_path, ids = ctx.snapshot.census.by_path, ctx.graph.ids
    parts = []
    for path in paths.split(SEP) if paths else ():
        row = by_path.get(path)
        if row is None:
            parts.append("+" if stands(ctx, path) else "-")
        else:
            parts.append(row.document.digest if row.document is not None else row.outcome.value)
    parts += [ids.get(text, "") for text in texts.split(SEP)] if texts else []
    return SEP.join(parts)
