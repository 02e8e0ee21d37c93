"""Write benchmarks/data/secrets_blind14.json: a fourteenth blind corpus of fake credentials.

What its author read, and what not. Written from general knowledge of how vendors shape
their keys, where people paste them into coding-agent chats and where agents' tool output
shows them, with the standard library only. Not read: anything under ``brain/`` or
``tests/``, ``benchmarks/README.md``, the project README, the bodies of the other
``make_secrets_blind*.py`` generators, any ``redact*`` benchmark; no commit message was
looked up (``git log`` ran once, by a slip, as ``git log --oneline -0``, which lists no
commit, its output discarded), but ``git worktree add`` printed the subject of main's
latest commit (one line, about one UUID pattern in a shapes module) when this worktree was
made. After the corpus was written, a lint run after rebasing on main printed five lines
of a docstring in ``brain/models/builtin/cjk.py`` (Chinese and Japanese phrasings of a
lasting rule, nothing about secrets); nothing was changed after that. Read: ``benchmarks/secrets_holdout.py`` (the whole file: the JSON
format, how an item is loaded and scored); the top docstring of ``make_secrets_blind13.py``
only (line 1 to its closing quotes), for the output shape and as an example of how to
describe a corpus; for each ``benchmarks/data/secrets_*.json`` its top-level keys, the
field names of its first secret and look-alike, its numbers of secrets and look-alikes and
the first 200 characters of its ``about`` string; and their ``kind`` names, written by a
script to a file with the `` [form]`` suffix stripped (5,884 names, none seen on screen: a
script only searched them for candidate vendors). Seen in passing: the file names in
``benchmarks/`` and ``benchmarks/data/``, the Makefile's ``lint`` target, the ``[tool.ruff]`` part of
``pyproject.toml``, the last lines of ``make install``'s log, and the project's style guide
(``/work/shared/STYLE.md``, its first 60 lines). Every vendor was checked against those
kind names by a script (its whole name as a word, its letters and digits run together when
four or more, anywhere in a kind run together, its first word as a word, or run together
when four letters or more): of 2,939 candidates, 1,577 were found there and dropped; of
the 1,362 left, 177 were dropped by hand (common words such as Copper, Basin, Reflect,
Shine, Current, Target, Globe or Cricket, a second name of one maker, a name listed in two
categories), so the 1,185 vendors listed in ``VENDORS`` are new by that check, and 330 of
them are used (drawn at random per category: 62 software services, 24 AI and ML APIs, 18
payment and billing APIs, 34 banks, 22 brokers and exchanges, all 8 wallets left, 34 device
makers, 36 self-hosted apps, 28 games and game companies, 22 shops, 14 telecoms, 14
government logins, 14 schools' and learning services). A product sold under another name
than its maker's may still share a maker with an earlier kind. The corpus was not scored,
and nothing in brain was run on it; it was only checked to load with the fields ``load()``
reads, each secret being a verbatim substring of its text.

Counts (printed by ``main``): 454 secrets of 358 kinds in 308 embedding forms, and 160
look-alikes (61 sorts) that must come out unchanged, each listing under ``keep`` the
strings that must survive. 262 kinds appear once and 96 twice, in two different forms with
fresh values; 20 vendors hand out two kinds, and so does each of the 8 wallets (its seed
phrase and its private key). Every form is used at least once. A secret found inside any
other entry's text gets a fresh value, and the run fails if one is still found.

Value shapes (as a script sorted the written values afterwards): 63 passwords as people
type them (words, names, dates, years, symbols, leetspeak, random with symbols, long random
service passwords), 19 more with non-ASCII words
(Ñandú, Çiçek, Größe, Smørbrød, Żubrówka, Ljubljanač...), 40 random 10 to 20 character
passwords, 4 memorable words, 40 passphrases of 4 to 6 words (some with a number), 11
seed-word lists of 12 or 24 words; among keys, 21 short random alphanumerics with no
prefix, 10 to 20 characters (alphabets of 62, lower- or upper-case 36, base58, or mostly
letters with one or two digits: 38 of the 64 values of that shape in the corpus, passwords
included, are mostly letters), 25 longer alphanumerics, 32 hex (lower or upper case, 32 to
64 long), 5 wallet keys in ``0x`` hex and 6 in base58, 12 base64, 14 url-safe base64, 19
UUIDs used as keys, 11 vendor-style prefixes made from the vendor's name (``xx_sk_``,
``xxpat_``, ``XX-ABC123-...``, ``xx-live-``, ``xx_prd_``, ``xxk1.``, ``xx_v2_``,
``XX12:``, ``xx.<hex>.``), 6 JWT-like tokens, 15 ``id:secret``, ``id.secret``,
``id|secret``, ``id/secret`` and ``id$secret`` pairs, 20 grouped license and recovery keys,
11 byte arrays in decimal or hex, 7 TOTP seeds in base32 (some in groups of four), 7 app
passwords in four groups of four letters, 9 recovery codes (one, or four ``xxxx-xxxx``), 13
gift card codes, 32 PINs of 4 to 6 digits and 12 codes of 8 digits (TANs, PUKs, passcodes, backup codes).
Secrets sit inside larger strings in many forms: ``amqp://``, ``rediss://``,
``mongodb+srv://``, ``postgresql://``, RTSP, pip index and git remote URLs, a GORM DSN, an
ADO.NET connection string, ``user/pass@`` for sqlplus, ``user,pass`` for lftp,
``user:pass`` for skopeo and libcurl, query strings (``access_token=``, ``key=``,
``refresh_token=``), Bearer and Token headers, a RESP ``AUTH`` frame, ``pass:`` for
openssl. 19 secrets carry non-ASCII letters.

Names: credential words first, last or in the middle, with an environment part before,
after or inside (``X_PROD_TOKEN``, ``QA_X_PASSWORD``, ``TOKEN_X_EU``, ``X_API_KEY_2``,
``XAPIKEY``), in many spellings (``TKN``, ``AUTHKEY``, ``APPKEY``, ``APP_SECRET``,
``SIGNING_SECRET``, ``PRIVATE_TOKEN``, ``BEARER``, ``X_KEY``, ``PASSWD``, ``PWD``, ``PW``,
``ROOT_PASS``, ``ADMIN_PW``, ``LOGIN_PASS``, ``PINCODE``, ``PASSCODE``, ``PUK``, ``NIP``,
``MNEMONIC``, ``SEED_WORDS``, ``RECOVERY_PHRASE``, ``BACKUP_CODE``, ``VOUCHER``,
``SERIAL``) and languages (``NYCKEL``, ``SLEUTEL``, ``CHIAVE_API``, ``CHEIE``, ``KULCS``,
``AVAIN``, ``KLIC``, ``KLJUC``, ``RAKTAS``, ``VOTI``, ``ANAHTAR``, ``KUNCI``, ``ALLWEDD``,
``GILTZA``, ``KLEIDI``, ``KHOA``, ``LLAVE``, ``CLE_API``, ``LOSENORD``, ``JELSZO``,
``PAROLA``, ``HASLO``, ``SLAPTAZODIS``, ``PAROOL``, ``GESLO``, ``LOZINKA``, ``SIFRE``,
``KATA_SANDI``, ``MOT_DE_PASSE``, ``CONTRASENA``, ``SENHA``, ``CYFRINAIR``,
``PASAHITZA``, ``KODEORD``, ``KOD``, ``KODI``, ``FRAZA``, ``SIEMEN``), as UPPER_SNAKE,
snake, camelCase, PascalCase, kebab, dotted and ``X-Vendor-Key`` header forms. Some values
have no credential word near them: an SDK client's positional argument, a vendor CLI's
``login`` argument, a shell alias, a note with only the vendor's name, ``lftp -u``,
``skopeo --src-creds``, ``mc alias set``, ``sqlplus user/pass@``, an RTSP URL, a GORM DSN,
an AutoHotkey hotstring, an AppleScript keystroke, ``screen -X stuff``, a ``secret-tool``
or ``op read`` result, a psql or DuckDB row, a haiku-style reminder, a wallet restored from
its phrase or key.

Forms (chosen to differ from blind13's list), 308 in all: 137 secrets in chat (60 forms:
prose in 38 languages, Arabic, Basque, Bengali, Brazilian Portuguese, Breton, Bulgarian,
Catalan, Croatian, Czech, Faroese, Finnish, Georgian, Greek, Haitian Creole, Hebrew,
Hungarian, Indonesian, Japanese, Kazakh, Korean, Lithuanian, Malayalam, Norwegian Nynorsk,
Persian, Polish, Romanian, Slovak, Swahili, Tagalog, Thai, Turkish, Ukrainian, Urdu,
Vietnamese, Welsh, West Frisian, Xhosa, Yoruba, each naming the credential in English as
people mix; plus a Slack thread reply, a typo'd one-liner ("secert", "tokne", "pasword"),
a Signal note to self, a Telegram saved message, an iMessage export line, a Jira comment, a
Trello card, a Matrix message, an IRC log line, an SMS forwarded into chat, a forwarded
email with a signature, a standup bullet, a retro note, a prompt asking the agent to use a
value, a note with only the vendor and the value, meeting notes, a Confluence page, a
GitHub issue body, a Loom transcript, a Basecamp message, a Jupyter markdown cell, a
haiku-style reminder), 11 in notes (5 forms: a KeePass XML entry, a Bitwarden JSON export
item, a password notebook typed up, an Evernote checklist, a back-of-envelope list), 86 in
config files (77 forms, among them ``.npmrc`` scoped tokens, ``pip.conf``, Cargo
``credentials.toml``, ``gradle.properties``, Android ``local.properties``, Gradle
``signingConfigs``, an ``.xcconfig``, a plist, a Windows ``.reg`` export, a systemd unit,
supervisord, a pm2 ecosystem file, ``.envrc``, ``mise.toml``, a Justfile, a Taskfile, a
Makefile, a Vagrantfile, an Ansible inventory and group_vars, a Salt pillar,
``terraform.tfvars``, ``terragrunt.hcl``, Helm values, Skaffold, a compose environment
list, Spring and Quarkus properties, Laravel and Symfony ``.env`` files, Nuxt
runtimeConfig, ``wrangler.toml``, ``render.yaml``, Kamal, Heroku ``app.json``, a
DigitalOcean app spec, VS Code settings, JetBrains ``dataSources.local.xml``, DBeaver,
``~/.pgpass``, ``my.cnf``, ``redis.conf``, a pgbouncer userlist, ``rabbitmq.conf``, a
mosquitto bridge, Home Assistant ``secrets.yaml``, Transmission, an *arr ``config.xml``,
``wpa_supplicant.conf``, a Samba credentials file, ``chap-secrets``, ``ddclient.conf``,
``snmpd.conf``, FreeRADIUS, Asterisk ``pjsip.conf``, Kodi, Minecraft
``server.properties``, a Don't Starve-style ``cluster.ini``, a Source ``server.cfg``, an
Unreal ``Game.ini``, a ``serversettings.xml``, a truck sim ``server_config.sii``, a
Teeworlds ``autoexec.cfg``, dotted INI sections four deep, JSON5, HOCON, EDN, CUE, Dhall,
``appSettings``, Firebase ``.runtimeconfig.json``, Godot export presets, a self-hosted
app's ``config.yml``, a file under ``/run/secrets``, ADO.NET user-secrets, a Celery
``broker_url``, a Sidekiq ``REDIS_URL``), 69 in shell sessions and CLI output (52 forms:
``env | grep``, ``fly secrets set``, ``wrangler secret put``, ``railway variables``,
``kubectl set env``, ``docker compose config``, ``npm config set``, ``gcloud secrets
versions access``, ``az keyvault secret show``, ``doppler secrets get``, ``op read``,
``pass show``, ``security find-generic-password``, ``secret-tool``, ``bw get``, ``nmcli``,
``netsh wlan``, ``redis-cli -a``, ``mosquitto_pub -P``, ``lftp -u``, ``wget
--password``, ``aria2c --rpc-secret``, restic, borg, ``openssl enc``, ``qpdf``, ffmpeg
RTSP, ``ipmitool -P``, ``sqlplus``, ``git remote -v``, ``pip install --index-url``,
``cargo login``, ``composer config http-basic``, ``helm repo add``, ``skopeo``, ``mc alias
set``, ``aws configure set``, ``auth init -t``, a vendor CLI login, a shell alias, fish,
Nushell, Windows ``set``, ``Invoke-RestMethod``, a heredoc into ``.env``, ``sudo tee``,
``screen -X stuff``, ``mysqldump``, ``influx -t``, ``rclone config create``, ``forge
script --private-key``, ``cast wallet import --mnemonic``), 57 in code (47 forms: Swift,
Dart, Elixir ``runtime.exs``, Clojure, F#, OCaml, Nim, Julia, MATLAB, Perl LWP, OpenResty,
Tcl, AutoHotkey, AppleScript, VBA, Apps Script, Jupyter ``%env``, Ktor, OkHttp, libcurl,
cpr, Go ``Header.Set``, TypeScript fetch, React Native, Vue, an SDK's positional argument,
ethers ``Wallet`` and ``fromPhrase``, viem, hardhat, python-mnemonic, bip_utils, Prisma,
Drizzle, Knex, Hibernate, GORM, R DBI, Spark, a Snowflake-style connector, pymongo,
Nightwatch, WebdriverIO, TestCafe, a Bash function, an Arduino sketch, MicroPython), 17 in
logs (15 forms: Spring Boot's generated password, pino, logfmt, Serilog, Laravel,
journalctl, a Kubernetes event, an npm debug log, a rich traceback's locals, a Go panic,
auditd EXECVE, a Windows event command line, Jenkins, Home Assistant, a Sentry
breadcrumb), 26 in tables (11 forms: LastPass and Chrome password CSV exports, AsciiDoc,
LaTeX, psql, DuckDB, pandas, Jira wiki, Notion CSV, a Rich table, a markdown handover
table), 8 in diffs (8 forms: merge conflict markers, a ``git add -p`` hunk, ``diff -y``, a
``.rej`` file, ``hg diff``, ``jj diff``, a ``terraform plan`` change, ``git show``), 15 in
HTTP and protocol traces (15 forms: a raw request with a vendor header, a GraphQL body, a
JSON-RPC call, IMAP ``LOGIN``, FTP ``PASS``, Redis RESP ``AUTH``, ``ldapsearch -w``, a
mitmproxy flow, a Burp request, DevTools "Copy as fetch", "Copy as cURL (cmd)", ``xh``, an
OAuth refresh body, a Hoppscotch export, an MQTT CONNECT), and 28 in agent tool calls and
results (18 forms: a Claude Code Bash ``tool_use``, a transcript line whose ``cat .env``
result is escaped twice, an MCP ``tools/call`` request and tool result, Edit
``old_string``/``new_string``, Write content, a Grep result, a TodoWrite item, a Task
prompt, a LangChain AgentExecutor log, CrewAI output, an OpenCode tool part, a Roo Code
``write_to_file``, a Cursor terminal block, a WebFetch result, NotebookEdit, an assistant
asking which value to keep, a JSONL event whose output is JSON escaped twice). Each
secret's ``kind`` is ``<vendor> <credential> [<form>]``. PINs, TANs, PUKs, codes, gift and
recovery codes, app passwords, TOTP seeds, seed words and every bank's, shop's,
telecom's and government login's credential go only to forms that take any value (chat,
notes, tables, password-manager and keychain lookups, agent prose); people's own account
passwords (banks, shops, telecoms, government, schools, games, and services' account and
trading passwords) also to login-page test code, AutoHotkey, AppleScript and ``qpdf``;
keys never to password-only forms nor passwords to header forms; database, message-queue
and server-login forms take only services' and self-hosted apps' passwords (a few, such as
``ipmitool``, FTP, Samba or ``chap-secrets``, also devices' admin passwords); Wi-Fi forms only device makers' Wi-Fi passwords; game server files
only games' server and RCON passwords; device login forms only devices' admin passwords,
RTSP only camera passwords; wallet code only wallets' keys and phrases; a byte array never
goes to a header, a command line or a log line. Forms that put the value in a URL take
only values that need no escaping, XML forms none with ``&<>"'``, and forms that leave
the value unquoted on a command line none with spaces, quotes or ``$``.

Look-alikes, each with its ``keep`` list (61 sorts): a ``git bisect`` log, ``git blame``
lines, ``git describe``, a GitHub compare URL, ``git cherry-pick`` output, a changelog's
short hashes, a CI status with a commit, package-lock integrity, a Cargo.lock checksum, a
go.sum ``h1:`` hash, a uv.lock wheel hash, a composer.lock dist reference, a ``kubectl
describe`` image ID, OCI manifest digests, ``docker history`` layer ids, a KMS key ARN, a
Lambda ARN, an Azure resource id, placeholders, masked values, an SSH ed25519 public key,
a PEM public key, a minisign public key, an Ethereum address in a receipt, webpack and
Vite asset hashes, B3 trace headers, CF-Ray and ``x-amz-request-id``,
``X-Cloud-Trace-Context``, ``X-Request-Id``, i18n strings about passwords and keys, code
reading a secret from the environment, a ``secretKeyRef``, base64 of ordinary text, a
data URI, tmux and screen session names, test fixture values, booleans named after secrets
(``admin_session=true``), an IPFS CID, a magnet info hash, terraform state ids, payment
object ids (``cus_``, ``pi_``), analytics measurement ids, YouTube and tweet ids, a
SHA256SUMS file, a webhook signature header, a CSP nonce, an ETag, an S3 version id, a pod
name, a Nix store path, a certificate fingerprint and serial, environment references
without values, secret-manager references, a device serial on a label, parcel tracking and
order numbers, a password policy regex, log lines about tokens without values, Jupyter
cell ids, an OpenAPI security scheme, UUID primary keys, a preview URL's random slug.

Run: ``python benchmarks/make_secrets_blind14.py``.
"""

# ruff: noqa: E501
# (Each form is one template on one line, so it reads as the text it makes.)

from __future__ import annotations

import base64
import json
import random
import re
import string
import unicodedata
from collections import Counter
from collections.abc import Callable
from pathlib import Path

SEED = 1414092677
OUT = Path(__file__).parent / "data" / "secrets_blind14.json"
R = random.Random(SEED)

