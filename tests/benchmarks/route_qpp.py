"""Query-performance predictors as abstention, and pseudo-relevance feedback, measured (HW-DR-0046).

HW-DR-0039 and HW-DR-0040 found every lexical, structural, co-occurrence and abbreviation lever on
one line (about four right answers lost per trap silenced). This script measures the two levers
the information-retrieval literature offers that no round had: post-retrieval query-performance
predictors (QPP) as a gate on the tasks route answers, and RM3-style pseudo-relevance feedback
(PRF) from the top documents' headings and bodies. Everything reads route's own BM25F index
(`Scorer`: its tokenizer, fields, weights and saturated postings); nothing here changes route.

Per task, over route's ranking of every document (the task's stems' summed values, as
`Scorer.rank` sums them, without the purpose prior):

- `clarity` (Cronen-Townsend et al. 2002): the KL divergence, in bits, of the top K documents'
  language model from the corpus's, each document's model its field-weighted stem counts
  (WEIGHTS) smoothed with the corpus's at LAMBDA, each document weighed by its share of the top K's
  scores; summed over the stems the top K hold;
- `nqc` (Shtok et al. 2012): the standard deviation of the top K scores over the task's IDF mass
  (route's confidence denominator stands for the corpus score: a BM25F score has no corpus
  document);
- `wig` (Zhou and Croft 2007): the mean of the top five scores less the mean over every document,
  over the square root of the task's stem count;
- `drop`: the first score less the fifth, over the first;
- `agree`: the mean, over dropping each task stem the corpus holds (two or more), of the share of
  the top five that stays in the top five;
- `explained`: HW-DR-0033's share (the first document's name share of the mass plus the share of
  the rest it holds as a subject), and each predictor combined with it (`+explained`: the mean of
  the two values' ranks among every answered task, a rank-average with no weight to fit).

Each predictor is a gate on the tasks route answers with a guessed pointer: silent below a cut
(each read as "low is doubtful"), the cuts at the deciles of the answered traps' values over every
real set together; beside each, the line (four right answers per trap, HW-DR-0039). Then each set
gated at the cut chosen on the other sets (the one beating the line most there), each corpus's
sets at the cut chosen on the other corpus's, and every signal together in a logistic regression
fitted likewise on the other sets.

PRF: the top FB_DOCS documents' headings and bodies (at route's weights for those fields, each
document's counts over its length, weighed by its share of the top scores) give P(w|R); the
FB_TERMS heaviest stems not in the task join it at 1 - ORIGINAL of the weight, the task's own
stems sharing ORIGINAL (RM3, Anserini's defaults); every document is scored again by the weighted
sum of its saturated values. `rerank`: route's answers re-ordered by it, abstention unchanged;
`rescue`: also answering a task route is silent on when route's own rule trusts the task with the
expansion stems added (`Scorer.rank`, unweighted). hit@5 per set, route as it is → each.

Run `python tests/benchmarks/route_qpp.py [--features FILE]`; with FILE the per-task features
are read from it if it exists, else computed and written there.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_corpora import REAL, SETS, unpack  # noqa: E402
from route_quality import BUDGET, TODAY  # noqa: E402

from headwater.reads.route.abstention import CONFIDENT, NAMING  # noqa: E402
from headwater.reads.route.index import FIELDS, RouteIndex  # noqa: E402
from headwater.reads.route.rank import UNSEEN, WEIGHTS, Scorer  # noqa: E402
from headwater.reads.route.router import route  # noqa: E402
from headwater.reads.terms import terms  # noqa: E402
from headwater.snapshot import Snapshot, load  # noqa: E402

K = 10  # the top documents clarity and NQC read
LAMBDA = 0.6  # a document model's own share against the corpus's
FB_DOCS, FB_TERMS, ORIGINAL = 10, 10, 0.5  # RM3 as Anserini defaults it
FB_SENSITIVITY = ((10, 10, 0.5), (10, 10, 0.8), (5, 5, 0.7), (3, 10, 0.6), (20, 20, 0.5), (10, 5, 0.9))
FEEDBACK = ("headings", "body")
SUBJECT = ("title", "summary", "headings", "path")  # the fields that name or head a document
RIDGE = 1.0
LINE = 4  # right answers lost per trap silenced along the lexical line (HW-DR-0039)
PREDICTORS = ("clarity", "nqc", "wig", "drop", "agree", "explained")


class Corpus:
    """Route's scorer for one snapshot, with each document's field-weighted stem counts beside it."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.scorer: Scorer = snapshot.derived("route.reader", lambda: None).scorer
        index = RouteIndex.of(snapshot.census.documents, snapshot.taxonomy, snapshot.declaration.corpus_root)
        self.weighted: list[dict[str, float]] = []
        self.feedback: list[dict[str, float]] = []
        self.named: list[dict[str, float]] = []
        for entry in index.entries:
            every, fed, named = Counter(), Counter(), Counter()
            for name, counts in zip(FIELDS, entry.counts, strict=True):
                for stem, n in counts.items():
                    every[stem] += WEIGHTS[name] * n
                    if name in FEEDBACK:
                        fed[stem] += WEIGHTS[name] * n
                    if name in SUBJECT:
                        named[stem] += WEIGHTS[name] * n
            self.weighted.append(dict(every))
            self.feedback.append(dict(fed))
            self.named.append(dict(named))
        totals = Counter()
        for counts in self.weighted:
            totals.update(counts)
        size = sum(totals.values())
        self.background = {stem: n / size for stem, n in totals.items()}
        self.position = {d.path: p for p, d in enumerate(self.scorer.documents)}

    def scores(self, weights: dict[str, float]) -> list[float]:
        scores = [0.0] * len(self.scorer.documents)
        for stem, weight in weights.items():
            postings = self.scorer.postings(stem)
            if postings is None:
                continue
            for p, v in zip(postings.positions, postings.values, strict=True):
                scores[p] += weight * v
        return scores

    def mass(self, stems: tuple[str, ...]) -> float:
        return sum(self.scorer.idf.get(s, self.scorer.max_idf * UNSEEN) for s in stems)


