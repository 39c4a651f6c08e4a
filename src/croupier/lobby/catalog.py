"""Table specs: what the lobby lists and what a live table is built from.

A :class:`TableSpec` is frozen data: a game preset, a house-rule profile, blinds, seats,
buy-in range, how many bots fill seats, and for a private table its invitation code.
:meth:`TableSpec.config` turns it into the table's
:class:`~croupier.table.config.TableConfig` (a bad spec is refused with a
:class:`LobbyError` carrying a code, before any table exists).

>>> [s.name for s in DEFAULT_TABLES]
['NLHE 1/2 6-max', 'PLO 1/2', 'FLHE 2/4', 'Naiko NLHE 1/2', 'Arcade NLHE 1/2']
>>> cfg = DEFAULT_TABLES[0].config()
>>> cfg.seats, cfg.buy_in_min, cfg.buy_in_max, cfg.rules.name
(6, 80, 400, 'room')
>>> private_spec("p-1", game="nlhe", blinds=(5, 10), code="ABCD2345").config().buy_in_max
2000
>>> private_spec("p-2", game="chess", blinds=(1, 2), code="X")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
croupier.lobby.catalog.LobbyError: unknown game 'chess'; ...
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Literal

from croupier.engine.errors import CodedError, EngineError
from croupier.engine.game import Game, Structure, find_game
from croupier.engine.rules import profile
from croupier.table.config import TableConfig
from croupier.table.results import TableError

__all__ = [
    "CODE_ALPHABET",
    "DEFAULT_TABLES",
    "LobbyError",
    "TableSpec",
    "TableSummary",
    "invitation_code",
    "parse_spread",
    "private_spec",
]

Kind = Literal["cash", "private", "arcade", "tournament"]
#: Invitation codes avoid look-alike characters (0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


class LobbyError(CodedError):
    """A lobby refusal with a stable ``code``."""


@dataclass(frozen=True, slots=True)
class TableSpec:
    """One table of the lobby. ``buy_in_min``/``buy_in_max`` 0: 40 and 200 big blinds;
    Fixed-Limit and Spread-Limit tables have no maximum (R-SEAT-1)."""

    table_id: str
    name: str
    game: str = "nlhe"
    profile: Literal["room", "naiko", "arcade"] = "room"
    blinds: tuple[int, int] = (1, 2)
    seats: int = 6
    bots: int = 0
    buy_in_min: int = 0
    buy_in_max: int = 0
    kind: Kind = "cash"
    code: str | None = None
    host: int | None = None
    spread: tuple[int, ...] = ()
    """Spread-Limit maxima per street (R-BET-5), from :func:`parse_spread`; ``()``: the
    small bet on the first two streets, the big bet after."""

    @property
    def private(self) -> bool:
        return self.code is not None

    def admits(self, code: str | None, account_id: int | None) -> bool:
        """Whether a visitor who is not seated here may reach this table (R-LOBBY-2): a
        public table admits everyone, a private one its host and whoever gives its code.

        >>> spec = private_spec("p-1", game="nlhe", blinds=(1, 2), code="ABCD2345", host=7)
        >>> spec.admits("ABCD2345", None), spec.admits(None, 7), spec.admits("WRONG", 8)
        (True, True, False)
        """
        if self.code is None or (account_id is not None and account_id == self.host):
            return True
        return code is not None and secrets.compare_digest(code.encode(), self.code.encode())

    def game_of(self) -> Game:
        try:
            game = Game.of_stakes(self.game, *self.blinds, rules=profile(self.profile))
            if self.spread:
                if game.structure is not Structure.SPREAD_LIMIT:
                    raise LobbyError("bad_spread", "per-round maxima are for Spread-Limit games")
                game = replace(game, stakes=replace(game.stakes, spread=self.spread))
        except EngineError as exc:
            raise LobbyError("bad_game", str(exc)) from None
        if game.stakes.ante and game.stakes.bring_in < 2 * game.stakes.ante:
            raise LobbyError(
                "bad_stakes",
                "stud tables bring in about twice the ante (R-POS-5): "
                "the small stake (the bring-in) must be at least 2",
            )
        return game

    def config(
        self,
        *,
        bot_delay_seconds: float = 1.0,
        between_hands_seconds: float = 3.0,
        testing: bool = False,
    ) -> TableConfig:
        """The live table's configuration (R-SEAT-1 buy-in range)."""
        game = self.game_of()
        bb = max(game.stakes.big_blind, game.min_bet)
        # R-SEAT-1: Fixed-Limit and Spread-Limit tables have a minimum and no maximum.
        limit = game.structure in (Structure.FIXED_LIMIT, Structure.SPREAD_LIMIT)
        if limit and self.buy_in_max:
            raise LobbyError(
                "bad_buy_in", "Fixed-Limit and Spread-Limit tables have no maximum buy-in"
            )
        try:
            return TableConfig(
                game,
                seats=self.seats,
                buy_in_min=self.buy_in_min or 40 * bb,
                buy_in_max=0 if limit else self.buy_in_max or 200 * bb,
                bots_allowed=self.bots > 0,
                between_hands_seconds=between_hands_seconds,
                bot_delay_seconds=bot_delay_seconds,
                table_id=self.table_id,
                testing=testing,
            )
        except TableError as exc:
            raise LobbyError(exc.code, str(exc)) from None


