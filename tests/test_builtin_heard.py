"""The built-in model hears how people talk, and reads what the tools did."""

from __future__ import annotations

import json

import pytest

from brain.models.builtin.model import extract
from brain.sessions.sources.base import Transcript, Turn


def _said(*texts: str) -> list[tuple[str, str]]:
    turns = tuple(Turn("user", t, lines=(i + 1, i + 1)) for i, t in enumerate(texts))
    session = Transcript("claude", "s", "/x.jsonl", "/home/ana/shop", turns=turns)
    return [(m.type, m.description) for m in extract(session).memories]


def test_leading_phrase_and_clause_after_a_semicolon() -> None:
    assert _said("In this repo I prefer pnpm over npm; always use pnpm.") == [
        ("preference", "Prefers pnpm over npm"),
        ("instruction", "Always use pnpm"),
    ]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("For this project, never commit generated files.", "Never commit generated files"),
        ("Run the linter — and always run it before pushing.", "Always run it before pushing"),
        ("Fix the typo and never touch the vendored code.", "Never touch the vendored code"),
        ("Every time you change the schema, bump the version.", None),
        ("We have to keep it consistent with the settings page.", None),
    ],
)
def test_rules_heard_inside_ordinary_sentences(text: str, want: str | None) -> None:
    heard = _said(text)
    assert len(heard) == 1, heard
    assert heard[0][0] == "instruction"
    assert want is None or heard[0][1] == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("not npm, pnpm", "Use pnpm instead of npm"),
        ("Don't mock the database, use a real one in tmp_path.", "Use a real one in tmp_path"),
    ],
)
def test_corrections(text: str, want: str) -> None:
    heard = _said(text)
    assert [kind for kind, _ in heard] == ["correction"]
    assert heard[0][1].startswith(want)


def test_shouted_rule_is_kept_and_a_bare_dont_is_not_even_said_twice() -> None:
    assert _said("IMPORTANT: do NOT start the dev server.") == [
        ("instruction", "Do NOT start the dev server")
    ]
    assert _said("don't change the tests for now") == []
    # Said again, a bare request is as often still the task at hand ("We should also
    # suppress the 404", typed twice while fixing one page).
    assert _said("don't change the public API", "ok and don't change the public API") == []
    assert _said("don't ever change the public API") == [
        ("instruction", "Don't ever change the public API")
    ]


@pytest.mark.parametrize(
    "code", ["WHERE internal_name IS NOT NULL", "G_EMO_Active := (NOT bEmoInput) OR bPcEmoReq"]
)
def test_capitals_in_code_or_a_query_are_no_shout(code: str) -> None:
    assert _said(code) == []


def test_a_soft_wish_without_a_lasting_word_is_not_kept() -> None:
    assert _said("It should not look like a modal.") == []
    assert _said("It should not look like a modal.", "It should not look like a modal!") == []
    assert _said("It should never look like a modal.") == [
        ("instruction", "It should never look like a modal")
    ]
    assert _said("No, just use httpx.", "no, just use httpx") == []


def test_task_requests_and_questions_stay_out() -> None:
    assert (
        _said(
            "help me apply for the grant",
            "do not stash anything, read the files you need",
            "Do not break any existing passing tests.",
            "Describe your idea in one sentence. must be less than 150 char",
            "we need to fix the login bug",
            "should we always use pnpm?",
            "make it faster",
            "you should add a test for this",
            "make sure the build passes",
            "the button should not be disabled",
            "do NOT commit yet",
            "this is NOT working",
            "not that file, the other one",
            "every time you run it, it fails",
        )
        == []
    )


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "Sometimes I say period when I dictate and I'd rather it not spell those out.",
            ("preference", "Would rather it not spell those out"),
        ),
        ("let's do maxrecordings = 30", ("decision", "Set maxrecordings = 30")),
        ("And let's turn on togglemode", ("decision", "Turn on togglemode")),
        ("Yes let's do small.en", ("decision", "Use small.en")),
        (
            "is it truly random? it's important, i need to be able to reason about it",
            ("instruction", "Important: i need to be able to reason about it"),
        ),
    ],
)
def test_softer_wishes_and_choices_that_name_a_setting(text: str, want: tuple[str, str]) -> None:
    assert _said(text) == [want]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "right? (we use go-git explicitly in other places to not need a checkout)",
            ("decision", "We use go-git explicitly in other places to not need a checkout"),
        ),
        (
            "Option 1 fails since hashes change, that's why we add the trailer to commits.",
            ("decision", "We add the trailer to commits"),
        ),
        (
            "yeah let's update it but make sure you ask before the e2e tests since they cost",
            ("instruction", "Make sure you ask before the e2e tests since they cost"),
        ),
        (
            "I'd prefer small commits over big ones.",
            ("preference", "Would rather small commits over big ones"),
        ),
        (
            "I think we don't want to add new hook types constantly.",
            ("preference", "We don't want to add new hook types constantly"),
        ),
    ],
)
def test_reasons_deliberate_choices_and_wishes_with_a_lasting_word(
    text: str, want: tuple[str, str]
) -> None:
    assert _said(text) == [want]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            'First and foremost, this skill is now called "What Happened", not wat anymore.',
            # the lead-in is dropped from the description, kept in the body
            ("fact", 'This skill is now called "What Happened", not wat anymore'),
        ),
        (
            "b. also a requirement is I can still use other skills in this process.",
            ("instruction", "I can still use other skills in this process"),
        ),
        (
            "That's not what I asked. What I said was run `git add && git commit` in one go.",
            ("correction", "Run `git add && git commit` in one go"),
        ),
        (
            ".collab should live in .entire folder",
            ("instruction", ".collab should live in .entire folder"),
        ),
        (
            "target is read only, we always overwrite",
            ("instruction", "Always overwrite"),
        ),
        (
            "I want replicate to not use materialize at all",
            ("preference", "I want replicate to not use materialize at all"),
        ),
        (
            "I think it's fine to run the tests in parallel",
            ("preference", "Fine to run the tests in parallel"),
        ),
        (
            "the prompts are small and they should not run in CI anyway",
            ("instruction", "They should not run in CI anyway"),
        ),
    ],
)
def test_renames_requirements_and_wishes_with_a_lasting_word(
    text: str, want: tuple[str, str] | None
) -> None:
    heard = _said(text)
    assert len(heard) == 1, heard
    assert want is None or heard[0] == want


