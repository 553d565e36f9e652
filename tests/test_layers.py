"""Every import points down the layers, and no two packages import each other (HW-DR-0023).

Read from the source with `ast`, lazy imports inside functions included: an import deferred
for speed still ties the layers together. A unit is a subpackage of `headwater`, or a module
at its top level; a unit may import itself, a unit of a lower layer, or a peer in its own
layer as long as no cycle closes between units.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import headwater

# Lowest first. Every subpackage stands in a layer; a top-level module named in none is a foundation
# helper (errors, paths, hashing, atomic writes, …): below every layer, importing only foundation.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("yaml",),
    ("taxonomy", "discovery"),
    ("corpus",),
    ("federation",),
    ("graph",),
    ("snapshot",),
    ("writes", "check", "reads", "adoption"),
    ("render", "mcp"),
    ("cli", "__main__"),
)
PACKAGE = Path(headwater.__file__).parent


def layer_of(unit: str) -> int:
    return next((number for number, units in enumerate(LAYERS, start=1) if unit in units), 0)


def module_name(path: Path, package: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def unit_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imported(path: Path, module: str, known: set[str]) -> set[str]:
    """The project modules `path` imports, `from pkg import module` read as the module."""
    top = module.split(".")[0]
    here = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == top}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            if base.split(".")[0] == top:
                out |= {f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names}
    return out


def import_edges(package: Path) -> dict[str, set[str]]:
    paths = {module_name(p, package): p for p in sorted(package.rglob("*.py"))}
    return {m: imported(p, m, set(paths)) for m, p in paths.items()}


def upward(edges: dict[str, set[str]]) -> list[str]:
    return sorted(f"{m} imports {t}" for m, targets in edges.items() for t in targets
                  if layer_of(unit_of(t)) > layer_of(unit_of(m)))


def cycles(edges: dict[str, set[str]], unit: Callable[[str], str] = unit_of) -> list[tuple[str, ...]]:
    """Every strongly connected group of more than one unit (Tarjan), each sorted."""
    graph: dict[str, set[str]] = defaultdict(set)
    for m, targets in edges.items():
        graph[unit(m)] |= {unit(t) for t in targets} - {unit(m)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[tuple[str, ...]] = []

    def visit(unit: str) -> None:
        index[unit] = low[unit] = len(index)
        stack.append(unit)
        for nxt in sorted(graph[unit]):
            if nxt not in index:
                visit(nxt)
                low[unit] = min(low[unit], low[nxt])
            elif nxt in stack:
                low[unit] = min(low[unit], index[nxt])
        if low[unit] == index[unit]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == unit:
                    break
            if len(group) > 1:
                found.append(tuple(sorted(group)))

    for unit in sorted(graph):
        if unit not in index:
            visit(unit)
    return sorted(found)


def test_every_layer_names_units_that_exist():
    units = {unit_of(m) for m in import_edges(PACKAGE)}
    assert {u for layer in LAYERS for u in layer} <= units


def test_every_subpackage_stands_in_a_layer():
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert packages - {u for layer in LAYERS for u in layer} == set()


def test_no_module_imports_a_higher_layer():
    assert upward(import_edges(PACKAGE)) == []


def test_no_two_packages_import_each_other_even_through_a_third():
    assert cycles(import_edges(PACKAGE)) == []


def test_no_two_modules_import_each_other_even_lazily():
    assert cycles(import_edges(PACKAGE), unit=str) == []


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root / "headwater"


def test_a_lazy_import_of_a_higher_layer_is_caught(tmp_path):
    package = _write(tmp_path, {"headwater/__init__.py": "", "headwater/cli/__init__.py": "",
                                "headwater/cli/output.py": "PALETTE = 1\n", "headwater/render/__init__.py": "",
                                "headwater/render/text.py": "def f():\n    from ..cli.output import PALETTE\n"})
    assert upward(import_edges(package)) == ["headwater.render.text imports headwater.cli.output"]


def test_a_foundation_module_importing_a_layer_is_caught(tmp_path):
    package = _write(tmp_path, {"headwater/__init__.py": "", "headwater/yaml/__init__.py": "",
                                "headwater/paths.py": "from headwater import yaml\n"})
    assert upward(import_edges(package)) == ["headwater.paths imports headwater.yaml"]


def test_two_peers_importing_each_other_through_a_third_are_a_cycle(tmp_path):
    package = _write(tmp_path, {"headwater/__init__.py": "", "headwater/check/__init__.py": "import headwater.reads\n",
                                "headwater/reads/__init__.py": "from headwater import adoption\n",
                                "headwater/adoption/__init__.py": "from headwater.check import x\n",
                                "headwater/check/x.py": ""})
    assert upward(import_edges(package)) == []
    assert cycles(import_edges(package)) == [("adoption", "check", "reads")]


def test_two_modules_of_one_package_importing_each_other_are_a_cycle(tmp_path):
    package = _write(tmp_path, {"headwater/__init__.py": "", "headwater/mcp/__init__.py": "",
                                "headwater/mcp/tools.py": "def f():\n    from headwater.mcp import writes\n",
                                "headwater/mcp/writes.py": "from headwater.mcp.tools import f\n"})
    assert cycles(import_edges(package)) == []
    assert cycles(import_edges(package), unit=str) == [("headwater.mcp.tools", "headwater.mcp.writes")]
