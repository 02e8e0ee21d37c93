"""Which text of a session came from outside the person's hands.

A tool's result is outside text when its call read the web or an MCP server, ran a
shell command that fetched something (``curl``, ``wget``, ``gh api``, ``git clone`` or
``pull``), or read a file someone else wrote (:func:`outside_turns`); the call itself,
which the assistant wrote, is not. Which files count as someone else's:

Text a stranger wrote can ask to be remembered as well from a file as from a web page:
a cloned repository's README, a package's docs under ``node_modules/``, a download.
A file read (the ``Read`` / ``read_file`` / ``view`` tools, or ``cat``, ``head``,
``less``, ``grep`` ... in a shell call) counts as outside text when its path

- passes through a folder of someone else's code: ``node_modules``, ``vendor``,
  ``site-packages``, ``dist-packages``, ``third_party``, ``bower_components``, Go's
  ``pkg/mod``, Cargo's ``registry``, Maven's ``.m2``, CocoaPods' ``Pods``; or
- is under the person's ``~/Downloads``; or
- is inside a git checkout that has commits and none of them is authored or committed
  by the person (the ``user.email`` git gives in that checkout): someone else's
  repository, cloned.

A relative path is taken from the session's working directory. A file that is not on
this machine any more, or a checkout where git names no person, is judged by its path
alone. Each checkout's history is read once per run.
"""

from __future__ import annotations

import json
import re
import shlex
from functools import lru_cache
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from brain.home.git.runner import RepoError, people_of

if TYPE_CHECKING:
    from brain.sessions.sources.base import Transcript, Turn

__all__ = ["ForeignFiles", "foreign_path", "outside_turns", "reads_outside", "tainted"]

# Tools that bring outside text into a session: web fetches and searches, browsers,
# and every MCP tool (Claude Code names them mcp__<server>__<tool>).
_OUTSIDE = re.compile(
    r"^mcp__|^mcp[_:.-]|web_?fetch|web_?search|fetch_url|browse|browser|http_get|curl_tool"
    r"|google_web_search|read_url|url_context",
    re.IGNORECASE,
)
# A shell call that brings outside text in: a download, an API read, a clone or pull.
_FETCHES = re.compile(
    r"\b(?:curl|wget|lynx|w3m|gh\s+(?:api|issue|pr|release|gist)|git\s+(?:clone|pull|fetch))\b"
)

# What git prints of its own when it pulls, fetches or clones: its errors, hints and
# progress, the branches it updated, a diffstat, and the agent tool's frame around them
# (Gemini CLI's "Output:", "Exit Code:"). A line of anything else (a server's
# ``remote:`` message, a file's text) is the outside's.
_GIT_OWN = re.compile(
    r"\s*(?:(?:output|exit code|process group pgid|error|fatal|hint|warning|note)\b.*"
    r"|(?:already up to date|updating [0-9a-f]+\.\.[0-9a-f]+|fast-forward|cloning into"
    r"|receiving objects|resolving deltas|unpacking objects|counting objects|compressing"
    r"|enumerating objects|total \d+|from \S+|successfully rebased|current branch"
    r"|saved working directory|no local changes|cannot \w+ the current|dropped refs)\b.*"
    r"|\*\s+(?:branch|\[new \w+\])\s.*|[+ ]?[0-9a-f]{7,}\.\.\.?[0-9a-f]{7,}\s.*"
    r"|\S+\s+\|\s+\d+\s*[+-]*|\d+ files? changed.*|(?:create|delete) mode .*)?\s*",
    re.IGNORECASE,
)
_GIT_FETCH = re.compile(r"\bgit\s+(?:clone|pull|fetch)\b")


def _fetched_by_git_alone(turn: Turn) -> bool:
    """Whether ``turn``, a shell call, fetches with git and nothing else (no ``curl``)."""
    call = turn.text.lstrip().startswith("{")
    if not (call and turn.tool and _SHELL_TOOLS.match(turn.tool)):
        return False
    return bool(_GIT_FETCH.search(turn.text)) and not _FETCHES.search(
        _GIT_FETCH.sub(" ", turn.text)
    )


