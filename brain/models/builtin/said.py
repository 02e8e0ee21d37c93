"""What a person said outright is meant to last: the built-in model's statement rules.

Only what a person typed is read (user turns that are neither injected context nor
compaction summaries, with any ``<tag>...</tag>`` block an agent wraps into the turn
removed); a line quoted with ``>`` is theirs too (their own instructions pasted in), unless
it repeats what the assistant said. A turn is cut into statements at sentence ends (and at
".." typed between two words), at ``;``, and at "and" or "but" before a new rule ("... and
always ...", "... but always write X"), never at a dash: what follows a dash stays in its
sentence ("returns a string — always text" describes code); a leading "In this repo", "For
this project" or "Here" is read past, and so is a short question tacked on after a comma.

A statement is kept only when it says outright that it lasts (``PHRASINGS`` in
:mod:`brain.models.builtin.tables`): "from now on ...", "going forward ...", "remember that
...", "always ..." / "never ..." / "don't ever ...", "every time you X, Y", "I prefer X",
"my preference is X", "lesson learned: ...", and "..., document this as a learning". What
a thing always does ("it never invalidates the session") is a description, not an order.
Everything else a person means (a correction, a decision and its reason, a wish, a "don't"
about the task at hand, the answer to a question) is left to a model: said once, in words
rules can read, it is as often about the task at hand as it is a rule that lasts, and a
memory that is wrong costs more than one that is missing.

Nor is a rule read where the person is not speaking in their own words: a pasted document
or a prompt file (a long turn, markdown headings, front matter, ``$ARGUMENTS``), a review
bot's finding, a task written as a spec (ruled sections, "TASK:"), or a sentence the
assistant said first and the person pasted back. A sentence that muses ("theoretically,
the easiest would be to always ...") or asks states no rule.

A turn that tries to steer the memory ("ignore previous instructions", "remember the
password ...") is skipped whole; a statement carrying a secret is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import cast

from brain.home.records import slugify
from brain.home.secrets.redact import redact
from brain.models.builtin import cjk
from brain.models.builtin.tables import KEY_STOP, LEAD, NEEDS, PHRASINGS
from brain.models.safety import INJECTION, STORE_SECRET, states_credential, unsafe
from brain.models.schema import Candidate, MemoryType
from brain.sessions.conversation import typed_turns
from brain.sessions.sources.base import Transcript, Turn

__all__ = [
    "CUT",
    "NEEDS",
    "RULES",
    "candidates",
    "human_turns",
    "key_of",
    "one_line",
    "unhomed",
]

DESCRIPTION_CHARS = 120
_MAX_STATEMENT_CHARS = 400
# A person states a rule in a message of their own; a turn longer than this holds a
# document or a prompt file they pasted, whose "Always ..." is written for agents.
_MAX_TYPED_CHARS = 2000

_DEICTIC = re.compile(
    r"^(?:this|that|it|these|those|what|where|how|when|the way you|your|them|option\s+\w+"
    r"|the (?:later|latter|former|first|second|last|other)(?: one)?)\b",
    re.I,
)
# A bullet before the statement, but not the dashes of a flag ("--all-refs is ...").
_BULLET = re.compile(r"^(?:[*•(]|-(?!-\w))[-*•( ]*")
# An answer's or a list's marker before the statement: "b. also ...", "2) ...".
_MARKER = re.compile(r"^[a-z0-9]{1,2}[.)]\s+(?=\w)", re.IGNORECASE)
_TAGGED = re.compile(r"<([a-z][\w-]*)\b[^>]*>.*?</\1>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
# The full stop of "e.g.", "i.e.", "etc.", "vs." or "cf." ends no sentence.
NOT_ABBREVIATED = "".join(
    rf"(?<!(?i:\b{a}))" for a in (r"e\.g\.", r"i\.e\.", r"etc\.", r"vs\.", r"cf\.")
)
# "..." ends a sentence too when typed between two words: "any details..i just want".
_SENTENCE_END = re.compile(
    rf"(?<=[.!]){NOT_ABBREVIATED}\s+(?=[A-Z\"'(])|(?<=\?)\s+|(?<=\w)\.{{2,}}\s*(?=[a-zA-Z])"
)
# Sounds and words a spoken sentence starts with that say nothing ("Hmmm,", "Ok so",
# "Yeah,", "Ahh ok"): a description starts at what is said.
_LEAD_IN = re.compile(
    r"^(?:(?:u+h*m+|h+m+|e+r*m+|a+h+|o+h+|ok(?:ay)?|so(?! (?:far|that|much|many)\b)|yeah|yes"
    r"|well|also|alright|basically|like|i mean|just to be sure|first and foremost)[,.!:;]*\s+)+",
    re.IGNORECASE,
)
_EMPHASIS = re.compile(r"\*\*|__")
_QUOTE_MARK = re.compile(r"^(?:>\s*)+")
# A sentence this long that the assistant said word for word before is pasted back; a
# shorter one ("always run the linter before committing") the person may say themselves.
_PASTED_BACK_CHARS = 60
# A dash is not among them: what follows a dash belongs to its sentence ("returns a string
# — always text" describes the code; it asks for nothing).
_CLAUSE = re.compile(
    r"\s*;\s*"
    r"|,?\s+and\s+(?=(?:please\s+)?(?:always|never|don't|do not|make sure|use|we)\b"
    r"|I(?:'d| would) rather\b|I (?:really |strongly )?(?:prefer|like|love|hate)\b"
    r"|(?:they|it)\s+(?:should|must)(?:\s+not|\s+never|n't)\b)"
    r"|\s+but\s+(?=(?:please\s+)?(?:don't|do not|make sure|use)\b|(?:always|never)\s+\w+\s+\S)"
    r"|,\s+(?=(?:that's|that is|this is) why we\b|(?:we|you|I)\s+(?:always|never)\b)",
    re.IGNORECASE,
)
# "never invalidates", "always returns": what a thing does, not what to do ("always
# pass", "never focus" are orders).
_DESCRIBES = re.compile(r"(?:always|never)\s+[a-z]+[^su\W]s\b", re.IGNORECASE)
_HOME = re.compile(r"(?<![\w.])(?:/Users|/home|[A-Z]:\\Users)[/\\][^/\\\s'\"`]+")
# A command's prompt file, pasted or inlined: its front matter, at the turn's start or
# after the person's own lines, or its placeholder for the person's words left unfilled.
_FRONT_MATTER = re.compile(r"(?m)^---\n(?:[\w-]+:.*\n){1,12}---$|\$ARGUMENTS\b")
_SEVERITY = re.compile(r"^\s*(?:low|medium|high|critical)\s+severity\s*$", re.I | re.M)
# A line that rules a spec into sections: "-----", "TASK:", "PHASE 2 - REGISTER BUTTON".
_SECTION = re.compile(r"^\s*(?:[-=_*]{5,}|[A-Z][A-Z0-9 ]{2,}(?:\s+[-—–]\s+[A-Z0-9 ]+)?:?)\s*$")
# A request tacked onto a statement ("it's fine to run them in parallel, can you revert
# that?") leaves the statement standing; a question typed without its "?" does not state.
# So does a short question tacked on after a comma ("I don't like turn, any other
# suggestions?", "..., right?").
_TACKED_REQUEST = re.compile(
    r",\s*(?:so\s+)?(?:(?:can|could|would|will) you\b[^,?]*|(?:any|anything|what|how|right"
    r"|or|ok|okay|correct|agreed|thoughts|ideas|alternatives|suggestions)\b[^,?]{0,40})\?\s*$",
    re.I,
)
_ASKS = re.compile(
    r"\b(?:do you think|what do you think|would that work|does that make sense)\b", re.I
)
# A statement whose subject is a pronoun ("they should not run in CI anyway") names its
# subject in the sentence before.
_LEANS = re.compile(
    r"^(?:(?:ok|so|and|but|also|yes|yeah|no|I think)[,]?\s+)*(?:they|it|this|that|these|those"
    r"|them|there|same|the same)\b",
    re.IGNORECASE,
)
# A sentence that muses rather than rules ("the easiest thing, theoretically, would be to
# ... always use the parent color"): what it says is a thought to test, not a rule.
_HEDGE = re.compile(r"\b(?:theoretically|in theory|hypothetically|would be to)\b", re.I)
Rule = tuple[str, "re.Pattern[str]", MemoryType, float]
# The phrasings, compiled once: each must match a statement from its start, after a lead.
RULES: tuple[Rule, ...] = tuple(
    (name, re.compile(LEAD + pattern, re.IGNORECASE), cast(MemoryType, kind), confidence)
    for name, kind, confidence, pattern in PHRASINGS
)


def human_turns(transcript: Transcript) -> Iterator[Turn]:
    """The turns a person typed (:func:`brain.sessions.conversation.typed_turns`, the one count)."""
    yield from typed_turns(transcript)


def _statements(text: str, heard: str = "") -> Iterator[tuple[str, str, str]]:
    """Prose clauses of a user turn, each with its sentence and the sentence before it;
    code and logs skipped. A line quoted with ``>`` is the person's words too (their own
    instructions pasted in), unless it quotes what the assistant said (``heard``, on one
    line in lower case)."""
    before = ""
    for line in _FENCE.sub("\n", text).splitlines():
        line = line.strip()
        if line.startswith(">"):
            line = _QUOTE_MARK.sub("", line)
            if not line or " ".join(_EMPHASIS.sub("", line).split()).lower() in heard:
                continue
        if not line or line.startswith(("$", "#", "|", "at ", "File ", "Traceback")):
            continue
        for sentence in _SENTENCE_END.split(line):
            sentence = _BULLET.sub("", sentence.strip()).strip()
            for clause in _CLAUSE.split(sentence):
                clause = _MARKER.sub("", _BULLET.sub("", clause.strip()).rstrip(")").strip())
                if 12 <= len(clause) <= _MAX_STATEMENT_CHARS:
                    yield clause, sentence, before
            before = sentence


def _looks_pasted(text: str) -> bool:
    """A long turn with markdown headings is a pasted document or a tool's prompt, a turn
    holding front matter (``---``, ``description: ...``, ``---``) or ``$ARGUMENTS`` holds
    a command's prompt file, and a turn with a severity line ("High Severity") is a
    review bot's finding.

    Rules written for agents (CLAUDE.md, a compaction prompt) say "NEVER ..." all
    the time, and a finding says what "should be" done; they are not the person stating
    a preference in their own words.
    """
    headings = sum(1 for line in text.splitlines() if line.lstrip().startswith("#"))
    return (
        len(text) > _MAX_TYPED_CHARS
        or headings >= 2
        or bool(_SEVERITY.search(text) or _FRONT_MATTER.search(text))
    )


def _looks_structured(text: str) -> bool:
    """A task written as a spec: ruled sections ("-----", "TASK:", "PHASE 2").

    Its bullets describe the thing to build ("- always falls back to a local image").
    """
    return sum(1 for line in text.splitlines() if _SECTION.match(line)) >= 2


def replies(transcript: Transcript) -> Iterator[tuple[Turn | None, Turn]]:
    """Each turn the person typed, with the assistant's last text before it since the
    person's previous turn (None when the assistant said nothing in between)."""
    typed = {id(t) for t in human_turns(transcript)}
    latest: Turn | None = None
    for turn in transcript.turns:
        if id(turn) in typed:
            yield latest, turn
            latest = None
        elif turn.role == "assistant" and turn.text.strip() and not turn.injected:
            latest = turn