VENDORS = {
    "saas": (
        "Hookdeck|Openstatus|Qovery|Dokploy|StepZen|WunderGraph|Stellate|PartyKit|Soketi|"
        "Karix|KrakenD|Moesif|Treblle|APItoolkit|Keploy|Kusho|Localazy|Weglot|Smartling|"
        "Tinymce|Froala|Bytescale|Sirv|Gumlet|Twicpics|Statically|Jsdelivr|OpenReplay|"
        "Koala Inbox|Salesflare|UVdesk|Pure Chat|Formspark|Zcal|TidyCal|Lusha|Kaspr|"
        "Findymail|NeverBounce|Kickbox|Emailable|MillionVerifier|Sendinblue|Sendlayer|"
        "CleverTap|Apprise|Robusta|Komodor|Coroot|CloudZero|Zesty|ProsperOps|Infracost|"
        "Terramate|Brainboard|Humanitec|OpsLevel|Configure8|Appcircle|Bitdrift|Last9|"
        "Kloudmate|Vectara|Nuclia|Ragie|Docling|Mathpix|Rossum|Klippa|Mailparser|Decap|"
        "CloudCannon|Duda|Typedream|Thunkable|FlutterFlow|Draftbit|Bravo Studio|Noloco|"
        "Seatable|Slite|Tettra|Document360|Helpjuice|Docusaurus|Dokuwiki|XWiki|Capacities|"
        "Heptabase|Scrintal|Milanote|Whimsical|tldraw|Mural|FigJam|Creately|Cacoo|Gliffy|"
        "Beautiful.ai|Prezi|Visme|Piktochart|Venngage|Crello|Kapwing|Descript|Riverside|"
        "Podcastle|Zencastr|Captivate|Buzzsprout|Simplecast|Spreaker|Libsyn"
    ),
    "ai": (
        "Cerebrium|Jarvislabs|Nebius|ERNIE|Hunyuan|Doubao|Kimi|You.com|Skyvern|MultiOn|"
        "AgentOps|Patronus|Giskard|Deepchecks|WhyLabs|Fiddler|Aporia|Lakera|Rebuff|"
        "Not Diamond|LiteLLM|WellSaid|Murf|Speechify|Recraft|Magnific|Vmake|Mubert|Soundraw|"
        "Boomy|AIVA|Beatoven"
    ),
    "pay": (
        "Creem|Dodo Payments|Togai|m3ter|Iamport|Veritrans|Wallee|Datatrans|Saferpay|"
        "Montonio|Maksekeskus|Zimpler|Finverse|Brankas|Webpay|PagBank|PayPhone|Izipay|"
        "Naranja X|TerraPay|Solaris|Payrix|Paymentsense|Takepayments"
    ),
    "bank": (
        "Sohar International|Ahli United|Boubyan|Warba Bank|Masraf Al Rayan|Doha Bank|"
        "RAKBANK|Meezan Bank|Faysal Bank|Askari Bank|Dutch-Bangla Bank|Hatton National Bank|"
        "Nabil Bank|NIC Asia|Khan Bank|Golomt Bank|XacBank|TBC Bank|Ameriabank|Ardshinbank|"
        "Kapital Bank|PASHA Bank|Jusan|Forte Bank|Optima Bank|Hamkor|Agrobank|Oschadbank|"
        "Belarusbank|Priorbank|Maib|Victoriabank|BRD|K&H|Fineco|Credem|Keytrade|Spuerkeess|"
        "BCEE|BCV|Migros Bank|Radicant|Sparda|Santander Consumer|Hanseatic|Nordea|Danske|"
        "Jyske|Nykredit|Arbejdernes Landsbank|SEB|Swedbank|Sparbanken|DNB|SpareBank 1|"
        "Landsbankinn|Íslandsbanki|POP Pankki|Ålandsbanken|Luminor|Citadele|Šiaulių bankas|"
        "Tatra banka|Slovenská sporiteľňa|Fio banka|Moneta|Raiffeisenbank CZ|Air Bank|Pekao|"
        "Alior|VeloBank|NLB|Addiko|Zagrebačka banka|PBZ|Komercijalna|AIK Banka|Stopanska|"
        "Halkbank|VakıfBank|Akbank|QNB Finansbank|Enpara|Hellenic Bank|APS Bank|BOV|"
        "Novo Banco|ActivoBank|Abanca|Kutxabank|Ibercaja|Unicaja|Cajamar|Bankinter|EVO Banco|"
        "Openbank|Arquia|Laboral Kutxa|Caisse d'Épargne|CIC|Monabanq|Ma French Bank|AIB|PTSB|"
        "Ulster Bank|Nationwide|Chase UK|TSB|Virgin Money|Kroo|Zopa|ANZ|Westpac|NAB|"
        "Commonwealth Bank|Bendigo|Macquarie|Suncorp|Bankwest|ASB|TSB NZ|Desjardins|"
        "Tangerine|Simplii|Koho|ATB|Laurentian|Vancity|Varo|SoFi|USAA|PenFed|BECU|Alliant|"
        "Schools First|Golden 1|Truist|Huntington|KeyBank|Fifth Third|BMO|Zions|Comerica|"
        "Associated Bank|Old National|Umpqua|Hancock Whitney|Synovus|Trustmark|BancFirst|"
        "Sicredi|Sicoob|Banrisul|Bancolombia|Produbanco|Interbank|Banamex|Inbursa|BanCoppel|"
        "BCI|BROU|BHD|Banreservas|BAC Credomatic|Ficohsa|Banistmo|Scotiabank Jamaica|"
        "NCB Jamaica|CIBC FirstCaribbean|NCBA|Stanbic|NMB|Discovery Bank|Zenith Bank|UBA|CBE|"
        "Dashen Bank|Awash Bank|CIB Egypt|Attijariwafa|BMCE|CIH Bank|BIAT|Leumi|"
        "Mizrahi Tefahot|Al Rajhi|SNB|Riyad Bank|SABB|Alinma|STC Bank|Wio|HDFC Bank|"
        "Axis Bank|IndusInd|Yes Bank|IDFC First|Mandiri|BRI|BNI|SeaBank|Maybank|CIMB|AmBank|"
        "GXBank|DBS|OCBC|UOB|GXS|MariBank|BDO|BPI|Metrobank|UnionBank|Techcombank|VPBank|ACB|"
        "TPBank|BIDV|Agribank|Sacombank|Kasikorn|SCB|Bangkok Bank|Krungsri|Krungthai|TTB|"
        "KBank|Shinhan|KB Kookmin|NongHyup|K Bank|MUFG|Sony Bank|SBI Sumishin|Cathay United|"
        "Taishin|BOCHK|ZA Bank|ICBC|CCB|China Merchants Bank|WeBank|MYbank"
    ),
    "broker": (
        "XT.com|Foxbit|Satoshi Tango|Ripio|ZebPay|Mudrex|Coinone|Zaif|Quidax|CoinJar|Swyftx|"
        "Bitbuy|Shakepay|NDAX|Coinmama|Paybis|Changelly|ChangeNOW|SimpleSwap|FixedFloat|dYdX|"
        "Hyperliquid|Aevo|Tastytrade|Tradestation|Webull|Moomoo|Futu|XTB|Plus500|CMC Markets|"
        "Pepperstone|IC Markets|OANDA|FXCM|Exness|FBS|RoboForex|Admirals|Finanzen.net Zero|"
        "Lightyear|Hargreaves Lansdown|AJ Bell|Fidelity|Schwab|Vanguard|Merrill Edge|"
        "Firstrade|Acorns|Betterment|Wealthfront|M1 Finance|5paisa|Kotak Securities|"
        "ICICI Direct|Sharekhan|Motilal Oswal|Stockbit|Ajaib|Bibit|Syfe|Endowus|StashAway|"
        "Longbridge|uSMART|Matsui|Kiwoom|Mirae Asset|Samsung Securities|NH Investment"
    ),
    "wallet": ("Pontem|Nightly|Bitkeep|Math Wallet|Xdefi|SecuX|Ambire|Uniswap Wallet"),
    "device": (
        "Sricam|Vstarcam|Zmodo|Botslab|Tenvis|Wansview|Escam|Jooan|Ctronics|Sannce|Zosi|"
        "Anran|Milesight|Hanwha Vision|Avigilon|Fanvil|Snom|Htek|Akuvox|DoorBird|Keenetic|"
        "Technicolor|Totolink|Cradlepoint|Sierra Wireless|Robustel|InHand|Comfast|Wavlink|"
        "Edimax|Trendnet|Ugreen|Western Digital|Buffalo LinkStation|Drobo|EnGenius|Cambium|"
        "Mimosa|Tarana|Siklu|Moes|Zemismart|Gosund|Honeywell Resideo|Busch-Jaeger|Zipato|"
        "Ezlo|Aeotec|Zooz|Inovelli|Lutron|Crestron|Control4|Savant|URC|Bluesound|WiiM|"
        "Marantz|Onkyo|Harman Kardon|Formuler|MAG Box|Dreambox|Vu+|Enigma2|Zgemma|Elegoo|"
        "Flashforge|Sovol|Voron|Glowforge|Cricut|Epson|Xerox|Lexmark|Toshiba TEC|Dymo|"
        "Fujitsu ScanSnap|CyberPower|Vertiv|Raritan|GoodWe|Solis|Sofar|Sonnen|BYD Battery|"
        "Pylontech|EcoFlow|Bluetti|Jackery|Anker Solix|Zendure|Myenergi|Juice Booster|Alfen|"
        "ChargePoint Home|Grizzl-E|RainMachine|Husqvarna|Segway Navimow|Neato|iRobot|Narwal|"
        "Dyson|Molekule|Coway|Levoit|Blueair|Awair|uHoo|Kaiterra|IQAir|PurpleAir|"
        "Ambient Weather|Ecowitt|Davis Instruments|Amplifi|Firewalla|Gryphon"
    ),
    "selfhost": (
        "Linkwarden|Karakeep|Hoarder|Leantime|Taiga|Huly|Zot|Sonatype|Cloudron|Sandstorm|"
        "Domoticz|ioBroker|Blocky|NextDNS|wg-easy|SoftEther|Traefik|Caddy|Zoraxy|Pangolin|"
        "Gatus|Statping|Beszel|Glances|Dozzle|TimescaleDB|RethinkDB|SeaweedFS|GlusterFS|"
        "UrBackup|Bacula|Bareos|Rockstor|rTorrent|Autobrr|Unpackerr|Recyclarr|Notifiarr|"
        "Pleroma|Kbin|Funkwhale|Stalwart|Maddy|Davical|Xandikos|Etherpad|HedgeDoc|CryptPad|"
        "OnlyOffice|Collabora|Stirling-PDF|Gotenberg|CyberChef|Affine|AppFlowy|SiYuan|"
        "Silverbullet|Docmost|Nautobot|Icinga|Nagios|PRTG|Smokeping|Speedtest Tracker|"
        "LibreSpeed|Openspeedtest|Changedetection|Ofelia|OpenVSCode|JupyterHub|"
        "RStudio Server"
    ),
    "game": (
        "Satisfactory|Avorion|Starbound|Don't Starve Together|Insurgency Sandstorm|"
        "Chivalry 2|Unturned|Necesse|Abiotic Factor|Soulmask|Barotrauma|Stationeers|"
        "Killing Floor 2|Left 4 Dead 2|Pixark|Hurtworld|Miscreated|Medieval Engineers|"
        "Astroneer|Smalland|Pantropy|Once Human|Nightingale|Sunkenland|Voyagers of Nera|"
        "Frozen Flame|Lord of the Rings Return to Moria|Palia|Beasts of Bermuda|"
        "Rising Storm 2|Day of Defeat|Natural Selection 2|Quake Live|OpenRA|Mindustry|"
        "Veloren|Minetest|Luanti|Teeworlds|DDNet|Wurm Unlimited|Holdfast|rFactor 2|"
        "Automobilista 2|American Truck Simulator|Farming Simulator 25|Stormworks|Bannerlord|"
        "Starsector|Terratech|Unrailed|Dyson Sphere Program|Stranded Deep|Subnautica|EA app|"
        "Mojang|Jagex|Old School RuneScape|Albion Online|Lost Ark|Elder Scrolls Online|"
        "Warframe|Tarkov|War Thunder|Wargaming|Gaijin|Genshin Impact|HoYoverse|"
        "Honkai Star Rail|Zenless|Wuthering Waves|Nexon|NCSoft|Pearl Abyss|Smilegate|"
        "Netmarble|Com2uS|Moonton|PUBG|Krafton|miHoYo|Supercell|Clash of Clans|Brawl Stars|"
        "Scopely|Playrix|Zynga|Rovio|Niantic|Pokemon GO|Pokemon Showdown|Chess24|"
        "Tabletop Simulator|Roll20|Owlbear Rodeo"
    ),
    "shop": (
        "Bol.com|Coolblue|Ceneo|Empik|Alza|Czc|Altex|Namshi|N11|Lamoda|Myntra|Meesho|Nykaa|"
        "Ajio|Snapdeal|Blibli|Tiki|Qoo10|11st|Yahoo Shopping|ZOZOTOWN|Tmall|Pinduoduo|Temu|"
        "Shein|AliExpress|Etsy|eBay|ThredUp|Grailed|Wallapop|Kleinanzeigen|Marktplaats|"
        "Blocket|DBA|OLX|Kufar|Lalafo|Olx.uz|Ripley|Paris.cl|Coppel|Magazine Luiza|"
        "Americanas|Casas Bahia|Submarino|Netshoes|Dafiti|Kabum|Pichau|Best Buy|Walmart|"
        "Costco|Kroger|Instacart|Shipt|Gopuff|Getir|Gorillas|Picnic|Ocado|Tesco|Sainsbury's|"
        "Morrisons|Waitrose|AO.com|Superdrug|Matalan|ASOS|Boohoo|Rue du Commerce|LDLC|"
        "Materiel.net|Veepee|Showroomprivé|Carrefour|Auchan|Intermarché|Monoprix|MediaMarkt|"
        "Cyberport|Notebooksbilliger|Mindfactory|Galaxus|Digitec|Interdiscount|Microspot|"
        "Conrad|Reichelt|Pollin|Thomann|Musicstore|Sweetwater|Reverb|Zooplus|Fressnapf|Petco|"
        "PetSmart|Wayfair|Bauhaus|Hornbach|Leroy Merlin|Castorama|Brico Dépôt|Screwfix|"
        "Toolstation|Bunnings|Mitre 10|Kmart|Big W|JB Hi-Fi|Harvey Norman|Canadian Tire|"
        "Loblaws|Shoppers Drug Mart|Sephora|Douglas|Notino|Lookfantastic|Feelunique|iHerb|"
        "Vitacost|Lyst|Zara|Uniqlo|Decathlon|Intersport|Sportisimo|Foot Locker|Snipes|Zappos|"
        "6pm|Overstock|Bed Bath|Kohl's|Macy's|Nordstrom|Saks|Bloomingdale's|Neiman Marcus|"
        "Dillard's|Belk|Old Navy|Abercrombie|Hollister|American Eagle|Urban Outfitters|"
        "Anthropologie|Lululemon|Gymshark|Fabletics|Allbirds|Everlane|Patagonia|REI|"
        "Backcountry|Moosejaw|Bergfreunde|Bergzeit|Globetrotter|Campz|Alpinetrek|Cotswold|"
        "Ellis Brigham|Blackleaf"
    ),
    "telecom": (
        "Vodafone|Telefónica|Movistar|Claro|Entel|Digicel|Glo|9mobile|Maroc Telecom|Ooredoo|"
        "Zain|Etisalat|STC|Mobily|Telenor|Zong|Ufone|Grameenphone|Banglalink|Ncell|Jio|BSNL|"
        "Mobifone|Vinaphone|AIS|dtac|Telkomsel|Indosat|XL Axiata|Smartfren|Celcom|Maxis|"
        "Singtel|StarHub|LG U+|NTT Docomo|SoftBank|Chunghwa|Taiwan Mobile|FarEasTone|CSL|"
        "SmarTone|China Mobile|China Unicom|China Telecom|Telstra|Optus|TPG|Aussie Broadband|"
        "2degrees|Rogers|Telus|Koodo|AT&T|Xfinity|Cox|CenturyLink|Windstream|O2|Giffgaff|"
        "Sky Mobile|Virgin Media|Plusnet|TalkTalk|Hyperoptic|Bouygues|SFR|Sosh|Telekom|"
        "Congstar|Aldi Talk|Fraenk|Swisscom|Drei|Proximus|Telenet|KPN|Odido|Ziggo|Simyo|"
        "Tele2|Telia|Elisa|Lyca|Lebara|WindTre|Iliad|Fastweb|PosteMobile|Ho. Mobile|NOS|MEO|"
        "Yoigo|Pepephone|Cosmote|Cyta|Kyivstar|lifecell|Beeline|MegaFon|MTS|Altel|Magticom|"
        "Geocell|Ucom|Azercell|Bakcell|Turkcell"
    ),
    "gov": (
        "Government Gateway|myGov|RealMe|CRA My Account|ServiceOntario|BundID|ELSTER|"
        "FranceConnect|Impots.gouv|France Travail|SPID|CIE ID|INPS|Agenzia delle Entrate|"
        "Cl@ve|Agencia Tributaria|Seguridad Social|Autenticação.gov|Chave Móvel Digital|"
        "DigiD|MijnOverheid|itsme|CSAM|MitID|NemID|BankID|Freja eID|Suomi.fi|Mobiil-ID|"
        "eParaksts|Latvija.lv|ePUAP|Profil Zaufany|mObywatel|NIA CZ|Datová schránka|"
        "Slovensko.sk|Ügyfélkapu|eGov Kazakhstan|Diia|UAE Pass|Absher|Tawakkalna|Nafath|"
        "Aadhaar|UMANG|Income Tax India|SingPass|CorpPass|MyDigital ID|MySejahtera|PhilSys|"
        "eGov PH|SSS Online|Pag-IBIG|BIR eFPS|LHDN MyTax|IRAS|IRD NZ|ATO Online|Centrelink|"
        "Medicare Online|Meu INSS|CPF Digital|AFIP|Mi Argentina|SAT México|CURP|SUNAT|"
        "My Number Portal|Hometax|Gov24|My Gov Israel|KRA iTax|eCitizen|Huduma|NIMC|"
        "UIF uFiling"
    ),
    "edu": (
        "D2L|Sakai|Edmodo|Classcraft|Quizizz|Gimkit|Blooket|Nearpod|Pear Deck|Padlet|"
        "Crowdmark|Perusall|ResearchGate|Academia.edu|Elsevier|Coursera|Udemy|Udacity|"
        "MasterClass|Khan Academy|AnkiWeb|LingQ|italki|Preply|Cambly|Chegg|Studocu|Brainly|"
        "Photomath|Mathway|Desmos|GeoGebra|Codecademy|DataCamp|Exercism|LeetCode|CodinGame|"
        "Kattis|AtCoder|TopCoder|CodePen|JSFiddle|CodeSandbox|Skyward|Aeries|Veracross|"
        "Blackbaud|Follett Destiny|IXL|DreamBox|Lexia|Raz-Kids|Libby|OverDrive|hoopla|Kanopy|"
        "Beanstack"
    ),
}

# -- value shapes ----------------------------------------------------------------------

LOW = string.ascii_lowercase
UP = string.ascii_uppercase
DIG = string.digits
AN = LOW + UP + DIG
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

