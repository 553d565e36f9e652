"""Anchor text as a field of route's index, measured on every real labelled set (HW-DR-0050).

Anchor text, the words other pages of a corpus write when they link to a page, is web search's
strongest document field and the one classic field no round of route had measured. This script
gathers it per target document and adds it to route's BM25F index as a seventh field, then routes
every task of every real labelled set (tests/route_sets) again, the field's weight swept.

What a link is, per corpus, as the pages really write them:

- a Markdown link in the body (`corpus.body`'s links) landing where headwater's link rules land it
  (`check.links.reach`, with the declaration's site roots), or a link to a blob or tree of a
  repository on GitHub whose path is a document here (how KEPs link each other); a folder lands on
  its index page (`README.md`, `index.md`, `_index.md`);
- a Hugo `ref`/`relref` shortcode as a Markdown link's target, `[text]({{< ref "page.md" >}})`
  (how dapr-docs links every page: markdown-it does not read these as links, since the target
  holds spaces), resolved as Hugo resolves it: from the content root when it opens with `/`, else
  beside the page, else the one page whose path ends so (a name two pages share is not resolved).

A page's own links to itself are not its anchor text. Generic link words (GENERIC: "here", "this",
"link", "docs", ...) weigh nothing: they are dropped from every anchor text before it is counted,
by route's own tokenizer and stems. The field is normalised by its length like every other field
(b 0.75, k1 1.6) and not capped.

Three ways the field meets HW-DR-0033's abstention (each at weights 0.25, 0.5, 1 and 2; weight 0
is route as it is, no field at all):

- `rank`: the field ranks but does not vouch, as the lead does (UNVOUCHED): confidence, coverage
  and the guards are judged without it; only the order, the floor and which page is first change;
- `subject`: the field vouches and counts as a subject, in full, as a heading does: a page that
  other pages call by the task's words "explains" it;
- `name`: the field vouches and counts as the page's name (NAMING), as title, summary and path do.

Per set: hit@1, hit@5 and traps answered (off-topic tasks given any guessed pointer); then the
dapr-docs sets and the kubernetes-enhancements sets summed. The tuning (mode and weight) is read
on the dapr-docs sums only; the kubernetes-enhancements sums are reported beside it, untouched.
Run `python tests/benchmarks/route_anchor.py [--sets KEY,...]`; it changes nothing in route (it
swaps route's field constants for the length of each run and puts them back).
"""

from __future__ import annotations

import contextlib
import math
import posixpath
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_corpora import REAL, SETS, unpack  # noqa: E402
from route_quality import BUDGET, TODAY  # noqa: E402

import headwater.reads.route.abstention as abstention  # noqa: E402
import headwater.reads.route.index as index_module  # noqa: E402
import headwater.reads.route.rank as rank  # noqa: E402
from headwater.check.links import reach  # noqa: E402
from headwater.corpus.document import Document  # noqa: E402
from headwater.reads.route.index import Entry, RouteIndex  # noqa: E402
from headwater.reads.route.router import Reader, route  # noqa: E402
from headwater.reads.route.tokens import Tokenizer  # noqa: E402
from headwater.snapshot import Snapshot, load  # noqa: E402

WEIGHTS = (0.25, 0.5, 1.0, 2.0)
MODES = ("rank", "subject", "name")
GENERIC = ("here", "this", "that", "these", "link", "links", "doc", "docs", "documentation", "page",
           "pages", "more", "read", "see", "click", "info", "information", "details", "guide", "above",
           "below", "article", "section")
INDEX_PAGES = ("README.md", "index.md", "_index.md")
# `[text]({{< ref "page.md#part" >}})`, `{{% relref page %}}`: the text and the written target
HUGO_REF = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]"
                      r"\(\s*\{\{[<%]\s*(?:rel)?ref\s+\"?([^\"\s>%]+)\"?\s*[>%]\}\}[^)]*\)")
# a blob or tree of any repository on GitHub: the path inside it
REPOSITORY = re.compile(r"https?://github\.com/[^/]+/[^/]+/(?:blob|tree)/[^/]+/([^#?]+)")


