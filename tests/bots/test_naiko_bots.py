"""Bots at Naiko tables (R-NAIKO-9, R-BOT-1): heuristics and a soak."""

from __future__ import annotations

import asyncio
import random
from collections import Counter, defaultdict
from typing import Any

from croupier.bots import BotRunner, EquityBot, RuleBot
from croupier.bots.naiko import NaikoMemory, choose_power, should_block
from croupier.engine.actions import call, check, raise_to
from croupier.engine.cards import parse_cards
from croupier.engine.game import Game
from croupier.engine.naiko import CARROUSELS, Power, PowerUsed, act, start_naiko_hand, use_power
from croupier.engine.rng import SeededShuffler
from croupier.engine.views import view
from croupier.table import FakeClock, InMemoryJournal, PlayChips, TableActor, TableConfig
from croupier.table.events import CarrouselShown, HandBegan, HandSettled, TableEvent
from croupier.table.naiko import naiko_status
from croupier.table.testing import check_event

GAME = Game.of("nlhe", blinds=(1, 2), rules="naiko")


def carrousel(*powers: Power) -> int:
    return next(i for i, c in enumerate(CARROUSELS) if set(powers) <= set(c))


def memory_for(players: tuple[str, ...], me: str) -> NaikoMemory:
    m = NaikoMemory(me)
    m.observe(TableEvent(1, 0, 1, HandBegan(1, 0, tuple(range(len(players))), players, (), (), "")))
    return m


def test_echange_with_weak_offsuit_hand() -> None:
    """R-NAIKO-6, R-NAIKO-9: pre-flop, before acting, a weak off-suit unconnected hand
    exchanges its lower card; a decent hand keeps its cards."""
    # dealt one at a time from position 0: position 2 (first to act) gets 9c 3d
    deck = parse_cards("AsAh 9c KsKh 3d 2c 7h8h9h 3c Td 4s Jc")
    nh, _ = start_naiko_hand(
        GAME, (200,) * 3, deck, destellos=(2, 2, 2), carrousel=carrousel(Power.ECHANGE_DE_MANCHE)
    )
    m = memory_for(("a", "b", "c"), "c")
    choice = choose_power(view(nh.hand, 2), 2, naiko_status(nh), m, GAME)
    assert choice is not None and choice.power is Power.ECHANGE_DE_MANCHE
    assert choice.card == parse_cards("3d")[0]
    nh2, _ = use_power(nh, 2, choice.power, card=choice.card)  # the engine accepts it
    assert parse_cards("3d")[0] not in nh2.hand.hole_cards[2]
    strong = start_naiko_hand(
        GAME,
        (200,) * 3,
        parse_cards("2c2d As 3c3d Ah 8h7h9h 3s Td 4s Jc"),
        destellos=(2, 2, 2),
        carrousel=carrousel(Power.ECHANGE_DE_MANCHE),
    )[0]
    assert (
        choose_power(
            view(strong.hand, 2), 2, naiko_status(strong), memory_for(("a", "b", "c"), "c"), GAME
        )
        is None
    )


def test_ancre_against_an_aggressive_opponent_yet_to_act() -> None:
    """R-NAIKO-7, R-NAIKO-9: the bot anchors an opponent who has raised and not acted in
    this round; without aggression it does not."""
    deck = parse_cards("AsKd 7sQd 2c 7h8h9h 3d Td 4s Jc")  # 0: As 7s, 1: Kd Qd
    nh, _ = start_naiko_hand(
        GAME, (200, 200), deck, destellos=(3, 3), carrousel=carrousel(Power.ANCRE_COURTE)
    )
    nh, _ = act(nh, raise_to(1, 8))  # the button raises pre-flop
    nh, _ = act(nh, call(0))
    # the flop: position 0 acts first; position 1 raised this hand and has not acted yet
    assert nh.hand.street == 1 and nh.hand.actor == 0
    m = memory_for(("a", "b"), "a")
    calm = choose_power(view(nh.hand, 0), 0, naiko_status(nh), m, GAME)
    assert calm is None or calm.power is not Power.ANCRE_COURTE
    m.hand_raises[1] = 1
    choice = choose_power(view(nh.hand, 0), 0, naiko_status(nh), m, GAME)
    assert choice is not None and choice.power is Power.ANCRE_COURTE and choice.target == 1
    use_power(nh, 0, choice.power, target=choice.target)  # legal for the engine


