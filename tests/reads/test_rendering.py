"""One rendering convention for reads: a read computes a frozen answer, render/reads/ renders it."""

from __future__ import annotations

import ast
import dataclasses
import datetime as dt
from pathlib import Path

import pytest

from headwater.mcp.tools import registered
from headwater.reads.explain import Explanation, explain
from headwater.reads.governing import Governing, governing_docs_for_path
from headwater.reads.identifiers import Resolution, resolve_identifier
from headwater.reads.impact import Impact
from headwater.reads.kinds import Kinds, kinds
from headwater.reads.related import Related, related
from headwater.reads.route.answer import RouteAnswer, route_answer
from headwater.render.reads import UNFOLDED, render
from headwater.render.reads.answer_json import data, json
from headwater.render.reads.answer_text import text
from headwater.snapshot import load

READS = Path(__file__).resolve().parents[2] / "headwater" / "reads"
ANSWERS = (Explanation, Governing, Resolution, Impact, Kinds, Related, RouteAnswer)


@pytest.mark.parametrize("answer", ANSWERS, ids=lambda a: a.__name__)
def test_every_read_answer_is_a_frozen_dataclass_with_a_text_and_a_json_renderer(answer):
    assert dataclasses.is_dataclass(answer) and answer.__dataclass_params__.frozen
    assert answer in text.registry and answer in data.registry


def test_no_read_module_imports_a_renderer_or_defines_one():
    for module in sorted(READS.rglob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        assert not {name for name in imported if name.startswith(("headwater.render", "headwater.jsonout"))}, module
        defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert not {name for name in defined if name.startswith("render")}, module


def test_each_mcp_read_tool_sends_the_bytes_the_one_renderer_gives(quickstart):
    snapshot = load(quickstart, dt.date(2026, 11, 1))
    tools = {tool.name: tool for tool in registered(False)}
    task = "change src/ingest/rate_limit.py"
    cases = (("route", {"task": task}, route_answer(snapshot, task, read_tree=False), UNFOLDED),
             ("explain", {"target": "ACME-DR-0002"}, explain(snapshot, "ACME-DR-0002"), UNFOLDED),
             ("related", {"target": "ACME-DR-0002"}, related(snapshot, "ACME-DR-0002"), None),
             ("resolve_identifier", {"id": "ACME-DR-0003"}, resolve_identifier(snapshot, "ACME-DR-0003"), None),
             ("governing_docs_for_path", {"path": "src/ingest"}, governing_docs_for_path(snapshot, "src/ingest"), None))
    for name, arguments, answer, layout in cases:
        sent = tools[name].run(snapshot, arguments)
        assert sent.blocks == ((render("text", answer, layout) if layout else render("text", answer)),), name
    listing = kinds(snapshot.lock)
    sent = tools["kinds"].run(snapshot, {"format": "json"})
    assert sent.blocks == (json(listing),) and sent.structured == data(listing)


def test_route_folds_at_the_layout_width_and_mcp_reads_it_unfolded(quickstart):
    answer = route_answer(load(quickstart, dt.date(2026, 11, 1)), "change src/ingest/rate_limit.py")
    folded, unfolded = render("text", answer), render("text", answer, UNFOLDED)
    assert max(len(line) for line in folded.splitlines()) <= 80 < max(len(line) for line in unfolded.splitlines())
    assert folded.split() == unfolded.split()
