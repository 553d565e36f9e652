"""Body: a document's prose — its links, its voice, and the terms its language regime retired."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity
from headwater.check.links import landings, named, stands
from headwater.check.patches import Patch, ReplaceSpan
from headwater.check.rule import Precision, Reads, Scope, rule
from headwater.check.rules.common import ticked
from headwater.corpus.body import Link
from headwater.corpus.document import Document

# -- prose ----------------------------------------------------------------------------------

# What is not the author's own running prose: code spans, quoted strings, HTML (comments and
# tags) and link destinations. Each is blanked to spaces so every column stays where it was.
NOT_PROSE = re.compile(r"(`+)[\s\S]*?\1|\"[^\"]*\"|“[^”]*”|<!--[\s\S]*?-->|<[^>\n]*>|(?<=\])\([^)\s]*\)")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
MARKER = re.compile(r"[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d+[.)][ \t]+)?")
NOT_NEWLINE = re.compile(r"[^\n]")


@dataclass(frozen=True)
class Run:
    """One prose block joined into one text, with code and quotes blanked."""

    line: int
    text: str  # as written
    masked: str  # same length: what is not prose is spaces

    @cached_property
    def lowered(self) -> str | None:
        """`masked` in lower case, for word tests that skip a pattern; None unless it is ASCII, since
        under `re.I` a pattern's `i` and `s` also match `ı` and `ſ`, which `lower()` leaves alone."""
        return self.masked.lower() if self.masked.isascii() else None

    def may_hold(self, words: tuple[str, ...]) -> bool:
        """False only when no pattern whose every match holds one of `words` (ASCII, lower case)
        can match the run."""
        lowered = self.lowered  # map, not a generator: this runs for every pattern and every run
        return lowered is None or any(map(lowered.__contains__, words))

    def position(self, offset: int) -> tuple[int, int]:
        """The file line and 1-based column (code points) of an offset into the text."""
        before = self.text.rfind("\n", 0, offset)
        return self.line + self.text.count("\n", 0, offset), offset - before

    def sentences(self) -> Iterator[tuple[int, str]]:
        """(offset of the sentence's first word, the sentence) for each sentence of the run."""
        start = 0
        for end in [m.start() for m in SENTENCE_END.finditer(self.masked)] + [len(self.masked)]:
            chunk = self.masked[start:end]
            lead = MARKER.match(chunk).end()
            if chunk[lead:].strip():
                yield start + lead, chunk[lead:]
            start = end


def _blank(match: re.Match) -> str:
    text = match.group(0)  # most matches hold no newline: one multiplication, not a substitution
    return " " * len(text) if "\n" not in text else NOT_NEWLINE.sub(" ", text)


def runs(ctx: Context, document: Document) -> list[Run]:
    """The document's prose runs; the voice and language rules judge one document after the
    other, so the latest document's runs are kept for the second of them."""
    path, found = ctx.memo.get("runs", (None, None))
    if path != document.path:
        found = [Run(p.line, "\n".join(p.lines), NOT_PROSE.sub(_blank, "\n".join(p.lines)))
                 for p in document.body.prose]
        ctx.memo["runs"] = (document.path, found)
    return found


# -- links ----------------------------------------------------------------------------------


def _at(doc: Document, link: Link, message: str, remediation: str, subject: str) -> Hit:
    return Hit(doc.path, link.line, link.column, message, remediation, subject)


def _relative(doc: Document, path: str) -> str:
    return posixpath.relpath(path, posixpath.dirname(doc.path) or ".")


LINK_TAGS = ("body", "link")


@rule("link.path.unresolved", 1, Scope.CORPUS, Severity.ERROR,
      short="A relative link names no file, or climbs above the repository.",
      full="A link without a scheme resolves against the document's directory (or the "
           "repository root when it opens with `/`); nothing stands at the path it reaches, or "
           "the path climbs out of the repository.",
      help="""
Relative links break silently when a file moves. Point the link at the file's current path,
written relative to the linking document, or link to a full URL when the target lives outside
the repository.
""",
      tags=LINK_TAGS, reads=(Reads.LINKS,), by_document=True)
def link_path_unresolved(ctx: Context, doc: Document) -> list[Hit]:
    hits = []
    for link, landed in landings(doc):
        if landed.path is None:
            hits.append(_at(doc, link, f"the link `{link.href}` climbs above the repository",
                            "link to a file inside the repository, or write a full URL", link.href))
        elif not stands(ctx, landed.path):
            hits.append(_at(doc, link, f"the link `{link.href}` reaches `{landed.path}`, and no file "
                            "stands there", "point the link at the file's current path, or delete it",
                            link.href))
    return hits


