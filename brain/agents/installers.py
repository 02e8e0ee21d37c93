"""Install brain's hooks into an agent tool's settings, and take them out again.

Each tool keeps hooks in a JSON file shaped ``{"hooks": {Event: [group, ...]}}``
where a group is ``{"matcher": ..., "hooks": [handler, ...]}``. Installing adds one
group per event that holds brain's handler; uninstalling removes brain's handlers
(recognised by their ``brain hook`` command) and any container that leaves empty.
Everything else in the file, the user's hooks and settings included, is kept as it
was. A malformed file is an error that changes nothing; the first write keeps a
``.bak`` copy; the file is replaced atomically.

* Claude Code: ``~/.claude/settings.json`` or ``<project>/.claude/settings.json``;
  SessionStart and SessionEnd; ``timeout`` in seconds.
* Gemini CLI: ``~/.gemini/settings.json`` or ``<project>/.gemini/settings.json``;
  SessionStart and SessionEnd; ``timeout`` in milliseconds; handlers have a ``name``.
* Codex CLI: ``$CODEX_HOME/hooks.json`` (``~/.codex``) or ``<project>/.codex/hooks.json``;
  SessionStart and SessionEnd, ``timeout`` in seconds. Codex runs a hook only once the
  person has trusted it (``/hooks``), and keys that trust by the handler's position
  (``hooks.json:session_start:<group>:<handler>``), so brain never moves other entries.
* GitHub Copilot CLI: a hook file of brain's own, ``$COPILOT_HOME/hooks/brain.json``
  (``~/.copilot``) or ``<project>/.github/hooks/brain.json``; sessionStart and sessionEnd
  (:mod:`brain.agents.copilot_hooks`).
* Qwen Code: ``$QWEN_HOME/settings.json`` (``~/.qwen``) or ``<project>/.qwen/settings.json``;
  SessionStart and SessionEnd, Claude Code's shape, ``timeout`` in seconds.
* Antigravity CLI: a bundle of brain's own, ``brain``, in ``~/.gemini/config/hooks.json``;
  PreInvocation and Stop (:mod:`brain.agents.antigravity_hooks`); user scope only.
* OpenCode: a plugin of brain's own, ``~/.config/opencode/plugin/brain.js`` or
  ``<project>/.opencode/plugin/brain.js``, that asks brain at a session's start and hands
  it each session when OpenCode closes (:mod:`brain.agents.opencode_plugin`).
* Charm's Crush: none. Its one hook event is PreToolUse, before each tool call;
  ``brain setup crush`` registers the MCP server alone (:mod:`brain.agents.crush_config`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from brain.errors import BrainError
from brain.home.files import atomic_write

_OURS = re.compile(
    r"""(?:^|[\s/\\])brain(?:\.exe)?'?\s+(?:--home\s+(?:'[^']*'|\S+)\s+)?hook\s+session-"""
)


# A line comment or a block comment outside strings, as JSONC allows (roughly: the
# comment starts a line, after optional blanks).
_COMMENT = re.compile(r"^\s*(//|/\*)", re.M)


class SettingsError(BrainError):
    """A tool's settings file cannot be read or merged."""

    def __init__(self, path: Path, problem: str, hint: str | None = None) -> None:
        super().__init__(
            f"{path}: {problem}", hint=hint or "fix the file by hand, then run this again"
        )
        self.path = path


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """Where a tool keeps its hooks and how it spells them."""

    name: str
    user_file: tuple[str, ...]
    project_file: tuple[str, ...]
    events: tuple[tuple[str, str], ...]  # (tool's event name, brain hook subcommand)
    timeout: int
    named: bool = False
    notes: tuple[str, ...] = ()
    positional: bool = False  # trust is keyed by position: never move other entries
    longest: tuple[tuple[str, int], ...] = ()  # (event, the most timeout the tool takes)


