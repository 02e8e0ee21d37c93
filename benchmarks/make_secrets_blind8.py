"""Write benchmarks/data/secrets_blind8.json: an eighth blind corpus of fake credentials.

What its author read, and what not. Written from general knowledge of how vendors shape
their keys and where people paste them, with the standard library only. Not read: anything
under ``brain/`` or ``tests/``, ``benchmarks/README.md``, the project README, and the bodies
of the other ``make_secrets_blind*.py`` generators. Read: ``benchmarks/secrets_holdout.py``
(for the JSON format and how an item is loaded and scored); the top docstring of
``make_secrets_blind7.py`` and a grep of it for where it writes its JSON (which showed a few
of its lines), for the output shape; the top-level keys, field names and ``about`` strings
of ``benchmarks/data/secrets_*.json``; and their ``kind`` names, printed to a file with the
``[form]`` suffix stripped. Every vendor below was checked against those names: a vendor or
product whose name appears there was dropped, so the 549 kinds in the table are new ones
(allowed: generic words such as "home" or "phone" where the kind itself is new, and a few
products sharing one word with an older kind's different vendor, such as Canvas Medical
beside Canvas LMS, Mercado Bitcoin beside Mercado Pago, Scout APM beside Help Scout).
The corpus was not scored, and nothing in brain was run on it; it was only checked to load
with the fields ``load()`` reads, each secret being a verbatim substring of its text.

Counts (printed by ``main``): 450 secrets of 360 kinds in 110 embedding forms, and 159
look-alikes (51 sorts) that must come out unchanged. Every kind whose value is a URL, a
connection string, a passphrase or a PIN is used; the rest are drawn; 83 kinds appear
more than once (77 twice, 5 three times, one four times), in different forms.

Value shapes: 124 random alphanumerics with no prefix (alphabets of 62, 36 or 26 letters,
8 to 80 long), 89 hex with no prefix (upper or lower case, 12 to 160 long), 16 base64 or
url-safe base64 with no prefix (32 to 300 long), 21 UUIDs used as keys, 29 vendor-style
prefixes plus a random body, 17 JWT-like tokens, 20 other structured values (grouped keys,
byte arrays, joined ids and secrets), 58 passwords as people type them (words in several
languages, names, years, symbols, leetspeak, a few with non-ASCII letters), 10 word
passphrases and seed words, 11 PINs and digit codes, 50 webhook URLs, API URLs and
connection strings whose secret is the token, path segment, query value or password inside
them, and 5 secrets inside a larger string (a ``Bearer``/``Key`` value, a ``user:password``
pair, a Teradata logon).

Forms, weighted as people paste secrets into coding-agent chats and as agents' tool output
shows them: 207 in chat (180 in prose in 24 languages: English, Spanish, French, German,
Portuguese, Italian, Dutch, Russian, Ukrainian, Polish, Turkish, Arabic, Hindi, Hinglish,
Chinese, Japanese, Korean, Indonesian, Vietnamese, Thai, Persian, Swedish, Hebrew, Czech;
plus an error report, dictated text, a credential list, a config in a code block, pasted
personal notes, a quoted team message, a forwarded email), 92 in config files (28 forms:
.env, YAML and JSON at any nesting depth, TOML, INI, .properties, XML, Spring, compose,
Kubernetes, tfvars, HCL, CI files, Dockerfile, Jenkinsfile, nginx, systemd, crontab,
.netrc, device configs, Makefile, Ansible, plist, gradle.properties, Elixir, Lua), 34 in
shell sessions and CLI output (15 forms), 45 in code (19 forms: Python, JavaScript, Go,
Rust, Java, C#, PHP, Ruby, Kotlin, Swift, Dart, C, Perl, SQL, mongo shell, GraphQL, a
REPL, a Jupyter cell), 33 in logs, tables, diffs, HTTP files and URLs (12 forms), and 39
in agent tool calls and results (5 forms, with quotes escaped once or twice). Each
secret's ``kind`` is ``<vendor> <credential> [<form>]``. A person's own passwords, PINs and
device codes go only to chat prose (in words a person uses for them), pasted notes, a
forwarded email, a spreadsheet or table, or a device config; login forms (``curl -u``, SQL
users, database CLIs, connection URLs, .netrc) hold passwords, and header and query forms
hold tokens.

Look-alikes: git SHAs, checksums and digests, lockfile and SRI integrity hashes, UUIDs as
ids, ARNs and cloud resource ids, placeholders, masked values, publishable and site keys,
code and docs that name secrets without values, i18n strings about passwords in eleven
languages, SSH and PGP fingerprints, public keys, content-hashed asset names, version
strings, base64 of non-secrets, trace ids, ETags, public crypto addresses, and others. Each
lists under ``keep`` the strings that must survive (the loader reads only ``kind`` and
``text``; the whole text must come out unchanged). Every value is drawn from
``random.Random(820261207)``; none is a real credential.

Run: ``python benchmarks/make_secrets_blind8.py``.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from collections import Counter
from pathlib import Path

# The kinds table, the chat templates and the embedding templates are long literal lines,
# kept whole so that each reads as the text a person pastes.
# ruff: noqa: E501

OUT = Path(__file__).parent / "data" / "secrets_blind8.json"
R = random.Random(820261207)

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
A62 = LOWER + UPPER + DIGITS
A36 = LOWER + DIGITS
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = UPPER + "234567"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

# Credential kinds: vendor | credential | value shape. In a shape, {spec} is drawn at
# random and <...> marks the part that is the secret (the whole value when absent).
# None of these vendors or products is named by an earlier corpus's kinds.
KINDS = """
PayTabs|server key|S{A36:9}-{A36:10}-{A36:10}
HyperPay|access token|OGE4{b64n:54}
Tamara|api token|{jwt}
Tpay|security code|{a62:16}
InPost ShipX|api token|{jwt}
Allegro|client secret|{a62:64}
BaseLinker|api token|{dig:4}-{dig:5}-{A36:50}
SMSAPI.pl|oauth token|{a62:40}
Fakturownia|api token|{a62:20}/{low:8}
iFirma|api key|{HEX:32}
PayTR|merchant key|{a62:16}
PayTR|merchant salt|{a62:16}
Craftgate|secret key|{a62:32}
Trendyol|seller api secret|{a62:20}
Netgsm|usercode password|{pw}
Parasut|client secret|{a62:43}
Papara|api key|{b64:48}
Param POS|guid key|{UUID}
VNPay|hash secret|{A36:32}
ZaloPay|key2|{a62:32}
Zalo OA|access token|{b64u:180}
Giao Hang Nhanh|token|{uuid}
Casso|api key|AK_CS.{hex:32}.{a62:64}
PayOS|checksum key|{hex:64}
Coolsms|api secret|{A36:32}
Aligo|sms api key|{a36:32}
kintone|api token|{a62:40}
Backlog|api key|{a62:64}
freee|client secret|{a62:43}
SmartHR|access token|shr_{hex:4}_{a62:40}
ConoHa|api password|{pw}
Upyun|operator password|{a62:32}
Gitee|private token|{hex:32}
Youdao|app secret|{a62:32}
Amap Gaode|web service key|{hex:32}
Getui|master secret|{a62:22}
JPush|master secret|{hex:24}
Robokassa|password #1|{a62:20}
Ozon Seller|api key|{uuid}
Wildberries|api token|{jwt}
Avito|client secret|{a62:40}
DaData|secret key|{hex:40}
Tinkoff Invest|api token|t.{b64u:86}
1C Enterprise|infobase password|{pw}
Sber ID|client secret|{a62:32}
Z-API|client token|F{hex:31}S
Zenvia|api token|{a62:36}
Bling ERP|api key|{hex:72}
Omie|app secret|{hex:32}
Peach Payments|access token|OGFj{b64n:56}
Ozow|private key|{a62:32}
Hubtel|client secret|{a36:8}
Mono Africa|secret key|live_sk_{a36:20}
Interswitch|client secret|{b64:32}
Remita|api key|{b64:24}
Paymob|api key|ZXlK{b64n:150}
Fawry|security key|{hex:32}
Unifonic|app sid|{a62:30}
Taqnyat|bearer token|{hex:32}
Setu|client secret|{uuid}
Shiprocket|api password|{pw}
DigiLocker|client secret|{hex:32}
Tokopedia|client secret|{hex:32}
Shopee Open Platform|partner key|{hex:64}
Lazada|app secret|{a62:32}
Biteship|api key|biteship_live.{jwt}
RajaOngkir|api key|{hex:32}
Wablas|token|{a62:60}
Fonnte|token|{a62:20}
Zenziva|passkey|{a36:10}
Basiq|api key|{b64:96}
Fintoc|secret key|sk_live_{a62:32}
Marqeta|admin access token|{uuid}
Treasury Prime|api secret|{a62:40}
Swan|client secret|{a62:48}
Modulr|hmac secret|{a62:40}
Currencycloud|api key|{hex:64}
Lemonway|api password|{pw}
Stancer|secret key|stest_{a62:24}
PayPlug|secret key|sk_live_{a62:22}
HiPay|api password|{a62:40}
Finix|api password|{uuid}
FastSpring|api password|{a62:24}
Zuora|client secret|{a62:43}
Lago|api key|{uuid}
Orb billing|api key|{hex:64}
Metronome|bearer token|{hex:64}
Stigg|server api key|server-{uuid}
Chargify Maxio|api key|{a62:43}
BitMart|api secret|{hex:64}
Phemex|api secret|{b64u:64}
BingX|secret key|{a62:64}
WhiteBIT|secret|{hex:32}
Zonda|private key|{uuid}
Indodax|secret key|{hex:80}
Tokocrypto|secret key|{a62:64}
WazirX|secret key|{a62:40}
CoinDCX|secret|{hex:64}
Bitkub|api secret|{hex:32}
Paribu|api token|{hex:64}
BtcTurk|private key|{b64:44}
BitoPro|api secret|{hex:64}
Bitpanda|api key|{hex:160}
VALR|api secret|{hex:64}
Mercado Bitcoin|api secret|{hex:64}
Coinone|secret key|{uuid}
bitbank|api secret|{hex:64}
Blockdaemon|api key|{a62:48}
MoonPay|secret key|sk_live_{a62:32}
Transak|api secret|{b64:24}
Banxa|secret|{a62:32}
Hedera|ed25519 private key|302e020100300506032b657004220420{hex:64}
Dogecoin|WIF private key|Q{b58:51}
PeerTube|admin password|{pw}
Kanidm|api token|{jwt}
Icinga2|api user password|{a62:24}
phpIPAM|app code|{a62:32}
GLPI|app token|{a62:40}
Snipe-IT|api key|{jwt}
Znuny|agent password|{pw}
Wiki.js|api key|{jwt}
MediaWiki|bot password|{a36:32}
Joomla|api token|c2hhMjU2O{b64n:90}
Hygraph|permanent auth token|{jwt}
Prismic|access token|{jwt}
Kontent.ai|management api key|{jwt}
Umbraco|delivery api key|{uuid}
Domoticz|admin password|{pw}
ioBroker|admin password|{pw}
eWeLink|app secret|{a62:32}
Homey|api key|{uuid}:{uuid}:{hex:40}
Scrypted|login password|{pw}
pfSense|api client token|{hex:32}
Navidrome|admin password|{pw}
Audiobookshelf|api token|{jwt}
PhotoPrism|admin password|{pw}
Prusa Connect|printer token|{a62:20}
Meshtastic|channel psk|{b64:32}
Hikvision|camera admin password|{pw}
Dahua|NVR password|{pw}
Reolink|camera password|{pw}
FRITZ!Box|login password|{pw}
GPON ONT|superadmin password|{pw}
home Wi-Fi|WPA2 passphrase|{phrase:4}
guest Wi-Fi|network key|{a62:12}
home alarm panel|master code|{dig:6}
smart lock|keypad code|{dig:8}
garage door|opener code|{dig:7}
SIM card|PUK code|{dig:8}
phone|lock screen passcode|{dig:6}
debit card|ATM PIN|{dig:6}
UPI|UPI PIN|{dig:6}
BCA mobile|m-BCA PIN|{dig:6}
Vietcombank|Smart OTP PIN|{dig:6}
iPKO PKO BP|login password|{pw}
Sberbank Online|password|{pw}
Nubank|app password|{dig:8}
e-Devlet|password|{pw}
Gmail|account password|{pw}
Outlook.com|account password|{pw}
Netflix|account password|{pw}
PlayStation Network|password|{pw}
Nintendo Account|password|{pw}
VKontakte|account password|{pw}
LastPass|master password|{pw}
Proton Mail|mailbox password|{phrase:4}
PDF|owner password|{pw}
Excel workbook|protection password|{pw}
school portal|student password|{pw}
Tuta mail|recovery code|{hex:4} {hex:4} {hex:4} {hex:4} {hex:4} {hex:4} {hex:4} {hex:4} {hex:4} {hex:4} {hex:4} {hex:4} {hex:4} {hex:4} {hex:4} {hex:4}
NetSuite|token secret|{hex:64}
Dynamics 365|client secret|{a62:3}8Q~{a62:34}
Bitrix24|inbound webhook|https://{low:8}.bitrix24.ru/rest/{dig:2}/<{a36:16}>/
amoCRM|long-lived token|{jwt}
corporate VPN|pre-shared key|{a62:32}
staging site|basic auth password|{pw}
internal admin panel|root password|{pw}
payroll portal|service password|{pw}
HR system|sftp password|{pw}
billing service|internal hmac key|{hex:64}
feature-flag service|internal sdk secret|{a62:40}
company SSO|break-glass password|{phrasesp:6}
YugabyteDB|ysql password|{pw}
VictoriaMetrics|auth key|{a62:24}
Solr|basic auth password|{pw}
Hostinger|api token|{a62:48}
Porter|api token|{jwt}
Sevalla|api key|{a62:48}
Dokku|ssh deploy password|{pw}
Pika|api key|{a62:40}
Midjourney proxy|discord user token|{b64u:24}.{b64u:6}.{b64u:38}
Lightning AI|api key|{uuid}
Weights & Biases|api key|{hex:40}
Power Automate|http trigger|https://prod-{dig:2}.westeurope.logic.azure.com:443/workflows/{hex:32}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=<{b64u:43}>
Tines|webhook secret|https://{low:7}-{low:5}.tines.com/webhook/{hex:32}/<{hex:32}>
Bugsink|dsn|https://<{hex:32}>@bugsink.{low:6}.dev/3
GlitchTip|dsn|https://<{hex:32}>@app.glitchtip.com/{dig:4}
StatusCake|api key|{a62:20}
GitGuardian|personal access token|{a62:64}
Gerrit|http password|{b64n:42}
Gogs|access token|{hex:40}
OneDev|access token|{a62:40}
Verdaccio|npm auth token|{b64:44}
Hex.pm|api key|{hex:32}
pub.dev|credential refresh token|1//{b64u:100}
Packagist|api token|{a62:20}
BigBuy|api key|{a62:64}
OpenCart|api key|{a62:256}
Gumroad|access token|{a62:43}
Lemonsqueezy|webhook signing secret|{a62:32}
Printful|api token|{a62:40}
DHL Express|MyDHL api password|{a62:16}^{a62:4}!{dig:3}
Australia Post|api password|{a62:20}
Canada Post|api key password|{hex:16}:{hex:22}
Royal Mail|Click & Drop api key|{uuid}
Sage|client secret|{a62:40}
MYOB|api key|{a36:24}
FreshBooks|client secret|{hex:64}
Wave Accounting|full access token|{a62:30}
Pennylane|api token|{b64u:43}
Qonto|secret key|{hex:32}
Holvi|api key|{a62:40}
Lexoffice|api key|{b64u:44}
sevDesk|api token|{hex:32}
DATEV|client secret|{hex:32}
Personio|client secret|papi-{a62:48}
BambooHR|api key|{hex:40}
Deel|api token|{a62:70}
Remote.com|api token|ra_live_{a62:64}
Gusto|client secret|{b64u:43}
Rippling|api token|{a62:60}
HiBob|service user token|{a62:40}
Lattice|api key|{uuid}
Greenhouse|harvest api key|{hex:32}
Lever|api key|{a62:48}
Workable|access token|{hex:64}
Teamtailor|api key|{a62:40}
Whereby|api key|{jwt}
Teamwork|api key|twp_{a62:28}
Harvest|personal access token|{dig:7}.pt.{b64u:86}
Toggl Track|api token|{hex:32}
Clockify|api key|{b64n:48}
Jotform|api key|{hex:32}
SurveyMonkey|access token|{a62:80}
Tally|api key|tly-{a62:32}
Formspree|deploy key|{hex:32}
Meteomatics|api password|{a62:10}
Skyscanner|api key|{a36:32}
Booking.com|affiliate api password|{pw}
Expedia Rapid|shared secret|{a62:16}
Uber|client secret|{a62:40}
Lyft|client secret|{a62:32}
Strava|client secret|{hex:40}
Garmin Connect|consumer secret|{a62:32}
Whoop|client secret|{hex:64}
Polar AccessLink|client secret|{uuid}
Cerner|system account secret|{uuid}
Health Gorilla|client secret|{a62:32}
Doximity|api secret|{a62:40}
Canvas Medical|client secret|{a62:40}
Veeva Vault|session password|{pw}
Satispay|key id secret|{a62:64}
Swish|certificate passphrase|{pw}
Trustly|private key passphrase|{pw}
Buckaroo|secret key|{A36:32}
Nexi XPay|mac key|{a62:40}
Sezzle|private key|sz_sk_{a62:32}
Niubiz|merchant password|{pw}
Transbank|api key secret|{hex:64}
Khipu|receiver secret|{hex:40}
CinetPay|api key|{dig:12}{hex:20}
PayDunya|master key|{a62:36}
FedaPay|secret key|sk_live_{a62:24}
Kkiapay|secret key|sk_{hex:40}
PayHere|merchant secret|{b64:60}
eSewa|secret key|{a62:14}
Khalti|live secret key|live_secret_key_{hex:32}
bKash|app secret|{a62:50}
SSLCommerz|store password|{a36:8}@ssl
JazzCash|integrity salt|{a36:10}
Telr|auth key|{a62:16}~{a62:4}
MyFatoorah|api token|{b64u:300}
Salla|client secret|{hex:32}
Zid|manager token|{jwt}
Msegat|api key|{hex:32}
Foodics|api token|{jwt}
Geidea|api password|{uuid}
Thawani|secret key|{a62:32}
ToyyibPay|user secret key|{a36:8}-{a36:4}-{a36:4}-{a36:4}-{a36:12}
iPay88|merchant key|{a62:10}
HitPay|api key|{hex:64}
Dragonpay|merchant password|{a62:12}
Duitku|merchant key|{hex:32}
Tripay|private key|{a62:5}-{a62:5}-{a62:5}-{a62:5}-{a62:5}
OY Indonesia|api key|{uuid}
Flip Indonesia|secret key|JDJ5JDEzJ{b64n:60}
Mekari|hmac secret|{a62:32}
Qontak|access token|{a62:43}
GHTK|api token|{a62:40}
Viettel Post|token|{jwt}
OnePay|secure secret|{HEX:32}
eSMS.vn|secret key|{HEX:32}
SpeedSMS|access token|{a62:32}
KiotViet|client secret|{HEX:40}
Haravan|private app token|{HEX:64}
Sapo|api password|{hex:32}
Bootpay|private key|{b64:44}
Solapi|api secret|{A36:32}
Channel Talk|access secret|{hex:32}
Cafe24|client secret|{a62:22}
Coupang Wing|secret key|{hex:40}
Danal|cp password|{a62:16}
Bizum Redsys|SHA-256 merchant key|{b64:32}
Redsys|clave secreta|{b64:24}
Payone|portal key|{a62:16}
Unzer|private key|s-priv-{a62:32}
Novalnet|payment access key|{hex:32}
Computop|hmac password|{a62:32}
Paysera|project password|{hex:32}
Montonio|secret key|{b64:44}
Paytrail|merchant secret|{a62:24}
Viva Wallet|api key|{a62:18}
myPOS|private key passphrase|{pw}
Payconiq|api key|{uuid}
Mondu|api key|{a62:32}
Scalapay|api key|{a62:32}
Alma|live api key|sk_live_{a62:24}
Lydia|vendor token|{hex:32}
PayComet|api token|{hex:40}
ifthenpay|backoffice key|{dig:4}-{dig:4}-{dig:4}-{dig:4}
Eupago|api key|{a36:4}-{a36:4}-{a36:4}-{a36:4}-{a36:4}
Comgate|secret|{a62:32}
GoPay CZ|client secret|{a62:8}
Barion|POS key|{hex:32}
SimplePay|merchant secret key|{a62:32}
Netopia|api key|{a62:50}
LiqPay|private key|sandbox_{a62:40}
WayForPay|merchant secret key|{hex:40}
Monobank|X-Token|{a62:44}
Kaspi Pay|api token|{b64:44}
Payme Uzbekistan|merchant key|{a62:30}
Unitpay|secret key|{hex:32}
ByteDance Douyin|client secret|{hex:32}
Kuaishou|app secret|{a62:24}
Xiaohongshu|app secret|{hex:32}
Pinduoduo|client secret|{hex:40}
Taobao TOP|app secret|{hex:32}
Youzan|client secret|{hex:32}
Weibo|app secret|{hex:32}
QQ Connect|app key|{a62:16}
Bilibili|open platform access key secret|{hex:32}
NetEase Yunxin|app secret|{hex:12}
RongCloud|app secret|{a62:14}
Easemob|client secret|YXA6{b64u:27}
QingCloud|secret access key|{a62:40}
Kingdee|app secret|{a62:32}
Yonyou|app secret|{hex:32}
GitCode|personal token|{a62:24}
CODING DevOps|personal token|{hex:40}
Money Forward|client secret|{a62:43}
Sansan|api key|{hex:32}
Jobcan|api token|{a62:40}
KING OF TIME|access token|{hex:32}
Xserver|server panel password|{pw}
BASE shop|client secret|{hex:32}
Qiita|access token|{hex:40}
Hot Pepper|api key|{hex:16}
Gurunavi|key id|{hex:32}
Zerodha Kite|api secret|{a36:32}
Upstox|client secret|{a36:10}
Angel One SmartAPI|api key|{a62:8}
Dhan|access token|{jwt}
Fyers|secret id|{A36:10}
2Factor.in|api key|{uuid}
Fast2SMS|authorization key|{a62:80}
WATI|access token|Bearer <{jwt}>
Interakt|api key|{b64:60}
AiSensy|api key|{jwt}
Digio|client secret|{A36:32}
Signzy|access token|{a62:64}
HyperVerge|app key|{a36:20}
Decentro|client secret|{a62:32}
BillDesk|checksum key|{a62:32}
Knowlarity|x-api-key|{a62:40}
Hepsiburada|merchant secret|{uuid}
N11|app secret|{a62:16}
Sipay|app secret|{hex:32}
İletimerkezi|api hash|{hex:40}
Verimor|api password|{pw}
Nilvera|api key|{HEX:64}
Yurtiçi Kargo|ws password|{pw}
BirFatura|api key|{uuid}
Autopay Blue Media|shared key|{hex:40}
Shoper|client secret|{hex:40}
IdoSell|api key|YXBwb{b64n:60}
inFakt|api key|{hex:40}
SerwerSMS|api token|{hex:40}
Furgonetka|client secret|{a62:40}
Apaczka|app secret|{a36:32}
KSeF|authorization token|{hex:64}
ePUAP|account password|{pw}
RuStore|api key|{b64:88}
2GIS|api key|{uuid}
GigaChat|authorization key|{b64:100}
MoySklad|api token|{hex:40}
RetailCRM|api key|{a62:32}
Unisender|api key|{a36:45}
SendPulse|client secret|{hex:32}
CDEK|client secret|{a62:32}
Boxberry|api token|{hex:32}
Gosuslugi|account password|{pw}
Kontur Diadoc|api client id|{a36:8}-{a36:4}-{a36:4}-{a36:4}-{a36:12}
Efí Gerencianet|client secret|Client_Secret_{hex:40}
PicPay|x-picpay-token|{uuid}
Cielo|merchant key|{A36:40}
Getnet|client secret|{uuid}
Vindi|api key|{a62:43}
Nuvemshop|access token|{hex:40}
RD Station|private token|{hex:32}
Blip|bot authorization key|Key <{b64:60}>
Hotmart|client secret|{uuid}
Kiwify|client secret|{hex:64}
Sympla|s_token|{hex:64}
Focus NFe|api token|{a62:32}
NFe.io|api key|{a62:40}
Conta Azul|client secret|{a62:40}
Pipefy|personal access token|{jwt}
Frenet|token|{HEX:8}R{HEX:24}
Bold Colombia|identity key|{a62:43}
Alegra|api token|{a62:20}
Siigo|access key|{b64:60}
Facturama|api password|{pw}
Fibery|api token|{hex:8}.{hex:40}
Grist|api key|{hex:40}
SeaTable|api token|{hex:40}
ToolJet|access token|{a62:40}
Bubble|api token|{hex:32}
Squarespace|api key|{uuid}
Omnisend|api key|{hex:24}-{a62:50}
Stream Chat|api secret|{a36:64}
Liveblocks|secret key|sk_prod_{b64u:64}
SuprSend|workspace secret|{a62:30}
Plunk|secret key|sk_{hex:48}
Tidio|api client secret|ck_{a62:40}
Chatwoot|access token|{a62:24}
osTicket|api key|{HEX:32}
FreeScout|api key|{hex:32}
Kayako|api password|{pw}
Atlantis|webhook secret|{a62:32}
Buddy.Works|token|{a62:40}
Okteto|personal token|{a62:40}
Coder|session token|{a62:10}-{a62:22}
Pritunl|api secret|{a62:32}
Pinggy|access token|{a62:12}
inlets|tunnel token|{a62:40}
Scout APM|agent key|{a62:20}
Atatus|license key|lic_apm_{hex:32}
Dead Man's Snitch|api key|{hex:32}
Exceptionless|api key|{a62:40}
TrackJS|token|{hex:32}
Smartlook|api key|{hex:40}
Jitsu|server secret|{a62:32}
GoatCounter|api token|{a36:40}
Mollom|private key|{hex:32}
Percona XtraDB|replication DSN|mysql://repl:<{a62:22}>@10.{dig:1}.{dig:1}.{dig:2}:3306/
Galera cluster|wsrep SST auth|sstuser:<{a62:18}>
EnterpriseDB|connection url|postgresql://enterprisedb:<{a62:20}>@pg-{low:5}.corp.internal:5444/edb
Firebird|SYSDBA password|{a62:8}
Informix|connection string|jdbc:informix-sqli://ifx01:9088/stores:INFORMIXSERVER=ol_ifx;user=informix;password=<{a62:14}>
IBM Db2|CLI connection string|DATABASE=SAMPLE;HOSTNAME=db2.{low:6}.lan;PORT=50000;PROTOCOL=TCPIP;UID=db2inst1;PWD=<{a62:16}>;
RavenDB|client certificate password|{pw}
FerretDB|mongodb url|mongodb://ferret:<{a62:24}>@ferretdb.{low:5}.svc:27017/ferretdb?authMechanism=PLAIN
Tarantool|uri|tarantool://admin:<{a62:18}>@tnt-{dig:2}.{low:6}.net:3301
Greenplum|gpadmin password|{pw}
Vertica|dbadmin connection|vertica://dbadmin:<{a62:16}>@vertica.{low:6}.io:5433/analytics
Exasol|sys password|{a62:20}
Teradata|logon string|.logon tdprod/etl_user,<{a62:14}>
Dremio|personal access token|{b64:86}
Trino|ldap password|{pw}
Apache Doris|root password|{pw}
Apache Druid|basic auth escalator password|{a62:24}
TDengine|taosd root password|{pw}
Apache IoTDB|root password|{pw}
kdb+|q process password|{a62:12}
EventStoreDB|connection string|esdb://admin:<{a62:20}>@events.{low:6}.local:2113?tls=true
RethinkDB|admin password|{pw}
OrientDB|root password|{pw}
Aerospike|enterprise password|{pw}
Hazelcast|cluster password|{a62:24}
Apache Ignite|thin client password|{pw}
Riak KV|admin password|{pw}
Workato|webhook url|https://webhooks.workato.com/webhooks/rest/<{uuid}>/order-created
Tray.io|webhook url|https://<{uuid}>.trayapp.io
Activepieces|webhook url|https://cloud.activepieces.com/api/v1/webhooks/<{a62:21}>
Huginn|webhook secret|https://huginn.{low:6}.net/users/1/web_requests/{dig:2}/<{a62:24}>
Duplicacy|storage password|{phrasesp:5}
Arq Backup|encryption password|{phrase:4}
Time Machine|disk encryption password|{pw}
MetaMask|wallet password|{pw}
Trezor|hidden wallet passphrase|{phrasesp:3}
Exodus|wallet password|{pw}
Phantom|wallet password|{pw}
Sparrow Wallet|bip39 passphrase|{phrase:3}
Cake Wallet|backup password|{pw}
Tresorit|account password|{phrasesp:4}
macOS|login keychain password|{pw}
Android keystore|upload key password|{pw}
BIOS|supervisor password|{pw}
GRUB|superuser password|{pw}
strongSwan|ipsec.secrets PSK|{b64:24}
Dell iDRAC|root password|{pw}
HPE iLO|administrator password|{A36:8}
VMware vCenter|administrator@vsphere.local password|{pw}
VMware ESXi|root password|{pw}
Hyper-V host|local admin password|{pw}
Citrix Gateway|nsroot password|{pw}
VNC server|viewer password|{a62:8}
TeamViewer|unattended access password|{pw}
AnyDesk|unattended access password|{pw}
RustDesk|permanent password|{a62:12}
Apache Guacamole|guacadmin password|{pw}
MeshCentral|login token key|{hex:160}
Pabbly Connect|webhook url|https://connect.pabbly.com/workflow/sendwebhookdata/<{a62:64}>
Integrately|webhook url|https://webhooks.integrately.com/a/webhooks/<{hex:32}>
Albato|webhook url|https://h.albato.com/wh/{dig:2}/<{a36:26}>
Cronhub|ping url|https://cronhub.io/ping/<{uuid}>
Rebrandly|api key in query|https://api.rebrandly.com/v1/links?apikey=<{hex:32}>
ValueSERP|api key in query|https://api.valueserp.com/search?api_key=<{HEX:32}>&q=pizza&location=Warsaw
DataForSEO|api password|{hex:16}
Semrush|api key in query|https://api.semrush.com/?type=domain_ranks&key=<{hex:32}>&domain=example.com
Visual Crossing|weather key in query|https://weather.visualcrossing.com/VisualCrossingWebServices/rest/services/timeline/Hanoi?key=<{A36:25}>
ipgeolocation.io|api key in query|https://api.ipgeolocation.io/ipgeo?apiKey=<{hex:32}>
ipdata|api key in query|https://api.ipdata.co/?api-key=<{hex:56}>
GNews|token in query|https://gnews.io/api/v4/search?q=bitcoin&lang=tr&token=<{hex:32}>
mediastack|access key in query|http://api.mediastack.com/v1/news?access_key=<{hex:32}>&countries=id
ExchangeRate-API|key in path|https://v6.exchangerate-api.com/v6/<{hex:24}>/latest/USD
Open Exchange Rates|app id in query|https://openexchangerates.org/api/latest.json?app_id=<{hex:32}>
Fixer|access key in query|http://data.fixer.io/api/latest?access_key=<{hex:32}>
CurrencyAPI|api key in query|https://api.currencyapi.com/v3/latest?apikey=<cur_live_{a62:40}>
ElephantSQL|postgres url|postgres://{low:8}:<{a62:32}>@{low:6}.db.elephantsql.com/{low:8}
Tembo|postgres url|postgresql://postgres:<{a62:16}>@org-{low:6}-inst-{low:6}.data-1.use1.tembo.io:5432/postgres
Nile|database url|postgres://{uuid}:<{uuid}>@eu-central-1.db.thenile.dev:5432/{low:6}
Prisma Accelerate|connection string|prisma://accelerate.prisma-data.net/?api_key=<{jwt}>
Redis Cloud|database url|redis://default:<{a62:32}>@redis-{dig:5}.c{dig:3}.eu-west-1-2.ec2.redns.redis-cloud.com:{dig:5}
MemCachier|password|{HEX:32}
CloudAMQP|amqp url|amqps://{low:8}:<{b64u:32}>@{low:5}.rmq.cloudamqp.com/{low:8}
StackHero|mysql root password|{a62:24}
Hyperping|heartbeat url|https://hc.hyperping.io/<tok_{a62:24}>
Statuspal|api key|{a62:40}
"""

# Words people build passwords and passphrases from, in several languages.
PW_WORDS = (
    "sunflower dragon kasztanek misiek istanbul galatasaray fenerbahce merdeka matahari "
    "saigon hanoi sakura tanuki haneul sarang solnyshko zvezda bayern liebe schatz amour "
    "chouchou corazon saudade flamengo benfica juventus ajax tigger pepper buster luna "
    "simba kiara mango papaya kopi nasi pho banhmi bulbul chai masala ganesh krishna "
    "priya noor yasmin habibi sultan anka kartal ayyildiz wisla legia zubr pierogi "
    "marzipan fjord viking oslo tulip gouda stroopwafel lisboa sevilla tango bossa "
    "samba kimchi bibimbap ramen onigiri totoro naruto pikachu spartak dinamo matryoshka"
).split()
NONASCII_PW_WORDS = ("Żółwik", "Güneş", "Łódź", "Sönke", "Ağaç", "Mañana", "Kraków")
PHRASE_WORDS = (
    "acorn anvil apron atlas badge bamboo banjo basil beacon birch bison blanket bonsai "
    "cabin cactus canyon carbon cedar chalk cherry cobalt comet coral cotton crater "
    "dolphin domino drift ember falcon fennel fiddle flint forest garnet ginger glacier "
    "granite gravel harbor hazel helmet honey iris ivory jasmine kettle lantern lemon "
    "lilac maple marble meadow mercury mosaic nectar nickel oasis olive orbit otter "
    "paddle pebble pepper pilot plume prism quartz quill raven ribbon river saffron "
    "salmon satin shadow sierra silver sparrow spruce summit tundra turnip velvet walnut "
    "willow yarrow zephyr kestrel lagoon mortar nutmeg pylon rafter sorrel thistle"
).split()


def rs(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def b64(nbytes: int, pad: bool = True, url: bool = False) -> str:
    raw = bytes(R.getrandbits(8) for _ in range(nbytes))
    out = (base64.urlsafe_b64encode if url else base64.b64encode)(raw).decode()
    return out if pad else out.rstrip("=")


def uuid4() -> str:
    h = rs("0123456789abcdef", 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{R.choice('89ab')}{h[17:20]}-{h[20:]}"


def jwt() -> str:
    head: dict[str, object] = {"alg": R.choice(["HS256", "RS256", "ES256", "HS512"]), "typ": "JWT"}
    if R.random() < 0.6:
        head["kid"] = rs(A62 + "-_", R.choice([8, 16, 22]))
    body = {
        "sub": rs(A36, R.randint(8, 24)),
        "iat": R.randint(1_700_000_000, 1_790_000_000),
        R.choice(["scope", "role", "aud", "tid"]): R.choice(["api", "admin", "rw", rs(LOWER, 6)]),
        "jti": rs(A62, 16),
    }

    def enc(d: dict[str, object]) -> str:
        return (
            base64.urlsafe_b64encode(json.dumps(d, separators=(",", ":")).encode())
            .decode()
            .rstrip("=")
        )

    return f"{enc(head)}.{enc(body)}.{b64(R.choice([32, 48, 64]), False, True)}"


def human_password() -> str:
    """A password as a person types it: words, a name, a year, a symbol, some leet."""
    w = R.choice(PW_WORDS)
    sym = R.choice("!@#$%*?-_.+=~^")
    year = str(R.choice([R.randint(1960, 2026), R.randint(10, 99), R.randint(100, 9999)]))
    pattern = R.randrange(9)
    if pattern == 0:
        out = w.capitalize() + year + sym
    elif pattern == 1:
        leet = w.translate(str.maketrans("aeios", "43105"))
        out = leet.capitalize() + sym + year
    elif pattern == 2:
        out = w + R.choice(PW_WORDS).capitalize() + year
    elif pattern == 3:
        out = R.choice(NONASCII_PW_WORDS) + year + sym
    elif pattern == 4:
        out = sym.join([w.capitalize(), R.choice(PW_WORDS), year])
    elif pattern == 5:
        out = w.upper()[:4] + rs(DIGITS, 4) + w[4:] + sym + sym
    elif pattern == 6:
        out = "".join(c.upper() if R.random() < 0.3 else c for c in w) + year + sym + rs(A62, 2)
    elif pattern == 7:
        out = f"{w.capitalize()}{sym}{R.choice(PW_WORDS).capitalize()}{sym}{year}"
    else:
        out = rs(A62, R.randint(10, 16)) + sym
    while len(out) < 10:
        out += rs(DIGITS, 1)
    return out


def phrase(n: int, sep: str = "-") -> str:
    words = [R.choice(PHRASE_WORDS) for _ in range(n)]
    if sep == "-" and R.random() < 0.4:
        sep = R.choice([".", "_", "-", "+"])
    if R.random() < 0.3:
        words[R.randrange(n)] += str(R.randint(1, 99))
    return sep.join(words)


def draw(spec: str) -> str:
    name, _, arg = spec.partition(":")
    n = int(arg) if arg.isdigit() else 0
    simple = {
        "a62": A62,
        "a36": A36,
        "A36": UPPER + DIGITS,
        "low": LOWER,
        "hex": "0123456789abcdef",
        "HEX": "0123456789ABCDEF",
        "dig": DIGITS,
        "b58": B58,
        "B32": B32,
        "bech": BECH,
    }
    if name in simple:
        out = rs(simple[name], n)
        return str(R.randint(1, 9)) + out[1:] if name == "dig" and n > 1 else out
    if name == "b64":
        return b64(n)
    if name == "b64n":
        return rs(A62 + "+/", n)
    if name == "b64u":
        return rs(A62 + "-_", n)
    if name == "uuid":
        return uuid4()
    if name == "UUID":
        return uuid4().upper()
    if name == "jwt":
        return jwt()
    if name == "pw":
        return human_password()
    if name == "phrase":
        return phrase(n)
    if name == "phrasesp":
        return phrase(n, " ")
    if name == "mnem":
        return " ".join(R.choice(PHRASE_WORDS) for _ in range(n))
    if name == "bytes":
        return ",".join(str(R.getrandbits(8)) for _ in range(n))
    raise ValueError(spec)


def make_value(shape: str) -> tuple[str, str]:
    """The value as pasted and the secret inside it (the part marked <...>, else all)."""
    out, start, end = "", None, None
    for m in re.finditer(r"\{([^}]+)\}|<|>|[^{<>]+", shape):
        tok = m.group(0)
        if tok == "<":
            start = len(out)
        elif tok == ">":
            end = len(out)
        elif m.group(1):
            out += draw(m.group(1))
        else:
            out += tok
    secret = out[start:end] if start is not None else out
    return out, secret


def shape_class(shape: str) -> str:
    """The value shape named in the docstring's breakdown."""
    if "<" in shape:
        return (
            "webhook or connection URL/string"
            if "//" in shape or "=" in shape
            else "inside a larger string"
        )
    body = re.sub(r"\{[^}]+\}", "", shape)
    if "{pw}" in shape:
        return "typed human password"
    if "{phrase" in shape or "{mnem" in shape:
        return "word passphrase or seed words"
    if re.fullmatch(r"\{dig:\d+\}", shape):
        return "PIN or digit code"
    if "{jwt}" in shape:
        return "JWT-like"
    if re.fullmatch(r"\{(uuid|UUID)\}", shape):
        return "UUID used as a key"
    if body.strip() and re.match(r"[A-Za-z0-9]", shape) and not shape.startswith("{"):
        return "vendor prefix + random"
    if re.fullmatch(r"\{(hex|HEX):\d+\}", shape):
        return "no-prefix hex"
    if re.fullmatch(r"\{(b64|b64n|b64u):\d+\}", shape):
        return "no-prefix base64"
    if re.fullmatch(r"\{(a62|a36|A36|low):\d+\}", shape):
        return "no-prefix alphanumeric"
    return "other structured (grouped, bytes, joined parts)"


