"""Sync: machines kept on one history, ``brain purge`` included.

``remote`` is remotes, pull, push, sync and clone; ``merge`` settles a merge of two
machines' records by brain's own rules, never asking the person for git; ``merged``
checks what a merge brought as a write on this machine is checked (redacted, settings
loaded). ``purge`` takes a leaked text or record out of the whole history: it pulls
first, rewrites a bare copy with git-filter-repo (``filter``, in a process of its own),
pushes with a lease and leaves a receipt; ``takeover`` is another machine's sync taking
that rewrite instead of merging the old history back; ``scrub`` is what both write in
place of the purged text. purge and sync are one package because each needs the other:
a purge pulls and pushes, a sync takes a purge.

Stands on the floor and imports no other subsystem. Nothing is imported here.
"""
