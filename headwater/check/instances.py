"""Instances: which rules reach which subjects, and the sections the cache keeps their verdicts in.

A subject is a typed document, a declared relation entry (an edge), or the corpus. Every rule
is asked about every subject of its scope (`routes`); each (rule, subject) it reaches is one
instance. A corpus rule judged `by_document` is one instance, judged document by document.

The verdict cache keeps one record per subject. A record holds sections: the rules of one kind
of subject that read the same inputs (`Reads`, the clock, the change), so a warm run looks up
one key per document and per edge, and a stale input re-runs only the sections that read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Protocol

from headwater.check.context import Context
from headwater.check.finding import Finding, Hit, Skip
from headwater.check.rule import Reads, Rule, Scope
from headwater.corpus.document import Document
from headwater.frozen import frozen
from headwater.graph import Edge

Subject = Document | Edge | None  # what one verdict judges: a document, an edge, or the corpus (None)

NO_CHANGE = ("change-scoped: the prior version is read only from a `--change` manifest, "
             "and this run carries none")

# A rule's verdict on a subject: its findings; the reason it reached none (a skip); or None
# when the rule does not route to the subject (no instance).
Verdict = tuple[Finding, ...] | str | None


@dataclass(frozen=True, eq=False)
class Section:
    """Rules of one subject kind read alike, in registry order, each with its registry position.
    Equal only to itself and hashed so: the cache keys its memos by section, once a subject, and
    `id()` would raise an audit event the replay's hook hears (HW-DR-0037) each time."""

    kind: Scope  # the subjects: DOCUMENT (with the `by_document` corpus rules), EDGE or CORPUS
    rules: tuple[Rule, ...]
    positions: tuple[int, ...]
    reads: frozenset[Reads]  # what every rule of the section reads (with `model`'s clock and change)
    by_document: bool

    @property
    def model(self) -> Rule:
        return self.rules[0]

    @cached_property
    def cached(self) -> bool:
        return Reads.UNSTATED not in self.reads

    @cached_property
    def reads_anchor(self) -> bool:
        return Reads.ANCHOR in self.reads

    @cached_property
    def reads_links(self) -> bool:
        return Reads.LINKS in self.reads

    @cached_property
    def stamped_per_subject(self) -> bool:
        """Whether the cache's stamp reads the subject (an anchor's revision, where links land), or
        is the same for every subject this run; a kind's sections stamped alike come first."""
        return self.reads_anchor or self.reads_links or not self.cached


@frozen
class Judged:
    """One section's verdicts on one subject, with what the runner tallies of them."""

    verdicts: tuple[Verdict, ...]  # one per rule of the section
    reached: int  # instances: the rules that route to the subject
    skips: tuple[tuple[int, str], ...]  # (index in the section, reason)
    found: tuple[tuple[int, tuple[Finding, ...]], ...]  # (index in the section, findings), non-empty

    @classmethod
    def of(cls, verdicts: tuple[Verdict, ...]) -> Judged:
        if not any(verdicts):  # most sections judged every run route to nothing: one object for them
            shared = NOTHING_REACHED.get(verdicts)
            if shared is not None:
                return shared
        reached, skips, found = 0, [], []  # one pass: every subject's every section comes through here
        for index, verdict in enumerate(verdicts):
            if verdict is None:
                continue
            reached += 1
            if isinstance(verdict, str):
                skips.append((index, verdict))
            elif verdict:
                found.append((index, verdict))
        return cls(verdicts, reached, tuple(skips), tuple(found))

    @property
    def verdicts_reached(self) -> int:
        """Instances that reached a verdict: what the cache counts as a hit or a miss."""
        return self.reached - len(self.skips)


NOTHING_REACHED = MappingProxyType({(None,) * size: Judged((None,) * size, 0, (), ()) for size in range(1, 33)})


class JudgedAhead(Protocol):
    """Verdicts judged before the runner reached them, by (section identity, subject identity),
    each handed over once (a dict, or `spread.Ahead`)."""

    def pop(self, key: tuple[int, int], default: Judged | None = None, /) -> Judged | None: ...


