"""The stored records a consolidation run shows the model next to its raw memories."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from brain.home.scope import base_key, projects_of
from brain.models.schema import ExistingRecord
from brain.pipeline import views

if TYPE_CHECKING:
    from brain.home.home import Home
    from brain.home.records import Record
    from brain.index import Index
    from brain.index.sync import Catalog
    from brain.pipeline.runs import RawMemory
    from brain.progress import Progress

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


def related_records(
    home: Home,
    catalog: Catalog,
    raw: Sequence[RawMemory],
    *,
    records: Index | None = None,
    progress: Progress | None = None,
) -> dict[str, Record]:
    """Stored records the raw memories may touch: same key, or the best few matches.

    Searches the records the way ``brain recall`` ranks them, but does not count the
    hits as uses: consolidation looking at a record must not keep it from decaying.

    Args:
        records: the records' own index (:func:`record_search`), kept for a whole run;
            without it one is made for this call.
        progress: told how many raw memories have been looked up, of all.
    """
    if records is None:
        with record_search(catalog) as alone:
            return related_records(home, catalog, raw, records=alone, progress=progress)
    found: dict[str, Record] = {}
    for done, memory in enumerate(raw, 1):
        # The record of its own key, and the person's (or an older, unscoped) record
        # of the same fact: phase 2 may fold a project's memory into it.
        projects = sorted(projects_of(memory.tags))
        base = base_key(memory.key, projects[0]) if len(projects) == 1 else memory.key
        paths = [home.record_path(k) for k in dict.fromkeys((memory.key, base))]
        hits = records.search(
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
        if progress is not None:
            progress(done, len(raw))
    return found


@contextmanager
def record_search(catalog: Catalog) -> Iterator[Index]:
    """The home's records in an index of their own, for one run's searches.

    Its cost is the records', whatever the history harvested beside them
    (:mod:`brain.index.records`): copied from the catalog when there is one, else read
    from the record files, leaving the catalog of the harvested turns unbuilt.
    """
    from brain.index.records import records_alone, records_of

    if catalog.exists:
        index, _ = catalog.open()
        try:
            alone = records_alone(index)
        finally:
            index.close()
    else:
        alone = records_of(catalog)
    try:
        yield alone
    finally:
        alone.close()
