"""A value handed over at a chat line's end with no credential's word, and a short value
whose letters and digits mix as no name's do after a secret's name; and the lines of
logs, tool output and prose that end so and hold none."""

from __future__ import annotations

import pytest

from brain.home.secrets.redact import redact
from brain.home.secrets.shapes import interleaved, unspoken


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "Freshping के लिए ये वाला use करो: PLQW3P35KK47VBKFXTRNJEXP4W",
            "PLQW3P35KK47VBKFXTRNJEXP4W",
        ),
        ("Bukku는 이걸로 해줘: pbotgcwv2coqcgivozlv", "pbotgcwv2coqcgivozlv"),
        ("از این برای IDnow استفاده کن: FLgoS4aGpzD", "FLgoS4aGpzD"),
        ("TrainerRoad anahtar burada: hbtyevzdhwi4bc", "hbtyevzdhwi4bc"),
        (
            "DayZ Serverはこっちを使ってください → flclnbwhi5o7gavlehjbgx33gy1ox4q9ii6o6",
            "flclnbwhi5o7",
        ),
        ("استخدم هذا لـ Aqara: N7dgam8JVKbukYbH9nen+190rgMUqy3sQUf3S79n3BfN", "N7dgam8JVKbukYbH"),
        ("hier ist der Dolby.io-Schlüssel: aLyE60J9wz", "aLyE60J9wz"),
        ("use this one for the mailer: kq3Vw9ZpT2xLm8, the old one expired", "kq3Vw9ZpT2xLm8"),
        (
            "dùng cái này cho Ubicloud nhé: "
            "{98, 157, 9, 121, 84, 34, 170, 123, 92, 183, 0, 174, 255}",
            "{98, 157, 9, 121, 84, 34, 170",
        ),
        # after a credential's word in the line's language: a typed password, a PIN,
        # a passphrase
        ("ini kunci Postbank aku: FaridAnneke1985&&", "FaridAnneke1985&&"),
        ("evo ključa za KCB: 4023", "4023"),
        ("вот ключ от Rozetka: Győr9334% не коммить", "Győr9334%"),
        ("here's the Knab password: pebble-wharf-river-rustle-walnut52", "pebble-wharf"),
        ("הנה המפתח של Smartbroker: plume cobra granite saddle77", "plume cobra granite"),
        ('SESAME_SECRET_KEY_HR_OLD = "ia87zyoyyoepu"', "ia87zyoyyoepu"),
        ("CLAID_PAT_LIVE=frFoSjkOBluy3", "frFoSjkOBluy3"),
    ],
)
def test_a_value_handed_over_is_redacted(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out
    assert "[REDACTED:" in out


@pytest.mark.parametrize(
    "text",
    [
        "Fixed it in this commit: 3f9a2b1c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f90",
        "9:28:55 PM:   accountId: 6734cb9fb273cf296945e6d2",
        "Output: billingAccountName: billingAccounts/01546F-81F551-1A63DC",
        "# Mainnet: EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
        "the chat id: oc_3da0e6d80886aca9f0e6dbeeff8e59cf",
        "    Serial Number: 68e91deb0d36702cfb82bb3ffa00b606f60",
        "Now the file looks like: src/components/Header.tsx",
        "Updated the dependency to: react-router-dom@6.22.3",
        "Feature active: specs/042-foo-bar/",
        "curl http://localhost:8080/cases/PV-2026-0451",
        "llm/kernel/scatter_gather.py:100:        FP8_MODE=fp8_mode,",
        "golang.org/x/text v0.16.0/go.mod h1:GhwF1Be+LQoKShO3cGOHzqOgRrGaYc9AvblQOmPVHnI=",
        "The request for the new image: ghcr.io/acme/web:pdv-fix-20250924",
        "We pinned the Python version to: python3.12-slim",
        "Two pages are left to port: TreeViewBranchContent",
        "The run finished, its trace: 4bf92f3577b34da6a3ce929d0e0e4736",
        "Process exited with code 0\nOriginal token count: 2229\nOutput:",
        "The key fact: **200K context window, not 1M**.",
        "The key technical point: deep-scrape-api.mjs navigates to 50 pages",
        "Random Seed: 1780568150",
        "The token expires in: 3600",
        "We moved the API key to: config/settings.py",
        "- All previous tools remain: Validate/Rules/Bundle/Workspace/Install, Preferences",
        "Account SID: ACd4a5d48b3343aeafcc7ed0ca4ed872fd",
        "the parcel's tracking number: 1ZJWV6XG902RG13NYM",
        "Your parcel is on its way. Tracking: 1ZZ879WXC3WBOS8I4O",
        "# an example only: dXNlcm5hbWU6cGFzc3dvcmQ=",
    ],
)
def test_what_ends_a_line_so_and_is_no_credential_is_kept(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("value", "mixed"),
    [
        ("ia87zyoyyoepu", True),
        ("frFoSjkOBluy3", True),
        ("l0hiuwmkosrah6t", True),
        ("release2024", False),
        ("Password1", False),
        ("oauth2client", False),
        ("utf8mb4unicode", False),
        ("sha256sum1", False),
        ("s3bucketname", False),
        ("h264encoder", False),
        ("k8sclusterA1", False),
        ("myAppSecretV2", False),
        ("abc123def456", False),
    ],
)
def test_letters_and_digits_interleaved_as_no_name(value: str, mixed: bool) -> None:
    assert interleaved(value) is mixed


def test_letters_pair_as_words_do_or_not() -> None:
    assert not unspoken("TreeViewBranchContent")
    assert not unspoken("password")
    assert unspoken("zyoyyoepu")


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ('lockly_pin_stg: "508840"', "508840"),
        ("src/settings.ts:14:  bnpParibasDevPin: '7823',", "7823"),
        ('<add key="FOXPASS_LIVE_PW" value="Bailey-Winter70" />', "Bailey-Winter70"),
    ],
)
def test_a_pin_and_a_pw_in_a_name(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "GPIO_PIN = 13",
        "pin_memory: 1024",
        '  .send({ username: "admin", pin: "4821" });',  # a PIN's word alone: a test's field
        "3QvZ5LPtijDKFrNdwHIC +PwLImswUEk L9SbziV2g2Wep776bF8p/1+dbohLpQsM865QdK4+ArmhBgdUy69Y",
    ],
)
def test_pin_and_pw_inside_other_words_name_nothing(text: str) -> None:
    assert redact(text) == text


