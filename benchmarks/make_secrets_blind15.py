# ruff: noqa: E501
"""Write benchmarks/data/secrets_blind15.json: a fifteenth blind corpus of fake credentials.

What its author read, and what not. Written from general knowledge of how vendors shape
their keys, where people paste them into coding-agent chats and where agents' tool output
shows them, with the standard library only. Not read: anything under ``brain/`` or
``tests/``, ``benchmarks/README.md``, the project README, the bodies of the other
``make_secrets_blind*.py`` generators, any ``benchmarks/redact*`` file or folder,
/work/main or any other worktree; no ``git log`` or ``git show`` was run while writing it
(after the first commit, ``git log -1`` printed that commit's own hash and subject, and
the commit was then amended to say so). Read: the task brief;
``benchmarks/secrets_holdout.py`` (the whole file: the JSON format, how items are loaded
and scored); the top docstring of ``make_secrets_blind14.py`` only (line 1 to its closing
quotes), for the output shape, as an example of how to describe a corpus and for the forms
and look-alike sorts to avoid; for each ``benchmarks/data/secrets_*.json`` its top-level
keys and the lengths of its lists; the first 60 lines of ``/work/shared/STYLE.md``; the
``[tool.ruff]`` part of ``pyproject.toml``. The earlier corpora's secret ``kind`` names
(5,672, the `` [form]`` suffix stripped) were written by a script to a scratch file and
only searched by a script, never shown. Seen in passing: the file names in ``benchmarks/``
and ``benchmarks/data/``, the ``[tool.mypy]`` heading after ``[tool.ruff]``, and ``git
status``. Nothing in brain was run on the corpus and it was not scored; it was only
checked to load with ``json.load``, each secret being a verbatim substring of its text and
each ``keep`` string of its look-alike's.

Seed: ``Random(484827682)``, drawn at random when the work began.

Vendors. 2,702 candidates (2,700 once duplicates were removed) were listed from general
knowledge in 24 categories: software services, AI and ML APIs, payments, banks, brokers
and exchanges, wallets, device makers, self-hosted apps, games and game hosts, shops,
telecoms, government logins, schools and learning services, IoT platforms, CI/CD and
code-quality services, observability and on-call, CMSs with email and SMS senders, maps
with weather, market and data vendors, HR and payroll, healthcare portals, airline loyalty
programmes, utilities, VPN and network security, and desktop software. A script dropped
every candidate whose name appears in the earlier kind names (its words in sequence as a
word, its letters and digits run together when four or more anywhere in a kind run
together, or its first word as a word when it is four letters or more, or alone): 1,458 dropped, 1,242 left. 143 more were dropped by hand (common words such as Evidence,
Release, Reflect, Character, Forte, Regions, Citizens, Sunrise, Freedom, Calm or Clash;
names the check could not read, written with punctuation; one maker's second name), so the
1,099 names in ``VENDORS`` are new by that check. 329 of them are used, drawn per category
towards a quota; 21 of them hand out two kinds. A product sold under another name than its
maker's may still share a maker with an earlier kind.

Counts (printed by ``main``): 450 secrets of 350 kinds in 347 embedding forms, and 160
look-alikes of 64 sorts that must come out unchanged, each listing under ``keep`` the
strings that must survive. 250 kinds appear once and 100 twice, in two different forms
with fresh values. Every form is used at least once. A secret found inside any other
entry's text gets a fresh value, and the run fails if one is still found. Each ``kind`` is
``<vendor> <credential> [<form>]``.

Value shapes (``main -v`` prints them): 155 passwords and passphrases in all: as people
type them (a word or name with a year, date or symbol, two words, leetspeak, keyboard
walks, sentence-like ones, plain word plus digits) including 20 with non-ASCII words
(Łódź, Jäätelö, Сибирь, さくら, Ελιά, Þórsmörk, 바다, 东京タワー...), random ones of 10 to 40
characters with and without symbols, default-like admin passwords, Wi-Fi passwords made of
a name and a place word, game-server words, and 22 passphrases of four to six words; seed
phrases of 12, 15 or 24 words; among keys, vendor-style prefixes made from the vendor's
name (``xx_tok_``, ``xxlive``, ``XX_``, ``xx-api-``, ``xx_key_``, ``xxs_``, ``xx.v1.``,
``xx_test_``, ``xx1_``, ``XXT``, ``xxoauth_``, ``xx_<uuid hex>``, ``xx-abcd1234-...``,
``xx_whsig_``), short random alphanumerics of 12 to 24 (62-letter, lower or upper 36,
base58), long ones of 28 to 56, hex of 32 to 64 (some upper case), base64 and base64url,
UUIDs used as keys, JWT-like tokens, ``id:secret``, ``id.secret``, ``id|secret``,
``id/secret`` and ``id#secret`` pairs, WireGuard keys, license and serial keys in groups,
recovery and backup codes (one or several), TOTP seeds in base32 (some lower case in
groups of four), app passwords in four groups of four letters, gift and voucher codes,
byte arrays in decimal or ``0x`` hex, wallet keys in ``0x`` hex, bare hex, base58 and WIF,
PINs of 4 to 6 digits, 6-digit TANs, 8-digit PUKs and 16-digit account numbers used as
logins. A few secrets are the base64 of ``user:password`` (Basic and proxy headers, a raw
TCP stream, a git trace).

Forms, chosen to differ from blind14's list, 347 in all (521 were written; a seeded draw
made outside this file cut them to 342, keeping every form that takes a special kind of
value, then three MQTT forms and two chat forms were added): 72 in chat: prose in 48
languages, French, Mexican Spanish, Italian, Dutch, Swedish, Danish, Norwegian Bokmål,
Icelandic, Estonian, Latvian, Serbian, Macedonian, Albanian, Russian, Belarusian,
Armenian, Azerbaijani, Uzbek, Mongolian, Hindi, Tamil, Kannada, Gujarati, Punjabi, Nepali,
Burmese, Lao, Simplified Chinese, Cantonese, Malay, Amharic, Somali, Hausa, Zulu,
Afrikaans, Irish, Scottish Gaelic, Maltese, Luxembourgish, Galician, Esperanto,
Kinyarwanda, Maori, Swiss German, Pashto, Kyrgyz, Tajik, Bosnian, each naming the
credential in English as people mix; and note with only the vendor's name, webhook URL
with the token in its path, Microsoft Teams message, Google Chat message, Zulip topic
message, Mattermost channel post, prompt about a 401, prompt to add a CI secret, voice
memo transcript, sticky note OCR, ChatGPT conversation export, Asana task description,
GitLab merge request comment, Gerrit review comment, pull request description, Zendesk
ticket reply, Intercom chat transcript, email reply with quoted text, Outlook forwarded
email, out-of-office handover, Obsidian daily note, Logseq block, forum post draft,
KakaoTalk export.

14 in notes and password-manager exports: Apple Notes export, Google Keep note, Joplin
note, todo.txt line, 1Password 1pux item, Dashlane CSV, Enpass JSON, NordPass CSV, Proton
Pass JSON, pass(1) entry, gopass YAML entry, Apple Passwords CSV, Firefox logins CSV,
Keeper JSON export.

12 in tables: reStructuredText grid table, org-mode table, CSV with semicolons, TSV paste
from a spreadsheet, HTML table, MySQL client table, mongosh document, Redis HGETALL,
polars DataFrame print, column -t output, Google Sheets copy, Airtable CSV export.

72 in config files: ~/.gem/credentials, sbt credentials file, .yarnrc.yml npmAuthToken,
bunfig.toml registry token, Poetry auth.toml, .Renviron, Django settings.py, Flask
instance config.py, Expo app.config.js extra, Tauri conf JSON, Alertmanager receiver,
Fluent Bit output, OpenTelemetry collector headers, Traefik dynamic config, HAProxy
userlist, Envoy header, Consul agent ACL token, ConfigMap holding a secret, Pulumi stack
config (plain), Hiera YAML, Chef data bag JSON, Packer HCL variable, NixOS
configuration.nix, Dockerfile ARG default, devcontainer.json containerEnv, GitHub Actions
env literal, CircleCI config environment, Buildkite pipeline, .travis.yml env, AppVeyor
environment, Earthfile, Woodpecker pipeline, VS Code launch.json env, REST Client .http
file, Insomnia export, Bruno .bru file, Superset config, msmtprc, muttrc, mbsyncrc,
fetchmailrc, gh hosts.yml, .s3cfg, .kube/config user token, OpenVPN auth-user-pass file,
cloud-init chpasswd, kickstart rootpw, autounattend.xml, NetworkManager .nmconnection, iwd
.psk file, hostapd.conf, OpenWrt wireless config, MikroTik export, Cisco IOS username,
Plex Preferences.xml, Deluge auth file, SABnzbd ini, Zigbee2MQTT network_key, Node-RED
settings.js, OctoPrint config.yaml, Homebridge config.json, Velocity forwarding secret
file, Factorio server-settings.json, ARK GameUserSettings.ini, Rust server.cfg rcon,
Terraria serverconfig.txt, Palworld settings, 7 Days to Die serverconfig.xml, CS2 autoexec
rcon, Mumble murmur.ini, Valheim start script, Frigate MQTT config.

54 in shell sessions and CLI output: qBittorrent WebUI login with curl, bash history grep,
gh secret set --body, az webapp appsettings set, aws secretsmanager get-secret-value,
vault kv get table, vault kv put, docker run -e, podman login --password, helm install
--set, mongosh connection string, sshpass -p, smbclient -U user%pass, git clone with token
in URL, mvn -D password, gpg --passphrase, chpasswd via echo, net user on Windows, cmdkey
/pass, xfreerdp /p:, PGPASSWORD prefix, nats -s URL, kafka JAAS on the command line, lpass
show --password, keyring get, printenv, systemctl show Environment, ps auxe args, strings
on a binary, sops -d output, ansible-vault view, direnv export, grpcurl -H, wscat -H,
swaks --auth-password, ldapwhoami -w, snmpwalk -A, sqlcmd -P, cqlsh -p, yt-dlp --password,
expect script send, vendor CLI login argument, vendor CLI --api-key flag, npx with inline
env, Windows runas prompt, wifi QR code string, nmcli wifi connect, iwctl passphrase,
raspi-config nonint wifi, rcon-cli, mcrcon, cast wallet address --private-key,
solana-keygen recover, mosquitto_sub -P.

51 in code: Python requests header, SDK client positional argument, psycopg connect
kwargs, pika PlainCredentials, kafka-python SASL, paramiko connect, smtplib login, imaplib
login, Selenium send_keys, Playwright fill, Cypress type, Puppeteer type, Capybara
fill_in, Robot Framework, Django test client login, mysql2 createConnection, nodemailer
transport, express basic-auth users, Go redis.Options, Go jwt signing key, Rust reqwest
bearer_auth, Spring @Value default, Java RestTemplate basic auth, EF Core UseNpgsql, Ruby
Net::HTTP basic_auth, Ruby Sequel connect, PHP PDO, Kotlin OkHttp Credentials, Scala sttp,
Haskell http-client, Erlang httpc, Lua http request, Groovy script, Zig std.http header,
Crystal HTTP::Client, C libpq conninfo, ESP-IDF wifi_config_t, PlatformIO build_flags,
CircuitPython settings.toml, web3.py Account.from_key, solders Keypair.from_bytes,
@solana/web3.js fromSecretKey, paho-mqtt username_pw_set, C byte array key, bitcoinjs
fromWIF, bip39 mnemonicToSeed, truffle HDWalletProvider, brownie accounts.add, foundry
.env PRIVATE_KEY, SQL ALTER ROLE PASSWORD, Swift keychain query.

18 in logs: uvicorn access log, Rails log Parameters, Django DEBUG page settings, Express
morgan log, CloudWatch JSON log, GCP Cloud Logging entry, RFC 5424 syslog, Celery worker
log, log4j pattern line, Python logging default format, zap JSON log, Rust tracing log,
Android logcat, browser console log, kubectl -v=8 request headers, GIT_TRACE_CURL output,
pip verbose index URL, pytest captured log.

9 in diffs: git diff of .env, GitHub suggestion block, git stash show -p, git format-patch
email, svn diff, kubectl diff, helm diff upgrade, ansible --diff, side-by-side diff.

15 in HTTP and protocol traces: HAR entry, Fiddler raw request, Wireshark follow TCP
stream, POP3 PASS, SOAP WS-Security UsernameToken, XML-RPC call, OAuth token response,
OAuth client credentials body, Basic auth header, Cookie header session,
Proxy-Authorization header, NATS CONNECT, STOMP CONNECT frame, WebSocket auth message,
gRPC metadata dump.

30 in agent tool calls and results: assistant asking to confirm, Jupyter markdown cell
JSON, Claude Code user message line, Claude Code Read result with line numbers, Claude
Code MultiEdit input, Claude Code Bash tool_use with env, Codex function_call with command
array, Codex function_call_output escaped, Codex exec_command_end event, Codex apply_patch
input, MCP resources/read result, MCP prompts/get arguments, .mcp.json server env, Claude
Desktop config env, Cursor mcp.json headers, Continue config.yaml, Aider chat history,
Aider /run output, Cline execute_command, Gemini CLI tool call, Goose session line, OpenAI
function call arguments, Anthropic API tool_result body, OpenHands CmdRunAction, SWE-agent
trajectory step, smolagents step log, subagent summary report, escaped JSON twice in a
transcript, LangGraph state dump, AutoGen message.

Names: credential words first, last or in the middle, with an environment part before,
after or inside (``PROD``, ``STAGING``, ``EU``, ``V2``, ``SANDBOX``, ``APAC``, ``CI``...),
in many spellings (``APIKEY``, ``APP_KEY``, ``TOK``, ``PAT``, ``BEARER_TOKEN``,
``SHARED_SECRET``, ``WH_SECRET``, ``HOOK_SECRET``, ``CREDS``, ``KEYPAIR``, ``PASSWD``,
``PWD``, ``PW``, ``USER_PASS``, ``WPA_KEY``, ``WIFI_PSK``, ``JOIN_PASSWORD``,
``PIN_CODE``, ``PASSCODE``, ``MNEMONIC``, ``SIGNER_KEY``, ``DEPLOYER_KEY``, ``OTP_SEED``,
``TWOFA_KEY``, ``RESCUE_CODE``) and other languages (``SCHLUESSEL``,
``ZUGANGSSCHLUESSEL``, ``CLAVE_API``, ``CHAVE_API``, ``KLUCZ_API``, ``NOEGLE``,
``KLYUCH``, ``MIYAO``, ``KAGI``, ``ATSLEGA``, ``KLUC``, ``KUNJI``, ``SUSI``, ``MAFTOOH``,
``PASSWORT``, ``KENNWORT``, ``WACHTWOORD``, ``SALASANA``, ``ADGANGSKODE``, ``PASSORD``,
``HESLO``, ``PAROL``, ``MIMA``, ``PASUWADO``, ``MAT_KHAU``, ``KATA_LALUAN``, ``LYKILORD``,
``PAROLE``, ``KODIKOS``, ``NENO_SIRI``, ``PASFHOCAL``, ``BIMILBEONHO``, ``SALASONA``,
``FJALEKALIM``), as UPPER_SNAKE, snake, camelCase, PascalCase, kebab, dotted and
``X-Vendor-Key`` header forms. Some values have no credential word near them: an SDK
client's positional argument, a vendor CLI's ``login`` argument, a token in a webhook
URL's path, a git clone URL, a note with only the vendor's name, a sticky-note OCR,
``lpass``, ``keyring get`` and ``pass``-style lookups, ``sshpass -p``, ``smbclient -U
user%pass``, ``xfreerdp /p:``, ``mcrcon``, a wallet restored from its key or bytes.

Which value goes where: PINs, TANs, PUKs, codes, recovery codes, TOTP seeds and seed words
go only to forms that take any value (chat, notes, tables, password-manager and keychain
lookups, agent prose); people's own account passwords also to login-page test code, ``yt-dlp``, an OpenVPN auth file, ``imaplib``, an XML-RPC call and a Rails log among others; keys never to password-only forms nor
passwords to header forms; database forms take only database passwords, mail forms only
SMTP and app passwords, broker forms only message-broker passwords, MQTT forms only MQTT
passwords, server-login forms only SFTP, admin and devices' admin passwords; Wi-Fi forms
only Wi-Fi passwords; game-server files only server and RCON passwords; wallet code only
wallets' keys, phrases and keypair bytes; byte arrays only to code and config that holds
them. Forms that put the value in a URL take only values that need no escaping, XML forms
none with ``&<>"'``, JSON and double-quoted forms none with ``"`` or a backslash, and
forms that leave the value unquoted on a command line none with spaces, quotes or shell
characters.

Look-alikes, each with its ``keep`` list (64 sorts): git reflog, git rev-parse and stash
list, Mercurial changeset, pnpm-lock integrity, yarn.lock resolved hash, Pipfile.lock
hashes, Gemfile.lock checksums, flake.lock narHash, terraform lock hashes, compose image
digest, sha1sum and md5sum output, git LFS pointer, SRI integrity attribute, Ethereum
transaction hash, Bitcoin address and txid, Solana public address, PGP fingerprint, SSH
known_hosts line, SSH host key fingerprint, JWKS public key, age public key, WireGuard
peer public key, Tor onion address, W3C traceparent, AWS X-Ray trace id, Kubernetes uid,
docker ps ids, machine-id and boot_id, MAC address, Android signing SHA-1, .NET
PublicKeyToken, Chrome extension id, Xcode team and profile ids, COM CLSID, git submodule
status, CI cache key, MLflow and wandb run ids, Sentry event id, Slack channel and ts, IAM
role ARN, Azure tenant and subscription, GCP project number and service account,
placeholder value, GitHub Actions secret reference, Helm values reference, masked value,
code reading the environment, gettext entry about passwords, Android strings.xml password
hint, password prompt with nothing typed, HTML password input, Django password validators,
Notion page id, Figma file key, Rekor entry UUID, apt NO_PUBKEY id, ACME account URL,
password strength feedback, Keycloak masked client secret, UUIDv7 request id,
Idempotency-Key header, ULID job id, password policy regex and cron, secret manager
resource name.

Run: ``python benchmarks/make_secrets_blind15.py`` (``-v`` also prints value shapes).
"""

from __future__ import annotations

import base64
import json
import re
import string
import sys
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from random import Random

OUT = Path(__file__).parent / "data" / "secrets_blind15.json"
SEED = 484827682
R = Random(SEED)


def _names(text: str) -> list[str]:
    return [x.strip() for x in text.split(", ") if x.strip()]


