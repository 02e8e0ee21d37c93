"""What each record is worth: what it cost to learn, and how often it was of use.

A record's cost is the tokens of the model runs that wrote it, its share of each: the
phase 2 run that wrote it (the run's tokens over the records it wrote) and, for each raw
memory that run folded into it, that raw memory's share of the phase 1 run that found
it. Phase 2 works the figure out when it commits and writes it into its journal line
(``learned_tokens``: key -> tokens), so it is in the home's history and summed over
every run that wrote the key. A record written by hand, by ``remember`` or from a
tool's own memory cost no run, and a run before phase 2 journaled the figure left none:
its figure is None.

Its uses are :mod:`brain.home.uses.counts`: shown at session start, returned by recall, cited.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

from brain.home import journal
from brain.home.uses.counts import Use, tallies

if TYPE_CHECKING:
    from brain.home.paths import Located
    from brain.home.records import Record


class Worth(NamedTuple):
    """One record's uses and cost: each kind's count and last time (ISO UTC, empty:
    never), the tokens of the runs that wrote it (None: none recorded), and how
    many runs those were."""

    shown: int = 0
    shown_last: str = ""
    recalled: int = 0
    recalled_last: str = ""
    cited: int = 0
    cited_last: str = ""
    learn_tokens: int | None = None
    learn_runs: int = 0

    @property
    def used(self) -> int:
        return self.recalled + self.cited

    @property
    def last_used(self) -> str:
        return max(self.recalled_last, self.cited_last)


def learn_costs(home: Located) -> dict[str, tuple[int, int]]:
    """Each key's learning cost from the journal: (tokens, runs that wrote it)."""
    found: dict[str, tuple[int, int]] = {}
    for entry in journal.read(home.path):
        shares = entry.get("learned_tokens")
        if entry.get("op") != "consolidate" or not isinstance(shares, dict):
            continue
        for key, tokens in shares.items():
            total, runs = found.get(str(key), (0, 0))
            try:
                found[str(key)] = (total + int(tokens), runs + 1)
            except (TypeError, ValueError):
                continue
    return found


def worth_of(home: Located, keys: Iterable[str], *, archived: bool = False) -> dict[str, Worth]:
    """The :class:`Worth` of each of ``keys`` (live records, or archived ones)."""
    counts, costs = tallies(home), learn_costs(home)
    folder = "archive" if archived else "memories"
    out = {}
    for key in keys:
        use = counts.get(f"{folder}/{key}.md", Use())
        if archived:  # its uses while it was live count too
            use = use.add(counts.get(f"memories/{key}.md", Use()))
        tokens, runs = costs.get(key, (None, 0))
        out[key] = Worth(*use, learn_tokens=tokens, learn_runs=runs)
    return out


def unused(
    home: Located, records: Sequence[Record], since: datetime | None = None
) -> list[tuple[Record, Worth]]:
    """The records neither recalled nor cited (since ``since``, when given: then a
    record written since is left out too, it has had no time to be used), those shown
    at session start most often first (what costs context and helps nothing), then newest.
    """
    from brain.home.records import iso

    cut = iso(since) if since is not None else None
    worth = worth_of(home, [r.key for r in records])
    found = []
    for record in records:
        w = worth[record.key]
        if cut is None:
            if w.used:
                continue
        elif w.last_used >= cut or (record.updated or record.created or "") >= cut:
            continue
        found.append((record, w))
    found.sort(key=lambda pair: (pair[0].updated, pair[0].id), reverse=True)
    found.sort(key=lambda pair: -pair[1].shown)
    return found


def shares(
    tokens: int,
    written: Mapping[str, Sequence[str]],
    raw_runs: dict[str, str],
    run_costs: dict[str, tuple[int, int]],
) -> dict[str, int]:
    """Each written key's share of a phase 2 run of ``tokens`` and of the phase 1 runs
    of the raw memories folded into it.

    Args:
        tokens: the phase 2 run's tokens, shared evenly among the keys it wrote.
        written: key -> the ids of the raw memories folded into it.
        raw_runs: raw memory id -> the phase 1 run that found it.
        run_costs: phase 1 run id -> (its tokens, the raw memories it found).
    """
    if not written:
        return {}
    each = tokens / len(written)
    out = {}
    for key, raw_ids in written.items():
        share = each
        for raw_id in raw_ids:
            run_tokens, found = run_costs.get(raw_runs.get(raw_id, ""), (0, 0))
            share += run_tokens / found if found else 0
        out[key] = round(share)
    return out


def extract_costs(home: Located) -> dict[str, tuple[int, int]]:
    """Each phase 1 run's (tokens, raw memories found), from its journal line."""
    found = {}
    for entry in journal.read(home.path):
        if entry.get("op") == "extract" and entry.get("run"):
            try:
                found[str(entry["run"])] = (int(entry.get("tokens") or 0), int(entry["memories"]))
            except (KeyError, TypeError, ValueError):
                continue
    return found
