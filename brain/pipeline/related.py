"""The stored records a consolidation run shows the model next to its raw memories."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from brain.home.scope import base_key, projects_of
from brain.models.schema import ExistingRecord
from brain.pipeline import views

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.home.records import Record
    from brain.index.sync import Catalog
    from brain.pipeline.runs import RawMemory

# How many search hits per raw memory, besides a record with its own key.
RELATED_K = 3


def existing_of(record: Record) -> ExistingRecord:
    """A stored record as phase 2's model sees it."""
    return ExistingRecord(
        record.key,
        record.type,
        record.description,
        record.body,
        record.tags,
        record.id,
        updated=record.updated or record.created,
        source=record.source or "",
    )


def related_records(home: Home, catalog: Catalog, raw: Sequence[RawMemory]) -> dict[str, Record]:
    """Stored records the raw memories may touch: same key, or the best few matches.

    Searches the catalog the way ``brain recall`` does, but does not count the hits
    as uses: consolidation looking at a record must not keep it from decaying.
    """
    found: dict[str, Record] = {}
    index, _ = catalog.open()
    try:
        for memory in raw:
            # The record of its own key, and the person's (or an older, unscoped) record
            # of the same fact: phase 2 may fold a project's memory into it.
            projects = sorted(projects_of(memory.tags))
            base = base_key(memory.key, projects[0]) if len(projects) == 1 else memory.key
            paths = [home.record_path(k) for k in dict.fromkeys((memory.key, base))]
            hits = index.search(
                f"{memory.description} {memory.body}",
                k=RELATED_K,
                kinds=["record"],
                floor=0.0,  # phase 2 weighs a weak match itself
                half_life_days=catalog.config.decay_half_life_days,  # as `brain recall` ranks
            )
            paths += [home.path / hit.path for hit in hits]
            for path in paths:
                record = views.load_quietly(path)
                if record is not None:
                    found.setdefault(record.key, record)
    finally:
        index.close()
    return found
