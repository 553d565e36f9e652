"""Voice: the constructions a kind's voice regime forbids in its prose."""

from __future__ import annotations

import re

from headwater.check.context import Context
from headwater.check.finding import Hit, Severity
from headwater.check.rule import Precision, Scope, rule
from headwater.check.rules.prose import runs
from headwater.corpus.document import Document

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


@rule("voice.forbidden_construction", 2, Scope.DOCUMENT, Severity.WARN,
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


RULES = (voice_forbidden_construction,)
