"""The SQL table journal (R-CRASH-1, R-MISDEAL-1, R-CARD-5), on SQLite and PostgreSQL."""

from __future__ import annotations

import secrets
from dataclasses import replace

import pytest

from croupier.engine.cards import parse_cards
from croupier.store import NotFoundError, Store, StoreError
from croupier.store.ledger import HOUSE_LEVY, HOUSE_RAKE
from croupier.table.journal import (
    CashOutDone,
    CashOutRecord,
    HandEndRecord,
    HandStartRecord,
    HandVoidRecord,
    Restarted,
    SeatsRecord,
    commit_deck,
    plan_recovery,
    verify_hand,
)
from croupier.table.seating import Seat

DECK = parse_cards("AsKdQh2c3d4h5s6c7d8h9sTcJd")


def _seated(store: Store, table: str, stacks: dict[int, int]) -> tuple[Seat, ...]:
    seats = []
    for i, (user, stack) in enumerate(sorted(stacks.items())):
        store.ledger.grant_diamonds(user, stack, key=f"{table}-g-{user}")
        store.ledger.buy_chips(user, stack, key=f"{table}-b-{user}")
        assert store.bank(table).buy_in(str(user), stack, f"in-{user}")
        seats.append(Seat(i, str(user), f"P{user}", stack=stack))
    store.journal.append(table, SeatsRecord(tuple(seats), "sit"))
    return tuple(seats)


def _start(seats: tuple[Seat, ...], hand_no: int = 1, salt: bytes | None = None) -> HandStartRecord:
    """The start of hand ``hand_no`` with ``seats`` (a random salt unless given)."""
    salt = secrets.token_bytes(16) if salt is None else salt
    return HandStartRecord(
        hand_no=hand_no,
        seats=seats,
        dealt=tuple(s.seat for s in seats),
        players=tuple(s.player_id for s in seats),
        stacks=tuple(s.stack for s in seats),
        button=seats[-1].seat,
        commitment=commit_deck(DECK, salt),
        deck=DECK,
        salt=salt,
    )


def test_every_record_round_trips(store: Store) -> None:
    """R-CRASH-1: what the table journals is read back exactly, in order."""
    seats = (Seat(0, "1", "Ann", stack=100), Seat(1, "2", "Bob", is_bot=True, stack=50))
    start = _start(seats)
    records = [
        SeatsRecord(seats, "sit", cash_outs=()),
        start,
        HandEndRecord(1, seats, (100, 50), 0),
        HandStartRecord(2, seats, (0, 1), ("1", "2"), (100, 50), 1, "c" * 64, DECK, b"\x00" * 16),
        HandVoidRecord(2, seats, "crash"),
        Restarted(3),
        CashOutDone("r1"),
    ]
    for rec in records:
        store.journal.append("t1", rec)
    assert list(store.journal.records("t1")) == records
    assert store.journal.records("other") == ()


def test_settlement_moves_escrow_with_the_record(store: Store) -> None:
    """R-CRASH-1, R-POT-6: the settlement record and the ledger transfer are one write."""
    seats = _seated(store, "t1", {1: 100, 2: 100, 3: 100})
    store.journal.append("t1", _start(seats))
    assert store.journal.unsettled() == [("t1", 1)]
    after = tuple(replace(s, stack=st) for s, st in zip(seats, (130, 60, 108), strict=True))
    store.journal.append("t1", HandEndRecord(1, after, (130, 60, 108), 2))
    assert store.journal.unsettled() == []
    assert store.journal.hand_status("t1", 1) == "settled"
    assert store.ledger.escrow("t1") == {1: 130, 2: 60, 3: 108}
    assert store.ledger.balance(HOUSE_RAKE) == 2
    assert store.audit().ok


def test_arcade_levy_goes_to_the_levy_account(store: Store) -> None:
    """R-RAKE-3: an arcade table's levy is kept apart from rake: the hand's record says it
    is a levy (the table's house rules), whatever the table is called."""
    seats = _seated(store, "quick-7", {1: 50, 2: 50})
    store.journal.append("quick-7", _start(seats))
    store.journal.append("quick-7", HandEndRecord(1, seats, (40, 58), 2, levy=True))
    assert store.ledger.balance(HOUSE_LEVY) == 2
    assert store.ledger.balance(HOUSE_RAKE) == 0
    # a table named like the arcade but raking (not a levy) pays house:rake
    seats = _seated(store, "arcade-8", {1: 50, 2: 50})
    store.journal.append("arcade-8", _start(seats))
    store.journal.append("arcade-8", HandEndRecord(1, seats, (40, 57), 3))
    assert store.ledger.balance(HOUSE_RAKE) == 3 and store.ledger.balance(HOUSE_LEVY) == 2


