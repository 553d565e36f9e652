"""The common shape of front matter read without libyaml's events (`headwater.yaml.shallow`):
exactly the nodes the event path builds, or declined so the event path reads (and refuses) it.

Differential over every fixture's front matter and YAML file, the generated corpus the speed
tests share, both real corpora's archives (when present), and hostile texts from hypothesis.
"""

from __future__ import annotations

import tarfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from headwater.corpus import frontmatter
from headwater.corpus.frontmatter import FrontMatterRefusal
from headwater.yaml import shallow, strict
from headwater.yaml.nodes import Map, Seq
from headwater.yaml.strict import YamlRefusal, load, load_events

REPO = Path(__file__).resolve().parents[2]
ARCHIVES = REPO.parent / "shared" / "corpora"
REAL = ("kubernetes-enhancements", "dapr-docs")


def blocks(texts: list[str]) -> list[str]:
    """Each text's front-matter block, as `frontmatter.split` hands it to the loader."""
    found: list[str] = []

    def keep(block: str, **_: object) -> None:
        found.append(block)

    with mock.patch.object(frontmatter, "load", keep):
        for text in texts:
            try:
                frontmatter.split(text)
            except FrontMatterRefusal:
                continue
    return found


def events_or_refusal(text: str, offset: int) -> object:
    try:
        return load_events(text, offset, {})
    except YamlRefusal as refusal:
        return refusal


def differ(texts: list[str], offset: int) -> tuple[int, list[str]]:
    """How many texts the shallow reader took, and those it read otherwise than the event path."""
    taken, wrong = 0, []
    for text in texts:
        found = shallow.load(text, offset, {})
        if found is not None:
            taken += 1
            if found != events_or_refusal(text, offset):
                wrong.append(text)
    return taken, wrong


def read(paths: list[Path]) -> list[str]:
    return [path.read_bytes().decode("utf-8").removeprefix("\ufeff") for path in paths]


def test_every_fixture_front_matter_and_yaml_file_reads_as_the_event_path_reads_it():
    roots = (REPO / "corpus_fixtures", REPO / "tests", REPO / "taxonomy")
    markdown = read(sorted(path for root in roots for path in root.rglob("*.md")))
    yaml_files = read(sorted(path for root in roots for suffix in ("*.yml", "*.yaml") for path in root.rglob(suffix)))
    fronts = blocks(markdown)
    taken, wrong = differ(fronts, 1)
    assert wrong == [] and taken > len(fronts) * 0.8  # the common shape is the fixtures' common case
    taken, wrong = differ(yaml_files, 0)
    assert wrong == [] and taken > 0


def test_every_generated_front_matter_is_read_without_libyaml_as_the_event_path_reads_it(generated):
    fronts = blocks(read(sorted(generated.rglob("*.md"))))
    assert len(fronts) >= 200
    assert differ(fronts, 1) == (len(fronts), [])


@pytest.mark.parametrize("name", REAL)
def test_every_real_front_matter_and_yaml_file_reads_as_the_event_path_reads_it(name):
    archive = ARCHIVES / f"{name}.tar.gz"
    if not archive.is_file():
        pytest.skip(f"../shared/corpora/{archive.name} is absent")
    markdown, yaml_files = [], []
    with tarfile.open(archive) as opened:
        for member in opened:
            name = member.name
            into = markdown if name.endswith(".md") else yaml_files if name.endswith((".yaml", ".yml")) else None
            if into is not None and member.isfile():
                data = opened.extractfile(member).read()
                try:
                    into.append(data.decode("utf-8").removeprefix("\ufeff"))
                except UnicodeDecodeError:
                    continue
    fronts = blocks(markdown)  # the KEPs keep theirs in kep.yaml files: none in a README
    (front_taken, front_wrong), (file_taken, file_wrong) = differ(fronts, 1), differ(yaml_files, 0)
    assert front_wrong == [] and file_wrong == []
    assert front_taken + file_taken > (len(fronts) + len(yaml_files)) // 2


def test_the_common_shape_of_front_matter_is_read_without_libyaml():
    text = ('id: GEN-SPEC-0289\nstatus: current\nsummary: "How the catalog signs it."\n'
            "provenance: {warrant: accepted, accepted_by: a.reviewer}\nempty:\nrelations:\n  governs:\n"
            "    - src/catalog/**\n    - [src/a.py]\n  traces_to:\n  - to: GEN-SPEC-0451\n    cue: 'why'\n")
    with mock.patch.object(strict, "_events", side_effect=AssertionError("libyaml was asked")):
        front = load(text, line_offset=1)
    assert isinstance(front, Map) and front == load_events(text, 1, {})
    relations = front.get("relations")
    assert isinstance(relations, Map) and isinstance(relations.get("traces_to"), Seq)
    assert (front.get("empty").text, front.get("empty").line, front.get("empty").column) == ("", 6, 7)


