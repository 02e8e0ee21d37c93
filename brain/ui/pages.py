"""What each page of ``brain ui`` shows, gathered from :class:`brain.api.Brain`.

Each function reads the home through the porcelain and returns the plain values a
template renders; none of them writes. The overview and the record list read the
record cache (:meth:`Home.list`), a search is ``brain recall``'s own (without counting
the person's browsing as uses), and a record's history is git's. The live records
a page starts from are held between requests by :class:`brain.ui.snapshot.Snapshot`.
"""

from __future__ import annotations

import os
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from brain.errors import BrainError
from brain.home.records import Record
from brain.pipeline.views import group_of, sessions_of

if TYPE_CHECKING:
    from brain.api import Brain
    from brain.home.git.repo import Commit
    from brain.pipeline.runs import RawMemory, RunInfo

#: Records a list shows at once; a filter or a search narrows the rest.
PAGE = 200
WEEKS = 12


class CommitNotFoundError(BrainError):
    """The home's history has no such commit."""

    def __init__(self, sha: str) -> None:
        super().__init__(f"no commit {sha!r} in the memory's history", hint="see 'brain log'")


class DiffLine(NamedTuple):
    """One line of a patch and how to show it: add, del, hunk, meta or ctx."""

    kind: str
    text: str


class Provenance(NamedTuple):
    """Where a record was learned: a session, and the turn its evidence points at."""

    label: str
    session_id: str
    turn: int | None
    found: bool
    title: str | None
    started: str | None


def now() -> datetime:
    return datetime.now(UTC)


# -- the overview --------------------------------------------------------------------


def week_start(moment: datetime) -> datetime:
    day = moment.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return day - timedelta(days=day.weekday())


def weekly(
    days: Iterable[tuple[str, int]], end: datetime, weeks: int = WEEKS
) -> list[tuple[str, int]]:
    """Counts per week (Monday first) over the ``weeks`` weeks up to ``end``, from
    ``(YYYY-MM-DD..., n)`` pairs: ISO dates order as their text does, so 10,000 records
    are counted without parsing a date."""
    last = week_start(end)
    starts = [(last - timedelta(weeks=n)).date().isoformat() for n in range(weeks - 1, -1, -1)]
    counts = [0] * weeks
    for day, n in days:
        slot = bisect_right(starts, day[:10]) - 1
        if slot >= 0:
            counts[slot] += n
    return list(zip(starts, counts, strict=True))


def overview(
    brain: Brain,
    live: Sequence[Record],
    stale: Any,
    never: Sequence[tuple[Record, Any]],
    weeks: Sequence[tuple[str, int]],
) -> dict[str, Any]:
    """The overview: what the memory holds, what it learned lately, what waits
    (``stale``: ``brain stale``'s report, None when it could not be made; ``never``:
    ``brain list --unused``'s records; ``weeks``: the records used each week)."""
    from brain.pipeline.review import held

    moment = now()
    by_project: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for record in live:
        by_project[group_of(record)][record.type] += 1
    types = sorted({r.type for r in live})
    week_ago = moment - timedelta(days=7)
    since = week_ago.strftime("%Y-%m-%dT%H:%M:%S")
    # Learned: when the session it came from happened, not when phase 2 wrote it.
    recent = [r for r in live if (r.learned or "") >= since]
    tools = Counter(r.profile or "you" for r in recent)
    runs = brain.runs(limit=50)
    kinds = ("extract", "consolidate")
    last = {kind: next((r for r in runs if r.kind == kind), None) for kind in kinds}
    learned = weekly(((r.learned or "", 1) for r in live), moment)
    used = weekly(weeks, moment)
    return {
        "total": len(live),
        "archived": _count(brain.path / "archive"),
        "projects": sorted(by_project.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])),
        "types": types,
        "recent": sorted(recent, key=lambda r: r.learned or "", reverse=True)[:20],
        "recent_count": len(recent),
        "tools": tools.most_common(),
        # What `brain review` lists: the held memories, and the records whose files went.
        "held": len(held(brain)) + sum(1 for r in (stale.records if stale else ()) if r.held),
        "last_runs": last,
        "learned": learned,
        "used": used,
        "stale": stale,
        "unused": never[:20],
        "unused_count": len(never),
    }


def _count(folder: Path) -> int:
    try:
        with os.scandir(folder) as entries:
            return sum(1 for e in entries if e.name.endswith(".md") and not e.name.startswith("."))
    except OSError:
        return 0


# -- records -------------------------------------------------------------------------


class Filters(NamedTuple):
    """The record list's filters, as the query string gives them."""

    q: str
    project: str
    type: str
    tool: str
    tag: str
    age: str
    archived: bool

    @classmethod
    def of(cls, query: dict[str, str]) -> Filters:
        def get(name: str) -> str:
            return query.get(name, "").strip()

        return cls(
            get("q"),
            get("project"),
            get("type"),
            get("tool"),
            get("tag"),
            get("age"),
            get("archived") == "1",
        )


