"""What `init` reads off a documentation site: the pages no shelf of the package claims, and the
folder a link opening with `/` is written against (a static site generator publishes one at `/`).

The kind, purpose and shelf it proposes for the pages are names written into the team's own
overlay, as a namespace is; the facet it requires comes from the package tree by its `name` role.
Nothing here writes.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections import Counter
from pathlib import Path
from urllib.parse import unquote

from headwater import inplace
from headwater.adoption import forms
from headwater.corpus.frontmatter import FrontMatterRefusal, split
from headwater.frozen import frozen
from headwater.paths import OutsidePath, normalize
from headwater.yaml.nodes import Map, Scalar

KIND, PURPOSE, SHELF = "page", "documentation", "pages"
# The keys sites keep a page's one-sentence summary under (Hugo and Docusaurus `description`).
SCENT_KEYS = ("description", "summary", "excerpt", "abstract", "subtitle")
# A link written against the site's root, as Markdown and HTML write it: only files holding one are read.
ROOTED = ("](/", "]: /", 'href="/')
HREFS = (re.compile(r"\]\(\s*<?(/[^)\s>]*)"), re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(/[^\s>]*)"),
         re.compile(r"\bhref=\"(/[^\"]*)\""))


@frozen
class Pages:
    folder: str  # the corpus root (never the repository's), or the folder below it the site publishes
    fronted: int  # Markdown files under it whose front matter is a mapping
    named: int  # of those, how many carry the package's name facet
    name_facet: str
    # (the team's own key for the one-sentence summary, how many carry it, the package's name for it)
    scent: tuple[str, int, str] | None = None


@frozen
class Proposal:
    """Overlay operations for the pages, with one sentence each."""

    add: dict
    override: dict
    remove: tuple[str, ...]
    said: tuple[str, ...]


@frozen
class SiteRoot:
    roots: tuple[str, ...]  # for `corpus.site_roots`, in the order a link is looked for under them
    said: str


def pages(root: Path, paths: list[str], corpus: str, name_facet: str | None, scent_facet: str | None,
          published: tuple[str, ...] = ()) -> Pages | None:
    """The corpus root's pages, when most of its Markdown carries front matter with the name facet: a
    site whose pages say what they are, which a package of records alone leaves untyped. Their
    folder is the one the site publishes (`published`) where every such page lies under it, so
    `new` writes a page where the site serves it."""
    if name_facet is None or corpus in ("", "."):  # a shelf's path opens with a folder it is bounded by
        return None
    under = [p for p in paths if p.startswith(corpus + "/")]
    read = [(p, front) for p, front in ((p, _front(root, p)) for p in under) if front is not None]
    fronts = [front for _, front in read]
    folder = next((r for r in published if r.startswith(corpus + "/") and read
                   and all(p.startswith(r + "/") for p, _ in read)), corpus)
    carried = Counter(key.text for front in fronts for key, value in front.entries
                      if isinstance(value, Scalar) and value.text.strip())
    named = carried[name_facet]
    if named < 2 or 2 * named < len(under):
        return None
    own = next((key for key in SCENT_KEYS if 2 * carried[key] >= len(fronts)), None)
    renamed = bool(own and scent_facet and own != scent_facet and not carried[scent_facet])
    scent = (own, carried[own], scent_facet) if renamed else None
    return Pages(folder, len(fronts), named, name_facet, scent)


def _front(root: Path, path: str) -> Map | None:
    try:
        front = split(inplace.read(root, path).decode("utf-8").removeprefix("\ufeff")).front
    except (OSError, UnicodeDecodeError, FrontMatterRefusal):
        return None
    return front if isinstance(front, Map) else None


def overlay(tree: dict, found: Pages) -> Proposal | None:
    """The operations that type the pages, and one sentence each; None when the package already
    uses one of the names they would add."""
    if (KIND in (tree.get("kinds") or {}) or PURPOSE in (tree.get("purposes") or {})
            or SHELF in (tree.get("shelves") or {})):
        return None
    every = found.named == found.fronted
    kind = {"purpose": PURPOSE, "write_when": "a reader needs a page of this site that no other kind describes"}
    if every:
        kind["facets"] = {"require": [found.name_facet]}
    add = {
        f"purposes.{PURPOSE}": {"intent": "tell a reader how the system is used and how it works",
                                "answers": ["how do I use this", "what is this and how does it work"]},
        f"kinds.{KIND}": kind,
        f"shelves.{SHELF}": {"path": f"{found.folder}/**", "homogeneous": True,
                             "kind": KIND, "title": "Pages"},
    }
    carried = (f"every one carries `{found.name_facet}`, so a page must" if every else
               f"{found.named} of them carry `{found.name_facet}`, so a page is not required to")
    said = [f"shelf {SHELF}: {found.fronted} pages under `{found.folder}` have front matter and no shelf of "
            f"the package claims them; {carried}. Kind `{KIND}` types them, so `check` reads their links and "
            "`route` offers them"]
    override: dict = {}
    remove: tuple[str, ...] = ()
    if found.scent is not None:
        remove = _renamed_scent(tree, found.scent, add, override, said)
    return Proposal(add, override, remove, tuple(said))


def _renamed_scent(tree: dict, scent: tuple[str, int, str], add: dict, override: dict,
                   said: list[str]) -> tuple[str]:
    """The package's summary facet under the team's own key (`description`), as `init` renames the
    date a record entered its status: `route` and `explain` then read what the pages already say."""
    own, count, package = scent
    add[f"facets.{own}"] = dict(tree["facets"][package])
    for name, kind in (tree.get("kinds") or {}).items():
        required = ((kind or {}).get("facets") or {}).get("require") or []
        if package in required:
            override[f"kinds.{name}.facets.require"] = [own if f == package else f for f in required]
    said.append(f"facet {own}: {count} pages carry `{own}`, so it is the one-sentence summary `route` reads "
                f"(the package calls it `{package}`)")
    return (f"facets.{package}",)


def site_root(root: Path, paths: list[str]) -> SiteRoot | None:
    """Where a site publishes what its links opening with `/` name: first the folder of its pages
    under which the most of them stand, when more stand there than at the repository root (Hugo's
    `content/en`); then a folder beside it for the rest (Hugo's `static`); the repository root last
    when some stand only there."""
    written = frozenset(target for path in paths for target in _rooted(root, path))
    folders = {posixpath.dirname(p) for p in paths} | {""}
    candidates = sorted({a for folder in folders for a in _ancestors(folder)})
    first = _most(root, candidates, written)
    at_top = _landing(root, "", written)
    if first is None or not first[0] or len(first[1]) < 2 or len(first[1]) <= len(at_top):
        return None
    chosen = [first]
    beside = _beside(root, first[0])
    while len(chosen) < 3:
        more = _most(root, beside, written.difference(*(found for _, found in chosen)))
        if more is None or len(more[1]) < 2:
            break
        chosen.append(more)
    only_at_top = at_top.difference(*(found for _, found in chosen))
    roots = tuple(folder for folder, _ in chosen) + ((".",) if only_at_top else ())
    return SiteRoot(roots, _said(roots, chosen, len(written), len(at_top), len(only_at_top)))


def _most(root: Path, candidates: list[str], written: frozenset[str]) -> tuple[str, frozenset[str]] | None:
    """The candidate under which the most of `written` stand; a tie goes to the shallower folder."""
    landing = [(c, _landing(root, c, written)) for c in candidates]
    return max(landing, key=lambda item: (len(item[1]), -item[0].count("/") - bool(item[0]), item[0]), default=None)


def _landing(root: Path, base: str, written: frozenset[str]) -> frozenset[str]:
    return frozenset(t for t in written if _stands(root, base, t))


def _beside(root: Path, folder: str) -> list[str]:
    """The folders beside `folder` and beside each of its ancestors, where a site keeps static files."""
    around = _ancestors(folder)
    found = []
    for parent in around[:-1]:
        try:
            entries = list(os.scandir(root / parent if parent else root))
        except OSError:
            continue
        found += [f"{parent}/{e.name}" if parent else e.name for e in entries
                  if e.is_dir(follow_symlinks=False) and not e.name.startswith(".")]
    return sorted(set(found) - set(around))


def _said(roots: tuple[str, ...], chosen: list[tuple[str, frozenset[str]]], written: int, at_top: int,
          only_at_top: int) -> str:
    named = ", ".join(f"`{folder}`" for folder in roots)
    counts = [f"{len(chosen[0][1])} stand under `{chosen[0][0]}`",
              *(f"{len(found)} more under `{folder}`" for folder, found in chosen[1:])]
    if only_at_top:
        top = f"{only_at_top} only at the repository root, which stays the last site root"
    else:
        top = f"{at_top} at the repository root as well" if at_top else "none at the repository root"
    plural = "s" if len(roots) > 1 else ""
    return (f"site root{plural} {named}: of the {written} paths that links opening with `/` name, "
            f"{', '.join(counts)}; {top}")


def _rooted(root: Path, path: str) -> list[str]:
    """The paths a file's links opening with `/` (not `//`) name outside fenced code, without
    fragment or query: read line by line, as an inference may (the link rules parse the body)."""
    try:
        text = inplace.read(root, path).decode("utf-8").removeprefix("\ufeff")
    except (OSError, UnicodeDecodeError):
        return []
    if not any(mark in text for mark in ROOTED):
        return []
    hrefs = [h for line in forms.prose_lines(text) for pattern in HREFS for h in pattern.findall(line)]
    return [unquote(h.partition("#")[0].partition("?")[0]).strip("/") for h in hrefs
            if not h.startswith("//") and h.partition("#")[0].partition("?")[0].strip("/")]


def _ancestors(folder: str) -> list[str]:
    parts = folder.split("/") if folder else []
    return ["/".join(parts[:n]) for n in range(len(parts) + 1)]


def _stands(root: Path, base: str, target: str) -> bool:
    try:
        return os.path.lexists(root / normalize(posixpath.join(base, target)))
    except OutsidePath:  # it climbs above the repository: nothing of it stands
        return False
