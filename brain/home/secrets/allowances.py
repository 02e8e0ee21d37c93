"""What stands where a credential's name announces a value, and is no credential.

A name ending in a secret word is followed, in code and in what tools print, by many
things that are not its value. Each family here is told by where the value stands, not
by the value itself, so a real credential in the same place is still found:

* **Test output**: ``--- PASS: TestAccountLockoutAfter5Failures (0.39s)`` is Go's test
  runner naming a test, whatever words the test's name holds; ``PASS: MXFP4 value mapping
  correct`` is a test's status, then what passed, in words (``USER: bob PASS: s3cret HOST:
  db`` gives a password: labels follow it, not words).
* **Version specifiers**: ``"@solana/spl-token": "^0.4.14"`` names a package and the
  versions it takes; a value that is a version range, or a version given to a package's
  name, is no token.
* **Paths in code**: ``use anchor_spl::token::{self, Mint}`` or ``associated_token::
  AssociatedToken``: the ``::`` of a Rust, C++ or PHP path is no assignment.
* **Template bindings**: ``<Dashboard :token="state.token" />`` (Vue), ``[token]="t"``
  (Angular): the quotes hold an expression, read as code.
* **Shell parameter expansion**: ``${COLOSSEUM_COPILOT_PAT:+SET}`` says what to print
  when the variable is set, ``${TOKEN:0:15}`` takes a part of it, ``${TOKEN:?missing}``
  the error to give: none of them gives the variable a value (``${TOKEN:-default}``
  does, and its default is judged as any value, unless a command or another variable
  gives it: ``${DB_PASSWORD:-$(openssl rand -base64 32)}``).
* **Object literals**: ``"qr_token": token2,``: a quoted key with a bare name after it,
  then a comma or a bracket, passes a variable along.
* **Public addresses**: ``for mint 9pan9bMn5…`` or ``program address <base58>``: 32 to 44
  base58 characters after a word that names a public key are an account's address (a
  Solana private key is 64 bytes, 87 or 88 characters).
* **Stored hashes**: ``"password": "<64 hex digits>"`` in a users file, ``$2b$12$…``,
  ``$argon2id$…``: what a system stores to check a password against is not the password
  (a hex run under any other name, ``"secret": "<64 hex>"``, or assigned to a variable,
  ``DB_PASSWORD=<64 hex>``, is still a secret).
* **A password prompt, then what the program printed**: ``Password: npm ERR! code
  E401`` or ``Password: Enter one-time password:``: npm (and sudo, ssh, psql) prints the
  prompt, never echoes the answer, and the next thing on the line is its own log line
  or its next prompt (``Password: hunter2x9`` typed after the prompt is still found).
* **Methods' names**: ``password_encryption = scram-sha-256``: the name of a hash or an
  authentication method says how a password is kept, not what it is.
* **Values read from a mapping**: ``password=validated_data['password']`` passes along
  what a mapping holds (:func:`~brain.home.secrets.shapes.is_code`).
* **A constant's name**: ``ANTHROPIC_AUTH_TOKEN: PROXY_MANAGED`` says who supplies the
  token: words in capitals joined by ``_``, with no digit, name a setting or an enum's
  member, not a secret (``ANTHROPIC_AUTH_TOKEN: Kx9_QM2P_T7ZR`` is still one).
* **A value naming its own key**: ``API_KEY: 'feature_api_key'`` in a table of feature
  flags; an identifier that holds the name it is given to, word for word, is that
  name's label (``token: 'myToken'`` and ``password=password1`` are still values).
* **Paths on disk**: ``PASS: /home/pirate/Projects/task3/repo/backend`` (a check's status
  and the folder that passed), ``pwd -P >| /var/folders/hk/…/T/claude-2d2b-cwd``: a path
  under a system's top folder is a place, not a password.
* **Paths in code called**: ``let session_token = security::random_token();`` calls a
  function by its module's path.
* **An import's names**: ``import { COUNTRY as countryList, BACKUP_LOCATION_I18N } from``
  reads as "log in as X, password": the names a module gives are no credential.
* **Tailscale's public keys**: ``"PublicKey": "nodekey:<64 hex>"``, ``discokey:…``,
  ``mkey:…``: Tailscale writes a node's public keys after these words, and its private
  ones after ``privkey:`` (still found).
* **Half of a bold phrase**: ``The secret is **CSS Grid**``, ``**Access token is now
  memory-only**``: markdown's ``**`` at one end only of a value is the edge of words in
  bold the value was cut from (``the password is **Tq7xLm2pWz9**`` is still found).
* **Sentences in Chinese, Japanese or Korean**: ``user portal這邊…, 具體改動請看下方的圖。``
  reads as "user X, password": a value mostly of CJK characters is prose.
* **A constant's name, however it is written**: ``api_key = GROQ_BUILTIN_KEY\\n`` in a
  tool's escaped output, ``${MASTER_KEY:-AUTO_GENERATE}``: an escape after the name, or
  the ``:-`` of a shell default before it, is no part of the value.
* **A versioned name**: ``The cache key is `greenleaf-kb-v2-`<userId>``, ``const KEY =
  'fleetlease_offline_queue_v1'``: words with a version at their end name a cache, a
  queue, a stored item; a key is random.
* **A name said to be missing**: ``// No token: all endpoints must return 401``.
* **The first word of a quoted phrase**: ``login flow and "Batch Onboarding"``: a quote
  at the value's start, closed after more words, holds a phrase.
* **A password that says it is wrong**: ``'password': 'wrongpass'`` is what a test sends
  to see a 401; ``'password': 'p'``, one character, is a test's stub.
* **A query parameter's own value**: ``?jsv=2.7.2&appKey=24889839&t=1777…`` or
  ``?gmkey=CLK&gokey=…``: what a parameter holds ends at the next ``&``; a number there
  is an app's id, a time or a count, three letters are no key, and ``%3D`` and ``%26``
  pack other fields in it (:func:`query_value`;
  ``?appKey=<random>`` and ``?password=12345678`` are still found); shorter than 8
  characters (``?token=wtV``), it is no key.
* **A shell default, read without its ``:-``**: ``${JWT_SECRET:-change-me-in-production}``
  is a placeholder, ``${ANON_KEY:-eyJ….anon}`` a JWT signed with a word,
  ``${GITHUB_TOKEN:-(not set)}`` words in brackets.
* **Prose**: a possessive (``user prompts and Claude's responses``), a label ending in a
  colon (``user modal, fields: Name, Email``), letters glued to a CJK phrase
  (``api_key: API密钥``).
* **A name quoted as a pattern**: ``grep -E '^JWT_SECRET=' "$ENV_PATH"``: the quote after
  the ``=`` closes the pattern, it opens no value.
* **The word a name ends with**: ``api_key: 'key'`` says what the value is, not what it
  holds (``POSTGRES_PASSWORD=postgres``, an owner's name, is still a value).

And where no name announces a value:

* **Log lines**: ``[16:41:50.093][build.sh:2899:setup_repositories]``: a clock time, then
  a script's line and function, has the colons of pgpass's
  ``host:port:database:user:password``, not its fields (:func:`not_pgpass`).
* **nginx's upstreams**: ``proxy_pass http://localhost:3000;`` (and ``fastcgi_pass``,
  ``uwsgi_pass``, ``grpc_pass``…, or in prose, ``The proxy_pass is `http://backend:3000```)
  passes a request on to an address; the directive's ``pass`` is no password's name
  (:func:`upstream`; a password in the address's userinfo, ``http://admin:<pw>@backend``,
  is still found as one).
* **A key's id**: ``gpg --list-secret-keys 8E1F899571345D06``, ``user.signingkey = …``:
  gpg and git choose a key by 8, 16 or 40 hex digits of its public fingerprint, which
  name the key and are public (:func:`key_id`).
* **A thinking block's signature**: ``"thinking":"…","signature":"Ev4BCkYI…"``: the
  model's provider signs the thinking it returns to know it again; the signature proves
  where a text came from and opens nothing (:func:`thinking_signature`).
* **Google Drive and Sheets ids**: the random-looking run in
  ``docs.google.com/spreadsheets/d/<id>``, ``drive.google.com/drive/folders/<id>``, or
  the ``"value"`` of an n8n ``"documentId"``'s or ``"folderId"``'s resource locator
  names a file or a folder; anyone it is shared with can open it, no key is in it
  (:func:`an_id`). So does a run under a JSON key naming an id and no secret
  (``"aliIdEncrypt": "<run>"``, ``"trace_id": "<run>"``): an id, encrypted or not, names
  an account or a request and opens nothing.
"""

