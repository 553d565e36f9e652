"""How `route` reads a task's words that are paths: as the path verbs read a path (an absolute path
under the root is its relative path; one that leaves the root names nothing here), in work bounded
by the anchors and folders the repository holds, never by the square of a word's segments."""

import datetime as dt
import json
import os

import pytest

from headwater.reads.governing import Targets
from headwater.reads.route import ignored as ignored_module
from headwater.snapshot import load
from tests.mcp.mcp_session import Session

TODAY = dt.date(2026, 11, 1)
RETRY = "src/queue/retry.py"


@pytest.fixture
def routing(copy_fixture):
    return copy_fixture("routing")


def _routed(hw, root, task: str) -> dict:
    ran = hw("route", task, "--json", "--root", str(root))
    assert ran.status == 0 and ran.err == "", ran.err
    return json.loads(ran.out)


def _anchored(answer: dict) -> list[str]:
    return [p["path"] for p in answer["pointers"] if p["evidence"]["by"] == "anchor"]


def _governing(root, path: str) -> list[str]:
    result = Session(root).call("governing_docs_for_path", path=path)["result"]
    return [p["path"] for p in result["structuredContent"]["pointers"]]


def test_an_absolute_path_under_the_root_is_the_anchor_its_relative_path_is(quickstart, hw):
    relative = _routed(hw, quickstart, f"refactor {RETRY}")
    absolute = _routed(hw, quickstart, f"refactor {quickstart / RETRY}")
    assert relative["anchors"] == absolute["anchors"] == [RETRY]
    assert _anchored(absolute) == _anchored(relative) == _governing(quickstart, str(quickstart / RETRY))
    assert len(_anchored(absolute)) == 2


@pytest.mark.parametrize("located", [f"{RETRY}:12", f"{RETRY}:12:5", f"{RETRY}#L12", f"{RETRY}#L12-L20"])
def test_a_line_in_a_file_is_the_file_s_anchor_as_governing_docs_for_path_reads_it(quickstart, hw, located):
    """`x.py#L12` (a GitHub link's line) was no anchor at all: the task went unanchored."""
    answer = _routed(hw, quickstart, f"fix the off-by-one at {located}")
    assert answer["anchors"] == [RETRY]
    assert _anchored(answer) == _governing(quickstart, located) == _governing(quickstart, RETRY)


def test_the_mcp_route_reads_an_absolute_path_under_the_root_as_the_cli_does(quickstart):
    answer = Session(quickstart).call("route", task=f"refactor {quickstart / RETRY}")["result"]
    assert answer["structuredContent"]["anchors"] == [RETRY]


@pytest.mark.parametrize("word", ["src/queue/etclink/passwd", "src/queue/../../../etc/passwd"])
def test_a_path_leaving_the_root_is_no_anchor_as_governing_docs_for_path_refuses_it(quickstart, hw, tmp_path,
                                                                                    word):
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "passwd").write_text("root:x:0:0\n")
    os.symlink(tmp_path / "etc", quickstart / "src" / "queue" / "etclink")  # `src/queue/**` reaches it lexically
    answer = _routed(hw, quickstart, f"fix {word}")
    assert answer["anchors"] == [] and _anchored(answer) == []
    served = Session(quickstart).call("route", task=f"fix {word}")["result"]["structuredContent"]
    assert served["anchors"] == []
    refused = Session(quickstart).call("governing_docs_for_path", path=word)["result"]
    assert refused["content"][0]["text"].endswith(" is outside this repository, or is not a path it can read\n")


