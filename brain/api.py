"""The verbs beyond reading and writing records, as methods of ``Brain``.

Each delegates to the module that does the work, imported when called, so opening a
home (and so ``brain recall``) never pays for the pipeline, litellm or the agents.
``Brain`` inherits these; the command of the same name calls them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from brain.home.home import Brain


def _brain(verbs: Verbs) -> Brain:
    return cast("Brain", verbs)


class Verbs:
    """recall, index, harvest, sessions, mirror, extract, consolidate, runs, status,
    context, sync_instructions, import and export, config."""

    def import_(self, lines: Iterable[str], *, origin: str = "import") -> Any:
        """Import JSONL records in one commit (see :func:`brain.home.exchange.import_records`)."""
        from brain.home.exchange import import_records

        return import_records(_brain(self), lines, origin=origin)

    def export(self, *, archived: bool = False) -> list[dict[str, Any]]:
        """Every record as a JSON-ready dict (see :func:`brain.home.exchange.export_records`)."""
        from brain.home.exchange import export_records

        return export_records(_brain(self), archived=archived)

    def config_set(self, name: str, value: str) -> Any:
        """Set one key in brain.yaml (comments kept) and commit the change."""
        from brain.home.config import set_committed

        return set_committed(_brain(self), name, value)

    def config_get(self, name: str) -> Any:
        """The effective value of one key and where it comes from."""
        from brain.home import config as config_mod
        from brain.home.results import ConfigValue

        brain = _brain(self)
        value = config_mod.value_of(brain.config, name)
        return ConfigValue(name, value, config_mod.origin_of(brain.path, name))

    def config_list(self) -> list[Any]:
        """Every key's effective value and origin."""
        from brain.home.config import KNOWN

        return [self.config_get(name) for name in KNOWN]

    def recall(self, query: str, **filters: Any) -> Any:
        """Search the memory; see :func:`brain.index.recall.recall` for the filters."""
        from brain.index.recall import recall

        return recall(_brain(self), query, **filters)

    def index(self, *, rebuild: bool = False) -> Any:
        """Bring the index up to date (or rebuild it) and report what was done."""
        from dataclasses import replace

        from brain.index.sync import open_index

        index, report = open_index(_brain(self), rebuild=rebuild)
        try:
            if report.documents is None:
                report = replace(report, documents=index.count())
            return report
        finally:
            index.close()

    def harvest(
        self,
        *,
        sources: Sequence[str] = ("claude", "codex", "gemini"),
        dry_run: bool = False,
        paths: Iterable[Path | str] | None = None,
    ) -> Any:
        """Harvest finished agent sessions (see :func:`brain.sessions.harvest.harvest`)."""
        from brain.sessions.harvest import harvest

        return harvest(_brain(self), sources=sources, dry_run=dry_run, paths=paths)

    def import_session(self, path: Path | str) -> Any:
        """Harvest one transcript in brain's own JSONL format."""
        from brain.sessions.harvest import import_session

        return import_session(_brain(self), path)

    def sessions(self, *, source: str | None = None, project: str | None = None) -> Any:
        """Harvested sessions, most recently active first."""
        from brain.sessions.watermarks import list_sessions

        return list_sessions(_brain(self), source=source, project=project)

    def session(self, ident: str) -> Any:
        """One harvested session with its turns, by id or unique prefix."""
        from brain.sessions.text import show_session

        return show_session(_brain(self), ident)

    def mirror(self) -> Any:
        """Copy Claude Code's own memory files in as records."""
        from brain.sessions.mirror import mirror_claude_memory

        return mirror_claude_memory(_brain(self))

    def extract(self, *, sessions: Sequence[str] = (), dry_run: bool = False) -> Any:
        """Phase 1 (see :func:`brain.pipeline.extract.extract`)."""
        from brain.pipeline.extract import extract

        return extract(_brain(self), sessions=sessions, dry_run=dry_run)

    def consolidate(self, *, force: bool = False, dry_run: bool = False) -> Any:
        """Phase 2 (see :func:`brain.pipeline.consolidate.consolidate`)."""
        from brain.pipeline.consolidate import consolidate

        return consolidate(_brain(self), force=force, dry_run=dry_run)

    def runs(self, *, limit: int | None = None) -> Any:
        """Past extract and consolidate runs, newest first."""
        from brain.pipeline.runs import list_runs

        return list_runs(_brain(self), limit=limit)

    def run(self, run_id: str) -> Any:
        """One past run."""
        from brain.pipeline.runs import show_run

        return show_run(_brain(self), run_id)

    def status(self) -> Any:
        """Where the pipeline stands: last runs, pending work, sizes, last errors."""
        from brain.pipeline.runs import status

        return status(_brain(self))

    def context(self, *, project: Path | None = None, budget: int | None = None) -> Any:
        """What an agent should see at session start."""
        from brain.agents.context import context

        return context(_brain(self), project=project, budget=budget)

    def sync_instructions(
        self,
        project: Path | None = None,
        files: Sequence[str] | None = None,
        *,
        budget: int | None = None,
        dry_run: bool = False,
    ) -> Any:
        """Write the context into the brain-managed block of each instruction file."""
        from brain.agents.instructions import DEFAULT_FILES, sync_instructions

        chosen = tuple(files) if files else DEFAULT_FILES
        return sync_instructions(_brain(self), project, chosen, budget=budget, dry_run=dry_run)
