"""The history rewrite of ``brain purge``, run by git-filter-repo in a process of its own.

git-filter-repo is used as a library (its callbacks are Python, here), in a child
process started by :mod:`brain.home.sync.purge` in a bare copy of the home: filter-repo works
on the current directory, prints as it goes and exits on an error, and none of that
may reach brain's own process. A rewrite that fails leaves only the copy broken.

Reads a JSON object on stdin: ``texts`` (the literals to write over, maybe none), ``drop``
(paths to take out of every commit) and ``report`` (where to write what was changed).
The report lists each commit the callbacks changed: its old id, and whether its message,
a file's content, a file's name or a dropped file changed it.

This module is the only one that imports ``git_filter_repo``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from brain.home.sync.scrub import literal_spans_of, scrub, scrub_name


def _rewrite(texts: Sequence[bytes], drop: frozenset[bytes]) -> dict[str, Any]:
    import git_filter_repo as fr

    changed_blobs: set[int] = set()
    commits: dict[str, list[str]] = {}

    def blob_callback(blob: Any, _meta: Any) -> None:
        if where := literal_spans_of(blob.data, texts):
            blob.data = scrub(blob.data, where)
            changed_blobs.add(blob.id)

    def commit_callback(commit: Any, _meta: Any) -> None:
        what: list[str] = []
        for field in (
            "message", "author_name", "author_email", "committer_name", "committer_email"
        ):  # fmt: skip
            value = getattr(commit, field)
            if where := literal_spans_of(value, texts):
                setattr(commit, field, scrub(value, where))
                what.append("message")
        kept = []
        for change in commit.file_changes:
            if change.filename in drop:
                what.append("dropped:" + change.filename.decode("utf-8", "replace"))
                continue
            if where := literal_spans_of(change.filename, texts):
                change.filename = scrub_name(change.filename, where)
                what.append("name:" + change.filename.decode("utf-8", "replace"))
            if change.blob_id in changed_blobs:
                what.append("content:" + change.filename.decode("utf-8", "replace"))
            kept.append(change)
        commit.file_changes = kept
        if what:
            commits[commit.original_id.decode()] = sorted(set(what))

    args = fr.FilteringOptions.parse_args(["--force", "--partial", "--quiet"])
    fr.RepoFilter(args, blob_callback=blob_callback, commit_callback=commit_callback).run()
    return {"commits": commits}


def main() -> int:
    spec = json.loads(sys.stdin.read())
    texts = [t.encode("utf-8") for t in spec.get("texts", ()) if t]
    drop = frozenset(p.encode("utf-8") for p in spec.get("drop", ()))
    report = _rewrite(texts, drop)
    with open(spec["report"], "w", encoding="utf-8") as fh:
        json.dump(report, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
