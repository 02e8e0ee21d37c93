"""``brain purge``: a leaked secret taken out of the whole history, here and on the remote,
and another machine's ``brain sync`` taking the rewrite instead of merging it back."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from brain.api import Brain
from brain.pipeline.runs import pending_raw
from tests import fakemodel
from tests.fakemodel import CannedModel
from tests.helpers import claude_transcript, cli, cli_json, git

canned_model = fakemodel.canned_model

SECRET = "plumzebra"  # letters only: brain's own secret rules do not know it


def _bare(path: Path) -> Path:
    subprocess.run(["git", "init", "--bare", "-q", "-b", "main", str(path)], check=True)
    return path


def _leaky_home(root: Path) -> tuple[Path, Path]:
    """A home with a remote, whose history holds SECRET in a record's text (an old
    commit), a record's file name, and commit messages."""
    remote = _bare(root / "remote.git")
    home = root / "a"
    Brain.init(home)
    assert cli("--home", str(home), "remote", "add", str(remote)).exit_code == 0
    h = str(home)
    assert cli("--home", h, "remember", f"the vault word is {SECRET} on staging",
               "--key", "vault-word").exit_code == 0  # fmt: skip
    assert cli("--home", h, "remember", "the vault is in the basement",
               "--key", f"where-{SECRET}").exit_code == 0  # fmt: skip
    assert cli("--home", h, "remember", "deploys go out on Thursdays", "--key", "deploy-day")
    assert cli("--home", h, "recall", SECRET).exit_code == 0  # its uses are counted too
    assert cli("--home", h, "sync").exit_code == 0
    return remote, home


def _everything(repo: Path) -> str:
    """Every commit's message, files and names, of every ref and the reflogs."""
    return git(repo, "log", "-p", "--all", "--reflog", "--format=%H %an %ae %B")


def test_dry_run_lists_what_it_would_rewrite_and_changes_nothing(tmp_path: Path) -> None:
    remote, home = _leaky_home(tmp_path)
    head, refs = git(home, "rev-parse", "HEAD"), git(home, "for-each-ref")
    remote_head = git(remote, "rev-parse", "main")
    result = cli("--home", str(home), "purge", SECRET, "--dry-run")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith("dry run: purging the text would rewrite 3 of 4 commits\n")
    assert "remember: vault-word  [content memories/vault-word.md]" in out
    assert (
        "remember: where-purged  [content journal.jsonl, content memories/where-purged.md,"
        " message, name memories/where-purged.md]\n"
    ) in out
    assert out.endswith("nothing was changed; run again with --yes to purge\n")
    assert SECRET not in out
    assert git(home, "rev-parse", "HEAD") == head and git(home, "for-each-ref") == refs
    assert git(remote, "rev-parse", "main") == remote_head
    assert git(home, "status", "--porcelain") == ""
    assert SECRET in (home / "memories" / "vault-word.md").read_text()


def test_off_a_terminal_a_purge_needs_yes(tmp_path: Path) -> None:
    _, home = _leaky_home(tmp_path)
    head = git(home, "rev-parse", "HEAD")
    result = cli("--home", str(home), "purge", SECRET)
    assert result.exit_code == 2
    assert "see what it would change with --dry-run, then run it with --yes" in result.stderr
    assert git(home, "rev-parse", "HEAD") == head