class Ctx:
    """One secret to embed: its vendor, credential, names a program would use, value."""

    def __init__(self, vendor: str, cred: str, value: str, secret: str) -> None:
        self.vendor, self.cred, self.v, self.secret = vendor, cred, value, secret
        self.what = f"{vendor} {cred}"
        cwords = [w for w in re.findall(r"[A-Za-z0-9]+", cred) if w not in ("in", "and", "of")]
        words = re.findall(r"[A-Za-z0-9]+", vendor)[:2] + cwords[-2:]
        self.label = "_".join(words).upper()
        self.key = self.label.lower()
        self.camel = words[0].lower() + "".join(w.capitalize() for w in words[1:])
        self.slug = "-".join(re.findall(r"[a-z0-9]+", vendor.lower()))[:20] or "svc"
        self.user = R.choice(["admin", "deploy", "svc_app", "ops", "ci-bot", "root", "etl", "app"])
        self.host = f"{R.choice(['db', 'api', 'mq', 'cache', 'core'])}{R.randint(1, 9)}.{R.choice(['int', 'prod', 'lan', 'corp'])}.{R.choice(['acme', 'nimbus', 'kato', 'brava', 'lumen'])}.net"

    @property
    def urlsafe(self) -> bool:
        return re.fullmatch(r"[A-Za-z0-9._~-]+", self.v) is not None

    @property
    def oneword(self) -> bool:
        return " " not in self.v


