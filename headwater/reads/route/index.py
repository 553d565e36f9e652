"""What route reads of each document, built once per snapshot: per field, the stems it holds.

Six fields: the name-role facet (else the first heading), the scent-role facet, the headings
(markdown-it's, so never a line inside a code fence), the path's segments (split on `/ . _ -`,
without `index`, `README`, the file extension or the corpus root's own folders), the body's
prose outside code and quotes, and the lead: where a document has no scent facet, the summary its
body gives — the section its kind declares for the `scent` role (`sections.roles`), else its
first paragraph (HW-DR-0026). What a document's bytes give (the stem counts of its title and
summary facets, of its headings, prose and first paragraph, and of each section the taxonomy
declares for `scent`) is derived by `check` into the parse cache under a key naming the
tokenizer, those facets and those sections (`body_terms`), so a run after a `check` neither
parses a body nor tokenizes anything but paths (HW-DR-0032); a miss (no cache, another key, a
malformed value) counts the document itself, through the parse cache, and lets the body go: a
server holds counts, not bodies. Either way the counts are the same, in the same order. The
path's counts are never kept: a digest names bytes, and the same bytes may sit at two paths.
The ranking (`rank`) weighs the fields; this module only counts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from headwater.corpus.body import Body
from headwater.corpus.derived import Derivation
from headwater.corpus.document import Document, front_text
from headwater.frozen import frozen
from headwater.reads.route.tokens import Tokenizer
from headwater.reads.terms import tokens
from headwater.taxonomy.model import SUMMARY_ROLE, Taxonomy
from headwater.yaml.nodes import Map

FIELDS = ("title", "summary", "headings", "path", "body", "lead")
PATH_NOISE = frozenset({"index", "readme", "md", "markdown"})
KEPT_SHAPE = "title, summary, headings, prose, first paragraph, sections"  # of a kept value (its key)


@frozen
class Entry:
    """One document as route reads it: per field (in FIELDS order), stem → occurrences."""

    document: Document
    counts: tuple[dict[str, int], ...]

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(sum(c.values()) for c in self.counts)


@frozen
class RouteIndex:
    # census order, which is path order: a position breaks ties as a path would. `of` gives them
    # one at a time, read once (by the scorer), so one document's counts are held at a time.
    entries: Iterable[Entry]
    tokenizer: Tokenizer

    @staticmethod
    def of(documents: tuple[Document, ...], tax: Taxonomy, corpus_root: str) -> RouteIndex:
        tokenizer, roles = Tokenizer.of(tax), Roles.of(tax)
        noise = PATH_NOISE | set(tokens(corpus_root))
        kept = _kept(documents, body_terms(tax).key)
        return RouteIndex((entry(d, tax, tokenizer, noise, roles, k) for d, k in zip(documents, kept, strict=True)),
                          tokenizer)


@frozen
class Roles:
    """The facets route reads as a title and a summary, and the sections it reads as a summary,
    by role: with the tokenizer, all that shapes a document's kept counts besides its bytes."""

    name: str | None
    scent: str | None
    sections: tuple[str, ...]

    @staticmethod
    def of(tax: Taxonomy) -> Roles:
        return Roles(tax.facet_for_role("name"), tax.facet_for_role(SUMMARY_ROLE),
                     tax.sections_for_role(SUMMARY_ROLE))


@frozen
class Counted:
    """What route reads of one document's bytes, as stem counts: its title (the name facet, else
    its body's first level-1 heading), its summary facet, its headings, its prose outside them,
    its first paragraph and each declared summary section it holds (by its folded name)."""

    title: dict[str, int]
    summary: dict[str, int]
    headings: dict[str, int]
    prose: dict[str, int]
    first_paragraph: dict[str, int]
    sections: dict[str, dict[str, int]]

    def kept(self) -> list:
        return [self.title, self.summary, self.headings, self.prose, self.first_paragraph, self.sections]

    @staticmethod
    def read(kept: object) -> Counted | None:
        """The counts `kept` holds, or None when it is not a value `kept()` gives."""
        if not (isinstance(kept, list) and len(kept) == 6 and all(isinstance(part, dict) for part in kept)
                and all(isinstance(counts, dict) for counts in kept[5].values())):
            return None
        return Counted(*kept)


