"""Undo one extract or consolidate run, in one commit of its own.

A run is one commit, so undoing it puts back what that commit changed: each record,
summary and view it wrote goes back to the version before the run (or away, when the
run made it), the raw memories an extract appended leave ``raw_memories.md``, and the
journal gets an ``undo`` line naming the run, so the raw memories a consolidation
consumed are pending again. The journal itself is append-only and is never rewritten.

A file the run wrote that changed again afterwards (a record relearned or edited
since) is not put back over that later change: the undo is refused whole, naming the
file, and nothing is changed. The generated views are the exception: they are rendered
again from the records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from brain.errors import BrainError
from brain.home import journal
from brain.home.paths import ARCHIVE, MEMORIES
from brain.pipeline.runs import RAW, RunInfo, show_run, undone_runs

if TYPE_CHECKING:
    from brain.home.home import Home

__all__ = ["UndoConflictError", "UndoResult", "undo_run"]

# Rendered from the records, so rendered again rather than put back.
_VIEWS = ("MEMORY.md", "memory_summary.md", "phase2_workspace_diff.md")


@dataclass(frozen=True, slots=True)
class UndoResult:
    """What undoing a run did.

    Attributes:
        run: the run's id; kind: extract or consolidate.
        paths: the files the undo changed; commit: its commit; message: its message.
    """

    run: str
    kind: str
    paths: tuple[str, ...]
    commit: str
    message: str


class UndoConflictError(BrainError):
    """A file the run wrote has changed since; putting it back would lose that change."""

    def __init__(self, run: RunInfo, paths: list[str]) -> None:
        keys = [p.rsplit("/", 1)[-1].removesuffix(".md") for p in paths]
        records = [k for p, k in zip(paths, keys, strict=True) if p.startswith(MEMORIES)]
        hint = (
            f"'brain log {records[0]}' shows the later change; undo or edit it first"
            if records
            else "'brain log' shows the later commits"
        )
        super().__init__(
            f"run {run.id} cannot be undone: {', '.join(paths)} changed after it; "
            "nothing was changed",
            hint=hint,
        )
        self.paths = tuple(paths)


def _without_appended(
    before: bytes | None, at_run: bytes | None, now: bytes | None
) -> bytes | None:
    """``now`` without what the run appended to an append-only file; None: cannot tell."""
    if before is None and at_run is not None:  # the run made the file: keep its header
        before = at_run[: at_run.find(b"\n### ") + 1]
    before = before or b""
    if at_run is None or not at_run.startswith(before) or now is None:
        return None
    added = at_run[len(before) :]
    if added not in now:
        return None
    return now.replace(added, b"", 1)


def undo_run(home: Home, run_id: str) -> UndoResult:
    """Put back what run ``run_id`` changed, in one commit (see the module's docstring).

    Raises:
        RunNotFoundError: no run has the id.
        BrainError: the run was undone already, or a file it wrote changed since.
    """
    run = show_run(home, run_id)
    if run.id in undone_runs(home):
        raise BrainError(f"run {run.id} was undone already", hint="see 'brain runs list'")
    files = [p for _, p in home.repo.changed_in(run.commit) if p != journal.JOURNAL]
    names = [f"{rev}:{p}" for p in files for rev in (f"{run.commit}^", run.commit, "HEAD")]
    blobs = home.repo.blobs(names)
    puts: dict[str, bytes | None] = {}
    conflicts: list[str] = []
    render_views = False
    for n, rel in enumerate(files):
        before, at_run, now = blobs[3 * n : 3 * n + 3]
        if rel == RAW:
            kept = _without_appended(before, at_run, now)
            if kept is None:
                conflicts.append(rel)
            elif kept != now:
                puts[rel] = kept
        elif now == at_run:
            puts[rel] = before
        elif now == before:
            continue  # put back already
        elif rel in _VIEWS:
            render_views = True
        else:
            conflicts.append(rel)
    if conflicts:
        raise UndoConflictError(run, conflicts)
    message = f"undo: {run.kind} run {run.id} ({run.commit[:9]})"
    with home.transaction() as tx:
        for rel, data in puts.items():
            tx.put(rel, data)
        paths = list(puts)
        if render_views or any(p.startswith((MEMORIES, ARCHIVE)) for p in paths):
            paths += [p for p in home.views_again() if p not in paths]
        sha = tx.commit(paths, message, "undo", run=run.id, kind=run.kind, commit=run.commit)
    return UndoResult(run.id, run.kind, tuple(paths), sha, message)