def sq(v: str) -> str:
    """Shell-quoted as a person would: single quotes when anything looks special."""
    return f"'{v}'" if re.search(r"[^A-Za-z0-9._/:@%+=,-]", v) else v


def pick(*xs: str) -> str:
    return R.choice(xs)


# A person's own passwords, PINs and device codes: said in chat, kept in notes and tables.
PERSONAL = re.compile(
    r"^password$|account password|\bPIN\b|passcode|PUK|master password|mailbox password|login password|"
    r"app password|payment password|volume password|owner password|protection password|"
    r"student password|wallet password|wallet passphrase|keychain|master code|keypad code|"
    r"opener code|WPA2|network key|recovery code|unattended access|permanent password|"
    r"disk encryption|backup password|bip39 passphrase"
)
PERSONAL_FORMS = {
    "chat: personal notes pasted",
    "forwarded email",
    "spreadsheet paste (TSV)",
    "markdown table",
    "device config",
}
PERSONAL_CHAT = {
    "en": [
        "my {what} is {v} — can you remember it for me?",
        "{what}: {v} (just so I don't forget)",
        "if you need it, the {what} is {v}",
        "note: {what} = {v}",
        "btw my {what} is {v} if the setup script asks",
    ],
    "es": ["mi {what} es {v}, apúntalo por si lo olvido"],
    "fr": ["mon {what} c'est {v}, garde-le quelque part"],
    "de": ["mein {what} ist {v}, merk dir das bitte"],
    "pt": ["meu {what} é {v}, anota aí"],
    "it": ["il mio {what} è {v}"],
    "nl": ["mijn {what} is {v}"],
    "ru": ["мой {what}: {v}, запомни, пожалуйста"],
    "uk": ["мій {what}: {v}"],
    "pl": ["mój {what} to {v}, zapisz gdzieś"],
    "tr": ["{what} şu: {v}, not al lütfen"],
    "ar": ["{what} الخاص بي هو {v}"],
    "hi": ["मेरा {what} {v} है, याद रखना"],
    "hinglish": ["mera {what} {v} hai yaad rakhna"],
    "zh": ["我的{what}是 {v}，帮我记一下"],
    "ja": ["{what}は {v} です。メモしておいて"],
    "ko": ["제 {what}는 {v} 예요, 기억해 주세요"],
    "id": ["{what} aku {v}, tolong dicatat ya"],
    "vi": ["{what} của mình là {v}, ghi nhớ giúp nhé"],
    "th": ["{what} ของฉันคือ {v} ช่วยจำไว้ด้วย"],
    "fa": ["{what} من {v} است"],
    "sv": ["min {what} är {v}"],
    "he": ["ה-{what} שלי הוא {v}"],
    "cs": ["můj {what} je {v}"],
}


