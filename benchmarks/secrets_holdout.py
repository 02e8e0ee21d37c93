"""Measure redaction on a hold-out corpus written without reading brain's rules.

``data/secrets_holdout.json`` holds secrets (kind, text, the substring that must not
survive) and innocent look-alikes (kind, text), all synthetic. Each entry path gets a
fresh home; the whole home is then read (every file, ``.brain/`` included, and
``git log -p --all``) and each secret looked for. A secret found whole is *missed*;
one of its halves found (8+ characters) is a *partial* leak; otherwise it is *caught*
(``refused`` when the write was refused with an error). A look-alike refused, or
changed by ``redact()``, is a *false positive*.

Paths: ``redact()`` itself; ``remember`` with the text, as a description, as a tag,
as a key a person typed; ``import``; the MCP ``remember`` tool, and the same held for
review (a text that weakens a safety) with the text as its tag; each text as a command's
output in a Codex rollout of the older exec-output format, harvested; a session harvested,
extracted and consolidated by the builtin model; the same with a model that repeats
the text back (what it was sent, and what was stored).

Run: ``python benchmarks/secrets_holdout.py [--paths a,b] [--data FILE] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from brain.api import Brain
from brain.errors import BrainError

try:  # run as a script from benchmarks/, or imported as benchmarks.secrets_holdout
    import secrets_paths as sp
except ImportError:
    from benchmarks import secrets_paths as sp

DATA = Path(__file__).parent / "data" / "secrets_holdout.json"


@dataclass(frozen=True)
class Item:
    kind: str
    text: str
    secret: str = ""


@dataclass
class Result:
    """What one path did with the corpus: kinds by outcome, look-alikes it changed."""

    missed: list[str] = field(default_factory=list)
    partial: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    refused_other: list[str] = field(default_factory=list)
    false_positives: list[str] = field(default_factory=list)
    refusals: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    checks_lookalikes: bool = True


def load(path: Path) -> tuple[list[Item], list[Item]]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    secrets = [Item(x["kind"], x["text"], x["secret"]) for x in doc["secrets"]]
    lookalikes = [Item(x["kind"], x["text"]) for x in doc["lookalikes"]]
    return secrets, lookalikes


def leak(secret: str, seen: str, halves: tuple[str, ...] = ()) -> str | None:
    """``whole`` when the secret is in ``seen``, ``part`` when one of ``halves`` is."""
    if secret in seen:
        return "whole"
    if any(h in seen for h in halves):
        return "part"
    return None


def halves(item: Item, others: list[Item]) -> tuple[str, ...]:
    """The secret's halves (8+ characters) that no other entry's text contains.

    Two synthetic passwords may share a word; a half found on disk then says nothing.
    """
    n = len(item.secret) // 2
    if n < 8:
        return ()
    parts = (item.secret[:n], item.secret[n:])
    return tuple(h for h in parts if not any(h in o.text for o in others if o is not item))


_HALVES: dict[str, tuple[str, ...]] = {}


def _score(result: Result, secrets: list[Item], seen: str) -> None:
    for item in secrets:
        found = leak(item.secret, seen, _HALVES.get(item.kind, ()))
        if found == "whole":
            result.missed.append(item.kind)
        elif found == "part":
            result.partial.append(item.kind)


# -- entry paths: each takes the texts and returns (everything stored, refusal per text)


def _typed_key(brain: Brain, i: int, text: str) -> None:
    """A key a person typed: the text's ASCII letters and digits, joined by dashes."""
    words = "".join(c if c.isascii() and c.isalnum() else " " for c in text.lower()).split()
    brain.remember(
        f"Entry {i} is noted here.", key="-".join(words)[:120].strip("-") or f"entry-{i}"
    )


def _write_path(name: str) -> Callable[[list[str]], tuple[str, list[str | None]]]:
    write = _typed_key if name == "remember key" else sp.PATHS[name]

    def run(texts: list[str]) -> tuple[str, list[str | None]]:
        home = Path(tempfile.mkdtemp()) / "home"
        brain = Brain.init(home)[0]
        refusals: list[str | None] = []
        for i, text in enumerate(texts):
            try:
                write(brain, i, text)
                refusals.append(None)
            except BrainError as e:
                refusals.append(str(e))
        return sp._disk(home), refusals

    return run


