"""Count the redaction markers in what phase 1 sends of real sessions, and judge each.

Every session of ``data/extract_quality`` (labels.json names its transcript format) is
rendered as phase 1 sends it (:class:`brain.models.base.ExtractTask`'s messages, at the
configured budget), with the redaction that text goes through watched: each marker is
recorded with the value it replaced and the text around it. ``data/redact_markers.json``
holds a person's judgement of each value met so far (a credential or not, by the
SHA-256 of the value, with a word of why); precision is the share of markers standing
where a credential is, over the judged ones, and the unjudged are listed to judge.

With ``--honest`` the sessions of ``honest/`` (its shipped ones and those fetched into its
``local/`` as its SOURCES.md says) are read too, each sniffed as ``brain harvest --path``
does; ``--extra DIR`` reads the sessions of any folder the same way. ``--blind`` reads only
``redact_blind/local/``: real sessions the rules were never tuned on (``redact_blind/SOURCES.md``
says where each came from), scored to see whether what was tuned holds elsewhere;
``--blind2`` reads only ``redact_blind2/local/``, a second such set (``redact_blind2/SOURCES.md``),
``--blind3`` only ``redact_blind3/local/``, a third, mostly long sessions full of tool
output, Codex and Gemini among them (``redact_blind3/SOURCES.md``), ``--blind4`` only
``redact_blind4/local/``, a fourth (``redact_blind4/SOURCES.md``), ``--blind5`` only
``redact_blind5/local/``, a fifth (``redact_blind5/SOURCES.md``), ``--blind6`` only
``redact_blind6/local/``, a sixth (``redact_blind6/SOURCES.md``), ``--blind7`` only
``redact_blind7/local/``, a seventh (``redact_blind7/SOURCES.md``), ``--blind8`` only
``redact_blind8/local/``, an eighth (``redact_blind8/SOURCES.md``), and ``--blind9`` only
``redact_blind9/local/``, a ninth (``redact_blind9/SOURCES.md``).

Run: ``python benchmarks/redact_markers.py [--honest] [--extra DIR]
[--blind | --blind2 | ... | --blind9]
[--samples N] [--unjudged] [--json]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from brain.home.config import Config  # noqa: E402
from brain.home.secrets import redact as redact_module  # noqa: E402
from brain.models import phase1_text  # noqa: E402
from brain.models.base import ExtractTask  # noqa: E402
from brain.sessions import sources  # noqa: E402
from brain.sessions.sources.sniff import sniff  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
SESSIONS = DATA / "extract_quality"
JUDGED = DATA / "redact_markers.json"
HONEST = tuple(Path(__file__).resolve().parent / "honest" / d for d in ("sessions", "local"))
BLIND = Path(__file__).resolve().parent / "redact_blind" / "local"
BLIND2 = Path(__file__).resolve().parent / "redact_blind2" / "local"
BLIND3 = Path(__file__).resolve().parent / "redact_blind3" / "local"
BLIND4 = Path(__file__).resolve().parent / "redact_blind4" / "local"
BLIND5 = Path(__file__).resolve().parent / "redact_blind5" / "local"
BLIND6 = Path(__file__).resolve().parent / "redact_blind6" / "local"
BLIND7 = Path(__file__).resolve().parent / "redact_blind7" / "local"
BLIND8 = Path(__file__).resolve().parent / "redact_blind8" / "local"
BLIND9 = Path(__file__).resolve().parent / "redact_blind9" / "local"


class Marker(NamedTuple):
    session: str
    kind: str
    value: str
    context: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.value.encode()).hexdigest()[:16]


def _context(text: str, start: int, end: int, width: int = 60) -> str:
    before = text[max(0, start - width) : start]
    after = text[end : end + width]
    return " ".join(f"{before}⟦{text[start:end]}⟧{after}".split())


def _watched(markers: list[Marker], session: str) -> tuple[Callable[..., str], Callable[..., str]]:
    """``redact`` and ``redact_slice`` as phase 1 calls them, recording each marker."""
    find = redact_module.find_secrets

    def redact(text: str) -> str:
        for f in find(text):
            markers.append(
                Marker(session, f.kind, text[f.start : f.end], _context(text, f.start, f.end))
            )
        return redact_module.redact(text)

    def redact_slice(text: str, start: int, end: int, margin: int = 2_000) -> str:
        lo, hi = max(0, start - margin), min(len(text), end + margin)
        for f in find(text[lo:hi]):
            a, b = f.start + lo, f.end + lo
            if a < end and b > start:
                markers.append(Marker(session, f.kind, text[a:b], _context(text, a, b)))
        return redact_module.redact_slice(text, start, end, margin)

    return redact, redact_slice


def sessions(
    honest: bool = False, extra: tuple[Path, ...] = (), shipped: bool = True
) -> list[tuple[str, Any]]:
    """Each shipped session's name and parsed transcript (and those of the honest corpus
    and of each ``extra`` folder)."""
    labelled = json.loads((SESSIONS / "labels.json").read_text())["sessions"] if shipped else []
    out = []
    for session in labelled:
        path = SESSIONS / "sessions" / session["file"]
        if path.is_file():
            out.append((session["file"], sources.get(session["source"]).parse(path).transcript))
    for folder in (*(HONEST if honest else ()), *extra):
        for path in sorted(folder.glob("*.json*")) if folder.is_dir() else ():
            source = sniff(path)
            if source is not None:
                out.append((path.name, sources.get(source).parse(path).transcript))
    return out


def collect(
    budget: int, honest: bool = False, extra: tuple[Path, ...] = (), shipped: bool = True
) -> tuple[list[Marker], int, int]:
    """The markers phase 1's text holds, the count of ``[REDACTED:`` in that text (the
    same, or the watch missed a path), and the sessions read."""
    markers: list[Marker] = []
    seen = 0
    read = sessions(honest, extra, shipped)
    for name, transcript in read:
        phase1_text.redact, phase1_text.redact_slice = _watched(markers, name)  # type: ignore[assignment]
        sent = "\n".join(m["content"] for m in ExtractTask(transcript, budget, 2_000).messages())
        seen += sent.count("[REDACTED:")
    return markers, seen, len(read)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=3, help="contexts shown per rule")
    parser.add_argument("--unjudged", action="store_true", help="list every unjudged marker")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--honest", action="store_true", help="read honest/'s sessions too")
    parser.add_argument(
        "--extra", type=Path, action="append", default=[], help="read DIR's sessions too"
    )
    blind = parser.add_mutually_exclusive_group()
    blind.add_argument(
        "--blind", action="store_true", help="read only redact_blind/local/'s sessions"
    )
    blind.add_argument(
        "--blind2", action="store_true", help="read only redact_blind2/local/'s sessions"
    )
    blind.add_argument(
        "--blind3", action="store_true", help="read only redact_blind3/local/'s sessions"
    )
    blind.add_argument(
        "--blind4", action="store_true", help="read only redact_blind4/local/'s sessions"
    )
    blind.add_argument(
        "--blind5", action="store_true", help="read only redact_blind5/local/'s sessions"
    )
    blind.add_argument(
        "--blind6", action="store_true", help="read only redact_blind6/local/'s sessions"
    )
    blind.add_argument(
        "--blind7", action="store_true", help="read only redact_blind7/local/'s sessions"
    )
    blind.add_argument(
        "--blind8", action="store_true", help="read only redact_blind8/local/'s sessions"
    )
    blind.add_argument(
        "--blind9", action="store_true", help="read only redact_blind9/local/'s sessions"
    )
    args = parser.parse_args()
    chosen = (
        (args.blind, BLIND),
        (args.blind2, BLIND2),
        (args.blind3, BLIND3),
        (args.blind4, BLIND4),
        (args.blind5, BLIND5),
        (args.blind6, BLIND6),
        (args.blind7, BLIND7),
        (args.blind8, BLIND8),
        (args.blind9, BLIND9),
    )
    only = next((folder for flag, folder in chosen if flag), None)
    extra = (*args.extra, only) if only else tuple(args.extra)
    for folder in extra:
        if not folder.is_dir():
            parser.error(
                f"{folder} is not a folder of sessions (fetch them as its SOURCES.md says)"
            )
    judged: dict[str, dict[str, Any]] = json.loads(JUDGED.read_text()) if JUDGED.is_file() else {}
    markers, seen, count = collect(
        Config().extract_session_tokens, args.honest and not only, extra, not only
    )
    verdicts = [judged.get(m.digest, {}).get("credential") for m in markers]
    good = sum(v is True for v in verdicts)
    bad = sum(v is False for v in verdicts)
    figures = {
        "sessions": count,
        "markers": len(markers),
        "markers_in_text": seen,
        "credential": good,
        "not_credential": bad,
        "unjudged": len(markers) - good - bad,
        "precision": round(good / (good + bad), 3) if good + bad else None,
        "by_kind": dict(Counter(m.kind for m in markers).most_common()),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(
        f"{count} sessions, {len(markers)} markers ({seen} in the text sent): "
        f"{good} credential, {bad} not, {figures['unjudged']} unjudged; "
        f"precision {figures['precision']}"
    )
    for kind, n in Counter(m.kind for m in markers).most_common():
        of = [(m, v) for m, v in zip(markers, verdicts, strict=True) if m.kind == kind]
        ok = sum(v is True for _, v in of)
        print(f"  {kind:28} {n:4}  ({ok} credential)")
        for m, v in of[: args.samples]:
            label = {True: "cred", False: "NOT ", None: "??? "}[v]
            print(f"      {label} {m.digest} {m.session[:30]}: {m.context[:170]}")
    if args.unjudged:
        for m, v in zip(markers, verdicts, strict=True):
            if v is None:
                print(f"?? {m.digest} {m.kind} {m.session[:30]}: {m.context[:220]}")


if __name__ == "__main__":
    main()
