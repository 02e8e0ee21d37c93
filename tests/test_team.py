"""The team layer piece by piece: team.yaml, which checkouts a team covers, joining and
leaving, proposals' refusals, and the team records kept in the personal index."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from brain.agents.context import context
from brain.agents.mcp_tools import TOOLS
from brain.api import Brain
from brain.team import members, proposals
from brain.team import spec as spec_mod
from brain.team.catalog import META_TEAMS
from brain.team.reading import covering
from tests.helpers import cli, git


@pytest.mark.parametrize(
    ("url", "spelled"),
    [
        ("https://github.com/Acme/API.git", "github.com/acme/api"),
        ("git@github.com:acme/api.git", "github.com/acme/api"),
        ("ssh://git@github.com:22/acme/api", "github.com/acme/api"),
        ("https://user:pw@gitlab.example.com/acme/sub/api/", "gitlab.example.com/acme/sub/api"),
        ("file:///srv/git/api.git", "/srv/git/api"),
        ("/srv/git/api.git", "/srv/git/api"),
    ],
)
def test_a_remote_url_is_compared_in_one_spelling(url: str, spelled: str) -> None:
    assert spec_mod.normalize_url(url) == spelled


def test_a_team_covers_the_remotes_its_patterns_match() -> None:
    team = spec_mod.TeamSpec("acme", ("github.com/acme/*", "git@gitlab.com:ops/deploy.git"))
    assert spec_mod.covers(team, ("https://github.com/acme/api.git",))
    assert spec_mod.covers(team, ("https://gitlab.com/ops/deploy",))
    assert not spec_mod.covers(team, ("https://github.com/acme-labs/api.git",))
    assert not spec_mod.covers(team, ())


def test_team_yaml_reads_back_as_written_and_as_a_person_writes_it(tmp_path: Path) -> None:
    made = spec_mod.TeamSpec("acme", ("github.com/acme/*", 'odd "quoted" pattern'))
    (tmp_path / "team.yaml").write_text(spec_mod.render(made))
    assert spec_mod.read(tmp_path) == made
    (tmp_path / "team.yaml").write_text("name: acme  # ours\nprojects: [github.com/acme/*]\n")
    assert spec_mod.read(tmp_path) == spec_mod.TeamSpec("acme", ("github.com/acme/*",))
    (tmp_path / "team.yaml").write_text("projects: 3\n")
    with pytest.raises(spec_mod.TeamSpecError, match="names no team"):
        spec_mod.read(tmp_path)


def test_a_checkouts_remotes_are_read_from_its_config_and_its_worktrees(tmp_path: Path) -> None:
    repo = tmp_path / "api"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "remote", "add", "origin", "git@github.com:acme/api.git")
    git(repo, "remote", "add", "fork", "https://github.com/me/api")
    git(repo, "commit", "-q", "--allow-empty", "-m", "first")
    git(repo, "worktree", "add", "-q", str(tmp_path / "wt"))
    wanted = ("git@github.com:acme/api.git", "https://github.com/me/api")
    assert spec_mod.remote_urls(repo) == wanted
    assert spec_mod.remote_urls(tmp_path / "wt") == wanted


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Brain, Path, Path]:
    """A home that made team acme on a bare remote, and a checkout acme covers."""
    remote = tmp_path / "team.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    brain, _ = Brain.init(tmp_path / "home")
    members.create(brain.path, str(remote), "acme", ("github.com/acme/*",))
    api = tmp_path / "api"
    api.mkdir()
    git(api, "init", "-q")
    git(api, "remote", "add", "origin", "https://github.com/acme/api.git")
    return brain, remote, api


def _share(brain: Brain, key: str, text: str, **kw: object) -> None:
    brain.remember(text, key=key, **kw)  # type: ignore[arg-type]
    done = proposals.propose(brain, key)
    proposals.accept(brain, done.id)
    brain.forget(key)  # the team's copy alone from here on


def test_joining_keeps_the_personal_home_clean(setup: tuple[Brain, Path, Path]) -> None:
    brain, _, api = setup
    assert git(brain.path, "status", "--porcelain") == ""
    assert [c.name for c in covering(brain.path, api / "src")] == []  # no such folder
    (api / "src").mkdir()
    assert [c.name for c in covering(brain.path, api / "src")] == ["acme"]


def test_joining_what_is_no_team_leaves_nothing_behind(tmp_path: Path, home: Path) -> None:
    cli("init")
    other = tmp_path / "other.git"
    subprocess.run(["git", "init", "-q", "--bare", str(other)], check=True)
    result = cli("team", "join", str(other))
    assert result.exit_code == 1
    assert "cannot join" in result.stderr
    assert [p.name for p in (home / "teams").iterdir()] == []


def test_a_team_name_must_be_one(setup: tuple[Brain, Path, Path]) -> None:
    brain, remote, _ = setup
    result = cli("team", "join", str(remote))
    assert result.exit_code == 1
    assert "a team 'acme' is joined here already" in result.stderr
    result = cli("team", "create", str(remote), "--name", "Acme Corp")
    assert result.exit_code == 1
    assert "'Acme Corp' cannot name a team" in result.stderr


def test_what_cannot_be_proposed_or_closed_is_refused(setup: tuple[Brain, Path, Path]) -> None:
    brain, remote, _ = setup
    with pytest.raises(members.TeamError, match="no record 'nothing' to propose"):
        proposals.propose(brain, "nothing")
    brain.remember("Deploys need Node 20", key="node-version")
    done = proposals.propose(brain, "node-version")
    with pytest.raises(members.TeamError, match="needs a reason"):
        proposals.reject(brain, done.id, "  ")
    with pytest.raises(members.TeamError, match="no open proposal 'beef'"):
        proposals.accept(brain, "beef")
    assert git(remote, "branch", "--list", "proposals/*").strip() == f"{done.branch}"


def test_a_proposal_carries_its_provenance(setup: tuple[Brain, Path, Path]) -> None:
    brain, remote, _ = setup
    brain.remember("Deploys need Node 20", key="node-version", source="codex:session:abc")
    made = brain.show("node-version").record
    done = proposals.propose(brain, "node-version")
    text = git(remote, "show", f"{done.branch}:memories/node-version.md")
    assert "proposed_by: Brain Test" in text and f"proposed_from: {made.id}" in text
    assert "source: codex:session:abc" in text
    assert "Proposed-by: Brain Test" in git(remote, "log", "-1", "--format=%B", done.branch)


def test_team_records_enter_the_index_a_commit_at_a_time(
    setup: tuple[Brain, Path, Path],
) -> None:
    brain, _, api = setup
    _share(brain, "staging-resets", "The staging database resets every Sunday")
    assert [h.key for h in brain.recall("staging database", where=api).hits] == ["staging-resets"]
    db = brain.state / "index.sqlite"

    def team_rows() -> dict[str, int]:
        with sqlite3.connect(db) as conn:
            rows = conn.execute("SELECT path, id FROM docs WHERE kind = 'team'").fetchall()
        return dict(rows)

    before = team_rows()
    _share(brain, "release-day", "Releases are cut on Tuesdays")
    assert [h.key for h in brain.recall("releases tuesdays", where=api).hits] == ["release-day"]
    after = team_rows()
    # The record already indexed kept its row: only what the commit changed was read.
    assert (
        after["teams/acme/memories/staging-resets.md"]
        == (before["teams/acme/memories/staging-resets.md"])
    )
    with sqlite3.connect(db) as conn:
        (meta,) = conn.execute("SELECT value FROM meta WHERE name = ?", (META_TEAMS,)).fetchone()
    assert json.loads(meta) == {"acme": git(brain.path / "teams/acme", "rev-parse", "HEAD").strip()}
    # Elsewhere the team is not searched at all.
    assert brain.recall("releases tuesdays", where=brain.path).hits == ()
    members.leave(brain.path, "acme")
    assert brain.recall("releases tuesdays", where=api, sessions=True).hits == ()
    assert team_rows() == {}


def test_a_team_record_tagged_with_a_project_shows_in_it_alone(
    setup: tuple[Brain, Path, Path], tmp_path: Path
) -> None:
    brain, _, api = setup
    _share(brain, "api-port", "The api listens on 8080", tags=["project:api"])
    web = tmp_path / "web"
    web.mkdir()
    git(web, "init", "-q")
    git(web, "remote", "add", "origin", "https://github.com/acme/web.git")
    assert "api-port [team acme]" in context(brain, project=api).text
    assert "api-port" not in context(brain, project=web).text


def test_mcp_reads_a_team_record_in_a_covered_checkout(setup: tuple[Brain, Path, Path]) -> None:
    brain, _, api = setup
    _share(brain, "release-day", "Releases are cut on Tuesdays")
    read = TOOLS["read"].body
    found = read(brain.path, api, key="release-day")
    assert found["team"] == "acme" and found["body"].strip() == "Releases are cut on Tuesdays"
    with pytest.raises(Exception, match="release-day"):
        read(brain.path, brain.path, key="release-day")


def test_sync_pulls_the_teams_of_a_home_with_no_remote(
    setup: tuple[Brain, Path, Path], tmp_path: Path
) -> None:
    brain, remote, _ = setup
    other, _ = Brain.init(tmp_path / "other")
    members.join(other.path, str(remote))
    brain.remember("Releases are cut on Tuesdays", key="release-day")
    proposals.accept(brain, proposals.propose(brain, "release-day").id)
    result = cli("--home", str(other.path), "sync")
    assert result.exit_code == 0, result.stderr
    assert "team acme: pulled to" in result.stdout
    assert (other.path / "teams/acme/memories/release-day.md").is_file()


def test_pr_says_why_no_request_was_opened_on_a_plain_remote(
    setup: tuple[Brain, Path, Path],
) -> None:
    brain, remote, _ = setup
    brain.remember("Deploys need Node 20", key="node-version")
    result = cli("team", "propose", "node-version", "--pr")
    assert result.exit_code == 0, result.stderr
    assert "pull request: not opened: the team's remote is neither on GitHub nor on GitLab" in (
        result.stdout
    )
    assert (
        git(remote, "branch", "--list", "proposals/*").strip().startswith("proposals/brain-test/")
    )


def test_records_of_a_covered_project_are_suggested_and_never_sent(
    setup: tuple[Brain, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from brain.team.suggest import suggestions

    brain, remote, api = setup
    brain.remember("The api listens on 8080", key="api-port-api", tags=["project:api"])
    brain.remember("Use tabs", key="tabs", type="preference", tags=["project:api"])
    brain.remember("I like short commits", key="short-commits")  # the person's own
    assert [s.key for s in suggestions(brain, api)] == ["api-port-api"]
    assert git(remote, "branch", "--list", "proposals/*").strip() == ""
    assert suggestions(brain, brain.path) == []  # no team covers the home's folder

    done = proposals.propose(brain, "api-port-api")
    assert suggestions(brain, api) == []  # proposed, still open
    proposals.reject(brain, done.id, "not yet")
    monkeypatch.chdir(api)
    shown = cli("team", "suggest").stdout
    assert shown.startswith("api-port-api [fact] for team acme: The api listens on 8080\n")
    assert "(nothing was sent)" in shown
    proposals.accept(brain, proposals.propose(brain, "api-port-api").id)
    members.sync(brain.path)
    assert suggestions(brain, api) == []  # the team says it in the same words
    result = cli("team", "suggest")
    assert result.stdout == "nothing to suggest here\n"