@frozen
class Summary:
    """What the runner takes from sections judged on one subject: the instances counted against
    its document (a rule judged by document is one corpus instance, counted apart), each skip as
    (reason, rule position), each non-empty list of findings as (rule position, findings)."""

    reached: int
    skips: tuple[tuple[str, int], ...]
    found: tuple[tuple[int, tuple[Finding, ...]], ...]

    @classmethod
    def of(cls, sections: tuple[Section, ...], judged: list[Judged], after: Summary | None = None) -> Summary:
        """`after`: a summary of the subject's earlier sections, extended in place of a second
        object added to it (two summaries per subject were a tenth of a warm check's objects)."""
        if after is not None:  # a loop, not `all()` over a generator: every subject comes through here
            for section, one in zip(sections, judged, strict=True):
                if one.found or (one.reached and not section.by_document):
                    break
            else:
                return after  # nothing to add: most subjects' later sections reach nothing or find nothing
        reached, skips, found = (after.reached, list(after.skips), list(after.found)) if after else (0, [], [])
        for section, one in zip(sections, judged, strict=True):
            found += [(section.positions[at], findings) for at, findings in one.found]
            if not section.by_document:
                reached += one.reached
                skips += [(reason, section.positions[at]) for at, reason in one.skips]
        return cls(reached, tuple(skips), tuple(found))


def kind_of(rule: Rule) -> Scope:
    return Scope.DOCUMENT if rule.by_document else rule.scope


def sections(rules: tuple[Rule, ...]) -> dict[Scope, tuple[Section, ...]]:
    """The sections of every subject kind: those stamped alike first, each group in the order its
    first rule is registered (the runner orders findings and skips by rule position, not section)."""
    groups: dict[tuple, list[int]] = {}
    for position, rule in enumerate(rules):
        if rule.scope is Scope.RUNNER:
            continue
        change = rule.needs_change or Reads.CHANGE in rule.reads
        signature = (kind_of(rule), rule.by_document, frozenset(rule.reads), rule.reads_clock, change)
        groups.setdefault(signature, []).append(position)
    out: dict[Scope, list[Section]] = {}
    for (kind, by_document, reads, _, _), positions in groups.items():
        out.setdefault(kind, []).append(
            Section(kind, tuple(rules[p] for p in positions), tuple(positions), reads, by_document))
    return {kind: tuple(sorted(found, key=lambda s: s.stamped_per_subject)) for kind, found in out.items()}


def subjects(ctx: Context, kind: Scope) -> list[tuple[Subject, str | None]]:
    """(subject, the document its instances count against): documents by path, edges as declared."""
    if kind is Scope.DOCUMENT:
        return [(doc, doc.path) for doc in ctx.graph.census.documents]
    if kind is Scope.EDGE:
        return [(edge, edge.source) for edge in ctx.graph.edges]
    return [(None, None)]


def stamp(rule: Rule, hit: Hit) -> Finding:
    return Finding(rule.id, hit.severity or rule.severity, hit.path, hit.line,
                   hit.column if hit.line > 0 else 0, hit.message, hit.remediation,
                   hit.patch is not None, hit.subject, patch=hit.patch, companion=hit.companion)


def verdict(ctx: Context, rule: Rule, subject: Subject) -> Verdict:
    if rule.routes is not None and not rule.routes(ctx, subject):
        return None
    if rule.needs_change and ctx.change is None:
        return NO_CHANGE
    found = rule.check(ctx, subject)
    if isinstance(found, Skip):
        return found.reason
    return tuple(stamp(rule, hit) for hit in found)


def judge(ctx: Context, section: Section, subject: Subject) -> Judged:
    # a list made into a tuple, not a generator: a warm run judges the sections no key states of
    # every document and edge, and most hold one rule that routes to nothing
    return Judged.of(tuple([verdict(ctx, rule, subject) for rule in section.rules]))
