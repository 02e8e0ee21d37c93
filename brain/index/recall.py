"""``brain recall``: find the right memory, now or as it stood at a past date."""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brain.errors import BrainError
from brain.home.files import unwritable
from brain.home.uses import counts as uses
from brain.index import META_COMMIT, Hit, Index
from brain.index.db import IndexUnwritableError
from brain.index.docs import Scope
from brain.index.files import file_docs, is_indexed

if TYPE_CHECKING:
    from brain.index.sync import Catalog

HOME_KINDS = ("record", "memory_section", "rollout_summary")
# How many past catalogs ``--as-of`` keeps in ``.brain/as-of/``, the most recently used
# ones: each is a full index of one commit, and a date asked once is rarely asked again.
AS_OF_KEEP = 4
_RELATIVE = re.compile(r"^\s*(\d+)\s*(d|day|days|w|week|weeks|h|hour|hours)\s*(ago)?\s*$", re.I)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class BadDateError(BrainError):
    """A --since or --as-of value is not a date."""

    def __init__(self, value: str) -> None:
        super().__init__(
            f"cannot read {value!r} as a date",
            hint="use YYYY-MM-DD, an ISO time, or a span such as 7d or 2w",
        )


@dataclass(frozen=True, slots=True)
class RecallResult:
    """The hits for one query, best first, and how the index was brought up to date."""

    query: str
    hits: tuple[Hit, ...]
    as_of: str | None = None
    notice: str | None = None


def parse_when(value: str, now: datetime | None = None, *, day_end: bool = False) -> datetime:
    """An absolute UTC time from ``YYYY-MM-DD``, an ISO time, or ``7d``/``2w``/``12h``.

    A bare date is its day's start, or with ``day_end`` its last second: "as it stood on
    that day" holds what that day wrote, where "since that day" starts at its start.
    """
    now = now or datetime.now(UTC)
    if match := _RELATIVE.match(value):
        amount, unit = int(match.group(1)), match.group(2)[0].lower()
        try:
            span = {
                "d": timedelta(days=amount),
                "w": timedelta(weeks=amount),
                "h": timedelta(hours=amount),
            }[unit]
            return now - span
        except OverflowError:  # "9999999d" reaches before year 1
            raise BadDateError(value) from None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise BadDateError(value) from None
    if day_end and _DATE.fullmatch(value.strip()):
        parsed += timedelta(days=1, seconds=-1)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def recall(
    catalog: Catalog,
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
    prepare: Callable[[Index, Sequence[str] | None], Sequence[str] | None] | None = None,
) -> RecallResult:
    """Search the memory.

    Args:
        query: free text; pasted punctuation and operators are harmless.
        k: how many hits at most.
        type, tag, profile: keep only records with this type, tag or profile.
        since: keep only documents updated since this date (or span, e.g. ``7d``).
        as_of: search the memory as it stood at this date, from git history.
        sessions: also search harvested transcript turns (the episodic layer).
        project: keep to one project (a name, or a folder in it): its records and the
            person's own, its sessions' turns, and the views. A session is in the
            project its working directory's git checkout is named after (as
            ``brain sessions list --project`` counts it).
        count_uses: count the records found as used (an agent's recall is a use; a
            person browsing the memory in ``brain ui`` is not).
        prepare: handed the open index and the kinds searched before the search, it
            returns the kinds to search (the team layer brings its documents up to date
            and adds theirs in a checkout a team covers).
    """
    filters: dict[str, Any] = {
        "k": k,
        "types": [type] if type else None,
        "tags": [tag] if tag else None,
        "profile": profile,
        "since": parse_when(since) if since else None,
        "kinds": None if sessions else HOME_KINDS,
        "half_life_days": catalog.config.decay_half_life_days,
    }
    if as_of:
        if project:
            filters["scope"] = Scope(_name(project), (), _unknown(project))
        return _recall_as_of(catalog, query, as_of, filters)
    index, report = catalog.open(reuse=True)
    if prepare is not None:
        filters["kinds"] = prepare(index, filters["kinds"])
    if project:
        # Only turns are kept by the folder their session ran in: a search of the home
        # alone (the MCP tool's, on every call) needs no look at the sessions.
        filters["scope"] = (
            _scope(index, project) if sessions else Scope(_name(project), (), _unknown(project))
        )
    hits = tuple(index.search(query, **filters))
    used = [h.path for h in hits if h.kind == "record"]
    if used and count_uses:
        try:
            uses.note_uses(catalog, used)
        except OSError as exc:
            if unwritable(exc) is None:
                raise  # a full or read-only disk costs the count, never the answer
        # A busy index skips the bump: the uses are noted, and a rebuild counts them.
        with contextlib.suppress(sqlite3.OperationalError, IndexUnwritableError):
            index.bump_use(used, datetime.now(UTC))
    notices = [f"index {report.action}: {report.reason}"] if report.action == "rebuilt" else []
    if catalog.semantic_problem:
        notices.append(f"warning: searched without the semantic layer: {catalog.semantic_problem}")
    notice = "\n".join(notices) or None
    return RecallResult(query, hits, None, notice)


