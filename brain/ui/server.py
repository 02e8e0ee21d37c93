"""The local web server of ``brain ui`` and the checks every request passes.

The standard library's ``http.server``: brain needs no web framework for one person's
pages on 127.0.0.1, and the process starts in about the time of any other command
(``benchmarks/ui.py``). Requests are read on threads of their own (a browser keeps
idle connections open), and handled one at a time on one worker thread that owns the
:class:`~brain.api.Brain` and its SQLite connection.

What is checked, before anything is read from the home:

- the address: the server listens on 127.0.0.1 only;
- the token: every path starts with ``/<token>/``, a random secret printed with the
  address, and a request without it is refused (another local user or a web page
  guessing ports learns nothing);
- the Host header: it must name 127.0.0.1 or localhost at this port (DNS rebinding);
- writes: only POST, carrying the page's CSRF token, from this origin;
- what a page may load: a Content-Security-Policy that allows this server's own
  script and style sheet and nothing else (no inline script, no image, no frame).
"""

from __future__ import annotations

import contextlib
import hmac
import secrets
import sys
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import NamedTuple
from urllib.parse import parse_qs, urlsplit

__all__ = ["CSP", "Request", "Response", "UiServer"]

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; img-src 'none'"
)
_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",  # the token never goes elsewhere; POSTs keep their Origin
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
}
_MAX_BODY = 2 * 1024 * 1024  # a record's edited text, with room to spare


class Request(NamedTuple):
    """A request that passed the checks: its method, its path after the token, its
    query and (for a POST) its form fields, each name's first value."""

    method: str
    path: str
    query: dict[str, str]
    form: dict[str, str]


class Response(NamedTuple):
    """What a page answers."""

    status: int
    body: bytes = b""
    content_type: str = "text/html; charset=utf-8"
    location: str | None = None


App = Callable[[Request], Response]


def _first(values: dict[str, list[str]]) -> dict[str, str]:
    return {k: v[0] for k, v in values.items() if v}


class UiServer:
    """``brain ui``'s server: the app behind the request checks.

    Attributes:
        token: the secret every path starts with; csrf: the token every write carries.
        port: the port it listens on; url: the address to open.
    """

    def __init__(self, make_app: Callable[[UiServer], App], port: int = 0) -> None:
        self.token = secrets.token_urlsafe(18)
        self.csrf = secrets.token_urlsafe(18)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler(self))
        self._httpd.daemon_threads = True
        self.port = int(self._httpd.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}/{self.token}/"
        self.hosts = {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}
        # One thread owns the home and its index connection; requests wait their turn.
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="brain-ui")
        self._app = make_app(self)
        self._thread: threading.Thread | None = None

    def serve_forever(self) -> None:
        """Serve until :meth:`shutdown` (or Ctrl-C in the caller)."""
        self._httpd.serve_forever(poll_interval=0.2)

    def start(self) -> UiServer:
        """Serve on a background thread (tests, benchmarks)."""
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()
        return self

    def shutdown(self) -> None:
        """Stop serving and close the socket."""
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join()
        self._httpd.server_close()
        self._worker.shutdown(wait=True)

    def call(self, work: Callable[[], Response]) -> Response:
        """Run ``work`` on the worker thread that owns the home."""
        return self._worker.submit(work).result()

    def handle(self, request: Request) -> Response:
        """The app's answer to a request that passed the checks (on the worker thread)."""
        return self.call(lambda: self._app(request))

    # -- the checks ------------------------------------------------------------------

    def refusal(self, method: str, target: str, headers: dict[str, str]) -> Response | None:
        """Why a request is refused, or None to let it through."""
        if headers.get("host", "").lower() not in self.hosts:
            return _plain(421, "brain ui answers only at 127.0.0.1 or localhost")
        path = urlsplit(target).path
        head, _, _ = path.lstrip("/").partition("/")
        if not hmac.compare_digest(head.encode(), self.token.encode()):
            return _plain(403, "this address needs the token 'brain ui' printed")
        if method not in ("GET", "POST"):
            return _plain(405, "GET or POST only")
        if method == "POST":
            site = headers.get("sec-fetch-site")
            origin = headers.get("origin")
            if site not in (None, "same-origin") or (
                origin is not None and origin not in {f"http://{h}" for h in self.hosts}
            ):
                return _plain(403, "a change must come from brain ui's own page")
        return None

    def csrf_ok(self, form: dict[str, str]) -> bool:
        """Whether a form carries this server's CSRF token."""
        return hmac.compare_digest(form.get("csrf", "").encode(), self.csrf.encode())


def _plain(status: int, text: str) -> Response:
    return Response(status, (text + "\n").encode(), "text/plain; charset=utf-8")


def _handler(server: UiServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "brain-ui"
        sys_version = ""

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            self._serve("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._serve("POST")

        def do_HEAD(self) -> None:  # noqa: N802
            self._serve("HEAD")

        def do_PUT(self) -> None:  # noqa: N802
            self._serve("PUT")

        def do_DELETE(self) -> None:  # noqa: N802
            self._serve("DELETE")

        def _serve(self, method: str) -> None:
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                response = server.refusal(method, self.path, headers) or self._app(method)
            except Exception:  # a bug: say so on the page and in the terminal
                traceback.print_exc(file=sys.stderr)
                response = _plain(500, "brain ui failed on this request; see its terminal")
            # The browser may go away before the answer is sent: nothing to say then.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self._send(response, head_only=method == "HEAD")

        def _app(self, method: str) -> Response:
            parts = urlsplit(self.path)
            path = "/" + parts.path.lstrip("/").partition("/")[2]
            form: dict[str, str] = {}
            if method == "POST":
                length = int(self.headers.get("Content-Length") or 0)
                if length > _MAX_BODY:
                    return _plain(413, "too large")
                body = self.rfile.read(length).decode("utf-8", "replace")
                form = _first(parse_qs(body, keep_blank_values=True))
                if not server.csrf_ok(form):
                    return _plain(403, "this form is out of date; reload the page")
            query = _first(parse_qs(parts.query, keep_blank_values=True))
            return server.handle(Request(method, path, query, form))

        def _send(self, response: Response, *, head_only: bool = False) -> None:
            self.send_response(response.status)
            for name, value in _HEADERS.items():
                self.send_header(name, value)
            self.send_header("Content-Type", response.content_type)
            self.send_header("Content-Length", str(len(response.body)))
            if response.location:
                self.send_header("Location", response.location)
            self.end_headers()
            if not head_only:
                self.wfile.write(response.body)

        def log_message(self, format: str, *args: object) -> None:
            pass  # the address holds the token: keep it out of the terminal's scrollback

    return Handler
