"""A running process (the MCP server) keeps which teams cover a checkout and how far it
caught the index up with the team clones, and sees every change to either."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from brain.api import Brain
from brain.team import catalog, members, proposals, searching
from tests.helpers import git


@pytest.fixture
def joined(tmp_path: Path) -> tuple[Brain, Path]:
    """A home that made team acme, with one record shared, and a checkout acme covers."""
    remote = tmp_path / "team.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    brain, _ = Brain.init(tmp_path / "home")
    members.create(brain.path, str(remote), "acme", ("github.com/acme/*",))
    api = tmp_path / "api"
    api.mkdir()
    git(api, "init", "-q")
    git(api, "remote", "add", "origin", "https://github.com/acme/api.git")
    _share(brain, "staging-resets", "The staging database resets every Sunday")
    return brain, api


def _share(brain: Brain, key: str, text: str) -> None:
    brain.remember(text, key=key)
    proposals.accept(brain, proposals.propose(brain, key).id)
    brain.forget(key)


def _age(*folders: Path) -> None:
    """Date every file under ``folders`` a minute back: a file changed in the last two
    seconds is never trusted to a size and a time."""
    then = time.time_ns() - 60_000_000_000
    for folder in folders:
        for path in [folder, *folder.rglob("*")]:
            os.utime(path, ns=(then, then), follow_symlinks=False)


def test_a_change_of_remote_or_of_team_yaml_is_seen_by_the_next_recall(
    joined: tuple[Brain, Path],
) -> None:
    brain, api = joined
    team = brain.path / "teams" / "acme"
    _age(team, api / ".git")
    assert [h.key for h in brain.recall("staging database", where=api).hits] == ["staging-resets"]
    assert (str(brain.path), str(api)) in searching._COVERED  # kept for the next recall
    git(api, "remote", "set-url", "origin", "https://github.com/elsewhere/api.git")
    assert brain.recall("staging database", where=api).hits == ()
    git(api, "remote", "set-url", "origin", "https://github.com/acme/api.git")
    _age(api / ".git")
    assert [h.key for h in brain.recall("staging database", where=api).hits] == ["staging-resets"]
    spec = (team / "team.yaml").read_text()
    (team / "team.yaml").write_text(spec.replace("github.com/acme/*", "github.com/other/*"))
    assert brain.recall("staging database", where=api).hits == ()
    (team / "team.yaml").write_text(spec)
    # A folder of the checkout is covered, until a checkout of its own is made in it.
    (api / "sub").mkdir()
    _age(team, api)
    assert [h.key for h in brain.recall("staging", where=api / "sub").hits] == ["staging-resets"]
    assert (str(brain.path), str(api / "sub")) in searching._COVERED
    git(api / "sub", "init", "-q")
    assert brain.recall("staging database", where=api / "sub").hits == ()


def test_a_record_the_team_accepts_is_found_by_the_same_process(
    joined: tuple[Brain, Path],
) -> None:
    brain, api = joined
    _age(brain.path / "teams" / "acme", api / ".git")
    assert [h.key for h in brain.recall("staging database", where=api).hits] == ["staging-resets"]
    index, _ = brain.catalog.open(reuse=True)
    assert catalog._CAUGHT_UP[str(brain.path)][0] is index  # kept for the next recall
    _share(brain, "release-day", "Releases are cut on Tuesdays")
    assert [h.key for h in brain.recall("releases tuesdays", where=api).hits] == ["release-day"]
    members.leave(brain.path, "acme")
    assert brain.recall("releases tuesdays", where=api, sessions=True).hits == ()


def test_files_changed_just_now_are_read_again_each_time(joined: tuple[Brain, Path]) -> None:
    brain, api = joined
    team = brain.path / "teams" / "acme"
    _age(team, api / ".git")
    os.utime(team / ".git" / "HEAD")
    os.utime(api / ".git" / "config")
    assert [h.key for h in brain.recall("staging database", where=api).hits] == ["staging-resets"]
    # Written within the last two seconds: nothing is kept.
    assert str(brain.path) not in catalog._CAUGHT_UP
    assert (str(brain.path), str(api)) not in searching._COVERED


def test_a_process_keeps_the_folders_it_recalled_in_last(
    joined: tuple[Brain, Path], tmp_path: Path
) -> None:
    brain, _ = joined
    searching._COVERED.clear()
    folders = []
    for n in range(searching._KEPT + 6):
        folder = tmp_path / "many" / f"api{n}"
        (folder / ".git").mkdir(parents=True)
        remote = f'[remote "origin"]\n\turl = https://github.com/acme/api{n}.git\n'
        (folder / ".git" / "config").write_text(remote)
        folders.append(folder)
    _age(brain.path / "teams" / "acme", tmp_path / "many")
    for folder in folders:
        assert searching.covered(brain.path, folder) == {"acme"}
    kept = [Path(where) for _, where in searching._COVERED]
    assert kept == folders[-searching._KEPT :]
