"""The shapes of secrets added on a corpus written blind, gitleaks' rules as brain loads
them, and the look-alikes that must come through unchanged."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.secrets_corpus import LOOKALIKES, SECRETS
from benchmarks.secrets_holdout import DATA, load
from brain.home.secrets import gitleaks
from brain.home.secrets.redact import find_secrets, redact
from tests.helpers import examples

BLIND = Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "secrets_blind.json"
_DOC = json.loads(BLIND.read_text(encoding="utf-8"))
BLIND_SECRETS = [(x["kind"], x["text"], x["secret"]) for x in _DOC["secrets"]]
BLIND_LOOKALIKES = [(x["kind"], x["text"]) for x in _DOC["lookalikes"]]
CORPORA = [x.text for path in (BLIND, DATA) for items in load(path) for x in items]
CORPORA += [text for _, text, _ in SECRETS] + list(LOOKALIKES)


@pytest.mark.parametrize(
    ("kind", "text", "secret"), BLIND_SECRETS, ids=[k for k, _, _ in BLIND_SECRETS]
)
def test_each_blind_secret_is_redacted(kind: str, text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out
    assert "[REDACTED:" in out


@pytest.mark.parametrize(("kind", "text"), BLIND_LOOKALIKES, ids=[k for k, _ in BLIND_LOOKALIKES])
def test_each_blind_look_alike_is_left_as_it_is(kind: str, text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "out"),
    [
        # AWS's documented example keys, and placeholders of a provider's shape.
        ("key AKIAIOSFODNN7EXAMPLE", None),
        ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", None),
        ("GITHUB_TOKEN=ghp_" + "x" * 36, None),
        ("SLACK_BOT_TOKEN=xoxb-your-token", None),
        ('{"Authorization": "Bearer {{ api_token }}"}', None),
        ("arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf", None),
        ("db_password: !vault |", None),
        ("token: [REDACTED]", None),
        ("openssl enc -pass env:BACKUP_PASS -in a -out b", None),
        ("redis-cli -h cache -p 6379 ping", None),
        ("mkdir -p build/v2/api && ssh -p 2222 host", None),
        ("max_token_count = 4096; api_key_env = OPENAI_API_KEY", None),
        ("public_key: 0x" + "ab12" * 10, None),
        # The same shapes with a real-looking value are redacted.
        (
            'curl -H "Authorization: Bearer 1/60470338:5c6b51af6422a2d0afd01ec99cd973d4" x',
            'curl -H "Authorization: Bearer [REDACTED:auth_header]" x',
        ),
        ("redis-cli -a 'Xq7#kP2mZ9' ping", "redis-cli -a [REDACTED:cli_password] ping"),
        ("ldapsearch -x -w Sx9fK2pQ7 -b dc=x", "ldapsearch -x -w [REDACTED:cli_password] -b dc=x"),
        ("zip -P Hq4xT7mW2 -r a.zip .", "zip -P [REDACTED:cli_password] -r a.zip ."),
        (
            "openssl enc -pass pass:Hq4xT7mW2 -in a",
            "openssl enc -pass pass:[REDACTED:secret_assignment] -in a",
        ),
        (
            '{"routing_key": "R0a8f3c1e9b7d5f2a4c6e8b0d2f4a6c8"}',
            '{"routing_key": "[REDACTED:named_secret]"}',
        ),
        (
            "config/master.key holds 0a8f3c1e9b7d5f2a4c6e8b0d2f4a6c81",
            "config/master.key holds [REDACTED:named_secret]",
        ),
        ("<password>Pq9!xT2m</password>", "<password>[REDACTED:secret_assignment]</password>"),
        (
            "ALTER USER x IDENTIFIED BY 'Pq9xT2mW';",
            "ALTER USER x IDENTIFIED BY '[REDACTED:cli_password]';",
        ),
        ("Unseal Key 1: " + "Ab3+" * 11, "Unseal Key 1: [REDACTED:vault_unseal_key]"),
        (
            'proxy_set_header Authorization "Basic YWRtaW46cFE5eFQybVc=";',
            'proxy_set_header Authorization "Basic [REDACTED:auth_header]";',
        ),
        (
            "the app-specific password is abcd-efgh-ijkl-mnop",
            "the app-specific password is [REDACTED:prose_secret]",
        ),
    ],
)
def test_shapes_and_their_look_alikes(text: str, out: str | None) -> None:
    assert redact(text) == (text if out is None else out)


def test_a_putty_key_and_an_openvpn_key_lose_their_private_lines() -> None:
    ppk = "Public-Lines: 1\nAAAAC3Nz\nPrivate-Lines: 2\nQm9keUxpbmVPbmU3\nTGluZVR3bzk4\n"
    ppk += "Private-MAC: ab"
    out = redact(ppk)
    assert "Qm9keUxpbmVPbmU3" not in out and "TGluZVR3bzk4" not in out
    assert out.startswith("Public-Lines: 1\nAAAAC3Nz\nPrivate-Lines: 2\n[REDACTED:private_key]")
    ovpn = (
        "-----BEGIN OpenVPN Static key V1-----\n"
        + "0f1e2d3c" * 4
        + "\n-----END OpenVPN Static key V1-----"
    )
    assert "0f1e2d3c" not in redact(ovpn)


# --- gitleaks' rules -----------------------------------------------------------------


def test_the_shipped_rules_are_gitleaks_toml_translated() -> None:
    """data/gitleaks.json is what ``python -m brain.home.secrets.gitleaks`` makes of the
    vendored TOML: a rule changed in one and not the other fails here."""
    made = json.loads(gitleaks._dump(gitleaks.build()))
    assert json.loads(gitleaks.JSON.read_text(encoding="utf-8")) == made
    assert len(made["rules"]) > 200


@pytest.mark.parametrize(
    ("re2", "python"),
    [
        (r"\b(LTAI(?i)[a-z0-9]{20})\b", r"\b(LTAI(?i:[a-z0-9]{20}))\b"),
        (r"x(?i)[a-z]+", r"x(?i:[a-z]+)"),
        (r"(?i)[\w.-]{0,50}?(?:algolia)[a-z]", r"(?i)(?:algolia)[a-z]"),
        (r"(?:a|\z)", r"(?:a|\Z)"),
        (r"\b(pat[[:alnum:]]{14})", r"\b(pat[A-Za-z0-9]{14})"),
        (r"[a[b]", r"[a\[b]"),
    ],
)
def test_re2_regexes_are_translated_for_python(re2: str, python: str) -> None:
    assert gitleaks.translate(re2) == python


def test_a_gitleaks_rule_finds_its_token_near_its_keyword_only() -> None:
    token = "LTAI" + "5tQ8xW2mZ9kP3vR7nB4y"
    assert [f.kind for f in find_secrets(f"id {token} here")] == ["alibaba_access_key_id"]
    pinecone = "pcsk_" + "aB3x9_" + "Qz7Lm2Rt8Kw4Vn6Yp1Hs5Jd3Fg9Bc0Xe2Ua4Ti6Oq8Lr1Mn3Kp5Sw7D"
    assert redact(f"key {pinecone} here") == "key [REDACTED:pinecone_key] here"
    # sourcegraph's rule takes a bare 40-hex run, near its name only: a commit id far
    # from the word in a long text is not one.
    commit = "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39"
    assert find_secrets(f"sourcegraph token {commit}")[0].kind == "sourcegraph_access_token"
    far = (
        "we moved off sourcegraph.\n" + "the build is green. " * 20 + f"\ncommit {commit} fixed it"
    )
    assert redact(far) == far


def test_gitleaks_entropy_and_allowlists_let_low_entropy_values_pass() -> None:
    assert gitleaks.entropy("aaaa") == 0.0
    assert gitleaks.entropy("abcd") == 2.0
    # aws-access-token's own allowlist (.+EXAMPLE$) and brain's placeholders.
    assert find_secrets("ASIAIOSFODNN7EXAMPLE") == []


@pytest.mark.parametrize(
    ("regex", "moved"),
    [
        (r"\bpul-[a-f0-9]{40}", r"p(?<!\w[\s\S])ul-[a-f0-9]{40}"),
        (r"\b(pul-x)", r"(p(?<!\w[\s\S])ul-x)"),
        (r"\b((?:EAAA|sq0atp-)x)", r"\b((?:EAAA|sq0atp-)x)"),  # the E leads one alternative
        (r"\b(a|b)", r"\b(a|b)"),
        (r"\ba?b", r"\ba?b"),  # the a may be absent
        (r"\b(?i:x)", r"\b(?i:x)"),
        (r"\b\d{4}", r"\b\d{4}"),
        (r"(?i)\bx", r"(?i)\bx"),
    ],
)
def test_a_leading_word_boundary_moves_past_a_literal_first_character(
    regex: str, moved: str
) -> None:
    assert gitleaks.literal_lead(regex) == moved


def _moved() -> list[tuple[re.Pattern[str], re.Pattern[str]]]:
    rules, _ = gitleaks.load()
    pairs = [(r.regex, gitleaks.literal_lead(r.regex)) for r in rules]
    return [(re.compile(a), re.compile(b)) for a, b in pairs if a != b]


def _matches(regex: re.Pattern[str], text: str) -> list[tuple[object, ...]]:
    return [(m.span(), m.groups()) for m in regex.finditer(text)]


def test_a_moved_boundary_matches_as_the_rule_did_everywhere() -> None:
    moved = _moved()
    assert len(moved) > 30
    texts = CORPORA
    # each text after a line break, and glued to a word character
    text = "\n".join(texts) + "x" + "x".join(texts)
    for old, new in moved:
        assert old.groups == new.groups
        assert _matches(old, text) == _matches(new, text), old.pattern
        for pos in range(0, len(text), 7):
            a, b = old.match(text, pos), new.match(text, pos)
            assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups())), old.pattern


@given(
    st.lists(
        st.one_of(
            st.text(alphabet=string.ascii_letters + string.digits + "_-. \n\"'`;:=", max_size=8),
            st.sampled_from(CORPORA),
        ),
        max_size=6,
    )
)
@settings(max_examples=examples(50))
def test_a_moved_boundary_matches_as_the_rule_did(parts: list[str]) -> None:
    text = "".join(parts)
    for old, new in _moved():
        assert _matches(old, text) == _matches(new, text), old.pattern
