"""Kinds of developer tools a question names where a record names the tool.

"Which package manager for the frontend?" asks for what "Use pnpm for the frontend"
says, without one word of it but "frontend": BM25 alone puts every record holding
"package" or "manager" first. A question naming a kind of tool searches for the tools
of that kind too, as words of the query.
"""

from __future__ import annotations

import re

# A kind, as a question names it, and the tools a record would name instead.
KINDS: dict[str, tuple[str, ...]] = {
    r"package\s+managers?": (
        "npm", "pnpm", "yarn", "bun", "pip", "uv", "poetry", "pipx", "conda", "cargo",
        "gem", "bundler", "composer", "brew", "apt",
    ),
    r"test\s+(?:runners?|frameworks?)": (
        "pytest", "unittest", "jest", "vitest", "mocha", "playwright", "cypress", "rspec",
    ),
    r"formatters?": ("black", "ruff", "prettier", "gofmt", "rustfmt", "isort"),
    r"linters?": ("ruff", "eslint", "flake8", "pylint", "mypy", "clippy", "golangci"),
    r"bundlers?": ("webpack", "vite", "esbuild", "rollup", "parcel", "turbopack"),
    r"type\s+checkers?": ("mypy", "pyright", "tsc"),
}  # fmt: skip
_PATTERNS = [(re.compile(rf"\b{kind}\b", re.IGNORECASE), tools) for kind, tools in KINDS.items()]


def tools_asked(text: str) -> tuple[str, ...]:
    """The tools of each kind ``text`` names, in table order, each once."""
    found: dict[str, None] = {}
    for pattern, tools in _PATTERNS:
        if pattern.search(text):
            found.update(dict.fromkeys(tools))
    return tuple(found)