# Vendors left after the script's check against earlier corpora's kind names and the
# hand drops described above, by category.
VENDORS: dict[str, list[str]] = {
    "software": _names(
        """CodeSandbox, Netmaker, Onboardbase, Unsend, Codat, Vectara, Decap, Bytescale, Splitbee, Kameleoon, Deepnote, Tyk, Localtunnel, Zrok, ProGet, Signadot, Capgo, Testim, Kobiton, HeadSpin, Perfecto"""
    ),
    "ai": _names(
        """Patronus, Encord, Moondream, Tripo, Meshy, Letta, Mem0, Cognee, Relace, Greptile, CodeRabbit, Qodo, Tabnine, Codeium, Phind, Writesonic, Rytr, Anyword, Copysmith, Lightricks, Lilt, Unbabel, Smartcat, Upsolve, Langflow, MindStudio, Cognigy, Decagon, Synthflow, Air.ai, Speechly, Symbl, tl;dv, Avoma"""
    ),
    "payments": _names(
        """Schematic, Verifone, Payrix, Ratepay, Billie, Mondu, Multibanco, JKOPay, Xfers, Fiuu, eSewa, Khalti, Payrexx, Heidelpay, Novalnet, Mercanet, Payzen, Dalenys, Ogone"""
    ),
    "banks": _names(
        """Novo Banco, Bankinter, Abanca, Unicaja, Ibercaja, Kutxabank, Fineco, Credem, GLS Bank, Länsförsäkringar, Sparebank, Ålandsbanken, Landsbankinn, Íslandsbanki, Citadele, Šiaulių bankas, Pekao, Alior, Komerční banka, CSOB, Fio, Moneta, VUB, Granit, Zagrebačka banka, PBZ, BRD, CEC, Bulbank, DSK, Fibank, Halkbank, VakıfBank, Enpara, Hapoalim, Leumi, Mizrahi, Al Rajhi, Kuwait Finance House, IndusInd, IDFC First, Bandhan, Canara, UCO, Meezan, HBL, UBL, MCB, Dutch Bangla, AmBank, Mandiri, BNI, Jenius, BDO, Metrobank, UnionBank, Techcombank, VPBank, Kasikorn, Krungsri, TTB, Bendigo, ASB, Allica, Zopa, EQ Bank, Koho, Synchrony, Truist, Huntington, PenFed, BECU, Alliant, SchoolsFirst, Bluevine, Bradesco, Banamex, BancoEstado, Bancolombia, Uala, Zenith, Attijariwafa, Stanbic, Sony Bank, Shinhan, WeBank, ZA Bank, E.SUN, Taishin, Oschadbank"""
    ),
    "brokers": _names(
        """Moneybox, Hargreaves Lansdown, AJ Bell, Justtrade, Finimize, Montrose, Tastytrade, Moomoo, Futu, CommSec, SelfWealth, Pearler, Sharesies, Kristal, Syfe, Endowus, StashAway, Coinone, Zaif, Zebpay, Bittrex, CEX.IO, IG Markets, Pepperstone, FXCM, Exness, Tickmill, Plus500, CMC Markets, Dukascopy"""
    ),
    "wallets": _names(
        """Sui Wallet, Martian, Foundation Passport, Mutiny, Rabet, Freighter, Lobstr, Xaman, Crossmark"""
    ),
    "devices": _names(
        """Cradlepoint, Snom, Obihai, Ugreen, AVM, Technicolor, Nokia Beacon, Brother Printer, Xerox, Lexmark, Denon, Bluesound, WiiM, Logitech Harmony, Lutron, Crestron, Control4, Z-Wave.Me, Hubspace, Insteon, RainMachine, Flo by Moen, SMA"""
    ),
    "selfhosted": _names(
        """Homebox, Gatus, Icinga, Shlink, Kutt, PrivateBin, Hastebin, Traccar, Webmin, Kiwix, Invidious, Nitter, SearXNG, Whoogle, LanguageTool, Akaunting, Mautic, Stalwart"""
    ),
    "games": _names(
        """Valve, Blizzard, Mojang, Jagex, ArenaNet, Wargaming, Grinding Gear, Warframe, Smilegate, Genshin, HoYoverse, miHoYo, Honkai, Nexon, Netmarble, NCSoft, Krafton, PUBG, Moonton, Supercell, Clash Royale, Brawl Stars, Rovio, Zynga, Scopely, Enjin, PingPerfect, Sparked Host, AMP CubeCoder, Satisfactory, Starbound, V Rising, Unturned, Abiotic Factor, Soulmask, Sunkenland, Avorion, Wurm, Mortal Online, Albion, EVE Online, CCP, Frontier Dev, 0 A.D., Minetest, Luanti, Mindustry"""
    ),
    "shops": _names(
        """About You, Bol, Coolblue, Leroy Merlin, Castorama, Decathlon, Kiabi, Wallapop, Kleinanzeigen, Marktplaats, Blocket, DBA, Namshi, Myntra, Meesho, Nykaa, Ajio, Blibli, Tiki, Zozotown, Pinduoduo, Temu, Shein, AliExpress, Etsy, ThredUp, Grailed, StockX, ASOS, Ocado, Tesco, Sainsbury, Waitrose, Aldi, Lidl, Carrefour, Intermarche, Mercadona, Esselunga, Conad, Migros, Albert Heijn, Colruyt, Delhaize, Woolworths, Coles, Kmart, Bunnings, JB Hi-Fi, Canadian Tire, Loblaws, Sobeys, Overstock, B&H Photo, Sweetwater, Thomann, Bax Music, Musicstore"""
    ),
    "telecoms": _names(
        """Vodafone Ziggo, KPN, Telenet, Swisscom, A1, Telekom Slovenije, Tele2, Telenor, Elisa, Lyca, Giffgaff, Voxi, iD Mobile, Tesco Mobile, O2, Virgin Media, Plusnet, TalkTalk, Hyperoptic, Eir, Virgin Ireland, Iliad, Bouygues, SFR, Sosh, RED by SFR, Fastweb, WindTre, TIM, Ho Mobile, Kena, PosteMobile, MasMovil, Yoigo, Pepephone, Movistar, Simyo, MEO, Vodafone PT, Cosmote, T Mobile CZ, O2 CZ, Yettel, Telekom Romania, Turkcell, Turk Telekom, Kyivstar, Lifecell, Beeline, MTS, Tele2 KZ, Kcell, Ucell, Jio, BSNL, Grameenphone, Banglalink, Mobitel, Etisalat, Zain, Mobily, Ooredoo, Glo, 9mobile, Vodacom, Telkom Kenya, Maroc Telecom, Vinaphone, AIS, TrueMove, DTAC, Telkomsel, Indosat, XL Axiata, Maxis, Celcom, U Mobile, Singtel, StarHub, Circles Life, Optus, Telstra, TPG, Vodafone AU, One NZ, 2degrees, Rogers, Telus, Koodo, Videotron, US Cellular, Boost Mobile, Tracfone, Straight Talk"""
    ),
    "government": _names(
        """ID.me, GOV.UK One Login, Government Gateway, myGov, ATO, Centrelink, Medicare AU, RealMe, IRD NZ, My Service Canada, CRA My Account, GCKey, BundID, ELSTER, ePA Login, Ameli, impots.gouv.fr, CAF, CIE ID, INPS, Agenzia Entrate, DigiD, itsme, eID Belgium, NemID, Suomi.fi, Latvija.lv, Lietuvos eID, Profil Zaufany, ePUAP, mojeID, NIA CZ, Ügyfélkapu, eGov AT, ID Austria, SwissID, gov.pt, Autenticação.gov, eGov.kz, Diia, Aadhaar, UMANG, Income Tax India e-Filing, EPFO, Corppass, MyInfo, MyKad, LHDN, PhilSys, eGov PH, NIK, Mynaportal, My Number, e-Tax, Hometax, NHI Taiwan, TW FidO, Ezpay HK, iAM Smart, eHealth SG, UAE Pass, Absher, Nafath, Tawakkalna, Sanad, Mygov QA, eCitizen KE, KRA iTax, RRA Rwanda, IRS Online, SSA my Social Security, USCIS Online, FAFSA, StudentAid, Medicare.gov, HealthCare.gov, CalFresh, BenefitsCal, NY.gov, DMV Online, Recreation.gov, TSA PreCheck, CBP One, SAT Mexico, Mi Argentina, AFIP, gov.br, Receita Federal, SII Chile, SUNAT, RENIEC"""
    ),
    "schools": _names(
        """Sakai, Edmodo, Aeries, Veracross, Blackbaud, SchoolMessenger, ParentSquare, Edsby, Compass Edu, Sentral, SIMS, Bromcom, ScholarPack, Satchel, Show My Homework, Sparx, Hegarty, Dr Frost Maths, Seneca, Gimkit, Nearpod, Flipgrid, Padlet, Wakelet, Khan Academy, Coursera, Udacity, Codecademy, DataCamp, Rosetta Stone, italki, Preply, Cambly, Chegg, Studocu, Grammarly, Mathway, Photomath, EasyBib, Scribbr, Naviance, Unifrog, UCAS, Handshake, Crowdmark, Top Hat, iClicker, Mentimeter, Slido, Respondus, ProctorU, Eduroam, Shibboleth"""
    ),
    "iot": _names(
        """Datacake, Hologram, 1NCE, Onomondo, TTN, Loriot, Actility, Senet, Milesight, Dragino, RAKwireless, Seeed SenseCAP, Cayenne, myDevices, Thinger.io, Kaa, AllThingsTalk, Wia, Flespi, Siemens MindSphere, PTC ThingWorx, Webfleet, Roambee, Sensitech, Monnit, Disruptive Technologies, Elsys, Netvox, Yanzi, Nabu Casa"""
    ),
    "cicd": _names(
        """Wercker, Shippable, Codeship, Cirrus CI, Blacksmith, WarpBuild, BuildJet, RunsOn, Cirun, Actuated, Garnix, Hercules CI, Cachix, Bazel BuildBuddy, EngFlow, NativeLink, Develocity, Qlty, Aikido, Grype, Trivy Cloud, Renovate, Dependabot Pro, Mergify, Pullpo, LinearB, Swarmia, OpsLevel, Backstage Roadie, Humanitec"""
    ),
    "observability": _names(
        """LogDNA, Kloudfuse, Odigos, Lumigo, Epsagon, Dashbird, Thundra, Aspecto, Parca, Causely, ilert, AlertOps, xMatters, BigPanda, Moogsoft, ManageEngine, Updown, Oh Dear, Uptrends, Catchpoint, ThousandEyes, Kentik, Netography"""
    ),
    "cms_email_sms": _names(
        """Contentstack, Crafter, Magnolia, ProcessWire, Kentico, Concrete CMS, Textpattern, Wagtail, Mezzanine, Plone, Typo3, Neos, Pimcore, Saleor, Vendure, Crystallize, Spryker, EmailOctopus, Benchmark Email, Voodoo SMS, Movider, SMSPortal, Messente, Octopush, Mobyt"""
    ),
    "maps_data": _names(
        """Thunderforest, Jawg, Positionstack, Geocodio, Smarty Streets, Loqate, Ideal Postcodes, getAddress, Mapillary, Protomaps, Nominatim, GraphHopper, Openrouteservice, NextBillion, Navmii, Sygic, Transitland, Weatherbit, Meteoblue, Xweather, Stormglass, Ambee, BreezoMeter, EOD Historical, Intrinio, Quandl, Refinitiv, FactSet, Morningstar, Xignite, Barchart, Databento, Kaiko, Glassnode, Flipside, mempool.space, Arbiscan, Solscan, ZoomInfo, Seamless.AI, Crunchbase, PitchBook, Dealroom, Tracxn, CB Insights, SimilarWeb, Ahrefs, SpyFu, Mangools, SE Ranking, BuiltWith, Wappalyzer, MaxMind, IP2Location, Numverify, NeverBounce, Emailable, Clearout"""
    ),
    "hr_payroll": _names(
        """Papaya Global, Velocity Global, Omnipresent, Factorial, Kenjo, Sympa, Justworks, TriNet, Paychex, ADP Workforce, Paycor, isolved, Employment Hero, KeyPay, TravelPerk, Ceridian, Dayforce, UKG, Kronos, SuccessFactors, Cornerstone, 15Five, Recruitee, SmartRecruiters, JazzHR, When I Work, Connecteam, Planday, Quinyx, Shiftbase, Humanforce, 7shifts"""
    ),
    "healthcare": _names(
        """MyChart, FollowMyHealth, Healow, NextGen Patient, Tebra, Halaxy, Doctolib, Doctoralia, Jameda, Zocdoc, Practo, Halodoc, Alodokter, Teladoc, Amwell, MDLIVE, Doctor On Demand, Babylon, Qare, Ada Health, Phreesia, One Medical, Hinge Health, Livongo, Medtronic CareLink, Tandem Source, mySugr, MyFitnessPal, Noom, Headspace, BetterHelp, Talkspace, Cerebral, Nurx, Lemonaid, GoodRx, PillPack, LloydsPharmacy, Patient Access, Evergreen Life, NHS App, HealthHub, Medibank, Bupa, HCF, AXA Health, Aetna, Cigna, Kaiser Permanente, Anthem, Oscar Health, Devoted Health"""
    ),
    "airlines": _names(
        """Lufthansa Miles More, Air France Flying Blue, KLM, British Airways Avios, Iberia Plus, Vueling, TAP Miles Go, SAS EuroBonus, Finnair Plus, Icelandair Saga, LOT Miles Smiles, Aegean Miles Bonus, Turkish Miles Smiles, Etihad Guest, Qatar Privilege Club, Saudia Alfursan, El Al Matmid, EgyptAir Plus, Ethiopian ShebaMiles, Kenya Airways Asante, South African Voyager, Singapore KrisFlyer, Cathay Asia Miles, ANA Mileage Club, Korean Air Skypass, Asiana Club, EVA Infinity, Thai Royal Orchid, Garuda GarudaMiles, Malaysia Enrich, Philippine Mabuhay, Vietnam Lotusmiles, Air India Maharaja, IndiGo BluChip, Qantas Frequent Flyer, Virgin Velocity, Air New Zealand Airpoints, Air Canada Aeroplan, WestJet Rewards, Alaska Mileage Plan, JetBlue TrueBlue, Southwest Rapid Rewards, Delta SkyMiles, United MileagePlus, Avianca LifeMiles, LATAM Pass, Azul TudoAzul, Gol Smiles, Aeromexico Club Premier, Copa ConnectMiles, Ryanair, Wizz Air, easyJet, Norwegian Reward, Eurowings, Condor, Volotea, Transavia, Jet2, Pegasus BolBol, flydubai OPEN, Air Arabia, AirAsia BIG, Scoot, Jetstar, Frontier Miles, Allegiant, Sun Country, Avelo"""
    ),
    "utilities": _names(
        """Ovo Energy, E.ON Next, EDF Energy, British Gas, Scottish Power, SSE Airtricity, Eneco, Vattenfall, Essent, Engie, Luminus, TotalEnergies Home, Enel, Iberdrola, Endesa, Naturgy, Holaluz, EDP Comercial, Galp, Fortum, Greenely, Fjordkraft, Statkraft, Elvia, Ellevio, Enexis, Liander, Stedin, Westnetz, Stadtwerke München, Lichtblick, Polarstern, Naturstrom, Eprimo, Techem, Brunata, Thames Water, Anglian Water, Severn Trent, United Utilities, Yorkshire Water, Southern Water, Welsh Water, Scottish Water, Irish Water, Con Edison, PG&E, SoCal Edison, SDG&E, Duke Energy, Dominion Energy, Georgia Power, FPL, Entergy, Ameren, ComEd, PSEG, Eversource, Avangrid, Hydro One, Toronto Hydro, BC Hydro, Hydro Quebec, Enmax, Epcor, AGL, EnergyAustralia, Red Energy, Alinta, Genesis Energy, Meridian, Eskom, Tokyo Electric, Kansai Electric, Chubu Electric, KEPCO, Taipower, CLP Power, HK Electric, SP Group, Tenaga Nasional, Meralco, PLN, EVN, Adani Electricity, BSES, MSEDCL"""
    ),
    "vpn_security": _names(
        """ProtonVPN, IVPN, Windscribe, PIA, CyberGhost, IPVanish, PureVPN, hide.me, AirVPN, OVPN, TorGuard, VyprVPN, Astrill, hide my ass, Hotspot Shield, TunnelBear, PrivadoVPN, FastestVPN, ControlD, Quad9, Appgate, Palo Alto Prisma, Fortinet FortiClient, WatchGuard, Ivanti, GlobalProtect, Defguard, Streisand, Amnezia, Hiddify, Marzban, 3x-ui, Xray, V2Ray, Shadowsocks, Trojan-GFW, Quantumult, Shadowrocket"""
    ),
    "desktop_software": _names(
        """JetBrains, Kaleidoscope, WinRAR, WinZip, Bandizip, PeaZip, Total Commander, Directory Opus, XYplorer, Everything Voidtools, Raycast, LaunchBar, BetterTouchTool, Keyboard Maestro, TextExpander, Typinator, iStat Menus, CleanMyMac, DaisyDisk, LuLu, SuperDuper, Acronis, Macrium, EaseUS, AOMEI, Parallels, VirtualBox Ext, UTM, CrossOver, Pixelmator, Capture One, DxO, Luminar, ON1, ProtoPie, Lunacy, Krita, Procreate, Marmoset, Houdini, Cinema 4D, ZBrush, SketchUp, Vectorworks, ArchiCAD, Revit LT, BricsCAD, DraftSight, Camtasia, Snagit, ScreenFlow, CleanShot, OBS Ninja, XSplit, Voicemeeter, Rogue Amoeba, Reaper, Bitwig, Ableton, Cubase, FL Studio, Arturia, Spitfire, Kontakt, iZotope, FabFilter, Soundtoys, Valhalla DSP"""
    ),
}

# Passwords of services: databases, mail, message brokers, servers, web admin logins.
SVC = ("dbpw", "smtppw", "mqpw", "mqttpw", "sftppw", "adminpw")

# What each category hands out: (label, role). The role decides the value's shape and
# which forms may carry it.
CREDS: dict[str, list[tuple[str, str]]] = {
    "software": [
        ("API key", "apikey"),
        ("access token", "token"),
        ("database password", "dbpw"),
        ("client secret", "secret"),
        ("webhook secret", "webhook"),
        ("account password", "acctpw"),
        ("recovery codes", "recovery"),
        ("TOTP seed", "totp"),
        ("key pair", "pair"),
    ],
    "ai": [
        ("API key", "apikey"),
        ("secret key", "secret"),
        ("access token", "token"),
        ("account password", "acctpw"),
        ("key pair", "pair"),
    ],
    "payments": [
        ("secret key", "apikey"),
        ("webhook signing secret", "webhook"),
        ("merchant password", "adminpw"),
        ("API credentials", "pair"),
        ("terminal PIN", "pin"),
    ],
    "banks": [
        ("online banking password", "acctpw"),
        ("card PIN", "pin"),
        ("TAN", "pin"),
        ("mobile banking passcode", "pin"),
        ("API client secret", "secret"),
    ],
    "brokers": [
        ("trading password", "acctpw"),
        ("API secret", "secret"),
        ("API key pair", "pair"),
        ("2FA backup codes", "recovery"),
        ("trading PIN", "pin"),
        ("TOTP seed", "totp"),
    ],
    "wallets": [
        ("seed phrase", "seed"),
        ("private key", "wkey"),
        ("keypair bytes", "wbytes"),
        ("wallet password", "acctpw"),
        ("unlock PIN", "pin"),
    ],
    "devices": [
        ("admin password", "devpw"),
        ("Wi-Fi password", "wifi"),
        ("device PIN", "pin"),
        ("cloud account password", "acctpw"),
        ("local API token", "token"),
    ],
    "selfhosted": [
        ("admin password", "adminpw"),
        ("API token", "token"),
        ("database password", "dbpw"),
        ("message broker password", "mqpw"),
        ("secret key", "secret"),
        ("SMTP password", "smtppw"),
    ],
    "games": [
        ("account password", "acctpw"),
        ("server password", "gamesrv"),
        ("RCON password", "gamesrv"),
        ("parental PIN", "pin"),
        ("gift card code", "code"),
        ("authenticator recovery code", "recovery"),
    ],
    "shops": [
        ("account password", "acctpw"),
        ("gift card code", "code"),
        ("voucher code", "code"),
        ("seller API key", "apikey"),
    ],
    "telecoms": [
        ("account PIN", "pin"),
        ("PUK", "pin"),
        ("SIM PIN", "pin"),
        ("customer portal password", "acctpw"),
        ("voicemail PIN", "pin"),
    ],
    "government": [
        ("login password", "acctpw"),
        ("eID PIN", "pin"),
        ("TOTP seed", "totp"),
        ("recovery code", "recovery"),
        ("API client secret", "secret"),
    ],
    "schools": [
        ("student portal password", "acctpw"),
        ("LMS API token", "token"),
        ("parent PIN", "pin"),
        ("app password", "apppw"),
    ],
    "iot": [
        ("device key", "apikey"),
        ("MQTT password", "mqttpw"),
        ("provisioning token", "token"),
        ("device secret bytes", "bytes"),
        ("access key", "secret"),
    ],
    "cicd": [
        ("runner registration token", "token"),
        ("deploy token", "token"),
        ("API token", "apikey"),
        ("cache signing key", "secret"),
    ],
    "observability": [
        ("ingest key", "apikey"),
        ("API key", "apikey"),
        ("webhook token", "webhook"),
        ("license key", "license"),
    ],
    "cms_email_sms": [
        ("API key", "apikey"),
        ("SMTP password", "smtppw"),
        ("auth token", "token"),
        ("admin password", "adminpw"),
        ("app password", "apppw"),
    ],
    "maps_data": [
        ("API key", "apikey"),
        ("access token", "token"),
        ("SFTP password", "sftppw"),
        ("client secret", "secret"),
    ],
    "hr_payroll": [
        ("login password", "acctpw"),
        ("API token", "token"),
        ("payslip PIN", "pin"),
        ("client secret", "secret"),
    ],
    "healthcare": [
        ("patient portal password", "acctpw"),
        ("API key", "apikey"),
        ("login PIN", "pin"),
    ],
    "airlines": [
        ("account password", "acctpw"),
        ("frequent flyer PIN", "pin"),
        ("partner API key", "apikey"),
    ],
    "utilities": [
        ("account password", "acctpw"),
        ("meter portal PIN", "pin"),
        ("API key", "apikey"),
    ],
    "vpn_security": [
        ("account password", "acctpw"),
        ("WireGuard private key", "secret"),
        ("license key", "license"),
        ("subscription token", "token"),
        ("account number", "pin"),
    ],
    "desktop_software": [
        ("license key", "license"),
        ("account password", "acctpw"),
        ("serial number", "license"),
        ("sync token", "token"),
    ],
}

# How many vendors of each category the corpus draws, roughly.
QUOTA = {
    "software": 20,
    "ai": 28,
    "payments": 15,
    "banks": 22,
    "brokers": 16,
    "wallets": 11,
    "devices": 20,
    "selfhosted": 16,
    "games": 22,
    "shops": 12,
    "telecoms": 14,
    "government": 14,
    "schools": 11,
    "iot": 14,
    "cicd": 14,
    "observability": 12,
    "cms_email_sms": 16,
    "maps_data": 18,
    "hr_payroll": 10,
    "healthcare": 11,
    "airlines": 8,
    "utilities": 8,
    "vpn_security": 12,
    "desktop_software": 12,
}

