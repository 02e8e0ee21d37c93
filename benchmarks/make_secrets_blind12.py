"""Write benchmarks/data/secrets_blind12.json: a twelfth blind corpus of fake credentials.

What its author read, and what not. Written from general knowledge of how vendors shape
their keys, where people paste them into coding-agent chats and where agents' tool output
shows them, with the standard library only. Not read: anything under ``brain/`` or
``tests/``, ``benchmarks/README.md``, the project README, the bodies of the other
``make_secrets_blind*.py`` generators, any ``redact*`` benchmark, and any commit message.
``git log`` was run once, by mistake (``git log -1 --format=%h``), printing only the hash of
this corpus's own first commit. Read: ``benchmarks/secrets_holdout.py`` (the JSON format,
how an item is loaded and scored); the top docstring of ``make_secrets_blind11.py`` only
(line 1 to its closing quotes), for the output shape and as an example of how to describe a
corpus; the top-level keys, the field names of the first secret and look-alike, the numbers
of secrets and look-alikes, and the first 300 characters of the ``about`` string of each ``benchmarks/data/secrets_*.json``
(blind11's whole, and the ``keep`` list of blind11's first look-alike, one commit hash); and
their ``kind`` names, written to a file with the `` [form]`` suffix stripped (4,926 names,
none seen on screen: a script only searched them for candidate vendors). Seen in passing:
the file names in ``benchmarks/`` and ``benchmarks/data/``, the subject of main's latest
commit (printed by ``git worktree add``), the Makefile's ``lint`` target, the last lines of
``make install``'s log, and the project's style guide. Every vendor below was checked
against those kind names (its whole name as a word, its letters run together when four or
more, its first word as a word, or run together when four letters or more, anywhere in a
kind): of 1,379 candidates, 867 were found there and dropped; of the 512 left, 5 were
dropped by a stricter check (any later word of five letters or more, bar generic words such
as Bank, Cloud or Sync, found as a word) and 69 by hand (common words such as Castle,
Copper, Primer, Shine or Boost, a second product of a vendor already kept, a product of a
vendor surely there already, or simply to trim the list), so the 438 vendors listed are
new by that check, and 345
of them are used (every bank, shop, device, wallet, game and self-hosted vendor, and 146
software services drawn at random). A product sold under a name other than its maker's may
still share a maker with an earlier kind. The corpus was not scored, and nothing in brain
was run on it; it was only checked to load with the fields ``load()`` reads, each secret
being a verbatim substring of its text.

Counts (printed by ``main``): 450 secrets of 345 kinds in 264 embedding forms, and 160
look-alikes (69 sorts) that must come out unchanged, each listing under ``keep`` the
strings that must survive. 240 kinds appear once and 105 twice, in two different forms
with fresh values. Every form is used at least once.

Value shapes: 75 passwords as people type them (words, names, years, symbols, leetspeak,
non-ASCII words such as Kraków, Ísafjörður, Περιστέρι or Жаворонок), 19 passphrases, 17
seed-word lists of 12 or 24 words, 40 short random alphanumerics with no prefix, 10 to 20
characters (over alphabets of 62, lower- or upper-case 36 or base58 letters; 22 of them
mostly letters), 34 hex (lower or upper case, 32 to 64 long), 12 base64, 14 url-safe
base64, 26 UUIDs used as keys, 18 vendor-style prefixes made from the vendor's name
(``xx_live_...``, ``xxk_...``, ``xx-api-...``, ``sk-xx-...``, ``xx.v1....``) with a random
body, 11 JWT-like tokens, 26 ``id:secret``, ``id.secret`` or ``id|secret`` pairs, 7
grouped license keys, 5 byte arrays in decimal or hex, 11 TOTP seeds in base32, 11 app
passwords in four groups of four letters, 18 recovery codes (``1234-5678``,
``k3j9x-2mq8p``, eight digits), 47 PINs, TANs and door codes of 4 to 8 digits, and 59
strings with the secret inside (22 connection strings whose password is the secret, their
schemes drawn from postgres, mysql, mongodb, redis, amqp, mssql, clickhouse, couchdb,
neo4j+s, sftp, ftp, smtps and ldaps; 14 webhook, ``?apikey=``, ``?token=`` and calendar-feed
URLs whose token is the secret; 8 RTSP camera URLs whose password is the secret; 15
``Bearer``, ``Token token=``, ``ApiKey`` or ``x_key=...;region=eu`` values). 27 secrets
carry non-ASCII letters. A secret found inside any other entry's text fails the run.

Names: credential words first, last or in the middle, with an environment part before,
after or inside (``PROD_X_KEY``, ``X_RO_TOKEN``, ``X_KEY_EU``, ``TOKEN_X``, ``X__PASSWD``),
in many spellings (``TKN``, ``CREDS``, ``BEARER``, ``SDK_KEY``, ``INGEST_KEY``,
``PASSCODE``, ``GEHEIMZAHL``, ``RECOVERY_PHRASE``, ``CONN_STR``, ``AUTHZ``) and languages
(``CLAVE``, ``CHIAVE``, ``SCHLUESSEL``, ``SLEUTEL``, ``KLUCZ``, ``KLIC``, ``ANAHTAR``,
``KUNCI``, ``NYCKEL``, ``AVAIN``, ``NOGLE``, ``KLJUCH``, ``CLE_API``, ``JETON``, ``KULCS``,
``RAKTAS``, ``ATSLEGA``, ``VOTME``, ``MIYAO``, ``PASSWORT``, ``CONTRASENA``, ``SENHA``,
``MOT_DE_PASSE``, ``MDP``, ``PAROLA``, ``HASLO``, ``SIFRE``, ``KATA_SANDI``, ``LOSENORD``,
``JELSZO``, ``GESLO``, ``LOZINKA``, ``PAROOL``, ``SLAPTAZODIS``, ``PASAHITZA``,
``FRASE_SEMILLA``), as UPPER_SNAKE, snake, camelCase, PascalCase, kebab, dotted and
``X-Vendor-Key`` header forms. Some values have no credential word near them: an SDK
constructor's argument in Python or TypeScript, a CLI login's positional argument, a
``wlan.connect`` call, an AutoHotkey hotstring, a wallet restored from its phrase, a camera
or webhook URL, a macOS keychain, ``secret-tool``, ``pass`` or ``op read`` output, a note
that gives only the vendor's name and the value.

Forms (chosen to differ from blind11's list): 151 secrets in chat (62 forms: prose in 43
languages, Arabic, Basque, Bengali, Bulgarian, Cantonese, Catalan, Chinese, Croatian,
Czech, Dutch, English, Filipino, Finnish, French, Georgian, German, Greek, Hebrew, Hindi,
Hungarian, Indonesian, Italian, Japanese, Kazakh, Korean, Lithuanian, Norwegian, Persian,
Polish, Portuguese, Romanian, Russian, Slovak, Spanish, Swahili, Swedish, Thai, Turkish,
Ukrainian, Urdu, Vietnamese, Welsh, Yoruba; plus a typo'd message, a reply quoting a
ticket, an SMS, an iMessage paste, a Slack thread export, a Jira comment, a GitHub issue
comment, a Telegram HTML export, an IRC log, a Matrix event, a standup note, the OCR of a
screenshot, a handwritten note typed up, a Zendesk internal note, a Loom transcript, a
mailing-list digest, a Reddit draft, a Signal note to self, a note with no label at all),
108 in config files (78 forms: .envrc, a compose environment list, nested Helm values,
Ansible group_vars and inventory, a Salt pillar, Hiera, terraform.tfvars, terragrunt,
Vagrantfile, CircleCI, GitLab CI variables, a Jenkinsfile, Buildkite, Taskfile, Justfile,
a Makefile, supervisord, a systemd unit, a launchd plist, pm2, an nginx header, Apache
SetEnv, Symfony parameters.yml, Spring application.yml, Quarkus, HOCON, a pyproject tool
section, pip.conf, .netrc, .pgpass, my.cnf, redis.conf, a pgbouncer userlist, odbc.ini, a
Kafka JAAS line, kibana.yml, VS Code settings, JetBrains dataSources.xml, launch.json, an
Insomnia export, an HTTPie session, a Discord bot's config.json, Minecraft
server.properties, a CS autoexec.cfg, ts3server.ini, icecast.xml, Sonarr config.xml,
qBittorrent.conf, Transmission settings.json, OctoPrint, moonraker.conf, Syncthing,
Nextcloud config.php, Forgejo app.ini, Concourse credentials, Renovate hostRules,
sonar-project.properties, gradle.properties, Godot export presets, electron-builder,
a dart-define JSON, Supabase config.toml, .dev.vars, bunfig.toml, Leiningen profiles,
pub-credentials.json, a gem credentials file, Helm repositories.yaml, wpa_supplicant.conf,
Home Assistant configuration.yaml, a nested INI section, XML appSettings, a TOML array of
tables, a deep YAML tree, JSON5, a KeePassXC XML export, a password manager CSV), 50 in
shell sessions and CLI output (35 forms: a .bashrc export, ``env | grep``, Windows
``set``, ``docker inspect``, ``kubectl set env``, ``helm --set``, ``terraform -var`` and
``output -json``, ``az keyvault secret show``, ``gcloud secrets versions access``, ``pass
show``, macOS ``security -w``, ``secret-tool``, ``git remote -v``, ``redis-cli -a``,
``mongosh --password``, ``mc alias set``, ``ldapsearch -w``, ``ipmitool -P``,
``mosquitto_pub -P``, ``nmcli`` and ``netsh wlan``, PowerShell ``Invoke-RestMethod``,
``wget --password``, ``lftp -u``, ``cargo login``, ``npm config list``, fish, nushell,
``setx``, a vendor CLI's login, ``docker exec env``, ``ansible-vault view``, ``sops -d``,
``op read``), 52 in code (34 forms: PHP define, Perl, Lua, Dart, Swift, Elixir, Clojure,
F#, OCaml, Julia, MATLAB, Nim, an Arduino sketch, MicroPython, a C define, C++, Go
``os.Setenv``, a Rust const, Java Properties, Python keyring, a Python dict, Python and
TypeScript SDK constructors, Apps Script, VBA, AutoHotkey, Hardhat accounts, ethers
``fromPhrase``, Python bip39, Kotlin Ktor, an SQL settings INSERT, Jupyter ``%env``, Tcl,
Pascal), 16 in logs (12 forms: an nginx access line, journalctl, a Sentry breadcrumb,
pytest locals, a Node config dump, a Laravel log, a Django debug page, a GraphQL error
echoing variables, ngrok inspect, Fiddler raw, an httpbin echo, a GitHub Actions step), 22
in tables (9 forms: markdown, CSV, AsciiDoc, LaTeX, psql expanded, mysql ``\\G``, a pandas
print, Jira wiki markup, kubectl custom columns), 8 in diffs (6 forms: a unified .env diff,
``git show``, side by side, a JSON Patch, a terraform plan, ``hg diff``), 12 in HTTP and
protocol traces (10 forms: a raw request header, a multipart field, a GraphQL body, a
JSON-RPC call, an XML-RPC login, an FTP session, IMAP LOGIN, Redis RESP AUTH, a query
string URL, a URL in prose), and 31 in agent tool calls and results (18 forms: a Claude
Bash tool_use, an Edit's new_string, a Write whose content is JSON escaped once, a Grep
result, a Cursor run_terminal_cmd, a Roo Code write_to_file, a Continue tool message, a
Codex apply_patch, a PostToolUse hook's stdin, an MCP tools/call result, a LangChain
ToolMessage, a Gemini functionResponse, OpenAI tool_calls arguments escaped twice, a JSONL
line escaped twice, an OpenCode bash part, a Zed assistant's code block, an AutoGen
message, a CrewAI final answer). Each secret's ``kind`` is ``<vendor> <credential>
[<form>]``. PINs, recovery codes, seed words, TOTP seeds and app passwords, and a bank's
or shop's password, go only to forms that take any value (chat, tables, notes, password
stores and exports, keychains, agent output), seed words also to wallet-restore code;
header, query-string, registry and SDK-constructor forms take only keys; login protocols
(IMAP, FTP, XML-RPC, LDAP, IPMI), most database client files (my.cnf, .pgpass, pgbouncer,
odbc.ini, JetBrains, kibana.yml), Wi-Fi, microcontroller, torrent-client, keystore and
game-server files take only passwords; game-server files go only to game vendors; Wi-Fi,
microcontroller and OctoPrint files only to device makers; Home Assistant, Moonraker, MQTT
and IPMI to device makers and self-hosted apps; Sonarr, torrent-client, Syncthing and
Nextcloud files only to self-hosted apps.

Look-alikes, each with its ``keep`` list: a commit SHA in ``git cherry-pick``, ``git log
--oneline`` and ``git bisect`` output, npm integrity, poetry.lock and ``--hash`` sha256s,
go.sum, Cargo.lock checksums, an image digest and docker layer ids, ARNs and Azure resource
ids, placeholders, masked values, SSH and PEM public keys, asset hashes and a Next.js build
id, W3C traceparent and request ids, i18n strings about passwords, code naming secrets
without values, base64 of ordinary text, tmux and screen session names, a test fixture,
booleans named after secrets (``admin_session=true``), UUID primary keys, colours, CSS
module classes, versions with build metadata, SHA256SUMS, ETags, PGP fingerprints, public
wallet addresses, slugs, parcel tracking numbers, Kubernetes uids, container ids, secret
manager references (1Password, vault, ``${VAR}``, Helm, ``/run/secrets``), an empty
password field, DOIs, ULIDs, chat about keys without one, ``git describe``, MAC addresses,
CSP hash sources, Git LFS pointers, IPFS CIDs, Nix store paths, certificate fingerprints,
analytics ids, Discord snowflakes, video ids, COM CLSIDs, GitHub blob URLs, ML random
seeds, a serialVersionUID, a password policy, a redacted log line, Xcode object ids, a
.NET PublicKeyToken, a Unity meta guid, WebSocket handshake keys, a bitcoin txid, a
Gravatar hash, a Terraform state lineage, Content-MD5, and a docs placeholder header.

Run: ``python benchmarks/make_secrets_blind12.py``.
"""

