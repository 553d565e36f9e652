"""Inputs no file system or encoder can carry are refusals (or refused answers), never `internal defect`."""

from __future__ import annotations

from pathlib import Path

import pytest

LONG = "a" * 300  # one component over the 255 bytes a file name can hold
TOO_LONG = "a/" * 2100 + "x.md"  # every component short, the whole over the 4096 bytes a path can hold
OUTSIDE = "is outside this repository, or is not a path it can read"


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


def quoted_start(path: str) -> str:
    """How a refusal quotes a path too long to repeat: its first 509 characters and an ellipsis."""
    return path[:509] + "\u2026"


@pytest.mark.parametrize(("tool", "argument"), [("explain", "target"), ("related", "target"),
                                                ("governing_docs_for_path", "path")])
def test_mcp_tools_refuse_a_path_too_long_to_look_up_quoting_its_start(session, quickstart, tool, argument):
    response = session.call(tool, **{argument: TOO_LONG})
    assert "result" in response, response  # never -32603, the internal defect
    assert response["result"]["isError"] is False
    assert response["result"]["content"][0]["text"] == f"{quoted_start(TOO_LONG)} {OUTSIDE}\n"
    assert str(quickstart) not in str(response)
    if tool == "governing_docs_for_path":
        assert response["result"]["structuredContent"] == {"pointers": []}


@pytest.mark.parametrize("verb", ["explain", "show", "related"])
def test_the_path_verbs_refuse_a_path_too_long_to_look_up_with_the_mcp_sentence(hw, quickstart, verb):
    ran = hw(verb, TOO_LONG, "--root", str(quickstart))
    assert ran.status == 1 and ran.out == ""
    assert ran.err == f"headwater: {quoted_start(TOO_LONG)} {OUTSIDE}\n"


def test_check_quotes_a_path_filter_too_long_to_look_up_by_its_start(hw, quickstart):
    ran = hw("check", "--path", TOO_LONG, "--root", str(quickstart))
    assert ran.status == 1 and ran.out == ""
    assert ran.err == (f"headwater: `--path` names `{quoted_start(TOO_LONG)}`, which is no file or folder of the "
                       "repository, so it would select nothing\n")


def test_a_path_through_a_loop_of_links_is_refused_by_every_path_verb_and_tool(hw, quickstart, session):
    (quickstart / "docs" / "loop").symlink_to("loop")  # the system gives up looking it up (ELOOP)
    sentence = f"docs/loop/x.md {OUTSIDE}\n"
    for verb in ("explain", "show", "related"):
        ran = hw(verb, "docs/loop/x.md", "--root", str(quickstart))
        assert (ran.status, ran.out, ran.err) == (1, "", f"headwater: {sentence}"), verb
    assert session.text("explain", target="docs/loop/x.md") == sentence
    result = session.call("governing_docs_for_path", path="docs/loop/x.md")["result"]
    assert result["content"][0]["text"] == sentence and result["structuredContent"] == {"pointers": []}


@pytest.mark.parametrize("flag", ["--title", "--summary"])
def test_new_refuses_an_argument_that_is_not_utf8_and_writes_nothing(hw, quickstart, flag):
    before = tree_bytes(quickstart)
    values = {"--title": "A title", "--summary": "A summary."} | {flag: "T\udcff"}  # what argv makes of b"T\xff"
    ran = hw("new", "decision", "--title", values["--title"], "--summary", values["--summary"],
             "--root", str(quickstart), "--now", "2026-11-01")
    assert ran.status == 1 and ran.out == ""
    assert ran.err == f"headwater: the value of `{flag}` (`T\\xff`) is not valid UTF-8; give it in UTF-8\n"
    assert tree_bytes(quickstart) == before


def test_new_refuses_a_title_too_long_for_a_file_name_before_claiming_a_number(hw, quickstart):
    before = tree_bytes(quickstart)
    ran = hw("new", "decision", "--title", "word " * 80, "--root", str(quickstart), "--now", "2026-11-01")
    assert ran.status == 1 and ran.out == "" and "makes a file name longer than a file system holds" in ran.err
    assert tree_bytes(quickstart) == before