WORDS = "amber anchor apple arrow autumn badger bamboo banjo basil beacon berry birch biscuit blossom bonfire breeze bridge bucket butter cactus camel candle canyon carrot castle cedar cherry chestnut cider cinder clover cobalt comet copper coral cotton crane crystal daisy dolphin dragon ember falcon feather fennel fig flint forest fossil fox garnet ginger glacier goose granite harbor hazel heron honey island ivory jasmine juniper kettle kiwi lantern lemon lilac lotus magnet mango maple marble meadow melon mint moose nectar nutmeg oasis olive onion orbit otter oyster panda papaya parrot peach pebble pepper pickle pine plum pony poppy pumpkin quartz quill rabbit raven reef river robin rocket saffron salmon sparrow spruce squid storm sunset tiger tulip tundra turnip velvet violet walnut willow wombat yarrow zebra".split()
NAMES = "marta tobias ingrid rafael yuki olga kwame priya lukas fatima diego hana sven amara jonas leila mateo anouk bjorn chiara dmitri elif farid greta hamid irene jakub kenji lucia malik nadia oskar paulina quentin rosa samir tereza umar vera wiktor ximena yara zoltan".split()
NONASCII = "Łódź Jäätelö Сибирь さくら Ελιά Crème Ñoquis Güneş Čokoláda Ørnebjerg Façade Tàipíng Ärtsoppa Mañana Ísafjörður Şeftali Kärlek Þórsmörk Дружба Hühnchen Piñón Żaba École Sønderborg Besançon Málaga Kraków Brașov Tórshavn Jyväskylä 東京タワー 长城 바다 Αθήνα Київ".split()
BIP = "abandon ability able about above absent absorb abstract absurd access accident account accuse acid acoustic acquire across action actor actress actual adapt address adjust admit adult advance advice aerobic affair afford afraid again agent agree ahead aim air airport aisle alarm album alcohol alert alien alley allow almost alone alpha already also alter always amateur amazing among amount amused analyst anchor ancient anger angle angry animal ankle announce annual another answer antenna antique anxiety apart apology appear apple approve april arch arctic area arena argue arm armed armor army around arrange arrest arrive arrow art artefact artist artwork ask aspect assault asset assist assume asthma athlete atom attack attend attitude attract auction audit august aunt author auto autumn average avocado avoid awake aware away awesome awful awkward axis baby bachelor bacon badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base basic basket battle beach bean beauty because become beef before begin behave behind believe below belt bench benefit best betray better between beyond bicycle bid bike bind biology bird birth bitter black blade blame blanket blast bleak bless blind blood blossom blouse blue blur blush board boat body boil bomb bone bonus book boost border boring borrow boss bottom bounce box boy bracket brain brand brass brave bread breeze brick bridge brief bright bring brisk broccoli broken bronze broom brother brown brush bubble buddy budget buffalo build bulb bulk bullet bundle bunker burden burger burst bus business busy butter buyer buzz cabbage cabin cable cactus cage cake call calm camera camp canal cancel candy cannon canoe canvas canyon capable capital captain carbon card cargo carpet carry cart case cash casino castle casual catalog catch category cattle caught cause caution cave ceiling celery cement census century cereal certain chair chalk champion change chaos chapter charge chase chat cheap check cheese chef cherry chest chicken chief child chimney choice choose chronic chuckle chunk churn cigar cinnamon circle citizen city civil claim clap clarify claw clay clean clerk clever click client cliff climb clinic clip clock clog close cloth cloud clown club clump cluster clutch coach coast coconut code coffee coil coin collect color column combine come comfort comic common company concert conduct confirm congress connect consider control convince cook cool copper copy coral core corn correct cost cotton couch country couple course cousin cover coyote crack cradle craft cram crane crash crater crawl crazy cream credit creek crew cricket crime crisp critic crop cross crouch crowd crucial cruel cruise crumble crunch crush cry crystal cube culture cup cupboard curious current curtain curve cushion custom cute cycle".split()

ENVS = "PROD STAGING DEV LIVE TEST EU US V2 2 OLD NEW MAIN BACKUP SANDBOX QA LOCAL APAC CI".split()
KEYWORDS = {
    "apikey": [
        ["API", "KEY"],
        ["APIKEY"],
        ["KEY"],
        ["ACCESS", "KEY"],
        ["API", "TOKEN"],
        ["APP", "KEY"],
    ],
    "token": [
        ["TOKEN"],
        ["ACCESS", "TOKEN"],
        ["AUTH", "TOKEN"],
        ["BEARER", "TOKEN"],
        ["PAT"],
        ["API", "TOKEN"],
        ["TOK"],
    ],
    "secret": [
        ["SECRET"],
        ["CLIENT", "SECRET"],
        ["SECRET", "KEY"],
        ["APP", "SECRET"],
        ["SHARED", "SECRET"],
        ["PRIVATE", "KEY"],
    ],
    "webhook": [
        ["WEBHOOK", "SECRET"],
        ["SIGNING", "KEY"],
        ["HOOK", "SECRET"],
        ["WEBHOOK", "TOKEN"],
        ["WH", "SECRET"],
    ],
    "pair": [["CREDENTIALS"], ["CREDS"], ["KEYPAIR"], ["AUTH"], ["API", "CREDS"]],
    "pw": [
        ["PASSWORD"],
        ["PASS"],
        ["PASSWD"],
        ["PWD"],
        ["PW"],
        ["LOGIN", "PASSWORD"],
        ["USER", "PASS"],
        ["ADMIN", "PASSWORD"],
    ],
    "wifi": [["WIFI", "PASSWORD"], ["WIFI", "PSK"], ["WPA", "KEY"], ["SSID", "PASS"]],
    "gamesrv": [
        ["SERVER", "PASSWORD"],
        ["RCON", "PASSWORD"],
        ["ADMIN", "PASS"],
        ["JOIN", "PASSWORD"],
    ],
    "pin": [["PIN"], ["PIN", "CODE"], ["PASSCODE"], ["CODE"]],
    "seed": [["MNEMONIC"], ["SEED", "PHRASE"], ["SEED"], ["RECOVERY", "PHRASE"]],
    "wkey": [["PRIVATE", "KEY"], ["WALLET", "KEY"], ["DEPLOYER", "KEY"], ["SIGNER", "KEY"]],
    "bytes": [["SECRET", "KEY", "BYTES"], ["KEYPAIR"], ["SIGNING", "KEY"], ["DEVICE", "SECRET"]],
    "totp": [["TOTP", "SECRET"], ["OTP", "SEED"], ["MFA", "SECRET"], ["TWOFA", "KEY"]],
    "code": [["GIFT", "CODE"], ["VOUCHER"], ["COUPON"], ["CARD", "CODE"]],
    "license": [["LICENSE", "KEY"], ["LICENCE"], ["SERIAL", "KEY"], ["PRODUCT", "KEY"]],
    "recovery": [["RECOVERY", "CODES"], ["BACKUP", "CODES"], ["RESCUE", "CODE"]],
    "apppw": [["APP", "PASSWORD"], ["APP", "PASS"], ["APPLICATION", "PASSWORD"]],
}
# Credential words in other languages, put in a name now and then.
FOREIGN = {
    "key": [
        ["SCHLUESSEL"],
        ["CLAVE", "API"],
        ["CHAVE", "API"],
        ["KLUCZ", "API"],
        ["NOEGLE"],
        ["KLYUCH"],
        ["MIYAO"],
        ["KAGI"],
        ["ATSLEGA"],
        ["KLUC"],
        ["KUNJI"],
        ["SUSI"],
        ["MAFTOOH"],
        ["ZUGANGSSCHLUESSEL"],
    ],
    "pw": [
        ["PASSWORT"],
        ["KENNWORT"],
        ["WACHTWOORD"],
        ["SALASANA"],
        ["ADGANGSKODE"],
        ["PASSORD"],
        ["HESLO"],
        ["PAROL"],
        ["MIMA"],
        ["PASUWADO"],
        ["MAT", "KHAU"],
        ["KATA", "LALUAN"],
        ["LYKILORD"],
        ["PAROLE"],
        ["KODIKOS"],
        ["NENO", "SIRI"],
        ["PASFHOCAL"],
        ["BIMILBEONHO"],
        ["SALASONA"],
        ["FJALEKALIM"],
    ],
}


def _pick(seq):  # type: ignore[no-untyped-def]
    return seq[R.randrange(len(seq))]