def _mcp(texts: list[str]) -> tuple[str, list[str | None]]:
    """The MCP ``remember`` tool, called in-process as ``brain mcp`` calls it."""
    from brain.agents.mcp_tools import TOOLS, call_tool

    home = Path(tempfile.mkdtemp()) / "home"
    Brain.init(home)
    remember = TOOLS["remember"]
    refusals: list[str | None] = []
    for text in texts:
        result = call_tool(remember, {"text": text}, home, None)
        refusals.append(result["content"][0]["text"] if result["isError"] else None)
    return sp._disk(home), refusals


def _mcp_held(texts: list[str]) -> tuple[str, list[str | None]]:
    """The MCP ``remember`` tool with a text that weakens a safety (held for review), the
    corpus text as its tag."""
    from brain.agents.mcp_tools import TOOLS, call_tool

    home = Path(tempfile.mkdtemp()) / "home"
    Brain.init(home)
    remember = TOOLS["remember"]
    refusals: list[str | None] = []
    for i, text in enumerate(texts):
        said = f"Always pass curl -k to staging mirror {i}, its certificate is self-signed."
        result = call_tool(remember, {"text": said, "tags": [text]}, home, None)
        refusals.append(result["content"][0]["text"] if result["isError"] else None)
    return sp._disk(home), refusals


def _codex_exec(texts: list[str]) -> tuple[str, list[str | None]]:
    """Each text as what a command printed, in a Codex rollout whose exec output is the
    older ``{"output": ..., "metadata": ...}`` document (escaped inside the JSON line);
    harvested, so it reaches the search index."""
    from brain.sessions.harvest import harvest

    root = Path(tempfile.mkdtemp())
    home = root / "home"
    brain = Brain.init(home)[0]
    folder = root / "rollouts"
    folder.mkdir()
    paths = []
    for i, text in enumerate(texts):
        sid = f"00000000-0000-4000-8000-{i:012d}"
        output = json.dumps({"output": text, "metadata": {"exit_code": 0}})
        lines = [
            {"type": "session_meta", "payload": {"id": sid, "cwd": "/src/shop"}},
            {"type": "response_item", "payload": {"type": "message", "role": "user",
             "content": [{"type": "input_text", "text": "Show me the settings."}]}},
            {"type": "response_item", "payload": {"type": "function_call", "name": "shell",
             "arguments": json.dumps({"command": ["cat", "settings"]}), "call_id": "c1"}},
            {"type": "response_item", "payload": {"type": "function_call_output",
             "call_id": "c1", "output": output}},
        ]  # fmt: skip
        stamp = sp.NOW.strftime("%Y-%m-%dT%H:%M:%S.000Z")
        path = folder / f"rollout-2026-08-22T12-00-00-{sid}.jsonl"
        path.write_text("".join(json.dumps({"timestamp": stamp, **x}) + "\n" for x in lines))
        paths.append(path)
    harvest(brain, paths=paths, now=sp.NOW + timedelta(hours=2))
    found = Brain.open(home).recall("settings", sessions=True, count_uses=False)  # indexes
    assert found.hits, "the sessions were not indexed"
    return sp._disk(home), [None] * len(texts)


