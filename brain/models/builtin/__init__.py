"""The built-in model: rules that run offline, free, and predictably.

This is not a language model and does not understand a session, so it writes only what it
is sure of. Phase 1 keeps what a person typed and said outright is meant to last
(:mod:`brain.models.builtin.said`: "In this repo I prefer pnpm; always use pnpm", "no, use
uv not pip", "from now on ...", "remember that ..."), the answers the person gave to the
assistant's questions, each with its question (:mod:`brain.models.builtin.answered`, Claude
Code's ``AskUserQuestion``; :mod:`brain.models.builtin.asked`, numbered questions answered
one by one), what the person asked to have written down for later, as the assistant
reported keeping it (:mod:`brain.models.builtin.recorded`: "log a .learnings entry and
memorize the setup"), and a build, test, typecheck or lint command that passed every time
it ran, more than once, when it is not the one any agent runs first unasked
(:mod:`brain.models.builtin.runbook`). What a person reports of the moment while debugging
("still the same", an error pasted, a guess at the cause) names nothing kept
(:mod:`brain.models.builtin.status`).

What it leaves to a model, because on sessions nobody tuned it on a careful reader dropped
most of what such rules wrote: an option picked from the assistant's menu ("2", "let's go
with B": the option alone rarely says what it was about), a point the assistant conceded or
a question's answer in its reply, a wish ("I want ...", "I like X"), a must said once
without a word that makes it last, and a failure that passed after some change. Most
sessions yield zero memories, as intended; a real model configured as ``extract_model``
does the same job with judgement.

Phase 2 is :func:`brain.models.builtin.merge.consolidate`.
:class:`brain.models.builtin.model.BuiltinModel` is how the registry serves both under the
name ``builtin``; the package itself imports nothing, so each reader is a module of its own.
"""
