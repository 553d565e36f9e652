"""Phrases, measured as a lever on route over every real labelled set (HW-DR-0054).

Every round before this one read a task word by word. A phrase is two task words next to each
other (stop words left out, stems compared, in either order) that a page also writes next to each
other in what says what it is about: its title, summary, headings or path. A task that asks for a
page by what it is ("rotate the certificates of the sidecar injector") often repeats two of its
name's words together; a trap that meets a page on one word in another sense should not. This
script measures that three ways, over the same sets `route_quality.py` scores:

- as a gate: an answered task is silenced unless the first page route offers holds a phrase of the
  task (in its name and headings, or in its name alone);
- as a relaxation: a task route is silent on is answered with the first five pages of its ranking
  when the first holds a phrase of the task (one, or two or more);
- as a boost: the first 40 pages of route's BM25F ranking, before abstention, each score raised by
  `alpha` for each phrase it holds (two at most), scored at five against the ranking unboosted.

Run it as `python tests/benchmarks/route_phrases.py` (about half a minute); it does not change route.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_corpora import REAL, SETS, unpack  # noqa: E402
from route_quality import BUDGET, TODAY  # noqa: E402
from route_weights import ranking_alone  # noqa: E402

from headwater.corpus.document import Document  # noqa: E402
from headwater.reads.route.router import Reader, route  # noqa: E402
from headwater.reads.route.tokens import Tokenizer  # noqa: E402
from headwater.snapshot import Snapshot, load  # noqa: E402

RANKED = 40  # pages of the ranking the boost reorders
ALPHAS = (0.0, 0.1, 0.2, 0.5, 1.0)

Phrase = frozenset[str]


def phrases(stems: Sequence[str]) -> set[Phrase]:
    """Each two neighbouring stems, in either order (a repeated stem is no phrase)."""
    return {frozenset(pair) for pair in zip(stems, stems[1:], strict=False) if pair[0] != pair[1]}


def page_phrases(document: Document, snapshot: Snapshot, tokenizer: Tokenizer, headings: bool) -> set[Phrase]:
    """The phrases a page's name (title, summary, path) holds, and its headings' when asked."""
    tax = snapshot.taxonomy
    texts = [document.text_of(tax.facet_for_role("name")) or "", document.text_of(tax.facet_for_role("scent")) or "",
             document.path.replace("/", " ").replace("-", " ").replace("_", " ")]
    if headings:
        texts += [heading.text for heading in document.body.headings]
    return set().union(*(phrases(tokenizer.stems(text)) for text in texts))


@dataclass(frozen=True)
class Task:
    """One labelled task as route answers it, with what the levers read."""

    corpus: str
    offer: tuple[str, ...] | None  # None: off-topic
    guessed: tuple[str, ...]  # route's pointers that no path in the task named
    ranked: tuple[tuple[str, float, int, int], ...]  # (path, BM25F score, phrases in name and headings, in name)

    def outcome(self, pointers: Sequence[str]) -> str:
        if self.offer is None:
            return "trap" if pointers else "quiet"
        if not pointers:
            return "silent"
        return "hit" if all(path in pointers[:BUDGET] for path in self.offer) else "miss"


def measured(snapshot: Snapshot, corpus: str, labels: dict) -> list[Task]:
    cases = [(case["task"], tuple(case["offer"])) for case in labels["on_topic"]]
    cases += [(task, None) for task in labels["off_topic"]]
    reader: Reader = snapshot.derived("route.reader", lambda: Reader.of(snapshot))
    scorer, documents = reader.scorer, snapshot.graph.documents
    held: dict[tuple[str, bool], set[Phrase]] = {}

    def holds(path: str, asked: set[Phrase], headings: bool) -> int:
        if (path, headings) not in held:
            held[path, headings] = page_phrases(documents[path], snapshot, scorer.tokenizer, headings)
        return len(asked & held[path, headings])

    tasks = []
    for task, offer in cases:
        answer = route(snapshot, task, BUDGET)
        asked = phrases(scorer.tokenizer.stems(task))
        ranked = tuple((scorer.documents[p].path, score, holds(scorer.documents[p].path, asked, True),
                        holds(scorer.documents[p].path, asked, False))
                       for p, score in ranking_alone(scorer, task)[:RANKED])
        guessed = tuple(o.document.path for o in answer.pointers if not o.evidence.anchors)
        tasks.append(Task(corpus, offer, guessed, ranked))
    return tasks


def _first_holds(task: Task, path: str, name_only: bool) -> int:
    return next((row[3] if name_only else row[2] for row in task.ranked if row[0] == path), 0)


Rule = Callable[[Task], Sequence[str]]
RULES: dict[str, Rule] = {
    "route as it is": lambda t: t.guessed,
    "gate: first page holds a phrase (name or headings)":
        lambda t: t.guessed if t.guessed and _first_holds(t, t.guessed[0], False) else (),
    "gate: first page holds a phrase (name)":
        lambda t: t.guessed if t.guessed and _first_holds(t, t.guessed[0], True) else (),
    "relaxation: silent task answered when its first page holds a phrase":
        lambda t: t.guessed or (tuple(r[0] for r in t.ranked[:BUDGET]) if t.ranked and t.ranked[0][2] else ()),
    "relaxation: … two phrases or more":
        lambda t: t.guessed or (tuple(r[0] for r in t.ranked[:BUDGET]) if t.ranked and t.ranked[0][2] >= 2 else ()),
}


def tallied(tasks: list[Task], rule: Rule) -> Counter:
    return Counter((task.corpus, task.outcome(rule(task))) for task in tasks)


def boosted_hits(tasks: list[Task], alpha: float) -> Counter:
    """Hits at five per corpus, the ranking reordered with each phrase worth `alpha` of a score."""
    hits: Counter = Counter()
    for task in (t for t in tasks if t.offer is not None):
        order = [row[0] for row in sorted(task.ranked, key=lambda row: -row[1] * (1 + alpha * min(row[2], 2)))]
        hits[task.corpus] += task.outcome(order) == "hit"
    return hits


def report(tasks: list[Task]) -> str:
    corpora = sorted({task.corpus for task in tasks})
    head = " | ".join(f"{c}: hits at five, traps answered" for c in corpora)
    lines = [f"| rule | {head} |", "|---|" + "---|" * len(corpora)]
    for name, rule in RULES.items():
        counts = tallied(tasks, rule)
        cells = [f"{counts[c, 'hit']} of {sum(t.offer is not None for t in tasks if t.corpus == c)}, "
                 f"{counts[c, 'trap']} of {sum(t.offer is None for t in tasks if t.corpus == c)}" for c in corpora]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "| boost alpha | " + " | ".join(f"{c}: hits at five, ranking alone" for c in corpora) + " |",
              "|---|" + "---|" * len(corpora)]
    for alpha in ALPHAS:
        hits = boosted_hits(tasks, alpha)
        lines.append(f"| {alpha} | " + " | ".join(str(hits[c]) for c in corpora) + " |")
    return "\n".join(lines) + "\n"


def main() -> int:
    tasks: list[Task] = []
    with tempfile.TemporaryDirectory() as work:
        for corpus in (c for c in REAL if c.archive.is_file()):
            snapshot = load(unpack(corpus, Path(work)), TODAY)
            for labelled in (s for s in SETS if s.corpus is corpus):
                tasks += measured(snapshot, corpus.name, labelled.labels)
    sys.stdout.write(report(tasks))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
