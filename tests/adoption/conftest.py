"""Real repositories, unpacked once per session into fresh git repositories."""

from __future__ import annotations

from pathlib import Path

import pytest
from adoption_harness import unpack


@pytest.fixture(scope="session")
def unpacked(tmp_path_factory):
    """`unpacked(name)`: the archive as a fresh git repository, unpacked once per session."""
    made: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in made:
            made[name] = unpack(name, tmp_path_factory.mktemp(name))
        return made[name]

    return get
