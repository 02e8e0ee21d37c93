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
        "an enum's entry named by itself",
        'Script/L_Enum.lua:58: New_Pass = "New_Pass", -- regenerate a random password',
        'Script/config.lua:12: Admin_Pass = "Kq7vX2mLp9Wz", -- the console password',
        "Kq7vX2mLp9Wz",
    ),
    (
        "a path after 'as' is no user and password",
        "Imported sounds appear as Asset/WwiseEvent/<Name>.uasset in the content browser",
        "log in as admin / Sup3rS3cretPw9 on the staging box",
        "Sup3rS3cretPw9",
    ),
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
        "a word install, then hex",
        "INSTALL 00011122334AB4CD ",
        "cloudflared service install 00011122334AB4CD ",
        "00011122334AB4CD",
    ),
    (
        "template literal",
        "const startDate = new Date(`${dateTo}T00:00:00.000Z`);",
        'const client = new Client("sk9Xq2LmZ8wV4nR7tY3p");',
        "sk9Xq2LmZ8wV4nR7tY3p",
    ),
    (
        "a clock time and a script's line and function",
        "\x1b[0;36m[INFO][2025-08-25 16:41:50.093][build-live.sh:2899:setup_repositories]"
        "\x1b[0m Updating package lists\n"
        "[2025-08-25 16:01:52.572][build-live.sh:1482:install_category] DNS failed",
        "db.internal:5432:appdb:appuser:Tq7xLm2pWz9",
        "Tq7xLm2pWz9",
    ),
    (
        "a Google Drive or Sheets id",
        '"documentId": { "__rl": true, "value": "13CpJgSlDVwX02bCWsmy-SpICzFnaTHwHw5FBG9s8bDU", '
        '"mode": "list" },\n'
        '\\"folderId\\": { \\"__rl\\": true, \\"value\\": '
        '\\"1m0b3eOAH-uMK73DgY25JwEDTxog5ozTq\\" }\n'
        "https://docs.google.com/spreadsheets/d/13CpJgSlDVwX02bCWsmy-SpICzFnaTHwHw5FBG9s8bDU/edit "
        "https://drive.google.com/drive/folders/1m0b3eOAH-uMK73DgY25JwEDTxog5ozTq",
        '"documentId": "13CpJgSlDVwX02bCWsmy-SpICzFnaTHwHw5FBG9s8bDU", '
        '"apiKey": { "__rl": true, "value": "Xk9qLm2Zp8Wv4nR7tY3pQa6Bc1De5Fg0" }',
        "Xk9qLm2Zp8Wv4nR7tY3pQa6Bc1De5Fg0",
    ),
    (
        "a stored password hash",
        '{"usuario": "admin", '
        '"password": "5497feda4f88c5ebadc4de1587dd3828ca535bf85f4b5e91aa7e8a8c13178622"}\n'
        'password_hash = "$2b$12$KIXQJ9q1yQe8Zl0eW6Qp3uS5mVv7b8H9gRr2tT4yU6iO8pA0sD1fG"\n'
        "password: $argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo",
        "DB_PASSWORD=5497feda4f88c5ebadc4de1587dd3828ca535bf85f4b5e91aa7e8a8c13178622",
        "5497feda4f88c5ebadc4de1587dd3828ca535bf85f4b5e91aa7e8a8c13178622",
    ),
    (
        "a stored hash's tail after its last $",
        "the password: $2y$10$abcdefghijklmnopqrstuuOQ3u0p7b0H9m7o1GmQ4m8B5cWl0nB2a\n"
        "Password:\n$2b$12$Xk9mQ2vL7pR4sT8wZ3yB6cNabcdefghijklmnopqrstuvwxyz0123\n"
        "root password: $6$rounds=5000$saltsalt$Dk9yXH0qeJx3Wl8m4C1Q9Kp6s2Z7vB5nT0rY8uE3iO1aG4h",
        "the password: Xk9mQ2vL7pR4sT8wZ3yB6cN",
        "Xk9mQ2vL7pR4sT8wZ3yB6cN",
    ),
    (
        "a password prompt, then what npm printed",
        "npm login\nUsername: alice\nPassword: npm ERR! code E401\n"
        "Password: npm notice Log in on https://registry.npmjs.org/\n"
        "Password: Enter one-time password:",
        "Username: alice\nPassword: s3cretPw9\nnpm ERR! code E401",
        "s3cretPw9",
    ),
    (
        "a masked placeholder",
        'GOOGLE_GEMINI_API_KEY="[MASKED_GEMINI_KEY]"\nSUPABASE_ANON_KEY: "[MASKED_SUPABASE_KEY]"',
        'GOOGLE_GEMINI_API_KEY="AIzaSyD8kQ2mV7xL4nR9tP3wZ6bC1eF5gH0jK2s"',
        "AIzaSyD8kQ2mV7xL4nR9tP3wZ6bC1eF5gH0jK2s",
    ),
    (
        "an auth method's name",
        "ssl = on\npassword_encryption = scram-sha-256\n#password_encryption = md5",
        "db_password = Tq7xLm2pWz9",
        "Tq7xLm2pWz9",
    ),
    (
        "a value read from a mapping",
        "User(email=validated_data['email'], password=validated_data['password'])",
        "User(email='a@b.co', password='Tq7xLm2pWz9')",
        "Tq7xLm2pWz9",
    ),
    (
        "a default generated by a command",
        "DB_PASSWORD=\"${DB_PASSWORD:-$(openssl rand -base64 32 | tr -d '=+/' | cut -c1-25)}\"",
        'DB_PASSWORD="${DB_PASSWORD:-Tq7xLm2pWz9}"',
        "Tq7xLm2pWz9",
    ),
    (
        "a constant's name",
        "env:\n  ANTHROPIC_BASE_URL: http://127.0.0.1:15721\n"
        "  ANTHROPIC_AUTH_TOKEN: PROXY_MANAGED\n"
        '{"env": {"ANTHROPIC_AUTH_TOKEN": "PROXY_MANAGED"}}',
        "env:\n  ANTHROPIC_AUTH_TOKEN: Kx9QM2PT7ZRw4nL8",
        "Kx9QM2PT7ZRw4nL8",
    ),
    (
        "a value naming its own key",
        "const PORTAL_FEATURE_CONFIG_KEY = {\n  AUDIT_LOG: 'feature_audit_log',\n"
        "  API_KEY: 'feature_api_key',\n  DASHBOARD: 'feature_dashboard',\n};",
        "const CONFIG = {\n  API_KEY: 'x7Kp2mQ9vL4nR8sT',\n};",
        "x7Kp2mQ9vL4nR8sT",
    ),
    (
        "a path on disk",
        "== Task3 Basic Checks ==\n[1/5] Required structure\n"
        "PASS: /home/pirate/Documents/Projects/task3/repo/backend\n"
        "PASS: /home/pirate/Documents/Projects/task3/repo/frontend\n"
        'ls -la 2>&1 | tail -50" && pwd -P >| /var/folders/hk/gw4sz_bx6m3_sxgj_kxjpj1w0000gn/T/'
        "claude-2d2b-cwd\ntotal 0",
        "USER: admin PASS: Tq7x/Lm2pWz9 HOST: dbserver01",
        "Tq7x/Lm2pWz9",
    ),
    (
        "a call through a module's path",
        "let session_token = security::random_token();\n"
        "let session_hash = security::sha256_hex(session_token.as_bytes());",
        'let session_token = "x7Kp2mQ9vL4nR8sT";',
        "x7Kp2mQ9vL4nR8sT",
    ),
    (
        "an import's names",
        "import { COUNTRY as countryList, BACKUP_LOCATION_I18N } from '@vivotek/const-vsaas';",
        "log in as admin, Sup3rS3cretPw9",
        "Sup3rS3cretPw9",
    ),
    (
        "an nginx upstream",
        "location / {\n    proxy_pass http://localhost:3000;\n}\n"
        "location /api {\n    proxy_pass http://localhost:8000;\n    grpc_pass "
        "grpc://127.0.0.1:9000;\n}",
        "location / {\n    proxy_pass http://admin:Tq7xLm2pWz9@localhost:3000;\n}",
        "Tq7xLm2pWz9",
    ),
    (
        "half of a bold phrase",
        "Now I see how they did it! The secret is **CSS Grid**, not Flexbox.\n"
        "1. **Access token is now memory-only** -- `accessToken` starts as `null`.",
        "The password is **Tq7xLm2pWz9**, not the old one.",
        "Tq7xLm2pWz9",
    ),
    (
        "a Tailscale public key",
        '{ "ID": "ngALMov3o311CNTRL", '
        '"PublicKey": "nodekey:ee9b7d1c9ad857afb25794815fe4198c80c50f2615e6f5856467223c0a66eb58",\n'
        '"Peer": { "nodekey:52b431379a7df05dba8c85d9adbf5f39c746c9740b0f3cbde2bc1bfedb5b2f3e": {',
        '{ "PrivateKey":\n'
        '"privkey:ee9b7d1c9ad857afb25794815fe4198c80c50f2615e6f5856467223c0a66eb58" }',
        "ee9b7d1c9ad857afb25794815fe4198c80c50f2615e6f5856467223c0a66eb58",
    ),
    (
        "a sentence in Chinese",
        "目前reseller已經有做相同的東西, "
        "end user portal這邊就拿它們樣式使用, 具體改動請看下方的圖。",
        "目前reseller已經有做相同的東西, end user portal, Sup3rS3cretPw9",
        "Sup3rS3cretPw9",
    ),
    (
        "a placeholder asking to be changed",
        "JWT_SECRET=change-this-to-a-secure-secret-at-least-32-chars\n"
        "ENCRYPTION_KEY=change-this-to-32-char-aes-key!!",
        "JWT_SECRET=x7Kp2mQ9vL4nR8sTq3Zw",
        "x7Kp2mQ9vL4nR8sTq3Zw",
    ),
    (
        "a constant's name, then an escaped newline",
        '"\\"\\"\\"\\n 333→     if not api_key:\\n 334→         api_key = GROQ_BUILTIN_KEY\\n'
        " 335→     if progress_cb:",
        '"\\"\\"\\"\\n 333→     if not api_key:\\n 334→         api_key = x7Kp2mQ9vL4nR8sTq3Zw\\n'
        " 335→     if progress_cb:",
        "x7Kp2mQ9vL4nR8sTq3Zw",
    ),
    (
        "a default that says the value is generated",
        "  KEY_VAULT_MASTER_KEY: ${BACKEND_KEY_VAULT_MASTER_KEY:-AUTO_GENERATE}",
        "  KEY_VAULT_MASTER_KEY: ${BACKEND_KEY_VAULT_MASTER_KEY:-Tq7xLm2pWz9}",
        "Tq7xLm2pWz9",
    ),
    (
        "a condition's name",
        "export const ErrorCodes = {\n  INVALID_CREDENTIALS: 'AUTH_001',\n"
        "  ACCOUNT_LOCKED: 'AUTH_002',\n  TOKEN_EXPIRED: 'AUTH_003',\n"
        "  PASSWORD_TOO_SHORT: 'AUTH_005',\n  USERNAME_TAKEN: 'AUTH_006',\n};",
        "export const Defaults = {\n  ADMIN_PASSWORD: 'Tq7xLm2pWz9',\n};",
        "Tq7xLm2pWz9",
    ),
    (
        "a versioned name",
        "The cache key is `greenleaf-kb-v2-`<userId> so per-user caches are isolated.\n"
        "const KEY = 'fleetlease_offline_queue_v1';",
        "const KEY = 'x7Kp2mQ9vL4nR8sTq3Zw';",
        "x7Kp2mQ9vL4nR8sTq3Zw",
    ),
    (
        "a variable passed as the authorization",
        "user = get_current_user(authorization=auth_header, db=db)",
        'user = get_current_user(authorization="Bearer x7Kp2mQ9vL4nR8sTq3Zw", db=db)',
        "x7Kp2mQ9vL4nR8sTq3Zw",
    ),
    (
        "a name said to be missing",
        "// ── No token: all endpoints must return 401 ─────────────",
        "// token: x7Kp2mQ9vL4nR8sT",
        "x7Kp2mQ9vL4nR8sT",
    ),
    (
        "a quoted phrase's first word",
        'E2E: Admin login flow and "Batch Onboarding" file upload.',
        'E2E: Admin login flow and "Tq7x9Lm2pWz9" for the demo.',
        "Tq7x9Lm2pWz9",
    ),
    (
        "an nginx upstream named in prose",
        "The proxy_pass is `http://backend:3000` — that should resolve within Docker.",
        "The proxy_pass is `http://admin:Tq7xLm2pWz9@backend:3000` — that should resolve.",
        "Tq7xLm2pWz9",
    ),
    (
        "a password a test means to be wrong",
        "resp = client.post('/login', json={'email': 'a@test.com', 'password': 'wrongpass'})",
        "resp = client.post('/login', json={'email': 'a@test.com', 'password': 'Tq7xLm2pWz9'})",
        "Tq7xLm2pWz9",
    ),
    (
        "a one-letter stub",
        "await createUser({ username: 'x', password: 'p', role: 'admin' })",
        "await createUser({ username: 'x', password: 'Tq7xLm2pWz9', role: 'admin' })",
        "Tq7xLm2pWz9",
    ),
    (
        "a query parameter's own value",
        "GET https://acs.h.alibaba.com/h5/mtop.im.query/1.0/?jsv=2.7.2&appKey=24889839"
        "&t=1777777562724&sign=546c401d7165df12094df818fe8885e3&api=mtop.im.query&v=1.0\n"
        '{"url":"https://acs.h.alibaba.com/h5/mtop.im.list/1.0/?jsv=2.7.2&appKey=24889839&t=1777",'
        '"body":"{}"}\n'
        "GET https://aplus.alibaba.com/sc.ma.im?gmkey=CLK&gokey=ext%3DvisibilityChange%2526sdk"
        "Version%253D5.0.110%2526fetchHis%253D2%2526operateContent%253D%25257B%252522action",
        "GET https://api.example.com/data?appKey=x7Kp2mQ9vL4nR8sTq3Zw&t=1777777562724",
        "x7Kp2mQ9vL4nR8sTq3Zw",
    ),
    (
        "an encrypted id",
        '{"aliId":"133756334970","accountId":1049225359,'
        '"aliIdEncrypt":"MC1IDX1ZNLMUHaB0j3en7hlp8dSKSeihIFFhtjDrdoKu6OfgwbDOKrGV4t9BHrnG3aECH2z",'
        '"accountIdEncrypt":"MC1IDX19X57zebQ8U-Ib-2WtUFmx4O4zXB3ynzgruXlI5j5E8v9RZv2Y-1xwpv5L2_l_3fV"}',
        '{"aliId":"133756334970",'
        '"data":"MC1IDX1ZNLMUHaB0j3en7hlp8dSKSeihIFFhtjDrdoKu6OfgwbDOKrGV4t9BHrnG3aECH2z"}',
        "MC1IDX1ZNLMUHaB0j3en7hlp8dSKSeihIFFhtjDrdoKu6OfgwbDOKrGV4t9BHrnG3aECH2z",
    ),
    (
        "a terminal's colour codes around a value",
        "Finding:     AKIA...\nSecret: \x1b[1;3;mREDACTED\x1b[0m\nRuleID: twilio-account-sid",
        "Finding:     AKIA...\nSecret: \x1b[1;3;mTq7xLm2pWz9Kd\x1b[0m\nRuleID: generic-api-key",
        "Tq7xLm2pWz9Kd",
    ),
    (
        "a token signed with a word",
        "SUPABASE_SERVICE_ROLE_KEY=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1zcnYiLCJyb2xlIjoic2VydmljZV9yb2xlIiwiaWF0IjoxNzA2MTQwMDAwLCJleHAiOjIwMjE3MDAwMDB9.service\n"
        "  environment:\n    ANON_KEY: ${ANON_KEY:-eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.anon}\n",
        "SUPABASE_SERVICE_ROLE_KEY=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1zcnYiLCJyb2xlIjoic2VydmljZV9yb2xlIiwiaWF0IjoxNzA2MTQwMDAwLCJleHAiOjIwMjE3MDAwMDB9.aPtHj__flbJR4PGCX7tFck7I3MkG-OV57eP5cCDbIH4\n",
        "aPtHj__flbJR4PGCX7tFck7I3MkG-OV57eP5cCDbIH4",
    ),
    (
        "a shell default asking to be changed",
        "GOTRUE_JWT_SECRET: ${JWT_SECRET:-change-me-in-production}\n"
        'echo "GITHUB_TOKEN=${GITHUB_TOKEN:-(not set)}"\n'
        "SUPAVISOR_SECRET_KEY=supavisorsecretkeychangeinproduction2025\n",
        "GOTRUE_JWT_SECRET: ${JWT_SECRET:-Tq7xLm2pWz9Kd}\n",
        "Tq7xLm2pWz9Kd",
    ),
    (
        "an expression compared",
        "app.use(cors({ origin: corsOrigin, credentials: corsOrigin !== '*' }));",
        "app.use(cors({ origin: corsOrigin, credentials: 'Tq7xLm2pWz9Kd' }));",
        "Tq7xLm2pWz9Kd",
    ),
    (
        "a Windows drive's path",
        "[error] Command failed: cygpath -u 'C:\\Users\\Mischa\\AppData\\Local\\Temp'",
        "curl -u 'admin:Tq7xLm2pWz9Kd' https://example.com/api",
        "Tq7xLm2pWz9Kd",
    ),
    (
        "a possessive and a label in prose",
        "the full history including both user prompts and Claude's responses?\n"
        "For the create user modal, fields: Name, Email, Password, Role.",
        "Log in as user admin and Tq7xLm2pWz9Kd for the demo.",
        "Tq7xLm2pWz9Kd",
    ),
    (
        "a made-up example and a test's stub",
        '# BAD (will be auto-redacted)\nAPI_KEY = "sk-ant-api03-real-secret"\n'
        "echo 'API_KEY=\"sk-ant-api03-test123\"' > test.py\n"
        'self.app_secret = "test_app_secret"\n'
        '"tenant_access_token": "test_token_123"\n'
        'curl -d \'{"email":"test","password":"test"}\'\n'
        "Github_Token=github_pat_xxx\n",
        'API_KEY = "sk-ant-api03-Tq7xLm2pWz9KdR4vB8nM3cX6zL1qW5eY9tU2iO7pA"\n'
        'self.app_secret = "test_Tq7xLm2pWz9Kd"\n',
        "Tq7xLm2pWz9Kd",
    ),
    (
        "a short query parameter",
        'curl -s "https://apiv6.tappy.id/public-settings/primaryColorLight?token=wtV" 2>&1',
        'curl -s "https://api.example.com/settings?token=Tq7xLm2pWz9KdR4vB8nM" 2>&1',
        "Tq7xLm2pWz9Kd",
    ),
    (
        "a name quoted as a pattern",
        'JWT_SECRET_EXISTING="$(grep -E \'^JWT_SECRET=\' "$ENV_PATH" 2>/dev/null'
        " | head -1 | cut -d'=' -f2-)\"",
        "JWT_SECRET='Tq7xLm2pWz9Kd' ./deploy.sh",
        "Tq7xLm2pWz9Kd",
    ),
    (
        "a value a diff or a terminal wrapped",
        "      3 -NEXT_PUBLIC_SUPABASE_ANON_KEY=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
        "eyJpc3MiOiJuZXh0bWF2ZW5zLmNsb3VkIiwicm9sZSI6ImFub24iLCJpYXQiOjE3M\n"
        "        -DYxNDAwMDAsImV4cCI6MjAyMTcwMDAwMDB9.anon\n",
        "  ⎿ SUPABASE_ANON_KEY=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
        "eyJpc3MiOiJzdXBhYmFzZSIsInJlZiI6Im5leHRtYXZlbnMiLCJyb2xlIjoiYW5vbiIsImlhdCI6MTc2OTMy\n"
        "    MjI0OSwiZXhwIjoxODAwODU4MjQ5fQ.yhX-uEhT0slUepLH6Eh93lgFGVnFyu90NoGyzOW9HV4\n"
        "       57    Github_Token="
        "github_pat_11BMOUMXI0ZSNnyGZAWnRi_sYCtdwncvZlC2cTEMRoI0rtBxB7Xp83vKg\n"
        "            gLC6meHJ5LJ4KZ6Vani72v\n",
        "yhX-uEhT0slUepLH6Eh93lgFGVnFyu90NoGyzOW9HV4",
    ),
    (
        "letters of a CJK phrase",
        '    """发送消息\n    Args:\n        api_key: API密钥（可选）\n'
        '    Returns: API响应字典\n    """',
        "        api_key: Tq7xLm2pWz9Kd（可选）\n",
        "Tq7xLm2pWz9Kd",
    ),
    (
        "a function called",
        "const helpDeskCredential = string2Base64(`${this.helpDeskId}:${this.helpDeskToken}`);",
        "const helpDeskCredential = 'Tq7x9Lm2pWz9Kd!';",
        "Tq7x9Lm2pWz9Kd!",
    ),
    (
        "the word its name ends with",
        "cloudinary.config({ cloud_name: 'yourname', api_key: 'key', api_secret: 'secret' });",
        "cloudinary.config({ cloud_name: 'yourname', api_key: 'Tq7xLm2pWz9Kd' });",
        "Tq7xLm2pWz9Kd",
    ),
    (
        "a key's id",
        "command: gpg --list-secret-keys 8E1F899571345D06 2>&1 | head -5\n"
        "git config --global user.signingkey 8E1F899571345D06\n",
        "command: gpg --list-secret-keys Tq7xLm2pWz9KdR4vB8nM 2>&1 | head -5\n",
        "Tq7xLm2pWz9Kd",
    ),
    (
        "a thinking block's signature",
        '{"type":"thinking","thinking":"很好，README 已经更新完成。",'
        '"signature":"Ev4BCkYIChgCKkCineRrudbR27GyNAtgJ7/soUgFA+rdzBhhH0xJw9ESF76NOmlhvuac/'
        'SnRWcX86Az/n19qXzUbSFGkIYjVIYcoEgzu"}',
        '{"type":"webhook","secret":"whsec_x","signature":"Ev4BCkYIChgCKkCineRrudbR27GyNAtgJ7/so'
        'UgFA+rdzBhhH0xJw9ESF76NOmlhvuac/SnRWcX86Az/n19qXzUbSFGkIYjVIYcoEgzu"}',
        "Ev4BCkYIChgCKkCineRrudbR27GyNAtgJ7",
    ),
    (
        "a file's name in a URL",
        "Invoke-WebRequest -Uri https://nodejs.org/dist/v26.4.0/node-v26.4.0-win-x64.zip"
        " -OutFile n.zip",
        "curl https://eth-mainnet.g.alchemy.com/v2/Tq7xLm2pWz9KdR4vB8nMq3Zw",
        "Tq7xLm2pWz9Kd",
    ),
    # (the sixth blind set's families: brain/home/secrets/standins.py)
    (
        "a value saying it is a test's, then punctuation",
        'command: SECRET_KEY="test-secret-key-32-chars-minimum!!" python -c "from server.config '
        'import settings"',
        'command: SECRET_KEY="Tq7xLm2pWz9KdR4vB8nMq3Zw!!" python -c "from server.config import '
        'settings"',
        "Tq7xLm2pWz9KdR4vB8nMq3Zw",
    ),
    (
        "base64 of a placeholder",
        "+JWT_SECRET=change-me-in-production\n"
        "+KYC_ENCRYPTION_KEY=ZmFrZS1reWMtZW5jcnlwdGlvbi1rZXktMzItYnl0ZXMK\n*** End Patch",
        "+JWT_SECRET=change-me-in-production\n"
        "+KYC_ENCRYPTION_KEY=q3ZwTq7xLm2pWz9KdR4vB8nMq3ZwTq7xLm2pWz9KdR4=\n*** End Patch",
        "q3ZwTq7xLm2pWz9KdR4vB8nM",
    ),
    (
        "a provider's prefix, then a sequence",
        'hf_hub_download(repo_id=cfg.repo, cache_dir=expected_cache, token="hf_abc123", '
        "local_files_only=False, )",
        "hf_hub_download(repo_id=cfg.repo, cache_dir=expected_cache, "
        'token="hf_Tq7xLm2pWz9KdR4vB8nMq3ZwXyPq", local_files_only=False, )',
        "Tq7xLm2pWz9KdR4vB8nMq3Zw",
    ),
    (
        "a wrong password a probe sends",
        "curl -s -X POST http://3.19.25.92:5050/login -d "
        '"username=testuser&password=wrongpassword" | head -40',
        "curl -s -X POST http://3.19.25.92:5050/login -d "
        '"username=testuser&password=Tq7xLm2pWz9K" | head -40',
        "Tq7xLm2pWz9K",
    ),
    (
        "a build secret's id",
        "buf-gen:\n\tdocker build --progress=plain \\\n\t\t--secret "
        'id=gh_auth_token,env=GH_AUTH_TOKEN \\\n\t\t--build-arg services="${FILES}" \\',
        "buf-gen:\n\tdocker build --progress=plain \\\n\t\t--build-arg "
        'GH_AUTH_TOKEN=Tq7xLm2pWz9KdR4vB8nMq3Zw \\\n\t\t--build-arg services="${FILES}" \\',
        "Tq7xLm2pWz9KdR4vB8nMq3Zw",
    ),
    (
        "a time where a seed stands",
        '## Draw Document\n```json\n{ "numbers": [12, 6], "seed": '
        '"2025-11-06T12:10:00.000Z#b1d93", "startedAt": "2025-11-06T12:10:00.000Z" }',
        '## Draw Document\n```json\n{ "numbers": [12, 6], "seed": "Tq7xLm2pWz9KdR4vB8nMq3Zw", '
        '"startedAt": "2025-11-06T12:10:00.000Z" }',
        "Tq7xLm2pWz9KdR4vB8nMq3Zw",
    ),
    (
        "public addresses a plural names",
        "pricesWithPrices.ts:66 [Autopilot] Token mints (first 3): (3) "
        "['DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263', "
        "'GMvCfcZg8YvkkQmwDaAzCtHDrrEtgE74nQpQ7xNabonk']",
        "pricesWithPrices.ts:66 [Autopilot] Token secret: Tq7xLm2pWz9KdR4vB8nMq3Zw",
        "Tq7xLm2pWz9KdR4vB8nMq3Zw",
    ),
    (
        "a ticker where a token's value stands",
        "A row should appear in the Autopilot widget showing:\n- Token: BONK\n- Time since "
        "check\n[Autopilot] First token: SYMBOL | mint: XXXXXXXX... | has data: true/false",
        "A row should appear in the Autopilot widget showing:\n- Token: Tq7xLm2pWz9KdR4v\n- Time "
        "since check",
        "Tq7xLm2pWz9KdR4v",
    ),
    (
        "a URL with nothing secret in it",
        'app.String(cli.StringOpt{Name: "mongo-dsn", EnvVar: "MONGO_URL", Value: '
        '"mongodb://localhost:27017"})',
        'app.String(cli.StringOpt{Name: "mongo-dsn", EnvVar: "MONGO_URL", Value: '
        '"mongodb://admin:Tq7xLm2pWz9K@localhost:27017"})',
        "Tq7xLm2pWz9K",
    ),
    (
        "a credential's word ending a sentence",
        "Now start both servers cleanly and print the admin login URL/password.",
        "Now start both servers cleanly. The admin login password: Tq7xLm2pWz9K",
        "Tq7xLm2pWz9K",
    ),
    (
        "a sentence where a credential's value stands",
        '"cli.store_password": "Store password securely?",\n'
        '+ "cli.auto_connect": "Auto-connect after update?",',
        '"cli.store_password": "Tq7xLm2pWz9K",\n'
        '+ "cli.auto_connect": "Auto-connect after update?",',
        "Tq7xLm2pWz9K",
    ),
    (
        "text mostly of CJK characters where a credential's value stands",
        '249 "cli.store_password": "是否安全存储密码？",\n'
        '250 "cli.password": "请输入 cpolar 密码",',
        '249 "cli.store_password": "Tq7xLm2pWz9K",\n250 "cli.password": "请输入 cpolar 密码",',
        "Tq7xLm2pWz9K",
    ),
    (
        "an error's message in Japanese where a constructor's key stands",
        "+ throw new Error('OCR処理がタイムアウトしました。画像枚数やサイズを減らすか、"
        "MOCK_OCR=1で切り分けてください。')",
        "+ const client = new Client('Tq7xLm2pWz9KdR4vB8nMq3Zw')",
        "Tq7xLm2pWz9KdR4vB8nMq3Zw",
    ),
    (
        "a message's id about a credential",
        '"cli.enter_password": "Kennwort eingeben",\n"auth.password_prompt": "Kennwort:",\n'
        '"doctor.password.not_found": "Tq7xLm2p!Wz9K",\n"passwordPlaceholder": "Ihr Kennwort",',
        '"cli.enter_password": "Kennwort eingeben",\n"cli.password": "Tq7xLm2pWz9K",',
        "Tq7xLm2pWz9K",
    ),
    (
        "a key's fingerprint after gpg's words",
        "sudo apt-key adv --keyserver hkp://keyserver.ubuntu.com:80 --recv-key "
        "F6E65AC044F831AC80A06380C8B3A55A6F3EFCDE; gpg --keyserver keys.openpgp.org "
        "--recv-keys 6F3EFCDE0A1B2C3D F6E65AC044F831AC80A06380C8B3A55A6F3EFCDE",
        "sudo apt-key adv --keyserver hkp://keyserver.ubuntu.com:80 --api-key "
        "F6E65AC044F831AC80A06380C8B3A55A6F3EFCDE",
        "F6E65AC044F831AC80A06380C8B3A55A6F3EFCDE",
    ),
    (
        "a markup attribute after an element named for a key",
        '<div className="p-3 rounded-lg">\n<KeyIcon className="w-8 h-8 text-[#ffd700]" />\n'
        '<PasswordToggle class="h-4 w-4 px-2" id="pw-toggle-1" />',
        '<div className="p-3 rounded-lg">\n<KeyIcon apiKey="Tq7xLm2pWz9KdR4vB8nMq3Zw" />',
        "Tq7xLm2pWz9KdR4vB8nMq3Zw",
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
    if family == "a value a diff or a terminal wrapped":
        assert "gLC6meHJ5LJ4KZ6Vani72v" not in out


def test_a_random_line_after_a_narrower_line_is_the_next_item_not_the_rest() -> None:
    # (a terminal wraps at 80 columns or more: a shorter line ended where its writer ended it)
    text = (
        "ngrok config add-authtoken 206cf63466e53f5965fbbf42b0fe565a2b394347\n"
        "567945970a7e183b2a7a18211cc801ae38cd153db70026b8a04cc\n"
    )
    out = redact(text)
    assert "206cf63466e53f5965fbbf42" not in out
    assert "567945970a7e183b2a7a18211cc801ae38cd153db70026b8a04cc" in out


@pytest.mark.parametrize(
    "text",
    [
        "DB_PASSWORD=abc123",  # a sequence with no provider's prefix: a password chosen
        "DB_PASSWORD=test1234",  # a test's word glued to digits: a password
        "ENCRYPTION_KEY=Tq7xLm2pWz9KdR4vB8nMq3ZwTq7xLm2pWz9KdR4vB8n=",  # base64 of bytes
        'MONGO_URL="mongodb://admin:Tq7xLm2pWz9K@localhost:27017"',  # a URL with a password
        "WEBHOOK_URL=https://hooks.slack.com/services/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",
        "password: ADMIN",  # capitals are a ticker only in a token's place
        'GPG_PASSPHRASE="Ride the blue horse home."',  # a passphrase's words, a sentence
        'storePassword = "Tq7xLm2pWz9K"',  # a keystore's password, no message's id
        'token: "新的令牌 Tq7xLm2pWz9KdR4vB8nMq3Zw 请保存"',  # a random run inside CJK prose
    ],
)
def test_what_stands_in_for_a_credential_is_told_by_what_it_says(text: str) -> None:
    assert "[REDACTED:" in redact(text)


@pytest.mark.parametrize(
    "code",
    [
        "from ardy.skeleton import SOMASkeleton30 as Ref30, SOMASkeleton77 as Ref77",
        'python -c "from pathlib import Path; import json,numpy as np,torch; print(1)"',
        "use crate::model::{Skeleton30 as Ref30, Skeleton77Mesh};",
        "participant.on(RoomEvent.TrackSubscribed as never, handleTrackSubscribed as never)",
    ],
)
def test_names_an_import_brings_in_are_no_login(code: str) -> None:
    assert redact(code) == code
    # A login said in words beside them is still one.
    said = f"{code}\nlog in as admin / Sup3rS3cretPw9 then use it as deploy, password Xk9mQ2vLp8"
    assert "Sup3rS3cretPw9" not in redact(said) and "Xk9mQ2vLp8" not in redact(said)


@pytest.mark.parametrize(
    "code",
    [
        "- 20240528133000-SeedDestinationsFromGeos.ts: "
        "src/databases/postgres/migrations/20240528133000-SeedDestinationsFromGeos.ts",
        "rows per setting (pass-through to `RateCalendarRepository.deleteByHotelRoomAndDates`)",
    ],
)
def test_a_file_path_and_a_pass_through_are_no_credential(code: str) -> None:
    assert redact(code) == code
    assert "Tundra.Orchid3751%" not in redact(f"{code}\nDB_SEED_PASSWORD=Tundra.Orchid3751%")


def test_a_value_that_counts_is_an_example_and_a_random_one_beside_it_is_not() -> None:
    example = "NEXTAUTH_SECRET: a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8s9t0"
    assert redact(example) == example
    assert redact("API_SECRET=0123456789abcdef0123") == "API_SECRET=0123456789abcdef0123"
    assert "q8Zr2mV7xK4pL9wT3nB6yH1cF5dJ0sGa" not in redact(
        f"{example}\nNEXTAUTH_SECRET: q8Zr2mV7xK4pL9wT3nB6yH1cF5dJ0sGa"
    )


@pytest.mark.parametrize(
    "code",
    [
        "const res = await fetch(`${authUrl}/token`, { credentials: 'include' });",
        "const KV_TTL = {\n  ROLE_CACHE: 60,\n  INSTALLATION_TOKEN: 3000,\n};",
        "export const JWT_SECRET = 'dev-secret-key-min-32-chars-long!!';",
        "GITHUB_WEBHOOK_SECRET=dev-webhook-secret-min-32-chars!!",
        "| Parameter | Agent must pass | Fallback |\n|---|---|---|\n"
        "| `task_type` | `args.task_type` | x |\n",
        "const apiKey = process.env.ANTHROPIC2_API_KEY || process.env.ANTHROPIC_API_KEY;",
        "const token = header?.startsWith('Bearer ') ? header.slice(7) : null;",
        "### Issue 2 — Hardcoded Credentials: **FIXED** Replaced the secrets",
        "const sessionKey = 'mohamed_twin_session_v3';",
        "AUTH0_DOMAIN=your-tenant.auth0.com",
        '{"did": "did:key:z6Mkp8cCNrPebFiCby4VdRkMB28LDz5R87HjENV4Eh5sojME", "key_file": "/k"}',
        r"await writeFile('/tmp/env.env', 'AI_API_KEY=x\n');",
        r'writeFileSync("/tmp/x.env", "AI_API_KEY=test-key\nAI_MODEL=deepseek-chat\n");',
        "curl 'http://127.0.0.1:2999/api/preview?layoutToken=bottom-text-stack&effectToken=dark'",
    ],
)
def test_options_stand_ins_and_names_beside_credential_words_are_left(code: str) -> None:
    assert redact(code) == code


@pytest.mark.parametrize(
    ("code", "secret"),
    [
        ("API_TOKEN=93817264", "93817264"),
        ("PASSWORD=4821", "4821"),
        (r'"AI_API_KEY=sk-live-9f8a7b6c5d4e3f2a1b0c\nAI_MODEL=x"', "sk-live-9f8a7b6c5d4e3f2a1b0c"),
    ],
)
def test_a_credential_is_still_found_where_those_are_left(code: str, secret: str) -> None:
    assert secret not in redact(code)