def test_wishes_about_the_moment_stay_out() -> None:
    assert _said("I want to see the logs", "it's fine to leave it for now") == []
    assert _said("don't change anything else", "it needs to be faster") == []


def test_picking_among_offered_options_is_about_the_moment() -> None:
    assert _said("I like Option 1, from an enabling perspective", "I like the latter more") == []
    assert _said("we want to fix the login page") == []


def test_choices_that_name_no_setting_stay_out() -> None:
    assert _said("let's do step 2", "let's use this", "let's do it", "let's go with the plan") == []


_SPEC = """Fix image loading.
--------------------------------------------------
TASK:
Create a SafeImage component:
- always falls back to a local image
- NEVER let an image crash the page
--------------------------------------------------
After:
- do NOT start the dev server
"""


def test_a_spec_keeps_its_shouted_rules_not_its_bullets() -> None:
    shouted = [
        ("instruction", "NEVER let an image crash the page"),
        ("instruction", "Do NOT start the dev server"),
    ]
    assert _said(_SPEC) == shouted
    # Its bullets describe the thing to build, pasted again or not.
    assert _said("go on", _SPEC.replace("Fix image loading", "Add tickets"), _SPEC) == shouted


def test_a_pasted_document_counts_only_for_what_is_said_again() -> None:
    doc = "# Rules\n\nNever edit the generated client.\n\n# Style\n\nAlways use tabs.\n"
    assert _said(doc) == []
    assert _said(doc, "please, never edit the generated client.") == [
        ("instruction", "Never edit the generated client")
    ]


def test_a_document_pasted_again_is_still_said_once() -> None:
    # A prompt file a command expands into each turn it runs in: the same rules, the
    # person's own words only in the argument it wraps.
    def prompt(argument: str) -> str:
        return (
            f"## Input\n\n{argument}\n\n## Steps\n\n"
            "You MUST read the input before you start.\n"
            "Always write the plan to plan.md.\n"
        )

    assert _said(prompt("a login page"), "go on", prompt("a signup page")) == []
    assert _said(prompt("a login page"), "always write the plan to plan.md") == [
        ("instruction", "Always write the plan to plan.md")
    ]


def test_what_was_said_in_most_turns_ranks_first_under_the_cap() -> None:
    many = [f"Always use tool{i} for job{i}." for i in range(6)]
    heard = _said(*many, "ok, never push to main", "never push to main")
    assert len(heard) == 5
    assert ("instruction", "Never push to main") in heard


def test_text_an_agent_wraps_into_a_typed_turn_is_not_the_person() -> None:
    wrapped = "<ide_opened_file>Never edit this file. Always use tabs.</ide_opened_file> go on"
    assert _said(wrapped) == []


# what the tools did ---------------------------------------------------------------


