"""Credentials said in words, in other languages, and named keys; and what is not one."""

from __future__ import annotations

import pytest

from brain.home.secrets.redact import find_secrets, redact

HEX40 = "9c1f0e7a4b2d8c6e5f3a1b0d9e8f7c6a5b4d3e2f"
UUID = "7d0c2f4e-91ab-4c3d-8e5f-a0b1c2d3e4f5"

# (text, secret): the secret must vanish from redact(text).
SAID: list[tuple[str, str]] = [
    # A password word in another language, a few words, a copula or a colon, the value.
    ("le mot de passe du routeur est Grive7!moulin, pas de panique", "Grive7!moulin"),
    ("Das Kennwort des Testkontos lautet Birke-Amsel42", "Birke-Amsel42"),
    ("Das Passwort ist Wolke_91Tal", "Wolke_91Tal"),
    ("la contraseña de la wifi es Lince#2024sur", "Lince#2024sur"),
    ("a senha da VPN é Caju*88rio", "Caju*88rio"),
    ("la password della VPN è Tordo.55nebbia", "Tordo.55nebbia"),
    ("ステージングのパスワードは Kitsune-2468 です", "Kitsune-2468"),
    ("生产服务器的密码是 Xiongmao_1357", "Xiongmao_1357"),
    ("пароль для базы: Berëza-9021", "Berëza-9021"),
    # English, with more words between the noun and the verb.
    ("my token for the billing service in prod is q7Rt2mXv9LpZ", "q7Rt2mXv9LpZ"),
    ('the passphrase of the backup disk is "four calm ravens sing"', "four calm ravens sing"),
    ("the master key (config/credentials.key) is 4e9a1c7b2d8f6a0e3c5b9d1f7a2e4c6b", "4e9a1c7b"),
    ("sudo on the jump host needs Pelican&42road", "Pelican&42road"),
    # A password that is a plain word, ending its clause.
    ("the staging password is plumzebra", "plumzebra"),
    ("The wifi password is plumzebra.", "plumzebra"),
    ("the password for the staging box is plumzebra until friday", "plumzebra"),
    ("ok, the root pw is plumzebra, rotate it later", "plumzebra"),
    ("pw: plumzebra", "plumzebra"),
    ("the NAS passwd was changed to Plumzebra and mailed", "Plumzebra"),
    # A UUID or hex run right after its name.
    (f"the pagerduty api key {UUID}", UUID),
    (f"auth token: {HEX40}", HEX40),
    # Assignments whose name says what the key guards.
    ("APP_KEY=base64:dGhpcyBpcyBub3QgYSByZWFsIGtleSBhdCBhbGwh", "dGhpcyBpcyBub3Q"),
    (f'SESSION_ENCRYPTION_KEY="{HEX40}"', HEX40),
    (f"DD_APP_KEY={HEX40}", HEX40),
    ("SEARCH_ADMIN_KEY=0f1e2d3c4b5a69788796a5b4c3d2e1f0", "0f1e2d3c4b5a6978"),
    (f"FLAGS_SDK_KEY=sdk-{UUID}", UUID),
    ("export GITEA_PAT=k3n9q2w8e7r6t5y4u1i0o9p8a7s6d5f4g3h2j1k0", "k3n9q2w8e7r6"),
    ("    client-key-data: TUlJRXZRSUJBREFOQmdrcWhraUc5dzBCQVFFRkFBU0NC", "TUlJRXZRSUJBREFO"),
    ('<add key="FeedPassword" value="Heron!73lake" />', "Heron!73lake"),
    # A JWT cut before its signature.
    ("SERVICE_ROLE=eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoic2VydmljZV9yb2xlIn0", "eyJyb2xlIjoic2Vy"),
    # The value on the line after a command that prints it.
    (
        "$ aws configure get aws_secret_access_key\n" + "wJ8rXu2kLm9Qa7Zb3Nc5Vd1Fe4Gh6Jk0Lp2Mn4Pq",
        "wJ8rXu2kLm9Q",
    ),
    # A .pgpass line (the port may be *), alone or quoted.
    ("pg.internal:5432:*:etl:Zq8vLw3xNk", "Zq8vLw3xNk"),
    ("add this to ~/.pgpass: 10.0.0.7:*:app:ro:Mv4rTq9wLx then chmod 600", "Mv4rTq9wLx"),
    # A seed phrase, whole or cut short by a summary.
    ("wallet seed phrase: " + " ".join(["orbit", "candle", "miss", "tiger"] * 3), "orbit candle"),
    ("Remember: the seed phrase is: orbit candle miss tiger lemon grape...", "orbit candle"),
]