from __future__ import annotations

import re

from brain.home.secrets.rules import CJK, is_placeholder
from brain.home.secrets.shapes import BASE58 as _BASE58
from brain.home.secrets.shapes import auth_method, is_code, stored_hash, word_signed

__all__ = [
    "an_id",
    "key_id",
    "no_credential",
    "not_pgpass",
    "query_value",
    "thinking_signature",
    "upstream",
]

_TEST_RUN = re.compile(r"---[ \t]+(?:PASS|FAIL|SKIP):[ \t]*$")
_TEST_NAME = re.compile(r"[A-Za-z_][\w/.-]*")
_WORD = re.compile(r"\w[\w/.-]*")
_DURATION = re.compile(r"[ \t]*\(\d+(?:\.\d+)?s\)")
_STATUS = re.compile(r"(?<![\w-])PASS:[ \t]*$")
# What passed, said in words: a lower-case word within the next three, none a label.
_SAID = re.compile(r"(?:[ \t]+[^\s:]+){0,2}[ \t]+[a-z]{3,}\b(?!:)")

_RANGE = re.compile(r"(?:[\^~]|[<>]=?|==?)[ \t]*v?\d+(?:\.\d+){0,3}(?:[-+][\w.]+)?(?:\.[x*])?")
_VERSION = re.compile(r"v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?")
# A package's name just before the value: scoped (@solana/spl-token) or in kebab case.
_PACKAGE = re.compile(r"(?:@[\w.-]+/|(?<![\w.-])[a-z0-9]+-)[\w.-]*[\"']?[ \t]*[:=][ \t]*[\"']?$")

