"""Concurrency: runs that share a repository never corrupt its cache or each other's output."""

import subprocess
import sys

DATE = "2026-11-01"


def check(root, *extra):
    return subprocess.Popen([sys.executable, "-m", "headwater", "check", "--format", "json", "--now", DATE,
                             "--root", str(root), *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_two_checks_sharing_one_cache_print_identical_reports_and_leave_a_readable_cache(copy_fixture):
    root = copy_fixture("check-all")
    expected = subprocess.run([sys.executable, "-m", "headwater", "check", "--format", "json", "--now", DATE,
                               "--no-cache", "--root", str(root)], capture_output=True).stdout
    for _ in range(3):
        racing = [check(root), check(root)]
        outputs = [process.communicate(timeout=120) for process in racing]
        assert [process.returncode for process in racing] == [0, 0]
        assert [out for out, _ in outputs] == [expected, expected]
        assert [err for _, err in outputs] == [b"", b""]
    warm = subprocess.run([sys.executable, "-m", "headwater", "check", "--verbose", "--format", "json", "--now", DATE,
                           "--root", str(root)], capture_output=True)
    assert warm.returncode == 0 and warm.stdout == expected
    # served by the verdict cache, or replayed whole from the memo a run kept (HW-DR-0037)
    assert (b"hits" in warm.stderr and b"0 hits" not in warm.stderr) or b"replayed the last run" in warm.stderr


def test_parallel_fixes_and_checks_leave_the_corpus_consistent(copy_fixture):
    """Two `--fix` runs on one corpus: one lands the batch, the other finds nothing left to fix or
    refuses; the corpus ends fixed, never half-patched."""
    import json

    root = copy_fixture("rules/relation.reciprocity.missing/fail")
    racing = [check(root, "--fix", "--no-cache"), check(root, "--fix", "--no-cache")]
    results = [(process.communicate(timeout=120), process.returncode) for process in racing]
    landed = [err for (_, err), status in results if status == 0 and err.startswith(b"headwater: fixed ")]
    assert landed == [b"headwater: fixed docs/decisions/0001-base.md (1 patch)\n"]  # the write lock serializes
    for (out, err), status in results:
        if status == 0:
            rules = {f["rule"] for f in json.loads(out)["findings"] if f.get("escape", "none") == "none"}
            assert "relation.reciprocity.missing" not in rules and err in (b"", *landed)
        else:
            assert status == 1 and out == b"" and err.startswith(b"headwater: ") and err.count(b"\n") == 1
    after = subprocess.run([sys.executable, "-m", "headwater", "check", "--strict", "--no-cache", "--now", DATE,
                            "--root", str(root)], capture_output=True)
    assert after.returncode == 0 and b"relation.reciprocity.missing" not in after.stdout
