"""Type stub of the C extension ``croupier.analysis._csim`` (see ``fastsim.py``)."""

Config = tuple[int, int, int, int, int, int, int, int, int, int, int]
"""(omaha, structure 0 NL/1 PL/2 HPL/3 FL, showdown_all, short_full, policy 0 random/1 call,
small blind, big blind, ante, min bet, small bet, big bet)"""

Record = tuple[bytes, tuple[tuple[int, int, int, int, int, int], ...], tuple[int, ...], int, bool]
"""(deck, decisions (player, kind, call, min raise, max raise, amount), stacks, actions,
showdown)"""

def run(
    cfg: tuple[int, ...], stacks: tuple[int, ...], hands: int, seed: int, /
) -> tuple[int, int, int]: ...
def record(
    cfg: tuple[int, ...], stacks: tuple[int, ...], hands: int, seed: int, /
) -> list[Record]: ...
def stream(seed: int, count: int, /) -> list[int]: ...
def first_deck(seed: int, /) -> bytes: ...
