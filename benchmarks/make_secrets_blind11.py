"""Write benchmarks/data/secrets_blind11.json: an eleventh blind corpus of fake credentials.

What its author read, and what not. Written from general knowledge of how vendors shape
their keys, where people paste them into coding-agent chats and where agents' tool output
shows them, with the standard library only. Not read: anything under ``brain/`` or
``tests/``, ``benchmarks/README.md``, the project README, the bodies of the other
``make_secrets_blind*.py`` generators, any ``redact*`` benchmark, and any commit message or
``git log`` (``git log`` was run once, by mistake, printing only the hash of this corpus's
own first commit). Read: ``benchmarks/secrets_holdout.py`` (the JSON format, how an item is
loaded and scored); the top docstring of ``make_secrets_blind10.py`` only (line 1 to its
closing quotes), for the output shape and as an example of how to describe a corpus; the
top-level keys, the field names of the first secret and look-alike, and the first 300
characters of the ``about`` string of each ``benchmarks/data/secrets_*.json`` (blind10's
whole); and their ``kind`` names, written to a file with the `` [form]`` suffix stripped
(4,532 names, none seen on screen: a script only searched them for candidate vendors). Seen
in passing: the file names in ``benchmarks/`` and ``benchmarks/data/``, the subject of
main's latest commit (printed by ``git worktree add``), the Makefile's ``lint`` target, the
ruff and mypy sections of ``pyproject.toml``, and the project's style guide. Every vendor
below was checked against those kind names (its whole name as a word, its letters run
together when four or more, its first word as a word when four letters or more, and a
one-word name as a word, anywhere in a kind): of 2,021 candidates, 1,037 were found there
and dropped; of the 984 left, 262 were dropped by hand (common words such as Stone, Bold,
Motion or Sterling, a second product of a vendor already kept, names its author was unsure
of, or simply to trim the list), so the 722 vendors listed are new by that check, and 345 of
them are used (every wallet, bank app, camera and lock maker, the rest drawn at random). A
product sold under a name other than its maker's may still share a maker with an earlier
kind. The corpus was not scored, and nothing in brain was run on it; it was only checked to
load with the fields ``load()`` reads, each secret being a verbatim substring of its text.

Counts (printed by ``main``): 450 secrets of 345 kinds in 288 embedding forms, and 160
look-alikes (58 sorts) that must come out unchanged, each listing under ``keep`` the
strings that must survive. 240 kinds appear once and 105 twice, in two different forms
with fresh values. Every form is used at least once.

Value shapes: 90 passwords as people type them (words, names, years, symbols, leetspeak,
non-ASCII words such as Łódź, Ελλάδα or Москва), 49 short random alphanumerics with no
prefix, 10 to 20 characters (24 over alphabets of 62, 36, upper-case 36 or base58 letters,
25 mostly letters), 19 recovery codes (``1234-5678``, ``k3j9x-2mq8p``, eight digits), 12
TOTP seeds in base32, 9 app passwords in four groups of four letters, 8 longer
alphanumerics, 22 hex (lower or upper case, 32 to 64 long), 15 base64, 14 url-safe base64,
one WireGuard private key, 14 UUIDs used as keys, 32 vendor-style prefixes made from the
vendor's name (``xx_live_...``, ``xx-pat-...``, ``sk.xx....``, ``xxv2_..._...``) with a
random body, 15 JWT-like tokens, 44 other structured values (27 grouped license keys, 6
``id:secret`` or ``id.secret`` pairs, 11 byte arrays in hex or decimal), 10 passphrases and
22 seed-word lists, 20 PINs and door codes, and 54 URLs and strings with the secret inside
(10 connection strings whose password is the secret, their schemes drawn from postgresql,
mysql, mongodb+srv, rediss, amqps, mqtts, nats, cassandra, https; 22 webhook, ``api_key=``
query and calendar-feed URLs; 7 RTSP camera URLs, 7 RTMP stream-key URLs and 4 SMTP URLs
whose password or key is the secret; 3 ``Basic`` values whose base64 is the secret; a
session cookie). A few forms store the value encoded (a Kubernetes secret's base64, a Docker
``config.json`` auth, a FileZilla base64 password), and then the encoded string is the
secret. 24 secrets carry non-ASCII letters. A secret found inside any other entry's text
fails the run.

Names: credential words first, last or in the middle, with an environment part before, after
or inside (``PROD_X_TOKEN``, ``X_TOKEN_RO``, ``X_V2_KEY``, ``TOKEN_X``, ``X__PASSWD``), in
many spellings (``TKN``, ``CREDS``, ``PAT``, ``BEARER``, ``PASSCODE``, ``LOGIN_PASS``,
``UNLOCK_CODE``, ``DOOR_CODE``, ``SEED_WORDS``, ``CONN_STR``) and languages (``NOEGLE``,
``ATSLEGA``, ``VOTI``, ``KLJUC``, ``CHEIE``, ``KLEIDI``, ``CHAVE``, ``SUSI``, ``UFUNGUO``,
``LYKILL``, ``ALLWEDD``, ``GAKOA``, ``RAKTAS``, ``KULCS``, ``TOKENI``, ``JETON``,
``GETTONE``, ``HESLO``, ``PAROL``, ``PAROLE``, ``SALASANA``, ``ADGANGSKODE``,
``WACHTWOORD``, ``CONTRASINYA``, ``LOZINKA``, ``KENNWORT``, ``MAT_KHAU``, ``AMHO``,
``MIMA``, ``PASUWADO``, ``PASSORD``, ``KODEORD``, ``SISMA``, ``PASAHITZA``, ``FJALEKALIM``,
``PINKOODI``), as camelCase, kebab, dotted and ``X-Vendor-Key`` header forms. Some values
have no credential word near them: an SDK ``Client("...")`` argument, a CLI login's
positional argument, a wallet restored from a mnemonic, a camera stream or webhook URL, a
post-it photo, a WhatsApp or meeting transcript, a table cell under a system's name.

Forms: 95 secrets in chat (49 forms: prose in 37 languages, Amharic, Arabic, Bengali,
Catalan, Chinese, Czech, Danish, Dutch, English, Finnish, French, German, Greek, Hebrew,
Hindi, Hungarian, Indonesian, Italian, Japanese, Korean, Malay, Norwegian, Persian, Polish,
Portuguese, Romanian, Russian, Serbian, Spanish, Swahili, Swedish, Tagalog, Tamil, Thai,
Turkish, Ukrainian, Vietnamese; plus a typo'd message, a forwarded email, a pasted note, a
WhatsApp export, a Teams quote, a calendar invite body, a meeting transcript, PDF handover
text, a Discord code block, a voice memo, an unlabelled sticky note, a commit message), 142
in config files (99 forms, chosen to differ from blind10's list: vercel.json, netlify.toml,
wrangler.toml, fly.toml, app.yaml, serverless.yml, kustomize, Pulumi, GitHub Actions, Azure
Pipelines, Bitbucket Pipelines, Drone, Woodpecker, Travis, Codemagic, fastlane, xcconfig,
local.properties, Expo, Vite, Nuxt, Angular, Rails credentials, wp-config, Magento, Joomla,
Mastodon, Gitea, grafana.ini, Prometheus, Alertmanager, Logstash, Filebeat, HAProxy,
tomcat-users.xml, JBoss, web.config, appsettings.json, dotnet user-secrets, a .reg export,
FileZilla, WinSCP, KeePass CSV, Bitwarden JSON, browser password CSV, muttrc, msmtprc,
mbsyncrc, ZNC, murmur.ini, Source server.cfg, Palworld, Factorio, ARK, Terraria, Project
Zomboid, OBS websocket, Home Assistant secrets.yaml, ESPHome, Zigbee2MQTT, Frigate, go2rtc,
Node-RED, OpenWrt, hostapd, NetworkManager, netplan, ddclient, WireGuard, an OpenVPN auth
file, ipsec.secrets, evcc, TeslaMate, .npmrc, .pypirc, composer auth.json, .yarnrc.yml,
NuGet.config, Maven settings.xml, sbt credentials, bundler config, .gitconfig insteadOf,
rclone.conf, s3cfg, restic, Nomad, docker config.json, an ArgoCD repository secret, Bicep,
CloudFormation, a Chef data bag, Nix, Traefik labels, a Postman environment, Bruno, a
notebook cell, Streamer.bot, a Pterodactyl .env, a Mosquitto bridge), 69 in shell sessions
and CLI output (47 forms: ``curl -u``, httpie, ``gh secret set``, ``fly secrets set``,
``heroku config:set``, railway, ``kubectl create secret``, ``docker run -e``, podman secret,
``mysql -p``, ``sqlcmd -P``, ``sshpass -p``, smbclient, keytool, npm, poetry, twine, dotnet
nuget, mvn ``-D``, history and zsh_history, ``ps aux``, ``/proc/*/environ``, ``systemctl
show``, crontab, ``kubectl get secret -o yaml``, vault, consul, etcdctl, redis ``CONFIG
GET``, sqlite3, psql, jq, yq, PowerShell, setx, fish, tcsh, expect, tmux send-keys, a CLI
login, ``docker compose config``, rsync, openssl, unrar, ssh-keygen, ``aws configure set``),
58 in code (35 forms: Python setdefault, pydantic, dataclass, an SDK constructor, aiohttp,
JS and Deno fallbacks, axios, a React prop, Go, Rust, Java ``@Value``, Kotlin
buildConfigField, Objective-C, C#, VB.NET, Ruby, Erlang, Haskell, Scala, Groovy, R,
PowerShell, Zig, Crystal, SQL ``CREATE USER`` and ``ALTER ROLE``, GraphQL variables, a
Terraform variable, a Dockerfile ENV, wallet restores in Python and JS, a requests URL, a Go
DSN, a byte-array literal key), 52 in logs, tables, diffs and HTTP (40 forms: a Rails log, a
Spring Boot property dump, urllib3 debug, an axios error, a JDBC stack trace, Airflow,
Jenkins, a Docker build log, ``kubectl describe``, CloudWatch JSON, logfmt, a PostgreSQL
statement log, redis MONITOR, tcpdump, mitmproxy, a HAR entry, Copy as cURL, box-drawing,
TSV, HTML, org-mode, reStructuredText and Confluence tables, a YAML record list, a word
diff, a format-patch email, conflict markers, a GitHub suggestion, an svn diff, HTTP/2
pseudo-headers, ``curl -v``, a WebSocket handshake, grpcurl metadata, SOAP UsernameToken, an
OAuth token response, a form POST, ``Authorization: Basic``, a Cookie header, a URL in
prose, a VLC log), and 34 in agent tool calls and results (18 forms: a Read result with line
numbers, a tool_result escaped once, function_call arguments escaped twice, a Gemini
functionCall, an MCP tools/call request, a Cline execute_command, a str_replace_editor call,
an OpenHands event, a SWE-agent step, Aider chat history, a PreToolUse hook's stdin, a
WebFetch result, a sub-agent report, a transcript line escaped twice, a Codex exec command,
a NotebookEdit, an agent's plan, a Goose tool call). Each secret's ``kind`` is ``<vendor>
<credential> [<form>]``. PINs and seed words go only to forms that take any value (chat,
tables, notes, password exports, Home Assistant secrets, agent output) and seed words also
to wallet-restore code; header, login and registry forms take only keys and passwords;
camera, DSN, webhook, Basic and Cookie forms take only their own shape of URL; game servers'
files go only to game-server vendors, streaming tools' settings only to game and streaming
services, home and network devices' files only to device makers, mail clients only to consumer
and messaging accounts, package registries only to developer, business, data and AI tools;
recovery codes, app passwords, license keys and TOTP seeds never go into a header, a
registry login or a CLI login.

Look-alikes, each with its ``keep`` list: commit SHAs near git words, rebase todo lines,
package-lock, pnpm and SRI integrity, go.sum, Cargo.lock checksums, image digests, ARNs,
placeholders, masked values, SSH and PEM public keys, asset hashes and build ids, trace
and span ids, request ids, i18n strings about passwords, code naming secrets without
values, base64 of ordinary text, tmux session names, test fixtures, booleans and settings
named after secrets, UUID primary keys, colours, CSS module classes, versions with build
metadata, SHA256SUMS, ETags, PGP fingerprints, wallet addresses, a publishable key, slugs,
order and tracking numbers, a documentation IBAN, a password policy, Kubernetes uids,
container ids, 1Password, vault and ``${VAR}`` references, an empty password field,
tickets, ISBNs and DOIs, ULIDs, chat about keys without one, ``git describe``, MAC
addresses, base58 transaction signatures, CSP hash sources, Git LFS pointers, IPFS CIDs,
Nix store paths, certificate fingerprints, analytics measurement ids, Discord snowflakes,
video ids, COM CLSIDs, GitHub blob URLs, password-strength output, random seeds in an ML
config, billing price ids and a Java serialVersionUID.

Run: ``python benchmarks/make_secrets_blind11.py``.
"""

# ruff: noqa: E501
# The form templates read better whole, one per line, than wrapped to 100 columns.

from __future__ import annotations

import base64
import json
import random
import string
import uuid
from collections.abc import Callable
from pathlib import Path

SEED = 1107203911
OUT = Path(__file__).parent / "data" / "secrets_blind11.json"
R = random.Random(SEED)

