"""``python -m brain`` and the ``brain`` script: the command line, with short cuts.

``brain --version`` answers here. :mod:`brain.agents.startmemo` prints the answer of the
session-start hook, ``brain context``, ``brain list`` or ``brain status`` kept from the
last time, while the files it was read from are as they were. :mod:`brain.cli.quick`
answers them the whole way without loading click and every command module: the hook
runs before each agent session and blocks it, the others are what a person types most,
and ``--version`` is how a person checks that brain is there. Every other command line,
these with any other option included, goes through :mod:`brain.cli`.

As the program, brain leaves its objects to the exit: the interpreter's last garbage
collection would first visit every object the command's modules made (~8 ms after a
write, a tenth of it), and all of them are about to go anyway.
"""

from __future__ import annotations

import gc
import sys

from brain import __version__


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
    if "session-start" in args[:4] or args[-1:] in (["context"], ["list"], ["status"]):
        from brain.agents import startmemo

        if startmemo.answer(args):  # the answer kept from the last start here
            return
    from brain.cli.quick import answer

    if answer(args):
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
