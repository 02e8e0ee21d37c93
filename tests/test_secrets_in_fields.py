"""No secret reaches disk through a record's small fields, a commit message or the journal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from brain.api import Brain
from brain.home.git import packing
from tests.helpers import cli, git

GH_TOKEN = "ghp_Zk3Lm9Qx2Wv7Rt5Yp8Nb4Hc6Jd1Fg0Se2Ua3"
OPENAI_KEY = "sk-proj-abcdefghijklmnopqrstuvwxyzABCDEF1234"
SECRETS = (GH_TOKEN, OPENAI_KEY, "hunter2", "s3cretPass")


@pytest.fixture
def brain(home: Path) -> Brain:
    return Brain.init(home)[0]


def everything_on_disk(home: Path) -> str:
    """Every file of the home and every commit's message and diff."""
    assert packing.wait_for_background_gc(home)  # no folder of .git goes away under the walk
    files = [p for p in home.rglob("*") if p.is_file() and ".git" not in p.parts]
    texts = [p.read_text(errors="replace") for p in files]
    return "\n".join(texts) + git(home, "log", "-p", "--all")


def test_fields_reasons_and_imports_are_redacted(brain: Brain, home: Path) -> None:
    result = cli(
        "remember", "The deploy key lives in the vault.", "--key", "deploy-key",
        "--tag", f"api_key={OPENAI_KEY}", "--source", "https://bob:s3cretPass@git.example",
        "--profile", f"token={GH_TOKEN}",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    refused = cli("remember", "Hi.", "--type", f"password={GH_TOKEN}")
    assert refused.exit_code == 1 and "unknown record type" in refused.stderr
    assert GH_TOKEN not in refused.stderr
    reason = f"token={GH_TOKEN} password=hunter2"
    assert cli("archive", "deploy-key", "--reason", reason).exit_code == 0
    extra = f"aws_secret_access_key={OPENAI_KEY}"
    line = {"key": "note", "body": "Rotate keys monthly.", "note": extra}
    assert cli("import", "-", input=json.dumps(line) + "\n").exit_code == 0
    disk = everything_on_disk(home)
    assert not [s for s in SECRETS if s in disk]
    assert "[REDACTED:" in git(home, "log", "-1", "--skip=1", "--format=%B")  # the archive reason
    archived = (home / "archive" / "deploy-key.md").read_text()
    assert "[REDACTED:github_token]" in archived and "deploy key lives in the vault" in archived


def test_a_credential_in_a_setting_is_refused(brain: Brain, home: Path) -> None:
    before = git(home, "rev-parse", "HEAD")
    result = cli("config", "set", "model_api_base", f"https://user:{OPENAI_KEY}@llm.example")
    assert result.exit_code == 1
    assert "holds a credential (openai_key)" in result.stderr
    assert "keep credentials in the environment" in result.stderr
    assert git(home, "rev-parse", "HEAD") == before
    assert OPENAI_KEY not in everything_on_disk(home)


@pytest.mark.parametrize(
    "args",
    [
        [b"remember", b"ok body", b"--key", b"nb3", b"--tag", b"t\xff"],
        [b"remember", b"caf\xe9 body", b"--key", b"nb4"],
    ],
)
def test_text_that_is_not_utf8_is_refused_and_nothing_is_written(
    brain: Brain, home: Path, args: list[bytes]
) -> None:
    before = git(home, "rev-parse", "HEAD")
    cmd = [sys.executable, "-m", "brain", "--home", str(home).encode(), *args]
    done = subprocess.run(cmd, capture_output=True)
    assert done.returncode == 1, done.stderr
    assert b"is not valid UTF-8 text" in done.stderr and b"Traceback" not in done.stderr
    assert git(home, "rev-parse", "HEAD") == before
    assert git(home, "status", "--porcelain") == ""


def test_a_password_in_words_never_names_the_record(brain: Brain, home: Path) -> None:
    text = "The prod DB password is hunter2 and the AWS key is in the vault."
    result = cli("remember", text)
    assert result.exit_code == 0, result.output
    [path] = (home / "memories").glob("*.md")
    assert "hunter2" not in path.name and "redacted" not in path.name
    assert "[REDACTED:prose_secret]" in path.read_text()
    assert "hunter2" not in everything_on_disk(home) + git(home, "ls-files", "-s")


def test_a_plain_word_password_in_words_is_never_stored(brain: Brain, home: Path) -> None:
    result = cli("remember", "the staging password is plumzebra")
    assert result.exit_code == 0, result.output
    [path] = (home / "memories").glob("*.md")
    assert "[REDACTED:prose_secret]" in path.read_text()
    assert "plumzebra" not in everything_on_disk(home) + git(home, "log", "-p", "--all")


@pytest.mark.parametrize(
    "key",
    [
        "xoxp-" + "1" * 11 + "-" + "a1b2" * 8,
        "shpat_" + "0f" * 16,
        "deploy-" + "3a9f07c1d2e8b46f" * 2,
        "prod-db-password-is-hunter2",
        "the-staging-password-is-plumzebra",  # a plain word is a password too
        "staging-pw-is-plumzebra",
        "ok-the-router-pw-is-quillmoss-change-it-after-the-demo",  # the comma is gone
        "with-pul-" + "ab12" * 10,
        "db-password-correct-horse-9",  # DB_PASSWORD=correct-horse-9 made a slug
        "pgpassword-0whosyvydmqm3li9-psql",
        "aws-access-key-id-akiafp7cltmwmtuyup37",  # AKIA... lower-cased
        "supabase-token-sbp-" + "ca0ee7b9b9" * 4,  # sbp_ lost its underscore
        "buildkite-bkua-" + "ca0ee7b9b9" * 4 + "-for-ci",  # a 40-hex body, then words
        "app-url-postgres-app-wintertide73x-db-internal",  # postgres://app:PW@db.internal
        "curl-u-deploy-ember-falcon2841-https-ci",  # curl -u deploy:Ember_falcon2841
        "mysql-u-root-pkestrel-harbor5530q-h-db",  # mysql -pKestrel-harbor5530q
        "consul-http-token-5f0e2d1c-7a8b-4c9d-9e0f-1a2b3c4d5e6f",
        "dd-app-key-" + "9c1f0e7a4b" * 4,  # DD_APP_KEY=<40 hex>, not a commit
        "plaid-secret-d9885b8f1a8e15539c63e91e40b586",  # 30 hex, PLAID_SECRET= made a slug
        "the-app-specific-password-for-altool-is-qwkd-rmzt-hvpl-xcnb",
        "gmail-app-password-rvkq-nmtz-plxh-wdjc",
        "deploy-6b3234e1a60c40bea6a90d4732c376f49fb833110c360dea7cbfa963d542fc4d-prod",
        "aes-vector-0011223344556677889aabbccddeeff0-plaintext",  # one byte breaks the count
        # A typed password after any credential's name, a user or a word between.
        "export-staging-apikey-falcon-lamp7763",  # STAGING_APIKEY="Falcon_lamp7763@"
        "name-value-tavily-auth-tundra-stone4287-region-eu-west-1",
        "client-service-region-eu-auth-violetlamp9384",  # auth="violetlamp9384%"
        "driver-uri-auth-neo4j-quokka-orchid3138",  # auth=("neo4j", "quokka-Orchid3138%")
        "httpbasicauth-deploy-violet-stone6792",
        "server-login-alerts-example-com-zephyr-tiger4954",  # server.login(user, password)
        # A random run behind a service's prefix, a user, or a login.
        "ini-bearer-service-acme-graph-geoncg36hrkbi2tdvxaewc",
        "requests-get-url-auth-api-t4iavm0ndv2bcbkwbwwc",  # auth=('api', '<key>')
        "smtp-login-ops-acme-io-hsfagwlzfrfacxps5vefpk-port-587",
        # A seed phrase's words; a webhook's path.
        "mnemonic-army-actor-air-agent-aware-author-always-age-above-baby-assume",
        "seed-phrase-abstract-awkward-aspect-account-already-amateur-avocado-among",
        "https-acme-webhook-office-com-webhookb2-x-incomingwebhook-90b4b35defd56f2b50edd460b",
        "hooks-slack-com-services-t0001-b0002-q8wz3kd9xmv2rt7yplhn4cbg",
    ],
)
def test_a_key_that_holds_a_token_is_refused_without_repeating_it(
    brain: Brain, home: Path, key: str
) -> None:
    before = git(home, "rev-parse", "HEAD")
    result = cli("remember", "Where the deploy token lives.", "--key", key)
    assert result.exit_code == 1
    assert "the key holds what looks like a credential" in result.stderr
    assert key not in result.stderr and git(home, "rev-parse", "HEAD") == before
    line = {"key": key, "body": "x"}
    assert cli("import", "-", input=json.dumps(line) + "\n").exit_code == 1
    assert key not in everything_on_disk(home)


@pytest.mark.parametrize(
    "key",
    [
        "ssh-ed25519-aaaac3nzac1lzdi1nte5aaaaiyvcwizl8ozyozi55a5vk0opqbvsdajedglbapfffyig-dev",
        "test-vectors-" + "deadbeef" * 4,  # repeats a short unit: a credential is random
        "x-request-id-4bf92f3577b34da6a3ce929d0e0e4736",
        "password-reset-flow",
        "staging-password-is-stored-in-vault",
        "the-password-is-rotated-weekly",
        "vpn-password-is-required-for-staging",
        "deploy-token-location",
        "integrity-sha384-lxxg5m6htbcpawnobt7tvbenvhgmor5jxrgzmcxnd7iedc4jdufklpewpjmxignc",
        "price-price-1n8txstxpgqdhdyxzf0w9tdw",  # a Stripe object's id names a record
        "tokens-per-second-85-3",
        "password-min-length-12-password-require-symbols",
        "go-sum-h1-wcu4eivi8spdyz36usby4tcanoeb7a-srwocqsjfjy",
        "cargo-checksum-" + "8b917c4b61" * 6 + "cb7c",
        "stripe-pk-live-51j7syiqvsxo4sgxy0hyye7lrbvsmvbf13gtddf4c4b5kn",
        "wireguard-publickey-oxk40cu7n0tapn9r4uaolcnrc7kax51pch5rdscdrr4",
        "recipient-age1ppvpmy3vj0tretppjzfgrcjrn0t8usp3tglkjl2qys0y3p9n5xnwfs2yvv",
        "refund-to-0xcfab56548bc4cd09c35f8eee8b3e49a2037bc2a9",
        "tx-" + "6923f3a0bb" * 6 + "572f-confirmed",
        "begin-public-key-6y4ueixhte-yfozy1tldj9flikg-uklnq6znmrwrxwa9bbplhfk3",
        "kms-key-arn-eu-west-1-123456789012-key-b88d4cb8-4e87-480d-9e64-c4bb6e7861c1",
        "https-docs-example-com-guide-v2",
        "docker-logs-f-b9e0da2bf00193faa16df2867ed1278569f06f5951c56244a37483739917926d",
        "podman-inspect-b9e0da2bf00193faa16df2867ed1278569f06f5951c56244a37483739917926d",
        "app-password-rules-must-have-four-long-word",
        "secret-rotation-every-90-days",
        "aes-vector-00112233445566778899aabbccddeeff-plaintext",  # bytes counting up
        "iv-000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        "6b3234e1a60c40bea6a90d4732c376f49fb833110c360dea7cbfa963d542fc4d-app-2-0-1-linux-tar-gz",
        "shared-drive-file-1woiktxrsxamwae4e6dibx7s7wtk1fgfc",
        "redis-url-redis-default-redis-password-host-6379",  # ${REDIS_PASSWORD}@host:6379
        # Ordinary words naming a credential are no credential.
        "use-pnpm-not-npm",
        "postgres-password-rotation-policy",
        "api-key-rotation-every-90-days",
        "private-key-format-rsa4096",  # a size, not a typed password
        "auth-middleware-python311-compat",
        "login-flow-refactor-summer2024",  # a year says when
        "token-budget-gpt4o-128k",
        "session-timeout-3600-seconds",
        "webhooks-fixed-in-" + "3f2a9c1d8e" * 4,  # a commit's id
        "github-webhooks-delivery-ids-are-uuids",
        "mnemonic-words-never-go-into-git-or-chat-logs-ever",
        "seed-phrase-backup-on-steel-plate",
        "token-counting-tiktoken-cl100k",
    ],
)
def test_a_key_that_is_plainly_not_a_credential_is_fine(brain: Brain, home: Path, key: str) -> None:
    assert cli("remember", "A fact about it.", "--key", key).exit_code == 0
    assert (home / "memories" / f"{key}.md").is_file()


def test_a_refused_key_says_how_to_keep_a_hex_id(brain: Brain) -> None:
    result = cli("remember", "A fact.", "--key", "build-" + "4bf92f3577b34da6a3ce929d0e0e4736")
    assert result.exit_code == 1
    assert "A hex id or digest may stay if labelled (sha256-..., request-id-...)" in result.stderr


def test_a_commit_id_or_a_labelled_digest_is_a_fine_key(brain: Brain) -> None:
    for key in ("revert-" + "3f2a9c1d8e" * 4, "sha256-" + "9f86d08188" * 6 + "0f0a"):
        assert cli("remember", "A lesson from that commit.", "--key", key).exit_code == 0


@pytest.mark.parametrize(
    "text",
    [
        '{"password": "Xk7fP2qL9mW4", "username": "bob1"}',
        '{"username": "root", "password": "S3cr3t!", "host": "db01"}',
        '{"user": "ops", "pass": "Tr0ub4dor&3"}',
    ],
)
def test_a_text_remembered_without_a_key_gets_a_key_that_holds_no_credential(
    brain: Brain, home: Path, text: str
) -> None:
    """The words left around a redacted value (``password-username-bob1``) may read as a
    password and its value; the person gave no key, so brain derives one that holds none
    rather than refusing the text for a key it chose."""
    result = cli("remember", text)
    assert result.exit_code == 0, result.stderr
    from brain.home.secrets.keysecrets import key_holds_secret

    key = result.stdout.split()[1]
    assert not key_holds_secret(key)
    assert (home / "memories" / f"{key}.md").is_file()
    on_disk = everything_on_disk(home)
    assert all(value not in on_disk for value in ("Xk7fP2qL9mW4", "S3cr3t!", "Tr0ub4dor&3"))


def test_a_key_the_person_gave_is_still_refused_and_the_message_says_so(
    brain: Brain, home: Path
) -> None:
    result = cli(
        "remember", '{"username": "root", "password": "S3cr3t!"}', "--key", "root-password-s3cr3t9"
    )
    assert result.exit_code == 1
    assert "the key holds what looks like a credential" in result.stderr


def test_a_held_mcp_remember_keeps_no_secret(brain: Brain, home: Path) -> None:
    """An agent's rule that weakens a safety is held for review: held, not stored raw."""
    from brain.agents.mcp_tools import TOOLS, call_tool

    text = "machine api.acme.dev login bob password G9NW*aoDH87n37"
    result = call_tool(TOOLS["remember"], {"text": text}, home, None)
    assert not result["isError"], result
    assert "G9NW*aoDH87n37" not in everything_on_disk(home)