WORDS = (
    "amber anchor apricot arrow aspen atlas badger bamboo banner basalt beacon birch biscuit "
    "blossom bramble breeze bronze bucket cactus canal candle canyon carbon cedar chalk cherry "
    "chisel cider cinder clover cobalt comet copper coral cotton cradle crater cricket crystal "
    "dahlia delta denim desert dolphin dragon drizzle dune eagle ember falcon feather fennel "
    "fern fig fjord flint fossil fox galaxy garnet ginger glacier granite gravel harbor hazel "
    "heron hickory honey horizon indigo iris ivory jasmine juniper kayak kettle kiwi lagoon "
    "lantern lava lemon lilac linen lotus magnet mango maple marble meadow mint mirror mosaic "
    "nectar nickel nutmeg oasis ocean olive onyx orchid otter oyster paddle panther papaya "
    "pebble pepper pigeon pine planet plum pollen poppy prism quartz quill radish raven reef "
    "ribbon river rocket saffron salmon sapphire scarlet shadow sierra silver sparrow spruce "
    "squid stone sugar summit sunset tango thistle thunder tiger timber topaz tulip tundra "
    "turnip velvet violet walnut willow winter yarrow zebra zinc"
).split()
NAMES = (
    "Aurelio Bogdana Cosmin Dagny Eilidh Fenna Gwenllian Hamza Ingrid Jovana Kaito Leilani "
    "Marisol Nkechi Oisin Priya Quentin Rasmus Saoirse Tomasz Ulla Valentina Wiremu Ximena "
    "Yusuf Zofia Anouk Bilal Chiara Dawit"
).split()
NONASCII = (
    "Ñandú Çiçek Größe Smørbrød Żubrówka Čokoláda Ðakovo Þingvellir Über Ōsaka Göteborg "
    "Škoda Brașov Niğde Łukasz Kraków Mañana Ålesund Fußball Sœur Piñata Ærøskøbing Těšín "
    "Dürüm Köttbullar Jägermeister Señorita Crème Façade Ljubljanač"
).split()
SYMS = "!#$%&*+-=?@^_.~"
MEMORABLE = (
    "Kittiwake Marzipan Galoshes Periwinkle Snickerdoodle Thunderbird Wanderlust Zeppelin "
    "Blancmange Bumblebee Cuttlefish Dandelion Gooseberry Hullabaloo Kerfuffle Lollipop "
    "Mistletoe Pumpernickel Quicksilver Rhubarb Samovar Whirligig Smörgåsbord Schadenfreude "
    "Bärlauch Kiełbasa Jalapeño Pfannkuchen Hjärtsmärta Ostrakon"
).split()


def pick(s: str, n: int) -> str:
    return "".join(R.choice(s) for _ in range(n))


def short_rand() -> str:
    """10 to 20 characters, no prefix; often mostly letters."""
    n = R.randint(10, 20)
    k = R.random()
    if k < 0.35:  # mostly letters: a few digits at random places
        chars = [R.choice(LOW + UP) for _ in range(n)]
        for i in R.sample(range(n), R.randint(1, 2)):
            chars[i] = R.choice(DIG)
        return "".join(chars)
    if k < 0.55:
        return pick(LOW + DIG, n)
    if k < 0.7:
        return pick(UP + DIG, n)
    if k < 0.8:
        return pick(B58, n)
    s = pick(AN, n)
    return s if re.search(r"\d", s) else s[:-1] + R.choice(DIG)


def long_rand() -> str:
    return pick(AN, R.choice((24, 28, 32, 36, 40, 48)))


def hexv() -> str:
    s = pick("0123456789abcdef", R.choice((32, 40, 48, 64)))
    return s.upper() if R.random() < 0.2 else s


def b64v() -> str:
    raw = bytes(R.randrange(256) for _ in range(R.choice((24, 32, 33, 45, 48))))
    return base64.b64encode(raw).decode()


def urlb64v() -> str:
    raw = bytes(R.randrange(256) for _ in range(R.choice((24, 32, 36, 43))))
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def uuidv() -> str:
    h = pick("0123456789abcdef", 32)
    h = h[:12] + "4" + h[13:16] + R.choice("89ab") + h[17:]
    u = f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
    return u.upper() if R.random() < 0.15 else u


def abbr(v: str) -> str:
    letters = re.sub(r"[^a-z]", "", v.lower())
    return letters[: R.choice((2, 3, 4))] or "xk"


def prefixed(v: str) -> str:
    a = abbr(v)
    return R.choice(
        (
            lambda: f"{a}_sk_{pick(AN, 32)}",
            lambda: f"{a}pat_{pick(LOW + DIG, 36)}",
            lambda: f"{a.upper()}-{pick(UP + DIG, 6)}-{pick(AN, 24)}",
            lambda: f"{a}-live-{pick(LOW + DIG, 28)}",
            lambda: f"{a}_{R.choice(('prd', 'p', 'live', 'srv'))}_{pick(AN, 30)}",
            lambda: f"{a}k1.{pick(LOW + DIG, 8)}.{pick(AN, 32)}",
            lambda: f"{a}_v2_{pick(B58, 40)}",
            lambda: f"{a.upper()}{pick(DIG, 2)}:{pick(AN, 26)}",
            lambda: f"{a}.{pick('0123456789abcdef', 12)}.{urlb64v()}",
        )
    )()


def jwtv() -> str:
    def enc(o: object) -> str:
        return base64.urlsafe_b64encode(json.dumps(o, separators=(",", ":")).encode()).decode()

    head = enc({"alg": R.choice(("HS256", "RS256", "ES256")), "typ": "JWT"}).rstrip("=")
    body = {"sub": pick(LOW + DIG, 12), "iat": R.randint(1700000000, 1790000000)}
    body[R.choice(("scope", "role", "aud", "org"))] = R.choice(WORDS)
    sig = base64.urlsafe_b64encode(bytes(R.randrange(256) for _ in range(32))).decode()
    return f"{head}.{enc(body).rstrip('=')}.{sig.rstrip('=')}"


def grouped() -> str:
    g, n = R.choice(((4, 4), (5, 5), (4, 5), (6, 4)))
    return "-".join(pick(UP + DIG, g) for _ in range(n))


def pairv() -> str:
    sep = R.choice((":", ".", "|", "/", "$"))
    return f"{pick(LOW + DIG, R.choice((8, 12, 16)))}{sep}{pick(AN, R.choice((24, 32, 40)))}"


def bytesv() -> str:
    n = R.choice((16, 20, 24))
    if R.random() < 0.5:
        return "[" + ", ".join(str(R.randrange(256)) for _ in range(n)) + "]"
    return "{" + ", ".join(f"0x{R.randrange(256):02x}" for _ in range(n)) + "}"


def totpv() -> str:
    s = pick(B32, R.choice((16, 26, 32)))
    return " ".join(s[i : i + 4] for i in range(0, len(s), 4)) if R.random() < 0.3 else s


def app_pw() -> str:
    return " ".join(pick(LOW, 4) for _ in range(4))


def human_pw() -> str:
    k = R.random()
    w = R.choice(WORDS)
    if k < 0.2:
        return f"{w.capitalize()}{R.randint(1960, 2026)}{R.choice(SYMS)}"
    if k < 0.35:
        return f"{R.choice(NAMES)}{R.choice(SYMS)}{R.randint(1, 99):02d}{R.choice(WORDS)}"
    if k < 0.45:
        leet = w.replace("a", "4").replace("e", "3").replace("o", "0").replace("i", "1")
        return f"{leet.capitalize()}{R.choice(SYMS)}{pick(DIG, 3)}{R.choice(WORDS).upper()}"
    if k < 0.67:
        return f"{R.choice(NONASCII)}{R.choice(SYMS)}{R.randint(10, 9999)}{R.choice(NAMES)}"
    if k < 0.8:
        return pick(AN + "!#%*@", R.randint(10, 16))
    return (
        f"{R.choice(WORDS)}{R.choice(('_', '.', '-', ''))}{R.choice(NAMES).lower()}"
        f"{R.randint(1, 31):02d}{R.randint(1, 12):02d}{R.choice(SYMS)}"
    )


def passphrase() -> str:
    sep = R.choice((" ", "-", ".", "_", " "))
    words = R.sample(WORDS, R.randint(4, 6))
    if R.random() < 0.3:
        words[R.randrange(len(words))] += str(R.randint(1, 99))
    return sep.join(words)


def seedwords() -> str:
    return " ".join(R.choice(WORDS) for _ in range(R.choice((12, 12, 24))))


def pinv() -> str:
    return pick(DIG, R.choice((4, 4, 5, 6, 6)))


def code8() -> str:
    s = pick(DIG, 8)
    return s if R.random() < 0.7 else f"{s[:4]} {s[4:]}"


def recovery() -> str:
    if R.random() < 0.5:
        return "-".join(pick(LOW + DIG, 4) for _ in range(2))
    return " ".join("-".join(pick(LOW + DIG, 4) for _ in range(2)) for _ in range(4))


def giftcard() -> str:
    return "-".join(pick(UP + DIG, 4) for _ in range(R.choice((4, 5))))


def privkey() -> str:
    return "0x" + pick("0123456789abcdef", 64)


# Each credential: (name, value class, shapes). Classes decide which forms may show it:
# key = tokens and keys; pw = passwords; num = PINs and codes; words = seed phrases and
# passphrases; code = recovery, gift and license codes.
KEYS: tuple[Callable[[str], str], ...] = (
    lambda v: short_rand(),
    lambda v: short_rand(),
    lambda v: short_rand(),
    lambda v: short_rand(),
    lambda v: jwtv(),
    lambda v: long_rand(),
    lambda v: hexv(),
    lambda v: b64v(),
    lambda v: urlb64v(),
    lambda v: uuidv(),
    prefixed,
    prefixed,
    lambda v: jwtv(),
    lambda v: pairv(),
    lambda v: pairv(),
)
PWS: tuple[Callable[[str], str], ...] = (
    lambda v: human_pw(),
    lambda v: human_pw(),
    lambda v: human_pw(),
    lambda v: short_rand(),
    lambda v: passphrase(),
)
CREDS: dict[str, list[tuple[str, str, tuple[Callable[[str], str], ...]]]] = {
    "saas": [
        ("API key", "key", KEYS),
        ("access token", "key", KEYS),
        ("webhook signing secret", "key", (lambda v: b64v(), lambda v: hexv(), prefixed)),
        ("admin token", "key", KEYS),
        (
            "client secret",
            "key",
            (lambda v: long_rand(), lambda v: urlb64v(), prefixed, lambda v: pairv()),
        ),
        ("ingest token", "key", (lambda v: uuidv(), lambda v: hexv(), prefixed)),
        ("service account key", "key", (lambda v: b64v(), lambda v: bytesv(), lambda v: jwtv())),
        ("license key", "code", (lambda v: grouped(),)),
        ("account password", "pw", PWS),
        ("service user password", "pw", PWS + (lambda v: long_rand(),)),
        ("SMTP relay password", "pw", (lambda v: long_rand(), lambda v: short_rand())),
    ],
    "ai": [
        ("API key", "key", KEYS),
        ("inference token", "key", KEYS),
        ("workspace secret", "key", (lambda v: hexv(), lambda v: urlb64v(), prefixed)),
    ],
    "pay": [
        ("secret key", "key", KEYS),
        ("webhook secret", "key", (lambda v: b64v(), lambda v: hexv(), prefixed)),
        ("merchant API password", "pw", PWS + (lambda v: long_rand(),)),
        ("HMAC key", "key", (lambda v: hexv(), lambda v: bytesv(), lambda v: b64v())),
    ],
    "bank": [
        ("online banking password", "pw", PWS),
        ("card PIN", "num", (lambda v: pinv(),)),
        ("TAN", "num", (lambda v: pinv(), lambda v: code8())),
        ("telephone banking passcode", "num", (lambda v: pinv(), lambda v: code8())),
        ("memorable word", "pw", (lambda v: R.choice(MEMORABLE),)),
        ("login passphrase", "words", (lambda v: passphrase(),)),
    ],
    "broker": [
        (
            "API secret",
            "key",
            (lambda v: hexv(), lambda v: b64v(), lambda v: long_rand(), lambda v: pairv()),
        ),
        ("API key", "key", KEYS),
        ("trading password", "pw", PWS),
        ("2FA seed", "code", (lambda v: totpv(),)),
    ],
    "wallet": [
        ("seed phrase", "words", (lambda v: seedwords(),)),
        ("private key", "key", (lambda v: privkey(), lambda v: privkey(), lambda v: pick(B58, 88))),
        ("spending password", "pw", PWS),
    ],
    "device": [
        ("admin password", "pw", PWS),
        ("Wi-Fi password", "pw", PWS + (lambda v: short_rand(),)),
        (
            "device key",
            "key",
            (lambda v: hexv(), lambda v: short_rand(), lambda v: uuidv(), lambda v: bytesv()),
        ),
        ("camera password", "pw", PWS),
    ],
    "selfhost": [
        ("admin password", "pw", PWS),
        ("API key", "key", (lambda v: hexv(), lambda v: long_rand(), lambda v: uuidv())),
        (
            "secret key",
            "key",
            (lambda v: b64v(), lambda v: urlb64v(), lambda v: long_rand(), lambda v: bytesv()),
        ),
        ("database password", "pw", PWS + (lambda v: long_rand(),)),
    ],
    "game": [
        ("server password", "pw", PWS),
        ("RCON password", "pw", PWS + (lambda v: short_rand(),)),
        ("account password", "pw", PWS),
        ("backup code", "code", (lambda v: recovery(), lambda v: code8())),
    ],
    "shop": [
        ("account password", "pw", PWS),
        ("gift card code", "code", (lambda v: giftcard(),)),
        ("seller API key", "key", KEYS),
    ],
    "telecom": [
        ("SIM PUK", "num", (lambda v: pick(DIG, 8),)),
        ("SIM PIN", "num", (lambda v: pinv(),)),
        ("account password", "pw", PWS),
        ("port-out PIN", "num", (lambda v: pinv(), lambda v: code8())),
    ],
    "gov": [
        ("login password", "pw", PWS),
        ("PIN", "num", (lambda v: pinv(),)),
        ("recovery code", "code", (lambda v: recovery(), lambda v: grouped())),
        ("app password", "pw", (lambda v: app_pw(),)),
    ],
    "edu": [
        ("password", "pw", PWS),
        ("API token", "key", KEYS),
        ("LTI shared secret", "key", (lambda v: hexv(), lambda v: long_rand())),
    ],
}

# -- names -------------------------------------------------------------------------------

CRED_WORDS = {
    "key": (
        "API_KEY APIKEY KEY ACCESS_KEY TOKEN API_TOKEN TKN SECRET AUTH_TOKEN CREDENTIAL "
        "SECRET_KEY PRIVATE_TOKEN NYCKEL SLEUTEL CHIAVE_API CHEIE KULCS AVAIN KLIC KLJUC "
        "RAKTAS VOTI ANAHTAR KUNCI ALLWEDD GILTZA KLEIDI KHOA LLAVE CLE_API SIGNING_SECRET "
        "BEARER ACCESS_TOKEN AUTHKEY X_KEY APPKEY APP_SECRET"
    ).split(),
    "pw": (
        "PASSWORD PASSWD PWD PASS PW PASSPHRASE LOSENORD JELSZO PAROLA HASLO SLAPTAZODIS "
        "PAROOL GESLO LOZINKA SIFRE KATA_SANDI MOT_DE_PASSE CONTRASENA SENHA CYFRINAIR "
        "PASAHITZA KODEORD SALASANA_ADMIN LOGIN_PASS ADMIN_PW ROOT_PASS USER_PASSWORD"
    ).split(),
    "num": "PIN PINCODE CODE OTP TAN PUK PASSCODE KOD KODI NIP".split(),
    "words": "PASSPHRASE MNEMONIC SEED SEED_WORDS RECOVERY_PHRASE FRAZA SIEMEN".split(),
    "code": "CODE RECOVERY_CODE BACKUP_CODE LICENSE GIFT_CODE VOUCHER SERIAL".split(),
}
ENVS = "PROD LIVE STAGING DEV EU US QA PRD INT UAT".split()


def slug(v: str) -> str:
    plain = unicodedata.normalize("NFKD", v.replace("ı", "i").replace("ł", "l"))
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    s = re.sub(r"[^a-z0-9]+", "_", plain.lower().replace("&", "and")).strip("_")
    return s or "svc"


def env_name(v: str, cls: str) -> str:
    """An UPPER_SNAKE name: the credential word first, last or in the middle, sometimes
    with an environment part; now and then no vendor in it at all."""
    w = R.choice(CRED_WORDS[cls])
    s = slug(v).upper()
    e = R.choice(ENVS)
    return R.choice(
        (
            f"{s}_{w}",
            f"{s}_{w}",
            f"{w}_{s}",
            f"{s}_{e}_{w}",
            f"{e}_{s}_{w}",
            f"{s}_{w}_{e}",
            f"{w}_{s}_{e}",
            f"{s}{w.replace('_', '')}",
            f"{s}_{w}_{R.randint(1, 3)}",
        )
    )


def snake(name: str) -> str:
    return name.lower()


def camel(name: str) -> str:
    p = name.lower().split("_")
    return p[0] + "".join(x.capitalize() for x in p[1:])


def pascal(name: str) -> str:
    return "".join(x.capitalize() for x in name.lower().split("_"))


def kebab(name: str) -> str:
    return name.lower().replace("_", "-")


def dotted(name: str) -> str:
    return name.lower().replace("_", ".")


def header(v: str) -> str:
    return (
        "X-"
        + "-".join(x.capitalize() for x in slug(v).split("_"))
        + "-"
        + R.choice(("Key", "Token", "Auth", "Api-Key", "Secret", "Signature-Key"))
    )


# -- forms -------------------------------------------------------------------------------
# A form turns one secret (vendor, credential, value, a name for it) into a text. Each
# says which secrets it may show: a PIN never sits in an HTTP header, a Wi-Fi file only
# holds a Wi-Fi password, a game server file only a game server's password.

Form = tuple[str, str, Callable[[dict], bool], Callable[[dict], str]]
FORMS: list[Form] = []


def form(name: str, group: str, accept: Callable[[dict], bool]) -> Callable:
    def add(fn: Callable[[dict], str]) -> Callable[[dict], str]:
        FORMS.append((name, group, accept, fn))
        return fn

    return add


def ANY(s: dict) -> bool:
    return True


def K(s: dict) -> bool:
    return s["cls"] == "key" and s["cat"] not in ("bank", "shop", "gov", "wallet")


def P(s: dict) -> bool:
    return (
        s["cls"] == "pw"
        and s["cat"] in ("saas", "ai", "pay", "broker", "selfhost")
        and s["c"] not in ("account password", "trading password")
    )


def KP(s: dict) -> bool:
    return K(s) or P(s)


def URLSAFE(s: dict) -> bool:
    return re.fullmatch(r"[A-Za-z0-9._~-]+", s["x"]) is not None


def KU(s: dict) -> bool:
    return K(s) and URLSAFE(s)


def PU(s: dict) -> bool:
    return P(s) and URLSAFE(s)


def XMLOK(s: dict) -> bool:
    return not re.search(r"[&<>\"']", s["x"])


def ONELINE(s: dict) -> bool:
    return not re.search(r"[\s'\"\\$`!]", s["x"])


def WIFI(s: dict) -> bool:
    return s["c"] == "Wi-Fi password"


def DEVPW(s: dict) -> bool:
    return s["cat"] == "device" and s["c"] == "admin password"


