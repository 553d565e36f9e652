"""Running `headwater` as a team runs it: a process started in the repository (or below it)."""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

import pytest

CORPORA = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora"
NOW = "2026-11-30"


@dataclass(frozen=True)
class Ran:
    status: int
    out: str
    err: str

    @property
    def json(self) -> dict:
        return json.loads(self.out)


def headwater(where: Path, *args: str, stdin: bytes | None = None) -> Ran:
    done = subprocess.run([sys.executable, "-m", "headwater", *args], cwd=where, input=stdin,
                          capture_output=True, timeout=600)
    return Ran(done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8"))


def unpack(name: str, into: Path) -> Path:
    archive = CORPORA / f"{name}.tar.gz"
    if not archive.is_file():
        pytest.skip(f"{archive} is absent, so there is no real corpus to adopt")
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    [top] = [p for p in into.iterdir() if p.is_dir()]
    subprocess.run(["git", "init", "-q", str(top)], check=True)
    return top
