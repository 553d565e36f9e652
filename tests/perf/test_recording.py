"""The recorder's own bookkeeping, made cheaper for an edited run (HW-DR-0042), stays exact: what a
forked worker notes comes back whole, a listing is observed as the run listed it, and a replay
that meets a changed entry looks no further."""

from __future__ import annotations

import os
import sys
import time

from headwater import observed

SETTLED = 0.06  # past the coarse clock's tick a recording waits out (`observed.SLACK_NS`)


def _in_a_worker(work) -> None:
    pid = os.fork()
    if pid == 0:
        try:
            work()
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def test_a_worker_s_note_of_a_path_holding_a_line_break_comes_back_whole(tmp_path):
    odd = tmp_path / "two\nlines\x1e.md"
    odd.write_text("read by a worker\n", encoding="utf-8")
    time.sleep(SETTLED)
    with observed.Recorder(observed.Scope(())) as recorder:
        _in_a_worker(odd.read_bytes)
    observations = recorder.observations({})
    assert observations is not None
    assert (observed.OPENED, str(odd), observed.state(observed.OPENED, str(odd))) in observations
    assert all(os.path.isabs(path) for _, path, _ in observations)


def test_a_folder_a_worker_lists_is_observed_as_the_worker_listed_it(tmp_path):
    folder = tmp_path / "shelf"
    folder.mkdir()
    (folder / "a.md").write_text("a\n", encoding="utf-8")
    time.sleep(SETTLED)

    def listed() -> None:
        with os.scandir(folder) as entries:
            sys.audit(observed.LISTING, str(folder), list(entries))

    with observed.Recorder(observed.Scope(())) as recorder:
        _in_a_worker(listed)
        (folder / "b.md").write_text("b\n", encoding="utf-8")  # after the listing: not what the run saw
    observations = recorder.observations({})
    assert observations is not None
    assert (observed.LISTED, str(folder), "d:a.md/f") in observations
    assert not observed.unchanged(observations, recorder.began)  # and a replay finds the folder moved


def test_the_claims_of_a_store_are_noted_by_the_digest_of_the_bytes_read(tmp_path):
    from headwater.corpus.claims import CLAIMS, read_claims

    store = tmp_path / CLAIMS / "decision_id"
    store.mkdir(parents=True)
    (store / "D-1").write_text("docs/one.md\n", encoding="utf-8")
    (store / "D-2").write_text("", encoding="utf-8")
    (store / "D-3").symlink_to("D-1")
    time.sleep(SETTLED)
    with observed.Recorder(observed.Scope(())) as recorder:
        claims = read_claims(tmp_path, "decision_id")
    assert claims == [("D-1", "docs/one.md"), ("D-2", None), ("D-3", None)]
    observations = recorder.observations({})
    assert observations is not None
    for name in ("D-1", "D-2"):
        path = str(store / name)
        assert (observed.OPENED, path, observed.state(observed.OPENED, path)) in observations
    assert (observed.LISTED, str(store), "d:D-1/f\0D-2/f\0D-3/l") in observations
    assert observed.unchanged(observations, recorder.began)


def test_a_replay_that_meets_a_changed_entry_that_differs_looks_no_further(tmp_path, monkeypatch):
    files = [tmp_path / f"{n}.md" for n in range(5)]
    for file in files:
        file.write_text("kept\n", encoding="utf-8")
    time.sleep(SETTLED)
    since = time.time_ns()
    observations = tuple((observed.OPENED, str(file), observed.state(observed.OPENED, str(file))) for file in files)
    assert observed.unchanged(observations, since)
    files[1].write_text("edited\n", encoding="utf-8")
    asked: list[str] = []
    changed_since = observed._changed_since
    monkeypatch.setattr(observed, "_changed_since", lambda path, at: asked.append(path) or changed_since(path, at))
    assert not observed.unchanged(observations, since)
    assert asked == [str(files[0]), str(files[1])]


def test_a_note_spilled_by_no_recorder_whole_keeps_nothing(tmp_path):
    (tmp_path / "a.md").write_text("a\n", encoding="utf-8")
    time.sleep(SETTLED)
    with observed.Recorder(observed.Scope(())) as recorder:
        (tmp_path / "a.md").read_bytes()
        _in_a_worker(lambda: os.write(recorder.spill, b"half a note\0\0"))
    assert recorder.observations({}) is None