@rule("link.fragment.unresolved", 1, Scope.CORPUS, Severity.ERROR,
      short="A link's `#fragment` names no heading of the document it reaches.",
      full="The fragment of a link into a Markdown document is compared with the GitHub slugs of "
           "that document's headings; none of them is the fragment.",
      help="""
GitHub gives every heading an anchor: lowercased, punctuation dropped, spaces turned to `-`,
and `-1`, `-2`… on repeats. A fragment that matches no heading lands at the top of the page.
Use the slug of the heading you mean, or drop the fragment.
""",
      tags=LINK_TAGS, reads=(Reads.LINKS,), by_document=True)
def link_fragment_unresolved(ctx: Context, doc: Document) -> list[Hit]:
    hits = []
    for link, landed in landings(doc):
        row = ctx.snapshot.census.by_path.get(landed.path or "")
        target = row.document if row is not None else None
        if not landed.fragment or target is None or landed.fragment in target.body.slugs:
            continue
        where = "this document" if target.path == doc.path else f"`{target.path}`"
        slugs = sorted(target.body.slugs)
        remedy = (f"use one of its headings: {ticked('#' + s for s in slugs[:6])}" if slugs
                  else "drop the fragment; the document has no headings")
        hits.append(_at(doc, link, f"the link `{link.href}` names `#{landed.fragment}`, and {where} "
                        "has no heading with that slug", remedy, link.href))
    return hits


def _opens(landed: str, carrier: str) -> bool:
    """A link to a folder opens the folder's README, as forges render it (`keps/sig-x/1885-y`)."""
    return landed == carrier or carrier == f"{landed}/README.md"


