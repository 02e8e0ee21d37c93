"""brain recall --project: one project's records and sessions, and the person's own."""

from __future__ import annotations

import json
import os
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
            ("user", "How do we deploy the storefront?"),
            ("assistant", "The storefront deploy runs make release on the build host."),
            cwd=str(src / "shop" / "web"),
        ),
        claude_transcript(
            tmp_path / "blog.jsonl",
            ("user", "How do we deploy the blog?"),
            ("assistant", "The blog deploy is a push to the pages branch."),
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
