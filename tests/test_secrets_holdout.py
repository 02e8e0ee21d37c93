"""The hold-out secrets corpus is well formed, and its driver tells a leak from a part.

The corpus itself is not asserted against brain's redaction here: it is a hold-out,
measured by ``benchmarks/secrets_holdout.py``, so that the rules are not tuned to it.
"""

from __future__ import annotations

from benchmarks.secrets_holdout import DATA, Item, halves, leak, load


def test_every_secret_is_in_its_text_and_no_look_alike_holds_one() -> None:
    secrets, lookalikes = load(DATA)
    assert len({x.kind for x in secrets}) == len(secrets) >= 80
    assert len({x.kind for x in lookalikes}) == len(lookalikes) >= 80
    assert all(x.secret and x.secret in x.text for x in secrets)
    assert not [(x.kind, s.kind) for x in lookalikes for s in secrets if s.secret in x.text]


def test_leak_is_whole_part_or_none() -> None:
    item = Item("k", "pw is Tundra-quokka4412!", "Tundra-quokka4412!")
    parts = halves(item, [item])
    assert parts == ("Tundra-qu", "okka4412!")
    assert leak(item.secret, "kept Tundra-quokka4412! here", parts) == "whole"
    assert leak(item.secret, "kept okka4412! here", parts) == "part"
    assert leak(item.secret, "kept [REDACTED] here", parts) is None


def test_a_half_another_entry_shares_is_not_counted() -> None:
    item = Item("a", "x Tundra-quokka4412!", "Tundra-quokka4412!")
    other = Item("b", "y Tundra-quokka9999?", "Tundra-quokka9999?")
    assert halves(item, [item, other]) == ("okka4412!",)
