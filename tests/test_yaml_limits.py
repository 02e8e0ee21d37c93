"""YAML the home holds (settings, frontmatter) is read within limits: an alias bomb or
deep nesting is refused in one line that names the file, and nothing stored is lost."""

from __future__ import annotations

import itertools
import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.yaml import limits as yamllimits
from brain.sessions.sources.claude_memory import read_memory_dir
from tests.helpers import git

# A billion laughs in under 400 bytes: nine levels, each naming the one before nine times.
BOMB = "\n".join(
    ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    + [
        f"{name}: &{name} [{','.join(['*' + prev] * 9)}]"
        for prev, name in itertools.pairwise("abcdefghi")
    ]
)
DEEP = "a: " + "[" * 100_000 + "]" * 100_000
NEARLY_DEEP = "a: " + "[" * 900 + "]" * 900  # under libyaml's own limit of 1,000
# What the command may use: the bomb took 4.5 GB before it was refused.
MEMORY_CAP = 1024 * 1024 * 1024


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def capped(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """brain as a subprocess that cannot take more than MEMORY_CAP of memory."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))

    return subprocess.run(
        [sys.executable, "-m", "brain", *args],
        capture_output=True,
        text=True,
        input=stdin,
        preexec_fn=cap,
    )


def test_the_bomb_is_small() -> None:
    assert len(BOMB) < 400 and BOMB.count("*") == 72


@pytest.mark.parametrize(
    ("text", "problem", "line"),
    [
        (BOMB, "refused, an alias (*a), which is not allowed here", 2),
        (DEEP, f"refused, nested more than {yamllimits.MAX_DEPTH} deep", 1),
        (NEARLY_DEEP, f"refused, nested more than {yamllimits.MAX_DEPTH} deep", 1),
    ],
    ids=["alias-bomb", "100k-brackets", "900-brackets"],
)
@pytest.mark.parametrize("name", ["brain.yaml", "local.yaml"])
def test_settings_over_a_limit_fail_in_one_line_naming_the_file(
    brain: Brain, name: str, text: str, problem: str, line: int
) -> None:
    path = brain.path / name
    path.write_text(text + "\n")
    for command in (["status"], ["config", "list"]):
        done = capped(*command)
        assert done.returncode == 1, done.stderr
        assert done.stderr.count("\n") == 1, done.stderr  # one line, no traceback
        assert done.stderr.startswith(f"Error: {path}:{line}: {problem}; write each setting")
    assert path.read_text() == text + "\n"  # nothing rewritten


def test_brain_yaml_refused_says_where_its_earlier_text_is(brain: Brain) -> None:
    (brain.path / "brain.yaml").write_text(BOMB)
    done = capped("config", "get", "max_tokens_per_run")
    earlier = f"(its earlier text: git -C {brain.path} log -p -- brain.yaml)"
    assert done.stderr.rstrip().endswith(earlier)


def test_an_alias_in_the_settings_is_refused_even_when_harmless(brain: Brain) -> None:
    (brain.path / "brain.yaml").write_text("max_age_days: &n 30\nmax_rollout_age_days: *n\n")
    done = capped("status")
    assert done.returncode == 1 and "an alias (*n), which is not allowed here" in done.stderr


def test_settings_too_long_are_refused_before_they_are_read(brain: Brain) -> None:
    path = brain.path / "brain.yaml"
    path.write_text("# " + "x" * yamllimits.MAX_SETTINGS_BYTES + "\n")
    done = capped("status")
    size = path.stat().st_size
    assert done.stderr.startswith(
        f"Error: {path}: refused, {size:,} bytes of YAML, over the 262,144 allowed;"
    )


def test_config_set_refuses_to_rewrite_a_bomb(brain: Brain) -> None:
    path = brain.path / "local.yaml"
    path.write_text(BOMB)
    done = capped("config", "set", "extract_model", "builtin")
    assert done.returncode == 1 and "refused, an alias (*a)" in done.stderr
    assert path.read_text() == BOMB


def test_session_start_fails_open_on_a_bomb_and_logs_the_file(brain: Brain, tmp_path: Path) -> None:
    (brain.path / "brain.yaml").write_text(BOMB)
    payload = json.dumps({"hook_event_name": "SessionStart", "cwd": str(tmp_path)})
    done = capped("hook", "session-start", "--tool", "claude-code", stdin=payload)
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] == ""
    log = (brain.path / ".brain" / "logs" / "hooks.log").read_text()
    assert f"ConfigError: {brain.path}/brain.yaml:2: refused, an alias (*a)" in log


@pytest.mark.parametrize(
    ("head", "problem"),
    [
        (BOMB, "its aliases expand to more than 100,000 values"),
        (DEEP, f"nested more than {yamllimits.MAX_DEPTH} deep"),
        (NEARLY_DEEP, f"nested more than {yamllimits.MAX_DEPTH} deep"),
        ("a: &a [*a]", "a value contains itself (a recursive alias)"),
    ],
    ids=["alias-bomb", "100k-brackets", "900-brackets", "recursive"],
)
def test_a_record_over_a_limit_is_unreadable_and_the_rest_still_work(
    brain: Brain, head: str, problem: str
) -> None:
    brain.remember("Deploys go out on Tuesdays.", key="deploy-day")
    path = brain.path / "memories" / "odd.md"
    text = f"---\nid: 20260101-000000000-aaaaaa\ntype: fact\n{head}\n---\nThe body.\n"
    path.write_text(text)
    done = capped("list")
    assert done.returncode == 0 and "deploy-day" in done.stdout
    assert f"warning: {path}:" in done.stderr and problem in done.stderr
    assert done.stderr.count("\n") == 1
    shown = capped("show", "odd")
    assert shown.returncode == 1 and shown.stderr.count("\n") == 1
    assert f"frontmatter refused, {problem}; fix it with 'brain edit odd'" in shown.stderr
    assert path.read_text() == text
    assert "odd.md" in git(brain.path, "status", "--porcelain")  # still there, untouched


def test_a_few_aliases_in_a_frontmatter_still_read(brain: Brain) -> None:
    path = brain.path / "memories" / "aliased.md"
    path.write_text(
        "---\nid: 20260101-000000000-bbbbbb\ntype: fact\ndescription: Aliased tags\n"
        "tags: &t [ops, deploy]\nalso: *t\n---\nA hand-made record.\n"
    )
    [record] = [r for r in brain.records() if getattr(r, "key", None) == "aliased"]
    assert record.tags == ("ops", "deploy") and record.extra["also"] == ["ops", "deploy"]


def test_the_token_walk_stops_at_the_limit_however_long_the_input() -> None:
    class FlowSequenceStartToken:  # the scanner's token for '['
        start_mark = None

    endless = (FlowSequenceStartToken() for _ in itertools.count())
    with pytest.raises(yamllimits.YamlLimitError, match="nested more than 64 deep"):
        yamllimits.check_tokens(endless, aliases=True)
    assert next(endless) is not None  # the walk left the rest unread


def test_expansion_is_counted_on_nodes_before_any_value_is_made() -> None:
    with pytest.raises(yamllimits.YamlLimitError, match="expand to more than 100,000") as err:
        yamllimits.load(BOMB)
    assert err.value.line == 6  # 'f', the first level past 100,000 values
    assert yamllimits.load("a: &x [1, 2]\nb: *x\n") == {"a": [1, 2], "b": [1, 2]}


def test_a_tools_memory_file_with_a_bomb_is_kept_whole_as_its_body(tmp_path: Path) -> None:
    directory = tmp_path / "memory"
    directory.mkdir()
    (directory / "bomb.md").write_text(f"---\n{BOMB}\n---\nuse uv\n")
    [memory] = read_memory_dir(directory)
    assert memory.name == "bomb" and "use uv" in memory.body and "lol" in memory.body