def safe_to_keep(text: str) -> bool:
    """Whether ``text`` may go into a memory: it neither steers the memory ("remember to
    always ...", "store the token ...") nor carries or states a secret."""
    if INJECTION.search(text) or STORE_SECRET.search(text):
        return False
    return not (unsafe(text) or states_credential(text))


def unhomed(text: str) -> str:
    """``text`` with a home folder written as ``~``: a memory names no one's account."""
    return _HOME.sub("~", text)


CUT = "..."  # what ends a description :func:`one_line` had to cut


def one_line(text: str) -> str:
    """``text`` on one line, capitalised, without a spoken lead-in ("Hmmm, ", "Ok so ")
    or bold marks, trailing punctuation dropped, capped at 120 characters."""
    text = " ".join(_EMPHASIS.sub("", text).split()).rstrip(" .;,!:")
    text = _LEAD_IN.sub("", text) or text
    if len(text) <= DESCRIPTION_CHARS:
        return text[:1].upper() + text[1:]
    cut = text[: DESCRIPTION_CHARS - 3].rsplit(" ", 1)[0]
    return cut[:1].upper() + cut[1:] + CUT


def _describe(name: str, match: re.Match[str]) -> str | None:
    """The one-line description for a matched statement, or None to reject it."""
    what = match.group("what").strip()
    if _ASKS.search(what):
        return None  # a question typed without its "?": "... do you think that's much code"
    if name == "always" and _DESCRIBES.match(what):
        return None  # "... but never invalidates the session" says what code does
    if name in ("prefer", "my_pref"):
        # "I prefer this" is about what is on the screen
        return None if _DEICTIC.match(what) else one_line(f"Prefers {what}")
    if name == "always" and match.group("cond"):
        return one_line(f"{match.group('cond')}, {what}")
    return one_line(what)


