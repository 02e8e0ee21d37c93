"""The background job a finished agent session starts: harvest, extract, consolidate.

:func:`brain.agents.hooks.session_end` starts it detached (``brain hook
after-session``), so the agent never waits on it; it lives apart from the hook
handlers so the session-start hook, which runs before every session, does not load it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brain.agents.hooks import failure_reason

if TYPE_CHECKING:
    from brain.api import Brain


@dataclass(frozen=True, slots=True)
class StepResult:
    """One step of the after-session job and what it said."""

    command: str
    ok: bool
    message: str
    skipped: bool = False  # the step had nothing to do (consolidation under its threshold)


def run_after_session(
    home: Path, transcript: str | None, cwd: str | None = None
) -> list[StepResult]:
    """Harvest the finished session (and mirror the tools' own memories), extract it,
    consolidate if enough has accumulated.

    Runs in the background job. The session is extracted by name, so the idle window
    (meant for sessions found by scanning) does not hold back one its tool says is over.
    Harvest and extract end in one commit (none when nothing changed). Consolidation
    keeps its threshold. A failed step stops the job; the next run of each step picks up
    what was left. ``cwd``, the folder the tool ran in, is a project root the session's
    chat may name by its hash (Gemini CLI's ``projectHash``).
    """
    from brain.api import Brain
    from brain.pipeline.pending import session_label
    from brain.sessions.watermarks import harvested_sessions

    results: list[StepResult] = []
    try:
        brain = Brain.open(home)
        harvested = brain.harvest(
            paths=[transcript] if transcript else None, mirror=True, where=cwd
        )
        results.append(StepResult("brain harvest", True, harvested.message or "nothing new"))
        wanted = {str(Path(transcript).resolve())} if transcript else set()
        labels = [
            session_label(ref)
            for ref in harvested_sessions(brain)
            if str(Path(ref.path).resolve()) in wanted
        ]
        extracted = brain.extract(sessions=labels)
        results.append(_extracted(extracted))
        _fold(brain, harvested, extracted)
        consolidated = brain.consolidate()
        if consolidated.ran:
            results.append(StepResult("brain consolidate", True, _summary(consolidated)))
        else:
            reason = consolidated.reason or "nothing to do"
            results.append(StepResult("brain consolidate", True, reason, skipped=True))
        results.append(_refresh(brain))
    except Exception as exc:  # the job logs and stops; the agent was never waiting on it
        steps = ("brain harvest", "brain extract", "brain consolidate", "brain sync-instructions")
        results.append(StepResult(steps[len(results)], False, failure_reason(exc)))
    return results


def _extracted(extracted: Any) -> StepResult:
    """The extract step: failed when a session failed (the model could not be run or
    answered badly), which the person should hear of, though the run goes on."""
    failed = [s for s in extracted.sessions if s.status == "failed"]
    if not failed:
        return StepResult("brain extract", True, _summary(extracted))
    noun = "session" if len(failed) == 1 else "sessions"
    said = f"{len(failed)} {noun} failed: {failed[0].reason or 'no reason given'}"
    done = extracted.message
    return StepResult("brain extract", False, f"{done}; {said}" if done else said)


def _refresh(brain: Brain) -> StepResult:
    """The instruction file blocks brain wrote, written again with what memory holds now
    (a session's memories reach them at once, consolidated or not)."""
    from brain.agents.instructions import refresh_instructions

    done = refresh_instructions(brain)
    changed = [item.path for item in done if item.action != "unchanged"]
    if not done:
        return StepResult("brain sync-instructions", True, "no block written", skipped=True)
    return StepResult(
        "brain sync-instructions", True, f"{len(changed)} of {len(done)} files updated"
    )


def _fold(brain: Brain, harvested: Any, extracted: Any) -> None:
    """One ended session, one commit: the harvest's folded into the extract's."""
    first, last = harvested.commit, extracted.commit
    if not (first and last and harvested.message and extracted.message):
        return
    message = f"{extracted.message}; {harvested.message}\n\nRun: {extracted.run_id}"
    with brain.transaction():
        brain.repo.fold(first, last, message)


def _summary(result: object) -> str:
    return str(getattr(result, "message", None) or getattr(result, "commit", None) or "done")
