"""Shortcuts taken for speed give exactly what the long way gives."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from headwater.check.rules.prose import Run
from headwater.check.rules.voice import VOICE
from headwater.corpus.census import Classifier
from headwater.patterns import compile_pattern, scanned, segment_matches
from headwater.render.text import REWRITTEN, _fits, _wrapped

PIECES = st.sampled_from(["a", "bb", " ", "  ", "\u2003", "\u00a0", "“x”", "-", "\t", "word", "\n", "ı", "ſ"])


@settings(max_examples=2000)
@given(st.lists(PIECES, max_size=20).map("".join), st.integers(1, 40), st.integers(0, 6))
def test_a_line_the_report_leaves_unwrapped_is_what_textwrap_gives(text, room, indent):
    if _fits(text, room):
        wrapped = textwrap.wrap(text, room + indent, initial_indent=" " * indent,
                                subsequent_indent=" " * (indent + 2), break_long_words=False,
                                break_on_hyphens=False)
        assert wrapped == [" " * indent + text]


WORDS = st.sampled_from(["a", "bb", " ", "  ", "   ", "\u2003", "\u00a0", "“x”", "-", "word", "ı", "`id`",
                         "a-long-word-that-fits-no-line-of-any-width-asked-here", "…"])


@settings(max_examples=4000)
@given(st.lists(WORDS, max_size=30).map("".join), st.integers(4, 60), st.integers(0, 6))
def test_a_line_the_report_wraps_itself_is_wrapped_as_textwrap_wraps_it(text, room, indent):
    assert not any(c in text for c in REWRITTEN)
    expected = textwrap.wrap(text, room + indent, initial_indent=" " * indent, subsequent_indent=" " * (indent + 2),
                             break_long_words=False, break_on_hyphens=False)
    assert _wrapped(text, room + indent, indent) == expected


ASCII_WORDS = st.sampled_from(["a", "bb", " ", "  ", "   ", "-", "word", "`id`", "x.y/z",
                               "a-long-word-that-fits-no-line-of-any-width-asked-here"])


@settings(max_examples=4000)
@given(st.lists(ASCII_WORDS, max_size=40).map("".join), st.integers(1, 60), st.integers(0, 6))
def test_ascii_text_the_report_wraps_a_line_at_a_time_is_wrapped_as_textwrap_wraps_it(text, room, indent):
    expected = textwrap.wrap(text, room + indent, initial_indent=" " * indent, subsequent_indent=" " * (indent + 2),
                             break_long_words=False, break_on_hyphens=False)
    assert _wrapped(text, room + indent, indent) == expected


VOICE_PIECES = st.sampled_from(["we ", "will ", "WILL ", "wıll ", "ſhall ", "going to ", "it'll ", "no longer ",
                                "for now", "initially", "Eventually ", "phase 2 ", "renamed ", "x ", ". ", "é"])


@settings(max_examples=2000)
@given(st.lists(VOICE_PIECES, max_size=12).map("".join))
def test_the_voice_word_test_never_skips_a_run_a_pattern_matches(text):
    run = Run(1, text)
    for _, _, pattern, _, words in VOICE:
        if pattern.search(run.masked):
            assert run.may_hold(words), (pattern.pattern, text)


MASKED_PIECES = st.sampled_from(["we ", "will", " will ", "`will`", '"will"', "[will](x)", "<will>", "http://will.x ",
                                 "./will/x.md ", "for now", "now", "no", " ", "`", '"', "shall", "ſhall ", ". "])


@settings(max_examples=2000)
@given(st.lists(MASKED_PIECES, max_size=14).map("".join))
def test_a_run_skipped_on_its_text_holds_no_match_once_masked(text):
    run = Run(1, text)  # the word test asks the text before any mask is made
    for _, _, pattern, _, words in VOICE:
        if pattern.search(run.masked):
            assert run.may_hold(words), (pattern.pattern, text)


def test_a_run_that_is_not_ascii_is_never_skipped():
    run = Run(1, "ſhall we")
    assert run.lowered is None and run.may_hold(("shall",))
    assert re.search(r"\bshall\b", "ſhall", re.I)  # why: `re.I` matches what `lower()` does not give


def _reference(segments: tuple[str, ...], names: list[str]) -> bool:
    """The pattern language read literally: `**` zero or more non-empty names, else one name."""
    if not segments:
        return not names
    if segments[0] == "**":
        return _reference(segments[1:], names) or bool(names and names[0] and _reference(segments, names[1:]))
    return bool(names) and segment_matches(segments[0], names[0]) and _reference(segments[1:], names[1:])


SEGMENTS = st.sampled_from(["a", "b", "src", "*", "**", "?", "a*", "*.py", "x.py", "", "ab"])
NAMES = st.sampled_from(["a", "b", "src", "x.py", "ab", "", "aa"])


@settings(max_examples=3000)
@given(st.lists(SEGMENTS, max_size=4).map("/".join), st.lists(NAMES, max_size=5).map("/".join))
def test_a_pattern_rejected_by_its_literal_prefix_is_one_the_automaton_rejects(text, path):
    pattern = compile_pattern.__wrapped__(text)
    assert pattern.matches(path) == _reference(pattern.segments, path.split("/"))


STAR_PIECES = st.sampled_from(["a", "b", ".", "*", "?", "md", "ab"])
NAME_PIECES = st.sampled_from(["a", "b", ".", "md", "ab", "*", "?"])


@settings(max_examples=3000)
@given(st.lists(STAR_PIECES, max_size=5).map("".join), st.lists(NAME_PIECES, max_size=6).map("".join))
def test_a_segment_of_one_star_matches_by_prefix_and_suffix_what_the_scan_matches(segment, name):
    assert segment_matches(segment, name) == scanned(segment, name)


@dataclass(frozen=True)
class _Shelf:
    name: str
    path: str

    @property
    def pattern(self):
        return compile_pattern(self.path)


@settings(max_examples=1500)
@given(st.lists(st.lists(SEGMENTS, min_size=1, max_size=4).map("/".join), min_size=1, max_size=4),
       st.lists(st.lists(st.sampled_from(["a", "b", "src", "x.py", "ab", "aa"]), min_size=1, max_size=5).map("/".join),
                min_size=1, max_size=6))
def test_the_shelves_a_directory_settles_once_are_those_each_path_matches_the_long_way(paths, files):
    shelves = {str(index): _Shelf(str(index), path) for index, path in enumerate(paths)}
    classifier = Classifier(SimpleNamespace(shelves=shelves))
    for file in files:
        matched = [shelf for shelf in shelves.values() if shelf.pattern.matches(file)]
        best = max((shelf.pattern.specificity for shelf in matched), default=None)
        assert classifier.matching_shelves(file) == [s for s in matched if s.pattern.specificity == best]


def test_the_code_fingerprint_walks_the_modules_in_the_order_and_bytes_pathlib_s_walk_gives(tmp_path, monkeypatch):
    import hashlib
    from pathlib import Path

    from headwater import codeprint

    for name in ("check.py", "check/x.py", "check/a/b.py", "check-x.py", "a.py", "z/__init__.py", "z/notes.txt",
                 "z/__pycache__/m.cpython-311.pyc", "Upper.py", "é.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(name.encode("utf-8") * 3)
    monkeypatch.setattr(codeprint, "CODE_ROOT", tmp_path)

    def the_long_way(root: Path) -> str:
        digest = hashlib.sha256()
        for module in sorted(root.rglob("*.py")):
            digest.update(module.relative_to(root).as_posix().encode("utf-8") + b"\0")
            digest.update(hashlib.sha256(module.read_bytes()).digest())
        return digest.hexdigest()

    assert codeprint.code_fingerprint() == the_long_way(tmp_path)
    monkeypatch.setattr(codeprint, "CODE_ROOT", Path(codeprint.__file__).resolve().parent)
    assert codeprint.code_fingerprint() == the_long_way(codeprint.CODE_ROOT)
