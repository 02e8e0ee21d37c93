"""Settings that choose where text is sent are this machine's own (local.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from brain.api import Brain
from brain.home import config
from tests.helpers import cli, cli_json, commit_count, git, status

MACHINE_KEY_VALUES = (
    ("extract_model", "claude-code/haiku"),
    ("consolidation_model", "claude-code/sonnet"),
    ("model_api_base", "http://127.0.0.1:11434"),
    ("embedding_model", "openai/text-embedding-3-small"),
)


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def _bare(path: Path) -> Path:
    git(path.parent, "init", "-q", "--bare", str(path))
    return path


def _two_machines(tmp_path: Path) -> tuple[Path, Path]:
    remote = _bare(tmp_path / "remote.git")
    a = tmp_path / "a"
    Brain.init(a)
    assert cli("--home", str(a), "remote", "add", str(remote)).exit_code == 0
    assert cli("--home", str(a), "sync").exit_code == 0
    assert cli("clone", str(remote), "--home", str(tmp_path / "b")).exit_code == 0
    return a, tmp_path / "b"


@pytest.mark.parametrize(("name", "value"), MACHINE_KEY_VALUES)
def test_a_machine_key_is_set_in_local_yaml_uncommitted(
    brain: Brain, home: Path, name: str, value: str
) -> None:
    before = commit_count(home)
    result = cli("config", "set", name, value)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"{name} = {value}  (this machine only: local.yaml)\n"
    assert f"{name}: {value}" in (home / "local.yaml").read_text()
    assert name not in config.read_file(home)  # brain.yaml: tracked and synced
    assert commit_count(home) == before
    assert status(home) == ""  # git-ignored: never committed, never pushed
    assert cli_json("config", "get", name) == {
        "name": name,
        "value": value,
        "origin": "local",
        "synced": None,
    }


def test_a_shared_key_still_goes_to_brain_yaml_in_a_commit(brain: Brain, home: Path) -> None:
    before = commit_count(home)
    assert cli("config", "set", "max_tokens_per_run", "5000").exit_code == 0
    assert commit_count(home) == before + 1
    assert "max_tokens_per_run: 5000" in (home / "brain.yaml").read_text()
    assert "max_tokens_per_run" not in (home / "local.yaml").read_text()


def test_a_model_set_on_another_machine_is_not_obeyed_without_consent(tmp_path: Path) -> None:
    a, b = _two_machines(tmp_path)
    # Machine B's brain.yaml names an endpoint and a model (set by hand, or by an older
    # brain), and it reaches A by sync.
    path = b / "brain.yaml"
    path.write_text(
        path.read_text() + "model_api_base: http://evil.example/v1\nextract_model: openai/x\n"
    )
    git(b, "commit", "-qam", "config: endpoint")
    assert cli("--home", str(b), "sync").exit_code == 0
    assert cli("--home", str(a), "sync").exit_code == 0
    assert "evil.example" in (a / "brain.yaml").read_text()
    loaded = config.load(a)
    assert loaded.model_api_base is None and loaded.extract_model == "builtin"
    listed = cli("--home", str(a), "config", "list")
    assert (
        "model_api_base = None  (default); brain.yaml (synced) says http://evil.example/v1, "
        "not used on this machine: 'brain config set model_api_base http://evil.example/v1' "
        "uses it"
    ) in listed.stdout
    shown = cli("--home", str(a), "status")
    assert "not used on this machine" in shown.stdout and "evil.example" in shown.stdout
    # Consent: the same value set on this machine.
    assert cli("--home", str(a), "config", "set", "extract_model", "openai/x").exit_code == 0
    assert config.load(a).extract_model == "openai/x"
    assert config.held(a, config.load(a)) == {"model_api_base": "http://evil.example/v1"}


def test_a_local_choice_never_travels_by_sync(tmp_path: Path) -> None:
    a, b = _two_machines(tmp_path)
    assert cli("--home", str(a), "config", "set", "extract_model", "codex").exit_code == 0
    assert cli("--home", str(a), "sync").exit_code == 0
    assert cli("--home", str(b), "sync").exit_code == 0
    assert config.load(b).extract_model == "builtin"
    assert config.load(a).extract_model == "codex"
    assert not git(a, "ls-files", "local.yaml").strip()


def test_a_home_made_before_local_yaml_keeps_the_model_it_used(brain: Brain, home: Path) -> None:
    # An older home: its brain.yaml set the model; it had no local.yaml, and its
    # .gitignore named only .brain/.
    (home / "local.yaml").unlink()
    (home / ".gitignore").write_text(".brain/\n")
    path = home / "brain.yaml"
    path.write_text(path.read_text() + "extract_model: claude-code\n")
    git(home, "commit", "-qam", "an older home")
    assert config.load(home).extract_model == "claude-code"  # read-only paths: as before
    assert cli("status").exit_code == 0  # any command that opens the home adopts it
    assert "extract_model: claude-code" in (home / "local.yaml").read_text()
    assert config.load(home).extract_model == "claude-code"
    assert status(home) == ""  # kept out of git by the repository's own exclude file
    assert "/local.yaml" in (home / ".git" / "info" / "exclude").read_text()
    # From now on a change to brain.yaml's model (by a sync) is not obeyed.
    path.write_text(path.read_text().replace("claude-code", "openai/gpt-4o-mini"))
    assert config.load(home).extract_model == "claude-code"


def test_init_writes_an_empty_local_yaml_that_git_ignores(home: Path) -> None:
    assert cli("init").exit_code == 0
    assert (home / "local.yaml").is_file()
    assert "local.yaml" in (home / ".gitignore").read_text()
    assert not git(home, "ls-files", "local.yaml").strip()
    assert "extract_model:" not in (home / "brain.yaml").read_text()
    assert config.load(home).extract_model == "builtin"


def test_a_bad_local_yaml_names_the_file(brain: Brain, home: Path) -> None:
    (home / "local.yaml").write_text("colour: blue\n")
    result = cli("config", "list")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {home}/local.yaml: unknown key 'colour'")
