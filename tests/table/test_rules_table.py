"""Seed rules at the live table (issue #12), on the FakeClock: the Naiko Ancre window only
when the target can answer, the power offers sent with each turn, a resync keeping its own
Coup d'Œil peek, and the arcade disconnection fold when a check is free."""

from __future__ import annotations

from dataclasses import replace

from tests.table.test_naiko_table import (
    A,
    C,
    E,
    S,
    fold_around,
    live,
    naiko,
    player,
    power,
    run,
    seat_of,
    second_hand,
    with_powers,
)

from croupier.engine.naiko import PowerResolved
from croupier.table import Disconnect, SitIn
from croupier.table.events import AncreWindowOpened, SeatChanged, TimedOut, Turn
from croupier.table.grace import GRACE_SECONDS
from croupier.table.testing import Harness, data_of


def test_ancre_without_an_answer_applies_at_once_and_play_goes_on() -> None:
    """R-NAIKO-8 (Decision): no Sceau in the carrousel: the Ancre applies at once (no
    window, the clock keeps running with the same deadline, the target is pot-limited)."""

    async def body() -> None:
        h = await naiko(carrousel=with_powers(C, E, A))  # no Sceau Protecteur
        await second_hand(h)
        t = h.table
        assert t.hand is not None and t.deadline is not None
        actor, deadline = t.hand.actor, t.deadline
        r = await power(h, player(h, actor), A, target_seat=seat_of(h, 0))
        assert r.accepted, r
        events = h.events()
        assert not data_of(events, AncreWindowOpened)
        assert [(x.target, x.blocked) for x in data_of(events, PowerResolved)] == [(0, False)]
        assert t.naiko is not None and not t.naiko.window_open and t.deadline == deadline
        turns = data_of(events, Turn)
        assert turns and turns[-1].position == actor and turns[-1].deadline == deadline
        assert t.hand._pot_limited[0]

    run(body)


def test_ancre_on_a_target_whose_sceau_is_spent_applies_at_once() -> None:
    """R-NAIKO-8: the Sceau is in the carrousel but the target cannot afford it (0
    Destellos): no window either."""

    async def body() -> None:
        h = await naiko(carrousel=with_powers(A, S))
        await second_hand(h)
        t = h.table
        desk = t.naiko
        assert desk is not None and desk.hand is not None and t.hand is not None
        desk.hand = replace(desk.hand, destellos=(0, *desk.hand.destellos[1:]))
        actor = t.hand.actor
        assert (await power(h, player(h, actor), A, target_seat=seat_of(h, 0))).accepted
        events = h.events()
        assert not data_of(events, AncreWindowOpened) and data_of(events, PowerResolved)

    run(body)


def test_turn_offers_follow_the_server_rules() -> None:
    """R-NAIKO-4..8: the actor's turn lists each carrousel power with its cost, usable or
    why not, and the Ancre's target seats; after the actor's first action Échange is
    offered no more (reason ``preflop``); others' copies of the turn carry no offers."""

    async def body() -> None:
        h = await naiko(carrousel=with_powers(E, A, S))
        streams = {p: h.actor.subscribe(p) for p in ("ann", "bob", "cid")}
        await second_hand(h)
        t = h.table
        assert t.hand is not None
        actor = t.hand.actor
        h.events()
        snap = t.snapshot(player(h, actor))
        offers = {o.power: o for o in (snap.powers or ())}
        assert set(offers) == {E, A, S}
        assert offers[E].usable and offers[E].cost == 2
        assert offers[A].usable and set(offers[A].target_seats) == {
            seat_of(h, p) for p in range(3) if p != actor
        }
        assert not offers[S].usable and offers[S].reason == "no_ancre"
        assert t.snapshot(player(h, (actor + 1) % 3)).powers is None
        assert t.snapshot(player(h, actor)).peeks == ()
        # a copy of the turn for someone else has no offers
        for who, stream in streams.items():
            for e in stream.drain():
                if isinstance(e.data, Turn) and e.data.player_id != who:
                    assert e.data.powers is None and e.data.view is None
        # the actor calls, the small blind raises, the big blind calls: back to the actor,
        # whose Échange is over (it is offered before the first action only)
        await h.act(player(h, actor), "call")
        assert (await h.act(player(h, t.hand.actor), "raise", 6)).accepted
        assert (await h.act(player(h, t.hand.actor), "call")).accepted
        assert t.hand.actor == actor and t.hand.street == 0
        mine = streams[player(h, actor)].drain()
        turns = [e for e in data_of(mine, Turn) if e.position == actor]
        assert turns and turns[-1].powers is not None
        again = {o.power: o for o in turns[-1].powers}
        assert not again[E].usable and again[E].reason == "preflop"
        assert again[A].usable or again[A].reason

    run(body)


def test_a_resync_keeps_the_own_peek_of_the_street() -> None:
    """R-NAIKO-5: after a Coup d'Œil, a snapshot for the user (a page that resyncs) holds
    the peeked card; nobody else's snapshot does; it goes with the street."""

    async def body() -> None:
        h = await naiko(carrousel=with_powers(C))
        await h.next_hand()
        t = h.table
        assert t.hand is not None
        who = h.to_act()
        assert who is not None
        upcoming = t.hand.next_cards(2)[-1]
        assert (await power(h, who, C)).accepted
        assert t.snapshot(who).peeks == (upcoming,)
        assert all(t.snapshot(p).peeks == () for p in ("ann", "bob", "cid") if p != who)
        assert t.snapshot(None).peeks == ()
        assert live(h)

    run(body)


def test_arcade_disconnected_player_is_folded_when_a_check_is_free() -> None:
    """R-TIME-2 (arcade ``fold``): checked to, a disconnected big blind is folded (not
    checked) once the 10 s reconnection grace is over; the timed-out notice says ``fold``."""

    async def body() -> None:
        h = await Harness.create(rules="arcade")
        for p in ("ann", "bob"):
            assert (await h.sit(p)).accepted
        await h.next_hand()
        t = h.table
        assert t.hand is not None and t.plan is not None
        bb = player(h, 0)  # heads-up: position 0 is the big blind
        sb = player(h, 1)
        bb_seat = t.plan.seats[0]
        assert (await h.send(Disconnect(h.cid(), bb))).accepted
        assert (await h.act(sb, "call")).accepted
        assert not data_of(h.events(), TimedOut)  # the reconnection grace: the seat waits
        await h.clock.advance(GRACE_SECONDS)
        events = h.events()
        outs = data_of(events, TimedOut)
        assert [(o.seat, o.action) for o in outs] == [(bb_seat, "fold")]
        assert t.last_hand is not None and t.last_hand.folded[0]

    run(body)


def test_a_waiting_player_may_post_now() -> None:
    """R-SEAT-3: a new player waiting for the big blind sends SitIn(post_blinds) and is
    dealt in at the next hand with a big blind; a missed blind is announced."""

    async def body() -> None:
        h = await Harness.create()
        for p in ("ann", "bob"):
            await h.sit(p)
        await h.next_hand()
        assert (await h.sit("cid")).accepted
        assert (await h.send(SitIn(h.cid(), "cid", post_blinds=True))).accepted
        changed = [e for e in data_of(h.events(), SeatChanged) if e.reason == "post_now"]
        assert changed and changed[0].seat.post_now
        await fold_around(h)
        await h.next_hand()
        assert "cid" in h.record.players

    run(body)
