"""Pattern matching is linear in the pattern times the path: no input can make it backtrack.

A backtracking regex took minutes on `src/queue/**************z` or `src/ingest/a*a*…*b` against a
40-character name; one such `governs:` line took down `check`, `route` and MCP start-up. The
guard against a hang is a subprocess with a generous limit; the assertions are about answers.
"""

from __future__ import annotations

import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from headwater.patterns import compile_pattern

HOSTILE = [
    ("src/queue/" + "*" * 14 + "z", "src/queue/" + "a" * 40, False),
    ("src/queue/" + "*" * 14 + "z", "src/queue/" + "a" * 40 + "z", True),
    ("src/ingest/" + "a*" * 14 + "b", "src/ingest/" + "a" * 40, False),
    ("src/ingest/" + "a*" * 14 + "b", "src/ingest/" + "a" * 40 + "b", True),
    ("*" * 40 + "b", "a" * 40, False),
    ("*" * 40 + "a", "a" * 40, True),
    ("/".join(["**"] * 40) + "/z", "/".join(["a"] * 40), False),
]
PROGRAM = (
    "import json, sys\nfrom headwater.patterns import compile_pattern\n"
    "print(json.dumps([compile_pattern(p).matches(t) for p, t in json.loads(sys.argv[1])]))"
)


def test_hostile_patterns_answer_correctly_without_backtracking():
    import json

    cases = json.dumps([[pattern, path] for pattern, path, _ in HOSTILE])
    ran = subprocess.run([sys.executable, "-c", PROGRAM, cases], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout) == [expected for _, _, expected in HOSTILE]


def test_a_hostile_governs_line_does_not_hang_check_or_route(quickstart):
    doc = quickstart / "docs/decisions/0003-rate-limit-per-tenant.md"
    doc.write_text(doc.read_text().replace("governs: src/ingest/rate_limit.py",
                                           "governs: src/ingest/" + "a*" * 14 + "b"))
    (quickstart / "src/ingest" / ("a" * 40)).write_text("x\n")
    for verb in (["check", "--no-cache", "--now", "2026-11-01"], ["route", "rate limits per tenant"]):
        ran = subprocess.run([sys.executable, "-m", "headwater", *verb, "--root", str(quickstart)],
                             capture_output=True, text=True, timeout=120)
        assert ran.returncode == 0 and ran.stdout, ran.stderr


def reference(text: str) -> re.Pattern[str]:
    """The language as a regex (fine on short inputs): the semantics the matcher must keep."""
    def segment(s: str) -> str:
        return "".join("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c) for c in s)
    return re.compile("".join("(?:/[^/]+)*" if s == "**" else "/" + segment(s) for s in text.split("/") if s))


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="ab*?/", max_size=9), st.text(alphabet="ab/", max_size=9))
def test_the_matcher_agrees_with_the_language_on_every_short_input(pattern, path):
    assert compile_pattern(pattern).matches(path) is (reference(pattern).fullmatch("/" + path) is not None)
