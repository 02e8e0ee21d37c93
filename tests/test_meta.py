"""Rules about the code itself: import owners, help text, light commands."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import click
import pytest

from brain.cli import main

PACKAGE = Path(__file__).resolve().parent.parent / "brain"

# Each outside library is imported by one module (or package) only.
OWNERS = {
    "git": ("brain/home/repo.py",),
    "litellm": ("brain/models/litellm_model.py",),
    "pydantic": ("brain/models/schema.py",),
    "click": ("brain/cli/",),
    "mcp": ("brain/agents/mcp",),
    "tiktoken": ("brain/models/tokens.py",),
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_each_outside_library_has_one_owner() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        for lib, owners in OWNERS.items():
            if lib in imported_roots(path) and not rel.startswith(owners):
                offenders.append(f"{rel} imports {lib}")
    assert offenders == []


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    found = []
    for name, command in group.commands.items():
        found.append((f"{prefix}{name}", command))
        if isinstance(command, click.Group):
            found += _commands(command, f"{prefix}{name} ")
    return found


@pytest.mark.parametrize("name,command", _commands(main), ids=lambda v: str(v))
def test_every_command_has_help(name: str, command: click.Command) -> None:
    assert command.help and command.help.strip(), f"'brain {name}' has no help text"
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden:
            has_help = bool(param.help) or param.is_flag or param.name in {"json", "as_json"}
            assert has_help or param.name in {"name", "home_flag", "home_dir"} or param.help, (
                name,
                param.name,
            )


LIGHT = """
import sys
from brain.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
heavy = ("litellm", "openai", "mcp", "numpy", "wordllama", "pydantic")
heavy = [m for m in heavy if m in sys.modules]
print("HEAVY:" + ",".join(heavy))
"""


@pytest.mark.parametrize("args", [["--help"], ["list"], ["recall", "anything"]])
def test_light_commands_do_not_import_heavy_libraries(home: Path, args: list[str]) -> None:
    subprocess.run([sys.executable, "-m", "brain", "init"], check=True, capture_output=True)
    out = subprocess.run(
        [sys.executable, "-c", LIGHT, *args], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip().splitlines()[-1] == "HEAVY:"
