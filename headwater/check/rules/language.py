"""Language regimes: retired terms, a controlled profile, the source form, `outside_root`."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import replace
from functools import lru_cache

from headwater.announcements import PROBE
from headwater.check.context import Context
from headwater.check.finding import Hit, Severity, Skip
from headwater.check.patches import Patch, ReplaceSpan
from headwater.check.rule import Reads, Scope, rule
from headwater.check.rules.hits import lock_hit
from headwater.check.rules.prose import Run, runs
from headwater.check.spelling import TAGS, american
from headwater.corpus.document import Document
from headwater.paths import OutsidePath, normalize
from headwater.patterns import opening_wildcard

UNCONTROLLED = ("", "none")


# The (controlled language, profile) pairs this engine has rules for; any other skips, naming it.
PROFILES = (("asd-ste100", None), ("asd-ste100", "house"), ("ste-house", None), ("ste-strict", None))


MAX_WORDS = 25  # the descriptive-writing limit of the ASD-STE100 family


WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’-]*")


LETTERS = re.compile(r"(?<![\w'’-])[A-Za-z][a-z]+(?![\w'’-])")


CONTRACTION = re.compile(r"\b([A-Za-z]+)['’](t|s|re|ve|ll|d|m)\b")


EXPANSIONS = {
    "don't": "do not", "doesn't": "does not", "didn't": "did not", "isn't": "is not",
    "aren't": "are not", "wasn't": "was not", "weren't": "were not", "hasn't": "has not",
    "haven't": "have not", "hadn't": "had not", "can't": "cannot", "couldn't": "could not",
    "shouldn't": "should not", "wouldn't": "would not", "won't": "will not", "mustn't": "must not",
    "needn't": "need not", "i'm": "I am", "you're": "you are", "we're": "we are",
    "they're": "they are", "i've": "I have", "you've": "you have", "we've": "we have",
    "they've": "they have", "i'll": "I will", "you'll": "you will", "we'll": "we will",
    "they'll": "they will", "it'll": "it will", "let's": "let us",
}


# `'s` after these is `is` or `has`, never a possessive; which of the two needs a reader.
PRONOUNS = ("it", "that", "there", "here", "what", "who", "he", "she", "where", "how", "this")


def _regime(ctx: Context, doc: Document) -> tuple[str | None, dict]:
    name = ctx.taxonomy.language_of(doc.kind)
    return name, ctx.taxonomy.language_regime(name)


def _controlled(ctx: Context, doc: Document) -> str | None:
    controlled = str(_regime(ctx, doc)[1].get("controlled") or "")
    return None if controlled.lower() in UNCONTROLLED else controlled


def _cased(written: str, new: str) -> str:
    return new[:1].upper() + new[1:] if written[:1].isupper() else new


def _contraction(doc: Document, written: str, suffix: str, line: int, column: int) -> Hit | None:
    base = written[: -len(suffix) - 1].lower()
    expansion = EXPANSIONS.get(written.lower().replace("’", "'"))
    if expansion is None and suffix == "s" and base not in PRONOUNS:
        return None  # a possessive
    message = f"`{written}` is a contraction, which the controlled language does not write"
    if expansion is None:
        return Hit(doc.path, line, column, message, "write the two words in full", f"contraction:{written.lower()}",
                   Severity.ERROR)
    new = _cased(written, expansion)
    return Hit(doc.path, line, column, message, f"write `{new}`", f"contraction:{written.lower()}",
               Severity.ERROR, Patch(doc.path, doc.digest, (ReplaceSpan(line, column, written, new),)))


def _spelling(doc: Document, written: str, line: int, column: int) -> Hit | None:
    if not written[1:].islower():
        return None
    fixed = american(written.lower())
    if fixed is None:
        return None
    new = _cased(written, fixed)
    return Hit(doc.path, line, column, f"`{written}` is not en-US spelling", f"write `{new}`",
               f"spelling:{written.lower()}", Severity.ERROR,
               Patch(doc.path, doc.digest, (ReplaceSpan(line, column, written, new),)))


@rule("language.controlled.not_met", 2, Scope.DOCUMENT, Severity.WARN,
      short="The prose breaks the controlled language its regime names.",
      full="A language regime with `controlled: ASD-STE100` (profile `house` or none), "
           "`ste-house` or `ste-strict` holds prose to a controlled language (another profile "
           f"skips, naming it): sentences of at most {MAX_WORDS} words and no semicolons "
           "(warnings: shortening needs judgement), no contractions and, under an `en-US` tag, "
           "en-US spelling (errors, fixed when the correction is unambiguous).",
      help=f"""
