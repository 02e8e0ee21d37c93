"""``brain ui`` in a real Chromium: browse, search, provenance, edit, review, undo, and
records whose text is hostile (no script runs, nothing is loaded from anywhere)."""

from __future__ import annotations

import re

import pytest

from brain.home.records import load
from brain.pipeline.runs import read_raw
from tests.browser.conftest import Served
from tests.helpers import git
from tests.uihome import PREFERENCE


def done_commit(served: Served) -> str:
    """The commit the page says it just made (and the home's HEAD)."""
    note = served.page.locator("#done")
    note.wait_for()
    sha = note.locator("code").inner_text()
    head = git(served.home.brain.path, "rev-parse", "HEAD").strip()
    assert head.startswith(sha), (sha, head)
    return head


def test_browse_search_and_follow_a_record_to_the_turn_it_was_learned_in(
    served: Served,
) -> None:
    page = served.page
    served.go()
    assert page.title() == "brain"
    cards = page.locator(".cards").inner_text()
    assert "4 records" in cards.replace("\n", " ")
    assert "2 waiting for review" in cards.replace("\n", " ")
    assert page.locator("svg.chart rect.learned").count() == 12
    assert page.locator("svg.chart rect.used title").last.text_content().endswith(": 1 used")
    assert page.locator("header .home").inner_text() == "~/.local/share/brain"
    served.shot("overview")

    page.click("nav >> text=Records")
    assert page.locator("table.records tbody tr").count() == 4
    served.shot("records")
    page.fill("#q", "pnpm")  # the list follows the typing, no button pressed
    page.locator("#count", has_text="found for “pnpm”").wait_for()
    keys = page.locator("table.records a.key").all_inner_texts()
    assert keys[0] == served.home.learned_key  # best first, as brain recall ranks them
    assert "q=pnpm" in page.url
    served.shot("search")

    page.click(f"a.key >> text={served.home.learned_key}")
    assert page.locator("h1 .key").inner_text() == served.home.learned_key
    link = page.locator("a.provenance")
    assert link.inner_text() == f"brain:{served.home.session_id}, turn 5"
    assert page.locator("details.commit").count() >= 1  # its history, as diffs
    served.shot("record")

    link.click()
    focus = page.locator("li.turn.focus")
    assert focus.get_attribute("id") == "turn-5"
    assert PREFERENCE in focus.inner_text()
    assert page.locator("li.turn").count() == 7  # three turns either side
    served.shot("session")
    assert served.left() == []


@pytest.mark.no_javascript
def test_reading_needs_no_javascript(served: Served) -> None:
    page = served.page
    served.go("records?q=pnpm")
    assert page.locator("table.records a.key").first.inner_text() == served.home.learned_key
    served.go(f"record/{served.home.learned_key}")
    assert "pnpm" in page.locator("#body").inner_text()
    served.go("runs")
    assert page.locator("table.runs tbody tr").count() == 2


def test_an_edit_is_one_commit_and_the_page_shows_it(served: Served) -> None:
    page, brain = served.page, served.home.brain
    served.go("record/formatter")
    page.click("a.button >> text=Edit")
    text = page.locator("#text").input_value()
    page.fill("#text", text.replace("Use ruff format, not black.", "Use ruff format, never black."))
    page.click("button >> text=Save and commit")

    head = done_commit(served)
    assert page.locator("#done").inner_text().endswith("edit: formatter")
    assert git(brain.path, "log", "-1", "--format=%s", head).strip() == "edit: formatter"
    assert load(brain.record_path("formatter")).body == "Use ruff format, never black."
    assert page.locator("#body").inner_text() == "Use ruff format, never black."
    served.shot("edited")

    page.click("#done a")  # the commit's own page: its diff
    assert "+Use ruff format, never black." in page.locator("pre.diff").inner_text()


