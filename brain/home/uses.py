"""Use counts: how often each record was shown at session start, returned by recall and
cited by an agent, and when each last happened.

*Shown* counts each context brain hands an agent at the moment it hands it: the
session-start hook's, ``brain context``'s (an agent or a person running it) and the MCP
``context`` tool's, each record in the index it returned once (what a budget left out
is not counted), and none in ``brain doctor``'s dry run of a hook. The instruction files
``brain sync-instructions`` writes (CLAUDE.md, AGENTS.md, GEMINI.md) count nothing: the
agent loads them at each of its starts, but brain does not see those starts, only its
own writes of the file, which follow session ends and syncs and are skipped when the
block would not change. Counting a write would count how often brain wrote, not how
often an agent read; a record that only ever reaches agents that way says "never shown",
which is what brain knows.

Noting a use costs no commit and survives deleting ``.brain/``: it appends one line to
``uses/pending.jsonl``, this copy's own file (git-ignored, never synced). The next
commit brain makes anyway folds the pending lines into ``uses/<copy>.json``, the
running totals this copy of the home has counted (and, for each of the last 52 weeks,
how many records were recalled or cited in it), and commits that file with it.
``<copy>`` is the host name and a digest of the machine's id and the home's folder, so
no two copies of a home ever write the same file: a pull brings another machine's file
in beside this one's, without a conflict, and a record's count is the sum over every
copy's file, the pending lines, and the ``recall`` lines brain's older versions wrote
in the journal. A rebuilt index reads them all (``docs/architecture.md``, "Use counts").

A fold is safe against a kill: the pending file is renamed to
``uses/folding-<batch>.jsonl`` first, the batch's name is written into the copy's file
with its counts, and the folding file is deleted only after the commit. A folding file
whose batch the committed file names is counted already; any other is folded again.
"""

from __future__ import annotations

import functools
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from brain.home.files import append_line

if TYPE_CHECKING:
    from brain.home.paths import Located

USES_DIR = "uses"
PENDING = "pending.jsonl"  # in USES_DIR, this copy's own (git-ignored)
FOLDING = "folding-"  # + batch + ".jsonl": a pending file being folded
IGNORED = f"/{USES_DIR}/*.jsonl"  # the pending and folding files: never committed
# Where brain's versions before the uses/ folder kept what was not journaled yet.
LEGACY = ("uses.jsonl", "uses.jsonl.folding")
VERSION = 1
WEEKS_KEPT = 52  # the per-week counts a copy's file keeps, the newest week's included
KINDS = ("shown", "recalled", "cited")
SHOWN, RECALLED, CITED = KINDS
_JOURNAL = "journal.jsonl"
_LEGACY_MARK = '"op": "recall"'
_SHOWN_MARK = '"kind": "shown"'  # as note() writes it


class Use(NamedTuple):
    """One record's counts and the ISO UTC time of each kind's last (empty: never)."""

    shown: int = 0
    shown_last: str = ""
    recalled: int = 0
    recalled_last: str = ""
    cited: int = 0
    cited_last: str = ""

    @property
    def used(self) -> int:
        """Recalls and citations: what being shown at session start is not."""
        return self.recalled + self.cited

    @property
    def last_used(self) -> str:
        return max(self.recalled_last, self.cited_last)

    def plus(self, kind: str, count: int, when: str) -> Use:
        """These counts with ``count`` more of ``kind``, the last at ``when``."""
        if kind == SHOWN:
            return self._replace(shown=self.shown + count, shown_last=max(self.shown_last, when))
        if kind == CITED:
            return self._replace(cited=self.cited + count, cited_last=max(self.cited_last, when))
        return self._replace(
            recalled=self.recalled + count, recalled_last=max(self.recalled_last, when)
        )

    def of(self, kind: str) -> tuple[int, str]:
        """How many of ``kind``, and the last."""
        if kind == SHOWN:
            return self.shown, self.shown_last
        if kind == CITED:
            return self.cited, self.cited_last
        return self.recalled, self.recalled_last

    def add(self, other: Use) -> Use:
        return Use(
            self.shown + other.shown,
            max(self.shown_last, other.shown_last),
            self.recalled + other.recalled,
            max(self.recalled_last, other.recalled_last),
            self.cited + other.cited,
            max(self.cited_last, other.cited_last),
        )


