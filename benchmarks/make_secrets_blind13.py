"""Write benchmarks/data/secrets_blind13.json: a thirteenth blind corpus of fake credentials.

What its author read, and what not. Written from general knowledge of how vendors shape
their keys, where people paste them into coding-agent chats and where agents' tool output
shows them, with the standard library only. Not read: anything under ``brain/`` or
``tests/``, ``benchmarks/README.md``, the project README, the bodies of the other
``make_secrets_blind*.py`` generators, any ``redact*`` benchmark; ``git log`` was not run
and no commit message was looked up, but ``git worktree add`` printed the subject of
main's latest commit (one line, about a base58 address pattern) when this worktree was
made. Read: ``benchmarks/secrets_holdout.py`` (the whole file: the JSON format, how an item
is loaded and scored); the top docstring of ``make_secrets_blind12.py`` only (line 1 to its
closing quotes), for the output shape and as an example of how to describe a corpus; for
each ``benchmarks/data/secrets_*.json`` its top-level keys, the field names of its first
secret and look-alike, its numbers of secrets and look-alikes and the first 200 characters
of its ``about`` string (blind12's whole ``about``); and their ``kind`` names, written by a
script to a file with the `` [form]`` suffix stripped (5,382 names, none seen on screen:
a script only searched them for candidate vendors). Seen in passing: the file names in
``benchmarks/`` and ``benchmarks/data/``, the Makefile's ``lint`` target, the last lines of
``make install``'s log, and the project's style guide (``/work/shared/STYLE.md``). Every
vendor was checked against those kind names by a script (its whole name as a word, its
letters and digits run together when four or more, anywhere in a kind run together, its
first word as a word, or run together when four letters or more): of 1,654 candidates,
1,002 were found there and dropped; of the 652 left, 71 were dropped by hand (common words
such as Koala, Cabin, Basin, Boundary, Reflect, Shine, Moss, Orca or Noon, a name that is a
generic word in a kind, or simply to trim), so the 581 vendors listed in ``VENDORS`` are
new by that check, and 335 of them are used (drawn at random per category: 110 software
services, 26 AI and ML APIs, 14 payment and finance APIs, 45 banks, 18 brokers and
exchanges, all 4 wallets left, 26 device makers, 36 self-hosted apps, 26 games, 30 shops).
A product sold under another name than its maker's may still share a maker with an earlier
kind. The corpus was not scored, and nothing in brain was run on it; it was only checked to
load with the fields ``load()`` reads, each secret being a verbatim substring of its text.

Counts (printed by ``main``): 456 secrets of 351 kinds in 329 embedding forms, and 160
look-alikes (65 sorts) that must come out unchanged, each listing under ``keep`` the
strings that must survive. 246 kinds appear once and 105 twice, in two different forms
with fresh values; 12 vendors hand out two kinds, and so does each of the 4 wallets. Every form
is used at least once. A secret found inside any other entry's text gets a fresh value,
and the run fails if one is still found.

Value shapes: 85 passwords as people type them (words, names, years, symbols, leetspeak,
random 10 to 16 characters) and 18 more with non-ASCII words (Søndergård, Łódź,
Ĳsselmeer, Šķērslis, Ærø, Jyväskylä...), 36 passphrases of 4 to 6 words, 7 seed-word
lists of 12 or 24 words, 34 short random alphanumerics with no prefix, 10 to 20
characters (alphabets of 62, lower- or upper-case 36, base58; 18 of them mostly letters),
31 longer alphanumerics, 34 hex (lower or upper case, 32 to 64 long, and wallet private
keys with ``0x``), 13 base64, 15 url-safe base64, 8 UUIDs used as keys, 17 vendor-style
prefixes made from the vendor's name (``xx_prod_``, ``xxtok_``, ``XX-ABCD1234-...``,
``xx-sec-``, ``xx_sa_123456_``, ``xxu_``, ``xx.abcd1234.``, ``xx_ab1_``, ``xxkey-``), 10
JWT-like tokens, 13 ``id:secret``, ``id.secret``, ``id|secret`` and ``id/secret`` pairs, 10
grouped license keys, 10 byte arrays in decimal or hex, 5 TOTP seeds in base32, 16 app
passwords in four groups of four letters, 19 recovery codes (one, or four
``xxxx-xxxx``), 8 gift card codes, 49 PINs, TANs and passcodes of 4 to 6 digits and 18
codes of 8 digits. Secrets sit inside larger strings in the forms: connection strings and
``Server=...;Password=...`` strings, RTSP, proxy, git-credential and clone URLs, query
strings (``apikey=``, ``key=``, ``token=``, ``client_secret=``, ``password=``), Bearer and
``Token`` headers, cookies, ``user%pass``, ``pass:`` and ``-p`` flags. 26 secrets carry
non-ASCII letters.

Names: credential words first, last or in the middle, with an environment part before,
after or inside (``PROD_X_TOKEN``, ``X_API_RO_KEY``, ``TOKEN_X_EU``, ``X_LIVE_PASSWORD``),
in many spellings (``TKN``, ``PAT``, ``CREDS``, ``BEARER``, ``HMAC_SECRET``,
``SHARED_SECRET``, ``WRITE_KEY``, ``KEY_SECRET``, ``APITOKEN``, ``PASSCODE``, ``OTP_SEED``,
``MFA_SEED``, ``TWOFA_SECRET``, ``MNEMONIC``) and languages (``CHAVE_API``, ``CLAU_API``,
``GAKOA``, ``NOKKEL``, ``RAHASIA``, ``SIR_ANAHTARI``, ``HIMITSU``, ``MIYAO``, ``UFUNGUO``,
``SUSI``, ``ZUGANGSSCHLUESSEL``, ``GEHEIMNIS``, ``SEGRETO``, ``TAJNY_KLUC``, ``TUNNUS``,
``JETON_ACCES``, ``LYKILL``, ``PASSORD``, ``ADGANGSKODE``, ``SALASANA``, ``WACHTWOORD``,
``KENNWORT``, ``CONTRASENYA``, ``PALAVRA_PASSE``, ``PAROLE``, ``SALASONA``, ``HESLO``,
``KATA_LALUAN``, ``MAT_KHAU``, ``LYKILORD``, ``FOCAL_FAIRE``, ``WAGWOORD``, ``NENOSIRI``,
``BIMILBEONHO``, ``MIMA``, ``SANKETSHABD``, ``FJALEKALIM``, ``PINKOODI``, ``TUNNUSLUKU``,
``CODIGO``, ``CODICE``, ``FRASE_SEMENTE``, ``HERSTELZIN``, ``SIEMENLAUSE``), as
UPPER_SNAKE, snake, camelCase, PascalCase, kebab, dotted and ``X-Vendor-Key`` header
forms. Some values have no credential word near them: a Python SDK's positional argument,
a vendor CLI's ``login`` argument, ``ps aux`` and ``column -t`` lines, a sticky note or a
note with only the vendor's name, RTSP and proxy URLs, a ``strace`` or ``tcpdump`` dump,
``launchctl getenv`` output, a game's start script, a wallet restored from its phrase.

Forms (chosen to differ from blind12's list), 329 in all: 125 secrets in chat (61 forms:
prose in 34 languages, Afrikaans, Albanian, Amharic, Armenian, Azerbaijani, Belarusian,
Danish, Esperanto, Estonian, Galician, Gujarati, Hausa, Icelandic, Irish, Javanese,
Kannada, Khmer, Latvian, Luxembourgish, Macedonian, Malay, Maltese, Marathi, Mongolian,
Nepali, Punjabi, Serbian, Sinhala, Slovenian, Somali, Tamil, Telugu, Uzbek, Zulu; plus
"here's my key", a typo'd note, "use this one instead", a forwarded email, a Discord
spoiler, a Teams paste, a WhatsApp export, a Notion page, an Obsidian note, a voicemail
transcript, a calendar invite, a PR description, a code review comment, a Linear issue, a
handover doc, an Apple Notes checklist, a Google Docs comment, a Mastodon DM, a support
chat transcript, a todo.txt line, an org-mode entry, a vCard note, a Stack Overflow draft,
a note with only the vendor's name, a sticky note typed up, a pager alert note, Twitch
chat), 106 in config files (87 forms, among them a Pulumi stack, serverless.yml,
netlify.toml, vercel.json, fly.toml, App Engine app.yaml, Traefik labels, an HAProxy
userlist, Prometheus basic_auth and bearer_token, Grafana provisioning, Fluent Bit,
Vector, Telegraf, rclone.conf, .pypirc, composer auth.json, NuGet.config, Maven
settings.xml, sbt credentials, .yarnrc.yml, a Dockerfile, devcontainer.json, GitHub
Actions, Azure Pipelines, Bitbucket Pipelines, Drone, Travis, Cloud Build, Nomad, Packer,
cloud-init, Kickstart, NixOS, Puppet, a Chef data bag, cdk.json, CloudFormation
parameters, .bicepparam, a crontab, an OpenVPN auth file, ipsec.secrets, an fstab cifs
line, msmtprc, muttrc, .fetchmailrc, Postfix sasl_passwd, znc.conf, sabnzbd.ini, a
self-hosted app's .env, Authelia, ESPHome secrets, Zigbee2MQTT, Frigate, OpenWrt
wireless, a RouterOS export, a NetworkManager keyfile, hostapd.conf, Factorio, Palworld,
ARK GameUserSettings.ini, a Valheim start script, a Rust server.cfg, Terraria, murmur.ini,
a Kubernetes Secret, a Kustomize secretGenerator, an Argo CD repository secret, dbt
profiles.yml, an Airflow connection, Rails database.yml, appsettings.json, web.config,
Tomcat context.xml and tomcat-users.xml, Jetty realm.properties, wp-config.php, Drupal
settings.php, Vite .env.local, Expo app.json, a Postman environment, a Bruno file,
cypress.env.json, Robot Framework variables, a compose healthcheck, an INI three levels
deep, YAML with anchors), 58 in shell sessions and CLI output (50 forms: ``curl -u`` and
a bearer header, HTTPie, zsh_history, ``history | grep``, ``printenv``, ``aws ssm
get-parameter``, ``vault kv get``, a decoded ``kubectl`` secret, ``kubectl create secret
--from-literal``, ``docker run -e``, ``docker login -p`` and ``--password-stdin``, ``git
clone`` with a token, ``~/.git-credentials``, ``mysql -p``, ``sqlcmd -P``, ``smbclient``,
``sshpass``, ``RSYNC_PASSWORD``, ``zip -P``, ``7z -p``, ``gpg --passphrase``, ``htpasswd
-b``, an expect script, ``tmux send-keys``, PowerShell SecureString and
Invoke-WebRequest, ``cmdkey``, ``net use``, ``twine``, ``poetry config``, ``dotnet nuget
add source``, ``mvn -D``, ``keytool``, ``openssl pkcs12``, ``ps aux``, ``/proc/environ``,
a ``set -x`` trace, ``systemctl show``, ``launchctl getenv``, ``crontab -l``, ``sudo -S``,
a vendor CLI login, ``gh secret set``, ``dokku config:set``, ``jq``, ``strace``,
``tcpdump -A``, ``solana-keygen recover``), 61 in code (53 forms: Ruby Faraday, a Go
struct literal, Rust reqwest, Spring ``@Value``, Kotlin, Scala, C#, VB.NET, a PowerShell
hashtable, R, Haskell, Zig, Crystal, Groovy, Erlang, Common Lisp, Emacs Lisp, Vimscript,
a Neovim plugin's setup, JDBC, Python requests, SQLAlchemy, Node mysql2, Mongoose, Deno,
next.config.js, Angular, Objective-C, Unity, GDScript, Roblox, a Terraform provider,
Pulumi, an Ansible task, SQL ``CREATE USER`` and ``ALTER ROLE``, Redis ``CONFIG SET``,
mongosh ``createUser``, Excel ``WEBSERVICE``, Sheets ``IMPORTDATA``, Playwright, Selenium,
Puppeteer, Gherkin, k6, Django, Phoenix, Racket, a Python SDK's positional argument,
web3.py ``from_mnemonic`` and ``from_key``, ``bip39.mnemonicToSeedSync``, Rust bip39), 28
in logs (24 forms: an Apache access line, HAProxy, Envoy, Traefik, Caddy, urllib3 debug,
http.client ``send:``, a Java exception with a JDBC URL, Rails parameters, a Go ``%+v``
dump, a Rust Debug print, PHP ``var_dump`` and ``print_r``, Elixir ``IO.inspect``, a
docker build step, ``TF_LOG``, Ansible ``-vvv``, Celery, a Postgres statement log, a
MySQL general log, Redis MONITOR, syslog, Airflow, a GitLab CI job log), 21 in tables
(10 forms: HTML, reStructuredText grid, org-mode, TSV, SQLite box, a mongosh document,
MediaWiki, Textile, ``column -t``, a markdown table in a wiki page), 15 in diffs (12
forms: a YAML git diff, a combined merge diff, ``git stash show -p``, a format-patch
email, ``svn diff``, a context diff, a GitHub suggestion, ``--word-diff``, ``kubectl
diff``, ``helm diff``, ``ansible --diff``, ``pulumi preview --diff``), 14 in HTTP and
protocol traces (13 forms: ``curl -v`` HTTP/2, a Cookie header, a form-urlencoded login,
an OAuth client-credentials body, a SOAP ``wsse:Password``, a WebSocket URL,
``grpcurl -H``, a POP3 session, a STOMP CONNECT frame, a proxy URL, a HAR entry, ``curl
--trace-ascii``, a REST Client ``.http`` file), and 28 in agent tool calls and results
(19 forms: a Claude Read result with line numbers, a MultiEdit input, an OpenAI Responses
``function_call_output`` and an Anthropic ``tool_result`` whose content is JSON (the value
escaped twice), a Codex ``exec_command_end`` event, a PreToolUse hook's input, an
OpenHands observation, a Vercel AI SDK tool result, a SWE-agent trajectory step, a
transcript line with its result escaped twice, Aider chat history, a Cline
``execute_command``, a Goose tool response, a smolagents code action, Gemini CLI shell
output, an assistant's summary of what it set, a Windsurf ``run_command``, an agent's plan,
an agent asking to confirm a value). Each secret's ``kind`` is ``<vendor> <credential>
[<form>]``. PINs, TANs, codes, recovery codes, app passwords, TOTP seeds and seed words,
and every bank's or shop's credential, go only to forms that take any value (chat,
tables, ``vault kv get``, notes, agent prose), banks' and shops' passwords also to
browser-test code (Playwright, Selenium, Puppeteer, Gherkin, Cypress, Robot Framework);
seed words also to wallet-restore code and ``solana-keygen``; header, query-string,
registry and SDK forms take only keys; login protocols, database client files, mail
clients, VPN and share files take only passwords; Wi-Fi files take only device makers'
Wi-Fi passwords, Frigate only their camera passwords; game-server files only games' server,
RCON or admin passwords, and games' passwords elsewhere only to forms that take any
value; device makers' passwords go only to prose, device files and a few ways of logging
in to a box (``curl -u``, ``sshpass``, expect, ``smbclient``, an fstab line, Python
requests, Playwright, ``htpasswd``, ``tmux send-keys``); the self-hosted ``.env``,
sabnzbd and Authelia forms only self-hosted apps. Values that must sit in a URL are drawn until they need no escaping.

Look-alikes, each with its ``keep`` list (65 sorts): commits in a rebase todo, a revert
message, ``git reflog``, ``git cat-file`` and ``git ls-tree``, an hg changeset, pnpm
integrity, a yarn berry checksum, script SRI, a Nix fetch hash, terraform lock hashes, a
Helm Chart.lock digest, a Bazel archive sha256, an image digest in ``FROM``, ``docker
ps`` ids, a pod name, Secrets Manager and IAM role ARNs, a Key Vault reference, a GCP
secret path, an Azure subscription id, placeholders, masked values, an SSH public key, a
known_hosts line, an age recipient, a WireGuard peer public key, asset hashes, a turbo
cache hash, traceparent, X-Amzn-Trace-Id, an OpenTelemetry span, i18n strings about
secrets, code naming a secret without its value, base64 of ordinary text, a tmux session,
test fixture ids, booleans named after secrets (``admin_session=true``), UUID primary
keys, a sops-encrypted value, an ansible-vault blob, SealedSecret ciphertext, a Spotify
track id, an InChIKey, an ISBN, a password input field, a password policy, auth errors
without a key, empty env values, secret references (``${{ secrets.X }}``, ``op://``,
``vault read``), ``sha256sum`` and ``md5sum`` output, a PGP key id, an Android SHA1
fingerprint, a Discord snowflake, a KSUID, a WebAuthn credential id, a PKCE
code_challenge, a VS Code machineId, a notebook cell id, a slug with a random suffix, a
TOTP prompt, a password strength message, a docker volume name, an EAN barcode.

Run: ``python benchmarks/make_secrets_blind13.py``.
"""

# ruff: noqa: E501
# (the templates are the texts themselves; wrapping them would change what they show)

from __future__ import annotations

