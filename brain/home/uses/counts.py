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

This module notes uses and reads the counts back. The fold is
:mod:`brain.home.uses.fold`, the per-week counts :mod:`brain.home.uses.weeks`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator, Sequence
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
KINDS = ("shown", "recalled", "cited")
SHOWN, RECALLED, CITED = KINDS
_JOURNAL = "journal.jsonl"
_LEGACY_MARK = '"op": "recall"'
SHOWN_MARK = '"kind": "shown"'  # as note() writes it


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


def now_utc() -> str:
    """The ISO UTC time now, to the second."""
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
    line = json.dumps({"ts": when or now_utc(), "kind": kind, "paths": list(paths)})
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


def pending_lines(lines: Iterable[str]) -> Iterator[tuple[str, str, list[str]]]:
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


def read_lines(path: Path) -> list[str]:
    """The lines of a pending or folding file; none when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []


class CopyFile(NamedTuple):
    """What a copy's file holds: each record's counts, the batches folded into it, and
    its ``weeks`` as written (None when it has none; :func:`brain.home.uses.weeks.weeks_of`
    reads them)."""

    counts: dict[str, Use]
    folded: list[str]
    weeks: object


def read_copy(path: Path) -> CopyFile:
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
        return CopyFile({}, [], None)
    return CopyFile(out, folded, data.get("weeks"))


def unfolded(home: Located, folded: Iterable[str]) -> list[Path]:
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


def journaled(home: Located) -> Iterator[tuple[str, int, str]]:
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
        counts, batches, _weeks = read_copy(path)
        folded += batches
        for rel, use in counts.items():
            add(rel, use)
    for pending in unfolded(home, folded):
        for kind, when, paths in pending_lines(read_lines(pending)):
            for rel in paths:
                add(rel, Use().plus(kind, 1, when))
    for rel, count, when in journaled(home):
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
        lines = [x for x in whole.decode("utf-8", "replace").splitlines() if SHOWN_MARK not in x]
        for _kind, _when, paths in pending_lines(lines):
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
    for other in unfolded(home, folded):
        if other.name == PENDING:
            continue  # read by the caller, from where it last stopped
        lines = [x for x in read_lines(other) if SHOWN_MARK not in x]
        for _kind, _when, paths in pending_lines(lines):
            for rel in paths:
                found[rel] = found.get(rel, 0) + 1
    for rel, count, _when in journaled(home):
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
