"""``brain ui`` over HTTP: what every request must carry, what a change does, and how
hostile record text comes back. A real server on 127.0.0.1 and a real home; the pages in
a real browser are tests/browser/."""

from __future__ import annotations

import http.client
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

from brain.api import Brain
from brain.ui.app import make_server
from brain.ui.server import CSP, UiServer
from tests.helpers import cli, commit_count, git
from tests.uihome import HOSTILE


class Client:
    """Plain HTTP to the server, with the headers a test chooses."""

    def __init__(self, server: UiServer) -> None:
        self.server = server
        self.host = f"127.0.0.1:{server.port}"
        self.prefix = urlsplit(server.url).path.rstrip("/")

    def request(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        token: bool = True,
    ) -> tuple[int, dict[str, str], str]:
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        sent = {"Host": self.host, **(headers or {})}
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, (self.prefix if token else "") + path, body, sent)
        response = connection.getresponse()
        text = response.read().decode("utf-8")
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text

    def get(self, path: str, **kwargs: object) -> tuple[int, dict[str, str], str]:
        return self.request("GET", path, **kwargs)  # type: ignore[arg-type]

    def post(
        self, path: str, form: dict[str, str], **kwargs: object
    ) -> tuple[int, dict[str, str], str]:
        return self.request("POST", path, form=form, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def brain(home: Path) -> Brain:
    brain = Brain.init(home)[0]
    brain.remember("Use ruff format, not black.", key="formatter", type="preference")
    brain.remember(HOSTILE, key="hostile-note")
    return brain


@pytest.fixture
def client(brain: Brain) -> Iterator[Client]:
    server, app = make_server(brain.path)
    server.start()
    yield Client(server)
    server.shutdown()
    app.close()


def csrf(client: Client) -> str:
    return client.server.csrf


def test_it_listens_on_loopback_with_a_token_in_the_address(client: Client) -> None:
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]{24}/", client.server.url)
    status, headers, text = client.get("/")
    assert status == 200 and "What brain remembers" in text
    assert headers["content-security-policy"] == CSP
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", ["/", "/records", "/static/ui.js", "/x/records"])
def test_a_request_without_the_token_is_refused(client: Client, path: str) -> None:
    status, headers, text = client.get(path, token=False)
    assert status == 403
    assert text == "this address needs the token 'brain ui' printed\n"
    assert headers["content-security-policy"] == CSP


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:{port}", "127.0.0.1.nip.io:{port}", "127.0.0.1:1", ""]
)
def test_another_host_header_is_refused(client: Client, host: str) -> None:
    status, _, text = client.get("/", headers={"Host": host.format(port=client.server.port)})
    assert status == 421
    assert "only at 127.0.0.1 or localhost" in text


def test_localhost_is_a_host_it_answers_to(client: Client) -> None:
    status, _, _ = client.get("/", headers={"Host": f"localhost:{client.server.port}"})
    assert status == 200


def test_a_write_without_the_csrf_token_changes_nothing(client: Client, brain: Brain) -> None:
    commits = commit_count(brain.path)
    for form in ({}, {"csrf": "guess"}, {"csrf": client.server.token}):
        status, _, text = client.post("/record/formatter/forget", form)
        assert status == 403 and "out of date" in text
    assert commit_count(brain.path) == commits
    assert brain.record_path("formatter").exists()


