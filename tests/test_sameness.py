"""The rule two memories are one by: normalized equality, or high word overlap with the
same numbers."""

from __future__ import annotations

from brain.sessions.sameness import normalize, same


def test_equal_once_normalized() -> None:
    assert normalize("**Use** `pnpm`, not [npm](https://npmjs.com)!") == "use pnpm not npm"
    assert same("Use pnpm, not npm.", "use **pnpm** not npm")
    assert not same("use pnpm, not npm", "use npm, not pnpm")  # short: must be equal
    assert not same("", "")


def test_high_overlap_of_long_statements() -> None:
    a = "Never report a test as passing without running it first"
    assert same(a, "Never report a test as passing without first running it.")
    assert not same(a, "Never report a build as green without running the linters first")


def test_different_numbers_are_different_rules() -> None:
    a = "The local database listens on port 5433 on this development machine"
    assert not same(a, "The local database listens on port 5432 on this development machine")
    assert same(a, "On this development machine the local database listens on port 5433")
