"""Staleness: records whose code changed since they were learned.

A record rests on a commit and files of a project's checkout (:mod:`brain.home.anchors`,
written with the record). ``check`` tells which records may be stale, with at most one
git process at session start; ``report`` is ``brain stale`` and ``brain confirm``: the
commits that touched each file, a record held when all its files went, and a record
moved on to the checkout's HEAD when the person says it still holds.

Stands on the floor (the store, the transaction, ``git.checkouts``) and imports no other
subsystem. Nothing is imported here.
"""
