"""Instructions that weaken a safety: never kept on a model's word alone.

A memory becomes what every agent reads at the start of every session, so a rule to turn
off certificate checks, commit or print secrets, leave the sandbox, install over the
system's packages, open permissions to everyone or skip the commit hooks does harm in
every later session. Whatever evidence a model cites for one, it could have been planted
in what the session read; so phase 1 holds such a memory for ``brain review``, phase 2
writes one only from a raw memory the person accepted there, and the memories waiting
for a consolidation leave out one no person accepted (:func:`brain.pipeline.runs.held_back`).
What a person types with ``brain remember`` is theirs and is written as typed.

A rule that says the safe thing ("never commit secrets", "do not use ``--no-verify``")
is not held: a negation just before the match lets it pass.
"""

from __future__ import annotations

import re

__all__ = ["weakens_safety"]

_PATTERNS = (
    # TLS and certificate checks
    r"NODE_TLS_REJECT_UNAUTHORIZED\s*[=:]?\s*['\"]?0",
    r"\bverify\s*=\s*False\b",
    r"\b(?:PYTHONHTTPSVERIFY|GIT_SSL_NO_VERIFY)\s*=\s*['\"]?(?:0|1|true)",
    r"\bhttp\.sslVerify\s*(?:=\s*)?false\b|\bsslVerify\s*[:=]\s*false\b",
    r"\bstrict-ssl\s*(?:=\s*)?false\b|\brejectUnauthorized\s*:\s*false\b",
    r"\bInsecureSkipVerify\s*:?\s*true\b|\bssl_verify\w*\s*[:=]\s*(?:false|0|no)\b",
    r"--no-check-certificate\b|--insecure\b|\bcurl\s+(?:-\w+\s+)*-k\b|--trusted-host\b",
    r"\b(?:disabl|turn\w*\s+off|switch\w*\s+off|skip|bypass|ignor|turn\w*\s+of)\w*\s+"
    r"(?:the\s+|all\s+|any\s+)?(?:tls|ssl|https|certificates?|cert)"
    r"(?:\s+(?:verification|validation|checks?|checking|errors?))?\b",
    r"\b(?:tls|ssl|certificate|cert)\s+(?:verification|validation|checks?|checking)\s+"
    r"(?:off|disabled|is\s+not\s+needed)\b",
    # secrets
    # (each verb as a word: "the logic as a Secret Double-Tap" logs nothing)
    r"\b(?:commit(?:s|ted|ting)?|check(?:s|ed|ing)?\s+in|push(?:es|ed|ing)?)\s+"
    r"(?:the\s+|all\s+|your\s+|our\s+)?"
    r"(?:secrets?|credentials?|api[ _-]?keys?|passwords?|tokens?|private\s+keys?|\.env\b)",
    r"\b(?:print|echo|log|show|display|dump|paste|output|reveal)"
    r"(?:s|es|ed|ged|ing|ging|n|ting)?\s+(?:out\s+)?"
    r"(?:the\s+|all\s+|every\s+|our\s+|your\s+)?(?:\S+\s+){0,2}?"
    r"(?:secrets?|credentials?|api[ _-]?keys?|passwords?|access\s+tokens?|private\s+keys?)\b"
    # a secret's word that names a thing after it is that thing: "a password field"
    r"(?!\s+(?:fields?|inputs?|box(?:es)?|prompts?|forms?|dialogs?|resets?|polic(?:y|ies)"
    r"|managers?|strength|rules?|hints?|screens?|pages?)\b)",
    # sandboxes and approvals
    r"--dangerously-skip-permissions\b|--dangerously-bypass-approvals-and-sandbox\b|--yolo\b",
    r"\bdanger-full-access\b|--no-sandbox\b|\bsandbox\w*\s*[:=]\s*(?:false|off|none|no)\b",
    r"\b(?:disabl|turn\w*\s+off|bypass|skip|escap|leav)\w*\s+(?:the\s+)?sandbox",
    r"\bsetenforce\s+0\b|\bufw\s+disable\b|--privileged\b|\bNOPASSWD\b",
    # packages, permissions, hooks
    r"--break-system-packages\b|--allow-unauthenticated\b|--nogpgcheck\b|--no-gpg-check\b",
    r"\bchmod\s+(?:-R\s+)?0?777\b|\bchmod\s+(?:-R\s+)?a\+rwx\b",
    r"--no-verify\b|\bHUSKY\s*=\s*0\b|\bcore\.hooksPath\s*=?\s*/dev/null",
    r"\bsafe\.directory\s+['\"]?\*",
)
_WEAKENS = re.compile("|".join(f"(?:{p})" for p in _PATTERNS), re.IGNORECASE)
# A negation a few words before the match: the rule says not to do it.
_NEGATED = re.compile(
    r"(?:\bnever|\bnot|\bno|n't|\bavoid\w*|\bwithout|\bstop\w*|\bforbid\w*|\bban\w*"
    r"|\bdon't|\bmust\s+not|\brefuse\w*|\binstead\s+of)\b[^.;\n]{0,30}$",
    re.IGNORECASE,
)


def weakens_safety(text: str) -> bool:
    """Whether ``text`` tells agents to weaken a safety: turn off TLS or certificate
    checks, commit or print secrets, leave the sandbox, ``--break-system-packages``,
    ``chmod 777``, skip commit hooks (``--no-verify``) ... A match just after a negation
    ("never use ``--no-verify``") does not count."""
    for found in _WEAKENS.finditer(text):
        if not _NEGATED.search(text[max(0, found.start() - 40) : found.start()]):
            return True
    return False
