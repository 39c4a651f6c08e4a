"""A table's lobby row is made again only when what it says changed (server/registry.py,
issue #16): the lease round reads every table's a few times a second."""

from __future__ import annotations

import asyncio
import random

from croupier.bots import BotRunner, RuleBot
from croupier.engine.game import Game
from croupier.engine.rng import SeededShuffler
from croupier.lobby.catalog import TableSpec
from croupier.server.registry import LiveTable
from croupier.table import FakeClock, InMemoryJournal, PlayChips, TableActor, TableConfig


def test_the_row_follows_players_bots_and_pots_and_is_reused_otherwise() -> None:
    async def go() -> None:
        clock = FakeClock()
        config = TableConfig.default(
            Game.of("nlhe", blinds=(1, 2)), seats=6, testing=True, table_id="t1"
        )
        actor = TableActor.open(
            config,
            clock=clock,
            journal=InMemoryJournal(),
            shuffler=SeededShuffler(1),
            rng=random.Random(1),
            bank=PlayChips(),
        )
        live = LiveTable(TableSpec("t1", "Table 1"), actor)
        empty = live.summary()
        assert (empty.players, empty.bots, empty.average_pot) == (0, 0, 0)
        assert live.summary() is empty, "nothing changed, yet the row was made again"
        for k in range(2):
            bot = BotRunner(actor, f"b{k}", RuleBot(), clock=clock, delay=0.5)
            assert (await bot.join(config.min_buy_in * 2)).accepted
        two = live.summary()
        assert two is not empty and (two.players, two.bots) == (2, 2)
        assert live.summary() is two
        live.pots.append(30)  # what the registry does when a hand settles
        live.hands += 1
        pot = live.summary()
        assert pot is not two and pot.average_pot == 30
        live.pots.append(10)
        live.hands += 1
        assert live.summary().average_pot == 20

    asyncio.run(go())
