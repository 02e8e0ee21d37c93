"""Gemini CLI's and Codex CLI's own memories: read, then mirrored into a real home.

Each tool's files are laid under the isolated HOME where the tool keeps them; the mirror
runs against a real git home: one commit a run, none when nothing changed, an edit a
supersession, a deletion an archive.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.records import load
from brain.sessions.mirror import mirror_native, provenance
from brain.sessions.sources.codex_memory import read_codex_memories
from brain.sessions.sources.gemini_memory import read_gemini_memories
from brain.sessions.sources.native_memory import bullets
from tests.helpers import commit_count, git, status
from tests.test_harvest_trees import user_home

GEMINI_GLOBAL = """# My global notes

Prefer short answers.

## Gemini Added Memories
- I prefer pnpm over npm for every JavaScript project.
- My preferred test runner is vitest,
  with coverage on.

```sh
- not a memory: inside a code fence
```

<!-- brain:begin -->
- brain's own block is never read back
<!-- brain:end -->
"""
GEMINI_PRIVATE = """# Private project memory

- The local database listens on port 5433, not 5432.
- [Seeding the local database](seeding.md) — how the fixtures are loaded
"""
SEEDING = "# Seeding\n\nRun `make seed` after `docker compose up db`; it loads fixtures/.\n"

CODEX_MEMORY = """# Task Group: shop checkout service

scope: the checkout API in /work/src/shop and its test suite
applies_to: cwd=/work/src/shop; reuse_rule=safe for this checkout only

## Task 1: fix the failing refund test, passed

### rollout_summary_files

- rollout_summaries/2026-11-30T10-00-00-abCD-refund_test.md (cwd=/work/src/shop, \
rollout_path=/home/u/.codex/sessions/x.jsonl, updated_at=2026-11-30T10:00:00Z, thread_id=t1)

### keywords

- refund, pytest, decimal

## User preferences

- when running tests, the user asked: "always run pytest with -x" -> stop at the first \
failure [Task 1]

## Reusable knowledge

- Money amounts are Decimal, never float; tests compare with Decimal("0.01") tolerance [Task 1]

## Failures and how to do differently

- Symptom: refund test off by a cent -> cause: float rounding -> fix: use Decimal [Task 1]

# Task Group: release notes workflow

scope: writing release notes
applies_to: cwd=any repository; reuse_rule=general

## User preferences

- Release notes go in CHANGELOG.md under Unreleased, one line per change
"""
CODEX_SUMMARY = """v1

## User Profile

A backend engineer working on a shop.

## User preferences

- Answer tersely; no summaries at the end.

## General Tips