def test_interrupted_hand_is_voided_and_balances_are_as_before(store: Store) -> None:
    """R-CRASH-1: a hand started and never settled is listed for recovery; voiding it
    leaves every escrow exactly at the journaled start."""
    seats = _seated(store, "t1", {1: 100, 2: 80})
    before = store.ledger.escrow("t1")
    start = _start(seats)
    store.journal.append("t1", start)
    # the server stops here; on restart:
    plan = plan_recovery(store.journal.records("t1"))
    assert plan.void == start
    assert store.journal.unsettled("t1") == [("t1", 1)]
    store.journal.append("t1", HandVoidRecord(1, plan.seats, "server restart"))
    assert store.journal.unsettled() == []
    assert store.journal.hand_status("t1", 1) == "void"
    assert (
        store.ledger.escrow("t1")
        == before
        == {s: st for s, st in zip((1, 2), start.stacks, strict=True)}
    )
    # a late settlement of the voided hand is refused and moves nothing
    with pytest.raises(StoreError) as err:
        store.journal.append("t1", HandEndRecord(1, seats, (180, 0), 0))
    assert err.value.code == "hand_closed"
    assert store.ledger.escrow("t1") == before
    assert store.audit().ok


def test_a_settled_hand_is_never_paid_twice(store: Store) -> None:
    """R-CRASH-1: the end of a hand written again (a retry after a crash) changes nothing."""
    seats = _seated(store, "t1", {1: 100, 2: 100})
    store.journal.append("t1", _start(seats))
    end = HandEndRecord(1, seats, (150, 50), 0)
    store.journal.append("t1", end)
    store.journal.append("t1", end)
    assert store.ledger.escrow("t1") == {1: 150, 2: 50}
    assert sum(isinstance(r, HandEndRecord) for r in store.journal.records("t1")) == 1


def test_bad_settlement_is_refused_and_changes_nothing(store: Store) -> None:
    """R-POT-6: stacks that do not add up are refused with a code; the hand stays open."""
    seats = _seated(store, "t1", {1: 100, 2: 100})
    store.journal.append("t1", _start(seats))
    n = len(store.journal.records("t1"))
    with pytest.raises(StoreError) as err:
        store.journal.append("t1", HandEndRecord(1, seats, (150, 60), 0))
    assert err.value.code == "bad_settlement"
    with pytest.raises(NotFoundError):
        store.journal.append("t1", HandEndRecord(9, seats, (100, 100), 0))
    assert len(store.journal.records("t1")) == n
    assert store.journal.unsettled() == [("t1", 1)]
    assert store.ledger.escrow("t1") == {1: 100, 2: 100}


def test_same_hand_number_with_another_deck_is_refused(store: Store) -> None:
    """R-CARD-5: a hand cannot be restarted under the same number with a new deck."""
    seats = _seated(store, "t1", {1: 10, 2: 10})
    store.journal.append("t1", _start(seats))
    with pytest.raises(StoreError) as err:
        store.journal.append("t1", _start(seats))
    assert err.value.code == "hand_exists"


def test_stored_deck_verifies_against_its_commitment(store: Store) -> None:
    """R-CARD-3, R-CARD-5: the deck and salt are kept and verify against the commitment."""
    seats = _seated(store, "t1", {1: 10, 2: 10})
    start = _start(seats)
    store.journal.append("t1", start)
    again = store.journal.hand_start("t1", 1)
    assert again.deck == DECK and again.salt == start.salt
    assert verify_hand(again)
    with pytest.raises(NotFoundError):
        store.journal.hand_start("t1", 2)


def test_standing_up_pays_with_the_seat_map(store: Store) -> None:
    """R-SEAT-1, R-CRASH-1: a player removed by a seat map is paid in the same write; the
    table's later cash-out with the same ref is a replay, not a second payment."""
    seats = _seated(store, "t1", {1: 100, 2: 100})
    out = CashOutRecord("leave-1", "2", 100)
    store.journal.append("t1", SeatsRecord(seats[:1], "leave", cash_outs=(out,)))
    assert store.ledger.escrow("t1") == {1: 100}
    assert store.ledger.balances(2).chips == 100
    store.bank("t1").cash_out("2", 100, "leave-1")
    assert store.ledger.balances(2).chips == 100
    assert store.audit().ok