def test_purge_leaves_no_trace_in_history_objects_index_or_remote(tmp_path: Path) -> None:
    remote, home = _leaky_home(tmp_path)
    h = str(home)
    old_blob = git(home, "rev-parse", "HEAD:memories/vault-word.md").strip()
    assert cli("--home", h, "recall", SECRET).stdout.count("vault-word") == 1  # indexed
    result = cli("--home", h, "purge", SECRET, "--yes")
    assert result.exit_code == 0, result.stderr
    assert "rewrote 3 of 4 commits" in result.stdout
    assert "pushed to origin with a lease" in result.stdout
    assert SECRET not in result.stdout

    for repo in (home, remote):
        assert SECRET not in _everything(repo)
    # The old blob is gone, not only unreachable: reflogs expired, objects pruned.
    gone = subprocess.run(["git", "-C", h, "cat-file", "-e", old_blob], capture_output=True)
    assert gone.returncode != 0
    assert git(home, "rev-parse", "HEAD") == git(remote, "rev-parse", "main")
    assert git(home, "status", "--porcelain") == ""

    # The record whose key held it is renamed, and still reads as a record.
    assert not list((home / "memories").glob(f"*{SECRET}*"))
    shown = cli_json("--home", h, "show", "where-purged")
    assert shown["record"]["body"] == "the vault is in the basement"
    vault = cli_json("--home", h, "show", "vault-word")["record"]
    assert vault["body"] == "the vault word is [purged] on staging"
    assert cli_json("--home", h, "show", "deploy-day")["record"]["body"].startswith("deploys")
    # The index was rebuilt from the new files: nothing of the old text is in it.
    assert SECRET.encode() not in (home / ".brain" / "index.sqlite").read_bytes()
    assert "no matches" in cli("--home", h, "recall", SECRET).stdout
    assert _on_disk(home) == []

    # The receipt is committed and pushed, and holds no trace of the text.
    receipts = list((home / "purges").glob("*.json"))
    assert len(receipts) == 1
    receipt = json.loads(receipts[0].read_text())
    assert receipt["kind"] == "text" and receipt["commits_rewritten"] == 3
    assert receipt["files_rewritten"] == ["journal.jsonl", "memories/vault-word.md",
                                          "memories/where-purged.md"]  # fmt: skip
    assert receipt["fingerprint"]["length"] == len(SECRET)
    assert git(home, "log", "-1", "--format=%s") == "purge: 3 commits rewritten (text)\n"


def test_a_commit_message_written_by_hand_is_rewritten(tmp_path: Path) -> None:
    _, home = _leaky_home(tmp_path)
    git(home, "commit", "--allow-empty", "-q", "-m", f"note: the word was {SECRET}")
    result = cli("--home", str(home), "purge", SECRET, "--yes")
    assert result.exit_code == 0, result.stderr
    assert "note: the word was [purged]  [message]" in result.stdout
    assert SECRET not in _everything(home)
    assert "note: the word was [purged]" in git(home, "log", "--format=%s")


def test_purge_by_key_drops_the_record_from_every_commit(tmp_path: Path) -> None:
    remote, home = _leaky_home(tmp_path)
    h = str(home)
    assert cli("--home", h, "archive", "vault-word").exit_code == 0
    assert cli("--home", h, "sync").exit_code == 0
    result = cli("--home", h, "purge", "--key", "vault-word", "--yes")
    assert result.exit_code == 0, result.stderr
    for repo in (home, remote):
        names = git(repo, "log", "--all", "--format=", "--name-only")
        assert "vault-word.md" not in names
    assert not (home / "archive" / "vault-word.md").exists()
    receipt = next((home / "purges").glob("*.json")).read_text()
    assert "vault-word" not in receipt
    assert json.loads(receipt)["files_dropped"] == 3  # written, archived (two paths)
    assert cli_json("--home", h, "show", "deploy-day")["record"]["key"] == "deploy-day"


def test_nothing_found_and_a_too_short_text_are_refused(tmp_path: Path) -> None:
    _, home = _leaky_home(tmp_path)
    head = git(home, "rev-parse", "HEAD")
    missing = cli("--home", str(home), "purge", "nowhere-in-it", "--yes")
    assert missing.exit_code == 1
    assert missing.stderr == "Error: the text is in no commit of the history; nothing was changed\n"
    short = cli("--home", str(home), "purge", "ab", "--yes")
    assert short.exit_code == 1
    assert "at least 4 characters" in short.stderr
    assert git(home, "rev-parse", "HEAD") == head


def test_the_text_can_come_from_stdin(tmp_path: Path) -> None:
    _, home = _leaky_home(tmp_path)
    result = cli("--home", str(home), "purge", "-", "--yes", input=f"{SECRET}\n")
    assert result.exit_code == 0, result.stderr
    assert SECRET not in _everything(home)


def test_a_push_the_remote_refuses_leaves_both_as_they_were(tmp_path: Path) -> None:
    remote, home = _leaky_home(tmp_path)
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho refused by the host >&2\nexit 1\n")
    hook.chmod(hook.stat().st_mode | stat.S_IEXEC)
    head, files = git(home, "rev-parse", "HEAD"), _files(home)
    result = cli("--home", str(home), "purge", SECRET, "--yes")
    assert result.exit_code == 1
    assert "pushing the rewrite to origin failed" in result.stderr
    assert "nothing was changed here or there" in result.stderr
    assert SECRET not in result.stderr
    assert git(home, "rev-parse", "HEAD") == head and _files(home) == files
    assert git(remote, "rev-parse", "main") == head
    assert git(home, "for-each-ref", "refs/brain") == ""
    assert git(home, "status", "--porcelain") == ""


