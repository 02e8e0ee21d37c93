#!/usr/bin/env python3
# ruff: noqa  (a corpus written apart from brain, kept as it was written)
"""A fourth blind corpus of fake credentials and innocent look-alikes.

SEED = 730519 (every random value is drawn from random.Random(SEED), in order).

Written from general knowledge of how credentials of real services look, without
reading brain's redactor, its tests, or any other corpus (only the JSON format of
``secrets_holdout.py`` was taken). Standard library only. It leans on what a rule list
is likely to miss: less famous SaaS and clouds, Chinese, Japanese, Korean and European
services, database and broker URLs, signing keys, webhook URLs with the secret in the
path, wallet keys and seed phrases, key files, licence keys, session cookies, HMAC and
JWT secrets, TOTP seeds, and values with no prefix at all, known only by the name or
the command around them.

Writes ``data/secrets_blind4.json``. Each secret's ``kind`` is ``<credential> [<form>]``.
Score it once, blind:
``python benchmarks/secrets_holdout.py --data benchmarks/data/secrets_blind4.json``.
"""

import base64
import json
import random
import string
from pathlib import Path

SEED = 730519
R = random.Random(SEED)
OUT = Path(__file__).parent / "data" / "secrets_blind4.json"

UP, LO, DG = string.ascii_uppercase, string.ascii_lowercase, string.digits
AN = UP + LO + DG
LAN = LO + DG
UAN = UP + DG
HEX = "0123456789abcdef"
B64 = AN + "+/"
B64U = AN + "-_"
B32 = UP + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
PWCH = AN + "!#%^*-_.+=~"  # passwords outside URLs
URLPW = AN + "-_.~"  # passwords that sit in a URL's userinfo


# ------------------------------------------------------------------ helpers
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


def b64(n):
    return base64.b64encode(rb(n)).decode()


def b64u(n):
    return base64.urlsafe_b64encode(rb(n)).decode().rstrip("=")


def uid():
    h = hx(32)
    h = h[:12] + "4" + h[13:16] + R.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def pw(n=None, alpha=PWCH):
    n = n or R.randint(14, 22)
    while True:
        p = rs(alpha, n)
        if any(c in DG for c in p) and any(c in UP for c in p) and p[0] in AN:
            return p


def upw(n=None):
    return pw(n, URLPW)


def jwt(payload, alg="HS256", siglen=43):
    head = {"alg": alg, "typ": "JWT"}
    enc = lambda d: (
        base64.urlsafe_b64encode(json.dumps(d, separators=(",", ":")).encode()).decode().rstrip("=")
    )
    return f"{enc(head)}.{enc(payload)}.{b64u(siglen * 3 // 4 + 1)[:siglen]}"


def wrap(s, n=64):
    return "\n".join(s[i : i + n] for i in range(0, len(s), n))


def pem(label, prefix, n, width=64):
    body = wrap(base64.b64encode(prefix + rb(n)).decode(), width)
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----", body


def camel(var):
    p = var.lower().split("_")
    return p[0] + "".join(x.title() for x in p[1:])


def slug(s):
    return "".join(c if c.isalnum() else "-" for c in s.lower()).strip("-").replace("--", "-")


WORDS = (
    "abandon ability able about above absent absorb abstract absurd abuse access accident account "
    "accuse achieve acid acoustic acquire across act action actor actress actual adapt add addict "
    "address adjust admit adult advance advice aerobic affair afford afraid again age agent agree "
    "ahead aim air airport aisle alarm album alcohol alert alien all alley allow almost alone alpha "
    "already also alter always amateur amazing among amount amused analyst anchor ancient anger "
    "angle angry animal ankle announce annual another answer antenna antique anxiety any apart "
    "apology appear apple approve april arch arctic area arena argue arm armed armor army around "
    "arrange arrest arrive arrow art artefact artist artwork ask aspect assault asset assist assume "
    "asthma athlete atom attack attend attitude attract auction audit august aunt author auto "
    "autumn average avocado avoid awake aware away awesome awful awkward axis baby bachelor bacon "
    "badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base basic "
    "basket battle beach bean beauty because become beef before begin behave behind believe below "
    "belt bench benefit best betray better between beyond bicycle bid bike bind biology bird birth "
    "bitter black blade blame blanket blast bleak bless blind blood blossom blouse blue blur blush "
    "board boat body boil bomb bone bonus book boost border boring borrow boss bottom bounce box "
    "boy bracket brain brand brass brave bread breeze brick bridge brief bright bring brisk "
    "broccoli broken bronze broom brother brown brush bubble buddy budget buffalo build bulb bulk "
    "bullet bundle bunker burden burger burst bus business busy butter buyer buzz cabbage cabin "
    "cable cactus window wine wing wink winner winter wire wisdom wise wish witness wolf woman "
    "wonder wood wool word work world worry worth wrap wreck wrestle wrist write wrong yard year "
    "yellow you young youth zebra zero zone zoo"
).split()


def phrase(n):
    return " ".join(R.choice(WORDS) for _ in range(n))


# ------------------------------------------------- forms for a named value
class C:
    """One named credential: the service, the variable it lives in, its field, its value."""

    def __init__(self, svc, var, field, val, hdr=None):
        self.svc, self.var, self.field, self.val, self.hdr = svc, var, field, val, hdr
        self.slug = slug(svc)
        self.camel = camel(field)
        self.cls = "".join(w[:1].upper() + w[1:] for w in slug(svc).split("-")) + "Client"
        self.host = f"api.{self.slug.split('-')[0]}.example.net"


def f_env(c):
    return f"# {c.svc}\nAPP_ENV=production\n{c.var}={c.val}\nLOG_LEVEL=info\n"


def f_export(c):
    return f"# add to ~/.zshrc\nexport PATH=\"$HOME/.local/bin:$PATH\"\nexport {c.var}='{c.val}'\n"


def f_compose(c):
    return (
        "services:\n  api:\n    image: registry.example.net/shop/api:2.14.1\n    environment:\n"
        f'      TZ: Europe/Berlin\n      {c.var}: "{c.val}"\n    ports:\n      - "8080:8080"\n'
    )


def f_k8s_stringdata(c):
    return (
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {c.slug}-creds\n  namespace: prod\n"
        f"type: Opaque\nstringData:\n  {c.var}: {c.val}\n"
    )


def f_k8s_data(c):
    enc = base64.b64encode(c.val.encode()).decode()
    text = (
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {c.slug}\ntype: Opaque\ndata:\n"
        f"  {c.field.replace('_', '-')}: {enc}\n"
    )
    return text, enc


def f_configmap(c):
    return (
        f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {c.slug}-config\ndata:\n"
        f'  REGION: eu-central-1\n  {c.var}: "{c.val}"\n  RETRIES: "3"\n'
    )


def f_json(c):
    return json.dumps(
        {
            "name": "billing-worker",
            c.slug: {"endpoint": f"https://{c.host}", c.camel: c.val},
            "debug": False,
        },
        indent=2,
    )


def f_log_json(c):
    inner = json.dumps({"service": c.slug, c.camel: c.val, "timeout": 30})
    return "2026-03-14T09:12:44.118Z INFO  config.loader - loaded " + json.dumps(
        {"source": "env", "payload": inner}
    )


def f_toml(c):
    return f'[server]\nport = 8080\n\n[{c.slug.replace("-", "_")}]\n{c.field} = "{c.val}"\nenabled = true\n'


def f_ini(c):
    return f"[DEFAULT]\nregion = ap-northeast-1\n\n[{c.slug}]\n{c.field} = {c.val}\n"


def f_hcl(c):
    return f'provider "{c.slug.replace("-", "_")}" {{\n  {c.field} = "{c.val}"\n  region = "eu-west-3"\n}}\n'


def f_spring_xml(c):
    return (
        f'<bean id="{c.camel}Client" class="com.example.{c.cls}">\n'
        f'  <property name="endpoint" value="https://{c.host}"/>\n'
        f'  <property name="{c.camel}" value="{c.val}"/>\n</bean>\n'
    )


def f_properties(c):
    return f"# {c.svc}\n{c.slug.replace('-', '.')}.endpoint=https://{c.host}\n{c.slug.replace('-', '.')}.{c.camel}={c.val}\n"


def f_md(c):
    return f"| Setting | Value |\n|---|---|\n| Region | eu-west-1 |\n| {c.var} | `{c.val}` |\n"


def f_py_sdk(c):
    return f'from {c.slug.replace("-", "_")} import {c.cls}\n\nclient = {c.cls}({c.field}="{c.val}", timeout=10)\n'


def f_js_sdk(c):
    return f"import {{ {c.cls} }} from '@{c.slug}/sdk';\n\nconst client = new {c.cls}({{ {c.camel}: '{c.val}' }});\n"


def f_go_sdk(c):
    return f'client, err := {c.slug.replace("-", "")}.NewClient({c.slug.replace("-", "")}.Config{{\n\t{c.camel[:1].upper() + c.camel[1:]}: "{c.val}",\n}})\nif err != nil {{\n\treturn err\n}}\n'


def f_rust_sdk(c):
    return f'let client = {c.cls}::builder()\n    .{c.field}("{c.val}")\n    .build()?;\n'


def f_java_sdk(c):
    return f'{c.cls} client = {c.cls}.builder()\n    .{c.camel}("{c.val}")\n    .build();\n'


def f_csharp_sdk(c):
    prop = c.camel[:1].upper() + c.camel[1:]
    return f'var client = new {c.cls}(new {c.cls}Options\n{{\n    {prop} = "{c.val}",\n}});\n'


def f_py_dict(c):
    return f"SETTINGS = {{\n    'timeout': 30,\n    '{c.field}': '{c.val}',\n}}\n"


def f_js_object(c):
    return f"module.exports = {{\n  region: 'us-east-2',\n  {c.camel}: \"{c.val}\",\n}};\n"


def f_diff(c):
    return (
        f"--- a/.env.production\n+++ b/.env.production\n@@ -3,4 +3,5 @@ APP_ENV=production\n"
        f" LOG_LEVEL=info\n-{c.var}=\n+{c.var}={c.val}\n SENTRY_ENVIRONMENT=production\n"
    )


def f_trace(c):
    return (
        'Traceback (most recent call last):\n  File "/srv/app/worker.py", line 88, in run\n'
        "    resp.raise_for_status()\nrequests.exceptions.HTTPError: 401 Client Error: Unauthorized "
        f"for url: https://{c.host}/v1/jobs (sent {c.var}={c.val})\n"
    )


def f_chat(c):
    return R.choice(
        [
            f"ok here is the {c.svc} one, my key is {c.val} -- can you wire it into the worker?",
            f"The {c.svc} {c.field.replace('_', ' ')} I got from the dashboard: {c.val}. Put it in staging only please.",
            f"fyi {c.svc} creds for the demo -> {c.val} (don't commit it)",
        ]
    )


def f_gha(c):
    return (
        "name: deploy\non: [push]\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n"
        f"      {c.var}: {c.val}\n    steps:\n      - uses: actions/checkout@v4\n      - run: make deploy\n"
    )


def f_gitlab(c):
    return f'variables:\n  {c.var}: "{c.val}"\n\ndeploy:\n  stage: deploy\n  script:\n    - ./scripts/deploy.sh\n'


def f_dockerfile(c):
    return f'FROM python:3.12-slim\nWORKDIR /app\nENV {c.var}={c.val}\nCOPY . .\nCMD ["python", "-m", "app"]\n'


def f_systemd(c):
    return (
        f'[Service]\nUser=app\nEnvironment="{c.var}={c.val}"\nExecStart=/usr/local/bin/app serve\n'
    )


def f_powershell(c):
    return f'PS C:\\src\\shop> $env:{c.var} = "{c.val}"\nPS C:\\src\\shop> npm run dev\n'


def f_helm(c):
    return f"replicaCount: 2\n{c.slug.replace('-', '')}:\n  enabled: true\n  {c.camel}: {c.val}\n"


def f_ansible(c):
    return f'---\n# group_vars/prod.yml\n{c.slug.replace("-", "_")}_{c.field}: "{c.val}"\nntp_server: pool.ntp.org\n'


def f_php(c):
    return f"<?php\nreturn [\n    '{c.slug}' => [\n        '{c.field}' => '{c.val}',\n    ],\n];\n"


def f_ruby(c):
    return f'{c.cls}.configure do |config|\n  config.{c.field} = "{c.val}"\nend\n'


def f_yaml(c):
    return f"# application.yml\n{c.slug}:\n  base-url: https://{c.host}\n  {c.field.replace('_', '-')}: {c.val}\n"


def f_header(c):
    h = c.hdr or "X-API-Key"
    line = f"{h}{c.val}" if h.endswith("=") else f"{h} {c.val}" if ":" in h else f"{h}: {c.val}"
    return f"curl -s https://{c.host}/v2/status \\\n  -H 'Accept: application/json' \\\n  -H '{line}'\n"


def f_query(c):
    return f"curl 'https://{c.host}/v1/report?format=csv&{c.field}={c.val}&limit=50'\n"


def f_repl(c):
    return f">>> import os\n>>> os.environ['{c.var}'] = '{c.val}'\n>>> client = {c.cls}()\n"


def f_winset(c):
    return f"C:\\Users\\dev> setx {c.var} {c.val}\n\nSUCCESS: Specified value was saved.\n"


def f_cli_flag(c):
    return f"$ {c.slug}-cli configure --{c.field.replace('_', '-')} {c.val} --profile prod\nConfigured profile 'prod'.\n"


FORMS = {
    "env": f_env,
    "shell export": f_export,
    "docker-compose": f_compose,
    "k8s Secret stringData": f_k8s_stringdata,
    "k8s Secret data base64": f_k8s_data,
    "k8s ConfigMap": f_configmap,
    "JSON": f_json,
    "escaped JSON in a log line": f_log_json,
    "TOML": f_toml,
    "INI": f_ini,
    "HCL": f_hcl,
    "Spring XML": f_spring_xml,
    "Java properties": f_properties,
    "markdown table": f_md,
    "Python SDK": f_py_sdk,
    "JS SDK": f_js_sdk,
    "Go SDK": f_go_sdk,
    "Rust SDK": f_rust_sdk,
    "Java SDK": f_java_sdk,
    "C# SDK": f_csharp_sdk,
    "Python dict": f_py_dict,
    "JS object": f_js_object,
    "diff hunk": f_diff,
    "stack trace": f_trace,
    "chat prose": f_chat,
    "GitHub Actions": f_gha,
    "GitLab CI": f_gitlab,
    "Dockerfile": f_dockerfile,
    "systemd unit": f_systemd,
    "PowerShell": f_powershell,
    "Helm values": f_helm,
    "Ansible vars": f_ansible,
    "PHP array": f_php,
    "Ruby configure": f_ruby,
    "YAML config": f_yaml,
    "curl header": f_header,
    "curl query": f_query,
    "Python REPL": f_repl,
    "Windows setx": f_winset,
    "CLI flag": f_cli_flag,
}