- Use rg, not grep.
"""
AD_HOC = "Remember: the staging database is read-only on Fridays.\n"


def gemini_tree() -> Path:
    root = user_home() / ".gemini"
    (root / "tmp" / "shop" / "memory" / ".inbox" / "private").mkdir(parents=True)
    (root / "GEMINI.md").write_text(GEMINI_GLOBAL)
    project = user_home() / "src" / "shop"
    project.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (root / "tmp" / "shop" / ".project_root").write_text(str(project))
    memory = root / "tmp" / "shop" / "memory"
    (memory / "MEMORY.md").write_text(GEMINI_PRIVATE)
    (memory / "seeding.md").write_text(SEEDING)
    (memory / ".inbox" / "private" / "extraction.patch").write_text("--- a\n+++ b\n+- pending\n")
    return root


def codex_tree() -> Path:
    root = user_home() / ".codex" / "memories"
    notes = root / "extensions" / "ad_hoc" / "notes"
    notes.mkdir(parents=True)
    (root / "MEMORY.md").write_text(CODEX_MEMORY)
    (root / "memory_summary.md").write_text(CODEX_SUMMARY)
    (root / "raw_memories.md").write_text("# Raw Memories\n\nNo raw memories yet.\n")
    (notes / "2026-11-30T10-05-00-staging-read-only.md").write_text(AD_HOC)
    return root


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def test_bullets_fold_wrapped_lines_and_skip_fences() -> None:
    found = bullets(GEMINI_GLOBAL)
    assert [b.text for b in found][:2] == [
        "I prefer pnpm over npm for every JavaScript project.",
        "My preferred test runner is vitest, with coverage on.",
    ]
    assert found[0].headings == ("My global notes", "Gemini Added Memories")
    assert not any("code fence" in b.text for b in found)


def test_gemini_global_and_private_project_memory() -> None:
    gemini_tree()
    found = read_gemini_memories()
    by_text = {m.description: m for m in found}
    assert sorted(by_text) == [
        "I prefer pnpm over npm for every JavaScript project.",
        "My preferred test runner is vitest, with coverage on.",
        "Seeding the local database — how the fixtures are loaded",
        "The local database listens on port 5433, not 5432.",
    ]
    pnpm = by_text["I prefer pnpm over npm for every JavaScript project."]
    assert (pnpm.tool, pnpm.project, pnpm.type) == ("gemini", None, "preference")
    assert pnpm.origin.endswith("/.gemini/GEMINI.md#prefer-pnpm-npm-every-javascript-project")
    port = by_text["The local database listens on port 5433, not 5432."]
    assert (port.project, port.type) == ("shop", "fact")
    seeding = by_text["Seeding the local database — how the fixtures are loaded"]
    assert seeding.body == SEEDING.strip() and seeding.origin.endswith("/memory/seeding.md")


def test_codex_handbook_summary_and_notes() -> None:
    codex_tree()
    found = read_codex_memories()
    got = [(m.type, m.project, m.description) for m in found]
    assert got == [
        (
            "preference",
            "shop",
            'when running tests, the user asked: "always run pytest with -x" -> stop at the '
            "first failure",
        ),
        (
            "fact",
            "shop",
            'Money amounts are Decimal, never float; tests compare with Decimal("0.01") tolerance',
        ),
        (
            "lesson",
            "shop",
            "Symptom: refund test off by a cent -> cause: float rounding -> fix: use Decimal",
        ),
        (
            "preference",
            None,
            "Release notes go in CHANGELOG.md under Unreleased, one line per change",
        ),
        ("preference", None, "Answer tersely; no summaries at the end."),
        ("instruction", None, "Remember: the staging database is read-only on Fridays."),
    ]
    assert found[-1].name == "staging-read-only"
    assert read_codex_memories(user_home() / "nothing") == []


def test_mirror_gemini_and_codex_in_one_commit(brain: Brain, home: Path) -> None:
    gemini_tree()
    codex_tree()
    result = mirror_native(brain)
    assert (result.found, result.added, result.merged) == (10, 10, 0)
    assert result.tools == ("gemini 4", "codex 6")
    assert commit_count(home) == 2 and status(home) == ""
    subject = git(home, "log", "-1", "--format=%s").strip()
    assert subject == "mirror: 10 memories (gemini 4, codex 6)"
    port = load(home / "memories" / "gemini-shop-local-database-listens-port-5433-not-5432.md")
    assert port.tags == ("from:gemini-memory", "project:shop") and port.profile == "gemini"
    decimal = load(home / "memories" / "codex-shop-money-amounts-decimal-never-float-tests.md")
    assert decimal.type == "fact" and decimal.tags == ("from:codex-memory", "project:shop")
    terse = load(home / "memories" / "codex-answer-tersely-no-summaries-end.md")
    assert terse.tags == ("from:codex-memory",)
    assert mirror_native(brain).commit is None and commit_count(home) == 2


def test_an_edited_bullet_supersedes_and_a_deleted_one_archives(brain: Brain, home: Path) -> None:
    root = gemini_tree()
    mirror_native(brain, ["gemini"])
    key = "gemini-prefer-pnpm-npm-every-javascript-project"
    old = load(home / "memories" / f"{key}.md")
    text = GEMINI_GLOBAL.replace(
        "every JavaScript project", "every JavaScript and TypeScript project"
    )
    (root / "GEMINI.md").write_text(text)
    edited = mirror_native(brain, ["gemini"])
    assert (edited.superseded, edited.added, edited.archived, edited.keys) == (1, 0, 0, (key,))
    new = load(home / "memories" / f"{key}.md")
    assert new.supersedes == (old.id,) and "TypeScript" in new.body
    (root / "GEMINI.md").write_text(
        text.replace("- My preferred test runner is vitest,\n  with coverage on.\n", "")
    )
    gone = mirror_native(brain, ["gemini"])
    assert (gone.archived, gone.superseded, gone.added) == (1, 0, 0)
    assert (
        git(home, "log", "-1", "--format=%s").strip() == "mirror: 1 memory (gemini 1; 1 archived)"
    )
    assert (home / "archive" / "gemini-preferred-test-runner-vitest-coverage.md").exists()
    assert mirror_native(brain, ["gemini"]).commit is None


def test_a_rule_kept_by_two_tools_is_one_record(brain: Brain, home: Path) -> None:
    gemini_tree()
    codex = codex_tree()
    (codex / "memory_summary.md").write_text(
        CODEX_SUMMARY.replace(
            "- Answer tersely",
            "- I prefer **pnpm** over npm for every JavaScript project.\n- Answer tersely",
        )
    )
    result = mirror_native(brain)
    assert result.merged == 1 and result.added == 10
    record = load(home / "memories" / "gemini-prefer-pnpm-npm-every-javascript-project.md")
    assert record.tags == ("from:gemini-memory", "from:codex-memory")
    assert [origin.split(":memory:")[0] for _, origin in provenance(record)] == ["gemini", "codex"]
    assert not list((home / "memories").glob("codex-prefer-pnpm*"))
    (codex / "memory_summary.md").write_text(CODEX_SUMMARY)  # Codex forgets it; Gemini has it
    again = mirror_native(brain)
    assert (again.archived, again.superseded) == (0, 0)
    record = load(home / "memories" / "gemini-prefer-pnpm-npm-every-javascript-project.md")
    assert record.tags == ("from:gemini-memory",) and len(provenance(record)) == 1


def test_a_memory_brain_already_has_joins_its_record(brain: Brain, home: Path) -> None:
    brain.remember(
        'Money amounts are Decimal, never float; tests compare with Decimal("0.01") tolerance',
        tags=["project:shop"],
    )
    codex_tree()
    result = mirror_native(brain, ["codex"])
    assert result.merged == 1
    [mine] = [r for r in brain.list().records if r.source is None]
    assert mine.tags == ("project:shop", "from:codex-memory") and len(provenance(mine)) == 1
    root = user_home() / ".codex" / "memories"
    (root / "MEMORY.md").write_text(
        CODEX_MEMORY.replace(
            "- Money amounts are Decimal", "- Prices are cents in an int; was: Decimal"
        )
    )
    mirror_native(brain, ["codex"])
    kept = load(home / "memories" / f"{mine.key}.md")
    assert kept.tags == ("project:shop",) and provenance(kept) == []  # brain's own stays
