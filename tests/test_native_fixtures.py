"""Each tool's own memory files, as the tools left them (tests/fixtures/native-memory),
mirrored into a real git home: an unchanged file does nothing, an edit supersedes, a
deletion archives."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.records import load
from brain.sessions.mirror import mirror_native
from tests.helpers import commit_count, git, status
from tests.test_harvest_trees import age, claude_line, user_home

FIXTURES = Path(__file__).parent / "fixtures" / "native-memory"


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def checkout(name: str = "shop") -> Path:
    path = user_home() / "src" / name
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def lay_claude() -> Path:
    project = checkout()
    folder = user_home() / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(project))
    shutil.copytree(FIXTURES / "claude" / "memory", folder / "memory")
    line = claude_line("hi", "u1").replace("/home/marco/projects/spotter", str(project))
    (folder / "s1.jsonl").write_text(line)
    age(folder / "s1.jsonl", timedelta(days=2))
    return folder / "memory"


def lay_gemini() -> Path:
    project = checkout()
    root = user_home() / ".gemini"
    shutil.copytree(FIXTURES / "gemini", root)
    (root / "tmp" / "shop" / ".project_root").write_text(str(project))  # this machine's
    return root


def lay_codex() -> Path:
    root = user_home() / ".codex" / "memories_v2"
    shutil.copytree(FIXTURES / "codex" / "memories_v2", root)
    return root


def subject(home: Path) -> str:
    return git(home, "log", "-1", "--format=%s").strip()


def test_claude_codes_recorded_memory(brain: Brain, home: Path) -> None:
    memory = lay_claude()
    result = mirror_native(brain)
    assert (result.found, result.added) == (2, 2) and commit_count(home) == 2
    rule = load(home / "memories" / "claude-shop-no-fabricated-results.md")
    assert (rule.type, rule.tags) == ("instruction", ("from:claude-memory", "project:shop"))
    assert rule.description == "Never report a test as passing without running it"
    assert rule.body.startswith("Run the tests before saying they pass.")
    window = load(home / "memories" / "claude-shop-staging-deploy-window.md")
    assert window.type == "fact"
    assert mirror_native(brain).commit is None
    path = memory / "project_staging-deploy-window.md"
    path.write_text(path.read_text().replace("16:00", "17:00"))
    assert mirror_native(brain).superseded == 1
    path.unlink()
    assert mirror_native(brain).archived == 1
    assert (home / "archive" / "claude-shop-staging-deploy-window.md").exists()
    assert status(home) == ""


def test_gemini_clis_recorded_memory(brain: Brain, home: Path) -> None:
    root = lay_gemini()
    result = mirror_native(brain)
    assert (result.found, result.added, result.tools) == (4, 4, ("gemini 4",))
    keys = sorted(p.stem for p in (home / "memories").glob("*.md"))
    assert keys == [
        "gemini-prefer-pnpm-npm-every-javascript-project",
        "gemini-preferred-test-runner-vitest-coverage",
        "gemini-shop-local-db",
        "gemini-shop-machine-run-test-suite-make-test-local",
    ]
    pnpm = load(home / "memories" / "gemini-prefer-pnpm-npm-every-javascript-project.md")
    assert (pnpm.type, pnpm.tags) == ("preference", ("from:gemini-memory",))
    db = load(home / "memories" / "gemini-shop-local-db.md")
    assert db.tags == ("from:gemini-memory", "project:shop")
    assert db.description == "Local database — port 5433 and how to start it"
    assert "5433" in db.body
    assert mirror_native(brain).commit is None and commit_count(home) == 2
    text = (root / "GEMINI.md").read_text()
    (root / "GEMINI.md").write_text(
        text.replace("vitest, with coverage on", "vitest, coverage off")
    )
    edited = mirror_native(brain)
    assert (edited.superseded, edited.added, edited.archived) == (1, 0, 0)
    assert subject(home) == "mirror: 1 memory (gemini 1; 1 superseded)"
    (root / "tmp" / "shop" / "memory" / "local-db.md").unlink()
    gone = mirror_native(brain)
    assert (gone.archived, gone.added) == (1, 1)  # the pointer is an entry of its own now
    assert (home / "archive" / "gemini-shop-local-db.md").exists()


def test_codexs_memory_as_its_source_writes_it(brain: Brain, home: Path) -> None:
    root = lay_codex()
    result = mirror_native(brain)
    assert (result.found, result.added, result.merged) == (9, 9, 0)
    shop = [r for r in brain.list().records if "project:shop" in r.tags]
    assert sorted(r.type for r in shop) == ["fact", "fact", "lesson", "preference", "preference"]
    notes = load(home / "memories" / "codex-staging-read-only-fridays.md")
    assert (notes.type, notes.tags) == ("instruction", ("from:codex-memory",))
    release = load(home / "memories" / "codex-release-notes-go-changelog-md-under.md")
    assert release.tags == ("from:codex-memory",)  # applies_to names a workflow, not a checkout
    assert mirror_native(brain).commit is None
    handbook = root / "MEMORY.md"
    handbook.write_text(handbook.read_text().replace("ROUND_HALF_UP", "ROUND_HALF_EVEN"))
    assert mirror_native(brain).superseded == 1
    summary = root / "memory_summary.md"
    summary.write_text(
        summary.read_text().replace("- Answer tersely; no recap at the end of a reply.\n", "")
    )
    gone = mirror_native(brain)
    assert gone.archived == 1 and subject(home) == "mirror: 1 memory (codex 1; 1 archived)"


def test_all_three_at_once_and_the_rule_two_tools_keep(brain: Brain, home: Path) -> None:
    lay_claude()
    lay_gemini()
    lay_codex()
    result = mirror_native(brain)
    assert result.tools == ("claude 2", "gemini 4", "codex 9")
    assert result.found == 15 and result.added + result.merged == 15
    assert commit_count(home) == 2 and status(home) == ""
