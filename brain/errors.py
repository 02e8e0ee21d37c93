"""The one exception base every brain error derives from.

Subclasses live next to the code that raises them and carry their data; the CLI turns
any ``BrainError`` into ``Error: <message>`` and exit status 1.
"""

from __future__ import annotations


class BrainError(Exception):
    """Something the user can act on went wrong.

    Args:
        message: what failed, on what.
        hint: what to do about it, shown after the message.
    """

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}; {self.hint}" if self.hint else self.message
