"""Route's one tokenizer, for tasks and documents alike: alphanumeric runs, lowercased, stop
words dropped, Snowball English stems (PyStemmer, Snowball's C build: a real corpus's tens of
thousands of distinct words stem in a tenth of a second, where the pure-Python build took two,
HW-DR-0058).

The stop words are the taxonomy's function words (`regimes.language.<n>.function_words`) when it
declares any, else the built-in English list below. Question words (why, how, what) are not stop
words: they tell purposes apart. Stems are cached per word for the life of the tokenizer, which
lives as long as the snapshot, so a long MCP session stems each distinct word once (up to MEMO
words; past that a new word is stemmed on each asking).

Stem counts derived from bodies are kept in the parse cache under the tokenizer's `key`: bump
VERSION with any change to how text becomes stems, and every kept count reads as a miss.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import field
from functools import cached_property
from itertools import repeat

from headwater.frozen import frozen
from headwater.reads.terms import STRETCH, counted, tokens
from headwater.taxonomy.model import Taxonomy

SHORT = 32  # words: a text this long or shorter (a title, a summary, a path) is not counted first
LONGEST = 64  # characters: a longer run is no English word, so it is neither stemmed nor kept in the memo
MEMO = 1 << 17  # distinct words the memo keeps: a real corpus has tens of thousands; an agent's
# stream of made-up words in a long MCP session would otherwise grow it without end
VERSION = 3  # of the text → stems mapping (with `terms.tokens`): bump it when either changes
ENGLISH_STOP_WORDS = frozenset({
    "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any",
    "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both",
    "but", "by", "can", "could", "did", "do", "does", "doing", "done", "down", "during", "each",
    "either", "else", "etc", "even", "ever", "every", "few", "for", "from", "further", "had",
    "has", "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "i",
    "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself",
    "neither", "no", "nor", "not", "of", "off", "on", "once", "one", "only", "onto", "or", "other",
    "our", "ours", "ourselves", "out", "over", "own", "per", "same", "she", "should", "so", "some",
    "such", "than", "that", "the", "their", "theirs", "them", "themselves", "then", "there",
    "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "upon", "us",
    "via", "very", "was", "we", "were", "will", "with", "within", "without", "would", "yes", "yet",
    "you", "your", "yours", "yourself", "yourselves"
})


@frozen
class Tokenizer:
    stop_words: frozenset[str]
    _stems: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    @staticmethod
    def of(tax: Taxonomy) -> Tokenizer:
        return Tokenizer(tax.function_words or ENGLISH_STOP_WORDS)

    @cached_property
    def key(self) -> str:
        """Names this tokenizer's mapping: its version, its stop words and the stemmer's release
        (a Snowball release may stem a word anew: 3.1 did `internal`)."""
        import Stemmer

        named = [str(VERSION), f"PyStemmer {Stemmer.version()}", *sorted(self.stop_words)]
        return hashlib.sha256("\n".join(named).encode("utf-8")).hexdigest()[:16]

    @cached_property
    def _stemmer(self):
        import Stemmer  # on the first stem: a check whose bodies are all cached stems nothing

        return Stemmer.Stemmer("english")

    def stem(self, word: str) -> str:
        found = self._stems.get(word)
        if found is None:
            if len(word) > LONGEST or (word.isascii() and word.isdigit()):  # as it is: no call, no entry
                return word  # (Snowball leaves a numeral as it is)
            found = self._stemmer.stemWord(word)
            if len(self._stems) < MEMO:
                self._stems[word] = found
        return found

    def stems(self, text: str) -> list[str]:
        """Every stem of the text's words that are not stop words, repeats kept (they count)."""
        stop, known, stem = self.stop_words, self._stems, self.stem
        return [known.get(word) or stem(word) for word in tokens(text) if word not in stop]

    def counts(self, text: str) -> dict[str, int]:
        """`Counter(self.stems(text))` as a plain dict (a copy less), each distinct word looked up
        and stemmed once (a short text's words one by one: counting them first costs more)."""
        stop, known, stem = self.stop_words, self._stems, self.stem
        found: dict[str, int] = {}
        if len(text) > STRETCH:  # a body: counted as read
            pairs: Iterable[tuple[str, int]] = counted(text).items()
        else:
            words = tokens(text)
            pairs = Counter(words).items() if len(words) > SHORT else zip(words, repeat(1))
        for word, count in pairs:
            if word not in stop:
                key = known.get(word) or stem(word)
                found[key] = found.get(key, 0) + count
        return found

    def task_words(self, words: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        """(word, stem) for each task term that is not a stop word, first stem wins, in order."""
        seen: dict[str, str] = {}
        for word in words:
            if word not in self.stop_words:
                seen.setdefault(self.stem(word), word)
        return tuple((word, stem) for stem, word in seen.items())