import base64
import json
import random
import re
import string
import uuid
from collections import Counter
from pathlib import Path

OUT = Path(__file__).parent / "data" / "secrets_blind13.json"
SEED = 1307264519
R = random.Random(SEED)

# Vendors new by the check described above, by what they hand out:
# S software services, A AI and ML APIs, P payments and finance APIs, B banks,
# X brokers and exchanges, W wallets, D devices, H self-hosted apps, G games, M shops.
VENDORS = {
    "S": "Zuplo|Hanko|SuperTokens|Permit.io|Cerbos|Aserto|Trigger.dev|Airbyte|Quickwit|Parseable|HetrixTools|Spike.sh|Zenduty|EmailOctopus|Mailosaur|Testmail|MailSlurp|Lettermint|Kamatera|Netcup|Wallarm|Dyte|Centrifugo|PartyKit|Triplit|ElectricSQL|PowerSync|Replicache|QStash|Vectara|Patronus|Lakera|Relevance AI|Synthflow|Tinify|ShortPixel|Smartproxy|Diffbot|RocketReach|Snov.io|Positionstack|Weatherstack|Meteomatics|Marketstack|Financial Modeling Prep|CryptoCompare|Messari|BscScan|Schematic|Creem|Prismic|ButterCMS|Localazy|ModernMT|Smartling|Coveo|Constructor.io|Bloomreach|Klevu|Doofinder|Searchanysite|Logtail|Mouseflow|Appcues|Featurebase|Frill|UserVoice|Formspree|Getform|Nylas|Cronofy|Unipile|Merge.dev|Codat|Rutter|Kombo|Celigo|Relay.app|Bardeen|Smartlead|Woodpecker.co|Reply.io|Salesloft|Copper CRM|Benchmark Email|AWeber|Leanplum|CleverTap|WebEngage|Bloomreach Engagement|Postscript|Itexmo|Phase.dev|Terrateam|Appcircle|TestFlight|Argos CI|Happo|Meticulous|QA Wolf|Rainforest QA|Testmo|Qase|Allure TestOps|Aikido|Phylum|Chainguard|Lacework|Upwind|Sysdig|Secureframe|Thoropass|Tugboat Logic|Jamf|NinjaOne|Syncro|Kaseya|ConnectWise|AnyDesk|Splashtop|Parsec|Pritunl|Perimeter 81|Zscaler|Netskope|Banyan|Smallstep|Keyfactor|ZeroSSL|Buypass|Certum|Namesilo|Epik|one.com|Hostpoint|Cyon|Hostnet|TransIP|Antagonist|Mijndomein|Loopia|Oderland|Zone.ee|Seznam|Wedos|Forpsi|Websupport|Nazwa.pl|home.pl|Platform.sh|Upsun|Qoddi|Coherence|Flightcontrol|Massdriver|Daytona|DevZero|CodeSandbox|StackBlitz|Replit|Val Town|Wasmer|Fermyon|Cosmonic|Nitric|Ampt",
    "A": "Weights & Biases|Mixedbread|Mathpix|Rossum|Veryfi|Mindee|Klippa|Instabase|Copy.ai|Civitai|Tensorart|SeaArt|Hailuo|Qwen DashScope|Sarvam|Krutrim|LightOn|Inflection|Writesonic|Predibase|Gretel|Mostly AI|Labelbox|Snorkel|SuperAnnotate|Encord|Ultralytics HUB|Landing AI|Clarifai|Imagga|Sightengine|Everypixel",
    "P": "Polar.sh|2Checkout|Khipu|Yodlee|Monext|Paybox|Bancontact|Paysend|WorldRemit|Azimo|Airbase|Soldo|Payhawk|Yokoy",
    "B": "Banco Inter|Itaú|Bradesco|Banorte|Bancolombia|Davivienda|Banco de Chile|Banco Pichincha|Produbanco|Banco Galicia|Caisse d'Epargne|Crédit Mutuel|HypoVereinsbank|Fineco|Mediolanum|Banco BPM|CaixaBank|Sabadell|Bankinter|Kutxabank|Abanca|Ibercaja|Unicaja|Millennium bcp|Caixa Geral|Novo Banco|Pekao|Alior|Česká spořitelna|Komerční banka|ČSOB|Fio banka|Tatra banka|K&H|MBH Bank|Banca Transilvania|BCR|BRD|DSK Bank|UBB|Fibank|Eurobank|Piraeus|Ziraat|İş Bankası|Garanti BBVA|Akbank|Yapı Kredi|VakıfBank|Halkbank|Denizbank|Enpara|Oschadbank|TBC Bank|Ameriabank|Swedbank|Handelsbanken|Jyske Bank|Sydbank|SpareBank 1|S-Pankki|Aktia|Landsbankinn|Íslandsbanki|Luminor|Citadele|Šiaulių bankas|LHV|Coop Pank|ICICI|HDFC Bank|Kotak|IDFC First|Canara Bank|Meezan Bank|HBL|Dutch-Bangla|Sampath Bank|BDO|BPI|Metrobank|UnionBank|Techcombank|VPBank|MB Bank|Kasikorn|Krungthai|Krungsri|Maybank|CIMB|RHB|AmBank|OCBC|UOB|Mandiri|Jenius|KB Kookmin|Shinhan|Woori|NongHyup|MUFG|Mizuho|Sony Bank|Resona|CTBC|E.Sun|Fubon|ASB|BNZ|Kiwibank|Emirates NBD|ADCB|Mashreq|Al Rajhi|Riyad Bank|Attijariwafa|Ecobank|GTBank|Zenith Bank|UBA|Stanbic|CRDB|SoFi|Varo|Navy Federal|USAA|Truist|Desjardins|Simplii",
    "X": "Wealthsimple|Questrade|Interactive Brokers|Webull|eToro|Trading 212|Degiro|Freetrade|Nutmeg|Saxo|Avanza|Nordnet|Groww|CoinSwitch|BTC Markets|CoinSpot|Swyftx|Independent Reserve|Coinmate|BitMEX|WOO X|LBank|Poloniex|Bitrue|BtcTurk|Exmo",
    "W": "Monerujo|MyTonWallet|Daimo|Bitkey",
    "D": "TP-Link|Netgear|Linksys|Eero|TerraMaster|Asustor|Hanwha|Speedport|Livebox|Freebox|Bbox|Tenda|WatchGuard|Kyocera|Ricoh|Lexmark|Konica Minolta|Creality|Elegoo|Anycubic|Snapmaker|Flashforge|HEOS|Peloton|Polestar|Rivian|Eve Home|Gira|KNX|Velux|Danfoss|Mitsubishi MELCloud|Panasonic Comfort Cloud",
    "H": "Lychee|Piwigo|Pydio|FileBrowser|Planka|Kanboard|Docmost|Organizr|Passbolt|Technitium|Dockge|Dokploy|Easypanel|YOURLS|Lemmy|Akkoma|GoToSocial|Funkwhale|Dendrite|MyBB|Friendica|WriteFreely|Umbraco|rTorrent|Shinobi|ZoneMinder|MotionEye|Mainsail|Fluidd|Spoolman|Icinga|Observium|Akaunting|Kimai|Rallly|Twenty CRM|EspoCRM|SuiteCRM|Mautic|Mailu|Stalwart|Maddy|SnappyMail|SOGo|Radicale|Baikal|UrBackup|XCP-ng|Unraid|OpenMediaVault|CasaOS|YunoHost|Cloudron|Runtipi",
    "G": "Palworld|Satisfactory|Killing Floor|Don't Starve Together|Starbound|Vintage Story|Empyrion|Unturned|Mordhau|Pavlov|Foxhole|Eve Online|Final Fantasy XIV|RuneScape|Albion Online|Lost Ark|Genshin Impact|Valorant|GOG|Humble Bundle|Warframe|Elite Dangerous|War Thunder|Nexon|Garena|MapleStory|Tibia|Dofus|Chess.com|osu!|VRChat|Rec Room|Resonite|Second Life|Habbo|Pokémon GO|Rockstar Social Club|FiveM|open.mp|BYOND|TrackMania|Assetto Corsa|iRacing|BeamMP|Wurm Online|Mount & Blade|Sven Co-op",
    "M": "ASOS|Bol.com|Coolblue|Cdiscount|Fnac|Darty|Boulanger|MediaMarkt|Reichelt|Alza|Rohlik|Myntra|Meesho|Nykaa|Blibli|ZOZOTOWN|Gmarket|Musinsa|Pinduoduo|Temu|Shein|AliExpress|Americanas|Magalu|Falabella|Ripley|Coppel|Kogan|Currys|John Lewis|Ocado|Waitrose|Edeka|Rossmann|Kaufland|Auchan|Leclerc|Monoprix|Leboncoin|Marktplaats|Kleinanzeigen|Tori.fi|Blocket|Finn.no|Subito|Wallapop|Milanuncios|Jofogás|Bazoš|Gumtree|ThredUp|Grailed|StockX|Vestiaire|Farfetch|Mytheresa|SSENSE|Uniqlo|Decathlon|Wayfair|Newegg|B&H Photo|Adorama|Chewy|Zappos|Wehkamp|Bonprix|Boozt|Elgiganten|Verkkokauppa|Gigantti|Komplett|Proshop|Webhallen|NetOnNet|Tradera",
}

# -- value shapes ----------------------------------------------------------------------

ALNUM = string.ascii_letters + string.digits
LOW36 = string.ascii_lowercase + string.digits
UP36 = string.ascii_uppercase + string.digits
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def pick(seq):
    return R.choice(seq)


def rand(n, alphabet=ALNUM):
    return "".join(R.choice(alphabet) for _ in range(n))


def mostly_letters(n):
    s = list(rand(n, string.ascii_letters))
    for _ in range(R.randint(1, 2)):
        s[R.randrange(n)] = R.choice(string.digits)
    return "".join(s)


def abbr(vendor):
    letters = re.sub(r"[^a-z]", "", vendor.lower().encode("ascii", "ignore").decode())
    return letters[: R.choice((2, 3, 4))] or "xv"


def short_key(v):
    n = R.randint(10, 20)
    kind = R.random()
    if kind < 0.4:
        return mostly_letters(n), "short mostly letters"
    return rand(n, pick((ALNUM, LOW36, UP36, B58))), "short alphanumeric"


def alnum_key(v):
    return rand(
        R.choice((24, 30, 32, 36, 40, 48)), pick((ALNUM, LOW36, ALNUM))
    ), "long alphanumeric"


def hex_key(v):
    h = rand(R.choice((32, 40, 48, 64)), "0123456789abcdef")
    return (h.upper() if R.random() < 0.25 else h), "hex"


def b64_key(v):
    raw = bytes(R.randrange(256) for _ in range(R.choice((24, 32, 33, 48))))
    if R.random() < 0.5:
        return base64.b64encode(raw).decode(), "base64"
    return base64.urlsafe_b64encode(raw).decode().rstrip("="), "url-safe base64"


def uuid_key(v):
    u = str(uuid.UUID(int=R.getrandbits(128), version=4))
    return (u.upper() if R.random() < 0.2 else u), "UUID"


def prefixed_key(v):
    a = abbr(v)
    style = R.randrange(9)
    body = rand(R.choice((24, 32, 40)))
    if style == 0:
        return f"{a}_prod_{body}", "vendor prefix"
    if style == 1:
        return f"{a}tok_{body}", "vendor prefix"
    if style == 2:
        return f"{a.upper()}-{rand(8, UP36)}-{rand(24, LOW36)}", "vendor prefix"
    if style == 3:
        return f"{a}-sec-{rand(32, LOW36)}", "vendor prefix"
    if style == 4:
        return f"{a}_sa_{rand(6, string.digits)}_{body}", "vendor prefix"
    if style == 5:
        return f"{a}u_{body}", "vendor prefix"
    if style == 6:
        return f"{a}.{rand(8, LOW36)}.{rand(32, ALNUM)}", "vendor prefix"
    if style == 7:
        return f"{a}_{rand(2, 'abcdefghijklmnopqrstuvwxyz')}1_{body}", "vendor prefix"
    return f"{a}key-{rand(40, LOW36)}", "vendor prefix"


def b64u(obj):
    return (
        base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode())
        .decode()
        .rstrip("=")
    )


def jwt_key(v):
    head = {"alg": pick(("HS256", "RS256", "ES256", "HS512")), "typ": "JWT"}
    body = {
        "sub": rand(12, LOW36),
        "iss": re.sub(r"[^a-z]", "", v.lower()) or "svc",
        "iat": 1780000000 + R.randrange(10**7),
        pick(("scope", "role", "aud")): pick(("api", "admin", "ingest", "rw")),
    }
    sig = base64.urlsafe_b64encode(bytes(R.randrange(256) for _ in range(32))).decode().rstrip("=")
    return f"{b64u(head)}.{b64u(body)}.{sig}", "JWT-like"


def idsecret_key(v):
    style = R.randrange(4)
    ident = pick(
        (
            rand(8, string.digits),
            rand(16, LOW36),
            str(uuid.UUID(int=R.getrandbits(128), version=4))[:8],
        )
    )
    sec = rand(R.choice((24, 32, 40)), pick((ALNUM, LOW36)))
    sep = (":", ".", "|", "/")[style]
    return f"{ident}{sep}{sec}", "id:secret pair"


def grouped_key(v):
    g = R.choice((4, 5, 6))
    return "-".join(rand(g, UP36) for _ in range(R.choice((4, 5)))), "grouped key"


def bytes_key(v):
    raw = [R.randrange(256) for _ in range(R.choice((16, 24, 32)))]
    if R.random() < 0.5:
        return "[" + ", ".join(str(b) for b in raw) + "]", "byte array"
    return "{" + ", ".join(f"0x{b:02x}" for b in raw) + "}", "byte array"


def privkey_key(v):
    return "0x" + rand(64, "0123456789abcdef"), "hex"


WORDS = (
    "harbor lantern maple thistle cobalt orchard velvet juniper falcon pebble meadow "
    "saffron tundra quiver ember willow granite marble copper nutmeg biscuit pepper "
    "rocket wander summit canyon glacier puzzle violet crimson tiger panda mango lemon "
    "dragon castle river forest sunny winter spring autumn shadow silver golden purple "
    "kitten puppy monkey turtle pirate wizard ninja rabbit donkey coffee cookie banana"
).split()
NAMES = (
    "Maja Tomas Ingrid Sven Leila Omar Priya Arjun Mei Kenji Lucia Mateo Olga Dmitri "
    "Aisha Kwame Zanele Ravi Nadia Pablo Greta Jonas Sanne Bram Elif Emre Anouk Timo "
    "Nikos Eleni Bogdan Ilinca Mihai Katarzyna Piotr Dorota Hana Jakub Zsofia Levente"
).split()
UNI_WORDS = (
    "Søndergård Þórsmörk Žirafa Łódź Çiçekçi Ärtsoppa Ñandú Gödöllő Šķērslis "
    "Kōhai Brød Örnsköldsvik Ćevapi Ĳsselmeer Łabędź Fußball Mañana Être Škoda "
    "Jyväskylä Tórshavn Čarodej Ålesund Ğüneş Säkkijärvi Dvořák Ñoño Ærø"
).split()
SYMS = "!#$%*+-._@?=^~,:"
SEED_WORDS = (
    "abandon ability able about above absent absorb abstract absurd access accident "
    "account accuse achieve acid acoustic acquire across act action actor actress "
    "actual adapt add addict address adjust admit adult advance advice aerobic "
    "affair afford afraid again age agent agree ahead aim air airport aisle alarm "
    "album alcohol alert alien all alley allow almost alone alpha already also "
    "alter always amateur amazing among amount amused analyst anchor ancient anger "
    "angle angry animal ankle announce annual another answer antenna antique "
    "anxiety any apart apology appear apple approve april arch arctic area arena "
    "argue arm armed armor army around arrange arrest arrive arrow art artefact "
    "artist artwork ask aspect assault asset assist assume asthma athlete atom "
    "attack attend attitude attract auction audit august aunt author auto autumn "
    "average avocado avoid awake aware away awesome awful awkward axis baby "
    "bachelor bacon badge bag balance balcony ball bamboo banana banner bar "
    "barely bargain barrel base basic basket battle beach bean beauty because "
    "become beef before begin behave behind believe below belt bench benefit best "
    "betray better between beyond bicycle bid bike bind biology bird birth bitter "
    "black blade blame blanket blast bleak bless blind blood blossom blouse blue "
    "blur blush board boat body boil bomb bone bonus book boost border boring "
    "borrow boss bottom bounce box boy bracket brain brand brass brave bread "
    "breeze brick bridge brief bright bring brisk broccoli broken bronze broom "
    "brother brown brush bubble buddy budget buffalo build bulb bulk bullet "
    "bundle bunker burden burger burst bus business busy butter buyer buzz"
).split()