class Resolver:
    """Where a link written in one document lands among the census's documents, or None."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.paths = {d.path for d in snapshot.census.documents}
        self.site_roots = snapshot.declaration.site_roots
        self.content = snapshot.declaration.corpus_root.strip("/")
        self.by_tail: dict[str, set[str]] = {}
        for path in self.paths:
            name = _page_name(path[len(self.content) + 1:] if path.startswith(self.content + "/") else path)
            parts = name.split("/")
            for n in range(1, len(parts) + 1):
                self.by_tail.setdefault("/".join(parts[-n:]), set()).add(path)

    def document(self, path: str | None) -> str | None:
        if path is None:
            return None
        path = path.rstrip("/")
        for candidate in (path, *(f"{path}/{page}" for page in INDEX_PAGES), f"{path}.md"):
            if candidate in self.paths:
                return candidate
        return None

    def markdown(self, doc: Document, href: str) -> str | None:
        found = REPOSITORY.match(href)
        if found:
            return self.document(posixpath.normpath(found.group(1)))
        landed = reach(doc, href, self.site_roots)
        if landed is None:
            return None
        return next(filter(None, map(self.document, (landed.path, *landed.elsewhere))), None)

    def hugo(self, doc: Document, written: str) -> str | None:
        written = written.partition("#")[0].strip()
        if not written:
            return None
        if written.startswith("/"):
            return self.document(posixpath.normpath(f"{self.content}/{written.lstrip('/')}"))
        beside = self.document(posixpath.normpath(posixpath.join(posixpath.dirname(doc.path), written)))
        if beside is not None:
            return beside
        found = self.by_tail.get(_page_name(written.strip("/")), set())
        return next(iter(found)) if len(found) == 1 else None


def _page_name(path: str) -> str:
    """`a/b/_index.md` → `a/b`; `a/b/page.md` → `a/b/page`."""
    path = path[:-3] if path.endswith(".md") else path
    head, _, tail = path.rpartition("/")
    return head if tail.lower() in ("_index", "index", "readme") else path


def anchor_texts(snapshot: Snapshot, written: Counter | None = None) -> dict[str, list[str]]:
    """Per document path, the texts other documents link to it with (in census order); `written`,
    if given, counts the links read ("markdown", "hugo") and those landing on another document
    ("markdown landed", "hugo landed")."""
    resolver = Resolver(snapshot)
    written = Counter() if written is None else written
    found: dict[str, list[str]] = {}
    for doc in snapshot.census.documents:
        links = [("markdown", link.text, resolver.markdown(doc, link.href)) for link in doc.read_body().links]
        links += [("hugo", m.group(1), resolver.hugo(doc, m.group(2))) for m in HUGO_REF.finditer(doc.body_text)]
        for form, text, target in links:
            written[form] += 1
            text = text.strip().strip("`")
            if target is not None and target != doc.path and text and not text.startswith("http"):
                written[f"{form} landed"] += 1
                found.setdefault(target, []).append(text)
    return found


def anchor_counts(snapshot: Snapshot, tokenizer: Tokenizer) -> dict[str, dict[str, int]]:
    generic = set(tokenizer.stems(" ".join(GENERIC)))
    counts = {}
    for path, texts in anchor_texts(snapshot).items():
        held = Counter(tokenizer.counts("\n".join(texts)))
        counts[path] = {stem: n for stem, n in held.items() if stem not in generic}
    return counts


@dataclass(frozen=True)
class Setting:
    mode: str  # "rank", "subject", "name", or "none" (route as it is)
    weight: float

    @property
    def label(self) -> str:
        return "route as it is" if self.mode == "none" else f"{self.mode} {self.weight:g}"


def _pseudo(table, last, position, f, counts, norm) -> None:
    """`rank._pseudo` with two fields that do not vouch: the sum before them is the one the first
    of them found (the original, with one such field, reads it at that field)."""
    cap, bit, unvouched = rank.CAPPED[f], 1 << f, bool(rank.UNVOUCHED_BITS & (1 << f))
    for stem, count in counts:
        value = min(count * norm, cap)
        if last[stem] == position:
            _, pseudo, fields, before = table[stem]
            if unvouched and position not in before:
                before[position] = pseudo[-1]
            pseudo[-1] += value
            fields[-1] |= bit
            continue
        last[stem] = position
        if table[stem] is None:
            table[stem] = (rank.array("i", (position,)), rank.array("d", (value,)), rank.array("B", (bit,)),
                           {position: 0.0} if unvouched else {})
            continue
        positions, pseudo, fields, before = table[stem]
        if unvouched:
            before[position] = 0.0
        positions.append(position)
        pseudo.append(value)
        fields.append(bit)


@contextlib.contextmanager
def anchored(setting: Setting) -> Iterator[None]:
    """Route's field constants with the anchor field added as `setting` says, for the block."""
    if setting.mode == "none":
        yield
        return
    saved = {name: getattr(rank, name) for name in ("FIELDS", "WEIGHTS", "CAPPED", "UNVOUCHED",
                                                    "UNVOUCHED_BITS", "NAMED", "_pseudo")}
    naming = abstention.NAMING
    fields = rank.FIELDS[:-1] + ("anchor", rank.FIELDS[-1])  # the lead stays last: it does not vouch
    unvouched = rank.UNVOUCHED | ({"anchor"} if setting.mode == "rank" else set())
    rank.FIELDS = fields
    rank.WEIGHTS = {**saved["WEIGHTS"], "anchor": setting.weight}
    rank.CAPPED = tuple(rank.CAPS.get(name, math.inf) for name in fields)
    rank.UNVOUCHED = frozenset(unvouched)
    rank.UNVOUCHED_BITS = sum(1 << f for f, name in enumerate(fields) if name in unvouched)
    rank.NAMED = tuple(tuple(name for f, name in enumerate(fields) if mask & (1 << f))
                       for mask in range(1 << len(fields)))
    rank._pseudo = _pseudo  # noqa: SLF001
    if setting.mode == "name":
        abstention.NAMING = naming | {"anchor"}
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(rank, name, value)
        abstention.NAMING = naming


