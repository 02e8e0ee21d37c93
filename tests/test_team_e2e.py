"""A team's memory end to end: three homes, one bare remote, brain run as a program.

Ann makes the team, Bob and Cat join it. Each step is a real ``brain`` process with its
own home and git identity, and the checks look at what the next session start prints
(the hook Claude Code runs) and at the team's repository itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import git

TOKEN = "ghp_Xk3Jv9Qm2Lp8Rt5Wz1Yb7Nc4Hd6Fg0Sa2Ue"


class Member:
    """One person: a home, a git identity, and brain run as them."""

    def __init__(self, root: Path, name: str) -> None:
        self.name = name
        self.home = root / name.lower()
        self.env = {
            **os.environ,
            "BRAIN_HOME": str(self.home),
            "GIT_AUTHOR_NAME": name,
            "GIT_AUTHOR_EMAIL": f"{name.lower()}@example.invalid",
            "GIT_COMMITTER_NAME": name,
            "GIT_COMMITTER_EMAIL": f"{name.lower()}@example.invalid",
        }

    def run(self, *args: str, cwd: Path | None = None, ok: bool = True, stdin: str = "") -> str:
        done = subprocess.run(
            [sys.executable, "-m", "brain", *args],
            capture_output=True,
            text=True,
            env=self.env,
            cwd=cwd,
            input=stdin,
        )
        if ok:
            assert done.returncode == 0, done.stdout + done.stderr
        else:
            assert done.returncode == 1, done.stdout + done.stderr
        return done.stdout + done.stderr

    def session_start(self, cwd: Path) -> str:
        """What Claude Code's session-start hook hands the agent in ``cwd``."""
        payload = json.dumps({"cwd": str(cwd), "session_id": "s1", "hook_event_name": "x"})
        out = self.run("hook", "session-start", "--tool", "claude-code", stdin=payload)
        return str(json.loads(out)["hookSpecificOutput"]["additionalContext"])

    def proposal_id(self, key: str) -> str:
        found = json.loads(self.run("team", "review", "--json"))
        return next(p["id"] for p in found if p["key"] == key)


def _checkout(path: Path, url: str) -> Path:
    path.mkdir()
    git(path, "init", "-q")
    git(path, "remote", "add", "origin", url)
    return path


@pytest.fixture
def team(tmp_path: Path) -> tuple[Path, list[Member], Path, Path]:
    remote = tmp_path / "team.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    people = [Member(tmp_path, n) for n in ("Ann", "Bob", "Cat")]
    for person in people:
        person.run("init")
    ann, bob, cat = people
    ann.run("team", "create", str(remote), "--name", "acme", "--project", "github.com/acme/*")
    bob.run("team", "join", str(remote))
    cat.run("team", "join", str(remote))
    api = _checkout(tmp_path / "api", "git@github.com:acme/api.git")
    blog = _checkout(tmp_path / "blog", "https://github.com/cat/blog.git")
    return remote, people, api, blog


def test_an_accepted_proposal_reaches_the_covered_project_only(team) -> None:
    remote, (ann, bob, cat), api, blog = team
    ann.run("remember", "The staging database resets every Sunday", "--key", "staging-resets")
    assert "proposed staging-resets" in ann.run("team", "propose", "staging-resets")
    review = bob.run("team", "review")
    assert "staging-resets  by Ann" in review and "+The staging database resets" in review

    bob.run("team", "accept", bob.proposal_id("staging-resets"))

    message = git(remote, "log", "-1", "--format=%B", "main")
    assert message.startswith("accept: staging-resets from Ann")
    assert "Reviewed-by: Bob" in message
    assert len(git(remote, "log", "-1", "--format=%P", "main").split()) == 2  # a merge
    assert git(remote, "branch", "--list", "proposals/*").strip() == ""
    for person in (bob, cat):
        person.run("sync")
        assert "staging-resets [team acme]" in person.session_start(api)
        assert "staging-resets" not in person.session_start(blog)
        found = person.run("recall", "staging database", cwd=api)
        assert "staging-resets" in found and "(team acme)" in found
        assert "staging-resets" not in person.run("recall", "staging database", cwd=blog)
    # Ann's own record wins for her, and her context says so.
    ann.run("sync")
    assert "staging-resets: yours is listed, not team acme's version" in ann.session_start(api)