def typed_password(v):
    style = R.randrange(8)
    w, y = pick(WORDS), R.choice(range(1961, 2027))
    if style == 0:
        return f"{w.capitalize()}{y}{pick(SYMS)}", "password"
    if style == 1:
        return f"{pick(NAMES)}{pick(NAMES).lower()}{R.randint(1, 99)}{pick(SYMS)}", "password"
    if style == 2:
        return f"{pick(UNI_WORDS)}{pick(SYMS)}{y}", "password (non-ASCII)"
    if style == 3:
        leet = w.replace("a", "4").replace("e", "3").replace("o", "0").replace("i", "1")
        return f"{leet.capitalize()}{pick(SYMS)}{pick(WORDS)}{R.randint(10, 99)}", "password"
    if style == 4:
        return f"{pick(NAMES)}.{pick(NAMES)}{pick(SYMS)}{y % 100:02d}", "password"
    if style == 5:
        return (
            f"{pick(WORDS)}{pick(SYMS)}{pick(UNI_WORDS).lower()}{R.randint(1, 9)}",
            "password (non-ASCII)",
        )
    if style == 6:
        return rand(R.randint(10, 16), ALNUM + "!#%*+-_.@"), "password"
    return f"{pick(WORDS).upper()}{pick(WORDS)}{y}{pick(SYMS)}{pick(SYMS)}", "password"


def passphrase(v):
    n = R.randint(4, 6)
    sep = pick((" ", "-", ".", "_"))
    words = [pick(WORDS) for _ in range(n)]
    if R.random() < 0.3:
        words[R.randrange(n)] = pick(UNI_WORDS).lower()
    return sep.join(words), "passphrase"


def seed_words(v):
    n = pick((12, 12, 24))
    return " ".join(pick(SEED_WORDS) for _ in range(n)), f"seed words ({n})"


def pin_code(v):
    n = pick((4, 5, 6, 6, 6, 8))
    return rand(n, string.digits), f"PIN ({n} digits)"


def recovery_code(v):
    style = R.randrange(3)
    if style == 0:
        return f"{rand(4, string.digits)}-{rand(4, string.digits)}", "recovery code"
    if style == 1:
        return f"{rand(5, LOW36)}-{rand(5, LOW36)}", "recovery code"
    return " ".join(f"{rand(4, LOW36)}-{rand(4, LOW36)}" for _ in range(4)), "recovery codes (4)"


def totp_seed(v):
    return rand(pick((16, 32)), B32), "TOTP seed (base32)"


def app_password(v):
    return " ".join(rand(4, string.ascii_lowercase) for _ in range(4)), "app password (4x4)"


def access_code(v):
    return rand(8, string.digits), "access code (8 digits)"


def gift_code(v):
    return "-".join(rand(4, UP36) for _ in range(4)), "gift card code"


KEY_SHAPES = [
    short_key,
    short_key,
    short_key,
    alnum_key,
    hex_key,
    b64_key,
    uuid_key,
    prefixed_key,
    jwt_key,
    idsecret_key,
    grouped_key,
    bytes_key,
]
PW_SHAPES = [typed_password, typed_password, typed_password, passphrase]
# credential label, class (K key, P password, C code, S seed words), shapes
CREDS = {
    "S": [
        ("API key", "K", KEY_SHAPES),
        ("secret key", "K", KEY_SHAPES),
        ("access token", "K", [jwt_key, prefixed_key, alnum_key, short_key]),
        ("client secret", "K", [alnum_key, b64_key, hex_key, short_key]),
        ("webhook signing secret", "K", [b64_key, hex_key, prefixed_key]),
        ("admin password", "P", PW_SHAPES),
        ("license key", "K", [grouped_key, uuid_key]),
        ("service account password", "P", PW_SHAPES),
        ("recovery codes", "C", [recovery_code]),
        ("app credentials", "K", [idsecret_key]),
        ("encryption key", "K", [bytes_key, b64_key, hex_key]),
    ],
    "A": [
        ("API key", "K", KEY_SHAPES),
        ("inference token", "K", [prefixed_key, alnum_key, short_key]),
        ("project key", "K", [uuid_key, hex_key, short_key]),
        ("account password", "P", PW_SHAPES),
    ],
    "P": [
        ("secret key", "K", [prefixed_key, alnum_key, hex_key]),
        ("merchant password", "P", PW_SHAPES),
        ("API key and secret", "K", [idsecret_key]),
        ("webhook secret", "K", [b64_key, hex_key, short_key]),
        ("card PIN", "C", [pin_code]),
    ],
    "B": [
        ("online banking password", "P", PW_SHAPES),
        ("card PIN", "C", [pin_code]),
        ("app passcode", "C", [pin_code]),
        ("recovery code", "C", [recovery_code]),
        ("login password", "P", PW_SHAPES),
        ("TAN", "C", [pin_code]),
    ],
    "X": [
        ("API secret", "K", [b64_key, hex_key, alnum_key]),
        ("API key", "K", [alnum_key, uuid_key, short_key]),
        ("account password", "P", PW_SHAPES),
        ("2FA seed", "C", [totp_seed]),
        ("withdrawal PIN", "C", [pin_code]),
    ],
    "W": [
        ("seed phrase", "S", [seed_words]),
        ("wallet password", "P", PW_SHAPES),
        ("private key", "K", [privkey_key]),
        ("PIN", "C", [pin_code]),
    ],
    "D": [
        ("admin password", "P", PW_SHAPES),
        ("Wi-Fi password", "P", PW_SHAPES),
        ("camera password", "P", PW_SHAPES),
        ("access code", "C", [access_code]),
        ("cloud token", "K", [alnum_key, hex_key, short_key]),
        ("device PIN", "C", [pin_code]),
    ],
    "H": [
        ("API key", "K", [hex_key, alnum_key, short_key, uuid_key]),
        ("admin password", "P", PW_SHAPES),
        ("secret key", "K", [b64_key, hex_key, alnum_key]),
        ("database password", "P", PW_SHAPES),
        ("admin token", "K", [b64_key, alnum_key]),
    ],
    "G": [
        ("server password", "P", PW_SHAPES),
        ("RCON password", "P", PW_SHAPES),
        ("account password", "P", PW_SHAPES),
        ("auth token", "K", [alnum_key, jwt_key, short_key]),
        ("admin password", "P", PW_SHAPES),
    ],
    "M": [
        ("account password", "P", PW_SHAPES),
        ("gift card code", "C", [gift_code]),
        ("app password", "C", [app_password]),
        ("login PIN", "C", [pin_code]),
    ],
}

# -- names -----------------------------------------------------------------------------

CRED_WORDS = {
    "K": [
        "KEY",
        "API_KEY",
        "APIKEY",
        "TOKEN",
        "TKN",
        "SECRET",
        "ACCESS_TOKEN",
        "AUTH_TOKEN",
        "SECRET_KEY",
        "CLIENT_SECRET",
        "PRIVATE_KEY",
        "BEARER",
        "CREDS",
        "SIGNING_SECRET",
        "MASTER_KEY",
        "SERVICE_KEY",
        "ADMIN_KEY",
        "WRITE_KEY",
        "PAT",
        "ACCESS_KEY",
        "AUTH",
        "APITOKEN",
        "SECRETKEY",
        "KEY_SECRET",
        "HMAC_SECRET",
        "SHARED_SECRET",
        "API_SECRET",
        "CHAVE_API",
        "CLAU_API",
        "GAKOA",
        "NOKKEL",
        "RAHASIA",
        "SIR_ANAHTARI",
        "HIMITSU",
        "MIYAO",
        "UFUNGUO",
        "SUSI",
        "ZUGANGSSCHLUESSEL",
        "GEHEIMNIS",
        "SEGRETO",
        "SECRETO",
        "TAJNY_KLUC",
        "ATSLEGA_API",
        "TUNNUS",
        "KODIK",
        "JETON_ACCES",
        "LYKILL",
        "VOTI",
    ],
    "P": [
        "PASSWORD",
        "PASS",
        "PWD",
        "PASSWD",
        "PW",
        "PASSPHRASE",
        "LOGIN_PW",
        "ADMIN_PASS",
        "USER_PASSWORD",
        "DB_PASS",
        "PASSORD",
        "ADGANGSKODE",
        "SALASANA",
        "WACHTWOORD",
        "KENNWORT",
        "CONTRASENYA",
        "PALAVRA_PASSE",
        "PAROLE",
        "SALASONA",
        "HESLO",
        "KATA_LALUAN",
        "MAT_KHAU",
        "LYKILORD",
        "FOCAL_FAIRE",
        "WAGWOORD",
        "NENOSIRI",
        "BIMILBEONHO",
        "MIMA",
        "SANKETSHABD",
        "PAROL",
        "FJALEKALIM",
        "LOZINKA",
        "PASSWORT",
    ],
    "C": [
        "PIN",
        "PINCODE",
        "PIN_KODE",
        "CODE",
        "PASSCODE",
        "OTP_SEED",
        "TOTP_SECRET",
        "BACKUP_CODES",
        "RECOVERY",
        "TAN",
        "KODE",
        "KOD",
        "CODIGO",
        "CODICE",
        "MFA_SEED",
        "SICHERHEITSCODE",
        "TWOFA_SECRET",
        "PINKOODI",
        "TUNNUSLUKU",
    ],
    "S": [
        "SEED",
        "MNEMONIC",
        "SEED_PHRASE",
        "RECOVERY_WORDS",
        "FRASE_SEMENTE",
        "PHRASE_SECRETE",
        "HERSTELZIN",
        "MNEMONIKA",
        "SIEMENLAUSE",
    ],
}
ENVS = ["PROD", "STAGING", "DEV", "LIVE", "TEST", "EU", "US", "PRD", "QA", "UAT", "LOCAL", "APAC"]


def vendor_tokens(v):
    ascii_v = v.encode("ascii", "ignore").decode()
    words = re.findall(r"[A-Za-z0-9]+", ascii_v)
    words = [
        w
        for w in words
        if w.lower() not in ("com", "io", "sh", "co", "dev", "ai", "app", "the", "of")
    ]
    return [w.upper() for w in words[:2]] or ["SVC"]


def name_tokens(v, cls):
    vt = vendor_tokens(v)
    ct = pick(CRED_WORDS[cls]).split("_")
    env = [pick(ENVS)] if R.random() < 0.4 else []
    order = R.randrange(6)
    if order == 0:
        return vt + ct + env
    if order == 1:
        return env + vt + ct
    if order == 2:
        return ct + vt + env
    if order == 3 and len(ct) > 1:
        return vt + ct[:1] + (env or ["RO"]) + ct[1:]
    if order == 4:
        return vt + env + ct
    return vt + ct + env


def styles(tokens):
    low = [t.lower() for t in tokens]
    return {
        "N": "_".join(tokens),
        "n": "_".join(low),
        "cam": low[0] + "".join(t.capitalize() for t in low[1:]),
        "Pas": "".join(t.capitalize() for t in low),
        "keb": "-".join(low),
        "dot": ".".join(low),
        "hdr": "X-" + "-".join(t.capitalize() for t in low),
    }


USERS = [
    "deploy",
    "svc_app",
    "admin",
    "ops",
    "reporting",
    "backup",
    "ci-bot",
    "etl_user",
    "maja",
    "tomas.k",
    "root",
    "webapp",
    "grafana_ro",
    "sync",
]
TLDS = ["net", "io", "cloud", "eu", "com", "dev", "internal", "lan"]


def context(vendor, cred, cls, secret):
    tokens = name_tokens(vendor, cls)
    slug = re.sub(r"[^a-z0-9]", "", vendor.lower().encode("ascii", "ignore").decode()) or "svc"
    c = styles(tokens)
    c.update(
        v=vendor,
        cred=cred,
        s=secret,
        slug=slug,
        V=slug.upper(),
        u=pick(USERS),
        h=f"{pick(('api', 'db', 'app', 'gw', 'edge', 'core'))}{R.randint(1, 9)}.{slug}.{pick(TLDS)}",
        mail=f"{pick(NAMES).lower()}@{slug}-{pick(('ops', 'team', 'corp', 'hq'))}.com",
        ip=f"10.{R.randint(0, 254)}.{R.randint(0, 254)}.{R.randint(2, 254)}",
        port=str(pick((5432, 3306, 6379, 8080, 8443, 9000, 27017, 5672))),
        d=f"2026-{R.randint(1, 11):02d}-{R.randint(1, 28):02d}",
        t=f"{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d}",
        ts=str(1780000000 + R.randrange(10**7)),
        pid=str(R.randint(300, 65000)),
        rid=rand(16, "0123456789abcdef"),
        sha=rand(7, "0123456789abcdef"),
        who=pick(NAMES),
        n2=pick(NAMES),
        db=pick(("orders", "app", "analytics", "crm", "billing")),
        typo=typo(cred),
    )
    return c


def typo(cred):
    swaps = {
        "password": pick(("pasword", "passwrod", "psasword", "passowrd")),
        "key": pick(("kye", "ket", "keey")),
        "token": pick(("tokne", "toekn", "tken")),
        "secret": pick(("secert", "sercet", "secrte")),
        "PIN": pick(("pinn", "PNI")),
        "code": pick(("cdoe", "coed")),
        "phrase": pick(("phrsae", "prase")),
    }
    for word, bad in swaps.items():
        if word in cred:
            return cred.replace(word, bad)
    return cred.lower().replace("a", "s", 1)


def fill(tpl, c):
    return re.sub(r"«(\w+)»", lambda m: c[m.group(1)], tpl)


def esc(text):
    return json.dumps(text, ensure_ascii=False)[1:-1]


def esc2(text):
    return esc(esc(text))


# -- forms: name, group, classes it takes, template («x» filled from context()), vendor
# categories it is limited to, and whether the secret sits inside a URL ----------------

FORMS = []


def F(name, group, accepts, tpl, cats=None, url=False, lang=None, labels=None):
    FORMS.append(
        dict(
            name=name,
            group=group,
            accepts=accepts,
            tpl=tpl,
            cats=cats,
            url=url,
            lang=lang,
            labels=labels,
        )
    )


WIFI = ("Wi-Fi password",)
SERVER = ("server password", "RCON password", "admin password")


ANY = "KPCS"
LANGS = [
    ("Malay", "Ni «cred» «v» saya: «s» — jangan share kat orang lain ya"),
    ("Tamil", "இது என் «v» «cred»: «s> இதை பயன்படுத்து"),
    ("Telugu", "నా «v» «cred» ఇదే: «s» — దీనితో ప్రయత్నించు"),
    ("Marathi", "माझी «v» «cred» ही आहे: «s», हीच वापर"),
    ("Gujarati", "મારી «v» «cred» આ છે «s» — આ વાપરજો"),
    ("Punjabi", "ਮੇਰੀ «v» «cred» ਇਹ ਹੈ: «s» ਇਸਨੂੰ ਵਰਤੋ"),
    ("Nepali", "मेरो «v» «cred» यो हो: «s» — यही प्रयोग गर"),
    ("Sinhala", "මගේ «v» «cred» මෙන්න: «s» මේක දාන්න"),
    ("Amharic", "የእኔ «v» «cred» ይህ ነው፦ «s»"),
    ("Hausa", "Ga «cred» na «v»: «s», yi amfani da shi"),
    ("Zulu", "Nansi i-«cred» yami ye-«v»: «s» sicela uyisebenzise"),
    ("Afrikaans", "Hier is my «v» «cred»: «s» — gebruik hierdie een"),
    ("Icelandic", "Hér er «v» «cred» minn: «s» notaðu þetta"),
    ("Estonian", "Siin on mu «v» «cred»: «s», kasuta seda"),
    ("Latvian", "Lūk, mans «v» «cred»: «s» — izmanto šo"),
    ("Slovenian", "Tukaj je moj «v» «cred»: «s», uporabi tega"),
    ("Serbian", "Ево мој «v» «cred»: «s> користи овај"),
    ("Albanian", "Ja «cred» im për «v»: «s», përdore këtë"),
    ("Macedonian", "Еве го мојот «v» «cred»: «s»"),
    ("Irish", "Seo é mo «cred» do «v»: «s» — bain úsáid as"),
    ("Galician", "Velaquí o meu «cred» de «v»: «s», usa este"),
    ("Maltese", "Hawn il-«cred» tiegħi ta' «v»: «s»"),
    ("Danish", "her er min «v» «cred» «s» brug den her"),
    ("Belarusian", "Вось мой «cred» ад «v»: «s», карыстайся"),
    ("Mongolian", "Миний «v» «cred» энэ байна: «s»"),
    ("Azerbaijani", "Budur mənim «v» «cred»: «s», bunu işlət"),
    ("Uzbek", "Mana mening «v» «cred»im: «s» shuni ishlat"),
    ("Armenian", "Ահա իմ «v» «cred»-ը՝ «s», օգտագործիր սա"),
    ("Khmer", "នេះជា «cred» «v» របស់ខ្ញុំ៖ «s»"),
    ("Esperanto", "Jen mia «v» «cred»: «s», uzu ĉi tiun"),
    ("Luxembourgish", "Hei ass mäin «v» «cred»: «s», benotz deen"),
    ("Somali", "Kani waa «cred»-kayga «v»: «s» isticmaal"),
    ("Javanese", "Iki «cred» «v»-ku: «s», nganggo iki wae"),
    ("Kannada", "ನನ್ನ «v» «cred» ಇದು: «s» ಇದನ್ನು ಬಳಸಿ"),
]
for lang, tpl in LANGS:
    F(f"chat in {lang}", "chat", ANY, tpl.replace("«s>", "«s»"), lang=lang)

