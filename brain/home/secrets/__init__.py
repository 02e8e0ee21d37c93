"""The secret filter: every field written to the home, and every text shown to a model,
passes through :func:`brain.home.secrets.redact.redact`.

``redact`` holds the core rules and the scan; ``rules`` the provider token shapes,
context shapes and credentials announced in prose; ``allowances`` what stands where a
credential's name announces a value and is code or tool output (``--- PASS: TestX``,
``"spl-token": "^0.4.14"``, ``:token="state.token"``); ``spoken`` the passwords said in
other languages, seed phrases and values right after a named key; ``prefilter`` tells in
a few passes which rules a text can match at all; ``keysecrets`` refuses a record key
that holds a credential, ``keyvalues`` reading it for the values a slug still shows after
a name, a login or a webhook; ``together`` redacts a record's description and body together;
``wraps`` carries a value through the line break a terminal or a diff wrapped it at;
``forms`` reads a credential's name given its value in other forms (a type, a call, a
directive, a block's label), ``slots`` the values commands, URLs, cookies and key files
keep for a credential, ``lookalikes`` what looks like one and is none (ciphertext, a
cache's key, a key published as such), ``prose`` a credential named in chat prose by the
words before it.
Nothing is imported here, so reading records (the session-start hook) never loads the
filter.
"""