# (credential, service, variable, field, value, header)
NAMED = [
    (
        "doppler service token",
        "Doppler",
        "DOPPLER_TOKEN",
        "token",
        lambda: "dp.st.prd." + rs(AN, 40),
        None,
    ),
    (
        "pulumi access token",
        "Pulumi",
        "PULUMI_ACCESS_TOKEN",
        "access_token",
        lambda: "pul-" + hx(40),
        None,
    ),
    (
        "fly.io deploy token",
        "Fly",
        "FLY_API_TOKEN",
        "api_token",
        lambda: "FlyV1 fm2_" + b64u(96),
        None,
    ),
    ("render api key", "Render", "RENDER_API_KEY", "api_key", lambda: "rnd_" + rs(AN, 32), None),
    ("railway token (uuid)", "Railway", "RAILWAY_TOKEN", "token", uid, None),
    (
        "netlify personal token",
        "Netlify",
        "NETLIFY_AUTH_TOKEN",
        "auth_token",
        lambda: "nfp_" + rs(AN, 36),
        None,
    ),
    ("vercel token (no prefix)", "Vercel", "VERCEL_TOKEN", "token", lambda: rs(AN, 24), None),
    (
        "planetscale service token",
        "PlanetScale",
        "PLANETSCALE_SERVICE_TOKEN",
        "service_token",
        lambda: "pscale_tkn_" + b64u(32),
        None,
    ),
    ("neon api key", "Neon", "NEON_API_KEY", "api_key", lambda: "napi_" + rs(LAN, 60), None),
    (
        "upstash redis rest token",
        "Upstash",
        "UPSTASH_REDIS_REST_TOKEN",
        "rest_token",
        lambda: "A" + rs("XY", 1) + b64u(48),
        "Authorization: Bearer",
    ),
    (
        "linear api key",
        "Linear",
        "LINEAR_API_KEY",
        "api_key",
        lambda: "lin_api_" + rs(AN, 40),
        "Authorization",
    ),
    (
        "notion integration secret",
        "Notion",
        "NOTION_TOKEN",
        "auth",
        lambda: "ntn_" + dg(11) + rs(AN, 35),
        None,
    ),
    (
        "airtable personal access token",
        "Airtable",
        "AIRTABLE_PAT",
        "api_key",
        lambda: "pat" + rs(AN, 14) + "." + hx(64),
        None,
    ),
    (
        "asana personal access token",
        "Asana",
        "ASANA_PAT",
        "access_token",
        lambda: "2/" + dg(16) + "/" + dg(16) + ":" + hx(32),
        None,
    ),
    (
        "clickup api token",
        "ClickUp",
        "CLICKUP_API_TOKEN",
        "api_token",
        lambda: "pk_" + dg(8) + "_" + rs(UAN, 32),
        "Authorization",
    ),
    ("trello token", "Trello", "TRELLO_TOKEN", "token", lambda: "ATTA" + hx(64) + HX(8), None),
    (
        "figma personal token",
        "Figma",
        "FIGMA_TOKEN",
        "token",
        lambda: "figd_" + b64u(30),
        "X-Figma-Token",
    ),
    (
        "postman api key",
        "Postman",
        "POSTMAN_API_KEY",
        "api_key",
        lambda: "PMAK-" + hx(24) + "-" + hx(34),
        "X-Api-Key",
    ),
    (
        "sentry user auth token",
        "Sentry",
        "SENTRY_AUTH_TOKEN",
        "auth_token",
        lambda: "sntryu_" + hx(64),
        None,
    ),
    ("datadog api key (32 hex)", "Datadog", "DD_API_KEY", "api_key", lambda: hx(32), "DD-API-KEY"),
    (
        "datadog application key (40 hex)",
        "Datadog",
        "DD_APP_KEY",
        "app_key",
        lambda: hx(40),
        "DD-APPLICATION-KEY",
    ),
    (
        "new relic license key",
        "New Relic",
        "NEW_RELIC_LICENSE_KEY",
        "license_key",
        lambda: hx(36) + "NRAL",
        None,
    ),
    (
        "new relic user key",
        "New Relic",
        "NEW_RELIC_API_KEY",
        "api_key",
        lambda: "NRAK-" + rs(UAN, 27),
        "Api-Key",
    ),
    (
        "honeycomb ingest key",
        "Honeycomb",
        "HONEYCOMB_API_KEY",
        "api_key",
        lambda: "hcaik_" + rs(LAN, 58),
        "X-Honeycomb-Team",
    ),
    (
        "grafana service account token",
        "Grafana",
        "GRAFANA_SA_TOKEN",
        "token",
        lambda: "glsa_" + rs(AN, 32) + "_" + hx(8),
        None,
    ),
    (
        "grafana cloud access policy token",
        "Grafana Cloud",
        "GRAFANA_CLOUD_TOKEN",
        "token",
        lambda: "glc_" + b64(90).rstrip("="),
        None,
    ),
    (
        "pagerduty api key",
        "PagerDuty",
        "PAGERDUTY_TOKEN",
        "token",
        lambda: "u+" + b64u(15)[:18],
        "Authorization: Token token=",
    ),
    (
        "opsgenie api key (uuid)",
        "Opsgenie",
        "OPSGENIE_API_KEY",
        "api_key",
        uid,
        "Authorization: GenieKey",
    ),
    (
        "bugsnag api key (32 hex)",
        "Bugsnag",
        "BUGSNAG_API_KEY",
        "api_key",
        lambda: hx(32),
        "Bugsnag-Api-Key",
    ),
    (
        "rollbar server token",
        "Rollbar",
        "ROLLBAR_ACCESS_TOKEN",
        "access_token",
        lambda: hx(32),
        "X-Rollbar-Access-Token",
    ),
    ("launchdarkly sdk key", "LaunchDarkly", "LD_SDK_KEY", "sdk_key", lambda: "sdk-" + uid(), None),
    (
        "algolia admin api key",
        "Algolia",
        "ALGOLIA_ADMIN_KEY",
        "admin_api_key",
        lambda: hx(32),
        "X-Algolia-API-Key",
    ),
    (
        "mapbox secret token",
        "Mapbox",
        "MAPBOX_SECRET_TOKEN",
        "access_token",
        lambda: "sk.eyJ1IjoiYWNtZS1tYXBzIiwiYSI6I" + rs(AN, 26) + "In0." + b64u(16),
        None,
    ),
    (
        "contentful management token",
        "Contentful",
        "CONTENTFUL_MANAGEMENT_TOKEN",
        "management_token",
        lambda: "CFPAT-" + b64u(32),
        None,
    ),
    (
        "contentful delivery token (no prefix)",
        "Contentful",
        "CONTENTFUL_DELIVERY_TOKEN",
        "access_token",
        lambda: b64u(32),
        None,
    ),
    ("sanity api token", "Sanity", "SANITY_API_TOKEN", "token", lambda: "sk" + rs(AN, 180), None),
    (
        "twilio auth token (32 hex)",
        "Twilio",
        "TWILIO_AUTH_TOKEN",
        "auth_token",
        lambda: hx(32),
        None,
    ),
    ("vonage api secret", "Vonage", "VONAGE_API_SECRET", "api_secret", lambda: rs(AN, 16), None),
    (
        "messagebird access key",
        "MessageBird",
        "MESSAGEBIRD_ACCESS_KEY",
        "access_key",
        lambda: rs(AN, 25),
        "Authorization: AccessKey",
    ),
    ("plivo auth token", "Plivo", "PLIVO_AUTH_TOKEN", "auth_token", lambda: rs(AN, 40), None),
    (
        "mailgun api key",
        "Mailgun",
        "MAILGUN_API_KEY",
        "api_key",
        lambda: hx(32) + "-" + hx(8) + "-" + hx(8),
        None,
    ),
    (
        "postmark server token (uuid)",
        "Postmark",
        "POSTMARK_SERVER_TOKEN",
        "server_token",
        uid,
        "X-Postmark-Server-Token",
    ),
    (
        "brevo api key",
        "Brevo",
        "BREVO_API_KEY",
        "api_key",
        lambda: "xkeysib-" + hx(64) + "-" + rs(AN, 16),
        "api-key",
    ),
    ("mailjet secret key", "Mailjet", "MJ_APIKEY_PRIVATE", "api_secret", lambda: hx(32), None),
    (
        "mailchimp api key",
        "Mailchimp",
        "MAILCHIMP_API_KEY",
        "api_key",
        lambda: hx(32) + "-us" + str(R.randint(2, 21)),
        None,
    ),
    (
        "resend api key",
        "Resend",
        "RESEND_API_KEY",
        "api_key",
        lambda: "re_" + rs(AN, 8) + "_" + rs(AN, 24),
        None,
    ),
    (
        "sparkpost api key (40 hex)",
        "SparkPost",
        "SPARKPOST_API_KEY",
        "api_key",
        lambda: hx(40),
        "Authorization",
    ),
    ("pusher app secret", "Pusher", "PUSHER_APP_SECRET", "secret", lambda: hx(20), None),
    (
        "ably api key",
        "Ably",
        "ABLY_API_KEY",
        "key",
        lambda: rs(AN, 6) + "." + rs(AN, 6) + ":" + b64u(32),
        None,
    ),
    (
        "pubnub secret key",
        "PubNub",
        "PUBNUB_SECRET_KEY",
        "secret_key",
        lambda: "sec-c-" + b64(36).rstrip("="),
        None,
    ),
    (
        "agora app certificate",
        "Agora",
        "AGORA_APP_CERTIFICATE",
        "app_certificate",
        lambda: hx(32),
        None,
    ),
    (
        "backblaze b2 application key",
        "Backblaze B2",
        "B2_APPLICATION_KEY",
        "application_key",
        lambda: "K00" + str(R.randint(1, 9)) + b64(21)[:27].replace("/", "x").replace("+", "y"),
        None,
    ),
    (
        "digitalocean personal token",
        "DigitalOcean",
        "DIGITALOCEAN_TOKEN",
        "token",
        lambda: "dop_v1_" + hx(64),
        None,
    ),
    ("linode token (64 hex)", "Linode", "LINODE_TOKEN", "token", lambda: hx(64), None),
    ("vultr api key", "Vultr", "VULTR_API_KEY", "api_key", lambda: rs(UAN, 36), None),
    ("hetzner cloud token", "Hetzner Cloud", "HCLOUD_TOKEN", "token", lambda: rs(AN, 64), None),
    ("scaleway secret key (uuid)", "Scaleway", "SCW_SECRET_KEY", "secret_key", uid, "X-Auth-Token"),
    (
        "ovh application secret",
        "OVH",
        "OVH_APPLICATION_SECRET",
        "application_secret",
        lambda: rs(AN, 32),
        None,
    ),
    (
        "ovh consumer key",
        "OVH",
        "OVH_CONSUMER_KEY",
        "consumer_key",
        lambda: rs(AN, 32),
        "X-Ovh-Consumer",
    ),
    (
        "exoscale api secret",
        "Exoscale",
        "EXOSCALE_API_SECRET",
        "api_secret",
        lambda: b64u(32),
        None,
    ),
    (
        "ionos api token (jwt)",
        "IONOS Cloud",
        "IONOS_TOKEN",
        "token",
        lambda: jwt(
            {"iss": "ionoscloud", "kid": uid(), "iat": 1767225600, "exp": 1798761600}, "RS256", 342
        ),
        None,
    ),
    (
        "alibaba cloud accesskey secret",
        "Alibaba Cloud",
        "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
        "access_key_secret",
        lambda: rs(AN, 30),
        None,
    ),
    (
        "tencent cloud secretkey",
        "Tencent Cloud",
        "TENCENTCLOUD_SECRET_KEY",
        "secret_key",
        lambda: rs(AN, 32),
        None,
    ),
    (
        "huawei cloud secret access key",
        "Huawei Cloud",
        "HUAWEICLOUD_SDK_SK",
        "sk",
        lambda: rs(AN, 40),
        None,
    ),
    (
        "baidu bce secret key",
        "Baidu Cloud",
        "BCE_SECRET_ACCESS_KEY",
        "secret_access_key",
        lambda: hx(32),
        None,
    ),
    (
        "volcengine secret access key",
        "Volcengine",
        "VOLC_SECRETKEY",
        "secret_key",
        lambda: base64.b64encode(hx(32).encode()).decode(),
        None,
    ),
    ("qiniu secret key", "Qiniu", "QINIU_SECRET_KEY", "secret_key", lambda: b64u(30), None),
    ("ucloud private key", "UCloud", "UCLOUD_PRIVATE_KEY", "private_key", lambda: b64u(30), None),
    (
        "wechat appsecret (32 hex)",
        "WeChat",
        "WECHAT_APP_SECRET",
        "app_secret",
        lambda: hx(32),
        None,
    ),
    (
        "wechat pay apiv3 key",
        "WeChat Pay",
        "WECHATPAY_APIV3_KEY",
        "api_v3_key",
        lambda: rs(AN, 32),
        None,
    ),
    ("feishu app secret", "Feishu", "FEISHU_APP_SECRET", "app_secret", lambda: rs(AN, 32), None),
    ("wecom corpsecret", "WeCom", "WECOM_CORP_SECRET", "corpsecret", lambda: b64u(32), None),
    (
        "line channel access token",
        "LINE Messaging",
        "LINE_CHANNEL_ACCESS_TOKEN",
        "channel_access_token",
        lambda: b64(129).rstrip("=") + "=",
        None,
    ),
    (
        "line channel secret (32 hex)",
        "LINE Messaging",
        "LINE_CHANNEL_SECRET",
        "channel_secret",
        lambda: hx(32),
        None,
    ),
    ("line notify token", "LINE Notify", "LINE_NOTIFY_TOKEN", "token", lambda: rs(AN, 43), None),
    (
        "kakao rest api key (32 hex)",
        "Kakao",
        "KAKAO_REST_API_KEY",
        "rest_api_key",
        lambda: hx(32),
        "Authorization: KakaoAK",
    ),
    ("kakao admin key", "Kakao", "KAKAO_ADMIN_KEY", "admin_key", lambda: hx(32), None),
    (
        "naver cloud secret key",
        "Naver Cloud",
        "NCLOUD_SECRET_KEY",
        "secret_key",
        lambda: rs(AN, 40),
        None,
    ),
    (
        "naver login client secret",
        "Naver",
        "NAVER_CLIENT_SECRET",
        "client_secret",
        lambda: rs(AN, 10),
        "X-Naver-Client-Secret",
    ),
    (
        "toss payments secret key",
        "Toss Payments",
        "TOSS_SECRET_KEY",
        "secret_key",
        lambda: "live_gsk_" + rs(AN, 24),
        None,
    ),
    ("portone api secret", "PortOne", "PORTONE_API_SECRET", "api_secret", lambda: rs(AN, 80), None),
    (
        "pay.jp secret key",
        "PAY.JP",
        "PAYJP_SECRET_KEY",
        "secret_key",
        lambda: "sk_live_" + hx(48),
        None,
    ),
    (
        "komoju secret key",
        "KOMOJU",
        "KOMOJU_SECRET_KEY",
        "secret_key",
        lambda: "sk_live_" + rs(LAN, 28),
        None,
    ),
    (
        "sakura cloud access token secret",
        "Sakura Cloud",
        "SAKURACLOUD_ACCESS_TOKEN_SECRET",
        "access_token_secret",
        lambda: rs(AN, 64),
        None,
    ),
    (
        "chatwork api token (32 hex)",
        "Chatwork",
        "CHATWORK_API_TOKEN",
        "api_token",
        lambda: hx(32),
        "X-ChatWorkToken",
    ),
    (
        "gmo payment gateway shop password",
        "GMO Payment Gateway",
        "GMO_SHOP_PASS",
        "shop_pass",
        lambda: rs(LAN, 8),
        None,
    ),
    (
        "rakuten application secret",
        "Rakuten",
        "RAKUTEN_APPLICATION_SECRET",
        "application_secret",
        lambda: hx(40),
        None,
    ),
    (
        "mollie live api key",
        "Mollie",
        "MOLLIE_API_KEY",
        "api_key",
        lambda: "live_" + rs(AN, 30),
        None,
    ),
    (
        "adyen api key",
        "Adyen",
        "ADYEN_API_KEY",
        "api_key",
        lambda: "AQE" + rs(AN, 20) + "+" + rs(AN, 60) + "==-" + b64(32) + "-" + rs(AN, 12),
        "X-API-Key",
    ),
    ("adyen hmac key (64 hex)", "Adyen", "ADYEN_HMAC_KEY", "hmac_key", lambda: HX(64), None),
    (
        "klarna api password",
        "Klarna",
        "KLARNA_PASSWORD",
        "password",
        lambda: rs(AN, 16) + "." + rs(AN, 16),
        None,
    ),
    (
        "paddle api key",
        "Paddle",
        "PADDLE_API_KEY",
        "api_key",
        lambda: "pdl_live_apikey_" + rs(LAN, 26) + "_" + rs(AN, 22) + "_" + rs(AN, 3),
        None,
    ),
    (
        "gocardless access token",
        "GoCardless",
        "GOCARDLESS_ACCESS_TOKEN",
        "access_token",
        lambda: "live_" + b64u(30),
        None,
    ),
    (
        "razorpay key secret",
        "Razorpay",
        "RAZORPAY_KEY_SECRET",
        "key_secret",
        lambda: rs(AN, 24),
        None,
    ),
    (
        "paystack secret key",
        "Paystack",
        "PAYSTACK_SECRET_KEY",
        "secret_key",
        lambda: "sk_live_" + hx(40),
        None,
    ),
    (
        "flutterwave secret key",
        "Flutterwave",
        "FLW_SECRET_KEY",
        "secret_key",
        lambda: "FLWSECK-" + hx(32) + "-X",
        None,
    ),
    (
        "mercado pago access token",
        "Mercado Pago",
        "MP_ACCESS_TOKEN",
        "access_token",
        lambda: "APP_USR-" + dg(16) + "-" + dg(6) + "-" + hx(32) + "-" + dg(9),
        None,
    ),
    (
        "square access token",
        "Square",
        "SQUARE_ACCESS_TOKEN",
        "access_token",
        lambda: "EAAA" + b64u(45)[:60],
        None,
    ),
    (
        "braintree private key (32 hex)",
        "Braintree",
        "BRAINTREE_PRIVATE_KEY",
        "private_key",
        lambda: hx(32),
        None,
    ),
    ("plaid secret (30 hex)", "Plaid", "PLAID_SECRET", "secret", lambda: hx(30), "PLAID-SECRET"),
    ("wise api token (uuid)", "Wise", "WISE_API_TOKEN", "api_token", uid, None),
    ("binance api secret", "Binance", "BINANCE_API_SECRET", "api_secret", lambda: rs(AN, 64), None),
    ("kraken private key", "Kraken", "KRAKEN_PRIVATE_KEY", "private_key", lambda: b64(64), None),
    ("alchemy api key", "Alchemy", "ALCHEMY_API_KEY", "api_key", lambda: b64u(24), None),
    (
        "infura api key secret",
        "Infura",
        "INFURA_API_KEY_SECRET",
        "api_key_secret",
        lambda: hx(32),
        None,
    ),
    ("etherscan api key", "Etherscan", "ETHERSCAN_API_KEY", "api_key", lambda: rs(UAN, 34), None),
    (
        "tailscale auth key",
        "Tailscale",
        "TS_AUTHKEY",
        "auth_key",
        lambda: "tskey-auth-k" + rs(AN, 16) + "CNTRL-" + rs(AN, 33),
        None,
    ),
    (
        "cloudflare api token",
        "Cloudflare",
        "CLOUDFLARE_API_TOKEN",
        "api_token",
        lambda: b64u(30),
        None,
    ),
    (
        "cloudflare global api key (37 hex)",
        "Cloudflare",
        "CF_API_KEY",
        "api_key",
        lambda: hx(37),
        "X-Auth-Key",
    ),
    ("fastly api token", "Fastly", "FASTLY_API_TOKEN", "api_token", lambda: b64u(24), "Fastly-Key"),
    (
        "akamai edgegrid client secret",
        "Akamai",
        "AKAMAI_CLIENT_SECRET",
        "client_secret",
        lambda: b64(32),
        None,
    ),
    (
        "terraform cloud token",
        "Terraform Cloud",
        "TFE_TOKEN",
        "token",
        lambda: rs(AN, 14) + ".atlasv1." + rs(AN, 67),
        None,
    ),
    (
        "vault service token",
        "Vault",
        "VAULT_TOKEN",
        "token",
        lambda: "hvs." + rs(AN, 24),
        "X-Vault-Token",
    ),
    ("consul acl token (uuid)", "Consul", "CONSUL_HTTP_TOKEN", "token", uid, "X-Consul-Token"),
    ("nomad acl token (uuid)", "Nomad", "NOMAD_TOKEN", "secret_id", uid, "X-Nomad-Token"),
    (
        "docker hub access token",
        "Docker Hub",
        "DOCKERHUB_TOKEN",
        "token",
        lambda: "dckr_pat_" + b64u(20)[:27],
        None,
    ),
    ("quay robot token", "Quay", "QUAY_ROBOT_TOKEN", "robot_token", lambda: rs(UAN, 64), None),
    (
        "artifactory api key",
        "JFrog Artifactory",
        "ARTIFACTORY_API_KEY",
        "api_key",
        lambda: "AKCp8" + rs(AN, 68),
        "X-JFrog-Art-Api",
    ),
    (
        "rubygems api key",
        "RubyGems",
        "GEM_HOST_API_KEY",
        "api_key",
        lambda: "rubygems_" + hx(48),
        None,
    ),
    (
        "nuget api key",
        "NuGet",
        "NUGET_API_KEY",
        "api_key",
        lambda: "oy2" + rs(LAN, 43),
        "X-NuGet-ApiKey",
    ),
    (
        "crates.io token",
        "crates.io",
        "CARGO_REGISTRY_TOKEN",
        "token",
        lambda: "cio" + rs(AN, 32),
        None,
    ),
    (
        "gitlab runner auth token",
        "GitLab Runner",
        "RUNNER_TOKEN",
        "token",
        lambda: "glrt-" + b64u(20)[:20],
        None,
    ),
    (
        "bitbucket app password",
        "Bitbucket",
        "BITBUCKET_APP_PASSWORD",
        "app_password",
        lambda: "ATBB" + rs(AN, 32) + HX(8),
        None,
    ),
    (
        "atlassian api token",
        "Atlassian",
        "JIRA_API_TOKEN",
        "api_token",
        lambda: "ATATT3xFfGF0" + b64u(140)[:180] + "=" + HX(8),
        None,
    ),
    (
        "gitea access token (40 hex)",
        "Gitea",
        "GITEA_TOKEN",
        "token",
        lambda: hx(40),
        "Authorization: token",
    ),
    ("sonarqube user token", "SonarQube", "SONAR_TOKEN", "token", lambda: "squ_" + hx(40), None),
    ("codecov upload token (uuid)", "Codecov", "CODECOV_TOKEN", "token", uid, None),
    (
        "circleci personal token",
        "CircleCI",
        "CIRCLE_TOKEN",
        "token",
        lambda: "CCIPAT_" + rs(AN, 22) + "_" + hx(40),
        "Circle-Token",
    ),
    ("buildkite agent token", "Buildkite", "BUILDKITE_AGENT_TOKEN", "token", lambda: hx(50), None),
    ("snyk token (uuid)", "Snyk", "SNYK_TOKEN", "token", uid, "Authorization: token"),
    (
        "okta api token",
        "Okta",
        "OKTA_API_TOKEN",
        "api_token",
        lambda: "00" + b64u(30)[:40],
        "Authorization: SSWS",
    ),
    (
        "auth0 client secret",
        "Auth0",
        "AUTH0_CLIENT_SECRET",
        "client_secret",
        lambda: b64u(48),
        None,
    ),
    (
        "azure ad client secret",
        "Azure AD",
        "AZURE_CLIENT_SECRET",
        "client_secret",
        lambda: rs(AN, 3) + R.choice(DG) + "Q~" + rs(AN + "-_.~", 34),
        None,
    ),
    (
        "google oauth client secret",
        "Google OAuth",
        "GOOGLE_CLIENT_SECRET",
        "client_secret",
        lambda: "GOCSPX-" + b64u(21)[:28],
        None,
    ),
    (
        "keycloak client secret",
        "Keycloak",
        "KEYCLOAK_CLIENT_SECRET",
        "client_secret",
        lambda: rs(AN, 32),
        None,
    ),
    (
        "hasura admin secret",
        "Hasura",
        "HASURA_GRAPHQL_ADMIN_SECRET",
        "admin_secret",
        lambda: pw(24),
        "x-hasura-admin-secret",
    ),
    (
        "stytch secret",
        "Stytch",
        "STYTCH_SECRET",
        "secret",
        lambda: "secret-live-" + b64u(27)[:36] + "=",
        None,
    ),
    ("workos api key", "WorkOS", "WORKOS_API_KEY", "api_key", lambda: "sk_" + rs(AN, 60), None),
    (
        "lemon squeezy api key (jwt)",
        "Lemon Squeezy",
        "LEMONSQUEEZY_API_KEY",
        "api_key",
        lambda: jwt(
            {"aud": "1", "jti": hx(80), "iat": 1767225600, "sub": dg(6), "scopes": []}, "RS256", 342
        ),
        None,
    ),
    (
        "hubspot private app token",
        "HubSpot",
        "HUBSPOT_ACCESS_TOKEN",
        "access_token",
        lambda: "pat-eu1-" + uid(),
        None,
    ),
    (
        "salesforce consumer secret",
        "Salesforce",
        "SF_CONSUMER_SECRET",
        "consumer_secret",
        lambda: HX(64),
        None,
    ),
    ("zendesk api token", "Zendesk", "ZENDESK_API_TOKEN", "api_token", lambda: rs(AN, 40), None),
    (
        "intercom access token",
        "Intercom",
        "INTERCOM_ACCESS_TOKEN",
        "access_token",
        lambda: "dG9rOj" + b64(42).rstrip("=") + "=",
        None,
    ),
    ("freshdesk api key", "Freshdesk", "FRESHDESK_API_KEY", "api_key", lambda: rs(AN, 20), None),
    (
        "mixpanel service account secret",
        "Mixpanel",
        "MIXPANEL_SERVICE_SECRET",
        "secret",
        lambda: rs(AN, 32),
        None,
    ),
    (
        "amplitude secret key (32 hex)",
        "Amplitude",
        "AMPLITUDE_SECRET_KEY",
        "secret_key",
        lambda: hx(32),
        None,
    ),
    (
        "posthog personal api key",
        "PostHog",
        "POSTHOG_PERSONAL_API_KEY",
        "personal_api_key",
        lambda: "phx_" + rs(AN, 47),
        None,
    ),
    ("hugging face token", "Hugging Face", "HF_TOKEN", "token", lambda: "hf_" + rs(AN, 34), None),
    (
        "replicate api token",
        "Replicate",
        "REPLICATE_API_TOKEN",
        "api_token",
        lambda: "r8_" + rs(AN, 37),
        None,
    ),
    ("cohere api key (no prefix)", "Cohere", "CO_API_KEY", "api_key", lambda: rs(AN, 40), None),
    (
        "mistral api key (no prefix)",
        "Mistral",
        "MISTRAL_API_KEY",
        "api_key",
        lambda: rs(AN, 32),
        None,
    ),
    ("groq api key", "Groq", "GROQ_API_KEY", "api_key", lambda: "gsk_" + rs(AN, 52), None),
    (
        "perplexity api key",
        "Perplexity",
        "PPLX_API_KEY",
        "api_key",
        lambda: "pplx-" + rs(AN, 48),
        None,
    ),
    ("deepseek api key", "DeepSeek", "DEEPSEEK_API_KEY", "api_key", lambda: "sk-" + hx(32), None),
    (
        "together ai api key (64 hex)",
        "Together AI",
        "TOGETHER_API_KEY",
        "api_key",
        lambda: hx(64),
        None,
    ),
    (
        "fireworks api key",
        "Fireworks",
        "FIREWORKS_API_KEY",
        "api_key",
        lambda: "fw_" + rs(AN, 24),
        None,
    ),
    (
        "elevenlabs api key",
        "ElevenLabs",
        "ELEVENLABS_API_KEY",
        "api_key",
        lambda: "sk_" + hx(48),
        "xi-api-key",
    ),
    (
        "deepgram api key (40 hex)",
        "Deepgram",
        "DEEPGRAM_API_KEY",
        "api_key",
        lambda: hx(40),
        "Authorization: Token",
    ),
    (
        "assemblyai api key (32 hex)",
        "AssemblyAI",
        "ASSEMBLYAI_API_KEY",
        "api_key",
        lambda: hx(32),
        "authorization",
    ),
    (
        "pinecone api key",
        "Pinecone",
        "PINECONE_API_KEY",
        "api_key",
        lambda: "pcsk_" + rs(AN, 5) + "_" + rs(AN, 66),
        "Api-Key",
    ),
    (
        "qdrant api key",
        "Qdrant",
        "QDRANT__SERVICE__API_KEY",
        "api_key",
        lambda: rs(AN + "-_", 40),
        "api-key",
    ),
    (
        "zhipu ai api key",
        "Zhipu AI",
        "ZHIPUAI_API_KEY",
        "api_key",
        lambda: hx(32) + "." + rs(AN, 16),
        None,
    ),
    (
        "moonshot api key",
        "Moonshot",
        "MOONSHOT_API_KEY",
        "api_key",
        lambda: "sk-" + rs(AN, 48),
        None,
    ),
    (
        "dashscope api key",
        "DashScope",
        "DASHSCOPE_API_KEY",
        "api_key",
        lambda: "sk-" + hx(32),
        None,
    ),
    ("kaggle key (32 hex)", "Kaggle", "KAGGLE_KEY", "key", lambda: hx(32), None),
    (
        "modal token secret",
        "Modal",
        "MODAL_TOKEN_SECRET",
        "token_secret",
        lambda: "as-" + rs(AN, 22),
        None,
    ),
    ("runpod api key", "RunPod", "RUNPOD_API_KEY", "api_key", lambda: "rpa_" + rs(UAN, 46), None),
    (
        "onesignal rest api key",
        "OneSignal",
        "ONESIGNAL_REST_API_KEY",
        "rest_api_key",
        lambda: "os_v2_app_" + rs(LO + "234567", 113),
        "Authorization: Key",
    ),
    ("expo access token", "Expo", "EXPO_TOKEN", "token", lambda: rs(AN + "_-", 40), None),
    (
        "matrix access token",
        "Matrix",
        "MATRIX_ACCESS_TOKEN",
        "access_token",
        lambda: "syt_" + b64u(6) + "_" + rs(AN, 20) + "_" + rs(AN, 6),
        None,
    ),
    (
        "mastodon access token",
        "Mastodon",
        "MASTODON_ACCESS_TOKEN",
        "access_token",
        lambda: b64u(32),
        None,
    ),
    (
        "dropbox short-lived token",
        "Dropbox",
        "DROPBOX_ACCESS_TOKEN",
        "access_token",
        lambda: "sl.B" + b64u(100)[:134],
        None,
    ),
    ("box client secret", "Box", "BOX_CLIENT_SECRET", "client_secret", lambda: rs(AN, 32), None),
    ("zoom client secret", "Zoom", "ZOOM_CLIENT_SECRET", "client_secret", lambda: rs(AN, 32), None),
    (
        "spotify client secret (32 hex)",
        "Spotify",
        "SPOTIFY_CLIENT_SECRET",
        "client_secret",
        lambda: hx(32),
        None,
    ),
    (
        "twitch client secret",
        "Twitch",
        "TWITCH_CLIENT_SECRET",
        "client_secret",
        lambda: rs(LAN, 30),
        None,
    ),
    (
        "reddit client secret",
        "Reddit",
        "REDDIT_CLIENT_SECRET",
        "client_secret",
        lambda: b64u(20)[:27],
        None,
    ),
    (
        "x bearer token",
        "X API",
        "X_BEARER_TOKEN",
        "bearer_token",
        lambda: "A" * 22 + "%2F" + rs(AN, 30) + "%3D" + rs(AN, 50),
        None,
    ),
    (
        "facebook app secret (32 hex)",
        "Facebook",
        "FB_APP_SECRET",
        "app_secret",
        lambda: hx(32),
        None,
    ),
    (
        "meta page access token",
        "Meta Graph",
        "META_PAGE_TOKEN",
        "access_token",
        lambda: "EAAG" + rs(AN, 180),
        None,
    ),
    (
        "shopify admin api token",
        "Shopify",
        "SHOPIFY_ADMIN_TOKEN",
        "access_token",
        lambda: "shpat_" + hx(32),
        "X-Shopify-Access-Token",
    ),
    (
        "shopify app shared secret",
        "Shopify",
        "SHOPIFY_API_SECRET",
        "api_secret",
        lambda: "shpss_" + hx(32),
        None,
    ),
    (
        "ghost admin api key",
        "Ghost",
        "GHOST_ADMIN_API_KEY",
        "admin_api_key",
        lambda: hx(24) + ":" + hx(64),
        None,
    ),
    ("strapi api token salt", "Strapi", "API_TOKEN_SALT", "api_token_salt", lambda: b64(16), None),
    (
        "confluent cloud api secret",
        "Confluent Cloud",
        "CONFLUENT_CLOUD_API_SECRET",
        "api_secret",
        lambda: rs(AN + "+/", 64),
        None,
    ),
    ("databricks token", "Databricks", "DATABRICKS_TOKEN", "token", lambda: "dapi" + hx(32), None),
    (
        "influxdb token",
        "InfluxDB",
        "INFLUXDB_TOKEN",
        "token",
        lambda: b64u(64) + "==",
        "Authorization: Token",
    ),
    (
        "elasticsearch api key (base64 id:key)",
        "Elasticsearch",
        "ES_API_KEY",
        "api_key",
        lambda: base64.b64encode((rs(AN, 20) + ":" + rs(AN, 22)).encode()).decode(),
        "Authorization: ApiKey",
    ),
    ("minio root password", "MinIO", "MINIO_ROOT_PASSWORD", "secret_key", pw, None),
    (
        "cloudflare r2 secret (64 hex)",
        "Cloudflare R2",
        "R2_SECRET_ACCESS_KEY",
        "secret_access_key",
        lambda: hx(64),
        None,
    ),
    ("wasabi secret key", "Wasabi", "WASABI_SECRET_KEY", "secret_key", lambda: rs(UAN, 40), None),
    (
        "aws secret access key (no key id)",
        "AWS",
        "AWS_SECRET_ACCESS_KEY",
        "aws_secret_access_key",
        lambda: rs(AN + "+/", 40),
        None,
    ),
    (
        "aws session token",
        "AWS STS",
        "AWS_SESSION_TOKEN",
        "aws_session_token",
        lambda: "IQoJb3JpZ2luX2VjE" + b64(300).rstrip("="),
        None,
    ),
    ("azure cosmos db key", "Azure Cosmos DB", "COSMOS_KEY", "key", lambda: b64(64), None),
    (
        "django secret key (no prefix)",
        "Django",
        "DJANGO_SECRET_KEY",
        "secret_key",
        lambda: rs(LO + DG + "!@#$%^&*(-_=+)", 50),
        None,
    ),
    (
        "rails secret_key_base (128 hex)",
        "Rails",
        "SECRET_KEY_BASE",
        "secret_key_base",
        lambda: hx(128),
        None,
    ),
    ("laravel app key", "Laravel", "APP_KEY", "key", lambda: "base64:" + b64(32), None),
    ("flask secret key (hex)", "Flask", "FLASK_SECRET_KEY", "secret_key", lambda: hx(48), None),
    (
        "phoenix secret_key_base",
        "Phoenix",
        "SECRET_KEY_BASE",
        "secret_key_base",
        lambda: b64(48),
        None,
    ),
    ("nextauth secret", "NextAuth", "NEXTAUTH_SECRET", "secret", lambda: b64(32), None),
    (
        "jwt signing secret (no prefix)",
        "Auth service",
        "JWT_SECRET",
        "jwt_secret",
        lambda: pw(32),
        None,
    ),
    (
        "session hmac secret",
        "Session store",
        "SESSION_SECRET",
        "session_secret",
        lambda: hx(64),
        None,
    ),
    (
        "github webhook secret",
        "GitHub webhooks",
        "GITHUB_WEBHOOK_SECRET",
        "webhook_secret",
        lambda: pw(20),
        None,
    ),
    (
        "stripe webhook signing secret",
        "Stripe",
        "STRIPE_WEBHOOK_SECRET",
        "webhook_secret",
        lambda: "whsec_" + rs(AN, 32),
        None,
    ),
    (
        "svix webhook secret",
        "Svix",
        "SVIX_WEBHOOK_SECRET",
        "secret",
        lambda: "whsec_" + b64(24),
        None,
    ),
    ("totp seed (base32)", "2FA", "TOTP_SECRET", "totp_secret", lambda: rs(B32, 32), None),
    ("smtp password (no prefix)", "SMTP relay", "SMTP_PASSWORD", "smtp_password", pw, None),
    ("database password (no prefix)", "PostgreSQL", "DB_PASSWORD", "password", pw, None),
    ("redis password (no prefix)", "Redis", "REDIS_PASSWORD", "password", pw, None),
    ("rabbitmq password (no prefix)", "RabbitMQ", "RABBITMQ_DEFAULT_PASS", "password", pw, None),
    ("grafana admin password", "Grafana", "GF_SECURITY_ADMIN_PASSWORD", "admin_password", pw, None),
    ("keystore password", "Android signing", "KEYSTORE_PASSWORD", "store_password", pw, None),
    (
        "gpg passphrase",
        "Release signing",
        "GPG_PASSPHRASE",
        "passphrase",
        lambda: phrase(5).replace(" ", "-"),
        None,
    ),
    ("restic repository password", "restic", "RESTIC_PASSWORD", "password", pw, None),
    ("borg passphrase", "BorgBackup", "BORG_PASSPHRASE", "passphrase", lambda: phrase(6), None),
    (
        "encryption key (32 bytes base64)",
        "Field encryption",
        "ENCRYPTION_KEY",
        "encryption_key",
        lambda: b64(32),
        None,
    ),
    (
        "ethereum private key (no 0x)",
        "Hardhat",
        "DEPLOYER_PRIVATE_KEY",
        "private_key",
        lambda: hx(64),
        None,
    ),
    (
        "license key (grouped)",
        "Licensing",
        "APP_LICENSE_KEY",
        "license_key",
        lambda: "-".join(rs(UAN, 5) for _ in range(5)),
        None,
    ),
    (
        "sidekiq enterprise credentials",
        "Sidekiq Enterprise",
        "BUNDLE_ENTERPRISE__CONTRIBSYS__COM",
        "credentials",
        lambda: hx(8) + ":" + hx(8),
        None,
    ),
    (
        "font awesome npm token (uuid)",
        "Font Awesome",
        "FONTAWESOME_NPM_AUTH_TOKEN",
        "auth_token",
        uid,
        None,
    ),
    (
        "apple app-specific password",
        "Apple ID",
        "APPLE_APP_SPECIFIC_PASSWORD",
        "app_specific_password",
        lambda: "-".join(rs(LO, 4) for _ in range(4)),
        None,
    ),
    (
        "bluesky app password",
        "Bluesky",
        "BSKY_APP_PASSWORD",
        "app_password",
        lambda: "-".join(rs(LAN, 4) for _ in range(4)),
        None,
    ),
    ("heroku api key (uuid)", "Heroku", "HEROKU_API_KEY", "api_key", uid, None),
]


