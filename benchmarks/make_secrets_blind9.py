"""Write benchmarks/data/secrets_blind9.json: a ninth blind corpus of fake credentials.

What its author read, and what not. Written from general knowledge of how vendors shape
their keys, where people paste them into coding-agent chats and where agents' tool output
shows them, with the standard library only. Not read: anything under ``brain/`` or
``tests/``, ``benchmarks/README.md``, the project README, the bodies of the other
``make_secrets_blind*.py`` generators, and any ``redact*`` benchmark. Read:
``benchmarks/secrets_holdout.py`` (the JSON format, how an item is loaded and scored); the
top docstring of ``make_secrets_blind8.py`` only (line 1 to its closing quotes), for the
output shape and as an example of how to describe a corpus; the top-level keys, field names
and ``about`` strings of ``benchmarks/data/secrets_*.json``; and their ``kind`` names,
printed to a file with the ``[form]`` suffix stripped (about a hundred of them seen on
screen, the rest only searched for candidate vendors). Seen in passing: the file names in
``benchmarks/`` and the subjects of main's five latest commits. Every vendor below was
checked against those kind names (its whole name as a word, and its letters run together,
anywhere in a kind): 282 of 642 candidates found there were dropped, and so were products
of a vendor found there (Twilio, Zoho, Yandex, Klarna, Bunny.net, Sberbank, and two
Fresh- names beside Freshdesk); 31 wallets were then added from a second list checked the
same way, so the 390 kinds here (382 vendors) are new. The corpus was not scored, and
nothing in brain was run on it; it was only checked to load with the fields ``load()``
reads, each secret being a verbatim substring of its text.

Counts (printed by ``main``): 450 secrets of 390 kinds in 180 embedding forms, and 160
look-alikes (55 sorts) that must come out unchanged. 330 kinds appear once and 60 twice,
in two different forms with fresh values. Every form is used at least once.

Value shapes: 124 random alphanumerics with no prefix (alphabets of 62, 36, 26 or 58
letters; 62 of them 10 to 20 long, many mostly letters), 68 hex (lower or upper case), 16
base64 or url-safe base64, 22 UUIDs used as keys, 54 vendor-style prefixes with a random
body, 14 JWT-like tokens, 16 other structured values (grouped codes, byte arrays, id:secret
pairs, dotted keys), 72 passwords as people type them (words in several languages, names,
years, symbols, leetspeak; 21 with non-ASCII letters), 12 passphrases and seed words, 11
PINs and digit codes, 39 URLs and connection strings whose secret is a path segment, query
value or password inside them (webhooks, API URLs, userinfo, JDBC, ODBC, redis, ftp,
smtps, a Nostr Wallet Connect URI), and 2 inside a logon string; forms put more inside
larger strings (``Bearer`` headers, ``curl -u user:secret``, ``smbclient -U user%secret``).

Names: credential words first, last or in the middle, in many spellings (``PASSWD``,
``PWD``, ``TKN``, ``SECRETS``, ``PIN_CODE``) and languages (``SENHA``, ``HASLO``,
``CLAVE``, ``WACHTWOORD``, ``SALASANA``, ``KLUCZ``, ``ANAHTAR``, ``MIYAO``, ``KAGI``), and
spellings such as ``*_SECURITY_CODE``, ``*_APP_SID``, ``SIGNING_SALT``,
``*_DB_PASSWD_RO``, ``authKey``, ``x-*-token``, ``*__AUTH__BEARER``; camelCase, kebab and
header forms of each. Some values have no credential word near them at all, their role
being clear to a reader: a login command's argument, an SDK constructor's first argument, a
wallet created from a key or phrase, a webhook's path.

Forms: 166 in chat (112 in prose in 34 languages: Arabic, Bengali, Catalan, Czech, Danish,
German, Greek, English, Spanish, Persian, Finnish, French, Hebrew, Hindi, Hungarian,
Indonesian, Italian, Japanese, Korean, Malay, Norwegian, Dutch, Polish, Portuguese,
Romanian, Russian, Swahili, Thai, Tagalog, Turkish, Ukrainian, Urdu, Vietnamese, Chinese;
plus typos, a 401 after pasting, asking how to rotate a pushed key, inline code, an email
reply under quoted lines, a pasted SMS, a voice-memo transcript, meeting minutes, OCR of a
sticky note, a handoff checklist, an issue ticket, a postmortem timeline, a WhatsApp export
line, a Discord spoiler, a Telegram forward, calendar invite notes, a bullet list of
logins), 99 in config files (52 forms, mostly ones blind8's list does not name: .envrc,
Caddyfile, HAProxy, Procfile, fly.toml, netlify.toml, vercel.json, wrangler.toml,
serverless.yml, supervisord, .npmrc, .pypirc, composer auth.json, NuGet.config, Maven
settings.xml, wp-config.php, Laravel, Django, Rails credentials, appsettings.json,
web.config, VS Code launch.json, Nix, Pulumi, CloudFormation, Azure Pipelines, Bitbucket
Pipelines, Drone, Nomad, Home Assistant, ESPHome, OpenWrt uci, HOCON, EDN, Erlang
sys.config, rclone, msmtprc, .authinfo, Postman environment, Bruno, Expo, Android
local.properties, xcconfig, YAML anchors, JSON with comments, ...), 44 in shell sessions
and CLI output (16 forms: a CLI login argument, gh secret set, kubectl create secret,
docker run -e, printenv, shell history, PowerShell, cmd, fish, vault and consul kv put,
sshpass, mysql -p, curl -u, smbclient, flutter --dart-define), 51 in code (25 forms: SDK
constructors in Python, TypeScript and C#, request headers, Go, Rust, Kotlin, Swift, Scala,
Haskell, R, Julia, Zig, OCaml, VB.NET, Objective-C, Apps Script, Excel VBA, Postman and k6
scripts, Cypress, a GitHub Actions ``with:``, a wallet import, SQL ALTER ROLE), 51 in logs,
tables, diffs, HTTP and URLs (24 forms: logfmt, JSON logs, nginx access log, a traceback's
locals, curl -v, HAR, webhook delivery log, markdown, HTML and TSV tables, a browser's
password export CSV, Bitwarden JSON and KeePass XML exports, psql and mysql output, a diff,
a PR suggestion, raw HTTP, HTTPie, gRPC metadata, GraphQL variables, URL fragment and query,
bare URLs), and 39 in agent tool calls and results (12 forms: a tool_use Bash input, a
tool_result file, function_call arguments escaped twice, MCP tools/call, a Gemini
functionCall, OpenAI tool_calls, a JSONL transcript line escaped twice, Edit and Write tool
inputs, a Read result with line numbers, a Bash result's stdout, an agent's plan). Each
secret's ``kind`` is ``<vendor> <credential> [<form>]``. A person's own PINs go only to
chat, a pasted SMS, notes, tables, device configs or a notes file an agent read; header and
query forms hold only tokens and keys.

Look-alikes: git SHAs near git words (revert, log, rebase todo), checksums, lockfile, SRI,
go.sum, pip and Cargo hashes, image digests, container ids, ARNs and cloud resource names,
placeholders and template references, masked values, SSH and PGP public material,
content-hashed assets, trace, request, ray and event ids, i18n strings about passwords in
ten languages, code naming secrets without values, base64 of ordinary text, tmux session
names, test fixture ids, booleans such as ``admin_session=true``, UUIDs and ULIDs as record
ids, ETags, public crypto addresses and transaction hashes, IPFS CIDs, pod names, object and
channel ids, a site key, build ids, policy text, and others. Each lists under ``keep`` the
strings that must survive (the loader reads only ``kind`` and ``text``; the whole text must
come out unchanged). Every value is drawn from ``random.Random(920261207)``; none is a real
credential.

Run: ``python benchmarks/make_secrets_blind9.py``.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

SEED = 920261207
R = random.Random(SEED)
OUT = Path(__file__).parent / "data" / "secrets_blind9.json"

# vendor | credential | value template | name (optional). In a template, {shape} draws a
# random value and [[...]] marks the part that is the secret (the whole value when absent).
# A line ending in a backslash continues on the next one.
TABLE = r"""
Abyssale|api key|{a62:18}|
Acumatica|client secret|{a62:22}|ACUMATICA_OAUTH_CLIENT_SECRET
Acumatica|admin password|{pw}|
Adalo|app api key|{a36:25}|
Addigy|api client secret|{hex:64}|
Adzuna|app key|{hex:32}|adzunaAppKey
Aircall|api token|{hex:32}|AIRCALL_API_TOKEN
Alai|api key|alai_{a62:32}|
AlphaSense|api password|{pw}|
Ambee|api key|{hex:64}|x-api-key
Amara|api key|{hex:40}|X-Amara-Api-Key
Anvil|api key|{a26:14}|ANVIL_API_KEY
Apideck|api key|sk_live_{uuid}-{a62:40}|APIDECK_KEY
Apitable|api token|usk{a62:23}|
ApyHub|apy token|APY{a62:60}|apy-token
Arcadia|client secret|{uuid}|
Ashby|api key|{hex:64}|ASHBY_KEY
Attentive|api key|{a62:16}|
Autodesk Platform Services|client secret|{a62:16}|APS_CLIENT_SECRET
Avochato|auth secret|{a26:12}|
Axeptio|client secret|{a62:24}|
Backendless|rest api key|{UUID}|BACKENDLESS_REST_KEY
Baremetrics|api key|{a62:20}|
Beamer|api key|{a62:12}_{a62:20}|
Benchling|api key|sk_{a62:28}|BENCHLING_TOKEN
Bigin|refresh token|1000.{hex:32}.{hex:32}|
Billwerk|client secret|{a62:20}|
Blingby|api secret|{a26:14}|
Bokun|secret key|{hex:32}|BOKUN_SECRET_KEY
Bonusly|access token|{hex:32}|
Boomi|atom api token|{uuid}|BOOMI_API_TOKEN
Brandfetch|api key|{b64:33}|
Breezy HR|account password|{pw}|
Bubble|api token|{hex:32}|BUBBLE_API_TOKEN
Cakemail|account password|{pw}|
Canny|api key|{uuid}|CANNY_API_KEY
Capsule CRM|personal access token|{a62:64}|
Carbone|api key|{jwt}|CARBONE_KEY
Castle|api secret|{a62:32}|CASTLE_API_SECRET
Cecil|webhook url|https://hooks.cecil.so/t/[[{a62:24}]]|
Chameleon|account secret|{a26:19}|
ChartMogul|api key|{hex:32}|
Clearbit|secret key|sk_{hex:32}|CLEARBIT_KEY
Clockify|api key|{a62:48}|X-Api-Key
CodeSignal|api key|{a62:14}|
Coinlayer|access key|{hex:32}|access_key
Commercetools|client secret|{a62:32}|CTP_CLIENT_SECRET
Convoy|api key|CO.{a62:16}.{a62:64}|
Databox|push token|{a36:24}|
Defined Networking|api key|dnkey-{A36:26}-{A36:52}|
Delighted|api key|{a26:16}|
Dixa|api token|{jwt}|
Docparser|api key|{hex:40}|
DocRaptor|api key|{a62:20}|
Documenso|api token|api_{a36:16}|
Dovetail|api key|api.{a62:26}.{a62:40}|
Drata|api key|{uuid}|DRATA_API_KEY
Dreamdata|api key|{hex:48}|
Drift|oauth access token|{a62:32}|
Dyspatch|api key|{a26:17}|
Elfsight|api key|{uuid}|
Emarsys|api secret|{a62:20}|EMARSYS_SECRET
Encharge|rest api key|{a62:32}|X-Encharge-Token
Envoy|api key|{hex:40}|
Eventbrite|private token|{A36:20}|EVENTBRITE_PRIVATE_TOKEN
Everhour|api key|{hex:4}-{hex:4}-{hex:6}-{hex:6}-{hex:8}|X-Api-Key
Expensify|partner user secret|{hex:40}|partnerUserSecret
Factorial HR|api key|{hex:64}|
Feathery|api key|{uuid}|
Fillout|api key|sk_prod_{a62:88}|
Finch|client secret|finch-secret-sandbox-{a62:32}|
Fireflies|api key|{uuid}|FIREFLIES_API_KEY
Flatfile|secret key|sk_{a62:32}|FLATFILE_API_KEY
Float|access token|{hex:16}{a62:24}|
Flodesk|api key|fd_key_{hex:32}.{a62:40}|
Flowlu|api key|{a62:14}|
Folk CRM|api key|{b64:30}|
Formbricks|api key|fbk_{a62:44}|
Formcarry|api key|{a62:15}|
Gainsight|access key|{uuid}|
Galileo|api key|{b64u:32}|
Getform|api token|{a26:18}|
Gladly|api token|{a26:17}|GLADLY_API_TOKEN
Glide|api token|{uuid}|
Gong|access key secret|{jwt}|GONG_ACCESS_KEY_SECRET
Helpwise|api secret|{a26:18}|
Hightouch|api key|{uuid}|
Hubstaff|personal access token|{jwt}|
Humaans|api access token|{a62:13}|
Hyperline|api key|prod_{a62:48}|
Improvado|api key|{hex:32}|
Invoiced|api key|{a26:18}|
Judge.me|private api token|{a62:24}|
Justcall|api secret|{hex:40}|JUSTCALL_API_SECRET
Kajabi|client secret|{a62:17}|
Kustomer|api key|{jwt}|
Lattice|api key|{uuid}|
Leexi|api key secret|{a62:32}|
Lemlist|api key|{hex:32}|
Lightdash|personal access token|ldpat_{hex:32}|
Livestorm|api token|{jwt}|
Mailmodo|api key|{A36:40}|
Memberstack|secret key|sk_{a62:24}|MEMBERSTACK_SECRET_KEY
Miro|access token|eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_{a62:27}|
Mixmax|api token|{uuid}|
Moengage|data api key|{a62:24}|
Moxtra|client secret|{a62:20}|
Nanonets|api key|{a62:11}|
Navan|client secret|{a62:48}|
Nethunt|api key|{hex:32}|
Noteable|api token|{b64:45}|
Nuclino|api key|{a62:40}|
Orum|api secret|{b64:32}|
Outseta|api secret|{hex:32}|
Papercups|api key|{a62:36}|
Parabola|webhook url|https://parabola.io/api/steps/[[{hex:40}]]/live|
Paperform|api key|{a26:16}|
Pave|api key|{hex:32}|
Payhere|merchant secret|{A36:48}|
Pitch|workspace token|{a26:19}|
Planhat|api key|{a62:18}|
Pleo|api key|{b64u:48}|
Podio|client secret|{a62:19}|
Postgrid|api key|live_sk_{a62:48}|
Practicebetter|client secret|{a62:32}|
Printful|private token|{a62:40}|PRINTFUL_TOKEN
Printify|personal access token|{jwt}|
ProdPad|api key|{hex:40}|
Quaderno|private key|sk_live_{a62:20}|
Railz|api secret|{a62:64}|
Regal.io|api key|{uuid}|
Rewardful|api secret|{hex:32}|
Salesloft|api key|v2_ak_{d:5}_{hex:64}|
Savvycal|personal token|pt_secret_{hex:40}|
Scalar|api key|{a62:12}|
Scoro|api key|ScOAPI_{hex:32}|
Seam|api key|seam_{a62:8}_{a62:28}|
SendOwl|secret|{a62:20}|
Sendlane|api token|{a62:80}|
Servicebell|secret key|{hex:32}|
Shipbob|personal access token|{hex:64}|
Simplecast|api key|{jwt}|
Snipcart|secret api key|ST_{a62:66}|
Softr|api key|{a62:22}|Softr-Api-Key
Spendesk|client secret|{a62:18}|
Splitwise|api key|{a62:40}|
Sprig|api key|{b64:36}|
Stannp|api key|{hex:32}|
Steady|api key|{a26:10}|
Streak|api key|{hex:32}|
Superhuman|account password|{pw}|
Survicate|api key|{hex:32}|
Swell|secret key|sk_{a62:32}|
Tallyfy|access token|{jwt}|
Teachable|api key|{a26:13}|
Templated|api key|{uuid}|
Thinkific|api key|{hex:32}|X-Auth-API-Key
Tolt|api key|{a26:12}|
Toggl|api token|{hex:32}|
Tremendous|api key|PROD_{A36:50}|
Trolley|private key|{A36:25}|
Twist|oauth client secret|{hex:32}|
Unbounce|api key|{hex:32}|
Userflow|api key|ak_{a36:24}|
Userpilot|api token|{a62:10}|
Veriff|shared secret key|{uuid}|
Vitally|api secret|sk_live_{a62:40}|
Workable|api access token|{b64u:40}|
Yotpo|secret key|{a26:15}|
Zonos|credential token|credential_live_{uuid}|
HyperPay|access token|OGE4Mjk0{b64:48}|
Paymob|api key|ZXlKaGJHY2lPaUpJVXpVeE1pSXNJblI1Y0NJNklrcFhWQ{a62:140}|
Paymob|hmac secret|{A36:32}|
Kashier|payment api key|{uuid}|
Tamara|api token|{jwt}|
Postpay|secret key|sk_live_{hex:40}|
Swish|app pin|{pin:6}|
Satispay|key id secret|{a36:80}|
Bizum|pin|{pin:6}|
Redsys|merchant signature key|{b64:24}|
PayPhone|token|{a62:200}|
Khipu|receiver secret|{hex:40}|
Ozow|private key|{hex:32}|
Cellulant|client secret|{a62:32}|
Interswitch|client secret|{b64:32}|
Korapay|secret key|sk_live_{a62:40}|
GCash|mpin|{pin:4}|
Faspay|merchant password|{pw}|
SenangPay|secret key|{d:4}-{d:3}|
eGHL|merchant password|{A36:8}|
HitPay|api key|{hex:64}|
Elavon|merchant pin|{A36:60}|
BlueSnap|api password|{pw}|
Paysafe|api key secret|B-qa2-0-{hex:8}-0-{b64:40}|
Opayo|integration password|{a62:40}|
Prometeo|api key|{a62:64}|
Okra|secret key|{uuid}|
Brankas|api key|{a62:56}|
Truid|client secret|{a62:43}|
Tarabut|client secret|{uuid}|
Bankin|client secret|{b64u:43}|
Powens|client secret|{a62:12}|
Computop|hmac password|{a26:16}|
Nexi|mac key|{a62:30}|
Dotpay|pin|{A36:32}|
ThePay|password|{hex:32}|
SimplePay|secret key|{a26:15}|
Netopia|api key|{b64u:40}|
EuPlatesc|merchant key|{HEX:40}|
Borica|mac key|{HEX:32}|
J&T Express|api key|{a62:32}|
Shiprocket|api user password|{pw}|
Shipday|api key|{a36:10}.{a62:20}|
Packlink|api key|{hex:64}|
Boxtal|secret key|{a62:16}|
Colissimo|contract password|{pw}|
Chronopost|account password|{pw}|
DPD|delis password|{pw}|
GLS|web api password|{pw}|
Furgonetka|client secret|{a26:17}|
Ukrposhta|bearer token|{uuid}|
Glovo|partner api key|{a62:32}|
Wolt|venue api key|{a62:18}|
Bolt Food|integration secret|{a62:32}|
iFood|client secret|{a62:128}|
Rappi|client secret|{a26:16}|
Deliveroo|client secret|{a26:14}|
Toast|client secret|{a62:12}|
Lightspeed|personal token|lsxs_pt_{a62:32}|
Loyverse|access token|{hex:32}|
Revel|api secret|{a62:64}|
Poster POS|access token|{d:6}:{hex:32}|
iiko|api login|{hex:8}|
R-Keeper|xml interface password|{pw}|
Dolibarr|api key|{a62:32}|DOLAPIKEY
Tryton|user application key|{hex:32}|
Exact Online|client secret|{a62:12}|
Twinfield|client secret|{a62:40}|
Fortnox|client secret|{a62:10}|
Visma eAccounting|client secret|{a62:64}|
Tripletex|consumer token|eyJ0b2tlbklkIjo{a62:60}|
Fiken|personal api token|{d:5}.{uuid}|
e-conomic|app secret token|{a62:43}|X-AppSecretToken
Billy|access token|{hex:40}|X-Access-Token
Dinero|api key|{hex:32}|
Holded|api key|{hex:32}|
Quipu|app secret|{a62:12}|
Lexoffice|api key|{b64:33}|
Debitoor|access token|{a62:64}|
FreeAgent|oauth secret|{a62:22}|
KashFlow|api password|{pw}|
Zervant|api key|{hex:40}|
Procountor|client secret|{a62:32}|
Netvisor|customer key|{hex:32}|
Moneybird|api token|{hex:64}|
Jortt|client secret|{a26:20}|
SnelStart|subscription key|{hex:32}|Ocp-Apim-Subscription-Key
Tiime|client secret|{a62:44}|
Indy|api key|{a26:14}|
Axonaut|user api key|{hex:32}|
Sellsy|consumer secret|{hex:40}|
Teamleader|client secret|{hex:32}|
Efficy|api key|{uuid}|
Axelor|admin password|{pw}|
Bexio|api token|{jwt}|
Banana Accounting|license key|{grp:A36:5:5}|
Fatture in Cloud|access token|a/{jwt}|
Aruba PEC|mailbox password|{pw}|
Danea|activation code|{grp:A36:4:4}|
Contasimple|api key|{a62:40}|
Facturama|api password|{pw}|
Alegra|api token|{hex:20}|
Bsale|access token|{hex:40}|
Defontana|api key|{A36:32}|
Nubox|api password|{pw}|
Contpaqi|database sa password|{pw}|
Omie|app secret|{hex:32}|
Nuvemshop|access token|{hex:40}|
VTEX|app token|{A36:160}|X-VTEX-API-AppToken
VTEX|app key|vtexappkey-{al:8}-{A36:6}|
Wake Commerce|api token|tcs_{a36:8}_{hex:32}|
Yampi|secret key|sk_{a62:36}|
Cartpanda|api token|{a62:60}|
Hotmart|client secret|{uuid}|
Hotmart|hottok|{a62:36}|
Eduzz|api key|{hex:32}|
Monetizze|consumer key|{hex:40}|
Braip|api token|{jwt}|
Greenn|api token|{a62:40}|
Perfect Pay|api token|{jwt}|
Digistore24|api key|{d:6}-{a62:40}|
Elopage|secret key|{a62:36}|
Copecart|api key|{a62:20}|
Ablefy|secret|{a62:36}|
Payhip|api key|{hex:40}|
Ko-fi|verification token|{uuid}|
Buy Me a Coffee|api token|{jwt}|
Patreon|creator access token|{b64u:32}|
Memberful|api key|{a62:24}|
Podia|api key|{a62:40}|
Mighty Networks|api token|{a26:15}|
Skool|account password|{pw}|
NodeBB|master token|{uuid}|
Vanilla Forums|access token|va.{b64u:32}.{b64u:6}.{a62:6}|
Khoros|session key|{b64u:48}|
Bettermode|client secret|{a62:40}|
Hivebrite|client secret|{b64:48}|
Disciple|api key|{a26:20}|
Peerboard|auth token|{a62:16}|
Commsor|api key|{a26:16}|
Threado|api key|{uuid}|
Savannah|api token|{hex:40}|
Hoppscotch|personal access token|pat-{a62:40}|
Bruno|env secret|{pw}|
Insomnia|sync passphrase|{phrase}|
Paw|team password|{pw}|
Stoplight|personal token|{a62:40}|
Redocly|api key|{a62:13}|REDOCLY_AUTHORIZATION
Mintlify|admin api key|mint_{a62:32}|
GitBook|api token|gb_api_{a62:40}|
Archbee|api key|{a26:20}|
Document360|api token|{b64:64}|api_token
Helpjuice|api key|{hex:32}|
Groove|private token|{hex:64}|
HappyFox|auth code|{hex:32}|
LiveAgent|api key|{a62:15}|
Deskpro|api key|{d:2}:{A36:25}|
Olark|api key|{d:4}-{d:3}-{d:2}-{d:4}|
JivoChat|webhook url|https://wh.jivosite.com/[[{a62:22}]]/{a36:10}|
Smartsupp|api token|{a26:20}|
Userlike|api token|{hex:64}|
Chaport|api token|{a62:17}|
Trengo|api token|{jwt}|
Respond.io|api access token|{jwt}|
Interakt|api key|{b64:40}|
Ozonetel|api key|KK{hex:30}|
2Factor|api key|{uuid}|
eSputnik|api key|{HEX:32}|
Unisender|api key|{a36:40}|
SendPulse|client secret|{hex:32}|
DashaMail|api key|{hex:32}|
Mindbox|secret key|{a62:20}|
Retail CRM|api key|{a62:16}|
amoCRM|long-lived token|{jwt}|
Kommo|client secret|{a62:16}|
Megaplan|access token|{b64:60}|
Planfix|api token|{hex:32}|
Pyrus|security key|{a62:40}|
YouGile|api key|{a62:64}|
Kaiten|api token|{uuid}|
Weeek|api token|{uuid}|
Infomaniak|api token|{a62:80}|
CDN77|api token|{a62:19}|
KeyCDN|api key|{a62:32}|
StackPath|client secret|{hex:64}|
Rabby|wallet private key|0x{hex:64}|
Keplr|mnemonic|{seed24}|
Zengo|app pin|{pin:6}|
Taho|seed phrase|{seed12}|
Leather|secret key|{seed24}|
Xverse|wallet password|{pwx}|
Unisat|private key wif|L{b58:51}|
Tonkeeper|recovery phrase|{seed24}|
TronLink|private key|{hex:64}|
Petra|private key|0x{hex:64}|
Solflare|secret key bytes|{bytes:64}|
Coin98|passcode|{pin:6}|
SafePal|wallet pin|{pin:6}|
Braavos|private key|0x0{hex:63}|
Talisman|password|{pwx}|
Yoroi|spending password|{pw}|
Eternl|spending password|{pwx}|
Temple Wallet|secret key|edsk{b58:94}|
Kukai|seed words|{seed24}|
Tangem|access code|{pw}|
BlueWallet|bip39 passphrase|{phrase}|
Muun|emergency kit recovery code|{grp:A36:4:8}|
Breez|backup passphrase|{phrase}|
Alby|nwc connection url|nostr+walletconnect://{hex:64}\
?relay=wss%3A%2F%2Frelay.getalby.com%2Fv1&secret=[[{hex:64}]]|
Nunchuk|wallet passphrase|{phrase}|
Samourai|passphrase|{phrase}|
Guarda|backup password|{pwx}|
Enkrypt|recovery phrase|{seed12}|
SubWallet|json export password|{pw}|
Cosmostation|mnemonic|{seed12}|
Zerion|api key|zk_prod_{a62:32}|
Dolibarr|database url|mysql://dolibarr:[[{pw}]]@127.0.0.1:3306/dolibarr|
Tryton|database uri|postgresql://tryton:[[{a62:18}]]@db:5432/|TRYTOND_DATABASE__URI
Axelor|jdbc url|jdbc:postgresql://pg.internal:5432/axelor?user=axelor&password=[[{pw}]]|
Contpaqi|sql server connection string|Server=CONTPAQ\COMPAC;Database=ctEmpresa;User Id=sa\
;Password=[[{pw}]];|
NodeBB|redis url|redis://:[[{a62:32}]]@redis:6379/0|
Aruba PEC|smtp url|smtps://fatture%40pec-studio.it:[[{pw}]]@smtps.pec.aruba.it:465|
Infomaniak|kdrive webdav url|https://ik-{al:6}:[[{a62:20}]]@connect.drive.infomaniak.com/{d:6}|
CDN77|storage ftp url|ftp://user_{a36:8}:[[{a62:16}]]@push-24.cdn77.com/www|
KeyCDN|push zone ftp url|ftp://{al:7}:[[{a62:14}]]@ftp.keycdn.com/|
Glide|webhook trigger url|https://go.glideapps.com/api/container/plugins/webhook-trigger\
/{a62:20}/[[{uuid}]]|
Planfix|webhook url|https://{al:8}.planfix.com/webhook/json/[[{a62:16}]]|
Coinlayer|live rates url|http://api.coinlayer.com/live?access_key=[[{hex:32}]]|
Adzuna|search url|https://api.adzuna.com/v1/api/jobs/gb/search/1?app_id={hex:8}\
&app_key=[[{hex:32}]]|
Lemlist|api url with key|https://:[[{hex:32}]]@api.lemlist.com/api/team|
Toggl|basic auth url|https://[[{hex:32}]]:api_token@api.track.toggl.com/api/v9/me|
Unisender|api url|https://api.unisender.com/ru/api/getLists?format=json&api_key=[[{a36:40}]]|
2Factor|otp url|https://2factor.in/API/V1/[[{uuid}]]/SMS/+919812345678/AUTOGEN|
DashaMail|api url|https://api.dashamail.com/?method=lists.get&api_key=[[{hex:32}]]|
Retail CRM|api url|https://{al:6}.retailcrm.ru/api/v5/orders?apiKey=[[{a62:32}]]|
Poster POS|api url|https://joinposter.com/api/menu.getProducts?token=[[{d:6}:{hex:32}]]|
Bubble|data api url|https://{al:7}.bubbleapps.io/api/1.1/obj/user?api_token=[[{hex:32}]]|
Twist|integration url|https://twist.com/api/v3/integration_incoming/post_data\
?install_id={d:6}&install_token=[[{d:6}_{hex:32}]]|
Revel|api url|https://{al:8}.revelup.com/resources/Product/?api_key={hex:32}\
&api_secret=[[{a62:64}]]|
Stannp|basic auth url|https://[[{hex:32}]]:@dash.stannp.com/api/v1/users/me|
Kaiten|webhook url|https://{al:6}.kaiten.ru/api/latest/webhooks/[[{uuid}]]|
Smartsupp|webhook url|https://hooks.smartsupp.com/{d:6}/[[{a62:28}]]|
Helpwise|incoming webhook|https://app.helpwise.io/webhook/incoming/[[{hex:40}]]|
Rappi|callback url|https://{al:6}.example.co/rappi/callback?signature_key=[[{a62:32}]]|
SnelStart|koppelsleutel|{b64:90}|SNELSTART_KOPPELSLEUTEL
HappyFox|api key and auth code|{hex:32}:[[{hex:32}]]|HAPPYFOX_AUTH
Redsys|merchant key bytes|{bytes:24}|
Truid|signing key bytes|{bytes:32}|
Efficy|login string|user={al:6};pwd=[[{pw}]];db=EFFICY|
R-Keeper|xml logon|XMLInterface: user=kassa;pass=[[{pw}]]|
Skool|login password|{pwx}|
Loyverse|owner password|{pwx}|
Loyverse|pos pin|{pin:4}|
Glovo|courier app password|{pwx}|
Wolt|account password|{pw}|
Deliveroo|rider app password|{pw}|
Patreon|account password|{pwx}|
Ko-fi|login password|{pw}|
iFood|portal password|{pwx}|
Hotmart|login password|{pwx}|
Kajabi|admin password|{pw}|
Lexoffice|login passwort|{pwx}|
Fiken|passord|{pwx}|
Dinero|adgangskode|{pwx}|
Tripletex|passord|{pw}|
Fortnox|lösenord|{pwx}|
Moneybird|wachtwoord|{pw}|
Jortt|wachtwoord|{pwx}|
Holded|contraseña|{pwx}|
Quipu|contraseña|{pw}|
Contasimple|contraseña|{pw}|
Alegra|contraseña|{pwx}|
Bsale|clave|{pw}|
Nubox|clave tributaria|{pw}|
Omie|senha|{pwx}|
Nuvemshop|senha|{pw}|
Eduzz|senha|{pwx}|
Monetizze|senha|{pw}|
Ukrposhta|пароль кабінету|{pwx}|
Furgonetka|hasło|{pwx}|
ThePay|heslo administrace|{pw}|
Netopia|parola cont|{pwx}|
Borica|парола терминал|{pw}|
Toast|manager pin|{pin:4}|
Revel|pos pin|{pin:4}|
Satispay|pin|{pin:5}|
Kashier|dashboard otp backup code|{d:8}|
Olark|operator password|{pw}|
Tiime|mot de passe|{pwx}|
Axonaut|mot de passe|{pw}|
Sellsy|mot de passe|{pwx}|
Fatture in Cloud|password account|{pwx}|
Danea|password archivio|{pw}|
Bexio|passwort|{pwx}|
Procountor|salasana|{pwx}|
Netvisor|salasana|{pw}|
Megaplan|пароль|{pwx}|
Kommo|senha|{pw}|
"""

# -- value shapes

A62 = string.ascii_letters + string.digits
A36 = string.ascii_lowercase + string.digits
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _pick(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def _mostly_letters(n: int) -> str:
    chars = [R.choice(string.ascii_letters) for _ in range(n)]
    for i in R.sample(range(n), R.randint(0, 2)):
        chars[i] = R.choice(string.digits)
    return "".join(chars)


def _b64(n: int, urlsafe: bool = False) -> str:
    raw = bytes(R.randrange(256) for _ in range(n))
    if urlsafe:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")
    return base64.b64encode(raw).decode()


def _uuid() -> str:
    h = _pick("0123456789abcdef", 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{R.choice('89ab')}{h[17:20]}-{h[20:]}"


def _jwt() -> str:
    alg = R.choice(["HS256", "HS256", "RS256", "HS512"])
    head = {"alg": alg, "typ": "JWT"}
    body = {
        "sub": str(R.randrange(10**5, 10**9)),
        "iat": R.randrange(1_690_000_000, 1_790_000_000),
        R.choice(["scope", "role", "aud", "tid"]): R.choice(["api", "admin", "full", "rw"]),
    }

    def enc(d: dict[str, object]) -> str:
        raw = json.dumps(d, separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    sig = _b64(256 if alg == "RS256" else 32 if alg == "HS256" else 64, urlsafe=True)
    return f"{enc(head)}.{enc(body)}.{sig}"


BIP = (
    "abandon ability absorb abstract acid acoustic actress adapt advice aerobic afford agent "
    "airport alarm album alien alley almost alpha amateur anchor ancient angle ankle antenna "
    "anxiety apology april arctic arena armor arrow artwork asthma athlete atom auction august "
    "autumn avocado awake axis bacon badge bamboo banana barrel basket beach bench betray "
    "bicycle biology blanket blossom blouse board bonus border bracket brass breeze brick "
    "broccoli bronze broom bubble buffalo bulb bunker burger cabbage cactus canal canoe canyon "
    "carbon casino catalog cattle celery cement census cereal chalk chaos cherry chimney "
    "chuckle cinnamon citizen clarify claw clinic clog clown cluster coconut coil comic "
    "coral cotton coyote cradle crater cricket crouch cruise crystal cupboard curtain cushion"
).split()
WORDS = (
    "river lantern copper violet harbor meadow thunder pepper marble falcon garden winter "
    "orbit velvet cobalt saffron tundra pixel quartz willow ember canyon cedar monsoon "
    "gitano luna sombra fuego kaffee sonne wolke fenetre soleil chaton gatto nuvola "
    "vento mare kot sobaka yildiz deniz bulut hoshi sakura mawar hujan"
).split()
NAMES = (
    "Marisol Joaquin Friedrich Amelie Giulia Tomasz Oksana Ayse Rahul Mei Haruto Jisoo "
    "Dewi Thanh Somchai Dariush Andrei Zsofia Eleni Aino Mette Sigrid Maricel Juma Arjun "
    "Nuria Yosef Ines Bruno Svetlana Olek Kemal Priya Farah Liesbeth Pieter"
).split()
ACCENTED = (
    "Ñandú Größe Çiçek Łódź Ümit Søren Ångström café Ærø señora Željko Ōsaka Şeker "
    "Brûlée Kraków Ålesund Mönch Jiří Zoë Tomás Piña São"
).split()
_USED_PW: set[str] = set()


def _password(accented: bool = False) -> str:
    while True:
        year = str(R.choice([R.randrange(1961, 2026), R.randrange(10, 99)]))
        sym = R.choice("!@#$%&*?.-_+")
        word = R.choice(ACCENTED) if accented else R.choice(WORDS + NAMES)
        other = R.choice(NAMES + WORDS).lower()
        shape = R.randrange(8)
        pw = [
            f"{word}{year}{sym}",
            f"{word.capitalize()}{sym}{other}{year}",
            f"{word}_{other}{R.randrange(10, 999)}",
            f"{word.lower()}{sym}{word[:1].upper()}{R.randrange(100, 9999)}",
            f"{other.capitalize()}{year}{sym}{sym}",
            f"{word.replace('a', '@').replace('o', '0').replace('e', '3')}{year}",
            f"{R.choice(['Ich', 'mi', 'my', 'Le', 'O'])}{word.capitalize()}{other}{sym}",
            f"{word}{sym}{_pick(A62, 4)}",
        ][shape]
        if len(pw) >= 8 and pw not in _USED_PW:
            _USED_PW.add(pw)
            return pw


def _phrase() -> str:
    words = R.sample(WORDS + BIP, R.randint(4, 6))
    return R.choice([" ", "-", " ", ".", "_"]).join(words)


def _bytes(n: int) -> str:
    vals = [R.randrange(256) for _ in range(n)]
    if R.random() < 0.5:
        return "[" + ",".join(map(str, vals)) + "]"
    return "[" + ", ".join(f"0x{v:02x}" for v in vals) + "]"


def _shape(code: str) -> str:
    kind, _, arg = code.partition(":")
    n = int(arg) if arg.isdigit() else 0
    simple: dict[str, Callable[[], str]] = {
        "a62": lambda: _pick(A62, n),
        "a36": lambda: _pick(A36, n),
        "A36": lambda: _pick(A36.upper(), n),
        "a26": lambda: _mostly_letters(n),
        "al": lambda: _pick(string.ascii_lowercase, n),
        "hex": lambda: _pick("0123456789abcdef", n),
        "HEX": lambda: _pick("0123456789ABCDEF", n),
        "d": lambda: _pick(string.digits, n),
        "b58": lambda: _pick(B58, n),
        "b64": lambda: _b64(n),
        "b64u": lambda: _b64(n, urlsafe=True),
        "uuid": _uuid,
        "UUID": lambda: _uuid().upper(),
        "jwt": _jwt,
        "pw": _password,
        "pwx": lambda: _password(accented=True),
        "phrase": _phrase,
        "seed12": lambda: " ".join(R.sample(BIP, 12)),
        "seed24": lambda: " ".join(R.sample(BIP, 24)),
        "pin": lambda: _pick(string.digits, n),
        "bytes": lambda: _bytes(n),
    }
    if kind == "grp":
        alpha, size, count = arg.split(":")
        return "-".join(_shape(f"{alpha}:{size}") for _ in range(int(count)))
    return simple[kind]()


def expand(template: str) -> tuple[str, str, str]:
    """(value, secret, category) for one template."""
    value = re.sub(r"\{([^{}]+)\}", lambda m: _shape(m.group(1)), template)
    inner = re.search(r"\[\[(.+?)\]\]", value)
    secret = inner.group(1) if inner else value
    value = value.replace("[[", "").replace("]]", "")
    if "{pw" in template:
        cat = "pw"
    elif "{pin" in template:
        cat = "pin"
    elif "{seed" in template or "{phrase" in template:
        cat = "phrase"
    else:
        cat = "key"
    if "://" in template or template.startswith(("Server=", "user=", "XML")):
        cat = "url"
    return value, secret, cat


def rows() -> list[tuple[str, str, str, str]]:
    text = TABLE.replace("\\\n", "")
    out = []
    for line in text.strip().splitlines():
        vendor, cred, template, name = line.split("|")
        out.append((vendor, cred, template, name))
    return out


# -- names: credential words in every position and many spellings

SPELL = {
    "password": ["PASSWORD", "PASSWD", "PWD", "PASS", "PASSWORT", "PW"],
    "passwort": ["PASSWORT"],
    "passord": ["PASSORD"],
    "token": ["TOKEN", "TOKEN", "TKN", "TOK"],
    "secret": ["SECRET", "SECRET", "SECRETS", "SEC"],
    "key": ["KEY", "KEY", "KEYS"],
    "api": ["API", "API", "REST"],
    "pin": ["PIN", "PIN_CODE", "PINCODE"],
    "contraseña": ["CONTRASENA", "CLAVE"],
    "senha": ["SENHA"],
    "hasło": ["HASLO"],
    "heslo": ["HESLO"],
    "salasana": ["SALASANA"],
    "lösenord": ["LOSENORD"],
    "wachtwoord": ["WACHTWOORD", "WW"],
    "adgangskode": ["ADGANGSKODE"],
    "parola": ["PAROLA"],
    "пароль": ["PAROL"],
    "парола": ["PAROLA"],
}
SPECIAL = {
    "key": [
        "{V}_SECURITY_CODE",
        "{V}_APP_SID",
        "SIGNING_SALT",
        "authKey",
        "x-{v}-token",
        "{V}_CLAVE_API",
        "{V}_SCHLUESSEL",
        "{V}_ANAHTAR",
        "{V}_MIYAO",
        "{V}_KAGI",
        "{V}__AUTH__BEARER",
        "SECRET_{V}_KEY",
        "{V}_HMAC",
        "{V}_SIG_KEY",
        "{V}_ACCESS",
        "{V}_PRIV",
        "{V}_SK",
        "{V}_CREDS",
        "{v}ApiKey",
        "{v}_secret_key",
        "{V}_ENC_KEY",
        "{V}_APP_SECRET",
        "{V}_MASTER",
        "{V}_AUTHTOKEN",
        "{v}.auth.bearer",
        "{V}_CLE_API",
        "{V}_CHAVE",
        "{V}_KLUCZ",
        "{V}_KLIC",
        "{V}_NYCKEL",
        "{V}_AVAIN",
        "{V}_SLEUTEL",
        "{V}_KEY_V2",
        "TOKEN_{V}_PROD",
        "API_{V}",
        "{V}_X_TOKEN",
        "{V}_BEARER",
        "{V}_SHARED",
        "{V}_SIGNING",
        "{V}_VERIFY_TOKEN",
        "{V}_PRIVATE",
        "{V}_KEY_SECRET",
        "{V}_SECRET_B64",
        "{V}_OAUTH_SEC",
        "{V}_PAT",
        "{V}_SERVICE_CRED",
        "{v}-key",
        "{V}_ACCESS_CODE",
        "{V}_AUTH_STRING",
        "{V}_ZUGANGSCODE",
        "{V}_KOD_DOSTEPU",
    ],
    "pw": [
        "{V}_DB_PASSWD_RO",
        "{V}_PASSWD",
        "{V}_PASS_PROD",
        "{v}Passwort",
        "{V}_MOT_DE_PASSE",
        "{V}_SENHA",
        "{V}_HASLO",
        "{V}_WACHTWOORD",
        "{V}_PAROLA",
        "{V}_LOSEN",
        "{V}_PWD_2",
        "{V}_SIFRE",
        "{V}_KENNWORT",
        "{v}_login_pw",
        "{V}_ADMIN_PASS",
        "{V}_USER_CRED",
    ],
    "pin": ["{V}_PIN", "{V}_PINCODE", "{V}_CODIGO", "{V}_KOD", "{v}Pin"],
    "phrase": [
        "{V}_MNEMONIC",
        "{V}_SEED_WORDS",
        "{V}_PASSPHRASE",
        "{V}_RECOVERY",
        "{V}_SEED",
        "{v}Mnemonic",
        "{V}_BACKUP_PHRASE",
        "{V}_WORDS",
    ],
    "url": [
        "{V}_URL",
        "{V}_DSN",
        "{V}_WEBHOOK",
        "{V}_ENDPOINT",
        "{V}_DATABASE_URL",
        "{V}_CONN",
        "{V}_HOOK",
        "{v}Url",
        "{V}_CALLBACK",
        "{V}_URI",
        "{V}_CONNECTION_STRING",
    ],
}


def slug(vendor: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", vendor.lower()).strip("_")


def auto_name(vendor: str, cred: str, cat: str) -> str:
    v = slug(vendor).upper()
    if R.random() < 0.3:
        return R.choice(SPECIAL[cat]).format(V=v, v=_camel(slug(vendor)))
    words = []
    for w in cred.lower().split():
        words.append(R.choice(SPELL.get(w, [re.sub(r"[^A-Z0-9]", "", w.upper()) or "X"])))
    c = "_".join(words)
    env = R.choice(["PROD", "LIVE", "STAGING", "DEV", "TEST", "EU", "US"])
    pattern = R.choice(
        ["{V}_{C}", "{V}_{C}", "{V}_{C}", "{C}_{V}", "{V}_{E}_{C}", "{E}_{V}_{C}",
         "{V}_{C}_{N}", "{V}{C}", "APP_{V}_{C}", "{V}_{C}_{E}"]
    )  # fmt: skip
    return pattern.format(V=v, C=c, E=env, N=R.randint(1, 3)).replace("{V}", v)


def _camel(snake: str) -> str:
    parts = [p for p in re.split(r"[^A-Za-z0-9]+", snake) if p]
    if not parts:
        return "key"
    return parts[0].lower() + "".join(p[:1].upper() + p[1:].lower() for p in parts[1:])


def ctx(vendor: str, cred: str, value: str, cat: str, name: str) -> SimpleNamespace:
    s = slug(vendor)
    n = name or auto_name(vendor, cred, cat)
    if "-" in n or n[:1].islower():
        up = re.sub(r"[^A-Za-z0-9]+", "_", re.sub(r"([a-z])([A-Z])", r"\1_\2", n)).upper()
    else:
        up = n
    header = n if n.lower().startswith("x-") or "-" in n else "X-" + _camel(s).title() + "-Key"
    return SimpleNamespace(
        v=value, V=vendor, C=cred, n=up.strip("_"), sn=up.lower().strip("_"),
        cm=_camel(up), kb=up.lower().replace("_", "-"), hd=header, s=s.replace("_", ""),
        host=f"api.{s.replace('_', '')}.{R.choice(['com', 'io', 'app', 'net', 'dev'])}",
        user=R.choice(NAMES).lower(), cat=cat, raw=n,
    )  # fmt: skip


def q(text: str) -> str:
    """A JSON string literal (quotes escaped once)."""
    return json.dumps(text, ensure_ascii=False)


def qq(text: str) -> str:
    """Quotes escaped twice: a JSON string holding a JSON string."""
    return json.dumps(json.dumps(text, ensure_ascii=False), ensure_ascii=False)


# -- forms: where the value sits

CHAT = {
    "en": [
        "here's my {V} {C}: {v} - can you wire it into the settings?",
        "use this one for {V}, the old one got revoked: {v}",
    ],
    "es": [
        "Oye, te paso la {C} de {V}: {v} (no la subas al repo porfa)",
        "usa esta para {V} → {v} y dime si funciona",
    ],
    "fr": [
        "Voilà le {C} {V} : {v} — tu peux le mettre dans la config ?",
        "j'ai regénéré le {C} de {V}, le nouveau c'est {v}",
    ],
    "de": [
        "Hier ist der {C} für {V}: {v} – bitte nur lokal verwenden",
        "nimm den neuen {V} {C}, der alte ist abgelaufen: {v}",
    ],
    "pt": [
        "segue a {C} do {V}: {v} vê se consegue integrar hoje",
        "coloca essa aqui no {V}: {v} (é a de produção, cuidado)",
    ],
    "it": [
        "ecco la {C} di {V}: {v} mettila nel file di configurazione",
        "ho rigenerato la {C} {V}, ora è {v}",
    ],
    "nl": ["hier is de {V} {C}: {v} kun je die in de config zetten?"],
    "ru": [
        "вот {C} от {V}: {v} — подставь в конфиг, пожалуйста",
        "держи новый {C} для {V}: {v}, старый уже не работает",
    ],
    "uk": ["ось {C} від {V}: {v} — додай у налаштування"],
    "pl": ["tu masz {C} do {V}: {v} wrzuć to do configu", "nowy {C} {V} to {v}, stary już wygasł"],
    "tr": ["{V} {C} bu: {v} ayarlara ekler misin?", "şunu kullan {V} için: {v}"],
    "ar": ["هذا {C} الخاص بـ {V}: {v} أضفه إلى الإعدادات من فضلك"],
    "hi": ["यह रहा {V} का {C}: {v} इसे config में डाल दो"],
    "zh": ["这是 {V} 的 {C}：{v} 帮我配置到项目里", "{V} 新的 {C} 是 {v}，旧的已经作废了"],
    "ja": ["{V}の{C}はこれです：{v} 設定に入れてください", "新しい{V}の{C}、{v} に変えました"],
    "ko": ["{V} {C} 여기 있어요: {v} 설정에 넣어주세요"],
    "id": ["ini {C} {V} nya: {v} tolong dipasang di config ya"],
    "vi": ["đây là {C} của {V}: {v} bạn thêm vào cấu hình giúp mình"],
    "th": ["นี่คือ {C} ของ {V}: {v} ช่วยใส่ใน config ให้หน่อย"],
    "fa": ["این {C} مربوط به {V} هست: {v} لطفا توی تنظیمات بذار"],
    "ro": ["uite {C} pentru {V}: {v} pune-l te rog în config"],
    "hu": ["itt a {V} {C}: {v} beírnád a konfigba?"],
    "el": ["ορίστε το {C} του {V}: {v} βάλ' το στις ρυθμίσεις"],
    "fi": ["tässä {V}:n {C}: {v} lisäätkö sen asetuksiin?"],
    "da": ["her er {V} {C}: {v} kan du lægge den ind i config?"],
    "nb": ["her er {C} til {V}: {v} legg den inn i oppsettet"],
    "tl": ["eto yung {C} ng {V}: {v} pakilagay sa config"],
    "sw": ["hii ndiyo {C} ya {V}: {v} tafadhali iweke kwenye mipangilio"],
    "bn": ["এই নাও {V} এর {C}: {v} কনফিগে বসিয়ে দাও"],
    "ca": ["aquí tens la {C} de {V}: {v} posa-la a la configuració"],
    "cs": ["tady je {C} k {V}: {v} dej to prosím do konfigurace"],
    "he": ["הנה ה-{C} של {V}: {v} תכניס את זה להגדרות"],
    "ms": ["ni {C} {V} saya: {v} tolong masukkan dalam config"],
    "ur": ["یہ {V} کا {C} ہے: {v} اسے کنفیگ میں ڈال دیں"],
}


def _chat(lang: str) -> Callable[[SimpleNamespace], str]:
    def f(c: SimpleNamespace) -> str:
        return R.choice(CHAT[lang]).format(V=c.V, C=c.C, v=c.v)

    return f


ALL = "kpnsu"
FORMS: list[tuple[str, str, str, Callable[[SimpleNamespace], str]]] = [
    (f"chat prose ({lang})", "chat", ALL, _chat(lang)) for lang in CHAT
]


def form(name: str, group: str, cats: str) -> Callable[..., Callable[[SimpleNamespace], str]]:
    def register(fn: Callable[[SimpleNamespace], str]) -> Callable[[SimpleNamespace], str]:
        FORMS.append((name, group, cats, fn))
        return fn

    return register


# chat, other than plain prose
form("chat with typos", "chat", ALL)(
    lambda c: f"heres the {c.V} {c.C.replace('e', 'ee', 1)} i told u abuot: {c.v} thx"
)
form("chat after an error", "chat", "ku")(
    lambda c: f"still getting 401 from {c.V} even with {c.v} - did I copy it wrong?"
)
form("chat asking to rotate", "chat", "kpu")(
    lambda c: f"oops, I pushed {c.v} in my last commit. how do I rotate the {c.V} {c.C}?"
)
form("chat with inline code", "chat", "kpu")(
    lambda c: f"set `{c.n}` to `{c.v}` and run the sync again"
)
form("email thread reply (quoted)", "chat", ALL)(
    lambda c: (
        f"> Could you send the {c.V} {c.C}?\n> Thanks, {c.user.title()}\n\n"
        f"Sure, it's {c.v}\nPlease keep it out of Slack."
    )
)
form("SMS pasted", "chat", "n")(
    lambda c: (
        f"got this text from {c.V} yesterday, is it still valid?\n"
        f"[SMS] {c.V}: your {c.C} is {c.v}. Do not share it."
    )
)
form("voice memo transcript", "chat", "pns")(
    lambda c: f"(transcribed) ok so the {c.V} {c.C} is {c.v}, write that down somewhere"
)
form("meeting minutes", "chat", "kpn")(
    lambda c: f"Minutes 14 Mar\n- {c.V}: shared {c.C} ({c.v}) with ops\n- next: invoices"
)
form("OCR of a sticky note", "chat", "pns")(
    lambda c: f"this is from a photo of the note on my monitor:\n{c.V.upper()}\n{c.C}: {c.v}"
)
form("handoff checklist", "chat", ALL)(
    lambda c: f"Handoff\n[x] repo access\n[x] {c.V} {c.C} → {c.v}\n[ ] on-call rota"
)
form("issue tracker ticket", "chat", "kpu")(
    lambda c: (
        f"OPS-{R.randint(100, 999)}: {c.V} sync fails\nSteps: configure {c.n}={c.v}, "
        f"run the job, see a 403."
    )
)
form("postmortem timeline", "chat", "ku")(
    lambda c: f"14:02 alert fired\n14:09 found {c.V} {c.C} {c.v} in a public gist\n14:15 revoked"
)
form("WhatsApp export line", "chat", "pns")(
    lambda c: f"12/03/24, 21:14 - {c.user.title()}: {c.V} {c.C} é {c.v}"
)
form("Discord spoiler", "chat", "kpn")(lambda c: f"dm'ing is broken so here: {c.V} {c.C} ||{c.v}||")
form("Telegram forward", "chat", ALL)(
    lambda c: f"Forwarded from {c.user.title()}\n{c.V} — {c.C}\n{c.v}"
)
form("calendar invite notes", "chat", "pn")(
    lambda c: f"Demo with {c.V} team. Login for the sandbox: {c.user}@shop.test / {c.v}"
)
form("bullet list of logins", "chat", "pn")(
    lambda c: f"my logins (don't judge):\n• bank – in the safe\n• {c.V} – {c.v}\n• wifi – on fridge"
)
form("agent plan quoting value", "agent", "ku")(
    lambda c: f"Plan:\n1. Add {c.n} ({c.v}) to .env.local\n2. Restart the dev server"
)

# config files
form(".envrc (direnv)", "config", "kpu")(lambda c: f"export {c.n}='{c.v}'\nuse flake\n")
form("env with comments", "config", "kpsu")(
    lambda c: f'# {c.V}\n# rotated {R.randint(1, 28)}/0{R.randint(1, 9)}\n{c.n}="{c.v}"\n'
)
form("YAML nested 4 deep", "config", "kpu")(
    lambda c: f"services:\n  billing:\n    {c.s}:\n      credentials:\n        {c.sn}: {q(c.v)}\n"
)
form("YAML anchor", "config", "ku")(
    lambda c: f"x-{c.s}: &{c.s}\n  {c.sn}: {c.v}\nworker:\n  <<: *{c.s}\n"
)
form("JSON with comments (jsonc)", "config", "kpu")(
    lambda c: f'{{\n  // {c.V}\n  "{c.cm}": {q(c.v)},\n  "timeout": 30\n}}'
)
form("JSON deep", "config", "kpsu")(
    lambda c: json.dumps(
        {"env": {"prod": {"integrations": {c.s: {c.cm: c.v, "enabled": True}}}}},
        indent=2, ensure_ascii=False,
    )
)  # fmt: skip
form("Caddyfile", "config", "k")(
    lambda c: (
        f"shop.example {{\n  reverse_proxy /{c.s}/* {c.host} {{\n"
        f"    header_up {c.hd} {c.v}\n  }}\n}}"
    )
)
form("HAProxy cfg", "config", "k")(
    lambda c: f"backend {c.s}\n  http-request set-header {c.hd} {c.v}\n  server s1 {c.host}:443"
)
form("Procfile", "config", "ku")(
    lambda c: f"web: {c.n}={c.v} gunicorn app:app\nworker: celery -A app worker"
)
form("fly.toml env", "config", "ku")(
    lambda c: f'app = "shop"\n\n[env]\n  PORT = "8080"\n  {c.n} = "{c.v}"\n'
)
form("netlify.toml", "config", "ku")(
    lambda c: f'[build]\n  command = "npm run build"\n[build.environment]\n  {c.n} = "{c.v}"\n'
)
form("vercel.json env", "config", "ku")(
    lambda c: json.dumps({"env": {c.n: c.v}, "regions": ["fra1"]}, indent=2, ensure_ascii=False)
)
form("wrangler.toml vars", "config", "ku")(
    lambda c: f'name = "edge"\nmain = "src/index.ts"\n\n[vars]\n{c.n} = "{c.v}"\n'
)
form("serverless.yml", "config", "kpu")(
    lambda c: f"provider:\n  name: aws\n  environment:\n    {c.n}: '{c.v}'\n"
)
form("supervisord.conf", "config", "kpu")(
    lambda c: f'[program:sync]\ncommand=/srv/sync\nenvironment={c.n}="{c.v}",LANG=C\n'
)
form(".npmrc", "config", "k")(
    lambda c: f"@{c.s}:registry=https://npm.{c.s}.dev/\n//npm.{c.s}.dev/:_authToken={c.v}\n"
)
form(".pypirc", "config", "kp")(
    lambda c: (
        f"[distutils]\nindex-servers = {c.s}\n\n[{c.s}]\nrepository = https://"
        f"pypi.{c.s}.dev/\nusername = __token__\npassword = {c.v}\n"
    )
)
form("composer auth.json", "config", "kp")(
    lambda c: json.dumps(
        {"http-basic": {f"repo.{c.s}.com": {"username": c.user, "password": c.v}}}, indent=4
    )
)
form("NuGet.config", "config", "kp")(
    lambda c: (
        f"<packageSourceCredentials>\n  <{c.V.replace(' ', '')}>\n"
        f'    <add key="Username" value="{c.user}" />\n'
        f'    <add key="ClearTextPassword" value="{c.v}" />\n  </{c.V.replace(" ", "")}>\n'
        f"</packageSourceCredentials>"
    )
)
form("Maven settings.xml", "config", "kp")(
    lambda c: (
        f"<server>\n  <id>{c.s}</id>\n  <username>{c.user}</username>\n"
        f"  <password>{c.v}</password>\n</server>"
    )
)
form("wp-config.php define", "config", "kpu")(lambda c: f"define( '{c.n}', '{c.v}' );")
form("Laravel config/services.php", "config", "ku")(
    lambda c: f"'{c.s}' => [\n    '{c.sn}' => env('{c.n}', '{c.v}'),\n],"
)
form("Django settings.py", "config", "kpu")(lambda c: f"{c.n} = os.environ.get({q(c.n)}, {q(c.v)})")
form("Rails credentials.yml", "config", "kpu")(
    lambda c: f"{c.s}:\n  {c.sn}: {c.v}\nsecret_key_base: <%= ENV['SKB'] %>"
)
form("appsettings.json", "config", "kpu")(
    lambda c: json.dumps({c.V.replace(" ", ""): {c.cm[:1].upper() + c.cm[1:]: c.v}}, indent=2,
                         ensure_ascii=False)
)  # fmt: skip
form("web.config appSettings", "config", "kpu")(
    lambda c: (
        f'<appSettings>\n  <add key="{c.V.replace(" ", "")}:{c.cm}" value="{c.v}" />\n'
        f"</appSettings>"
    )
)
form(".vscode/launch.json env", "config", "kpu")(
    lambda c: json.dumps(
        {"configurations": [{"name": "dev", "type": "node", "env": {c.n: c.v}}]}, indent=2
    )
)
form("Nix module", "config", "kp")(
    lambda c: f'services.{c.s} = {{\n  enable = true;\n  {c.cm} = "{c.v}";\n}};'
)
form("Pulumi stack config", "config", "kpu")(
    lambda c: f"config:\n  aws:region: eu-west-1\n  shop:{c.cm}: {c.v}\n"
)
form("CloudFormation parameters", "config", "kpu")(
    lambda c: json.dumps([{"ParameterKey": c.cm[:1].upper() + c.cm[1:], "ParameterValue": c.v}],
                         indent=2, ensure_ascii=False)
)  # fmt: skip
form("Azure Pipelines variables", "config", "kpu")(
    lambda c: f"variables:\n  - name: {c.n}\n    value: '{c.v}'\nsteps:\n  - script: make"
)
form("Bitbucket Pipelines", "config", "ku")(
    lambda c: (
        f"pipelines:\n  default:\n    - step:\n        script:\n"
        f"          - export {c.n}={c.v}\n          - ./deploy.sh"
    )
)
form("Drone pipeline", "config", "ku")(
    lambda c: f"kind: pipeline\nsteps:\n- name: test\n  environment:\n    {c.n}: {c.v}\n"
)
form("Nomad job env", "config", "kpu")(
    lambda c: f'task "api" {{\n  env {{\n    {c.n} = "{c.v}"\n  }}\n}}'
)
form("Home Assistant secrets.yaml", "config", "kpnu")(lambda c: f"{c.sn}: {q(c.v)}\n")
form("ESPHome yaml", "config", "kpn")(
    lambda c: f"wifi:\n  ssid: Casa\n{c.s}:\n  {c.sn}: {q(c.v)}\n"
)
form("OpenWrt uci", "config", "kp")(
    lambda c: f"config service '{c.s}'\n\toption enabled '1'\n\toption {c.sn} '{c.v}'\n"
)
form("HOCON application.conf", "config", "kpu")(
    lambda c: f'{c.s} {{\n  {c.cm} = "{c.v}"\n  {c.cm} = ${{?{c.n}}}\n}}'
)
form("Clojure EDN", "config", "kpu")(lambda c: f"{{:{c.s} {{:{c.kb} {q(c.v)}}}}}")
form("Erlang sys.config", "config", "kp")(lambda c: f'[{{{c.s}, [{{{c.sn}, "{c.v}"}}]}}].')
form("rclone.conf", "config", "kp")(
    lambda c: (
        f"[{c.s}]\ntype = webdav\nurl = https://dav.{c.s}.com\nuser = {c.user}\npass = {c.v}\n"
    )
)
form("msmtprc", "config", "p")(
    lambda c: f"account {c.s}\nhost smtp.{c.s}.com\nuser {c.user}\npassword {c.v}\n"
)
form(".authinfo", "config", "p")(
    lambda c: f"machine imap.{c.s}.com login {c.user} password {c.v} port 993"
)
form("Postman environment", "config", "kpu")(
    lambda c: json.dumps(
        {"name": c.V, "values": [{"key": c.cm, "value": c.v, "type": "secret"}]}, indent=2,
        ensure_ascii=False,
    )
)  # fmt: skip
form("Bruno .bru file", "config", "kp")(
    lambda c: f"meta {{\n  name: list\n}}\n\nheaders {{\n  {c.hd}: {c.v}\n}}"
)
form("Expo app.json extra", "config", "ku")(
    lambda c: json.dumps({"expo": {"name": "shop", "extra": {c.cm: c.v}}}, indent=2)
)
form("Android local.properties", "config", "ku")(
    lambda c: f"sdk.dir=/home/{c.user}/Android/Sdk\n{c.sn.replace('_', '.')}={c.v}\n"
)
form("Xcode xcconfig", "config", "k")(lambda c: f"// Secrets.xcconfig\n{c.n} = {c.v}\n")
form("INI with sections", "config", "kpu")(
    lambda c: f"[general]\ndebug = false\n\n[{c.s}]\n{c.sn} = {c.v}\n"
)
form("TOML nested table", "config", "kpsu")(
    lambda c: f"[integrations.{c.s}.auth]\n{c.sn} = {q(c.v)}\n"
)
form("router config (device)", "config", "pn")(
    lambda c: f'set system login user admin authentication plain-text-password "{c.v}"\n# {c.V}'
)
form("Ansible inventory vars", "config", "kpu")(
    lambda c: f"[web]\nweb1 ansible_host=10.0.3.4\n\n[web:vars]\n{c.sn}={c.v}\n"
)

# shell sessions and CLI output
form("cli login argument", "shell", "k")(
    lambda c: f"$ npx {c.s}-cli login {c.v}\n✔ Logged in to {c.V}"
)
form("gh secret set", "shell", "kpu")(
    lambda c: f"$ gh secret set {c.n} --body '{c.v}'\n✓ Set Actions secret {c.n} for acme/shop"
)
form("kubectl create secret", "shell", "kpu")(
    lambda c: f"kubectl create secret generic {c.s} --from-literal={c.sn}='{c.v}' -n prod"
)
form("docker run -e", "shell", "ku")(
    lambda c: f"docker run --rm -e {c.n}={c.v} ghcr.io/acme/{c.s}-sync:latest"
)
form("printenv output", "shell", "kpu")(
    lambda c: f"$ printenv | grep -i {c.s}\n{c.n}={c.v}\n{c.n.split('_')[0]}_REGION=eu"
)
form("shell history", "shell", "kpu")(
    lambda c: f"  501  cd shop\n  502  export {c.n}={c.v}\n  503  npm run sync"
)
form("PowerShell env", "shell", "kpu")(lambda c: f'PS C:\\shop> $env:{c.n} = "{c.v}"')
form("cmd set", "shell", "kpu")(lambda c: f"C:\\shop>set {c.n}={c.v}\n\nC:\\shop>node sync.js")
form("fish set -gx", "shell", "kpu")(lambda c: f"~/shop> set -gx {c.n} {c.v}")
form("vault kv put", "shell", "kp")(
    lambda c: f"$ vault kv put secret/{c.s} {c.sn}={c.v}\n== Secret Path ==\nsecret/data/{c.s}"
)
form("sshpass", "shell", "p")(
    lambda c: f"sshpass -p '{c.v}' ssh {c.user}@{c.s}-pos.lan 'systemctl restart agent'"
)
form("mysql -p", "shell", "p")(lambda c: f"mysql -h db.{c.s}.lan -u {c.user} -p'{c.v}' shop")
form("curl -u", "shell", "kp")(
    lambda c: f"curl -u {c.user}@shop.test:{c.v} https://{c.host}/v1/account"
)
form("smbclient -U", "shell", "p")(lambda c: f"smbclient //nas/{c.s} -U {c.user}%{c.v}")
form("flutter dart-define", "shell", "k")(lambda c: f"flutter run --dart-define={c.n}={c.v}")
form("consul kv put", "shell", "kpu")(
    lambda c: f"$ consul kv put config/{c.s}/{c.sn} '{c.v}'\nSuccess! Data written"
)

# code
form("Python SDK constructor", "code", "k")(
    lambda c: f"import {c.s}\n\nclient = {c.s}.Client({q(c.v)})\nprint(client.ping())"
)
form("Python requests header", "code", "k")(
    lambda c: (
        f"r = requests.get('https://{c.host}/v2/items',\n"
        f"                 headers={{'{c.hd}': '{c.v}'}})"
    )
)
form("TypeScript SDK constructor", "code", "k")(
    lambda c: (
        f"import {{ {c.V.replace(' ', '').replace('.', '')} }} from '@{c.s}/sdk';\n"
        f"const api = new {c.V.replace(' ', '').replace('.', '')}('{c.v}');"
    )
)
form("Node fetch header", "code", "k")(
    lambda c: (
        f"await fetch('https://{c.host}/v1/me', {{\n"
        f"  headers: {{ Authorization: `Bearer {c.v}` }},\n}});"
    )
)
form("Go const", "code", "kpu")(lambda c: f"const {c.cm} = {q(c.v)}")
form("Rust unwrap_or", "code", "kpu")(
    lambda c: f'let key = std::env::var("{c.n}").unwrap_or("{c.v}".into());'
)
form("Kotlin val", "code", "kpu")(lambda c: f"private val {c.cm} = {q(c.v)}")
form("Swift let", "code", "kpu")(lambda c: f"static let {c.cm} = {q(c.v)}")
form("C# client", "code", "k")(
    lambda c: f"var client = new {c.V.replace(' ', '').replace('.', '')}Client({q(c.v)});"
)
form("Scala val", "code", "kpu")(lambda c: f"val {c.cm}: String = {q(c.v)}")
form("Haskell binding", "code", "kpu")(lambda c: f"{c.cm} :: Text\n{c.cm} = {q(c.v)}")
form("R Sys.setenv", "code", "kpu")(lambda c: f"Sys.setenv({c.n} = {q(c.v)})")
form("Julia ENV", "code", "kpu")(lambda c: f'ENV["{c.n}"] = {q(c.v)}')
form("Zig const", "code", "k")(lambda c: f"const {c.sn} = {q(c.v)};")
form("OCaml let", "code", "kp")(lambda c: f"let {c.sn} = {q(c.v)}")
form("VB.NET Const", "code", "kp")(lambda c: f"Private Const {c.n} As String = {q(c.v)}")
form("Objective-C NSString", "code", "k")(
    lambda c: f"static NSString *const k{c.cm[:1].upper() + c.cm[1:]} = @{q(c.v)};"
)
form("Apps Script properties", "code", "kp")(
    lambda c: f"PropertiesService.getScriptProperties().setProperty('{c.n}', '{c.v}');"
)
form("Excel VBA", "code", "kp")(lambda c: f'Const {c.cm} As String = "{c.v}"')
form("Postman pre-request script", "code", "kpu")(
    lambda c: f'pm.environment.set("{c.cm}", "{c.v}");'
)
form("k6 script", "code", "k")(
    lambda c: (
        f"export default function () {{\n  http.get('https://{c.host}/health', "
        f"{{ headers: {{ '{c.hd}': '{c.v}' }} }});\n}}"
    )
)
form("Cypress env", "code", "kp")(
    lambda c: json.dumps({"env": {c.cm: c.v, "baseUrl": "http://localhost:3000"}}, indent=2,
                         ensure_ascii=False)
)  # fmt: skip
form("GitHub Actions with:", "code", "k")(
    lambda c: f"- uses: {c.s}/setup@v2\n  with:\n    {c.kb}: {c.v}\n"
)
form("wallet import", "code", "ks")(
    lambda c: (
        f"const wallet = Wallet.fromPhrase({q(c.v)});\n// {c.V}"
        if " " in c.v
        else f"const wallet = new Wallet({q(c.v)}, provider); // {c.V}"
    )
)
form("SQL ALTER ROLE", "code", "p")(lambda c: f"ALTER ROLE {c.s}_app WITH LOGIN PASSWORD '{c.v}';")

# logs, tables, diffs, HTTP, URLs
form("logfmt line", "log", "ku")(
    lambda c: f'ts=2026-11-02T08:14:55Z level=debug msg="calling {c.V}" {c.sn}={c.v} retry=0'
)
form("JSON log line", "log", "kpu")(
    lambda c: json.dumps({"level": "info", "svc": c.s, "config": {c.cm: c.v}}, ensure_ascii=False)
)
form("nginx access log", "log", "u")(
    lambda c: f'10.0.2.7 - - [02/Nov/2026:08:14:55 +0000] "GET {c.v} HTTP/1.1" 200 512'
)
form("Python traceback locals", "log", "kpu")(
    lambda c: (
        f'  File "sync.py", line 41, in push\n    resp.raise_for_status()\n'
        f"    {c.sn} = {c.v!r}\nrequests.exceptions.HTTPError: 403"
    )
)
form("curl -v output", "log", "k")(
    lambda c: f"> GET /v1/items HTTP/2\n> Host: {c.host}\n> {c.hd}: {c.v}\n>\n< HTTP/2 401"
)
form("HAR entry", "log", "k")(
    lambda c: json.dumps({"request": {"method": "POST", "url": f"https://{c.host}/v1/q",
                          "headers": [{"name": c.hd, "value": c.v}]}}, indent=1, ensure_ascii=False)
)  # fmt: skip
form("webhook delivery log", "log", "u")(
    lambda c: f"POST {c.v} -> 200 (212 ms)\nPOST {c.v} -> 200 (198 ms)"
)
form("markdown table", "table", "kpnu")(
    lambda c: f"| service | {c.C} |\n|---|---|\n| {c.V} | `{c.v}` |\n| Sentry | see vault |"
)
form("browser password export CSV", "table", "p")(
    lambda c: f"name,url,username,password\n{c.V},https://{c.s}.com/login,{c.user}@mail.test,{c.v}"
)
form("Bitwarden JSON export", "table", "pn")(
    lambda c: json.dumps({"items": [{"name": c.V, "login": {"username": c.user,
                          "password": c.v}}]}, indent=2, ensure_ascii=False)
)  # fmt: skip
form("KeePass XML", "table", "ps")(
    lambda c: (
        f"<Entry><String><Key>Title</Key><Value>{c.V}</Value></String>"
        f"<String><Key>Password</Key><Value>{c.v}</Value></String></Entry>"
    )
)
form("psql table output", "table", "kp")(
    lambda c: (
        f" provider | {c.sn}\n----------+{'-' * (len(c.v) + 2)}\n {c.s[:8]:8} | {c.v}\n(1 row)"
    )
)
form("mysql ascii table", "table", "kp")(
    lambda c: (
        f"+--------+{'-' * (len(c.v) + 2)}+\n| name   | value{' ' * (len(c.v) - 4)}|\n"
        f"| {c.s[:6]:6} | {c.v} |\n+--------+{'-' * (len(c.v) + 2)}+"
    )
)
form("HTML table", "table", "kpn")(lambda c: f"<tr><td>{c.V}</td><td>{c.C}</td><td>{c.v}</td></tr>")
form("TSV sheet", "table", "kpns")(lambda c: f"Service\tUser\tSecret\n{c.V}\t{c.user}\t{c.v}")
form("unified diff", "diff", "kpu")(
    lambda c: (
        f"--- a/.env.example\n+++ b/.env.example\n@@ -3,2 +3,3 @@\n DEBUG=0\n-{c.n}=\n+{c.n}={c.v}"
    )
)
form("PR suggestion block", "diff", "ku")(
    lambda c: f'```suggestion\n{c.n}: "{c.v}"\n```\nthis one works on staging'
)
form("raw HTTP request", "http", "k")(
    lambda c: (
        f"POST /v1/events HTTP/1.1\nHost: {c.host}\n{c.hd}: {c.v}\n"
        f"Content-Type: application/json\n\n{{}}"
    )
)
form("HTTPie", "http", "k")(lambda c: f"http GET {c.host}/v1/me '{c.hd}:{c.v}'")
form("gRPC metadata", "http", "k")(
    lambda c: f"grpcurl -H 'authorization: Bearer {c.v}' {c.host}:443 {c.s}.v1.Api/List"
)
form("URL fragment", "url", "k")(
    lambda c: f"https://app.{c.s}.com/oauth/done#access_token={c.v}&token_type=bearer"
)
form("URL query", "url", "k")(lambda c: f"https://{c.host}/v2/export?format=csv&key={c.v}")
form("bare URL", "url", "u")(lambda c: c.v)
form("GraphQL request", "http", "k")(
    lambda c: json.dumps({"query": "mutation($k:String!){connect(key:$k){ok}}",
                          "variables": {"k": c.v}}, ensure_ascii=False)
)  # fmt: skip

# agent tool calls and results
form("tool_use Bash input", "agent", "kpu")(
    lambda c: (
        '{"type":"tool_use","name":"Bash","input":{"command":'
        + q(f"export {c.n}='{c.v}' && npm run sync")
        + "}}"
    )
)
form("tool_result file content", "agent", ALL)(
    lambda c: '{"type":"tool_result","content":' + q(f"{c.n}={c.v}\nPORT=3000\n") + "}"
)
form("function_call arguments (escaped twice)", "agent", "kpu")(
    lambda c: (
        '{"type":"function_call","name":"shell","arguments":'
        + q(json.dumps({"command": ["bash", "-lc", f"echo {q(c.v)} > .token"]}, ensure_ascii=False))
        + "}"
    )
)
form("MCP tools/call", "agent", "kpu")(
    lambda c: json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                          "params": {"name": "set_env", "arguments": {"key": c.n,
                                                                      "value": c.v}}},
                         ensure_ascii=False)
)  # fmt: skip
form("Gemini functionCall", "agent", "kpu")(
    lambda c: json.dumps({"functionCall": {"name": "write_file", "args": {
        "path": ".env", "content": f"{c.n}={c.v}\n"}}}, ensure_ascii=False)
)  # fmt: skip
form("OpenAI tool_calls", "agent", "kpu")(
    lambda c: json.dumps({"tool_calls": [{"type": "function", "function": {
        "name": "configure", "arguments": json.dumps({c.cm: c.v}, ensure_ascii=False)}}]},
        ensure_ascii=False)
)  # fmt: skip
form("JSONL transcript line (escaped twice)", "agent", ALL)(
    lambda c: '{"role":"tool","content":' + qq(f"{c.n}: {c.v}") + "}"
)
form("Edit tool old/new", "agent", "kpu")(
    lambda c: json.dumps({"name": "Edit", "input": {"file_path": "config/app.yml",
                          "old_string": f"{c.sn}: TODO", "new_string": f"{c.sn}: {c.v}"}},
                         ensure_ascii=False)
)  # fmt: skip
form("Write tool content", "agent", "kpu")(
    lambda c: json.dumps({"name": "Write", "input": {"file_path": ".env.production",
                          "content": f"NODE_ENV=production\n{c.n}={c.v}\n"}},
                         ensure_ascii=False)
)  # fmt: skip
form("Read result with line numbers", "agent", ALL)(
    lambda c: f"     1\u2192# {c.V}\n     2\u2192{c.n}={c.v}\n     3\u2192"
)
form("Bash result stdout/stderr", "agent", "kpu")(
    lambda c: json.dumps({"stdout": f"{c.n}={c.v}\n", "stderr": "", "interrupted": False},
                         ensure_ascii=False)
)  # fmt: skip


# -- look-alikes: must come out unchanged; each lists the strings that must survive


def _hex(n: int) -> str:
    return _shape(f"hex:{n}")


def _sha_b64(n: int) -> str:
    return _b64(n)


LOOK: list[tuple[str, Callable[[], tuple[str, list[str]]]]] = []


def look(sort: str) -> Callable[..., Callable[[], tuple[str, list[str]]]]:
    def register(fn: Callable[[], tuple[str, list[str]]]) -> Callable[[], tuple[str, list[str]]]:
        LOOK.append((sort, fn))
        return fn

    return register


@look("git sha in a revert")
def _l1() -> tuple[str, list[str]]:
    s = _hex(40)
    return f"git revert {s} --no-edit", [s]


@look("git log --oneline")
def _l2() -> tuple[str, list[str]]:
    a, b = _hex(7), _hex(7)
    return f"{a} fix: retry token refresh\n{b} chore: bump deps", [a, b]


@look("rebase todo")
def _l3() -> tuple[str, list[str]]:
    a, b = _hex(8), _hex(8)
    return f"pick {a} add secret rotation docs\nsquash {b} typo", [a, b]


@look("sha256sum output")
def _l4() -> tuple[str, list[str]]:
    s = _hex(64)
    return f"{s}  brain-0.9.1-py3-none-any.whl", [s]


@look("npm lockfile integrity")
def _l5() -> tuple[str, list[str]]:
    s = "sha512-" + _sha_b64(64)
    return f'"node_modules/left-pad": {{\n  "version": "1.3.0",\n  "integrity": "{s}"\n}}', [s]


@look("SRI script tag")
def _l6() -> tuple[str, list[str]]:
    s = "sha384-" + _sha_b64(48)
    return f'<script src="/vendor.js" integrity="{s}" crossorigin="anonymous"></script>', [s]


@look("go.sum line")
def _l7() -> tuple[str, list[str]]:
    s = "h1:" + _sha_b64(32)
    return f"golang.org/x/crypto v0.31.0 {s}", [s]


@look("pip --hash")
def _l8() -> tuple[str, list[str]]:
    s = _hex(64)
    return f"requests==2.32.3 \\\n    --hash=sha256:{s}", [s]


@look("Cargo.lock checksum")
def _l9() -> tuple[str, list[str]]:
    s = _hex(64)
    return f'[[package]]\nname = "ring"\nversion = "0.17.8"\nchecksum = "{s}"', [s]


@look("docker image digest")
def _l10() -> tuple[str, list[str]]:
    s = "sha256:" + _hex(64)
    return f"FROM python:3.12-slim@{s}", [s]


@look("docker ps container ids")
def _l11() -> tuple[str, list[str]]:
    a = _hex(12)
    return f"CONTAINER ID   IMAGE          STATUS\n{a}   redis:7        Up 3 hours", [a]


@look("AWS ARN")
def _l12() -> tuple[str, list[str]]:
    acct = _shape("d:12")
    s = f"arn:aws:secretsmanager:eu-west-1:{acct}:secret:prod/db-{_pick(A62, 6)}"
    return f"The secret lives at {s} (value not shown).", [s]


@look("Azure resource id")
def _l13() -> tuple[str, list[str]]:
    s = f"/subscriptions/{_uuid()}/resourceGroups/rg-shop/providers/Microsoft.KeyVault/vaults/kv1"
    return f"scope: {s}", [s]


@look("GCP secret resource name")
def _l14() -> tuple[str, list[str]]:
    s = f"projects/{R.randrange(10**11, 10**12)}/secrets/stripe-key/versions/3"
    return f"gcloud reads {s} at boot", [s]


@look("placeholder in .env.example")
def _l15() -> tuple[str, list[str]]:
    p = R.choice(
        [
            "your-api-key-here",
            "<YOUR_TOKEN>",
            "xxxxxxxxxxxxxxxx",
            "REPLACE_ME",
            "changeme-in-prod",
            "sk_test_XXXXXXXXXXXXXXXX",
            "${SECRET_FROM_VAULT}",
        ]
    )
    return f"PAYMENTS_API_KEY={p}\nPAYMENTS_REGION=eu", [p]  # fmt: skip


@look("template reference to a secret")
def _l16() -> tuple[str, list[str]]:
    p = R.choice(
        [
            "${{ secrets.DEPLOY_TOKEN }}",
            "{{ vault_db_password }}",
            "$(API_TOKEN)",
            "%(MAIL_PASSWORD)s",
            "ENC[AES256_GCM,data:...]",
        ]
    )
    return f"token: {p}", [p]  # fmt: skip


@look("masked value")
def _l17() -> tuple[str, list[str]]:
    p = R.choice(
        [
            "sk_live_••••••••••••4f2a",
            "********",
            "[REDACTED]",
            "ghp_****************",
            "<hidden>",
            "xxxx-xxxx-xxxx-9931",
            "AKIA************",
        ]
    )
    return f"current key: {p} (rotated 3 days ago)", [p]  # fmt: skip


@look("ssh public key")
def _l18() -> tuple[str, list[str]]:
    s = "AAAAC3NzaC1lZDI1NTE5AAAAI" + _b64(32)[:43]
    return f"ssh-ed25519 {s} {R.choice(NAMES).lower()}@laptop", [s]


@look("ssh host key fingerprint")
def _l19() -> tuple[str, list[str]]:
    s = "SHA256:" + _b64(32).rstrip("=")
    return f"ED25519 key fingerprint is {s}.\nAre you sure you want to continue?", [s]


@look("PGP fingerprint")
def _l20() -> tuple[str, list[str]]:
    s = " ".join(_shape("HEX:4") for _ in range(10))
    return f"Key fingerprint = {s}", [s]


@look("content-hashed asset")
def _l21() -> tuple[str, list[str]]:
    a, b = f"main.{_hex(8)}.js", f"app-{_pick(A36, 8)}.css"
    return f"dist/{a}  142 kB\ndist/{b}  12 kB", [a, b]


@look("W3C traceparent")
def _l22() -> tuple[str, list[str]]:
    s = f"00-{_hex(32)}-{_hex(16)}-01"
    return f"traceparent: {s}", [s]


@look("request id in a log")
def _l23() -> tuple[str, list[str]]:
    s = _uuid()
    return f"ERROR upstream timeout request_id={s} path=/checkout", [s]


@look("i18n string about passwords")
def _l24() -> tuple[str, list[str]]:
    lang, msg = R.choice([
        ("es", "Tu contraseña debe tener al menos 12 caracteres"),
        ("de", "Passwort vergessen? Wir senden dir einen Link."),
        ("fr", "Le mot de passe ne correspond pas"),
        ("pt", "Digite sua senha atual"),
        ("pl", "Hasło zostało zmienione"),
        ("ja", "パスワードを再設定してください"),
        ("ru", "Неверный пароль или логин"),
        ("tr", "Şifrenizi kimseyle paylaşmayın"),
        ("nl", "Je wachtwoord is verlopen"),
        ("sv", "Ange ditt lösenord igen"),
    ])  # fmt: skip
    return f'"{lang}": {{ "auth.password.hint": "{msg}" }}', [msg]


@look("code reading a secret from the environment")
def _l25() -> tuple[str, list[str]]:
    s = R.choice(
        [
            'api_key = os.environ["PAYMENT_API_KEY"]',
            "const token = process.env.GITHUB_TOKEN ?? '';",
            'password := os.Getenv("DB_PASSWORD")',
            "secret = Rails.application.credentials.dig(:stripe, :secret)",
        ]
    )
    return s, [s]  # fmt: skip


@look("base64 of ordinary text")
def _l26() -> tuple[str, list[str]]:
    plain = R.choice(
        [
            "hello from the build server",
            "The quick brown fox jumps",
            '{"page":2,"per_page":50}',
            "user_id=42&sort=desc",
        ]
    )
    s = base64.b64encode(plain.encode()).decode()
    return f"cursor: {s}", [s]  # fmt: skip


@look("tmux session name")
def _l27() -> tuple[str, list[str]]:
    s = f"{R.choice(['secret', 'token', 'auth'])}-rotation-{_pick(A36, 6)}"
    return f"$ tmux attach -t {s}", [s]


@look("test fixture id")
def _l28() -> tuple[str, list[str]]:
    s = _pick(A36, 10)
    return f'@pytest.mark.parametrize("case", ["{s}", "empty", "unicode"])', [s]


@look("boolean session flag")
def _l29() -> tuple[str, list[str]]:
    s = R.choice(
        [
            "admin_session=true",
            "remember_token=false",
            "password_required: true",
            "use_api_key=1",
            "secret_scanning: enabled",
            "token_auth=off",
        ]
    )
    return f"flags: {s}", [s]  # fmt: skip


@look("UUID as an order id")
def _l30() -> tuple[str, list[str]]:
    s = _uuid()
    return f"Order {s} was refunded.", [s]


@look("ETag header")
def _l31() -> tuple[str, list[str]]:
    s = '"' + _hex(32) + '"'
    return f"< ETag: {s}\n< Cache-Control: max-age=60", [s]


@look("crypto public address")
def _l32() -> tuple[str, list[str]]:
    s = R.choice(["0x" + _hex(40), "bc1q" + _pick("023456789acdefghjklmnpqrstuvwxyz", 38)])
    return f"send the refund to {s} (public address)", [s]


@look("transaction hash")
def _l33() -> tuple[str, list[str]]:
    s = "0x" + _hex(64)
    return f"tx confirmed: {s} in block 21004511", [s]


@look("IPFS CID")
def _l34() -> tuple[str, list[str]]:
    s = "bafybei" + _pick("abcdefghijklmnopqrstuvwxyz234567", 52)
    return f"ipfs://{s}/metadata.json", [s]


@look("kubernetes pod name")
def _l35() -> tuple[str, list[str]]:
    s = f"api-{_pick(A36, 10)}-{_pick(A36, 5)}"
    return f"NAME{' ' * 20}READY   STATUS\n{s}   1/1     Running", [s]


@look("Stripe-style object id")
def _l36() -> tuple[str, list[str]]:
    s = R.choice(["cus_", "pi_", "evt_", "ch_", "sub_"]) + _pick(A62, 14)
    return f"webhook received for {s}", [s]


@look("Slack channel and user ids")
def _l37() -> tuple[str, list[str]]:
    a, b = "C0" + _pick(A36.upper(), 9), "U0" + _pick(A36.upper(), 9)
    return f"posted to {a} by {b}", [a, b]


@look("analytics measurement id")
def _l38() -> tuple[str, list[str]]:
    s = "G-" + _pick(A36.upper(), 10)
    return f"gtag('config', '{s}');", [s]


@look("Mongo ObjectId")
def _l39() -> tuple[str, list[str]]:
    s = _hex(24)
    return f'db.users.findOne({{ _id: ObjectId("{s}") }})', [s]


@look("ULID record id")
def _l40() -> tuple[str, list[str]]:
    s = "01J" + _pick("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 23)
    return f"created invoice {s}", [s]


@look("password policy docs")
def _l41() -> tuple[str, list[str]]:
    s = "Passwords must be 12+ characters and include a symbol; tokens expire after 90 days."
    return s, [s]


@look("env var names without values")
def _l42() -> tuple[str, list[str]]:
    s = "Set GITHUB_TOKEN, NPM_TOKEN and SENTRY_AUTH_TOKEN in the repo settings before release."
    return s, [s]


@look("vault path reference")
def _l43() -> tuple[str, list[str]]:
    s = f"secret/data/{R.choice(['prod', 'staging'])}/payments/api_key"
    return f"vault kv get -field=value {s}", [s]


@look("Cloudflare ray id")
def _l44() -> tuple[str, list[str]]:
    s = _hex(16) + "-FRA"
    return f"cf-ray: {s}", [s]


@look("Sentry event id")
def _l45() -> tuple[str, list[str]]:
    s = _hex(32)
    return f"Sentry captured event {s}", [s]


@look("CSS colour and hashes")
def _l46() -> tuple[str, list[str]]:
    a, b = "#" + _hex(6), "#" + _hex(6)
    return f".btn {{ color: {a}; border-color: {b}; }}", [a, b]


@look("reCAPTCHA site key")
def _l47() -> tuple[str, list[str]]:
    s = "6L" + _pick(A62 + "-_", 38)
    return f'<div class="g-recaptcha" data-sitekey="{s}"></div>', [s]


@look("video id in a URL")
def _l48() -> tuple[str, list[str]]:
    s = _pick(A62 + "-_", 11)
    return f"demo recording: https://youtu.be/{s}", [s]


@look("Next.js build id")
def _l49() -> tuple[str, list[str]]:
    s = _pick(A62 + "-_", 21)
    return f"/_next/static/{s}/_buildManifest.js", [s]


@look("terraform state lineage")
def _l50() -> tuple[str, list[str]]:
    s = _uuid()
    return f'{{"version": 4, "serial": 88, "lineage": "{s}"}}', [s]


@look("branch name with ticket hash")
def _l51() -> tuple[str, list[str]]:
    s = f"fix/token-refresh-{_hex(6)}"
    return f"git push -u origin {s}", [s]


@look("otp instructions without a code")
def _l52() -> tuple[str, list[str]]:
    s = "Enter the 6-digit code from your authenticator app; a new code appears every 30 s."
    return s, [s]


@look("semver with build metadata")
def _l53() -> tuple[str, list[str]]:
    s = f"2.14.0+build.{_hex(9)}"
    return f"version: {s}", [s]


@look("S3 object key with hash")
def _l54() -> tuple[str, list[str]]:
    s = f"uploads/2026/11/{_hex(32)}.png"
    return f"s3://shop-media/{s}", [s]


@look("base32 alphabet constant")
def _l55() -> tuple[str, list[str]]:
    s = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
    return f'ALPHABET = "{s}"', [s]


# -- assembling the corpus

WALLET_WORDS = ("private key", "secret key", "mnemonic", "seed", "phrase", "wif", "bytes")
SPEAKS_TO_AN_API = ("cli login argument", "Python SDK constructor", "TypeScript SDK constructor",
                    "C# client")  # fmt: skip
GROUPS = {"chat": 48, "config": 18, "shell": 8, "code": 10, "agent": 12,
          "log": 2, "table": 2, "diff": 1, "http": 2, "url": 2}  # fmt: skip
LETTER = {"key": "k", "pw": "p", "pin": "n", "phrase": "s", "url": "u"}


def _category(vendor: str, cred: str, cat: str, template: str) -> str:
    wallet = any(w in cred for w in WALLET_WORDS) and (
        template.startswith(("0x", "L{", "edsk", "{hex:64}", "{bytes", "{seed"))
    )
    return "phrase" if wallet and cat == "key" else cat


def fits(form_name: str, cats: str, item: dict[str, str]) -> bool:
    if LETTER[item["cat"]] not in cats:
        return False
    wallet = item["cat"] == "phrase" and "seed" not in item["template"]
    if form_name == "wallet import":
        return wallet or "seed" in item["template"]
    if form_name in SPEAKS_TO_AN_API:
        return "password" not in item["cred"]
    return True


SHAPES: Counter[str] = Counter()


def build() -> tuple[list[dict[str, str]], list[dict[str, object]]]:
    table = rows()
    kinds = []
    for vendor, cred, template, name in table:
        value, secret, cat = expand(template)
        cat = _category(vendor, cred, cat, template)
        kinds.append({"vendor": vendor, "cred": cred, "template": template, "name": name,
                      "cat": cat})  # fmt: skip
    keys = [k for k in kinds if k["cat"] == "key"]
    drop = {id(k) for k in R.sample(keys, len(kinds) - 390)}
    kinds = [k for k in kinds if id(k) not in drop]
    repeats = R.sample([k for k in kinds if k["cat"] in ("key", "url")], 60)
    items = [dict(k) for k in kinds] + [dict(k) for k in repeats]
    R.shuffle(items)
    used: Counter[str] = Counter()
    taken: set[tuple[str, str, str]] = set()

    def assign(item: dict[str, str], name: str) -> None:
        used[name] += 1
        item["form"] = name
        taken.add((item["vendor"], item["cred"], name))

    def ok(item: dict[str, str], name: str, cats: str) -> bool:
        return (item["vendor"], item["cred"], name) not in taken and fits(name, cats, item)

    pending = list(items)
    for name, _, cats, _ in R.sample(FORMS, len(FORMS)):  # every form at least once
        for item in pending:
            if ok(item, name, cats):
                assign(item, name)
                pending.remove(item)
                break
    for item in pending:
        groups = list(GROUPS)
        while True:
            group = R.choices(groups, [GROUPS[g] for g in groups])[0]
            choices = [(n, cats) for n, g, cats, _ in FORMS if g == group and ok(item, n, cats)]
            if choices:
                low = min(used[n] for n, _ in choices)
                assign(item, R.choice([n for n, _ in choices if used[n] == low]))
                break
            groups.remove(group)
    functions = {n: fn for n, _, _, fn in FORMS}
    secrets = []
    for item in items:
        value, secret, _ = expand(item["template"])
        c = ctx(item["vendor"], item["cred"], value, item["cat"], item["name"])
        text = functions[item["form"]](c)
        kind = f"{item['vendor']} {item['cred']} [{item['form']}]"
        assert secret in text, (kind, secret, text)
        secrets.append({"kind": kind, "text": text, "secret": secret})
        SHAPES[shape_of(item["template"])] += 1
        if shape_of(item["template"]) == "random alphanumeric" and 10 <= len(secret) <= 20:
            SHAPES["(of which 10 to 20 long)"] += 1
    lookalikes: list[dict[str, object]] = []
    for i in range(160):
        sort, fn = LOOK[i % len(LOOK)]
        text, keep = fn()
        n = sum(1 for x in lookalikes if str(x["kind"]).startswith(sort))
        kind = sort if n == 0 else f"{sort} #{n + 1}"
        assert all(k in text for k in keep), (sort, text)
        lookalikes.append({"kind": kind, "text": text, "keep": keep})
    return secrets, lookalikes


def shape_of(template: str) -> str:
    """The value's shape, for the counts."""
    one = re.fullmatch(r"\{([a-zA-Z0-9]+)(?::\d+)?\}", template)
    if "://" in template or template.startswith("Server="):
        return "URL or connection string"
    if template.startswith(("user=", "XML")):
        return "inside a larger string"
    if "{pw" in template:
        return "password"
    if "{pin" in template or template == "{d:8}":
        return "PIN or digit code"
    if "{seed" in template or "{phrase" in template:
        return "passphrase or seed words"
    if one and one.group(1) in ("a62", "a36", "A36", "a26", "al", "b58"):
        return "random alphanumeric"
    if one and one.group(1) in ("hex", "HEX"):
        return "hex"
    if one and one.group(1) in ("b64", "b64u"):
        return "base64"
    if one and one.group(1) in ("uuid", "UUID"):
        return "UUID"
    if template == "{jwt}" or template.startswith("a/{jwt"):
        return "JWT-like"
    if one or "{bytes" in template or "{grp" in template or re.match(r"\{[^}]+\}[.:_-]", template):
        return "structured"
    return "vendor prefix"


