"""Naiko mode at the live table (R-NAIKO-1..9) on the FakeClock."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from croupier.engine.cards import Card, format_cards
from croupier.engine.events import Drew
from croupier.engine.game import Game
from croupier.engine.naiko import (
    CARROUSELS,
    RESPONSE_WINDOW_SECONDS,
    Peeked,
    PowerResolved,
    PowerUsed,
)
from croupier.engine.state import legal_actions
from croupier.table import (
    Act,
    Leave,
    RespondAncre,
    SitDown,
    SitOut,
    TableConfig,
    TableError,
    UsePower,
    UseTimeBank,
)
from croupier.table.events import AncreWindowOpened, CarrouselShown, HandSettled, TimedOut, Turn
from croupier.table.journal import HandStartRecord
from croupier.table.testing import Harness, check_event, data_of

C, E, A, S = "coup_d_oeil", "echange_de_manche", "ancre_courte", "sceau_protecteur"


def run(fn: Callable[[], Awaitable[Any]]) -> Any:
    return asyncio.run(fn())  # type: ignore[arg-type]


class FixedCarrousel(random.Random):
    """The table's rng, with every carrousel drawn as ``CARROUSELS[index]``."""

    def __init__(self, index: int, seed: int = 1) -> None:
        super().__init__(seed)
        self.index = index

    def choice(self, seq: Sequence[Any]) -> Any:
        if list(seq) == list(range(len(CARROUSELS))):
            return seq[self.index]
        return super().choice(seq)


def with_powers(*powers: str) -> int:
    return next(i for i, c in enumerate(CARROUSELS) if set(powers) <= {p.value for p in c})


async def naiko(
    players: Sequence[str] = ("ann", "bob", "cid"), carrousel: int | None = None, **kw: Any
) -> Harness:
    rng = FixedCarrousel(carrousel) if carrousel is not None else None
    h = await Harness.create(rules="naiko", rng=rng, **kw)
    for p in players:
        assert (await h.sit(p)).accepted
    return h


async def fold_around(h: Harness) -> None:
    """Finish the running hand: check when free, else fold."""
    hand_no = h.table.hand_no
    while h.table.hand is not None and h.table.hand_no == hand_no:
        who = h.to_act()
        assert who is not None and h.table.hand is not None
        legal = legal_actions(h.table.hand)
        assert legal is not None
        await h.act(who, "check" if legal.can_check else "fold")


def seat_of(h: Harness, pos: int) -> int:
    assert h.table.plan is not None
    return h.table.plan.seats[pos]


def player(h: Harness, pos: int) -> str:
    return h.record.players[pos]


def destellos(h: Harness) -> dict[str, int]:
    return {s.player_id: s.destellos for s in h.table.seats.values()}


def live(h: Harness) -> tuple[int, ...]:
    desk = h.table.naiko
    assert desk is not None and desk.hand is not None
    return desk.hand.destellos


def state_of(h: Harness) -> tuple[Any, ...]:
    t = h.table
    return (
        t.snapshot(None),
        t.snapshot(player(h, 0)),
        t.version,
        len(h.journal.records(t.id)),
        t.deadline,
    )


async def power(h: Harness, who: str, name: str, **kw: Any) -> Any:
    return await h.send(UsePower(h.cid(), who, name, **kw))


def test_config_flag() -> None:
    """R-NAIKO-9, SPEC §9: Naiko mode by default with the naiko profile on Hold'em; only Hold'em."""
    holdem = Game.of("nlhe", blinds=(1, 2), rules="naiko")
    assert TableConfig.default(holdem).naiko is True
    assert TableConfig.default(holdem, naiko=False).naiko is False
    assert TableConfig.default(Game.of("nlhe", blinds=(1, 2))).naiko is False
    assert TableConfig.default(Game.of("plo", blinds=(1, 2), rules="naiko")).naiko is False
    with pytest.raises(TableError) as err:
        TableConfig.default(Game.of("plo", blinds=(1, 2), rules="naiko"), naiko=True)
    assert err.value.code == "naiko_holdem_only"


