"""Engine errors: every refusal is a :class:`ValueError` with a stable ``code``.

>>> err = IllegalActionError("raise_too_small", "a raise must be to at least 4")
>>> err.code, str(err)
('raise_too_small', 'a raise must be to at least 4')
>>> isinstance(err, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "CodedError",
    "ConfigurationError",
    "EngineError",
    "IllegalActionError",
    "InconsistentStateError",
    "InvalidCardError",
]


class CodedError(ValueError):
    """A refusal with a stable ``code`` for clients and a message that reads well; built as
    ``Error(message)`` (the class's code) or ``Error(code, message)``. Every layer's error
    base derives from it (engine, store, …)."""

    code: str = "error"

    def __init__(self, *args: str) -> None:
        if len(args) == 2:
            self.code = args[0]
            message = args[1]
        elif len(args) == 1:
            message = args[0]
        else:
            name = type(self).__name__
            raise TypeError(f"{name}(message) or {name}(code, message)")
        super().__init__(message)

    def __str__(self) -> str:
        return str(self.args[0])


class EngineError(CodedError):
    """Base of all engine errors. ``code`` is stable and meant for clients; the message reads well."""

    code = "engine_error"


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