@dataclass(frozen=True, slots=True)
class TableSummary:
    """A lobby row (R-LOBBY-1): game, structure, stakes, seats, players, average pot."""

    table_id: str
    name: str
    kind: str
    game: str
    variant: str
    structure: str
    profile: str
    stakes: str
    seats: int
    players: int
    bots: int
    average_pot: int
    buy_in_min: int
    buy_in_max: int
    spectators: bool
    spread: str = ""
    """Spread-Limit tables: the per-round maxima, ``1-1-2-3`` (R-BET-5); else empty."""
    ante: int = 0
    """Stud tables: the ante (the bring-in is the small stake, about twice it: R-POS-5)."""


DEFAULT_TABLES: tuple[TableSpec, ...] = (
    TableSpec("nlhe-1-2", "NLHE 1/2 6-max", "nlhe", "room", (1, 2), 6, bots=3),
    TableSpec("plo-1-2", "PLO 1/2", "plo", "room", (1, 2), 6, bots=3),
    TableSpec("flhe-2-4", "FLHE 2/4", "flhe", "room", (1, 2), 6, bots=3),
    TableSpec("naiko-1-2", "Naiko NLHE 1/2", "nlhe", "naiko", (1, 2), 6, bots=3),
    TableSpec("arcade-1-2", "Arcade NLHE 1/2", "nlhe", "arcade", (1, 2), 6, bots=2, kind="arcade"),
)


def invitation_code(length: int = 8) -> str:
    """A fresh random invitation code (OS CSPRNG).

    >>> c = invitation_code(); len(c), set(c) <= set(CODE_ALPHABET)
    (8, True)
    """
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def parse_spread(text: str, streets: int = 4) -> tuple[int, ...]:
    """Spread-Limit maxima as the host types them (R-BET-5): ``1-2-3`` is 1 on the first
    two rounds, then 2, then 3 (one number fewer than rounds: the first covers two); one
    number per round is taken as is. Empty: ``()`` (the default maxima).

    >>> parse_spread("1-2-3"), parse_spread(" 2-2-4-6 "), parse_spread("")
    ((1, 1, 2, 3), (2, 2, 4, 6), ())
    >>> parse_spread("1-x-3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    croupier.lobby.catalog.LobbyError: spread limits are whole numbers ...
    """
    text = text.strip()
    if not text:
        return ()
    parts = [p.strip() for p in text.replace("/", "-").split("-")]
    if not all(p.isdigit() and len(p) <= 9 for p in parts):
        raise LobbyError(
            "bad_spread", f"spread limits are whole numbers separated by '-', like 1-2-3: {text!r}"
        )
    values = tuple(int(p) for p in parts)
    if any(v <= 0 for v in values):
        raise LobbyError("bad_spread", "each spread-limit maximum must be positive")
    if len(values) == streets - 1:
        values = (values[0], *values)
    if len(values) != streets:
        raise LobbyError(
            "bad_spread",
            f"give {streets - 1} maxima (the first for the first two rounds) or {streets}",
        )
    return values


def private_spec(
    table_id: str,
    *,
    game: str = "nlhe",
    profile: Literal["room", "naiko", "arcade"] = "room",
    blinds: tuple[int, int] = (1, 2),
    seats: int = 6,
    bots: bool = False,
    buy_in_min: int = 0,
    buy_in_max: int = 0,
    code: str,
    host: int | None = None,
    spread: str = "",
) -> TableSpec:
    """A private table (R-LOBBY-2): the host's variant, mode, blinds, bots and buy-ins.

    The spec is checked at once (an impossible table is refused here)."""
    sb, bb = blinds
    if not 0 < sb <= bb:
        raise LobbyError("bad_blinds", "blinds must be positive with small <= big")
    if profile == "arcade" and sb * 2 != bb:
        raise LobbyError("bad_blinds", "arcade tables post a small blind of half the big blind")
    try:
        variant, _ = find_game(game)
    except EngineError as exc:
        raise LobbyError("bad_game", str(exc)) from None
    maxima = parse_spread(spread, len(variant.streets))
    spec = TableSpec(
        table_id,
        f"Private {game.upper()} {sb}/{bb}",
        game,
        profile,
        (sb, bb),
        seats,
        bots=max(0, seats // 2) if bots else 0,
        buy_in_min=buy_in_min,
        buy_in_max=buy_in_max,
        kind="private",
        code=code,
        host=host,
        spread=maxima,
    )
    spec.config()
    return spec
