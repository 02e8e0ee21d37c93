"""The ``brain`` command line: parse, call one library function, print.

The only package that imports click. The group lives in :mod:`brain.cli.base`;
commands live in submodules by subject, each adding itself to :data:`main` when the
group first looks it up (:mod:`brain.cli.commands` says which module has which).
"""

from __future__ import annotations

from brain.cli.base import main

__all__ = ["main"]
