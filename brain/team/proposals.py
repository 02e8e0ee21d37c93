"""Proposals: how a record reaches a team, and how a person lets it in or keeps it out.

``propose`` pushes one commit on a branch ``proposals/<member>/<key>-<id>`` holding the
record (redacted and checked as any write is, whatever the personal copy says), its
provenance (``proposed_by``, ``proposed_from``: the personal record's id and source) and
the proposer. Nothing else of the person's leaves: only the record named.

``review`` lists the open proposals with their diff; ``accept`` merges one into the team's
``main`` with one merge commit naming the reviewer and pushes it; ``reject`` journals why
in one commit and deletes the branch. A proposal whose key changed on ``main`` since it
was made (another member's proposal accepted first, say) is a conflict: shown as one,
never merged, until it is proposed again from the team's version or rejected.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, NamedTuple

from brain.errors import BrainError
from brain.home.paths import MEMORIES
from brain.team.members import Team, TeamError, member_slug, only_team
from brain.team.repo import PROPOSALS, Branch, TeamRepo

if TYPE_CHECKING:
    from brain.home.home import Home

JOURNAL = "journal.jsonl"


class ProposalConflictError(BrainError):
    """A proposal on a key the team's main changed since it was made."""

    def __init__(self, proposal: Proposal) -> None:
        commits = ", ".join(c[:10] for c in proposal.conflict)
        super().__init__(
            f"the team's record {proposal.key} changed since {proposal.id} was proposed "
            f"(commit {commits}); it was not merged",
            hint="see both with 'brain team review'; the proposer proposes again from the "
            f"team's version, or reject it with 'brain team reject {proposal.id} --reason …'",
        )
        self.proposal = proposal


class Proposed(NamedTuple):
    """A record proposed: its branch, id and commit, and whether text was redacted."""

    team: str
    id: str
    key: str
    branch: str
    sha: str
    redacted: bool


class Proposal(NamedTuple):
    """An open proposal as a reviewer sees it."""

    team: str
    id: str
    key: str
    member: str
    branch: str
    sha: str
    proposer: str
    message: str
    diff: str
    conflict: tuple[str, ...]  # the commits of main that changed its key since


class Reviewed(NamedTuple):
    """A proposal accepted or rejected: the commit on the team's main that says so."""

    team: str
    id: str
    key: str
    action: str  # accepted | rejected
    sha: str
    reviewer: str


def _rel(key: str) -> str:
    return f"{MEMORIES}/{key}.md"


def record_text(home: Home, key: str, proposer: str) -> tuple[str, bool]:
    """The text of personal record ``key`` as a team receives it: every field redacted
    as a write redacts it, the key refused if it holds a credential, and provenance
    added. Returns the text and whether anything was redacted."""
    from brain.home.records import load, render
    from brain.home.secrets.keysecrets import validate_new_key
    from brain.home.secrets.redact import redact_fields
    from brain.home.secrets.together import redact_together

    path = home.record_path(key)
    if not path.is_file():
        raise TeamError(f"no record {key!r} to propose", hint="'brain list' names your records")
    record = load(path)
    validate_new_key(record.key)
    description, body = redact_together([record.description, record.body])
    extra = {
        **redact_fields(dict(record.extra)),
        "proposed_by": redact_fields(proposer),
        "proposed_from": record.id,
    }
    clean = record.evolve(
        description=description,
        body=body,
        tags=tuple(redact_fields(list(record.tags))),
        source=redact_fields(record.source) if record.source else record.source,
        extra=extra,
    )
    text = render(clean)
    redacted = (description, body) != (record.description, record.body) or clean.tags != record.tags
    return text, redacted


def propose(home: Home, key: str, team: str | None = None) -> Proposed:
    """Propose personal record ``key`` to a team (the one joined, or ``team``)."""
    chosen = only_team(home.path, team)
    repo = TeamRepo(chosen.path)
    proposer = repo.identity()
    text, redacted = record_text(home, key, proposer)
    from brain.home.records import iso, utcnow

    when = iso(utcnow())
    short = hashlib.sha256(f"{text}\0{when}\0{proposer}".encode()).hexdigest()[:8]
    branch = f"{PROPOSALS}{member_slug(proposer)}/{key}-{short}"
    message = f"propose: {key}\n\nProposed-by: {proposer}\nProposal: {branch}\n"
    repo.fetch_all()
    sha = repo.propose(_rel(key), text, message, branch)
    return Proposed(chosen.name, short, key, branch, sha, redacted)


def _parse(branch: Branch) -> tuple[str, str, str]:
    """(member, key, id) of a proposal branch ``proposals/<member>/<key>-<id>``."""
    member, _, rest = branch.name.removeprefix(PROPOSALS).partition("/")
    key, _, short = rest.rpartition("-")
    return member, key, short


