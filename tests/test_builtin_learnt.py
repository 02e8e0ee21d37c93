"""The built-in model on phrasings and runs seen in more people's sessions."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from brain.models.builtin.model import extract
from brain.sessions.sources.base import Transcript, Turn


def _session(*steps: tuple[str, str]) -> Transcript:
    """A session of typed turns (``("user", text)``) and shell calls (command, result)."""
    turns: list[Turn] = []
    for first, second in steps:
        n = len(turns) + 1
        if first == "user":
            turns.append(Turn("user", second, lines=(n, n)))
            continue
        turns.append(Turn("tool", json.dumps({"command": first}), tool="Bash", lines=(n, n)))
        turns.append(Turn("tool", second, tool="Bash", lines=(n + 1, n + 1)))
    return Transcript("claude", "s", "/x.jsonl", "/home/ana/shop", turns=tuple(turns))


def _heard(*texts: str) -> list[tuple[str, str]]:
    memories = extract(_session(*(("user", text) for text in texts))).memories
    return [(m.type, m.description) for m in memories]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("I actually prefer tabs over spaces.", ("preference", "Prefers tabs over spaces")),
        (
            "anything behind a feature flag can be removed, maybe document this as a learning.",
            ("lesson", "Anything behind a feature flag can be removed"),
        ),
        (
            "From now on, do not run the whole suite every time, only on HEAD.",
            ("instruction", "Do not run the whole suite every time, only on HEAD"),
        ),
        (
            "For the docs site, I actually prefer a dark theme for code blocks.",
            ("preference", "Prefers a dark theme for code blocks"),
        ),
        (
            "For each new file, always add a licence header.",
            ("instruction", "For each new file, always add a licence header"),
        ),
        (
            "Remember that the staging database is shared with QA.",
            ("fact", "The staging database is shared with QA"),
        ),
        (
            "Every time you change the schema, run the migration check.",
            ("instruction", "Every time you change the schema, run the migration check"),
        ),
    ],
)
def test_what_a_person_says_outright_is_meant_to_last(text: str, want: tuple[str, str]) -> None:
    assert _heard(text) == [want]


@pytest.mark.parametrize(
    "text",
    [
        # each of these a careful reader sometimes keeps and as often drops: left to a model
        "I'm all in favour of one config file.",
        "So maybe it's better to start with sqlite than postgres",
        "uv would be a better choice since it locks the environment",
        "and we don't need backward compatibility for the old format",
        "We no longer need the legacy runs folder.",
        "`max_retries` should stay at three for the sync job",
        "review the migration with Opus instead",
        "no, use uv not pip",
        "not npm, pnpm",
        "Don't mock the database, use a real one in tmp_path.",
        "It's allowed to read the user's shell config, that is deliberate.",
        "the eval package has been replaced by the sdk package",
        "I think it's fine to run the e2e tests in parallel, can you revert that?",
        "I just want an otel collector so we don't need Phoenix.",
        "Looks good. It would be great if the sync never committed on its own.",
        "We decided to keep sessions in Postgres because ops supports one datastore.",
        "It's important that the API stays backwards compatible.",
        "We have to keep it consistent with the settings page.",
        "do NOT start the dev server",
        "I like Mission Control",
        "let's do maxrecordings = 30",
    ],
)
def test_what_rules_cannot_tell_lasts_is_left_to_a_model(text: str) -> None:
    assert _heard(text) == []


def test_a_bare_use_as_is_not_kept_said_once_or_twice() -> None:
    assert _heard("continue but use haiku for subagents") == []
    assert _heard("continue but use haiku for subagents", "ok, use haiku for subagents") == []
    assert _heard("always use haiku for subagents") == [
        ("instruction", "Always use haiku for subagents")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "We don't need that now.",
        "I'm in favour of this.",
        "The easiest thing, theoretically, would be to always rebuild the cache.",
        "Keys should be unique so that components keep their identity.",
        "I think we should be clearer on the text.",
        "Unused variable count - incremented but never asserted",
        "use the other one instead",
        "it's better to do this than that",
        "we don't need to care about conflicts here",
        "it would be nice to see that",
        "so we don't need the extra dependency do you think that's a lot of code",
        "The easiest would be to, in theory, never cache anything.",
    ],
)
def test_what_only_looks_like_those_stays_out(text: str) -> None:
    assert _heard(text) == []


def test_a_rule_is_skipped_only_when_it_could_not_match() -> None:
    """The words a rule needs are a shortcut: wherever its pattern matches, one is there."""
    from brain.models.builtin.said import NEEDS, RULES
    from tests import test_builtin, test_builtin_heard

    assert set(NEEDS) <= {name for name, *_ in RULES}
    said = [
        line.strip(" \"',()")
        for module in (test_builtin, test_builtin_heard, sys.modules[__name__])
        for line in Path(str(module.__file__)).read_text(encoding="utf-8").splitlines()
        if len(line.strip(" \"',()")) > 12
    ]
    for name, pattern, *_ in RULES:
        for sentence in said:
            if name in NEEDS and pattern.match(sentence):
                assert any(word in sentence.lower() for word in NEEDS[name]), (name, sentence)


def test_a_statement_about_a_pronoun_carries_the_sentence_before_it() -> None:
    text = "The e2e tests use Haiku and cost little. They should never run in CI."
    (memory,) = extract(_session(("user", text))).memories
    assert memory.description == "They should never run in CI"
    assert memory.body == text
    (alone,) = extract(
        _session(("user", "Docs are generated. Never edit docs/api by hand."))
    ).memories
    assert alone.body == "Never edit docs/api by hand."


def test_commands_that_passed_are_no_memory() -> None:
    """What builds and tests a project is for a model to judge: rules kept the command any
    agent runs unasked as often as the one a project needs."""
    runs = [("npm test -- --ci", "Exit code: 0\nTests: 12 passed")] * 3
    assert extract(_session(*runs, ("cargo test --workspace", "test result: ok."))).memories == ()


# a proposal is a whole statement the person made ------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The cell renderer takes whatever the column returns — always text. Numbers come later.",
        "Right now `formatLabel()` returns a string — always text, never a node — and that's it.",
        "The `title` field is a plain string - always text - so the template escapes it.",
    ],
)
def test_words_after_a_dash_in_a_description_of_code_are_no_rule(text: str) -> None:
    assert _heard(text) == []


def test_a_rule_said_after_a_dash_is_kept_as_the_whole_sentence() -> None:
    text = "Never file issues in this way - we ought to check guidelines first."
    assert _heard(text) == [("instruction", text.rstrip("."))]


def test_lines_the_person_quoted_are_their_words_too() -> None:
    pasted = (
        "Here are the rules from my old setup:\n"
        "> Always run the linter before committing.\n"
        "> > Never edit generated files by hand.\n"
        "Apply them here."
    )
    assert _heard(pasted) == [
        ("instruction", "Always run the linter before committing"),
        ("instruction", "Never edit generated files by hand"),
    ]


def test_a_quote_of_the_assistant_is_not_the_persons_rule() -> None:
    said = "Done. From now on I will **always run the linter** before committing."
    session = Transcript(
        "claude",
        "s",
        "/x.jsonl",
        "/home/ana/shop",
        turns=(
            Turn("user", "set up the linter", lines=(1, 1)),
            Turn("assistant", said, lines=(2, 2)),
            Turn("user", "> always run the linter before committing\nwhy?", lines=(3, 3)),
        ),
    )
    assert extract(session).memories == ()


# typed in Chinese or Japanese: the few explicit forms, as the whole sentence ---------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("以后都用 pnpm，不要用 npm。", ("instruction", "以后都用 pnpm，不要用 npm")),
        ("以后所有流程图都要有判断节点", ("instruction", "以后所有流程图都要有判断节点")),
        ("请记住我喜欢用 Markdown 写文档", ("fact", "请记住我喜欢用 Markdown 写文档")),
        (
            "今後は migration を編集しないで、新しく追加してください",
            ("instruction", "今後は migration を編集しないで、新しく追加してください"),
        ),
    ],
)
def test_a_rule_said_outright_in_chinese_or_japanese_is_kept_whole(
    text: str, want: tuple[str, str]
) -> None:
    assert _heard(text) == [want]


@pytest.mark.parametrize(
    "text",
    [
        "还是一样的错误，你总是改来改去，但是为什么dev能启动？",  # a complaint, and a question
        "这次把输出写详细点",  # about the moment
        "以后再说",  # "later"
        "以后帮我写文档用什么格式好?",  # a question
        "不要继续前文，新的任务是修复接口",  # a request of the moment
        "不要长期记这个，我今天有点焦虑。",  # asks not to be remembered
        "コミットメッセージに絵文字を使わないでください。",  # a request, said once
        "技术栈是B/S架构系统，node.js技术栈。",  # a decision in no explicit form: a model's job
    ],
)
def test_chinese_or_japanese_without_an_explicit_lasting_form_is_not_kept(text: str) -> None:
    assert _heard(text) == []


def test_a_must_or_a_request_not_to_do_something_is_left_to_a_model() -> None:
    """Even beside 所有 ("all") or 每次 ("every time"), a must (必须) or a "don't" (不要) is
    as often a step of the task or a spec's line; 必ず is "be sure to"."""
    for said in (
        "コミットメッセージに絵文字を使わないでください。",  # said twice: still no lasting form
        "提交前必须跑 pnpm test。",
        "所有提交都必须跑 pnpm test。",
        "所有的注释都不要写中文",
        "必ず日本語で回答してください。",
        "背景约束（必须遵守）：",  # a spec's heading
        "性别：男/女",  # 别 inside 性别 ("gender") asks nothing
    ):
        assert extract(_session(("user", said), ("user", "ok"), ("user", said))).memories == ()
    said = "以后每次提交都必须跑 pnpm test。"
    memories = extract(_session(("user", said))).memories
    assert [(m.type, m.description) for m in memories] == [("instruction", said.rstrip("。"))]
    assert memories[0].key.startswith("pnpm-test-")