def test_a_path_through_a_symlink_out_of_the_root_is_not_listed_as_ungoverned(routing, hw, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", routing / "src" / "linked")
    answer = _routed(hw, routing, "tidy src/linked/x.py and src/admin/console.py")
    assert [entry["path"] for entry in answer["ungoverned"]] == ["src/admin/console.py"]


@pytest.mark.parametrize("path", ["", "src", "src/queue", RETRY, "src/queue/a/b/c.py", "src/queue/retry.py/x",
                                  "src/ingest", "src/ingest/rate_limit.py", "src/ingest/rate_limit.py/x",
                                  "src/ingest/api.py", "src/ingestion/x.py", "docs/decisions/x.md", "x"])
def test_what_the_targets_reach_is_what_some_edge_target_reaches(quickstart, path):
    """The bounded lookup answers as the plain definition does: a document target, or an anchor
    one of whose patterns matches."""
    snapshot = load(quickstart, TODAY)
    targets = Targets.of(snapshot.graph)
    plain = path in targets.documents or any(anchor.reaches(path) for anchor in targets.anchors)
    assert targets.reaches(path) is plain


class _Counted(dict):
    """The targets' patterns by literal prefix, counting the openings looked up, and failing at
    once on one deeper than the deepest prefix (which no pattern can have, so work wasted)."""

    def __init__(self, by_prefix: dict) -> None:
        super().__init__(by_prefix)
        self.deepest = max((len(prefix.split("/")) for prefix in by_prefix if prefix), default=0)
        self.looked_up = 0

    def get(self, key, default=None):
        self.looked_up += 1
        assert not key or len(key.split("/", self.deepest)) <= self.deepest, "an opening deeper than any prefix"
        return super().get(key, default)


@pytest.fixture
def counted(monkeypatch) -> list[_Counted]:
    """Every `Targets` built from here on looks its openings up through a `_Counted`."""
    made: list[_Counted] = []
    built = Targets.of

    def of(graph):
        targets = built(graph)
        made.append(_Counted(targets._by_prefix))
        targets.__dict__["_by_prefix"] = made[-1]  # the cached property's slot
        return targets

    monkeypatch.setattr(Targets, "of", staticmethod(of))
    return made


@pytest.mark.parametrize("path", ["a/" * 200_000 + "x.py", "src/" + "a/" * 200_000 + "x.py",
                                  "src/queue/" + "a/" * 200_000 + "x.py"])
def test_a_word_of_200000_segments_looks_up_no_opening_deeper_than_the_deepest_prefix(quickstart, counted, path):
    targets = Targets.of(load(quickstart, TODAY).graph)
    assert targets.reaches(path) is path.startswith("src/queue/")
    assert 0 < counted[0].looked_up <= counted[0].deepest + 1


def test_a_deep_path_that_can_be_looked_up_is_an_anchor_found_in_bounded_lookups(quickstart, hw, counted):
    deep = "src/queue/" + "a/" * 1900 + "x.py"  # under the 4096 bytes a path can hold, with the root
    answer = _routed(hw, quickstart, f"fix {deep}")
    assert answer["anchors"] == [deep] and _anchored(answer) == _governing(quickstart, deep)
    assert 0 < counted[0].looked_up <= 10 * (counted[0].deepest + 1)  # a few readings of two words


def test_a_deep_path_a_task_names_is_judged_against_each_real_folders_gitignore_only(routing, hw, monkeypatch):
    """However many folders a named path claims, only the real ones can hold a `.gitignore`: the
    questions asked grow with the path's segments times the real folders, not their square."""
    asked: list[str] = []
    cached = ignored_module.lru_cache

    def counting(**how):
        def wrap(read):
            remembered = cached(**how)(read)

            def spec(directory):
                asked.append(directory)
                return remembered(directory)
            return spec
        return wrap

    monkeypatch.setattr(ignored_module, "lru_cache", counting)
    (routing / "src" / ".gitignore").write_text("*.tmp\n")
    deep = "src/" + "a/" * 400 + "x.py"
    answer = _routed(hw, routing, f"tidy {deep} and {deep[:-3]}.tmp")
    assert [entry["path"] for entry in answer["ungoverned"]] == [deep]  # `src/.gitignore` still ignores the other
    assert 0 < len(asked) <= 2 * 2 * 402  # two paths, 402 entries each, the root's and `src`'s file
    assert set(asked) == {"", "src"}


def test_a_task_word_of_200000_segments_routes_and_names_nothing(routing, counted):
    """Below the verb's bound on a task (`TASK_MOST`, which refuses this one), the router itself
    reads any length in bounded work."""
    from headwater.reads.route.answer import route_answer
    from headwater.render.reads.answer_json import data

    word = "src/" + "a/" * 200_000 + "x.py"  # far over the 4096 bytes a path can hold
    answer = data(route_answer(load(routing, TODAY), f"tidy {word}"))
    assert answer["anchors"] == [] and answer["ungoverned"] == []
    assert answer["task"] == f"tidy {word}"


def test_each_word_of_a_task_is_read_as_a_path_once_however_many_readers_ask_it(quickstart, monkeypatch):
    from headwater.reads.route import router

    asked: list[str] = []
    looked_up = router.relative_to_root

    def counting(text, root):
        asked.append(text)
        return looked_up(text, root)

    monkeypatch.setattr(router, "relative_to_root", counting)
    answer = router.route(load(quickstart, TODAY), f"fix {RETRY} and docs/decisions/0001-store-attempts-in-postgres.md "
                          f"then {RETRY} again")
    assert RETRY in answer.anchors and answer.named == ("docs/decisions/0001-store-attempts-in-postgres.md",)
    assert sorted(asked) == sorted(set(asked)) and RETRY in asked  # anchors, named documents, ungoverned: one reading
