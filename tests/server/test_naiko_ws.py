"""Naiko mode over the WebSocket protocol (SPEC §9): two accounts seated at a Naiko table
with bots use every power through ``use_power`` / ``respond_ancre`` against a real
uvicorn server, while a third account watches. Every frame to every connection is
checked afterwards: a Coup d'Œil's card and an Échange de Manche's cards reach only their
owner.

The deal, the carrousel and the bots are random, so the two players are driven by rules
(see :class:`Driver`): on their turn they first send the refusals whose preconditions the
public Naiko status shows to hold (each must come back with its exact code and change
nothing), then use a power that a goal still needs, then check, call a small bet or fold.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live import ORIGIN, Client, fast_settings, register_and_login, running
from tests.server.test_leaks import check_frame

BUDGET_SECONDS = 150.0
"""The whole run's limit (a failure names the goals not reached); typically 20–40 s."""
RANKS = "23456789TJQKA"
DECK = [r + s for r in RANKS for s in "cdhs"]

REFUSALS = {
    "unknown_power",
    "not_in_carrousel",
    "not_enough_destellos",
    "invalid_card",
    "invalid_target",
    "not_your_cards",
    "already_used",
    "wrong_moment_out_of_turn",
    "wrong_moment_no_window",
    "wrong_moment_not_target",
    "response_pending",
}
GOALS = {"peek_verified", "echange", "ancre_blocked", "ancre_expired"}
NAIKO_EVENTS = {"power_used", "peeked", "drew", "ancre_window", "power_resolved", "turn"}
"""What an accepted power publishes (a refusal publishes none of them)."""


@dataclass
class Human:
    name: str
    client: Client
    pid: str
    acks: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    # the hand in progress, as this player saw it
    hand_no: int = -1
    players: list[str] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    cards: list[str | None] = field(default_factory=list)
    acted: bool = False
    folded: bool = False
    swapped: tuple[str, str] | None = None  # an Échange's (discarded, received)
    seen: list[dict[str, Any]] = field(default_factory=list)  # every frame, in order

    @property
    def pos(self) -> int:
        return self.players.index(self.pid) if self.pid in self.players else -1

    async def command(self, message: dict[str, Any], table_id: str) -> dict[str, Any]:
        cid = f"{self.name}{next(self.ids)}"
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.acks[cid] = fut
        await self.client.send({**message, "id": cid, "table_id": table_id})
        return await asyncio.wait_for(fut, 10.0)


@dataclass
class Pending:
    """An Ancre cast by one of the players: what the driver expects of its window."""

    caster: Human
    target: Human
    expect: str  # "block", "expire" or "pass"
    before: dict[str, Any]
    answered: bool = False