_BINDING = re.compile(r"(?:^|[\s<(])(?::|v-bind:|v-model:|\[\(?)[\w.-]+\)?\]?[ \t]*=[ \t]*[\"']$")
_EXPANSION = re.compile(r"\$\{[A-Za-z_]\w*:$")
_GENERATED = ("-$(", "=$(", "-`", "=`", "-$", "=$")  # ${X:-$(openssl rand …)}, ${X:-$Y}
_QUOTED_KEY = re.compile(r"[\"'][ \t]*:[ \t]*$")
_BARE_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_CLOSES = re.compile(r"[ \t]*[,)}\]]")

# A record's password field, a quoted key (a users file, a JSON row): DB_PASSWORD=<hex>
# is an environment's password, which ``openssl rand -hex 32`` makes 64 hex digits.
_PASSWORD_NAME = re.compile(
    r"(?i)\\?[\"'](?:hashed_?)?passw(?:or)?d(?:_?hash)?\\?[\"'][ \t]*:[ \t]*\\?[\"']$"
)

# An enum member or a setting's name: two or more words of capitals, no digit.
_CONSTANT = re.compile(r"[A-Z]{2,}(?:_[A-Z]{2,})+")
# The name a value is given, just before it: API_KEY: ', "api_key" =, token=
_NAME_BEFORE = re.compile(r"([A-Za-z_][\w-]*)[\"']?[ \t]*(?:=>|[:=])[ \t]*[\"']?$")
_IDENTIFIER = re.compile(r"[A-Za-z_][\w.-]*")
_SEPARATORS = re.compile(r"[_.-]+")
# A system's top folders, on Linux and macOS.
_ON_DISK = re.compile(
    r"/(?:home|Users|var|tmp|private|etc|opt|usr|mnt|srv|root|Volumes|workspace|app)"
    r"(?:/[\w.@+-]+)+/?"
)
_MODULE_CALL = re.compile(r"[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+\(?")
_IMPORT_LIST = re.compile(r"\bimport[ \t]+(?:type[ \t]+)?\{[^{}]*$")
_CJK_CHAR = re.compile(f"[{CJK}]")
_TAILSCALE_PUBLIC = re.compile(r"(?<![\w-])(?:nodekey|discokey|mkey):$|^(?:nodekey|discokey|mkey):")
_ESCAPED_END = re.compile(r"(?:\\[nrt])+$")
_VERSIONED = re.compile(r"[a-z]+(?:[_-][a-z]+)*[_-]v\d{1,3}[_-]?")
_NEGATED = re.compile(r"(?i)(?<![\w-])(?:no|without)[ \t]+[\w-]+[ \t]*:[ \t]*$")
# A word with a possessive (Claude's), or a label ending in a colon (fields:): prose.
_PROSE_WORD = re.compile(r"[A-Za-z]+(?:['’]s|:)")
# A name quoted with its = (grep -E '^JWT_SECRET='): a pattern to search for, and the
# quote after it closes the pattern, it opens no value.
_QUOTED_NAME = re.compile(r"(['\"])\^?[A-Za-z_][\w.-]*[ \t]*=\1$")
_WRONG = re.compile(
    r"(?i)(?:wrong|bad|invalid|incorrect)[_-]?(?:pass(?:word|wd)?|pwd|secret|token)\w{0,6}"
)