SPECS = {
    "claude-code": ToolSpec(
        "claude-code",
        (".claude", "settings.json"),
        (".claude", "settings.json"),
        (("SessionStart", "session-start"), ("SessionEnd", "session-end")),
        timeout=10,
    ),
    "gemini": ToolSpec(
        "gemini",
        (".gemini", "settings.json"),
        (".gemini", "settings.json"),
        (("SessionStart", "session-start"), ("SessionEnd", "session-end")),
        timeout=10_000,
        named=True,
        notes=(
            "Gemini CLI runs hooks when they are enabled (hooksConfig.enabled in settings.json "
            "on versions that gate them).",
        ),
    ),
    "codex": ToolSpec(
        "codex",
        ("hooks.json",),
        (".codex", "hooks.json"),
        (("SessionStart", "session-start"), ("SessionEnd", "session-end")),
        timeout=10,
        # Codex clamps a SessionEnd hook to 3 s, saying so on every run; session end
        # only starts the learning job, which takes milliseconds.
        longest=(("SessionEnd", 3),),
        notes=(
            "Codex skips a new hook, silently, until you trust it: start 'codex', type "
            "/hooks, and trust brain's SessionStart and SessionEnd hooks. "
            "'brain doctor' says whether they are trusted.",
        ),
        positional=True,
    ),
    "copilot": ToolSpec(
        "copilot",
        ("hooks", "brain.json"),
        (".github", "hooks", "brain.json"),
        (("sessionStart", "session-start"), ("sessionEnd", "session-end")),
        timeout=10,
        notes=(
            "Copilot CLI keeps tool approvals per project (its git checkout): "
            "--allow-remember approves brain's remember in the project setup runs in; "
            "elsewhere a headless run needs --allow-tool 'brain(remember)'.",
        ),
    ),
    "qwen": ToolSpec(
        "qwen",
        ("settings.json",),
        (".qwen", "settings.json"),
        (("SessionStart", "session-start"), ("SessionEnd", "session-end")),
        timeout=10,
        notes=(
            "Qwen Code runs SessionEnd when an interactive session ends (/quit, /clear); "
            "a headless 'qwen -p' run ends without it, and the next 'brain harvest' learns it.",
        ),
    ),
    "antigravity": ToolSpec(
        "antigravity",
        (".gemini", "config", "hooks.json"),
        (".gemini", "config", "hooks.json"),
        (("PreInvocation", "session-start"), ("Stop", "session-end")),
        timeout=10,
        notes=(
            "Antigravity CLI is closed source and brain was not tested against it: its hook "
            "file, payloads and transcripts follow public sources. PreInvocation puts brain's "
            "context before each invocation; Stop starts learning after each turn.",
        ),
    ),
    "crush": ToolSpec(
        "crush",
        ("crush.json",),
        (".crush.json",),
        (),  # no session hooks: brain's MCP server alone
        timeout=0,
    ),
    "opencode": ToolSpec(
        "opencode",
        ("plugin", "brain.js"),
        (".opencode", "plugin", "brain.js"),
        (("session start", "session-start"), ("session end", "session-end")),
        timeout=10,
    ),
}


@dataclass(frozen=True, slots=True)
class InstallResult:
    """What installing or uninstalling did (or, with ``dry_run``, would do) to one file."""

    action: str  # "install" or "uninstall"
    tool: str
    path: str
    changed: bool
    dry_run: bool
    backup: str | None
    text: str
    events: tuple[str, ...]
    notes: tuple[str, ...] = ()


def spec_for(tool: str) -> ToolSpec:
    """The spec of a tool by name; an unknown name is an error naming the known ones."""
    try:
        return SPECS[tool]
    except KeyError:
        raise BrainError(f"unknown tool {tool!r}", hint=f"use one of: {', '.join(SPECS)}") from None


def settings_path(tool: str, scope: str = "user", project: Path | None = None) -> Path:
    """The settings file brain's hooks go into for ``tool`` at ``scope``."""
    spec = spec_for(tool)
    if scope == "project":
        return Path(project or Path.cwd()).absolute().joinpath(*spec.project_file)
    if scope != "user":
        raise BrainError(f"unknown scope {scope!r}", hint="use 'user' or 'project'")
    if tool == "codex":
        codex_home = os.environ.get("CODEX_HOME")
        base = Path(codex_home).expanduser() if codex_home else Path.home() / ".codex"
        return base.joinpath(*spec.user_file)
    if tool == "copilot":
        from brain.sessions.sources.locations import copilot_home

        return copilot_home().joinpath(*spec.user_file)  # brain's own hook file
    if tool == "antigravity":
        from brain.agents.antigravity_hooks import hooks_file

        return hooks_file()
    if tool == "qwen":
        from brain.sessions.sources.locations import qwen_home

        return qwen_home().joinpath(*spec.user_file)
    if tool == "opencode":
        from brain.agents.opencode_plugin import plugin_path

        return plugin_path()
    if tool == "crush":
        from brain.agents.crush_config import config_path

        return config_path()
    return Path.home().joinpath(*spec.user_file)


