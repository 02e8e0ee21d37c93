"""The home's clock: the time now in UTC, and a moment as brain writes it.

Apart from :mod:`brain.home.records`, so that the journal, the harvest marks and the runs
tell the time without loading the record type (a frozen dataclass, and with it
``dataclasses`` and ``inspect``): ``brain status`` reads all three.
"""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """The current time in UTC, truncated to milliseconds."""
    now = datetime.now(UTC)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def iso(moment: datetime) -> str:
    """Format a datetime as ISO-8601 UTC with a ``Z`` suffix and whole seconds."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
