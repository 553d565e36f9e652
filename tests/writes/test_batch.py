"""The one all-or-nothing writer: a failure at any file puts back every file the batch had written."""

import pytest

from headwater.errors import Refusal
from headwater.writes.batch import BatchFailed, FileWrite, write_all


def _tree(root):
    (root / "a.md").write_bytes(b"a before\n")
    (root / "b.md").write_bytes(b"b before\n")
    return [FileWrite("a.md", b"a before\n", b"a after\n"), FileWrite("new.md", None, b"created\n"),
            FileWrite("b.md", b"b before\n", b"b after\n")]


def test_a_refusal_at_the_last_file_puts_back_the_edited_and_removes_the_created(tmp_path):
    batch = _tree(tmp_path)

    def still(item):
        if item.path == "b.md":
            raise Refusal("b.md changed")

    with pytest.raises(BatchFailed) as failed:
        write_all(tmp_path, batch, still)
    assert failed.value.item is batch[2] and failed.value.cause.sentence == "b.md changed"
    assert str(failed.value) == "b.md changed"  # a traceback, should one escape, says what failed
    assert failed.value.unrestored == []
    assert (tmp_path / "a.md").read_bytes() == b"a before\n" and not (tmp_path / "new.md").exists()
    assert (tmp_path / "b.md").read_bytes() == b"b before\n"


def test_a_file_to_create_never_lands_over_one_that_appeared(tmp_path):
    batch = _tree(tmp_path)
    (tmp_path / "new.md").write_bytes(b"someone else's\n")
    with pytest.raises(BatchFailed) as failed:
        write_all(tmp_path, batch, lambda item: None)
    assert failed.value.item is batch[1] and isinstance(failed.value.cause, FileExistsError)
    assert (tmp_path / "new.md").read_bytes() == b"someone else's\n"
    assert (tmp_path / "a.md").read_bytes() == b"a before\n"


def test_a_batch_that_fits_lands_every_file(tmp_path):
    batch = _tree(tmp_path)
    write_all(tmp_path, batch, lambda item: None)
    assert [(tmp_path / item.path).read_bytes() for item in batch] == [b"a after\n", b"created\n", b"b after\n"]
