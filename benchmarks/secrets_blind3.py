#!/usr/bin/env python3
# ruff: noqa  (a corpus written apart from brain, kept as it was written)
"""Blind test corpus for a secret redactor.

SEED = 58213   (every random value below is drawn from random.Random(SEED))

Written from general knowledge of how credentials look in the wild, without
reading the redactor, its tests or any other corpus.  Standard library only.
Writes data/secrets_blind3.json; not yet scored. Score it once, blind, with
``python benchmarks/secrets_holdout.py --data benchmarks/data/secrets_blind3.json``.
"""

import base64
import collections
import json
import random
import string
import struct
import uuid
import hashlib
import zlib

SEED = 58213
R = random.Random(SEED)
OUT = str(__import__("pathlib").Path(__file__).parent / "data" / "secrets_blind3.json")

UP, LO, DG = string.ascii_uppercase, string.ascii_lowercase, string.digits
AN = UP + LO + DG
HEX = "0123456789abcdef"
B64A = AN + "+/"
B64U = AN + "-_"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B62ORD = DG + UP + LO


# ----------------------------------------------------------------- helpers
def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def hx(n):
    return rs(HEX, n)


def HX(n):
    return rs(HEX.upper(), n)


def dg(n):
    return str(R.randint(1, 9)) + rs(DG, n - 1)


