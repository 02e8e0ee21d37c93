"""Every git command line a team home needs, on :mod:`brain.home.git.runner`.

A team home is a clone whose ``main`` follows the team's remote and is only ever
fast-forwarded here. A proposal is made with git's plumbing on a temporary index (the
clone's files and index stay as ``main`` has them) and pushed as a branch; an accepted
one is merged with ``--no-ff`` and pushed without force, so the remote's ``main`` only
ever moves forward; a rejected one's branch is deleted on the remote.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import NamedTuple

from brain.home.git.repo import BRANCH, Repo
from brain.home.git.runner import RepoError, read_blobs, run_git

REMOTE = "origin"
UPSTREAM = f"{REMOTE}/{BRANCH}"
PROPOSALS = "proposals/"
_TRACKED = f"refs/remotes/{REMOTE}/"


class Branch(NamedTuple):
    """A proposal branch on the team's remote, as last fetched."""

    name: str  # proposals/<member>/<key>-<id>
    sha: str


class TeamRepo(Repo):
    """A team home's git repository."""

    def identity(self) -> str:
        """Who works here, as git names them (``Name``), or this machine's name."""
        out = run_git(self.path, "var", "GIT_AUTHOR_IDENT", ok=(0, 128))
        text = out.text.strip()
        if out.returncode != 0 or not text:
            from brain.home.journal import machine_name

            return machine_name()
        return text.split(" <", 1)[0].strip() or text

    def fetch_all(self) -> None:
        """Fetch the remote, its deleted branches forgotten here too."""
        self._git("fetch", "--quiet", "--prune", REMOTE)

    def fast_forward(self) -> None:
        """Move ``main`` and the files to the remote's ``main`` (refused if not a
        fast-forward: nothing here commits to ``main`` without pushing it)."""
        self._git("merge", "--ff-only", "--quiet", UPSTREAM)

    def upstream(self) -> str:
        """The sha of the remote's ``main`` as last fetched ('' when it has none)."""
        return self.rev(UPSTREAM)

    def proposals(self) -> list[Branch]:
        """The proposal branches on the remote, as last fetched, by name."""
        out = self._git("for-each-ref", "--format=%(refname)%00%(objectname)", _TRACKED + PROPOSALS)
        found = []
        for line in out.splitlines():
            ref, _, sha = line.partition("\0")
            found.append(Branch(ref.removeprefix(_TRACKED), sha))
        return sorted(found)

    def propose(self, rel: str, text: str, message: str, branch: str) -> str:
        """Commit ``text`` as the file ``rel`` on top of the remote's ``main`` and push it
        as ``branch``; the clone's own files and index are not touched. Returns the sha."""
        base = self.upstream()
        if not base:
            raise RepoError("the team's remote has no main branch yet")
        blob = self._git("hash-object", "-w", "--stdin", stdin=text.encode()).strip()
        with tempfile.TemporaryDirectory(prefix="brain-team-") as scratch:
            env = {"GIT_INDEX_FILE": os.path.join(scratch, "index")}
            run_git(self.path, "read-tree", base, env=env)
            run_git(self.path, "update-index", "--add", "--cacheinfo",
                    f"100644,{blob},{rel}", env=env)  # fmt: skip
            tree = run_git(self.path, "write-tree", env=env).text.strip()
        sha = self._commit_tree(tree, "-p", base, "-m", message)
        self._git("push", "--quiet", REMOTE, f"{sha}:refs/heads/{branch}")
        self._git("update-ref", _TRACKED + branch, sha)
        return sha

    def base_of(self, sha: str) -> str:
        """Where a proposal left ``main``: its merge base with the remote's ``main``."""
        return self._git("merge-base", UPSTREAM, sha).strip()

    def changed_since(self, base: str, rel: str) -> list[str]:
        """The commits on the remote's ``main`` since ``base`` that changed ``rel``."""
        out = self._git("log", "--format=%H", f"{base}..{UPSTREAM}", "--", rel)
        return out.split()

    def file_at(self, rev: str, rel: str) -> str | None:
        """The text of ``rel`` at ``rev``, or None when it has none."""
        data = read_blobs(self.path, [f"{rev}:{rel}"])[0]
        return None if data is None else data.decode("utf-8", "replace")

    def message_of(self, sha: str) -> str:
        """A commit's whole message."""
        return self._git("log", "-n1", "--format=%B", sha).strip()

    def diff(self, base: str, sha: str) -> str:
        """What a proposal changes against where it left ``main``."""
        return self._git("diff", "--no-renames", base, sha)

    def accept(self, branch: Branch, message: str) -> str:
        """Merge ``branch`` into ``main`` with one merge commit and push ``main`` (never
        forced); then delete the branch on the remote. Returns the merge's sha.

        Raises:
            RepoError: the merge or the push failed; ``main`` is put back where the
                remote has it, so nothing half-done is left here.
        """
        self.fast_forward()
        try:
            self._git("merge", "--no-ff", "--quiet", "-m", message, branch.sha,
                      env=self._identity())  # fmt: skip
            self._git("push", "--quiet", REMOTE, f"{BRANCH}:{BRANCH}")
        except RepoError:
            self.reset_to_upstream()
            raise
        self.delete_branch(branch.name)
        return self.rev("HEAD")

    def commit_and_push(self, paths: list[str], message: str) -> str:
        """Commit ``paths`` on ``main`` and push it (never forced); put back on failure."""
        self.fast_forward()
        try:
            sha = self.commit(paths, message)
            self._git("push", "--quiet", REMOTE, f"{BRANCH}:{BRANCH}")
        except RepoError:
            self.reset_to_upstream()
            raise
        return sha

    def reset_to_upstream(self) -> None:
        """Put ``main``, git's index and the files back as the remote's ``main`` has them
        (a merge not pushed is dropped here; the remote never had it)."""
        run_git(self.path, "merge", "--abort", ok=(0, 1, 128))
        self._git("reset", "--hard", "--quiet", UPSTREAM)

    def delete_branch(self, name: str) -> None:
        """Delete the branch ``name`` on the remote (and its tracking ref here)."""
        self._git("push", "--quiet", REMOTE, "--delete", name)
        run_git(self.path, "update-ref", "-d", _TRACKED + name, ok=(0, 1))

    def push_main(self) -> None:
        """Push ``main`` to the remote and make it the remote's default branch."""
        self._git("push", "--quiet", "-u", REMOTE, f"{BRANCH}:{BRANCH}")
        url = self.remotes().get(REMOTE, "")
        if url and Path(url).is_dir() and self.remote_head_unborn(url):
            self.point_remote_head(url)
