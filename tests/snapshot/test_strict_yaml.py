import pytest

from headwater.yaml.nodes import Map, Scalar, to_plain
from headwater.yaml.strict import YamlRefusal, load


def test_scalars_stay_the_text_the_author_wrote():
    node = load("a: true\nb: 1.10\nc: null\nd: 2026-01-01\n")
    assert to_plain(node) == {"a": "true", "b": "1.10", "c": "null", "d": "2026-01-01"}


def test_every_key_and_value_keeps_its_line_and_column():
    node = load("id: X-1\nrelations:\n  governs: [src/a.py]\n", line_offset=1)
    assert isinstance(node, Map)
    relations = node.get("relations")
    assert isinstance(relations, Map)
    key = relations.key("governs")
    assert (key.line, key.column) == (4, 3)
    item = relations.get("governs").items[0]
    assert isinstance(item, Scalar) and (item.line, item.column) == (4, 13)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("a: 1\na: 2\n", 2, "appears twice"),
        ("a: &x 1\n", 1, "anchor"),
        ("a: 1\nb: *x\n", 2, "alias"),
        ("<<: {a: 1}\n", 1, "merge key"),
        ("a: !!str 1\n", 1, "explicit tag (`!!str`)"),
        ("a: 1\n---\nb: 2\n", 2, "second document"),
        ("? [a]\n: b\n", 1, "plain value"),
        ("a: [1,\n", 2, ""),
        ("a:\n\t- b\n", 2, ""),
    ],
)
def test_strict_yaml_refuses_with_the_line(text, line, words):
    with pytest.raises(YamlRefusal) as refused:
        load(text)
    assert refused.value.line == line
    assert words in refused.value.problem


def test_nesting_deeper_than_the_limit_is_refused_not_a_crash():
    text = "".join("  " * depth + f"k{depth}:\n" for depth in range(200)) + "  " * 200 + "v\n"
    with pytest.raises(YamlRefusal) as refused:
        load(text)
    assert "nests deeper" in refused.value.problem


def test_an_empty_text_holds_no_document():
    assert load("") is None


def test_loads_given_one_scalar_table_share_equal_scalars_and_build_the_nodes_of_a_plain_load():
    scalars: dict = {}
    first = load("id: A-1\nstatus: draft\n", scalars=scalars)
    second = load("id: B-2\nstatus: draft\n", scalars=scalars)
    assert first == load("id: A-1\nstatus: draft\n") and second == load("id: B-2\nstatus: draft\n")
    assert first.key("status") is second.key("status") and first.get("status") is second.get("status")
    assert first.get("id") is not second.get("id")
    quoted = load("status: 'draft'\n", scalars=scalars)
    assert quoted.get("status").quoted and not first.get("status").quoted


def test_a_mapping_indexes_its_keys_only_when_one_is_first_looked_up():
    # a warm check rebuilds every front's mappings, and nobody looks a key up in most nested ones
    first, second = Scalar("a", 1, 1), Scalar("a", 2, 1)
    entries = ((first, Scalar("1", 1, 4)), (Scalar("b", 3, 1), Scalar("2", 3, 4)), (second, Scalar("3", 2, 4)))
    mapping = Map(entries, 1, 1)
    assert mapping._index is None
    assert mapping.key("a") is first and mapping.get("a").text == "1" and "b" in mapping and "c" not in mapping
    assert mapping._index == {"a": 0, "b": 1}
    assert mapping == Map(mapping.entries, 1, 1) and hash(mapping) == hash(Map(mapping.entries, 1, 1))