class Driver:
    """Plays the two accounts (see the module docstring) and records what it verified."""

    def __init__(self, table_id: str, alice: Human, bob: Human) -> None:
        self.table_id = table_id
        self.humans = [alice, bob]
        self.naiko: dict[str, Any] | None = None  # the last public status (from a turn)
        self.refused: dict[str, dict[str, Any]] = {}
        self.done: dict[str, Any] = {}
        self.pending: Pending | None = None
        self.after_resolution: Pending | None = None
        self.peek: tuple[Human, int, str] | None = None  # (who, hand, card) awaiting a board
        self.peek_spoiled = False  # an Échange after the peek changed the deck
        self.windows: list[dict[str, Any]] = []

    def other(self, h: Human) -> Human:
        return self.humans[1] if h is self.humans[0] else self.humans[0]

    # -- checks ---------------------------------------------------------------------------

    async def refuse(
        self, h: Human, key: str, code: str, msg: dict[str, Any], version: int
    ) -> None:
        """Send ``msg``; it must be refused with ``code`` and publish nothing (R-NAIKO-4):
        no power event nor a new turn after ``version`` (what the decision was based on)
        reaches ``h`` before the ack (the table publishes a command's events first)."""
        mark = len(h.seen)
        ack = await h.command(msg, self.table_id)
        assert not ack["accepted"], (key, msg, ack)
        assert ack["code"] == code, (key, msg, ack)
        published = [
            f
            for f in h.seen[mark:]
            if f["type"] == "event"
            and f["version"] > version
            and f["event"]["type"] in NAIKO_EVENTS
        ]
        assert published == [], ("a refusal published something", key, published)
        self.refused[key] = ack

    # -- events ---------------------------------------------------------------------------

    async def on_frame(self, h: Human, frame: dict[str, Any]) -> None:
        if frame.get("type") != "event":
            return
        ev = frame["event"]
        kind = ev["type"]
        if kind == "hand_began":
            h.hand_no, h.players, h.seats = ev["hand_no"], ev["players"], ev["seats"]
            h.cards, h.acted, h.folded, h.swapped = [], False, False, None
        elif kind == "hole_dealt" and ev["player"] == h.pos:
            h.cards = list(ev["cards"])
        elif kind == "acted" and ev["player"] == h.pos and ev["action"] == "fold":
            h.folded = True
        elif kind == "drew" and ev["player"] == h.pos:
            (old,), (new,) = ev["discarded"], ev["received"]
            assert self.done.get("echange") == (h.name, old), (self.done, frame)
            assert new is not None and new != old and new not in h.cards, frame
            h.cards = [new if c == old else c for c in h.cards]
            h.swapped = (old, new)
        elif kind == "peeked" and ev["player"] == h.pos:
            assert ev["card"] is not None, frame
            self.peek, self.peek_spoiled = (h, frame["hand_no"], ev["card"]), False
        elif kind == "power_used" and h is self.humans[0]:
            if ev["power"] == "echange_de_manche" and self.peek is not None:
                self.peek_spoiled = True
        elif kind == "board_dealt" and h is self.humans[0]:
            self.check_peek(frame)
        elif kind == "hand_settled" and h is self.humans[0]:
            self.peek, self.peek_spoiled = None, False
        elif kind == "turn":
            if ev.get("naiko") is not None:
                self.naiko = ev["naiko"]
                if self.after_resolution is not None and h is self.humans[0]:
                    self.check_costs(self.after_resolution, ev["naiko"])
                    self.after_resolution = None
            if ev["player_id"] == h.pid and ev.get("view") is not None:
                await self.my_turn(h, frame)
        elif kind == "ancre_window":
            if h is self.humans[0]:
                self.windows.append(frame)
            if ev["target_player_id"] == h.pid:
                await self.targeted(h, frame)
        elif kind == "power_resolved" and h is self.humans[0]:
            self.resolved(ev)

    def check_peek(self, frame: dict[str, Any]) -> None:
        """R-NAIKO-5: the peeked card is the next card to come (unless an Échange took it)."""
        if self.peek is None or frame["hand_no"] != self.peek[1]:
            return
        who, _, card = self.peek
        self.peek = None
        if not self.peek_spoiled:
            assert frame["event"]["cards"][0] == card, (card, frame)
            self.done["peek_verified"] = who.name

    def check_costs(self, p: Pending, after: dict[str, Any]) -> None:
        """R-NAIKO-7/8: the caster paid 2; the target 1 if they blocked, else nothing."""
        before = p.before["destellos"]
        cpos, tpos = p.caster.pos, p.target.pos
        assert after["destellos"][cpos] == before[cpos] - 2, (before, after)
        paid = 1 if p.expect == "block" else 0
        assert after["destellos"][tpos] == before[tpos] - paid, (p.expect, before, after)
        others = [q for q in range(len(before)) if q not in (cpos, tpos)]
        assert all(after["destellos"][q] == before[q] for q in others), (before, after)

    def resolved(self, ev: dict[str, Any]) -> None:
        p = self.pending
        if p is None or ev["caster"] != p.caster.pos or ev["target"] != p.target.pos:
            return  # a bot's Ancre
        self.pending = None
        assert ev["blocked"] is (p.expect == "block"), (p.expect, ev)
        if p.expect == "expire":
            assert not p.answered
            self.done["ancre_expired"] = p.target.name
        elif p.expect == "block":
            self.done["ancre_blocked"] = p.target.name
        self.after_resolution = p

    # -- decisions ------------------------------------------------------------------------

    async def targeted(self, h: Human, frame: dict[str, Any]) -> None:
        """``h`` is the target of an Ancre: block it, let it expire or pass, as planned."""
        ev = frame["event"]
        assert 0 < ev["closes_at"] - frame["now"] <= 8.0, frame  # R-NAIKO-8: an 8 s window
        p = self.pending
        ours = p is not None and p.target is h and ev["caster_seat"] == h.seats[p.caster.pos]
        caster = self.other(h)
        if ours and "wrong_moment_not_target" not in self.refused:
            # only the target answers (R-NAIKO-8); the caster cannot act meanwhile
            await self.refuse(
                caster,
                "wrong_moment_not_target",
                "wrong_moment",
                {"type": "respond_ancre", "block": False},
                frame["version"],
            )
        if ours and "response_pending" not in self.refused:
            await self.refuse(
                caster,
                "response_pending",
                "response_pending",
                {"type": "act", "action": "fold"},
                frame["version"],
            )
        if ours and p is not None and p.expect == "expire":
            return  # say nothing: the window runs out and the Ancre applies
        if ours and p is not None and p.expect == "block":
            ack = await h.command({"type": "respond_ancre", "block": True}, self.table_id)
        else:
            ack = await h.command({"type": "respond_ancre", "block": False}, self.table_id)
        assert ack["accepted"], ack
        if p is not None and ours:
            p.answered = True

    async def out_of_turn(self, h: Human, frame: dict[str, Any]) -> None:
        """While ``h`` is to act (the table waits for this driver), the other account
        tries a power and an answer it may not give now (R-NAIKO-3, R-NAIKO-8)."""
        o, ev = self.other(h), frame["event"]
        n, view = ev["naiko"], ev["view"]
        me = h.players.index(o.pid) if o.pid in h.players else -1
        if me < 0 or view["players"][me]["folded"] or n["window"] is not None:
            return
        if "wrong_moment_no_window" not in self.refused:
            await self.refuse(
                o,
                "wrong_moment_no_window",
                "wrong_moment",
                {"type": "respond_ancre", "block": True},
                frame["version"],
            )
        if (
            "wrong_moment_out_of_turn" not in self.refused
            and "coup_d_oeil" in n["carrousel"]
            and "coup_d_oeil" not in n["used"][me]
            and n["destellos"][me] >= 1
        ):
            await self.refuse(
                o,
                "wrong_moment_out_of_turn",
                "wrong_moment",
                {"type": "use_power", "power": "coup_d_oeil"},
                frame["version"],
            )

    async def my_turn(self, h: Human, frame: dict[str, Any]) -> None:
        ev = frame["event"]
        n, view, me, version = ev["naiko"], ev["view"], h.pos, frame["version"]
        assert n is not None and me == ev["position"]
        if h.swapped is not None:  # R-NAIKO-6: the view holds the new card, not the old
            mine = view["players"][me]["cards"]
            assert h.swapped[1] in mine and h.swapped[0] not in mine, (h.swapped, mine)
        free = ev["phase"] == "betting" and n["turn_used"] != me and n["window"] is None
        if free:
            await self.out_of_turn(h, frame)
        if free and await self.try_power(h, frame, n, view, me, version):
            return  # the table publishes the turn again (or opens the Ancre window)
        await self.act(h, ev)

    async def try_power(
        self, h: Human, frame: dict[str, Any], n: dict[str, Any], view: dict[str, Any],
        me: int, version: int,
    ) -> bool:  # fmt: skip
        carrousel, used, dest = n["carrousel"], n["used"][me], n["destellos"][me]
        street, quota = view["street"], n["activations"] < 3
        other = self.other(h)
        opp = other.pos
        cards = [c for c in h.cards if c]

        def refusal(key: str) -> bool:
            return key not in self.refused

        if refusal("unknown_power"):
            await self.refuse(h, "unknown_power", "unknown_power",
                              {"type": "use_power", "power": "fireball"}, version)  # fmt: skip
        # (Sceau Protecteur outside a window is refused ``wrong_moment`` before its
        # carrousel is looked at: the probe uses a missing normal power)
        missing = [p for p in ("coup_d_oeil", "echange_de_manche") if p not in carrousel]
        if refusal("not_in_carrousel") and missing:
            await self.refuse(h, "not_in_carrousel", "not_in_carrousel",
                              {"type": "use_power", "power": missing[0]}, version)  # fmt: skip
        if refusal("invalid_card"):
            await self.refuse(h, "invalid_card", "invalid_card",
                              {"type": "use_power", "power": "echange_de_manche", "card": "zz"},
                              version)  # fmt: skip
        ancre_ok = "ancre_courte" not in used and quota
        if refusal("not_enough_destellos") and ancre_ok and dest < 2 and opp >= 0:
            await self.refuse(h, "not_enough_destellos", "not_enough_destellos",
                              {"type": "use_power", "power": "ancre_courte",
                               "target_seat": h.seats[opp]}, version)  # fmt: skip
        if refusal("invalid_target") and ancre_ok and dest >= 2:
            await self.refuse(h, "invalid_target", "invalid_target",
                              {"type": "use_power", "power": "ancre_courte",
                               "target_seat": h.seats[me]}, version)  # fmt: skip
        again = [p for p in ("coup_d_oeil", "echange_de_manche", "ancre_courte") if p in used]
        if refusal("already_used") and again and opp >= 0 and cards:
            await self.refuse(h, "already_used", "already_used",
                              {"type": "use_power", "power": again[0], "card": cards[0],
                               "target_seat": h.seats[opp]}, version)  # fmt: skip
        echange_ok = (
            "echange_de_manche" in carrousel and "echange_de_manche" not in used
            and dest >= 2 and street == 0 and not h.acted and quota and len(cards) == 2
        )  # fmt: skip
        if echange_ok and refusal("not_your_cards"):
            foreign = next(c for c in DECK if c not in cards)
            await self.refuse(h, "not_your_cards", "not_your_cards",
                              {"type": "use_power", "power": "echange_de_manche",
                               "card": foreign}, version)  # fmt: skip
        if echange_ok and "echange" not in self.done:
            return await self.echange(h, cards)
        # Ancre Courte on the other account, if it is still to act in this round
        target = view["players"][opp] if opp >= 0 else None
        if (
            ancre_ok and dest >= 2 and target is not None and not target["folded"]
            and not target["all_in"] and opp not in n["anchored"]
        ):  # fmt: skip
            can_block = (
                "sceau_protecteur" in carrousel
                and "sceau_protecteur" not in n["used"][opp]
                and n["destellos"][opp] >= 1
            )
            expect = None
            if can_block and "ancre_blocked" not in self.done:
                expect = "block"
            elif "ancre_expired" not in self.done:
                expect = "expire"
            if expect is not None:
                pending = Pending(h, other, expect, n)
                self.pending = pending
                ack = await h.command(
                    {"type": "use_power", "power": "ancre_courte",
                     "target_seat": h.seats[opp], "version": version}, self.table_id
                )  # fmt: skip
                if ack["accepted"]:
                    return True
                self.pending = None
                # the other account already acted this round: a refusal, nothing paid
                assert ack["code"] == "invalid_target", ack
        if (
            "coup_d_oeil" in carrousel and "coup_d_oeil" not in used and dest >= 1
            and street < 3 and quota and "peek_verified" not in self.done
        ):  # fmt: skip
            ack = await h.command({"type": "use_power", "power": "coup_d_oeil"}, self.table_id)
            assert ack["accepted"], ack
            return True
        return False

    async def echange(self, h: Human, cards: list[str]) -> bool:
        """R-NAIKO-6: discard one hole card, receive the next card of the deck."""
        card = cards[0]
        ack = await h.command(
            {"type": "use_power", "power": "echange_de_manche", "card": card}, self.table_id
        )
        assert ack["accepted"], ack
        self.done["echange"] = (h.name, card)
        return True

    async def act(self, h: Human, ev: dict[str, Any]) -> None:
        legal = ev["view"]["legal"]
        if ev["phase"] == "showdown":
            msg: dict[str, Any] = {"type": "show", "show": True}
        elif legal["can_check"]:
            msg = {"type": "act", "action": "check"}
        elif legal["can_call"] and legal["call"] <= 6:
            msg = {"type": "act", "action": "call"}
        else:
            msg = {"type": "act", "action": "fold"}
        h.acted = True
        ack = await h.command(msg, self.table_id)
        assert ack["accepted"], (msg, ack)


