"""``python -m brain`` and the ``brain`` script: the command line, with two short cuts.

``brain --version`` and ``brain hook session-start`` answer without loading click and
every command module: the hook runs before each agent session and blocks it, and
``--version`` is how a person checks that brain is there. Every other command line,
these two with any other option included, goes through :mod:`brain.cli`.

As the program, brain leaves its objects to the exit: the interpreter's last garbage
collection would first visit every object the command's modules made (~8 ms after a
write, a tenth of it), and all of them are about to go anyway.
"""

from __future__ import annotations

import gc
import sys

from brain import __version__


def _session_start(argv: list[str]) -> bool:
    """Answer ``[--home H] hook session-start [--tool T]`` directly; False for anything else.

    The installed hooks run exactly these forms (``brain.agents.installers``).
    """
    home_flag = None
    if argv[:1] == ["--home"] and len(argv) > 1:
        home_flag, argv = argv[1], argv[2:]
    if argv[:2] != ["hook", "session-start"]:
        return False
    rest = argv[2:]
    tool = "claude-code"
    if (
        len(rest) == 2
        and rest[0] == "--tool"
        and rest[1]
        in {"claude-code", "codex", "gemini", "copilot", "qwen", "antigravity", "opencode"}
    ):
        tool = rest[1]
    elif rest:
        return False  # --help, --tool=x, a bad tool: the full command line says what's wrong
    from brain.agents.hooks import read_stdin, session_start
    from brain.home.paths import resolve_home

    sys.stdout.write(session_start(resolve_home(home_flag), read_stdin(), tool).output + "\n")
    return True


def run(argv: list[str] | None = None) -> None:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``, as the program)."""
    if argv is not None:
        _run(argv)
        return
    try:
        _run(sys.argv[1:])
    finally:
        gc.freeze()  # nothing made so far is collected again: the process is ending


def _run(args: list[str]) -> None:
    if args == ["--version"]:
        sys.stdout.write(f"brain, version {__version__}\n")
        return
    if _session_start(args):
        return
    # Importing click and the command line makes ~16,000 objects the collector tracks
    # and almost no garbage (460 objects): the ~20 collections it would set off are
    # skipped, and those objects, frozen, are not visited again by the command's own.
    gc.disable()
    try:
        from brain.cli import main
    finally:
        gc.freeze()
        gc.enable()
    main(args)


if __name__ == "__main__":
    run()
