"""A real Chromium (Debian's ``chromium``, driven by Playwright for Python, no browser
download) against ``brain ui`` serving a real home as its own process.

``make browser-deps`` installs the browser; ``make browser`` runs these tests. Without
the browser or Playwright they are skipped, saying how to get them, except under CI,
where a missing browser fails. Screenshots of each page go to ``$BRAIN_UI_SCREENSHOTS``
(``docs/screenshots`` is where the README's two come from), else under the test's tmp.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.uihome import UiHome, build

CHROMIUM = os.environ.get("BRAIN_CHROMIUM", "/usr/bin/chromium")
# What this machine's Chromium needs to run headless in a container, and nothing that
# reaches out: no component updates, sync, QUIC or background requests of its own.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _missing(what: str) -> None:
    message = f"{what}; run 'make browser-deps'"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        _missing(f"no Chromium at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright for Python is not installed")
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("BRAIN_UI_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@dataclass
class Served:
    """``brain ui`` running on a home, and the browser page pointed at it."""

    url: str
    home: UiHome
    page: Any
    shots: Path
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)

    @property
    def origin(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    def go(self, path: str = "") -> None:
        self.page.goto(self.url + path.lstrip("/"))

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(self.shots / f"{name}.png"), full_page=True)

    def left(self) -> list[str]:
        """Requests to anywhere but this server (data: URLs load nothing)."""
        return [u for u in self.requests if not u.startswith((self.origin + "/", "data:"))]


def start_ui(home: Path, cwd: Path | None = None) -> tuple[subprocess.Popen[str], str]:
    """``brain ui`` on ``home``, run in the folder ``cwd`` (the test's own by default)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "brain", "--home", str(home), "ui", "--no-open"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("brain ui at "):
        process.kill()
        raise AssertionError(f"brain ui did not start: {line}{process.stderr.read()}")
    return process, line.split()[3]


def stop_ui(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


Serve = Callable[..., Served]


@pytest.fixture
def serve(
    playwright: Any, tmp_path: Path, shots: Path, request: pytest.FixtureRequest
) -> Iterator[Serve]:
    """Start ``brain ui`` on a built home (``cwd``: the folder it runs in) and point a
    browser page at it; stopped, and its terminal checked for tracebacks, at the end."""
    with contextlib.ExitStack() as stack:

        def start(home: UiHome, cwd: Path | None = None) -> Served:
            process, url = start_ui(home.brain.path, cwd)
            stack.callback(_stopped, process)
            return stack.enter_context(_browsing(playwright, tmp_path, shots, request, url, home))

        yield start


@pytest.fixture
def served(serve: Serve, tmp_path: Path) -> Served:
    # Where a home is by default, so the page shows it as a person's would: ~/...
    return serve(build(Path.home() / ".local" / "share" / "brain", tmp_path / "sessions"))


def _stopped(process: subprocess.Popen[str]) -> None:
    stop_ui(process)
    assert process.stderr is not None
    errors = process.stderr.read()
    assert "Traceback" not in errors, errors


@contextlib.contextmanager
def _browsing(
    playwright: Any,
    tmp_path: Path,
    shots: Path,
    request: pytest.FixtureRequest,
    url: str,
    home: UiHome,
) -> Iterator[Served]:
    javascript = request.node.get_closest_marker("no_javascript") is None
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "chromium-profile"),
        executable_path=CHROMIUM,
        headless=True,
        args=FLAGS,
        viewport={"width": 1200, "height": 900},
        java_script_enabled=javascript,
    )
    served = Served(url, home, context.pages[0] if context.pages else context.new_page(), shots)
    served.page.set_default_timeout(10_000)
    context.on("request", lambda r: served.requests.append(r.url))
    served.page.on("console", lambda m: served.console.append(m.text))

    def on_dialog(dialog: Any) -> None:
        served.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.accept() if dialog.type == "confirm" else dialog.dismiss()

    served.page.on("dialog", on_dialog)
    # Nothing may leave this machine: a request elsewhere is answered here, refused.
    context.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(served.origin + "/")
            else route.abort()
        ),
    )
    try:
        yield served
    finally:
        context.close()
