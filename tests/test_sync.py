"""``brain sync``: two or three machines, one remote, and no git by hand."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brain.api import Brain
from brain.errors import BrainError
from tests.helpers import cli, cli_json, examples, git, status


def _bare(path: Path) -> Path:
    # git init's own default: HEAD names "master", which brain's push corrects.
    subprocess.run(["git", "init", "--bare", "-q", "-b", "master", str(path)], check=True)
    return path


def _machines(root: Path, count: int) -> tuple[Path, list[Path]]:
    remote = _bare(root / "remote.git")
    first = root / "m0"
    Brain.init(first)
    assert cli("--home", str(first), "remote", "add", str(remote)).exit_code == 0
    assert cli("--home", str(first), "sync").exit_code == 0
    homes = [first]
    for n in range(1, count):
        assert cli("clone", str(remote), "--home", str(root / f"m{n}")).exit_code == 0
        homes.append(root / f"m{n}")
    return remote, homes


def _files(home: Path) -> dict[str, str]:
    return {
        p.relative_to(home).as_posix(): p.read_text()
        for d in ("memories", "archive")
        for p in sorted((home / d).glob("*.md"))
    }


def test_a_plain_clone_of_a_fresh_remote_checks_out_the_memory(tmp_path: Path) -> None:
    remote, (a, _) = _machines(tmp_path, 2)
    cli("--home", str(a), "remember", "kept fact", "--key", "kept")
    assert cli("--home", str(a), "push").exit_code == 0
    git(tmp_path, "clone", "-q", str(remote), str(tmp_path / "plain"))
    assert (tmp_path / "plain" / "memories" / "kept.md").exists()


def test_push_when_the_remote_moved_on_says_run_sync(tmp_path: Path) -> None:
    _, (a, b) = _machines(tmp_path, 2)
    cli("--home", str(a), "remember", "from a", "--key", "from-a")
    assert cli("--home", str(a), "push").exit_code == 0
    cli("--home", str(b), "remember", "from b", "--key", "from-b")
    result = cli("--home", str(b), "push")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: origin has changes this home does not have yet; nothing was pushed; "
        "run 'brain sync' (or 'brain pull', then 'brain push')\n"
    )


def test_sync_settles_the_same_key_and_both_machines_agree(tmp_path: Path) -> None:
    _, (a, b) = _machines(tmp_path, 2)
    cli("--home", str(b), "remember", "deploys go out on Thursdays", "--key", "deploy-day")
    cli("--home", str(a), "remember", "deploys go out on Tuesdays", "--key", "deploy-day")
    assert cli("--home", str(b), "sync").exit_code == 0
    thursday = cli_json("--home", str(b), "show", "deploy-day")["record"]["id"]
    result = cli("--home", str(a), "sync")
    assert result.exit_code == 0, result.stderr
    assert "settled 1 conflict" in result.stdout
    assert "memories/deploy-day.md: kept" in result.stdout
    assert cli("--home", str(b), "sync").exit_code == 0
    assert _files(a) == _files(b)
    record = cli_json("--home", str(b), "show", "deploy-day")["record"]
    assert record["body"] == "deploys go out on Tuesdays"  # written last
    assert thursday in record["supersedes"]
    assert status(a) == status(b) == ""


def test_a_change_outlives_a_forget_on_the_other_machine(tmp_path: Path) -> None:
    _, (a, b) = _machines(tmp_path, 2)
    cli("--home", str(a), "remember", "v1", "--key", "k")
    cli("--home", str(a), "sync")
    cli("--home", str(b), "sync")
    cli("--home", str(a), "forget", "k")
    cli("--home", str(b), "remember", "v2", "--key", "k")
    assert cli("--home", str(a), "sync").exit_code == 0
    assert cli("--home", str(b), "sync").exit_code == 0, cli("--home", str(b), "sync").stderr
    assert cli_json("--home", str(b), "show", "k")["record"]["body"] == "v2"
    cli("--home", str(a), "sync")
    assert _files(a) == _files(b)


def test_an_archive_here_and_a_new_version_there_leave_one_copy(tmp_path: Path) -> None:
    _, (a, b) = _machines(tmp_path, 2)
    cli("--home", str(a), "remember", "v1", "--key", "k")
    cli("--home", str(a), "sync")
    cli("--home", str(b), "sync")
    cli("--home", str(a), "archive", "k")
    cli("--home", str(b), "remember", "v2", "--key", "k")
    assert cli("--home", str(a), "sync").exit_code == 0
    assert cli("--home", str(b), "sync").exit_code == 0
    cli("--home", str(a), "sync")
    assert sorted(_files(a)) == ["memories/k.md"]
    assert _files(a) == _files(b)


# -- the property: any interleaving converges and loses no write ----------------------------

_KEYS = ("alpha", "beta", "gamma")
_steps = st.lists(
    st.tuples(
        st.integers(0, 2),
        st.sampled_from(["remember", "remember", "forget", "archive", "sync"]),
        st.sampled_from(_KEYS),
    ),
    min_size=1,
    max_size=10,
)


def _run(brain: Brain, verb: str, key: str, n: int, written: set[str], gone: set[str]) -> None:
    try:
        if verb == "remember":
            written.add(brain.remember(f"fact {n} about {key}", key=key).id)
        elif verb == "forget":
            # Forgetting takes the record out with its history: its chain goes too.
            shown = brain.show(key).record
            brain.forget(key)
            gone |= {shown.id, *shown.supersedes}
        elif verb == "archive":
            brain.archive(key)
        else:
            brain.sync()
    except BrainError as exc:
        assert verb in {"forget", "archive"}, exc  # a key this machine does not have


@settings(max_examples=examples(6))
@given(count=st.integers(2, 3), steps=_steps)
def test_sync_converges_and_loses_no_write(count: int, steps: list[tuple[int, str, str]]) -> None:
    with tempfile.TemporaryDirectory() as root:
        _, homes = _machines(Path(root), count)
        brains = [Brain.open(h) for h in homes]
        written: set[str] = set()
        gone: set[str] = set()
        for n, (who, verb, key) in enumerate(steps):
            _run(brains[who % count], verb, key, n, written, gone)
        for _ in range(2):  # one round carries every change to the remote, one brings it back
            for brain in brains:
                brain.sync()
        first = _files(homes[0])
        assert all(_files(h) == first for h in homes[1:])
        assert all(status(h) == "" for h in homes)
        kept: set[str] = set()
        for brain in brains[:1]:
            for archived in (False, True):
                for r in brain.list(archived=archived).records:
                    kept |= {r.id, *r.supersedes}
        assert written - gone - kept == set()


def test_both_machines_consolidating_the_same_raw_memories_converge(tmp_path: Path) -> None:
    from tests.test_harvest_trees import append, claude_line, claude_session

    _, (a, b) = _machines(tmp_path, 2)
    session = claude_session()
    for n, text in enumerate(
        ("Remember that deploys go out on Tuesdays.", "Always run the linter before pushing.")
    ):
        append(session, claude_line(text, f"u-{n}"), delta=timedelta(days=1))
    for name, value in (("min_idle_minutes", "0"), ("min_rollout_idle_hours", "0")):
        assert cli("--home", str(a), "config", "set", name, value).exit_code == 0
    for name, value in (("max_age_days", "100000"), ("max_rollout_age_days", "100000")):
        assert cli("--home", str(a), "config", "set", name, value).exit_code == 0
    assert cli("--home", str(a), "harvest").exit_code == 0
    assert cli("--home", str(a), "extract").exit_code == 0
    assert cli("--home", str(a), "sync").exit_code == 0
    assert cli("--home", str(b), "sync").exit_code == 0
    for home in (a, b):
        result = cli("--home", str(home), "consolidate", "--force")
        assert result.exit_code == 0, result.stderr
    assert list((a / "memories").glob("*.md")), "the run made no records to collide"
    for home in (a, b, a):
        result = cli("--home", str(home), "sync")
        assert result.exit_code == 0, result.stderr
    assert _files(a) == _files(b)
    for view in ("MEMORY.md", "memory_summary.md", "raw_memories.md", "journal.jsonl"):
        assert (a / view).read_text() == (b / view).read_text(), view
    assert "<<<<<<<" not in (a / "MEMORY.md").read_text()
    assert status(a) == status(b) == ""


def test_sync_merges_on_a_machine_where_git_knows_no_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, (a, b) = _machines(tmp_path, 2)
    cli("--home", str(b), "remember", "from b", "--key", "from-b")
    assert cli("--home", str(b), "sync").exit_code == 0
    for name in (
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("EMAIL", raising=False)
    empty = tmp_path / "empty-gitconfig"
    empty.write_text("[user]\n\tuseConfigOnly = true\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(empty))
    cli("--home", str(a), "remember", "from a", "--key", "from-a")

    result = cli("--home", str(a), "sync")  # the histories diverged: git makes a merge commit

    assert result.exit_code == 0, result.stderr
    assert git(a, "log", "-1", "--format=%P|%an|%cn").count(" ") == 1  # two parents
    assert git(a, "log", "-1", "--format=%an|%cn").strip() == "brain|brain"
    assert {"memories/from-a.md", "memories/from-b.md"} <= set(_files(a))


def test_a_fetch_that_lost_its_object_folder_to_gc_runs_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git's background packing removes the object folders it empties; a fetch writing
    into one at that moment fails with nothing changed, and brain fetches again."""
    _, (a, b) = _machines(tmp_path, 2)
    cli("--home", str(a), "remember", "fetched once the folder is back", "--key", "late")
    assert cli("--home", str(a), "push").exit_code == 0
    shim = tmp_path / "bin"
    shim.mkdir()
    failed = tmp_path / "fetch-failed-once"
    (shim / "git").write_text(
        "#!/bin/sh\n"
        f'case " $* " in *" fetch "*) if [ ! -e "{failed}" ]; then touch "{failed}"; '
        'echo "error: unable to create temporary file: No such file or directory" >&2; '
        'echo "fatal: failed to write object" >&2; exit 128; fi;; esac\n'
        f'exec {shutil.which("git")} "$@"\n'
    )
    (shim / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim}:{os.environ['PATH']}")
    result = cli("--home", str(b), "sync")
    assert result.exit_code == 0, result.stderr
    assert failed.exists()  # the first fetch did fail
    assert (b / "memories" / "late.md").exists()
    assert status(b) == ""
