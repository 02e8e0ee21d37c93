"""The built-in model's tables: the words and phrasings its rules read, as plain data.

Nothing here runs: each table is read by one module of the package, which says how.

- ``PHRASINGS`` (read by :mod:`brain.models.builtin.said`): the few ways people say
  outright that something lasts ("from now on", "remember that", "always", "never", "every
  time", "I prefer", "lesson learned", "document this as a learning"). Each row names a
  phrasing, the kind of memory it makes, a confidence, and the pattern that must match a
  statement from its start (after ``LEAD``, a lead such as "ok," or "in this repo");
  ``what`` is the part a description is made of. Order matters: the first row that matches
  a statement classifies it. ``NEEDS`` names the words a row needs.
- The few explicit forms of a lasting rule in Chinese and Japanese
  (:mod:`brain.models.builtin.cjk`).
"""

from __future__ import annotations

__all__ = [
    "CJK_LASTING",
    "CJK_NOT_A_RULE",
    "CJK_REMEMBER",
    "IMPERATIVE",
    "KEY_STOP",
    "LEAD",
    "NEEDS",
    "PHRASINGS",
]

LEAD = (
    r"^(?:(?:ok(?:ay)?|also|and|btw|oh|hey|so|fyi|one more thing|note|ps|important|critical"
    r"|yes|yeah|yep|sure|alright|great|perfect|thanks|please"
    r"|in this (?:repo(?:sitory)?|project|codebase)|for this (?:repo(?:sitory)?|project)"
    r"|here|in general|generally|I think|I guess|I believe)[,.:!]?\s+"
    # a topic the statement is about: "for the website design, I prefer ..."
    r"|(?:for|on|about|regarding|as for)\s+(?:the|our|my)\s+[\w' -]{2,40},\s+)*"
)

IMPERATIVE = (
    r"(?:run|use|bump|update|add|check|make sure|remember|write|call|restart|rebuild"
    r"|regenerate|commit|push|test|lint|format|ask|tell|open|close|clear)"
)

# Order matters: the first rule that matches a statement classifies it.
# fmt: off
PHRASINGS: tuple[tuple[str, str, float, str], ...] = (
    ("from_now_on", "instruction", 0.9,
     r"(?:please\s+)?(?:from now on|going forward|in future)[,:]?\s+(?P<what>.+)"),
    ("remember", "fact", 0.9,
     r"(?:please\s+)?(?:always\s+)?(?:remember|keep in mind|note for the future)"
     r"(?:\s+that|:|,)\s+(?P<what>.+)"),
    ("document_this", "lesson", 0.8,
     r"(?P<what>.{8,}?),?\s+(?:so\s+|and\s+)?(?:maybe\s+|please\s+)?(?:document|note|record"
     r"|write down|capture)\s+(?:this|that|it)\s+(?:down\s+)?(?:as\s+(?:a\s+)?(?:learning|lesson"
     r"|rule|convention|gotcha)|in (?:the )?(?:repo|docs|readme|agents\.md|claude\.md))\b.*"),
    ("lesson", "lesson", 0.8,
     r"(?:lesson learned|the lesson (?:here )?is|TIL|today I learned)[:,]?\s+"
     r"(?:that\s+)?(?P<what>.+)"),
    ("always", "instruction", 0.85,
     r"(?:(?P<cond>(?:when|whenever|every time|each time|if|before|after|for)\b[^,]{3,80}),"
     r"\s*)?(?:please\s+)?(?:you should\s+|make sure (?:to|you)\s+|we(?:\s+should)?\s+)?"
     r"(?P<what>(?:(?:they|these|those)\s+(?:should\s+|must\s+)?)?"
     r"(?:always|never|don't ever|do not ever)\s+(?!mind\b).+)"),
    ("every_time", "instruction", 0.75,
     r"(?P<what>(?:every|each) time (?:you|we)\b[^,]{3,80},\s*(?:please\s+)?" + IMPERATIVE
     + r"\b.+|(?:please\s+)?" + IMPERATIVE + r"\b.{3,}\s(?:every|each) time[.!]?$)"),
    ("prefer", "preference", 0.8,
     r"I\s+(?:\w+ly\s+|actually\s+|still\s+|also\s+|just\s+|do\s+)?"
     r"prefer\s+(?P<what>.+)"),
    ("my_pref", "preference", 0.8, r"my preference is\s+(?:to\s+|for\s+)?(?P<what>.+)"),
)
# A word a statement must hold for a rule to be tried (lower case): most statements hold
# none, and a substring test is far cheaper than a pattern that scans the whole statement.
NEEDS: dict[str, tuple[str, ...]] = {
    "document_this": ("document", "note", "record", "write down", "capture"),
    "every_time": ("every time", "each time"),
}

# Words a key is not made of.
KEY_STOP = frozenset(
    "a an the to of for in on and or is are be that this with we i you please our my it "
    "should must".split()
)

# Chinese and Japanese. A form that says outright that a rule lasts (patterns): "from now
# on" at the start of a sentence (以后 / 今后, not 以后再 "later"), "always", "every time",
# "never", "remember" ...
CJK_LASTING = (
    r"^(?:请\s*)?(?:记住[，,：:]?\s*)?(?:以后|今后|往后|从今以后|从现在开始)(?!再)", "以后都",
    "以后一律", "以后不要", "以后别", "以后不能", "永远不要", "永远别", "始终", "总是要",
    "每次都要", "记住", "长期记", "(?<!正)常に", "今後は", "これからは", "毎回", "覚えて",
)
# Of these, a fact to remember rather than a rule to follow.
CJK_REMEMBER = ("记住", "长期记", "覚えて")
# A complaint or a sentence about the moment: no rule.
CJK_NOT_A_RULE = (
    "你总是", "你老是", "你又", "现在", "今天", "这次", "刚才", "今回", "今日", "さっき", "先别",
    "先不要", "暂时", "暂不",
    "不要长期记", "不要记", "别记",
)
# fmt: on