@rule("link.identifier.mismatch", 2, Scope.CORPUS, Severity.ERROR,
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
    for link, landed in landings(doc):
        text = named(link)
        carrier = ctx.graph.ids.get(text)
        if carrier is None or landed.path is None or _opens(landed.path, carrier) or not stands(ctx, landed.path):
            continue
        hits.append(_at(doc, link, f"the link text `{text}` is the identifier of `{carrier}`, and the "
                        f"link reaches `{landed.path}`",
                        f"point the link at `{_relative(doc, carrier)}`, or change its text",
                        f"{text}>{landed.path}"))
    return hits


# -- voice ----------------------------------------------------------------------------------

# The voice regime's categories and what this engine matches for each: a small closed table,
# one row per category the taxonomy validator admits (a test holds the two together). The last
# column holds words one of which every match contains (lower case): most prose holds none of a
# category's words, and a substring test is far cheaper than the pattern.
VOICE = (
    ("future_intent", "states an intention about the future",
     re.compile(r"\b(?:will|won't|shall)\s+\w+|\b(?:is|are|am)\s+going\s+to\b|\b\w+'ll\b", re.I),
     "state what holds now; plans belong in a proposal or an issue",
     ("will", "won't", "shall", "going", "'ll")),
    ("change_narration", "narrates a change instead of stating what holds",
     re.compile(r"\bwe\s+(?:renamed|changed|replaced|removed|moved|switched|migrated|dropped)\b|"
                r"\b(?:was|were|has\s+been|have\s+been)\s+(?:renamed|changed|moved|switched)\s+(?:to|from)\b|"
                r"\bno\s+longer\b", re.I),
     "state the fact as it stands; the history lives in version control and `supersedes`",
     ("renamed", "changed", "replaced", "removed", "moved", "switched", "migrated", "dropped", "longer")),
    ("phased_rollout", "describes a phase of a rollout rather than what holds",
     re.compile(r"\bfor\s+now\b|\bfor\s+the\s+time\s+being\b|\bin\s+phase\s+\w+|\binitially\b|"
                r"\beventually\b", re.I),
     "state what holds now, and give a later phase its own document when it is decided",
     ("now", "being", "phase", "initially", "eventually")),
)


def _voice(ctx: Context, doc: Document) -> tuple[str | None, tuple[str, ...]]:
    voice = ctx.taxonomy.voice_of(doc.kind)
    return voice, ctx.taxonomy.voice_forbids(voice)


@rule("voice.forbidden_construction", 1, Scope.DOCUMENT, Severity.WARN,
      short="A sentence uses a construction the kind's voice regime forbids.",
      full="The voice regime bound to the kind forbids categories of construction (future "
           "intent, change narration, phased rollout); a sentence of the prose matches one. Code "
           "and quotations are not the author's voice and are skipped.",
      help="""
A governed document states what holds. "We will…", "we renamed…" and "for now…" describe
plans, history or a temporary state, which go stale without anyone noticing. Rewrite the
sentence as a statement of the current fact.
""",
      tags=("body", "voice"), precision=Precision.MEDIUM,
      routes=lambda ctx, doc: bool(_voice(ctx, doc)[1]))
def voice_forbidden_construction(ctx: Context, doc: Document):
    voice, forbidden = _voice(ctx, doc)
    table = [entry for entry in VOICE if entry[0] in forbidden]
    hits = []
    for run in runs(ctx, doc):
        # no pattern spans a sentence end (`.!?` then space), so a run none matches has no hit
        rows = [row for row in table if run.may_hold(row[4]) and row[2].search(run.masked)]
        if not rows:
            continue
        for offset, sentence in run.sentences():
            for category, says, pattern, remedy, _ in rows:
                found = pattern.search(sentence)
                if found:
                    line, column = run.position(offset)
                    phrase = " ".join(found.group(0).split())
                    hits.append(Hit(doc.path, line, column, f"this sentence {says} (`{category}`, which "
                                    f"the voice `{voice}` forbids): “{phrase}”", remedy,
                                    f"{category}:{phrase.lower()}"))
    return hits


# -- retired terms --------------------------------------------------------------------------


@lru_cache(maxsize=256)  # a few terms per regime, compiled once
def _term_pattern(term: str) -> re.Pattern[str]:
    words = r"\s+".join(re.escape(w) for w in term.split())
    return re.compile(rf"(?<![\w-]){words}(?![\w-])", re.I)


@lru_cache(maxsize=256)
def _term_words(term: str) -> tuple[str, ...]:
    """Words every match of the term's pattern holds (lower case); none to test for a term
    that is not ASCII, since `re.I` matches it against letters `lower()` does not give."""
    return (term.split()[0].lower(),) if term.isascii() and term.split() else ()


def _cased(written: str, replacement: str) -> str:
    """The replacement in the case the author wrote the term: `Whitelist` → `Allowlist`."""
    if written.isupper() and len(written) > 1:
        return replacement.upper()
    if written[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def _retired(ctx: Context, doc: Document):
    language = ctx.taxonomy.language_of(doc.kind)
    return language, ctx.taxonomy.retired_terms(language)


@rule("language.retired_term.used", 1, Scope.DOCUMENT, Severity.ERROR,
      short="The prose uses a term the language regime retired.",
      full="The language regime bound to the kind retires terms, each with a reason and perhaps "
           "a replacement; the prose uses one. With a replacement the fix is mechanical (an "
           "error); without one, rewording needs judgement (a warning).",
      help="""
A retired term stays out of the corpus for the reason the regime gives. When the regime names
a replacement, `headwater check --fix` writes it in the case you used; otherwise reword the
sentence. Code and quotations are skipped.
""",
      tags=("body", "language"),
      routes=lambda ctx, doc: bool(_retired(ctx, doc)[1]),
      patch=True)
def language_retired_term_used(ctx: Context, doc: Document):
    language, terms = _retired(ctx, doc)
    hits = []
    for run in runs(ctx, doc):
        for term in terms:
            words = _term_words(term.term)
            if words and not run.may_hold(words):
                continue
            for found in _term_pattern(term.term).finditer(run.masked):
                written = run.text[found.start():found.end()]
                line, column = run.position(found.start())
                hits.append(_retired_hit(doc, language, term, written, line, column))
    return hits


def _retired_hit(doc: Document, language: str, term, written: str, line: int, column: int) -> Hit:
    message = f"`{term.term}` is a term the language `{language}` retired: {term.reason}"
    if not term.replacement:
        return Hit(doc.path, line, column, message, f"reword the sentence without `{term.term}`",
                   term.term, Severity.WARN)
    new = _cased(written, term.replacement)
    return Hit(doc.path, line, column, message, f"write `{new}` instead", term.term,
               patch=Patch(doc.path, doc.digest, (ReplaceSpan(line, column, written, new),)))


RULES = (
    link_path_unresolved,
    link_fragment_unresolved,
    link_identifier_mismatch,
    voice_forbidden_construction,
    language_retired_term_used,
)
