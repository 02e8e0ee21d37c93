"""Redaction leaves code and tool output alone, and still finds a credential in the same
place. Each family was met in real sessions' phase-1 prompts (benchmarks/redact_markers.py):
the text on the left of each pair is what they held, the one on the right a credential
standing where the family looks."""

from __future__ import annotations

import pytest

from brain.home.secrets.redact import redact

# (family, text left as it is, text whose credential is still found, that credential)
PAIRS: list[tuple[str, str, str, str]] = [
    (
        "go test output",
        "=== RUN   TestAccountLockoutAfter5Failures\n"
        "--- PASS: TestAccountLockoutAfter5Failures (0.39s)\n"
        "--- FAIL: TestFieldCipherInvalidBase64Key (0.00s)",
        "DB_PASS: Tq7xLm2pWz9",
        "Tq7xLm2pWz9",
    ),
    (
        "a test's status, then what passed",
        'print(" PASS: FP4 E2M1 value mapping correct (scale=1.0)")\n'
        "Test 6: 2D tensors: PASS: 2D tensor quantization correct\n"
        "Test 13: PASS: NVFP4 introduces quantization noise (rel_err=0.2377)",
        "USER: admin PASS: s3cretPw9 HOST: dbserver01",
        "s3cretPw9",
    ),
    (
        "full-width punctuation ends a value",
        "# 方式1: pass_through_bwd=True（本实验使用）\nlr=6e-4，seed=42，update_freq=2",
        "api_key=sk9Xq2LmZ8wV4nR7tY3p，然后运行",
        "sk9Xq2LmZ8wV4nR7tY3p",
    ),
    (
        "version range",
        '"dependencies": { "@solana/spl-token": "^0.4.14", "jsonwebtoken": "~9.0.2" }',
        '"deploy-token": "x7Kp2mQ9vL4nR8sT"',
        "x7Kp2mQ9vL4nR8sT",
    ),
    (
        "package version",
        'dependencies:\n  "@solana/spl-token": "0.4.14"\n  @solana/spl-token: 0.4.6',
        "SPL_TOKEN: 0.4.14-Xk9qLm2Zp8Wv",
        "Xk9qLm2Zp8Wv",
    ),
    (
        "rust path",
        "use anchor_spl::token::{self, Mint, Token};\n"
        "use anchor_spl::associated_token::AssociatedToken;",
        'token: "x7Kp2mQ9vL4nR8sT"',
        "x7Kp2mQ9vL4nR8sT",
    ),
    (
        "template binding",
        '<SearchCenter :token="state.token" />\n<Inbox [token]="session.token"></Inbox>',
        '<Widget token="x7Kp2mQ9vL4nR8sT" />',
        "x7Kp2mQ9vL4nR8sT",
    ),
    (
        "shell expansion",
        'echo "PAT: ${COLOSSEUM_COPILOT_PAT:+SET}"\necho "token: ${token:0:15}..."',
        'DB_PASSWORD="${DB_PASSWORD:-Sup3rS3cret!}"',
        "Sup3rS3cret!",
    ),
    (
        "variable in an object literal",
        '{"device_id": "DEVICE-EMP-1", "qr_token": token2, "check_out_at": now}',
        '{"device_id": "DEVICE-EMP-1", "qr_token": "tok8Hq2LmZ9xW4vB"}',
        "tok8Hq2LmZ9xW4vB",
    ),
    (
        "public address",
        "Your wallet does not have a Token-2022 account for mint "
        "9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP. Create it first.",
        "Use this token: 9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP",
        "9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP",
    ),
    (
        "placeholder",
        "CIVITAS_JWT_SECRET=change-me-in-production-use-32-random-bytes\n"
        "const record = { secret: 'value' };\ntoken: \"abc\"\n- 1 token = 1 share",
        "JWT_SECRET: pet-adoption-production-secret-key-change-me-2026",
        "pet-adoption-production-secret-key-change-me-2026",
    ),
    (
        "file name and a statement's end",
        "The file should follow the same structure as sessions/bug-fix-1.json (session, date)\n"
        "return new Program(idl as Idl, provider);",
        "log in as admin / Sup3rS3cretPw",
        "Sup3rS3cretPw",
    ),
    (
        "a variable's use",
        'curl -s -H "Authorization: Bearer $COLOSSEUM_COPILOT_PAT" '
        '"$COLOSSEUM_COPILOT_API_BASE/archives/4db4fe3e-37b9-454f-9604-a3515479caa9"',
        'COLOSSEUM_COPILOT_PAT="x7Kp2mQ9vL4nR8sT9wY2"',
        "x7Kp2mQ9vL4nR8sT9wY2",
    ),
    (
        "a path of lower-case words",
        '"company":{"batchKey":"accelerator/c4","batchName":"C4"}',
        '"company":{"batchKey":"Tundra.Orchid3751%"}',
        "Tundra.Orchid3751%",
    ),
    (
        "a folder of a Windows path",
        "ERROR: Could not install packages due to an OSError: [WinError 5] Access is denied: "
        "'C:\\\\Users\\\\Hello\\\\AppData\\\\Local\\\\Temp\\\\pip-build-tracker-scl3l7qd"
        "\\\\fc12bc7001908d61eed943aeb503b83cfa2f586045f75bdfab2aff87'",
        "wandb login fc12bc7001908d61eed943aeb503b83cfa2f5860",
        "fc12bc7001908d61eed943aeb503b83cfa2f5860",
    ),
    (
        "template literal",
        "const startDate = new Date(`${dateTo}T00:00:00.000Z`);",
        'const client = new Client("sk9Xq2LmZ8wV4nR7tY3p");',
        "sk9Xq2LmZ8wV4nR7tY3p",
    ),
]


@pytest.mark.parametrize(
    ("family", "code", "credential", "secret"), PAIRS, ids=[p[0] for p in PAIRS]
)
def test_code_is_left_and_the_credential_beside_it_found(
    family: str, code: str, credential: str, secret: str
) -> None:
    assert redact(code) == code
    out = redact(credential)
    assert secret not in out and "[REDACTED:" in out