def reader(snapshot: Snapshot, setting: Setting, counts: dict[str, dict[str, int]]) -> Reader:
    if setting.mode == "none":
        return Reader.of(snapshot)
    built = RouteIndex.of
    lead = len(index_module.FIELDS) - 1

    def with_anchor(documents, tax, corpus_root):
        index = built(documents, tax, corpus_root)
        entries = (Entry(e.document, e.counts[:lead] + (counts.get(e.document.path, {}), e.counts[lead]))
                   for e in index.entries)
        return RouteIndex(entries, index.tokenizer)

    index_module.RouteIndex.of = staticmethod(with_anchor)
    try:
        return Reader.of(snapshot)
    finally:
        index_module.RouteIndex.of = staticmethod(built)


@dataclass(frozen=True)
class Outcome:
    on: int
    off: int
    hit1: int
    hit5: int
    traps: int
    silent: int

    def __add__(self, other: Outcome) -> Outcome:
        return Outcome(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple(), strict=True)))

    def as_tuple(self) -> tuple[int, ...]:
        return (self.on, self.off, self.hit1, self.hit5, self.traps, self.silent)


def outcome(snapshot: Snapshot, labels: dict, log: dict[str, str] | None = None) -> Outcome:
    """The set's figures; `log`, if given, gets each task's outcome ("hit@1", "hit@5", "miss",
    "silent", "trap", "quiet")."""
    hit1 = hit5 = silent = traps = 0
    log = {} if log is None else log
    for case in labels["on_topic"]:
        answer = route(snapshot, case["task"], BUDGET)
        paths = [o.document.path for o in answer.pointers][:BUDGET]
        hit5 += all(p in paths for p in case["offer"])
        hit1 += all(p in paths[:1] for p in case["offer"])
        silent += not any(not o.evidence.anchors for o in answer.pointers)
        log[case["task"]] = ("hit@1" if all(p in paths[:1] for p in case["offer"]) else
                             "hit@5" if all(p in paths for p in case["offer"]) else "miss" if paths else "silent")
    for task in labels["off_topic"]:
        trapped = any(not o.evidence.anchors for o in route(snapshot, task, BUDGET).pointers)
        traps += trapped
        log[task] = "trap" if trapped else "quiet"
    return Outcome(len(labels["on_topic"]), len(labels["off_topic"]), hit1, hit5, traps, silent)