def test_destellos_across_hands_sitting_out_and_leaving() -> None:
    """R-NAIKO-1: +1 per hand dealt into, at most 3, kept between hands and while sitting
    out (and across a restart: they are journaled with the seat), lost on leaving."""

    async def body() -> None:
        h = await naiko()
        for expected in (1, 2, 3, 3):
            await h.next_hand()
            shown = data_of(h.events(), CarrouselShown)
            assert len(shown) == 1 and {d for _, d in shown[0].destellos} == {expected}
            await fold_around(h)
            assert destellos(h) == {"ann": expected, "bob": expected, "cid": expected}
        await h.send(SitOut(h.cid(), "cid"))
        await h.next_hand()
        await fold_around(h)
        assert destellos(h)["cid"] == 3
        await h.restart()
        assert destellos(h) == {"ann": 3, "bob": 3, "cid": 3}
        await h.send(Leave(h.cid(), "bob"))
        assert "bob" not in destellos(h)
        await h.send(SitDown(h.cid(), "bob", "Bob", 400, post_big_blind=True))
        assert destellos(h)["bob"] == 0
        await h.next_hand()
        shown = data_of(h.events(), CarrouselShown)[-1]
        by_seat = dict(shown.destellos)
        assert by_seat[h.table.seat_of("bob").seat] == 1
        assert by_seat[h.table.seat_of("ann").seat] == 3

    run(body)


def test_carrousel_uniform_and_journaled() -> None:
    """R-NAIKO-2: each hand's carrousel is one of the three allowed sets, drawn uniformly
    with the table's injected rng (chi-square, 2 degrees of freedom, p = 0.001), shown to
    all at the start of the hand and journaled with it."""

    async def body() -> None:
        h = await Harness.create(rules="naiko", seed=11)
        await h.sit("ann")
        await h.sit("bob")
        hands = 360
        for _ in range(hands):
            await h.next_hand()
            who = h.to_act()
            assert who is not None
            await h.act(who, "fold")
        allowed = {tuple(p.value for p in c): i for i, c in enumerate(CARROUSELS)}
        shown = data_of(h.spectator.drain(), CarrouselShown)
        assert len(shown) == hands
        counts = Counter(allowed[s.powers] for s in shown)
        expected = hands / 3
        chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(3))
        assert chi2 < 13.82, counts
        starts = [r for r in h.journal.records(h.table.id) if isinstance(r, HandStartRecord)]
        assert [r.carrousel for r in starts] == [allowed[s.powers] for s in shown]

    run(body)


async def second_hand(h: Harness) -> None:
    """Play a first hand (everyone earns a Destello) and deal the second: 2 each."""
    await h.next_hand()
    await fold_around(h)
    await h.next_hand()
    assert set(live(h)) == {2}
    h.events()


@pytest.mark.parametrize("answered_after", [None, 3.0])
def test_ancre_window_pauses_the_clock_and_expiry_applies_it_free(
    answered_after: float | None,
) -> None:
    """R-NAIKO-7, R-NAIKO-8: the Ancre opens an 8 s window on the table clock; the actor's
    clock is paused (the deadline moves by the window's duration); expiry or a pass applies
    the Ancre at no cost to the target, who is then pot-limited for the round."""

    async def body() -> None:
        h = await naiko(carrousel=with_powers(A, S))
        await second_hand(h)
        t = h.table
        assert t.hand is not None and t.deadline is not None
        actor, target = t.hand.actor, 0
        deadline = t.deadline
        start = h.clock.now()
        await h.clock.advance(5)
        r = await power(h, player(h, actor), A, target_seat=seat_of(h, target))
        assert r.accepted, r
        events = h.events()
        window = data_of(events, AncreWindowOpened)
        assert len(window) == 1 and window[0].closes_at == start + 5 + RESPONSE_WINDOW_SECONDS
        assert window[0].target_player_id == player(h, target) and window[0].remaining == 15
        assert t.deadline is None and t.snapshot(None).window_closes_at == window[0].closes_at
        assert [p.target for p in data_of(events, PowerUsed)] == [target]
        if answered_after is None:
            await h.clock.advance(RESPONSE_WINDOW_SECONDS - 0.01)
            assert not data_of(h.events(), PowerResolved)  # still open
            await h.clock.advance(0.01)
            paused = RESPONSE_WINDOW_SECONDS
        else:
            await h.clock.advance(answered_after)
            assert (await h.send(RespondAncre(h.cid(), player(h, target), block=False))).accepted
            paused = answered_after
        events = h.events()
        resolved = data_of(events, PowerResolved)
        assert [(r.caster, r.target, r.blocked) for r in resolved] == [(actor, target, False)]
        assert t.deadline == pytest.approx(deadline + paused)
        turns = data_of(events, Turn)
        assert turns and turns[-1].deadline == t.deadline and turns[-1].position == actor
        assert live(h)[target] == 2 and live(h)[actor] == 0  # passing costs nothing
        # the target is pot-limited this round: pot 5, call 1 → raise to at most 2 + 6
        await h.act(player(h, actor), "call")
        assert t.hand.actor == target
        legal = legal_actions(t.hand)
        assert legal is not None and legal.max_raise == 8 and legal.min_raise == 4

    run(body)


