"""Casino rounds through the ledger: every settlement line of R-BONUS-3 and R-BONUS-4 as
transfers between the player's chips, the casino escrow and ``house:casino``; idempotent
keys; the audit; a void after a crash (R-CRASH-1). SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from croupier.casino.cashier import round_key
from croupier.casino.table import Deal, Decide, Sit
from croupier.store import Store
from croupier.store.casino import HOUSE_CASINO, LedgerCashier, casino_escrow
from croupier.store.ledger import user_account
from tests.casino.kit import StackedShuffler, deck, table
from tests.store.backends import FakeClock

START = 10_000


def _fund(store: Store, uid: int, amount: int = START) -> None:
    store.ledger.grant_diamonds(uid, amount, key=f"grant-{uid}")
    store.ledger.buy_chips(uid, amount, key=f"buy-{uid}")


def _play(
    store: Store,
    clock: FakeClock,
    holes: list[str],
    dealer: str,
    board: str,
    bets: list[tuple[int, int]],
    moves: list[tuple[int, str]],
) -> tuple[LedgerCashier, dict[str, Any]]:
    cash = LedgerCashier(store.db, store.ledger, clock=clock)

    async def go() -> dict[str, Any]:
        actor, _ = table(cash, StackedShuffler(deck(holes, dealer, board)))
        for i in range(len(holes)):
            assert (await actor.submit(Sit(f"s{i}", str(i + 1), f"p{i + 1}", i))).accepted
        for i, (ante, bonus) in enumerate(bets):
            r = await actor.submit(Deal(f"d{i}", str(i + 1), ante, bonus))
            assert r.accepted, r
        for n, (player, move) in enumerate(moves):
            r = await actor.submit(Decide(f"m{n}", str(player), move))
            assert r.accepted, (player, move, r)
        assert actor.table.round is None
        last = actor.table.last
        assert last is not None
        await actor.stop()
        return last

    return cash, asyncio.run(go())


# (holes, dealer, board, ante, bonus, moves, outcome, per-spot nets (ante, flop, turn, river),
#  bonus line, bonus net)
MAIN_LINES = [
    pytest.param(
        "KcQd",
        "AhAd",
        "2s5h9cJd3s",
        10,
        0,
        ["play", "bet", "bet"],
        "lose",
        (-10, -20, -10, -10),
        "",
        0,
        id="dealer-better-every-bet-loses",
    ),
    pytest.param(
        "KcQd",
        "KhQs",
        "2s5h9cJd3s",
        10,
        0,
        ["play", "bet", "bet"],
        "tie",
        (0, 0, 0, 0),
        "",
        0,
        id="tie-every-bet-pushes",
    ),
    pytest.param(
        "AhKd",
        "QcJc",
        "2s5h9c8d3s",
        10,
        0,
        ["play", "bet", "bet"],
        "win",
        (0, 20, 10, 10),
        "",
        0,
        id="player-better-below-straight-ante-pushes",
    ),
    pytest.param(
        "6h7d",
        "QcJc",
        "2s5h9c8d3s",
        10,
        0,
        ["play", "check", "bet"],
        "win",
        (10, 20, 0, 10),
        "",
        0,
        id="player-straight-ante-pays",
    ),
    pytest.param(
        "6h7h",
        "QcJc",
        "2h5h9h8dKs",
        20,
        0,
        ["play", "bet", "check"],
        "win",
        (20, 40, 20, 0),
        "",
        0,
        id="player-flush-ante-pays",
    ),
    pytest.param(
        "6h7d",
        "QcJc",
        "2s5h9c8d3s",
        10,
        0,
        ["fold"],
        "fold",
        (-10, 0, 0, 0),
        "",
        0,
        id="fold-loses-the-ante",
    ),
]

BONUS_LINES = [
    ("AsAh", "AdAc", "aa_vs_aa", 1000),
    ("AsAh", "KdKc", "aa", 30),
    ("AsKs", "2d7c", "ak_suited", 25),
    ("AdQd", "2s7c", "aq_aj_suited", 20),
    ("JhAh", "2s7c", "aq_aj_suited", 20),
    ("AsKd", "2c7h", "ak_offsuit", 15),
    ("KsKd", "2c7h", "kk_qq_jj", 10),
    ("JsJd", "2c7h", "kk_qq_jj", 10),
    ("AsQd", "2c7h", "aq_aj_offsuit", 5),
    ("TsTd", "2c7h", "pair_2_10", 3),
    ("2s2d", "3c7h", "pair_2_10", 3),
    ("QsJs", "2c7h", "lose", -1),
]


def _check_ledger(
    store: Store, cash: LedgerCashier, last: dict[str, Any], expected_nets: dict[int, int]
) -> None:
    for uid, net in expected_nets.items():
        assert store.ledger.balance(user_account(uid)) == START + net, uid
        assert store.ledger.balance(casino_escrow("casino-t", uid)) == 0
    assert store.ledger.balance(HOUSE_CASINO) == -sum(expected_nets.values())
    assert last["house_net"] == -sum(expected_nets.values())
    row = cash.round("casino-t", last["round_id"])
    assert row["status"] == "settled" and row["transfer_id"] is not None
    settle = store.ledger.get_transfer(round_key("casino-t", last["round_id"], None, "settle"))
    assert settle is not None and settle.id == row["transfer_id"]
    report = store.audit()
    assert report.ok, report.discrepancies
    assert report.held["chips"].get("casino_house", 0) == -sum(expected_nets.values())


@pytest.mark.parametrize(
    ("hole", "dealer", "board", "ante", "bonus", "moves", "outcome", "nets", "line", "bonus_net"),
    MAIN_LINES,
)
def test_main_settlement_lines(
    store: Store,
    clock: FakeClock,
    hole: str,
    dealer: str,
    board: str,
    ante: int,
    bonus: int,
    moves: list[str],
    outcome: str,
    nets: tuple[int, int, int, int],
    line: str,
    bonus_net: int,
) -> None:
    """R-BONUS-3: dealer better: every main bet loses; tie: every bet pushes; player
    better: flop, turn, river 1 to 1, the ante 1 to 1 with a straight or better, else it
    pushes; a fold loses the ante. Each line moves exactly those chips in the ledger."""
    _fund(store, 1)
    cash, last = _play(
        store, clock, [hole], dealer, board, [(ante, bonus)], [(1, m) for m in moves]
    )
    r = last["results"][0]
    assert r["outcome"] == outcome
    assert (r["ante_net"], r["flop_net"], r["turn_net"], r["river_net"]) == nets
    assert r["bonus_line"] == line and r["bonus_net"] == bonus_net
    _check_ledger(store, cash, last, {1: sum(nets) + bonus_net})


@pytest.mark.parametrize(("hole", "dealer", "line", "pays"), BONUS_LINES)
def test_bonus_lines_after_a_fold(
    store: Store, clock: FakeClock, hole: str, dealer: str, line: str, pays: int
) -> None:
    """R-BONUS-4: the bonus bet is paid on the hole cards alone (A-A against a dealer's
    A-A 1000 to 1, A-A 30, A-K suited 25, A-Q/A-J suited 20, A-K offsuit 15, K-K/Q-Q/J-J
    10, A-Q/A-J offsuit 5, 2-2 … 10-10 3, else lost), even when the player folds."""
    _fund(store, 1)
    cash, last = _play(store, clock, [hole], dealer, "3s4d8h9cTh", [(10, 5)], [(1, "fold")])
    r = last["results"][0]
    assert r["bonus_line"] == line and r["bonus_net"] == 5 * pays and r["ante_net"] == -10
    _check_ledger(store, cash, last, {1: -10 + 5 * pays})


def test_bonus_paid_when_playing_and_losing(store: Store, clock: FakeClock) -> None:
    """R-BONUS-4 with R-BONUS-3: win or lose the main game, the bonus is added to it."""
    _fund(store, 1)
    cash, last = _play(
        store,
        clock,
        ["AsKs"],
        "9c9d",
        "Ts8h5s4hJc",
        [(10, 25)],
        [(1, "play"), (1, "bet"), (1, "bet")],
    )
    r = last["results"][0]
    assert r["outcome"] == "lose" and r["bonus_net"] == 25 * 25
    _check_ledger(store, cash, last, {1: -50 + 625})


def test_several_players_one_transfer_idempotent(store: Store, clock: FakeClock) -> None:
    """R-BONUS-1: three players at one table; the settlement is one transfer; replaying
    any movement under its key moves nothing more."""
    for uid in (1, 2, 3):
        _fund(store, uid)
    cash, last = _play(
        store,
        clock,
        ["AsKs", "2c7d", "QhQd"],
        "9c9d",
        "Ts8h5s4hJc",
        [(10, 5), (20, 0), (10, 0)],
        [(1, "play"), (2, "fold"), (3, "play"), (1, "bet"), (3, "check"), (1, "bet"), (3, "bet")],
    )
    nets = {r["seat"] + 1: r["net"] for r in last["results"]}
    assert nets[2] == -20
    _check_ledger(store, cash, last, nets)
    before = store.audit()
    rid = last["round_id"]
    cash.open_round("casino-t", rid, {"seats": []}, [("1", 15)])  # same round: nothing
    cash.settle("casino-t", rid, [("1", 55, 0)], {})  # already settled: nothing
    cash.void("casino-t", rid, "late")  # settled rounds are never voided
    after = store.audit()
    assert (after.transfers, after.entries) == (before.transfers, before.entries)
    assert store.ledger.balance(user_account(1)) == START + nets[1]


def test_void_returns_every_escrowed_chip(store: Store, clock: FakeClock) -> None:
    """R-CRASH-1: a round left open (the process died) is voided at restart: the ante,
    bonus and street bets go back, the round is marked void, the audit balances; while it
    is open, the audit sees the escrow belongs to an open round."""
    _fund(store, 1)
    _fund(store, 2)
    cash = LedgerCashier(store.db, store.ledger, clock=clock)
    seats = {"seats": [{"seat": 0, "player": "1"}, {"seat": 1, "player": "2"}]}
    cash.open_round("casino-t", "r-open", seats, [("1", 15), ("2", 10)])
    cash.wager("casino-t", "r-open", "1", "flop", 20)
    assert store.audit().ok
    assert store.ledger.balance(user_account(1)) == START - 35
    assert cash.open_rounds("casino-t") == ["r-open"]

    async def restart() -> None:
        from croupier.casino.table import CasinoTableConfig
        from croupier.table.casino_actor import CasinoActor
        from croupier.table.clock import FakeClock as TableClock

        actor = await CasinoActor.restore(CasinoTableConfig("casino-t"), cash, TableClock())
        await actor.stop()

    asyncio.run(restart())
    assert store.ledger.balance(user_account(1)) == START
    assert store.ledger.balance(user_account(2)) == START
    assert cash.round("casino-t", "r-open")["status"] == "void"
    assert cash.open_rounds("casino-t") == []
    assert store.audit().ok


def test_audit_sees_stuck_casino_chips(store: Store, clock: FakeClock) -> None:
    """The casino audit check: chips left in a casino escrow without an open round are
    reported."""
    _fund(store, 1)
    cash = LedgerCashier(store.db, store.ledger, clock=clock)
    seats = {"seats": [{"seat": 0, "player": "1"}]}
    cash.open_round("casino-t", "r1", seats, [("1", 10)])
    # a bug marks the round settled without paying: the escrow is stuck
    from croupier.store.schema import casino_rounds

    store.db.run(lambda conn: conn.execute(casino_rounds.update().values(status="void")))
    report = store.audit()
    assert not report.ok
    assert any("casino:casino-t:1 holds 10" in d for d in report.discrepancies)


def test_insufficient_funds_refused_atomically(store: Store, clock: FakeClock) -> None:
    """R-BONUS-1: a player whose balance cannot cover the stake is refused and nothing of
    the round is recorded (all or nothing)."""
    _fund(store, 1, 100)
    _fund(store, 2, 5)
    cash = LedgerCashier(store.db, store.ledger, clock=clock)
    from croupier.casino.cashier import CashierError

    with pytest.raises(CashierError) as err:
        cash.open_round("casino-t", "r1", {"seats": []}, [("1", 10), ("2", 10)])
    assert err.value.code == "insufficient_chips" and err.value.player == "2"
    assert store.ledger.balance(user_account(1)) == 100
    assert cash.open_rounds("casino-t") == []


def test_admin_audit_prints_the_house_result(url: str, clock: FakeClock) -> None:
    """`croupier admin audit` shows the casino house's result among the held balances and
    fails on chips stuck in a casino escrow."""
    import typer
    from typer.testing import CliRunner

    from croupier.cli import admin
    from croupier.store import open_store

    with open_store(url, clock=clock) as store:
        _fund(store, 1)
        _play(
            store,
            clock,
            ["6h7d"],
            "QcJc",
            "2s5h9c8d3s",
            [(10, 0)],
            [(1, "play"), (1, "bet"), (1, "bet")],
        )
        house = store.ledger.balance(HOUSE_CASINO)
    assert house == -50  # straight: ante 10 + flop 20 + turn 10 + river 10 paid
    app = typer.Typer()
    admin.register(app)

    @app.command()
    def version() -> None:
        """Unused."""

    result = CliRunner().invoke(app, ["admin", "audit", "--db", url])
    assert result.exit_code == 0, result.output
    assert "casino_house -50" in result.output and "no discrepancies" in result.output
    with open_store(url, clock=clock) as store:
        cash = LedgerCashier(store.db, store.ledger, clock=clock)
        cash.open_round("casino-t", "r-stuck", {"seats": []}, [("1", 10)])  # seats nobody
    result = CliRunner().invoke(app, ["admin", "audit", "--db", url])
    assert result.exit_code == 1 and "casino:casino-t:1 holds 10" in result.output