# --------------------------------------------- secrets in their own shapes
def special():
    """Credentials whose shape is a whole text: URLs, commands, key files, cookies."""
    out = []

    def add(kind, text, secret):
        out.append((kind, text, secret))

    # connection strings and URLs with userinfo
    p = upw()
    add(
        "postgres url password [connection string]",
        f"DATABASE_URL=postgresql://app_rw:{p}@db-prod-1.internal.example.net:5432/shop?sslmode=require",
        p,
    )
    p = upw()
    add(
        "supabase db password [psql command]",
        f'psql "postgres://postgres.{rs(LO, 20)}:{p}@aws-0-eu-central-1.pooler.supabase.com:6543/postgres"',
        p,
    )
    p = upw()
    add(
        "mongodb srv password [Python SDK]",
        f'from pymongo import MongoClient\nclient = MongoClient("mongodb+srv://analytics:{p}@cluster0.{rs(LAN, 5)}.mongodb.net/?retryWrites=true&w=majority")',
        p,
    )
    p = upw()
    add(
        "redis tls url password [JS SDK]",
        f"const redis = new Redis('rediss://default:{p}@eu1-brave-owl-{dg(5)}.upstash.io:6379');",
        p,
    )
    p = upw()
    add(
        "amqp url password [Go SDK]",
        f'conn, err := amqp.Dial("amqps://orders:{p}@b-{uid()}.mq.eu-west-1.amazonaws.com:5671/")',
        p,
    )
    p = upw()
    add(
        "mysql url password [Rust SDK]",
        f'let pool = MySqlPool::connect("mysql://shop:{p}@10.0.3.17:3306/shop").await?;',
        p,
    )
    p = pw(alpha=AN + "!#^*-_")
    add(
        "mssql connection string password [C# SDK]",
        f'var conn = new SqlConnection("Server=tcp:sql-prod.database.windows.net,1433;Initial Catalog=crm;User ID=crm_app;Password={p};Encrypt=True;");',
        p,
    )
    p = upw()
    add(
        "oracle jdbc password [Java properties]",
        f"spring.datasource.url=jdbc:oracle:thin:@//ora-prod.example.net:1521/ORCLPDB1\nspring.datasource.username=billing\nspring.datasource.password={p}",
        p,
    )
    p = upw()
    add(
        "clickhouse url password [TOML]",
        f'[clickhouse]\ndsn = "clickhouse://ingest:{p}@ch.example.net:9440/events?secure=true"',
        p,
    )
    p = upw()
    add(
        "neo4j auth [docker-compose]",
        f"services:\n  neo4j:\n    image: neo4j:5\n    environment:\n      - NEO4J_AUTH=neo4j/{p}",
        p,
    )
    p = upw()
    add("nats url password [env]", f"NATS_URL=nats://svc-orders:{p}@nats.internal:4222", p)
    p = upw()
    add(
        "kafka sasl jaas password [Java properties]",
        f'security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="{rs(UAN, 16)}" password="{p}";',
        p,
    )
    p = upw()
    add(
        "snowflake password [Python SDK]",
        f'conn = snowflake.connector.connect(\n    user="ETL_SVC", password="{p}", account="xy{dg(5)}.eu-central-1", warehouse="ETL_WH")',
        p,
    )
    p = upw()
    add(
        "cassandra password [YAML config]",
        f"cassandra:\n  contact-points: 10.1.0.4,10.1.0.5\n  username: app\n  password: {p}",
        p,
    )
    p = upw()
    add(
        "ftp url password [curl URL userinfo]",
        f"curl -T backup.tar.gz ftp://backup:{p}@ftp.example.org/incoming/",
        p,
    )
    p = upw()
    add(
        "smtp url password [env]",
        f"EMAIL_URL=smtp+tls://noreply%40example.com:{p}@smtp.eu.mailgun.org:587",
        p,
    )
    p = upw()
    add(
        "elastic password [curl URL userinfo]",
        f"curl -s 'https://elastic:{p}@es01.example.net:9200/_cat/indices?v'",
        p,
    )
    p = upw()
    add("git credential store [credentials file]", f"https://deploy-bot:{p}@git.example.com\n", p)
    t = "glpat-" + b64u(15)[:20]
    add(
        "gitlab token in clone url [CLI positional]",
        f"git clone https://oauth2:{t}@gitlab.example.com/platform/infra.git",
        t,
    )
    p = upw()
    add(
        "proxy url password [shell export]",
        f"export HTTPS_PROXY=http://jdoe:{p}@proxy.corp.example.com:3128",
        p,
    )
    p = upw()
    add(
        "cloudinary url [env]",
        f"CLOUDINARY_URL=cloudinary://{dg(15)}:{(p := b64u(20)[:27])}@acme-media",
        p,
    )
    p = upw()
    add(
        "sentry relay basic auth [nginx config]",
        f'location /upstream/ {{\n    proxy_pass https://backend.internal;\n    proxy_set_header Authorization "Basic {(p := base64.b64encode(("svc:" + pw()).encode()).decode())}";\n}}',
        p,
    )
    p = pw()
    add(
        "apache SetEnv db password [Apache config]",
        f'<VirtualHost *:443>\n    ServerName shop.example.com\n    SetEnv DB_PASS "{p}"\n</VirtualHost>',
        p,
    )
    k = rs(AN, 32)
    add(
        "apache proxy api key header [Apache config]",
        f'<Location /api>\n    ProxyPass https://partner.example.net/api\n    RequestHeader set X-Partner-Key "{k}"\n</Location>',
        k,
    )

    # CLI commands: flags and positional arguments
    p = pw(alpha=AN + "_-.")
    add(
        "mysql password glued to -p [CLI flag]",
        f"mysql -h 127.0.0.1 -u root -p{p} shop < dump.sql",
        p,
    )
    p = pw()
    add(
        "redis-cli -a password [CLI flag]",
        f"redis-cli -h cache.internal -p 6379 -a '{p}' INFO keyspace",
        p,
    )
    p = pw()
    add(
        "mongosh --password [CLI flag]",
        f"mongosh --host mongo-0.internal --username admin --password '{p}' --authenticationDatabase admin",
        p,
    )
    p = pw()
    add(
        "PGPASSWORD before psql [CLI env prefix]",
        f"PGPASSWORD='{p}' pg_dump -h db.internal -U backup shop > shop.sql",
        p,
    )
    p = pw()
    add(
        "sshpass -p [CLI flag]",
        f"sshpass -p '{p}' ssh -o StrictHostKeyChecking=no deploy@203.0.113.10",
        p,
    )
    p = pw()
    add("docker login -p [CLI flag]", f"docker login registry.example.net -u ci-bot -p '{p}'", p)
    p = pw()
    add(
        "docker login via echo [CLI pipe]",
        f"echo '{p}' | docker login ghcr.io -u octo-ci --password-stdin",
        p,
    )
    t = "hvs." + rs(AN, 24)
    add("vault login token [CLI positional]", f"vault login {t}", t)
    k = hx(40)
    add(
        "wandb api key [CLI positional]",
        f"$ wandb login {k}\nwandb: Appending key for api.wandb.ai to your netrc file",
        k,
    )
    t = "2" + rs(AN, 26) + "_" + rs(AN, 21)
    add("ngrok authtoken [CLI positional]", f"ngrok config add-authtoken {t}", t)
    t = "tskey-auth-k" + rs(AN, 16) + "CNTRL-" + rs(AN, 33)
    add(
        "tailscale up --authkey [CLI flag]",
        f"sudo tailscale up --authkey={t} --ssh --advertise-tags=tag:ci",
        t,
    )
    k = rs(AN + "+/", 40)
    add(
        "aws configure set secret [CLI positional]",
        f"aws configure set aws_secret_access_key {k} --profile staging",
        k,
    )
    s = rs(AN, 3) + "8Q~" + rs(AN + "-_.~", 34)
    add(
        "az login service principal secret [CLI flag]",
        f"az login --service-principal -u {uid()} -p '{s}' --tenant {uid()}",
        s,
    )
    t = "dop_v1_" + hx(64)
    add("doctl auth init -t [CLI flag]", f"doctl auth init --context prod -t {t}", t)
    p = pw()
    add(
        "kubectl create secret --from-literal [CLI flag]",
        f"kubectl -n prod create secret generic db-creds --from-literal=username=app --from-literal=password='{p}'",
        p,
    )
    t = f"{rs(LAN, 6)}.{rs(LAN, 16)}"
    add(
        "kubeadm bootstrap token [CLI flag]",
        f"kubeadm join 10.0.0.10:6443 --token {t} --discovery-token-ca-cert-hash sha256:{hx(64)}",
        t,
    )
    p = pw()
    add(
        "helm repo add --password [CLI flag]",
        f"helm repo add internal https://charts.example.net --username ci --password '{p}'",
        p,
    )
    p = pw()
    add(
        "htpasswd -b positional password [CLI positional]",
        f"htpasswd -bc /etc/nginx/.htpasswd admin '{p}'",
        p,
    )
    p = pw()
    add(
        "openssl -pass pass: [CLI flag]",
        f"openssl enc -aes-256-cbc -salt -pbkdf2 -in db.sql -out db.sql.enc -pass pass:{p}",
        p,
    )
    p = pw(alpha=AN + "_-")
    add("zip -P password [CLI flag]", f"zip -r -P {p} reports.zip reports/", p)
    p = pw(alpha=AN + "_-")
    add("7z -p password glued [CLI flag]", f"7z a -p{p} -mhe=on archive.7z ./exports", p)
    p = phrase(4).replace(" ", "-")
    add(
        "gpg --passphrase [CLI flag]",
        f"gpg --batch --yes --pinentry-mode loopback --passphrase '{p}' --sign release.tar.gz",
        p,
    )
    p = pw()
    add(
        "curl -u user:password [CLI flag]",
        f"curl -u admin:{p} -X POST https://jenkins.example.net/job/deploy/build",
        p,
    )
    t = "11" + hx(32)
    add(
        "jenkins api token [curl -u]",
        f"curl -X POST -u ci-bot:{t} 'https://ci.example.net/job/release/buildWithParameters?TAG=v4.2.0'",
        t,
    )
    p = pw()
    add(
        "wget --password [CLI flag]",
        f"wget --user=reports --password='{p}' https://files.example.net/q3.csv",
        p,
    )
    p = pw()
    add(
        "xfreerdp /p: [CLI flag]",
        f"xfreerdp /v:10.20.0.5 /u:Administrator /p:'{p}' /cert:ignore",
        p,
    )
    p = pw()
    add(
        "net use password positional [CLI positional]",
        f"net use Z: \\\\fileserver\\finance {p} /user:CORP\\svc_backup",
        p,
    )
    p = pw()
    add(
        "smbclient -U user%password [CLI flag]",
        f"smbclient //nas.local/share -U 'backup%{p}' -c 'ls'",
        p,
    )
    p = pw()
    add(
        "ldapsearch -w [CLI flag]",
        f"ldapsearch -H ldaps://ldap.example.com -D 'cn=admin,dc=example,dc=com' -w '{p}' -b 'dc=example,dc=com' '(uid=jdoe)'",
        p,
    )
    c = rs(AN, 14)
    add("snmp community string [CLI flag]", f"snmpwalk -v2c -c {c} 192.0.2.1 1.3.6.1.2.1.1", c)
    p = pw()
    add(
        "ipmitool -P [CLI flag]",
        f"ipmitool -I lanplus -H 10.9.0.21 -U ADMIN -P '{p}' chassis power status",
        p,
    )
    p = pw()
    add(
        "sqlcmd -P [CLI flag]",
        f"sqlcmd -S sql01.corp.local -U sa -P '{p}' -Q \"SELECT @@VERSION\"",
        p,
    )
    k = rs(UAN, 20)
    s = rs(AN, 40)
    add(
        "mc alias set secret [CLI positional]",
        f"mc alias set prod https://s3.example.net {k} {s}",
        s,
    )
    p = pw()
    add(
        "keytool -storepass [CLI flag]",
        f"keytool -genkeypair -alias release -keystore release.jks -storepass '{p}' -keyalg RSA -validity 10000",
        p,
    )
    p = pw()
    add(
        "nmcli wifi password [CLI positional]",
        f"nmcli dev wifi connect 'Office-5G' password '{p}'",
        p,
    )
    seed = rs(B32, 32)
    add("oathtool totp seed [CLI positional]", f"oathtool --totp -b {seed}", seed)
    k = "sk_live_" + rs(AN, 99)
    add(
        "stripe cli --api-key [CLI flag]",
        f"stripe listen --api-key {k} --forward-to localhost:4242/webhook",
        k,
    )
    t = rs(AN, 64)
    add(
        "cast send --private-key [CLI flag]",
        f"cast send 0x{hx(40)} 'transfer(address,uint256)' 0x{hx(40)} 1000 --private-key 0x{(t := hx(64))} --rpc-url $RPC",
        t,
    )
    p = pw()
    add(
        "etcdctl --password [CLI flag]",
        f"etcdctl --endpoints=https://10.0.0.5:2379 --user root --password '{p}' get /config --prefix",
        p,
    )
    p = pw()
    add(
        "rclone obscured password [INI]",
        f"[nas]\ntype = sftp\nhost = nas.local\nuser = backup\npass = {(p := b64u(24))}",
        p,
    )

    # headers and URLs with the secret in the path or query
    t = hx(64)
    add(
        "dingtalk robot webhook [curl URL query]",
        f'curl \'https://oapi.dingtalk.com/robot/send?access_token={t}\' -H \'Content-Type: application/json\' -d \'{{"msgtype":"text","text":{{"content":"deploy ok"}}}}\'',
        t,
    )
    s = "SEC" + hx(64)
    add(
        "dingtalk robot sign secret [Python dict]",
        f"ROBOT = {{'webhook': 'https://oapi.dingtalk.com/robot/send', 'secret': '{s}'}}",
        s,
    )
    u = uid()
    add(
        "feishu bot webhook [URL path]",
        f"FEISHU_WEBHOOK=https://open.feishu.cn/open-apis/bot/v2/hook/{u}",
        u,
    )
    u = uid()
    add(
        "wecom bot webhook key [curl URL query]",
        f"curl 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={u}' -d @msg.json",
        u,
    )
    t = b64u(51)[:68]
    add(
        "discord webhook [URL path]",
        f"const hook = 'https://discord.com/api/webhooks/{dg(19)}/{t}';",
        t,
    )
    t = hx(32)
    add(
        "teams incoming webhook [URL path]",
        f"TEAMS_WEBHOOK_URL=https://acme.webhook.office.com/webhookb2/{uid()}@{uid()}/IncomingWebhook/{t}/{uid()}",
        t,
    )
    t = b64u(32)
    add(
        "google chat webhook token [URL query]",
        f"https://chat.googleapis.com/v1/spaces/AAAA{rs(AN, 7)}/messages?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&token={t}",
        t,
    )
    t = rs(LAN, 26)
    add(
        "mattermost incoming webhook [URL path]",
        f'curl -i -X POST -d \'payload={{"text": "build green"}}\' https://chat.example.com/hooks/{t}',
        t,
    )
    t = hx(24)
    add(
        "netlify build hook [URL path]",
        f"curl -X POST -d {{}} https://api.netlify.com/build_hooks/{t}",
        t,
    )
    t = rs(AN, 10)
    add(
        "vercel deploy hook [URL path]",
        f"DEPLOY_HOOK=https://api.vercel.com/v1/integrations/deploy/prj_{rs(AN, 28)}/{t}",
        t,
    )
    t = rs(AN + "_-", 11)
    t = b64u(9)
    add(
        "render deploy hook key [URL query]",
        f"curl https://api.render.com/deploy/srv-{rs(LAN, 20)}?key={t}",
        t,
    )
    t = rs(AN + "_-", 22)
    add("ifttt maker key [URL path]", f"https://maker.ifttt.com/trigger/door_open/with/key/{t}", t)
    t = rs(LAN, 6)
    t = dg(7) + "/" + rs(LAN, 6)
    add("zapier catch hook [URL path]", f"ZAPIER_HOOK=https://hooks.zapier.com/hooks/catch/{t}/", t)
    t = dg(10) + ":AA" + b64u(25)[:33]
    add("telegram bot token [URL path]", f"curl https://api.telegram.org/bot{t}/getUpdates", t)
    k = rs(AN, 32)
    add("alchemy key [URL path]", f"RPC_URL=https://eth-mainnet.g.alchemy.com/v2/{k}", k)
    k = hx(32)
    add(
        "infura project id [URL path]",
        f"const provider = new ethers.JsonRpcProvider('https://mainnet.infura.io/v3/{k}');",
        k,
    )
    k = uid()
    add(
        "opsgenie heartbeat key [curl header]",
        f"curl -X GET 'https://api.opsgenie.com/v2/heartbeats/web-01/ping' -H 'Authorization: GenieKey {k}'",
        k,
    )
    t = "ya29.a0" + b64u(120)
    add(
        "google oauth access token [curl header]",
        f'curl -H "Authorization: Bearer {t}" https://www.googleapis.com/drive/v3/files',
        t,
    )
    t = "1//0" + rs(AN, 2) + b64u(75)[:99]
    add(
        "google refresh token [JSON]",
        json.dumps(
            {
                "client_id": f"{dg(12)}-{rs(LAN, 32)}.apps.googleusercontent.com",
                "refresh_token": t,
                "token_uri": "https://oauth2.googleapis.com/token",
            },
            indent=2,
        ),
        t,
    )
    u, p = "api", pw()
    enc = base64.b64encode(f"{u}:{p}".encode()).decode()
    add(
        "basic auth header [curl header]",
        f"curl https://registry.example.net/v2/_catalog -H 'Authorization: Basic {enc}'",
        enc,
    )
    k = rs(AN, 40)
    add(
        "zendesk token basic [curl -u]",
        f"curl https://acme.zendesk.com/api/v2/tickets.json -u agent@example.com/token:{k}",
        k,
    )
    k = rs(AN, 40) + "=="
    add(
        "azure storage account key [connection string]",
        f"DefaultEndpointsProtocol=https;AccountName=acmeprodlogs;AccountKey={(k := b64(64))};EndpointSuffix=core.windows.net",
        k,
    )
    sig = b64(32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    add(
        "azure sas signature [URL query]",
        f"https://acmeprodlogs.blob.core.windows.net/exports/q3.csv?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-31T23:59:59Z&st=2026-01-01T00:00:00Z&spr=https&sig={sig}",
        sig,
    )
    k = b64(32)
    add(
        "azure service bus shared access key [connection string]",
        f"Endpoint=sb://acme-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={k}",
        k,
    )
    k = b64(32)
    add(
        "azure event hub key [C# SDK]",
        f'var client = new EventHubProducerClient("Endpoint=sb://telemetry.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={k};EntityPath=events");',
        k,
    )
    k = rs(AN, 35)
    add(
        "firebase legacy server key [curl header]",
        f"curl -X POST https://fcm.googleapis.com/fcm/send -H 'Authorization: key=AAAA{rs(AN, 7)}:APA91b{(k := b64u(100)[:134])}'",
        k,
    )

    # session cookies
    v = rs("0123456789abcdefghijklmnopqrstuv", 26)
    add(
        "PHPSESSID cookie [curl header]",
        f"curl -b 'PHPSESSID={v}' https://shop.example.com/admin/orders",
        v,
    )
    v = HX(32)
    add(
        "JSESSIONID cookie [HTTP log]",
        f"GET /portal/home HTTP/1.1\nHost: intranet.example.com\nCookie: JSESSIONID={v}; lang=de\n",
        v,
    )
    v = rs(LAN, 32)
    add(
        "django sessionid cookie [chat prose]",
        f"if you want to reproduce, log in as me: sessionid={v} on staging",
        v,
    )
    v = "s%3A" + b64u(24) + "." + b64(32).rstrip("=").replace("+", "%2B").replace("/", "%2F")
    add(
        "express connect.sid cookie [browser devtools copy]",
        f"Cookie: connect.sid={v}; theme=dark",
        v,
    )
    v = b64(96).rstrip("=") + "--" + b64(12).rstrip("=") + "--" + b64(12).rstrip("=") + "%3D%3D"
    add(
        "rails session cookie [curl header]",
        f"curl -H 'Cookie: _storefront_session={v}' https://store.example.com/account",
        v,
    )
    v = "eyJpdiI6I" + b64(120).rstrip("=") + "%3D%3D"
    add(
        "laravel_session cookie [HTTP log]",
        f"Set-Cookie: laravel_session={v}; expires=Sun, 06-Dec-2026 23:00:00 GMT; path=/; httponly; samesite=lax",
        v,
    )
    v = "CfDJ8" + b64u(180)
    add(
        "aspnetcore auth cookie [HAR JSON]",
        json.dumps(
            {
                "name": ".AspNetCore.Cookies",
                "value": v,
                "domain": "portal.example.com",
                "httpOnly": True,
            }
        ),
        v,
    )
    v = rs(AN, 48)
    add(
        "github user_session cookie [Python dict]",
        f"cookies = {{'user_session': '{v}', 'logged_in': 'yes'}}",
        v,
    )

    # JWTs with a role, as bearer tokens or env
    t = jwt(
        {
            "iss": "supabase",
            "ref": rs(LO, 20),
            "role": "service_role",
            "iat": 1767225600,
            "exp": 2082758400,
        }
    )
    add(
        "supabase service_role key (jwt) [env]",
        f"SUPABASE_URL=https://{rs(LO, 20)}.supabase.co\nSUPABASE_SERVICE_ROLE_KEY={t}",
        t,
    )
    t = jwt(
        {
            "iss": "kubernetes/serviceaccount",
            "kubernetes.io/serviceaccount/namespace": "kube-system",
            "sub": "system:serviceaccount:kube-system:admin",
        },
        "RS256",
        342,
    )
    add(
        "kubernetes service account token (jwt) [kubeconfig]",
        f"users:\n- name: admin\n  user:\n    token: {t}",
        t,
    )
    t = jwt({"a": "turso", "id": uid(), "p": {"rw": {"ns": ["acme"]}}}, "EdDSA", 86)
    add(
        "turso auth token (jwt) [JS SDK]",
        f"const db = createClient({{ url: 'libsql://acme-db.turso.io', authToken: '{t}' }});",
        t,
    )
    t = jwt(
        {
            "tid": dg(9),
            "aai": 11,
            "uid": dg(8),
            "iad": "2026-01-05T10:00:00.000Z",
            "per": "me:write",
            "rgn": "euc1",
        }
    )
    add(
        "monday.com api token (jwt) [Python dict]",
        f"HEADERS = {{'Authorization': '{t}', 'API-Version': '2024-10'}}",
        t,
    )

    # private keys, key files, wallets
    block, body = pem(
        "OPENSSH PRIVATE KEY",
        b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none",
        360,
        70,
    )
    add("openssh private key [key file]", block, body)
    block, body = pem("RSA PRIVATE KEY", bytes.fromhex("308204a40201000282010100"), 1180)
    add(
        "rsa private key pkcs1 [chat prose]",
        f"here's the deploy key, paste it into the runner:\n{block}",
        body,
    )
    block, body = pem("EC PRIVATE KEY", bytes.fromhex("307702010104 20".replace(" ", "")), 32 + 89)
    add(
        "ec private key [diff hunk]",
        "--- /dev/null\n+++ b/certs/server.key\n@@ -0,0 +1,5 @@\n"
        + "\n".join("+" + x for x in block.splitlines()),
        body.splitlines()[0],
    )
    block, body = pem(
        "PRIVATE KEY", bytes.fromhex("308204bd020100300d06092a864886f70d0101010500048204a7"), 1170
    )
    esc = block.replace("\n", "\\n")
    add(
        "gcp service account private_key [JSON escaped]",
        json.dumps(
            {
                "type": "service_account",
                "project_id": "acme-prod-314159",
                "private_key_id": hx(40),
                "client_email": "deployer@acme-prod-314159.iam.gserviceaccount.com",
            },
            indent=2,
        )[:-2]
        + f',\n  "private_key": "{esc}"\n}}',
        body.replace("\n", "\\n"),
    )
    block, body = pem(
        "PRIVATE KEY",
        bytes.fromhex("308193020100301306072a8648ce3d020106082a8648ce3d030107047930770201010420"),
        32 + 44,
    )
    add(
        "apple .p8 auth key [JS SDK]",
        f"const apnProvider = new apn.Provider({{ token: {{ key: `{block}`, keyId: '{rs(UAN, 10)}', teamId: '{rs(UAN, 10)}' }} }});",
        body,
    )
    body = "\n".join(
        [
            f"-----BEGIN PGP PRIVATE KEY BLOCK-----",
            "",
            *wrap(base64.b64encode(b"\x95\x03\xc6\x04" + rb(900)).decode(), 64).splitlines(),
            "=" + b64(3),
            "-----END PGP PRIVATE KEY BLOCK-----",
        ]
    )
    sec = "\n".join(body.splitlines()[2:-2])
    add("pgp private key block [key file]", body, sec)
    k = "AGE-SECRET-KEY-1" + rs(BECH, 58).upper()
    add(
        "age secret key [key file]",
        f"# created: 2026-02-11T10:04:51+01:00\n# public key: age1{rs(BECH, 58)}\n{k}",
        k,
    )
    k = "RWRTY0Iy" + b64(150)
    add(
        "minisign secret key [key file]",
        f"untrusted comment: minisign encrypted secret key\n{k}",
        k,
    )
    k = b64(32)
    add(
        "wireguard private key [INI]",
        f"[Interface]\nPrivateKey = {k}\nAddress = 10.8.0.2/24\nDNS = 1.1.1.1\n\n[Peer]\nPublicKey = {b64(32)}\nEndpoint = vpn.example.net:51820",
        k,
    )
    lines = [hx(32) for _ in range(16)]
    add(
        "openvpn static key [key file]",
        "#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n"
        + "\n".join(lines)
        + "\n-----END OpenVPN Static key V1-----",
        "\n".join(lines),
    )
    lines = [base64.b64encode(rb(48)).decode() for _ in range(3)]
    add(
        "putty ppk private lines [key file]",
        f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@ci\nPublic-Lines: 2\n{b64(51)}\nPrivate-Lines: 1\n{(k := b64(48))}\nPrivate-MAC: {hx(64)}",
        k,
    )
    d = b64u(32)
    add(
        "jwk private key d [JSON]",
        json.dumps(
            {
                "kty": "EC",
                "crv": "P-256",
                "kid": "sig-2026-01",
                "x": b64u(32),
                "y": b64u(32),
                "d": d,
            }
        ),
        d,
    )
    w = phrase(12)
    add(
        "bip39 seed phrase 12 words [chat prose]",
        f"backup of the test wallet seed, keep it safe: {w}",
        w,
    )
    w = phrase(24)
    add("bip39 mnemonic 24 words [env]", f'MNEMONIC="{w}"', w)
    w = phrase(12)
    add(
        "bip39 mnemonic [JS object]",
        f"module.exports = {{\n  networks: {{ sepolia: {{ accounts: {{ mnemonic: '{w}' }} }} }},\n}};",
        w,
    )
    k = "0x" + hx(64)
    add(
        "ethereum private key 0x [Python SDK]",
        f"acct = Account.from_key('{k}')\nprint(acct.address)",
        k,
    )
    k = R.choice("KL") + rs(B58, 51)
    add(
        "bitcoin wif private key [CLI positional]", f'bitcoin-cli importprivkey {k} "cold" false', k
    )
    k = "xprv9s21ZrQH143K" + rs(B58, 95)
    add("bip32 xprv [YAML config]", f"wallet:\n  network: mainnet\n  xprv: {k}", k)
    arr = [R.randint(0, 255) for _ in range(64)]
    k = json.dumps(arr, separators=(",", ":"))
    add("solana keypair json [key file]", f"$ cat ~/.config/solana/id.json\n{k}", k[1:-1])
    k = "nsec1" + rs(BECH, 58)
    add("nostr nsec [chat prose]", f"my bot's nostr key is {k}, the npub is on the site", k)
    k = "SUA" + rs(B32, 55)
    add(
        "nats nkey seed [creds file]",
        f"-----BEGIN USER NKEY SEED-----\n{k}\n------END USER NKEY SEED------\n\n*************************************************************\nNKEY Seed printed below can be used to sign and prove identity.",
        k,
    )
    k = b64(62)
    add(
        "coinbase cdp api private key [JSON]",
        json.dumps(
            {
                "name": f"organizations/{uid()}/apiKeys/{uid()}",
                "privateKey": f"-----BEGIN EC PRIVATE KEY-----\n{k}\n-----END EC PRIVATE KEY-----\n",
            }
        ),
        k,
    )

    # config files of tools
    t = "pypi-AgEIcHlwaS5vcmc" + b64u(120)
    add(
        "pypi token [.pypirc]",
        f"[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = {t}",
        t,
    )
    t = "npm_" + rs(AN, 36)
    add(
        "npm token [.npmrc]",
        f"registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={t}\nsave-exact=true",
        t,
    )
    a = base64.b64encode(f"deployer:{pw()}".encode()).decode()
    add(
        "npm legacy _auth base64 [.npmrc]",
        f"registry=https://nexus.example.net/repository/npm-group/\n_auth={a}\nalways-auth=true",
        a,
    )
    u = uid()
    add(
        "heroku api key [.netrc]",
        f"machine api.heroku.com\n  login jdoe@example.com\n  password {u}\nmachine git.heroku.com\n  login jdoe@example.com\n  password {u}",
        u,
    )
    p = pw()
    add("ftp password [.netrc]", f"machine ftp.example.org login mirror password {p}", p)
    p = pw()
    add(
        "maven server password [XML settings]",
        f"<settings>\n  <servers>\n    <server>\n      <id>releases</id>\n      <username>deploy</username>\n      <password>{p}</password>\n    </server>\n  </servers>\n</settings>",
        p,
    )
    p = pw()
    add(
        "gradle signing password [gradle.properties]",
        f"signing.keyId={HX(8)}\nsigning.password={p}\nsigning.secretKeyRingFile=/home/ci/.gnupg/secring.gpg",
        p,
    )
    t = "ghp_" + rs(AN, 36)
    add(
        "composer github-oauth [auth.json]",
        json.dumps({"github-oauth": {"github.com": t}}, indent=4),
        t,
    )
    p = pw()
    add(
        "composer http-basic password [auth.json]",
        json.dumps(
            {"http-basic": {"repo.packagist.com": {"username": "token", "password": p}}}, indent=4
        ),
        p,
    )
    p = pw()
    add("pgpass line [.pgpass]", f"db.internal.example.net:5432:*:reporting:{p}", p)
    p = pw()
    add(
        "mysql client password [my.cnf]",
        f'[client]\nuser=backup\npassword="{p}"\nhost=127.0.0.1',
        p,
    )
    p = pw()
    add(
        "clickhouse users.xml password [XML]",
        f"<clickhouse>\n  <users>\n    <ingest>\n      <password>{p}</password>\n      <networks><ip>::/0</ip></networks>\n    </ingest>\n  </users>\n</clickhouse>",
        p,
    )
    p = pw()
    add(
        "prometheus basic_auth password [YAML config]",
        f"scrape_configs:\n  - job_name: node\n    basic_auth:\n      username: prom\n      password: {p}\n    static_configs:\n      - targets: ['10.0.0.7:9100']",
        p,
    )
    p = pw()
    add(
        "wpa_supplicant psk [config file]",
        f'network={{\n    ssid="Lab-2.4"\n    psk="{p}"\n    key_mgmt=WPA-PSK\n}}',
        p,
    )
    p = pw()
    add(
        "radius shared secret [clients.conf]",
        f"client office-ap {{\n    ipaddr = 192.168.10.0/24\n    secret = {p}\n}}",
        p,
    )
    p = pw()
    add(
        "ipsec psk [ipsec.secrets]",
        f'# /etc/ipsec.secrets\n203.0.113.5 198.51.100.7 : PSK "{p}"',
        p,
    )
    v = "".join(R.choice("0123456789ABCDEF") for _ in range(22))
    v = "0" + str(R.randint(0, 9)) + HX(20)
    add(
        "cisco type 7 password [router config]",
        f"hostname edge-01\n!\nusername netops privilege 15 password 7 {v}\nenable secret 9 $9${b64u(10)}${b64u(32)}",
        v,
    )
    p = pw()
    add(
        "ansible become password [inventory INI]",
        f"[web]\n10.0.1.11\n10.0.1.12\n\n[web:vars]\nansible_user=deploy\nansible_become_pass={p}",
        p,
    )
    p = pw()
    add(
        "wordpress auth key [PHP define]",
        f"define( 'DB_NAME', 'wp' );\ndefine( 'AUTH_KEY',         '{(p := rs(AN + '!@#$%^&*()-_[]{}<>~+=,.;:/?|', 64))}' );",
        p,
    )
    p = hx(32)
    add("rails master key [file content]", f"$ cat config/master.key\n{p}", p)
    p = pw(30)
    add("drupal hash_salt [PHP]", f"$settings['hash_salt'] = '{(p := b64u(55))}';", p)
    k = b64(32)
    add(
        "sops age key file [key file]",
        f"# created: 2026-01-20T08:30:00Z\n# public key: age1{rs(BECH, 58)}\nAGE-SECRET-KEY-1{(k := rs(BECH, 58).upper())}",
        k,
    )
    lic = "\n".join(HX(8) + " " + HX(8) + " " + HX(8) + " " + HX(8) for _ in range(8))
    add(
        "sublime text style licence block [licence file]",
        f"----- BEGIN LICENSE -----\nAcme GmbH\n10 User License\nEA7E-{dg(6)}\n{lic}\n------ END LICENSE ------",
        lic,
    )
    k = "E3-" + "-".join(rs(UAN, 4) for _ in range(5))
    add(
        "unity serial [CLI flag]",
        f"/opt/unity/Editor/Unity -batchmode -quit -serial {k} -username ci@example.com -password '{(p := pw())}'",
        k,
    )
    k = "-".join(rs("BCDFGHJKMPQRTVWXY2346789", 5) for _ in range(5))
    add("windows product key [CLI positional]", f"slmgr /ipk {k}", k)
    codes = " ".join(f"{rs(LAN, 5)}-{rs(LAN, 5)}" for _ in range(8))
    add(
        "2fa recovery codes [chat prose]",
        f"saving these here for now, github recovery codes: {codes}",
        codes,
    )
    u = f"otpauth://totp/Acme:ops%40example.com?secret={(s := rs(B32, 32))}&issuer=Acme&digits=6"
    add("totp otpauth uri [markdown]", f"Scan this in the authenticator or paste the URI: `{u}`", s)
    p = pw()
    add(
        "spring cloud config client-secret [YAML config]",
        f"spring:\n  security:\n    oauth2:\n      client:\n        registration:\n          keycloak:\n            client-id: portal\n            client-secret: {(p := rs(AN, 32))}",
        p,
    )
    p = pw()
    add(
        ".net appsettings connection string [JSON]",
        json.dumps(
            {
                "ConnectionStrings": {
                    "Default": f"Host=pg.internal;Database=crm;Username=crm;Password={p}"
                },
                "Logging": {"LogLevel": {"Default": "Information"}},
            },
            indent=2,
        ),
        p,
    )
    p = pw()
    add(
        "terraform variable default password [HCL]",
        f'variable "db_password" {{\n  type      = string\n  sensitive = true\n  default   = "{p}"\n}}',
        p,
    )
    p = pw()
    add(
        "terraform tfvars password [HCL]",
        f'# prod.auto.tfvars\nregion         = "eu-north-1"\nadmin_password = "{p}"',
        p,
    )
    p = pw()
    add(
        "rds master password in tfstate [JSON]",
        json.dumps(
            {
                "mode": "managed",
                "type": "aws_db_instance",
                "instances": [
                    {"attributes": {"identifier": "shop-prod", "password": p, "username": "shop"}}
                ],
            },
            indent=1,
        ),
        p,
    )
    p = pw()
    add(
        "docker secret file content [CLI pipe]",
        f"printf '{p}' | docker secret create pg_password -",
        p,
    )
    p = pw()
    add(
        "yaml anchors password [docker-compose]",
        f"x-db: &db\n  POSTGRES_USER: shop\n  POSTGRES_PASSWORD: {p}\nservices:\n  db:\n    image: postgres:16\n    environment: *db",
        p,
    )
    k = b64(32)
    add(
        "k8s encryption config secret [YAML config]",
        f"apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n      - aescbc:\n          keys:\n            - name: key1\n              secret: {k}",
        k,
    )
    data = base64.b64encode(
        json.dumps(
            {
                "auths": {
                    "registry.example.net": {
                        "auth": base64.b64encode(f"robot$ci:{pw()}".encode()).decode()
                    }
                }
            }
        ).encode()
    ).decode()
    add(
        "dockerconfigjson pull secret [k8s Secret data base64]",
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: regcred\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: {data}",
        data,
    )
    t = "eyJhIjoi" + b64(150).rstrip("=")
    add(
        "cloudflare tunnel token [CLI flag]",
        f"cloudflared tunnel --no-autoupdate run --token {t}",
        t,
    )
    t = rs(AN, 40)
    add(
        "github actions runner token [CLI flag]",
        f"./config.sh --url https://github.com/acme/infra --token {(t := rs(UAN, 29))} --labels self-hosted,linux",
        t,
    )
    t = "GR1348941" + b64u(15)[:20]
    add(
        "gitlab runner registration token [CLI flag]",
        f"gitlab-runner register --non-interactive --url https://gitlab.example.com/ --registration-token {t} --executor docker",
        t,
    )
    k = rs(AN, 20)
    add(
        "ably key in prose [chat prose]",
        f"ably works now, used app key {rs(AN, 6)}.{rs(AN, 6)}:{(k := b64u(32))} from the console",
        k,
    )
    s = "whsec_" + b64(24)
    add(
        "clerk webhook secret [escaped JSON in a log line]",
        '{"level":"warn","msg":"signature mismatch","cfg":"{\\"signingSecret\\":\\"'
        + s
        + '\\",\\"tolerance\\":300}"}',
        s,
    )
    p = pw()
    add(
        "redis requirepass [redis.conf]",
        f"bind 0.0.0.0\nport 6379\nrequirepass {p}\nmaxmemory 2gb",
        p,
    )
    p = pw()
    add("pgbouncer userlist [config file]", f'"pgbouncer" "{p}"\n"app" "md5{hx(32)}"', p)
    p = pw()
    add(
        "rabbitmq definitions password [JSON]",
        json.dumps(
            {"users": [{"name": "orders", "password": p, "tags": ""}], "vhosts": [{"name": "/"}]}
        ),
        p,
    )
    k = rs(AN, 32)
    add(
        "api key in go struct literal [Go SDK]",
        f'cfg := &payments.Config{{\n\tMerchantID: "M{dg(7)}",\n\tSecret:     "{k}",\n}}',
        k,
    )
    k = pw(28)
    add("hmac secret in rust const [Rust]", f'const HMAC_SECRET: &[u8] = b"{k}";', k)
    k = hx(64)
    add("signing key in java static [Java]", f'private static final String SIGNING_KEY = "{k}";', k)
    k = b64(48)
    add(
        "jwt key in c# options [C#]",
        f'options.TokenValidationParameters = new TokenValidationParameters {{\n    IssuerSigningKey = new SymmetricSecurityKey(Encoding.UTF8.GetBytes("{k}"))\n}};',
        k,
    )
    p = pw()
    add(
        "password in python log line [log line]",
        f"2026-11-02 14:03:22,481 DEBUG auth.client connecting user=svc_etl password={p} host=db.internal",
        p,
    )
    t = rs(AN, 32)
    add(
        "api key echoed in stack trace [stack trace]",
        f'Exception in thread "main" java.lang.IllegalStateException: partner rejected key {t}\n\tat com.acme.partner.Client.call(Client.java:88)\n\tat com.acme.Main.main(Main.java:12)',
        t,
    )
    return out


# -------------------------------------------------------------- look-alikes
def lookalikes():
    out = []

    def add(kind, text):
        out.append((kind, text))

    sha = [hx(40) for _ in range(4)]
    add(
        "git log oneline",
        "\n".join(
            f"{s[:7]} {m}"
            for s, m in zip(
                sha,
                ["fix: retry on 503", "docs: setup guide", "chore: bump deps", "feat: export csv"],
            )
        ),
    )
    add(
        "git log full sha",
        f"commit {sha[0]}\nAuthor: Jane Doe <jane@example.com>\nDate:   Tue Mar 3 10:12:44 2026 +0100\n\n    fix: retry on 503",
    )
    add("git rev-parse", f"$ git rev-parse HEAD\n{sha[1]}")
    add(
        "git merge output",
        f"Updating {sha[2][:7]}..{sha[3][:7]}\nFast-forward\n src/app.py | 4 ++--\n 1 file changed, 2 insertions(+), 2 deletions(-)",
    )
    add(
        "git blame",
        "\n".join(f"{hx(8)} (Jane Doe 2026-01-0{i} {10 + i}) line {i}" for i in range(1, 4)),
    )
    add("git ls-files -s", f"100644 {hx(40)} 0\tsrc/main.py\n100755 {hx(40)} 0\tscripts/deploy.sh")
    add("git submodule status", f" {hx(40)} vendor/libfoo (v1.4.2)")
    add("github compare url", f"https://github.com/acme/shop/compare/{hx(40)}...{hx(40)}")
    add(
        "npm lock integrity",
        json.dumps(
            {
                "node_modules/lodash": {
                    "version": "4.17.21",
                    "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",
                    "integrity": "sha512-" + b64(64),
                }
            },
            indent=2,
        ),
    )
    add(
        "yarn lock integrity",
        f'"react@^18.2.0":\n  version "18.3.1"\n  resolved "https://registry.yarnpkg.com/react/-/react-18.3.1.tgz#{hx(40)}"\n  integrity sha512-{b64(64)}',
    )
    add(
        "pnpm lock resolution",
        f"  /zod@3.23.8:\n    resolution: {{integrity: sha512-{b64(64)}}}\n    dev: false",
    )
    add(
        "cargo lock checksum",
        f'[[package]]\nname = "serde"\nversion = "1.0.210"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{hx(64)}"',
    )
    add(
        "go.sum line",
        f"github.com/stretchr/testify v1.9.0 h1:{b64(32)}\ngithub.com/stretchr/testify v1.9.0/go.mod h1:{b64(32)}",
    )
    add(
        "poetry lock hash",
        f'files = [\n    {{file = "requests-2.32.3-py3-none-any.whl", hash = "sha256:{hx(64)}"}},\n]',
    )
    add(
        "pip require-hashes",
        f"certifi==2024.8.30 \\\n    --hash=sha256:{hx(64)} \\\n    --hash=sha256:{hx(64)}",
    )
    add(
        "uv lock sdist hash",
        f'sdist = {{ url = "https://files.pythonhosted.org/packages/source/c/click/click-8.1.7.tar.gz", hash = "sha256:{hx(64)}", size = 336121 }}',
    )
    add(
        "request id in log",
        f"2026-04-01T12:00:03Z INFO request_id={uid()} method=GET path=/api/orders status=200 dur_ms=41",
    )
    add("traceparent header", f"traceparent: 00-{hx(32)}-{hx(16)}-01")
    add(
        "x-request-id in curl -v",
        f"< HTTP/2 200\n< content-type: application/json\n< x-request-id: {uid()}\n< x-amzn-trace-id: Root=1-{hx(8)}-{hx(24)}",
    )
    add(
        "aws request id",
        f"An error occurred (AccessDenied) when calling the GetObject operation: Access Denied (RequestId: {HX(16)}, HostId: {b64(56)})",
    )
    add("iam role arn", "arn:aws:iam::123456789012:role/github-actions-deploy")
    add(
        "secretsmanager arn (name only)",
        f"SECRET_ARN=arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/shop/db-{rs(AN, 6)}",
    )
    add("kms key arn", f'kms_key_id = "arn:aws:kms:us-east-1:123456789012:key/{uid()}"')
    add(
        "ssm parameter name",
        "aws ssm get-parameter --name /prod/api/stripe_secret_key --with-decryption --query Parameter.Value",
    )
    add("docker image digest", f"image: ghcr.io/acme/api@sha256:{hx(64)}")
    add(
        "docker images output",
        "REPOSITORY   TAG       IMAGE ID       CREATED       SIZE\n"
        + f"acme/api     2.14.1    {hx(12)}   3 days ago    187MB\npostgres     16        {hx(12)}   2 weeks ago   432MB",
    )
    add("docker ps no-trunc id", f"CONTAINER ID: {hx(64)}\nSTATUS: Up 3 hours (healthy)")
    add(
        "kubectl get pods",
        f"NAME                          READY   STATUS    RESTARTS   AGE\napi-{hx(10)}-{rs(LAN, 5)}       1/1     Running   0          2d\nworker-{hx(10)}-{rs(LAN, 5)}    1/1     Running   1          2d",
    )
    add("pod uid", f'  uid: {uid()}\n  resourceVersion: "{dg(8)}"')
    add(
        "placeholder angle brackets",
        "OPENAI_API_KEY=<your-api-key>\nSTRIPE_SECRET_KEY=<your-stripe-secret-key>",
    )
    add("placeholder xxxx", "export API_TOKEN=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")
    add(
        "placeholder shell var",
        'curl -H "Authorization: Bearer ${SECRET}" https://api.example.com/v1/me',
    )
    add(
        "placeholder github secret ref",
        "env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n  AWS_SECRET_ACCESS_KEY: ${{ secrets.AWS_SECRET_ACCESS_KEY }}",
    )
    add(
        "placeholder helm template",
        "password: {{ .Values.postgresql.auth.password | b64enc | quote }}",
    )
    add(
        "placeholder python format",
        "dsn = 'postgresql://%(DB_USER)s:%(DB_PASSWORD)s@%(DB_HOST)s/shop'",
    )
    add(
        "placeholder spring",
        "spring.datasource.password=${DB_PASSWORD:}\nspring.datasource.username=${DB_USER:shop}",
    )
    add("placeholder your_token_here", "TELEGRAM_BOT_TOKEN=your_token_here")
    add("placeholder REPLACE_ME", 'api_key = "REPLACE_ME"  # set in production')
    add("placeholder redacted", 'password: "<redacted>"')
    add(
        "placeholder dotenv example empty",
        "# .env.example\nDATABASE_URL=\nREDIS_URL=\nJWT_SECRET=\n",
    )
    add(
        "placeholder compose interpolation",
        "environment:\n  POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set it in .env}",
    )
    add("placeholder url userinfo", "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME")
    add(
        "placeholder docs token",
        "Replace `YOUR_ACCESS_TOKEN` with the token from Settings > Developer settings.",
    )
    add(
        "masked openai key",
        "Incorrect API key provided: sk-proj-...a1B2. You can find your API key at https://platform.openai.com/account/api-keys.",
    )
    add("masked stars", "DB_PASSWORD=****************")
    add(
        "masked stripe key in dashboard",
        "Secret key  sk_live_••••••••••••••••4f2Q   Revealed 3 days ago",
    )
    add(
        "masked token in cli output",
        "Logged in to github.com as octocat (keyring)\n  - Token: gho_************************************",
    )
    add("masked card number", "Card ending in 4242, expires 08/29")
    add(
        "ssh ed25519 public key", f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b64(32)[:43]} jane@laptop"
    )
    add(
        "ssh rsa public key authorized_keys",
        f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{b64(380)} deploy@ci",
    )
    add("ssh key fingerprint", f"256 SHA256:{b64(32).rstrip('=')} jane@laptop (ED25519)")
    add(
        "known_hosts line",
        f"github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
    )
    add(
        "pgp public key block",
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"
        + wrap(base64.b64encode(b"\x99\x01\x8d\x04" + rb(400)).decode())
        + "\n="
        + b64(3)
        + "\n-----END PGP PUBLIC KEY BLOCK-----",
    )
    add(
        "gpg list-keys fingerprint",
        f"pub   ed25519 2025-09-01 [SC]\n      {HX(40)}\nuid           [ultimate] Jane Doe <jane@example.com>",
    )
    add("age public key", f"age -r age1{rs(BECH, 58)} -o secrets.tar.age secrets.tar")
    add(
        "minisign public key", f"untrusted comment: minisign public key {HX(16)}\nRWQ{b64(39)[:53]}"
    )
    add(
        "wireguard public key",
        f"[Peer]\nPublicKey = {b64(32)}\nAllowedIPs = 10.8.0.0/24\nEndpoint = vpn.example.net:51820",
    )
    add("x509 certificate", pem("CERTIFICATE", bytes.fromhex("308203"), 700)[0])
    add(
        "k8s caBundle base64 of certificate",
        "caBundle: "
        + base64.b64encode(pem("CERTIFICATE", bytes.fromhex("308201"), 300)[0].encode()).decode()[
            :400
        ],
    )
    add("tls fingerprint colon hex", "SHA256 Fingerprint=" + ":".join(HX(2) for _ in range(32)))
    add("stripe publishable key", f"const stripe = Stripe('pk_live_51{rs(AN, 97)}');")
    add(
        "mapbox public token",
        f"mapboxgl.accessToken = 'pk.eyJ1IjoiYWNtZS1tYXBzIiwiYSI6I{rs(AN, 26)}In0.{b64u(16)}';",
    )
    add(
        "algolia search-only key",
        f"const search = algoliasearch('{rs(UAN, 10)}', '{hx(32)}'); // search-only key, safe in the browser",
    )
    add(
        "posthog project key",
        f"posthog.init('phc_{rs(AN, 43)}', {{ api_host: 'https://eu.i.posthog.com' }})",
    )
    add("google analytics id", "gtag('config', 'G-7XK2M9QP3L');")
    add(
        "recaptcha site key",
        f'<div class="g-recaptcha" data-sitekey="6L{rs(AN + "-_", 38)}"></div>',
    )
    add("ethereum address", f"Send USDC to 0x{hx(40)} on Base.")
    add("ethereum tx hash link", f"https://etherscan.io/tx/0x{hx(64)}")
    add("bitcoin address", f"bc1q{rs(BECH, 38)}")
    add("solana address", f"solana balance {rs(B58, 44)}")
    add("bitcoin xpub", f"Watch-only wallet imported from xpub6C{rs(B58, 105)}")
    add("nostr npub", f"follow me: npub1{rs(BECH, 58)}")
    add("tailscale node key", f"nodekey:{hx(64)}")
    add("ipfs cid", f"ipfs://bafybei{rs('abcdefghijklmnopqrstuvwxyz234567', 52)}")
    add(
        "get_secret call",
        'api_key = get_secret("payments/api-key")\nclient = Payments(api_key=api_key)',
    )
    add(
        "token expired constant",
        'TOKEN_EXPIRED = "token_expired"\nINVALID_API_KEY = "invalid_api_key"',
    )
    add(
        "password reset class",
        "class PasswordResetTokenGenerator:\n    key_salt = 'accounts.tokens.PasswordResetTokenGenerator'",
    )
    add(
        "secret key check",
        'if not settings.SECRET_KEY:\n    raise ImproperlyConfigured("The SECRET_KEY setting must not be empty.")',
    )
    add(
        "rotate api key signature",
        "def rotate_api_key(user_id: int, *, revoke_old: bool = True) -> ApiKey:",
    )
    add("password min length", "const PASSWORD_MIN_LENGTH = 12;\nconst MAX_LOGIN_ATTEMPTS = 5;")
    add("grep for api_key", 'grep -rn "api_key" src/ --include=*.py | wc -l')
    add(
        "kubectl get secret command",
        "kubectl get secret db-creds -n prod -o jsonpath='{.data.password}' | base64 -d",
    )
    add("vault kv get command", "vault kv get -field=password secret/prod/db")
    add(
        "aws get-secret-value command",
        "aws secretsmanager get-secret-value --secret-id prod/shop/db --query SecretString --output text",
    )
    add(
        "env reference python",
        'token = os.environ["GITHUB_TOKEN"]\nheaders = {"Authorization": f"Bearer {token}"}',
    )
    add(
        "env reference js",
        "const stripe = new Stripe(process.env.STRIPE_SECRET_KEY!, { apiVersion: '2024-06-20' });",
    )
    add(
        "secretKeyRef",
        "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-creds\n        key: password",
    )
    add(
        "terraform sensitive reference",
        "password = var.db_password\nmaster_password = random_password.db.result",
    )
    add("docker secret file read", 'password="$(cat /run/secrets/db_password)"')
    add(
        "curl with env bearer",
        'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user',
    )
    add(
        "jwt error message",
        "TokenExpiredError: jwt expired\n    at /app/node_modules/jsonwebtoken/verify.js:190:21",
    )
    add(
        "oauth error json",
        '{"error":"invalid_client","error_description":"Client authentication failed"}',
    )
    add(
        "401 log line",
        "WARN auth: rejected request from 10.0.4.2: invalid api key (key id k_7f3a, last 4: 9b1c)",
    )
    add(
        "docs how to set key",
        "Set `ANTHROPIC_API_KEY` in your shell, then run `make dev`. Never commit it.",
    )
    add(
        "required env list",
        "Required environment: STRIPE_SECRET_KEY, DATABASE_URL, REDIS_URL, SESSION_SECRET",
    )
    add(
        "commit message about secrets",
        "chore: move webhook secret to secrets manager and rotate the old one",
    )
    add(
        "password policy text",
        "Passwords must be at least 12 characters and include a number and a symbol.",
    )
    add("regex for keys", r"KEY_RE = re.compile(r'^[A-Za-z0-9_\-]{32,64}$')")
    add("base64 of hello", "$ echo aGVsbG8gd29ybGQK | base64 -d\nhello world")
    add(
        "base64 json config (non-secret)",
        "config: "
        + base64.b64encode(
            json.dumps({"theme": "dark", "locale": "de-DE", "pageSize": 50}).encode()
        ).decode(),
    )
    add(
        "data uri png",
        "background: url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==);",
    )
    add(
        "mime base64 body",
        "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
        + base64.b64encode(
            "Hallo Team, anbei der Bericht für das dritte Quartal. Viele Grüße".encode()
        ).decode(),
    )
    add("md5sum output", f"{hx(32)}  release-2.4.0.tar.gz")
    add("sha256sum output", f"{hx(64)}  brain-1.2.0-py3-none-any.whl")
    add("release checksum line", f"SHA256 (app-4.1.0-linux-amd64.tar.gz) = {hx(64)}")
    add(
        "sri integrity attribute",
        f'<script src="https://cdn.example.com/lib.min.js" integrity="sha384-{b64(48)}" crossorigin="anonymous"></script>',
    )
    add(
        "webpack hashed filenames",
        f"dist/main.{hx(8)}.js   142 KiB\ndist/vendor.{hx(20)}.js  801 KiB",
    )
    add("etag header", f'ETag: "{hx(40)}"\nCache-Control: max-age=3600')
    add(
        "git lfs pointer",
        f"version https://git-lfs.github.com/spec/v1\noid sha256:{hx(64)}\nsize 1048576",
    )
    add(
        "nix store path",
        f"/nix/store/{rs('0123456789abcdfghijklmnpqrsvwxyz', 32)}-python3-3.12.5/bin/python3",
    )
    add("go pseudo-version", f"require golang.org/x/sync v0.0.0-20240102150405-{hx(12)}")
    add("sentry event id", f"Sentry captured event {hx(32)}")
    add(
        "stripe object ids",
        f"Charge ch_3{rs(AN, 23)} for customer cus_{rs(AN, 14)} succeeded (invoice in_1{rs(AN, 23)}).",
    )
    add("stripe price id", f"STRIPE_PRICE_PRO=price_1{rs(AN, 23)}")
    add("openai fine-tuned model id", f"model = 'ft:gpt-4o-mini-2024-07-18:acme::{rs(AN, 8)}'")
    add("slack channel and user ids", "Posted to C024BE91L by U0G9QF9C6 in workspace T0001")
    add("aws account id", "Account: 123456789012\nRegion: eu-central-1")
    add("azure subscription and tenant", f"az account set --subscription {uid()}\n# tenant {uid()}")
    add(
        "gcp service account email",
        "gcloud iam service-accounts keys list --iam-account deployer@acme-prod-314159.iam.gserviceaccount.com",
    )
    add(
        "google oauth client id",
        f"GOOGLE_CLIENT_ID={dg(12)}-{rs(LAN, 32)}.apps.googleusercontent.com",
    )
    add("cloudflare zone id", f'zone_id    = "{hx(32)}"\naccount_id = "{hx(32)}"')
    add(
        "terraform state lineage",
        json.dumps({"version": 4, "terraform_version": "1.9.5", "serial": 42, "lineage": uid()}),
    )
    add("github app ids", "GITHUB_APP_ID=912345\nGITHUB_INSTALLATION_ID=51234987")
    add(
        "twilio account sid alone",
        f"Messages sent from account AC{hx(32)} (friendly name: acme-prod)",
    )
    add("uuid primary keys sql", f"SELECT * FROM orders WHERE id IN ('{uid()}', '{uid()}');")
    add("mac and ipv6", "ether 3c:22:fb:9a:10:4e  inet6 fe80::1c2a:9bff:fe44:2e10%en0 prefixlen 64")
    add(
        "memory addresses",
        "<app.models.Token object at 0x7f3a2c1b5e90>\nSegmentation fault at 0x00007ffd4a3b2c10",
    )
    add(
        "version strings",
        "Python 3.12.5, Django 5.1.2, psycopg 3.2.3, node v20.17.0, v2.0.0-rc.1+build.5",
    )
    add(
        "dates and timestamps",
        "created_at=2026-02-11T10:04:51.123456+01:00 epoch_ms=1770800691123 ttl=86400",
    )
    add(
        "phone and order numbers",
        "Order #100-4482-9917 shipped; support +49 30 12345678; ISBN 978-3-16-148410-0",
    )
    add("css colors", ":root { --brand: #1f6feb; --muted: #8b949e; --bg: #0d1117; }")
    add("cron expression", "schedule: '*/15 3-5 * * 1-5'")
    add(
        "youtube and short ids",
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ and https://bit.ly/3xKq9Zt",
    )
    add("license spdx", "# SPDX-License-Identifier: Apache-2.0\n# Copyright 2026 Acme GmbH")
    add(
        "jsonwebtoken dependency",
        '"dependencies": { "jsonwebtoken": "^9.0.2", "bcryptjs": "^2.4.3", "passport-http-bearer": "^1.0.1" }',
    )
    add(
        "uuid idempotency key header",
        f"curl https://api.example.com/v1/payouts -H 'Idempotency-Key: {uid()}' -H \"Authorization: Bearer $API_TOKEN\"",
    )
    add(
        "k8s configmap non-secret",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web-config\ndata:\n  LOG_LEVEL: info\n  FEATURE_FLAGS: checkout_v2,new_search\n  API_BASE_URL: https://api.example.com",
    )
    add(
        "hcl resource names",
        'resource "aws_secretsmanager_secret" "stripe_api_key" {\n  name = "prod/stripe/api-key"\n  recovery_window_in_days = 7\n}',
    )
    add(
        "properties non-secret",
        "server.port=8443\nspring.datasource.url=jdbc:postgresql://db:5432/shop\nspring.datasource.hikari.maximum-pool-size=20",
    )
    add("hex color hash in diff", f"-  color: #{hx(6)};\n+  color: #{hx(6)};")
    add("content-addressed cache key", f"cache key: node-modules-linux-{hx(64)}")
    add("github actions cache hit", f"Cache restored from key: Linux-pip-{hx(64)}")
    add(
        "session expired message",
        "Your session has expired. Please sign in again. (code: SESSION_EXPIRED)",
    )
    add(
        "api key field in openapi",
        "components:\n  securitySchemes:\n    ApiKeyAuth:\n      type: apiKey\n      in: header\n      name: X-API-Key",
    )
    add("totp six digit code said", "the 2FA code was 482913 but it expired before I typed it")
    add(
        "encrypted sops value",
        f"password: ENC[AES256_GCM,data:{b64(12)},iv:{b64(32)},tag:{b64(16)},type:str]",
    )
    add(
        "ansible vault encrypted header",
        "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(hx(80) for _ in range(3)),
    )
    add(
        "kid in jwks (public)",
        json.dumps(
            {
                "keys": [
                    {
                        "kty": "RSA",
                        "kid": hx(40),
                        "use": "sig",
                        "alg": "RS256",
                        "e": "AQAB",
                        "n": b64u(256),
                    }
                ]
            }
        ),
    )
    add(
        "bcrypt library call",
        "hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=12))",
    )
    add("uuid in filename", f"uploads/{uid()}/invoice-2026-03.pdf")
    add(
        "random-looking test name",
        "tests/test_api.py::test_rejects_expired_token[case-7f3a9c] PASSED",
    )
    add("semver lockfile entry", '"node_modules/@types/node": { "version": "22.7.4", "dev": true }')
    return out


