"""Turn-taking between purposes and kinds, and reading precedence."""

from headwater.reads.route_turns import by_precedence, in_turns


def test_the_worked_example_takes_turns_o1_s1_r1_i1_o2_o3():
    # obligation (7): obligation_record o1 o2 o3, obligation_register r1;
    # behavior (3): design_spec s1, interface_contract i1. The list is in the total order.
    kinds = {"o1": "obligation_record", "o2": "obligation_record", "o3": "obligation_record",
             "r1": "obligation_register", "s1": "design_spec", "i1": "interface_contract"}
    purposes = {"o1": "obligation", "o2": "obligation", "o3": "obligation", "r1": "obligation",
                "s1": "behavior", "i1": "behavior"}
    ranked = ["o1", "o2", "o3", "r1", "s1", "i1"]
    turned = in_turns(ranked, ["obligation", "behavior"], purposes.__getitem__, kinds.__getitem__)
    assert turned == ["o1", "s1", "r1", "i1", "o2", "o3"]


def test_a_governing_document_moves_ahead_of_the_one_it_governs():
    governs = {("new", "old")}
    assert by_precedence(["old", "x", "new"], lambda a, b: (a, b) in governs) == ["new", "old", "x"]


def test_a_cycle_of_governance_cannot_spin_and_keeps_every_item():
    governs = {("a", "b"), ("b", "a")}
    assert sorted(by_precedence(["a", "b"], lambda a, b: (a, b) in governs)) == ["a", "b"]