def _builtin(texts: list[str]) -> tuple[str, list[str | None]]:
    """Every text a person typed in a session; harvest, extract, consolidate (builtin)."""
    from brain.evals import write_session
    from brain.pipeline.consolidate import consolidate
    from brain.pipeline.extract import extract
    from brain.sessions.harvest import harvest

    root = Path(tempfile.mkdtemp())
    home = root / "home"
    brain = Brain.init(home)[0]
    # Said as a standing rule, so the builtin's statement rules consider keeping it.
    lines = {f"s{i}": [f"From now on always remember this: {t}", t] for i, t in enumerate(texts)}
    paths = [write_session(root / "s", sid, said, when=sp.NOW) for sid, said in lines.items()]
    harvest(brain, paths=paths, now=sp.NOW + timedelta(hours=2))
    saved = {k: os.environ.get(k) for k in ("BRAIN_EXTRACT_MODEL", "BRAIN_CONSOLIDATE_MODEL")}
    os.environ.update({k: "builtin" for k in saved})
    try:
        brain = Brain.open(home)
        extract(brain, now=sp.NOW + timedelta(hours=3))
        consolidate(brain, force=True, now=sp.NOW + timedelta(hours=3), catalog=brain.catalog)
    finally:
        for k, v in saved.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    return sp._disk(home), [None] * len(texts)


WRITE_PATHS = {
    "remember text": _write_path("remember text"),
    "remember description": _write_path("remember description"),
    "remember tag": _write_path("remember tag"),
    "remember key": _write_path("remember key"),
    "import": _write_path("import"),
    "mcp remember": _mcp,
    "mcp remember held (tag)": _mcp_held,
    "codex exec output (index)": _codex_exec,
    "builtin harvest+extract+consolidate": _builtin,
}
ECHO = ("echo: sent to the model", "echo: extract + consolidate")
ALL = ("redact()", *WRITE_PATHS, *ECHO)


def _run_redact(secrets: list[Item], lookalikes: list[Item]) -> Result:
    from brain.home.secrets.redact import redact

    result = Result()
    for item in secrets:
        _score(result, [item], redact(item.text))
    result.false_positives = [x.kind for x in lookalikes if redact(x.text) != x.text]
    return result


def _run_write(name: str, secrets: list[Item], lookalikes: list[Item]) -> Result:
    from brain.home.secrets.redact import redact

    result = Result(checks_lookalikes=name not in _NO_LOOKALIKES)
    disk, refusals = WRITE_PATHS[name]([x.text for x in secrets])
    _score(result, secrets, disk)
    for item, why in zip(secrets, refusals, strict=True):
        if why:
            (result.refused if _for_secret(why) else result.refused_other).append(item.kind)
    if result.checks_lookalikes:
        _, refusals = WRITE_PATHS[name]([x.text for x in lookalikes])
        for item, why in zip(lookalikes, refusals, strict=True):
            if why:
                result.refusals[item.kind] = why
            # A key is never redacted, only refused; other fields pass through redact().
            changed = name != "remember key" and redact(item.text) != item.text
            if (why and _for_secret(why)) or changed:
                result.false_positives.append(item.kind)
    return result


# Paths whose look-alikes are not compared: the builtin keeps only what it finds worth
# keeping; an index holds its own tokenised copy of each text.
_NO_LOOKALIKES = ("builtin harvest+extract+consolidate", "codex exec output (index)")


def _for_secret(message: str) -> bool:
    """Whether a refusal is brain's secret check (not, say, a key that is no slug)."""
    return any(word in message.lower() for word in ("credential", "secret"))


def _run_echo(secrets: list[Item]) -> dict[str, Result]:
    disk, sent = sp._through_models([x.text for x in secrets])
    out = {}
    for name, seen in zip(ECHO, (sent, disk), strict=True):
        out[name] = result = Result(checks_lookalikes=False)
        _score(result, secrets, seen)
    return out


def run(secrets: list[Item], lookalikes: list[Item], paths: list[str]) -> dict[str, Result]:
    """Caught, missed, partial and false positives for each path asked for."""
    everything = [*secrets, *lookalikes]
    _HALVES.update({x.kind: halves(x, everything) for x in secrets})
    results: dict[str, Result] = {}
    for name in paths:
        start = time.perf_counter()
        if name == "redact()":
            results[name] = _run_redact(secrets, lookalikes)
        elif name in WRITE_PATHS:
            results[name] = _run_write(name, secrets, lookalikes)
        elif name in ECHO and name not in results:
            results.update(_run_echo(secrets))  # one run gives both, timed on the first
        else:
            continue
        results[name].seconds = time.perf_counter() - start
    return results


