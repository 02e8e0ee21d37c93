"""Harvest: find finished agent sessions on disk and record what was read, in one commit.

Transcripts stay where their tools left them. What the home gets is this machine's
watermarks (``harvest/<machine>-<source>.json``): per transcript, how far it was read
and the session's metadata. The extract phase reads sessions through the session
inbox (``harvested_sessions``, ``load_transcript``); recall gets one
search document per typed turn through ``brain.index.sync``.

A run that finds nothing new costs one ``stat`` per transcript and makes no commit.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from brain.errors import BrainError
from brain.home.records import iso
from brain.home.uses import counts as uses
from brain.sessions.results import EmptyTranscript, HarvestResult, SourceCounts
from brain.sessions.sources import locations
from brain.sessions.sources.locations import SessionFile
from brain.sessions.visit import Settings, SourceRun, harvest_source, screened
from brain.sessions.watermarks import (
    DEFAULT_SOURCES,
    SessionMissingError,
    SessionRef,
    explicit_files,
    harvested_sessions,
    load_transcript,
    save_marks,
    watermark_rel,
)

# What reads a transcript (citations, search documents) is imported when one is read:
# a harvest that finds nothing new stats the files and stops.
if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.home.transaction import Transaction
    from brain.index.sync import Catalog
    from brain.progress import Progress
    from brain.sessions.mirror import MirrorPlan

__all__ = [
    "HarvestResult",
    "SessionMissingError",
    "SessionRef",
    "SourceCounts",
    "harvest",
    "harvested_sessions",
    "import_session",
    "load_transcript",
]


def harvest(
    home: Home,
    *,
    sources: Sequence[str] = DEFAULT_SOURCES,
    dry_run: bool = False,
    paths: Iterable[Path | str] | None = None,
    now: datetime | None = None,
    catalog: Callable[[], Catalog] | None = None,
    max_age_days: float | None = None,
    progress: Progress | None = None,
    mirror: bool | None = None,
    where: str | None = None,
    workers: int | None = None,
) -> HarvestResult:
    """Harvest finished sessions into this machine's watermarks, in one commit.

    Args:
        home: the home.
        catalog: gives the home's search index, handed the sessions' turns and the
            citations at once; without it they reach the index at its next rebuild. It is
            asked only when a session is new: a harvest that finds nothing new never
            loads the index.
        sources: adapter names to scan (their default roots).
        dry_run: read and count, write nothing.
        paths: harvest exactly these transcript files, ignoring the quiet window
            and the age limit (an agent's SessionEnd hook knows the session is over).
            Each is read as the format its first lines show, or as ``sources`` when it
            names one; a file that gives no turns is reported in ``empty``, not recorded.
        now: the current time (for tests); default the clock.
        max_age_days: read sessions up to this old this time (``--since``, ``--all``),
            instead of the ``max_age_days`` setting.
        progress: called with the transcript files read so far and their total.
        mirror: also mirror the tools' own memories (of the tools among ``sources``) in
            the same commit; default: when no ``paths`` are given.
        where: a folder an agent said it ran in (a hook's ``cwd``): a project root the
            sessions' records may name only by its hash, tried with those brain knows,
            and the folder of a file in ``paths`` whose records name none.
        workers: processes that read the transcripts at once (:mod:`brain.sessions.reading`);
            default one a core when there are many bytes to read, else none; 1 reads each
            in this process. Files named in ``paths`` are read in this process.

    Returns:
        Counts per source, the sessions harvested and the commit (None when nothing
        was new).
    """
    began = time.perf_counter()

    @functools.cache
    def index() -> Catalog | None:
        return catalog() if catalog is not None and not dry_run else None

    def want_docs() -> bool:
        built = index()
        return built is not None and built.exists

    settings = _settings(home, now, want_docs, paths is not None, max_age_days, where, workers)
    if paths is not None:  # one source named reads them all; else each file's content says
        work = explicit_files(paths, sources[0] if len(sources) == 1 else None)
    else:
        work = _discovered(sources)
    total, done = sum(len(files) for files in work.values()), 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    from brain.sessions.mirror import plan_mirror  # small; what it reads is read lazily
    from brain.sessions.sources.native_memory import TOOLS

    wanted = paths is None if mirror is None else mirror
    tools = [tool for tool in TOOLS if tool in sources] if wanted else []
    # Nothing new, the usual answer, is told without the home's lock: nothing is written.
    if (runs := screened(home, work, settings)) is not None:
        plan = plan_mirror(home, tools) if tools else None
        if plan is None or not plan.changed:
            return _result(runs, plan, settings, dry_run, began)
    with home.transaction() as tx:
        runs = [harvest_source(home, src, files, settings, tick) for src, files in work.items()]
        plan = plan_mirror(home, tools) if tools else None
        message = _message(runs, plan)
        sha = None
        if not dry_run and message is not None:
            cited = [path for run in runs for path in run.cited]
            if cited:  # counted by the commit below (brain.home.uses.counts)
                if (built := index()) is not None:
                    built.record_uses(cited)
                else:
                    uses.note(home, uses.CITED, [p for p in cited if p.startswith("memories/")])
            sha = _write(tx, runs, plan, message)
    docs_indexed, index_error = (None, None)
    if sha is not None and (built := index()) is not None and built.exists:
        docs_indexed, index_error = _index(built, runs)
    return _result(runs, plan, settings, dry_run, began, message, sha, (docs_indexed, index_error))


def _result(
    runs: list[SourceRun],
    plan: MirrorPlan | None,
    settings: Settings,
    dry_run: bool,
    began: float,
    message: str | None = None,
    sha: str | None = None,
    indexed: tuple[int | None, str | None] = (None, None),
) -> HarvestResult:
    from brain.sessions.mirror import result_of

    refs = tuple(ref for run in runs for ref in run.refs)
    return HarvestResult(
        sources=tuple(run.frozen() for run in runs),
        sessions=refs,
        failures=tuple(f for run in runs for f in run.failures),
        empty=tuple(_empty(run.source, path) for run in runs for path in run.empty),
        mirror=result_of(plan, sha) if plan is not None else None,
        generate_memories=settings.generate,
        marked_for_extraction=len(refs) if settings.generate else 0,
        docs_indexed=indexed[0],
        index_error=indexed[1],
        dry_run=dry_run,
        elapsed=round(time.perf_counter() - began, 3),
        message=message,
        commit=sha,
    )


def _empty(source: str, path: str) -> EmptyTranscript:
    from brain.sessions.sources.sniff import sniff

    return EmptyTranscript(path, source, sniff(Path(path)))


def import_session(
    home: Home, path: Path | str, *, catalog: Callable[[], Catalog] | None = None
) -> HarvestResult:
    """Register a transcript in brain's own format and harvest it (one commit).

    The file stays where it is; ``harvest/<machine>-brain.json`` records it.

    Raises:
        NotATranscriptError: the file is missing or not in brain's format.
    """

    from brain.sessions.sources.native import read_header

    file = Path(path).expanduser().absolute()
    if not file.is_file() or read_header(file) is None:
        raise NotATranscriptError(file)
    return harvest(home, sources=("brain",), paths=[file], catalog=catalog)


class NotATranscriptError(BrainError):
    """A file given to ``brain sessions import`` is not a brain-format transcript."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"{path} is not a brain transcript",
            hint="see docs/transcript-format.md: the first line is a header with "
            '"format": "brain-transcript"',
        )
        self.path = path


def _settings(
    home: Home,
    now: datetime | None,
    want_docs: Callable[[], bool],
    explicit: bool,
    max_age_days: float | None,
    where: str | None = None,
    workers: int | None = None,
) -> Settings:

    from brain.sessions.projects import known_roots

    moment = now or datetime.now(UTC)
    config = home.config
    return Settings(
        now=moment.timestamp(),
        stamp=iso(moment),
        idle=config.min_idle_minutes * 60,
        max_age=(config.max_age_days if max_age_days is None else max_age_days) * 86_400,
        generate=config.generates,
        want_docs=want_docs,
        explicit=explicit,
        roots=functools.cache(functools.partial(known_roots, home, *([where] if where else []))),
        where=where,
        workers=workers,
    )


def _discovered(sources: Sequence[str]) -> dict[str, list[SessionFile]]:
    """Every main-session transcript under each source's default roots."""
    work: dict[str, list[SessionFile]] = {}
    for source in sources:
        # An adapter loads when one of its files is read, not to find them.
        files = [f for root in locations.roots(source) for f in locations.discover(source, root)]
        work[source] = [f for f in files if f.subagent is None]
    return work


def _message(runs: list[SourceRun], plan: MirrorPlan | None) -> str | None:
    """``harvest: 3 new sessions, 1 grown (claude 2, codex 2)``; None if nothing changed."""
    new = sum(r.counts.get("new", 0) for r in runs)
    grown = sum(r.counts.get("grown", 0) for r in runs)
    parts = []
    if new or grown:
        per = ", ".join(f"{r.source} {len(r.refs)}" for r in runs if r.refs)
        noun = "session" if new == 1 else "sessions"
        parts.append(f"{new} new {noun}, {grown} grown ({per})")
    if plan is not None and plan.changed:
        from brain.sessions.mirror import mirror_message

        mirrored = mirror_message(plan).removeprefix("mirror: ")
        count, _, rest = mirrored.partition(" (")
        parts.append(f"{count} mirrored ({rest}")
    return f"harvest: {'; '.join(parts)}" if parts else None


def _write(tx: Transaction, runs: list[SourceRun], plan: MirrorPlan | None, message: str) -> str:
    touched = []
    for run in runs:
        if run.refs:
            rel = watermark_rel(run.source)
            tx.note([rel])  # noted, then counted: put back if the write cannot finish
            tx.wrote([rel])
            touched.append(save_marks(tx.path, run.source, run.marks, tmp_dir=tx.state))
    if plan is not None:
        from brain.sessions.mirror import write_plan

        touched += write_plan(tx, plan)
    counts = {run.source: len(run.refs) for run in runs if run.refs}
    new = sum(run.counts.get("new", 0) for run in runs)
    mirrored = len(plan.records) + len(plan.archive) if plan is not None else 0
    return tx.commit(touched, message, "harvest", sessions=counts, new=new, mirrored=mirrored)


def _index(catalog: Catalog, runs: list[SourceRun]) -> tuple[int, str | None]:
    """Hand the harvested sessions' turn documents to the catalog."""
    docs = [doc for run in runs for doc in run.docs]
    prefixes = [f"session:{ref.source}:{ref.session_id}#" for run in runs for ref in run.refs]
    try:
        return catalog.upsert_docs(docs, replace_prefixes=prefixes), None
    except (BrainError, OSError) as exc:  # the catalog is derived: the harvest stands
        return 0, str(exc)