def test_a_rewrite_killed_midway_loses_nothing(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """git fast-import dies in the middle of the rewrite (a real git, wrapped)."""
    remote, home = _leaky_home(tmp_path)
    real_git = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True)
    wrapper = tmp_path / "bin" / "git"
    wrapper.parent.mkdir()
    wrapper.write_text(
        '#!/bin/sh\nfor a in "$@"; do [ "$a" = fast-import ] && '
        "{ head -c 200 >/dev/null; echo killed >&2; exit 137; }; done\n"
        f'exec {real_git.stdout.strip()} "$@"\n'
    )
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}")
    head, files = git(home, "rev-parse", "HEAD"), _files(home)
    result = cli("--home", str(home), "purge", SECRET, "--yes")
    assert result.exit_code == 1
    assert "the history rewrite failed" in result.stderr
    assert "nothing was changed" in result.stderr
    assert git(home, "rev-parse", "HEAD") == head and _files(home) == files
    assert git(remote, "rev-parse", "main") == head
    assert not list((home / ".brain").glob("purge-*"))  # the copy went too
    monkeypatch.setenv("PATH", os.environ["PATH"].split(os.pathsep, 1)[1])
    assert cli("--home", str(home), "purge", SECRET, "--yes").exit_code == 0


def _on_disk(home: Path) -> list[str]:
    """Files of the home, outside git's own store, that hold SECRET."""
    return [
        p.relative_to(home).as_posix()
        for p in home.rglob("*")
        if p.is_file() and ".git" not in p.relative_to(home).parts[:1]
        and SECRET.encode() in p.read_bytes()
    ]  # fmt: skip


def test_a_push_by_another_machine_while_purging_refuses_the_rewrite(
    tmp_path: Path,
    monkeypatch,  # type: ignore[no-untyped-def]
) -> None:
    """Another machine pushes between the purge's fetch and its push: the lease refuses
    the rewrite, which would drop that push, and nothing changes here or there."""
    remote, home = _leaky_home(tmp_path)
    b = tmp_path / "b"
    assert cli("clone", str(remote), "--home", str(b)).exit_code == 0
    assert cli("--home", str(b), "remember", "b pushes meanwhile", "--key", "b-meanwhile")
    real_git = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True)
    wrapper = tmp_path / "bin" / "git"
    wrapper.parent.mkdir()
    wrapper.write_text(  # b's push lands just before the purge's own
        '#!/bin/sh\nfor a in "$@"; do case "$a" in --force-with-lease*) '
        f"{real_git.stdout.strip()} -C {b} push -q origin main;; esac; done\n"
        f'exec {real_git.stdout.strip()} "$@"\n'
    )
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}")
    head, files = git(home, "rev-parse", "HEAD"), _files(home)
    result = cli("--home", str(home), "purge", SECRET, "--yes")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: origin changed while purging (another machine pushed); nothing was changed "
        "here or there; run 'brain purge' again\n"
    )
    assert git(home, "rev-parse", "HEAD") == head and _files(home) == files
    assert git(remote, "rev-parse", "main") == git(b, "rev-parse", "HEAD")  # b's push stands
    monkeypatch.setenv("PATH", os.environ["PATH"].split(os.pathsep, 1)[1])
    again = cli("--home", str(home), "purge", SECRET, "--yes", "--json")
    assert again.exit_code == 0, again.stderr
    done = json.loads(again.stdout)
    assert done["dry_run"] is False and done["remote"] == "origin"
    assert done["receipt"].startswith("purges/") and done["rewritten"] == 4
    assert (home / "memories" / "b-meanwhile.md").exists()  # merged in before rewriting
    assert SECRET not in _everything(remote)


def _files(home: Path) -> dict[str, str]:
    return {
        p.relative_to(home).as_posix(): p.read_text()
        for d in ("memories", "archive")
        for p in sorted((home / d).glob("*.md"))
    }


