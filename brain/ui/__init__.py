"""``brain ui``: a local web page to browse, search, review, edit and undo the memory.

:mod:`brain.ui.server` listens on 127.0.0.1 and guards every request (the address's
token, the Host header, a CSRF token on writes, a strict Content-Security-Policy);
:mod:`brain.ui.app` routes a request to a page or an action; :mod:`brain.ui.pages`
gathers what each page shows from :class:`brain.api.Brain`, whose methods are also
the only way a page changes anything, so each change is the one commit the command
line would make. Pages are rendered on the server from ``templates/ui/`` with every
value escaped; reading needs no JavaScript.
"""
