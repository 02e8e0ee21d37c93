"""The library's typed surface: :class:`Brain`, a memory home with every verb.

The command line, the MCP server and the agent hooks all call these methods; each
returns a frozen result, never prints, exits or prompts. ``Brain`` is a
:class:`~brain.home.home.Home` (remember, show, list, forget, archive, restore, log,
config) that also wires the layers above the home together: its writes keep the
search catalog in step, and taking a record out renders the views again.

This module is also the one place where brain's start-up cost is decided: the
pipeline, the transcript adapters and the model clients are imported inside the
verb that needs them, so opening a home (and so ``brain recall`` or the session-start
hook) never pays for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brain.home.home import Home
from brain.home.paths import INDEX_FILE

if TYPE_CHECKING:
    from brain.home.config import Config
    from brain.home.edit import EditResult
    from brain.home.git.repo import Commit
    from brain.home.import_export import ImportResult
    from brain.home.results import ConfigValue
    from brain.home.staleness.report import StaleRecord, StaleReport
    from brain.home.sync.purge import PurgeResult
    from brain.home.sync.remote import SyncResult
    from brain.home.transaction import WriteResult
    from brain.index import Doc
    from brain.index.recall import RecallResult
    from brain.index.report import Embedder, IndexReport
    from brain.index.sync import Catalog
    from brain.pipeline.consolidate import ConsolidateResult
    from brain.pipeline.estimate import ExtractionEstimate
    from brain.pipeline.extract import ExtractResult
    from brain.pipeline.review import HeldEdit, ReviewResult
    from brain.pipeline.runs import RunInfo
    from brain.pipeline.session_ops import SessionsChanged
    from brain.pipeline.status import StatusResult
    from brain.pipeline.undo import UndoResult
    from brain.progress import Progress
    from brain.sessions.harvest import HarvestResult
    from brain.sessions.mirror import MirrorResult
    from brain.sessions.text import SessionView
    from brain.sessions.watermarks import SessionRef

__all__ = ["Brain"]

DEFAULT_SOURCES = (
    "claude",
    "codex",
    "gemini",
    "copilot",
    "opencode",
    "qwen",
    "antigravity",
    "crush",
)


def _session_docs(home: Home) -> Iterable[Doc]:
    """The harvested transcripts' turns, for a rebuild of the catalog."""
    from brain.sessions.text import iter_session_docs  # only a rebuild reads transcripts
    from brain.team.catalog import team_docs

    yield from iter_session_docs(home)
    yield from team_docs(home.path)


def _embedder(config: Config) -> Embedder | None:
    """The outside embedding model ``embedding_model`` names (litellm reaches it)."""
    if not config.embedding_model:
        return None
    from brain.models.embedding import Embedder as LitellmEmbedder

    return LitellmEmbedder(config.embedding_model, config.model_api_base)