# The corpus's templates are long literal lines.
# ruff: noqa: E501
from __future__ import annotations

import base64
import json
import re
import string
import unicodedata
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from random import Random

SEED = 1212605813
OUT = Path(__file__).parent / "data" / "secrets_blind12.json"
R = Random(SEED)

ALNUM = string.ascii_letters + string.digits
LOWER36 = string.ascii_lowercase + string.digits
UPPER36 = string.ascii_uppercase + string.digits
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

# -- vendors, by what sort of account they sell (each checked new against earlier kinds)
VENDORS = {
    "saas": """Acunetix|Adalo|Aeon Timeline|Akeneo|Alchemer|AlienVault|AltexSoft|Amplience|Anodot|
    Ant Media|Apigee Edge|Appcues|Appfigures|AppFollow|Appsmith|Aptible|Arcjet|Ardoq|Arkose Labs|
    Assembla|Atera|Aurora Solar|Authentiq|Axonius|Bannerbear|Beeceptor|Billsby|Bitmovin|
    Blackfire|Bloomerang|Boomi|Brandfetch|Celonis|Chronosphere|Cin7|Circleback|CodeScene|
    Cognism|Contentstack|Cuttly|Cvent|Dataiku|Demio|Devcycle|Documenso|DotDigital|Dub.co|Dyte|
    Erply|Fidel API|Findigs|Fivetran|Flexport|Flipt|Fondy|Formspark|Formspree|Friendbuy|Gitpod|
    Givebutter|GoodData|Hookdeck|Inngest|Instantly|Jam.dev|Kameleoon|Launchnotes|Livestorm|
    Mailcoach|Memberstack|Mixmax|Moesif|Nango|Nylas|Okendo|OpenPhone|Passbase|Payload CMS|
    Phantombuster|Podio|Prismic|Salesloft|Satismeter|Signnow|Simplecast|Splitbee|Spreedly|
    Stackbit|Tinybird|Truv|Viam|Windsor.ai|Zuplo|Accredible|Acquia|AdRoll|Alteryx|Ampeco|
    Anchore|Appian|AppDynamics|Arena.im|Assertible|Avaza|Awin|Axway|Bannerflow|Beekeeper|
    Benzinga|Biteable|Bitly|Bizzabo|Blackbaud|Bloomreach|Boldsign|Brightpearl|Bynder|Cherwell|
    Cision|Coassemble|Cockpit CMS|Cookiebot|Corezoid|Crossbeam|Cumul.io|Dadata|Dailymotion|
    Datadome|Dealcloud|Demandbase|Dotloop|Dropcontact|Duda|Egnyte|Emburse|Emnify|Eventcube|
    Everflow|Ezoic|Fabric.io|Factorial HR|Filevine|Firebolt|Flexmail|Flinks|Forem|Formstack|
    Gatsby Cloud|Geckoboard|GitGuardian|Gravity Forms|Hashnode|Highlevel|Hubstaff|Humanitix|
    Hypertrack|Insightly|Issuu|Jobber|Kintsugi|Kubecost|Leadfeeder|Lightfunnels|Linkly|
    Loomly|Maileroo|Marketo|Mautic|Metorik|Microcms|Nightfall|Omniconvert|Opencart|Ordergroove|
    Ortto|Paperform|Parseur|Partnerstack|Paymill|Peakon|Piwik Pro|Podbean|Qualtrics|Quickbase|
    Rebilly|Recruitee|Replicon|Saleor|Screenly|Searchspring|Sellix|Sendowl|Senja|Sentinelone|
    Serpstat|Servicetitan|Shoplazza|Shopware|Skilljar|Skyvia|Smartlead|Sortly|Sprout Social|
    Statamic|Storecove|Subsplash|Surveymonkey|Sylius|Tableau|Taiga|Taskade|Testrail|
    Thinkst Canary|Tillo|Tipalti|Triggermesh|Trustpilot|Upvoty|Vtiger|Whatfix|Xentral|Yext|
    Zenhub|Arkesel|Okra|Iamport|Upyun|Treezor|HiBob|Kenjo|Silae|Payfit|Lucca|Swile|Mediawiki|
    Dokku|Localtonet|Serveo|Rathole""",
    "ai": """Vellum|LlamaIndex Cloud|Kagi|Runware|Fal.ai|Krea|Tavus|Bolna|Abacus.AI|
    Flowise|Impira|Affinda|SenseTime""",
    "bank": """Tyme Bank|Capitec|Nedbank|FNB|Standard Bank|Equity Bank|KCB|ING Slaski|Boursorama|
    Fortuneo|La Banque Postale|Credit Mutuel|LCL|Societe Generale|BNP Paribas|
    Natixis|Commerzbank|Sparkasse|Volksbank|DKB|Comdirect|Consorsbank|Trade Republic|
    Scalable Capital|Smartbroker|Flatex|Kontist|Finom|Vivid Money|C24 Bank|Norisbank|Targobank|
    Postbank|Rabobank|ASN Bank|Knab|Triodos|Belfius|KBC|Argenta|Crelan|
    BGL BNP|Raiffeisen|Erste Bank|Bawag|Easybank|UBS|PostFinance|Yuh|Swissquote|Cornercard|
    Halyk|Monobank|PrivatBank""",
    "consumer": """Getaround|Lieferando|Gojek|Takealot|Konga|Rozetka|Allegro|Ctrip|Merpay|au PAY|
    YooMoney|Qiwi|Airtel Money|Safaricom|Ethio Telecom|DuitNow|Postcrossing|Lunchmoney|
    Remitly|iZettle|Deezer|Qobuz|Mixcloud|Audiomack|Letterboxd|Goodreads|Storygraph|Coros|
    MyAnimeList|Anilist|Kitsu|Simkl|Standard Notes|Anytype|Obsidian Sync|Logseq Sync""",
    "iot": """Airthings|Brennenstuhl|Bticino|Foscam|Loxone|Roborock|Ubiquiti|Yeelight|Gardena|
    Hörmann|Danalock|Teltonika|Zyxel|Sagemcom|Mercusys|Cudy|GL.iNet|Uniview|Ecovacs|Viessmann|
    Vaillant|Daikin|Wallbox|Zaptec|myStrom|Homematic|Sonoff|Broadlink|Gigaset|Devolo|Draytek|
    Peplink|Grandstream|Yealink|Mobotix|Vivotek""",
    "crypto": """Umbrel|RaspiBlitz|Bisq|Hodl Hodl|CoinDCX|Paxful|Nexo|Blockfrost|Polygonscan|
    Snowtrace|Nansen|Shyft|BitPay|Amberdata|Blocknative|Arweave Bundlr|Bitpanda|Boerse Stuttgart""",
    "game": """Aternos|GPortal|Apex Hosting|BisectHosting|Playit.gg|Tebex|CraftingStore|Overwolf|
    Game Jolt|Gamebanana|Challengermode|Speedrun.com|Nightbot|Moobot|Fossabot|Trovo|Odysee|
    Owncast""",
    "selfhost": """ListenBrainz|Musixmatch|TheTVDB|Mealie|Tandoor|Grocy|Monica CRM|Firefly III|
    Actual Budget|Ghostfolio|Shiori|Joplin Server|Trilium|Kavita|Komga|Audiobookshelf|
    Calibre-web|Bazarr|Readarr|Jellyseerr|Homarr|Navidrome|Wekan|Focalboard""",
}


def rs(n: int, alphabet: str = ALNUM) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def slug(vendor: str) -> str:
    plain = unicodedata.normalize("NFKD", vendor).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", plain.lower()).strip("_")


def short() -> str:
    """10 to 20 random characters, no prefix; sometimes mostly letters."""
    n = R.randint(10, 20)
    kind = R.choice(("alnum", "lower36", "upper36", "b58", "letters", "letters"))
    if kind == "letters":
        chars = [R.choice(string.ascii_letters) for _ in range(n)]
        for i in R.sample(range(n), R.randint(1, 2)):
            chars[i] = R.choice(string.digits)
        return "".join(chars)
    pool = {"alnum": ALNUM, "lower36": LOWER36, "upper36": UPPER36, "b58": B58}[kind]
    while True:
        v = rs(n, pool)
        if any(c.isdigit() for c in v) and any(c.isalpha() for c in v):
            return v


def hexv() -> str:
    v = rs(R.choice((32, 32, 40, 48, 64)), "0123456789abcdef")
    return v.upper() if R.random() < 0.2 else v


def b64() -> str:
    raw = bytes(R.getrandbits(8) for _ in range(R.choice((24, 32, 33, 48))))
    return base64.b64encode(raw).decode()


def b64url() -> str:
    raw = bytes(R.getrandbits(8) for _ in range(R.choice((24, 30, 32, 36))))
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def uid() -> str:
    v = str(uuid.UUID(int=R.getrandbits(128), version=4))
    return v.upper() if R.random() < 0.15 else v


def prefixed(vendor: str) -> str:
    s = slug(vendor).replace("_", "")[: R.randint(2, 4)]
    pat = R.choice(("{s}_live_{b}", "{s}k_{b}", "{s}-api-{b}", "{S}.{b}", "{s}_sk_{b}",
                    "{s}pat_{b}", "{s}.v1.{b}", "{s}_{b}", "sk-{s}-{b}", "{S}-{b}"))  # fmt: skip
    return pat.format(s=s, S=s.upper(), b=rs(R.randint(24, 40)))


def jwt() -> str:
    head = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    body = json.dumps(
        {"sub": rs(8, LOWER36), "iat": R.randint(1_600_000_000, 1_800_000_000), "scope": "api"}
    )
    body = base64.urlsafe_b64encode(body.encode()).decode().rstrip("=")
    return f"{head}.{body}.{b64url()}"