@pytest.mark.parametrize("text", [
    "a: 1\na: 2\n", "a: &x 1\n", "a: *x\n", "<<: {a: 1}\n", "a: !t 1\n", "a: 1 # note\n", "# note\na: 1\n",
    "a:\tb\n", "a: |\n  text\n", "a: >-\n  text\n", "a: b\n  continued\n", "a: b: c\n", "a: \"x\\ny\"\n",
    "a: 'it''s'\n", "a: [b, [c]]\n", "a: [b,]\n", "a: {b}\n", "a: [b,\n  c]\n", "a: \ufeffb\n", "a: x\u2028y\n",
    "a: 1\n---\nb: 2\n", "a: 1\n...\n", "- a\n", "  a: 1\n", "\"a\": 1\n", "a b: 1\n", "a:\n  - b\n  c: 1\n",
    "a: {b: c, b: d}\n", "a: -1\n", "a: @b\n", "a:\n-\n", "? a\n: b\n", "a: b:\n", "a:\n  -\n", "a:\n  -b\n",
])
def test_the_shallow_reader_declines_what_it_does_not_read_as_libyaml_would(text):
    assert shallow.load(text, 0, {}) is None


@pytest.mark.parametrize("text", [
    "a: b\u00a0\n", "a: bX\n", "a: [\u00a0]\n", "a: [X]\n",  # no space YAML reads apart: kept, as an `X` is
    "a: {}\n", "b: 1\na: { }\n", "a: [b,c]\n", "a: [b, c, d]\n", "a: ''\n", 'a: ""\n',
    "a:\n- b\n",  # an indentless sequence on the last row
    "a:\n-  b\n-   c: d\n    e: f\n",  # more than one space after a dash
])
def test_the_edges_of_the_common_shape_are_read_without_libyaml_as_the_event_path_reads_them(text):
    found = shallow.load(text, 1, {})
    assert found is not None and found == load_events(text, 1, {})


def nested(levels: int, flush: bool) -> str:
    """`levels` collections, a mapping in a sequence in a mapping..., each sequence as indented as
    its key (`flush`) or two columns deeper; the innermost holds `v`."""
    rows: list[str] = []
    indent, lead, key_indent = 0, "", 0
    for level in range(1, levels + 1):
        if level % 2:  # a mapping, its key on the row of the dash that opens its item
            rows.append(" " * indent + lead + "k:")
            key_indent = indent + len(lead)
        else:
            indent, lead = key_indent + (0 if flush else 2), "- "
    if levels % 2:
        rows[-1] += " v"
    else:
        rows.append(" " * indent + "- v")
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize(("shape", "deepest"), [
    ("mappings", 16),
    # the reader checks the depth where a collection opens under a key: a sequence's item mapping
    # at 17 opens none
    ("flush sequences", 17), ("indented sequences", 17),
])
def test_a_front_matter_nested_past_the_shallow_reader_s_depth_is_declined_and_within_it_read(shape, deepest):
    def text(levels: int) -> str:
        if shape == "mappings":
            return "".join("  " * level + "k:\n" for level in range(levels - 1)) + "  " * (levels - 1) + "k: v\n"
        return nested(levels, flush=shape == "flush sequences")

    taken = [levels for levels in range(1, 30) if shallow.load(text(levels), 0, {}) is not None]
    assert taken == list(range(1, deepest + 1))
    assert all(shallow.load(text(levels), 0, {}) == load_events(text(levels), 0, {}) for levels in taken)


def test_a_refusal_and_its_line_stay_the_event_path_s():
    with pytest.raises(YamlRefusal) as refused:
        load("id: A-1\ntitle: x\nid: A-2\n", line_offset=1)
    assert (refused.value.line, refused.value.problem) == (4, "the key `id` appears twice")


# Hostile texts: lines built from keys, separators, values and whole lines a YAML reader treats
# apart, either at random or in the nested shapes front matter takes.
KEYS = ["a", "b", "id", "x.y", "k-1", "1", "_", "a/b", "c", "d", "e", "f", "g", "status", "title", "relations"]
HOSTILE_KEYS = ["a", "<<", '"q"', "'s'", "? a", "a b", "é", "x" * 300, "-a", "A:B", "a:b"]
SEPARATORS = [": ", ":", ":  ", " : ", "", ":\t"]
GOOD = ["v", "two words", "a:b", "x#y", '"dq"', "'sq'", '""', "[a, b]", "[]", "{a: b}", "{a: b, c: d}", "[a b , c]",
        "-5", "...", "ünï", "", "v   ", "\U0001f600 smile", "a, b", "b]", "http://x.y/z", "2026-01-01", "a  b",
        "[a  b]", "{ a :  b }", "{a: b c}", "[ x ]", "say \"hi\"", "it's", '"\U0001f600 x"', "[\U0001f600, b]",
        "{é: ü}"]