# --------------------------------------------------------------------- build
def build():
    secrets, bases = [], set()
    forms = list(FORMS)
    deck = []
    for cred, svc, var, field, gen, hdr in NAMED:
        if not deck:
            deck = forms[:]
            R.shuffle(deck)
        form = deck.pop()
        if form == "curl header" and not hdr:
            form, deck = (deck.pop() if deck else "env"), deck
        c = C(svc, var, field, gen(), hdr)
        made = FORMS[form](c)
        text, secret = made if isinstance(made, tuple) else (made, c.val)
        if hdr and R.random() < 0.5 and form != "curl header":
            # a second entry for the same service: the value as a header of a request
            c2 = C(svc, var, field, gen(), hdr)
            secrets.append(
                {"kind": f"{cred} [curl header]", "text": f_header(c2), "secret": c2.val}
            )
        secrets.append({"kind": f"{cred} [{form}]", "text": text, "secret": secret})
        bases.add(cred)
    for kind, text, secret in special():
        secrets.append({"kind": kind, "text": text, "secret": secret})
        bases.add(kind.split(" [")[0])
    looks = [{"kind": k, "text": t} for k, t in lookalikes()]
    for x in secrets:
        assert x["secret"] in x["text"], x["kind"]
    kinds = [x["kind"] for x in secrets]
    assert len(set(kinds)) == len(kinds), [k for k in kinds if kinds.count(k) > 1]
    lk = [x["kind"] for x in looks]
    assert len(set(lk)) == len(lk), [k for k in lk if lk.count(k) > 1]
    shown = {x["kind"].split(" [")[1].rstrip("]") for x in secrets}
    about = (
        f"A fourth blind corpus: {len(secrets)} fake secrets of {len(bases)} credential kinds in "
        f"{len(shown)} forms, and {len(looks)} innocent look-alikes. Generated by "
        f"benchmarks/make_secrets_blind4.py with random.Random({SEED}), standard library only, "
        "from general knowledge of real services' credential shapes. No redactor code, redaction "
        "test or other corpus was consulted (only the JSON format of secrets_holdout.py). Every "
        "value is random and fake. A secret's kind is '<credential> [<form>]'."
    )
    return {"about": about, "secrets": secrets, "lookalikes": looks}, bases, shown


if __name__ == "__main__":
    doc, bases, shown = build()
    OUT.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(doc["about"])