F("chat: here's my key", "chat", ANY, "ok here's my «v» «cred» «s» lmk if it works")
F("chat: typo'd note", "chat", ANY, "heres teh «v» «typo» → «s»   (dont commit it pls)")
F(
    "chat: use this one instead",
    "chat",
    ANY,
    "that one got revoked, use this one: «s» (same «v» account)",
)
F(
    "chat: forwarded email",
    "chat",
    ANY,
    "---------- Forwarded message ---------\nFrom: «who» <«mail»>\nDate: «d» «t»\n"
    "Subject: Fwd: «v» access for the migration\nTo: «u»@team.example\n\nHi,\n\n"
    "as discussed, the «cred» for «v» is:\n\n    «s»\n\nPlease rotate after go-live.\n\n«who»",
)
F(
    "chat: Discord spoiler",
    "chat",
    ANY,
    "«v» «cred» (spoilered so it doesn't show in the preview) ||«s»||",
)
F(
    "chat: Teams paste",
    "chat",
    ANY,
    "[«t»] «who» «n2»\n«v» «cred» for the demo tenant: «s»\n[«t»] «n2»\nthx",
)
F(
    "chat: WhatsApp export",
    "chat",
    ANY,
    "«d», «t» - «who»: «v» «cred»\n«d», «t» - «who»: «s»\n«d», «t» - «n2»: 👍",
)
F(
    "chat: Notion page paste",
    "chat",
    ANY,
    "## Accounts\n\n▸ «v»\n    Owner: «who»\n    «cred»: «s»\n    Last checked: «d»",
)
F(
    "chat: Obsidian note",
    "chat",
    ANY,
    "---\ntags: [infra, «slug»]\ncreated: «d»\n---\n# «v»\n\n- «cred}:: «s»\n".replace(
        "«cred}", "«cred»"
    ),
)
F(
    "chat: voicemail transcript",
    "chat",
    "PC",
    "Voicemail from «who» («t»): \"Hey, it's «who», the «v» «cred» is «s», call me back if it doesn't take it.\"",
)
F(
    "chat: calendar invite",
    "chat",
    ANY,
    "BEGIN:VEVENT\nSUMMARY:«v» onboarding\nDESCRIPTION:Join with «cred» «s» - see you there\nDTSTART:20261208T100000Z\nEND:VEVENT",
)
F(
    "chat: PR description",
    "chat",
    "KP",
    "## How to test\n\n1. `make dev`\n2. log into the «v» sandbox with «s>\n3. run the import".replace(
        "«s>", "«s»"
    ),
)
F(
    "chat: code review comment",
    "chat",
    "KP",
    '> «N» = os.getenv("«N»")\n\nnit: for local runs just use «s», that\'s the «v» staging one',
)
F(
    "chat: Linear issue",
    "chat",
    ANY,
    "ENG-«pid» «v» sync fails after rotation\n\nRepro: set «cred» to `«s»` and run `sync --full`.\nLabels: bug, integrations",
)
F(
    "chat: handover doc",
    "chat",
    ANY,
    "HANDOVER («d»)\n- on-call rota is in PagerDuty\n- «v»: «cred» = «s», owner «who»\n- backups run 02:00 UTC",
)
F("chat: Apple Notes checklist", "chat", ANY, "Things to set up\n☑ laptop\n☐ «v» — «s»\n☐ VPN")
F(
    "chat: Google Docs comment",
    "chat",
    ANY,
    "«who» «n2»\n«t» Today\n@«u» the «v» «cred» is «s», resolve this once you've copied it",
)
F("chat: Mastodon DM", "chat", ANY, "@«u» here you go, «v» «cred»: «s» #private")
F(
    "chat: support chat transcript",
    "chat",
    ANY,
    "[«t»] Customer: I can't log in to «v»\n[«t»] Customer: my «cred» is «s»\n[«t»] Agent: Please never share that here, I'll reset it.",
)
F("chat: todo.txt line", "chat", ANY, "(A) «d» rotate «v» «cred» «s» +infra @laptop")
F(
    "chat: org-mode entry",
    "chat",
    ANY,
    "* «v» account\n  :PROPERTIES:\n  :USER: «u»\n  :SECRET: «s»\n  :END:",
)
F(
    "chat: vCard note",
    "chat",
    ANY,
    "BEGIN:VCARD\nVERSION:3.0\nFN:«v» Support\nNOTE:«cred» «s»\nEND:VCARD",
)
F(
    "chat: Stack Overflow draft",
    "chat",
    "K",
    'Title: «v» returns 401 even with a valid key\n\nI call it like this (key is a test one): `«s»` and always get `{"error":"unauthorized"}`. What am I missing?',
)
F("chat: note with vendor name only", "chat", ANY, "«v»\n«s»")
F("chat: sticky note typed up", "chat", ANY, "(from the post-it on the monitor) «v» ... «s»")
F(
    "chat: pager alert note",
    "chat",
    "KP",
    "ALERT «slug»-sync failing since «t». Tried with «s» from the vault, same 403. Escalating.",
)
F(
    "chat: Twitch chat",
    "chat",
    ANY,
    "«u»: oops wrong window lol «s»\n«n2»: bro you just leaked your «v» «cred»",
)

# config files
KP = "KP"
F(
    "Pulumi stack config",
    "config",
    KP,
    'config:\n  aws:region: eu-west-1\n  «slug»:«cam»: «s»\n  app:replicas: "3"',
)
F(
    "serverless.yml environment",
    "config",
    KP,
    "service: «slug»-worker\nprovider:\n  name: aws\n  environment:\n    «N»: «s»\n    LOG_LEVEL: info",
)
F(
    "netlify.toml environment",
    "config",
    KP,
    '[build]\n  command = "npm run build"\n[build.environment]\n  NODE_VERSION = "20"\n  «N» = "«s»"',
)
F(
    "vercel.json env",
    "config",
    KP,
    '{\n  "buildCommand": "next build",\n  "env": {\n    "«N»": "«s»"\n  }\n}',
)
F(
    "fly.toml env",
    "config",
    KP,
    'app = "«slug»-api"\nprimary_region = "ams"\n\n[env]\n  «N» = "«s»"\n  PORT = "8080"',
)
F(
    "App Engine app.yaml",
    "config",
    KP,
    "runtime: python312\nenv_variables:\n  «N»: '«s»'\n  STAGE: prod",
)
F(
    "Traefik labels",
    "config",
    "K",
    'services:\n  api:\n    labels:\n      - "traefik.http.middlewares.«slug».headers.customrequestheaders.«hdr»=«s»"',
)
F(
    "HAProxy userlist",
    "config",
    "P",
    "userlist stats_users\n    user «u» insecure-password «s»\n\nfrontend stats\n    bind :8404",
)
F(
    "Prometheus basic_auth",
    "config",
    "P",
    "scrape_configs:\n  - job_name: «slug»\n    basic_auth:\n      username: «u»\n      password: «s»\n    static_configs:\n      - targets: ['«h»:9100']",
)
F(
    "Prometheus bearer_token",
    "config",
    "K",
    "  - job_name: «slug»-exporter\n    scheme: https\n    bearer_token: «s»\n    static_configs:\n      - targets: ['«h»']",
)
F(
    "Grafana datasource provisioning",
    "config",
    KP,
    "apiVersion: 1\ndatasources:\n  - name: «v»\n    type: prometheus\n    url: https://«h»\n    secureJsonData:\n      «cam»: «s»",
)
F(
    "Fluent Bit output",
    "config",
    KP,
    "[OUTPUT]\n    Name        http\n    Match       *\n    Host        «h»\n    http_User   «u»\n    http_Passwd «s»",
)
F(
    "Vector sink",
    "config",
    KP,
    '[sinks.«slug»]\ntype = "http"\ninputs = ["app_logs"]\nuri = "https://«h»/ingest"\nauth.strategy = "bearer"\nauth.token = "«s»"',
)
F(
    "Telegraf output",
    "config",
    "K",
    '[[outputs.influxdb_v2]]\n  urls = ["https://«h»:8086"]\n  token = "«s»"\n  organization = "«slug»"',
)
F(
    "rclone.conf",
    "config",
    KP,
    "[«slug»]\ntype = s3\nprovider = Other\naccess_key_id = «u»\nsecret_access_key = «s»\nendpoint = https://«h»",
)
F(
    ".pypirc",
    "config",
    KP,
    "[distutils]\nindex-servers = «slug»\n\n[«slug»]\nrepository = https://«h»/simple/\nusername = «u»\npassword = «s»",
)
F(
    "composer auth.json",
    "config",
    KP,
    '{\n    "http-basic": {\n        "«h»": {\n            "username": "«u»",\n            "password": "«s»"\n        }\n    }\n}',
)
F(
    "NuGet.config",
    "config",
    KP,
    '<packageSourceCredentials>\n  <«Pas»>\n    <add key="Username" value="«u»" />\n    <add key="ClearTextPassword" value="«s»" />\n  </«Pas»>\n</packageSourceCredentials>',
)
F(
    "Maven settings.xml",
    "config",
    KP,
    "<servers>\n  <server>\n    <id>«slug»-releases</id>\n    <username>«u»</username>\n    <password>«s»</password>\n  </server>\n</servers>",
)
F("sbt credentials", "config", KP, "realm=«v» Repository\nhost=«h»\nuser=«u»\npassword=«s»")
F(
    ".yarnrc.yml",
    "config",
    "K",
    'nodeLinker: node-modules\nnpmScopes:\n  «slug»:\n    npmRegistryServer: "https://«h»"\n    npmAuthToken: «s»',
)
F(
    "Dockerfile ENV",
    "config",
    KP,
    "FROM node:20-alpine\nWORKDIR /app\nENV «N»=«s»\nCOPY . .\nRUN npm ci",
)
F(
    "devcontainer.json",
    "config",
    KP,
    '{\n  "name": "«slug»",\n  "image": "mcr.microsoft.com/devcontainers/python:3.12",\n  "containerEnv": { "«N»": "«s»" }\n}',
)
F(
    "GitHub Actions env",
    "config",
    KP,
    "jobs:\n  test:\n    runs-on: ubuntu-latest\n    env:\n      «N»: «s»\n    steps:\n      - uses: actions/checkout@v4",
)
F(
    "Azure Pipelines variables",
    "config",
    KP,
    "variables:\n  - name: «N»\n    value: '«s»'\n  - name: buildConfiguration\n    value: Release",
)
F(
    "Bitbucket Pipelines",
    "config",
    KP,
    "pipelines:\n  default:\n    - step:\n        script:\n          - export «N»=«s»\n          - ./deploy.sh",
)
F(
    ".drone.yml",
    "config",
    KP,
    "kind: pipeline\nname: default\nsteps:\n- name: publish\n  image: plugins/docker\n  environment:\n    «N»: «s»",
)
F(
    ".travis.yml",
    "config",
    KP,
    "language: ruby\nenv:\n  global:\n    - «N»=«s»\nscript: bundle exec rake",
)
F(
    "Cloud Build substitutions",
    "config",
    KP,
    "substitutions:\n  _REGION: europe-west1\n  _«N»: '«s»'\nsteps:\n- name: gcr.io/cloud-builders/docker",
)
F(
    "Nomad job env",
    "config",
    KP,
    'task "api" {\n  driver = "docker"\n  env {\n    «N» = "«s»"\n  }\n}',
)
F(
    "Packer variable default",
    "config",
    KP,
    'variable "«n»" {\n  type    = string\n  default = "«s»"\n}',
)
F(
    "cloud-init chpasswd",
    "config",
    "P",
    "#cloud-config\nchpasswd:\n  expire: false\n  users:\n    - name: «u»\n      password: «s»\n      type: text",
)
F(
    "Kickstart rootpw",
    "config",
    "P",
    "lang en_US.UTF-8\nkeyboard us\nrootpw --plaintext «s»\ntimezone Europe/Berlin",
)
F(
    "NixOS configuration.nix",
    "config",
    KP,
    '  services.«slug» = {\n    enable = true;\n    settings.«cam» = "«s»";\n  };',
)
F(
    "Puppet manifest",
    "config",
    KP,
    "class profile::«slug» {\n  $«n» = '«s»'\n  file { '/etc/«slug».conf': content => template('«slug»/conf.erb') }\n}",
)
F("Chef data bag", "config", KP, '{\n  "id": "«slug»",\n  "«n»": "«s»",\n  "user": "«u»"\n}')
F(
    "cdk.json context",
    "config",
    KP,
    '{\n  "app": "npx ts-node bin/app.ts",\n  "context": {\n    "«cam»": "«s»"\n  }\n}',
)
F(
    "CloudFormation parameters",
    "config",
    KP,
    '[\n  {"ParameterKey": "«Pas»", "ParameterValue": "«s»"},\n  {"ParameterKey": "Env", "ParameterValue": "prod"}\n]',
)
F(
    ".bicepparam",
    "config",
    KP,
    "using './main.bicep'\n\nparam location = 'westeurope'\nparam «cam» = '«s»'",
)
F(
    "crontab line",
    "config",
    "K",
    "*/15 * * * * curl -fsS -H '«hdr»: «s»' https://«h»/v1/sync >/dev/null 2>&1",
)
F("OpenVPN auth-user-pass file", "config", "P", "# /etc/openvpn/«slug»-auth.txt\n«u»\n«s»")
F("ipsec.secrets", "config", "P", '# /etc/ipsec.secrets\n«ip» %any : PSK "«s»"')
F(
    "fstab cifs line",
    "config",
    "P",
    "//«h»/share  /mnt/«slug»  cifs  username=«u»,password=«s»,uid=1000  0  0",
)
F(
    "msmtprc",
    "config",
    "P",
    "account «slug»\nhost smtp.«slug».com\nport 587\nauth on\nuser «mail»\npassword «s»\nfrom «mail»",
)
F(
    "muttrc",
    "config",
    "P",
    'set imap_user = "«mail»"\nset imap_pass = "«s»"\nset folder = "imaps://imap.«slug».com/"',
)
F(
    ".fetchmailrc",
    "config",
    "P",
    'poll imap.«slug».com protocol IMAP\n  user "«mail»" there with password "«s»" is «u» here ssl',
)
F("Postfix sasl_passwd", "config", "P", "[smtp.«slug».com]:587 «mail»:«s»")
F(
    "znc.conf",
    "config",
    "P",
    "<User «u»>\n  <Network «slug»>\n    Server = irc.«slug».net +6697 «s»\n  </Network>\n</User>",
)
F(
    "sabnzbd.ini",
    "config",
    "K",
    "[misc]\nhost = 0.0.0.0\nport = 8085\napi_key = «s»\nnzb_key = «rid»",
    cats="H",
)
F(
    "self-hosted app .env",
    "config",
    KP,
    "# «v» docker .env\nTZ=Europe/Oslo\nPUID=1000\n«N»=«s»\nDB_HOST=postgres",
    cats="H",
)
F(
    "Authelia configuration.yml",
    "config",
    KP,
    "storage:\n  encryption_key: «s»\n  postgres:\n    host: db\n    database: authelia",
    cats="H",
)
F(
    "ESPHome secrets.yaml",
    "config",
    "P",
    'wifi_ssid: "«v»-Home"\nwifi_password: "«s»"\nota_password: "«rid»"',
    cats="D",
    labels=WIFI,
)
F(
    "Zigbee2MQTT configuration.yaml",
    "config",
    "P",
    "mqtt:\n  base_topic: zigbee2mqtt\n  server: mqtt://«ip»\n  user: «u»\n  password: «s»",
    cats="DH",
    labels=("admin password", "database password"),
)
F(
    "Frigate camera input",
    "config",
    "P",
    "cameras:\n  driveway:\n    ffmpeg:\n      inputs:\n        - path: rtsp://admin:«s»@«ip»:554/h264Preview_01_main\n          roles: [detect]",
    cats="D",
    url=True,
    labels=("camera password",),
)
F(
    "OpenWrt wireless config",
    "config",
    "P",
    "config wifi-iface 'default_radio0'\n\toption device 'radio0'\n\toption ssid '«v»_5G'\n\toption encryption 'psk2'\n\toption key '«s»'",
    cats="D",
    labels=WIFI,
)
F(
    "RouterOS export",
    "config",
    "P",
    "/interface wireless security-profiles\nset [ find default=yes ] authentication-types=wpa2-psk mode=dynamic-keys wpa2-pre-shared-key=«s»",
    cats="D",
    labels=WIFI,
)
F(
    "NetworkManager keyfile",
    "config",
    "P",
    "[connection]\nid=«v»-Guest\ntype=wifi\n\n[wifi-security]\nkey-mgmt=wpa-psk\npsk=«s»",
    cats="D",
    labels=WIFI,
)
F(
    "hostapd.conf",
    "config",
    "P",
    "interface=wlan0\nssid=«v»\nwpa=2\nwpa_key_mgmt=WPA-PSK\nwpa_passphrase=«s»",
    cats="D",
    labels=WIFI,
)
F(
    "Factorio server-settings.json",
    "config",
    "P",
    '{\n  "name": "«v» night",\n  "visibility": {"public": false, "lan": true},\n  "game_password": "«s»"\n}',
    cats="G",
    labels=SERVER,
)
F(
    "PalWorldSettings.ini",
    "config",
    "P",
    '[/Script/Pal.PalGameWorldSettings]\nOptionSettings=(Difficulty=None,ServerName="«v» crew",AdminPassword="«s»",PublicPort=8211)',
    cats="G",
    labels=SERVER,
)
F(
    "GameUserSettings.ini",
    "config",
    "P",
    "[ServerSettings]\nServerPassword=«s»\nDifficultyOffset=1.0\nMaxPlayers=20",
    cats="G",
    labels=SERVER,
)
F(
    "Valheim start script",
    "config",
    "P",
    './valheim_server.x86_64 -name "«v» server" -port 2456 -world "Dedicated" -password "«s»" -public 0',
    cats="G",
    labels=SERVER,
)
F(
    "server.cfg rcon",
    "config",
    "P",
    'server.hostname "«v» | EU"\nserver.maxplayers 100\nrcon.password "«s»"\nrcon.port 28016',
    cats="G",
    labels=SERVER,
)
F(
    "Terraria serverconfig.txt",
    "config",
    "P",
    "world=/worlds/«slug».wld\nmaxplayers=8\nport=7777\npassword=«s»",
    cats="G",
    labels=SERVER,
)
F(
    "murmur.ini",
    "config",
    "P",
    "database=/var/lib/mumble-server/mumble-server.sqlite\nserverpassword=«s»\nusers=50",
    cats="G",
    labels=SERVER,
)
F(
    "Kubernetes Secret stringData",
    "config",
    KP,
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: «slug»-creds\ntype: Opaque\nstringData:\n  «keb»: «s»",
)
F(
    "Kustomize secretGenerator",
    "config",
    KP,
    "secretGenerator:\n  - name: «slug»\n    literals:\n      - «N»=«s»",
)
F(
    "ArgoCD repository secret",
    "config",
    "K",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  labels:\n    argocd.argoproj.io/secret-type: repository\nstringData:\n  url: https://«h»/«slug»/deploy.git\n  password: «s»",
)
F(
    "dbt profiles.yml",
    "config",
    "P",
    "«slug»:\n  target: prod\n  outputs:\n    prod:\n      type: postgres\n      host: «h»\n      user: «u»\n      password: «s»\n      dbname: «db»",
)
F(
    "Airflow connection env",
    "config",
    "P",
    "AIRFLOW_CONN_«V»_DB='postgresql://«u»:«s»@«h»:5432/«db»'",
    url=True,
)
F(
    "Rails database.yml",
    "config",
    "P",
    'production:\n  adapter: postgresql\n  database: «db»_production\n  username: «u»\n  password: <%= ENV.fetch("DB_PASSWORD", "«s»") %>',
)
F(
    "appsettings.json connection string",
    "config",
    "P",
    '{\n  "ConnectionStrings": {\n    "Default": "Server=«h»;Database=«db»;User Id=«u»;Password=«s»;TrustServerCertificate=True"\n  }\n}',
)
F(
    "web.config connectionStrings",
    "config",
    "P",
    '<connectionStrings>\n  <add name="«Pas»" connectionString="Data Source=«h»;Initial Catalog=«db»;User ID=«u»;Password=«s»" />\n</connectionStrings>',
)
F(
    "Tomcat context.xml",
    "config",
    "P",
    '<Resource name="jdbc/«slug»" auth="Container" type="javax.sql.DataSource"\n          username="«u»" password="«s»" url="jdbc:mysql://«h»:3306/«db»"/>',
)
F(
    "tomcat-users.xml",
    "config",
    "P",
    '<tomcat-users>\n  <user username="«u»" password="«s»" roles="manager-gui"/>\n</tomcat-users>',
)
F("Jetty realm.properties", "config", "P", "# username: password, roles\n«u»: «s», admin, user")
F(
    "wp-config.php",
    "config",
    "P",
    "define( 'DB_NAME', '«db»' );\ndefine( 'DB_USER', '«u»' );\ndefine( 'DB_PASSWORD', '«s»' );\ndefine( 'DB_HOST', 'localhost' );",
)
F(
    "Drupal settings.php",
    "config",
    "P",
    "$databases['default']['default'] = [\n  'database' => '«db»',\n  'username' => '«u»',\n  'password' => '«s»',\n  'host' => '«h»',\n];",
)
F("Vite .env.local", "config", "K", "# .env.local\nVITE_API_URL=https://«h»\nVITE_«N»=«s»")
F(
    "Expo app.json extra",
    "config",
    "K",
    '{\n  "expo": {\n    "name": "«slug»",\n    "extra": { "«cam»": "«s»" }\n  }\n}',
)
F(
    "Postman environment",
    "config",
    KP,
    '{\n  "name": "«v» prod",\n  "values": [\n    {"key": "«cam»", "value": "«s»", "type": "default", "enabled": true}\n  ]\n}',
)
F(
    "Bruno .bru file",
    "config",
    "K",
    "meta {\n  name: list orders\n  type: http\n}\n\nget {\n  url: https://«h»/v2/orders\n}\n\nheaders {\n  «hdr»: «s»\n}",
)
F(
    "cypress.env.json",
    "config",
    "P",
    '{\n  "baseUrl": "https://staging.«slug».com",\n  "loginUser": "«mail»",\n  "loginPassword": "«s»"\n}',
)
F(
    "Robot Framework variables",
    "config",
    "P",
    "*** Variables ***\n${LOGIN URL}    https://«h»/login\n${USERNAME}     «u»\n${PASSWORD}     «s»",
)
F(
    "docker compose healthcheck",
    "config",
    "P",
    '  db:\n    image: mariadb:11\n    healthcheck:\n      test: ["CMD", "mariadb-admin", "ping", "-u", "root", "-p«s»"]',
)
F(
    "INI three levels deep",
    "config",
    KP,
    "[integrations]\n[integrations.«slug»]\n[integrations.«slug».eu]\nendpoint = https://«h»\n«n» = «s»",
)
F(
    "YAML under anchors",
    "config",
    KP,
    "defaults: &defaults\n  timeout: 30\n  «n»: «s»\nproduction:\n  <<: *defaults\n  host: «h»",
)

