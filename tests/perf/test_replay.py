"""A check that finds every input its last run observed unchanged replays that run (HW-DR-0037).

Soundness is the whole of it, so these tests try to break it: every file the load opens and every
directory it lists must be among what the run recorded (an input read outside the recording fails
here); every stat-like look in the code the load runs must be announced to the recorder; each
recorded input mutated in turn must give what `--no-cache` gives, never the kept report; and a
memo that is spoiled, foreign, of another program or asked past (`--fix`, `--no-cache`) serves
nothing.
"""

from __future__ import annotations

import functools
import marshal
import os
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

from headwater import cachedir, cachekey, observed
from headwater.check import replay
from headwater.clock import run_date

REPO = Path(__file__).resolve().parents[2]
NOW = "2026-11-01"
SETTLED = 0.06  # past the coarse clock's tick a recording waits out (`observed.SLACK_NS`)
REPLAYED = re.compile(r"^headwater: cache: replayed the last run, \d+ observations unchanged\n$")
KINDS = ["quickstart", "check-all", "rules/harvest.pin.unread/fail", "rules/import.pin.unread/fail",
         "rules/identifier.claim.stale/fail", "rules/identifier.claimed_twice/fail",
         "rules/suppression.refused/fail", "rules/language.outside_root.refused/fail",
         "rules/adoption.task.expired/fail", "rules/control.observation.invalid/fail",
         "rules/link.path.unresolved/fail", "rules/relation.target.verification.suspect/fail",
         "rules/taxonomy.pin.diverged/fail"]


class _Ears:
    """Every `open` to read, `os.listdir` and `os.scandir` the process makes while `on`."""

    def __init__(self) -> None:
        self.on = False
        self.heard: set[str] = set()
        self.ways: set[str] = set()  # the folders above the cache

    def __call__(self, event: str, args: tuple) -> None:
        if not self.on or event not in ("open", "os.listdir", "os.scandir"):
            return
        path = args[0]
        if isinstance(path, int):
            return
        if event == "open" and (args[2] or 0) & observed.WRITING:
            return
        full = os.path.normpath(os.path.join(os.getcwd(), os.fsdecode(path if path is not None else ".")))
        if event == "open" and (args[2] or 0) & os.O_DIRECTORY and full in self.ways:
            return  # a cache write opens each folder on its way to the cache, never through a link
        self.heard.add(full)


@functools.cache
def _ears() -> _Ears:
    ears = _Ears()
    sys.addaudithook(ears)  # one per test process: a hook cannot be removed
    return ears


def _check(hw, root: Path, *more: str):
    return hw("check", "--root", str(root), "--now", NOW, *more)


def _memo(root: Path) -> Path:
    return root / cachedir.CACHE_DIR / replay.MEMO


def _observations(root: Path) -> tuple[observed.Observation, ...]:
    run_key = replay.key(root, run_date(NOW))
    payload = cachedir.read(root, replay.MEMO, replay._header(run_key))
    assert payload is not None, "the run kept no memo"
    return marshal.loads(payload)[1]


def _recorded(hw, root: Path) -> None:
    """A memo the next run replays: a run that moved nothing while it ran keeps one."""
    time.sleep(SETTLED)
    _memo(root).unlink(missing_ok=True)
    assert _check(hw, root).err == ""
    assert REPLAYED.match(_check(hw, root, "--verbose").err)


def _heard_outside(root: Path, heard: set[str], observations) -> list[str]:
    """What the run read under the root or the key's folder that its observations do not name."""
    named = {os.path.normpath(path) for _, path, _ in observations}
    cache = os.path.normpath(root / cachedir.CACHE_DIR)
    keys = os.path.normpath(cachekey.folder())
    missed = []
    for path in sorted(heard):
        inside = path.startswith(str(root) + os.sep) or path == str(root) or path.startswith(keys + os.sep)
        if not inside or path.startswith(cache + os.sep) or path == cache or "__pycache__" in path:
            continue
        if path.startswith(keys + os.sep):  # the key seals the memo: another key, and it reads as foreign
            continue
        if path not in named:
            missed.append(path)
    return missed