def GAMEPW(s: dict) -> bool:
    return s["cat"] == "game" and s["c"] in ("server password", "RCON password")


def SEEDWORDS(s: dict) -> bool:
    return s["c"] == "seed phrase"


def PRIV(s: dict) -> bool:
    return s["c"] == "private key" and s["x"].startswith("0x")


def SELF(s: dict) -> bool:
    return s["cat"] == "selfhost" and s["cls"] in ("key", "pw")


def PERSON(s: dict) -> bool:
    """A person's own login: banks, shops, telecoms, government and school accounts."""
    if s["c"] in ("account password", "trading password"):
        return True
    return s["cat"] in ("bank", "shop", "telecom", "gov", "edu", "game") and s["cls"] == "pw"


def q(x: str) -> str:
    return json.dumps(x, ensure_ascii=False)


def pick1(*xs: str) -> str:
    return R.choice(xs)


# ---- chat prose in many languages (any value; the credential named in passing)

PROSE = {
    "Basque": "Kaixo, hona hemen {v}-ko {c}: {x} — ez partekatu inorekin mesedez",
    "Catalan": "ei, et passo la {c} de {v}: {x} (la vaig canviar ahir)",
    "Welsh": "Dyma'r {c} ar gyfer {v}: {x} diolch yn fawr",
    "Breton": "Setu ar {c} evit {v}: {x}",
    "Faroese": "Her er {c} til {v}: {x} takk fyri",
    "West Frisian": "Hjir is de {c} fan {v}: {x}, tank!",
    "Lithuanian": "Labas, štai {v} {c}: {x} — naudok šitą",
    "Slovak": "Tu je {c} pre {v}: {x}, prosím nezdieľaj",
    "Czech": "posílám {c} k {v}: {x} díky",
    "Croatian": "Evo {c} za {v}: {x} — promijenit ću ga sutra",
    "Bulgarian": "Ето го {c} за {v}: {x}",
    "Greek": "Ορίστε το {c} για το {v}: {x} ευχαριστώ",
    "Turkish": "{v} için {c} şu: {x} kimseyle paylaşma lütfen",
    "Kazakh": "Міне {v} үшін {c}: {x}",
    "Georgian": "აი {v}-ის {c}: {x}",
    "Persian": "این {c} مربوط به {v} است: {x} لطفا جایی ذخیره نکن",
    "Urdu": "{v} کا {c} یہ ہے: {x}",
    "Bengali": "{v}-এর {c} এটা: {x} ধন্যবাদ",
    "Malayalam": "{v} {c} ഇതാണ്: {x}",
    "Tagalog": "Eto yung {c} ng {v}: {x} salamat po",
    "Indonesian": "ini {c} {v} nya: {x} jangan disebar ya",
    "Vietnamese": "đây là {c} của {v}: {x} nhé",
    "Thai": "นี่คือ {c} ของ {v}: {x} ครับ",
    "Swahili": "Hii ndiyo {c} ya {v}: {x} asante",
    "Yoruba": "Eyi ni {c} fun {v}: {x} e se",
    "Xhosa": "Nantsi i-{c} ye-{v}: {x} enkosi",
    "Haitian Creole": "Men {c} pou {v}: {x} mèsi anpil",
    "Hebrew": "הנה ה-{c} של {v}: {x} תודה",
    "Arabic": "هذا {c} الخاص بـ {v}: {x} شكرا",
    "Ukrainian": "Ось {c} для {v}: {x} дякую",
    "Romanian": "uite {c} pentru {v}: {x} mersi",
    "Hungarian": "itt a {v} {c}: {x} köszi",
    "Finnish": "tässä {v}:n {c}: {x} kiitos",
    "Polish": "masz tu {c} do {v}: {x} nie udostępniaj",
    "Brazilian Portuguese": "segue a {c} do {v}: {x} valeu",
    "Japanese": "{v}の{c}はこちらです: {x} よろしくお願いします",
    "Korean": "{v} {c} 여기요: {x} 감사합니다",
    "Norwegian Nynorsk": "her er {c} til {v}: {x} takk",
}
for _lang, _tpl in PROSE.items():
    form(f"chat prose in {_lang}", "chat", ANY)(
        lambda s, t=_tpl: t.format(v=s["v"], c=s["c"], x=s["x"])
    )


@form("chat: a Slack thread reply with a mention", "chat", ANY)
def _f(s: dict) -> str:
    return (
        f"@{R.choice(NAMES).lower()} the {s['c']} for {s['v']} is `{s['x']}` — ping me if it 401s"
    )


@form("chat: a typo'd one-liner", "chat", ANY)
def _f(s: dict) -> str:
    t = pick1("pasword", "passwrod", "tokne", "apikye", "secert", "crednetials", "pw is")
    return f"{s['v']} {t} {s['x']} pls dont commit it"


@form("chat: a Signal note to self", "chat", ANY)
def _f(s: dict) -> str:
    return f"Note to Self\n{s['v']}\n{s['x']}\n(ask {R.choice(NAMES)} if it stops working)"


@form("chat: a Telegram saved message", "chat", ANY)
def _f(s: dict) -> str:
    return f"[Saved Messages] Forwarded from {R.choice(NAMES)}:\n{s['v']} — {s['c']}: {s['x']}"


@form("chat: an iMessage export line", "chat", ANY)
def _f(s: dict) -> str:
    return (
        f"{R.randint(1, 28)} Mar 2026 at 21:{R.randint(10, 59)} — Me: {s['v']} {s['c']} is {s['x']}"
    )


@form("chat: a Jira comment", "chat", ANY)
def _f(s: dict) -> str:
    return (
        f"*{R.choice(NAMES)}* added a comment - 2 hours ago\n"
        f"Rotated the {s['v']} {s['c']}. New one: {{{{ {s['x']} }}}} — updating the runbook next."
    )


@form("chat: a Trello card description", "chat", ANY)
def _f(s: dict) -> str:
    return f"## Access\n- Service: {s['v']}\n- {s['c']}: {s['x']}\n- Owner: {R.choice(NAMES)}"


@form("chat: a Matrix room message", "chat", ANY)
def _f(s: dict) -> str:
    return f"<@{R.choice(NAMES).lower()}:matrix.org> use this one for {s['v']}: {s['x']}"


@form("chat: an IRC log line", "chat", ANY)
def _f(s: dict) -> str:
    return f"[21:{R.randint(10, 59)}] <{R.choice(NAMES).lower()}> {s['v']} {s['c']} = {s['x']}"


@form("chat: an SMS forwarded into chat", "chat", ANY)
def _f(s: dict) -> str:
    return f"Fwd SMS from {s['v']}: {s['x']} — can you put this in, I'm driving"


@form("chat: a forwarded email with a signature", "chat", ANY)
def _f(s: dict) -> str:
    return (
        f"---------- Forwarded message ---------\nFrom: IT Desk <it@{s['sl']}.example>\n"
        f"Subject: your {s['v']} access\n\nHi,\n\nYour {s['c']}: {s['x']}\n\n"
        f"Kind regards,\n{R.choice(NAMES)}\nIT Service Desk"
    )


@form("chat: a standup bullet", "chat", ANY)
def _f(s: dict) -> str:
    return f"- yesterday: set up {s['v']} ({s['c']} {s['x']}), today: wire the webhook"


@form("chat: a retro note", "chat", ANY)
def _f(s: dict) -> str:
    return f"What went wrong: the {s['v']} {s['c']} ({s['x']}) expired mid-deploy, nobody owned it"


@form("chat: a prompt asking the agent to use a value", "chat", ANY)
def _f(s: dict) -> str:
    return f"can you update the {s['v']} integration? use {s['x']} as the {s['c']}, the old one is dead"


@form("chat: a note with only the value and a hint", "chat", ANY)
def _f(s: dict) -> str:
    return f"{s['v']}\n{s['x']}"


@form("chat: a meeting notes doc", "chat", ANY)
def _f(s: dict) -> str:
    return (
        f"# Sync {R.randint(1, 28)}.{R.randint(1, 12)}.\nAttendees: {R.choice(NAMES)}, "
        f"{R.choice(NAMES)}\n* {s['v']} onboarding done\n* {s['c']}: {s['x']} (move to vault!)"
    )


@form("chat: a Confluence page excerpt", "chat", ANY)
def _f(s: dict) -> str:
    return f"h2. {s['v']} setup\n||Item||Value||\n|{s['c']}|{s['x']}|\n|Contact|{R.choice(NAMES)}|"


@form("chat: a GitHub issue body", "chat", ANY)
def _f(s: dict) -> str:
    return (
        f"### Steps to reproduce\n1. export the {s['v']} {s['c']} `{s['x']}`\n"
        "2. run `make sync`\n\n### Expected\nsync works\n### Actual\n403"
    )


@form("chat: a Loom transcript", "chat", ANY)
def _f(s: dict) -> str:
    return f"00:0{R.randint(1, 9)}:{R.randint(10, 59)} so here I paste the {s['c']}, it's {s['x']}, and hit save"


@form("chat: a Basecamp message", "chat", ANY)
def _f(s: dict) -> str:
    return f"Re: {s['v']} login\n{R.choice(NAMES)} wrote: the shared one is {s['x']} until Friday."


@form("chat: a Jupyter markdown cell", "chat", ANY)
def _f(s: dict) -> str:
    return f"**Setup.** Before running, paste your {s['v']} {s['c']} (mine: `{s['x']}`) into the cell below."


@form("chat: a haiku-style reminder", "chat", ANY)
def _f(s: dict) -> str:
    return f"remember for {s['v']}:\n  {s['x']}\nnot the old one"


# ---- notes and handwritten-style records (any value)


@form("note: a KeePass XML entry", "note", lambda s: XMLOK(s))
def _f(s: dict) -> str:
    return (
        f"<Entry><String><Key>Title</Key><Value>{s['v']}</Value></String>"
        f"<String><Key>UserName</Key><Value>{s['user']}</Value></String>"
        f"<String><Key>Password</Key><Value>{s['x']}</Value></String></Entry>"
    )


@form("note: a Bitwarden JSON export item", "note", ANY)
def _f(s: dict) -> str:
    return json.dumps(
        {"type": 1, "name": s["v"], "login": {"username": s["user"], "password": s["x"]}},
        ensure_ascii=False,
    )


@form("note: a password notebook typed up", "note", ANY)
def _f(s: dict) -> str:
    return f"{s['v'].upper()} ..... {s['user']} / {s['x']}"


@form("note: an Evernote checklist", "note", ANY)
def _f(s: dict) -> str:
    return f"[x] open {s['v']} account\n[ ] set up autopay\n[x] {s['c']}: {s['x']}"


@form("note: a back-of-envelope list", "note", ANY)
def _f(s: dict) -> str:
    others = ", ".join(R.sample(WORDS, 2))
    return f"groceries: {others}\n{s['v']} -> {s['x']}\ncall dentist"


# ---- config files (keys and passwords)


@form("config: .npmrc scoped auth token", "config", KU)
def _f(s: dict) -> str:
    return (
        f"@{s['sl']}:registry=https://npm.{s['sl']}.dev/\n//npm.{s['sl']}.dev/:_authToken={s['x']}"
    )


@form("config: pip.conf index-url with a token", "config", KU)
def _f(s: dict) -> str:
    return f"[global]\nindex-url = https://__token__:{s['x']}@pypi.{s['sl']}.dev/simple/"


@form("config: Cargo credentials.toml", "config", K)
def _f(s: dict) -> str:
    return f'[registries.{s["sl"].replace("_", "-")}]\ntoken = "{s["x"]}"'


@form("config: gradle.properties", "config", KP)
def _f(s: dict) -> str:
    return f"org.gradle.jvmargs=-Xmx2g\n{camel(s['n'])}={s['x']}\nandroid.useAndroidX=true"


@form("config: Android local.properties", "config", KP)
def _f(s: dict) -> str:
    return (
        f"sdk.dir=/Users/{s['user'].split('@')[0]}/Library/Android/sdk\n{dotted(s['n'])}={s['x']}"
    )


@form("config: Gradle signingConfigs storePassword", "config", P)
def _f(s: dict) -> str:
    return (
        "signingConfigs {\n    release {\n        storeFile file('release.jks')\n"
        f"        storePassword '{s['x']}'\n        keyAlias '{s['sl']}'\n    }}\n}}"
    )


@form("config: iOS .xcconfig", "config", K)
def _f(s: dict) -> str:
    return (
        f"// Secrets.xcconfig\n{s['n']} = {s['x']}\nPRODUCT_BUNDLE_IDENTIFIER = com.{s['sl']}.app"
    )


@form("config: macOS plist string", "config", lambda s: KP(s) and XMLOK(s))
def _f(s: dict) -> str:
    return f"<dict>\n  <key>{pascal(s['n'])}</key>\n  <string>{s['x']}</string>\n</dict>"


@form("config: Windows .reg export", "config", KP)
def _f(s: dict) -> str:
    return (
        f"Windows Registry Editor Version 5.00\n\n[HKEY_CURRENT_USER\\Software\\{pascal(s['sl'])}]\n"
        f'"{pascal(s["n"])}"="{s["x"]}"'
    )


@form("config: systemd unit Environment=", "config", KP)
def _f(s: dict) -> str:
    return (
        f"[Service]\nExecStart=/usr/local/bin/{s['sl']}-agent\n"
        f'Environment="{s["n"]}={s["x"]}"\nRestart=always'
    )


@form("config: supervisord program environment", "config", lambda s: KP(s) and ONELINE(s))
def _f(s: dict) -> str:
    return (
        f'[program:{s["sl"]}]\ncommand=/opt/{s["sl"]}/run\nenvironment={s["n"]}="{s["x"]}",TZ="UTC"'
    )


@form("config: pm2 ecosystem.config.js", "config", KP)
def _f(s: dict) -> str:
    return (
        f"module.exports = {{ apps: [{{ name: '{s['sl']}', script: 'dist/main.js',\n"
        f"  env_production: {{ NODE_ENV: 'production', {s['n']}: '{s['x']}' }} }}] }}"
    )


@form("config: .envrc for direnv", "config", KP)
def _f(s: dict) -> str:
    return f"use flake\nexport {s['n']}='{s['x']}'\ndotenv_if_exists .env.local"


@form("config: mise.toml env table", "config", KP)
def _f(s: dict) -> str:
    return f'[tools]\nnode = "22"\n\n[env]\n{s["n"]} = "{s["x"]}"'


@form("config: Justfile variable", "config", KP)
def _f(s: dict) -> str:
    return f'{snake(s["n"])} := "{s["x"]}"\n\ndeploy:\n    ./deploy.sh --{kebab(s["sl"])}'


@form("config: Taskfile.yml env", "config", KP)
def _f(s: dict) -> str:
    return f"version: '3'\nenv:\n  {s['n']}: '{s['x']}'\ntasks:\n  sync:\n    cmds: [./sync]"


@form("config: Makefile variable", "config", KP)
def _f(s: dict) -> str:
    return f"{s['n']} ?= {s['x']}\n\nrun:\n\t{s['n']}=$({s['n']}) go run ./cmd/server"


@form("config: Vagrantfile provisioning env", "config", KP)
def _f(s: dict) -> str:
    return (
        'Vagrant.configure("2") do |config|\n'
        f'  config.vm.provision "shell", env: {{"{s["n"]}" => "{s["x"]}"}}, path: "setup.sh"\nend'
    )


@form(
    "config: Ansible inventory ansible_password",
    "config",
    lambda s: (P(s) or DEVPW(s)) and ONELINE(s),
)
def _f(s: dict) -> str:
    return f"[{s['sl']}]\n10.0.{R.randint(0, 9)}.{R.randint(2, 250)} ansible_user=admin ansible_password={s['x']}"


@form("config: Ansible group_vars", "config", KP)
def _f(s: dict) -> str:
    return f'---\n{snake(s["n"])}: "{s["x"]}"\n{s["sl"]}_region: eu-west'


@form("config: Salt pillar", "config", KP)
def _f(s: dict) -> str:
    return f"{s['sl']}:\n  credentials:\n    {snake(s['n'])}: '{s['x']}'"


@form("config: terraform.tfvars", "config", KP)
def _f(s: dict) -> str:
    return f'region = "eu-central-1"\n{snake(s["n"])} = "{s["x"]}"'


@form("config: terragrunt.hcl inputs", "config", KP)
def _f(s: dict) -> str:
    return f'inputs = {{\n  env = "prod"\n  {snake(s["n"])} = "{s["x"]}"\n}}'


@form("config: Helm values.yaml nested", "config", KP)
def _f(s: dict) -> str:
    return (
        f'{camel(s["sl"])}:\n  enabled: true\n  auth:\n    existingSecret: ""\n'
        f'    {camel(s["n"])}: "{s["x"]}"'
    )


@form("config: Skaffold setValues", "config", KP)
def _f(s: dict) -> str:
    return f'deploy:\n  helm:\n    releases:\n    - name: app\n      setValues:\n        {dotted(s["n"])}: "{s["x"]}"'


@form("config: docker-compose environment list", "config", KP)
def _f(s: dict) -> str:
    return f"services:\n  worker:\n    image: {s['sl']}/worker:2\n    environment:\n      - {s['n']}={s['x']}"


@form("config: Spring application.properties", "config", KP)
def _f(s: dict) -> str:
    return f"spring.application.name=orders\n{s['sl']}.{dotted(s['n']).split('.')[-1]}={s['x']}"


@form("config: Quarkus application.properties", "config", KP)
def _f(s: dict) -> str:
    return f"quarkus.rest-client.{kebab(s['sl'])}.url=https://api.{s['sl']}.io\n%prod.{kebab(s['sl'])}.{kebab(s['n'])}={s['x']}"


@form("config: Laravel .env", "config", KP)
def _f(s: dict) -> str:
    return f'APP_ENV=production\nAPP_DEBUG=false\n{s["n"]}="{s["x"]}"\nQUEUE_CONNECTION=redis'


@form("config: Symfony .env.local", "config", KP)
def _f(s: dict) -> str:
    return f"###> {s['sl']}/bundle ###\n{s['n']}={s['x']}\n###< {s['sl']}/bundle ###"


@form("config: Nuxt runtimeConfig", "config", KP)
def _f(s: dict) -> str:
    return f"export default defineNuxtConfig({{\n  runtimeConfig: {{ {camel(s['n'])}: '{s['x']}' }},\n}})"


@form("config: wrangler.toml vars table", "config", KP)
def _f(s: dict) -> str:
    return f'name = "edge-{s["sl"]}"\nmain = "src/index.ts"\n\n[vars]\n{s["n"]} = "{s["x"]}"'


@form("config: render.yaml envVars", "config", KP)
def _f(s: dict) -> str:
    return f'services:\n  - type: web\n    name: api\n    envVars:\n      - key: {s["n"]}\n        value: "{s["x"]}"'


@form("config: Kamal deploy.yml env clear", "config", KP)
def _f(s: dict) -> str:
    return f'service: shop\nimage: acme/shop\nenv:\n  clear:\n    {s["n"]}: "{s["x"]}"'