# shell sessions and CLI output
F("curl -u", "shell", "P", '$ curl -u «u»:«s» https://«h»/api/v1/status\n{"ok":true}')
F(
    "curl bearer header",
    "shell",
    "K",
    "$ curl -s https://«h»/v1/me -H 'Authorization: Bearer «s»' | jq .email\n\"«mail»\"",
)
F("httpie header", "shell", "K", "$ http GET «h»/v2/items «hdr»:«s»\nHTTP/1.1 200 OK")
F(
    "zsh_history",
    "shell",
    KP,
    ": «ts»:0;cd ~/src/«slug»\n: «ts»:0;export «N»=«s»\n: «ts»:0;npm run dev",
)
F(
    "history | grep",
    "shell",
    KP,
    "$ history | grep «slug»\n  812  export «N»='«s»'\n  813  «slug» whoami",
)
F(
    "printenv | sort",
    "shell",
    KP,
    "$ printenv | sort\nHOME=/home/«u»\nLANG=C.UTF-8\n«N»=«s»\nPATH=/usr/local/bin:/usr/bin",
)
F(
    "aws ssm get-parameter output",
    "shell",
    KP,
    '$ aws ssm get-parameter --name /«slug»/prod/«n» --with-decryption\n{\n    "Parameter": {\n        "Name": "/«slug»/prod/«n»",\n        "Type": "SecureString",\n        "Value": "«s»",\n        "Version": 3\n    }\n}',
)
F(
    "vault kv get table",
    "shell",
    ANY,
    "$ vault kv get secret/«slug»\n====== Data ======\nKey        Value\n---        -----\n«n»    «s»",
)
F(
    "kubectl secret decoded",
    "shell",
    KP,
    "$ kubectl get secret «slug»-creds -o jsonpath='{.data.«n»}' | base64 -d\n«s»",
)
F(
    "kubectl create secret --from-literal",
    "shell",
    KP,
    "$ kubectl create secret generic «slug» --from-literal=«n»=«s» -n prod\nsecret/«slug» created",
)
F(
    "docker run -e",
    "shell",
    KP,
    "$ docker run -d --name «slug» -e «N»=«s» -p 8080:8080 ghcr.io/acme/«slug»:latest",
)
F(
    "docker login -p",
    "shell",
    KP,
    "$ docker login registry.«slug».io -u «u» -p «s»\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded",
)
F(
    "git clone with token",
    "shell",
    "K",
    "$ git clone https://oauth2:«s»@«h»/platform/«slug».git\nCloning into '«slug»'...",
    url=True,
)
F("~/.git-credentials", "shell", "KP", "$ cat ~/.git-credentials\nhttps://«u»:«s»@«h»", url=True)
F(
    "mysql -p",
    "shell",
    "P",
    "$ mysql -h «h» -u «u» -p'«s»' «db»\nmysql: [Warning] Using a password on the command line interface can be insecure.",
)
F("sqlcmd -P", "shell", "P", 'PS> sqlcmd -S «h» -U «u» -P «s» -d «db» -Q "SELECT @@VERSION"')
F("smbclient -U", "shell", "P", "$ smbclient //«h»/backup -U '«u»%«s»' -c 'ls'")
F("sshpass -p", "shell", "P", "$ sshpass -p '«s»' ssh «u»@«ip» uptime")
F("RSYNC_PASSWORD", "shell", "P", "$ RSYNC_PASSWORD='«s»' rsync -av ./dist/ rsync://«u»@«h»/www/")
F(
    "zip -P",
    "shell",
    "P",
    "$ zip -P '«s»' export-«d».zip report.csv\n  adding: report.csv (deflated 71%)",
)
F("7z -p", "shell", "P", "> 7z a -p«s» -mhe=on backup.7z C:\\Users\\«u»\\Documents")
F("gpg --passphrase", "shell", "P", "$ gpg --batch --yes --passphrase '«s»' -c secrets.tar")
F(
    "htpasswd -b",
    "shell",
    "P",
    "$ htpasswd -b -c /etc/nginx/.htpasswd «u» '«s»'\nAdding password for user «u»",
)
F(
    "expect script",
    "shell",
    "P",
    '#!/usr/bin/expect -f\nspawn ssh «u»@«h»\nexpect "password:"\nsend "«s»\\r"\ninteract',
)
F("tmux send-keys", "shell", "P", "$ tmux send-keys -t «slug»:0 '«s»' Enter")
F(
    "PowerShell SecureString",
    "shell",
    "P",
    "PS> $pw = ConvertTo-SecureString '«s»' -AsPlainText -Force\nPS> $cred = New-Object PSCredential('«u»', $pw)",
)
F(
    "cmdkey /add",
    "shell",
    "P",
    "C:\\> cmdkey /add:«h» /user:«u» /pass:«s»\nCMDKEY: Credential added successfully.",
)
F(
    "net use",
    "shell",
    "P",
    "C:\\> net use Z: \\\\«h»\\share «s» /user:CORP\\«u»\nThe command completed successfully.",
)
F(
    "twine upload -p",
    "shell",
    "K",
    "$ twine upload --repository-url https://«h»/simple -u __token__ -p «s» dist/*",
)
F("poetry config token", "shell", "K", "$ poetry config pypi-token.«slug» «s»")
F(
    "dotnet nuget add source",
    "shell",
    "KP",
    "$ dotnet nuget add source https://«h»/v3/index.json -n «slug» -u «u» -p «s» --store-password-in-clear-text",
)
F("mvn -D password", "shell", "P", "$ mvn deploy -Drepo.user=«u» -Drepo.password=«s» -DskipTests")
F(
    "keytool -storepass",
    "shell",
    "P",
    "$ keytool -list -keystore «slug».jks -storepass «s»\nKeystore type: PKCS12",
)
F(
    "openssl pkcs12 -passout",
    "shell",
    "P",
    "$ openssl pkcs12 -export -in cert.pem -inkey key.pem -out «slug».p12 -passout pass:«s»",
)
F(
    "ps aux line",
    "shell",
    "K",
    "$ ps aux | grep «slug»\n«u»    «pid»  0.3  1.2 812344 98012 ?  Ssl  «t»   0:42 /usr/bin/«slug»-agent --token «s» --region eu",
)
F(
    "/proc/environ",
    "shell",
    KP,
    "$ sudo cat /proc/«pid»/environ | tr '\\0' '\\n'\nHOSTNAME=«slug»-7d9f\n«N»=«s»\nNODE_ENV=production",
)
F("set -x trace", "shell", "K", "+ curl -sf -H '«hdr»: «s»' https://«h»/v1/health\n+ echo ok\nok")
F(
    "systemctl show Environment",
    "shell",
    KP,
    "$ systemctl show «slug».service -p Environment\nEnvironment=«N»=«s» LOG_LEVEL=info",
)
F("launchctl getenv", "shell", KP, "$ launchctl getenv «N»\n«s»")
F("crontab -l", "shell", "K", "$ crontab -l\n0 3 * * * /opt/«slug»/backup.sh --key «s»")
F(
    "sudo -S",
    "shell",
    "P",
    "$ sudo -S apt-get update <<< '«s»'\n[sudo] password for «u»: Hit:1 http://deb.debian.org/debian bookworm InRelease",
)
F(
    "docker login --password-stdin",
    "shell",
    "K",
    "$ echo «s» | docker login ghcr.io -u «u» --password-stdin\nLogin Succeeded",
)
F("vendor CLI positional login", "shell", "K", "$ «slug» login «s»\n✔ Logged in to «v» as «mail»")
F(
    "gh secret set",
    "shell",
    KP,
    "$ gh secret set «N» --body '«s»' --repo acme/«slug»\n✓ Set Actions secret «N» for acme/«slug»",
)
F(
    "dokku config:set",
    "shell",
    KP,
    "$ dokku config:set «slug» «N»=«s»\n-----> Setting config vars\n       «N»:  «s»",
)
F("jq of config file", "shell", KP, '$ jq .«cam» ~/.config/«slug»/config.json\n"«s»"')
F(
    "strace write",
    "shell",
    "K",
    'write(3, "GET /v1/jobs HTTP/1.1\\r\\nHost: «h»\\r\\n«hdr»: «s»\\r\\n\\r\\n", 97) = 97',
)
F(
    "tcpdump -A",
    "shell",
    "K",
    "«t».123456 IP «ip».51234 > «h».80: Flags [P.], length 143\nE..../..@.@.\nGET /v2/status HTTP/1.1\nHost: «h»\nAuthorization: Token «s»",
)
F(
    "solana-keygen recover prompt",
    "shell",
    "S",
    "$ solana-keygen recover -o restored.json\n[recover] seed phrase: «s»\nWrote recovered keypair to restored.json",
    cats="W",
)
F(
    "PowerShell Invoke-WebRequest headers",
    "shell",
    "K",
    "PS> $h = @{ '«hdr»' = '«s»' }\nPS> Invoke-WebRequest -Uri https://«h»/v1/ping -Headers $h",
)

