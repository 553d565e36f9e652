"""`new` runs started at the same time in separate processes: real processes are the point here."""

from __future__ import annotations

import re
import subprocess
import sys

NOW = "2026-11-01"


def _start(root, *args):
    return subprocess.Popen([sys.executable, "-m", "headwater", "new", *args, "--root", str(root), "--now", NOW],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(processes):
    return [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in processes]


def test_parallel_runs_never_mint_one_identifier(quickstart):
    titles = [f"Parallel choice {n}" for n in range(4)]
    results = _finish([_start(quickstart, "decision", "--title", t, "--summary", "One of four.") for t in titles])
    assert [status for status, _, _ in results] == [0, 0, 0, 0], results
    written = [re.match(r"wrote (\S+)", out).group(1) for _, out, _ in results]
    ids = [re.search(r"^id: (\S+)$", (quickstart / p).read_text(), re.M).group(1) for p in written]
    assert sorted(ids) == ["ACME-DR-0004", "ACME-DR-0005", "ACME-DR-0006", "ACME-DR-0007"]
    for path, identifier in zip(written, ids, strict=True):
        assert (quickstart / ".headwater/ids/decision_id" / identifier).read_text() == path + "\n"
    assert len((quickstart / ".headwater/capture-cost.jsonl").read_text().splitlines()) == 4


def test_parallel_runs_for_one_path_never_overwrite_each_other(quickstart):
    results = _finish([_start(quickstart, "specification", "--title", "Dead letters") for _ in range(2)])
    statuses = sorted(status for status, _, _ in results)
    assert statuses == [0, 1], results
    winner = next(out for status, out, _ in results if status == 0)
    loser = next(err for status, _, err in results if status == 1)
    assert winner.startswith("wrote docs/specifications/dead-letters.md\n")
    assert "never writes over a file" in loser and loser.count("\n") == 1
    claimed = re.search(r"identifier (\S+) under", winner).group(1)
    assert f"id: {claimed}\n" in (quickstart / "docs/specifications/dead-letters.md").read_text()
    assert len((quickstart / ".headwater/capture-cost.jsonl").read_text().splitlines()) == 1


def test_eight_parallel_runs_editing_one_far_half_lose_no_reported_write(quickstart):
    """Every run that reports its far half went into the target finds it there at the end: the
    check of the target's bytes and the write are one step under the write lock."""
    target = "docs/decisions/0003-rate-limit-per-tenant.md"
    results = []
    for round_ in range(3):
        titles = [f"Supersede retries {round_} {n}" for n in range(8)]
        results += _finish([_start(quickstart, "decision", "--title", t, "--relates", "supersedes=ACME-DR-0003")
                            for t in titles])
    reported = []
    for status, out, err in results:
        if status == 0:
            assert f"the far half `superseded_by` went into {target}" in out
            reported.append(re.search(r"identifier (\S+) under", out).group(1))
        else:
            assert err.startswith("headwater: ") and err.count("\n") == 1 and "Traceback" not in err, err
    assert reported, results
    text = (quickstart / target).read_text()
    assert all(f"- {identifier}\n" in text or f" {identifier}" in text for identifier in reported), (reported, text)


def test_parallel_runs_with_one_title_all_land_as_sequential_runs_would(quickstart):
    results = _finish([_start(quickstart, "decision", "--title", "Same title", "--summary", f"Run {n}.")
                       for n in range(4)])
    assert [status for status, _, _ in results] == [0, 0, 0, 0], results
    written = sorted(re.match(r"wrote (\S+)", out).group(1) for _, out, _ in results)
    assert written == [f"docs/decisions/000{n}-same-title.md" for n in range(4, 8)]
