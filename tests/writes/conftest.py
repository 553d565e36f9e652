"""What the write tests share: every byte of a repository, to prove a refusal wrote nothing."""

from __future__ import annotations

from pathlib import Path

import pytest


def _tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file but the disposable cache folder (which holds the write lock)."""
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()
            and not p.relative_to(root).as_posix().startswith(".headwater/cache/")}


@pytest.fixture
def tree_bytes():
    return _tree_bytes
