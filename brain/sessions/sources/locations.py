"""Where each agent tool keeps its transcripts, and the files found there.

Finding a tool's transcripts takes a few stats and a directory walk; reading one takes
its adapter (``claude.py``, ``codex.py``, ``gemini.py``), its parsing helpers and their
types. They are apart so that a harvest that finds nothing new loads no adapter: each
adapter's ``roots`` and ``discover`` are the functions here.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from brain.errors import BrainError

__all__ = [
    "NotAFileError",
    "SessionFile",
    "claude_discover",
    "claude_roots",
    "codex_discover",
    "codex_roots",
    "discover",
    "found",
    "gemini_discover",
    "gemini_roots",
    "roots",
    "session_ids",
]


class SessionFile(NamedTuple):
    """A transcript file an adapter found on disk, before it is parsed.

    Attributes:
        path: the file.
        session_id: the session it belongs to, guessed from the path (a subagent
            file names its parent session here).
        size: its size in bytes.
        mtime: its modification time (seconds since the epoch).
        subagent: the subagent's id when the file is a subagent's transcript.
    """

    path: Path
    session_id: str
    size: int
    mtime: float
    subagent: str | None = None


class NotAFileError(BrainError):
    """A path named like a transcript is a dangling link, a pipe or a directory."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            "not a regular file (a dangling link, a named pipe or a directory); skipped"
        )
        self.path = path


def found(path: Path, session_id: str, subagent: str | None = None) -> SessionFile:
    """The ``SessionFile`` for ``path``; size -1 when it is not a regular file.

    A dangling link, a named pipe or a directory named like a transcript is still
    yielded, so harvest can skip it with a warning instead of failing (a stat of a
    dangling link raises) or hanging (reading a pipe waits for a writer).
    """
    try:
        st = path.stat()
    except OSError:
        return SessionFile(path, session_id, -1, 0.0, subagent)
    if not stat.S_ISREG(st.st_mode):
        return SessionFile(path, session_id, -1, 0.0, subagent)
    return SessionFile(path, session_id, st.st_size, st.st_mtime, subagent)


def roots(source: str) -> list[Path]:
    """The default roots of ``source`` (``claude``, ``codex``, ``gemini``; none else)."""
    return _TOOLS[source][0]() if source in _TOOLS else []


def discover(source: str, root: Path) -> Iterator[SessionFile]:
    """The transcripts of ``source`` under one of its :func:`roots` (a source with no
    default roots, brain's own format, has none to walk)."""
    return _TOOLS[source][1](root) if source in _TOOLS else iter(())


# -- Claude Code ------------------------------------------------------------------


def claude_roots() -> list[Path]:
    """Return ``$CLAUDE_CONFIG_DIR/projects`` (default ``~/.claude/projects``)."""
    base = os.environ.get("CLAUDE_CONFIG_DIR") or "~/.claude"
    return [Path(base).expanduser() / "projects"]


def claude_discover(root: Path) -> Iterator[SessionFile]:
    """Yield every transcript under a ``projects`` directory, subagents included.

    Args:
        root: a ``projects`` directory (one of ``claude_roots()``).

    Yields:
        One ``SessionFile`` per ``.jsonl``; files under ``<session>/subagents/``
        name their parent session and carry the subagent id.
    """
    if not root.is_dir():
        return
    for path in sorted(root.rglob("*.jsonl")):
        session_id, subagent = session_ids(path)
        if subagent is None and path.parent.parent != root:
            continue  # workflow journals and other side files, not transcripts
        yield found(path, session_id, subagent)


def session_ids(path: Path) -> tuple[str, str | None]:
    """Return (session id, subagent id or None) from a Claude transcript's path."""
    parts = path.parts
    if "subagents" in parts and path.stem.startswith("agent-"):
        index = len(parts) - 1 - parts[::-1].index("subagents")
        if index >= 1:
            return parts[index - 1], path.stem.removeprefix("agent-")
    return path.stem, None


# -- Codex CLI --------------------------------------------------------------------