def test_window_outlasting_the_deadline_does_not_time_out() -> None:
    """R-NAIKO-8, R-TIME-1: while the window is open the actor's clock cannot run out; it
    resumes with the time that was left and then times out normally."""

    async def body() -> None:
        h = await naiko(carrousel=with_powers(A, S))
        await second_hand(h)
        t = h.table
        assert t.hand is not None and t.deadline is not None
        actor, deadline = t.hand.actor, t.deadline
        await h.clock.advance(deadline - h.clock.now() - 2)
        assert (await power(h, player(h, actor), A, target_seat=seat_of(h, 1))).accepted
        await h.clock.advance(RESPONSE_WINDOW_SECONDS - 1)  # past the old deadline
        assert not data_of(h.events(), TimedOut)
        await h.clock.advance(1)
        assert t.deadline == pytest.approx(deadline + RESPONSE_WINDOW_SECONDS)
        await h.clock.advance(2)
        outs = data_of(h.events(), TimedOut)
        assert [(o.seat, o.action) for o in outs] == [(seat_of(h, actor), "fold")]

    run(body)


@pytest.mark.parametrize("how", ["respond", "use_power"])
def test_sceau_blocks_out_of_turn(how: str) -> None:
    """R-NAIKO-8: the target blocks with Sceau Protecteur though it is not their turn: the
    target pays 1, the caster keeps paying 2, and the Ancre does not apply."""

    async def body() -> None:
        h = await naiko(carrousel=with_powers(A, S))
        await second_hand(h)
        t = h.table
        assert t.hand is not None
        actor, target = t.hand.actor, 1
        assert (await power(h, player(h, actor), A, target_seat=seat_of(h, target))).accepted
        assert t.hand.actor != target
        h.events()
        if how == "respond":
            r = await h.send(RespondAncre(h.cid(), player(h, target), block=True))
        else:
            r = await power(h, player(h, target), S)
        assert r.accepted, r
        events = h.events()
        assert [r.blocked for r in data_of(events, PowerResolved)] == [True]
        assert [(u.player, u.power.value, u.cost) for u in data_of(events, PowerUsed)] == [
            (target, S, 1)
        ]
        assert live(h)[target] == 1 and live(h)[actor] == 0
        assert t.naiko is not None and t.naiko.closes_at is None
        await h.act(player(h, actor), "call")
        await h.act(player(h, 0), "call")
        legal = legal_actions(t.hand)
        assert legal is not None and legal.player == target and legal.max_raise == 400
        # the window's timer was cancelled: nothing happens 8 s later
        before = t.deadline
        await h.clock.advance(RESPONSE_WINDOW_SECONDS)
        assert not data_of(h.events(), PowerResolved) and t.deadline == before

    run(body)


