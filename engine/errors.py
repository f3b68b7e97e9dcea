"""The one error the engine raises for a move or input the rules refuse."""

from __future__ import annotations


class IllegalAction(Exception):
    """A refused action or input: ``code`` is stable (for programs and translations),
    ``message`` is the plain pt-BR reason shown to the person (DESIGN example 2).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
