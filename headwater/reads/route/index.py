"""What route reads of each document, built once per snapshot: per field, the stems it holds.

Five fields: the name-role facet (else the first heading), the scent-role facet, the headings
(markdown-it's, so never a line inside a code fence), the path's segments (split on `/ . _ -`,
without `index`, `README`, the file extension or the corpus root's own folders) and the body's
prose outside code and quotes. Bodies come through the parse cache, so a run after a `check`
reuses the bodies it parsed, and are let go once counted: a server holds counts, not bodies.
The ranking (route_rank) weighs the fields; this module only counts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from headwater.corpus.document import Document
from headwater.reads.route.tokens import Tokenizer
from headwater.reads.terms import tokens
from headwater.taxonomy.model import Taxonomy

FIELDS = ("title", "summary", "headings", "path", "body")
PATH_NOISE = frozenset({"index", "readme", "md", "markdown"})


@dataclass(frozen=True)
class Entry:
    """One document as route reads it: per field (in FIELDS order), stem → occurrences."""

    document: Document
    counts: tuple[Counter, ...]

    @property
    def lengths(self) -> tuple[int, ...]:
        return tuple(sum(c.values()) for c in self.counts)


@dataclass(frozen=True)
class RouteIndex:
    entries: tuple[Entry, ...]  # census order, which is path order: a position breaks ties as a path would
    tokenizer: Tokenizer

    @staticmethod
    def of(documents: tuple[Document, ...], tax: Taxonomy, corpus_root: str) -> RouteIndex:
        tokenizer = Tokenizer.of(tax)
        noise = PATH_NOISE | set(tokens(corpus_root))
        return RouteIndex(tuple(entry(d, tax, tokenizer, noise) for d in documents), tokenizer)


def entry(document: Document, tax: Taxonomy, tokenizer: Tokenizer, path_noise: frozenset[str]) -> Entry:
    body = document.read_body()  # not kept on the document: the counts are all route needs of it
    heading_lines = {h.line for h in body.headings}
    title = document.text_of(tax.facet_for_role("name")) or next(
        (h.text for h in body.headings if h.level == 1), "")
    texts = (
        title,
        document.text_of(tax.facet_for_role("scent")) or "",
        "\n".join(h.text for h in body.headings),
        " ".join(word for word in tokens(document.path) if word not in path_noise),
        "\n".join(line for p in body.prose if p.line not in heading_lines for line in p.lines),
    )
    return Entry(document, tuple(tokenizer.counts(text) for text in texts))