def brain_program() -> tuple[str, ...]:
    """The absolute command line of the brain running now, as hooks and MCP should run it.

    An agent tool starts hooks and servers with its own ``PATH`` (a desktop launcher's,
    a shell without the virtualenv), so a bare ``brain`` is never written. In order:
    the ``brain`` script this process runs as; this Python with ``-m brain`` when it
    finds brain without ``PYTHONPATH`` (which Gemini CLI drops, and an agent's shell may
    not have); the ``brain`` on ``PATH``; this Python with ``-m brain`` after all.
    """
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is not None and script.name in ("brain", "brain.exe") and script.is_file():
        return (os.path.abspath(script),)
    if _importable_without_pythonpath():
        return (sys.executable, "-m", "brain")
    found = shutil.which("brain")
    if found:
        return (os.path.abspath(found),)
    return (sys.executable, "-m", "brain")


def _importable_without_pythonpath() -> bool:
    """Whether this Python finds the brain running now from anywhere, without ``PYTHONPATH``
    (a checkout run from its own folder, or through ``PYTHONPATH``, is found only there)."""
    import subprocess
    import tempfile

    import brain

    probe = "import brain; print(brain.__file__)"
    try:
        done = subprocess.run(
            [sys.executable, "-E", "-c", probe],
            capture_output=True,
            text=True,
            cwd=tempfile.gettempdir(),
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    found = done.stdout.strip()
    return done.returncode == 0 and bool(found) and os.path.samefile(found, brain.__file__)


def brain_command(home: Path | None = None) -> str:
    """The shell command line a hook runs brain by: :func:`brain_program`, and the home."""
    base = " ".join(_quote(part) for part in brain_program())
    return f"{base} --home {_quote(str(home))}" if home else base


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def is_ours(handler: Any) -> bool:
    """Whether a hook handler is one brain installed."""
    if not isinstance(handler, dict):
        return False
    command = handler.get("command") or handler.get("bash")  # Copilot CLI's: bash
    return bool(_OURS.search(str(command or "")))


def _handler(spec: ToolSpec, event: str, sub: str, base: str) -> dict[str, Any]:
    handler: dict[str, Any] = {"type": "command"}
    if spec.named:
        handler["name"] = f"brain-{sub}"
    handler["command"] = f"{base} hook {sub} --tool {spec.name}"
    handler["timeout"] = min(spec.timeout, dict(spec.longest).get(event, spec.timeout))
    return handler


def _read(path: Path) -> tuple[dict[str, Any], str | None]:
    if not path.exists():
        return {}, None
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(path, f"cannot read it ({exc})") from exc
    if not raw.strip():
        return {}, raw
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        if _COMMENT.search(raw):
            # Gemini CLI reads its settings with comments stripped; rewriting the file
            # as JSON would lose them, so the person adds brain's entry by hand.
            raise SettingsError(
                path,
                "has comments, which brain cannot keep when it rewrites the file",
                hint="add the hooks by hand: 'brain hooks install TOOL --scope project "
                '--project $(mktemp -d) --dry-run\' prints the "hooks" entries to paste',
            ) from exc
        raise SettingsError(path, f"not valid JSON (line {exc.lineno}: {exc.msg})") from exc
    if not isinstance(data, dict):
        raise SettingsError(path, "expected a JSON object at the top")
    return data, raw


def _hooks_table(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsError(path, "'hooks' is not an object")
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            raise SettingsError(path, f"'hooks.{event}' is not a list")
    return hooks


def remove_ours(path: Path, data: dict[str, Any], keep_positions: bool = False) -> dict[str, Any]:
    """A copy of ``data`` without brain's handlers (and containers that end up empty).

    With ``keep_positions`` (Codex, which keys a hook's trust by its position), a group
    of brain's followed by other groups becomes an empty placeholder group instead of
    going, so no other hook moves and loses the trust the person gave it.
    """
    hooks = _hooks_table(path, data)
    cleaned: dict[str, Any] = {}
    for event, groups in hooks.items():
        kept_groups: list[Any] = []
        placeholders = 0  # trailing placeholders made here, dropped at the end
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(inner, list) or not any(is_ours(h) for h in inner):
                kept_groups.append(group)
                placeholders = 0
                continue
            kept = [h for h in inner if not is_ours(h)]
            if kept:
                kept_groups.append({**group, "hooks": kept})
                placeholders = 0
            elif keep_positions:
                kept_groups.append({**group, "hooks": []})
                placeholders += 1
        kept_groups = kept_groups[: len(kept_groups) - placeholders]
        if kept_groups or not groups:
            cleaned[event] = kept_groups
    result = dict(data)
    if cleaned or ("hooks" in data and not hooks):
        result["hooks"] = cleaned
    else:
        result.pop("hooks", None)
    return result


def _slot(groups: list[Any]) -> int | None:
    """Where brain's group goes: its old place, else a placeholder it left, else the end."""
    for i, group in enumerate(groups):
        if _ours_in(group):
            return i
    for i, group in enumerate(groups):
        if isinstance(group, dict) and group.get("hooks") == []:
            return i
    return None


def _ours_in(group: Any) -> bool:
    inner = group.get("hooks") if isinstance(group, dict) else None
    return isinstance(inner, list) and any(is_ours(h) for h in inner)


def _placed(group: dict[str, Any], handler: dict[str, Any]) -> dict[str, Any]:
    """``group`` with brain's first handler replaced by ``handler`` (a placeholder filled)."""
    inner: list[Any] = []
    for h in group.get("hooks") or []:
        if not is_ours(h):
            inner.append(h)
        elif handler not in inner:
            inner.append(handler)
    return {**group, "hooks": inner or [handler]}


def add_ours(path: Path, data: dict[str, Any], spec: ToolSpec, base: str) -> dict[str, Any]:
    """A copy of ``data`` with exactly one brain handler per event, in place if it had one."""
    hooks = dict(_hooks_table(path, data))
    for event, sub in spec.events:
        handler = _handler(spec, event, sub, base)
        groups = list(hooks.get(event, []))
        slot = _slot(groups)
        placed: list[Any] = []
        for i, group in enumerate(groups):
            if i == slot:
                placed.append(_placed(group, handler))
            elif _ours_in(group):
                rest = [h for h in group["hooks"] if not is_ours(h)]
                placed += [{**group, "hooks": rest}] if rest else []
            else:
                placed.append(group)
        if slot is None:
            placed.append({"matcher": "", "hooks": [handler]})
        hooks[event] = placed
    return {**data, "hooks": hooks}


def write_keeping_mode(path: Path, text: str) -> None:
    """Replace ``path`` atomically, keeping its permissions (new files get the umask's).

    A symlink (settings kept in a dotfiles repository, CLAUDE.md linked to AGENTS.md)
    stays a link: the file it points to is the one replaced.
    """
    path = path.resolve() if path.is_symlink() else path
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    atomic_write(path, text)
    os.chmod(path, mode)


def _render(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _apply(
    action: str,
    tool: str,
    path: Path,
    new: dict[str, Any],
    old: dict[str, Any],
    raw: str | None,
    dry_run: bool,
) -> InstallResult:
    spec = spec_for(tool)
    changed = new != old
    text = _render(new)
    backup = None
    if changed and not dry_run:
        path.parent.mkdir(parents=True, exist_ok=True)
        bak = path.with_name(path.name + ".bak")
        # Only an install backs up: before it, the file is all the user's own.
        if action == "install" and raw is not None and not bak.exists():
            shutil.copy2(path, bak)  # the user's file as it was before brain first touched it
            backup = str(bak)
        write_keeping_mode(path, text)
    events = tuple(event for event, _ in spec.events)
    return InstallResult(
        action, tool, str(path), changed, dry_run, backup, text, events, spec.notes
    )


def install(
    tool: str,
    *,
    scope: str = "user",
    project: Path | None = None,
    dry_run: bool = False,
    home: Path | None = None,
) -> InstallResult:
    """Merge brain's session hooks into ``tool``'s settings file.

    Args:
        tool: ``claude-code``, ``codex``, ``gemini`` or ``copilot``.
        scope: ``user`` (the tool's file in your home) or ``project`` (in ``project``).
        project: the project directory for ``scope="project"`` (default: cwd).
        dry_run: compute the new file but write nothing.
        home: a memory home to pin in the hook command (default: brain's usual lookup).

    Returns:
        What changed; ``text`` is the whole file as written (or as it would be).
    """
    _hooked(tool)
    if tool == "copilot":
        return _copilot("install", scope, project, dry_run, brain_command(home))
    if tool == "antigravity":
        return _antigravity("install", scope, dry_run, brain_command(home))
    if tool == "opencode":
        return opencode(scope, project, dry_run, home or _home())
    spec = spec_for(tool)
    path = settings_path(tool, scope, project)
    old, raw = _read(path)
    new = add_ours(path, old, spec, brain_command(home))
    return _apply("install", tool, path, new, old, raw, dry_run)


def uninstall(
    tool: str, *, scope: str = "user", project: Path | None = None, dry_run: bool = False
) -> InstallResult:
    """Remove brain's hooks from ``tool``'s settings file, leaving everything else."""
    _hooked(tool)
    if tool == "copilot":
        return _copilot("uninstall", scope, project, dry_run, None)
    if tool == "antigravity":
        return _antigravity("uninstall", scope, dry_run, None)
    if tool == "opencode":
        return opencode(scope, project, dry_run, None)
    path = settings_path(tool, scope, project)
    old, raw = _read(path)
    if raw is None:
        return InstallResult("uninstall", tool, str(path), False, dry_run, None, "", ())
    new = remove_ours(path, old, spec_for(tool).positional)
    return _apply("uninstall", tool, path, new, old, raw, dry_run)


def _hooked(tool: str) -> None:
    """A tool without session hooks (Crush) is an error that says what to run instead."""
    if spec_for(tool).events:
        return
    raise BrainError(
        f"{tool} has no session hooks (Crush's one hook event is PreToolUse)",
        hint=f"'brain setup {tool}' registers brain's MCP server; 'brain harvest' learns its "
        "sessions",
    )


def _antigravity(action: str, scope: str, dry_run: bool, base: str | None) -> InstallResult:
    """Put brain's bundle into Antigravity CLI's hook file (``base``), or take it out; a
    ``brain`` bundle brain did not write is an error that changes nothing."""
    from brain.agents import antigravity_hooks

    if scope != "user":
        raise BrainError(
            "Antigravity CLI's hooks are set up for the user only",
            hint="run it without --scope project",
        )
    path = settings_path("antigravity")
    old, raw = _read(path)
    if antigravity_hooks.foreign(old, is_ours):
        raise SettingsError(
            path,
            f"its '{antigravity_hooks.BUNDLE}' bundle holds hooks brain did not write",
            hint="rename that bundle and run this again",
        )
    new = {k: v for k, v in old.items() if k != antigravity_hooks.BUNDLE}
    if base is not None:
        new[antigravity_hooks.BUNDLE] = antigravity_hooks.bundle(base)
    if raw is None and not new:
        return InstallResult(action, "antigravity", str(path), False, dry_run, None, "", ())
    return _apply(action, "antigravity", path, new, old, raw, dry_run)


def opencode(
    scope: str = "user",
    project: Path | None = None,
    dry_run: bool = False,
    home: Path | None = None,
    allow_remember: bool | None = None,
) -> InstallResult:
    """Write brain's plugin for OpenCode, pinning ``home``, or take it out (None); a file
    of that name brain did not write is an error that changes nothing
    (:mod:`brain.agents.opencode_plugin`)."""
    from brain.agents import opencode_plugin as plugin

    path = plugin.plugin_path(scope, project)
    base = [*brain_program(), "--home", str(home)] if home is not None else None
    try:
        done = plugin.put(path, base, allow_remember, dry_run, write_keeping_mode)
    except ValueError as exc:
        hint = f"rename it (OpenCode loads every file in {path.parent}) and run this again"
        raise SettingsError(path, str(exc), hint=hint) from exc
    except OSError as exc:
        raise SettingsError(path, f"cannot be written ({exc})") from exc
    action = "install" if home is not None else "uninstall"
    events = tuple(event for event, _ in plugin.EVENTS)
    return InstallResult(
        action, "opencode", str(path), done.changed, dry_run, None, done.text, events, plugin.NOTES
    )


def _home() -> Path:
    """The memory home a plugin pins when none is named: brain's usual lookup, now."""
    from brain.home.paths import resolve_home

    return resolve_home()


def _copilot(
    action: str, scope: str, project: Path | None, dry_run: bool, base: str | None
) -> InstallResult:
    """Write (``base``) or delete brain's own hook file for Copilot CLI; a file of that
    name brain did not write is an error that changes nothing."""
    from brain.agents import copilot_hooks

    path = settings_path("copilot", scope, project)
    try:
        old = copilot_hooks.load(path)
    except (OSError, ValueError) as exc:
        raise SettingsError(path, f"cannot be read as JSON ({exc})") from exc
    if old is not None and copilot_hooks.foreign(old, is_ours):
        raise SettingsError(
            path,
            "holds hooks brain did not write",
            hint=f"rename it (Copilot CLI reads every *.json in {path.parent}) and run this again",
        )
    new = copilot_hooks.document(base) if base is not None else None
    text = _render(new) if new is not None else ""
    changed = new != old
    if changed and not dry_run:
        if new is None:
            path.unlink()
            with contextlib.suppress(OSError):  # the folder, when brain's file was all of it
                path.parent.rmdir()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_keeping_mode(path, text)
    spec = spec_for("copilot")
    events = tuple(event for event, _ in spec.events)
    return InstallResult(
        action, "copilot", str(path), changed, dry_run, None, text, events, spec.notes
    )
