"""What only a terminal sees: the progress line and colour, and the switches that govern them."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "corpus_fixtures"
ANSI = "\x1b["


def run_on_pty(args: list[str], env: dict[str, str], stream: str) -> tuple[str, str]:
    """Run headwater with `stream` ("stdout" or "stderr") on a pseudo-terminal, the other piped;
    returns (what the terminal got, what the pipe got)."""
    leader, follower = pty.openpty()
    other = subprocess.PIPE
    streams = {"stdout": follower, "stderr": other} if stream == "stdout" else {"stdout": other, "stderr": follower}
    process = subprocess.Popen([sys.executable, "-m", "headwater", *args], env={**os.environ, **env},
                               stdin=subprocess.DEVNULL, **streams)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the follower closed: the process is done with the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    piped = (process.stderr if stream == "stdout" else process.stdout).read()
    process.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace"), piped.decode("utf-8", "replace")


CHECK = ["check", "--root", str(FIXTURES / "check-all"), "--no-cache", "--now", "2026-11-01"]


def test_a_run_past_the_delay_draws_progress_on_a_terminal_and_erases_it(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    terminal, report = run_on_pty(CHECK, {"HEADWATER_PROGRESS_DELAY": "0"}, "stderr")
    assert "headwater: " in terminal and ("reading the corpus" in terminal or "checking" in terminal)
    assert terminal.endswith("\r\x1b[K")  # the line is erased before the report is read
    assert report.startswith("taxonomy ") and "headwater: " not in report


def test_a_piped_stderr_never_gets_progress():
    ran = subprocess.run([sys.executable, "-m", "headwater", *CHECK], capture_output=True, text=True,
                         env={**os.environ, "HEADWATER_PROGRESS_DELAY": "0"})
    assert ran.returncode == 0 and ran.stderr == ""


@pytest.mark.parametrize("flags", [["--format", "json"], ["--format", "github"], ["--quiet"]])
def test_a_machine_format_or_quiet_gets_no_progress_even_on_a_terminal(flags):
    terminal, report = run_on_pty(CHECK + flags, {"HEADWATER_PROGRESS_DELAY": "0"}, "stderr")
    assert terminal == "" and report


def test_a_dumb_terminal_gets_progress_without_escape_codes():
    terminal, _ = run_on_pty(CHECK, {"HEADWATER_PROGRESS_DELAY": "0", "TERM": "dumb"}, "stderr")
    assert "headwater: " in terminal and ANSI not in terminal


def test_a_terminal_stdout_is_coloured_unless_term_is_dumb(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    coloured, _ = run_on_pty(CHECK, {"TERM": "xterm-256color"}, "stdout")
    plain, _ = run_on_pty(CHECK, {"TERM": "dumb"}, "stdout")
    assert ANSI in coloured and ANSI not in plain


def test_force_color_colours_a_pipe_and_no_color_or_the_flag_still_wins(hw, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert ANSI in hw(*CHECK).out
    assert ANSI not in hw(*CHECK, "--no-color").out
    assert ANSI not in hw(*CHECK, "--format", "json").out
    monkeypatch.setenv("NO_COLOR", "1")
    assert ANSI not in hw(*CHECK).out


def test_taxonomy_help_exits_0_with_the_group_screen(hw):
    for flag in ("-h", "--help"):
        ran = hw("taxonomy", flag)
        assert ran.status == 0 and ran.out == hw("help", "taxonomy").out and "Second words:" in ran.out