class Brain(Home):
    """A memory home and everything brain does with it. Open with :meth:`open`."""

    @cached_property
    def catalog(self) -> Catalog:
        """The home's search index, handed the documents and models it cannot import."""
        from brain.index.sync import Catalog  # a listing or a show never opens the index

        return Catalog(self, extra_docs=_session_docs, make_embedder=_embedder)

    def close(self) -> None:
        """Close the index connection a long-lived process kept open."""
        if "catalog" in self.__dict__:
            self.catalog.close()

    # -- what the home hooks up to ---------------------------------------------------

    def after_commit(self, before: str | None, after: str, paths: Sequence[str]) -> None:
        """Bring the catalog's rows for ``paths`` up to the new commit (a home with no
        index yet loads no index code: its first read builds one)."""
        if "catalog" in self.__dict__ or (self.state / INDEX_FILE).exists():
            self.catalog.after_commit(before, after, paths)

    def views_again(self) -> list[str]:
        """Render MEMORY.md and memory_summary.md again (once a consolidation made them),
        so a record forgotten or archived leaves the session-start context at once."""
        if not (self.path / "MEMORY.md").exists():
            return []
        from brain.pipeline.views import regenerate_views

        return regenerate_views(self)

    # -- search ----------------------------------------------------------------------

    def recall(
        self,
        query: str,
        *,
        k: int = 10,
        type: str | None = None,
        tag: str | None = None,
        profile: str | None = None,
        since: str | None = None,
        as_of: str | None = None,
        sessions: bool = False,
        project: str | None = None,
        count_uses: bool = True,
        where: Path | str | None = None,
    ) -> RecallResult:
        """Search the memory; see :func:`brain.index.recall.recall`. In a checkout
        (``where``) a team covers, the team's records are searched too (see
        :func:`brain.team.searching.recall_in_teams`)."""
        from brain.index.recall import recall

        if where is not None and as_of is None:
            from brain.team.searching import recall_in_teams

            found = recall_in_teams(self, recall, query, where, k=k, type=type, tag=tag,
                                    profile=profile, since=since, sessions=sessions,
                                    project=project, count_uses=count_uses)  # fmt: skip
            if found is not None:
                return found
        return recall(
            self.catalog,
            query,
            k=k,
            type=type,
            tag=tag,
            profile=profile,
            since=since,
            as_of=as_of,
            sessions=sessions,
            project=project,
            count_uses=count_uses,
        )

    def index(self, *, rebuild: bool = False, progress: Progress | None = None) -> IndexReport:
        """Bring the index up to date (or rebuild it) and report what was done.

        ``progress`` hears how many documents a rebuild has indexed, of all.
        """
        from dataclasses import replace

        self.catalog.progress = progress
        try:
            index, report = self.catalog.open(rebuild=rebuild, in_memory=False)
        finally:
            self.catalog.progress = None
        try:
            if report.documents is None:
                report = replace(report, documents=index.count())
            return report
        finally:
            index.close()

    # -- records in bulk and remotes -------------------------------------------------

    def import_(
        self, lines: Iterable[str], *, origin: str = "import", progress: Progress | None = None
    ) -> ImportResult:
        """Import JSONL records in one commit; see
        :func:`brain.home.import_export.import_records`."""
        from brain.home.import_export import import_records

        return import_records(self, lines, origin=origin, progress=progress)

    def export(self, *, archived: bool = False) -> list[dict[str, Any]]:
        """Every record as a JSON-ready dict; see
        :func:`brain.home.import_export.export_records`."""
        from brain.home.import_export import export_records

        return export_records(self, archived=archived)

    def restore(self, key: str) -> WriteResult:
        """Bring an archived record back, or a forgotten one from history (see
        :func:`brain.home.history.restore_forgotten`)."""
        if not self.record_path(key, archived=True).exists():
            from brain.home.history import restore_forgotten

            return restore_forgotten(self, key)
        return super().restore(key)

    def log(self, limit: int | None = None, key: str | None = None) -> list[Commit]:
        """The memory's history, newest first (only the commits that changed record
        ``key``, when given)."""
        if key is not None:
            from brain.home.history import record_log

            return record_log(self, key, limit)
        return super().log(limit)

    def edit_text(self, key: str) -> str:
        """The text of record ``key`` as it is on disk, to edit."""
        from brain.home.edit import text_to_edit

        return text_to_edit(self, key)

    def edit(self, key: str, text: str, *, where: Path | str | None = None) -> EditResult:
        """Check the edited text of a record and commit it; see :mod:`brain.home.edit`."""
        from brain.home.edit import save_edit

        return save_edit(self, key, text, where)

    def rename(self, name: str, key: str) -> WriteResult:
        """File the record ``name`` (a file a person named, ``café notes``, or a key)
        under ``key``, in the same folder: the file moves, its frontmatter gets the key
        (and an ``id`` and ``type`` when it had none), one commit."""
        from brain.home.edit import rename_record

        return rename_record(self, name, key)

    def discard_edit(self, key: str) -> EditResult:
        """Put back the last committed version of a record edited by hand."""
        from brain.home.edit import discard_edit

        return discard_edit(self, key)

    def commit_hand_edits(self) -> tuple[EditResult, tuple[str, ...]]:
        """Commit the record files edited by hand that read as records."""
        from brain.home.edit import commit_hand_edits

        return commit_hand_edits(self)

    def config_set(self, name: str, value: str) -> ConfigValue:
        """Set one key (see :meth:`Home.config_set`); a model whose library is not
        installed is refused with the line that installs it."""
        if name in {"extract_model", "consolidation_model", "embedding_model"}:
            from brain.models.registry import missing_library

            if problem := missing_library(value.strip()):
                from brain.home.config import ConfigError

                raise ConfigError(f"{problem}; nothing was changed")
        return super().config_set(name, value)

    def remote_add(self, url: str, name: str = "origin") -> SyncResult:
        """Name a remote to push the memory to."""
        from brain.home.sync import remote

        return remote.remote_add(self, url, name)

    def remote_set_url(self, url: str, name: str = "origin") -> SyncResult:
        """Point an existing remote at another URL."""
        from brain.home.sync import remote

        return remote.remote_set_url(self, url, name)

    def remote_remove(self, name: str = "origin") -> SyncResult:
        """Forget a remote; nothing is deleted there."""
        from brain.home.sync import remote

        return remote.remote_remove(self, name)

    def remote_show(self) -> dict[str, str]:
        """The home's remotes: name → URL."""
        from brain.home.sync import remote

        return remote.remote_show(self)

    def purge(
        self,
        *,
        text: str | None = None,
        key: str | None = None,
        dry_run: bool = False,
        remote: str = "origin",
    ) -> PurgeResult:
        """Rewrite the history without ``text`` (or record ``key``), push it with a lease,
        and rebuild the index and caches; see :mod:`brain.home.sync.purge`."""
        from brain.home.sync.purge import purge

        result = purge(self, text=text, key=key, dry_run=dry_run, remote=remote)
        if not result.dry_run:
            self._after_rewrite()
        return result

    def _after_rewrite(self) -> None:
        """The history was rewritten: what was derived from the old one goes (the index,
        the indexes of past revisions, the caches), and the index is built again."""
        import shutil

        self.close()
        self.__dict__.pop("catalog", None)
        for name in (INDEX_FILE, f"{INDEX_FILE}-wal", f"{INDEX_FILE}-shm"):
            (self.state / name).unlink(missing_ok=True)
        for folder in ("as-of", "cache"):
            shutil.rmtree(self.state / folder, ignore_errors=True)
        self.index(rebuild=True)

    def push(self, name: str = "origin") -> SyncResult:
        """Push the memory's history to a remote."""
        from brain.home.sync import remote

        return remote.push(self, name)

    def pull(self, name: str = "origin") -> SyncResult:
        """Fetch and merge a remote's history; generated views are rendered again."""
        from brain.home.sync import remote

        result = remote.pull(self, name)
        if result.rewritten:
            self._after_rewrite()
        return result

    def sync(self, name: str = "origin") -> SyncResult:
        """Pull, settle conflicts by the records' own history, then push."""
        from brain.home.sync import remote

        result = remote.sync(self, name)
        if result.rewritten:
            self._after_rewrite()
        return result

    # -- sessions --------------------------------------------------------------------

    def harvest(
        self,
        *,
        sources: Sequence[str] = DEFAULT_SOURCES,
        dry_run: bool = False,
        paths: Iterable[Path | str] | None = None,
        now: datetime | None = None,
        max_age_days: float | None = None,
        progress: Progress | None = None,
        mirror: bool | None = None,
        where: str | None = None,
    ) -> HarvestResult:
        """Harvest finished agent sessions; see :func:`brain.sessions.harvest.harvest`."""
        from brain.sessions.harvest import harvest

        return harvest(
            self,
            sources=sources,
            dry_run=dry_run,
            paths=paths,
            now=now,
            catalog=lambda: self.catalog,
            max_age_days=max_age_days,
            progress=progress,
            mirror=mirror,
            where=where,
        )

    def import_session(self, path: Path | str) -> HarvestResult:
        """Harvest one transcript in brain's own JSONL format."""
        from brain.sessions.harvest import import_session

        return import_session(self, path, catalog=lambda: self.catalog)

    def sessions(
        self, *, source: str | None = None, project: str | None = None
    ) -> list[SessionRef]:
        """Harvested sessions, most recently active first."""
        from brain.sessions.watermarks import list_sessions

        return list_sessions(self, source=source, project=project)

    def session(self, ident: str, *, turn: int | None = None, around: int = 3) -> SessionView:
        """One harvested session with its turns, by id or unique prefix; with ``turn``,
        that turn and ``around`` neighbours on each side."""
        from brain.sessions.text import show_session

        return show_session(self, ident, turn=turn, around=around)

    def session_delete(self, idents: Sequence[str]) -> SessionsChanged:
        """Delete harvested sessions from brain (not from disk), in one commit: their
        turns leave the index, their summaries and raw memories are marked."""
        from brain.pipeline.session_ops import delete_sessions
        from brain.sessions.watermarks import find_session

        refs = list(dict.fromkeys(find_session(self, i) for i in idents))
        names = ", ".join(r.session_id for r in refs)
        return delete_sessions(
            self, refs, message=f"sessions: delete {names}", catalog=lambda: self.catalog
        )

    def session_rename(self, ident: str, title: str) -> SessionsChanged:
        """Give a harvested session a title of your own, in one commit."""
        from brain.pipeline.session_ops import rename_session

        return rename_session(self, ident, title)

    def sessions_prune(self, older_than_days: float) -> SessionsChanged:
        """Delete the harvested sessions last active more than ``older_than_days`` ago."""
        from brain.pipeline.session_ops import prune_sessions

        return prune_sessions(self, older_than_days, catalog=lambda: self.catalog)

    def mirror(self, tools: Sequence[str] | None = None) -> MirrorResult:
        """Copy what Claude Code, Gemini CLI and Codex CLI remember themselves in as
        records (``tools`` picks some of ``claude``, ``gemini``, ``codex``)."""
        from brain.sessions.mirror import mirror_native
        from brain.sessions.sources.native_memory import TOOLS

        return mirror_native(self, tools or TOOLS)

    # -- the model pipeline ----------------------------------------------------------

    def extract(
        self,
        *,
        sessions: Sequence[str] = (),
        dry_run: bool = False,
        now: datetime | None = None,
        max_age_days: float | None = None,
        progress: Progress | None = None,
    ) -> ExtractResult:
        """Phase 1; see :func:`brain.pipeline.extract.extract`.

        A session may be named as ``brain sessions list`` prints it: a unique prefix of
        its id (an unknown or ambiguous one is an error that says so).
        """
        from brain.pipeline.extract import extract
        from brain.pipeline.pending import session_label
        from brain.sessions.watermarks import find_session

        named = [s if ":" in s else session_label(find_session(self, s)) for s in sessions]
        return extract(
            self,
            sessions=named,
            dry_run=dry_run,
            now=now,
            max_age_days=max_age_days,
            progress=progress,
        )

    def estimate_extraction(self, refs: Sequence[SessionRef]) -> ExtractionEstimate:
        """What phase 1 would use on ``refs``; see :mod:`brain.pipeline.estimate`."""
        from brain.pipeline.estimate import estimate_extraction

        return estimate_extraction(self, refs)

    def consolidate(
        self,
        *,
        force: bool = False,
        dry_run: bool = False,
        now: datetime | None = None,
        progress: Progress | None = None,
    ) -> ConsolidateResult:
        """Phase 2; see :func:`brain.pipeline.consolidate.consolidate`."""
        from brain.pipeline.consolidate import consolidate

        return consolidate(
            self, force=force, dry_run=dry_run, now=now, catalog=self.catalog, progress=progress
        )

    def review(
        self,
        *,
        accept: Sequence[str] = (),
        reject: Sequence[str] = (),
        where: Path | str | None = None,
        sessions: Sequence[str] = (),
    ) -> ReviewResult:
        """Held memories and records, or a decision on them; see
        :func:`brain.pipeline.review.review`. Records are held when every file they rest
        on in a checkout on this machine (``where``'s first) was deleted."""
        from brain.pipeline.review import review

        gone = [r for r in self.stale(where=where).records if r.held]
        return review(self, accept=accept, reject=reject, gone=gone, sessions=sessions)

    def review_text(self, ident: str) -> str:
        """The held memory ``ident`` (its id or key) as text to edit; see
        :func:`brain.pipeline.review.held_text`."""
        from brain.pipeline.review import held_text

        return held_text(self, ident)

    def review_edit(
        self, ident: str, change: HeldEdit | str, *, accept: bool = False
    ) -> ReviewResult:
        """Change a held memory (and with ``accept``, accept it) in one commit; see
        :func:`brain.pipeline.review.edit_held`."""
        from brain.pipeline.review import edit_held

        return edit_held(self, ident, change, accept=accept)

    def checkouts(self, where: Path | str | None = None) -> dict[str, Path]:
        """The projects' git checkouts on this machine, by project name: ``where``'s
        first, then those of the folders harvested sessions ran in."""
        from brain.home.git.checkouts import top_of
        from brain.home.scope import project_name
        from brain.sessions.projects import known_roots

        found: dict[str, Path] = {}
        for folder in [*([str(where)] if where is not None else []), *known_roots(self)]:
            top, name = top_of(folder), project_name(folder)
            if top is not None and name and name.lower() not in {n.lower() for n in found}:
                found[name] = top
        return found

    def stale(
        self, project: Path | str | None = None, *, where: Path | str | None = None
    ) -> StaleReport:
        """The possibly stale records of every checkout on this machine, or of
        ``project`` (a folder in a checkout, or a project's name); ``where`` is the
        folder the command runs in. See :func:`brain.home.staleness.report.stale`."""
        from brain.home.scope import project_name
        from brain.home.staleness.report import stale

        folder = project if project is not None and Path(project).is_dir() else None
        only = project_name(project) if project is not None else None
        return stale(self, self.checkouts(folder or where), only=only)

    def stale_record(self, key: str, *, where: Path | str | None = None) -> StaleRecord | None:
        """Record ``key``'s files that changed, went or were renamed since its commit, when
        its checkout is on this machine (``where``'s first); None otherwise. See
        :func:`brain.home.staleness.report.stale_record`."""
        from brain.home.staleness.report import stale_record

        return stale_record(self, key, lambda: self.checkouts(where))

    def confirm(self, key: str, *, where: Path | str | None = None) -> WriteResult:
        """Record ``key`` still holds: its commit moves to its checkout's HEAD, in one
        commit. See :func:`brain.home.staleness.report.confirm`."""
        from brain.home.staleness.report import confirm

        return confirm(self, key, self.checkouts(where))

    def runs(self, *, limit: int | None = None) -> list[RunInfo]:
        """Past extract and consolidate runs, newest first."""
        from brain.pipeline.runs import list_runs

        return list_runs(self, limit=limit)

    def run(self, run_id: str) -> RunInfo:
        """One past run."""
        from brain.pipeline.runs import show_run

        return show_run(self, run_id)

    def undo_run(self, run_id: str) -> UndoResult:
        """Put back what one extract or consolidate run changed, in one commit; see
        :func:`brain.pipeline.undo.undo_run`."""
        from brain.pipeline.undo import undo_run

        return undo_run(self, run_id)

    def status(self) -> StatusResult:
        """Where the pipeline stands: last runs, pending work, sizes, last errors."""
        from brain.pipeline.status import status

        return status(self)