# code
F(
    "Ruby Faraday header",
    "code",
    "K",
    "conn = Faraday.new(url: 'https://«h»') do |f|\n  f.headers['«hdr»'] = '«s»'\nend",
)
F(
    "Go struct literal",
    "code",
    KP,
    'cfg := «slug».Config{\n\tEndpoint: "https://«h»",\n\t«Pas»: "«s»",\n}',
)
F(
    "Rust reqwest bearer_auth",
    "code",
    "K",
    'let resp = client\n    .get("https://«h»/v1/me")\n    .bearer_auth("«s»")\n    .send()\n    .await?;',
)
F("Spring @Value default", "code", KP, '@Value("${«dot»:«s»}")\nprivate String «cam»;')
F("Kotlin const val", "code", KP, 'object «Pas»Config {\n    const val «N» = "«s»"\n}')
F(
    "Scala val",
    "code",
    KP,
    'object Settings {\n  val «cam»: String = sys.env.getOrElse("«N»", "«s»")\n}',
)
F(
    "C# DefaultRequestHeaders",
    "code",
    "K",
    'var http = new HttpClient();\nhttp.DefaultRequestHeaders.Add("«hdr»", "«s»");',
)
F("VB.NET Const", "code", KP, 'Private Const «Pas» As String = "«s»"')
F(
    "PowerShell script hashtable",
    "code",
    KP,
    "$config = @{\n    Endpoint = 'https://«h»'\n    «Pas» = '«s»'\n}",
)
F("R Sys.setenv", "code", KP, 'Sys.setenv(«N» = "«s»")\nlibrary(httr2)')
F("Haskell binding", "code", KP, '«cam» :: Text\n«cam» = "«s»"')
F("Zig const", "code", KP, 'const «n»: []const u8 = "«s»";')
F(
    "Crystal constant",
    "code",
    KP,
    '«N» = "«s»"\nclient = HTTP::Client.new(URI.parse("https://«h»"))',
)
F("Groovy def", "code", KP, "def «cam» = '«s»'\nsh \"curl -s https://«h»/ping\"")
F("Erlang macro", "code", KP, '-define(«N», <<"«s»">>).')
F("Common Lisp defparameter", "code", KP, '(defparameter *«keb»* "«s»")')
F("Emacs Lisp setq", "code", "K", '(setq «slug»-«keb» "«s»")')
F("Vimscript let", "code", "K", "let g:«slug»_«n» = '«s»'")
F(
    "Neovim Lua plugin opts",
    "code",
    "K",
    'require("«slug»").setup({\n  «n» = "«s»",\n  model = "default",\n})',
)
F(
    "JDBC getConnection",
    "code",
    "P",
    'Connection conn = DriverManager.getConnection(\n    "jdbc:postgresql://«h»:5432/«db»", "«u»", "«s»");',
)
F(
    "Python requests auth tuple",
    "code",
    "P",
    'r = requests.get("https://«h»/api/export", auth=("«u»", "«s»"), timeout=10)',
)
F(
    "SQLAlchemy create_engine",
    "code",
    "P",
    'engine = create_engine("mysql+pymysql://«u»:«s»@«h»:3306/«db»")',
    url=True,
)
F(
    "Node mysql2 createConnection",
    "code",
    "P",
    "const conn = await mysql.createConnection({\n  host: '«h»',\n  user: '«u»',\n  password: '«s»',\n  database: '«db»',\n});",
)
F(
    "Mongoose connect",
    "code",
    "P",
    "await mongoose.connect('mongodb+srv://«u»:«s»@cluster0.«slug».mongodb.net/«db»');",
    url=True,
)
F("Deno.env.set", "code", KP, 'Deno.env.set("«N»", "«s»");')
F(
    "next.config.js env",
    "code",
    "K",
    "module.exports = {\n  reactStrictMode: true,\n  env: {\n    «N»: '«s»',\n  },\n};",
)
F(
    "Angular environment.ts",
    "code",
    "K",
    "export const environment = {\n  production: true,\n  «cam»: '«s»',\n};",
)
F("Objective-C NSString", "code", "K", 'static NSString * const k«Pas» = @"«s»";')
F(
    "Unity SerializeField",
    "code",
    "K",
    'public class «Pas»Client : MonoBehaviour\n{\n    [SerializeField] private string «cam» = "«s»";\n}',
)
F("GDScript const", "code", KP, 'extends Node\n\nconst «N» := "«s»"')
F(
    "Roblox HttpService header",
    "code",
    "K",
    'local HttpService = game:GetService("HttpService")\nlocal res = HttpService:RequestAsync({Url = "https://«h»/v1", Method = "GET", Headers = {["«hdr»"] = "«s»"}})',
)
F("Terraform provider block", "code", "K", 'provider "«slug»" {\n  «n» = "«s»"\n  region = "eu"\n}')
F(
    "Pulumi TypeScript provider",
    "code",
    "K",
    'const provider = new «slug».Provider("prod", {\n    «cam»: "«s»",\n});',
)
F(
    "Ansible task",
    "code",
    "P",
    "- name: create app user\n  community.mysql.mysql_user:\n    name: «u»\n    password: \"«s»\"\n    priv: '«db».*:ALL'",
)
F(
    "SQL CREATE USER",
    "code",
    "P",
    "CREATE USER '«u»'@'%' IDENTIFIED BY '«s»';\nGRANT SELECT ON «db».* TO '«u»'@'%';",
)
F("SQL ALTER ROLE", "code", "P", "ALTER ROLE «u» WITH LOGIN PASSWORD '«s»';")
F("Redis CONFIG SET", "code", "P", '127.0.0.1:6379> CONFIG SET requirepass "«s»"\nOK')
F(
    "mongosh createUser",
    "code",
    "P",
    'db.createUser({ user: "«u»", pwd: "«s»", roles: [{ role: "readWrite", db: "«db»" }] })',
)
F(
    "Excel WEBSERVICE formula",
    "code",
    "K",
    '=WEBSERVICE("https://«h»/v1/rate?base=EUR&apikey=«s»")',
    url=True,
)
F(
    "Google Sheets IMPORTDATA",
    "code",
    "K",
    '=IMPORTDATA("https://«h»/export.csv?token=«s»")',
    url=True,
)
F(
    "Playwright fill",
    "code",
    "P",
    "await page.getByLabel('Email').fill('«mail»');\nawait page.getByLabel('Password').fill('«s»');",
)
F("Selenium send_keys", "code", "P", 'driver.find_element(By.ID, "pw").send_keys("«s»")')
F("Puppeteer page.type", "code", "P", "await page.type('#login-secret', '«s»', { delay: 20 });")
F(
    "Gherkin step",
    "code",
    "P",
    'Scenario: admin logs in\n  Given I am on the «v» login page\n  When I sign in as "«u»" with "«s»"\n  Then I see the dashboard',
)
F(
    "k6 script header",
    "code",
    "K",
    "export default function () {\n  http.get('https://«h»/v1/items', { headers: { '«hdr»': '«s»' } });\n}",
)
F(
    "Django DATABASES",
    "code",
    "P",
    'DATABASES = {\n    "default": {\n        "ENGINE": "django.db.backends.postgresql",\n        "NAME": "«db»",\n        "USER": "«u»",\n        "PASSWORD": "«s»",\n    }\n}',
)
F(
    "Phoenix runtime.exs",
    "code",
    "K",
    'config :«slug», «Pas»Client,\n  «n»: System.get_env("«N»", "«s»")',
)
F("Racket define", "code", KP, '(define «keb» "«s»")')
F(
    "Python SDK positional",
    "code",
    "K",
    'from «slug» import Client\n\nclient = Client("«s»")\nprint(client.ping())',
)
F(
    "web3.py from_mnemonic",
    "code",
    "S",
    'Account.enable_unaudited_hdwallet_features()\nacct = Account.from_mnemonic("«s»")',
    cats="W",
)
F(
    "bip39 mnemonicToSeedSync",
    "code",
    "S",
    "const seed = bip39.mnemonicToSeedSync('«s»');\nconst root = HDKey.fromMasterSeed(seed);",
    cats="W",
)
F("Rust bip39 parse", "code", "S", 'let m = Mnemonic::parse_normalized("«s»")?;', cats="W")
F(
    "web3.py Account.from_key",
    "code",
    "K",
    'acct = Account.from_key("«s»")\nprint(acct.address)',
    cats="W",
)

# logs
F(
    "Apache access log query key",
    "log",
    "K",
    '«ip» - - [07/Dec/2026:«t» +0000] "GET /v1/quote?symbol=EUR&apikey=«s» HTTP/1.1" 200 512 "-" "python-requests/2.32"',
    url=True,
)
F(
    "HAProxy log",
    "log",
    "K",
    '«d»T«t» haproxy[«pid»]: «ip»:51514 [07/Dec/2026:«t».120] fe_https be_api/srv1 0/0/1/12/13 200 873 - - ---- 4/4/1/1/0 0/0 {«s»} "GET /v2/me HTTP/1.1"',
)
F(
    "Envoy access log",
    "log",
    "K",
    '{"start_time":"«d»T«t»Z","method":"POST","path":"/ingest","response_code":200,"x_api_key":"«s»","upstream_host":"«ip»:8080"}',
)
F(
    "Traefik JSON log",
    "log",
    "K",
    '{"ClientHost":"«ip»","DownstreamStatus":401,"RequestPath":"/hooks/«slug»?token=«s»","level":"info","msg":""}',
    url=True,
)
F(
    "Caddy JSON log headers",
    "log",
    "K",
    '{"level":"info","logger":"http.log.access","request":{"method":"GET","uri":"/api","headers":{"Authorization":["Bearer «s»"]}},"status":200}',
)
F(
    "urllib3 debug line",
    "log",
    "K",
    'DEBUG:urllib3.connectionpool:https://«h»:443 "GET /v1/search?q=test&key=«s» HTTP/1.1" 200 None',
    url=True,
)
F(
    "http.client send debug",
    "log",
    "K",
    "send: b'POST /v1/jobs HTTP/1.1\\r\\nHost: «h»\\r\\n«hdr»: «s»\\r\\nContent-Length: 41\\r\\n\\r\\n'",
)
F(
    "Java exception with JDBC URL",
    "log",
    "P",
    "org.postgresql.util.PSQLException: Connection to jdbc:postgresql://«h»:5432/«db»?user=«u»&password=«s» refused.\n\tat org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl(ConnectionFactoryImpl.java:342)",
    url=True,
)
F(
    "Rails log Parameters",
    "log",
    "P",
    'Started POST "/users/sign_in" for «ip» at «d» «t» +0000\nProcessing by Users::SessionsController#create as HTML\n  Parameters: {"user"=>{"email"=>"«mail»", "password"=>"«s»"}, "commit"=>"Log in"}',
)
F(
    "Go %+v dump",
    "log",
    "K",
    "«d» «t» config loaded: &{Addr::8080 Endpoint:https://«h» «Pas»:«s» Timeout:30s}",
)
F(
    "Rust Debug print",
    "log",
    "K",
    '[«d»T«t»Z DEBUG app] settings = Settings { endpoint: "https://«h»", «n»: "«s»", retries: 3 }',
)
F(
    "PHP var_dump",
    "log",
    "KP",
    'array(2) {\n  ["host"]=>\n  string(«pid») "«h»"\n  ["«n»"]=>\n  string(32) "«s»"\n}',
)
F("PHP print_r", "log", "KP", "Array\n(\n    [user] => «u»\n    [«n»] => «s»\n)")
F("Elixir IO.inspect", "log", "K", '%{endpoint: "https://«h»", «n»: "«s»", pool_size: 10}')
F(
    "docker build step output",
    "log",
    "K",
    "Step 6/11 : ENV «N»=«s»\n ---> Running in 3f1c9a7b2d44\nRemoving intermediate container 3f1c9a7b2d44",
)
F(
    "TF_LOG debug",
    "log",
    "K",
    "«d»T«t».412Z [DEBUG] provider.terraform-provider-«slug»: request: GET /v1/projects HTTP/1.1\n«hdr»: «s»\nUser-Agent: terraform/1.9",
)
F(
    "Ansible -vvv output",
    "log",
    "P",
    'ok: [«h»] => {\n    "changed": false,\n    "invocation": {\n        "module_args": {\n            "login_user": "«u»",\n            "login_password": "«s»"\n        }\n    }\n}',
)
F(
    "Celery task log",
    "log",
    "K",
    "[«d» «t»,114: INFO/MainProcess] Task sync.«slug»[«rid»] received: args=('acct-42', '«s»') kwargs={}",
)
F(
    "Postgres statement log",
    "log",
    "P",
    "«d» «t».001 UTC [«pid»] LOG:  statement: ALTER USER «u» PASSWORD '«s»';",
)
F(
    "MySQL general log",
    "log",
    "P",
    "«d»T«t».123456Z\t   12 Query\tSET PASSWORD FOR '«u»'@'%' = '«s»'",
)
F("Redis MONITOR", "log", "P", '«ts».123456 [0 «ip»:51820] "AUTH" "«u»" "«s»"')
F(
    "syslog line",
    "log",
    "K",
    "Dec  7 «t» «slug»-01 «slug»-agent[«pid»]: starting with key=«s» endpoint=https://«h»",
)
F(
    "Airflow task log",
    "log",
    "P",
    "[«d», «t» UTC] {base.py:83} INFO - Using connection ID '«slug»_db' for task execution.\n[«d», «t» UTC] {sql.py:418} INFO - Running statement on postgresql://«u»:«s»@«h»:5432/«db»",
    url=True,
)
F(
    "GitLab CI job log",
    "log",
    "KP",
    '$ echo "deploying with «N»=«s»"\ndeploying with «N»=«s»\n$ ./scripts/deploy.sh',
)

# tables
F(
    "HTML table",
    "table",
    ANY,
    "<table>\n  <tr><th>Service</th><th>User</th><th>Secret</th></tr>\n  <tr><td>«v»</td><td>«u»</td><td>«s»</td></tr>\n</table>",
)
F(
    "reStructuredText grid table",
    "table",
    ANY,
    "+----------+-----------+\n| Service  | Value     |\n+==========+===========+\n| «v» | «s» |\n+----------+-----------+",
)
F("org-mode table", "table", ANY, "| service | «cred» |\n|---------+-----|\n| «v» | «s» |")
F("TSV paste", "table", ANY, "service\tenv\tvalue\n«v»\tprod\t«s»\n«v»\tstaging\t(ask «who»)")
F(
    "SQLite box output",
    "table",
    ANY,
    "sqlite> SELECT name, value FROM settings WHERE name LIKE '«slug»%';\n┌──────────────┬──────────────┐\n│     name     │    value     │\n├──────────────┼──────────────┤\n│ «n» │ «s» │\n└──────────────┴──────────────┘",
)
F(
    "mongosh document",
    "table",
    ANY,
    "[\n  {\n    _id: ObjectId('«rid»01234567'),\n    service: '«v»',\n    «cam»: '«s»'\n  }\n]",
)
F(
    "MediaWiki table",
    "table",
    ANY,
    '{| class="wikitable"\n! Service !! Login !! «cred»\n|-\n| «v» || «u» || «s»\n|}',
)
F("Textile table", "table", ANY, "|_. Service |_. «cred» |\n| «v» | «s» |")
F("column -t listing", "table", ANY, "$ column -t accounts.txt\n«slug»     «u»     «s»     «d»")
F(
    "markdown table in a wiki page",
    "table",
    ANY,
    "### Shared accounts\n\n| Who | Service | Credential |\n|---|---|---|\n| «who» | «v» | `«s»` |",
)

# diffs
F(
    "git diff of YAML",
    "diff",
    KP,
    "diff --git a/config/«slug».yaml b/config/«slug».yaml\n--- a/config/«slug».yaml\n+++ b/config/«slug».yaml\n@@ -3,4 +3,4 @@ «slug»:\n   endpoint: https://«h»\n-  «n»: CHANGE_ME\n+  «n»: «s»\n   timeout: 30",
)
F(
    "combined merge diff",
    "diff",
    KP,
    'diff --cc settings.py\nindex 3f2a1b0,8c9d4e2..0000000\n--- a/settings.py\n+++ b/settings.py\n@@@ -10,3 -10,3 +10,7 @@@\n++<<<<<<< HEAD\n +«N» = "«s»"\n++=======\n+ «N» = os.environ["«N»"]\n++>>>>>>> feature/env',
)
F(
    "git stash show -p",
    "diff",
    KP,
    "$ git stash show -p stash@{0}\ndiff --git a/.env b/.env\n@@ -1,2 +1,3 @@\n DEBUG=1\n+«N»=«s»",
)
F(
    "git format-patch email",
    "diff",
    KP,
    "From «rid» Mon Sep 17 00:00:00 2001\nFrom: «who» <«mail»>\nSubject: [PATCH] wire up «v»\n\n---\n app/config.js | 1 +\n\n@@ -1,3 +1,4 @@\n module.exports = {\n+  «cam»: '«s»',\n   port: 3000,",
)
F(
    "svn diff",
    "diff",
    KP,
    "Index: conf/app.properties\n===================================================================\n--- conf/app.properties\t(revision 1841)\n+++ conf/app.properties\t(working copy)\n@@ -4 +4 @@\n-«dot»=\n+«dot»=«s»",
)
F(
    "context diff",
    "diff",
    KP,
    "*** config.ini.orig\n--- config.ini\n***************\n*** 7,8 ****\n! «n» = \n--- 7,8 ----\n! «n» = «s»",
)
F(
    "GitHub suggestion block",
    "diff",
    KP,
    '```suggestion\n«N»: "«s»"\n```\nworks locally with this value',
)
F("git diff --word-diff", "diff", KP, "@@ -2 +2 @@\n«N»=[-xxxxxxxx-]{+«s»+}")
F(
    "kubectl diff",
    "diff",
    KP,
    "diff -u -N /tmp/LIVE-123/v1.ConfigMap.prod.«slug» /tmp/MERGED-456/v1.ConfigMap.prod.«slug»\n@@ -4,6 +4,7 @@\n data:\n+  «N»: «s»\n   LOG_LEVEL: info",
)
F(
    "helm diff upgrade",
    "diff",
    KP,
    'prod, «slug», Deployment (apps) has changed:\n          env:\n            - name: «N»\n-             value: ""\n+             value: "«s»"',
)
F(
    "ansible --diff",
    "diff",
    KP,
    "TASK [«slug» : template config] ***\n--- before: /etc/«slug»/app.conf\n+++ after: /home/«u»/.ansible/tmp/app.conf.j2\n@@ -1,2 +1,2 @@\n-«n»=\n+«n»=«s»",
)
F(
    "pulumi preview --diff",
    "diff",
    KP,
    '    ~ «slug»:index/service:Service: (update)\n        [urn=urn:pulumi:prod::«slug»::«slug»:index/service:Service::api]\n      ~ «cam»: "old" => "«s»"',
)

