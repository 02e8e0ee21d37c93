"""A credential's value given before its name, below it, in a row or a pipe; and the code
around credential words that is none (brain/home/secrets/around.py, tables.rows)."""

from __future__ import annotations

import pytest

from brain.home.secrets.redact import redact
from brain.home.secrets.shapes import short_random

HEX = "5b1e0c9a7d3f42e8a6c1b09d7e4f3a21"
TOKEN = "Qm8xT2vR9kLp4WzN7cJd3Hs6"


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # the value first, then what it is, in several languages
        (f"`{HEX}` がMoneyforward API tokenです。", HEX),
        ('"Tr0ut?771" é a senha do painel admin de produção', "Tr0ut?771"),
        (f"«{HEX}» — это ключ API для Sendpulse", HEX),
        (f"{TOKEN} <- that's the Plausible API secret, please wire it in", TOKEN),
        (f"ye `{HEX}` prod ka Brevo API key hai", HEX),
        (f"{HEX} 这个是生产环境的Qiniu access key，先用着", HEX),
        # below the line that names it, bare or in a code block
        (f"Rotated the Zammad API token today, new one:\n{TOKEN}", TOKEN),
        (f"Identifiants (Hetzner DNS API key):\n\n```\n{TOKEN}\n```\n", TOKEN),
        ("j'ai changé le PIN du coffre, le nouveau :\n48213907", "48213907"),
        (
            "use this Borg repo passphrase\nlantern walrus cobalt meadow\nthanks",
            "lantern walrus cobalt meadow",
        ),
        # after it, apart: quoted, or a passphrase of joined words
        (
            'cambié la passphrase del backup, la nueva es "harbor-velvet-quokka-tundra-fennel"',
            "harbor-velvet-quokka-tundra-fennel",
        ),
        (
            "the restic passphrase is otter.mango.basalt.vireo, keep it safe",
            "otter.mango.basalt.vireo",
        ),
        ("a senha do roteador é `kpqzw!_XMBvaL`, não commita", "kpqzw!_XMBvaL"),
        # typed after a silent read; echoed into a command that stores it
        (f"$ read -s PADDLE_API_KEY\n{HEX}\n$ export PADDLE_API_KEY\n", HEX),
        (f"printf '%s' '{HEX}' | gcloud secrets versions add paddle-key --data-file=-", HEX),
        (f'echo "{TOKEN}" | podman login quay.io -u bot --password-stdin', TOKEN),
        # a credential's name beside its value in a row
        (
            "INSERT INTO settings (provider, name, value)"
            f" VALUES ('mux', 'mux_signing_secret', '{HEX}');",
            HEX,
        ),
        # tables: a CSV column, a CLI's name/value table, a markdown value column
        (f"service,env,secret\nmux,prod,{TOKEN}\nsentry,prod,(in vault)\n", TOKEN),
        (f"Key        Value\n---        -----\npaddle_api_key    {HEX}\n", HEX),
        (
            f"| Service | Setting | Value |\n|---|---|---|\n| Mux | Mux API token | `{TOKEN}` |\n",
            TOKEN,
        ),
        # a webhook's URL, from its first random segment to its end
        (
            "the Pushcut notification webhook:\nhttps://api.pushcut.io/Xq7-ZbLw-d9B_ubRk4eTy/notifications/Deploy",
            "Xq7-ZbLw-d9B_ubRk4eTy/notifications/Deploy",
        ),
    ],
)
def test_a_value_around_its_name_is_redacted(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out
    assert "[REDACTED:" in out
    assert redact(out) == out


@pytest.mark.parametrize(
    "text",
    [
        # code: quoted names and messages beside credential words
        "logger.info('database', 'fix_super_admin_password', 'Corrigindo senha do super admin');",
        ".messages({ 'string.min': 'Password must be at least 6 characters long' })",
        '<Label htmlFor="confirmPassword">Confirm password</Label>',
        '  .send({ username: "admin", pin: "4821" });',
        # names and paths in code spans near the words
        "7. `test_verify_password_correct` - correct password returns True",
        "Output: `specs/001-better-auth-login/data-model.md` for sessions and password resets",
        "updated `database/seed/kyc_db_seed.sql:1` with new seed data",
        "I've found the `npx vercel env add` command keeps the token out of git",
        # a comment naming a credential above an assignment, a line's number below
        "# API Key Rate Limiting\nAPI_KEY_RATE_LIMIT=60\n",
        'assert_eq!(jira.token.as_ref().unwrap(), "jira-token-secret");\n  1195\t',
        # a name made of words is no passphrase
        "JWT_SECRET: meridian-local-jwt-secret\nPHI_KEY: meridian-local-phi-key\n",
        # a value named as something else before or between
        f"commit `{HEX}` rotated the Sentry token",
        f"`{HEX}` is the commit hash of the token change",
        # a CSV with no credential column; prose in Chinese with numbers after token
        "service,env,owner\nmux,prod,platform@acme.io\n",
        "3. 给足token预算\n\n要求CC给API版100万token",
        # a database's seed in prose
        "Seed the database with `RAILS_ENV=production` and run the seed task",
        "it sounds like what gets executed is the kernel's copy of the user workspace, correct?",
        "    strategies do\n      password :password do\n        identity_field :email",
        'trigger the password reset feature on a regular user." Implemented as a rank helper'
        " `Panel.Accounts.UserRole.at_least?/2`, with LiveView guards",
    ],
)
def test_code_and_prose_near_credential_words_are_left(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # another language's word for a key or a password, inflected, before a colon
        (f"Här är Mollie-nyckeln: {TOKEN}, lägg in den i .env", TOKEN),
        (f"Paddle anahtarım şu: {TOKEN}, ekler misin?", TOKEN),
        (f"הנה המפתח של Paddle: {TOKEN} תוסיף אותו", TOKEN),
        (f"این کلید Paddle است: {HEX} لطفاً اضافه کن", HEX),
        (f"Tu masz klucz do Paddle: {TOKEN}", TOKEN),
        # a PIN or a code one types, given after its word
        ("min cykellås keypad code är 40718263", "40718263"),
        ("my SIM PUK code: 90817265, remember it", "90817265"),
        ("the banking app PIN é 572913, anota", "572913"),
        # a passphrase said in plain words after a password's "is"
        ("the vault password is walnut cobalt heron meadow, keep it", "walnut cobalt heron meadow"),
        # a URL a credential's word or its own name says holds one
        (f"CRONITOR_PING_URL=https://cronitor.link/p/{HEX}\nDEBUG=1", HEX),
        (f"用这个token：https://hc.example.io/tok_{TOKEN} 测试一下", TOKEN),
        (f"https://raw.example.com/a/b/README.md?token={TOKEN}", TOKEN),
        # a CSV's value column, named by the row's first cell
        (f"name,service,value\nPADDLE_API_KEY,paddle,{HEX}\nLOG_LEVEL,core,info\n", HEX),
    ],
)
def test_a_credential_named_in_any_language_or_place_is_redacted(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out
    assert redact(out) == out


@pytest.mark.parametrize(
    "text",
    [
        '{"login.password": "Passwort", "login.forgot": "Passwort vergessen?"}',
        '{"login.password": "Пароль"}',
        "cursor: aGVsbG8gZnJvbSB0aGUgc3RhZ2luZyBjbHVzdGVy",
        "the exit code: 1, status code: 404",
        "Your master secret is currently locked inside your browser session.",
        "Install: brew install gitleaks (the secret scanner)",
        "see the wiki for tokens: https://wiki.example.com/posts/npm-tokens-16f6l31h",
        "the key ref: https://github.com/acme/api/blob/1c6a6b3f03fef4b2666a6b4652aa2f2308617d17/x.go",
        "the password reset page is at https://example.com/reset/" + HEX,
    ],
)
def test_words_translations_and_pages_about_credentials_are_left(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # tables: a TSV's password column, a CLI's listing of secrets, a property list
        ("system\tlogin\tpassword\nBank\tops\t40718263\n", "40718263"),
        (
            "$ acme keys list --show-secret\nNAME        CREATED      VALUE\n"
            f"ci   2026-10-02   {TOKEN}\n",
            TOKEN,
        ),
        (f"<dict>\n  <key>AcmeApiKey</key>\n  <string>{TOKEN}</string>\n</dict>", TOKEN),
        # a typed password with "=" inside
        ("admin_user=ops\nadmin_password=kTr9941=qZ\n", "kTr9941=qZ"),
        # a typed password that ends in "?"
        ("your login password is: Bravo2004?\nPlease change it.", "Bravo2004?"),
        # a value a command prints when its last argument names a credential
        (f"$ terraform output -raw acme_private_key\n{HEX}\n", HEX),
        # a value on the line above a line that names it; a random run before a remark
        (f"{TOKEN}\n\nthat's the Acme seller api secret, the old one got revoked", TOKEN),
        (f"test with {TOKEN}Zq8 (that's the Acme bot authorization key, staging only)", TOKEN),
    ],
)
def test_rows_listings_and_printed_values_are_redacted(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out
    assert redact(out) == out


@pytest.mark.parametrize(
    "text",
    [
        "if(!n)return;n=!0===n?{}:n;const s=t",
        "- Password verification via Argon2id.\n- Login lockout: 5 failures",
        "create mode 100644 Archives/ff33b5b0-cc51-4271-a3eb-545a85882e5f.jsonl\n"
        "🔐 Running the secret scan",
        "JWT_SECRET=change-this-to-a-secure-secret\nENCRYPTION_KEY=change-this-to-32-char-aes-key!!\n",
        "NAME        STATUS    AGE\nweb-7f9c    Running   3d\n",
    ],
)
def test_code_paths_and_listings_without_secrets_are_left(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("value", "random"),
    [
        ("6OXKwA3VkNtZ", True),
        ("MXQ3F0PNY9", True),
        ("Gh7Kp2Wq", True),
        ("iPhone12Pro", False),  # words and a number
        ("v1Beta2Api", False),
        ("AES256GCM", False),  # a run of four capitals or more: an acronym's
        ("Project2024", False),
        ("user42x9", False),  # small letters and digits: a name's as often
        ("ABCD1234", False),
    ],
)
def test_a_short_value_is_random_when_its_classes_change_often_and_hold_no_word(
    value: str, random: bool
) -> None:
    assert short_random(value) is random


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("login etl senha 6OXKwA3VkNtZ", "6OXKwA3VkNtZ"),
        ("tài khoản etl mật khẩu MXQ3F0PNY9", "MXQ3F0PNY9"),
        ("my token is Gh7Kp2WqA1 ok", "Gh7Kp2WqA1"),
    ],
)
def test_a_short_random_value_after_a_word_that_names_a_credential_alone_is_marked(
    text: str, value: str
) -> None:
    assert value not in redact(text)


def test_a_short_value_after_a_bare_key_is_left() -> None:
    text = "- Key features: alignment.\\n- Technology: Python, Wav2Vec2 models"
    assert redact(text) == text
