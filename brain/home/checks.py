"""What a write checks of a record before it touches the home.

Files are the truth and the person may edit them: a write refuses to replace a record
edited by hand and not committed (:class:`HandEditError`), refuses text that is not
valid Unicode, and redacts every field and message.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from brain.errors import BrainError
from brain.home.records import Record
from brain.home.secrets.keysecrets import SecretKeyError, key_holds_secret
from brain.home.secrets.redact import redact, redact_fields
from brain.home.secrets.together import redact_together

# Control characters other than tab and newline, kept out of commit messages.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def check_text(record: Record) -> None:
    """Refuse a record with text that is not valid Unicode (bytes that were not UTF-8,
    passed on by the shell as lone surrogates): YAML cannot hold it, and the file would
    be unreadable from then on. Refuse a key that holds a credential."""
    fields: dict[str, Any] = {
        "key": record.key,
        "type": record.type,
        "description": record.description,
        "text": record.body,
        "tag": list(record.tags),
        "profile": record.profile,
        "source": record.source,
        "field": record.extra,
    }
    if key_holds_secret(record.key):
        raise SecretKeyError()
    for name, value in fields.items():
        if not _encodes(value):
            raise BrainError(
                f"the {name} is not valid UTF-8 text",
                hint="check the terminal's encoding, or pass the text through 'iconv -t utf-8'",
            )


def _encodes(value: Any) -> bool:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, (list, tuple)):
        return all(_encodes(v) for v in value)
    if isinstance(value, dict):
        return all(_encodes(k) and _encodes(v) for k, v in value.items())
    return True


def redacted(record: Record) -> Record:
    """``record`` with every secret in its text fields replaced (see
    :mod:`brain.home.secrets.redact`).

    Every write goes through :meth:`brain.home.transaction.Transaction.stage`, so no
    field of a record on disk, whichever command wrote it, can carry a credential. A NUL
    goes too: git would take the record for a binary file and show no diff of it.
    """
    # Together: a description cut from the body may end inside a secret the body holds.
    description, body = redact_together(
        (record.description.replace("\0", ""), record.body.replace("\0", ""))
    )
    return record.evolve(
        type=redact(record.type),
        description=description,
        body=body,
        tags=redact_fields(record.tags),
        profile=redact_fields(record.profile),
        source=redact_fields(record.source),
        extra=redact_fields(record.extra),
    )


class HandEditError(BrainError):
    """A write would replace or delete a record file with edits git does not have."""

    def __init__(self, home: Path, rel: str, how: str) -> None:
        key = Path(rel).stem
        if how == "untracked":
            problem = f"{rel} is not in the memory's history yet (written by hand?)"
            hint = f"'brain edit {key}' checks it and commits it (or delete the file), then retry"
        else:
            problem = f"{rel} has changes that are not committed (edited by hand?)"
            hint = (
                f"'brain edit {key}' checks your edit and commits it ('brain edit {key} "
                "--discard' puts back the committed version), then retry"
            )
        super().__init__(f"{problem}; nothing was written", hint=hint)


def clean_message(message: str) -> str:
    """A commit message without control characters (``brain log`` reads between them)."""
    return _CONTROL.sub(" ", message)