CODEX_SESSION_ID = re.compile(r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")


def codex_roots() -> list[Path]:
    """Return ``$CODEX_HOME/sessions`` and ``archived_sessions`` (default ``~/.codex``)."""
    base = Path(os.environ.get("CODEX_HOME") or "~/.codex").expanduser()
    return [base / "sessions", base / "archived_sessions"]


def codex_discover(root: Path) -> Iterator[SessionFile]:
    """Yield the rollouts under ``root``; a plain ``.jsonl`` shadows its ``.zst``.

    Args:
        root: ``sessions`` or ``archived_sessions``.

    Yields:
        One ``SessionFile`` per rollout, its session id taken from the file name.
    """
    if not root.is_dir():
        return
    for path in sorted(root.rglob("rollout-*.jsonl*")):
        if path.name.endswith(".jsonl.zst"):
            if path.with_suffix("").exists():
                continue  # Codex itself prefers the plain file when both exist
        elif not path.name.endswith(".jsonl"):
            continue
        match = CODEX_SESSION_ID.search(path.name)
        session_id = match.group(1) if match else path.name.split(".")[0]
        yield found(path, session_id)


# -- Gemini CLI -------------------------------------------------------------------


def gemini_roots() -> list[Path]:
    """Return ``~/.gemini/tmp`` (under ``$GEMINI_CLI_HOME`` when that is set)."""
    base = Path(os.environ.get("GEMINI_CLI_HOME") or "~").expanduser()
    return [base / ".gemini" / "tmp"]


def gemini_discover(root: Path) -> Iterator[SessionFile]:
    """Yield the chats under ``~/.gemini/tmp``; a ``.jsonl`` shadows its legacy ``.json``.

    Args:
        root: the ``tmp`` directory holding one directory per project.

    Yields:
        Main sessions (``chats/session-*``) and subagent sessions
        (``chats/<parent session id>/<id>.jsonl``, named after their parent).
    """
    if not root.is_dir():
        return
    for chats in sorted(root.glob("*/chats")):
        for path in sorted(chats.glob("session-*.json*")):
            if path.suffix == ".json" and path.with_suffix(".jsonl").exists():
                continue  # migrated on resume; the .jsonl is the live copy
            if path.suffix in (".json", ".jsonl"):
                yield found(path, path.stem)
        for path in sorted(chats.glob("*/*.jsonl")):
            yield found(path, path.parent.name, path.stem)


# -- GitHub Copilot CLI -------------------------------------------------------------


def copilot_home() -> Path:
    """Copilot CLI's folder: ``$COPILOT_HOME``, else ``~/.copilot``."""
    return Path(os.environ.get("COPILOT_HOME") or "~/.copilot").expanduser()


def copilot_roots() -> list[Path]:
    """Return ``~/.copilot/session-state`` (under ``$COPILOT_HOME`` when that is set)."""
    return [copilot_home() / "session-state"]


def copilot_discover(root: Path) -> Iterator[SessionFile]:
    """Yield the sessions under ``session-state``: ``<id>/events.jsonl``, and the
    ``<id>.jsonl`` files older versions wrote there.

    Args:
        root: the ``session-state`` directory.

    Yields:
        One ``SessionFile`` per session, its id the folder's (or the file's) name.
    """
    if not root.is_dir():
        return
    for path in sorted(root.glob("*/events.jsonl")):
        yield found(path, path.parent.name)
    for path in sorted(root.glob("*.jsonl")):
        if not (root / path.stem / "events.jsonl").exists():
            yield found(path, path.stem)


# -- OpenCode ------------------------------------------------------------------------


def opencode_data() -> Path:
    """OpenCode's data folder: ``$XDG_DATA_HOME/opencode``, else ``~/.local/share/opencode``."""
    base = os.environ.get("XDG_DATA_HOME") or "~/.local/share"
    return Path(base).expanduser() / "opencode"


def opencode_copies() -> Path:
    """Where brain keeps one JSON-lines copy of each OpenCode session it reads:
    ``$XDG_CACHE_HOME/brain/opencode``, else ``~/.cache/brain/opencode``. OpenCode keeps
    its sessions in a SQLite database; the copies are derived, rewritten when the session
    changes, and give each session a file of its own to read and resume."""
    base = os.environ.get("XDG_CACHE_HOME") or "~/.cache"
    return Path(base).expanduser() / "brain" / "opencode"


def opencode_roots() -> list[Path]:
    """Return OpenCode's data folder (it holds ``opencode.db``), and the database
    ``$OPENCODE_DB`` names (a path, or a name in that folder)."""
    data = opencode_data()
    named = os.environ.get("OPENCODE_DB")
    if not named or named == ":memory:":
        return [data]
    db = data / named  # an absolute path joins as itself
    found_anyway = db.parent == data and db.match("opencode*.db")
    return [data] if found_anyway else [data, db]


def opencode_databases(root: Path) -> list[Path]:
    """The OpenCode databases at ``root``: the file itself, or in the folder ``opencode.db``
    and a release channel's ``opencode-<channel>.db``."""
    if root.is_file():
        return [root]
    return sorted(root.glob("opencode*.db")) if root.is_dir() else []


def opencode_discover(root: Path) -> Iterator[SessionFile]:
    """Yield one copied file per session of the OpenCode databases at ``root``.

    Args:
        root: OpenCode's data folder, or a database.

    Yields:
        One ``SessionFile`` per session, copied out of its database when it changed;
        a session a subagent ran names its parent session and carries its own id.
    """
    databases = opencode_databases(root)
    if not databases:
        return
    from brain.sessions.sources.opencode_db import copy_sessions  # sqlite3, only if present

    for db in databases:
        for copy in copy_sessions(db, opencode_copies()):
            parent = copy.parent
            yield found(copy.path, parent or copy.session_id, copy.session_id if parent else None)


def opencode_session(session_id: str) -> Path | None:
    """brain's copy of one OpenCode session, made now from whichever database holds it."""
    from brain.sessions.sources.opencode_db import copy_sessions

    for root in opencode_roots():
        for db in opencode_databases(root):
            for copy in copy_sessions(db, opencode_copies(), only=session_id):
                return copy.path
    return None


# -- Qwen Code --------------------------------------------------------------------


def qwen_home() -> Path:
    """Qwen Code's folder: ``$QWEN_HOME``, else ``~/.qwen``."""
    return Path(os.environ.get("QWEN_HOME") or "~/.qwen").expanduser()


def qwen_roots() -> list[Path]:
    """Return ``~/.qwen/projects`` (under ``$QWEN_HOME`` when that is set)."""
    return [qwen_home() / "projects"]


def qwen_discover(root: Path) -> Iterator[SessionFile]:
    """Yield the chats under ``projects``: ``<folder>/chats/<session id>.jsonl``.

    Args:
        root: the ``projects`` directory, one folder per working folder.

    Yields:
        One ``SessionFile`` per chat, its id the file's name.
    """
    if not root.is_dir():
        return
    for path in sorted(root.glob("*/chats/*.jsonl")):
        yield found(path, path.stem)


# -- Antigravity CLI ------------------------------------------------------------------


def antigravity_roots() -> list[Path]:
    """Return ``~/.gemini/antigravity-cli/brain``, one folder per conversation."""
    return [Path("~/.gemini/antigravity-cli/brain").expanduser()]


def antigravity_discover(root: Path) -> Iterator[SessionFile]:
    """Yield each conversation's transcript: ``<id>/.system_generated/logs/``'s
    ``transcript_full.jsonl``, else its ``transcript.jsonl``.

    Args:
        root: the ``brain`` directory of Antigravity CLI.

    Yields:
        One ``SessionFile`` per conversation, its id the folder's name.
    """
    if not root.is_dir():
        return
    for logs in sorted(root.glob("*/.system_generated/logs")):
        for name in ("transcript_full.jsonl", "transcript.jsonl"):
            if (logs / name).is_file():
                yield found(logs / name, logs.parents[1].name)
                break


# -- Charm's Crush -------------------------------------------------------------------


def crush_roots() -> list[Path]:
    """Return Crush's own data folder, which lists the projects it ran in
    (``projects.json``): ``$CRUSH_GLOBAL_DATA``, else ``$XDG_DATA_HOME/crush``, else
    ``~/.local/share/crush``."""
    if named := os.environ.get("CRUSH_GLOBAL_DATA"):
        return [Path(named).expanduser()]
    base = os.environ.get("XDG_DATA_HOME") or "~/.local/share"
    return [Path(base).expanduser() / "crush"]


def crush_copies() -> Path:
    """Where brain keeps its copy of each Crush session (beside OpenCode's)."""
    return opencode_copies().parent / "crush"


def crush_discover(root: Path) -> Iterator[SessionFile]:
    """Yield one copied file per session of each project ``projects.json`` lists.

    Args:
        root: Crush's data folder.

    Yields:
        One ``SessionFile`` per session, copied out of its project's ``crush.db`` when
        it changed.
    """
    if not (root / "projects.json").is_file():
        return
    from brain.sessions.sources.crush_db import copy_sessions, projects

    for project, db in projects(root / "projects.json"):
        for copy in copy_sessions(db, crush_copies(), project):
            parent = copy.parent
            yield found(copy.path, parent or copy.session_id, copy.session_id if parent else None)


# Each tool's roots and its walk of one root (brain's own format has no default root).
_TOOLS: dict[str, tuple[Callable[[], list[Path]], Callable[[Path], Iterator[SessionFile]]]] = {
    "claude": (claude_roots, claude_discover),
    "codex": (codex_roots, codex_discover),
    "gemini": (gemini_roots, gemini_discover),
    "copilot": (copilot_roots, copilot_discover),
    "opencode": (opencode_roots, opencode_discover),
    "crush": (crush_roots, crush_discover),
    "qwen": (qwen_roots, qwen_discover),
    "antigravity": (antigravity_roots, antigravity_discover),
}