# -- chat prose, in the languages people write to coding agents
CHAT = {
    "en": [
        "`{v}` ← {vendor}, put it in the vault please",
        "{v}\n\nthat's the {what}. the old one got revoked",
        'Quick one: is "{v}" the right format for a {what}? it keeps getting rejected',
        "login: {user} / {v}",
        "lol I pasted the wrong thing, the real {what} is {v}",
        "PIN for the {vendor} thing is {v}, don't store it anywhere",
        "Hey! Could you update the staging env? New {what}: {v}. Thanks!!",
        "here's the {what}: {v} — can you wire it into the config?",
        "use this {what} for now {v} I'll rotate it later",
        "ok the {vendor} one is {v}",
        "My {what} is {v}, why does the API still return 401?",
        "I set {label} to {v} but the build still fails, any idea?",
        "forgot to mention, {vendor} creds: {v}",
        "test with {v} (that's the {what}, staging only)",
        "can you check if this {vendor} key works? {v}",
        "password for {vendor} is {v} pls log in and grab the invoice export",
        "my {vendor} password is {v}, can you log in and check the settings page?",
        "The client sent their {what} over email, it's {v}. Add it to the secrets manager and reference it from the worker.",
    ],
    "es": [
        "usuario {user} y contraseña {v}",
        "te paso el token de {vendor}: `{v}` (no lo subas al repo)",
        "Aquí tienes la {what}: {v}. ¿Puedes añadirla al archivo .env?",
        "mi {what} es {v} y me sigue dando error 401",
        "Usa esta clave de {vendor} por ahora: {v}",
        "la contraseña de {vendor} es {v}, no la compartas",
    ],
    "fr": [
        "identifiant {user}, mot de passe {v}",
        "Le token {vendor} a expiré, le nouveau : `{v}`",
        "Voici la clé {vendor} : {v} — tu peux la mettre dans la config ?",
        "mon mot de passe {vendor} c'est {v}",
        "J'ai mis {label}={v} mais ça plante toujours, tu vois pourquoi ?",
    ],
    "de": [
        "Zugangsdaten {vendor}: Benutzer {user}, Passwort {v}",
        "neuer Token für {vendor} → {v} (der alte ist gesperrt)",
        "Hier ist der {what}: {v} – bitte in die .env eintragen.",
        "das Passwort für {vendor} ist {v}",
        "Ich hab den Schlüssel von {vendor} ({v}) gesetzt, trotzdem 403",
    ],
    "pt": [
        "login {user} senha {v}",
        "o token novo do {vendor} é {v}, o antigo expirou",
        "Segue a chave do {vendor}: {v}",
        "minha senha do {vendor} é {v}, pode testar o login?",
        "coloca esse token do {vendor} no .env: {v}",
    ],
    "it": [
        "Ecco la chiave {vendor}: {v}, mettila nel file di configurazione",
        "la password di {vendor} è {v}",
    ],
    "nl": ["Hier is de {vendor} sleutel: {v}", "mijn wachtwoord voor {vendor} is {v}"],
    "ru": [
        "логин {user}, пароль {v}",
        "кинь в .env вот это: {label}={v}",
        "ключ от {vendor} поменялся, новый — `{v}`",
        "Вот ключ {vendor}: {v} — добавь его в конфиг, пожалуйста",
        "пароль от {vendor}: {v}",
        "токен {vendor} {v}, почему всё равно 401?",
        "используй этот секрет: {v} (это {what})",
    ],
    "uk": ["Ось токен {vendor}: {v}, додай його в .env", "мій пароль до {vendor} — {v}"],
    "pl": [
        "login {user}, hasło {v} — sprawdź czy działa",
        "nowy token {vendor}: `{v}`, stary wygasł",
        "Tu masz klucz do {vendor}: {v}, wrzuć go do .env",
        "hasło do {vendor} to {v}",
        "ustaw {label} na {v} i odpal testy",
    ],
    "tr": [
        "kullanıcı adı {user} şifre {v}",
        "yeni {vendor} token'ı: `{v}` eskisi iptal edildi",
        "{vendor} anahtarım şu: {v}, .env dosyasına ekler misin?",
        "{vendor} şifrem {v}, giriş yapamıyorum",
        "şu token'ı kullan: {v} ({vendor} için)",
    ],
    "ar": [
        "اسم المستخدم {user} وكلمة المرور {v}",
        "التوكن الجديد لـ {vendor} هو `{v}`",
        "هذا مفتاح {vendor}: {v} أضفه إلى ملف الإعدادات من فضلك",
        "كلمة المرور الخاصة بـ {vendor} هي {v}",
    ],
    "hi": [
        "यूज़र {user} पासवर्ड {v}",
        "{vendor} का नया token `{v}` है, पुराना expire हो गया",
        "यह रहा {vendor} का key: {v} इसे .env में डाल दो",
        "मेरा {vendor} पासवर्ड {v} है",
    ],
    "hinglish": [
        "user {user} pass {v} hai",
        "naya {vendor} token `{v}` hai purana expire ho gaya",
        "bhai {vendor} ka key ye hai {v} isko config me daal do",
        "mera {vendor} password {v} hai, login nahi ho raha",
    ],
    "zh": [
        "账号 {user} 密码 {v}",
        "{vendor}的新token是 `{v}`，旧的已经失效了",
        "把 {label}={v} 加到环境变量里",
        "这是{vendor}的密钥：{v}，帮我加到配置文件里",
        "{vendor} 的密码是 {v}",
        "用这个token：{v} 测试一下{vendor}的接口",
    ],
    "ja": [
        "ユーザー名 {user} / パスワード {v}",
        "{vendor}の新しいトークン `{v}` に差し替えてください",
        "{vendor}のAPIキーは {v} です。.envに追加してください",
        "{vendor}のパスワード：{v}",
        "このトークン使って → {v}（{vendor}の）",
    ],
    "ko": [
        "아이디 {user} 비밀번호 {v}",
        "{vendor} 새 토큰 `{v}` 로 교체해 주세요",
        "{vendor} 키는 {v} 입니다. 설정 파일에 넣어 주세요",
        "{vendor} 비밀번호는 {v} 이에요",
    ],
    "id": [
        "user {user} pass {v}",
        "token {vendor} yang baru `{v}`, yang lama sudah expired",
        "Ini kunci {vendor}: {v}, tolong masukkan ke .env ya",
        "password {vendor} aku {v}",
    ],
    "vi": [
        "tài khoản {user} mật khẩu {v}",
        "token mới của {vendor} là `{v}` nhé",
        "Đây là khóa {vendor}: {v}, thêm vào file .env giúp mình",
        "mật khẩu {vendor} của tôi là {v}",
    ],
    "th": ["นี่คือคีย์ของ {vendor}: {v} ช่วยใส่ในไฟล์ .env ให้หน่อย", "รหัสผ่าน {vendor} ของฉันคือ {v}"],
    "fa": [
        "این کلید {vendor} است: {v} لطفاً به فایل تنظیمات اضافه کن",
        "رمز عبور {vendor} من {v} است",
    ],
    "sv": ["Här är {vendor}-nyckeln: {v}, lägg in den i .env", "lösenordet till {vendor} är {v}"],
    "he": ["הנה המפתח של {vendor}: {v} תוסיף אותו לקובץ ההגדרות", "הסיסמה של {vendor} היא {v}"],
    "cs": ["Tady je klíč k {vendor}: {v}, dej ho do .env", "heslo do {vendor} je {v}"],
}


PW_WORDS_IN_CHAT = re.compile(
    "password|PIN|contraseña|mot de passe|Passwort|senha|пароль|hasło|şifre|كلمة المرور|رمز عبور|"
    "पासवर्ड|密码|パスワード|비밀번호|mật khẩu|wachtwoord|รหัสผ่าน|lösenord|סיסמה|heslo|мій пароль| pass |login: "
)


def is_password(cred: str) -> bool:
    return (
        re.search(
            r"password|passcode|\bPIN\b|PUK|master code|keypad code|opener code|passphrase|PSK|logon",
            cred,
        )
        is not None
    )


def chat(lang: str):
    def f(c: Ctx) -> str:
        if PERSONAL.search(c.cred):
            return R.choice(PERSONAL_CHAT[lang]).format(what=c.what, v=c.v)
        want = is_password(c.cred)
        fits = [t for t in CHAT[lang] if (PW_WORDS_IN_CHAT.search(t) is not None) == want]
        return R.choice(fits or CHAT[lang]).format(
            what=c.what, vendor=c.vendor, v=c.v, label=c.label, user=c.user
        )

    return f