@pytest.mark.parametrize("name", KINDS)
def test_every_file_a_run_opens_and_every_folder_it_lists_is_among_its_observations(hw, copy_fixture, name):
    root = copy_fixture(name).resolve()
    assert _check(hw, root).status in (0, 1)
    for cached in (root / cachedir.CACHE_DIR).iterdir():  # a cold run, with the cache folder in place
        if cached.name not in ("lock", ".gitignore"):
            cached.unlink()
    for run in ("cold", "warm"):
        time.sleep(SETTLED)
        _memo(root).unlink(missing_ok=True)
        ears = _ears()
        ears.heard.clear()
        ears.ways = {str(root), str(root / ".headwater")}
        ears.on = True
        try:
            ran = _check(hw, root)
        finally:
            ears.on = False
        assert ran.err == "", (run, ran.err)
        observations = _observations(root)
        assert any(path.endswith(".md") for _, path, _ in observations)
        assert _heard_outside(root, ears.heard, observations) == [], run


PROBES = re.compile(r"\.(exists|is_file|is_dir|is_symlink|lstat|stat)\(|os\.path\.(exists|lexists|isfile|isdir"
                    r"|islink)\(|readlink\(|os\.stat\(|\.glob\(|\.rglob\(|\.iterdir\(")
NOT_LOADED = ("adoption/", "mcp/", "writes/new.py", "writes/vendor.py", "writes/change_capture.py",
              "writes/placement.py", "writes/roundtrip.py", "writes/edges.py", "writes/shape.py", "cli/", "reads/",
              "check/fix.py", "check/change_manifest.py", "atomic.py", "writelock.py", "cachekey.py", "cachedir.py",
              "codeprint.py", "observed.py", "discovery.py", "corpus/derived.py", "corpus/parses.py", "render/",
              "taxonomy/staleness.py", "check/proposals.py", "federation/export.py")
LISTED = {  # a look the recording covers another way, and why
    "corpus/walk.py": "a child's type comes from the directory listing, which is observed with its types",
    "taxonomy/package.py": "a glob lists folders, which the audit hook hears as `os.scandir`",
    "inplace.py": "it asks whether a name is a link only after opening that name failed, and the open is "
                  "observed: a link there is observed as a link",
}


def _unannounced(path: Path) -> list[str]:
    """Lines of `path` that stat, test or read a link with no `sys.audit(PROBE, …)` just before."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    for number, line in enumerate(lines):
        if not PROBES.search(line) or line.lstrip().startswith(("#", '"""')):
            continue
        before = "\n".join(lines[max(0, number - 4):number + 1])
        announced_inside = ("self.exists(", "super().exists(")  # `SourceTree.exists` announces its own look
        if "sys.audit(PROBE, " not in before and not any(a in line for a in announced_inside):
            found.append(f"{number + 1}: {line.strip()}")
    return found


def test_every_look_the_load_takes_without_opening_is_announced_to_the_recorder():
    package = REPO / "headwater"
    missed = {}
    for module in sorted(package.rglob("*.py")):
        relative = module.relative_to(package).as_posix()
        if relative.startswith(NOT_LOADED) or "(" in relative:
            continue
        lines = _unannounced(module)
        if lines and relative not in LISTED:
            missed[relative] = lines
    assert missed == {}


def test_a_module_the_load_runs_cannot_look_at_a_path_unannounced(tmp_path):
    """The grep above can fail: a look with no announcement is found."""
    planted = tmp_path / "planted.py"
    planted.write_text("import os\n\ndef f(p):\n    return os.path.lexists(p)\n", encoding="utf-8")
    assert _unannounced(planted) == ["4: return os.path.lexists(p)"]


def _mutations(root: Path, observations) -> list[tuple[str, Path]]:
    """One change per observed input under the root (less the cache): what to do, and where."""
    done, found = set(), []
    for what, path, state in observations:
        target = Path(path)
        if not target.is_relative_to(root) or (what, path) in done:
            continue
        done.add((what, path))
        if what == observed.LISTED and state.startswith("d:"):
            found.append(("add a file beside", target))
        elif state.startswith("f:") or state == "f":
            found += [("edit a byte of", target), ("delete", target)]
            if state.startswith("f:") and target.suffix == ".md":
                found.append(("replace by a symlink", target))
        elif state == "-":
            found.append(("create", target))
    return found


