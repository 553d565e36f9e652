"""The verdict cache: a rule instance whose inputs did not change answers from the last run.

An instance's key is a digest of everything its verdict depends on: the engine and rule
versions, the lock digest, the run date for rules that read the clock, and what the rule
declares it reads (`Reads`): its subject (a document's bytes; an edge's two ends and what its
target binds; every census row), which document carries each identifier, the claim store, an
anchor's content revision, the `--change` manifest. A rule whose inputs cannot be stated is
never cached, nor is a skipped instance. Suppressions apply after the rules, so the cache holds
raw verdicts.

One file, `.headwater/cache/checks`: a header line, then `<key>\\t<findings as JSON>` per line.
Anything doubtful reads as empty, and a verdict that does not decode is a miss: the cache can
cost a rerun, never a wrong answer. It is written once, at the end, only when it changed.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cached_property
from pathlib import Path

from headwater import __version__, cachedir
from headwater.check.context import CLAIMS, Context
from headwater.check.finding import Finding, Severity
from headwater.check.instances import Instance
from headwater.check.patches import Patch
from headwater.check.rule import Reads, Rule, Scope
from headwater.graph import Bound, Edge

NAME = "checks"
HEADER = "headwater check verdicts 1"
SEP = "\x1f"


class Verdicts:
    """The cache for one process: read once, consulted per instance, saved once."""

    def __init__(self, root: Path, stored: dict[str, str]) -> None:
        self.root = root
        self.stored = stored
        self.kept: dict[str, str] = {}  # what this process used or learned: the next file
        self.hits = 0
        self.misses = 0

    @classmethod
    def load(cls, root: Path) -> Verdicts:
        return cls(root, _parse(cachedir.read(root, NAME, HEADER)))

    def recall(self, key: str) -> tuple[Finding, ...] | None:
        raw = self.kept.get(key) or self.stored.get(key)
        findings = _decode(raw) if raw is not None else None
        if findings is not None:
            self.kept[key] = raw
            self.hits += 1
        return findings

    def remember(self, key: str, findings: tuple[Finding, ...]) -> None:
        self.kept[key] = _encode(findings)
        self.misses += 1

    def save(self) -> list[str]:
        """Write the cache when it changed: nothing, or the one stderr line of a failed write."""
        if not self.misses and len(self.kept) == len(self.stored):
            return []  # every key kept was stored, and every stored key was used
        payload = "".join(f"{key}\t{raw}\n" for key, raw in sorted(self.kept.items()))
        failure = cachedir.write(self.root, NAME, HEADER, payload.encode("utf-8"))
        return [failure] if failure else []

    @property
    def account(self) -> str:
        return f"headwater: cache: {self.hits} hits, {self.misses} misses"


def _parse(payload: bytes | None) -> dict[str, str]:
    if not payload:
        return {}
    try:
        lines = payload.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return {}
    stored = {}
    for line in lines[:-1]:
        key, tab, raw = line.partition("\t")
        if not tab or len(key) != 32:
            return {}  # not a file this engine wrote: all of it is doubtful
        stored[key] = raw
    return stored if lines[-1] == "" else {}


def _encode(findings: tuple[Finding, ...]) -> str:
    return json.dumps([[f.rule, f.severity.value, f.path, f.line, f.column, f.message, f.remediation,
                        f.fixable, f.subject, f.patch.as_data() if f.patch else None] for f in findings],
                      ensure_ascii=False, separators=(",", ":"))


def _decode(raw: str) -> tuple[Finding, ...] | None:
    if raw == "[]":
        return ()  # most verdicts: nothing found
    try:
        return tuple(Finding(rule, Severity(severity), path, line, column, message, remediation, fixable,
                             subject, patch=Patch.from_data(patch) if patch else None)
                     for rule, severity, path, line, column, message, remediation, fixable, subject, patch
                     in json.loads(raw))
    except (ValueError, TypeError, KeyError):
        return None


class Keys:
    """The keys of one run's instances; corpus-wide inputs are digested once, on first use."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.plans: dict[str, tuple[str, tuple[Reads, ...]] | None] = {}
        self.subjects: dict[int, str] = {}  # by the subject's identity: rules share a document or edge
        self.revisions: dict[tuple[str, ...], str] = {}  # anchors that match the same files

    def key(self, instance: Instance) -> str | None:
        rule = instance.rule
        plan = self.plans[rule.id] if rule.id in self.plans else self._plan(rule)
        if plan is None:
            return None
        prefix, reads = plan
        if reads == (Reads.SUBJECT,):  # most rules: two digests side by side, none computed here
            return prefix + self._subject(instance)
        return _digest(SEP.join((prefix, *(self._material(each, instance) for each in reads))), 16)

    def _plan(self, rule: Rule) -> tuple[str, tuple[Reads, ...]] | None:
        """The part of every key of this rule that does not depend on the instance, and what does."""
        plan = None
        if Reads.UNSTATED not in rule.reads:
            clock = self.ctx.today.isoformat() if rule.reads_clock else ""
            change = self.change if rule.needs_change or Reads.CHANGE in rule.reads else ""
            prefix = SEP.join((__version__, self.ctx.snapshot.lock.digest, rule.id, str(rule.version),
                               clock, change))
            plan = (_digest(prefix, 8), tuple(r for r in rule.reads if r is not Reads.CHANGE))
        self.plans[rule.id] = plan
        return plan

    def _material(self, reads: Reads, instance: Instance) -> str:
        if reads is Reads.SUBJECT:
            return self._subject(instance)
        if reads is Reads.ANCHOR:
            return self._anchor(instance.subject)
        return self.ids if reads is Reads.IDS else self.claims

    def _subject(self, instance: Instance) -> str:
        scope, subject = instance.rule.scope, instance.subject
        if scope is Scope.CORPUS:
            return self.census
        known = self.subjects.get(id(subject))
        if known is None:
            material = SEP.join((subject.path, subject.digest)) if scope is Scope.DOCUMENT else self._edge(subject)
            known = self.subjects[id(subject)] = _digest(material, 8)
        return known

    def _edge(self, edge: Edge) -> str:
        target, near, far = edge.target, self.ctx.document(edge.source), self.ctx.far(edge)
        matched = "\x1e".join(target.anchor.matched) if target.anchor is not None else ""
        return SEP.join((edge.source, near.digest if near else "", str(edge.line), str(edge.column),
                         edge.written_as, target.raw, target.bound.value, target.path or "",
                         target.id or "", target.reason, matched, far.digest if far else ""))

    def _anchor(self, edge: Edge) -> str:
        anchor = edge.target.anchor
        if edge.target.bound is not Bound.ANCHOR or anchor is None:
            return ""
        if anchor.matched not in self.revisions:
            self.revisions[anchor.matched] = self.ctx.snapshot.tree.revision(anchor.matched)
        return self.revisions[anchor.matched]

    @cached_property
    def census(self) -> str:
        rows = self.ctx.snapshot.census.rows
        return _digest("\n".join(SEP.join((r.path, r.outcome.value, r.kind or "", r.reason or "",
                                           r.document.digest if r.document else "")) for r in rows), 8)

    @cached_property
    def ids(self) -> str:
        return _digest("\n".join(f"{i}{SEP}{p}" for i, p in sorted(self.ctx.graph.ids.items())))

    @cached_property
    def claims(self) -> str:
        store = self.ctx.snapshot.root / CLAIMS
        listing = [os.path.relpath(os.path.join(top, name), store)
                   for top, _, names in os.walk(store) for name in names]
        return _digest("\n".join(sorted(listing)))

    @cached_property
    def change(self) -> str:
        change = self.ctx.change
        if change is None:
            return "no change"
        lines = [f"added{SEP}{p}" for p in sorted(change.added)]
        lines += [f"prior{SEP}{p}{SEP}{change.prior_digest(p)}" for p in sorted(change.prior)]
        lines += [f"departed{SEP}{p}" for p in sorted(change.departed)]
        lines += [f"verified{SEP}{p}" for p in sorted(change.verified_documents)]
        lines += [f"verified{SEP}{d}{SEP}{t}" for d, t in sorted(change.verified_edges)]
        return _digest("\n".join(lines))


def _digest(text: str, size: int = 16) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=size).hexdigest()
