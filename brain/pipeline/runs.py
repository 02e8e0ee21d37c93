"""The pipeline's own records: the raw memory log, the local state file, past runs, status.

``raw_memories.md`` is phase 1's output and phase 2's input: append-only, newest last,
merged by union across machines. Each entry is a small markdown block whose body is
quoted (``> ``), so nothing a model wrote can be mistaken for the next entry's heading.
``.brain/pipeline-state.json`` is local and untracked: failed sessions and their
backoff, last errors. Past runs come from git (the commit, its files, its ``Run:``
trailer) joined with the run's journal line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from brain.errors import BrainError
from brain.home import journal
from brain.home.clock import iso, utcnow
from brain.home.files import atomic_write, make_private_dir, read_text

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.home.paths import Located

RAW = "raw_memories.md"
STATE_FILE = "pipeline-state.json"
KINDS = ("extract", "consolidate")
# The tag on a raw memory held for a person's decision (``brain review``): phase 2
# does not read it until it is accepted (:mod:`brain.pipeline.trust` sets it).
REVIEW_TAG = "review:pending"
# The tag a memory a person accepted in ``brain review`` carries from then on: it may say
# what no model's word alone makes a rule (:mod:`brain.pipeline.trust.weakening`).
ACCEPTED_TAG = "review:accepted"
HELD_PREFIX = "held:"  # the reason a memory is held: ``held:weakens-safety`` ...


def parse_time(value: str | None) -> datetime | None:
    """An aware datetime from an ISO string (``Z`` allowed), or None."""
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


_RAW_HEADER = (
    "# Raw memories\n\nPhase 1 output: append-only, newest last. Phase 2 consolidates these "
    "into memories/; see journal.jsonl for what each run consumed.\n\n"
)
_FIELD = re.compile(r"^- (\w+): ?(.*)$")
_RUN_TRAILER = re.compile(r"^Run: (\S+)\s*$", re.M)


class RunNotFoundError(BrainError):
    """No extract or consolidate run has the id."""

    def __init__(self, run_id: str) -> None:
        super().__init__(f"no pipeline run {run_id!r}", hint="see 'brain runs list'")
        self.run_id = run_id


# -- the raw memory log ------------------------------------------------------------------


class RawMemory(NamedTuple):
    """One phase 1 memory as written in ``raw_memories.md``."""

    id: str
    key: str
    type: str
    description: str
    body: str
    tags: tuple[str, ...] = ()
    confidence: float = 0.5
    session: str = ""
    evidence: tuple[tuple[int, int], ...] = ()
    date: str = ""  # when phase 1 wrote it
    run: str = ""
    # What it rests on (brain.home.anchors): the checkout, its commit, files of it.
    checkout: str = ""
    commit: str = ""
    paths: tuple[str, ...] = ()
    session_time: str = ""  # when its session happened (its start): when it was learned


def learned_time(memory: RawMemory) -> str:
    """When ``memory`` was learned: its session's time, else (a raw memory written before
    phase 1 kept that) when phase 1 wrote it."""
    return memory.session_time or memory.date


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def render_raw(memory: RawMemory) -> str:
    """The markdown block of one raw memory."""
    evidence = ", ".join(f"L{a}-L{b}" for a, b in memory.evidence) or "none"
    fields = [
        ("id", memory.id),
        ("key", memory.key),
        ("type", memory.type),
        ("description", memory.description),
        ("tags", ", ".join(memory.tags)),
        ("confidence", f"{memory.confidence:g}"),
        ("session", memory.session),
        ("evidence", evidence),
        ("date", memory.date),
        ("run", memory.run),
    ]
    if memory.session_time:
        fields.append(("session_time", memory.session_time))
    if memory.checkout and memory.commit:  # a session in no checkout rests on nothing
        fields += [("checkout", memory.checkout), ("commit", memory.commit)]
        fields += [("paths", ", ".join(memory.paths))] if memory.paths else []
    head = "\n".join(f"- {name}: {_one_line(value)}" for name, value in fields)
    body = "\n".join(f"> {line}".rstrip() for line in memory.body.strip().splitlines())
    return f"### {memory.key}\n\n{head}\n\n{body}\n\n"


def parse_raw(text: str) -> list[RawMemory]:
    """Every entry of a raw memory log, oldest first; malformed blocks are skipped."""
    entries, key, meta, body = [], None, {}, []  # type: ignore[var-annotated]
    for line in [*text.splitlines(), "### "]:
        if line.startswith("### "):
            if key and meta.get("id"):
                entries.append(_entry(key, meta, body))
            key, meta, body = line[4:].strip(), {}, []
        elif key and (found := _FIELD.match(line)) and not body:
            meta[found.group(1)] = found.group(2).strip()
        elif key and line.startswith(">"):
            body.append(line[2:] if line.startswith("> ") else line[1:])
    return entries


def _entry(key: str, meta: dict[str, str], body: list[str]) -> RawMemory:
    spans = re.findall(r"L(\d+)-L(\d+)", meta.get("evidence", ""))
    try:
        confidence = float(meta.get("confidence", "0.5"))
    except ValueError:
        confidence = 0.5
    return RawMemory(
        id=meta["id"],
        key=key,
        type=meta.get("type", "fact"),
        description=meta.get("description", ""),
        body="\n".join(body).strip(),
        tags=tuple(t.strip() for t in meta.get("tags", "").split(",") if t.strip()),
        confidence=confidence,
        session=meta.get("session", ""),
        evidence=tuple((int(a), int(b)) for a, b in spans),
        date=meta.get("date", ""),
        run=meta.get("run", ""),
        checkout=meta.get("checkout", ""),
        commit=meta.get("commit", ""),
        paths=tuple(p.strip() for p in meta.get("paths", "").split(",") if p.strip()),
        session_time=meta.get("session_time", ""),
    )


def read_raw(home: Located) -> list[RawMemory]:
    """The raw memory log of the home, oldest first."""
    path = home.path / RAW
    return parse_raw(read_text(path)) if path.exists() else []


def append_raw(home: Home, memories: Iterable[RawMemory]) -> str:
    """Append entries to the raw memory log (written whole, atomically); return its path.

    Every field is redacted here, whoever made the entry (extract, a memory held for
    review, a person's edit of one), and a key that holds a credential is refused.

    Raises:
        SecretKeyError: an entry's key holds a credential; nothing is written.
    """
    path = home.path / RAW
    old = read_text(path) if path.exists() else _RAW_HEADER
    new = "".join(render_raw(redacted_raw(m)) for m in memories)
    atomic_write(path, old + new, tmp_dir=home.state)
    return RAW


def redacted_raw(memory: RawMemory) -> RawMemory:
    """``memory`` with a secret in none of its fields (the description and the body
    together, as a record's are).

    Raises:
        SecretKeyError: its key holds a credential (a key is refused, never redacted).
    """
    from brain.home.secrets.keysecrets import SecretKeyError, key_holds_secret
    from brain.home.secrets.redact import redact
    from brain.home.secrets.together import redact_together

    if key_holds_secret(memory.key):
        raise SecretKeyError()
    description, body = redact_together((memory.description, memory.body))
    return memory._replace(
        type=redact(memory.type),
        description=description,
        body=body,
        tags=tuple(redact(t) for t in memory.tags),
        session=redact(memory.session),
        checkout=redact(memory.checkout),
        paths=tuple(redact(p) for p in memory.paths),
    )


def consumed_ids(home: Located) -> set[str]:
    """Raw memory ids that past consolidation runs consumed (from their journal lines)."""
    done: dict[str, set[str]] = {}
    undone: set[str] = set()
    for n, entry in enumerate(journal.read(home.path)):
        # A review consumes what it decided: the rejected, and the accepted originals
        # (an accepted memory is appended again, without its review tag).
        # A deleted session's raw memories are marked consumed by its delete's line.
        # An undone consolidation consumed nothing (brain.pipeline.undo).
        ops = ("consolidate", "review", "session-delete")
        if entry.get("op") in ops and isinstance(entry.get("raw_ids"), list):
            done[str(entry.get("run") or f"line {n}")] = {str(i) for i in entry["raw_ids"]}
        elif entry.get("op") == "undo" and entry.get("run"):
            undone.add(str(entry["run"]))
    return {i for run, ids in done.items() if run not in undone for i in ids}


def held_back(memory: RawMemory) -> bool:
    """Whether a raw memory waits for a person's decision: held by phase 1, or one that
    tells agents to weaken a safety and that no person accepted (one written before such
    memories were held, or by an older brain on another machine)."""
    if REVIEW_TAG in memory.tags:
        return True
    from brain.pipeline.trust.weakening import weakens_safety  # only re, but not for every reader

    return ACCEPTED_TAG not in memory.tags and weakens_safety(
        f"{memory.description}\n{memory.body}"
    )


def pending_raw(home: Located) -> list[RawMemory]:
    """Raw memories no consolidation has consumed yet, oldest first; memories held for
    review (:func:`held_back`) wait for ``brain review``."""
    done = consumed_ids(home)
    return [m for m in read_raw(home) if m.id not in done and not held_back(m)]


# -- the local state file ------------------------------------------------------------------


def pipeline_state(home: Located) -> dict[str, Any]:
    """``.brain/pipeline-state.json``: failed sessions and last errors (local, untracked)."""
    try:
        data = json.loads((home.state / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_state(home: Home, state: dict[str, Any]) -> None:
    """Write the local state file atomically."""
    make_private_dir(home.state)
    text = json.dumps(state, indent=2, ensure_ascii=False, sort_keys=True)
    atomic_write(home.state / STATE_FILE, text + "\n")


def drop_dead_runs_output(home: Home, summaries: str) -> None:
    """Remove what a run killed before its commit left: its summaries (a summary marks
    a session extracted) and the raw memories it appended. A run writes and commits
    both under the home lock, so any found uncommitted here belong to no commit."""
    left = home.repo.hand_edited([summaries, RAW])
    for rel, how in left.items():
        if how == "untracked" and rel.endswith(".md"):
            (home.path / rel).unlink(missing_ok=True)  # a summary, or the first raws
    path, committed = home.path / RAW, home.repo.file_at_head(RAW)
    if committed is None or left.get(RAW) != "modified":
        return
    data = path.read_bytes()
    if len(data) > len(committed) and data.startswith(committed):
        atomic_write(path, committed.decode("utf-8"), tmp_dir=home.state)
        home.repo.unstage(RAW)


def note_error(home: Home, phase: str, message: str) -> None:
    """Remember a run-level error for ``brain status``."""
    state = pipeline_state(home)
    state.setdefault("last_error", {})[phase] = {"when": iso(utcnow()), "message": message}
    save_state(home, state)


def clear_error(home: Home, phase: str) -> None:
    """Forget ``phase``'s last error: a run of it has just succeeded."""
    state = pipeline_state(home)
    if state.get("last_error", {}).pop(phase, None) is not None:
        save_state(home, state)


def backoff(attempts: int) -> timedelta:
    """How long a session waits after its ``attempts``-th failure: 1h, 2h, 4h... a day."""
    return min(timedelta(hours=2 ** min(max(attempts - 1, 0), 5)), timedelta(days=1))


class _Outcome(Protocol):
    @property
    def session(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def reason(self) -> str | None: ...


def record_failures(home: Home, outcomes: Sequence[_Outcome], now: datetime, run_id: str) -> None:
    """Mark failed sessions (with backoff) and clear the ones that succeeded."""
    state = pipeline_state(home)
    failed = state.setdefault("failed", {})
    for outcome in outcomes:
        if outcome.status == "done":
            failed.pop(outcome.session, None)
            continue
        attempts = int(failed.get(outcome.session, {}).get("attempts", 0)) + 1
        failed[outcome.session] = {
            "reason": outcome.reason,
            "attempts": attempts,
            "last": iso(now),
            "retry_after": iso(now + backoff(attempts)),
        }
    state.get("last_error", {}).pop("extract", None)
    save_state(home, state)


# -- past runs -----------------------------------------------------------------------------


class RunInfo(NamedTuple):
    """One past extract or consolidate run."""

    id: str
    kind: str
    date: str
    commit: str
    message: str
    model: str | None
    tokens: int | None
    counts: dict[str, Any]
    files: tuple[str, ...] = ()
    undone: bool = False


def _journal_runs(home: Home) -> dict[str, dict[str, Any]]:
    return {
        str(e["run"]): e
        for e in journal.read(home.path)
        if e.get("op") in KINDS and e.get("run") is not None
    }


def undone_runs(home: Located) -> set[str]:
    """Ids of the runs an ``undo`` journal line names (:mod:`brain.pipeline.undo`)."""
    lines = journal.read(home.path)
    return {str(e["run"]) for e in lines if e.get("op") == "undo" and e.get("run")}


def list_runs(home: Home, *, limit: int | None = None) -> list[RunInfo]:
    """Past extract and consolidate runs, newest first, from git joined with the journal."""
    lines = _journal_runs(home)
    undone = undone_runs(home)
    out = []
    # Only a run's commit carries the trailer: git skips the others (an import's commit
    # lists a file per record) before listing their files.
    for commit in home.repo.log(grep="^Run: "):
        kind = commit.message.split(":", 1)[0]
        found = _RUN_TRAILER.search(commit.message)
        if kind not in KINDS or found is None:
            continue
        entry = lines.get(found.group(1), {})
        skip = {"ts", "machine", "op", "run", "model", "tokens", "raw_ids", "learned_tokens"}
        out.append(
            RunInfo(
                id=found.group(1),
                kind=kind,
                date=commit.date,
                commit=commit.sha,
                message=commit.message.splitlines()[0],
                model=entry.get("model"),
                tokens=entry.get("tokens"),
                counts={k: v for k, v in entry.items() if k not in skip},
                files=tuple(f"{status} {path}" for status, path in commit.files),
                undone=found.group(1) in undone,
            )
        )
        if limit and len(out) >= limit:
            break
    return out


def show_run(home: Home, run_id: str) -> RunInfo:
    """One past run by id (a unique prefix of the id or of its commit works too)."""
    matches = [r for r in list_runs(home) if r.id.startswith(run_id) or r.commit == run_id]
    matches = matches or [
        r for r in list_runs(home) if len(run_id) >= 7 and r.commit.startswith(run_id)
    ]
    if len(matches) != 1:
        raise RunNotFoundError(run_id)
    return matches[0]
