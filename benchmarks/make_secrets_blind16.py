# ruff: noqa: E501
"""Write benchmarks/data/secrets_blind16.json: a sixteenth blind corpus of fake credentials.

What its author read, and what not. Written from general knowledge of how vendors shape
their keys, where people paste them into coding-agent chats and where agents' tool output
shows them, with the standard library only. Not read: anything under ``brain/`` or
``tests/``, ``benchmarks/README.md``, the project README, any ``benchmarks/redact*`` file
or folder, the bodies of the other ``make_secrets_blind*.py`` generators, any other
worktree under /work, /work/shared; no ``git log``, ``git show`` or ``git diff`` was run.
Read: the task brief; ``benchmarks/secrets_holdout.py`` (the whole file: the JSON format,
how items are loaded and scored); the top docstring of ``make_secrets_blind15.py`` only
(line 1 to its closing quotes), as an example of how to describe a corpus and for the
vendors, forms and look-alike sorts to avoid; for each ``benchmarks/data/secrets_*.json``
its top-level keys and the lengths of its lists; the ``[tool.ruff]`` part of
``pyproject.toml``. The earlier corpora's secret ``kind`` names (4,974 distinct once the
`` [form]`` suffix was stripped) were written by a script to a scratch file under /tmp and
only searched by a script, never shown. Seen in passing: the file names in ``benchmarks/``
(``redact*`` filtered out of the listing) and ``benchmarks/data/``, the ``[tool.mypy]``
heading after ``[tool.ruff]``, and ``git status --short`` once at the end. Nothing in
brain was run on the corpus and it was not scored; ``main`` only checks that it loads with
``json.loads``, that each secret is a verbatim substring of its text and each ``keep``
string of its look-alike's, that no secret is found in any other entry's text, and that no
``kind`` repeats.

Seed: ``Random(987359927)``, drawn at random when the work began.

Vendors. 2,209 candidates were listed from general knowledge in 24 categories (software
services, AI and ML APIs, payments, banks and brokers, crypto wallets, consumer devices,
self-hosted apps, games and game servers, shops and marketplaces, telecoms and SMS,
government and postal portals, IoT and smart-home platforms, CI/CD and dev platforms,
observability and uptime, data and market-data vendors, HR and payroll, healthcare, travel
and loyalty programmes, energy and utilities, VPN and zero-trust, desktop software,
education, media and creator platforms). A script dropped every candidate whose name
appears in the earlier kind names (its words in sequence as a word, its letters and digits
run together when four or more anywhere in a kind run together, or its first word as a
word when four letters or more): 705 were left. 132 more were dropped by hand (common
words such as Rejoice, Humanity, Brilliant, Faire, Deputy, Boundary, Transmit, Alfred,
Genius, Reaper, Splice, Lattice, Whistle, Cyclops or Crater; a second product of a maker
already kept; short names that read as other things; others to thin crowded categories),
so the 573 names in ``VENDORS`` are new by that check. 300 are drawn per category to
``QUOTA``, each handing out one credential drawn from its category's list in ``CREDS`` (or
``OVERRIDE`` for database tools, game servers and a few others). A product sold under
another name than its maker's may still share a maker with an earlier kind.

Counts (printed by ``main``): 400 secrets of 300 kinds in 336 embedding forms, and 152
look-alikes of 74 sorts that must come out unchanged, each listing under ``keep`` the
strings that must survive. 200 kinds appear once and 100 twice, in two different forms
with fresh values (database passwords, seed phrases, wallet keys and TOTP seeds are doubled
first). Every form is used at least once; no form more than three times. A secret found
inside any other entry's text gets a fresh value. Each ``kind`` is ``<vendor>
<credential> [<form>]``; look-alikes are ``<sort> [<n>]``.

Value shapes (``main -v`` prints them): 129 passwords: as people type them (a word with a
year and symbol, two words with a dot, leetspeak, ``qwerty`` plus a word, sentence-like
``MyXIs7YearsOld!``, a word with a date, ``i<3``-style, upper-case word with a symbol), 12
of them with a non-ASCII word new here (Ñandú, Słońce, Göteborg, Brücke, Zürichsee, ĐàLạt,
Smörgåsbord, Ölüdeniz, Ağrıdağı, ゆきだるま; ``INTL`` also holds Greek, Cyrillic, Korean and
Chinese words the draw did not use), random ones of 14 to 32 characters with symbols,
database passwords of either kind, and passphrases of four to six words; 12- and 24-word
seed phrases from the BIP39 list's first part; among keys, vendor-style prefixes made from
the vendor's name and new to blind15's list (``xxx_prod_``, ``xxk-``, ``xxx_sk_``,
``xxxxpat_``, ``xxx.``, ``xxx_v2_``, ``xx-svc-``, ``xxxa_``, ``XXX-``, ``xxx_rt_``,
``xxx_srv_``, ``xxxapp_``, ``xxx-int-``, ``xx_ci_``, ``xxx_bot_``, ``xxxx_acc_``,
``xx7.``, ``xxx-key-``, ``xxxx_``), random alphanumerics of 20 to 48 (mixed, lower or
upper 36), hex of 32, 40, 48 or 64 (some upper case), base64 and base64url, UUIDs as keys,
JWT-like tokens, ``id:secret``, ``id-secret`` and ``id_secret`` pairs, PEM blocks
(OpenSSH, EC, PKCS#8, RSA; the secret is the body between the armour lines), ``0x`` wallet
keys, bare 64-hex spend keys, 6-8 digit PINs, recovery codes (one, three or five
``xxxx-xxxx``) and TOTP seeds in base32 (``xprv`` keys and licence keys are shapes the
generator has but the seeded draw did not pick). Four forms store something derived from
the value: Kubernetes ``data`` and ``kubectl get secret`` hold its base64 (the secret is
that base64), a docker ``config.json`` holds base64 of ``user:password``; a JSON
``private_key`` holds the PEM with escaped newlines (the secret is the escaped body).

Forms, 336, chosen to differ from blind15's list. 65 in chat and messages: prose in 43
languages, each naming the credential in the language's own word (German, Brazilian and
European Portuguese, Argentine and Castilian Spanish, Polish, Czech, Slovak, Hungarian,
Romanian, Bulgarian, Ukrainian, Greek, Turkish, Finnish, Lithuanian, Slovenian, Croatian,
Catalan, Basque, Welsh, Japanese, Korean, Traditional Chinese, Vietnamese, Thai,
Indonesian, Tagalog, Arabic, Hebrew, Persian, Urdu, Bengali, Marathi, Telugu, Malayalam,
Sinhala, Khmer, Swahili, Yoruba, Igbo, Georgian, Kazakh); and Slack inline code, Discord
spoiler tags, Telegram forward, WhatsApp export line, Signal note to self with only the
vendor's name, Matrix reply with quote fallback, IRC log, Jira noformat block, Linear
issue steps, Trello comment, GitHub issue environment list, Notion toggle, Confluence wiki
table, plain email, iMessage, Stack Overflow question, Reddit edit, Rocket.Chat, Webex,
Feishu, agent transcript prose, assistant summary of a config. 19 in .env files and
shells: .env with comment, unquoted .env.production, .zshrc export, fish, nushell,
PowerShell ``$env:``, ``setx``, ``cmd set``, mise.toml, IPython ``%env``, Julia ``ENV``,
``.Rprofile``, launchd plist, crontab inline variable, bash script then curl, Makefile
variable, ``make VAR=``, ``env`` output, ``docker inspect`` Env. 56 in YAML, TOML, INI and
XML: compose list and map, Kubernetes ``stringData`` and base64 ``data``, ``kubectl get
secret -o yaml``, Helm values three deep, YAML five deep, anchors and merge keys, block
scalar PEM, TLS Secret, Spring application.yml, Ansible group_vars, Salt pillar, Home
Assistant secrets.yaml, ESPHome encryption key, GitLab CI variables, GitHub Actions
``with:`` literal, Drone, Bitbucket Pipelines, Azure Pipelines, Argo Workflows parameter,
ArgoCD repository Secret, Prometheus ``bearer_token`` and remote_write ``basic_auth``,
Grafana ``secureJsonData``, Promtail, Filebeat, serverless.yml, SAM, CloudFormation
``NoEcho`` default, render.yaml, dbt profiles.yml, Kustomize ``secretGenerator``, Hardhat
accounts, TOML table and inline table, Streamlit secrets.toml, netlify.toml, fly.toml,
Cargo credentials.toml, Vector sink, Telegraf, INI section, rclone.conf, my.cnf, odbc.ini,
Samba credentials, ``git credential fill``, Java .properties, gradle.properties, Kafka
JAAS, web.config, Maven settings.xml, NuGet ``ClearTextPassword``, ClickHouse users.xml,
Android local.properties. 18 in JSON: composer auth.json, tfstate attributes, ARM
parameters, Heroku app.json, vercel.json, VS Code settings, JetBrains private env,
Postman environment and collection auth, Thunder Client, HTTPie session, GraphQL
Playground headers, RabbitMQ definitions, docker config.json auths, appsettings
ConnectionStrings, Jupyter cell source list, service-account ``private_key``, Bitwarden
export. 12 in MCP configs and agent tool calls: Zed ``context_servers``, Windsurf
``--api-key`` args, VS Code mcp.json env, positional MCP argument, remote MCP headers,
``write_file`` call, tool result with escaped JSON inside JSON, Claude Code Edit input,
bash tool call with export, ``http_request`` call, agent memory note, JSON log line. 60
commands: curl (Bearer, custom header, ``-u``, ``--data-urlencode``, query string), wget,
HTTPie, ``docker login -p``, ``skopeo --src-creds``, ``helm repo add --password``, ``npm
config set``, ``twine -p``, ``kubectl create secret --from-literal`` and ``set env``, helm
``--set-string``, heroku, fly, vercel, netlify, railway, doppler, wrangler, firebase,
gcloud, ``aws ssm``, ``az keyvault``, ``op item create``, macOS ``security``,
``secret-tool``, ``docker build --build-arg``, ``docker secret create``, consul, etcdctl,
``redis-cli SET``, terraform, packer and ansible ``-var``/``-e``, ``node -e``, ``python
-c``, ``--dart-define``, ``ConvertTo-SecureString``, Copy as PowerShell, Copy as cURL
(cmd), Copy as fetch, psql URI, ``mysql -p``, ``redis-cli -a``, ``mongodump --uri``,
``lftp -u``, ``RSYNC_PASSWORD``, ``openssl -pass pass:``, ``zip -P``, ``7z -p``, ffmpeg RTMP
key, git push and ``git remote -v`` with tokens, pip index credentials, ``GOPROXY``
userinfo, ``airflow connections add``, expect ``send``. 16 in URLs and HTTP: JDBC
parameter, ODBC string, ``rediss://``, ``amqps://``, alembic.ini, ftp URL, WebSocket and
EventSource tokens, webhook secret path, raw requests (Bearer, vendor header, JSON login,
form login, GraphQL mutation), ``Set-Cookie``, ``otpauth://``. 66 in code: Python
(``setdefault``, SDK keyword, dict, dataclass, pydantic, requests auth tuple, rich
traceback locals, ``Account.from_key``), JS/TS (const, client options, ``process.env``
fallback, axios, fetch, Deno, ethers Wallet, Pulumi, CDK), Go (const, struct, header,
panic dump), Rust (const, builder), Java (constant, ``System.setProperty``, HttpRequest),
C# (const, NetworkCredential), Ruby (``ENV.fetch``, client), PHP (``define``, config
array), Swift (let, ``setValue``), Kotlin (``const val``, ``buildConfigField``), Dart,
Elixir, Perl DBI, R httr, Lua, Objective-C, C ``#define``, C++, Scala, Clojure, F#,
Terraform provider and tfvars, Bicep, Nomad, Puppet, Dockerfile ENV, systemd
``Environment`` and ``SetCredential``, supervisord, nginx, Apache ``SetEnv``, Caddy, SQL
(``INSERT``, MySQL and Oracle ``IDENTIFIED BY``, SQL Server ``CREATE LOGIN``, Snowflake,
postgres_fdw user mapping), Spark conf. 24 in logs, diffs and tables: GitHub Actions and
GitLab job logs, Jenkins console, Java exception with a credentialed URL, Node error
config dump, unified diffs of YAML and JSON, a revert commit message naming the key,
markdown table, box-drawing table, ``terraform output -json``, ``vault read``, KeePassXC
and Chrome CSV, MetaMask export, .env ``MNEMONIC``, seed phrase in chat, SSH key pasted in
chat, ``cat`` of a key file, notebook output, Python REPL, pytest assertion diff, CSV,
TSV.

Names: credential words first, last or in the middle, with an environment part (``PROD``,
``LIVE``, ``STAGING``, ``EU``, ``V3``, ``PRIMARY``, ``BACKUP``, ``SHARED``...) or a digit, as
``W_FOR_VENDOR``, ``MY_VENDOR_W`` and bare ``W``, in UPPER_SNAKE, snake, camelCase,
PascalCase, kebab, dotted and ``X-Header``/``x-header`` forms; credential words include
``TOK``, ``BEARER``, ``HMAC_SECRET``, ``SIGNING_SECRET``, ``PRIMARY_KEY``, ``CRED``,
``SECRET_PASS``, ``USER_PW``, ``PINCODE``, ``RESCUE_CODES``, ``WALLET_WORDS``,
``MASTER_KEY`` and other languages' words not in blind15's list (``CONTRASENA``,
``MOT_DE_PASSE``, ``SENHA``, ``HASLO``, ``SIFRE``, ``JELSZO``, ``LOSENORD``, ``GESLO``,
``LOZINKA``, ``PAROLA``, ``CLE_API``, ``CHIAVE_API``, ``ANAHTAR``, ``KULCS``, ``NYCKEL``,
``AVAIN``, ``SLEUTEL``, ``KLIC_API``). Some values have no credential word near them: a
Signal note with only the vendor's name, an MCP server's positional argument, git URLs
with a token, a webhook path, an RTMP URL, ``lftp``, ``zip -P``, ``7z -p``, ``openssl
pass:``, ``skopeo``, Hardhat accounts, ethers and eth-account wallets, a MetaMask export,
a pasted key file.

Which value goes where: each form takes classes of value (``FORMS``' second field: key,
password, database password, code, TOTP seed, seed phrase, wallet key, PEM); database
forms take only database passwords, PEM only goes to key-file forms and to four chat and note forms,
wallet code only wallet keys. Forms that put the value in a URL take only values that need
no escaping, and forms that leave it unquoted on a command line none with spaces, quotes
or shell characters; no value holds ``"``, ``'``, ``\\``, ``<``, ``>`` or ``&``.

Look-alikes, each with its ``keep`` list (74 sorts: 48 twice, 15 three times and 11 once,
ten of those with fixed text and one whose second draw repeated the first): git blame
short hashes, cherry-pick trailer, git bisect result, commit URL, package-lock integrity,
Cargo.lock checksum, go.sum hash, poetry.lock content-hash, Nix store path, ``docker
images`` ids, OCI manifest digest, Chart.lock digest, Bazel ``http_archive`` sha256,
Homebrew formula sha256, ``gpg --list-keys`` fingerprint, authorized_keys public key, x509
SHA-256 fingerprint, PEM certificate, PEM public key, token contract address, IPFS CID,
``git ls-tree`` hashes, Jaeger trace URL, Datadog trace and span ids, Cloudflare CF-Ray,
AWS request id, billing object ids (``cus_``, ``price_``), GA4 measurement id, YouTube
video id, Spotify track URI, Discord snowflake ids, Vite asset hashes, ETag header, CSS
colours, PNG data URI, Go pseudo-version, SHA256SUMS file, angle-bracket placeholder,
ellipsis placeholder (``sk-...``), masked card number, truncated token listing, Terraform
variable reference, Ansible vault variable reference, compose required variable,
Kubernetes ``secretKeyRef``, 1Password ``op://`` reference, ``kubectl describe secret``
sizes, ``gh secret list``, terraform plan ``(sensitive value)``, sshd failed-password log,
JSON schema password field, OpenAPI apiKey scheme, .env.example with empty values,
gitleaks ignore fingerprint, Gerrit Change-Id, ``git describe``, ELF BuildID, Airtable
ids, Hugging Face revision, CSP script hash, DKIM public key record, site verification
TXT, OAuth public client id, PKCE ``code_challenge``, Syncthing device id, nostr ``npub``,
Lightning node pubkey, Kubernetes pod names, AWS resource ids, pytest random seed, Gradle
build scan URL, Actions run URL, email Message-ID, Xcode DerivedData path.

Run: ``python benchmarks/make_secrets_blind16.py`` (``-v`` also prints value shapes).
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
import sys
from pathlib import Path

SEED = 987359927
OUT = Path(__file__).parent / "data" / "secrets_blind16.json"

# Names from general knowledge, kept when no earlier kind name holds them (see docstring).
VENDORS = {
    "software": "Airplane Dev|Hex Technologies|Jam.dev|June.so|LaunchNotes|Propel Data|Raycast|Rows.com|Screeb|Snaplet|Stackbit|Typefully|Zed Industries|Excalidraw Plus|Lucidchart|Reflect Notes|Mem.ai|Bear Notes|iA Writer|Notesnook|AppFlowy|AFFiNE|SwaggerHub|Apidog|Hoppscotch Cloud|Fern API|APIMatic|Kong Konnect|Tyk Cloud|Moesif|Akita Software|Optic API|Specmatic|Pact Broker|PactFlow",
    "ai": "Exa Search|E2B Sandbox|Cognee|Nebius AI Studio|Jan AI|Contextual AI|Writesonic|Jasper AI|Kaiber|Colossyan|Captions AI|Opus Clip|Speechify|Voicemod|Otter.ai|tl;dv|Supernormal|Avoma|Chorus.ai|QuillBot|LanguageTool|Sapling AI|Gamma App|Beautiful.ai|You.com|Andi Search|Consensus AI|Hebbia|Harvey AI|Robin AI|Sourcery|Cody AI|Lovable|v0 Vercel|Augment Code|Devin Cognition|Factory AI|Sweep AI|Mutable AI|Pieces App|Continue Hub",
    "payments": "Zip Pay|Unit.co|Maya PH|DANA Wallet|Boost Wallet|Payrexx|Lyra Collect|Axerve|Addon Payments|Stone Pagamentos|Izipay|Payku|Bold Colombia|Clip MX|Billpocket|PayPhone EC|Tpaga|RecargaPay|EveryPay|Klix|Tatra Pay|ePay.bg",
    "banks": "Novo Bank|Ally Bank|Discover Bank|Robinhood|ING Developer|ABN AMRO|Nordea Open Banking|Danske Bank|SEB Bank|Swedbank|Santander Open Banking|CaixaBank|Intesa Sanpaolo|UniCredit|Bradesco|Bancolombia|Kotak|DBS Bank|OCBC|UOB|Maybank|CIMB|ANZ Bank|Questrade",
    "wallets": "MetaMask|Frame Wallet|OKX Wallet|Cake Wallet|Feather Wallet|Nami Wallet|Hiro Wallet|Jaxx Liberty|Family Wallet|BitBox02|Jade Blockstream|Aqua Wallet|Bull Bitcoin",
    "devices": "Ring Doorbell|Blink Camera|TP-Link Omada|Peloton|FreeStyle Libre|Prusa Connect|OctoEverywhere|Obico",
    "selfhosted": "Memos|Yacht|Passbolt|Glance Dashboard|Homepage Dashboard|Kasm Workspaces|Gitness|Kbin|GoToSocial|Funkwhale|Castopod|Ampache|Polaris Music|Lyrion|Snapcast|Mopidy|Volumio|moOde|Tdarr|Unmanic|Pingvin Share|PsiTransfer|Chibisafe|Picsur|Piwigo|LibrePhotos|Ente Photos|Damselfly|Hoarder|ArchiveBox|Readeck|CommaFeed|Nextflux|Wakapi|Maybe Finance|Ralph CMDB|Uvdesk|SolidTime|Twenty CRM|EspoCRM|Krayin",
    "games": "GOG Galaxy|Start.gg|GameAnalytics|Photon Engine|Edgegap|Wynncraft|SteamGridDB|HowLongToBeat|Geyser MC|Velocity Proxy|Paper MC|Satisfactory Server|V Rising Server|Don't Starve Together",
    "shops": "Wix Stores|Sellfy|Etsy Open API|Bol.com|Otto Market|Noon Seller|Walmart Marketplace|Postscript SMS|Recharge Payments|Bold Commerce|Medusa JS|Saleor|Spree Commerce|Nacelle|Kibo Commerce|Salsify|Inriver",
    "telecoms": "CloudTalk|Ringover|Voip.ms|Flowroute|Voximplant|Mobivate|EZ Texting|SimpleTexting|Bird.com|Ooredoo|Vodafone API|Telefonica Open Gateway|MTN Developer|Globe Labs|Truemove|AIS Thailand|Singtel|Telstra Dev|Bell Canada|AT&T IoT|T-Mobile Magenta|Hologram IoT|Onomondo",
    "gov": "ID.me|GOV.UK Pay|DVLA Vehicle Enquiry|NHS Login|NHS Digital|IRS e-Services|Regulations.gov|USPS Web Tools|UPS Developer|DHL Express API|DPD API|GLS Group|India Stack|Aadhaar eKYC|UPI Sandbox|GSTN|MCA21|Myinfo|CorpPass|MyGov Australia|ATO SBR|myGovID|NZ RealMe|Inland Revenue NZ|ELSTER|BundID|API Entreprise|Impots.gouv|DigiD|eHerkenning|itsme|Suomi.fi|e-Residency|Cl@ve|Autenticacao.gov|CIE ID|Gov.br|SAT Mexico|AFIP Argentina|SII Chile|DIAN Colombia|SUNAT Peru|e-Gov Japan|Gov.sg|eCitizen Kenya",
    "iot": "AWS IoT Core|Blues Wireless|Helium Console|Tago.io|Thinger.io|Kaa IoT|Cumulocity|Resideo|Honeywell Home|PTC ThingWorx|Inductive Ignition|Kepware|Litmus Edge|Tulip Interfaces|Nordic nRF Cloud|Espressif RainMaker|Zerynth|SmartRules|Jung Home|Eve Systems|Davis WeatherLink|Ecowitt|PurpleAir|Kaiterra|Mysa|LG ThinQ|Samsung SmartThings|Miele@home|Electrolux|Weber Connect|Traeger|Meater|Anova Culinary|Breville|June Oven|Petcube|Tractive|Litter-Robot|PetSafe|SureHub|Hatch Rest|Nanit|Miku Baby",
    "cicd": "Spinnaker|Garden.io|Tilt Cloud|Filebase|Mux Video|Dependabot|Qase|Currents.dev|Mergify|Graphite Dev|Swarmia|Cortex App|Roadie|Bamboo Server|Tekton Hub|Argo Workflows|Flux CD|Keptn|Werf|Devtron|Bunnyshell|Uffizzi|Telepresence|mirrord|Skaffold|DevSpace|Scalingo|Sliplane|Encore Cloud|SST Console|Serverless Dashboard|Architect.io|Kapstan|Shipyard Build|RunCloud|ServerPilot|SpinupWP|Cleavr",
    "observability": "AppDynamics|Odigos|Oh Dear|Updown.io|Observe Inc|Calyptia|Nudge Security|ThousandEyes|Auvik|PRTG|WhatsUp Gold|LogicMonitor|Runscope|Better Uptime|OnlineOrNot|Uptrends|Dotcom-Monitor",
    "data": "Fivetran|Stitch Data|dbt Cloud|Astronomer|Materialize|RisingWave|TigerGraph|Intrinio|EOD Historical Data|Glassnode|PitchBook|Radar.io|Esri ArcGIS",
    "hr": "Oyster HR|Papaya Global|Paychex|15Five|SmartRecruiters|JazzHR|Darwinbox|greytHR|Freshteam|Employment Hero|KeyPay|Justworks|TriNet|Insperity|Sequoia One|Sterling Check|Plum Assess|Codility|TestGorilla|Vervoe|When I Work|Connecteam|Sling Scheduling|Planday",
    "health": "eClinicalWorks|NextGen|Practice Fusion|Tebra|Doctolib|Zocdoc|Teladoc|Amwell|Doxy.me|Metriport|Zus Health|Vim Health|Availity|Change Healthcare|Waystar|Eligible API|pVerify|Candid Health|Stedi|Truepill|GoodRx|Ro Health|Livongo|Hinge Health|Sword Health|Kaia Health|Talkspace|BetterHelp|Lyra Health|Vital API|Rook Health|Thryve",
    "travel": "Viator|GetYourGuide|Klook|Musement|Rentalcars|Grab Express|FlixBus|Trainline|Amtrak|Lime Micromobility|Tier Mobility|Flying Blue|MileagePlus|SkyMiles|AAdvantage|KrisFlyer|Asia Miles|Velocity Frequent Flyer|Aeroplan|Qantas Frequent Flyer|Marriott Bonvoy|Hilton Honors|IHG One Rewards|Accor Live Limitless",
    "utilities": "OVO Energy|E.ON Next|British Gas|ChargePoint|Electrify America|myenergi|Givenergy|UtilityAPI|Bidgely|Opower|Flume Water|Orbit B-hyve|Rain Bird|Hydrawise",
    "vpn": "ProtonVPN|IVPN|NordLayer|Cato Networks|Fortinet FortiGate|WatchGuard|LocalXpose|Tunnelmole|zrok|Bastillion|JumpCloud|Passage by 1Password|Lit Protocol",
    "desktop": "JetBrains Toolbox|Beyond Compare|Fork Git|Sourcetree|GitKraken|Paw RapidAPI|Proxyman|Charles Proxy|TablePlus|DataGrip|DBeaver|Navicat|Sequel Ace|Beekeeper Studio|RedisInsight|Another Redis Desktop|OrbStack|Rancher Desktop|k9s|Warp Terminal|iTerm2|Termius|MobaXterm|SecureCRT|Bitvise|WinSCP|FileZilla|Cyberduck|ForkLift|CleanShot|Setapp|Parallels Desktop|VirtualBox|UTM|CrossOver|Affinity Designer|DaVinci Resolve|Ableton Live|FL Studio|Native Instruments|SketchUp|Blender Market|Unreal Engine|Godot Asset Library|GameMaker|RPG Maker",
    "education": "D2L Brightspace|Nearpod|Pear Deck|Padlet|Coursera|Skillsoft|DataCamp|Khan Academy|Chegg|Course Hero|Studocu",
    "media": "Tidal|Napster API|MusicBrainz|Audius|Buzzsprout|Transistor.fm|Spreaker|Memberstack|Threads API|Shutterstock|Getty Images|Vidyard|Descript|Riverside.fm|Dacast",
}
QUOTA = {
    "software": 18, "ai": 20, "payments": 14, "banks": 14, "wallets": 10, "devices": 6,
    "selfhosted": 22, "games": 12, "shops": 12, "telecoms": 14, "gov": 18, "iot": 20,
    "cicd": 18, "observability": 10, "data": 10, "hr": 12, "health": 14, "travel": 10,
    "utilities": 8, "vpn": 8, "desktop": 16, "education": 6, "media": 8,
}  # fmt: skip

# Credentials each category hands out: (label, value shape). One is drawn per vendor.
CREDS = {
    "software": [("API key", "pfx"), ("personal access token", "pfx"), ("webhook secret", "b64u"), ("admin token", "alnum")],
    "ai": [("API key", "pfx"), ("API key", "alnum"), ("secret key", "pfx"), ("access token", "jwt")],
    "payments": [("secret key", "pfx"), ("merchant API key", "alnum"), ("webhook signing secret", "hex"), ("private key", "b64"), ("client credentials", "pair"), ("merchant PIN", "pin")],
    "banks": [("API client secret", "alnum"), ("online banking password", "pw"), ("mTLS client key", "pem"), ("API key", "alnum"), ("trading API secret", "b64"), ("card PIN", "pin"), ("API key", "pfx")],
    "wallets": [("seed phrase", "seed12"), ("recovery phrase", "seed24"), ("private key", "wkey"), ("xprv master key", "xprv"), ("spend key", "hexkey")],
    "devices": [("account password", "pw"), ("API token", "alnum"), ("device admin password", "pwr"), ("local API key", "hex")],
    "selfhosted": [("admin password", "pw"), ("database password", "dbpw"), ("API token", "alnum"), ("secret key", "b64"), ("JWT secret", "hex"), ("SMTP password", "pwr")],
    "games": [("RCON password", "pw"), ("server password", "pw"), ("API key", "pfx"), ("forwarding secret", "alnum"), ("account password", "pw")],
    "shops": [("API access token", "pfx"), ("API secret", "hex"), ("store password", "pw"), ("webhook secret", "b64")],
    "telecoms": [("API key", "alnum"), ("auth token", "hex"), ("SIP password", "pwr"), ("account password", "pw"), ("API secret", "pair")],
    "gov": [("login password", "pw"), ("API client secret", "alnum"), ("signing key", "pem"), ("backup codes", "recov"), ("API key", "uuid"), ("PIN", "pin"), ("2FA seed", "totp")],
    "iot": [("device token", "alnum"), ("API key", "pfx"), ("account password", "pw"), ("MQTT password", "pwr"), ("access key", "b64")],
    "cicd": [("API token", "pfx"), ("deploy token", "alnum"), ("webhook secret", "hex"), ("service account token", "jwt"), ("registry password", "pwr"), ("SSH deploy key", "pem")],
    "observability": [("API key", "pfx"), ("ingest token", "alnum"), ("account password", "pw"), ("API secret", "hex")],
    "data": [("API key", "alnum"), ("database password", "dbpw"), ("service user password", "dbpw"), ("API token", "pfx")],
    "hr": [("API key", "alnum"), ("OAuth client secret", "pfx"), ("admin password", "pw"), ("webhook secret", "b64u")],
    "health": [("portal password", "pw"), ("API client secret", "alnum"), ("API key", "pfx"), ("FHIR client private key", "pem"), ("patient PIN", "pin")],
    "travel": [("API key", "alnum"), ("loyalty account password", "pw"), ("loyalty PIN", "pin"), ("API secret", "hex"), ("partner API token", "jwt")],
    "utilities": [("API key", "alnum"), ("account password", "pw"), ("local token", "hex")],
    "vpn": [("account password", "pw"), ("API key", "pfx"), ("pre-shared key", "pwr"), ("enrollment token", "alnum"), ("2FA seed", "totp")],
    "desktop": [("license key", "lic"), ("account password", "pw"), ("SFTP private key", "pem"), ("saved connection password", "pwr"), ("sync passphrase", "pp")],
    "education": [("LTI shared secret", "alnum"), ("API key", "pfx"), ("account password", "pw"), ("recovery codes", "recov")],
    "media": [("API key", "alnum"), ("feed token", "b64u"), ("account password", "pw"), ("stream key", "pair")],
}  # fmt: skip
OVERRIDE = {
    **dict.fromkeys(("TablePlus", "DataGrip", "DBeaver", "Navicat", "Sequel Ace", "Beekeeper Studio"), [("saved database password", "dbpw")]),
    **dict.fromkeys(("RedisInsight", "Another Redis Desktop"), [("Redis password", "dbpw")]),
    **dict.fromkeys(("Satisfactory Server", "V Rising Server", "Don't Starve Together", "Paper MC"), [("RCON password", "pw"), ("server password", "pw")]),
    **dict.fromkeys(("Materialize", "RisingWave", "TigerGraph", "Twenty CRM", "EspoCRM", "Krayin", "Ralph CMDB"), [("database password", "dbpw")]),
    "Velocity Proxy": [("forwarding secret", "alnum")],
    "Mux Video": [("stream key", "uuid"), ("token secret", "b64")],
}  # fmt: skip
KLASS = {
    "pw": "pw", "pwr": "pw", "pp": "pw", "dbpw": "db", "seed12": "seed", "seed24": "seed",
    "wkey": "wallet", "xprv": "wallet", "hexkey": "wallet", "pem": "pem", "pin": "code",
    "recov": "code", "lic": "code", "totp": "totp",
}  # fmt: skip

# -- values ------------------------------------------------------------------------------

A62 = string.ascii_letters + string.digits
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
HEX = "0123456789abcdef"
WORDS = """amber anchor aspen badger banjo basil beacon birch biscuit blossom breeze brook cactus canyon caramel cedar cherry cinder clover cobalt comet copper coral cricket crimson dahlia delta dingo dolphin ember falcon fennel fern fig flint forest fox garnet ginger glacier gopher granite harbor hazel heron hickory honey indigo iris ivory jasper juniper kestrel kiwi lagoon lantern lemon lilac linen lotus lynx magnet mango maple marble meadow mint moss nectar nutmeg oak olive onyx orchid otter panda papaya pebble pepper pine plum pollen poppy quartz quill raven reef ripple robin saffron sage salmon sequoia shadow sierra sparrow spruce summit tango teal thistle thunder tiger topaz tulip tundra velvet violet walnut willow wombat zephyr""".split()
INTL = "Kraków Smörgåsbord Ñandú Göteborg Brücke Čokolada Πήγασος Камчатка ゆきだるま 桜島 한라산 Ærøskøbing Ağrıdağı ĐàLạt Şişli Zürichsee Fjällräv Città Ölüdeniz Žirafa Ősz Ilmatar Słońce Třešeň Ñoquis Ёлочка Mañana Ljubljana".split()
BIP = """abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult advance advice aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol alert alien all alley allow almost alone alpha already also alter always amateur amazing among amount amused analyst anchor ancient anger angle angry animal ankle announce annual another answer antenna antique anxiety any apart apology appear apple approve april arch arctic area arena argue arm armed armor army around arrange arrest arrive arrow art artefact artist artwork ask aspect assault asset assist assume asthma athlete atom attack attend attitude attract auction audit august aunt author auto autumn average avocado avoid awake aware away awesome awful awkward axis baby bachelor bacon badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base basic basket battle beach bean beauty because become beef before begin behave behind believe below belt bench benefit best betray better between beyond bicycle bid bike bind biology bird birth bitter black blade blame blanket blast bleak bless blind blood blossom blouse blue blur blush board boat body boil bomb bone bonus book boost border boring borrow boss bottom bounce box boy bracket brain brand brass brave bread breeze brick bridge brief bright bring brisk broccoli broken bronze broom brother brown brush bubble buddy budget buffalo build bulb bulk bullet bundle bunker burden burger burst bus business busy butter buyer buzz cabbage cabin cable cactus cage cake call calm camera camp can canal cancel candy cannon canoe canvas canyon capable capital captain car carbon card cargo carpet carry cart case cash casino castle casual cat catalog catch category cattle caught cause caution cave ceiling celery cement census century cereal certain chair chalk champion change chaos chapter charge chase chat cheap check cheese chef cherry chest chicken chief child chimney choice choose chronic chuckle chunk churn cigar cinnamon circle citizen city civil claim clap clarify claw clay clean clerk clever click client cliff climb clinic clip clock clog close cloth cloud clown club clump cluster clutch coach coast coconut code coffee coil coin collect color column combine come comfort comic common company concert conduct confirm congress connect consider control convince cook cool copper copy coral core corn correct cost cotton couch country couple course cousin cover coyote crack cradle craft cram crane crash crater crawl crazy cream credit creek crew cricket crime crisp critic crop cross crouch crowd crucial cruel cruise crumble crunch crush cry crystal cube culture cup cupboard curious current curtain curve cushion custom cute cycle""".split()
SYM = "!@#%*?-_.+=~^"
PLAIN = re.compile(r"[A-Za-z0-9._~-]+\Z")  # needs no escaping in a URL
BARE = re.compile(r"[A-Za-z0-9._~+/=:@%,^-]+\Z")  # safe unquoted on a command line


def rs(r: random.Random, n: int, chars: str = A62) -> str:
    return "".join(r.choice(chars) for _ in range(n))


def b64(data: bytes, url: bool = False) -> str:
    return (
        base64.urlsafe_b64encode(data).decode().rstrip("=")
        if url
        else base64.b64encode(data).decode()
    )


def slug(vendor: str) -> str:
    words = re.findall(r"[A-Za-z0-9]+", vendor)
    s = words[0] if len(words[0]) >= 3 or len(words) == 1 else words[0] + words[1]
    return s.lower()


def prefix(r: random.Random, vendor: str) -> str:
    s = slug(vendor)
    s3, s4 = s[:3], s[:4]
    return r.choice([f"{s3}_prod_", f"{s[:2]}k-", f"{s3}_sk_", f"{s4}pat_", f"{s3}.", f"{s3}_v2_", f"{s[:2]}-svc-",
                     f"{s3}a_", f"{s3.upper()}-", f"{s3}_rt_", f"{s3}_srv_", f"{s3}app_", f"{s3}-int-", f"{s[:2]}_ci_",
                     f"{s3}_bot_", f"{s4}_acc_", f"{s[:2]}{r.randint(1, 9)}.", f"{s3}-key-", f"{s4}_"])  # fmt: skip


def human_pw(r: random.Random, strict: bool) -> str:
    w = r.choice(WORDS)
    w2 = r.choice(WORDS)
    y = str(r.choice(range(1971, 2025)))
    intl = r.choice(INTL)
    forms = [
        lambda: f"{w.capitalize()}{y}{r.choice('!#*?')}",
        lambda: f"{w}.{w2}!{r.randint(10, 99)}",
        lambda: f"{w.capitalize()}{w2.capitalize()}{r.randint(100, 999)}",
        lambda: w.replace("a", "@").replace("o", "0").replace("e", "3").capitalize() + y[-2:] + "!",
        lambda: f"qwerty{w.capitalize()}{r.randint(1, 99)}",
        lambda: f"My{w.capitalize()}Is{r.randint(2, 15)}YearsOld!",
        lambda: f"{w.capitalize()}_{r.randint(1, 28):02d}.{r.randint(1, 12):02d}.{y}",
        lambda: f"i<3{w}{y}".replace("<", "L"),
        lambda: f"{intl}{r.randint(10, 99)}{r.choice('!%#')}",
        lambda: f"{intl}-{w}-{y}",
        lambda: f"{w.upper()}{r.choice(SYM)}{w2}{r.randint(0, 9)}",
        lambda: f"{w2.capitalize()}{r.choice('!?')}{w.capitalize()}{y}",
    ]
    while True:
        v = r.choice(forms)()
        if not strict or PLAIN.match(v):
            return v


def rand_pw(r: random.Random, strict: bool) -> str:
    n = r.randint(14, 32)
    chars = A62 + ("" if strict else SYM.replace("%", "").replace("^", ""))
    while True:
        v = r.choice(A62) + rs(r, n - 1, chars)
        if strict or any(c in SYM for c in v):
            return v


def passphrase(r: random.Random, strict: bool) -> str:
    sep = r.choice(["-", ".", "_"] if strict else [" ", "-", " ", "."])
    return sep.join(r.sample(WORDS, r.randint(4, 6)))


def pem(r: random.Random) -> tuple[str, str]:
    kind, head = r.choice([
        ("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"),
        ("EC PRIVATE KEY", "MHcCAQEEI"),
        ("PRIVATE KEY", "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQ"),
        ("RSA PRIVATE KEY", "MIIEpAIBAAKCAQEA"),
    ])  # fmt: skip
    body = head + b64(r.randbytes(r.randint(180, 300)))
    body = body.rstrip("=")
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    core = "\n".join(lines)
    return f"-----BEGIN {kind}-----\n{core}\n-----END {kind}-----", core


def jwt(r: random.Random, vendor: str) -> str:
    head = b64(
        json.dumps({"alg": r.choice(["HS256", "RS256", "ES256"]), "typ": "JWT"}).encode(), True
    )
    body = {"sub": f"{slug(vendor)}-{rs(r, 8, HEX)}", "iat": r.randint(1_690_000_000, 1_760_000_000),
            "scope": r.choice(["deploy", "api:all", "read write", "ingest"])}  # fmt: skip
    return f"{head}.{b64(json.dumps(body).encode(), True)}.{b64(r.randbytes(32), True)}"


def make_value(r: random.Random, shape: str, vendor: str, strict: bool) -> tuple[str, str]:
    """(the value as written, the part of it that is the secret)."""
    if shape == "pem":
        return pem(r)
    v = {
        "pfx": lambda: prefix(r, vendor) + rs(r, r.randint(24, 40)),
        "alnum": lambda: rs(
            r,
            r.randint(20, 48),
            r.choice(
                [
                    A62,
                    A62,
                    string.ascii_lowercase + string.digits,
                    string.ascii_uppercase + string.digits,
                ]
            ),
        ),
        "hex": lambda: rs(r, r.choice([32, 40, 48, 64]), r.choice([HEX, HEX, HEX.upper()])),
        "b64": lambda: b64(r.randbytes(r.choice([24, 30, 33, 36, 48])), strict),
        "b64u": lambda: b64(r.randbytes(r.choice([24, 32])), True),
        "jwt": lambda: jwt(r, vendor),
        "uuid": lambda: "-".join(rs(r, n, HEX) for n in (8, 4, 4, 4, 12)),
        "pair": lambda: (
            rs(r, 10, string.digits + string.ascii_lowercase)
            + r.choice([":", "-", "_"])
            + rs(r, 32)
        ),
        "pw": lambda: human_pw(r, strict),
        "pwr": lambda: rand_pw(r, strict),
        "pp": lambda: passphrase(r, strict),
        "dbpw": lambda: r.choice([human_pw, rand_pw])(r, strict),
        "seed12": lambda: " ".join(r.choice(BIP) for _ in range(12)),
        "seed24": lambda: " ".join(r.choice(BIP) for _ in range(24)),
        "wkey": lambda: "0x" + rs(r, 64, HEX),
        "xprv": lambda: "xprv9s21ZrQH143K" + rs(r, 95, B58),
        "hexkey": lambda: rs(r, 64, HEX),
        "pin": lambda: rs(r, r.choice([6, 7, 8]), string.digits),
        "recov": lambda: " ".join(
            f"{rs(r, 4, HEX)}-{rs(r, 4, HEX)}" for _ in range(r.choice([1, 3, 5]))
        ),
        "lic": lambda: "-".join(rs(r, 5, string.ascii_uppercase + string.digits) for _ in range(5)),
        "totp": lambda: rs(r, 32, B32),
    }[shape]()
    return v, v


# -- names -------------------------------------------------------------------------------

FOREIGN_PW = (
    "CONTRASENA MOT_DE_PASSE SENHA HASLO SIFRE JELSZO LOSENORD GESLO LOZINKA PAROLA".split()
)
FOREIGN_KEY = "CLE_API CHIAVE_API ANAHTAR KULCS NYCKEL AVAIN SLEUTEL KLIC_API".split()
ENVS = "PROD LIVE STAGING DEV EU US TEST QA PRIMARY BACKUP OLD NEW V3 LOCAL SHARED MAIN INTERNAL".split()


def cred_words(r: random.Random, label: str) -> str:
    low = label.lower()
    if "phrase" in low and "pass" not in low:
        return r.choice(["MNEMONIC", "SEED_PHRASE", "RECOVERY_WORDS", "SEED", "WALLET_WORDS"])
    if "passphrase" in low:
        return r.choice(["PASSPHRASE", "SYNC_PASSPHRASE", "VAULT_PHRASE"])
    if "password" in low:
        if r.random() < 0.15:
            return r.choice(FOREIGN_PW)
        return r.choice(
            [
                "PASSWORD",
                "PASS",
                "PASSWD",
                "PWD",
                "LOGIN_PASSWORD",
                "ADMIN_PASS",
                "USER_PW",
                "PW",
                "SECRET_PASS",
            ]
        )
    if "pin" in low.split():
        return r.choice(["PIN", "PIN_CODE", "PINCODE"])
    if "codes" in low:
        return r.choice(["BACKUP_CODES", "RECOVERY_CODES", "RESCUE_CODES"])
    if "license" in low:
        return r.choice(["LICENSE_KEY", "SERIAL", "LICENCE"])
    if "seed" in low:
        return r.choice(["TOTP_SEED", "MFA_SECRET", "OTP_KEY"])
    if "private key" in low or "spend key" in low or "xprv" in low or "signing key" in low:
        return r.choice(
            ["PRIVATE_KEY", "PRIV_KEY", "SIGNING_KEY", "PK", "SECRET_KEY", "MASTER_KEY"]
        )
    if r.random() < 0.12:
        return r.choice(FOREIGN_KEY)
    if "token" in low:
        return r.choice(
            ["TOKEN", "API_TOKEN", "ACCESS_TOKEN", "AUTH_TOKEN", "TOK", "BEARER", "AUTH"]
        )
    if "secret" in low:
        return r.choice(
            ["SECRET", "CLIENT_SECRET", "API_SECRET", "SIGNING_SECRET", "SECRET_KEY", "HMAC_SECRET"]
        )
    return r.choice(
        ["API_KEY", "APIKEY", "KEY", "ACCESS_KEY", "AUTH_KEY", "PRIMARY_KEY", "CRED", "CREDENTIAL"]
    )


def name_parts(r: random.Random, vendor: str, label: str) -> list[str]:
    v = re.sub(r"[^A-Z0-9]", "", re.findall(r"[A-Za-z0-9]+", vendor)[0].upper())
    if len(v) < 3:
        v = re.sub(r"[^A-Z0-9]", "", vendor.upper())[:10]
    if v[0].isdigit():
        v = "V" + v
    w = cred_words(r, label).split("_")
    e = [r.choice(ENVS)]
    pat = r.choice([[v, *w], [*w, v], [v, *w, *e], [*e, v, *w], [*w, v, *e], [v, *e, *w], [*w, "FOR", v],
                    [*w, "FOR", *e], [*w, *e], [v, *w, str(r.randint(1, 4))], ["MY", v, *w], [v, *w]])  # fmt: skip
    return pat


def style(parts: list[str], how: str) -> str:
    low = [p.lower() for p in parts]
    if how == "UPPER":
        return "_".join(parts)
    if how == "snake":
        return "_".join(low)
    if how == "camel":
        return low[0] + "".join(p.capitalize() for p in low[1:])
    if how == "Pascal":
        return "".join(p.capitalize() for p in low)
    if how == "kebab":
        return "-".join(low)
    if how == "dot":
        return ".".join(low)
    if how == "header":
        return "X-" + "-".join(p.capitalize() for p in low)
    if how == "hlow":
        return "x-" + "-".join(low)
    raise ValueError(how)


# -- forms: (name, classes it takes, flags, template) ------------------------------------
# Classes: K key, P password, D database password, C code/PIN, T TOTP seed, S seed phrase,
# W wallet key, M PEM block; A is all but M. Flags: u needs a value that goes in a URL as is,
# n one that stands unquoted on a command line.

A = "KPDCTSW"
FORMS: list[tuple[str, str, str, str]] = [
    # chat and messages
    ("Slack message with inline code", A, "", "@@u@@  10:42 AM\nhey can you wire up @@V@@ in the staging worker? the @@L@@ is in 1Password but here it is for now: `@@v@@` — I'll rotate after the demo"),
    ("Discord message with spoiler tags", A, "", "**@@u@@** — Today at 9:14 PM\n@@V@@ @@L@@ (spoilered so it's not on stream): ||@@v@@||"),
    ("Telegram forwarded message", A, "", "Forwarded from Ops Bot\n[@@ts@@] @@V@@ @@L@@ rotated → @@v@@\nReply 👍 once you've updated the .env"),
    ("WhatsApp chat export line", A, "", "[@@dmy@@, 21:07:33] Marta K: ok the @@V@@ @@L@@ is @@v@@ don't lose it this time 😅"),
    ("Signal note to self, vendor name only", A, "", "Note to Self · @@ts@@\n@@V@@\n@@v@@"),
    ("Matrix reply with quote fallback", A + "M", "", "> <@@@u@@:matrix.org> what's the @@V@@ @@L@@ again?\n\n@@v@@ (prod one, please don't paste it in #general)"),
    ("IRC log line", A, "", "[21:13] <@@u@@> @@V@@ @@L@@: @@v@@\n[21:13] <ops-bot> @@u@@: please don't paste secrets in here"),
    ("Jira comment with noformat block", A + "M", "", "*@@u@@* added a comment - @@date@@\nRepro needs the sandbox @@L@@ for @@V@@:\n{noformat}\n@@v@@\n{noformat}\nPlease remove once QA is done."),
    ("Linear issue steps", "K", "", "### Steps to reproduce\n1. Set `@@N@@` to `@@v@@` in `.env.local`\n2. Run `pnpm dev` and open /billing\n3. Observe a 500 from @@V@@"),
    ("Trello card comment", "PDC", "", "@@u@@ commented on card \"Move to @@V@@\":\nshared login → @@email@@ / @@v@@"),
    ("GitHub issue environment list", "KP", "", "**Environment**\n- OS: macOS 14.5\n- Node: 20.11.1\n- `@@N@@=@@v@@`\n\n**Expected** the sync to finish, **actual** 403 from @@V@@."),
    ("Notion toggle block export", A, "", "▸ @@V@@ (click to reveal)\n    @@L@@: @@v@@\n    owner: @@u@@"),
    ("Confluence wiki markup table", "KPDC", "", "h3. @@V@@ access\n||Environment||@@L@@||\n|prod|{{@@v@@}}|"),
    ("Plain email body", A + "M", "", "Subject: @@V@@ account\n\nHi team,\n\nThe new @@L@@ for @@V@@ is @@v@@. I'll rotate it on Friday.\n\nBest,\n@@u@@"),
    ("iMessage text", "PCT", "", "Today 8:41 PM\nIt's @@v@@ for the @@V@@ login, capitals exactly as written"),
    ("Stack Overflow question code block", "K", "", "I'm getting `401 Unauthorized` from @@V@@ even though my key is right. My code:\n\n    headers = {\"Authorization\": \"Bearer @@v@@\"}\n    r = requests.get(url, headers=headers)\n\nWhat am I doing wrong?"),
    ("Reddit post edit", A, "", "Edit: nvm, fixed it. The @@L@@ was `@@v@@` and I had a trailing space in the config. Thanks r/selfhosted!"),
    ("Rocket.Chat message", A, "", "@@u@@ 3:02 PM\n@here @@V@@ @@L@@ for the load test: @@v@@"),
    ("Webex space message", A, "", "@@u@@ · 11:20\nShared in this space: @@V@@ → @@v@@ (expires end of sprint)"),
    ("Feishu message", A, "", "【@@V@@】@@L@@：@@v@@ 请勿外传，用完请告诉我"),
    ("Agent transcript prose", A, "", "I found the @@V@@ @@L@@ in your shell history (@@v@@) and used it to call the API; the request succeeded."),
    ("Assistant summary of a config", "KP", "", "Summary of `config/prod.yaml`:\n- database host: db.internal\n- @@V@@ @@L@@: `@@v@@`\n- feature flags: 12 enabled"),
    # .env, shells
    (".env with comment and quotes", "KPDW", "", "# @@V@@ (rotate quarterly)\n@@N@@=\"@@v@@\"\nLOG_LEVEL=info"),
    (".env.production unquoted", "KW", "n", "NODE_ENV=production\n@@N@@=@@v@@\nPORT=8080"),
    ("zsh .zshrc export", "KP", "", "# added by setup script\nexport PATH=\"$HOME/.local/bin:$PATH\"\nexport @@N@@='@@v@@'"),
    ("fish set -gx", "KP", "", "set -gx @@N@@ '@@v@@'"),
    ("nushell $env", "KP", "", "$env.@@N@@ = \"@@v@@\""),
    ("PowerShell $env assignment", "KP", "", "PS C:\\src\\app> $env:@@N@@ = \"@@v@@\"\nPS C:\\src\\app> npm run sync"),
    ("Windows setx", "KP", "", "C:\\> setx @@N@@ \"@@v@@\"\n\nSUCCESS: Specified value was saved."),
    ("cmd set", "K", "n", "C:\\work> set @@N@@=@@v@@\nC:\\work> python sync.py"),
    ("mise.toml env", "KP", "", "[tools]\nnode = \"20\"\n\n[env]\n@@N@@ = \"@@v@@\""),
    ("IPython %env magic", "K", "n", "In [3]: %env @@N@@=@@v@@\nenv: @@N@@=@@v@@"),
    ("Julia ENV", "KP", "", "julia> ENV[\"@@N@@\"] = \"@@v@@\""),
    (".Rprofile Sys.setenv", "KP", "", "Sys.setenv(@@N@@ = \"@@v@@\")"),
    ("launchd plist EnvironmentVariables", "KP", "", "<key>EnvironmentVariables</key>\n<dict>\n  <key>@@N@@</key>\n  <string>@@v@@</string>\n</dict>"),
    ("crontab with inline variable", "K", "n", "*/15 * * * * @@N@@=@@v@@ /opt/sync/run.sh >> /var/log/sync.log 2>&1"),
    ("Bash script variable then curl", "K", "", "#!/usr/bin/env bash\nset -euo pipefail\n@@N@@=\"@@v@@\"\ncurl -fsS -H \"X-Api-Key: ${@@N@@}\" https://@@host@@/v1/ping"),
    ("Makefile variable", "K", "n", "@@N@@ ?= @@v@@\n\nsync:\n\t./bin/sync --endpoint https://@@host@@"),
    ("make invocation with variable", "K", "n", "$ make deploy @@N@@=@@v@@ ENV=staging"),
    ("env command output", "KP", "", "$ env | sort | head\nHOME=/home/dev\nLANG=en_US.UTF-8\n@@N@@=@@v@@\nPATH=/usr/local/bin:/usr/bin"),
    ("docker inspect Env array", "KP", "", "\"Env\": [\n    \"PATH=/usr/local/sbin:/usr/local/bin\",\n    \"@@N@@=@@v@@\",\n    \"LANG=C.UTF-8\"\n],"),
    # YAML, TOML, INI, XML
    ("docker-compose environment list", "KPD", "", "services:\n  worker:\n    image: ghcr.io/acme/worker:1.8\n    environment:\n      - @@N@@=@@v@@\n      - TZ=UTC"),
    ("docker-compose environment map", "KPD", "", "services:\n  api:\n    build: .\n    environment:\n      @@N@@: \"@@v@@\"\n      DEBUG: \"false\""),
    ("Kubernetes Secret stringData", "KPDW", "", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: @@slug@@-creds\ntype: Opaque\nstringData:\n  @@k@@: \"@@v@@\""),
    ("Kubernetes Secret data in base64", "KP", "", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: @@slug@@\ndata:\n  @@k@@: @@b64@@"),
    ("kubectl get secret -o yaml", "KPD", "", "$ kubectl get secret @@slug@@-auth -o yaml\napiVersion: v1\ndata:\n  @@kk@@: @@b64@@\nkind: Secret"),
    ("Helm values three deep", "KP", "", "global:\n  @@slug@@:\n    auth:\n      @@k@@: @@v@@\n    region: eu"),
    ("YAML five deep", "KP", "", "app:\n  integrations:\n    @@slug@@:\n      production:\n        credentials:\n          @@ks@@: '@@v@@'"),
    ("YAML anchor and merge", "KP", "", "x-@@slug@@: &@@slug@@\n  @@k@@: '@@v@@'\nservices:\n  api:\n    <<: *@@slug@@\n  worker:\n    <<: *@@slug@@"),
    ("YAML block scalar PEM", "M", "", "tls:\n  key: |\n    @@v4@@\n  cert: ./tls.crt"),
    ("Kubernetes TLS Secret stringData", "M", "", "kind: Secret\ntype: kubernetes.io/tls\nstringData:\n  tls.key: |\n    @@v4@@"),
    ("Spring application.yml", "KP", "", "spring:\n  application:\n    name: orders\n@@slug@@:\n  client:\n    @@kk@@: @@v@@"),
    ("Ansible group_vars", "KP", "", "---\n# group_vars/prod.yml\n@@ks@@: \"@@v@@\"\n@@slug@@_endpoint: https://@@host@@"),
    ("Salt pillar", "KP", "", "@@slug@@:\n  @@ks@@: '@@v@@'"),
    ("Home Assistant secrets.yaml", "KP", "", "# secrets.yaml\nlatitude: 52.37\n@@ks@@: \"@@v@@\""),
    ("ESPHome api encryption", "K", "", "api:\n  encryption:\n    key: \"@@v@@\"\nota:\n  - platform: esphome"),
    ("GitLab CI variables", "K", "", "variables:\n  @@N@@: \"@@v@@\"\n\ndeploy:\n  script: ./deploy.sh"),
    ("GitHub Actions with: input literal", "K", "", "      - uses: @@slug@@/deploy-action@v3\n        with:\n          @@kk@@: @@v@@\n          environment: production"),
    ("Drone pipeline environment", "K", "", "kind: pipeline\nsteps:\n  - name: publish\n    image: plugins/docker\n    environment:\n      @@N@@: @@v@@"),
    ("Bitbucket Pipelines script", "K", "", "pipelines:\n  default:\n    - step:\n        script:\n          - export @@N@@=@@v@@\n          - ./ci/upload.sh"),
    ("Azure Pipelines variables", "KP", "", "variables:\n  - name: @@n@@\n    value: '@@v@@'\n\nsteps:\n  - script: make test"),
    ("Argo Workflows parameter", "K", "", "spec:\n  arguments:\n    parameters:\n      - name: @@kk@@\n        value: @@v@@"),
    ("ArgoCD repository Secret", "PK", "", "apiVersion: v1\nkind: Secret\nmetadata:\n  labels:\n    argocd.argoproj.io/secret-type: repository\nstringData:\n  url: https://git.@@host@@/platform/deploy.git\n  username: @@u@@\n  password: @@v@@"),
    ("Prometheus scrape bearer_token", "K", "", "scrape_configs:\n  - job_name: @@slug@@\n    bearer_token: @@v@@\n    static_configs:\n      - targets: ['@@host@@:443']"),
    ("Prometheus remote_write basic_auth", "PK", "", "remote_write:\n  - url: https://@@host@@/api/prom/push\n    basic_auth:\n      username: \"@@id@@\"\n      password: \"@@v@@\""),
    ("Grafana datasource secureJsonData", "KPD", "", "datasources:\n  - name: @@V@@\n    type: prometheus\n    secureJsonData:\n      @@k@@: \"@@v@@\""),
    ("Promtail client basic_auth", "PK", "", "clients:\n  - url: https://@@host@@/loki/api/v1/push\n    basic_auth:\n      username: @@u@@\n      password: @@v@@"),
    ("Filebeat output password", "PD", "", "output.elasticsearch:\n  hosts: [\"https://es.@@host@@:9243\"]\n  username: \"filebeat_writer\"\n  password: \"@@v@@\""),
    ("serverless.yml environment", "KP", "", "provider:\n  name: aws\n  runtime: nodejs20.x\n  environment:\n    @@N@@: @@v@@"),
    ("SAM template variables", "KP", "", "Resources:\n  SyncFunction:\n    Type: AWS::Serverless::Function\n    Properties:\n      Environment:\n        Variables:\n          @@N@@: \"@@v@@\""),
    ("CloudFormation NoEcho default", "KPD", "", "Parameters:\n  @@P@@:\n    Type: String\n    NoEcho: true\n    Default: \"@@v@@\""),
    ("render.yaml envVars", "K", "", "services:\n  - type: web\n    name: api\n    envVars:\n      - key: @@N@@\n        value: @@v@@"),
    ("dbt profiles.yml", "D", "", "analytics:\n  target: prod\n  outputs:\n    prod:\n      type: postgres\n      host: @@host@@\n      user: dbt_runner\n      password: \"@@v@@\"\n      dbname: @@db@@"),
    ("Kustomize secretGenerator literals", "K", "n", "secretGenerator:\n  - name: @@slug@@\n    literals:\n      - @@k@@=@@v@@"),
    ("Hardhat config accounts", "W", "", "module.exports = {\n  networks: {\n    sepolia: {\n      url: \"https://rpc.sepolia.org\",\n      accounts: [\"@@v@@\"],\n    },\n  },\n};"),
    ("TOML table", "KPDT", "", "[@@slug@@]\n@@ks@@ = \"@@v@@\"\nregion = \"eu-west-1\""),
    ("TOML inline table", "KP", "", "@@slug@@ = { endpoint = \"https://@@host@@\", @@ks@@ = \"@@v@@\" }"),
    ("Streamlit secrets.toml", "KPD", "", "# .streamlit/secrets.toml\n[@@slug@@]\n@@ks@@ = \"@@v@@\""),
    ("netlify.toml build environment", "K", "", "[build]\n  command = \"npm run build\"\n[build.environment]\n  @@N@@ = \"@@v@@\""),
    ("fly.toml env", "K", "", "app = \"@@slug@@-sync\"\nprimary_region = \"ams\"\n\n[env]\n  @@N@@ = \"@@v@@\""),
    ("Cargo credentials.toml", "K", "", "[registries.@@slug@@]\ntoken = \"@@v@@\""),
    ("Vector sink config", "K", "", "[sinks.@@slug@@]\ntype = \"http\"\ninputs = [\"app_logs\"]\nuri = \"https://@@host@@/ingest\"\nauth.strategy = \"bearer\"\nauth.token = \"@@v@@\""),
    ("Telegraf output token", "K", "", "[[outputs.influxdb_v2]]\n  urls = [\"https://@@host@@\"]\n  token = \"@@v@@\"\n  organization = \"ops\""),
    ("INI section", "KP", "", "[@@slug@@]\nendpoint = https://@@host@@\n@@ks@@ = @@v@@"),
    ("rclone.conf remote", "K", "", "[@@slug@@]\ntype = s3\nprovider = Other\naccess_key_id = @@id@@\nsecret_access_key = @@v@@\nendpoint = https://s3.@@host@@"),
    ("my.cnf client section", "D", "", "[client]\nuser = app_rw\npassword = \"@@v@@\"\nhost = @@host@@"),
    ("odbc.ini DSN", "D", "", "[@@P@@DSN]\nDriver = PostgreSQL Unicode\nServername = @@host@@\nUsername = report\nPassword = @@v@@\nDatabase = @@db@@"),
    ("Samba credentials file", "P", "n", "username=@@u@@\npassword=@@v@@\ndomain=WORKGROUP"),
    ("git credential fill output", "KP", "n", "$ git credential fill <<< $'protocol=https\\nhost=git.@@host@@'\nprotocol=https\nhost=git.@@host@@\nusername=@@u@@\npassword=@@v@@"),
    ("Java .properties", "KP", "", "@@slug@@.api.url=https://@@host@@\n@@dot@@=@@v@@"),
    ("gradle.properties", "K", "", "org.gradle.jvmargs=-Xmx2g\n@@n@@=@@v@@"),
    ("Kafka client.properties JAAS", "P", "", "security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"@@u@@\" password=\"@@v@@\";"),
    ("web.config appSettings", "KP", "", "<appSettings>\n  <add key=\"@@P@@\" value=\"@@v@@\" />\n</appSettings>"),
    ("Maven settings.xml server", "PK", "", "<server>\n  <id>@@slug@@-releases</id>\n  <username>@@u@@</username>\n  <password>@@v@@</password>\n</server>"),
    ("NuGet.Config ClearTextPassword", "KP", "", "<packageSourceCredentials>\n  <@@slug@@>\n    <add key=\"Username\" value=\"@@u@@\" />\n    <add key=\"ClearTextPassword\" value=\"@@v@@\" />\n  </@@slug@@>\n</packageSourceCredentials>"),
    ("ClickHouse users.xml", "D", "", "<users>\n  <etl>\n    <password>@@v@@</password>\n    <networks><ip>::/0</ip></networks>\n  </etl>\n</users>"),
    ("Android local.properties", "K", "", "sdk.dir=/Users/dev/Library/Android/sdk\n@@dot@@=@@v@@"),
    # JSON
    ("composer auth.json http-basic", "KP", "", "{\n  \"http-basic\": {\n    \"repo.@@host@@\": {\n      \"username\": \"@@u@@\",\n      \"password\": \"@@v@@\"\n    }\n  }\n}"),
    ("terraform.tfstate attributes", "KPD", "", "{\n  \"type\": \"@@slug@@_integration\",\n  \"instances\": [{\n    \"attributes\": {\n      \"id\": \"int-@@id@@\",\n      \"@@ks@@\": \"@@v@@\"\n    }\n  }]\n}"),
    ("ARM template parameters file", "KPD", "", "{\n  \"$schema\": \"https://schema.management.azure.com/schemas/2019-04-01/deploymentParameters.json#\",\n  \"parameters\": {\n    \"@@n@@\": { \"value\": \"@@v@@\" }\n  }\n}"),
    ("app.json Heroku env", "K", "", "{\n  \"name\": \"@@slug@@-bridge\",\n  \"env\": {\n    \"@@N@@\": { \"value\": \"@@v@@\" }\n  }\n}"),
    ("vercel.json env", "K", "", "{\n  \"version\": 2,\n  \"env\": { \"@@N@@\": \"@@v@@\" }\n}"),
    ("VS Code settings.json extension", "K", "", "{\n  \"editor.formatOnSave\": true,\n  \"@@slug@@.@@n@@\": \"@@v@@\"\n}"),
    ("JetBrains http-client.private.env.json", "KP", "", "{\n  \"dev\": {\n    \"@@n@@\": \"@@v@@\"\n  }\n}"),
    ("Postman environment secret", "KP", "", "{\n  \"name\": \"@@V@@ prod\",\n  \"values\": [\n    { \"key\": \"@@n@@\", \"value\": \"@@v@@\", \"type\": \"secret\", \"enabled\": true }\n  ]\n}"),
    ("Postman collection bearer auth", "K", "", "\"auth\": {\n  \"type\": \"bearer\",\n  \"bearer\": [{ \"key\": \"token\", \"value\": \"@@v@@\", \"type\": \"string\" }]\n}"),
    ("Thunder Client environment", "K", "", "{\"name\":\"@@slug@@\",\"data\":[{\"name\":\"@@n@@\",\"value\":\"@@v@@\"}]}"),
    ("HTTPie session file", "K", "", "{\n  \"headers\": [\n    { \"name\": \"@@H@@\", \"value\": \"@@v@@\" }\n  ]\n}"),
    ("GraphQL Playground headers", "K", "", "{\n  \"@@H@@\": \"@@v@@\"\n}"),
    ("RabbitMQ definitions user", "P", "", "{\"users\": [{\"name\": \"@@u@@\", \"password\": \"@@v@@\", \"tags\": \"management\"}]}"),
    ("docker config.json auths", "PK", "", "{\n  \"auths\": {\n    \"registry.@@host@@\": { \"auth\": \"@@basic@@\" }\n  }\n}"),
    ("appsettings.json ConnectionStrings", "D", "", "{\n  \"ConnectionStrings\": {\n    \"Default\": \"Host=@@host@@;Database=@@db@@;Username=app;Password=@@v@@\"\n  }\n}"),
    ("Jupyter cell source list", "K", "", "{\n \"cell_type\": \"code\",\n \"source\": [\n  \"import os\\n\",\n  \"os.environ['@@N@@'] = '@@v@@'\\n\"\n ]\n}"),
    ("service account JSON private_key", "M", "", "{\n  \"type\": \"service_account\",\n  \"client_email\": \"sync@@@slug@@.iam.example\",\n  \"private_key\": \"@@jv@@\"\n}"),
    ("Bitwarden JSON export item", "P", "", "{\"type\": 1, \"name\": \"@@V@@\", \"login\": {\"username\": \"@@email@@\", \"password\": \"@@v@@\", \"uris\": [{\"uri\": \"https://@@host@@\"}]}}"),
    # MCP and agent tool calls
    ("Zed context_servers settings", "K", "", "\"context_servers\": {\n  \"@@slug@@\": {\n    \"command\": { \"path\": \"npx\", \"args\": [\"-y\", \"@@@slug@@/mcp\"], \"env\": { \"@@N@@\": \"@@v@@\" } }\n  }\n}"),
    ("Windsurf mcp_config args --api-key", "K", "", "{\n  \"mcpServers\": {\n    \"@@slug@@\": {\n      \"command\": \"uvx\",\n      \"args\": [\"@@slug@@-mcp\", \"--api-key\", \"@@v@@\"]\n    }\n  }\n}"),
    ("VS Code .vscode/mcp.json servers env", "K", "", "{\n  \"servers\": {\n    \"@@slug@@\": {\n      \"type\": \"stdio\",\n      \"command\": \"docker\",\n      \"args\": [\"run\", \"-i\", \"--rm\", \"@@slug@@/mcp\"],\n      \"env\": { \"@@N@@\": \"@@v@@\" }\n    }\n  }\n}"),
    ("MCP server positional arg", "K", "", "{\"mcpServers\": {\"@@slug@@\": {\"command\": \"npx\", \"args\": [\"-y\", \"@@slug@@-mcp-server\", \"@@v@@\"]}}}"),
    ("MCP remote server headers", "K", "", "{\"mcpServers\": {\"@@slug@@\": {\"type\": \"http\", \"url\": \"https://mcp.@@host@@/v1\", \"headers\": {\"@@H@@\": \"@@v@@\"}}}}"),
    ("agent write_file tool call", "KP", "", "{\"type\": \"tool_use\", \"name\": \"write_file\", \"input\": {\"path\": \".env\", \"content\": \"@@N@@=@@v@@\\nDEBUG=0\\n\"}}"),
    ("agent tool result with escaped JSON", "KP", "", "{\"role\": \"tool\", \"content\": \"{\\\"status\\\": 200, \\\"config\\\": {\\\"@@n@@\\\": \\\"@@v@@\\\"}}\"}"),
    ("Claude Code Edit tool input", "KP", "", "{\"tool\": \"Edit\", \"file_path\": \"src/config.ts\", \"old_string\": \"@@n@@: process.env.@@N@@\", \"new_string\": \"@@n@@: '@@v@@'\"}"),
    ("agent bash tool call with export", "K", "", "{\"name\": \"bash\", \"arguments\": {\"command\": \"export @@N@@=@@v@@ && npm run e2e\"}}"),
    ("agent http_request tool call", "K", "", "{\"name\": \"http_request\", \"arguments\": {\"method\": \"GET\", \"url\": \"https://@@host@@/v2/me\", \"headers\": {\"@@H@@\": \"@@v@@\"}}}"),
    ("agent memory note", A + "M", "", "Remember for later: @@V@@ @@L@@ = @@v@@ (user gave it in chat)."),
    ("tool output JSON log line", "KP", "", "{\"level\":\"debug\",\"msg\":\"loaded settings\",\"settings\":{\"@@n@@\":\"@@v@@\",\"retries\":3}}"),
    # commands
    ("curl Authorization Bearer", "K", "", "curl -s https://@@host@@/v1/accounts \\\n  -H \"Authorization: Bearer @@v@@\" | jq ."),
    ("curl custom header", "K", "", "curl -X POST https://@@host@@/events -H '@@H@@: @@v@@' -d @event.json"),
    ("curl -u user:pass", "PK", "n", "curl -u @@u@@:@@v@@ https://@@host@@/api/export -o export.csv"),
    ("curl --data-urlencode", "KP", "", "curl https://@@host@@/oauth/token --data-urlencode 'client_id=@@id@@' --data-urlencode 'client_secret=@@v@@'"),
    ("curl query string key", "K", "u", "curl \"https://@@host@@/v3/quotes?symbol=ACME&apikey=@@v@@\""),
    ("wget --header", "K", "", "wget --header=\"@@H@@: @@v@@\" https://@@host@@/dumps/latest.tar.gz"),
    ("HTTPie request header", "K", "", "http GET https://@@host@@/v1/devices @@H@@:@@v@@"),
    ("docker login -u -p", "PK", "n", "$ docker login registry.@@host@@ -u @@u@@ -p @@v@@\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded"),
    ("skopeo copy --src-creds", "PK", "n", "skopeo copy --src-creds @@u@@:@@v@@ docker://registry.@@host@@/app:1.4 oci:app:1.4"),
    ("helm repo add --password", "PK", "n", "helm repo add @@slug@@ https://charts.@@host@@ --username @@u@@ --password @@v@@"),
    ("npm config set authToken", "K", "", "npm config set //npm.@@host@@/:_authToken=@@v@@"),
    ("twine upload -p", "K", "n", "twine upload --repository-url https://pypi.@@host@@/ -u __token__ -p @@v@@ dist/*"),
    ("kubectl create secret --from-literal", "KPD", "", "kubectl create secret generic @@slug@@ --from-literal=@@k@@='@@v@@' -n prod"),
    ("kubectl set env", "K", "n", "kubectl set env deployment/api @@N@@=@@v@@"),
    ("helm --set-string", "KP", "n", "helm upgrade --install api ./chart --set-string @@slug@@.@@n@@=@@v@@"),
    ("heroku config:set", "K", "n", "$ heroku config:set @@N@@=@@v@@ -a @@slug@@-prod\nSetting @@N@@ and restarting ⬢ @@slug@@-prod... done"),
    ("fly secrets set", "K", "n", "fly secrets set @@N@@=@@v@@ --app @@slug@@-api"),
    ("vercel env add piped", "K", "", "echo -n '@@v@@' | vercel env add @@N@@ production"),
    ("netlify env:set", "K", "", "netlify env:set @@N@@ \"@@v@@\" --context production"),
    ("railway variables --set", "K", "n", "railway variables --set @@N@@=@@v@@"),
    ("doppler secrets set", "KP", "", "doppler secrets set @@N@@='@@v@@' --project api --config prd"),
    ("wrangler secret put piped", "K", "", "printf '%s' '@@v@@' | npx wrangler secret put @@N@@"),
    ("firebase functions:config:set", "K", "", "firebase functions:config:set @@slug@@.key=\"@@v@@\""),
    ("gcloud secrets versions add", "KPD", "", "echo -n \"@@v@@\" | gcloud secrets versions add @@slug@@-@@kk@@ --data-file=-"),
    ("aws ssm put-parameter", "KPD", "", "aws ssm put-parameter --name /prod/@@slug@@/@@ks@@ --type SecureString --value '@@v@@' --overwrite"),
    ("az keyvault secret set", "KPD", "", "az keyvault secret set --vault-name kv-prod --name @@kk@@ --value \"@@v@@\""),
    ("op item create", "P", "", "op item create --category login --title \"@@V@@\" username=@@email@@ 'password=@@v@@'"),
    ("macOS security add-generic-password", "PK", "", "security add-generic-password -a @@u@@ -s @@slug@@ -w '@@v@@'"),
    ("secret-tool store piped", "PK", "", "echo -n '@@v@@' | secret-tool store --label='@@V@@' service @@slug@@ user @@u@@"),
    ("docker build --build-arg", "K", "n", "docker build --build-arg @@N@@=@@v@@ -t @@slug@@-app:dev ."),
    ("docker secret create", "KPD", "", "printf '@@v@@' | docker secret create @@slug@@_@@ks@@ -"),
    ("consul kv put", "KP", "", "consul kv put config/@@slug@@/@@ks@@ '@@v@@'"),
    ("etcdctl put", "KP", "", "etcdctl put /services/@@slug@@/@@ks@@ '@@v@@'"),
    ("redis-cli SET", "K", "", "127.0.0.1:6379> SET @@slug@@:@@ks@@ \"@@v@@\"\nOK"),
    ("terraform apply -var", "KPD", "", "terraform apply -var '@@ks@@=@@v@@' -auto-approve"),
    ("packer build -var", "KP", "", "packer build -var '@@ks@@=@@v@@' image.pkr.hcl"),
    ("ansible-playbook -e", "KP", "", "ansible-playbook site.yml -e '@@ks@@=@@v@@' --limit web"),
    ("node -e inline key", "K", "", "node -e \"require('./sync').run({ key: '@@v@@' })\""),
    ("python -c inline key", "K", "", "python3 -c \"import sync; sync.main(token='@@v@@')\""),
    ("flutter run --dart-define", "K", "n", "flutter run --dart-define=@@N@@=@@v@@ -d chrome"),
    ("PowerShell ConvertTo-SecureString", "P", "", "$pw = ConvertTo-SecureString '@@v@@' -AsPlainText -Force\n$cred = New-Object PSCredential ('@@u@@', $pw)"),
    ("Copy as PowerShell", "K", "", "Invoke-WebRequest -UseBasicParsing -Uri \"https://@@host@@/api/items\" `\n-Headers @{\"@@H@@\"=\"@@v@@\"}"),
    ("Copy as cURL (cmd)", "K", "", "curl ^\"https://@@host@@/api/items^\" ^\n  -H ^\"@@H@@: @@v@@^\" ^\n  --compressed"),
    ("Copy as fetch", "K", "", "fetch(\"https://@@host@@/api/items\", {\n  \"headers\": {\n    \"@@hl@@\": \"@@v@@\",\n    \"accept\": \"application/json\"\n  },\n  \"method\": \"GET\"\n});"),
    ("psql connection URI", "D", "u", "$ psql \"postgresql://app:@@v@@@@@host@@:5432/@@db@@?sslmode=require\""),
    ("mysql -p quoted", "D", "", "mysql -h @@host@@ -u admin -p'@@v@@' @@db@@"),
    ("redis-cli -a", "D", "n", "redis-cli -h @@host@@ -p 6380 --tls -a @@v@@ PING"),
    ("mongodump --uri", "D", "u", "mongodump --uri \"mongodb+srv://backup:@@v@@@cluster0.@@host@@/@@db@@\""),
    ("lftp -u user,pass", "P", "n", "lftp -u @@u@@,@@v@@ sftp://files.@@host@@"),
    ("RSYNC_PASSWORD prefix", "P", "", "RSYNC_PASSWORD='@@v@@' rsync -av ./dist/ rsync://@@u@@@@@host@@/site/"),
    ("openssl enc -pass pass:", "P", "n", "openssl enc -aes-256-cbc -pbkdf2 -in backup.tar -out backup.tar.enc -pass pass:@@v@@"),
    ("zip -P", "P", "n", "zip -r -P @@v@@ handover.zip ./handover"),
    ("7z -p", "P", "n", "7z a -p@@v@@ -mhe=on archive.7z ./exports"),
    ("ffmpeg RTMP stream key", "K", "u", "ffmpeg -re -i talk.mp4 -c copy -f flv rtmp://live.@@host@@/app/@@v@@"),
    ("git push with token URL", "K", "u", "git push https://oauth2:@@v@@@git.@@host@@/team/site.git HEAD:main"),
    ("git remote -v output", "K", "u", "$ git remote -v\norigin\thttps://@@u@@:@@v@@@git.@@host@@/team/api.git (fetch)\norigin\thttps://@@u@@:@@v@@@git.@@host@@/team/api.git (push)"),
    ("pip install with index credentials", "K", "u", "pip install --extra-index-url https://__token__:@@v@@@pypi.@@host@@/simple/ internal-utils==2.3.0"),
    ("GOPROXY with userinfo", "K", "u", "export GOPROXY=https://@@u@@:@@v@@@goproxy.@@host@@,direct"),
    ("airflow connections add URI", "D", "u", "airflow connections add warehouse --conn-uri 'postgres://etl:@@v@@@@@host@@:5432/@@db@@'"),
    ("openvpn-like expect send", "P", "", "expect -c 'spawn ssh @@u@@@@@host@@; expect \"assword:\"; send \"@@v@@\\r\"; interact'"),
    # URLs and HTTP
    ("JDBC URL password parameter", "D", "u", "jdbc:postgresql://@@host@@:5432/@@db@@?user=report&password=@@v@@&ssl=true"),
    ("ODBC connection string", "D", "", "Driver={ODBC Driver 18 for SQL Server};Server=tcp:@@host@@,1433;Database=@@db@@;Uid=app;Pwd=@@v@@;Encrypt=yes;"),
    ("rediss URL", "D", "u", "REDIS_URL=rediss://:@@v@@@@@host@@:6380/0"),
    ("amqps URL", "PD", "u", "broker_url = \"amqps://worker:@@v@@@mq.@@host@@:5671/jobs\""),
    ("SQLAlchemy URL in alembic.ini", "D", "u", "[alembic]\nscript_location = migrations\nsqlalchemy.url = postgresql+psycopg://migrator:@@v@@@@@host@@/@@db@@"),
    ("ftp URL in a note", "P", "u", "old site backup is at ftp://@@u@@:@@v@@@ftp.@@host@@/backups/ if anyone needs it"),
    ("WebSocket URL token", "K", "u", "const ws = new WebSocket(\"wss://stream.@@host@@/v1/live?token=@@v@@\");"),
    ("EventSource URL key", "K", "u", "const es = new EventSource(`https://@@host@@/sse/updates?key=@@v@@`);"),
    ("webhook URL with secret path", "K", "u", "POST https://hooks.@@host@@/services/@@id@@/@@v@@\nContent-Type: application/json\n\n{\"text\": \"deploy finished\"}"),
    ("raw HTTP request Bearer", "K", "", "GET /v2/orders?limit=50 HTTP/1.1\nHost: @@host@@\nAuthorization: Bearer @@v@@\nAccept: application/json"),
    ("raw HTTP request vendor header", "K", "", "POST /ingest HTTP/1.1\nHost: @@host@@\n@@H@@: @@v@@\nContent-Type: application/x-ndjson"),
    ("Set-Cookie response header", "K", "", "HTTP/1.1 302 Found\nLocation: /dashboard\nSet-Cookie: @@slug@@_session=@@v@@; Path=/; HttpOnly; Secure; SameSite=Lax"),
    ("raw POST JSON login", "P", "", "POST /api/v1/login HTTP/1.1\nHost: @@host@@\nContent-Type: application/json\n\n{\"email\":\"@@email@@\",\"password\":\"@@v@@\"}"),
    ("form-urlencoded login POST", "P", "u", "POST /session HTTP/1.1\nHost: @@host@@\nContent-Type: application/x-www-form-urlencoded\n\nusername=@@u@@&password=@@v@@&remember=1"),
    ("GraphQL login mutation variables", "P", "", "{\"query\":\"mutation Login($e:String!,$p:String!){login(email:$e,password:$p){token}}\",\"variables\":{\"e\":\"@@email@@\",\"p\":\"@@v@@\"}}"),
    ("otpauth URI", "T", "u", "otpauth://totp/@@slug@@:@@email@@?secret=@@v@@&issuer=@@slug@@&digits=6"),
    # code
    ("Python os.environ.setdefault", "KP", "", "import os\nos.environ.setdefault(\"@@N@@\", \"@@v@@\")"),
    ("Python SDK constructor keyword", "K", "", "from @@slug@@ import Client\n\nclient = Client(api_key=\"@@v@@\", timeout=30)"),
    ("Python dict config", "KPD", "", "SETTINGS = {\n    \"@@slug@@\": {\n        \"@@ks@@\": \"@@v@@\",\n        \"timeout\": 10,\n    },\n}"),
    ("Python dataclass default", "KP", "", "@dataclass\nclass @@Slug@@Config:\n    base_url: str = \"https://@@host@@\"\n    @@ks@@: str = \"@@v@@\""),
    ("pydantic BaseSettings default", "KP", "", "class Settings(BaseSettings):\n    @@ks@@: SecretStr = SecretStr(\"@@v@@\")"),
    ("Python requests auth tuple", "PK", "", "resp = requests.get(\"https://@@host@@/api/v1/export\", auth=(\"@@u@@\", \"@@v@@\"))"),
    ("Python traceback with locals", "KP", "", "Traceback (most recent call last):\n  File \"/app/sync.py\", line 41, in push\n    resp.raise_for_status()\n    ╭─── locals ───╮\n    │ @@ks@@ = '@@v@@' │\n    │ url = 'https://@@host@@/v1/push' │\nrequests.exceptions.HTTPError: 401 Client Error"),
    ("web3.py style account from key", "W", "", "from eth_account import Account\nacct = Account.from_key(\"@@v@@\")\nprint(acct.address)"),
    ("ethers new Wallet", "W", "", "const wallet = new ethers.Wallet(\"@@v@@\", provider);"),
    ("JS const", "K", "", "const @@n@@ = \"@@v@@\";\nexport default @@n@@;"),
    ("TS new Client options", "K", "", "import { @@Slug@@ } from \"@@@slug@@/sdk\";\n\nexport const client = new @@Slug@@({ apiKey: \"@@v@@\", region: \"eu\" });"),
    ("Node process.env fallback", "K", "", "const key = process.env.@@N@@ || '@@v@@';"),
    ("axios default headers", "K", "", "axios.defaults.headers.common['@@H@@'] = '@@v@@';"),
    ("fetch headers object", "K", "", "await fetch(`${BASE}/v1/jobs`, { headers: { Authorization: `Token @@v@@` } });"),
    ("Deno.env.set", "K", "", "Deno.env.set(\"@@N@@\", \"@@v@@\");"),
    ("Go const", "K", "", "package config\n\nconst @@P@@ = \"@@v@@\""),
    ("Go struct literal", "KP", "", "cfg := @@slug@@.Config{\n\tEndpoint: \"https://@@host@@\",\n\t@@P@@: \"@@v@@\",\n}"),
    ("Go req.Header.Set", "K", "", "req.Header.Set(\"@@H@@\", \"@@v@@\")"),
    ("Go panic with struct dump", "KP", "", "panic: sync failed: 403 Forbidden\n\ngoroutine 1 [running]:\nmain.run(...)\n\tconfig=&{Endpoint:https://@@host@@ @@P@@:@@v@@ Retries:3}"),
    ("Rust const &str", "K", "", "const @@N@@: &str = \"@@v@@\";"),
    ("Rust builder api_key", "K", "", "let client = @@Slug@@Client::builder()\n    .api_key(\"@@v@@\")\n    .build()?;"),
    ("Java static final String", "KP", "", "public final class Keys {\n    static final String @@N@@ = \"@@v@@\";\n}"),
    ("Java System.setProperty", "KP", "", "System.setProperty(\"@@dot@@\", \"@@v@@\");"),
    ("Java HttpRequest header", "K", "", "HttpRequest req = HttpRequest.newBuilder(URI.create(\"https://@@host@@/v1/me\"))\n    .header(\"@@H@@\", \"@@v@@\")\n    .build();"),
    ("C# const string", "K", "", "internal static class Secrets\n{\n    public const string @@P@@ = \"@@v@@\";\n}"),
    ("C# NetworkCredential", "P", "", "var handler = new HttpClientHandler { Credentials = new NetworkCredential(\"@@u@@\", \"@@v@@\") };"),
    ("Ruby ENV.fetch default", "K", "", "API_KEY = ENV.fetch(\"@@N@@\", \"@@v@@\")"),
    ("Ruby client keyword", "K", "", "client = @@Slug@@::Client.new(api_key: \"@@v@@\", logger: Rails.logger)"),
    ("PHP define", "KP", "", "<?php\ndefine('@@N@@', '@@v@@');"),
    ("PHP config array", "KPD", "", "<?php\nreturn [\n    '@@slug@@' => [\n        '@@ks@@' => '@@v@@',\n    ],\n];"),
    ("Swift let", "K", "", "let @@n@@ = \"@@v@@\""),
    ("Swift URLRequest setValue", "K", "", "request.setValue(\"@@v@@\", forHTTPHeaderField: \"@@H@@\")"),
    ("Kotlin const val", "K", "", "object Secrets {\n    const val @@N@@ = \"@@v@@\"\n}"),
    ("build.gradle.kts buildConfigField", "K", "", "buildConfigField(\"String\", \"@@N@@\", \"\\\"@@v@@\\\"\")"),
    ("Dart const String", "K", "", "const String @@n@@ = '@@v@@';"),
    ("Elixir config", "K", "", "config :my_app, @@Slug@@,\n  @@ks@@: \"@@v@@\""),
    ("Perl my variable", "P", "", "my $dbh = DBI->connect($dsn, 'report', '@@v@@') or die $DBI::errstr;"),
    ("R httr add_headers", "K", "", "res <- GET(\"https://@@host@@/v1/series\", add_headers(`@@H@@` = \"@@v@@\"))"),
    ("Lua config table", "KP", "", "return {\n  @@ks@@ = \"@@v@@\",\n  endpoint = \"https://@@host@@\",\n}"),
    ("Objective-C NSString", "K", "", "static NSString * const k@@P@@ = @\"@@v@@\";"),
    ("C #define", "K", "", "#define @@N@@ \"@@v@@\""),
    ("C++ std::string", "KP", "", "const std::string @@ks@@ = \"@@v@@\";"),
    ("Scala val", "K", "", "val @@n@@ = \"@@v@@\""),
    ("Clojure def", "K", "", "(def @@kk@@ \"@@v@@\")"),
    ("F# let", "K", "", "let @@n@@ = \"@@v@@\""),
    ("Pulumi TS provider", "K", "", "const provider = new @@slug@@.Provider(\"prod\", { apiToken: \"@@v@@\" });"),
    ("CDK SecretValue.unsafePlainText", "KP", "", "new secretsmanager.Secret(this, '@@P@@', {\n  secretStringValue: SecretValue.unsafePlainText('@@v@@'),\n});"),
    ("Terraform provider block", "K", "", "provider \"@@slug@@\" {\n  @@ks@@ = \"@@v@@\"\n}"),
    ("terraform.tfvars", "KPD", "", "region = \"eu-central-1\"\n@@ks@@ = \"@@v@@\""),
    ("Bicep param", "KP", "", "param @@n@@ string = '@@v@@'"),
    ("HCL Nomad job env", "K", "", "task \"api\" {\n  env {\n    @@N@@ = \"@@v@@\"\n  }\n}"),
    ("Puppet class parameter", "KP", "", "class { '@@slug@@::agent':\n  @@ks@@ => '@@v@@',\n}"),
    ("Dockerfile ENV", "K", "", "FROM python:3.12-slim\nENV @@N@@=@@v@@\nCOPY . /app"),
    ("systemd unit Environment", "KP", "", "[Service]\nEnvironment=\"@@N@@=@@v@@\"\nExecStart=/usr/local/bin/@@slug@@-agent"),
    ("systemd SetCredential", "K", "", "[Service]\nSetCredential=@@slug@@-token:@@v@@\nExecStart=/usr/bin/agent"),
    ("supervisord environment", "K", "", "[program:worker]\ncommand=/srv/worker\nenvironment=@@N@@=\"@@v@@\",HOME=\"/srv\""),
    ("nginx proxy_set_header", "K", "", "location /api/ {\n    proxy_pass https://@@host@@;\n    proxy_set_header @@H@@ \"@@v@@\";\n}"),
    ("Apache SetEnv", "K", "n", "<VirtualHost *:443>\n    SetEnv @@N@@ @@v@@\n</VirtualHost>"),
    ("Caddyfile header_up", "K", "", "reverse_proxy https://@@host@@ {\n    header_up Authorization \"Bearer @@v@@\"\n}"),
    ("SQL INSERT API key row", "K", "", "INSERT INTO integrations (provider, api_key) VALUES ('@@slug@@', '@@v@@');"),
    ("MySQL CREATE USER IDENTIFIED BY", "D", "", "CREATE USER 'reporting'@'%' IDENTIFIED BY '@@v@@';"),
    ("Oracle CREATE USER IDENTIFIED BY", "D", "", "CREATE USER app_ro IDENTIFIED BY \"@@v@@\" DEFAULT TABLESPACE users;"),
    ("SQL Server CREATE LOGIN", "D", "", "CREATE LOGIN etl_loader WITH PASSWORD = N'@@v@@', CHECK_POLICY = ON;"),
    ("Snowflake CREATE USER PASSWORD", "D", "", "CREATE USER dbt_svc PASSWORD = '@@v@@' DEFAULT_ROLE = transformer MUST_CHANGE_PASSWORD = FALSE;"),
    ("postgres_fdw USER MAPPING", "D", "", "CREATE USER MAPPING FOR app SERVER legacy_db OPTIONS (user 'legacy', password '@@v@@');"),
    ("Spark conf s3a secret", "K", "", "spark.conf.set(\"fs.s3a.secret.key\", \"@@v@@\")"),
    # logs, traces, diffs, tables
    ("GitHub Actions run log", "K", "", "2024-05-14T09:12:03.1Z ##[group]Run ./scripts/release.sh\n2024-05-14T09:12:03.1Z env:\n2024-05-14T09:12:03.1Z   @@N@@: @@v@@\n2024-05-14T09:12:03.2Z ##[endgroup]"),
    ("GitLab job log", "K", "", "$ echo \"using key $@@N@@\"\nusing key @@v@@\n$ ./deploy.sh\nJob succeeded"),
    ("Jenkins console output", "K", "", "[Pipeline] sh\n+ curl -s -H '@@H@@: @@v@@' https://@@host@@/deploy\n{\"status\":\"queued\"}"),
    ("Java exception with credentials URL", "D", "u", "org.postgresql.util.PSQLException: Connection to postgresql://svc:@@v@@@@@host@@:5432/@@db@@ refused.\n\tat org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl"),
    ("Node error with config dump", "KP", "", "Error: Request failed with status code 401\n    at createError (node_modules/axios/lib/core/createError.js:16:15) {\n  config: { url: 'https://@@host@@/v1/jobs', headers: { '@@hl@@': '@@v@@' } }\n}"),
    ("unified diff of config.yaml", "KP", "", "--- a/config/prod.yaml\n+++ b/config/prod.yaml\n@@ -3,3 +3,3 @@ integrations:\n   @@slug@@:\n-    @@ks@@: changeme\n+    @@ks@@: @@v@@\n     timeout: 10"),
    ("unified diff of appsettings.json", "KP", "", "diff --git a/appsettings.json b/appsettings.json\n@@ -7,1 +7,1 @@\n-    \"@@P@@\": \"\",\n+    \"@@P@@\": \"@@v@@\","),
    ("commit message naming the leaked key", "K", "", "revert: remove hard-coded @@V@@ key\n\nThe key @@v@@ was committed in a1b2c3d; it has been rotated."),
    ("markdown table", A, "", "| Service | @@L@@ | Owner |\n|---|---|---|\n| @@V@@ | `@@v@@` | @@u@@ |"),
    ("box-drawing CLI table", "KP", "", "┌──────────────┬──────────────────────────────┐\n│ NAME         │ VALUE                        │\n├──────────────┼──────────────────────────────┤\n│ @@N@@ │ @@v@@ │\n└──────────────┴──────────────────────────────┘"),
    ("terraform output -json", "KPD", "", "$ terraform output -json\n{\n  \"@@ks@@\": {\n    \"sensitive\": true,\n    \"type\": \"string\",\n    \"value\": \"@@v@@\"\n  }\n}"),
    ("vault read table", "KPD", "", "$ vault read secret/@@slug@@\nKey                 Value\n---                 -----\nrefresh_interval    768h\n@@ks@@    @@v@@"),
    ("KeePassXC CSV export", "P", "", "\"Group\",\"Title\",\"Username\",\"Password\",\"URL\"\n\"Root/Work\",\"@@V@@\",\"@@email@@\",\"@@v@@\",\"https://@@host@@\""),
    ("Chrome passwords CSV", "P", "", "name,url,username,password,note\n@@host@@,https://@@host@@/login,@@email@@,@@v@@,"),
    ("MetaMask private key export", "W", "", "Show private key\nThis is your private key (click to copy)\n@@v@@\nWarning: Never disclose this key."),
    (".env MNEMONIC", "S", "", "RPC_URL=https://eth-sepolia.example.org\nMNEMONIC=\"@@v@@\""),
    ("seed phrase in a chat", "S", "", "ok here are the 12/24 words for the @@V@@ test wallet, in order: @@v@@"),
    ("SSH private key pasted in chat", "M", "", "this is the key the old server used, can you add it to the deploy job?\n\n@@v@@"),
    ("cat of key file", "M", "", "$ cat ~/.ssh/@@slug@@_deploy\n@@v@@\n$ chmod 600 ~/.ssh/@@slug@@_deploy"),
    ("notebook output cell", "KP", "", "In [7]: settings.@@ks@@\nOut[7]: '@@v@@'"),
    ("Python REPL print", "KP", "", ">>> cfg = load_config('prod')\n>>> cfg['@@slug@@']['@@ks@@']\n'@@v@@'"),
    ("pytest assertion diff", "KP", "", "E       AssertionError: assert '@@v@@' == ''\nE         - \nE         + @@v@@"),
    ("CSV with header", "KP", "", "service,environment,@@ks@@\n@@slug@@,prod,@@v@@"),
    ("tab-separated settings dump", "KP", "", "key\tvalue\tupdated\n@@ks@@\t@@v@@\t2024-03-02"),
]  # fmt: skip

LANGS: list[tuple[str, str, str, str]] = [
    # (language, word for a password, word for a key, sentence)
    ("German", "das Passwort", "der API-Schlüssel", "Für @@V@@ lautet @@W@@ @@v@@ – trag das bitte in die .env ein und committe es nicht."),
    ("Brazilian Portuguese", "A senha", "A chave de API", "@@W@@ do @@V@@ é @@v@@, coloca no .env pra mim e não sobe pro git, beleza?"),
    ("European Portuguese", "A palavra-passe", "A chave da API", "@@W@@ do @@V@@ é @@v@@; podes pôr isso no ficheiro de configuração?"),
    ("Argentine Spanish", "la contraseña", "la clave de la API", "Che, @@W@@ de @@V@@ es @@v@@, ¿la ponés en el .env y no la subís al repo?"),
    ("Castilian Spanish", "la contraseña", "la clave de la API", "Oye, @@W@@ de @@V@@ es @@v@@, ¿me la metes en el .env, porfa?"),
    ("Polish", "Hasło", "Klucz API", "@@W@@ do @@V@@ to @@v@@, wrzuć to proszę do pliku .env."),
    ("Czech", "Heslo", "API klíč", "@@W@@ k @@V@@ je @@v@@, dej to prosím do konfigurace."),
    ("Slovak", "Heslo", "API kľúč", "@@W@@ pre @@V@@ je @@v@@, prosím, zapíš to do .env."),
    ("Hungarian", "jelszava", "API-kulcsa", "A @@V@@ @@W@@: @@v@@ – légyszi tedd be a .env-be."),
    ("Romanian", "Parola", "Cheia API", "@@W@@ pentru @@V@@ este @@v@@, te rog pune-o în fișierul .env."),
    ("Bulgarian", "Паролата", "API ключът", "@@W@@ за @@V@@ е @@v@@, запиши това в .env, моля."),
    ("Ukrainian", "Пароль", "API-ключ", "@@W@@ до @@V@@: @@v@@. Додай це, будь ласка, у .env."),
    ("Greek", "Ο κωδικός", "Το κλειδί API", "@@W@@ για το @@V@@ είναι @@v@@, βάλ' το στο .env σε παρακαλώ."),
    ("Turkish", "şifresi", "API anahtarı", "@@V@@ @@W@@ @@v@@, bunu .env dosyasına ekler misin?"),
    ("Finnish", "salasana", "API-avain", "@@V@@-palvelun @@W@@ on @@v@@, laita se .env-tiedostoon."),
    ("Lithuanian", "slaptažodis", "API raktas", "@@V@@ @@W@@ yra @@v@@, įrašyk į .env failą."),
    ("Slovenian", "Geslo", "API ključ", "@@W@@ za @@V@@ je @@v@@, prosim dodaj v .env."),
    ("Croatian", "Lozinka", "API ključ", "@@W@@ za @@V@@ je @@v@@, molim te stavi to u .env."),
    ("Catalan", "La contrasenya", "La clau d'API", "@@W@@ de @@V@@ és @@v@@, la pots posar al .env?"),
    ("Basque", "pasahitza", "API gakoa", "@@V@@ zerbitzuaren @@W@@ @@v@@ da, jarri .env fitxategian, mesedez."),
    ("Welsh", "cyfrinair", "allwedd API", "Y @@W@@ ar gyfer @@V@@ yw @@v@@, rho fe yn y ffeil .env plis."),
    ("Japanese", "パスワード", "APIキー", "@@V@@の@@W@@は @@v@@ です。.env に入れておいてください。"),
    ("Korean", "비밀번호는", "API 키는", "@@V@@ @@W@@ @@v@@ 입니다. .env에 넣어 주세요."),
    ("Traditional Chinese", "密碼", "API 金鑰", "@@V@@ 的@@W@@是 @@v@@，幫我放進 .env 裡。"),
    ("Vietnamese", "Mật khẩu", "Khóa API", "@@W@@ của @@V@@ là @@v@@, bạn thêm vào file .env giúp mình nhé."),
    ("Thai", "รหัสผ่าน", "คีย์ API", "@@W@@ของ @@V@@ คือ @@v@@ ช่วยใส่ไว้ใน .env ด้วยนะ"),
    ("Indonesian", "Kata sandi", "Kunci API", "@@W@@ @@V@@ adalah @@v@@, tolong masukkan ke .env ya."),
    ("Tagalog", "password", "API key", "Ang @@W@@ ng @@V@@ ay @@v@@, pakilagay sa .env."),
    ("Arabic", "كلمة المرور", "مفتاح API", "بالنسبة لـ @@V@@، @@W@@: @@v@@ — من فضلك أضفه إلى ملف .env."),
    ("Hebrew", "הסיסמה", "מפתח ה-API", "@@W@@ של @@V@@ היא @@v@@ , תכניס את זה ל-.env בבקשה."),
    ("Persian", "رمز عبور", "کلید API", "@@W@@ @@V@@ این است: @@v@@ لطفاً در فایل .env بگذار."),
    ("Urdu", "پاس ورڈ", "API کی", "@@V@@ کا @@W@@ @@v@@ ہے، براہ کرم اسے .env میں ڈال دیں۔"),
    ("Bengali", "পাসওয়ার্ড", "API কী", "@@V@@-এর @@W@@ হল @@v@@ , এটা .env ফাইলে বসিয়ে দাও।"),
    ("Marathi", "पासवर्ड", "API की", "@@V@@ चा @@W@@ @@v@@ आहे, कृपया .env मध्ये टाक."),
    ("Telugu", "పాస్‌వర్డ్", "API కీ", "@@V@@ @@W@@ @@v@@ , దయచేసి .env లో పెట్టండి."),
    ("Malayalam", "പാസ്‌വേഡ്", "API കീ", "@@V@@-ന്റെ @@W@@ @@v@@ ആണ്, .env-ൽ ചേർക്കൂ."),
    ("Sinhala", "මුරපදය", "API යතුර", "@@V@@ @@W@@ @@v@@ , කරුණාකර .env එකට දාන්න."),
    ("Khmer", "ពាក្យសម្ងាត់", "កូនសោ API", "@@W@@សម្រាប់ @@V@@ គឺ @@v@@ សូមដាក់វាក្នុង .env ។"),
    ("Swahili", "Nenosiri", "Ufunguo wa API", "@@W@@ ya @@V@@ ni @@v@@ , tafadhali iweke kwenye .env."),
    ("Yoruba", "ọ̀rọ̀ aṣínà", "kọ́kọ́rọ́ API", "@@W@@ fún @@V@@ ni @@v@@ , jọ̀wọ́ fi sínú .env."),
    ("Igbo", "okwuntughe", "igodo API", "@@W@@ maka @@V@@ bụ @@v@@ , biko tinye ya na .env."),
    ("Georgian", "პაროლი", "API გასაღები", "@@V@@-ის @@W@@ არის @@v@@ , გთხოვ ჩაწერე .env-ში."),
    ("Kazakh", "құпиясөзі", "API кілті", "@@V@@ @@W@@: @@v@@ , оны .env файлына қосып қойшы."),
]  # fmt: skip
for _lang, _pw, _key, _s in LANGS:
    FORMS.append((f"chat in {_lang}", A, "", _s.replace("@@W@@", f"@@W:{_pw}|{_key}@@")))

# -- look-alikes: each returns (text, strings that must survive) -------------------------

NB32 = "0123456789abcdfghijklmnpqrsvwxyz"  # Nix's base32
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
PEOPLE = ["Ana Lima", "Tomasz Nowak", "Priya Raman", "Jonas Berg", "Mei Chen", "Kofi Mensah"]


def _sha(r: random.Random, n: int = 40) -> str:
    return rs(r, n, HEX)


def _uuid(r: random.Random) -> str:
    return "-".join(rs(r, n, HEX) for n in (8, 4, 4, 4, 12))


def la_blame(r):
    shas = [_sha(r, 8) for _ in range(3)]
    lines = [f"{s} ({r.choice(PEOPLE):<13} 2024-0{i + 2}-1{i} 14:0{i}:22 +0100 {40 + i})     {c}"
             for i, (s, c) in enumerate(zip(shas, ["total = 0", "for item in cart:", "total += item.price"], strict=True))]  # fmt: skip
    return "$ git blame -L 40,42 billing.py\n" + "\n".join(lines), shas


def la_cherry(r):
    s = _sha(r)
    return f"fix(cart): round totals before tax\n\n(cherry picked from commit {s})", [s]


def la_bisect(r):
    s = _sha(r)
    return (
        f"{s} is the first bad commit\ncommit {s}\nAuthor: {r.choice(PEOPLE)} <dev@example.org>\n\n    refactor: inline price lookup",
        [s],
    )


def la_commit_url(r):
    u = f"https://github.com/acme/storefront/commit/{_sha(r)}"
    return f"The regression came in with {u} (merged last Tuesday).", [u]


def la_npm_integrity(r):
    i = "sha512-" + b64(r.randbytes(64))
    return (
        f'"node_modules/left-pad": {{\n  "version": "1.3.0",\n  "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",\n  "integrity": "{i}"\n}}',
        [i],
    )


def la_cargo_lock(r):
    c = _sha(r, 64)
    return (
        f'[[package]]\nname = "serde_json"\nversion = "1.0.{r.randint(100, 130)}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "{c}"',
        [c],
    )


def la_go_sum(r):
    h = "h1:" + b64(r.randbytes(32))
    return (
        f"github.com/google/uuid v1.6.0 {h}\ngithub.com/google/uuid v1.6.0/go.mod h1:TIyPZe4MgqvfeYDBFedMoGGpEw/LqOeaOT+nhxU+yHo=",
        [h],
    )


def la_poetry_hash(r):
    h = _sha(r, 64)
    return f'[metadata]\nlock-version = "2.0"\npython-versions = "^3.11"\ncontent-hash = "{h}"', [h]


def la_nix_store(r):
    p = f"/nix/store/{rs(r, 32, NB32)}-openssl-3.0.13"
    return f"$ readlink -f $(which openssl)\n{p}/bin/openssl", [p]


def la_docker_images(r):
    ids = [_sha(r, 12) for _ in range(2)]
    return ("REPOSITORY         TAG     IMAGE ID       CREATED       SIZE\n"
            f"ghcr.io/acme/api   1.8.2   {ids[0]}   2 days ago    184MB\n"
            f"postgres           16      {ids[1]}   3 weeks ago   432MB"), ids  # fmt: skip


def la_oci_digest(r):
    d = "sha256:" + _sha(r, 64)
    return (
        f'{{\n  "mediaType": "application/vnd.oci.image.manifest.v1+json",\n  "digest": "{d}",\n  "size": 1574\n}}',
        [d],
    )


def la_chart_lock(r):
    d = "sha256:" + _sha(r, 64)
    return (
        f'dependencies:\n- name: redis\n  repository: oci://registry-1.docker.io/bitnamicharts\n  version: 19.0.2\ndigest: {d}\ngenerated: "2024-04-11T10:22:31Z"',
        [d],
    )


def la_bazel_archive(r):
    s = _sha(r, 64)
    return (
        f'http_archive(\n    name = "rules_python",\n    sha256 = "{s}",\n    strip_prefix = "rules_python-0.31.0",\n)',
        [s],
    )


def la_brew_formula(r):
    s = _sha(r, 64)
    return (
        f'class Jq < Formula\n  url "https://github.com/jqlang/jq/releases/download/jq-1.7.1/jq-1.7.1.tar.gz"\n  sha256 "{s}"\nend',
        [s],
    )


def la_gpg_list(r):
    f = rs(r, 40, HEX.upper())
    return (
        f"pub   ed25519 2023-04-01 [SC]\n      {f}\nuid           [ultimate] Build Bot <builds@example.org>",
        [f],
    )


def la_authorized_keys(r):
    k = "AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(r.randbytes(32)).rstrip("=")[:43]
    return f"# ~/.ssh/authorized_keys\nssh-ed25519 {k} dev@laptop", [k]


def la_x509_fpr(r):
    f = ":".join(rs(r, 2, "0123456789ABCDEF") for _ in range(32))
    return f"$ openssl x509 -in cert.pem -noout -fingerprint -sha256\nsha256 Fingerprint={f}", [f]


def la_pem_cert(r):
    body = "MIIB" + b64(r.randbytes(150))
    core = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    return f"-----BEGIN CERTIFICATE-----\n{core}\n-----END CERTIFICATE-----", [core]


def la_pem_pub(r):
    k = "MCowBQYDK2VwAyEA" + b64(r.randbytes(32))
    return (
        f"# signing key for release artifacts (public)\n-----BEGIN PUBLIC KEY-----\n{k}\n-----END PUBLIC KEY-----",
        [k],
    )


def la_contract_addr(r):
    a = "0x" + rs(r, 40, "0123456789abcdefABCDEF")
    return f"USDC on Base mainnet: {a} (verified on the explorer)", [a]


def la_ipfs_cid(r):
    c = "bafybei" + rs(r, 52, "abcdefghijklmnopqrstuvwxyz234567")
    return f"Pinned the docs build: ipfs://{c}/index.html", [c]


def la_ls_tree(r):
    s = [_sha(r) for _ in range(2)]
    return f"$ git ls-tree HEAD\n100644 blob {s[0]}\tREADME.md\n040000 tree {s[1]}\tsrc", s


def la_jaeger(r):
    t = _sha(r, 32)
    return f"Slow checkout trace: https://jaeger.internal/trace/{t} (p99 2.4s)", [t]


def la_dd_trace(r):
    a, b = str(r.randint(10**18, 9 * 10**18)), str(r.randint(10**18, 9 * 10**18))
    return (
        f"2024-06-01 12:00:03 INFO [dd.service=checkout dd.trace_id={a} dd.span_id={b}] order placed",
        [a, b],
    )


def la_cf_ray(r):
    c = _sha(r, 16) + "-" + r.choice(["AMS", "FRA", "SJC", "NRT", "GRU"])
    return f"HTTP/2 502\nserver: cloudflare\ncf-ray: {c}\ncontent-type: text/html", [c]


def la_amzn_reqid(r):
    u = _uuid(r)
    return (
        f"HTTP/1.1 400 Bad Request\nx-amzn-RequestId: {u}\nContent-Type: application/x-amz-json-1.1",
        [u],
    )


def la_object_ids(r):
    c, p = "cus_" + rs(r, 14), "price_" + rs(r, 24)
    return f"Customer {c} moved to plan {p} on renewal.", [c, p]


def la_gtag(r):
    g = "G-" + rs(r, 10, string.ascii_uppercase + string.digits)
    return f"<script>\n  gtag('js', new Date());\n  gtag('config', '{g}');\n</script>", [g]


def la_youtube(r):
    v = rs(r, 11, A62 + "-_")
    return f'<iframe src="https://www.youtube.com/embed/{v}" title="Demo walkthrough"></iframe>', [
        v
    ]


def la_spotify(r):
    t = "spotify:track:" + rs(r, 22)
    return f"focus playlist opener: {t}", [t]


def la_snowflake_ids(r):
    ids = [str(r.randint(10**17, 10**18 * 1.3)) for _ in range(2)]
    return f"bot config:\n  guild_id: {ids[0]}\n  announce_channel_id: {ids[1]}", ids


def la_vite_assets(r):
    names = [f"index-{rs(r, 8, A62 + '-_')}.js", f"index-{rs(r, 8, A62 + '-_')}.css"]
    return (
        f"dist/{names[1]}   12.40 kB │ gzip:  3.11 kB\ndist/{names[0]}  142.31 kB │ gzip: 45.02 kB\n✓ built in 3.84s"
    ), names


def la_etag(r):
    e = f'W/"{_sha(r, 16)}-{rs(r, 10, A62)}"'
    return f"HTTP/1.1 304 Not Modified\nETag: {e}\nCache-Control: max-age=0", [e]


def la_css_colors(r):
    cs = ["#" + rs(r, 6, HEX) for _ in range(3)]
    return f"colors: {{\n  primary: '{cs[0]}',\n  accent: '{cs[1]}',\n  muted: '{cs[2]}',\n}}", cs


def la_data_uri(r):
    d = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAD" + b64(r.randbytes(24))
    return f".dot {{ background: url(data:image/png;base64,{d}); }}", [d]


def la_pseudo_version(r):
    v = f"v0.0.0-2024{r.randint(10, 12)}{r.randint(10, 28)}{r.randint(100000, 235959)}-{_sha(r, 12)}"
    return f"require golang.org/x/exp {v} // indirect", [v]


def la_sha256sums(r):
    s = [_sha(r, 64) for _ in range(2)]
    return f"{s[0]}  app-1.4.2-linux-amd64.tar.gz\n{s[1]}  app-1.4.2-darwin-arm64.tar.gz", s


def la_angle_placeholder(r):
    w = r.choice(["<YOUR_API_KEY>", "<your-token-here>", "<PASTE_SECRET>"])
    return f"Set `API_KEY={w}` in `.env` before running the example.", [w]


def la_ellipsis_placeholder(r):
    w = r.choice(["sk-...", "pk_live_...", "ghp_..."])
    return f"Your key should look like `{w}`; never commit the real one.", [w]


def la_masked_card(r):
    d = str(r.randint(1000, 9999))
    return f"Payment method: Visa •••• {d}, expires 0{r.randint(1, 9)}/2{r.randint(6, 9)}", [d]


def la_truncated_token(r):
    t = f"{rs(r, 4, string.ascii_lowercase)}_…{rs(r, 4)}"
    return f"Active tokens:\n  ci-bot     {t}   created 2024-02-11   last used 3h ago", [t]


def la_tf_var_ref(r):
    return 'provider "pagerduty" {\n  token = var.pagerduty_token\n}', ["var.pagerduty_token"]


def la_ansible_vault_ref(r):
    return 'db_password: "{{ vault_db_password }}"', ["{{ vault_db_password }}"]


def la_compose_required(r):
    return "    environment:\n      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set it in .env}", [
        "${POSTGRES_PASSWORD:?set it in .env}"
    ]


def la_secret_key_ref(r):
    return (
        "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-creds\n        key: password",
        ["secretKeyRef:", "key: password"],
    )


def la_op_reference(r):
    ref = f"op://{r.choice(['Engineering', 'Ops', 'Shared'])}/{r.choice(['Postgres', 'Mailgun', 'Sentry'])}/credential"
    return f"DATABASE_PASSWORD={ref}", [ref]


def la_describe_secret(r):
    return (
        "Name:         db-creds\nType:  Opaque\n\nData\n====\npassword:  24 bytes\nusername:  8 bytes",
        ["password:  24 bytes"],
    )


def la_gh_secret_list(r):
    return (
        "$ gh secret list\nNAME               UPDATED\nDEPLOY_KEY         about 2 days ago\nNPM_TOKEN          about 1 month ago",
        ["DEPLOY_KEY", "NPM_TOKEN"],
    )


def la_tf_plan_sensitive(r):
    return (
        '  # aws_db_instance.main will be updated in-place\n  ~ resource "aws_db_instance" "main" {\n      ~ password = (sensitive value)\n    }',
        ["password = (sensitive value)"],
    )


def la_auth_fail_log(r):
    ip = f"203.0.113.{r.randint(2, 250)}"
    return (
        f"sshd[{r.randint(1000, 9999)}]: Failed password for invalid user admin from {ip} port {r.randint(30000, 60000)} ssh2",
        [ip],
    )


def la_json_schema_pw(r):
    return (
        '"password": {"type": "string", "format": "password", "minLength": 12, "writeOnly": true}',
        ['"format": "password"'],
    )


def la_openapi_scheme(r):
    return (
        "components:\n  securitySchemes:\n    ApiKeyAuth:\n      type: apiKey\n      in: header\n      name: X-API-Key",
        ["name: X-API-Key"],
    )


def la_env_example(r):
    return "# copy to .env and fill in\nSTRIPE_SECRET_KEY=\nSENDGRID_API_KEY=\nDATABASE_URL=", [
        "STRIPE_SECRET_KEY=",
        "SENDGRID_API_KEY=",
    ]


def la_gitleaks_fpr(r):
    f = f"{_sha(r)}:config/test.yaml:generic-api-key:{r.randint(3, 90)}"
    return f"# .gitleaksignore\n{f}", [f]


def la_change_id(r):
    c = "I" + _sha(r)
    return (
        f"docs: fix typo in install guide\n\nChange-Id: {c}\nSigned-off-by: Ana Lima <ana@example.org>",
        [c],
    )


def la_git_describe(r):
    d = f"v2.{r.randint(0, 9)}.{r.randint(0, 9)}-{r.randint(1, 40)}-g{_sha(r, 7)}"
    return f"$ git describe --tags\n{d}", [d]


def la_build_id(r):
    b = _sha(r)
    return (
        f"$ file ./server\n./server: ELF 64-bit LSB pie executable, x86-64, dynamically linked, BuildID[sha1]={b}, stripped",
        [b],
    )


def la_airtable_ids(r):
    ids = ["app" + rs(r, 14), "tbl" + rs(r, 14), "rec" + rs(r, 14)]
    return f"https://airtable.com/{ids[0]}/{ids[1]}/{ids[2]}", ids


def la_hf_revision(r):
    s = _sha(r)
    return f'model = AutoModel.from_pretrained("bert-base-uncased", revision="{s}")', [s]


def la_csp_hash(r):
    h = "sha256-" + b64(r.randbytes(32))
    return f"Content-Security-Policy: script-src 'self' '{h}'; object-src 'none'", [h]


def la_dkim(r):
    p = "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ" + b64(r.randbytes(90))
    return f'selector1._domainkey  IN  TXT  "v=DKIM1; k=rsa; p={p}"', [p]


def la_site_verification(r):
    v = b64(r.randbytes(32), True)
    return f'@  IN  TXT  "google-site-verification={v}"', [v]


def la_oauth_client_id(r):
    c = f"{r.randint(10**11, 10**12 - 1)}-{rs(r, 32, string.ascii_lowercase + string.digits)}.apps.googleusercontent.com"
    return f"GOOGLE_CLIENT_ID={c}  # public, shipped in the web bundle", [c]


def la_pkce(r):
    c = b64(r.randbytes(32), True)
    return (
        f"GET /authorize?response_type=code&client_id=web&code_challenge={c}&code_challenge_method=S256",
        [c],
    )


def la_syncthing(r):
    d = "-".join(rs(r, 7, B32) for _ in range(8))
    return f"Add this device in Syncthing: {d}", [d]


def la_nostr_npub(r):
    n = "npub1" + rs(r, 58, BECH)
    return f"follow the project account on nostr: {n}", [n]


def la_ln_pubkey(r):
    k = r.choice(["02", "03"]) + _sha(r, 64)
    return f"lncli connect {k}@node.example.org:9735", [k]


def la_pod_names(r):
    ps = [f"api-{_sha(r, 10)}-{rs(r, 5, string.ascii_lowercase + string.digits)}" for _ in range(2)]
    return (
        f"NAME                          READY   STATUS    RESTARTS\n{ps[0]}     1/1     Running   0\n{ps[1]}     1/1     Running   2",
        ps,
    )


def la_aws_ids(r):
    ids = ["i-0" + _sha(r, 16), "sg-0" + _sha(r, 16), "vpc-0" + _sha(r, 16)]
    return f"Launched {ids[0]} in {ids[2]} with security group {ids[1]}", ids


def la_random_seed(r):
    s = str(r.randint(10**9, 4 * 10**9))
    return (
        f"platform linux -- Python 3.12.3, pytest-8.2.0\nUsing --randomly-seed={s}\ncollected 412 items",
        [s],
    )


def la_gradle_scan(r):
    u = "https://scans.gradle.com/s/" + rs(r, 13, string.ascii_lowercase + string.digits)
    return f"Publishing build scan...\n{u}", [u]


def la_actions_run(r):
    u = f"https://github.com/acme/api/actions/runs/{r.randint(10**9, 10**10)}/job/{r.randint(10**10, 3 * 10**10)}"
    return f"CI failed here: {u}", [u]


def la_message_id(r):
    m = f"<CA{rs(r, 40, A62 + '+_-')}@mail.gmail.com>"
    return f"In-Reply-To: {m}\nSubject: Re: staging outage", [m]


def la_derived_data(r):
    p = f"~/Library/Developer/Xcode/DerivedData/Shop-{rs(r, 28, string.ascii_lowercase)}/Build/Products"
    return f"rm -rf {p}", [p]


LOOKALIKES = {
    "git blame short hashes": la_blame, "cherry-pick trailer": la_cherry, "git bisect result": la_bisect,
    "commit URL": la_commit_url, "package-lock integrity": la_npm_integrity, "Cargo.lock checksum": la_cargo_lock,
    "go.sum hash": la_go_sum, "poetry.lock content-hash": la_poetry_hash, "Nix store path": la_nix_store,
    "docker images ids": la_docker_images, "OCI manifest digest": la_oci_digest, "Chart.lock digest": la_chart_lock,
    "Bazel http_archive sha256": la_bazel_archive, "Homebrew formula sha256": la_brew_formula,
    "gpg --list-keys fingerprint": la_gpg_list, "authorized_keys public key": la_authorized_keys,
    "x509 SHA-256 fingerprint": la_x509_fpr, "PEM certificate": la_pem_cert, "PEM public key": la_pem_pub,
    "token contract address": la_contract_addr, "IPFS CID": la_ipfs_cid, "git ls-tree hashes": la_ls_tree,
    "Jaeger trace URL": la_jaeger, "Datadog trace and span ids": la_dd_trace, "Cloudflare CF-Ray": la_cf_ray,
    "AWS request id": la_amzn_reqid, "billing object ids": la_object_ids, "GA4 measurement id": la_gtag,
    "YouTube video id": la_youtube, "Spotify track URI": la_spotify, "Discord snowflake ids": la_snowflake_ids,
    "Vite asset hashes": la_vite_assets, "ETag header": la_etag, "CSS colours": la_css_colors,
    "PNG data URI": la_data_uri, "Go pseudo-version": la_pseudo_version, "SHA256SUMS file": la_sha256sums,
    "angle-bracket placeholder": la_angle_placeholder, "ellipsis placeholder": la_ellipsis_placeholder,
    "masked card number": la_masked_card, "truncated token listing": la_truncated_token,
    "Terraform variable reference": la_tf_var_ref, "Ansible vault variable reference": la_ansible_vault_ref,
    "compose required variable": la_compose_required, "Kubernetes secretKeyRef": la_secret_key_ref,
    "1Password secret reference": la_op_reference, "kubectl describe secret sizes": la_describe_secret,
    "gh secret list": la_gh_secret_list, "terraform plan sensitive marker": la_tf_plan_sensitive,
    "sshd failed password log": la_auth_fail_log, "JSON schema password field": la_json_schema_pw,
    "OpenAPI apiKey scheme": la_openapi_scheme, ".env.example with empty values": la_env_example,
    "gitleaks ignore fingerprint": la_gitleaks_fpr, "Gerrit Change-Id": la_change_id, "git describe": la_git_describe,
    "ELF BuildID": la_build_id, "Airtable ids": la_airtable_ids, "Hugging Face revision": la_hf_revision,
    "CSP script hash": la_csp_hash, "DKIM public key record": la_dkim, "site verification TXT": la_site_verification,
    "OAuth public client id": la_oauth_client_id, "PKCE code_challenge": la_pkce, "Syncthing device id": la_syncthing,
    "nostr npub": la_nostr_npub, "Lightning node pubkey": la_ln_pubkey, "Kubernetes pod names": la_pod_names,
    "AWS resource ids": la_aws_ids, "pytest random seed": la_random_seed, "Gradle build scan URL": la_gradle_scan,
    "Actions run URL": la_actions_run, "email Message-ID": la_message_id, "Xcode DerivedData path": la_derived_data,
}  # fmt: skip

# -- assembly ----------------------------------------------------------------------------

LETTER = {
    "key": "K",
    "pw": "P",
    "db": "D",
    "code": "C",
    "totp": "T",
    "seed": "S",
    "wallet": "W",
    "pem": "M",
}
USERS = [
    "deploy",
    "svc-sync",
    "mlopez",
    "ci-runner",
    "j.okafor",
    "admin",
    "ops",
    "hanna.v",
    "build",
    "integration",
]
DBS = ["orders", "analytics", "app_prod", "warehouse", "crm", "billing"]
N_LOOKALIKES = 152


def pick_kinds(r: random.Random) -> list[dict]:
    kinds = []
    for cat, quota in QUOTA.items():
        for vendor in r.sample(VENDORS[cat].split("|"), quota):
            label, shape = r.choice(OVERRIDE.get(vendor, CREDS[cat]))
            klass = KLASS.get(shape, "key")
            kinds.append(
                {
                    "vendor": vendor,
                    "cat": cat,
                    "label": label,
                    "shape": shape,
                    "letter": LETTER[klass],
                }
            )
    return kinds


def match(r: random.Random, kinds: list[dict], n_twice: int) -> list[tuple[dict, tuple]]:
    """Slots (a kind, a form): every form used once, 100 kinds twice in two forms."""
    rare = [k for k in kinds if k["letter"] in "DSWT"]
    rest = [k for k in kinds if k["letter"] not in "DSWT"]
    r.shuffle(rest)
    twice = (rare + rest)[:n_twice]
    slots = [dict(k) for k in kinds] + [dict(k) for k in twice]
    for i, s in enumerate(slots):
        s["id"] = i
        s["kind_id"] = id(kinds[i]) if i < len(kinds) else None
    for s, k in zip(slots[len(kinds) :], twice, strict=True):
        s["kind_id"] = id(k)
    free = list(slots)
    out: list[tuple[dict, tuple]] = []
    forms = list(FORMS)
    r.shuffle(forms)
    while forms:  # the form with fewest free slots that fit goes first
        forms.sort(key=lambda f: sum(s["letter"] in f[1] for s in free))
        f = forms.pop(0)
        fits = [s for s in free if s["letter"] in f[1]]
        if not fits:
            sys.exit(f"no slot left for form {f[0]!r}")
        s = r.choice(fits)
        free.remove(s)
        out.append((s, f))
    used: dict[str, int] = {}
    for _, f in out:
        used[f[0]] = used.get(f[0], 0) + 1
    for s in free:
        taken = {f[0] for t, f in out if t["kind_id"] == s["kind_id"]}
        fits = [f for f in FORMS if s["letter"] in f[1] and f[0] not in taken]
        least = min(used[f[0]] for f in fits)
        f = r.choice([f for f in fits if used[f[0]] == least])
        used[f[0]] += 1
        out.append((s, f))
    return out


def render(r: random.Random, slot: dict, form: tuple) -> dict:
    name, _, flags, tpl = form
    vendor, label = slot["vendor"], slot["label"]
    strict = bool(flags)
    for _ in range(100):
        value, core = make_value(r, slot["shape"], vendor, strict)
        if not strict or (PLAIN.match(value) if "u" in flags else BARE.match(value)):
            break
    else:
        sys.exit(f"no value fits {name!r}")
    parts = name_parts(r, vendor, label)
    s = slug(vendor)
    user = r.choice(USERS)
    ctx = {
        "V": vendor, "L": label, "slug": s, "Slug": s.capitalize(), "u": user,
        "email": f"{user.replace('-', '.')}@example.org", "host": f"{s}.{r.choice(['com', 'io', 'dev', 'net', 'cloud'])}",
        "N": style(parts, "UPPER" if r.random() < 0.85 else "snake"), "n": style(parts, r.choice(["camel", "camel", "snake"])),
        "k": style(parts, r.choice(["snake", "camel", "kebab", "snake"])), "ks": style(parts, "snake"),
        "kk": style(parts, "kebab"), "P": style(parts, "Pascal"), "dot": style(parts, "dot"),
        "H": style(parts, "header" if r.random() < 0.7 else "hlow"), "hl": style(parts, "hlow"),
        "id": rs(r, 8, HEX), "db": r.choice(DBS),
        "ts": f"2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d} {r.randint(0, 23):02d}:{r.randint(0, 59):02d}",
        "date": f"{r.randint(1, 28):02d}/{r.choice(['Mar', 'Jun', 'Sep', 'Nov'])}/24 {r.randint(1, 12)}:{r.randint(10, 59)} PM",
        "dmy": f"{r.randint(1, 28):02d}/{r.randint(1, 12):02d}/2024",
    }  # fmt: skip
    text = tpl
    m = re.search(r"@@W:([^|@]+)\|([^@]+)@@", text)
    if m:
        word = m.group(1) if slot["letter"] in "PDCT" else m.group(2)
        text = text.replace(m.group(0), word)
    secret = core
    if "@@b64@@" in text:
        secret = b64(value.encode())
        text = text.replace("@@b64@@", secret)
    elif "@@basic@@" in text:
        secret = b64(f"{user}:{value}".encode())
        text = text.replace("@@basic@@", secret)
    elif "@@jv@@" in text:
        secret = json.dumps(core, ensure_ascii=False)[1:-1]
        text = text.replace("@@jv@@", json.dumps(value, ensure_ascii=False)[1:-1])
    elif "@@v4@@" in text:
        secret = core.replace("\n", "\n    ")
        text = text.replace("@@v4@@", value.replace("\n", "\n    "))
    text = text.replace("@@v@@", value)
    for key in sorted(ctx, key=len, reverse=True):
        text = text.replace(f"@@{key}@@", ctx[key])
    assert not re.search(r"@@[A-Za-z]+@@", text.replace(value, "")), (name, text)
    return {
        "kind": f"{vendor} {label} [{name}]",
        "text": text,
        "secret": secret,
        "shape": slot["shape"],
        "form": name,
    }


def lookalikes(r: random.Random) -> list[dict]:
    out, seen = [], set()
    for rounds in range(3):
        for sort, make in LOOKALIKES.items():
            if rounds == 2 and len(out) >= N_LOOKALIKES:
                break
            text, keep = make(r)
            if text in seen:
                continue
            seen.add(text)
            out.append({"kind": f"{sort} [{rounds + 1}]", "text": text, "keep": keep})
    return out


def build(seed: int = SEED) -> dict:
    r = random.Random(seed)
    kinds = pick_kinds(r)
    slots = match(r, kinds, 100)
    secrets = [render(r, s, f) for s, f in slots]
    looks = lookalikes(r)
    for _ in range(50):  # a secret found in another entry's text gets a fresh value
        texts = [x["text"] for x in secrets] + [x["text"] for x in looks]
        clash = [
            i
            for i, x in enumerate(secrets)
            if any(x["secret"] in t for j, t in enumerate(texts) if j != i)
        ]
        if not clash:
            break
        for i in clash:
            secrets[i] = render(r, slots[i][0], slots[i][1])
    else:
        sys.exit("secrets still clash")
    r.shuffle(secrets)
    about = ("Fake credentials written blind (see make_secrets_blind16.py's docstring): "
             f"{len(secrets)} secrets of {len({x['kind'].rsplit(' [', 1)[0] for x in secrets})} kinds in "
             f"{len({x['form'] for x in secrets})} forms, and {len(looks)} look-alikes of {len(LOOKALIKES)} sorts "
             "that must come out unchanged (keep lists the strings that must survive).")  # fmt: skip
    return {
        "about": about,
        "secrets": [{"kind": x["kind"], "text": x["text"], "secret": x["secret"]} for x in secrets],
        "lookalikes": looks,
        "_shapes": [x["shape"] for x in secrets],
    }


def check(doc: dict) -> None:
    items = doc["secrets"] + doc["lookalikes"]
    for x in doc["secrets"]:
        assert x["secret"] and x["secret"] in x["text"], x["kind"]
        assert not any(x["secret"] in o["text"] for o in items if o is not x), x["kind"]
    for x in doc["lookalikes"]:
        assert x["keep"] and all(k in x["text"] for k in x["keep"]), x["kind"]
    assert len({x["kind"] for x in items}) == len(items), "kinds repeat"


def main() -> None:
    doc = build()
    shapes = doc.pop("_shapes")
    check(doc)
    OUT.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    back = json.loads(OUT.read_text(encoding="utf-8"))
    check(back)
    s, la = back["secrets"], back["lookalikes"]
    kinds = {x["kind"].rsplit(" [", 1)[0] for x in s}
    forms = {x["kind"].rsplit(" [", 1)[1] for x in s}
    sorts = {x["kind"].rsplit(" [", 1)[0] for x in la}
    print(
        f"{len(s)} secrets of {len(kinds)} kinds in {len(forms)} forms; {len(la)} look-alikes of {len(sorts)} sorts"
    )
    print(f"wrote {OUT}")
    if "-v" in sys.argv:
        counts: dict[str, int] = {}
        for sh in shapes:
            counts[sh] = counts.get(sh, 0) + 1
        print(
            "value shapes:",
            ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1])),
        )


if __name__ == "__main__":
    main()