def chat_error(c: Ctx) -> str:
    return (
        f"still broken:\n\n```\n$ node scripts/sync.js\nError: request failed with status 401\n"
        f"    at {c.camel}Client.request (src/clients/{c.slug}.js:42:11)\n```\n\n"
        f"I'm definitely using the right key ({c.v}) — can you look?"
    )


def chat_dictated(c: Ctx) -> str:
    return f"ok so the {c.what} is {c.v} put that in the env file and then run the migration again thanks"


def chat_list(c: Ctx) -> str:
    return (
        f"Credentials for the {c.vendor} sandbox:\n- account: {c.user}@{c.host.split('.', 1)[1]}\n"
        f"- {c.cred}: {c.v}\n- region: {pick('eu-central', 'ap-southeast-1', 'us-east', 'sa-east-1')}\n"
        "Please set up the integration test with these."
    )


def chat_codeblock(c: Ctx) -> str:
    return f"my config looks like this:\n```\n{c.label}={c.v}\nLOG_LEVEL=debug\n```\nwhat's wrong with it?"


def chat_note(c: Ctx) -> str:
    return (
        f"note to self (copied from my phone notes):\n{c.vendor.lower()} -> {c.v}\n"
        f"{pick('netflix', 'gym locker', 'school wifi')} -> {pick('ask Ana', 'same as before', 'on the fridge')}"
    )


# -- config files
def dotenv(c: Ctx) -> str:
    v = f'"{c.v}"' if not c.oneword else c.v
    return f"# {c.vendor}\nPORT=8080\nNODE_ENV=production\n{c.label}={v}\nLOG_LEVEL=info\n"


def dotenv_comment(c: Ctx) -> str:
    return f"{c.label}='{c.v}'  # {pick('prod', 'rotated 2026-11', 'from Ayşe', 'do not commit')}\n"


def yaml_nested(c: Ctx) -> str:
    path = R.sample(
        [
            "app",
            "services",
            "integrations",
            "prod",
            "default",
            c.slug.replace("-", "_"),
            "auth",
            "credentials",
            "providers",
            "backend",
            "secrets",
            "vendors",
        ],
        R.randint(1, 5),
    )
    lines = []
    for depth, key in enumerate(path):
        lines.append("  " * depth + f"{key}:")
        if R.random() < 0.4:
            lines.append("  " * (depth + 1) + f"enabled: {pick('true', 'false')}")
    d = len(path)
    lines.append("  " * d + f"endpoint: https://{c.host}/v{R.randint(1, 3)}")
    lines.append("  " * d + f'{c.key.split("_", 1)[-1] if "_" in c.key else c.key}: "{c.v}"')
    lines.append("  " * d + f"timeout: {R.randint(3, 60)}s")
    return "\n".join(lines) + "\n"


def json_nested(c: Ctx) -> str:
    leaf: object = {"url": f"https://{c.host}", c.camel: c.v, "retries": R.randint(1, 5)}
    for key in R.sample(
        ["config", "integrations", c.slug, "prod", "settings", "auth", "env"], R.randint(1, 4)
    ):
        leaf = {key: leaf}
    return json.dumps(leaf, indent=R.choice([2, 4]), ensure_ascii=False)


def toml(c: Ctx) -> str:
    return f'[{c.slug.replace("-", "_")}]\nbase_url = "https://{c.host}"\n{c.key} = "{c.v}"\nverify_tls = true\n'


def ini(c: Ctx) -> str:
    return f"[{c.vendor}]\nhost = {c.host}\nuser = {c.user}\n{pick('password', 'secret', 'key', 'token')} = {c.v}\n"


def properties(c: Ctx) -> str:
    return f"# application-prod.properties\n{c.slug.replace('-', '.')}.base-url=https://{c.host}\n{c.slug.replace('-', '.')}.{c.cred.split()[-1].lower()}={c.v}\n"


def xml_cfg(c: Ctx) -> str:
    return f'<appSettings>\n  <add key="{c.vendor}:Endpoint" value="https://{c.host}" />\n  <add key="{c.vendor}:{c.camel}" value="{c.v}" />\n</appSettings>'


def spring(c: Ctx) -> str:
    return (
        f"spring:\n  profiles: prod\n{c.slug}:\n  client:\n    id: {c.user}\n    {c.camel}: {c.v}\n"
    )


def compose(c: Ctx) -> str:
    return (
        f"services:\n  worker:\n    image: ghcr.io/acme/worker:1.{R.randint(0, 30)}.{R.randint(0, 9)}\n"
        f"    environment:\n      - {c.label}={c.v}\n      - QUEUE=default\n"
    )


def k8s_secret(c: Ctx) -> str:
    return (
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {c.slug}-creds\n  namespace: {pick('prod', 'payments', 'default', 'edge')}\n"
        f'type: Opaque\nstringData:\n  {c.label}: "{c.v}"\n'
    )


def helm_set(c: Ctx) -> str:
    return f"helm upgrade --install api ./chart -n prod --set {c.slug}.{c.camel}={sq(c.v)} --set image.tag=v{R.randint(1, 9)}.{R.randint(0, 20)}"


def tfvars(c: Ctx) -> str:
    return f'region      = "eu-west-3"\n{c.key} = "{c.v}"\ninstance_count = {R.randint(1, 6)}\n'


def hcl_provider(c: Ctx) -> str:
    return f'provider "{c.slug.replace("-", "")}" {{\n  endpoint = "https://{c.host}"\n  {c.key.split("_", 1)[-1]} = "{c.v}"\n}}\n'


def gha(c: Ctx) -> str:
    return (
        f"jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      {c.label}: {c.v}\n"
        "    steps:\n      - uses: actions/checkout@v4\n      - run: make deploy\n"
    )


def gitlab_ci(c: Ctx) -> str:
    return f'variables:\n  {c.label}: "{c.v}"\n\ndeploy:\n  stage: deploy\n  script:\n    - ./deploy.sh\n'


def dockerfile(c: Ctx) -> str:
    return f'FROM python:3.12-slim\nWORKDIR /app\nENV {c.label}={sq(c.v)}\nCOPY . .\nCMD ["python", "main.py"]\n'


def jenkinsfile(c: Ctx) -> str:
    return f"pipeline {{\n  agent any\n  environment {{\n    {c.label} = '{c.v}'\n  }}\n  stages {{ stage('Build') {{ steps {{ sh 'make' }} }} }}\n}}\n"


def nginx(c: Ctx) -> str:
    return f'location /api/ {{\n    proxy_pass https://{c.host};\n    proxy_set_header X-Api-Key "{c.v}";\n}}\n'


def systemd(c: Ctx) -> str:
    return f'[Service]\nExecStart=/usr/local/bin/{c.slug}-agent\nEnvironment="{c.label}={c.v}"\nRestart=always\n'


def crontab(c: Ctx) -> str:
    return f"*/15 * * * * {c.label}={sq(c.v)} /opt/jobs/sync.sh >> /var/log/sync.log 2>&1"


def netrc(c: Ctx) -> str:
    return f"machine {c.host}\n  login {c.user}\n  password {c.v}\n"


def device_cfg(c: Ctx) -> str:
    if "Wi-Fi" not in c.vendor:
        return f"# /etc/{c.slug}.conf\nadmin_user={c.user}\nadmin_password={c.v}\nlisten=0.0.0.0:8443\n"
    return pick(
        f'network={{\n    ssid="{pick("Dom_5G", "FRITZ!Box 7590 XY", "TP-Link_3F2A", "Keluarga", "Ev_Wifi")}"\n    psk="{c.v}"\n}}\n',
        f"# /etc/{c.slug}.conf\nadmin_user={c.user}\nadmin_password={c.v}\nlisten=0.0.0.0:8443\n",
    )


def makefile(c: Ctx) -> str:
    return f"{c.label} ?= {c.v}\n\nrun:\n\t{c.label}=$({c.label}) go run ./cmd/server\n"


def ansible(c: Ctx) -> str:
    return f'---\n{c.key}: "{c.v}"\n{c.slug.replace("-", "_")}_host: {c.host}\n'


def plist(c: Ctx) -> str:
    return f"<dict>\n    <key>{c.camel[0].upper() + c.camel[1:]}</key>\n    <string>{c.v}</string>\n</dict>"


def gradle_props(c: Ctx) -> str:
    return f"org.gradle.jvmargs=-Xmx2g\n{c.camel}={c.v}\nandroid.useAndroidX=true\n"


def elixir(c: Ctx) -> str:
    return f'config :my_app, MyApp.{c.camel[0].upper() + c.camel[1:]},\n  base_url: "https://{c.host}",\n  {c.key}: "{c.v}"\n'


def lua(c: Ctx) -> str:
    return f'return {{\n  host = "{c.host}",\n  {c.key} = "{c.v}",\n}}\n'


# -- shell sessions and CLI output
def export(c: Ctx) -> str:
    return f"$ export {c.label}={sq(c.v)}\n$ npm run dev\n> next dev\n  ▲ Next.js ready on http://localhost:3000"


def docker_run(c: Ctx) -> str:
    return f"docker run -d --name {c.slug} -e {c.label}={sq(c.v)} -p 8080:8080 acme/{c.slug}:latest"


def kubectl(c: Ctx) -> str:
    return f"kubectl -n prod create secret generic {c.slug}-creds --from-literal={c.key}={sq(c.v)}"


def curl_header(c: Ctx) -> str:
    h = pick("Authorization: Bearer ", "X-API-Key: ", "X-Auth-Token: ", "Api-Key: ")
    return f'curl -s https://{c.host}/v1/status -H "{h}{c.v}" | jq .'


def curl_u(c: Ctx) -> str:
    return f"curl -u {c.user}:{sq(c.v)} https://{c.host}/api/export -o export.csv"


def httpie(c: Ctx) -> str:
    return f"http POST https://{c.host}/v2/orders {pick('Authorization', 'X-Secret')}:'{c.v}' amount=100"


def powershell(c: Ctx) -> str:
    return f'PS C:\\src\\shop> $env:{c.label} = "{c.v}"\nPS C:\\src\\shop> dotnet run'


def cmd_set(c: Ctx) -> str:
    return f"C:\\work> set {c.label}={c.v}\nC:\\work> python manage.py runserver"


def env_grep(c: Ctx) -> str:
    return f"$ env | grep -i {c.slug.split('-')[0]}\n{c.label}={c.v}\n{c.label.rsplit('_', 1)[0]}_URL=https://{c.host}"


def db_cli(c: Ctx) -> str:
    return pick(
        f"$ mysql -h {c.host} -u {c.user} -p'{c.v}' shop\nmysql: [Warning] Using a password on the command line interface can be insecure.",
        f"$ PGPASSWORD='{c.v}' psql -h {c.host} -U {c.user} app\npsql (16.4)\napp=>",
        f"$ redis-cli -h {c.host}\n{c.host}:6379> AUTH {c.v}\nOK",
    )


def cli_json(c: Ctx) -> str:
    out = {
        "id": rs(A36, 12),
        "name": f"{c.slug}-ci",
        c.camel: c.v,
        "created_at": "2026-11-30T09:14:02Z",
    }
    return f"$ {c.slug} credentials create --name {c.slug}-ci --output json\n" + json.dumps(
        out, indent=2, ensure_ascii=False
    )


def cli_table(c: Ctx) -> str:
    return (
        f"$ {c.slug} keys list --show-secret\nNAME        CREATED      VALUE\n"
        f"ci-deploy   2026-10-02   {c.v}\nold-laptop  2025-03-17   (revoked)"
    )


def vault_out(c: Ctx) -> str:
    return f"$ vault kv get secret/{c.slug}\n====== Data ======\nKey        Value\n---        -----\n{c.key:<10} {c.v}\nowner      {c.user}"


def tf_output(c: Ctx) -> str:
    return f"$ terraform output -raw {c.key}\n{c.v}"


# -- code
def py_code(c: Ctx) -> str:
    return f'import {c.slug.replace("-", "_")}\n\nclient = {c.slug.replace("-", "_")}.Client(\n    {c.key.split("_", 1)[-1]}="{c.v}",\n    timeout=30,\n)\n'


def js_code(c: Ctx) -> str:
    return f"const {c.camel} = '{c.v}';\n\nexport const client = new {c.camel[0].upper() + c.camel[1:]}Client({{ {c.camel}, region: 'eu' }});\n"


def go_code(c: Ctx) -> str:
    return f'cfg := {c.slug.replace("-", "")}.Config{{\n\tBaseURL: "https://{c.host}",\n\tSecret:  "{c.v}",\n}}\n'


def rust_code(c: Ctx) -> str:
    return (
        f'const {c.label}: &str = "{c.v}";\n\nfn client() -> Client {{ Client::new({c.label}) }}\n'
    )


def java_code(c: Ctx) -> str:
    return f'private static final String {c.label} = "{c.v}";\n\nHttpRequest req = HttpRequest.newBuilder(URI.create("https://{c.host}"))\n    .header("Authorization", "Bearer " + {c.label}).build();'


def csharp(c: Ctx) -> str:
    return f'services.Configure<{c.camel[0].upper() + c.camel[1:]}Options>(o =>\n{{\n    o.Endpoint = "https://{c.host}";\n    o.Secret = "{c.v}";\n}});'


def php(c: Ctx) -> str:
    return f"<?php\nreturn [\n    '{c.slug}' => [\n        '{c.key}' => '{c.v}',\n    ],\n];\n"


