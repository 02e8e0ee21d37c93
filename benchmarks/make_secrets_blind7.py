"""Write benchmarks/data/secrets_blind7.json: a seventh blind corpus of fake credentials.

How it was written: from general knowledge of how vendors shape their keys and where
people paste them, with the standard library only. Nothing under ``brain/`` or
``tests/`` was read, nor ``benchmarks/README.md``, nor any earlier corpus's texts or
generator bodies. Looked at, and only for the output shape: the top docstring and
``main()`` of ``make_secrets_blind6.py`` (and, in passing, its list of function names),
``load()`` and ``--help`` of ``secrets_holdout.py``. The ``kind`` names of
``secrets_blind3.json`` to ``secrets_blind6.json`` were printed to a file, and every
kind below was checked against them: a kind whose name, or whose vendor word, appears
there was dropped, so the vendors and products here are new ones. It was not scored
while being written.

Counts (printed by ``main``): 440 secrets of 311 kinds in 67 embedding forms, and 141
look-alikes of 141 kinds that must come out unchanged. By value shape: 284 tokens with
no prefix (hex, base64, url-safe base64, mixed alphanumerics, UUIDs), 73 with a
vendor-style prefix, 48 typed passwords (words, digits and symbols), 16 passphrases,
9 PINs and digit groups, 10 webhook URLs. 138 of the secrets sit in chat prose (12
forms: English, Chinese, Japanese, Korean, Spanish, Portuguese, German, French,
Russian, Hindi in Latin script, a longer story, a pasted code block), the rest in
config, shell, code, logs and documents. Every value is random; none is a real
credential. A ``secret`` is always a verbatim substring of its ``text``: a webhook's
secret is the token part of its URL, and a typed password put in a URI or ``curl -u``
is percent-encoded there, the encoded string being the secret.

Run: ``python benchmarks/make_secrets_blind7.py``.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

SEED = 7_2026_1207
OUT = Path(__file__).parent / "data" / "secrets_blind7.json"
R = random.Random(SEED)

# label|ENV_NAME|value shape. A shape is pieces joined by "+": "=text" is literal text,
# "hex:N", "HEX:N", "alnum:N", "lower:N" (lower case and digits), "upper:N" (upper case and
# digits), "dig:N", "groups:N" (N dash-joined groups of six digits), "b64:N" (N random
# bytes, standard base64), "b64u:N" (N url-safe characters), "uuid", "pw" (a typed
# password), "phrase" (a passphrase of words).
KINDS = """\
koyeb api token|KOYEB_TOKEN|alnum:64
ovhcloud application secret|OVH_APPLICATION_SECRET|lower:32
contabo api client secret|CONTABO_CLIENT_SECRET|alnum:32
northflank api token|NF_API_TOKEN|=nf-+alnum:48
zeabur api key|ZEABUR_TOKEN|=sk-+lower:36
kinsta api key|KINSTA_API_KEY|hex:64
wp engine api password|WPE_API_PASSWORD|alnum:32
pantheon machine token|TERMINUS_MACHINE_TOKEN|alnum:43
ploi api token|PLOI_API_TOKEN|b64u:120
coolify api token|COOLIFY_TOKEN|=3|+alnum:40
caprover admin password|CAPROVER_PASSWORD|pw
nhn cloud appkey secret|NHN_SECRET_KEY|alnum:16
gabia hosting password|GABIA_PASSWORD|pw
vk cloud password|VKCS_PASSWORD|pw
cloud.ru key secret|CLOUDRU_KEY_SECRET|hex:32
beget api password|BEGET_PASSWORD|pw
reg.ru api password|REGRU_PASSWORD|pw
gandi personal access token|GANDI_PAT|hex:40
porkbun secret api key|PORKBUN_SECRET_KEY|=sk1_+hex:64
namecheap api key|NAMECHEAP_API_KEY|hex:32
dynadot api key|DYNADOT_KEY|alnum:40
name.com api token|NAMECOM_TOKEN|hex:40
cloudns auth password|CLOUDNS_AUTH_PASSWORD|pw
desec dns token|DESEC_TOKEN|alnum:28
dnsimple account token|DNSIMPLE_TOKEN|alnum:32
duckdns token|DUCKDNS_TOKEN|uuid
no-ip ddns password|NOIP_PASSWORD|pw
hurricane electric ddns key|HE_DDNS_KEY|alnum:16
unstructured api key|UNSTRUCTURED_API_KEY|alnum:30
braintrust api key|BRAINTRUST_API_KEY|=sk-+alnum:48
humanloop api key|HUMANLOOP_API_KEY|=hl_sk_+hex:48
promptlayer api key|PROMPTLAYER_API_KEY|=pl_+hex:32
arize space api key|ARIZE_API_KEY|alnum:20
lepton api token|LEPTON_API_TOKEN|alnum:32
novita ai api key|NOVITA_API_KEY|=sk_+b64u:43
hyperbolic api key|HYPERBOLIC_API_KEY|b64u:150
coreweave api token|COREWEAVE_TOKEN|alnum:40
octoai token|OCTOAI_TOKEN|b64u:200
friendli personal access token|FRIENDLI_TOKEN|=flp_+alnum:40
writer api key|WRITER_API_KEY|alnum:32
reka api key|REKA_API_KEY|hex:64
aleph alpha token|AA_TOKEN|b64u:160
minimax api key|MINIMAX_API_KEY|b64u:220
baichuan api key|BAICHUAN_API_KEY|=sk-+hex:32
01.ai yi api key|YI_API_KEY|hex:32
stepfun api key|STEPFUN_API_KEY|alnum:64
siliconflow api key|SILICONFLOW_API_KEY|=sk-+lower:48
iflytek spark api secret|SPARK_API_SECRET|b64:24
sensenova secret key|SENSENOVA_SECRET_KEY|alnum:32
upstage solar api key|UPSTAGE_API_KEY|=up_+alnum:29
leonardo ai api key|LEONARDO_API_KEY|uuid
ideogram api key|IDEOGRAM_API_KEY|b64u:86
runway api secret|RUNWAYML_API_SECRET|=key_+hex:128
luma dream machine api key|LUMAAI_API_KEY|=luma-+uuid+=-+uuid
suno cookie session|SUNO_COOKIE|b64u:120
heygen api key|HEYGEN_API_KEY|b64:48
synthesia api key|SYNTHESIA_API_KEY|hex:32
d-id api key|DID_API_KEY|b64:40
play.ht secret key|PLAYHT_SECRET_KEY|hex:32
resemble ai api key|RESEMBLE_API_KEY|alnum:24
speechmatics api key|SPEECHMATICS_API_KEY|alnum:32
rev.ai access token|REVAI_ACCESS_TOKEN|b64u:80
gladia api key|GLADIA_API_KEY|uuid
picovoice access key|PICOVOICE_ACCESS_KEY|b64:40
cartesia api key|CARTESIA_API_KEY|=sk_car_+alnum:22
hume ai secret key|HUME_SECRET_KEY|alnum:64
vapi private key|VAPI_PRIVATE_KEY|uuid
retell ai api key|RETELL_API_KEY|=key_+hex:28
bland ai api key|BLAND_API_KEY|=sk-+lower:48
tidb cloud private key|TIDB_PRIVATE_KEY|uuid
timescale cloud secret key|TIMESCALE_SECRET_KEY|alnum:40
crunchy bridge api key|CRUNCHY_API_KEY|=cbkey_+alnum:40
scylladb cloud token|SCYLLA_TOKEN|b64u:40
couchbase capella api secret|CAPELLA_API_SECRET|alnum:64
momento api key|MOMENTO_API_KEY|b64u:240
memgraph cloud password|MEMGRAPH_PASSWORD|pw
dgraph cloud api key|DGRAPH_API_KEY|b64:44
edgedb secret key|EDGEDB_SECRET_KEY|=nbwt_+b64u:200
grafbase api key|GRAFBASE_API_KEY|b64u:160
questdb http password|QDB_PASSWORD|pw
motherduck token|MOTHERDUCK_TOKEN|b64u:220
databend cloud password|DATABEND_PASSWORD|alnum:20
starrocks root password|STARROCKS_PASSWORD|pw
startree pinot token|STARTREE_TOKEN|=st-+alnum:64
rockset api key|ROCKSET_APIKEY|alnum:64
tigris secret access key|TIGRIS_SECRET_KEY|=tsec_+b64u:40
vespa cloud data plane key|VESPA_CLOUD_KEY|b64u:64
marqo api key|MARQO_API_KEY|alnum:48
lancedb cloud api key|LANCEDB_API_KEY|=sk_+alnum:40
logz.io shipping token|LOGZIO_TOKEN|alnum:32
sematext app token|SEMATEXT_TOKEN|uuid
signoz ingestion key|SIGNOZ_INGESTION_KEY|uuid
uptrace dsn token|UPTRACE_TOKEN|alnum:22
highlight.io project secret|HIGHLIGHT_SECRET|alnum:32
logrocket api key|LOGROCKET_API_KEY|lower:6+=/+lower:10+=:+alnum:24
hotjar client secret|HOTJAR_CLIENT_SECRET|hex:64
heap app secret|HEAP_API_KEY|hex:32
pirsch client secret|PIRSCH_CLIENT_SECRET|alnum:64
matomo auth token|MATOMO_TOKEN_AUTH|hex:32
countly app key|COUNTLY_APP_KEY|hex:40
snowplow api key|SNOWPLOW_API_KEY|uuid
mparticle api secret|MPARTICLE_API_SECRET|b64u:64
split.io server api key|SPLIT_API_KEY|lower:36
configcat sdk key|CONFIGCAT_SDK_KEY|b64u:22+=/+b64u:22
vwo api token|VWO_TOKEN|hex:64
eppo api key|EPPO_API_KEY|b64u:64
afterpay secret key|AFTERPAY_SECRET_KEY|hex:128
payoneer client secret|PAYONEER_CLIENT_SECRET|alnum:40
skrill secret word|SKRILL_SECRET_WORD|pw
worldpay service key|WORLDPAY_SERVICE_KEY|=T_S_+uuid
zettle client secret|ZETTLE_CLIENT_SECRET|b64u:86
pagseguro token|PAGSEGURO_TOKEN|uuid+hex:64
pagar.me secret key|PAGARME_SECRET_KEY|=sk_+hex:32
iugu api token|IUGU_API_TOKEN|HEX:64
asaas api key|ASAAS_API_KEY|=$aact_prod_+b64:120
ebanx integration key|EBANX_INTEGRATION_KEY|hex:100
dlocal secret key|DLOCAL_SECRET_KEY|alnum:32
kushki private merchant id|KUSHKI_PRIVATE_ID|hex:32
juspay api key|JUSPAY_API_KEY|HEX:30
easebuzz salt|EASEBUZZ_SALT|upper:10
doku secret key|DOKU_SECRET_KEY|=SK-+alnum:20
paymaya secret key|PAYMAYA_SECRET_KEY|=sk-+alnum:43
kakaopay secret key|KAKAOPAY_SECRET_KEY|=DEV+HEX:37
kg inicis sign key|INICIS_SIGNKEY|b64:30
unionpay cert password|UNIONPAY_CERT_PWD|dig:6
airwallex api key|AIRWALLEX_API_KEY|hex:64
monzo access token|MONZO_ACCESS_TOKEN|b64u:180
starling personal access token|STARLING_PAT|alnum:64
yapily application secret|YAPILY_SECRET|uuid
finicity app key|FINICITY_APP_KEY|hex:32
teller signing secret|TELLER_SIGNING_SECRET|b64:32
belvo secret password|BELVO_SECRET_PASSWORD|b64u:64
pluggy client secret|PLUGGY_CLIENT_SECRET|uuid
mailtrap api token|MAILTRAP_TOKEN|hex:32
socketlabs injection key|SOCKETLABS_KEY|alnum:20
zeptomail send token|ZEPTOMAIL_TOKEN|=Zoho-enczapikey +b64:96
moosend api key|MOOSEND_API_KEY|uuid
activecampaign api key|AC_API_KEY|hex:72
beehiiv api key|BEEHIIV_API_KEY|alnum:64
buttondown api key|BUTTONDOWN_API_KEY|uuid
loops.so api key|LOOPS_API_KEY|hex:32
pushwoosh api access token|PUSHWOOSH_TOKEN|alnum:80
airship master secret|AIRSHIP_MASTER_SECRET|b64u:22
knock secret api key|KNOCK_SECRET_API_KEY|=sk_+b64u:43
novu api key|NOVU_SECRET_KEY|hex:32
courier auth token|COURIER_AUTH_TOKEN|=pk_prod_+upper:28
magicbell api secret|MAGICBELL_API_SECRET|alnum:40
cometchat auth key|COMETCHAT_AUTH_KEY|hex:40
talkjs secret key|TALKJS_SECRET_KEY|=sk_live_+alnum:24
textlocal api key|TEXTLOCAL_APIKEY|b64:32
smsapi oauth token|SMSAPI_TOKEN|alnum:40
sms.ru api id|SMSRU_API_ID|uuid
smsc.ru password|SMSC_PSW|pw
viber bot auth token|VIBER_AUTH_TOKEN|hex:16+=-+hex:16+=-+hex:16
whatsapp cloud api access token|WHATSAPP_TOKEN|=EAA+alnum:180
height api secret|HEIGHT_API_KEY|=secret_+alnum:32
basecamp access token|BASECAMP_TOKEN|b64:160
todoist api token|TODOIST_API_TOKEN|hex:40
lucid api key|LUCID_API_KEY|=key-+b64u:80
zeplin personal access token|ZEPLIN_TOKEN|b64u:190
framer api key|FRAMER_API_KEY|=fr_+alnum:28
applitools api key|APPLITOOLS_API_KEY|alnum:46
testingbot secret|TESTINGBOT_SECRET|hex:32
instabug app token|INSTABUG_TOKEN|hex:32
embrace api token|EMBRACE_API_TOKEN|hex:32
sonarcloud token|SONAR_TOKEN|hex:40
mend user key|WS_USERKEY|hex:64
socket.dev api token|SOCKET_SECURITY_API_KEY|=sktsec_+alnum:40
fossa api key|FOSSA_API_KEY|hex:32
anaconda.org token|ANACONDA_API_TOKEN|=an-+b64u:40
jsr publish token|JSR_TOKEN|=jsrp_+alnum:40
deno deploy token|DENO_DEPLOY_TOKEN|=ddp_+alnum:36
nx cloud access token|NX_CLOUD_ACCESS_TOKEN|b64:84
turborepo remote cache token|TURBO_TOKEN|alnum:24
depot api token|DEPOT_TOKEN|=depot_org_+hex:64
earthly token|EARTHLY_TOKEN|b64u:44
dagger cloud token|DAGGER_CLOUD_TOKEN|=dag_+lower:10+=_+alnum:40
env0 api secret|ENV0_API_SECRET|alnum:32
spacelift api key secret|SPACELIFT_API_KEY_SECRET|hex:64
scalr token|SCALR_TOKEN|b64u:200
1password connect token|OP_CONNECT_TOKEN|b64u:400
keeper secrets manager config|KSM_CONFIG|b64:220
akeyless access key|AKEYLESS_ACCESS_KEY|b64:40
conjur api key|CONJUR_AUTHN_API_KEY|lower:55
hcp client secret|HCP_CLIENT_SECRET|b64u:64
maptiler api key|MAPTILER_KEY|alnum:20
stadia maps api key|STADIA_API_KEY|uuid
locationiq access token|LOCATIONIQ_TOKEN|=pk.+hex:32
ipstack access key|IPSTACK_KEY|hex:32
abstractapi key|ABSTRACT_API_KEY|hex:32
apollo.io api key|APOLLO_API_KEY|b64u:22
people data labs api key|PDL_API_KEY|hex:64
proxycurl api key|PROXYCURL_API_KEY|b64u:22
scrapingbee api key|SCRAPINGBEE_API_KEY|upper:80
scraperapi key|SCRAPERAPI_KEY|hex:32
zenrows api key|ZENROWS_API_KEY|hex:40
bright data zone password|BRD_PASSWORD|lower:12
oxylabs proxy password|OXYLABS_PASSWORD|pw
apify api token|APIFY_TOKEN|=apify_api_+alnum:36
browserless token|BROWSERLESS_TOKEN|alnum:48
serper api key|SERPER_API_KEY|hex:40
brave search api key|BRAVE_SEARCH_API_KEY|=BSA+alnum:28
newsapi key|NEWSAPI_KEY|hex:32
weatherapi.com key|WEATHERAPI_KEY|hex:31
tomorrow.io api key|TOMORROW_API_KEY|alnum:32
accuweather api key|ACCUWEATHER_KEY|alnum:32
aviationstack access key|AVIATIONSTACK_KEY|hex:32
flightaware aeroapi key|AEROAPI_KEY|alnum:32
amadeus api secret|AMADEUS_CLIENT_SECRET|alnum:16
duffel access token|DUFFEL_ACCESS_TOKEN|=duffel_live_+b64u:43
yelp fusion api key|YELP_API_KEY|b64u:128
foursquare places api key|FSQ_API_KEY|=fsq3+b64:44
spoonacular api key|SPOONACULAR_KEY|hex:32
edamam app key|EDAMAM_APP_KEY|hex:32
omdb api key|OMDB_API_KEY|hex:8
igdb client secret|IGDB_CLIENT_SECRET|lower:30
rawg api key|RAWG_KEY|hex:32
bungie api key|BUNGIE_API_KEY|hex:32
faceit server api key|FACEIT_API_KEY|uuid
hypixel api key|HYPIXEL_API_KEY|uuid
psn npsso token|PSN_NPSSO|alnum:64
streamlabs socket token|STREAMLABS_TOKEN|b64u:300
streamelements jwt secret|SE_JWT|b64u:200
restream stream key|RESTREAM_KEY|=re_+dig:7+=_+hex:24
jw player api secret|JWPLAYER_API_SECRET|alnum:48
filestack app secret|FILESTACK_SECRET|upper:26
remove.bg api key|REMOVEBG_API_KEY|alnum:24
photoroom api key|PHOTOROOM_API_KEY|=sk_pr_+hex:40
deepl auth key|DEEPL_AUTH_KEY|uuid+=:fx
papago client secret|PAPAGO_CLIENT_SECRET|alnum:10
lokalise api token|LOKALISE_API_TOKEN|hex:40
crowdin personal access token|CROWDIN_PERSONAL_TOKEN|hex:80
transifex api token|TX_TOKEN|=1/+hex:40
weblate api key|WEBLATE_API_KEY|=wlu_+alnum:40
poeditor api token|POEDITOR_API_TOKEN|hex:32
tolgee api key|TOLGEE_API_KEY|=tgpak_+lower:52
htx secret key|HTX_SECRET_KEY|hex:8+=-+hex:8+=-+hex:8+=-+hex:5
coinex secret key|COINEX_SECRET|HEX:64
crypto.com exchange secret|CDC_API_SECRET|alnum:24
bitflyer api secret|BITFLYER_SECRET|b64:32
coincheck secret key|COINCHECK_SECRET|alnum:32
bithumb secret key|BITHUMB_SECRET|b64:48
korbit client secret|KORBIT_CLIENT_SECRET|alnum:50
bitso api secret|BITSO_API_SECRET|hex:32
luno api secret|LUNO_API_SECRET|b64u:43
chainstack api key|CHAINSTACK_API_KEY|alnum:8+=.+alnum:32
tenderly access key|TENDERLY_ACCESS_KEY|alnum:32
bitquery oauth token|BITQUERY_TOKEN|=ory_at_+b64u:86
1inch dev portal key|ONEINCH_API_KEY|alnum:32
pimlico api key|PIMLICO_API_KEY|=pim_+alnum:22
fireblocks api secret passphrase|FIREBLOCKS_PASSPHRASE|phrase
bitgo access token|BITGO_ACCESS_TOKEN|=v2x+hex:64
web3auth client secret|WEB3AUTH_CLIENT_SECRET|hex:64
ecobee api key|ECOBEE_API_KEY|alnum:32
tado password|TADO_PASSWORD|pw
wyze api key|WYZE_API_KEY|alnum:60
govee api key|GOVEE_API_KEY|uuid
lifx cloud token|LIFX_TOKEN|hex:64
octoprint api key|OCTOPRINT_API_KEY|HEX:32
prusalink api key|PRUSALINK_KEY|alnum:15
bambu lab lan access code|BAMBU_ACCESS_CODE|dig:8
moonraker api key|MOONRAKER_API_KEY|hex:32
synology dsm password|SYNO_PASSWORD|pw
qnap admin password|QNAP_PASSWORD|pw
seafile api token|SEAFILE_TOKEN|hex:40
syncthing api key|STGUIAPIKEY|alnum:32
emby api key|EMBY_API_KEY|hex:32
radarr api key|RADARR_API_KEY|hex:32
lidarr api key|LIDARR_API_KEY|hex:32
overseerr api key|OVERSEERR_API_KEY|b64:68
tautulli api key|TAUTULLI_API_KEY|hex:32
nzbget control password|NZBGET_PASSWORD|pw
deluge web password|DELUGE_PASSWORD|pw
netdata claim token|NETDATA_CLAIM_TOKEN|b64u:135
mikrotik router password|MIKROTIK_PASSWORD|pw
omada controller password|OMADA_PASSWORD|pw
headscale preauth key|HEADSCALE_AUTHKEY|hex:48
twingate service key|TWINGATE_SERVICE_KEY|b64:300
frp server token|FRP_TOKEN|alnum:32
servicenow password|SN_PASSWORD|pw
workday integration password|WORKDAY_PASSWORD|pw
sap btp client secret|SAP_CLIENT_SECRET|uuid+=$+b64u:43
tawk.to api key|TAWK_API_KEY|hex:40
livechat personal access token|LIVECHAT_PAT|=dal:+b64u:27
incident.io api key|INCIDENT_IO_API_KEY|hex:64
instatus api key|INSTATUS_API_KEY|hex:32
pingdom api token|PINGDOM_TOKEN|b64u:64
site24x7 refresh token|SITE24X7_REFRESH_TOKEN|=1000.+hex:32+=.+hex:32
seq api key|SEQ_API_KEY|alnum:20
cribl auth token|CRIBL_TOKEN|alnum:30
openobserve password|ZO_ROOT_USER_PASSWORD|pw
hyperdx api key|HYPERDX_API_KEY|uuid
baselime api key|BASELIME_API_KEY|hex:40
laptop bitlocker pin|BITLOCKER_PIN|dig:8
bank app pin|BANK_PIN|dig:6
router admin password|ROUTER_PASSWORD|pw
keepass master passphrase|KEEPASS_PASSPHRASE|phrase
veracrypt volume password|VERACRYPT_PASSWORD|phrase
duplicati backup passphrase|DUPLICATI_PASSPHRASE|phrase
kopia repository password|KOPIA_PASSWORD|phrase
luks disk passphrase|LUKS_PASSPHRASE|phrase
cryptomator vault password|CRYPTOMATOR_PASSWORD|phrase
sqlcipher database key|SQLCIPHER_KEY|phrase
macos filevault login password|FILEVAULT_PASSWORD|pw
bitlocker recovery key|BITLOCKER_RECOVERY_KEY|groups:8
webex incoming webhook|WEBEX_WEBHOOK_URL|b64u:120
pumble incoming webhook|PUMBLE_WEBHOOK_URL|hex:24+=/incomingWebhooks/postMessage/+alnum:24
flock incoming webhook|FLOCK_WEBHOOK_URL|uuid
guilded webhook|GUILDED_WEBHOOK_URL|uuid+=/+alnum:40
chanty incoming webhook|CHANTY_WEBHOOK_URL|hex:32
pushcut notification webhook|PUSHCUT_WEBHOOK_URL|b64u:22
"""

WEBHOOKS = {
    "webex incoming webhook": "https://webexapis.com/v1/webhooks/incoming/{v}",
    "pumble incoming webhook": "https://api.pumble.com/workspaces/{v}",
    "flock incoming webhook": "https://api.flock.com/hooks/sendMessage/{v}",
    "guilded webhook": "https://media.guilded.gg/webhooks/{v}",
    "chanty incoming webhook": "https://integrations.chanty.com/api/v1/hooks/{v}",
    "pushcut notification webhook": "https://api.pushcut.io/{v}/notifications/Deploy",
}

LOWER = string.ascii_lowercase + string.digits
UPPER = string.ascii_uppercase + string.digits
ALNUM = string.ascii_letters + string.digits
B64U = ALNUM + "-_"
WORDS = (
    "otter maple quartz harbor velvet cobalt lantern meadow pepper thistle walnut ember "
    "falcon juniper saffron tundra pebble orchid canyon willow mango glacier rocket violet "
    "biscuit nimbus copper fjord cactus papaya raven sierra tango ginger marble wombat "
    "sunrise anchor pixel mosaic banjo cinder dahlia espresso kiwi lagoon nectar "
    "sorvete cachorro mariposa zapato Schmetterling Kaffeetasse chaton fromage"
).split()
SYMBOLS = "!@#%^&*-_=+.?~"


def rs(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def uid() -> str:
    h = rs("0123456789abcdef", 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{R.choice('89ab')}{h[17:20]}-{h[20:]}"


def pw() -> str:
    """A password a person typed: words, digits and symbols in one of several habits."""
    w1, w2 = R.choice(WORDS), R.choice(WORDS)
    habit = R.randrange(6)
    if habit == 0:
        return f"{w1.capitalize()}{R.randint(10, 9999)}{R.choice(SYMBOLS)}"
    if habit == 1:
        return f"{w1}{R.choice(SYMBOLS)}{w2.capitalize()}{R.randint(1, 99)}"
    if habit == 2:
        return rs(ALNUM + SYMBOLS, R.randint(12, 24))
    if habit == 3:
        return f"{w1.upper()}_{R.randint(1970, 2026)}_{w2}{R.choice(SYMBOLS)}"
    if habit == 4:
        leet = w1.replace("a", "@").replace("o", "0").replace("e", "3")
        return f"{leet.capitalize()}{R.choice(SYMBOLS)}{R.randint(100, 999)}"
    return f"{rs(ALNUM, 4)}{R.choice(SYMBOLS)}{rs(ALNUM, 4)}{R.choice(SYMBOLS)}{rs(ALNUM, 4)}"


def phrase() -> str:
    sep = R.choice([" ", "-", " ", "."])
    return sep.join(R.choice(WORDS) for _ in range(R.randint(4, 6)))


def piece(spec: str) -> str:
    if spec.startswith("="):
        return spec[1:]
    if spec == "uuid":
        return uid()
    if spec == "pw":
        return pw()
    if spec == "phrase":
        return phrase()
    kind, n = spec.split(":")
    size = int(n)
    if kind == "b64":
        return base64.b64encode(R.randbytes(size)).decode()
    if kind == "groups":
        return "-".join(rs(string.digits, 6) for _ in range(size))
    alphabets = {
        "hex": "0123456789abcdef",
        "HEX": "0123456789ABCDEF",
        "alnum": ALNUM,
        "lower": LOWER,
        "upper": UPPER,
        "dig": string.digits,
        "b64u": B64U,
    }
    return rs(alphabets[kind], size)


def value(shape: str) -> str:
    # A literal "|" (Laravel Sanctum tokens) survives because only the first two split.
    return "".join(piece(p) for p in shape.split("+"))


ACRONYMS = {"api": "API", "pat": "PAT", "ai": "AI", "sdk": "SDK", "dns": "DNS", "ddns": "DDNS"}
ACRONYMS |= {"pin": "PIN", "psk": "PSK", "jwt": "JWT", "oauth": "OAuth", "id": "ID", "lan": "LAN"}


class Kind:
    def __init__(self, label: str, env: str, shape: str) -> None:
        self.label, self.env, self.shape = label, env, shape
        self.slug = env.lower()
        self.camel = re.sub(r"_(\w)", lambda m: m.group(1).upper(), self.slug)
        words = label.split()
        self.host = re.sub(r"[^a-z0-9]", "", words[0].lower()) or "svc"
        self.brand = words[0][:1].upper() + words[0][1:]
        parts = re.split(r"[^A-Za-z0-9]", words[0])
        self.cls = "".join(w.capitalize() for w in parts)
        if self.cls[:1].isdigit():
            self.cls = "Api" + self.cls
        # How a person writes the name in chat: mostly capitalised, sometimes all lower case.
        named = [self.brand] + [ACRONYMS.get(w, w) for w in words[1:]]
        self.name = label if R.random() < 0.25 else " ".join(named)
        pw_shape = any(p in shape for p in ("pw", "phrase", "dig:", "groups:"))
        self.role = "pw" if pw_shape or "password" in label else "tok"
        if re.fullmatch(r"dig:\d+", shape):
            self.role = "pin"


def kinds() -> list[Kind]:
    return [Kind(*line.split("|", 2)) for line in KINDS.splitlines() if line]


# ---------------------------------------------------------------- embedding forms
# Each form takes (kind, shown) and returns a text that contains ``shown`` verbatim.
# ``shown`` is the secret itself, or for a webhook the whole URL around it.

Form = Callable[[Kind, str], str]


def pick(*options: str) -> str:
    return R.choice(options)


def chat_en(k: Kind, v: str) -> str:
    return pick(
        f"here's the {k.name} you asked for: {v}",
        f"{v} <- that's our {k.name}, can you wire it into the config?",
        f"use this {k.name}\n{v}\nand pls don't commit it",
        f"the {k.name} is `{v}` (staging only)",
        f"can you see why auth fails? I did export {k.env}={v} and it still says 401",
        f'Found it in 1Password, {k.name}: "{v}". Put it wherever the app reads it from.',
    )


def chat_zh(k: Kind, v: str) -> str:
    return pick(
        f"这是{k.name}：{v}，帮我配置一下",
        f"{k.name}是 `{v}` ，别提交到仓库",
        f"我把{k.name}换了，新的是\n{v}",
        f"{v} 这个是生产环境的{k.name}，先用着",
        f"老板刚发给我的 {k.name}：“{v}”，你帮我写进 .env 里",
    )


def chat_ja(k: Kind, v: str) -> str:
    return pick(
        f"{k.name}はこれです：{v}",
        f"本番の{k.name}を貼ります\n{v}\nコミットしないでください",
        f"`{v}` が{k.name}です。設定ファイルに入れてもらえますか？",
        f"昨日{k.name}を再発行しました。新しいのは「{v}」です",
    )


def chat_ko(k: Kind, v: str) -> str:
    return pick(
        f"{k.name}는 {v} 입니다. 설정에 넣어주세요",
        f"여기 {k.name}: `{v}`",
        f"{k.name} 새로 발급받았어요\n{v}",
        f'"{v}" 이게 운영 {k.name}이에요, 커밋하지 마세요',
    )


def chat_es(k: Kind, v: str) -> str:
    return pick(
        f"la {k.name} es {v}, ponla en el .env porfa",
        f"te paso la {k.name}:\n{v}",
        f"`{v}` — esa es la {k.name} de producción, no la subas al repo",
        f'cambié la {k.name} ayer, la nueva es "{v}"',
    )


def chat_pt(k: Kind, v: str) -> str:
    return pick(
        f"a {k.name} é {v}, coloca no config",
        f"segue a {k.name}:\n{v}",
        f"usa essa {k.name} aqui `{v}` mas não commita",
        f'"{v}" é a {k.name} de produção, valeu',
    )


def chat_de(k: Kind, v: str) -> str:
    return pick(
        f"Der {k.name} lautet {v}, bitte in die Config eintragen",
        f"hier der {k.name}:\n{v}",
        f"`{v}` ist unser {k.name} für Staging, nicht committen",
        f"Ich habe den {k.name} gestern neu erzeugt, der neue ist „{v}“",
    )


def chat_fr(k: Kind, v: str) -> str:
    return pick(
        f"voici la {k.name} : {v}",
        f"la {k.name} de prod c'est `{v}`, ne la commite pas",
        f"j'ai régénéré la {k.name}, la nouvelle :\n{v}",
        f"« {v} » — c'est la {k.name}, tu peux la mettre dans le .env ?",
    )


def chat_ru(k: Kind, v: str) -> str:
    return pick(
        f"вот {k.name}: {v}",
        f"{k.name} для прода — `{v}`, в репозиторий не коммить",
        f"я перевыпустил {k.name}, новый:\n{v}",
        f"«{v}» — это {k.name}, добавь в конфиг пожалуйста",
    )


def chat_hi(k: Kind, v: str) -> str:
    return pick(
        f"bhai {k.name} ye hai: {v}, config me daal do",
        f"{k.name} change kar diya, naya wala\n{v}",
        f"ye `{v}` prod ka {k.name} hai, commit mat karna",
        f'yaar "{v}" wala {k.name} kaam nahi kar raha, check karo',
    )


def chat_story(k: Kind, v: str) -> str:
    if k.role != "tok":
        return pick(
            f"I'm setting up the home server for my parents this weekend. I kept the {k.name} "
            f"simple so my dad can type it: {v}. Can you write a small script that backs up "
            "the photos folder every night and emails them if it fails? They only have Wi-Fi.",
            f"Context: we moved offices and the new IT guy wrote the {k.name} on a sticky note "
            f"({v}), which I'm now typing here so it isn't on the monitor any more. Next step is "
            "the printer, which still won't show up on the network. Ideas?",
        )
    return pick(
        f"So last night the {k.brand} integration started failing again. I logged into the "
        f"dashboard, saw the old credential had been revoked by someone on the platform team, "
        f"and generated a new {k.name}. It's {v} for now; I'll move it to the vault after the "
        "demo. Can you update the deployment and restart the worker? Also the cron that syncs "
        "invoices seems to retry forever when it gets a 403, maybe add a backoff.",
        f"quick recap of today: the {k.brand} trial expired, sales extended it, I got a fresh "
        f"{k.name} from support ({v}) and the import works again locally. Tomorrow I want to "
        "move the import into a queue; can you sketch the job and the retry policy?",
    )


def chat_block(k: Kind, v: str) -> str:
    lang = pick("Credentials for the test box", "Zugangsdaten", "认证信息", "Credenciales")
    return f"{lang} ({k.name}):\n\n```\n{v}\n```\n\nthanks!"


def dotenv(k: Kind, v: str) -> str:
    q = pick("", '"', "'")
    exp = pick("", "export ")
    return (
        f"# {k.brand} — rotated {R.randint(1, 28)}.{R.randint(1, 12)}.2026\n"
        f"NODE_ENV=production\nLOG_LEVEL=info\n{exp}{k.env}={q}{v}{q}\n"
        f"# {k.env}_OLD=(revoked)\nPORT=8080\n"
    )


def env_example(k: Kind, v: str) -> str:
    return (
        "# .env.example — copy to .env and fill in\n"
        "DATABASE_URL=postgres://user:password@localhost:5432/app\n"
        "SENTRY_DSN=\n"
        f"{k.env}={v}\n"
        "FEATURE_FLAGS=beta,new-ui\n"
    )


def shell_hist(k: Kind, v: str) -> str:
    return pick(
        f"  501  cd ~/src/api\n  502  export {k.env}='{v}'\n  503  npm run dev\n",
        f"$ read -s {k.env}\n{v}\n$ export {k.env}\n$ ./deploy.sh staging\n",
        f"$ cat > .env.local <<'EOF'\n{k.env}={v}\nDEBUG=0\nEOF\n$ source .env.local\n",
        f'$ {k.env}="{v}" python manage.py sync_{k.host}\nSynced 42 records.\n',
    )


def docker_login(k: Kind, v: str) -> str:
    return (
        f"$ docker login registry.{k.host}.io -u deploy-bot -p {v}\n"
        "WARNING! Using --password via the CLI is insecure. Use --password-stdin.\n"
        "Login Succeeded\n"
    )


def psql_uri(k: Kind, v: str) -> str:
    return (
        f'$ psql "postgresql://app_rw:{v}@db-{R.randint(1, 9)}.{k.host}.internal:5432/orders'
        '?sslmode=require"\npsql (16.2)\nSSL connection (protocol: TLSv1.3)\norders=> \\dt\n'
    )


def mysql_p(k: Kind, v: str) -> str:
    return f"$ mysql -h 10.0.4.{R.randint(2, 250)} -u admin -p'{v}' shop\nmysql> SHOW TABLES;\n"


def mongo_uri(k: Kind, v: str) -> str:
    return (
        f'mongosh "mongodb+srv://svc_{k.host}:{v}@cluster0.{rs(LOWER, 5)}.mongodb.net/'
        'analytics?retryWrites=true&w=majority"'
    )


def ssh_config(k: Kind, v: str) -> str:
    return (
        f"Host {k.host}-bastion\n  HostName 203.0.113.{R.randint(2, 250)}\n  User ops\n"
        f"  # {k.name} for the jump box (sshpass): {v}\n"
        f"  ProxyCommand sshpass -p '{v}' ssh -W %h:%p gate\n"
    )


def kubectl_literal(k: Kind, v: str) -> str:
    return (
        f"kubectl -n payments create secret generic {k.host}-creds \\\n"
        f"  --from-literal={k.env}='{v}' \\\n  --dry-run=client -o yaml | kubectl apply -f -\n"
    )


def gh_secret(k: Kind, v: str) -> str:
    return (
        f'$ gh secret set {k.env} --repo acme/api --body "{v}"\n'
        f"✓ Set Actions secret {k.env} for acme/api\n"
    )


def vault_out(k: Kind, v: str) -> str:
    return (
        f"$ vault kv get secret/apps/{k.host}\n"
        "======= Secret Path =======\nsecret/data/apps/" + k.host + "\n\n"
        "======= Metadata =======\nKey                Value\n---                -----\n"
        "created_time       2026-11-30T08:12:44.1Z\nversion            7\n\n"
        "====== Data ======\nKey        Value\n---        -----\n"
        f"{k.slug:<10} {v}\n"
    )


def aws_profile(k: Kind, v: str) -> str:
    return (
        "# ~/.aws/credentials\n[default]\naws_access_key_id = ASIA" + rs(UPPER, 16) + "\n"
        "aws_secret_access_key = (from sso)\n\n"
        f"[{k.host}]\n# S3-compatible endpoint, {k.name}\n"
        f"aws_access_key_id = {rs(UPPER, 20)}\naws_secret_access_key = {v}\n"
    )


def gcloud_azure(k: Kind, v: str) -> str:
    return pick(
        f"$ az webapp config appsettings set -g rg-prod -n api-prod \\\n"
        f'    --settings {k.env}="{v}"\n',
        f"$ printf '%s' '{v}' | gcloud secrets versions add {k.host}-key --data-file=-\n"
        f"Created version [3] of the secret [{k.host}-key].\n",
        "# ~/.config/gcloud/application_default_credentials.json\n"
        + json.dumps(
            {
                "client_id": f"{R.randint(10**11, 10**12)}-{rs(LOWER, 32)}.apps.example",
                "client_secret": v,
                "quota_project_id": f"{k.host}-prod",
                "type": "authorized_user",
            },
            indent=2,
        ),
    )


def terraform(k: Kind, v: str) -> str:
    return pick(
        f'provider "{k.host}" {{\n  region  = "eu-west-1"\n  api_key = "{v}"\n}}\n',
        f'# terraform.tfvars\nenvironment = "prod"\n{k.slug} = "{v}"\nreplicas = 3\n',
        f'variable "{k.slug}" {{\n  type      = string\n  sensitive = true\n'
        f'  default   = "{v}"\n}}\n',
    )


def pulumi(k: Kind, v: str) -> str:
    return pick(
        f"# Pulumi.prod.yaml\nconfig:\n  aws:region: eu-central-1\n  app:{k.camel}: {v}\n",
        f"$ pulumi config set {k.camel} '{v}'\n$ pulumi up --yes\n",
    )


def ansible(k: Kind, v: str) -> str:
    return f'# group_vars/prod/main.yml\n---\napp_user: deploy\n{k.slug}: "{v}"\nnginx_workers: 4\n'


def k8s_secret(k: Kind, v: str) -> str:
    return (
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {k.host}-credentials\n"
        f'  namespace: prod\ntype: Opaque\nstringData:\n  {k.env}: "{v}"\n'
    )


def helm_values(k: Kind, v: str) -> str:
    return (
        "# values-prod.yaml\nreplicaCount: 2\nintegrations:\n"
        f'  {k.host}:\n    enabled: true\n    auth:\n      {k.camel}: "{v}"\n'
        "resources:\n  limits:\n    cpu: 500m\n"
    )


def compose(k: Kind, v: str) -> str:
    return (
        "services:\n  worker:\n    image: ghcr.io/acme/worker:1.8.2\n    environment:\n"
        f"      - REDIS_URL=redis://cache:6379/0\n      - {k.env}={v}\n"
        "    depends_on: [cache]\n"
    )


def systemd(k: Kind, v: str) -> str:
    return (
        f"[Unit]\nDescription={k.brand} sync worker\n\n[Service]\nUser=sync\n"
        f'Environment="{k.env}={v}"\nExecStart=/usr/local/bin/sync-worker\nRestart=always\n'
    )


def procfile(k: Kind, v: str) -> str:
    return f"web: gunicorn app:app\nworker: {k.env}={v} python -m jobs.worker\n"


def json_deep(k: Kind, v: str) -> str:
    doc = {"app": {"name": "ledger", "integrations": {k.host: {"enabled": True, k.camel: v}}}}
    return json.dumps(doc, indent=2, ensure_ascii=False)


def yaml_deep(k: Kind, v: str) -> str:
    return (
        "server:\n  port: 8443\nclients:\n"
        f"  {k.host}:\n    base_url: https://api.{k.host}.com\n    timeout: 30s\n"
        f"    credentials:\n      {k.slug}: '{v}'\n"
    )


def toml_cfg(k: Kind, v: str) -> str:
    return f'[server]\nhost = "0.0.0.0"\n\n[providers.{k.host}]\n{k.slug} = "{v}"\nretries = 5\n'


def ini_cfg(k: Kind, v: str) -> str:
    return (
        f"[general]\ndebug = false\n\n[{k.host}]\n"
        f"endpoint = https://api.{k.host}.com\n{k.slug} = {v}\n"
    )


def xml_cfg(k: Kind, v: str) -> str:
    return (
        f'<configuration>\n  <integrations>\n    <{k.host} enabled="true">\n'
        f"      <{k.camel}>{v}</{k.camel}>\n    </{k.host}>\n  </integrations>\n</configuration>\n"
    )


def spring(k: Kind, v: str) -> str:
    return (
        "spring.datasource.url=jdbc:postgresql://db:5432/app\n"
        f"app.{k.host}.base-url=https://api.{k.host}.com\napp.{k.host}.{k.camel}={v}\n"
    )


def appsettings(k: Kind, v: str) -> str:
    doc = {
        "Logging": {"LogLevel": {"Default": "Information"}},
        "Integrations": {k.cls: {"ApiSecret": v, "TimeoutSeconds": 30}},
    }
    return "// appsettings.Production.json\n" + json.dumps(doc, indent=2, ensure_ascii=False)


def rails_creds(k: Kind, v: str) -> str:
    return (
        "$ bin/rails credentials:show\n"
        f"secret_key_base: (see 1password)\n{k.host}:\n  {k.slug}: {v}\n"
    )


def django(k: Kind, v: str) -> str:
    return (
        f'# settings/prod.py\nDEBUG = False\nALLOWED_HOSTS = ["api.example.org"]\n{k.env} = "{v}"\n'
    )


def laravel_env(k: Kind, v: str) -> str:
    return (
        f"APP_NAME=Shop\nAPP_ENV=production\nAPP_DEBUG=false\n{k.env}={v}\nQUEUE_CONNECTION=redis\n"
    )


def go_code(k: Kind, v: str) -> str:
    return pick(
        f'const {k.camel} = "{v}"\n',
        f'client := {k.host}.NewClient({k.host}.Config{{\n\tBaseURL: "https://api",\n'
        f'\tSecret:  "{v}",\n}})\n',
    )


def rust_code(k: Kind, v: str) -> str:
    return f'const {k.env}: &str = "{v}";\n\nfn client() -> Client {{ Client::new({k.env}) }}\n'


def swift_code(k: Kind, v: str) -> str:
    return f'enum Secrets {{\n    static let {k.camel} = "{v}"\n}}\n'


def kotlin_code(k: Kind, v: str) -> str:
    return (
        f"val client = {k.cls}Client.builder()\n"
        f'    .apiSecret("{v}")\n    .timeout(Duration.ofSeconds(20))\n    .build()\n'
    )


def csharp_code(k: Kind, v: str) -> str:
    return f'private const string {k.cls}Secret = "{v}";\n'


def php_code(k: Kind, v: str) -> str:
    return f"<?php\nreturn [\n    '{k.host}' => [\n        '{k.slug}' => '{v}',\n    ],\n];\n"


def python_code(k: Kind, v: str) -> str:
    return pick(
        f'client = {k.cls}Client(\n    region="eu",\n    api_secret="{v}",\n)\n',
        f'{k.env} = "{v}"  # TODO move to env\n',
        f'os.environ.setdefault("{k.env}", "{v}")\n',
    )


def js_code(k: Kind, v: str) -> str:
    return pick(
        f"const {k.camel} = '{v}';\nexport default {{ {k.camel} }};\n",
        f'const client = new {k.cls}({{ apiKey: "{v}", timeout: 10_000 }});\n',
        f'export const config: Config = {{\n  {k.camel}: "{v}",\n  retries: 3,\n}};\n',
    )


def sql(k: Kind, v: str) -> str:
    return (
        "INSERT INTO integration_settings (provider, setting, value)\n"
        f"VALUES ('{k.host}', '{k.slug}', '{v}');\n"
    )


def json_log(k: Kind, v: str) -> str:
    line = {
        "ts": "2026-12-06T22:14:03.551Z",
        "level": "debug",
        "msg": "outbound request",
        "provider": k.host,
        "headers": {"Authorization": f"Bearer {v}", "Accept": "application/json"},
    }
    return json.dumps(line, ensure_ascii=False)


def http_dump(k: Kind, v: str) -> str:
    return (
        f"> POST /v2/events HTTP/1.1\n> Host: api.{k.host}.com\n> User-Agent: curl/8.5.0\n"
        f"> X-Api-Key: {v}\n> Content-Type: application/json\n>\n< HTTP/1.1 202 Accepted\n"
    )


def stack_trace(k: Kind, v: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/app/jobs/sync.py", line 88, in run\n    resp = client.push(batch)\n'
        '  File "/app/clients/base.py", line 41, in push\n    raise AuthError(self.secret)\n'
        f"clients.errors.AuthError: rejected credential {v!r} for {k.host}\n"
    )


def diff_hunk(k: Kind, v: str) -> str:
    return (
        "diff --git a/config/prod.env b/config/prod.env\n--- a/config/prod.env\n"
        "+++ b/config/prod.env\n@@ -3,4 +3,5 @@ LOG_LEVEL=info\n PORT=8080\n"
        f"-{k.env}=\n+{k.env}={v}\n WORKERS=4\n"
    )


def md_table(k: Kind, v: str) -> str:
    return (
        "| Service | Setting | Value |\n|---|---|---|\n| redis | host | cache.internal |\n"
        f"| {k.brand} | {k.name} | `{v}` |\n"
    )


def md_list(k: Kind, v: str) -> str:
    return (
        "## Staging access\n\n- URL: https://staging.example.org\n- user: qa@example.org\n"
        f"- {k.name}: {v}\n- VPN: ask in #infra\n"
    )


def csv_row(k: Kind, v: str) -> str:
    return (
        "service,environment,owner,secret\n"
        f"{k.host},prod,platform@acme.io,{v}\nsentry,prod,platform@acme.io,(in vault)\n"
    )


def notebook(k: Kind, v: str) -> str:
    cell = {
        "cell_type": "code",
        "execution_count": 3,
        "metadata": {},
        "outputs": [],
        "source": [f'{k.slug} = "{v}"\n', f"client = connect({k.slug})\n"],
    }
    return json.dumps(cell, indent=1, ensure_ascii=False)


def postman(k: Kind, v: str) -> str:
    doc = {
        "info": {"name": f"{k.brand} API", "schema": "v2.1.0"},
        "auth": {"type": "apikey", "apikey": [{"key": "value", "value": v, "type": "string"}]},
        "variable": [{"key": "baseUrl", "value": f"https://api.{k.host}.com"}],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False)


def http_file(k: Kind, v: str) -> str:
    return (
        f"### list items\nGET https://api.{k.host}.com/v1/items\n"
        f"Authorization: Bearer {v}\nAccept: application/json\n"
    )


def curl_h(k: Kind, v: str) -> str:
    return (
        f"curl -sS https://api.{k.host}.com/v1/me \\\n"
        f'  -H "Authorization: Bearer {v}" \\\n  -H "Accept: application/json"'
    )


def curl_u(k: Kind, v: str) -> str:
    return f"curl -u admin:{v} https://{k.host}.example.net/api/status"


def url_userinfo(k: Kind, v: str) -> str:
    return pick(
        f"REDIS_URL=rediss://default:{v}@{k.host}-cache.internal:6380/0",
        f"amqps://worker:{v}@mq.{k.host}.internal:5671/prod",
        f"smtp://postmaster:{v}@smtp.{k.host}.com:587",
    )


def url_query(k: Kind, v: str) -> str:
    return pick(
        f"GET https://api.{k.host}.com/v1/report?format=csv&api_key={v}&page=2",
        f"wss://stream.{k.host}.io/socket?token={v}&v=2",
    )


def webhook_post(k: Kind, v: str) -> str:
    return f"curl -X POST -H 'Content-Type: application/json' -d '{{\"text\":\"deploy ok\"}}' {v}"


# name, accepted value classes ("url" = URL-safe, "sym" = other symbols, "sp" = spaces),
# weight. Chat prose is weighted up: that is how most secrets reach an agent.
ANY = {"url", "sym", "sp"}
NOSP = {"url", "sym"}
URL = {"url"}
PW, TOK, BOTH = {"pw"}, {"tok"}, {"pw", "tok"}
# A PIN only turns up where a person would write one down: chat, notes, a vault.
ALL = {"pw", "tok", "pin"}
# Forms that put the value in a URI: a typed password goes in percent-encoded, as a
# person who read the driver's docs would write it, and the encoded string is the secret.
ENCODED = {"psql uri", "mongo uri", "url userinfo", "curl -u"}
FORMS: list[tuple[str, Form, set[str], int, set[str]]] = [
    ("chat en", chat_en, ANY, 5, ALL),
    ("chat zh", chat_zh, ANY, 3, ALL),
    ("chat ja", chat_ja, ANY, 3, ALL),
    ("chat ko", chat_ko, ANY, 2, ALL),
    ("chat es", chat_es, ANY, 2, ALL),
    ("chat pt", chat_pt, ANY, 2, ALL),
    ("chat de", chat_de, ANY, 2, ALL),
    ("chat fr", chat_fr, ANY, 2, ALL),
    ("chat ru", chat_ru, ANY, 2, ALL),
    ("chat hinglish", chat_hi, ANY, 2, ALL),
    ("chat story", chat_story, ANY, 2, ALL),
    ("chat code block", chat_block, ANY, 2, ALL),
    ("dotenv", dotenv, NOSP, 2, BOTH),
    (".env.example", env_example, NOSP, 1, BOTH),
    ("shell history", shell_hist, NOSP, 2, BOTH),
    ("docker login -p", docker_login, NOSP, 1, BOTH),
    ("psql uri", psql_uri, NOSP, 1, PW),
    ("mysql -p", mysql_p, NOSP, 1, PW),
    ("mongo uri", mongo_uri, NOSP, 1, PW),
    ("ssh config", ssh_config, NOSP, 1, PW),
    ("kubectl --from-literal", kubectl_literal, NOSP, 1, BOTH),
    ("gh secret set", gh_secret, ANY, 1, BOTH),
    ("vault kv get", vault_out, ANY, 1, ALL),
    ("aws credentials file", aws_profile, NOSP, 1, BOTH),
    ("az/gcloud cli", gcloud_azure, NOSP, 1, BOTH),
    ("terraform", terraform, ANY, 1, BOTH),
    ("pulumi", pulumi, NOSP, 1, BOTH),
    ("ansible", ansible, ANY, 1, BOTH),
    ("k8s secret", k8s_secret, ANY, 1, BOTH),
    ("helm values", helm_values, ANY, 1, BOTH),
    ("compose", compose, NOSP, 1, BOTH),
    ("systemd", systemd, NOSP, 1, BOTH),
    ("procfile", procfile, URL, 1, BOTH),
    ("json", json_deep, ANY, 1, BOTH),
    ("yaml", yaml_deep, ANY, 1, BOTH),
    ("toml", toml_cfg, ANY, 1, BOTH),
    ("ini", ini_cfg, NOSP, 1, BOTH),
    ("xml", xml_cfg, NOSP, 1, BOTH),
    ("spring properties", spring, NOSP, 1, BOTH),
    ("appsettings.json", appsettings, ANY, 1, BOTH),
    ("rails credentials", rails_creds, NOSP, 1, BOTH),
    ("django settings", django, ANY, 1, BOTH),
    ("laravel env", laravel_env, NOSP, 1, BOTH),
    ("go", go_code, ANY, 1, BOTH),
    ("rust", rust_code, ANY, 1, BOTH),
    ("swift", swift_code, ANY, 1, BOTH),
    ("kotlin", kotlin_code, ANY, 1, BOTH),
    ("c#", csharp_code, ANY, 1, BOTH),
    ("php", php_code, ANY, 1, BOTH),
    ("python", python_code, ANY, 1, BOTH),
    ("js/ts", js_code, ANY, 1, BOTH),
    ("sql", sql, ANY, 1, BOTH),
    ("json log", json_log, NOSP, 1, TOK),
    ("http dump", http_dump, NOSP, 1, TOK),
    ("stack trace", stack_trace, ANY, 1, BOTH),
    ("diff", diff_hunk, NOSP, 1, BOTH),
    ("markdown table", md_table, ANY, 1, ALL),
    ("markdown list", md_list, ANY, 1, ALL),
    ("csv", csv_row, NOSP, 1, BOTH),
    ("notebook", notebook, ANY, 1, BOTH),
    ("postman", postman, ANY, 1, TOK),
    (".http file", http_file, NOSP, 1, TOK),
    ("curl -H", curl_h, NOSP, 1, TOK),
    ("curl -u", curl_u, NOSP, 1, BOTH),
    ("url userinfo", url_userinfo, NOSP, 1, PW),
    ("url query", url_query, URL, 1, TOK),
]
WEBHOOK_FORMS: list[tuple[str, Form]] = [
    ("chat en", chat_en),
    ("chat ja", chat_ja),
    ("dotenv", dotenv),
    ("yaml", yaml_deep),
    ("webhook curl", webhook_post),
    ("chat de", chat_de),
]


def value_class(shown: str) -> str:
    if " " in shown:
        return "sp"
    return "url" if re.fullmatch(r"[A-Za-z0-9._~-]+", shown) else "sym"


def secrets() -> list[dict[str, str]]:
    """Every kind once, a random third of them again, and most typed passwords again."""
    ks = kinds()
    typed = [k for k in ks if k.role == "pw"]
    # Typed passwords get a third turn: they are what people paste most and shape least.
    order = ks + R.sample(ks, len(ks) // 3) + R.sample(typed, len(typed) * 2 // 3)
    out: list[dict[str, str]] = []
    unused = [f[0] for f in FORMS]
    hooks = 0
    for k in order:
        v = value(k.shape)
        if k.label in WEBHOOKS:
            name, form = WEBHOOK_FORMS[hooks % len(WEBHOOK_FORMS)]
            hooks += 1
            shown = WEBHOOKS[k.label].format(v=v)
        else:
            cls = value_class(v)
            fits = [f for f in FORMS if cls in f[2] and k.role in f[4]]
            fresh = [f for f in fits if f[0] in unused]
            if fresh and R.random() < 0.5:
                name, form = fresh[0][:2]
            else:
                # A typed password is most often a database or login password: weight its forms.
                weights = [f[3] * (4 if f[4] == PW else 1) for f in fits]
                name, form = R.choices(fits, weights=weights)[0][:2]
            if name in unused:
                unused.remove(name)
            if name in ENCODED:
                v = quote(v, safe="")
            shown = v
        text = form(k, shown)
        assert v in text, (k.label, name)
        out.append({"kind": f"{k.label} [{name}]", "text": text, "secret": v})
    return out


# ---------------------------------------------------------------- look-alikes
# Texts that look like they hold a secret and do not: each must come out unchanged.


def hx(n: int) -> str:
    return rs("0123456789abcdef", n)


def b64s(n: int) -> str:
    return base64.b64encode(R.randbytes(n)).decode()


def git_contexts() -> list[tuple[str, str]]:
    a, b, c = hx(40), hx(40), hx(40)
    return [
        (
            "git log --oneline",
            "\n".join(f"{hx(7)} {m}" for m in ("fix retry", "bump deps", "docs")),
        ),
        ("git show header", f"commit {a}\nAuthor: Mei Lin <mei@example.org>\nDate:   Fri Dec 4\n"),
        (
            "git rebase todo",
            f"pick {a[:7]} add parser\nsquash {b[:7]} fixup parser\npick {c[:7]} tests\n",
        ),
        (
            "git bisect",
            f"Bisecting: 12 revisions left to test after this (roughly 4 steps)\n[{a}] wip\n",
        ),
        (
            "git reflog",
            f"{a[:7]} HEAD@{{0}}: checkout: moving from main to feat/x\n{b[:7]} HEAD@{{1}}: pull\n",
        ),
        ("git cherry-pick", f"$ git cherry-pick {a}\n[release/2.3 {b[:7]}] Fix timezone bug\n"),
        ("git describe", f"$ git describe --tags\nv3.4.1-17-g{a[:9]}\n"),
        (
            "git merge fast-forward",
            f"Updating {a[:7]}..{b[:7]}\nFast-forward\n src/app.py | 4 ++--\n",
        ),
        ("github commit url", f"see https://github.com/acme/api/commit/{a} for the fix"),
        ("git submodule status", f" {a} vendor/libfoo (v1.2.0)\n+{b} vendor/libbar (heads/main)\n"),
        ("git blame", f"{a[:8]} (Ana Souza 2026-03-02 14:11:09 +0100 42)     return cfg\n"),
        ("chat about a commit", f"el bug entró en {a[:10]}, ¿puedes revertir ese commit?"),
    ]


def digests() -> list[tuple[str, str]]:
    return [
        ("sha256sum output", f"{hx(64)}  node-v22.11.0-linux-x64.tar.xz\n"),
        ("SHA256SUMS file", "\n".join(f"{hx(64)}  app_{o}.tar.gz" for o in ("linux", "darwin"))),
        ("docker image digest", f"FROM python:3.12-slim@sha256:{hx(64)}\n"),
        ("docker pull output", f"Digest: sha256:{hx(64)}\nStatus: Downloaded newer image\n"),
        (
            "homebrew formula sha256",
            f'  url "https://x.org/tool-1.4.tar.gz"\n  sha256 "{hx(64)}"\n',
        ),
        ("maven sha1 file", f"{hx(40)}  guava-33.2.1-jre.jar"),
        ("md5 in ETag header", f'HTTP/1.1 200 OK\nETag: "{hx(32)}"\nContent-Length: 5120\n'),
        ("github actions pinned sha", f"      - uses: actions/checkout@{hx(40)} # v4.2.2\n"),
        (
            "nix fetchurl hash",
            f'  src = fetchurl {{ url = "..."; hash = "sha256-{b64s(32)}"; }};\n',
        ),
        ("terraform lock hash", f'  hashes = [\n    "h1:{b64s(32)}",\n    "zh:{hx(64)}",\n  ]\n'),
    ]


def lockfiles() -> list[tuple[str, str]]:
    return [
        (
            "package-lock integrity",
            f'"node_modules/react": {{\n  "version": "18.3.1",\n'
            f'  "integrity": "sha512-{b64s(64)}"\n}}',
        ),
        (
            "yarn.lock entry",
            f'lodash@^4.17.21:\n  version "4.17.21"\n  integrity sha512-{b64s(64)}\n',
        ),
        (
            "pnpm-lock resolution",
            f"  /zod@3.23.8:\n    resolution: {{integrity: sha512-{b64s(64)}}}\n",
        ),
        (
            "Cargo.lock checksum",
            f'[[package]]\nname = "serde"\nversion = "1.0.210"\nchecksum = "{hx(64)}"\n',
        ),
        (
            "poetry.lock files",
            f'files = [\n    {{file = "idna-3.10.tar.gz", hash = "sha256:{hx(64)}"}},\n]\n',
        ),
        (
            "uv.lock wheel",
            f'wheels = [{{ url = "https://files/x.whl", hash = "sha256:{hx(64)}" }}]',
        ),
        (
            "go.sum",
            f"golang.org/x/net v0.30.0 h1:{b64s(32)}\n"
            f"golang.org/x/net v0.30.0/go.mod h1:{b64s(32)}\n",
        ),
        ("composer.lock shasum", f'"dist": {{"type": "zip", "shasum": "{hx(40)}"}}'),
        (
            "Pipfile.lock hashes",
            f'"requests": {{"hashes": ["sha256:{hx(64)}"], "version": "==2.32.3"}}',
        ),
        ("flake.lock narHash", f'"locked": {{"narHash": "sha256-{b64s(32)}", "rev": "{hx(40)}"}}'),
        ("requirements --hash", f"certifi==2024.8.30 \\\n    --hash=sha256:{hx(64)}\n"),
    ]


def ids() -> list[tuple[str, str]]:
    return [
        ("request id in json log", json.dumps({"level": "info", "request_id": uid(), "ms": 41})),
        ("trace id header", f"traceparent: 00-{hx(32)}-{hx(16)}-01"),
        ("order id in chat", f"order {uid()} still shows pending, can you check the webhook logs?"),
        (
            "X-Request-ID in curl -v",
            f"< HTTP/2 500\n< x-request-id: {uid()}\n< content-type: text/html\n",
        ),
        ("correlation id in stack trace", f"ERROR [corr={uid()}] payment failed: card_declined\n"),
        ("k8s pod uid", f'  uid: {uid()}\n  resourceVersion: "{R.randint(10**6, 10**7)}"\n'),
        ("sql rows with uuid keys", f"INSERT INTO users (id, email) VALUES ('{uid()}', 'a@b.io');"),
        ("idempotency key header", f"Idempotency-Key: {uid()}"),
        ("sentry event id", f"Sentry captured event {hx(32)}"),
        ("ulid ids", f"job 01J{rs('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 23)} finished in 3.2s"),
        ("docker container id", f"$ docker ps -q --no-trunc\n{hx(64)}\n"),
    ]


def resources() -> list[tuple[str, str]]:
    acct = "".join(R.choice(string.digits) for _ in range(12))
    return [
        ("iam role arn", f"RoleArn: arn:aws:iam::{acct}:role/ci-deploy"),
        (
            "secrets manager arn",
            f"arn:aws:secretsmanager:eu-west-1:{acct}:secret:prod/db-{rs(ALNUM, 6)}",
        ),
        (
            "ec2 and vpc ids",
            f"instance i-0{hx(16)} in vpc-0{hx(16)}, subnet-0{hx(16)}, sg-0{hx(16)}",
        ),
        (
            "azure resource id",
            f"/subscriptions/{uid()}/resourceGroups/rg-prod/providers/"
            "Microsoft.KeyVault/vaults/kv-prod",
        ),
        ("gcp secret resource name", "projects/acme-prod/secrets/stripe-webhook/versions/7"),
        ("kms key arn", f"arn:aws:kms:us-east-1:{acct}:key/{uid()}"),
        ("cloudfront distribution id", f"Distribution E{rs(UPPER, 13)} is Deployed"),
        ("ami id", f'  image_id = "ami-0{hx(16)}"'),
    ]


def placeholders() -> list[tuple[str, str]]:
    return [
        ("angle placeholder", 'export OPENAI_API_KEY="<your-key>"'),
        ("xxxx placeholder", "STRIPE_SECRET=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx"),
        (
            "shell var reference",
            'curl -H "Authorization: Bearer ${API_TOKEN}" https://api.example.com',
        ),
        ("changeme default", "POSTGRES_PASSWORD=changeme"),
        ("TODO value", "SENDGRID_KEY=TODO  # ask Priya for the real one"),
        ("your_api_key_here", "api_key = 'your_api_key_here'"),
        ("helm template ref", "password: {{ .Values.db.password | quote }}"),
        ("github secrets expression", "  env:\n    TOKEN: ${{ secrets.DEPLOY_TOKEN }}\n"),
        ("python format placeholder", 'dsn = "postgres://%(user)s:%(password)s@db/app"'),
        ("docker secret file path", "DB_PASSWORD_FILE=/run/secrets/db_password"),
        ("vault path reference", "password: vault:secret/data/prod/db#password"),
        ("replace me", "JWT_SECRET=REPLACE_ME_WITH_A_LONG_RANDOM_STRING"),
        ("empty .env.example", "# .env.example\nAPI_KEY=\nAPI_SECRET=\nDB_PASSWORD=\n"),
        ("dummy in docs", "Use `sk-...` as shown; the real key lives in your dashboard."),
        ("spring placeholder", "app.secret=${APP_SECRET:}"),
        (
            "k8s secretKeyRef",
            "valueFrom:\n  secretKeyRef:\n    name: db-creds\n    key: password\n",
        ),
    ]


def masked() -> list[tuple[str, str]]:
    return [
        ("masked key in dashboard", "Secret key: sk_live_••••••••••••4f2a  (created Dec 1)"),
        ("asterisk mask", "password: ********"),
        ("aws console mask", "Access key ****************WQ7N   Active   92 days"),
        ("redacted marker", "Authorization: Bearer [REDACTED]"),
        ("last four", "Token ending in …a9f2 was revoked at 14:02"),
        (
            "gh secret list",
            "NAME             UPDATED\nDEPLOY_TOKEN     about 2 days ago\n"
            "NPM_TOKEN        about 3 months ago\n",
        ),
    ]


def public_keys() -> list[tuple[str, str]]:
    return [
        (
            "paddle client-side token",
            f"// public, safe in the browser\nPaddle.Initialize({{ token: 'live_{hx(27)}' }})",
        ),
        (
            "clerk publishable key",
            "NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY=pk_live_"
            + base64.b64encode(b"clerk.acme-shop.io$").decode(),
        ),
        (
            "posthog public project key",
            f"posthog.init('phc_{rs(ALNUM, 43)}', {{ api_host: 'https://eu.i.posthog.com' }})",
        ),
        ("recaptcha site key", f'<div class="g-recaptcha" data-sitekey="6Lc{rs(B64U, 37)}"></div>'),
        (
            "turnstile site key",
            f'<div class="cf-turnstile" data-sitekey="0x4AAAAAAA{rs(B64U, 14)}"></div>',
        ),
        ("hcaptcha sitekey", f'<div class="h-captcha" data-sitekey="{uid()}"></div>'),
        (
            "mapbox public token named public",
            f"MAPBOX_PUBLIC_TOKEN=pk.eyJ1Ijoi{rs(B64U, 40)}.{rs(B64U, 22)}",
        ),
        ("vapid public key", f"VAPID_PUBLIC_KEY=B{rs(B64U, 86)}"),
        (
            "wireguard peer public key",
            f"[Peer]\nPublicKey = {b64s(32)}\nAllowedIPs = 10.0.0.2/32\n",
        ),
        ("minisign public key", f"untrusted comment: minisign public key\nRWQ{b64s(39)[:53]}\n"),
    ]


def content_hashes() -> list[tuple[str, str]]:
    return [
        ("webpack asset names", f"main.{hx(8)}.js   212 KiB\nvendors.{hx(20)}.chunk.js  1.1 MiB\n"),
        ("next.js build id", f"Build ID: {rs(B64U, 21)}\n○ /about  1.2 kB\n"),
        ("ipfs cid", f"ipfs://bafybei{rs('abcdefghijklmnopqrstuvwxyz234567', 52)}"),
        ("cache key in ci log", f"Cache restored from key: Linux-pnpm-store-{hx(64)}"),
        ("vite manifest", json.dumps({"index.html": {"file": f"assets/index-{rs(B64U, 8)}.js"}})),
        ("sourcemap mappings", '"mappings": "AAAA,SAASA,IAAI,CAACC,CAAC,EAAE;AAC1B,OAAOA"'),
        ("bazel action digest", f"action digest: {hx(64)}/142"),
    ]


def b64_plain() -> list[tuple[str, str]]:
    enc = lambda s: base64.b64encode(s.encode()).decode()  # noqa: E731
    return [
        (
            "base64 of a greeting",
            f'assert decode("{enc("Hello from the test suite!")}") == "Hello from the test suite!"',
        ),
        (
            "configmap binaryData of text",
            f"binaryData:\n  motd.txt: {enc('Welcome to the staging cluster. Be nice.')}\n",
        ),
        ("base64 json config", f"CONFIG_B64={enc(json.dumps({'theme': 'dark', 'lang': 'pt-BR'}))}"),
        (
            "data uri svg",
            '<img src="data:image/svg+xml;base64,'
            + enc("<svg xmlns='http://www.w3.org/2000/svg'/>")
            + '">',
        ),
        (
            "base64 csv fixture",
            f"fixture = b64decode('{enc('id,name' + chr(10) + '1,Ana' + chr(10))}')",
        ),
        ("basic auth of placeholder", f"# example only: {enc('username:password')}"),
    ]


def code_words() -> list[tuple[str, str]]:
    return [
        ("password_field", "password_field = forms.CharField(widget=forms.PasswordInput)"),
        ("tokenize()", "tokens = tokenizer.tokenize(text)\nprint(len(tokens))"),
        ("max_tokens", "resp = client.chat(model=m, messages=msgs, max_tokens=4096)"),
        ("key=lambda", "rows.sort(key=lambda x: x.created_at, reverse=True)"),
        ("get_api_key function", 'def get_api_key() -> str:\n    return os.environ["API_KEY"]\n'),
        ("secret presence check", "if not secret:\n    raise ConfigError('missing secret')"),
        ("password min length const", "PASSWORD_MIN_LENGTH = 12\nPASSWORD_MAX_AGE_DAYS = 90"),
        ("token type constant", 'token_type = "Bearer"\nexpires_in = 3600'),
        ("optional api_key field", "class Settings(BaseModel):\n    api_key: str | None = None\n"),
        ("keyring lookup", 'pw = keyring.get_password("backup", getpass.getuser())'),
        ("passwordless flag", "auth:\n  passwordless: true\n  otp_length: 6\n"),
        ("secret_key_ref in go", 'ref := corev1.SecretKeySelector{Key: "password"}'),
        ("api key header name", 'const API_KEY_HEADER = "X-Api-Key";'),
        (
            "password hash call",
            "hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=12))",
        ),
        ("access token ttl", "ACCESS_TOKEN_TTL = timedelta(minutes=15)"),
    ]


def i18n() -> list[tuple[str, str]]:
    return [
        (
            "i18n en",
            json.dumps(
                {
                    "auth.password.reset": "Reset your password",
                    "auth.token.expired": "Your session expired",
                }
            ),
        ),
        ("i18n ja", 'password_prompt: "パスワードを入力してください"'),
        ("i18n de", 'msgid "Forgot password?"\nmsgstr "Passwort vergessen?"'),
        ("i18n fr", '"password.tooShort": "Le mot de passe doit contenir au moins 12 caractères"'),
        ("i18n es", "password_mismatch = Las contraseñas no coinciden"),
        ("i18n ko", '"apiKey.label": "API 키"'),
        ("i18n zh", '"secret.hint": "请妥善保管您的密钥"'),
        ("i18n ru", '<string name="password_hint">Введите пароль</string>'),
    ]


def misc() -> list[tuple[str, str]]:
    return [
        ("versions", "Python 3.12.7, Django 5.1.3, psycopg 3.2.3, node v22.11.0"),
        ("semver with build metadata", "version: 1.0.0-rc.2+build.5179.sha.9f2c1e0"),
        ("iso timestamps", "2026-12-06T22:14:03.551Z  started\n2026-12-06T22:14:09.102Z  done\n"),
        (
            "css colours",
            ":root { --bg: #0f172a; --fg: #e2e8f0; --accent: rgba(99, 102, 241, 0.8); }",
        ),
        (
            "tailwind classes",
            '<button class="px-4 py-2 rounded-lg bg-indigo-600 hover:bg-indigo-500">',
        ),
        ("css module classes", f'<div class="Card_root__{rs(B64U, 5)} css-{rs(LOWER, 7)}">'),
        (
            "gpg fingerprint",
            "pub   ed25519 2024-03-01 [SC]\n      " + hx(40).upper() + "\nuid  Mei Lin\n",
        ),
        (
            "gpg fingerprint spaced",
            "Primary key fingerprint: " + " ".join(hx(4).upper() for _ in range(10)),
        ),
        (
            "ssh ed25519 public key",
            f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b64s(32)[:43]} mei@laptop",
        ),
        ("ssh rsa authorized_keys", f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{b64s(300)} deploy@ci"),
        ("ssh host key fingerprint", f"ED25519 key fingerprint is SHA256:{b64s(32)[:43]}."),
        ("known_hosts line", f"github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b64s(32)[:43]}"),
        (
            "aws docs example keys",
            "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n"
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
        ),
        ("stripe test card", "use card 4242 4242 4242 4242, any future date, any CVC"),
        ("example iban", "IBAN: DE89 3704 0044 0532 0130 00 (example from the docs)"),
        ("phone and tracking numbers", "call +34 612 345 678; tracking 1Z999AA10123456784"),
        ("cron expression", "schedule: '*/15 3-5 * * 1-5'"),
        ("slack channel ids", f"posting to C0{rs(UPPER, 9)} as U0{rs(UPPER, 9)}"),
    ]


JWT_IO = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0"
    "IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)


def doc_jwts() -> list[tuple[str, str]]:
    return [
        ("jwt.io example in readme", f"## Auth\n\nSend a JWT, for example:\n\n    {JWT_IO}\n"),
        ("jwt.io example in test", f'EXAMPLE = "{JWT_IO}"  # the jwt.io sample token\n'),
        ("jwt.io example in chat", f"what does the sample token on jwt.io decode to? {JWT_IO}"),
    ]


def lookalikes() -> list[dict[str, str]]:
    groups = (
        git_contexts,
        digests,
        lockfiles,
        ids,
        resources,
        placeholders,
        masked,
        public_keys,
        content_hashes,
        b64_plain,
        code_words,
        i18n,
        misc,
        doc_jwts,
    )
    return [{"kind": kind, "text": text} for g in groups for kind, text in g()]


def main() -> None:
    secs = secrets()
    looks = lookalikes()
    data = {
        "about": (
            f"Seventh blind corpus, written by benchmarks/make_secrets_blind7.py with "
            f"random.Random({SEED}) and the standard library only, from general knowledge of "
            "vendors' key shapes and where people paste them. No redactor code, tests or earlier "
            "corpora texts were consulted; the kinds avoid the earlier corpora's kind names. "
            "All values are random fakes."
        ),
        "secrets": secs,
        "lookalikes": looks,
    }
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    forms = {s["kind"].rsplit(" [", 1)[1] for s in secs}
    kinds_ = {s["kind"].rsplit(" [", 1)[0] for s in secs}
    print(
        f"{len(secs)} secrets, {len(kinds_)} kinds, {len(forms)} forms, "
        f"{len(looks)} look-alikes of {len({x['kind'] for x in looks})} kinds"
    )


if __name__ == "__main__":
    main()
