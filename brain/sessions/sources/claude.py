"""Claude Code transcripts: ``~/.claude/projects/<slug>/<session>.jsonl``.

The format has no published schema and changes every release; see the fixture notes
in ``tests/fixtures/transcripts/claude-code/FORMAT.md``. Everything unknown is skipped
and counted, never fatal.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from brain.sessions.sources import locations
from brain.sessions.sources.base import (
    EarlierCalls,
    JsonLines,
    ParseResult,
    Role,
    SessionFacts,
    Shape,
    Turn,
    as_str,
    clean,
    compact_json,
    parse_timestamp,
)

name = "claude"

# Records that carry nothing for memory (bookkeeping, UI state). ``progress`` is
# here on purpose: its agent_progress copies duplicate the subagent files.
_IGNORED_TYPES = frozenset(
    {
        "progress",
        "file-history-snapshot",
        "queue-operation",
        "last-prompt",
        "agent-name",
        "permission-mode",
        "mode",
        "pr-link",
        "frame-link",
        "worktree-state",
        "bridge-session",
        "relocated",
    }
)
_TITLE_FIELDS = {"custom-title": "custom_title", "ai-title": "ai_title", "summary": "summary"}
# A title the user set beats Claude's generated one, which beats the legacy summary.
_TITLE_RANK = ("custom-title", "ai-title", "summary")
_MESSAGE_TYPES = frozenset({"user", "assistant", "system", "attachment"})

_REMINDER_SPLIT = re.compile(r"(<system-reminder>.*?</system-reminder>)", re.S)
_INJECTED_PREFIXES = (
    "<system-reminder>",
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "<task-notification>",
    # Shell mode (`!cmd`) and the IDE's selection: the tool wrote these, not the person.
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<ide_selection>",
    "<ide_opened_file>",
    # (the VS Code extension's file attached to a message: the file's text, not theirs)
    "<context ref=",
    "[Request interrupted by user",
)
# Claude Code's word that the person turned a tool call down, then what they typed to
# say why ("No 'what' comments"): the person's words, typed as any turn of theirs.
_REJECTED = re.compile(
    r"(?s)(?P<notice>The user doesn't want to proceed with this tool use\..*?"
    r"the user said:)\s*\n(?P<said>.*\S.*)"
)


class _Record(Shape, rename="camel"):
    """The fields of a line this adapter reads. The rest (a tool's whole result in
    ``toolUseResult``, a progress event's ``data``, a file snapshot: about a quarter of a
    transcript's bytes) is skipped, never decoded."""

    type: Any = None
    uuid: Any = None
    timestamp: Any = None
    cwd: Any = None
    git_branch: Any = None
    subtype: Any = None
    content: Any = None
    message: Any = None
    is_compact_summary: Any = None
    is_meta: Any = None
    is_api_error_message: Any = None
    attachment: Any = None
    custom_title: Any = None
    ai_title: Any = None
    summary: Any = None


roots = locations.claude_roots
discover = locations.claude_discover
session_ids = locations.session_ids


def parse(path: Path, *, start: int = 0, max_field_chars: int = 20_000) -> ParseResult:
    """Parse a Claude Code transcript from byte ``start``.

    Args:
        path: the ``.jsonl`` file.
        start: the ``offset`` of a previous parse, to read only what was appended.
        max_field_chars: every text is cut to this many characters, visibly.

    Returns:
        The transcript and where to resume.
    """
    reader = JsonLines(path, start, _Record)
    builder = _Builder(max_field_chars, EarlierCalls(path, start, _calls, _Record))
    for line_no, record in reader:
        builder.add(line_no, record)
    session_id, subagent = session_ids(path)
    return builder.facts.result(
        reader.offset,
        reader.malformed,
        reader.lines,
        reader.replaced,
        source=name,
        session_id=session_id,
        path=str(path),
        title=builder.title(),
        turns=builder.turns(),
        subagent=subagent,
    )


def _calls(record: _Record) -> Iterator[tuple[str, str]]:
    """The (id, tool name) of each tool call an assistant record makes."""
    message = record.message
    content = message.get("content") if isinstance(message, dict) else None
    for block in content if record.type == "assistant" and isinstance(content, list) else []:
        if isinstance(block, dict) and block.get("type") == "tool_use":
            yield str(block.get("id")), str(block.get("name") or "tool")


@dataclass(slots=True)
class _Draft:
    """A turn being assembled; assistant text can arrive over several lines."""

    role: Role
    parts: list[str]
    timestamp: datetime | None
    first: int
    last: int
    tool: str | None = None
    injected: bool = False
    summary: bool = False
    call: str | None = None


@dataclass(slots=True)
class _Builder:
    """Folds records into turns.

    Order is line order, not the ``parentUuid`` DAG: the chain is broken in excerpts
    and by compaction, and parallel tool calls fork it, while line order is the order
    things happened in. Replayed records are dropped by ``uuid`` (earliest wins) and
    the lines of one streamed API response are joined by ``message.id``.
    """

    limit: int
    earlier: EarlierCalls  # calls made before a resumed parse's start
    drafts: list[_Draft] = field(default_factory=list)
    by_message_id: dict[str, _Draft] = field(default_factory=dict)
    tool_names: dict[str, str] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    titles: dict[str, str] = field(default_factory=dict)
    facts: SessionFacts = field(default_factory=SessionFacts)

    def add(self, line_no: int, record: _Record) -> None:
        kind = as_str(record.type)
        uuid = record.uuid
        if kind in _MESSAGE_TYPES and isinstance(uuid, str):
            if uuid in self.seen:
                return  # a resumed session replaying an earlier record
            self.seen.add(uuid)
        stamp = parse_timestamp(record.timestamp)
        self._envelope(record, stamp)
        if kind == "user":
            self._user(line_no, record, stamp)
        elif kind == "assistant":
            self._assistant(line_no, record, stamp)
        elif kind == "system":
            if record.subtype == "local_command":
                self._text(line_no, str(record.content or ""), stamp, injected=True)
        elif kind == "attachment":
            self._attachment(line_no, record, stamp)
        elif kind in _TITLE_FIELDS:
            value = getattr(record, _TITLE_FIELDS[kind])
            if isinstance(value, str) and value.strip():
                self.titles[kind] = value.strip()
        elif kind not in _IGNORED_TYPES:
            self.facts.unknown += 1

    def title(self) -> str | None:
        return next((self.titles[k] for k in _TITLE_RANK if k in self.titles), None)

    def turns(self) -> tuple[Turn, ...]:
        return tuple(
            Turn(
                role=d.role,
                text=clean("\n\n".join(d.parts), self.limit),
                timestamp=d.timestamp,
                tool=d.tool,
                injected=d.injected,
                summary=d.summary,
                lines=(d.first, d.last),
                call=d.call,
            )
            for d in self.drafts
        )

    def _envelope(self, record: _Record, stamp: datetime | None) -> None:
        self.facts.saw(stamp)
        cwd = record.cwd
        if isinstance(cwd, str) and cwd.startswith("~/"):
            # a home written as ~ (a session copied out with its home hidden): the same
            # folder here as on the machine that wrote it
            cwd = os.path.expanduser(cwd)
        if isinstance(cwd, str) and cwd.startswith(("/", "\\")) or _is_windows_path(cwd):
            self.facts.project = cwd  # the latest cwd wins: worktrees move a session
        branch = record.git_branch
        if isinstance(branch, str):
            self.facts.git_branch = branch or None

    def _new(self, role: Role, text: str, line_no: int, stamp: datetime | None, **kw: Any) -> None:
        if text.strip():
            self.drafts.append(_Draft(role, [self._cut(text)], stamp, line_no, line_no, **kw))

    def _cut(self, text: str) -> str:
        # Cap early so a multi-MB field is not kept whole; ``clean`` marks the cut later.
        return text if len(text) <= self.limit else text[: self.limit + 1]

    def _user(self, line_no: int, record: _Record, stamp: datetime | None) -> None:
        message = record.message
        content = message.get("content") if isinstance(message, dict) else None
        if record.is_compact_summary:
            self._new("user", _plain_text(content), line_no, stamp, summary=True)
            return
        meta = bool(record.is_meta)
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        for block in blocks if isinstance(blocks, list) else []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text":
                self._text(line_no, str(block.get("text") or ""), stamp, injected=meta)
            elif block.get("type") == "tool_result":
                self._tool_result(line_no, block, stamp)
            # images and anything newer are dropped: nothing a memory can use

    def _text(self, line_no: int, text: str, stamp: datetime | None, *, injected: bool) -> None:
        """Add typed text, splitting out system reminders as injected turns."""
        if injected:
            self._new("user", text, line_no, stamp, injected=True)
            return
        for piece in _REMINDER_SPLIT.split(text):
            piece = piece.strip()
            flagged = piece.startswith(_INJECTED_PREFIXES)
            self._new("user", piece, line_no, stamp, injected=flagged)

    def _tool_result(self, line_no: int, block: dict[str, Any], stamp: datetime | None) -> None:
        called = str(block.get("tool_use_id"))
        tool = self.tool_names.get(called) or self.earlier.name(called)
        text = _plain_text(block.get("content"))
        said = _REJECTED.match(text) if block.get("is_error") else None
        if block.get("is_error"):
            text = f"[error] {text}"
        if said is not None:  # the person turned the call down and typed why: theirs
            self._new("tool", f"[error] {said['notice']}", line_no, stamp, tool=tool, call=called)
            self._text(line_no, said["said"], stamp, injected=False)
            return
        self._new("tool", text, line_no, stamp, tool=tool, call=called)

    def _assistant(self, line_no: int, record: _Record, stamp: datetime | None) -> None:
        message = record.message
        if not isinstance(message, dict) or record.is_api_error_message is True:
            return  # (Claude Code's own word that a request failed: "Prompt is too long")
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        message_id = message.get("id") if isinstance(message.get("id"), str) else None
        for block in blocks if isinstance(blocks, list) else []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text":
                self._assistant_text(line_no, str(block.get("text") or ""), stamp, message_id)
            elif block.get("type") == "tool_use":
                tool, call = str(block.get("name") or "tool"), str(block.get("id"))
                self.tool_names[call] = tool
                text = compact_json(block.get("input"))
                self._new("tool", text, line_no, stamp, tool=tool, call=call)
            # thinking (and its signature), redacted_thinking, server blocks: dropped

    def _assistant_text(
        self, line_no: int, text: str, stamp: datetime | None, message_id: str | None
    ) -> None:
        if not text.strip():
            return
        draft = self.by_message_id.get(message_id) if message_id else None
        if draft is None:
            self._new("assistant", text, line_no, stamp)
            if message_id:
                self.by_message_id[message_id] = self.drafts[-1]
            return
        if sum(len(p) for p in draft.parts) <= self.limit:
            draft.parts.append(self._cut(text.strip()))
        draft.last = line_no

    def _attachment(self, line_no: int, record: _Record, stamp: datetime | None) -> None:
        attachment = record.attachment
        if isinstance(attachment, dict) and attachment.get("type") == "queued_command":
            # a prompt the user typed while Claude was busy: their own words
            prompt = attachment.get("prompt")
            text = prompt if isinstance(prompt, str) else _plain_text(prompt)
            self._text(line_no, text, stamp, injected=False)


def _plain_text(content: object) -> str:
    """The text of a string or a list of content blocks; images are left out."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    texts = [
        str(b.get("text") or "") for b in content if isinstance(b, dict) and b.get("type") == "text"
    ]
    return "\n".join(t for t in texts if t)


def _is_windows_path(value: object) -> bool:
    return isinstance(value, str) and len(value) > 2 and value[1:3] in (":\\", ":/")