def test_a_worker_forked_to_stream_spills_its_notes_before_each_piece_it_hands_back(tmp_path):
    """A worker `headwater.forked` made holds its notes back and spills them in one write before it
    hands a piece back (HW-DR-0045): every file a piece was read from is noted, the last too."""
    from headwater import forked

    files = [tmp_path / f"{n}.md" for n in range(3)]
    for file in files:
        file.write_text(f"piece {file.name}\n", encoding="utf-8")
    time.sleep(SETTLED)

    def pieces(after):
        yield from (file.read_bytes() for file in files if after is None)

    with observed.Recorder(observed.Scope(())) as recorder:
        taken = list(forked.streamed(pieces, lambda: None))
    assert taken == [file.read_bytes() for file in files]
    opened = {path for what, path, _ in recorder.observations({}) or () if what == observed.OPENED}
    assert {str(file) for file in files} <= opened


def test_a_worker_that_dies_before_it_hands_back_costs_its_reads_heard_here(tmp_path, monkeypatch):
    """Notes a worker held back are lost with it, but so is its work: the share done again here
    is heard here, so what the run used is noted all the same."""
    from headwater import forked

    read = tmp_path / "share.md"
    read.write_text("a share\n", encoding="utf-8")
    time.sleep(SETTLED)
    parent = os.getpid()

    def share(index: int, workers: int) -> bytes:
        data = read.read_bytes()
        if os.getpid() != parent:
            os._exit(1)  # dies with its notes held back, before handing anything back
        return data

    with observed.Recorder(observed.Scope(())) as recorder:
        mine, theirs = forked.in_shares(share, 2)
        recorder.noted[observed.OPENED].discard(str(read))  # forget the parent's own share's note
        assert theirs == [read.read_bytes()]  # the dead worker's share, done here and heard again
    observations = recorder.observations({})
    assert observations is not None
    assert (observed.OPENED, str(read)) in {(what, path) for what, path, _ in observations}


def test_a_file_announced_with_the_digest_its_reader_took_is_observed_by_that_digest_hashed_once(tmp_path,
                                                                                                 monkeypatch):
    anchored, content = tmp_path / "anchored.py", b"print('governed')\n"
    anchored.write_bytes(content)
    time.sleep(SETTLED)
    hashed = []
    real = observed.hashlib.sha256
    monkeypatch.setattr(observed.hashlib, "sha256", lambda *data: hashed.append(data) or real(*data))
    from headwater.corpus.tree import SourceTree

    with observed.Recorder(observed.Scope(())) as recorder:
        lines = SourceTree(tmp_path, ()).revision_lines("anchored.py")
    assert lines == (f"anchored.py\t{real(content).hexdigest()}\n",)
    assert hashed == [(content,)]  # by the tree alone: the recorder took its digest rather than hash again
    observations = recorder.observations({})
    assert observations is not None
    assert (observed.OPENED, str(anchored), observed.state(observed.OPENED, str(anchored))) in observations


class _Counted:
    """`observed.UNCLEAN`, counting the paths asked of it alone."""

    def __init__(self) -> None:
        self.unclean = observed.UNCLEAN
        self.asked = 0

    def search(self, path: str):
        self.asked += 1
        return self.unclean.search(path)


def test_the_paths_a_recording_keeps_are_told_in_one_scan_when_all_are_plain_and_asked_alone_otherwise(
        tmp_path, monkeypatch):
    ignored = str(tmp_path / "cache")
    scope = observed.Scope((ignored,))
    plain = {str(tmp_path / "docs" / f"{n}.md") for n in range(50)}
    counted = _Counted()
    monkeypatch.setattr(observed, "UNCLEAN", counted)
    assert scope.held(plain) == sorted(plain) and counted.asked == 0
    odd = ["/a/./b", "/a//b", "/a/b/", "/a/..", "/a/.", "/x/__pycache__/m.pyc", ignored, ignored + "/checks",
           ignored + "x/y", "/r/a\n", "/r/a/\n", "", "/.hidden/x", "/a/.b", "/a/..b/c"]
    for one in odd:
        assert scope.held(plain | {one}) == sorted(path for path in plain | {one} if scope.holds(path)), one
    assert counted.asked > 0


def test_a_folder_opened_by_its_name_in_another_folder_is_noted_where_it_is_not_where_the_run_stands(
        tmp_path, monkeypatch):
    from headwater import inplace

    root, elsewhere = tmp_path / "root", tmp_path / "elsewhere"
    (root / "docs" / "adr").mkdir(parents=True)
    (root / "docs" / "adr" / "0001-x.md").write_text("x\n", encoding="utf-8")
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    time.sleep(SETTLED)
    with observed.Recorder(observed.Scope(())) as recorder:
        assert inplace.read(root, "docs/adr/0001-x.md") == b"x\n"
    observations = recorder.observations({})
    assert observations is not None
    paths = {path for _, path, _ in observations}
    assert str(root / "docs" / "adr" / "0001-x.md") in paths
    assert str(root / "docs") in paths and str(root / "docs" / "adr") in paths
    assert not [path for path in paths if path.startswith(str(elsewhere))]
