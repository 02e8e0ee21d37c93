"""Settling a merge of two machines' memories without asking the person for git.

Rules, each one the same on every machine so that homes converge:

- A record changed on both sides: the version with the newer ``updated`` (then the
  larger id) stays live, and the other version's id, with its own ``supersedes``
  chain, joins the winner's chain. Both versions stay in git history. Two writes of
  one key are meant as one fact relearned (supersession matches on key), so they are
  not kept as two records.
- A record changed on one side and forgotten, archived or moved on the other: the
  changed version stays, as the later write that did not know of the removal.
- A key left both live and archived: the newer version stays where it is, the other
  joins its chain.
- Generated views (MEMORY.md, memory_summary.md, phase2_workspace_diff.md) are
  rendered again from the merged records; append-only files merge by union
  (``.gitattributes``); anything else keeps this machine's version.
"""

from __future__ import annotations

from pathlib import Path

from brain.home.git.repo import Repo
from brain.home.paths import ARCHIVE, MEMORIES
from brain.home.records import Record, RecordFormatError, parse, render

GENERATED = ("MEMORY.md", "memory_summary.md", "phase2_workspace_diff.md")


def is_record(rel: str) -> bool:
    return rel.startswith((f"{MEMORIES}/", f"{ARCHIVE}/")) and rel.endswith(".md")


def _version(repo: Repo, rel: str, stage: int) -> Record | None:
    data = repo.blob(f":{stage}:{rel}")
    if data is None:
        return None
    try:
        return parse(data.decode("utf-8", "replace"), Path(rel))
    except RecordFormatError:
        return None


def newer(a: Record, b: Record) -> tuple[Record, Record]:
    """(winner, loser) of two versions of one key."""
    return (a, b) if (a.updated, a.id) >= (b.updated, b.id) else (b, a)


def fold(winner: Record, loser: Record) -> Record:
    """``winner`` with ``loser`` (and what it superseded) in its supersedes chain."""
    chain = [*winner.supersedes]
    for old in (*loser.supersedes, loser.id):
        if old not in chain and old != winner.id:
            chain.append(old)
    return winner.evolve(supersedes=tuple(chain))


def settle_record(repo: Repo, rel: str) -> str:
    """Settle one conflicted record file; return what was done, for the report."""
    ours, theirs = _version(repo, rel, 2), _version(repo, rel, 3)
    path = repo.path / rel
    if ours is None and theirs is None:
        # Both sides unreadable or both removed: keep whatever is there as ours.
        repo.take_ours(rel)
        return f"{rel}: kept this machine's file"
    if ours is not None and theirs is not None:
        winner, loser = newer(ours, theirs)
        path.write_text(render(fold(winner, loser)), encoding="utf-8")
        return f"{rel}: kept {winner.id}, {loser.id} superseded"
    kept = ours or theirs
    assert kept is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(kept), encoding="utf-8")
    return f"{rel}: kept the changed version {kept.id} over its removal"


def one_place_per_key(root: Path) -> tuple[list[str], list[str]]:
    """Keys both live and archived after a merge: keep the newer, fold in the other.

    Returns:
        (paths changed, report lines).
    """
    changed: list[str] = []
    report: list[str] = []
    for live in sorted((root / MEMORIES).glob("*.md")):
        archived = root / ARCHIVE / live.name
        if not archived.exists():
            continue
        try:
            a, b = (
                parse(live.read_text("utf-8"), live),
                parse(archived.read_text("utf-8"), archived),
            )
        except (RecordFormatError, OSError, UnicodeDecodeError):
            continue
        # On a tie the live version stays: an archive move keeps the record's time.
        winner, loser = newer(a, b)
        keep, drop = (live, archived) if winner is a else (archived, live)
        keep.write_text(render(fold(winner, loser)), encoding="utf-8")
        drop.unlink()
        rels = [p.relative_to(root).as_posix() for p in (keep, drop)]
        changed += rels
        report.append(f"{rels[1]}: {loser.id} superseded by {rels[0]}")
    return changed, report