def test_bank_refuses_an_uncovered_buy_in(store: Store) -> None:
    """R-SEAT-1: a buy-in the balance does not cover is refused (False), nothing moves."""
    store.ledger.grant_diamonds(5, 30, key="g")
    store.ledger.buy_chips(5, 30, key="b")
    assert store.bank("t1").buy_in("5", 31, "r1") is False
    assert store.bank("t1").buy_in("5", 30, "r2") is True
    assert store.ledger.escrow("t1") == {5: 30}


def test_player_without_account_cannot_settle(store: Store) -> None:
    """R-ACC-1: every chip at a ledger-backed table belongs to an account."""
    seats = (Seat(0, "bot-1", stack=10), Seat(1, "2", stack=10))
    store.journal.append("t1", _start(seats))
    with pytest.raises(StoreError) as err:
        store.journal.append("t1", HandEndRecord(1, seats, (20, 0), 0))
    assert err.value.code == "unknown_player"
    assert store.journal.unsettled() == [("t1", 1)]


def test_a_settlement_credits_its_players_experience_in_its_own_transaction(
    store: Store,
) -> None:
    """R-SEAT-2, R-CRASH-1 (issue #16: experience credited in the hand's own transaction):
    with the accounts' rule set (the server sets it), a hand's settlement credits the
    experience and hand counts of the accounts dealt in, bots (by the seat map) and
    unknown accounts aside, in the settlement's transaction; the writer is told each
    account's experience before and after. A settlement written again credits nothing;
    a group that fails credits nothing either. A level reached is rewarded in the same
    transaction (the room's rule: 10 bound diamonds a level, once)."""
    from croupier.accounts.service import hand_credits
    from croupier.server.arcade import experience_rewards

    ann = store.users.create_user("Ann", "ann", None, "player", 0).id
    bob = store.users.create_user("Bob", "bob", None, "player", 0).id
    bot = store.users.create_user("bot.t1.1", "bot.t1.1", None, "bot", 0).id
    store.users.add_experience(bob, 95, 0, 0)  # 5 short of level 2
    store.journal.hand_credits = hand_credits
    store.journal.level_rewards = experience_rewards
    told: list[dict[int, tuple[int, int]]] = []
    store.journal.on_credited = lambda exp: told.append(dict(exp))
    seats = _seated(store, "t1", {ann: 100, bob: 100, bot: 100, 9999: 100})
    seats = tuple(replace(s, is_bot=s.player_id == str(bot)) for s in seats)
    store.journal.append("t1", _start(seats))
    assert store.users.user(ann).experience == 0  # type: ignore[union-attr]
    end = HandEndRecord(1, seats, (150, 80, 90, 80), 0)
    store.journal.append("t1", end)
    a, b, c = (store.users.user(u) for u in (ann, bob, bot))
    assert a is not None and (a.experience, a.hands_played, a.hands_won) == (15, 1, 1)
    assert b is not None and (b.experience, b.hands_played, b.hands_won) == (105, 1, 0)
    assert c is not None and (c.experience, c.hands_played) == (0, 0)  # a bot earns nothing
    assert told == [{ann: (0, 15), bob: (95, 105)}]
    assert store.ledger.balances(bob).bound_diamonds == 10  # level 2, with the hand
    assert store.ledger.balances(ann).bound_diamonds == 0
    store.journal.append("t1", end)  # written again (a replay): nothing paid or credited
    assert store.users.user(ann).experience == 15  # type: ignore[union-attr]
    assert store.ledger.balances(bob).bound_diamonds == 10
    assert len(told) == 1
    # a group whose last record is refused writes nothing: no experience either
    seats = tuple(replace(s, stack=st) for s, st in zip(seats, end.stacks, strict=True))
    store.journal.append("t1", _start(seats, hand_no=2))
    with pytest.raises(StoreError):
        store.journal.append_many(
            [("t1", HandEndRecord(2, seats, (100, 100, 120, 80), 0)), ("t1", _start(seats, 2))]
        )
    assert store.users.user(ann).experience == 15  # type: ignore[union-attr]
    assert store.journal.hand_status("t1", 2) == "open"
    assert store.audit().ok