def _git_says_only_its_own(text: str) -> bool:
    """Whether ``text``, a result, holds nothing but what git prints of its own."""
    return all(_GIT_OWN.fullmatch(line) for line in text.splitlines())


_THEIRS = frozenset(
    {
        "node_modules",
        "vendor",
        "site-packages",
        "dist-packages",
        "third_party",
        "bower_components",
        "Pods",
        ".m2",
    }
)
_THEIRS_PAIRS = (("pkg", "mod"), (".cargo", "registry"))
_READ_TOOLS = re.compile(r"^(?:read|read_?file|read_many_files|view|open_?file|cat)$", re.I)
# An MCP server's tool that reads the machine's own files (the filesystem server's, Desktop
# Commander's): a file read as Read's, judged by its path, when its call names one.
_LOCAL_MCP_READS = re.compile(
    r"^mcp__[\w-]+__(?:read_(?:text_|media_|multiple_)?files?|read_many_files|list_directory"
    r"|directory_tree|search_files|get_file_info|view_file|open_file)$",
    re.I,
)
_LOCAL_PATH = re.compile(r"(?:/|~/|\.{1,2}/|[A-Za-z]:[\\/])")
_SHELL_TOOLS = re.compile(r"^(?:bash|shell|local_shell|exec_command|run_shell_command)$", re.I)
_PATH_KEYS = ("file_path", "path", "absolute_path", "notebook_path", "filename", "file", "paths")
_READERS = frozenset(
    {"cat", "head", "tail", "less", "more", "bat", "sed", "awk", "grep", "rg", "jq", "nl", "view"}
)
_HISTORY = 500  # commits of a checkout read to find the person among its authors


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def _call(turn: Turn) -> dict[str, Any] | None:
    text = turn.text.lstrip()
    if not text.startswith("{"):
        return None
    try:
        args = json.loads(text)
    except ValueError:
        return None
    return args if isinstance(args, dict) else None


def read_paths(turn: Turn) -> list[str]:
    """The files a tool call turn reads, as written in the call."""
    if not turn.tool or (args := _call(turn)) is None:
        return []
    if _READ_TOOLS.match(turn.tool) or _LOCAL_MCP_READS.match(turn.tool):
        return [p for key in _PATH_KEYS for p in _strings(args.get(key))]
    if _SHELL_TOOLS.match(turn.tool):
        command = " ".join(_strings(args.get("command") or args.get("cmd")))
        return _shell_paths(command)
    return []


def _shell_paths(command: str) -> list[str]:
    """The operands of the reading commands (``cat``, ``grep`` ...) of a shell line."""
    found = []
    for part in re.split(r"&&|\|\||[;|\n]", command):
        try:
            words = shlex.split(part)
        except ValueError:
            words = part.split()
        if words and PurePath(words[0]).name in _READERS:
            found += [
                w
                for w in words[1:]
                if not w.startswith("-") and ("/" in w or "." in w) and not re.search(r"[<>]", w)
            ]
    return found


def _theirs_by_path(path: PurePath, downloads: Path) -> bool:
    parts = path.parts
    if any(p in _THEIRS for p in parts):
        return True
    if any(parts[i : i + 2] == pair for pair in _THEIRS_PAIRS for i in range(len(parts) - 1)):
        return True
    return path.is_relative_to(downloads)


@lru_cache(maxsize=256)
def _strangers_checkout(root: str) -> bool:
    """Whether the checkout at ``root`` has commits and none by the person."""
    try:
        me, people = people_of(Path(root), _HISTORY)
    except RepoError:
        return False
    return bool(me and people) and me not in people


def _checkout_of(path: Path) -> Path | None:
    for folder in (path, *path.parents):
        if (folder / ".git").exists():
            return folder
    return None


