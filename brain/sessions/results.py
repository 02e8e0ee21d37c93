"""What a harvest run reports: counts per source and the sessions it took."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from brain.sessions.mirror import MirrorResult
    from brain.sessions.watermarks import SessionRef


class SourceCounts(NamedTuple):
    """What one source's part of a run found and did.

    ``found`` counts main-session transcripts (subagent files are left out: the
    parent session carries the conversation and the subagent's result).
    """

    source: str
    found: int = 0
    new: int = 0
    grown: int = 0
    unchanged: int = 0
    skipped_idle: int = 0
    skipped_old: int = 0
    skipped_internal: int = 0
    failed: int = 0
    bytes_read: int = 0
    bytes_replaced: int = 0  # not UTF-8: read as U+FFFD, their turns kept


class EmptyTranscript(NamedTuple):
    """A file named to harvest that gave no turns, so nothing of it was recorded.

    Attributes:
        path: the file.
        source: the adapter it was read with.
        sniffed: the format its first lines show (None: none brain reads). When it
            differs from ``source``, ``--source`` chose the adapter.
    """

    path: str
    source: str
    sniffed: str | None


class HarvestResult(NamedTuple):
    """A harvest run (JSON-able through ``brain.home.results.to_jsonable``).

    Attributes:
        sources: per-source counts.
        sessions: the sessions harvested (new or grown) in this run.
        failures: ``path: reason`` for transcripts that could not be read.
        empty: files named to harvest (``paths``) that gave no turns; not recorded.
        mirror: the Claude memory mirror's part, when the claude source ran.
        generate_memories: False when ``generate_memories: false`` or
            ``BRAIN_NO_GENERATE=1``: the watermarks are written with ``extract: false``
            and ``harvested_sessions(brain, for_extraction=True)`` leaves them out.
        marked_for_extraction: sessions this run left for the extract phase.
        docs_indexed: turn documents handed to the catalog (None: no catalog).
        dry_run: nothing was written.
        elapsed: seconds.
        message: the commit message (also set on a dry run: what it would say).
        commit: the commit sha, or None when nothing changed.
    """

    sources: tuple[SourceCounts, ...]
    sessions: tuple[SessionRef, ...] = ()
    failures: tuple[str, ...] = ()
    empty: tuple[EmptyTranscript, ...] = ()
    mirror: MirrorResult | None = None
    generate_memories: bool = True
    marked_for_extraction: int = 0
    docs_indexed: int | None = None
    index_error: str | None = None
    dry_run: bool = False
    elapsed: float = 0.0
    message: str | None = None
    commit: str | None = None

    @property
    def new(self) -> int:
        return sum(c.new for c in self.sources)

    @property
    def grown(self) -> int:
        return sum(c.grown for c in self.sources)
