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
  does, and its default is judged as any value).
* **Object literals**: ``"qr_token": token2,``: a quoted key with a bare name after it,
  then a comma or a bracket, passes a variable along.
* **Public addresses**: ``for mint 9pan9bMn5…`` or ``program address <base58>``: 32 to 44
  base58 characters after a word that names a public key are an account's address (a
  Solana private key is 64 bytes, 87 or 88 characters).
"""

from __future__ import annotations

import re

from brain.home.secrets.shapes import is_code

__all__ = ["no_credential"]

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
_QUOTED_KEY = re.compile(r"[\"'][ \t]*:[ \t]*$")
_BARE_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_CLOSES = re.compile(r"[ \t]*[,)}\]]")

_BASE58 = re.compile(r"[1-9A-HJ-NP-Za-km-z]{32,44}")
_PUBLIC_WORDS = re.compile(
    r"(?i:\b(?:mint|address|program(?:[ _-]?id)?|pubkey|public[ _-]?key|owner|authority"
    r"|account|wallet|recipient|destination|token[ _-]?account))\b[^\n]{0,24}$"
)


def no_credential(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, found where a credential's name announced a value,
    is test output, a version, a path, a template binding, a shell expansion's operator,
    a variable passed in an object literal or a public address (see the module
    docstring)."""
    value = text[start:end]
    before = text[max(0, start - 80) : start]
    after = text[end : end + 40]
    return (
        _test_output(value, before, after)
        or _version(value, before)
        or (value.startswith(":") and before.endswith(":"))  # token::{self, ...}
        or (_BINDING.search(before) is not None and is_code(value, after))
        or (_EXPANSION.search(before) is not None and value[:1] in "+?0123456789")
        or _passed_along(value, before, after)
        or (_BASE58.fullmatch(value) is not None and _PUBLIC_WORDS.search(before) is not None)
    )


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
