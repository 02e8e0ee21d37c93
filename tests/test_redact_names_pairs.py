"""Credentials named in other languages and abbreviations, given in typed declarations,
as a name/value pair's two fields, or as base64 after a credential's word; and what
looks so and is none."""

from __future__ import annotations

import pytest

from brain.home.secrets.names import credential_name
from brain.home.secrets.redact import redact


@pytest.mark.parametrize(
    ("name", "strength"),
    [
        ("GALILEO_NYCKEL", "strong"),
        ("humaans_klucz", "strong"),
        ("LoyverseSleutel", "strong"),
        ("PROCOUNTOR_KENNWORT", "password"),
        ("furgonetkahaslo", "password"),
        ("eduzz_staging_senha", "password"),
        ("hotmart_mot_de_passe", "password"),
        ("EuKajabiClientSec", "strong"),
        ("REST_TOK_NOTEABLE", "strong"),
        ("vanilla_forums_service_cred", "password"),
        ("clave", ""),  # a key's word alone is a map's
        ("tok", ""),  # a lexer's
        ("timeout_sec", ""),
        ("max_tkn", ""),
    ],
)
def test_a_credential_named_in_another_language_or_shortened(name: str, strength: str) -> None:
    assert credential_name(name) == strength


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("docker run -e GALILEO_NYCKEL=UgWw_t_xmsYlE5VISmxDGrHR5laq6vkm8vVMffw8vC4 img", "UgWw_t_"),
        ('ENV["NETHUNT_ZUGANGSCODE"] = "b9d5da3c24b643de7443e633cdc86ebe"', "b9d5da3c"),
        ('Private Const COLISSIMO_PASSWD As String = "sonne2023#"', "sonne2023#"),
        ('static NSString *const kAppApiKey = @"f5beb07b4db9da326ff6968f7a3aaefb";', "f5beb07b"),
        ('let k = env::var("GLADLY_API_TOKEN").unwrap_or("3vSLoqwo5eyKgZogO7x1".into());', "3vSLo"),
        ("set `EVENTBRITE_PRIVATE_TOKEN` to `X8M7S9KQ6JUERFWLLAXU` and run it", "X8M7S9KQ"),
        ('{"key": "DB_PASSWORD", "value": "Mette@winter59"}', "Mette@winter59"),
        (
            '[{\n  "ParameterKey": "EuKajabiClientSec",\n'
            '  "ParameterValue": "W9uIdhmTeaCl5uu6i"\n}]',
            "W9uIdhmTeaCl5uu6i",
        ),
        (
            '{"arguments": "{\\"key\\": \\"APP_TOKEN\\", '
            '\\"value\\": \\"W9uIdhmTeaCl5uu6iQx2\\"}"}',
            "W9uIdhmTeaCl5uu6iQx2",
        ),
        # a run in a wallet address's alphabet after a secret's word is the secret
        ("Procountorのclient secretはこれです：CLJm676asnuo5i2bzJQxqm1tuxR2FoUR 設定に", "CLJm676"),
        # capitals and digits, long and random, wherever they stand
        ("the old one got revoked: SB5DHX6PYH2P77AYDLKK1CQ1N9IE49HOZQFEL5ZVE23Z75UZ8B", "SB5DHX6"),
        (
            " provider | tryton_klucz\n----------+------------------\n"
            " tryton   | 77c89b33245540255da8ba230779f2cb\n(1 row)",
            "77c89b33",
        ),
        ('echo "Liesbeth#zSvm" > .token', "Liesbeth#zSvm"),
        ("my logins:\n• bank – in the safe\n• Kajabi – tundra+T6562\n• wifi – on fridge", "T6562"),
        (
            "> Could you send the Baremetrics api key?\n> Thanks, Thanh\n\n"
            "Sure, it's 1J9MBjHMjNmf9ym5RuKe\nPlease keep it out of Slack.",
            "1J9MBjHMjNmf9ym5RuKe",
        ),
        ("Login for the sandbox: arjun@shop.test / Gatto#kemal86", "Gatto#kemal86"),
        ("<String><Key>Password</Key><Value>quartz_monsoon26</Value></String>", "quartz_monsoon26"),
        (
            "variables:\n  - name: REST_TOK_NOTEABLE\n"
            "    value: 'Rzl4UAsSGAFqwwdGIUdUWnjP2L6shFq'\n",
            "Rzl4UAsSGAFqwwdGIUdUWnjP2L6shFq",
        ),
        (
            "<tr><td>Miro</td><td>access token</td><td>eyJtaXJvLm9yaWdpbiI6Il8xQ2</td></tr>",
            "eyJtaX",
        ),
        (
            "test with Key 1hD7SJfLJvIq39fZAQXBM6m6mslxhFI0U+U/4yJQXPrAVxuZKvLgYAn5hM (staging)",
            "1hD7SJfLJvIq39fZAQXBM6m6",
        ),
        # a record's name and its value in the forms of a patch, a plan, an output, a form
        (
            '[{"op": "add", "path": "/env/BRAINTREE_PRIVATE_KEY", '
            '"value": "c6f0b1e9a2d84f7c93e5a1b0d2c4e6f8"}]',
            "c6f0b1e9a2d84f7c",
        ),
        (
            '      ~ loops_api_token = "old" -> "Zq81mW4xTe07LpRv93Hd"\n',
            "Zq81mW4xTe07LpRv93Hd",
        ),
        (
            '{"db_password": {"sensitive": true, "type": "string", "value": "Kestrel!4471"}}',
            "Kestrel!4471",
        ),
        (
            "-[ RECORD 1 ]---\nname  | smtp_passwort\nvalue | Heide&Moor1990",
            "Heide&Moor1990",
        ),
        (
            '--b\r\nContent-Disposition: form-data; name="client_secret"\r\n\r\n'
            "Vq2Lw8Xe5Rt1Yz6Ma3Nb\r\n--b--",
            "Vq2Lw8Xe5Rt1Yz6Ma3Nb",
        ),
    ],
)
def test_the_value_is_marked(text: str, value: str) -> None:
    assert value not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        '{"key": "SORT_KEY", "value": "createdAtDescending"}',
        "Dim token As Integer = 5",
        'let t = env::var("TOKEN_LIMIT").unwrap_or("4096".into());',
        " id | token_count | name\n----+-------------+------\n  1 |        4096 | abc\n",
        'echo "hello world" > notes.txt',
        "use the login / logout buttons",
        "Passwords:\n- must be 12 characters\n- rotate - every_90_days\n",
        "| `make secrets-apply` | 1Passwordからシークレット適用 |",
        "what is the api key format?\n\nit is documented here",
        "Login via Google / GitHub works",
        "3. 给足token预算\n\n要求CC给API版100万token",
        "rename `token` to `accessToken`",
        "github.com/x/y v1.0.0 h1:+DPKyScKSEp3VLtbMDHcUq6V5Lm5zfZZVb0Sk7Ahom4=",
        # a thinking block's signature, read apart from its block
        "EqcCClsIDRgCKkAc0nJkkxCWA7Tb1P/gZLzmG7Gr9joH41q3KOE0k2SwLhThAS3x9X4Hd4KWz3Pb6YVF",
        "see src/components/HeaderNavigationBarComponentWithLongName/index.tsx",
        '[{"op": "replace", "path": "/spec/replicas", "value": "3"}]',
        '      ~ image = "nginx:1.24" -> "nginx:1.25"',
        '{"build_sha": {"sensitive": false, "type": "string", "value": "9f3c2a1b7e"}}',
        '--b\r\nContent-Disposition: form-data; name="token_count"\r\n\r\n4096\r\n--b--',
    ],
)
def test_what_looks_so_is_left(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("billing_secreto = 7e1f0c9a2b4d6e8f0a1c3e5b7d9f1a2c", "7e1f0c9a2b4d6e8f"),
        ("ORDERS_TAJNY_KLUC=9a8b7c6d5e4f3a2b1c0d9e8f", "9a8b7c6d5e4f3a2b"),
        ('"STG_MAILER_CLAU_API": "Tq7wZk2LmN9xVb4Rc"', "Tq7wZk2LmN9xVb4Rc"),
        ("lager_sicherheitscode: 418293", "418293"),
        # a passphrase under a password's or a key's name, in any script
        ("      password: lantern.otter.brisk.tulip.harbor", "lantern.otter.brisk"),
        ("wpa-psk=quokka-mango-tundra-violet", "quokka-mango-tundra"),
        ("DB_PASS='ember_žirafa_nimbus_quill'", "ember_žirafa_nimbus_quill"),
        ("$ sshpass -p 'walrus.cobalt.fennel.thistle' ssh pi@10.0.0.7", "walrus.cobalt"),
        ('auth=("svc", "saffron-beacon-marlin-dune")', "saffron-beacon-marlin-dune"),
    ],
)
def test_a_name_in_another_language_and_a_passphrase_are_marked(text: str, value: str) -> None:
    assert value not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "password: config.database.main.password",
        "secret_key: my-app-secret-key-name",
        'import Header from "./components/header-nav-bar-item"',
        'CLAUDE_MODEL = "claude-sonnet-4-5"',
        "the clause: the tenant keeps the keys",
    ],
)
def test_words_joined_as_code_joins_them_are_left(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('(setq gptel-api-token "Hq2vLm8xRt4Wn7Kc9Zp3")', "Hq2vLm8xRt4Wn7Kc9Zp3"),
        ('(def smtp-password "Tallinn!2290")', "Tallinn!2290"),
        ('      ~ mailerApiSecret: "old" => "9c1e4f7a2b8d5e0f3a6c9b2d"', "9c1e4f7a2b8d5e0f"),
        ("Þetta er app password minn: qzvk rmtb yxcl wphd notaðu það", "qzvk rmtb yxcl wphd"),
    ],
)
def test_a_lisp_binding_a_preview_and_a_phrase_before_another_script(text: str, value: str) -> None:
    assert value not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "(setq auth-source-debug t)",
        '(the token "count")',
        '      ~ replicas: "2" => "3"',
        "the password: use the other one please",
    ],
)
def test_lisp_and_previews_that_give_no_credential(text: str) -> None:
    assert redact(text) == text


def test_a_calls_quoted_argument_after_a_word_in_capitals_is_no_lisp_binding() -> None:
    text = 'target_link_options(${TARGET} PRIVATE "-Wl,-z,max-page-size=16384")'
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('echo "Harbor!7731" | sudo -S systemctl restart nginx', "Harbor!7731"),
        ("sudo -S apt-get install -y jq <<< 'Lantern.Quill*42'", "Lantern.Quill*42"),
        ("rootpw --plaintext ochre-lumen-vortex-briar", "ochre-lumen-vortex-briar"),
        ("220 ready\nUSER deploy\n331 Password required\nPASS Fjord#2291\n230 OK", "Fjord#2291"),
    ],
)
def test_a_password_sudo_reads_a_kickstart_root_and_an_ftp_pass(text: str, value: str) -> None:
    assert value not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "echo $SUDO_PASSWORD | sudo -S ls",
        "echo hello | sudo -S tee /etc/motd",
        "rootpw --iscrypted $6$rounds=4096$abc",
        "PASS: 12 tests\nFAIL: 0",
    ],
)
def test_sudo_and_pass_lines_that_give_none(text: str) -> None:
    assert redact(text) == text
