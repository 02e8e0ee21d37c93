"""``brain ui``: serve the memory's local web page while the command runs."""

from __future__ import annotations

from pathlib import Path

import click

from brain.cli.base import State, main, pass_state
from brain.errors import BrainError


@main.command()
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port on 127.0.0.1 (0: any free one).")  # fmt: skip
@click.option("--no-open", is_flag=True, help="Print the address; do not open a browser.")
@pass_state
def ui(state: State, port: int, no_open: bool) -> None:
    """Browse, search, review, edit and undo the memory in a local web page.

    Serves on 127.0.0.1 until Ctrl-C; the address carries a secret token, and a request
    without it is refused. Every change made there is one commit, as on the command line.
    """
    from brain.api import Brain
    from brain.ui.app import make_server

    Brain.open(state.home)  # not a home: say so before serving anything
    try:
        server, app = make_server(state.home, port, Path.cwd())
    except OSError as exc:
        raise BrainError(
            f"cannot listen on 127.0.0.1:{port}: {exc.strerror}",
            hint="choose another port with --port, or --port 0 for any free one",
        ) from exc
    click.echo(f"brain ui at {server.url}  (Ctrl-C stops it)", err=False)
    if not no_open:
        import webbrowser

        webbrowser.open(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        app.close()
