"""What everyday commands import at start-up, read from ``sys.modules`` at exit.

Speed itself is measured by ``benchmarks/startup.py``; this keeps the heavy libraries
(and, for the two short cuts, click and the write machinery) off these paths.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import brain
from tests.helpers import cli

HEAVY = {"litellm", "jinja2", "pydantic", "tiktoken", "mcp", "openai", "numpy"}
HOOK_PAYLOAD = '{"hook_event_name": "SessionStart", "source": "startup", "cwd": "/"}'


# Runs ``python -m brain ARGS`` and prints, at exit, every module it loaded: what
# ``-X importtime`` reports and also what ``importlib.import_module`` loaded, which
# ``-X importtime`` leaves out (the command modules, the transcript adapters).
LOADED = (
    "import atexit, runpy, sys\n"
    "atexit.register(lambda: sys.stderr.write('\\n'.join(['', *sys.modules])))\n"
    "runpy.run_module('brain', run_name='__main__', alter_sys=True)\n"
)


def imported(*args: str, stdin: str = "") -> set[str]:
    """The modules ``brain ARGS`` has loaded when it exits."""
    command = [sys.executable, "-c", LOADED, *args]
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    names = {line.strip() for line in done.stderr.splitlines()}
    assert "brain" in names  # the list is really there
    return names


# What each command answered without click (brain.cli.quick) may load beyond bare Python:
# brain's modules by name, every other module by its top-level package. A module that
# creeps into one of these paths (click, PyYAML, the search index's sqlite3, the secret
# rules, litellm, a git process, the write machinery) fails here with its name.
PYTHON = {
    "__future__", "_json", "_sre", "_typing", "collections", "copyreg", "enum", "errno",
    "fnmatch", "gc", "ipaddress", "json", "math", "ntpath", "pathlib", "re", "typing", "urllib",
}  # fmt: skip
CONTEXT = {
    "brain", "brain.errors", "brain.markdown", "brain.cli", "brain.cli.quick",
    "brain.agents", "brain.agents.context", "brain.agents.digest", "brain.agents.hooks",
    "brain.agents.learned", "brain.agents.once",
    "brain.home", "brain.home.config", "brain.home.files", "brain.home.keys",
    "brain.home.paths", "brain.home.patterns", "brain.home.pending", "brain.home.problem",
    "brain.home.reader",
    "brain.home.recordcache", "brain.home.scope", "brain.home.uses", "brain.home.uses.counts",
    "brain.agents.startmemo", "brain.home.git", "brain.home.git.headfiles",
    "brain.models", "brain.models.tokens", "brain.sessions", "brain.sessions.internal",
    "brain.sessions.sameness", "brain.team", "brain.team.reading", "brain.team.spec",
}  # fmt: skip
# Neither makes a record (a frozen dataclass: dataclasses, and with it inspect, ast, dis).
ROWS = {
    "brain", "brain.errors", "brain.cli", "brain.cli.quick", "brain.cli.text",
    "brain.home", "brain.home.files", "brain.home.keys", "brain.home.paths",
    "brain.home.pending", "brain.home.problem", "brain.home.reader", "brain.home.recordcache",
}  # fmt: skip
# It keeps its answer (with what reads a checkout's HEAD from its files).
LIST = ROWS | {
    "brain.agents",
    "brain.agents.startmemo",
    "brain.home.git",
    "brain.home.git.headfiles",
}
STATUS = ROWS | {
    "brain.home.clock", "brain.home.config", "brain.home.git", "brain.home.git.runner",
    "brain.home.git.spawn", "brain.agents", "brain.agents.startmemo",  # the streams' check
    "brain.home.git.headfiles",
    "brain.home.journal", "brain.home.names", "brain.models", "brain.models.options",
    "brain.pipeline", "brain.pipeline.pending", "brain.pipeline.runs", "brain.pipeline.status",
    "brain.sessions", "brain.sessions.sources", "brain.sessions.sources.locations",
    "brain.sessions.watermarks",
}  # fmt: skip
MAY_LOAD = {
    "hook session-start": (CONTEXT, PYTHON),
    "context": (CONTEXT | {"brain.cli.text"}, PYTHON),
    "list": (LIST, PYTHON),
    # dates; the machine's name for its watermark files (_sha256); the digest of the
    # environment its kept answer rests on (_blake2)
    "status": (STATUS, PYTHON | {"_datetime", "datetime", "_sha256", "_blake2"}),
}


def bare_python() -> set[str]:
    """The modules the wrapper of :func:`imported` has loaded before it runs brain."""
    code = LOADED.replace("runpy.run_module('brain', run_name='__main__', alter_sys=True)\n", "")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return {line.strip() for line in done.stderr.splitlines()}


def forget(home: Path) -> None:
    """Drop the session-start answers kept in ``home`` (:mod:`brain.agents.startmemo`),
    so the next start computes its answer the whole way."""
    from brain.agents import startmemo

    startmemo.forget(str(home))


def past(root: Path) -> None:
    """Every file of ``root`` a minute old, as in a home in use: out of the caches' racy
    window, so each cache is written and then trusted."""
    for path in root.rglob("*"):
        os.utime(path, (path.stat().st_atime, path.stat().st_mtime - 60))


@pytest.fixture
def lived_in(home: Path, tmp_path: Path) -> Path:
    """Records, a session harvested and extracted, raw memories waiting for phase 2."""
    from datetime import UTC, datetime, timedelta

    from brain.evals import write_session

    assert cli("init").exit_code == 0
    for n in range(3):
        assert cli("remember", "--key", f"fact-{n}", f"Fact number {n}.").exit_code == 0
    lines = ["I prefer pytest fixtures over setUp methods.", "Never push to main directly."]
    when = datetime.now(UTC) - timedelta(hours=2)
    session = write_session(tmp_path / "sessions", "s1", lines, when=when)
    assert cli("harvest", "--path", str(session)).exit_code == 0
    assert cli("extract").exit_code == 0
    past(home)
    return home


@pytest.mark.parametrize("command", sorted(MAY_LOAD))
def test_each_short_cut_loads_only_what_it_names(lived_in: Path, command: str) -> None:
    args, stdin = command.split(), HOOK_PAYLOAD if command.startswith("hook") else ""
    imported(*args, stdin=stdin)  # the caches written, as after any earlier command
    forget(lived_in)  # the whole way, not an answer kept by the run before
    names = imported(*args, stdin=stdin) - bare_python()
    mine, others = MAY_LOAD[command]
    assert "brain.cli.quick" in names and "click" not in names  # answered without click
    crept = {n for n in names if n.split(".")[0] == "brain"} - mine
    crept |= {n.split(".")[0] for n in names if n.split(".")[0] != "brain"} - others
    assert crept == set(), f"brain {command} now loads {sorted(crept)}"


@pytest.fixture
def filled(home: Path) -> Path:
    assert cli("init").exit_code == 0
    for n in range(3):
        done = cli("remember", "--key", f"fact-{n}", f"Fact number {n}.")
        assert done.exit_code == 0, done.output
    return home


@pytest.mark.parametrize(
    "args",
    [
        ("context",),
        ("status",),
        ("list",),
        ("log",),
        ("show", "fact-1"),
        ("harvest",),
        ("remember", "--key", "new-fact", "A new fact."),
        ("recall", "fact"),
    ],
    ids=lambda args: args[0],
)
def test_everyday_commands_import_no_heavy_library(filled: Path, args: tuple[str, ...]) -> None:
    found = {name.split(".")[0] for name in imported(*args)}
    assert found & HEAVY == set()


def test_remember_writes_a_record_without_pyyaml(filled: Path) -> None:
    names = imported("remember", "--key", "new-fact", "A new fact: with a colon.")
    assert "brain.home.yaml.head" in names
    assert {n.split(".")[0] for n in names} & {"yaml", "frontmatter", "tempfile"} == set()


def test_session_start_hook_imports_neither_click_nor_the_write_machinery(filled: Path) -> None:
    for path in (filled / "memories").iterdir():  # older than the caches' racy window
        os.utime(path, ns=(10**18, 10**18))
    cold = imported("hook", "session-start", stdin=HOOK_PAYLOAD)
    assert "brain.home.yaml.head" in cold  # the first run after a write parses the records,
    assert "yaml" not in cold  # brain's own frontmatter needing no PyYAML
    forget(filled)
    names = imported("hook", "session-start", stdin=HOOK_PAYLOAD)  # then, from the caches
    assert "brain.agents.context" in names
    assert {n.split(".")[0] for n in names} & (HEAVY | {"click", "yaml", "ruamel"}) == set()
    assert (
        names & {"brain.api", "brain.home.transaction", "brain.home.git.runner", "subprocess"}
        == set()
    )
    # reading records needs no secret filter, nor its rules
    assert names & {"brain.home.secrets.redact", "brain.home.secrets.ruletable"} == set()
    assert "brain.agents.after_session" not in names  # the job a session end starts
    assert "hashlib" not in names  # naming the project needs no digest
    assert "brain.home.records" not in names  # the heads' cache: no record type is made
    assert "dataclasses" not in names  # it imports inspect: ~7 ms of a ~50 ms start
    assert "brain.home.config" in names  # the settings are read, never written
    assert "brain.home.configedit" not in names


def test_context_imports_no_write_machinery(filled: Path) -> None:
    imported("context")
    forget(filled)
    names = imported("context")
    assert "brain.agents.context" in names
    assert names & {"brain.api", "brain.home.home", "brain.home.transaction"} == set()
    assert names & {"brain.home.secrets.redact", "brain.cli.memory", "brain.cli.pipeline"} == set()


@pytest.mark.parametrize("command", ["hook session-start", "context", "list", "status"])
def test_a_kept_answer_loads_nothing_but_its_memo(lived_in: Path, command: str) -> None:
    args, stdin = command.split(), HOOK_PAYLOAD if command.startswith("hook") else ""
    whole = subprocess.run([sys.executable, "-m", "brain", *args], input=stdin,
                           capture_output=True, text=True)  # fmt: skip
    time.sleep(2.1)  # what it wrote is past the racy window: its answer is kept
    imported(*args, stdin=stdin)
    names = imported(*args, stdin=stdin) - bare_python()
    assert {n for n in names if n.startswith("brain")} == {
        "brain", "brain.agents", "brain.agents.startmemo",
        "brain.home", "brain.home.git", "brain.home.git.headfiles",  # os alone
    }  # fmt: skip
    assert {n.split(".")[0] for n in names if not n.startswith("brain")} <= {
        "_json", "gc", "__future__", "_blake2"
    }  # fmt: skip
    kept = subprocess.run([sys.executable, "-m", "brain", *args], input=stdin,
                          capture_output=True, text=True)  # fmt: skip
    assert (kept.stdout, kept.stderr) == (whole.stdout, whole.stderr)


def test_the_learning_job_keeps_the_next_starts_answer_ahead(lived_in: Path) -> None:
    """A session's end starts the learning job; once it has written, it computes the
    answer the next session start in that folder prints, which then loads nothing of
    brain but the memo."""
    assert cli("remember", "--key", "fact-new", "A fact learned last.").exit_code == 0
    job = subprocess.run(
        [sys.executable, "-m", "brain", "hook", "after-session", "--tool", "claude-code",
         "--cwd", "/"], capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert "the next claude-code session start in / is answered ahead" in job.stderr
    names = imported("hook", "session-start", stdin=HOOK_PAYLOAD) - bare_python()
    assert "brain.agents.context" not in names and "brain.agents.startmemo" in names
    kept = subprocess.run([sys.executable, "-m", "brain", "hook", "session-start"],
                          input=HOOK_PAYLOAD, capture_output=True, text=True)  # fmt: skip
    forget(lived_in)
    whole = subprocess.run([sys.executable, "-m", "brain", "hook", "session-start"],
                           input=HOOK_PAYLOAD, capture_output=True, text=True)  # fmt: skip
    assert "fact-new" in kept.stdout or "A fact learned last" in kept.stdout
    assert (kept.stdout, kept.stderr) == (whole.stdout, whole.stderr)


# What opening a home to read it must not load: other layers, the write machinery,
# the settings, the secret filter, the other commands' modules.
NOT_FOR_READING = {
    "brain.pipeline",
    "brain.sessions",
    "brain.index",
    "brain.models",
    "brain.agents",
    "brain.home.transaction",
    "brain.home.lock",
    "brain.home.config",
    "brain.home.configedit",
    "brain.home.secrets.redact",
    "brain.home.secrets.ruletable",
    "brain.cli.agents",
    "brain.cli.harvest",
    "brain.cli.home",
    "brain.cli.pipeline",
    "brain.cli.recall",
}


@pytest.mark.parametrize("args", [("show", "fact-1"), ("log",)], ids=lambda args: args[0])
def test_reading_commands_load_their_own_module_and_the_reading_home(
    filled: Path, args: tuple[str, ...]
) -> None:
    names = imported(*args)
    assert {"brain.cli.memory", "brain.home.home", "brain.home.recordcache"} <= names
    packages = {".".join(name.split(".")[:2]) for name in names}
    assert (names | packages) & NOT_FOR_READING == set()
    git = {"brain.home.git.runner", "brain.home.git.repo", "subprocess"}
    assert names & git == (git if args == ("log",) else set())  # only the log runs git


def test_help_loads_no_command_module(home: Path) -> None:
    names = imported("--help")
    assert {name for name in names if name.startswith("brain.cli.")} == {
        "brain.cli.base",
        "brain.cli.commands",
        "brain.cli.quick",  # asked first, it declines
        "brain.cli.text",
    }
    assert "brain.api" not in names and "brain.home.home" not in names


def test_status_counts_pending_sessions_without_loading_phase_1(filled: Path) -> None:
    names = imported("status")
    assert "brain.pipeline.pending" in names
    assert names & {"brain.pipeline.extract", "brain.pipeline.extract_calls"} == set()
    assert names & {"brain.models.registry", "brain.sessions.harvest"} == set()
    # Which agent CLIs are installed, without the client that runs them; the harvested
    # sessions from their marks, without the transcript adapters or the views.
    assert names & {"brain.models.agent_cli", "brain.models.schema", "brain.models.base"} == set()
    assert names & {"brain.sessions.sources.base", "brain.pipeline.views", "hashlib"} == set()
    assert (
        names & {"brain.home.secrets.redact", "brain.home.transaction", "brain.cli.harvest"}
        == set()
    )
    assert "shutil" not in names  # looking for the agent CLIs on PATH needs none of it
    assert "brain.home.configedit" not in names  # the settings are read, never written
    # The last runs come from a cache while HEAD has not moved: no git process.
    assert "subprocess" not in imported("status")
    assert cli("remember", "--key", "later-fact", "A later fact.").exit_code == 0
    assert "subprocess" in imported("status")  # HEAD moved: git's log is read again


def test_harvest_with_nothing_new_loads_no_transcript_reading(filled: Path) -> None:
    names = imported("harvest")
    assert "brain.sessions.harvest" in names
    assert names & {"brain.sessions.text", "brain.sessions.cite"} == set()
    assert names & {"brain.index.store", "brain.index.query", "brain.index.fusion"} == set()
    assert {name for name in names if name.startswith("brain.pipeline")} == set()
    assert {n for n in names if n.startswith("brain.sessions.sources.")} <= {
        "brain.sessions.sources.locations",
        "brain.sessions.sources.native_memory",
        "brain.sessions.sources.claude_memory",
        "brain.sessions.sources.gemini_memory",
        "brain.sessions.sources.codex_memory",
        "brain.sessions.sources.qwen_memory",
    }
    # Nothing to write: no lock, no secret filter, no OpenSSL for naming the machine.
    assert (
        names & {"brain.home.transaction", "brain.home.lock", "brain.home.secrets.redact"} == set()
    )
    assert "hashlib" not in names


def test_harvest_of_sessions_seen_before_never_opens_the_index(filled: Path) -> None:
    fixture = Path(__file__).parent / "fixtures/transcripts/claude-code/marot-spotter/short.jsonl"
    session = Path(os.environ["HOME"]) / ".claude/projects/-src-shop/short.jsonl"
    session.parent.mkdir(parents=True)
    session.write_bytes(fixture.read_bytes())
    os.utime(session, (10**9, 10**9))  # long finished
    assert cli("recall", "fact").exit_code == 0  # builds the index: there is one to load
    first = cli("harvest", "--all")
    assert first.exit_code == 0 and "1 new" in first.stdout, first.stdout

    names = imported("harvest", "--all")  # the same session, unchanged

    assert cli("harvest", "--all").stdout.startswith("claude: 1 found, 0 new, 0 grown, 1 unchanged")
    assert names & {"brain.index.sync", "sqlite3"} == set()
    # Its size and date tell it is unchanged: no adapter, no transcript types load.
    assert names & {"brain.sessions.sources.claude", "brain.sessions.sources.base"} == set()


def test_version_answers_without_click(home: Path) -> None:
    names = imported("--version")
    assert "click" not in names and "importlib.metadata" not in names
    done = subprocess.run(
        [sys.executable, "-m", "brain", "--version"], capture_output=True, text=True
    )
    assert done.stdout == f"brain, version {brain.__version__}\n"
    assert cli("--version").stdout == done.stdout  # the click path says the same


def test_hook_with_other_options_goes_through_the_full_command_line(filled: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "brain", "hook", "session-start", "--tool", "nosuch"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "Invalid value for '--tool'" in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "brain", "hook", "session-start", "--tool", "codex"],
        input=HOOK_PAYLOAD,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and "fact-2: Fact number 2." in done.stdout


def test_the_installed_hook_command_takes_the_short_cut(filled: Path, tmp_path: Path) -> None:
    # What the installers write: brain --home HOME hook session-start --tool TOOL
    other = {**os.environ, "BRAIN_HOME": str(tmp_path / "elsewhere")}
    args = ["--home", str(filled), "hook", "session-start", "--tool", "gemini"]
    command = [sys.executable, "-X", "importtime", "-m", "brain", *args]
    done = subprocess.run(command, input=HOOK_PAYLOAD, capture_output=True, text=True, env=other)
    assert done.returncode == 0 and "fact-2: Fact number 2." in done.stdout
    assert "click" not in {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
