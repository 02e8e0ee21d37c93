"""Credentials found by family (``secrets/families.py``), whole, and code left alone."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brain.home.secrets import families
from brain.home.secrets.families import about_credential, credential_name
from brain.home.secrets.redact import redact
from tests.helpers import examples

# Fake values assembled at run time so no scanner mistakes this file for a leak.
HEX40 = "5ee95acdcf79024f3b899434e1efab40682e9080"
HEX64 = "9f3a" * 16
B62 = "qikvilZ6VNHtoJTBDDGJtkHNG9tL1YnsRj"
GHOST = (
    "6c4572c15a0e51d78e61cdcd"
    + ":"
    + "e2f834d24c3d640332a3bdc2de9dec4efc3a84813510aa15de0dc3c1047fca49"
)
SFDC = "00D" + "fZqOgrV6f9iX" + "!" + "k4EW3YvP4q.Bp30pLJFWay4cdFHAwKszING5vT.1pAXAKndpbLrjVN3TPap4"
WORDS = "abandon ability able about above absent absorb abstract absurd abuse access accident"
BYTES = "[" + ",".join(str((i * 37 + 11) % 256) for i in range(64)) + "]"

PW = "Lagoon" + "_cedar7171*"
CAUGHT = [
    (f"$ sqlplus system/{PW}@//ora-prod.corp.local:1521/ORCL", PW),
    (f"rabbitmqctl add_user metrics '{PW}' && rabbitmqctl set_user_tags metrics x", PW),
    (f"net use Z: \\\\nas01\\finance /user:CORP\\jdoe {PW} /persistent:no", PW),
    (f"snmpwalk -v2c -c {B62} 10.10.0.1 1.3.6.1.2.1.1", B62),
    (f"mosquitto_pub -h mqtt.local -u t -P '{PW}' -t home/temp -m 21", PW),
    (f"echo '{HEX40}' > config/master.key", HEX40),
    (f"Cookie: csrftoken=abc; sessionid={B62}", B62),
    (f'DriverManager.getConnection("jdbc:mysql://db:3306/inv", "app", "{PW}");', PW),
    (f'new NetworkCredential("svc", "{PW}", "CORP");', PW),
    (f"OpenSSL::HMAC.hexdigest('SHA256', '{B62}', payload)", B62),
    (f'"Name": "/prod/api/db_password",\n"Type": "SecureString",\n"Value": "{PW}"', PW),
    (f'let c = Client::builder().token("{B62}").build()?;', B62),
    (f'gh secret set BWS_TOKEN --repo acme/x --body "{B62}"', B62),
    (f'dotnet user-secrets set "Vault:Token" "{B62}"', B62),
    (f"os.environ[\"SCW_SECRET_KEY\"]\n\nOut[4]: '{B62}'", B62),
    (f"requirepass {PW}\nmaxmemory 2gb", PW),
    (f'psk="{PW}"', PW),
    (f"set STREAM_API_SECRET={B62}", B62),
    (f"POST https://x.azurewebsites.net/api/resize?code={B62}&clientId=default", B62),
    (f"curl -X POST https://maker.ifttt.com/trigger/open/with/key/{B62}", B62),
    (f"AWS_BEARER_TOKEN_BEDROCK={B62}", B62),
    (f"MUX_TOKEN_SECRET_PROD='{B62}'", B62),
    (f'mjApikeyPrivate: "{B62}"', B62),
    (f"curl -H 'x-honeycomb-team: {B62}' https://api.honeycomb.io", B62),
    ('{"config": "{\\"TAVILY_API_KEY\\": \\"tvly-dev-' + B62 + '\\"}"}', B62),
    (f"| SPOTIPY_CLIENT_SECRET | {HEX40} |", HEX40),
    (f"keys:\n  stripe:\n    live_signing_key: {B62}", B62),
    (f"<appCertificate>{HEX40}</appCertificate>", HEX40),
    (f"GHOST_ADMIN_KEY='{GHOST}'", GHOST),
    (f"curl -H 'Authorization: Bearer {SFDC}' https://x.my.salesforce.com", SFDC),
    (f"wandb login {HEX40}", HEX40),
    (f'echo "{B62}" | podman login quay.io -u robot --password-stdin', B62),
    (f'rollbar.init("{HEX40}")', HEX40),
    ('auth=("neo4j", "Tundra-quokka4412!")', "Tundra-quokka4412!"),
    (f"curl --user :{HEX40} https://api.example.io", HEX40),
    (f"https://eth-mainnet.g.alchemy.com/v2/{B62}", B62),
    (f"curl 'https://api.openweathermap.org/data/2.5/weather?q=x&appid={HEX40}'", HEX40),
    (f"accounts: ['0x{HEX64}']", HEX64),
    (f"cat ~/.config/solana/id.json\n{BYTES}", BYTES),
    (f'MNEMONIC="{WORDS}"', WORDS),
    (f"here is the new one {B62}, it works", B62),
]

LEFT = [
    "watch-only wallet imported from xpub6CwGLKJaCHKqUJTacsRXB4LH8crTbGVqa4aPkM8jyFFHkG8CT4",
    'headers={"Authorization": "Bearer not-a-real-token"}',
    'kubectl create secret generic db --from-literal=password="$(openssl rand -base64 24)"',
    "set GITHUB_TOKEN=%GH_PAT%",
    "let api_key: &str = &args.api_key;",
    'Parameters: {"password"=>"[FILTERED]", "authenticity_token"=>"[FILTERED]"}',
    "GOOGLE_APPLICATION_CREDENTIALS=/var/secrets/google/key.json",
    "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME",
    "Idempotency-Key: 3f1c2a9e-7b4d-4e2a-9c1f-5d6e7f8a9b0c",
    "max_tokens=4096",
    "TOKEN_LIMIT=4096",
    f"figma file_key: {B62}",
    "pass_rate = assertion/expectation",
    'apikey := d.options.Template(APIKey, ".", d)',
    "const token = useAuthStore.getState().accessToken;",
    "| IPNS signing key | `ipnsPrivateKey` | Ed25519, stored encrypted |",
    "Session: 35ea950f-b370-4441-934d-e6a994c53fd3",
    '"request_id":"req_011CYFiK5uaqZUYCevfgvd6E"',
    "Solana wallet address: 74EJnemyqpkrb5WhJoYny1kFiBWej34w9WxwqTNuwmMx",
    "const stripe = Stripe('pk_live_51J7syiqvSXo4SGXy0HYyE7LrBVSmvBF13gTDDf4C4B5Kno');",
    f"-----BEGIN CERTIFICATE-----\n{B62}{B62}\n-----END CERTIFICATE-----",
    "Key  = 0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
    "git checkout " + HEX40,
    "room.on(RoomEvent.Disconnected as never, cleanup as never);",
    '{"login":"christso","id":"MDQ6VXNlcjMxMTUzMTE=","createdAt":"2026-06-16T01:13:03Z"}',
    "--- PASS: TestParseSleepWakeEvents/no_sleep_events (0.00s)",
    "it is neither hermetic nor deterministic, as belt-and-braces.",
]


@pytest.mark.parametrize(("text", "secret"), CAUGHT, ids=lambda v: str(v)[:30])
def test_a_credential_is_caught_whole(text: str, secret: str) -> None:
    out = redact(text)
    assert not any(secret[i : i + 8] in out for i in range(len(secret) - 7)), out
    assert redact(out) == out


@pytest.mark.parametrize("text", LEFT, ids=lambda v: str(v)[:30])
def test_what_holds_no_credential_is_left(text: str) -> None:
    assert redact(text) == text


def test_a_name_is_read_by_its_words() -> None:
    assert credential_name("AWS_BEARER_TOKEN_BEDROCK") == "strong"
    assert credential_name("DB_PASSWORD_PROD") == "password"
    assert credential_name("PrivateKey") == "strong"
    assert credential_name("SESSION_X") == "weak"
    assert credential_name("seed_phrase") == "phrase"
    assert credential_name("key") == credential_name("tokenizer") == ""
    assert about_credential("IDEMPOTENCY_KEY") and about_credential("password_reset_url")
    assert not about_credential("API_KEY")


RUNS = st.text(
    alphabet=st.sampled_from(
        ["a", "Z", "0", "_", "-", " ", ".", "é", "İ", "ſ", "\U0001f600", "\n"]
    ),
    max_size=200,
)


@given(st.lists(st.one_of(RUNS, st.sampled_from([B62, HEX64, "a" * 31, "b" * 32])), max_size=8))
@settings(max_examples=examples(200))
def test_the_runs_found_by_bytes_are_the_regexs_matches(parts: list[str]) -> None:
    text = "".join(parts)
    assert families.runs(text) == [m.span() for m in families._RUN.finditer(text)]


def test_a_credential_word_that_starts_another_comes_after_it() -> None:
    # names._words_at reads a word's length where the automaton found one: one a place,
    # the longer where two start there (the regex's alternation tries them in order too)
    from brain.home.secrets import names

    words = names.TRIGGER_WORDS
    starts = [(a, b) for a in words for b in words if a != b and b.startswith(a)]
    assert starts == [("tok", "token")]
    assert all(words.index(a) > words.index(b) for a, b in starts)
    assert all(len(word) >= 3 for word in words)
    assert all(names._length_at(word, 0) == len(word) for word in words)


# --- a name's value in other forms (secrets/forms.py) -------------------------------

CHOSEN = "Quartz" + "-otter4471!"
TYPED = "Tq8#vL2!" + "pR6@wZ4$"
B64 = "Vh3kQm9Z+pL2xR7tN/" + "c8WbY1sF+jD4gA6eU0oKq5HiM="
HEX28 = "4f9c2a7e1b83d6f0" + "5a9e2c71b4d8"
UPPER = "H7XUQYTPLA5" + "WQMRZKVNTB3" + "GDY8EOIUS2RC"
IN_OTHER_FORMS = [
    (f'    SetEnv SMTP_PASSWORD "{CHOSEN}"', CHOSEN),
    (f"PS C:\\> setx MAILGUN_SIGNING_SECRET {HEX28}", HEX28),
    (f'static API_SECRET: &str = "{CHOSEN}";', CHOSEN),
    (f'var smtpPassword string = "{CHOSEN}"', CHOSEN),
    (
        f'let c = Mailer::builder()\n    .api_token("{HEX40[:12]}/{HEX40[12:]}")\n    .build()?;',
        HEX40,
    ),
    (f"const c = Client.builder().bot_token('{CHOSEN}').build()", CHOSEN),
    (f'cfg.SigningKey = new SymmetricKey(Encoding.ASCII.GetBytes("{TYPED}"));', TYPED),
    (f"$config['encryption_salt'] = '{B64}';", B64),
    (f"const c = new Client({{ deviceTokenSigner: '{TYPED}' }});", TYPED),
    (f'variable "smtp_password" {{\n  type    = string\n  default = "{CHOSEN}"\n}}', CHOSEN),
    (f"config.vm.provider :x do |v|\n  v.psk '{CHOSEN}'\nend", CHOSEN),
    (f"interface Gi0/1\n  ospf authentication password 7 {HEX28}", HEX28),
    (f"signer:\n  SPLUNK_HEC_TOKEN: Splunk {B62}.{HEX40[:8]}", B62),
    (f">>> os.environ['CMC_PRO_API_KEY'] = '{UPPER}'", UPPER),
    ("restic --passphrase 'lemon-orbit-garden-violet' backup /srv", "lemon-orbit-garden-violet"),
]
NO_VALUE_IN_OTHER_FORMS = [
    "smtpSecret: {{ .Values.mail.secret | b64enc | quote }}",
    'resource "vault_generic_secret" "smtp_password" {\n  path = "secret/smtp"\n}',
    'db_password = os.environ.get("DB_PASSWORD_FILE", "")',
    "enc = tiktoken.get_encoding('p50k_edit_v2')",
    "I reset the DB_PASSWORD yesterday",
    "const signature = request.headers.get('x-signature-ed25519');",
    "const { hash } = await hashPassword('Sample-pass42!');",
    "const KDF_SALT = 'ledgerly-kdf-v2';",
    "cat config/credentials_dev.yml 2>/dev/null",
    "ERROR: NO ROOT PASSWORD CONFIGURED.\nSet one first",
]


@pytest.mark.parametrize(("text", "secret"), IN_OTHER_FORMS, ids=lambda v: str(v)[:30])
def test_a_value_given_in_another_form_is_caught(text: str, secret: str) -> None:
    out = redact(text)
    assert not any(secret[i : i + 8] in out for i in range(len(secret) - 7)), out
    assert redact(out) == out


@pytest.mark.parametrize("text", NO_VALUE_IN_OTHER_FORMS, ids=lambda v: str(v)[:30])
def test_a_name_in_another_form_given_no_value_is_left(text: str) -> None:
    assert redact(text) == text


# --- values in the slots commands, URLs, cookies and key files keep (secrets/slots.py) ---

SIGNIFY = "RWRCSwAAAAB1xK9m+Q2pL7vN4tR8sZ3w" + "/Y6hJ0cF5gD1bE9aU2iO7eP4qT8rW3"
BASE32 = "MZXW6YTBOI4TQMZR" + "GE2DKNJWG4ZDGQ3L"
LICENCE = "4H2KX-9LQ3M-" + "TZ8RD-PW7NC-J5GBY"
SESSION = "8k2m4n6p8r0t" + "2v4x6z8b0d2f"
IN_SLOTS = [
    (f"wfreerdp /v:10.1.2.3 /u:ops /p:{TYPED} /size:1280x800", TYPED),
    (f"net use \\\\nas02\\media {CHOSEN} /user:HOME\\alice", CHOSEN),
    (f"echo -n '{CHOSEN}' | kubectl create secret generic smtp --from-file=pw=/dev/stdin", CHOSEN),
    (f"$ cat secrets/deploy.token\n{TYPED}\n$ ls", TYPED),
    (f"oathtool --totp --base32 {BASE32}", BASE32),
    ("editor -batchmode -serial F9-K2MD-8QPX-3ZRT-7WNB-Q4LS -quit", "F9-K2MD-8QPX-3ZRT-7WNB-Q4LS"),
    (f"Registration code {LICENCE}", LICENCE),
    (
        "curl -X POST https://api.example-ci.com/v2/deploy_hooks/a81f3c09d2e47b56",
        "a81f3c09d2e47b56",
    ),
    ("POST https://hooks.example.com/catch/83021/qzvxtk/", "/qzvxtk/"),
    ("curl -X POST 'https://api.example.app/deploy/srv-q81x?key=Xp9aLm2QzT'", "Xp9aLm2QzT"),
    (f"repro with MYAPPSESSID={SESSION} on prod", SESSION),
    (f'{{"name": "SSESS9f3c2a", "value": "{B64}", "path": "/"}}', B64),
    (
        "----- BEGIN ACTIVATION CODE -----\nCustomer: Example Ltd\n"
        "3FA9 12C7 88D0 4E1B\nA7C2 5D90 1B3E F648\n----- END ACTIVATION CODE -----",
        "3FA9 12C7 88D0 4E1B",
    ),
    (f"untrusted comment: signify secret key\n{SIGNIFY}", SIGNIFY),
    (f'"replicator" "{CHOSEN}"\n"reporting" "SCRAM-SHA-256$4096:abc$def:ghi"', CHOSEN),
    (f"mc alias set lab http://10.0.0.5:9000 QPDOCZ8H3K2LWX7M9R4T {B62}", B62),
]
IN_SLOTS.append(
    (
        "Backup codes for the ops vault:\n4k2m9-x7qp3\nzt83n-w2lv9\n9hqd2-m4kx7\np7wn3-c9zk2\n",
        "zt83n-w2lv9",
    )
)
IN_SLOTS += [
    (
        "stdout: -----BEGIN ACCOUNT KEY SEED-----\n"
        + HEX40[:30]
        + B62
        + "\n-----END ACCOUNT KEY SEED-----",
        B62,
    ),
    (f"name: SSESSf00d\nvalue: {B64}{B64}{B64}{B64}\ndomain: shop.example.com", B64),
    (f'output: "replicator" "{CHOSEN}"\n"reporting" "md5{HEX40[:32]}"', CHOSEN),
]
NOT_IN_SLOTS = [
    "docker run -u 1000 -p 8080:8080 app",
    "mysql -u root -p production_db < dump.sql",
    "-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAg\n"
    "-----END SSH SIGNATURE-----",
    "see https://docs.example.com/webhooks/stripe-events for details",
    "TWILIO_ACCOUNT_SID=AC4f9c2a7e1b83d6f05a9e2c71b4d8e2f0",
    "see the recovery codes section of the docs: where to find them",
    "\x1b[36mrouting (session=relay:main:main)\x1b[39m \x1b[90m2026-02-14T11:58:52Z\x1b[39m",
    "ssh -l deploy host 'mkdir -p srv/app/releases srv/app/shared'",
    "curl -X POST 'https://deploy.example.dev/hooks/trigger?token=xxxx-xxxx-xxxx'",
]


@pytest.mark.parametrize(("text", "secret"), IN_SLOTS, ids=lambda v: str(v)[:30])
def test_a_value_in_a_credentials_slot_is_caught(text: str, secret: str) -> None:
    out = redact(text)
    assert not any(secret[i : i + 6] in out for i in range(len(secret) - 5)), out
    assert redact(out) == out


@pytest.mark.parametrize("text", NOT_IN_SLOTS, ids=lambda v: str(v)[:30])
def test_what_stands_in_no_credentials_slot_is_left(text: str) -> None:
    assert redact(text) == text


def test_lines_piped_into_a_credential_store_keep_their_names() -> None:
    lines = f"host=git.example.org\\nusername=bo\\npassword={CHOSEN}\\n"
    text = f'printf "{lines}" | git credential approve'
    out = redact(text)
    assert "host=git.example.org" in out and CHOSEN not in out


# --- what looks like a credential and is none (secrets/lookalikes.py) ----------------

DIGEST = "7c1e" + "a93f5b08d2e64c17" + "9b0f3e6a5d2c8147" + "e6f90b3d4a2c7e15" + "8d06f2b9c4a1"
LOOK_ALIKES = [
    "password: ENC[AES256_GCM,data:pQ7vK2mX9sLd4RtZ,iv:q8Jd0fN2mZ7xT4bK9pL1vR6sW3yH5gC0aE8uO2iY4t="
    ",tag:pQ3mZ8xT1vN6bK4dJ0fL7s==,type:str]",
    "app.secret = ENC(Qm9vYmF6cXV4c3VwZXJzZWNyZXQxMjM0NTY3OA==)",
    f"Restored cache from key: Linux-node-{DIGEST}",
    f"cache key: yarn-deps-{DIGEST}",
    f"const ph = new PostHog('phc_{B62}', {{ host: 'https://app.posthog.com' }})",
    f'<div class="h-captcha" data-sitekey="{B62}"></div>',
    f"// publishable key, fine in the client\nconst client = init('{B62[:20]}x9{B62[20:]}')",
]


@pytest.mark.parametrize("text", LOOK_ALIKES, ids=lambda v: str(v)[:30])
def test_ciphertext_a_cache_key_and_a_published_key_are_left(text: str) -> None:
    assert redact(text) == text


def test_a_public_prefix_a_tokens_name_is_given_is_still_a_credential() -> None:
    # ClickUp's personal tokens start pk_ as Stripe's publishable keys do
    text = f"CLICKUP_API_TOKEN=pk_81234567_{B62}"
    assert B62 not in redact(text)


@pytest.mark.parametrize(("text", "secret"), IN_SLOTS, ids=lambda v: str(v)[:30])
def test_a_value_in_a_credentials_slot_is_caught_in_escaped_json(text: str, secret: str) -> None:
    # a command's output kept as a JSON string: its newlines and quotes escaped
    import json

    if "\\\\" in text or "Backup codes" in text or '"replicator"' in text or "\nvalue:" in text:
        return  # (a share's backslashes, a list's lines, a user list, a YAML pair: unescaped only)
    out = redact(json.dumps({"output": text}))
    assert not any(secret[i : i + 6] in out for i in range(len(secret) - 5)), out


# --- families the fifth corpus showed: prose, headers, logins, flags, bytes, blocks -----

UUID = "7d3f2c81-4a9e-4b1f-9c2d-" + "5e8a7f6b4c3d"
HEX32 = "a81f3c09d2e47b56" + "9e0d4c7a2b81f3e5"
UPPER16 = "7C2E9A41" + "F0B3D85E"
DOTTED = f"2000.{HEX32}.{HEX32[::-1]}"
LOWER30 = "kq7vxz2wmbt" + "9jrp4hdn8cfs" + "3yglq5"
BCRYPTISH = "$2y$10$" + "Hq4xN8vR2mT6pW0zK3cJ5bY7uF1sD9gL" + "e2aQ4oZ8iX6tV0nM3kP5w"  # 53 after
HEXLONG = "0201036c6e64" + HEX64 + HEX32
HEX_BYTES = "{" + ", ".join(f"0x{(i * 83 + 29) % 256:02x}" for i in range(16)) + "}"
KEY_BYTES = "[" + ", ".join(str((i * 97 + 31) % 251) for i in range(16)) + "]"
FAMILIES_CAUGHT = [
    # a credential named in prose, its value a few words on
    (f"finally, the acme billing api key we rotated last week is {LOWER30}, ok?", LOWER30),
    (f"the partner refresh token that works now is {DOTTED} - retry please", DOTTED),
    (f"my mailer api key: {UPPER16}", UPPER16),
    (f"the sftp password ops gave me was {TYPED} (don't share it)", TYPED),
    (f"the desktop licence key for the build box is {UPPER16}", UPPER16),
    (f"fyi the portal webhook secret that I set up -> {LOWER30}", LOWER30),
    (f"the zoho key that finally worked is {DOTTED}", DOTTED),
    (f"the API token — {LOWER30}", LOWER30),
    (f"relay api key (staging only): {LOWER30}", LOWER30),
    # a header's name given its value by a directive, in any config's form
    (f'location / {{\n    proxy_set_header X-Vendor-Token "{LOWER30}";\n}}', LOWER30),
    (f'add_header X-Partner-Key "{HEX32}" always;', HEX32),
    (f'RequestHeader set X-Service-Secret "{LOWER30}"', LOWER30),
    (f"    http-request set-header X-Auth-Token {LOWER30}", LOWER30),
    (f"reverse_proxy backend:8080 {{\n    header_up X-Api-Token {LOWER30}\n}}", LOWER30),
    (f"request_headers_to_add:\n- header:\n    key: x-partner-key\n    value: {HEX32}\n", HEX32),
    (f'<header name="X-Partner-Key">{LOWER30}</header>', LOWER30),
    # an XML element named by its name or key attribute
    (f'<property name="datasource.password">{TYPED}</property>', TYPED),
    (f'<entry key="relay.api.key">{LOWER30}</entry>', LOWER30),
    (f'<setting name="ClientSecret"><value>{LOWER30}</value></setting>', LOWER30),
    # a login verb's first argument
    (f"$ vendorctl auth login {UUID}\nLogged in as ops.", UUID),
    (f"acmecli login '{TYPED}' --profile prod", TYPED),
    # a flag whose name holds a credential's word anywhere
    (f"$ uploader push --merchant-salt-key {UUID} --verbose", UUID),
    (f"$ sync push --mod-portal-api-key {BCRYPTISH} --dry-run", BCRYPTISH),
    # long hex given to a name holding a credential's word (a macaroon is one)
    (f'var opts = new NodeOptions {{ AdminMacaroon = "{HEXLONG}" }};', HEXLONG),
    (f'readonly_macaroon: "{HEXLONG}"', HEXLONG),
    # a key written as its bytes
    (f"mesh_network_key: {KEY_BYTES}", KEY_BYTES),
    (f'"encryptionKey": "{KEY_BYTES}",', KEY_BYTES),
    (f"static const uint8_t mesh_key[16] = {HEX_BYTES};", HEX_BYTES[1:-1]),
    (f"const PAN_NETWORK_KEY: [u8; 16] = [{HEX_BYTES[1:-1]}];", HEX_BYTES[1:-1]),
    (f"var hmacSecret = []byte{HEX_BYTES}", HEX_BYTES[1:-1]),
    # a credential named in markdown, its value after the bold or on the next line
    (f"**Relay API token:** {LOWER30}", LOWER30),
    (f"the relay api key:\n{LOWER30}", LOWER30),
    # a multi-line YAML value under a credential's name
    (f"smtp:\n  password: |\n    {TYPED}\n  host: mail.example.com\n", TYPED),
    (f"ci:\n  deploy_token: >-\n    {LOWER30}\n", LOWER30),
    (
        "stringData:\n  APP_SESSION: ---\n- !ruby/object:Cookie\n"
        f"  name: acct\n  value: {HEXLONG}\n",
        HEXLONG,
    ),
    (f'db_password = """\n{TYPED}\n"""', TYPED),
]
FAMILIES_LEFT = [
    # prose whose value is no credential
    "the api key that finally worked is stored in 1Password",
    "The password must be at least 12 characters and contain a digit.",
    "the cache key we computed for it is " + HEX32,
    "the deploy token version is 2026.11.04-rc2",
    "the api key we use: <your-api-key>",
    "the token count is 123456789",
    "the session is " + UUID,
    "the api key that worked is sk-...a1B2",
    "the token file is at ~/.config/acme/token.json",
    "Key saved: ****************87EQ (created 18 Oct 2026)",
    "the login " + UUID + " failed twice",
    "the GPG signing key we use is " + UPPER16,
    "the ssh key I added is id_ed25519_work_2024",
    "the zoho key that worked is " + UUID,
    "the token in ~/.config/relay is expired",
    "the relay token for v2.3.1 is the one in the vault",
    # headers that hold no credential
    "proxy_set_header X-Request-Id $request_id;",
    'add_header X-Api-Key-Hint "rotate monthly";',
    "assert client.get('/', headers={'X-Api-Key': 'bad'}).status_code == 401",
    "- header:\n    key: x-request-id\n    value: " + HEX32 + "\n",
    # logins and flags that take no credential
    "az login --tenant " + UUID,
    "docker login registry.example.com:5000 -u ci",
    "tool sync --idempotency-key " + UUID,
    "tool sync --cache-key " + UUID,
    'password: "' + BCRYPTISH + '"',
    # code naming a macaroon, lists that are no key, a block of words or a tag's
    'var macaroonPath = "~/.lnd/data/chain/bitcoin/mainnet/admin.macaroon";',
    "partition_keys: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]",
    "retry_key_backoff: [100, 200, 400, 800, 1600]",
    "key_order[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};",
    "**Token:**\n- expires in 30 days",
    '<property name="datasource.password">${DB_PASSWORD}</property>',
    '<property name="tokenValiditySeconds">3600</property>',
    '<entry key="api.key.header">X-Api-Key</entry>',
    "the relay api key:\nplease rotate it monthly",
    'token_help = """\nPaste the token you were given.\n"""',
    "token_description: |\n  used by the nightly job\n",
    "secret: >-\n  see the wiki page for how to fetch it\nnext: 1\n",
    "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  61343536\n",
    # a secret store's path is no secret
    "DEPLOY_TOKEN=vault:secret/data/ci#deploy_token",
]


@pytest.mark.parametrize(("text", "secret"), FAMILIES_CAUGHT, ids=lambda v: str(v)[:30])
def test_a_credential_of_the_fifth_families_is_caught_whole(text: str, secret: str) -> None:
    out = redact(text)
    assert not any(secret[i : i + 8] in out for i in range(len(secret) - 7)), out
    assert redact(out) == out


@pytest.mark.parametrize("text", FAMILIES_LEFT, ids=lambda v: str(v)[:30])
def test_a_look_alike_of_the_fifth_families_is_left(text: str) -> None:
    assert redact(text) == text


def test_a_name_before_a_key_that_guards_makes_a_uuid_count() -> None:
    assert credential_name("merchant-salt-key") == "strong"
    assert credential_name("cache-key") == ""
    assert credential_name("AdminMacaroon") == "strong"


# The seventh set's families: what stands in a credential's place and holds none, beside
# the credential in the same place.
SEVENTH_CAUGHT = [
    # a provider's prefix then a random body, beside its placeholder below
    (f'export OPENROUTER_API_KEY="sk-or-v1-{HEX64}"', f"sk-or-v1-{HEX64}"),
    # grep's highlighting between the name and its value, and inside the value
    (f".env.local:6:\x1b[7mDB_PASSWORD\x1b[0m={PW}\r\n", PW),
    (f'appsettings.json:26:    "\x1b[7mSecretKey\x1b[0m": "{B62}",', B62),
    (f'"SecretKey": "\x1b[01;31m{B62[:10]}\x1b[0m{B62[10:]}",', B62),
    # a fallback the code uses when the variable is unset
    (f"password: process.env.POSTGRES_PASSWORD || '{PW}',", PW),
    (f'const JWT_SECRET = process.env.JWT_SECRET ?? "{B62}";', B62),
    (f'db_password = os.getenv("DB_PASSWORD", "{PW}")', PW),
    # SQL setting a user's password, inside a psql command too
    (f"sudo -u postgres psql -c \"ALTER USER postgres PASSWORD '{PW}';\"", PW),
    (f"ALTER ROLE app PASSWORD '{PW}';", PW),
    # a Markdown label naming a password, in several languages
    ("- **Senha**: `123456`", "123456"),
    ("**🔐 Senha:** `admin123` ✅", "admin123"),
    ("- **Senha**: admin123\n- **Nome**: João", "admin123"),
    ("**Mot de passe** : `Lagoon7171`", "Lagoon7171"),
    ("JWT_SECRET: setup2024!", "setup2024!"),
    (f"- **Password**: `{PW}`", PW),
    (f"- **Contraseña:** `{PW}`", PW),
    (f"**비밀번호**: `{PW}`", PW),
    # a password with spaces, whole
    ("Email__Gmail__Pass=lxna csgr uczy awhn\n", "lxna csgr uczy awhn"),
    # a browser automation typing into a password field
    (
        "fields:\n  -:\n    name: 비밀번호\n    type: textbox\n"
        "    ref: e75\n    value: younggun22@@\n",
        "younggun22@@",
    ),
    ('  "selector": "#password",\n  "text": "younggun22@@",\n', "younggun22@@"),
    (f"- name: DB_PASSWORD\n  value: {PW}\n", PW),
    # beside the public ones: a secret leaked to the browser, a key not named public, a
    # key in a query outside a script tag, a pgpass line, a constructor's key, a hook's
    ("NEXT_PUBLIC_OPENAI_API_KEY=sk-proj-" + B62 + "\n", B62),
    ("NEXT_PUBLIC_SUPABASE_SERVICE_ROLE_KEY=AIzaS" + B62 + "\n", B62),
    ("FIREBASE_API_KEY=AIzaS" + B62 + "\n", B62),
    ('curl "https://api.example.com/v1?appkey=' + HEX40[:32] + '"', HEX40[:32]),
    (f"db.internal:5432:app:admin:{PW}\n", PW),
    ("log in as admin / Sup3rS3cretPw", "Sup3rS3cretPw"),
    (f'const c = new Client("{B62}")', B62),
    ("https://example.com/hooks/AbCdEfGhIj", "AbCdEfGhIj"),
    (f'curl --header "Authorization: Bearer {B62}" localhost:4000/api', B62),
    # the scanner's report of a key, coloured
    (f"Finding:     API_KEY=\x1b[1;3;m{B62}\x1b[0m\nSecret:      \x1b[1;3;m{B62}\x1b[0m\n", B62),
]
SEVENTH_LEFT = [
    # placeholders after a provider's prefix: capital words asking for the key
    'export OPENROUTER_API_KEY="sk-or-v1-YOUR_ACTUAL_KEY"',
    "OPENROUTER_API_KEY=sk-or-v1-REPLACE_WITH_YOUR_KEY",
    'gh secret set OPENROUTER_API_KEY --body "sk-or-v1-YOUR_KEY"',
    "# Variable value: sk-or-v1-YOUR_REAL_KEY",
    # a placeholder inside grep's highlighting
    'appsettings.json:26: "SecretKey": "\x1b[7mCHANGE_ME_USE_ENV\x1b[0m",',
    "\x1b[7mPassword=\x1b[0mchangeme;SslMode=disable;",
    # status words where a value stands
    "JWT_SECRET: SET\nNODE_ENV: development",
    "empty_api_key: OK\nempty_cloud_model: OK",
    "STRIPE_SECRET_KEY: MISSING",
    "API_TOKEN: NOT SET",
    "JWT_SECRET: configurado",
    "OPENAI_API_KEY: present",
    "API_KEY: 설정됨",
    "OPENROUTER_API_KEY=sk-or-v1-tu_clave_aqui",
    "ANTHROPIC_API_KEY=sk-ant-api03-SUA_CHAVE_AQUI",
    "**Password:** Hidden",
    # a password hash's header then a word; a docs example asking for your password
    "password: '$2b$10$hashedPassword',",
    '-d \'{"email": "novo@email.com", "password": "suasenha"}\'',
    # fallbacks that hold no value
    "password: process.env.REDIS_PASSWORD || undefined",
    "const key = process.env.SUPABASE_ANON_KEY || '';",
    'const t = process.env.API_TOKEN || "your-token-here";',
    "const header = process.env.API_KEY_HEADER || 'x-api-key'",
    # a name, then a string, read from no environment: a header's, a list's items
    '.set("x-station-token", "Front-Desk-01")',
    # a frontend's stub in a curl's Bearer header: words, no token
    'curl -X POST localhost:4000/api --header "Authorization: Bearer dev-token" -d x',
    "'fields': ['key', 'secret', 'appKey']}",
    # a Markdown label whose value is no password
    "**Password**: `<your password>`",
    "**Password**: `********`",
    "**Reset password**: `npm run reset`",
    # a field named so, with no value typed into it
    '"password": {\n  "label": "Password",\n  "text": "Enter your password"\n}',
    "name: passport\n  value: Lagoon7171\n",
    "ALTER USER postgres PASSWORD NULL;",
    # public ids and keys: a framework ships the variable to the browser, a script tag
    # loads the key, a project's id
    "NEXT_PUBLIC_FIREBASE_API_KEY=AIzaS" + B62 + "\n",
    '<script src="//dapi.kakao.com/v2/maps/sdk.js?appkey=' + HEX40[:32] + '"></script>',
    "projectId: prj_" + B62[:28] + "\norgId: team_" + B62[4:28] + "\n",
    # configuration syntax: nginx's cache, a URL's port and path after grep's file:line:
    "    ssl_session_cache shared:SSL:10m;\n",
    "env/api.dev.env:34:OIDC_ISSUER=http://localhost:9000/adfs\n",
    # code and prose: a JSON key and a bold word after "as x," or "login page,", a
    # password rule's regex, a docs page of React's hooks, a story's key
    'results.append({"vectorId": "vec" + i as string, "score": 0.95})',
    "**When** I open the login page, **Then** I am redirected",
    "password: Joi.string().pattern(new RegExp('^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9])')),",
    "- [useFormStatus](https://react.dev/reference/react-dom/hooks/useFormStatus)",
    "- `story_key`: `0-1-configurer-un-projet-via-config-yaml`",
    # a scanner's report of a thinking block's signature, its Secret: line coloured
    'Finding:     ...","signature":"\x1b[1;3;mEp0CCkYICxgCKkB' + B62 + '...\x1b[0m"}]\n'
    "Secret:      \x1b[1;3;mEp0CCkYICxgCKkB" + B62 + "...\x1b[0m\n",
]


@pytest.mark.parametrize(("text", "secret"), SEVENTH_CAUGHT, ids=lambda v: str(v)[:30])
def test_a_credential_of_the_seventh_families_is_caught_whole(text: str, secret: str) -> None:
    out = redact(text)
    assert not any(secret[i : i + 6] in out for i in range(len(secret) - 5)), out
    assert redact(out) == out


@pytest.mark.parametrize("text", SEVENTH_LEFT, ids=lambda v: str(v)[:30])
def test_a_look_alike_of_the_seventh_families_is_left(text: str) -> None:
    assert redact(text) == text


@given(
    st.lists(
        st.tuples(
            st.text(alphabet="ab =:\n", max_size=5),
            st.sampled_from(["\x1b[0m", "\x1b[01;31m", "\x1b[K", "\x1b[7m", ""]),
        ),
        max_size=8,
    )
)
@settings(max_examples=examples(200))
def test_a_text_read_through_its_colour_codes_maps_back_to_each_character(
    parts: list[tuple[str, str]],
) -> None:
    from brain.home.secrets.colours import plain

    text = "".join(a + b for a, b in parts) + "z"
    read = plain(text)
    if read is None:
        assert "\x1b[" not in text
        return
    assert "\x1b[" not in read.text
    assert all(text[read.origin(i)] == c for i, c in enumerate(read.text))


# --- families of the sixth round: each value made up here, none from a corpus ---------

HEX40 = "9f1c0ab37e5d4c2b8a6f0e1d3c5b7a9081726354"
LOWER20 = "k3v9qz0wmx7rt2lbyp5n"
TYPED = "Quartz#Meadow82"

SENTENCES_CAUGHT = [
    # the value anywhere after the name, in the sentence or the next one, any language
    ("the grafana service token was regenerated yesterday; use " + HEX40 + " now", HEX40),
    ("FYI the pagerduty api key changed last night, the fresh one: " + LOWER20, LOWER20),
    ("heads up: rotated the vault token, new value is hvs_" + LOWER20 + "XyZ", LOWER20),
    ("我把 coolify 的令牌重置了，现在用 " + HEX40 + " 就行", HEX40),
    ("请记一下 nas 的密码，改成了 " + TYPED + " 了", TYPED),
    ("ステージングのパスワードを変更しました。今は " + TYPED + " です。", TYPED),
    ("Jenkins のトークンを作り直しました。値は " + HEX40 + " です", HEX40),
    ("Die Passwort für den NAS lautet jetzt " + TYPED + ", bitte nicht teilen.", TYPED),
    ("le mot de passe du routeur a changé, c'est " + TYPED + " maintenant", TYPED),
    ("la contraseña del wifi ahora es " + TYPED + " ok?", TYPED),
    ("la chave da api nova ficou " + HEX40 + " , usa só em staging", HEX40),
    ("the mailgun signing secret got reset. New one is " + HEX40 + ".", HEX40),
    ("the merchant key we got from the bank: 4F2A9C1D7E3B5A60", "4F2A9C1D7E3B5A60"),
    ("Der neue API-Schlüssel lautet " + HEX40 + ", bitte nur in Staging.", HEX40),
    ("La nouvelle clé API est " + HEX40 + ", garde-la pour toi.", HEX40),
    ("새 비밀번호는 " + TYPED + " 입니다.", TYPED),
    ("Het nieuwe wachtwoord van de NAS is " + TYPED + ", deel het niet.", TYPED),
    ("Nowe hasło do serwera to " + TYPED + ", nie udostępniaj.", TYPED),
    ("Sunucunun yeni şifre değeri " + TYPED + " oldu.", TYPED),
    ("la nuova chiave API è " + HEX40 + ", usala solo in staging", HEX40),
    ("Мой новый токен для бота: " + HEX40 + ", не публикуй его.", HEX40),
    (
        "my wallet seed phrase, just in case: " + " ".join(["orbit", "candle"] * 6),
        " ".join(["orbit", "candle"] * 6),
    ),
    (
        "github backup codes for the bot: 3f9a1-0c4d2 8b7e6-1a2f3 77c0d-9e8b1 4d2c1-aa390",
        "3f9a1-0c4d2 8b7e6-1a2f3",
    ),
]

SENTENCES_LEFT = [
    # a sha, an id, a build, a version: words before them say what they are
    "the token refresh fix landed in commit " + HEX40 + " yesterday",
    "我改了令牌的校验逻辑，提交是 " + HEX40,
    "パスワードのリセット処理を直しました。コミットは " + HEX40 + " です",
    "the password reset page is at https://example.com/reset/" + HEX40,
    "the token budget is 12000 and the run took 3.5s",
    "the cache key for that layer is " + HEX40,
    "the secret is to keep the build small. Use docker-slim v1.40.11 for it.",
    "la clave de la cuestión es el commit " + HEX40,
    "key takeaways: use uv, pin versions, avoid 0.0.0.0",
    "the password field takes 8 to 64 characters, e.g. something like Abcdefg1!",
    "the api key is TODO, ask ops",
    "the access token is ****************a1b2",
    "the mnemonic test uses the words of the bip39 list",
    "<dependency>io.jsonwebtoken:jjwt-api:0.12.6</dependency>",
    "The secret scanning workflow ran on 4f2a9c1d7e3b5a60 and found nothing.",
    "password reset mails expire after 24h; tested with user 5f3c2a1b-9d8e-4f7a-b6c5-d4e3f2a1b0c9",
    "gpg --export-secret-keys --armor 8E1F899571345D06 > key.asc",
    'the token mints: ["DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263"]',
    "the token's KMS key arn:aws:kms:eu-west-1:123456789012:key/" + UUID,
    "we moved the secret handling into app.js:1470-1487 last week",
    "the password was never set for C:\\Users\\Admin\\AppData\\Local\\tool-1007",
]


@pytest.mark.parametrize(("text", "secret"), SENTENCES_CAUGHT, ids=lambda v: str(v)[:30])
def test_a_credential_a_sentence_names_is_caught_anywhere_in_it(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out, out
    assert redact(out) == out


@pytest.mark.parametrize("text", SENTENCES_LEFT, ids=lambda v: str(v)[:30])
def test_a_sentence_about_a_credential_with_no_value_is_left(text: str) -> None:
    assert redact(text) == text


FORMS_CAUGHT = [
    # assignment operators of build files and shells, quoted and indexed names
    ("RELAY_API_TOKEN ?= " + HEX40 + "\n\nall:\n\tmake build\n", HEX40),
    ("REGISTRY_PASSWORD += " + TYPED + "\n", TYPED),
    ("SIGNING_KEYS ?= 2giM4iJtFX3ZNVP0sfvwZtdrfRbmKb2B\n", "2giM4iJtFX3ZNVP0sfvwZtdrfRbmKb2B"),
    ('os.environ["LEDGER_API_KEY"] = "' + LOWER20 + '"', LOWER20),
    ('  "os.environ[\\"LEDGER_API_KEY\\"] = \\"' + LOWER20 + '\\"\\n",', LOWER20),
    ("ENV['QUEUE_SECRET'] = '" + TYPED + "'", TYPED),
    ("C:\\work> set RELAY_TOKEN=" + LOWER20 + "\n", LOWER20),
    ("*/10 * * * * RELAY_TOKEN=" + LOWER20 + " /opt/relay/bin/push\n", LOWER20),
    ("0 4 * * * STREAM_KEY=q8zr-4k2m-x9tb-p3vw-7hny /opt/live/push\n", "q8zr-4k2m-x9tb-p3vw-7hny"),
    # commands: Redis AUTH, config set, a seed phrase as a quoted flag
    ("$ redis-cli -h db-2\ndb-2:6380> AUTH reporter " + TYPED + "\nOK\n", TYPED),
    ("127.0.0.1:6379> auth " + TYPED + "\n", TYPED),
    ("AUTH " + LOWER20 + "XyZ\n", LOWER20),
    ("$ relayctl config set relay_token tok-qhzvbnwkeyrtlmpxsdfa\n", "tok-qhzvbnwkeyrtlmpxsdfa"),
    ("127.0.0.1:6379> CONFIG SET masterauth " + TYPED + "\n", TYPED),
    ("$ acme config:set --app web acme_secret " + HEX40 + "\n", HEX40),
    (
        '$ wallet-cli restore --seed "'
        + " ".join(["pulse", "echo", "mango"] * 8 + ["orbit"])
        + '"',
        " ".join(["pulse", "echo", "mango"] * 8 + ["orbit"]),
    ),
    # tables: a column whose header names a credential, a Value column by its row's name
    ("| Host | Login | Password |\n|---|---|---|\n| nas | admin | " + TYPED + " |\n", TYPED),
    (
        "| Name | Token | Scope |\n| :-- | :-- | :-- |\n| ci | `" + LOWER20 + "` | repo |\n",
        LOWER20,
    ),
    (
        "+-----------+----------+\n| KEY       | VALUE    |\n+-----------+----------+\n"
        "| region    | eu-1     |\n| app_token | " + HEX40 + " |\n+-----------+----------+\n",
        HEX40,
    ),
    ("| Setting | Wert |\n|---|---|\n| db_password | " + TYPED + " |\n", TYPED),
    # credential words the name family lacked
    ("kiosk_passcode: " + TYPED + "\n", TYPED),
    ("ACCOUNT_PIN=482913\n", "482913"),
    ('"card-pin": "55120931"', "55120931"),
    ("KOA_KEYS=2giM4iJtFX3ZNVP0sfvwZtdrfRbmKb2B", "2giM4iJtFX3ZNVP0sfvwZtdrfRbmKb2B"),
    ('replica_keyfile = "' + LOWER20 + "Q9+x/Zk" + HEX40 + '"', HEX40),
    ("TOTP_SEED=JBSWY3DPEHPK3PXPJ7QBVFATOGKRIYWP\n", "JBSWY3DPEHPK3PXPJ7QBVFATOGKRIYWP"),
    (
        "identity: AGE-PLUGIN-TPM-1QXZ9P3RKW7LN2VJ5HCY8D4FG6TMS0AE",
        "AGE-PLUGIN-TPM-1QXZ9P3RKW7LN2VJ5HCY8D4FG6TMS0AE",
    ),
    ("HOOK=https://eo4k2x9qz81mnb7.x.pipedream.net/\n", "eo4k2x9qz81mnb7"),
]

FORMS_LEFT = [
    # placeholders
    "SLACK_BOT_TOKEN=TODO",
    'API_KEY: "FIXME"',
    "DB_PASSWORD=tbd",
    "mysql -u root -p'password' # (example from the docs; use your own)",
    "psql -U app -W 'password'",
    # code: comparison, appending, a board's pin, a map's keys, a Redis stream's key
    'if token != "abc":',
    "    password += char",
    "x = a if token != b else c",
    "API_TOKEN != cat ~/.config/token",
    "LED_PIN = 13",
    "DATA_PIN = board.D18",
    'version_pin = "2024.1"',
    "pin_memory=True",
    "sort_keys=True",
    "primary_keys: [id, email]",
    'stream_key: "events:orders:v2"',
    "STREAM_KEY=orders-events",
    # commands that take no password
    "> auth login",
    "AUTH required before running commands",
    "$ tool config set token_file ~/.config/tool/token",
    "$ tool config set auth_method oauth-device-flow",
    "$ tool config set api_key ${API_KEY}",
    "$ git config set user.name Ada",
    # tables naming no credential's value
    "| Key ID | Created |\n|---|---|\n| 9f1c0ab37e5d4c2b | 2024-01-01 |\n",
    "| Secret Name | Rotated |\n|---|---|\n| prod/db_password | yes |\n",
    "| Setting | Value |\n|---|---|\n| timeout | 30s |\n| cache_key | " + HEX40 + " |\n",
    "| Token | Meaning |\n|---|---|\n| `<eos>` | end of sequence |\n",
    # hosts: a random label on no webhook catcher's domain
    "https://api12345678901.example.com/v1",
    "https://storybook.inbound.example.com",
    "https://d1x2y3z4a5b6c7.cloudfront.net/app.js",
]


@pytest.mark.parametrize(("text", "secret"), FORMS_CAUGHT, ids=lambda v: str(v)[:30])
def test_a_credential_in_the_sixth_rounds_forms_is_caught(text: str, secret: str) -> None:
    out = redact(text)
    assert secret not in out, out
    assert redact(out) == out


@pytest.mark.parametrize("text", FORMS_LEFT, ids=lambda v: str(v)[:30])
def test_a_look_alike_of_the_sixth_rounds_forms_is_left(text: str) -> None:
    assert redact(text) == text


def test_a_sentence_credential_s_word_leaves_a_value_another_name_gives() -> None:
    for text in (
        "stripe secret key -H Idempotency-Key 5d0c8e2a-91f4-4b7e-a3c6-0e8f2b4d6a19",
        "curl stripe secret key_h_idempotency_key=5d0c8e2a-91f4-4b7e-a3c6-0e8f2b4d6a19 d amount",
    ):
        assert redact(text) == text
    rotated = "the stripe secret key got rotated, new one is 5d0c8e2a91f44b7ea3c60e8f2b4d6a19"
    assert "5d0c8e2a91f44b7ea3c60e8f2b4d6a19" not in redact(rotated)


# --- a seed phrase anywhere (secrets/phrases.py) ----------------------------------

PHRASE = "beauty cycle catalog armed accident celery company coach alarm boring angry budget"


@pytest.mark.parametrize(
    "text",
    [
        f"BitBox02-ന്റെ API കീ {PHRASE} ആണ്, .env-ൽ ചേർക്കൂ.",
        f"Shared in this space: Feather Wallet → {PHRASE} (expires end of sprint)",
        f"{{noformat}}\n{PHRASE}\n{{noformat}}",
        f"the 12 words, in order: {PHRASE}",
    ],
)
def test_twelve_words_of_bip39s_list_in_a_row_are_a_seed_phrase(text: str) -> None:
    assert redact(text) == text.replace(PHRASE, "[REDACTED:seed_phrase]")


@pytest.mark.parametrize(
    "text",
    [
        # (prose runs twelve short words too, but needs words the list leaves out)
        "apply the quick config fixes now and then build the fixed version from source with all",
        "bit more time because that output will make the adoption call much less",
        # (eleven of the list's words are no phrase, nor one word said over and over)
        "beauty cycle catalog armed accident celery company coach alarm boring angry",
        "word " * 30,
    ],
)
def test_prose_and_short_runs_of_the_lists_words_are_left(text: str) -> None:
    assert redact(text) == text


def test_a_token_of_dotted_parts_is_redacted_whole_where_a_typo_cuts_its_name_off() -> None:
    # (a bot's token typed with a CJK numeral in its first part: the rule reading
    # "token = <value>" stops there, and the rest was left whole)
    token = "ODg4OTAxNDQ3MDU3NDIwMA.GForIk." + "7cCYxoIHfUaXlzy8EyrFlaim4yP-E2gYh6gVkg"
    assert redact(f"# real token = MTM二{token}") == "# real token = MTM二[REDACTED:random_token]"
    # (dotted names in code are no token: their parts are words)
    text = "see com.example.app.MainActivity.onCreateSavedInstanceStateBundle"
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # (a password's word in the chat's own language, its value after it)
        ("Ο κωδικός για το Gitea είναι Harbor_22.04.2019, βάλ' το στο .env.", "Harbor_22.04.2019"),
        ("Y cyfrinair ar gyfer Gitea yw 884213, rho fe yn y ffeil .env.", "884213"),
        ("Gitea slaptažodis yra Lantern_77!, įrašyk į .env failą.", "Lantern_77"),
        ("GiteaのAPIキーは Tq4nVb8ZkPw2LmXc9RsYhJ3dFgKe6UaN です。",
         "Tq4nVb8ZkPw2LmXc9RsYhJ3dFgKe6UaN"),
        ("Gitea 的密碼是 otter maple quartz lantern fjord，幫我放進 .env 裡。",
         "otter maple quartz lantern fjord"),
        ("Gitea salasana on 7c1e-4b9a 2d0f-8e31, laita se .env-tiedostoon.", "7c1e-4b9a 2d0f-8e31"),
        # (codes and PINs in groups after their word)
        ("the Gitea recovery code: 40918273 55120934 77013265, keep it safe",
         "40918273 55120934 77013265"),
        ("Gitea 的 device PIN 是 4821，别提交。", "4821"),
        ("here is the TOTP seed for Gitea: k3xq 7mwd p2fa z5nc rv4t, thanks",
         "k3xq 7mwd p2fa z5nc rv4t"),
    ],
)  # fmt: skip
def test_a_credential_said_in_a_sentence_in_any_language_is_redacted(text: str, value: str) -> None:
    out = redact(text)
    assert value not in out and "[REDACTED:" in out


@pytest.mark.parametrize(
    "text",
    [
        "the password is stored in the vault under prod keys.",
        "the password was never set for C:\\Users\\Admin\\AppData\\Local\\tool-1007",
        "pin the version to 1.2.3 and the LED to pin 13",
        "the recovery code flow shipped in 2024 with 3 steps",
        "stats5m_numBuys: token.stats5m ? token.stats5m.numBuys : null,",
        "Contrato do token = mint",
        # (an account with no password in a listing; an algorithm; words no verb gives)
        "drwxr-xr-x 1 Admin（无密码） 197121   0 May 21 14:21 .",
        "Acceso: contraseña → cookie HttpOnly HMAC-SHA256, 24h expiración",
        "the password is read from the environment first to avoid keyring permission prompts.",
    ],
)
def test_prose_and_code_near_a_credentials_word_are_left(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "Syncthing: MFZWI3D-BONSGYC-YLTMRWG-C43ENR5-QXGZDMM-FZWI3DP-ONSGYCY-LTMRWGC",
        "follow us on nostr: npub1sg6plzptd64u62a878hep2kev88swjh3tw00gjsfl8f237lmu63q0uf63m",
        "In-Reply-To: <CAHk3xTwvAr8rHy04pv_NVVuwxPEgkP40QKIJsVVZq@mail.gmail.com>",
    ],
)
def test_ids_published_to_be_shared_are_left(text: str) -> None:
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("aws ssm put-parameter --name /prod/shop/db_password --type SecureString "
         "--value 'Marble?Otter1981' --overwrite", "Marble?Otter1981"),
        ('az keyvault secret set --vault-name kv --name shop-api-pwd --value "Fjord-lake-2004"',
         "Fjord-lake-2004"),
        ('netlify env:set SHOP_API_TOKEN "R7KQ2XW9ZTPLM4NB8VC3HJ6DFG5SAE1Y" --context production',
         "R7KQ2XW9ZTPLM4NB8VC3HJ6DFG5SAE1Y"),
        ("CREATE LOGIN etl WITH PASSWORD = N'qwertyOtter77', CHECK_POLICY = ON;", "qwertyOtter77"),
        ('CREATE USER app IDENTIFIED BY "xK.9mLp-2wQz" DEFAULT TABLESPACE users;', "xK.9mLp-2wQz"),
    ],
)  # fmt: skip
def test_a_secret_stores_commands_give_the_value_their_name_names(text: str, value: str) -> None:
    out = redact(text)
    assert value not in out and "[REDACTED:" in out


def test_a_secret_stores_command_for_a_setting_is_left() -> None:
    text = "aws ssm put-parameter --name /prod/shop/region --value eu-west-1"
    assert redact(text) == text


@pytest.mark.parametrize(
    "text",
    [
        # (a placeholder cut from the next line at an escaped line break, a comment after it)
        r"POSTGRES_USER=app\nPOSTGRES_PASSWORD=your_secure_postgres_password_here\nPOSTGRES_DB=app",
        r"# SMTP_PASSWORD=your_smtp_password\n# EMAIL_FROM=noreply@example.com",
        # (variables in a URL's userinfo, a variable before an escaped quote, a folder)
        "DATABASE_URL: postgresql://${POSTGRES_USER:-app}:${POSTGRES_PASSWORD}@db:5432/app",
        'curl -H \\"xc-token: $TOKEN\\" http://localhost:8080/api',
        "- MCP credentials: ~/.claude/mcp/gdrive/",
    ],
)
def test_placeholders_variables_and_paths_where_a_credential_goes_are_left(text: str) -> None:
    assert redact(text) == text


def test_without_the_word_list_a_seed_phrase_is_left_and_nothing_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (mnemonic is a dependency; were it missing, the family is off, not an error)
    import sys

    from brain.home.secrets import phrases

    monkeypatch.setitem(sys.modules, "mnemonic", None)
    phrases.wordlist.cache_clear()
    try:
        text = f"Shared in this space: Feather Wallet → {PHRASE}"
        assert redact(text) == text
        assert redact("API_TOKEN=ghp_" + "a1B2" * 9) != "API_TOKEN=ghp_" + "a1B2" * 9
    finally:
        phrases.wordlist.cache_clear()