def _shell(*steps: tuple[str, str], tool: str = "Bash") -> Transcript:
    """A session of shell calls: each step a command and its result's text."""
    turns: list[Turn] = [Turn("user", "go", lines=(1, 1))]
    for command, result in steps:
        n = len(turns) + 1
        if command.startswith("edit "):
            edit = json.dumps({"file_path": command[5:]})
            turns.append(Turn("tool", edit, tool="Edit", lines=(n, n)))
            continue
        turns.append(Turn("tool", json.dumps({"command": command}), tool=tool, lines=(n, n)))
        turns.append(Turn("tool", result, tool=tool, lines=(n + 1, n + 1)))
    return Transcript("codex", "s", "/x.jsonl", "/src/shop", turns=tuple(turns))


def test_a_command_that_passed_twice_is_the_runbook_with_its_evidence() -> None:
    session = _shell(
        ("cd web && pnpm test --coverage 2>&1 | tail -5", "Exit code: 0\n12 passed"),
        ("git status", "Exit code: 0\nclean"),
        ("pnpm test --coverage", "Exit code: 0\n12 passed"),
        ("pnpm build --prod", "Exit code: 0\nbuilt"),  # once: not a runbook yet
    )
    (memory,) = extract(session).memories
    assert (memory.type, memory.description) == ("fact", "Tests: `pnpm test --coverage`")
    assert "Package manager: pnpm" in memory.body
    assert memory.evidence == ((2, 2), (6, 6))
    assert memory.tags == ("project:shop", "runbook")


@pytest.mark.parametrize(
    "command", ["pnpm test", "npm run build", "cargo build", "go build ./...", "ruff check ."]
)
def test_a_command_any_agent_runs_unasked_is_not_the_runbook(command: str) -> None:
    session = _shell((command, "Exit code: 0\nok"), (command, "Exit code: 0\nok"))
    assert extract(session).memories == ()


def test_a_failure_that_passed_later_is_no_lesson() -> None:
    """What ran between a failure and a pass is rarely what fixed it: the built-in model
    keeps no lesson from it, and the command that failed is no runbook line either."""
    session = _shell(
        (
            "npx hardhat compile --force",
            "[error] Exit code 1\nError HH19: Hardhat only supports ESM",
        ),
        ("npm install --save-dev hardhat@^2.22.0", "Exit code: 0\nadded 61 packages"),
        ("edit hardhat.config.js", ""),
        ("npx hardhat compile --force", "Compiled 6 Solidity files successfully"),
        ("npx hardhat compile --force", "Compiled 6 Solidity files successfully"),
    )
    assert extract(session).memories == ()


def test_a_run_of_one_chosen_test_is_not_the_runbook() -> None:
    steps = [
        ("go test ./... -run TestInstallHooks", "ok  pkg 0.3s\nexit code: 0"),
        ("pytest tests/test_a.py::test_one", "1 passed\nexit code: 0"),
        ("go test -c ./e2e/... -o /dev/null", "exit code: 0"),
    ]
    assert list(extract(_shell(*steps, *steps)).memories) == []


def test_what_failed_every_time_or_ran_once_or_carries_a_secret_is_not_kept() -> None:
    session = _shell(
        ("cargo test", "Exit code: 101\ntest result: FAILED. 1 failed"),
        ("cargo test", "Exit code: 101\ntest result: FAILED. 1 failed"),
        ("ls -la", "Exit code: 0\nx"),
        ("ls -la", "Exit code: 0\nx"),
        ("API_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 npm test", "Exit code: 0\nok"),
        ("API_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 npm test", "Exit code: 0\nok"),
    )
    assert extract(session).memories == ()


@pytest.mark.parametrize(
    "text",
    [
        # what code does, split off at "but never": no order
        "In handler.go, the Logout handler clears the cookie but never invalidates the session",
        # an order about what is on the screen
        "Don't just constrain this to the exec summary, use this context across the whole doc",
        # a command's prompt file, inlined whole: its front matter says so
        "---\ndescription: Create or update the project constitution.\n---\n\n"
        "Always operate on the existing `.specify/memory/constitution.md` file.",
        # ... or pasted after the person's own lines, its placeholder unfilled
        "PRINCIPLE_5_TEXT = features go via /specify\n---\ndescription: Generate tasks.md.\n"
        "---\n\nUser input:\n\n$ARGUMENTS\n\n- Always read plan.md for tech stack and libraries",
        # too long to say in a line: cut, it would say half
        "Never run the seed script against the staging database because the fixtures it loads "
        "overwrite the customer records that the support team relies on for their reproductions",
        # 常に inside 正常に ("normally"); a line cut inside its brackets; "don't start yet"
        "Vercel上でOCR機能が正常に動作するアーキテクチャへ変更する",
        "改为过滤器：始终跑 proc，regime 只控制仓位大小/信心度（ranging→降低",
        "先别开始啊，我先把所有数据弄齐了再分析",
    ],
)
def test_what_the_built_in_model_is_not_sure_of_stays_out(text: str) -> None:
    assert _said(text) == []