@pytest.mark.parametrize(("text", "secret"), SAID, ids=[t[:24] for t, _ in SAID])
def test_a_credential_said_in_words_is_redacted(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out
    assert "[REDACTED:" in out
    assert redact(out) == out  # idempotent


LEFT: list[str] = [
    # Said in words, with nothing secret after the verb.
    "le mot de passe est dans le coffre",
    "Das Passwort ist abgelaufen.",
    "la contraseña es obligatoria",
    "パスワードは 管理者に聞いてください",
    "sudo on the build host needs root",
    "my key for the cache is stale",
    "the token for the session is expired",
    "the seed phrase: keep it offline, never type it into a website",
    # A password word, then a word that says where, how or whether it is, or code.
    "the password is stored in the vault",
    "The staging password is required.",
    "the password is wrong",
    "Password is incorrect, try again",
    "the password is hidden",
    "the password was rotated and mailed",
    "the password is usually in 1Password",
    "the password is expiring soon",
    "the password is the same as the username",
    "the password is case-sensitive",
    "password is too short",
    "the password is changeme",
    "the password is xxxxxxxx",
    "the staging password is <your-password>",
    "the staging password is {{ staging_password }}",
    "pw: ********",
    "the secret is plumzebra",  # only a password is taken as a plain word
    "pw = getpass()",
    "pw = self.password",
    "pw: str",
    # Placeholders, references and public values after a secret name.
    "password: changeme",
    "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    'client = Client(api_key="YOUR_API_KEY")',
    "export NPM_TOKEN=npm_...",
    "Authorization: Bearer [REDACTED]",
    "DB_PASSWORD=op://Infra/postgres/password",
    "vault kv get -field=password kv/prod/db",
    "stripe_publishable_key = pk_live_51Habc0dEfGhIjKlMnOpQrStUv",
    "mapbox_access_token: pk.eyJ1IjoiZGVtbyIsImEiOiJja2V4YW1wbGUifQ.aBcDeFgHiJkLmNoPqRsTuV",
    # Documentation.
    "Pass --password-stdin rather than --password so it stays out of history.",
    "The file must begin with -----BEGIN RSA PRIVATE KEY----- and end with its END line.",
    "compat: 1.2.3",
    "password_min_length: 12",
    "host:8080 is up; db:5432 too",
]


@pytest.mark.parametrize("text", LEFT)
def test_what_is_not_a_credential_is_left(text: str) -> None:
    assert redact(text) == text
    assert find_secrets(text) == []


def test_a_private_key_cut_off_after_its_header_is_still_redacted() -> None:
    text = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9u"
    assert redact(text) == "[REDACTED:private_key]"
    headers = (
        "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES\n\n"
        "MIIEowIBAAKCAQEA3Tz2"
    )
    assert "MIIEowIBAAKCAQEA" not in redact(headers)


@pytest.mark.parametrize(
    "text",
    [
        # an ISO time cut at its colons reads as pgpass's user, database and password
        "codex-tui.log:126:\x1b[2m2025-09-17T04:34:42.617484Z\x1b[0m \x1b[32m INFO\x1b[0m x",
        "codex-tui.log:126:2025-09-17 04:34:42,617 INFO started",
        # an EVM contract's address is public, whatever its name says
        'MANA_TOKEN       = "0xa1c57f48f0deb89f569dfbe6e2b7f46d33606fd4"',
        "[MANA](https://polygonscan.com/token/0xa1c57f48f0deb89f569dfbe6e2b7f46d33606fd4)",
        # a query parameter named in prose, and a score's threshold
        "the keyed URL is path-based (not a ?apikey= query string)",
        '  "thresholds": {\n    "pass": 7.0,\n    "review": 5.0\n  }',
    ],
)
def test_what_real_sessions_showed_is_no_credential(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("db.example.com:5432:app:alice:s3cretPw9", "s3cretPw9"),
        ('PRIVATE_KEY="0x' + "ab12" * 16 + '"', "ab12" * 16),
        ("POLYGON_RPC_URL=https://polygon-rpc.com/?apikey=Zx81kQ9aPw7LmN2b", "Zx81kQ9aPw7LmN2b"),
        ('"pin": 7201', "7201"),
    ],
)
def test_beside_them_a_credential_is_still_one(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "---\n:rubygems_api_key: xralivelrgef4av8vd0l6hf5auvmvlrflljihtt\n"
        ":xray: xralivelrgef4av8vd0l6hf5auvmvlrflljihtt\n",
        "export API_TOKEN=Zx81kQ9aPw7LmN2bQ\n$ echo $API_TOKEN\nZx81kQ9aPw7LmN2bQ",
    ],
)
def test_a_value_found_under_its_name_is_redacted_where_it_stands_again(text: str) -> None:
    redacted = redact(text)
    assert "xralivelrgef4av8vd0l6hf5auvmvlrflljihtt" not in redacted
    assert "Zx81kQ9aPw7LmN2bQ" not in redacted


