"""The fold: this copy's pending uses moved into its committed file, ``uses/<copy>.json``.

Every commit brain makes folds the pending lines in (:meth:`Transaction.commit
<brain.home.transaction.Transaction.commit>`), with the per-week counts
(:mod:`brain.home.uses.weeks`). A fold is safe against a kill: the pending file is renamed
to ``uses/folding-<batch>.jsonl`` first, the batch's name is written into the copy's
file with its counts, and the folding file is deleted only after the commit. A folding
file whose batch the committed file names is counted already; any other is folded
again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from brain.home.uses.counts import (
    FOLDING,
    KINDS,
    LEGACY,
    PENDING,
    USES_DIR,
    Use,
    copy_name,
    note_uses,
    now_utc,
    pending_lines,
    read_copy,
    read_lines,
    unfolded,
)
from brain.home.uses.weeks import count_weeks, recent, weeks_from_last, weeks_of

if TYPE_CHECKING:
    from brain.home.paths import Located

VERSION = 1  # of a copy's file


class Fold(NamedTuple):
    """A fold staged for a commit: the copy's file to commit, the batch it names, and
    the pending files to delete once the commit is made."""

    rel: str
    batch: str
    taken: tuple[Path, ...]


def fold(home: Located, note_path: Callable[[Sequence[str]], None]) -> Fold | None:
    """Move the pending uses into this copy's file (written, not committed); None when
    there are none. ``note_path`` is called with the file's path before it is written
    (the transaction's note, so a killed write puts it back)."""
    name = copy_name(home)
    rel = f"{USES_DIR}/{name}.json"
    path = home.path / rel
    counts, folded, written = read_copy(path)
    last = {rel: use.last_used for rel, use in counts.items()}
    weeks = weeks_of(written)
    weeks = weeks_from_last(last) if weeks is None else weeks
    folder = home.path / USES_DIR
    for done in folded:  # its commit was made and the writer died before deleting it
        (folder / f"{FOLDING}{done}.jsonl").unlink(missing_ok=True)
    batch = f"{now_utc().replace(':', '').replace('-', '')}-{os.urandom(4).hex()}"
    taking = folder / f"{FOLDING}{batch}.jsonl"
    if (folder / PENDING).is_file():
        os.replace(folder / PENDING, taking)
    for legacy in LEGACY:  # what an older version left in .brain/: it becomes a batch
        old = home.state / legacy
        if old.is_file():
            folder.mkdir(exist_ok=True)
            with taking.open("a", encoding="utf-8") as fh:
                fh.write(old.read_text(encoding="utf-8", errors="replace").rstrip("\n") + "\n")
            old.unlink()
    taken = unfolded(home, folded)
    taken = [p for p in taken if p.parent == folder and p.name != PENDING]
    if not taken:
        return None
    batches = []
    for pending in taken:
        batches.append(pending.name.removeprefix(FOLDING).removesuffix(".jsonl"))
        for kind, when, paths in pending_lines(read_lines(pending)):
            count_weeks(last, weeks, kind, when, paths)
            for one in paths:
                counts[one] = counts.get(one, Use()).plus(kind, 1, when)
    note_path([rel])
    _write_copy(path, home, counts, batches, recent(weeks, now_utc()))
    return Fold(rel, batch, tuple(taken))


def _write_copy(
    path: Path, home: Located, counts: dict[str, Use], batches: list[str], weeks: dict[str, int]
) -> None:
    from brain.home.files import atomic_write
    from brain.home.journal import machine_name

    lines = []
    for rel in sorted(counts):
        use = counts[rel]
        kinds = {kind: list(use.of(kind)) for kind in KINDS if use.of(kind)[0]}
        lines.append(f"  {json.dumps(rel, ensure_ascii=False)}: {json.dumps(kinds)}")
    head = (
        f'{{"version": {VERSION}, "machine": {json.dumps(machine_name())}, '
        f'"folded": {json.dumps(batches)}, "weeks": {json.dumps(weeks)}, "records": {{\n'
    )
    atomic_write(path, head + ",\n".join(lines) + ("\n" if lines else "") + "}}\n",
                 tmp_dir=home.state)  # fmt: skip


def finish(done: Fold) -> None:
    """The fold's commit is made: its pending files are counted in the copy's file."""
    for path in done.taken:
        path.unlink(missing_ok=True)


def restore_folded(home: Located, lines: Iterable[str]) -> None:
    """Put the uses of ``recall`` journal lines that were never committed back into the
    pending file, so the next commit counts them (a writer of an older version died
    after journaling them)."""
    for line in lines:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(entry, dict) and entry.get("op") == "recall":
            found = entry.get("uses")
            if isinstance(found, dict):
                paths = [str(p) for p, n in found.items() for _ in range(int(n))]
                note_uses(home, paths, when=str(entry.get("ts") or "") or None)
