"""Property-based tests of the parsers every answer rests on: no input makes them raise."""

import string

from hypothesis import example, given, settings
from hypothesis import strategies as st

from headwater.corpus.frontmatter import FrontMatterRefusal, split
from headwater.paths import OutsidePath, normalize
from headwater.patterns import compile_pattern
from headwater.yaml.nodes import Map
from headwater.yaml.strict import YamlRefusal, load

yaml_ish = st.text(alphabet=string.printable + "äß—\ufeff\t", max_size=300)
front_matter_ish = st.builds(lambda body, tail: "---\n" + body + tail, yaml_ish,
                             st.sampled_from(["\n---\n# Title\n", "\n", "", "\r\n---\r\nx"]))


@settings(max_examples=400, deadline=None)
@given(text=yaml_ish)
def test_strict_yaml_loads_or_refuses_with_a_position(text):
    try:
        load(text, line_offset=1)
    except YamlRefusal as refusal:
        assert refusal.line >= 2 and refusal.column >= 1 and refusal.problem


@settings(max_examples=400, deadline=None)
@given(text=front_matter_ish | yaml_ish)
def test_any_file_text_is_a_document_or_a_positioned_refusal(text):
    try:
        parts = split(text)
    except FrontMatterRefusal as refusal:
        assert str(refusal)
        return
    assert parts.front is None or isinstance(parts.front, Map)
    assert parts.body_line >= 1


segments = st.sampled_from(["a", "b", "..", ".", "", "src", "x.py", "~", "é", "a b"])
typed_paths = st.lists(segments, max_size=8).map("/".join) | st.text(max_size=40)


@settings(max_examples=400, deadline=None)
@given(path=typed_paths, absolute=st.booleans(), backslash=st.booleans())
@example(path="0 /", absolute=False, backslash=False)  # a trailing space hidden before a `/`
@example(path="x/../ /a", absolute=False, backslash=False)  # a segment of whitespace first once `..` pops
def test_normalisation_never_escapes_the_root_and_is_idempotent(path, absolute, backslash):
    typed = ("/" if absolute else "") + (path.replace("/", "\\") if backslash else path)
    try:
        normal = normalize(typed)
    except OutsidePath:
        return
    parts = normal.split("/") if normal else []
    assert ".." not in parts and "." not in parts and "" not in parts
    assert not normal.startswith("/")
    assert normalize(normal) == normal


pattern_segments = st.sampled_from(["**", "*", "?", "a*", "src", "x?y", "[", "(", "+", "a.b"])


@settings(max_examples=300, deadline=None)
@given(pattern=st.lists(pattern_segments, min_size=1, max_size=5).map("/".join),
       path=st.lists(st.sampled_from(["src", "a", "ab", "x.y", "xay", "["]), max_size=5).map("/".join))
def test_the_pattern_matcher_answers_every_pattern_and_path(pattern, path):
    compiled = compile_pattern(pattern)
    assert compiled.matches(path) in (True, False)
    if compiled.is_literal:
        assert compiled.matches(path) == ("/".join(s for s in pattern.split("/") if s) == path)


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet=string.printable + "äßéÆøÅ—’_", max_size=200))
def test_the_route_tokenizer_keeps_lowercase_alphanumeric_runs_once_each(text):
    from headwater.reads.terms import terms

    found = terms(text)
    assert len(found) == len(set(found))
    for term in found:
        assert len(term) >= 2 and term == term.lower() and all(c.isalnum() for c in term)
    assert terms(" ".join(found)) == found


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=200))
def test_the_route_tokenizer_never_raises_on_any_unicode(text):
    from headwater.reads.terms import terms

    assert all(len(term) >= 2 for term in terms(text))
