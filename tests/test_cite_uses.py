"""Closing the loop: a record an agent cites in a harvested transcript gains a use."""

from __future__ import annotations

import json
from pathlib import Path

from brain.api import Brain
from brain.home.uses.counts import all_uses, copy_name, tallies
from tests.helpers import cli, cli_json, git

ANSWER = """Retries stop after six attempts, as the team decided.

<memory_citation>
<citation_entries>
memories/webhook-retry-policy.md:1-12|note=[retry cap]
</citation_entries>
<rollout_ids>
019910a2-0000-7000-8000-000000000001
</rollout_ids>
</memory_citation>"""


def write_session(path: Path) -> None:
    events = [
        {
            "type": "header",
            "format": "brain-transcript",
            "version": 1,
            "session_id": "s-1",
            "source": "aster",
            "project": "/src/hooks",
            "started": "2026-08-22T19:40:00Z",
        },
        {
            "type": "message",
            "role": "user",
            "text": "How many webhook retries do we do?",
            "timestamp": "2026-08-22T19:41:00Z",
        },
        {
            "type": "message",
            "role": "assistant",
            "text": ANSWER,
            "timestamp": "2026-08-22T19:42:00Z",
        },
    ]
    path.write_text("".join(json.dumps(e) + "\n" for e in events))


def test_citations_in_a_harvested_session_count_as_uses(home: Path, tmp_path: Path) -> None:
    brain, _ = Brain.init(home)
    brain.remember("Webhook retries are capped at six.", key="webhook-retry-policy")
    cli("recall", "anything")  # an index exists, so the use is bumped there too
    session = tmp_path / "session.jsonl"
    write_session(session)
    result = cli("sessions", "import", str(session))
    assert result.exit_code == 0, result.stderr
    assert all_uses(brain)["memories/webhook-retry-policy.md"] == 1
    counts = tallies(brain)["memories/webhook-retry-policy.md"]
    assert (counts.cited, counts.recalled) == (1, 0)
    changed = git(home, "show", "--name-only", "--format=", "HEAD").split()
    assert f"uses/{copy_name(brain)}.json" in changed  # folded into the harvest commit
    assert not list((home / "uses").glob("*.jsonl"))
    found = cli_json("cite", "--parse", str(session))
    assert "memories/webhook-retry-policy.md" in json.dumps(found)