A controlled language keeps prose short and literal so readers (and translators) take one
meaning from it. Split a sentence past {MAX_WORDS} words, replace a semicolon with a full
stop, write contractions out (`does not`), and use en-US spelling (`behavior`). Spelling reads
a kept English word list; a word it lacks is judged only when its American respelling is known.
`headwater check --fix` writes the unambiguous corrections in the body; the summary (the facet in
the `scent` role) is held to the same rules and corrected by hand.
""",
      tags=("body", "language"),
      routes=lambda ctx, doc: _controlled(ctx, doc) is not None,
      patch=True)
def language_controlled_not_met(ctx: Context, doc: Document):
    profile = _controlled(ctx, doc)
    name, regime = _regime(ctx, doc)
    house = regime.get("profile")
    if (profile.lower(), str(house) if house else None) not in PROFILES:
        declared = f"{profile}, profile {house}" if house else profile
        return Skip(f"`{name}` declares {declared}, and this engine has no rules for it")
    spelled = str(regime.get("tag") or "") in TAGS
    hits = [h for run in runs(ctx, doc) for h in _judged(doc, run, profile, spelled)]
    return hits + _scent(ctx, doc, profile, spelled)


def _scent(ctx: Context, doc: Document, profile: str, spelled: bool) -> list[Hit]:
    """The facet in the `scent` role is prose a reader meets first; its findings point at the value
    and carry no patch (nothing here rewrites a front-matter value mid-sentence)."""
    facet = ctx.taxonomy.facet_for_role("scent")
    node, text = doc.value(facet), doc.text_of(facet)
    if node is None or not text:
        return []
    run = Run(node.line, text)
    return [replace(h, line=node.line, column=node.column, patch=None,
                    message=f"the `{facet}` facet: {h.message}", remediation=f"{h.remediation}, by hand")
            for h in _judged(doc, run, profile, spelled)]


def _judged(doc: Document, run: Run, profile: str, spelled: bool) -> list[Hit]:
    if all(line.lstrip().startswith("|") for line in run.text.splitlines()):
        return []  # a table written as pipes: cells, not sentences
    hits: list[Hit | None] = []
    for offset, sentence in run.sentences():
        words = len(WORD.findall(sentence))
        if words > MAX_WORDS:
            line, column = run.position(offset)
            hits.append(Hit(doc.path, line, column, f"this sentence has {words} words, and the "
                            f"controlled language `{profile}` allows {MAX_WORDS}",
                            "split it into sentences that each carry one statement", "length"))
        if ";" in sentence:
            line, column = run.position(offset + sentence.index(";"))
            hits.append(Hit(doc.path, line, column, f"a semicolon joins two statements, which the "
                            f"controlled language `{profile}` writes as two sentences",
                            "end the first statement with a full stop", "semicolon"))
    for found in CONTRACTION.finditer(run.masked):
        line, column = run.position(found.start())
        hits.append(_contraction(doc, run.text[found.start():found.end()], found.group(2), line, column))
    for found in LETTERS.finditer(run.masked) if spelled else ():
        line, column = run.position(found.start())
        hits.append(_spelling(doc, found.group(0), line, column))
    return [h for h in hits if h is not None]


def _source_form(ctx: Context, doc: Document) -> str | None:
    return _regime(ctx, doc)[1].get("source_form")


@rule("language.source_form.not_met", 1, Scope.DOCUMENT, Severity.ERROR,
      short="A paragraph is hard-wrapped where its regime writes one line per block.",
      full="The language regime declares `source_form: one_line_per_block`: every paragraph is "
           "one source line. This line continues the paragraph above it.",
      help="""