@form("config: Heroku app.json env", "config", KP)
def _f(s: dict) -> str:
    return json.dumps(
        {"name": "shop", "env": {s["n"]: {"value": s["x"], "required": True}}}, ensure_ascii=False
    )


@form("config: DigitalOcean app spec", "config", KP)
def _f(s: dict) -> str:
    return f'name: shop\nservices:\n- name: web\n  envs:\n  - key: {s["n"]}\n    scope: RUN_TIME\n    value: "{s["x"]}"'


@form("config: .vscode/settings.json", "config", K)
def _f(s: dict) -> str:
    return json.dumps(
        {"editor.formatOnSave": True, f"{s['sl']}.{camel(s['n'])}": s["x"]},
        indent=2,
        ensure_ascii=False,
    )


@form("config: JetBrains dataSources.local.xml", "config", lambda s: P(s) and XMLOK(s))
def _f(s: dict) -> str:
    return f'<data-source name="{s["v"]}">\n  <user-name>{s["user"]}</user-name>\n  <password>{s["x"]}</password>\n</data-source>'


@form("config: DBeaver credentials in data-sources.json", "config", P)
def _f(s: dict) -> str:
    return json.dumps(
        {
            "connections": {
                f"postgres-{s['sl']}": {"configuration": {"user": s["user"], "password": s["x"]}}
            }
        },
        indent=1,
        ensure_ascii=False,
    )


@form("config: ~/.pgpass", "config", lambda s: P(s) and ":" not in s["x"])
def _f(s: dict) -> str:
    return f"db.{s['sl']}.internal:5432:*:{s['user']}:{s['x']}"


@form("config: my.cnf client section", "config", P)
def _f(s: dict) -> str:
    return f'[client]\nuser={s["user"]}\npassword="{s["x"]}"\nhost=db.{s["sl"]}.internal'