def grouped() -> str:
    n, k = R.choice(((4, 4), (5, 5), (4, 5), (6, 4), (3, 6)))
    pool = R.choice((UPPER36, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"))
    return "-".join(rs(k, pool) for _ in range(n))


def idsecret() -> str:
    sep = R.choice((":", ":", ".", "|"))
    return f"{rs(R.randint(8, 14), LOWER36)}{sep}{rs(R.randint(24, 36))}"


def bytearr() -> str:
    vals = [R.getrandbits(8) for _ in range(R.choice((16, 24, 32)))]
    if R.random() < 0.5:
        return "[" + ", ".join(str(v) for v in vals) + "]"
    return "{ " + ", ".join(f"0x{v:02x}" for v in vals) + " }"


def base32() -> str:
    return rs(R.choice((16, 26, 32)), B32)


WORDS = """maple river orbit copper lantern velvet harbor saddle thistle quartz meadow falcon
pepper juniper cobalt ember willow canyon granite hollow marble nectar oyster parrot pebble
raven saffron tundra walnut yonder zephyr anchor bramble cinder dune fennel glacier hazel
indigo jasper kelp lilac mango nutmeg olive plume quill rustle sorrel tango umber violet
wharf yarrow zinc acorn badger cactus dahlia eagle ferret gecko heron iris jackal koala
lemur mint newt otter puffin quokka robin salmon tapir urchin viper wombat yak zebra amber
beacon cobra delta echo fjord grove harp inlet jungle kettle ledge mesa nook oasis prairie
quarry ridge summit tide upland vale wave""".split()
NAMES = ("Marta", "Jonas", "Aiko", "Rafael", "Ingrid", "Tomasz", "Leila", "Bogdan", "Chiara",
         "Oskar", "Nadia", "Emeka", "Soren", "Paulina", "Kenji", "Dolores", "Farid", "Greta",
         "Milos", "Yusuf", "Anneke", "Thiago", "Wiktoria", "Ruairi")  # fmt: skip
NONASCII = ("Zürich", "Ñandú", "Kraków", "Ørsted", "Göteborg", "Čokolada", "Düsseldorf",
            "Περιστέρι", "Жаворонок", "Łabędź", "Sevilla·ñ", "Ísafjörður", "Çiçek", "Hà Nội",
            "Tromsø", "Škoda", "Mañana", "Šťastný", "Ελιά", "Ягода", "Ålesund", "Győr")  # fmt: skip
SYMS = "!@#$%&*?_.-+="


def password() -> str:
    w = R.choice(WORDS).capitalize()
    style = R.randint(0, 7)
    year = str(R.randint(1961, 2026))
    sym = R.choice(SYMS)
    if style == 0:
        return f"{w}{year}{sym}"
    if style == 1:
        return f"{R.choice(NAMES)}{sym}{R.choice(WORDS)}{R.randint(1, 99)}"
    if style == 2:
        return f"{R.choice(NONASCII)}{R.randint(10, 9999)}{sym}"
    if style == 3:
        leet = w.lower().translate(str.maketrans("aeios", "43105"))
        return f"{leet}{sym}{R.choice(NAMES).lower()}{R.randint(1, 99)}"
    if style == 4:
        return f"{R.choice(NAMES)}{R.choice(NAMES)}{year}{sym}{sym}"
    if style == 5:
        return f"{w}{sym}{R.choice(NONASCII)}{R.randint(1, 99)}"
    if style == 6:
        return f"{rs(R.randint(12, 18), ALNUM + '!#%&*')}"
    return f"{R.choice(WORDS)}.{R.choice(WORDS)}.{year[2:]}{sym}{R.choice(NAMES)}"


def passphrase() -> str:
    sep = R.choice((" ", "-", ".", "_"))
    return sep.join(R.sample(WORDS, R.randint(4, 6))) + (
        str(R.randint(1, 99)) if R.random() < 0.5 else ""
    )


def seedwords() -> str:
    return " ".join(R.choice(WORDS) for _ in range(R.choice((12, 12, 24))))


def pin() -> str:
    return rs(R.choice((4, 4, 5, 6, 6, 8)), string.digits)


def appgroups() -> str:
    return " ".join(rs(4, string.ascii_lowercase) for _ in range(4))


def recovery() -> str:
    return R.choice((f"{rs(4, string.digits)}-{rs(4, string.digits)}",
                     f"{rs(5, LOWER36)}-{rs(5, LOWER36)}", rs(8, string.digits)))  # fmt: skip


HOSTS = ("db.internal", "10.0.4.21", "pg-prod.eu-west.local", "mq.lan", "192.168.1.40",
         "cache.corp", "mongo-2.svc", "sql01.office.lan")  # fmt: skip


def conn(vendor: str) -> tuple[str, str]:
    pw = R.choice((password, short, b64url))()
    pw = pw.replace("@", "").replace("/", "").replace(":", "").replace("#", "").replace("?", "")
    user = R.choice(("app", "svc_" + slug(vendor)[:6], "admin", "root", "deploy", "ro_user"))
    scheme, port = R.choice((("postgres", 5432), ("mysql", 3306), ("mongodb", 27017),
                             ("redis", 6379), ("amqp", 5672), ("mssql", 1433),
                             ("clickhouse", 8443), ("couchdb", 5984), ("neo4j+s", 7687),
                             ("sftp", 22), ("ftp", 21), ("smtps", 465), ("ldaps", 636)))  # fmt: skip
    return pw, f"{scheme}://{user}:{pw}@{R.choice(HOSTS)}:{port}/{slug(vendor)[:8]}"


def hook(vendor: str) -> tuple[str, str]:
    tok = R.choice((hexv, b64url, short, uid))()
    s = slug(vendor).replace("_", "")
    url = R.choice((f"https://hooks.{s}.com/in/{tok}", f"https://api.{s}.io/v2/feed?apikey={tok}",
                    f"https://{s}.app/webhook/{tok}", f"https://cal.{s}.com/ical/{tok}/basic.ics",
                    f"https://{s}.net/api/notify?token={tok}&channel=ops"))  # fmt: skip
    return tok, url


def rtsp(vendor: str) -> tuple[str, str]:
    pw = (
        password()
        .replace("@", "")
        .replace("/", "")
        .replace(":", "")
        .replace("#", "")
        .replace("?", "")
    )
    return pw, f"rtsp://admin:{pw}@192.168.{R.randint(0, 9)}.{R.randint(2, 250)}:554/stream1"


def inside(vendor: str) -> tuple[str, str]:
    tok = short() if R.random() < 0.5 else hexv()
    s = slug(vendor).replace("_", "")
    return tok, R.choice(
        (f"Bearer {tok}", f"Token token={tok}", f"ApiKey {tok}", f"{s}_key={tok};region=eu")
    )


@dataclass(frozen=True)
class Cred:
    label: str  # the credential's words in the kind name
    cls: str  # K key, P password, N numeric, S seed words, U inside a URL or string
    shapes: tuple[Callable[..., object], ...]


K, P, N, S, U = "K", "P", "N", "S", "U"
CREDS = {
    "saas": [Cred("api key", K, (short, short, hexv, uid, b64url, short)),
             Cred("api token", K, (prefixed, b64, short, jwt)),
             Cred("webhook secret", K, (hexv, b64, prefixed, short)),
             Cred("signing secret", K, (hexv, b64url, short, b64)),
             Cred("client secret", K, (b64url, short, idsecret)),
             Cred("access token", K, (jwt, jwt, prefixed, b64url)),
             Cred("admin password", P, (password,)),
             Cred("license key", K, (grouped,)),
             Cred("encryption key", K, (bytearr, bytearr, b64, hexv)),
             Cred("database url", U, (conn,)),
             Cred("webhook url", U, (hook,)),
             Cred("totp seed", K, (base32,)),
             Cred("recovery code", N, (recovery,)),
             Cred("app password", P, (appgroups,)),
             Cred("auth header", U, (inside,)),
             Cred("service account token", K, (jwt,)),
             Cred("key id and secret", K, (idsecret,))],
    "ai": [Cred("api key", K, (prefixed, prefixed, short, hexv)),
           Cred("project key", K, (prefixed, uid))],
    "bank": [Cred("online banking password", P, (password,)),
             Cred("card pin", N, (pin,)),
             Cred("login passphrase", P, (passphrase,)),
             Cred("api client secret", K, (b64url, uid, idsecret)),
             Cred("tan code", N, (pin,))],
    "consumer": [Cred("password", P, (password,)),
                 Cred("app pin", N, (pin,)),
                 Cred("api token", K, (short, hexv)),
                 Cred("recovery code", N, (recovery,)),
                 Cred("recovery phrase", S, (seedwords,))],
    "iot": [Cred("device password", P, (password,)),
            Cred("admin login password", P, (password, short)),
            Cred("camera stream url", U, (rtsp,)),
            Cred("local api token", K, (hexv, short, uid)),
            Cred("door code", N, (pin,))],
    "crypto": [Cred("seed phrase", S, (seedwords,)),
               Cred("wallet recovery words", S, (seedwords,)),
               Cred("api secret", K, (b64, hexv, idsecret)),
               Cred("wallet password", P, (password, passphrase)),
               Cred("project api key", K, (short, uid))],
    "game": [Cred("server password", P, (password,)),
             Cred("rcon password", P, (password, short)),
             Cred("api token", K, (short, hexv, b64url)),
             Cred("stream key", K, (short, uid))],
    "selfhost": [Cred("api key", K, (hexv, short, uid)),
                 Cred("admin password", P, (password,)),
                 Cred("secret key", K, (b64, hexv)),
                 Cred("database url", U, (conn,))],
}  # fmt: skip


LAST_SHAPE = [""]


def make_value(vendor: str, cred: Cred) -> tuple[str, str]:
    """(secret, what the text shows): the same, or a URL or string holding the secret."""
    shape = R.choice(cred.shapes)
    LAST_SHAPE[0] = shape.__name__
    if shape in (conn, hook, rtsp, inside):
        return shape(vendor)  # type: ignore[operator]
    v = shape(vendor) if shape is prefixed else shape()  # type: ignore[operator]
    return str(v), str(v)


# credential words for names, by value class, in many spellings and languages
WORDS_FOR = {
    K: ("API_KEY", "APIKEY", "KEY", "TOKEN", "TKN", "SECRET", "SECRET_KEY", "ACCESS_TOKEN",
        "AUTH_TOKEN", "BEARER", "CREDENTIAL", "CREDS", "SIGNING_KEY", "CLIENT_SECRET",
        "APP_KEY", "MASTER_KEY", "SERVICE_KEY", "INGEST_KEY", "WRITE_KEY", "ADMIN_TOKEN",
        "SDK_KEY", "PRIVATE_TOKEN", "CLAVE", "CHIAVE", "SCHLUESSEL", "SLEUTEL", "KLUCZ",
        "KLIC", "ANAHTAR", "KUNCI", "NYCKEL", "AVAIN", "NOGLE", "KLJUCH", "CLE_API", "JETON",
        "TOKEN_ACCES", "KULCS", "RAKTAS", "ATSLEGA", "VOTME", "MIYAO", "YOSHI_KEY"),
    P: ("PASSWORD", "PASS", "PASSWD", "PWD", "PW", "PASSWORT", "KENNWORT", "CONTRASENA",
        "SENHA", "MOT_DE_PASSE", "MDP", "PAROLA", "HASLO", "HESLO", "SIFRE", "KATA_SANDI",
        "LOSENORD", "SALASANA", "WACHTWOORD", "JELSZO", "PAROL", "MIMA", "AMHO", "PASSPHRASE",
        "LOGIN_PASS", "USER_PASS", "GESLO", "LOZINKA", "PAROOL", "SLAPTAZODIS", "PASAHITZA"),
    N: ("PIN", "PIN_CODE", "PASSCODE", "DOOR_CODE", "ALARM_CODE", "TAN", "OTP", "UNLOCK_PIN",
        "KOD", "CODIGO", "GEHEIMZAHL", "CODE_PIN", "RECOVERY_CODE", "BACKUP_CODE"),
    S: ("SEED", "MNEMONIC", "SEED_PHRASE", "RECOVERY_PHRASE", "SEED_WORDS", "BACKUP_WORDS",
        "WALLET_WORDS", "FRASE_SEMILLA"),
    U: ("URL", "DSN", "DATABASE_URL", "CONN", "CONNECTION_STRING", "WEBHOOK_URL", "FEED_URL",
        "URI", "ENDPOINT", "AUTH_HEADER", "CONN_STR", "STREAM_URL"),
}  # fmt: skip
ENVS = ("PROD", "STG", "DEV", "V2", "RO", "EU", "LIVE", "OLD", "NEW", "TEST", "2", "BACKUP")


URL_WORDS = {
    "auth header": ("AUTH_HEADER", "AUTHORIZATION", "AUTHZ", "HEADER_AUTH", "AUTH"),
    "webhook url": ("WEBHOOK_URL", "HOOK", "FEED_URL", "NOTIFY_URL", "ENDPOINT", "URL", "ICAL"),
    "camera stream url": ("STREAM_URL", "RTSP", "CAM_URL", "URL", "FEED"),
    "database url": ("DATABASE_URL", "DSN", "CONN", "CONN_STR", "URI", "CONNECTION_STRING", "DB"),
}


def make_name(vendor: str, cred: Cred) -> list[str]:
    """A name's parts: vendor, a credential word, an environment part, in some order."""
    v = slug(vendor).upper().split("_")[:2]
    w = R.choice(URL_WORDS.get(cred.label) or WORDS_FOR[cred.cls]).split("_")
    e = [R.choice(ENVS)]
    order = R.randint(0, 7)
    parts = [
        [*v, *w], [*w, *v], [*e, *v, *w], [*v, *e, *w], [*v, *w, *e], [*v, *w],
        [*w], [*v, "_", *w],
    ][order]  # fmt: skip
    return parts


def case(parts: list[str], style: str) -> str:
    ps = [p for p in parts if p != "_"]
    if style == "upper":
        return "__".join("_".join(x for x in grp) for grp in _split(parts)).upper()
    if style == "snake":
        return "_".join(ps).lower()
    if style == "camel":
        return ps[0].lower() + "".join(p.capitalize() for p in ps[1:])
    if style == "pascal":
        return "".join(p.capitalize() for p in ps)
    if style == "kebab":
        return "-".join(ps).lower()
    if style == "dot":
        return ".".join(ps).lower()
    if style == "header":
        return "X-" + "-".join(p.capitalize() for p in ps)
    raise ValueError(style)


def _split(parts: list[str]) -> list[list[str]]:
    groups: list[list[str]] = [[]]
    for p in parts:
        if p == "_":
            groups.append([])
        else:
            groups[-1].append(p)
    return [g for g in groups if g]


@dataclass
class Ctx:
    vendor: str
    cred: Cred
    v: str  # what the text shows
    parts: list[str]

    def n(self, style: str = "upper") -> str:
        return case(self.parts, style)

    @property
    def s(self) -> str:
        return slug(self.vendor)

    @property
    def dom(self) -> str:
        tld = (".com", ".io", ".app", ".dev", ".net")[len(self.s) % 5]
        return self.s.replace("_", "") + tld


def j1(x: object) -> str:
    return json.dumps(x, ensure_ascii=False)


ALL = "KPNSU"
KPU = "KPU"
KP = "KP"
FORMS: list[tuple[str, str, Callable[[Ctx], str]]] = []


def form(name: str, takes: str = KPU) -> Callable[[Callable[[Ctx], str]], Callable[[Ctx], str]]:
    def add(fn: Callable[[Ctx], str]) -> Callable[[Ctx], str]:
        FORMS.append((name, takes, fn))
        return fn

    return add


# -- chat prose in many languages, as people really type it
CHAT = {
    "english": ["here's my {w} {v} , use this one for now", "ok so the {w} is {v} (dont share pls)",
                "use this one: {v}"],
    "spanish": ["te paso la clave de {w}: {v}", "usa esta, la otra ya no va -> {v}"],
    "portuguese": ["segue a chave do {w}: {v} valeu!", "a senha do {w} é {v}, troca depois"],
    "french": ["voilà ma clé {w} : {v} merci de pas la commit", "le mdp de {w} c'est {v}"],
    "german": ["hier mein {w} Schlüssel: {v} bitte nicht ins Repo", "Passwort für {w} lautet {v}"],
    "italian": ["ecco la chiave di {w}: {v}", "la password {w} è {v} cambiala dopo"],
    "dutch": ["hier is de sleutel voor {w}: {v}", "wachtwoord van {w} = {v}"],
    "polish": ["masz klucz do {w}: {v}", "hasło do {w} to {v} nie wrzucaj do gita"],
    "czech": ["tady je klíč k {w}: {v}", "heslo na {w} je {v}"],
    "slovak": ["tu máš kľúč pre {w}: {v}"],
    "croatian": ["evo ključa za {w}: {v}"],
    "bulgarian": ["ето ключа за {w}: {v}"],
    "ukrainian": ["ось ключ від {w}: {v}", "пароль до {w} — {v}"],
    "russian": ["вот ключ от {w}: {v} не коммить", "пароль от {w}: {v}"],
    "turkish": ["{w} anahtarım bu: {v}", "{w} şifresi {v} kimseyle paylaşma"],
    "arabic": ["هذا مفتاح {w}: {v}", "كلمة السر لـ {w} هي {v}"],
    "hebrew": ["הנה המפתח של {w}: {v}"],
    "persian": ["کلید {w} اینه: {v}"],
    "hindi": ["ये रहा {w} का key: {v}", "{w} ka password {v} hai, baad me badal dena"],
    "urdu": ["یہ رہی {w} کی کلید: {v}"],
    "bengali": ["{w} এর কী হলো {v}"],
    "japanese": ["{w}のキーです: {v} 使ってください", "{w}のパスワードは {v} です"],
    "korean": ["{w} 키 여기요: {v}", "{w} 비번 {v} 임"],
    "chinese": ["{w} 的密钥是 {v}，先用这个", "{w}密码：{v}"],
    "cantonese": ["{w} 條 key 係 {v} 啊"],
    "vietnamese": ["key {w} của mình đây: {v}", "mật khẩu {w} là {v}"],
    "thai": ["นี่คีย์ {w} ครับ: {v}"],
    "indonesian": ["ini kunci {w} aku: {v}", "kata sandi {w}: {v}"],
    "filipino": ["eto yung key ng {w}: {v} pakigamit na lang"],
    "greek": ["ορίστε το κλειδί για {w}: {v}"],
    "finnish": ["tässä {w} avain: {v}"],
    "swedish": ["här är nyckeln till {w}: {v}", "lösenordet till {w} är {v}"],
    "norwegian": ["her er nøkkelen til {w}: {v}"],
    "hungarian": ["itt a {w} kulcs: {v}"],
    "romanian": ["uite cheia de la {w}: {v}"],
    "georgian": ["აი {w}-ის გასაღები: {v}"],
    "swahili": ["huu ndio ufunguo wa {w}: {v}"],
    "yoruba": ["kọ́kọ́rọ́ {w} nìyí: {v}"],
    "welsh": ["dyma allwedd {w}: {v}"],
    "basque": ["hona hemen {w} gakoa: {v}"],
    "catalan": ["aquí tens la clau de {w}: {v}"],
    "lithuanian": ["štai {w} raktas: {v}"],
    "kazakh": ["{w} кілті: {v}"],
}  # fmt: skip
for _lang, _lines in CHAT.items():

    def _chat(c: Ctx, lines: list[str] = _lines) -> str:
        return R.choice(lines).format(w=c.vendor, v=c.v)

    FORMS.append((f"chat {_lang}", ALL, _chat))


@form("chat typo'd", ALL)
def _(c: Ctx) -> str:
    return f"heres teh {c.vendor} kye  {c.v}   thx, can u wire it up in the stagign config"


@form("chat reply quoting a ticket", ALL)
def _(c: Ctx) -> str:
    return (f"> Customer wrote: I can't get into {c.vendor} anymore\n> ...\n"
            f"Their old one was {c.v} -- reset it after we test")  # fmt: skip


@form("chat sms from a colleague", ALL)
def _(c: Ctx) -> str:
    return f"[SMS 09:41] Dana: {c.vendor} -> {c.v}\n[SMS 09:42] Dana: that's for the shared account"


@form("chat iMessage paste", ALL)
def _(c: Ctx) -> str:
    return f"Sven Holm, Today 14:02\n{c.vendor}\n{c.v}\nDelivered"


@form("chat Slack thread export", ALL)
def _(c: Ctx) -> str:
    return j1({"user": "U04LKJ2", "text": f"for {c.vendor} try {c.v}", "thread_ts": "1765011.0042"})


@form("chat Jira comment", ALL)
def _(c: Ctx) -> str:
    return f"*Comment* by priya.n: Deployed. {c.vendor} creds for QA: {{code}}{c.v}{{code}}"


@form("chat GitHub issue comment", ALL)
def _(c: Ctx) -> str:
    return (
        f"@maint I reproduced it with my own {c.vendor} account:\n\n```\n{c.v}\n```\n(I'll rotate)"
    )


@form("chat Telegram export", ALL)
def _(c: Ctx) -> str:
    return f'<div class="text">{c.vendor} — {c.v}</div>'


@form("chat IRC log", ALL)
def _(c: Ctx) -> str:
    return f"[22:14] <kiwi_> {c.vendor}: {c.v}\n[22:14] <kiwi_> oops wrong window"


@form("chat Matrix message", ALL)
def _(c: Ctx) -> str:
    return j1(
        {"type": "m.room.message", "content": {"msgtype": "m.text", "body": f"{c.vendor}: {c.v}"}}
    )


@form("chat standup note", ALL)
def _(c: Ctx) -> str:
    return f"Yesterday: migrated {c.vendor}.\nToday: swap {c.v} into prod.\nBlockers: none"


@form("chat OCR of a screenshot", ALL)
def _(c: Ctx) -> str:
    return f"{c.vendor} | Settings > Security\n\n{c.v}\n\n[ Copy ]  [ Regenerate ]"


@form("chat handwritten note typed up", ALL)
def _(c: Ctx) -> str:
    return f"note from the drawer (typed up): {c.vendor.lower()}  —  {c.v}   (mum's)"


@form("chat Zendesk ticket", ALL)
def _(c: Ctx) -> str:
    return (
        f"Ticket #48213 — Requester: o.berg\nInternal note: {c.vendor} login confirmed with {c.v}"
    )


@form("chat Loom transcript", ALL)
def _(c: Ctx) -> str:
    return f"00:41 so you go to {c.vendor} and you paste, uh, {c.v} right in there and hit save"


@form("chat mailing list digest", ALL)
def _(c: Ctx) -> str:
    return f"Message: 3\nSubject: Re: {c.vendor} access\n\nSorry, forgot to attach: {c.v}\n\n--\nops-list"


@form("chat Reddit draft", ALL)
def _(c: Ctx) -> str:
    return (
        f"Why does {c.vendor} reject my token?? it's `{c.v}` and it worked yesterday. EDIT: removed"
    )


@form("chat Signal note to self", ALL)
def _(c: Ctx) -> str:
    return f"Note to Self\n{c.v}\n({c.vendor})"


@form("chat no label at all", ALL)
def _(c: Ctx) -> str:
    return f"{c.vendor}\n{c.v}"


# -- config files and settings
@form("config .envrc")
def _(c: Ctx) -> str:
    return f"use nix\nexport {c.n()}='{c.v}'\nwatch_file flake.lock"


@form("config docker-compose environment list")
def _(c: Ctx) -> str:
    return f"services:\n  worker:\n    image: app:latest\n    environment:\n      - {c.n()}={c.v}\n"


@form("config Helm values nested")
def _(c: Ctx) -> str:
    return f'global:\n  integrations:\n    {c.s}:\n      enabled: true\n      {c.n("camel")}: "{c.v}"\n'


@form("config Ansible group_vars")
def _(c: Ctx) -> str:
    return f'---\nntp_server: pool.ntp.org\n{c.n("snake")}: "{c.v}"\n'


@form("config Ansible inventory ini")
def _(c: Ctx) -> str:
    return f"[web]\nweb1 ansible_host=10.1.2.3\n\n[web:vars]\n{c.n('snake')}={c.v}\n"


@form("config Salt pillar")
def _(c: Ctx) -> str:
    return f"{c.s}:\n  lookup:\n    {c.n('snake')}: '{c.v}'\n"


@form("config Hiera yaml")
def _(c: Ctx) -> str:
    return f"---\nprofile::{c.s}::{c.n('snake')}: '{c.v}'\n"


@form("config terraform.tfvars")
def _(c: Ctx) -> str:
    return f'region = "eu-central-1"\n{c.n("snake")} = "{c.v}"\n'


@form("config terragrunt inputs")
def _(c: Ctx) -> str:
    return f'inputs = {{\n  name = "{c.s}"\n  {c.n("snake")} = "{c.v}"\n}}\n'


@form("config Vagrantfile")
def _(c: Ctx) -> str:
    return f'Vagrant.configure("2") do |config|\n  config.vm.provision "shell", env: {{"{c.n()}" => "{c.v}"}}\nend'


@form("config CircleCI")
def _(c: Ctx) -> str:
    return f"jobs:\n  build:\n    docker:\n      - image: cimg/node:20.1\n    environment:\n      {c.n()}: {c.v}\n"


@form("config GitLab CI variables")
def _(c: Ctx) -> str:
    return f'variables:\n  GIT_DEPTH: "10"\n  {c.n()}: "{c.v}"\n'


@form("config Jenkinsfile environment")
def _(c: Ctx) -> str:
    return f"pipeline {{\n  environment {{\n    {c.n()} = '{c.v}'\n  }}\n}}"


@form("config Buildkite pipeline")
def _(c: Ctx) -> str:
    return f"steps:\n  - label: ':rocket: deploy'\n    env:\n      {c.n()}: \"{c.v}\"\n"


@form("config Taskfile")
def _(c: Ctx) -> str:
    return f"version: '3'\nenv:\n  {c.n()}: '{c.v}'\ntasks:\n  run:\n    cmds: [go run .]\n"


@form("config Justfile")
def _(c: Ctx) -> str:
    return f'export {c.n()} := "{c.v}"\n\nserve:\n    cargo run'


@form("config Makefile variable")
def _(c: Ctx) -> str:
    return f"{c.n()} ?= {c.v}\n\ndeploy:\n\t./deploy.sh"


@form("config supervisord")
def _(c: Ctx) -> str:
    return f'[program:sync]\ncommand=/opt/sync/run\nenvironment={c.n()}="{c.v}",LOG=info\n'


@form("config systemd unit")
def _(c: Ctx) -> str:
    return f'[Service]\nExecStart=/usr/local/bin/agent\nEnvironment="{c.n()}={c.v}"\n'


@form("config launchd plist")
def _(c: Ctx) -> str:
    return (f"<key>EnvironmentVariables</key>\n<dict>\n  <key>{c.n()}</key>\n"
            f"  <string>{c.v}</string>\n</dict>")  # fmt: skip


@form("config pm2 ecosystem")
def _(c: Ctx) -> str:
    return (
        f"module.exports = {{ apps: [{{ name: 'api', env_production: {{ {c.n()}: '{c.v}' }} }}] }}"
    )


@form("config nginx header", "K")
def _(c: Ctx) -> str:
    return f'location /up/ {{\n  proxy_pass https://api.{c.dom};\n  proxy_set_header {c.n("header")} "{c.v}";\n}}'


@form("config Apache SetEnv")
def _(c: Ctx) -> str:
    return f'<VirtualHost *:443>\n  SetEnv {c.n()} "{c.v}"\n</VirtualHost>'


@form("config Symfony parameters.yml")
def _(c: Ctx) -> str:
    return f"parameters:\n    locale: en\n    {c.n('dot')}: '{c.v}'\n"


@form("config Spring application.yml")
def _(c: Ctx) -> str:
    return f"spring:\n  application:\n    name: ledger\n{c.s.replace('_', '-')}:\n  {c.n('kebab')}: {c.v}\n"


@form("config Quarkus application.properties")
def _(c: Ctx) -> str:
    return f"quarkus.http.port=8080\n%prod.{c.n('dot')}={c.v}\n"


@form("config HOCON application.conf")
def _(c: Ctx) -> str:
    return f'{c.s} {{\n  {c.n("camel")} = "{c.v}"\n  timeout = 5s\n}}'


@form("config pyproject tool section")
def _(c: Ctx) -> str:
    return f'[tool.{c.s}]\nproject = "web"\n{c.n("snake")} = "{c.v}"\n'


@form("config pip.conf index url", "K")
def _(c: Ctx) -> str:
    return f"[global]\nextra-index-url = https://__token__:{c.v}@pypi.{c.dom}/simple/\n"


@form("config .netrc", KP)
def _(c: Ctx) -> str:
    return f"machine api.{c.dom}\n  login ci-bot\n  password {c.v}\n"


@form("config .pgpass", "P")
def _(c: Ctx) -> str:
    return f"db.internal:5432:*:{c.s}:{c.v}"


@form("config my.cnf", "P")
def _(c: Ctx) -> str:
    return f'[client]\nuser={c.s[:10]}\npassword="{c.v}"\nhost=127.0.0.1\n'


@form("config redis.conf", KP)
def _(c: Ctx) -> str:
    return f"bind 127.0.0.1\nport 6379\nrequirepass {c.v}\n"


@form("config pgbouncer userlist", "P")
def _(c: Ctx) -> str:
    return f'"{c.s}" "{c.v}"\n"stats" "md5a1b2"'


@form("config odbc.ini", "P")
def _(c: Ctx) -> str:
    return f"[{c.vendor}]\nDriver=PostgreSQL\nServer=10.0.0.8\nUID=report\nPWD={c.v}\n"


@form("config Kafka client.properties", KP)
def _(c: Ctx) -> str:
    return ("security.protocol=SASL_SSL\nsasl.jaas.config=org.apache.kafka.common.security.plain."
            f'PlainLoginModule required username="{c.s}" password="{c.v}";\n')  # fmt: skip


@form("config kibana.yml", "P")
def _(c: Ctx) -> str:
    return f'server.host: 0.0.0.0\nelasticsearch.username: kibana_system\nelasticsearch.password: "{c.v}"\n'


@form("config VS Code settings.json")
def _(c: Ctx) -> str:
    return j1({"editor.tabSize": 2, f"{c.s}.{c.n('camel')}": c.v})


@form("config JetBrains dataSources.xml", "P")
def _(c: Ctx) -> str:
    return (f'<data-source name="{c.vendor}">\n  <user-name>app</user-name>\n'
            f'  <password>{c.v}</password>\n</data-source>')  # fmt: skip


@form("config launch.json env")
def _(c: Ctx) -> str:
    return j1({"configurations": [{"type": "node", "name": "api", "env": {c.n(): c.v}}]})


@form("config Insomnia export")
def _(c: Ctx) -> str:
    return j1({"_type": "environment", "name": "Prod", "data": {c.n("snake"): c.v}})


@form("config HTTPie session", "K")
def _(c: Ctx) -> str:
    return j1({"headers": [{"name": c.n("header"), "value": c.v}], "cookies": []})


@form("config Discord bot config.json")
def _(c: Ctx) -> str:
    return j1({"prefix": "!", c.n("camel"): c.v, "owner": "2913"})


@form("config server.properties rcon", "P")
def _(c: Ctx) -> str:
    return f"motd=A {c.vendor} server\nenable-rcon=true\nrcon.port=25575\nrcon.password={c.v}\n"


@form("config autoexec.cfg", "P")
def _(c: Ctx) -> str:
    return f'hostname "{c.vendor} 5v5"\nrcon_password "{c.v}"\nsv_lan 0\n'


@form("config ts3server.ini", "P")
def _(c: Ctx) -> str:
    return f"machine_id=\nserveradmin_password={c.v}\nquery_port=10011\n"


@form("config icecast.xml", "P")
def _(c: Ctx) -> str:
    return f"<authentication>\n  <source-password>{c.v}</source-password>\n</authentication>"


@form("config Sonarr config.xml", "K")
def _(c: Ctx) -> str:
    return f"<Config>\n  <Port>8989</Port>\n  <ApiKey>{c.v}</ApiKey>\n</Config>"


@form("config qBittorrent.conf", "P")
def _(c: Ctx) -> str:
    return f"[Preferences]\nWebUI\\Username=admin\nWebUI\\Password_Plain={c.v}\n"


@form("config Transmission settings.json", "P")
def _(c: Ctx) -> str:
    return j1({"rpc-enabled": True, "rpc-username": "tr", "rpc-password": c.v})


@form("config OctoPrint config.yaml", "K")
def _(c: Ctx) -> str:
    return f"api:\n  key: {c.v}\nserver:\n  host: 0.0.0.0\n"


@form("config moonraker.conf", KPU)
def _(c: Ctx) -> str:
    return f"[notifier {c.s}]\nurl: {c.v}\nevents: error\n"


@form("config Syncthing config.xml", "K")
def _(c: Ctx) -> str:
    return f'<gui enabled="true" tls="false">\n  <address>127.0.0.1:8384</address>\n  <apikey>{c.v}</apikey>\n</gui>'


@form("config Nextcloud config.php", "P")
def _(c: Ctx) -> str:
    return f"<?php\n$CONFIG = array (\n  'dbuser' => 'nc',\n  'dbpassword' => '{c.v}',\n);"


@form("config Forgejo app.ini", KP)
def _(c: Ctx) -> str:
    return f"[mailer]\nENABLED = true\nUSER = bot@{c.dom}\nPASSWD = `{c.v}`\n"


@form("config Concourse credentials.yml")
def _(c: Ctx) -> str:
    return f"{c.n('kebab')}: {c.v}\ngit-branch: main\n"


@form("config renovate.json hostRules", "K")
def _(c: Ctx) -> str:
    return j1({"hostRules": [{"matchHost": f"npm.{c.dom}", "token": c.v}]})


@form("config sonar-project.properties", "K")
def _(c: Ctx) -> str:
    return f"sonar.projectKey={c.s}\nsonar.host.url=https://sonar.corp\nsonar.token={c.v}\n"


@form("config gradle.properties")
def _(c: Ctx) -> str:
    return f"org.gradle.jvmargs=-Xmx2g\n{c.n('camel')}={c.v}\n"


@form("config Godot export_presets.cfg", "P")
def _(c: Ctx) -> str:
    return (
        f'[preset.0.options]\nkeystore/release_user="upload"\nkeystore/release_password="{c.v}"\n'
    )


@form("config electron-builder.yml", "K")
def _(c: Ctx) -> str:
    return f"appId: com.{c.s}.desktop\npublish:\n  provider: generic\n  token: {c.v}\n"


@form("config dart-define json")
def _(c: Ctx) -> str:
    return j1({c.n(): c.v, "FLAVOR": "prod"})


@form("config supabase config.toml")
def _(c: Ctx) -> str:
    return f'[auth.external.{c.s}]\nenabled = true\nsecret = "{c.v}"\n'


@form("config .dev.vars")
def _(c: Ctx) -> str:
    return f'{c.n()}="{c.v}"\n'


@form("config bunfig.toml", "K")
def _(c: Ctx) -> str:
    return f'[install.scopes]\n"@{c.s}" = {{ token = "{c.v}", url = "https://npm.{c.dom}/" }}\n'


@form("config Leiningen profiles.clj")
def _(c: Ctx) -> str:
    return f'{{:user {{:env {{:{c.n("kebab")} "{c.v}"}}}}}}'


@form("config pub-credentials.json", "K")
def _(c: Ctx) -> str:
    return j1({"accessToken": c.v, "tokenEndpoint": "https://accounts.google.com/o/oauth2/token"})


@form("config gem credentials", "K")
def _(c: Ctx) -> str:
    return f"---\n:rubygems_api_key: {c.v}\n"


@form("config Helm repositories.yaml", KP)
def _(c: Ctx) -> str:
    return f"repositories:\n- name: {c.s}\n  url: https://charts.{c.dom}\n  username: ci\n  password: {c.v}\n"


@form("config wpa_supplicant.conf", "P")
def _(c: Ctx) -> str:
    return f'network={{\n    ssid="{c.vendor}-Guest"\n    psk="{c.v}"\n}}'


@form("config Home Assistant configuration.yaml")
def _(c: Ctx) -> str:
    return f'{c.s}:\n  host: 192.168.1.50\n  {c.n("snake")}: "{c.v}"\n'


@form("config ini nested section", ALL)
def _(c: Ctx) -> str:
    return f"[accounts]\n[accounts.{c.s}]\nuser = me\n{c.n('snake')} = {c.v}\n"


@form("config XML appSettings")
def _(c: Ctx) -> str:
    return f'<appSettings>\n  <add key="{c.n("pascal")}" value="{c.v}" />\n</appSettings>'


@form("config TOML array of tables")
def _(c: Ctx) -> str:
    return f'[[integrations]]\nname = "{c.vendor}"\n{c.n("snake")} = "{c.v}"\n'


@form("config deep YAML")
def _(c: Ctx) -> str:
    return f"env:\n  prod:\n    eu:\n      services:\n        {c.s}:\n          {c.n('snake')}: {c.v}\n"


@form("config JSON5")
def _(c: Ctx) -> str:
    return f"{{\n  // {c.vendor}\n  {c.n('camel')}: '{c.v}',\n}}"


@form("config KeePassXC XML export", ALL)
def _(c: Ctx) -> str:
    return (f"<Entry><String><Key>Title</Key><Value>{c.vendor}</Value></String>"
            f"<String><Key>Password</Key><Value>{c.v}</Value></String></Entry>")  # fmt: skip


@form("config password manager CSV", ALL)
def _(c: Ctx) -> str:
    return f"name,url,username,password,note\n{c.vendor},https://{c.dom},me@mail.com,{c.v},"


# -- shell sessions and CLI output
@form("shell export in .bashrc")
def _(c: Ctx) -> str:
    return f"alias ll='ls -la'\nexport {c.n()}=\"{c.v}\"\n"


@form("shell env | grep")
def _(c: Ctx) -> str:
    return f"$ env | grep -i {c.s[:5]}\n{c.n()}={c.v}"


@form("shell Windows set output")
def _(c: Ctx) -> str:
    return f"C:\\Users\\dev> set {c.n()[:4]}\n{c.n()}={c.v}"


@form("shell docker inspect Env")
def _(c: Ctx) -> str:
    return '"Env": [\n    "PATH=/usr/local/bin",\n    ' + j1(f"{c.n()}={c.v}") + "\n]"


@form("shell kubectl set env")
def _(c: Ctx) -> str:
    return f"$ kubectl set env deploy/api {c.n()}={c.v}\ndeployment.apps/api env updated"


@form("shell helm install --set")
def _(c: Ctx) -> str:
    return f"helm upgrade --install api ./chart --set {c.s}.{c.n('camel')}={c.v}"


@form("shell terraform -var")
def _(c: Ctx) -> str:
    return f"terraform apply -var '{c.n('snake')}={c.v}' -auto-approve"


@form("shell terraform output -json")
def _(c: Ctx) -> str:
    return j1({c.n("snake"): {"sensitive": False, "type": "string", "value": c.v}})


@form("shell az keyvault secret show")
def _(c: Ctx) -> str:
    return j1({"id": f"https://kv-prod.vault.azure.net/secrets/{c.n('kebab')}/3f1a", "value": c.v})


@form("shell gcloud secrets access")
def _(c: Ctx) -> str:
    return f"$ gcloud secrets versions access latest --secret={c.n('kebab')}\n{c.v}"


@form("shell pass show", ALL)
def _(c: Ctx) -> str:
    return f"$ pass show web/{c.s}\n{c.v}\nlogin: me@mail.com"


@form("shell macOS security -w", ALL)
def _(c: Ctx) -> str:
    return f"$ security find-generic-password -s '{c.vendor}' -w\n{c.v}"


@form("shell secret-tool lookup", ALL)
def _(c: Ctx) -> str:
    return f"$ secret-tool lookup service {c.s}\n{c.v}"


@form("shell git remote -v", "K")
def _(c: Ctx) -> str:
    return (f"origin\thttps://oauth2:{c.v}@git.{c.dom}/team/app.git (fetch)\n"
            f"origin\thttps://oauth2:{c.v}@git.{c.dom}/team/app.git (push)")  # fmt: skip


@form("shell redis-cli -a", KP)
def _(c: Ctx) -> str:
    return f"$ redis-cli -h cache.corp -a '{c.v}' ping\nPONG"


@form("shell mongosh --password", KP)
def _(c: Ctx) -> str:
    return f"mongosh \"mongodb://10.0.0.9\" --username app --password '{c.v}'"


@form("shell mc alias set", KP)
def _(c: Ctx) -> str:
    return f"mc alias set {c.s} https://s3.{c.dom} minio-{c.s[:4]} {c.v}"


@form("shell ldapsearch -w", "P")
def _(c: Ctx) -> str:
    return f"ldapsearch -x -H ldaps://dc1 -D 'cn=svc,dc=corp' -w '{c.v}' '(uid=*)'"


@form("shell ipmitool -P", "P")
def _(c: Ctx) -> str:
    return f"ipmitool -I lanplus -H 10.9.0.4 -U ADMIN -P '{c.v}' power status"


@form("shell mosquitto_pub -P", KP)
def _(c: Ctx) -> str:
    return f"mosquitto_pub -h mqtt.lan -u {c.s} -P '{c.v}' -t home/test -m 1"


@form("shell nmcli wifi connect", "P")
def _(c: Ctx) -> str:
    return f"nmcli dev wifi connect '{c.vendor}-5G' password '{c.v}'"


@form("shell netsh wlan key=clear", "P")
def _(c: Ctx) -> str:
    return f"Security settings\n-------------------\n    Authentication         : WPA2-Personal\n    Key Content            : {c.v}"


@form("shell Invoke-RestMethod headers", "K")
def _(c: Ctx) -> str:
    return (
        f"Invoke-RestMethod -Uri https://api.{c.dom}/v1/me -Headers @{{'{c.n('header')}'='{c.v}'}}"
    )


@form("shell wget --password", KP)
def _(c: Ctx) -> str:
    return f"wget --user=ci --password='{c.v}' https://files.{c.dom}/build.tgz"


@form("shell lftp -u", KP)
def _(c: Ctx) -> str:
    return f"lftp -u upload,'{c.v}' sftp://files.{c.dom}"


@form("shell cargo login", "K")
def _(c: Ctx) -> str:
    return f"$ cargo login --registry {c.s} {c.v}\n       Login token for `{c.s}` saved"


@form("shell npm config list", "K")
def _(c: Ctx) -> str:
    return f'; "user" config from /home/me/.npmrc\n\n//npm.{c.dom}/:_authToken = "{c.v}"'


@form("shell fish set -gx")
def _(c: Ctx) -> str:
    return f"set -gx {c.n()} '{c.v}'"


@form("shell nushell $env")
def _(c: Ctx) -> str:
    return f'$env.{c.n()} = "{c.v}"'


@form("shell cmd setx")
def _(c: Ctx) -> str:
    return f'C:\\> setx {c.n()} "{c.v}"\n\nSUCCESS: Specified value was saved.'


@form("shell SDK CLI login positional", KP)
def _(c: Ctx) -> str:
    return f"$ {c.s.replace('_', '')} login {c.v}\n✔ Logged in as team-ops"


@form("shell docker exec env")
def _(c: Ctx) -> str:
    return f"$ docker exec api env\nHOSTNAME=3e1f\n{c.n()}={c.v}\nHOME=/root"


@form("shell ansible-vault view")
def _(c: Ctx) -> str:
    return f"$ ansible-vault view group_vars/prod/vault.yml\nVault password: \nvault_{c.n('snake')}: {c.v}"


@form("shell sops -d")
def _(c: Ctx) -> str:
    return f"$ sops -d secrets.enc.yaml\n{c.n('snake')}: {c.v}\nsops_version: 3.8.1"


@form("shell op read", ALL)
def _(c: Ctx) -> str:
    return f"$ op read op://Private/{c.vendor}/credential\n{c.v}"


# -- code in many languages
@form("code PHP define")
def _(c: Ctx) -> str:
    return f"<?php\ndefine('{c.n()}', '{c.v}');"


@form("code Perl")
def _(c: Ctx) -> str:
    return f"my ${c.n('snake')} = '{c.v}';\n$ua->default_header('X-Token' => ${c.n('snake')});"


@form("code Lua")
def _(c: Ctx) -> str:
    return f'local {c.n("snake")} = "{c.v}"\nreturn {{ key = {c.n("snake")} }}'


@form("code Dart const")
def _(c: Ctx) -> str:
    return f"const String {c.n('camel')} = '{c.v}';"


@form("code Swift let")
def _(c: Ctx) -> str:
    return f'let {c.n("camel")} = "{c.v}"'


@form("code Elixir config")
def _(c: Ctx) -> str:
    return f'config :{c.s}, {c.n("snake")}: "{c.v}"'


@form("code Clojure def")
def _(c: Ctx) -> str:
    return f'(def {c.n("kebab")} "{c.v}")'


@form("code F# literal")
def _(c: Ctx) -> str:
    return f'let [<Literal>] {c.n("pascal")} = "{c.v}"'


@form("code OCaml")
def _(c: Ctx) -> str:
    return f'let {c.n("snake")} = "{c.v}"'


@form("code Julia")
def _(c: Ctx) -> str:
    return f'const {c.n()} = "{c.v}"\nHTTP.get(url; headers=["Authorization" => {c.n()}])'


@form("code MATLAB")
def _(c: Ctx) -> str:
    return f"opts = weboptions('KeyName','{c.n('header')}','KeyValue','{c.v}');"


@form("code Nim")
def _(c: Ctx) -> str:
    return f'const {c.n("camel")} = "{c.v}"'


@form("code Arduino sketch", "P")
def _(c: Ctx) -> str:
    return f'#include <WiFi.h>\nconst char* ssid = "shed";\nconst char* {c.n("snake")} = "{c.v}";'


@form("code MicroPython", "P")
def _(c: Ctx) -> str:
    return (
        f"import network\nwlan = network.WLAN(network.STA_IF)\nwlan.connect('{c.vendor}', '{c.v}')"
    )


@form("code C define")
def _(c: Ctx) -> str:
    return f'#define {c.n()} "{c.v}"'


@form("code C++ std::string")
def _(c: Ctx) -> str:
    return f'static const std::string k{c.n("pascal")} = "{c.v}";'


@form("code Go os.Setenv")
def _(c: Ctx) -> str:
    return f'os.Setenv("{c.n()}", "{c.v}")'


@form("code Rust const")
def _(c: Ctx) -> str:
    return f'const {c.n()}: &str = "{c.v}";'


@form("code Java Properties")
def _(c: Ctx) -> str:
    return f'props.setProperty("{c.n("dot")}", "{c.v}");'


@form("code Python keyring", KP)
def _(c: Ctx) -> str:
    return f"import keyring\nkeyring.set_password('{c.s}', 'me', '{c.v}')"


@form("code Python dict literal")
def _(c: Ctx) -> str:
    return f"SETTINGS = {{\n    'timeout': 30,\n    '{c.n('snake')}': '{c.v}',\n}}"


@form("code Python SDK constructor no word", "K")
def _(c: Ctx) -> str:
    cls = "".join(p.capitalize() for p in c.s.split("_"))
    return f'from {c.s} import {cls}\n\nclient = {cls}("{c.v}")'


@form("code TypeScript SDK no word", "K")
def _(c: Ctx) -> str:
    cls = "".join(p.capitalize() for p in c.s.split("_"))
    return f"import {{ {cls} }} from '@{c.s}/sdk';\nconst c = new {cls}('{c.v}');"


@form("code Google Apps Script")
def _(c: Ctx) -> str:
    return f"PropertiesService.getScriptProperties().setProperty('{c.n()}', '{c.v}');"


@form("code VBA")
def _(c: Ctx) -> str:
    return f'Const {c.n("pascal")} As String = "{c.v}"'


@form("code AutoHotkey", ALL)
def _(c: Ctx) -> str:
    return f"^!p::\nSendInput, {c.v}\nreturn"


@form("code Hardhat accounts", "K")
def _(c: Ctx) -> str:
    return f"networks: {{ sepolia: {{ url: RPC, accounts: ['{c.v}'] }} }}"


@form("code ethers fromPhrase", "S")
def _(c: Ctx) -> str:
    return f'const wallet = ethers.Wallet.fromPhrase("{c.v}");'


@form("code bip39 python", "S")
def _(c: Ctx) -> str:
    return f"seed = Mnemonic('english').to_seed('{c.v}')"


@form("code Kotlin Ktor")
def _(c: Ctx) -> str:
    return f'client.get(url) {{ header("{c.n("header")}", "{c.v}") }}'


@form("code SQL INSERT into settings", ALL)
def _(c: Ctx) -> str:
    return f"INSERT INTO settings (name, value) VALUES ('{c.n('snake')}', '{c.v}');"


@form("code Jupyter %env")
def _(c: Ctx) -> str:
    return f"%env {c.n()}={c.v}"


@form("code Tcl")
def _(c: Ctx) -> str:
    return f'set {c.n("snake")} "{c.v}"'


@form("code Pascal const")
def _(c: Ctx) -> str:
    return f"const\n  {c.n('pascal')} = '{c.v}';"


# -- logs
@form("log nginx access query", "K")
def _(c: Ctx) -> str:
    return (f'10.0.3.7 - - [07/Dec/2026:10:14:02 +0000] "GET /v1/sync?{c.n("snake")}={c.v} '
            f'HTTP/1.1" 200 512 "-" "python-requests/2.32"')  # fmt: skip


@form("log journalctl")
def _(c: Ctx) -> str:
    return f"Dec 07 10:14:02 box worker[812]: loaded {c.n()}={c.v} from /etc/worker.env"


@form("log Sentry breadcrumb")
def _(c: Ctx) -> str:
    return j1({"category": "config", "message": "settings loaded", "data": {c.n("snake"): c.v}})


@form("log pytest locals")
def _(c: Ctx) -> str:
    return f"    def test_sync(client):\n>       assert r.ok\nE       assert False\n\n{c.n('snake')} = '{c.v}'\nclient     = <Client>"


@form("log Node config dump")
def _(c: Ctx) -> str:
    return f"[config] {{\n  port: 3000,\n  {c.n('camel')}: '{c.v}',\n  debug: true\n}}"


@form("log Laravel log")
def _(c: Ctx) -> str:
    return f'[2026-12-07 10:14:02] production.ERROR: auth failed {{"{c.n("snake")}":"{c.v}"}}'


@form("log Django debug settings")
def _(c: Ctx) -> str:
    return f"Settings\nUsing settings module shop.settings\n{c.n()}\t'{c.v}'\nDEBUG\tTrue"


@form("log GraphQL error echo")
def _(c: Ctx) -> str:
    return j1(
        {"errors": [{"message": "unauthorized", "extensions": {"variables": {c.n("camel"): c.v}}}]}
    )


@form("log ngrok inspect", "K")
def _(c: Ctx) -> str:
    return f"POST /hooks 200 OK\n{c.n('header')}: {c.v}\nContent-Type: application/json"


@form("log Fiddler raw", "K")
def _(c: Ctx) -> str:
    return f"GET https://api.{c.dom}/v3/items HTTP/1.1\nHost: api.{c.dom}\n{c.n('header')}: {c.v}\n"


@form("log httpbin echo", "K")
def _(c: Ctx) -> str:
    return j1({"headers": {"Host": "httpbin.org", c.n("header"): c.v}, "origin": "203.0.113.9"})


@form("log GitHub Actions step")
def _(c: Ctx) -> str:
    return f"Run ./scripts/deploy.sh\n  env:\n    {c.n()}: {c.v}\n+ curl -s https://api.example"


# -- tables
@form("table markdown", ALL)
def _(c: Ctx) -> str:
    return f"| service | value |\n|---|---|\n| {c.vendor} | {c.v} |"


@form("table CSV", ALL)
def _(c: Ctx) -> str:
    return f"system,owner,secret\n{c.vendor},ops,{c.v}"


@form("table AsciiDoc", ALL)
def _(c: Ctx) -> str:
    return f"|===\n|System |Value\n\n|{c.vendor}\n|{c.v}\n|==="


@form("table LaTeX tabular", ALL)
def _(c: Ctx) -> str:
    return f"\\begin{{tabular}}{{ll}}\n{c.vendor} & \\texttt{{{c.v}}} \\\\\n\\end{{tabular}}"


@form("table psql expanded", ALL)
def _(c: Ctx) -> str:
    return f"-[ RECORD 1 ]----------\nname  | {c.n('snake')}\nvalue | {c.v}"


@form("table mysql \\G", ALL)
def _(c: Ctx) -> str:
    return f"*************************** 1. row ***************************\n service: {c.vendor}\n   value: {c.v}"


@form("table pandas print", ALL)
def _(c: Ctx) -> str:
    return f"      vendor                      cred\n0  {c.vendor}  {c.v}"


@form("table Jira wiki", ALL)
def _(c: Ctx) -> str:
    return f"||System||Login||\n|{c.vendor}|{c.v}|"


@form("table kubectl get custom-columns", KPU)
def _(c: Ctx) -> str:
    return f"NAME          VALUE\n{c.n('kebab')}  {c.v}"


# -- diffs
@form("diff unified .env")
def _(c: Ctx) -> str:
    return f"--- a/.env\n+++ b/.env\n@@ -3,2 +3,2 @@\n-{c.n()}=\n+{c.n()}={c.v}"


@form("diff git show")
def _(c: Ctx) -> str:
    return f"diff --git a/config.yml b/config.yml\n@@ -1 +1,2 @@\n {c.s}:\n+  {c.n('snake')}: {c.v}"


@form("diff side by side")
def _(c: Ctx) -> str:
    return f"{c.n()}=changeme                  | {c.n()}={c.v}"


@form("diff JSON patch")
def _(c: Ctx) -> str:
    return j1([{"op": "replace", "path": f"/{c.s}/{c.n('camel')}", "value": c.v}])


@form("diff terraform plan")
def _(c: Ctx) -> str:
    return (
        f'  ~ resource "{c.s}_config" "main" {{\n      ~ {c.n("snake")} = "old" -> "{c.v}"\n    }}'
    )


@form("diff hg diff")
def _(c: Ctx) -> str:
    return f"diff -r 3e1a settings.ini\n--- a/settings.ini\n+++ b/settings.ini\n+{c.n('snake')} = {c.v}"


# -- HTTP and protocols
@form("http raw request header", "K")
def _(c: Ctx) -> str:
    return f"POST /v2/events HTTP/1.1\nHost: api.{c.dom}\n{c.n('header')}: {c.v}\nContent-Length: 2\n\n{{}}"


@form("http multipart field")
def _(c: Ctx) -> str:
    return f'--xyz\nContent-Disposition: form-data; name="{c.n("snake")}"\n\n{c.v}\n--xyz--'


@form("http GraphQL body")
def _(c: Ctx) -> str:
    return j1({"query": "mutation($k:String!){connect(key:$k){ok}}", "variables": {"k": c.v}})


@form("http JSON-RPC params")
def _(c: Ctx) -> str:
    return j1(
        {
            "jsonrpc": "2.0",
            "method": "auth.login",
            "params": {"user": "ops", c.n("camel"): c.v},
            "id": 1,
        }
    )


@form("http XML-RPC", "P")
def _(c: Ctx) -> str:
    return f"<methodCall><methodName>login</methodName><params><param><value>ops</value></param><param><value>{c.v}</value></param></params></methodCall>"


@form("http FTP session", "P")
def _(c: Ctx) -> str:
    return f"220 ready\nUSER deploy\n331 Password required\nPASS {c.v}\n230 Logged on"


@form("http IMAP LOGIN", "P")
def _(c: Ctx) -> str:
    return f'a1 LOGIN me@{c.dom} "{c.v}"\na1 OK LOGIN completed'


@form("http Redis RESP AUTH", KP)
def _(c: Ctx) -> str:
    return f"*2\r\n$4\r\nAUTH\r\n${len(c.v.encode())}\r\n{c.v}\r\n+OK"


@form("http query string URL", "K")
def _(c: Ctx) -> str:
    return f"https://api.{c.dom}/v1/export?format=csv&{c.n('snake')}={c.v}"


@form("http URL in prose", "U")
def _(c: Ctx) -> str:
    return f"the feed lives at {c.v} if you want to poll it"


# -- agent tool calls and results
def _cmd(c: Ctx) -> str:
    return f"export {c.n()}='{c.v}' && npm run sync"


@form("agent Claude Bash tool_use")
def _(c: Ctx) -> str:
    return j1({"type": "tool_use", "name": "Bash", "input": {"command": _cmd(c)}})


@form("agent Edit new_string")
def _(c: Ctx) -> str:
    return j1({"name": "Edit", "input": {"file_path": "/app/.env", "old_string": f"{c.n()}=",
                                          "new_string": f"{c.n()}={c.v}"}})  # fmt: skip


@form("agent Write content escaped once")
def _(c: Ctx) -> str:
    return j1(
        {"name": "Write", "input": {"file_path": "config.json", "content": j1({c.n("camel"): c.v})}}
    )


@form("agent Grep tool result", ALL)
def _(c: Ctx) -> str:
    return f"src/settings.ts:14:  {c.n('camel')}: '{c.v}',\nsrc/settings.ts:15:  retries: 3,"


@form("agent Cursor run_terminal_cmd")
def _(c: Ctx) -> str:
    return j1(
        {"tool": "run_terminal_cmd", "parameters": {"command": _cmd(c), "is_background": False}}
    )


@form("agent Roo Code write_to_file")
def _(c: Ctx) -> str:
    return f"<write_to_file>\n<path>.env</path>\n<content>\n{c.n()}={c.v}\n</content>\n</write_to_file>"


@form("agent Continue tool output", ALL)
def _(c: Ctx) -> str:
    return j1({"role": "tool", "content": f"Contents of notes.txt:\n{c.vendor}: {c.v}"})


@form("agent Codex apply_patch")
def _(c: Ctx) -> str:
    return f"*** Begin Patch\n*** Update File: .env\n@@\n-{c.n()}=\n+{c.n()}={c.v}\n*** End Patch"


@form("agent PostToolUse hook stdin")
def _(c: Ctx) -> str:
    return j1({"hook_event_name": "PostToolUse", "tool_name": "Bash",
               "tool_response": {"stdout": f"{c.n()}={c.v}\n", "stderr": ""}})  # fmt: skip


@form("agent MCP tools/call result", ALL)
def _(c: Ctx) -> str:
    return j1(
        {
            "jsonrpc": "2.0",
            "id": 7,
            "result": {"content": [{"type": "text", "text": f"{c.vendor} -> {c.v}"}]},
        }
    )


@form("agent LangChain ToolMessage")
def _(c: Ctx) -> str:
    return f"ToolMessage(content='{c.n()}={c.v}', tool_call_id='call_8Jx')"


@form("agent Gemini functionResponse")
def _(c: Ctx) -> str:
    return j1({"functionResponse": {"name": "read_file", "response": {"output": f"{c.n()}={c.v}"}}})


@form("agent OpenAI tool_calls escaped twice")
def _(c: Ctx) -> str:
    args = j1({"command": _cmd(c)})
    return j1({"tool_calls": [{"function": {"name": "shell", "arguments": j1(args)}}]})


@form("agent JSONL line escaped twice")
def _(c: Ctx) -> str:
    inner = j1({"type": "tool_result", "content": f"{c.n()}={c.v}"})
    return j1({"type": "message", "raw": j1(inner)})


@form("agent OpenCode bash part")
def _(c: Ctx) -> str:
    return j1(
        {
            "type": "tool",
            "tool": "bash",
            "state": {"input": {"command": _cmd(c)}, "status": "completed"},
        }
    )


@form("agent Zed assistant code block", ALL)
def _(c: Ctx) -> str:
    return f'I\'ve added it to `config/{c.s}.toml`:\n\n```toml\nvalue = "{c.v}"\n```'


@form("agent AutoGen message")
def _(c: Ctx) -> str:
    return j1({"source": "executor", "content": f"exitcode: 0\nCode output: {c.n()}={c.v}"})


@form("agent CrewAI task output", ALL)
def _(c: Ctx) -> str:
    return f"[Agent: Ops Researcher] Final Answer:\nThe {c.vendor} account works with {c.v}."


# -- look-alikes: strings that look random but are no secret; each keeps what must survive
def hx(n: int) -> str:
    return rs(n, "0123456789abcdef")


def b64of(n: int) -> str:
    return base64.b64encode(bytes(R.getrandbits(8) for _ in range(n))).decode()


LOOK: list[tuple[str, Callable[[], tuple[str, list[str]]]]] = []


def look(sort: str) -> Callable[[Callable[[], tuple[str, list[str]]]], None]:
    def add(fn: Callable[[], tuple[str, list[str]]]) -> None:
        LOOK.append((sort, fn))

    return add


@look("commit SHA in git cherry-pick")
def _l() -> tuple[str, list[str]]:
    s = hx(40)
    return f"git cherry-pick {s}\n[main 4c1e2a9] fix: retry on 502", [s]


@look("git log oneline")
def _l() -> tuple[str, list[str]]:
    a, b = hx(7), hx(7)
    return f"{a} (HEAD -> main) bump deps\n{b} merge branch 'fix/login'", [a, b]


@look("git bisect output")
def _l() -> tuple[str, list[str]]:
    s = hx(40)
    return f"{s} is the first bad commit\ncommit {s}\nAuthor: Ana <ana@example.com>", [s]


@look("npm lockfile integrity")
def _l() -> tuple[str, list[str]]:
    i = "sha512-" + b64of(64)
    return j1({"node_modules/left-pad": {"version": "1.3.0", "integrity": i}}), [i]


@look("poetry.lock hash")
def _l() -> tuple[str, list[str]]:
    h = hx(64)
    return f'files = [\n    {{file = "idna-3.7-py3-none-any.whl", hash = "sha256:{h}"}},\n]', [h]


@look("pip --hash requirement")
def _l() -> tuple[str, list[str]]:
    h = hx(64)
    return f"certifi==2024.8.30 \\\n    --hash=sha256:{h}", [h]


@look("go.sum line")
def _l() -> tuple[str, list[str]]:
    h = b64of(32)
    return f"golang.org/x/text v0.14.0 h1:{h}", [h]


@look("Cargo.lock checksum")
def _l() -> tuple[str, list[str]]:
    h = hx(64)
    return f'[[package]]\nname = "serde"\nversion = "1.0.210"\nchecksum = "{h}"', [h]


@look("container image digest")
def _l() -> tuple[str, list[str]]:
    h = hx(64)
    return f"image: ghcr.io/acme/api@sha256:{h}", [h]


@look("docker pull layer ids")
def _l() -> tuple[str, list[str]]:
    a, b = hx(12), hx(12)
    return f"{a}: Pull complete\n{b}: Already exists\nDigest: sha256:{hx(64)}", [a, b]


@look("AWS ARN")
def _l() -> tuple[str, list[str]]:
    a = f"arn:aws:lambda:eu-west-1:{rs(12, string.digits)}:function:thumbs-{rs(6, LOWER36)}"
    return f"FunctionArn: {a}", [a]


@look("Azure resource id")
def _l() -> tuple[str, list[str]]:
    a = f"/subscriptions/{uid()}/resourceGroups/rg-web/providers/Microsoft.Web/sites/shop"
    return f"az webapp show --ids {a}", [a]


@look("placeholder value")
def _l() -> tuple[str, list[str]]:
    p = R.choice(("your-api-key-here", "<YOUR_TOKEN>", "xxxxxxxxxxxxxxxx", "changeme",
                  "REPLACE_ME", "sk-...", "${{ secrets.DEPLOY_KEY }}", "<paste here>"))  # fmt: skip
    return f"DEPLOY_KEY={p}", [p]


@look("masked value")
def _l() -> tuple[str, list[str]]:
    m = R.choice(
        (
            "****" + rs(4, LOWER36),
            "••••••••",
            "sk_****_****" + rs(4, LOWER36),
            "[REDACTED]",
            "********",
        )
    )
    return f"api_key: {m}   (last rotated 3 days ago)", [m]


@look("SSH public key")
def _l() -> tuple[str, list[str]]:
    k = "AAAAC3NzaC1lZDI1NTE5AAAAI" + b64of(24)[:43]
    return f"ssh-ed25519 {k} ana@laptop", [k]


@look("PEM public key")
def _l() -> tuple[str, list[str]]:
    k = b64of(48)
    return f"-----BEGIN PUBLIC KEY-----\n{k}\n-----END PUBLIC KEY-----", [k]


@look("asset hash in file name")
def _l() -> tuple[str, list[str]]:
    a = f"main.{hx(8)}.js"
    return f'<script src="/static/js/{a}" defer></script>', [a]


@look("Next.js build id")
def _l() -> tuple[str, list[str]]:
    b = rs(21, ALNUM + "-_")
    return f"/_next/static/{b}/_buildManifest.js", [b]


@look("W3C traceparent")
def _l() -> tuple[str, list[str]]:
    t, s = hx(32), hx(16)
    return f"traceparent: 00-{t}-{s}-01", [t, s]


@look("request id header")
def _l() -> tuple[str, list[str]]:
    u = uid()
    return f"HTTP/1.1 500 Internal Server Error\nx-request-id: {u}", [u]


@look("i18n strings about passwords")
def _l() -> tuple[str, list[str]]:
    s = R.choice(("Passwort vergessen?", "Mot de passe oublié ?", "Contraseña incorrecta",
                  "Введите пароль", "パスワードを入力してください", "Hasło jest za krótkie"))  # fmt: skip
    return j1({"auth.password.label": s, "auth.token.expired": "Session expired"}), [s]


@look("code reading a secret without a value")
def _l() -> tuple[str, list[str]]:
    c = R.choice(('api_key = os.environ["PAYMENTS_API_KEY"]', "const token = process.env.GH_TOKEN;",
                  'password := os.Getenv("DB_PASSWORD")', "secret = Rails.application.credentials.dig(:aws, :secret)",
                  "let key = std::env::var(\"SIGNING_KEY\")?;"))  # fmt: skip
    return c, [c]


@look("base64 of ordinary text")
def _l() -> tuple[str, list[str]]:
    t = R.choice(("hello from the build server", "this is only a test message", "release notes v2.4",
                  "the quick brown fox jumps"))  # fmt: skip
    e = base64.b64encode(t.encode()).decode()
    return f"data:\n  motd: {e}   # {t}", [e]


@look("tmux session name")
def _l() -> tuple[str, list[str]]:
    n = f"deploy-{rs(5, LOWER36)}"
    return f"$ tmux new -s {n}\n$ tmux attach -t {n}", [n]


@look("test fixture without a real credential")
def _l() -> tuple[str, list[str]]:
    f = f"fx_{rs(10, LOWER36)}"
    return f'@pytest.fixture\ndef user():\n    return make_user(id="{f}", password=None)', [f]


@look("boolean named after a secret")
def _l() -> tuple[str, list[str]]:
    b = R.choice(("admin_session=true", "require_password: false", "token_auth_enabled = yes",
                  "SECRET_SCANNING=on", "api_key_required: true", "PASSWORD_RESET=disabled"))  # fmt: skip
    return f"[features]\n{b}\n", [b]


@look("UUID primary key in SQL")
def _l() -> tuple[str, list[str]]:
    u = uid()
    return f"SELECT status FROM orders WHERE id = '{u}';", [u]


@look("CSS colours")
def _l() -> tuple[str, list[str]]:
    a, b = "#" + hx(6), "#" + hx(6)
    return f":root {{ --brand: {a}; --accent: {b}; }}", [a, b]


@look("CSS module class")
def _l() -> tuple[str, list[str]]:
    c = f"Button_primary__{rs(5, ALNUM)}"
    return f'<button class="{c}">Save</button>', [c]


@look("version with build metadata")
def _l() -> tuple[str, list[str]]:
    v = f"2.{R.randint(0, 9)}.{R.randint(0, 20)}+build.{hx(8)}"
    return f"app version {v}", [v]


@look("SHA256SUMS line")
def _l() -> tuple[str, list[str]]:
    h = hx(64)
    return f"{h}  tool_1.4.0_linux_amd64.tar.gz", [h]


@look("ETag header")
def _l() -> tuple[str, list[str]]:
    e = f'W/"{hx(32)}"'
    return f"HTTP/1.1 304 Not Modified\nETag: {e}", [e]


@look("PGP fingerprint")
def _l() -> tuple[str, list[str]]:
    f = " ".join(rs(4, "0123456789ABCDEF") for _ in range(10))
    return f"pub   ed25519 2024-01-03 [SC]\n      {f}\nuid   Ana <ana@example.com>", [f]


@look("public wallet address")
def _l() -> tuple[str, list[str]]:
    a = R.choice(("0x" + hx(40), "bc1q" + rs(38, "qpzry9x8gf2tvdw0s3jn54khce6mua7l")))
    return f"send the refund to {a} (public address)", [a]


@look("slug with random suffix")
def _l() -> tuple[str, list[str]]:
    s = f"how-we-cut-build-times-{rs(6, LOWER36)}"
    return f"https://blog.example.com/p/{s}", [s]


@look("parcel tracking number")
def _l() -> tuple[str, list[str]]:
    t = "1Z" + rs(16, UPPER36)
    return f"Your parcel is on its way. Tracking: {t}", [t]


@look("Kubernetes uid and resourceVersion")
def _l() -> tuple[str, list[str]]:
    u = uid()
    return f'metadata:\n  name: web\n  uid: {u}\n  resourceVersion: "{R.randint(10**6, 10**7)}"', [
        u
    ]


@look("docker ps container id")
def _l() -> tuple[str, list[str]]:
    c = hx(12)
    return f"CONTAINER ID   IMAGE        STATUS\n{c}   redis:7      Up 3 hours", [c]


@look("secret manager reference")
def _l() -> tuple[str, list[str]]:
    r = R.choice(("op://Engineering/Stripe/credential", "vault:secret/data/api#token",
                  "${DATABASE_PASSWORD}", "{{ .Values.apiKey }}", "$(cat /run/secrets/db_pw)",
                  "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-AbCdEf"))  # fmt: skip
    return f"DB_PASSWORD={r}", [r]


@look("empty password field")
def _l() -> tuple[str, list[str]]:
    return 'database:\n  user: app\n  password: ""\n  host: localhost', ['password: ""']


@look("ISBN and DOI")
def _l() -> tuple[str, list[str]]:
    d = f"10.{R.randint(1000, 9999)}/{rs(8, LOWER36)}"
    return f"See doi:{d} and ISBN 978-3-16-148410-0", [d]


@look("ULID")
def _l() -> tuple[str, list[str]]:
    u = "01" + rs(24, "0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    return f"event_id={u} type=order.created", [u]


@look("chat about keys without one")
def _l() -> tuple[str, list[str]]:
    t = R.choice(("I rotated the API key yesterday, the new one is in the vault.",
                  "Ask Priya for the password, don't paste it here.",
                  "the token expired again, can you regenerate it in the dashboard?",
                  "ключ лежит в 1Password, не в чате"))  # fmt: skip
    return t, [t]


@look("git describe")
def _l() -> tuple[str, list[str]]:
    d = f"v3.{R.randint(0, 9)}.{R.randint(0, 9)}-{R.randint(1, 99)}-g{hx(7)}"
    return f"$ git describe --tags\n{d}", [d]


@look("MAC address")
def _l() -> tuple[str, list[str]]:
    m = ":".join(hx(2) for _ in range(6))
    return f"link/ether {m} brd ff:ff:ff:ff:ff:ff", [m]


@look("CSP hash source")
def _l() -> tuple[str, list[str]]:
    h = b64of(32)
    return f"Content-Security-Policy: script-src 'self' 'sha256-{h}'", [h]


@look("Git LFS pointer")
def _l() -> tuple[str, list[str]]:
    h = hx(64)
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{h}\nsize 48213", [h]


@look("IPFS CID")
def _l() -> tuple[str, list[str]]:
    c = "bafybei" + rs(52, "abcdefghijklmnopqrstuvwxyz234567")
    return f"ipfs://{c}/metadata.json", [c]


@look("Nix store path")
def _l() -> tuple[str, list[str]]:
    p = f"/nix/store/{rs(32, '0123456789abcdfghijklmnpqrsvwxyz')}-python3-3.12.4"
    return f"$ which python\n{p}/bin/python", [p]


@look("certificate fingerprint")
def _l() -> tuple[str, list[str]]:
    f = ":".join(rs(2, "0123456789ABCDEF") for _ in range(32))
    return f"SHA256 Fingerprint={f}", [f]


@look("analytics measurement id")
def _l() -> tuple[str, list[str]]:
    g = "G-" + rs(10, UPPER36)
    return f"gtag('config', '{g}');", [g]


@look("Discord snowflakes")
def _l() -> tuple[str, list[str]]:
    a = str(R.randint(10**17, 10**18))
    return f"guild_id: {a}\nchannel: general", [a]


@look("video id")
def _l() -> tuple[str, list[str]]:
    v = rs(11, ALNUM + "-_")
    return f"https://www.youtube.com/watch?v={v}", [v]


@look("COM CLSID")
def _l() -> tuple[str, list[str]]:
    c = "{" + uid().upper() + "}"
    return f"HKEY_CLASSES_ROOT\\CLSID\\{c}\\InprocServer32", [c]


@look("GitHub blob URL")
def _l() -> tuple[str, list[str]]:
    s = hx(40)
    return f"https://github.com/acme/api/blob/{s}/src/main.rs#L42", [s]


@look("ML random seeds")
def _l() -> tuple[str, list[str]]:
    s = str(R.randint(1000, 99999))
    return f"training:\n  seed: {s}\n  lr: 3e-4\n  batch_size: 64", [f"seed: {s}"]


@look("Java serialVersionUID")
def _l() -> tuple[str, list[str]]:
    n = f"{R.randint(10**17, 9 * 10**18)}L"
    return f"private static final long serialVersionUID = {n};", [n]


@look("password policy text")
def _l() -> tuple[str, list[str]]:
    t = "Passwords must be at least 12 characters and include a digit and a symbol."
    return t, [t]


@look("redacted log line")
def _l() -> tuple[str, list[str]]:
    t = f"POST /login user=ana password=[FILTERED] status=401 req={hx(16)}"
    return t, [t]


@look("Xcode project object ids")
def _l() -> tuple[str, list[str]]:
    a = rs(24, "0123456789ABCDEF")
    return f"\t\t{a} /* AppDelegate.swift in Sources */ = {{isa = PBXBuildFile; }};", [a]


@look(".NET PublicKeyToken")
def _l() -> tuple[str, list[str]]:
    t = hx(16)
    return f'<assemblyIdentity name="Acme.Core" publicKeyToken="{t}" culture="neutral" />', [t]


@look("Unity meta guid")
def _l() -> tuple[str, list[str]]:
    g = hx(32)
    return f"fileFormatVersion: 2\nguid: {g}\nTextureImporter:", [g]


@look("WebSocket handshake key")
def _l() -> tuple[str, list[str]]:
    k, a = b64of(16), b64of(20)
    return f"Sec-WebSocket-Key: {k}\nSec-WebSocket-Accept: {a}", [k, a]


@look("bitcoin transaction id")
def _l() -> tuple[str, list[str]]:
    t = hx(64)
    return f"txid: {t}\nconfirmations: 6", [t]


@look("Gravatar URL hash")
def _l() -> tuple[str, list[str]]:
    h = hx(32)
    return f"https://www.gravatar.com/avatar/{h}?s=80&d=identicon", [h]


@look("Terraform state lineage")
def _l() -> tuple[str, list[str]]:
    u = uid()
    return j1({"version": 4, "serial": R.randint(1, 400), "lineage": u}), [u]


@look("Content-MD5 header")
def _l() -> tuple[str, list[str]]:
    m = b64of(16)
    return f"Content-MD5: {m}\nContent-Type: application/octet-stream", [m]


@look("screen session list")
def _l() -> tuple[str, list[str]]:
    s = f"{R.randint(1000, 99999)}.pts-{R.randint(0, 9)}.build{rs(3, LOWER36)}"
    return f"There is a screen on:\n\t{s}\t(Detached)", [s]


@look("docs placeholder header")
def _l() -> tuple[str, list[str]]:
    h = R.choice(
        (
            "Authorization: Bearer <token>",
            "X-Api-Key: YOUR_API_KEY",
            "Authorization: Basic <base64>",
        )
    )
    return f"Send every request with the header `{h}`.", [h]


# -- putting it together
ONLY = {
    "game": ("config server.properties rcon", "config autoexec.cfg", "config ts3server.ini",
             "config icecast.xml"),
    "iot": ("config wpa_supplicant.conf", "shell nmcli wifi connect", "shell netsh wlan key=clear",
            "code Arduino sketch", "code MicroPython", "config OctoPrint config.yaml"),
    "iot selfhost": ("config Home Assistant configuration.yaml", "config moonraker.conf",
                     "shell mosquitto_pub -P", "shell ipmitool -P"),
    "selfhost": ("config Sonarr config.xml", "config qBittorrent.conf",
                 "config Transmission settings.json", "config Syncthing config.xml",
                 "config Nextcloud config.php"),
}  # fmt: skip
WHO = {f: cats.split() for cats, forms in ONLY.items() for f in forms}


@dataclass
class Slot:
    vendor: str
    cat: str
    cred: Cred
    form: str = ""


def fits(slot: Slot, form: tuple[str, str, Callable[[Ctx], str]]) -> bool:
    name, takes, _ = form
    if slot.cred.cls not in takes:
        return False
    if name in WHO and slot.cat not in WHO[name]:
        return False
    # a person's bank or shop password, a PIN, a TOTP seed or an app password: only where
    # any value goes (chat, notes, tables, password stores, agent output)
    if slot.cred.label in ("totp seed", "app password") and "N" not in takes:
        return False
    return not (slot.cat in ("bank", "consumer") and slot.cred.cls in "PN" and "N" not in takes)


def pick_slots() -> list[Slot]:
    vendors = {c: [v.strip() for v in vs.split("|")] for c, vs in VENDORS.items()}
    chosen = [(v, c) for c, vs in vendors.items() if c != "saas" for v in vs]
    saas = vendors["saas"]
    R.shuffle(saas)
    chosen += [(v, "saas") for v in saas[: 345 - len(chosen)]]
    kinds = [Slot(v, c, R.choice(CREDS[c])) for v, c in chosen]
    twice = R.sample(kinds, 105)
    return kinds + [Slot(k.vendor, k.cat, k.cred) for k in twice]


def assign_forms(slots: list[Slot]) -> None:
    """Every form at least once, then the least used form that fits, never a kind's form twice."""
    used = {f[0]: 0 for f in FORMS}
    taken: dict[tuple[str, str], set[str]] = {}

    def put(slot: Slot, form: tuple[str, str, Callable[[Ctx], str]]) -> None:
        slot.form = form[0]
        used[form[0]] += 1
        taken.setdefault((slot.vendor, slot.cred.label), set()).add(form[0])

    def free(slot: Slot, form: tuple[str, str, Callable[[Ctx], str]]) -> bool:
        return fits(slot, form) and form[0] not in taken.get((slot.vendor, slot.cred.label), set())

    order = sorted(FORMS, key=lambda f: (len(f[1]), f[0] not in WHO, R.random()))
    for form in order:
        options = [s for s in slots if not s.form and free(s, form)]
        if options:
            put(R.choice(options), form)
    for slot in slots:
        if not slot.form:
            options = [f for f in FORMS if free(slot, f)]
            low = min(used[f[0]] for f in options)
            put(slot, R.choice([f for f in options if used[f[0]] <= low + 1]))


def render(slot: Slot) -> dict[str, str]:
    secret, shown = make_value(slot.vendor, slot.cred)
    fn = {f[0]: f[2] for f in FORMS}[slot.form]
    text = fn(Ctx(slot.vendor, slot.cred, shown, make_name(slot.vendor, slot.cred)))
    kind = f"{slot.vendor} {slot.cred.label} [{slot.form}]"
    SHAPE_OF[kind] = LAST_SHAPE[0]
    return {"kind": kind, "text": text, "secret": secret}


SHAPE_OF: dict[str, str] = {}


def clashes(secrets: list[dict[str, str]], looks: list[dict[str, object]]) -> list[int]:
    """Secrets found in another entry's text (or a look-alike's), which would blur the score."""
    texts = [s["text"] for s in secrets] + [str(x["text"]) for x in looks]
    return [i for i, s in enumerate(secrets)
            if s["secret"] not in s["text"]
            or any(s["secret"] in t for j, t in enumerate(texts) if j != i)]  # fmt: skip


def lookalikes() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    seen: dict[str, int] = {}
    sorts = LOOK[:]
    while len(out) < 160:
        R.shuffle(sorts)
        for sort, fn in sorts[: 160 - len(out)]:
            text, keep = fn()
            assert all(k in text for k in keep), sort
            seen[sort] = seen.get(sort, 0) + 1
            kind = sort if seen[sort] == 1 else f"{sort} #{seen[sort]}"
            out.append({"kind": kind, "text": text, "keep": keep})
    return out


ABOUT = (
    "Twelfth blind corpus, written by benchmarks/make_secrets_blind12.py with "
    f"random.Random({SEED}) and the standard library only, from general knowledge of credential "
    "shapes and of where people paste them into coding-agent chats and where agents' tool "
    "output shows them. No redactor code, tests or earlier corpus texts were consulted; the "
    "vendors were checked against the earlier corpora's kind names and are new. {n} fake "
    "secrets of {k} kinds in {f} forms (chat prose in {langs} languages, config files, shell "
    "sessions and CLI output, code, logs, tables, diffs, HTTP and protocol traces, agent tool "
    "calls and results), and {m} look-alikes of {sorts} sorts, each listing under keep the "
    "strings that must survive. Every value is synthetic. Not scored before it was committed."
)


def build() -> dict[str, object]:
    slots = pick_slots()
    assign_forms(slots)
    secrets = [render(s) for s in slots]
    looks = lookalikes()
    for _ in range(50):
        bad = clashes(secrets, looks)
        if not bad:
            break
        for i in bad:
            secrets[i] = render(slots[i])
    else:
        raise SystemExit(f"secrets still clash: {[secrets[i]['kind'] for i in bad]}")
    forms = {s.form for s in slots}
    about = ABOUT.format(
        n=len(secrets), k=len({(s.vendor, s.cred.label) for s in slots}), f=len(forms),
        langs=len([f for f in forms if f.split()[0] == "chat" and f.split()[1] in CHAT]),
        m=len(looks), sorts=len({str(x["kind"]).split(" #")[0] for x in looks}),
    )  # fmt: skip
    return {"about": about, "secrets": secrets, "lookalikes": looks}


def main() -> None:
    doc = build()
    OUT.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    secrets = doc["secrets"]
    looks = doc["lookalikes"]
    assert isinstance(secrets, list) and isinstance(looks, list)
    kinds = {s["kind"].rsplit(" [", 1)[0] for s in secrets}
    forms = {s["kind"].rsplit(" [", 1)[1].rstrip("]") for s in secrets}
    langs = {f.split()[1] for f in forms if f.split()[0] == "chat" and f.split()[1] in CHAT}
    sorts = {str(x["kind"]).split(" #")[0] for x in looks}
    print(f"{len(secrets)} secrets of {len(kinds)} kinds in {len(forms)} forms "
          f"({len(langs)} chat languages); {len(looks)} look-alikes of {len(sorts)} sorts")  # fmt: skip
    shapes: dict[str, int] = {}
    for s in secrets:
        shapes[SHAPE_OF[s["kind"]]] = shapes.get(SHAPE_OF[s["kind"]], 0) + 1
    print(
        "value shapes:",
        ", ".join(f"{k} {v}" for k, v in sorted(shapes.items(), key=lambda x: -x[1])),
    )
    groups: dict[str, int] = {}
    for f in forms:
        groups[f.split()[0]] = groups.get(f.split()[0], 0) + 1
    print("forms by group:", groups)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