def test_another_machine_takes_the_rewrite_and_keeps_its_own_records(tmp_path: Path) -> None:
    remote, a = _leaky_home(tmp_path)
    b = tmp_path / "b"
    assert cli("clone", str(remote), "--home", str(b)).exit_code == 0
    # b writes, and does not push: one record clean, one holding the secret again.
    assert cli("--home", str(b), "remember", "b's own clean fact", "--key", "b-clean")
    assert cli("--home", str(b), "remember", f"b also saw {SECRET} once", "--key", "b-saw")
    old_blob = git(b, "rev-parse", "HEAD:memories/vault-word.md").strip()
    assert cli("--home", str(a), "remember", "a wrote later", "--key", "a-later").exit_code == 0
    assert cli("--home", str(a), "purge", SECRET, "--yes").exit_code == 0

    result = cli("--home", str(b), "sync")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("took the purged history and pushed main with origin\n")
    assert "the old history is gone from this machine" in result.stdout
    assert "put 2 commits of this machine on top" in result.stdout
    assert "wrote [purged] over the purged text in memories/b-saw.md" in result.stdout
    assert "journal.jsonl" not in result.stdout  # lines of both sides, by design
    # Nothing of the old history came back, here or on the remote.
    for repo in (b, remote):
        assert SECRET not in _everything(repo)
    gone = subprocess.run(["git", "-C", str(b), "cat-file", "-e", old_blob], capture_output=True)
    assert gone.returncode != 0
    assert SECRET.encode() not in (b / ".brain" / "index.sqlite").read_bytes()
    assert _on_disk(b) == []
    # b's own records are there, on top of the rewritten history.
    assert cli_json("--home", str(b), "show", "b-clean")["record"]["body"] == "b's own clean fact"
    saw = cli_json("--home", str(b), "show", "b-saw")["record"]["body"]
    assert saw == "b also saw [purged] once"
    assert git(b, "merge-base", "--is-ancestor", git(a, "rev-parse", "HEAD").strip(), "HEAD") == ""
    # And a takes b's records by an ordinary sync: both machines hold the same memory.
    assert cli("--home", str(a), "sync").exit_code == 0
    assert _files(a) == _files(b)
    assert SECRET not in _everything(a)
    # The next syncs are ordinary again.
    again = cli("--home", str(b), "sync")
    assert again.exit_code == 0 and again.stdout == "pushed main with origin\n"


def test_a_sync_with_uncommitted_changes_does_not_take_the_rewrite_yet(tmp_path: Path) -> None:
    remote, a = _leaky_home(tmp_path)
    b = tmp_path / "b"
    assert cli("clone", str(remote), "--home", str(b)).exit_code == 0
    assert cli("--home", str(a), "purge", SECRET, "--yes").exit_code == 0
    with (b / "brain.yaml").open("a") as fh:
        fh.write("# a note typed by hand\n")
    head = git(b, "rev-parse", "HEAD")
    result = cli("--home", str(b), "sync")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: origin/main was rewritten by a purge, and these files have changes not "
        "committed: brain.yaml; nothing was changed; commit or put them back, then run "
        "'brain sync' again\n"
    )
    assert git(b, "rev-parse", "HEAD") == head
    assert "# a note typed by hand" in (b / "brain.yaml").read_text()
    git(b, "checkout", "brain.yaml")
    assert cli("--home", str(b), "sync").exit_code == 0
    assert SECRET not in _everything(b)


def test_a_purge_killed_before_it_cleaned_up_leaves_no_copy_behind(tmp_path: Path) -> None:
    _, home = _leaky_home(tmp_path)
    stale = home / ".brain" / "purge-killed"
    subprocess.run(["git", "clone", "-q", "--bare", str(home), str(stale / "copy.git")], check=True)
    assert cli("--home", str(home), "purge", SECRET, "--dry-run").exit_code == 0
    assert not stale.exists()
    assert not list((home / ".brain").glob("purge-*"))


def test_a_text_that_would_break_the_records_is_refused(tmp_path: Path) -> None:
    _, home = _leaky_home(tmp_path)
    head = git(home, "rev-parse", "HEAD")
    result = cli("--home", str(home), "purge", "description", "--yes")
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "Error: writing over the text would leave memories/deploy-day.md unreadable ("
    )
    assert result.stderr.endswith(
        "nothing was changed; purge a longer, more particular text, or edit the record first "
        "(brain edit deploy-day)\n"
    )
    assert git(home, "rev-parse", "HEAD") == head


