"""The session-start hook's, ``brain context``'s, ``brain list``'s and ``brain status``'s
answers, kept under the files they read.

An agent tool runs ``brain hook session-start`` before every session and waits for it,
and what it prints changes only when the home does: a record written, a setting, a use
counted. So the answer is kept in ``.brain/cache/start-<hash>.memo`` (derived and local, like
every cache there) with what it was computed from, and the next start in the same place
prints it again after looking at those files alone, in a process that loads nothing of
brain but this module and nothing of Python's library beyond what the interpreter
itself starts with (``re``, ``json``, ``pathlib`` and ``typing`` would each cost about
half of a bare interpreter's start).

An answer is kept under what it was asked with (the command, the tool, the folder, the
home, every ``BRAIN_*`` variable and the variables that say where the home and the
person's home folder are) and under the state of every file it may
have read, each by size, times and inode:

* the home's top files and folder, ``memories/``, ``uses/`` and ``.brain/`` (but for its
  caches, logs, lock and search index), each folder and every file in it;
* whether a ``.git`` is in each folder from the session's folder up (which checkout, so
  which project, it is in);
* for a project whose records rest on its commits (staleness), the checkout's ``HEAD``
  commit; when it has moved, the object id of each file the marked records rest on at
  the new HEAD (one ``git cat-file --batch-check``): the answer stands while every
  record's mark is what it was (its file differs from the record's commit's, or went, as
  before), and is kept again under the new commit;
* brain's version and the modules that write the answer.

``brain status`` rests on more: the home's HEAD commit (the last runs), the archive,
the harvest marks and rollout summaries, every place on PATH an agent program may be
(and the program setup kept), and the whole environment (API keys; only a digest of it
is kept). Its answer also depends on the clock: a session leaves its quiet window, grows
too old or may be retried at a time the whole way names, and the answer is kept until
then. No status is kept while a write cut short left files to put back.

``uses/pending.jsonl`` grows with every start (the records it showed, which count for
nothing in what is shown next): it is kept by inode and length, and what was appended
since may be only such lines. A file changed in the last two seconds is not trusted, as
with the record cache (:data:`brain.home.recordcache.RACY_NS`); an answer is kept only
when every file stood still while it was computed, and never when a team is joined, an
agent run brain started asks, or doctor checks the hook. Anything else, or any doubt,
goes the whole way (:mod:`brain.cli.quick`), which writes the answer again.

What a kept answer does besides printing is what the whole way does: the records shown
are counted (one appended line) and the hook's call is noted for doctor.

A session's end starts the learning job, whose writes change what the next start in
that place prints; so the job, once done, computes that answer and keeps it
(:func:`ahead`, :func:`brain.agents.hooks.keep_start_ahead`), in the environment the
tool gave its hooks, counting and noting nothing: the next start finds it kept.
"""

import os
import stat
import sys
import time

from brain import __version__
from brain.home.git.headfiles import head_commit, top_of

#: The tools whose session-start hook is answered from here (Crush's is brain's MCP server).
TOOLS = frozenset({"claude-code", "codex", "gemini", "copilot", "qwen", "antigravity", "opencode"})
CACHE = os.path.join(".brain", "cache")
PREFIX, SUFFIX = "start-", ".memo"  # one file per place asked: start-<its hash>.memo
VERSION = 5
#: The most answers kept: one per tool and folder a person starts sessions in.
MAX_ANSWERS = 32
RACY_NS = 2_000_000_000  # brain.home.recordcache.RACY_NS: not imported, it loads pathlib
SHOWN_MARK = b'"kind": "shown"'  # brain.home.uses.counts.SHOWN_MARK, as bytes
PENDING = os.path.join("uses", "pending.jsonl")
LAST_HOOK = os.path.join(".brain", "logs", "last-hook-{}.txt")  # hooks.last_run_path
# What in .brain/ says nothing about an answer: derived files and the writers' lock.
_STATE_SKIPPED = frozenset({"cache", "logs", "lock", "index.sqlite", "index.sqlite-wal",
                            "index.sqlite-shm", "index.sqlite-journal"})  # fmt: skip