def _rand(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


ALNUM = string.ascii_letters + string.digits
LOWER36 = string.ascii_lowercase + string.digits
UPPER36 = string.ascii_uppercase + string.digits
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
CODE = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
SYMBOLS = "!#%&*+-=?@^_~."


def _b64(n: int, url: bool = False) -> str:
    raw = bytes(R.getrandbits(8) for _ in range(n))
    return (base64.urlsafe_b64encode(raw).rstrip(b"=") if url else base64.b64encode(raw)).decode()


def _hex(n: int, upper: bool = False) -> str:
    h = "".join(R.choice("0123456789abcdef") for _ in range(n))
    return h.upper() if upper else h


def _uuid() -> str:
    return str(uuid.UUID(int=R.getrandbits(128), version=4))


def _abbr(slug: str) -> str:
    return slug[: R.choice((2, 3, 3, 4))] if len(slug) > 3 else slug


def _leet(word: str) -> str:
    table = {"a": "@", "e": "3", "o": "0", "i": "1", "s": "$", "t": "7"}
    return "".join(table[c] if c in table and R.random() < 0.6 else c for c in word)


def _human_pw() -> tuple[str, str]:
    w, n = _pick(WORDS), _pick(NAMES)
    year, day = R.randint(1961, 2024), f"{R.randint(1, 28):02d}{R.randint(1, 12):02d}"
    sym = R.choice("!#%&*?@_.-+")
    shapes = [
        ("word+year+symbol", f"{w.capitalize()}{year}{sym}"),
        ("name+date", f"{n}{R.choice(['.', '_', ''])}{day}"),
        ("name+year+symbol", f"{n.capitalize()}{sym}{year}"),
        ("leetspeak", _leet(w.capitalize() + _pick(WORDS)) + str(R.randint(1, 99))),
        ("two words+symbol", f"{w}{sym}{_pick(WORDS).capitalize()}{R.randint(10, 99)}"),
        ("simple word+digits", f"{w}{R.randint(1, 9999)}"),
        (
            "keyboard walk",
            _pick(
                ["Qaz2wsx", "1qaz@WSX", "Zaq12wsx", "Asdf;lkj", "Mnbvcxz1", "Poiuyt09", "!QAZxsw2"]
            )
            + str(R.randint(3, 99)),
        ),
        ("name+name+year", f"{n.capitalize()}&{_pick(NAMES).capitalize()}{str(year)[2:]}"),
        (
            "sentence-like",
            f"I{R.choice(['love', 'miss', 'hate'])}{w.capitalize()}{R.randint(1, 99)}{sym}",
        ),
        ("non-ascii word", f"{_pick(NONASCII)}{R.choice(['', sym, '_'])}{R.randint(1, 2024)}"),
        ("non-ascii word", f"{_pick(NONASCII).lower()}{sym}{n.capitalize()}{R.randint(1, 99)}"),
    ]
    shape, v = R.choices(shapes, weights=[1] * (len(shapes) - 2) + [2, 2])[0]
    return v, shape


def _random_pw(lo: int = 10, hi: int = 20, symbols: bool = True) -> tuple[str, str]:
    n = R.randint(lo, hi)
    alphabet = ALNUM + (SYMBOLS if symbols else "")
    while True:
        v = _rand(alphabet, n)
        if any(c.isdigit() for c in v) and any(c.isalpha() for c in v):
            return v, "random password" + (" with symbols" if symbols else "")


def _passphrase() -> tuple[str, str]:
    words = [_pick(WORDS) for _ in range(R.randint(4, 6))]
    sep = R.choice([" ", "-", ".", "_", ""])
    if sep == "":
        words = [x.capitalize() for x in words]
    if R.random() < 0.4:
        words.append(str(R.randint(1, 999)))
    return sep.join(words), "passphrase"


def _password(role: str) -> tuple[str, str]:
    if role == "acctpw":
        return R.choices([_human_pw, _random_pw, _passphrase], weights=[6, 2, 1.2])[0]()
    if role in SVC:
        f = R.choice(
            [lambda: _random_pw(16, 32), lambda: _random_pw(20, 40, False), _human_pw, _passphrase]
        )
        return f()
    if role == "devpw":
        return R.choice(
            [
                _human_pw,
                lambda: _random_pw(8, 14),
                lambda: (
                    f"Admin{R.choice(SYMBOLS)}{R.randint(1000, 9999)}",
                    "default-like admin password",
                ),
            ]
        )()
    if role == "wifi":
        return R.choice(
            [
                _passphrase,
                lambda: (
                    f"{_pick(NAMES).capitalize()}{R.choice(['Home', 'Haus', 'Casa', 'Maison', 'Hytte'])}{R.randint(1, 2024)}{R.choice(SYMBOLS)}",
                    "word+digits Wi-Fi password",
                ),
                lambda: _random_pw(12, 20, False),
                lambda: (
                    f"{_pick(WORDS)}-{_pick(WORDS)}-{_pick(WORDS)}-{R.randint(10, 99)}",
                    "passphrase",
                ),
            ]
        )()
    # game servers
    return R.choice(
        [
            lambda: (
                f"{_pick(WORDS)}{_pick(['night', 'club', 'crew', 'raid', 'base'])}{R.randint(1, 99)}",
                "game server word+digits",
            ),
            lambda: _random_pw(8, 12, False),
            _human_pw,
        ]
    )()


def _prefixed(slug: str) -> tuple[str, str]:
    p = _abbr(slug)
    a = _rand(ALNUM, R.randint(28, 44))
    forms = [
        f"{p}_tok_{a}",
        f"{p}live{_rand(LOWER36, 32)}",
        f"{p.upper()}_{_rand(UPPER36, 36)}",
        f"{p}-api-{a}",
        f"{p}_key_{a}",
        f"{p}s_{a}",
        f"{p}.v1.{_b64(30, True)}",
        f"{p}_test_{a}",
        f"{p}1_{_hex(48)}",
        f"{p.upper()}T{_rand(ALNUM, 40)}",
        f"{p}oauth_{a}",
        f"{p}_{_uuid().replace('-', '')}",
        f"{p}-{_rand(LOWER36, 8)}-{_rand(LOWER36, 24)}",
    ]
    return _pick(forms), "vendor-style prefix"


def _jwt(slug: str) -> tuple[str, str]:
    head = {"alg": R.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"}
    body = {
        "sub": _uuid() if R.random() < 0.5 else str(R.randint(10**5, 10**9)),
        "iss": slug,
        "iat": R.randint(1_700_000_000, 1_790_000_000),
        "scope": R.choice(["read write", "api", "admin", "ingest"]),
    }

    def enc(x: dict[str, object]) -> str:
        return (
            base64.urlsafe_b64encode(json.dumps(x, separators=(",", ":")).encode())
            .rstrip(b"=")
            .decode()
        )

    return f"{enc(head)}.{enc(body)}.{_b64(32, True)}", "JWT-like token"


def _key(role: str, slug: str) -> tuple[str, str]:
    shapes: list[Callable[[], tuple[str, str]]] = [
        lambda: _prefixed(slug),
        lambda: (_rand(ALNUM, R.randint(16, 24)), "short alphanumeric"),
        lambda: (_rand(R.choice([LOWER36, UPPER36, B58]), R.randint(12, 20)), "short alphanumeric"),
        lambda: (_rand(ALNUM, R.randint(32, 56)), "long alphanumeric"),
        lambda: (_hex(R.choice([32, 40, 48, 64]), R.random() < 0.3), "hex"),
        lambda: (_b64(R.choice([24, 32, 33, 48])), "base64"),
        lambda: (_b64(32, True), "base64url"),
        lambda: (_uuid() if R.random() < 0.8 else _uuid().upper(), "UUID as key"),
    ]
    weights = [5, 2, 2, 3, 3, 2, 2, 2]
    if role == "token":
        shapes.append(lambda: _jwt(slug))
        weights.append(3)
    if role == "webhook":
        shapes.append(lambda: (f"{_abbr(slug)}_whsig_{_b64(24, True)}", "vendor-style prefix"))
        weights.append(3)
    if role == "pair":
        return _pair(slug)
    return R.choices(shapes, weights=weights)[0]()


def _pair(slug: str) -> tuple[str, str]:
    ident = R.choice(
        [
            _rand(UPPER36, 16),
            str(R.randint(10**6, 10**9)),
            f"{_abbr(slug)}-{_rand(LOWER36, 10)}",
            _uuid()[:18],
        ]
    )
    sec = R.choice([_rand(ALNUM, 32), _hex(40), _b64(30, True)])
    sep = R.choice([":", ":", ".", "|", "/", "#"])
    return f"{ident}{sep}{sec}", f"id{sep}secret pair"


def _pin(label: str) -> tuple[str, str]:
    if "PUK" in label:
        return "".join(R.choice(string.digits) for _ in range(8)), "8-digit code"
    if "TAN" in label:
        return "".join(R.choice(string.digits) for _ in range(6)), "6-digit code"
    if "account number" in label:
        return "".join(
            R.choice(string.digits) for _ in range(16)
        ), "16-digit account number used as login"
    n = R.choice([4, 4, 4, 5, 6, 6])
    while True:
        v = "".join(R.choice(string.digits) for _ in range(n))
        if len(set(v)) > 2:
            return v, f"{n}-digit PIN"


def _code(label: str) -> tuple[str, str]:
    if R.random() < 0.3:
        return " ".join(
            "".join(R.choice(string.digits) for _ in range(4)) for _ in range(4)
        ), "16-digit gift card number"
    return "-".join(_rand(CODE, 4) for _ in range(R.choice([3, 4]))), "grouped gift or voucher code"


def _license() -> tuple[str, str]:
    return R.choice(
        [
            lambda: ("-".join(_rand(UPPER36, 5) for _ in range(5)), "5x5 license key"),
            lambda: ("-".join(_rand(UPPER36, 4) for _ in range(4)), "4x4 license key"),
            lambda: (
                "-".join(_rand(UPPER36, 6) for _ in range(R.choice([3, 4]))),
                "grouped license key",
            ),
            lambda: (_rand(UPPER36, 8) + "-" + _hex(24, True), "serial and hex license"),
        ]
    )()


def _recovery() -> tuple[str, str]:
    one = lambda: f"{_rand(LOWER36, 4)}-{_rand(LOWER36, 4)}"  # noqa: E731
    return R.choice(
        [
            lambda: (" ".join(one() for _ in range(4)), "four recovery codes"),
            lambda: (one(), "one recovery code"),
            lambda: (_rand(UPPER36, 10), "one 10-character recovery code"),
            lambda: (
                " ".join("".join(R.choice(string.digits) for _ in range(8)) for _ in range(3)),
                "three 8-digit backup codes",
            ),
            lambda: ("-".join(_rand(UPPER36, 5) for _ in range(5)), "grouped recovery key"),
        ]
    )()


def _totp() -> tuple[str, str]:
    s = _rand(B32, R.choice([16, 26, 32]))
    if R.random() < 0.35:
        return " ".join(
            s[i : i + 4].lower() for i in range(0, len(s), 4)
        ), "TOTP seed in groups of four"
    return s, "TOTP seed (base32)"


def _apppw() -> tuple[str, str]:
    groups = [_rand(string.ascii_lowercase, 4) for _ in range(4)]
    return (" " if R.random() < 0.6 else "-").join(groups), "app password"


def _seed() -> tuple[str, str]:
    n = R.choice([12, 12, 24, 15])
    return " ".join(_pick(BIP) for _ in range(n)), f"{n}-word seed phrase"


def _wkey() -> tuple[str, str]:
    return R.choice(
        [
            lambda: ("0x" + _hex(64), "wallet key 0x hex"),
            lambda: (_hex(64), "wallet key hex"),
            lambda: (_rand(B58, 88), "wallet key base58"),
            lambda: (R.choice("KL") + _rand(B58, 51), "wallet key WIF"),
        ]
    )()


def _bytes() -> tuple[str, str]:
    n = R.choice([32, 64]) if R.random() < 0.7 else 16
    nums = [R.randrange(256) for _ in range(n)]
    if R.random() < 0.6:
        return "[" + ",".join(map(str, nums)) + "]", f"byte array ({n}, decimal)"
    return ", ".join(f"0x{x:02x}" for x in nums), f"byte array ({n}, hex)"


def value(role: str, label: str, slug: str) -> tuple[str, str]:
    """A fresh value for a credential, and the name of its shape."""
    if role in ("apikey", "token", "secret", "webhook", "pair"):
        if "WireGuard" in label:
            return _b64(32), "base64 (WireGuard key)"
        return _key(role, slug)
    if role in ("acctpw", "devpw", "wifi", "gamesrv", *SVC):
        return _password(role)
    table: dict[str, Callable[[], tuple[str, str]]] = {
        "pin": lambda: _pin(label),
        "code": lambda: _code(label),
        "license": _license,
        "recovery": _recovery,
        "totp": _totp,
        "apppw": _apppw,
        "seed": _seed,
        "wkey": _wkey,
        "wbytes": _bytes,
        "bytes": _bytes,
    }
    return table[role]()


def _slug(vendor: str) -> str:
    s = re.sub(r"[^a-z0-9]", "", vendor.lower())
    return s if s and not s[0].isdigit() else "x" + s


def _name_parts(role: str, slug: str) -> list[str]:
    group = (
        "pw" if role in SVC or role in ("acctpw", "devpw") else {"wbytes": "bytes"}.get(role, role)
    )
    words = list(_pick(KEYWORDS[group]))
    foreign = (
        "pw"
        if group in ("pw", "wifi", "gamesrv")
        else "key"
        if group in ("apikey", "token", "secret")
        else ""
    )
    if foreign and R.random() < 0.2:
        words = list(_pick(FOREIGN[foreign]))
    vendor = slug.upper() if R.random() < 0.75 else _abbr(slug).upper()
    parts = [vendor, *words] if R.random() < 0.85 else [*words, vendor]
    if R.random() < 0.3:
        env = _pick(ENVS)
        parts.insert(R.choice([0, len(parts), 1]), env)
    return parts


def _styles(parts: list[str]) -> dict[str, str]:
    low = [p.lower() for p in parts]
    return {
        "N": "_".join(parts),
        "n": "_".join(low),
        "cm": low[0] + "".join(p.capitalize() for p in low[1:]),
        "P": "".join(p.capitalize() for p in low),
        "k": "-".join(low),
        "dt": ".".join(low),
        "H": "X-" + "-".join(p.capitalize() for p in low),
        "R": "".join(parts),
    }


FIRST = "Ana Ben Chen Dara Emeka Femi Gulnara Hiro Ines Jae Kofi Lena Mika Noor Omar Pia Quinn Ravi Sofia Timo Uma Vik Wen Xiu Yusuf Zara".split()


def context(vendor: str, cat: str, label: str, role: str, v: str) -> dict[str, str]:
    slug = _slug(vendor)
    ctx = _styles(_name_parts(role, slug))
    who = _pick(FIRST)
    user = R.choice(
        [
            who.lower(),
            f"{who.lower()}.{_pick(NAMES)}",
            "deploy",
            "svc_" + slug[:6],
            "admin",
            "app",
            f"{slug[:5]}_rw",
            "etl",
        ]
    )
    tld = R.choice(["io", "com", "net", "dev", "cloud", "app"])
    ctx.update(
        v=v,
        V=vendor,
        s=slug,
        S=slug.upper(),
        c=label,
        u=user,
        who=who,
        e=f"{who.lower()}.{_pick(NAMES)}@{R.choice(['gmail.com', 'outlook.com', 'proton.me', 'example.org', 'fastmail.com', 'web.de'])}",
        h=f"{R.choice(['db', 'pg', 'mq', 'cache', 'core', 'sql', 'redis', 'node'])}-{R.randint(1, 9)}.{R.choice(['internal', 'prod', 'lan', 'svc'])}.{slug[:10]}.{tld}",
        ip=f"{R.choice([10, 192, 172])}.{R.randint(0, 31)}.{R.randint(0, 254)}.{R.randint(2, 250)}",
        db=R.choice(
            ["orders", "app", "billing", "analytics", "core", "inventory", "crm", "events"]
        ),
        proj=R.choice(
            [
                "atlas",
                "harbor",
                "lighthouse",
                "quokka",
                "tern",
                "juniper",
                "saltmarsh",
                "ferris",
                "polaris",
                "mosaic",
            ]
        ),
        date=f"{R.randint(2024, 2026)}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}",
        ts=f"{R.randint(2024, 2026)}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}T{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d}",
        id=R.choice([_rand(LOWER36, 12), str(R.randint(10**5, 10**8)), _uuid()]),
        ssid=R.choice(
            [
                f"{vendor.split()[0]}-{_rand(UPPER36, 4)}",
                f"{who}s WLAN",
                f"{_pick(WORDS).capitalize()}Net",
                f"FRITZ-{R.randint(1000, 9999)}",
            ]
        ),
        url=f"https://api.{slug[:12]}.{tld}",
        port=str(
            R.choice([5432, 3306, 6379, 5672, 1883, 8883, 27017, 9092, 1433, 8086, 6432, 4222])
        ),
        n2=str(R.randint(2, 60)),
    )
    ctx["b64"] = base64.b64encode(f"{user}:{v}".encode()).decode()
    return ctx


SAFE: dict[str, Callable[[str], bool]] = {
    "u": lambda v: re.fullmatch(r"[A-Za-z0-9._~-]+", v) is not None,
    "s": lambda v: not re.search(r"\s", v),
    "q": lambda v: '"' not in v and "\\" not in v,
    "a": lambda v: "'" not in v and "\\" not in v,
    "x": lambda v: not re.search(r"[&<>\"']", v),
    "$": lambda v: not re.search(r"[$`\\]", v),
    "b": lambda v: re.fullmatch(r"[A-Za-z0-9._~+/=:@%,-]+", v) is not None,
    "h": lambda v: re.fullmatch(r"[!-~]+", v) is not None,
    "A": lambda v: v.isascii(),
    "#": lambda v: "#" not in v and ";" not in v,
    "c": lambda v: "," not in v,
    "%": lambda v: "%" not in v,
    "p": lambda v: "|" not in v,
    "{": lambda v: "{" not in v and "}" not in v,
    ":": lambda v: ":" not in v and "@" not in v and "/" not in v,
    ";": lambda v: ";" not in v,
    "[": lambda v: v.startswith("["),
    "0": lambda v: v.startswith("0x") and ", " in v,
}

KEYISH = {"apikey", "token", "secret", "webhook", "pair"}
ROLESETS: dict[str, set[str]] = {
    "any": {
        "apikey",
        "token",
        "secret",
        "webhook",
        "pair",
        "acctpw",
        *SVC,
        "devpw",
        "wifi",
        "gamesrv",
        "pin",
        "code",
        "license",
        "recovery",
        "totp",
        "apppw",
        "seed",
        "wkey",
        "wbytes",
        "bytes",
    },
    "key": KEYISH,
    "tok": {"apikey", "token"},
    "sec": {"secret", "webhook", "apikey"},
    "svc": set(SVC),
    "pw": {"acctpw", "devpw", *SVC},
    "db": {"dbpw"},
    "mail": {"smtppw"},
    "mq": {"mqpw"},
    "mqtt": {"mqttpw"},
    "wbytes": {"wbytes"},
    "srv": {"sftppw", "adminpw"},
    "web": {"adminpw"},
    "acct": {"acctpw"},
    "dev": {"devpw"},
    "wifi": {"wifi"},
    "game": {"gamesrv"},
    "wal": {"seed", "wkey", "wbytes"},
    "seed": {"seed"},
    "wkey": {"wkey"},
    "bytes": {"bytes", "wbytes"},
    "lic": {"license"},
    "totp": {"totp"},
    "apppw": {"apppw"},
    "pin": {"pin"},
    "code": {"code"},
    "recovery": {"recovery"},
}


def roles(spec: str) -> set[str]:
    out: set[str] = set()
    for part in spec.split("+"):
        out |= ROLESETS[part]
    return out


def fill(template: str | Callable[[dict[str, str]], str], ctx: dict[str, str]) -> str:
    if callable(template):
        return template(ctx)
    return re.sub(r"«(\w+)»", lambda m: ctx[m.group(1)], template)


def _j(x: object) -> str:
    return json.dumps(x, ensure_ascii=False)


Form = tuple[str, str, str, str, "str | Callable[[dict[str, str]], str]"]

# Chat in many languages, the credential named in English as people mix it in.
LANGS = [
    ("French", "Salut, voilà le «c» «V» pour la préprod : «v» (je le change vendredi)."),
    ("Mexican Spanish", "Oye, el «c» de «V» es «v», ¿lo puedes poner en el .env de staging?"),
    ("Italian", "Ecco il «c» di «V»: «v» — usalo solo per i test, grazie."),
    ("Dutch", "Hier is de «c» voor «V»: «v». Niet delen buiten het team aub."),
    ("Swedish", "Här är «c» till «V»: «v» – lägg in den i valvet sen."),
    ("Danish", "«V» «c» er «v», jeg har ikke nået at rotere den endnu."),
    ("Norwegian Bokmål", "Kan du teste med denne «c» for «V»? «v»"),
    ("Icelandic", "Hér er «c» fyrir «V»: «v» – ekki setja það í git."),
    ("Estonian", "«V» «c» on «v», palun ära seda commiti."),
    ("Latvian", "Lūk, «V» «c»: «v». Pēc testiem nomainīšu."),
    ("Serbian", "Ево «c» за «V»: «v» — немој да га комитујеш."),
    ("Macedonian", "Еве го «c» за «V»: «v», ќе го сменам утре."),
    ("Albanian", "Ky është «c» për «V»: «v». Mos e ndaj me askënd."),
    ("Russian", "Вот «c» от «V»: «v» — только не коммить его, пожалуйста."),
    ("Belarusian", "Вось «c» ад «V»: «v», пасля тэстаў памяняю."),
    ("Armenian", "Ահա «V»-ի «c»-ը՝ «v»։ Խնդրում եմ չհրապարակել։"),
    ("Azerbaijani", "«V» üçün «c» budur: «v» — zəhmət olmasa repo-ya qoyma."),
    ("Uzbek", "Mana «V» «c»: «v». Iltimos, hech kimga bermang."),
    ("Mongolian", "«V»-ийн «c» энэ байна: «v». Бусадтай бүү хуваалц."),
    ("Hindi", "«V» का «c» ये है: «v» — इसे repo में मत डालना।"),
    ("Tamil", "«V» «c» இது: «v» — யாரிடமும் பகிர வேண்டாம்."),
    ("Kannada", "«V» «c» ಇಲ್ಲಿದೆ: «v» — ಯಾರಿಗೂ ಹಂಚಬೇಡಿ."),
    ("Gujarati", "«V» નો «c» આ છે: «v», કોઈને મોકલશો નહીં."),
    ("Punjabi", "«V» ਦਾ «c» ਇਹ ਹੈ: «v» — ਕਿਸੇ ਨਾਲ ਸਾਂਝਾ ਨਾ ਕਰੋ।"),
    ("Nepali", "«V» को «c» यो हो: «v», कसैलाई नदिनुहोला।"),
    ("Burmese", "«V» «c» က «v» ပါ။ ဘယ်သူ့ကိုမှ မပေးပါနဲ့။"),
    ("Lao", "ນີ້ແມ່ນ «c» ຂອງ «V»: «v» ກະລຸນາຢ່າແບ່ງປັນ."),
    ("Simplified Chinese", "«V» 的 «c» 是 «v»，别提交到仓库里。"),
    ("Cantonese", "«V» 嘅 «c» 係 «v»，唔好 commit 上去呀。"),
    ("Malay", "Ini «c» «V»: «v» — jangan kongsi dengan orang lain ya."),
    ("Amharic", "የ«V» «c» ይህ ነው፦ «v» — ለማንም አታጋራ።"),
    ("Somali", "Kani waa «c»-ga «V»: «v». Fadlan qofna ha la wadaagin."),
    ("Hausa", "Ga «c» na «V»: «v» — don Allah kada ka raba shi."),
    ("Zulu", "Nansi i-«c» ye-«V»: «v», ungayabelani nomuntu."),
    ("Afrikaans", "Hier is die «V» «c»: «v» – moet dit asseblief nie commit nie."),
    ("Irish", "Seo an «c» do «V»: «v» — ná roinn é le duine ar bith."),
    ("Scottish Gaelic", "Seo an «c» airson «V»: «v», na cuir e gu duine."),
    ("Maltese", "Hawn il-«c» ta' «V»: «v» — tiqsamhiex ma' ħadd."),
    ("Luxembourgish", "Hei ass de «c» fir «V»: «v», w.e.g. net weiderginn."),
    ("Galician", "Aquí tes o «c» de «V»: «v», non o compartas."),
    ("Esperanto", "Jen la «c» por «V»: «v» — bonvolu ne kunhavigi ĝin."),
    ("Kinyarwanda", "Dore «c» ya «V»: «v», ntuyisangize abandi."),
    ("Maori", "Anei te «c» mō «V»: «v» — kaua e tohaina."),
    ("Swiss German", "Da isch s «V» «c»: «v» – bitte nöd is Repo tue."),
    ("Pashto", "دا د «V» «c» دی: «v» — له چا سره یې مه شریکوه."),
    ("Kyrgyz", "Мына «V» «c»: «v», эч кимге бербе."),
    ("Tajik", "Ин «c»-и «V»: «v» — ба касе нафиристед."),
    ("Bosnian", "Evo «c» za «V»: «v», molim te ne dijeli dalje."),
]

FORMS: list[Form] = [(f"chat in {lang}", "chat", "any", "", t) for lang, t in LANGS]

FORMS += [
    ("note with only the vendor's name", "chat", "any", "", "«V»\n«v»"),
    (
        "webhook URL with the token in its path",
        "chat",
        "tok",
        "u",
        "alerts should go to https://hooks.«s».io/services/«id»/«v» from now on",
    ),
    (
        "Microsoft Teams message",
        "chat",
        "any",
        "",
        "«who»  10:41\nUse this «V» «c» for the demo tenant: «v»\n(edited)",
    ),
    (
        "Google Chat message",
        "chat",
        "any",
        "",
        "«who», 2:03 PM\n«V» «c»: «v» pls rotate after the demo",
    ),
    (
        "Zulip topic message",
        "chat",
        "any",
        "",
        "**«who»** in #infra > «V» rotation\nnew «c» is `«v»`",
    ),
    (
        "Mattermost channel post",
        "chat",
        "any",
        "",
        "@channel new «V» «c» for staging: «v» (old one revoked at 17:00)",
    ),
    (
        "prompt about a 401",
        "chat",
        "any",
        "",
        "The «V» integration keeps returning 401. My «c» is «v» — can you figure out why the request fails?",
    ),
    (
        "prompt to add a CI secret",
        "chat",
        "key+pw",
        "",
        "add «v» as the «V» «c» in the GitHub Actions secrets and rerun the pipeline",
    ),
    (
        "voice memo transcript",
        "chat",
        "any",
        "",
        "Transcript (auto-generated, 0:42): okay so for «V» the «c» is «v» ... write that down before I forget",
    ),
    ("sticky note OCR", "chat", "any", "", "Text found in IMG_431.jpg:\n«V»\n«u»\n«v»"),
    (
        "ChatGPT conversation export",
        "chat",
        "any",
        "q",
        lambda c: _j(
            {
                "author": {"role": "user"},
                "content": {
                    "content_type": "text",
                    "parts": [f"why does {c['V']} reject my {c['c']} {c['v']}?"],
                },
            }
        ),
    ),
    (
        "Asana task description",
        "chat",
        "any",
        "",
        "Task: Migrate «V» to the new account\nAssignee: «who»\nDescription: current «c» «v», move it to the vault when done.",
    ),
    (
        "GitLab merge request comment",
        "chat",
        "any",
        "",
        "**«who»** commented on !382:\nfor local testing I used `«v»` (our «V» «c»), remove before merge",
    ),
    (
        "Gerrit review comment",
        "chat",
        "key+pw",
        "",
        "Patch Set 3:\n\n(1 comment)\n\nconfig/app.yaml:\nLine 14: this is the real «V» «c» («v»), please move it to the secret store.\n\nCode-Review-1",
    ),
    (
        "pull request description",
        "chat",
        "key+pw",
        "",
        "## What\nSwitch the «V» client to v2.\n\n## How to test\nExport the sandbox «c» (`«v»`) and run `make e2e`.",
    ),
    (
        "Zendesk ticket reply",
        "chat",
        "acct+pin+code+recovery",
        "",
        "Hi support, I can't log in to «V». My login is «e» and the «c» I set is «v». Please help.",
    ),
    (
        "Intercom chat transcript",
        "chat",
        "any",
        "",
        "Customer («who»): still locked out of «V»\nCustomer («who»): «c» is «v» if you need it\nAgent: please never share that with us!",
    ),
    (
        "email reply with quoted text",
        "chat",
        "any",
        "",
        "Thanks, that works now.\n\nOn «date», «who» wrote:\n> The «V» «c» for the shared account is «v»\n> Let me know if it gives you trouble.",
    ),
    (
        "Outlook forwarded email",
        "chat",
        "any",
        "",
        "________________________________\nFrom: «who» <«e»>\nSent: «date» 08:12\nSubject: «V» access\n\nHere is the «c»: «v»\nKind regards",
    ),
    (
        "out-of-office handover",
        "chat",
        "any",
        "",
        "Out of office until the 14th. Handover: «V» is in «who»'s hands; «c» «v» if anything breaks.",
    ),
    (
        "Obsidian daily note",
        "chat",
        "any",
        "",
        "---\ndate: «date»\ntags: [work, «s»]\n---\n## Log\n- got «V» access, «c»: «v»",
    ),
    ("Logseq block", "chat", "any", "", "- [[«V»]] access\n  «s»-«c» :: «v»\n  added-by :: «who»"),
    (
        "Apple Notes export",
        "notes",
        "any",
        "x",
        "<div><b>«V»</b></div><div>«c»: «v»</div><div><br></div>",
    ),
    ("Google Keep note", "notes", "any", "", "«V» stuff\n☐ renew plan\n☑ «c» «v»\n☐ tell «who»"),
    (
        "Joplin note",
        "notes",
        "any",
        "",
        "# «V»\n\nCreated: «date»\n\n| field | value |\n|---|---|\n| «c» | «v» |",
    ),
    ("todo.txt line", "notes", "any", "s", "(A) «date» rotate «V» «c» «v» +infra @laptop"),
    (
        "forum post draft",
        "chat",
        "key+pw",
        "",
        "[Draft] Title: «V» SDK returns 403\n\nI'm calling the «V» API with my «c» (it's a throwaway sandbox one): «v»\nAny idea what I'm missing?",
    ),
    ("KakaoTalk export", "chat", "any", "", "«date» 오후 9:03, «who» : «V» «c» 여기 «v»"),
    (
        "assistant asking to confirm",
        "agent",
        "any",
        "",
        "Before I update the config: is `«v»` still the current «V» «c», or has it been rotated since?",
    ),
    (
        "Jupyter markdown cell JSON",
        "agent",
        "any",
        "q",
        lambda c: _j(
            {
                "cell_type": "markdown",
                "metadata": {},
                "source": [f"## {c['V']}\n", f"{c['c']}: {c['v']}"],
            }
        ),
    ),
    # Password managers and notes
    (
        "1Password 1pux item",
        "notes",
        "any",
        "q",
        lambda c: _j(
            {
                "overview": {"title": c["V"], "url": c["url"]},
                "details": {
                    "loginFields": [
                        {"designation": "username", "value": c["u"]},
                        {"designation": "password", "value": c["v"]},
                    ]
                },
            }
        ),
    ),
    (
        "Dashlane CSV",
        "notes",
        "any",
        "c",
        "username,username2,username3,title,password,note,url,category,otpSecret\n«u»,,,«V»,«v»,,«url»,Work,",
    ),
    (
        "Enpass JSON",
        "notes",
        "any",
        "q",
        lambda c: _j(
            {
                "items": [
                    {
                        "title": c["V"],
                        "fields": [
                            {"label": "Username", "value": c["u"]},
                            {"label": c["c"].capitalize(), "sensitive": 1, "value": c["v"]},
                        ],
                    }
                ]
            }
        ),
    ),
    (
        "NordPass CSV",
        "notes",
        "any",
        "c",
        "name,url,username,password,note,cardholdername,folder\n«V»,«url»,«u»,«v»,,,Work",
    ),
    (
        "Proton Pass JSON",
        "notes",
        "any",
        "q",
        lambda c: _j(
            {
                "data": {
                    "metadata": {"name": c["V"]},
                    "content": {"itemUsername": c["u"], "password": c["v"], "urls": [c["url"]]},
                }
            }
        ),
    ),
    ("pass(1) entry", "notes", "any", "", "$ pass show work/«s»\n«v»\nlogin: «u»\nurl: «url»"),
    (
        "gopass YAML entry",
        "notes",
        "any",
        "",
        "$ gopass show -f work/«s»\n«v»\n---\nuser: «u»\nnote: «V» «c»",
    ),
    (
        "Apple Passwords CSV",
        "notes",
        "any",
        "c",
        "Title,URL,Username,Password,Notes,OTPAuth\n«V»,«url»,«u»,«v»,,",
    ),
    (
        "Firefox logins CSV",
        "notes",
        "any",
        "q",
        '"url","username","password","httpRealm","formActionOrigin","guid","timeCreated"\n"«url»","«u»","«v»",,"«url»","{«id»}","1717000000000"',
    ),
    (
        "Keeper JSON export",
        "notes",
        "any",
        "q",
        lambda c: _j(
            {
                "records": [
                    {
                        "title": c["V"],
                        "login": c["u"],
                        "password": c["v"],
                        "login_url": c["url"],
                        "folders": [{"folder": "Work"}],
                    }
                ]
            }
        ),
    ),
    # Tables
    (
        "reStructuredText grid table",
        "tables",
        "any",
        "p",
        "+----------+------------------------------+\n| Service  | Secret                       |\n+==========+==============================+\n| «V» | «v» |\n+----------+------------------------------+",
    ),
    (
        "org-mode table",
        "tables",
        "any",
        "p",
        "| service | «c» | owner |\n|---------+-----+-------|\n| «V» | «v» | «who» |",
    ),
    (
        "CSV with semicolons",
        "tables",
        "any",
        "#",
        "Dienst;Benutzer;Passwort/Key;Notiz\n«V»;«u»;«v»;Stand «date»",
    ),
    (
        "TSV paste from a spreadsheet",
        "tables",
        "any",
        "",
        "service\tuser\tsecret\tupdated\n«V»\t«u»\t«v»\t«date»",
    ),
    (
        "HTML table",
        "tables",
        "any",
        "x",
        "<table><tr><th>Vendor</th><th>«c»</th></tr><tr><td>«V»</td><td>«v»</td></tr></table>",
    ),
    (
        "MySQL client table",
        "tables",
        "any",
        "",
        "mysql> SELECT name, secret FROM integrations WHERE name='«s»';\n+--------+----------------------------------+\n| name   | secret                           |\n+--------+----------------------------------+\n| «s» | «v» |\n+--------+----------------------------------+\n1 row in set (0.00 sec)",
    ),
    (
        "mongosh document",
        "tables",
        "any",
        "a",
        "test> db.integrations.findOne({name: '«s»'})\n{\n  _id: ObjectId('6650f1c2a9e4b3d2c1f0e9a8'),\n  name: '«s»',\n  «cm»: '«v»'\n}",
    ),
    (
        "Redis HGETALL",
        "tables",
        "any",
        "q",
        '127.0.0.1:6379> HGETALL integration:«s»\n1) "vendor"\n2) "«V»"\n3) "«n»"\n4) "«v»"',
    ),
    (
        "polars DataFrame print",
        "tables",
        "any",
        "",
        "shape: (1, 2)\n┌────────┬────────────┐\n│ vendor ┆ credential │\n│ ---    ┆ ---        │\n│ str    ┆ str        │\n╞════════╪════════════╡\n│ «V» ┆ «v» │\n└────────┴────────────┘",
    ),
    (
        "column -t output",
        "tables",
        "any",
        "s",
        "$ column -t creds.txt\nvendor  user  secret\n«s»  «u»  «v»",
    ),
    (
        "Google Sheets copy",
        "tables",
        "any",
        "",
        "Vendor\tAccount\tCredential\tExpires\n«V»\t«e»\t«v»\t«date»",
    ),
    (
        "Airtable CSV export",
        "tables",
        "any",
        "q",
        'Name,Owner,Credential,Status\n«V»,«who»,"«v»",Active',
    ),
]

KS = "key+svc"
FORMS += [
    # Config files
    ("~/.gem/credentials", "config", "tok", "s:", "---\n:rubygems_api_key: «v»\n:«s»: «v»"),
    (
        "sbt credentials file",
        "config",
        "web+tok",
        "s",
        "realm=«V» Repository\nhost=maven.«s».io\nuser=«u»\npassword=«v»",
    ),
    (
        ".yarnrc.yml npmAuthToken",
        "config",
        "tok",
        "q",
        'npmScopes:\n  «s»:\n    npmRegistryServer: "https://npm.«s».dev"\n    npmAuthToken: "«v»"',
    ),
    (
        "bunfig.toml registry token",
        "config",
        "tok",
        "q",
        '[install.scopes]\n«s» = { token = "«v»", url = "https://npm.«s».dev/" }',
    ),
    (
        "Poetry auth.toml",
        "config",
        "web+tok",
        "q",
        '[http-basic.«s»]\nusername = "«u»"\npassword = "«v»"',
    ),
    (".Renviron", "config", "key+svc", "q$", '«N»="«v»"\nR_LIBS_USER=~/R/library'),
    (
        "Django settings.py",
        "config",
        "key+svc",
        "a",
        "# settings/local.py\nDEBUG = True\n«N» = '«v»'\nALLOWED_HOSTS = ['*']",
    ),
    (
        "Flask instance config.py",
        "config",
        "key+svc",
        "q",
        'SQLALCHEMY_TRACK_MODIFICATIONS = False\n«N» = "«v»"',
    ),
    (
        "Expo app.config.js extra",
        "config",
        "key",
        "a",
        "export default {\n  name: '«proj»',\n  extra: {\n    «cm»: '«v»',\n  },\n};",
    ),
    (
        "Tauri conf JSON",
        "config",
        "key",
        "q",
        lambda c: _j(
            {
                "plugins": {
                    "updater": {"endpoints": [f"{c['url']}/updates"]},
                    c["s"]: {c["cm"]: c["v"]},
                }
            }
        ),
    ),
    (
        "Alertmanager receiver",
        "config",
        "key",
        "q",
        'receivers:\n  - name: «s»-oncall\n    webhook_configs:\n      - url: "«url»/v1/alerts"\n        http_config:\n          authorization:\n            credentials: "«v»"',
    ),
    (
        "Fluent Bit output",
        "config",
        "key",
        "s#",
        "[OUTPUT]\n    Name        http\n    Match       *\n    Host        logs.«s».io\n    Header      «H» «v»",
    ),
    (
        "OpenTelemetry collector headers",
        "config",
        "key",
        "q",
        'exporters:\n  otlphttp/«s»:\n    endpoint: "https://otlp.«s».io"\n    headers:\n      «H»: "«v»"',
    ),
    (
        "Traefik dynamic config",
        "config",
        "key",
        "q",
        'http:\n  middlewares:\n    «s»-auth:\n      headers:\n        customRequestHeaders:\n          «H»: "«v»"',
    ),
    (
        "HAProxy userlist",
        "config",
        "web",
        "s#",
        "userlist stats_users\n    user «u» insecure-password «v»\n\nlisten stats\n    bind :8404\n    stats enable",
    ),
    (
        "Envoy header",
        "config",
        "key",
        "q",
        'request_headers_to_add:\n  - header:\n      key: "«H»"\n      value: "«v»"\n    append_action: OVERWRITE_IF_EXISTS_OR_ADD',
    ),
    (
        "Consul agent ACL token",
        "config",
        "tok",
        "q",
        'acl {\n  enabled = true\n  tokens {\n    agent = "«v»"\n  }\n}',
    ),
    (
        "ConfigMap holding a secret",
        "config",
        "key+svc",
        "q",
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: «proj»-env\ndata:\n  «N»: "«v»"\n  LOG_LEVEL: info',
    ),
    (
        "Pulumi stack config (plain)",
        "config",
        "key+svc",
        "q",
        'config:\n  «proj»:region: eu-west-1\n  «proj»:«cm»: "«v»"',
    ),
    ("Hiera YAML", "config", "key+svc", "q", '---\nprofile::«s»::«n»: "«v»"'),
    ("Chef data bag JSON", "config", "key+svc", "q", lambda c: _j({"id": c["s"], c["n"]: c["v"]})),
    (
        "Packer HCL variable",
        "config",
        "key+svc",
        "q",
        'variable "«n»" {\n  type      = string\n  default   = "«v»"\n  sensitive = true\n}',
    ),
    (
        "NixOS configuration.nix",
        "config",
        "key+svc",
        "q$",
        'services.«s» = {\n  enable = true;\n  settings.«cm» = "«v»";\n};',
    ),
    (
        "Dockerfile ARG default",
        "config",
        "key",
        "b",
        "ARG «N»=«v»\nRUN pip install --extra-index-url https://pkg.«s».dev/simple «proj»",
    ),
    (
        "devcontainer.json containerEnv",
        "config",
        "key+svc",
        "q",
        lambda c: _j(
            {
                "name": c["proj"],
                "image": "mcr.microsoft.com/devcontainers/base:ubuntu",
                "containerEnv": {c["N"]: c["v"]},
            }
        ),
    ),
    (
        "GitHub Actions env literal",
        "config",
        "key+svc",
        "q",
        'jobs:\n  test:\n    runs-on: ubuntu-latest\n    env:\n      «N»: "«v»"\n    steps:\n      - uses: actions/checkout@v4',
    ),
    (
        "CircleCI config environment",
        "config",
        "key+svc",
        "q",
        'jobs:\n  build:\n    docker:\n      - image: cimg/node:20.11\n    environment:\n      «N»: "«v»"',
    ),
    (
        "Buildkite pipeline",
        "config",
        "key",
        "q",
        'steps:\n  - command: "make release"\n    env:\n      «N»: "«v»"',
    ),
    (".travis.yml env", "config", "key", "b", "language: node_js\nenv:\n  global:\n    - «N»=«v»"),
    (
        "AppVeyor environment",
        "config",
        "key",
        "q",
        'environment:\n  «N»: "«v»"\nbuild_script:\n  - cmd: build.cmd',
    ),
    (
        "Earthfile",
        "config",
        "key",
        "b",
        "VERSION 0.8\nbuild:\n    FROM golang:1.22\n    ENV «N»=«v»\n    RUN go build ./...",
    ),
    (
        "Woodpecker pipeline",
        "config",
        "key",
        "q",
        'steps:\n  deploy:\n    image: alpine\n    environment:\n      «N»: "«v»"',
    ),
    (
        "VS Code launch.json env",
        "config",
        "key+svc",
        "q",
        lambda c: _j(
            {
                "version": "0.2.0",
                "configurations": [
                    {"type": "node", "request": "launch", "name": "dev", "env": {c["N"]: c["v"]}}
                ],
            }
        ),
    ),
    (
        "REST Client .http file",
        "config",
        "key",
        "h",
        "@token = «v»\n\nGET «url»/v1/me\nAuthorization: Bearer {{token}}",
    ),
    (
        "Insomnia export",
        "config",
        "key",
        "q",
        lambda c: _j(
            {"_type": "environment", "name": "Base", "data": {"base_url": c["url"], c["n"]: c["v"]}}
        ),
    ),
    (
        "Bruno .bru file",
        "config",
        "key",
        "s",
        "meta {\n  name: list items\n  type: http\n}\n\nget {\n  url: {{baseUrl}}/items\n}\n\nheaders {\n  «H»: «v»\n}",
    ),
    (
        "Superset config",
        "config",
        "sec",
        "a",
        "SECRET_KEY = '«v»'\nSQLALCHEMY_DATABASE_URI = 'sqlite:////app/superset_home/superset.db'",
    ),
    (
        "msmtprc",
        "config",
        "mail+apppw",
        "s",
        "account «s»\nhost smtp.«s».com\nport 587\nauth on\nuser «e»\npassword «v»\n\naccount default : «s»",
    ),
    (
        "muttrc",
        "config",
        "mail+apppw",
        "a",
        "set imap_user = \"«e»\"\nset imap_pass = '«v»'\nset folder = imaps://imap.«s».com/",
    ),
    (
        "mbsyncrc",
        "config",
        "mail+apppw",
        "q",
        'IMAPAccount «s»\nHost imap.«s».com\nUser «e»\nPass "«v»"\nSSLType IMAPS',
    ),
    (
        "fetchmailrc",
        "config",
        "mail+apppw",
        "q",
        'poll pop.«s».com protocol pop3 user "«e»" password "«v»" ssl',
    ),
    (
        "gh hosts.yml",
        "config",
        "tok",
        "s:",
        "github.«s».com:\n    user: «u»\n    oauth_token: «v»\n    git_protocol: https",
    ),
    (
        ".s3cfg",
        "config",
        "sec",
        "s#",
        "[default]\naccess_key = «id»\nsecret_key = «v»\nhost_base = s3.«s».io",
    ),
    (
        ".kube/config user token",
        "config",
        "tok",
        "s",
        "users:\n- name: «u»@«proj»\n  user:\n    token: «v»",
    ),
    ("OpenVPN auth-user-pass file", "config", "acct", "", "# /etc/openvpn/«s».auth\n«u»\n«v»"),
    (
        "cloud-init chpasswd",
        "config",
        "srv+dev",
        "s:",
        "#cloud-config\nchpasswd:\n  expire: false\n  users:\n    - name: «u»\n      password: «v»\n      type: text",
    ),
    (
        "kickstart rootpw",
        "config",
        "srv+dev",
        "s",
        "lang en_US.UTF-8\nrootpw --plaintext «v»\ntimezone Europe/Berlin",
    ),
    (
        "autounattend.xml",
        "config",
        "srv+dev",
        "x",
        "<AdministratorPassword>\n  <Value>«v»</Value>\n  <PlainText>true</PlainText>\n</AdministratorPassword>",
    ),
    (
        "NetworkManager .nmconnection",
        "config",
        "wifi",
        "",
        "[wifi]\nmode=infrastructure\nssid=«ssid»\n\n[wifi-security]\nkey-mgmt=wpa-psk\npsk=«v»",
    ),
    ("iwd .psk file", "config", "wifi", "", "# /var/lib/iwd/«s».psk\n[Security]\nPassphrase=«v»"),
    (
        "hostapd.conf",
        "config",
        "wifi",
        "",
        "interface=wlan0\nssid=«ssid»\nwpa=2\nwpa_key_mgmt=WPA-PSK\nwpa_passphrase=«v»",
    ),
    (
        "OpenWrt wireless config",
        "config",
        "wifi",
        "a",
        "config wifi-iface 'default_radio0'\n\toption device 'radio0'\n\toption ssid '«ssid»'\n\toption encryption 'psk2'\n\toption key '«v»'",
    ),
    (
        "MikroTik export",
        "config",
        "wifi+dev",
        "q$",
        '/interface wifi security\nadd authentication-types=wpa2-psk name=home passphrase="«v»"',
    ),
    (
        "Cisco IOS username",
        "config",
        "dev",
        "s",
        "hostname «s»-edge-1\n!\nusername «u» privilege 15 password 0 «v»\n!",
    ),
    (
        "Plex Preferences.xml",
        "config",
        "tok",
        "x",
        '<?xml version="1.0" encoding="utf-8"?>\n<Preferences MachineIdentifier="«id»" PlexOnlineToken="«v»" FriendlyName="«proj»"/>',
    ),
    (
        "qBittorrent WebUI login with curl",
        "shell",
        "web",
        "u",
        "$ curl -i --data 'username=«u»&password=«v»' http://localhost:8080/api/v2/auth/login\nHTTP/1.1 200 OK\nset-cookie: SID=«id»; HttpOnly; path=/",
    ),
    ("Deluge auth file", "config", "web", "s:", "localclient:«id»:10\n«u»:«v»:10"),
    ("SABnzbd ini", "config", "key", "s#", "[misc]\nhost = 0.0.0.0\nport = 8080\napi_key = «v»"),
    (
        "Zigbee2MQTT network_key",
        "config",
        "bytes",
        "s[",
        "advanced:\n  pan_id: 6754\n  network_key: «v»",
    ),
    (
        "Node-RED settings.js",
        "config",
        "sec",
        "a",
        "module.exports = {\n    credentialSecret: '«v»',\n    flowFile: 'flows.json',\n}",
    ),
    ("OctoPrint config.yaml", "config", "key", "s", "api:\n  key: «v»\nserver:\n  host: 0.0.0.0"),
    (
        "Homebridge config.json",
        "config",
        "acct+dev",
        "q",
        lambda c: _j(
            {
                "platforms": [
                    {"platform": c["P"], "name": c["V"], "username": c["e"], "password": c["v"]}
                ]
            }
        ),
    ),
    ("Velocity forwarding secret file", "config", "game", "s", "# forwarding.secret\n«v»"),
    (
        "Factorio server-settings.json",
        "config",
        "game",
        "q",
        lambda c: _j(
            {
                "name": f"{c['who']}'s factory",
                "game_password": c["v"],
                "require_user_verification": True,
            }
        ),
    ),
    (
        "ARK GameUserSettings.ini",
        "config",
        "game",
        "s",
        "[ServerSettings]\nServerPassword=\nServerAdminPassword=«v»\nDifficultyOffset=1.0",
    ),
    (
        "Rust server.cfg rcon",
        "config",
        "game",
        "q",
        'server.hostname "«who» PvE"\nrcon.password "«v»"\nrcon.web 1',
    ),
    (
        "Terraria serverconfig.txt",
        "config",
        "game",
        "s",
        "world=/worlds/«proj».wld\nmaxplayers=8\npassword=«v»\nmotd=hi",
    ),
    (
        "Palworld settings",
        "config",
        "game",
        "q",
        'OptionSettings=(Difficulty=None,AdminPassword="«v»",ServerPassword="",RCONEnabled=True)',
    ),
    (
        "7 Days to Die serverconfig.xml",
        "config",
        "game",
        "x",
        '<property name="ServerPassword" value="«v»"/>\n<property name="ServerMaxPlayerCount" value="8"/>',
    ),
    (
        "CS2 autoexec rcon",
        "config",
        "game",
        "q",
        'hostname "«proj» retakes"\nrcon_password "«v»"\nsv_password ""',
    ),
    (
        "Mumble murmur.ini",
        "config",
        "game",
        "s",
        "; Murmur configuration\nserverpassword=«v»\nusers=50",
    ),
    (
        "Valheim start script",
        "config",
        "game",
        "q",
        './valheim_server.x86_64 -name "«who»s world" -port 2456 -world "«proj»" -password "«v»" -public 0',
    ),
]

FORMS += [
    # Shell sessions and CLI output
    (
        "bash history grep",
        "shell",
        "key+svc",
        "b",
        "$ history | grep «s»\n  512  export «N»=«v»\n  513  ./bin/sync --dry-run",
    ),
    (
        "gh secret set --body",
        "shell",
        "key+svc",
        "a",
        "$ gh secret set «N» --body '«v»' --repo «u»/«proj»\n✓ Set Actions secret «N» for «u»/«proj»",
    ),
    (
        "az webapp appsettings set",
        "shell",
        "key+svc",
        "b",
        "$ az webapp config appsettings set -g rg-«proj» -n «proj»-web --settings «N»=«v»",
    ),
    (
        "aws secretsmanager get-secret-value",
        "shell",
        "key+svc",
        "q",
        lambda c: (
            "$ aws secretsmanager get-secret-value --secret-id "
            + c["proj"]
            + "/"
            + c["s"]
            + "\n"
            + json.dumps(
                {
                    "Name": f"{c['proj']}/{c['s']}",
                    "SecretString": json.dumps({c["n"]: c["v"]}, ensure_ascii=False),
                    "VersionStages": ["AWSCURRENT"],
                },
                indent=4,
                ensure_ascii=False,
            )
        ),
    ),
    (
        "vault kv get table",
        "shell",
        "key+svc",
        "",
        "$ vault kv get secret/«proj»/«s»\n======= Data =======\nKey        Value\n---        -----\n«n»    «v»",
    ),
    (
        "vault kv put",
        "shell",
        "key+svc",
        "b",
        "$ vault kv put secret/«proj»/«s» «n»=«v»\n====== Secret Path ======\nsecret/data/«proj»/«s»",
    ),
    (
        "docker run -e",
        "shell",
        "key+svc",
        "b",
        "$ docker run --rm -e «N»=«v» -p 8080:8080 ghcr.io/«u»/«proj»:latest",
    ),
    (
        "podman login --password",
        "shell",
        "web+tok",
        "a",
        "$ podman login --username «u» --password '«v»' quay.«s».io\nLogin Succeeded!",
    ),
    (
        "helm install --set",
        "shell",
        "key+svc",
        "b",
        "$ helm upgrade --install «proj» ./chart --set «s».«cm»=«v»",
    ),
    (
        "mongosh connection string",
        "shell",
        "db",
        "u",
        '$ mongosh "mongodb://«u»:«v»@«h»:27017/«db»?authSource=admin"\nCurrent Mongosh Log ID: 6650f1c2a9e4b3d2c1f0e9a8',
    ),
    ("sshpass -p", "shell", "srv+dev", "a", "$ sshpass -p '«v»' ssh «u»@«ip» uptime"),
    (
        "smbclient -U user%pass",
        "shell",
        "srv+dev",
        "b%",
        '$ smbclient //«ip»/share -U «u»%«v»\nTry "help" to get a list of possible commands.\nsmb: \\>',
    ),
    (
        "git clone with token in URL",
        "shell",
        "tok",
        "u",
        "$ git clone https://«u»:«v»@git.«s».dev/«u»/«proj».git\nCloning into '«proj»'...",
    ),
    (
        "mvn -D password",
        "shell",
        "web+tok",
        "b",
        "$ mvn deploy -Drepo.user=«u» -Drepo.password=«v»",
    ),
    (
        "gpg --passphrase",
        "shell",
        "pw",
        "a",
        "$ gpg --batch --pinentry-mode loopback --passphrase '«v»' -d secrets.tar.gpg | tar x",
    ),
    ("chpasswd via echo", "shell", "srv+dev", "b", "$ echo «u»:«v» | sudo chpasswd"),
    (
        "net user on Windows",
        "shell",
        "srv+dev",
        "b",
        "C:\\> net user «u» «v» /add\nThe command completed successfully.",
    ),
    (
        "cmdkey /pass",
        "shell",
        "srv+dev",
        "b",
        "C:\\> cmdkey /generic:«h» /user:«u» /pass:«v»\nCMDKEY: Credential added successfully.",
    ),
    ("xfreerdp /p:", "shell", "srv+dev", "b", "$ xfreerdp /v:«ip» /u:«u» /p:«v» /cert:ignore"),
    (
        "PGPASSWORD prefix",
        "shell",
        "db",
        "b",
        "$ PGPASSWORD=«v» pg_dump -h «h» -U «u» «db» > «db».sql",
    ),
    (
        "nats -s URL",
        "shell",
        "mq+tok",
        "u",
        "$ nats -s nats://«u»:«v»@«h»:4222 pub orders.created '{}'",
    ),
    (
        "kafka JAAS on the command line",
        "shell",
        "mq",
        "q",
        '$ kafka-console-producer --bootstrap-server «h»:9092 --producer-property \'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="«u»" password="«v»";\' --topic events',
    ),
    (
        "lpass show --password",
        "shell",
        "any",
        "",
        "$ lpass show --password 'Shared-«proj»/«V»'\n«v»",
    ),
    ("keyring get", "shell", "any", "", "$ keyring get «s» «u»\n«v»"),
    (
        "printenv",
        "shell",
        "key+svc",
        "",
        "$ printenv | sort | head -4\nHOME=/home/«u»\nLANG=C.UTF-8\n«N»=«v»\nPATH=/usr/local/bin:/usr/bin",
    ),
    (
        "systemctl show Environment",
        "shell",
        "key+svc",
        "b",
        "$ systemctl show «proj».service -p Environment\nEnvironment=NODE_ENV=production «N»=«v»",
    ),
    (
        "ps auxe args",
        "shell",
        "key+svc",
        "b",
        "$ ps aux | grep [s]ync\n«u»  41231  0.3  1.1 812332 90112 ?  Sl  09:12  0:04 /usr/bin/python3 sync.py --«k» «v»",
    ),
    (
        "strings on a binary",
        "shell",
        "key",
        "",
        "$ strings -n 12 build/«proj» | grep -m2 -i «s»\n«url»/v1\n«v»",
    ),
    (
        "sops -d output",
        "shell",
        "key+svc",
        "q",
        '$ sops -d secrets.enc.yaml\n«n»: "«v»"\nregion: eu-central-1',
    ),
    (
        "ansible-vault view",
        "shell",
        "key+svc",
        "q",
        '$ ansible-vault view group_vars/prod/vault.yml\nVault password:\nvault_«n»: "«v»"',
    ),
    (
        "direnv export",
        "shell",
        "key+svc",
        "b",
        "$ cd «proj»\ndirenv: loading ~/src/«proj»/.envrc\ndirenv: export +«N»\n$ echo $«N»\n«v»",
    ),
    (
        "grpcurl -H",
        "shell",
        "tok",
        "h",
        "$ grpcurl -H 'authorization: Bearer «v»' api.«s».io:443 list",
    ),
    (
        "wscat -H",
        "shell",
        "key",
        "h",
        '$ wscat -c wss://stream.«s».io/v1 -H "«H»: «v»"\nConnected (press CTRL+C to quit)',
    ),
    (
        "swaks --auth-password",
        "shell",
        "mail+apppw",
        "a",
        "$ swaks --to «e» --server smtp.«s».com:587 --auth LOGIN --auth-user «u» --auth-password '«v»' -tls",
    ),
    (
        "ldapwhoami -w",
        "shell",
        "web",
        "b",
        "$ ldapwhoami -x -H ldaps://ldap.«s».io -D 'cn=«u»,dc=«s»,dc=io' -w «v»\ndn:cn=«u»,dc=«s»,dc=io",
    ),
    (
        "snmpwalk -A",
        "shell",
        "dev",
        "b",
        "$ snmpwalk -v3 -l authPriv -u «u» -a SHA -A «v» -x AES -X «v» «ip» sysDescr",
    ),
    (
        "sqlcmd -P",
        "shell",
        "db",
        "b",
        '> sqlcmd -S «h» -U «u» -P «v» -d «db» -Q "SELECT @@VERSION"',
    ),
    (
        "cqlsh -p",
        "shell",
        "db",
        "b",
        "$ cqlsh «h» 9042 -u «u» -p «v»\nConnected to «proj» at «h»:9042",
    ),
    (
        "yt-dlp --password",
        "shell",
        "acct",
        "a",
        "$ yt-dlp --username «e» --password '«v»' https://learn.«s».com/course/42",
    ),
    (
        "expect script send",
        "shell",
        "pw",
        "q$",
        'spawn ssh «u»@«ip»\nexpect "password:"\nsend "«v»\\r"\ninteract',
    ),
    (
        "vendor CLI login argument",
        "shell",
        "tok",
        "b",
        "$ «s» login «v»\n✓ Logged in to «V» as «u»",
    ),
    (
        "vendor CLI --api-key flag",
        "shell",
        "key",
        "b",
        "$ «s» --api-key «v» projects list\nID        NAME\n«id»  «proj»",
    ),
    (
        "npx with inline env",
        "shell",
        "key",
        "b",
        "$ «N»=«v» npx «s»-cli sync --all\n✔ synced 12 items",
    ),
    (
        "Windows runas prompt",
        "shell",
        "srv+dev",
        "",
        "C:\\> runas /user:«h»\\«u» cmd\nEnter the password for «h»\\«u»: «v»\nAttempting to start cmd as user...",
    ),
    (
        "wifi QR code string",
        "shell",
        "wifi",
        "#:",
        "$ qrencode -t ansiutf8 'WIFI:T:WPA;S:«ssid»;P:«v»;;'",
    ),
    (
        "nmcli wifi connect",
        "shell",
        "wifi",
        "a",
        "$ nmcli device wifi connect '«ssid»' password '«v»'\nDevice 'wlp2s0' successfully activated.",
    ),
    (
        "iwctl passphrase",
        "shell",
        "wifi",
        "a",
        "[iwd]# station wlan0 connect '«ssid»' --passphrase '«v»'",
    ),
    (
        "raspi-config nonint wifi",
        "shell",
        "wifi",
        "a",
        "$ sudo raspi-config nonint do_wifi_ssid_passphrase '«ssid»' '«v»'",
    ),
    (
        "rcon-cli",
        "shell",
        "game",
        "b",
        "$ rcon-cli --host «ip» --port 25575 --password «v» list\nThere are 3 of a max of 20 players online",
    ),
    ("mcrcon", "shell", "game", "a", "$ mcrcon -H «ip» -P 27015 -p '«v»' status"),
    (
        "cast wallet address --private-key",
        "shell",
        "wkey",
        "b",
        "$ cast wallet address --private-key «v»\n0x9aB3f0C2d1E4a5b6C7d8E9f0A1b2C3d4E5f6A7b8",
    ),
    (
        "solana-keygen recover",
        "shell",
        "seed",
        "",
        "$ solana-keygen recover -o ~/.config/solana/«s».json\n[recover] seed phrase: «v»\n[recover] If this seed phrase has an associated passphrase, enter it now. Otherwise, press ENTER to continue:",
    ),
]

FORMS += [
    # Code
    (
        "Python requests header",
        "code",
        "key",
        "q",
        'import requests\n\nresp = requests.get(\n    "«url»/v1/items",\n    headers={"«H»": "«v»"},\n    timeout=10,\n)',
    ),
    (
        "SDK client positional argument",
        "code",
        "key",
        "q",
        'from «s» import Client\n\nclient = Client("«v»")\nprint(client.projects.list())',
    ),
    (
        "psycopg connect kwargs",
        "code",
        "db",
        "q",
        'conn = psycopg.connect(host="«h»", dbname="«db»", user="«u»", password="«v»")',
    ),
    (
        "pika PlainCredentials",
        "code",
        "mq",
        "q",
        'creds = pika.PlainCredentials("«u»", "«v»")\nparams = pika.ConnectionParameters("«h»", 5672, "/", creds)',
    ),
    (
        "kafka-python SASL",
        "code",
        "mq",
        "q",
        'producer = KafkaProducer(\n    bootstrap_servers="«h»:9092",\n    security_protocol="SASL_SSL",\n    sasl_mechanism="PLAIN",\n    sasl_plain_username="«u»",\n    sasl_plain_password="«v»",\n)',
    ),
    (
        "paramiko connect",
        "code",
        "srv+dev",
        "q",
        'ssh = paramiko.SSHClient()\nssh.set_missing_host_key_policy(paramiko.AutoAddPolicy())\nssh.connect("«ip»", username="«u»", password="«v»")',
    ),
    (
        "smtplib login",
        "code",
        "mail+apppw",
        "q",
        'with smtplib.SMTP_SSL("smtp.«s».com", 465) as smtp:\n    smtp.login("«e»", "«v»")',
    ),
    (
        "imaplib login",
        "code",
        "mail+apppw+acct",
        "q",
        'imap = imaplib.IMAP4_SSL("imap.«s».com")\nimap.login("«e»", "«v»")',
    ),
    (
        "Selenium send_keys",
        "code",
        "acct",
        "q",
        'driver.find_element(By.ID, "username").send_keys("«e»")\ndriver.find_element(By.ID, "password").send_keys("«v»")\ndriver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()',
    ),
    (
        "Playwright fill",
        "code",
        "acct",
        "a",
        "await page.goto('https://«s».example/login');\nawait page.getByLabel('Email').fill('«e»');\nawait page.getByLabel('Password').fill('«v»');",
    ),
    (
        "Cypress type",
        "code",
        "acct",
        "a{",
        "cy.visit('/login')\ncy.get('#email').type('«e»')\ncy.get('#password').type('«v»', { log: false })",
    ),
    (
        "Puppeteer type",
        "code",
        "acct",
        "a",
        "await page.type('#login', '«e»');\nawait page.type('#pass', '«v»');\nawait page.click('#submit');",
    ),
    (
        "Capybara fill_in",
        "code",
        "acct",
        "q",
        'fill_in "Email", with: "«e»"\nfill_in "Password", with: "«v»"\nclick_button "Sign in"',
    ),
    (
        "Robot Framework",
        "code",
        "acct",
        "s",
        "*** Test Cases ***\nValid Login\n    Open Browser    https://«s».example/login    chrome\n    Input Text    id:user    «e»\n    Input Password    id:pass    «v»",
    ),
    (
        "Django test client login",
        "code",
        "acct",
        "q",
        'self.client.login(username="«u»", password="«v»")',
    ),
    (
        "mysql2 createConnection",
        "code",
        "db",
        "a",
        "const conn = await mysql.createConnection({\n  host: '«h»',\n  user: '«u»',\n  password: '«v»',\n  database: '«db»',\n});",
    ),
    (
        "nodemailer transport",
        "code",
        "mail+apppw",
        "a",
        "const transporter = nodemailer.createTransport({\n  host: 'smtp.«s».com',\n  port: 587,\n  auth: { user: '«e»', pass: '«v»' },\n});",
    ),
    (
        "express basic-auth users",
        "code",
        "web",
        "a",
        "app.use(basicAuth({ users: { '«u»': '«v»' }, challenge: true }));",
    ),
    (
        "Go redis.Options",
        "code",
        "db",
        "q",
        'rdb := redis.NewClient(&redis.Options{\n\tAddr:     "«h»:6379",\n\tPassword: "«v»",\n})',
    ),
    (
        "Go jwt signing key",
        "code",
        "sec",
        "q",
        'var signingKey = []byte("«v»")\n\ntok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(signingKey)',
    ),
    (
        "Rust reqwest bearer_auth",
        "code",
        "tok",
        "q",
        'let resp = client\n    .get("«url»/v1/me")\n    .bearer_auth("«v»")\n    .send()\n    .await?;',
    ),
    (
        "Spring @Value default",
        "code",
        "key+svc",
        "q{",
        '@Value("${«dt»:«v»}")\nprivate String «cm»;',
    ),
    (
        "Java RestTemplate basic auth",
        "code",
        "web",
        "q",
        'RestTemplate rt = new RestTemplateBuilder()\n    .basicAuthentication("«u»", "«v»")\n    .build();',
    ),
    (
        "EF Core UseNpgsql",
        "code",
        "db",
        "q;",
        'options.UseNpgsql("Host=«h»;Database=«db»;Username=«u»;Password=«v»");',
    ),
    (
        "Ruby Net::HTTP basic_auth",
        "code",
        "web",
        "a",
        "req = Net::HTTP::Get.new(uri)\nreq.basic_auth('«u»', '«v»')",
    ),
    (
        "Ruby Sequel connect",
        "code",
        "db",
        "a",
        "DB = Sequel.connect(adapter: 'postgres', host: '«h»', user: '«u»', password: '«v»', database: '«db»')",
    ),
    ("PHP PDO", "code", "db", "a", "$pdo = new PDO('mysql:host=«h»;dbname=«db»', '«u»', '«v»');"),
    (
        "Kotlin OkHttp Credentials",
        "code",
        "web",
        "q$",
        'val auth = Credentials.basic("«u»", "«v»")\nval request = Request.Builder().url("«url»").header("Authorization", auth).build()',
    ),
    (
        "Scala sttp",
        "code",
        "tok",
        "q",
        'val req = basicRequest\n  .get(uri"«url»/v1/items")\n  .auth.bearer("«v»")',
    ),
    (
        "Haskell http-client",
        "code",
        "tok",
        "q",
        'let req = setRequestHeader "Authorization" ["Bearer «v»"] $ parseRequest_ "«url»/v1/me"',
    ),
    (
        "Erlang httpc",
        "code",
        "key",
        "q",
        'httpc:request(get, {"«url»/v1/ping", [{"«H»", "«v»"}]}, [], []).',
    ),
    (
        "Lua http request",
        "code",
        "key",
        "q",
        'local res = http.request{\n  url = "«url»/v1/score",\n  headers = { ["«H»"] = "«v»" },\n}',
    ),
    (
        "Groovy script",
        "code",
        "key+svc",
        "a$",
        "def conn = new URL('«url»/api').openConnection()\nconn.setRequestProperty('«H»', '«v»')",
    ),
    (
        "Zig std.http header",
        "code",
        "key",
        "q",
        'const headers = [_]std.http.Header{.{ .name = "«H»", .value = "«v»" }};',
    ),
    (
        "Crystal HTTP::Client",
        "code",
        "tok",
        "q",
        'headers = HTTP::Headers{"Authorization" => "Bearer «v»"}\nHTTP::Client.get("«url»/v1/me", headers: headers)',
    ),
    (
        "C libpq conninfo",
        "code",
        "db",
        "a",
        "PGconn *conn = PQconnectdb(\"host=«h» dbname=«db» user=«u» password='«v»'\");",
    ),
    (
        "ESP-IDF wifi_config_t",
        "code",
        "wifi",
        "q",
        'wifi_config_t wifi_config = {\n    .sta = {\n        .ssid = "«ssid»",\n        .password = "«v»",\n    },\n};',
    ),
    (
        "PlatformIO build_flags",
        "code",
        "wifi+key",
        "qs",
        'build_flags =\n    -DWIFI_SSID=\\"office\\"\n    -DSECRET_VALUE=\\"«v»\\"',
    ),
    (
        "CircuitPython settings.toml",
        "code",
        "wifi+key",
        "q",
        'CIRCUITPY_WIFI_SSID = "«ssid»"\nCIRCUITPY_WIFI_PASSWORD = "«v»"',
    ),
    (
        "web3.py Account.from_key",
        "code",
        "wkey",
        "q",
        'from web3 import Account\n\nacct = Account.from_key("«v»")\nprint(acct.address)',
    ),
    (
        "solders Keypair.from_bytes",
        "code",
        "wbytes",
        "s[",
        "from solders.keypair import Keypair\n\nkp = Keypair.from_bytes(bytes(«v»))\nprint(kp.pubkey())",
    ),
    (
        "@solana/web3.js fromSecretKey",
        "code",
        "wbytes",
        "s[",
        "const payer = Keypair.fromSecretKey(Uint8Array.from(«v»));",
    ),
    (
        "paho-mqtt username_pw_set",
        "code",
        "mqtt",
        "q",
        'client = mqtt.Client(client_id="«proj»-gw")\nclient.username_pw_set("«u»", "«v»")\nclient.tls_set()\nclient.connect("«h»", 8883)',
    ),
    (
        "Frigate MQTT config",
        "config",
        "mqtt",
        "q",
        'mqtt:\n  host: «ip»\n  user: «u»\n  password: "«v»"',
    ),
    (
        "mosquitto_sub -P",
        "shell",
        "mqtt",
        "b",
        "$ mosquitto_sub -h «h» -p 8883 -u «u» -P «v» -t 'sensors/#' -v",
    ),
    ("C byte array key", "code", "bytes", "0", "static const uint8_t device_key[] = { «v» };"),
    (
        "bitcoinjs fromWIF",
        "code",
        "wkey",
        "a",
        "const keyPair = ECPair.fromWIF('«v»', bitcoin.networks.bitcoin);",
    ),
    (
        "bip39 mnemonicToSeed",
        "code",
        "seed",
        "a",
        "const seed = await bip39.mnemonicToSeed('«v»');\nconst root = bip32.fromSeed(seed);",
    ),
    (
        "truffle HDWalletProvider",
        "code",
        "seed+wkey",
        "a",
        "const provider = new HDWalletProvider('«v»', 'https://rpc.«s».io');",
    ),
    ("brownie accounts.add", "code", "wkey", "q", 'acct = accounts.add("«v»")'),
    (
        "foundry .env PRIVATE_KEY",
        "code",
        "wkey",
        "b",
        "RPC_URL=https://rpc.ankr.example\nPRIVATE_KEY=«v»",
    ),
    ("SQL ALTER ROLE PASSWORD", "code", "db", "a", "ALTER ROLE «u» WITH LOGIN PASSWORD '«v»';"),
    (
        "Swift keychain query",
        "code",
        "key+acct",
        "q",
        'let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "«u»", kSecValueData as String: "«v»".data(using: .utf8)!]',
    ),
    # Logs
    (
        "uvicorn access log",
        "logs",
        "tok",
        "u",
        'INFO:     «ip»:51234 - "GET /v1/sync?api_key=«v» HTTP/1.1" 200 OK',
    ),
    (
        "Rails log Parameters",
        "logs",
        "acct+web",
        "q",
        'Started POST "/users/sign_in" for «ip»\nProcessing by SessionsController#create as HTML\n  Parameters: {"user"=>{"email"=>"«e»", "passwd"=>"«v»"}}',
    ),
    (
        "Django DEBUG page settings",
        "logs",
        "key+svc",
        "a",
        "Settings\nUsing settings module «proj».settings\nSetting\tValue\n«N»\t'«v»'\nTIME_ZONE\t'UTC'",
    ),
    (
        "Express morgan log",
        "logs",
        "tok",
        "u",
        '::ffff:«ip» - - [12/Mar/2026:10:14:22 +0000] "GET /hooks/«s»?token=«v» HTTP/1.1" 204 - "-" "«V»-Webhooks/1.0"',
    ),
    (
        "CloudWatch JSON log",
        "logs",
        "key+svc",
        "q",
        lambda c: _j(
            {
                "timestamp": c["ts"] + "Z",
                "level": "debug",
                "message": "loaded config",
                "config": {c["cm"]: c["v"], "region": "eu-west-1"},
            }
        ),
    ),
    (
        "GCP Cloud Logging entry",
        "logs",
        "key",
        "q",
        lambda c: _j(
            {
                "severity": "DEBUG",
                "jsonPayload": {"msg": "outbound request", "headers": {c["H"]: c["v"]}},
                "resource": {"type": "cloud_run_revision"},
            }
        ),
    ),
    (
        "RFC 5424 syslog",
        "logs",
        "key+svc",
        "",
        "<134>1 «ts».412Z «proj»-1 sync 4123 - - using «n»=«v» for «V»",
    ),
    (
        "Celery worker log",
        "logs",
        "key+svc",
        "q",
        '[2026-03-12 10:14:22,512: WARNING/ForkPoolWorker-3] retrying «s».push(«cm»="«v»") after 429',
    ),
    (
        "log4j pattern line",
        "logs",
        "key+svc",
        "",
        "2026-03-12 10:14:22,512 DEBUG [main] c.«s».ClientFactory - building client with «cm»=«v»",
    ),
    (
        "Python logging default format",
        "logs",
        "key+svc",
        "a",
        "DEBUG:«s».client:request headers: {'«H»': '«v»', 'Accept': 'application/json'}",
    ),
    (
        "zap JSON log",
        "logs",
        "key+svc",
        "q",
        lambda c: _j(
            {
                "level": "debug",
                "ts": 1741774462.512,
                "caller": "client/client.go:88",
                "msg": "dial",
                c["cm"]: c["v"],
            }
        ),
    ),
    (
        "Rust tracing log",
        "logs",
        "key+svc",
        "",
        "2026-03-12T10:14:22.512Z DEBUG «s»_client::auth: token refreshed «n»=«v»",
    ),
    (
        "Android logcat",
        "logs",
        "key+acct",
        "",
        "03-12 10:14:22.512  4123  4188 D «P»Auth: login ok, «cm»=«v»",
    ),
    (
        "browser console log",
        "logs",
        "key",
        "",
        "[HMR] connected\nconfig.ts:14 «V» init {«cm»: '«v»', region: 'eu'}",
    ),
    (
        "kubectl -v=8 request headers",
        "logs",
        "tok",
        "h",
        "I0312 10:14:22.512312   41231 round_trippers.go:469] GET https://k8s.«s».io:6443/api/v1/namespaces\nI0312 10:14:22.512330   41231 round_trippers.go:473]     Authorization: Bearer «v»",
    ),
    (
        "GIT_TRACE_CURL output",
        "logs",
        "web+tok",
        "",
        "10:14:22.512312 http.c:756              => Send header: GET /«proj».git/info/refs?service=git-upload-pack HTTP/1.1\n10:14:22.512330 http.c:756              => Send header: Authorization: Basic «b64»",
    ),
    (
        "pip verbose index URL",
        "logs",
        "tok",
        "u",
        "Looking in indexes: https://pypi.org/simple, https://__token__:«v»@pkg.«s».dev/simple/",
    ),
    (
        "pytest captured log",
        "logs",
        "key+svc",
        "",
        "----------------------------- Captured log call -----------------------------\nDEBUG    «s».client:client.py:41 auth with «n»=«v»",
    ),
    # Diffs
    (
        "git diff of .env",
        "diffs",
        "key+svc",
        "b",
        "diff --git a/.env b/.env\nindex 3f2a1c4..9b8d7e6 100644\n--- a/.env\n+++ b/.env\n@@ -2,3 +2,3 @@\n LOG_LEVEL=debug\n-«N»=\n+«N»=«v»",
    ),
    ("GitHub suggestion block", "diffs", "key+svc", "q", '```suggestion\n  «n»: "«v»"\n```'),
    (
        "git stash show -p",
        "diffs",
        "key+svc",
        "q",
        '$ git stash show -p stash@{0}\n--- a/config/dev.yml\n+++ b/config/dev.yml\n@@ -7 +7 @@\n-  «n»: ""\n+  «n»: "«v»"',
    ),
    (
        "git format-patch email",
        "diffs",
        "key+svc",
        "q",
        'From 3f2a1c4 Mon Sep 17 00:00:00 2001\nFrom: «who» <«e»>\nSubject: [PATCH] wire up «V»\n\n---\n src/config.py | 1 +\n@@ -1 +1,2 @@\n+«N» = "«v»"',
    ),
    (
        "svn diff",
        "diffs",
        "key+svc",
        "s#",
        "Index: conf/app.properties\n===================================================================\n--- conf/app.properties\t(revision 4812)\n+++ conf/app.properties\t(working copy)\n@@ -3 +3 @@\n-«dt»=\n+«dt»=«v»",
    ),
    (
        "kubectl diff",
        "diffs",
        "key+svc",
        "q",
        'diff -u -N /tmp/LIVE-1234/v1.ConfigMap.«proj».env /tmp/MERGED-5678/v1.ConfigMap.«proj».env\n@@ -5 +5 @@\n-  «N»: ""\n+  «N»: "«v»"',
    ),
    (
        "helm diff upgrade",
        "diffs",
        "key+svc",
        "q",
        '«proj», «proj»-env, ConfigMap (default) has changed:\n  data:\n-   «N»: "old"\n+   «N»: "«v»"',
    ),
    (
        "ansible --diff",
        "diffs",
        "key+svc",
        "s",
        "TASK [app : template config] ****\n--- before: /etc/«proj»/app.conf\n+++ after: /home/«u»/.ansible/tmp/app.conf.j2\n@@ -1 +1 @@\n-«n» = CHANGEME\n+«n» = «v»",
    ),
    (
        "side-by-side diff",
        "diffs",
        "key+svc",
        "s",
        "«N»=placeholder                         |  «N»=«v»",
    ),
    # HTTP and protocol traces
    (
        "HAR entry",
        "http",
        "key",
        "q",
        lambda c: _j(
            {
                "request": {
                    "method": "GET",
                    "url": f"{c['url']}/v1/items",
                    "headers": [{"name": c["H"], "value": c["v"]}],
                },
                "response": {"status": 200},
            }
        ),
    ),
    (
        "Fiddler raw request",
        "http",
        "key",
        "h",
        "POST «url»/v2/events HTTP/1.1\nHost: api.«s».io\n«H»: «v»\nContent-Type: application/json\nContent-Length: 42",
    ),
    (
        "Wireshark follow TCP stream",
        "http",
        "web+tok",
        "",
        "GET /api/v1/export HTTP/1.1\r\nHost: «h»\r\nAuthorization: Basic «b64»\r\nUser-Agent: python-requests/2.32.3\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json",
    ),
    (
        "POP3 PASS",
        "http",
        "mail+apppw",
        "",
        "+OK POP3 ready\nUSER «e»\n+OK\nPASS «v»\n+OK Logged in.",
    ),
    (
        "SOAP WS-Security UsernameToken",
        "http",
        "web",
        "x",
        '<wsse:UsernameToken>\n  <wsse:Username>«u»</wsse:Username>\n  <wsse:Password Type="...#PasswordText">«v»</wsse:Password>\n</wsse:UsernameToken>',
    ),
    (
        "XML-RPC call",
        "http",
        "web+acct",
        "x",
        "<methodCall><methodName>login</methodName><params><param><value>«u»</value></param><param><value>«v»</value></param></params></methodCall>",
    ),
    (
        "OAuth token response",
        "http",
        "tok",
        "q",
        lambda c: _j(
            {"access_token": c["v"], "token_type": "Bearer", "expires_in": 3600, "scope": "read"}
        ),
    ),
    (
        "OAuth client credentials body",
        "http",
        "sec",
        "u",
        "POST /oauth/token HTTP/1.1\nHost: auth.«s».io\nContent-Type: application/x-www-form-urlencoded\n\ngrant_type=client_credentials&client_id=«id»&client_secret=«v»",
    ),
    (
        "Basic auth header",
        "http",
        "web+tok",
        "",
        "GET /v1/reports HTTP/1.1\nHost: api.«s».io\nAuthorization: Basic «b64»",
    ),
    (
        "Cookie header session",
        "http",
        "tok",
        "h;",
        "GET /dashboard HTTP/1.1\nHost: app.«s».io\nCookie: theme=dark; «n»=«v»; lang=en",
    ),
    (
        "Proxy-Authorization header",
        "http",
        "web",
        "",
        "CONNECT api.«s».io:443 HTTP/1.1\nProxy-Authorization: Basic «b64»",
    ),
    (
        "NATS CONNECT",
        "http",
        "mq+tok",
        "q",
        'CONNECT {"verbose":false,"user":"«u»","pass":"«v»","name":"«proj»"}\r\nPING',
    ),
    (
        "STOMP CONNECT frame",
        "http",
        "mq",
        "s:",
        "CONNECT\naccept-version:1.2\nhost:«h»\nlogin:«u»\npasscode:«v»\n\n^@",
    ),
    (
        "WebSocket auth message",
        "http",
        "tok+key",
        "q",
        lambda c: (
            "→ "
            + _j({"op": "auth", "args": [c["v"]]})
            + "\n← "
            + _j({"op": "auth", "success": True})
        ),
    ),
    (
        "gRPC metadata dump",
        "http",
        "key",
        "",
        "Request metadata to send:\n«k»: «v»\nuser-agent: grpcurl/1.9.1",
    ),
    # Agent tool calls and results
    (
        "Claude Code user message line",
        "agent",
        "any",
        "q",
        lambda c: _j(
            {
                "type": "user",
                "message": {"role": "user", "content": f"use this {c['V']} {c['c']}: {c['v']}"},
                "sessionId": _uuid(),
                "timestamp": c["ts"] + ".000Z",
            }
        ),
    ),
    (
        "Claude Code Read result with line numbers",
        "agent",
        "key+svc",
        "q",
        lambda c: _j(
            {
                "type": "user",
                "message": {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "toolu_01" + _rand(ALNUM, 22),
                            "content": f"     1\tDEBUG=true\n     2\t{c['N']}={c['v']}\n     3\tPORT=8080\n",
                        }
                    ],
                },
            }
        ),
    ),
    (
        "Claude Code MultiEdit input",
        "agent",
        "key+svc",
        "q",
        lambda c: _j(
            {
                "type": "tool_use",
                "name": "MultiEdit",
                "input": {
                    "file_path": f"/src/{c['proj']}/config.py",
                    "edits": [
                        {
                            "old_string": f'{c["N"]} = os.environ["{c["N"]}"]',
                            "new_string": f'{c["N"]} = "{c["v"]}"',
                        }
                    ],
                },
            }
        ),
    ),
    (
        "Claude Code Bash tool_use with env",
        "agent",
        "key+svc",
        "qb",
        lambda c: _j(
            {
                "type": "tool_use",
                "id": "toolu_01" + _rand(ALNUM, 22),
                "name": "Bash",
                "input": {"command": f"{c['N']}={c['v']} npm test", "description": "Run tests"},
            }
        ),
    ),
    (
        "Codex function_call with command array",
        "agent",
        "key+svc",
        "qb",
        lambda c: _j(
            {
                "type": "response_item",
                "payload": {
                    "type": "function_call",
                    "name": "shell",
                    "arguments": _j(
                        {"command": ["bash", "-lc", f"export {c['N']}={c['v']} && make sync"]}
                    ),
                    "call_id": "call_" + _rand(ALNUM, 24),
                },
            }
        ),
    ),
    (
        "Codex function_call_output escaped",
        "agent",
        "key+svc",
        "q",
        lambda c: _j(
            {
                "type": "response_item",
                "payload": {
                    "type": "function_call_output",
                    "call_id": "call_" + _rand(ALNUM, 24),
                    "output": _j(
                        {
                            "output": f"{c['n']}: {c['v']}\n",
                            "metadata": {"exit_code": 0, "duration_seconds": 0.1},
                        }
                    ),
                },
            }
        ),
    ),
    (
        "Codex exec_command_end event",
        "agent",
        "key+svc",
        "q",
        lambda c: _j(
            {
                "type": "event_msg",
                "payload": {
                    "type": "exec_command_end",
                    "call_id": "call_" + _rand(ALNUM, 24),
                    "stdout": f"{c['N']}={c['v']}\n",
                    "exit_code": 0,
                },
            }
        ),
    ),
    (
        "Codex apply_patch input",
        "agent",
        "key+svc",
        "q",
        lambda c: _j(
            {
                "type": "response_item",
                "payload": {
                    "type": "custom_tool_call",
                    "name": "apply_patch",
                    "input": f"*** Begin Patch\n*** Update File: .env\n@@\n-{c['N']}=\n+{c['N']}={c['v']}\n*** End Patch",
                },
            }
        ),
    ),
    (
        "MCP resources/read result",
        "agent",
        "key+svc",
        "q",
        lambda c: _j(
            {
                "jsonrpc": "2.0",
                "id": 7,
                "result": {
                    "contents": [
                        {
                            "uri": f"file:///src/{c['proj']}/.env",
                            "mimeType": "text/plain",
                            "text": f"{c['N']}={c['v']}\n",
                        }
                    ]
                },
            }
        ),
    ),
    (
        "MCP prompts/get arguments",
        "agent",
        "key",
        "q",
        lambda c: _j(
            {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "prompts/get",
                "params": {"name": "debug-auth", "arguments": {"vendor": c["V"], c["cm"]: c["v"]}},
            }
        ),
    ),
    (
        ".mcp.json server env",
        "agent",
        "key",
        "q",
        lambda c: _j(
            {
                "mcpServers": {
                    c["s"]: {
                        "command": "npx",
                        "args": ["-y", f"@{c['s']}/mcp-server"],
                        "env": {c["N"]: c["v"]},
                    }
                }
            }
        ),
    ),
    (
        "Claude Desktop config env",
        "agent",
        "key",
        "q",
        lambda c: json.dumps(
            {
                "mcpServers": {
                    c["s"]: {"command": "uvx", "args": [f"{c['s']}-mcp"], "env": {c["N"]: c["v"]}}
                }
            },
            indent=2,
            ensure_ascii=False,
        ),
    ),
    (
        "Cursor mcp.json headers",
        "agent",
        "key",
        "q",
        lambda c: _j(
            {
                "mcpServers": {
                    c["s"]: {
                        "url": f"https://mcp.{c['s']}.io/sse",
                        "headers": {"Authorization": f"Bearer {c['v']}"},
                    }
                }
            }
        ),
    ),
    (
        "Continue config.yaml",
        "agent",
        "key",
        "q",
        'models:\n  - name: «V»\n    provider: openai\n    apiBase: «url»/v1\n    apiKey: "«v»"',
    ),
    (
        "Aider chat history",
        "agent",
        "any",
        "",
        "#### use «v» as the «V» «c» in the tests\n\nI'll update `tests/conftest.py` to use the provided value.",
    ),
    (
        "Aider /run output",
        "agent",
        "key+svc",
        "",
        "> /run env | grep «S»\n«N»=«v»\n\nAdd the output to the chat? (Y)es/(N)o [Yes]:",
    ),
    (
        "Cline execute_command",
        "agent",
        "key+svc",
        "x",
        "<execute_command>\n<command>«N»=«v» python scripts/check.py</command>\n<requires_approval>false</requires_approval>\n</execute_command>",
    ),
    (
        "Gemini CLI tool call",
        "agent",
        "key+svc",
        "qb",
        lambda c: _j(
            {
                "functionCall": {
                    "name": "run_shell_command",
                    "args": {"command": f"curl -s -H '{c['H']}: {c['v']}' {c['url']}/v1/ping"},
                }
            }
        ),
    ),
    (
        "Goose session line",
        "agent",
        "key+svc",
        "q",
        lambda c: _j(
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "toolRequest",
                        "toolCall": {
                            "value": {
                                "name": "developer__shell",
                                "arguments": {"command": f"export {c['N']}='{c['v']}'"},
                            }
                        },
                    }
                ],
            }
        ),
    ),
    (
        "OpenAI function call arguments",
        "agent",
        "key+svc",
        "q",
        lambda c: _j(
            {
                "tool_calls": [
                    {
                        "id": "call_" + _rand(ALNUM, 24),
                        "type": "function",
                        "function": {
                            "name": "set_config",
                            "arguments": _j({"key": c["N"], "value": c["v"]}),
                        },
                    }
                ]
            }
        ),
    ),
    (
        "Anthropic API tool_result body",
        "agent",
        "key+svc",
        "q",
        lambda c: _j(
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_01" + _rand(ALNUM, 22),
                        "content": f"{c['n']} = {c['v']}",
                    }
                ],
            }
        ),
    ),
    (
        "OpenHands CmdRunAction",
        "agent",
        "key+svc",
        "qb",
        lambda c: _j(
            {
                "action": "run",
                "args": {
                    "command": f"export {c['N']}={c['v']}",
                    "thought": f"Set the {c['V']} credential",
                },
            }
        ),
    ),
    (
        "SWE-agent trajectory step",
        "agent",
        "key+svc",
        "",
        "ACTION:\necho '«N»=«v»' >> .env\nOBSERVATION:\n(no output)",
    ),
    (
        "smolagents step log",
        "agent",
        "key",
        "q",
        '━━━━ Step 2 ━━━━\nExecuting parsed code:\nclient = «P»Client(api_key="«v»")\nresult = client.search("pricing")',
    ),
    (
        "subagent summary report",
        "agent",
        "any",
        "",
        "Summary of findings:\n1. The «V» client reads its «c» from config/local.yaml (value `«v»`).\n2. The 401 comes from the expired staging account.",
    ),
    (
        "escaped JSON twice in a transcript",
        "agent",
        "key+svc",
        "q",
        lambda c: _j({"type": "tool_result", "content": _j(_j({c["N"]: c["v"]}))}),
    ),
    (
        "LangGraph state dump",
        "agent",
        "key+svc",
        "a",
        "{'messages': [HumanMessage(content='connect to «V»')], 'config': {'«n»': '«v»'}}",
    ),
    (
        "AutoGen message",
        "agent",
        "any",
        "",
        "user_proxy (to assistant):\n\nHere is the «V» «c» you asked for: «v»\n\n--------------------------------------------------------------------------------",
    ),
]