def key_of(description: str) -> str:
    """The key a description gives: its first six meaningful words (a hyphenated word is
    one: "end-to-end"; a negation is never the last, see :func:`slugify`)."""
    unmarked = re.sub(r"\[REDACTED:[^\]]*\]", " ", description)  # never a key from a secret
    found = re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", unmarked.lower())
    words = [w for w in found if w not in KEY_STOP]
    return slugify(" ".join(words), max_words=6, stopwords=False)


def _match(sentence: str) -> tuple[str, re.Match[str], MemoryType, float] | None:
    sentence = _TACKED_REQUEST.sub("", sentence)
    if sentence.rstrip().endswith("?"):
        return None  # a question asks; it does not state
    lower = sentence.lower()
    for name, pattern, kind, confidence in RULES:
        needs = NEEDS.get(name)
        if needs is not None and not any(word in lower for word in needs):
            continue
        found = pattern.match(sentence)
        # "I prefer uv" names its subject in one word; the other rules need a phrase.
        least = 1 if name in ("prefer", "my_pref") else 2
        if found and len(found.group("what").split()) >= least:
            return name, found, kind, confidence
    return None


def _body(sentence: str, before: str, clause: str) -> str:
    """The sentence a statement was said in, after the one before it when the statement
    leans on it ("They should not run in CI", "always overwrite"): a memory stands alone."""
    said = " ".join(sentence[:_MAX_STATEMENT_CHARS].split())
    if before and _LEANS.match(clause) and not (unsafe(before) or states_credential(before)):
        said = " ".join(before[:_MAX_STATEMENT_CHARS].split()) + " " + said
    return redact(unhomed(said))


