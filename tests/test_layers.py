"""The layers of brain/ point down and no module imports itself back in a circle.

Every import counts: at the top of a module, inside a function (the lazy ones that keep
start-up fast) and under ``if TYPE_CHECKING:``. docs/architecture.md draws the layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "brain"

# Lowest first. A module may import its own layer and the ones before it.
LAYERS = (
    "base", "home", "index", "team", "sessions", "models", "pipeline", "api", "agents", "ui", "cli"
)  # fmt: skip
# Modules outside a layer's package, and the layer they belong to.
LOOSE = {
    "brain": "base",
    "brain.errors": "base",
    "brain.markdown": "base",
    "brain.assets": "base",
    "brain.progress": "base",
    "brain.api": "api",
    "brain.evals": "api",
    "brain.__main__": "cli",
}


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in PACKAGE.rglob("*.py")}


def layer_of(module: str) -> str:
    if module in LOOSE:
        return LOOSE[module]
    layer = module.split(".")[1]
    assert layer in LAYERS, f"{module} is in no layer; add it to LAYERS or LOOSE"
    return layer


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if path.name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def imports_of(module: str) -> dict[str, int]:
    """The brain modules ``module`` imports, each with the line of its first import."""
    path = MODULES[module]
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            target = _resolve(module, path, node)
            names = [f"{target}.{a.name}" for a in node.names]
            targets = [n for n in names if n in MODULES] or [target]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            continue
        for name in targets:
            if name != "brain" and not name.startswith("brain."):
                continue
            while name not in MODULES and "." in name:
                name = name.rsplit(".", 1)[0]
            if name != module:
                found.setdefault(name, node.lineno)
    return found


GRAPH = {module: imports_of(module) for module in MODULES}


def test_every_module_has_a_layer() -> None:
    assert all(layer_of(m) in LAYERS for m in MODULES)


def test_layers_only_point_down() -> None:
    upward = [
        f"{MODULES[m].relative_to(PACKAGE.parent)}:{line} imports {t} "
        f"({layer_of(m)} -> {layer_of(t)})"
        for m, targets in GRAPH.items()
        for t, line in targets.items()
        if LAYERS.index(layer_of(t)) > LAYERS.index(layer_of(m))
    ]
    assert upward == []


def find_cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def test_no_import_cycle() -> None:
    assert find_cycles(GRAPH) == []


@pytest.mark.parametrize(
    "graph,expected",
    [
        ({"a": {"b": 1}, "b": {"c": 1}, "c": {}}, []),
        ({"a": {"b": 1}, "b": {"a": 1}}, [["a", "b"]]),
        ({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}, [["a", "b", "c"]]),
    ],
)
def test_the_cycle_finder_finds_cycles(
    graph: dict[str, dict[str, int]], expected: list[list[str]]
) -> None:
    assert find_cycles(graph) == expected


# Inside home/: the floor is its loose modules and the packages they stand on; each
# subsystem stands on the floor, and on another subsystem only where it says so here.
HOME_FLOOR = (
    "brain.home",
    "brain.home.git",
    "brain.home.yaml",
    "brain.home.secrets",
    "brain.home.uses",
)
HOME_SUBSYSTEMS: dict[str, tuple[str, ...]] = {
    "brain.home.staleness": (),
    "brain.home.sync": (),
}


def home_part(module: str) -> str:
    """The floor package or subsystem a module of home/ belongs to."""
    parts = module.split(".")
    if len(parts) > 2 and (PACKAGE / "home" / parts[2]).is_dir():
        return ".".join(parts[:3])
    return "brain.home"


def home_breaches(
    graph: dict[str, dict[str, int]],
    floor: tuple[str, ...] = HOME_FLOOR,
    subsystems: dict[str, tuple[str, ...]] = HOME_SUBSYSTEMS,
) -> list[str]:
    """Imports inside home/ that run from the floor into a subsystem, or from a
    subsystem into one it does not name."""
    found = []
    for module, targets in graph.items():
        if module != "brain.home" and not module.startswith("brain.home."):
            continue
        part = home_part(module)
        allowed = set(floor) if part in floor else {*floor, part, *subsystems.get(part, ())}
        for target, line in targets.items():
            if target.startswith("brain.home.") and home_part(target) not in allowed:
                found.append(f"{module}:{line} imports {target} ({part} -> {home_part(target)})")
    return found


def test_every_home_package_is_floor_or_subsystem() -> None:
    parts = {home_part(m) for m in MODULES if m == "brain.home" or m.startswith("brain.home.")}
    assert parts == {*HOME_FLOOR, *HOME_SUBSYSTEMS}


def test_home_floor_imports_no_subsystem_and_subsystems_only_what_they_name() -> None:
    assert home_breaches(GRAPH) == []
    assert find_cycles({p: dict.fromkeys(d, 1) for p, d in HOME_SUBSYSTEMS.items()}) == []


def test_a_floor_import_of_a_subsystem_is_reported() -> None:
    graph = {
        "brain.home.transaction": {"brain.home.sync.remote": 7, "brain.home.git.repo": 8},
        "brain.home.staleness.report": {"brain.home.sync.merge": 3, "brain.home.records": 4},
        "brain.home.sync.remote": {"brain.home.staleness.check": 5},
    }
    assert home_breaches(graph, subsystems={"brain.home.sync": ("brain.home.staleness",)}) == [
        "brain.home.transaction:7 imports brain.home.sync.remote (brain.home -> brain.home.sync)",
        "brain.home.staleness.report:3 imports brain.home.sync.merge "
        "(brain.home.staleness -> brain.home.sync)",
    ]


def test_home_packages_import_nothing_on_import() -> None:
    """A package's __init__ is its map: a docstring, no import every command would pay for."""
    heavy = [
        str(path.relative_to(PACKAGE.parent))
        for path in (PACKAGE / "home").rglob("__init__.py")
        if any(isinstance(n, ast.Import | ast.ImportFrom) for n in ast.parse(path.read_text()).body)
        or not ast.get_docstring(ast.parse(path.read_text()))
    ]
    assert heavy == []


def test_an_upward_import_is_reported(tmp_path: Path) -> None:
    """The rule sees lazy and type-only imports, relative ones included."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from brain.api import Brain\n"
        "def f():\n    from ..pipeline import views\n"
    )
    tree = ast.parse(source)
    module, path = "brain.index.fake", PACKAGE / "index" / "fake.py"
    targets = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            targets.add(_resolve(module, path, node))
    assert {"brain.api", "brain.pipeline"} <= targets
    assert LAYERS.index(layer_of("brain.api")) > LAYERS.index(layer_of("brain.index.store"))