def test_a_record_purged_by_key_stays_out_of_another_machines_sync(tmp_path: Path) -> None:
    remote, a = _leaky_home(tmp_path)
    b = tmp_path / "b"
    assert cli("clone", str(remote), "--home", str(b)).exit_code == 0
    # b changes the purged record and another one, and pushes neither.
    assert cli("--home", str(b), "remember", f"the word is still {SECRET}", "--key", "vault-word")
    assert cli("--home", str(b), "remember", "deploys go out on Fridays", "--key", "deploy-day")
    assert cli("--home", str(a), "purge", "--key", "vault-word", "--yes").exit_code == 0
    result = cli("--home", str(b), "sync")
    assert result.exit_code == 0, result.stderr
    assert "left out memories/vault-word.md: its record was purged by key" in result.stdout
    assert not (b / "memories" / "vault-word.md").exists()
    assert "vault-word.md" not in git(b, "log", "--all", "--format=", "--name-only")
    body = cli_json("--home", str(b), "show", "deploy-day")["record"]["body"]
    assert body == "deploys go out on Fridays"
    assert cli("--home", str(a), "sync").exit_code == 0
    assert _files(a) == _files(b)


def test_another_machine_writes_over_the_text_of_a_record_purged_by_key(tmp_path: Path) -> None:
    remote, a = _leaky_home(tmp_path)
    b = tmp_path / "b"
    assert cli("clone", str(remote), "--home", str(b)).exit_code == 0
    # b copied the record's text into a record of its own, and has not pushed it.
    copied = f"copied: the vault word is {SECRET} on staging"
    assert cli("--home", str(b), "remember", copied, "--key", "copied-note").exit_code == 0
    assert cli("--home", str(a), "purge", "--key", "vault-word", "--yes").exit_code == 0
    result = cli("--home", str(b), "sync")
    assert result.exit_code == 0, result.stderr
    assert "wrote [purged] over the purged text in memories/copied-note.md" in result.stdout
    assert cli_json("--home", str(b), "show", "copied-note")["record"]["body"] == (
        "copied: [purged]"
    )
    assert f"vault word is {SECRET}" not in _everything(b)


def test_a_record_changed_on_both_machines_keeps_the_newer_when_taking_a_purge(
    tmp_path: Path,
) -> None:
    remote, a = _leaky_home(tmp_path)
    b = tmp_path / "b"
    assert cli("clone", str(remote), "--home", str(b)).exit_code == 0
    assert cli("--home", str(b), "remember", "deploys go out on Fridays", "--key", "deploy-day")
    assert cli("--home", str(a), "remember", "deploys go out on Mondays", "--key", "deploy-day")
    assert cli("--home", str(a), "purge", SECRET, "--yes").exit_code == 0
    friday = cli_json("--home", str(b), "show", "deploy-day")["record"]["id"]
    result = cli("--home", str(b), "sync")
    assert result.exit_code == 0, result.stderr
    assert "memories/deploy-day.md: settled with the purged history's version" in result.stdout
    kept = cli_json("--home", str(b), "show", "deploy-day")["record"]
    assert kept["body"] == "deploys go out on Mondays"  # a's write came later
    assert friday in kept["supersedes"]
    assert SECRET not in _everything(b)


