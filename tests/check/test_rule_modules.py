"""Where a rule lives: its id names its module, helpers are public where they live, and no two
modules of the package share a name."""

from __future__ import annotations

import ast
import keyword
from collections import Counter
from dataclasses import replace
from pathlib import Path

from headwater.check.registry import REPORT_ORDER, RULES, declared, in_report_order

PACKAGE = Path(__file__).resolve().parents[2] / "headwater"
RULES_FOLDER = PACKAGE / "check" / "rules"


def module_for(rule_id: str) -> str:
    prefix = rule_id.split(".")[0]
    return prefix + "_" if keyword.iskeyword(prefix) else prefix


def test_every_rule_lives_in_the_module_named_for_its_id_prefix():
    misplaced = [(r.id, r.check.__module__) for r in RULES
                 if r.check.__module__ != f"headwater.check.rules.{module_for(r.id)}"]
    assert misplaced == []


def test_the_registry_carries_every_rule_a_module_declares_and_only_those():
    assert sorted(r.id for r in declared()) == sorted(r.id for r in RULES)
    assert len({r.id for r in RULES}) == len(RULES)


def test_the_report_order_names_only_rules_the_registry_carries_each_once():
    assert len(set(REPORT_ORDER)) == len(REPORT_ORDER)
    assert set(REPORT_ORDER) <= {r.id for r in RULES}


def test_a_rule_the_report_order_does_not_name_follows_every_rule_it_names():
    first, second = RULES[0], RULES[1]
    newcomers = (replace(first, id="aaa.first.new"), replace(second, id="zzz.second.new"))
    ordered = in_report_order(newcomers[::-1] + RULES[::-1])
    assert ordered[:len(RULES)] == RULES and [r.id for r in ordered[len(RULES):]] == ["aaa.first.new", "zzz.second.new"]


def test_no_rule_module_imports_a_private_name_from_another():
    private = []
    for path in sorted(RULES_FOLDER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("headwater."):
                private += [f"{path.name}: {node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
    assert private == []


def test_no_two_modules_of_the_package_share_a_name():
    names = Counter(path.stem for path in PACKAGE.rglob("*.py") if path.stem != "__init__")
    assert [name for name, count in names.items() if count > 1] == []
