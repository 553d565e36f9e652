"""The words each purpose declares, tokenized once per snapshot: what separates and scores
purposes, and what route keeps from reaching documents."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from headwater.reads.terms import terms
from headwater.taxonomy.model import Taxonomy


@dataclass(frozen=True)
class PurposeWords:
    answers: dict[str, frozenset[str]]  # purpose → the terms of its `answers`
    intents: dict[str, frozenset[str]]  # purpose → the terms of its `intent`
    function_words: frozenset[str]

    @staticmethod
    def of(tax: Taxonomy) -> PurposeWords:
        answers, intents = {}, {}
        for name, raw in tax.purposes.items():
            raw = raw or {}
            answers[name] = frozenset(terms(_joined(raw.get("answers"))))
            intents[name] = frozenset(terms(_joined(raw.get("intent"))))
        return PurposeWords(answers, intents, tax.function_words)

    @cached_property
    def every(self) -> frozenset[str]:
        """Every word any purpose declares: words that say what a reader comes for."""
        return frozenset().union(*self.answers.values(), *self.intents.values())

    def separating(self, task_terms: tuple[str, ...]) -> tuple[str, ...]:
        """With two purposes or more, a term separates unless every purpose holds it. A function
        word of the language regimes separates nothing: it carries grammar, not subject."""
        task_terms = tuple(t for t in task_terms if t not in self.function_words)
        if len(self.answers) < 2:
            return task_terms
        held = [self.answers[name] | self.intents[name] for name in self.answers]
        return tuple(t for t in task_terms if not all(t in h for h in held))

    def matched(self, separating: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
        """+3 per separating term a purpose's answers hold, else +1 if its intent does; score > 0
        matches; sorted by score, then name."""
        scored = []
        for name in self.answers:
            score = sum(3 if t in self.answers[name] else 1 if t in self.intents[name] else 0
                        for t in separating)
            if score > 0:
                scored.append((name, score))
        return tuple(sorted(scored, key=lambda pair: (-pair[1], pair[0])))

    def subjects(self, task_terms: tuple[str, ...]) -> tuple[str, ...]:
        """The task's terms that can say what a document is about: neither a function word nor a
        word of any purpose (those say what the reader comes for, which purposes already scored)."""
        return tuple(t for t in task_terms if t not in self.function_words and t not in self.every)


def _joined(values) -> str:
    if isinstance(values, list):
        return " ".join(str(v) for v in values)
    return str(values) if values is not None else ""