def top(scores: list[float], k: int) -> list[int]:
    return sorted((p for p, s in enumerate(scores) if s > 0), key=lambda p: (-scores[p], p))[:k]


def predictors(corpus: Corpus, stems: tuple[str, ...]) -> dict[str, float]:
    """The predictors at their stated settings, and the variants the sensitivity table reads
    (`name@k`: another depth; `clarity@named`: document models from title, summary, headings and
    path only; `agree@1`: the share of drops that keep the first document first; `agree@10`)."""
    scorer = corpus.scorer
    known = tuple(dict.fromkeys(s for s in stems if scorer.postings(s) is not None))
    scores = corpus.scores(dict.fromkeys(stems, 1.0))
    mass = corpus.mass(stems)
    found = {"explained": explained_share(corpus, stems, scores, mass),
             "wig": (statistics.mean([scores[p] for p in top(scores, 5)]) - sum(scores) / len(scores))
             / math.sqrt(len(stems))}
    for k in (5, K, 20):
        values = [scores[p] for p in top(scores, k)]
        suffix = "" if k == K else f"@{k}"
        found["clarity" + suffix] = clarity(corpus, top(scores, k), scores, corpus.weighted)
        found["nqc" + suffix] = statistics.pstdev(values) / mass if len(values) > 1 and mass else 0.0
        found["drop" + ("" if k == 5 else f"@{k}")] = (values[0] - values[-1]) / values[0]
    found["clarity@named"] = clarity(corpus, top(scores, K), scores, corpus.named)
    dropped = [top(corpus.scores(dict.fromkeys([s for s in stems if s != gone], 1.0)), K) for gone in known]
    for k, name in ((5, "agree"), (10, "agree@10")):
        first = set(top(scores, k))
        found[name] = statistics.mean(len(first & set(d[:k])) / len(first) for d in dropped) if len(known) >= 2 else 1.0
    leader = top(scores, 1)
    found["agree@1"] = statistics.mean(d[:1] == leader for d in dropped) if len(known) >= 2 else 1.0
    return found


def clarity(corpus: Corpus, best: list[int], scores: list[float], models: list[dict[str, float]]) -> float:
    total = sum(scores[p] for p in best)
    model: Counter = Counter()
    for p in best:
        length = sum(models[p].values()) or 1.0
        for stem, n in models[p].items():
            model[stem] += scores[p] / total * LAMBDA * n / length
    return sum((q + (1 - LAMBDA) * corpus.background[s]) * math.log2(
        (q + (1 - LAMBDA) * corpus.background[s]) / corpus.background[s]) for s, q in model.items())


def explained_share(corpus: Corpus, stems: tuple[str, ...], scores: list[float], mass: float) -> float:
    """HW-DR-0033's quantity for the document ranked first (route's `explains`, as a number)."""
    scorer = corpus.scorer
    first = scores.index(max(scores))
    held = scorer._vouched(first, stems)  # noqa: SLF001 (the measurement reads route's own view)
    depth = scorer._depths(first, held)  # noqa: SLF001
    named = [s for s, fields in held if NAMING.intersection(fields)]
    name_mass = sum(scorer.idf[s] for s in named)
    rest = sum(scorer.idf[s] * depth.get(s, 1.0) for s, _ in held if s not in named)
    return name_mass / mass + (rest / (mass - name_mass) if mass > name_mass else 0.0)