def test_purge_by_key_writes_over_its_text_wherever_else_it_was(
    tmp_path: Path, canned_model: CannedModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Phase 1 learned the record from a session, phase 2 wrote it: its text went into
    raw_memories.md, the session's summary, MEMORY.md, the memory summary and the run's
    diff. A purge of its key leaves none of it, and says so."""
    remote, home = _bare(tmp_path / "remote.git"), tmp_path / "a"
    Brain.init(home)
    h = str(home)
    assert cli("--home", h, "remote", "add", str(remote)).exit_code == 0
    monkeypatch.setenv("BRAIN_EXTRACT_MODEL", "canned/small")
    monkeypatch.setenv("BRAIN_CONSOLIDATION_MODEL", "canned/strong")
    said = f"The vault word is {SECRET} on staging, ask Ana before you use it."
    about = f"Staging vault word {SECRET} for the billing console"
    session = claude_transcript(
        tmp_path / "s.jsonl", ("user", said), ("assistant", "Noted."), cwd=str(tmp_path)
    )
    brain = Brain.open(home)
    when = datetime(2026, 1, 2, 6, 0, tzinfo=UTC)
    brain.harvest(paths=[session], now=when)
    memory = {"key": "vault-word", "type": "fact", "description": about, "body": said,
              "tags": [], "confidence": 0.9, "evidence": [[1, 1]]}  # fmt: skip
    canned_model.push({"memories": [memory], "summary": f"Noted the vault word: {about}."})
    assert brain.extract(now=when).memories == 1
    [raw] = pending_raw(brain)  # vault-word-<project>
    key = raw.key
    canned_model.push({"operations": [{"op": "add", "key": key, "reason": "new",
                                       "type": "fact", "description": about, "body": said,
                                       "tags": []}]})  # fmt: skip
    assert brain.consolidate(force=True, now=when).ran
    assert cli("--home", h, "remember", "deploys go out on Thursdays", "--key", "deploy-day")
    assert cli("--home", h, "sync").exit_code == 0
    for rel in ("MEMORY.md", "memory_summary.md", "raw_memories.md"):
        assert SECRET in (home / rel).read_text(), rel
    assert SECRET in next((home / "rollout_summaries").glob("*.md")).read_text()

    dry = cli("--home", h, "purge", "--key", key, "--dry-run")
    assert dry.exit_code == 0, dry.stderr
    assert "the record's text (2 pieces: its descriptions and body lines, every version) " \
        "would be written over wherever else it was" in dry.stdout  # fmt: skip
    assert "files written over: MEMORY.md, memory_summary.md, phase2_workspace_diff.md, " \
        "raw_memories.md, rollout_summaries/" in dry.stdout  # fmt: skip
    assert SECRET not in dry.stdout and SECRET in (home / "MEMORY.md").read_text()

    done = cli("--home", h, "purge", "--key", key, "--yes")
    assert done.exit_code == 0, done.stderr
    assert "the record's text (2 pieces" in done.stdout and SECRET not in done.stdout
    for repo in (home, remote):
        assert SECRET not in _everything(repo)
    # Only the search index holds it still: it indexes the session, which is the tool's
    # own file, not the home's; the home's files hold none of it.
    assert _on_disk(home) == [".brain/index.sqlite"]
    session.unlink()
    assert cli("--home", h, "index", "--rebuild").exit_code == 0
    assert _on_disk(home) == []
    assert "[purged]" in (home / "MEMORY.md").read_text()
    assert "deploys go out on Thursdays" in (home / "memories" / "deploy-day.md").read_text()
    receipt = json.loads(next((home / "purges").glob("*.json")).read_text())
    assert receipt["kind"] == "key" and len(receipt["texts"]) == 2
    assert SECRET not in json.dumps(receipt) and "vault word" not in json.dumps(receipt)


def test_a_key_whose_text_another_record_repeats_is_refused_saying_which_to_edit(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    assert cli("--home", str(home), "init").exit_code == 0
    for key in ("deploy-day", "deploy-copy"):
        done = cli(
            "--home", str(home), "remember", "--key", key, "Deploys go out on Tuesday mornings"
        )
        assert done.exit_code == 0, done.output
    head = git(home, "rev-parse", "HEAD")
    # Writing over the text would make the other record's description a YAML list.
    result = cli("--home", str(home), "purge", "--key", "deploy-day", "--yes")
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "Error: writing over the text would leave memories/deploy-copy.md unreadable ("
    )
    assert result.stderr.endswith(
        "nothing was changed; edit memories/deploy-copy.md so it no longer repeats the "
        "record's text (brain edit deploy-copy), then purge the key again\n"
    )
    assert "(a field would read [purged] as a YAML list, not as text)" in result.stderr
    assert git(home, "rev-parse", "HEAD") == head
    text = cli("--home", str(home), "purge", "Deploys go out on Tuesday mornings", "--yes")
    assert text.exit_code == 1 and "as a YAML list" in text.stderr
    assert git(home, "rev-parse", "HEAD") == head
    assert cli_json("--home", str(home), "show", "deploy-copy")["record"]["description"] == (
        "Deploys go out on Tuesday mornings"
    )