def _age_days(age: str) -> float | None:
    digits = age.rstrip("dw")
    if not digits.isdigit():
        return None
    return float(digits) * (7 if age.endswith("w") else 1)


def _keep(record: Record, f: Filters, since: str | None) -> bool:
    if f.project and group_of(record) != f.project:
        return False
    if f.type and record.type != f.type:
        return False
    if f.tool and (record.profile or "you") != f.tool:
        return False
    if f.tag and f.tag not in record.tags:
        return False
    return since is None or (record.learned or "") >= since


def record_list(brain: Brain, live: Sequence[Record], f: Filters) -> dict[str, Any]:
    """Records matching the filters, newest first, or a search's hits, best first."""
    every = list(brain.list(archived=True).records) if f.archived else live
    days = _age_days(f.age) if f.age else None
    since = (now() - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%S") if days else None
    if f.q and not f.archived:
        result = brain.recall(
            f.q,
            k=100,
            type=f.type or None,
            tag=f.tag or None,
            profile=f.tool if f.tool and f.tool != "you" else None,
            project=f.project or None,
            count_uses=False,
        )
        by_key = {r.key: r for r in every}
        hits = [by_key[h.key] for h in result.hits if h.kind == "record" and h.key in by_key]
        found = [r for r in hits if _keep(r, f, since)]
        snippets = {h.key: h.snippet for h in result.hits if h.kind == "record"}
    else:
        found = [r for r in every if _keep(r, f, since)]
        snippets = {}
    return {
        "records": found[:PAGE],
        "count": len(found),
        "snippets": snippets,
        "projects": sorted({group_of(r) for r in every}),
        "types": sorted({r.type for r in every}),
        "tools": sorted({r.profile or "you" for r in every}),
        "page": PAGE,
    }


# -- one record ----------------------------------------------------------------------


def diff_lines(patch: str) -> list[DiffLine]:
    """A patch's lines, each with how to show it."""
    out = []
    for line in patch.splitlines():
        if line.startswith("index "):
            continue  # blob ids say nothing to a person
        if line.startswith(("+++", "---", "diff ", "new file", "deleted file")):
            kind = "meta"
        elif line.startswith("@@"):
            kind = "hunk"
        elif line.startswith("+"):
            kind = "add"
        elif line.startswith("-"):
            kind = "del"
        else:
            kind = "ctx"
        out.append(DiffLine(kind, line))
    return out


def _turn_of(brain: Brain, session_id: str, evidence: Sequence[tuple[int, int]]) -> int | None:
    """The turn whose transcript lines hold the first line of ``evidence``."""
    if not evidence:
        return None
    try:
        view = brain.session(session_id)
    except BrainError:
        return None
    first = evidence[0][0]
    for turn in view.turns:
        if turn.lines[0] <= first <= turn.lines[1]:
            return turn.number
    return None


def provenance(brain: Brain, record: Record) -> list[Provenance]:
    """The sessions ``record`` was learned in, each with the turn its evidence names."""
    from brain.pipeline.runs import read_raw

    raws = [m for m in read_raw(brain) if m.key == record.key]
    out = []
    known = {(s.source, s.session_id): s for s in brain.sessions()}
    for label in sessions_of(record):
        source, _, sid = label.partition(":")
        sid = sid.removeprefix("session:")
        ref = known.get((source, sid))
        evidence = next((m.evidence for m in reversed(raws) if m.session == label), ())
        turn = _turn_of(brain, sid, evidence) if ref is not None else None
        out.append(
            Provenance(
                label,
                sid,
                turn,
                ref is not None,
                ref.title if ref else None,
                ref.started if ref else None,
            )
        )
    return out


def history(brain: Brain, key: str) -> list[dict[str, Any]]:
    """Record ``key``'s commits, newest first, each with its diff of the record."""
    from brain.home.history import record_files

    files = record_files(key)
    return [
        {"commit": c, "patch": diff_lines(brain.repo.patch_of(c.sha, *files))}
        for c in brain.log(key=key)
    ]


def record_page(brain: Brain, live: Sequence[Record], key: str) -> dict[str, Any]:
    """One record: its fields, provenance, chain, history and uses."""
    shown = brain.show(key)
    record = shown.record
    merged_into = [
        r.key for r in live if key in (r.extra.get("merged_from") or []) and r.key != key
    ]
    merged_from = [str(k) for k in record.extra.get("merged_from") or []]
    return {
        "record": record,
        "path": shown.path,
        "archived": shown.archived,
        "extra": {
            k: v for k, v in record.extra.items() if k not in {"merged_from", "sessions", "learned"}
        },
        "provenance": provenance(brain, record),
        "merged_into": merged_into,
        "merged_from": merged_from,
        "history": history(brain, key),
        "worth": brain.worth(key),
    }


def forgotten_page(brain: Brain, key: str) -> dict[str, Any] | None:
    """Record ``key`` as it was before it was forgotten, and the commit that forgot it;
    None when it is in memory or the archive, or the history never held it."""
    from brain.home.history import forgotten
    from brain.home.keys import validate_key

    try:
        validate_key(key)
    except BrainError:
        return None  # not a key: the record page says so
    gone = forgotten(brain, key)
    if gone is None:
        return None
    return {"record": gone.record, "commit": gone.commit}


def restorable(brain: Brain, commit: Commit | None) -> str | None:
    """The key ``commit`` forgot, when it is a forget whose record is still gone."""
    if commit is None or not commit.message.startswith("forget: "):
        return None
    key = commit.message.removeprefix("forget: ").split(maxsplit=1)[0]
    deleted = {f"memories/{key}.md", f"archive/{key}.md"}
    if not any(status == "D" and path in deleted for status, path in commit.files):
        return None
    if brain.record_path(key).exists() or brain.record_path(key, archived=True).exists():
        return None  # restored since
    return key


# -- review, runs, sessions, commits -------------------------------------------------


class Editing(NamedTuple):
    """An edit of a held memory that was refused: shown again as typed, with why."""

    id: str
    edit: Any  # brain.pipeline.review.HeldEdit
    problem: BrainError


def review_page(brain: Brain, where: Path | None = None) -> dict[str, Any]:
    """The held memories, each with the turn its evidence points at, and the records
    held because their files went (``where``'s checkout first, as ``brain review`` run
    there reads them); the memory types an edit may choose."""
    from brain.models.schema import MEMORY_TYPES

    waiting = brain.review(where=where)
    held: Sequence[RawMemory] = waiting.held
    known = {f"{s.source}:{s.session_id}" for s in brain.sessions()}
    items = []
    for memory in held:
        sid = memory.session.partition(":")[2]
        turn = _turn_of(brain, sid, memory.evidence) if memory.session in known else None
        items.append({"memory": memory, "session_id": sid, "turn": turn})
    return {"items": items, "records": waiting.records, "types": MEMORY_TYPES}


def runs_page(brain: Brain) -> dict[str, Any]:
    return {"runs": brain.runs(limit=200)}


def run_page(brain: Brain, run_id: str) -> dict[str, Any]:
    run: RunInfo = brain.run(run_id)
    return {"run": run, "patch": diff_lines(brain.repo.patch_of(run.commit))}


def commit_page(brain: Brain, sha: str) -> dict[str, Any]:
    commit = brain.repo.commit_of(sha)
    if commit is None:
        raise CommitNotFoundError(sha)
    return {"commit": commit, "patch": diff_lines(brain.repo.patch_of(commit.sha))}


class Paging(NamedTuple):
    """Which page of a long list is shown: its number (from 1), how many there are, and
    the slice of the list it holds (``start`` to ``stop``, as Python slices)."""

    number: int
    pages: int
    start: int
    stop: int

    @classmethod
    def of(cls, count: int, asked: str, size: int) -> Paging:
        """Page ``asked`` (the query's text: not a number, the first; past the end, the last)."""
        pages = max(1, -(-count // size))
        number = 1
        if asked.isascii() and asked.isdigit():
            number = min(max(int(asked), 1), pages) if len(asked) < 10 else pages
        start = (number - 1) * size
        return cls(number, pages, start, min(start + size, count))


def sessions_page(brain: Brain, q: str, page: str = "") -> dict[str, Any]:
    """The harvested sessions, most recently active first, a page of them at a time,
    and the turns a search finds."""
    refs = brain.sessions()
    paging = Paging.of(len(refs), page, PAGE)
    hits: list[Any] = []
    if q:
        from brain.index.docs import turn_key

        result = brain.recall(q, k=30, sessions=True, count_uses=False)
        for hit in result.hits:
            if hit.path.startswith("session:"):
                sid, _, turn = turn_key(hit.path).partition("#")
                hits.append({"hit": hit, "session_id": sid, "turn": turn})
    return {
        "sessions": refs[paging.start : paging.stop],
        "count": len(refs),
        "hits": hits,
        "q": q,
        "paging": paging,
    }


def session_page(brain: Brain, ident: str, turn: int | None) -> dict[str, Any]:
    view = brain.session(ident, turn=turn, around=3) if turn else brain.session(ident)
    return {"view": view}


def commit_line(brain: Brain, sha: str) -> Any:
    """The commit a write just made, for the note at the top of the next page."""
    return brain.repo.commit_of(sha) if sha else None