ABOUT = (
    "Ninth blind corpus, written by benchmarks/make_secrets_blind9.py with "
    f"random.Random({SEED}) and the standard library only, from general knowledge of "
    "credential shapes and of where people paste them into coding-agent chats and where "
    "agents' tool output shows them. No redactor code, tests or earlier corpus texts were "
    "consulted; the vendors avoid the earlier corpora's kind names. All values are random "
    "fakes. A secret's kind is '<vendor> <credential> [<form>]'; each look-alike lists under "
    "'keep' the strings that must survive unchanged (the whole text must)."
)


def main() -> None:
    secrets, lookalikes = build()
    OUT.write_text(
        json.dumps({"about": ABOUT, "secrets": secrets, "lookalikes": lookalikes},
                   indent=1, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )  # fmt: skip
    kinds = {s["kind"].rsplit(" [", 1)[0] for s in secrets}
    forms = Counter(s["kind"].rsplit(" [", 1)[1].rstrip("]") for s in secrets)
    groups = Counter(next(g for n, g, _, _ in FORMS if n == f) for f in forms.elements())
    sorts = {str(x["kind"]).split(" #")[0] for x in lookalikes}
    print(f"{len(secrets)} secrets of {len(kinds)} kinds in {len(forms)} forms")
    print("by group: " + ", ".join(f"{g} {n}" for g, n in groups.most_common()))
    print("shapes: " + ", ".join(f"{k} {n}" for k, n in SHAPES.most_common()))
    langs = [f for f in forms if f.startswith("chat prose (")]
    print(f"chat prose in {len(langs)} languages, {sum(forms[f] for f in langs)} secrets")
    print(f"{len(lookalikes)} look-alikes of {len(sorts)} sorts")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
