"""Bots: baseline strategies and the runner (R-BOT-1, R-FAIR-1, R-BET-8)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from croupier.bots import BotRunner, Decision, EquityBot, RuleBot, hand_bucket, to_command
from croupier.engine.actions import raise_to
from croupier.engine.cards import parse_cards
from croupier.engine.game import Game
from croupier.engine.state import apply, legal_actions, start_hand
from croupier.engine.views import view
from croupier.table import Act, Draw, ShowCards, TableEvent
from croupier.table.events import Turn
from croupier.table.testing import Harness, check_event

G = Game.of("nlhe", blinds=(1, 2))


def run(fn: Callable[[], Awaitable[Any]]) -> Any:
    return asyncio.run(fn())  # type: ignore[arg-type]


def test_hand_buckets_order_hands() -> None:
    """R-BOT-1: the rule bot's buckets rank made hands and starting hands."""
    p = parse_cards
    assert hand_bucket(p("AsAd"), (), G) == 3
    assert hand_bucket(p("AsKd"), (), G) == 2
    assert hand_bucket(p("9s2s"), (), G) == 1
    assert hand_bucket(p("7c2d"), (), G) == 0
    board = p("Ks9d4c")
    assert hand_bucket(p("AsAd"), board, G) == 1  # one pair
    assert hand_bucket(p("Kd9s"), board, G) == 2  # two pair
    assert hand_bucket(p("KdKh"), board, G) == 2  # set
    assert hand_bucket(p("QsJs"), p("Ts9s2d"), G) == 0  # a draw is not a made hand
    assert hand_bucket(p("QsJs"), p("Ts9s8d"), G) == 3  # straight


def heads_up(deck: str) -> Any:
    s, _ = start_hand(G, (100, 100), parse_cards(deck))
    return s


def shove(s: Any) -> Any:
    """The player to act raises all-in."""
    legal = legal_actions(s)
    assert legal is not None
    return apply(s, raise_to(s.actor, legal.max_raise))[0]


def test_rule_bot_decisions_are_legal_and_follow_strength() -> None:
    """R-BOT-1, R-BET-8: the rule bot raises the strong, folds the weak facing a bet, and its
    decisions are always legal."""
    strong = heads_up("AsKs AhKd 2c 7h8h9h 3d Td 4s Jc")  # button (1) holds Ks Kd
    d = RuleBot().decide(view(strong, 1), 1, G)
    assert d.kind == "raise"
    legal = legal_actions(strong)
    assert legal is not None and legal.min_raise <= d.amount <= legal.max_raise
    facing = shove(heads_up("AsKs Ah2d 2c 7h8h9h 3d Td 4s Jc"))
    assert RuleBot().decide(view(facing, 0), 0, G).kind == "call"  # As Ah calls the shove
    weak = heads_up("7c2d Ks3h 2c 7h8h9h 3d Td 4s Jc")
    assert RuleBot().decide(view(weak, 1), 1, G).kind == "fold"  # 2d 3h facing the blind


def test_equity_bot_estimates_and_follows_pot_odds() -> None:
    """R-BOT-1: the equity bot's Monte Carlo equity is sane and drives call/fold by odds."""
    bot = EquityBot(random.Random(3), trials=400)
    deal = heads_up("AsKs AhQd 2c 7h8h9h 3d Td 4s Jc")  # button: Ks Qd; bb: As Ah
    assert 0.78 < bot.equity(view(deal, 0), 0, G) < 0.92
    assert 0.55 < bot.equity(view(deal, 1), 1, G) < 0.70
    facing = shove(heads_up("As7c Ah2d 2c 7h8h9h 3d Td 4s Jc"))  # bb As Ah faces a shove
    assert bot.decide(view(facing, 0), 0, G).kind == "call"
    trash = shove(heads_up("7c2h 3s2d 2c 7h8h9h 3d Td 4s Jc"))  # bb 7c 3s faces a shove
    assert bot.decide(view(trash, 0), 0, G).kind == "fold"


@pytest.mark.parametrize(
    ("decision", "kind"),
    [
        (Decision("raise", 12), Act),
        (Decision("fold"), Act),
        (Decision("bring_in"), Act),
        (Decision("draw", discards=parse_cards("2c7d")), Draw),
        (Decision("show"), ShowCards),
    ],
)
def test_decisions_become_ordinary_commands(decision: Decision, kind: type) -> None:
    """R-BOT-1: a bot uses the same commands as a human."""
    cmd = to_command(decision, "id", "bot")
    assert isinstance(cmd, kind) and cmd.player_id == "bot"
    with pytest.raises(ValueError):
        to_command(Decision("dance"), "id", "bot")


def test_runner_sees_only_its_seat_and_acts_after_delay() -> None:
    """R-BOT-1: bots are labelled BOT, see only their own private cards and act through the
    command path after an injected delay on the table clock."""

    async def body() -> None:
        h = await Harness.create(bot_delay_seconds=2.0)
        seen: dict[str, list[TableEvent]] = {"b1": [], "b2": []}
        bots = [
            BotRunner(h.actor, pid, RuleBot(), clock=h.clock, observer=seen[pid].append)
            for pid in ("b1", "b2")
        ]
        for b in bots:
            assert (await b.join(200)).accepted
        assert all("BOT" in s.display_name and s.is_bot for s in h.table.seats.values())
        await h.next_hand()
        who = h.to_act()
        version = h.table.version
        await h.clock.advance(1.9)
        assert h.to_act() == who and h.table.version == version  # still thinking
        await h.clock.advance(0.1)
        assert h.table.version > version  # acted at the delay
        await h.clock.run_until(lambda: h.table.hand_no >= 6, limit=h.clock.now() + 2000)
        for pid, events in seen.items():
            shown: set[Any] = set()
            for e in events:
                check_event(e, pid, shown)
            turns = [e.data for e in events if isinstance(e.data, Turn) and e.data.view]
            assert turns and all(t.player_id == pid for t in turns)
        assert not [r for b in bots for r in b.refused if r.code != "not_your_turn"]

    run(body)