def test_a_password_after_a_spaced_colon_is_still_one() -> None:
    text = "Host :5.78.113.107 Username :postgres Password :Mfcd62!!Mfcd62!!SaaS Port 5432"
    assert "Mfcd62!!" not in redact(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ('os.Setenv("OPENCART_STG_MASTER_KEY", "IbyJOUaP20")', "IbyJOUaP20"),
        ("setProperty('PAROL_AIRTHINGS', 'gzRFqVRMKEUU9pBm94e');", "gzRFqVRMKEUU9pBm94e"),
        ('os.environ.setdefault("KEEPASSXC__APIKEY", "uwxr bpvi hnwx letk")', "uwxr bpvi"),
    ],
)
def test_a_name_and_its_value_as_a_calls_arguments(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        't("password", "Password")',
        'headers.set("X-Api-Key", apiKey)',
        'os.getenv("API_TOKEN", "")',
        'assertEqual("secret_key", "secret_key")',
        'i18n.add("reset_password", "Reset your password")',
    ],
)
def test_call_arguments_that_name_a_credential_and_give_none(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # a key's or a password's word in a language the name lists had only for names
        ("dyma allwedd y llyfrgell: Llanfair#2291", "Llanfair#2291"),
        ("štai banko raktas: 730215", "730215"),
        ("tady je klíč k Fio: otter-basalt-meadow-quince41", "otter-basalt-meadow"),
        ("ορίστε το κλειδί για Piraeus: nimbus falcon quartz mirth salvo", "nimbus falcon"),
        ("აი Bank of Georgia-ის გასაღები: 55102938", "55102938"),
        # a seed phrase, an app password, a code in groups, a key's id and its secret
        ("här är nyckeln till Kraken: ochre lumen vortex briar tansy cobble", "ochre lumen"),
        ("the mail app password: vqzt mhkw ybrc jdxe", "vqzt mhkw ybrc jdxe"),
        ("aquí tens la clau de Holded: 7731-0924", "7731-0924"),
        ("Shopware кілті: w8k2m0q9s1:Zt4PqL9sVb7Xc2Nd8Rf5Gh", "Zt4PqL9sVb7Xc2Nd8Rf5Gh"),
        # no colon: the word that says what the credential is
        ("le mdp du routeur c'est Fromage!88", "Fromage!88"),
        ("lösenordet till wifi är 66120945", "66120945"),
        ("mật khẩu Zalo là 4417-2290", "4417-2290"),
        ("hasło do Allegro to kruk.lipa.wydma77 nie wrzucaj", "kruk.lipa.wydma77"),
        ("Mercari のパスワードは sable quiver lantern mosaic21 です", "sable quiver"),
    ],
)
def test_a_credential_named_in_a_sentence_in_any_language(text: str, secret: str) -> None:
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "We need the key: produce better key numbers for the brief",
        "The token: capture full error details in the router",
        "Set the password to something only you know, then",
        "the API key is 4096 bits long",
        "the key is 2048 bits",
        "The clause: the tenant keeps the keys",
        "the password is stored in the vault",
        "la clave: guardala en un lugar seguro",
        "PostFinance: the migration finished at 2026-01-05",
        "the password hashing cost: 12",
        "Token: expired since yesterday",
    ],
)
def test_sentences_about_a_credential_that_give_none(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "## AT-UC17-07 — Authorization: Non-Editor Cannot Edit Schedule",
        "https://app.example.com/chats/1?tab=x&sendbird_user_id=6f2e9b1a4c7d0e3f5a8b1c4d7e0f3a6b9c2d5e8f",
        'the code talks to it with api_key "EMPTY" and model deepseek-ai/DeepSeek-R1-0528-Qwen3-8B',
    ],
)
def test_a_titles_words_a_users_id_and_a_models_name_are_no_credentials(text: str) -> None:
    assert redact(text) == text


def test_a_key_for_a_model_is_still_one() -> None:
    said = "the API key for model llama-3 is 9f8e7d6c5b4a39281706f5e4d3c2b1a0, use it"
    assert "9f8e7d6c5b4a" not in redact(said)


@pytest.mark.parametrize(
    "text",
    [
        " ❯ JWTPro.login src/JWTPro.ts:213:24\n ❯ tests/functional/auth.test.ts:22:24",
        "11237,Afghanistan vs. Bangladesh,afghanistan-vs-bangladesh,"
        "2024-06-24T20:01:21.287876Z,2024-06-24T12:00:00Z,502814,Afghanistan vs. Bangladesh",
    ],
)
def test_a_stack_frame_and_a_csv_rows_times_are_no_credentials(text: str) -> None:
    assert redact(text) == text
