"""The secret rules brain ships as JSON are their TOML sources, translated."""

from __future__ import annotations

import json
import subprocess
import sys

from brain.home.secrets import rules


def test_the_shipped_tokens_are_tokens_toml() -> None:
    """data/tokens.json is what ``python -m brain.home.secrets.rules`` makes of
    data/tokens.toml: edit the TOML, then run that."""
    shipped = json.loads((rules._DATA / "tokens.json").read_text(encoding="utf-8"))
    assert shipped == json.loads(json.dumps(rules.build_tokens()))
    assert len(rules.PREFIXED) == len(shipped["token"]) and shipped["heads"] == rules.HEADS


def test_redaction_imports_no_toml_parser() -> None:
    code = (
        "import sys, brain.home.secrets.redact as r\n"
        "assert r.redact('key SK' + '0' * 32) != 'key SK' + '0' * 32\n"
        "print('tomllib' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
