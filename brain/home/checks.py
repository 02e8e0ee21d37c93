"""What a write checks before it touches the home, and what it cleans up after others.

Files are the truth and the person may edit them: a write refuses to replace a record
edited by hand and not committed, refuses text that is not valid Unicode, redacts every
field and message, and drops journal lines a killed writer left without a commit.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brain.errors import BrainError
from brain.home import journal
from brain.home.records import Record

if TYPE_CHECKING:
    from brain.home.home import Brain


# The journal's size after brain's last commit, in .brain/ (see drop_orphan_journal_lines).
JOURNAL_SIZE = "journal-size"
# Control characters other than tab and newline, kept out of commit messages.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def check_text(record: Record) -> None:
    """Refuse a record with text that is not valid Unicode (bytes that were not UTF-8,
    passed on by the shell as lone surrogates): YAML cannot hold it, and the file would
    be unreadable from then on."""
    fields: dict[str, Any] = {
        "key": record.key,
        "type": record.type,
        "description": record.description,
        "text": record.body,
        "tag": list(record.tags),
        "profile": record.profile,
        "source": record.source,
        "field": record.extra,
    }
    for name, value in fields.items():
        if not _encodes(value):
            raise BrainError(
                f"the {name} is not valid UTF-8 text",
                hint="check the terminal's encoding, or pass the text through 'iconv -t utf-8'",
            )


def _encodes(value: Any) -> bool:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, (list, tuple)):
        return all(_encodes(v) for v in value)
    if isinstance(value, dict):
        return all(_encodes(k) and _encodes(v) for k, v in value.items())
    return True


def redacted(record: Record) -> Record:
    """``record`` with every secret in its text fields replaced (see :mod:`brain.home.redact`).

    Every write goes through :meth:`Brain.stage`, so no field of a record on disk,
    whichever command wrote it, can carry a credential.
    """
    from brain.home.redact import redact, redact_fields

    return record.evolve(
        type=redact(record.type),
        description=redact(record.description),
        body=redact(record.body),
        tags=redact_fields(record.tags),
        profile=redact_fields(record.profile),
        source=redact_fields(record.source),
        extra=redact_fields(record.extra),
    )


class HandEditError(BrainError):
    """A write would replace or delete a record file with edits git does not have."""

    def __init__(self, home: Path, rel: str, how: str) -> None:
        git = f"git -C {home}"
        if how == "untracked":
            problem = f"{rel} is not in the memory's history yet (written by hand?)"
            hint = f"commit it ({git} add {rel} && {git} commit -m 'hand-written record') "
            hint += "or remove it, then retry"
        else:
            problem = f"{rel} has changes that are not committed (edited by hand?)"
            hint = f"commit them ({git} commit -m 'hand edit' -- {rel}) or discard them "
            hint += f"({git} checkout -- {rel}), then retry"
        super().__init__(f"{problem}; nothing was written", hint=hint)


def clean_message(message: str) -> str:
    """A commit message without control characters (``brain log`` reads between them)."""
    return _CONTROL.sub(" ", message)


@contextlib.contextmanager
def hand_edits_known(brain: Brain) -> Iterator[None]:
    """Within a transaction, look for hand edits once for a run of many writes."""
    from brain.home.home import ARCHIVE, MEMORIES  # brain.home.home imports this module

    brain._hand_edits = brain.repo.hand_edited([MEMORIES, ARCHIVE])
    try:
        yield
    finally:
        brain._hand_edits = None


def refuse_hand_edits(brain: Brain, *paths: Path) -> None:
    """Refuse to replace, move or delete a record file the person edited by hand
    and did not commit: files are the truth, and that text is nowhere else."""
    rels = [r for p in paths if p.exists() and (r := brain._rel(p)) not in brain._written]
    known = brain._hand_edits
    edited = (
        {r: known[r] for r in rels if r in known}
        if known is not None
        else brain.repo.hand_edited(rels)
    )
    if edited:
        rel, how = next(iter(edited.items()))
        raise HandEditError(brain.path, rel, how)


def note_journal_size(brain: Brain) -> None:
    """Note the journal's size after a commit (see :func:`drop_orphan_journal_lines`)."""
    with contextlib.suppress(OSError):
        size = (brain.path / journal.JOURNAL).stat().st_size
        (brain.state / JOURNAL_SIZE).write_text(str(size))


def drop_orphan_journal_lines(brain: Brain) -> None:
    """Drop journal lines a writer appended and died before committing.

    Every write appends its line and commits it under the home lock, so lines past
    what HEAD has, found before a write starts, belong to no commit; the next
    commit would otherwise carry them in its own name. The size noted after the
    last commit spares the git call when nothing changed.
    """
    path = brain.path / journal.JOURNAL
    try:
        size = path.stat().st_size
        noted = (brain.state / JOURNAL_SIZE).read_text().strip()
    except OSError:
        noted = ""
        size = -1
    if noted == str(size) or not brain.repo.head():
        return
    committed = brain.repo.file_at_head(journal.JOURNAL)
    if committed is None or size <= len(committed):
        return
    with path.open("r+b") as fh:
        if fh.read(len(committed)) != committed:
            return  # edited by hand, not appended to: leave it
        orphans = fh.read().decode("utf-8", "replace").splitlines()
        fh.truncate(len(committed))
    brain.repo.unstage(journal.JOURNAL)
    # Uses the dead writer had folded into its line go back to the pending file.
    from brain.home import uses

    uses.restore_folded(brain, orphans)


def restore_paths(brain: Brain, paths: Iterable[str]) -> None:
    """Put ``paths`` back as HEAD has them (remove those HEAD does not have)."""
    if brain.repo.head():
        # The journal too: its line for this write was appended and staged.
        brain.repo.unstage(*paths, journal.JOURNAL)
    for rel in paths:
        tracked = brain.repo.head() and brain.repo.at_head(rel)
        if tracked:
            brain.repo.checkout_head(rel)
        else:
            (brain.path / rel).unlink(missing_ok=True)