def test_refusals_leave_the_table_unchanged() -> None:
    """R-NAIKO-3..8, R-BET-8: bad power commands are refused with the engine's code (or a
    table code for bad input) and change nothing: state, clock, journal, events."""

    async def body() -> None:
        h = await naiko(carrousel=with_powers(C, A, S))  # no Échange de Manche
        await h.next_hand()
        t = h.table
        assert t.hand is not None
        actor = player(h, t.hand.actor)
        other = player(h, 0)
        cases: list[tuple[Any, str]] = [
            (UsePower("x", other, C), "wrong_moment"),
            (UsePower("x", actor, A, target_seat=seat_of(h, 0)), "not_enough_destellos"),
            (UsePower("x", actor, E, card="As"), "not_in_carrousel"),
            (UsePower("x", actor, "fireball"), "unknown_power"),
            (UsePower("x", actor, S), "wrong_moment"),
            (UsePower("x", actor, C, card="zz"), "invalid_card"),
            (RespondAncre("x", other, block=False), "wrong_moment"),
            (UsePower("x", "zed", C), "not_seated"),
        ]
        for i, (cmd, code) in enumerate(cases):
            before = state_of(h)
            r = await h.send(replace(cmd, command_id=f"r{i}"))
            assert (r.accepted, r.code) == (False, code), (cmd, r)
            assert r.message
            assert state_of(h) == before
        await fold_around(h)
        await h.next_hand()
        actor_pos = t.hand.actor
        actor = player(h, actor_pos)
        for i, (target, code) in enumerate(
            [
                (seat_of(h, actor_pos), "invalid_target"),
                (9, "invalid_target"),
                ("x", "invalid_target"),
            ]
        ):
            before = state_of(h)
            r = await h.send(UsePower(f"t{i}", actor, A, target_seat=target))
            assert (r.accepted, r.code) == (False, code)
            assert state_of(h) == before
        assert (await power(h, actor, A, target_seat=seat_of(h, 0))).accepted
        third = player(h, 1)
        for cmd, code in [
            (Act("p1", actor, "call"), "response_pending"),
            (UsePower("p2", third, C), "response_pending"),
            (RespondAncre("p3", third, block=True), "wrong_moment"),  # not the target
        ]:
            before = state_of(h)
            r = await h.send(cmd)
            assert (r.accepted, r.code) == (False, code), r
            assert state_of(h) == before
        assert (await h.send(Act("p9", actor, "call"))).code == "response_pending"

    run(body)


def test_already_used_and_table_quota() -> None:
    """R-NAIKO-3: each power once per player per hand; at most 3 normal activations per
    betting round at the table."""

    async def body() -> None:
        h = await naiko(players=("ann", "bob", "cid", "dan"), carrousel=with_powers(C))
        await h.next_hand()
        t = h.table
        assert t.hand is not None
        for _ in range(3):
            who = h.to_act()
            assert who is not None
            assert (await power(h, who, C)).accepted
            await h.act(who, "call")
        who = h.to_act()
        assert who is not None
        before = state_of(h)
        assert (await power(h, who, C)).code == "table_quota"
        assert state_of(h) == before
        await h.act(who, "check")
        # the flop: a new round, but the first three have used their Coup d'Œil
        first = h.to_act()
        assert first is not None and t.hand.street == 1
        used = {p for p in range(4) if C in (t.naiko.status().used[p] if t.naiko else ())}  # type: ignore[union-attr]
        pos = h.record.players.index(first)
        expected = "already_used" if pos in used else "ok"
        assert (await power(h, first, C)).code == expected

    run(body)


def test_power_commands_are_idempotent() -> None:
    """R-NAIKO-4: a repeated command id gets the same answer and is applied once."""

    async def body() -> None:
        h = await naiko(carrousel=with_powers(C))
        await h.next_hand()
        actor = h.to_act()
        assert actor is not None
        pos = h.record.players.index(actor)
        cmd = UsePower("same", actor, C)
        first = await h.send(cmd)
        again = await h.send(cmd)
        assert first.accepted and first == again
        assert live(h)[pos] == 0
        assert len(data_of(h.events(), PowerUsed)) == 1

    run(body)


def test_coup_d_oeil_reaches_only_its_user() -> None:
    """R-NAIKO-5, R-FAIR-1: the peeked card goes to its user only (every other player and
    spectators get it redacted); it is the first flop card (after the burn)."""

    async def body() -> None:
        h = await naiko(carrousel=with_powers(C))
        streams = {p: h.actor.subscribe(p) for p in ("ann", "bob", "cid")}
        await h.next_hand()
        t = h.table
        assert t.hand is not None
        actor = h.to_act()
        assert actor is not None
        upcoming = t.hand.next_cards(2)[-1]
        assert (await power(h, actor, C)).accepted
        for who, stream in [*streams.items(), (None, h.spectator)]:
            got = stream.drain()
            shown: set[Card] = set()
            for e in got:
                check_event(e, who, shown)
            peeks = data_of(got, Peeked)
            assert len(peeks) == 1
            assert peeks[0].card == (upcoming if who == actor else None)
        await fold_around(h)

    run(body)