def candidates(transcript: Transcript, tags: tuple[str, ...]) -> Iterator[Candidate]:
    """Every statement a rule keeps, in the order said: each one said outright to last."""
    typed = {id(t) for t in human_turns(transcript)}
    heard: list[str] = []  # what the assistant said so far, which a quote may repeat
    heard_unspaced, heard_text = _Heard(heard, cjk.unspaced), _Heard(heard)
    for turn in transcript.turns:
        if id(turn) not in typed:
            if turn.role == "assistant" and not turn.injected:
                heard.append(" ".join(_EMPHASIS.sub("", turn.text).split()).lower())
            continue
        # A typographic apostrophe ("don’t", typed on a phone or pasted) reads as a plain one.
        text = _TAGGED.sub("\n", turn.text).replace("’", "'")
        if INJECTION.search(text) or STORE_SECRET.search(text):
            continue  # a turn that tries to steer the memory is not trusted at all
        # A pasted document or a long prompt (often written for agents, full of "NEVER", or
        # a prompt file a command expands into each turn it runs in) is not the person
        # stating a rule in their own words; nor is a task written as a spec, whose bullets
        # describe the thing to build.
        if _looks_pasted(text) or _looks_structured(text):
            continue
        evidence = (turn.lines,) if turn.lines != (0, 0) else ()
        if cjk.has_cjk(text):
            yield from _cjk_rules(text, evidence, tags, heard_unspaced)
        yield from _rules_said(text, evidence, tags, heard, heard_text)


