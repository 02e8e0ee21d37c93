# ruff: noqa: E501  (one corpus entry a line reads best)
"""Secrets as people write them, and innocent text that looks like them.

Written from the providers' documented token formats and from how credentials show up
in sessions (prose, config files, URLs, command lines, tool output), not from brain's
own patterns. Every credential is assembled at run time from a seeded generator, so no
secret scanner mistakes this file for a leak and every run sees the same values.

``SECRETS`` is a list of ``(kind, text, secret)``: after any entry path, ``secret`` must
be nowhere on disk. ``LOOKALIKES`` holds text that must come out unchanged.
"""

from __future__ import annotations

import base64
import random
import string

_rng = random.Random(1313)
_UP, _LO, _DIG = string.ascii_uppercase, string.ascii_lowercase, string.digits
_B62 = _UP + _LO + _DIG
_HEX = "0123456789abcdef"


def _r(n: int, alphabet: str = _B62) -> str:
    # Mixed: at least one upper, lower and digit where the alphabet has them.
    while True:
        s = "".join(_rng.choice(alphabet) for _ in range(n))
        classes = [c for c in (_UP, _LO, _DIG) if set(c) & set(alphabet)]
        if all(set(s) & set(c) for c in classes) or n < 6:
            return s


def _b64(n: int) -> str:
    return base64.b64encode(_rng.randbytes(n)).decode()