@form("config: redis.conf requirepass", "config", lambda s: P(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"bind 0.0.0.0\nport 6379\nrequirepass {s['x']}\nmaxmemory 256mb"


@form("config: pgbouncer userlist.txt", "config", lambda s: P(s) and '"' not in s["x"])
def _f(s: dict) -> str:
    return f'"{s["user"]}" "{s["x"]}"'


@form("config: rabbitmq.conf default_pass", "config", lambda s: P(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"default_user = {s['user']}\ndefault_pass = {s['x']}\nlisteners.tcp.default = 5672"


@form("config: mosquitto bridge remote_password", "config", lambda s: KP(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"connection {s['sl']}-bridge\naddress mqtt.{s['sl']}.io:8883\nremote_username {s['user']}\nremote_password {s['x']}"


@form("config: Home Assistant secrets.yaml", "config", lambda s: KP(s) or DEVPW(s))
def _f(s: dict) -> str:
    return f'latitude: 52.1\n{snake(s["n"])}: "{s["x"]}"'


@form("config: Transmission settings.json rpc-password", "config", SELF)
def _f(s: dict) -> str:
    return json.dumps(
        {"rpc-authentication-required": True, "rpc-username": s["user"], "rpc-password": s["x"]},
        indent=4,
        ensure_ascii=False,
    )


@form("config: an *arr config.xml ApiKey", "config", lambda s: SELF(s) and XMLOK(s))
def _f(s: dict) -> str:
    return f"<Config>\n  <Port>8989</Port>\n  <ApiKey>{s['x']}</ApiKey>\n  <AuthenticationMethod>Forms</AuthenticationMethod>\n</Config>"


@form("config: wpa_supplicant.conf", "config", lambda s: WIFI(s) and '"' not in s["x"])
def _f(s: dict) -> str:
    return f'network={{\n    ssid="{s["v"]}-{pick(UP + DIG, 4)}"\n    psk="{s["x"]}"\n    key_mgmt=WPA-PSK\n}}'


@form("config: Arduino sketch Wi-Fi constants", "code", lambda s: WIFI(s))
def _f(s: dict) -> str:
    return f'#include <WiFi.h>\nconst char* ssid = "{s["v"]}_{pick(DIG, 4)}";\nconst char* password = "{s["x"]}";'


@form("config: MicroPython boot.py", "code", WIFI)
def _f(s: dict) -> str:
    return f"import network\nw = network.WLAN(network.STA_IF)\nw.active(True)\nw.connect('{s['v']}-5G', '{s['x']}')"


@form("config: Samba credentials file", "config", lambda s: DEVPW(s) or P(s))
def _f(s: dict) -> str:
    return f"username={s['user']}\npassword={s['x']}\ndomain=WORKGROUP"


@form("config: ppp chap-secrets", "config", lambda s: (DEVPW(s) or P(s)) and ONELINE(s))
def _f(s: dict) -> str:
    return f"# client  server  secret  IP addresses\n{s['user']}  *  {s['x']}  *"


@form("config: ddclient.conf", "config", lambda s: KP(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"protocol=dyndns2\nserver=dyn.{s['sl']}.net\nlogin={s['user']}\npassword={s['x']}\nhome.example.org"


@form(
    "config: snmpd.conf community",
    "config",
    lambda s: (DEVPW(s) or s["c"] == "device key") and ONELINE(s),
)
def _f(s: dict) -> str:
    return f"rocommunity {s['x']} 10.0.0.0/24\nsyslocation rack-2"


@form("config: FreeRADIUS clients.conf", "config", lambda s: (DEVPW(s) or KP(s)) and ONELINE(s))
def _f(s: dict) -> str:
    return f"client {s['sl']}-ap {{\n    ipaddr = 10.1.0.{R.randint(2, 250)}\n    secret = {s['x']}\n}}"


@form("config: Asterisk pjsip.conf auth", "config", lambda s: (DEVPW(s) or P(s)) and ONELINE(s))
def _f(s: dict) -> str:
    return f"[{R.randint(100, 999)}-auth]\ntype=auth\nauth_type=userpass\nusername={R.randint(100, 999)}\npassword={s['x']}"


@form("config: Kodi advancedsettings.xml", "config", lambda s: (DEVPW(s) or SELF(s)) and XMLOK(s))
def _f(s: dict) -> str:
    return f"<advancedsettings>\n  <videodatabase>\n    <user>kodi</user>\n    <pass>{s['x']}</pass>\n  </videodatabase>\n</advancedsettings>"


@form("config: Minecraft server.properties rcon", "config", GAMEPW)
def _f(s: dict) -> str:
    return f"enable-rcon=true\nrcon.port=25575\nrcon.password={s['x']}\nmotd={s['v']} night"


@form("config: Don't Starve-style cluster.ini", "config", GAMEPW)
def _f(s: dict) -> str:
    return f"[NETWORK]\ncluster_name = {s['v']} friends\ncluster_password = {s['x']}\ncluster_intention = cooperative"


@form(
    "config: Source engine server.cfg rcon_password",
    "config",
    lambda s: GAMEPW(s) and '"' not in s["x"],
)
def _f(s: dict) -> str:
    return f'hostname "{s["v"]} | EU"\nrcon_password "{s["x"]}"\nsv_lan 0'


@form("config: Unreal Game.ini AdminPassword", "config", GAMEPW)
def _f(s: dict) -> str:
    return f"[/Script/Engine.GameSession]\nMaxPlayers=24\n[ServerSettings]\nAdminPassword={s['x']}"


@form("config: game serversettings.xml", "config", lambda s: GAMEPW(s) and XMLOK(s))
def _f(s: dict) -> str:
    return f'<serversettings name="{s["v"]} crew" password="{s["x"]}" maxplayers="8" />'


@form("config: Euro Truck-style server_config.sii", "config", GAMEPW)
def _f(s: dict) -> str:
    return f'SiiNunit\n{{\nserver_config : _nameless.1 {{\n lobby_name: "{s["v"]} convoy"\n password: "{s["x"]}"\n}}\n}}'


@form("config: Teeworlds autoexec.cfg", "config", lambda s: GAMEPW(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f'sv_name "{s["v"]} fun"\nsv_rcon_password {s["x"]}\nsv_port 8303'


@form("config: INI four levels deep (dotted sections)", "config", KP)
def _f(s: dict) -> str:
    return f"[services.{s['sl']}.prod.auth]\n{snake(s['n'])} = {s['x']}\ntimeout = 30"


@form("config: JSON5 with comments", "config", KP)
def _f(s: dict) -> str:
    return f"{{\n  // {s['v']}\n  {camel(s['n'])}: '{s['x']}',\n  retries: 3,\n}}"


@form("config: HOCON", "config", KP)
def _f(s: dict) -> str:
    return (
        f'{s["sl"]} {{\n  endpoint = "https://api.{s["sl"]}.io"\n  {camel(s["n"])} = "{s["x"]}"\n}}'
    )


@form("config: EDN map", "config", KP)
def _f(s: dict) -> str:
    return f'{{:{s["sl"]} {{:{kebab(s["n"])} "{s["x"]}" :timeout-ms 5000}}}}'


@form("config: CUE value", "config", KP)
def _f(s: dict) -> str:
    return f'{s["sl"]}: {{\n\t{camel(s["n"])}: "{s["x"]}"\n\tregion: "eu"\n}}'


@form("config: Dhall record", "config", KP)
def _f(s: dict) -> str:
    return f'{{ {camel(s["n"])} = "{s["x"]}", region = "eu" }}'


@form("config: XML appSettings add key", "config", lambda s: KP(s) and XMLOK(s))
def _f(s: dict) -> str:
    return f'<appSettings>\n  <add key="{pascal(s["sl"])}:{pascal(s["n"])}" value="{s["x"]}" />\n</appSettings>'


@form("config: Firebase functions .runtimeconfig.json", "config", KP)
def _f(s: dict) -> str:
    return json.dumps({s["sl"]: {camel(s["n"]).lower(): s["x"]}}, indent=2, ensure_ascii=False)


@form("config: Godot export_presets.cfg keystore", "config", P)
def _f(s: dict) -> str:
    return f'[preset.0.options]\nkeystore/release="res://release.keystore"\nkeystore/release_user="{s["sl"]}"\nkeystore/release_password="{s["x"]}"'


@form("config: a self-hosted app's config.yml", "config", SELF)
def _f(s: dict) -> str:
    return f'server:\n  port: 8080\nauth:\n  {R.choice(("admin", "root", "owner"))}:\n    {R.choice(("password", "apiKey", "secret", "token"))}: "{s["x"]}"'


@form("config: Docker secrets file mounted at /run/secrets", "config", KP)
def _f(s: dict) -> str:
    return f"$ cat /run/secrets/{snake(s['n'])}\n{s['x']}"


# ---- shell sessions and CLI output (keys and passwords)


@form("shell: env | grep", "shell", KP)
def _f(s: dict) -> str:
    return f"$ env | grep -i {s['sl'][:5]}\n{s['n']}={s['x']}"


@form("shell: fly secrets set", "shell", lambda s: KP(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ fly secrets set {s['n']}={s['x']} -a shop-api\nUpdating existing machines in 'shop-api' with rolling strategy"


@form("shell: echo piped into wrangler secret put", "shell", KP)
def _f(s: dict) -> str:
    return f"$ echo '{s['x']}' | npx wrangler secret put {s['n']}\n✨ Success! Uploaded secret {s['n']}"


@form("shell: railway variables --set", "shell", KP)
def _f(s: dict) -> str:
    return f'$ railway variables --set "{s["n"]}={s["x"]}"'


@form("shell: kubectl set env", "shell", lambda s: KP(s) and ONELINE(s))
def _f(s: dict) -> str:
    return (
        f"$ kubectl set env deploy/api {s['n']}={s['x']} -n prod\ndeployment.apps/api env updated"
    )


@form("shell: docker compose config output", "shell", KP)
def _f(s: dict) -> str:
    return f"$ docker compose config\nservices:\n  api:\n    environment:\n      {s['n']}: {q(s['x'])}\n    image: api:dev"


@form("shell: npm config set authToken", "shell", KU)
def _f(s: dict) -> str:
    return f"$ npm config set //npm.{s['sl']}.dev/:_authToken {s['x']}"


@form("shell: gcloud secrets versions access", "shell", KP)
def _f(s: dict) -> str:
    return f"$ gcloud secrets versions access latest --secret={kebab(s['n'])}\n{s['x']}"


@form("shell: az keyvault secret show JSON", "shell", KP)
def _f(s: dict) -> str:
    return json.dumps(
        {"attributes": {"enabled": True}, "name": kebab(s["n"]), "value": s["x"]},
        indent=2,
        ensure_ascii=False,
    )


@form("shell: doppler secrets get --plain", "shell", KP)
def _f(s: dict) -> str:
    return f"$ doppler secrets get {s['n']} --plain\n{s['x']}"


@form("shell: op read output", "shell", ANY)
def _f(s: dict) -> str:
    return f'$ op read "op://Private/{s["v"]}/credential"\n{s["x"]}'


@form("shell: pass show", "shell", ANY)
def _f(s: dict) -> str:
    return f"$ pass show {s['sl']}/{s['user']}\n{s['x']}\nurl: https://{s['sl']}.example"


@form("shell: macOS security find-generic-password -w", "shell", ANY)
def _f(s: dict) -> str:
    return f"% security find-generic-password -s '{s['v']}' -w\n{s['x']}"


@form("shell: secret-tool lookup", "shell", ANY)
def _f(s: dict) -> str:
    return f"$ secret-tool lookup service {s['sl']}\n{s['x']}"


@form("shell: bw get password", "shell", lambda s: s["cls"] != "key")
def _f(s: dict) -> str:
    return f"$ bw get password {s['sl']}\n{s['x']}"


@form("shell: nmcli device wifi connect", "shell", lambda s: WIFI(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ nmcli device wifi connect '{s['v']}-Guest' password {s['x']}\nDevice 'wlan0' successfully activated"


@form("shell: netsh wlan show profile key=clear", "shell", WIFI)
def _f(s: dict) -> str:
    return f"Security settings\n-----------------\n    Authentication         : WPA2-Personal\n    Key Content            : {s['x']}"


@form("shell: redis-cli -a", "shell", lambda s: P(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ redis-cli -h cache.{s['sl']}.internal -a {s['x']} ping\nWarning: Using a password with '-a' option on the command line interface may not be safe.\nPONG"


@form("shell: mosquitto_pub -P", "shell", lambda s: (KP(s) or DEVPW(s)) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ mosquitto_pub -h mqtt.local -u {s['user']} -P {s['x']} -t home/test -m hi"


@form("shell: lftp -u", "shell", lambda s: (P(s) or DEVPW(s)) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ lftp -u {s['user']},{s['x']} sftp://files.{s['sl']}.net"


@form("shell: wget --password", "shell", lambda s: P(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ wget --user={s['user']} --password={s['x']} https://dl.{s['sl']}.net/backup.tgz"


@form("shell: aria2c --rpc-secret", "shell", lambda s: (SELF(s) or K(s)) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ aria2c --enable-rpc --rpc-listen-all --rpc-secret={s['x']}"


@form(
    "shell: restic with RESTIC_PASSWORD",
    "shell",
    lambda s: (P(s) or s["cls"] == "words") and "'" not in s["x"],
)
def _f(s: dict) -> str:
    return f"$ RESTIC_PASSWORD='{s['x']}' restic -r s3:s3.{s['sl']}.io/backups snapshots"


@form("shell: borg BORG_PASSPHRASE export", "shell", lambda s: P(s) or s["c"] == "login passphrase")
def _f(s: dict) -> str:
    return f'$ export BORG_PASSPHRASE="{s["x"]}"\n$ borg list ssh://u1@{s["sl"]}.repo/./main'


@form("shell: openssl enc -pass pass:", "shell", lambda s: P(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ openssl enc -aes-256-cbc -pbkdf2 -in dump.sql -out dump.enc -pass pass:{s['x']}"


@form("shell: qpdf --password=", "shell", lambda s: PERSON(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ qpdf --password={s['x']} --decrypt statement_{s['sl']}.pdf out.pdf"


@form("shell: ffmpeg RTSP input", "shell", lambda s: s["c"] == "camera password" and URLSAFE(s))
def _f(s: dict) -> str:
    return f"$ ffmpeg -rtsp_transport tcp -i rtsp://admin:{s['x']}@192.168.1.{R.randint(20, 99)}:554/stream1 -t 10 clip.mp4"


@form("shell: ipmitool -P", "shell", lambda s: DEVPW(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ ipmitool -I lanplus -H 10.0.9.{R.randint(2, 99)} -U ADMIN -P {s['x']} chassis status"


@form("shell: sqlplus user/pass@", "shell", lambda s: P(s) and URLSAFE(s))
def _f(s: dict) -> str:
    return f"$ sqlplus {s['user']}/{s['x']}@//db.{s['sl']}.internal:1521/ORCL"


@form("shell: git remote -v with a token", "shell", KU)
def _f(s: dict) -> str:
    u = f"https://oauth2:{s['x']}@git.{s['sl']}.dev/team/app.git"
    return f"$ git remote -v\norigin\t{u} (fetch)\norigin\t{u} (push)"


@form("shell: pip install --index-url with credentials", "shell", KU)
def _f(s: dict) -> str:
    return f"$ pip install --index-url https://{s['user']}:{s['x']}@pkgs.{s['sl']}.dev/simple internal-lib"


@form("shell: cargo login", "shell", lambda s: K(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ cargo login --registry {s['sl'].replace('_', '-')} {s['x']}\n       Login token for `{s['sl']}` saved"


@form("shell: composer config http-basic", "shell", lambda s: KP(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ composer config --global http-basic.repo.{s['sl']}.com {s['user']} {s['x']}"


@form("shell: helm repo add --password", "shell", lambda s: KP(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ helm repo add {s['sl']} https://charts.{s['sl']}.io --username {s['user']} --password {s['x']}"


@form("shell: skopeo --creds", "shell", lambda s: KP(s) and ONELINE(s) and ":" not in s["x"])
def _f(s: dict) -> str:
    return f"$ skopeo copy --src-creds {s['user']}:{s['x']} docker://cr.{s['sl']}.io/app:1 dir:/tmp/app"


@form("shell: mc alias set", "shell", lambda s: (K(s) or SELF(s)) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ mc alias set {s['sl']} https://s3.{s['sl']}.lan {pick(UP + DIG, 20)} {s['x']}\nAdded `{s['sl']}` successfully."


@form("shell: aws configure set on a custom profile", "shell", lambda s: K(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ aws configure set aws_secret_access_key {s['x']} --profile {s['sl']}"


@form("shell: doctl-style auth init -t", "shell", lambda s: K(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ {s['sl'].split('_')[0]} auth init -t {s['x']}\nValidating token... ✔"


@form("shell: vendor CLI login with the value alone", "shell", lambda s: K(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ {s['sl'].replace('_', '-')} login {s['x']}\nLogged in as {s['user']}"


@form("shell: shell alias in .zshrc", "shell", lambda s: K(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"alias {s['sl'][:3]}='{s['sl'].replace('_', '-')} --key {s['x']} --region eu'"


@form("shell: fish set -gx", "shell", KP)
def _f(s: dict) -> str:
    return f"set -gx {s['n']} '{s['x']}'"


@form("shell: Nushell $env", "shell", KP)
def _f(s: dict) -> str:
    return f'$env.{s["n"]} = "{s["x"]}"'


@form("shell: Windows cmd set", "shell", lambda s: KP(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"C:\\Users\\{s['user'].split('@')[0]}> set {s['n']}={s['x']}\nC:\\Users\\{s['user'].split('@')[0]}> node app.js"


@form("shell: PowerShell Invoke-RestMethod -Headers", "shell", K)
def _f(s: dict) -> str:
    return f"PS> Invoke-RestMethod -Uri https://api.{s['sl']}.io/v1/me -Headers @{{ '{header(s['v'])}' = '{s['x']}' }}"


@form("shell: heredoc into a .env file", "shell", KP)
def _f(s: dict) -> str:
    return f"$ cat > .env <<'EOF'\n{s['n']}={s['x']}\nEOF\n$ docker compose up -d"


@form("shell: tee into /etc/default", "shell", KP)
def _f(s: dict) -> str:
    return f"$ echo '{s['n']}={s['x']}' | sudo tee -a /etc/default/{s['sl']}"


@form("shell: screen -X stuff", "shell", lambda s: (P(s) or GAMEPW(s)) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ screen -S {s['sl']} -X stuff 'login admin {s['x']}\\n'"


@form("shell: mysqldump --password=", "shell", lambda s: P(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ mysqldump -u {s['user']} --password={s['x']} shop > shop.sql\nmysqldump: [Warning] Using a password on the command line interface can be insecure."


@form("shell: influx CLI -t", "shell", lambda s: K(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ influx query 'buckets()' --host http://influx:8086 -t {s['x']}"


@form("shell: rclone config create", "shell", lambda s: KP(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ rclone config create {s['sl']} webdav url https://dav.{s['sl']}.net user {s['user']} pass {s['x']}"


# ---- code (keys and passwords)


@form("code: Swift URLRequest header", "code", K)
def _f(s: dict) -> str:
    return f'var req = URLRequest(url: URL(string: "https://api.{s["sl"]}.io")!)\nreq.setValue("{s["x"]}", forHTTPHeaderField: "{header(s["v"])}")'


@form("code: Dart http header", "code", K)
def _f(s: dict) -> str:
    return f"final res = await http.get(uri, headers: {{'Authorization': 'Bearer {s['x']}'}});"


@form("code: Elixir config/runtime.exs", "code", KP)
def _f(s: dict) -> str:
    return f'config :my_app, MyApp.{pascal(s["sl"])},\n  {snake(s["n"])}: "{s["x"]}"'


@form("code: Clojure def", "code", KP)
def _f(s: dict) -> str:
    return f'(def {kebab(s["n"])} "{s["x"]}")'


@form("code: F# literal", "code", KP)
def _f(s: dict) -> str:
    return f'[<Literal>]\nlet {pascal(s["n"])} = "{s["x"]}"'


@form("code: OCaml let binding", "code", KP)
def _f(s: dict) -> str:
    return f'let {snake(s["n"])} = "{s["x"]}"'


@form("code: Nim const", "code", KP)
def _f(s: dict) -> str:
    return f'const {camel(s["n"])} = "{s["x"]}"'


@form("code: Julia ENV assignment", "code", KP)
def _f(s: dict) -> str:
    return f'ENV["{s["n"]}"] = "{s["x"]}"\nusing HTTP'


@form("code: MATLAB weboptions", "code", K)
def _f(s: dict) -> str:
    return f"opts = weboptions('HeaderFields', {{'Authorization', 'Bearer {s['x']}'}});\ndata = webread(url, opts);"


@form("code: Perl LWP", "code", K)
def _f(s: dict) -> str:
    return f"my $ua = LWP::UserAgent->new;\n$ua->default_header('{header(s['v'])}' => '{s['x']}');"


@form("code: OpenResty nginx.conf set", "code", lambda s: K(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"location /proxy {{\n  proxy_set_header {header(s['v'])} {s['x']};\n  proxy_pass https://api.{s['sl']}.io;\n}}"


@form("code: Tcl set", "code", KP)
def _f(s: dict) -> str:
    return f'set {snake(s["n"])} "{s["x"]}"'


@form("code: AutoHotkey hotstring", "code", lambda s: PERSON(s) or P(s))
def _f(s: dict) -> str:
    return f"::{s['sl'][:4]}pw::{s['x']}"


@form("code: AppleScript keystroke", "code", lambda s: (PERSON(s) or P(s)) and '"' not in s["x"])
def _f(s: dict) -> str:
    return f'tell application "System Events" to keystroke "{s["x"]}"'


@form("code: VBA constant", "code", KP)
def _f(s: dict) -> str:
    return f'Private Const {s["n"]} As String = "{s["x"]}"'


@form("code: Google Apps Script UrlFetchApp", "code", K)
def _f(s: dict) -> str:
    return f"const res = UrlFetchApp.fetch('https://api.{s['sl']}.io/v2', {{ headers: {{ Authorization: 'Token {s['x']}' }} }});"


@form("code: Jupyter %env magic", "code", KP)
def _f(s: dict) -> str:
    return f"%env {s['n']}={s['x']}"


@form("code: Kotlin Ktor client bearer", "code", K)
def _f(s: dict) -> str:
    return f'install(Auth) {{ bearer {{ loadTokens {{ BearerTokens("{s["x"]}", "") }} }} }}'


@form("code: Java OkHttp header", "code", K)
def _f(s: dict) -> str:
    return f'Request req = new Request.Builder().url(URL)\n    .addHeader("{header(s["v"])}", "{s["x"]}").build();'


@form("code: C libcurl CURLOPT_USERPWD", "code", lambda s: KP(s) and '"' not in s["x"])
def _f(s: dict) -> str:
    return f'curl_easy_setopt(curl, CURLOPT_USERPWD, "{s["user"]}:{s["x"]}");'


@form("code: C++ cpr Bearer", "code", K)
def _f(s: dict) -> str:
    return f'auto r = cpr::Get(cpr::Url{{"https://api.{s["sl"]}.io"}}, cpr::Bearer{{"{s["x"]}"}});'


@form("code: Go http.Header Set", "code", K)
def _f(s: dict) -> str:
    return f'req.Header.Set("{header(s["v"])}", "{s["x"]}")'


@form("code: TypeScript fetch with an inline token", "code", K)
def _f(s: dict) -> str:
    return f"await fetch(`https://api.{s['sl']}.io/v1/items`, {{ headers: {{ authorization: `Bearer {s['x']}` }} }});"


@form("code: React Native config constant", "code", K)
def _f(s: dict) -> str:
    return f"export const {s['n']} = '{s['x']}';"


@form("code: Vue component data", "code", K)
def _f(s: dict) -> str:
    return f"export default {{\n  data() {{ return {{ {camel(s['n'])}: '{s['x']}' }} }},\n}}"


@form("code: SDK client from a positional argument", "code", K)
def _f(s: dict) -> str:
    return f'import {s["sl"]}\nclient = {s["sl"]}.Client("{s["x"]}")'


@form("code: ethers.js new Wallet", "code", PRIV)
def _f(s: dict) -> str:
    return f'const wallet = new ethers.Wallet("{s["x"]}", provider);'


@form("code: python-mnemonic to_seed", "code", SEEDWORDS)
def _f(s: dict) -> str:
    return f'from mnemonic import Mnemonic\nseed = Mnemonic("english").to_seed("{s["x"]}")'


@form("code: Prisma datasource url", "code", lambda s: P(s) and URLSAFE(s))
def _f(s: dict) -> str:
    return f'datasource db {{\n  provider = "postgresql"\n  url      = "postgresql://{s["user"]}:{s["x"]}@db.{s["sl"]}.io:5432/app"\n}}'


@form("code: Drizzle config", "code", P)
def _f(s: dict) -> str:
    return f"export default defineConfig({{ dialect: 'mysql', dbCredentials: {{ host: 'db', user: '{s['user']}', password: '{s['x']}' }} }});"


@form("code: Knex config", "code", P)
def _f(s: dict) -> str:
    return f"module.exports = {{ client: 'pg', connection: {{ host: 'db', user: '{s['user']}', password: '{s['x']}', database: 'app' }} }};"


@form("code: Hibernate cfg.xml", "code", lambda s: P(s) and XMLOK(s))
def _f(s: dict) -> str:
    return f'<property name="hibernate.connection.username">{s["user"]}</property>\n<property name="hibernate.connection.password">{s["x"]}</property>'


@form("code: GORM DSN", "code", lambda s: P(s) and URLSAFE(s))
def _f(s: dict) -> str:
    return f'dsn := "{s["user"]}:{s["x"]}@tcp(db:3306)/shop?parseTime=true"\ndb, _ := gorm.Open(mysql.Open(dsn))'


@form("code: R DBI dbConnect", "code", P)
def _f(s: dict) -> str:
    return (
        f'con <- DBI::dbConnect(RPostgres::Postgres(), user = "{s["user"]}", password = "{s["x"]}")'
    )


@form("code: Spark conf fs.s3a.secret.key", "code", K)
def _f(s: dict) -> str:
    return f'spark.conf.set("fs.s3a.secret.key", "{s["x"]}")'


@form("code: Snowflake-style connector kwargs", "code", P)
def _f(s: dict) -> str:
    return f"conn = connect(user='{s['user']}', password='{s['x']}', account='{s['sl']}-eu1')"


@form("code: Nightwatch login steps", "code", lambda s: PERSON(s) and "'" not in s["x"])
def _f(s: dict) -> str:
    return f"browser\n  .setValue('input[name=user]', '{s['user']}')\n  .setValue('input[name=pass]', '{s['x']}')\n  .click('button[type=submit]');"


@form("code: WebdriverIO setValue", "code", lambda s: PERSON(s) and "'" not in s["x"])
def _f(s: dict) -> str:
    return f"await $('input[type=password]').setValue('{s['x']}');"


@form("code: TestCafe typeText", "code", lambda s: PERSON(s) and "'" not in s["x"])
def _f(s: dict) -> str:
    return f"await t.typeText('#password', '{s['x']}').click('#login');"


@form("code: Bash function with curl", "code", K)
def _f(s: dict) -> str:
    return f'{s["sl"]}_get() {{\n  curl -s -H "Authorization: Bearer {s["x"]}" "https://api.{s["sl"]}.io$1"\n}}'


# ---- logs (keys and passwords)


@form("log: Spring Boot generated security password", "log", lambda s: P(s) or SELF(s))
def _f(s: dict) -> str:
    return f"2026-03-02T10:11:12.001Z  WARN 1 --- [main] .s.s.UserDetailsServiceAutoConfiguration :\n\nUsing generated security password: {s['x']}\n"


@form("log: pino JSON line", "log", KP)
def _f(s: dict) -> str:
    return json.dumps(
        {
            "level": 30,
            "time": 1772444400000,
            "msg": "client ready",
            "config": {camel(s["n"]): s["x"]},
        },
        ensure_ascii=False,
    )


@form("log: logfmt line", "log", lambda s: KP(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f'ts=2026-03-02T10:11:12Z level=debug msg="init {s["sl"]}" {snake(s["n"])}={s["x"]} retries=3'


@form("log: Serilog structured output", "log", KP)
def _f(s: dict) -> str:
    return f'[10:11:12 DBG] Configured {s["v"]} client {{"{pascal(s["n"])}": "{s["x"]}", "Region": "eu"}}'


@form("log: Laravel log with context", "log", KP)
def _f(s: dict) -> str:
    return f'[2026-03-02 10:11:12] production.ERROR: {s["v"]} request failed {{"{snake(s["n"])}":"{s["x"]}","status":401}}'


@form("log: journalctl line", "log", lambda s: KP(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"Mar 02 10:11:12 box {s['sl']}-agent[812]: starting with {s['n']}={s['x']}"


@form("log: Kubernetes event message", "log", KP)
def _f(s: dict) -> str:
    return f'Warning  BackOff  pod/api-7d9f  Back-off restarting failed container: env {s["n"]}="{s["x"]}" rejected by upstream'


@form("log: npm debug log with a registry token", "log", KU)
def _f(s: dict) -> str:
    return f"12 verbose config //npm.{s['sl']}.dev/:_authToken={s['x']}\n13 http fetch GET 401 https://npm.{s['sl']}.dev/@acme%2fui"


@form("log: Python rich traceback locals", "log", KP)
def _f(s: dict) -> str:
    return f"│ ╭──── locals ────╮\n│ │ {snake(s['n'])} = '{s['x']}' │\n│ │      resp = <Response [403]> │\n│ ╰────────────────╯"


@form("log: Go panic with a struct", "log", KP)
def _f(s: dict) -> str:
    return f"panic: unauthorized\n\ngoroutine 1 [running]:\nmain.run({{Endpoint:https://api.{s['sl']}.io {pascal(s['n'])}:{s['x']}}})"


@form("log: auditd EXECVE record", "log", lambda s: P(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f'type=EXECVE msg=audit(1772444400.123:912): argc=4 a0="mysql" a1="-u{s["user"]}" a2="-p{s["x"]}" a3="shop"'


@form("log: Windows Event Log command line", "log", lambda s: KP(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"Process Command Line:\tnet use Z: \\\\nas\\share {s['x']} /user:{s['user']}"


@form("log: Jenkins console output", "log", lambda s: KP(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"[Pipeline] sh\n+ ./deploy.sh --{kebab(s['sl'])}-key {s['x']}\nDeploying to prod..."


@form("log: Home Assistant integration error", "log", lambda s: DEVPW(s) or s["c"] == "device key")
def _f(s: dict) -> str:
    return f"ERROR (MainThread) [custom_components.{s['sl']}] Login failed for {s['user']} with password {s['x']}: 401"


@form("log: Sentry breadcrumb data", "log", K)
def _f(s: dict) -> str:
    return json.dumps(
        {
            "category": "http",
            "data": {"url": f"https://api.{s['sl']}.io/v1?key={s['x']}", "status_code": 403},
        },
        ensure_ascii=False,
    )


# ---- tables (any value)


@form("table: LastPass CSV export row", "table", lambda s: "," not in s["x"])
def _f(s: dict) -> str:
    return f"url,username,password,totp,extra,name,grouping,fav\nhttps://{s['sl']}.example,{s['user']},{s['x']},,,{s['v']},Finance,0"


@form("table: Chrome passwords CSV", "table", lambda s: "," not in s["x"])
def _f(s: dict) -> str:
    return f"name,url,username,password,note\n{s['sl']}.example,https://{s['sl']}.example/login,{s['user']},{s['x']},"


@form("table: AsciiDoc table", "table", ANY)
def _f(s: dict) -> str:
    return f"|===\n|Service |What |Value\n\n|{s['v']} |{s['c']} |{s['x']}\n|==="


@form("table: LaTeX tabular", "table", ANY)
def _f(s: dict) -> str:
    return f"\\begin{{tabular}}{{ll}}\n{s['v']} & \\texttt{{{s['x']}}} \\\\\n\\end{{tabular}}"


@form("table: psql aligned output", "table", ANY)
def _f(s: dict) -> str:
    return f" service | secret\n---------+--------\n {s['v']} | {s['x']}\n(1 row)"


@form("table: DuckDB box output", "table", ANY)
def _f(s: dict) -> str:
    return f"┌──────────┬──────────┐\n│ vendor   │ value    │\n├──────────┼──────────┤\n│ {s['v']} │ {s['x']} │\n└──────────┴──────────┘"


@form("table: pandas DataFrame print", "table", ANY)
def _f(s: dict) -> str:
    return f"      vendor          kind     value\n0  {s['v']}  {s['c']}  {s['x']}"


@form("table: Jira wiki table", "table", ANY)
def _f(s: dict) -> str:
    return f"||System||Credential||\n|{s['v']}|{s['x']}|"


@form("table: Notion CSV export", "table", lambda s: '"' not in s["x"])
def _f(s: dict) -> str:
    return f'Name,Type,Value,Owner\n{s["v"]},{s["c"]},"{s["x"]}",{R.choice(NAMES)}'


@form("table: Rich table in a terminal", "table", ANY)
def _f(s: dict) -> str:
    return f"┏━━━━━━━━┳━━━━━━━━┓\n┃ Name   ┃ Value  ┃\n┡━━━━━━━━╇━━━━━━━━┩\n│ {s['n']} │ {s['x']} │\n└────────┴────────┘"


@form("table: markdown table in a handover doc", "table", ANY)
def _f(s: dict) -> str:
    return f"| system | login | secret |\n|---|---|---|\n| {s['v']} | {s['user']} | `{s['x']}` |"


# ---- diffs (keys and passwords)


@form("diff: merge conflict markers", "diff", KP)
def _f(s: dict) -> str:
    return f"<<<<<<< HEAD\n{s['n']}={s['x']}\n=======\n{s['n']}=\n>>>>>>> feature/rotate"


@form("diff: git add -p hunk", "diff", KP)
def _f(s: dict) -> str:
    return f"@@ -3,2 +3,3 @@ DEBUG=false\n LOG_LEVEL=info\n+{s['n']}={s['x']}\n(1/1) Stage this hunk [y,n,q,a,d,e,?]?"


@form("diff: diff -y side by side", "diff", KP)
def _f(s: dict) -> str:
    return f"{s['n']}=changeme\t\t\t      |\t{s['n']}={s['x']}"


@form("diff: a .rej file", "diff", KP)
def _f(s: dict) -> str:
    return f'--- config/app.yml\n+++ config/app.yml\n@@ -10,3 +10,3 @@\n-  {snake(s["n"])}: old\n+  {snake(s["n"])}: "{s["x"]}"'


@form("diff: hg diff", "diff", KP)
def _f(s: dict) -> str:
    return f"diff -r 3f2a1c settings.ini\n--- a/settings.ini\n+++ b/settings.ini\n@@ -1,1 +1,2 @@\n [{s['sl']}]\n+{snake(s['n'])} = {s['x']}"


@form("diff: jj diff --git", "diff", KP)
def _f(s: dict) -> str:
    return f"diff --git a/.env.example b/.env.example\n--- a/.env.example\n+++ b/.env.example\n@@ -1 +1 @@\n-{s['n']}=\n+{s['n']}={s['x']}"


@form("diff: terraform plan attribute change", "diff", KP)
def _f(s: dict) -> str:
    return f'  # {s["sl"]}_integration.main will be updated in-place\n  ~ resource "{s["sl"]}_integration" "main" {{\n      ~ {snake(s["n"])} = "old" -> "{s["x"]}"\n    }}'


@form("diff: git show of a commit", "diff", KP)
def _f(s: dict) -> str:
    return f"commit {pick('0123456789abcdef', 40)}\nAuthor: {R.choice(NAMES)} <dev@example.com>\n\n    wire up {s['v']}\n\ndiff --git a/src/config.ts b/src/config.ts\n+export const {camel(s['n'])} = '{s['x']}';"


# ---- HTTP and protocol traces (keys and passwords)


@form("http: raw HTTP/1.1 request with a vendor header", "http", K)
def _f(s: dict) -> str:
    return f"POST /v1/events HTTP/1.1\nHost: api.{s['sl']}.io\n{header(s['v'])}: {s['x']}\nContent-Type: application/json"


@form("http: GraphQL request body with variables", "http", KP)
def _f(s: dict) -> str:
    return json.dumps(
        {
            "query": "mutation Login($u: String!, $p: String!) { login(user: $u, password: $p) { ok } }",
            "variables": {"u": s["user"], "p": s["x"]},
        },
        ensure_ascii=False,
    )


@form("http: JSON-RPC call with a key param", "http", K)
def _f(s: dict) -> str:
    return json.dumps(
        {"jsonrpc": "2.0", "id": 7, "method": "auth.login", "params": {"apiKey": s["x"]}},
        ensure_ascii=False,
    )


@form("http: IMAP LOGIN command", "http", lambda s: P(s) and '"' not in s["x"])
def _f(s: dict) -> str:
    return f'* OK IMAP4rev1 ready\na001 LOGIN {s["user"]}@{s["sl"]}.example "{s["x"]}"\na001 OK LOGIN completed'


@form("http: FTP USER/PASS trace", "http", lambda s: (P(s) or DEVPW(s)) and ONELINE(s))
def _f(s: dict) -> str:
    return f"220 FTP ready\nUSER {s['user']}\n331 Password required\nPASS {s['x']}\n230 Login successful."


@form("http: Redis AUTH in a RESP capture", "http", lambda s: P(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"*2\\r\\n$4\\r\\nAUTH\\r\\n${len(s['x'].encode())}\\r\\n{s['x']}\\r\\n"


@form("http: ldapsearch -w", "http", lambda s: P(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f"$ ldapsearch -x -H ldaps://ldap.{s['sl']}.corp -D 'cn={s['user']},dc=corp' -w {s['x']} '(uid=*)'"


@form("http: mitmproxy flow dump", "http", K)
def _f(s: dict) -> str:
    return f"GET https://api.{s['sl']}.io/v2/me\n    {header(s['v'])}: {s['x']}\n    accept: */*\n << 200 OK 1.2k"


@form("http: Burp request with a query token", "http", KU)
def _f(s: dict) -> str:
    return f"GET /export?format=csv&access_token={s['x']} HTTP/2\nHost: app.{s['sl']}.com\nUser-Agent: Mozilla/5.0"


@form("http: DevTools Copy as fetch", "http", K)
def _f(s: dict) -> str:
    return f'fetch("https://api.{s["sl"]}.io/graphql", {{\n  "headers": {{ "authorization": "Bearer {s["x"]}" }},\n  "method": "POST"\n}});'


@form("http: Windows Copy as cURL (cmd)", "http", lambda s: K(s) and ONELINE(s))
def _f(s: dict) -> str:
    return f'curl ^"https://api.{s["sl"]}.io/v1/me^" ^\n  -H ^"authorization: Bearer {s["x"]}^" ^\n  --compressed'


@form("http: xh request", "http", K)
def _f(s: dict) -> str:
    return f"$ xh post api.{s['sl']}.io/v1/sync {header(s['v'])}:{s['x']} full=true"


@form("http: OAuth refresh token request body", "http", KU)
def _f(s: dict) -> str:
    return f"POST /oauth/token\ngrant_type=refresh_token&refresh_token={s['x']}&client_id={pick(LOW + DIG, 12)}"


@form("http: Hoppscotch collection export", "http", K)
def _f(s: dict) -> str:
    return json.dumps(
        {
            "v": 2,
            "name": s["v"],
            "requests": [
                {
                    "endpoint": f"https://api.{s['sl']}.io",
                    "headers": [{"key": header(s["v"]), "value": s["x"], "active": True}],
                }
            ],
        },
        ensure_ascii=False,
    )


@form("http: MQTT CONNECT in a packet log", "http", lambda s: (DEVPW(s) or KP(s)) and ONELINE(s))
def _f(s: dict) -> str:
    return f"CONNECT clientId={s['sl']}-{pick(DIG, 4)} username={s['user']} password={s['x']} keepAlive=60"


# ---- agent tool calls and results (any value where the prose allows)


def twice(text: str) -> str:
    return json.dumps(json.dumps(text, ensure_ascii=False), ensure_ascii=False)


@form("agent: Claude Code Bash tool_use input", "agent", lambda s: KP(s) and "'" not in s["x"])
def _f(s: dict) -> str:
    return json.dumps(
        {
            "type": "tool_use",
            "name": "Bash",
            "input": {
                "command": f"export {s['n']}='{s['x']}' && npm run sync",
                "description": "Run sync",
            },
        },
        ensure_ascii=False,
    )


@form("agent: transcript line with cat .env result escaped twice", "agent", KP)
def _f(s: dict) -> str:
    inner = json.dumps(
        {"type": "tool_result", "content": f"{s['n']}={s['x']}\nDEBUG=1"}, ensure_ascii=False
    )
    return json.dumps({"type": "user", "message": {"content": inner}}, ensure_ascii=False)


@form("agent: MCP tools/call request", "agent", KP)
def _f(s: dict) -> str:
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": f"{s['sl']}_connect", "arguments": {camel(s["n"]): s["x"]}},
        },
        ensure_ascii=False,
    )


@form("agent: MCP tool result text", "agent", ANY)
def _f(s: dict) -> str:
    return json.dumps(
        {
            "content": [{"type": "text", "text": f"Stored {s['c']} for {s['v']}: {s['x']}"}],
            "isError": False,
        },
        ensure_ascii=False,
    )


@form("agent: Edit tool old_string/new_string", "agent", KP)
def _f(s: dict) -> str:
    return json.dumps(
        {
            "name": "Edit",
            "input": {
                "file_path": "/app/.env",
                "old_string": f"{s['n']}=",
                "new_string": f"{s['n']}={s['x']}",
            },
        },
        ensure_ascii=False,
    )


@form("agent: Write tool content", "agent", KP)
def _f(s: dict) -> str:
    return json.dumps(
        {
            "name": "Write",
            "input": {
                "file_path": f"/app/config/{s['sl']}.yml",
                "content": f"{snake(s['n'])}: {q(s['x'])}\n",
            },
        },
        ensure_ascii=False,
    )


@form("agent: Grep tool result with path:line", "agent", KP)
def _f(s: dict) -> str:
    return f"src/lib/{s['sl']}.ts:{R.randint(3, 90)}:const {camel(s['n'])} = \"{s['x']}\";\nsrc/lib/{s['sl']}.test.ts:4:import {{ {camel(s['n'])} }} from './{s['sl']}';"


@form("agent: TodoWrite item", "agent", ANY)
def _f(s: dict) -> str:
    return json.dumps(
        {
            "todos": [
                {"content": f"Put {s['v']} {s['c']} {s['x']} into the vault", "status": "pending"}
            ]
        },
        ensure_ascii=False,
    )


@form("agent: Task subagent prompt", "agent", ANY)
def _f(s: dict) -> str:
    return json.dumps(
        {
            "name": "Task",
            "input": {
                "description": "Verify login",
                "prompt": f"Log in to {s['v']} as {s['user']} with {s['x']} and check the dashboard loads.",
            },
        },
        ensure_ascii=False,
    )


@form("agent: LangChain AgentExecutor verbose log", "agent", ANY)
def _f(s: dict) -> str:
    return f'> Entering new AgentExecutor chain...\nThought: I need to authenticate.\nAction: {s["sl"]}_login\nAction Input: {{"secret": "{s["x"]}"}}\nObservation: ok'


@form("agent: CrewAI task output", "agent", ANY)
def _f(s: dict) -> str:
    return f"[Agent: Ops] Task output: {s['v']} configured, {s['c']} used: {s['x']}"


@form("agent: OpenCode tool part JSON", "agent", KP)
def _f(s: dict) -> str:
    out = f"{s['n']}={s['x']}"
    return json.dumps(
        {
            "type": "tool",
            "tool": "bash",
            "state": {"status": "completed", "input": {"command": "printenv"}, "output": out},
        },
        ensure_ascii=False,
    )


@form("agent: Roo Code write_to_file XML", "agent", lambda s: KP(s) and XMLOK(s))
def _f(s: dict) -> str:
    return f"<write_to_file>\n<path>.env</path>\n<content>\n{s['n']}={s['x']}\n</content>\n</write_to_file>"


@form("agent: Cursor terminal output block", "agent", KP)
def _f(s: dict) -> str:
    return f'Ran terminal command: cat config/secrets.toml\n\n[{s["sl"]}]\n{snake(s["n"])} = "{s["x"]}"\n\nExit code 0'


@form("agent: WebFetch result quoting a page", "agent", ANY)
def _f(s: dict) -> str:
    return f"Result of fetching the internal wiki:\n> {s['v']}: use `{s['x']}` until the rotation on Monday."


@form("agent: NotebookEdit new_source", "agent", KP)
def _f(s: dict) -> str:
    return json.dumps(
        {
            "name": "NotebookEdit",
            "input": {
                "cell_id": "a1b2",
                "new_source": f"import os\nos.environ['{s['n']}'] = '{s['x']}'",
            },
        },
        ensure_ascii=False,
    )


@form("agent: assistant asking which value to keep", "agent", ANY)
def _f(s: dict) -> str:
    return f"I found two values for the {s['v']} {s['c']}. The one in `.env.local` is `{s['x']}`; should I keep that one?"


@form("agent: tool result JSON escaped twice inside a JSONL event", "agent", KP)
def _f(s: dict) -> str:
    payload = json.dumps({"stdout": f"{s['n']}={s['x']}", "exit": 0}, ensure_ascii=False)
    return json.dumps(
        {"type": "event", "msg": {"type": "exec_end", "aggregated": payload}}, ensure_ascii=False
    )


@form("code: viem privateKeyToAccount", "code", PRIV)
def _f(s: dict) -> str:
    return f"import {{ privateKeyToAccount }} from 'viem/accounts'\nconst account = privateKeyToAccount('{s['x']}')"


@form("code: hardhat.config networks accounts", "code", PRIV)
def _f(s: dict) -> str:
    return f"networks: {{\n  sepolia: {{ url: 'https://rpc.sepolia.org', accounts: ['{s['x']}'] }},\n}},"


@form("shell: forge script --private-key", "shell", PRIV)
def _f(s: dict) -> str:
    return f"$ forge script script/Deploy.s.sol --rpc-url $RPC --private-key {s['x']} --broadcast"


@form("code: ethers Wallet.fromPhrase", "code", SEEDWORDS)
def _f(s: dict) -> str:
    return f'const w = ethers.Wallet.fromPhrase("{s["x"]}");'


@form("code: bip_utils Bip39SeedGenerator", "code", SEEDWORDS)
def _f(s: dict) -> str:
    return f'seed = Bip39SeedGenerator("{s["x"]}").Generate()'


@form("shell: cast wallet import --mnemonic", "shell", SEEDWORDS)
def _f(s: dict) -> str:
    return f'$ cast wallet import dev --mnemonic "{s["x"]}"\nEnter password:'


@form(
    "config: ADO.NET connection string in user-secrets",
    "config",
    lambda s: P(s) and ";" not in s["x"],
)
def _f(s: dict) -> str:
    cs = f"Server=tcp:sql-{s['sl']}.database.windows.net,1433;User ID={s['user']};Password={s['x']};Encrypt=True"
    return json.dumps({"ConnectionStrings:Default": cs}, indent=2, ensure_ascii=False)


@form("config: Celery broker_url with amqp credentials", "config", lambda s: P(s) and URLSAFE(s))
def _f(s: dict) -> str:
    return f"broker_url = 'amqp://{s['user'].split('@')[0]}:{s['x']}@mq.{s['sl']}.internal:5672/prod'\nresult_backend = 'rpc://'"


@form(
    "config: Sidekiq REDIS_URL in .env.production",
    "config",
    lambda s: (P(s) or K(s)) and URLSAFE(s),
)
def _f(s: dict) -> str:
    return f"RAILS_ENV=production\nREDIS_URL=rediss://default:{s['x']}@cache-{s['sl']}.upstash.example:6379/0"


@form("code: pymongo MongoClient URI", "code", lambda s: P(s) and URLSAFE(s))
def _f(s: dict) -> str:
    return f'client = MongoClient("mongodb+srv://{s["user"].split("@")[0]}:{s["x"]}@cluster0.{s["sl"]}.mongodb.net/?retryWrites=true")'


# -- look-alikes: strings that look random but are not secrets, and must come out unchanged

HEXD = "0123456789abcdef"


def sha(n: int = 40) -> str:
    return pick(HEXD, n)


LOOKALIKES: list[tuple[str, Callable[[], tuple[str, list[str]]]]] = []


def look(name: str) -> Callable:
    def add(fn: Callable[[], tuple[str, list[str]]]) -> Callable[[], tuple[str, list[str]]]:
        LOOKALIKES.append((name, fn))
        return fn

    return add


@look("git bisect log")
def _l() -> tuple[str, list[str]]:
    a, b = sha(), sha()
    return (
        f"git bisect start\n# bad: [{a}] fix flaky test\ngit bisect bad {a}\n# good: [{b}] v2.3.0\ngit bisect good {b}",
        [a, b],
    )


@look("git blame lines")
def _l() -> tuple[str, list[str]]:
    a, b = sha(8), sha(8)
    return (
        f"{a} (Rasmus 2026-01-02 12:00 +0100 14)     token = os.environ['TOKEN']\n{b} (Priya  2026-02-11 09:31 +0100 15)     return token",
        [a, b],
    )


@look("git describe output")
def _l() -> tuple[str, list[str]]:
    d = f"v{R.randint(1, 4)}.{R.randint(0, 20)}.{R.randint(0, 9)}-{R.randint(1, 80)}-g{sha(7)}"
    return f"$ git describe --tags\n{d}", [d]


@look("GitHub compare URL with two commits")
def _l() -> tuple[str, list[str]]:
    a, b = sha(12), sha(12)
    return f"diff: https://github.com/acme/shop/compare/{a}...{b}", [a, b]


@look("git cherry-pick output")
def _l() -> tuple[str, list[str]]:
    a = sha(7)
    return (
        f"$ git cherry-pick {sha()}\n[release/2.4 {a}] rotate signing key reader\n 1 file changed, 3 insertions(+)",
        [a],
    )


@look("package-lock integrity")
def _l() -> tuple[str, list[str]]:
    i = "sha512-" + base64.b64encode(bytes(R.randrange(256) for _ in range(64))).decode()
    return f'"node_modules/token-bucket": {{\n  "version": "1.0.2",\n  "integrity": "{i}"\n}}', [i]


@look("Cargo.lock checksum")
def _l() -> tuple[str, list[str]]:
    c = sha(64)
    return f'[[package]]\nname = "secrecy"\nversion = "0.8.0"\nchecksum = "{c}"', [c]


@look("go.sum h1 hash")
def _l() -> tuple[str, list[str]]:
    h = "h1:" + base64.b64encode(bytes(R.randrange(256) for _ in range(32))).decode()
    return f"golang.org/x/oauth2 v0.21.0 {h}", [h]


@look("uv.lock wheel hash")
def _l() -> tuple[str, list[str]]:
    h = "sha256:" + sha(64)
    return (
        f'wheels = [\n    {{ url = "https://files.pythonhosted.org/keyring-25.2.1-py3-none-any.whl", hash = "{h}" }},\n]',
        [h],
    )


@look("composer.lock dist reference")
def _l() -> tuple[str, list[str]]:
    r = sha()
    return (
        f'"dist": {{ "type": "zip", "url": "https://api.github.com/repos/firebase/php-jwt/zipball/{r}", "reference": "{r}" }}',
        [r],
    )


@look("kubectl describe imageID")
def _l() -> tuple[str, list[str]]:
    d = "sha256:" + sha(64)
    return f"    Image:          ghcr.io/acme/api:2.4\n    Image ID:       ghcr.io/acme/api@{d}", [
        d
    ]


@look("OCI manifest layer digests")
def _l() -> tuple[str, list[str]]:
    a, b = "sha256:" + sha(64), "sha256:" + sha(64)
    return json.dumps(
        {"schemaVersion": 2, "config": {"digest": a}, "layers": [{"digest": b, "size": 3201}]}
    ), [a, b]


@look("KMS key ARN")
def _l() -> tuple[str, list[str]]:
    a = f"arn:aws:kms:eu-west-1:{pick(DIG, 12)}:key/{uuidv()}"
    return f'kms_key_id = "{a}"', [a]


@look("Lambda function ARN")
def _l() -> tuple[str, list[str]]:
    a = f"arn:aws:lambda:us-east-1:{pick(DIG, 12)}:function:token-rotator"
    return f"Resource: {a}", [a]


@look("Azure resource id")
def _l() -> tuple[str, list[str]]:
    a = f"/subscriptions/{uuidv()}/resourceGroups/rg-secrets/providers/Microsoft.KeyVault/vaults/kv-shop"
    return f'"keyVaultId": "{a}"', [a]


@look("placeholder in a README")
def _l() -> tuple[str, list[str]]:
    p = R.choice(
        (
            "YOUR_API_KEY_HERE",
            "<your-token>",
            "xxxxxxxxxxxxxxxxxxxx",
            "changeme",
            "REPLACE_ME",
            "sk-...",
            "${API_KEY}",
        )
    )
    return f"Set the key before running:\n\n    export ACME_API_KEY={p}", [p]


@look("masked value in a dashboard")
def _l() -> tuple[str, list[str]]:
    tail = pick(LOW + DIG, 4)
    m = R.choice((f"••••••••{tail}", f"****{tail}", f"sk_live_…{tail}", "[REDACTED]", "********"))
    return f"API key   {m}   created 3 days ago   Revoke", [m]


@look("SSH ed25519 public key")
def _l() -> tuple[str, list[str]]:
    k = (
        "AAAAC3NzaC1lZDI1NTE5AAAAI"
        + base64.b64encode(bytes(R.randrange(256) for _ in range(32))).decode()[:43]
    )
    return f"ssh-ed25519 {k} {R.choice(NAMES).lower()}@laptop", [k]


@look("PEM public key block")
def _l() -> tuple[str, list[str]]:
    body = base64.b64encode(bytes(R.randrange(256) for _ in range(90))).decode()
    return f"-----BEGIN PUBLIC KEY-----\n{body[:64]}\n{body[64:]}\n-----END PUBLIC KEY-----", [
        body[:64]
    ]


@look("minisign public key")
def _l() -> tuple[str, list[str]]:
    k = "RW" + base64.b64encode(bytes(R.randrange(256) for _ in range(40))).decode()[:54]
    return f"Verify with: minisign -Vm release.tar.gz -P {k}", [k]


@look("Ethereum address in a receipt")
def _l() -> tuple[str, list[str]]:
    a = "0x" + pick("0123456789abcdefABCDEF", 40)
    return f"Payment received to address {a} (block 19{pick(DIG, 6)})", [a]


@look("webpack and Vite asset hashes")
def _l() -> tuple[str, list[str]]:
    a, b = f"main.{sha(8)}.js", f"index-{pick(AN + '_-', 8)}.css"
    return f"dist/assets/{a}  212.4 kB │ gzip: 61.0 kB\ndist/assets/{b}  18.2 kB", [a, b]


@look("B3 trace headers")
def _l() -> tuple[str, list[str]]:
    t, sp_ = sha(32), sha(16)
    return f"X-B3-TraceId: {t}\nX-B3-SpanId: {sp_}\nX-B3-Sampled: 1", [t, sp_]


@look("CF-Ray and x-amz-request-id")
def _l() -> tuple[str, list[str]]:
    c, a = f"{sha(16)}-FRA", pick(UP + DIG, 16)
    return f"cf-ray: {c}\nx-amz-request-id: {a}", [c, a]


@look("GCP X-Cloud-Trace-Context")
def _l() -> tuple[str, list[str]]:
    t = f"{sha(32)}/{pick(DIG, 19)};o=1"
    return f"X-Cloud-Trace-Context: {t}", [t]


@look("i18n strings about passwords")
def _l() -> tuple[str, list[str]]:
    d = R.choice(
        (
            {
                "auth.password.forgot": "Passwort vergessen?",
                "auth.token.expired": "Ihr Token ist abgelaufen.",
            },
            {
                "password_hint": "La contraseña debe tener al menos 12 caracteres",
                "api_key_label": "Clave de API",
            },
            {"secretKey.title": "Clé secrète", "secretKey.copy": "Copier la clé"},
            {"login.pin": "Введите PIN-код", "login.otp": "Код из SMS"},
        )
    )
    t = json.dumps(d, ensure_ascii=False)
    return t, list(d.values())


@look("code reading a secret from the environment")
def _l() -> tuple[str, list[str]]:
    n = R.choice(
        ("STRIPE_SECRET_KEY", "DB_PASSWORD", "OPENAI_API_KEY", "GITHUB_TOKEN", "JWT_SIGNING_SECRET")
    )
    t = R.choice(
        (
            f'api_key = os.environ["{n}"]',
            f"const token = process.env.{n} ?? '';",
            f'password := os.Getenv("{n}")',
            f'let secret = std::env::var("{n}")?;',
        )
    )
    return t, [t]


@look("Kubernetes secretKeyRef")
def _l() -> tuple[str, list[str]]:
    return (
        "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-credentials\n        key: password",
        ["secretKeyRef", "db-credentials"],
    )


@look("base64 of ordinary text")
def _l() -> tuple[str, list[str]]:
    s = R.choice(
        (
            "hello from the staging cluster",
            "meeting moved to Thursday",
            "build 4821 passed",
            "the quick brown fox jumps",
        )
    )
    b = base64.b64encode(s.encode()).decode()
    return f"echo {b} | base64 -d   # -> {s}", [b]


@look("data URI of a small SVG")
def _l() -> tuple[str, list[str]]:
    b = base64.b64encode(b'<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>').decode()
    return f'<img src="data:image/svg+xml;base64,{b}" alt="">', [b]


@look("tmux and screen session names")
def _l() -> tuple[str, list[str]]:
    a, b = (
        f"dev-{pick(LOW + DIG, 5)}",
        f"{R.randint(1000, 99999)}.pts-{R.randint(0, 9)}.build{R.randint(1, 9)}",
    )
    return (
        f"$ tmux ls\n{a}: 3 windows (created Mon Mar  2 10:00:00 2026)\n$ screen -ls\n\t{b}\t(Detached)",
        [a, b],
    )


@look("test fixture values")
def _l() -> tuple[str, list[str]]:
    t = R.choice(
        (
            'FAKE_TOKEN = "test-token-123"',
            "password: 'password123' # fixture for the login form spec",
            'api_key="dummy"',
            'let secret = "not-a-real-secret";',
        )
    )
    return t, [t]


@look("booleans named after secrets")
def _l() -> tuple[str, list[str]]:
    t = R.choice(
        (
            "admin_session=true",
            "password_required: false",
            "token_expired=1",
            "API_KEY_SET=yes",
            "has_secret: true",
            "rotate_credentials=false",
        )
    )
    return f"# flags\n{t}", [t]


@look("X-Request-Id UUID")
def _l() -> tuple[str, list[str]]:
    u = uuidv()
    return f'HTTP/1.1 401 Unauthorized\nx-request-id: {u}\n\n{{"error": "invalid api key"}}', [u]


@look("IPFS CID")
def _l() -> tuple[str, list[str]]:
    c = "bafybei" + pick("abcdefghijklmnopqrstuvwxyz234567", 52)
    return f"Pinned: ipfs://{c}", [c]


@look("magnet link info hash")
def _l() -> tuple[str, list[str]]:
    h = sha(40)
    return f"magnet:?xt=urn:btih:{h}&dn=ubuntu-24.04-desktop-amd64.iso", [h]


@look("docker history layer ids")
def _l() -> tuple[str, list[str]]:
    a, b = sha(12), sha(12)
    return f"IMAGE          CREATED       SIZE\n{a}   2 days ago    12MB\n{b}   2 days ago    0B", [
        a,
        b,
    ]


@look("terraform state resource ids")
def _l() -> tuple[str, list[str]]:
    i, g = "i-0" + sha(16), "sg-0" + sha(16)
    return f"aws_instance.web: id={i}\naws_security_group.web: id={g}", [i, g]


@look("payment object ids")
def _l() -> tuple[str, list[str]]:
    a, b = "cus_" + pick(AN, 14), "pi_" + pick(AN, 24)
    return f"Customer {a} paid invoice via PaymentIntent {b}", [a, b]


@look("analytics measurement ids")
def _l() -> tuple[str, list[str]]:
    a, b = "G-" + pick(UP + DIG, 10), "GTM-" + pick(UP + DIG, 7)
    return f"gtag('config', '{a}');\n<!-- {b} -->", [a, b]


@look("YouTube and tweet ids")
def _l() -> tuple[str, list[str]]:
    y, t = pick(AN + "-_", 11), pick(DIG, 19)
    return f"see https://youtu.be/{y} and https://x.com/acme/status/{t}", [y, t]


@look("SHA256SUMS file")
def _l() -> tuple[str, list[str]]:
    a, b = sha(64), sha(64)
    return f"{a}  app-linux-amd64.tar.gz\n{b}  app-darwin-arm64.tar.gz", [a, b]


@look("webhook signature header")
def _l() -> tuple[str, list[str]]:
    s = "sha256=" + sha(64)
    return f"X-Hub-Signature-256: {s}\nX-GitHub-Event: push", [s]


@look("CSP nonce")
def _l() -> tuple[str, list[str]]:
    n = base64.b64encode(bytes(R.randrange(256) for _ in range(16))).decode()
    return f"Content-Security-Policy: script-src 'nonce-{n}' 'strict-dynamic'", [n]


@look("ETag header")
def _l() -> tuple[str, list[str]]:
    e = f'W/"{sha(32)}"'
    return f"HTTP/2 304\netag: {e}", [e]


@look("S3 object version id")
def _l() -> tuple[str, list[str]]:
    v = pick(AN + "._", 32)
    return f'{{"Key": "backups/db.sql.gz", "VersionId": "{v}", "IsLatest": true}}', [v]


@look("docker container names and pod hashes")
def _l() -> tuple[str, list[str]]:
    a = f"api-{pick(LOW + DIG, 10)}-{pick(LOW + DIG, 5)}"
    return f"NAME                       READY   STATUS\n{a}   1/1     Running", [a]


@look("Nix store path")
def _l() -> tuple[str, list[str]]:
    p = "/nix/store/" + pick("0123456789abcdfghijklmnpqrsvwxyz", 32) + "-openssl-3.0.14"
    return f"building '{p}.drv'...", [p]


@look("certificate fingerprint and serial")
def _l() -> tuple[str, list[str]]:
    f = ":".join(pick("0123456789ABCDEF", 2) for _ in range(32))
    s_ = sha(32)
    return f"sha256 Fingerprint={f}\nserial={s_}", [f, s_]


@look("environment references without values")
def _l() -> tuple[str, list[str]]:
    t = R.choice(
        (
            "password: ${DB_PASSWORD}",
            "token: {{ .Values.api.token }}",
            "ApiKey: !Ref ApiKeyParam",
            'key = "${env:SERVICE_KEY}"',
            "set PASS=%ADMIN_PASSWORD%",
            "secret: ((vault:kv/app#secret))",
        )
    )
    return t, [t]


@look("secret-manager references")
def _l() -> tuple[str, list[str]]:
    t = R.choice(
        (
            "op://Engineering/Stripe/credential",
            "vault:secret/data/app#api_key",
            "projects/acme/secrets/db-pass/versions/latest",
            "@Microsoft.KeyVault(SecretUri=https://kv-shop.vault.azure.net/secrets/api-key/)",
        )
    )
    return f"DB_PASSWORD={t}", [t]


@look("device serial number on a label")
def _l() -> tuple[str, list[str]]:
    s_ = pick(UP + DIG, 14)
    return (
        f"Model: RT-AX58U\nS/N: {s_}\nMAC: {':'.join(pick('0123456789ABCDEF', 2) for _ in range(6))}",
        [s_],
    )


@look("parcel tracking and order numbers")
def _l() -> tuple[str, list[str]]:
    t, o = "1Z" + pick(UP + DIG, 16), f"{pick(DIG, 3)}-{pick(DIG, 7)}-{pick(DIG, 7)}"
    return f"Order {o} shipped, tracking {t}", [t, o]


@look("password policy regex in code")
def _l() -> tuple[str, list[str]]:
    t = r'PASSWORD_RE = re.compile(r"^(?=.*[A-Z])(?=.*\d)(?=.*[!@#$%^&*]).{12,}$")'
    return t, [t]


@look("log lines about tokens without values")
def _l() -> tuple[str, list[str]]:
    t = R.choice(
        (
            "INFO token refreshed for user 4821 (expires in 3600s)",
            "WARN api key rotated at 2026-03-02T10:00:00Z by ci-bot",
            "ERROR invalid password for user admin from 10.0.0.4",
            "DEBUG secret loaded from /run/secrets/db_password (32 bytes)",
        )
    )
    return t, [t]


@look("Jupyter cell ids")
def _l() -> tuple[str, list[str]]:
    c = sha(8)
    return json.dumps({"cell_type": "code", "id": c, "source": ["df.head()"]}), [c]


@look("OpenAPI security scheme without a value")
def _l() -> tuple[str, list[str]]:
    return (
        "components:\n  securitySchemes:\n    ApiKeyAuth:\n      type: apiKey\n      in: header\n      name: X-API-Key",
        ["ApiKeyAuth", "X-API-Key"],
    )


@look("UUID primary keys in a SQL result")
def _l() -> tuple[str, list[str]]:
    a, b = uuidv(), uuidv()
    return (
        f" id                                   | email\n {a} | a@example.com\n {b} | b@example.com",
        [a, b],
    )


@look("random slug in a preview URL")
def _l() -> tuple[str, list[str]]:
    s_ = f"shop-git-{pick(LOW + DIG, 9)}-acme"
    return f"Preview: https://{s_}.vercel.app", [s_]


@look("commit SHA in a CI status")
def _l() -> tuple[str, list[str]]:
    a = sha()
    return f"✓ build succeeded for commit {a} on main", [a]


@look("short git hashes in a changelog")
def _l() -> tuple[str, list[str]]:
    a, b = sha(7), sha(7)
    return f"## 2.4.1\n- fix token refresh race ({a})\n- bump keyring ({b})", [a, b]


# -- assembly ----------------------------------------------------------------------------

# How many vendors to draw from each category, and how many of them hand out two kinds.
PLAN = {
    "saas": 62, "ai": 24, "pay": 18, "bank": 34, "broker": 22, "wallet": 8, "device": 34,
    "selfhost": 36, "game": 28, "shop": 22, "telecom": 14, "gov": 14, "edu": 14,
}  # fmt: skip
TWO_KINDS = 20  # vendors with a second credential
SECOND_FORM = 96  # kinds shown twice, in two forms, with fresh values
N_LOOKALIKES = 160


def vendors(cat: str) -> list[str]:
    return VENDORS[cat].split("|")


def make_user(v: str) -> str:
    return R.choice(
        (
            f"{R.choice(NAMES).lower()}{R.randint(1, 99)}",
            f"{R.choice(NAMES).lower()}.{slug(v)[:6]}",
            f"ops-{slug(v)[:8]}",
            f"{R.choice(NAMES).lower()}@{R.choice(('gmail.com', 'proton.me', 'outlook.com'))}",
        )
    )


def new_secret(v: str, cat: str, cred: tuple[str, str, tuple]) -> dict:
    name, cls, shapes = cred
    x = R.choice(shapes)(v)
    return {
        "v": v, "cat": cat, "c": name, "cls": cls, "x": x, "sl": slug(v).replace("_", ""),
        "n": env_name(v, cls), "user": make_user(v),
    }  # fmt: skip


def choose_kinds() -> list[tuple[str, str, tuple]]:
    kinds = []
    for cat, n in PLAN.items():
        for v in R.sample(vendors(cat), n):
            # A wallet hands out both its secret shapes: the phrase and the key.
            creds = CREDS[cat][:2] if cat == "wallet" else [R.choice(CREDS[cat])]
            kinds += [(v, cat, c) for c in creds]
    doubles = R.sample([k for k in kinds if len(CREDS[k[1]]) > 1], TWO_KINDS)
    for v, cat, cred in doubles:
        other = R.choice([c for c in CREDS[cat] if c is not cred])
        kinds.append((v, cat, other))
    return kinds


def fits_form(f: Form, s: dict) -> bool:
    """A form's own rule, and one for all: a byte array is written in code, config or
    prose, never typed into a header, a command line or a log line."""
    if s["x"][:1] in "[{" and f[1] in ("http", "shell", "log"):
        return False
    return f[2](s)


def assign(secrets: list[dict], used: Counter[str]) -> None:
    """Give every secret a form it may take: first each form not used yet one secret (the
    pickiest forms first), then the rest to the least used forms."""
    fits = {id(s): [f for f in FORMS if fits_form(f, s)] for s in secrets}
    open_ = list(secrets)
    unused = [f for f in FORMS if not used[f[0]]]
    for f in sorted(unused, key=lambda f: (sum(fits_form(f, s) for s in secrets), R.random())):
        cands = [s for s in open_ if fits_form(f, s) and f[0] not in s.get("taken", ())]
        if not cands:
            continue
        s = min(cands, key=lambda s: (len(fits[id(s)]), R.random()))
        s["form"] = f
        used[f[0]] += 1
        open_.remove(s)
    for s in open_:
        ok = [f for f in fits[id(s)] if f[0] not in s.get("taken", ())]
        low = min(used[f[0]] for f in ok)
        s["form"] = R.choice([f for f in ok if used[f[0]] == low])
        used[s["form"][0]] += 1


def render(s: dict) -> str:
    for _ in range(50):
        text = s["form"][3](s)
        if s["x"] in text:
            return text
        s["x"] = R.choice(dict((c[0], c[2]) for c in CREDS[s["cat"]])[s["c"]])(s["v"])
    raise AssertionError(f"{s['form'][0]} does not show {s['x']!r}")


def build() -> tuple[list[dict], list[dict]]:
    kinds = choose_kinds()
    secrets = [new_secret(*k) for k in kinds]
    firsts = list(secrets)
    used: Counter[str] = Counter()
    assign(secrets, used)
    seconds = []
    for s in R.sample(firsts, SECOND_FORM):
        t = new_secret(s["v"], s["cat"], next(c for c in CREDS[s["cat"]] if c[0] == s["c"]))
        t["taken"] = (s["form"][0],)
        seconds.append(t)
    assign(seconds, used)
    secrets += seconds
    for s in secrets:
        s["text"] = render(s)
    lookalikes = []
    i = 0
    while len(lookalikes) < N_LOOKALIKES:
        name, fn = LOOKALIKES[i % len(LOOKALIKES)]
        text, keep = fn()
        assert all(k in text for k in keep), name
        lookalikes.append(
            {"kind": f"{name} ({i // len(LOOKALIKES) + 1})", "text": text, "keep": keep}
        )
        i += 1
    # A secret found in any other entry's text would blur the score: draw it again.
    for _ in range(20):
        texts = [s["text"] for s in secrets] + [x["text"] for x in lookalikes]
        clash = [s for s in secrets if sum(s["x"] in t for t in texts) > 1]
        if not clash:
            break
        for s in clash:
            s["x"] = R.choice(dict((c[0], c[2]) for c in CREDS[s["cat"]])[s["c"]])(s["v"])
            s["text"] = render(s)
    else:
        raise AssertionError(f"still found elsewhere: {[s['x'] for s in clash]}")
    return secrets, lookalikes


def main() -> None:
    secrets, lookalikes = build()
    items = [
        {"kind": f"{s['v']} {s['c']} [{s['form'][0]}]", "text": s["text"], "secret": s["x"]}
        for s in secrets
    ]
    assert len({x["kind"] for x in items}) == len(items), "a kind and form repeat"
    texts = [x["text"] for x in items] + [x["text"] for x in lookalikes]
    for x in items:
        assert x["secret"] in x["text"] and sum(x["secret"] in t for t in texts) == 1, x["kind"]
    base = Counter(f"{s['v']} {s['c']}" for s in secrets)
    forms = Counter(s["form"][0] for s in secrets)
    groups = Counter(s["form"][1] for s in secrets)
    langs = sum(1 for f in forms if f.startswith("chat prose in "))
    sorts = len({x["kind"].rsplit(" (", 1)[0] for x in lookalikes})
    doc = {
        "about": (
            "Fourteenth blind corpus, written by benchmarks/make_secrets_blind14.py with "
            f"random.Random({SEED}) and the standard library only, from general knowledge of "
            "credential shapes and of where people paste them into coding-agent chats and where "
            "agents' tool output shows them, without reading brain's rules. "
            f"{len(items)} fake secrets of {len(base)} kinds (vendor and credential, every vendor "
            f"new to the earlier corpora's kind names) in {len(forms)} forms, and "
            f"{len(lookalikes)} look-alikes ({sorts} sorts) that must come out unchanged, each "
            "listing under keep the strings that must survive. Kind: <vendor> <credential> [<form>]."
        ),
        "secrets": items,
        "lookalikes": lookalikes,
    }
    OUT.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    vendors_used = {s["v"] for s in secrets}
    print(
        f"{len(items)} secrets of {len(base)} kinds ({sum(1 for n in base.values() if n == 1)} "
        f"once, {sum(1 for n in base.values() if n == 2)} twice) from {len(vendors_used)} vendors, "
        f"in {len(forms)} forms of {len(FORMS)} ({langs} chat languages)"
    )
    print("by group: " + ", ".join(f"{g} {n}" for g, n in groups.most_common()))
    print(
        "by class: "
        + ", ".join(f"{c} {n}" for c, n in Counter(s["cls"] for s in secrets).most_common())
    )
    print(f"{len(lookalikes)} look-alikes of {sorts} sorts")
    print(f"non-ASCII secrets: {sum(1 for x in items if not x['secret'].isascii())}")
    print(f"written {OUT}")


if __name__ == "__main__":
    main()