# Vendors by the sort of credential they hand out. Each name was checked against the
# earlier corpora's kind names (see the docstring) and is new.
VENDORS = {
    "dev": "Tinybird|Payload CMS|KeystoneJS|Prismic|Agility CMS|ButterCMS|Cosmic JS|TakeShape|"
    "Plasmic|Makeswift|Tina CMS|Squidex|Webiny|Flotiq|Caisy|Crafter CMS|Bloomreach|Contentstack|"
    "Locofy|Bit.dev|Moonrepo|Namespace Labs|BuildJet|Blacksmith|Ubicloud|WarpBuild|Cirrus CI|"
    "Appcircle|Ionic Appflow|Emerge Tools|Bugsee|Bugfender|Pulsetic|Freshping|Oh Dear|Sorry App|"
    "Parseable|Qryn|Quickwit|Manticore|Orama|Vectara|Trieve|Inkeep|Kapa.ai|Mendable|Archbee|"
    "Speakeasy|Stainless|Liblab|APIMatic|Bump.sh|Treblle|Moesif|Apitally|Zuplo|Tyk|Gravitee|"
    "KrakenD|Hanko|Userfront|Frontegg|SuperTokens|Dynamic Labs|Turnkey|Permit.io|Cerbos|Aserto|"
    "DevCycle|Flipt|Hypertune|Inngest|Hatchet|Kestra|Mage AI|Ploomber|Temporal Cloud|Restate|"
    "Quirrel|Qovery|Dokploy|Dokku|Cloudways|RunCloud|SpinupWP|GridPane|Envoyer|Buddy.Works|"
    "DeployHQ|Deploybot|Medianova|Sirv|TwicPics|Gumlet|Dolby.io|Centrifugo|Soketi|PartyKit|"
    "Y-Sweet|Tiptap Cloud|Engagespot|Pushy|Simplepush",
    "ai": "Sarvam|Krutrim|Beam Cloud|Cerebrium|Crusoe|Voltage Park|TensorDock|Featherless|"
    "Predibase|Lamini|Nebius|Mixedbread|LlamaParse|Reducto|Kagi|Zyte|Smartproxy|Steel.dev|"
    "Hyperbrowser|Anchor Browser|Murf|WellSaid|LMNT|Tavus|Kling|Black Forest Labs|Recraft|Krea|"
    "Fal.ai|Segmind|Getimg|Clipdrop|Claid|Pixelcut|Not Diamond|Unify AI|WhyLabs|Patronus|"
    "Confident AI|Opik|Valohai|Iguazio|Hopsworks|Tecton|Featureform|Lakera|Protect AI|CalypsoAI|"
    "Guardrails AI|Relevance AI|Flowise|Langflow|Cognigy",
    "pay": "Chipper Cash|Airtel Money|Thunes|Cielo|PayPhone|Khipu|Flow Chile|Banked|Solaris|"
    "Treezor|Amberflo|Togai|Paygentic|Rain Cards|Buda|Ripio|Bitpanda|Coinone|Zaif|CoinDCX|VALR|"
    "Quidax|BitOasis|BtcTurk|Coins.ph|Zebpay|Spendesk|Payhawk|Soldo",
    "wallet": "Trust Wallet|Rainbow|Zerion|Argent|Safe Wallet|Keystone Wallet|BitBox|Coldcard|"
    "Zeus|Atomic Wallet|Coinomi|Blockstream Green|Suiet|Backpack|Typhon|Nova Wallet|"
    "TokenPocket|Ellipal|NGRAVE|Cypherock|SeedSigner|Krux|Satochip|Cobo Vault|D'CENT|Arculus|Prokey",
    "bank": "Cash App|Venmo|Zelle|Chime|N26|C6 Bank|Ualá|Brubank|Nequi|Daviplata|RappiPay",
    "iot:cam": "Amcrest|Hikvision|Dahua|Ezviz|Imou|Annke|Lorex|Swann",
    "iot:lock": "SimpliSafe|Ajax Systems|Verisure|August Home|Schlage Encode|Tedee|Lockly|"
    "Ultraloq|Igloohome|Chamberlain myQ",
    "iot:home": "Sonoff|Bosch Smart Home|Homematic IP|Loxone|Fibaro|Aqara|Roborock|Dreame|"
    "Ecovacs|iRobot|Honeywell Resideo|Sensibo|Mysa|Drayton Wiser|Orbit B-hyve|Eve Systems|"
    "Yeelight|Sengled|Tapo|Wemo|Broadlink|SwitchBot|Sonos|Bluesound|Denon HEOS|"
    "Yamaha MusicCast|Kodi|Jackett|Domoticz|ioBroker|Unraid|OpenMediaVault|pfSense|OpenWrt|"
    "Eero|Starlink|Wallbox|Easee|Zappi|ChargePoint|Ohme|Pod Point|SMA Sunny|GoodWe|Sungrow|"
    "IoTaWatt|Hologram|1NCE|Notehub|Kerlink|Multitech",
    "iot:car": "Rivian|Polestar|Kia Connect|Hyundai Bluelink|FordPass|BMW ConnectedDrive|"
    "Skoda Connect",
    "iot:vpn": "Pritunl|Firezone|ProtonVPN|Surfshark|ExpressVPN",
    "acct": "EA App|Ubisoft Connect|GOG|Humble Bundle|Nintendo Account|Xbox Live|Odysee|Substack|"
    "GetResponse|AWeber|Sendy|Migadu|Fastmail|Tutanota|Posteo|Runbox|StartMail|GMX|Seznam|"
    "Interia|Mercari|Bukalapak|Flipkart|Meesho|Jumia|Takealot|Allegro|Zalando|Vinted|Depop|"
    "Poshmark|Grailed|StockX|Discogs|Bandcamp|Deezer|Qobuz|Anghami|JioSaavn|Boomplay|Audiomack|"
    "Odnoklassniki|Weibo|Zhihu|Aliyun Drive|Icedrive|Koofr|Jottacloud|Internxt|ownCloud|KeePassXC|"
    "Dashlane|NordPass|RoboForm|Passbolt|Psono|Ente Photos|Piwigo|Flickr|SmugMug|Unsplash|Pexels|"
    "Pixabay|Penpot|Weebly|Carrd|Jimdo|Readymag|Logseq|Anytype|Evernote|Joplin|Standard Notes|"
    "Simplenote|TickTick|OmniFocus|Habitica|RescueTime|Sunsama|TidyCal|Treatwell|Coros|"
    "TrainerRoad|Peloton|MyFitnessPal|Cronometer|Headspace|Coursera|Udemy|Skillshare|Domestika|"
    "MasterClass|Pluralsight|Frontend Masters|Laracasts|Exercism|LeetCode|HackerRank|Codewars|"
    "AtCoder|Codeforces",
    "ent": "HiBob|Papaya Global|Justworks|Paylocity|Paychex|Ceridian Dayforce|UKG Pro|Zenefits|"
    "Sesame HR|Officient|Breathe HR|Culture Amp|15Five|Leapsome|Betterworks|Officevibe|Recruitee|"
    "SmartRecruiters|JazzHR|Manatal|Comeet|Jobvite|iCIMS|Bullhorn|Beamery|SeekOut|hireEZ|Checkr|"
    "HireRight|Certn|Jumio|IDnow|Socure|Unit21|ComplyAdvantage|Chainalysis|TRM Labs|Scorechain|"
    "Secureframe|Sprinto|Thoropass|Hyperproof|AuditBoard|LogicGate|OneTrust|TrustArc|Osano|"
    "DataGrail|Securiti|BigID|Cyera|Varonis|Netwrix|ManageEngine|SolarWinds|PRTG|Nagios|Icinga|"
    "Observium|Cacti|Nautobot|phpIPAM|Infoblox|BlueCat|Auvik|Domotz|NinjaOne|Atera|Syncro|"
    "ConnectWise|Kaseya|Datto|Pulseway|Action1|Automox|Tanium|Ivanti|Jamf|Kandji|Mosyle|Hexnode|"
    "Scalefusion|Miradore|SimpleMDM|Splashtop|TeamViewer|AnyDesk|mRemoteNG|Devolutions|Termius|"
    "Kasm|StrongDM|Border0|Netmaker|Zscaler|Netskope|FortiGate|SonicWall|WatchGuard|Sophos|"
    "Barracuda|Meraki|Ruckus|VyOS|IPFire|Zentyal|Univention|JumpCloud|Foxpass|OneLogin|ForgeRock|"
    "CyberArk|BeyondTrust|Delinea|Envkey|Fortanix|Venafi|Sectigo|DigiCert|GlobalSign|ZeroSSL|"
    "NetSuite|SAP Business One|Epicor|IFS Cloud|Visma|FreshBooks|Vyapar|Khatabook|Bukku|Jurnal",
    "data": "YugabyteDB|Crate.io|TimescaleDB|GreptimeDB|Firebolt|Altinity|Instaclustr|ScaleGrid|"
    "SQLite Cloud|TigerGraph|NebulaGraph|OrientDB|RavenDB|MarkLogic|Aerospike|DataStax Astra|"
    "FoundationDB|Hazelcast|GridGain|Kvrocks|Synadia|WarpStream|StreamNative|Solace|VerneMQ|"
    "NanoMQ|Flespi|Airbyte|Fivetran|Hevo|Meltano|Estuary|Rivery|Matillion|Polytomic|Jitsu|"
    "Aptabase|TelemetryDeck|Piwik PRO|Clicky|Woopra|Kissmetrics|Mouseflow|Lucky Orange|"
    "Contentsquare|Deepnote|Holistics|Chronosphere|Dash0|Groundcover|SkyWalking|Pyroscope|"
    "IDrive e2|Storj|Filebase|SeaweedFS|Njalla|NameSilo|INWX|Regery|Nominet|EURid|NS1|"
    "Constellix|Dynu|LuaDNS|Rage4",
    "msg": "Hubtel|Arkesel|Karix|ValueFirst|Route Mobile|SMS.to|Aspsms|Smsmode|Skebby|SMS77|3CX|"
    "FreePBX|FusionPBX|Wazo|Kamailio|Threema|Wickr|KakaoTalk|Pepipost|Sendloop|Campaign Monitor|"
    "Benchmark Email|iContact|CleverReach|Rapidmail|Newsletter2Go|Sarbacane|Mailpoet|FluentCRM|"
    "Groundhogg|Mautic|CleverTap|WebEngage|Ortto|Freshchat|360dialog|MessageMedia|Burst SMS|"
    "Cellcast|Kudosity|Mobivate",
    "game:server": "Pterodactyl|Pelican Panel|AMP Panel|TCAdmin|Nitrado|Shockbyte|Apex Hosting|"
    "BisectHosting|PebbleHost|Aternos|Exaroton|Minehut|Multicraft|Crafty Controller|PufferPanel|"
    "LinuxGSM|Valheim Server|Palworld Server|DayZ Server|Terraria|Starbound|7 Days to Die|"
    "Garry's Mod|Counter-Strike 2|Insurgency|Arma Reforger|Unturned|Mordhau|Enshrouded|V Rising|"
    "Vintage Story|Luanti|OpenTTD|Mindustry|Teeworlds|Xonotic|Mumble|Ventrilo",
    "game:svc": "Heroic Labs|Photon Engine|Normcore|Hathora|Edgegap|Colyseus|SpacetimeDB|Beamable|"
    "AccelByte|LootLocker|Modio|Overwolf|Thunderstore|Radmin VPN|Parsec|GeForce Now|Shadow PC|"
    "Boosteroid|RetroAchievements|Chessable|Roll20|Owlbear Rodeo|Kanka|Speedrun.com|Challonge|"
    "Battlefy|start.gg|Toornament|Esportal|Medal.tv|VDO.Ninja|Streamyard|Nightbot|Moobot|"
    "Fossabot|Wizebot|Firebot|Lumia Stream|Loupedeck|Elgato",
}

# -- values -----------------------------------------------------------------------------

A62 = string.ascii_letters + string.digits
A36 = string.ascii_lowercase + string.digits
U36 = string.ascii_uppercase + string.digits
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
WORDS = (
    "abandon ability absorb acoustic actor adapt afford agent alarm album alley almost anchor "
    "angle animal ankle apart arctic arena armor arrow artist aspect atom auction autumn avocado "
    "awake badge bamboo banner barrel basket beach before bench bicycle blanket blossom border "
    "bracket breeze brick bronze bubble buffalo cabin cactus camera canal candle canyon carbon "
    "carpet castle catalog cattle ceiling cereal chalk cherry chimney circle citizen clever "
    "climb clinic cluster coconut comet copper coral cotton cousin coyote cradle crater cricket "
    "crystal cushion dagger damp dawn debris decade deposit desert diamond dinosaur dolphin "
    "donkey dragon drift eagle echo eclipse elbow ember empire engine enrich episode erode "
    "estate exotic fabric falcon fancy fatigue feather fence fiction filter flame flavor "
    "fossil fringe frost galaxy garlic gentle giant ginger glacier glimpse gospel gravity "
    "guitar hammer harbor harvest hazard helmet hollow honey horizon hurdle iceberg idle "
    "infant island ivory jacket jaguar jelly jungle kettle kidney kingdom kitten ladder lagoon "
    "lantern laptop lava lemon leopard liberty lizard lobster lumber lunar magnet mammal "
    "mango marble meadow melody mercy meteor mimic minnow mirror monkey mosaic muffin "
    "mushroom napkin nectar noble nugget oasis object ocean olive orbit orchard ostrich "
    "oyster paddle palace panther parade parrot pepper pilot pistol planet plastic pony "
    "potato prism puzzle pyramid quantum rabbit raccoon radar rafter ranch raven razor "
    "rhythm ribbon rifle robot rocket saddle salmon satoshi scatter shadow shrimp silver "
    "siren sketch slogan socket spider spiral squirrel stadium stumble sugar summit "
    "sunset swamp symbol tackle talent temple thunder tiger timber tornado tortoise "
    "trumpet tunnel turtle twilight umbrella unicorn uranium valley velvet violin volcano "
    "voyage walnut wander warrior whisper wizard yellow zebra"
).split()
NAMES = "Marta Jonas Aiko Priya Tomasz Olu Camila Lars Yusuf Mei Dmitri Ines Kofi Sanne".split()
PWWORDS = (
    "Sommer Winter Sonnenschein Hamburg Barcelona dragon Bailey Chelsea Pumpkin Lighthouse "
    "tortuga mariposa Bolacha Cerveja Kaffee Schatz Ciccio Gattino Kotek Zlatko Simba Oreo "
    "Biscuit Napoli Porto Galway Tatooine Hogwarts Gandalf Pikachu Rammstein Metallica"
).split()
NONASCII = "Müller Kraków Señor Ångström Größe Çocuk Łódź Zürich Ñandú Ærø Øresund Šárka Café Smørbrød Ελλάδα Москва Žužu İstanbul".split()
SYMS = "!@#%&*-_+=.?~"


SHAPE = [""]  # the value maker that drew the current secret, for the counts


def shaped(fn: Callable[..., str]) -> Callable[..., str]:
    def run(*a: object) -> str:
        if not SHAPE[0]:
            SHAPE[0] = fn.__name__
        return fn(*a)

    run.__name__ = fn.__name__
    return run


def pick(seq):  # type: ignore[no-untyped-def]
    return R.choice(seq)


def rnd(alpha: str, n: int) -> str:
    return "".join(R.choice(alpha) for _ in range(n))


@shaped
def short_alnum() -> str:
    return rnd(pick([A62, A62, A36, U36, B58]), R.randint(10, 20))


@shaped
def mostly_letters() -> str:
    s = list(rnd(pick([string.ascii_letters, string.ascii_lowercase]), R.randint(12, 20)))
    for _ in range(R.randint(1, 2)):
        s[R.randrange(len(s))] = R.choice(string.digits)
    return "".join(s)


@shaped
def long_alnum() -> str:
    return rnd(pick([A62, A36, B58]), R.randint(24, 48))


@shaped
def hexs() -> str:
    n = pick([32, 40, 48, 64])
    h = f"{R.getrandbits(n * 4):0{n}x}"
    return h.upper() if R.random() < 0.25 else h


@shaped
def b64() -> str:
    return base64.b64encode(R.randbytes(pick([24, 32, 33, 48]))).decode()


@shaped
def b64url() -> str:
    return base64.urlsafe_b64encode(R.randbytes(pick([24, 30, 32, 40]))).decode().rstrip("=")


@shaped
def uid() -> str:
    u = str(uuid.UUID(int=R.getrandbits(128), version=4))
    return u.upper() if R.random() < 0.2 else u


@shaped
def totp() -> str:
    return rnd(B32, pick([16, 26, 32]))


def abbr(v: str) -> str:
    w = "".join(c for c in v.lower() if c.isalpha())
    return w[: R.randint(2, 4)]


@shaped
def prefixed(v: str) -> str:
    a = abbr(v)
    shape = R.randrange(7)
    if shape == 0:
        return f"{a}_live_{rnd(A62, 32)}"
    if shape == 1:
        return f"{a}-pat-{rnd(A36, 8)}-{rnd(A36, 24)}"
    if shape == 2:
        return f"{a}k_{rnd(A62, 40)}"
    if shape == 3:
        return f"{a.upper()}-{rnd(U36, 6)}-{rnd(A62, 28)}"
    if shape == 4:
        return f"sk.{a}.{rnd(A62, 36)}"
    if shape == 5:
        return f"{a}_prod_{rnd('0123456789abcdef', 40)}"
    return f"{a}v2_{rnd(A62, 22)}_{rnd(A62, 10)}"


