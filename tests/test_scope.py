"""Projects stay apart: what is learned in one project never reaches another's files.

Two projects are real git checkouts; their sessions go through the real pipeline (the
built-in model through brain's command line, in process, or a scripted model registered
through ``brain.models.registry``), and what each project's agents read is checked through
``brain sync-instructions`` and ``brain context``.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from brain.api import Brain
from brain.evals import write_session
from brain.home.keys import KEY_MAX
from brain.home.records import Record
from brain.home.scope import base_key, project_name, scoped_key
from brain.models.schema import Operation
from brain.pipeline.runs import pending_raw, read_raw
from brain.pipeline.trust.operations import tie
from tests import fakemodel
from tests.fakemodel import CannedModel
from tests.helpers import cli

canned_model = fakemodel.canned_model

SAME = "Never push directly to main here."
ALPHA_ONLY = "Remember that the staging RPC for alpha is mainnet."
BETA_ONLY = "Remember that the staging RPC for hunch is devnet."
FILES = ("CLAUDE.md", "AGENTS.md", "GEMINI.md")


def _checkout(path: Path) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


@pytest.fixture
def work(tmp_path: Path) -> dict[str, Path]:
    """Three projects, each a git checkout; sessions in alpha ran in its ``src/``."""
    alpha, beta = _checkout(tmp_path / "work" / "alpha"), _checkout(tmp_path / "work" / "beta")
    (alpha / "src").mkdir()
    return {"alpha": alpha, "beta": beta, "gamma": _checkout(tmp_path / "work" / "gamma")}


def _session(tmp_path: Path, sid: str, cwd: Path, lines: list[str]) -> Path:
    when = datetime.now(UTC) - timedelta(hours=3)
    return write_session(tmp_path / "sessions", sid, lines, when=when, project=str(cwd))


def brain(*args: str, cwd: Path | None = None) -> str:
    """``brain ARGS`` through the command line (in process, run from ``cwd``); its stdout."""
    with contextlib.chdir(cwd or Path.cwd()):
        done = cli(*args)
    assert done.exit_code == 0, done.stderr
    return done.stdout


def _files(project: Path) -> str:
    brain("sync-instructions", "--project", str(project), "--files", ",".join(FILES), "--personal")
    return "\n".join((project / name).read_text() for name in FILES)


def _records(home: Path) -> dict[str, Record]:
    return {r.key: r for r in Brain.open(home).records() if isinstance(r, Record)}


# -- naming a project -------------------------------------------------------------------


def test_a_project_is_named_by_its_git_checkout(tmp_path: Path, work: dict[str, Path]) -> None:
    assert project_name(work["alpha"] / "src") == "alpha"
    assert project_name(str(work["beta"]) + "/") == "beta"
    worktree = tmp_path / "elsewhere" / "alpha-feature"
    subprocess.run(
        ["git", "-C", str(work["alpha"]), "commit", "-q", "--allow-empty", "-m", "start"],
        check=True,
    )
    subprocess.run(
        ["git", "-C", str(work["alpha"]), "worktree", "add", "-q", str(worktree)], check=True
    )
    assert project_name(worktree) == "alpha"  # a linked worktree is its main checkout's
    plain = tmp_path / "plain" / "notes"
    plain.mkdir(parents=True)
    assert project_name(plain) == "notes"
    assert project_name("/gone/from/this/machine") == "machine"
    assert project_name(r"C:\Users\me\shop") == "shop"
    assert project_name("web") == "web" and project_name("") is None


def test_a_repository_in_the_users_home_is_not_every_folders_project(tmp_path: Path) -> None:
    home = Path(os.environ["HOME"])
    subprocess.run(["git", "init", "-q", str(home)], check=True)  # a dotfiles repository
    (home / "scratch").mkdir()
    assert project_name(home / "scratch") == "scratch"


def test_a_scoped_key_ends_in_its_project_once_and_fits() -> None:
    assert scoped_key("use-pnpm", "Web App") == "use-pnpm-web-app"
    assert scoped_key("use-pnpm-web-app", "Web App") == "use-pnpm-web-app"
    assert scoped_key("use-pnpm", None) == "use-pnpm"
    assert base_key("use-pnpm-web-app", "web app") == "use-pnpm"
    long = scoped_key("x" * KEY_MAX, "alpha")
    assert len(long) == KEY_MAX and long.endswith("-alpha")
    assert scoped_key("k", "日本").startswith("k-p") and scoped_key("k", "日本") != "k-p"


# -- the proof: two projects, one home ------------------------------------------------


def test_two_projects_learned_by_the_builtin_stay_apart(
    tmp_path: Path, home: Path, work: dict[str, Path]
) -> None:
    alpha = _session(tmp_path, "a1", work["alpha"] / "src", [SAME, ALPHA_ONLY])
    beta = _session(tmp_path, "b1", work["beta"], [SAME, BETA_ONLY])
    brain("init")
    brain("harvest", "--path", str(alpha), "--path", str(beta))
    brain("extract")
    brain("consolidate", "--force")

    raws = {m.key: m.tags for m in read_raw(Brain.open(home))}
    assert raws["never-push-directly-main-here-alpha"] == ("project:alpha",)
    assert raws["never-push-directly-main-here-beta"] == ("project:beta",)
    records = _records(home)
    # The same words in two projects are two records, each in its own project.
    assert records["never-push-directly-main-here-alpha"].tags == ("project:alpha",)
    assert records["never-push-directly-main-here-beta"].tags == ("project:beta",)
    assert "never-push-directly-main-here" not in records

    alpha_files, beta_files = _files(work["alpha"]), _files(work["beta"])
    assert "hunch" not in alpha_files and "never-push-directly-main-here-beta" not in alpha_files
    assert (
        "alpha is mainnet" in alpha_files and "never-push-directly-main-here-alpha" in alpha_files
    )
    assert "hunch" in beta_files and "alpha is mainnet" not in beta_files
    for context in (
        brain("context", "--project", str(work["alpha"])),
        brain("context", cwd=work["alpha"] / "src"),  # the cwd's checkout is the project
    ):
        assert "hunch" not in context and "-beta" not in context
        assert "never-push-directly-main-here-alpha" in context


def _memory(key: str, text: str, tags: list[str]) -> dict[str, Any]:
    return {
        "key": key,
        "type": "fact",
        "description": text,
        "body": text,
        "tags": tags,
        "confidence": 0.9,
        "evidence": [[2, 2]],
    }


def _op(op: str, key: str, text: str, tags: list[str], **more: Any) -> dict[str, Any]:
    return {"op": op, "key": key, "reason": "x", "type": "fact", "description": text,
            "body": text, "tags": tags, **more}  # fmt: skip


def _learn_with(
    canned: CannedModel, tmp_path: Path, sid: str, cwd: Path, *memories: dict[str, Any]
) -> None:
    # The person's line says what each memory says: brain checks the cited line holds it.
    said = "Notes for later: " + "; ".join(m["description"] for m in memories)
    path = _session(tmp_path, sid, cwd, [said])
    assert cli("harvest", "--path", str(path)).exit_code == 0
    canned.push({"memories": list(memories), "summary": "Took notes."})
    result = cli("extract")
    assert result.exit_code == 0, result.stderr


@pytest.fixture
def canned_home(
    home: Path, canned_model: CannedModel, monkeypatch: pytest.MonkeyPatch
) -> CannedModel:
    """A home whose two phases ask the scripted models the test registers."""
    Brain.init(home)
    monkeypatch.setenv("BRAIN_EXTRACT_MODEL", "canned/small")
    monkeypatch.setenv("BRAIN_CONSOLIDATION_MODEL", "canned/strong")
    return canned_model


def test_a_model_that_writes_one_projects_text_under_another_is_kept_in_scope(
    tmp_path: Path, home: Path, work: dict[str, Path], canned_home: CannedModel
) -> None:
    canned_model = canned_home
    a_text, b_text = "The staging RPC for alpha is mainnet", "The staging RPC for hunch is devnet"
    _learn_with(canned_model, tmp_path, "a1", work["alpha"], _memory("staging-rpc", a_text, []))
    _learn_with(
        canned_model,
        tmp_path,
        "b1",
        work["beta"],
        _memory("staging-rpc", b_text, ["project:alpha"]),  # moved to alpha
        _memory("hunch-everywhere", "Hunch RPC is devnet everywhere", []),  # made everyone's
    )
    # Phase 1 keeps each memory in the project its session ran in.
    assert {m.key: m.tags for m in read_raw(Brain.open(home))} == {
        "staging-rpc-alpha": ("project:alpha",),
        "staging-rpc-beta": ("project:beta",),
        "hunch-everywhere-beta": ("project:beta",),
    }
    canned_model.push(
        {
            "operations": [
                _op("add", "staging-rpc-alpha", a_text, ["project:alpha"]),
                _op("add", "staging-rpc-beta", b_text, ["project:alpha"]),
                _op("add", "hunch-everywhere-beta", "Hunch RPC is devnet everywhere", []),
                # beta's words under alpha's key, and as the person's own record
                _op("update", "staging-rpc-alpha", b_text, ["project:alpha"]),
                _op(
                    "merge",
                    "staging-rpc",
                    b_text,
                    [],
                    merged_keys=["staging-rpc-alpha", "staging-rpc-beta"],
                ),  # fmt: skip
            ]
        }
    )
    result = cli("consolidate", "--force", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["dropped"] == 2

    records = _records(home)
    assert sorted(records) == ["hunch-everywhere-beta", "staging-rpc-alpha", "staging-rpc-beta"]
    assert records["staging-rpc-alpha"].body == a_text
    assert records["staging-rpc-beta"].tags == ("project:beta",)
    assert records["hunch-everywhere-beta"].tags == ("project:beta",)
    alpha_files = _files(work["alpha"])
    assert "hunch" not in alpha_files.lower() and "alpha is mainnet" in alpha_files
    assert "hunch" not in brain("context", "--project", str(work["alpha"])).lower()
    assert "hunch" in _files(work["beta"])  # it went where it belongs


def test_the_same_preference_in_two_projects_can_become_the_persons_own(
    tmp_path: Path, home: Path, work: dict[str, Path], canned_home: CannedModel
) -> None:
    canned_model = canned_home
    said = "I always prefer pnpm over npm"
    _learn_with(canned_model, tmp_path, "a1", work["alpha"], _memory("prefer-pnpm", said, []))
    _learn_with(canned_model, tmp_path, "b1", work["beta"], _memory("prefer-pnpm", said, []))
    person = "Prefers pnpm over npm in every project"
    merged = ["prefer-pnpm-alpha", "prefer-pnpm-beta"]
    # From one project alone it may not become everyone's: that merge is dropped, and
    # the raw memories it could not use are written as phase 1 wrote them, each in its
    # own project.
    canned_model.push(
        {"operations": [_op("merge", "prefer-pnpm", person, [], merged_keys=merged[:1])]}
    )
    first = cli("consolidate", "--force", "--json")
    assert json.loads(first.stdout)["dropped"] == 1
    assert pending_raw(Brain.open(home)) == []
    assert sorted(_records(home)) == merged
    assert "prefer-pnpm" not in brain("context", "--project", str(work["gamma"]))
    # From two it may.
    _learn_with(canned_model, tmp_path, "a2", work["alpha"], _memory("prefer-pnpm", said, []))
    _learn_with(canned_model, tmp_path, "b2", work["beta"], _memory("prefer-pnpm", said, []))
    canned_model.push({"operations": [_op("merge", "prefer-pnpm", person, [], merged_keys=merged)]})
    assert cli("consolidate", "--force").exit_code == 0

    assert _records(home)["prefer-pnpm"].tags == ()
    assert pending_raw(Brain.open(home)) == []
    assert "prefer-pnpm" in brain("context", "--project", str(work["gamma"]))


# -- remember and sync --------------------------------------------------------------------


def test_remember_is_the_persons_own_unless_tagged_with_a_project(
    home: Path, work: dict[str, Path]
) -> None:
    brain("init")
    rule = "Run ruff format before every commit"
    for name in ("alpha", "beta"):
        brain("remember", rule, "--tag", f"project:{name}", cwd=work[name])
    brain("remember", "I prefer short commit messages", cwd=work["alpha"])
    records = _records(home)
    assert records["run-ruff-format-before-every-commit-alpha"].tags == ("project:alpha",)
    assert records["run-ruff-format-before-every-commit-beta"].tags == ("project:beta",)
    assert records["prefer-short-commit-messages"].tags == ()  # run inside alpha, all the same
    beta = brain("context", "--project", str(work["beta"]))
    assert "prefer-short-commit-messages" in beta and "commit-alpha" not in beta


def _bare(path: Path) -> Path:
    subprocess.run(["git", "init", "--bare", "-q", "-b", "main", str(path)], check=True)
    return path


def test_two_machines_learning_in_different_projects_keep_both_rules(
    tmp_path: Path, work: dict[str, Path]
) -> None:
    remote = _bare(tmp_path / "remote.git")
    one, two = tmp_path / "m1", tmp_path / "m2"
    brain("--home", str(one), "init")
    brain("--home", str(one), "remote", "add", str(remote))
    brain("--home", str(one), "sync")
    brain("clone", str(remote), "--home", str(two))
    rule = "Always run ruff format before every commit."
    for home, sid, project in ((one, "s1", "alpha"), (two, "s2", "beta"), (two, "s3", "alpha")):
        path = _session(tmp_path, sid, work[project], [rule])
        brain("--home", str(home), "harvest", "--path", str(path))
        brain("--home", str(home), "extract")
        brain("--home", str(home), "consolidate", "--force")
    for home in (one, two, one):
        brain("--home", str(home), "sync")

    key = "always-run-ruff-format-before-every"
    for home in (one, two):
        records = _records(home)
        assert sorted(k for k in records if k.startswith(key)) == [f"{key}-alpha", f"{key}-beta"]
        # The same rule in the same project on two machines is one record, one history.
        assert len(records[f"{key}-alpha"].supersedes) == 1
    assert _records(one)[f"{key}-alpha"].id == _records(two)[f"{key}-alpha"].id


# -- phase 2's bounds, one operation at a time ----------------------------------------


def _sent(key: str, text: str, project: str | None) -> Record:
    tags = (f"project:{project}",) if project else ()
    return Record(id="20260101-000000000-000000", key=key, type="fact", description=text,
                  body=text, tags=tags)  # fmt: skip


def _tie(op: dict[str, Any], raws: list[Record], records: list[Record]) -> Operation | None:
    kept = tie([Operation(**op)], raws, records).operations
    return kept[0] if kept else None


def test_an_operation_absorbs_only_keys_of_its_own_scope() -> None:
    raws = [_sent("a-alpha", "Alpha builds with make", "alpha"),
            _sent("b-beta", "Beta builds with bazel", "beta")]  # fmt: skip
    merge = _op("merge", "a-alpha", "Alpha builds with make", [], merged_keys=["b-beta"])
    placed = _tie(merge, raws, [])
    assert placed is not None and placed.merged_keys == () and placed.tags == ("project:alpha",)
    tied = tie([Operation(**merge)], raws, [])
    assert tied.handled == {"a-alpha"}  # beta's memory stays pending


def test_a_run_archives_only_records_of_its_memories_projects_or_the_persons() -> None:
    # The raw memory says both records no longer hold; only the scope tells them apart.
    said = "Alpha builds with make; tabs everywhere and beta deploys on Fridays no longer hold"
    raws = [_sent("a-alpha", said, "alpha")]
    records = [_sent("deploys-beta", "Beta deploys on Fridays", "beta"),
               _sent("old-rule", "Tabs everywhere", None)]  # fmt: skip
    archive = {"op": "archive", "key": "deploys-beta", "reason": "x"}
    assert _tie(archive, raws, records) is None
    assert _tie({**archive, "key": "old-rule"}, raws, records) is not None


def test_a_record_of_the_persons_own_stays_the_persons() -> None:
    records = [_sent("tabs", "Indent with tabs", None)]
    raws = [_sent("tabs", "Indent with tabs in every file", None)]
    update = _op("update", "tabs", "Indent with tabs in every file", ["project:alpha", "style"])
    placed = _tie(update, raws, records)
    assert placed is not None and placed.tags == ("style",)


def test_a_relative_directory_is_named_by_where_it_is(
    work: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(work["alpha"] / "src")
    assert project_name(".") == "alpha" and project_name("/") is None