def test_a_bad_edit_is_refused_on_the_page_and_nothing_changes(served: Served) -> None:
    page, brain = served.page, served.home.brain
    head = git(brain.path, "rev-parse", "HEAD")
    served.go("record/formatter/edit")
    page.fill("#text", "---\nkey: [unclosed\n---\nbody\n")
    page.click("button >> text=Save and commit")
    assert page.locator("p.error").count() == 1
    assert git(brain.path, "rev-parse", "HEAD") == head


def test_archive_restore_and_forget(served: Served) -> None:
    page, brain = served.page, served.home.brain
    served.go("record/deploy-day")
    page.click("button >> text=Archive")
    assert done_commit(served)
    assert page.locator("h1 .tag").inner_text() == "archived"
    assert brain.record_path("deploy-day", archived=True).exists()
    page.click("button >> text=Restore")
    done_commit(served)
    assert brain.record_path("deploy-day").exists()
    page.click("button >> text=Forget")  # asks first; the listener says yes
    done_commit(served)
    assert served.dialogs and served.dialogs[-1].startswith("confirm: Forget this record?")
    assert not brain.record_path("deploy-day").exists()
    assert "forget: deploy-day" in page.locator("#done").inner_text()


def test_accept_and_reject_in_review(served: Served) -> None:
    page, brain = served.page, served.home.brain
    first, second = served.home.held
    served.go("review")
    assert page.locator("article.held").count() == 2
    link = page.locator("article.held").first.locator("a")
    assert link.inner_text() == f"brain:{served.home.session_id}, turn 4"
    served.shot("review")

    page.locator("article.held", has_text=first).locator('button >> text="Accept"').click()
    done_commit(served)
    assert "review: 1 accepted, 0 rejected" in page.locator("#done").inner_text()
    page.locator("article.held", has_text=second).locator('button >> text="Reject"').click()
    done_commit(served)
    assert "review: 0 accepted, 1 rejected" in page.locator("#done").inner_text()
    assert page.locator("#nothing-held").count() == 1

    assert brain.review().held == ()
    again = [m for m in read_raw(brain) if m.key == first]
    assert len(again) == 2 and "review:pending" not in again[-1].tags  # through to phase 2
    assert [m for m in read_raw(brain) if m.key == second][-1].tags[0] == "review:pending"


def test_undo_a_run(served: Served) -> None:
    page, brain = served.page, served.home.brain
    key = served.home.learned_key
    served.go("runs")
    served.shot("runs")
    page.click("table.runs a >> nth=0")  # the newest: the consolidation
    assert page.locator("h1").inner_text().startswith("consolidate run")
    assert f"memories/{key}.md" in page.locator("ul.files").inner_text()
    served.shot("run")
    page.click("button >> text=Undo this run")

    head = done_commit(served)
    message = git(brain.path, "log", "-1", "--format=%s", head).strip()
    assert re.fullmatch(r"undo: consolidate run \S+ \([0-9a-f]{9}\)", message)
    assert page.locator("h1 .tag").inner_text() == "undone"
    assert page.locator("button >> text=Undo this run").count() == 0
    assert not brain.record_path(key).exists()
    served.go("runs")
    assert page.locator("tr.undone").count() == 1


def test_hostile_record_text_shows_as_text_and_loads_nothing(served: Served) -> None:
    page = served.page
    for where in (
        "",
        "records",
        "records?q=ignore+beacon",
        "record/hostile-note",
        "commit/" + git(served.home.brain.path, "rev-parse", "HEAD").strip(),
    ):
        served.go(where)
        assert page.evaluate("window.__pwned === undefined"), where
        # The record's markup is text: no element of it exists in the page.
        for selector in (
            "main img",
            "main iframe",
            "main style",
            "main script",
            "a[href^='javascript:']",
        ):
            assert page.locator(selector).count() == 0, (where, selector)
    served.go("record/hostile-note")
    body = page.locator("#body").inner_text()
    assert "<script>window.__pwned = 1; alert('script')</script>" in body
    assert "![beacon](http://203.0.113.9/md-beacon.png)" in body
    served.shot("hostile")
    served.go("records?q=beacon")
    page.fill("#q", "ignore script beacon")  # the live search inserts a fragment
    page.locator("#count", has_text="“ignore script beacon”").wait_for()
    assert page.locator("table.records a.key").first.inner_text() == "hostile-note"
    assert page.evaluate("window.__pwned === undefined")

    assert served.dialogs == []
    assert served.left() == []
    assert not [m for m in served.console if "Content Security Policy" in m]


