"""The built-in model hears how people say a rule lasts, and nothing else."""

from __future__ import annotations

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


def test_a_shouted_or_bare_dont_is_not_kept_even_said_twice() -> None:
    assert _said("IMPORTANT: do NOT start the dev server.") == []
    assert _said("don't change the tests for now") == []
    # Said again, a bare request is as often still the task at hand ("We should also
    # suppress the 404", typed twice while fixing one page).
    assert _said("don't change the public API", "ok and don't change the public API") == []
    assert _said("don't ever change the public API") == [
        ("instruction", "Don't ever change the public API")
    ]


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


def test_a_spec_keeps_nothing_shouted_or_not() -> None:
    # Its bullets describe the thing to build, pasted again or not.
    assert _said(_SPEC) == []
    assert _said("go on", _SPEC.replace("Fix image loading", "Add tickets"), _SPEC) == []


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


def test_a_rule_inside_a_long_message_is_a_documents_not_the_persons() -> None:
    """A prompt file inlined without its front matter ("Always read plan.md for the tech
    stack"), a pasted spec: a person states a rule in a message of their own."""
    context = "The plan covers the login page, the session store and the tests. " * 40
    assert _said(context + "\nAlways read plan.md for the tech stack.") == []
    assert _said("Always read plan.md for the tech stack.") == [
        ("instruction", "Always read plan.md for the tech stack")
    ]
