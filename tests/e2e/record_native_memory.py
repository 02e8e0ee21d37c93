"""Record tests/fixtures/native-memory: the pinned CLIs write their own memory files.

    python -m tests.e2e.record_native_memory OUT_DIR

Claude Code and Gemini CLI run headless in a scratch HOME against the scripted model
server (tests/e2e/servers.py), which asks them to save memories with their own file
tools, as a real model does when told "remember"; the files they leave are copied into
``OUT_DIR/claude/memory`` and ``OUT_DIR/gemini``. Codex writes no memory headless (see
the fixtures' README), so it is not driven here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.e2e import conftest
from tests.e2e.servers import ModelServer, Reply

FEEDBACK = """---
name: no-fabricated-results
description: Never report a test as passing without running it
metadata:
  type: feedback
---
Run the tests before saying they pass.

**Why:** a claimed pass that was never run hid a regression.
**How to apply:** paste the pytest summary line; see [[staging-deploy-window]].
"""
PROJECT = """---
name: staging-deploy-window
description: Staging deploys only between 09:00 and 16:00 UTC
metadata:
  type: project
---
Deploys to staging are frozen outside 09:00-16:00 UTC (decided 2026-11-30).

**Why:** the QA team runs the nightly suite against staging.
**How to apply:** schedule deploy jobs inside the window.
"""
CLAUDE_INDEX = (
    "- [No fabricated results](feedback_no-fabricated-results.md) — run tests before claiming"
    " a pass\n- [Staging deploy window](project_staging-deploy-window.md) — 09:00-16:00 UTC"
    " only\n"
)
GEMINI_GLOBAL = (
    "## Gemini Added Memories\n- I prefer pnpm over npm for every JavaScript project.\n"
    "- My preferred test runner is vitest, with coverage on.\n"
)
GEMINI_NOTE = (
    "# Local database\n\nThe local Postgres listens on port 5433 (5432 is taken by the system "
    "one). Start it with `docker compose up db`.\n"
)
GEMINI_INDEX = (
    "- On this machine, run the test suite with `make test-local`, not `make test`.\n"
    "- [Local database](local-db.md) — port 5433 and how to start it\n"
)


def _run(agent: conftest.Agent, args: list[str], project: Path) -> None:
    done = subprocess.run(
        [*agent.command, *args],
        cwd=project,
        env=agent.env,
        capture_output=True,
        text=True,
        timeout=conftest.TIMEOUT,
        stdin=subprocess.DEVNULL,
    )
    if done.returncode != 0:
        raise SystemExit(f"{agent.name} failed:\n{done.stdout}\n{done.stderr}")


def record_claude(home: Path, project: Path, out: Path) -> None:
    memory = home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(project)) / "memory"
    model = ModelServer().start()
    model.push(
        Reply(
            tool="Write",
            args={
                "file_path": str(memory / "feedback_no-fabricated-results.md"),
                "content": FEEDBACK,
            },
        ),
        Reply(
            tool="Write",
            args={
                "file_path": str(memory / "project_staging-deploy-window.md"),
                "content": PROJECT,
            },
        ),
        Reply(tool="Write", args={"file_path": str(memory / "MEMORY.md"), "content": CLAUDE_INDEX}),
        Reply(text="Saved both to memory."),
    )
    prompt = (
        "Remember: never report a test as passing without running it; staging deploys 09-16 UTC."
    )
    _run(conftest.claude_agent(model), ["-p", prompt], project)
    model.stop()
    shutil.copytree(memory, out / "claude" / "memory", dirs_exist_ok=True)


def record_gemini(home: Path, project: Path, out: Path) -> None:
    gemini = home / ".gemini"
    private = gemini / "tmp" / project.name / "memory"  # the short id is the root's name
    model = ModelServer().start()
    model.push(
        Reply(
            tool="write_file",
            args={"file_path": str(gemini / "GEMINI.md"), "content": GEMINI_GLOBAL},
        ),
        Reply(
            tool="write_file",
            args={"file_path": str(private / "local-db.md"), "content": GEMINI_NOTE},
        ),
        Reply(
            tool="write_file",
            args={"file_path": str(private / "MEMORY.md"), "content": GEMINI_INDEX},
        ),
        Reply(text="Saved."),
    )
    prompt = "Remember: I prefer pnpm and vitest; here the db is on 5433, run make test-local."
    _run(conftest.gemini_agent(model), ["--approval-mode", "yolo", "-p", prompt], project)
    model.stop()
    dest = out / "gemini"
    (dest / "tmp" / project.name).mkdir(parents=True, exist_ok=True)
    for name in ("GEMINI.md", "projects.json"):
        shutil.copy(gemini / name, dest / name)
    root_marker = gemini / "tmp" / project.name / ".project_root"
    shutil.copy(root_marker, dest / "tmp" / project.name / ".project_root")
    shutil.copytree(private, dest / "tmp" / project.name / "memory", dirs_exist_ok=True)


def main(out: Path) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="native-memory-"))
    home = scratch / "user"
    project = home / "src" / "shop"
    project.mkdir(parents=True)
    os.environ["HOME"] = str(home)
    os.environ["GIT_CONFIG_GLOBAL"] = str(scratch / "gitconfig")
    (scratch / "gitconfig").write_text("[user]\n\tname = Recorder\n\temail = rec@example.invalid\n")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    record_claude(home, project, out)
    record_gemini(home, project, out)
    shutil.rmtree(scratch)


if __name__ == "__main__":
    main(Path(sys.argv[1]).absolute())
