"""Push the secrets corpus through every way text enters a home and count what stays.

For each entry path, one fresh home takes every entry of ``secrets_corpus``; then the
whole home is read (every file, ``.brain/`` included, and ``git log -p --all``) and each
secret is looked for. A secret found is *missed*; an entry refused with a clear error,
or stored without its secret, is *caught*. A look-alike that does not come back as it
was written is a *false positive*.

The model paths use a scripted model that repeats the corpus text back verbatim, as a
model would that had seen a secret and obeyed an instruction to keep it, so both the
redaction before the model (what it was sent) and the filter on its answer are tested.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from brain.api import Brain
from brain.errors import BrainError
from brain.home.git import packing
from brain.models import registry
from brain.models.base import ConsolidateTask, ExtractTask, Task
from brain.models.budget import Budget, Estimate
from brain.models.schema import Candidate, Consolidation, Extraction, Operation

NOW = datetime(2026, 8, 22, 12, 0, tzinfo=UTC)


@dataclass
class Echo:
    """A model that answers with the corpus text it is told to, whatever it was sent."""

    texts: dict[str, str]
    name: str = "echo/model"
    offline: bool = True
    sent: list[str] = field(default_factory=list)

    def extract(self, task: ExtractTask, budget: Budget) -> Extraction:
        self.sent.append("\n".join(m["content"] for m in task.messages()))
        sid = task.transcript.session_id
        text = self.texts[sid]
        memory = Candidate(key=sid, type="fact", description=text[:180] or "x", body=text)
        return Extraction(memories=(memory,), summary=text)

    def consolidate(self, task: ConsolidateTask, budget: Budget) -> Consolidation:
        self.sent.append("\n".join(m["content"] for m in task.messages()))
        ops = tuple(
            Operation(
                op="add",
                key=raw.key,
                reason=self.texts[raw.key],
                type="fact",
                description=self.texts[raw.key][:180],
                body=self.texts[raw.key],
            )
            for raw in task.raw
        )
        return Consolidation(ops)

    def estimate(self, task: Task) -> Estimate:
        return Estimate(10, task.max_tokens, 0.0)


def _disk(home: Path) -> str:
    """Every file of the home outside .git, and git's history with its patches."""
    # A write may have started git's gc in the background: let it finish first, so no
    # folder goes away under the walk (or under the temporary directory's removal).
    packing.wait_for_background_gc(home)
    texts = []
    for folder, subfolders, names in os.walk(home):
        subfolders[:] = [name for name in subfolders if name != ".git"]
        for name in names:
            texts.append((Path(folder) / name).read_bytes().decode("utf-8", "replace"))
    log = subprocess.run(
        ["git", "-C", str(home), "log", "-p", "--all"], capture_output=True, text=True
    ).stdout
    return "\n".join(texts) + log


def _remember(field: str) -> Callable[[Brain, int, str], None]:
    def write(brain: Brain, i: int, text: str) -> None:
        body = f"Entry {i} is noted here."
        if field == "text":
            brain.remember(text)
        elif field == "description":
            brain.remember(body, key=f"entry-{i}", description=text)
        elif field == "tag":
            brain.remember(body, key=f"entry-{i}", tags=[text])
        else:  # a key a person typed: the text made into a slug, as a person would
            key = "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split())
            brain.remember(body, key=key[:120] or f"entry-{i}")

    return write


def _import(brain: Brain, i: int, text: str) -> None:
    line = {"key": f"entry-{i}", "body": text, "description": text[:180], "note": text}
    import json

    brain.import_([json.dumps(line)])


PATHS: dict[str, Callable[[Brain, int, str], None]] = {
    "remember text": _remember("text"),
    "remember description": _remember("description"),
    "remember tag": _remember("tag"),
    "remember key": _remember("key"),
    "import": _import,
}


def _one_by_one(path: str, texts: list[str]) -> tuple[str, list[bool]]:
    """Write each text through ``path`` in one home; which writes were refused."""
    home = Path(tempfile.mkdtemp()) / "home"
    brain = Brain.init(home)[0]
    refused = []
    for i, text in enumerate(texts):
        try:
            PATHS[path](brain, i, text)
            refused.append(False)
        except BrainError:
            refused.append(True)
    return _disk(home), refused