def _name(project: str) -> str:
    """A project's name as records carry it, from a name or a folder."""
    from brain.home.scope import project_name

    return (project_name(project) or project).strip().lower()


def _unknown(project: str) -> tuple[str, ...]:
    """The unknown projects (:func:`brain.home.scope.unknown_names`) a folder is; none
    for a project given by name."""
    from brain.home.scope import unknown_names

    return tuple(sorted(unknown_names(project))) if Path(project).is_dir() else ()


def _scope(index: Index, project: str) -> Scope:
    """``project`` and the working directories of its indexed sessions."""
    from brain.home.scope import project_name

    name = _name(project)
    folders = tuple(
        sorted(
            folder
            for folder in index.session_folders()
            if folder.rstrip("/\\") == project.rstrip("/\\")
            or (project_name(folder) or "").lower() == name
        )
    )
    return Scope(name, folders, _unknown(project))


def _recall_as_of(catalog: Catalog, query: str, when: str, filters: dict[str, Any]) -> RecallResult:
    """Search a catalog of the home at the last commit before ``when`` (cached by commit)."""
    moment = parse_when(when, day_end=True)
    home = catalog.home
    rev = home.repo.rev_before(moment.isoformat())
    if rev is None:
        return RecallResult(query, (), None, f"the memory did not exist yet on {when}")
    path = home.state / "as-of" / f"{rev}.sqlite"
    fresh = not path.exists()
    with Index.open(path) as index:
        if fresh or index.rebuild_reason() or index.get_meta(META_COMMIT) != rev:
            docs = []
            for prefix in ("memories/", "rollout_summaries/", "MEMORY.md"):
                for rel, data in home.repo.files_at(rev, prefix).items():
                    if is_indexed(rel):
                        docs += file_docs(rel, data.decode("utf-8", "replace"))
            index.clear()
            index.upsert(docs)
            index.set_meta(META_COMMIT, rev)
            index.mark_rebuilt()
        hits = tuple(index.search(query, now=moment, **filters))
    _prune_as_of(path)
    return RecallResult(query, hits, rev, None)


def _prune_as_of(used: Path) -> None:
    """Mark ``used`` as just used and delete all but the ``AS_OF_KEEP`` latest catalogs.

    A catalog another process is still reading stays readable after its unlink, and a
    deleted one is only rebuilt from git when its date is asked again.
    """
    with contextlib.suppress(OSError):
        used.touch()
    found = []
    for path in used.parent.glob("*.sqlite"):
        with contextlib.suppress(OSError):
            found.append((path.stat().st_mtime_ns, path))
    found.sort(reverse=True)
    for _, path in found[AS_OF_KEEP:]:
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):  # a cache left behind costs only disk
                Path(f"{path}{suffix}").unlink(missing_ok=True)