def report(results: dict[str, Result], secrets: list[Item], lookalikes: list[Item]) -> list[str]:
    """The figures per path, then every kind missed and every false positive, verbatim."""
    from brain.home.secrets.redact import redact

    n, m = len(secrets), len(lookalikes)
    lines = [f"{n} secrets ({len({x.kind for x in secrets})} kinds), {m} look-alikes", ""]
    head = ("caught", "partial", "missed", "refused", "other")
    lines.append(f"{'path':38} " + " ".join(f"{h:>7}" for h in head) + "  false+")
    for name, r in results.items():
        caught = n - len(r.missed) - len(r.partial)
        fp = f"{len(r.false_positives)}/{m}" if r.checks_lookalikes else "-"
        figures = (r.partial, r.missed, r.refused, r.refused_other)
        lines.append(
            f"{name:38} "
            + " ".join(f"{x:7}" for x in (caught, *map(len, figures)))
            + f"  {fp:7} ({r.seconds:.0f} s)"
        )
    lines += ["", "Secrets that survived (kind, paths, text):"]
    for item in secrets:
        whole = [p for p, r in results.items() if item.kind in r.missed]
        part = [p for p, r in results.items() if item.kind in r.partial]
        if whole or part:
            where = "; ".join(filter(None, (_paths("whole", whole), _paths("part", part))))
            lines.append(f"- {item.kind} [{where}]")
            lines.append(f"    text:   {item.text!r}")
            lines.append(f"    secret: {item.secret!r}")
    lines += ["", "Look-alikes changed or refused (kind, paths, text):"]
    for item in lookalikes:
        where = [p for p, r in results.items() if item.kind in r.false_positives]
        if where:
            lines.append(f"- {item.kind} [{_paths('', where)}]")
            lines.append(f"    text:   {item.text!r}")
            if (became := redact(item.text)) != item.text:
                lines.append(f"    became: {became!r}")
            for p, r in results.items():
                if item.kind in r.refusals:
                    lines.append(f"    {p} refused: {r.refusals[item.kind]}")
    other = [(p, k, why) for p, r in results.items() for k, why in r.refusals.items()]
    other = [(p, k, why) for p, k, why in other if not _for_secret(why)]
    if other:
        lines += ["", "Look-alikes refused for another reason (not counted as false positives):"]
        lines += [f"- {k} [{p}]: {why}" for p, k, why in other]
    return lines


def _paths(label: str, paths: list[str]) -> str:
    if not paths:
        return ""
    names = "all paths" if len(paths) == len(ALL) else ", ".join(paths)
    return f"{label}: {names}" if label else names


def _as_json(results: dict[str, Result]) -> dict[str, Any]:
    return {
        name: {
            "missed": r.missed,
            "partial": r.partial,
            "refused": r.refused,
            "refused_other": r.refused_other,
            "false_positives": r.false_positives if r.checks_lookalikes else None,
            "seconds": round(r.seconds, 1),
        }
        for name, r in results.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--paths", default=",".join(ALL), help="comma-separated; default all")
    parser.add_argument("--json", action="store_true", help="print the outcome lists as JSON")
    args = parser.parse_args()
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    if unknown := [p for p in paths if p not in ALL]:
        sys.exit(f"unknown path {unknown[0]!r}; choose from: {', '.join(ALL)}")
    for name in ("AUTHOR", "COMMITTER"):
        os.environ.setdefault(f"GIT_{name}_NAME", "bench")
        os.environ.setdefault(f"GIT_{name}_EMAIL", "bench@example.com")
    secrets, lookalikes = load(args.data)
    # Every home (and each one's copy of the corpus) lives under one folder removed at the end.
    with tempfile.TemporaryDirectory(prefix="brain-holdout-") as tmp:
        tempfile.tempdir = tmp
        try:
            results = run(secrets, lookalikes, paths)
        finally:
            tempfile.tempdir = None
    if args.json:
        print(json.dumps(_as_json(results), indent=1))
    else:
        print("\n".join(report(results, secrets, lookalikes)))


if __name__ == "__main__":
    main()
