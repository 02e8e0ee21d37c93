"""What the honest-model benchmark's scripts share: the sessions, a fresh home for each,
the real CLI run in it, and the files requests and answers are kept in.

Every session is played in a home of its own, so the phase 1 prompt a session is sent is
the same whether it is recorded or replayed (no other session's records are shown in it).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The shipped sessions, and those whose licence keeps them out of the repository.
SESSION_DIRS = (HERE / "sessions", HERE / "local")
ANSWERS = HERE / "answers"
MODEL = "openai/gpt-4o-mini"  # any model litellm sends as OpenAI chat: the server answers
PERSON = ("Pat Person", "pat@example.com")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


@dataclass(frozen=True)
class Session:
    """One transcript of the corpus: its name (the file's stem) and path."""

    name: str
    path: Path


def sessions(only: list[str] | None = None) -> list[Session]:
    """The corpus's transcripts present on this machine, by name; ``only`` keeps those
    whose name contains one of its words."""
    found = {}
    for folder in SESSION_DIRS:
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.suffix in (".jsonl", ".json") and path.is_file():
                found.setdefault(path.stem, Session(path.stem, path))
    chosen = [found[n] for n in sorted(found)]
    if only:
        chosen = [s for s in chosen if any(word in s.name for word in only)]
    return chosen


class Home:
    """A fresh memory home and a person's machine around it, under ``root``; ``brain``
    runs the real CLI there, with the extract and consolidation models pointed at
    ``url`` (a chat server on 127.0.0.1)."""

    def __init__(self, root: Path, url: str) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        (root / "person").mkdir(exist_ok=True)
        gitconfig = root / "gitconfig"
        gitconfig.write_text(f"[user]\n\tname = {PERSON[0]}\n\temail = {PERSON[1]}\n")
        keep = {k: v for k, v in os.environ.items() if not k.startswith(("BRAIN_", "GIT_"))}
        self.env = {
            **keep,
            "HOME": str(root / "person"),
            "XDG_DATA_HOME": str(root / "person" / ".local" / "share"),
            "XDG_CONFIG_HOME": str(root / "person" / ".config"),
            "GIT_CONFIG_GLOBAL": str(gitconfig),
            "GIT_CONFIG_NOSYSTEM": "1",
            "BRAIN_HOME": str(root / "home"),
            "BRAIN_EXTRACT_MODEL": MODEL,
            "BRAIN_CONSOLIDATION_MODEL": MODEL,
            "BRAIN_MODEL_API_BASE": url,
            "BRAIN_MODEL_RETRIES": "0",
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        }
        self.path = root / "home"
        self.brain("init")

    def brain(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """``brain ARGS`` in this home, as a person types it."""
        done = subprocess.run(
            [sys.executable, "-m", "brain", *args],
            env=self.env,
            capture_output=True,
            text=True,
            cwd=self.root,
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"brain {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
        return done

    def json(self, *args: str, check: bool = True) -> Any:
        """``brain ARGS --json``, parsed."""
        done = self.brain(*args, "--json", check=check)
        return json.loads(done.stdout) if done.stdout.strip() else {}

    def harvest(self, session: Session) -> dict[str, Any]:
        """Harvest the session's file; returns what ``harvest --json`` said of it."""
        out = self.json("harvest", "--path", str(session.path))
        found = out.get("sessions") or []
        if not found:
            raise RuntimeError(f"{session.name}: brain harvest recorded no session: {out}")
        return dict(found[0])


def phase1_text(body: dict[str, Any]) -> str:
    """A phase 1 or phase 2 request as one readable prompt: every message's text in
    order, then the answer format the request names (its ``response_format``)."""
    parts = []
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            content = "\n".join(str(c.get("text", "")) for c in content if isinstance(c, dict))
        parts.append(f"===== {message.get('role', '?')} =====\n{content or ''}")
    fmt = body.get("response_format")
    if fmt:
        parts.append(
            "===== the answer format the request names (response_format) =====\n"
            "Reply with one JSON object that satisfies this JSON schema:\n"
            + json.dumps(fmt, indent=1, ensure_ascii=False)
        )
    return "\n\n".join(parts) + "\n"


def is_phase2(body: dict[str, Any]) -> bool:
    """Whether a request asks phase 2 (consolidation) rather than phase 1."""
    text = "\n".join(str(m.get("content") or "") for m in body.get("messages", []))
    return "## New raw memories" in text


_RAW_SECTION = re.compile(r"^### (\S+) \(", re.M)


def raw_keys(body: dict[str, Any]) -> list[str]:
    """The keys of the raw memories a phase 2 request shows, in order."""
    text = "\n".join(str(m.get("content") or "") for m in body.get("messages", []))
    raw = text.split("## New raw memories", 1)[-1]
    raw = raw.split("## The sessions they came from", 1)[0].split("<</data>>", 1)[0]
    raw = raw.split("\n## Answer", 1)[0]
    return _RAW_SECTION.findall(raw)


def estimate_tokens(text: str) -> int:
    """brain's own estimate of a text's tokens."""
    from brain.models.tokens import estimate_tokens as estimate

    return estimate(text)


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def read_json(path: Path) -> Any:
    return json.loads(path.read_text())
