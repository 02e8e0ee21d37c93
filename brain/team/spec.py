"""team.yaml, and which checkouts a team covers.

``team.yaml`` holds the team's name and the projects it covers, each a pattern of a git
remote URL (``github.com/acme/*``, ``git@gitlab.example.com:acme/api.git``). A URL is
compared in one spelling whatever its scheme: no scheme, no user, ``host/path`` without a
trailing ``.git`` (``https://github.com/acme/api.git`` and ``git@github.com:acme/api``
are both ``github.com/acme/api``), and a pattern is that spelling with shell wildcards.

The session-start hook asks which teams cover its folder before every agent session, so
nothing here starts git or imports PyYAML for the file brain writes: the checkout's
remotes are read from its ``.git/config``, and team.yaml in the shape brain writes is read
by line (anything else a person wrote goes to the YAML reader).
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path
from typing import NamedTuple

from brain.errors import BrainError
from brain.home.patterns import lazy

TEAM_FILE = "team.yaml"
TEAMS = "teams"  # in the personal home, git-ignored: one clone per team
_NAME = lazy(r"^[a-z0-9][a-z0-9._-]{0,62}$")
_SCP = lazy(r"^(?:[^@/]+@)?([^:/]+):(?!//)(.+)$")  # git@host:path, as scp spells it
_SCHEME = lazy(r"^[a-z][a-z0-9+.-]*://", re.I)


class TeamSpecError(BrainError):
    """A team.yaml that cannot be read, or a team name that cannot be one."""


class TeamSpec(NamedTuple):  # read by the session-start hook: no dataclass
    """What team.yaml says: the team's name and the remote URL patterns it covers."""

    name: str
    projects: tuple[str, ...]


def check_name(name: str) -> str:
    """``name`` if it can name a team (and its folder), else a :class:`TeamSpecError`."""
    if not _NAME.match(name or ""):
        raise TeamSpecError(
            f"{name!r} cannot name a team",
            hint="use lower-case letters, digits, '.', '_' and '-' (up to 63), e.g. 'acme'",
        )
    return name


def normalize_url(url: str) -> str:
    """A git remote URL in one spelling: ``host/path``, no scheme, user, port or ``.git``.

    A local path stays a path (its ``.git`` ending dropped), so a team of a shared
    machine's bare repositories works as one on GitHub does.
    """
    text = url.strip()
    if _SCHEME.match(text):
        rest = _SCHEME.sub("", text)
        if text.lower().startswith("file://"):
            text = rest
        else:
            host, _, path = rest.partition("/")
            host = host.rpartition("@")[2].split(":")[0]
            text = f"{host}/{path}"
    elif (scp := _SCP.match(text)) and not text.startswith(("/", ".")):
        text = f"{scp.group(1)}/{scp.group(2)}"
    text = text.rstrip("/")
    text = text.removesuffix(".git").rstrip("/")
    return text.lower()


def covers(spec: TeamSpec, urls: tuple[str, ...]) -> bool:
    """Whether one of a checkout's remote ``urls`` matches one of the team's patterns."""
    spellings = [normalize_url(u) for u in urls]
    for pattern in spec.projects:
        wanted = normalize_url(pattern)
        if any(fnmatch.fnmatchcase(s, wanted) for s in spellings):
            return True
    return False


def render(spec: TeamSpec) -> str:
    """team.yaml's text for ``spec``, in the shape :func:`read` reads by line."""
    lines = [
        "# A brain team home: what the team knows, reviewed like code.",
        "# projects: the git remote URLs (shell patterns) of the checkouts it covers.",
        f"name: {spec.name}",
        "projects:",
        *(f"  - {_quoted(p)}" for p in spec.projects),
    ]
    if not spec.projects:
        lines[-1] = "projects: []"
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def read(folder: Path) -> TeamSpec:
    """The team.yaml of the team home ``folder``.

    Raises:
        TeamSpecError: there is none, or it does not say a name and a list of projects.
    """
    path = folder / TEAM_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        raise TeamSpecError(
            f"{path} is missing: this is no brain team home",
            hint="a team home is made by 'brain team create'",
        ) from None
    spec = _by_line(text)
    return spec if spec is not None else _by_yaml(text, path)


def _by_line(text: str) -> TeamSpec | None:
    """team.yaml as brain writes it, without PyYAML; None for anything else."""
    name, projects, listing = None, [], False
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith("name: "):
            name, listing = line[6:].strip(), False
        elif line.strip() in {"projects:", "projects: []"}:
            listing = line.strip() == "projects:"
        elif listing and line.startswith('  - "') and line.endswith('"'):
            projects.append(line[5:-1].replace('\\"', '"').replace("\\\\", "\\"))
        else:
            return None
    if name is None or not _NAME.match(name):
        return None
    return TeamSpec(name, tuple(projects))


def _by_yaml(text: str, path: Path) -> TeamSpec:
    import yaml  # only for a team.yaml a person wrote in another shape

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise TeamSpecError(f"{path} is not YAML: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise TeamSpecError(f"{path} names no team", hint="add a line 'name: <team>'")
    projects = data.get("projects") or []
    if not isinstance(projects, list) or not all(isinstance(p, str) for p in projects):
        raise TeamSpecError(
            f"{path}: 'projects' must be a list of remote URL patterns",
            hint='e.g. projects: ["github.com/acme/*"]',
        )
    return TeamSpec(check_name(data["name"].strip()), tuple(projects))


def remote_urls(checkout: Path) -> tuple[str, ...]:
    """The remote URLs in the git config of the checkout whose top folder is ``checkout``
    (read from the file: no git process), in the order written; none when unreadable."""
    marker = checkout / ".git"
    config = marker / "config"
    if marker.is_file():  # a linked worktree or a submodule: its gitdir holds the config
        try:
            first = marker.read_text(encoding="utf-8").splitlines()[0]
        except (OSError, IndexError, UnicodeDecodeError):
            return ()
        gitdir = Path(first.removeprefix("gitdir:").strip())
        gitdir = gitdir if gitdir.is_absolute() else checkout / gitdir
        common = gitdir / "commondir"
        if common.is_file():
            try:
                gitdir = (gitdir / common.read_text(encoding="utf-8").strip()).resolve()
            except (OSError, UnicodeDecodeError):
                return ()
        config = gitdir / "config"
    try:
        text = config.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ()
    urls, in_remote = [], False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            in_remote = stripped.lower().startswith("[remote ")
        elif in_remote and re.match(r"url\s*=", stripped, re.I):
            urls.append(stripped.split("=", 1)[1].strip().strip('"'))
    return tuple(urls)


def teams_dir(home: Path) -> Path:
    """Where the team clones of the home ``home`` live."""
    return home / TEAMS


def team_paths(home: Path) -> list[Path]:
    """The clones of the teams joined, by name (no process, for the session-start hook)."""
    try:
        found = [
            p
            for p in teams_dir(home).iterdir()
            if not p.name.startswith(".") and (p / TEAM_FILE).is_file()
        ]
    except (FileNotFoundError, NotADirectoryError):
        return []
    return sorted(found, key=lambda p: p.name)
