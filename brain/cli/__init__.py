"""The ``brain`` command line: parse, call one library function, print.

The only package that imports click. The group lives in :mod:`brain.cli.base`;
commands live in submodules by subject, each adding itself to :data:`main`.
"""

from __future__ import annotations

from brain.cli import agents, harvest, home, memory, pipeline, recall
from brain.cli.base import main

__all__ = ["agents", "harvest", "home", "main", "memory", "pipeline", "recall"]
