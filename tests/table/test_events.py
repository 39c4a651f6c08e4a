"""Versioned events, bounded history, resync snapshots and per-audience redaction
(R-FAIR-1, R-TIME-3, R-POT-4)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Awaitable, Callable
from typing import Any

from croupier.engine.events import CardsShown, HoleDealt
from croupier.table import TableSnapshot
from croupier.table.events import Turn
from croupier.table.testing import Harness, check_event, check_snapshot, data_of


def run(fn: Callable[[], Awaitable[Any]]) -> Any:
    return asyncio.run(fn())  # type: ignore[arg-type]


def test_versions_are_monotonic_and_complete() -> None:
    """Every change is one event; versions increase by one for every subscriber."""

    async def body() -> None:
        h = await Harness.create()
        ann = h.actor.subscribe("ann")
        await h.sit("ann")
        await h.sit("bob")
        for _ in range(3):
            await h.next_hand()
            await h.finish_hand()
        spec = [e.version for e in h.events()]
        assert spec == list(range(spec[0], spec[0] + len(spec)))
        mine = [e.version for e in ann.drain()]
        assert mine == spec  # nothing is private in these hands but the turn views
        assert h.table.version == spec[-1]

    run(body)


def test_catch_up_after_version_or_snapshot_when_too_old() -> None:
    """A subscriber gets the events after version v, or a full snapshot if v is older than
    the bounded history or from another epoch (R-TIME-3)."""

    async def body() -> None:
        h = await Harness.create(history=16)
        await h.sit("ann")
        await h.sit("bob")
        await h.next_hand()
        v = h.table.version
        await h.finish_hand()
        await h.next_hand()
        newer = h.table.catch_up("ann", h.table.version - 3)
        assert isinstance(newer, list) and [e.version for e in newer] == [
            h.table.version - 2,
            h.table.version - 1,
            h.table.version,
        ]
        old = h.table.catch_up("ann", v - 20)
        assert isinstance(old, TableSnapshot) and old.version == h.table.version
        assert isinstance(h.table.catch_up("ann", h.table.version, epoch=5), TableSnapshot)
        stream = h.actor.subscribe("bob", since=h.table.version - 1)
        assert isinstance(stream.initial, list) and len(stream.initial) == 1

    run(body)


def test_catch_up_replays_what_was_delivered_and_keeps_no_live_objects() -> None:
    """R-TIME-3: a reconnecting player's catch-up from the kept history is exactly what a
    connected one was sent (its own cards, the current turn with its legal actions, earlier
    turns without them); the history and the kept answers hold no object the garbage
    collector has to scan (docs/benchmarks.md, "Paced collections")."""

    async def body() -> None:
        h = await Harness.create(history=64)
        ann = h.actor.subscribe("ann")
        await h.sit("ann")
        await h.sit("bob")
        await h.next_hand()
        start = h.table.version
        ann.drain()
        # play until ann is to act again, a few streets in: her latest turn has its view
        while (who := h.to_act()) is not None and (h.table.version - start < 8 or who != "ann"):
            assert (await h.act(who, "call")).accepted or (await h.act(who, "check")).accepted
        assert h.to_act() == "ann"
        live = ann.drain()
        caught = h.table.catch_up("ann", start)
        assert isinstance(caught, list)
        latest_turn = max(e.version for e in live if isinstance(e.data, Turn))
        assert next(e for e in caught if e.version == latest_turn).data.view is not None
        for sent, again in zip(live, caught, strict=True):
            if isinstance(sent.data, Turn) and sent.version != latest_turn:
                # an older turn is kept without its view: nobody can answer it any more
                assert isinstance(again.data, Turn) and again.data.view is None
                assert again.data.player_id == sent.data.player_id
            else:
                assert again == sent
        assert [e.version for e in h.table.history] == list(
            range(h.table.version - len(h.table.history) + 1, h.table.version + 1)
        )
        gc.collect()
        kept = h.table.log._kept
        assert len(kept) == len(h.table.history) and not any(map(gc.is_tracked, kept))
        answers = list(h.table._answers.values())
        assert answers and not any(gc.is_tracked(a) for a in answers if a[-1] is None)

    run(body)


def test_each_audience_sees_only_its_cards() -> None:
    """R-FAIR-1, R-BOT-1: a seat sees its own hole cards only; a spectator none until shown;
    the turn view (legal actions) goes to the player to act only."""

    async def body() -> None:
        h = await Harness.create(rules="naiko")  # naiko shows every unfolded hand
        streams = {p: h.actor.subscribe(p) for p in ("ann", "bob", "cid")}
        streams[None] = h.spectator  # type: ignore[index]
        for p in ("ann", "bob", "cid"):
            await h.sit(p)
        await h.next_hand()
        rec = h.table.hand_record
        assert rec is not None
        await h.finish_hand()
        for audience, stream in streams.items():
            shown: set[Any] = set()
            events = stream.drain()
            for e in events:
                check_event(e, audience, shown)
            deals = [e for e in events if isinstance(e.data, HoleDealt)]
            assert len(deals) == 3
            for d in data_of(events, HoleDealt):
                mine = rec.players[d.player] == audience
                assert all((c is not None) == mine for c in d.cards)
            assert data_of(events, CardsShown)
            views = [t for t in data_of(events, Turn) if t.view is not None]
            assert all(t.player_id == audience for t in views)
            if audience is None:
                assert not views

    run(body)


def test_snapshots_are_redacted() -> None:
    """R-FAIR-1: a snapshot shows a player's own cards, a spectator none."""

    async def body() -> None:
        h = await Harness.create()
        await h.sit("ann")
        await h.sit("bob")
        await h.next_hand()
        rec = h.table.hand_record
        assert rec is not None
        for who in ("ann", "bob", None, "stranger"):
            snap = h.table.snapshot(who)
            check_snapshot(snap, who, rec.players)
            assert snap.hand is not None
            for pos, p in enumerate(snap.hand.players):
                assert all((c is not None) == (rec.players[pos] == who) for c in p.cards)

    run(body)