async def _pump(h: Human, queue: asyncio.Queue[tuple[Human, dict[str, Any]]]) -> None:
    while True:
        frame = await h.client.recv(timeout=60.0)
        h.seen.append(frame)
        if frame["type"] == "ack" and frame["id"] in h.acks:
            h.acks.pop(frame["id"]).set_result(frame)
        await queue.put((h, frame))


async def _watch(client: Client) -> None:
    with contextlib.suppress(TimeoutError):
        while True:
            await client.recv(timeout=60.0)


def _peeks_and_draws(frames: list[dict[str, Any]], me: str | None) -> tuple[int, int]:
    """R-NAIKO-5/6 privacy: a ``peeked`` card and an Échange's cards (``drew``) reach only
    their owner; returns (own peeks seen, others' peeks and draws seen redacted)."""
    own = redacted = 0
    for f in frames:
        if f["type"] != "event" or f["event"]["type"] not in ("peeked", "drew"):
            continue
        ev, players = f["event"], f["players"]
        mine = me is not None and me in players and players.index(me) == ev["player"]
        if ev["type"] == "peeked":
            if mine:
                assert ev["card"] is not None, f
                own += 1
            else:
                assert ev["card"] is None, ("a peek reached another connection", me, f)
                redacted += 1
        else:
            cards = ev["discarded"] + ev["received"]
            if mine:
                assert all(c is not None for c in cards), f
            else:
                assert all(c is None for c in cards), ("an Échange leaked", me, f)
                redacted += 1
    return own, redacted


