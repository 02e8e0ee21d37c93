"""The routes of ``brain ui``: each page, and each change made through the porcelain.

A change is a POST to an action (edit, forget, archive, restore, accept, reject, undo);
it calls the same :class:`brain.api.Brain` method as the command line, which makes its
one commit, and answers with a redirect to the page it concerns, which shows that
commit (post, redirect, get: reloading a page never repeats a change). A
:class:`~brain.errors.BrainError` is shown on the page with its hint, as the command
line prints it.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote, urlencode

from brain import __version__
from brain.assets import html_environment, ui_static
from brain.errors import BrainError
from brain.home.paths import shown_path
from brain.ui import pages
from brain.ui.chart import weekly_chart
from brain.ui.server import Request, Response
from brain.ui.snapshot import Snapshot

if TYPE_CHECKING:
    from pathlib import Path

    from brain.api import Brain
    from brain.ui.server import UiServer

_STATIC = {"ui.css": "text/css; charset=utf-8", "ui.js": "text/javascript; charset=utf-8"}


class PageNotFoundError(BrainError):
    """No page or action at the address asked for."""

    def __init__(self, what: str) -> None:
        super().__init__(f"no {what}", hint="start from the overview")


class App:
    """``brain ui``'s pages over one home (called on the server's worker thread)."""

    def __init__(self, server: UiServer, home: Path, where: Path | None = None) -> None:
        self.server = server
        self.home = home
        self.where = where  # the folder it runs in, as 'brain review' and 'brain stale' read it
        self._brain: Brain | None = None
        self.snapshot = Snapshot(where)
        self.home_shown = shown_path(home)

    @property
    def brain(self) -> Brain:
        if self._brain is None:
            from brain.api import Brain

            self._brain = Brain.open(self.home)
        return self._brain

    def close(self) -> None:
        if self._brain is not None:
            self._brain.close()

    # -- links and rendering ---------------------------------------------------------

    def url(self, path: str, **query: Any) -> str:
        """A link inside the app (the token first), with ``query`` left out when empty."""
        kept = {k: v for k, v in query.items() if v not in (None, "", False)}
        return f"/{self.server.token}{path}" + (f"?{urlencode(kept)}" if kept else "")

    def key_url(self, key: str, action: str = "") -> str:
        return self.url(f"/record/{quote(key, safe='')}" + (f"/{action}" if action else ""))

    def render(self, name: str, request: Request, status: int = 200, **values: Any) -> Response:
        done = request.query.get("done", "")
        commit = pages.commit_line(self.brain, done) if done else None
        values.setdefault("title", "brain")
        html = (
            html_environment()
            .get_template(name)
            .render(
                url=self.url,
                key_url=self.key_url,
                csrf=self.server.csrf,
                version=__version__,
                home=self.home_shown,
                done=commit,
                # A forget just made can be undone from the note that says it was made.
                restorable=pages.restorable(self.brain, commit),
                here=request.path,
                **values,
            )
        )
        return Response(status, html.encode("utf-8"))

    def redirect(self, location: str) -> Response:
        return Response(303, b"", location=location)

    # -- dispatch --------------------------------------------------------------------

    def __call__(self, request: Request) -> Response:
        try:
            return self._route(request)
        except BrainError as exc:
            status = 404 if _not_found(exc) else 400
            return self.render("error.html.j2", request, status, title="brain: error", error=exc)
        except Exception:  # a bug: show it as one, and keep serving
            traceback.print_exc(file=sys.stderr)
            return Response(500, b"brain ui failed on this request; see its terminal\n",
                            "text/plain; charset=utf-8")  # fmt: skip

    def _route(self, request: Request) -> Response:
        parts = (
            [unquote(p) for p in request.path.strip("/").split("/")] if request.path != "/" else []
        )
        head = parts[0] if parts else ""
        if request.method == "POST":
            return self._action(request, parts)
        if head == "static" and len(parts) == 2 and parts[1] in _STATIC:
            return Response(200, ui_static(parts[1]), _STATIC[parts[1]])
        pages_: dict[str, Callable[[Request, list[str]], Response]] = {
            "": self.overview,
            "records": self.records,
            "record": self.record,
            "review": self.review,
            "runs": self.runs,
            "run": self.run,
            "sessions": self.sessions,
            "session": self.session,
            "commit": self.commit,
            "team": self.team,
        }
        page = pages_.get(head)
        if page is None:
            raise PageNotFoundError(f"page {request.path!r}")
        return page(request, parts[1:])

    # -- pages -----------------------------------------------------------------------

    def overview(self, request: Request, rest: list[str]) -> Response:
        brain, snapshot = self.brain, self.snapshot
        data = pages.overview(brain, snapshot.live(brain), snapshot.stale(brain),
                              snapshot.unused(brain), snapshot.weeks(brain))  # fmt: skip
        chart = weekly_chart(data["learned"], data["used"])
        return self.render("overview.html.j2", request, title="brain", chart=chart, **data)

    def records(self, request: Request, rest: list[str]) -> Response:
        filters = pages.Filters.of(request.query)
        data = pages.record_list(self.brain, self.snapshot.live(self.brain), filters)
        name = "records_list.html.j2" if request.query.get("partial") == "1" else "records.html.j2"
        return self.render(name, request, title="brain: records", f=filters, **data)

    def record(self, request: Request, rest: list[str]) -> Response:
        if not rest:
            return self.redirect(self.url("/records"))
        key = rest[0]
        if rest[1:] not in ([], ["edit"]):
            raise PageNotFoundError(f"page {request.path!r}")
        if rest[1:] == ["edit"]:
            text = self.brain.edit_text(key)
            return self.render("edit.html.j2", request, title=f"brain: edit {key}", key=key,
                               text=text, problem=None)  # fmt: skip
        gone = pages.forgotten_page(self.brain, key)
        if gone is not None:  # its address still leads somewhere: to what brings it back
            return self.render("forgotten.html.j2", request, title=f"brain: {key}", **gone)
        data = pages.record_page(self.brain, self.snapshot.live(self.brain), key)
        return self.render("record.html.j2", request, title=f"brain: {key}", **data)

    def review(
        self, request: Request, rest: list[str], status: int = 200, editing: Any = None
    ) -> Response:
        """The held memories; ``editing``: an edit refused, shown again with its problem."""
        data = pages.review_page(self.brain, self.where)
        return self.render("review.html.j2", request, status, title="brain: review",
                           editing=editing, **data)  # fmt: skip

    def runs(self, request: Request, rest: list[str]) -> Response:
        data = pages.runs_page(self.brain)
        return self.render("runs.html.j2", request, title="brain: runs", **data)

    def run(self, request: Request, rest: list[str]) -> Response:
        if not rest:
            return self.redirect(self.url("/runs"))
        data = pages.run_page(self.brain, rest[0])
        return self.render("run.html.j2", request, title=f"brain: run {rest[0]}", **data)

    def sessions(self, request: Request, rest: list[str]) -> Response:
        query = request.query
        data = pages.sessions_page(self.brain, query.get("q", "").strip(), query.get("page", ""))
        return self.render("sessions.html.j2", request, title="brain: sessions", **data)

    def session(self, request: Request, rest: list[str]) -> Response:
        if not rest:
            return self.redirect(self.url("/sessions"))
        turn = request.query.get("turn", "")
        data = pages.session_page(self.brain, rest[0], int(turn) if turn.isdigit() else None)
        return self.render("session.html.j2", request, title="brain: session", **data)

    def commit(self, request: Request, rest: list[str]) -> Response:
        data = pages.commit_page(self.brain, rest[0] if rest else "")
        return self.render("commit.html.j2", request, title="brain: commit", **data)

    def team(self, request: Request, rest: list[str]) -> Response:
        from brain.team.page import team_page

        data = team_page(self.brain, self.where)
        return self.render("team.html.j2", request, title="brain: team",
                           said=request.query.get("said", ""), diff_lines=pages.diff_lines,
                           **data)  # fmt: skip

    def _team_action(self, verb: str, form: dict[str, str]) -> Response:
        """A Team page's change, as ``brain team`` makes it: one commit or branch pushed."""
        from brain.team import members, proposals

        team = form.get("team") or None
        if verb == "accept":
            done = proposals.accept(self.brain, form.get("id", ""), team)
            said = f"Accepted {done.key} into team {done.team} ({done.sha[:9]})"
        elif verb == "reject":
            done = proposals.reject(self.brain, form.get("id", ""), form.get("reason", ""), team)
            said = f"Rejected {done.key} in team {done.team} ({done.sha[:9]})"
        elif verb == "propose":
            made = proposals.propose(self.brain, form.get("key", "").strip(), team)
            said = f"Proposed {made.key} to team {made.team} as {made.id}"
        elif verb == "sync":
            pulled = members.sync(self.brain.path, team)
            said = "; ".join(s.problem or f"pulled team {s.name}" for s in pulled)
        else:
            raise PageNotFoundError(f"action {verb!r} on a team")
        return self.redirect(self.url("/team", said=said))

    # -- changes ---------------------------------------------------------------------

    def _action(self, request: Request, parts: list[str]) -> Response:
        brain, form = self.brain, request.form
        if parts[:1] == ["record"] and len(parts) == 3:
            key, verb = parts[1], parts[2]
            if verb == "edit":
                try:
                    result = brain.edit(key, form.get("text", "").replace("\r\n", "\n"))
                except BrainError as exc:
                    return self.render("edit.html.j2", request, 400, title=f"brain: edit {key}",
                                       key=key, text=form.get("text", ""), problem=exc)  # fmt: skip
                return self.redirect(self.url(f"/record/{quote(key, safe='')}", done=result.commit))
            if verb == "archive":
                sha = brain.archive(key, form.get("reason") or None).commit
            elif verb == "restore":
                sha = brain.restore(key).commit
            elif verb == "forget":
                sha = brain.forget(key).commit
                return self.redirect(self.url("/records", done=sha))
            else:
                raise PageNotFoundError(f"action {verb!r} on a record")
            return self.redirect(self.url(f"/record/{quote(key, safe='')}", done=sha))
        if parts[:1] == ["team"] and len(parts) == 2:
            return self._team_action(parts[1], form)
        if parts == ["review", "edit"]:
            return self._edit_held(request)
        if parts == ["review"]:
            accept = [form["accept"]] if form.get("accept") else []
            reject = [form["reject"]] if form.get("reject") else []
            decided = brain.review(accept=accept, reject=reject)
            return self.redirect(self.url("/review", done=decided.commit))
        if parts[:1] == ["run"] and parts[2:] == ["undo"] and len(parts) == 3:
            undone = brain.undo_run(parts[1])
            return self.redirect(self.url(f"/run/{quote(undone.run, safe='')}", done=undone.commit))
        raise PageNotFoundError(f"action at {request.path!r}")

    def _edit_held(self, request: Request) -> Response:
        """A held memory's edit form: ``brain review --edit``, accepted too with ``accept``."""
        from brain.pipeline.review import HeldEdit

        form = request.form
        ident = form.get("id", "")
        fields = ("key", "type", "description", "body")
        change = HeldEdit(**{n: form.get(n, "").replace("\r\n", "\n") for n in fields})
        try:
            result = self.brain.review_edit(ident, change, accept=form.get("accept") == "1")
        except BrainError as exc:
            editing = pages.Editing(ident, change, exc)
            return self.review(request, [], 404 if _not_found(exc) else 400, editing)
        return self.redirect(self.url("/review", done=result.commit))


def _not_found(exc: BrainError) -> bool:
    return type(exc).__name__.endswith("NotFoundError")


def make_server(home: Path, port: int = 0, where: Path | None = None) -> tuple[UiServer, App]:
    """``brain ui``'s server for ``home`` on 127.0.0.1 (``port`` 0: any free one), not
    yet serving; close the app after shutting the server down. ``where``: the folder it
    runs in, whose checkout the review and the stale records are read in first, as
    ``brain review`` and ``brain stale`` read them there."""
    from brain.ui.server import UiServer

    made: list[App] = []

    def make_app(server: UiServer) -> App:
        made.append(App(server, home, where))
        return made[0]

    server = UiServer(make_app, port)
    return server, made[0]