def reach_of_anchors(snapshot: Snapshot, counts: dict[str, dict[str, int]], sets: list) -> str:
    """How far anchor text could move route on this corpus: the share of its anchor stems (by
    occurrence) that the target's title, summary, path and headings do not already hold, and how
    many on-topic tasks hold a stem some must-offer page holds in its anchor text alone."""
    index = RouteIndex.of(snapshot.census.documents, snapshot.taxonomy, snapshot.declaration.corpus_root)
    named = ("title", "summary", "path", "headings")
    subjects = {e.document.path: set().union(*(c for f, c in zip(index_module.FIELDS, e.counts, strict=True)
                                               if f in named))
                for e in index.entries}
    every = sum(sum(held.values()) for held in counts.values())
    new = sum(n for path, held in counts.items() for stem, n in held.items() if stem not in subjects[path])
    tokenizer = index.tokenizer
    tasks = [case for labelled in sets for case in labelled.labels["on_topic"]]
    offered = {p for case in tasks for p in case["offer"]}
    reachable = sum(1 for case in tasks if any(
        stem in counts.get(p, {}) and stem not in subjects[p]
        for p in case["offer"] for stem in tokenizer.stems(case["task"])))
    return (f"{sum(1 for p in offered if counts.get(p))} of the {len(offered)} must-offer pages have anchor "
            f"text; {new} of its {every} stem occurrences ({new / every:.2f}) are words the target's title, "
            f"summary, path and headings lack; {reachable} of {len(tasks)} on-topic tasks hold such a word "
            "of a must-offer page")


def settings() -> list[Setting]:
    return [Setting("none", 0.0)] + [Setting(m, w) for m in MODES for w in WEIGHTS]


def coverage_line(snapshot: Snapshot, counts: dict[str, dict[str, int]], name: str) -> str:
    written: Counter = Counter()
    texts = anchor_texts(snapshot, written)
    linked = sum(1 for d in snapshot.census.documents if counts.get(d.path))
    return (f"{name}: {written['markdown']} Markdown links read, {written['markdown landed']} landing on another "
            f"document with a text; {written['hugo']} Hugo ref links, {written['hugo landed']} likewise; "
            f"{sum(map(len, texts.values()))} anchor texts to {len(texts)} documents; "
            f"{linked} of {len(snapshot.census.documents)} documents hold an anchor field")


def main() -> int:
    wanted = next((a.split("=", 1)[1].split(",") for a in sys.argv[1:] if a.startswith("--sets=")), None)
    results: dict[tuple[str, Setting], Outcome] = {}
    logs: dict[Setting, dict[str, str]] = {}
    keys = []
    notes = []
    with tempfile.TemporaryDirectory() as work:
        for corpus in (c for c in REAL if c.archive.is_file()):
            sets = [s for s in SETS if s.corpus is corpus and (wanted is None or s.key in wanted)]
            if not sets:
                continue
            snapshot = load(unpack(corpus, Path(work)), TODAY)
            counts = anchor_counts(snapshot, Tokenizer.of(snapshot.taxonomy))
            notes.append(coverage_line(snapshot, counts, corpus.name) + "; "
                         + reach_of_anchors(snapshot, counts, sets))
            for setting in settings():
                with anchored(setting):
                    snapshot._derived["route.reader"] = reader(snapshot, setting, counts)  # noqa: SLF001
                    for labelled in sets:
                        results[(labelled.key, setting)] = outcome(snapshot, labelled.labels,
                                                                   logs.setdefault(setting, {}))
            snapshot._derived.pop("route.reader", None)  # noqa: SLF001
            keys += [s.key for s in sets]
    sys.stdout.write(report(results, keys, notes) + chosen(results, keys) + flips(logs))
    return 0