# A parameter named in prose ("not a ?apikey= query string"): in a URL no space follows
# its "=".
_QUERY_NAMED = re.compile(r"[?&][\w.-]+=[ \t]+$")
# A number with a fraction, unquoted ("pass": 7.0, a score's threshold): no password.
_DECIMAL = re.compile(r"\d+\.\d+")

_PUBLIC_WORDS = re.compile(
    r"(?i:\b(?:mint|address|program(?:[ _-]?id)?|pubkey|public[ _-]?key|owner|authority"
    r"|account|wallet|recipient|destination|token[ _-]?account))\b[^\n]{0,24}$"
)


def no_credential(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, found where a credential's name announced a value,
    is test output, a version, a path, a template binding, a shell expansion's operator,
    a variable passed in an object literal, a public address, a constant's name, a
    versioned name, a name said to be missing, a quoted phrase, a wrong or one-letter
    password, a query's number, its own name, a path on disk, a call, an import's name,
    CJK prose, half of a bold phrase, a Tailscale public key, a possessive or a label
    in prose, what follows a name quoted as a pattern, a query parameter named in prose,
    or an unquoted number with a fraction (see the module docstring)."""
    value = text[start:end]
    before = text[max(0, start - 80) : start]
    after = text[end : end + 40]
    return (
        _test_output(value, before, after)
        or _version(value, before)
        or (value.startswith(":") and before.endswith(":"))  # token::{self, ...}
        or (_BINDING.search(before) is not None and is_code(value, after))
        or (_EXPANSION.search(before) is not None and value[:1] in "+?0123456789")
        or (_EXPANSION.search(before) is not None and value.startswith(_GENERATED))
        or _shell_default(value, before)
        or (stored_hash(value) and (value[:1] == "$" or _PASSWORD_NAME.search(before) is not None))
        or auth_method(value)
        or _passed_along(value, before, after)
        or _prompt_output(value, before, after)
        or (_BASE58.fullmatch(value) is not None and _PUBLIC_WORDS.search(before) is not None)
        or _CONSTANT.fullmatch(_written(value, before)) is not None
        or _VERSIONED.fullmatch(value.strip("\"'`")) is not None
        or _NEGATED.search(before) is not None
        or _quoted_phrase(value, after)
        or _WRONG.fullmatch(value.strip("\"'")) is not None
        or len(value.strip("\"'")) == 1
        or query_value(text, start, end)
        or _own_name(value, before)
        or _ON_DISK.fullmatch(value) is not None
        or _MODULE_CALL.fullmatch(value) is not None
        or _IMPORT_LIST.search(before) is not None
        or len(_CJK_CHAR.findall(value)) * 2 > len(value)
        or value.startswith("**") != value.endswith("**")
        or _TAILSCALE_PUBLIC.search(before[-10:]) is not None
        or _TAILSCALE_PUBLIC.match(value) is not None
        or _PROSE_WORD.fullmatch(value) is not None
        or (value.isascii() and value.isalpha() and _CJK_CHAR.match(text, end) is not None)
        or _QUOTED_NAME.search(before) is not None
        or _QUERY_NAMED.search(before) is not None
        or _DECIMAL.fullmatch(value) is not None
    )


def _written(value: str, before: str) -> str:
    """``value`` without its quotes, an escape after it (``\\n`` in escaped output) or a
    shell default's ``-`` or ``=`` before it (``${KEY:-AUTO_GENERATE}``)."""
    bare = _ESCAPED_END.sub("", value.strip("\"'"))
    if _EXPANSION.search(before) is not None and bare[:1] in "-=":
        bare = bare[1:]
    return bare


def _shell_default(value: str, before: str) -> bool:
    """Whether ``value`` is a shell default (``${JWT_SECRET:-change-me-in-production}``)
    that, read without its ``-`` or ``=``, is a placeholder, a JWT signed with a word
    (``${ANON_KEY:-eyJ….anon}``) or words in brackets (``${GITHUB_TOKEN:-(not set)}``)."""
    if _EXPANSION.search(before) is None or value[:1] not in "-=":
        return False
    default = value[1:]
    return is_placeholder("", default) or word_signed(default) or default[:1] in "([{"


def _quoted_phrase(value: str, after: str) -> bool:
    """Whether ``value`` opens a quote closed after more words on its line: the first
    word of a quoted phrase (``"Batch Onboarding"``)."""
    quote = value[:1]
    if quote not in "\"'`" or value[-1:] == quote or len(value) < 2:
        return False
    return re.match(r"(?:[ \t]+[^\s\"'`]+){1,6}" + quote, after) is not None


def _own_name(value: str, before: str) -> bool:
    """Whether ``value`` is an identifier holding the name it is given, word for word
    (``API_KEY: 'feature_api_key'``), or the word it ends with (``api_key: 'key'``);
    ``password=password1``, ``token: 'myToken'`` or ``POSTGRES_PASSWORD=postgres`` are
    values."""
    name = _NAME_BEFORE.search(before)
    bare = value.strip("\"'")
    if name is None or _IDENTIFIER.fullmatch(bare) is None:
        return False
    words = _SEPARATORS.split(name.group(1).lower())
    held = _SEPARATORS.split(bare.lower())
    if any(held[i : i + len(words)] == words for i in range(len(held) - len(words) + 1)):
        return True
    # or the word the name ends with, what the value is (api_key: 'key'); the name's
    # first words name an owner, and the owner's name is a password people choose
    # (POSTGRES_PASSWORD=postgres)
    return len(held) < len(words) and words[-len(held) :] == held


def _test_output(value: str, before: str, after: str) -> bool:
    if _STATUS.search(before) is not None and _SAID.match(after) is not None:
        return _WORD.fullmatch(value) is not None  # PASS: 2D tensor quantization correct
    if _TEST_NAME.fullmatch(value) is None:
        return False
    return _TEST_RUN.search(before) is not None or _DURATION.match(after) is not None


def _version(value: str, before: str) -> bool:
    bare = value.strip("\"'")
    if _RANGE.fullmatch(bare):
        return True  # ^0.4.14, ~1.2, >=2.0: a range of versions
    return _VERSION.fullmatch(bare) is not None and _PACKAGE.search(before) is not None


def _passed_along(value: str, before: str, after: str) -> bool:
    return (
        _QUOTED_KEY.search(before) is not None
        and _BARE_NAME.fullmatch(value) is not None
        and _CLOSES.match(after) is not None
    )


# A password prompt at a line's start; a program's log level after a word (npm ERR!,
# npm notice, npm WARN); the words a program starts its next prompt with.
_PROMPT = re.compile(r"(?:^|\n)[ \t]*(?i:password|passphrase)[ \t]*:[ \t]*$")
_LOG_LEVEL = re.compile(r"[ \t]+(?:ERR!|WARN|notice|warn|http|verb|info|timing|sill)(?![\w!])")
_NEXT_PROMPT = re.compile(r"[ \t]+[^\n:]{1,60}:")
_PROMPT_WORDS = frozenset(("Enter", "Retype", "Re-enter", "Confirm", "Verify", "Repeat", "Please"))


def _prompt_output(value: str, before: str, after: str) -> bool:
    """Whether ``value`` after a ``Password:`` prompt is what the program printed next: a
    tool's name leading its log line, or the first word of its next prompt."""
    if _PROMPT.search(before) is None:
        return False
    if value.isalpha() and value.islower() and _LOG_LEVEL.match(after) is not None:
        return True  # Password: npm ERR! code E401
    return value in _PROMPT_WORDS and _NEXT_PROMPT.match(after) is not None


# The fields pgpass's rule read before a password: a clock time's (16:41:50.093]…), or
# a script's name and a line number before a function's name and its bracket.
# (an ISO 8601 time's too, after its date's T: 2024-06-24T20:01:21.287876Z)
_CLOCK = re.compile(
    r"(?:(?<![\w.*:-])|(?<=\dT))\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?[^\s:\"]*:[^\s:\"]+:$"
)
_FRAME = re.compile(r"\.[A-Za-z]{1,4}:\d+:$")
# An ISO 8601 time cut at its colons: its hour and minute read as user and database, its
# seconds as the password (log.txt:126:2025-09-17T04:34:42.617484Z).
_SPLIT_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:$")
_FUNCTION = re.compile(r"[A-Za-z_]\w*\]")


def not_pgpass(text: str, start: int) -> bool:
    """Whether what pgpass's rule found at ``start`` (its password field) is a log line's:
    a clock time read as host and port, an ISO time's seconds read as the password,
    ``script.sh:2899:function]``, a script's line and function, read as database, user
    and password, or a URL's ``host:port/path`` after grep's ``file:line:``."""
    before = text[max(0, start - 300) : start]
    before = before[before.rfind("\n") + 1 :]
    if _CLOCK.search(before) is not None:
        return True
    if _SPLIT_TIME.search(before) is not None and text[start : start + 2].isdigit():
        return True
    if "://" in before:
        return True  # file:34:ISSUER=http://localhost:9000/adfs: a URL's port and path
    return _FRAME.search(before) is not None and _FUNCTION.match(text, start) is not None


# A Drive or Docs URL's path, or an n8n resource locator's value under an id's name,
# just before the value.
_DRIVE_ID = re.compile(
    r"(?:(?:docs|drive|sheets)\.google\.com/[\w/.-]*?/(?:d|folders)/|drive\.google\.com/open\?id="
    r"|(?i:(?:document|folder|file|spreadsheet|sheet|drive|parent)_?id)\\?\"\s*:\s*"
    r"(?:\{[^{}]{0,120}?\\?\"value\\?\"\s*:\s*)?\\?\")$"
)


# A JSON key naming an id and no secret, just before: "aliIdEncrypt": ", "trace_id":"
_ID_KEY = re.compile(
    r"\\?\"(?![^\"]*(?i:token|secret|key|pass|auth|session|cookie|sig|cred))"
    r"(?:[a-z]+(?:Id|ID)(?:[A-Z][a-z]+)*|(?:[a-z]+_)+id(?:_[a-z]+)?)\\?\"\s*:\s*\\?\"$"
)


def an_id(text: str, start: int) -> bool:
    """Whether the random run at ``start`` is a Google Drive, Docs or Sheets id, or an id a
    JSON key names, by where it stands (a file's URL, a ``documentId``'s or a
    ``folderId``'s value, ``"accountIdEncrypt": "…"``)."""
    before = text[max(0, start - 160) : start]
    return _DRIVE_ID.search(before) is not None or _ID_KEY.search(before[-60:]) is not None


# A URL query's parameter just before a value; a password's name among them; fields
# packed in a value, URL-encoded (ext%3Dvisibility%2526sdk: an encoded = and &).
_QUERY_NAME = re.compile(r"[?&]([\w.-]{1,40})=$")
_PASSWORD_WORD = re.compile(r"(?i)pass|pwd|pin")
_ENCODED_EQUALS = re.compile(r"%(?:25)*3[dD]")
_ENCODED_AND = re.compile(r"%(?:25)*26")


def query_value(text: str, start: int, end: int) -> bool:
    """Whether the value at ``start`` stands in a URL's query and what its parameter
    holds, up to the next ``&`` or its end, is a number (an app's id, a time), shorter
    than a key (``?token=wtV``), or
    fields packed URL-encoded: ``?appKey=24889839&t=…``, ``?gmkey=CLK&gokey=ext%3Dv%2526…``
    (a password's number is still one, and so is a key ending in an encoded ``=``)."""
    name = _QUERY_NAME.search(text, max(0, start - 42), start)
    if name is None or name.end() != start or _PASSWORD_WORD.search(name.group(1)):
        return False
    value = text[start:end]
    head = value.split("&", 1)[0]
    if head.isdigit() or len(head) < 8:
        return True
    return _ENCODED_EQUALS.search(head) is not None and _ENCODED_AND.search(head) is not None


# Where a key is chosen by its id: gpg's commands (a keyserver's too: apt-key adv
# --keyserver … --recv-key <fingerprint>), git's signing key, a key id's name; other ids
# may stand before it in the list.
_KEY_ID_BEFORE = re.compile(
    r"(?i)(?:--(?:list|export|delete|edit)-(?:secret-)?keys?|--(?:default|local)-key|--local-user"
    r"|--(?:recv|receive|send|search|refresh|sign|lsign|quick-sign|quick-lsign)-keys?|--recv"
    r"|--keyserver[ \t=]+[^\s\"']+|signingkey|key[ _-]?id|fingerprint)[\"']?[ \t]*[:=]?[ \t]*[\"']?"
    r"(?:(?:0x)?[0-9A-Fa-f]{8,40}[ \t]+)*$"
)
_KEY_ID = re.compile(r"(?:0x)?(?:[0-9A-F]{8}|[0-9A-F]{16}|[0-9A-F]{40}|[0-9a-f]{16}|[0-9a-f]{40})")


def key_id(text: str, start: int, end: int) -> bool:
    """Whether the value at ``start:end`` is a key's id where a key is chosen (``gpg
    --list-secret-keys 8E1F899571345D06``, ``--recv-keys <fingerprint>``,
    ``user.signingkey = …``): 8, 16 or 40 hex digits of a public key's fingerprint name
    the key, and are public."""
    return (
        _KEY_ID.fullmatch(text, start, end) is not None
        and _KEY_ID_BEFORE.search(text, max(0, start - 160), start) is not None
    )


# A JSON string, then the signature's key: "thinking":"…","signature":"
_THOUGHT = re.compile(r'(?:[^"\\]|\\.)*",[ \t]*"signature"[ \t]*:[ \t]*"')


def thinking_signature(text: str, start: int) -> bool:
    """Whether the value at ``start`` is a thinking block's ``"signature"``: the model's
    provider signs the thinking it returns, to know it again; it proves where a text came
    from and opens nothing. A scanner's report shows it again apart (gitleaks'
    ``Secret:`` line under its ``Finding:`` line): the same value a few lines up after
    ``"signature":"`` is one too."""
    head = text[start : start + 24]
    if len(head) == 24 and text.find('"signature":"' + head, max(0, start - 2_000), start) >= 0:
        return True
    if not text.endswith('"', 0, start):
        return False
    at = text.rfind('"thinking":"', max(0, start - 100_000), start)
    if at < 0:
        return False
    return _THOUGHT.fullmatch(text, at + len('"thinking":"'), start) is not None


# An nginx directive that passes a request on, then the address it passes it to.
_UPSTREAM = re.compile(
    r"(?<![\w-])(?:proxy|fastcgi|uwsgi|grpc|scgi|memcached)_pass(?:[ \t]+is|:)?[ \t]*`?$"
)


def upstream(text: str, start: int) -> bool:
    """Whether the value at ``start`` is the address an nginx ``*_pass`` directive passes
    requests to (``proxy_pass http://localhost:3000;``)."""
    return _UPSTREAM.search(text, max(0, start - 40), start) is not None
