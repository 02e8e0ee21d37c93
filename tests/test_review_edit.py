"""A person edits a memory held for review (``brain review --edit``, ``Brain.review_edit``):
one commit in place of the original, checked and redacted like any write, still held
(as weakening a safety when the edit makes it one) unless it is accepted with the edit."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from brain.api import Brain
from brain.errors import BrainError
from brain.pipeline.review import HELD_UNSAFE, HeldEdit, HeldEditError
from brain.pipeline.runs import ACCEPTED_TAG, REVIEW_TAG, append_raw, pending_raw, read_raw
from tests.helpers import commit_count, git, run_brain
from tests.test_secrets_in_fields import GH_TOKEN, everything_on_disk
from tests.uihome import held_memory

KEY = "always-curl-pipe-sh-shop"


@pytest.fixture
def brain(home: Path) -> Brain:
    brain = Brain.init(home)[0]
    with brain.transaction() as tx:
        raws = [held_memory(KEY, "brain:s1", "Always install tools with curl | sh.")]
        tx.commit([append_raw(brain, raws)], "extract: held", "extract")
    return brain


def _edit(**fields: str) -> HeldEdit:
    base = {"key": KEY, "type": "instruction", "description": "Install tools from packages",
            "body": "Install tools with apt, never with curl | sh."}  # fmt: skip
    return HeldEdit(**{**base, **fields})


def _last_message(home: Path) -> str:
    return git(home, "log", "-1", "--format=%s").strip()


def test_an_edit_is_one_commit_in_place_of_the_original_and_stays_held(brain: Brain) -> None:
    [before] = brain.review().held
    commits = commit_count(brain.path)
    result = brain.review_edit(KEY, _edit())
    assert commit_count(brain.path) == commits + 1 and result.commit
    assert _last_message(brain.path) == f"review: edited {KEY}"
    assert result.edited == (KEY,) and result.accepted == ()
    [after] = brain.review().held  # the original is consumed, the edit waits
    assert after.id != before.id and after.body == "Install tools with apt, never with curl | sh."
    assert after.description == "Install tools from packages"
    assert REVIEW_TAG in after.tags and "project:shop" in after.tags
    assert (after.session, after.evidence) == (before.session, before.evidence)
    assert pending_raw(brain) == []  # nothing reaches phase 2 before a decision
    brain.review(accept=[KEY])
    [accepted] = pending_raw(brain)
    assert accepted.body == after.body and ACCEPTED_TAG in accepted.tags


def test_an_edit_accepted_with_it_is_one_commit_and_reaches_phase_2(brain: Brain) -> None:
    commits = commit_count(brain.path)
    result = brain.review_edit(KEY, _edit(key="tools-from-apt", type="preference"), accept=True)
    assert commit_count(brain.path) == commits + 1
    assert _last_message(brain.path) == f"review: edited and accepted {KEY} as tools-from-apt"
    assert result.accepted == ("tools-from-apt",) and result.held == ()
    [raw] = pending_raw(brain)
    assert (raw.key, raw.type) == ("tools-from-apt", "preference")
    assert ACCEPTED_TAG in raw.tags and REVIEW_TAG not in raw.tags
    assert not [t for t in raw.tags if t.startswith("held:")]
    assert brain.review().held == ()


def test_an_edit_that_weakens_a_safety_is_held_as_such_and_keeps_no_secret(
    brain: Brain, home: Path
) -> None:
    body = f"Use curl --insecure against staging, with the token {GH_TOKEN}."
    brain.review_edit(KEY, _edit(body=body, description=f"curl staging as {GH_TOKEN}"))
    [held] = brain.review().held
    assert HELD_UNSAFE in held.tags and "--insecure" in held.body
    assert GH_TOKEN not in everything_on_disk(home)
    # Edited back to the safe thing, it is no longer held as weakening one (still held).
    brain.review_edit(held.id, _edit())
    [safe] = brain.review().held
    assert HELD_UNSAFE not in safe.tags and REVIEW_TAG in safe.tags
    # A person who writes the weakening rule and accepts it has decided, as with an accept.
    brain.review_edit(KEY, _edit(body=body), accept=True)
    [raw] = pending_raw(brain)
    assert "--insecure" in raw.body and ACCEPTED_TAG in raw.tags
    assert GH_TOKEN not in everything_on_disk(home)


def test_an_unchanged_edit_commits_nothing_and_accepted_is_an_accept(brain: Brain) -> None:
    commits = commit_count(brain.path)
    [memory] = brain.review().held
    assert brain.review_edit(KEY, HeldEdit.of(memory)).commit is None
    assert brain.review_edit(KEY, brain.review_text(KEY)).commit is None
    assert commit_count(brain.path) == commits
    brain.review_edit(KEY, brain.review_text(KEY), accept=True)
    assert _last_message(brain.path) == f"review: accepted {KEY}"
    assert [m.body for m in pending_raw(brain)] == [memory.body]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_edit(type="rumour"), "no memory type 'rumour'"),
        (_edit(body="  \n"), "the body is empty"),
        (_edit(key="../escape"), "invalid key '../escape'"),
        ("---\nkey: [unclosed\n---\nbody\n", "line 4 of the edit: invalid YAML frontmatter ("),
        ("---\nkey: k\ntags: [x]\n---\nbody\n", "a held memory has no field 'tags'"),
    ],
)
def test_a_bad_edit_is_refused_and_changes_nothing(
    brain: Brain, change: HeldEdit | str, message: str
) -> None:
    commits, raw = commit_count(brain.path), read_raw(brain)
    with pytest.raises(HeldEditError) as refused:
        brain.review_edit(KEY, change)
    assert message in str(refused.value)
    assert commit_count(brain.path) == commits and read_raw(brain) == raw


def test_only_a_held_memory_is_edited_and_two_of_one_key_by_id(brain: Brain) -> None:
    with pytest.raises(BrainError, match="no held memory nope"):
        brain.review_edit("nope", _edit())
    with brain.transaction() as tx:
        twin = held_memory(KEY, "brain:s2", "Always install tools with curl | bash.")
        tx.commit([append_raw(brain, [twin])], "extract: twin", "extract")
    with pytest.raises(BrainError, match="2 memories are held as"):
        brain.review_edit(KEY, _edit())
    brain.review_edit(twin.id, _edit(body="Install tools with apt."))
    bodies = sorted(m.body for m in brain.review().held)
    assert bodies == ["Always install tools with curl | sh.", "Install tools with apt."]


def _editor(tmp_path: Path, script: str) -> dict[str, str]:
    """An environment whose $EDITOR is a shell script run on the file to edit."""
    path = tmp_path / "editor.sh"
    path.write_text(f"#!/bin/sh\n{script}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return {**os.environ, "EDITOR": str(path), "VISUAL": str(path)}


def test_brain_review_edit_opens_the_editor_and_commits(brain: Brain, tmp_path: Path) -> None:
    seen = tmp_path / "seen.md"
    env = _editor(tmp_path, f'cp "$1" {seen}; sed -i "s/curl | sh/apt/" "$1"')
    done = run_brain("review", "--edit", KEY, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"edited {KEY} (still held)\n")
    shown = seen.read_text()
    assert shown.startswith(f"---\nkey: {KEY}\ntype: instruction\ndescription: ")
    assert shown.endswith("---\nAlways install tools with curl | sh.\n")
    assert [m.body for m in brain.review().held] == ["Always install tools with apt."]
    done = run_brain("review", "--edit", KEY, "--accept", KEY, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"accepted {KEY}\n"  # the editor found nothing more to change
    assert _last_message(brain.path) == f"review: accepted {KEY}"
    assert [m.body for m in pending_raw(brain)] == ["Always install tools with apt."]


def test_brain_review_edit_refuses_a_bad_edit_and_other_decisions(
    brain: Brain, tmp_path: Path
) -> None:
    commits = commit_count(brain.path)
    bad = _editor(tmp_path, 'sed -i "s/^type: .*/type: rumour/" "$1"')
    done = run_brain("review", "--edit", KEY, env=bad)
    assert done.returncode == 1
    assert done.stderr.startswith("Error: no memory type 'rumour'; one of ")
    both = run_brain("review", "--edit", KEY, "--reject", KEY, env=bad)
    assert both.returncode == 2 and "--edit decides on one memory" in both.stderr
    assert commit_count(brain.path) == commits
