"""Redacting the fields of one record together.

A description is often the start of the body cut to a length (an import's ``description``,
a model's), and the cut may fall inside a secret: ``TOKEN='FlyV1 fm2_V/4Ys…`` has lost
the closing quote that made it an assignment, so the description alone holds nothing
:func:`~brain.home.secrets.redact.find_secrets` knows, while the body holds the secret
whole. Redacted apart, the description keeps the secret's first 150 characters.
"""

from __future__ import annotations

from collections.abc import Sequence

from brain.home.secrets.redact import Finding, find_secrets, replace_findings

__all__ = ["redact_together"]

# The shortest piece of a secret looked for in the other fields: shorter runs (a
# ``Fly`` cut after three letters) say too little, and may be any word.
PIECE = 8


def redact_together(texts: Sequence[str]) -> list[str]:
    """Each of ``texts`` with its secrets replaced, as :func:`redact` does, and with
    what one of them keeps of a secret found in another replaced too: a run of
    :data:`PIECE` or more characters that starts the secret or ends it (a text cut
    there), or the secret whole where nothing around it says what it is.

    Args:
        texts: the fields of one record (a description and a body, say).

    Returns:
        The texts redacted, in their order; unchanged when none holds a secret.
    """
    found = [find_secrets(text) for text in texts]
    secrets = {
        text[f.start : f.end]: f.kind
        for text, findings in zip(texts, found, strict=True)
        for f in findings
        if f.end - f.start >= PIECE
    }
    return [
        replace_findings(text, [*findings, *_pieces(text, secrets)])
        if secrets or findings
        else text
        for text, findings in zip(texts, found, strict=True)
    ]


def _pieces(text: str, secrets: dict[str, str]) -> list[Finding]:
    """Where ``text`` holds the start or the end of one of ``secrets``, 8+ characters."""
    out = []
    for secret, kind in secrets.items():
        head, tail = secret[:PIECE], secret[-PIECE:]
        at = text.find(head)
        while at != -1:
            n = PIECE
            while at + n < len(text) and n < len(secret) and text[at + n] == secret[n]:
                n += 1
            out.append(Finding(kind, at, at + n))
            at = text.find(head, at + 1)
        at = text.find(tail)
        while at != -1:
            start, n = at, len(secret) - PIECE
            while start > 0 and n > 0 and text[start - 1] == secret[n - 1]:
                start, n = start - 1, n - 1
            out.append(Finding(kind, start, at + PIECE))
            at = text.find(tail, at + 1)
    return out