def rb(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def uid():
    b = bytearray(rb(16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    return str(uuid.UUID(bytes=bytes(b)))


def b64(b):
    return base64.b64encode(b).decode()


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def ts():
    return R.randint(1704067200, 1735603200)


def iso():
    return "2024-%02d-%02dT%02d:%02d:%02d.%03dZ" % (
        R.randint(1, 12),
        R.randint(1, 28),
        R.randint(0, 23),
        R.randint(0, 59),
        R.randint(0, 59),
        R.randint(0, 999),
    )


def jd(o):
    return json.dumps(o, separators=(",", ":"))


def jwt(hdr, pl, siglen=32):
    return b64u(jd(hdr).encode()) + "." + b64u(jd(pl).encode()) + "." + b64u(rb(siglen))


def b62(n, width):
    s = ""
    while n:
        n, r = divmod(n, 62)
        s = B62ORD[r] + s
    return s.rjust(width, "0")


def ghtok(prefix):
    """GitHub-style token: 30 random base62 chars + 6-char base62 CRC32."""
    body = rs(AN, 30)
    return prefix + body + b62(zlib.crc32(body.encode()), 6)


def b58enc(b):
    n = int.from_bytes(b, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    return "1" * (len(b) - len(b.lstrip(b"\0"))) + out


def b58check(payload):
    chk = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    return b58enc(payload + chk)


BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _polymod(values):
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = ((chk & 0x1FFFFFF) << 5) ^ v
        for i in range(5):
            if (top >> i) & 1:
                chk ^= gen[i]
    return chk


def _conv(data, frm, to):
    acc = bits = 0
    ret = []
    maxv = (1 << to) - 1
    for v in data:
        acc = (acc << frm) | v
        bits += frm
        while bits >= to:
            bits -= to
            ret.append((acc >> bits) & maxv)
    if bits:
        ret.append((acc << (to - bits)) & maxv)
    return ret


def bech32(hrp, five):
    exp = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
    pm = _polymod(exp + five + [0] * 6) ^ 1
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH[x] for x in five + chk)


def wrap(s, n=64):
    return "\n".join(s[i : i + n] for i in range(0, len(s), n))


def pem_body(der, n=64):
    return wrap(b64(der), n)


def rsa_der():
    return bytes.fromhex("308204a40201000282010100") + rb(1180)


def pkcs8_der():
    return bytes.fromhex(
        "308204be020100300d06092a864886f70d0101010500048204a8308204a40201000282010100"
    ) + rb(1180)


def ec_der():
    return (
        bytes.fromhex("30770201010420")
        + rb(32)
        + bytes.fromhex("a00a06082a8648ce3d030107a14403420004")
        + rb(64)
    )


def sshstr(b):
    return struct.pack(">I", len(b)) + b


def openssh_ed25519(comment):
    pub, priv = rb(32), rb(32)
    pubblob = sshstr(b"ssh-ed25519") + sshstr(pub)
    chk = rb(4)
    sec = (
        chk
        + chk
        + sshstr(b"ssh-ed25519")
        + sshstr(pub)
        + sshstr(priv + pub)
        + sshstr(comment.encode())
    )
    i = 1
    while len(sec) % 8:
        sec += bytes([i])
        i += 1
    blob = (
        b"openssh-key-v1\0"
        + sshstr(b"none")
        + sshstr(b"none")
        + sshstr(b"")
        + struct.pack(">I", 1)
        + sshstr(pubblob)
        + sshstr(sec)
    )
    return wrap(b64(blob), 70), b64(pubblob)


WORDS = (
    "harbor violet cobalt falcon ember juniper quartz maple orbit tundra "
    "saffron pixel walnut lagoon copper meadow glacier otter canyon "
    "thistle marble hazel nimbus cedar"
).split()


def pw():
    t = R.choice(["gen", "gen", "sym", "human"])
    if t == "gen":
        return rs(AN, R.randint(16, 28))
    if t == "sym":
        s = rs(AN, R.randint(12, 20))
        for _ in range(R.randint(2, 4)):
            i = R.randint(1, len(s) - 1)
            s = s[:i] + R.choice("!%*-_.+=^~@") + s[i:]
        return s
    return (
        R.choice(WORDS).capitalize()
        + R.choice("-._")
        + R.choice(WORDS)
        + str(R.randint(10, 9999))
        + R.choice("!*.?")
    )


def pwu():
    """password safe to put raw in a URL userinfo"""
    return rs(AN + "-_.~", R.randint(18, 30))


BIP39 = """abandon ability able about above absent absorb abstract absurd abuse
access accident account accuse achieve acid acoustic acquire across act action
actor actress actual adapt add addict address adjust admit adult advance advice
aerobic affair afford afraid again age agent agree ahead aim air airport aisle
alarm album alcohol alert alien all alley allow almost alone alpha already also
alter always amateur amazing among amount amused analyst anchor ancient anger
angle angry animal ankle announce annual another answer antenna antique anxiety
any apart apology appear apple approve april arch arctic area arena argue arm
armed armor army around arrange arrest arrive arrow art artefact artist artwork
ask aspect assault asset assist assume asthma athlete atom attack attend
attitude attract auction audit august aunt author auto autumn average avocado
avoid awake aware away awesome awful awkward axis baby bachelor bacon badge bag
balance balcony ball bamboo banana banner bar barely bargain barrel base basic
basket battle beach bean beauty because become beef before begin behave behind
believe below belt bench benefit best betray better between beyond bicycle bid
bike bind biology bird birth bitter black blade blame blanket blast bleak bless
blind blood blossom blouse blue blur blush board boat body boil bomb bone bonus
book boost border boring borrow boss bottom bounce box boy bracket brain brand
brass brave bread breeze brick bridge brief bright bring brisk broccoli broken
bronze broom brother brown brush bubble buddy budget buffalo build bulb bulk
bullet bundle bunker burden burger burst bus business busy butter buyer buzz
cabbage cabin cable cactus cage cake call calm camera camp can canal cancel
candy cannon canoe canvas canyon capable capital captain car carbon card cargo
carpet carry cart case cash casino castle casual cat catalog catch category
cattle caught cause caution cave ceiling celery cement census century cereal
certain chair chalk champion change chaos chapter charge chase chat cheap check
cheese chef cherry chest chicken chief child chimney choice choose chronic
chuckle chunk churn cigar cinnamon circle citizen city civil claim clap clarify
claw clay clean clerk clever click client cliff climb clinic clip clock clog
close cloth cloud clown club clump cluster clutch coach coast coconut code
coffee coil coin collect color column combine come comfort comic common company
concert conduct confirm congress connect consider control convince cook cool
copper copy coral core corn correct cost cotton couch country couple course
cousin cover coyote crack cradle craft cram crane crash crater crawl crazy cream
credit creek crew cricket crime crisp critic crop cross crouch crowd crucial
cruel cruise crumble crunch crush cry crystal cube culture cup cupboard curious
current curtain curve cushion custom cute cycle""".split()


def mnemonic(n):
    return " ".join(R.choice(BIP39) for _ in range(n))


# ------------------------------------------------------------- collection
SECRETS, LOOKS = [], []
FORMS = collections.Counter()


def add(kind, form, text, secret):
    assert secret and secret in text, (kind, secret[:40], text[:200])
    SECRETS.append({"kind": kind, "text": text, "secret": secret})
    FORMS[form] += 1


def look(kind, text):
    LOOKS.append({"kind": kind, "text": text})


APPS = [
    "orbit-api",
    "ledger-svc",
    "checkout-web",
    "atlas-worker",
    "pulse",
    "billing-core",
    "relay",
    "harbor-admin",
]
CMDS = [
    "python manage.py sync_accounts --since 7d",
    "npm run dev",
    "go run ./cmd/server",
    "make deploy ENV=staging",
    "node scripts/backfill.js --dry-run",
    "poetry run pytest -k integration",
]
PEOPLE = ["@jmiller", "@priya.k", "@tomasz", "@lena", "@a.okafor", "@dchen"]
PATHS = [
    "/v1/me",
    "/v2/projects",
    "/api/v1/events",
    "/v1/messages",
    "/api/users/self",
    "/v1/accounts",
    "/v3/status",
]


# ---------------------------------------------------- generic presentations
def pascal(s):
    return "".join(p[:1].upper() + p[1:] for p in s.replace("-", "_").split("_") if p)


def make_ctx(kind, env, slug, host, hdr, v):
    if "PASSWORD" in env or "PASSWD" in env:
        param = "password"
    elif "TOKEN" in env or "PAT" in env.split("_"):
        param = "token"
    elif "SECRET" in env or "CERTIFICATE" in env:
        param = "client_secret" if "CLIENT" in env else "api_secret"
    elif "AUTHKEY" in env or "ACCOUNT" in env:
        param = "auth_key"
    else:
        param = "api_key"
    camel = param.split("_")[0] + "".join(p.title() for p in param.split("_")[1:])
    if hdr is None:
        hline = "Authorization: Bearer " + v
    elif hdr.endswith(" ") or hdr.endswith("="):
        hline = hdr + v
    else:
        hline = hdr + ": " + v
    return {
        "kind": kind,
        "env": env,
        "slug": slug,
        "Slug": pascal(slug),
        "svc": pascal(slug),
        "host": host,
        "v": v,
        "param": param,
        "camel": camel,
        "Pascal": pascal(param),
        "hline": hline,
        "cls": pascal(slug) + "Client",
        "path": R.choice(PATHS),
        "word": param.replace("_", " "),
    }


def g_env(c):
    pool = [
        "NODE_ENV=production",
        "LOG_LEVEL=info",
        "PORT=8080",
        "TZ=UTC",
        "APP_URL=https://app.acme-corp.io",
        "WORKERS=4",
        "CACHE_TTL=300",
        "SENTRY_ENVIRONMENT=production",
        "FEATURE_NEW_CHECKOUT=true",
    ]
    o = R.sample(pool, 3)
    return "# .env.production\n%s\n%s\n%s=%s\n%s" % (o[0], o[1], c["env"], c["v"], o[2])


def g_export(c):
    return '$ export %s="%s"\n$ %s' % (c["env"], c["v"], R.choice(CMDS))


def g_json(c):
    return json.dumps(
        {
            "name": R.choice(APPS),
            "version": "1.4.2",
            "integrations": {
                c["slug"]: {
                    "baseUrl": "https://" + c["host"],
                    c["camel"]: c["v"],
                    "timeoutMs": 5000,
                }
            },
        },
        indent=2,
    )


def g_escjson(c):
    inner = jd({"provider": c["slug"], c["camel"]: c["v"], "retries": 3})
    return jd(
        {
            "ts": iso(),
            "level": "debug",
            "logger": "config.loader",
            "msg": "resolved integration settings",
            "settings": inner,
        }
    )


def g_yaml(c):
    return (
        "# helm/values-prod.yaml\nglobal:\n  region: eu-central-1\napp:\n"
        "  config:\n    integrations:\n      %s:\n        enabled: true\n"
        "        endpoint: https://%s\n        credentials:\n"
        '          %s: "%s"\n    replicas: 3'
    ) % (c["slug"], c["host"], c["param"], c["v"])


def g_toml(c):
    return (
        '[server]\nport = 8080\n\n[integrations.%s]\nendpoint = "https://%s"\n'
        '%s = "%s"\ntimeout = 30'
    ) % (c["slug"], c["host"], c["param"], c["v"])


def g_ini(c):
    return ("; settings.ini\n[general]\ndebug = false\n\n[%s]\nendpoint = https://%s\n%s = %s") % (
        c["slug"],
        c["host"],
        c["param"],
        c["v"],
    )


def g_hcl(c):
    return 'provider "%s" {\n  endpoint = "https://%s"\n  %s = "%s"\n}' % (
        c["slug"],
        c["host"],
        c["param"],
        c["v"],
    )


def g_tfvars(c):
    return '# terraform.tfvars\nregion      = "us-east-1"\n%s_%s = "%s"\ninstance_count = 2' % (
        c["slug"],
        c["param"],
        c["v"],
    )


def g_xml(c):
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <appSettings>\n'
        '    <add key="Environment" value="Production" />\n'
        '    <add key="%s%s" value="%s" />\n  </appSettings>\n</configuration>'
        % (c["Slug"], c["Pascal"], c["v"])
    )


def g_py(c):
    return (
        'from %s import %s\n\nclient = %s(\n    %s="%s",\n    timeout=30,\n)\n'
        "resp = client.%s()"
        % (
            c["slug"],
            c["cls"],
            c["cls"],
            c["param"],
            c["v"],
            R.choice(["list_projects", "get_account", "ping"]),
        )
    )


def g_js(c):
    return (
        'import { %s } from "@%s/sdk";\n\nconst client = new %s({\n  %s: "%s",\n'
        '  baseURL: "https://%s",\n});'
        % (c["cls"], c["slug"], c["cls"], c["camel"], c["v"], c["host"])
    )


def g_go(c):
    return 'client := %s.NewClient(%s.Config{\n\t%s: "%s",\n\tTimeout: 30 * time.Second,\n})' % (
        c["slug"],
        c["slug"],
        c["Pascal"].replace("Api", "API"),
        c["v"],
    )


def g_java(c):
    return (
        'public final class %sConfig {\n    private static final String %s = "%s";\n'
        "    private static final int TIMEOUT_MS = 5000;\n}" % (c["Slug"], c["env"], c["v"])
    )


def g_cs(c):
    return 'var client = new %s(new %sOptions\n{\n    %s = "%s",\n    Region = "eu-west-1"\n});' % (
        c["cls"],
        c["Slug"],
        c["Pascal"],
        c["v"],
    )


def g_rb(c):
    return "%s.configure do |config|\n  config.%s = '%s'\n  config.timeout = 10\nend" % (
        c["Slug"],
        c["param"],
        c["v"],
    )


def g_php(c):
    return "<?php\n$client = new \\%s\\Client([\n    '%s' => '%s',\n    'timeout' => 10,\n]);" % (
        c["Slug"],
        c["param"],
        c["v"],
    )


def g_rust(c):
    return 'let client = %sClient::builder()\n    .%s("%s")\n    .build()?;' % (
        c["Slug"],
        c["param"],
        c["v"],
    )


def g_header(c):
    return (
        "%s %s HTTP/1.1\nHost: %s\nUser-Agent: python-requests/2.31.0\n"
        "Accept: application/json\n%s\nConnection: keep-alive"
        % (R.choice(["GET", "POST"]), c["path"], c["host"], c["hline"])
    )


def g_curl(c):
    return 'curl -sS "https://%s%s" \\\n  -H "%s" \\\n  -H "Accept: application/json" | jq .' % (
        c["host"],
        c["path"],
        c["hline"],
    )


CHAT = [
    "hey, {svc} keeps returning 401 for me. this is the key I'm using: {v} - is it scoped wrong?",
    "ok pasting my .env bits for {svc} so you can repro:\n\n{env}={v}\n\nthe rest is default",
    "@oncall can someone add `{v}` as the {svc} {word} in the staging vault? I don't have write access",
    "rotating the {svc} {word} today. current one is {v} , new one will be in 1Password under 'prod / {svc}'",
    "Why does this fail?? I set {env} to {v} and still get `unauthorized` from {host}",
]


def g_chat(c):
    return R.choice(CHAT).format(**c)


def g_log(c):
    hn, hv = c["hline"].split(": ", 1)
    return (
        "%s DEBUG urllib3.connectionpool: Starting new HTTPS connection (1): %s:443\n"
        "%s DEBUG %s.http: request headers={'User-Agent': '%s-python/2.4.1', '%s': '%s'}\n"
        '%s DEBUG urllib3.connectionpool: https://%s:443 "GET %s HTTP/1.1" 401 87'
        % (iso(), c["host"], iso(), c["slug"], c["slug"], hn, hv, iso(), c["host"], c["path"])
    )


def g_trace(c):
    if R.random() < 0.5:
        return (
            "Traceback (most recent call last):\n"
            '  File "/srv/app/jobs/sync_{slug}.py", line 41, in <module>\n    main()\n'
            '  File "/srv/app/jobs/sync_{slug}.py", line 37, in main\n    client.ping()\n'
            '  File "/usr/local/lib/python3.11/site-packages/{slug}/client.py", line 118, in ping\n'
            '    raise AuthError(f"rejected credentials: {param}={{self.{param}!r}}")\n'
            "{slug}.errors.AuthError: rejected credentials: {param}='{v}'"
        ).format(**c)
    hn, hv = c["hline"].split(": ", 1)
    return (
        "AxiosError: Request failed with status code 403\n"
        "    at settle (/app/node_modules/axios/dist/node/axios.cjs:1966:12)\n"
        "    at IncomingMessage.handleStreamEnd (/app/node_modules/axios/dist/node/axios.cjs:3065:11)\n"
        "  config: {\n    url: 'https://%s%s',\n    method: 'get',\n    headers: {\n"
        "      Accept: 'application/json, text/plain, */*',\n      '%s': '%s',\n"
        "      'User-Agent': 'axios/1.6.8'\n    },\n  code: 'ERR_BAD_REQUEST'"
        % (c["host"], c["path"], hn, hv)
    )


def g_md(c):
    return (
        "| Environment | Service | Credential | Owner |\n|---|---|---|---|\n"
        "| staging | %s | `%s` | %s |\n| production | %s | see 1Password | %s |"
        % (c["svc"], c["v"], R.choice(PEOPLE), c["svc"], R.choice(PEOPLE))
    )


def g_docker(c):
    return (
        "FROM python:3.12-slim\nWORKDIR /app\nCOPY requirements.txt .\n"
        "RUN pip install --no-cache-dir -r requirements.txt\nENV %s=%s\nCOPY . .\n"
        'CMD ["gunicorn", "app:app", "-b", "0.0.0.0:8000"]' % (c["env"], c["v"])
    )


def g_gha(c):
    return (
        "jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      %s: %s\n"
        "    steps:\n      - uses: actions/checkout@v4\n      - run: ./scripts/deploy.sh"
        % (c["env"], c["v"])
    )


def g_compose(c):
    return (
        "services:\n  worker:\n    image: ghcr.io/acme/%s:1.8.2\n    environment:\n"
        "      - LOG_LEVEL=info\n      - %s=%s\n    restart: unless-stopped"
        % (R.choice(APPS), c["env"], c["v"])
    )


def g_ps(c):
    return 'PS C:\\src\\%s> $env:%s = "%s"\nPS C:\\src\\%s> npm run start' % (
        R.choice(APPS),
        c["env"],
        c["v"],
        R.choice(APPS),
    )


def g_cmd(c):
    return "C:\\Users\\dev\\project>set %s=%s\n\nC:\\Users\\dev\\project>python main.py" % (
        c["env"],
        c["v"],
    )


def g_props(c):
    return (
        "# src/main/resources/application.properties\nspring.application.name=%s\n"
        "server.port=8081\n%s.%s=%s"
        % (R.choice(APPS), c["slug"], c["param"].replace("_", "-"), c["v"])
    )


def g_k8s(c):
    return (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: %s-credentials\n"
        '  namespace: prod\ntype: Opaque\nstringData:\n  %s: "%s"' % (c["slug"], c["env"], c["v"])
    )


def g_diff(c):
    return (
        "diff --git a/config/settings.py b/config/settings.py\nindex %s..%s 100644\n"
        "--- a/config/settings.py\n+++ b/config/settings.py\n@@ -12,6 +12,7 @@ DEBUG = False\n"
        ' ALLOWED_HOSTS = ["api.acme-corp.io"]\n+%s = "%s"\n CACHE_TTL = 300'
        % (hx(7), hx(7), c["env"], c["v"])
    )


def g_make(c):
    return ".PHONY: deploy\ndeploy:\n\t%s=%s ./scripts/deploy.sh --env prod" % (c["env"], c["v"])


def g_systemd(c):
    return (
        "[Unit]\nDescription=%s worker\n\n[Service]\nUser=app\nEnvironment=%s=%s\n"
        "ExecStart=/opt/app/bin/worker\nRestart=always" % (c["svc"], c["env"], c["v"])
    )


def g_ipy(c):
    return "In [3]: import os\n\nIn [4]: os.environ[\"%s\"]\nOut[4]: '%s'" % (c["env"], c["v"])


def g_csv(c):
    return "name,service,value,created_at\n%s,%s,%s,2024-03-02\nLOG_LEVEL,core,info,2024-01-11" % (
        c["env"],
        c["slug"],
        c["v"],
    )


def g_dotnet(c):
    return (
        '$ dotnet user-secrets set "%s:%s" "%s"\nSuccessfully saved %s:%s = %s to the secret store.'
        % (c["Slug"], c["Pascal"], c["v"], c["Slug"], c["Pascal"], c["v"])
    )


def g_heroku(c):
    return "$ heroku config:set %s=%s -a %s\nSetting %s and restarting %s... done, v%d" % (
        c["env"],
        c["v"],
        R.choice(APPS),
        c["env"],
        R.choice(APPS),
        R.randint(40, 400),
    )


def g_ghsecret(c):
    return '$ gh secret set %s --repo acme/%s --body "%s"\n✓ Set Actions secret %s for acme/%s' % (
        c["env"],
        R.choice(APPS),
        c["v"],
        c["env"],
        R.choice(APPS),
    )


def g_notebook(c):
    src = 'import os\nos.environ["%s"] = "%s"\n' % (c["env"], c["v"])
    cell = {
        "cell_type": "code",
        "execution_count": 2,
        "metadata": {},
        "outputs": [],
        "source": src.splitlines(True),
    }
    return json.dumps(cell, indent=1)


GENERIC = [
    g_env,
    g_export,
    g_json,
    g_escjson,
    g_yaml,
    g_toml,
    g_ini,
    g_hcl,
    g_tfvars,
    g_xml,
    g_py,
    g_js,
    g_go,
    g_java,
    g_cs,
    g_rb,
    g_php,
    g_rust,
    g_header,
    g_curl,
    g_chat,
    g_log,
    g_trace,
    g_md,
    g_docker,
    g_gha,
    g_compose,
    g_ps,
    g_cmd,
    g_props,
    g_k8s,
    g_diff,
    g_make,
    g_systemd,
    g_ipy,
    g_csv,
    g_dotnet,
    g_heroku,
    g_ghsecret,
    g_notebook,
]


# ------------------------------------------- provider tokens, generic forms
def sentry_org_token():
    pl = {
        "iat": ts() + 0.123456,
        "url": "https://sentry.io",
        "region_url": "https://us.sentry.io",
        "org": "acme-corp",
    }
    return "sntrys_" + b64(jd(pl).encode()).rstrip("=") + "_" + rs(B64U, 43)


def grafana_cloud_token():
    pl = {
        "o": dg(6),
        "n": "stack-%s-integration-%s" % (dg(6), rs(LO, 6)),
        "k": rs(AN, 24),
        "m": {"r": R.choice(["prod-us-east-0", "prod-eu-west-2"])},
    }
    return "glc_" + b64(jd(pl).encode())


def op_service_token():
    pl = {
        "signInAddress": "acme-corp.1password.com",
        "userAuth": {
            "method": "SRPg-4096",
            "alg": "PBES2g-HS256",
            "iterations": 650000,
            "salt": b64u(rb(16)),
        },
        "email": rs(LO + DG, 13) + "@1passwordserviceaccounts.com",
        "srpX": hx(64),
        "muk": {
            "alg": "A256GCM",
            "ext": True,
            "k": b64u(rb(32)),
            "key_ops": ["encrypt", "decrypt"],
            "kty": "oct",
            "kid": "mp",
        },
        "secretKey": "A3-%s-%s-%s-%s-%s-%s"
        % (
            rs(UP + DG, 6),
            rs(UP + DG, 6),
            rs(UP + DG, 5),
            rs(UP + DG, 5),
            rs(UP + DG, 5),
            rs(UP + DG, 5),
        ),
        "throttleSecret": {"seed": hx(64), "deviceUuid": rs(LO + DG, 26)},
        "deviceUuid": rs(LO + DG, 26),
    }
    return "ops_" + b64u(jd(pl).encode())


def mapbox_sk():
    return (
        "sk."
        + b64u(
            jd(
                {"u": R.choice(["acme-maps", "jdoe-geo", "fleetops"]), "a": rs(LO + DG, 25)}
            ).encode()
        )
        + "."
        + rs(B64U, 22)
    )


def discord_bot():
    return b64(dg(18).encode()).rstrip("=") + "." + rs(B64U, 6) + "." + rs(B64U, 38)


P = [
    # --- source hosting / CI / registries
    (
        "github_classic_pat",
        "GITHUB_TOKEN",
        "github",
        "api.github.com",
        "Authorization: token ",
        ghtok("ghp_"),
    ),
    ("github_oauth_token", "GH_OAUTH_TOKEN", "github", "api.github.com", None, ghtok("gho_")),
    (
        "github_user_to_server_token",
        "GITHUB_USER_TOKEN",
        "github",
        "api.github.com",
        None,
        ghtok("ghu_"),
    ),
    (
        "github_app_installation_token",
        "GITHUB_INSTALLATION_TOKEN",
        "github",
        "api.github.com",
        "Authorization: token ",
        ghtok("ghs_"),
    ),
    (
        "github_refresh_token",
        "GITHUB_REFRESH_TOKEN",
        "github",
        "github.com",
        None,
        "ghr_" + rs(AN, 76),
    ),
    (
        "github_fine_grained_pat",
        "GH_PAT",
        "github",
        "api.github.com",
        None,
        "github_pat_11" + rs(UP + DG, 20) + "_" + rs(AN, 59),
    ),
    (
        "gitlab_pat",
        "GITLAB_TOKEN",
        "gitlab",
        "gitlab.com",
        "PRIVATE-TOKEN",
        "glpat-" + rs(B64U, 20),
    ),
    (
        "gitlab_deploy_token",
        "GITLAB_DEPLOY_TOKEN",
        "gitlab",
        "gitlab.com",
        "Deploy-Token",
        "gldt-" + rs(B64U, 20),
    ),
    (
        "gitlab_runner_auth_token",
        "CI_SERVER_TOKEN",
        "gitlab",
        "gitlab.example-ops.net",
        "PRIVATE-TOKEN",
        "glrt-" + rs(B64U, 20),
    ),
    (
        "gitlab_runner_registration_token",
        "RUNNER_REGISTRATION_TOKEN",
        "gitlab",
        "gitlab.com",
        None,
        "GR1348941" + rs(B64U, 20),
    ),
    (
        "gitlab_pipeline_trigger_token",
        "TRIGGER_TOKEN",
        "gitlab",
        "gitlab.com",
        None,
        "glptt-" + hx(40),
    ),
    (
        "gitlab_feed_token",
        "GITLAB_FEED_TOKEN",
        "gitlab",
        "gitlab.com",
        None,
        "glft-" + rs(B64U, 20),
    ),
    (
        "gitlab_oauth_app_secret",
        "GITLAB_APP_SECRET",
        "gitlab",
        "gitlab.com",
        None,
        "gloas-" + hx(64),
    ),
    (
        "atlassian_api_token",
        "JIRA_API_TOKEN",
        "jira",
        "acme-corp.atlassian.net",
        None,
        "ATATT3xFfGF0" + rs(B64U, 170) + "=" + HX(8),
    ),
    (
        "bitbucket_app_password",
        "BITBUCKET_APP_PASSWORD",
        "bitbucket",
        "api.bitbucket.org",
        None,
        "ATBB" + rs(AN, 28) + HX(8),
    ),
    (
        "circleci_personal_token",
        "CIRCLE_TOKEN",
        "circleci",
        "circleci.com",
        "Circle-Token",
        "CCIPAT_" + rs(AN, 22) + "_" + hx(40),
    ),
    (
        "circleci_project_token",
        "CIRCLECI_PROJECT_TOKEN",
        "circleci",
        "circleci.com",
        "Circle-Token",
        hx(40),
    ),
    (
        "travis_ci_token",
        "TRAVIS_API_TOKEN",
        "travis",
        "api.travis-ci.com",
        "Authorization: token ",
        rs(AN, 22),
    ),
    (
        "buildkite_api_token",
        "BUILDKITE_API_TOKEN",
        "buildkite",
        "api.buildkite.com",
        None,
        "bkua_" + hx(40),
    ),
    (
        "buildkite_agent_token",
        "BUILDKITE_AGENT_TOKEN",
        "buildkite",
        "agent.buildkite.com",
        "Authorization: Token ",
        hx(50),
    ),
    ("sonarqube_user_token", "SONAR_TOKEN", "sonarqube", "sonarcloud.io", None, "squ_" + hx(40)),
    (
        "sonarqube_project_token",
        "SONAR_PROJECT_TOKEN",
        "sonarqube",
        "sonar.acme-corp.io",
        None,
        "sqp_" + hx(40),
    ),
    (
        "sonarqube_global_analysis_token",
        "SONAR_GLOBAL_TOKEN",
        "sonarqube",
        "sonar.acme-corp.io",
        None,
        "sqa_" + hx(40),
    ),
    ("snyk_token", "SNYK_TOKEN", "snyk", "api.snyk.io", "Authorization: token ", uid()),
    (
        "codecov_upload_token",
        "CODECOV_TOKEN",
        "codecov",
        "codecov.io",
        "Authorization: token ",
        uid(),
    ),
    (
        "jfrog_api_key",
        "ARTIFACTORY_API_KEY",
        "artifactory",
        "acme.jfrog.io",
        "X-JFrog-Art-Api",
        "AKCp8" + rs(AN, 68),
    ),
    (
        "jfrog_reference_token",
        "JFROG_ACCESS_TOKEN",
        "jfrog",
        "acme.jfrog.io",
        None,
        "cmVmdGtuOjAxOjE3" + rs(AN, 48),
    ),
    (
        "octopus_api_key",
        "OCTOPUS_API_KEY",
        "octopus",
        "acme.octopus.app",
        "X-Octopus-ApiKey",
        "API-" + rs(UP + DG, 27),
    ),
    (
        "harness_pat",
        "HARNESS_PLATFORM_API_KEY",
        "harness",
        "app.harness.io",
        "x-api-key",
        "pat." + rs(B64U, 22) + "." + hx(24) + "." + rs(AN, 20),
    ),
    (
        "terraform_cloud_token",
        "TFE_TOKEN",
        "tfe",
        "app.terraform.io",
        None,
        rs(AN, 14) + ".atlasv1." + rs(AN, 67),
    ),
    (
        "pulumi_access_token",
        "PULUMI_ACCESS_TOKEN",
        "pulumi",
        "api.pulumi.com",
        "Authorization: token ",
        "pul-" + hx(40),
    ),
    (
        "doppler_service_token",
        "DOPPLER_TOKEN",
        "doppler",
        "api.doppler.com",
        None,
        "dp.st.prd." + rs(AN, 43),
    ),
    (
        "doppler_personal_token",
        "DOPPLER_PERSONAL_TOKEN",
        "doppler",
        "api.doppler.com",
        None,
        "dp.pt." + rs(AN, 43),
    ),
    (
        "vault_service_token",
        "VAULT_TOKEN",
        "vault",
        "vault.internal.acme-corp.io:8200",
        "X-Vault-Token",
        "hvs." + rs(B64U, 91),
    ),
    (
        "vault_batch_token",
        "VAULT_BATCH_TOKEN",
        "vault",
        "vault.internal.acme-corp.io:8200",
        "X-Vault-Token",
        "hvb." + rs(B64U, 138),
    ),
    (
        "vault_legacy_token",
        "VAULT_ROOT_TOKEN",
        "vault",
        "10.0.4.17:8200",
        "X-Vault-Token",
        "s." + rs(AN, 24),
    ),
    (
        "infisical_service_token",
        "INFISICAL_TOKEN",
        "infisical",
        "app.infisical.com",
        None,
        "st." + uid() + "." + hx(32) + "." + hx(32),
    ),
    (
        "onepassword_service_account_token",
        "OP_SERVICE_ACCOUNT_TOKEN",
        "onepassword",
        "acme-corp.1password.com",
        None,
        op_service_token(),
    ),
    (
        "bitwarden_sm_access_token",
        "BWS_ACCESS_TOKEN",
        "bitwarden",
        "api.bitwarden.com",
        None,
        "0." + uid() + "." + rs(AN, 30) + ":" + b64(rb(16)),
    ),
    (
        "ngrok_authtoken",
        "NGROK_AUTHTOKEN",
        "ngrok",
        "api.ngrok.com",
        None,
        "2" + rs(AN, 26) + "_" + rs(AN, 21),
    ),
    (
        "ngrok_api_key",
        "NGROK_API_KEY",
        "ngrok",
        "api.ngrok.com",
        None,
        "2" + rs(AN, 26) + "_" + rs(AN, 21),
    ),
    (
        "docker_hub_pat",
        "DOCKERHUB_TOKEN",
        "dockerhub",
        "hub.docker.com",
        None,
        "dckr_pat_" + rs(B64U, 27),
    ),
    (
        "docker_hub_org_token",
        "DOCKER_ORG_ACCESS_TOKEN",
        "dockerhub",
        "hub.docker.com",
        None,
        "dckr_oat_" + rs(B64U, 32),
    ),
    ("npm_access_token", "NPM_TOKEN", "npm", "registry.npmjs.org", None, ghtok("npm_")),
    (
        "pypi_api_token",
        "PYPI_API_TOKEN",
        "pypi",
        "upload.pypi.org",
        None,
        "pypi-AgEIcHlwaS5vcmcCJD" + rs(B64U, 156),
    ),
    (
        "testpypi_api_token",
        "TEST_PYPI_API_TOKEN",
        "testpypi",
        "test.pypi.org",
        None,
        "pypi-AgENdGVzdC5weXBpLm9yZwIk" + rs(B64U, 140),
    ),
    (
        "rubygems_api_key",
        "GEM_HOST_API_KEY",
        "rubygems",
        "rubygems.org",
        "Authorization: ",
        "rubygems_" + hx(48),
    ),
    (
        "nuget_api_key",
        "NUGET_API_KEY",
        "nuget",
        "api.nuget.org",
        "X-NuGet-ApiKey",
        "oy2" + rs(LO + DG, 43),
    ),
    (
        "crates_io_token",
        "CARGO_REGISTRY_TOKEN",
        "cargo",
        "crates.io",
        "Authorization: ",
        "cio" + rs(AN, 32),
    ),
    ("hex_pm_api_key", "HEX_API_KEY", "hex", "hex.pm", "Authorization: ", hx(32)),
    (
        "gradle_plugin_portal_secret",
        "GRADLE_PUBLISH_SECRET",
        "gradle",
        "plugins.gradle.org",
        None,
        rs(AN, 32),
    ),
    (
        "clojars_deploy_token",
        "CLOJARS_DEPLOY_TOKEN",
        "clojars",
        "repo.clojars.org",
        None,
        "CLOJARS_" + hx(60),
    ),
    # --- cloud
    (
        "gcp_api_key",
        "GOOGLE_API_KEY",
        "googlemaps",
        "maps.googleapis.com",
        "X-Goog-Api-Key",
        "AIza" + rs(B64U, 35),
    ),
    (
        "google_oauth_client_secret",
        "GOOGLE_CLIENT_SECRET",
        "google",
        "oauth2.googleapis.com",
        None,
        "GOCSPX-" + rs(B64U, 28),
    ),
    (
        "google_oauth_refresh_token",
        "GOOGLE_REFRESH_TOKEN",
        "google",
        "oauth2.googleapis.com",
        None,
        "1//0" + rs(B64U, 100),
    ),
    (
        "google_oauth_access_token",
        "GOOGLE_ACCESS_TOKEN",
        "google",
        "www.googleapis.com",
        None,
        "ya29.a0" + rs(B64U, 170),
    ),
    (
        "azure_ad_client_secret",
        "AZURE_CLIENT_SECRET",
        "azure",
        "login.microsoftonline.com",
        None,
        rs(AN, 3) + "8Q~" + rs(AN + "_-.~", 34),
    ),
    (
        "azure_devops_pat",
        "AZURE_DEVOPS_EXT_PAT",
        "azuredevops",
        "dev.azure.com",
        None,
        rs(LO + "234567", 52),
    ),
    (
        "azure_openai_api_key",
        "AZURE_OPENAI_API_KEY",
        "azureopenai",
        "acme-eastus.openai.azure.com",
        "api-key",
        hx(32),
    ),
    (
        "alibaba_access_key_id",
        "ALIBABA_CLOUD_ACCESS_KEY_ID",
        "aliyun",
        "ecs.aliyuncs.com",
        None,
        "LTAI5t" + rs(AN, 18),
    ),
    (
        "alibaba_access_key_secret",
        "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
        "aliyun",
        "ecs.aliyuncs.com",
        None,
        rs(AN, 30),
    ),
    (
        "tencent_cloud_secret_id",
        "TENCENTCLOUD_SECRET_ID",
        "tencentcloud",
        "cvm.tencentcloudapi.com",
        None,
        "AKID" + rs(AN, 32),
    ),
    (
        "tencent_cloud_secret_key",
        "TENCENTCLOUD_SECRET_KEY",
        "tencentcloud",
        "cvm.tencentcloudapi.com",
        None,
        rs(AN, 32),
    ),
    ("ibm_cloud_api_key", "IBMCLOUD_API_KEY", "ibmcloud", "iam.cloud.ibm.com", None, rs(B64U, 44)),
    (
        "huawei_cloud_secret_key",
        "HUAWEICLOUD_SDK_SK",
        "huaweicloud",
        "ecs.ap-southeast-1.myhuaweicloud.com",
        None,
        rs(AN, 40),
    ),
    (
        "oracle_oci_auth_token",
        "OCI_AUTH_TOKEN",
        "oci",
        "objectstorage.eu-frankfurt-1.oraclecloud.com",
        None,
        rs(AN + "()[]{};:<>.+", 20),
    ),
    (
        "scaleway_secret_key",
        "SCW_SECRET_KEY",
        "scaleway",
        "api.scaleway.com",
        "X-Auth-Token",
        uid(),
    ),
    (
        "digitalocean_pat",
        "DIGITALOCEAN_TOKEN",
        "digitalocean",
        "api.digitalocean.com",
        None,
        "dop_v1_" + hx(64),
    ),
    (
        "digitalocean_oauth_token",
        "DO_OAUTH_TOKEN",
        "digitalocean",
        "api.digitalocean.com",
        None,
        "doo_v1_" + hx(64),
    ),
    ("linode_token", "LINODE_TOKEN", "linode", "api.linode.com", None, hx(64)),
    ("hetzner_cloud_token", "HCLOUD_TOKEN", "hcloud", "api.hetzner.cloud", None, rs(AN, 64)),
    ("vultr_api_key", "VULTR_API_KEY", "vultr", "api.vultr.com", None, rs(UP + DG, 36)),
    ("ovh_application_secret", "OVH_APPLICATION_SECRET", "ovh", "eu.api.ovh.com", None, rs(AN, 32)),
    (
        "yandex_cloud_api_key",
        "YC_API_KEY",
        "yandexcloud",
        "llm.api.cloud.yandex.net",
        "Authorization: Api-Key ",
        "AQVN" + rs(B64U, 36),
    ),
    (
        "yandex_iam_token",
        "YC_IAM_TOKEN",
        "yandexcloud",
        "compute.api.cloud.yandex.net",
        None,
        "t1.9euelZq" + rs(B64U, 150) + "." + rs(B64U, 86),
    ),
    (
        "cloudflare_api_token",
        "CLOUDFLARE_API_TOKEN",
        "cloudflare",
        "api.cloudflare.com",
        None,
        rs(B64U, 40),
    ),
    (
        "cloudflare_global_api_key",
        "CLOUDFLARE_API_KEY",
        "cloudflare",
        "api.cloudflare.com",
        "X-Auth-Key",
        hx(37),
    ),
    (
        "cloudflare_origin_ca_key",
        "CF_ORIGIN_CA_KEY",
        "cloudflare",
        "api.cloudflare.com",
        "X-Auth-User-Service-Key",
        "v1.0-" + hx(24) + "-" + hx(146),
    ),
    (
        "cloudflare_access_client_secret",
        "CF_ACCESS_CLIENT_SECRET",
        "cloudflareaccess",
        "internal-tools.acme-corp.io",
        "CF-Access-Client-Secret",
        hx(64),
    ),
    (
        "backblaze_b2_application_key",
        "B2_APPLICATION_KEY",
        "b2",
        "api.backblazeb2.com",
        None,
        "K00" + rs("0123456789", 1) + rs(AN + "/+", 27),
    ),
    (
        "minio_secret_key",
        "MINIO_SECRET_KEY",
        "minio",
        "minio.storage.internal:9000",
        None,
        rs(AN, 40),
    ),
    (
        "fly_io_token",
        "FLY_API_TOKEN",
        "fly",
        "api.machines.dev",
        "Authorization: FlyV1 ",
        "fm2_" + b64(rb(231)),
    ),
    (
        "heroku_api_key",
        "HEROKU_API_KEY",
        "heroku",
        "api.heroku.com",
        None,
        "HRKU-AA" + rs(B64U, 58),
    ),
    ("heroku_legacy_api_key", "HEROKU_API_KEY", "heroku", "api.heroku.com", None, uid()),
    ("vercel_token", "VERCEL_TOKEN", "vercel", "api.vercel.com", None, rs(AN, 24)),
    ("netlify_pat", "NETLIFY_AUTH_TOKEN", "netlify", "api.netlify.com", None, "nfp_" + rs(AN, 36)),
    ("render_api_key", "RENDER_API_KEY", "render", "api.render.com", None, "rnd_" + rs(AN, 28)),
    (
        "railway_token",
        "RAILWAY_TOKEN",
        "railway",
        "backboard.railway.app",
        "Project-Access-Token",
        uid(),
    ),
    (
        "supabase_pat",
        "SUPABASE_ACCESS_TOKEN",
        "supabase",
        "api.supabase.com",
        None,
        "sbp_" + hx(40),
    ),
    (
        "supabase_secret_key",
        "SUPABASE_SECRET_KEY",
        "supabase",
        "qwrtplkjhgfdsazxcvbn.supabase.co",
        "apikey",
        "sb_secret_" + rs(B64U, 31),
    ),
    (
        "planetscale_service_token",
        "PLANETSCALE_SERVICE_TOKEN",
        "planetscale",
        "api.planetscale.com",
        "Authorization: ",
        "pscale_tkn_" + rs(B64U, 43),
    ),
    (
        "upstash_redis_rest_token",
        "UPSTASH_REDIS_REST_TOKEN",
        "upstash",
        "eu1-sharp-gecko-31245.upstash.io",
        None,
        "AX" + rs(AN, 2) + "AAIncDE" + rs(AN, 64),
    ),
    (
        "databricks_pat",
        "DATABRICKS_TOKEN",
        "databricks",
        "adb-%s.%d.azuredatabricks.net" % (dg(16), R.randint(1, 19)),
        None,
        "dapi" + hx(32),
    ),
    (
        "confluent_cloud_api_secret",
        "CONFLUENT_CLOUD_API_SECRET",
        "confluent",
        "api.confluent.cloud",
        None,
        rs(AN + "+/", 64),
    ),
    (
        "algolia_admin_api_key",
        "ALGOLIA_ADMIN_KEY",
        "algolia",
        "%s.algolia.net" % rs(UP + DG, 10),
        "X-Algolia-API-Key",
        hx(32),
    ),
    ("mapbox_secret_token", "MAPBOX_SECRET_TOKEN", "mapbox", "api.mapbox.com", None, mapbox_sk()),
    (
        "astra_db_token",
        "ASTRA_DB_APPLICATION_TOKEN",
        "astra",
        "%s-us-east1.apps.astra.datastax.com" % uid(),
        "X-Cassandra-Token",
        "AstraCS:" + rs(AN, 24) + ":" + hx(64),
    ),
    (
        "pinecone_api_key",
        "PINECONE_API_KEY",
        "pinecone",
        "api.pinecone.io",
        "Api-Key",
        "pcsk_" + rs(AN, 5) + "_" + rs(AN, 62),
    ),
    (
        "qdrant_cloud_api_key",
        "QDRANT_API_KEY",
        "qdrant",
        "%s.us-east4-0.gcp.cloud.qdrant.io:6333" % uid(),
        "api-key",
        rs(B64U, 46),
    ),
    (
        "elastic_api_key",
        "ELASTIC_API_KEY",
        "elasticsearch",
        "acme-prod.es.us-central1.gcp.cloud.es.io",
        "Authorization: ApiKey ",
        b64((rs(B64U, 20) + ":" + rs(B64U, 22)).encode()),
    ),
    (
        "sanity_api_token",
        "SANITY_API_TOKEN",
        "sanity",
        "%s.api.sanity.io" % rs(LO + DG, 8),
        None,
        "sk" + rs(AN, 180),
    ),
    (
        "contentful_management_token",
        "CONTENTFUL_MANAGEMENT_TOKEN",
        "contentful",
        "api.contentful.com",
        None,
        "CFPAT-" + rs(B64U, 43),
    ),
    (
        "postman_api_key",
        "POSTMAN_API_KEY",
        "postman",
        "api.getpostman.com",
        "X-Api-Key",
        "PMAK-" + hx(24) + "-" + hx(34),
    ),
    (
        "readme_api_key",
        "README_API_KEY",
        "readme",
        "dash.readme.com",
        None,
        "rdme_" + rs(LO + DG, 70),
    ),
    # --- AI APIs
    (
        "openai_project_key",
        "OPENAI_API_KEY",
        "openai",
        "api.openai.com",
        None,
        "sk-proj-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74),
    ),
    (
        "openai_legacy_user_key",
        "OPENAI_API_KEY",
        "openai",
        "api.openai.com",
        None,
        "sk-" + rs(AN, 20) + "T3BlbkFJ" + rs(AN, 20),
    ),
    (
        "openai_service_account_key",
        "OPENAI_KEY",
        "openai",
        "api.openai.com",
        None,
        "sk-svcacct-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74),
    ),
    (
        "openai_admin_key",
        "OPENAI_ADMIN_KEY",
        "openai",
        "api.openai.com",
        None,
        "sk-admin-" + rs(B64U, 58) + "T3BlbkFJ" + rs(B64U, 58),
    ),
    (
        "anthropic_api_key",
        "ANTHROPIC_API_KEY",
        "anthropic",
        "api.anthropic.com",
        "x-api-key",
        "sk-ant-api03-" + rs(B64U, 93) + "AA",
    ),
    (
        "anthropic_admin_key",
        "ANTHROPIC_ADMIN_KEY",
        "anthropic",
        "api.anthropic.com",
        "x-api-key",
        "sk-ant-admin01-" + rs(B64U, 93) + "AA",
    ),
    (
        "gemini_api_key",
        "GEMINI_API_KEY",
        "genai",
        "generativelanguage.googleapis.com",
        "x-goog-api-key",
        "AIza" + rs(B64U, 35),
    ),
    (
        "huggingface_user_token",
        "HF_TOKEN",
        "huggingface",
        "huggingface.co",
        None,
        "hf_" + rs(UP + LO, 34),
    ),
    (
        "huggingface_org_token",
        "HUGGINGFACE_ORG_TOKEN",
        "huggingface",
        "huggingface.co",
        None,
        "api_org_" + rs(UP + LO, 34),
    ),
    (
        "replicate_api_token",
        "REPLICATE_API_TOKEN",
        "replicate",
        "api.replicate.com",
        None,
        "r8_" + rs(AN, 37),
    ),
    ("groq_api_key", "GROQ_API_KEY", "groq", "api.groq.com", None, "gsk_" + rs(AN, 52)),
    (
        "perplexity_api_key",
        "PERPLEXITY_API_KEY",
        "perplexity",
        "api.perplexity.ai",
        None,
        "pplx-" + rs(AN, 48),
    ),
    ("xai_api_key", "XAI_API_KEY", "xai", "api.x.ai", None, "xai-" + rs(AN, 80)),
    ("cohere_api_key", "CO_API_KEY", "cohere", "api.cohere.com", None, rs(AN, 40)),
    ("mistral_api_key", "MISTRAL_API_KEY", "mistral", "api.mistral.ai", None, rs(AN, 32)),
    ("deepseek_api_key", "DEEPSEEK_API_KEY", "deepseek", "api.deepseek.com", None, "sk-" + hx(32)),
    (
        "openrouter_api_key",
        "OPENROUTER_API_KEY",
        "openrouter",
        "openrouter.ai",
        None,
        "sk-or-v1-" + hx(64),
    ),
    (
        "fireworks_api_key",
        "FIREWORKS_API_KEY",
        "fireworks",
        "api.fireworks.ai",
        None,
        "fw_" + rs(AN, 24),
    ),
    (
        "together_api_key",
        "TOGETHER_API_KEY",
        "together",
        "api.together.xyz",
        None,
        "tgp_v1_" + rs(B64U, 43),
    ),
    (
        "langsmith_api_key",
        "LANGSMITH_API_KEY",
        "langsmith",
        "api.smith.langchain.com",
        "x-api-key",
        "lsv2_pt_" + hx(32) + "_" + hx(10),
    ),
    (
        "langfuse_secret_key",
        "LANGFUSE_SECRET_KEY",
        "langfuse",
        "cloud.langfuse.com",
        None,
        "sk-lf-" + uid(),
    ),
    ("wandb_api_key", "WANDB_API_KEY", "wandb", "api.wandb.ai", None, hx(40)),
    (
        "elevenlabs_api_key",
        "ELEVENLABS_API_KEY",
        "elevenlabs",
        "api.elevenlabs.io",
        "xi-api-key",
        "sk_" + hx(48),
    ),
    (
        "assemblyai_api_key",
        "ASSEMBLYAI_API_KEY",
        "assemblyai",
        "api.assemblyai.com",
        "authorization",
        hx(32),
    ),
    (
        "deepgram_api_key",
        "DEEPGRAM_API_KEY",
        "deepgram",
        "api.deepgram.com",
        "Authorization: Token ",
        hx(40),
    ),
    (
        "stability_api_key",
        "STABILITY_API_KEY",
        "stability",
        "api.stability.ai",
        None,
        "sk-" + rs(AN, 48),
    ),
    (
        "voyage_api_key",
        "VOYAGE_API_KEY",
        "voyageai",
        "api.voyageai.com",
        None,
        "pa-" + rs(B64U, 43),
    ),
    (
        "nvidia_api_key",
        "NVIDIA_API_KEY",
        "nvidia",
        "integrate.api.nvidia.com",
        None,
        "nvapi-" + rs(B64U, 64),
    ),
    (
        "cerebras_api_key",
        "CEREBRAS_API_KEY",
        "cerebras",
        "api.cerebras.ai",
        None,
        "csk-" + rs(LO + DG, 48),
    ),
    (
        "anyscale_api_key",
        "ANYSCALE_API_KEY",
        "anyscale",
        "api.endpoints.anyscale.com",
        None,
        "esecret_" + rs(LO + DG, 26),
    ),
    (
        "modal_token_secret",
        "MODAL_TOKEN_SECRET",
        "modal",
        "api.modal.com",
        None,
        "as-" + rs(AN, 22),
    ),
    ("ai21_api_key", "AI21_API_KEY", "ai21", "api.ai21.com", None, rs(AN, 32)),
    # --- observability / product analytics
    ("datadog_api_key", "DD_API_KEY", "datadog", "api.datadoghq.eu", "DD-API-KEY", hx(32)),
    (
        "datadog_application_key",
        "DD_APP_KEY",
        "datadog",
        "api.datadoghq.com",
        "DD-APPLICATION-KEY",
        hx(40),
    ),
    (
        "new_relic_user_api_key",
        "NEW_RELIC_API_KEY",
        "newrelic",
        "api.newrelic.com",
        "Api-Key",
        "NRAK-" + rs(UP + DG, 27),
    ),
    (
        "new_relic_license_key",
        "NEW_RELIC_LICENSE_KEY",
        "newrelic",
        "collector.newrelic.com",
        "X-License-Key",
        hx(36) + "NRAL",
    ),
    ("sentry_org_auth_token", "SENTRY_AUTH_TOKEN", "sentry", "sentry.io", None, sentry_org_token()),
    (
        "sentry_user_auth_token",
        "SENTRY_AUTH_TOKEN",
        "sentry",
        "sentry.io",
        None,
        "sntryu_" + hx(64),
    ),
    (
        "grafana_service_account_token",
        "GRAFANA_TOKEN",
        "grafana",
        "grafana.acme-corp.io",
        None,
        "glsa_" + rs(AN, 32) + "_" + hx(8),
    ),
    (
        "grafana_cloud_access_policy_token",
        "GRAFANA_CLOUD_TOKEN",
        "grafanacloud",
        "grafana.com",
        None,
        grafana_cloud_token(),
    ),
    (
        "honeycomb_ingest_key",
        "HONEYCOMB_API_KEY",
        "honeycomb",
        "api.honeycomb.io",
        "x-honeycomb-team",
        "hcaik_01" + rs(LO + DG, 56),
    ),
    (
        "dynatrace_api_token",
        "DT_API_TOKEN",
        "dynatrace",
        "abc12345.live.dynatrace.com",
        "Authorization: Api-Token ",
        "dt0c01." + rs(UP + DG, 24) + "." + rs(UP + DG, 64),
    ),
    (
        "splunk_hec_token",
        "SPLUNK_HEC_TOKEN",
        "splunk",
        "http-inputs-acme.splunkcloud.com",
        "Authorization: Splunk ",
        uid(),
    ),
    (
        "sumo_logic_access_key",
        "SUMO_ACCESS_KEY",
        "sumologic",
        "api.eu.sumologic.com",
        None,
        rs(AN, 64),
    ),
    (
        "logzio_shipping_token",
        "LOGZIO_TOKEN",
        "logzio",
        "listener.logz.io:8071",
        None,
        rs(UP + LO, 32),
    ),
    (
        "rollbar_access_token",
        "ROLLBAR_ACCESS_TOKEN",
        "rollbar",
        "api.rollbar.com",
        "X-Rollbar-Access-Token",
        hx(32),
    ),
    (
        "bugsnag_api_key",
        "BUGSNAG_API_KEY",
        "bugsnag",
        "notify.bugsnag.com",
        "Bugsnag-Api-Key",
        hx(32),
    ),
    (
        "pagerduty_api_key",
        "PAGERDUTY_TOKEN",
        "pagerduty",
        "api.pagerduty.com",
        "Authorization: Token token=",
        rs(AN + "_-+", 20),
    ),
    (
        "opsgenie_api_key",
        "OPSGENIE_API_KEY",
        "opsgenie",
        "api.opsgenie.com",
        "Authorization: GenieKey ",
        uid(),
    ),
    ("axiom_api_token", "AXIOM_TOKEN", "axiom", "api.axiom.co", None, "xaat-" + uid()),
    (
        "betterstack_source_token",
        "LOGTAIL_SOURCE_TOKEN",
        "logtail",
        "in.logs.betterstack.com",
        None,
        rs(AN, 24),
    ),
    (
        "uptimerobot_api_key",
        "UPTIMEROBOT_API_KEY",
        "uptimerobot",
        "api.uptimerobot.com",
        None,
        "u" + dg(7) + "-" + hx(24),
    ),
    (
        "posthog_personal_api_key",
        "POSTHOG_PERSONAL_API_KEY",
        "posthog",
        "us.posthog.com",
        None,
        "phx_" + rs(AN, 43),
    ),
    ("mixpanel_api_secret", "MIXPANEL_API_SECRET", "mixpanel", "mixpanel.com", None, hx(32)),
    ("amplitude_secret_key", "AMPLITUDE_SECRET_KEY", "amplitude", "amplitude.com", None, hx(32)),
    ("segment_write_key", "SEGMENT_WRITE_KEY", "segment", "api.segment.io", None, rs(AN, 32)),
    (
        "launchdarkly_sdk_key",
        "LAUNCHDARKLY_SDK_KEY",
        "launchdarkly",
        "sdk.launchdarkly.com",
        "Authorization: ",
        "sdk-" + uid(),
    ),
    (
        "launchdarkly_api_token",
        "LD_API_TOKEN",
        "launchdarkly",
        "app.launchdarkly.com",
        "Authorization: ",
        "api-" + uid(),
    ),
    # --- messaging / comms / social
    (
        "slack_bot_token",
        "SLACK_BOT_TOKEN",
        "slack",
        "slack.com",
        None,
        "xoxb-" + dg(12) + "-" + dg(13) + "-" + rs(AN, 24),
    ),
    (
        "slack_user_token",
        "SLACK_USER_TOKEN",
        "slack",
        "slack.com",
        None,
        "xoxp-" + dg(11) + "-" + dg(12) + "-" + dg(13) + "-" + hx(32),
    ),
    (
        "slack_app_level_token",
        "SLACK_APP_TOKEN",
        "slack",
        "slack.com",
        None,
        "xapp-1-A" + rs(UP + DG, 10) + "-" + dg(13) + "-" + hx(64),
    ),
    (
        "slack_config_token",
        "SLACK_CONFIG_TOKEN",
        "slack",
        "slack.com",
        None,
        "xoxe.xoxp-1-Mi0y" + rs(B64U, 140),
    ),
    ("slack_signing_secret", "SLACK_SIGNING_SECRET", "slack", "slack.com", None, hx(32)),
    (
        "discord_bot_token",
        "DISCORD_TOKEN",
        "discord",
        "discord.com",
        "Authorization: Bot ",
        discord_bot(),
    ),
    (
        "discord_client_secret",
        "DISCORD_CLIENT_SECRET",
        "discord",
        "discord.com",
        None,
        rs(B64U, 32),
    ),
    (
        "telegram_bot_token",
        "TELEGRAM_BOT_TOKEN",
        "telegram",
        "api.telegram.org",
        None,
        str(R.randint(1000000000, 7999999999)) + ":AA" + rs(B64U, 33),
    ),
    ("twilio_auth_token", "TWILIO_AUTH_TOKEN", "twilio", "api.twilio.com", None, hx(32)),
    ("twilio_api_key_secret", "TWILIO_API_SECRET", "twilio", "api.twilio.com", None, rs(AN, 32)),
    (
        "sendgrid_api_key",
        "SENDGRID_API_KEY",
        "sendgrid",
        "api.sendgrid.com",
        None,
        "SG." + rs(B64U, 22) + "." + rs(B64U, 43),
    ),
    (
        "mailgun_api_key_legacy",
        "MAILGUN_API_KEY",
        "mailgun",
        "api.mailgun.net",
        None,
        "key-" + hx(32),
    ),
    (
        "mailgun_private_api_key",
        "MAILGUN_PRIVATE_KEY",
        "mailgun",
        "api.eu.mailgun.net",
        None,
        hx(32) + "-" + hx(8) + "-" + hx(8),
    ),
    (
        "mailchimp_api_key",
        "MAILCHIMP_API_KEY",
        "mailchimp",
        "us%d.api.mailchimp.com" % R.randint(1, 21),
        None,
        hx(32) + "-us" + str(R.randint(1, 21)),
    ),
    (
        "mandrill_api_key",
        "MANDRILL_API_KEY",
        "mandrill",
        "mandrillapp.com",
        None,
        "md-" + rs(B64U, 22),
    ),
    (
        "postmark_server_token",
        "POSTMARK_SERVER_TOKEN",
        "postmark",
        "api.postmarkapp.com",
        "X-Postmark-Server-Token",
        uid(),
    ),
    (
        "sparkpost_api_key",
        "SPARKPOST_API_KEY",
        "sparkpost",
        "api.sparkpost.com",
        "Authorization: ",
        hx(40),
    ),
    (
        "brevo_api_key",
        "BREVO_API_KEY",
        "brevo",
        "api.brevo.com",
        "api-key",
        "xkeysib-" + hx(64) + "-" + rs(AN, 16),
    ),
    (
        "resend_api_key",
        "RESEND_API_KEY",
        "resend",
        "api.resend.com",
        None,
        "re_" + rs(AN, 8) + "_" + rs(AN, 24),
    ),
    ("mailjet_secret_key", "MJ_APIKEY_PRIVATE", "mailjet", "api.mailjet.com", None, hx(32)),
    ("vonage_api_secret", "VONAGE_API_SECRET", "vonage", "api.nexmo.com", None, rs(AN, 16)),
    ("plivo_auth_token", "PLIVO_AUTH_TOKEN", "plivo", "api.plivo.com", None, rs(AN, 40)),
    (
        "messagebird_access_key",
        "MESSAGEBIRD_ACCESS_KEY",
        "messagebird",
        "rest.messagebird.com",
        "Authorization: AccessKey ",
        rs(AN, 25),
    ),
    ("pusher_app_secret", "PUSHER_APP_SECRET", "pusher", "api-eu.pusher.com", None, hx(20)),
    (
        "ably_api_key",
        "ABLY_API_KEY",
        "ably",
        "rest.ably.io",
        None,
        rs(AN, 6) + "." + rs(AN + "-_", 6) + ":" + rs(B64U, 43),
    ),
    (
        "stream_api_secret",
        "STREAM_API_SECRET",
        "stream",
        "chat.stream-io-api.com",
        None,
        rs(LO + DG, 64),
    ),
    ("agora_app_certificate", "AGORA_APP_CERTIFICATE", "agora", "api.agora.io", None, hx(32)),
    (
        "livekit_api_secret",
        "LIVEKIT_API_SECRET",
        "livekit",
        "acme-x1y2z3.livekit.cloud",
        None,
        rs(AN, 43),
    ),
    ("mux_token_secret", "MUX_TOKEN_SECRET", "mux", "api.mux.com", None, rs(AN + "/+", 75)),
    ("zoom_client_secret", "ZOOM_CLIENT_SECRET", "zoom", "zoom.us", None, rs(AN, 32)),
    (
        "twitch_oauth_token",
        "TWITCH_OAUTH_TOKEN",
        "twitch",
        "api.twitch.tv",
        None,
        "oauth:" + rs(LO + DG, 30),
    ),
    (
        "spotify_client_secret",
        "SPOTIFY_CLIENT_SECRET",
        "spotify",
        "accounts.spotify.com",
        None,
        hx(32),
    ),
    (
        "facebook_page_access_token",
        "FB_PAGE_ACCESS_TOKEN",
        "facebook",
        "graph.facebook.com",
        None,
        "EAAG" + rs(AN, 4) + "ZC" + rs(AN, 180),
    ),
    ("facebook_app_secret", "FACEBOOK_APP_SECRET", "facebook", "graph.facebook.com", None, hx(32)),
    (
        "instagram_access_token",
        "IG_ACCESS_TOKEN",
        "instagram",
        "graph.instagram.com",
        None,
        "IGQWR" + rs(B64U, 150),
    ),
    (
        "twitter_bearer_token",
        "TWITTER_BEARER_TOKEN",
        "twitter",
        "api.twitter.com",
        None,
        "AAAAAAAAAAAAAAAAAAAAA" + rs(AN, 20) + "%3D" + rs(AN, 50),
    ),
    ("twitter_api_secret", "TWITTER_API_SECRET", "twitter", "api.twitter.com", None, rs(AN, 50)),
    (
        "linkedin_client_secret",
        "LINKEDIN_CLIENT_SECRET",
        "linkedin",
        "www.linkedin.com",
        None,
        "WPL_AP1." + rs(AN, 16) + "." + rs(AN, 8) + "==",
    ),
    # --- SaaS
    (
        "asana_pat",
        "ASANA_ACCESS_TOKEN",
        "asana",
        "app.asana.com",
        None,
        "2/" + dg(16) + "/" + dg(16) + ":" + hx(32),
    ),
    (
        "notion_integration_secret",
        "NOTION_TOKEN",
        "notion",
        "api.notion.com",
        None,
        "secret_" + rs(AN, 43),
    ),
    (
        "notion_ntn_token",
        "NOTION_API_KEY",
        "notion",
        "api.notion.com",
        None,
        "ntn_" + dg(11) + rs(AN, 35),
    ),
    (
        "airtable_pat",
        "AIRTABLE_API_KEY",
        "airtable",
        "api.airtable.com",
        None,
        "pat" + rs(AN, 14) + "." + hx(64),
    ),
    (
        "linear_api_key",
        "LINEAR_API_KEY",
        "linear",
        "api.linear.app",
        "Authorization: ",
        "lin_api_" + rs(AN, 40),
    ),
    ("figma_pat", "FIGMA_TOKEN", "figma", "api.figma.com", "X-Figma-Token", "figd_" + rs(B64U, 40)),
    (
        "clickup_api_token",
        "CLICKUP_API_TOKEN",
        "clickup",
        "api.clickup.com",
        "Authorization: ",
        "pk_" + dg(8) + "_" + rs(UP + DG, 32),
    ),
    (
        "monday_api_token",
        "MONDAY_API_TOKEN",
        "monday",
        "api.monday.com",
        "Authorization: ",
        jwt(
            {"alg": "HS256"},
            {
                "tid": R.randint(10**8, 10**9),
                "aai": 11,
                "uid": R.randint(10**7, 10**8),
                "iad": iso()[:19] + ".000Z",
                "per": "me:write",
                "actid": R.randint(10**6, 10**7),
                "rgn": "euc1",
            },
        ),
    ),
    ("trello_token", "TRELLO_TOKEN", "trello", "api.trello.com", None, "ATTA" + hx(64) + HX(8)),
    (
        "dropbox_access_token",
        "DROPBOX_ACCESS_TOKEN",
        "dropbox",
        "api.dropboxapi.com",
        None,
        "sl.u." + rs(B64U, 140),
    ),
    ("box_developer_token", "BOX_DEVELOPER_TOKEN", "box", "api.box.com", None, rs(AN, 32)),
    (
        "okta_api_token",
        "OKTA_API_TOKEN",
        "okta",
        "acme-corp.okta.com",
        "Authorization: SSWS ",
        "00" + rs(B64U, 40),
    ),
    (
        "auth0_client_secret",
        "AUTH0_CLIENT_SECRET",
        "auth0",
        "acme-corp.eu.auth0.com",
        None,
        rs(B64U, 64),
    ),
    (
        "clerk_secret_key",
        "CLERK_SECRET_KEY",
        "clerk",
        "api.clerk.com",
        None,
        "sk_live_" + rs(AN, 40),
    ),
    (
        "stytch_secret",
        "STYTCH_SECRET",
        "stytch",
        "api.stytch.com",
        None,
        "secret-live-" + rs(B64U, 36) + "=",
    ),
    (
        "hubspot_private_app_token",
        "HUBSPOT_ACCESS_TOKEN",
        "hubspot",
        "api.hubapi.com",
        None,
        "pat-na1-" + uid(),
    ),
    (
        "salesforce_access_token",
        "SF_ACCESS_TOKEN",
        "salesforce",
        "acme.my.salesforce.com",
        None,
        "00D" + rs(AN, 12) + "!AQ" + rs(AN + "._", 94),
    ),
    ("zendesk_api_token", "ZENDESK_API_TOKEN", "zendesk", "acme.zendesk.com", None, rs(AN, 40)),
    (
        "intercom_access_token",
        "INTERCOM_ACCESS_TOKEN",
        "intercom",
        "api.intercom.io",
        None,
        b64(("tok:" + uid() + ":1:0").encode()),
    ),
    ("freshdesk_api_key", "FRESHDESK_API_KEY", "freshdesk", "acme.freshdesk.com", None, rs(AN, 20)),
    (
        "typeform_pat",
        "TYPEFORM_TOKEN",
        "typeform",
        "api.typeform.com",
        None,
        "tfp_" + rs(B64U, 44) + "_" + rs(AN, 14),
    ),
    (
        "calendly_pat",
        "CALENDLY_TOKEN",
        "calendly",
        "api.calendly.com",
        None,
        jwt(
            {"kid": hx(8), "typ": "PAT", "alg": "ES256"},
            {"iss": "https://auth.calendly.com", "iat": ts(), "jti": uid(), "user_uuid": uid()},
            64,
        ),
    ),
    (
        "docusign_integration_secret",
        "DOCUSIGN_CLIENT_SECRET",
        "docusign",
        "account.docusign.com",
        None,
        uid(),
    ),
    (
        "shopify_admin_access_token",
        "SHOPIFY_ACCESS_TOKEN",
        "shopify",
        "acme-store.myshopify.com",
        "X-Shopify-Access-Token",
        "shpat_" + hx(32),
    ),
    (
        "shopify_shared_secret",
        "SHOPIFY_API_SECRET",
        "shopify",
        "acme-store.myshopify.com",
        None,
        "shpss_" + hx(32),
    ),
    (
        "shopify_custom_app_token",
        "SHOPIFY_CUSTOM_APP_TOKEN",
        "shopify",
        "acme-store.myshopify.com",
        "X-Shopify-Access-Token",
        "shpca_" + hx(32),
    ),
    (
        "shopify_private_app_password",
        "SHOPIFY_PASSWORD",
        "shopify",
        "acme-store.myshopify.com",
        "X-Shopify-Access-Token",
        "shppa_" + hx(32),
    ),
    ("expo_access_token", "EXPO_TOKEN", "expo", "api.expo.dev", None, rs(B64U, 40)),
    (
        "prefect_api_key",
        "PREFECT_API_KEY",
        "prefect",
        "api.prefect.cloud",
        None,
        "pnu_" + rs(AN, 36),
    ),
    ("frameio_token", "FRAMEIO_TOKEN", "frameio", "api.frame.io", None, "fio-u-" + rs(B64U, 64)),
    (
        "riot_api_key",
        "RIOT_API_KEY",
        "riot",
        "euw1.api.riotgames.com",
        "X-Riot-Token",
        "RGAPI-" + uid(),
    ),
    ("steam_web_api_key", "STEAM_API_KEY", "steam", "api.steampowered.com", None, HX(32)),
    (
        "openweathermap_api_key",
        "OWM_API_KEY",
        "openweathermap",
        "api.openweathermap.org",
        None,
        hx(32),
    ),
    (
        "akamai_edgegrid_client_secret",
        "AKAMAI_CLIENT_SECRET",
        "akamai",
        "akab-%s.luna.akamaiapis.net" % rs(LO + DG, 16),
        None,
        b64(rb(32)),
    ),
    (
        "fastly_api_token",
        "FASTLY_API_TOKEN",
        "fastly",
        "api.fastly.com",
        "Fastly-Key",
        rs(B64U, 32),
    ),
    (
        "cloudinary_api_secret",
        "CLOUDINARY_API_SECRET",
        "cloudinary",
        "api.cloudinary.com",
        None,
        rs(B64U, 27),
    ),
    # --- payments / fintech / crypto exchanges
    (
        "stripe_live_secret_key",
        "STRIPE_SECRET_KEY",
        "stripe",
        "api.stripe.com",
        None,
        "sk_live_51" + rs(AN, 97),
    ),
    (
        "stripe_test_secret_key",
        "STRIPE_SECRET_KEY",
        "stripe",
        "api.stripe.com",
        None,
        "sk_test_51" + rs(AN, 97),
    ),
    (
        "stripe_restricted_key",
        "STRIPE_RESTRICTED_KEY",
        "stripe",
        "api.stripe.com",
        None,
        "rk_live_51" + rs(AN, 97),
    ),
    (
        "stripe_webhook_secret",
        "STRIPE_WEBHOOK_SECRET",
        "stripe",
        "api.stripe.com",
        None,
        "whsec_" + rs(AN, 32),
    ),
    (
        "square_access_token",
        "SQUARE_ACCESS_TOKEN",
        "square",
        "connect.squareup.com",
        None,
        "EAAA" + rs(B64U, 60),
    ),
    (
        "square_oauth_secret",
        "SQUARE_APPLICATION_SECRET",
        "square",
        "connect.squareup.com",
        None,
        "sq0csp-" + rs(B64U, 43),
    ),
    (
        "braintree_access_token",
        "BRAINTREE_ACCESS_TOKEN",
        "braintree",
        "api.braintreegateway.com",
        None,
        "access_token$production$" + rs(LO + DG, 16) + "$" + hx(32),
    ),
    (
        "paypal_client_secret",
        "PAYPAL_CLIENT_SECRET",
        "paypal",
        "api-m.paypal.com",
        None,
        "E" + rs(B64U, 79),
    ),
    (
        "adyen_api_key",
        "ADYEN_API_KEY",
        "adyen",
        "checkout-live.adyenpayments.com",
        "X-API-Key",
        "AQE"
        + rs(AN, 5)
        + "K4"
        + rs(AN + "+/", 80)
        + "=-"
        + rs(AN + "+/", 43)
        + "=-"
        + rs(AN + "<>#[]", 16),
    ),
    (
        "razorpay_key_secret",
        "RAZORPAY_KEY_SECRET",
        "razorpay",
        "api.razorpay.com",
        None,
        rs(AN, 24),
    ),
    (
        "paystack_secret_key",
        "PAYSTACK_SECRET_KEY",
        "paystack",
        "api.paystack.co",
        None,
        "sk_live_" + hx(40),
    ),
    (
        "flutterwave_secret_key",
        "FLW_SECRET_KEY",
        "flutterwave",
        "api.flutterwave.com",
        None,
        "FLWSECK-" + hx(32) + "-X",
    ),
    ("plaid_secret", "PLAID_SECRET", "plaid", "production.plaid.com", "PLAID-SECRET", hx(30)),
    (
        "plaid_access_token",
        "PLAID_ACCESS_TOKEN",
        "plaid",
        "production.plaid.com",
        None,
        "access-production-" + uid(),
    ),
    (
        "mollie_live_api_key",
        "MOLLIE_API_KEY",
        "mollie",
        "api.mollie.com",
        None,
        "live_" + rs(AN, 30),
    ),
    (
        "checkout_com_secret_key",
        "CKO_SECRET_KEY",
        "checkout",
        "api.checkout.com",
        "Authorization: ",
        "sk_" + uid(),
    ),
    (
        "gocardless_access_token",
        "GOCARDLESS_ACCESS_TOKEN",
        "gocardless",
        "api.gocardless.com",
        None,
        "live_" + rs(B64U, 40),
    ),
    ("wise_api_token", "WISE_API_TOKEN", "wise", "api.transferwise.com", None, uid()),
    (
        "paddle_api_key",
        "PADDLE_API_KEY",
        "paddle",
        "api.paddle.com",
        None,
        "pdl_live_apikey_" + rs(LO + DG, 26) + "_" + rs(AN, 22) + "_" + rs(AN, 3),
    ),
    ("binance_api_secret", "BINANCE_API_SECRET", "binance", "api.binance.com", None, rs(AN, 64)),
    ("kraken_private_key", "KRAKEN_API_SECRET", "kraken", "api.kraken.com", None, b64(rb(64))),
    (
        "etherscan_api_key",
        "ETHERSCAN_API_KEY",
        "etherscan",
        "api.etherscan.io",
        None,
        rs(UP + DG, 34),
    ),
    ("infura_api_key_secret", "INFURA_API_KEY_SECRET", "infura", "mainnet.infura.io", None, hx(32)),
    (
        "moralis_api_key",
        "MORALIS_API_KEY",
        "moralis",
        "deep-index.moralis.io",
        "X-API-Key",
        jwt(
            {"alg": "HS256", "typ": "JWT"},
            {
                "nonce": uid(),
                "orgId": dg(6),
                "userId": dg(6),
                "typeId": uid(),
                "type": "PROJECT",
                "iat": ts(),
                "exp": 4800000000,
            },
        ),
    ),
    (
        "shippo_live_token",
        "SHIPPO_API_TOKEN",
        "shippo",
        "api.goshippo.com",
        "Authorization: ShippoToken ",
        "shippo_live_" + hx(40),
    ),
    (
        "easypost_production_key",
        "EASYPOST_API_KEY",
        "easypost",
        "api.easypost.com",
        None,
        "EZAK" + hx(54),
    ),
    ("lob_live_api_key", "LOB_API_KEY", "lob", "api.lob.com", None, "live_" + hx(32)),
    # --- IoT / VPN / networking
    ("particle_access_token", "PARTICLE_ACCESS_TOKEN", "particle", "api.particle.io", None, hx(40)),
    ("blynk_auth_token", "BLYNK_AUTH_TOKEN", "blynk", "blynk.cloud", None, rs(B64U, 32)),
    (
        "thingspeak_write_api_key",
        "THINGSPEAK_WRITE_API_KEY",
        "thingspeak",
        "api.thingspeak.com",
        "X-THINGSPEAKAPIKEY",
        rs(UP + DG, 16),
    ),
    (
        "adafruit_io_key",
        "AIO_KEY",
        "adafruitio",
        "io.adafruit.com",
        "X-AIO-Key",
        "aio_" + rs(AN, 28),
    ),
    (
        "home_assistant_long_lived_token",
        "HASS_TOKEN",
        "homeassistant",
        "homeassistant.local:8123",
        None,
        jwt({"alg": "HS256", "typ": "JWT"}, {"iss": hx(32), "iat": ts(), "exp": 2030000000}),
    ),
    (
        "tuya_access_secret",
        "TUYA_ACCESS_SECRET",
        "tuya",
        "openapi.tuyaeu.com",
        None,
        rs(LO + DG, 32),
    ),
    ("balena_api_key", "BALENA_API_KEY", "balena", "api.balena-cloud.com", None, rs(AN, 32)),
    (
        "the_things_network_api_key",
        "TTN_API_KEY",
        "ttn",
        "eu1.cloud.thethings.network",
        None,
        "NNSXS." + rs(UP + DG, 39) + "." + rs(UP + DG, 52),
    ),
    ("smartthings_pat", "SMARTTHINGS_TOKEN", "smartthings", "api.smartthings.com", None, uid()),
    (
        "arduino_iot_client_secret",
        "ARDUINO_CLIENT_SECRET",
        "arduinoiot",
        "api2.arduino.cc",
        None,
        rs(AN, 64),
    ),
    (
        "zerotier_central_token",
        "ZEROTIER_CENTRAL_TOKEN",
        "zerotier",
        "api.zerotier.com",
        "Authorization: token ",
        rs(AN, 32),
    ),
    ("nordvpn_access_token", "NORDVPN_TOKEN", "nordvpn", "api.nordvpn.com", None, hx(64)),
    ("mullvad_account_number", "MULLVAD_ACCOUNT", "mullvad", "api.mullvad.net", None, dg(16)),
    (
        "tailscale_auth_key",
        "TS_AUTHKEY",
        "tailscale",
        "api.tailscale.com",
        None,
        "tskey-auth-k" + rs(AN, 10) + "CNTRL-" + rs(AN, 33),
    ),
    (
        "tailscale_api_key",
        "TAILSCALE_API_KEY",
        "tailscale",
        "api.tailscale.com",
        None,
        "tskey-api-k" + rs(AN, 10) + "CNTRL-" + rs(AN, 33),
    ),
    (
        "consul_acl_token",
        "CONSUL_HTTP_TOKEN",
        "consul",
        "consul.service.dc1.consul:8500",
        "X-Consul-Token",
        uid(),
    ),
    (
        "nomad_acl_token",
        "NOMAD_TOKEN",
        "nomad",
        "nomad.service.dc1.consul:4646",
        "X-Nomad-Token",
        uid(),
    ),
]

GENERIC_FORM_NAME = {
    "g_env": "env_file",
    "g_export": "shell_export",
    "g_json": "json_config",
    "g_escjson": "json_escaped",
    "g_yaml": "yaml_nested",
    "g_toml": "toml",
    "g_ini": "ini",
    "g_hcl": "hcl",
    "g_tfvars": "hcl",
    "g_xml": "xml",
    "g_py": "python_code",
    "g_js": "js_code",
    "g_go": "go_code",
    "g_java": "java_code",
    "g_cs": "csharp_code",
    "g_rb": "ruby_code",
    "g_php": "php_code",
    "g_rust": "rust_code",
    "g_header": "http_header",
    "g_curl": "curl_header",
    "g_chat": "chat",
    "g_log": "log_output",
    "g_trace": "stack_trace",
    "g_md": "markdown_table",
    "g_docker": "dockerfile",
    "g_gha": "github_actions_yaml",
    "g_compose": "docker_compose",
    "g_ps": "powershell",
    "g_cmd": "windows_cmd",
    "g_props": "properties",
    "g_k8s": "k8s_secret_manifest",
    "g_diff": "git_diff",
    "g_make": "makefile",
    "g_systemd": "systemd",
    "g_ipy": "ipython_output",
    "g_csv": "csv",
    "g_dotnet": "dotnet_cli",
    "g_heroku": "heroku_cli",
    "g_ghsecret": "gh_cli",
    "g_notebook": "jupyter_notebook_json",
}

_forms = GENERIC[:]
R.shuffle(_forms)
for i, (kind, env, slug, host, hdr, v) in enumerate(P):
    g = _forms[i % len(_forms)]
    add(kind, GENERIC_FORM_NAME[g.__name__], g(make_ctx(kind, env, slug, host, hdr, v)), v)


# ------------------------------------------------- bespoke contexts (custom)
# AWS
ak, sk = "AKIA" + rs(UP + "234567", 16), rs(AN + "/+", 40)
add(
    "aws_secret_access_key",
    "ini",
    "$ cat ~/.aws/credentials\n[default]\nregion = us-east-1\n\n[prod-admin]\n"
    "aws_access_key_id = %s\naws_secret_access_key = %s\n" % (ak, sk),
    sk,
)
ak2 = "AKIA" + rs(UP + "234567", 16)
add(
    "aws_access_key_id",
    "chat",
    "fyi the CI user is %s (eu-west-1), secret is in the vault - ping me if the "
    "deploy job still fails" % ak2,
    ak2,
)
sk3 = rs(AN + "/+", 40)
add(
    "aws_secret_access_key",
    "sdk_constructor",
    's3 = boto3.client(\n    "s3",\n    region_name="eu-west-1",\n    aws_access_key_id="%s",\n'
    '    aws_secret_access_key="%s",\n)' % ("AKIA" + rs(UP + "234567", 16), sk3),
    sk3,
)
st = "IQoJb3JpZ2luX2VjE" + rs(AN + "/+", 380) + "="
add(
    "aws_session_token",
    "cli_json_output",
    "$ aws sts assume-role --role-arn arn:aws:iam::%s:role/deployer --role-session-name ci\n"
    % dg(12)
    + json.dumps(
        {
            "Credentials": {
                "AccessKeyId": "ASIA" + rs(UP + "234567", 16),
                "SecretAccessKey": rs(AN + "/+", 40),
                "SessionToken": st,
                "Expiration": "2024-06-11T15:02:11+00:00",
            }
        },
        indent=4,
    ),
    st,
)
asia = "ASIA" + rs(UP + "234567", 16)
add(
    "aws_temporary_access_key_id",
    "shell_export",
    "export AWS_ACCESS_KEY_ID=%s\nexport AWS_REGION=ap-southeast-2" % asia,
    asia,
)

# GCP service account (escaped PEM inside JSON)
body = pem_body(pkcs8_der())
esc_body = body.replace("\n", "\\n")
sa = {
    "type": "service_account",
    "project_id": "acme-analytics-prod",
    "private_key_id": hx(40),
    "private_key": "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n",
    "client_email": "etl-runner@acme-analytics-prod.iam.gserviceaccount.com",
    "client_id": dg(21),
    "auth_uri": "https://accounts.google.com/o/oauth2/auth",
    "token_uri": "https://oauth2.googleapis.com/token",
}
add("gcp_service_account_private_key", "json_escaped", json.dumps(sa, indent=2), esc_body)

# GitHub App private key flattened onto one env line
body = pem_body(rsa_der())
flat = body.replace("\n", "\\n")
add(
    "github_app_private_key",
    "env_file",
    'GITHUB_APP_ID=%s\nGITHUB_APP_PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY-----\\n%s\\n-----END RSA PRIVATE KEY-----\\n"'
    % (dg(6), flat),
    flat,
)

# Azure connection strings
k = b64(rb(64))
add(
    "azure_storage_account_key",
    "appsettings_json",
    json.dumps(
        {
            "Logging": {"LogLevel": {"Default": "Information"}},
            "ConnectionStrings": {
                "Blob": "DefaultEndpointsProtocol=https;AccountName=acmeprodlogs;AccountKey=%s;EndpointSuffix=core.windows.net"
                % k
            },
        },
        indent=2,
    ),
    k,
)
sig = b64(rb(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
add(
    "azure_sas_signature",
    "url_query",
    "$ azcopy copy 'https://acmebackups.blob.core.windows.net/pg/base-2024-05-01.tar.gz?sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2025-12-31T23:59:59Z&st=2024-05-01T00:00:00Z&spr=https&sig=%s' ./restore/"
    % sig,
    sig,
)
k = b64(rb(64))
add(
    "azure_cosmos_key",
    "csharp_code",
    'var cosmos = new CosmosClient("AccountEndpoint=https://acme-orders.documents.azure.com:443/;AccountKey=%s;");'
    % k,
    k,
)
k = b64(rb(32))
add(
    "azure_service_bus_sas_key",
    "env_file",
    "SERVICEBUS_CONNECTION=Endpoint=sb://acme-events.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=%s\nQUEUE_NAME=orders"
    % k,
    k,
)
k = b64(rb(32))
add(
    "azure_iot_hub_device_key",
    "arduino_c",
    '#include <AzureIoTHub.h>\n\nstatic const char* connectionString =\n  "HostName=acme-factory.azure-devices.net;DeviceId=press-07;SharedAccessKey=%s";\n'
    % k,
    k,
)
k = rs(B64U, 54) + "=="
add(
    "azure_function_key",
    "url_query",
    "POST https://acme-thumbs.azurewebsites.net/api/resize?code=%s&clientId=default" % k,
    k,
)

# Webhooks with secret paths
t = rs(AN, 24)
add(
    "slack_incoming_webhook",
    "webhook_url",
    "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"deploy finished\"}' "
    "https://hooks.slack.com/services/T%s/B%s/%s" % (rs(UP + DG, 8), rs(UP + DG, 10), t),
    t,
)
t = rs(B64U, 68)
add(
    "discord_webhook",
    "webhook_url",
    'WEBHOOK = "https://discord.com/api/webhooks/%s/%s"\nrequests.post(WEBHOOK, json={"content": msg})'
    % (dg(19), t),
    t,
)
t = hx(32)
add(
    "teams_incoming_webhook",
    "webhook_url",
    "Invoke-RestMethod -Method Post -ContentType 'application/json' -Body $payload `\n  -Uri 'https://acmecorp.webhook.office.com/webhookb2/%s@%s/IncomingWebhook/%s/%s'"
    % (uid(), uid(), t, uid()),
    t,
)
t = rs(B64U, 43) + "%3D"
add(
    "google_chat_webhook_token",
    "webhook_url",
    "CHAT_WEBHOOK=https://chat.googleapis.com/v1/spaces/AAAA%s/messages?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&token=%s"
    % (rs(B64U, 7), t),
    t,
)
t = rs(LO + DG, 26)
add(
    "mattermost_webhook",
    "webhook_url",
    "mattermost:\n  notify_url: https://chat.acme-corp.io/hooks/%s\n  channel: releases" % t,
    t,
)
t = rs(B64U, 22)
add(
    "ifttt_maker_key",
    "webhook_url",
    "curl -X POST https://maker.ifttt.com/trigger/garage_open/with/key/%s" % t,
    t,
)
t = str(R.randint(1000000000, 7999999999)) + ":AA" + rs(B64U, 33)
add(
    "telegram_bot_token",
    "url_path",
    'requests.get(f"https://api.telegram.org/bot%s/sendMessage", params={"chat_id": CHAT_ID, "text": text})'
    % t,
    t,
)
t = rs(B64U, 32)
add(
    "alchemy_api_key",
    "url_path",
    'networks: {\n  mainnet: {\n    url: "https://eth-mainnet.g.alchemy.com/v2/%s",\n  },\n},' % t,
    t,
)
t = hx(32)
add("infura_project_id", "url_path", "RPC_URL=https://mainnet.infura.io/v3/%s" % t, t)
t = rs(B64U, 40)
add(
    "zapier_webhook_secret",
    "webhook_url",
    "ZAPIER_HOOK=https://hooks.zapier.com/hooks/catch/%s/%s/?secret=%s"
    % (dg(7), rs(LO + DG, 7), t),
    t,
)

# Query-string keys
t = "AIza" + rs(B64U, 35)
add(
    "youtube_data_api_key",
    "url_query",
    'curl "https://www.googleapis.com/youtube/v3/search?part=snippet&q=kubernetes&maxResults=25&key=%s"'
    % t,
    t,
)
t = rs(AN, 40)
add(
    "generic_access_token_query",
    "url_query",
    "%s INFO  GET /export.csv?from=2024-01-01&access_token=%s 200 1.2s" % (iso(), t),
    t,
)
t = hx(32)
add(
    "generic_api_key_query",
    "url_query",
    "fetch(`https://api.exchangerate-host.io/live?api_key=%s&source=USD`)" % t,
    t,
)
t = rs(B64U, 36)
add(
    "oauth_client_secret_form_body",
    "curl_flags",
    "curl -X POST https://auth.acme-corp.io/oauth/token \\\n  -d grant_type=client_credentials \\\n"
    "  -d client_id=reporting-batch \\\n  -d client_secret=%s \\\n  -d scope=reports.read" % t,
    t,
)

# Connection strings / URLs with passwords
p = pwu()
add(
    "postgres_url_password",
    "url_userinfo",
    "DATABASE_URL=postgresql://app_rw:%s@db-prod-1.c9xk2m.eu-west-1.rds.amazonaws.com:5432/app?sslmode=require"
    % p,
    p,
)
p = pwu()
add(
    "mysql_url_password",
    "url_userinfo",
    '// prisma/.env\nDATABASE_URL="mysql://root:%s@127.0.0.1:3306/shop"' % p,
    p,
)
p = pwu()
add(
    "mongodb_srv_password",
    "js_code",
    "await mongoose.connect('mongodb+srv://orders_svc:%s@cluster0.ab1cd.mongodb.net/orders?retryWrites=true&w=majority');"
    % p,
    p,
)
p = rs(AN, 32)
add(
    "redis_url_password",
    "url_userinfo",
    "REDIS_URL=rediss://default:%s@eu1-proper-lynx-38411.upstash.io:6379" % p,
    p,
)
p = pwu()
add(
    "amqp_url_password",
    "yaml_nested",
    "celery:\n  broker:\n    url: amqps://worker:%s@b-3f2a.mq.eu-west-1.amazonaws.com:5671/prod\n  result_backend: redis://cache:6379/1"
    % p,
    p,
)
p = pw()
add(
    "mssql_connection_password",
    "appsettings_json",
    json.dumps(
        {
            "ConnectionStrings": {
                "Default": "Server=tcp:acme-sql.database.windows.net,1433;Initial Catalog=crm;User ID=crm_app;Password=%s;Encrypt=True;"
                % p
            }
        },
        indent=2,
    ),
    p,
)
p = pwu()
add(
    "jdbc_password_param",
    "properties",
    "spring.datasource.url=jdbc:postgresql://pg.internal:5432/billing?user=billing&password=%s&ssl=true\nspring.jpa.hibernate.ddl-auto=validate"
    % p,
    p,
)
p = pw()
add(
    "odbc_pwd",
    "python_code",
    'conn = pyodbc.connect(\n    "Driver={ODBC Driver 18 for SQL Server};Server=sql01.corp.local;Database=Finance;"\n    "Uid=svc_finance;Pwd=%s;TrustServerCertificate=yes"\n)'
    % p,
    p,
)
p = rs(AN, 16)
add(
    "oracle_sqlplus_password",
    "cli_login",
    "$ sqlplus system/%s@//ora-prod.corp.local:1521/ORCLPDB1 @migrate.sql" % p,
    p,
)
p = pw()
add(
    "ldap_bind_password",
    "cli_login",
    "ldapsearch -x -H ldaps://ldap.corp.local -D 'cn=svc-jenkins,ou=service,dc=corp,dc=local' -w '%s' -b 'dc=corp,dc=local' '(uid=jdoe)'"
    % p,
    p,
)
p = rs(AN, 20)
add(
    "smtp_password",
    "sdk_constructor",
    'with smtplib.SMTP("smtp.office365.com", 587) as s:\n    s.starttls()\n    s.login("noreply@acme-corp.io", "%s")\n    s.send_message(msg)'
    % p,
    p,
)
p = pwu()
add(
    "ftp_url_password",
    "cli_login",
    "0 3 * * * lftp -e 'mirror -R /var/backups /nightly; quit' ftp://backup:%s@ftp.hosting-provider.net"
    % p,
    p,
)
p = rs(AN, 24)
add(
    "elasticsearch_basic_password",
    "curl_flags",
    "curl -u elastic:%s -k 'https://es01.internal:9200/_cat/indices?v'" % p,
    p,
)
p = rs(AN + "+/", 64)
add(
    "kafka_sasl_jaas_password",
    "properties",
    "bootstrap.servers=pkc-4r087.us-west2.gcp.confluent.cloud:9092\nsecurity.protocol=SASL_SSL\nsasl.mechanism=PLAIN\n"
    'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="%s" password="%s";'
    % (rs(UP + DG, 16), p),
    p,
)
p = pw()
add(
    "snowflake_password",
    "python_code",
    'ctx = snowflake.connector.connect(\n    user="DBT_RUNNER",\n    password="%s",\n    account="xy12345.eu-central-1",\n    warehouse="TRANSFORM_WH",\n)'
    % p,
    p,
)
p = rs(AN, 18)
add(
    "clickhouse_password",
    "cli_login",
    "clickhouse-client --host ch.analytics.internal --secure --user ingest --password '%s' --query 'SELECT 1'"
    % p,
    p,
)
p = rs(AN, 22)
add(
    "neon_postgres_password",
    "url_userinfo",
    "psql 'postgresql://neondb_owner:npg_%s@ep-cool-darkness-a1b2c3d4.us-east-2.aws.neon.tech/neondb?sslmode=require'"
    % p,
    "npg_" + p,
)
p = "pscale_pw_" + rs(B64U, 43)
add(
    "planetscale_password",
    "url_userinfo",
    "DATABASE_URL='mysql://%s:%s@aws.connect.psdb.cloud/shop?sslaccept=strict'"
    % (rs(LO + DG, 12), p),
    p,
)
p = rs(AN, 20)
add(
    "cockroachdb_password",
    "url_userinfo",
    "cockroach sql --url 'postgresql://maxroach:%s@free-tier14.aws-us-east-1.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full'"
    % p,
    p,
)
p = pwu()
add(
    "mqtt_url_password",
    "url_userinfo",
    "MQTT_BROKER=mqtts://sensor-gw-04:%s@mqtt.iot.acme-corp.io:8883" % p,
    p,
)
p = pwu()
add(
    "cloudinary_url_secret",
    "url_userinfo",
    "CLOUDINARY_URL=cloudinary://%s:%s@acme-media" % (dg(15), p),
    p,
)
ght = ghtok("ghs_")
add(
    "github_token_in_git_remote",
    "url_userinfo",
    "$ git remote -v\norigin\thttps://x-access-token:%s@github.com/acme/infra.git (fetch)\norigin\thttps://x-access-token:%s@github.com/acme/infra.git (push)"
    % (ght, ght),
    ght,
)
glt = "glpat-" + rs(B64U, 20)
add(
    "gitlab_token_in_clone_url",
    "url_userinfo",
    "git clone https://oauth2:%s@gitlab.com/acme/platform/terraform-modules.git" % glt,
    glt,
)
ght = ghtok("ghp_")
add(
    "git_credentials_store",
    "netrc",
    "$ cat ~/.git-credentials\nhttps://jdoe:%s@github.com" % ght,
    ght,
)
p = "AKCp8" + rs(AN, 68)
add(
    "artifactory_password_in_pip_url",
    "ini",
    "[global]\nindex-url = https://ci-bot:%s@acme.jfrog.io/artifactory/api/pypi/pypi-virtual/simple\ntimeout = 60"
    % p,
    p,
)

# package manager auth files
t = ghtok("npm_")
add(
    "npmrc_auth_token",
    "npmrc",
    "registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=%s\nalways-auth=true"
    % t,
    t,
)
t = b64(("deployer:" + pw()).encode())
add(
    "npmrc_basic_auth",
    "npmrc",
    "@acme:registry=https://nexus.acme-corp.io/repository/npm-private/\n//nexus.acme-corp.io/repository/npm-private/:_auth=%s"
    % t,
    t,
)
t = b64(pwu().encode())
add(
    "npmrc_password_b64",
    "npmrc",
    "//pkgs.dev.azure.com/acme/_packaging/feed/npm/registry/:username=acme\n//pkgs.dev.azure.com/acme/_packaging/feed/npm/registry/:_password=%s\n//pkgs.dev.azure.com/acme/_packaging/feed/npm/registry/:email=npm@acme-corp.io"
    % t,
    t,
)
t = ghtok("ghp_")
add(
    "yarnrc_npm_auth_token",
    "yaml_nested",
    'npmScopes:\n  acme:\n    npmRegistryServer: "https://npm.pkg.github.com"\n    npmAlwaysAuth: true\n    npmAuthToken: "%s"'
    % t,
    t,
)
t = "rubygems_" + hx(48)
add(
    "gem_credentials_file",
    "yaml_nested",
    "$ cat ~/.gem/credentials\n---\n:rubygems_api_key: %s" % t,
    t,
)
t = "cio" + rs(AN, 32)
add(
    "cargo_credentials_toml", "toml", '# ~/.cargo/credentials.toml\n[registry]\ntoken = "%s"' % t, t
)
t = rs(AN, 40)
add(
    "composer_http_basic_password",
    "json_config",
    json.dumps(
        {"http-basic": {"repo.packagist.com": {"username": "token", "password": t}}}, indent=4
    ),
    t,
)
p = pw()
add(
    "gradle_signing_password",
    "properties",
    "signing.keyId=%s\nsigning.password=%s\nsigning.secretKeyRingFile=/home/ci/.gnupg/secring.gpg"
    % (HX(8), p),
    p,
)
p = rs(AN + "+/", 44)
add(
    "maven_settings_server_password",
    "xml",
    "<settings>\n  <servers>\n    <server>\n      <id>central</id>\n      <username>%s</username>\n      <password>%s</password>\n    </server>\n  </servers>\n</settings>"
    % (rs(AN, 8), p),
    p,
)
p = rs(AN, 52)
add(
    "nuget_config_cleartext_password",
    "xml",
    '<packageSourceCredentials>\n  <AcmeFeed>\n    <add key="Username" value="build" />\n    <add key="ClearTextPassword" value="%s" />\n  </AcmeFeed>\n</packageSourceCredentials>'
    % p,
    p,
)
p = uid()
add(
    "netrc_heroku_password",
    "netrc",
    "machine api.heroku.com\n  login ops@acme-corp.io\n  password %s\nmachine git.heroku.com\n  login ops@acme-corp.io\n  password %s"
    % (p, p),
    p,
)
p = rs(AN, 30)
add(
    "netrc_password",
    "netrc",
    "$ cat ~/.netrc\nmachine artifacts.corp.local login jenkins password %s" % p,
    p,
)
p = pw().replace(":", "")
add(
    "pgpass_password",
    "pgpass",
    "$ cat ~/.pgpass\ndb-prod-1.internal:5432:*:reporting:%s\nlocalhost:5432:app_dev:dev:dev" % p,
    p,
)
a = b64(("acme-ci:" + rs(AN, 36)).encode())
add(
    "docker_config_auth",
    "docker_config",
    json.dumps(
        {
            "auths": {"registry.gitlab.com": {"auth": a}, "https://index.docker.io/v1/": {}},
            "credsStore": "desktop",
        },
        indent=2,
    ),
    a,
)
a = b64(("AWS:" + "eyJwYXlsb2FkIjoi" + rs(B64A, 300)).encode())
add(
    "docker_config_ecr_auth",
    "docker_config",
    json.dumps({"auths": {"%s.dkr.ecr.us-east-1.amazonaws.com" % dg(12): {"auth": a}}}, indent=1),
    a,
)

# kube
kt = jwt(
    {"alg": "RS256", "kid": rs(B64U, 43)},
    {
        "aud": ["https://kubernetes.default.svc.cluster.local"],
        "exp": 1893456000,
        "iat": ts(),
        "iss": "https://kubernetes.default.svc.cluster.local",
        "kubernetes.io": {"namespace": "ci", "serviceaccount": {"name": "deployer", "uid": uid()}},
        "nbf": ts(),
        "sub": "system:serviceaccount:ci:deployer",
    },
    256,
)
cad = b64(
    ("-----BEGIN CERTIFICATE-----\n" + pem_body(rb(700)) + "\n-----END CERTIFICATE-----\n").encode()
)
add(
    "kubeconfig_sa_token",
    "kubeconfig",
    "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    certificate-authority-data: %s\n    server: https://10.20.0.4:6443\n  name: prod\ncontexts:\n- context:\n    cluster: prod\n    user: deployer\n  name: prod\ncurrent-context: prod\nusers:\n- name: deployer\n  user:\n    token: %s"
    % (cad[:120], kt),
    kt,
)
ckd = b64(
    (
        "-----BEGIN RSA PRIVATE KEY-----\n"
        + pem_body(rsa_der())
        + "\n-----END RSA PRIVATE KEY-----\n"
    ).encode()
)
add(
    "kubeconfig_client_key_data",
    "kubeconfig",
    "users:\n- name: kubernetes-admin\n  user:\n    client-certificate-data: %s\n    client-key-data: %s"
    % (cad[:200], ckd),
    ckd,
)
pv = b64(pw().encode())
add(
    "k8s_secret_data_b64",
    "cli_output",
    "$ kubectl get secret pg-app -n prod -o yaml\napiVersion: v1\ndata:\n  username: %s\n  password: %s\nkind: Secret\nmetadata:\n  name: pg-app\n  namespace: prod\ntype: Opaque"
    % (b64(b"app"), pv),
    pv,
)
t = "sha256~" + rs(B64U, 43)
add(
    "openshift_oauth_token",
    "cli_login",
    '$ oc login --token=%s --server=https://api.ocp4.corp.local:6443\nLogged into "https://api.ocp4.corp.local:6443" as "jdoe" using the token provided.'
    % t,
    t,
)
t = rs(LO + DG, 6) + "." + rs(LO + DG, 16)
add(
    "kubeadm_bootstrap_token",
    "cli_login",
    "kubeadm join 10.0.0.10:6443 --token %s \\\n    --discovery-token-ca-cert-hash sha256:%s"
    % (t, hx(64)),
    t,
)
t = "SWMTKN-1-" + rs(LO + DG, 50) + "-" + rs(LO + DG, 25)
add(
    "docker_swarm_join_token",
    "cli_login",
    "docker swarm join --token %s 192.168.99.100:2377" % t,
    t,
)
t = "K10" + hx(64) + "::server:" + hx(32)
add(
    "k3s_cluster_token",
    "cli_login",
    "curl -sfL https://get.k3s.io | K3S_URL=https://10.0.1.5:6443 K3S_TOKEN=%s sh -" % t,
    t,
)
t = "A" + rs(UP + DG, 28)
add(
    "github_actions_runner_registration_token",
    "cli_login",
    "./config.sh --url https://github.com/acme/platform --token %s --labels self-hosted,linux,gpu"
    % t,
    t,
)

# login commands
p = rs(AN, 24)
add(
    "docker_login_password",
    "cli_login",
    "docker login -u acmebuild -p %s registry.acme-corp.io\nWARNING! Using --password via the CLI is insecure. Use --password-stdin."
    % p,
    p,
)
p = pw()
add(
    "mysql_cli_password",
    "cli_login",
    "mysql -h 10.0.3.21 -u root -p'%s' -e 'SHOW DATABASES;'" % p,
    p,
)
p = pw()
add(
    "pgpassword_env_prefix",
    "cli_login",
    "PGPASSWORD='%s' pg_dump -h db-prod-1.internal -U postgres -Fc app > app.dump" % p,
    p,
)
p = pw()
add(
    "sshpass_password",
    "cli_login",
    "sshpass -p '%s' ssh -o StrictHostKeyChecking=no pi@192.168.1.42 'sudo reboot'" % p,
    p,
)
p = rs(AN, 32)
add(
    "redis_cli_auth",
    "cli_login",
    "redis-cli -h redis-master.cache.svc -p 6379 -a %s --no-auth-warning INFO keyspace" % p,
    p,
)
p = pw()
add(
    "mongosh_password",
    "cli_login",
    "mongosh \"mongodb://mongo-0.mongo:27017/admin\" --username root --password '%s'" % p,
    p,
)
p = rs(AN, 3) + "8Q~" + rs(AN + "_-.~", 34)
add(
    "azure_sp_login_secret",
    "cli_login",
    "az login --service-principal -u %s -p '%s' --tenant %s" % (uid(), p, uid()),
    p,
)
p = rs(AN, 3) + "8Q~" + rs(AN + "_-.~", 34)
add(
    "azure_sp_create_output_password",
    "cli_json_output",
    "$ az ad sp create-for-rbac --name gh-deployer --role contributor --scopes /subscriptions/%s\n"
    % uid()
    + json.dumps(
        {"appId": uid(), "displayName": "gh-deployer", "password": p, "tenant": uid()}, indent=2
    ),
    p,
)
p = rs(AN, 20)
add(
    "argocd_admin_password",
    "cli_login",
    "$ argocd login argocd.acme-corp.io --username admin --password %s --grpc-web" % p,
    p,
)
p = rs(AN, 40)
add(
    "helm_repo_password",
    "cli_login",
    "helm repo add acme-charts https://charts.acme-corp.io --username robot$ci --password %s" % p,
    p,
)
p = pw()
add(
    "rabbitmq_user_password",
    "cli_login",
    "rabbitmqctl add_user metrics_exporter '%s' && rabbitmqctl set_user_tags metrics_exporter monitoring"
    % p,
    p,
)
p = pw()
add(
    "openssl_passout",
    "cli_login",
    "openssl pkcs12 -export -in client.crt -inkey client.key -out client.p12 -passout pass:%s" % p,
    p,
)
p = rs(AN, 18)
add(
    "java_keystore_password",
    "cli_login",
    "keytool -importcert -alias corp-root -file root.pem -keystore truststore.jks -storepass %s -noprompt"
    % p,
    p,
)
p = pw()
add(
    "zip_archive_password",
    "cli_login",
    "zip -r -P '%s' customer-export-2024-05.zip exports/" % p,
    p,
)
p = pw()
add("htpasswd_batch_password", "cli_login", "htpasswd -bB /etc/nginx/.htpasswd admin '%s'" % p, p)
p = rs(AN, 24)
add(
    "vault_login_token",
    "cli_login",
    "$ vault login hvs.%s\nSuccess! You are now authenticated." % p,
    "hvs." + p,
)
p = pw()
add(
    "windows_cmdkey_password",
    "windows_cmd",
    "cmdkey /add:fileserver01.corp.local /user:CORP\\svc_backup /pass:%s" % p,
    p,
)
p = pw()
add(
    "windows_net_use_password",
    "windows_cmd",
    "net use Z: \\\\nas01\\finance /user:CORP\\jdoe %s /persistent:no" % p,
    p,
)
p = pw()
add(
    "powershell_securestring_password",
    "powershell",
    '$secure = ConvertTo-SecureString "%s" -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential ("CORP\\svc_deploy", $secure)'
    % p,
    p,
)
p = rs(AN, 14)
add("snmp_community_string", "cli_login", "snmpwalk -v2c -c %s 10.10.0.1 1.3.6.1.2.1.1" % p, p)
p = pw()
add(
    "mosquitto_pub_password",
    "cli_login",
    "mosquitto_pub -h mqtt.local -p 8883 -u thermostat -P '%s' -t home/livingroom/temp -m 21.5" % p,
    p,
)
p = pw()
add(
    "gpg_passphrase_flag",
    "cli_login",
    "gpg --batch --pinentry-mode loopback --passphrase '%s' -d secrets.tar.gz.gpg | tar xz" % p,
    p,
)
p = rs(AN, 40)
add(
    "minio_mc_alias_secret",
    "cli_login",
    "mc alias set backup https://s3.backup.internal %s %s" % (rs(UP + DG, 20), p),
    p,
)
p = "11" + hx(32)
add(
    "jenkins_api_token",
    "curl_flags",
    "curl -X POST -u jdoe:%s https://jenkins.acme-corp.io/job/deploy-prod/buildWithParameters?TAG=v2.8.1"
    % p,
    p,
)
p = "key-" + hx(32)
add(
    "mailgun_api_key_curl_user",
    "curl_flags",
    "curl -s --user 'api:%s' https://api.mailgun.net/v3/mg.acme-corp.io/messages -F to=ops@acme-corp.io -F subject=test"
    % p,
    p,
)

# SDK constructors and tuple auth
p = pw()
add(
    "requests_tuple_auth",
    "sdk_constructor",
    'r = requests.get("https://nexus.corp.local/service/rest/v1/repositories", auth=("admin", "%s"), timeout=10)'
    % p,
    p,
)
p = pw()
add(
    "http_basic_auth_object",
    "python_code",
    'from requests.auth import HTTPBasicAuth\nsession.auth = HTTPBasicAuth("svc_reporting", "%s")'
    % p,
    p,
)
p = pw()
add(
    "axios_basic_auth",
    "js_code",
    "const res = await axios.get(url, {\n  auth: { username: 'grafana', password: '%s' },\n});" % p,
    p,
)
p = pw()
add(
    "go_set_basic_auth",
    "go_code",
    'req, _ := http.NewRequest("GET", registryURL+"/v2/_catalog", nil)\nreq.SetBasicAuth("puller", "%s")'
    % p,
    p,
)
p = pw()
add(
    "java_jdbc_getconnection_password",
    "java_code",
    'Connection conn = DriverManager.getConnection(\n    "jdbc:mysql://mysql.internal:3306/inventory", "inventory_app", "%s");'
    % p,
    p,
)
p = pw()
add(
    "dotnet_network_credential",
    "csharp_code",
    'client.Credentials = new NetworkCredential("svc_sharepoint", "%s", "CORP");' % p,
    p,
)
p = pw()
add(
    "paramiko_password",
    "python_code",
    'ssh = paramiko.SSHClient()\nssh.set_missing_host_key_policy(paramiko.AutoAddPolicy())\nssh.connect("10.1.4.22", username="ubuntu", password="%s")'
    % p,
    p,
)
p = pw()
add(
    "psycopg2_password_kwarg",
    "python_code",
    'conn = psycopg2.connect(host="localhost", port=5433, dbname="warehouse", user="loader", password="%s")'
    % p,
    p,
)
p = rs(AN, 16)
add(
    "nodemailer_smtp_pass",
    "js_code",
    "const transporter = nodemailer.createTransport({\n  host: 'smtp.gmail.com',\n  port: 465,\n  secure: true,\n  auth: { user: 'alerts@acme-corp.io', pass: '%s' },\n});"
    % p,
    p,
)
p = pw()
add(
    "pymysql_password_positional",
    "python_code",
    'db = pymysql.connect("mysql.internal", "wp_user", "%s", "wordpress")' % p,
    p,
)
p = rs(AN, 40)
add(
    "minio_client_secret_key",
    "python_code",
    'client = Minio("play.min.io:9000", access_key="%s", secret_key="%s", secure=True)'
    % (rs(UP + DG, 20), p),
    p,
)
p = b64(rb(32))
add(
    "hmac_signing_key_ruby",
    "ruby_code",
    "signature = OpenSSL::HMAC.hexdigest('SHA256', '%s', payload)" % p,
    p,
)
p = rs(AN, 32)
add(
    "rust_reqwest_bearer",
    "rust_code",
    'let resp = client.get(url).bearer_auth("%s").send().await?;' % p,
    p,
)

# HTTP headers
bas = b64(("ci-bot:" + pw()).encode())
add(
    "basic_auth_header",
    "http_header",
    "GET /artifactory/api/storage/libs-release HTTP/1.1\nHost: repo.corp.local\nAuthorization: Basic %s\nAccept: */*"
    % bas,
    bas,
)
bas = b64(("admin:" + pw()).encode())
add(
    "nginx_proxy_basic_auth",
    "conf_file",
    'location /metrics {\n    proxy_pass http://prometheus:9090;\n    proxy_set_header Authorization "Basic %s";\n}'
    % bas,
    bas,
)
sid = rs(LO + DG, 32)
add(
    "django_session_cookie",
    "http_header",
    "Cookie: csrftoken=%s; sessionid=%s" % (rs(AN, 32), sid),
    sid,
)
csid = "s%3A" + rs(B64U, 32) + "." + rs(B64A, 43)
add(
    "express_session_cookie",
    "http_header",
    "set-cookie: connect.sid=%s; Path=/; Expires=Thu, 13 Jun 2024 10:20:11 GMT; HttpOnly; SameSite=Lax"
    % csid,
    csid,
)
sess = jwt(
    {"alg": "RS256", "typ": "JWT", "kid": hx(16)},
    {
        "sub": uid(),
        "email": "maria.gonzalez@acme-corp.io",
        "org_id": "org_" + rs(AN, 24),
        "roles": ["admin"],
        "iat": 1717400000,
        "exp": 1717403600,
        "iss": "https://auth.acme-corp.io/",
        "aud": "api.acme-corp.io",
        "sid": uid(),
    },
    256,
)
add(
    "jwt_session_bearer",
    "http_header",
    "POST /graphql HTTP/2\nHost: api.acme-corp.io\nauthorization: Bearer %s\ncontent-type: application/json"
    % sess,
    sess,
)
sess = jwt(
    {"alg": "HS256", "typ": "JWT"},
    {
        "user_id": R.randint(1000, 99999),
        "username": "tkowalski",
        "is_staff": True,
        "iat": 1718000000,
        "exp": 1718086400,
        "jti": hx(32),
    },
)
add(
    "jwt_session_cookie",
    "http_header",
    "Set-Cookie: access_token=%s; HttpOnly; Secure; Path=/; Max-Age=86400" % sess,
    sess,
)
srk = jwt(
    {"alg": "HS256", "typ": "JWT"},
    {
        "iss": "supabase",
        "ref": rs(LO, 20),
        "role": "service_role",
        "iat": 1700000000,
        "exp": 2015576000,
    },
)
add(
    "supabase_service_role_jwt",
    "env_file",
    "NEXT_PUBLIC_SUPABASE_URL=https://%s.supabase.co\nSUPABASE_SERVICE_ROLE_KEY=%s"
    % (rs(LO, 20), srk),
    srk,
)
acc = jwt(
    {"alg": "RS256", "typ": "at+jwt", "kid": rs(B64U, 22)},
    {
        "iss": "https://login.acme-corp.io",
        "sub": uid(),
        "client_id": "mobile-app",
        "scope": "openid profile orders:write",
        "iat": 1718200000,
        "exp": 1718203600,
        "jti": uid(),
    },
    256,
)
refresh = rs(B64U, 86)
tok_resp = json.dumps(
    {
        "access_token": acc,
        "token_type": "Bearer",
        "expires_in": 3600,
        "refresh_token": refresh,
        "scope": "openid profile orders:write",
    },
    indent=2,
)
add(
    "oauth_access_token_json_response",
    "cli_json_output",
    "$ http POST :8080/oauth/token grant_type=password username=qa\n" + tok_resp,
    acc,
)
add(
    "oauth_refresh_token_opaque",
    "cli_json_output",
    "response body:\n" + tok_resp.replace(acc, "<elided>"),
    refresh,
)
t = rs(AN, 48)
add(
    "x_api_key_internal",
    "http_header",
    "> GET /internal/v2/reconcile HTTP/1.1\n> Host: ledger.svc.cluster.local\n> X-Api-Key: %s\n> Accept: */*\n>\n< HTTP/1.1 200 OK"
    % t,
    t,
)
t = rs(B64U, 43)
add(
    "opaque_bearer_token_curl_verbose",
    "http_header",
    "* Connected to api.internal-billing.net (10.2.0.8) port 443\n> POST /v1/invoices/finalize HTTP/2\n> authorization: Bearer %s\n> user-agent: curl/8.4.0"
    % t,
    t,
)

# Framework secrets & unusual env names
p = rs(LO + DG + "!@#%^&*(-_=+)", 50)
add(
    "django_secret_key",
    "python_code",
    "# settings/production.py\nDEBUG = False\nSECRET_KEY = '%s'\nALLOWED_HOSTS = ['acme-corp.io']"
    % p,
    p,
)
p = hx(128)
add(
    "rails_secret_key_base",
    "yaml_nested",
    "# config/credentials.yml.enc (decrypted)\nsecret_key_base: %s\naws:\n  region: eu-west-1" % p,
    p,
)
p = hx(32)
add(
    "rails_master_key",
    "cli_output",
    "$ echo '%s' > config/master.key && bin/rails credentials:edit" % p,
    p,
)
p = b64(rb(32))
add(
    "laravel_app_key",
    "env_file",
    "APP_NAME=Shop\nAPP_ENV=production\nAPP_KEY=base64:%s\nAPP_DEBUG=false" % p,
    p,
)
p = rs(AN, 32)
add(
    "flask_secret_key",
    "python_code",
    'app = Flask(__name__)\napp.config["SECRET_KEY"] = "%s"' % p,
    p,
)
p = b64(rb(32))
add(
    "nextauth_secret",
    "env_file",
    "NEXTAUTH_URL=https://app.acme-corp.io\nNEXTAUTH_SECRET=%s" % p,
    p,
)
p = "".join(R.choice(AN + "!#%&()*+,-./:;<>=?@[]^_{}|~") for _ in range(64))
p = p.replace("'", "").replace("\\", "")
add(
    "wordpress_auth_salt",
    "php_code",
    "define( 'DB_HOST', 'localhost' );\ndefine( 'AUTH_KEY',         '%s' );\ndefine( 'WP_DEBUG', false );"
    % p,
    p,
)
p = pw()
add(
    "wordpress_db_password",
    "php_code",
    "define( 'DB_USER', 'wp_prod' );\ndefine( 'DB_PASSWORD', '%s' );" % p,
    p,
)
p = R.choice(WORDS) + "-" + rs(LO, 5) + "-" + str(R.randint(100, 999))
add(
    "rails_database_yml_password",
    "yaml_nested",
    "production:\n  <<: *default\n  database: shop_production\n  username: shop\n  password: %s\n  host: db.internal"
    % p,
    p,
)
p = rs(AN, 24)
add(
    "spring_yaml_nested_password",
    "yaml_nested",
    'spring:\n  profiles: prod\n  datasource:\n    hikari:\n      maximum-pool-size: 20\n    primary:\n      jdbc-url: jdbc:postgresql://pg-primary:5432/core\n      username: core_rw\n      password: "%s"'
    % p,
    p,
)
p = rs(AN, 22)
add(
    "helm_values_deep_password",
    "yaml_nested",
    'global:\n  postgresql:\n    auth:\n      postgresPassword: "%s"\n      username: keycloak\n      database: keycloak\n  storageClass: gp3'
    % p,
    p,
)
p = b64(rb(48))
add(
    "appsettings_jwt_signing_key",
    "appsettings_json",
    json.dumps(
        {
            "Jwt": {
                "Issuer": "https://id.acme-corp.io",
                "Audience": "acme-api",
                "Key": p,
                "ExpiryMinutes": 60,
            }
        },
        indent=2,
    ),
    p,
)
p = pw()
add(
    "web_config_connection_password",
    "xml",
    '<connectionStrings>\n  <add name="Legacy" connectionString="Data Source=SQL02;Initial Catalog=ERP;User Id=erp_web;Password=%s;" providerName="System.Data.SqlClient" />\n</connectionStrings>'
    % p,
    p,
)
p = pw()
add(
    "tomcat_users_password",
    "xml",
    '<tomcat-users>\n  <user username="deployer" password="%s" roles="manager-script"/>\n</tomcat-users>'
    % p,
    p,
)
p = pw()
add(
    "ansible_become_password",
    "ini",
    "[web]\nweb01.corp.local ansible_user=deploy ansible_become_password='%s'\nweb02.corp.local"
    % p,
    p,
)
p = pw()
add(
    "ansible_ssh_password_yaml",
    "yaml_nested",
    'all:\n  children:\n    routers:\n      hosts:\n        edge-rtr-1:\n          ansible_host: 10.0.0.1\n          ansible_network_os: ios\n          ansible_password: "%s"'
    % p,
    p,
)
p = pw()
add(
    "terraform_tfvars_db_password",
    "hcl",
    'db_username = "admin"\ndb_password = "%s"\ninstance_class = "db.r6g.large"' % p,
    p,
)
p = rs(AN, 28)
add(
    "hcl_provider_password",
    "hcl",
    'provider "vsphere" {\n  user                 = "administrator@vsphere.local"\n  password             = "%s"\n  vsphere_server       = "vcenter.corp.local"\n  allow_unverified_ssl = true\n}'
    % p,
    p,
)
p = pw()
add(
    "terraform_state_sensitive_attr",
    "json_config",
    json.dumps(
        {
            "mode": "managed",
            "type": "aws_db_instance",
            "name": "main",
            "instances": [
                {
                    "attributes": {
                        "engine": "postgres",
                        "username": "root",
                        "password": p,
                        "endpoint": "main.c1x2y3.eu-west-1.rds.amazonaws.com:5432",
                    }
                }
            ],
        },
        indent=2,
    ),
    p,
)
p = rs(AN + "/+", 40)
add(
    "rclone_s3_secret",
    "ini",
    "[wasabi]\ntype = s3\nprovider = Wasabi\naccess_key_id = %s\nsecret_access_key = %s\nendpoint = s3.eu-central-1.wasabisys.com"
    % (rs(UP + DG, 20), p),
    p,
)
p = rs(B64U, 40)
add(
    "rclone_obscured_password",
    "ini",
    "[offsite]\ntype = sftp\nhost = backup.hetzner.de\nuser = u123456\npass = %s" % p,
    p,
)
p = rs(AN + "/+", 40)
add(
    "s3cmd_secret_key",
    "ini",
    "[default]\naccess_key = %s\nsecret_key = %s\nhost_base = nyc3.digitaloceanspaces.com"
    % (rs(UP + DG, 20), p),
    p,
)
p = rs(UP, 20)
add("erlang_cookie", "cli_output", "$ sudo cat /var/lib/rabbitmq/.erlang.cookie\n%s" % p, p)
p = pw()
add(
    "redis_conf_requirepass",
    "conf_file",
    "bind 0.0.0.0\nport 6379\nrequirepass %s\nmaxmemory 2gb" % p,
    p,
)
p = pw()
add(
    "grafana_datasource_secure_json",
    "yaml_nested",
    "apiVersion: 1\ndatasources:\n  - name: Timescale\n    type: postgres\n    url: tsdb:5432\n    user: grafana\n    secureJsonData:\n      password: '%s'"
    % p,
    p,
)
p = "SG." + rs(B64U, 22) + "." + rs(B64U, 43)
add(
    "postfix_sasl_passwd",
    "conf_file",
    "# /etc/postfix/sasl_passwd\n[smtp.sendgrid.net]:587 apikey:%s" % p,
    p,
)
p = rs(AN, 32)
add(
    "restic_password",
    "systemd",
    "[Service]\nEnvironment=RESTIC_REPOSITORY=s3:s3.amazonaws.com/acme-restic\nEnvironment=RESTIC_PASSWORD=%s\nExecStart=/usr/bin/restic backup /srv"
    % p,
    p,
)
p = " ".join(R.choice(WORDS) for _ in range(4))
add(
    "borg_passphrase",
    "shell_export",
    "export BORG_REPO=ssh://borg@backup.local/./repo\nexport BORG_PASSPHRASE='%s'\nborg create ::{hostname}-{now} /etc /home"
    % p,
    p,
)
p = R.choice(WORDS).capitalize() + str(R.randint(1000, 9999)) + R.choice(WORDS)
add(
    "wifi_psk_wpa_supplicant",
    "conf_file",
    'network={\n    ssid="ACME-IoT"\n    psk="%s"\n    key_mgmt=WPA-PSK\n}' % p,
    p,
)
p = R.choice(WORDS) + R.choice(WORDS) + str(R.randint(10, 99))
add(
    "esp32_wifi_password",
    "arduino_c",
    'const char* ssid = "workshop-2g";\nconst char* password = "%s";\n\nvoid setup() {\n  WiFi.begin(ssid, password);\n}'
    % p,
    p,
)
p = pw()
add(
    "hostapd_wpa_passphrase",
    "conf_file",
    "interface=wlan0\nssid=sensor-ap\nwpa=2\nwpa_passphrase=%s\nwpa_key_mgmt=WPA-PSK" % p,
    p,
)
p = rs(AN, 48)
add("ipsec_psk", "conf_file", '# /etc/ipsec.secrets\n203.0.113.10 198.51.100.7 : PSK "%s"' % p, p)
p = "eyJhIjoi" + b64(jd({"a": hx(32)[3:], "t": uid(), "s": b64(rb(32))}).encode())[8:]
add("cloudflare_tunnel_token", "cli_login", "sudo cloudflared service install %s" % p, p)

unusual = [
    ("jwt_signing_secret", "SECRET_FOR_JWT_HS256", b64(rb(32))),
    ("session_secret", "sessionSecret", rs(AN, 48)),
    ("cookie_secret", "COOKIE__SIGNING__SECRET", hx(64)),
    ("encryption_key_hex", "ENCRYPTION_KEY", hx(64)),
    ("hmac_key_env", "hmac.key.webhooks", rs(AN + "-_", 40)),
    ("replica_db_password", "db-password-replica", pw()),
    ("passwd_short_name", "PASSWD_LEGACY_SFTP", pw()),
    ("pwd_env", "pwd", pw()),
    ("api_key_versioned_name", "X_API_KEY_V2", rs(AN, 40)),
    ("upstream_auth_token", "auth.token.upstream", rs(B64U, 48)),
    ("mysql_root_password", "MYSQL_ROOT_PASSWORD", pw()),
    ("credential_legacy_service", "credential_legacy_crm", rs(AN, 28)),
    ("bare_secret_env", "SECRET", rs(AN, 40)),
    ("key_first_name", "KEY_SENDGRID_TRANSACTIONAL", "SG." + rs(B64U, 22) + "." + rs(B64U, 43)),
    ("dotnet_double_underscore_secret", "Token__Signing__Key", b64(rb(48))),
    ("gpg_passphrase_env", "passphrase_gpg_release", pw()),
    ("apikey_lowercase", "apikey_geocoder", hx(32)),
    ("private_token_env", "private_token", rs(B64U, 20)),
    ("minio_access_secret_kebab", "access-secret-minio", rs(AN, 40)),
    ("webhook_secret_env", "GITHUB_WEBHOOK_SECRET", hx(40)),
    ("mixed_case_db_pass", "Db_Pass_Primary", pw()),
    ("auth_in_middle_name", "SVC_AUTH_KEY_BILLING", rs(AN, 36)),
    ("otp_totp_seed", "MFA_TOTP_SEED", rs("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 32)),
    ("signing_key_pem_password", "SIGNING_CERT_PFX_PASSWORD", pw()),
]
for i, (kind, name, v) in enumerate(unusual):
    others = [
        "APP_ENV=production",
        "LOG_FORMAT=json",
        "HTTP_TIMEOUT=30",
        "PORT=3000",
        "REGION=eu-north-1",
        "QUEUE=default",
    ]
    o = R.sample(others, 2)
    sep = R.choice(["=", "=", ": ", " = "])
    add(kind, "env_file_unusual_name", "%s\n%s%s%s\n%s" % (o[0], name, sep, v, o[1]), v)

# private key blocks
body = pem_body(rsa_der())
add(
    "rsa_private_key_pem",
    "pem_block",
    "$ cat ~/.ssh/id_rsa\n-----BEGIN RSA PRIVATE KEY-----\n%s\n-----END RSA PRIVATE KEY-----"
    % body,
    body,
)
body, pubb = openssh_ed25519("deploy@ci-runner-07")
add(
    "openssh_private_key",
    "pem_block",
    "-----BEGIN OPENSSH PRIVATE KEY-----\n%s\n-----END OPENSSH PRIVATE KEY-----\n" % body,
    body,
)
body = pem_body(ec_der())
ind = "\n    ".join(body.split("\n"))
add(
    "ec_private_key_yaml_block",
    "yaml_nested",
    "tls:\n  cert: /etc/ssl/api.crt\n  key: |\n    -----BEGIN EC PRIVATE KEY-----\n    %s\n    -----END EC PRIVATE KEY-----"
    % ind,
    ind,
)
body = pem_body(b"\x30\x82\x05\x0c\x30\x3e\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x05\x0d" + rb(1290))
add(
    "encrypted_pkcs8_private_key",
    "pem_block",
    "-----BEGIN ENCRYPTED PRIVATE KEY-----\n%s\n-----END ENCRYPTED PRIVATE KEY-----" % body,
    body,
)
body = pem_body(b"\x95\x07\x46\x04" + rb(1700))
crc = "=" + b64(rb(3))
add(
    "pgp_private_key_block",
    "pem_block",
    "$ gpg --export-secret-keys --armor releases@acme-corp.io\n-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n%s\n%s\n-----END PGP PRIVATE KEY BLOCK-----"
    % (body, crc),
    body,
)
ppk_priv = b64(sshstr(rb(32)))
add(
    "putty_ppk_private_lines",
    "pem_block",
    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-20240311\nPublic-Lines: 2\n%s\n%s\nPrivate-Lines: 1\n%s\nPrivate-MAC: %s"
    % (pubb[:64], pubb[64:], ppk_priv, hx(64)),
    ppk_priv,
)
body = pem_body(ec_der())
coin = {
    "name": "organizations/%s/apiKeys/%s" % (uid(), uid()),
    "privateKey": "-----BEGIN EC PRIVATE KEY-----\n" + body + "\n-----END EC PRIVATE KEY-----\n",
}
add(
    "coinbase_cdp_api_private_key",
    "json_escaped",
    json.dumps(coin, indent=2),
    body.replace("\n", "\\n"),
)
body = pem_body(rsa_der())
add(
    "aws_iot_device_private_key",
    "pem_block",
    "# certs/7f3a9c-private.pem.key  (thing: pump-station-12)\n-----BEGIN RSA PRIVATE KEY-----\n%s\n-----END RSA PRIVATE KEY-----"
    % body,
    body,
)
ovpn = "\n".join(hx(32) for _ in range(16))
add(
    "openvpn_static_key",
    "pem_block",
    "<tls-auth>\n#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n%s\n-----END OpenVPN Static key V1-----\n</tls-auth>\nkey-direction 1"
    % ovpn,
    ovpn,
)

# WireGuard
wk, wpub, wpsk = b64(rb(32)), b64(rb(32)), b64(rb(32))
add(
    "wireguard_private_key",
    "wireguard_conf",
    "[Interface]\nPrivateKey = %s\nAddress = 10.8.0.2/32\nDNS = 1.1.1.1\n\n[Peer]\nPublicKey = %s\nEndpoint = vpn.acme-corp.io:51820\nAllowedIPs = 0.0.0.0/0"
    % (wk, wpub),
    wk,
)
add(
    "wireguard_preshared_key",
    "wireguard_conf",
    "[Peer]\n# laptop-jdoe\nPublicKey = %s\nPresharedKey = %s\nAllowedIPs = 10.8.0.14/32"
    % (b64(rb(32)), wpsk),
    wpsk,
)

# crypto wallets
m = mnemonic(12)
add(
    "bip39_mnemonic_12",
    "chat",
    "ok so I restored the test wallet with this seed: %s\nbut metamask shows a different address?"
    % m,
    m,
)
m = mnemonic(24)
add("bip39_mnemonic_24", "env_file", 'MNEMONIC="%s"\nNETWORK=sepolia' % m, m)
m = mnemonic(12)
add(
    "bip39_mnemonic_hardhat",
    "js_code",
    'module.exports = {\n  networks: {\n    goerli: {\n      url: process.env.RPC_URL,\n      accounts: { mnemonic: "%s" },\n    },\n  },\n};'
    % m,
    m,
)
k = "0x" + hx(64)
add(
    "ethereum_private_key_0x",
    "js_code",
    'const wallet = new ethers.Wallet("%s", provider);\nconsole.log(await wallet.getAddress());'
    % k,
    k,
)
k = hx(64)
add(
    "ethereum_private_key_env",
    "env_file",
    "DEPLOYER_PRIVATE_KEY=%s\nETHERSCAN_NETWORK=mainnet" % k,
    k,
)
k = b58check(b"\x80" + rb(32) + b"\x01")
add(
    "bitcoin_wif_private_key",
    "cli_login",
    '$ bitcoin-cli -rpcwallet=cold importprivkey "%s" "cold-1" false' % k,
    k,
)
k = b58check(bytes.fromhex("0488ade4") + b"\x00" * 9 + rb(32) + b"\x00" + rb(32))
add(
    "bip32_xprv",
    "chat",
    "exported from electrum, this is the master key for the treasury wallet:\n%s" % k,
    k,
)
kb = rb(64)
arr = json.dumps(list(kb))
add(
    "solana_keypair_json_array",
    "cli_output",
    "$ cat ~/.config/solana/id.json\n%s" % arr.replace(" ", ""),
    arr.replace(" ", ""),
)
k = b58enc(rb(64))
add(
    "solana_private_key_base58",
    "env_file",
    "SOLANA_RPC=https://api.mainnet-beta.solana.com\nPAYER_SECRET_KEY=%s" % k,
    k,
)
k = bech32("age-secret-key-", _conv(list(rb(32)), 8, 5)).upper()
apub = bech32("age", _conv(list(rb(32)), 8, 5))
add(
    "age_secret_key",
    "pem_block",
    "# created: 2024-04-18T10:11:12+02:00\n# public key: %s\n%s" % (apub, k),
    k,
)
k = hx(64)
add(
    "monero_private_spend_key",
    "chat",
    "Secret spend key for the view-only sync test (stagenet): %s" % k,
    k,
)
k = hx(64)
add(
    "tron_private_key",
    "python_code",
    'tron = Tron(network="nile")\npriv = PrivateKey(bytes.fromhex("%s"))' % k,
    k,
)

# misc tool outputs
v = rs(AN, 40)
add(
    "heroku_config_output",
    "cli_output",
    "$ heroku config -a acme-api\n=== acme-api Config Vars\nDATABASE_URL:        postgres://...\nLOG_LEVEL:           info\nPAPERTRAIL_API_TOKEN: %s"
    % v,
    v,
)
v = pw()
add(
    "ssm_parameter_decrypted",
    "cli_json_output",
    "$ aws ssm get-parameter --name /prod/api/db_password --with-decryption\n"
    + json.dumps(
        {
            "Parameter": {
                "Name": "/prod/api/db_password",
                "Type": "SecureString",
                "Value": v,
                "Version": 4,
                "ARN": "arn:aws:ssm:eu-west-1:%s:parameter/prod/api/db_password" % dg(12),
            }
        },
        indent=4,
    ),
    v,
)
v = rs(AN, 32)
add(
    "vault_kv_get_output",
    "cli_output",
    "$ vault kv get secret/payments/stripe\n====== Data ======\nKey          Value\n---          -----\nwebhook_ns   payments\napi_secret   %s"
    % v,
    v,
)
v = pw()
add(
    "docker_inspect_env",
    "cli_json_output",
    '$ docker inspect pg --format "{{json .Config.Env}}"\n'
    + jd(["POSTGRES_USER=app", "POSTGRES_PASSWORD=" + v, "PGDATA=/var/lib/postgresql/data"]),
    v,
)
v = pw()
add(
    "printenv_grep_output",
    "cli_output",
    "$ printenv | grep -i pass\nSMTP_PASSWORD=%s\nPASSWORD_MIN_LENGTH=12" % v,
    v,
)
v = pw()
add(
    "terraform_output_json",
    "cli_json_output",
    "$ terraform output -json admin_credentials\n"
    + json.dumps({"username": "grafana-admin", "password": v}),
    v,
)
v = pw()
add(
    "markdown_credentials_table",
    "markdown_table",
    "## Staging access\n\n| System | URL | User | Password |\n|---|---|---|---|\n| Keycloak | https://sso.stg.acme-corp.io | admin | %s |\n| Grafana | https://grafana.stg.acme-corp.io | SSO | - |"
    % v,
    v,
)
v = pw()
add(
    "java_stacktrace_jdbc_url",
    "stack_trace",
    'org.postgresql.util.PSQLException: FATAL: password authentication failed for user "orders"\n\tat org.postgresql.core.v3.ConnectionFactoryImpl.doAuthentication(ConnectionFactoryImpl.java:693)\n'
    "\tat com.zaxxer.hikari.pool.PoolBase.newConnection(PoolBase.java:359)\nCaused by: config dump: {jdbcUrl=jdbc:postgresql://pg:5432/orders, username=orders, password=%s, maximumPoolSize=10}"
    % v,
    v,
)
v = pwu()
add(
    "node_error_mongo_uri",
    "stack_trace",
    "MongoServerError: bad auth : Authentication failed.\n    at Connection.onMessage (/app/node_modules/mongodb/lib/cmap/connection.js:231:30)\n{\n  ok: 0,\n  code: 8000,\n  uri: 'mongodb+srv://analytics:%s@cluster1.xq9ab.mongodb.net/events'\n}"
    % v,
    v,
)
v = rs(AN, 40)
add(
    "sentry_event_headers",
    "json_config",
    json.dumps(
        {
            "event_id": hx(32),
            "request": {
                "method": "POST",
                "url": "https://api.acme-corp.io/v1/sync",
                "headers": [["Content-Type", "application/json"], ["X-Partner-Token", v]],
            },
        },
        indent=2,
    ),
    v,
)
v = rs(AN, 32)
add(
    "sql_create_user_password",
    "sql",
    "CREATE USER reporting WITH LOGIN PASSWORD '%s';\nGRANT SELECT ON ALL TABLES IN SCHEMA public TO reporting;"
    % v,
    v,
)
v = pw()
add(
    "sql_alter_login_password",
    "sql",
    "ALTER LOGIN [svc_etl] WITH PASSWORD = N'%s', CHECK_POLICY = OFF;" % v,
    v,
)
v = pw()
add("mysql_identified_by", "sql", "CREATE USER 'grafana'@'%%' IDENTIFIED BY '%s';" % v, v)
v = rs("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 32)
add(
    "totp_secret_otpauth_uri",
    "url_query",
    "otpauth://totp/ACME:jdoe@acme-corp.io?secret=%s&issuer=ACME&algorithm=SHA1&digits=6" % v,
    v,
)
v = hx(40)
add(
    "github_webhook_secret_code",
    "go_code",
    'mac := hmac.New(sha256.New, []byte("%s"))\nmac.Write(body)' % v,
    v,
)
v = pw()
add(
    "csv_user_export_password",
    "csv",
    "email,role,temp_password\nnew.hire@acme-corp.io,engineer,%s" % v,
    v,
)


# =============================================================== look-alikes
def sha():
    return hx(40)


# git and VCS
look(
    "git_log_short_shas",
    "$ git log --oneline -5\n"
    + "\n".join(
        "%s %s" % (hx(7), m)
        for m in [
            "fix(auth): refresh token before expiry",
            "chore: bump axios to 1.6.8",
            "feat: add idempotency keys to payouts",
            "docs: explain how to rotate the Stripe key",
            "Merge pull request #%d from acme/token-ttl" % R.randint(100, 4000),
        ]
    ),
)
look("git_rev_parse_sha", "$ git rev-parse HEAD\n%s" % sha())
look(
    "github_commit_url",
    "Regression introduced in https://github.com/acme/api/commit/%s (see line 212)" % sha(),
)
look(
    "git_show_header",
    "commit %s\nAuthor: Priya K <priya@acme-corp.io>\nDate:   Tue May 14 10:22:31 2024 +0200\n\n    fix: stop logging Authorization header in request middleware\n\n    The token itself was never persisted; this only removes the debug line."
    % sha(),
)
look(
    "commit_message_rotated_token",
    "chore(ci): rotate NPM_TOKEN and switch publish job to OIDC trusted publishing (%s)" % hx(7),
)
look(
    "commit_message_secret_scanning",
    'Revert "add .env to repo"\n\nThis reverts commit %s. The key in it was revoked before merge.'
    % sha(),
)
look("git_cherry_pick", "git cherry-pick %s..%s" % (hx(12), hx(12)))
look(
    "git_blame_line",
    "%s (Tomasz Nowak 2024-02-19 14:03:55 +0100  88)     token = self._token_cache.get(user_id)"
    % hx(8),
)
look("git_submodule_status", " %s vendor/protobuf (v25.1-12-g%s)" % (sha(), hx(9)))
look(
    "git_diff_index_line",
    "diff --git a/src/auth/session.ts b/src/auth/session.ts\nindex %s..%s 100644" % (hx(9), hx(9)),
)
look(
    "gitlab_merge_request_sha",
    "Merge request !%d: `%s` -> `main` (pipeline #%s passed)" % (R.randint(100, 999), hx(8), dg(9)),
)
look(
    "git_lfs_pointer",
    "version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d"
    % (hx(64), R.randint(10**5, 10**8)),
)

# lockfiles / integrity / hashes
look(
    "npm_lock_integrity",
    json.dumps(
        {
            "node_modules/jsonwebtoken": {
                "version": "9.0.2",
                "resolved": "https://registry.npmjs.org/jsonwebtoken/-/jsonwebtoken-9.0.2.tgz",
                "integrity": "sha512-" + b64(rb(64)),
            }
        },
        indent=2,
    ),
)
look(
    "yarn_lock_entry",
    'token-types@^5.0.1:\n  version "5.0.1"\n  resolved "https://registry.yarnpkg.com/token-types/-/token-types-5.0.1.tgz#%s"\n  integrity sha512-%s'
    % (hx(40), b64(rb(64))),
)
look(
    "pnpm_lock_resolution",
    "  /secure-json-parse@2.7.0:\n    resolution: {integrity: sha512-%s}\n    dev: false"
    % b64(rb(64)),
)
look(
    "pip_hash_requirement",
    "cryptography==42.0.7 \\\n    --hash=sha256:%s \\\n    --hash=sha256:%s" % (hx(64), hx(64)),
)
look(
    "poetry_lock_files",
    'files = [\n    {file = "PyJWT-2.8.0-py3-none-any.whl", hash = "sha256:%s"},\n]' % hx(64),
)
look(
    "go_sum_line",
    "golang.org/x/oauth2 v0.20.0 h1:%s\ngolang.org/x/oauth2 v0.20.0/go.mod h1:%s"
    % (b64(rb(32)), b64(rb(32))),
)
look(
    "cargo_lock_checksum",
    '[[package]]\nname = "secrecy"\nversion = "0.8.0"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "%s"'
    % hx(64),
)
look(
    "terraform_lock_hashes",
    'provider "registry.terraform.io/hashicorp/aws" {\n  version = "5.49.0"\n  hashes = [\n    "h1:%s",\n    "zh:%s",\n  ]\n}'
    % (b64(rb(32)), hx(64)),
)
look("gemfile_lock_checksum", "CHECKSUMS\n  jwt (2.8.1) sha256=%s" % hx(64))
look(
    "composer_lock_shasum",
    '"dist": {"type": "zip", "url": "https://api.github.com/repos/firebase/php-jwt/zipball/%s", "reference": "%s", "shasum": ""}'
    % (sha(), sha()),
)
look(
    "sha256sums_file",
    "%s  acme-cli_2.4.0_linux_amd64.tar.gz\n%s  acme-cli_2.4.0_darwin_arm64.tar.gz"
    % (hx(64), hx(64)),
)
look("md5sum_output", "$ md5sum backup.sql.gz\n%s  backup.sql.gz" % hx(32))
look(
    "sri_script_tag",
    '<script src="https://cdn.jsdelivr.net/npm/alpinejs@3.13.10/dist/cdn.min.js" integrity="sha384-%s" crossorigin="anonymous"></script>'
    % b64(rb(48)),
)
look(
    "webpack_hashed_assets",
    "dist/assets/index-%s.js   142.31 kB │ gzip: 45.90 kB\ndist/assets/index-%s.css   18.02 kB"
    % (rs(B64U, 8), rs(B64U, 8)),
)
look("nextjs_build_id", "Build ID: %s\nRoute (app)   Size   First Load JS" % rs(B64U, 21))
look(
    "s3_etag",
    '{"ETag": "\\"%s\\"", "ServerSideEncryption": "AES256", "VersionId": "%s"}'
    % (hx(32), rs(B64U, 32)),
)
look(
    "nix_store_path",
    "/nix/store/%s-openssl-3.0.13/lib/libssl.so.3" % rs("0123456789abcdfghijklmnpqrsvwxyz", 32),
)
look("ipfs_cid", "ipfs://bafybei%s/metadata.json" % rs("abcdefghijklmnopqrstuvwxyz234567", 52))
look("ipfs_cidv0", "https://gateway.pinata.cloud/ipfs/Qm%s" % rs(B58, 44))
look(
    "sourcemap_mappings",
    '{"version":3,"file":"app.js","mappings":"AAAA,SAASA,IAAI,CAACC,KAAK;EACjB,OAAOA,MAAM,KAAK;AAC9B,CAAC;AAED,SAASC,WAAW"}',
)
look(
    "content_addressed_cache_key",
    "cache hit: key=node-modules-Linux-%s restore-keys=node-modules-Linux-" % hx(64),
)
look(
    "bazel_remote_cache_digest",
    "INFO: From Compiling src/main.cc: digest %s/%d" % (hx(64), R.randint(1000, 99999)),
)

# docker / k8s
look(
    "docker_pull_digest",
    "$ docker pull postgres:16.3\n16.3: Pulling from library/postgres\nDigest: sha256:%s\nStatus: Downloaded newer image for postgres:16.3"
    % hx(64),
)
look("image_ref_digest", "image: ghcr.io/acme/api@sha256:%s" % hx(64))
look(
    "docker_ps_ids",
    'CONTAINER ID   IMAGE          COMMAND                  STATUS\n%s   redis:7        "docker-entrypoint.s…"   Up 3 hours\n%s   nginx:1.25     "/docker-entrypoint.…"   Up 3 hours'
    % (hx(12), hx(12)),
)
look("docker_inspect_id", '"Id": "%s",\n"Created": "2024-05-02T08:11:49.123Z",' % hx(64))
look(
    "k8s_pod_names",
    "NAME                           READY   STATUS    RESTARTS   AGE\napi-%s-%s     1/1     Running   0          2d\nworker-%s-%s  1/1     Running   1          2d"
    % (hx(10), rs("bcdfghjklmnpqrstvwxz2456789", 5), hx(9), rs("bcdfghjklmnpqrstvwxz2456789", 5)),
)
look(
    "k8s_object_uid",
    'metadata:\n  name: api-tls\n  namespace: prod\n  uid: %s\n  resourceVersion: "%s"'
    % (uid(), dg(8)),
)
look(
    "k8s_secret_key_ref",
    "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: pg-app\n        key: password\n  - name: STRIPE_SECRET_KEY\n    valueFrom:\n      secretKeyRef: {name: stripe, key: secret-key}",
)
look(
    "kubeadm_ca_cert_hash_only",
    "# the discovery hash is public, it pins the cluster CA\n--discovery-token-ca-cert-hash sha256:%s"
    % hx(64),
)
look(
    "kubectl_create_secret_subshell",
    'kubectl create secret generic db-creds --from-literal=password="$(openssl rand -base64 24)" --dry-run=client -o yaml',
)
look(
    "helm_values_existing_secret",
    "auth:\n  existingSecret: keycloak-db\n  secretKeys:\n    adminPasswordKey: admin-password\n    userPasswordKey: user-password",
)

# cloud ids, ARNs
acct = dg(12)
look("iam_role_arn", "arn:aws:iam::%s:role/github-actions-deployer" % acct)
look(
    "secretsmanager_arn",
    "SecretId: arn:aws:secretsmanager:us-east-1:%s:secret:prod/api/stripe-%s" % (acct, rs(AN, 6)),
)
look("kms_key_arn", 'kms_key_id = "arn:aws:kms:eu-west-1:%s:key/%s"' % (acct, uid()))
look("lambda_arn", "arn:aws:lambda:eu-central-1:%s:function:token-refresher:live" % acct)
look(
    "aws_resource_ids",
    "i-%s  vpc-%s  subnet-%s  sg-%s  ami-%s" % (hx(17), hx(17), hx(17), hx(17), hx(17)),
)
look(
    "aws_sts_caller_identity",
    json.dumps(
        {
            "UserId": "AIDA" + rs(UP + "234567", 17),
            "Account": acct,
            "Arn": "arn:aws:iam::%s:user/ci-readonly" % acct,
        },
        indent=4,
    ),
)
look(
    "aws_assumed_role_id",
    '"UserId": "AROA%s:botocore-session-%s"' % (rs(UP + "234567", 17), dg(10)),
)
look(
    "aws_docs_example_keys",
    "# Example from the AWS docs - not real credentials\n[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
)
look("aws_request_id", "x-amz-request-id: %s\nx-amz-id-2: %s" % (HX(16), b64(rb(56))))
look(
    "cloudfront_distribution_id",
    "aws cloudfront create-invalidation --distribution-id E%s --paths '/*'" % rs(UP + DG, 13),
)
look(
    "azure_resource_id",
    "/subscriptions/%s/resourceGroups/rg-prod-weu/providers/Microsoft.KeyVault/vaults/kv-acme-prod"
    % uid(),
)
look(
    "azure_identity_ids_env",
    "AZURE_TENANT_ID=%s\nAZURE_SUBSCRIPTION_ID=%s\nAZURE_CLIENT_ID=%s\n# client secret comes from the federated credential, not from here"
    % (uid(), uid(), uid()),
)
look(
    "gcp_service_account_email",
    "gcloud iam service-accounts keys list --iam-account=etl-runner@acme-analytics-prod.iam.gserviceaccount.com --managed-by=user",
)
look(
    "gcp_private_key_id_only",
    '"private_key_id": "%s"  <- just the key id, the key itself lives in Secret Manager' % hx(40),
)
look(
    "google_oauth_client_id",
    "GOOGLE_CLIENT_ID=%s-%s.apps.googleusercontent.com" % (dg(12), rs(LO + DG, 32)),
)
look(
    "twilio_account_sid", "TWILIO_ACCOUNT_SID=AC%s\nTWILIO_AUTH_TOKEN=${TWILIO_AUTH_TOKEN}" % hx(32)
)
look(
    "stripe_object_ids",
    "$ stripe charges retrieve ch_3%s\n  customer: cus_%s\n  payment_intent: pi_3%s\n  price: price_1%s"
    % (rs(AN, 23), rs(AN, 14), rs(AN, 23), rs(AN, 23)),
)
look(
    "stripe_idempotency_key",
    'curl https://api.stripe.com/v1/payouts \\\n  -u "$STRIPE_SECRET_KEY:" \\\n  -H "Idempotency-Key: %s" \\\n  -d amount=5000 -d currency=eur'
    % uid(),
)
look(
    "stripe_docs_test_key",
    "// from the Stripe docs quickstart\nconst stripe = require('stripe')('sk_test_4eC39HqLyjWDarjtT1zdp7dc');",
)
look(
    "stripe_publishable_key",
    '<script>\n  const stripe = Stripe("pk_live_51%s");\n</script>' % rs(AN, 97),
)
look("stripe_masked_key", "Using key sk_live_...%s (restricted: no)" % rs(AN, 4))
look(
    "airtable_base_and_table_ids",
    "https://airtable.com/app%s/tbl%s/viw%s" % (rs(AN, 14), rs(AN, 14), rs(AN, 14)),
)
look(
    "slack_ids",
    "channel=C0%s user=U0%s team=T0%s ts=%s.%s"
    % (rs(UP + DG, 9), rs(UP + DG, 9), rs(UP + DG, 8), dg(10), dg(6)),
)
look("discord_snowflakes", "guild_id=%s channel_id=%s message_id=%s" % (dg(18), dg(19), dg(19)))
_gid = dg(8)
look(
    "github_node_id",
    '{"login":"octo-ops","id":%s,"node_id":"%s"}' % (_gid, b64(("04:User" + _gid).encode())),
)
look("sentry_event_id", "Sentry event %s captured (release api@2.8.1)" % hx(32))

# request / trace ids
look(
    "request_id_header",
    "HTTP/1.1 502 Bad Gateway\nx-request-id: %s\nx-envoy-upstream-service-time: 30001" % uid(),
)
look("traceparent_header", "traceparent: 00-%s-%s-01" % (hx(32), hx(16)))
look(
    "otel_log_trace_ids",
    '{"level":"error","msg":"token refresh failed","trace_id":"%s","span_id":"%s","user_id":"%s"}'
    % (hx(32), hx(16), uid()),
)
look(
    "ulid_ids",
    "created job 01%s (parent 01%s)"
    % (rs("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24), rs("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24)),
)
look(
    "github_request_id", "X-GitHub-Request-Id: %s:%s:%s:%s:%s" % (HX(4), HX(5), HX(7), HX(7), HX(8))
)
look("cf_ray_header", "cf-ray: %s-FRA\ncf-cache-status: DYNAMIC" % hx(16))
look(
    "postgres_uuid_rows",
    " id                                   | email\n--------------------------------------+------------------\n %s | a@acme-corp.io\n %s | b@acme-corp.io"
    % (uid(), uid()),
)
look(
    "idempotency_key_code",
    'headers = {"Idempotency-Key": str(uuid.uuid4()), "X-Correlation-Id": "%s"}' % uid(),
)

# placeholders / examples / masked
look(
    "placeholder_angle_brackets",
    'curl https://api.openai.com/v1/models -H "Authorization: Bearer <your-api-key>"',
)
look("placeholder_env_reference", "export OPENAI_API_KEY=${OPENAI_API_KEY:?set it in .env.local}")
look(
    "placeholder_gha_secret",
    "      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}",
)
look(
    "placeholder_helm_template",
    'apiKey: {{ .Values.datadog.apiKey | quote }}\nappKey: {{ required "appKey is required" .Values.datadog.appKey }}',
)
look(
    "placeholder_azure_pipelines",
    "- script: ./deploy.sh\n  env:\n    ARM_CLIENT_SECRET: $(armClientSecret)",
)
look("placeholder_windows_env", "set GITHUB_TOKEN=%GH_PAT%\ngh release upload v1.2.0 dist\\*.zip")
look("placeholder_xxx_key", "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")
look(
    "placeholder_your_key_here",
    "ANTHROPIC_API_KEY=your-api-key-here\nSTRIPE_SECRET_KEY=sk_live_XXXXXXXXXXXXXXXXXXXXXXXX",
)
look(
    "placeholder_readme_table",
    "| Variable | Required | Description |\n|---|---|---|\n| `STRIPE_SECRET_KEY` | yes | Stripe secret key (starts with `sk_live_` or `sk_test_`) |\n| `SENTRY_DSN` | no | Leave empty to disable error reporting |",
)
look(
    "placeholder_changeme_docs",
    "Default login for the local dev container is `admin` / `changeme` - the entrypoint refuses to start in production until you change it.",
)
look("placeholder_connection_string", "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME")
look(
    "placeholder_interpolated_password", "DATABASE_URL=postgresql://app:${DB_PASSWORD}@db:5432/app"
)
look(
    "placeholder_example_domain",
    "https://user:pass@example.com/path  # RFC 3986 userinfo example, do not use",
)
look(
    "placeholder_dummy_test_token",
    'def test_rejects_bad_token(client):\n    resp = client.get("/me", headers={"Authorization": "Bearer not-a-real-token"})\n    assert resp.status_code == 401',
)
look("masked_openai_key", "Key sk-...%s was last used 3 days ago" % rs(AN, 4))
look(
    "masked_github_token",
    "$ gh auth status\ngithub.com\n  ✓ Logged in to github.com account octo-ops (keyring)\n  - Token: gho_************************************\n  - Token scopes: 'gist', 'read:org', 'repo'",
)
look("masked_asterisks_config", 'password: ********\napi_key: "****************%s"' % hx(4))
look(
    "masked_redacted_log",
    "%s INFO  outbound POST https://api.sendgrid.com/v3/mail/send headers={'Authorization': '[REDACTED]'} status=202"
    % iso(),
)
look(
    "masked_filtered_rails",
    'Parameters: {"user"=>{"email"=>"qa@acme-corp.io", "password"=>"[FILTERED]"}, "authenticity_token"=>"[FILTERED]"}',
)
look(
    "masked_sqlalchemy_url",
    'sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at "db" failed\n(Background on this error at: https://sqlalche.me/e/20/e3q8) url=postgresql://app:***@db:5432/app',
)
look("masked_last4", "Card ending 4242 · API key ending ...%s · created 2024-03-01" % hx(4))
look(
    "jwt_io_example",
    "# example from jwt.io\neyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
)
look(
    "jwt_header_only",
    'the token header decodes fine: eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9 -> {"alg":"RS256","typ":"JWT"}',
)

# identifiers & code mentioning credentials
look(
    "code_get_api_key_fn",
    'export function getApiKeyFromEnv(): string {\n  const key = process.env.OPENAI_API_KEY;\n  if (!key) throw new Error("OPENAI_API_KEY is not set");\n  return key;\n}',
)
look(
    "code_token_ttl_const",
    "TOKEN_TTL_SECONDS = 3600\nREFRESH_TOKEN_TTL_DAYS = 30\nPASSWORD_MIN_LENGTH = 12\nMAX_LOGIN_ATTEMPTS = 5",
)
look(
    "code_type_cast",
    "const session = (await getSession(req)) as unknown as SessionWithAccessToken;\nconst token = session.accessToken as string;",
)
look(
    "code_getpass",
    'password = getpass.getpass("Postgres password for %s: " % user)\nconn = psycopg2.connect(dsn, password=password)',
)
look(
    "code_env_lookup_python",
    'api_key = os.environ["STRIPE_SECRET_KEY"]\nwebhook_secret = os.getenv("STRIPE_WEBHOOK_SECRET", "")',
)
look(
    "code_rails_credentials",
    "Stripe.api_key = Rails.application.credentials.dig(:stripe, :secret_key)",
)
look(
    "code_random_secret_gen",
    'const secret = crypto.randomBytes(32).toString("hex");\nawait db.webhooks.update({ id, secret });',
)
look(
    "code_django_env_secret",
    'SECRET_KEY = env("DJANGO_SECRET_KEY")\nDATABASES = {"default": env.db("DATABASE_URL")}',
)
look(
    "code_tokenizer",
    'tokenizer = AutoTokenizer.from_pretrained("meta-llama/Meta-Llama-3-8B-Instruct")\ninputs = tokenizer(prompt, return_tensors="pt", max_length=4096, truncation=True)',
)
look(
    "code_max_tokens",
    'resp = client.messages.create(model="claude-3-5-sonnet-latest", max_tokens=1024, messages=msgs)\nprint(resp.usage.output_tokens)',
)
look(
    "code_password_field_names",
    "class User(Base):\n    password_hash = Column(String(255), nullable=False)\n    password_reset_token_expiry = Column(DateTime)\n    api_key_prefix = Column(String(8))",
)
look(
    "code_jwt_decode",
    'payload = jwt.decode(token, settings.JWT_PUBLIC_KEY, algorithms=["RS256"], audience="api.acme-corp.io")',
)
look(
    "code_secret_manager_fetch",
    'secret = client.access_secret_version(name=f"projects/{project}/secrets/stripe-key/versions/latest")\nkey = secret.payload.data.decode()',
)
look(
    "code_token_bucket",
    "class TokenBucketRateLimiter:\n    def __init__(self, capacity: int = 100, refill_per_sec: float = 10.0): ...",
)
look(
    "code_rust_key_ref",
    'let api_key: &str = &args.api_key;\nlet client = Client::new(api_key).context("missing --api-key")?;',
)
look(
    "code_go_struct_tags",
    'type Config struct {\n\tAPIKey    string `env:"API_KEY,required"`\n\tSecretKey string `env:"SECRET_KEY" json:"-"`\n}',
)
look(
    "shell_date_format",
    'TS=$(date -u +%Y-%m-%dT%H:%M:%SZ)\ntar czf "backup-$(date +%Y%m%d-%H%M%S).tgz" /srv/data',
)
look("shell_password_stdin", 'echo "$CR_PAT" | docker login ghcr.io -u octo-ops --password-stdin')
look("shell_read_secret", 'read -rsp "Vault token: " VAULT_TOKEN && export VAULT_TOKEN')
look("shell_gh_auth_file", "gh auth login --with-token < ~/.config/tokens/gh.txt")
look(
    "shell_aws_configure_var",
    'aws configure set aws_secret_access_key "$AWS_SECRET_ACCESS_KEY" --profile ci',
)
look(
    "config_non_secret_values",
    "JWT_ALGORITHM=RS256\nTOKEN_URL=https://oauth2.googleapis.com/token\nAUTH_PROVIDER=github\nAPI_KEY_HEADER=X-API-Key\nSECRET_BACKEND=vault\nKEY_ROTATION_DAYS=90\nSESSION_COOKIE_NAME=sessionid",
)
look(
    "config_paths_to_credentials",
    "GOOGLE_APPLICATION_CREDENTIALS=/var/secrets/google/key.json\nSSH_KEY_PATH=~/.ssh/id_ed25519\nAWS_PROFILE=prod-readonly\nKUBECONFIG=~/.kube/config",
)
look(
    "config_yaml_token_settings",
    "auth:\n  token:\n    type: bearer\n    lifetime: 15m\n    issuer: https://auth.acme-corp.io\n  password:\n    hash: argon2id\n    min_length: 12",
)
look(
    "sql_password_column_query",
    "SELECT id, email, password_hash, last_login FROM users WHERE api_key_id = $1 AND revoked_at IS NULL;",
)
look(
    "prometheus_metric_token",
    'http_requests_total{method="POST",route="/oauth/token",status="401"} 17\nauth_token_refresh_seconds_bucket{le="0.5"} 1203',
)
look(
    "oauth_response_without_token",
    '{"token_type":"Bearer","expires_in":3599,"scope":"https://www.googleapis.com/auth/cloud-platform","error":"invalid_grant"}',
)
look(
    "npm_package_names",
    "npm install jsonwebtoken@9.0.2 passport-http-bearer@1.0.1 keytar@7.9.0 @aws-sdk/credential-providers@3.592.0",
)
look("go_pseudo_version", "require github.com/golang-jwt/jwt/v5 v5.2.2-0.%s-%s" % (dg(14), hx(12)))

# base64 of ordinary text, long ordinary strings
look("base64_hello_world", "$ echo 'hello world' | base64\naGVsbG8gd29ybGQK")
look(
    "base64_plain_json",
    "payload: eyJldmVudCI6InBhZ2VfdmlldyIsInBhdGgiOiIvcHJpY2luZyIsInJlZiI6Im5ld3NsZXR0ZXIifQ==",
)
look("mime_encoded_subject", "Subject: =?UTF-8?B?WW91ciBpbnZvaWNlIGZvciBNYXkgaXMgcmVhZHk=?=")
look(
    "data_uri_png",
    '<img alt="" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==">',
)
look(
    "base64_config_map",
    "binaryData:\n  banner.txt: V2VsY29tZSB0byB0aGUgQUNNRSBzdGFnaW5nIGNsdXN0ZXIu",
)
look(
    "tailwind_class_string",
    '<button class="inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:pointer-events-none disabled:opacity-50">Save</button>',
)
look(
    "css_modules_hashed_classes",
    '<div class="Header_root__%s Header_sticky__%s">' % (rs(B64U, 5), rs(B64U, 5)),
)
look(
    "long_camelcase_identifier",
    "useInfiniteQueryWithOptimisticUpdatesAndRetryBackoffForPaginatedApiKeysList()",
)
look(
    "long_snake_setting_name",
    "ENABLE_EXPERIMENTAL_PER_TENANT_API_KEY_ROTATION_WITH_GRACE_PERIOD=false",
)
look(
    "uuid_v7_ids",
    "event_id=%s-%s-7%s-%s-%s" % (hx(8), hx(4), hx(3), R.choice("89ab") + hx(3), hx(12)),
)

# design / docs tools and public ids
look(
    "figma_file_url",
    "https://www.figma.com/design/%s/Checkout-Redesign?node-id=%d-%d&t=%s-0"
    % (rs(AN, 22), R.randint(1, 9999), R.randint(1, 9999), rs(AN, 16)),
)
look(
    "google_docs_url",
    "spec: https://docs.google.com/document/d/%s/edit#heading=h.%s"
    % (rs(B64U, 44), rs(LO + DG, 12)),
)
look("google_sheets_id", 'SPREADSHEET_ID = "%s"\nRANGE = "Payouts!A2:F"' % rs(B64U, 44))
look(
    "notion_page_url",
    "https://www.notion.so/acme/Incident-2024-05-12-API-key-leak-postmortem-%s" % hx(32),
)
look("miro_board_url", "https://miro.com/app/board/uXjV%s=/" % rs(AN, 7))
look("loom_share_url", "https://www.loom.com/share/%s" % hx(32))
look("youtube_video_id", "https://www.youtube.com/watch?v=%s&t=312s" % rs(B64U, 11))
look("google_analytics_id", "gtag('config', 'G-%s');" % rs(UP + DG, 10))
look("recaptcha_site_key", '<div class="g-recaptcha" data-sitekey="6L%s"></div>' % rs(B64U, 38))
look(
    "mapbox_public_token",
    "mapboxgl.accessToken = 'pk.%s.%s'; // public token, URL-restricted"
    % (b64u(jd({"u": "acme-maps", "a": rs(LO + DG, 25)}).encode()), rs(B64U, 22)),
)
look(
    "posthog_project_key",
    "posthog.init('phc_%s', { api_host: 'https://eu.i.posthog.com' })" % rs(AN, 43),
)
look(
    "algolia_search_only_key",
    "// search-only key, safe to ship to the browser\nconst searchClient = algoliasearch('%s', '%s');"
    % (rs(UP + DG, 10), hx(32)),
)
look(
    "supabase_anon_key",
    "// public anon key, RLS enforced\nconst supabase = createClient('https://%s.supabase.co', '%s')"
    % (
        rs(LO, 20),
        jwt(
            {"alg": "HS256", "typ": "JWT"},
            {
                "iss": "supabase",
                "ref": rs(LO, 20),
                "role": "anon",
                "iat": 1700000000,
                "exp": 2015576000,
            },
        ),
    ),
)
look("chrome_extension_id", "chrome-extension://%s/options.html" % rs("abcdefghijklmnop", 32))
look(
    "apple_team_bundle_ids",
    "DEVELOPMENT_TEAM = %s;\nPRODUCT_BUNDLE_IDENTIFIER = io.acme.wallet;" % rs(UP + DG, 10),
)
look(
    "hf_model_revision",
    "https://huggingface.co/mistralai/Mistral-7B-v0.1/resolve/%s/config.json" % sha(),
)
look(
    "linear_jira_issue_keys",
    "Fixes ENG-%d, relates to PLAT-%d (token refresh race)"
    % (R.randint(100, 9999), R.randint(100, 9999)),
)

# public keys, certificates, signatures
_, pubb = openssh_ed25519("x")
look("ssh_public_key", "ssh-ed25519 %s jdoe@laptop" % pubb)
look(
    "ssh_rsa_authorized_keys",
    'command="/usr/local/bin/backup-only",no-pty ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ%s backup@nas'
    % rs(B64A, 500),
)
look(
    "known_hosts_line",
    "github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
)
look(
    "ssh_keygen_fingerprint",
    "$ ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 SHA256:%s jdoe@laptop (ED25519)"
    % b64(rb(32)).rstrip("="),
)
look(
    "public_key_pem",
    "-----BEGIN PUBLIC KEY-----\n%s\n-----END PUBLIC KEY-----"
    % pem_body(
        bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100")
        + rb(260)
    ),
)
look(
    "certificate_pem",
    "-----BEGIN CERTIFICATE-----\n%s\n-----END CERTIFICATE-----"
    % pem_body(bytes.fromhex("308203") + rb(780)),
)
look(
    "pgp_signature_block",
    "-----BEGIN PGP SIGNATURE-----\n\n%s\n=%s\n-----END PGP SIGNATURE-----"
    % (pem_body(b"\x88\x75\x04\x00\x16\x0a" + rb(110)), b64(rb(3))),
)
look(
    "gpg_fingerprint",
    "pub   ed25519 2023-09-01 [SC]\n      %s\nuid           [ultimate] Release Bot <releases@acme-corp.io>"
    % HX(40),
)
look(
    "wireguard_public_key_peer",
    "[Peer]\nPublicKey = %s\nAllowedIPs = 10.8.0.0/24\nEndpoint = 203.0.113.4:51820\nPersistentKeepalive = 25"
    % b64(rb(32)),
)
look(
    "age_public_key",
    "age -r %s -o secrets.tar.age secrets.tar" % bech32("age", _conv(list(rb(32)), 8, 5)),
)
look(
    "cosign_public_key_ref",
    "cosign verify --key https://acme-corp.io/cosign.pub ghcr.io/acme/api@sha256:%s" % hx(64),
)
look("tls_cert_fingerprint", "SHA256 Fingerprint=%s" % ":".join(HX(2) for _ in range(32)))

# crypto public data
look("ethereum_address", "Sent 0.5 ETH to 0x%s (nonce 42)" % hx(40))
look("ethereum_tx_hash", "https://etherscan.io/tx/0x%s" % hx(64))
look(
    "ethereum_block_hash",
    '{"number":"0x%s","hash":"0x%s","parentHash":"0x%s"}' % (hx(7), hx(64), hx(64)),
)
look("bitcoin_address", "withdraw to bc1q%s" % bech32("bc", [0] + _conv(list(rb(20)), 8, 5))[4:])
look("bitcoin_txid", "txid: %s (confirmations: 6)" % hx(64))
look(
    "bip32_xpub",
    "watch-only wallet imported from %s"
    % b58check(
        bytes.fromhex("0488b21e") + b"\x03" + rb(4) + b"\x00" * 4 + rb(32) + b"\x02" + rb(32)
    ),
)
look("solana_address", "solana transfer %s 1.25 --allow-unfunded-recipient" % b58enc(rb(32)))
look("solana_tx_signature", "Signature: %s" % b58enc(rb(64)))
look(
    "bip39_word_prose",
    "Tip: abandon the old draft and ask the audit team about the account balance before the auction.",
)
look(
    "ens_name_and_contract",
    "resolver for acme.eth is 0x%s; contract verified on block %s" % (hx(40), dg(8)),
)


# =================================================================== output
def main():
    seen = set()
    for e in SECRETS:
        assert e["secret"] in e["text"], e["kind"]
        assert e["secret"] not in seen, ("duplicate secret", e["kind"])
        seen.add(e["secret"])
    for lk in LOOKS:
        for sec in seen:
            assert sec not in lk["text"], ("look-alike contains a secret", lk["kind"])
    kinds = {e["kind"] for e in SECRETS}
    about = (
        "Generated by make.py with random.Random(%d), standard library only, from general "
        "knowledge of credential formats (no redactor code or other corpora consulted): "
        "%d fake secrets of %d kinds in %d presentation forms, and %d innocent look-alikes "
        "that must survive unchanged; all secret values are random, none real."
        % (SEED, len(SECRETS), len(kinds), len(FORMS), len(LOOKS))
    )
    corpus = {"about": about, "secrets": SECRETS, "lookalikes": LOOKS}
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(corpus, f, indent=1, ensure_ascii=False)
        f.write("\n")
    # re-load and re-verify from disk
    with open(OUT, encoding="utf-8") as f:
        back = json.load(f)
    assert all(s["secret"] in s["text"] for s in back["secrets"])
    assert set(back) == {"about", "secrets", "lookalikes"}
    print("seed", SEED)
    print(
        "secrets",
        len(back["secrets"]),
        "kinds",
        len({s["kind"] for s in back["secrets"]}),
        "forms",
        len(FORMS),
        "lookalikes",
        len(back["lookalikes"]),
        "lookalike kinds",
        len({x["kind"] for x in back["lookalikes"]}),
    )
    print("forms:", ", ".join("%s=%d" % kv for kv in sorted(FORMS.items())))
    print("wrote", OUT)


if __name__ == "__main__":
    main()
