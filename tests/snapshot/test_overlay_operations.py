"""Overlay operations on dotted addresses, each one's effect and each one's refusal, and the
`$vocabularies` references resolved over the merged tree (`$$` a literal dollar)."""

from __future__ import annotations

import pytest

from headwater.taxonomy.overlay import (
    OverlayError,
    add,
    add_to,
    apply_overlay,
    expand_references,
    override,
    remove,
    remove_from,
    split_address,
)

SOURCE = ".headwater/overlay.yml"


def tree() -> dict:
    return {"kinds": {"decision": {"facets": ["status", "summary"], "shelf": "decisions"}}, "version": 1}


def refused(operation, *args) -> str:
    with pytest.raises(OverlayError) as error:
        operation(*args, SOURCE)
    return str(error.value)


def test_add_creates_the_key_and_the_mappings_on_its_way_and_copies_the_value():
    taxonomy, value = tree(), {"facets": ["title"]}
    add(taxonomy, "kinds.guide", value, SOURCE)
    add(taxonomy, "shelves.guides.pattern", "docs/guides/**", SOURCE)
    value["facets"].append("changed later")
    assert taxonomy["kinds"]["guide"] == {"facets": ["title"]}
    assert taxonomy["shelves"] == {"guides": {"pattern": "docs/guides/**"}}


def test_add_refuses_a_key_that_exists_and_a_path_through_a_value():
    taxonomy = tree()
    assert refused(add, taxonomy, "kinds.decision", {}) == \
        f"{SOURCE}: `kinds.decision` already exists, so `add` cannot add it (use `override`)"
    assert refused(add, taxonomy, "version.minor", 2) == f"{SOURCE}: `version.minor` has no mapping to hold it"
    assert refused(add, taxonomy, "kinds.decision.shelf", "x") == \
        f"{SOURCE}: `kinds.decision.shelf` already exists, so `add` cannot add it (use `override`)"
    assert taxonomy == tree()


def test_add_looks_for_the_last_segment_only():
    taxonomy = {"a": {"b": {"b": 1}}}
    add(taxonomy, "a.b.c", 2, SOURCE)
    assert taxonomy == {"a": {"b": {"b": 1, "c": 2}}}


def test_override_replaces_a_value_with_a_copy_and_refuses_what_is_not_there():
    taxonomy, value = tree(), [{"name": ["title"]}]
    override(taxonomy, "kinds.decision.facets", value, SOURCE)
    value[0]["name"].append("changed later")
    assert taxonomy["kinds"]["decision"]["facets"] == [{"name": ["title"]}]
    assert refused(override, taxonomy, "kinds.guide.facets", []) == \
        f"{SOURCE}: `kinds.guide.facets` does not exist, so `override` has nothing to change"
    assert refused(override, taxonomy, "kinds.decision.title", "x") == \
        f"{SOURCE}: `kinds.decision.title` does not exist, so `override` has nothing to change"
    assert "guide" not in taxonomy["kinds"]


def test_remove_deletes_the_key_only_and_refuses_what_is_not_there():
    taxonomy = tree()
    remove(taxonomy, "kinds.decision.shelf", SOURCE)
    assert taxonomy == {"kinds": {"decision": {"facets": ["status", "summary"]}}, "version": 1}
    assert refused(remove, taxonomy, "kinds.decision.shelf") == \
        f"{SOURCE}: `kinds.decision.shelf` does not exist, so `remove` has nothing to change"


def test_add_to_appends_each_item_in_order_as_a_copy_and_refuses_one_already_there():
    taxonomy, item = tree(), {"name": ["owner"]}
    add_to(taxonomy, "kinds.decision.facets", ["title", item], SOURCE)
    add_to(taxonomy, "kinds.decision.facets", "owner", SOURCE)
    item["name"].append("changed later")
    assert taxonomy["kinds"]["decision"]["facets"] == ["status", "summary", "title", {"name": ["owner"]}, "owner"]
    assert refused(add_to, taxonomy, "kinds.decision.facets", ["new", "status"]) == \
        f"{SOURCE}: `kinds.decision.facets` already holds `status`, so `add_to` cannot add it"
    assert taxonomy["kinds"]["decision"]["facets"][-1] == "new"  # the items before the refused one landed