_FOLDERS = ("memories", "uses", ".brain")
# The modules whose code writes the answer: changed (a new version, an edit), kept
# answers are not trusted.
_CODE = (
    ("agents", "startmemo.py"), ("agents", "context.py"), ("agents", "hooks.py"),
    ("agents", "digest.py"), ("agents", "learned.py"), ("agents", "once.py"),
    ("cli", "quick.py"), ("cli", "text.py"), ("home", "recordcache.py"),
)  # fmt: skip
# And those that write ``brain status``'s.
_STATUS_CODE = (
    ("pipeline", "status.py"), ("pipeline", "pending.py"), ("pipeline", "runs.py"),
    ("models", "options.py"), ("home", "config.py"),
)  # fmt: skip
# The folders of the home a status reads beyond the start's: each folder and every file.
_STATUS_FOLDERS = ("archive", "harvest", "rollout_summaries")
# Variables that change with every shell and say nothing to a status.
_VOLATILE = frozenset({"_", "OLDPWD", "PWD", "SHLVL"})
# A file's state: (size, mtime_ns, ctime_ns, inode), "d" or "f" for what a folder holds
# only by being there, None for nothing there.
_FULL, _KIND = 0, 1

Signed = list[tuple[str, int, object]]  # (path, how, its state)
# A kept answer: what was asked, stdout, stderr, the shown records as JSON, the files it
# rests on, the pending file's (inode, length), the checkout whose HEAD its staleness
# marks were read at, and the time (ns since the epoch) until which it stands (0: no end).
# The checkout: its top, HEAD's commit then, the files its records rest on, and the
# grounds of its marks (:class:`brain.agents.context.Context`): each marked file's object
# id at HEAD then, and each marked record's files with their ids at its commit; or ().
Ids = tuple[tuple[str, str | None], ...]  # (path, object id)
Grounds = tuple[Ids, tuple[Ids, ...]] | tuple[()]
Git = tuple[str, str, tuple[str, ...], Grounds]
Entry = tuple[tuple[object, ...], str, str, str, Signed, tuple[int, int] | None, Git | None, int]

# The hook payload read by ask(); the whole way takes it from here (stdin is read once).
payload: str | None = None


class _Asked:
    """What was asked, when it is one a kept answer may serve."""

    def __init__(
        self, home: str, key: tuple[object, ...], tool: str | None, project: str | None
    ) -> None:
        self.home = home
        self.key = key
        self.tool = tool  # None for ``brain context``, "list" or "status" for those
        self.project = project
        self.before: Signed | None = None
        self.watched: list[tuple[str, int]] = []  # what the whole way named: watch()
        self.pending: tuple[int, int] | None = None
        self.head: tuple[str, str | None] | None = None  # the checkout's top and HEAD's commit


asked: _Asked | None = None  # set by answer() when the whole way should keep its answer


def answer(argv: list[str]) -> bool:
    """Print a kept answer to ``argv`` and return True, or return False (and note what
    was asked, for :func:`keep`) for the whole way to answer."""
    global asked
    try:
        query = _query(argv)
        if query is None:
            return False
        entry = _load(query.home, query.key)
        if entry is not None and _serve(query, entry):
            _touch(query.home, query.key)  # served last: the last to be pruned
            return True
        _note_before(query)
        asked = query
    except Exception:  # noqa: BLE001 - whatever it is, the whole way answers and says
        asked = None
    return False


def ahead(argv: list[str], raw: str) -> bool:
    """Whether the answer to ``argv`` with the hook payload ``raw`` is worth computing
    now, for a start to come: True (and what was asked noted, for :func:`keep`) when no
    kept answer stands. The files it rests on are first left to stand past the racy
    window (what was just written would keep it from being kept). Nothing is printed or
    counted."""
    global asked
    asked = None
    try:
        query = _query(argv, raw)
        if query is None:
            return False
        entry = _load(query.home, query.key)
        if entry is not None and _serve(query, entry, quiet=True):
            return False
        newest = 0
        for _path, _how, sig in _signatures(_deps_before(query)):
            if isinstance(sig, tuple):
                newest = max(newest, sig[1], sig[2])
        wait = newest + RACY_NS - time.time_ns()
        if wait > 0:
            time.sleep(min(wait, RACY_NS) / 1e9 + 0.01)
        _note_before(query)
        asked = query
    except Exception:  # noqa: BLE001 - nothing kept ahead: the start computes it
        asked = None
    return asked is not None


