"""The words each purpose declares, stemmed once per snapshot: which purposes a task matches.

Purposes are a prior, not a gate: a document whose kind serves a matched purpose gets a small
boost in the ranking, and a task that matches no purpose (or a taxonomy that declares none)
still routes on its words.
"""

from __future__ import annotations

from headwater.frozen import frozen
from headwater.reads.route.tokens import Tokenizer
from headwater.taxonomy.model import Taxonomy


@frozen
class PurposeWords:
    answers: dict[str, frozenset[str]]  # purpose → the stems of its `answers`
    intents: dict[str, frozenset[str]]  # purpose → the stems of its `intent`

    @staticmethod
    def of(tax: Taxonomy, tokenizer: Tokenizer) -> PurposeWords:
        answers, intents = {}, {}
        for name, raw in tax.purposes.items():
            raw = raw or {}
            answers[name] = frozenset(tokenizer.stems(_joined(raw.get("answers"))))
            intents[name] = frozenset(tokenizer.stems(_joined(raw.get("intent"))))
        return PurposeWords(answers, intents)

    def separating(self, stems: tuple[str, ...]) -> tuple[str, ...]:
        """With two purposes or more, a stem separates unless every purpose holds it."""
        if len(self.answers) < 2:
            return stems
        held = [self.answers[name] | self.intents[name] for name in self.answers]
        return tuple(s for s in stems if not all(s in h for h in held))

    def matched(self, separating: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
        """+3 per separating stem a purpose's answers hold, else +1 if its intent does; score > 0
        matches; sorted by score, then name."""
        scored = []
        for name in self.answers:
            score = sum(3 if s in self.answers[name] else 1 if s in self.intents[name] else 0
                        for s in separating)
            if score > 0:
                scored.append((name, score))
        return tuple(sorted(scored, key=lambda pair: (-pair[1], pair[0])))

    def declared_by(self, purposes: set[str]) -> frozenset[str]:
        """Every stem the answers or intent of these purposes hold."""
        return frozenset().union(*(self.answers[p] | self.intents[p] for p in sorted(purposes)))


def _joined(values) -> str:
    if isinstance(values, list):
        return " ".join(str(v) for v in values)
    return str(values) if values is not None else ""