# -- look-alikes: texts that must come out unchanged, with the strings that must survive


def _sha() -> str:
    return _hex(40)


def _b58(n: int) -> str:
    return _rand(B58, n)


def _la_reflog() -> tuple[str, list[str]]:
    a, b, c = _hex(7), _hex(7), _hex(7)
    return (
        f"$ git reflog -3\n{a} HEAD@{{0}}: commit: tidy imports\n{b} HEAD@{{1}}: rebase (finish): returning to refs/heads/main\n{c} HEAD@{{2}}: checkout: moving from fix-login to main",
        [a, b, c],
    )


def _la_revparse() -> tuple[str, list[str]]:
    s = _sha()
    return (
        f"$ git rev-parse HEAD\n{s}\n$ git stash list\nstash@{{0}}: WIP on main: {s[:7]} bump deps",
        [s, s[:7]],
    )


def _la_hg() -> tuple[str, list[str]]:
    s = _sha()
    return (
        f"changeset:   4812:{s[:12]}\nbranch:      stable\nuser:        {_pick(FIRST)} <dev@example.org>\nsummary:     fix the password reset email wording",
        [s[:12]],
    )


def _la_pnpm() -> tuple[str, list[str]]:
    i = "sha512-" + _b64(64)
    return f"  /lodash.merge@4.6.2:\n    resolution: {{integrity: {i}}}\n    dev: false", [i]


