"""The generated corpus the speed tests share: written once per session, copied per test."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tests.conftest import copy_tree

REPO = Path(__file__).resolve().parents[2]
DOCS = 200


def generator():
    """corpus_fixtures/generate.py is a script, not a package module: load it by path."""
    name = "headwater_corpus_generator"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, REPO / "corpus_fixtures" / "generate.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up while the class is built
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(scope="session")
def generated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("generated") / "corpus"
    generator().generate(DOCS, 7, out)
    return out


@pytest.fixture
def corpus(generated, tmp_path) -> Path:
    target = tmp_path / "corpus"
    return copy_tree(generated, target)


