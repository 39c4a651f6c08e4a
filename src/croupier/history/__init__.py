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

# ``replay`` (the function) is not re-exported: it would shadow the module of that name.
from croupier.history.replay import PHH_GAMES, Replay, Status, Verdict, verify

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
    "to_phh",
    "verify",
]
