"""What a person typed in Chinese or Japanese: the few explicit forms of a lasting rule.

The statement rules of :mod:`brain.models.builtin.said` read English words. In Chinese and
Japanese a rule is rarely said in a fixed phrase, and there are no spaces to cut a
description at, so this module keeps only what says outright that it lasts, as the whole
sentence the person typed (cut at 。！？; and line ends, never inside):

- a form that says the rule lasts (``CJK_LASTING`` in :mod:`brain.models.builtin.tables`):
  以后 or 今后 opening the sentence, 以后都 / 以后不要 / 永远不要 / 始终 / 每次都要 ...,
  常に / 今後は / これからは / 毎回 ...; and 记住 / 长期记 / 覚えて, what to remember, kept
  as a fact.

A must or a request not to do something (必须 / 禁止 / 不要, 絶対に / しないで), even with
所有 or 每次 beside it, is as often a step of the task or a line of a spec, and is left to
a model, as is 必ず ("be sure to").

A complaint ("你总是改来改去": "you always keep changing it") and a sentence about the moment
(现在 / 今天 / 这次, 今回 / 今日) state no rule, nor does a question. Everything else a person
means in these languages (a decision, a preference said in passing, what a reply settled)
needs a model.

What the assistant wrote is never the person's rule, though it stands in their turn: a
person who answers a suggestion often pastes it back, quoted with ``>`` or in quotation
marks (“…”, 「…」) or not at all, to reject it ("“以后所有 PR 描述都由 LLM 生成”这个不要").
A sentence the assistant said earlier in the session, one that quotes it, and code are
left out; a rule word in them (以后, 必须) is the assistant's.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator

from brain.models.builtin.tables import CJK_LASTING, CJK_NOT_A_RULE, CJK_REMEMBER
from brain.models.schema import MemoryType

__all__ = ["has_cjk", "key_for", "rules", "unspaced"]

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
_SENTENCE = re.compile(r"(?<=[。！？!?；;])|\n")
_LASTING = re.compile("|".join(CJK_LASTING))
_NOT_A_RULE = re.compile("|".join(CJK_NOT_A_RULE))
_REMEMBER = re.compile("|".join(CJK_REMEMBER))
# A list marker or a label the sentence starts with ("1、", "（2）", "【问题回复】").
_LEAD = re.compile(r"^(?:[0-9０-９]+[、.．)）]\s*|[（(][0-9]+[)）]\s*|【[^】]{1,12}】\s*)+")
_ASKED = ("?", "？", "吗", "吗。", "か", "か。")
_MIN_CHARS = 6
_MAX_CHARS = 200
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
# A span the person quoted: in quotation marks of either script, or in straight quotes.
_QUOTED = re.compile(r"“([^”]+)”|「([^」]+)」|『([^』]+)』|\"([^\"]+)\"")
_BRACKETS = (("（", "）"), ("(", ")"), ("「", "」"), ("【", "】"))
_UNSPACED = re.compile(r"[\s*_`>]+")
_ENDING = "。．.！!？?；;：:，,、"
_QUOTED_CHARS = 4  # a quoted span this short ("好的") may be anyone's words
# A sentence this short said again ("以后都用pnpm" to "以后都用pnpm吗?") is the person
# agreeing in their own words; a longer one said again word for word is pasted back.
_REPEAT_CHARS = 12


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds Chinese or Japanese characters."""
    return bool(_CJK.search(text))


def unspaced(text: str) -> str:
    """``text`` as :func:`rules` compares it with what the assistant said: no spaces,
    emphasis, quote marks or ending punctuation, lower case ("PR 描述" is "pr描述")."""
    return _UNSPACED.sub("", text).strip(_ENDING).lower()


def _repeats(sentence: str, heard: Callable[[], str] | None) -> bool:
    """Whether ``sentence`` is the assistant's (``heard()``, :func:`unspaced`): it says
    again what the assistant said, or quotes some of it."""
    said = heard() if heard is not None else ""
    if not said:
        return False
    whole = unspaced(sentence)
    if len(whole) >= _REPEAT_CHARS and whole in said:
        return True
    quoted = (next(g for g in m.groups() if g) for m in _QUOTED.finditer(sentence))
    return any(len(span := unspaced(q)) >= _QUOTED_CHARS and span in said for q in quoted)


def _unclosed(sentence: str) -> bool:
    """Whether a bracket opens in ``sentence`` and never closes: a line cut inside it."""
    return any(sentence.count(o) > sentence.count(c) for o, c in _BRACKETS)


def rules(text: str, heard: Callable[[], str] | None = None) -> Iterator[tuple[str, MemoryType]]:
    """Each sentence of ``text`` in Chinese or Japanese that states a lasting rule (or a
    fact to remember), and its kind.

    Args:
        text: what the person typed.
        heard: gives what the assistant said before it in the session, :func:`unspaced`
            (asked only of a sentence a rule would keep); a sentence that repeats or
            quotes it is the assistant's, not a rule.
    """
    for sentence in _SENTENCE.split(_FENCE.sub("\n", text)):
        sentence = sentence.strip(" \t-*•>#")
        sentence = _LEAD.sub("", sentence)
        if not (_MIN_CHARS <= len(sentence) <= _MAX_CHARS) or not _CJK.search(sentence):
            continue
        if sentence.endswith(_ASKED) or _NOT_A_RULE.search(sentence) or _unclosed(sentence):
            continue  # a question, a complaint, about the moment, or cut at a line's end
        if not _LASTING.search(sentence):
            continue  # no rule, or one that does not say it lasts
        if _repeats(sentence, heard):
            continue  # the assistant's words pasted back or quoted
        yield sentence, "fact" if _REMEMBER.search(sentence) else "instruction"


def key_for(sentence: str) -> str:
    """A key for a sentence with few or no Latin words: those words, then a short digest of
    the sentence (the same sentence typed again gives the same key)."""
    unmarked = re.sub(r"\[REDACTED:[^\]]*\]", " ", sentence)  # never a key from a secret
    words = re.findall(r"[a-z0-9]+", unmarked.lower())[:4]
    digest = hashlib.sha1(sentence.encode("utf-8")).hexdigest()[:8]
    return "-".join([*words, digest]) if words else f"rule-{digest}"
