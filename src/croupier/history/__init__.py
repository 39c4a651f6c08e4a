"""Hand histories: PHH read/write, PokerStars-style export."""

from croupier.history.export import to_phh
from croupier.history.phh import (
    HandHistory,
    PhhAction,
    PhhError,
    dump_phh,
    dump_phhs,
    load_phh,
    load_phhs,
    read_path,
)
from croupier.history.replay import PHH_GAMES, Replay, Status, Verdict, replay, verify

__all__ = [
    "PHH_GAMES",
    "HandHistory",
    "PhhAction",
    "PhhError",
    "Replay",
    "Status",
    "Verdict",
    "dump_phh",
    "dump_phhs",
    "load_phh",
    "load_phhs",
    "read_path",
    "replay",
    "to_phh",
    "verify",
]