@shaped
def jwt() -> str:
    def enc(d: dict[str, object]) -> str:
        raw = json.dumps(d, separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    head = enc({"alg": pick(["HS256", "RS256", "ES256"]), "typ": "JWT"})
    body = enc(
        {"sub": str(R.randint(10**5, 10**9)), "iat": R.randint(1.7e9, 1.8e9), "scope": "api"}
    )
    return f"{head}.{body}.{base64.urlsafe_b64encode(R.randbytes(32)).decode().rstrip('=')}"


@shaped
def grouped() -> str:
    n, k = pick([(5, 5), (4, 4), (4, 5), (6, 4)])
    return "-".join(rnd(U36, k) for _ in range(n))


@shaped
def id_secret() -> str:
    sep = pick([":", ".", ":"])
    return f"{rnd(A36, R.randint(8, 14))}{sep}{rnd(A62, R.randint(24, 40))}"


@shaped
def byte_array() -> str:
    bs = R.randbytes(pick([16, 24, 32]))
    if R.random() < 0.5:
        return "[" + ", ".join(f"0x{b:02x}" for b in bs) + "]"
    return "{" + ", ".join(str(b) for b in bs) + "}"


@shaped
def password() -> str:
    s = R.randrange(8)
    y = str(R.randint(1975, 2026))
    if s == 0:
        return f"{pick(PWWORDS)}{y}{pick(SYMS)}"
    if s == 1:
        return f"{pick(NAMES)}{R.randint(1, 99)}{pick(SYMS)}{pick(PWWORDS).lower()}"
    if s == 2:
        return f"{pick(NONASCII)}{pick(SYMS)}{y[2:]}{pick(PWWORDS)}"
    if s == 3:
        w = pick(PWWORDS).replace("a", "4").replace("e", "3").replace("o", "0")
        return f"{w}{pick(SYMS)}{R.randint(10, 999)}"
    if s == 4:
        return f"{pick(PWWORDS)}{pick(SYMS)}{pick(PWWORDS)}{R.randint(1, 99)}"
    if s == 5:
        return rnd(A62 + "!#%*", R.randint(12, 18))
    if s == 6:
        return f"{pick(NAMES).lower()}.{pick(NONASCII).lower()}{y}"
    return f"{pick(PWWORDS)}{pick(NAMES)}{y}{pick(SYMS)}{pick(SYMS)}"


@shaped
def passphrase() -> str:
    sep = pick(["-", " ", ".", "_"])
    return sep.join(pick(WORDS) for _ in range(R.randint(4, 6)))


@shaped
def seed_words() -> str:
    return " ".join(pick(WORDS) for _ in range(pick([12, 12, 24, 18])))


@shaped
def pin() -> str:
    return rnd(string.digits, pick([6, 6, 8, 7, 10]))


@shaped
def backup_code() -> str:
    return pick([f"{rnd(string.digits, 4)}-{rnd(string.digits, 4)}",
                 f"{rnd(A36, 5)}-{rnd(A36, 5)}", f"{rnd(string.digits, 8)}"])  # fmt: skip


TOKEN = [short_alnum, short_alnum, short_alnum, short_alnum, mostly_letters, mostly_letters, mostly_letters,
         long_alnum, hexs, hexs, b64,
         b64url, b64url, uid, uid, jwt, jwt, grouped, id_secret, byte_array, totp]  # fmt: skip

# -- credentials per sort of vendor: (label, class, value maker) ------------------------


def slug(v: str) -> str:
    return "".join(c for c in v.lower().replace("&", "and") if c.isalnum()) or "x"


def host(v: str) -> str:
    return f"{slug(v)}.{pick(['io', 'com', 'net', 'cloud', 'dev', 'app'])}"


def key_value(v: str) -> str:
    return prefixed(v) if R.random() < 0.2 else pick(TOKEN)()


@shaped
def db_url(v: str) -> tuple[str, str]:
    pw = password() if R.random() < 0.6 else short_alnum()
    user = pick(["admin", "app", "svc_ingest", "root", "reporting", slug(v)[:8]])
    scheme, port = pick([("postgresql", 5432), ("postgres", 26257), ("mysql", 3306),
                         ("mongodb+srv", 0), ("rediss", 6380), ("amqps", 5671), ("mqtts", 8883),
                         ("nats", 4222), ("https", 443), ("cassandra", 9042)])  # fmt: skip
    tail = "" if not port else f":{port}"
    return (
        f"{scheme}://{user}:{pw}@{pick(['db', 'eu1', 'cluster0', 'node-2'])}.{host(v)}{tail}/main",
        pw,
    )


@shaped
def hook_url(v: str) -> tuple[str, str]:
    tok = pick([long_alnum, hexs, b64url, uid, short_alnum])()
    kind = R.randrange(4)
    if kind == 0:
        return f"https://hooks.{host(v)}/in/{tok}", tok
    if kind == 1:
        return f"https://api.{host(v)}/v2/events?api_key={tok}&limit=50", tok
    if kind == 2:
        return f"https://{host(v)}/feed/{tok}/calendar.ics", tok
    return f"https://{host(v)}/webhook/{rnd(string.digits, 6)}/{tok}", tok


@shaped
def rtsp_url(v: str) -> tuple[str, str]:
    pw = password()
    ip = f"192.168.{R.randint(0, 8)}.{R.randint(20, 250)}"
    return f"rtsp://admin:{pw}@{ip}:554/cam/realmonitor?channel=1&subtype=0", pw


@shaped
def smtp_url(v: str) -> tuple[str, str]:
    pw = pick([password, short_alnum])()
    return f"smtps://alerts%40{host(v)}:{pw}@smtp.{host(v)}:465", pw


@shaped
def rtmp_url(v: str) -> tuple[str, str]:
    sk = pick([f"live_{rnd(string.digits, 9)}_{rnd(A62, 30)}", grouped().lower(), long_alnum()])
    return f"rtmp://live.{host(v)}/app/{sk}", sk


@shaped
def basic_header(v: str) -> tuple[str, str]:
    raw = f"{pick(['api', 'admin', slug(v)[:6]])}:{pick([password, short_alnum])()}"
    b = base64.b64encode(raw.encode()).decode()
    return f"Basic {b}", b


@shaped
def cookie(v: str) -> tuple[str, str]:
    val = pick([b64url, long_alnum, hexs])()
    name = pick(["session", "sid", f"{slug(v)[:6]}_sess", "auth", "remember_token"])
    return f"{name}={val}; Path=/; HttpOnly; Secure", val


@shaped
def app_password(v: str) -> str:
    return " ".join(rnd(string.ascii_lowercase, 4) for _ in range(4))


@shaped
def wg_key(v: str) -> str:
    return base64.b64encode(R.randbytes(32)).decode()


K, P, N, W, U = "key", "pw", "pin", "words", "url"
CREDS: dict[str, list[tuple[str, str, Callable[[str], object]]]] = {
    "dev": [("API key", K, key_value), ("access token", K, key_value),
            ("management token", K, key_value), ("secret key", K, key_value),
            ("webhook secret", K, lambda v: pick([hexs, b64])()),
            ("deploy token", K, key_value), ("admin key", K, key_value),
            ("client secret", K, key_value), ("signing key", K, lambda v: pick([b64, byte_array])()),
            ("webhook URL", U, hook_url), ("dashboard password", P, lambda v: password())],
    "ai": [("API key", K, key_value), ("API key", K, key_value), ("inference token", K, key_value),
           ("project key", K, key_value), ("secret key", K, key_value),
           ("endpoint URL", U, hook_url)],
    "pay": [("secret key", K, key_value), ("API secret", K, lambda v: pick([hexs, b64])()),
            ("webhook signing secret", K, key_value), ("merchant key", K, key_value),
            ("private key", K, lambda v: pick([hexs, b64, byte_array])()),
            ("notification URL", U, hook_url), ("basic auth", U, basic_header)],
    "wallet": [("seed phrase", W, lambda v: seed_words()), ("seed phrase", W, lambda v: seed_words()), ("passphrase", P, lambda v: passphrase()),
               ("PIN", N, lambda v: pin()), ("recovery words", W, lambda v: seed_words())],
    "bank": [("password", P, lambda v: password()), ("PIN", N, lambda v: pin()),
             ("recovery code", K, lambda v: backup_code())],
    "iot:cam": [("admin password", P, lambda v: password()), ("camera stream URL", U, rtsp_url),
                ("camera stream URL", U, rtsp_url), ("cloud account password", P, lambda v: password())],
    "iot:lock": [("PIN", N, lambda v: pin()), ("door code", N, lambda v: pin()),
                 ("account password", P, lambda v: password()), ("API token", K, key_value)],
    "iot:home": [("admin password", P, lambda v: password()), ("device key", K, lambda v: pick([hexs, b64, short_alnum])()),
                 ("local API token", K, key_value), ("account password", P, lambda v: password()),
                 ("cloud API key", K, key_value)],
    "iot:car": [("refresh token", K, lambda v: pick([jwt, long_alnum, b64url])()),
                ("account password", P, lambda v: password()), ("PIN", N, lambda v: pin())],
    "iot:vpn": [("private key", K, wg_key), ("account password", P, lambda v: password()),
                ("auth token", K, key_value)],
    "acct": [("password", P, lambda v: password()), ("password", P, lambda v: password()),
             ("app password", K, app_password), ("recovery code", K, lambda v: backup_code()),
             ("2FA secret", K, lambda v: totp()), ("API token", K, key_value),
             ("session cookie", U, cookie), ("passphrase", P, lambda v: passphrase())],
    "ent": [("client secret", K, key_value), ("API key", K, key_value),
            ("service account password", P, lambda v: password()),
            ("license key", K, lambda v: grouped()), ("enrollment token", K, key_value),
            ("SCIM token", K, key_value), ("agent install token", K, key_value),
            ("admin password", P, lambda v: password())],
    "data": [("connection string", U, db_url), ("connection string", U, db_url),
             ("password", P, lambda v: password()), ("API token", K, key_value),
             ("access key secret", K, key_value), ("admin token", K, key_value)],
    "msg": [("API key", K, key_value), ("auth token", K, key_value), ("SMTP password", P, lambda v: password()),
            ("SMTP URL", U, smtp_url), ("webhook URL", U, hook_url), ("SIP password", P, lambda v: password()),
            ("bot token", K, key_value), ("basic auth", U, basic_header)],
    "game:server": [("RCON password", P, lambda v: password()), ("server password", P, lambda v: password()),
                    ("admin password", P, lambda v: password()), ("panel API key", K, key_value),
                    ("license key", K, lambda v: grouped())],
    "game:svc": [("API key", K, key_value), ("server token", K, key_value), ("stream key", U, rtmp_url),
                 ("bot OAuth token", K, key_value), ("account password", P, lambda v: password()),
                 ("license key", K, lambda v: grouped())],
}  # fmt: skip

# -- names: credential words in every position, many spellings and languages -------------

KEYW = ("API_KEY APIKEY KEY ACCESS_KEY TOKEN TKN AUTH_TOKEN SECRET SECRET_KEY APP_SECRET "
        "BEARER CREDENTIAL CREDS PAT MASTER_KEY ACCESS_TOKEN PRIVATE_KEY X_API_KEY "
        "NOEGLE ATSLEGA VOTI KLJUC CHEIE KLEIDI CHAVE SUSI UFUNGUO LYKILL ALLWEDD GAKOA "
        "RAKTAS KULCS TOKENI JETON GETTONE").split()  # fmt: skip
PWW = ("PASSWORD PASSWD PWD PASS PW PASSPHRASE PASSCODE LOGIN_PASS USER_PASS ADMIN_PASS "
       "HESLO PAROL PAROLE SALASANA ADGANGSKODE WACHTWOORD CONTRASINYA LOZINKA KENNWORT "
       "MAT_KHAU AMHO MIMA PASUWADO PASSORD KODEORD SISMA PASAHITZA FJALEKALIM").split()  # fmt: skip
PINW = "PIN PINCODE PIN_CODE UNLOCK_CODE DOOR_CODE KEYPAD_CODE ALARM_CODE CODIGO PINKOODI".split()
WORDW = "MNEMONIC SEED SEED_PHRASE RECOVERY_PHRASE BACKUP_WORDS SEED_WORDS WORDS".split()
URLW = "URL DSN URI CONN_STR CONNECTION_STRING WEBHOOK_URL HOOK ENDPOINT FEED_URL".split()
AUTHW = "AUTH AUTHORIZATION BASIC_AUTH COOKIE SESSION".split()


def vtok(v: str) -> list[str]:
    parts = ["".join(c for c in w if c.isalnum()) for w in v.upper().replace("-", " ").split()]
    parts = [p for p in parts if p] or ["X"]
    return parts[:2] if R.random() < 0.7 else [parts[0]]


def cword(cls: str, label: str) -> str:
    if cls == U:
        return pick(AUTHW) if label in ("basic auth", "session cookie") else pick(URLW)
    return pick({K: KEYW, P: PWW, N: PINW, W: WORDW}[cls])


def env_name(v: str, cls: str, label: str) -> str:
    vt, cw = vtok(v), cword(cls, label)
    env = pick(["PROD", "STG", "DEV", "EU", "LIVE", "RO", "V2", "OLD", "NEW", "LOCAL"])
    shape = R.randrange(7)
    if shape == 0:
        parts = [*vt, cw]
    elif shape == 1:
        parts = [cw, *vt]
    elif shape == 2:
        parts = [env, *vt, cw]
    elif shape == 3:
        parts = [*vt, cw, env]
    elif shape == 4:
        parts = [*vt, env, cw]
    elif shape == 5:
        return "__".join(["_".join(vt), cw])
    else:
        parts = [vt[0], cw, *vt[1:], env]
    return "_".join(parts)


def camel(name: str) -> str:
    bits = name.lower().split("_")
    return bits[0] + "".join(b.title() for b in bits[1:] if b)


def kebab(name: str) -> str:
    return name.lower().replace("__", "-").replace("_", "-")


def dotted(name: str) -> str:
    return name.lower().replace("__", ".").replace("_", ".")


def header(v: str, cls: str) -> str:
    w = pick(["Token", "Api-Key", "Auth", "Key", "Secret", "Access-Token", "Signature-Key"])
    return f"X-{'-'.join(t.title() for t in vtok(v))}-{w}"


# -- forms: chat in many languages ----------------------------------------------------------

# language: (key word, password word, pin word, words word, url word, templates)
LANGS: dict[str, tuple[str, str, str, str, str, list[str]]] = {
    "English": ("key", "password", "PIN", "recovery words", "link", [
        "here's my {v} {w}: {x} — can you wire it into the config?",
        "use this one for {v}, the old one got revoked: {x}",
        "ok pasting the {v} {w} from my notes\n{x}\nthat should work now"]),
    "Spanish": ("clave", "contraseña", "PIN", "palabras de recuperación", "enlace", [
        "te paso la {w} de {v}: {x} (no la subas al repo porfa)",
        "usa esta para {v}: {x}"]),
    "Portuguese": ("chave", "senha", "PIN", "palavras de recuperação", "link", [
        "segue a {w} do {v}: {x}", "tenta com essa {w} do {v} -> {x} , a outra expirou"]),
    "French": ("clé", "mot de passe", "code PIN", "mots de récupération", "lien", [
        "voilà la {w} {v} : {x}", "essaie avec celle-ci pour {v} : {x}, l'autre ne marche plus"]),
    "German": ("Schlüssel", "Passwort", "PIN", "Wiederherstellungswörter", "Link", [
        "hier ist der {v}-{w}: {x}", "nimm bitte den hier für {v}: {x} – der alte ist abgelaufen"]),
    "Italian": ("chiave", "password", "PIN", "parole di recupero", "link", [
        "ecco la {w} di {v}: {x}", "prova con questa per {v}: {x}"]),
    "Dutch": ("sleutel", "wachtwoord", "pincode", "herstelwoorden", "link", [
        "hier is de {v} {w}: {x}", "gebruik deze maar voor {v}: {x}"]),
    "Polish": ("klucz", "hasło", "PIN", "słowa odzyskiwania", "link", [
        "masz tu {w} do {v}: {x}", "spróbuj z tym dla {v}: {x}, stary wygasł"]),
    "Czech": ("klíč", "heslo", "PIN", "obnovovací slova", "odkaz", [
        "tady je {w} k {v}: {x}", "zkus tohle pro {v}: {x}"]),
    "Russian": ("ключ", "пароль", "пин-код", "слова восстановления", "ссылка", [
        "вот {w} от {v}: {x}", "попробуй этот для {v}: {x}, старый отозвали"]),
    "Ukrainian": ("ключ", "пароль", "PIN-код", "слова відновлення", "посилання", [
        "ось {w} до {v}: {x}", "візьми цей для {v}: {x}"]),
    "Turkish": ("anahtar", "şifre", "PIN", "kurtarma kelimeleri", "bağlantı", [
        "{v} {w} burada: {x}", "bunu dene {v} için: {x}"]),
    "Arabic": ("المفتاح", "كلمة المرور", "الرمز السري", "كلمات الاسترداد", "الرابط", [
        "هذا {w} الخاص بـ {v}: {x}", "استخدم هذا لـ {v}: {x}"]),
    "Hebrew": ("מפתח", "סיסמה", "קוד", "מילות שחזור", "קישור", [
        "הנה ה{w} של {v}: {x}", "תשתמש בזה בשביל {v}: {x}"]),
    "Persian": ("کلید", "رمز عبور", "پین", "کلمات بازیابی", "لینک", [
        "این {w} {v} هست: {x}", "از این برای {v} استفاده کن: {x}"]),
    "Hindi": ("की", "पासवर्ड", "पिन", "रिकवरी शब्द", "लिंक", [
        "ये रहा {v} का {w}: {x}", "{v} के लिए ये वाला use करो: {x}"]),
    "Bengali": ("কী", "পাসওয়ার্ড", "পিন", "রিকভারি শব্দ", "লিংক", [
        "এই নাও {v} এর {w}: {x}"]),
    "Chinese": ("密钥", "密码", "PIN码", "助记词", "链接", [
        "这是{v}的{w}：{x}", "{v}用这个吧：{x}，旧的已经失效了"]),
    "Japanese": ("キー", "パスワード", "暗証番号", "リカバリーワード", "リンク", [
        "{v}の{w}です：{x}", "{v}はこっちを使ってください → {x}"]),
    "Korean": ("키", "비밀번호", "PIN", "복구 단어", "링크", [
        "{v} {w} 여기요: {x}", "{v}는 이걸로 해줘: {x}"]),
    "Vietnamese": ("khóa", "mật khẩu", "mã PIN", "cụm từ khôi phục", "liên kết", [
        "đây là {w} {v}: {x}", "dùng cái này cho {v} nhé: {x}"]),
    "Thai": ("คีย์", "รหัสผ่าน", "PIN", "คำกู้คืน", "ลิงก์", [
        "นี่คือ{w}ของ {v}: {x}"]),
    "Indonesian": ("kunci", "kata sandi", "PIN", "kata pemulihan", "tautan", [
        "ini {w} {v}: {x}", "pakai yang ini buat {v}: {x}"]),
    "Tagalog": ("susi", "password", "PIN", "recovery words", "link", [
        "eto yung {w} ng {v}: {x}", "ito na lang gamitin mo sa {v}: {x}"]),
    "Swahili": ("ufunguo", "nenosiri", "PIN", "maneno ya urejeshaji", "kiungo", [
        "hii ni {w} ya {v}: {x}"]),
    "Swedish": ("nyckel", "lösenord", "PIN-kod", "återställningsord", "länk", [
        "här är {v}-{w}: {x}", "kör med den här för {v}: {x}"]),
    "Norwegian": ("nøkkel", "passord", "PIN-kode", "gjenopprettingsord", "lenke", [
        "her er {w} til {v}: {x}"]),
    "Danish": ("nøgle", "adgangskode", "pinkode", "gendannelsesord", "link", [
        "her er {v} {w}: {x}"]),
    "Finnish": ("avain", "salasana", "PIN-koodi", "palautussanat", "linkki", [
        "tässä {v} {w}: {x}", "käytä tätä {v}:lle: {x}"]),
    "Greek": ("κλειδί", "κωδικός", "PIN", "λέξεις ανάκτησης", "σύνδεσμος", [
        "ορίστε το {w} για {v}: {x}"]),
    "Hungarian": ("kulcs", "jelszó", "PIN-kód", "helyreállító szavak", "link", [
        "itt a {v} {w}: {x}"]),
    "Romanian": ("cheie", "parolă", "PIN", "cuvinte de recuperare", "link", [
        "uite {w} pentru {v}: {x}"]),
    "Serbian": ("ključ", "lozinka", "PIN", "reči za oporavak", "link", [
        "evo {w} za {v}: {x}"]),
    "Catalan": ("clau", "contrasenya", "PIN", "paraules de recuperació", "enllaç", [
        "aquí tens la {w} de {v}: {x}"]),
    "Tamil": ("விசை", "கடவுச்சொல்", "பின்", "மீட்பு சொற்கள்", "இணைப்பு", [
        "{v} {w} இதோ: {x}"]),
    "Amharic": ("ቁልፍ", "የይለፍ ቃል", "ፒን", "የመልሶ ማግኛ ቃላት", "ሊንክ", [
        "የ{v} {w} ይኸው: {x}"]),
    "Malay": ("kunci", "kata laluan", "PIN", "perkataan pemulihan", "pautan", [
        "ni {w} {v}: {x}"]),
}  # fmt: skip
CLS_IDX = {K: 0, P: 1, N: 2, W: 3, U: 4}

FormFn = Callable[[dict[str, str]], str]
FORMS: list[tuple[str, str, set[str], FormFn]] = []  # (name, group, classes, fn)
ALL = {K, P, U}
ANY = {K, P, U, N, W}


def form(name: str, group: str, classes: set[str] = ALL) -> Callable[[FormFn], FormFn]:
    def add(fn: FormFn) -> FormFn:
        FORMS.append((name, group, classes, fn))
        return fn

    return add


def chat_form(lang: str) -> None:
    words, templates = LANGS[lang][:5], LANGS[lang][5]

    def fn(r: dict[str, str]) -> str:
        return pick(templates).format(v=r["v"], w=words[CLS_IDX[r["cls"]]], x=r["x"])

    FORMS.append((f"chat in {lang}", "chat", ANY, fn))


for _lang in LANGS:
    chat_form(_lang)


def J(x: object) -> str:
    return json.dumps(x, ensure_ascii=False)


@form("typo'd chat", "chat", ANY)
def _typo(r: dict[str, str]) -> str:
    return f"heres teh {r['v']} {r['c'].lower()} {r['x']}  pls dont commit it lol"


@form("forwarded email", "chat", ANY)
def _fwd(r: dict[str, str]) -> str:
    return (f"---------- Forwarded message ---------\nFrom: IT Desk <it@{host(r['v'])}>\n"
            f"Subject: Your {r['v']} access\n\nHello,\nyour {r['c']} is: {r['x']}\n"
            "Please change it after first use.\n\nCan you set this up in the project?")  # fmt: skip


@form("pasted note", "chat", ANY)
def _note(r: dict[str, str]) -> str:
    return f"from my notes.txt:\n\n{r['v']}\n  user: ops@{host(r['v'])}\n  {r['x']}\n\nsame account as staging"


@form("WhatsApp export", "chat", ANY)
def _wa(r: dict[str, str]) -> str:
    return (f"[14/03/25, 21:07:11] {pick(NAMES)}: {r['v']} again\n"
            f"[14/03/25, 21:07:40] {pick(NAMES)}: {r['x']}\n"
            "[14/03/25, 21:08:02] Me: thx. agent, put it where it goes")  # fmt: skip


@form("Teams message quote", "chat", ANY)
def _teams(r: dict[str, str]) -> str:
    return (f"> {pick(NAMES)} (Teams, 10:42): for {r['v']} use {r['x']}\n\n"
            "^ that's what they sent me, plug it into the deploy please")  # fmt: skip


@form("calendar invite body", "chat", ANY)
def _cal(r: dict[str, str]) -> str:
    return (f"BEGIN:VEVENT\nSUMMARY:{r['v']} onboarding\nDESCRIPTION:Login for the demo "
            f"- {r['x']}\\nBring laptop\nEND:VEVENT")  # fmt: skip


@form("meeting transcript", "chat", ANY)
def _meet(r: dict[str, str]) -> str:
    return (f"{pick(NAMES)} 00:14:21\nokay so for {r['v']} it's, let me read it out, "
            f"{r['x']}, got it?\n{pick(NAMES)} 00:14:33\nyep typing it in now")  # fmt: skip


@form("PDF handover text", "chat", ANY)
def _pdf(r: dict[str, str]) -> str:
    return (f"3.2 Access\n{r['v']} ........................ {r['c']}\n"
            f"{r['x']}\nPage 4 of 11   CONFIDENTIAL")  # fmt: skip


@form("Discord message with code block", "chat", ANY)
def _discord(r: dict[str, str]) -> str:
    return f"**{r['v']}** stuff for the bot\n```\n{r['x']}\n```\nreact ✅ when done"


@form("voice memo transcript", "chat", {P, N, W})
def _voice(r: dict[str, str]) -> str:
    return f"Voice memo (auto-transcribed): reminder the {r['v']} one is {r['x']} okay bye"


@form("sticky note with no label", "chat", ANY)
def _sticky(r: dict[str, str]) -> str:
    return f"photo of the post-it on my monitor says:\n  {r['v'].upper()}\n  {r['x']}"


@form("git commit message", "chat", ALL)
def _commitmsg(r: dict[str, str]) -> str:
    return f'oops I wrote it in the commit msg: "wip {r["v"]} hookup, using {r["x"]} for now" how do I amend'


# -- forms: config files -------------------------------------------------------------------


def cfg(name: str, classes: set[str] = ALL) -> Callable[[FormFn], FormFn]:
    return form(name, "config", classes)


@cfg("vercel.json env")
def _vercel(r):
    return J({"env": {r["n"]: r["x"]}, "regions": ["fra1"]})


@cfg("netlify.toml context env")
def _netlify(r):
    return f'[context.production.environment]\n  {r["n"]} = "{r["x"]}"\n  NODE_VERSION = "20"'


@cfg("wrangler.toml vars")
def _wrangler(r):
    return f'name = "edge-api"\nmain = "src/index.ts"\n\n[vars]\n{r["n"]} = "{r["x"]}"'


@cfg("fly.toml env")
def _fly(r):
    return f'app = "shop-api"\n\n[env]\n  PORT = "8080"\n  {r["n"]} = "{r["x"]}"'


@cfg("app.yaml env_variables")
def _gae(r):
    return f"runtime: python312\nenv_variables:\n  {r['n']}: '{r['x']}'"


@cfg("serverless.yml provider environment")
def _sls(r):
    return f"provider:\n  name: aws\n  environment:\n    {r['n']}: {r['x']}\nfunctions:\n  api:\n    handler: handler.main"


@cfg("kustomize secretGenerator literal")
def _kust(r):
    return f"secretGenerator:\n  - name: {slug(r['v'])}-creds\n    literals:\n      - {r['n'].lower()}={r['x']}"


@cfg("Pulumi stack config")
def _pulumi(r):
    return f"config:\n  aws:region: eu-west-1\n  app:{camel(r['n'])}: {r['x']}"


@cfg("GitHub Actions env block")
def _gha(r):
    return f"jobs:\n  sync:\n    runs-on: ubuntu-latest\n    env:\n      {r['n']}: {r['x']}\n    steps:\n      - run: make sync"


@cfg("Azure Pipelines variables")
def _azp(r):
    return f"variables:\n  - name: {r['n']}\n    value: '{r['x']}'\n  - name: buildConfiguration\n    value: Release"


@cfg("Bitbucket Pipelines step")
def _bbp(r):
    return f"pipelines:\n  default:\n    - step:\n        script:\n          - export {r['n']}='{r['x']}'\n          - ./deploy.sh"


@cfg("Drone pipeline environment")
def _drone(r):
    return f"kind: pipeline\nsteps:\n- name: publish\n  environment:\n    {r['n']}: {r['x']}"


@cfg("Woodpecker pipeline")
def _wood(r):
    return f'steps:\n  upload:\n    image: alpine\n    environment:\n      {r["n"]}: "{r["x"]}"'


@cfg("Travis CI env global")
def _travis(r):
    return f"language: node_js\nenv:\n  global:\n    - {r['n']}={r['x']}"


@cfg("Codemagic yaml vars")
def _cm(r):
    return f"workflows:\n  ios:\n    environment:\n      vars:\n        {r['n']}: {r['x']}"


@cfg("fastlane .env.default")
def _fastlane(r):
    return f'FASTLANE_SKIP_UPDATE_CHECK=1\n{r["n"]}="{r["x"]}"'


@cfg("Xcode xcconfig")
def _xcc(r):
    return f"// Secrets.xcconfig\n{r['n']} = {r['x']}\nPRODUCT_BUNDLE_IDENTIFIER = com.acme.shop"


@cfg("Android local.properties")
def _lp(r):
    return f"sdk.dir=/Users/dev/Library/Android/sdk\n{dotted(r['n'])}={r['x']}"


@cfg("Expo app.json extra")
def _expo(r):
    return J({"expo": {"name": "shop", "extra": {camel(r["n"]): r["x"]}}})


@cfg("Vite .env.local")
def _vite(r):
    return f"VITE_APP_TITLE=Shop\nVITE_{r['n']}={r['x']}"


@cfg("Nuxt runtimeConfig")
def _nuxt(r):
    return f"export default defineNuxtConfig({{\n  runtimeConfig: {{\n    {camel(r['n'])}: '{r['x']}',\n  }},\n}})"


@cfg("Angular environment.ts")
def _ng(r):
    return (
        f"export const environment = {{\n  production: true,\n  {camel(r['n'])}: '{r['x']}',\n}};"
    )


@cfg("Rails credentials.yml decrypted")
def _railscred(r):
    return f"# rails credentials:edit\n{slug(r['v'])}:\n  {r['n'].lower()}: {r['x']}\nsecret_key_base_note: rotate yearly"


@cfg("wp-config.php define")
def _wp(r):
    return f"<?php\ndefine( 'DB_NAME', 'wp' );\ndefine( '{r['n']}', '{r['x']}' );"


@cfg("Magento env.php")
def _mage(r):
    return f"return [\n    'system' => [\n        'default' => [\n            '{r['n'].lower()}' => '{r['x']}',\n        ],\n    ],\n];"


@cfg("Joomla configuration.php")
def _joomla(r):
    return f"class JConfig {{\n\tpublic $sitename = 'Shop';\n\tpublic ${camel(r['n'])} = '{r['x']}';\n}}"


@cfg("Mastodon .env.production")
def _masto(r):
    return f"LOCAL_DOMAIN=social.example\n{r['n']}={r['x']}\nSMTP_PORT=587"


@cfg("Gitea app.ini")
def _gitea(r):
    return f"[mailer]\nENABLED = true\n{r['n']} = {r['x']}"


@cfg("grafana.ini section")
def _grafana(r):
    return f"[auth.generic_oauth]\nenabled = true\n{r['n'].lower()} = {r['x']}"


@cfg("Prometheus scrape basic_auth", {P})
def _prom(r):
    return f"scrape_configs:\n  - job_name: {slug(r['v'])}\n    basic_auth:\n      username: metrics\n      password: '{r['x']}'"


@cfg("Alertmanager receiver", {U})
def _am(r):
    return f"receivers:\n- name: oncall\n  webhook_configs:\n  - url: '{r['x']}'\n    send_resolved: true"


@cfg("Logstash output block", {K})
def _logstash(r):
    return f'output {{\n  http {{\n    url => "https://ingest.{host(r["v"])}"\n    headers => {{ "{header(r["v"], r["cls"])}" => "{r["x"]}" }}\n  }}\n}}'


@cfg("Filebeat output")
def _filebeat(r):
    return f'output.elasticsearch:\n  hosts: ["https://logs.{host(r["v"])}:9243"]\n  {r["n"].lower()}: "{r["x"]}"'


@cfg("HAProxy userlist", {P})
def _haproxy(r):
    return (
        f"userlist ops\n    user admin insecure-password {r['x']}\n\nlisten stats\n    bind :8404"
    )


@cfg("tomcat-users.xml", {P})
def _tomcat(r):
    return f'<tomcat-users>\n  <user username="deployer" password="{r["x"]}" roles="manager-script"/>\n</tomcat-users>'


@cfg("JBoss datasource", {P, K})
def _jboss(r):
    return f'<datasource jndi-name="java:/{slug(r["v"])}">\n  <security>\n    <user-name>app</user-name>\n    <password>{r["x"]}</password>\n  </security>\n</datasource>'


@cfg("web.config appSettings")
def _webconfig(r):
    return f'<configuration>\n  <appSettings>\n    <add key="{r["n"]}" value="{r["x"]}" />\n  </appSettings>\n</configuration>'


@cfg("appsettings.json nested")
def _appsettings(r):
    return json.dumps(
        {
            "Logging": {"LogLevel": {"Default": "Warning"}},
            "Integrations": {r["v"]: {"Settings": {camel(r["n"]).title(): r["x"]}}},
        },
        indent=2,
        ensure_ascii=False,
    )


@cfg("dotnet user-secrets list")
def _usersecrets(r):
    return (
        f"$ dotnet user-secrets list\n{r['v'].replace(' ', '')}:{camel(r['n']).title()} = {r['x']}"
    )


@cfg("Windows .reg export")
def _reg(r):
    return f'Windows Registry Editor Version 5.00\n\n[HKEY_CURRENT_USER\\Software\\{r["v"].replace(" ", "")}\\Agent]\n"{camel(r["n"])}"="{r["x"]}"'


@cfg("FileZilla sitemanager.xml", {P})
def _fz(r):
    b = base64.b64encode(r["x"].encode()).decode()
    r["s"] = b
    return f'<Server>\n  <Host>sftp.{host(r["v"])}</Host>\n  <User>deploy</User>\n  <Pass encoding="base64">{b}</Pass>\n</Server>'


@cfg("WinSCP.ini session", {P})
def _winscp(r):
    return f"[Sessions\\deploy@{host(r['v'])}]\nHostName={host(r['v'])}\nUserName=deploy\nPassword={r['x']}"


@cfg("KeePass CSV export", ANY)
def _keepass(r):
    return f'"Group","Title","Username","Password","URL"\n"Work","{r["v"]}","ops","{r["x"]}","https://{host(r["v"])}"'


@cfg("Bitwarden JSON export", ANY)
def _bw(r):
    return json.dumps(
        {"items": [{"type": 1, "name": r["v"], "login": {"username": "me", "password": r["x"]}}]},
        indent=1,
        ensure_ascii=False,
    )


@cfg("browser passwords CSV", {P, N})
def _chromecsv(r):
    return f"name,url,username,password,note\n{host(r['v'])},https://{host(r['v'])}/login,me@mail.example,{r['x']},"


@cfg("muttrc", {P})
def _mutt(r):
    return f'set imap_user = "me@{host(r["v"])}"\nset imap_pass = "{r["x"]}"\nset folder = "imaps://imap.{host(r["v"])}"'


@cfg("msmtprc", {P})
def _msmtp(r):
    return f"account default\nhost smtp.{host(r['v'])}\nport 587\nuser me@{host(r['v'])}\npassword {r['x']}"


@cfg("mbsyncrc", {P})
def _mbsync(r):
    return f"IMAPAccount work\nHost imap.{host(r['v'])}\nUser me\nPass {r['x']}\nSSLType IMAPS"


@cfg("ZNC config user", {P})
def _znc(r):
    return f"<User admin>\n\t<Network libera>\n\t\tServer = irc.libera.chat +6697 {r['x']}\n\t</Network>\n</User>"


@cfg("murmur.ini", {P})
def _murmur(r):
    return f"; Murmur configuration\nport=64738\nserverpassword={r['x']}\nusers=100"


@cfg("Source server.cfg rcon", {P})
def _srcds(r):
    return f'hostname "friends only"\nrcon_password "{r["x"]}"\nsv_lan 0'


@cfg("PalWorldSettings.ini", {P})
def _pal(r):
    return f'[/Script/Pal.PalGameWorldSettings]\nOptionSettings=(Difficulty=None,ServerName="lan",AdminPassword="{r["x"]}",ServerPassword="")'


@cfg("Factorio server-settings.json", {P})
def _factorio(r):
    return json.dumps(
        {
            "name": "Factory night",
            "visibility": {"public": False},
            "game_password": r["x"],
            "require_user_verification": True,
        },
        indent=2,
        ensure_ascii=False,
    )


@cfg("ARK GameUserSettings.ini", {P})
def _ark(r):
    return f"[ServerSettings]\nServerAdminPassword={r['x']}\nDifficultyOffset=1.0"


@cfg("Terraria serverconfig.txt", {P})
def _terraria(r):
    return f"world=/srv/worlds/main.wld\nmaxplayers=8\npassword={r['x']}\nport=7777"


@cfg("Project Zomboid servertest.ini", {P})
def _pz(r):
    return f"PVP=false\nPassword={r['x']}\nMaxPlayers=12"


@cfg("OBS websocket config", {P, K})
def _obs(r):
    return json.dumps(
        {
            "alerts_enabled": False,
            "server_enabled": True,
            "server_port": 4455,
            "server_password": r["x"],
        },
        indent=1,
        ensure_ascii=False,
    )


@cfg("Home Assistant secrets.yaml", ANY)
def _hasecrets(r):
    return f'# secrets.yaml\nlatitude_home: 52.37\n{r["n"].lower()}: "{r["x"]}"'


@cfg("ESPHome device yaml", {K, P})
def _esphome(r):
    return f'esphome:\n  name: garage-door\napi:\n  encryption:\n    key: "{r["x"]}"\nota:\n  - platform: esphome'


@cfg("Zigbee2MQTT network_key", {K})
def _z2m(r):
    return f"mqtt:\n  server: mqtt://localhost\nadvanced:\n  network_key: {r['x']}\n  pan_id: 6754"


@cfg("Frigate camera input", {U})
def _frigate(r):
    return f"cameras:\n  driveway:\n    ffmpeg:\n      inputs:\n        - path: {r['x']}\n          roles: [detect, record]"


@cfg("go2rtc streams", {U})
def _go2rtc(r):
    return f"streams:\n  front_door: {r['x']}\n  garage: ffmpeg:garage#video=h264"


@cfg("Node-RED settings.js", {K, P})
def _nodered(r):
    return f'module.exports = {{\n    uiPort: 1880,\n    credentialSecret: "{r["x"]}",\n}}'


@cfg("OpenWrt wireless config", {P})
def _owrt(r):
    return f"config wifi-iface 'default_radio0'\n\toption ssid 'Home-5G'\n\toption encryption 'psk2'\n\toption key '{r['x']}'"


@cfg("hostapd.conf", {P})
def _hostapd(r):
    return f"interface=wlan0\nssid=lab-ap\nwpa=2\nwpa_passphrase={r['x']}"


@cfg("NetworkManager .nmconnection", {P})
def _nm(r):
    return f"[wifi-security]\nkey-mgmt=wpa-psk\npsk={r['x']}\n\n[ipv4]\nmethod=auto"


@cfg("netplan wifi", {P})
def _netplan(r):
    return f'network:\n  wifis:\n    wlan0:\n      access-points:\n        "Office":\n          password: "{r["x"]}"'


@cfg("ddclient.conf", {K, P})
def _ddclient(r):
    return f"protocol=dyndns2\nserver=dyn.{host(r['v'])}\nlogin=myhost\npassword='{r['x']}'\nhome.example.net"


@cfg("WireGuard wg0.conf", {K})
def _wg(r):
    return f"[Interface]\nPrivateKey = {r['x']}\nAddress = 10.64.0.2/32\nDNS = 10.64.0.1"


@cfg("OpenVPN auth-user-pass file", {P})
def _ovpn(r):
    return f"$ cat /etc/openvpn/client/auth.txt\nvpnuser42\n{r['x']}"


@cfg("strongSwan ipsec.secrets", {K, P})
def _ipsec(r):
    return f'# /etc/ipsec.secrets\n%any 203.0.113.7 : PSK "{r["x"]}"'


@cfg("evcc.yaml", {P, K})
def _evcc(r):
    return f"chargers:\n  - name: wallbox\n    type: template\n    template: {slug(r['v'])}\n    user: me@mail.example\n    password: {r['x']}"


@cfg("TeslaMate docker env", {K})
def _teslamate(r):
    return f"services:\n  teslamate:\n    environment:\n      - ENCRYPTION_KEY=secretkey\n      - {r['n']}={r['x']}"


@cfg(".npmrc registry auth", {K})
def _npmrc(r):
    return f"@acme:registry=https://npm.{host(r['v'])}/\n//npm.{host(r['v'])}/:_authToken={r['x']}"


@cfg(".pypirc", {K, P})
def _pypirc(r):
    return f"[distutils]\nindex-servers = private\n\n[private]\nrepository = https://pypi.{host(r['v'])}/\nusername = __token__\npassword = {r['x']}"


@cfg("composer auth.json", {K, P})
def _composer(r):
    return J({"http-basic": {f"repo.{host(r['v'])}": {"username": "ci", "password": r["x"]}}})


@cfg(".yarnrc.yml npmAuthToken", {K})
def _yarnrc(r):
    return f'npmScopes:\n  acme:\n    npmRegistryServer: "https://npm.{host(r["v"])}"\n    npmAuthToken: "{r["x"]}"'


@cfg("NuGet.config ClearTextPassword", {K, P})
def _nuget(r):
    return f'<packageSourceCredentials>\n  <{r["v"].replace(" ", "")}>\n    <add key="Username" value="ci" />\n    <add key="ClearTextPassword" value="{r["x"]}" />\n  </{r["v"].replace(" ", "")}>\n</packageSourceCredentials>'


@cfg("Maven settings.xml server", {K, P})
def _maven(r):
    return f"<servers>\n  <server>\n    <id>{slug(r['v'])}</id>\n    <username>deploy</username>\n    <password>{r['x']}</password>\n  </server>\n</servers>"


@cfg("sbt credentials file", {K, P})
def _sbt(r):
    return f"realm=Artifactory Realm\nhost=repo.{host(r['v'])}\nuser=ci\npassword={r['x']}"


@cfg("bundler config", {K, P})
def _bundler(r):
    return (
        f'---\nBUNDLE_GEMS__{slug(r["v"]).upper()}__IO: "ci:{r["x"]}"\nBUNDLE_PATH: "vendor/bundle"'
    )


@cfg(".gitconfig url insteadOf", {K})
def _gitcfg(r):
    return f'[url "https://ci:{r["x"]}@git.{host(r["v"])}/"]\n\tinsteadOf = https://git.{host(r["v"])}/'


@cfg("rclone.conf", {K, P})
def _rclone(r):
    return f"[{slug(r['v'])}]\ntype = s3\nprovider = Other\naccess_key_id = {rnd(U36, 20)}\nsecret_access_key = {r['x']}"


@cfg("s3cfg", {K})
def _s3cfg(r):
    return f"[default]\naccess_key = {rnd(U36, 20)}\nhost_base = s3.{host(r['v'])}\nsecret_key = {r['x']}"


@cfg("restic env file", {P, K})
def _restic(r):
    return f"export RESTIC_REPOSITORY=s3:s3.{host(r['v'])}/backups\nexport {r['n']}='{r['x']}'"


@cfg("Nomad job template", ALL)
def _nomad(r):
    return f'task "api" {{\n  template {{\n    data = <<EOH\n{r["n"]}={r["x"]}\nEOH\n    destination = "secrets/app.env"\n    env = true\n  }}\n}}'


@cfg("docker config.json auths", {P, K})
def _dockercfg(r):
    b = base64.b64encode(f"ci:{r['x']}".encode()).decode()
    r["s"] = b
    return J({"auths": {f"registry.{host(r['v'])}": {"auth": b}}})


@cfg("ArgoCD repository secret", {K, P})
def _argo(r):
    return f"apiVersion: v1\nkind: Secret\nmetadata:\n  labels:\n    argocd.argoproj.io/secret-type: repository\nstringData:\n  url: https://git.{host(r['v'])}/infra\n  password: {r['x']}"


@cfg("Bicep parameter default", ALL)
def _bicep(r):
    return f"@secure()\nparam {camel(r['n'])} string = '{r['x']}'"


@cfg("CloudFormation parameter Default", ALL)
def _cfn(r):
    return f"Parameters:\n  {camel(r['n']).title()}:\n    Type: String\n    NoEcho: true\n    Default: '{r['x']}'"


@cfg("Chef data bag item", ALL)
def _chef(r):
    return json.dumps({"id": slug(r["v"]), r["n"].lower(): r["x"]}, indent=2, ensure_ascii=False)


@cfg("Nix module option", ALL)
def _nix(r):
    return f'{{ config, ... }}: {{\n  services.{slug(r["v"])}.environment = {{\n    {r["n"]} = "{r["x"]}";\n  }};\n}}'


@cfg("Traefik docker labels", {U, K, P})
def _traefik(r):
    return f"labels:\n  - traefik.enable=true\n  - {slug(r['v'])}.{r['n'].lower()}={r['x']}"


@cfg("Postman environment export", ALL)
def _postman(r):
    return json.dumps(
        {
            "name": "prod",
            "values": [{"key": camel(r["n"]), "value": r["x"], "type": "secret", "enabled": True}],
        },
        indent=1,
        ensure_ascii=False,
    )


@cfg("Bruno .bru environment", ALL)
def _bruno(r):
    return f"vars {{\n  baseUrl: https://api.{host(r['v'])}\n}}\nvars:secret [\n  {camel(r['n'])}\n]\n# local value: {camel(r['n'])}={r['x']}"


@cfg("Jupyter notebook cell JSON", ALL)
def _ipynb(r):
    return json.dumps(
        {
            "cell_type": "code",
            "source": ["import os\n", f"os.environ['{r['n']}'] = '{r['x']}'\n"],
            "outputs": [],
        },
        indent=1,
        ensure_ascii=False,
    )


@cfg("Streamer.bot settings", {K, P, U})
def _sbot(r):
    return J({"obs": {"host": "127.0.0.1", "port": 4455}, "twitch": {camel(r["n"]): r["x"]}})


@cfg("Pterodactyl panel .env", {P, K})
def _ptero(r):
    return f"APP_URL=https://panel.example\nDB_HOST=127.0.0.1\n{r['n']}={r['x']}"


@cfg("Mosquitto bridge conf", {P, U, K})
def _mosq(r):
    return f"connection cloud\naddress mqtt.{host(r['v'])}:8883\nremote_username gateway-7\nremote_password {r['x']}"


# -- forms: shell sessions and CLI output --------------------------------------------------


def sh(name: str, classes: set[str] = ALL) -> Callable[[FormFn], FormFn]:
    return form(name, "shell", classes)


@sh("curl -u user:pass", {P, K})
def _curlu(r):
    return (
        f'$ curl -su ops:{r["x"]} https://api.{host(r["v"])}/v1/me\n{{"id": 4411, "role": "owner"}}'
    )


@sh("httpie header", {K})
def _httpie(r):
    return f"$ http GET api.{host(r['v'])}/v1/projects '{header(r['v'], r['cls'])}:{r['x']}'\nHTTP/1.1 200 OK"


@sh("gh secret set --body", ALL)
def _ghsecret(r):
    return f"$ gh secret set {r['n']} --body '{r['x']}' --repo acme/shop\n✓ Set Actions secret {r['n']} for acme/shop"


@sh("fly secrets set", ALL)
def _flysec(r):
    return f"$ fly secrets set {r['n']}='{r['x']}' -a shop-api\nRelease v42 created"


@sh("heroku config:set", ALL)
def _heroku(r):
    return f"$ heroku config:set {r['n']}={r['x']} -a shop-prod\nSetting {r['n']} and restarting ⬢ shop-prod... done, v311"


@sh("railway variables set", ALL)
def _railway(r):
    return f'$ railway variables --set "{r["n"]}={r["x"]}"\nSet variables {r["n"]}'


@sh("kubectl create secret --from-literal", ALL)
def _kubelit(r):
    return f"$ kubectl -n prod create secret generic {slug(r['v'])} --from-literal={r['n'].lower()}='{r['x']}'\nsecret/{slug(r['v'])} created"


@sh("docker run -e", ALL)
def _dockerrun(r):
    return f"$ docker run -d --name worker -e {r['n']}='{r['x']}' ghcr.io/acme/worker:1.8"


@sh("podman secret from stdin", ALL)
def _podman(r):
    return (
        f"$ printf '%s' '{r['x']}' | podman secret create {slug(r['v'])}_{r['cls']} -\n8f2c1e0a9b7d"
    )


@sh("mysql -p inline", {P})
def _mysqlp(r):
    return f"$ mysql -h db.{host(r['v'])} -u app -p'{r['x']}' shop\nmysql: [Warning] Using a password on the command line interface can be insecure."


@sh("sqlcmd -P", {P})
def _sqlcmd(r):
    return f'PS> sqlcmd -S tcp:sql01,1433 -U sa -P "{r["x"]}" -Q "SELECT @@VERSION"'


@sh("sshpass -p", {P})
def _sshpass(r):
    return (
        f"$ sshpass -p '{r['x']}' ssh admin@10.0.4.{R.randint(2, 250)} uptime\n 10:02:11 up 41 days"
    )


@sh("smbclient -U user%pass", {P})
def _smb(r):
    return f"$ smbclient //nas/backup -U 'backup%{r['x']}' -c ls"


@sh("keytool -storepass", {P})
def _keytool(r):
    return f"$ keytool -list -keystore release.jks -storepass '{r['x']}'\nKeystore type: PKCS12"


@sh("npm config set authToken", {K})
def _npmset(r):
    return f"$ npm config set //npm.{host(r['v'])}/:_authToken {r['x']}"


@sh("poetry config http-basic", {K, P})
def _poetry(r):
    return f"$ poetry config http-basic.{slug(r['v'])} __token__ {r['x']}"


@sh("twine upload -p", {K, P})
def _twine(r):
    return f"$ twine upload --repository-url https://pypi.{host(r['v'])}/ -u __token__ -p {r['x']} dist/*"


@sh("dotnet nuget add source -p", {K, P})
def _dnuget(r):
    return f"> dotnet nuget add source https://nuget.{host(r['v'])}/v3/index.json -n {slug(r['v'])} -u ci -p {r['x']} --store-password-in-clear-text"


@sh("mvn -D property", ALL)
def _mvn(r):
    return f"$ mvn -B deploy -D{dotted(r['n'])}={r['x']} -DskipTests"


@sh("shell history with timestamps", ALL)
def _hist(r):
    return f'$ history | tail -3\n  511  2025-03-02 10:14:55 cd ~/src/shop\n  512  2025-03-02 10:15:20 export {r["n"]}="{r["x"]}"\n  513  2025-03-02 10:15:31 make sync'


@sh("zsh_history file", ALL)
def _zsh(r):
    return f": 1740911720:0;cd ~/src/shop\n: 1740911731:0;{slug(r['v'])} login --with {r['x']}\n: 1740911745:0;git status"


@sh("ps aux with arguments", ALL)
def _ps(r):
    return f"$ ps aux | grep agent\nroot  812  0.3  1.1 /opt/{slug(r['v'])}/agent --server https://{host(r['v'])} --{kebab(r['n'])} {r['x']}"


@sh("/proc environ dump", ALL)
def _environ(r):
    return f"$ sudo cat /proc/812/environ | tr '\\0' '\\n'\nHOME=/root\n{r['n']}={r['x']}\nLANG=C.UTF-8"


@sh("systemctl show Environment", ALL)
def _sysshow(r):
    return f"$ systemctl show -p Environment {slug(r['v'])}-agent\nEnvironment=LOG_LEVEL=info {r['n']}={r['x']}"


@sh("crontab -l", ALL)
def _cron(r):
    return f"$ crontab -l\n*/15 * * * * {r['n']}='{r['x']}' /usr/local/bin/sync.sh >/dev/null 2>&1"


@sh("kubectl get secret -o yaml", {K, P})
def _kgs(r):
    b = base64.b64encode(r["x"].encode()).decode()
    r["s"] = b
    return f"$ kubectl get secret {slug(r['v'])} -o yaml\napiVersion: v1\ndata:\n  {r['n'].lower()}: {b}\nkind: Secret"


@sh("vault kv get table", ALL)
def _vault(r):
    return f"$ vault kv get secret/{slug(r['v'])}\n====== Data ======\nKey{' ' * 12}Value\n---{' ' * 12}-----\n{r['n'].lower():<15}{r['x']}"


@sh("consul kv get", ALL)
def _consul(r):
    return f"$ consul kv get config/{slug(r['v'])}/{r['n'].lower()}\n{r['x']}"


@sh("etcdctl get", ALL)
def _etcd(r):
    return f"$ etcdctl get /apps/{slug(r['v'])}/{kebab(r['n'])}\n/apps/{slug(r['v'])}/{kebab(r['n'])}\n{r['x']}"


@sh("redis-cli CONFIG GET", {P})
def _redisget(r):
    return f'127.0.0.1:6379> CONFIG GET requirepass\n1) "requirepass"\n2) "{r["x"]}"'


@sh("sqlite3 settings query", ALL)
def _sqlite(r):
    return f"sqlite> SELECT key, value FROM settings WHERE key LIKE '%{slug(r['v'])[:5]}%';\n{r['n'].lower()}|{r['x']}"


@sh("psql select output", ALL)
def _psqlsel(r):
    return f"shop=# select name, value from integrations;\n   name   | value\n----------+-------\n {slug(r['v'])[:8]:<8} | {r['x']}\n(1 row)"


@sh("jq output", ALL)
def _jq(r):
    return f"$ jq .{camel(r['n'])} ~/.config/{slug(r['v'])}/config.json\n{J(r['x'])}"


@sh("yq output", ALL)
def _yq(r):
    return f"$ yq '.auth' values.prod.yaml\n{r['n'].lower()}: {r['x']}\nenabled: true"


@sh("PowerShell SetEnvironmentVariable", ALL)
def _pssetenv(r):
    return f"PS C:\\> [Environment]::SetEnvironmentVariable('{r['n']}', '{r['x']}', 'User')"


@sh("cmd setx", ALL)
def _setx(r):
    return f'C:\\Users\\dev> setx {r["n"]} "{r["x"]}"\n\nSUCCESS: Specified value was saved.'


@sh("fish set -gx", ALL)
def _fish(r):
    return f"~/src/shop> set -gx {r['n']} '{r['x']}'\n~/src/shop> make run"


@sh("tcsh setenv", ALL)
def _tcsh(r):
    return f"% setenv {r['n']} '{r['x']}'\n% ./run_batch.csh"


@sh("expect script send", {P})
def _expect(r):
    return f'spawn ssh admin@fw01\nexpect "assword:"\nsend "{r["x"]}\\r"\ninteract'


@sh("tmux send-keys", {P, K})
def _tmux(r):
    return f"$ tmux send-keys -t deploy:0 '{slug(r['v'])} auth {r['x']}' Enter"


@sh("CLI login positional argument", {K})
def _clilogin(r):
    return f"$ {slug(r['v'])} login {r['x']}\n✔ Logged in to {r['v']} as dev@shop.example"


@sh("docker compose config output", ALL)
def _dcc(r):
    return f"$ docker compose config\nservices:\n  api:\n    environment:\n      {r['n']}: {r['x']}\n    image: shop/api:latest"


@sh("rsync with RSYNC_PASSWORD", {P})
def _rsync(r):
    return (
        f"$ RSYNC_PASSWORD='{r['x']}' rsync -av ./dist/ rsync://deploy@mirror.{host(r['v'])}/www/"
    )


@sh("openssl enc -k", {P})
def _openssl(r):
    return f"$ openssl enc -aes-256-cbc -pbkdf2 -in dump.sql -out dump.enc -k '{r['x']}'"


@sh("unrar -p", {P})
def _unrar(r):
    return f"$ unrar x -p'{r['x']}' invoices-2024.rar\nExtracting invoices-2024/jan.pdf   OK"


@sh("ssh-keygen -N", {P})
def _sshkeygen(r):
    return f"$ ssh-keygen -t ed25519 -N '{r['x']}' -f ~/.ssh/deploy_{slug(r['v'])[:6]}\nGenerating public/private ed25519 key pair."


@sh("aws configure set", {K})
def _awsset(r):
    return f"$ aws configure set aws_secret_access_key {r['x']} --profile {slug(r['v'])}\n$ aws s3 ls --endpoint-url https://s3.{host(r['v'])} --profile {slug(r['v'])}"


# -- forms: code ---------------------------------------------------------------------------


def code(name: str, classes: set[str] = ALL) -> Callable[[FormFn], FormFn]:
    return form(name, "code", classes)


@code("Python os.environ.setdefault")
def _pysd(r):
    return f'import os\n\nos.environ.setdefault("{r["n"]}", "{r["x"]}")'


@code("Python pydantic Settings default")
def _pyd(r):
    return f'class Settings(BaseSettings):\n    {r["n"].lower()}: SecretStr = SecretStr("{r["x"]}")\n    timeout: int = 30'


@code("Python dataclass default")
def _pydc(r):
    return f'@dataclass\nclass {r["v"].replace(" ", "").replace(".", "")}Config:\n    base_url: str = "https://api.{host(r["v"])}"\n    {r["n"].lower()}: str = "{r["x"]}"'


@code("Python SDK constructor, no name", {K})
def _pysdk(r):
    return f'from {slug(r["v"])} import Client\n\nclient = Client("{r["x"]}")\nprint(client.projects.list())'


@code("Python aiohttp BasicAuth", {P})
def _aio(r):
    return f'auth = aiohttp.BasicAuth("svc", "{r["x"]}")\nasync with session.get(url, auth=auth) as resp:'


@code("JS process.env fallback")
def _jsfb(r):
    return f"const {camel(r['n'])} = process.env.{r['n']} || '{r['x']}';"


@code("Deno env fallback")
def _deno(r):
    return f'const token = Deno.env.get("{r["n"]}") ?? "{r["x"]}";'


@code("axios default header", {K})
def _axios(r):
    return f"axios.defaults.headers.common['{header(r['v'], r['cls'])}'] = '{r['x']}';"


@code("React component prop", {K})
def _react(r):
    return f'<{r["v"].replace(" ", "").replace(".", "")}Provider {camel(r["n"])}="{r["x"]}">\n  <App />\n</{r["v"].replace(" ", "").replace(".", "")}Provider>'


@code("Go struct literal")
def _gostruct(r):
    return f'cfg := Config{{\n\tEndpoint: "https://api.{host(r["v"])}",\n\t{camel(r["n"]).title()}: "{r["x"]}",\n}}'


@code("Rust env var unwrap_or")
def _rust(r):
    return f'let key = std::env::var("{r["n"]}").unwrap_or_else(|_| "{r["x"]}".to_string());'


@code("Java @Value default")
def _javaval(r):
    return f'@Value("${{{dotted(r["n"])}:{r["x"]}}}")\nprivate String {camel(r["n"])};'


@code("Kotlin buildConfigField")
def _kts(r):
    return f'buildConfigField("String", "{r["n"]}", "\\"{r["x"]}\\"")'


@code("Objective-C NSString constant")
def _objc(r):
    return f'static NSString * const k{camel(r["n"]).title()} = @"{r["x"]}";'


@code("C# NetworkCredential", {P})
def _csnc(r):
    return (
        f'var cred = new NetworkCredential("svc-report", "{r["x"]}");\nclient.Credentials = cred;'
    )


@code("VB.NET Const")
def _vb(r):
    return f'Private Const {r["n"]} As String = "{r["x"]}"'


@code("Ruby ENV.fetch default")
def _rbfetch(r):
    return f'{r["n"].lower()} = ENV.fetch("{r["n"]}", "{r["x"]}")'


@code("Erlang sys.config")
def _erl(r):
    return f'[{{{slug(r["v"])}, [{{{r["n"].lower()}, <<"{r["x"]}">>}}]}}].'


@code("Haskell record")
def _hs(r):
    return f'defaultConfig :: Config\ndefaultConfig = Config {{ cfgHost = "api.{host(r["v"])}", cfg{camel(r["n"]).title()} = "{r["x"]}" }}'


@code("Scala case class default")
def _scala(r):
    return f'final case class {r["v"].replace(" ", "").replace(".", "")}Conf({camel(r["n"])}: String = "{r["x"]}")'


@code("Groovy Gradle ext")
def _groovy(r):
    return f"ext {{\n    {camel(r['n'])} = '{r['x']}'\n}}"


@code("R Sys.setenv")
def _r(r):
    return f'Sys.setenv({r["n"]} = "{r["x"]}")\nres <- httr::GET(url)'


@code("PowerShell script variable")
def _ps1(r):
    return f"${camel(r['n'])} = '{r['x']}'\nInvoke-RestMethod -Uri $uri -Headers @{{ '{header(r['v'], r['cls'])}' = ${camel(r['n'])} }}"


@code("Zig const")
def _zig(r):
    return f'const {r["n"].lower()} = "{r["x"]}";'


@code("Crystal constant")
def _crystal(r):
    return f'{r["n"]} = "{r["x"]}"\nclient = HTTP::Client.new(URI.parse(BASE))'


@code("SQL CREATE USER IDENTIFIED BY", {P})
def _sqlcu(r):
    return f"CREATE USER 'report_{slug(r['v'])[:6]}'@'%' IDENTIFIED BY '{r['x']}';\nGRANT SELECT ON shop.* TO 'report_{slug(r['v'])[:6]}'@'%';"


@code("SQL ALTER ROLE PASSWORD", {P})
def _sqlar(r):
    return f"ALTER ROLE app_rw WITH LOGIN PASSWORD '{r['x']}';"


@code("GraphQL variables", ALL)
def _gql(r):
    return "mutation Connect($input: ConnectInput!) { connect(input: $input) { id } }\n\n" + J(
        {"input": {"provider": slug(r["v"]), camel(r["n"]): r["x"]}}
    )


@code("Terraform variable default", ALL)
def _tfvar(r):
    return f'variable "{r["n"].lower()}" {{\n  type      = string\n  sensitive = true\n  default   = "{r["x"]}"\n}}'


@code("Dockerfile ENV", ALL)
def _dfenv(r):
    return f"FROM node:20-alpine\nENV {r['n']}={r['x']}\nCOPY . /app"


@code("wallet import from mnemonic, no name", {W})
def _wallet(r):
    return f'from eth_account import Account\nAccount.enable_unaudited_hdwallet_features()\nacct = Account.from_mnemonic("{r["x"]}")'


@code("bip39 restore in JS", {W})
def _bip39(r):
    return f"const seed = await bip39.mnemonicToSeed('{r['x']}');\nconst root = hdkey.fromMasterSeed(seed);"


@code("Python requests URL", {U})
def _pyurl(r):
    return f'resp = requests.post("{r["x"]}", json={{"text": "deploy done"}})'


@code("Go sql.Open DSN", {U})
def _gosql(r):
    return f'db, err := sql.Open("pgx", "{r["x"]}")\nif err != nil {{\n\tlog.Fatal(err)\n}}'


@code("byte-array literal key", {K})
def _pybytes(r):
    if r["x"].startswith("{"):  # a decimal array reads as a Java initializer
        return f"private static final byte[] SIGNING = {r['x']};"
    if r["x"].startswith("["):
        return f"SIGNING = bytes({r['x']})"
    return f'HMAC_KEY = b"{r["x"]}"'


# -- forms: logs, tables, diffs, HTTP --------------------------------------------------------


def misc(name: str, classes: set[str] = ALL) -> Callable[[FormFn], FormFn]:
    return form(name, "log/table/diff/http", classes)


@misc("Rails log Parameters", {P, K})
def _railslog(r):
    return f'Started POST "/integrations" for 10.0.0.8\nProcessing by IntegrationsController#create as JSON\n  Parameters: {{"provider"=>"{slug(r["v"])}", "{r["n"].lower()}"=>"{r["x"]}"}}'


@misc("Spring Boot startup property dump", ALL)
def _spring(r):
    return f"2025-03-02 10:11:02.114  INFO 1 --- [main] o.s.b.c.c.ConfigDataEnvironment : {dotted(r['n'])}={r['x']}"


@misc("urllib3 debug headers", {K})
def _urllib3(r):
    return f"DEBUG:urllib3.connectionpool:https://api.{host(r['v'])}:443 \"GET /v1/items HTTP/1.1\" 200 512\nsend: b'GET /v1/items HTTP/1.1\\r\\nHost: api.{host(r['v'])}\\r\\n{header(r['v'], r['cls'])}: {r['x']}\\r\\n'"


@misc("axios error config dump", {K})
def _axerr(r):
    return f"AxiosError: Request failed with status code 403\n  config: {{\n    headers: {{ Accept: 'application/json', '{header(r['v'], r['cls'])}': '{r['x']}' }},\n    url: 'https://api.{host(r['v'])}/v2/sync'\n  }}"


@misc("Java stack trace with JDBC URL", {P})
def _jdbc(r):
    return f"java.sql.SQLException: Access denied\n\tat com.mysql.cj.jdbc.ConnectionImpl.<init>(ConnectionImpl.java:448)\nCaused by: url=jdbc:mysql://db01:3306/shop?user=app&password={r['x']}"


@misc("Airflow task log", ALL)
def _airflow(r):
    return f"[2025-03-02, 10:00:03 UTC] {{subprocess.py:93}} INFO - Running command: ['bash', '-c', '{slug(r['v'])} export --{kebab(r['n'])}={r['x']}']"


@misc("Jenkins console unmasked", ALL)
def _jenkins(r):
    return f"[Pipeline] sh\n+ ./publish.sh --{kebab(r['n'])} {r['x']}\nPublishing artifacts..."


@misc("Docker build log build-arg", ALL)
def _dbuild(r):
    return f"#7 [build 3/6] RUN --mount=type=cache ./configure\n#7 0.412 using {r['n']}={r['x']}\n#7 DONE 1.8s"


@misc("kubectl describe pod env", ALL)
def _kdesc(r):
    return f"    Environment:\n      NODE_ENV:   production\n      {r['n']}:  {r['x']}\n    Mounts:\n      /var/run/secrets from kube-api-access (ro)"


@misc("CloudWatch JSON log", ALL)
def _cw(r):
    return J(
        {
            "timestamp": 1740911720114,
            "level": "debug",
            "msg": "loaded config",
            "config": {camel(r["n"]): r["x"]},
        }
    )


@misc("logfmt line", ALL)
def _logfmt(r):
    return f'ts=2025-03-02T10:11:02Z level=debug msg="client init" vendor={slug(r["v"])} {r["n"].lower()}={r["x"]}'


@misc("PostgreSQL statement log", {P})
def _pglog(r):
    return f"2025-03-02 10:11:02.114 UTC [2211] postgres@shop LOG:  statement: ALTER USER app PASSWORD '{r['x']}';"


@misc("Redis MONITOR output", {P})
def _redismon(r):
    return f'1740911720.114512 [0 10.0.0.8:51522] "AUTH" "default" "{r["x"]}"\n1740911720.115002 [0 10.0.0.8:51522] "PING"'


@misc("tcpdump -A payload", {K, P})
def _tcpdump(r):
    return f"10:11:02.114 IP 10.0.0.8.51522 > 10.0.0.20.80: Flags [P.], length 188\nPOST /login HTTP/1.1\nHost: intranet\n\nuser=ops&pass={r['x']}"


@misc("mitmproxy flow detail", {K})
def _mitm(r):
    return f"Request\n  GET https://api.{host(r['v'])}/v1/usage\n  {header(r['v'], r['cls'])}: {r['x']}\n  User-Agent: shop-sync/2.1"


@misc("HAR entry", {K})
def _har(r):
    return json.dumps(
        {
            "request": {
                "method": "GET",
                "url": f"https://api.{host(r['v'])}/v1/me",
                "headers": [{"name": header(r["v"], r["cls"]), "value": r["x"]}],
            }
        },
        indent=1,
    )


@misc("browser Copy as cURL", {K})
def _copycurl(r):
    return f"curl 'https://app.{host(r['v'])}/api/graphql' \\\n  -H 'accept: */*' \\\n  -H '{header(r['v'], r['cls'])}: {r['x']}' \\\n  --data-raw '{{\"query\":\"{{me{{id}}}}\"}}'"


@misc("box-drawing CLI table", ALL)
def _boxtable(r):
    return f"┌──────────────┬{'─' * (len(r['x']) + 2)}┐\n│ NAME         │ VALUE{' ' * (len(r['x']) - 4)}│\n├──────────────┼{'─' * (len(r['x']) + 2)}┤\n│ {r['n'][:12]:<12} │ {r['x']} │\n└──────────────┴{'─' * (len(r['x']) + 2)}┘"


@misc("TSV pasted from a spreadsheet", ANY)
def _tsv(r):
    return f"service\taccount\tsecret\tnotes\n{r['v']}\tops\t{r['x']}\trotate Q3"


@misc("HTML table", ANY)
def _html(r):
    return f"<table>\n<tr><th>System</th><th>Login</th></tr>\n<tr><td>{r['v']}</td><td>{r['x']}</td></tr>\n</table>"


@misc("org-mode table", ANY)
def _org(r):
    return f"| system | value |\n|--------+-------|\n| {r['v']} | {r['x']} |"


@misc("reStructuredText list table", ANY)
def _rst(r):
    return f".. list-table:: Access\n\n   * - {r['v']}\n     - {r['x']}"


@misc("Confluence wiki table", ANY)
def _conf(r):
    return f"||Tool||Credential||Owner||\n|{r['v']}|{r['x']}|{pick(NAMES)}|"


@misc("YAML list of records", ANY)
def _yamllist(r):
    return f'- system: {r["v"]}\n  owner: {pick(NAMES)}\n  value: "{r["x"]}"'


@misc("word diff", ALL)
def _wdiff(r):
    return f"$ git diff --word-diff\n@@ -3 +3 @@\n{r['n']}=[-changeme-]{{+{r['x']}+}}"


@misc("git format-patch email", ALL)
def _fpatch(r):
    return f"From 3a1f Mon Sep 17 00:00:00 2001\nSubject: [PATCH] wire {r['v']}\n\n---\n+++ b/config/prod.env\n@@ -1,2 +1,3 @@\n NODE_ENV=production\n+{r['n']}={r['x']}"


@misc("merge conflict markers", ALL)
def _conflict(r):
    return f"<<<<<<< HEAD\n{r['n']}={r['x']}\n=======\n{r['n']}=${{{r['n']}}}\n>>>>>>> main"


@misc("GitHub suggestion block", ALL)
def _suggest(r):
    return f'**review:** hardcode for now?\n```suggestion\n    {camel(r["n"])}: "{r["x"]}",\n```'


@misc("svn diff", ALL)
def _svn(r):
    return f"Index: conf/site.properties\n===================================================================\n--- conf/site.properties\t(revision 1812)\n+++ conf/site.properties\t(working copy)\n@@ -4 +4 @@\n-{dotted(r['n'])}=\n+{dotted(r['n'])}={r['x']}"


@misc("HTTP/2 pseudo-header dump", {K})
def _h2(r):
    return f":method: POST\n:path: /v1/jobs\n:authority: api.{host(r['v'])}\n{header(r['v'], r['cls']).lower()}: {r['x']}"


@misc("curl -v request lines", {K})
def _curlv(r):
    return f"> GET /v1/me HTTP/2\n> Host: api.{host(r['v'])}\n> {header(r['v'], r['cls'])}: {r['x']}\n> \n< HTTP/2 200"


@misc("WebSocket handshake", {K})
def _ws(r):
    return f"GET /socket?token={r['x']} HTTP/1.1\nHost: rt.{host(r['v'])}\nUpgrade: websocket\nConnection: Upgrade"


@misc("gRPC metadata", {K})
def _grpc(r):
    return (
        f"$ grpcurl -H '{header(r['v'], r['cls']).lower()}: {r['x']}' api.{host(r['v'])}:443 list"
    )


@misc("SOAP UsernameToken", {P})
def _soap(r):
    return f'<wsse:UsernameToken>\n  <wsse:Username>integration</wsse:Username>\n  <wsse:Password Type="#PasswordText">{r["x"]}</wsse:Password>\n</wsse:UsernameToken>'


@misc("OAuth token response", {K})
def _oauth(r):
    return J(
        {"access_token": r["x"], "token_type": "Bearer", "expires_in": 3600, "scope": "read write"}
    )


@misc("form POST body", {P})
def _formpost(r):
    return f"POST /session HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\n\nemail=me%40mail.example&password={r['x']}&remember=1"


@misc("Authorization Basic header", {U})
def _basichdr(r):
    return f"GET /api/v2/report HTTP/1.1\nHost: {host(r['v'])}\nAuthorization: {r['x']}"


@misc("Cookie request header", {U})
def _cookiehdr(r):
    return (
        f"GET /account HTTP/1.1\nHost: www.{host(r['v'])}\nCookie: lang=en; {r['x'].split(';')[0]}"
    )


@misc("URL in prose", {U})
def _urlprose(r):
    return f"the integration calls {r['x']} every 5 min, is that why it's slow?"


@misc("RTSP URL in VLC log", {U})
def _vlc(r):
    return f"main debug: creating access: {r['x']}\nlive555 debug: RTP subsession 'video/H264'"


# -- forms: agent tool calls and results -----------------------------------------------------


def agent(name: str, classes: set[str] = ANY) -> Callable[[FormFn], FormFn]:
    return form(name, "agent", classes)


def env_line(r: dict[str, str]) -> str:
    return f"{r['n']}={r['x']}"


@agent("Read tool result with line numbers")
def _readn(r):
    return f"     1\t# {r['v']}\n     2\tREGION=eu\n     3\t{env_line(r)}\n     4\t"


@agent("tool_result escaped once")
def _tr1(r):
    return J(
        {
            "type": "tool_result",
            "tool_use_id": "toolu_01",
            "content": f"cat .env.prod\n{env_line(r)}\n",
        }
    )


@agent("function_call arguments escaped twice")
def _fc2(r):
    return J(
        {
            "type": "function_call",
            "name": "shell",
            "arguments": J({"command": ["bash", "-lc", f"echo '{env_line(r)}' >> .env"]}),
        }
    )


@agent("Gemini functionCall args")
def _gem(r):
    return J(
        {
            "functionCall": {
                "name": "write_file",
                "args": {"file_path": "config/app.env", "content": env_line(r)},
            }
        }
    )


@agent("MCP tools/call request")
def _mcpreq(r):
    return J(
        {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": {"name": "set_secret", "arguments": {"name": r["n"], "value": r["x"]}},
        }
    )


@agent("Cline execute_command tag")
def _cline(r):
    return f'<execute_command>\n<command>{slug(r["v"])} configure --{kebab(r["n"])} "{r["x"]}"</command>\n<requires_approval>true</requires_approval>\n</execute_command>'


@agent("str_replace_editor call")
def _sre(r):
    return J(
        {
            "command": "str_replace",
            "path": "/repo/settings.py",
            "old_str": f"{r['n']} = None",
            "new_str": f'{r["n"]} = "{r["x"]}"',
        }
    )


@agent("OpenHands event JSON")
def _oh(r):
    return J(
        {
            "id": 41,
            "source": "agent",
            "action": "run",
            "args": {"command": f"export {r['n']}='{r['x']}' && pytest -q"},
        }
    )


@agent("SWE-agent trajectory step")
def _swe(r):
    return f"{{'action': \"edit 12:12\\n{r['n'].lower()} = '{r['x']}'\\nend_of_edit\", 'observation': 'File updated.'}}"


@agent("Aider chat history")
def _aider(r):
    return f'#### use {r["x"]} for {r["v"]}\n\nI\'ll add it to `config.py`:\n\nconfig.py\n```python\n{r["n"]} = "{r["x"]}"\n```'


@agent("PreToolUse hook stdin JSON")
def _hook(r):
    return J(
        {
            "session_id": "9c1e",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": f"{slug(r['v'])} deploy --{kebab(r['n'])}={r['x']}"},
        }
    )


@agent("WebFetch result")
def _webfetch(r):
    return f"Fetched https://wiki.internal/{slug(r['v'])} (200):\n# {r['v']} setup\nShared credential for the team: {r['x']}"


@agent("sub-agent report")
def _subagent(r):
    return f"Task result: I found the {r['v']} {r['c']} in `deploy/old.env` ({r['x']}) and moved it into the new config as asked."


@agent("transcript JSONL line escaped twice")
def _jsonl2(r):
    return J(
        {
            "type": "user",
            "message": {
                "role": "user",
                "content": J([{"type": "text", "text": f"{r['v']}: {r['x']}"}]),
            },
        }
    )


@agent("Codex exec command array")
def _codexexec(r):
    return J(
        {
            "type": "exec_command",
            "command": [
                "bash",
                "-lc",
                f"curl -sf -H '{header(r['v'], K)}: {r['x']}' https://api.{host(r['v'])}/v1/ping",
            ],
        }
    )


@agent("NotebookEdit new_source")
def _nbedit(r):
    return J(
        {
            "notebook_path": "analysis.ipynb",
            "cell_id": "c3",
            "new_source": f'{r["n"].lower()} = "{r["x"]}"\nclient = connect({r["n"].lower()})',
        }
    )


@agent("agent plan markdown")
def _plan(r):
    return f"## Plan\n1. Add `{r['n']}` to `.env` (value `{r['x']}` from the user)\n2. Restart the worker\n3. Check the dashboard"


@agent("Goose tool call")
def _goose(r):
    return J(
        {
            "tool": "developer__shell",
            "input": {"command": f"echo {r['x']} | {slug(r['v'])} auth --stdin"},
        }
    )


# -- look-alikes: random-looking strings that are no secret ----------------------------------

H = "0123456789abcdef"
Look = tuple[str, str, list[str]]  # (form, text, keep)


def sha(n: int = 40) -> str:
    return rnd(H, n)


def lk_commit() -> Look:
    s = sha()
    return pick([("git revert", f"$ git revert {s}\n[main 1a2b3c4] Revert \"bump deps\"", [s]),
                 ("prose", f"the regression came in with commit {s}, cherry-pick the fix onto release", [s]),
                 ("git log --oneline", f"$ git log --oneline -2\n{s[:7]} fix flaky test\n{sha()[:7]} merge main", [s[:7]])])  # fmt: skip


def lk_rebase() -> Look:
    a, b = sha(7), sha(7)
    return (
        "rebase todo",
        f"pick {a} add retry to sync\nsquash {b} typo\n# Rebase 3c1d..{b} onto 3c1d",
        [a, b],
    )


def lk_integrity() -> Look:
    h = base64.b64encode(R.randbytes(64)).decode()
    return pick([("package-lock", f'"node_modules/left-pad": {{\n  "version": "1.3.0",\n  "integrity": "sha512-{h}"\n}}', [h]),
                 ("pnpm-lock", f"  /lodash@4.17.21:\n    resolution: {{integrity: sha512-{h}}}", [h]),
                 ("SRI script tag", f'<script src="https://cdn.example/lib.min.js" integrity="sha512-{h}" crossorigin="anonymous"></script>', [h])])  # fmt: skip


def lk_gosum() -> Look:
    h = base64.b64encode(R.randbytes(32)).decode()
    return ("go.sum", f"golang.org/x/text v0.14.0 h1:{h}", [h])


def lk_cargo() -> Look:
    h = sha(64)
    return (
        "Cargo.lock",
        f'[[package]]\nname = "serde"\nversion = "1.0.197"\nchecksum = "{h}"',
        [h],
    )


def lk_digest() -> Look:
    h = sha(64)
    return pick([("docker pull", f"Digest: sha256:{h}\nStatus: Downloaded newer image for nginx:1.27", [h]),
                 ("k8s image", f"image: ghcr.io/acme/api@sha256:{h}", [h])])  # fmt: skip


def lk_arn() -> Look:
    a = f"arn:aws:iam::{rnd(string.digits, 12)}:role/{pick(['deploy', 'ci-runner', 'lambda-exec'])}"
    return ("ARN", f"assume role {a} before running terraform", [a])


def lk_placeholder() -> Look:
    p = pick(
        [
            "YOUR_API_KEY_HERE",
            "<your-token>",
            "changeme",
            "xxxxxxxxxxxxxxxx",
            "REPLACE_ME",
            "${API_TOKEN}",
            "sk-...",
            "<paste secret here>",
        ]
    )
    return pick([(".env.example", f"# copy to .env\nVENDOR_API_KEY={p}\nDEBUG=false", [p]),
                 ("README snippet", f"client = Client(api_key=\"{p}\")", [p])])  # fmt: skip


def lk_masked() -> Look:
    tail = rnd(A62, 4)
    m = pick([f"****{tail}", f"sk_…{tail}", "••••••••••", f"{rnd(A36, 3)}***************{tail}"])
    return ("masked in dashboard", f"API key: {m}  (created 2025-02-11, last used today)", [m])


def lk_sshpub() -> Look:
    k = base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00 " + R.randbytes(32)).decode()
    return ("authorized_keys", f"ssh-ed25519 {k} dev@laptop", [k])


def lk_pem() -> Look:
    b = base64.b64encode(R.randbytes(270)).decode()
    lines = "\n".join(b[i : i + 64] for i in range(0, len(b), 64))
    return (
        "PEM public key",
        f"-----BEGIN PUBLIC KEY-----\n{lines}\n-----END PUBLIC KEY-----",
        lines.splitlines()[:2],
    )


def lk_asset() -> Look:
    h = sha(8)
    h2 = sha(20)
    return pick([("webpack build", f"dist/assets/index-{h}.js   142.31 kB │ gzip: 45.12 kB", [h]),
                 ("Next build id", f".next/static/{h2}/_buildManifest.js", [h2])])  # fmt: skip


def lk_trace() -> Look:
    t, s = sha(32), sha(16)
    return pick([("traceparent header", f"traceparent: 00-{t}-{s}-01", [t, s]),
                 ("log trace id", f"ERROR checkout failed trace_id={t} span_id={s}", [t, s])])  # fmt: skip


def lk_reqid() -> Look:
    u = str(uuid.UUID(int=R.getrandbits(128), version=4))
    return ("x-request-id", f"< HTTP/1.1 502 Bad Gateway\n< x-request-id: {u}", [u])


def lk_i18n() -> Look:
    return pick([("locale JSON", J({"auth.password.label": "Passwort", "auth.password.forgot": "Passwort vergessen?", "auth.token.expired": "Ihr Token ist abgelaufen"}), ["Passwort vergessen?"]),
                 ("gettext po", 'msgid "Enter your API key"\nmsgstr "Introduce tu clave de API"', ["Introduce tu clave de API"]),
                 ("Android strings.xml", '<string name="password_hint">Mot de passe (8 caractères min.)</string>', ["Mot de passe (8 caractères min.)"])])  # fmt: skip


def lk_codename() -> Look:
    return pick([("Python env lookup", 'token = os.environ["VENDOR_API_TOKEN"]\nif not token:\n    raise SystemExit("set VENDOR_API_TOKEN")', ["VENDOR_API_TOKEN"]),
                 ("TS interface", "interface Creds {\n  apiKey: string;\n  clientSecret: string;\n}", ["clientSecret: string;"]),
                 ("GitHub Actions secret ref", "env:\n  DEPLOY_TOKEN: ${{ secrets.DEPLOY_TOKEN }}", ["${{ secrets.DEPLOY_TOKEN }}"])])  # fmt: skip


def lk_b64text() -> Look:
    t = pick(
        [
            "hello world from the build server",
            "Meeting moved to Thursday 3pm",
            "user_id=42&lang=en&theme=dark",
        ]
    )
    b = base64.b64encode(t.encode()).decode()
    return ("base64 of ordinary text", f"echo {b} | base64 -d\n{t}", [b])


def lk_tmux() -> Look:
    n = f"{pick(['work', 'deploy', 'api'])}-{rnd(A36, 6)}"
    return (
        "tmux session",
        f"$ tmux ls\n{n}: 3 windows (created Sun Mar  2 10:11:02 2025) (attached)",
        [n],
    )


def lk_fixture() -> Look:
    return pick([("pytest fixture", '@pytest.fixture\ndef fake_token():\n    return "test-token-not-real"', ["test-token-not-real"]),
                 ("jest mock", "jest.mock('./client', () => ({ apiKey: 'dummy-key-for-tests' }));", ["dummy-key-for-tests"])])  # fmt: skip


def lk_bool() -> Look:
    return pick([("boolean setting", "admin_session=true\npassword_required=false\ntoken_refresh=enabled", ["admin_session=true", "password_required=false"]),
                 ("feature flags YAML", "auth:\n  password_login: true\n  api_key_rotation_days: 90", ["password_login: true", "api_key_rotation_days: 90"])])  # fmt: skip


def lk_uuidpk() -> Look:
    u = str(uuid.UUID(int=R.getrandbits(128), version=4))
    return (
        "UUID primary key row",
        f" id                                   | email\n {u} | ana@shop.example",
        [u],
    )


def lk_colour() -> Look:
    c = [f"#{sha(6)}" for _ in range(3)]
    return ("CSS colours", f":root {{ --brand: {c[0]}; --accent: {c[1]}; --muted: {c[2]}; }}", c)


def lk_cssmod() -> Look:
    c = f"_button_{rnd(A36, 5)}_{R.randint(1, 9)}"
    return ("CSS module class", f'<button class="{c}">Save</button>', [c])


def lk_version() -> Look:
    v = f"{R.randint(1, 9)}.{R.randint(0, 30)}.{R.randint(0, 9)}+build.{sha(7)}"
    return ("semver with build metadata", f"app version {v}", [v])


def lk_checksum() -> Look:
    h = sha(64)
    return ("SHA256SUMS", f"{h}  tool-linux-amd64.tar.gz", [h])


def lk_etag() -> Look:
    e = sha(32)
    return ("ETag", f'< ETag: "{e}"\n< Cache-Control: max-age=3600', [e])


def lk_pgp() -> Look:
    f = " ".join(sha(4).upper() for _ in range(10))
    return ("PGP fingerprint", f"pub   ed25519 2024-01-01 [SC]\n      {f}", [f])


def lk_wallet() -> Look:
    a = "0x" + sha(40)
    b = "bc1q" + rnd("023456789acdefghjklmnpqrstuvwxyz", 38)
    return pick(
        [
            ("ETH address", f"send the refund to {a} please", [a]),
            ("BTC address", f"donations: {b}", [b]),
        ]
    )


def lk_pubkey() -> Look:
    k = f"pk_live_{rnd(A62, 24)}"
    return (
        "publishable key",
        f"<script>const stripe = Stripe('{k}'); // publishable, safe in the browser</script>",
        [k],
    )


def lk_slug() -> Look:
    s = f"how-we-cut-build-times-{sha(6)}"
    return ("blog slug", f"https://blog.example.com/p/{s}", [s])


def lk_order() -> Look:
    o = f"{rnd(U36, 3)}-{rnd(string.digits, 7)}"
    t = f"1Z{rnd(U36, 16)}"
    return ("order and tracking numbers", f"Order {o} shipped, tracking {t}", [o, t])


def lk_iban() -> Look:
    return (
        "documentation IBAN",
        "Example IBAN from the docs: DE89 3704 0044 0532 0130 00",
        ["DE89 3704 0044 0532 0130 00"],
    )


def lk_policy() -> Look:
    return (
        "password policy",
        "Passwords must be 12+ characters with one digit and one symbol; API tokens expire after 90 days.",
        ["12+ characters"],
    )


def lk_k8suid() -> Look:
    u = str(uuid.UUID(int=R.getrandbits(128), version=4))
    return (
        "Kubernetes uid",
        f'metadata:\n  name: api-7d9f\n  uid: {u}\n  resourceVersion: "{R.randint(10**5, 10**7)}"',
        [u],
    )


def lk_container() -> Look:
    c = sha(12)
    return (
        "docker ps",
        f"CONTAINER ID   IMAGE          STATUS\n{c}   redis:7        Up 3 hours",
        [c],
    )


def lk_vaultref() -> Look:
    return pick([("1Password reference", "DB_PASSWORD=op://Prod/postgres/password", ["op://Prod/postgres/password"]),
                 ("vault reference", "password: vault:secret/data/shop/db#password", ["vault:secret/data/shop/db#password"]),
                 ("env interpolation", "DB_PASSWORD=${DB_PASSWORD:?missing}", ["${DB_PASSWORD:?missing}"])])  # fmt: skip


def lk_empty() -> Look:
    return (
        "empty password field",
        'smtp:\n  user: ""\n  password: ""\n  host: localhost',
        ['password: ""'],
    )


def lk_ticket() -> Look:
    t = f"{pick(['OPS', 'SEC', 'PLAT'])}-{R.randint(100, 9999)}"
    return ("ticket reference", f"rotating the leaked key is tracked in {t}", [t])


def lk_isbn() -> Look:
    return pick([("ISBN", "see ISBN 978-0-13-468599-1 chapter 4", ["978-0-13-468599-1"]),
                 ("DOI", "cited as doi:10.1145/3368089.3409720", ["10.1145/3368089.3409720"])])  # fmt: skip


def lk_ulid() -> Look:
    u = "01" + rnd("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24)
    return ("ULID", f"event {u} processed in 12 ms", [u])


def lk_chat() -> Look:
    return pick([("chat about keys", "I rotated the payments key yesterday, the new one is in the vault, don't paste it here", ["rotated the payments key"]),
                 ("chat about passwords", "my password manager generated a 24-char password, where do I store it for CI?", ["24-char password"])])  # fmt: skip


def lk_describe() -> Look:
    d = f"v{R.randint(1, 4)}.{R.randint(0, 20)}.{R.randint(0, 9)}-{R.randint(1, 90)}-g{sha(7)}"
    return ("git describe", f"$ git describe --tags\n{d}", [d])


def lk_mac() -> Look:
    m = ":".join(sha(2) for _ in range(6))
    return ("MAC address", f"link/ether {m} brd ff:ff:ff:ff:ff:ff", [m])


def lk_b58tx() -> Look:
    t = rnd(B58, 87)
    return ("base58 transaction signature", f"confirmed tx https://explorer.solana.com/tx/{t}", [t])


def lk_csp() -> Look:
    h = base64.b64encode(R.randbytes(32)).decode()
    return ("CSP hash source", f"Content-Security-Policy: script-src 'self' 'sha256-{h}'", [h])


def lk_lfs() -> Look:
    h = sha(64)
    return (
        "Git LFS pointer",
        f"version https://git-lfs.github.com/spec/v1\noid sha256:{h}\nsize {R.randint(10**5, 10**8)}",
        [h],
    )


def lk_cid() -> Look:
    c = "bafybei" + rnd("abcdefghijklmnopqrstuvwxyz234567", 52)
    return ("IPFS CID", f"pinned at ipfs://{c}", [c])


def lk_nix() -> Look:
    h = rnd("0123456789abcdfghijklmnpqrsvwxyz", 32)
    return ("Nix store path", f"/nix/store/{h}-python3-3.12.2/bin/python3", [h])


def lk_certfp() -> Look:
    f = ":".join(sha(2).upper() for _ in range(20))
    return ("signing certificate SHA-1", f"Certificate fingerprints:\n\t SHA1: {f}", [f])


def lk_gaid() -> Look:
    g = f"G-{rnd(U36, 10)}"
    return ("analytics measurement id", f"gtag('config', '{g}');", [g])


def lk_snowflake() -> Look:
    s = str(R.randint(10**17, 10**18))
    return ("Discord snowflake", f"channel_id: {s}  # #deploys", [s])


def lk_ytid() -> Look:
    y = rnd(A62 + "-_", 11)
    return ("video id", f"demo recording: https://www.youtube.com/watch?v={y}", [y])


def lk_clsid() -> Look:
    g = "{" + str(uuid.UUID(int=R.getrandbits(128), version=4)).upper() + "}"
    return ("COM CLSID", f"HKEY_CLASSES_ROOT\\CLSID\\{g}\\InprocServer32", [g])


def lk_bloburl() -> Look:
    s = sha()
    return ("GitHub blob URL", f"see https://github.com/acme/shop/blob/{s}/src/auth.ts#L40", [s])


def lk_strength() -> Look:
    return (
        "password strength output",
        "zxcvbn: score 1/4, 'crack time: 3 hours' — suggestion: add another word",
        ["score 1/4"],
    )


def lk_seed() -> Look:
    s = str(R.randint(10**6, 10**9))
    return ("random seed in ML config", f"training:\n  seed: {s}\n  lr: 0.0003", [s])


def lk_priceid() -> Look:
    p = f"price_{rnd(A62, 24)}"
    return ("billing price id", f"PRICE_PRO_MONTHLY={p}", [p])


def lk_serial() -> Look:
    s = f"{R.randint(10**17, 10**18)}L"
    return ("Java serialVersionUID", f"private static final long serialVersionUID = {s};", [s])


LOOKS = [lk_commit, lk_rebase, lk_integrity, lk_gosum, lk_cargo, lk_digest, lk_arn, lk_placeholder,
         lk_masked, lk_sshpub, lk_pem, lk_asset, lk_trace, lk_reqid, lk_i18n, lk_codename, lk_b64text,
         lk_tmux, lk_fixture, lk_bool, lk_uuidpk, lk_colour, lk_cssmod, lk_version, lk_checksum,
         lk_etag, lk_pgp, lk_wallet, lk_pubkey, lk_slug, lk_order, lk_iban, lk_policy, lk_k8suid,
         lk_container, lk_vaultref, lk_empty, lk_ticket, lk_isbn, lk_ulid, lk_chat, lk_describe,
         lk_mac, lk_b58tx, lk_csp, lk_lfs, lk_cid, lk_nix, lk_certfp, lk_gaid, lk_snowflake,
         lk_ytid, lk_clsid, lk_bloburl, lk_strength, lk_seed, lk_priceid, lk_serial]  # fmt: skip

# -- assembly --------------------------------------------------------------------------------

GROUP_WEIGHT = {
    "chat": 30,
    "config": 26,
    "shell": 15,
    "code": 13,
    "log/table/diff/http": 9,
    "agent": 7,
}
N_KINDS, N_SECRETS, N_LOOKS = 345, 450, 160


def make_record(v: str, cat: str, cred: tuple[str, str, Callable[[str], object]]) -> dict[str, str]:
    label, cls, maker = cred
    made = maker(v)
    x, s = made if isinstance(made, tuple) else (made, made)
    return {"v": v, "c": label, "cls": cls, "x": str(x), "s": str(s), "n": env_name(v, cls, label)}


# Forms that only make sense for one shape of URL (a camera stream, a DSN, a webhook).
FORM_SHAPES = {
    "Alertmanager receiver": {"hook_url"},
    "Frigate camera input": {"rtsp_url"},
    "go2rtc streams": {"rtsp_url"},
    "RTSP URL in VLC log": {"rtsp_url"},
    "Python requests URL": {"hook_url"},
    "Go sql.Open DSN": {"db_url"},
    "Authorization Basic header": {"basic_header"},
    "Cookie request header": {"cookie"},
    "URL in prose": {"hook_url", "db_url", "smtp_url", "rtmp_url"},
}


# Forms that belong to one sort of vendor: game servers' files to game servers, home and
# network devices' files to device makers, mail clients to consumer and messaging accounts,
# package registries to developer, business, data and AI tools.
_GAME = "murmur.ini|Source server.cfg rcon|PalWorldSettings.ini|Factorio server-settings.json|ARK GameUserSettings.ini|Terraria serverconfig.txt|Project Zomboid servertest.ini|Pterodactyl panel .env|ZNC config user"
_STREAM = "OBS websocket config|Streamer.bot settings"
_IOT = "Home Assistant secrets.yaml|ESPHome device yaml|Zigbee2MQTT network_key|Frigate camera input|go2rtc streams|Node-RED settings.js|OpenWrt wireless config|hostapd.conf|NetworkManager .nmconnection|netplan wifi|ddclient.conf|WireGuard wg0.conf|OpenVPN auth-user-pass file|strongSwan ipsec.secrets|evcc.yaml|TeslaMate docker env|Mosquitto bridge conf|RTSP URL in VLC log"
_MAIL = "muttrc|msmtprc|mbsyncrc"
_REGISTRY = ".npmrc registry auth|.pypirc|composer auth.json|.yarnrc.yml npmAuthToken|NuGet.config ClearTextPassword|Maven settings.xml server|sbt credentials file|bundler config|.gitconfig url insteadOf|npm config set authToken|poetry config http-basic|twine upload -p|dotnet nuget add source -p"
FORM_CATS = {
    **dict.fromkeys(_GAME.split("|"), {"game:server"}),
    **dict.fromkeys(_STREAM.split("|"), {"game:svc"}),
    **dict.fromkeys(_IOT.split("|"), {"iot"}),
    **dict.fromkeys(_MAIL.split("|"), {"acct", "msg"}),
    **dict.fromkeys(_REGISTRY.split("|"), {"dev", "ent", "ai", "data"}),
}
# Values a header, a registry or a CLI flag would never carry.
NOT_TOKENS = {"backup_code", "app_password", "grouped", "totp"}
TOKEN_FORMS = {n for n, g, *_ in FORMS if g in ("agent",)} | set(_REGISTRY.split("|"))
TOKEN_FORMS |= {"httpie header", "axios default header", "urllib3 debug headers",
                "axios error config dump", "mitmproxy flow detail", "HAR entry",
                "browser Copy as cURL", "HTTP/2 pseudo-header dump", "curl -v request lines",
                "WebSocket handshake", "gRPC metadata", "OAuth token response",
                "CLI login positional argument", "Logstash output block"}  # fmt: skip
TOKEN_FORMS -= {n for n, g, *_ in FORMS if g == "agent"}  # agents see anything


def fits_vendor(form_name: str, cat: str) -> bool:
    allowed = FORM_CATS.get(form_name)
    return allowed is None or cat in allowed or cat.split(":")[0] in allowed


def choose_form(cls: str, cat: str, unused: set[str], taken: set[str]) -> tuple[str, FormFn]:
    shape = SHAPE[0]
    fits = [(n, g, f) for n, g, c, f in FORMS if cls in c and n not in taken
            and shape in FORM_SHAPES.get(n, {shape}) and fits_vendor(n, cat)
            and not (shape in NOT_TOKENS and n in TOKEN_FORMS)]  # fmt: skip
    fresh = [x for x in fits if x[0] in unused]
    if special := [x for x in fresh if x[0] in FORM_SHAPES or x[0] in FORM_CATS]:  # theirs first
        n, _, f = pick(special)
        return n, f
    if fresh and R.random() < 0.75:
        n, _, f = pick(fresh)
        return n, f
    groups = sorted({g for _, g, _ in fits})
    g = R.choices(groups, [GROUP_WEIGHT[x] for x in groups])[0]
    n, _, f = pick([x for x in fits if x[1] == g])
    return n, f


def build_secrets() -> list[dict[str, str]]:
    pool = [(v, cat) for cat, names in VENDORS.items() for v in names.split("|")]
    R.shuffle(pool)
    # Every wallet, bank app, camera and lock maker, so that seed words, PINs and camera
    # streams are well represented.
    pool.sort(key=lambda x: x[1] not in ("wallet", "bank", "iot:cam", "iot:lock"))
    chosen = pool[:N_KINDS]
    R.shuffle(chosen)
    plan = [(v, cat, pick(CREDS[cat])) for v, cat in chosen]
    plan += [plan[i] for i in R.sample(range(N_KINDS), N_SECRETS - N_KINDS)]
    unused = {n for n, *_ in FORMS}
    used_by_kind: dict[str, set[str]] = {}
    out = []
    for v, cat, cred in plan:
        SHAPE[0] = ""
        r = make_record(v, cat, cred)
        base = f"{v} {cred[0]}"
        taken = used_by_kind.setdefault(base, set())
        name, fn = choose_form(r["cls"], cat, unused, taken)
        taken.add(name)
        unused.discard(name)
        text = fn(r)
        out.append({"kind": f"{base} [{name}]", "text": text, "secret": r["s"], "_cls": r["cls"],
                    "_shape": SHAPE[0]})  # fmt: skip
    return out


SORTS = {
    "arn": "IAM role ARN",
    "asset": "asset hash",
    "b58tx": "base58 transaction signature",
    "b64text": "base64 of ordinary text",
    "bloburl": "commit SHA in a GitHub URL",
    "bool": "boolean named after a secret",
    "cargo": "Cargo.lock checksum",
    "certfp": "certificate fingerprint",
    "chat": "chat about keys without one",
    "checksum": "release checksum",
    "cid": "IPFS CID",
    "clsid": "COM CLSID",
    "codename": "code naming a secret without its value",
    "colour": "hex colours",
    "commit": "commit SHA near git words",
    "container": "container id",
    "csp": "CSP hash source",
    "cssmod": "CSS module class",
    "describe": "git describe output",
    "digest": "image digest",
    "empty": "empty password field",
    "etag": "ETag",
    "fixture": "test fixture",
    "gaid": "analytics measurement id",
    "gosum": "go.sum hash",
    "i18n": "i18n string about passwords",
    "iban": "documentation IBAN",
    "integrity": "lockfile integrity",
    "isbn": "ISBN or DOI",
    "k8suid": "Kubernetes uid",
    "lfs": "Git LFS oid",
    "mac": "MAC address",
    "masked": "masked value",
    "nix": "Nix store hash",
    "order": "order and tracking numbers",
    "pem": "PEM public key",
    "pgp": "PGP fingerprint",
    "placeholder": "placeholder",
    "policy": "password policy",
    "priceid": "billing price id",
    "pubkey": "publishable key",
    "rebase": "rebase todo SHAs",
    "reqid": "request id",
    "seed": "random seed in a config",
    "serial": "serialVersionUID",
    "slug": "slug with a hash",
    "snowflake": "Discord snowflake",
    "sshpub": "SSH public key",
    "strength": "password-strength output",
    "ticket": "ticket reference",
    "tmux": "tmux session name",
    "trace": "trace and span ids",
    "ulid": "ULID",
    "uuidpk": "UUID primary key",
    "vaultref": "secret-manager reference",
    "version": "version with build metadata",
    "wallet": "public wallet address",
    "ytid": "video id",
}


def build_lookalikes() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    kinds: set[str] = set()
    order = LOOKS * 3
    while len(out) < N_LOOKS:
        fn = order[len(out) % len(order)]
        form_, text, keep = fn()
        sort = SORTS[fn.__name__[3:]]
        kind = f"{sort} [{form_}]"
        i = 2
        while kind in kinds:
            kind, i = f"{sort} [{form_} {i}]", i + 1
        kinds.add(kind)
        out.append({"kind": kind, "text": text, "keep": keep})
    return out


def main() -> None:
    secrets = build_secrets()
    looks = build_lookalikes()
    texts = [x["text"] for x in secrets] + [str(x["text"]) for x in looks]
    for i, item in enumerate(secrets):  # a secret must be in its own text and in no other
        assert item["secret"] in item["text"], item["kind"]
        others = [t for j, t in enumerate(texts) if j != i and item["secret"] in t]
        assert not others, (item["kind"], item["secret"])
    for look in looks:
        assert all(k in str(look["text"]) for k in look["keep"]), look["kind"]  # type: ignore[attr-defined]
    assert len({x["kind"] for x in secrets}) == len(secrets)
    assert len({x["kind"] for x in looks}) == len(looks)
    classes = {c: sum(x["_cls"] == c for x in secrets) for c in (K, P, N, W, U)}
    kinds = {x["kind"].rsplit(" [", 1)[0] for x in secrets}
    forms = {x["kind"].rsplit(" [", 1)[1][:-1] for x in secrets}
    sorts = {str(x["kind"]).split(" [")[0] for x in looks}
    langs = {f for f in forms if f.startswith("chat in ")}
    shapes: dict[str, int] = {}
    for x in secrets:
        shapes[x["_shape"] or x["_cls"]] = shapes.get(x["_shape"] or x["_cls"], 0) + 1
        del x["_cls"], x["_shape"]
    about = (
        "Eleventh blind corpus, written by benchmarks/make_secrets_blind11.py with "
        f"random.Random({SEED}) and the standard library only, from general knowledge of "
        "credential shapes and of where people paste them into coding-agent chats and where "
        "agents' tool output shows them. No redactor code, tests or earlier corpus texts were "
        f"consulted; the vendors were checked against the earlier corpora's kind names and are "
        f"new. {len(secrets)} fake secrets of {len(kinds)} kinds in {len(forms)} forms (chat "
        f"prose in {len(langs)} languages, config files, shell sessions, code, logs, tables, "
        f"diffs, HTTP, agent tool calls and results), and {len(looks)} look-alikes of "
        f"{len(sorts)} sorts, each listing under keep the strings that must survive. Every "
        "value is synthetic. Not scored before it was committed."
    )
    doc = {"about": about, "secrets": secrets, "lookalikes": looks}
    OUT.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    unused = {n for n, *_ in FORMS} - forms
    print(f"{len(secrets)} secrets of {len(kinds)} kinds in {len(forms)} forms "
          f"({len(langs)} chat languages); {len(looks)} look-alikes of {len(sorts)} sorts")  # fmt: skip
    print(f"classes: {classes}; forms defined {len(FORMS)}, unused {len(unused)}")
    print("shapes:", dict(sorted(shapes.items(), key=lambda kv: -kv[1])))
    print(f"non-ASCII secrets: {sum(not x['secret'].isascii() for x in secrets)}")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