def _la_yarn() -> tuple[str, list[str]]:
    h = _sha()
    return (
        f'"left-pad@^1.3.0":\n  version "1.3.0"\n  resolved "https://registry.yarnpkg.com/left-pad/-/left-pad-1.3.0.tgz#{h}"',
        [h],
    )


def _la_pipfile() -> tuple[str, list[str]]:
    a, b = _hex(64), _hex(64)
    return (
        f'"requests": {{\n    "hashes": [\n        "sha256:{a}",\n        "sha256:{b}"\n    ],\n    "version": "==2.32.3"\n}}',
        [a, b],
    )


def _la_gemlock() -> tuple[str, list[str]]:
    a, b = _hex(64), _hex(64)
    return f"CHECKSUMS\n  rack (3.1.8) sha256={a}\n  puma (6.4.3) sha256={b}", [a, b]


def _la_flake() -> tuple[str, list[str]]:
    n, r = "sha256-" + _b64(32), _sha()
    return (
        f'"nixpkgs": {{\n  "locked": {{\n    "narHash": "{n}",\n    "rev": "{r}",\n    "type": "github"\n  }}\n}}',
        [n, r],
    )


def _la_tflock() -> tuple[str, list[str]]:
    h1, zh = "h1:" + _b64(32), "zh:" + _hex(64)
    return (
        f'provider "registry.terraform.io/hashicorp/random" {{\n  version = "3.6.2"\n  hashes = [\n    "{h1}",\n    "{zh}",\n  ]\n}}',
        [h1, zh],
    )