# HTTP and protocol traces
F(
    "curl -v HTTP/2 request",
    "http",
    "K",
    "* using HTTP/2\n> GET /v1/account HTTP/2\n> Host: «h»\n> user-agent: curl/8.5.0\n> «hdr»: «s»\n> accept: */*\n< HTTP/2 200",
)
F(
    "Cookie header",
    "http",
    "K",
    "GET /dashboard HTTP/1.1\nHost: «h»\nCookie: theme=dark; «slug»_session=«s»; lang=en",
)
F(
    "form-urlencoded login body",
    "http",
    "P",
    "POST /login HTTP/1.1\nHost: «h»\nContent-Type: application/x-www-form-urlencoded\n\nusername=«u»&password=«s»&remember=1",
    url=True,
)
F(
    "OAuth token request",
    "http",
    "K",
    "POST /oauth/token HTTP/1.1\nHost: auth.«slug».com\nContent-Type: application/x-www-form-urlencoded\n\ngrant_type=client_credentials&client_id=«rid»&client_secret=«s»",
    url=True,
)
F(
    "SOAP wsse:Password",
    "http",
    "P",
    '<soapenv:Header>\n  <wsse:Security>\n    <wsse:UsernameToken>\n      <wsse:Username>«u»</wsse:Username>\n      <wsse:Password Type="#PasswordText">«s»</wsse:Password>\n    </wsse:UsernameToken>\n  </wsse:Security>\n</soapenv:Header>',
)
F(
    "WebSocket URL",
    "http",
    "K",
    'const ws = new WebSocket("wss://stream.«slug».com/v2/live?token=«s»");',
    url=True,
)
F(
    "grpcurl -H",
    "http",
    "K",
    "$ grpcurl -H 'authorization: Bearer «s»' «h»:443 «slug».v1.Orders/List",
)
F("POP3 session", "http", "P", "+OK POP3 server ready\nUSER «mail»\n+OK\nPASS «s»\n+OK Logged in.")
F(
    "STOMP CONNECT frame",
    "http",
    "P",
    "CONNECT\naccept-version:1.2\nhost:«h»\nlogin:«u»\npasscode:«s»\n\n^@",
)
F("proxy URL", "http", "P", "export https_proxy=http://«u»:«s»@proxy.«slug».lan:3128", url=True)
F(
    "HAR entry",
    "http",
    "K",
    '{"request": {"method": "GET", "url": "https://«h»/v1/me", "headers": [{"name": "«hdr»", "value": "«s»"}]}}',
)
F(
    "curl --trace-ascii",
    "http",
    "K",
    "== Info: Connected to «h» («ip») port 443\n=> Send header, 112 bytes (0x70)\n0000: GET /v3/list HTTP/1.1\n0018: Host: «h»\n0032: «hdr»: «s»",
)
F(
    "REST Client .http file",
    "http",
    "K",
    "### list invoices\nGET https://«h»/v1/invoices\n«hdr»: «s»\nAccept: application/json",
)


# agent tool calls and results
def claude_read(c):
    lines = ["# «v» settings", "ENDPOINT=https://«h»", "«N»=«s»", "TIMEOUT=30"]
    body = "\n".join(f"{i + 1:6}→{fill(x, c)}" for i, x in enumerate(lines))
    return json.dumps(
        {"type": "tool_result", "tool_use_id": "toolu_01" + c["rid"], "content": body},
        ensure_ascii=False,
    )


def multiedit(c):
    edits = [{"old_string": fill("«N»=", c), "new_string": fill("«N»=«s»", c)}]
    return json.dumps(
        {"name": "MultiEdit", "input": {"file_path": "/src/.env", "edits": edits}},
        ensure_ascii=False,
    )


def responses_output(c):
    inner = json.dumps({"stdout": fill("«N»=«s»\n", c), "exit_code": 0}, ensure_ascii=False)
    return json.dumps(
        {"type": "function_call_output", "call_id": "call_" + c["rid"], "output": inner},
        ensure_ascii=False,
    )


def codex_exec_end(c):
    return json.dumps(
        {
            "type": "event_msg",
            "payload": {
                "type": "exec_command_end",
                "call_id": "call_" + c["rid"],
                "aggregated_output": fill("$ cat .env.production\n«N»=«s»\n", c),
                "exit_code": 0,
            },
        },
        ensure_ascii=False,
    )


def pretooluse(c):
    return json.dumps(
        {
            "session_id": c["rid"],
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": fill("export «N»='«s»' && ./run.sh", c)},
        },
        ensure_ascii=False,
    )


def openhands(c):
    return json.dumps(
        {
            "observation": "run",
            "content": fill("«N»=«s»\nDEBUG=false", c),
            "extras": {"command": "cat .env", "exit_code": 0},
        },
        ensure_ascii=False,
    )


def anthropic_tool_result(c):
    inner = json.dumps(
        {"«cam»".replace("«cam»", c["cam"]): c["s"], "region": "eu"}, ensure_ascii=False
    )
    return json.dumps(
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_" + c["rid"], "content": inner}
            ],
        },
        ensure_ascii=False,
    )


def vercel_ai(c):
    return json.dumps(
        {"type": "tool-result", "toolName": "readFile", "result": fill("«N»=«s»", c)},
        ensure_ascii=False,
    )


def swe_agent(c):
    step = {"action": "cat config/«slug».ini", "observation": "[«slug»]\n«n» = «s»\n"}
    return json.dumps(
        {"trajectory": [{k: fill(v, c) for k, v in step.items()}]}, ensure_ascii=False
    )


def twice_jsonl(c):
    inner = json.dumps({"type": "tool_result", "content": fill("«N»=«s»", c)}, ensure_ascii=False)
    return json.dumps({"type": "user", "message": {"content": inner}}, ensure_ascii=False)


F("Claude Read tool result with line numbers", "agent", KP, claude_read)
F("Claude MultiEdit input", "agent", KP, multiedit)
F("OpenAI Responses function_call_output escaped twice", "agent", KP, responses_output)
F("Codex exec_command_end event", "agent", KP, codex_exec_end)
F("PreToolUse hook input", "agent", KP, pretooluse)
F("OpenHands observation", "agent", KP, openhands)
F("Anthropic tool_result escaped twice", "agent", KP, anthropic_tool_result)
F("Vercel AI SDK tool result", "agent", KP, vercel_ai)
F("SWE-agent trajectory step", "agent", KP, swe_agent)
F("transcript line with result escaped twice", "agent", KP, twice_jsonl)
F(
    "Aider chat history",
    "agent",
    ANY,
    "#### add the «v» client, the «cred» is «s»\n\nI'll add it to `config.py`.",
)
F(
    "Cline execute_command",
    "agent",
    KP,
    "<execute_command>\n<command>export «N»=«s» && npm test</command>\n<requires_approval>false</requires_approval>\n</execute_command>",
)
F(
    "Goose tool response",
    "agent",
    KP,
    "─── shell | developer ──────────────────────────\ncommand: grep -r «N» .\n\n./deploy/.env:«N»=«s»",
)
F(
    "smolagents code action",
    "agent",
    KP,
    'Thought: I need to call the API with the key the user gave.\nCode:\n```py\nresult = fetch_orders(«n»="«s»")\nprint(result)\n```<end_code>',
)
F(
    "Gemini CLI shell output",
    "agent",
    KP,
    "✦ I'll check the environment.\n ╭──────────────────────────╮\n │ ✔  Shell env | grep «V»  │\n │ «N»=«s» │\n ╰──────────────────────────╯",
)
F(
    "assistant summary of what it set",
    "agent",
    ANY,
    "Done. I set «N» to `«s»` in `.env.local` and restarted the dev server; the «v» calls now return 200.",
)
F(
    "Windsurf run_command",
    "agent",
    KP,
    '{"tool":"run_command","CommandLine":"«slug» deploy --«keb» «s»","Cwd":"/home/«u»/«slug»"}',
)
F(
    "agent plan step",
    "agent",
    ANY,
    "Plan:\n1. Store the «v» «cred» («s») in the secret manager\n2. Reference it from the workflow\n3. Remove it from the chat log",
)
F(
    "agent asks to confirm",
    "agent",
    ANY,
    "Before I run the migration: is «s» still the current «v» «cred»? The last run returned 401.",
)

# -- look-alikes: (sort, text, strings that must survive) ------------------------------

HEX = "0123456789abcdef"


def h(n):
    return rand(n, HEX)


def la_rebase():
    a, b = h(7), h(7)
    return (
        f"pick {a} add retry to webhook sender\nsquash {b} fix typo\n# Rebase {h(7)}..{b} onto {h(7)} (2 commands)",
        [a, b],
    )


def la_revert():
    s = h(40)
    return (f'Revert "bump parser"\n\nThis reverts commit {s}.', [s])


def la_reflog():
    a = h(7)
    return (
        f"{a} HEAD@{{0}}: checkout: moving from main to fix/login\n{h(7)} HEAD@{{1}}: commit: tidy imports",
        [a],
    )


def la_cat_file():
    t, p = h(40), h(40)
    return (
        f"$ git cat-file -p HEAD\ntree {t}\nparent {p}\nauthor {pick(NAMES)} <dev@example.org> 1780001234 +0100",
        [t, p],
    )


def la_ls_tree():
    b = h(40)
    return (f"$ git ls-tree HEAD src/\n100644 blob {b}\tsrc/main.py", [b])


def la_hg_log():
    s = h(12)
    return (f"changeset:   4123:{s}\nuser:        {pick(NAMES)}\nsummary:     update docs", [s])


def la_pnpm_integrity():
    i = "sha512-" + base64.b64encode(bytes(R.randrange(256) for _ in range(64))).decode()
    return (f"  /left-pad@1.3.0:\n    resolution: {{integrity: {i}}}\n    dev: false", [i])


def la_yarn_berry():
    c = h(128)
    return (
        f'"chalk@npm:^5.3.0":\n  version: 5.3.0\n  checksum: 10c0/{c}\n  languageName: node',
        [c],
    )


def la_sri_script():
    i = "sha384-" + base64.b64encode(bytes(R.randrange(256) for _ in range(48))).decode()
    return (
        f'<script src="https://cdn.example.org/lib.min.js" integrity="{i}" crossorigin="anonymous"></script>',
        [i],
    )


def la_nix_hash():
    i = "sha256-" + base64.b64encode(bytes(R.randrange(256) for _ in range(32))).decode()
    return (
        f'src = fetchFromGitHub {{\n  owner = "acme";\n  repo = "tool";\n  rev = "v1.4.2";\n  hash = "{i}";\n}};',
        [i],
    )


def la_tf_lock():
    a = "h1:" + base64.b64encode(bytes(R.randrange(256) for _ in range(32))).decode()
    z = "zh:" + h(64)
    return (
        f'provider "registry.terraform.io/hashicorp/random" {{\n  version = "3.6.2"\n  hashes = [\n    "{a}",\n    "{z}",\n  ]\n}}',
        [a, z],
    )


def la_chart_lock():
    d = "sha256:" + h(64)
    return (
        f'dependencies:\n- name: postgresql\n  repository: oci://registry-1.docker.io/bitnamicharts\n  version: 15.5.0\ndigest: {d}\ngenerated: "2026-10-02T09:12:44Z"',
        [d],
    )


def la_bazel_lock():
    s = h(64)
    return (
        f'http_archive(\n    name = "rules_go",\n    sha256 = "{s}",\n    urls = ["https://example.org/rules_go-v0.50.1.zip"],\n)',
        [s],
    )


def la_docker_from():
    d = "sha256:" + h(64)
    return (f"FROM python:3.12-slim@{d}\nRUN pip install uv", [d])


def la_docker_ps():
    c = h(12)
    return (f"CONTAINER ID   IMAGE          STATUS\n{c}   redis:7        Up 3 hours", [c])


def la_pod_name():
    p = f"api-{rand(10, 'bcdfghjklmnpqrstvwxz2456789')}-{rand(5, 'bcdfghjklmnpqrstvwxz2456789')}"
    return (
        f"$ kubectl get pods\nNAME                         READY   STATUS    RESTARTS\n{p}   1/1     Running   0",
        [p],
    )


def la_arn_secret_ref():
    a = f"arn:aws:secretsmanager:eu-west-1:{rand(12, string.digits)}:secret:prod/db-{rand(6, ALNUM)}"
    return (f"valueFrom: {a}", [a])


def la_arn_role():
    a = f"arn:aws:iam::{rand(12, string.digits)}:role/github-deploy"
    return (f"role-to-assume: {a}", [a])


def la_azure_kv_uri():
    u = f"https://kv-prod-weu.vault.azure.net/secrets/db-password/{h(32)}"
    return (f"@Microsoft.KeyVault(SecretUri={u})", [u])


def la_gcp_secret_path():
    p = f"projects/{rand(12, string.digits)}/secrets/stripe-key/versions/latest"
    return (f"gcloud secrets versions access latest --secret={p}", [p])


def la_azure_sub():
    s = str(uuid.UUID(int=R.getrandbits(128), version=4))
    return (f"az account set --subscription {s}", [s])


def la_placeholder():
    p = pick(
        (
            "YOUR_API_KEY_HERE",
            "<paste-token-here>",
            "xxxxxxxxxxxxxxxxxxxx",
            "replace-me",
            "${API_TOKEN}",
            "{{ api_key }}",
            "<redacted>",
        )
    )
    return (f"API_KEY={p}", [p])


def la_masked():
    m = pick(
        (
            "••••••••••••",
            "sk_****" + rand(4, LOW36),
            "****-****-****-" + rand(4, string.digits),
            "ab12…(hidden)",
            "********",
        )
    )
    return (f"Current key: {m} (created 2026-03-02)", [m])


def la_ssh_pub():
    k = (
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"
        + base64.b64encode(bytes(R.randrange(256) for _ in range(32))).decode()[:43]
    )
    return (f"{k} {pick(NAMES).lower()}@laptop", [k])


def la_known_hosts():
    k = (
        "AAAAC3NzaC1lZDI1NTE5AAAAI"
        + base64.b64encode(bytes(R.randrange(256) for _ in range(32))).decode()[:43]
    )
    return (f"git.example.org ssh-ed25519 {k}", [k])


def la_age_pub():
    k = "age1" + rand(58, "qpzry9x8gf2tvdw0s3jn54khce6mua7l")
    return (f"creation_rules:\n  - path_regex: secrets/.*\\.yaml\n    age: {k}", [k])


def la_wg_pub():
    k = base64.b64encode(bytes(R.randrange(256) for _ in range(32))).decode()
    return (f"[Peer]\nPublicKey = {k}\nAllowedIPs = 10.8.0.2/32", [k])


def la_asset_hash():
    a = f"main.{h(8)}.js"
    b = f"styles.{h(20)}.css"
    return (f"dist/{a}   142.3 kB\ndist/{b}   12.1 kB", [a, b])


def la_turbo_cache():
    c = h(16)
    return (f"web:build: cache hit, replaying logs {c}", [c])


def la_traceparent():
    t = f"00-{h(32)}-{h(16)}-01"
    return (f"traceparent: {t}", [t])


def la_amzn_trace():
    t = f"Root=1-{h(8)}-{h(24)}"
    return (f"X-Amzn-Trace-Id: {t}", [t])


def la_span_id():
    s, t = h(16), h(32)
    return (f'{{"trace_id":"{t}","span_id":"{s}","name":"GET /health"}}', [s, t])


def la_i18n():
    key = pick(("password_reset_title", "token_expired", "api_key_help", "secret_missing"))
    txt = pick(
        (
            "Reset your password",
            "Votre jeton a expiré",
            "Geben Sie Ihren API-Schlüssel ein",
            "La contraseña es demasiado corta",
            "Пароль должен содержать 12 символов",
        )
    )
    return (f'"{key}": "{txt}",', [key, txt])


def la_code_no_value():
    n = pick(("API_KEY", "DB_PASSWORD", "CLIENT_SECRET", "WEBHOOK_TOKEN"))
    return (
        f'{n.lower()} = os.environ["{n}"]\nif not {n.lower()}:\n    raise SystemExit("{n} is not set")',
        [n],
    )


def la_b64_text():
    t = pick(
        (
            "hello world, this is a test",
            "deployment finished at noon",
            "the quick brown fox",
            "user preferences v2",
        )
    )
    b = base64.b64encode(t.encode()).decode()
    return (f"payload: {b}", [b])


def la_tmux():
    s = f"dev-{rand(4, LOW36)}"
    return (f"$ tmux ls\n{s}: 3 windows (created Mon Dec  7 09:12:01 2026)", [s])


def la_fixture():
    u = str(uuid.UUID(int=R.getrandbits(128), version=4))
    return (
        f'def test_order_lookup(client):\n    resp = client.get("/orders/{u}")\n    assert resp.json()["id"] == "{u}"',
        [u],
    )


