"""What a memory phase 1 learned rests on: its session's commit and the files it is about.

A session ran in a folder; when that folder is in a git checkout on this machine, the
memory rests on the checkout's last commit before the session's last activity (``git
rev-list -1 --before=<time> HEAD``: the code as the session left it, its own commits
included) and on the files its cited turns read, edited or named and its body names,
those that were files of the checkout at that commit (one ``git cat-file`` a session).
See :mod:`brain.home.anchors` for the fields a record carries.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC
from pathlib import Path
from typing import TYPE_CHECKING

from brain.home.anchors import Anchor, merged_paths, named_paths, relative
from brain.sessions.touched import touched_paths

if TYPE_CHECKING:
    from brain.models.schema import Candidate
    from brain.pipeline.runs import RawMemory
    from brain.sessions.sources.base import Transcript
    from brain.sessions.watermarks import SessionRef

__all__ = ["anchor_of_raws", "anchors_for"]


def anchors_for(
    ref: SessionRef, transcript: Transcript, memories: Sequence[Candidate]
) -> list[Anchor | None]:
    """The anchor of each memory of one session (None for all of them when the session's
    folder is in no checkout on this machine, or the checkout has no commit that old)."""
    from brain.home.git.checkouts import commit_before, object_ids, top_of
    from brain.home.scope import project_name

    folder = ref.project or transcript.project
    top = top_of(folder) if folder else None
    name = project_name(folder) if folder else None
    when = _when(ref, transcript)
    if top is None or not name or when is None or not memories:
        return [None] * len(memories)
    commit = commit_before(top, when)
    if commit is None:
        return [None] * len(memories)
    here = Path(folder or top)
    wanted = [
        _in_checkout(top, here, [*touched_paths(transcript, m.evidence), *named_paths(m.body)])
        for m in memories
    ]
    every = list(dict.fromkeys(p for paths in wanted for p in paths))
    ids = object_ids(top, [f"{commit}:{p}" for p in every]) or [None] * len(every)
    there = {p for p, found in zip(every, ids, strict=True) if found}
    return [Anchor(name, commit, merged_paths(p for p in paths if p in there)) for paths in wanted]


def _when(ref: SessionRef, transcript: Transcript) -> str | None:
    if ref.last_activity:
        return ref.last_activity
    moment = transcript.last_activity or transcript.started
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if moment else None


def _in_checkout(top: Path, here: Path, names: Sequence[str]) -> list[str]:
    """Each name as a path relative to the checkout's top: an absolute one inside it, a
    relative one from the session's folder and from the top."""
    out = []
    try:
        inside = here.resolve().relative_to(top).as_posix()
    except (OSError, ValueError):
        inside = ""
    for name in names:
        text = name.replace("\\", "/")
        if text.startswith("/"):
            for root in {str(top), str(here)}:
                if text.startswith(root.rstrip("/") + "/"):
                    rel = relative(text[len(root.rstrip("/")) + 1 :])
                    if rel and root == str(here) and inside and inside != ".":
                        rel = relative(f"{inside}/{rel}")
                    if rel:
                        out.append(rel)
                    break
            continue
        for candidate in ([f"{inside}/{text}"] if inside and inside != "." else []) + [text]:
            rel = relative(candidate)
            if rel:
                out.append(rel)
    return list(dict.fromkeys(out))


def anchor_of_raws(raws: Sequence[RawMemory], current: Anchor | None) -> Anchor | None:
    """What a record written (or restated) from ``raws`` rests on.

    The newest raw memory's commit, with the files all of them and the record named, when
    they were learned in one checkout; the record's own anchor when none of them was
    learned in a checkout; none when they come from several (a fact merged across
    projects rests on no one checkout).
    """
    grounded = [r for r in raws if r.checkout and r.commit]
    if not grounded:
        return current
    if len({r.checkout.lower() for r in grounded}) > 1:
        return None
    newest = max(grounded, key=lambda r: (r.date, r.id))
    same = current is not None and current.checkout.lower() == newest.checkout.lower()
    earlier = current.paths if current is not None and same else ()
    paths = merged_paths(newest.paths, *(r.paths for r in grounded), earlier)
    return Anchor(newest.checkout, newest.commit, paths)