def test_coup_d_oeil_on_a_draw_and_sceau_when_it_matters() -> None:
    """R-NAIKO-5, R-NAIKO-8, R-NAIKO-9: a flush draw on the flop peeks; a strong hand with
    chips behind blocks an Ancre, a weak one lets it apply."""
    deck = parse_cards("AhQs 5h2d 2c 9h3h Kc 3d Td 4s Jc")
    # position 0: Ah 5h; position 1: Qs 2d; flop 9h 3h Kc (burn 2c)
    nh, _ = start_naiko_hand(
        GAME,
        (200, 200),
        deck,
        destellos=(3, 3),
        carrousel=carrousel(Power.COUP_D_OEIL, Power.SCEAU_PROTECTEUR),
    )
    nh, _ = act(nh, call(1))
    nh, _ = act(nh, check(0))
    assert nh.hand.street == 1 and nh.hand.actor == 0
    choice = choose_power(view(nh.hand, 0), 0, naiko_status(nh), memory_for(("a", "b"), "a"), GAME)
    assert choice is not None and choice.power is Power.COUP_D_OEIL
    # an Ancre from 0 on 1: 1 holds queen high (weak), so no block
    anchored, _ = use_power(nh, 0, Power.ANCRE_COURTE, target=1)
    assert not should_block(view(anchored.hand, 1), 1, naiko_status(anchored), GAME)
    # same spot where 1 holds a set of threes with chips behind: block
    deck2 = parse_cards("AhQs 5h3d 2c 9h3h3c 3s Td 4s Jc")
    nh2, _ = start_naiko_hand(
        GAME, (200, 200), deck2, destellos=(3, 3), carrousel=carrousel(Power.SCEAU_PROTECTEUR)
    )
    nh2, _ = act(nh2, call(1))
    nh2, _ = act(nh2, check(0))
    anchored2, _ = use_power(nh2, 0, Power.ANCRE_COURTE, target=1)
    assert should_block(view(anchored2.hand, 1), 1, naiko_status(anchored2), GAME)
    broke = start_naiko_hand(
        GAME, (200, 200), deck2, destellos=(3, 0), carrousel=carrousel(Power.SCEAU_PROTECTEUR)
    )[0]
    broke, _ = act(broke, call(1))
    broke, _ = act(broke, check(0))
    broke, _ = use_power(broke, 0, Power.ANCRE_COURTE, target=1)
    assert broke.destellos[1] == 1  # one Destello left: enough for a Sceau
    assert should_block(view(broke.hand, 1), 1, naiko_status(broke), GAME)


class Rig:
    """A Naiko table of bots with checks on every delivered event."""

    def __init__(self, index: int, clock: FakeClock) -> None:
        self.config = TableConfig.default(
            GAME, seats=6, testing=True, table_id=f"n{index}", between_hands_seconds=1.0
        )
        assert self.config.naiko
        self.bank = PlayChips()
        self.actor = TableActor.open(
            self.config,
            clock=clock,
            journal=InMemoryJournal(),
            shuffler=SeededShuffler(100 + index),
            rng=random.Random(index),
            bank=self.bank,
        )
        self.shown: dict[str | None, set[Any]] = defaultdict(set)
        self.hand_events: list[TableEvent] = []
        self.start: dict[int, int] = {}
        self.problems: list[str] = []
        self.powers: Counter[str] = Counter()
        self.hands = 0
        self.actor.subscribe(None, self.spectate, internal=True)
        self.bots = [
            BotRunner(
                self.actor,
                f"n{index}b{k}",
                EquityBot(random.Random(index * 10 + k), trials=8) if k % 2 else RuleBot(),
                clock=clock,
                delay=0.5 + 0.25 * k,
                observer=self.checker(f"n{index}b{k}"),
            )
            for k in range(3 + index % 4)
        ]

    def checker(self, audience: str | None) -> Any:
        def check(event: TableEvent) -> None:
            if event.type == "hand_began":
                self.shown[audience].clear()
            check_event(event, audience, self.shown[audience])

        return check

    def spectate(self, event: TableEvent) -> None:
        self.checker(None)(event)
        data = event.data
        table = self.actor.table
        if isinstance(data, CarrouselShown):
            self.start = dict(data.destellos)
            self.hand_events = []
        elif isinstance(data, PowerUsed):
            self.hand_events.append(event)
            self.powers[data.power.value] += 1
        elif isinstance(data, HandSettled):
            self.hands += 1
            chips = sum(s.stack for s in table.seats.values())
            if chips + self.bank.total_out + table.rake_total != self.bank.total_in:
                self.problems.append(f"chips at hand {event.hand_no}")
            spent: Counter[int] = Counter()
            seats = table.plan.seats if table.plan else ()
            for e in self.hand_events:
                assert isinstance(e.data, PowerUsed)
                spent[seats[e.data.player]] += e.data.cost
            for seat_no, before in self.start.items():
                seat = table.seats.get(seat_no)
                if seat is None:
                    continue
                if not 0 <= seat.destellos <= 3 or seat.destellos != before - spent[seat_no]:
                    self.problems.append(
                        f"destellos of seat {seat_no} at hand {event.hand_no}: {before} - {spent[seat_no]} != {seat.destellos}"
                    )


async def naiko_soak(tables: int, hands: int) -> list[Rig]:
    clock = FakeClock()
    rigs = [Rig(i, clock) for i in range(tables)]
    for rig in rigs:
        for bot in rig.bots:
            assert (await bot.join(rig.config.min_buy_in * 2)).accepted
    await clock.run_until(
        lambda: sum(r.hands for r in rigs) >= hands or any(not r.actor.alive for r in rigs),
        max_timers=10**7,
    )
    for rig in rigs:
        assert rig.actor.alive, rig.actor.crashed
    return rigs


def test_soak_naiko_bot_tables() -> None:
    """R-NAIKO-1..9, R-BOT-1, R-FAIR-1, R-POT-6: bot Naiko tables play a few hundred hands
    using powers by the table's rules: chips conserved and Destellos consistent (start
    minus costs) at every hand, within 0..3, no hidden or peeked card delivered to the
    wrong audience, and no power command of a bot refused."""
    rigs = asyncio.run(naiko_soak(4, 300))
    for rig in rigs:
        assert rig.problems == []
    assert sum(r.hands for r in rigs) >= 300
    powers = sum((r.powers for r in rigs), Counter())
    assert {p.value for p in Power} == set(powers), powers  # the four, Sceau included
    refused = [r for rig in rigs for b in rig.bots for r in b.refused]
    power_codes = {
        "not_in_carrousel",
        "already_used",
        "not_enough_destellos",
        "wrong_moment",
        "table_quota",
        "invalid_target",
        "response_pending",
        "unknown_power",
        "invalid_card",
        "not_your_cards",
    }
    assert not [r for r in refused if r.code in power_codes], refused
