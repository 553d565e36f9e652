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
        assert [out for out, _ in outputs] == [expected, expected]
        assert all(b"Traceback" not in err for _, err in outputs)
    warm = subprocess.run([sys.executable, "-m", "headwater", "check", "--verbose", "--format", "json", "--now", DATE,
                           "--root", str(root)], capture_output=True)
    assert warm.stdout == expected
    assert b"hits" in warm.stderr and b"0 hits" not in warm.stderr


def test_parallel_fixes_and_checks_leave_the_corpus_consistent(copy_fixture):
    """Two `--fix` runs on one corpus: one lands the batch, the other lands it or refuses; the
    corpus ends fixed, never half-patched."""
    root = copy_fixture("rules/relation.reciprocity.missing/fail")
    racing = [check(root, "--fix", "--no-cache"), check(root, "--fix", "--no-cache")]
    results = [process.communicate(timeout=120) for process in racing]
    assert all(b"Traceback" not in err for _, err in results)
    after = subprocess.run([sys.executable, "-m", "headwater", "check", "--strict", "--no-cache", "--now", DATE,
                            "--root", str(root)], capture_output=True)
    assert b"relation.reciprocity.missing" not in after.stdout