def _entries() -> list[tuple[str, str, str]]:
    e: list[tuple[str, str, str]] = []

    def add(kind: str, template: str, secret: str) -> None:
        e.append((kind, template.format(s=secret), secret))

    aws_secret = _r(30) + "/" + _r(9)
    add("prose password", "The staging db password is {s}, ask Ana before rotating it.", "hunter2")
    add(
        "prose login",
        "Log in to staging as admin / {s} and open the billing page.",
        "Sup3rS3cretPw",
    )
    add("prose aws secret", "AWS secret for the backup bucket: {s}", aws_secret)
    add("prose passphrase", "my gpg passphrase is {s} fwiw", "tr0ub4dor&3")
    add("prose plain-word password", "the staging password is {s}", "plumzebra")
    add("prose plain-word pw", "ok the router pw is {s}, change it after the demo", "quillmoss")
    add("prose token was", "the CI token was {s} until I revoked it", _r(24))
    add("prose api key", "OK, the Mistral api key is {s}", _r(32))
    add("netrc", "machine api.heroku.com login me@x.io password {s}", _r(20))
    add("pgpass", "PGPASSWORD={s} psql -h db -U app", _r(16))
    add("env password", "DB_PASSWORD={s}", "correct-horse-9")
    add("yaml password", "database:\n  user: app\n  password: {s}\n", _r(14))
    add("json secret", '{{"client_secret": "{s}"}}', _r(40))
    add("toml token", 'token = "{s}"', _r(30))
    add("ini passwd", "[db]\npasswd = {s}", _r(12))
    add("cli --password", "mysqldump --password={s} shop > dump.sql", _r(12))
    add("mysql -p", "mysql -u root -p{s} -h 10.0.0.5 shop", "Pa55w0rd!")
    add("sshpass", "sshpass -p '{s}' ssh deploy@10.0.0.7", "d3ploy-Pass")
    add("docker login -p", "docker login -u bot -p {s} registry.example.com", _r(20))
    add("curl -u", "curl -u admin:{s} https://jenkins.example.com/api/json", _r(16))
    add("url credentials", "DATABASE_URL=postgres://app:{s}@db.internal:5432/app", _r(18))
    add("redis url", "redis://:{s}@cache.internal:6379/0", _r(22))
    add(
        "git https token", "git remote set-url origin https://oauth2:{s}@gitlab.com/x/y.git", _r(20)
    )
    add("authorization bearer", "curl -H 'Authorization: Bearer {s}' https://api.x.io", _r(40))
    add("authorization basic", "Authorization: Basic {s}", _b64(18))
    add("okta ssws", "Authorization: SSWS {s}", "00" + _r(40))
    add("x-api-key header", "-H 'x-api-key: {s}'", _r(32))
    add("cookie", "Cookie: theme=dark; sessionid={s}; lang=en", _r(32))
    add("aws access key id", "aws_access_key_id = {s}", "AKIA" + _r(16, _UP + _DIG))
    add("aws sts key id", '"AccessKeyId": "{s}"', "ASIA" + _r(16, _UP + _DIG))
    add("aws secret key", "aws_secret_access_key={s}", _r(40))
    add("github pat classic", "export GITHUB_TOKEN={s}", "ghp_" + _r(36))
    add("github fine-grained", "use github_pat_{s} for the bot", "11A" + _r(19) + "_" + _r(59))
    add("github oauth", "gho_{s}", _r(36))
    add("gitlab pat", "PRIVATE-TOKEN: {s}", "glpat-" + _r(20))
    add("gitlab runner", "runner token {s}", "glrt-" + _r(20))
    add("anthropic", "ANTHROPIC_API_KEY={s}", "sk-ant-api03-" + _r(90))
    add("openai project", "openai.api_key = '{s}'", "sk-proj-" + _r(60))
    add("openai legacy", "key {s} stopped working", "sk-" + _r(48))
    add("openrouter", "OPENROUTER_API_KEY={s}", "sk-or-v1-" + _r(64, _HEX))
    add("google api", "https://maps.googleapis.com/maps/api/js?key={s}", "AIza" + _r(35))
    add("slack bot", "SLACK_BOT_TOKEN={s}", "xoxb-" + _r(12, _DIG) + "-" + _r(24))
    add("slack user", "the xoxp one: {s}", "xoxp-" + _r(11, _DIG) + "-" + _r(32, _HEX))
    add(
        "slack webhook",
        "POST https://hooks.slack.com/services/{s}",
        "T0" + _r(8) + "/B0" + _r(8) + "/" + _r(24),
    )
    add("stripe live", 'stripe.api_key = "{s}"', "sk_live_" + _r(24))
    add("stripe restricted", "rk_test_{s}", _r(24))
    add("npm", "//registry.npmjs.org/:_authToken={s}", "npm_" + _r(36))
    add("huggingface", "huggingface-cli login --token {s}", "hf_" + _r(34))
    add("jwt", "got back {s} from /login", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0." + _r(43))
    add(
        "private key pem",
        "{s}",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow" + _b64(60) + "\n-----END RSA PRIVATE KEY-----",
    )
    add(
        "openssh key",
        "{s}",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl"
        + _b64(60)
        + "\n-----END OPENSSH PRIVATE KEY-----",
    )
    add("twilio", "Twilio API key {s}", "SK" + _r(32, _HEX))
    add(
        "azure storage",
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={s};EndpointSuffix=core.windows.net",
        _b64(64),
    )
    add("azure sas", "https://acme.blob.core.windows.net/c?sv=2022-11-02&sig={s}", _r(43) + "%3D")
    add("docker config auth", '{{"auths": {{"ghcr.io": {{"auth": "{s}"}}}}}}', _b64(24))
    add("sentry dsn", "SENTRY_DSN=https://{s}@o4505.ingest.sentry.io/4506", _r(32, _HEX))
    add("mailgun", "mailgun key {s}", "key-" + _r(32, _HEX))
    add("digitalocean", "doctl auth init -t {s}", "dop_v1_" + _r(64, _HEX))
    add("discord webhook", "https://discord.com/api/webhooks/{s}", "1098765432109876543/" + _r(68))
    add("linear", "LINEAR_API_KEY: {s}", "lin_api_" + _r(40))
    add("age", "{s}", "AGE-SECRET-KEY-1" + _r(58, _UP + _DIG))
    add("firebase fcm", "server key {s}", "AAAA" + _r(7) + ":APA91b" + _r(134))
    add("shopify", "X-Shopify-Access-Token: {s}", "shpat_" + _r(32, _HEX))
    add("sendgrid", "SENDGRID_API_KEY={s}", "SG." + _r(22) + "." + _r(43))
    add("pypi", "twine upload -p {s} dist/*", "pypi-AgEIcHlwaS5vcmc" + _r(60))
    add("telegram bot", "https://api.telegram.org/bot{s}/sendMessage", "5123456789:AA" + _r(33))
    add("square", "square token {s}", "sq0atp-" + _r(22))
    add("databricks", "databricks token {s}", "dapi" + _r(32, _HEX))
    add("doppler", "doppler configure set token {s}", "dp.pt." + _r(43))
    add("pulumi", "pulumi login with {s}", "pul-" + _r(40, _HEX))
    add("postman", "{s}", "PMAK-" + _r(24, _HEX) + "-" + _r(34, _HEX))
    add("grafana cloud", "grafana: {s}", "glc_" + _r(48))
    add("grafana sa", "{s}", "glsa_" + _r(32) + "_" + _r(8, _HEX))
    add("new relic", "NEW_RELIC_API_KEY {s}", "NRAK-" + _r(27, _UP + _DIG))
    add("atlassian", "jira token {s}", "ATATT3xFfGF0" + _r(170))
    add("vault", "VAULT_TOKEN {s}", "hvs." + _r(90))
    add(
        "terraform cloud",
        'credentials "app.terraform.io" {{ token = {s} }}',
        _r(14) + ".atlasv1." + _r(67),
    )
    add("figma", "figma {s}", "figd_" + _r(40))
    add("dropbox", "dropbox {s}", "sl." + _r(136))
    add("airtable", "{s}", "pat" + _r(14) + "." + _r(64, _HEX))
    add("notion", "NOTION {s}", "ntn_" + _r(11, _DIG) + _r(35))
    add("supabase", "supabase login --token {s}", "sbp_" + _r(40, _HEX))
    add("fly.io", "fly tokens: {s}", "fo1_" + _r(43))
    add("groq", "GROQ {s}", "gsk_" + _r(52))
    add("replicate", "REPLICATE {s}", "r8_" + _r(37))
    add("perplexity", "pplx {s}", "pplx-" + _r(48))
    add("xai", "grok via {s}", "xai-" + _r(80))
    add("azure ad secret", "client secret {s}", _r(3) + "8Q~" + _r(34))
    add("mapbox", "mapbox {s}", "sk.eyJ1Ijoi" + _r(40) + "." + _r(22))
    add("tailscale", "tailscale up --authkey {s}", "tskey-auth-" + _r(30))
    add("sourcegraph", "{s}", "sgp_" + _r(40, _HEX))
    add("buildkite", "{s}", "bkua_" + _r(40, _HEX))
    add("contentful", "{s}", "CFPAT-" + _r(43))
    add("rubygems", "GEM_HOST_API_KEY {s}", "rubygems_" + _r(48, _HEX))
    add("planetscale", "{s}", "pscale_tkn_" + _r(43))
    add("dynatrace", "{s}", "dt0c01." + _r(24, _UP + _DIG) + "." + _r(64, _UP + _DIG))
    add("mailchimp", "mc key {s}", _r(32, _HEX) + "-us21")
    add("facebook", "fb token {s}", "EAAB" + _r(120))
    add("twitter bearer", "twitter bearer {s}", "A" * 22 + _r(80))
    add("langsmith", "LANGCHAIN_API_KEY {s}", "lsv2_pt_" + _r(32, _HEX) + "_" + _r(10, _HEX))
    add("circleci", "{s}", "CCIPAT_" + _r(22) + "_" + _r(40, _HEX))
    add("clojars", "{s}", "CLOJARS_" + _r(60, _LO + _DIG))
    add("cloudflare origin ca", "{s}", "v1.0-" + _r(24, _HEX) + "-" + _r(146, _HEX))
    add("deepseek", "deepseek {s}", "sk-" + _r(32, _HEX))
    add("easypost", "{s}", "EZAK" + _r(54))
    add("heroku", "heroku {s}", "HRKU-" + _r(36))
    add("infracost", "{s}", "ico-" + _r(32))
    add("jfrog", "{s}", "AKCp" + _r(69))
    add("netlify", "{s}", "nfp_" + _r(40))
    add("prefect", "{s}", "pnu_" + _r(36))
    add("readme", "{s}", "rdme_" + _r(70, _LO + _DIG))
    add("render", "{s}", "rnd_" + _r(32))
    add("sentry auth token", "{s}", "sntrys_" + _r(60))
    add("typeform", "{s}", "tfp_" + _r(44))
    add("vercel", "{s}", "vcp_" + _r(48))
    add("k8s secret data", "data:\n  password: {s}\n", _b64(12))
    add("connection string", "Server=db;Database=shop;User Id=sa;Password={s};", _r(14))
    return e


def _lookalikes() -> list[str]:
    return [
        "commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 fixed the flaky test",
        "git checkout 9fceb02 && git rebase -i HEAD~3",
        "request id 550e8400-e29b-41d4-a716-446655440000 timed out",
        "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "image digest sha256:" + _r(64, _HEX),
        "md5 " + _r(32, _HEX) + " matches the fixture",
        "fixture = base64.b64decode('SGVsbG8sIFdvcmxkIQ==')",
        "arn:aws:iam::123456789012:role/deploy-role",
        "arn:aws:s3:::acme-backups/2024/",
        "the_very_long_identifier_name_for_the_retry_policy_handler = 3",
        "password_reset_url = https://example.com/reset",
        "token_count = 4096",
        "DB_PASSWORD=<your-password-here>",
        "API_KEY=${API_KEY}",
        "password: '{{ vault_db_password }}'",
        "secret: os.environ['DEPLOY_SECRET']",
        "The password is stored in 1Password, not in the repo.",
        "the staging password is required for the deploy step",
        "The admin password is wrong.",
        "the password is usually in the team vault",
        "the password is the same as last quarter's",
        "the token is expired, run gh auth login again",
        "We keep the api_keys table in Postgres.",
        "valueFrom:\n  secretKeyRef:\n    name: db-creds\n    key: password",
        "GitHub tokens start with ghp_ and scanners catch them.",
        "Use --password-stdin with docker login.",
        "mysql -u root -p shop  # prompts for the password",
        "ssh -p 2222 deploy@host",
        "AKIAIOSFODNN7EXAMPL is not twenty characters",
        "pip install --upgrade pip setuptools wheel",
        "localhost:8080/api/v1/users?page=2&limit=50",
        "version 1.2.3-rc.4+build.5678",
        "chmod 600 ~/.ssh/id_ed25519",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + _r(43) + " dev@laptop",
        "The secret is to keep the retry window short.",
        "Passwords are hashed with argon2id.",
        "The access key rotation runbook lives in docs/ops.md.",
        "pin numpy to 1.26 until the ABI break is fixed",
        "ORDER BY created_at DESC LIMIT 20",
        "UUID4: " + "6fa459ea-ee8a-3ca4-894e-db77e160355e",
        "test vectors: deadbeefdeadbeefdeadbeefdeadbeef",
        "Content-Type: application/json; charset=utf-8",
        "export PATH=$HOME/.local/bin:$PATH",
        "user admin, role viewer",
        "log in as admin / use the SSO button",
        "tokens per second: 85.3",
        "the CI token is rotated every 90 days",
        "s3://acme-artifacts/builds/2024-10-01/app.tar.gz",
        "PWD=/home/dev/project",
        "sk-learn-compatible estimators",
        "Set-Cookie: theme=dark; Path=/",
        "X-Request-Id: 4bf92f3577b34da6a3ce929d0e0e4736",
        "Bearer tokens go in the Authorization header.",
        "ghp_ prefixes are for classic tokens, github_pat_ for fine-grained ones",
        *[f"reverted {_r(40, _HEX)} after the release" for _ in range(10)],
        *[
            f"trace {_r(8, _HEX)}-{_r(4, _HEX)}-4{_r(3, _HEX)}-a{_r(3, _HEX)}-{_r(12, _HEX)}"
            for _ in range(10)
        ],
        *[f"assert decode('{_b64(15)}') == expected" for _ in range(10)],
        *[
            f"arn:aws:lambda:eu-west-1:{_r(12, _DIG)}:function:{_r(8, _LO)}-handler"
            for _ in range(5)
        ],
        *[f"build {_r(7, _HEX)} passed in {_rng.randint(2, 90)}s" for _ in range(10)],
        *[
            f"the {_r(6, _LO)}_{_r(6, _LO)}_{_r(6, _LO)}_{_r(6, _LO)} helper is unused"
            for _ in range(5)
        ],
    ]


SECRETS: list[tuple[str, str, str]] = _entries()
LOOKALIKES: list[str] = _lookalikes()
