"""Engine errors: every refusal is a :class:`ValueError` with a stable ``code``.

>>> err = IllegalActionError("raise_too_small", "a raise must be to at least 4")
>>> err.code, str(err)
('raise_too_small', 'a raise must be to at least 4')
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "ConfigurationError",
    "EngineError",
    "IllegalActionError",
    "InconsistentStateError",
    "InvalidCardError",
]


class EngineError(ValueError):
    """Base of all engine errors. ``code`` is stable and meant for clients; the message reads well."""

    code: str = "engine_error"

    def __init__(self, *args: str) -> None:
        if len(args) == 2:
            self.code = args[0]
            message = args[1]
        elif len(args) == 1:
            message = args[0]
        else:
            raise TypeError("EngineError(message) or EngineError(code, message)")
        super().__init__(message)

    def __str__(self) -> str:
        return str(self.args[0])


class InvalidCardError(EngineError):
    """Text or a number that is not a card."""

    code = "invalid_card"


class ConfigurationError(EngineError):
    """A game, structure, stakes or house-rule setting that cannot work."""

    code = "invalid_configuration"


class IllegalActionError(EngineError):
    """An action the rules do not allow now; the state is unchanged."""

    code = "illegal_action"


class InconsistentStateError(EngineError):
    """The dealing machinery found an impossible state (R-CARD-5): the hand must be voided."""

    code = "inconsistent_state"