def test_edit_a_held_memory_in_review_and_see_the_commit(served: Served) -> None:
    page, brain = served.page, served.home.brain
    first, _ = served.home.held
    served.go("review")
    held = page.locator("article.held", has_text=first)
    held.locator("details.edit summary").click()
    form = held.locator("form.held-edit")
    form.locator("input[name=description]").fill("Install tools from the distro's packages")
    form.locator("textarea[name=body]").fill("Install tools with apt, never with curl | sh.")
    served.shot("review-edit")
    form.locator("button >> text=Save, still held").click()

    head = done_commit(served)
    assert page.locator("#done").inner_text().endswith(f"review: edited {first}")
    edited = page.locator("article.held", has_text=first)
    assert (
        edited.locator("pre.body").inner_text() == "Install tools with apt, never with curl | sh."
    )
    assert [m.body for m in brain.review().held if m.key == first] == [
        "Install tools with apt, never with curl | sh."
    ]
    page.click("#done a")  # the commit's own page: the edit replaces the held text
    assert (
        "+> Install tools with apt, never with curl | sh." in page.locator("pre.diff").inner_text()
    )
    assert git(brain.path, "log", "-1", "--format=%s", head).strip() == f"review: edited {first}"

    served.go("review")
    edited = page.locator("article.held", has_text=first)
    edited.locator("details.edit summary").click()
    edited.locator("select[name=type]").select_option("preference")
    edited.locator("button >> text=Save and accept").click()
    done_commit(served)
    assert page.locator("#done").inner_text().endswith(f"review: edited and accepted {first}")
    assert page.locator("article.held", has_text=first).count() == 0
    [accepted] = [m for m in read_raw(brain) if m.key == first][-1:]
    assert accepted.type == "preference" and "review:accepted" in accepted.tags
    assert served.left() == []


def test_a_forget_is_undone_on_the_page_and_at_the_record_s_address(served: Served) -> None:
    page, brain = served.page, served.home.brain
    before = load(brain.record_path("formatter"))
    served.go("record/formatter")
    page.click("button >> text=Forget")
    forgot = done_commit(served)
    assert not brain.record_path("formatter").exists()
    served.shot("forgotten-note")
    page.locator("#done").locator("button >> text=Restore").click()  # the note offers it
    head = done_commit(served)
    message = git(brain.path, "log", "-1", "--format=%s", head).strip()
    assert message == f"restore: formatter (forgotten in {forgot[:9]})"
    assert load(brain.record_path("formatter")).body == before.body
    assert page.locator("h1 .key").inner_text() == "formatter"
    assert page.locator("#done button").count() == 0  # nothing left to restore

    served.go("record/formatter")
    page.click("button >> text=Forget")
    forgot = done_commit(served)
    served.go("records")  # later: the note is gone, the record's address still leads back
    assert page.locator("#done").count() == 0
    served.go("record/formatter")
    assert page.locator("h1 .tag").inner_text() == "forgotten"
    assert forgot[:9] in page.locator("#forgotten").inner_text()
    assert page.locator("#body").inner_text() == before.body
    served.shot("forgotten")
    page.click("main .actions button >> text=Restore")
    done_commit(served)
    assert load(brain.record_path("formatter")).id == before.id
    assert page.locator("h1 .tag").count() == 0
    served.go("record/never-was")
    assert page.locator("p.error").count() == 1