def _la_compose_digest() -> tuple[str, list[str]]:
    d = "sha256:" + _hex(64)
    return f"services:\n  web:\n    image: nginx@{d}\n    ports:\n      - 8080:80", [d]


def _la_sha1sum() -> tuple[str, list[str]]:
    a, b = _sha(), _hex(32)
    return f"$ sha1sum release.tar.gz\n{a}  release.tar.gz\n$ md5sum notes.pdf\n{b}  notes.pdf", [
        a,
        b,
    ]


def _la_lfs() -> tuple[str, list[str]]:
    o = _hex(64)
    return (
        f"version https://git-lfs.github.com/spec/v1\noid sha256:{o}\nsize {R.randint(10**5, 10**8)}",
        [o],
    )


def _la_sri() -> tuple[str, list[str]]:
    i = "sha384-" + _b64(48)
    return (
        f'<script src="https://cdn.example.net/lib/3.2.1/lib.min.js" integrity="{i}" crossorigin="anonymous"></script>',
        [i],
    )


def _la_ethtx() -> tuple[str, list[str]]:
    t, b = "0x" + _hex(64), "0x" + _hex(64)
    return f"Transaction Hash: {t}\nStatus: Success\nBlock Hash: {b}\nGas Used: 21,000", [t, b]


def _la_btc() -> tuple[str, list[str]]:
    a = "bc1q" + _rand("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 38)
    t = _hex(64)
    return f"Send to: {a}\nAmount: 0.0042 BTC\nTXID: {t}", [a, t]


def _la_solana_addr() -> tuple[str, list[str]]:
    a = _b58(44)
    return f"Recipient (public address): {a}\nhttps://explorer.solana.com/address/{a}", [a]


def _la_gpg() -> tuple[str, list[str]]:
    f = _hex(40, True)
    return (
        f"$ gpg --list-keys\npub   ed25519 2024-05-01 [SC]\n      {f}\nuid           [ultimate] {_pick(FIRST)} <dev@example.org>",
        [f],
    )


def _la_known_hosts() -> tuple[str, list[str]]:
    k = "AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB" + _b64(65).rstrip("=")
    return f"git.example.org ecdsa-sha2-nistp256 {k}", [k]


def _la_hostfp() -> tuple[str, list[str]]:
    f = "SHA256:" + _b64(32).rstrip("=")
    return (
        f"The authenticity of host 'build-3 (10.0.4.12)' can't be established.\nED25519 key fingerprint is {f}.\nAre you sure you want to continue connecting (yes/no)?",
        [f],
    )


def _la_jwks() -> tuple[str, list[str]]:
    n, kid = _b64(256, True), _rand(ALNUM, 20)
    return _j(
        {"keys": [{"kty": "RSA", "use": "sig", "kid": kid, "alg": "RS256", "n": n, "e": "AQAB"}]}
    ), [n, kid]


def _la_age_pub() -> tuple[str, list[str]]:
    a = "age1" + _rand("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)
    return f"# .sops.yaml\ncreation_rules:\n  - path_regex: secrets/.*\n    age: {a}", [a]


def _la_wg_peer() -> tuple[str, list[str]]:
    p = _b64(32)
    return f"[Peer]\n# laptop\nPublicKey = {p}\nAllowedIPs = 10.8.0.3/32", [p]


def _la_onion() -> tuple[str, list[str]]:
    o = _rand("abcdefghijklmnopqrstuvwxyz234567", 56) + ".onion"
    return f"Mirror: http://{o}/ (Tor Browser only)", [o]


def _la_traceparent() -> tuple[str, list[str]]:
    t, s = _hex(32), _hex(16)
    return f"traceparent: 00-{t}-{s}-01\ntracestate: vendor=opaque", [t, s]


def _la_xray() -> tuple[str, list[str]]:
    t = f"1-{_hex(8)}-{_hex(24)}"
    return f"X-Amzn-Trace-Id: Root={t};Sampled=1", [t]


def _la_k8s_uid() -> tuple[str, list[str]]:
    u = _uuid()
    return (
        f'metadata:\n  name: api-7d9c4b6f5-x2k8p\n  namespace: shop\n  uid: {u}\n  resourceVersion: "{R.randint(10**6, 10**8)}"',
        [u],
    )


def _la_docker_ps() -> tuple[str, list[str]]:
    a, b = _hex(12), _hex(12)
    return (
        f"CONTAINER ID   IMAGE          STATUS\n{a}   postgres:16    Up 3 hours\n{b}   redis:7        Up 3 hours",
        [a, b],
    )


def _la_machine_id() -> tuple[str, list[str]]:
    m, b = _hex(32), _uuid()
    return f"$ cat /etc/machine-id\n{m}\n$ cat /proc/sys/kernel/random/boot_id\n{b}", [m, b]


def _la_mac() -> tuple[str, list[str]]:
    m = ":".join(_hex(2) for _ in range(6))
    return (
        f"2: enp3s0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500\n    link/ether {m} brd ff:ff:ff:ff:ff:ff",
        [m],
    )


def _la_android_sha1() -> tuple[str, list[str]]:
    s = ":".join(_hex(2, True) for _ in range(20))
    return f"Certificate fingerprints:\n\t SHA1: {s}\nSignature algorithm name: SHA256withRSA", [s]


def _la_pubkeytoken() -> tuple[str, list[str]]:
    t = _hex(16)
    return (
        f'<Reference Include="Contoso.Utils, Version=2.1.0.0, Culture=neutral, PublicKeyToken={t}" />',
        [t],
    )


def _la_chrome_ext() -> tuple[str, list[str]]:
    e = _rand("abcdefghijklmnop", 32)
    return f"chrome-extension://{e}/popup.html", [e]


def _la_xcode_team() -> tuple[str, list[str]]:
    t, u = _rand(UPPER36, 10), _uuid().upper()
    return (
        f'DEVELOPMENT_TEAM = {t};\nPROVISIONING_PROFILE_SPECIFIER = "";\nPROVISIONING_PROFILE = "{u}";',
        [t, u],
    )


def _la_clsid() -> tuple[str, list[str]]:
    g = "{" + _uuid().upper() + "}"
    return (
        f'[HKEY_CLASSES_ROOT\\CLSID\\{g}\\InprocServer32]\n@="C:\\\\Program Files\\\\Contoso\\\\shellext.dll"',
        [g],
    )


def _la_submodule() -> tuple[str, list[str]]:
    a, b = _sha(), _sha()
    return (
        f"$ git submodule status\n {a} vendor/libfoo (v1.4.2)\n+{b} vendor/libbar (heads/main)",
        [a, b],
    )


def _la_cache_key() -> tuple[str, list[str]]:
    h = _hex(64)
    return f"Cache restored from key: Linux-node-modules-{h}", [h]


def _la_mlflow() -> tuple[str, list[str]]:
    r, w = _hex(32), _rand(LOWER36, 8)
    return f"MLflow run id: {r}\nwandb: 🚀 View run at https://wandb.ai/team/proj/runs/{w}", [r, w]


def _la_sentry_event() -> tuple[str, list[str]]:
    e = _hex(32)
    return f"Sentry captured exception, event_id={e}", [e]


def _la_slack_ts() -> tuple[str, list[str]]:
    ts, ch = (
        f"{R.randint(1_700_000_000, 1_790_000_000)}.{R.randint(100000, 999999)}",
        "C0" + _rand(UPPER36, 9),
    )
    return f"https://example.slack.com/archives/{ch}/p{ts.replace('.', '')}\nthread_ts={ts}", [
        ch,
        ts,
    ]


def _la_iam_arn() -> tuple[str, list[str]]:
    acct = str(R.randint(10**11, 10**12 - 1))
    arn = f"arn:aws:iam::{acct}:role/ci-deploy"
    return f'"Principal": {{ "AWS": "{arn}" }}', [arn]


def _la_az_account() -> tuple[str, list[str]]:
    t, s = _uuid(), _uuid()
    return (
        f'$ az account show\n{{\n  "id": "{s}",\n  "name": "Pay-As-You-Go",\n  "tenantId": "{t}"\n}}',
        [t, s],
    )


def _la_gcp_sa() -> tuple[str, list[str]]:
    n = str(R.randint(10**11, 10**12 - 1))
    sa = f"{n}-compute@developer.gserviceaccount.com"
    return f"projectNumber: '{n}'\nserviceAccount: {sa}", [n, sa]


def _la_placeholder() -> tuple[str, list[str]]:
    p = R.choice(
        [
            "<YOUR_API_KEY>",
            "your-token-here",
            "REPLACE_ME",
            "xxxxxxxxxxxxxxxxxxxxxxxx",
            "<paste token>",
            "changeme-in-prod",
            "TODO_SET_ME",
            "${API_KEY}",
        ]
    )
    return f"# Copy this file to .env and fill in\nVENDOR_API_KEY={p}\nVENDOR_REGION=eu", [p]


def _la_gha_ref() -> tuple[str, list[str]]:
    r = "${{ secrets.DEPLOY_TOKEN }}"
    return f"      - run: ./deploy.sh\n        env:\n          DEPLOY_TOKEN: {r}", [r]


def _la_helm_ref() -> tuple[str, list[str]]:
    r = "{{ .Values.db.password | b64enc | quote }}"
    return f"data:\n  password: {r}", [r]


def _la_masked() -> tuple[str, list[str]]:
    tail = _rand(ALNUM, 4)
    m = R.choice(
        [
            f"••••••••••••{tail}",
            f"****{tail}",
            f"sk_…{tail}",
            "[REDACTED]",
            f"<hidden, ends in {tail}>",
        ]
    )
    return f"API key: {m} (created {R.randint(1, 28)} Mar)", [m]


def _la_env_code() -> tuple[str, list[str]]:
    code = R.choice(
        [
            'let key = std::env::var("PAYMENTS_API_KEY")?;',
            'key := os.Getenv("PAYMENTS_API_KEY")',
            'val key = System.getenv("PAYMENTS_API_KEY") ?: error("missing")',
            'const key = Deno.env.get("PAYMENTS_API_KEY");',
            '$key = getenv("PAYMENTS_API_KEY");',
            "key = ENV.fetch('PAYMENTS_API_KEY')",
        ]
    )
    return code, [code]


def _la_po() -> tuple[str, list[str]]:
    s = R.choice(
        [
            'msgid "Your password has expired"\nmsgstr "Ihr Passwort ist abgelaufen"',
            'msgid "Invalid API key"\nmsgstr "Clé API invalide"',
            'msgid "Enter your PIN"\nmsgstr "Introduce tu PIN"',
        ]
    )
    return f"#: src/auth.py:42\n{s}", [s]


def _la_strings_xml() -> tuple[str, list[str]]:
    s = '<string name="hint_password">Password (at least 12 characters)</string>'
    return (
        f'<resources>\n    {s}\n    <string name="forgot_pin">Forgot your PIN?</string>\n</resources>',
        [s],
    )


def _la_prompt() -> tuple[str, list[str]]:
    p = R.choice(
        [
            "[sudo] password for alice:",
            "Enter passphrase for key '/home/alice/.ssh/id_ed25519':",
            "Password for 'https://git.example.org':",
            "Enter PIN for 'PIV Card Holder pin (PIV_II)':",
        ]
    )
    return f"$ make deploy\n{p}\n^C", [p]


def _la_html_pw() -> tuple[str, list[str]]:
    s = '<input type="password" name="password" autocomplete="current-password" required minlength="12">'
    return f"<label for=password>Password</label>\n{s}", [s]


def _la_django_validators() -> tuple[str, list[str]]:
    s = "django.contrib.auth.password_validation.MinimumLengthValidator"
    return (
        f'AUTH_PASSWORD_VALIDATORS = [\n    {{"NAME": "{s}", "OPTIONS": {{"min_length": 12}}}},\n]',
        [s],
    )


def _la_notion() -> tuple[str, list[str]]:
    i = _hex(32)
    return f"https://www.notion.so/acme/Onboarding-{i}", [i]


def _la_figma() -> tuple[str, list[str]]:
    k = _rand(ALNUM, 22)
    return f"https://www.figma.com/design/{k}/Checkout-flow?node-id=12-345", [k]


def _la_rekor() -> tuple[str, list[str]]:
    u = _hex(80)
    return f"tlog entry created with index: {R.randint(10**7, 10**8)}\nUUID: {u}", [u]


def _la_apt_key() -> tuple[str, list[str]]:
    k = _hex(16, True)
    return f"W: GPG error: https://repo.example.org stable InRelease: NO_PUBKEY {k}", [k]


def _la_acme_acct() -> tuple[str, list[str]]:
    n = str(R.randint(10**8, 10**10))
    u = f"https://acme-v02.api.letsencrypt.org/acme/acct/{n}"
    return f"Account registered: {u}", [u]


def _la_zxcvbn() -> tuple[str, list[str]]:
    s = "This is similar to a commonly used password."
    return _j(
        {"score": 1, "feedback": {"warning": s, "suggestions": ["Add another word or two."]}}
    ), [s]


def _la_keycloak_masked() -> tuple[str, list[str]]:
    s = '"secret": "**********"'
    return f'{{"clientId": "web", {s}, "publicClient": false}}', [s]


def _la_uuid7() -> tuple[str, list[str]]:
    u = f"{_hex(8)}-{_hex(4)}-7{_hex(3)}-{R.choice('89ab')}{_hex(3)}-{_hex(12)}"
    return f'{{"request_id": "{u}", "status": "queued"}}', [u]


def _la_idempotency() -> tuple[str, list[str]]:
    u = _uuid()
    return f"POST /v1/orders HTTP/1.1\nIdempotency-Key: {u}\nContent-Type: application/json", [u]


def _la_ulid() -> tuple[str, list[str]]:
    u = _rand("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 26)
    return f'level=info msg="job done" job_id={u} took=812ms', [u]


def _la_cron_regex() -> tuple[str, list[str]]:
    s = r"^(?=.*[A-Z])(?=.*\d)[A-Za-z\d@$!%*?&]{12,}$"
    return f"schedule: '*/15 * * * *'\npassword_rule: '{s}'", [s]


def _la_secret_name() -> tuple[str, list[str]]:
    s = "projects/shop-prod/secrets/stripe-webhook/versions/latest"
    return f"gcloud secrets versions access latest --secret=stripe-webhook  # resolves {s}", [s]


LOOKALIKES: list[tuple[str, Callable[[], tuple[str, list[str]]]]] = [
    ("git reflog", _la_reflog),
    ("git rev-parse and stash list", _la_revparse),
    ("Mercurial changeset", _la_hg),
    ("pnpm-lock integrity", _la_pnpm),
    ("yarn.lock resolved hash", _la_yarn),
    ("Pipfile.lock hashes", _la_pipfile),
    ("Gemfile.lock checksums", _la_gemlock),
    ("flake.lock narHash", _la_flake),
    ("terraform lock hashes", _la_tflock),
    ("compose image digest", _la_compose_digest),
    ("sha1sum and md5sum output", _la_sha1sum),
    ("git LFS pointer", _la_lfs),
    ("SRI integrity attribute", _la_sri),
    ("Ethereum transaction hash", _la_ethtx),
    ("Bitcoin address and txid", _la_btc),
    ("Solana public address", _la_solana_addr),
    ("PGP fingerprint", _la_gpg),
    ("SSH known_hosts line", _la_known_hosts),
    ("SSH host key fingerprint", _la_hostfp),
    ("JWKS public key", _la_jwks),
    ("age public key", _la_age_pub),
    ("WireGuard peer public key", _la_wg_peer),
    ("Tor onion address", _la_onion),
    ("W3C traceparent", _la_traceparent),
    ("AWS X-Ray trace id", _la_xray),
    ("Kubernetes uid", _la_k8s_uid),
    ("docker ps ids", _la_docker_ps),
    ("machine-id and boot_id", _la_machine_id),
    ("MAC address", _la_mac),
    ("Android signing SHA-1", _la_android_sha1),
    (".NET PublicKeyToken", _la_pubkeytoken),
    ("Chrome extension id", _la_chrome_ext),
    ("Xcode team and profile ids", _la_xcode_team),
    ("COM CLSID", _la_clsid),
    ("git submodule status", _la_submodule),
    ("CI cache key", _la_cache_key),
    ("MLflow and wandb run ids", _la_mlflow),
    ("Sentry event id", _la_sentry_event),
    ("Slack channel and ts", _la_slack_ts),
    ("IAM role ARN", _la_iam_arn),
    ("Azure tenant and subscription", _la_az_account),
    ("GCP project number and service account", _la_gcp_sa),
    ("placeholder value", _la_placeholder),
    ("GitHub Actions secret reference", _la_gha_ref),
    ("Helm values reference", _la_helm_ref),
    ("masked value", _la_masked),
    ("code reading the environment", _la_env_code),
    ("gettext entry about passwords", _la_po),
    ("Android strings.xml password hint", _la_strings_xml),
    ("password prompt with nothing typed", _la_prompt),
    ("HTML password input", _la_html_pw),
    ("Django password validators", _la_django_validators),
    ("Notion page id", _la_notion),
    ("Figma file key", _la_figma),
    ("Rekor entry UUID", _la_rekor),
    ("apt NO_PUBKEY id", _la_apt_key),
    ("ACME account URL", _la_acme_acct),
    ("password strength feedback", _la_zxcvbn),
    ("Keycloak masked client secret", _la_keycloak_masked),
    ("UUIDv7 request id", _la_uuid7),
    ("Idempotency-Key header", _la_idempotency),
    ("ULID job id", _la_ulid),
    ("password policy regex and cron", _la_cron_regex),
    ("secret manager resource name", _la_secret_name),
]


# -- building the corpus


class Builder:
    def __init__(self) -> None:
        self.vendors = {c: R.sample(v, len(v)) for c, v in VENDORS.items()}
        self.used_vendors: Counter[str] = Counter()
        self.kinds: dict[tuple[str, str], tuple[str, str]] = {}  # (vendor, label) -> (cat, role)
        self.form_use: Counter[str] = Counter()
        self.secrets: list[dict[str, str]] = []
        self.shapes: list[str] = []
        self.kind_forms: dict[tuple[str, str], set[str]] = {}

    def _cats_for(self, accepted: set[str]) -> list[str]:
        return [c for c, creds in CREDS.items() if any(r in accepted for _, r in creds)]

    def new_kind(self, accepted: set[str]) -> tuple[str, str, str, str]:
        cats = self._cats_for(accepted)
        used = Counter(cat for cat, _ in self.kinds.values())
        cat = max(cats, key=lambda c: (QUOTA[c] - used[c]) + R.random() * 3)
        creds = [(lbl, r) for lbl, r in CREDS[cat] if r in accepted]
        # What people paste by hand (their passwords, phrases, codes) a little more often.
        weights = [
            2 if r in ("acctpw", "seed", "totp", "recovery", "code", "apppw") else 1
            for _, r in creds
        ]
        label, role = R.choices(creds, weights=weights)[0]
        # A few vendors hand out a second kind; most kinds get a new vendor.
        twice = [
            v for v in self.used_vendors if self._cat_of(v) == cat and (v, label) not in self.kinds
        ]
        fresh = [v for v in self.vendors[cat] if v not in self.used_vendors]
        vendor = _pick(twice) if twice and (R.random() < 0.07 or not fresh) else fresh[0]
        self.used_vendors[vendor] += 1
        self.kinds[(vendor, label)] = (cat, role)
        return vendor, cat, label, role

    def _cat_of(self, vendor: str) -> str:
        return next(c for c, vs in VENDORS.items() if vendor in vs)

    def place(self, form: Form, vendor: str, cat: str, label: str, role: str) -> bool:
        name, group, _, safe, template = form
        for _ in range(300):
            v, shape = value(role, label, _slug(vendor))
            if all(SAFE[ch](v) for ch in safe):
                break
        else:
            return False
        ctx = context(vendor, cat, label, role, v)
        text = fill(template, ctx)
        secret = v if v in text else ctx["b64"]
        assert secret in text, (name, secret)
        self.secrets.append(
            {
                "kind": f"{vendor} {label} [{name}]",
                "text": text,
                "secret": secret,
                "_form": name,
                "_role": role,
                "_cat": cat,
                "_vendor": vendor,
                "_label": label,
            }
        )
        self.shapes.append(shape)
        self.form_use[name] += 1
        self.kind_forms.setdefault((vendor, label), set()).add(name)
        return True


def _forms_for(role: str, exclude: set[str]) -> list[Form]:
    return [f for f in FORMS if role in roles(f[2]) and f[0] not in exclude]


def build() -> tuple[list[dict[str, str]], list[dict[str, object]], list[str]]:
    names = [f[0] for f in FORMS]
    assert len(names) == len(set(names)), [n for n, k in Counter(names).items() if k > 1]
    b = Builder()
    # Every form once, each with a new kind.
    for form in R.sample(FORMS, len(FORMS)):
        accepted = roles(form[2])
        for _ in range(20):
            vendor, cat, label, role = b.new_kind(accepted)
            if b.place(form, vendor, cat, label, role):
                break
            del b.kinds[(vendor, label)]
            b.used_vendors[vendor] -= 1
            if not b.used_vendors[vendor]:
                del b.used_vendors[vendor]
        else:
            sys.exit(f"no value fits form {form[0]!r}")
    # Some more new kinds, in the least used forms.
    while len(b.kinds) < 350:
        form = min(R.sample(FORMS, len(FORMS)), key=lambda f: b.form_use[f[0]])
        vendor, cat, label, role = b.new_kind(roles(form[2]))
        if not b.place(form, vendor, cat, label, role):
            del b.kinds[(vendor, label)]
    # About 100 kinds a second time, in another form, with a fresh value.
    for key in R.sample(sorted(b.kinds), 100):
        cat, role = b.kinds[key]
        options = _forms_for(role, b.kind_forms[key])
        R.shuffle(options)
        options.sort(key=lambda f: b.form_use[f[0]])
        for form in options[:8]:
            if b.place(form, key[0], cat, key[1], role):
                break
    looks: list[dict[str, object]] = []
    for sort, fn in LOOKALIKES:
        for i in range(2):
            text, keep = fn()
            looks.append(
                {"kind": sort if i == 0 else f"{sort} ({i + 1})", "text": text, "keep": keep}
            )
    for sort, fn in R.sample(LOOKALIKES, 160 - len(looks)):
        text, keep = fn()
        looks.append({"kind": f"{sort} (3)", "text": text, "keep": keep})
    _refresh(b, looks)
    return b.secrets, looks, b.shapes


def _refresh(b: Builder, looks: list[dict[str, object]]) -> None:
    """A secret found inside another entry's text gets a fresh value; fail if it stays."""
    forms = {f[0]: f for f in FORMS}
    for _ in range(50):
        texts = [x["text"] for x in b.secrets] + [str(x["text"]) for x in looks]
        clash = [i for i, x in enumerate(b.secrets) if sum(x["secret"] in t for t in texts) > 1]
        if not clash:
            return
        for i in clash:
            x = b.secrets[i]
            b.form_use[x["_form"]] -= 1
            if not b.place(forms[x["_form"]], x["_vendor"], x["_cat"], x["_label"], x["_role"]):
                sys.exit(f"no fresh value fits {x['kind']!r}")
            b.secrets[i] = b.secrets.pop()
            b.shapes[i] = b.shapes.pop()
    sys.exit("a secret is still found inside another entry")


def main() -> None:
    secrets, looks, shapes = build()
    for x in looks:
        assert all(k in str(x["text"]) for k in x["keep"]), x  # type: ignore[union-attr]
    assert len({x["kind"] for x in secrets}) == len(secrets)
    out = {
        "about": "Fifteenth blind corpus of fake credentials (synthetic, seeded); see benchmarks/make_secrets_blind15.py.",
        "secrets": [{"kind": x["kind"], "text": x["text"], "secret": x["secret"]} for x in secrets],
        "lookalikes": looks,
    }
    OUT.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    kinds = Counter(x["kind"].rsplit(" [", 1)[0] for x in secrets)
    forms = Counter(x["_form"] for x in secrets)
    groups = Counter(f[1] for f in FORMS)
    print(
        f"{len(secrets)} secrets of {len(kinds)} kinds ({sum(1 for n in kinds.values() if n == 2)} twice) in {len(forms)} forms; {len(looks)} look-alikes ({len(LOOKALIKES)} sorts)"
    )
    print("forms by group:", dict(groups))
    print(
        "secrets by group:",
        dict(Counter(next(f[1] for f in FORMS if f[0] == x["_form"]) for x in secrets)),
    )
    print(
        "vendors:",
        len({x["_vendor"] for x in secrets}),
        dict(Counter(x["_cat"] for x in {x["_vendor"]: x for x in secrets}.values())),
    )
    if "-v" in sys.argv:
        print("shapes:", dict(Counter(shapes).most_common()))
        print("roles:", dict(Counter(x["_role"] for x in secrets)))
        print("non-ASCII secrets:", sum(not x["secret"].isascii() for x in secrets))


if __name__ == "__main__":
    main()