def _note_before(query: _Asked) -> None:
    """What ``query``'s answer rests on as it is before the whole way reads it."""
    query.before = _signatures(_deps_before(query))
    query.pending = _pending_state(query.home)
    top = None if query.project is None else top_of(query.project)
    query.head = None if top is None else (top, head_commit(top))


# -- asking ---------------------------------------------------------------------------


def _query(argv: list[str], raw: str | None = None) -> _Asked | None:
    """What ``argv`` asks, when a kept answer may serve it (a hook's payload: ``raw``,
    else standard input)."""
    global payload
    flag = None
    if argv[:1] == ["--home"] and len(argv) > 1:
        flag, argv = argv[1], argv[2:]
    if os.environ.get("BRAIN_INTERNAL_RUN", "") not in ("", "0"):
        return None
    if os.environ.get("BRAIN_HOOK_CHECK", "") not in ("", "0"):
        return None
    tool: str | None
    project: str | None
    if argv[:2] == ["hook", "session-start"]:
        tool = "claude-code"
        if len(argv) == 4 and argv[2] == "--tool" and argv[3] in TOOLS:
            tool = argv[3]
        elif len(argv) != 2:
            return None
        payload = read_stdin() if raw is None else raw
        project = _payload_cwd(payload)
        if project is None or not os.path.isabs(project):
            return None
    elif argv in (["context"], ["list"], ["status"]):
        tool = None if argv == ["context"] else argv[0]
        if not utf8_streams():
            return None
        project = os.getcwd() if argv == ["context"] else None
    else:
        return None
    home = _home(flag)
    if home is None or not os.path.isdir(os.path.join(home, ".brain")):
        return None
    env = tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith("BRAIN_")))
    where = tuple(os.environ.get(k) for k in ("HOME", "USERPROFILE", "XDG_DATA_HOME"))
    # What is printed in colour, and what is not: on a terminal, unless NO_COLOR.
    streams = (_isatty(sys.stdout), _isatty(sys.stderr), os.environ.get("NO_COLOR"))
    # The home, not how it was named (``--home``, BRAIN_HOME): a start kept ahead by the
    # learning job names it one way, the tool's hook maybe another. The process's folder
    # says nothing beyond that: a hook's project is its payload's, the context's is the
    # folder (``project``), a list or a status is the same anywhere.
    key: tuple[object, ...] = (VERSION, __version__, tool, project, home, env, where, streams)
    if tool == "status":
        key += (head_commit(home), _environment())
    return _Asked(home, key, tool, project)


def _environment() -> str:
    """A digest of the environment but for what changes with every shell: a status
    rests on PATH, API keys and what a model's provider reads, and no value of them
    is written anywhere."""
    text = repr(sorted((k, v) for k, v in os.environ.items() if k not in _VOLATILE))
    data = text.encode("utf-8", "surrogatepass")
    try:
        from _blake2 import blake2b  # hashlib's own, without hashlib's start
    except ImportError:  # a Python built without it
        return f"{_fnv(data):016x}"
    return blake2b(data, digest_size=16).hexdigest()


def _home(flag: str | None) -> str | None:
    """Where :func:`brain.home.paths.resolve_home` finds the home (the key holds all it
    reads: a different answer only misses)."""
    if flag:
        return os.path.abspath(os.path.expanduser(flag))
    if env := os.environ.get("BRAIN_HOME"):
        return os.path.abspath(os.path.expanduser(env))
    if xdg := os.environ.get("XDG_DATA_HOME"):
        return os.path.join(os.path.abspath(os.path.expanduser(xdg)), "brain")
    user = os.path.expanduser("~")
    return None if user == "~" else os.path.join(user, ".local", "share", "brain")