def _through_models(texts: list[str]) -> tuple[str, str]:
    """Every text as a session, extracted and consolidated by the echo model."""
    from brain.evals import write_session
    from brain.pipeline.consolidate import consolidate
    from brain.pipeline.extract import extract
    from brain.sessions.harvest import harvest

    root = Path(tempfile.mkdtemp())
    home = root / "home"
    brain = Brain.init(home)[0]
    sids = {f"entry-{i}": text for i, text in enumerate(texts)}
    paths = [write_session(root / "s", sid, [text], when=NOW) for sid, text in sids.items()]
    harvest(brain, paths=paths, now=NOW + timedelta(hours=2))
    echo = Echo(sids)
    registry.register("echo/", lambda name, settings: echo)
    os.environ["BRAIN_EXTRACT_MODEL"] = os.environ["BRAIN_CONSOLIDATE_MODEL"] = "echo/model"
    try:
        brain = Brain.open(home)
        extract(brain, now=NOW + timedelta(hours=3))
        consolidate(brain, force=True, now=NOW + timedelta(hours=3), catalog=brain.catalog)
    finally:
        registry.unregister("echo/")
    return _disk(home), "\n".join(echo.sent)


@dataclass
class Tally:
    caught: int = 0
    missed: list[str] = field(default_factory=list)
    false_positives: list[str] = field(default_factory=list)


def run(secrets: list[tuple[str, str, str]], lookalikes: list[str]) -> dict[str, Tally]:
    """Caught / missed / false positives per entry path."""
    from brain.home.secrets.redact import redact

    tallies: dict[str, Tally] = {}
    t = tallies["redact()"] = Tally()
    for kind, text, secret in secrets:
        (t.missed.append(kind) if secret in redact(text) else None) or None
    t.caught = len(secrets) - len(t.missed)
    t.false_positives = [x for x in lookalikes if redact(x) != x]
    for path in PATHS:
        disk, _ = _one_by_one(path, [text for _, text, _ in secrets])
        _, refused = _one_by_one(path, lookalikes)
        t = tallies[path] = Tally()
        t.missed = [kind for kind, _, secret in secrets if secret in disk]
        t.caught = len(secrets) - len(t.missed)
        # A look-alike refused, or changed on its way in, is a false positive.
        t.false_positives = [
            x for x, r in zip(lookalikes, refused, strict=True) if r or redact(x) != x
        ]
    disk, sent = _through_models([text for _, text, _ in secrets])
    for name, seen in (("sent to the model", sent), ("extract + consolidate", disk)):
        t = tallies[name] = Tally()
        t.missed = [kind for kind, _, secret in secrets if secret in seen]
        t.caught = len(secrets) - len(t.missed)
    return tallies


def report(tallies: dict[str, Tally], total: int, lookalikes: int) -> list[str]:
    lines = [f"{total} secrets ({total} kinds), {lookalikes} look-alikes"]
    for path, t in tallies.items():
        fp = f"{len(t.false_positives)}/{lookalikes}" if path not in _NO_FP else "-"
        lines.append(f"  {path:24} caught {t.caught:3}  missed {len(t.missed):3}  false+ {fp}")
        if t.missed:
            lines.append(f"    missed: {', '.join(t.missed)}")
        for x in t.false_positives[:5]:
            lines.append(f"    false+: {x[:70]!r}")
    return lines


_NO_FP = ("sent to the model", "extract + consolidate")


def main() -> Any:
    from secrets_corpus import LOOKALIKES, SECRETS

    os.environ.setdefault("GIT_AUTHOR_NAME", "bench")
    os.environ.setdefault("GIT_AUTHOR_EMAIL", "bench@example.com")
    os.environ.setdefault("GIT_COMMITTER_NAME", "bench")
    os.environ.setdefault("GIT_COMMITTER_EMAIL", "bench@example.com")
    tallies = run(SECRETS, LOOKALIKES)
    print("\n".join(report(tallies, len(SECRETS), len(LOOKALIKES))))


if __name__ == "__main__":
    main()
