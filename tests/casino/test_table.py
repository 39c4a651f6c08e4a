"""The casino table actor: seats, the shared deck, decisions on a clock, refusals, views,
the crash policy (R-BONUS-1, R-BONUS-2, R-CRASH-1)."""

from __future__ import annotations

import asyncio

from croupier.casino.cashier import MemoryCashier
from croupier.casino.table import Cancel, Deal, Decide, Sit, Stand
from croupier.engine.rng import SeededShuffler
from tests.casino.kit import StackedShuffler, deck, table


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


def test_players_share_one_deck_and_act_in_seat_order() -> None:
    """R-BONUS-1, R-BONUS-2: three players, one deck: hole cards one at a time from the
    dealer's left, the dealer last; decisions in seat order; burn before each street."""

    async def go() -> None:
        cash = MemoryCashier({"1": 1000, "2": 1000, "3": 1000})
        d = deck(["AsKs", "2c7d", "QhQd"], "9c9d", "Ts8h5s4hJc")
        actor, _clock = table(cash, StackedShuffler(d))
        for pid, seat in (("1", 0), ("2", 3), ("3", 6)):
            assert (await actor.submit(Sit(f"s{pid}", pid, f"p{pid}", seat))).accepted
        assert (await actor.submit(Deal("d1", "1", 10, 5))).accepted
        assert actor.table.round is None  # waits for the others
        assert (await actor.submit(Deal("d2", "2", 20))).accepted
        assert (await actor.submit(Deal("d3", "3", 10))).accepted
        t = actor.table
        assert t.round is not None and t.round_seats == (0, 3, 6)
        holes = [s.hole for s in t.round.seats]
        assert [str(c) for h in holes for c in h] == ["As", "Ks", "2c", "7d", "Qh", "Qd"]
        assert cash.balance("1") == 985 and cash.balance("2") == 980 and cash.balance("3") == 990
        # player 2 may not act before player 1
        r = await actor.submit(Decide("x", "2", "play"))
        assert not r.accepted and r.code == "not_your_turn"
        assert (await actor.submit(Decide("a", "1", "play"))).accepted
        assert (await actor.submit(Decide("b", "2", "fold"))).accepted
        assert (await actor.submit(Decide("c", "3", "play"))).accepted
        assert t.round.board and len(t.round.board) == 3
        r = await actor.submit(Decide("y", "2", "check"))
        assert not r.accepted and r.code == "not_your_turn"  # player 2 folded
        for cid, pid, mv in (
            ("e", "1", "bet"),
            ("f", "3", "check"),
            ("g", "1", "bet"),
            ("h", "3", "bet"),
        ):
            assert (await actor.submit(Decide(cid, pid, mv))).accepted, (cid, pid, mv)
        assert t.round is None and t.last is not None
        assert t.last["board"] == "Ts8h5s4hJc" and t.last["dealer"] == "9c9d"
        res = {r["seat"]: r for r in t.last["results"]}
        # 1: AsKs makes ace high (four spades only): the dealer's nines win
        assert res[0]["outcome"] == "lose" and res[0]["bonus_line"] == "ak_suited"
        assert res[3]["outcome"] == "fold" and res[3]["net"] == -20
        assert res[6]["outcome"] == "win"  # queens beat nines
        total = sum(cash.balance(p) for p in "123") + cash.house
        assert total == 3000 and not cash.escrow
        await actor.stop()

    run(go())


def test_refusals_change_nothing_and_ante_is_raised() -> None:
    """R-BONUS-1: ante 2–1000 (1 raised to 2), bonus 0 or 1–25, within the balance."""

    async def go() -> None:
        cash = MemoryCashier({"1": 30})
        actor, _ = table(cash, SeededShuffler(1))
        assert (await actor.submit(Sit("s", "1", "ann"))).accepted
        for ante, bonus, code in (
            (1001, 0, "ante_too_large"),
            (10, 26, "bonus_out_of_range"),
            (0, 5, "ante_required"),
            (0, 0, "no_bet"),
            (25, 10, "insufficient_chips"),
        ):
            r = await actor.submit(Deal(f"d{ante}-{bonus}", "1", ante, bonus))
            assert not r.accepted and r.code == code, (ante, bonus, r)
            assert actor.table.round is None and cash.balance("1") == 30
        r = await actor.submit(Decide("x", "1", "play"))
        assert not r.accepted and r.code == "not_in_round"
        r = await actor.submit(Deal("ok", "1", 1, 0))
        assert r.accepted and r.data == {"ante": 2, "bonus": 0, "raised": True}
        assert cash.balance("1") == 28
        # the same command id again: the same answer, nothing moves twice
        again = await actor.submit(Deal("ok", "1", 1, 0))
        assert again == r and cash.balance("1") == 28
        r = await actor.submit(Decide("m", "1", "dance"))
        assert not r.accepted and r.code == "unknown_action"
        r = await actor.submit(Decide("m2", "1", "check"))
        assert not r.accepted and r.code == "move_not_allowed"
        await actor.stop()

    run(go())


