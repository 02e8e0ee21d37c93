"""Write benchmarks/data/secrets_blind5.json: a fifth blind corpus of fake credentials.

Made with the standard library only, from general knowledge of how vendors shape
their keys and where people paste them, without reading brain's redaction rules or
the earlier corpora's texts (only their kind names, so as not to repeat them).
Every value is random; none is a real credential.

Run: ``python benchmarks/make_secrets_blind5.py``.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from pathlib import Path

SEED = 5_271_903
R = random.Random(SEED)
OUT = Path(__file__).parent / "data" / "secrets_blind5.json"

ALNUM = string.ascii_letters + string.digits
LOWER = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
WORDS = (
    "amber basin cedar delta ember fable garnet harbor island jasper kettle lantern "
    "meadow nectar orchid pepper quartz raven saddle timber umber velvet willow yonder"
).split()


def rs(n: int, alphabet: str = ALNUM) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def hx(n: int) -> str:
    return rs(n, HEX)


def uuid() -> str:
    h = hx(32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def b64(nbytes: int) -> str:
    return base64.b64encode(bytes(R.randrange(256) for _ in range(nbytes))).decode()


def b64url(nbytes: int) -> str:
    return (
        base64.urlsafe_b64encode(bytes(R.randrange(256) for _ in range(nbytes)))
        .decode()
        .rstrip("=")
    )


def jwt() -> str:
    head = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    body = json.dumps({"sub": rs(10, LOWER), "iat": R.randrange(1_700_000_000, 1_800_000_000)})
    return f"{head}.{base64.urlsafe_b64encode(body.encode()).decode().rstrip('=')}.{b64url(32)}"


def pw() -> str:
    return rs(6) + R.choice("!#%^*-_+") + rs(7) + R.choice("@$&~") + rs(3)


# (kind label, variable name, value maker, key name in code)
VENDORS: list[tuple[str, str, Callable[[], str]]] = [
    ("coda api token", "CODA_API_TOKEN", uuid),
    ("smartsheet access token", "SMARTSHEET_ACCESS_TOKEN", lambda: rs(37)),
    ("wrike permanent token", "WRIKE_TOKEN", lambda: "eyJ0dCI6InAiLCJhbGci" + rs(120)),
    ("pipedrive api token", "PIPEDRIVE_API_TOKEN", lambda: hx(40)),
    ("close crm api key", "CLOSE_API_KEY", lambda: "api_" + rs(22) + "." + rs(22)),
    ("zoho oauth refresh token", "ZOHO_REFRESH_TOKEN", lambda: f"1000.{hx(32)}.{hx(32)}"),
    ("mailerlite api token", "MAILERLITE_API_TOKEN", jwt),
    ("convertkit api secret", "CONVERTKIT_API_SECRET", lambda: rs(43, ALNUM + "_-")),
    ("customer.io app api key", "CUSTOMERIO_APP_API_KEY", lambda: hx(32)),
    ("klaviyo private api key", "KLAVIYO_PRIVATE_KEY", lambda: "pk_" + hx(34)),
    ("iterable api key", "ITERABLE_API_KEY", lambda: hx(32)),
    ("braze rest api key", "BRAZE_REST_API_KEY", uuid),
    ("pushover app token", "PUSHOVER_TOKEN", lambda: "a" + rs(29, LOWER)),
    ("pushbullet access token", "PUSHBULLET_TOKEN", lambda: "o." + rs(32)),
    ("ntfy access token", "NTFY_TOKEN", lambda: "tk_" + rs(29, LOWER)),
    ("gotify app token", "GOTIFY_APP_TOKEN", lambda: "A" + rs(14, ALNUM + ".-_")),
    ("infobip api key", "INFOBIP_API_KEY", lambda: f"{hx(32)}-{uuid()}"),
    ("telnyx api key", "TELNYX_API_KEY", lambda: "KEY" + hx(32).upper() + "_" + rs(22)),
    ("africastalking api key", "AT_API_KEY", lambda: "atsk_" + hx(64)),
    ("msg91 auth key", "MSG91_AUTH_KEY", lambda: rs(6, "0123456789") + "A" + hx(16)),
    ("clicksend api key", "CLICKSEND_API_KEY", lambda: hx(8).upper() + "-" + uuid().upper()),
    ("mailersend api token", "MAILERSEND_API_TOKEN", lambda: "mlsn." + hx(64)),
    ("smtp2go api key", "SMTP2GO_API_KEY", lambda: "api-" + hx(32).upper()),
    ("elastic email api key", "ELASTICEMAIL_API_KEY", lambda: hx(96).upper()),
    ("loops api key", "LOOPS_API_KEY", lambda: hx(32)),
    ("here maps api key", "HERE_API_KEY", lambda: rs(43, ALNUM + "-_")),
    ("tomtom api key", "TOMTOM_API_KEY", lambda: rs(32)),
    ("geoapify api key", "GEOAPIFY_KEY", lambda: hx(32)),
    ("opencage api key", "OPENCAGE_KEY", lambda: hx(32)),
    ("jina api key", "JINA_API_KEY", lambda: "jina_" + hx(32) + rs(28)),
    ("nomic api key", "NOMIC_API_KEY", lambda: "nk-" + rs(43, ALNUM + "-_")),
    ("deepinfra api key", "DEEPINFRA_API_KEY", lambda: rs(32)),
    ("sambanova api key", "SAMBANOVA_API_KEY", uuid),
    ("baseten api key", "BASETEN_API_KEY", lambda: rs(8) + "." + rs(32)),
    ("tavily api key", "TAVILY_API_KEY", lambda: "tvly-" + rs(32)),
    ("serpapi key", "SERPAPI_KEY", lambda: hx(64)),
    ("exa api key", "EXA_API_KEY", uuid),
    ("firecrawl api key", "FIRECRAWL_API_KEY", lambda: "fc-" + hx(32)),
    ("browserbase api key", "BROWSERBASE_API_KEY", lambda: "bb_live_" + rs(27, ALNUM + "-_")),
    ("e2b api key", "E2B_API_KEY", lambda: "e2b_" + hx(40)),
    ("llamacloud api key", "LLAMA_CLOUD_API_KEY", lambda: "llx-" + rs(48)),
    (
        "helicone api key",
        "HELICONE_API_KEY",
        lambda: "sk-helicone-" + rs(7, LOWER) + "-" + rs(7, LOWER) + "-" + rs(7, LOWER),
    ),
    ("portkey api key", "PORTKEY_API_KEY", lambda: rs(28, ALNUM + "+/")),
    ("weaviate cloud api key", "WEAVIATE_API_KEY", lambda: rs(40)),
    ("zilliz cloud api key", "ZILLIZ_TOKEN", lambda: hx(104)),
    ("chroma cloud api key", "CHROMA_API_KEY", lambda: "ck-" + rs(44)),
    ("turbopuffer api key", "TURBOPUFFER_API_KEY", lambda: "tpuf_" + rs(32)),
    ("fusionauth api key", "FUSIONAUTH_API_KEY", lambda: rs(64, ALNUM + "-_")),
    ("ory network api key", "ORY_API_KEY", lambda: "ory_pat_" + rs(32)),
    ("zitadel personal access token", "ZITADEL_PAT", lambda: rs(64, ALNUM + "-_")),
    ("authentik api token", "AUTHENTIK_TOKEN", lambda: rs(60)),
    ("casdoor client secret", "CASDOOR_CLIENT_SECRET", lambda: hx(40)),
    ("descope management key", "DESCOPE_MANAGEMENT_KEY", lambda: "K2" + rs(50)),
    ("kinde client secret", "KINDE_CLIENT_SECRET", lambda: rs(48)),
    ("logto app secret", "LOGTO_APP_SECRET", lambda: rs(32)),
    ("propelauth api key", "PROPELAUTH_API_KEY", lambda: hx(96)),
    ("drone ci token", "DRONE_TOKEN", lambda: rs(32)),
    ("woodpecker ci token", "WOODPECKER_TOKEN", jwt),
    ("semaphore ci api token", "SEMAPHORE_API_TOKEN", lambda: rs(20, LOWER)),
    ("appveyor api token", "APPVEYOR_TOKEN", lambda: "v2." + rs(20, LOWER)),
    ("bitrise personal access token", "BITRISE_PAT", lambda: rs(86, ALNUM + "-_")),
    ("codemagic api token", "CM_API_TOKEN", lambda: rs(43, ALNUM + "-_")),
    (
        "teamcity access token",
        "TEAMCITY_TOKEN",
        lambda: "eyJ0eXAiOiAiVENWMiJ9." + rs(36, ALNUM + "-_"),
    ),
    ("gocd access token", "GOCD_TOKEN", lambda: hx(32)),
    ("harbor robot secret", "HARBOR_ROBOT_SECRET", lambda: rs(32)),
    ("nexus repository password", "NEXUS_PASSWORD", pw),
    ("cloudsmith api key", "CLOUDSMITH_API_KEY", lambda: hx(40)),
    ("packagecloud token", "PACKAGECLOUD_TOKEN", lambda: hx(48)),
    ("gemfury push token", "FURY_PUSH_TOKEN", lambda: rs(20)),
    ("cocoapods trunk token", "COCOAPODS_TRUNK_TOKEN", lambda: hx(32)),
    ("chocolatey api key", "CHOCO_API_KEY", uuid),
    ("conan remote password", "CONAN_PASSWORD", pw),
    ("lightstep access token", "LIGHTSTEP_ACCESS_TOKEN", lambda: rs(84, ALNUM + "+/")),
    ("signalfx access token", "SFX_ACCESS_TOKEN", lambda: rs(22, ALNUM + "-_")),
    ("coralogix private key", "CORALOGIX_PRIVATE_KEY", lambda: "cxtp_" + rs(30)),
    ("mezmo ingestion key", "MEZMO_INGESTION_KEY", lambda: hx(32)),
    ("loggly customer token", "LOGGLY_TOKEN", uuid),
    ("papertrail api token", "PAPERTRAIL_API_TOKEN", lambda: rs(20)),
    ("instana api token", "INSTANA_API_TOKEN", lambda: rs(22, ALNUM + "-_")),
    ("appsignal push api key", "APPSIGNAL_PUSH_API_KEY", uuid),
    ("raygun api key", "RAYGUN_API_KEY", lambda: rs(22)),
    ("airbrake project key", "AIRBRAKE_PROJECT_KEY", lambda: hx(32)),
    ("honeybadger api key", "HONEYBADGER_API_KEY", lambda: "hbp_" + rs(36)),
    ("checkly api key", "CHECKLY_API_KEY", lambda: "cu_" + hx(32)),
    ("cronitor api key", "CRONITOR_API_KEY", lambda: hx(32)),
    ("statuspage api key", "STATUSPAGE_API_KEY", uuid),
    ("uptime kuma api key", "KUMA_API_KEY", lambda: "uk1_" + rs(40)),
    ("couchdb admin password", "COUCHDB_PASSWORD", pw),
    ("arangodb root password", "ARANGO_ROOT_PASSWORD", pw),
    ("surrealdb root password", "SURREAL_PASS", pw),
    ("fauna secret key", "FAUNA_SECRET", lambda: "fnA" + rs(37, ALNUM + "-_")),
    ("xata api key", "XATA_API_KEY", lambda: "xau_" + rs(32)),
    (
        "convex deploy key",
        "CONVEX_DEPLOY_KEY",
        lambda: (
            "prod:"
            + rs(8, string.ascii_lowercase)
            + "-"
            + rs(6, string.ascii_lowercase)
            + "-123|"
            + rs(60, ALNUM)
        ),
    ),
    ("pocketbase admin password", "PB_ADMIN_PASSWORD", pw),
    ("singlestore password", "SINGLESTORE_PASSWORD", pw),
    ("yugabyte password", "YB_PASSWORD", pw),
    ("memcached sasl password", "MEMCACHED_PASSWORD", pw),
    ("pulsar jwt token", "PULSAR_AUTH_TOKEN", jwt),
    ("activemq admin password", "ACTIVEMQ_PASSWORD", pw),
    ("emqx api secret", "EMQX_API_SECRET", lambda: rs(47, ALNUM)),
    ("hivemq cloud password", "HIVEMQ_PASSWORD", pw),
    ("redpanda sasl password", "REDPANDA_SASL_PASSWORD", pw),
    ("aiven api token", "AIVEN_TOKEN", lambda: rs(372, ALNUM + "+/")),
    ("meilisearch master key", "MEILI_MASTER_KEY", lambda: rs(43, ALNUM + "-_")),
    ("typesense admin api key", "TYPESENSE_API_KEY", lambda: rs(32)),
    ("opensearch admin password", "OPENSEARCH_INITIAL_ADMIN_PASSWORD", pw),
    ("milvus root password", "MILVUS_PASSWORD", pw),
    ("polkadot secret seed", "POLKADOT_SEED", lambda: "0x" + hx(64)),
    ("cardano signing key cborhex", "CARDANO_SKEY", lambda: "5820" + hx(64)),
    ("near private key", "NEAR_PRIVATE_KEY", lambda: "ed25519:" + rs(88, B58)),
    (
        "sui private key",
        "SUI_PRIVATE_KEY",
        lambda: "suiprivkey1" + rs(59, "qpzry9x8gf2tvdw0s3jn54khce6mua7l"),
    ),
    ("stellar secret seed", "STELLAR_SECRET", lambda: "S" + rs(55, B32)),
    ("xrp ledger secret", "XRPL_SECRET", lambda: "s" + rs(28, B58)),
    ("tezos secret key", "TEZOS_SECRET_KEY", lambda: "edsk" + rs(50, B58)),
    ("bitcoin core rpcpassword", "BTC_RPCPASSWORD", lambda: b64(24)),
    ("lnd admin macaroon hex", "LND_MACAROON", lambda: "0201036c6e6402f801" + hx(200)),
    ("bybit api secret", "BYBIT_API_SECRET", lambda: rs(36)),
    ("okx api secret", "OKX_SECRET_KEY", lambda: hx(32).upper()),
    ("kucoin api secret", "KUCOIN_API_SECRET", uuid),
    ("gate.io api secret", "GATE_API_SECRET", lambda: hx(64)),
    ("coingecko pro api key", "COINGECKO_API_KEY", lambda: "CG-" + rs(25)),
    ("tatum api key", "TATUM_API_KEY", lambda: "t-" + hx(24) + "-" + hx(32)),
    ("thirdweb secret key", "THIRDWEB_SECRET_KEY", lambda: rs(86, ALNUM + "-_")),
    ("circle api key", "CIRCLE_API_KEY", lambda: f"LIVE_API_KEY:{hx(32)}:{hx(32)}"),
    ("fastlane match password", "MATCH_PASSWORD", pw),
    (
        "fastlane session cookie",
        "FASTLANE_SESSION",
        lambda: "---\n- !ruby/object:HTTP::Cookie\n  name: myacinfo\n  value: DES" + hx(120),
    ),
    ("ios p12 certificate password", "P12_PASSWORD", pw),
    ("android signing key password", "ANDROID_KEY_PASSWORD", pw),
    ("huawei appgallery client secret", "AGC_CLIENT_SECRET", lambda: hx(64).upper()),
    ("epic online services client secret", "EOS_CLIENT_SECRET", lambda: rs(43, ALNUM + "+/")),
    ("playfab title secret key", "PLAYFAB_SECRET_KEY", lambda: rs(52).upper()),
    ("unity cloud build api key", "UCB_API_KEY", lambda: hx(32)),
    ("roblox open cloud api key", "ROBLOX_API_KEY", lambda: b64(120)),
    ("nakama server key", "NAKAMA_SERVER_KEY", lambda: rs(24)),
    ("itch.io api key", "BUTLER_API_KEY", lambda: rs(40)),
    ("curseforge api key", "CURSEFORGE_API_KEY", lambda: "$2a$10$" + rs(53, ALNUM + "./")),
    ("modrinth personal access token", "MODRINTH_TOKEN", lambda: "mrp_" + rs(36)),
    ("battle.net client secret", "BNET_CLIENT_SECRET", lambda: rs(32)),
    ("lichess api token", "LICHESS_TOKEN", lambda: "lip_" + rs(20)),
    ("osu api client secret", "OSU_CLIENT_SECRET", lambda: rs(40)),
    ("losant access secret", "LOSANT_ACCESS_SECRET", lambda: hx(64)),
    ("ubidots token", "UBIDOTS_TOKEN", lambda: "BBFF-" + rs(30)),
    ("thingsboard device access token", "TB_ACCESS_TOKEN", lambda: rs(20)),
    ("golioth device psk", "GOLIOTH_PSK", lambda: hx(32)),
    ("node-red credential secret", "NODE_RED_CREDENTIAL_SECRET", lambda: rs(32)),
    ("shelly cloud auth key", "SHELLY_AUTH_KEY", lambda: rs(72, ALNUM)),
    ("tasmota mqtt password", "TASMOTA_MQTT_PASSWORD", pw),
    (
        "zigbee2mqtt network key",
        "Z2M_NETWORK_KEY",
        lambda: "[" + ", ".join(str(R.randrange(256)) for _ in range(16)) + "]",
    ),
    ("esphome api encryption key", "ESPHOME_API_KEY", lambda: b64(32)),
    ("esphome ota password", "ESPHOME_OTA_PASSWORD", lambda: hx(32)),
    ("chirpstack api token", "CHIRPSTACK_API_TOKEN", jwt),
    ("opc ua user password", "OPCUA_PASSWORD", pw),
    ("kingsoft cloud secret key", "KSYUN_SECRET_KEY", lambda: rs(40, ALNUM + "/+")),
    ("jd cloud secret key", "JDC_SECRET_KEY", lambda: hx(32).upper()),
    ("selectel api token", "SELECTEL_TOKEN", lambda: rs(28) + "_" + rs(6, "0123456789")),
    ("timeweb cloud token", "TWC_TOKEN", jwt),
    ("civo api key", "CIVO_TOKEN", lambda: rs(50)),
    ("upcloud api password", "UPCLOUD_PASSWORD", pw),
    ("gcore permanent api token", "GCORE_PERMANENT_TOKEN", lambda: "1234$" + hx(128)),
    ("bunny.net api key", "BUNNY_API_KEY", lambda: uuid() + "-" + uuid()[:23]),
    ("leaseweb api key", "LEASEWEB_API_KEY", uuid),
    ("midtrans server key", "MIDTRANS_SERVER_KEY", lambda: "Mid-server-" + rs(24, ALNUM + "-_")),
    ("xendit secret key", "XENDIT_SECRET_KEY", lambda: "xnd_production_" + rs(50)),
    ("paymongo secret key", "PAYMONGO_SECRET_KEY", lambda: "sk_live_" + rs(24)),
    ("payu merchant salt", "PAYU_MERCHANT_SALT", lambda: rs(32)),
    ("cashfree secret key", "CASHFREE_SECRET_KEY", lambda: f"cfsk_ma_prod_{hx(32)}_{hx(8)}"),
    ("instamojo private auth token", "INSTAMOJO_AUTH_TOKEN", lambda: hx(32)),
    ("phonepe salt key", "PHONEPE_SALT_KEY", uuid),
    ("iyzico secret key", "IYZICO_SECRET_KEY", lambda: rs(32)),
    ("yookassa secret key", "YOOKASSA_SECRET_KEY", lambda: "live_" + rs(43, ALNUM + "-_")),
    ("cloudpayments api secret", "CLOUDPAYMENTS_API_SECRET", lambda: hx(32)),
    ("payfast passphrase", "PAYFAST_PASSPHRASE", lambda: "-".join(R.sample(WORDS, 4))),
    ("m-pesa daraja consumer secret", "MPESA_CONSUMER_SECRET", lambda: rs(16)),
    ("conekta private key", "CONEKTA_PRIVATE_KEY", lambda: "key_" + rs(27)),
    ("openpay private key", "OPENPAY_PRIVATE_KEY", lambda: "sk_" + hx(32)),
    ("authorize.net transaction key", "AUTHNET_TRANSACTION_KEY", lambda: rs(16)),
    ("nmi security key", "NMI_SECURITY_KEY", lambda: rs(32)),
    ("vipps subscription key", "VIPPS_SUBSCRIPTION_KEY", lambda: hx(32)),
    ("affirm private api key", "AFFIRM_PRIVATE_KEY", lambda: rs(32)),
    ("sumup api key", "SUMUP_API_KEY", lambda: "sup_sk_" + rs(32)),
    ("truelayer client secret", "TRUELAYER_CLIENT_SECRET", uuid),
    ("mangopay api key", "MANGOPAY_API_KEY", lambda: rs(50)),
    ("baserow database token", "BASEROW_TOKEN", lambda: rs(32)),
    ("nocodb api token", "NC_TOKEN", lambda: rs(40, ALNUM + "_")),
    ("directus static token", "DIRECTUS_TOKEN", lambda: rs(32, ALNUM + "-_")),
    (
        "storyblok management token",
        "STORYBLOK_OAUTH_TOKEN",
        lambda: rs(22) + "-" + rs(6, "0123456789") + "-" + rs(20),
    ),
    ("datocms full-access token", "DATOCMS_API_TOKEN", lambda: hx(30)),
    ("builder.io private key", "BUILDER_PRIVATE_KEY", lambda: "bpk-" + hx(32)),
    ("webflow api token", "WEBFLOW_API_TOKEN", lambda: hx(64)),
    ("wix api key", "WIX_API_KEY", lambda: "IST." + jwt()),
    ("bigcommerce access token", "BIGCOMMERCE_ACCESS_TOKEN", lambda: rs(31, LOWER)),
    ("woocommerce consumer secret", "WC_CONSUMER_SECRET", lambda: "cs_" + hx(40)),
    ("magento integration access token", "MAGENTO_ACCESS_TOKEN", lambda: rs(32, LOWER)),
    (
        "prestashop webservice key",
        "PS_WEBSERVICE_KEY",
        lambda: rs(32, string.ascii_uppercase + string.digits),
    ),
    ("ecwid secret token", "ECWID_SECRET_TOKEN", lambda: "secret_" + rs(32)),
    ("chargebee api key", "CHARGEBEE_API_KEY", lambda: "live_" + rs(34)),
    ("recurly private api key", "RECURLY_API_KEY", lambda: hx(32)),
    ("avalara license key", "AVATAX_LICENSE_KEY", lambda: hx(16).upper()),
    ("taxjar api token", "TAXJAR_API_KEY", lambda: hx(32)),
    ("shipengine api key", "SHIPENGINE_API_KEY", lambda: "TEST_" + rs(43, ALNUM + "/+")),
    ("aftership api key", "AFTERSHIP_API_KEY", lambda: "asat_" + hx(32)),
    ("shipstation api secret", "SHIPSTATION_API_SECRET", lambda: hx(32)),
    ("pandadoc api key", "PANDADOC_API_KEY", lambda: hx(40)),
    ("dropbox sign api key", "HELLOSIGN_API_KEY", lambda: hx(64)),
    ("cal.com api key", "CALCOM_API_KEY", lambda: "cal_live_" + hx(32)),
    ("daily.co api key", "DAILY_API_KEY", lambda: hx(64)),
    ("100ms app secret", "HMS_APP_SECRET", lambda: rs(64, ALNUM + "-_")),
    ("vimeo access token", "VIMEO_ACCESS_TOKEN", lambda: hx(32)),
    ("wistia api token", "WISTIA_API_TOKEN", lambda: hx(64)),
    ("imagekit private key", "IMAGEKIT_PRIVATE_KEY", lambda: "private_" + b64(21)),
    ("uploadcare secret key", "UPLOADCARE_SECRET_KEY", lambda: hx(20)),
    ("transloadit auth secret", "TRANSLOADIT_SECRET", lambda: hx(40)),
    ("imgix api key", "IMGIX_API_KEY", lambda: "ak_" + hx(64)),
    ("tinypng api key", "TINIFY_KEY", lambda: rs(32)),
    ("ipinfo token", "IPINFO_TOKEN", lambda: hx(14)),
    ("hunter.io api key", "HUNTER_API_KEY", lambda: hx(40)),
    ("zerobounce api key", "ZEROBOUNCE_API_KEY", lambda: hx(32)),
    ("front api token", "FRONT_API_TOKEN", jwt),
    ("help scout app secret", "HELPSCOUT_APP_SECRET", lambda: rs(32)),
    ("rootly api key", "ROOTLY_API_KEY", lambda: "rootly_" + hx(64)),
    ("firehydrant api key", "FIREHYDRANT_API_KEY", lambda: "fhb-" + hx(32)),
    ("squadcast refresh token", "SQUADCAST_REFRESH_TOKEN", lambda: hx(64)),
    ("splunk on-call api key", "VICTOROPS_API_KEY", uuid),
    ("sendbird api token", "SENDBIRD_API_TOKEN", lambda: hx(40)),
    ("appwrite api key", "APPWRITE_API_KEY", lambda: "standard_" + hx(256)),
    ("nhost admin secret", "NHOST_ADMIN_SECRET", lambda: rs(32, ALNUM + "!#")),
    ("parse server master key", "PARSE_MASTER_KEY", lambda: rs(40)),
]

FORMS: list[tuple[str, Callable[[str, str, str], str]]] = []


def form(name: str) -> Callable[[Callable[[str, str, str], str]], Callable[[str, str, str], str]]:
    def deco(fn: Callable[[str, str, str], str]) -> Callable[[str, str, str], str]:
        FORMS.append((name, fn))
        return fn

    return deco


def camel(var: str) -> str:
    parts = var.lower().split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


def snake(var: str) -> str:
    return var.lower()


@form("env")
def _env(var: str, val: str, label: str) -> str:
    return f"# {label}\nNODE_ENV=production\n{var}={val}\nLOG_LEVEL=info\n"


@form("shell export")
def _export(var: str, val: str, label: str) -> str:
    return f"$ export {var}='{val}'\n$ ./scripts/sync.sh --dry-run\n"


@form("YAML at depth")
def _yaml(var: str, val: str, label: str) -> str:
    return (
        f"services:\n  worker:\n    integrations:\n      {snake(var).split('_')[0]}:\n"
        f'        enabled: true\n        {camel(var)}: "{val}"\n        timeout: 30s\n'
    )


@form("k8s Secret stringData")
def _k8s(var: str, val: str, label: str) -> str:
    return (
        f"apiVersion: v1\nkind: Secret\nmetadata:\n"
        f"  name: app-{snake(var).split('_')[0]}\ntype: Opaque\nstringData:\n"
        f"  {var}: {val}\n"
    )


@form("JSON")
def _json(var: str, val: str, label: str) -> str:
    return json.dumps(
        {"name": "billing-sync", "settings": {camel(var): val, "retries": 3}}, indent=2
    )


@form("escaped JSON in a log line")
def _esc(var: str, val: str, label: str) -> str:
    inner = json.dumps({"event": "config_loaded", camel(var): val})
    return f"2026-11-02T08:14:55.201Z INFO loader payload={json.dumps(inner)}"


@form("TOML")
def _toml(var: str, val: str, label: str) -> str:
    return f'[integrations.{snake(var).split("_")[0]}]\nregion = "eu-1"\n{snake(var)} = "{val}"\n'


@form("INI")
def _ini(var: str, val: str, label: str) -> str:
    return (
        f"[{snake(var).split('_')[0]}]\nendpoint = https://api.example.org\n{snake(var)} = {val}\n"
    )


@form("HCL")
def _hcl(var: str, val: str, label: str) -> str:
    return (
        f'provider "{snake(var).split("_")[0]}" {{\n  region = "ap-south-1"\n'
        f'  {snake(var)} = "{val}"\n}}\n'
    )


@form("XML")
def _xml(var: str, val: str, label: str) -> str:
    return (
        f'<configuration>\n  <add key="{camel(var)}" value="{val}" />\n'
        f'  <add key="Timeout" value="30" />\n</configuration>\n'
    )


@form("Java properties")
def _props(var: str, val: str, label: str) -> str:
    return f"app.name=orders\n{snake(var).replace('_', '.')}={val}\nserver.port=8080\n"


@form("markdown table")
def _md(var: str, val: str, label: str) -> str:
    return (
        f"| Service | Variable | Value |\n|---|---|---|\n| {label} | `{var}` | `{val}` |\n"
        f"| region | `REGION` | `eu-west` |\n"
    )


@form("CLI flag")
def _flag(var: str, val: str, label: str) -> str:
    return f"$ sync-tool push --{snake(var).replace('_', '-')} {val} --verbose\n"


@form("CLI positional")
def _pos(var: str, val: str, label: str) -> str:
    return f"$ {snake(var).split('_')[0]}ctl auth login {val}\nLogged in.\n"


@form("curl header")
def _curl(var: str, val: str, label: str) -> str:
    return (
        f"curl -sS https://api.example.io/v2/items \\\n"
        f'  -H "Authorization: Bearer {val}" \\\n  -H "Accept: application/json"\n'
    )


@form("curl URL query")
def _curlq(var: str, val: str, label: str) -> str:
    return f'curl "https://api.example.io/v1/lookup?q=berlin&{snake(var)}={val}&limit=5"\n'


@form("Python SDK")
def _py(var: str, val: str, label: str) -> str:
    return (
        f'import vendor_sdk\n\nclient = vendor_sdk.Client(\n    {snake(var)}="{val}",\n'
        f"    timeout=10,\n)\n"
    )


@form("JS SDK")
def _js(var: str, val: str, label: str) -> str:
    return f"const client = new VendorClient({{\n  {camel(var)}: '{val}',\n  retries: 2,\n}});\n"


@form("Go SDK")
def _go(var: str, val: str, label: str) -> str:
    return (
        f'cfg := vendor.Config{{\n\tEndpoint: "https://api.example.com",\n'
        f'\t{camel(var)[0].upper() + camel(var)[1:]}: "{val}",\n}}\n'
    )


@form("Ruby configure")
def _rb(var: str, val: str, label: str) -> str:
    return f"Vendor.configure do |config|\n  config.{snake(var)} = '{val}'\nend\n"


@form("C# SDK")
def _cs(var: str, val: str, label: str) -> str:
    return (
        f"var options = new VendorOptions\n{{\n"
        f'    {camel(var)[0].upper() + camel(var)[1:]} = "{val}",\n}};\n'
    )


@form("PHP array")
def _php(var: str, val: str, label: str) -> str:
    return f"<?php\nreturn [\n    '{snake(var)}' => '{val}',\n    'debug' => false,\n];\n"


@form("code constant")
def _const(var: str, val: str, label: str) -> str:
    return f'// TODO move to vault\npub const {var}: &str = "{val}";\n'


@form("diff hunk")
def _diff(var: str, val: str, label: str) -> str:
    return (
        f"--- a/.env.staging\n+++ b/.env.staging\n@@ -3,2 +3,3 @@\n LOG_LEVEL=debug\n"
        f"-{var}=\n+{var}={val}\n PORT=3000\n"
    )


@form("stack trace")
def _trace(var: str, val: str, label: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/srv/app/jobs/sync.py", line 88, in run\n'
        f"    resp = client.fetch(token={val!r})\n"
        "vendor_sdk.errors.AuthError: 401 Unauthorized\n"
    )


@form("chat prose")
def _chat(var: str, val: str, label: str) -> str:
    return (
        f"ok so the {label} that finally worked is {val}"
        f" - I put it in 1Password too, can you retry the job?"
    )


@form("GitHub Actions")
def _gha(var: str, val: str, label: str) -> str:
    return (
        f"jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      {var}: {val}\n"
        f"    steps:\n      - run: make deploy\n"
    )


@form("GitLab CI")
def _glci(var: str, val: str, label: str) -> str:
    return f'variables:\n  {var}: "{val}"\ndeploy:\n  script:\n    - ./deploy.sh\n'


@form("systemd unit")
def _systemd(var: str, val: str, label: str) -> str:
    return f"[Service]\nExecStart=/usr/local/bin/worker\nEnvironment={var}={val}\nRestart=always\n"


@form("docker-compose")
def _compose(var: str, val: str, label: str) -> str:
    return (
        f"services:\n  app:\n    image: ghcr.io/acme/app:1.4.2\n    environment:\n"
        f"      - {var}={val}\n"
    )


@form("Java SDK")
def _java(var: str, val: str, label: str) -> str:
    return (
        f'VendorClient client = VendorClient.builder()\n    .{camel(var)}("{val}")\n    .build();\n'
    )


@form("nginx config")
def _nginx(var: str, val: str, label: str) -> str:
    return (
        f"location /upstream/ {{\n    proxy_pass https://api.example.net/;\n"
        f'    proxy_set_header X-Api-Key "{val}";\n}}\n'
    )


PASSWORDISH = {v[0] for v in VENDORS if v[2] is pw}


def conn_text(label: str, val: str) -> str:
    scheme = {"couchdb": "http", "arangodb": "http", "memcached": "memcache", "activemq": "tcp"}
    name = label.split()[0]
    return f"DATABASE_URL={scheme.get(name, name)}://admin:{val}@db.internal.example:5432/app\n"


def secrets() -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    order = list(range(len(FORMS)))
    R.shuffle(order)
    for i, (label, var, make) in enumerate(VENDORS):
        picks = [order[i % len(order)]]
        if i % 4 == 0:
            picks.append(order[(i * 7 + 3) % len(order)])
        for k in picks:
            name, fn = FORMS[k]
            val = make()
            if (
                label in PASSWORDISH
                and name in ("curl header", "CLI positional", "nginx config")
                and i % 2
            ):
                name, text = "connection string", conn_text(label, val)
            else:
                text = fn(var, val, label)
            out.append({"kind": f"{label} [{name}]", "text": text, "secret": val})
    return out


def lookalikes() -> list[dict[str, str]]:
    la: list[tuple[str, str]] = []
    for _ in range(6):
        la.append(
            (
                "git full sha",
                f"commit {hx(40)}\nAuthor: Sam Lee <sam@example.com>\n\n    fix: handle empty page",
            )
        )
    for _ in range(5):
        la.append(
            ("sha256 checksum", f"{hx(64)}  dist/app-1.{R.randrange(9)}.{R.randrange(20)}.tar.gz")
        )
    for _ in range(4):
        la.append(("docker image digest", f"image: ghcr.io/acme/api@sha256:{hx(64)}"))
    for _ in range(4):
        la.append(("npm integrity", f'"integrity": "sha512-{b64(64)}"'))
    for _ in range(5):
        la.append(
            (
                "request id uuid",
                f"2026-10-11T09:00:12Z WARN upstream slow request_id={uuid()} "
                f"latency_ms={R.randrange(900, 4000)}",
            )
        )
    for _ in range(3):
        la.append(("trace id hex", f"traceparent: 00-{hx(32)}-{hx(16)}-01"))
    placeholders = [
        "<your-api-key>",
        "YOUR_API_KEY_HERE",
        "${TAVILY_API_KEY}",
        "{{ .Values.apiKey }}",
        "${{ secrets.CHECKLY_API_KEY }}",
        "xxxxxxxxxxxxxxxxxxxxxxxx",
        "changeme",
        "<REDACTED>",
        "***",
        "%(MEILI_MASTER_KEY)s",
        "$(cat /run/secrets/payfast)",
        "os.environ['SERPAPI_KEY']",
        "process.env.FIRECRAWL_API_KEY",
        'env("XENDIT_SECRET_KEY")',
        "vault:secret/data/shop#midtrans_server_key",
        "op://Shared/Klaviyo/credential",
        "ENC[AES256_GCM,data:...,type:str]",
        "sk_live_...",
        "tvly-xxxxxxxxxxxxxxxx",
        "fc-YOUR_KEY",
    ]
    for i, ph in enumerate(placeholders):
        var, _ = VENDORS[(i * 11) % len(VENDORS)][1], None
        la.append((f"placeholder {i + 1}", f"{var}={ph}"))
    for _ in range(6):
        la.append(
            (
                "masked value",
                f"Key saved: ****************{rs(4)} (created {R.randrange(1, 28)} Oct 2026)",
            )
        )
    la.append(
        ("masked in table", f"| Name | Key |\n|---|---|\n| prod | `sk_live_••••••••{rs(4)}` |")
    )
    la.append(
        ("stripe publishable key named", f"NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_live_{rs(24)}")
    )
    la.append(("paymongo public key named", f"PAYMONGO_PUBLIC_KEY=pk_live_{rs(24)}"))
    la.append(("algolia search-only key named", f"ALGOLIA_SEARCH_ONLY_API_KEY={hx(32)}"))
    la.append(("recaptcha site key", f"RECAPTCHA_SITE_KEY=6L{rs(38, ALNUM + '-_')}"))
    la.append(("ssh public key", f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(43)} ops@bastion"))
    la.append(
        (
            "PEM public key",
            "-----BEGIN PUBLIC KEY-----\n"
            + b64(64)
            + "\n"
            + b64(30)
            + "\n-----END PUBLIC KEY-----",
        )
    )
    la.append(("stellar public key", f"Fund this account: G{rs(55, B32)}"))
    la.append(("ethereum address", f"send to 0x{hx(40)} on base"))
    la.append(("bitcoin address", f"bc1q{rs(38, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')}"))
    la.append(
        ("near account id", 'near view wrap.near ft_balance_of \'{"account_id": "alice.near"}\'')
    )
    la.append(("ios bundle id", "PRODUCT_BUNDLE_IDENTIFIER = com.example.shop.ios"))
    la.append(("playfab title id", "PLAYFAB_TITLE_ID=A1B2C"))
    la.append(("public mapbox-like token named public", f"MAP_PUBLIC_TOKEN=pk.{b64url(40)}"))
    code = [
        "api_key = os.environ.get('TELNYX_API_KEY')\nif not api_key:\n"
        "    raise SystemExit('missing TELNYX_API_KEY')",
        "def rotate_secret(client, secret_id: str) -> None:\n    client.rotate(secret_id)",
        "const token = await getToken();\nheaders.Authorization = `Bearer ${token}`;",
        'password = getpass.getpass("Password: ")',
        'if (apiKey == null || apiKey.isEmpty()) throw new IllegalStateException("apiKey");',
        "SECRET_KEY_LENGTH = 32\nTOKEN_TTL_SECONDS = 3600",
        "grep -rn 'api_key' src/ | wc -l",
        "# Set MEILI_MASTER_KEY in your .env before starting meilisearch",
        "kubectl create secret generic app --from-env-file=.env.prod",
        "The password must be at least 12 characters and contain a digit.",
        "token_count: 18234\nprompt_tokens: 1203\ncompletion_tokens: 411",
        "secretsmanager:GetSecretValue is denied for role ci-runner",
        "Use `fastlane match` with MATCH_PASSWORD from the CI secret store.",
        'export PAYFAST_PASSPHRASE="$(op read op://Shop/PayFast/passphrase)"',
        "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256",
        'private_key_path = "~/.ssh/id_ed25519"',
        "auth_token_header = 'X-Auth-Token'",
        "def test_invalid_api_key_returns_401(client):\n"
        "    assert client.get('/', headers={'X-Api-Key': 'bad'}).status_code == 401",
    ]
    for i, c in enumerate(code):
        la.append((f"code mentioning secret words {i + 1}", c))
    versions = [
        "Bumped meilisearch from 1.10.3 to 1.11.0",
        "node v22.11.0, npm 10.9.0, pnpm 9.12.3",
        "Released 2026.11.04-rc2 (build 48213)",
        "Go 1.23.3 linux/amd64",
        "requires openssl>=3.0.15,<4",
        "python 3.12.7 (main, Oct  1 2026, 08:52:12) [GCC 13.2.0]",
        "chart version 0.41.7, appVersion v2.8.1",
        "released on 2026-11-30 at 14:05:09 UTC",
        "cron: '17 3 * * 1-5'",
        'ETag: W/"' + hx(32) + '"',
    ]
    for i, v in enumerate(versions):
        la.append((f"version or date {i + 1}", v))
    misc = [
        ("color palette", "--primary: #1f6feb; --accent: #bf3989; --bg: #0d1117;"),
        (
            "base64 of innocent text",
            "echo " + base64.b64encode(b"hello from the release notes").decode() + " | base64 -d",
        ),
        (
            "order number",
            f"Order #{R.randrange(10**9, 10**10)} shipped via DHL, "
            f"tracking JD{R.randrange(10**17, 10**18)}",
        ),
        ("ipv6 address", "listen [2001:db8:85a3::8a2e:370:7334]:443"),
        ("cache key", f"cache hit key=v3:user:{R.randrange(10**6)}:feed:{hx(12)}"),
        ("s3 object key", f"s3://acme-artifacts/builds/{hx(40)}/app.zip"),
        ("asset fingerprint", f"/assets/application-{hx(64)}.css"),
        (
            "long random test name",
            "test_webhook_signature_rejects_replayed_timestamp_after_five_minutes",
        ),
        ("wallet derivation path", "m/44'/60'/0'/0/0"),
        (
            "k8s secret reference",
            "valueFrom:\n  secretKeyRef:\n    name: shop-secrets\n    key: xendit-secret-key",
        ),
        ("cron job uuid name", f"job/{uuid()} finished with exit code 0"),
        ("license header", "SPDX-License-Identifier: Apache-2.0"),
        ("css hash class", '<div class="css-1x2y3z4 sc-aXZVg">'),
        ("sentry event id", f"Sentry event id: {hx(32)}"),
        ("phone number", "Call support at +1 415 555 0134"),
    ]
    la.extend(misc)
    return [{"kind": k, "text": t} for k, t in la]


def main() -> None:
    secs = secrets()
    data = {
        "about": (
            f"Fifth blind corpus, written by benchmarks/make_secrets_blind5.py with "
            f"random.Random({SEED}) and the standard library only, from general knowledge of "
            "vendors' key shapes and where they get pasted. No redactor code, tests or earlier "
            "corpora texts were consulted; the vendors were chosen to avoid the earlier corpora's "
            "kind names. All values are random fakes."
        ),
        "secrets": secs,
        "lookalikes": lookalikes(),
    }
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    forms = {s["kind"].rsplit("[", 1)[1] for s in secs}
    vendors = {s["kind"].rsplit(" [", 1)[0] for s in secs}
    print(
        f"{len(secs)} secrets, {len(vendors)} kinds, {len(forms)} forms, "
        f"{len(data['lookalikes'])} look-alikes"
    )


if __name__ == "__main__":
    main()