def expanded(corpus: Corpus, stems: tuple[str, ...], docs: int = FB_DOCS, many: int = FB_TERMS,
             original: float = ORIGINAL) -> tuple[dict[str, float], tuple[str, ...]]:
    """RM3: the task's stems at ORIGINAL of the weight, the FB_TERMS heaviest feedback stems of
    the top FB_DOCS documents at the rest; and those feedback stems."""
    scores = corpus.scores(dict.fromkeys(stems, 1.0))
    best = top(scores, docs)
    if not best:
        return dict.fromkeys(stems, 1.0), ()
    total = sum(scores[p] for p in best)
    relevance: Counter = Counter()
    for p in best:
        length = sum(corpus.feedback[p].values()) or 1.0
        for stem, n in corpus.feedback[p].items():
            if stem not in stems:
                relevance[stem] += scores[p] / total * n / length
    chosen = [s for s, _ in sorted(relevance.items(), key=lambda kv: (-kv[1], kv[0]))[:many]]
    mass = sum(relevance[s] for s in chosen) or 1.0
    weights = {s: original / len(stems) for s in stems}
    for s in chosen:
        weights[s] = weights.get(s, 0.0) + (1 - original) * relevance[s] / mass
    return weights, tuple(chosen)


def features(corpus: Corpus, snapshot: Snapshot, set_key: str, task: str, offer: list[str] | None) -> dict:
    answer = route(snapshot, task, BUDGET)
    guessed = [o.document.path for o in answer.pointers if not o.evidence.anchors]
    paths = [o.document.path for o in answer.pointers]
    stems = tuple(stem for _, stem in corpus.scorer.tokenizer.task_words(terms(task)))
    found = {"set": set_key, "task": task, "offer": offer, "answered": bool(guessed),
             "hit": offer is not None and all(p in paths for p in offer)}
    if not stems or not any(corpus.scorer.postings(s) is not None for s in stems):
        return found
    found["qpp"] = predictors(corpus, stems)
    weights, extra = expanded(corpus, stems)
    prf = [corpus.scorer.documents[p].path for p in top(corpus.scores(weights), BUDGET)]
    raw = [corpus.scorer.documents[p].path for p in top(corpus.scores(dict.fromkeys(stems, 1.0)), BUDGET)]
    found["raw_hit"] = offer is not None and all(p in raw for p in offer)
    found["prf_hit"] = offer is not None and all(p in prf for p in offer)
    found["prf"] = {}
    for docs, many, original in FB_SENSITIVITY:
        again = [corpus.scorer.documents[p].path
                 for p in top(corpus.scores(expanded(corpus, stems, docs, many, original)[0]), BUDGET)]
        found["prf"][f"{docs}/{many}/{original}"] = offer is not None and all(p in again for p in offer)
    rescue = corpus.scorer.rank(stems + extra, confident=CONFIDENT)
    found["rescue_answers"] = bool(rescue.hits)
    return found


def measure() -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for real in (c for c in REAL if c.archive.is_file()):
            snapshot = load(unpack(real, Path(work)), TODAY)
            route(snapshot, "warm", BUDGET)  # builds the reader
            corpus = Corpus(snapshot)
            for labelled in (s for s in SETS if s.corpus is real):
                labels = labelled.labels
                cases = [(c["task"], c["offer"]) for c in labels["on_topic"]] + [(t, None) for t in labels["off_topic"]]
                rows += [features(corpus, snapshot, labelled.key, task, offer) for task, offer in cases]
    return rows


def main() -> int:
    args = sys.argv[1:]
    cached = Path(args[args.index("--features") + 1]) if "--features" in args else None
    if cached is not None and cached.is_file():
        rows = json.loads(cached.read_text(encoding="utf-8"))
    else:
        rows = measure()
        if cached is not None:
            cached.write_text(json.dumps(rows), encoding="utf-8")
    sys.stdout.write(report(rows))
    return 0