def foreign_path(path: str, cwd: str | None, downloads: Path | None = None) -> bool:
    """Whether the file at ``path`` (relative to ``cwd``) came from outside the person's
    hands (see the module's docstring)."""
    where = Path(path).expanduser()
    if not where.is_absolute():
        if cwd is None:
            return _theirs_by_path(PurePath(path), Path.home() / "Downloads")
        where = Path(cwd) / where
    if _theirs_by_path(PurePath(where), downloads or Path.home() / "Downloads"):
        return True
    if not where.exists():
        return False
    checkout = _checkout_of(where if where.is_dir() else where.parent)
    return checkout is not None and _strangers_checkout(str(checkout.resolve()))


class ForeignFiles:
    """Judges the file reads of one session (its working directory is ``cwd``)."""

    def __init__(self, cwd: str | None) -> None:
        self.cwd = cwd

    def foreign(self, turn: Turn) -> bool:
        """Whether ``turn`` is a call reading a file that came from outside."""
        return any(foreign_path(p, self.cwd) for p in read_paths(turn))


def _local_read(turn: Turn) -> bool:
    """Whether ``turn`` is an MCP call reading a file of this machine by its path."""
    if not _LOCAL_MCP_READS.match(turn.tool or "") or (args := _call(turn)) is None:
        return False
    paths = [p for key in _PATH_KEYS for p in _strings(args.get(key))]
    return bool(paths) and all(_LOCAL_PATH.match(p) for p in paths)


def reads_outside(turn: Turn) -> bool:
    """Whether ``turn`` is a web or MCP tool's (not an MCP call reading a local file, which
    is judged by its path as Read's is), or a shell call that fetches something."""
    if not turn.tool:
        return False
    if _OUTSIDE.search(turn.tool):
        return not _local_read(turn)
    # The call's own text (its JSON arguments), not what the command printed.
    call = turn.text.lstrip().startswith("{")
    return call and bool(_SHELL_TOOLS.match(turn.tool)) and bool(_FETCHES.search(turn.text))


def tainted(transcript: Transcript) -> bool:
    """Whether the session read text from outside: a web page, an MCP tool's result, a
    shell command that fetched something (``curl``, ``gh api``, ``git pull`` ...), or a
    file that came from outside the person's hands."""
    reads = ForeignFiles(transcript.project)
    return any(reads_outside(t) or reads.foreign(t) for t in transcript.turns)


# The agent tool's own word that a call never ran (no such tool, input it refused, the
# person said no): nothing was read from outside.
_NOT_RUN = re.compile(
    r"\s*(?:\[error\]\s*)?(?:<tool_use_error>|The user doesn't want to proceed with this tool use)"
)


def outside_turns(transcript: Transcript) -> frozenset[int]:
    """The indices of the turns whose text came from outside: the results of calls that
    read the web, an MCP server, a fetch or someone else's file (not the tool's word
    that a call never ran). A result is paired with
    its call by the tool's call id, else it is the tool turn after the call."""
    reads = ForeignFiles(transcript.project)
    calls: dict[str, bool] = {}
    gits: dict[str, bool] = {}  # (calls that fetched with git alone)
    last = seen = git = False
    found: set[int] = set()
    for n, turn in enumerate(transcript.turns):
        if not turn.tool or turn.role != "tool":
            last = seen = False
            continue
        first = turn.call not in calls if turn.call is not None else _call(turn) is not None
        if first:
            last, seen = reads_outside(turn) or reads.foreign(turn), True
            git = _fetched_by_git_alone(turn)
            if turn.call is not None:
                calls[turn.call] = last
                gits[turn.call] = git
            continue
        made = calls.get(turn.call, False) if turn.call is not None else last
        # (a result whose call was read is judged with it: an MCP read of a local file)
        judged = turn.call in calls if turn.call is not None else seen
        by_git = gits.get(turn.call, False) if turn.call is not None else git
        if made and by_git and _git_says_only_its_own(turn.text):
            continue  # "error: cannot pull with rebase: You have unstaged changes."
        if (made or (not judged and _OUTSIDE.search(turn.tool))) and not _NOT_RUN.match(turn.text):
            found.add(n)
    return frozenset(found)