def _apply(change: str, target: Path) -> None:
    if change == "add a file beside":
        (target / "added-beside.md").write_text("# Added\n", encoding="utf-8")
    elif change == "edit a byte of":
        data = bytearray(target.read_bytes())
        data[len(data) // 2] = (data[len(data) // 2] + 1) % 128 or 65
        target.write_bytes(bytes(data))
    elif change == "delete":
        target.unlink()
    elif change == "replace by a symlink":
        twin = target.with_name(target.name + ".twin")
        shutil.copyfile(target, twin)
        target.unlink()
        target.symlink_to(twin.name)
    elif change == "create":
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("created: true\n", encoding="utf-8")


def _put_back(change: str, target: Path, kept: bytes | None) -> None:
    if change == "add a file beside":
        (target / "added-beside.md").unlink()
    elif change == "create":
        target.unlink()
    else:
        if change == "replace by a symlink":
            target.unlink()
            target.with_name(target.name + ".twin").unlink()
        target.write_bytes(kept)


@pytest.mark.parametrize("name", ["quickstart", "rules/identifier.claim.stale/fail", "rules/harvest.pin.unread/fail",
                                  "rules/language.outside_root.refused/fail"])
def test_each_recorded_input_changed_in_turn_gives_what_an_uncached_run_gives(hw, copy_fixture, name):
    root = copy_fixture(name).resolve()
    _check(hw, root)
    _recorded(hw, root)
    memo = _memo(root).read_bytes()
    mutations = _mutations(root, _observations(root))
    assert len(mutations) > 10
    for change, target in mutations:
        kept = target.read_bytes() if target.is_file() else None
        _apply(change, target)
        warm = _check(hw, root, "--verbose")
        uncached = _check(hw, root, "--no-cache")
        assert not REPLAYED.search(warm.err), (change, target)
        assert (warm.status, warm.out) == (uncached.status, uncached.out), (change, target)
        _put_back(change, target, kept)
        _memo(root).write_bytes(memo)  # the memo of the unchanged tree, for the next change
    assert REPLAYED.match(_check(hw, root, "--verbose").err)  # put back, the tree replays again


def test_a_new_date_a_strict_gate_and_another_key_home_give_what_an_uncached_run_gives(hw, copy_fixture, tmp_path,
                                                                                      monkeypatch):
    root = copy_fixture("rules/facet.freshness.stale/fail").resolve()
    _check(hw, root)
    _recorded(hw, root)
    later = hw("check", "--root", str(root), "--now", "2030-01-01", "--verbose")
    assert not REPLAYED.search(later.err)
    assert later.out == hw("check", "--root", str(root), "--now", "2030-01-01", "--no-cache").out
    _recorded(hw, root)
    strict, uncached = _check(hw, root, "--strict", "--verbose"), _check(hw, root, "--strict", "--no-cache")
    assert REPLAYED.search(strict.err)
    assert (strict.status, strict.out) == (uncached.status, uncached.out)
    monkeypatch.setenv("HEADWATER_KEY_HOME", str(tmp_path / "another-key-home"))
    moved = _check(hw, root, "--verbose")
    assert not REPLAYED.search(moved.err) and moved.out == _check(hw, root, "--no-cache").out


def test_every_format_filter_and_limit_of_a_replayed_run_prints_an_uncached_run_s_bytes(hw, copy_fixture):
    root = copy_fixture("check-all").resolve()
    _check(hw, root)
    _recorded(hw, root)
    for more in (("--format", "json"), ("--format", "sarif"), ("--format", "markdown", "--max-bytes", "2000"),
                 ("--format", "github"), ("--format", "concise"), ("--limit", "3"), ("--rule", "facet"),
                 ("--path", "docs/decisions"), ("--min-severity", "error"), ("--wide",), ("--strict",)):
        replayed, uncached = _check(hw, root, *more, "--verbose"), _check(hw, root, *more, "--no-cache")
        assert REPLAYED.search(replayed.err), more
        assert (replayed.status, replayed.out) == (uncached.status, uncached.out), more
    refused = _check(hw, root, "--rule", "no.such.rule")
    assert refused.status == 1 and refused.out == ""
    assert refused == _check(hw, root, "--rule", "no.such.rule", "--no-cache")


def _planted(root: Path) -> None:
    """A memo sealed with this user's key whose report says something no run of this tree says."""
    from headwater.check.report import Report

    run_key = replay.key(root, run_date(NOW))
    payload = cachedir.read(root, replay.MEMO, replay._header(run_key))
    since, observations, kept = marshal.loads(payload)
    report, shown = replay._Unpickler(__import__("io").BytesIO(kept)).load()
    assert isinstance(report, Report)
    forged = type(report)(**{**report.__dict__, "package": "planted/package"})
    assert replay.keep(root, run_key, observations, since, forged, shown) == []


def test_a_planted_report_is_replayed_only_where_a_replay_may_be_and_never_under_fix_or_no_cache(hw, copy_fixture):
    root = copy_fixture("quickstart").resolve()
    _check(hw, root)
    _recorded(hw, root)
    _planted(root)
    assert "planted/package" in _check(hw, root).out  # the plant works, so the next lines can fail
    assert "planted/package" not in _check(hw, root, "--no-cache").out
    _planted(root)
    assert "planted/package" not in _check(hw, root, "--fix").out
    _planted(root)
    assert "planted/package" not in _check(hw, root, "--fix", "--no-cache").out


@pytest.mark.parametrize("spoil", ["a flipped byte", "truncated", "a symlink", "another program", "sealed garbage",
                                   "another header"])
def test_a_spoiled_or_foreign_memo_serves_nothing(hw, copy_fixture, monkeypatch, spoil):
    root = copy_fixture("quickstart").resolve()
    expected = _check(hw, root, "--no-cache").out
    _check(hw, root)
    _recorded(hw, root)
    _planted(root)
    memo = _memo(root)
    data = memo.read_bytes()
    if spoil == "a flipped byte":
        memo.write_bytes(data[:-10] + bytes([data[-10] ^ 1]) + data[-9:])
    elif spoil == "truncated":
        memo.write_bytes(data[: len(data) // 2])
    elif spoil == "a symlink":
        (root / "elsewhere").write_bytes(data)
        memo.unlink()
        memo.symlink_to(root / "elsewhere")
    elif spoil == "another program":
        monkeypatch.setattr(replay, "program_fingerprint", lambda: "another version of headwater")
    elif spoil == "sealed garbage":
        run_key = replay.key(root, run_date(NOW))
        assert cachedir.write(root, replay.MEMO, replay._header(run_key), marshal.dumps((0, ((1, 2),), b"x"))) is None
    elif spoil == "another header":
        header = data.split(b"\n", 1)[0]
        memo.write_bytes(header.replace(b"replay 1", b"replay 0") + data[len(header):])
    ran = _check(hw, root, "--verbose")
    assert not REPLAYED.search(ran.err)
    assert ran.out == expected and "planted/package" not in ran.out


def test_a_replayed_report_is_made_by_an_unpickler_that_makes_nothing_else():
    import pickle

    planted = pickle.dumps((os.system, ("true",)))
    with pytest.raises(pickle.UnpicklingError):
        replay._Unpickler(__import__("io").BytesIO(planted)).load()


def test_a_run_that_moved_while_it_ran_keeps_no_memo(tmp_path):
    (tmp_path / "a.md").write_text("one\n", encoding="utf-8")
    with observed.Recorder(observed.Scope(())) as recorder:
        (tmp_path / "a.md").read_bytes()
        (tmp_path / "a.md").write_text("two\n", encoding="utf-8")  # after the read, before the run ends
    assert recorder.observations({}) is None


def test_a_run_that_starts_another_program_keeps_no_memo(tmp_path):
    import subprocess

    time.sleep(SETTLED)
    with observed.Recorder(observed.Scope(())) as recorder:
        subprocess.run(["true"], check=True)  # what it reads, no hook of this process hears
    assert recorder.observations({}) is None


def test_a_thread_s_reads_are_recorded(tmp_path):
    import threading

    (tmp_path / "thread.md").write_text("read by a thread\n", encoding="utf-8")
    time.sleep(SETTLED)
    with observed.Recorder(observed.Scope(())) as recorder:
        reader = threading.Thread(target=(tmp_path / "thread.md").read_bytes)
        reader.start()
        reader.join()
    observations = recorder.observations({})
    assert observations is not None
    assert (observed.OPENED, str(tmp_path / "thread.md")) in {(what, path) for what, path, _ in observations}


def test_a_worker_forked_while_recording_has_its_reads_recorded(tmp_path):
    (tmp_path / "child.md").write_text("read by a worker\n", encoding="utf-8")
    time.sleep(SETTLED)
    with observed.Recorder(observed.Scope(())) as recorder:
        pid = os.fork()
        if pid == 0:
            (tmp_path / "child.md").read_bytes()
            os._exit(0)
        os.waitpid(pid, 0)
    observations = recorder.observations({})
    assert observations is not None
    assert (observed.OPENED, str(tmp_path / "child.md")) in {(what, path) for what, path, _ in observations}


def test_a_replay_imports_neither_the_runner_nor_the_rules_nor_the_snapshot(copy_fixture):
    import subprocess

    root = copy_fixture("quickstart").resolve()
    for _ in range(2):
        time.sleep(SETTLED)
        subprocess.run([sys.executable, "-m", "headwater", "check", "--root", str(root), "--now", NOW],
                       capture_output=True, check=False)
    probe = ("import sys\nfrom headwater.cli.main import _main\nstatus, _ = _main(['check', '--root', sys.argv[1], "
             "'--now', sys.argv[2], '--verbose'])\nheavy = [m for m in ('headwater.check.runner', "
             "'headwater.check.registry', 'headwater.snapshot', 'headwater.taxonomy.model', 'ruamel.yaml', "
             "'markdown_it') if m in sys.modules]\nprint(status, heavy, file=sys.stderr)\n")
    ran = subprocess.run([sys.executable, "-c", probe, str(root), NOW], capture_output=True, text=True, check=False)
    assert "replayed the last run" in ran.stderr
    assert ran.stderr.strip().endswith("0 []")


def test_a_repository_kept_in_the_temporary_folder_is_kept_to_replay(hw, copy_fixture, monkeypatch):
    """The recorder's own notes file must not touch the folder the repository sits in: made
    there, it changed that folder's time as the run began, and no run was ever kept."""
    import tempfile

    root = copy_fixture("quickstart")
    monkeypatch.setattr(tempfile, "tempdir", str(root.parent))  # the folder a repository in /tmp sits in
    assert _check(hw, root).status == 0  # the first run makes the cache folder: it keeps nothing
    _recorded(hw, root)


def test_a_run_given_the_root_as_dot_observes_each_document_by_the_digest_it_read(hw, copy_fixture, monkeypatch):
    """Opened as `root/./docs/a.md`, a document is the one the load hashed as `root/docs/a.md`:
    observed by that digest, not read and hashed a second time as the run ends."""
    root = copy_fixture("quickstart").resolve()
    monkeypatch.chdir(root)
    again: list[str] = []
    opened = observed._opened
    monkeypatch.setattr(observed, "_opened", lambda path: again.append(path) or opened(path))
    assert _check(hw, root).status == 0  # makes the cache folder: keeps nothing

    def hashed_again(given: str) -> list[str]:
        time.sleep(SETTLED)
        _memo(root).unlink(missing_ok=True)
        again.clear()
        assert hw("check", "--root", given, "--now", NOW).status == 0
        return sorted(path for path in again if path.endswith(".md"))

    assert len(hashed_again(str(root))) < 3  # a file the census lists but does not parse is read at the end
    assert hashed_again(".") == hashed_again(str(root))
    assert not any("/./" in path for _, path, _ in _observations(root))
    assert REPLAYED.match(hw("check", "--root", ".", "--now", NOW, "--verbose").err)


@pytest.mark.parametrize("target", ["src/queue/later.py", "tools/later.py"])
def test_a_file_created_where_a_link_found_nothing_is_not_replayed_over(hw, copy_fixture, target):
    """A link's target outside the census is looked at, not listed: the look is an observation."""
    root = copy_fixture("quickstart").resolve()
    source = root / "docs/decisions/0003-rate-limit-per-tenant.md"
    source.write_text(source.read_text(encoding="utf-8") + f"\nSee [it](../../{target}).\n", encoding="utf-8")
    assert "link.path.unresolved" in _check(hw, root).out
    _recorded(hw, root)
    (root / target).parent.mkdir(exist_ok=True)
    (root / target).write_text("pass\n", encoding="utf-8")
    warm = _check(hw, root, "--verbose")
    assert not REPLAYED.search(warm.err) and "link.path.unresolved" not in warm.out
