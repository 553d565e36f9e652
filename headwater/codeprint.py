"""What a kept answer's key names of the program that made it: the package's code, the interpreter,
and the distributions installed beside it."""

from __future__ import annotations

import hashlib
import os
import sys
from functools import cache
from pathlib import Path

CODE_ROOT = Path(__file__).resolve().parent  # the `headwater` package: every module it holds


def code_fingerprint() -> str:
    """A digest of every module of the package, by path and bytes: any change to the code that
    built a kept answer (or to what it reads) names another key. Modules in the order of their
    paths' parts, as `sorted(CODE_ROOT.rglob("*.py"))` gives them, found by `os.walk` (every
    replayed run asks: pathlib's walk cost a third more)."""
    root = os.fspath(CODE_ROOT)
    modules = []
    for folder, _, names in os.walk(root):
        inside = os.path.relpath(folder, root)
        parts = () if inside == os.curdir else tuple(inside.split(os.sep))
        modules += [(*parts, name) for name in names if name.endswith(".py")]
    digest = hashlib.sha256()
    for parts in sorted(modules):
        digest.update("/".join(parts).encode("utf-8") + b"\0")
        with open(os.path.join(root, *parts), "rb") as module:
            digest.update(hashlib.sha256(module.read()).digest())
    return digest.hexdigest()


@cache  # what this process runs does not change while it runs: read once, by every key that names it
def program_fingerprint() -> str:
    """The code's fingerprint, the interpreter's version and byte order, and the name and version of
    every distribution on the import path (each one's `.dist-info` folder): a dependency upgraded,
    which may parse or judge otherwise, names another key."""
    installed = sorted(name for folder in sys.path if folder and os.path.isdir(folder)
                       for name in os.listdir(folder) if name.endswith(".dist-info"))
    parts = (code_fingerprint(), sys.version, sys.byteorder, sys.implementation.cache_tag, *installed)
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()
