"""Tournament refusals: a :class:`TournamentError` with a stable ``code``.

>>> err = TournamentError("already_registered", "ann is registered")
>>> err.code, str(err)
('already_registered', 'ann is registered')
"""

from __future__ import annotations

from croupier.engine.errors import CodedError

__all__ = ["TournamentError"]


class TournamentError(CodedError):
    """A refused tournament operation (it changed nothing). ``code`` is stable."""