def test_timeouts_fold_preflop_and_check_later() -> None:
    """R-BONUS-2 at a live table: a player who lets the clock run out folds pre-flop and
    checks on the turn and river; the round still settles."""

    async def go() -> None:
        cash = MemoryCashier({"1": 500, "2": 500})
        d = deck(["AsAh", "2c7d"], "KcQd", "Ts8h5s4hJc")
        actor, clock = table(cash, StackedShuffler(d), decision_seconds=10, gather_seconds=5)
        await actor.submit(Sit("s1", "1", "a", 0))
        await actor.submit(Sit("s2", "2", "b", 1))
        await actor.submit(Deal("d1", "1", 10))
        await actor.submit(Deal("d2", "2", 10))
        t = actor.table
        await actor.submit(Decide("p", "1", "play"))
        await clock.advance(10.5)  # player 2 says nothing: folded
        assert t.round is not None and t.round.seats[1].folded
        assert {"seat": 1, "code": "timed_out", "move": "fold"} in t.notices
        await clock.advance(10.5)  # player 1 says nothing on the turn: check
        await clock.advance(10.5)  # and on the river: check, settled
        assert t.round is None and t.last is not None
        res = {r["seat"]: r for r in t.last["results"]}
        assert res[0]["stakes"] == {"ante": 10, "bonus": 0, "flop": 20, "turn": 0, "river": 0}
        assert res[1]["outcome"] == "fold"
        assert cash.balance("1") + cash.balance("2") + cash.house == 1000
        await actor.stop()

    run(go())


def test_gather_window_deals_the_ready_players_only() -> None:
    """R-BONUS-1: the round starts when every seated player is ready or when the gathering
    window ends; a player who did not bet sits the round out; a cancelled bet comes back."""

    async def go() -> None:
        cash = MemoryCashier({"1": 100, "2": 100, "3": 100})
        actor, clock = table(cash, SeededShuffler(4), gather_seconds=5)
        for p in "123":
            await actor.submit(Sit(f"s{p}", p, p))
        await actor.submit(Deal("d1", "1", 10))
        await actor.submit(Deal("d3", "3", 4, 1))
        assert (await actor.submit(Cancel("c3", "3"))).accepted
        assert cash.balance("3") == 100
        await clock.advance(5.1)
        t = actor.table
        assert t.round is not None and t.round_seats == (0,)
        assert cash.balance("1") == 90 and cash.balance("2") == 100
        r = await actor.submit(Deal("late", "2", 10))
        assert not r.accepted and r.code == "round_in_play"
        # standing up in a round: the clock decides at once, the seat frees at the end
        r = await actor.submit(Stand("st", "1"))
        assert r.accepted and r.code == "after_round"
        await clock.advance(0.01)
        assert t.round is None and t.seat_of("1") is None
        assert cash.balance("1") + cash.house == 100
        await actor.stop()

    run(go())


def test_views_hide_other_hands_the_dealer_and_burns() -> None:
    """The redaction of the casino table: a player sees only their hole cards until the
    settlement; the dealer's cards stay hidden; a spectator sees no hole card."""

    async def go() -> None:
        cash = MemoryCashier({"1": 100, "2": 100})
        d = deck(["AsKs", "2c7d"], "9c9d", "Ts8h5s4hJc")
        actor, _ = table(cash, StackedShuffler(d))
        await actor.submit(Sit("s1", "1", "a", 0))
        await actor.submit(Sit("s2", "2", "b", 1))
        await actor.submit(Deal("d1", "1", 10))
        await actor.submit(Deal("d2", "2", 10))
        t = actor.table
        v1, v2, vs = t.view("1"), t.view("2"), t.view(None)
        assert v1["seats"][0]["hole"] == "AsKs" and v1["seats"][1]["hole"] is None
        assert v2["seats"][1]["hole"] == "2c7d" and v2["seats"][0]["hole"] is None
        assert vs["seats"][0]["hole"] is None and vs["you"] is None
        for v in (v1, v2, vs):
            text = repr(v)
            assert "9c" not in text and "9d" not in text  # the dealer's cards
        assert v1["you"]["legal"] == {"moves": ["fold", "play"], "amount": 20}
        assert v2["you"]["legal"] is None
        await actor.submit(Decide("a", "1", "play"))
        await actor.submit(Decide("b", "2", "play"))
        v = t.view("2")
        assert v["board"] == "Ts8h5s" and "AsKs" not in repr(v)
        await actor.stop()

    run(go())


def test_crash_voids_the_open_round_and_returns_every_bet() -> None:
    """R-CRASH-1: an actor that stops mid-round leaves the stakes escrowed; the restored
    table voids the round and every chip goes back."""

    async def go() -> None:
        from croupier.casino.table import CasinoTableConfig
        from croupier.table.casino_actor import CasinoActor
        from croupier.table.clock import FakeClock

        cash = MemoryCashier({"1": 100, "2": 100})
        d = deck(["AsKs", "2c7d"], "9c9d", "Ts8h5s4hJc")
        actor, _ = table(cash, StackedShuffler(d))
        await actor.submit(Sit("s1", "1", "a", 0))
        await actor.submit(Sit("s2", "2", "b", 1))
        await actor.submit(Deal("d1", "1", 10, 5))
        await actor.submit(Deal("d2", "2", 10))
        await actor.submit(Decide("a", "1", "play"))
        assert cash.balance("1") == 65 and cash.escrow
        await actor.stop()  # killed mid-round
        assert not actor.alive
        restored = await CasinoActor.restore(CasinoTableConfig("casino-t"), cash, FakeClock())
        assert cash.balance("1") == 100 and cash.balance("2") == 100
        assert not cash.escrow and cash.house == 0 and cash.open_rounds("casino-t") == []
        assert restored.table.round is None
        await restored.stop()

    run(go())
