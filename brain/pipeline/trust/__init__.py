"""A model's answer is checked, not trusted; :mod:`brain.models.safety` has already
refused the worst.

Phase 1 (:mod:`.candidates`): a memory that cites no turn it may rest on is left out.
It is held when :mod:`.words` misses its words, when :mod:`.polarity` finds them
reversed, or when :mod:`.weakening` flags it; an instruction is held too when
:mod:`.outside` finds its session read outside text. Phase 2 (:mod:`.operations`): kept
only on keys the run sent, each resting on a raw memory of its batch.
docs/trust.md is the long form.

Nothing is imported here: a reader that needs only :mod:`.weakening` (the MCP
``remember`` tool, the pending raw memories) does not load the rest.
"""
