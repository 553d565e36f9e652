"""The claim store as a run reads it (`headwater.corpus.claims`): a store that is not a folder is
none, and a claim is read whole however long it is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from headwater.corpus.claims import CLAIMS, read_claims


def _store(root: Path) -> Path:
    store = root / CLAIMS / "decision_id"
    store.mkdir(parents=True)
    (store / "D-1").write_text("docs/one.md\n", encoding="utf-8")
    return store


@pytest.mark.parametrize("planted", ["a link to a store", "a file"])
def test_a_link_or_a_file_where_a_scheme_s_store_belongs_holds_no_claims(tmp_path, planted):
    elsewhere = _store(tmp_path / "elsewhere")
    place = tmp_path / CLAIMS / "decision_id"
    place.parent.mkdir(parents=True)
    if planted == "a file":
        place.write_text("D-1\n", encoding="utf-8")
    else:
        os.symlink(elsewhere, place)
    assert read_claims(tmp_path, "decision_id") == []
    assert read_claims(tmp_path / "elsewhere", "decision_id") == [("D-1", "docs/one.md")]


def test_a_claim_longer_than_one_read_is_read_whole(tmp_path):
    store = _store(tmp_path)
    path = "docs/" + "a" * (3 * (1 << 16)) + ".md"  # past one read, and its rest past one more
    (store / "D-2").write_text(f"{path}\nsecond line\n", encoding="utf-8")
    (store / "D-3").write_bytes(b"b" * (1 << 16))  # exactly one read's worth: the next read finds the end
    assert read_claims(tmp_path, "decision_id") == [("D-1", "docs/one.md"), ("D-2", path), ("D-3", "b" * (1 << 16))]
