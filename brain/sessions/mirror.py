"""Mirror what the agent tools remember themselves into the home as records, without a model.

Claude Code's memory files, Gemini CLI's saved memories, Codex CLI's and Qwen Code's
memories (read by ``sources/claude_memory``, ``gemini_memory``, ``codex_memory`` and
``qwen_memory``) each become a record
tagged ``from:<tool>-memory`` and, when the tool says where it was written, with its
``project:<name>``. A run ends in one commit, or none when nothing changed:

- an item whose text is as last mirrored does nothing;
- an edited item supersedes its record (the same key, the old version in git);
- an item gone from the tool's files archives its record (restorable);
- a new item that says what a record of its scope already says (the rule is
  :mod:`brain.sessions.sameness`) is not a second record: its provenance joins that
  record's (a ``from:<tool>-memory`` tag and a line in ``mirror``).

A record's provenance is its ``mirror`` field: one ``<sha256> <origin>`` line per tool
item it stands for (the origin is where the item lives, see
:mod:`brain.sessions.sources.native_memory`). Records mirrored before there was a
``mirror`` field carry ``mirror_sha256`` and the origin as their ``source``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from brain.home.keys import KEY_MAX, validate_key
from brain.home.records import Record, iso, new_id, utcnow
from brain.home.scope import PROJECT_TAG, projects_of
from brain.sessions import sameness
from brain.sessions.sources.native_memory import TOOLS, NativeMemory, tag_of

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.home.transaction import Transaction

FIELD = "mirror"
_LEGACY = "mirror_sha256"


class MirrorResult(NamedTuple):
    """What a mirror run did.

    Attributes:
        found: tool memories read.
        added: records created.
        superseded: records replaced because their item changed.
        merged: items that joined a record saying the same thing.
        archived: records archived because their item is gone.
        unchanged: items whose record already matches.
        keys: the keys written or archived.
        tools: ``<tool> <n>`` for each tool with changes, in the order of ``TOOLS``.
        commit: the commit sha, or None when nothing changed.
    """

    found: int
    added: int
    superseded: int
    merged: int
    archived: int
    unchanged: int
    keys: tuple[str, ...]
    tools: tuple[str, ...] = ()
    commit: str | None = None


@dataclass(slots=True)
class MirrorPlan:
    """The writes a mirror run will make, decided before anything is written."""

    records: dict[str, Record] = field(default_factory=dict)
    archive: dict[str, str] = field(default_factory=dict)  # key -> reason
    found: int = 0
    added: int = 0
    superseded: int = 0
    merged: int = 0
    per_tool: dict[str, int] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        return bool(self.records or self.archive)

    def count(self, tool: str) -> None:
        self.per_tool[tool] = self.per_tool.get(tool, 0) + 1


def read_native(
    tools: Iterable[str] = TOOLS, known: Callable[[], Sequence[str]] | None = None
) -> list[NativeMemory]:
    """Every memory the given tools keep on this machine, from their default places
    (``known`` gives the project roots brain knows, tried against a Gemini CLI project
    folder named by a hash when Gemini's own files do not name its root)."""
    found: list[NativeMemory] = []
    for tool in tools:
        if tool == "claude":
            from brain.sessions.sources.claude_memory import read_claude_memories
            from brain.sessions.sources.locations import claude_roots

            found += read_claude_memories(claude_roots()[0].parent)
        elif tool == "gemini":
            from brain.sessions.sources.gemini_memory import read_gemini_memories

            found += read_gemini_memories(known=known)
        elif tool == "codex":
            from brain.sessions.sources.codex_memory import read_codex_memories

            found += read_codex_memories()
        elif tool == "qwen":
            from brain.sessions.sources.qwen_memory import read_qwen_memories

            found += read_qwen_memories()
    return found


def mirror_native(home: Home, tools: Sequence[str] = TOOLS) -> MirrorResult:
    """Copy what the tools remember into the home as records, in one commit.

    Args:
        home: the home.
        tools: which tools' memories to read (``claude``, ``gemini``, ``codex``).

    Returns:
        Counts and the commit (None when every memory was already mirrored).
    """
    with home.transaction() as tx:
        plan = plan_mirror(home, tools)
        touched = write_plan(tx, plan)
        sha = None
        if touched:
            sha = tx.commit(
                touched,
                mirror_message(plan),
                "mirror",
                added=plan.added,
                superseded=plan.superseded,
                merged=plan.merged,
                archived=len(plan.archive),
            )
    return result_of(plan, sha)


def result_of(plan: MirrorPlan, sha: str | None) -> MirrorResult:
    """The result of a written plan."""
    changed_items = plan.added + plan.superseded + plan.merged
    return MirrorResult(
        found=plan.found,
        added=plan.added,
        superseded=plan.superseded,
        merged=plan.merged,
        archived=len(plan.archive),
        unchanged=plan.found - changed_items,
        keys=(*plan.records, *plan.archive),
        tools=tuple(f"{t} {plan.per_tool[t]}" for t in TOOLS if t in plan.per_tool),
        commit=sha,
    )


def mirror_message(plan: MirrorPlan) -> str:
    """``mirror: 3 memories (claude 2, gemini 1; 1 superseded, 1 archived)``."""
    count = sum(plan.per_tool.values())
    noun = "memory" if count == 1 else "memories"
    tools = ", ".join(f"{t} {plan.per_tool[t]}" for t in TOOLS if t in plan.per_tool)
    extra = [
        f"{n} {what}"
        for n, what in (
            (plan.superseded, "superseded"),
            (plan.merged, "merged"),
            (len(plan.archive), "archived"),
        )
        if n
    ]
    return f"mirror: {count} {noun} ({tools}{'; ' + ', '.join(extra) if extra else ''})"


def write_plan(tx: Transaction, plan: MirrorPlan) -> list[str]:
    """Write the planned records and archive the planned ones; return the paths touched."""
    touched = [path for record in plan.records.values() for path in tx.stage(record).touched]
    for key, reason in plan.archive.items():
        touched += tx.stage_move(key, archive=True, reason=reason).touched
    return touched


# -- planning ---------------------------------------------------------------------


def provenance(record: Record) -> list[tuple[str, str]]:
    """The ``(sha256, origin)`` of each tool item ``record`` stands for."""
    lines = record.extra.get(FIELD)
    if isinstance(lines, list):
        pairs = [str(line).partition(" ") for line in lines]
        return [(sha, origin) for sha, _, origin in pairs if sha and origin]
    legacy = record.extra.get(_LEGACY)
    if isinstance(legacy, str) and record.source and _tool_of(record.source):
        return [(legacy, record.source)]
    return []


def _tool_of(origin: str) -> str | None:
    tool = origin.partition(":memory:")[0]
    return tool if tool in TOOLS and ":memory:" in origin else None


def _made_by_mirror(record: Record) -> bool:
    return bool(record.source and _tool_of(record.source))


class _Planner:
    """One run's decisions over the home's live records and the tools' items."""

    def __init__(self, home: Home, tools: Sequence[str], items: list[NativeMemory]) -> None:
        self.home = home
        self.tools = set(tools)
        self.items = {item.origin: item for item in items}
        self.plan = MirrorPlan(found=len(self.items))
        self.live: dict[str, Record] = {}
        for record in home.records():
            if isinstance(record, Record):
                self.live[record.key] = record
        self.handled: set[str] = set()
        self._index: _TextIndex | None = None

    def run(self) -> MirrorPlan:
        vanished: list[tuple[str, str]] = []
        for key, record in list(self.live.items()):
            for sha, origin in provenance(record):
                if _tool_of(origin) not in self.tools:
                    continue
                item = self.items.get(origin)
                if item is None:
                    vanished.append((key, origin))
                elif item.sha256 == sha:
                    self.handled.add(origin)
                elif (current := self.live.get(key)) is not None:
                    self._edited(current, origin, item)
        for key, origin in vanished:
            self._vanished(key, origin)
        for origin, item in self.items.items():
            if origin not in self.handled:
                self._new(item)
        return self.plan

    # -- what happened to one item

    def _edited(self, record: Record, origin: str, item: NativeMemory) -> None:
        """An item whose text changed: its own record is superseded; a record it had
        joined lets it go, and it is taken as new."""
        if _made_by_mirror(record) and len(provenance(record)) == 1:
            self._put(self._record_of(item, key=record.key, like=record))
            self.plan.superseded += 1
            self.plan.count(item.tool)
            self.handled.add(origin)
        else:
            self._drop(record, origin)

    def _vanished(self, key: str, origin: str) -> None:
        record = self.live.get(key)
        if record is None:
            return
        if "#" in origin and _made_by_mirror(record) and len(provenance(record)) == 1:
            # A bullet reworded enough to move its anchor is the same item, edited.
            path = origin.partition("#")[0]
            for new_origin, item in self.items.items():
                if (
                    new_origin not in self.handled
                    and new_origin.partition("#")[0] == path
                    and _says(item, record, relaxed=True)
                ):
                    self._put(self._record_of(item, key=key, like=record))
                    self.plan.superseded += 1
                    self.plan.count(item.tool)
                    self.handled.add(new_origin)
                    return
        self._drop(record, origin)

    def _new(self, item: NativeMemory) -> None:
        twin = self._twin(item)
        if twin is not None:
            lines = [*_lines(twin), f"{item.sha256} {item.origin}"]
            tags = tuple(dict.fromkeys([*twin.tags, tag_of(item.tool)]))
            self._put(twin.evolve(tags=tags, extra={**twin.extra, FIELD: lines}))
            self.plan.merged += 1
        else:
            self._put(self._record_of(item, key=self._free_key(item)))
            self.plan.added += 1
        self.plan.count(item.tool)
        self.handled.add(item.origin)

    # -- records

    def _drop(self, record: Record, origin: str) -> None:
        """Take ``origin`` out of ``record``'s provenance; a mirror's own record left with
        none is archived, a record brain learned itself is only untagged."""
        left = [(s, o) for s, o in provenance(record) if o != origin]
        tool = _tool_of(origin) or ""
        if not left and _made_by_mirror(record):
            self.plan.archive[record.key] = f"gone from {tool}'s own memory"
            self.plan.records.pop(record.key, None)
            self.live.pop(record.key, None)
            self.plan.count(tool)
            return
        tools = {_tool_of(o) for _, o in left}
        tags = tuple(t for t in record.tags if not (t == tag_of(tool) and tool not in tools))
        extra = {k: v for k, v in record.extra.items() if k not in (FIELD, _LEGACY)}
        if left:
            extra[FIELD] = [f"{s} {o}" for s, o in left]
        self._put(record.evolve(tags=tags, extra=extra))
        self.plan.count(tool)

    def _put(self, record: Record) -> None:
        self.plan.records[record.key] = record
        self.live[record.key] = record
        if self._index is not None:
            self._index.add(record)

    def _record_of(self, item: NativeMemory, *, key: str, like: Record | None = None) -> Record:
        now = iso(utcnow())
        tags = [tag_of(item.tool), *([PROJECT_TAG + item.project] if item.project else [])]
        if like is not None:  # the person's own tags on the old version stay
            tags += [t for t in like.tags if not t.startswith((PROJECT_TAG, "from:"))]
        extra = {k: v for k, v in (like.extra if like else {}).items() if k != _LEGACY}
        extra[FIELD] = [f"{item.sha256} {item.origin}"]
        return Record(
            id=new_id(),
            key=key,
            type=item.type,
            description=item.description,
            body=item.body,
            tags=tuple(dict.fromkeys(tags)),
            profile=item.tool,
            source=item.origin,
            created=now,
            updated=now,
            extra=extra,
        )

    def _free_key(self, item: NativeMemory) -> str:
        """``<tool>-<project>-<name>``, with ``-2``, ``-3`` when another item has it; named
        from the redacted description instead when the name holds a credential (a key is
        a file name and a commit message)."""
        base = memory_key(item.tool, item.name, item.project)
        from brain.home.secrets.keysecrets import derive_key, key_holds_secret

        if key_holds_secret(base):
            from brain.home.secrets.redact import redact

            named = derive_key(redact(item.description or item.body))
            base = memory_key(item.tool, named, item.project)
        key, n = base, 1
        while key in self.plan.records or self._taken(key, item.origin):
            n += 1
            key = validate_key(f"{base[: KEY_MAX - 4].rstrip('-._')}-{n}")
        return key

    def _taken(self, key: str, origin: str) -> bool:
        old = self.live.get(key)
        if old is None:
            found = self.home.previous(key)  # archived: this item coming back revives it
            old = found[0] if found else None
            return old is not None and old.source != origin
        return True

    def _twin(self, item: NativeMemory) -> Record | None:
        """A live record of the item's scope that says what the item says.

        Candidates come from an index of the records' texts: an equal normalized text, or
        (for the overlap rule) a record holding one of the item's rarest words, which any
        record sharing 80% of the item's words must hold (prefix filtering).
        """
        if self._index is None:
            self._index = _TextIndex()
            for each in self.live.values():
                self._index.add(each)
        project = (item.project or "").lower()
        for key in self._index.candidates((item.description, item.body)):
            record = self.live.get(key)
            if record is None:
                continue
            scope = projects_of(record.tags)
            if scope and scope != {project}:
                continue  # another project's, or several: never merged into
            if any(o == item.origin for _, o in provenance(record)):
                continue
            if _says(item, record):
                return record
        return None


class _TextIndex:
    """The records' normalized texts and words, to find a record saying the same thing."""

    def __init__(self) -> None:
        self.by_text: dict[str, set[str]] = {}
        self.postings: dict[str, set[str]] = {}

    def add(self, record: Record) -> None:
        for text in (record.description, record.body):
            norm = sameness.normalize(text)
            if norm:
                self.by_text.setdefault(norm, set()).add(record.key)
            for word in sameness.words(text):
                self.postings.setdefault(word, set()).add(record.key)

    def candidates(self, texts: Iterable[str]) -> list[str]:
        found: set[str] = set()
        for text in texts:
            found |= self.by_text.get(sameness.normalize(text), set())
            words = sameness.words(text)
            if len(words) < sameness.MIN_WORDS:
                continue
            rarest = sorted(words, key=lambda w: (len(self.postings.get(w, ())), w))
            allowed = int(len(words) * (1 - sameness.OVERLAP) + 1e-9)  # words B may lack
            for word in rarest[: allowed + 1]:
                found |= self.postings.get(word, set())
        return sorted(found)


def _lines(record: Record) -> list[str]:
    return [f"{s} {o}" for s, o in provenance(record)]


def _says(item: NativeMemory, record: Record, *, relaxed: bool = False) -> bool:
    """Whether ``item`` and ``record`` state the same thing (``relaxed``: half the words
    in common is enough; used only to pair an item with its own earlier version)."""
    if relaxed:
        a, b = sameness.words(item.body), sameness.words(record.body)
        return bool(a and b) and len(a & b) / len(a | b) >= 0.5
    texts = (item.description, item.body)
    return any(sameness.same(x, y) for x in texts for y in (record.description, record.body))


def plan_mirror(home: Home, tools: Sequence[str] = TOOLS) -> MirrorPlan:
    """Decide which records to write and archive; reads only. Call inside a transaction."""
    tools = [t for t in tools if t in TOOLS]
    from brain.sessions.projects import known_roots

    known = functools.cache(functools.partial(known_roots, home))
    return _Planner(home, tools, read_native(tools, known)).run()


def memory_key(tool: str, name: str, project: str | None) -> str:
    """``<tool>-<project>-<name>`` as a valid key (project names keep memories apart)."""
    import re

    parts = (re.sub(r"[^a-z0-9]+", "-", x.lower()).strip("-") for x in (tool, project or "", name))
    slug = "-".join(p for p in parts if p)
    return validate_key(slug[:KEY_MAX].rstrip("-._"))