def ruby(c: Ctx) -> str:
    return f"{c.camel[0].upper() + c.camel[1:]}.configure do |config|\n  config.{c.key} = '{c.v}'\nend\n"


def kotlin(c: Ctx) -> str:
    return f'object Keys {{\n    const val {c.label} = "{c.v}"\n}}\n'


def swift(c: Ctx) -> str:
    return f'enum Secrets {{\n    static let {c.camel} = "{c.v}"\n}}\n'


def dart(c: Ctx) -> str:
    return f"const String {c.camel} = '{c.v}';\n"


def c_define(c: Ctx) -> str:
    return f'#define WIFI_SSID "lab-iot"\n#define {c.label} "{c.v}"\n'


def perl(c: Ctx) -> str:
    return f"my %cfg = (\n    host => '{c.host}',\n    {c.key} => '{c.v}',\n);\n"


def sql_insert(c: Ctx) -> str:
    return f"INSERT INTO integration_credentials (tenant_id, provider, secret, created_at)\nVALUES ({R.randint(1, 900)}, '{c.slug}', '{c.v}', now());"


def sql_user(c: Ctx) -> str:
    return pick(
        f"CREATE USER {c.user.replace('-', '_')} WITH PASSWORD '{c.v}';",
        f"ALTER ROLE reporting PASSWORD '{c.v}' VALID UNTIL '2027-01-01';",
        f"CREATE USER '{c.user}'@'%' IDENTIFIED BY '{c.v}';",
    )


def mongo_shell(c: Ctx) -> str:
    return f'db.createUser({{ user: "{c.user}", pwd: "{c.v}", roles: ["readWrite"] }})'


def graphql_vars(c: Ctx) -> str:
    return (
        "mutation Connect($input: ConnectInput!) { connect(input: $input) { ok } }\n"
        + json.dumps({"input": {"provider": c.slug, "secret": c.v}}, indent=2, ensure_ascii=False)
    )


def repl(c: Ctx) -> str:
    return f">>> settings.{c.slug.replace('-', '_').upper()}\n{{'endpoint': 'https://{c.host}', '{c.key}': '{c.v}', 'timeout': 30}}"


# -- logs, documents, data
def log_line(c: Ctx) -> str:
    return (
        f"2026-12-0{R.randint(1, 6)}T0{R.randint(0, 9)}:{R.randint(10, 59)}:{R.randint(10, 59)}.{R.randint(100, 999)}Z "
        f"{pick('DEBUG', 'INFO', 'WARN')} {c.slug}.client request url=https://{c.host}/v1/sync {c.key}={c.v} status={pick('200', '401', '503')}"
    )


def json_log(c: Ctx) -> str:
    return json.dumps(
        {
            "ts": "2026-12-04T11:02:45Z",
            "level": "debug",
            "msg": "outbound request",
            "headers": {"authorization": f"Bearer {c.v}"},
            "svc": c.slug,
        },
        ensure_ascii=False,
    )


def traceback(c: Ctx) -> str:
    return (
        "Traceback (most recent call last):\n"
        f'  File "/srv/app/{c.slug.replace("-", "_")}.py", line {R.randint(20, 300)}, in sync\n'
        "    resp.raise_for_status()\n"
        f"requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://{c.host}/v1/items?key={c.v}"
    )


def md_table(c: Ctx) -> str:
    return (
        f"| service | user | secret |\n|---|---|---|\n| {c.vendor} | {c.user} | {c.v} |\n"
        f"| grafana | viewer | (SSO) |\n"
    )


def tsv(c: Ctx) -> str:
    return f"system\tlogin\tpassword\tnotes\n{c.vendor}\t{c.user}\t{c.v}\tshared with finance\n"


def csv_row(c: Ctx) -> str:
    return f"env,provider,credential\nprod,{c.slug},{c.v}\n"


def diff(c: Ctx) -> str:
    return (
        f"diff --git a/config/{c.slug}.yml b/config/{c.slug}.yml\n--- a/config/{c.slug}.yml\n+++ b/config/{c.slug}.yml\n"
        f"@@ -3,4 +3,4 @@ {c.slug}:\n   endpoint: https://{c.host}\n-  {c.key}: CHANGE_ME\n+  {c.key}: {c.v}\n   timeout: 30\n"
    )


def commit_msg(c: Ctx) -> str:
    return f"commit {rs('0123456789abcdef', 40)}\nAuthor: Dev <dev@example.org>\n\n    wire up {c.vendor} ({c.cred} {c.v})\n"


def notebook(c: Ctx) -> str:
    cell = {
        "cell_type": "code",
        "execution_count": R.randint(1, 40),
        "metadata": {},
        "source": [f'{c.key} = "{c.v}"\n', f"client = Client({c.key})\n"],
        "outputs": [],
    }
    return json.dumps(cell, indent=1, ensure_ascii=False)


def http_file(c: Ctx) -> str:
    return f"### list orders\nGET https://{c.host}/v1/orders?limit=5\nAuthorization: Bearer {c.v}\nAccept: application/json\n"


def raw_http(c: Ctx) -> str:
    return f'POST /v1/charges HTTP/1.1\r\nHost: {c.host}\r\nX-Secret-Key: {c.v}\r\nContent-Type: application/json\r\n\r\n{{"amount": 1250}}'


def query_url(c: Ctx) -> str:
    return f"https://{c.host}/api/v2/report.json?{pick('api_key', 'key', 'token', 'access_token', 'secret')}={c.v}&from=2026-11-01"


def conn_url(c: Ctx) -> str:
    scheme = pick("postgresql", "mysql", "mongodb", "redis", "amqp", "sftp")
    return f"{scheme}://{c.user}:{c.v}@{c.host}:{R.randint(1024, 9999)}/{c.slug.replace('-', '_')}"


def email(c: Ctx) -> str:
    return (
        f"---------- Forwarded message ---------\nFrom: IT Helpdesk <it@{c.host.split('.', 1)[1]}>\n"
        f"Subject: Your {c.vendor} access\n\nHi,\nyour {c.cred} is: {c.v}\nPlease change it after first login.\n"
    )


def chat_quote(c: Ctx) -> str:
    return f"> [{pick('#ops', '#dev', 'DM')}] {pick('Kenji', 'Oksana', 'Mehmet', 'Dewi', 'Ravi')} 10:42\n> {c.vendor} {c.cred} for the new env: {c.v}\n\ncan you use the above?"


# -- agent transcripts: tool calls and their output as agents show them
def tool_call(c: Ctx) -> str:
    cmd = f"{c.label}={sq(c.v)} python scripts/check_{c.slug.replace('-', '_')}.py"
    inner = json.dumps({"command": cmd, "description": "run the check"}, ensure_ascii=False)
    return json.dumps({"type": "tool_use", "name": "Bash", "input": inner}, ensure_ascii=False)


def tool_result(c: Ctx) -> str:
    body = f"cat .env.local\n{c.label}={c.v}\nDEBUG=1"
    return json.dumps(
        {
            "type": "tool_result",
            "tool_use_id": "toolu_" + rs(A62, 20),
            "content": [{"type": "text", "text": body}],
        },
        ensure_ascii=False,
    )


def tool_edit(c: Ctx) -> str:
    return json.dumps(
        {
            "name": "Edit",
            "arguments": json.dumps(
                {
                    "file_path": f"/src/app/config/{c.slug}.ts",
                    "old_string": f"{c.camel}: ''",
                    "new_string": f"{c.camel}: '{c.v}'",
                },
                ensure_ascii=False,
            ),
        },
        ensure_ascii=False,
    )


def tool_read(c: Ctx) -> str:
    lines = [
        "[default]",
        f"region = {pick('eu-north-1', 'ap-south-1', 'me-central-1')}",
        f"{c.key} = {c.v}",
        "output = json",
    ]
    body = "".join(f"{i:>6}\u2192{x}\n" for i, x in enumerate(lines, 1))
    return json.dumps(
        {"type": "tool_result", "tool_use_id": "toolu_" + rs(A62, 20), "content": body},
        ensure_ascii=False,
    )


def tool_exec(c: Ctx) -> str:
    out = json.dumps(
        {
            "output": f"{c.label}={c.v}\nWORKERS=4\n",
            "metadata": {"exit_code": 0, "duration_seconds": 0.1},
        },
        ensure_ascii=False,
    )
    return json.dumps(
        {"type": "function_call_output", "call_id": "call_" + rs(A62, 24), "output": out},
        ensure_ascii=False,
    )


FORMS = [  # name, weight, builder, needs (oneword, urlsafe, pw, token)
    *[
        (f"chat prose ({lang})", w, chat(lang), None)
        for lang, w in [
            ("en", 40),
            ("es", 6),
            ("fr", 5),
            ("de", 5),
            ("pt", 5),
            ("it", 3),
            ("nl", 2),
            ("ru", 6),
            ("uk", 2),
            ("pl", 4),
            ("tr", 4),
            ("ar", 3),
            ("hi", 3),
            ("hinglish", 3),
            ("zh", 6),
            ("ja", 5),
            ("ko", 3),
            ("id", 4),
            ("vi", 3),
            ("th", 2),
            ("fa", 2),
            ("sv", 2),
            ("he", 2),
            ("cs", 2),
        ]
    ],
    ("chat: error report", 4, chat_error, None),
    ("chat: dictated, no punctuation", 3, chat_dictated, None),
    ("chat: credential list", 4, chat_list, None),
    ("chat: config in a code block", 4, chat_codeblock, None),
    ("chat: personal notes pasted", 2, chat_note, None),
    ("chat: quoted team message", 3, chat_quote, None),
    ("forwarded email", 2, email, None),
    (".env file", 10, dotenv, None),
    (".env line with comment", 4, dotenv_comment, None),
    ("YAML, nested", 8, yaml_nested, None),
    ("JSON, nested", 7, json_nested, None),
    ("TOML", 3, toml, None),
    ("INI", 3, ini, None),
    ("Java .properties", 2, properties, None),
    ("XML appSettings", 2, xml_cfg, None),
    ("Spring application.yml", 2, spring, "oneword"),
    ("docker-compose environment", 3, compose, "oneword"),
    ("Kubernetes Secret stringData", 3, k8s_secret, None),
    ("helm --set", 2, helm_set, None),
    ("terraform.tfvars", 2, tfvars, None),
    ("HCL provider block", 2, hcl_provider, None),
    ("GitHub Actions env", 2, gha, "oneword"),
    (".gitlab-ci.yml variables", 2, gitlab_ci, None),
    ("Dockerfile ENV", 2, dockerfile, None),
    ("Jenkinsfile environment", 1, jenkinsfile, None),
    ("nginx config", 1, nginx, "token"),
    ("systemd unit", 1, systemd, None),
    ("crontab", 1, crontab, None),
    (".netrc", 1, netrc, "oneword pw"),
    ("device config", 2, device_cfg, "pw"),
    ("Makefile", 1, makefile, "oneword"),
    ("Ansible vars", 1, ansible, None),
    ("plist", 1, plist, None),
    ("gradle.properties", 1, gradle_props, "oneword"),
    ("Elixir config", 1, elixir, None),
    ("Lua config", 1, lua, None),
    ("shell export session", 6, export, None),
    ("docker run -e", 2, docker_run, None),
    ("kubectl create secret", 2, kubectl, None),
    ("curl header", 4, curl_header, "oneword token"),
    ("curl -u", 2, curl_u, "pw"),
    ("httpie", 1, httpie, "token"),
    ("PowerShell $env", 2, powershell, None),
    ("Windows cmd set", 1, cmd_set, None),
    ("env | grep output", 2, env_grep, None),
    ("database CLI session", 2, db_cli, "pw"),
    ("CLI JSON output", 3, cli_json, None),
    ("CLI table output", 2, cli_table, None),
    ("vault kv get output", 1, vault_out, None),
    ("terraform output", 1, tf_output, None),
    ("Python code", 5, py_code, None),
    ("JavaScript code", 4, js_code, None),
    ("Go code", 2, go_code, None),
    ("Rust code", 1, rust_code, None),
    ("Java code", 2, java_code, "token"),
    ("C# code", 2, csharp, None),
    ("PHP config array", 2, php, None),
    ("Ruby initializer", 1, ruby, None),
    ("Kotlin code", 1, kotlin, None),
    ("Swift code", 1, swift, None),
    ("Dart code", 1, dart, None),
    ("C #define", 1, c_define, None),
    ("Perl hash", 1, perl, None),
    ("SQL insert", 2, sql_insert, None),
    ("SQL create user", 2, sql_user, "pw"),
    ("mongo shell createUser", 1, mongo_shell, "pw"),
    ("GraphQL variables", 1, graphql_vars, None),
    ("Python REPL output", 1, repl, None),
    ("log line", 4, log_line, "oneword"),
    ("JSON log", 2, json_log, "oneword token"),
    ("Python traceback", 2, traceback, "urlsafe token"),
    ("markdown table", 2, md_table, None),
    ("spreadsheet paste (TSV)", 1, tsv, None),
    ("CSV", 1, csv_row, None),
    ("git diff", 3, diff, None),
    ("git commit message", 1, commit_msg, None),
    ("Jupyter cell", 2, notebook, None),
    (".http request file", 2, http_file, "oneword token"),
    ("raw HTTP request", 1, raw_http, "oneword token"),
    ("URL query parameter", 2, query_url, "urlsafe token"),
    ("connection URL", 3, conn_url, "urlsafe pw"),
    ("agent tool call (escaped JSON)", 9, tool_call, None),
    ("agent tool result (JSON)", 8, tool_result, None),
    ("agent Edit call (double-escaped)", 3, tool_edit, None),
    ("agent Read result with line numbers", 4, tool_read, None),
    ("agent exec output (double-escaped JSON)", 4, tool_exec, None),
]
# A value that is already a URL or a connection string goes where people paste those.
URL_FORMS = {
    "chat prose (en)",
    "chat prose (es)",
    "chat prose (ru)",
    "chat prose (zh)",
    "chat prose (ja)",
    "chat prose (tr)",
    "chat prose (id)",
    "chat prose (pl)",
    ".env file",
    "YAML, nested",
    "JSON, nested",
    "TOML",
    "shell export session",
    "Python code",
    "agent tool call (escaped JSON)",
    "agent tool result (JSON)",
    "log line",
    "Kubernetes Secret stringData",
    "chat: config in a code block",
    "CLI JSON output",
    "docker run -e",
    "Go code",
    "chat: error report",
    "SQL insert",
    "git diff",
    "Jupyter cell",
}