def _now() -> str:
    # brain.home.records.iso(utcnow()) without importing the record types (the hook).
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


# -- noting --------------------------------------------------------------------------


def note(home: Located, kind: str, paths: Sequence[str], when: str | None = None) -> None:
    """Note one use of each of ``paths`` of ``kind`` (``shown``, ``recalled``, ``cited``):
    one appended line, folded into this copy's file by the next commit."""
    if kind not in KINDS:
        raise ValueError(f"unknown use kind {kind!r}")
    if not paths:
        return
    folder = home.path / USES_DIR
    if not (folder / PENDING).is_file():  # a new pending file: git must never see it
        folder.mkdir(exist_ok=True)
        keep_out_of_git(home.path)
    line = json.dumps({"ts": when or _now(), "kind": kind, "paths": list(paths)})
    append_line(folder / PENDING, line)


def note_uses(home: Located, paths: Sequence[str], when: str | None = None) -> None:
    """Note that recall returned ``paths`` (see :func:`note`)."""
    note(home, RECALLED, paths, when)


def keep_out_of_git(home: Path) -> None:
    """List the pending files in the repository's own ``info/exclude``, so a home whose
    .gitignore predates them never commits them (a new home's .gitignore names them)."""
    exclude = home / ".git" / "info" / "exclude"
    if not exclude.parent.parent.is_dir():
        return
    try:
        text = exclude.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except OSError:
        return
    if IGNORED in text.split():
        return
    exclude.parent.mkdir(exist_ok=True)
    with exclude.open("a", encoding="utf-8") as fh:
        fh.write(("" if not text or text.endswith("\n") else "\n") + IGNORED + "\n")


# -- reading -------------------------------------------------------------------------


def copy_name(home: Located) -> str:
    """This copy's file name in ``uses/``, without ``.json``: the host name and a digest
    of the machine's id and the home's folder (two clones on one machine differ too)."""
    from brain.home.journal import machine_id, machine_name, sha256_hex

    where = f"{machine_id()}\0{home.path.resolve()}".encode()
    return f"{machine_name()}-{sha256_hex(where)[:8]}"


def _pending_lines(lines: Iterable[str]) -> Iterator[tuple[str, str, list[str]]]:
    """(kind, time, paths) of each well-formed pending line; a line older versions
    wrote has no kind and counted recalls and citations alike: it counts as recalls."""
    for line in lines:
        try:
            item = json.loads(line)
            paths = [str(p) for p in item["paths"]]
            kind = str(item.get("kind") or RECALLED)
            yield (kind if kind in KINDS else RECALLED), str(item.get("ts") or ""), paths
        except (ValueError, KeyError, TypeError, AttributeError):
            continue


def _read_lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []


class _Copy(NamedTuple):
    """What a copy's file holds: each record's counts, the batches folded into it, and
    the records used (recalled or cited) per week, None when the file predates them."""

    counts: dict[str, Use]
    folded: list[str]
    weeks: dict[str, int] | None


