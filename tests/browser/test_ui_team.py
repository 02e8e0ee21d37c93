"""``brain ui``'s Team page in a real Chromium: propose a suggested record and two
others, then accept one proposal and reject another, each one commit on the team's
remote."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.browser.conftest import Serve
from tests.helpers import git
from tests.uihome import build


def test_propose_accept_and_reject_on_the_team_page(serve: Serve, tmp_path: Path) -> None:
    from brain.team import members

    remote = tmp_path / "team.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    built = build(tmp_path / "home", tmp_path / "sessions")
    brain = built.brain
    members.create(brain.path, str(remote), "acme", ("github.com/acme/*",))
    brain.remember("The staging database resets every Sunday", key="staging-resets")
    brain.remember("Indent with tabs in every file", key="tabs-everywhere")
    api = tmp_path / "api"
    api.mkdir()
    git(api, "init", "-q")
    git(api, "remote", "add", "origin", "git@github.com:acme/api.git")
    brain.remember("The api listens on 8080", key="api-port-api", tags=("project:api",))
    served = serve(built, cwd=api)
    page = served.page

    served.go("team")
    assert "github.com/acme/*" in page.locator("#team-acme").inner_text()
    # Suggested in the checkout the team covers, and sent only when pressed.
    assert git(remote, "branch", "--list", "proposals/*").strip() == ""
    page.locator("#suggest-api-port-api button").click()
    assert "Proposed api-port-api to team acme" in page.locator("#team-done").inner_text()
    assert page.locator("#suggested").count() == 0
    for key in ("staging-resets", "tabs-everywhere"):
        page.fill("#team-acme .propose-form input[name=key]", key)
        page.click("#team-acme .propose-form button")
        assert f"Proposed {key} to team acme" in page.locator("#team-done").inner_text()
    assert page.locator("article.proposal").count() == 3
    staging = page.locator("article.proposal", has_text="staging-resets")
    assert "+The staging database resets" in staging.inner_text()
    served.shot("team")

    staging.locator("button.accept").click()
    assert "Accepted staging-resets" in page.locator("#team-done").inner_text()
    tabs = page.locator("article.proposal", has_text="tabs-everywhere")
    tabs.locator("input[name=reason]").fill("we use black")
    tabs.locator("button.danger").click()
    assert "Rejected tabs-everywhere" in page.locator("#team-done").inner_text()
    assert page.locator("article.proposal").count() == 1  # api-port-api, still open

    log = git(remote, "log", "--format=%s", "main")
    assert "accept: staging-resets from Brain Test" in log
    assert "reject: tabs-everywhere from Brain Test: we use black" in log
    (left,) = git(remote, "branch", "--list", "proposals/*").split()
    assert left.startswith("proposals/brain-test/api-port-api-")
    assert served.left() == []
