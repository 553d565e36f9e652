"""A progress line on stderr for a run that outlasts a second, so a long check is not silence.

Only a person at a terminal sees it: stderr must be a terminal, the format one a person reads,
and `--quiet` absent. It draws on one line and erases itself before the report is written.
`HEADWATER_PROGRESS_DELAY` sets the wait in seconds (tests set 0).
"""

from __future__ import annotations

import os
import threading
import time
from types import TracebackType

DELAY = 1.0
TICK = 0.25


def delay() -> float:
    try:
        return max(0.0, float(os.environ.get("HEADWATER_PROGRESS_DELAY", DELAY)))
    except ValueError:
        return DELAY


class Progress:
    """`with Progress(stderr, shown, "reading the corpus") as progress: … progress.phase("checking")`."""

    def __init__(self, stream, shown: bool, text: str) -> None:
        self.stream = stream
        self.shown = shown
        self.dumb = os.environ.get("TERM") == "dumb"  # no escape codes: pad with spaces instead
        self.text = text
        self.width = 0
        self.started = time.monotonic()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._draw_until_done, daemon=True)

    def __enter__(self) -> Progress:
        if self.shown:
            self.thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.done.set()
        if self.thread.is_alive():
            self.thread.join()

    def phase(self, text: str) -> None:
        self.text = text

    def _draw_until_done(self) -> None:
        if self.done.wait(delay()):
            return
        while not self.done.is_set():
            self._write(f"headwater: {self.text} ({time.monotonic() - self.started:.0f} s)")
            self.done.wait(TICK)
        self._write("")

    def _write(self, line: str) -> None:
        erase = "\r" + " " * self.width + "\r" if self.dumb else "\r\x1b[K"
        self.width = len(line)
        try:
            self.stream.write(erase + line)
            self.stream.flush()
        except (OSError, ValueError):
            self.done.set()  # stderr went away: stop drawing, the run goes on
