"""Tournament refusals: a :class:`TournamentError` with a stable ``code``.

>>> err = TournamentError("already_registered", "ann is registered")
>>> err.code, str(err)
('already_registered', 'ann is registered')
"""

from __future__ import annotations

__all__ = ["TournamentError"]


class TournamentError(ValueError):
    """A refused tournament operation (it changed nothing). ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def __str__(self) -> str:
        return str(self.args[0])
