"""A Gemini CLI session's project, when its folder does not say: the roots brain knows."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from brain.agents.context import context
from brain.api import Brain
from brain.home.journal import machine_id
from brain.home.reader import Reader
from brain.home.staleness import check as staleness
from brain.pipeline.runs import read_raw
from brain.sessions.projects import gemini_project, known_roots
from tests import fakemodel
from tests.fakemodel import CannedModel
from tests.helpers import claude_transcript, cli, cli_json, run_brain
from tests.test_harvest_trees import FIXTURES, GEMINI_ID, user_home

CHAT = FIXTURES / "gemini" / "agent-sessions-stage0" / "jsonl_v040.jsonl"
FIXTURE_HASH = "0b7dfb1274ee51b336813b17f2ddab1f56b6591f723e7314126bbd502c69e9c9"


@pytest.fixture
def checkout(home: Path, tmp_path: Path) -> Path:
    """A home that harvested a Claude Code session in the git checkout ``shop``."""
    Brain.init(home)
    root = tmp_path / "src" / "shop"
    (root / "web").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    session = claude_transcript(
        tmp_path / "claude.jsonl", ("user", "Deploy the shop."), cwd=str(root / "web")
    )
    assert cli("harvest", "--path", str(session)).exit_code == 0
    return root


def _chat(dest: Path, root: Path) -> Path:
    """The recorded chat, as Gemini CLI would have written it in project ``root``."""
    digest = hashlib.sha256(str(root).encode()).hexdigest()
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(CHAT.read_text().replace(FIXTURE_HASH, digest))
    stamp = (datetime.now(UTC) - timedelta(days=1)).timestamp()
    os.utime(dest, (stamp, stamp))
    return dest


def _project(home: Path) -> object:
    marks = json.loads((home / "harvest" / f"{machine_id()}-gemini.json").read_text())
    [mark] = marks["sessions"]
    return mark["project"]


def test_known_roots_are_sessions_folders_and_their_checkouts(checkout: Path, home: Path) -> None:
    assert known_roots(Brain.open(home)) == [str(checkout), str(checkout / "web")]


def test_a_chat_saved_elsewhere_finds_its_project_by_its_hash(checkout: Path, home: Path) -> None:
    chat = _chat(home.parent / "exports" / "chat.jsonl", checkout)
    assert cli("harvest", "--path", str(chat)).exit_code == 0
    assert _project(home) == str(checkout)
    listed = cli_json("sessions", "list", "--project", "shop")
    assert {s["source"] for s in listed} == {"claude", "gemini"}


def test_a_chat_in_an_old_hash_folder_finds_its_project(checkout: Path, home: Path) -> None:
    digest = hashlib.sha256(str(checkout).encode()).hexdigest()
    chats = user_home() / ".gemini" / "tmp" / digest / "chats"
    _chat(chats / "session-2026-04-29T21-39-gemini_s.jsonl", checkout)
    assert cli("harvest", "--source", "gemini").exit_code == 0
    assert _project(home) == str(checkout)


def test_a_project_nothing_knows_stays_unknown(home: Path, tmp_path: Path) -> None:
    Brain.init(home)
    chat = _chat(tmp_path / "chat.jsonl", tmp_path / "elsewhere")
    assert cli("harvest", "--path", str(chat)).exit_code == 0
    assert _project(home) is None
    listed = cli_json("sessions", "list")
    assert [(s["session_id"], s["project"]) for s in listed] == [(GEMINI_ID, None)]


def test_gemini_registry_names_a_saved_chats_project(home: Path, tmp_path: Path) -> None:
    root = tmp_path / "src" / "blog"
    folder = user_home() / ".gemini" / "tmp" / "blog"
    folder.mkdir(parents=True)
    (folder / ".project_root").write_text(f"{root}\n")
    chat = _chat(tmp_path / "saved.jsonl", root)
    assert gemini_project(chat) == str(root)


def test_a_file_in_a_projects_folder_has_its_project(checkout: Path, home: Path) -> None:
    digest = hashlib.sha256(str(checkout).encode()).hexdigest()
    memory = user_home() / ".gemini" / "tmp" / digest / "memory" / "MEMORY.md"
    memory.parent.mkdir(parents=True)
    memory.write_text("- Deploy with make release.\n")
    assert gemini_project(memory) is None  # Gemini's own files do not say
    assert gemini_project(memory, home=Brain.open(home)) == str(checkout)


# A session of an unknown project is never the person's own ---------------------------

canned_model = fakemodel.canned_model
LISTING = {
    "memories": [
        {
            "key": "list-files-first",
            "type": "instruction",
            "description": "Say hello and list files first",
            "body": "Say hello and list files.",
            "tags": [],
            "confidence": 0.9,
            "evidence": [[1, 1]],
        }
    ],
    "summary": "Listed the files.",
}


def _learn_unplaced(home: Path, tmp_path: Path, model: CannedModel) -> tuple[Path, str]:
    """A chat of a folder brain knows nothing of, harvested and extracted: that folder,
    and the key its memory was filed under."""
    Brain.init(home)
    root = tmp_path / "elsewhere"
    root.mkdir()
    chat = _chat(tmp_path / "chat.jsonl", root)
    assert cli("harvest", "--path", str(chat)).exit_code == 0
    os.environ["BRAIN_EXTRACT_MODEL"] = "canned/careful"
    model.push(LISTING)
    try:
        Brain.open(home).extract(sessions=[f"gemini:{GEMINI_ID}"])
    finally:
        del os.environ["BRAIN_EXTRACT_MODEL"]
    [raw] = read_raw(Brain.open(home))
    return root, raw.key


def test_an_unplaced_chats_memory_is_filed_under_an_unknown_project(
    home: Path, tmp_path: Path, canned_model: CannedModel
) -> None:
    root, key = _learn_unplaced(home, tmp_path, canned_model)
    digest = hashlib.sha256(str(root).encode()).hexdigest()[:12]
    [raw] = read_raw(Brain.open(home))
    assert raw.tags == (f"project:unknown/{digest}",)
    assert key == f"list-files-first-unknown-{digest}"
    [summary] = (home / "rollout_summaries").glob("*.md")
    assert f"- project: unknown/{digest}\n" in summary.read_text()
    kinds = {h["kind"] for h in cli_json("recall", "listed the files", "--project", str(root))}
    assert "rollout_summary" in kinds
    assert not cli_json("recall", "listed the files", "--project", str(tmp_path))
    assert not cli_json("recall", "listed the files")


def test_an_unknown_projects_memory_shows_only_in_the_folder_it_hashes_to(
    home: Path, tmp_path: Path, canned_model: CannedModel
) -> None:
    root, key = _learn_unplaced(home, tmp_path, canned_model)
    other = tmp_path / "shop"
    other.mkdir()
    reader = Reader.open(home)
    assert key not in context(reader, project=other).text
    assert key not in context(reader, project=None).text
    assert key in context(reader, project=root).text
    # Consolidated: the record, MEMORY.md and the summary keep it there too.
    assert Brain.open(home).consolidate(force=True).ran
    assert (home / "memories" / f"{key}.md").is_file()
    reader = Reader.open(home)
    for where in (other, None):
        text = context(reader, project=where).text
        assert key not in text and "list files" not in text.lower(), text
    assert key in context(reader, project=root).text


def test_an_unknown_projects_record_is_recalled_only_from_its_folder(
    home: Path, tmp_path: Path
) -> None:
    Brain.init(home)
    root = tmp_path / "elsewhere"
    root.mkdir()
    scope = f"project:unknown/{hashlib.sha256(str(root).encode()).hexdigest()[:12]}"
    tags = ("--tag", scope)
    assert cli("remember", "-k", "zebra-deploys", *tags, "Zebra deploys on Fridays").exit_code == 0
    assert cli("remember", "-k", "zebra-mine", "Zebra stripes are my own").exit_code == 0
    everywhere = cli_json("recall", "zebra")
    assert [h["key"] for h in everywhere] == ["zebra-mine"]
    elsewhere = cli_json("recall", "zebra", "--project", str(tmp_path))
    assert [h["key"] for h in elsewhere] == ["zebra-mine"]
    here = cli_json("recall", "zebra", "--project", str(root))
    assert sorted(h["key"] for h in here) == ["zebra-deploys", "zebra-mine"]


# The roots a chat's projectHash is matched against -------------------------------------


def test_a_chat_finds_its_project_in_the_folder_its_session_ended_in(
    home: Path, tmp_path: Path
) -> None:
    Brain.init(home)
    root = tmp_path / "src" / "blog"
    root.mkdir(parents=True)
    chat = _chat(tmp_path / "chat.jsonl", root)
    done = run_brain("hook", "after-session", "--path", str(chat), "--cwd", str(root))
    assert done.returncode == 0, done.stderr
    assert _project(home) == str(root)


def test_a_checkout_brains_context_checked_is_a_known_root(home: Path, tmp_path: Path) -> None:
    brain = Brain.init(home)[0]
    root = tmp_path / "src" / "blog"
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    cache = home / ".brain" / "cache" / staleness.CACHE
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({"version": staleness.VERSION, "tops": {str(root): {}}}))
    assert known_roots(brain) == [str(root)]
    chat = _chat(tmp_path / "chat.jsonl", root)
    assert cli("harvest", "--path", str(chat)).exit_code == 0
    assert _project(home) == str(root)


def test_session_end_hands_its_folder_to_the_learning_job(home: Path) -> None:
    from brain.agents.hooks import after_session_command

    command = after_session_command(home, "/t/chat.jsonl", "/src/blog")
    assert command[-4:] == ("--path", "/t/chat.jsonl", "--cwd", "/src/blog")


def test_a_project_memory_whose_project_nothing_names_stays_out_of_others(
    home: Path, tmp_path: Path
) -> None:
    from brain.sessions.mirror import mirror_native

    brain = Brain.init(home)[0]
    root = tmp_path / "src" / "blog"
    root.mkdir(parents=True)
    digest = hashlib.sha256(str(root).encode()).hexdigest()
    memory = user_home() / ".gemini" / "tmp" / digest / "memory" / "MEMORY.md"
    memory.parent.mkdir(parents=True)
    memory.write_text("- Deploy the blog with make release.\n")
    mirror_native(brain, ["gemini"])
    [path] = (home / "memories").glob("*.md")
    assert f"project:unknown/{digest[:12]}" in path.read_text()
    reader = Reader.open(home)
    assert path.stem not in context(reader, project=tmp_path).text
    assert path.stem in context(reader, project=root).text


def test_a_project_memory_in_a_hash_folder_finds_a_known_project(
    checkout: Path, home: Path
) -> None:
    from brain.sessions.mirror import mirror_native

    digest = hashlib.sha256(str(checkout).encode()).hexdigest()
    memory = user_home() / ".gemini" / "tmp" / digest / "memory" / "MEMORY.md"
    memory.parent.mkdir(parents=True)
    memory.write_text("- Deploy the shop with make release.\n")
    mirror_native(Brain.open(home), ["gemini"])
    [path] = [p for p in (home / "memories").glob("gemini-*.md")]
    assert "project:shop" in path.read_text()


def test_the_roots_a_chats_paths_name_are_each_folder_above_a_file() -> None:
    from brain.sessions.sources.base import Turn
    from brain.sessions.sources.gemini import roots_named

    said = [
        Turn("user", "Fix /home/ana/src/ledger/app/main.py please."),
        Turn("assistant", r"Read C:\\Users\\ana\\ledger\\app.py and ~/notes.md"),
    ]
    roots = roots_named(said)
    assert roots[:4] == ["/home", "/home/ana", "/home/ana/src", "/home/ana/src/ledger"]
    assert "/home/ana/src/ledger/app" in roots
    assert "C:\\Users\\ana" in roots and "C:\\Users\\ana\\ledger" in roots
    # A home-relative path names no root; a file is never a root of itself.
    assert not any(root.startswith("~") for root in roots)
    assert "/home/ana/src/ledger/app/main.py" not in roots


def test_a_copied_chat_nothing_knows_finds_its_project_in_the_paths_its_tools_read(
    home: Path, tmp_path: Path
) -> None:
    Brain.init(home)
    root = tmp_path / "src" / "ledger"
    chat = json.loads((FIXTURES / "gemini" / "agent-sessions-stage0" / "large.json").read_text())
    chat["projectHash"] = hashlib.sha256(str(root).encode()).hexdigest()
    chat["messages"][0]["content"] = f"Tidy {root}/app/models.py and keep the tests green."
    saved = tmp_path / "downloads" / "chat.json"
    saved.parent.mkdir()
    saved.write_text(json.dumps(chat))
    assert cli("harvest", "--path", str(saved)).exit_code == 0
    assert _project(home) == str(root)


def test_a_copied_chat_whose_paths_do_not_hash_to_it_stays_unknown(
    home: Path, tmp_path: Path
) -> None:
    Brain.init(home)
    chat = json.loads((FIXTURES / "gemini" / "agent-sessions-stage0" / "large.json").read_text())
    chat["projectHash"] = hashlib.sha256(str(tmp_path / "elsewhere").encode()).hexdigest()
    chat["messages"][0]["content"] = f"Tidy {tmp_path}/src/ledger/app/models.py."
    saved = tmp_path / "chat.json"
    saved.write_text(json.dumps(chat))
    assert cli("harvest", "--path", str(saved)).exit_code == 0
    assert _project(home) is None
