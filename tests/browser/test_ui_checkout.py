"""``brain ui`` started inside a checkout reads it as ``brain review`` and ``brain stale``
run there do: its records' changed and deleted files."""

from __future__ import annotations

from pathlib import Path

from tests.browser.conftest import Serve
from tests.helpers import git
from tests.uihome import UiHome, build


def checkout_with_records(tmp_path: Path, home: Path) -> tuple[Path, UiHome]:
    """A checkout ``web`` whose two records' files then changed (pay.py) and went
    (legacy.py), and the home, built as the other pages' tests build it."""
    built = build(home, tmp_path / "sessions")
    web = tmp_path / "web"
    (web / "src").mkdir(parents=True)
    (web / "src" / "pay.py").write_text("RETRIES = 6\n")
    (web / "src" / "legacy.py").write_text("OLD = True\n")
    git(web, "init", "-q")
    git(web, "add", ".")
    git(web, "commit", "-qm", "A")
    brain = built.brain
    brain.remember("Payment retries are capped at six in src/pay.py", key="pay-web",
                   tags=("project:web",), where=web)  # fmt: skip
    brain.remember("The old checkout flow lives in src/legacy.py", key="legacy-web",
                   tags=("project:web",), where=web)  # fmt: skip
    (web / "src" / "pay.py").write_text("RETRIES = 8\n")
    (web / "src" / "legacy.py").unlink()
    git(web, "commit", "-qam", "B")
    return web, built


def test_the_overview_and_review_read_the_checkout_the_ui_runs_in(
    serve: Serve, tmp_path: Path
) -> None:
    web, built = checkout_with_records(tmp_path, tmp_path / "home")
    served = serve(built, cwd=web / "src")
    page = served.page
    served.go()
    cards = page.locator(".cards").inner_text().replace("\n", " ")
    # The two held memories, and the record every file of which went.
    assert "3 waiting for review" in cards
    stale = page.locator("table#stale").inner_text()
    assert "pay-web" in stale and "1 file changed" in stale
    assert "legacy-web" in stale and "all gone: held for review" in stale

    served.go("review")
    assert page.locator("article.held").count() == 3
    assert page.locator("article.held-record").count() == 1
    assert "legacy-web" in page.locator("article.held-record").inner_text()
