"""The kept values route reads: each decoded when it is read, a malformed one as None in its place."""

from headwater.corpus.derived import values


def test_each_value_decodes_as_it_is_read_and_a_malformed_one_reads_as_none_without_shifting_the_rest():
    stored = {"a": b'["T",{"x":1},{},{},{}]', "b": b'["T",{"x":', "c": b'"\xff"', "d": b"[1]"}
    decoded = values(stored, ["a", "b", "missing", "c", "d"])
    assert len(decoded) == 5
    assert list(decoded) == [["T", {"x": 1}, {}, {}, {}], None, None, None, [1]]
    assert decoded[0] is not decoded[0]  # decoded afresh on each read: nothing is held
    assert list(decoded[3:]) == [None, [1]]
