"""What the tools did in a session, as search documents: each call with its result.

The answer a person later looks for is often in a command's output, not in anything
anyone said ("why does pnpm say the project is configured to use yarn": the error
line says). Each tool call becomes one document: what it ran or touched (the command,
the file, the pattern) and its result, cut to a head and a tail with the lines of the
middle that report a failure kept, redacted in context as the session's turns are.
Recall ranks these documents below the turns people and assistants wrote
(``brain.index.rank.KIND_BOOST``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from brain.home.records import iso
from brain.home.secrets.redact import redact, redact_slice
from brain.index import Doc

if TYPE_CHECKING:
    from brain.sessions.sources.base import Transcript, Turn
    from brain.sessions.watermarks import SessionRef

KIND = "tool"
#: Characters of a result kept from its start and from its end.
HEAD_CHARS = 600
TAIL_CHARS = 600
#: From the middle cut out of a long result, at most this many lines that report a
#: failure, each cut to ``LINE_CHARS``.
ERROR_LINES = 12
LINE_CHARS = 300
#: What a call ran or touched, at most.
CALL_CHARS = 400
# Extra characters redacted on each side of a cut (as in ``sessions.text``), so a secret
# straddling the cut is seen whole by the redactor.
_MARGIN = 2_000
# A line that reports a failure, in the words compilers, package managers, test runners
# and shells use, and the codes Node and pnpm print (``ENOENT``, ``ERR_PNPM_...``).
_FAILURE = re.compile(
    r"(?i:\b(?:error|errors|err!|fail(?:s|ed|ure|ing)?|fatal|exception|traceback|panic|"
    r"denied|refused|not found|no such|cannot|can't|unable|invalid|unexpected|"
    r"warn(?:ing)?|exit (?:code|status) [1-9]\d*|exited with|abort(?:ed)?)\b)"
    r"|\bERR_[A-Z0-9_]+|\bE(?:NOENT|ACCES|PERM|EXIST|NOTDIR|ISDIR|ADDRINUSE|CONNREFUSED)\b"
)
# What every match of ``_FAILURE`` holds, lower-cased: found with ``str.find`` (a regex
# tried at every character of a long output costs ten times as much), then the lines
# holding one are checked with the regex.
_FAILURE_WORDS = (
    "err",
    "fail",
    "fatal",
    "exception",
    "traceback",
    "panic",
    "denied",
    "refused",
    "not found",
    "no such",
    "cannot",
    "can't",
    "unable",
    "invalid",
    "unexpected",
    "warn",
    "exit",
    "abort",
    "enoent",
    "eacces",
    "eperm",
    "eexist",
    "enotdir",
    "eisdir",
    "eaddrinuse",
    "econnrefused",
)
# The fields of a call's arguments that say what it did, in the order they are shown.
_FIELDS = (
    "command",
    "cmd",
    "file_path",
    "filePath",
    "path",
    "notebook_path",
    "file",
    "absolute_path",
    "dir_path",
    "pattern",
    "query",
    "url",
    "description",
    "prompt",
)
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", re.MULTILINE)


def tool_docs(ref: SessionRef, transcript: Transcript) -> list[Doc]:
    """One search document per tool call of a session, its result with it.

    Args:
        ref: the harvested session.
        transcript: its whole transcript.

    Returns:
        Docs of kind ``tool`` with ``path`` ``session:<source>:<id>#<n>``, ``n`` the
        call's turn number (1-based over all turns, as the turns' documents count), the
        session's project, and a body of the call and its trimmed, redacted result.
    """
    docs = []
    for call in _calls(transcript.turns):
        doc = _doc(ref, transcript, call)
        if doc is not None:
            docs.append(doc)
    return docs


@dataclass(slots=True)
class _Call:
    number: int  # the call's turn number
    turn: Turn
    said: Turn | None  # the turn said last before it, the document's context
    result: Turn | None = None


def _calls(turns: Sequence[Turn]) -> list[_Call]:
    """Each call with its result and the words said last before it.

    A call and its result share the tool's call id where the tool records one;
    otherwise a result answers the oldest call of its tool still unanswered.
    """
    calls: list[_Call] = []
    by_id: dict[str, _Call] = {}
    waiting: dict[str, list[_Call]] = {}  # tool name -> unanswered calls without an id
    said: Turn | None = None
    for number, turn in enumerate(turns, 1):
        if turn.role != "tool":
            if not turn.injected and not turn.summary and turn.text.strip():
                said = turn
            continue
        name = turn.tool or "tool"
        if turn.call is not None and turn.call in by_id:
            by_id.pop(turn.call).result = turn
            continue
        if turn.call is None and waiting.get(name) and not _looks_like_call(turn.text):
            waiting[name].pop(0).result = turn
            continue
        call = _Call(number, turn, said)
        if turn.call is not None:
            by_id[turn.call] = call
        else:
            waiting.setdefault(name, []).append(call)
        calls.append(call)
    return calls


def _looks_like_call(text: str) -> bool:
    stripped = text.lstrip()
    return stripped.startswith("{") and isinstance(_arguments(stripped), dict)


def _doc(ref: SessionRef, transcript: Transcript, call: _Call) -> Doc | None:
    what = call_summary(call.turn.text)
    output = trimmed_result(call.result.text) if call.result is not None else ""
    if not what and not output:
        return None
    name = call.turn.tool or "tool"
    stamp = call.turn.timestamp or transcript.started
    return Doc(
        path=f"session:{ref.source}:{ref.session_id}#{call.number}",
        kind=KIND,
        type=KIND,
        description=_flat(f"{name}: {what}" if what else name, 100),
        body=f"{what}\n{output}".strip(),
        source=f"{ref.source}:session:{ref.session_id}",
        session=ref.session_id,
        project=ref.project or "",
        created=iso(stamp) if stamp else "",
        context=_context(call.said),
    )


def _context(said: Turn | None) -> str:
    """The words said last before a call, redacted in context, then cut."""
    if said is None:
        return ""
    text = said.text.strip()
    return f"{said.role}: {_flat(redact_slice(text, 0, LINE_CHARS, _MARGIN), LINE_CHARS)}"


def call_summary(text: str) -> str:
    """What a call ran or touched, redacted: its command, file, pattern or query.

    Args:
        text: the call as the adapter gives it (JSON arguments, a patch, a command).

    Returns:
        One line of the values of the arguments that say what it did (a file edit's
        new text is left out), or the files a patch touches, or the call's start.
    """
    stripped = text.strip()
    arguments = _arguments(stripped) if stripped.startswith("{") else None
    if isinstance(arguments, dict):
        shown = [_value(arguments[key]) for key in _FIELDS if key in arguments]
        # Redacted whole, then cut: a cut through a secret must not hide it.
        return _flat(redact(" ".join(v for v in shown if v)), CALL_CHARS)
    files = _PATCH_FILE.findall(stripped)
    if files:
        return _flat(redact("apply patch: " + " ".join(files)), CALL_CHARS)
    return _flat(redact_slice(stripped, 0, CALL_CHARS, _MARGIN), CALL_CHARS)


def trimmed_result(text: str) -> str:
    """A tool's result, redacted: all of it when short, else its head, the middle's
    lines that report a failure, and its tail. A result that is a JSON document is read
    unescaped first (:func:`~brain.sessions.sources.base.unescaped`)."""
    from brain.sessions.sources.base import unescaped

    text = unescaped(text.strip()).strip()
    if len(text) <= HEAD_CHARS + TAIL_CHARS:
        return redact(text)
    head = redact_slice(text, 0, HEAD_CHARS, _MARGIN)
    tail = redact_slice(text, len(text) - TAIL_CHARS, len(text), _MARGIN)
    middle = text[HEAD_CHARS : len(text) - TAIL_CHARS]
    failures = failure_lines(middle)
    kept = redact("\n".join(failures)) if failures else ""
    cut = f"\n[... {len(middle)} characters cut ...]\n"
    return head + cut + (kept + cut if kept else "") + tail


def failure_lines(text: str, limit: int = ERROR_LINES) -> list[str]:
    """The first ``limit`` lines of ``text`` that report a failure, in order, each cut to
    ``LINE_CHARS`` around what it reports (a long line redacted whole before its cut)."""
    low = text.lower()
    starts: set[int] = set()
    for word in _FAILURE_WORDS:
        at, seen = low.find(word), 0
        while at != -1 and seen < limit:  # the first ``limit`` lines of each word
            starts.add(low.rfind("\n", 0, at) + 1)
            seen += 1
            end = low.find("\n", at)
            at = -1 if end == -1 else low.find(word, end + 1)
    found = []
    for start in sorted(starts):
        end = text.find("\n", start)
        line = text[start : end if end != -1 else len(text)].strip()
        match = _FAILURE.search(line)
        if match is None:
            continue
        if len(line) > LINE_CHARS:  # a long line: the part around what it reports,
            begin = max(0, match.start() - LINE_CHARS // 3)  # redacted before the cut
            line = redact_slice(line, begin, begin + LINE_CHARS, _MARGIN)
        found.append(line)
        if len(found) == limit:
            break
    return found


def _arguments(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _value(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        # ["bash", "-lc", "pnpm install"]: the script is the command
        if len(value) == 3 and value[1] in ("-c", "-lc") and value[0].endswith("sh"):
            return str(value[2])
        return " ".join(str(v) for v in value)
    return ""


def _flat(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
