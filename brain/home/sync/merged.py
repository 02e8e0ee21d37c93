"""What a merge brought from another machine, checked as a write on this one is.

Another machine may run an older brain, or its person may have edited a file by hand
and pushed it: a merge then brings text no redaction here has read, and settings no
check here has passed. After a merge, each file it changed is read as a write reads it:

- a record is redacted field by field (:func:`brain.home.checks.redacted`);
- a JSON file has every string in it redacted; of a JSON-lines file and of the raw
  memories, which only grow, each line the merge brought;
- any other text file (session summaries, the views) is redacted whole;
- ``brain.yaml`` is loaded as every command loads it, and when it is refused (a YAML
  alias bomb, an unknown key) this machine's last good version is put back, so recall,
  status, harvest and context keep working; the report says so.

What was changed is committed once, before anything is pushed. The merged history still
holds what was redacted: the report says that ``brain purge`` takes it out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from brain.errors import BrainError
from brain.home.files import atomic_write, read_text
from brain.home.paths import CONFIG
from brain.home.sync.merge import is_record

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.home.transaction import Transaction

# Files brain writes itself for git alone, whatever a merge brings.
_LEFT_AS_THEY_ARE = (".gitattributes", ".gitignore")
# Markdown that only grows (merged by union): its new lines are read, not the whole file.
_APPEND_ONLY = ("raw_memories.md",)


def check(home: Home, tx: Transaction, before: str | None, upstream: str) -> list[str]:
    """Check what the merge from ``upstream`` changed since ``before`` (the head this
    machine had); commit what was redacted or put back, in one commit.

    Returns:
        One line per file changed, for the sync's report; empty when nothing was.
    """
    after = home.repo.head()
    if before is None or after is None or after == before:
        return []
    changed = home.repo.changed_between(before, after)
    report: list[str] = []
    touched: list[str] = []
    redacted = []
    for rel, status in sorted(changed.items()):
        if status == "D" or rel in _LEFT_AS_THEY_ARE:
            continue
        if rel == CONFIG:
            kept = _keep_good_config(home, before, upstream)
            if kept:
                report.append(kept)
                touched.append(rel)
        elif _redact_file(home, rel, before, after):
            redacted.append(rel)
    touched += redacted
    if redacted:
        report += [f"{rel}: redacted what {upstream} brought" for rel in redacted]
        report.append(
            "the merged history still holds what was redacted: 'brain purge' takes a text "
            "out of every commit (change the secret where it is used too)"
        )
    if touched:
        tx.commit(touched, f"sync: checked what {upstream} brought", "sync-check",
                  files=touched)  # fmt: skip
    return report


def _keep_good_config(home: Home, before: str, upstream: str) -> str | None:
    """Put back this machine's ``brain.yaml`` when the merged one is refused; say so."""
    from brain.home.config import load

    try:
        load(home.path)
    except BrainError as exc:
        good = home.repo.blob(f"{before}:{CONFIG}")
        if good is None:
            return None
        atomic_write(home.path / CONFIG, good.decode("utf-8"), tmp_dir=home.state)
        return (
            f"{CONFIG}: kept this machine's version; the one {upstream} brought was "
            f"refused ({exc.message}); fix it there, or here with 'brain config set'"
        )
    return None


def _redact_file(home: Home, rel: str, before: str, after: str) -> bool:
    """Redact one merged file in place as a write would have; whether it changed."""
    path = home.path / rel
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError):
        return False  # not text: nothing brain wrote
    if rel.endswith(".jsonl") or rel in _APPEND_ONLY:  # only the lines the merge brought
        from brain.home.git.runner import added_lines
        from brain.home.secrets.redact import redact

        added = set(added_lines(home.path, before, after, rel))
        one = _redacted_json_line if rel.endswith(".jsonl") else redact
        lines = text.splitlines(keepends=True)
        new = "".join(one(x) if x.rstrip("\n") in added else x for x in lines)
    else:
        new = _redacted_text(rel, text, path)
    if new == text:
        return False
    atomic_write(path, new, tmp_dir=home.state)
    return True


def _redacted_text(rel: str, text: str, path: Path) -> str:
    from brain.home.secrets.redact import redact, redact_fields

    if is_record(rel):
        from brain.home.checks import redacted
        from brain.home.records import RecordFormatError, parse, render

        try:
            record = parse(text, path)
        except RecordFormatError:
            return redact(text)  # unreadable as a record: still no secret in it
        clean = redacted(record)
        return render(clean) if clean != record else text
    if rel.endswith(".json"):
        try:
            data = json.loads(text)
        except ValueError:
            return redact(text)
        clean = redact_fields(data)
        return json.dumps(clean, indent=2, ensure_ascii=False) + "\n" if clean != data else text
    return redact(text)


def _redacted_json_line(line: str) -> str:
    from brain.home.secrets.redact import redact, redact_fields

    try:
        data = json.loads(line)
    except ValueError:
        return redact(line)
    clean = redact_fields(data)  # each string unescaped: a value in it is seen as it is
    if clean == data:
        return line
    end = "\n" if line.endswith("\n") else ""
    return json.dumps(clean, ensure_ascii=False) + end