def _answering(suggestion: str, reply: str) -> list[tuple[str, str]]:
    """What the person's ``reply`` to an assistant's ``suggestion`` is kept as."""
    session = Transcript(
        "claude",
        "s",
        "/x.jsonl",
        "/home/ana/shop",
        turns=(
            Turn("user", "帮我写一下 PR 的描述流程", lines=(1, 1)),
            Turn("assistant", suggestion, lines=(2, 2)),
            Turn("user", reply, lines=(3, 3)),
        ),
    )
    return [(m.type, m.description) for m in extract(session).memories]


_SUGGESTED = "建议：以后所有 PR 描述都由 LLM 生成一段叙述，方便审阅。也可以附上测试结果。"


@pytest.mark.parametrize(
    "reply",
    [
        # quoted with ">", then rejected
        "> 以后所有 PR 描述都由 LLM 生成一段叙述\n不要这样，只放 PR 和 review 链接",
        # pasted back without a quote mark
        "你写的这句：\n以后所有 PR 描述都由 LLM 生成一段叙述。\n不用，只放链接。",
        # quoted inside the sentence that rejects it
        "“以后所有PR描述都由LLM生成一段叙述”这个不要，只放 PR 和 review 链接",
        # inside a code block
        "```\n以后所有 PR 描述都由 LLM 生成一段叙述\n```\n这个不行",
    ],
)
def test_the_assistants_chinese_suggestion_is_not_the_persons_rule(reply: str) -> None:
    assert _answering(_SUGGESTED, reply) == []