def test_a_short_value_is_not_looked_for_again() -> None:
    """A PIN found once may be a port or a count elsewhere."""
    assert redact("pin: 4821\nlisten on 4821") == "pin: [REDACTED:credential_name]\nlisten on 4821"


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ('<wsse:Password Type="...#PasswordText">castle_pebble_melon_birch</wsse:Password>',
         "castle_pebble_melon_birch"),
        ("<AdministratorPassword>\n  <Value>B37yflZ#QxI1</Value>\n</AdministratorPassword>",
         "B37yflZ#QxI1"),
        ('KRA_SECRET_KEY_2: "rrJhjXdrgBAcyQoe"', "rrJhjXdrgBAcyQoe"),
    ],
)  # fmt: skip
def test_an_xml_credential_with_attributes_or_a_value_child_and_letters_alone(
    text: str, secret: str
) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        '<span class="password strength">weak</span>',
        '<label for="password">Password</label>',
        'API_TOKEN_NAME = "getUserProfileById"',
        "TOKEN_PARSER = XMLHttpRequest",
    ],
)
def test_markup_and_names_beside_them_stay(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ('smtp.login("omar@proton.me", "xzyt tncr nlgs wqwl")', "xzyt tncr nlgs wqwl"),
        ('client.username_pw_set("svc_allthi", "ελιά_Yuki64")', "ελιά_Yuki64"),
        ('val auth = Credentials.basic("deploy", "Čokoláda_1601")', "Čokoláda_1601"),
        ('.basicAuthentication("chen", "I$l@ndblo$$0m23")', "I$l@ndblo$$0m23"),
        ('client.authenticate("bot", "Zq8!vLp2#wXr")', "Zq8!vLp2#wXr"),
    ],
)
def test_a_call_that_takes_a_user_and_a_password_by_its_name(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        'basicLayout("x", "Main-Page1")',
        'authorName("Jane", "Doe-Smith1")',
        'setPassword("f", "a label")',
        # a role check, not a login
        "preHandler: [app.authenticate, authorize('admin', 'super_admin')],",
    ],
)
def test_a_call_whose_name_only_begins_so_takes_no_password(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Here is the login password for Lietuvos eID: oskar2307. Do not share.", "oskar2307"),
        ("Hier is de login password voor Lietuvos eID: oskar2307. Niet delen.", "oskar2307"),
        ("the account password is: maple9304", "maple9304"),
        ("Lufthansa account password энэ байна: maple9304.", "maple9304"),
        ("Avorion server password budur: pebblebase94 — repo-ya qoyma.", "pebblebase94"),
    ],
)
def test_a_password_a_sentence_gives_after_a_colon(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "The password policy for users: minimum8 chars",
        "Reset password for user 42: expired",
        "return _pbkdf2(sha256, password, salt, { c: PBKDF2_FACTOR, dkLen: 32 });",
        "the admin password for staging: rotated yesterday",
        "the password for staging: stored-in-vault",
    ],
)
def test_what_follows_a_colon_after_a_password_word_and_is_none(text: str) -> None:
    assert redact(text) == text


def test_a_password_that_is_a_word_is_not_looked_for_again() -> None:
    text = (
        'URL: "postgres://fitcommerce:fitcommerce@localhost:5432/app"\n'
        'import "fitcommerce/backend/internal/auth"'
    )
    assert redact(text).endswith('import "fitcommerce/backend/internal/auth"')