def choose_form(c: Ctx, is_url: bool, unused: set[str]) -> tuple[str, object]:
    """A form by weight; now and then one not used yet, so that every form appears."""
    ok = []
    for name, weight, fn, need in FORMS:
        if is_url and name not in URL_FORMS:
            continue
        if PERSONAL.search(c.cred) and not (
            name.startswith("chat prose") or name in PERSONAL_FORMS
        ):
            continue
        needs = (need or "").split()
        if "oneword" in needs and not c.oneword or "urlsafe" in needs and not c.urlsafe:
            continue
        # Login forms hold passwords; header and query forms hold tokens.
        if "pw" in needs and not is_password(c.cred) or "token" in needs and is_password(c.cred):
            continue
        ok.append((name, weight, fn))
    fresh = [x for x in ok if x[0] in unused]
    if fresh and R.random() < 0.3:
        name, _, fn = R.choice(fresh)
    else:
        name, _, fn = R.choices(ok, weights=[w for _, w, _ in ok])[0]
    unused.discard(name)
    return name, fn


# -- look-alikes: texts a redactor must leave exactly as they are
def hx(n: int) -> str:
    return rs("0123456789abcdef", n)


def la_git_log() -> tuple[str, list[str]]:
    shas = [hx(40) for _ in range(3)]
    msgs = ["fix: retry on 429", "chore(deps): bump axios", "feat: add password reset page"]
    text = "\n".join(
        f"commit {s}\nAuthor: Lin Wei <lin@example.com>\n\n    {m}\n"
        for s, m in zip(shas, msgs, strict=True)
    )
    return text, shas


def la_rebase() -> tuple[str, list[str]]:
    shas = [hx(R.choice([7, 8, 10, 12])) for _ in range(4)]
    verbs = ["pick", "squash", "pick", "fixup"]
    lines = [
        f"{v} {s} {m}"
        for v, s, m in zip(
            verbs,
            shas,
            ["add token refresh", "wip", "rename secretName to secretRef", "typo"],
            strict=True,
        )
    ]
    return "\n".join(lines), shas


def la_sha256sums() -> tuple[str, list[str]]:
    hs = [hx(64) for _ in range(2)]
    return f"{hs[0]}  brain-1.4.2-linux-amd64.tar.gz\n{hs[1]}  brain-1.4.2-darwin-arm64.tar.gz", hs


def la_docker_digest() -> tuple[str, list[str]]:
    d = "sha256:" + hx(64)
    return f"{pick('latest', 'v2.3.1', '3.12-slim')}: digest: {d} size: {R.randint(500, 3000)}", [d]


def la_npm_integrity() -> tuple[str, list[str]]:
    i = "sha512-" + b64(64)
    return (
        f'"node_modules/{pick("lodash", "zod", "left-pad", "dayjs")}": {{\n  "version": "{R.randint(1, 9)}.{R.randint(0, 30)}.{R.randint(0, 9)}",\n  "integrity": "{i}"\n}}',
        [i],
    )


def la_sri() -> tuple[str, list[str]]:
    i = "sha384-" + b64(48)
    return (
        f'<script src="https://cdn.example.net/lib.min.js" integrity="{i}" crossorigin="anonymous"></script>',
        [i],
    )


def la_gosum() -> tuple[str, list[str]]:
    h = "h1:" + b64(32)
    mod = pick("github.com/spf13/cobra", "golang.org/x/crypto", "github.com/google/uuid")
    return f"{mod} v1.{R.randint(0, 9)}.{R.randint(0, 9)} {h}", [h]


def la_uuid_log() -> tuple[str, list[str]]:
    u = uuid4()
    return f"2026-12-05T10:11:12Z INFO request_id={u} method=GET path=/health status=200 dur=3ms", [
        u
    ]


def la_uuid_sql() -> tuple[str, list[str]]:
    u = [uuid4() for _ in range(2)]
    return f"SELECT * FROM orders WHERE id = '{u[0]}' AND customer_id = '{u[1]}';", u


def la_arn() -> tuple[str, list[str]]:
    acct = str(R.randint(10**11, 10**12 - 1))
    a = pick(
        f"arn:aws:iam::{acct}:role/deploy-{rs(LOWER, 5)}",
        f"arn:aws:secretsmanager:eu-west-1:{acct}:secret:prod/db-{rs(A62, 6)}",
        f"arn:aws:kms:us-east-1:{acct}:key/{uuid4()}",
    )
    return f"Resource: {a}", [a]


def la_placeholder() -> tuple[str, list[str]]:
    p = pick(
        "YOUR_API_KEY_HERE",
        "<your-secret-key>",
        "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
        "${API_TOKEN}",
        "{{ secrets.DEPLOY_TOKEN }}",
        "REPLACE_WITH_YOUR_TOKEN",
        "changeme-in-production",
        "<PASSWORD>",
        "%(db_password)s",
        "$(cat /run/secrets/api_key)",
    )
    name = pick("API_KEY", "TOKEN", "DB_PASSWORD", "SECRET_KEY", "CLIENT_SECRET")
    return f"{name}={p}", [p]


def la_masked() -> tuple[str, list[str]]:
    m = pick(
        f"sk_live_{'*' * 20}{rs(A62, 4)}",
        "••••••••••••",
        f"****-****-****-{rs(UPPER + DIGITS, 4)}",
        f"{rs(A62, 4)}…{rs(A62, 4)}",
        "[REDACTED]",
        f"ghp_{'x' * 32}",
        "********",
    )
    return f"Token: {m}  (last used {R.randint(2, 30)} days ago)", [m]


def la_publishable() -> tuple[str, list[str]]:
    k = pick(
        f"pk_live_{rs(A62, 24)}",
        f"pk_test_{rs(A62, 24)}",
        f"0x4AAAAAAA{rs(A62 + '-_', 14)}",
        f"6L{rs(A62 + '-_', 38)}",
    )
    return f"// publishable key, safe to ship in the browser bundle\nconst publicKey = '{k}';", [k]


def la_code_names() -> tuple[str, list[str]]:
    t = pick(
        'api_key = os.environ["PAYMENTS_API_KEY"]\nif not api_key:\n    raise RuntimeError("PAYMENTS_API_KEY is not set")',
        "const token = process.env.GITEA_TOKEN ?? '';\nif (!token) throw new Error('missing token');",
        'password := os.Getenv("DB_PASSWORD")\nsecret := cfg.Secret // loaded from vault',
        "def rotate_secret(client_secret: str) -> str:\n    return hashlib.sha256(client_secret.encode()).hexdigest()",
        "PASSWORD_MIN_LENGTH = 12\nTOKEN_TTL_SECONDS = 3600\nSECRET_HEADER = 'X-Webhook-Signature'",
        "password_field = forms.CharField(widget=forms.PasswordInput)\napi_key_field = forms.CharField(max_length=64)",
    )
    return t, [t]


def la_docs_example() -> tuple[str, list[str]]:
    t = pick(
        "Set the key with `export ACME_API_KEY=<key from the dashboard>` before running the CLI.",
        "Example: `curl -H 'Authorization: Bearer $TOKEN' https://api.example.com/v1/me`",
        "The secret must be 32 random bytes, base64 encoded (generate one with `openssl rand -base64 32`).",
        "Passwords are hashed with argon2id; the plaintext is never stored or logged.",
    )
    return t, [t]


I18N = [
    (
        "de",
        {
            "login.password": "Passwort",
            "login.forgot": "Passwort vergessen?",
            "token.expired": "Ihr Zugangstoken ist abgelaufen.",
        },
    ),
    (
        "ja",
        {
            "login.password": "パスワード",
            "login.forgot": "パスワードをお忘れですか？",
            "apiKey.copy": "APIキーをコピー",
        },
    ),
    (
        "ru",
        {
            "login.password": "Пароль",
            "login.forgot": "Забыли пароль?",
            "token.invalid": "Неверный токен доступа",
        },
    ),
    (
        "tr",
        {
            "login.password": "Şifre",
            "login.forgot": "Şifrenizi mi unuttunuz?",
            "key.new": "Yeni API anahtarı oluştur",
        },
    ),
    (
        "zh",
        {
            "login.password": "密码",
            "login.forgot": "忘记密码？",
            "secret.hint": "请妥善保管您的密钥",
        },
    ),
    ("ar", {"login.password": "كلمة المرور", "login.forgot": "هل نسيت كلمة المرور؟"}),
    (
        "pl",
        {
            "login.password": "Hasło",
            "login.forgot": "Nie pamiętasz hasła?",
            "token.copy": "Skopiuj token",
        },
    ),
    ("vi", {"login.password": "Mật khẩu", "login.forgot": "Quên mật khẩu?"}),
    ("id", {"login.password": "Kata sandi", "login.forgot": "Lupa kata sandi?"}),
    ("hi", {"login.password": "पासवर्ड", "login.forgot": "पासवर्ड भूल गए?"}),
    ("ko", {"login.password": "비밀번호", "login.forgot": "비밀번호를 잊으셨나요?"}),
]


def la_i18n() -> tuple[str, list[str]]:
    lang, d = I18N[R.randrange(len(I18N))]
    t = f"// locales/{lang}.json\n" + json.dumps(d, ensure_ascii=False, indent=2)
    return t, list(d.values())


def la_ssh_fp() -> tuple[str, list[str]]:
    fp = "SHA256:" + b64(32, pad=False)
    return (
        f"The authenticity of host 'git.{rs(LOWER, 5)}.org' can't be established.\nED25519 key fingerprint is {fp}.",
        [fp],
    )


def la_ssh_pub() -> tuple[str, list[str]]:
    k = "AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(32, pad=False)[:43]
    return f"ssh-ed25519 {k} {pick('mehmet', 'dewi', 'ana')}@laptop", [k]


def la_pgp_fp() -> tuple[str, list[str]]:
    fp = " ".join(rs("0123456789ABCDEF", 4) for _ in range(10))
    return (
        f"pub   ed25519 2025-03-01 [SC]\n      Key fingerprint = {fp}\nuid   Release Signing <release@example.org>",
        [fp],
    )


def la_hashed_asset() -> tuple[str, list[str]]:
    f = [
        f"assets/index-{rs(A62 + '-_', 8)}.js",
        f"static/css/main.{hx(8)}.css",
        f"chunk-{hx(20)}.mjs",
    ]
    return "\n".join(f"  dist/{x}  {R.randint(1, 400)}.{R.randint(0, 99)} kB" for x in f), f


def la_version() -> tuple[str, list[str]]:
    v = pick(
        f"1.{R.randint(0, 40)}.{R.randint(0, 9)}+build.2026{R.randint(10, 12)}{R.randint(10, 28)}.{hx(7)}",
        f"v0.0.0-2026{R.randint(10, 12)}{R.randint(10, 28)}{R.randint(10, 23)}{R.randint(10, 59)}{R.randint(10, 59)}-{hx(12)}",
        f"{R.randint(1, 30)}.{R.randint(0, 9)}.{R.randint(0, 9)}-rc.{R.randint(1, 5)}",
    )
    return f"Version: {v}", [v]


def la_b64_plain() -> tuple[str, list[str]]:
    plain = pick(
        '{"theme":"dark","lang":"tr"}',
        "hello from the staging cluster",
        '{"page":2,"per_page":50}',
        "user=guest;locale=pl-PL",
        "The quick brown fox jumps over the lazy dog",
    )
    e = base64.b64encode(plain.encode()).decode()
    return f"cursor: {e}", [e]


def la_css() -> tuple[str, list[str]]:
    cs = [f"#{hx(6)}" for _ in range(4)]
    return ":root {\n" + "".join(f"  --c{i}: {c};\n" for i, c in enumerate(cs)) + "}", cs


def la_traceparent() -> tuple[str, list[str]]:
    t = f"00-{hx(32)}-{hx(16)}-01"
    return f"traceparent: {t}", [t]


def la_etag() -> tuple[str, list[str]]:
    e = f'W/"{hx(R.choice([24, 32, 40]))}"'
    return f"HTTP/1.1 304 Not Modified\nETag: {e}\nCache-Control: max-age=0", [e]