def la_boolean():
    b = pick(
        (
            "admin_session=true",
            "require_password=false",
            "token_expired: true",
            "use_api_key = False",
            "secret_rotation_enabled: yes",
        )
    )
    return (f"# flags\n{b}", [b])


def la_uuid_rows():
    a = str(uuid.UUID(int=R.getrandbits(128), version=4))
    return (f" id                                   | name\n {a} | Acme GmbH", [a])


def la_sops():
    e = f"ENC[AES256_GCM,data:{base64.b64encode(bytes(R.randrange(256) for _ in range(18))).decode()},iv:{base64.b64encode(bytes(R.randrange(256) for _ in range(32))).decode()},tag:{base64.b64encode(bytes(R.randrange(256) for _ in range(16))).decode()},type:str]"
    return (f"db_password: {e}", [e])


def la_ansible_vault():
    lines = [h(80) for _ in range(3)]
    return ("db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  " + "\n  ".join(lines), lines)


def la_sealed_secret():
    e = "AgB" + base64.b64encode(bytes(R.randrange(256) for _ in range(90))).decode()
    return (f"kind: SealedSecret\nspec:\n  encryptedData:\n    password: {e}", [e])


def la_spotify():
    t = rand(22, ALNUM)
    return (f"https://open.spotify.com/track/{t}", [t])


def la_inchikey():
    k = f"{rand(14, string.ascii_uppercase)}-{rand(10, string.ascii_uppercase)}-N"
    return (f"InChIKey: {k}", [k])


def la_isbn():
    i = f"978-{R.randint(0, 9)}-{rand(3, string.digits)}-{rand(5, string.digits)}-{R.randint(0, 9)}"
    return (f"ISBN {i}", [i])


def la_password_label():
    return (
        '<input type="password" name="password" autocomplete="current-password" minlength="12">',
        ['autocomplete="current-password"'],
    )


def la_policy():
    t = "Passwords must be at least 14 characters and include a digit; tokens expire after 90 days."
    return (t, [t])


def la_error_no_key():
    t = pick(
        (
            "Error: Invalid API key provided.",
            "401 Unauthorized: token missing or malformed",
            'psql: error: FATAL: password authentication failed for user "app"',
        )
    )
    return (t, [t])


def la_empty_env():
    return ("API_KEY=\nDB_PASSWORD=\nSECRET_KEY=", ["API_KEY=", "DB_PASSWORD=", "SECRET_KEY="])


def la_gha_ref():
    r = pick(
        (
            "${{ secrets.DEPLOY_TOKEN }}",
            "${{ secrets.NPM_TOKEN }}",
            "$(vault read -field=password secret/db)",
            "op://Engineering/DB/password",
        )
    )
    return (f"env:\n  TOKEN: {r}", [r])


def la_hash_output():
    s = h(64)
    return (f"$ sha256sum release.tar.gz\n{s}  release.tar.gz", [s])


def la_md5():
    s = h(32)
    return (f"$ md5sum firmware.bin\n{s}  firmware.bin", [s])


def la_pgp_keyid():
    k = rand(16, "0123456789ABCDEF")
    return (f"gpg: Signature made Mon Dec  7 2026\ngpg:                using RSA key {k}", [k])


def la_android_sha1():
    f = ":".join(rand(2, "0123456789ABCDEF") for _ in range(20))
    return (f"Variant: debug\nSHA1: {f}", [f])


def la_snowflake():
    s = str(R.randint(10**17, 10**18))
    return (f"message id {s} deleted", [s])


def la_ksuid():
    k = rand(27, ALNUM)
    return (f"event_id={k} type=invoice.paid", [k])


def la_webauthn_id():
    c = base64.urlsafe_b64encode(bytes(R.randrange(256) for _ in range(32))).decode().rstrip("=")
    return (f'{{"credentialId": "{c}", "transports": ["internal"]}}', [c])


def la_pkce_challenge():
    c = base64.urlsafe_b64encode(bytes(R.randrange(256) for _ in range(32))).decode().rstrip("=")
    return (f"GET /authorize?response_type=code&code_challenge={c}&code_challenge_method=S256", [c])


def la_vscode_machine():
    m = h(64)
    return (f'"telemetry.machineId": "{m}"', [m])


def la_notebook_id():
    i = rand(8, HEX) + "-" + rand(4, HEX)
    return (f'{{"cell_type": "code", "id": "{i}", "execution_count": 3}}', [i])


def la_slug_suffix():
    s = f"how-we-cut-build-times-{rand(6, LOW36)}"
    return (f"https://blog.example.org/posts/{s}", [s])


def la_totp_prompt():
    return ("Enter the 6-digit code from your authenticator app to continue.", ["6-digit code"])


def la_strength():
    return ("Password strength: weak (score 1/4). Try a longer passphrase.", ["score 1/4"])


def la_mac_docker_vol():
    v = h(64)
    return (f"$ docker volume ls\nDRIVER    VOLUME NAME\nlocal     {v}", [v])


def la_ean():
    e = rand(13, string.digits)
    return (f"EAN {e} - 6x 500 ml", [e])


LOOKALIKES = [
    ("commit in rebase todo", la_rebase),
    ("commit in revert message", la_revert),
    ("git reflog", la_reflog),
    ("git cat-file tree and parent", la_cat_file),
    ("git ls-tree blob", la_ls_tree),
    ("hg changeset", la_hg_log),
    ("pnpm integrity", la_pnpm_integrity),
    ("yarn berry checksum", la_yarn_berry),
    ("script SRI", la_sri_script),
    ("Nix fetch hash", la_nix_hash),
    ("terraform lock hashes", la_tf_lock),
    ("Helm Chart.lock digest", la_chart_lock),
    ("Bazel archive sha256", la_bazel_lock),
    ("image digest in FROM", la_docker_from),
    ("docker ps container id", la_docker_ps),
    ("pod name", la_pod_name),
    ("Secrets Manager ARN", la_arn_secret_ref),
    ("IAM role ARN", la_arn_role),
    ("Key Vault reference", la_azure_kv_uri),
    ("GCP secret path", la_gcp_secret_path),
    ("Azure subscription id", la_azure_sub),
    ("placeholder", la_placeholder),
    ("masked value", la_masked),
    ("SSH public key", la_ssh_pub),
    ("known_hosts line", la_known_hosts),
    ("age recipient", la_age_pub),
    ("WireGuard peer public key", la_wg_pub),
    ("asset hashes", la_asset_hash),
    ("turbo cache hash", la_turbo_cache),
    ("traceparent", la_traceparent),
    ("X-Amzn-Trace-Id", la_amzn_trace),
    ("OTel span", la_span_id),
    ("i18n string about secrets", la_i18n),
    ("code naming a secret without value", la_code_no_value),
    ("base64 of ordinary text", la_b64_text),
    ("tmux session", la_tmux),
    ("test fixture ids", la_fixture),
    ("boolean named after a secret", la_boolean),
    ("UUID primary key", la_uuid_rows),
    ("sops encrypted value", la_sops),
    ("ansible-vault blob", la_ansible_vault),
    ("SealedSecret ciphertext", la_sealed_secret),
    ("Spotify track id", la_spotify),
    ("InChIKey", la_inchikey),
    ("ISBN", la_isbn),
    ("password input field", la_password_label),
    ("password policy", la_policy),
    ("auth error without key", la_error_no_key),
    ("empty env values", la_empty_env),
    ("secret reference", la_gha_ref),
    ("sha256sum output", la_hash_output),
    ("md5sum output", la_md5),
    ("PGP key id", la_pgp_keyid),
    ("Android SHA1 fingerprint", la_android_sha1),
    ("Discord snowflake", la_snowflake),
    ("KSUID event id", la_ksuid),
    ("WebAuthn credential id", la_webauthn_id),
    ("PKCE code_challenge", la_pkce_challenge),
    ("VS Code machineId", la_vscode_machine),
    ("notebook cell id", la_notebook_id),
    ("slug with random suffix", la_slug_suffix),
    ("TOTP prompt", la_totp_prompt),
    ("password strength message", la_strength),
    ("docker volume name", la_mac_docker_vol),
    ("EAN barcode", la_ean),
]

# -- assembly --------------------------------------------------------------------------

PER_CAT = {"S": 110, "A": 26, "P": 14, "B": 45, "X": 18, "W": 4, "D": 26, "H": 36, "G": 26, "M": 30}
SECOND_CRED = 12  # vendors that hand out a second kind of credential
REPEATS = 105  # kinds that appear a second time, in another form, with a fresh value
N_LOOKALIKES = 160
URL_SAFE = re.compile(r"[A-Za-z0-9._~-]+")
# Banks' and shops' passwords and codes go only to forms that take any value, or these.
# Device makers' passwords go to prose, device files, or these ways of logging in to a box.
DEVICE_EXTRA = {
    "curl -u",
    "sshpass -p",
    "expect script",
    "Python requests auth tuple",
    "smbclient -U",
    "fstab cifs line",
    "Playwright fill",
    "htpasswd -b",
    "tmux send-keys",
}
ANY_VALUE_EXTRA = {
    "Playwright fill",
    "Selenium send_keys",
    "Puppeteer page.type",
    "Gherkin step",
    "cypress.env.json",
    "Robot Framework variables",
}


def kinds():
    out = []
    for cat, n in PER_CAT.items():
        names = VENDORS[cat].split("|")
        for v in R.sample(names, min(n, len(names))):
            # every wallet hands out its seed phrase; other vendors one credential at random
            out.append((v, cat, CREDS[cat][0] if cat == "W" else pick(CREDS[cat])))
    for v, cat, cred in R.sample([k for k in out if k[1] in "SHDA"], SECOND_CRED):
        others = [c for c in CREDS[cat] if c[0] != cred[0]]
        out.append((v, cat, pick(others)))
    wallets = [k for k in out if k[1] == "W"]
    for (v, cat, _), cred in zip(wallets, CREDS["W"][1:] + CREDS["W"][2:3], strict=False):
        out.append((v, cat, cred))  # a wallet's password, private key or PIN besides its phrase
    return out


def fits(form, kind):
    v, cat, (label, cls, shapes) = kind
    if cls not in form["accepts"]:
        return False
    if form["cats"] and cat not in form["cats"]:
        return False
    if form["labels"] and label not in form["labels"]:
        return False
    if cat in "BM" and form["accepts"] != ANY and form["name"] not in ANY_VALUE_EXTRA:
        return False
    if cat == "G" and cls == "P" and form["accepts"] != ANY and not form["cats"]:
        return False  # a game's password goes to prose or to a game-server file
    if cat == "D" and cls == "P" and form["accepts"] != ANY and not form["cats"]:
        return form["name"] in DEVICE_EXTRA
    # seed words go to prose, tables, agent output and shells, not to a config's value
    return not (
        cls == "S"
        and form["accepts"] == ANY
        and form["group"] not in ("chat", "table", "agent", "shell")
    )


def value_for(form, kind):
    v, cat, (label, cls, shapes) = kind
    for _ in range(80):
        value, shape = pick(shapes)(v)
        if not form["url"] or URL_SAFE.fullmatch(value):
            return value, shape
    return None


def render(form, kind, value):
    v, cat, (label, cls, shapes) = kind
    c = context(v, label, cls, value)
    tpl = form["tpl"]
    text = tpl(c) if callable(tpl) else fill(tpl, c)
    return text


def make_secret(form, kind):
    got = value_for(form, kind)
    if got is None:
        return None
    value, shape = got
    text = render(form, kind, value)
    assert value in text, (form["name"], value)
    v, cat, (label, cls, _) = kind
    return {
        "kind": f"{v} {label} [{form['name']}]",
        "text": text,
        "secret": value,
        "_form": form["name"],
        "_group": form["group"],
        "_shape": shape,
        "_kind": (v, label),
        "_ref": (form, kind),
    }


def build_secrets():
    ks = kinds()
    R.shuffle(ks)
    used = Counter()
    items = []
    todo = list(ks)
    forms = FORMS[:]
    R.shuffle(forms)
    forms.sort(key=lambda f: sum(fits(f, k) for k in ks))  # the choosiest forms first
    for form in forms:  # every form at least once
        for kind in todo:
            if fits(form, kind) and (item := make_secret(form, kind)):
                items.append(item)
                used[form["name"]] += 1
                todo.remove(kind)
                break
    for kind in todo:
        fitting = [f for f in FORMS if fits(f, kind)]
        R.shuffle(fitting)
        fitting.sort(key=lambda f: used[f["name"]])
        for form in fitting:
            if item := make_secret(form, kind):
                items.append(item)
                used[form["name"]] += 1
                break
    for kind in R.sample(ks, REPEATS):
        first = next(i["_form"] for i in items if i["_ref"][1] is kind)
        fitting = [f for f in FORMS if fits(f, kind) and f["name"] != first]
        R.shuffle(fitting)
        fitting.sort(key=lambda f: used[f["name"]])
        for form in fitting:
            if item := make_secret(form, kind):
                items.append(item)
                used[form["name"]] += 1
                break
    return items


def build_lookalikes():
    out, seen = [], set()
    count = Counter()
    order = LOOKALIKES[:]
    while len(out) < N_LOOKALIKES:
        R.shuffle(order)
        for sort, fn in order:
            if len(out) >= N_LOOKALIKES:
                break
            text, keep = fn()
            if text in seen:
                continue
            seen.add(text)
            count[sort] += 1
            assert all(k in text for k in keep), sort
            out.append({"kind": f"{sort} #{count[sort]}", "text": text, "keep": keep})
    return out


def clash(items, lookalikes):
    texts = [i["text"] for i in items] + [x["text"] for x in lookalikes]
    bad = []
    for n, item in enumerate(items):
        if (
            len(item["secret"]) < 6
            and item["secret"] in "".join(t for j, t in enumerate(texts) if j != n)
            or any(item["secret"] in t for j, t in enumerate(texts) if j != n)
        ):
            bad.append(n)
    return bad


def main():
    items = build_secrets()
    lookalikes = build_lookalikes()
    for _ in range(50):  # a secret found in another entry's text gets a fresh value
        bad = clash(items, lookalikes)
        if not bad:
            break
        for n in bad:
            form, kind = items[n]["_ref"]
            items[n] = make_secret(form, kind) or items[n]
    assert not clash(items, lookalikes), "a secret is inside another entry's text"
    kinds_seen = Counter(i["_kind"] for i in items)
    assert len({i["kind"] for i in items}) == len(items), "kind strings must be unique"
    assert len({x["kind"] for x in lookalikes}) == len(lookalikes)
    for i in items:
        assert i["secret"] in i["text"]
    forms = Counter(i["_form"] for i in items)
    groups = Counter(i["_group"] for i in items)
    group_forms = Counter(f["group"] for f in FORMS if forms[f["name"]])
    shapes = Counter(i["_shape"] for i in items)
    langs = sorted({f["lang"] for f in FORMS if f["lang"] and forms[f["name"]]})
    sorts = {x["kind"].rsplit(" #", 1)[0] for x in lookalikes}
    non_ascii = sum(1 for i in items if not i["secret"].isascii())
    about = (
        "Thirteenth blind corpus, written by benchmarks/make_secrets_blind13.py with "
        f"random.Random({SEED}) and the standard library only, from general knowledge of "
        "credential shapes and of where people paste them into coding-agent chats and where "
        "agents' tool output shows them. No redactor code, tests or earlier corpus texts were "
        "consulted; the vendors were checked against the earlier corpora's kind names and are "
        f"new. {len(items)} fake secrets of {len(kinds_seen)} kinds in {len(forms)} forms "
        f"(chat prose in {len(langs)} languages and {groups['chat']} chat items in all, config "
        "files, shell sessions and CLI output, code, logs, tables, diffs, HTTP and protocol "
        f"traces, agent tool calls and results), and {len(lookalikes)} look-alikes of "
        f"{len(sorts)} sorts, each listing under keep the strings that must survive. Every value "
        "is synthetic. Not scored before it was committed."
    )
    doc = {
        "about": about,
        "secrets": [{k: v for k, v in i.items() if not k.startswith("_")} for i in items],
        "lookalikes": lookalikes,
    }
    OUT.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(
        f"{len(items)} secrets of {len(kinds_seen)} kinds in {len(forms)} forms "
        f"(of {len(FORMS)} written); {len(lookalikes)} look-alikes of {len(sorts)} sorts"
    )
    print("kinds once / twice:", Counter(kinds_seen.values()))
    print("by group (secrets, forms):", {g: (groups[g], group_forms[g]) for g in groups})
    print(f"chat languages ({len(langs)}):", ", ".join(langs))
    print("shapes:", dict(sorted(shapes.items(), key=lambda x: -x[1])))
    print("secrets with non-ASCII letters:", non_ascii)
    print("vendor categories:", Counter(i["_ref"][1][1] for i in items))
    print("unused forms:", [f["name"] for f in FORMS if not forms[f["name"]]])


if __name__ == "__main__":
    main()
