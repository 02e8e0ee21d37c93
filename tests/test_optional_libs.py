"""A plain install has neither the semantic nor the litellm extra: a setting that needs
one is refused with the line that installs it, and a home whose brain.yaml says
``semantic: true`` (set on another machine, arrived by sync) still answers every
command, lexically, saying why."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import commit_count, git, run_brain

# Makes numpy, wordllama and litellm unimportable in the subprocess, as on a plain install.
BLOCKER = """\
import sys

class _Missing:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"numpy", "wordllama", "litellm"}:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, _Missing())
"""


@pytest.fixture
def plain_env(tmp_path: Path) -> dict[str, str]:
    site = tmp_path / "plain-site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(site), *filter(None, [env.get("PYTHONPATH"), str(Path(__file__).parents[1])])]
    )
    assert run_brain("init", env=env).returncode == 0
    return env


def test_the_setting_is_refused_with_the_install_line(home: Path, plain_env: dict[str, str]):
    before = commit_count(home)
    done = run_brain("config", "set", "semantic", "true", env=plain_env)
    assert done.returncode == 1
    assert "semantic needs numpy and wordllama" in done.stderr
    assert "pip install 'brain-memory[semantic]'" in done.stderr
    assert "Traceback" not in done.stderr
    assert commit_count(home) == before
    assert "semantic" not in (home / "brain.yaml").read_text()


def test_a_synced_setting_leaves_every_command_working(home: Path, plain_env: dict[str, str]):
    # The setting arrived from a machine that has the extra.
    with (home / "brain.yaml").open("a") as f:
        f.write("semantic: true\n")
    git(home, "commit", "-qam", "config: semantic = True")

    wrote = run_brain("remember", "Use pnpm, never npm", "--key", "pkg", env=plain_env)
    assert wrote.returncode == 0, wrote.stderr
    assert "Traceback" not in wrote.stderr
    assert (home / "memories" / "pkg.md").exists()

    found = run_brain("recall", "pnpm", env=plain_env)
    assert found.returncode == 0, found.stderr
    assert "pkg" in found.stdout
    assert "searched without the semantic layer" in found.stderr
    assert "pip install 'brain-memory[semantic]'" in found.stderr

    again = run_brain("recall", "pnpm", env=plain_env)
    assert "index rebuilt" not in again.stderr  # the lexical index is kept, not rebuilt
    assert "pkg" in again.stdout


def test_an_api_model_without_litellm_is_refused_and_the_rest_works(
    home: Path, plain_env: dict[str, str]
):
    done = run_brain("config", "set", "extract_model", "openai/gpt-4o-mini", env=plain_env)
    assert done.returncode == 1
    assert "openai/gpt-4o-mini is reached through litellm, which is not installed" in done.stderr
    assert "pip install 'brain-memory[litellm]'" in done.stderr
    assert "Traceback" not in done.stderr
    shown = run_brain("config", "get", "extract_model", env=plain_env)
    assert shown.stdout.strip().endswith("builtin")
    # The builtin and the agent CLIs need no litellm.
    assert run_brain("config", "set", "extract_model", "claude-code", env=plain_env).returncode == 0
    assert run_brain("remember", "Use uv", "--key", "uv", env=plain_env).returncode == 0
    assert "uv" in run_brain("recall", "uv", env=plain_env).stdout
    status = run_brain("status", env=plain_env)
    assert status.returncode == 0, status.stderr