def read_stdin() -> str:
    """The hook payload on standard input; empty when there is none or it is unreadable
    (:mod:`brain.agents.hooks` reads it here too)."""
    try:
        return "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read()
    except (OSError, ValueError, UnicodeDecodeError):
        return ""


def _payload_cwd(raw: str) -> str | None:
    """The folder the payload names (:func:`payload_folder`); None
    when it is not plainly a JSON object (the whole way says what is wrong)."""
    if not raw.strip():
        return None
    import _json  # the json module's own scanner, without the module (it loads re)

    text = raw.strip(" \t\n\r")
    try:
        found, end = _json.make_scanner(_Decoding())(text, 0)  # type: ignore[arg-type]
    except Exception:  # StopIteration, and what its error path raises: not for here
        return None
    if end != len(text) or not isinstance(found, dict):
        return None
    return payload_folder(found)


def payload_folder(payload: dict[str, object]) -> str | None:
    """The folder a hook payload says the session runs in (Antigravity CLI:
    ``workspacePaths``); :mod:`brain.agents.hooks` reads it here too."""
    cwd = payload.get("cwd")
    if isinstance(cwd, str) and cwd:
        return cwd
    paths = payload.get("workspacePaths")
    first = paths[0] if isinstance(paths, list) and paths else None
    return first if isinstance(first, str) and first else None


class _Decoding:
    """What ``json.JSONDecoder()`` gives its scanner, for ``json.loads``' reading."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    memo: dict[str, object] = {}

    @staticmethod
    def parse_constant(name: str) -> float:
        return float({"-Infinity": "-inf", "Infinity": "inf", "NaN": "nan"}[name])


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return False


def utf8_streams() -> bool:
    """Whether the output streams take any text as they are: click rewraps a stream
    whose encoding is misconfigured (ASCII), so such a command line is left to it
    (:mod:`brain.cli.quick` asks here too)."""
    return all(
        (getattr(stream, "encoding", None) or "").lower().replace("-", "") == "utf8"
        for stream in (sys.stdout, sys.stderr)
    )


# -- what an answer rests on ----------------------------------------------------------


def _deps_before(query: _Asked) -> list[tuple[str, int]]:
    """The files an answer in ``query``'s place rests on, by what is there now."""
    home = query.home
    deps = [(home, _FULL), (os.path.join(home, ".git"), _KIND)]
    deps += _code_deps()
    with os.scandir(home) as found:
        top = list(found)
    for entry in top:
        if entry.is_file(follow_symlinks=False):
            deps.append((entry.path, _FULL))
    for name in _FOLDERS:
        folder = os.path.join(home, name)
        deps.append((folder, _FULL))
        try:
            with os.scandir(folder) as found:
                inside = list(found)
        except (FileNotFoundError, NotADirectoryError):
            continue
        for entry in inside:
            if name == ".brain" and entry.name in _STATE_SKIPPED:
                continue
            if entry.path.endswith(PENDING):
                continue  # by inode and length, with what was appended
            deps.append((entry.path, _FULL if entry.is_file(follow_symlinks=False) else _KIND))
    if query.tool == "status":
        deps += _status_deps(home)
    teams = os.path.join(home, "teams")
    deps.append((teams, _FULL))
    folders = _upwards(query.project)
    real = _upwards(os.path.realpath(query.project)) if query.project else []
    for folder in dict.fromkeys([*folders, *real]):
        deps.append((os.path.join(folder, ".git"), _KIND))
    if query.project:
        deps.append((query.project, _KIND))
    return deps


