"""The pure rules engine: no I/O, no asyncio, no clock, no global random.

Everything a program needs to play a hand is importable from here; the submodules stay the
place for the rest (``croupier.engine.naiko`` for Naiko mode, ``croupier.engine.evaluate``
for the hand evaluators, ``croupier.engine.variants`` to register a variant).

>>> from croupier.engine import Game, apply, fold, legal_actions, parse_cards, raise_to, start_hand
>>> game = Game.of("nlhe", blinds=(1, 2))
>>> deck = parse_cards("AsKs QhQd 2c7d 9h8h7c6d5s4c3h")
>>> state, events = start_hand(game, (200, 200, 200), deck)
>>> legal = legal_actions(state)
>>> legal.player, legal.call, legal.min_raise, legal.max_raise
(2, 2, 4, 200)
>>> for action in (raise_to(2, 6), fold(0), fold(1)):
...     state, events = apply(state, action)
>>> state.result.net
(-1, -2, 3)

The betting decisions by name (the protocol's ``act``, the table's commands, the bots):

>>> from croupier.engine import BET_KINDS, betting
>>> "bring_in" in BET_KINDS, str(betting("raise", 0, 8))
(True, 'p1 raise to 8')
"""

from croupier.engine.actions import (
    BET_KINDS,
    Action,
    ActionKind,
    BetKind,
    LegalActions,
    accept_split,
    betting,
    bring_in,
    call,
    check,
    decline_split,
    draw,
    fold,
    muck,
    offer_split,
    raise_to,
    show,
)
from croupier.engine.cards import Card, format_cards, parse_cards
from croupier.engine.errors import (
    CodedError,
    ConfigurationError,
    EngineError,
    IllegalActionError,
    InconsistentStateError,
    InvalidCardError,
)
from croupier.engine.events import Event
from croupier.engine.game import GAME_PRESETS, Game, Stakes, Structure, find_game
from croupier.engine.rng import SeededShuffler, Shuffler, SystemShuffler
from croupier.engine.rules import PROFILES, HouseRules, profile
from croupier.engine.state import HandState, Phase, apply, legal_actions, start_hand
from croupier.engine.variants import VARIANTS, Variant, find_variant
from croupier.engine.views import TableView, view

__all__ = [
    "BET_KINDS",
    "GAME_PRESETS",
    "PROFILES",
    "VARIANTS",
    "Action",
    "ActionKind",
    "BetKind",
    "Card",
    "CodedError",
    "ConfigurationError",
    "EngineError",
    "Event",
    "Game",
    "HandState",
    "HouseRules",
    "IllegalActionError",
    "InconsistentStateError",
    "InvalidCardError",
    "LegalActions",
    "Phase",
    "SeededShuffler",
    "Shuffler",
    "Stakes",
    "Structure",
    "SystemShuffler",
    "TableView",
    "Variant",
    "accept_split",
    "apply",
    "betting",
    "bring_in",
    "call",
    "check",
    "decline_split",
    "draw",
    "find_game",
    "find_variant",
    "fold",
    "format_cards",
    "legal_actions",
    "muck",
    "offer_split",
    "parse_cards",
    "profile",
    "raise_to",
    "show",
    "start_hand",
    "view",
]