def _copy_file(path: Path) -> _Copy:
    """A copy's file; empty when unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        records = data["records"]
        out = {}
        for rel, kinds in records.items():
            use = Use()
            for kind, (count, when) in kinds.items():
                if kind in KINDS:
                    use = use.plus(kind, int(count), str(when))
            out[str(rel)] = use
        folded = [str(b) for b in data.get("folded") or ()]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return _Copy({}, [], None)
    return _Copy(out, folded, _weeks_of(data.get("weeks")))


def _weeks_of(value: object) -> dict[str, int] | None:
    """A file's ``weeks`` (week's Monday -> records used), None when it has none; an
    entry that does not read as one is left out."""
    if not isinstance(value, dict):
        return None
    out = {}
    for week, n in value.items():
        if isinstance(week, str) and _week_of(week) == week and isinstance(n, int) and n > 0:
            out[week] = n
    return out


@functools.lru_cache(maxsize=4096)
def _week_of(when: str) -> str:
    """The Monday (``YYYY-MM-DD``, UTC) of the week of an ISO UTC time; '' if it is none."""
    try:
        day = date.fromisoformat(when[:10])
    except ValueError:
        return ""
    return (day - timedelta(days=day.weekday())).isoformat()


def _weeks_from_last(last: dict[str, str]) -> dict[str, int]:
    """What a copy's file written before the per-week counts says of them: each record
    used in the week of its last use (all it kept)."""
    weeks: dict[str, int] = {}
    for when in last.values():
        if week := _week_of(when):
            weeks[week] = weeks.get(week, 0) + 1
    return weeks


def _count_weeks(
    last: dict[str, str], weeks: dict[str, int], kind: str, when: str, paths: Iterable[str]
) -> None:
    """Count in ``weeks`` each of ``paths`` used at ``when`` whose last use (``last``,
    brought up to ``when``) was in an earlier week: a record counts once a week. Uses
    are noted as they happen, so they come in order."""
    week = _week_of(when)
    if kind == SHOWN or not week:
        return
    for rel in paths:
        before = last.get(rel, "")
        if _week_of(before) < week:
            weeks[week] = weeks.get(week, 0) + 1
        if when > before:
            last[rel] = when


def _recent(weeks: dict[str, int], now: str) -> dict[str, int]:
    """The counts of the last :data:`WEEKS_KEPT` weeks up to ``now``, oldest first."""
    newest = date.fromisoformat(_week_of(now))
    oldest = (newest - timedelta(weeks=WEEKS_KEPT - 1)).isoformat()
    return {w: weeks[w] for w in sorted(weeks) if oldest <= w <= newest.isoformat()}


def _unfolded(home: Located, folded: Iterable[str]) -> list[Path]:
    """The pending files whose uses no copy's file holds yet."""
    done = set(folded)
    folder = home.path / USES_DIR
    files = [home.state / name for name in LEGACY]
    if folder.is_dir():
        files += sorted(folder.glob(f"{FOLDING}*.jsonl"))
        files.append(folder / PENDING)
    return [
        p
        for p in files
        if p.is_file() and p.name.removeprefix(FOLDING).removesuffix(".jsonl") not in done
    ]


def _journaled(home: Located) -> Iterator[tuple[str, int, str]]:
    """(path, count, time) of the ``recall`` lines older versions wrote in the journal.

    The journal holds one line per write; only those lines are parsed (a text search
    finds them), so a long journal costs a read, not a parse.
    """
    try:
        text = (home.path / _JOURNAL).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return
    at = text.find(_LEGACY_MARK)
    while at != -1:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end == -1 else end
        try:
            entry = json.loads(text[start:end])
            if entry.get("op") == "recall" and isinstance(entry.get("uses"), dict):
                for path, count in entry["uses"].items():
                    yield str(path), int(count), str(entry.get("ts", ""))
        except (ValueError, TypeError, AttributeError):
            pass
        at = text.find(_LEGACY_MARK, end)


def tallies(home: Located) -> dict[str, Use]:
    """Every path's uses: every copy's file, the pending lines, the journal's old lines."""
    found: dict[str, Use] = {}

    def add(path: str, use: Use) -> None:
        found[path] = found[path].add(use) if path in found else use

    folded: list[str] = []
    folder = home.path / USES_DIR
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        counts, batches, _weeks = _copy_file(path)
        folded += batches
        for rel, use in counts.items():
            add(rel, use)
    for pending in _unfolded(home, folded):
        for kind, when, paths in _pending_lines(_read_lines(pending)):
            for rel in paths:
                add(rel, Use().plus(kind, 1, when))
    for rel, count, when in _journaled(home):
        add(rel, Use().plus(RECALLED, count, when))
    return found


