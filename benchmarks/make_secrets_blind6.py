"""Write benchmarks/data/secrets_blind6.json: a sixth blind corpus of fake credentials.

How it was written: from general knowledge of how vendors shape their keys and where
people paste them, with the standard library only. Nothing under ``brain/`` or
``tests/`` was read, nor the redaction sections of ``benchmarks/README.md``, nor the
earlier corpora's texts. Of ``make_secrets_blind5.py`` only the top docstring, the
``secrets()`` and ``main()`` writers (for the JSON shape) and a list of its function
names were looked at; the loader of
``secrets_holdout.py`` (for the fields it reads), and the ``kind`` names of
``secrets_blind3/4/5.json`` so that the kinds here are new ones. It was not scored
while being written.

Counts (printed by ``main``): 511 secrets of 368 kinds (312 tokens, 33 passwords,
8 multi-line key files, 8 webhook URLs, 7 word phrases) in 69 embedding forms, and
149 look-alikes of 140 kinds that must come out unchanged. Every value is random;
none is a real credential. A ``secret`` is always a verbatim substring of its
``text``: where a form encodes the value (Kubernetes ``data:``, Docker ``auth``,
JSON string escapes), the encoded string is the secret; for a multi-line key file it
is the body between the BEGIN and END lines, as indented in the text.

Run: ``python benchmarks/make_secrets_blind6.py``.
"""

# ruff: noqa: E501  (templates read best as one line each, like the text they imitate)
from __future__ import annotations

import base64
import json
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SEED = 60_613_447
R = random.Random(SEED)
OUT = Path(__file__).parent / "data" / "secrets_blind6.json"

ALNUM = string.ascii_letters + string.digits
LOWER = string.ascii_lowercase + string.digits
UPPER = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
UHEX = "0123456789ABCDEF"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
B64U = ALNUM + "-_"
# A made-up word list in the spirit of BIP-39 (lower-case, 3 to 8 letters).
WORDS = (
    "abandon acid actor adapt agent alley almond anchor angle ankle apple arena armor "
    "arrow autumn avocado badge bamboo banner barrel basket beach before bench bicycle "
    "blanket blossom bonus border bottle bracket breeze bridge bronze bubble buffalo "
    "cabin cactus camera canal candle canyon carbon cargo carpet castle catalog cement "
    "cherry chimney circle citrus clinic clover cobalt coconut comet copper coral cotton "
    "cradle crater cruise crystal cupboard dawn debris decade delta denim desert dial "
    "dolphin donkey dragon drift eagle echo eclipse elbow ember engine enrich episode "
    "fabric falcon fence ferry fiber filter flame flavor fossil fringe galaxy garlic "
    "gentle giant ginger glacier glove gravel habit hammer harvest hazard helmet hollow "
    "horizon husband icon igloo inhale island ivory jacket jaguar jelly jungle kernel "
    "kidney kitten ladder lagoon lantern laptop lemon lizard lobster lumber magnet "
    "mango marble meadow mirror monkey mosaic motor muffin napkin nephew noodle oasis "
    "object olive orbit orchard oyster paddle panda parrot pebble pencil pepper pigeon "
    "planet pocket pony powder prism pulse puzzle quarry rabbit radar raven ribbon rocket "
    "saddle salmon satoshi scatter shadow shrimp silver sketch socket spider sponsor "
    "squirrel stadium strategy sunset swamp symbol tackle temple thunder tiger timber "
    "tomato tornado trumpet tunnel turtle umbrella uncle unveil velvet venture violin "
    "volcano walnut warrior wheat whisper willow wizard yellow zebra zone"
).split()


def rs(n: int, alphabet: str = ALNUM) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def hx(n: int) -> str:
    return rs(n, HEX)


def uhx(n: int) -> str:
    return rs(n, UHEX)


def rbytes(n: int) -> bytes:
    return bytes(R.getrandbits(8) for _ in range(n))


def b64(n: int) -> str:
    return base64.b64encode(rbytes(n)).decode()


def b64u(n: int) -> str:
    return base64.urlsafe_b64encode(rbytes(n)).decode().rstrip("=")


