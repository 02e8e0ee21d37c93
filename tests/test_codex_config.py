"""brain's table in Codex's config.toml next to what Codex itself writes there (the real
Codex writing it is in tests/e2e/test_codex_config.py)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brain.agents import codex_config
from brain.agents.setup import TOML_BEGIN, TOML_END
from tests.helpers import cli

MINE = 'model = "o4"\n\n[model_providers.fake]\nname = "fake"\n'
# What Codex 0.171 appends when the person trusts the folder and brain's hooks: toml_edit
# puts new tables after the last one, before the file's trailing comment.
CODEX_TRUST = (
    '\n[tui]\nscreen_reader_detection_done = true\n\n[projects."/tmp/proj"]\n'
    'trust_level = "trusted"\n\n[hooks.state]\n\n'
    '[hooks.state."/h/.codex/hooks.json:session_start:0:0"]\ntrusted_hash = "sha256:ab"\n'
)


def config() -> Path:
    return Path.home() / ".codex" / "config.toml"


def set_up(text: str = "") -> str:
    config().parent.mkdir(exist_ok=True)
    config().write_text(text)
    assert cli("init").exit_code == 0
    done = cli("setup", "codex")
    assert done.exit_code == 0, done.stderr
    return config().read_text()


def test_what_codex_wrote_inside_brains_block_survives_setup_and_uninstall() -> None:
    written = set_up()  # no table of the person's: brain's block ends the file
    assert written.startswith(TOML_BEGIN) and written.endswith(TOML_END + "\n")
    # As an older brain left it, and Codex then wrote into: before brain's end marker.
    config().write_text(written.removesuffix(TOML_END + "\n") + CODEX_TRUST + TOML_END + "\n")

    assert cli("setup", "codex", "--allow-remember").exit_code == 0
    again = tomllib.loads(config().read_text())
    assert again["projects"] == {"/tmp/proj": {"trust_level": "trusted"}}
    assert again["hooks"]["state"]["/h/.codex/hooks.json:session_start:0:0"]
    assert again["tui"] == {"screen_reader_detection_done": True}
    assert again["mcp_servers"]["brain"]["tools"]["remember"] == {"approval_mode": "approve"}
    text = config().read_text()
    assert text.index(TOML_END) < text.index("[tui]")  # Codex's tables now follow the block

    assert cli("setup", "--uninstall", "codex").exit_code == 0
    assert config().read_text() == CODEX_TRUST.lstrip("\n")


def test_a_new_block_goes_before_the_first_table_and_comes_out_byte_for_byte() -> None:
    written = set_up(MINE)
    assert written.startswith('model = "o4"\n\n' + TOML_BEGIN)
    assert written.endswith(TOML_END + '\n\n[model_providers.fake]\nname = "fake"\n')
    config().write_text(written + CODEX_TRUST)  # Codex appends after the last table
    assert cli("setup", "codex").stdout.count("no change") == 2
    assert cli("setup", "--uninstall", "codex").exit_code == 0
    assert config().read_text() == MINE + CODEX_TRUST


def rewritten_by_codex(text: str) -> str:
    """``text`` as ``codex mcp add`` writes it back: comments dropped, tables reordered,
    a long string as a multi-line literal, and another server added."""
    entry = tomllib.loads(text)["mcp_servers"]["brain"]
    args = entry["args"]
    script = "'''\n" + args[1] + "'''"
    rest = ", ".join(json.dumps(a) for a in args[2:])
    tools = "".join(
        f'\n[mcp_servers.brain.tools.{name}]\napproval_mode = "approve"\n'
        for name in sorted(entry["tools"])
    )
    return (
        MINE + '\n[mcp_servers.brain]\ncommand = "/bin/sh"\n'
        f'args = ["-c", {script}, {rest}]\nrequired = true\nstartup_timeout_sec = 20.0\n'
        f'{tools}\n[mcp_servers.other]\ncommand = "echo"\nargs = ["hi"]\n{TOML_END}'
    )


def test_a_file_codex_rewrote_without_the_markers_is_still_brains_to_edit() -> None:
    changed = rewritten_by_codex(set_up(MINE))
    assert TOML_BEGIN not in changed and '\n[ "$ok" = 1 ] && exec' in changed
    config().write_text(changed)

    assert cli("setup", "codex").exit_code == 0
    text = config().read_text()
    assert text.count(TOML_BEGIN) == 1 and text.count("[mcp_servers.brain]") == 1
    assert tomllib.loads(text)["mcp_servers"]["other"] == {"command": "echo", "args": ["hi"]}
    assert "would stop" not in cli("doctor", "codex").stdout

    config().write_text(changed)
    assert cli("setup", "--uninstall", "codex").exit_code == 0
    assert config().read_text() == MINE + '\n[mcp_servers.other]\ncommand = "echo"\nargs = ["hi"]\n'


def test_uninstall_changes_no_file_when_one_cannot_be_edited() -> None:
    set_up(MINE)
    hooks = config().with_name("hooks.json")
    before = hooks.read_text()
    theirs = MINE + '\n[mcp_servers.brain]\ncommand = "node"\nargs = ["their-brain.js"]\n'
    config().write_text(theirs)

    done = cli("setup", "--uninstall", "codex")
    assert done.exit_code == 1
    assert "already has an [mcp_servers.brain] table brain did not write" in done.stderr
    assert hooks.read_text() == before and config().read_text() == theirs
    assert cli("setup", "codex").exit_code == 1
    assert hooks.read_text() == before

    doctor = cli("doctor", "codex")
    assert doctor.exit_code == 1
    assert (
        "problem: 'brain setup codex' and its uninstall would stop, changing nothing: "
        f"{config()}: already has an [mcp_servers.brain] table brain did not write"
    ) in doctor.stdout
    assert "to do: remove it by hand, then run 'brain setup codex' again" in doctor.stdout


@pytest.mark.parametrize(
    "form",
    [
        '[mcp_servers]\nbrain = {command = "/b/brain", args = ["mcp"]}\n',
        'mcp_servers.brain.command = "/x/brain"\nmcp_servers.brain.args = ["mcp"]\n',
    ],
)
def test_brains_table_in_a_form_lines_cannot_take_out_is_refused(form: str) -> None:
    with pytest.raises(codex_config.TomlEditError, match="cannot\\s+edit without touching"):
        codex_config.edit(form, None, "config.toml")


def test_a_header_inside_a_multi_line_value_is_no_table() -> None:
    text = (
        '[mcp_servers.brain]\ncommand = "/bin/sh"\nargs = ["-c", """\n[not.a.table]\n""",'
        ' "brain-mcp", "/b", "mcp"]\n\n[mine]\nx = [\n  [1, 2],\n]\n'
    )
    assert codex_config.edit(text, None, "config.toml") == "[mine]\nx = [\n  [1, 2],\n]\n"


def test_a_file_that_is_not_toml_is_left_alone() -> None:
    with pytest.raises(codex_config.TomlEditError, match="not valid TOML"):
        codex_config.edit("[broken\n", None, "config.toml")


_NAMES = st.text("abcxyz_", min_size=1, max_size=6)
_VALUES = st.one_of(
    st.integers(-5, 5),
    st.text("ab [] \"'#\n=", max_size=12),
    st.lists(st.text("[]ab", max_size=3), max_size=3),
)
_TABLES = st.lists(
    st.tuples(_NAMES, st.dictionaries(_NAMES, _VALUES, max_size=3)),
    max_size=4,
    unique_by=lambda t: t[0],
)


def _toml(tables: list[tuple[str, dict[str, object]]], top: dict[str, object]) -> str:
    """A TOML file of ``top``'s keys and ``tables``, values as JSON (TOML takes those);
    a string with a line break as a multi-line literal string, as Codex writes one."""

    def value(v: object) -> str:
        if isinstance(v, str) and "\n" in v and "'''" not in v:
            return "'''\n" + v + "'''"
        return json.dumps(v)

    lines = [f"{k} = {value(v)}" for k, v in top.items()]
    for name, body in tables:
        lines += ["", f"[t.{name}]", *(f"{k} = {value(v)}" for k, v in body.items())]
    return "\n".join(lines) + "\n" if lines else ""


@settings(max_examples=150, deadline=None)
@given(
    top=st.dictionaries(_NAMES, _VALUES, max_size=2),
    mine=_TABLES,
    appended=_TABLES,
    write=st.booleans(),
)
def test_brains_block_goes_in_and_out_keeping_every_other_table(
    top: dict[str, object],
    mine: list[tuple[str, dict[str, object]]],
    appended: list[tuple[str, dict[str, object]]],
    write: bool,
) -> None:
    from brain.agents.setup import _toml_block

    text = _toml(mine, top)
    block = _toml_block({"command": "/x/brain", "args": ["--home", "/h", "mcp"]}, write)
    written = codex_config.edit(text, block, "config.toml")
    assert codex_config.edit(written, None, "config.toml") == text  # byte for byte
    assert codex_config.edit(written, block, "config.toml") == written  # again: no change

    # Tables another program appends after brain's (Codex's trust) survive both.
    extra = [(f"z{name}", body) for name, body in appended]
    tables = _toml(extra, {}).replace("[t.", "[u.")
    if written.endswith(TOML_END + "\n"):  # as toml_edit does: before the trailing comment
        codex = written.removesuffix(TOML_END + "\n") + tables + TOML_END + "\n"
    else:
        codex = written + tables
    wanted = tomllib.loads(codex)
    kept = codex_config.edit(codex, None, "config.toml")
    assert tomllib.loads(kept) == {k: v for k, v in wanted.items() if k != "mcp_servers"}
    again = tomllib.loads(codex_config.edit(codex, block, "config.toml"))
    assert again == wanted