def all_uses(home: Located) -> dict[str, int]:
    """Recalls and citations of each path (a session start's showing is no use).

    What :func:`tallies` gives as ``used``, read for the session-start hook: plain
    counts, no :class:`Use` made, a pending line of a showing not parsed, and what the
    last call counted kept in ``.brain/cache/uses.json`` while the committed files are
    unchanged, so a call reads only the pending lines appended since.
    """
    sign = _signature(home)
    pending = home.path / USES_DIR / PENDING
    try:
        st = pending.stat()
        inode, size = st.st_ino, st.st_size
    except OSError:
        inode, size = 0, 0
    cache = home.state / "cache" / "uses.json"
    found: dict[str, int] = {}
    start = -1
    try:
        kept = json.loads(cache.read_text(encoding="utf-8"))
        if kept["sign"] == sign and kept["inode"] == inode and 0 <= kept["offset"] <= size:
            found, start = dict(kept["counts"]), int(kept["offset"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    counted_from = start
    if start < 0:
        found, start = _committed_uses(home), 0
    offset = start
    if size > start:
        with pending.open("rb") as fh:
            fh.seek(start)
            data = fh.read(size - start)
        whole = data[: data.rfind(b"\n") + 1]  # a line being appended waits for the next
        offset = start + len(whole)
        lines = [x for x in whole.decode("utf-8", "replace").splitlines() if _SHOWN_MARK not in x]
        for _kind, _when, paths in _pending_lines(lines):
            for rel in paths:
                found[rel] = found.get(rel, 0) + 1
    if offset != counted_from:
        _save_cache(home, cache, {"sign": sign, "inode": inode, "offset": offset, "counts": found})
    return {p: n for p, n in found.items() if n}


def _signature(home: Located) -> list[list[object]]:
    """What the counts besides the pending file rest on: every copy's file, the folding
    files, the legacy pending files and the journal, by name, size and time."""
    folder = home.path / USES_DIR
    paths = [home.path / _JOURNAL, *(home.state / name for name in LEGACY)]
    if folder.is_dir():
        paths += sorted(p for p in folder.iterdir() if p.name != PENDING)
    out: list[list[object]] = []
    for path in paths:
        try:
            st = path.stat()
            out.append([path.name, st.st_size, st.st_mtime_ns])
        except OSError:
            continue
    return out


def _committed_uses(home: Located) -> dict[str, int]:
    """Recalls and citations in every copy's file, the folding files and the journal."""
    found: dict[str, int] = {}
    folded: list[str] = []
    folder = home.path / USES_DIR
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            folded += [str(b) for b in data.get("folded") or ()]
            for rel, kinds in data["records"].items():
                n = sum(int(kinds[k][0]) for k in (RECALLED, CITED) if k in kinds)
                if n:
                    found[rel] = found.get(rel, 0) + n
        except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):
            continue
    for other in _unfolded(home, folded):
        if other.name == PENDING:
            continue  # read by the caller, from where it last stopped
        lines = [x for x in _read_lines(other) if _SHOWN_MARK not in x]
        for _kind, _when, paths in _pending_lines(lines):
            for rel in paths:
                found[rel] = found.get(rel, 0) + 1
    for rel, count, _when in _journaled(home):
        found[rel] = found.get(rel, 0) + count
    return found


def _save_cache(home: Located, path: Path, data: dict[str, object]) -> None:
    from brain.home.files import atomic_write

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps(data), tmp_dir=path.parent, sync=False)
    except OSError:
        pass  # no cache: the next call counts everything again


def last_used(home: Located) -> dict[str, str]:
    """When each path was last recalled or cited (ISO UTC)."""
    return {p: u.last_used for p, u in tallies(home).items() if u.last_used}


