"""Reading precedence: a governing document ahead of the one it governs."""

from headwater.reads.route.turns import by_precedence


def test_a_governing_document_moves_ahead_of_the_one_it_governs():
    governs = {("new", "old")}
    assert by_precedence(["old", "x", "new"], lambda a, b: (a, b) in governs) == ["new", "old", "x"]


def test_a_cycle_of_governance_cannot_spin_and_keeps_every_item():
    governs = {("a", "b"), ("b", "a")}
    assert sorted(by_precedence(["a", "b"], lambda a, b: (a, b) in governs)) == ["a", "b"]
