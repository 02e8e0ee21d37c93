"""brain recall --project: one project's records and sessions, and the person's own."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from brain.api import Brain
from tests.helpers import claude_transcript, run_brain


@pytest.fixture
def two_projects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Brain, Path]:
    """A home with a session and a record of each of two projects (checkouts ``shop``
    and ``blog`` on this machine), and one record of the person's own."""
    home = tmp_path / "home"
    monkeypatch.setenv("BRAIN_HOME", str(home))
    brain, _ = Brain.init(home)
    src = tmp_path / "src"
    for name in ("shop", "blog"):
        (src / name / "web").mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(src / name)], check=True)
    sessions = [
        claude_transcript(
            tmp_path / "shop.jsonl",
            ("user", "Always deploy the storefront with make release on the build host."),
            ("assistant", "Noted: make release on the build host."),
            cwd=str(src / "shop" / "web"),
        ),
        claude_transcript(
            tmp_path / "blog.jsonl",
            ("user", "Always deploy the blog with a push to the pages branch."),
            ("assistant", "Noted: a push to the pages branch."),
            cwd=str(src / "blog"),
        ),
    ]  # fmt: skip
    brain.harvest(paths=sessions)
    brain.remember("Deploy the storefront only after the payments smoke test.",
                   key="deploy-shop", tags=["project:shop"])  # fmt: skip
    brain.remember("Deploy the blog on Fridays.", key="deploy-blog", tags=["project:blog"])
    brain.remember("I deploy from the terminal, never from a web console.", key="deploy-mine")
    return brain, src


def test_a_project_keeps_its_records_and_sessions_and_the_persons_own(
    two_projects: tuple[Brain, Path],
) -> None:
    brain, _ = two_projects
    everything = {h.key for h in brain.recall("deploy", k=20, sessions=True).hits}
    assert {"deploy-shop", "deploy-blog", "deploy-mine"} <= everything
    assert any(k.startswith("blog#") for k in everything)

    shop = brain.recall("deploy", k=20, sessions=True, project="shop").hits
    keys = {h.key for h in shop}
    assert {"deploy-shop", "deploy-mine"} <= keys
    assert "deploy-blog" not in keys
    turns = {h.key for h in shop if h.kind == "turn"}
    assert turns and all(k.startswith("shop#") for k in turns)  # started in shop/web

    blog = {h.key for h in brain.recall("deploy", k=20, sessions=True, project="BLOG").hits}
    assert "deploy-blog" in blog and "deploy-shop" not in blog
    assert not any(k.startswith("shop#") for k in blog)


def test_a_project_with_nothing_indexed_keeps_the_persons_own_records(
    two_projects: tuple[Brain, Path],
) -> None:
    brain, _ = two_projects
    keys = {h.key for h in brain.recall("deploy", k=20, sessions=True, project="nosuch").hits}
    assert keys == {"deploy-mine"}


def test_recall_dash_p_dot_is_the_checkout_it_runs_in(two_projects: tuple[Brain, Path]) -> None:
    _, src = two_projects
    done = run_brain(
        "recall", "deploy", "--sessions", "-p", ".", "--json",
        cwd=src / "blog", env={**os.environ},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    keys = {hit["key"] for hit in json.loads(done.stdout)}
    assert "deploy-blog" in keys and "deploy-mine" in keys
    assert "deploy-shop" not in keys and not any(k.startswith("shop#") for k in keys)


@pytest.fixture
def learned(two_projects: tuple[Brain, Path]) -> tuple[Brain, Path]:
    """Both sessions read by phase 1 (a rollout summary each) and consolidated (MEMORY.md
    with a ``## shop`` and a ``## blog`` group, and the person's ``## yours``)."""
    brain, src = two_projects
    extracted = brain.extract(max_age_days=100_000)
    assert {o.status for o in extracted.sessions} == {"done"}, extracted
    brain.consolidate(force=True)
    memory_md = (brain.path / "MEMORY.md").read_text()
    assert "## shop" in memory_md and "## blog" in memory_md and "## yours" in memory_md
    return brain, src


# A view that only repeats a record among the hits is left out; each kind of view holds
# a word of its own here (a summary's "session", a section's heading "knowledge").
VIEWS_QUERY = "deploy session knowledge"


def _by_kind(brain: Brain, kind: str, project: str | None) -> list[str]:
    hits = brain.recall(VIEWS_QUERY, k=50, project=project).hits
    return [h.path for h in hits if h.kind == kind]


def test_a_project_keeps_its_own_session_summaries(learned: tuple[Brain, Path]) -> None:
    brain, _ = learned
    everywhere = _by_kind(brain, "rollout_summary", None)
    assert len(everywhere) == 2
    shop = _by_kind(brain, "rollout_summary", "shop")
    assert len(shop) == 1 and "shop" in (brain.path / shop[0]).read_text()
    blog = _by_kind(brain, "rollout_summary", "blog")
    assert len(blog) == 1 and blog != shop
    assert _by_kind(brain, "rollout_summary", "nosuch") == []


def test_a_project_keeps_its_own_memory_md_sections_and_the_persons_own(
    learned: tuple[Brain, Path],
) -> None:
    brain, _ = learned
    memory_md = (brain.path / "MEMORY.md").read_text()

    def groups(paths: list[str]) -> set[str]:
        from brain import markdown

        found = set()
        group = ""
        for i, section in enumerate(markdown.split(memory_md, (2, 3))[1:]):
            group = section.title if section.level == 2 else group
            if any(p.startswith(f"MEMORY.md#{i:03d}-") for p in paths):
                found.add(group)
        return found

    assert groups(_by_kind(brain, "memory_section", None)) == {"shop", "blog", "yours"}
    assert groups(_by_kind(brain, "memory_section", "shop")) == {"shop", "yours"}
    assert groups(_by_kind(brain, "memory_section", "blog")) == {"blog", "yours"}


def test_recall_dash_p_dot_leaves_out_another_projects_views(
    learned: tuple[Brain, Path],
) -> None:
    _, src = learned
    done = run_brain("recall", VIEWS_QUERY, "-p", ".", "-k", "50", "--json", cwd=src / "blog")
    assert done.returncode == 0, done.stderr
    hits = json.loads(done.stdout)
    kinds = {hit["kind"] for hit in hits}
    assert {"record", "memory_section", "rollout_summary"} <= kinds
    for hit in hits:
        text = hit["description"] + " " + hit["snippet"] + " " + hit["key"]
        assert "storefront" not in text.lower() and "-shop" not in hit["key"], hit


def test_an_index_made_before_views_carried_their_project_is_rebuilt(
    learned: tuple[Brain, Path],
) -> None:
    brain, _ = learned
    assert len(_by_kind(brain, "rollout_summary", "shop")) == 1  # the index is current
    brain.close()
    # As older code left it: summaries and sections untagged, the last migration not run.
    with sqlite3.connect(brain.state / "index.sqlite") as conn:
        conn.execute(
            "DELETE FROM doc_tags WHERE doc_id IN"
            " (SELECT id FROM docs WHERE kind IN ('rollout_summary', 'memory_section'))"
        )
        conn.execute("DELETE FROM migrations WHERE name = '0007_view_projects'")
    reopened = Brain.open(brain.path)
    assert len(_by_kind(reopened, "rollout_summary", "shop")) == 1
    reopened.close()
