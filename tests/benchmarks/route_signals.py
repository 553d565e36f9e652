"""Signals that are not lexical, measured as abstention gates on every labelled set (HW-DR-0039).

Route's precision rules all read how the best document holds the task's words, and HW-DR-0033
found every one of them on one line: about one right answer lost per trap silenced. This script
measures two levers that read something else, over the same sets `route_quality.py` scores:

- the corpus's structure and co-occurrence, each a property of one answered task: `shelf`, the
  share of the other pointers filed under the folder that holds the first pointer's folder (a
  real task's pages sit on one shelf, a trap's scatter); `together`, how far the other pointers
  hold the same task words as the first (mean Jaccard); `cooccur`, the share of pairs of the
  task's known words some document holds together; `pmi`, their mean pointwise mutual
  information over documents; `foreign`, the share of the task's IDF mass on words no title,
  summary, heading or path of the corpus holds (a word the corpus never makes a subject);
- vocabulary the corpus defines: every abbreviation a page declares as "Long Form (LF)", the
  letters spelling the long form's initials, kept where one abbreviation has one long form; a task
  routed again with the long form added beside each abbreviation it holds (`--aliases`).

For each signal and each threshold at a quantile of the answered traps' values it prints how many
traps the gate would silence and how many right answers (hit@5) it would lose, over the real sets
together: a signal that beats the line silences more traps than it costs hits. Run it as
`python tests/benchmarks/route_signals.py [--aliases]`; it does not change route.
"""

from __future__ import annotations

import itertools
import math
import re
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_corpora import REAL, SETS, unpack  # noqa: E402
from route_quality import BUDGET, TODAY  # noqa: E402

from headwater.reads.route.index import FIELDS  # noqa: E402
from headwater.reads.route.rank import Scorer  # noqa: E402
from headwater.reads.route.router import route  # noqa: E402
from headwater.reads.route.tokens import ENGLISH_STOP_WORDS  # noqa: E402
from headwater.reads.terms import terms  # noqa: E402
from headwater.snapshot import Snapshot, load  # noqa: E402

# the fields a document makes a word its subject in (its name and its headings)
SUBJECT = sum(1 << f for f, name in enumerate(FIELDS) if name in ("title", "summary", "headings", "path"))
# "Horizontal Pod Autoscaler (HPA)": up to six words, then a parenthesised abbreviation
DECLARED = re.compile(r"((?:[A-Za-z][\w-]*[ ]+){0,5}[A-Za-z][\w-]*)[ ]+\(([A-Za-z][A-Za-z0-9]{1,9})\)")


# One task route answered: "trap" (off-topic), "hit" (every must-offer page among the pointers)
# or "miss", and its signals.
Answered = tuple[str, dict[str, float]]


def signals(snapshot: Snapshot, task: str, paths: tuple[str, ...]) -> dict[str, float]:
    scorer: Scorer = snapshot.derived("route.reader", lambda: None).scorer
    stems = tuple(stem for _, stem in scorer.tokenizer.task_words(terms(task)))
    known = [stem for stem in stems if scorer.postings(stem) is not None]
    holders = {stem: set(scorer.postings(stem).positions) for stem in known}
    position = {d.path: p for p, d in enumerate(scorer.documents)}
    held = [frozenset(stem for stem, _ in scorer.fields(position[path], stems)) for path in paths]
    shelf = PurePosixPath(paths[0]).parent.parent
    others = paths[1:]
    pairs = list(itertools.combinations(known, 2))
    total = len(scorer.documents)
    mass = sum(scorer.idf.get(stem, scorer.max_idf) for stem in stems)
    never_subject = sum(scorer.idf[stem] for stem in known
                        if not any(bits & SUBJECT for bits in scorer.postings(stem).fields))
    return {
        "shelf": sum(shelf in PurePosixPath(p).parents for p in others) / len(others) if others else 1.0,
        "together": statistics.mean(len(held[0] & h) / len(held[0] | h) for h in held[1:]) if others else 1.0,
        "cooccur": statistics.mean(bool(holders[a] & holders[b]) for a, b in pairs) if pairs else 1.0,
        "pmi": statistics.mean(math.log((len(holders[a] & holders[b]) + 0.5) * total
                                        / (len(holders[a]) * len(holders[b]))) for a, b in pairs) if pairs else 0.0,
        "foreign": never_subject / mass if mass else 0.0,
    }


