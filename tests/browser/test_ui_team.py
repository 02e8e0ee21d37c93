"""``brain ui``'s Team page in a real Chromium: propose a record, then accept one
proposal and reject another, each one commit on the team's remote."""

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
    served = serve(built)
    page = served.page

    served.go("team")
    assert "github.com/acme/*" in page.locator("#team-acme").inner_text()
    for key in ("staging-resets", "tabs-everywhere"):
        page.fill("#team-acme .propose-form input[name=key]", key)
        page.click("#team-acme .propose-form button")
        assert f"Proposed {key} to team acme" in page.locator("#team-done").inner_text()
    assert page.locator("article.proposal").count() == 2
    assert "+The staging database resets" in page.locator("article.proposal").first.inner_text()
    served.shot("team")

    staging = page.locator("article.proposal", has_text="staging-resets")
    staging.locator("button.accept").click()
    assert "Accepted staging-resets" in page.locator("#team-done").inner_text()
    tabs = page.locator("article.proposal", has_text="tabs-everywhere")
    tabs.locator("input[name=reason]").fill("we use black")
    tabs.locator("button.danger").click()
    assert "Rejected tabs-everywhere" in page.locator("#team-done").inner_text()
    assert page.locator("article.proposal").count() == 0

    log = git(remote, "log", "--format=%s", "main")
    assert "accept: staging-resets from Brain Test" in log
    assert "reject: tabs-everywhere from Brain Test: we use black" in log
    assert git(remote, "branch", "--list", "proposals/*").strip() == ""
    assert served.left() == []
