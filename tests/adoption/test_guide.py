"""The taxonomy and overlay guide, run as written: its overlay validates and resolves, and its
worked adoptions of a MADR and an adr-tools repository and of a documentation site succeed command
by command."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest
from adoption_harness import headwater, unpack

GUIDE = Path(__file__).resolve().parents[2] / "docs/guides/fit-the-taxonomy-to-your-repository-with-an-overlay.md"
FENCE = re.compile(r"```(sh|yaml)\n(.*?)```", re.S)


def steps() -> dict[str, list[tuple[str, str]]]:
    """Step heading → its fenced blocks, (language, text), in order."""
    text = GUIDE.read_text(encoding="utf-8")
    parts = re.split(r"^### ", text, flags=re.M)[1:]
    return {part.split("\n", 1)[0]: FENCE.findall(part) for part in parts}


def step(number: int) -> list[tuple[str, str]]:
    return next(blocks for title, blocks in steps().items() if title.startswith(f"{number}."))


def run_block(where: Path, block: str) -> None:
    for line in block.strip().split("\n"):
        ran = headwater(where, *shlex.split(line)[1:])
        assert ran.status == 0, (line, ran.out, ran.err)


def test_the_guide_names_every_overlay_operation_and_a_value_with_spaces():
    [(_, overlay)] = [b for b in step(2) if b[0] == "yaml"]
    for operation in ("add", "override", "remove", "add_to", "remove_from"):
        assert re.search(rf"^{operation}:$", overlay, re.M), operation
    assert '"on hold"' in overlay and '"Context and Problem Statement"' in overlay


@pytest.mark.parametrize("number", [2, 7])
def test_the_guides_overlays_validate_and_resolve_as_written(tmp_path, number):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert headwater(tmp_path, "init").status == 0
    [(_, overlay)] = [b for b in step(number) if b[0] == "yaml"]
    (tmp_path / ".headwater/overlay.yml").write_text(overlay, encoding="utf-8")
    [(_, commands)] = [b for b in step(2) if b[0] == "sh"]
    run_block(tmp_path, commands)
    assert "lifecycle_state" in (tmp_path / ".headwater/taxonomy.lock").read_text()


@pytest.mark.parametrize(("number", "corpus"), [(3, "madr"), (4, "adr-tools"), (6, "dapr-docs")])
def test_a_worked_adoption_runs_as_written(tmp_path, number, corpus):
    root = unpack(corpus, tmp_path)
    [(_, dry)] = step(1)
    run_block(root, dry)
    assert not (root / ".headwater").exists()
    [(_, commands)] = step(number)
    run_block(root, commands)


def test_the_sidecar_adoption_in_the_guide_is_the_one_the_kep_replay_runs():
    [(_, commands)] = step(5)
    replay = (Path(__file__).parent / "test_sidecar_replay.py").read_text(encoding="utf-8")
    for line in commands.strip().split("\n"):
        words = shlex.split(line)[1:]
        assert ", ".join(f'"{w}"' for w in words) in replay, line