def test_a_rule_the_person_typed_after_the_assistant_spoke_is_still_theirs() -> None:
    assert _answering(_SUGGESTED, "以后都用 pnpm，不要用 npm。") == [
        ("instruction", "以后都用 pnpm，不要用 npm")
    ]


def test_a_short_rule_said_back_to_the_assistant_is_the_persons() -> None:
    assert _answering("以后都用pnpm吗？", "以后都用pnpm") == [("instruction", "以后都用pnpm")]


def test_the_assistants_english_sentence_pasted_back_is_not_the_persons_rule() -> None:
    said = "Plan: we should always regenerate the lockfile in CI before every release build."
    session = Transcript(
        "claude",
        "s",
        "/x.jsonl",
        "/home/ana/shop",
        turns=(
            Turn("user", "how should releases work?", lines=(1, 1)),
            Turn("assistant", said, lines=(2, 2)),
            Turn(
                "user",
                "You wrote:\nwe should always regenerate the lockfile in CI before every "
                "release build.\nNo, that is too slow.",
                lines=(3, 3),
            ),
        ),
    )
    assert extract(session).memories == ()


def test_a_short_rule_the_person_says_after_the_assistant_is_still_theirs() -> None:
    session = Transcript(
        "claude",
        "s",
        "/x.jsonl",
        "/home/ana/shop",
        turns=(
            Turn("user", "set up the linter", lines=(1, 1)),
            Turn("assistant", "Should I always run the linter before committing?", lines=(2, 2)),
            Turn("user", "Yes, always run the linter before committing.", lines=(3, 3)),
        ),
    )
    assert [m.description for m in extract(session).memories] == [
        "Always run the linter before committing"
    ]
