"""The verdict cache: a section of rules whose inputs did not change answers from the last run.

One record per subject (a document, an edge, the corpus), under a key of the program that judged
(its code, interpreter and installed distributions, `codeprint`: a rule or parser changed within
one release, or a dependency upgraded, may judge otherwise, so it serves nothing), the lock
digest, the layout of its sections (every rule id and version) and a digest of the subject: a
document's path, kind and bytes; an edge's two ends and what its target binds; every census row
for the corpus. Inside, each section (`instances.Section`) keeps its verdicts under a stamp of
what else its rules read: the run date for rules that read the clock, which document carries
each identifier, the claim store, the `--change` manifest, an anchor's content revision, what
stands where a document's links land (and the declared site roots that place them). A stale
stamp re-runs that section alone. Rules whose inputs cannot be stated are never cached.
Suppressions apply after the rules, so the cache holds raw verdicts; skips are verdicts of the
same inputs and are kept with them.

One file, `.headwater/cache/checks`: a header line, then `<key>\\t<record>` per line; and beside
it `checks-since`, of the same shape, with the records a run made or used that the first file
does not hold as they are. A record answers only for its own key, whichever run wrote it, so the
two are read as one. A run that changed a few records writes them in the second file alone, not
every record again (an edited document's run at 10,000 documents rewrote 6 MB for one); one that
changed many, or whose first file holds many records no run uses, writes the first file anew.
Anything doubtful reads as empty, and a section that does not decode is a miss: the cache can
cost a rerun, never a wrong answer. It is written once, at the end, only when it changed.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from functools import cached_property
from pathlib import Path
from typing import Any

from headwater import cachedir
from headwater.check import links
from headwater.check.context import CLAIMS, Context
from headwater.check.finding import Finding, Severity
from headwater.check.instances import (
    NO_CHANGE,
    Judged,
    JudgedAhead,
    Section,
    Subject,
    Summary,
    Verdict,
    judge,
    subjects,
)
from headwater.check.patches import Patch
from headwater.check.rule import Reads, Scope
from headwater.codeprint import program_fingerprint
from headwater.corpus.census import Outcome
from headwater.graph import Bound, Edge

NAME = "checks"
SINCE = "checks-since"  # the records the last runs made or used beyond `NAME`
HEADER = "headwater check verdicts 5"
SINCE_MOST = 16  # the second file holds up to one record in this many (or 64) before the first is written anew
SEP = "\x1f"
PART = "\x1e"  # between the sections of a record
FIELD = "\x1d"  # between a section's reads, its stamp and its verdicts
BOUND = {bound: bound.value for bound in Bound}  # an enum's `value` is a property, slow at every edge
OUTCOME = {outcome: outcome.value for outcome in Outcome}  # and at every census row


class Verdicts:
    """The cache file for one process: read once, consulted per subject, saved once."""

    def __init__(self, root: Path, whole: dict[str, str], since: dict[str, str] | None = None,
                 stored: dict[str, str] | None = None) -> None:
        self.root = root
        self.whole = whole  # what the first file holds (`NAME`)
        self.since = since or {}  # what the second holds (`SINCE`)
        self.stored = stored if stored is not None else {**whole, **self.since} if self.since else whole
        # what this process used or learned, the next file (`kept`): the keys of records used as
        # stored, and the records made anew; a share sends back the keys alone, and a run that
        # writes only the few it made never builds the whole mapping
        self.used: set[str] = set()
        self.learned: dict[str, str] = {}
        self.changed = False
        self.hits = 0  # instances that reached a verdict, served from the file
        self.misses = 0  # instances that reached a verdict, judged again

    @classmethod
    def load(cls, root: Path) -> Verdicts:
        return cls(root, *cls.read(root))

    @staticmethod
    def read(root: Path) -> tuple[dict[str, str], dict[str, str] | None]:
        """What the two files hold, each parsed (`NAME`, then `SINCE`): what a process that reads
        them for another sends it (`snapshot.load`'s `beside`), the records not merged twice."""
        whole = _parse(cachedir.read(root, NAME, HEADER))
        return whole, _parse(cachedir.read(root, SINCE, HEADER)) if whole else None

    def keep(self, key: str, record: str, fresh: bool) -> None:
        """Keep the subject's record: the stored one as it is, or (`fresh`) one made anew."""
        if fresh:
            self.learned[key] = record
            self.changed = True
        else:
            self.used.add(key)

    @property
    def kept(self) -> dict[str, str]:
        """Every record this process used or learned, by key."""
        stored = self.stored
        return {**{key: stored[key] for key in self.used}, **self.learned}

    def ledger(self) -> Verdicts:
        """An empty account over the same stored records, for one share of a run's subjects."""
        return Verdicts(self.root, self.whole, self.since, self.stored)

    def absorb(self, used: Iterable[str], learned: dict[str, str], changed: bool, hits: int, misses: int) -> None:
        """A share's account (`ledger`), taken into this one."""
        self.used.update(used)
        self.learned.update(learned)
        self.changed = self.changed or changed
        self.hits += hits
        self.misses += misses

    def save(self) -> list[str]:
        """Write the cache when it changed: nothing, or the one stderr line of a failed write."""
        used = self.used.difference(self.learned) if self.learned else self.used
        kept = len(used) + len(self.learned)
        if not self.changed and kept == len(self.stored):
            return []  # every record kept was stored as it is, and every stored one was used
        whole = self.whole
        beyond = {key: record for key, record in self.learned.items() if whole.get(key) is not record}
        beyond.update((key, record) for key, record in self.since.items()
                      if key in used and whole.get(key) is not record)  # used as the second file holds it
        unused = len(whole) - (kept - len(beyond))  # records of the first file no run used
        if not whole or len(beyond) + unused > max(64, kept // SINCE_MOST):
            # the second file emptied too, so no record it held shadows a newer one of the first
            return self._write(NAME, self.kept) + (self._write(SINCE, {}) if self.since else [])
        return self._write(SINCE, beyond) if self.changed or beyond != self.since else []

    def _write(self, name: str, records: dict[str, str]) -> list[str]:
        # line by line to bytes: one string of every record, some not ASCII, is two to four bytes
        # a character before its encoding, and took twice as long
        payload = b"".join(f"{key}\t{record}\n".encode() for key, record in sorted(records.items()))
        failure = cachedir.write(self.root, name, HEADER, payload)
        return [failure] if failure else []

    @property
    def account(self) -> str:
        return f"headwater: cache: {self.hits} hits, {self.misses} misses"


def _parse(payload: bytes | None) -> dict[str, str]:
    if not payload or not payload.endswith(b"\n"):
        return {}
    stored = {}
    try:  # line by line: decoding the whole file first held it twice more at the peak
        for line in payload[:-1].split(b"\n"):
            key, tab, record = line.partition(b"\t")
            if not tab or len(key) != 32:
                return {}  # not a file this engine wrote: all of it is doubtful
            stored[key.decode("utf-8")] = record.decode("utf-8")
    except UnicodeDecodeError:
        return {}
    return stored


def encode(verdicts: tuple[Verdict, ...]) -> str:
    """Per rule: 0 (no instance), 1 (the change-scoped skip of a run without `--change`, which
    every document's change-scoped rules give: as its sentence, it was most of a record), the
    skip's reason, or the findings."""
    return json.dumps([0 if v is None else 1 if v == NO_CHANGE else v if isinstance(v, str)
                       else [_finding(f) for f in v] for v in verdicts], ensure_ascii=False, separators=(",", ":"))


def _finding(f: Finding) -> list:
    return [f.rule, f.severity.value, f.path, f.line, f.column, f.message, f.remediation, f.fixable,
            f.subject, f.patch.as_data() if f.patch else None, f.companion.as_data() if f.companion else None]


def decode(raw: str) -> Judged | None:
    try:
        return Judged.of(tuple(_verdict(entry) for entry in json.loads(raw)))
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


def _verdict(entry: Any) -> Verdict:
    if type(entry) is int and entry in (0, 1):
        return None if entry == 0 else NO_CHANGE
    if isinstance(entry, str):
        return entry
    if not isinstance(entry, list):
        raise ValueError("not a verdict")
    return tuple(Finding(rule, Severity(severity), path, line, column, message, remediation, fixable,
                         subject, patch=Patch.from_data(patch) if patch else None,
                         companion=Patch.from_data(companion) if companion else None)
                 for rule, severity, path, line, column, message, remediation, fixable, subject, patch, companion
                 in entry)


class Records:
    """One run's verdicts through the cache: each subject's record looked up once, each section
    re-judged only when its stamp moved. Without a cache every section is judged."""

    def __init__(self, ctx: Context, cache: Verdicts | None, layout: dict[Scope, tuple[Section, ...]]) -> None:
        self.ctx = ctx
        self.cache = cache
        self.layout = layout
        # A section stamped alike for every subject (no anchor, no links) holds the same part for
        # most subjects: each distinct part is judged servable once a run, by the section's identity.
        self.served: dict[Section, dict[str, Judged | None]] = {
            s: {} for sections in layout.values() for s in sections
            if not s.stamped_per_subject}
        self.decoded: dict[str, Judged | None] = {}
        self.constants: dict[Section, str] = {}
        self.revisions: dict[tuple[str, ...], str] = {}  # anchors that match the same files
        self.anchored: dict[tuple[str, str], str] = {}  # a stamp by (constant, revision)
        # verdicts judged before the run reached them (on other cores), by (section, subject) identity
        self.ahead: JudgedAhead = {}
        self.subjects: dict[Scope, list[tuple[Subject, str | None]]] = {}  # by kind (`listed`)
        # each kind's alike sections served once per distinct opening of a record: most open alike
        self.heads: dict[Scope, dict[str, tuple[Summary, int] | None]] = {kind: {} for kind in layout}

    def _judge(self, section: Section, subject: Subject) -> Judged:
        # only a cold run spread over the cores judges ahead: the others skip the look-up
        ahead = self.ahead.pop((id(section), id(subject)), None) if self.ahead else None
        return ahead if ahead is not None else judge(self.ctx, section, subject)

    def each(self, kind: Scope, share: slice = slice(None)) -> Iterator[tuple[int, str | None, Summary]]:
        """(index, the document it counts against, its sections' summary) for each subject of a
        kind, or of the `share` of them (by index) one process judges."""
        sections = self.layout[kind]
        alike = sum(1 for section in sections if not section.stamped_per_subject)  # these come first
        heads = self.heads[kind]
        prefix = self.prefixes[kind] if self.cache is not None else ""
        listed = self.listed(kind)
        for index in range(len(listed))[share]:
            subject, document = listed[index]
            yield index, document, self._summary(kind, sections, alike, heads, prefix, subject)

    def listed(self, kind: Scope) -> list[tuple[Subject, str | None]]:
        """The subjects of a kind (`instances.subjects`), listed once."""
        found = self.subjects.get(kind)
        if found is None:
            found = self.subjects[kind] = subjects(self.ctx, kind)
        return found

    def settled(self) -> None:
        """Compute now what every subject's key and stamps share, and the subjects, so processes
        forked after share them."""
        for kind in self.layout:
            self.listed(kind)
        if self.prefixes:  # a cached property, as each constant below
            for sections in self.layout.values():
                for section in sections:
                    if section.cached:
                        self._stamp_constant(section)

    def sharing(self, ledger: Verdicts) -> Records:
        """These records, accounting to `ledger`: one share of a run, in this process or a forked one."""
        twin = copy.copy(self)  # the memos are pure (by content or identity), so the twins share them
        twin.cache = ledger
        return twin

    def _summary(self, kind: Scope, sections: tuple[Section, ...], alike: int,
                 heads: dict[str, tuple[Summary, int] | None], prefix: str, subject: Subject) -> Summary:
        cache = self.cache
        if cache is None:
            return Summary.of(sections, [self._judge(section, subject) for section in sections])
        key = prefix + self._subject(kind, subject)
        record = cache.stored.get(key)
        parts = record.split(PART) if record is not None else []
        if len(parts) != len(sections):
            parts = [""] * len(sections)
        head = PART.join(parts[:alike])
        served = heads[head] if head in heads else heads.setdefault(head, self._head(sections[:alike], parts))
        if served is None:  # a section stamped alike moved: judge section by section
            judged, kept, fresh = self._parts(sections, subject, parts)
            fresh = fresh or record is None
            cache.keep(key, PART.join(kept) if fresh else record, fresh)
            return Summary.of(sections, judged)
        summary, hits = served
        later = sections[alike:]
        judged = self._served_later(later, subject, parts[alike:])
        if judged is None:  # a part stamped per subject moved: made anew
            judged, kept, fresh = self._parts(later, subject, parts[alike:])
            cache.keep(key, PART.join(parts[:alike] + kept) if fresh else record, fresh)
        else:
            cache.used.add(key)
        cache.hits += hits
        return Summary.of(later, judged, after=summary) if judged else summary

    def _served_later(self, sections: tuple[Section, ...], subject: Subject,
                      parts: list[str]) -> list[Judged] | None:
        """The sections stamped per subject as most subjects take them: each judged again when no
        key states its inputs, else served from its part (its hits counted); None when a part
        cannot be served, and nothing counted (the subject's record is then made anew, `_parts`)."""
        out, hits = [], 0
        for section, part in zip(sections, parts, strict=True):
            if not section.cached:
                out.append(self._judge(section, subject))
                continue
            judged = self._servable(section, subject, part)
            if judged is None:
                return None
            hits += judged.verdicts_reached
            out.append(judged)
        self.cache.hits += hits
        return out

    def _head(self, sections: tuple[Section, ...], parts: list[str]) -> tuple[Summary, int] | None:
        """The sections stamped alike, served from their parts, with the hits; None if one is stale."""
        judged = [self._servable(section, None, part) for section, part in zip(sections, parts, strict=False)]
        if any(one is None for one in judged):
            return None
        return Summary.of(sections, judged), sum(one.verdicts_reached for one in judged)

    def _parts(self, sections: tuple[Section, ...], subject: Subject,
               parts: list[str]) -> tuple[list[Judged], list[str], bool]:
        """Each section's verdicts and part of the record, and whether any part is new."""
        out, kept, fresh = [], [], False
        for section, part in zip(sections, parts, strict=True):
            judged, part, moved = self._section(section, subject, part)
            out.append(judged)
            kept.append(part)
            fresh = fresh or moved
        return out, kept, fresh

    def _section(self, section: Section, subject: Subject, part: str) -> tuple[Judged, str, bool]:
        """The section's verdicts, its part of the record, and whether that part is new."""
        alike = self.served.get(section)
        if alike is None:
            if not section.cached:
                return self._judge(section, subject), "", False
            judged = self._servable(section, subject, part)
        elif part in alike:
            judged = alike[part]
        else:
            judged = alike[part] = self._servable(section, subject, part)
        if judged is not None:
            self.cache.hits += judged.verdicts_reached
            return judged, part, False
        judged = self._judge(section, subject)
        self.cache.misses += judged.verdicts_reached
        reads = links.reads(subject, self.ctx.snapshot.declaration.site_roots) if section.reads_links else ""
        return judged, FIELD.join((reads, self._stamp(section, subject, reads), encode(judged.verdicts))), True

    def _servable(self, section: Section, subject: Subject, part: str) -> Judged | None:
        """The stored verdicts when the part's stamp is this run's and they decode, else None."""
        reads, _, rest = part.partition(FIELD)
        stamp, _, raw = rest.partition(FIELD)
        if not raw or stamp != self._stamp(section, subject, reads):
            return None
        judged = self.decoded[raw] if raw in self.decoded else self.decoded.setdefault(raw, decode(raw))
        return judged if judged is not None and len(judged.verdicts) == len(section.rules) else None

    def _stamp(self, section: Section, subject: Subject, reads: str) -> str:
        constant = self._stamp_constant(section)
        if section.reads_anchor:  # most edges have no anchor, and anchors share what they match
            revision = self._anchor(subject)
            stamp = self.anchored.get((constant, revision))
            if stamp is None:
                stamp = self.anchored[constant, revision] = _digest(constant + SEP + revision, 8)
            return stamp
        if section.reads_links:
            return _digest(constant + SEP + links.material(self.ctx, reads), 8)
        return constant

    def _stamp_constant(self, section: Section) -> str:
        constant = self.constants.get(section)
        if constant is None:
            constant = self.constants[section] = self._constant(section)
        return constant

    def _constant(self, section: Section) -> str:
        """What every subject's stamp of this section shares this run."""
        rule = section.model
        parts = [self.ctx.today.isoformat() if rule.reads_clock else ""]
        parts.append(self.ids if Reads.IDS in rule.reads else "")
        parts.append(self.claims if Reads.CLAIMS in rule.reads else "")
        parts.append(self.states if Reads.STATES in rule.reads else "")
        parts.append(self.change if rule.needs_change or Reads.CHANGE in rule.reads else "")
        # the site roots place a link that opens with `/`, and the lock does not hold the declaration
        parts.append("/".join(self.ctx.snapshot.declaration.site_roots) if Reads.LINKS in rule.reads else "")
        return _digest(SEP.join(parts), 8)

    @cached_property
    def prefixes(self) -> dict[Scope, str]:
        """The part of every key of a subject kind that does not depend on the subject."""
        return {kind: _digest(SEP.join((HEADER, program_fingerprint(), self.ctx.snapshot.lock.digest, kind.value,
                                        *(",".join(f"{r.id}@{r.version}" for r in s.rules) for s in sections))), 8)
                for kind, sections in self.layout.items()}

    def _subject(self, kind: Scope, subject: Subject) -> str:
        if kind is Scope.DOCUMENT:
            return _digest(SEP.join((subject.path, subject.kind, subject.digest)), 8)
        if kind is Scope.EDGE:
            return _digest(self._edge(subject), 8)
        return self.census

    def _edge(self, edge: Edge) -> str:
        # `Context.document` and `Context.far` spelled out, and the enum's value looked up: every
        # edge's key is made every run
        target, documents = edge.target, self.ctx.graph.documents
        near = documents.get(edge.source) if edge.source else None
        far = documents.get(target.path) if target.bound is Bound.DOCUMENT and target.path else None
        matched = "\x1e".join(target.anchor.matched) if target.anchor is not None else ""
        return SEP.join((edge.source, near.digest if near else "", str(edge.line), str(edge.column),
                         edge.written_as, target.raw, BOUND[target.bound], target.path or "",
                         target.id or "", target.reason, matched, far.digest if far else "",
                         target.remote.digest if target.remote else ""))

    def _anchor(self, edge: Edge) -> str:
        anchor = edge.target.anchor
        if edge.target.bound is not Bound.ANCHOR or anchor is None:
            return ""
        if anchor.matched not in self.revisions:
            self.revisions[anchor.matched] = self.ctx.snapshot.tree.revision(anchor.matched)
        return self.revisions[anchor.matched]

    @cached_property
    def census(self) -> str:
        rows = self.ctx.snapshot.census.rows  # a row each: formatted in one step, the enum's value looked up
        return _digest("\n".join([f"{r.path}{SEP}{OUTCOME[r.outcome]}{SEP}{r.kind or ''}{SEP}{r.reason or ''}{SEP}"
                                  f"{r.document.digest if r.document else ''}" for r in rows]), 8)

    @cached_property
    def ids(self) -> str:
        carried = map(SEP.join, sorted(self.ctx.graph.ids.items()))  # joined in C: one a document
        # what a document lacking an identifier is proposed depends on every other one lacking one
        proposed = map(SEP.join, sorted(self.ctx.proposed_ids.items()))
        return _digest("\n".join([*carried, "", *proposed]))

    @cached_property
    def states(self) -> str:
        tax, graph = self.ctx.taxonomy, self.ctx.graph
        facets = [f for f in (tax.facet_for_role("state"), tax.facet_for_role("state_entered")) if f]
        ends = {p for e in graph.edges if e.relation.set_state is not None for p in (e.source, e.target.path) if p}
        held = (SEP.join([path, *(graph.documents[path].text_of(f) or "" for f in facets)])
                for path in sorted(ends) if path in graph.documents)
        return _digest("\n".join(held))

    @cached_property
    def claims(self) -> str:
        store = self.ctx.snapshot.root / CLAIMS
        listing = []
        for top, _, names in os.walk(store):
            under = os.path.relpath(top, store)
            listing += [f"{under}/{name}" for name in names]
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
    """The first `size` bytes of the text's SHA-256, in hex: twice as fast as BLAKE2b here, where
    the processor computes SHA-256 itself, and a run takes one for every subject."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:2 * size]