def report(rows: list[dict]) -> str:
    answered = [r for r in rows if r["answered"] and "qpp" in r]
    ranked = combined(answered)
    traps = [r for r in answered if r["offer"] is None]
    hits = [r for r in answered if r["hit"]]
    out = [f"{len(hits)} right answers and {len(traps)} traps answered over {len({r['set'] for r in rows})} real sets",
           "", "| signal | silent when < | traps silenced | right answers lost | the line's cost |",
           "|---|---|---|---|---|"]
    for name in ranked:
        for cut in cuts([ranked[name][id(r)] for r in traps]):
            t, h = gated(traps, hits, ranked[name], cut)
            out.append(f"| {name} | {cut:.3g} | {t} | {h} | {LINE * t} |")
    out += ["", "Each set gated at the cut chosen on the others (the cut that most beats the line there; none where"
            " no cut does), and each corpus's sets at the cut chosen on the other corpus's:", "",
            "| signal | per set: traps silenced, right answers lost | per corpus |", "|---|---|---|"]
    for name in ranked:
        found = ranked[name]
        out.append(f"| {name} | {held_out(answered, found, 'set')} | {held_out(answered, found, 'corpus')} |")
    out += ["", "Sensitivity: every variant measured (traps silenced, right answers lost at the third, fifth and"
            " seventh decile of the answered traps' values; held out as above):", "",
            "| signal | 3rd decile | 5th decile | 7th decile | per set | per corpus |", "|---|---|---|---|---|---|"]
    every = combined(answered, tuple(answered[0]["qpp"]))
    for name in (n for n in every if n not in ranked):
        at = cuts([every[name][id(r)] for r in traps])
        found = [gated(traps, hits, every[name], at[i]) for i in (2, 4, 6)]
        out.append(f"| {name} | " + " | ".join(f"{t}, {h}" for t, h in found)
                   + f" | {held_out(answered, every[name], 'set')} | {held_out(answered, every[name], 'corpus')} |")
    out += ["", "Every predictor and variant together, in a logistic regression (trap against right answer, L2"
            f" {RIDGE}), fitted on the other sets and its cut chosen there as above: " + learned(answered, by="set")
            + " per set; " + learned(answered, by="corpus") + " per corpus (traps silenced, right answers lost)."]
    return "\n".join(out + ["", feedback(rows), "", feedback_sensitivity(rows)]) + "\n"


def learned(answered: list[dict], by: str) -> str:
    """Each group gated by a logistic regression over every signal fitted on the other groups'
    traps and right answers, at the cut (deciles of the fitted traps' doubt) that most beats the
    line there."""
    import numpy as np  # the test extra's (rank-bm25 needs it); only this measurement reads it

    names = tuple(answered[0]["qpp"])

    def doubt_of(seen: list[dict]) -> dict[int, float]:
        seen = [r for r in seen if r["offer"] is None or r["hit"]]
        x = np.array([[r["qpp"][n] for n in names] for r in seen])
        mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
        weights = _fitted(np.hstack([np.ones((len(seen), 1)), (x - mean) / scale]),
                          np.array([r["offer"] is None for r in seen], dtype=float))
        return {id(r): -float(weights[1:] @ ((np.array([r["qpp"][n] for n in names]) - mean) / scale))
                for r in answered}
    return out_of_sample(answered, by, doubt_of)


def _fitted(x, y):
    """Logistic regression by Newton's method with an L2 penalty (not on the intercept)."""
    import numpy as np

    weights = np.zeros(x.shape[1])
    penalty = RIDGE * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ weights)))
        gradient = x.T @ (p - y) + penalty @ weights
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + penalty
        weights = weights - np.linalg.solve(hessian, gradient)
    return weights


def combined(answered: list[dict], names: tuple[str, ...] = PREDICTORS) -> dict[str, dict[int, float]]:
    """Per signal, each answered task's value; and each predictor's rank-average with `explained`
    (ranks over every answered task, ties at their mean)."""
    values = {name: {id(r): r["qpp"][name] for r in answered} for name in names}
    ranks = {name: _ranks(found) for name, found in values.items()}
    for name in (n for n in names if n != "explained"):
        values[f"{name}+explained"] = {key: (ranks[name][key] + ranks["explained"][key]) / 2 for key in ranks[name]}
    return values


def _ranks(found: dict[int, float]) -> dict[int, float]:
    ordered = sorted(found, key=found.__getitem__)
    ranks, at = {}, 0
    while at < len(ordered):
        end = at
        while end + 1 < len(ordered) and found[ordered[end + 1]] == found[ordered[at]]:
            end += 1
        for key in ordered[at:end + 1]:
            ranks[key] = (at + end) / 2 / max(1, len(ordered) - 1)
        at = end + 1
    return ranks


def cuts(at_traps: list[float]) -> list[float]:
    """The deciles of the answered traps' values."""
    return sorted(set(statistics.quantiles(at_traps, n=10, method="inclusive"))) if len(at_traps) > 1 else []