def test_remove_from_takes_out_each_item_and_refuses_one_not_there():
    taxonomy = tree()
    remove_from(taxonomy, "kinds.decision.facets", "status", SOURCE)
    assert taxonomy["kinds"]["decision"]["facets"] == ["summary"]
    assert refused(remove_from, taxonomy, "kinds.decision.facets", ["status"]) == \
        f"{SOURCE}: `kinds.decision.facets` does not hold `status`, so `remove_from` cannot remove it"
    remove_from(taxonomy, "kinds.decision.facets", ["summary"], SOURCE)
    assert taxonomy["kinds"]["decision"]["facets"] == []


@pytest.mark.parametrize("operation", [add_to, remove_from])
def test_list_operations_refuse_a_value_that_is_not_a_list_and_an_address_that_is_not_there(operation):
    name = operation.__name__
    assert refused(operation, tree(), "kinds.decision.shelf", "x") == \
        f"{SOURCE}: `kinds.decision.shelf` is not a list, so `{name}` cannot edit it"
    assert refused(operation, tree(), "kinds.guide.facets", "x") == \
        f"{SOURCE}: `kinds.guide.facets` does not exist, so `{name}` has nothing to change"


@pytest.mark.parametrize("address", ["", "kinds..decision", "kinds.déc", "kinds.a b", "$vocabularies.x", "a.*"])
def test_an_address_is_segments_of_letters_digits_underscore_and_dash(address):
    with pytest.raises(OverlayError) as error:
        split_address(address, SOURCE)
    assert str(error.value) == f"{SOURCE}: `{address}` is not an address (segments of A-Z a-z 0-9 _ -)"


@pytest.mark.parametrize("operation", [add, override, add_to, remove_from])
def test_every_operation_names_its_source_when_the_address_is_not_one(operation):
    said = f"{SOURCE}: `kinds..decision` is not an address"
    assert refused(operation, tree(), "kinds..decision", "x").startswith(said)
    assert refused(remove, tree(), "kinds..decision").startswith(said)


def test_a_valid_address_splits_on_dots():
    assert split_address("kinds.my_kind-2.Facets", SOURCE) == ["kinds", "my_kind-2", "Facets"]


def test_an_overlay_applies_its_operations_in_their_fixed_order_and_reports_every_problem():
    taxonomy = tree()
    problems = apply_overlay(taxonomy, {
        "remove_from": {"kinds.decision.facets": ["title"]},   # runs after add_to, so `title` is there
        "add_to": {"kinds.decision.facets": ["title"]},
        "remove": ["kinds.guide"],                             # runs after add
        "override": {"kinds.guide.shelf": "guides"},           # runs after add, before remove
        "add": {"kinds.guide": {"shelf": "docs"}},
        "frob": {},
    }, SOURCE)
    assert [str(p) for p in problems] == [
        f"{SOURCE}: `frob` is not an operation (use add, override, remove, add_to, remove_from)"]
    assert taxonomy == tree()


def test_an_overlay_keeps_what_applied_and_names_each_operation_that_did_not():
    taxonomy = tree()
    problems = apply_overlay(taxonomy, {"add": {"kinds.decision": {}, "kinds.guide": {}},
                                        "override": {"kinds.nothing": 1},
                                        "remove": ["kinds.nothing", "version"],
                                        "add_to": {"kinds.decision.facets": ["status"]},
                                        "remove_from": {"kinds.decision.facets": ["title"]}}, SOURCE)
    assert [(p.source, p.address) for p in problems] == [(SOURCE, address) for address in (
        "kinds.decision", "kinds.nothing", "kinds.nothing", "kinds.decision.facets", "kinds.decision.facets")]
    assert taxonomy == {"kinds": {"decision": {"facets": ["status", "summary"], "shelf": "decisions"}, "guide": {}}}


