"""What route reads of each document, built once per snapshot: per field, the stems it holds.

Five fields: the name-role facet (else the first heading), the scent-role facet, the headings
(markdown-it's, so never a line inside a code fence), the path's segments (split on `/ . _ -`,
without `index`, `README`, the file extension or the corpus root's own folders) and the body's
prose outside code and quotes. What a body gives (its first level-1 heading, its headings' and
prose's stem counts) is derived by `check` into the parse cache under the tokenizer's key
(`body_terms`), so a run after a `check` neither parses nor tokenizes a body; a miss (no cache,
another key, a malformed value) counts the body itself, through the parse cache, and lets it go:
a server holds counts, not bodies. Either way the counts are the same, in the same order.
The ranking (route_rank) weighs the fields; this module only counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from headwater.corpus.body import Body
from headwater.corpus.derived import Derivation
from headwater.corpus.document import Document
from headwater.reads.route_tokens import Tokenizer
from headwater.reads.terms import tokens
from headwater.taxonomy.model import Taxonomy

FIELDS = ("title", "summary", "headings", "path", "body")
PATH_NOISE = frozenset({"index", "readme", "md", "markdown"})


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
    entries: tuple[Entry, ...]  # census order, which is path order: a position breaks ties as a path would
    tokenizer: Tokenizer

    @staticmethod
    def of(documents: tuple[Document, ...], tax: Taxonomy, corpus_root: str) -> RouteIndex:
        tokenizer = Tokenizer.of(tax)
        noise = PATH_NOISE | set(tokens(corpus_root))
        kept = _kept(documents, tokenizer.key)
        return RouteIndex(tuple(entry(d, tax, tokenizer, noise, k) for d, k in zip(documents, kept, strict=True)),
                          tokenizer)


def entry(document: Document, tax: Taxonomy, tokenizer: Tokenizer, path_noise: frozenset[str],
          kept: object = None) -> Entry:
    """`kept`: what `check` derived from the document's body (`body_terms`), if anything."""
    if (isinstance(kept, list) and len(kept) == 3 and isinstance(kept[0], str)
            and isinstance(kept[1], dict) and isinstance(kept[2], dict)):
        first_heading, headings, prose = kept
    else:  # counted here from the body, which is not kept on the document
        first_heading, headings, prose = counted(document.read_body(), tokenizer)
    counts = tokenizer.counts
    return Entry(document, (
        counts(document.text_of(tax.facet_for_role("name")) or first_heading),
        counts(document.text_of(tax.facet_for_role("scent")) or ""),
        headings,
        counts(" ".join(word for word in tokens(document.path) if word not in path_noise)),
        prose,
    ))


def body_terms(tax: Taxonomy) -> Derivation:
    """What `check` keeps beside each body for route, under the tokenizer's key."""
    tokenizer = Tokenizer.of(tax)
    return Derivation(tokenizer.key, lambda body: list(counted(body, tokenizer)))


def counted(body: Body, tokenizer: Tokenizer) -> tuple[str, dict[str, int], dict[str, int]]:
    """The body's first level-1 heading (the title when no facet names one), and the stem counts
    of its headings and of its prose outside them."""
    heading_lines = {h.line for h in body.headings}
    return (next((h.text for h in body.headings if h.level == 1), ""),
            tokenizer.counts("\n".join(h.text for h in body.headings)),
            tokenizer.counts("\n".join(line for p in body.prose if p.line not in heading_lines for line in p.lines)))


def _kept(documents: tuple[Document, ...], key: str) -> list[object]:
    """Per document, what `check` kept of its body under this key (None where nothing was), read
    from the parse store the documents share in one pass."""
    store = next((d.parses for d in documents if d.parses is not None), None)
    if store is None:
        return [None] * len(documents)
    return store.derived([d.digest for d in documents], key)