One block per line keeps a diff to the sentence that changed: a reflowed paragraph hides the
one word another commit edited. Join the paragraph's lines into one (a Markdown hard break,
a trailing backslash or two spaces, is kept as written).
""",
      tags=("body", "language"),
      routes=lambda ctx, doc: _source_form(ctx, doc) == "one_line_per_block")
def language_source_form_not_met(ctx: Context, doc: Document):
    hits = []
    for block in doc.body.prose:
        for index in range(1, len(block.lines)):
            above = block.lines[index - 1]
            if above.endswith("\\") or above.endswith("  "):
                continue
            hits.append(Hit(doc.path, block.line + index, 1, f"this line hard-wraps the paragraph that "
                            f"begins on line {block.line}", "join the paragraph into one line", "wrap"))
    return hits


def _outside_problem(ctx: Context, raw: str) -> str | None:
    try:
        pattern = normalize(raw)
    except OutsidePath:
        return f"`{raw}` climbs above the repository or is absolute"
    if not pattern or opening_wildcard(pattern):
        return f"`{raw}` opens with a wildcard, and no literal segment bounds it"
    matched = ctx.snapshot.tree.matches(pattern)
    if not matched:
        return f"`{raw}` matches no file of the repository"
    for m in matched:
        sys.audit(PROBE, ctx.snapshot.root / m)  # looked at again by a replay (HW-DR-0037)
    linked = [m for m in matched if os.path.islink(ctx.snapshot.root / m)]
    return f"`{raw}` matches `{linked[0]}`, a symbolic link, which is never read" if linked else None


@rule("language.outside_root.refused", 1, Scope.RUNNER, Severity.ERROR,
      short="A language regime's `outside_root` pattern reaches nothing it may read.",
      full="`outside_root` names prose outside the corpus root that a language regime also "
           "governs (a README, say). A pattern that climbs out of the repository, opens with a "
           "wildcard, matches no file, or matches a symbolic link governs nothing.",
      help="""
Write each `outside_root` pattern relative to the repository root, bounded by a literal first
segment, matching the files you mean; a symbolic link is never followed. Delete a pattern
whose files are gone.
""",
      tags=("language", "taxonomy"),
      reads=(Reads.UNSTATED,))
def language_outside_root_refused(ctx: Context, _tally) -> list[Hit]:
    hits = []
    for name, raw in sorted((ctx.taxonomy.regimes.get("language") or {}).items()):
        patterns = raw.get("outside_root") or []
        for pattern in patterns if isinstance(patterns, list) else [patterns]:
            problem = _outside_problem(ctx, str(pattern))
            if problem:
                hits.append(lock_hit(ctx, ("regimes", "language", name, "outside_root"),
                                     f"the language `{name}` reaches outside the corpus root, and {problem}",
                                     "correct the pattern, or delete it", str(pattern)))
    return hits


@lru_cache(maxsize=256)  # a few terms per regime, compiled once
def _term_pattern(term: str) -> re.Pattern[str]:
    words = r"\s+".join(re.escape(w) for w in term.split())
    return re.compile(rf"(?<![\w-]){words}(?![\w-])", re.I)


@lru_cache(maxsize=256)
def _term_words(term: str) -> tuple[str, ...]:
    """Words every match of the term's pattern holds (lower case); none to test for a term
    that is not ASCII, since `re.I` matches it against letters `lower()` does not give."""
    return (term.split()[0].lower(),) if term.isascii() and term.split() else ()


def _cased_as_written(written: str, replacement: str) -> str:
    """The replacement in the case the author wrote the term: `Whitelist` → `Allowlist`."""
    if written.isupper() and len(written) > 1:
        return replacement.upper()
    if written[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def _retired(ctx: Context, doc: Document):
    language = ctx.taxonomy.language_of(doc.kind)
    return language, ctx.taxonomy.retired_terms(language)


@rule("language.retired_term.used", 3, Scope.DOCUMENT, Severity.ERROR,
      short="The prose uses a term the language regime retired.",
      full="The language regime bound to the kind retires terms, each with a reason and perhaps "
           "a replacement; the prose uses one. With a replacement the fix is mechanical (an "
           "error), except in a heading, whose words are the anchor links reach it by; without "
           "one, rewording needs judgement (a warning).",
      help="""
