"""The built-in model: rules that run offline, free, and predictably.

This is not a language model and does not understand a session. Phase 1 keeps two kinds of
things first. What a person typed and meant to last (:mod:`brain.models.builtin.said`: "In
this repo I prefer pnpm; always use pnpm", "no, use uv not pip", "we have to keep it
consistent"), and what the tools showed more than once
(:mod:`brain.models.builtin.runbook`: the command that ran the tests and passed in several
turns, a command that failed and then passed after a change). What a person chose among
options the assistant had just offered is kept too, in the assistant's words
(:mod:`brain.models.builtin.choice`: "I like Option 1", "c", "I'd go with option 4"), and
so is a point the person made that the assistant's next reply conceded, or the answer to a
question of theirs about how things are (:mod:`brain.models.builtin.agreed`: "Good call.",
"You're right -", "Not quite. ..."), and the answers the person gave one by one to the
assistant's numbered questions (:mod:`brain.models.builtin.asked`), and what the person
asked to have written down for later, as the assistant reported keeping it
(:mod:`brain.models.builtin.recorded`: "log a .learnings entry and memorize the setup").
What a person reports of the moment while debugging ("still the same", "now it shows
...", an error pasted, a guess at the cause) is no point conceded and names nothing kept
(:mod:`brain.models.builtin.status`), and a failure that passed after an edit alone is no
lesson. Anything subtler is missed: the price of never inventing a memory. Most sessions yield zero
memories, as intended; a real model configured as ``extract_model`` does the same job with
judgement.

Phase 2 is :func:`brain.models.builtin.merge.consolidate`.
:class:`brain.models.builtin.model.BuiltinModel` is how the registry serves both under the
name ``builtin``; the package itself imports nothing, so each reader is a module of its own.
"""
