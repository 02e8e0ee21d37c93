"""How long work says how far it has got, without printing.

A library function that walks many items takes a :data:`Progress` callback and calls
it with the items done so far and the total (None when it cannot be counted up front).
The command line turns the calls into a progress bar on a terminal; everything else
passes nothing and the work stays silent.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int | None], None]
