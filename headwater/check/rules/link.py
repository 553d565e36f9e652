"""Links: where each relative link of a document's body lands — a file, a heading, the document its text names."""

from __future__ import annotations

import posixpath

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity
from headwater.check.links import landings, named, stands
from headwater.check.rule import Reads, Scope, rule
from headwater.check.rules.hits import ticked
from headwater.corpus.body import Link
from headwater.corpus.document import Document


def _at(doc: Document, link: Link, message: str, remediation: str, subject: str) -> Hit:
    return Hit(doc.path, link.line, link.column, message, remediation, subject)


def _once(hits: list[Hit]) -> list[Hit]:
    """Reference links that share a definition are placed where it writes the target, so each
    finds the same thing in the same place: that is one finding, fixed once."""
    return list(dict.fromkeys(hits))


def _relative(doc: Document, path: str) -> str:
    return posixpath.relpath(path, posixpath.dirname(doc.path) or ".")


LINK_TAGS = ("body", "link")


@rule("link.path.unresolved", 2, Scope.CORPUS, Severity.ERROR,
      short="A relative link names no file, or climbs above the repository.",
      full="A link without a scheme resolves against the document's directory, or, when it opens "
           "with `/`, against each of the declaration's `corpus.site_roots` (the repository root when "
           "none is declared); on a site with site roots declared, a link may also land where a browser "
           "resolves it from the page's own address (`guide/setup.md` is served at `guide/setup/`). "
           "Nothing stands at the path it reaches, or the path climbs out of the repository.",
      help="""
Relative links break silently when a file moves. Point the link at the file's current path,
written relative to the linking document, or link to a full URL when the target lives outside
the repository. A static site publishes its content folder at `/`: declare it (and its folder of
static files) under `corpus.site_roots` in `.headwater/taxonomy.yml`, and `/guide/` lands there;
a page's other links then also land as the site serves the page, at a folder named for it
(`../examples/query.json` written in `guide/setup.md` may name `guide/examples/query.json`).
`headwater init` reads the site roots off the links themselves.
""",
      tags=LINK_TAGS, reads=(Reads.LINKS,), by_document=True)
def link_path_unresolved(ctx: Context, doc: Document) -> list[Hit]:
    hits = []
    for link, landed in landings(ctx, doc):
        if landed.path is None:
            hits.append(_at(doc, link, f"the link `{link.href}` climbs above the repository",
                            "link to a file inside the repository, or write a full URL", link.href))
        elif not stands(ctx, landed.path):
            where = (f"`{landed.path}`, and no file stands there" if not landed.elsewhere else
                     f"{' or '.join(f'`{p}`' for p in (landed.path, *landed.elsewhere))}, and no file stands at any")
            hits.append(_at(doc, link, f"the link `{link.href}` reaches {where}",
                            "point the link at the file's current path, or delete it", link.href))
    return _once(hits)


@rule("link.fragment.unresolved", 4, Scope.CORPUS, Severity.ERROR,
      short="A link's `#fragment` names no heading or anchor of the document it reaches.",
      full="The fragment of a link into a Markdown document is compared with the GitHub slugs of "
           "that document's headings and the anchors it names itself; none of them is the fragment.",
      help="""
GitHub gives every heading an anchor: lowercased, punctuation dropped, spaces turned to `-`,
and `-1`, `-2`… on repeats. An author may also name an anchor: an HTML element's `id`, an `a`
element's `name`, or a heading's `{#id}` as Hugo, kramdown and Pandoc read it (outside code).
A fragment that matches none of them lands at the top of the page. Where the corpus declares
no site roots its pages are read where the forge renders them, and GitHub lands a fragment in
any case (`#Summary` on `## Summary`); a published site matches the case exactly. Use the slug
of the heading you mean, or drop the fragment.
""",
      tags=LINK_TAGS, reads=(Reads.LINKS,), by_document=True)
def link_fragment_unresolved(ctx: Context, doc: Document) -> list[Hit]:
    hits = []
    any_case = not ctx.snapshot.declaration.site_roots  # read on the forge, which lands any case
    # each target's slugs gathered once: a page of thousands of headings, each linked from its
    # table of contents, made them again for every link, in time the square of the page
    indexed: dict[str, tuple[frozenset[str], dict[str, list[str]]]] = {}
    for link, landed in landings(ctx, doc):
        row = ctx.snapshot.census.by_path.get(landed.path or "")
        target = row.document if row is not None else None
        if not landed.fragment or target is None:
            continue
        known, by_case = indexed.get(target.path) or indexed.setdefault(target.path, _slug_index(target.slugs))
        if landed.fragment in known:
            continue
        cased = by_case.get(landed.fragment.lower(), [])
        if cased and any_case:
            continue
        where = "this document" if target.path == doc.path else f"`{target.path}`"
        slugs = cased or _nearest_first(landed.fragment, known)
        remedy = (f"use one of its headings: {ticked('#' + s for s in slugs[:6])}" if slugs
                  else "drop the fragment; the document has no headings")
        hits.append(_at(doc, link, f"the link `{link.href}` names `#{landed.fragment}`, and {where} "
                        "has no heading with that slug", remedy, link.href))
    return _once(hits)


def _nearest_first(fragment: str, slugs: frozenset[str]) -> list[str]:
    """The slugs closest in spelling to the fragment first (`#get-file` → `#create-file`), then by name:
    the remedy shows six, and a page's first six by name are rarely the one meant."""
    from difflib import SequenceMatcher  # here: only a broken fragment asks

    near = SequenceMatcher(b=fragment.lower(), autojunk=False)

    def distance(slug: str) -> tuple[float, str]:
        near.set_seq1(slug)
        return -near.ratio(), slug

    return sorted(slugs, key=distance)


def _slug_index(slugs: frozenset[str]) -> tuple[frozenset[str], dict[str, list[str]]]:
    """A document's slugs, and them by their lower case (in order), where a fragment lands any case."""
    by_case: dict[str, list[str]] = {}
    for slug in sorted(slugs):
        by_case.setdefault(slug.lower(), []).append(slug)
    return slugs, by_case


def _opens(landed: str, carrier: str) -> bool:
    """A link to a folder opens the folder's README, as forges render it (`keps/sig-x/1885-y`)."""
    return landed == carrier or carrier == f"{landed}/README.md"


@rule("link.identifier.mismatch", 3, Scope.CORPUS, Severity.ERROR,
      short="A link's text is one document's identifier, but the link reaches another.",
      full="The text of the link is exactly the identifier of a document, and the path the link "
           "reaches is not that document.",
      help="""
A reader trusts `[ACME-DR-0002](…)` to open ACME-DR-0002. When the path leads elsewhere, one
of the two is wrong: point the link at the document that carries the identifier, or change
the text.
""",
      tags=LINK_TAGS + ("identifier",), reads=(Reads.LINKS,), by_document=True)
def link_identifier_mismatch(ctx: Context, doc: Document) -> list[Hit]:
    hits = []
    for link, landed in landings(ctx, doc):
        text = named(link)
        carrier = ctx.graph.ids.get(text)
        if carrier is None or landed.path is None or _opens(landed.path, carrier) or not stands(ctx, landed.path):
            continue
        hits.append(_at(doc, link, f"the link text `{text}` is the identifier of `{carrier}`, and the "
                        f"link reaches `{landed.path}`",
                        f"point the link at `{_relative(doc, carrier)}`, or change its text",
                        f"{text}>{landed.path}"))
    return _once(hits)


RULES = (link_path_unresolved, link_fragment_unresolved, link_identifier_mismatch)