def measured(snapshot: Snapshot, labels: dict, rewrite: Callable[[str], str]) -> list[Answered]:
    """Every task of the set route answers with a guessed pointer, with its signals."""
    found = []
    cases = [(case["task"], case["offer"]) for case in labels["on_topic"]] + [(t, None) for t in labels["off_topic"]]
    for task, offer in cases:
        answer = route(snapshot, rewrite(task), BUDGET)
        paths = tuple(o.document.path for o in answer.pointers)
        if any(not o.evidence.anchors for o in answer.pointers):
            outcome = "trap" if offer is None else "hit" if all(p in paths for p in offer) else "miss"
            found.append((outcome, signals(snapshot, task, paths)))
    return found


def declared_aliases(root: Path) -> dict[str, str]:
    """Abbreviation → its long form, lowercased, as the corpus's pages declare them, where one
    abbreviation has one long form (up to a plural) and is not a stop word."""
    forms: dict[str, set[str]] = {}
    for page in sorted(root.rglob("*.md")):
        for match in DECLARED.finditer(page.read_text(errors="replace")):
            words, short = match.group(1).split(), match.group(2)
            if not (short.isupper() or any(c.isupper() for c in short[1:])):
                continue
            for n in range(1, len(words) + 1):
                initials = "".join(part[0] for word in words[-n:] for part in word.split("-") if part).lower()
                if initials in (short.lower(), short.lower().rstrip("s")):
                    long_form = " ".join(words[-n:]).lower().replace("-", " ")
                    key = short.lower().rstrip("s") if len(short) > 3 else short.lower()  # "SDKs" is "sdk"
                    forms.setdefault(key, set()).add(long_form)
                    break
    return {short: sorted(longs)[0] for short, longs in forms.items()
            if len({form.rstrip("s") for form in longs}) == 1 and short not in ENGLISH_STOP_WORDS}


def with_aliases(aliases: dict[str, str]) -> Callable[[str], str]:
    def rewrite(task: str) -> str:
        words = terms(task)
        extra = [long_form for short, long_form in aliases.items() if short in words and long_form not in task.lower()]
        return " ".join([task, *extra])
    return rewrite


def report(answered: list[Answered]) -> str:
    traps = [found for outcome, found in answered if outcome == "trap"]
    hits = [found for outcome, found in answered if outcome == "hit"]
    lines = [f"{len(hits)} right answers and {len(traps)} traps answered over the real sets", "",
             "| signal | silent when | traps silenced | right answers lost |", "|---|---|---|---|"]
    for name in traps[0] if traps else ():
        sign = -1 if name == "foreign" else 1  # the one signal a trap holds more of
        at_traps = [sign * found[name] for found in traps]
        at_hits = [sign * found[name] for found in hits]
        for cut in sorted({round(q, 2) for q in statistics.quantiles(at_traps, n=4)}):
            lines.append(f"| {name} | {'<' if sign > 0 else '>'} {abs(cut)} | {sum(v < cut for v in at_traps)} | "
                         f"{sum(v < cut for v in at_hits)} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    aliased = "--aliases" in sys.argv[1:]
    answered = []
    with tempfile.TemporaryDirectory() as work:
        for corpus in (c for c in REAL if c.archive.is_file()):
            root = unpack(corpus, Path(work))
            snapshot = load(root, TODAY)
            rewrite = with_aliases(declared_aliases(root / corpus.corpus_root)) if aliased else str
            for labelled in (s for s in SETS if s.corpus is corpus):
                answered += measured(snapshot, labelled.labels, rewrite)
    sys.stdout.write(report(answered))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