@pytest.mark.slow
def test_every_naiko_power_over_the_websocket(tmp_path: Path) -> None:
    """R-NAIKO-1..8 over the protocol: Coup d'Œil (the peek reaches only its user and is
    the next card dealt), Échange de Manche (the card replaced, privately), Ancre Courte
    blocked by Sceau Protecteur inside the window and another left to expire (costs paid as
    the rules say); refusals come back as acks with their codes (unknown power, not in
    the carrousel, not enough Destellos, bad card, bad target, not your cards, already
    used, out of turn, no Ancre to answer, not the target, response pending) and publish
    nothing; no frame to any other connection shows a peek or another player's cards."""
    # only the test's tables (no public bot tables competing for the two cores)
    settings = fast_settings(f"sqlite:///{tmp_path / 'db.sqlite3'}", default_tables=False)
    with running(settings) as srv:
        tokens = {n: register_and_login(srv.url, n) for n in ("alice", "bob", "carol")}
        ids = {}
        for name, tok in tokens.items():
            r = httpx.post(
                srv.url + "/api/exchange",
                json={"diamonds": 400, "key": f"naiko-ws-{name}-0001"},
                headers={"Authorization": f"Bearer {tok}", "Origin": ORIGIN},
            )
            assert r.status_code == 200, r.text
            ids[name] = str(r.json()["id"])

        async def scenario() -> tuple[Driver, dict[str, list[dict[str, Any]]]]:
            clients = {n: await Client.open(srv.ws_url, t) for n, t in tokens.items()}
            alice = Human("alice", clients["alice"], ids["alice"])
            bob = Human("bob", clients["bob"], ids["bob"])
            # a private Naiko table with two bots: bob sits right after alice
            made = await clients["alice"].command(
                {"type": "create_private", "profile": "naiko", "seats": 4, "bots": True}
            )
            assert made["accepted"], made
            table_id, code = made["data"]["table_id"], made["data"]["code"]
            room = await clients["alice"].command({"type": "create_private", "seats": 2})
            assert room["accepted"], room
            # protocol-level refusals: the message's fields are checked before the table
            malformed: list[dict[str, Any]] = [
                {"type": "use_power", "power": "ancre_courte", "target_seat": "3"},
                {"type": "use_power", "power": "coup_d_oeil", "card": 7},
                {"type": "respond_ancre"},
                {"type": "respond_ancre", "block": "yes"},
            ]
            for i, bad in enumerate(malformed):
                await clients["alice"].send({**bad, "table_id": table_id, "id": f"bad{i}"})
                err = await clients["alice"].expect("error", id=f"bad{i}")
                assert err["code"] == "invalid", err
            for c in clients.values():
                await c.send({"type": "subscribe", "table_id": table_id, "code": code})
                await c.expect("subscribed")
            taken = {
                s["seat"]
                for f in clients["alice"].frames
                if f["type"] == "snapshot"
                for s in f["snapshot"]["seats"]
            }
            free = [s for s in range(4) if s not in taken]
            assert len(free) >= 2, taken
            # from here on every frame goes through the driver, in order
            driver = Driver(table_id, alice, bob)
            queue: asyncio.Queue[tuple[Human, dict[str, Any]]] = asyncio.Queue()
            tasks = [asyncio.create_task(_pump(h, queue)) for h in (alice, bob)]
            tasks.append(asyncio.create_task(_watch(clients["carol"])))
            for h, seat in ((alice, free[0]), (bob, free[1])):
                ack = await h.command(
                    {"type": "sit", "buy_in": 200, "seat": seat, "code": code,
                     "post_big_blind": True}, table_id
                )  # fmt: skip
                assert ack["accepted"], ack
            not_naiko = await alice.command(
                {"type": "use_power", "power": "coup_d_oeil"}, room["data"]["table_id"]
            )
            assert (not_naiko["accepted"], not_naiko["code"]) == (False, "not_naiko")
            loop = asyncio.get_running_loop()
            end = loop.time() + BUDGET_SECONDS
            try:
                while not (driver.done.keys() >= GOALS and driver.refused.keys() >= REFUSALS):
                    try:
                        h, frame = await asyncio.wait_for(queue.get(), end - loop.time())
                    except TimeoutError:
                        missing = (GOALS - driver.done.keys()) | (REFUSALS - driver.refused.keys())
                        tables = {
                            tid: (live.actor.alive, repr(live.actor.crashed))
                            for tid, live in srv.app.state.services.registry.tables.items()
                        }
                        raise AssertionError(
                            f"not reached in time: {sorted(missing)}; tables: {tables}"
                        ) from None
                    await driver.on_frame(h, frame)
            finally:
                # close first: the readers end on the closed sockets (a cancellation alone
                # can be lost in Python 3.11's wait_for while frames keep coming)
                for c in clients.values():
                    await c.close()
                for t in tasks:
                    t.cancel()
                await asyncio.wait(tasks, timeout=10)
            return driver, {n: c.frames for n, c in clients.items()}

        # a last guard: the budget is checked between frames, this bounds everything else
        driver, frames = asyncio.run(asyncio.wait_for(scenario(), BUDGET_SECONDS + 60))

    # the refusals seen over the wire (bad fields never reach the table)
    assert all(not a["accepted"] for a in driver.refused.values())
    assert driver.windows, "Ancre windows were announced to everyone"
    # every frame to every connection: no hole card, burnt card, peek or Échange leaks
    seen = {}
    for name, fs in frames.items():
        me = None if name == "carol" else ids[name]
        for f in fs:
            check_frame(f, me)
        seen[name] = _peeks_and_draws(fs, ids[name])
    peeker = driver.done["peek_verified"]
    assert seen[peeker][0] >= 1, "the peek reached its user"
    assert all(seen[n][1] >= 1 for n in frames if n != peeker), "the others saw it redacted"