def la_crypto_public() -> tuple[str, list[str]]:
    kind = R.randrange(3)
    if kind == 0:
        a = "0x" + hx(40)
        return f"sent 0.25 ETH to {a} (see explorer)", [a]
    if kind == 1:
        a = "bc1q" + rs(BECH, 38)
        return f"deposit address: {a}", [a]
    a = "0x" + hx(64)
    return f"tx {a} confirmed in block {R.randint(19_000_000, 22_000_000)}", [a]


def la_pod() -> tuple[str, list[str]]:
    ps = [f"api-{hx(10)}-{rs(A36, 5)}", f"worker-{hx(9)}-{rs(A36, 5)}"]
    return "NAME" + " " * 30 + "READY   STATUS\n" + "\n".join(
        f"{p:<34}1/1     Running" for p in ps
    ), ps


def la_cargo() -> tuple[str, list[str]]:
    h = hx(64)
    return (
        f'[[package]]\nname = "serde"\nversion = "1.0.{R.randint(100, 230)}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{h}"',
        [h],
    )


def la_nix() -> tuple[str, list[str]]:
    p = f"/nix/store/{rs('0123456789abcdfghijklmnpqrsvwxyz', 32)}-python3-3.12.{R.randint(1, 8)}"
    return f"these paths will be fetched:\n  {p}", [p]


def la_sln_guid() -> tuple[str, list[str]]:
    g = "{" + uuid4().upper() + "}"
    return (
        f'Project("{{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}}") = "Api", "Api\\Api.csproj", "{g}"',
        [g],
    )


def la_policy() -> tuple[str, list[str]]:
    t = pick(
        "Your new password must contain at least 12 characters, one digit and one symbol.",
        "Enter the 6-digit code from your authenticator app.",
        "Choose a passphrase of four or more random words.",
        "Never share your PIN or one-time code with anyone, including our staff.",
    )
    return t, [t]


def la_html_form() -> tuple[str, list[str]]:
    t = '<label for="pw">Password</label>\n<input type="password" id="pw" name="password" autocomplete="current-password" required>'
    return t, [t]


def la_env_example() -> tuple[str, list[str]]:
    t = "# copy to .env and fill in\nSTRIPE_SECRET_KEY=\nDATABASE_URL=\nJWT_SECRET=\nSMTP_PASSWORD="
    return t, [t]


def la_ids() -> tuple[str, list[str]]:
    ids = [f"i-0{hx(16)}", f"vpc-0{hx(16)}", f"sg-0{hx(16)}"]
    return "Instances: " + ", ".join(ids), ids


def la_container() -> tuple[str, list[str]]:
    c = hx(64)
    return f"$ docker inspect --format '{{{{.Id}}}}' web\n{c}", [c]


def la_google_client_id() -> tuple[str, list[str]]:
    c = f"{R.randint(10**11, 10**12 - 1)}-{rs(A36, 32)}.apps.googleusercontent.com"
    return f"GOOGLE_CLIENT_ID={c}", [c]


def la_public_pem() -> tuple[str, list[str]]:
    if R.random() < 0.5:  # an EC P-256 SubjectPublicKeyInfo
        der = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d03010703420004")
        der += bytes(R.getrandbits(8) for _ in range(64))
    else:  # an RSA-2048 SubjectPublicKeyInfo
        der = bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100")
        der += bytes([R.randint(0xC0, 0xFF)]) + bytes(R.getrandbits(8) for _ in range(255))
        der += bytes.fromhex("0203010001")
    body = base64.b64encode(der).decode()
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN PUBLIC KEY-----\n" + "\n".join(lines) + "\n-----END PUBLIC KEY-----", lines


def la_thumbprint() -> tuple[str, list[str]]:
    t = ":".join(rs("0123456789ABCDEF", 2) for _ in range(20))
    return f"Certificate SHA1 Fingerprint={t}", [t]


def la_commit_text() -> tuple[str, list[str]]:
    t = pick(
        "rotate the payment provider token after the leak drill (new value is in the vault)",
        "remove hard-coded password from seed script; read DB_PASSWORD instead",
        "docs: explain how to create an API key in the dashboard",
    )
    return t, [t]


def la_cli_help() -> tuple[str, list[str]]:
    t = "Options:\n  --api-key KEY       API key (default: $ACME_API_KEY)\n  --password-stdin    read the password from stdin\n  --token-file PATH   file holding the token"
    return t, [t]


def la_sentry_event() -> tuple[str, list[str]]:
    e = hx(32)
    return f"Sentry captured event {e} for issue PROJ-{R.randint(100, 999)}", [e]


def la_ipfs() -> tuple[str, list[str]]:
    cid = "bafybei" + rs("abcdefghijklmnopqrstuvwxyz234567", 52)
    return f"pinned ipfs://{cid}", [cid]


def la_timestamp_ids() -> tuple[str, list[str]]:
    i = f"{R.randint(1_700_000_000_000, 1_799_999_999_999)}"
    return f"snowflake id {i} created at 2026-12-01T08:00:00Z", [i]


def la_long_ident() -> tuple[str, list[str]]:
    t = pick(
        "AbstractSingletonProxyFactoryBeanConfigurationProvider",
        "test_refresh_token_is_rotated_after_expiry_window",
        "shouldRejectPasswordsShorterThanTwelveCharacters",
    )
    return f"def {t}(self): ..." if "_" in t else f"class {t} {{}}", [t]


def la_hash_in_url() -> tuple[str, list[str]]:
    h = hx(40)
    return f"https://github.com/acme/shop/commit/{h}", [h]


def la_lockfile_yarn() -> tuple[str, list[str]]:
    h = hx(40)
    return (
        f'left-pad@^1.3.0:\n  version "1.3.0"\n  resolved "https://registry.yarnpkg.com/left-pad/-/left-pad-1.3.0.tgz#{h}"',
        [h],
    )


def la_data_uri() -> tuple[str, list[str]]:
    png = bytes.fromhex("89504e470d0a1a0a0000000d49484452") + bytes(
        R.getrandbits(8) for _ in range(R.choice([48, 72]))
    )
    d = "data:image/png;base64," + base64.b64encode(png).decode()
    return f'<img alt="logo" src="{d}">', [d]


def la_rest_path() -> tuple[str, list[str]]:
    u = uuid4()
    return f"GET /api/v1/projects/{u}/members?page=2 HTTP/1.1\nHost: api.example.com", [u]


def la_pip_hash() -> tuple[str, list[str]]:
    h = hx(64)
    pkg = pick("requests==2.32.3", "urllib3==2.2.2", "certifi==2024.7.4")
    return f"{pkg} \\\n    --hash=sha256:{h}", [h]


def la_configmap() -> tuple[str, list[str]]:
    t = (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web-config\ndata:\n"
        f"  LOG_LEVEL: info\n  FEATURE_FLAGS: checkout-v{R.randint(2, 5)},dark-mode\n  TOKEN_ISSUER: https://auth.example.com\n"
        f'  SESSION_TTL: "{R.choice([900, 1800, 3600])}"\n'
    )
    return t, [t]


def la_mac_ipv6() -> tuple[str, list[str]]:
    mac = ":".join(hx(2) for _ in range(6))
    ip6 = "2001:db8:" + ":".join(hx(4) for _ in range(3)) + "::1"
    return f"link/ether {mac}\ninet6 {ip6}/64 scope global", [mac, ip6]


LOOKALIKES = [
    ("git log with full SHAs", la_git_log, 5),
    ("rebase todo with short SHAs", la_rebase, 4),
    ("SHA256SUMS file", la_sha256sums, 4),
    ("docker push digest", la_docker_digest, 4),
    ("package-lock integrity", la_npm_integrity, 4),
    ("script SRI hash", la_sri, 3),
    ("go.sum line", la_gosum, 3),
    ("request id UUID in log", la_uuid_log, 4),
    ("UUIDs as row ids in SQL", la_uuid_sql, 3),
    ("AWS ARN", la_arn, 4),
    ("placeholder value", la_placeholder, 8),
    ("masked value", la_masked, 7),
    ("publishable or site key", la_publishable, 4),
    ("code naming secrets without values", la_code_names, 6),
    ("docs text with example usage", la_docs_example, 4),
    ("i18n strings about passwords", la_i18n, 8),
    ("SSH host fingerprint", la_ssh_fp, 3),
    ("SSH public key", la_ssh_pub, 3),
    ("PGP key fingerprint", la_pgp_fp, 2),
    ("content-hashed asset names", la_hashed_asset, 3),
    ("version string with build hash", la_version, 4),
    ("base64 of a non-secret", la_b64_plain, 5),
    ("CSS colour variables", la_css, 2),
    ("W3C traceparent", la_traceparent, 3),
    ("ETag header", la_etag, 2),
    ("public crypto address or tx hash", la_crypto_public, 3),
    ("kubectl pod names", la_pod, 2),
    ("Cargo.lock checksum", la_cargo, 2),
    ("nix store path", la_nix, 2),
    (".sln project GUID", la_sln_guid, 2),
    ("password policy text", la_policy, 4),
    ("HTML password field", la_html_form, 1),
    (".env.example with empty values", la_env_example, 1),
    ("cloud resource ids", la_ids, 3),
    ("docker container id", la_container, 2),
    ("OAuth public client id", la_google_client_id, 2),
    ("PEM public key", la_public_pem, 2),
    ("certificate thumbprint", la_thumbprint, 2),
    ("commit message about a secret", la_commit_text, 3),
    ("CLI help about keys", la_cli_help, 1),
    ("Sentry event id", la_sentry_event, 2),
    ("IPFS CID", la_ipfs, 2),
    ("numeric snowflake id", la_timestamp_ids, 2),
    ("long identifier", la_long_ident, 3),
    ("commit URL", la_hash_in_url, 2),
    ("yarn.lock resolved hash", la_lockfile_yarn, 2),
    ("data URI image", la_data_uri, 2),
    ("MAC and IPv6 address", la_mac_ipv6, 2),
    ("UUID in a REST path", la_rest_path, 3),
    ("pip requirement hash", la_pip_hash, 3),
    ("ConfigMap of non-secret settings", la_configmap, 2),
]


N_KINDS = 360
N_SECRETS = 450


def build_secrets() -> list[dict[str, str]]:
    rows = [line.split("|", 2) for line in KINDS.strip().splitlines()]
    R.shuffle(rows)
    # Every kind whose value is a URL, a connection string, a passphrase or a PIN is kept
    # (there are few of them); the rest of the kinds are drawn.
    special = [r for r in rows if re.search(r"<|\{(phrase|mnem|dig:\d+\}$)", r[2])]
    chosen = special + [r for r in rows if r not in special][: N_KINDS - len(special)]
    plan = chosen + [R.choice(chosen) for _ in range(N_SECRETS - N_KINDS)]
    out: list[dict[str, str]] = []
    seen_kinds: Counter[str] = Counter()
    seen_secrets: set[str] = set()
    unused = {name for name, _, _, _ in FORMS}
    for vendor, cred, shape in plan:
        while True:
            value, secret = make_value(shape)
            if secret not in seen_secrets and len(secret) >= 6:
                break
        seen_secrets.add(secret)
        c = Ctx(vendor, cred, value, secret)
        form, fn = choose_form(c, "<" in shape, unused)
        text = fn(c)  # type: ignore[operator]
        assert secret in text, (vendor, cred, form)
        kind = f"{vendor} {cred} [{form}]"
        seen_kinds[kind] += 1
        if seen_kinds[kind] > 1:
            kind += f" #{seen_kinds[kind]}"
        out.append(
            {
                "kind": kind,
                "form": form,
                "shape": shape_class(shape),
                "text": text,
                "secret": secret,
            }
        )
    return out


def build_lookalikes(secrets: list[str]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    texts: set[str] = set()
    for name, fn, n in LOOKALIKES:
        for i in range(n):
            for _ in range(20):
                text, keep = fn()
                if text not in texts:
                    break
            else:
                continue
            texts.add(text)
            assert all(k in text for k in keep) and not any(s in text for s in secrets)
            out.append({"kind": f"{name} {i + 1}", "text": text, "keep": keep})
    return out


def main() -> None:
    secrets = build_secrets()
    lookalikes = build_lookalikes([x["secret"] for x in secrets])
    n_kinds = len({x["kind"].split(" [")[0] for x in secrets})
    forms = Counter(x["form"] for x in secrets)
    shapes = Counter(x["shape"] for x in secrets)
    doc = {
        "about": (
            "Eighth blind corpus, written by benchmarks/make_secrets_blind8.py with "
            "random.Random(820261207) and the standard library only, from general knowledge of "
            "credential shapes and of how people paste them into coding-agent chats. No redactor "
            "code, tests or earlier corpus texts were consulted; the vendors avoid the earlier "
            "corpora's kind names. All values are random fakes. A secret's kind is "
            "'<vendor> <credential> [<form>]'; each look-alike lists under 'keep' the strings "
            "that must survive unchanged (the whole text must)."
        ),
        "secrets": [{"kind": x["kind"], "text": x["text"], "secret": x["secret"]} for x in secrets],
        "lookalikes": lookalikes,
    }
    OUT.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(
        f"{len(secrets)} secrets of {n_kinds} kinds in {len(forms)} forms; {len(lookalikes)} look-alikes"
    )
    print("shapes:", dict(shapes.most_common()))
    print("forms:", dict(forms.most_common()))


if __name__ == "__main__":
    main()