def _status_deps(home: str) -> list[tuple[str, int]]:
    """What a status reads beyond a start's answer: its code and the folders it counts
    and reads (the home's HEAD commit, which its last runs are read at, is in the key)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    deps = [(os.path.join(package, *parts), _FULL) for parts in _STATUS_CODE]
    for name in _STATUS_FOLDERS:
        folder = os.path.join(home, name)
        deps.append((folder, _FULL))
        try:
            with os.scandir(folder) as found:
                deps += [(entry.path, _FULL) for entry in found]
        except (FileNotFoundError, NotADirectoryError):
            continue
    return deps


def watch(paths: list[str] | None) -> None:
    """Add ``paths`` to what the answer being computed rests on, by their state now
    (before the whole way reads them): the places a status looks for programs. None:
    what it rests on cannot be listed, and it is not kept."""
    global asked
    query = asked
    if query is None or query.before is None:
        return
    if paths is None:
        asked = None
        return
    more = [(path, _FULL) for path in paths]
    query.watched += more
    query.before += _signatures(more)


def _upwards(folder: str | None) -> list[str]:
    """``folder`` and every folder above it."""
    if not folder:
        return []
    out = [folder]
    while (parent := os.path.dirname(folder)) != folder:
        out.append(parent)
        folder = parent
    return out


def _code_deps() -> list[tuple[str, int]]:
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return [(os.path.join(package, *parts), _FULL) for parts in _CODE]


def _signature(path: str, how: int) -> tuple[int, ...] | str | None:
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if how == _KIND:
        return "d" if stat.S_ISDIR(st.st_mode) else "f"
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def _signatures(deps: list[tuple[str, int]]) -> Signed:
    return [(path, how, _signature(path, how)) for path, how in deps]


def _pending_state(home: str) -> tuple[int, int] | None:
    try:
        st = os.stat(os.path.join(home, PENDING))
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_size


def _only_shown(path: str, start: int, end: int) -> bool:
    """Whether ``path`` from ``start`` to ``end`` holds only whole lines of records shown
    (:data:`SHOWN_MARK`), which count for nothing in an answer."""
    if end == start:
        return True
    with open(path, "rb") as fh:
        fh.seek(start)
        data = fh.read(end - start)
    if len(data) != end - start or not data.endswith(b"\n"):
        return False
    return all(SHOWN_MARK in line for line in data[:-1].split(b"\n"))


# -- serving a kept answer --------------------------------------------------------------


def _path(home: str, key: tuple[object, ...]) -> str:
    """Where the answer to ``key`` is kept: named by a 64-bit FNV-1a hash of it (hashlib
    would cost more to load than the whole answer) of its text, which is the same for
    equal keys (marshal's bytes are not: they depend on which strings are shared)."""
    digest = _fnv(repr(key).encode("utf-8", "surrogatepass"))
    return os.path.join(home, CACHE, f"{PREFIX}{digest:016x}{SUFFIX}")


def _fnv(data: bytes) -> int:
    digest = 0xCBF29CE484222325
    for byte in data:
        digest = ((digest ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return digest


def _load(home: str, key: tuple[object, ...]) -> Entry | None:
    import marshal

    try:
        with open(_path(home, key), "rb") as fh:
            entry = marshal.loads(fh.read())  # load(fh) reads the file a few bytes a call
    except (OSError, ValueError, EOFError, TypeError):
        return None  # none yet, or not readable: the whole way writes it again
    if isinstance(entry, tuple) and len(entry) == 8 and entry[0] == key:
        return entry
    return None


def _touch(home: str, key: tuple[object, ...]) -> None:
    try:
        os.utime(_path(home, key))
    except OSError:
        return


def forget(home: str) -> None:
    """Drop every answer kept in ``home``: the next starts compute theirs."""
    folder = os.path.join(home, CACHE)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if name.startswith(PREFIX) and name.endswith(SUFFIX):
            _remove(os.path.join(folder, name))


def _serve(query: _Asked, entry: Entry, quiet: bool = False) -> bool:
    """Print ``entry``'s answer when everything it rests on is as it was; ``quiet``:
    only say whether it is."""
    _key, out, err, shown, deps, pending, git, until = entry
    if until and time.time_ns() >= until:
        return False  # the clock has reached a time the answer changes at
    for path, how, sig in deps:
        if _signature(path, how) != sig:
            return False
    moved = None
    if git is not None:
        top, commit, paths, grounds = git
        moved = head_commit(top)
        if moved is None:
            return False
        if moved == commit:
            moved = None
        elif grounds:
            now = _marks_stand(top, grounds)
            if now is None:
                return False  # a mark would change: a file came to differ, or went, or back
            git = (top, commit, paths, now)
        else:
            from brain.home.git.spawn import unchanged_since  # imports os alone

            if not unchanged_since(top, commit, paths):
                return False  # HEAD moved past a file the marks rest on
    path = os.path.join(query.home, PENDING)
    if pending is None:
        if os.path.exists(path):
            return False
    else:
        inode, length = pending
        st = os.stat(path)
        if st.st_ino != inode or st.st_size < length or not _only_shown(path, length, st.st_size):
            return False
    if moved is not None and git is not None:
        _follow_head(query.home, entry, (git[0], moved, git[2], git[3]))
    if quiet:
        return True
    if shown:
        _note_shown(query.home, shown)
    if query.tool in TOOLS:
        note_run(os.path.join(query.home, LAST_HOOK.format(query.tool)), "session-start", "ok")
    if err:
        sys.stderr.write(err)
        sys.stderr.flush()
    sys.stdout.write(out)
    sys.stdout.flush()
    return True


def _marks_stand(top: str, grounds: Grounds) -> Grounds | None:
    """The grounds of the marks at the checkout's HEAD now, when every record's mark is
    what it was (each of its files differs from its commit's, or went, as before); None
    when one would change or git cannot say. One ``git cat-file --batch-check``."""
    from brain.home.git.spawn import object_ids  # imports os alone

    files, records = grounds  # type: ignore[misc]
    paths = [path for path, _ in files]
    ids = object_ids(top, [f"HEAD:{path}" for path in paths])
    if ids is None:
        return None
    before, after = dict(files), dict(zip(paths, ids, strict=True))
    for record in records:
        for path, then in record:
            if _mark(then, before.get(path)) != _mark(then, after.get(path)):
                return None
    return (tuple(zip(paths, ids, strict=True)), records)


def _mark(then: object, now: object) -> str:
    """What a file says of its record's mark (:func:`brain.home.staleness.check._verdict`)."""
    if then is None and now is None:
        return ""  # no file of the checkout then or now: the record does not rest on it
    if now is None:
        return "gone"
    return "changed" if then != now else "same"


def _follow_head(home: str, entry: Entry, git: Git) -> None:
    """Keep ``entry`` again with HEAD's new commit, past which no file its marks rest on
    changed, so the next start needs no git; best effort."""
    import marshal

    target = _path(home, entry[0])
    temporary = f"{target}.{os.getpid()}.tmp"
    try:
        with open(temporary, "wb") as fh:
            fh.write(marshal.dumps((*entry[:6], git, entry[7])))  # type: ignore[arg-type]
        os.replace(temporary, target)
    except (OSError, ValueError):
        return


def _note_shown(home: str, paths_json: str) -> None:
    """:func:`brain.agents.hooks.note_shown`: one line appended, best effort; a pending
    file not there yet is the whole way's to make (it keeps it out of git)."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    line = '{"ts": "' + stamp + '", "kind": "shown", "paths": ' + paths_json + "}\n"
    path = os.path.join(home, PENDING)
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | getattr(os, "O_BINARY", 0))
    except OSError:
        return
    try:
        raw = line.encode("utf-8")
        size = os.fstat(fd).st_size
        if size and os.lseek(fd, size - 1, os.SEEK_SET) >= 0 and os.read(fd, 1) != b"\n":
            raw = b"\n" + raw
        os.write(fd, raw)
    except OSError:
        pass
    finally:
        os.close(fd)


def note_run(path: str, event: str, outcome: str) -> None:
    """Write ``event``'s last call and how it ended to ``path`` (a tool's last-hook
    file), keeping the other events' lines; best effort. :func:`brain.agents.hooks.note_run`
    writes through here too."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        try:
            with open(path, encoding="utf-8") as fh:
                old = fh.read().splitlines()
        except FileNotFoundError:
            old = []
        kept = [line for line in old if line.split(" ")[1:2] != [event]]
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("\n".join([*kept, f"{stamp} {event} {outcome}"]) + "\n")
    except (OSError, UnicodeDecodeError):
        return


# -- keeping an answer ------------------------------------------------------------------


def keep(
    out: str, err: str, keys: tuple[str, ...] = (), git: Git | None = None, until: int = 0
) -> None:
    """Keep the answer the whole way printed for what :func:`answer` noted it was asked,
    when the files it rests on stood still while it was computed; best effort.

    ``keys``: the records it showed. ``git``: the checkout its staleness marks were read
    in, when they were (its top, and the files its records rest on; the commit is read
    here): when HEAD has moved, ``git diff`` of those files says whether the answer
    stands. ``until``: the time (ns since the epoch) the answer may change at by the
    clock alone; 0 for never.
    """
    query = asked
    if query is None:
        return
    if ("\033" in out and not _isatty(sys.stdout)) or ("\033" in err and not _isatty(sys.stderr)):
        return  # escape codes taken out on the way: not what was printed
    try:
        _keep(query, out, err, keys, git, until)
    except (OSError, ValueError, TypeError, EOFError):
        return  # not kept: the next start computes it again


def _keep(
    query: _Asked, out: str, err: str, keys: tuple[str, ...], git: Git | None, until: int
) -> None:
    import json
    import marshal

    if os.path.isdir(os.path.join(query.home, "teams")) and os.listdir(
        os.path.join(query.home, "teams")
    ):
        return  # a team's clones: their own files, left to the whole way
    if query.tool == "status":
        if os.path.exists(os.path.join(query.home, ".brain", "pending")):
            return  # files a write cut short left: the whole way says so and puts them back
        if head_commit(query.home) != query.key[-2]:
            return  # a run committed while the status was read
        if until and until <= time.time_ns():
            return
    deps = _deps_before(query) + query.watched
    now = _signatures(deps)
    if now != query.before:
        return  # something changed while the answer was computed
    if git is not None:
        top, _commit, paths, grounds = git
        if query.head is None or query.head[0] != top or query.head[1] is None:
            return  # not the checkout read before, or its HEAD says nothing plainly
        if head_commit(top) != query.head[1]:
            return  # HEAD moved while the answer was computed
        git = (top, query.head[1], paths, grounds)
    racy = time.time_ns() - RACY_NS
    for _where, _how, sig in now:
        if isinstance(sig, tuple) and max(sig[1], sig[2]) >= racy:
            return
    pending = _pending_state(query.home)
    path = os.path.join(query.home, PENDING)
    if pending is not None:
        start = 0
        if query.pending is not None:
            if query.pending[0] != pending[0]:
                return
            start = query.pending[1]
        if not _only_shown(path, start, pending[1]):
            return  # a recall counted since: the next start answers with it
    elif query.pending is not None:
        return
    shown = json.dumps([f"memories/{key}.md" for key in keys]) if keys else ""
    entry: Entry = (query.key, out, err, shown, now, pending, git, until)
    target = _path(query.home, query.key)
    folder = os.path.dirname(target)
    os.makedirs(folder, exist_ok=True)
    temporary = f"{target}.{os.getpid()}.tmp"
    with open(temporary, "wb") as fh:
        fh.write(marshal.dumps(entry))  # type: ignore[arg-type]
    os.replace(temporary, target)
    _prune(folder)


def _remove(path: str) -> None:
    """Remove ``path`` if it is there (contextlib costs this module's whole start)."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        return


def _prune(folder: str) -> None:
    """Keep the :data:`MAX_ANSWERS` answers written or served last."""
    kept = [e for e in os.scandir(folder) if e.name.startswith(PREFIX) and e.name.endswith(SUFFIX)]
    if len(kept) <= MAX_ANSWERS:
        return
    kept.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
    for old in kept[MAX_ANSWERS:]:
        _remove(old.path)
