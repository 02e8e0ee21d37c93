"""Memory evals: scripted sessions through the whole pipeline, checked end to end.

Each scenario builds a throwaway home, writes sessions in brain's native transcript
format, harvests, extracts and consolidates them with the configured models (the
built-in one by default: offline and deterministic), then checks what a fresh
session would see. ``brain eval`` prints each check; any failure makes it exit 1.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from brain.errors import BrainError
from brain.home.records import Record, iso, new_id, render
from brain.sessions.sources.base import Transcript, Turn
from brain.sessions.sources.native import write_native

if TYPE_CHECKING:
    from brain.api import Brain


@dataclass(frozen=True, slots=True)
class EvalCheck:
    """One check: its name, whether it passed, and what was seen."""

    name: str
    passed: bool
    detail: str


@dataclass(frozen=True, slots=True)
class EvalReport:
    """Every check of a run of the memory evals."""

    checks: tuple[EvalCheck, ...]

    @property
    def passed(self) -> bool:
        """True when every check passed."""
        return all(c.passed for c in self.checks)


PREFERENCE = "I prefer pytest fixtures over unittest setUp methods in every project."
CONVENTION_OLD = (
    "Always format commit messages in the conventional style with a scope, like feat(api): add."
)
CONVENTION_NEW = (
    "Always format commit messages in the conventional style without a scope, like feat: add."
)


def write_session(
    folder: Path,
    session_id: str,
    user_lines: Sequence[str],
    *,
    when: datetime,
    project: str = "/src/shop",
) -> Path:
    """A native-format session: each user line answered by a short assistant turn."""

    turns: list[Turn] = []
    for n, text in enumerate(user_lines):
        stamp = when + timedelta(minutes=2 * n)
        turns.append(Turn("user", text, stamp))
        turns.append(Turn("assistant", "Understood.", stamp + timedelta(minutes=1)))
    transcript = Transcript(
        source="brain",
        session_id=session_id,
        path="",
        project=project,
        started=when,
        title=f"eval session {session_id}",
        turns=tuple(turns),
    )
    return write_native(transcript, folder / f"{session_id}.jsonl")


def learn(
    brain: Brain, folder: Path, session_id: str, lines: Sequence[str], when: datetime
) -> None:
    """Harvest, extract and consolidate one session, as a day of work would."""

    path = write_session(folder, session_id, lines, when=when)
    brain.harvest(paths=[path], now=when + timedelta(hours=2))
    brain.extract(now=when + timedelta(hours=2))
    brain.consolidate(force=True, now=when + timedelta(hours=2))


def _home(root: Path, name: str) -> Brain:
    from brain.api import Brain

    brain, _ = Brain.init(root / name)
    return brain


def check_preference_carries_over(root: Path, now: datetime) -> list[EvalCheck]:
    """A preference taught in session A is in the summary and recalled in session B."""
    brain = _home(root, "preference")
    learn(brain, root / "sessions-a", "eval-a", ["Set up the test suite.", PREFERENCE], now)
    summary = (brain.path / "memory_summary.md").read_text(encoding="utf-8")
    in_summary = "pytest fixtures" in summary
    hits = brain.recall("how should I write test setup, fixtures or setUp?", k=3).hits
    recalled = any(h.kind == "record" and "pytest fixtures" in h.description for h in hits)
    return [
        EvalCheck("preference in memory_summary.md", in_summary, _excerpt(summary, "fixtures")),
        EvalCheck(
            "preference recalled in a fresh session",
            recalled,
            ", ".join(h.key for h in hits) or "no hits",
        ),
    ]


def check_convention_superseded(root: Path, now: datetime) -> list[EvalCheck]:
    """A convention restated differently in session C replaces the old one."""
    brain = _home(root, "convention")
    learn(brain, root / "sessions-c", "eval-c1", [CONVENTION_OLD], now)
    learn(brain, root / "sessions-c", "eval-c2", [CONVENTION_NEW], now + timedelta(days=1))
    live = [r for r in brain.records() if isinstance(r, Record)]
    texts = " ".join(r.body for r in live)
    memory_md = (brain.path / "MEMORY.md").read_text(encoding="utf-8")
    new_only = "without a scope" in texts and "with a scope" not in texts
    chained = any(r.supersedes for r in live if "without a scope" in r.body)
    history = brain.repo.patches("memories/")
    return [
        EvalCheck("new convention replaces the old record", new_only, f"{len(live)} records"),
        EvalCheck("the new record names the old in supersedes", chained, ""),
        EvalCheck(
            "old text only in git history",
            "with a scope, like feat(api)" in history and "with a scope" not in memory_md,
            "",
        ),
    ]


def check_decay(root: Path, now: datetime) -> list[EvalCheck]:
    """A record unused past the decay horizon is archived, not deleted."""
    brain = _home(root, "decay")
    old = now - timedelta(days=brain.config.archive_after_days + 30)
    record = Record(
        id=new_id(old),
        key="legacy-build-flag",
        type="fact",
        description="The build once needed the --legacy flag",
        body="The build once needed the --legacy flag.",
        created=iso(old),
        updated=iso(old),
    )
    path = brain.record_path(record.key)
    path.write_text(render(record), encoding="utf-8")
    with brain.transaction() as tx:
        tx.commit(["memories/legacy-build-flag.md"], "remember: legacy-build-flag", "remember")

    result = brain.consolidate(force=True, now=now)
    archived = brain.record_path(record.key, archived=True)
    return [
        EvalCheck(
            "stale record archived, not deleted",
            archived.exists() and not path.exists(),
            result.message or "no run",
        ),
    ]


SCENARIOS: tuple[Callable[[Path, datetime], list[EvalCheck]], ...] = (
    check_preference_carries_over,
    check_convention_superseded,
    check_decay,
)


def run_evals(workdir: Path | None = None, *, now: datetime | None = None) -> EvalReport:
    """Run every scenario in fresh homes under ``workdir`` (a temporary folder by default).

    Args:
        workdir: where to build the homes; left in place when given.
        now: the time the scenarios pretend it is.

    Returns:
        Every check with pass or fail.
    """
    moment = now or datetime.now(UTC)
    if workdir is not None:
        workdir.mkdir(parents=True, exist_ok=True)
        return EvalReport(tuple(_run_all(workdir, moment)))
    with tempfile.TemporaryDirectory(prefix="brain-eval-") as tmp:
        return EvalReport(tuple(_run_all(Path(tmp), moment)))


def _run_all(root: Path, now: datetime) -> list[EvalCheck]:

    checks: list[EvalCheck] = []
    for scenario in SCENARIOS:
        try:
            checks += scenario(root, now - timedelta(days=3))
        except BrainError as exc:
            checks.append(EvalCheck(scenario.__name__, False, f"error: {exc}"))
    return checks


def _excerpt(text: str, word: str, width: int = 80) -> str:
    at = text.find(word)
    return "not found" if at < 0 else " ".join(text[max(at - width, 0) : at + width].split())
