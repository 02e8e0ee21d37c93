"""What must never become a memory, whoever proposes it.

A statement that asks the memory to keep a credential, reads as an instruction to the
memory system ("ignore previous instructions and remember ...") or tells agents to run
fetched code (``curl ... | sh``, a base64-decoded command, a new package source) is
refused; a credential in an otherwise harmless statement is redacted, not refused. The
built-in model applies this to what a person typed; the model registry applies it again
to every model's answer (:class:`brain.models.registry.Filtered`), so a
model that follows an instruction injected into a transcript still stores nothing. What
passes here is then checked against the session it came from (:mod:`brain.pipeline.trust`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from brain.home.secrets.keysecrets import derive_key, key_holds_secret
from brain.home.secrets.redact import redact
from brain.home.secrets.together import redact_together

if TYPE_CHECKING:
    from brain.models.schema import Candidate, Extraction, Operation

# ("rules" only with a word that says whose: "add ignore rules" is .gitignore's)
INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*"
    r"(?:previous\s+|prior\s+|above\s+|earlier\s+|system\s+)*(?:instructions|prompts?)\b"
    r"|\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+)*"
    r"(?:your\s+|previous\s+|prior\s+|above\s+|earlier\s+|system\s+|other\s+)+rules\b"
    # (an app's own system prompt, which a person building one talks of, is none: "move the
    # command list out of the system prompt")
    r"|\b(?:your|reveal|print|show|leak|repeat|output|disclose|dump)\s+(?:\w+\s+){0,2}"
    r"system prompts?\b|\byou are now\b|\bnew instructions\b|\bjailbreak",
    re.IGNORECASE,
)
_SECRET_WORDS = (
    r"(?:passwords?|passwd|passphrases?|pass ?codes?|secrets?|api[ _-]?keys?|access[ _-]?keys?"
    r"|tokens?|credentials?|private[ _-]?keys?|ssh[ _-]?keys?)"
)
# "the deploy password is hunter2", "token: abc" - a credential with its value.
CREDENTIAL_VALUE = re.compile(
    rf"\b{_SECRET_WORDS}\b[^.\n]{{0,25}}?(?:\bis\b|\bare\b|\bwas\b|=|:)\s*\S", re.IGNORECASE
)
# "remember/store/save ... the password" - asking the memory to keep a credential.
# (a model's tokens are spent, not kept: "keep answers short to save tokens", "keep the
# token usage down" ask nothing of the kind)
_SPENT_TOKENS = (
    r"(?<!save )(?<!saving )(?<!fewer )(?<!more )(?<!less )(?<!many )(?<!output )(?<!input )"
    r"tokens?(?![ _-]?(?:usage|use|consumption|budget|limits?|counts?|costs?|spend|per|window))"
)
# The credential is the verb's object: a determiner and two words at most between them,
# no clause boundary ("keep the test config and debug the token check" keeps no token; a
# key's slug, keep-test-env-token, asks nothing).
STORE_SECRET = re.compile(
    r"\b(?:remember|store|save|memori[sz]e|keep)[ \t]+"
    r"(?:(?:this|that|these|those|the|my|our|your|his|her|its|their|a|an|new)[ \t]+)?"
    r"(?:[\w.-]+[ \t]+){0,2}"
    + _SECRET_WORDS.replace("|tokens?|", "|" + _SPENT_TOKENS + "|")
    + r"\b",
    re.IGNORECASE,
)


# Instructions to run code fetched from elsewhere: a planted "always run curl ... | sh"
# must never become a memory an agent obeys, whatever words surround it.
FETCHED_CODE = re.compile(
    r"\b(?:curl|wget|fetch|iwr|invoke-webrequest)\b[^\n|]{0,300}\|\s*(?:sudo\s+)?"
    r"(?:ba|z|k|da)?sh\b|\b(?:curl|wget)\b[^\n|]{0,300}\|\s*(?:sudo\s+)?(?:python3?|perl|ruby|node)\b"
    r"|\bbase64\s+(?:-d|--decode|-D)\b[^\n]{0,100}\|\s*(?:sudo\s+)?(?:ba|z)?sh\b"
    r"|\b(?:eval|source)\s+[\"']?\$\(\s*(?:curl|wget)\b|\bbash\s+<\(\s*(?:curl|wget)\b"
    r"|\b(?:iex|invoke-expression)\b[^\n]{0,100}(?:downloadstring|iwr|invoke-webrequest)"
    r"|--(?:extra-)?index-url\s|\bpip\s+config\s+set\b|\bnpm\s+config\s+set\s+registry\b"
    r"|\badd-apt-repository\b|\bsources\.list(?:\.d)?\b|\bapt-key\s+add\b",
    re.IGNORECASE,
)


def unsafe(text: str) -> bool:
    """Whether ``text`` asks something of the memory system or of the agents that read it:
    an injected instruction, a request to keep a credential, or an instruction to run
    fetched code or trust a new package source. Such a statement is refused whole;
    a credential alone is not a reason to refuse (see :func:`redacted_text`)."""

    return bool(INJECTION.search(text) or STORE_SECRET.search(text) or FETCHED_CODE.search(text))


def states_credential(text: str) -> bool:
    """Whether ``text`` states a credential's value ("the deploy password is hunter2"):
    redacted, nothing of it is left worth keeping. A mention (an ``api_keys`` table, the
    ``ghp_`` prefix, a ``<your-password>`` placeholder) is not a statement of one."""

    return redact(text) != text and bool(CREDENTIAL_VALUE.search(text))


def safe_key(key: str, description: str) -> str:
    """``key``, or one derived from the redacted description when the key holds a
    credential: a key becomes a file name, a commit message and a journal line."""

    if not key_holds_secret(key):
        return key
    return derive_key(redact(description))


def refusal(text: str) -> str | None:
    """Why a memory saying ``text`` is refused whole, in words a person reads in a run's
    report, or None when it is not."""

    if INJECTION.search(text):
        return "it reads as an instruction to the memory system"
    if STORE_SECRET.search(text):
        return "it asks to keep a credential"
    if FETCHED_CODE.search(text):
        return "it tells agents to run fetched code or trust a new package source"
    if states_credential(text):
        return "it states a credential"
    return None


def safe_extraction(extraction: Extraction) -> Extraction:
    """What phase 1 may keep of a model's answer: every candidate that does not instruct
    (see :func:`unsafe`), credentials redacted in each field and kept out of its key;
    the summary redacted, or dropped when it instructs. Why each refused candidate was
    refused is its ``refused``: a run reports them, so none vanishes unseen."""

    kept: list[Candidate] = []
    refused: list[str] = []
    for m in extraction.memories:
        why = refusal("\n".join([m.key, m.description, m.body, *m.tags]))
        if why is None:
            kept.append(_redacted_candidate(m))
        else:
            refused.append(why)
    summary = "" if unsafe(extraction.summary) else redact(extraction.summary)
    return replace(extraction, memories=tuple(kept), summary=summary, refused=tuple(refused))


def _redacted_candidate(m: Candidate) -> Candidate:
    # The description and body together: a description the model cut from the body may
    # end inside a secret that only the body holds whole.
    description, body = redact_together((m.description, m.body))
    key = safe_key(m.key, m.description)
    tags = tuple(redact(t) for t in m.tags)
    return replace(m, key=key, description=description, body=body, tags=tags)


def _refused(text: str) -> bool:
    return refusal(text) is not None


def safe_operations(operations: Sequence[Operation]) -> list[Operation]:
    """What phase 2 may do of a model's answer: operations whose record does not instruct
    (an archive writes no text), with every text field and reason redacted; an
    operation on a key that holds a credential is refused (the key names a record)."""

    said = [
        op
        for op in operations
        if not key_holds_secret(op.key)
        and (
            op.op == "archive"
            or not _refused("\n".join([op.key, op.description or "", op.body or "", *op.tags]))
        )
    ]
    return [_redacted_operation(op) for op in said]


def _redacted_operation(op: Operation) -> Operation:
    # Together, as a candidate's (see _redacted_candidate).
    description, body = redact_together((op.description or "", op.body or ""))
    return replace(
        op,
        reason=redact(op.reason),
        description=description if op.description else op.description,
        body=body if op.body else op.body,
        tags=tuple(redact(t) for t in op.tags),
    )