@pytest.mark.parametrize(("overlay", "problem"), [
    ([], ("(top)", "must be a mapping of operations")),
    ("add", ("(top)", "must be a mapping of operations")),
    ({"remove": "kinds.decision"}, ("remove", "must be a list of addresses")),
    ({"add": ["kinds.guide"]}, ("add", "must map addresses to values")),
    ({"add_to": "x"}, ("add_to", "must map addresses to values")),
])
def test_an_overlay_of_the_wrong_shape_is_one_problem_and_changes_nothing(overlay, problem):
    taxonomy = tree()
    [found] = apply_overlay(taxonomy, overlay, SOURCE)
    assert (found.source, found.address, found.problem) == (SOURCE, *problem)
    assert taxonomy == tree()


def test_an_empty_overlay_or_an_empty_operation_changes_nothing():
    taxonomy = tree()
    assert apply_overlay(taxonomy, None, SOURCE) == []
    assert apply_overlay(taxonomy, {"add": None, "remove": None}, SOURCE) == []
    assert taxonomy == tree()


def test_references_resolve_to_a_copy_of_the_vocabulary_anywhere_in_the_tree():
    taxonomy = {"vocabularies": {"states": {"decision": ["proposed", "current"]}},
                "kinds": {"decision": {"states": "$vocabularies.states.decision",
                                       "more": ["$vocabularies.states.decision", "plain"]}}}
    assert expand_references(taxonomy) == []
    assert taxonomy["kinds"]["decision"] == {"states": ["proposed", "current"],
                                             "more": [["proposed", "current"], "plain"]}
    taxonomy["kinds"]["decision"]["states"].append("changed later")
    assert taxonomy["vocabularies"]["states"]["decision"] == ["proposed", "current"]
    nested = {"vocabularies": {"states": {"decision": ["current"]}}, "kinds": {"x": "$vocabularies.states"}}
    assert expand_references(nested) == []
    nested["kinds"]["x"]["decision"].append("changed later")
    assert nested["vocabularies"]["states"] == {"decision": ["current"]}


def test_a_double_dollar_is_a_literal_dollar_and_no_reference():
    taxonomy = {"vocabularies": {"x": "y"}, "notes": {"price": "$$vocabularies.x", "cost": "$$5", "plain": "$"}}
    assert expand_references(taxonomy) == ["notes.plain: `$` is not a reference this engine reads "
                                           "(`$vocabularies.<name>`)"]
    assert taxonomy["notes"] == {"price": "$vocabularies.x", "cost": "$5", "plain": "$"}


@pytest.mark.parametrize(("value", "problem"), [
    ("$vocabularies.missing", "`$vocabularies.missing` names nothing"),
    ("$vocabularies.states.decision.deeper", "`$vocabularies.states.decision.deeper` names nothing"),
    ("$vocabularies.alias", "`$vocabularies.alias` names another reference, which is not allowed"),
    ("$vocabularies", "`$vocabularies` is not a reference this engine reads (`$vocabularies.<name>`)"),
    ("$kinds.decision", "`$kinds.decision` is not a reference this engine reads (`$vocabularies.<name>`)"),
])
def test_a_reference_to_nothing_to_a_reference_or_outside_the_vocabularies_is_a_problem_left_as_written(
        value, problem):
    taxonomy = {"vocabularies": {"states": {"decision": ["current"]}, "alias": "$vocabularies.states",
                                 "price": "$$5"},
                "kinds": {"decision": {"states": [value]}}}
    problems = expand_references(taxonomy)
    assert f"kinds.decision.states: {problem}" in problems
    assert taxonomy["kinds"]["decision"]["states"] == [value]


def test_a_reference_to_an_escaped_literal_is_allowed():
    taxonomy = {"vocabularies": {"price": "$$5"}, "kinds": {"x": "$vocabularies.price"}}
    assert expand_references(taxonomy) == []
    assert taxonomy == {"vocabularies": {"price": "$5"}, "kinds": {"x": "$$5"}}


def test_two_references_to_one_vocabulary_share_nothing():
    taxonomy = {"vocabularies": {"states": {"decision": ["current"]}},
                "kinds": {"a": "$vocabularies.states", "b": "$vocabularies.states"}}
    assert expand_references(taxonomy) == []
    taxonomy["kinds"]["a"]["decision"].append("changed later")
    assert taxonomy["kinds"]["b"] == {"decision": ["current"]}