HOSTILE = ["a: b", "x #c", "# c", "'it''s'", '"a\\"b"', '"a\\nb"', "[ ]", "{}", "{a: b, a: c}", "[a, [b]]", "[a,]",
           "{a}", "{a:b}", "[a:b]", '["q", r]', "&x v", "*x", "!t v", "!!str v", "|", ">-", "- x", "---", "%x", "@x",
           "`x", "?x", ":x", "\u2028", "x\x85y", "\ufeff", '"unclosed', "'unclosed", '"a" b', "{a: [b]}", "x\ty",
           "<<", "a:", "\x07", "[a] [b]"]
WHOLE = ["---", "...", "# comment", "", "   ", "%YAML 1.1", "\t", "--- x", "-", "- ", "x", "  continued", "  - item"]
# mostly what front matter holds, one part in ten or so hostile, so that many texts are read whole
def mostly(good: list[str], hostile: list[str]) -> st.SearchStrategy[str]:
    return st.tuples(st.integers(0, 11), st.sampled_from(good), st.sampled_from(hostile)).map(
        lambda drawn: drawn[2] if drawn[0] == 0 else drawn[1])


values, keys = mostly(GOOD, HOSTILE), mostly(KEYS, HOSTILE_KEYS)


def render(entries: list, indent: int, out: list[str]) -> list[str]:
    pad = " " * indent
    for shape, key, value, flush in entries:
        if shape == "scalar":
            out.append(f"{pad}{key}:" + (f" {value}" if value else ""))
            continue
        out.append(f"{pad}{key}:")
        if shape == "map":
            render(value, indent + 2, out)
            continue
        dash = pad if flush else pad + "  "  # a sequence as indented as its key, or deeper
        for item in value:
            if isinstance(item, str):
                out.append(f"{dash}- {item}")
            else:
                lines = render(item, 0, [])
                out += [f"{dash}- {lines[0]}", *(f"{dash}  {line}" for line in lines[1:])]
    return out


entry = st.tuples(st.just("scalar"), keys, values, st.booleans())


def mappings(depth: int) -> st.SearchStrategy[list]:
    """Entries of a mapping nesting up to `depth` more levels (by hand: `st.recursive`'s repr grows
    past what hypothesis will print)."""
    inner = (entry if depth == 0 else
             entry | st.tuples(st.just("map"), keys, mappings(depth - 1), st.booleans())
             | st.tuples(st.just("seq"), keys, st.lists(values | mappings(depth - 1), min_size=1, max_size=3),
                         st.booleans()))
    # a key twice in one mapping comes from the hostile keys (`a` is among them too)
    return st.lists(inner, min_size=1, max_size=5, unique_by=lambda drawn: drawn[1])


raw_line = (st.builds(lambda indent, dash, key, sep, value: " " * indent + dash + key + sep + value,
                      st.integers(0, 5), st.sampled_from(["", "- ", "-  ", "- - ", "-"]), keys,
                      st.sampled_from(SEPARATORS), values)
            | st.sampled_from(WHOLE))
shaped = st.builds(lambda entries, end: "\n".join(render(entries, 0, [])) + end, mappings(2),
                   st.sampled_from(["\n", "", "\n\n", "  \n"]))
lines = st.builds(lambda lines: "\n".join(lines) + "\n", st.lists(raw_line, min_size=1, max_size=12))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=shaped, offset=st.integers(0, 3))
@example(text="a: { a :  b }\n", offset=0)  # a flow key's space before its colon is not the key's
@example(text="a:\n- x\nb:\n  - to: y\n    c: 'z'\n  - [p, q]\nd:\n", offset=1)
def test_a_text_of_front_matter_s_shapes_with_hostile_parts_is_read_as_the_event_path_reads_it_or_declined(
        text, offset):
    found = shallow.load(text, offset, {})
    assert found is None or found == events_or_refusal(text, offset)


@settings(max_examples=300, deadline=None)
@given(text=lines, offset=st.integers(0, 3))
def test_a_text_of_hostile_lines_is_read_as_the_event_path_reads_it_or_declined(text, offset):
    found = shallow.load(text, offset, {})
    assert found is None or found == events_or_refusal(text, offset)