def _rules_said(
    text: str,
    evidence: tuple[tuple[int, int], ...],
    tags: tuple[str, ...],
    heard: list[str],
    heard_text: Callable[[], str],
) -> Iterator[Candidate]:
    """The statements of one typed turn's ``text`` that a rule keeps, in the order said."""
    quoting = "\n".join(heard) if ">" in text else ""
    for clause, sentence, before in _statements(text, quoting):
        hit = _match(clause)
        if hit is None or unsafe(sentence) or states_credential(sentence):
            continue
        if _HEDGE.search(sentence) and hit[0] != "document_this":
            continue
        if _said_back(sentence, heard_text):
            continue  # the assistant's words, pasted back
        name, found, kind, confidence = hit
        described = _describe(name, found)
        if described is None:
            continue
        description = redact(unhomed(described))  # the key is derived from redacted text only
        yield Candidate(
            key=key_of(description),
            type=kind,
            description=description,
            body=_body(sentence, before, clause),
            tags=tags,
            confidence=confidence,
            evidence=evidence,
        )


class _Heard:
    """What the assistant said so far, one text, made when a sentence asks (rarely: only
    one a rule would keep) and kept until it grows; ``shape`` folds it as the sentence is
    folded (:func:`brain.models.builtin.cjk.unspaced`, or as it is)."""

    def __init__(self, heard: list[str], shape: Callable[[str], str] = str) -> None:
        self.heard = heard
        self.shape = shape
        self.made = (-1, "")

    def __call__(self) -> str:
        if self.made[0] != len(self.heard):
            self.made = (len(self.heard), self.shape("\n".join(self.heard)))
        return self.made[1]


def _said_back(sentence: str, heard: Callable[[], str]) -> bool:
    """Whether a long ``sentence`` is, word for word, what the assistant said before: a
    person pasting it back (to answer it, often to reject it), not stating a rule."""
    folded = " ".join(_EMPHASIS.sub("", sentence).split()).lower().rstrip(" .;,!:")
    return len(folded) >= _PASTED_BACK_CHARS and folded in heard()


def _cjk_rules(
    text: str,
    evidence: tuple[tuple[int, int], ...],
    tags: tuple[str, ...],
    heard: Callable[[], str],
) -> Iterator[Candidate]:
    """The rules said outright in Chinese or Japanese (:mod:`brain.models.builtin.cjk`),
    each the whole sentence typed; none the assistant said (``heard``) first."""
    for sentence, kind in cjk.rules(text, heard):
        said = redact(unhomed(sentence.rstrip("。！；;")))
        if not safe_to_keep(sentence):
            continue
        yield Candidate(
            key=cjk.key_for(said),
            type=kind,
            description=one_line(said),
            body=said,
            tags=tags,
            confidence=0.6,
            evidence=evidence,
        )
