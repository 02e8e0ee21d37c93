"""What a line says of the moment: the built-in model's test for a status report.

While a person debugs with an agent, most of what they type reports what they see right
now: that it is still the same, that it now does something else, an error message pasted
or restated, a guess at the cause ("I think the issue is ..."), a request to look at or
check something, or that the fault "should be resolved now". An assistant concedes such a
report ("You're right - let me fix it"), and a report of what was done says it, but none
of it lasts past the fix: it is not a fact or a lesson about the project. The readers that
take a person's point or the assistant's report as a memory ask :func:`reports_status`
first, and keep only what it does not call a report of the moment.

What is judged, not reported, is left alone: "branching from main won't work" (a judgement
of a plan), "option 1 doesn't work since the hash can change" (a reason given), "I can see
the editor in X, but not in Y" (where a thing lives), "the issue was the global ignore
file" (a cause stated, not guessed).
"""

from __future__ import annotations

import re

__all__ = ["reports_status"]

# Words a spoken line opens with that say nothing: "ok,", "hmm", "but".
_LEAD = r"^\W*(?:(?:ok(?:ay)?|so|but|and|hmm+|well|yes|yeah|no|ah+|oh+|sorry)[,.!]?\s+)*"
# The state compared with a moment before: "still same", "same error", "again it fails",
# "now is not respecting the dates", "now it shows two rows", "it's still empty".
_COMPARED = re.compile(
    _LEAD + r"(?:still|same|again|now,?\s+(?:it\s+|this\s+|that\s+|they\s+)?"
    r"(?:is|are|isn't|aren't|it's|does|doesn't|don't|did|didn't|shows?|works?|fails?|gives?"
    r"|returns?|looks?|seems?|appears?|displays?|has|have)\b)"
    r"|\b(?:is|are|'s|'re|was|were)\s+still\b|\bstill\s+(?:not|no|nothing|empty|the same"
    r"|broken|failing|showing|getting|happening|there|0)\b",
    re.IGNORECASE,
)
# What the person sees it do, in the present: "is not respecting", "isn't loading", "not
# working", "is acting strange", "it's giving me a blank page", "keeps failing".
_SEES = re.compile(
    r"\b(?:is|are|'s|'re)\s+not\s+\w+ing\b|\b(?:isn't|aren't)\s+\w+ing\b"
    # (not "don't show ...": an order, which may well last)
    r"|\b(?:doesn't|does not|didn't|did not)\s+(?:work|show|load|appear|display"
    r"|render|respect|update|save|change|open|start|compile|build|run)s?\b"
    r"|\bnot working\b|\bstopped working\b|\b(?:is|are)\s+acting\b|\bkeeps?\s+\w+ing\b"
    r"|\b(?:it's|it is|is|are)\s+giving me\b",
    re.IGNORECASE,
)
# The fault said to be gone at this moment: "the error should be resolved now", "it's
# fixed now", "now working".
_FIXED_NOW = re.compile(
    r"\b(?:resolved|fixed|working|works|passing|passes|gone|broken|failing)\s+now\b"
    r"|\bnow\s+(?:resolved|fixed|working|works|passing|passes|gone|broken|failing)\b",
    re.IGNORECASE,
)
# A reason or a rule given with what is seen: it judges, it does not only report.
_REASONED = re.compile(
    r"\b(?:since|because|always|never|instead|from now on|rather than|so that)\b", re.I
)
# A guess at the cause: "I think the issue is ...", "maybe the problem is caching",
# "probably X is the culprit".
_GUESS = re.compile(
    r"\b(?:I think|I guess|I suspect|I believe|maybe|probably|perhaps|looks like|seems like"
    r"|it seems)\b.{0,80}?\b(?:issue|problem|bug|cause|culprit)\b",
    re.IGNORECASE,
)
# A request to look at or check something: "look for the task ...", "can you review why".
_LOOK = r"(?:look|check|review|see|find|investigate|debug|inspect|search)"
_ASKS_TO_LOOK = re.compile(
    _LEAD + rf"(?:please\s+)?{_LOOK}\b|\b(?:can|could|would)\s+(?:you|u)\s+(?:please\s+)?"
    rf"{_LOOK}\b",
    re.IGNORECASE,
)
# An error message, as a tool prints it: "Invalid view type: 'tree'", "TypeError: x is not
# a function", "Error: ENOENT", "Failed to compile.".
_ERROR = re.compile(
    r"^\W*(?:(?:error|fatal|warning)\b\s*[:\[(]|[\w.]*(?:Error|Exception)\b\s*[:(]"
    r"|(?-i:Invalid|Cannot|Failed to|Uncaught|Unexpected|Unable to|Could not)\b.{0,80}?[:'\"`]"
    r"|(?-i:Failed to compile|Traceback))",
    re.IGNORECASE,
)


def _pasted_error(line: str) -> bool:
    """Whether ``line`` opens with an error message as a tool prints it."""
    return bool(_ERROR.match(line))


def reports_status(line: str) -> bool:
    """Whether ``line`` reports the state of the work at this moment rather than stating
    something that lasts (see the module's docstring)."""
    if _pasted_error(line) or any(p.search(line) for p in (_COMPARED, _FIXED_NOW, _GUESS)):
        return True
    # What the person sees, or asks to have looked at, reports the moment unless the line
    # gives its reason or a rule: "option 1 doesn't work since the hash can change",
    # "review the plans with Opus instead".
    seen = _SEES.search(line) or _ASKS_TO_LOOK.search(line)
    return bool(seen) and not _REASONED.search(line)