def test_echange_de_manche_at_the_table() -> None:
    """R-NAIKO-6: pre-flop, on your turn: one hole card out, the next card in, unseen by
    others; the actor's turn is refreshed with the new card and the same deadline."""

    async def body() -> None:
        h = await naiko(carrousel=with_powers(E))
        streams = {p: h.actor.subscribe(p) for p in ("ann", "bob", "cid")}
        await second_hand(h)
        for s in streams.values():
            s.drain()
        t = h.table
        assert t.hand is not None
        actor = h.to_act()
        assert actor is not None
        pos = h.record.players.index(actor)
        old = t.hand.hole_cards[pos]
        deadline = t.deadline
        r = await power(h, actor, E, card=format_cards(old[:1]))
        assert r.accepted, r
        new = t.hand.hole_cards[pos]
        assert old[0] not in new and old[1] in new and live(h)[pos] == 0
        for who, stream in streams.items():
            got = stream.drain()
            drew = data_of(got, Drew)
            assert len(drew) == 1
            assert drew[0].received == ((new[0],) if who == actor else (None,))
            turns = data_of(got, Turn)
            assert len(turns) == 1 and turns[0].deadline == deadline
            if who == actor:
                assert turns[0].view is not None and turns[0].view.players[pos].cards == new
            else:
                assert turns[0].view is None

    run(body)


def test_powers_refused_at_other_tables() -> None:
    """R-NAIKO-4, SPEC §9: powers exist only at Naiko tables; elsewhere refused with a code."""

    async def body() -> None:
        h = await Harness.create(rules="room")
        await h.sit("ann")
        await h.sit("bob")
        await h.next_hand()
        who = h.to_act()
        assert who is not None
        assert (await power(h, who, C)).code == "not_naiko"
        assert (await h.send(RespondAncre(h.cid(), who))).code == "not_naiko"

    run(body)


def test_settlement_writes_destellos_back_and_void_restores_them() -> None:
    """R-NAIKO-1, R-CRASH-1: spent Destellos are gone after the hand; a voided hand (crash)
    leaves every seat's Destellos as before it, like its chips."""

    async def body() -> None:
        h = await naiko(carrousel=with_powers(C))
        await second_hand(h)
        actor = h.to_act()
        assert actor is not None
        assert (await power(h, actor, C)).accepted
        await fold_around(h)
        assert data_of(h.events(), HandSettled)
        d = destellos(h)
        assert d[actor] == 1 and all(v == 2 for k, v in d.items() if k != actor)
        await h.next_hand()
        actor = h.to_act()
        assert actor is not None
        assert (await power(h, actor, C)).accepted
        await h.restart()
        assert destellos(h) == d

    run(body)


def test_time_bank_running_through_a_window() -> None:
    """R-NAIKO-8, R-TIME-1: a time bank running when the window opens is paused with the
    clock: after the window the deadline is the extended one plus the pause."""

    async def body() -> None:
        h = await naiko(carrousel=with_powers(A, S), rule_overrides={"time_bank_seconds": 30})
        await second_hand(h)
        t = h.table
        assert t.hand is not None and t.deadline is not None
        actor = player(h, t.hand.actor)
        base = t.deadline
        assert (await h.send(UseTimeBank(h.cid(), actor))).accepted
        assert t.deadline == base + 30
        await h.clock.advance(4)
        assert (await power(h, actor, A, target_seat=seat_of(h, 0))).accepted
        await h.clock.advance(RESPONSE_WINDOW_SECONDS)
        assert t.deadline == pytest.approx(base + 30 + RESPONSE_WINDOW_SECONDS)
        # acting 6 s past the base deadline (pause excluded) spends 6 s of the bank
        await h.clock.advance(base + RESPONSE_WINDOW_SECONDS + 6 - h.clock.now())
        await h.act(actor, "call")
        assert t.seat_of(actor).time_bank == pytest.approx(24)

    run(body)
