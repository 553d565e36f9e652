"""en-US spelling from a kept dictionary (pyspellchecker's English word list), not a hand list.

Only a word the dictionary lacks and whose British-to-American respelling it holds is a
spelling finding: jargon the dictionary lacks (`config`, `namespace`) is not judged, and the
respelling is the unambiguous fix.
"""

from __future__ import annotations

import re
from functools import lru_cache

# British endings and their American forms, tried in turn on a word the dictionary lacks.
RESPELLINGS = (
    (re.compile(r"our(s|ed|ing|ite|ites|able)?$"), r"or\1"),
    (re.compile(r"is(e|es|ed|ing|ation|ations|er|ers)$"), r"iz\1"),
    (re.compile(r"ys(e|es|ed|ing)$"), r"yz\1"),
    (re.compile(r"([^aeiou])re(s|d)?$"), r"\1er\2"),
    (re.compile(r"ogue(s)?$"), r"og\1"),
    (re.compile(r"ence(s)?$"), r"ense\1"),
    (re.compile(r"mme(s)?$"), r"m\1"),
    (re.compile(r"ium$"), "um"),
    (re.compile(r"^sc(ep)"), r"sk\1"),
)
TAGS = ("en-US", "en")


@lru_cache(maxsize=1)  # the word list loads once, and only when a controlled regime asks
def _known():
    from spellchecker import SpellChecker

    return SpellChecker(language="en", distance=1)


def american(word: str) -> str | None:
    """The en-US spelling of a lowercase word written another way, when exactly one exists."""
    known = _known()
    if len(word) < 4 or word in known:
        return None
    found = {pattern.sub(replacement, word) for pattern, replacement in RESPELLINGS if pattern.search(word)}
    found = {f for f in found if f != word and f in known}
    return found.pop() if len(found) == 1 else None