def report(results: dict[tuple[str, Setting], Outcome], keys: list[str], notes: list[str]) -> str:
    lines = [*notes, "", "hit@5 (hits) and traps answered per set, route as it is and each setting", ""]
    every = settings()
    lines.append("| set | " + " | ".join(s.label for s in every) + " |")
    lines.append("|---|" + "---|" * len(every))
    for key in keys:
        o = results[(key, every[0])]
        lines.append(f"| {key} ({o.on}, {o.off}) | " + " | ".join(
            f"{results[(key, s)].hit5}, {results[(key, s)].traps}" for s in every) + " |")
    for corpus in ("dapr-docs", "kubernetes-enhancements"):
        mine = [k for k in keys if k.startswith(corpus)]
        if mine:
            lines.append(f"| **{corpus}, all** | " + " | ".join(
                _summed(sum((results[(k, s)] for k in mine[1:]), results[(mine[0], s)])) for s in every) + " |")
    lines += ["", "hit@1 and on-topic silence per corpus, summed", "",
              "| corpus | " + " | ".join(s.label for s in every) + " |", "|---|" + "---|" * len(every)]
    for corpus in ("dapr-docs", "kubernetes-enhancements"):
        mine = [k for k in keys if k.startswith(corpus)]
        if mine:
            sums = [sum((results[(k, s)] for k in mine[1:]), results[(mine[0], s)]) for s in every]
            lines.append(f"| {corpus} | " + " | ".join(f"{o.hit1}, {o.silent}" for o in sums) + " |")
    return "\n".join(lines) + "\n"


def chosen(results: dict[tuple[str, Setting], Outcome], keys: list[str]) -> str:
    """The setting tuned on dapr-docs (the most hits at five there with no more traps than route
    as it is; ties to the lighter weight, then the mode listed first), and every corpus at it."""
    def summed(corpus: str, setting: Setting) -> Outcome | None:
        mine = [results[(k, setting)] for k in keys if k.startswith(corpus)]
        return sum(mine[1:], mine[0]) if mine else None

    base = Setting("none", 0.0)
    tuned = summed("dapr-docs", base)
    if tuned is None:
        return ""
    fair = [s for s in settings()[1:] if summed("dapr-docs", s).traps <= tuned.traps]
    pick = max(fair, key=lambda s: (summed("dapr-docs", s).hit5, -s.weight, -MODES.index(s.mode)), default=base)
    lines = ["", f"Chosen on dapr-docs: {pick.label}"]
    for corpus in ("dapr-docs", "kubernetes-enhancements"):
        before, after = summed(corpus, base), summed(corpus, pick)
        if before is not None:
            lines.append(f"- {corpus}: hit@5 {before.hit5} → {after.hit5} of {before.on}, hit@1 {before.hit1} → "
                         f"{after.hit1}, traps answered {before.traps} → {after.traps} of {before.off}")
    return "\n".join(lines) + "\n"


def flips(logs: dict[Setting, dict[str, str]]) -> str:
    """Every task whose outcome a setting changes against route as it is."""
    base = logs[Setting("none", 0.0)]
    lines = ["", "Tasks whose outcome a setting changes (route as it is → the setting)", ""]
    for setting, log in logs.items():
        moved = [f"  - {task!r}: {base[task]} → {found}" for task, found in log.items() if found != base[task]]
        if moved:
            lines += [f"- {setting.label}:", *moved]
    return "\n".join(lines) + "\n"


def _summed(o: Outcome) -> str:
    return f"**{o.hit5}/{o.on} ({o.hit5 / o.on:.3f}), {o.traps}/{o.off}**"


if __name__ == "__main__":
    raise SystemExit(main())