def entry(document: Document, tax: Taxonomy, tokenizer: Tokenizer, path_noise: frozenset[str],
          roles: Roles, kept: object = None) -> Entry:
    """`kept`: what `check` derived from the document's bytes (`body_terms`), if anything."""
    body = Counted.read(kept)
    if body is None:  # counted here from the body, which is not kept on the document
        body = counted(document.front, document.read_body(), tokenizer, roles)
    scent = document.text_of(roles.scent)
    return Entry(document, (
        body.title,
        body.summary,
        body.headings,
        tokenizer.counts(" ".join(word for word in tokens(document.path) if word not in path_noise)),
        body.prose,
        {} if scent else _lead(document, tax, body),
    ))


def _lead(document: Document, tax: Taxonomy, body: Counted) -> dict[str, int]:
    """The summary a body gives: its kind's summary section (by role), else its first paragraph."""
    section = tax.section_for_role(document.kind, SUMMARY_ROLE) if document.kind else None
    return (body.sections.get(_folded(section)) if section else None) or body.first_paragraph


def body_terms(tax: Taxonomy) -> Derivation:
    """What `check` keeps beside each document's bytes for route, under a key naming the value's
    shape, the tokenizer, and the facets and sections the taxonomy gives the roles route reads
    (all shape the value)."""
    tokenizer, roles = Tokenizer.of(tax), Roles.of(tax)
    named = [KEPT_SHAPE, tokenizer.key, roles.name or "", roles.scent or "", *roles.sections]
    key = hashlib.sha256("\n".join(named).encode("utf-8")).hexdigest()[:16]
    return Derivation(key, lambda front, body: counted(front, body, tokenizer, roles).kept())


def counted(front: Map, body: Body, tokenizer: Tokenizer, roles: Roles) -> Counted:
    """The stem counts of the title (the name facet, else the body's first level-1 heading) and
    the summary facet, and of the body's headings, of its prose outside them, of its first
    paragraph and of the first section under each of the summary role's sections (matched
    trimmed and case-folded, as required sections are)."""
    heading_lines = {h.line for h in body.headings}
    paragraphs = [p for p in body.prose if p.line not in heading_lines]
    wanted = {_folded(name) for name in roles.sections}
    found: dict[str, dict[str, int]] = {}
    for at, heading in enumerate(body.headings):
        name = _folded(heading.text)
        if name in wanted and name not in found:
            end = next((h.line for h in body.headings[at + 1:] if h.level <= heading.level), None)
            found[name] = tokenizer.counts("\n".join(
                line for p in paragraphs if p.line > heading.line and (end is None or p.line < end)
                for line in p.lines))
    title = front_text(front, roles.name) or next((h.text for h in body.headings if h.level == 1), "")
    return Counted(tokenizer.counts(title), tokenizer.counts(front_text(front, roles.scent) or ""),
                   tokenizer.counts("\n".join(h.text for h in body.headings)),
                   tokenizer.counts("\n".join(line for p in paragraphs for line in p.lines)),
                   tokenizer.counts("\n".join(paragraphs[0].lines) if paragraphs else ""),
                   found)


def _folded(name: str) -> str:
    return name.strip().casefold()


def _kept(documents: tuple[Document, ...], key: str) -> Sequence[object]:
    """Per document, what `check` kept of its body under this key (None where nothing was), read
    from the parse store the documents share in one pass and decoded as each is read."""
    store = next((d.parses for d in documents if d.parses is not None), None)
    if store is None:
        return [None] * len(documents)
    return store.derived([d.digest for d in documents], key)
