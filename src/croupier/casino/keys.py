"""The keyboard of Texas Hold'em Bonus (R-BONUS-5), as data and one pure function.

| key | between rounds | pre-flop | turn / river |
| --- | --- | --- | --- |
| Enter | deal | play (flop bet 2x ante) | bet 1x ante |
| Delete or ``.`` | clear the bet | - | - |
| ``0`` | repeat the last bet | - | - |
| ``-`` | - | fold | check |

>>> command_for("enter", None), command_for("enter", Phase.PREFLOP), command_for("-", Phase.RIVER)
('deal', 'play', 'check')
>>> command_for(".", None), command_for("delete", None), command_for("0", None)
('clear', 'clear', 'repeat')
>>> command_for("-", Phase.PREFLOP), command_for("0", Phase.TURN) is None
('fold', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from croupier.casino.bonus import Phase

__all__ = ["BETTING_KEYS", "PLAYING_KEYS", "command_for"]

BETTING_KEYS: Final[Mapping[str, str]] = MappingProxyType(
    {"enter": "deal", "delete": "clear", ".": "clear", "0": "repeat"}
)
"""Keys between rounds (the betting slip is open)."""

PLAYING_KEYS: Final[Mapping[Phase, Mapping[str, str]]] = MappingProxyType(
    {
        Phase.PREFLOP: MappingProxyType({"enter": "play", "-": "fold"}),
        Phase.TURN: MappingProxyType({"enter": "bet", "-": "check"}),
        Phase.RIVER: MappingProxyType({"enter": "bet", "-": "check"}),
    }
)
"""Keys while the player is to act, by phase."""

_ALIASES: Final = MappingProxyType(
    {
        "return": "enter",
        "\r": "enter",
        "\n": "enter",
        "": "enter",
        "del": "delete",
        "suppr": "delete",
        "\x1b[3~": "delete",  # the Delete key's own sequence, when a line carries it
        "\x7f": "delete",
    }
)


def command_for(key: str, phase: Phase | None) -> str | None:
    """The command a key means: ``phase`` is None between rounds, else the round's phase.

    Returns None for a key that means nothing now (it should be ignored)."""
    k = key.strip().lower() if key.strip() else key
    k = _ALIASES.get(k, k)
    if phase is None or phase is Phase.COMPLETE:
        return BETTING_KEYS.get(k)
    return PLAYING_KEYS.get(phase, {}).get(k)