def uid() -> str:
    h = hx(32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{R.choice('89ab')}{h[17:20]}-{h[20:]}"


def jwt(payload: dict[str, object], alg: str = "HS256") -> str:
    def enc(d: dict[str, object]) -> str:
        raw = json.dumps(d, separators=(",", ":")).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    return f"{enc({'alg': alg, 'typ': 'JWT'})}.{enc(payload)}.{b64u(32)}"


def pw() -> str:
    shape = R.randrange(4)
    if shape == 0:
        a, b = R.sample(WORDS, 2)
        return f"{a.capitalize()}{R.choice('-_.!')}{b}{R.randrange(10, 9999)}{R.choice('!*~^')}"
    if shape == 1:
        return rs(R.randrange(16, 25), ALNUM + "-_.!*~")
    if shape == 2:
        return rs(R.randrange(20, 33), ALNUM)
    return f"{rs(4, UPPER)}{R.choice('-.')}{rs(6, LOWER)}{R.choice('-.')}{rs(5, ALNUM)}"


def phrase(n: int) -> str:
    return " ".join(R.choice(WORDS) for _ in range(n))


def wrap(body: str, width: int = 64) -> str:
    return "\n".join(body[i : i + width] for i in range(0, len(body), width))


def pem(title: str, nbytes: int, width: int = 64) -> str:
    """A PEM block; the value scored is its body, see :func:`pem_body`."""
    return f"-----BEGIN {title}-----\n{wrap(b64(nbytes), width)}\n-----END {title}-----"


def openssh(kind: str) -> str:
    head = b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none" + kind.encode()
    body = base64.b64encode(head + rbytes(R.randrange(300, 420))).decode()
    return (
        f"-----BEGIN OPENSSH PRIVATE KEY-----\n{wrap(body, 70)}\n-----END OPENSSH PRIVATE KEY-----"
    )


def pre(prefix: str, n: int, alphabet: str = ALNUM) -> Callable[[], str]:
    return lambda: prefix + rs(n, alphabet)


def h(n: int) -> Callable[[], str]:
    return lambda: hx(n)


def U() -> str:
    return uid()


def P() -> str:
    return pw()


# --------------------------------------------------------------------------- vendors
# (kind, environment variable, value maker, class). Classes: "key" is a token with no
# spaces, "pw" a password chosen by a person, "block" a multi-line key file, "phrase"
# words separated by spaces, "hook" a token that lives inside a webhook URL.
Vendor = tuple[str, str, Callable[[], str], str]

VENDORS: list[Vendor] = [
    # less-known SaaS and product analytics
    ("attio api key", "ATTIO_API_KEY", h(64), "key"),
    (
        "productboard api token",
        "PRODUCTBOARD_TOKEN",
        lambda: jwt({"iss": "pb", "sub": R.randrange(10**6)}),
        "key",
    ),
    ("shortcut api token", "SHORTCUT_API_TOKEN", U, "key"),
    ("missive personal token", "MISSIVE_TOKEN", pre("missive_pat-", 64, B64U), "key"),
    ("plausible analytics api key", "PLAUSIBLE_API_KEY", pre("", 64, B64U), "key"),
    (
        "fathom analytics api token",
        "FATHOM_API_TOKEN",
        lambda: f"{R.randrange(1, 999)}|{rs(40)}",
        "key",
    ),
    ("umami api key", "UMAMI_API_KEY", pre("api_", 32), "key"),
    ("rudderstack write key", "RUDDERSTACK_WRITE_KEY", pre("2", 26), "key"),
    ("statsig server secret", "STATSIG_SERVER_SECRET", pre("secret-", 43), "key"),
    ("growthbook admin secret", "GROWTHBOOK_SECRET", pre("secret_admin_", 40, LOWER), "key"),
    ("unleash admin api token", "UNLEASH_API_TOKEN", lambda: f"*:production.{hx(64)}", "key"),
    ("flagsmith server-side key", "FLAGSMITH_SERVER_KEY", pre("ser.", 22), "key"),
    ("optimizely personal access token", "OPTIMIZELY_TOKEN", lambda: f"2:{b64u(33)}", "key"),
    ("fullstory api key", "FULLSTORY_API_KEY", lambda: f"na1.{b64(48)}", "key"),
    ("pendo integration key", "PENDO_INTEGRATION_KEY", lambda: f"{uid()}.us", "key"),
    ("crisp plugin token key", "CRISP_TOKEN_KEY", h(64), "key"),
    ("freshservice api key", "FRESHSERVICE_API_KEY", pre("", 20), "key"),
    ("zammad access token", "ZAMMAD_TOKEN", pre("", 64, B64U), "key"),
    ("gorgias api key", "GORGIAS_API_KEY", h(64), "key"),
    (
        "youtrack permanent token",
        "YOUTRACK_TOKEN",
        lambda: f"perm:{b64u(9)}.{b64u(15)}.{rs(30)}",
        "key",
    ),
    ("forgejo access token", "FORGEJO_TOKEN", h(40), "key"),
    ("sourcehut oauth2 token", "SRHT_TOKEN", lambda: b64(96), "key"),
    (
        "phabricator conduit token",
        "CONDUIT_TOKEN",
        pre("api-", 28, "abcdefghijklmnopqrstuvwxyz"),
        "key",
    ),
    ("redmine api key", "REDMINE_API_KEY", h(40), "key"),
    ("plane api key", "PLANE_API_KEY", pre("plane_api_", 32, HEX), "key"),
    ("openproject api key", "OPENPROJECT_API_KEY", h(64), "key"),
    ("vikunja api token", "VIKUNJA_TOKEN", pre("tk_", 40, HEX), "key"),
    ("outline api key", "OUTLINE_API_KEY", pre("ol_api_", 38), "key"),
    ("bookstack api token secret", "BOOKSTACK_TOKEN_SECRET", pre("", 32), "key"),
    (
        "mattermost personal access token",
        "MM_ACCESS_TOKEN",
        pre("", 26, "abcdefghijklmnopqrstuvwxyz13456789"),
        "key",
    ),
    ("rocket.chat personal token", "ROCKETCHAT_TOKEN", lambda: b64u(32), "key"),
    ("zulip bot api key", "ZULIP_API_KEY", pre("", 32), "key"),
    (
        "nextcloud app password",
        "NEXTCLOUD_APP_PASSWORD",
        lambda: "-".join(rs(5) for _ in range(5)),
        "key",
    ),
    ("paperless-ngx api token", "PAPERLESS_TOKEN", h(40), "key"),
    ("immich api key", "IMMICH_API_KEY", pre("", 43), "key"),
    ("jellyfin api key", "JELLYFIN_API_KEY", h(32), "key"),
    ("plex token", "PLEX_TOKEN", pre("", 20, ALNUM + "-_"), "key"),
    ("sonarr api key", "SONARR_API_KEY", h(32), "key"),
    ("prowlarr api key", "PROWLARR_API_KEY", h(32), "key"),
    ("sabnzbd api key", "SABNZBD_API_KEY", h(32), "key"),
    ("qbittorrent webui password", "QBT_PASSWORD", P, "pw"),
    ("transmission rpc password", "TRANSMISSION_RPC_PASSWORD", P, "pw"),
    ("portainer access token", "PORTAINER_TOKEN", lambda: "ptr_" + b64(32), "key"),
    ("pi-hole api token", "PIHOLE_TOKEN", h(64), "key"),
    ("adguard home password", "ADGUARD_PASSWORD", P, "pw"),
    ("unifi controller password", "UNIFI_PASSWORD", P, "pw"),
    ("opnsense api secret", "OPNSENSE_API_SECRET", pre("", 80), "key"),
    ("proxmox api token secret", "PROXMOX_TOKEN_SECRET", U, "key"),
    ("truenas api key", "TRUENAS_API_KEY", lambda: f"{R.randrange(1, 30)}-{rs(64)}", "key"),
    ("vaultwarden admin token", "VAULTWARDEN_ADMIN_TOKEN", lambda: b64(48), "key"),
    ("concourse local user password", "CONCOURSE_ADD_LOCAL_USER", P, "pw"),
    ("rundeck api token", "RUNDECK_TOKEN", pre("", 32), "key"),
    ("awx oauth2 token", "TOWER_OAUTH_TOKEN", pre("", 30), "key"),
    ("codefresh api key", "CF_API_KEY", lambda: f"{hx(24)}.{hx(32)}", "key"),
    ("visual studio app center token", "APPCENTER_ACCESS_TOKEN", h(40), "key"),
    ("browserstack access key", "BROWSERSTACK_ACCESS_KEY", pre("", 20), "key"),
    ("sauce labs access key", "SAUCE_ACCESS_KEY", U, "key"),
    ("lambdatest access key", "LT_ACCESS_KEY", pre("LT_", 47), "key"),
    ("percy token", "PERCY_TOKEN", lambda: "web_" + hx(64), "key"),
    ("chromatic project token", "CHROMATIC_PROJECT_TOKEN", pre("chpt_", 14, HEX), "key"),
    ("cypress record key", "CYPRESS_RECORD_KEY", U, "key"),
    ("codacy project token", "CODACY_PROJECT_TOKEN", h(32), "key"),
    ("coveralls repo token", "COVERALLS_REPO_TOKEN", pre("", 33), "key"),
    ("semgrep app token", "SEMGREP_APP_TOKEN", h(64), "key"),
    ("deepsource dsn", "DEEPSOURCE_DSN", lambda: f"https://{hx(32)}@app.deepsource.com", "key"),
    ("teleport join token", "TELEPORT_JOIN_TOKEN", h(32), "key"),
    ("netbird setup key", "NB_SETUP_KEY", lambda: uid().upper(), "key"),
    ("pomerium shared secret", "SHARED_SECRET", lambda: b64(32), "key"),
    ("authelia jwt secret", "AUTHELIA_JWT_SECRET", pre("", 64), "key"),
    ("oauth2-proxy cookie secret", "OAUTH2_PROXY_COOKIE_SECRET", lambda: b64u(32), "key"),
    ("lldap jwt secret", "LLDAP_JWT_SECRET", pre("", 48, ALNUM + "+/"), "key"),
    ("corbado api secret", "CORBADO_API_SECRET", pre("corbado1_", 30), "key"),
    ("magic.link secret key", "MAGIC_SECRET_KEY", pre("sk_live_", 16, UHEX), "key"),
    ("privy app secret", "PRIVY_APP_SECRET", lambda: rs(60, B58), "key"),
    # regional banks, payments and telecoms
    ("tink client secret", "TINK_CLIENT_SECRET", h(32), "key"),
    ("nordigen secret key", "NORDIGEN_SECRET_KEY", h(128), "key"),
    ("salt edge app secret", "SALTEDGE_SECRET", lambda: b64u(32), "key"),
    ("bunq api key", "BUNQ_API_KEY", h(64), "key"),
    (
        "revolut business refresh token",
        "REVOLUT_REFRESH_TOKEN",
        lambda: "oa_prod_" + b64u(32),
        "key",
    ),
    ("monnify secret key", "MONNIFY_SECRET_KEY", pre("", 32, UPPER), "key"),
    ("chapa secret key", "CHAPA_SECRET_KEY", pre("CHASECK-", 32), "key"),
    ("pesapal consumer secret", "PESAPAL_CONSUMER_SECRET", lambda: b64(21), "key"),
    ("mtn momo subscription key", "MOMO_SUBSCRIPTION_KEY", h(32), "key"),
    ("yoco secret key", "YOCO_SECRET_KEY", pre("sk_live_", 36, HEX), "key"),
    ("culqi secret key", "CULQI_SECRET_KEY", pre("sk_live_", 16), "key"),
    ("wompi private key", "WOMPI_PRIVATE_KEY", pre("prv_prod_", 32), "key"),
    ("epayco private key", "EPAYCO_PRIVATE_KEY", h(32), "key"),
    ("paytm merchant key", "PAYTM_MERCHANT_KEY", pre("", 16, ALNUM + "@"), "key"),
    ("ccavenue working key", "CCAVENUE_WORKING_KEY", lambda: uhx(32), "key"),
    ("nicepay merchant key", "NICEPAY_MERCHANT_KEY", lambda: b64(66), "key"),
    ("line pay channel secret key", "LINEPAY_CHANNEL_SECRET", h(32), "key"),
    ("paypay api secret", "PAYPAY_API_SECRET", lambda: b64(33), "key"),
    ("alipay app private key", "ALIPAY_PRIVATE_KEY", lambda: b64(600), "key"),
    ("omise secret key", "OMISE_SECRET_KEY", pre("skey_", 19, LOWER), "key"),
    ("2c2p secret key", "TWOCTWOP_SECRET", lambda: uhx(64), "key"),
    ("billplz api key", "BILLPLZ_API_KEY", U, "key"),
    ("tap payments secret key", "TAP_SECRET_KEY", pre("sk_live_", 24), "key"),
    ("moyasar secret key", "MOYASAR_SECRET_KEY", pre("sk_live_", 40), "key"),
    ("tabby secret key", "TABBY_SECRET_KEY", lambda: "sk_" + uid(), "key"),
    ("przelewy24 crc key", "P24_CRC", h(16), "key"),
    ("multisafepay api key", "MSP_API_KEY", h(40), "key"),
    ("nets easy secret key", "NETS_SECRET_KEY", lambda: "live-secret-key-" + hx(32), "key"),
    ("mobilepay client secret", "MOBILEPAY_CLIENT_SECRET", lambda: b64u(30), "key"),
    ("worldline direct api secret", "WORLDLINE_API_SECRET", lambda: b64(33), "key"),
    ("bambora merchant passcode", "BAMBORA_PASSCODE", lambda: uhx(32), "key"),
    ("moneris api token", "MONERIS_API_TOKEN", pre("", 20), "key"),
    ("helcim api token", "HELCIM_API_TOKEN", lambda: rs(22) + "." + rs(30), "key"),
    ("clover api token", "CLOVER_API_TOKEN", U, "key"),
    ("rapyd secret key", "RAPYD_SECRET_KEY", h(80), "key"),
    ("nuvei merchant secret key", "NUVEI_SECRET", pre("", 64), "key"),
    ("dwolla application secret", "DWOLLA_SECRET", pre("", 50), "key"),
    ("modern treasury api key", "MT_API_KEY", pre("live-", 64), "key"),
    ("increase api key", "INCREASE_API_KEY", pre("secret_key_", 32, LOWER), "key"),
    ("lithic api key", "LITHIC_API_KEY", U, "key"),
    ("brex api token", "BREX_TOKEN", pre("bxt_", 60), "key"),
    ("ramp client secret", "RAMP_CLIENT_SECRET", pre("ramp_sec_", 48), "key"),
    (
        "mercury api token",
        "MERCURY_API_TOKEN",
        lambda: f"secret-token:mercury_production_wma_{rs(48)}_yrucrem",
        "key",
    ),
    ("quickbooks client secret", "QBO_CLIENT_SECRET", pre("", 40), "key"),
    ("xero client secret", "XERO_CLIENT_SECRET", pre("", 48, ALNUM + "-_"), "key"),
    ("persona api key", "PERSONA_API_KEY", lambda: "persona_production_" + uid(), "key"),
    (
        "onfido api token",
        "ONFIDO_API_TOKEN",
        lambda: f"api_live.{rs(11, B64U)}.{rs(32, B64U)}",
        "key",
    ),
    ("sumsub secret key", "SUMSUB_SECRET_KEY", pre("", 32), "key"),
    ("sinch app secret", "SINCH_APP_SECRET", lambda: b64(16).rstrip("="), "key"),
    ("bandwidth api password", "BW_PASSWORD", P, "pw"),
    ("textmagic api key", "TEXTMAGIC_API_KEY", pre("", 30), "key"),
    ("46elks api password", "ELKS_API_PASSWORD", lambda: uhx(32), "key"),
    ("signalwire api token", "SIGNALWIRE_TOKEN", lambda: "PT" + hx(48), "key"),
    ("gupshup api key", "GUPSHUP_API_KEY", h(32), "key"),
    ("kaleyra api key", "KALEYRA_API_KEY", lambda: "A" + hx(32), "key"),
    ("yunpian sms apikey", "YUNPIAN_APIKEY", h(32), "key"),
    ("termii api key", "TERMII_API_KEY", pre("TL", 58), "key"),
    ("telesign api key", "TELESIGN_API_KEY", lambda: b64(64), "key"),
    ("zadarma api secret", "ZADARMA_SECRET", h(20), "key"),
    ("exotel api token", "EXOTEL_TOKEN", h(40), "key"),
    # science, HPC, ML
    ("globus confidential client secret", "GLOBUS_CLIENT_SECRET", lambda: b64(33), "key"),
    ("slurmrestd jwt hs256 key", "SLURM_JWT_KEY", lambda: b64(48), "key"),
    ("irods user password", "IRODS_PASSWORD", P, "pw"),
    ("zenodo access token", "ZENODO_TOKEN", pre("", 60), "key"),
    ("figshare personal token", "FIGSHARE_TOKEN", h(128), "key"),
    ("orcid client secret", "ORCID_CLIENT_SECRET", U, "key"),
    ("osf personal access token", "OSF_TOKEN", pre("", 70), "key"),
    ("dataverse api token", "DATAVERSE_API_TOKEN", U, "key"),
    ("ncbi eutils api key", "NCBI_API_KEY", h(36), "key"),
    (
        "nasa earthdata token",
        "EARTHDATA_TOKEN",
        lambda: jwt({"type": "User", "uid": "jdoe", "exp": 1799999999}, "RS256"),
        "key",
    ),
    (
        "copernicus cds api key",
        "CDSAPI_KEY",
        lambda: f"{R.randrange(10000, 999999)}:{uid()}",
        "key",
    ),
    ("ecmwf api key", "ECMWF_API_KEY", h(32), "key"),
    ("noaa cdo token", "NOAA_TOKEN", pre("", 32, string.ascii_letters), "key"),
    ("materials project api key", "MP_API_KEY", pre("", 32), "key"),
    ("comet ml api key", "COMET_API_KEY", pre("", 25), "key"),
    (
        "neptune.ai api token",
        "NEPTUNE_API_TOKEN",
        lambda: base64.b64encode(
            json.dumps({"api_address": "https://app.neptune.ai", "api_key": uid()}).encode()
        ).decode(),
        "key",
    ),
    ("clearml secret key", "CLEARML_API_SECRET_KEY", pre("", 50), "key"),
    ("dagshub user token", "DAGSHUB_USER_TOKEN", h(40), "key"),
    ("mlflow tracking password", "MLFLOW_TRACKING_PASSWORD", P, "pw"),
    ("label studio access token", "LABEL_STUDIO_API_KEY", h(40), "key"),
    ("roboflow api key", "ROBOFLOW_API_KEY", pre("", 20), "key"),
    ("ibm quantum token", "QISKIT_IBM_TOKEN", h(128), "key"),
    ("d-wave leap api token", "DWAVE_API_TOKEN", lambda: f"DEV-{hx(40)}", "key"),
    ("vast.ai api key", "VAST_API_KEY", h(64), "key"),
    (
        "lambda cloud api key",
        "LAMBDA_API_KEY",
        lambda: f"secret_{rs(12, LOWER)}_{hx(32)}.{rs(32)}",
        "key",
    ),
    ("paperspace api key", "PAPERSPACE_API_KEY", h(30), "key"),
    ("gurobi wls secret", "GRB_WLSSECRET", U, "key"),
    ("wolfram alpha appid", "WOLFRAM_APPID", lambda: f"{rs(6, UPPER)}-{rs(10, UPPER)}", "key"),
    # healthcare and wearables
    ("redox api secret", "REDOX_SECRET", pre("", 64), "key"),
    ("drchrono client secret", "DRCHRONO_CLIENT_SECRET", pre("", 128), "key"),
    ("medplum client secret", "MEDPLUM_CLIENT_SECRET", h(64), "key"),
    ("1uphealth client secret", "ONEUP_CLIENT_SECRET", h(32), "key"),
    ("athenahealth client secret", "ATHENA_CLIENT_SECRET", pre("", 40), "key"),
    ("dosespot clinic key", "DOSESPOT_CLINIC_KEY", lambda: b64(48), "key"),
    ("validic organization token", "VALIDIC_TOKEN", h(64), "key"),
    ("withings client secret", "WITHINGS_CLIENT_SECRET", h(64), "key"),
    ("fitbit client secret", "FITBIT_CLIENT_SECRET", h(32), "key"),
    ("oura personal access token", "OURA_TOKEN", pre("", 32, UPPER), "key"),
    ("dexcom client secret", "DEXCOM_CLIENT_SECRET", pre("", 16), "key"),
    (
        "epic fhir backend private key",
        "EPIC_PRIVATE_KEY",
        lambda: pem("PRIVATE KEY", 1216),
        "block",
    ),
    # edtech
    (
        "canvas lms access token",
        "CANVAS_API_TOKEN",
        lambda: f"{R.randrange(1000, 25000)}~{rs(64)}",
        "key",
    ),
    ("moodle web service token", "MOODLE_WSTOKEN", h(32), "key"),
    ("blackboard learn app secret", "BB_APP_SECRET", pre("", 32), "key"),
    ("brightspace client secret", "D2L_CLIENT_SECRET", lambda: b64u(32), "key"),
    ("clever district token", "CLEVER_DISTRICT_TOKEN", h(40), "key"),
    ("schoology consumer secret", "SCHOOLOGY_SECRET", h(32), "key"),
    ("open edx oauth client secret", "EDX_CLIENT_SECRET", pre("", 128), "key"),
    ("turnitin tca api key", "TCA_API_KEY", U, "key"),
    # ad tech
    ("google ads developer token", "GOOGLE_ADS_DEVELOPER_TOKEN", pre("", 22, ALNUM + "-_"), "key"),
    ("tiktok ads access token", "TIKTOK_ADS_TOKEN", h(40), "key"),
    ("pinterest ads access token", "PINTEREST_TOKEN", lambda: "pina_" + rs(90, UPPER), "key"),
    (
        "amazon ads client secret",
        "AMAZON_ADS_CLIENT_SECRET",
        lambda: "amzn1.oa2-cs.v1." + hx(64),
        "key",
    ),
    ("criteo client secret", "CRITEO_CLIENT_SECRET", lambda: b64(24), "key"),
    ("taboola client secret", "TABOOLA_CLIENT_SECRET", h(32), "key"),
    (
        "appsflyer api token",
        "APPSFLYER_TOKEN",
        lambda: jwt({"nbf": 1760000000, "payload": {"uuid": uid()}}),
        "key",
    ),
    ("adjust api token", "ADJUST_API_TOKEN", pre("", 20, ALNUM + "-_"), "key"),
    ("branch.io secret key", "BRANCH_SECRET", pre("secret_live_", 32), "key"),
    ("applovin report key", "APPLOVIN_REPORT_KEY", pre("", 86, ALNUM + "-_"), "key"),
    ("ironsource secret key", "IRONSOURCE_SECRET", h(32), "key"),
    ("microsoft ads developer token", "BING_ADS_DEVELOPER_TOKEN", pre("", 16, UPPER), "key"),
    ("yandex direct oauth token", "YANDEX_DIRECT_TOKEN", pre("y0_", 55, B64U), "key"),
    ("naver search ad secret key", "NAVER_AD_SECRET", lambda: b64(32) + "==", "key"),
    # logistics
    ("easyship api token", "EASYSHIP_TOKEN", pre("prod_", 64), "key"),
    ("sendcloud secret key", "SENDCLOUD_SECRET", h(32), "key"),
    ("fedex client secret", "FEDEX_CLIENT_SECRET", h(32), "key"),
    ("ups oauth client secret", "UPS_CLIENT_SECRET", pre("", 64), "key"),
    ("postnl api key", "POSTNL_APIKEY", pre("", 32), "key"),
    ("onfleet api key", "ONFLEET_API_KEY", h(32), "key"),
    ("samsara api token", "SAMSARA_API_TOKEN", pre("samsara_api_", 30), "key"),
    ("motive api key", "MOTIVE_API_KEY", U, "key"),
    ("geotab service password", "GEOTAB_PASSWORD", P, "pw"),
    ("what3words api key", "W3W_API_KEY", pre("", 8, UPPER), "key"),
    ("delhivery api token", "DELHIVERY_TOKEN", h(40), "key"),
    ("aramex account pin", "ARAMEX_PIN", lambda: str(R.randrange(100000, 999999)), "pw"),
    (
        "melhor envio token",
        "MELHOR_ENVIO_TOKEN",
        lambda: jwt({"aud": "1", "jti": hx(80)}, "RS256"),
        "key",
    ),
    ("sf express checkword", "SF_CHECKWORD", pre("", 32), "key"),
    # robotics, home automation, energy, iot
    ("foxglove api key", "FOXGLOVE_API_KEY", pre("fox_sk_", 32), "key"),
    ("spot robot admin password", "BOSDYN_CLIENT_PASSWORD", P, "pw"),
    ("hubitat maker api token", "HUBITAT_TOKEN", U, "key"),
    ("openhab api token", "OPENHAB_TOKEN", lambda: f"oh.ci.{rs(86)}", "key"),
    ("homebridge ui password", "HB_PASSWORD", P, "pw"),
    ("philips hue bridge app key", "HUE_APP_KEY", pre("", 40, ALNUM + "-"), "key"),
    ("nanoleaf auth token", "NANOLEAF_TOKEN", pre("", 32), "key"),
    ("xiaomi miio device token", "MIIO_TOKEN", h(32), "key"),
    ("z-wave js s2 access key", "ZWAVE_S2_ACCESS_CONTROL", lambda: uhx(32), "key"),
    ("netatmo client secret", "NETATMO_CLIENT_SECRET", pre("", 30), "key"),
    ("frigate rtsp password", "FRIGATE_RTSP_PASSWORD", P, "pw"),
    ("victron vrm access token", "VRM_TOKEN", h(64), "key"),
    ("solaredge api key", "SOLAREDGE_API_KEY", pre("", 32, UPPER), "key"),
    ("tesla fleet refresh token", "TESLA_REFRESH_TOKEN", lambda: "EU_" + hx(64), "key"),
    ("smartcar client secret", "SMARTCAR_CLIENT_SECRET", U, "key"),
    ("octopus energy api key", "OCTOPUS_ENERGY_KEY", pre("sk_live_", 24), "key"),
    (
        "mender device server token",
        "MENDER_TOKEN",
        lambda: jwt({"mender.device": True, "sub": uid()}, "RS256"),
        "key",
    ),
    ("memfault project key", "MEMFAULT_PROJECT_KEY", h(32), "key"),
    ("soracom auth key secret", "SORACOM_AUTH_KEY", pre("secret-", 64), "key"),
    # streaming and media
    ("api.video api key", "APIVIDEO_API_KEY", pre("", 43), "key"),
    ("livepeer api key", "LIVEPEER_API_KEY", U, "key"),
    (
        "twitch stream key",
        "TWITCH_STREAM_KEY",
        lambda: f"live_{R.randrange(10**8, 10**9)}_{rs(30)}",
        "key",
    ),
    (
        "youtube live stream key",
        "YT_STREAM_KEY",
        lambda: "-".join(rs(4, LOWER) for _ in range(5)),
        "key",
    ),
    ("kick stream key", "KICK_STREAM_KEY", lambda: f"sk_us-west-2_{rs(12)}_{rs(24)}", "key"),
    ("obs websocket password", "OBS_WS_PASSWORD", P, "pw"),
    ("icecast source password", "ICECAST_SOURCE_PASSWORD", P, "pw"),
    ("soundcloud client secret", "SOUNDCLOUD_CLIENT_SECRET", pre("", 32), "key"),
    ("last.fm shared secret", "LASTFM_SECRET", h(32), "key"),
    ("trakt client secret", "TRAKT_CLIENT_SECRET", h(64), "key"),
    (
        "tmdb read access token",
        "TMDB_TOKEN",
        lambda: jwt({"aud": hx(32), "sub": hx(24), "scopes": ["api_read"]}),
        "key",
    ),
    ("brightcove client secret", "BRIGHTCOVE_CLIENT_SECRET", lambda: b64u(64), "key"),
    ("kaltura admin secret", "KALTURA_ADMIN_SECRET", h(32), "key"),
    ("vdocipher api secret", "VDOCIPHER_API_SECRET", pre("", 64), "key"),
    # legal, markets, identity, compliance
    ("adobe sign integration key", "ADOBE_SIGN_KEY", lambda: "3AAABLblqZhB" + rs(80, B64U), "key"),
    ("clio client secret", "CLIO_CLIENT_SECRET", pre("", 40), "key"),
    ("ironclad api token", "IRONCLAD_TOKEN", lambda: b64u(48), "key"),
    ("alpaca secret key", "APCA_API_SECRET_KEY", pre("", 40), "key"),
    ("polygon.io api key", "POLYGON_API_KEY", pre("", 32, ALNUM + "_"), "key"),
    ("finnhub api key", "FINNHUB_API_KEY", pre("", 20, LOWER), "key"),
    ("alpha vantage api key", "ALPHAVANTAGE_API_KEY", pre("", 16, UPPER), "key"),
    ("iex cloud secret token", "IEX_SECRET", pre("sk_", 32, HEX), "key"),
    ("tradier access token", "TRADIER_TOKEN", pre("", 28), "key"),
    ("nasdaq data link api key", "NASDAQ_DATA_LINK_API_KEY", pre("", 20, ALNUM + "-_"), "key"),
    ("tiingo api token", "TIINGO_API_KEY", h(40), "key"),
    ("twelve data api key", "TWELVEDATA_API_KEY", h(32), "key"),
    # government and public-data APIs
    ("api.data.gov key", "DATA_GOV_API_KEY", pre("", 40), "key"),
    ("us census api key", "CENSUS_API_KEY", h(40), "key"),
    ("fred api key", "FRED_API_KEY", h(32), "key"),
    ("bls registration key", "BLS_API_KEY", h(32), "key"),
    ("companies house api key", "CH_API_KEY", U, "key"),
    ("hmrc mtd client secret", "HMRC_CLIENT_SECRET", U, "key"),
    ("gov.uk notify api key", "NOTIFY_API_KEY", lambda: f"ops_alerts-{uid()}-{uid()}", "key"),
    ("sam.gov api key", "SAM_API_KEY", pre("", 40), "key"),
    ("data.go.kr service key", "DATA_GO_KR_KEY", lambda: b64(66), "key"),
    ("e-stat app id", "ESTAT_APP_ID", h(40), "key"),
    ("abn lookup guid", "ABR_GUID", U, "key"),
    # crypto
    ("blockcypher token", "BLOCKCYPHER_TOKEN", h(32), "key"),
    ("quicknode endpoint token", "QUICKNODE_URL", h(40), "hook"),
    ("ankr rpc key", "ANKR_RPC", h(64), "hook"),
    ("getblock api key", "GETBLOCK_KEY", U, "key"),
    ("covalent api key", "COVALENT_API_KEY", pre("cqt_", 28), "key"),
    ("the graph gateway api key", "GRAPH_API_KEY", h(32), "key"),
    ("dune api key", "DUNE_API_KEY", pre("", 32), "key"),
    ("helius api key", "HELIUS_API_KEY", U, "key"),
    ("bitget api secret", "BITGET_API_SECRET", h(64), "key"),
    ("mexc api secret", "MEXC_API_SECRET", h(32), "key"),
    ("deribit client secret", "DERIBIT_CLIENT_SECRET", lambda: b64u(32), "key"),
    ("bitfinex api secret", "BFX_API_SECRET", pre("", 43), "key"),
    ("bitstamp api secret", "BITSTAMP_API_SECRET", pre("", 32, UPPER), "key"),
    ("gemini exchange api secret", "GEMINI_EXCHANGE_SECRET", pre("", 28), "key"),
    ("upbit secret key", "UPBIT_SECRET_KEY", pre("", 40), "key"),
    ("bitvavo api secret", "BITVAVO_API_SECRET", h(128), "key"),
    ("coinmarketcap pro api key", "CMC_PRO_API_KEY", U, "key"),
    ("aptos ed25519 private key", "APTOS_PRIVATE_KEY", lambda: "ed25519-priv-0x" + hx(64), "key"),
    ("algorand account mnemonic", "ALGOD_MNEMONIC", lambda: phrase(25), "phrase"),
    ("ton wallet mnemonic", "TON_MNEMONIC", lambda: phrase(24), "phrase"),
    ("cosmos keyring mnemonic", "COSMOS_MNEMONIC", lambda: phrase(24), "phrase"),
    ("electrum segwit seed", "ELECTRUM_SEED", lambda: phrase(12), "phrase"),
    ("monero 25-word seed", "XMR_SEED", lambda: phrase(25), "phrase"),
    ("lnbits admin key", "LNBITS_ADMIN_KEY", h(32), "key"),
    (
        "zcash spending key",
        "ZCASH_SPENDING_KEY",
        lambda: "secret-extended-key-main1" + rs(260, BECH),
        "key",
    ),
    ("litecoin rpc password", "LTC_RPCPASSWORD", P, "pw"),
    ("foundry keystore password", "ETH_KEYSTORE_PASSWORD", P, "pw"),
    # generic shapes named by where they live
    ("openssh ed25519 deploy key", "DEPLOY_KEY", lambda: openssh("ssh-ed25519"), "block"),
    (
        "openssh ecdsa host key",
        "SSH_HOST_ECDSA_KEY",
        lambda: openssh("ecdsa-sha2-nistp256"),
        "block",
    ),
    (
        "gpg exported secret subkeys",
        "GPG_SUBKEYS",
        lambda: pem("PGP PRIVATE KEY BLOCK", 900),
        "block",
    ),
    ("mosquitto bridge client key", "BRIDGE_KEYFILE", lambda: pem("EC PRIVATE KEY", 121), "block"),
    ("openssh rsa mirror key", "MIRROR_SSH_KEY", lambda: openssh("ssh-rsa"), "block"),
    ("jenkins agent ssh key", "JENKINS_AGENT_KEY", lambda: openssh("ssh-ed25519"), "block"),
    (
        "nebula ca private key",
        "NEBULA_CA_KEY",
        lambda: pem("NEBULA ED25519 PRIVATE KEY", 64),
        "block",
    ),
    (
        "age identity in keys.txt",
        "SOPS_AGE_KEY",
        lambda: "AGE-SECRET-KEY-1" + rs(58, BECH.upper()),
        "key",
    ),
    (
        "age yubikey plugin identity",
        "AGE_PLUGIN_IDENTITY",
        lambda: "AGE-PLUGIN-YUBIKEY-1" + rs(38, BECH.upper()),
        "key",
    ),
    ("jwt hs512 secret", "JWT_HS512_SECRET", lambda: b64(64), "key"),
    ("webhook hmac-sha256 key", "WEBHOOK_HMAC_KEY", h(64), "key"),
    ("koa session signing keys", "KOA_KEYS", pre("", 32), "key"),
    ("symfony app_secret", "APP_SECRET", h(32), "key"),
    ("craft cms security key", "CRAFT_SECURITY_KEY", pre("", 32, B64U), "key"),
    ("hotp seed", "HOTP_SEED", pre("", 32, B32), "key"),
    ("steam guard shared secret", "STEAM_SHARED_SECRET", lambda: b64(20), "key"),
    (
        "github recovery codes",
        "GH_RECOVERY",
        lambda: " ".join(f"{hx(5)}-{hx(5)}" for _ in range(8)),
        "phrase",
    ),
    ("mongodb replica keyfile", "MONGO_KEYFILE", lambda: b64(756 * 3 // 4), "key"),
    ("postgres replication password", "REPLICATION_PASSWORD", P, "pw"),
    ("mariadb root password", "MARIADB_ROOT_PASSWORD", P, "pw"),
    ("zookeeper digest password", "ZK_DIGEST_PASSWORD", P, "pw"),
    ("valkey requirepass", "VALKEY_PASSWORD", P, "pw"),
    ("dragonfly requirepass", "DFLY_requirepass", P, "pw"),
    ("keydb masterauth", "KEYDB_MASTERAUTH", P, "pw"),
    ("consul gossip encryption key", "CONSUL_GOSSIP_KEY", lambda: b64(32), "key"),
    ("vault unseal key", "VAULT_UNSEAL_KEY_1", lambda: b64(33), "key"),
    ("freeipa admin password", "IPA_ADMIN_PASSWORD", P, "pw"),
    ("tacacs+ shared key", "TACACS_KEY", P, "pw"),
    ("snmpv3 auth passphrase", "SNMPV3_AUTH_PASS", P, "pw"),
    ("bgp neighbor md5 password", "BGP_MD5", P, "pw"),
    ("keepalived vrrp auth_pass", "VRRP_AUTH_PASS", pre("", 8), "pw"),
    ("haproxy stats password", "HAPROXY_STATS_PASSWORD", P, "pw"),
    ("minecraft rcon password", "RCON_PASSWORD", P, "pw"),
    ("factorio server token", "FACTORIO_TOKEN", h(30), "key"),
    ("teamspeak serveradmin password", "TS3_SERVERADMIN_PASSWORD", pre("", 8, ALNUM + "+"), "pw"),
    ("discourse api key", "DISCOURSE_API_KEY", h(64), "key"),
    ("flarum api key", "FLARUM_API_KEY", pre("", 40), "key"),
    ("misskey api token", "MISSKEY_TOKEN", pre("", 32), "key"),
    ("pixelfed client secret", "PIXELFED_CLIENT_SECRET", pre("", 40), "key"),
    (
        "synapse registration shared secret",
        "SYNAPSE_REGISTRATION_SECRET",
        pre("", 40, ALNUM + "~=.;:"),
        "key",
    ),
    ("jitsi jwt app secret", "JITSI_APP_SECRET", h(48), "key"),
    ("bigbluebutton shared secret", "BBB_SECRET", pre("", 40), "key"),
    (
        "wordpress application password",
        "WP_APP_PASSWORD",
        lambda: " ".join(rs(4) for _ in range(6)),
        "phrase",
    ),
    ("odoo api key", "ODOO_API_KEY", h(40), "key"),
    ("erpnext api secret", "ERPNEXT_API_SECRET", pre("", 15, LOWER), "key"),
    ("invoice ninja api token", "NINJA_TOKEN", pre("", 64), "key"),
    ("metabase embedding secret", "MB_EMBEDDING_SECRET_KEY", h(64), "key"),
    ("superset secret key", "SUPERSET_SECRET_KEY", lambda: b64(42), "key"),
    ("redash api key", "REDASH_API_KEY", pre("", 40), "key"),
    ("kibana encryption key", "XPACK_ENCRYPTEDSAVEDOBJECTS_KEY", pre("", 32), "key"),
    (
        "airflow fernet key",
        "AIRFLOW__CORE__FERNET_KEY",
        lambda: base64.urlsafe_b64encode(rbytes(32)).decode(),
        "key",
    ),
    ("dagster cloud user token", "DAGSTER_CLOUD_API_TOKEN", lambda: "user:" + hx(32), "key"),
    ("n8n encryption key", "N8N_ENCRYPTION_KEY", pre("", 32), "key"),
    ("windmill token", "WM_TOKEN", pre("", 32), "key"),
    ("budibase api key", "BUDIBASE_API_KEY", lambda: f"{hx(32)}-{hx(96)}", "key"),
    ("retool api token", "RETOOL_API_TOKEN", pre("retool_", 32), "key"),
    ("healthchecks.io api key", "HC_API_KEY", pre("", 32, ALNUM + "-_"), "key"),
    ("zabbix api token", "ZABBIX_API_TOKEN", h(64), "key"),
    ("checkmk automation secret", "CMK_AUTOMATION_SECRET", pre("", 32, UPPER), "key"),
    ("librenms api token", "LIBRENMS_TOKEN", h(32), "key"),
    ("netbox api token", "NETBOX_TOKEN", h(40), "key"),
    ("graylog access token", "GRAYLOG_TOKEN", pre("", 52, LOWER), "key"),
    ("wazuh api password", "WAZUH_API_PASSWORD", P, "pw"),
    ("crowdsec bouncer key", "CROWDSEC_BOUNCER_KEY", pre("", 32), "key"),
    ("mailcow api key", "MAILCOW_API_KEY", lambda: "-".join(rs(6, UHEX) for _ in range(5)), "key"),
    ("postal server api key", "POSTAL_API_KEY", pre("", 24), "key"),
    ("listmonk api token", "LISTMONK_TOKEN", pre("", 32), "key"),
    ("dovecot master password", "DOVECOT_MASTER_PASSWORD", P, "pw"),
    ("roundcube des_key", "ROUNDCUBE_DES_KEY", pre("", 24), "key"),
    # webhooks whose token is a path segment
    ("rocket.chat incoming webhook", "ROCKETCHAT_WEBHOOK", lambda: f"{rs(17)}/{rs(48)}", "hook"),
    ("zulip incoming webhook key", "ZULIP_WEBHOOK", pre("", 32), "hook"),
    ("home assistant webhook id", "HA_WEBHOOK", lambda: "-" + rs(24, B64U), "hook"),
    ("n8n production webhook", "N8N_WEBHOOK", U, "hook"),
    ("make.com scenario webhook", "MAKE_WEBHOOK", pre("", 32, LOWER), "hook"),
    ("pipedream source endpoint", "PIPEDREAM_ENDPOINT", pre("en", 16, LOWER), "hook"),
]

# --------------------------------------------------------------------------- forms


@dataclass(frozen=True)
class Ctx:
    label: str
    var: str
    val: str
    user: str
    slug: str

    @property
    def snake(self) -> str:
        return self.var.lower()

    @property
    def camel(self) -> str:
        head, *rest = self.var.lower().split("_")
        return head + "".join(p.capitalize() for p in rest if p)

    @property
    def pascal(self) -> str:
        return "".join(p.capitalize() for p in re.split(r"[^a-z0-9]+", self.slug) if p) or "Api"

    @property
    def kebab(self) -> str:
        return self.var.lower().replace("_", "-")

    @property
    def host(self) -> str:
        return f"api.{self.slug.replace('-', '')}.io"


Form = Callable[[Ctx], tuple[str, str]]
USERS = "svc_sync ops deploy app_rw backup ci-bot reporter admin etl grafana mlops".split()


def _env(c: Ctx) -> tuple[str, str]:
    return f"NODE_ENV=production\nLOG_LEVEL=info\n{c.var}={c.val}\nPORT=8080\n", c.val


def _export(c: Ctx) -> tuple[str, str]:
    return f"$ export {c.var}='{c.val}'\n$ ./scripts/sync.sh --dry-run\n", c.val


def _netrc(c: Ctx) -> tuple[str, str]:
    return f"# ~/.netrc\nmachine {c.host}\n  login {c.user}\n  password {c.val}\n", c.val


def _npmrc(c: Ctx) -> tuple[str, str]:
    reg = f"npm.pkg.{c.slug.replace('-', '')}.dev"
    return f"@acme:registry=https://{reg}/\n//{reg}/:_authToken={c.val}\nalways-auth=true\n", c.val


def _pypirc(c: Ctx) -> tuple[str, str]:
    text = (
        "[distutils]\nindex-servers =\n    internal\n\n[internal]\n"
        f"repository = https://pypi.{c.slug.replace('-', '')}.internal/simple/\n"
        f"username = {c.user}\npassword = {c.val}\n"
    )
    return text, c.val


def _docker(c: Ctx) -> tuple[str, str]:
    auth = base64.b64encode(f"{c.user}:{c.val}".encode()).decode()
    doc = {"auths": {f"registry.{c.slug.replace('-', '')}.io": {"auth": auth}}, "credsStore": ""}
    return "~/.docker/config.json:\n" + json.dumps(doc, indent=2) + "\n", auth


def _k8s_b64(c: Ctx) -> tuple[str, str]:
    enc = base64.b64encode(c.val.encode()).decode()
    text = (
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {c.slug}-creds\n  namespace: prod\n"
        f"type: Opaque\ndata:\n  {c.kebab}: {enc}\n"
    )
    return text, enc


def _k8s_string(c: Ctx) -> tuple[str, str]:
    text = (
        f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {c.slug}\ntype: Opaque\n"
        f'stringData:\n  {c.var}: "{c.val}"\n'
    )
    return text, c.val


def _helm(c: Ctx) -> tuple[str, str]:
    text = (
        f"# values-prod.yaml\nintegrations:\n  {c.camel.split('Api')[0] or c.slug}:\n"
        f'    enabled: true\n    auth:\n      existingSecret: ""\n      {c.camel}: "{c.val}"\n'
        "    resources:\n      limits:\n        cpu: 500m\n"
    )
    return text, c.val


def _tfvars(c: Ctx) -> tuple[str, str]:
    return f'region       = "eu-central-1"\n{c.snake} = "{c.val}"\nreplicas     = 3\n', c.val


def _ansible(c: Ctx) -> tuple[str, str]:
    text = f'# group_vars/prod/main.yml\n---\n{c.snake}: "{c.val}"\n{c.slug.replace("-", "_")}_port: 443\n'
    return text, c.val


def _json_log(c: Ctx) -> tuple[str, str]:
    body = json.dumps({"user": c.user, c.snake: c.val, "retry": 2})
    line = json.dumps(
        {"ts": "2026-11-03T09:12:44.118Z", "level": "debug", "msg": "outgoing", "body": body}
    )
    return line + "\n", json.dumps(c.val)[1:-1]


def _toml(c: Ctx) -> tuple[str, str]:
    return (
        f'[{c.slug}]\nendpoint = "https://{c.host}"\n{c.snake} = "{c.val}"\ntimeout = 30\n',
        c.val,
    )


def _ini(c: Ctx) -> tuple[str, str]:
    return f"[{c.slug}]\nurl = https://{c.host}\n{c.snake} = {c.val}\nverify_ssl = true\n", c.val


def _xml(c: Ctx) -> tuple[str, str]:
    text = (
        "<configuration>\n  <appSettings>\n"
        f'    <add key="{c.pascal}.Endpoint" value="https://{c.host}" />\n'
        f'    <add key="{c.pascal}.{c.camel[0].upper() + c.camel[1:]}" value="{c.val}" />\n'
        "  </appSettings>\n</configuration>\n"
    )
    return text, c.val


def _props(c: Ctx) -> tuple[str, str]:
    key = c.slug.replace("-", ".") + "." + c.kebab
    return f"# application-prod.properties\nserver.port=8443\n{key}={c.val}\n", c.val


def _md_table(c: Ctx) -> tuple[str, str]:
    text = (
        "## Staging access\n\n| Service | User | Secret | Notes |\n|---|---|---|---|\n"
        f"| {c.label} | {c.user} | `{c.val}` | rotate quarterly |\n"
    )
    return text, c.val


def _cli_table(c: Ctx) -> tuple[str, str]:
    w = max(len(c.val), 5)
    line = f"+{'-' * 28}+{'-' * (w + 2)}+"
    text = (
        f"$ {c.slug}ctl config list\n{line}\n| {'KEY':<26} | {'VALUE':<{w}} |\n{line}\n"
        f"| {'region':<26} | {'eu-west-1':<{w}} |\n| {c.snake:<26} | {c.val:<{w}} |\n{line}\n"
    )
    return text, c.val


def _flag(c: Ctx) -> tuple[str, str]:
    return f"$ {c.slug}ctl deploy --env prod --{c.kebab}={c.val} --wait\n", c.val


def _positional(c: Ctx) -> tuple[str, str]:
    return (
        f"$ {c.slug} config set {c.snake} {c.val}\nsaved to ~/.config/{c.slug}/config.yml\n",
        c.val,
    )


def _curl_header(c: Ctx) -> tuple[str, str]:
    header = R.choice(
        ["X-Api-Key: ", "Authorization: Bearer ", "X-Auth-Token: ", "Authorization: Token "]
    )
    return f'curl -sS -H "{header}{c.val}" https://{c.host}/v1/status | jq .\n', c.val


def _curl_u(c: Ctx) -> tuple[str, str]:
    return f"curl -fsS -u {c.user}:{c.val} https://{c.host}/api/v2/health\n", c.val


def _userinfo(c: Ctx) -> tuple[str, str]:
    scheme, port, var = R.choice(
        [
            ("postgresql", 5432, "DATABASE_URL"),
            ("mysql", 3306, "DATABASE_URL"),
            ("amqps", 5671, "BROKER_URL"),
            ("rediss", 6380, "CACHE_URL"),
            ("mongodb", 27017, "MONGO_URL"),
            ("sftp", 22, "UPLOAD_TARGET"),
        ]
    )
    return f"{var}={scheme}://{c.user}:{c.val}@{c.slug}-1.internal:{port}/app\n", c.val


def _query(c: Ctx) -> tuple[str, str]:
    param = R.choice(["api_key", "token", "apikey", "key", "access_token", "secret"])
    return f"GET https://{c.host}/v2/items?limit=50&{param}={c.val}&page=2 -> 200 OK\n", c.val


def _py(c: Ctx) -> tuple[str, str]:
    text = f'from {c.slug.replace("-", "_")} import Client\n\nclient = Client({c.snake}="{c.val}", timeout=30)\n'
    return text, c.val


def _js(c: Ctx) -> tuple[str, str]:
    return (
        f"const client = new {c.pascal}Client({{\n  {c.camel}: '{c.val}',\n  retries: 3,\n}});\n",
        c.val,
    )


def _go(c: Ctx) -> tuple[str, str]:
    field = c.camel[0].upper() + c.camel[1:]
    return (
        f'cfg := {c.slug.replace("-", "")}.Config{{\n\t{field}: "{c.val}",\n\tTimeout: 10 * time.Second,\n}}\n',
        c.val,
    )


def _ruby(c: Ctx) -> tuple[str, str]:
    return f'{c.pascal}.configure do |config|\n  config.{c.snake} = "{c.val}"\nend\n', c.val


def _rust(c: Ctx) -> tuple[str, str]:
    return (
        f'let client = {c.pascal}Client::builder()\n    .{c.snake}("{c.val}")\n    .build()?;\n',
        c.val,
    )


def _kotlin(c: Ctx) -> tuple[str, str]:
    return (
        f'val client = {c.pascal}Client.Builder()\n    .{c.camel}("{c.val}")\n    .build()\n',
        c.val,
    )


def _swift(c: Ctx) -> tuple[str, str]:
    return (
        f'let client = {c.pascal}Client(\n    {c.camel}: "{c.val}",\n    session: .shared\n)\n',
        c.val,
    )


def _php(c: Ctx) -> tuple[str, str]:
    return f"$client = new \\{c.pascal}\\Client([\n    '{c.snake}' => '{c.val}',\n]);\n", c.val


def _elixir(c: Ctx) -> tuple[str, str]:
    app = c.slug.replace("-", "_").replace(".", "_")
    return (
        f'config :{app}, {app.capitalize()}.Client,\n  {c.snake}: "{c.val}",\n  pool_size: 10\n',
        c.val,
    )


def _diff(c: Ctx) -> tuple[str, str]:
    text = (
        f"diff --git a/config/settings.py b/config/settings.py\nindex 3f2a9c1..8b7d0e4 100644\n"
        "--- a/config/settings.py\n+++ b/config/settings.py\n@@ -12,3 +12,3 @@ DEBUG = False\n"
        f' TIME_ZONE = "UTC"\n-{c.var} = os.environ["{c.var}"]\n+{c.var} = "{c.val}"  # TODO revert\n'
    )
    return text, c.val


def _trace(c: Ctx) -> tuple[str, str]:
    text = (
        "Traceback (most recent call last):\n"
        f'  File "/srv/app/jobs/{c.slug.replace("-", "_")}.py", line 88, in sync\n'
        "    resp = session.post(url, json=payload)\n"
        f"    url = 'https://{c.host}/v1/sync'\n"
        f"    payload = {{'account': '{c.user}', '{c.snake}': '{c.val}'}}\n"
        "requests.exceptions.ConnectionError: HTTPSConnectionPool: Max retries exceeded\n"
    )
    return text, c.val


def _chat_en(c: Ctx) -> tuple[str, str]:
    return (
        f"hey, the {c.label} got rotated this morning, new one is {c.val} - can you update staging?\n",
        c.val,
    )


def _chat_zh(c: Ctx) -> tuple[str, str]:
    return f"我刚把{c.label}换了，新的是 {c.val} ，你先在测试环境试一下，别发到大群里。\n", c.val


def _chat_es(c: Ctx) -> tuple[str, str]:
    return (
        f"Oye, la clave de {c.label} es {c.val}, úsala solo en staging porfa y luego la rotamos.\n",
        c.val,
    )


def _chat_ja(c: Ctx) -> tuple[str, str]:
    return (
        f"{c.label}を再発行しました。新しい値は {c.val} です。本番にはまだ入れないでください。\n",
        c.val,
    )


def _gha(c: Ctx) -> tuple[str, str]:
    text = (
        "jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n"
        f"      {c.var}: {c.val}\n    steps:\n      - uses: actions/checkout@v4\n"
    )
    return text, c.val


def _systemd(c: Ctx) -> tuple[str, str]:
    text = (
        f'[Service]\nUser={c.slug.replace(".", "")}\nEnvironment="{c.var}={c.val}"\n'
        f"ExecStart=/usr/local/bin/{c.slug}-agent --config /etc/{c.slug}/agent.yml\n"
    )
    return text, c.val


def _cron(c: Ctx) -> tuple[str, str]:
    return (
        f"*/15 * * * * {c.var}={c.val} /opt/{c.slug}/bin/sync >> /var/log/{c.slug}.log 2>&1\n",
        c.val,
    )


def _pwsh(c: Ctx) -> tuple[str, str]:
    return f'PS C:\\src\\app> $env:{c.var} = "{c.val}"\nPS C:\\src\\app> dotnet run\n', c.val


def _winset(c: Ctx) -> tuple[str, str]:
    return f"C:\\Users\\build> set {c.var}={c.val}\nC:\\Users\\build> npm run release\n", c.val


def _sql(c: Ctx) -> tuple[str, str]:
    user = c.user.replace("-", "_")
    stmt = R.choice(
        [
            f"CREATE USER {user} WITH LOGIN PASSWORD '{c.val}';",
            f"CREATE USER {user} PASSWORD = '{c.val}' DEFAULT_ROLE = analyst;",
            f"CREATE USER '{user}'@'10.%' IDENTIFIED BY '{c.val}';",
        ]
    )
    return (
        f"-- migrations/0042_{c.slug.replace('-', '_')}_user.sql\n{stmt}\nGRANT SELECT ON ALL TABLES IN SCHEMA public TO {user};\n",
        c.val,
    )


def _redis(c: Ctx) -> tuple[str, str]:
    return (
        f"$ redis-cli -h cache-1.internal\ncache-1.internal:6379> AUTH {c.user} {c.val}\nOK\n",
        c.val,
    )


def _git_remote(c: Ctx) -> tuple[str, str]:
    text = f"$ git remote set-url origin https://oauth2:{c.val}@git.{c.slug.replace('-', '')}.dev/platform/app.git\n$ git push origin main\n"
    return text, c.val


def _jupyter(c: Ctx) -> tuple[str, str]:
    cell = {
        "cell_type": "code",
        "execution_count": 3,
        "metadata": {},
        "outputs": [],
        "source": ["import os\n", f'os.environ["{c.var}"] = "{c.val}"\n', "client = connect()\n"],
    }
    return json.dumps(cell, indent=1) + "\n", c.val


def _yaml(c: Ctx) -> tuple[str, str]:
    return f"{c.slug}:\n  base_url: https://{c.host}\n  {c.snake}: {c.val}\n  verify: true\n", c.val


def _dockerfile(c: Ctx) -> tuple[str, str]:
    return f"FROM python:3.12-slim\nWORKDIR /app\nENV {c.var}={c.val}\nCOPY . .\n", c.val


def _docker_run(c: Ctx) -> tuple[str, str]:
    return (
        f"docker run -d --name {c.slug} -e {c.var}={c.val} -p 8080:8080 ghcr.io/acme/{c.slug}:2.3.1\n",
        c.val,
    )


def _http_dump(c: Ctx) -> tuple[str, str]:
    text = (
        f"> POST /v1/events HTTP/1.1\n> Host: {c.host}\n> User-Agent: curl/8.5.0\n"
        f"> Authorization: Bearer {c.val}\n> Content-Type: application/json\n>\n< HTTP/1.1 202 Accepted\n"
    )
    return text, c.val


def _hcl(c: Ctx) -> tuple[str, str]:
    return (
        f'provider "{c.slug.replace(".", "")}" {{\n  endpoint  = "https://{c.host}"\n  {c.snake} = "{c.val}"\n}}\n',
        c.val,
    )


def _makefile(c: Ctx) -> tuple[str, str]:
    return f"{c.var} ?= {c.val}\n\nrelease:\n\t./release.sh --target prod\n", c.val


def _nix(c: Ctx) -> tuple[str, str]:
    return (
        f'services.{c.camel.split("Api")[0]} = {{\n  enable = true;\n  {c.camel} = "{c.val}";\n}};\n',
        c.val,
    )


def _compose(c: Ctx) -> tuple[str, str]:
    return (
        f"services:\n  {c.slug}:\n    image: {c.slug}/server:latest\n    environment:\n      - {c.var}={c.val}\n",
        c.val,
    )


# Multi-line keys: the value scored is the body, the part that must not survive.
def pem_body(block: str) -> str:
    lines = block.split("\n")
    return "\n".join(lines[1:-1])


def _b_cat(c: Ctx) -> tuple[str, str]:
    return f"$ cat ~/.keys/{c.slug}.key\n{c.val}\n$ chmod 600 ~/.keys/{c.slug}.key\n", pem_body(
        c.val
    )


def _b_k8s(c: Ctx) -> tuple[str, str]:
    body = "\n".join("    " + line for line in c.val.split("\n"))
    text = f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {c.slug}-key\nstringData:\n  key.pem: |\n{body}\n"
    return text, "\n".join("    " + line for line in pem_body(c.val).split("\n"))


def _b_json(c: Ctx) -> tuple[str, str]:
    text = json.dumps(
        {"type": "service_account", "name": c.slug, "private_key": c.val + "\n"}, indent=2
    )
    return text + "\n", json.dumps(pem_body(c.val))[1:-1]


def _b_env(c: Ctx) -> tuple[str, str]:
    return f'{c.var}="{c.val}"\nOTHER_SETTING=1\n', pem_body(c.val)


def _b_chat(c: Ctx) -> tuple[str, str]:
    return (
        f"here's the {c.label}, paste it into the runner settings:\n\n{c.val}\n\nthanks!\n",
        pem_body(c.val),
    )


def _b_py(c: Ctx) -> tuple[str, str]:
    return f'{c.var} = """{c.val}\n"""\n', pem_body(c.val)


def _b_ansible(c: Ctx) -> tuple[str, str]:
    body = "\n".join("  " + line for line in c.val.split("\n"))
    return f"# host_vars/bastion.yml\n{c.snake}: |\n{body}\n", "\n".join(
        "  " + line for line in pem_body(c.val).split("\n")
    )


# Phrases have spaces, so only forms that quote or delimit them.
def _p_env(c: Ctx) -> tuple[str, str]:
    return f'{c.var}="{c.val}"\nNETWORK=mainnet\n', c.val


def _p_yaml(c: Ctx) -> tuple[str, str]:
    return f'wallet:\n  network: mainnet\n  {c.snake}: "{c.val}"\n', c.val


def _p_flag(c: Ctx) -> tuple[str, str]:
    return f'$ {c.slug.split()[0]}-cli restore --{c.kebab} "{c.val}" --account 0\n', c.val


# Webhooks: the token is a path segment of a URL.
HOOK_URL = {
    "quicknode endpoint token": "https://silent-wispy-river.quiknode.pro/{}/",
    "ankr rpc key": "https://rpc.ankr.com/eth/{}",
    "rocket.chat incoming webhook": "https://chat.acme.dev/hooks/{}",
    "zulip incoming webhook key": "https://acme.zulipchat.com/api/v1/external/github?api_key={}&stream=deploys",
    "home assistant webhook id": "https://ha.home.example.net/api/webhook/{}",
    "n8n production webhook": "https://n8n.acme.dev/webhook/{}",
    "make.com scenario webhook": "https://hook.eu2.make.com/{}",
    "pipedream source endpoint": "https://{}.m.pipedream.net",
}


def _h_env(c: Ctx) -> tuple[str, str]:
    return f"{c.var}={HOOK_URL[c.label].format(c.val)}\n", c.val


def _h_curl(c: Ctx) -> tuple[str, str]:
    url = HOOK_URL[c.label].format(c.val)
    return (
        f"curl -X POST -H 'Content-Type: application/json' -d '{{\"text\":\"deploy ok\"}}' '{url}'\n",
        c.val,
    )


def _h_py(c: Ctx) -> tuple[str, str]:
    return (
        f'requests.post("{HOOK_URL[c.label].format(c.val)}", json={{"event": "build"}}, timeout=5)\n',
        c.val,
    )


FORMS: dict[str, tuple[Form, frozenset[str]]] = {}


def _reg(name: str, fn: Form, classes: str) -> None:
    FORMS[name] = (fn, frozenset(classes.split()))


for _name, _fn, _cls in [
    (".env file", _env, "key pw"),
    ("shell export", _export, "key pw"),
    (".netrc", _netrc, "pw key"),
    (".npmrc", _npmrc, "key"),
    (".pypirc", _pypirc, "pw key"),
    ("docker config.json auths", _docker, "pw key"),
    ("kubernetes secret data (base64)", _k8s_b64, "key pw"),
    ("kubernetes secret stringData", _k8s_string, "key pw"),
    ("helm values nested", _helm, "key pw"),
    ("terraform tfvars", _tfvars, "key pw"),
    ("ansible group_vars", _ansible, "key pw"),
    ("escaped json in a log line", _json_log, "key pw"),
    ("toml", _toml, "key pw"),
    ("ini", _ini, "key pw"),
    ("xml appSettings", _xml, "key pw"),
    ("java properties", _props, "key pw"),
    ("markdown table", _md_table, "key pw"),
    ("cli table output", _cli_table, "key pw"),
    ("cli flag", _flag, "key pw"),
    ("cli positional", _positional, "key pw"),
    ("curl header", _curl_header, "key"),
    ("curl -u user:pass", _curl_u, "pw"),
    ("url userinfo", _userinfo, "pw"),
    ("url query parameter", _query, "key"),
    ("python sdk", _py, "key pw"),
    ("javascript sdk", _js, "key pw"),
    ("go struct", _go, "key pw"),
    ("ruby configure block", _ruby, "key pw"),
    ("rust builder", _rust, "key pw"),
    ("kotlin builder", _kotlin, "key pw"),
    ("swift initialiser", _swift, "key pw"),
    ("php array", _php, "key pw"),
    ("elixir config", _elixir, "key pw"),
    ("diff hunk", _diff, "key pw"),
    ("python stack trace locals", _trace, "key pw"),
    ("chat english", _chat_en, "key pw phrase"),
    ("chat chinese", _chat_zh, "key pw phrase"),
    ("chat spanish", _chat_es, "key pw phrase"),
    ("chat japanese", _chat_ja, "key pw"),
    ("github actions env", _gha, "key pw"),
    ("systemd unit", _systemd, "key pw"),
    ("crontab", _cron, "key pw"),
    ("powershell $env:", _pwsh, "key pw"),
    ("windows set", _winset, "key pw"),
    ("sql create user", _sql, "pw"),
    ("redis AUTH", _redis, "pw"),
    ("git remote url", _git_remote, "key"),
    ("jupyter cell", _jupyter, "key pw"),
    ("yaml config", _yaml, "key pw"),
    ("dockerfile ENV", _dockerfile, "key pw"),
    ("docker run -e", _docker_run, "key pw"),
    ("curl -v request dump", _http_dump, "key"),
    ("terraform provider block", _hcl, "key pw"),
    ("makefile variable", _makefile, "key pw"),
    ("nix module", _nix, "key pw"),
    ("compose environment list", _compose, "key pw"),
    ("key file cat", _b_cat, "block"),
    ("kubernetes stringData block", _b_k8s, "block"),
    ("json with escaped newlines", _b_json, "block"),
    ("quoted multi-line env", _b_env, "block"),
    ("chat with pasted key", _b_chat, "block"),
    ("python triple-quoted", _b_py, "block"),
    ("ansible literal block", _b_ansible, "block"),
    ("quoted env", _p_env, "phrase"),
    ("quoted yaml", _p_yaml, "phrase"),
    ("quoted cli flag", _p_flag, "phrase"),
    ("webhook url in env", _h_env, "hook"),
    ("webhook url in curl", _h_curl, "hook"),
    ("webhook url in python", _h_py, "hook"),
]:
    _reg(_name, _fn, _cls)


def slug_of(label: str) -> str:
    first = re.sub(r"[^a-z0-9.-]+", "-", label.lower()).strip("-")
    parts = [p for p in first.split("-") if p not in ("api", "key", "token", "secret", "client")]
    return "-".join(parts[:2]) or "svc"


def secrets() -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    by_class: dict[str, list[str]] = {}
    for name, (_fn, classes) in FORMS.items():
        for cls in classes:
            by_class.setdefault(cls, []).append(name)
    for names in by_class.values():
        R.shuffle(names)
        # Forms only one class can use go first, so each of them is used at least once.
        names.sort(key=lambda n: len(FORMS[n][1]))
    # Passwords get a second place among the forms only passwords use.
    by_class["pw-only"] = [n for n in by_class["pw"] if FORMS[n][1] == {"pw"}]
    turn = dict.fromkeys(by_class, 0)
    for i, (label, var, make, cls) in enumerate(VENDORS):
        places = [cls] * (2 if i % 4 == 0 or cls in ("block", "phrase", "hook") else 1)
        if cls == "pw":
            places.append("pw-only")
        for place in places:
            names = by_class[place]
            name = names[turn[place] % len(names)]
            turn[place] += 1
            ctx = Ctx(label, var, make(), R.choice(USERS), slug_of(label))
            text, secret = FORMS[name][0](ctx)
            assert secret in text, (label, name)
            out.append({"kind": f"{label} [{name}]", "text": text, "secret": secret})
    return out


# --------------------------------------------------------------------------- look-alikes
# Text that must come out unchanged: ids, hashes, placeholders, masked or public values,
# and code that talks about secrets without holding one.


def _sha() -> str:
    return hx(40)


def _ver() -> str:
    return f"{R.randrange(0, 9)}.{R.randrange(0, 30)}.{R.randrange(0, 20)}"


def _git() -> list[tuple[str, str]]:
    a, b, c = _sha(), _sha(), _sha()
    return [
        (
            "git log --oneline",
            "\n".join(
                f"{hx(7)} {m}"
                for m in ("fix: retry on 502", "chore: bump deps", "feat: export csv")
            )
            + "\n",
        ),
        (
            "full commit line in git log",
            f"commit {a}\nAuthor: Dana Ruiz <dana@example.org>\nDate:   Tue Nov 4 10:12:03 2026 +0100\n\n    Rotate the signing key reader\n",
        ),
        ("merge commit parents", f"commit {b}\nMerge: {hx(9)} {hx(9)}\n"),
        (
            "git revert by sha",
            f'$ git revert --no-edit {c}\n[main {hx(7)}] Revert "feat: token cache"\n',
        ),
        ("git cherry-pick range", f"git cherry-pick {hx(12)}..{hx(12)}\n"),
        ("github commit url", f"See https://github.com/acme/api/commit/{_sha()} for the fix.\n"),
        ("git rev-parse output", f"$ git rev-parse HEAD\n{_sha()}\n"),
        (
            "rebase todo list",
            f"pick {hx(7)} Add secret scanning to CI\nsquash {hx(7)} Tidy the password reset mail\nfixup {hx(7)} typo\n",
        ),
        (
            "submodule status",
            f" {_sha()} vendor/libsodium (1.0.20-RELEASE)\n+{_sha()} third_party/jwt-cpp (v0.7.0)\n",
        ),
        ("github actions pinned by sha", f"      - uses: actions/setup-node@{_sha()} # v4.1.0\n"),
        ("git bisect message", f"{_sha()} is the first bad commit\n"),
        ("go pseudo-version", f"require golang.org/x/crypto v0.0.0-20260311152106-{hx(12)}\n"),
    ]


def _checksums() -> list[tuple[str, str]]:
    return [
        ("sha256sum output", f"{hx(64)}  node-v22.11.0-linux-x64.tar.xz\n"),
        ("bsd style checksum", f"SHA256 (restic_0.17.3_linux_amd64.bz2) = {hx(64)}\n"),
        (
            "dockerfile checksum arg",
            f'ARG KUBECTL_SHA256={hx(64)}\nRUN echo "${{KUBECTL_SHA256}}  kubectl" | sha256sum -c -\n',
        ),
        ("go.sum line", f"github.com/spf13/cobra v1.8.1 h1:{b64(32)}\n"),
        (
            "cargo.lock checksum",
            f'[[package]]\nname = "ring"\nversion = "0.17.8"\nchecksum = "{hx(64)}"\n',
        ),
        ("pip hash pin", f"cryptography==43.0.3 \\\n    --hash=sha256:{hx(64)}\n"),
        ("md5 etag header", f'< ETag: "{hx(32)}"\n< Content-Length: 18244\n'),
        ("docker image digest", f"image: ghcr.io/acme/api@sha256:{hx(64)}\n"),
        (
            "homebrew formula sha",
            f'  url "https://example.org/tool-{_ver()}.tar.gz"\n  sha256 "{hx(64)}"\n',
        ),
        ("sha512 of release asset", f"sha512: {hx(128)}\n"),
        ("s3 multipart etag", f'"ETag": "\\"{hx(32)}-{R.randrange(2, 40)}\\""\n'),
    ]


def _lockfiles() -> list[tuple[str, str]]:
    return [
        (
            "package-lock integrity",
            f'"node_modules/jose": {{\n  "version": "5.9.6",\n  "resolved": "https://registry.npmjs.org/jose/-/jose-5.9.6.tgz",\n  "integrity": "sha512-{b64(64)}"\n}}\n',
        ),
        (
            "yarn.lock integrity",
            f'jsonwebtoken@^9.0.2:\n  version "9.0.2"\n  integrity sha512-{b64(64)}\n',
        ),
        (
            "pnpm-lock resolution",
            f"  /bcryptjs@2.4.3:\n    resolution: {{integrity: sha512-{b64(64)}}}\n",
        ),
        (
            "poetry.lock file hash",
            f'files = [\n    {{file = "pyjwt-2.10.1-py3-none-any.whl", hash = "sha256:{hx(64)}"}},\n]\n',
        ),
        ("flake.lock narHash", f'"narHash": "sha256-{b64(32)}",\n"rev": "{_sha()}",\n'),
        ("composer.lock shasum", f'"dist": {{"type": "zip", "shasum": "{hx(40)}"}}\n'),
        ("gemfile.lock checksum", f"CHECKSUMS\n  bcrypt (3.1.20) sha256={hx(64)}\n"),
    ]


def _ids() -> list[tuple[str, str]]:
    return [
        ("x-request-id header", f"< X-Request-Id: {uid()}\n"),
        ("w3c traceparent", f"traceparent: 00-{hx(32)}-{hx(16)}-01\n"),
        (
            "request_id in json log",
            json.dumps({"level": "info", "request_id": uid(), "status": 200}) + "\n",
        ),
        ("correlation id in prose", f"The failing call has correlation id {uid()}; see Kibana.\n"),
        (
            "aws request id",
            f"An error occurred (ThrottlingException): Rate exceeded (RequestId: {uid()})\n",
        ),
        (
            "kubernetes object uid",
            f'metadata:\n  name: web\n  uid: {uid()}\n  resourceVersion: "{R.randrange(10**6, 10**8)}"\n',
        ),
        ("sentry event id", f"Sentry event {hx(32)} captured\n"),
        (
            "datadog trace id",
            f"dd.trace_id={R.randrange(10**18, 10**19)} dd.span_id={R.randrange(10**18, 10**19)}\n",
        ),
        ("azure subscription id", f"az account set --subscription {uid()}\n"),
        ("gcp project number", f"projects/{R.randrange(10**11, 10**12)}/locations/global\n"),
        ("stripe object ids", f"charge ch_{rs(24)} for customer cus_{rs(14)} succeeded\n"),
        ("slack channel and user ids", f"posted to C0{rs(9, UPPER)} by U0{rs(9, UPPER)}\n"),
        ("twilio account sid label", f"Account SID: AC{hx(32)}\n"),
        (
            "google oauth client id",
            f"client_id: {R.randrange(10**11, 10**12)}-{rs(32, LOWER)}.apps.googleusercontent.com\n",
        ),
        ("kubernetes pod name", f"web-{hx(10)}-{rs(5, LOWER)}   1/1   Running   0   3d\n"),
        ("snowflake id", f"message id {R.randrange(10**17, 10**18)} deleted\n"),
        ("ulid order id", f"order {rs(26, '0123456789ABCDEFGHJKMNPQRSTVWXYZ')} shipped\n"),
        ("mongodb object id", f'{{"_id": {{"$oid": "{hx(24)}"}}, "name": "Ana"}}\n'),
    ]


def _arns() -> list[tuple[str, str]]:
    acct = R.randrange(10**11, 10**12)
    return [
        ("iam role arn", f"role_arn = arn:aws:iam::{acct}:role/ci-deployer\n"),
        (
            "secrets manager arn",
            f"SecretId: arn:aws:secretsmanager:eu-west-1:{acct}:secret:prod/db-password-{rs(6)}\n",
        ),
        ("kms key arn", f'kms_key_id = "arn:aws:kms:us-east-1:{acct}:key/{uid()}"\n'),
        ("sns topic arn", f"TopicArn: arn:aws:sns:us-east-2:{acct}:alerts\n"),
        ("lambda function arn", f"arn:aws:lambda:ap-south-1:{acct}:function:token-rotator:7\n"),
        (
            "ssm parameter path",
            "aws ssm get-parameter --name /prod/api/secret_key --with-decryption\n",
        ),
    ]


def _placeholders() -> list[tuple[str, str]]:
    return [
        ("angle placeholder", "export NOTIFY_API_KEY=<your-api-key>\n"),
        ("x placeholder", "STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx\n"),
        (
            "shell variable reference",
            'curl -H "Authorization: Bearer ${API_TOKEN}" https://api.example.com/me\n',
        ),
        ("changeme default", "POSTGRES_PASSWORD=changeme\n"),
        ("your key here", 'client = Client(api_key="YOUR_API_KEY_HERE")\n'),
        ("helm template reference", "password: {{ .Values.auth.password | quote }}\n"),
        ("python format placeholder", "dsn = 'postgresql://%(user)s:%(password)s@%(host)s/app'\n"),
        ("github secrets expression", "      TOKEN: ${{ secrets.DEPLOY_TOKEN }}\n"),
        ("replace me", "jwt_secret: REPLACE_ME\n"),
        ("ellipsis", "ACCESS_TOKEN=eyJhbGciOi...\n"),
        ("redacted marker", '"password": "[REDACTED]"\n'),
        ("stars", "password: ********\n"),
        ("env reference in js", "const key = process.env.OPENWEATHER_KEY ?? '';\n"),
        ("env reference in python", 'token = os.environ["GITLAB_TOKEN"]\n'),
        ("terraform var reference", "password = var.db_password\n"),
        (
            "docs example password",
            "mysql -u root -p'password' # (example from the docs; use your own)\n",
        ),
        ("todo placeholder", "SLACK_BOT_TOKEN=TODO\n"),
        ("dollar brace default", "REDIS_URL=${REDIS_URL:-redis://localhost:6379/0}\n"),
        ("vault path reference", "secret: vault:secret/data/prod/api#token\n"),
        (
            "sops encrypted value",
            f"api_key: ENC[AES256_GCM,data:{b64(24)},iv:{b64(32)},tag:{b64(16)},type:str]\n",
        ),
    ]


def _masked() -> list[tuple[str, str]]:
    return [
        ("masked openai-style key", "Using key sk-****abcd from the environment\n"),
        ("masked github token", f"token ghp_************************{rs(4)} expires in 7 days\n"),
        ("masked aws key id", "aws_access_key_id = AKIA****************\n"),
        ("masked card", "Card •••• •••• •••• 4242 charged EUR 19.00\n"),
        ("masked by cli", f"Token: {rs(4)}…{rs(4)} (hidden, use --show)\n"),
        ("masked middle", f"secret_key: {rs(3)}...{rs(3)}\n"),
        ("asterisk password in log", "connecting as admin with password=***** to db-1\n"),
    ]


def _public() -> list[tuple[str, str]]:
    return [
        ("stripe publishable key", f"NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_live_{rs(99)}\n"),
        ("ssh public key", f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b64(32)[:43]} dana@laptop\n"),
        ("authorized_keys rsa", f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{b64(380)} deploy@ci\n"),
        ("pgp public key block", pem("PGP PUBLIC KEY BLOCK", 400) + "\n"),
        ("x509 certificate", pem("CERTIFICATE", 700) + "\n"),
        ("age recipient", f"age -r age1{rs(58, BECH)} -o backup.age backup.tar\n"),
        ("wireguard public key", f"[Peer]\nPublicKey = {b64(32)}\nAllowedIPs = 10.8.0.2/32\n"),
        ("ethereum address", f"send 0.5 ETH to 0x{hx(40)}\n"),
        ("bitcoin address", f"bc1q{rs(38, BECH)}\n"),
        ("vapid public key", f"VAPID_PUBLIC_KEY={b64u(65)}\n"),
        (
            "algolia search-only key labelled",
            f"// search-only, safe in the browser\nconst searchOnlyKey = '{hx(32)}';\n",
        ),
        ("recaptcha site key", f'data-sitekey="6L{rs(38, B64U)}"\n'),
        (
            "mapbox public token",
            "mapboxgl.accessToken = 'pk.eyJ1IjoiYWNtZSIsImEiOiJjbGFiYzEyMyJ9."
            + rs(22, B64U)
            + "';\n",
        ),
        (
            "supabase anon key labelled",
            "# anon key is public by design\nSUPABASE_ANON_KEY=<copied from project settings>\n",
        ),
    ]


def _hashes() -> list[tuple[str, str]]:
    return [
        ("webpack bundle name", f'<script src="/static/js/main.{hx(8)}.js"></script>\n'),
        ("ipfs cid", f"ipfs://bafybei{rs(52, 'abcdefghijklmnopqrstuvwxyz234567')}\n"),
        (
            "nix store path",
            f"/nix/store/{rs(32, '0123456789abcdfghijklmnpqrsvwxyz')}-openssl-3.3.2\n",
        ),
        ("diff index line", f"index {hx(7)}..{hx(7)} 100644\n"),
        ("actions cache key", f"Cache restored from key: Linux-pnpm-store-{hx(64)}\n"),
        ("docker layer pull", f"{hx(12)}: Pull complete\n{hx(12)}: Already exists\n"),
        ("content-addressed asset", f"https://cdn.example.com/a/{hx(40)}.png\n"),
        (
            "bcrypt hash in test fixture",
            "# fixture: hash of the word 'correct'\n$2b$12$" + rs(53, ALNUM + "./") + "\n",
        ),
        (
            "subresource integrity",
            f'<link rel="stylesheet" href="/app.css" integrity="sha384-{b64(48)}" crossorigin>\n',
        ),
    ]


def _b64_plain() -> list[tuple[str, str]]:
    def enc(s: str) -> str:
        return base64.b64encode(s.encode()).decode()

    return [
        ("base64 of hello", f"$ echo {enc('hello world')} | base64 -d\nhello world\n"),
        (
            "base64 json config",
            f"CONFIG_B64={enc(json.dumps({'theme': 'dark', 'locale': 'es-MX', 'beta': False}))}\n",
        ),
        (
            "data uri svg",
            "background: url(data:image/svg+xml;base64,"
            + enc(
                '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><circle r="4" cx="4" cy="4"/></svg>'
            )
            + ");\n",
        ),
        (
            "base64 of a sentence in test",
            f'assert decode("{enc("The quick brown fox jumps over the lazy dog")}") == "The quick brown fox jumps over the lazy dog"\n',
        ),
        (
            "configmap binaryData of text",
            f"binaryData:\n  motd.txt: {enc('Welcome to the build box. Be nice.')}\n",
        ),
        (
            "jwt header only",
            f"The token header {enc(json.dumps({'alg': 'RS256', 'typ': 'JWT'})).rstrip('=')} decodes to alg RS256.\n",
        ),
    ]


def _code() -> list[tuple[str, str]]:
    return [
        ("getpass prompt", 'password = getpass.getpass("Vault password: ")\n'),
        (
            "function about api keys",
            'def rotate_api_key(self, key_id: str) -> ApiKey:\n    """Issue a new secret and revoke the old one."""\n',
        ),
        ("guard clause", 'if not secret:\n    raise ValueError("WEBHOOK_SECRET is not set")\n'),
        ("typed optional field", "    api_key: str | None = None\n    token_ttl: int = 3600\n"),
        (
            "password stdin flag",
            'echo "$CR_PAT" | docker login ghcr.io -u octocat --password-stdin\n',
        ),
        ("password policy constant", "PASSWORD_MIN_LENGTH = 12\nPASSWORD_REQUIRE_SYMBOL = True\n"),
        (
            "secretKeyRef",
            "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-creds\n        key: password\n",
        ),
        ("sql column definition", "ALTER TABLE users ADD COLUMN password_hash TEXT NOT NULL;\n"),
        (
            "log message without value",
            "WARN token refresh failed for tenant acme: 401 invalid_token\n",
        ),
        (
            "i18n strings",
            '"login.password.label": "Contraseña",\n"login.token.help": "Pega aquí tu token personal",\n',
        ),
        (
            "cli help text",
            "  --api-key TEXT      API key (or set ACME_API_KEY)\n  --token-file PATH   read the token from PATH\n",
        ),
        (
            "chat about rotating",
            "I rotated the Stripe secret key this morning; the new one is in 1Password under 'billing'.\n",
        ),
        (
            "enum of secret kinds",
            'class SecretKind(Enum):\n    API_KEY = "api_key"\n    PASSWORD = "password"\n',
        ),
    ]


def _misc() -> list[tuple[str, str]]:
    return [
        ("semver with build metadata", f"version: 1.4.0-rc.2+build.{hx(7)}\n"),
        ("version list", f"Upgraded ruff {_ver()} -> {_ver()}, mypy {_ver()} -> {_ver()}\n"),
        ("iso dates", "valid_from: 2026-01-01T00:00:00Z\nvalid_to: 2027-01-01T00:00:00Z\n"),
        (
            "hex colours",
            f"--primary: #{hx(6)};\n--accent: #{hx(6)};\n--muted: rgba(15, 23, 42, 0.6);\n",
        ),
        (
            "tailwind classes",
            '<div class="bg-slate-900 text-emerald-400 px-4 py-2 rounded-lg shadow-md">\n',
        ),
        ("css module class", f'<header class="styles_header__{rs(5, B64U)} css-{rs(7, LOWER)}">\n'),
        (
            "android package and version code",
            'applicationId "com.acme.wallet"\nversionCode 40213\n',
        ),
        ("ip and port", "listening on 10.42.0.17:9443 (tls)\n"),
        ("maven coordinates", "<dependency>io.jsonwebtoken:jjwt-api:0.12.6</dependency>\n"),
        ("docker image tag", f"image: acme/worker:{_ver()}-{hx(7)}\n"),
        ("google analytics measurement id", f"gtag('config', 'G-{rs(10, UPPER)}');\n"),
        ("phone-like order number", f"Order #{R.randrange(10**9, 10**10)} placed\n"),
        ("iban test number in docs", "Test IBAN: DE89 3704 0044 0532 0130 00\n"),
        ("isbn", "ISBN 978-0-13-468599-1\n"),
        ("random seed constant", f"SEED = {R.randrange(10**6, 10**9)}\n"),
        ("uuid in filename", f"uploads/{uid()}.pdf\n"),
        ("hex in assembly", "mov eax, 0xdeadbeef\nxor ebx, 0x5f3759df\n"),
    ]


def lookalikes() -> list[dict[str, str]]:
    groups = [
        _git,
        _checksums,
        _lockfiles,
        _ids,
        _arns,
        _placeholders,
        _masked,
        _public,
        _hashes,
        _b64_plain,
        _code,
        _misc,
    ]
    out: list[dict[str, str]] = []
    for group in groups:
        for kind, text in group():
            out.append({"kind": kind, "text": text})
    # A few again with fresh random parts, in a different group order.
    for group in (_git, _checksums, _ids):
        for kind, text in group()[:3]:
            out.append({"kind": kind, "text": text})
    return out


def main() -> None:
    secs = secrets()
    looks = lookalikes()
    data = {
        "about": (
            f"Sixth blind corpus, written by benchmarks/make_secrets_blind6.py with "
            f"random.Random({SEED}) and the standard library only, from general knowledge of "
            "vendors' key shapes and where they get pasted. No redactor code, tests or earlier "
            "corpora texts were consulted; the kinds avoid the earlier corpora's kind names. "
            "All values are random fakes."
        ),
        "secrets": secs,
        "lookalikes": looks,
    }
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    forms = {s["kind"].rsplit(" [", 1)[1] for s in secs}
    kinds = {s["kind"].rsplit(" [", 1)[0] for s in secs}
    print(
        f"{len(secs)} secrets, {len(kinds)} kinds, {len(forms)} forms, "
        f"{len(looks)} look-alikes of {len({x['kind'] for x in looks})} kinds"
    )


if __name__ == "__main__":
    main()