A retired term stays out of the corpus for the reason the regime gives. When the regime names
a replacement, `headwater check --fix` writes it in the case you used; otherwise reword the
sentence. Code and quotations are skipped. A heading is never rewritten by `--fix`: its words
make the anchor (`#whitelist-rules`) that links, here and elsewhere, reach it by, so rename it
by hand together with the links to it.
""",
      tags=("body", "language"),
      routes=lambda ctx, doc: bool(_retired(ctx, doc)[1]),
      patch=True)
def language_retired_term_used(ctx: Context, doc: Document):
    language, terms = _retired(ctx, doc)
    headings = {heading.line for heading in doc.body.headings}
    hits = []
    for run in runs(ctx, doc):
        for term in terms:
            words = _term_words(term.term)
            if words and not run.may_hold(words):
                continue
            for found in _term_pattern(term.term).finditer(run.masked):
                written = run.text[found.start():found.end()]
                article = _article(run.text, found.start())
                hits.append(_retired_hit(doc, language, term, written, run.position(found.start()),
                                         (article.group(1), run.position(article.start())) if article else None,
                                         heading=run.line in headings))
    return hits


# "a" or "an" just before a term, on its line: the fix turns it when the replacement sounds otherwise
ARTICLE = re.compile(r"(?<![\w-])(an?)[ \t]+$", re.I)


def _article(text: str, at: int) -> re.Match[str] | None:
    """`ARTICLE.search(text, 0, at)`, searched only from just before the spaces that end there
    (and a newline after them, which `$` stands before): from the start of the run, for every
    term found, it cost a run of many terms the square of its length."""
    end = at - 1 if text[at - 1:at] == "\n" else at
    while end and text[end - 1] in " \t":
        end -= 1
    return ARTICLE.search(text, max(end - 2, 0), at)


def _retired_hit(doc: Document, language: str, term, written: str, at: tuple[int, int],
                 article: tuple[str, tuple[int, int]] | None, heading: bool) -> Hit:
    line, column = at
    message = f"`{term.term}` is a term the language `{language}` retired: {term.reason}"
    if not term.replacement:
        return Hit(doc.path, line, column, message, f"reword the sentence without `{term.term}`",
                   term.term, Severity.WARN)
    new = _cased_as_written(written, term.replacement)
    if heading:  # renaming a heading moves its anchor, and --fix cannot see every link to it
        return Hit(doc.path, line, column, message, f"write `{new}` instead, and change the links to "
                   "this heading's anchor with it", term.term)
    edits = [ReplaceSpan(line, column, written, new)]
    turned = _article_before(new, article[0]) if article else None
    if turned:
        edits.insert(0, ReplaceSpan(*article[1], article[0], turned))
    return Hit(doc.path, line, column, message, f"write `{new}` instead", term.term,
               patch=Patch(doc.path, doc.digest, tuple(edits)))


def _article_before(word: str, article: str) -> str | None:
    """The article `word` takes in the case `article` is written, when it is not `article`: "an"
    before a, e, i, o, "a" before any other letter but h and u, whose sound the spelling does not
    tell ("an hour", "a user"); None when `article` stands or the sound is unclear."""
    first = word[:1].lower()
    if not first.isalpha() or first in "hu":
        return None
    wanted = "an" if first in "aeio" else "a"
    if wanted == article.lower():
        return None
    if article.isupper() and len(article) > 1 or article == "A" and word[:2].isupper():
        return wanted.upper()
    return wanted.capitalize() if article[0].isupper() else wanted


RULES = (
    language_controlled_not_met,
    language_source_form_not_met,
    language_outside_root_refused,
    language_retired_term_used,
)
