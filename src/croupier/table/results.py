"""Answers to commands: accepted or refused with a stable reason code.

>>> r = Refused.of("c1", "seat_taken", "seat 3 is taken")
>>> r.accepted, r.code
(False, 'seat_taken')
>>> Accepted("c2").code
'ok'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from croupier.engine.errors import CodedError

__all__ = ["Accepted", "CommandResult", "Refused", "TableError"]


class TableError(CodedError):
    """A table-level refusal or configuration error with a stable ``code``.

    >>> err = TableError("buy_in_too_small", "the minimum buy-in is 40")
    >>> err.code, str(err)
    ('buy_in_too_small', 'the minimum buy-in is 40')
    """


@dataclass(frozen=True, slots=True)
class CommandResult:
    """The answer to one command. ``version`` is the table's event version after it;
    ``data`` carries command-specific output (e.g. the seat taken, or a snapshot)."""

    command_id: str
    accepted: bool
    code: str = "ok"
    message: str = ""
    version: int = 0
    data: Any = None


def Accepted(command_id: str, *, version: int = 0, data: Any = None) -> CommandResult:
    """An accepted command."""
    return CommandResult(command_id, True, "ok", "", version, data)


class Refused:
    """Helpers to build refusals."""

    @staticmethod
    def of(command_id: str, code: str, message: str, *, version: int = 0) -> CommandResult:
        return CommandResult(command_id, False, code, message, version, None)