def gated(traps: list[dict], hits: list[dict], values: dict[int, float], cut: float) -> tuple[int, int]:
    return sum(values[id(r)] < cut for r in traps), sum(values[id(r)] < cut for r in hits)


def _group(r: dict, by: str) -> str:
    return r["set"] if by == "set" else next(c.name for c in REAL if r["set"].startswith(c.name))


def held_out(answered: list[dict], values: dict[int, float], by: str) -> str:
    """Each group (a set, or a corpus's sets) gated at the cut that most beats the line over the
    other groups."""
    return out_of_sample(answered, by, lambda _: values)


def out_of_sample(answered: list[dict], by: str, values_of: Callable[[list[dict]], dict[int, float]]) -> str:
    """Traps silenced and right answers lost, summed over the groups, each gated by the values
    `values_of` gives from the other groups' tasks at the cut that most beats the line over them
    (no gate where none does)."""
    silenced = lost = 0
    for name in sorted({_group(r, by) for r in answered}):
        seen = [r for r in answered if _group(r, by) != name]
        values = values_of(seen)
        traps, hits = [r for r in seen if r["offer"] is None], [r for r in seen if r["hit"]]
        gain = {cut: LINE * t - h for cut in cuts([values[id(r)] for r in traps])
                for t, h in [gated(traps, hits, values, cut)]}
        if not gain or max(gain.values()) <= 0:
            continue
        cut = max(gain, key=lambda c: (gain[c], -c))
        mine = [r for r in answered if _group(r, by) == name]
        t, h = gated([r for r in mine if r["offer"] is None], [r for r in mine if r["hit"]], values, cut)
        silenced, lost = silenced + t, lost + h
    return f"{silenced}, {lost}"


def feedback(rows: list[dict]) -> str:
    """hit@5 per set: route as it is; route's answers in route's raw order and in RM3's; RM3 also
    answering what the expanded task makes route's rule trust; and the traps each answers."""
    out = ["| set | route | raw order | RM3 re-ranked (misses → hits, hits → misses) | RM3 + rescued silences |"
           " traps: route → rescued |", "|---|---|---|---|---|---|"]
    totals = Counter()
    for key in dict.fromkeys(r["set"] for r in rows):
        mine = [r for r in rows if r["set"] == key]
        on = [r for r in mine if r["offer"] is not None]
        off = [r for r in mine if r["offer"] is None]
        found = {"route": sum(r["hit"] for r in on),
                 "raw": sum(r["answered"] and r.get("raw_hit", False) for r in on),
                 "rerank": sum(r["answered"] and r.get("prf_hit", False) for r in on),
                 "rescue": sum((r["answered"] or r.get("rescue_answers", False)) and r.get("prf_hit", False)
                               for r in on),
                 "gained": sum(r["answered"] and not r["hit"] and r.get("prf_hit", False) for r in on),
                 "dropped": sum(r["hit"] and not r.get("prf_hit", False) for r in on),
                 "traps": sum(r["answered"] for r in off),
                 "rescued traps": sum(r["answered"] or r.get("rescue_answers", False) for r in off)}
        totals.update(found | {"on": len(on)})
        out.append(f"| {key} | {found['route'] / len(on):.2f} | {found['raw'] / len(on):.2f} | "
                   f"{found['rerank'] / len(on):.2f} ({found['gained']}, {found['dropped']}) | "
                   f"{found['rescue'] / len(on):.2f} | "
                   f"{found['traps']} → {found['rescued traps']} of {len(off)} |")
    out.append(f"| all ({totals['on']} on-topic) | {totals['route']} | {totals['raw']} | {totals['rerank']} "
               f"({totals['gained']}, {totals['dropped']}) | "
               f"{totals['rescue']} | {totals['traps']} → {totals['rescued traps']} |")
    return "\n".join(out)


def feedback_sensitivity(rows: list[dict]) -> str:
    """Right answers at five over every real set, route's answers re-ranked by RM3 at each
    setting (feedback documents / expansion terms / the task's own share), abstention unchanged."""
    on = [r for r in rows if r["offer"] is not None and r["answered"] and "prf" in r]
    settings = list(on[0]["prf"])
    return "\n".join(["| RM3 setting (documents / terms / task share) | right answers at five (route: "
                      f"{sum(r['hit'] for r in on)}) |", "|---|---|"]
                     + [f"| {name} | {sum(r['prf'][name] for r in on)} |" for name in settings])


if __name__ == "__main__":
    raise SystemExit(main())
