# ruff: noqa: E501  (one corpus entry a line reads best)
"""Write ``data/secrets_blind.json``: a corpus of secrets and look-alikes made blind.

It was written from the providers' documented formats and the shapes credentials take
in config files, shell history and chat, before reading which shapes brain's rules
know, and it is kept apart from the corpora the rules were tuned on
(``secrets_corpus.py``, ``data/secrets_holdout.json``). Every value is random, drawn
with a fixed seed, so the file is the same on every run and no value is a real
credential. Score it with ``python benchmarks/secrets_holdout.py --data
benchmarks/data/secrets_blind.json``.

Run: ``python benchmarks/secrets_blind.py`` (rewrites the JSON file).
"""

from __future__ import annotations

import base64
import json
import random
import string
from pathlib import Path

OUT = Path(__file__).parent / "data" / "secrets_blind.json"

R = random.Random(20261202)
LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = LOWER + UPPER + DIGITS
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"
B32 = UPPER + "234567"


def rnd(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def pw(n: int = 14) -> str:
    """A password as people pick them: letters, digits and a symbol or two."""
    body = rnd(ALNUM, n - 2)
    return body[:4] + R.choice("!#%*+") + body[4:] + rnd(DIGITS, 1)


def uuid() -> str:
    return "-".join(rnd(HEX, n) for n in (8, 4, 4, 4, 12))


def b64(nbytes: int) -> str:
    return base64.b64encode(bytes(R.randrange(256) for _ in range(nbytes))).decode()


def pem_body(lines: int) -> str:
    raw = b64(lines * 48)
    return "\n".join(raw[i : i + 64] for i in range(0, len(raw), 64))


SECRETS: list[tuple[str, str, str]] = []  # kind, text, the part that must not survive


def add(kind: str, text: str, secret: str) -> None:
    assert secret in text, kind
    SECRETS.append((kind, text, secret))


def build_secrets() -> None:  # noqa: PLR0915 - one line per kind reads best
    s = "AKIA" + rnd(UPPER + DIGITS, 16)
    add("aws-key-id-env", f"export AWS_ACCESS_KEY_ID={s}", s)
    s = rnd(B64, 40)
    add(
        "aws-credentials-file",
        f"[default]\naws_access_key_id = AKIA{rnd(UPPER, 16)}\naws_secret_access_key = {s}\n",
        s,
    )
    s = "FwoGZXIvYXdzE" + rnd(B64, 180)
    add("aws-session-token", f"aws_session_token={s}", s)
    s = "ghp_" + rnd(ALNUM, 36)
    add("github-pat-in-remote", f"git remote set-url origin https://{s}@github.com/acme/api.git", s)
    s = "github_pat_" + rnd(ALNUM, 22) + "_" + rnd(ALNUM, 59)
    add("github-fine-grained", f"GH_TOKEN={s} gh pr list", s)
    s = "gho_" + rnd(ALNUM, 36)
    add("github-oauth-hosts-yml", f"github.com:\n    oauth_token: {s}\n    user: octo\n", s)
    s = "glpat-" + rnd(URLSAFE, 20)
    add("gitlab-pat-clone", f"git clone https://oauth2:{s}@gitlab.com/acme/infra.git", s)
    s = "glrt-" + rnd(URLSAFE, 20)
    add("gitlab-runner-token", f"gitlab-runner register --token {s} --url https://gitlab.com", s)
    s = "xoxb-" + rnd(DIGITS, 12) + "-" + rnd(DIGITS, 13) + "-" + rnd(ALNUM, 24)
    add("slack-bot-token", f'SLACK_BOT_TOKEN="{s}"', s)
    s = f"T{rnd(UPPER + DIGITS, 8)}/B{rnd(UPPER + DIGITS, 10)}/{rnd(ALNUM, 24)}"
    add(
        "slack-webhook",
        f'curl -X POST -d \'{{"text":"hi"}}\' https://hooks.slack.com/services/{s}',
        s,
    )
    s = "sk_live_" + rnd(ALNUM, 99)
    add("stripe-live-secret", f"Stripe::api_key = '{s}'", s)
    s = "whsec_" + rnd(ALNUM, 32)
    add("stripe-webhook-secret", f"STRIPE_WEBHOOK_SECRET={s}", s)
    s = "sk-proj-" + rnd(URLSAFE, 120)
    add("openai-project-key", f'client = OpenAI(api_key="{s}")', s)
    s = "sk-ant-api03-" + rnd(URLSAFE, 93) + "AA"
    add("anthropic-key-prose", f"my anthropic key is {s} use it for the evals", s)
    s = "AIza" + rnd(URLSAFE, 35)
    add(
        "google-api-key-url",
        f"https://maps.googleapis.com/maps/api/geocode/json?address=x&key={s}",
        s,
    )
    s = "GOCSPX-" + rnd(URLSAFE, 28)
    add(
        "google-oauth-client-secret",
        f'{{"installed":{{"client_id":"123-abc.apps.googleusercontent.com","client_secret":"{s}"}}}}',
        s,
    )
    body = pem_body(20)
    s = body.splitlines()[3]
    add(
        "gcp-service-account-json",
        '{"type": "service_account", "private_key_id": "'
        + rnd(HEX, 40)
        + '", "private_key": "-----BEGIN PRIVATE KEY-----\\n'
        + body.replace("\n", "\\n")
        + '\\n-----END PRIVATE KEY-----\\n"}',
        s,
    )
    s = b64(64)
    add(
        "azure-storage-connstr",
        f"DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey={s};EndpointSuffix=core.windows.net",
        s,
    )
    s = rnd(HEX, 32)
    add(
        "azure-openai-api-key-header",
        f'curl https://acme.openai.azure.com/openai/deployments/gpt/chat/completions -H "api-key: {s}"',
        s,
    )
    s = rnd(HEX, 32)
    add("twilio-auth-token", f"TWILIO_ACCOUNT_SID=AC{rnd(HEX, 32)}\nTWILIO_AUTH_TOKEN={s}", s)
    s = "SG." + rnd(URLSAFE, 22) + "." + rnd(URLSAFE, 43)
    add("sendgrid-key-yaml", f"sendgrid:\n  api_key: {s}\n", s)
    s = "npm_" + rnd(ALNUM, 36)
    add("npmrc-auth-token", f"//registry.npmjs.org/:_authToken={s}", s)
    s = "pypi-AgEIcHlwaS5vcmc" + rnd(URLSAFE, 150)
    add("pypirc-token", f"[pypi]\n  username = __token__\n  password = {s}\n", s)
    s = "hf_" + rnd(ALNUM, 34)
    add("huggingface-cli-login", f"huggingface-cli login --token {s}", s)
    s = rnd(HEX, 32)
    add("datadog-api-key-env", f"DD_API_KEY={s} DD_SITE=datadoghq.eu ./agent run", s)
    s = "NRAK-" + rnd(UPPER + DIGITS, 27)
    add("newrelic-user-key", f"newrelic profiles add --apiKey {s} --region US", s)
    s = rnd(HEX, 36) + "NRAL"
    add("newrelic-license-key", f"license_key: {s}", s)
    s = "NRII-" + rnd(URLSAFE, 32)
    add(
        "newrelic-insert-key",
        f'curl -H "X-Insert-Key: {s}" https://insights-collector.newrelic.com',
        s,
    )
    s = rnd(HEX, 32)
    add("pagerduty-routing-key-json", f'{{"routing_key": "{s}", "event_action": "trigger"}}', s)
    s = "pcsk_" + rnd(ALNUM, 5) + "_" + rnd(ALNUM, 62)
    add("pinecone-key", f"pc = Pinecone(api_key='{s}')", s)
    s = "access_token$production$" + rnd(LOWER + DIGITS, 16) + "$" + rnd(HEX, 32)
    add("braintree-access-token", f"BT_ACCESS_TOKEN={s}", s)
    s = b64(33)
    add(
        "vault-unseal-key",
        f"Unseal Key 1: {s}\nUnseal Key 2: {b64(33)}\nInitial Root Token: hvs.{rnd(ALNUM, 24)}",
        s,
    )
    s = "hvs." + rnd(URLSAFE, 90)
    add("vault-token-env", f"export VAULT_TOKEN='{s}'", s)
    s = pw(16)
    add("redis-cli-a", f"redis-cli -h cache.internal -p 6379 -a '{s}' ping", s)
    s = pw(14)
    add("mysql-p-glued", f"mysql -h db.internal -u root -p{s} orders < dump.sql", s)
    s = pw(16)
    add("postgres-url", f"DATABASE_URL=postgres://app:{s}@db.internal:5432/app", s)
    s = pw(18)
    add("mongodb-srv", f'mongosh "mongodb+srv://admin:{s}@cluster0.ab1cd.mongodb.net/test"', s)
    s = rnd(HEX, 128)
    add("rails-secret-key-base-prose", f"the production secret_key_base is {s}", s)
    s = rnd(HEX, 32)
    add("rails-master-key-prose", f"config/master.key holds {s} so keep a copy", s)
    lines = [b64(48), b64(48), b64(24)]
    s = lines[1]
    add(
        "putty-private-lines",
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI"
        + rnd(B64, 43)
        + "\nPrivate-Lines: 3\n"
        + "\n".join(lines)
        + "\nPrivate-MAC: "
        + rnd(HEX, 64),
        s,
    )
    s = base64.b64encode(f"admin:{pw(12)}".encode()).decode()
    add("nginx-basic-auth-header", f'proxy_set_header Authorization "Basic {s}";', s)
    s = rnd(HEX, 32)
    add("algolia-admin-js", f"const client = algoliasearch('{rnd(UPPER + DIGITS, 10)}', '{s}');", s)
    s = "LTAI" + rnd(ALNUM, 20)
    add("alibaba-key-id", f"ALIBABA_CLOUD_ACCESS_KEY_ID={s}", s)
    s = rnd(ALNUM, 30)
    add(
        "alibaba-key-secret",
        f"aliyun configure set --access-key-id LTAI{rnd(ALNUM, 20)} --access-key-secret {s}",
        s,
    )
    s = "dop_v1_" + rnd(HEX, 64)
    add("digitalocean-doctl", f"doctl auth init -t {s}", s)
    s = uuid()
    add("heroku-api-key", f"HEROKU_API_KEY={s} heroku apps", s)
    s = "shpat_" + rnd(HEX, 32)
    add("shopify-admin-token", f"X-Shopify-Access-Token: {s}", s)
    s = "EAAA" + rnd(URLSAFE, 60)
    add("square-access-token", f"SQUARE_ACCESS_TOKEN={s}", s)
    s = R.choice("MNO") + rnd(URLSAFE, 25) + "." + rnd(URLSAFE, 6) + "." + rnd(URLSAFE, 38)
    add("discord-bot-token", f"bot.run('{s}')", s)
    s = rnd(DIGITS, 10) + ":AA" + rnd(URLSAFE, 33)
    add("telegram-bot-token", f"https://api.telegram.org/bot{s}/getUpdates", s)
    hdr = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    pay = base64.urlsafe_b64encode(b'{"sub":"42","exp":1999999999}').decode().rstrip("=")
    s = f"{hdr}.{pay}.{rnd(URLSAFE, 43)}"
    add("jwt-in-cookie", f"Cookie: theme=dark; jwt={s}", s)
    s = rnd(URLSAFE, 40)
    add("bearer-opaque-curl", f'curl -H "Authorization: Bearer {s}" https://api.acme.dev/v1/me', s)
    s = base64.b64encode(f"ci-bot:{pw(20)}".encode()).decode()
    add("docker-config-auths", f'{{"auths": {{"registry.acme.io": {{"auth": "{s}"}}}}}}', s)
    s = (
        "eyJhbGciOiJSUzI1NiIsImtpZCI6I"
        + rnd(URLSAFE, 40)
        + "."
        + rnd(URLSAFE, 200)
        + "."
        + rnd(URLSAFE, 100)
    )
    add("kubeconfig-user-token", f"users:\n- name: ci\n  user:\n    token: {s}\n", s)
    body = pem_body(8)
    s = body.splitlines()[2]
    add(
        "openssh-private-key",
        f"-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----",
        s,
    )
    body = pem_body(10)
    s = body.splitlines()[4]
    add(
        "pgp-private-key-block",
        f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{body}\n={rnd(B64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----",
        s,
    )
    body = pem_body(12)
    s = body.splitlines()[5]
    add(
        "rsa-private-key-pem",
        f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----",
        s,
    )
    body = pem_body(3)
    s = body.splitlines()[1]
    add(
        "ec-private-key-pem",
        f"-----BEGIN EC PRIVATE KEY-----\n{body}\n-----END EC PRIVATE KEY-----",
        s,
    )
    s = pw(15)
    add("pgpass-line", f"db.internal:5432:orders:report:{s}", s)
    s = pw(14)
    add("netrc-line", f"machine api.acme.dev login bob password {s}", s)
    s = pw(13)
    add("mysqldump-password-eq", f"mysqldump --user=backup --password={s} --all-databases", s)
    s = pw(12)
    add("curl-u", f"curl -u deploy:{s} https://ci.acme.dev/job/build/api/json", s)
    s = pw(12)
    add("sshpass", f"sshpass -p '{s}' ssh pi@10.0.0.7", s)
    s = pw(16)
    add("docker-login-p", f"docker login -u ci -p {s} registry.acme.io", s)
    s = pw(16)
    add(
        "compose-postgres-password",
        f"services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: {s}\n",
        s,
    )
    s = rnd(URLSAFE, 40)
    add("json-client-secret", f'{{"client_id": "web", "client_secret": "{s}"}}', s)
    s = rnd(ALNUM, 32)
    add("toml-api-key", f'[service]\napi_key = "{s}"\n', s)
    s = pw(14)
    add(
        "xml-password-element",
        f"<datasource><username>app</username><password>{s}</password></datasource>",
        s,
    )
    s = pw(15)
    add("spring-properties", f"spring.datasource.password={s}", s)
    s = pw(13)
    add("ini-smtp-password", f"[smtp]\nhost = mail.acme.dev\nuser = noreply\npassword = {s}\n", s)
    s = pw(14)
    add("php-define", f"define('DB_PASSWORD', '{s}');", s)
    s = rnd(ALNUM, 40)
    add("python-kwarg-token", f'client = Client(token="{s}")', s)
    s = rnd(ALNUM, 32)
    add("js-const-apikey", f'const apiKey = "{s}";', s)
    s = pw(16)
    add("go-struct-password", f'cfg := Config{{User: "app", Password: "{s}"}}', s)
    s = rnd(B64, 40)
    add(
        "terraform-secret-key",
        f'provider "aws" {{\n  access_key = "AKIA{rnd(UPPER, 16)}"\n  secret_key = "{s}"\n}}',
        s,
    )
    s = pw(14)
    add("helm-set-password", f"helm install redis bitnami/redis --set auth.password={s}", s)
    s = "ATBB" + rnd(ALNUM, 32)
    add("bitbucket-app-password", f"my bitbucket app password is {s}", s)
    s = "ATATT3xFfGF0" + rnd(URLSAFE, 170) + "=" + rnd(HEX, 8).upper()
    add("atlassian-api-token", f"JIRA_API_TOKEN={s}", s)
    s = "lin_api_" + rnd(ALNUM, 40)
    add("linear-api-key", f"Authorization: {s}", s)
    s = "ntn_" + rnd(DIGITS, 11) + rnd(ALNUM, 35)
    add("notion-token", f'notion = Client(auth="{s}")', s)
    s = "pat" + rnd(ALNUM, 14) + "." + rnd(HEX, 64)
    add("airtable-pat", f"AIRTABLE_TOKEN={s}", s)
    s = "figd_" + rnd(URLSAFE, 40)
    add("figma-token-header", f'curl -H "X-Figma-Token: {s}" https://api.figma.com/v1/me', s)
    s = rnd(HEX, 32)
    add("sentry-dsn", f'Sentry.init({{ dsn: "https://{s}@o123456.ingest.sentry.io/4505" }})', s)
    s = "sntrys_eyJpYXQiOjE3" + rnd(URLSAFE, 120)
    add("sentry-auth-token", f"SENTRY_AUTH_TOKEN={s}", s)
    s = rnd(URLSAFE, 40)
    add("cloudflare-api-token", f"CLOUDFLARE_API_TOKEN={s} wrangler deploy", s)
    s = rnd(HEX, 37)
    add(
        "cloudflare-global-key",
        f'curl -H "X-Auth-Email: ops@acme.dev" -H "X-Auth-Key: {s}" https://api.cloudflare.com/client/v4/zones',
        s,
    )
    s = rnd(URLSAFE, 32)
    add("fastly-key-header", f'curl -H "Fastly-Key: {s}" https://api.fastly.com/service', s)
    s = "sk.eyJ1IjoiYWNtZSIsImEiOiJ" + rnd(URLSAFE, 30) + "." + rnd(URLSAFE, 22)
    add("mapbox-secret-token", f"MAPBOX_DOWNLOADS_TOKEN={s}", s)
    s = rnd(HEX, 32) + "-us14"
    add("mailchimp-key", f"mailchimp.setConfig({{ apiKey: '{s}', server: 'us14' }})", s)
    s = "sl." + rnd(URLSAFE, 140)
    add("dropbox-token", f"dbx = dropbox.Dropbox('{s}')", s)
    s = "00" + rnd(URLSAFE, 40)
    add("okta-ssws", f'curl -H "Authorization: SSWS {s}" https://acme.okta.com/api/v1/users', s)
    s = rnd(URLSAFE, 64)
    add("auth0-client-secret", f"AUTH0_CLIENT_ID={rnd(ALNUM, 32)}\nAUTH0_CLIENT_SECRET={s}", s)
    s = "AAAA" + rnd(URLSAFE, 7) + ":APA91b" + rnd(URLSAFE, 134)
    add("firebase-fcm-server-key", f"Authorization: key={s}", s)
    s = (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZSIsInJlZiI6Im"
        + rnd(URLSAFE, 60)
        + "."
        + rnd(URLSAFE, 43)
    )
    add("supabase-service-role", f"SUPABASE_SERVICE_ROLE_KEY={s}", s)
    s = "sbp_" + rnd(HEX, 40)
    add("supabase-access-token", f"supabase login --token {s}", s)
    s = rnd(ALNUM, 24)
    add("vercel-token-flag", f"vercel deploy --prod --token {s}", s)
    s = "nfp_" + rnd(ALNUM, 36)
    add("netlify-token", f"NETLIFY_AUTH_TOKEN={s} netlify deploy", s)
    s = "FlyV1 fm2_" + rnd(URLSAFE + "+/=", 200)
    add("flyio-token", f"FLY_API_TOKEN='{s}'", s[6:])
    s = "dp.pt." + rnd(ALNUM, 43)
    add("doppler-token", f"doppler configure set token {s}", s)
    s = "ops_eyJzaWduSW5BZGRyZXNzIjoibXkuMXBhc3N3b3JkLmNvbSIs" + rnd(URLSAFE, 300)
    add("onepassword-service-account", f"export OP_SERVICE_ACCOUNT_TOKEN={s}", s)
    s = "tskey-auth-k" + rnd(ALNUM, 16) + "-" + rnd(ALNUM, 33)
    add("tailscale-auth-key", f"tailscale up --authkey={s}", s)
    s = rnd(DIGITS, 1) + rnd(ALNUM, 26) + "_" + rnd(ALNUM, 21)
    add("ngrok-yml-authtoken", f'version: "2"\nauthtoken: {s}\n', s)
    s = pw(20)
    add(
        "kafka-jaas-password",
        f'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="svc" password="{s}";',
        s,
    )
    s = pw(14)
    add("amqp-url", f"CELERY_BROKER_URL=amqp://worker:{s}@rabbit.internal:5672//", s)
    s = pw(14)
    add("smtp-url", f"EMAIL_URL=smtp://noreply%40acme.dev:{s}@smtp.acme.dev:587", s)
    s = pw(14)
    add(
        "ldapsearch-w",
        f'ldapsearch -x -H ldap://ldap.acme.dev -D "cn=admin,dc=acme,dc=dev" -w {s} -b dc=acme,dc=dev',
        s,
    )
    s = pw(16)
    add(
        "snowflake-password-env",
        f"SNOWFLAKE_ACCOUNT=ab12345\nSNOWFLAKE_USER=etl\nSNOWFLAKE_PASSWORD={s}",
        s,
    )
    s = "dapi" + rnd(HEX, 32)
    add("databricks-token", f"databricks configure --token <<< {s}", s)
    s = "glsa_" + rnd(ALNUM, 32) + "_" + rnd(HEX, 8)
    add(
        "grafana-service-account",
        f'curl -H "Authorization: Bearer {s}" https://grafana.acme.dev/api/dashboards',
        s,
    )
    s = "glc_" + b64(60).rstrip("=")
    add("grafana-cloud-token", f"GRAFANA_CLOUD_TOKEN={s}", s)
    s = "PMAK-" + rnd(HEX, 24) + "-" + rnd(HEX, 34)
    add("postman-key", f"postman login --with-api-key {s}", s)
    s = "AGE-SECRET-KEY-1" + rnd(UPPER + DIGITS, 58)
    add(
        "age-secret-key",
        f"# created: 2026-01-02\n# public key: age1{rnd(LOWER + DIGITS, 58)}\n{s}",
        s,
    )
    s = b64(32)
    add("wireguard-private-key", f"[Interface]\nPrivateKey = {s}\nAddress = 10.8.0.2/24\n", s)
    hexlines = [rnd(HEX, 32) for _ in range(16)]
    s = hexlines[5]
    add(
        "openvpn-static-key",
        "-----BEGIN OpenVPN Static key V1-----\n"
        + "\n".join(hexlines)
        + "\n-----END OpenVPN Static key V1-----",
        s,
    )
    s = "0x" + rnd(HEX, 64)
    add("ethereum-private-key", f"PRIVATE_KEY={s} npx hardhat run deploy.js", s)
    words = "abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid acoustic acquire across act action actor actress actual".split()
    phrase = " ".join(R.choice(words) for _ in range(12))
    add("bip39-mnemonic", f"wallet recovery words: {phrase}", phrase)
    s = "squ_" + rnd(HEX, 40)
    add("sonarqube-token", f"sonar-scanner -Dsonar.token={s}", s)
    s = uuid()
    add("snyk-token", f"SNYK_TOKEN={s} snyk test", s)
    s = rnd(HEX, 40)
    add("circleci-token", f"CIRCLE_TOKEN={s}", s)
    s = "11" + rnd(HEX, 32)
    add("jenkins-api-token", f"curl -u admin:{s} https://jenkins.acme.dev/job/build/build", s)
    s = "AKCp" + rnd(ALNUM, 69)
    add("artifactory-key", f"ARTIFACTORY_API_KEY={s}", s)
    s = rnd(LOWER + "234567", 52)
    add("azure-devops-pat", f"AZURE_DEVOPS_EXT_PAT={s} az devops login", s)
    s = rnd(ALNUM, 3) + "8Q~" + rnd(URLSAFE + "~.", 31)
    add(
        "azure-client-secret",
        f"az login --service-principal -u {uuid()} -p {s} --tenant {uuid()}",
        s,
    )
    s = rnd(ALNUM, 40)
    add("x-api-key-header", f"X-API-Key: {s}", s)
    s = "A" * 22 + rnd(ALNUM + "%", 90)
    add("twitter-bearer", f"TWITTER_BEARER_TOKEN={s}", s)
    s = "EAA" + rnd(ALNUM, 180)
    add("facebook-access-token", f"graph.facebook.com/me?access_token={s}", s)
    s = rnd(ALNUM, 16)
    add("linkedin-client-secret", f"LINKEDIN_CLIENT_SECRET={s}", s)
    s = rnd(ALNUM, 14) + ".atlasv1." + rnd(URLSAFE, 67)
    add("terraform-cloud-credentials", f'credentials "app.terraform.io" {{\n  token = "{s}"\n}}', s)
    s = "pul-" + rnd(HEX, 40)
    add("pulumi-token", f"pulumi login --cloud-url https://api.pulumi.com <<< {s}", s)
    s = pw(18)
    add("ssh-key-passphrase-prose", f"the passphrase for id_ed25519 is {s}", s)
    s = pw(12)
    add("wifi-password-prose", f"office wifi password: {s}", s)
    s = pw(14)
    add("german-prose", f"Das Passwort für den Router lautet {s}", s)
    s = rnd(ALNUM, 40)
    add("opaque-token-prose", f"use token {s} for the staging API", s)
    s = pw(16)
    add(
        "mssql-connstr",
        f"Server=tcp:sql.acme.dev,1433;Database=app;User Id=sa;Password={s};Encrypt=True;",
        s,
    )
    s = pw(14)
    add(
        "jdbc-url-password",
        f"jdbc:mysql://db.internal:3306/app?user=app&password={s}&useSSL=true",
        s,
    )
    s = pw(16)
    add("git-credentials-store", f"https://octo:{s}@github.com", s)
    s = pw(20)
    add("redis-url-no-user", f"REDIS_URL=redis://:{s}@cache.internal:6379/0", s)
    s = base64.b64encode(f"{rnd(URLSAFE, 20)}:{rnd(URLSAFE, 22)}".encode()).decode()
    add(
        "elastic-apikey-header",
        f'curl -H "Authorization: ApiKey {s}" https://es.acme.dev:9200/_cat/indices',
        s,
    )
    s = base64.b64encode(pw(16).encode()).decode()
    add(
        "k8s-secret-data",
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: {s}\n",
        s,
    )
    s = "-".join(rnd(LOWER, 4) for _ in range(4))
    add("apple-app-specific-password", f"the app-specific password for notarytool is {s}", s)
    s = rnd(B32, 32)
    add("totp-otpauth-uri", f"otpauth://totp/Acme:bob@acme.dev?secret={s}&issuer=Acme", s)
    s = pw(16)
    add("docker-run-e-password", f"docker run -d -e MYSQL_ROOT_PASSWORD={s} mysql:8", s)
    s = pw(14)
    add("pgpassword-env", f"PGPASSWORD={s} psql -h db.internal -U app app", s)
    s = pw(14)
    add(
        "openssl-pass-pass",
        f"openssl enc -aes-256-cbc -in secrets.tar -out secrets.enc -pass pass:{s}",
        s,
    )
    s = pw(12)
    add("zip-P", f"zip -P {s} -r backup.zip ./data", s)
    s = pw(15)
    add("mongosh-password", f"mongosh --host db.internal --username admin --password {s}", s)
    s = rnd(HEX, 30)
    add("plaid-secret", f"PLAID_CLIENT_ID={rnd(HEX, 24)}\nPLAID_SECRET={s}", s)
    s = rnd(URLSAFE, 6) + "." + rnd(URLSAFE, 6) + ":" + rnd(URLSAFE, 43)
    add("ably-api-key", f"const ably = new Ably.Realtime('{s}');", s)
    s = "CFPAT-" + rnd(URLSAFE, 43)
    add("contentful-pat", f"contentful login --management-token {s}", s)
    s = "1/" + rnd(DIGITS, 16) + ":" + rnd(HEX, 32)
    add(
        "asana-pat",
        f'curl -H "Authorization: Bearer {s}" https://app.asana.com/api/1.0/users/me',
        s,
    )
    s = "pk_" + rnd(DIGITS, 8) + "_" + rnd(UPPER + DIGITS, 32)
    add("clickup-token", f"CLICKUP_API_TOKEN={s}", s)
    s = rnd(ALNUM, 40)
    add(
        "zendesk-api-token",
        f"curl -u ops@acme.dev/token:{s} https://acme.zendesk.com/api/v2/tickets.json",
        s,
    )
    s = uuid()
    add("consul-token-header", f'curl -H "X-Consul-Token: {s}" http://127.0.0.1:8500/v1/kv/app', s)
    s = uuid()
    add("nomad-token-env", f"export NOMAD_TOKEN={s}", s)
    s = rnd(HEX, 40)
    add(
        "gitea-token-header",
        f'curl -H "Authorization: token {s}" https://git.acme.dev/api/v1/user',
        s,
    )
    s = rnd(ALNUM, 32)
    add("mailgun-key-private", f"MAILGUN_API_KEY=key-{s}", s)
    s = "rk_live_" + rnd(ALNUM, 99)
    add("stripe-restricted", f"stripe listen --api-key {s}", s)
    s = rnd(ALNUM, 22)
    add("password-in-chat", f"ok the new root pw for the NAS is {s}", s)
    s = rnd(HEX, 64)
    add("hmac-signing-secret", f"WEBHOOK_SIGNING_SECRET={s}", s)
    s = rnd(URLSAFE, 43)
    add("django-secret-key", f"SECRET_KEY = '{s}'", s)
    s = b64(32)
    add("laravel-app-key", f"APP_KEY=base64:{s}", s)
    s = rnd(URLSAFE, 40)
    add("jwt-secret-yaml", f"auth:\n  jwt_secret: {s}\n", s)
    s = rnd(HEX, 40)
    add(
        "launchdarkly-sdk-key",
        f"LAUNCHDARKLY_SDK_KEY=sdk-{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:32]}",
        f"{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:32]}",
    )
    s = rnd(ALNUM, 32)
    add("encryption-key-env", f"ENCRYPTION_KEY={s}", s)
    s = pw(14)
    add("rclone-pass-flag", f"rclone copy ./data remote:bucket --sftp-pass {s}", s)
    s = pw(16)
    add("ansible-extra-vars", f'ansible-playbook site.yml -e "ansible_become_password={s}"', s)
    s = pw(12)
    add("rsync-password-env", f"RSYNC_PASSWORD={s} rsync -av backup@nas::share ./", s)
    s = pw(14)
    add("htpasswd-b", f"htpasswd -bc /etc/nginx/.htpasswd admin {s}", s)
    s = pw(16)
    add(
        "keytool-storepass",
        f"keytool -importkeystore -srckeystore app.p12 -srcstorepass {s} -destkeystore app.jks",
        s,
    )
    s = rnd(ALNUM, 48)
    add("routing-key-yaml", f"pagerduty:\n  routing_key: {s}\n", s)
    s = "xapp-1-A" + rnd(UPPER + DIGITS, 10) + "-" + rnd(DIGITS, 13) + "-" + rnd(HEX, 64)
    add("slack-app-token", f"SLACK_APP_TOKEN={s}", s)
    s = "glpat-" + rnd(URLSAFE, 20)
    add(
        "gitlab-token-header",
        f'curl --header "PRIVATE-TOKEN: {s}" https://gitlab.com/api/v4/projects',
        s,
    )
    s = rnd(ALNUM, 32)
    add("segment-like-basic-colon", f"api key: {s}", s)
    s = pw(14)
    add(
        "json-password-nested",
        f'{{"db": {{"host": "db.internal", "user": "app", "password": "{s}"}}}}',
        s,
    )
    s = pw(14)
    add("sql-create-user", f"CREATE USER report WITH PASSWORD '{s}';", s)
    s = pw(14)
    add("mysql-identified-by", f"ALTER USER 'root'@'localhost' IDENTIFIED BY '{s}';", s)
    s = pw(14)
    add("powershell-securestring", f'$pw = ConvertTo-SecureString "{s}" -AsPlainText -Force', s)
    s = pw(14)
    add("net-user-windows", f"net user backup {s} /add", s)
    s = pw(14)
    add("chpasswd", f"echo 'deploy:{s}' | chpasswd", s)


LOOKALIKES: list[tuple[str, str]] = [
    ("ghp-placeholder", "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
    ("aws-doc-key-id", "e.g. AKIAIOSFODNN7EXAMPLE is the documented example access key"),
    ("aws-doc-secret", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("bearer-template", 'headers: {"Authorization": "Bearer {{ api_token }}"}'),
    (
        "secretsmanager-arn",
        "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-password-AbCdEf",
    ),
    ("commit-hash", f"the regression came in with {rnd(HEX, 40)}; revert it"),
    ("short-sha", f"cherry-pick {rnd(HEX, 7)} onto release"),
    ("uuid-request-id", f"request id {uuid()} failed with 502"),
    ("png-data-uri", "![logo](data:image/png;base64," + b64(120) + ")"),
    ("docker-digest", f"image: ghcr.io/acme/api@sha256:{rnd(HEX, 64)}"),
    ("npm-integrity", f'"integrity": "sha512-{b64(64)}"'),
    ("env-ref-password", "password: ${DB_PASSWORD}"),
    ("angle-placeholder", "token: <your-token-here>"),
    ("your-api-key-here", "API_KEY=your_api_key_here"),
    ("password-reset-url", "password_reset_url = https://acme.dev/reset"),
    ("token-count", "max_token_count = 4096"),
    ("stored-in-1password", "the password is stored in 1Password under 'prod db'"),
    ("rotate-token", "rotate the deploy token every 90 days"),
    ("ssh-public-key", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + rnd(B64, 43) + " bob@laptop"),
    (
        "pgp-public-key",
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"
        + pem_body(4)
        + "\n-----END PGP PUBLIC KEY BLOCK-----",
    ),
    ("certificate", "-----BEGIN CERTIFICATE-----\n" + pem_body(6) + "\n-----END CERTIFICATE-----"),
    ("stripe-publishable", "STRIPE_PUBLISHABLE_KEY=pk_live_" + rnd(ALNUM, 99)),
    ("eth-address", f"send it to 0x{rnd(HEX, 40)}"),
    ("bitcoin-address", "bc1q" + rnd(LOWER + DIGITS, 38)),
    ("git-remote-plain", "git remote add origin git@github.com:acme/api.git"),
    ("postgres-url-no-pw", "DATABASE_URL=postgres://app@localhost:5432/app"),
    ("redis-cli-port", "redis-cli -h cache.internal -p 6379 ping"),
    ("mysql-p-prompt", "mysql -u root -p orders"),
    ("ssh-port", "ssh -p 2222 deploy@10.0.0.7"),
    ("psql-port", "psql -h localhost -p 5432 -U app"),
    ("password-stdin", "echo $CR_PAT | docker login ghcr.io -u octo --password-stdin"),
    ("bearer-env", 'curl -H "Authorization: Bearer $TOKEN" https://api.acme.dev'),
    ("bearer-gh-env", 'curl -H "Authorization: Bearer ${GITHUB_TOKEN}" https://api.github.com'),
    ("empty-export", "export OPENAI_API_KEY="),
    ("erb-secret-key-base", 'secret_key_base: <%= ENV["SECRET_KEY_BASE"] %>'),
    ("ansible-vault-ref", "db_password: !vault |"),
    ("gha-secrets-ref", "NPM_TOKEN: ${{ secrets.NPM_TOKEN }}"),
    ("python-environ", 'secret = os.environ["AWS_SECRET_ACCESS_KEY"]'),
    ("node-process-env", "const key = process.env.STRIPE_SECRET_KEY;"),
    ("k8s-secretkeyref", "valueFrom:\n  secretKeyRef:\n    name: db\n    key: password"),
    ("sk-ellipsis", "api_key: sk-..."),
    ("sk-xxxx", "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxx"),
    ("xoxb-your-token", "SLACK_BOT_TOKEN=xoxb-your-token"),
    ("yaml-key-label", "key: app.kubernetes.io/name"),
    ("monkey", "monkey=banana"),
    ("image-tag-sha", f"ghcr.io/acme/app:sha-{rnd(HEX, 7)}"),
    ("semver", "bump to 3.14.159-rc.2+build.2653"),
    ("ip-address", "the NAS is at 192.168.1.20, gateway 192.168.1.1"),
    ("email", "mail ops@acme.dev about it"),
    ("file-path", "/var/lib/postgresql/16/main/pg_wal/000000010000000A000000FE"),
    ("mac-address", "wol 3c:22:fb:9a:01:7e"),
    (
        "git-lfs-pointer",
        f"version https://git-lfs.github.com/spec/v1\noid sha256:{rnd(HEX, 64)}\nsize 10485760",
    ),
    ("go-sum", f"golang.org/x/sys v0.25.0 h1:{b64(32)}"),
    ("cargo-checksum", f'checksum = "{rnd(HEX, 64)}"'),
    ("password-policy", "password must be at least 12 characters with one digit"),
    ("token-expired", "token expired at 2026-11-30T10:00:00Z, re-run gh auth login"),
    ("set-cookie-theme", "Set-Cookie: theme=dark; Path=/; SameSite=Lax"),
    ("ga-id", "gtag('config', 'G-" + rnd(UPPER + DIGITS, 10) + "');"),
    ("stripe-price-id", "price: price_1" + rnd(ALNUM, 23)),
    ("stripe-customer-id", "customer cus_" + rnd(ALNUM, 14) + " churned"),
    ("slack-channel-id", "post to C0" + rnd(UPPER + DIGITS, 9)),
    ("aws-account-region", "account 123456789012 in eu-west-1"),
    ("base64-hello", "echo SGVsbG8gV29ybGQ= | base64 -d"),
    ("hex-color", "color: #1e90ff; background: #fafafa"),
    ("chrome-extension-id", "extension id " + rnd("abcdefghijklmnop", 32)),
    ("container-id", f"docker logs {rnd(HEX, 64)}"),
    ("pod-name", "kubectl logs api-7d4b9c8f6-x2kq9"),
    ("terraform-resource", "aws_secretsmanager_secret.db_password.arn"),
    ("json-schema-secret", '{"name": "apiKey", "secret": true, "type": "string"}'),
    ("private-key-path", "private_key_path = ~/.ssh/id_rsa"),
    ("tokenizer", "tokenizer = tiktoken.get_encoding('cl100k_base')"),
    ("passwordless", "we moved to passwordless login via WebAuthn"),
    ("token-file-flag", "--token-file /run/secrets/token"),
    ("api-key-env-name", "api_key_env = OPENAI_API_KEY"),
    ("auth-none", "auth: none"),
    ("nginx-auth-basic", 'auth_basic "Restricted";\nauth_basic_user_file /etc/nginx/.htpasswd;'),
    ("akia-prose", "The AKIA prefix marks long-term access keys, ASIA temporary ones."),
    ("git-log-format", "git log --format=%H -n 5"),
    ("lorem", "Lorem ipsum dolor sit amet, consectetur adipiscing elit."),
    ("sri-hash", f'<script src="app.js" integrity="sha384-{b64(48)}"></script>'),
    ("oauth-scope", "scope=repo,read:org token_type=bearer"),
    ("jwt-alg-doc", 'the header is {"alg": "HS256", "typ": "JWT"}'),
    ("redacted-marker", "token: [REDACTED]"),
    ("asterisks", "password: ********"),
    ("kube-api-server", "server: https://10.0.0.1:6443"),
    ("password-field-label", "the login form has fields username and password"),
    ("secret-name-k8s", "kubectl get secret db-credentials -o yaml"),
    ("keyboard-shortcut", "press Ctrl+K then type the key name"),
    ("random-seed", "seed = 1234567"),
]


def main() -> None:
    build_secrets()
    kinds = [k for k, _, _ in SECRETS]
    assert len(kinds) == len(set(kinds)), "a kind twice"
    looks = [k for k, _ in LOOKALIKES]
    assert len(looks) == len(set(looks)), "a look-alike twice"
    doc = {
        "about": (
            "Written blind (before reading brain's rules), random values, fixed seed; "
            "made by benchmarks/secrets_blind.py"
        ),
        "secrets": [{"kind": k, "text": t, "secret": s} for k, t, s in SECRETS],
        "lookalikes": [{"kind": k, "text": t} for k, t in LOOKALIKES],
    }
    OUT.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(SECRETS)} secrets, {len(LOOKALIKES)} look-alikes -> {OUT}")


if __name__ == "__main__":
    main()
