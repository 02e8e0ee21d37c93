"""The ``brain`` command line: parse, call one library function, print.

The only package that imports click. The group lives in :mod:`brain.cli.base`;
commands live in submodules by subject, each adding itself to :data:`main` when the
group first looks it up (:mod:`brain.cli.commands` says which module has which).
:mod:`brain.cli.quick` answers the session-start hook, ``status``, ``context`` and
``list`` without click, so importing this package loads nothing until ``main`` is
asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from brain.cli.base import main

__all__ = ["main"]


def __getattr__(name: str) -> Any:
    if name == "main":
        from brain.cli.base import main

        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
