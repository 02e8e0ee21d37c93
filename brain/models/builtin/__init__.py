"""The built-in model: rules that run offline, free, and predictably.

This is not a language model and does not understand a session, so it writes only what a
person said outright is meant to last. Phase 1 keeps a statement the person typed in their
own words that says so (:mod:`brain.models.builtin.said`: "from now on ...", "remember that
...", "always ..." / "never ...", "every time you X, Y", "I prefer X"; in Chinese and
Japanese the few explicit forms in :mod:`brain.models.builtin.cjk`), and what the person
asked to have written down for later, as the assistant reported keeping it
(:mod:`brain.models.builtin.recorded`: "log a .learnings entry and memorize the setup").
What a person reports of the moment while debugging ("still the same", an error pasted, a
guess at the cause) names nothing kept (:mod:`brain.models.builtin.status`).

Everything else is left to a model: a correction, a decision and its reason, a wish, a must
said once, an answer to the assistant's question, an option picked from its menu, the
commands that build and test the project. On sessions nobody tuned them on, careful readers
dropped most of what rules wrote from those: the same words are as often about the task at
hand. Most sessions yield zero memories, as intended; a real model configured as
``extract_model`` (``brain setup <tool> --learn``) does the whole job with judgement.

Phase 2 is :func:`brain.models.builtin.merge.consolidate`.
:class:`brain.models.builtin.model.BuiltinModel` is how the registry serves both under the
name ``builtin``; the package itself imports nothing, so each reader is a module of its own.
"""