@pytest.mark.parametrize(
    "headers",
    [{"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
     {"Origin": "http://evil.example"}, {"Origin": "null"}],
)  # fmt: skip
def test_a_write_from_another_site_changes_nothing(
    client: Client, brain: Brain, headers: dict[str, str]
) -> None:
    commits = commit_count(brain.path)
    status, _, text = client.post(
        "/record/formatter/forget", {"csrf": csrf(client)}, headers=headers
    )
    assert status == 403 and "brain ui's own page" in text
    assert commit_count(brain.path) == commits


def test_a_get_never_writes(client: Client, brain: Brain) -> None:
    commits = commit_count(brain.path)
    status, _, text = client.get("/record/formatter/forget")
    assert status == 404 and "no page" in text
    assert client.request("PUT", "/record/formatter/forget")[0] == 405
    assert commit_count(brain.path) == commits


def test_archive_restore_forget_each_commit_once_and_say_which(
    client: Client, brain: Brain
) -> None:
    for verb, message in (("archive", "archive: formatter"), ("restore", "restore: formatter"),
                          ("forget", "forget: formatter")):  # fmt: skip
        commits = commit_count(brain.path)
        origin = {"Origin": f"http://127.0.0.1:{client.server.port}"}
        status, headers, _ = client.post(
            f"/record/formatter/{verb}", {"csrf": csrf(client)}, headers=origin
        )
        assert status == 303
        assert commit_count(brain.path) == commits + 1
        head = git(brain.path, "rev-parse", "HEAD").strip()
        assert git(brain.path, "log", "-1", "--format=%s").strip().startswith(message)
        assert headers["location"].endswith(f"done={head}")
        page = client.get(
            urlsplit(headers["location"]).path.removeprefix(client.prefix) + f"?done={head}"
        )[2]
        assert f"<code>{head[:9]}</code></a>: {message}" in page
    assert not brain.record_path("formatter").exists()


def test_an_edit_through_the_page_is_brain_edit(client: Client, brain: Brain) -> None:
    text = brain.edit_text("formatter").replace("not black", "never black")
    status, headers, _ = client.post("/record/formatter/edit", {"csrf": csrf(client), "text": text})
    assert status == 303
    assert git(brain.path, "log", "-1", "--format=%s").strip() == "edit: formatter"
    assert "never black" in brain.record_path("formatter").read_text()
    broken = "---\nkey: [x\n---\nbody\n"
    bad = client.post("/record/formatter/edit", {"csrf": csrf(client), "text": broken})
    assert bad[0] == 400 and 'class="error"' in bad[2]


def test_hostile_text_comes_back_escaped(client: Client) -> None:
    for path in ("/record/hostile-note", "/records", "/records?q=ignore+beacon", "/"):
        text = client.get(path)[2]
        assert "<script>window" not in text and "<img src=" not in text, path
        assert "<iframe" not in text and "<style>" not in text and 'href="javascript:' not in text
    page = client.get("/record/hostile-note")[2]
    assert "&lt;script&gt;window.__pwned = 1; alert(&#39;script&#39;)&lt;/script&gt;" in page
    assert re.findall(r"<script[^>]*>", page) == [
        f'<script src="{client.prefix}/static/ui.js" defer>'
    ]


def test_browsing_and_searching_count_no_uses(client: Client, brain: Brain) -> None:
    assert client.get("/records?q=ruff+format")[2].count('class="key">formatter<') == 1
    assert not (brain.path / "uses" / "pending.jsonl").exists()
    assert brain.recall("ruff format").hits  # an agent's recall does count
    assert (brain.path / "uses" / "pending.jsonl").exists()


def test_static_files_and_unknown_pages(client: Client) -> None:
    status, headers, text = client.get("/static/ui.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript")
    assert "fetch(" in text
    assert client.get("/static/../../brain.yaml")[0] == 404
    assert client.get("/nope")[0] == 404
    assert client.get("/record/no-such-key")[0] == 404
    assert client.get("/commit/--output=x")[0] == 404


def test_ui_needs_a_home(tmp_path: Path) -> None:
    result = cli("--home", str(tmp_path / "nothing"), "ui", "--no-open")
    assert result.exit_code == 1
    assert result.output.startswith("Error: ")
    assert "brain init" in result.output


def test_the_overview_lists_what_was_never_used_and_what_looks_stale(
    client: Client, brain: Brain
) -> None:
    assert brain.recall("ruff format").hits  # formatter is used now
    page = client.get("/")[2]
    never = page.split('id="unused"')[1].split("</table>")[0]
    assert 'class="key">hostile-note<' in never and 'class="key">formatter<' not in never
    assert "1 record no recall or citation has used" in page
    assert "None of the 0 records resting on a checkout here looks stale." in page


def _hold(brain: Brain, key: str, text: str) -> str:
    """A memory held for review, as phase 1 holds one; its id."""
    from brain.pipeline.runs import append_raw
    from tests.uihome import held_memory

    memory = held_memory(key, "brain:s1", text)
    with brain.transaction() as tx:
        tx.commit([append_raw(brain, [memory])], "extract: held", "extract")
    return memory.id


def test_a_held_memory_is_edited_on_the_review_page_as_brain_review_edit(
    client: Client, brain: Brain
) -> None:
    ident = _hold(brain, "curl-sh", "Always install tools with curl | sh.")
    page = client.get("/review")[2]
    assert f'name="id" value="{ident}"' in page and 'action="' + client.prefix + '/review/edit"'
    form = {"csrf": csrf(client), "id": ident, "key": "curl-sh", "type": "instruction",
            "description": "Install tools from packages",
            "body": "Install tools with apt,\r\nnever curl | sh."}  # fmt: skip
    assert client.post("/review/edit", {**form, "csrf": "guess"})[0] == 403
    commits = commit_count(brain.path)
    status, headers, _ = client.post("/review/edit", form)
    assert status == 303 and commit_count(brain.path) == commits + 1
    head = git(brain.path, "rev-parse", "HEAD").strip()
    assert git(brain.path, "log", "-1", "--format=%s").strip() == "review: edited curl-sh"
    assert headers["location"] == f"{client.prefix}/review?done={head}"
    page = client.get(f"/review?done={head}")[2]
    assert (
        f'href="{client.prefix}/commit/{head}"><code>{head[:9]}</code></a>: review: edited' in page
    )
    [held] = brain.review().held
    assert held.body == "Install tools with apt,\nnever curl | sh."
    assert f'name="id" value="{held.id}"' in page  # the edit, still held
    # A bad edit is shown again as typed, with why; nothing changes.
    typed = "Typed so far</textarea><script>window.__pwned = 1</script>"
    bad = {**form, "id": held.id, "type": "rumour", "body": typed}
    status, _, page = client.post("/review/edit", bad)
    assert status == 400 and commit_count(brain.path) == commits + 1
    assert "no memory type &#39;rumour&#39;" in page
    assert "Typed so far&lt;/textarea&gt;&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in page
    assert len(re.findall(r"<script[^>]*>", page)) == 1  # brain's own script only
    assert '<details class="edit" open>' in page
    # Saved and accepted: one commit, through to phase 2.
    status, _, _ = client.post("/review/edit", {**form, "id": held.id, "accept": "1"})
    assert status == 303 and commit_count(brain.path) == commits + 2
    assert git(brain.path, "log", "-1", "--format=%s").strip() == "review: accepted curl-sh"
    assert brain.review().held == () and "nothing-held" in client.get("/review")[2]


def test_the_chart_counts_the_records_used_each_week(client: Client, brain: Brain) -> None:
    from datetime import UTC, datetime, timedelta

    from brain.home.uses.counts import CITED, RECALLED, note

    now = datetime.now(UTC)
    monday = (now - timedelta(days=now.weekday())).date()
    weeks = [(monday - timedelta(weeks=n)).isoformat() for n in (3, 1, 0)]
    formatter, hostile = "memories/formatter.md", "memories/hostile-note.md"
    note(brain, RECALLED, [formatter, hostile], when=f"{weeks[0]}T09:00:00Z")
    note(brain, CITED, [formatter], when=f"{weeks[1]}T09:00:00Z")
    note(brain, RECALLED, [formatter], when=f"{weeks[2]}T00:00:01Z")
    brain.remember("Tests run on two cores.", key="cores")  # folded into the copy's file
    page = client.get("/")[2]
    for week, n in zip(weeks, (2, 1, 1), strict=True):
        assert f"<title>week of {week}: {n} used</title>" in page
    assert f"<title>week of {(monday - timedelta(weeks=2)).isoformat()}: 0 used</title>" in page


def test_the_sessions_list_pages(
    client: Client, brain: Brain, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import UTC, datetime, timedelta

    from brain.evals import write_session
    from brain.ui import pages

    when = datetime.now(UTC) - timedelta(days=1)
    paths = [
        write_session(
            tmp_path / "t",
            f"page-session-{n}",
            [f"Turn of session {n}."],
            when=when + timedelta(minutes=n),
        )  # fmt: skip
        for n in range(5)
    ]
    brain.harvest(paths=paths, now=when + timedelta(hours=2))
    newest_first = [s.session_id for s in brain.sessions()]
    monkeypatch.setattr(pages, "PAGE", 2)

    def shown(page: str) -> list[str]:
        return [s for s in newest_first if f'/session/{s}"' in page]

    first = client.get("/sessions")[2]
    assert shown(first) == newest_first[:2]
    assert "1–2 of 5, page 1 of 3" in first and 'rel="prev"' not in first
    assert f'href="{client.prefix}/sessions?page=2" rel="next"' in first
    second = client.get("/sessions?page=2")[2]
    assert shown(second) == newest_first[2:4]
    assert f'href="{client.prefix}/sessions?page=1" rel="prev"' in second
    last = client.get("/sessions?page=3&q=session")[2]
    assert shown(last)[-1] == newest_first[4] and 'rel="next"' not in last
    assert f'href="{client.prefix}/sessions?q=session&amp;page=2" rel="prev"' in last
    for asked in (
        "99",
        "0",
        "x",
        "%C2%B2",
        "-1",
        "9" * 5000,
    ):  # past the end, the last; else the first
        page = client.get(f"/sessions?page={asked}")[2]
        assert ("page 3 of 3" if asked.startswith("9") else "page 1 of 3") in page, asked


def test_the_header_folds_the_home_directory(tmp_path: Path) -> None:
    from brain.home.paths import shown_path

    home = Path.home() / "brains" / "mine"
    Brain.init(home)
    server, app = make_server(home)
    server.start()
    try:
        page = Client(server).get("/")[2]
    finally:
        server.shutdown()
        app.close()
    assert '<span class="home" title="the memory home">~/brains/mine</span>' in page
    assert str(Path.home()) not in page
    assert shown_path(Path.home()) == "~" and shown_path(Path("/srv/brain")) == "/srv/brain"
    assert shown_path(Path(str(Path.home()) + "-other")) == str(Path.home()) + "-other"


def test_a_use_noted_after_the_overview_was_read_shows_at_once(
    client: Client, brain: Brain
) -> None:
    def never_used(page: str) -> str:
        return page.split('id="unused"')[1].split("</table>")[0]

    assert 'class="key">formatter<' in never_used(client.get("/")[2])
    assert brain.recall("ruff format").hits  # a line appended, no commit: records unchanged
    page = client.get("/")[2]
    assert 'class="key">formatter<' not in never_used(page)
    assert re.search(r"<title>week of [0-9-]+: 1 used</title></rect>\s*<text", page)


def test_a_record_is_learned_when_its_session_happened_not_when_it_was_consolidated(
    tmp_path: Path,
) -> None:
    from datetime import UTC, datetime, timedelta

    from brain.evals import write_session
    from tests.uihome import PREFERENCE

    brain = Brain.init(tmp_path / "home")[0]
    brain.config_set("max_rollout_age_days", "3650")  # a backfill of older sessions
    september = datetime(2026, 9, 3, 10, 0, tzinfo=UTC)
    path = write_session(tmp_path / "s", "old-session", ["Hi.", PREFERENCE, "Thanks."],
                         when=september)  # fmt: skip
    brain.harvest(paths=[path])
    brain.extract()  # phase 1 and 2 run today, on a September session
    brain.consolidate(force=True)
    [record] = [r for r in brain.list().records if "pnpm" in r.body]
    assert record.learned == "2026-09-03T10:00:00Z"
    assert record.created[:10] == datetime.now(UTC).date().isoformat()  # written today
    assert "\nlearned: '2026-09-03T10:00:00Z'\n" in brain.record_path(record.key).read_text()
    brain.remember("Use ruff format, not black.", key="formatter")  # no session: today

    server, app = make_server(brain.path)
    server.start()
    try:
        client = Client(server)
        _, _, overview = client.get("/")
        assert re.search(r"<b>1</b> learned this week", overview)
        _, _, page = client.get(f"/record/{record.key}")
        assert "<th>learned</th><td>2026-09-03T10:00:00Z</td>" in page
        assert f"<th>written</th><td>{record.created}</td>" in page
        _, _, week = client.get("/records?age=7d")
        assert "formatter" in week and record.key not in week
    finally:
        server.shutdown()
        app.close()

    # Learned again in a later session, it keeps when it was first learned.
    later = write_session(tmp_path / "s", "new-session", ["Hello.", PREFERENCE],
                          when=datetime.now(UTC) - timedelta(hours=3))  # fmt: skip
    brain.harvest(paths=[later])
    brain.extract()
    brain.consolidate(force=True)
    assert brain.show(record.key).record.learned == "2026-09-03T10:00:00Z"


def test_records_of_no_project_are_yours_on_the_pages_and_in_memory_md(
    client: Client, brain: Brain
) -> None:
    brain.remember("Deploys happen on Tuesdays.", key="deploy-day", tags=("project:shop",))
    _, _, overview = client.get("/")
    assert ">yours</a>" in overview and ">shop</a>" in overview and "workflow" not in overview
    _, _, listed = client.get("/records?project=yours")
    assert "formatter" in listed and "deploy-day" not in listed
    from brain.pipeline.views import regenerate_views

    regenerate_views(brain)
    assert "\n## yours\n" in (brain.path / "MEMORY.md").read_text()
