"""What route reads of each document, built once per snapshot: per field, the stems it holds.

Six fields: the name-role facet (else the first heading), the scent-role facet, the headings
(markdown-it's, so never a line inside a code fence), the path's segments (split on `/ . _ -`,
without `index`, `README`, the file extension or the corpus root's own folders), the body's
prose outside code and quotes, and the lead: where a document has no scent facet, the summary its
body gives — the section its kind declares for the `scent` role (`sections.roles`), else its
first paragraph (HW-DR-0026). What a body gives (its first level-1 heading, its headings',
prose's and first paragraph's stem counts, and those of each section the taxonomy declares for `scent`) is
derived by `check` into the parse cache under a key naming the tokenizer and those sections
(`body_terms`), so a run after a `check` neither parses nor tokenizes a body; a miss (no cache,
another key, a malformed value) counts the body itself, through the parse cache, and lets it go:
a server holds counts, not bodies. Either way the counts are the same, in the same order.
The ranking (`rank`) weighs the fields; this module only counts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from headwater.corpus.body import Body
from headwater.corpus.derived import Derivation
from headwater.corpus.document import Document
from headwater.reads.route.tokens import Tokenizer
from headwater.reads.terms import tokens
from headwater.taxonomy.model import Taxonomy

FIELDS = ("title", "summary", "headings", "path", "body", "lead")
PATH_NOISE = frozenset({"index", "readme", "md", "markdown"})
SUMMARY_ROLE = "scent"  # the facet role, and the section role, route reads as a summary


@dataclass(frozen=True)
class Entry:
    """One document as route reads it: per field (in FIELDS order), stem → occurrences."""

    document: Document
    counts: tuple[dict[str, int], ...]

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(sum(c.values()) for c in self.counts)


@dataclass(frozen=True)
class RouteIndex:
    # census order, which is path order: a position breaks ties as a path would. `of` gives them
    # one at a time, read once (by the scorer), so one document's counts are held at a time.
    entries: Iterable[Entry]
    tokenizer: Tokenizer

    @staticmethod
    def of(documents: tuple[Document, ...], tax: Taxonomy, corpus_root: str) -> RouteIndex:
        tokenizer = Tokenizer.of(tax)
        noise = PATH_NOISE | set(tokens(corpus_root))
        kept = _kept(documents, body_terms(tax).key)
        return RouteIndex((entry(d, tax, tokenizer, noise, k) for d, k in zip(documents, kept, strict=True)),
                          tokenizer)


@dataclass(frozen=True)
class Counted:
    """What route reads of one body: its first level-1 heading, and the stem counts of its
    headings, its prose outside them, its first paragraph and each declared summary
    section it holds (by its folded name)."""

    first_heading: str
    headings: dict[str, int]
    prose: dict[str, int]
    first_paragraph: dict[str, int]
    sections: dict[str, dict[str, int]]

    def kept(self) -> list:
        return [self.first_heading, self.headings, self.prose, self.first_paragraph, self.sections]

    @staticmethod
    def read(kept: object) -> Counted | None:
        """The counts `kept` holds, or None when it is not a value `kept()` gives."""
        if not (isinstance(kept, list) and len(kept) == 5 and isinstance(kept[0], str)
                and all(isinstance(part, dict) for part in kept[1:])
                and all(isinstance(counts, dict) for counts in kept[4].values())):
            return None
        return Counted(*kept)


def entry(document: Document, tax: Taxonomy, tokenizer: Tokenizer, path_noise: frozenset[str],
          kept: object = None) -> Entry:
    """`kept`: what `check` derived from the document's body (`body_terms`), if anything."""
    body = Counted.read(kept)
    if body is None:  # counted here from the body, which is not kept on the document
        body = counted(document.read_body(), tokenizer, tax.sections_for_role(SUMMARY_ROLE))
    counts = tokenizer.counts
    scent = document.text_of(tax.facet_for_role(SUMMARY_ROLE))
    return Entry(document, (
        counts(document.text_of(tax.facet_for_role("name")) or body.first_heading),
        counts(scent or ""),
        body.headings,
        counts(" ".join(word for word in tokens(document.path) if word not in path_noise)),
        body.prose,
        {} if scent else _lead(document, tax, body),
    ))


def _lead(document: Document, tax: Taxonomy, body: Counted) -> dict[str, int]:
    """The summary a body gives: its kind's summary section (by role), else its first paragraph."""
    section = tax.section_for_role(document.kind, SUMMARY_ROLE) if document.kind else None
    return (body.sections.get(_folded(section)) if section else None) or body.first_paragraph


def body_terms(tax: Taxonomy) -> Derivation:
    """What `check` keeps beside each body for route, under a key naming the tokenizer and the
    sections the taxonomy declares for the summary role (both shape the value)."""
    tokenizer = Tokenizer.of(tax)
    sections = tax.sections_for_role(SUMMARY_ROLE)
    key = hashlib.sha256("\n".join([tokenizer.key, *sections]).encode("utf-8")).hexdigest()[:16]
    return Derivation(key, lambda body: counted(body, tokenizer, sections).kept())


def counted(body: Body, tokenizer: Tokenizer, sections: tuple[str, ...]) -> Counted:
    """The body's first level-1 heading (the title when no facet names one), and the stem counts
    of its headings, of its prose outside them, of its first paragraph and of the first section
    under each of `sections` (matched trimmed and case-folded, as required sections are)."""
    heading_lines = {h.line for h in body.headings}
    paragraphs = [p for p in body.prose if p.line not in heading_lines]
    wanted = {_folded(name) for name in sections}
    found: dict[str, dict[str, int]] = {}
    for at, heading in enumerate(body.headings):
        name = _folded(heading.text)
        if name in wanted and name not in found:
            end = next((h.line for h in body.headings[at + 1:] if h.level <= heading.level), None)
            found[name] = tokenizer.counts("\n".join(
                line for p in paragraphs if p.line > heading.line and (end is None or p.line < end)
                for line in p.lines))
    return Counted(next((h.text for h in body.headings if h.level == 1), ""),
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
