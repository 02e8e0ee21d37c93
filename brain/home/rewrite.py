"""The history rewrite of ``brain purge``, run by git-filter-repo in a process of its own.

git-filter-repo is used as a library (its callbacks are Python, here), in a child
process started by :mod:`brain.home.purge` in a bare copy of the home: filter-repo works
on the current directory, prints as it goes and exits on an error, and none of that
may reach brain's own process. A rewrite that fails leaves only the copy broken.

Reads a JSON object on stdin: ``text`` (the literal to write over, or null), ``drop``
(paths to take out of every commit) and ``report`` (where to write what was changed).
The report lists each commit the callbacks changed: its old id, and whether its message,
a file's content, a file's name or a dropped file changed it.

This module is the only one that imports ``git_filter_repo``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from brain.home.purgetext import literal_spans, scrub, scrub_name


def _rewrite(text: bytes | None, drop: frozenset[bytes]) -> dict[str, Any]:
    import git_filter_repo as fr

    changed_blobs: set[int] = set()
    commits: dict[str, list[str]] = {}

    def blob_callback(blob: Any, _meta: Any) -> None:
        if text is not None and text in blob.data:
            blob.data = scrub(blob.data, literal_spans(blob.data, text))
            changed_blobs.add(blob.id)

    def commit_callback(commit: Any, _meta: Any) -> None:
        what: list[str] = []
        if text is not None:
            for field in ("message", "author_name", "author_email"):
                value = getattr(commit, field)
                if text in value:
                    setattr(commit, field, scrub(value, literal_spans(value, text)))
                    what.append("message")
            for field in ("committer_name", "committer_email"):
                value = getattr(commit, field)
                if text in value:
                    setattr(commit, field, scrub(value, literal_spans(value, text)))
                    what.append("message")
        kept = []
        for change in commit.file_changes:
            if change.filename in drop:
                what.append("dropped:" + change.filename.decode("utf-8", "replace"))
                continue
            if text is not None and text in change.filename:
                change.filename = scrub_name(change.filename, literal_spans(change.filename, text))
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
    text = spec["text"].encode("utf-8") if spec.get("text") else None
    drop = frozenset(p.encode("utf-8") for p in spec.get("drop", ()))
    report = _rewrite(text, drop)
    with open(spec["report"], "w", encoding="utf-8") as fh:
        json.dump(report, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
