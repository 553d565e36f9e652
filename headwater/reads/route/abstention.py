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
  one page meets the page on those words and nowhere else: counted, the words it lacks outvote it;
- it is explained (HW-DR-0033, `explains`): for the document ranked first on every field (the
  one offered first, but for the purpose prior's nudge), the share of the task's IDF mass its
  name holds plus the share of the rest of the mass it holds as a subject reaches EXPLAINED. A
  word its headings hold counts at its IDF; a word only its body holds counts by how much the
  body dwells on it (`depth`, from the ranking: the square root of its body's saturation against
  the most a body gives). A trap that meets a page on its name in another sense ("renew the
  Let's Encrypt certificate on my nginx web server") holds the rest of its words, if at all,
  where any long page holds them: once, in passing. Counted, such words pass for corroboration;
  weighed by how much the page says them, they do not. Where the ranking lets a record's context
  vouch because its words would meet by no chance (HW-DR-0059), that chance is the same test,
  and this one is not asked (HW-DR-0060).

Every task is judged as if it were SPAN words long (HW-DR-0031). The mass grows with each word a
task holds, and a task asked in a user's own words ("give new team members a containerized VS Code
environment with the CLI already installed") spends most of its words on things no page says, so
the bars, set on the short tasks traps are, rose with every word a user added: on fresh wording
route was silent on two real tasks in five. A longer task's confidence and name share are read
against SPAN words' worth of its mass (SPAN over its word count of the bar), and its corroboration
counts the words its best document holds against at most SPAN of those the corpus knows. A task
of SPAN words or fewer is judged as before, at bars set higher than before.

The constants were chosen on every real labelled set together (tests/route_sets), the two sets
first written blind included, and are reported on two further blind sets.
"""

from __future__ import annotations

from collections.abc import Mapping

from headwater.frozen import frozen

CONFIDENT = 0.27  # the least confidence at which a task of SPAN words is answered on its match
BROAD = 0.6  # the share of CONFIDENT at which a task is answered when its best document covers it
COVERED = 0.5  # the share of the task's IDF mass a covering document holds, in any field
CORROBORATED = 0.7  # the share of the task's known words (SPAN at most) the best document holds
NAMED = 0.35  # or the share of the mass of a task of SPAN words its name alone must hold
EXPLAINED = 0.32  # the name's share of the mass plus the share of the rest held as a subject
SPAN = 5  # a longer task is judged on this many words' worth of its mass and its known words
NAMING = frozenset({"title", "summary", "path"})  # the fields that say what a document is about


@frozen
class Agreement:
    """How the best document holds the task: whether its name holds any task word, whether it
    rests on one word while two or more other task words the corpus knows pass it by, whether the
    rest of the task corroborates it, whether it explains the task, and the share of the bars a
    task of its length must clear (1 up to SPAN words, SPAN over its word count beyond)."""

    named: bool
    one_word: bool
    corroborated: bool
    scale: float = 1.0
    explained: bool = True

    @staticmethod
    def of(held: tuple[tuple[str, tuple[str, ...]], ...], known: int, idf: dict[str, float],
           mass: float, words: int = 0, explained: bool = True) -> Agreement:
        """`held`: (stem, the fields that vouch for it) for each task stem the best document holds
        in a field that vouches; `known`: how many task stems the corpus holds; `mass`: the task's
        IDF mass; `words`: how many stems the task has, the corpus's or not; `explained`: whether
        the document ranked first explains the task (`explains`)."""
        scale = min(1.0, SPAN / words) if words else 1.0
        in_name = _in_name(held)
        named_share = sum(idf[stem] for stem in in_name) / mass if mass else 0.0
        return Agreement(bool(in_name), len(held) == 1 and known >= 3,
                         len(held) >= CORROBORATED * min(known, SPAN) or named_share >= NAMED * scale,
                         scale, explained)


def explains(held: tuple[tuple[str, tuple[str, ...]], ...], idf: dict[str, float], mass: float,
             depth: Mapping[str, float]) -> bool:
    """Whether a document explains the task: the share of the task's IDF mass its name holds,
    plus the share of the rest of the mass it holds as a subject, reaches EXPLAINED. `held` is as
    for `Agreement.of`; `depth` gives, for a held stem, the share of its IDF the document holds it
    at as a subject (1 where absent: a heading, or a field that names the document)."""
    in_name = _in_name(held)
    name_mass = sum(idf[stem] for stem in in_name)
    rest = sum(idf[stem] * depth.get(stem, 1.0) for stem, fields in held if stem not in in_name)
    named_share = name_mass / mass if mass else 0.0
    return named_share + (rest / (mass - name_mass) if mass > name_mass else 0.0) >= EXPLAINED


def _in_name(held: tuple[tuple[str, tuple[str, ...]], ...]) -> list[str]:
    """The held stems a field naming the document vouches for."""
    return [stem for stem, fields in held if NAMING.intersection(fields)]


def trusted(confidence: float, coverage: float, confident: float, agreement: Agreement) -> bool:
    """A strong match, or a broad one (most of the task's mass held by a document that scores
    BROAD of the threshold and whose name agrees), the threshold scaled to the task's length;
    never a match resting on one word, nor one the rest of the task does not corroborate, nor one
    the document ranked first does not explain."""
    if agreement.one_word or not agreement.corroborated or not agreement.explained:
        return False
    bar = confident * agreement.scale
    return confidence >= bar or (confidence >= bar * BROAD and coverage >= COVERED and agreement.named)
