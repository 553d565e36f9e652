"""When route trusts a task's best document enough to answer: the abstention rule, per task.

Confidence (the best document's score over the task's IDF mass) and coverage (the share of that
mass the best document holds, in any field) come from the ranking; this module decides from them
and from how the best document holds the task's words. A task is answered on a strong match
(confidence at least CONFIDENT) or a broad one (BROAD of that, with COVERED of the mass held and a
task word in the best document's name), and only when both hold:

- it does not rest on one word while two or more other task words the corpus knows pass the best
  document by (HW-DR-0019);
- it is corroborated (HW-DR-0027): the best document holds most of the task's words
  (CORROBORATED of those the corpus knows, counted, not weighed), or its name (title, summary or
  path) alone holds NAMED of the task's IDF mass. A trap that shares a subject word or two with
  one page ("renew the certificate of my first aid training", "configure DNS records for a custom
  email domain") meets the page in its name or body on those words and nowhere else: weighed by
  IDF, one rare word can pass for coverage; counted, the words the page lacks outvote it. A real
  task either names its page (the name alone explains much of it) or describes it in words the
  page holds.

The constants were chosen on the seen labelled sets of both real corpora (tests/route_sets).
"""

from __future__ import annotations

from dataclasses import dataclass

CONFIDENT = 0.18  # the least confidence at which a task is answered on the strength of its match
BROAD = 0.6  # the share of CONFIDENT at which a task is answered when its best document covers it
COVERED = 0.5  # the share of the task's IDF mass a covering document holds, in any field
CORROBORATED = 0.6  # the share of the task's known words the best document must hold, counted
NAMED = 0.28  # or the share of the task's IDF mass its name alone must hold
NAMING = frozenset({"title", "summary", "path"})  # the fields that say what a document is about


@dataclass(frozen=True)
class Agreement:
    """How the best document holds the task: whether its name holds any task word, whether it
    rests on one word while two or more other task words the corpus knows pass it by, and whether
    the rest of the task corroborates it."""

    named: bool
    one_word: bool
    corroborated: bool

    @staticmethod
    def of(held: tuple[tuple[str, tuple[str, ...]], ...], known: int, idf: dict[str, float],
           mass: float) -> Agreement:
        """`held`: (stem, the fields that vouch for it) for each task stem the best document holds
        in a field that vouches; `known`: how many task stems the corpus holds; `mass`: the task's
        IDF mass."""
        in_name = [stem for stem, fields in held if NAMING.intersection(fields)]
        named_share = sum(idf[stem] for stem in in_name) / mass if mass else 0.0
        return Agreement(bool(in_name), len(held) == 1 and known >= 3,
                         len(held) >= CORROBORATED * known or named_share >= NAMED)


def trusted(confidence: float, coverage: float, confident: float, agreement: Agreement) -> bool:
    """A strong match, or a broad one (most of the task's mass held by a document that scores
    BROAD of the threshold and whose name agrees); never a match resting on one word, nor one the
    rest of the task does not corroborate."""
    if agreement.one_word or not agreement.corroborated:
        return False
    return confidence >= confident or (confidence >= confident * BROAD and coverage >= COVERED
                                       and agreement.named)
