"""Inputs no file system or encoder can carry are refusals (or refused answers), never `internal defect`."""

from __future__ import annotations

from pathlib import Path

import pytest

LONG = "a" * 300  # one component over the 255 bytes a file name can hold


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("target", [f"docs/{LONG}", f"{LONG}/x.md", f"docs/decisions/{LONG}.md"])
def test_explain_refuses_a_path_component_no_file_system_holds(hw, quickstart, target):
    ran = hw("explain", target, "--root", str(quickstart))
    assert ran.status == 1 and ran.out == ""
    assert ran.err == f"headwater: {target} is outside this repository, or is not a path it can read\n"


@pytest.mark.parametrize(("tool", "argument"), [("explain", "target"), ("related", "target"),
                                                ("governing_docs_for_path", "path")])
def test_mcp_tools_answer_a_long_component_without_echoing_the_root(session, quickstart, tool, argument):
    response = session.call(tool, **{argument: f"src/{LONG}"})
    assert "result" in response, response
    text = "".join(block["text"] for block in response["result"]["content"])
    assert text == f"src/{LONG} is outside this repository, or is not a path it can read\n"
    assert str(quickstart) not in str(response)


@pytest.mark.parametrize("flag", ["--title", "--summary"])
def test_new_refuses_an_argument_that_is_not_utf8_and_writes_nothing(hw, quickstart, flag):
    before = tree_bytes(quickstart)
    values = {"--title": "A title", "--summary": "A summary."} | {flag: "T\udcff"}  # what argv makes of b"T\xff"
    ran = hw("new", "decision", "--title", values["--title"], "--summary", values["--summary"],
             "--root", str(quickstart), "--now", "2026-11-01")
    assert ran.status == 1 and ran.out == ""
    assert ran.err == f"headwater: `{flag}` holds bytes that are not UTF-8 text, so `new` writes nothing\n"
    assert tree_bytes(quickstart) == before


def test_new_refuses_a_title_too_long_for_a_file_name_before_claiming_a_number(hw, quickstart):
    before = tree_bytes(quickstart)
    ran = hw("new", "decision", "--title", "word " * 80, "--root", str(quickstart), "--now", "2026-11-01")
    assert ran.status == 1 and ran.out == "" and "makes a file name longer than a file system holds" in ran.err
    assert tree_bytes(quickstart) == before