def _proposal(team: Team, repo: TeamRepo, branch: Branch) -> Proposal:
    member, key, short = _parse(branch)
    base = repo.base_of(branch.sha)
    message = repo.message_of(branch.sha)
    proposer = next(
        (
            line.split(":", 1)[1].strip()
            for line in message.splitlines()
            if line.startswith("Proposed-by:")
        ),
        member,
    )
    return Proposal(
        team.name,
        short,
        key,
        member,
        branch.name,
        branch.sha,
        proposer,
        message,
        repo.diff(base, branch.sha),
        tuple(repo.changed_since(base, _rel(key))),
    )


def review(home: Home, team: str | None = None, *, fetch: bool = True) -> list[Proposal]:
    """The open proposals of a team, fetched first, each with its diff and conflict."""
    chosen = only_team(home.path, team)
    repo = TeamRepo(chosen.path)
    if fetch:
        repo.fetch_all()
        repo.fast_forward()
    return [_proposal(chosen, repo, b) for b in repo.proposals()]


def find(home: Home, proposal: str, team: str | None = None) -> tuple[Team, TeamRepo, Proposal]:
    """The open proposal named by its id, its branch, or ``<key>-<id>``."""
    chosen = only_team(home.path, team)
    repo = TeamRepo(chosen.path)
    repo.fetch_all()
    repo.fast_forward()
    wanted = proposal.strip().removeprefix(PROPOSALS)
    for branch in repo.proposals():
        member, key, short = _parse(branch)
        if wanted in {short, f"{key}-{short}", f"{member}/{key}-{short}"}:
            return chosen, repo, _proposal(chosen, repo, branch)
    raise TeamError(
        f"no open proposal {proposal!r} in team {chosen.name}",
        hint="'brain team review' lists the open ones (accepted or rejected ones are closed)",
    )


def accept(home: Home, proposal: str, team: str | None = None) -> Reviewed:
    """Merge an open proposal into the team's main (one merge commit naming the
    reviewer) and push it; a conflict is raised, never merged."""
    chosen, repo, found = find(home, proposal, team)
    if found.conflict:
        raise ProposalConflictError(found)
    reviewer = repo.identity()
    message = (
        f"accept: {found.key} from {found.proposer}\n\n"
        f"Proposed-by: {found.proposer}\nReviewed-by: {reviewer}\nProposal: {found.branch}\n"
    )
    sha = repo.accept(Branch(found.branch, found.sha), message)
    return Reviewed(chosen.name, found.id, found.key, "accepted", sha, reviewer)


def reject(home: Home, proposal: str, reason: str, team: str | None = None) -> Reviewed:
    """Journal why an open proposal is not taken (one commit on main, pushed) and delete
    its branch: it reaches nobody."""
    from brain.home.records import iso, utcnow
    from brain.home.secrets.redact import redact

    if not reason.strip():
        raise TeamError("a rejection needs a reason", hint="add --reason 'why not'")
    chosen, repo, found = find(home, proposal, team)
    reviewer = repo.identity()
    reason = " ".join(redact(reason).split())
    line = {
        "ts": iso(utcnow()),
        "op": "reject",
        "key": found.key,
        "proposal": found.branch,
        "proposed_by": found.proposer,
        "by": reviewer,
        "reason": reason,
    }
    path = chosen.path / JOURNAL
    with path.open("a", encoding="utf-8") as journal:
        journal.write(json.dumps(line, ensure_ascii=False) + "\n")
    message = (
        f"reject: {found.key} from {found.proposer}: {reason}\n\n"
        f"Proposed-by: {found.proposer}\nReviewed-by: {reviewer}\nProposal: {found.branch}\n"
    )
    sha = repo.commit_and_push([JOURNAL], message)
    repo.delete_branch(found.branch)
    return Reviewed(chosen.name, found.id, found.key, "rejected", sha, reviewer)


def open_request(home: Home, proposed: Proposed) -> str:
    """Open a pull (merge) request for a proposal branch with ``gh`` (a GitHub remote)
    or ``glab`` (GitLab), and return what it printed (its URL), or why none was opened."""
    import shutil
    import subprocess

    from brain.team.members import get

    url = get(home.path, proposed.team).url
    title = f"brain: propose {proposed.key}"
    body = f"A record proposed to team {proposed.team} ({proposed.branch}). Review it with "
    body += f"'brain team review'; accept with 'brain team accept {proposed.id}'."
    if "github" in url:
        tool, args = "gh", ["pr", "create", "--head", proposed.branch, "--base", "main"]
        args += ["--title", title, "--body", body]
    elif "gitlab" in url:
        tool, args = "glab", ["mr", "create", "--source-branch", proposed.branch]
        args += ["--target-branch", "main", "--title", title, "--description", body, "--yes"]
    else:
        return "not opened: the team's remote is neither on GitHub nor on GitLab"
    if shutil.which(tool) is None:
        return f"not opened: {tool} is not installed (the proposal branch is pushed)"
    done = subprocess.run(
        [tool, *args], cwd=get(home.path, proposed.team).path, capture_output=True, text=True
    )
    if done.returncode != 0:
        return f"not opened: {tool} said {done.stderr.strip() or done.returncode}"
    return done.stdout.strip()
