"""Rules about the code itself: import owners, help text, light commands."""

from __future__ import annotations

import ast
import functools
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from brain.cli import main
from brain.cli.commands import COMMANDS

PACKAGE = Path(__file__).resolve().parent.parent / "brain"

# The one module that runs git (and may import GitPython, which it does not need).
GIT_RUNNER = "brain/home/git/runner.py"
# The runner's way of starting git without subprocess, for the session start.
GIT_SPAWN = "brain/home/git/spawn.py"
# Modules that spell out git command lines for the runner to run.
GIT_COMMANDS = (
    GIT_RUNNER,
    GIT_SPAWN,
    "brain/home/git/repo.py",
    "brain/home/git/packing.py",
    "brain/home/git/checkouts.py",
    "brain/home/git/rewrite.py",
    "brain/team/repo.py",
)

# Each outside library is imported by one module (or package) only.
OWNERS = {
    "git": (GIT_RUNNER,),
    "litellm": ("brain/models/litellm_model.py",),
    "pydantic": ("brain/models/schema.py",),
    "click": ("brain/cli/",),
    "tiktoken": ("brain/models/tokens.py",),
    "git_filter_repo": ("brain/home/sync/filter.py",),
    "ahocorasick_rs": ("brain/home/secrets/literals.py",),
    "msgspec": ("brain/sessions/sources/base.py",),
    "filelock": ("brain/home/lock.py",),
    "fcntl": ("brain/home/lock.py",),
}


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A module of the package, parsed once for all the checks here."""
    return ast.parse(path.read_text(), str(path))


def imported_roots(path: Path) -> set[str]:
    tree = parsed(path)
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
        roots = imported_roots(path)
        for lib, owners in OWNERS.items():
            if lib in roots and not rel.startswith(owners):
                offenders.append(f"{rel} imports {lib}")
    assert offenders == []


def _is_git_argv(node: ast.AST | None) -> bool:
    """A list or tuple literal whose first element is the string ``git``."""
    return (
        isinstance(node, ast.List | ast.Tuple)
        and bool(node.elts)
        and isinstance(node.elts[0], ast.Constant)
        and node.elts[0].value == "git"
    )


def _subprocess_names(tree: ast.AST) -> set[str]:
    """Names that start a process in this module: ``subprocess.run``, a bare ``run``
    imported from subprocess, ``os.system`` and the like."""
    names = {"subprocess", "os"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in {"subprocess", "os"}:
            names |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            names |= {a.asname for a in node.names if a.name in {"subprocess", "os"} and a.asname}
    return names


def git_calls(path: Path) -> list[str]:
    """Where a module starts git itself: a ``git ...`` argv written anywhere, or a shell
    line beginning with ``git`` handed to subprocess or os."""
    tree = parsed(path)
    starters = _subprocess_names(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if _is_git_argv(node):
            found.append((getattr(node, "lineno", 0), "a git argv"))
        if not isinstance(node, ast.Call):
            continue
        root = node.func
        while isinstance(root, ast.Attribute):
            root = root.value
        if not (isinstance(root, ast.Name) and root.id in starters):
            continue
        argv = node.args[0] if node.args else None
        if isinstance(argv, ast.Constant) and str(argv.value).split()[:1] == ["git"]:
            found.append((node.lineno, "a shell line running git"))
    return [f"line {line}: {what}" for line, what in sorted(found)]


def test_only_the_runner_runs_git() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        if rel not in (GIT_RUNNER, GIT_SPAWN):
            offenders += [f"{rel} {where}" for where in git_calls(path)]
    assert offenders == []


def test_git_command_lines_stay_with_the_runner() -> None:
    """Outside the runner and the repository's typed operations, nothing calls the
    runner: the rest of brain asks :class:`brain.home.git.repo.Repo` or the runner's
    named queries."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        if rel in GIT_COMMANDS:
            continue
        for node in ast.walk(parsed(path)):
            called = node.func if isinstance(node, ast.Call) else None
            name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
            if name in {"run_git", "_git"}:
                offenders.append(f"{rel}:{node.lineno} calls {name}")
            if isinstance(node, ast.ImportFrom) and any(a.name == "run_git" for a in node.names):
                offenders.append(f"{rel}:{node.lineno} imports run_git")
    assert offenders == []


def test_the_rule_sees_git_started_by_hand(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import subprocess\n"
        "from subprocess import run as go\n"
        "subprocess.run(['git', 'status'])\n"
        "go(('git', '-C', '.', 'log'))\n"
        "cmd = ['git', 'diff']\n"
        "subprocess.check_output('git log', shell=True)\n"
        "subprocess.run(['ls'])\n"
    )
    assert git_calls(module) == [
        "line 3: a git argv",
        "line 4: a git argv",
        "line 5: a git argv",
        "line 6: a shell line running git",
    ]


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    """Every command under ``group``, loading the lazily added ones."""
    found = []
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, f"'brain {prefix}{name}' is listed but not defined"
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


def test_the_command_table_says_where_each_command_is_and_its_help() -> None:
    loaded = dict(_commands(main))
    for module, names in COMMANDS.items():
        for name, short_help in names.items():
            command = loaded[name]
            assert command.callback is not None
            assert command.callback.__module__ == f"brain.cli.{module}", name
            for width in (30, 45, 200):  # what --help shows, however narrow
                stand_in = click.Command(name, help=short_help)
                assert command.get_short_help_str(width) == stand_in.get_short_help_str(width)
    listed = {name for names in COMMANDS.values() for name in names}
    assert {name for name in loaded if " " not in name} == listed


def test_help_lists_every_command_without_loading_them() -> None:
    def help_text(load: str, then: str = "") -> str:
        run = "from brain.cli import main; main(['--help'], 'brain', standalone_mode=False)"
        code = "\n".join([load, run, then])
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout

    every = ", ".join(f"brain.cli.{module}" for module in COMMANDS)
    lazy = help_text("import sys", "assert 'brain.cli.memory' not in sys.modules")
    assert lazy == help_text(f"import {every}")  # as if the table were not there
    assert "  sync-instructions  Write the context into a brain-managed block" in lazy
    unknown = CliRunner().invoke(main, ["nosuch"])
    assert unknown.exit_code == 2 and "No such command 'nosuch'" in unknown.output


@pytest.mark.parametrize(
    "words,expected",
    [
        ("brain l", ["list", "log"]),
        ("brain config ", ["get", "list", "set"]),
        ("brain sy", ["sync", "sync-instructions"]),
    ],
)
def test_shell_completion_finds_lazily_loaded_commands(words: str, expected: list[str]) -> None:
    env = {**os.environ, "_BRAIN_COMPLETE": "bash_complete", "COMP_WORDS": words}
    env["COMP_CWORD"] = str(len(words.split()) - (0 if words.endswith(" ") else 1))
    script = "import sys; sys.argv[0] = 'brain'; from brain.__main__ import run; run()"
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    assert done.stdout.split() == [f"plain,{name}" for name in expected]


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
