"""Credential words in more languages, seed phrases under any credential's name, a
cookie given with its attributes, a private feed's URL, a PIN or a one-time code in a
sentence, a key's bytes in a sentence; and what looks so and is none."""

from __future__ import annotations

import pytest

from brain.home.secrets.names import credential_name
from brain.home.secrets.redact import redact
from brain.home.secrets.shapes import lower_digits


@pytest.mark.parametrize(
    ("name", "strength"),
    [
        ("ORDERS_KHOA", "strong"),
        ("FUSION__KAGI", "strong"),
        ("v2ShopKunci", "strong"),
        ("BILLING_NOKKEL_RO", "strong"),
        ("LEDGER_MIYAO", "strong"),
        ("portalMotdepasse", "password"),
        ("crmKatasandi", "password"),
        ("parolReports", "password"),
        ("APP_GEHEIM", "password"),
        ("QUEUE_PRIVATE", "random"),
        ("FIREZONE_TOKENI_LIVE", "strong"),  # Finnish: tokeni (tokenizer is none)
        ("tokenizer", ""),
        ("billing.fjalekalim", "password"),
        ("hevo_kleidi", "strong"),
        ("Challongegakoa", "strong"),  # a key's word run together with the name
        ("NEW_OPENTTD_LYKILL", "strong"),
        ("CACTI_LIVE_SALASANA", "password"),  # (sal: salt's start too)
        ("RO_VAULT_MAT_KHAU", "password"),
        ("orders__susi", "strong"),
        ("sismaPortal", "password"),
        ("X-Fabrikam-Key", "strong"),  # a custom header named for a key carries one
        ("x_key", "weak"),
        ("X-Cache-Key", ""),
        ("kagi", ""),  # a key's word alone is a map's
        ("khoa", ""),
    ],
)
def test_a_credential_word_in_more_languages(name: str, strength: str) -> None:
    assert credential_name(name) == strength


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("ORDERS_DB_KHOA_PROD=q7v2mk9xa3ej51", "q7v2mk9xa3ej51"),
        ('const FUSION__KAGI: &str = "5D0E71C9A2B84F36E1D07A95C3B2F68E";', "5D0E71C9"),
        ("ledger.ledger-kunci=Rq8WnT4yLpZs2VbK", "Rq8WnT4y"),
        ('let parolReports = "Zq4Lm9Tx2Vw"', "Zq4Lm9Tx2Vw"),
        ("SIGNING_SALT = 'k2m9qa7zt4pw'", "k2m9qa7zt4pw"),
        # a seed phrase under a password's name, quoted or bare, whole
        (
            "WALLET_PASSWD=acorn bishop candle dune ember fable grove heron inlet jolt kelp loom",
            "kelp loom",
        ),
        (
            'export VAULT__HASLO="acorn bishop candle dune ember fable grove heron inlet jolt'
            ' kelp loom"',
            "acorn bishop",
        ),
        (
            "hey, recovery words = acorn bishop candle dune ember fable grove heron inlet jolt"
            " kelp loom",
            "acorn bishop",
        ),
        # quotes escaped twice: a tool's result inside a transcript's line
        (
            '{"content": "{\\"content\\": \\"SHOP_APIKEY_RO=\\\\\\"Lq7Zw2Xk9Vb4Tm\\\\\\"\\"}"}',
            "Lq7Zw2Xk9Vb4Tm",
        ),
        (
            'Headers.Add("X-Fabrikam-Key", "6f1c2a9e-3b7d-4e21-9c05-d8a4b3e7f210");',
            "6f1c2a9e",
        ),
        # a cookie given with its attributes, whatever its name
        ("Set-Cookie: shop_sid=Hq7Lw2Xz9Pk4Rt6Yb3Nm8Vc1; Path=/; HttpOnly", "Hq7Lw2Xz9Pk4"),
        ('  COOKIE: "acct_sess=Mp3Xq9Lz7Rw2Tk5Vb8Nc4Hd; SameSite=Lax"', "Mp3Xq9Lz7Rw2"),
        # a private calendar's or feed's URL: its random segment
        (
            "- team calendar: https://cal.example.net/ical/x7kq2mz9p4tw8rb3hv6nc5jd/basic.ics",
            "x7kq2mz9",
        ),
        ("feed at https://news.example.org/feed/k4p9m2x7q3z8w5t6r1v0/rss.xml", "k4p9m2x7"),
        # a PIN, a one-time code, a signing salt, a key's bytes, named in a sentence
        ("can you add the alarm? pin = 48213907 thanks", "48213907"),
        ("The one-time code is 5530192.", "5530192"),
        ("aqui está o signing salt do Acme: Kq8Zt2Lw9Xm4Pv7Rb3 usa esse", "Kq8Zt2Lw9Xm4"),
        ("the api key: Wq4Rt8Lm2Xz7 use it", "Wq4Rt8Lm2Xz7"),
        ("the wifi password: sunflower", "sunflower"),
        # a note's password or PIN under its user's line
        ("the note on my desk:\nuser: reception\n4417209\nthanks", "4417209"),
        ("ALARM\nlogin: ops@shop.test\nKestrel#2291\n", "Kestrel#2291"),
        # what a command reading a stored secret prints on the next line
        ("$ pass show work/wiki\nmaple anchor violet drum\nurl: https://wiki.example.org", "maple"),
        ("me@box:~$ gopass show -o team/db\nQx7#rTm2vLp9", "Qx7#rTm2vLp9"),
        ("$ op read op://dev/db/password\nHx9#mPq2vLr8", "Hx9#mPq2vLr8"),
        # ... whatever its shape: the store says it is a secret
        ("$ pass show stc/wiremu59\n3333\nurl: https://stc.example", "3333"),
        ("$ secret-tool lookup service shop\nig0x-s9zv", "ig0x-s9zv"),
        ("$ doppler secrets get SHOP_KEY --plain\nW6HDBJYH44K2P9G", "W6HDBJYH44K2P9G"),
        ("$ keyring get system alice\narrow thistle lotus thunder paddle crater", "thistle"),
        # a credential's word typed in a hurry; a value handed over to be used as one
        ("iRobot secert 0ci2eK6fRO pls dont commit it", "0ci2eK6fRO"),
        ("the db pasword is Hunter2024!x", "Hunter2024"),
        (
            "update the integration? use Summit2008* as the RCON password, the old one is dead",
            "Summit2008",
        ),
        # a Confluence or Jira wiki table's credential column, or a value row under it
        ("h2. Setup\n||Item||Value||\n|account password|thunder_eilidh2105_|\n", "thunder"),
        ("||System||Credential||\n|Longbridge|crystal.linen.badger.galaxy.oasis|", "crystal"),
        # a bank's TAN and a SIM's PUK, written in capitals, in any language around them
        ("Tu je TAN pre NLB: 9115, prosím nezdieľaj", "9115"),
        ("Ось TAN для Luminor: 438105 дякую", "438105"),
        ("[21:51] <marisol> Smartfren SIM PUK = 03090250", "03090250"),
        # what a browser test types into a password's, a PIN's or a token's field
        ("await page.fill('#password', 'cometdagny0610^');", "cometdagny0610^"),
        ("cy.get('input[name=pass]').type('avdx xvfl bmlt atou')", "avdx xvfl"),
        ("await t.typeText('#password', 'dune banner coral canal').click('#login');", "dune"),
        ("await $('input[type=password]').setValue('DKV6TNSKPSBWMOZ7FJE');", "DKV6TNSKPS"),
        ("await page.getByLabel('PIN').fill('4821')", "4821"),
        ("fill_in 'Password', with: 'hunter2hunter'", "hunter2hunter"),
        (
            "$ kubectl get secret api -o jsonpath='{.data.key}' | base64 -d\n"
            "Vb7Kq2Lm9Xz4Rt8Wp3Nc6Hd1Jf5Gs0Ty",
            "Vb7Kq2Lm9Xz4",
        ),
        ("log in as admin / Sup3rS3cretPw", "Sup3rS3cretPw"),
        ("hier der Alarm-Zugang (pin): 730194 – bitte nur lokal", "730194"),
        # a command's password argument: lftp's user,password; FreeRDP's /p:
        ("$ lftp -u deploy,'harbor-Mina-2019' sftp://files.example.org", "harbor-Mina"),
        ("$ xfreerdp /v:jump.local /u:ops /p:'tundra-velvet-orbit-mango' /cert:ignore", "tundra"),
        ("le partner key de Acme : 6f1c2a9e-3b7d-4e21-9c05-d8a4b3e7f210 pour le test", "6f1c2a9e"),
        (
            "here's the device key: {12, 250, 77, 3, 190, 64, 21, 133, 9, 201, 58, 99} for now",
            "250, 77, 3, 190",
        ),
    ],
)
def test_the_value_is_redacted_whole(text: str, value: str) -> None:
    assert value not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "Set-Cookie: theme=dark-mode-v2; Path=/; SameSite=Lax",
        "Set-Cookie: lang=en; Path=/; HttpOnly",
        "see https://example.com/feeds/all-news-2024.xml and https://x.org/feed/2024/05/a-post",
        "https://calendar.google.com/calendar/ical/en.usa%23holiday%40group.v.calendar.google.com/public/basic.ics",
        "pin the version to 1.2.3 and ping 10.0.0.1 on port 50001",
        "the verification code expired at 12:30:45 after 300000 ms",
        "set the pin to 13 then wait 20000 ms",
        "  const otp = Math.floor(100000 + Math.random() * 900000).toString()",
        '"@babel/plugin-proposal-private-property-in-object": "7.21.0-placeholder-for-env.2"',
        "x _cfuvid=G6sMOjPGCIO2vJOvI8eNSQYoccWPj7vxAR60YGK6dgQ-1775154632.5-1.0; HttpOnly; Path=/",
        "the cache key list is [1, 5, 9, 200, 3, 7, 11, 13, 17, 19, 23, 29, 31]",
        "PRIVATE=true",
        'MNEMONIC="your twelve word mnemonic phrase here"',
        "user: bob\nenabled: true",
        "user: bob\n2024\n",
        "login: admin\nSuccessfully logged in",
        "$ pass show work/wiki\nError: work/wiki is not in the password store.",
        "$ secret-tool lookup service shop\nNo such secret",
        "await page.fill('#password', process.env.E2E_PASSWORD)",
        "await page.fill('#password', '<password>')",
        "await page.fill('#password', '${PASSWORD}')",
        "await page.fill('#passenger-name', 'Jane Doe Smith')",
        "await page.fill('#email', 'user@example.com')",
        "cy.get('#pinned-tab').type('release notes 2024')",
        "y = tan(x) * 12345",
        "||Item||Value||\n|Contact|Bogdana|\n|region|eu-west-1|",
        "use pnpm as the package manager",
        "use redis-7.2 as the cache for the session token store",
        "the sofa is tan: 12345 units sold",
        "$ kubectl get secrets\nNAME   TYPE   DATA   AGE",
        "Hook entrypoints such as Hooks/TaskStart run the pipeline",
        "Agent has no sudo/polkit password: systemctl restart fails and sudo hangs",
        "(jules) Password: Failed to restart pi-media-bot.service: Connection timed out",
        "newErrors.password = 'Password is required';",
        "explainable AI for user trust and interpretability.",
        "$ xfreerdp /v:host /u:admin /p:$RDP_PASSWORD",
        "SESSION_KAGI=orders",
        'RECOVERY_PASSWORD_HINT="the name of the first dog we had back in the old house"',
    ],
)
def test_what_looks_so_is_left(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("value", "random"),
    [
        ("q7v2mk9xa3ej51", True),
        ("k2m9qa7zt4pw", True),
        ("abc123def456", False),  # digits in two runs
        ("orders2024v2", False),
        ("user42x9", False),  # too short
    ],
)
def test_small_letters_and_digits_random(value: str, random: bool) -> None:
    assert lower_digits(value) is random