def test_a_rejected_proposal_reaches_nobody(team) -> None:
    remote, (ann, bob, cat), api, _ = team
    cat.run("remember", "Indent with tabs in every file", "--key", "tabs-everywhere")
    cat.run("team", "propose", "tabs-everywhere")

    ann.run("team", "reject", ann.proposal_id("tabs-everywhere"), "--reason", "we use black")

    assert git(remote, "branch", "--list", "proposals/*").strip() == ""
    assert "tabs-everywhere" not in git(remote, "ls-tree", "-r", "--name-only", "main")
    journal = git(remote, "show", "main:journal.jsonl")
    assert json.loads(journal)["reason"] == "we use black"
    assert "reject: tabs-everywhere from Cat: we use black" in git(remote, "log", "main")
    for person in (ann, bob):
        person.run("sync")
        assert "tabs-everywhere" not in person.session_start(api)
    assert "no open proposals" in bob.run("team", "review")


def test_a_secret_in_a_proposed_record_never_reaches_the_team(team) -> None:
    remote, (ann, *_), _, _ = team
    ann.run("remember", "CI pushes with the deploy bot", "--key", "ci-deploy-bot")
    record = ann.home / "memories" / "ci-deploy-bot.md"
    # Written by hand behind brain's back: the personal copy holds the token.
    record.write_text(record.read_text().replace("deploy bot", f"deploy bot, token {TOKEN}"))
    git(ann.home, "commit", "-qam", "hand edit")

    out = ann.run("team", "propose", "ci-deploy-bot")

    assert "redacted" in out
    everything = git(remote, "log", "--all", "-p")
    assert "ci-deploy-bot" in everything and TOKEN not in everything
    assert "[REDACTED:github_token]" in everything


def test_two_members_proposing_one_key_meet_a_conflict(team) -> None:
    remote, (ann, bob, cat), _, _ = team
    bob.run("remember", "Deploys need Node 20", "--key", "node-version")
    cat.run("remember", "Deploys need Node 22", "--key", "node-version")
    bob.run("team", "propose", "node-version")
    cat.run("team", "propose", "node-version")
    review = json.loads(ann.run("team", "review", "--json"))
    first = next(p["id"] for p in review if p["proposer"] == "Bob")
    second = next(p["id"] for p in review if p["proposer"] == "Cat")

    ann.run("team", "accept", first)
    refused = ann.run("team", "accept", second, ok=False)

    assert "changed since" in refused and "it was not merged" in refused
    assert "Node 20" in git(remote, "show", "main:memories/node-version.md")
    assert "CONFLICT" in ann.run("team", "review")
    # Cat's version is still there to resolve: nothing was lost.
    (branch,) = git(remote, "branch", "--list", "proposals/*").split()
    assert "Node 22" in git(remote, "show", f"{branch}:memories/node-version.md")


def test_a_member_who_leaves_stops_seeing_the_team(team) -> None:
    _, (ann, bob, cat), api, _ = team
    ann.run("remember", "Releases are cut on Tuesdays", "--key", "release-day")
    ann.run("team", "propose", "release-day")
    bob.run("team", "accept", bob.proposal_id("release-day"))
    cat.run("sync")
    assert "release-day [team acme]" in cat.session_start(api)
    assert "release-day" in cat.run("recall", "releases tuesdays", cwd=api)

    cat.run("team", "leave", "acme")

    assert "release-day" not in cat.session_start(api)
    assert "release-day" not in cat.run("recall", "releases tuesdays", cwd=api)
    assert "no team joined" in cat.run("team", "list")