def weekly_used(home: Located) -> dict[str, int]:
    """Records recalled or cited each week (its Monday, ``YYYY-MM-DD``), over the last
    :data:`WEEKS_KEPT` weeks: the sum of every copy's file, and the pending lines counted
    as the next fold will count them. A copy's file written before the per-week counts
    counts each record in the week of its last use; a record used on two machines in
    one week counts on each."""
    found: dict[str, int] = {}
    folded: list[str] = []
    last: dict[str, str] = {}  # this copy's last uses, which its next fold counts against
    folder = home.path / USES_DIR
    here = f"{copy_name(home)}.json"
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            records = data["records"]
            folded += [str(b) for b in data.get("folded") or ()]
            weeks = _weeks_of(data.get("weeks"))
            if weeks is None or path.name == here:  # only then are the records read
                times = {str(rel): _last_of(kinds) for rel, kinds in records.items()}
                last = times if path.name == here else last
                weeks = _weeks_from_last(times) if weeks is None else weeks
        except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):
            continue
        for week, n in weeks.items():
            found[week] = found.get(week, 0) + n
    pending: dict[str, int] = {}
    for other in _unfolded(home, folded):
        lines = [x for x in _read_lines(other) if _SHOWN_MARK not in x]
        for kind, when, paths in _pending_lines(lines):
            _count_weeks(last, pending, kind, when, paths)
    for week, n in pending.items():
        found[week] = found.get(week, 0) + n
    seen = {(rel, _week_of(when)) for rel, _count, when in _journaled(home)}
    for _rel, week in seen:
        if week:
            found[week] = found.get(week, 0) + 1
    return _recent(found, _now())


def _last_of(kinds: dict[str, list[object]]) -> str:
    """A record's last recall or citation in a copy's file ('' if neither)."""
    return max((str(kinds[k][1]) for k in (RECALLED, CITED) if k in kinds), default="")


# -- folding -------------------------------------------------------------------------


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
    counts, folded, weeks = _copy_file(path)
    last = {rel: use.last_used for rel, use in counts.items()}
    weeks = _weeks_from_last(last) if weeks is None else weeks
    folder = home.path / USES_DIR
    for done in folded:  # its commit was made and the writer died before deleting it
        (folder / f"{FOLDING}{done}.jsonl").unlink(missing_ok=True)
    batch = f"{_now().replace(':', '').replace('-', '')}-{os.urandom(4).hex()}"
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
    taken = _unfolded(home, folded)
    taken = [p for p in taken if p.parent == folder and p.name != PENDING]
    if not taken:
        return None
    batches = []
    for pending in taken:
        batches.append(pending.name.removeprefix(FOLDING).removesuffix(".jsonl"))
        for kind, when, paths in _pending_lines(_read_lines(pending)):
            _count_weeks(last, weeks, kind, when, paths)
            for one in paths:
                counts[one] = counts.get(one, Use()).plus(kind, 1, when)
    note_path([rel])
    _write_copy(path, home, counts, batches, _recent(weeks, _now()))
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


# -- the journal's recall lines (brain's versions before uses/) ----------------------


def uses_from_elsewhere(lines: Iterable[str], here: str) -> dict[str, tuple[int, str]]:
    """Uses in journal lines that other machines wrote: path -> (count, last time).

    Older versions journaled a copy's uses as a ``recall`` line; a machine still
    running one sends them by push.
    """
    found: dict[str, tuple[int, str]] = {}
    for line in lines:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(entry, dict) or entry.get("op") != "recall":
            continue
        if entry.get("machine") == here or not isinstance(entry.get("uses"), dict):
            continue
        when = str(entry.get("ts", ""))
        for path, count in entry["uses"].items():
            n, last = found.get(str(path), (0, ""))
            found[str(path)] = (n + int(count), max(last, when))
    return found


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
