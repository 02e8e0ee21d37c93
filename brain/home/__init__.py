"""The memory home, the truth: markdown records in a git repository.

The floor, the modules here: ``home`` (:class:`~brain.home.home.Home`, the store's
face), ``create`` (a new home) and ``reader`` (a home opened to be read only) over
``records`` and their cache, ``keys``, ``names``, ``scope``, ``anchors`` and ``paths``;
one writer at a time (``lock``), one commit per write (``transaction``, with ``checks``
and the ``journal``), what a killed writer left put right by the next command
(``pending``); the settings (``config`` reads, ``configedit`` writes); ``edit``,
``history`` and ``import_export`` over the store. The floor's own packages: ``git/``
runs every git command, ``yaml/`` reads and writes YAML within limits, ``secrets/``
redacts every field written, and ``uses/`` counts what was of use, folded into every
commit.

The subsystems stand on the floor, which imports none of them: ``staleness/`` finds
records whose code changed; ``sync/`` keeps machines on one history, purge included.
docs/architecture.md draws the layers; tests/test_layers.py holds them.
"""
