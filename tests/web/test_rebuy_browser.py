"""The rebuy dialog (issue #15), in Chromium against a real server: a player who busts at a
cash table is offered a rebuy at once, the dialog states the table's real range, an amount
outside it is refused with nothing moved, declining keeps the seat out of chips (Reload or
Leave), and an accepted rebuy moves exactly that amount from the account to the stack in
one ledger transfer.

Two browser players at a private heads-up table: the one under test shoves every hand,
the other calls everything (and rebuys the maximum when it busts), so each hand is an
all-in (the bots of a lobby table fold to shoves too often: a shover there can win for
minutes). A shover who wins leaves and sits down again with the minimum, so it never
covers the caller and each all-in is a coin toss for the bust: without that, its stack is a
fair random walk with no ceiling, and one run in ten took more than four minutes."""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from croupier.store import open_store
from croupier.store.ledger import escrow_account, user_account
from tests.web.conftest import Page, Server
from tests.web.flows import exchange, my_seat_stack, sign_up, state, untranslated

BUY_MIN, BUY_MAX = 30, 70
BUST_LIMIT = 240.0  # seconds: each hand is an all-in, a bust comes in a few hands
ACT_WAIT = 5000  # ms a click waits for its button: the bar can change under it


def _me(page: Any) -> dict[str, Any]:
    me: dict[str, Any] = page.evaluate("fetch('/api/me').then(r => r.json())")
    return me


def _private_table(page: Any) -> tuple[str, str]:
    """A private heads-up No-Limit Hold'em 1/2 table, buy-ins from 30 to 70, no bots;
    returns its id and invitation link."""
    page.click("nav a[data-view=lobby]")
    page.fill("#p-sb", "1")
    page.fill("#p-bb", "2")
    page.fill("#p-seats", "2")
    page.fill("#p-bmin", str(BUY_MIN))
    page.fill("#p-bmax", str(BUY_MAX))
    page.uncheck("#p-bots")
    page.click("#private-form button[type=submit]")
    page.wait_for_selector("#private-result:not([hidden])")
    link: str = page.input_value("#invite-link")
    page.click("#invite-open")
    page.wait_for_selector("#t-sit:not([hidden])")
    table_id: str = page.evaluate("window.__croupier.table.tableId")
    return table_id, link


def _sit(page: Any, amount: int) -> None:
    if not page.is_visible("#sit-dialog[open]"):
        page.click("#t-sit")
    page.wait_for_selector("#sit-dialog[open]")
    assert page.inner_text("#sit-range") == f"From {BUY_MIN} to {BUY_MAX} chips."
    page.fill("#sit-amount", str(amount))
    page.click("#sit-confirm")
    page.wait_for_selector(".seat.me")


def _act(page: Any, *, shove: bool) -> bool:
    """One action if it is this page's turn: all-in (``shove``) or call/check; shows at a
    showdown. Returns whether it acted."""
    if not page.is_visible("#actionbar:not([hidden])") or page.evaluate(
        "window.__croupier.table.busy"
    ):
        return False
    try:
        if page.is_visible("#a-show"):
            page.click("#a-show", timeout=ACT_WAIT)
        elif shove and page.is_visible("#a-raise"):
            if page.is_visible("#sizing"):  # hidden when one size is legal: the button's
                page.click("#sizing [data-preset=max]", timeout=ACT_WAIT)
            page.click("#a-raise", timeout=ACT_WAIT)
        elif page.is_visible("#a-call"):
            page.click("#a-call", timeout=ACT_WAIT)
        elif page.is_visible("#a-check"):
            page.click("#a-check", timeout=ACT_WAIT)
        else:
            return False
    except PlaywrightTimeoutError:
        return False  # the turn ended under the click (a timeout, an automatic action)
    return True


def _shove_until_busted(page: Any, caller: Any) -> tuple[int, int]:
    """``page`` shoves, ``caller`` calls (and rebuys the maximum when busted), until
    ``page``'s rebuy dialog opens; a ``page`` that has won leaves and sits down again with
    the minimum. Returns how many shoves and calls it took and how many times ``page``
    sat down again."""
    deadline = time.monotonic() + BUST_LIMIT
    actions = resits = 0
    leaving = False
    while not page.is_visible("#sit-dialog[open]"):
        assert time.monotonic() < deadline, "not busted in time"
        if leaving and page.is_visible("#t-sit"):  # the seat is free: back with the minimum
            _sit(page, BUY_MIN)
            leaving, resits = False, resits + 1
        elif not leaving and page.is_visible(".seat.me") and my_seat_stack(page) > BUY_MIN:
            page.click("#t-leave")  # at the end of the hand if one is being played
            leaving = True
        if not leaving:  # a leaving player's turns are the table's (it folds or checks)
            actions += _act(page, shove=True)
        actions += _act(caller, shove=False)
        if caller.is_visible("#sit-dialog[open]"):  # the caller busted: rebuy, go on
            caller.click("#sit-confirm")
            caller.wait_for_selector("#sit-dialog:not([open])", state="attached")
        page.wait_for_timeout(100)
    return actions, resits


def _legs(server: Server, table_id: str, kind: str, like: str) -> list[tuple[str, dict[str, int]]]:
    """Every ``kind`` transfer of the table whose key is like ``bank:<table>:<like>``, from
    the store's ledger: its key and its legs (ledger account key -> amount), in order."""
    with open_store(f"sqlite:///{server.dir / 'croupier.sqlite3'}") as store:
        rows = store.db.run(
            lambda c: c.exec_driver_sql(
                "SELECT t.id, t.idem_key, a.key, e.amount FROM transfers t"
                " JOIN entries e ON e.transfer_id = t.id"
                " JOIN ledger_accounts a ON a.id = e.account_id"
                " WHERE t.kind = ? AND t.idem_key LIKE ? ORDER BY t.id, e.id",
                (kind, f"bank:{table_id}:{like}"),
            ).all()
        )
    legs: dict[tuple[int, str], dict[str, int]] = {}
    for tid, idem, account, amount in rows:
        legs.setdefault((int(tid), str(idem)), {})[str(account)] = int(amount)
    return [(idem, v) for (_, idem), v in legs.items()]


def _reload_transfers(server: Server, table_id: str, user_id: int) -> list[dict[str, int]]:
    """The legs of every reload transfer of the user at the table, from the store's ledger
    (ledger account key -> amount), in order."""
    mine = user_account(user_id).key
    return [v for _, v in _legs(server, table_id, "buy_in", "%:reload:%") if mine in v]


def _refused(page: Any, amount: str, chips: int) -> None:
    """``amount`` typed in the open dialog is refused with the real range; nothing moves."""
    said = f"Choose an amount from {BUY_MIN} to {BUY_MAX}."
    page.evaluate("document.querySelector('#toast').textContent = ''")
    page.fill("#sit-amount", amount)
    page.click("#sit-confirm")
    page.wait_for_function(f"document.querySelector('#toast').textContent === {said!r}")
    assert page.is_visible("#sit-dialog[open]")
    assert my_seat_stack(page) == 0
    assert _me(page)["chips"] == chips


def test_busted_player_is_offered_the_real_rebuy(
    server: Server, browser_page: Page, playwright_: Any, artifacts: Path
) -> None:
    """R-SEAT-1, R-ACC-1, R-LOBBY-2: at a private cash table (buy-ins 30 to 70) a player who
    shoves every hand against a caller busts; the rebuy dialog opens at once with the
    table's range (30 to 70: the stack is 0), not the sit-down choices; 5 and 500 are
    refused with that range and move nothing; declining keeps the seat, sitting out and "out of chips", with Reload
    and Leave (not Sit in); Reload reopens the dialog and 50 moves exactly 50 chips from
    the account to the stack, in one ledger transfer with a unique key."""
    page = browser_page.page
    page.set_default_timeout(45000)
    sign_up(page, server.base, f"r{secrets.token_hex(4)}")
    exchange(page, 200)
    table_id, link = _private_table(page)
    _sit(page, BUY_MIN)
    uid = int(_me(page)["id"])
    other = Page(playwright_)
    try:
        caller = other.page
        caller.set_default_timeout(45000)
        sign_up(caller, server.base, f"k{secrets.token_hex(4)}")
        exchange(caller, 1000)
        caller.goto(link)
        caller.wait_for_selector("#t-sit:not([hidden]), #sit-dialog[open]")
        _sit(caller, BUY_MAX)
        actions, resits = _shove_until_busted(page, caller)
        assert actions >= 2
        _busted_and_rebuys(server, page, table_id, uid, artifacts, resits)
        assert other.unexpected() == []
    finally:
        other.close()


def _busted_and_rebuys(
    server: Server, page: Any, table_id: str, uid: int, artifacts: Path, resits: int
) -> None:
    """The rebuy dialog just opened by itself on ``page``, which sat down ``1 + resits``
    times with the minimum: its range, refusals, declining, then a rebuy of 50 checked in
    the account and the ledger."""
    # at once: the offer came with the hand's end, nobody clicked anything
    assert page.inner_text("#sit-title") == "Reload"
    assert page.inner_text("#sit-confirm") == "Reload"
    assert page.is_hidden("#sit-blind")  # no "wait for the big blind" choice on a reload
    assert page.inner_text("#sit-range") == f"From {BUY_MIN} to {BUY_MAX} chips."
    assert page.get_attribute("#sit-amount", "min") == str(BUY_MIN)
    assert page.get_attribute("#sit-amount", "max") == str(BUY_MAX)
    assert state(page, "s.reload") == {"min": BUY_MIN, "max": BUY_MAX}
    assert untranslated(page) == []
    page.screenshot(path=str(artifacts / "rebuy-dialog.png"))
    chips = _me(page)["chips"]
    # the last buy-in was all lost, nothing else moved: the account holds what it was
    # given, less one minimum buy-in per sitting, plus what each earlier sitting cashed out
    mine = user_account(uid).key
    sittings = [v[mine] for _, v in _legs(server, table_id, "buy_in", "%") if mine in v]
    cashed = [v[mine] for _, v in _legs(server, table_id, "cash_out", "%") if mine in v]
    assert sittings == [-BUY_MIN] * (1 + resits)
    assert len(cashed) <= resits and all(c > 0 for c in cashed)  # none if it lost leaving
    assert chips == 200 - BUY_MIN * (1 + resits) + sum(cashed)

    _refused(page, "5", chips)
    _refused(page, "500", chips)

    # declining: the seat stays, out of chips, sitting out; Reload and Leave are offered
    page.click("#sit-cancel")
    page.wait_for_selector("#sit-dialog:not([open])", state="attached")
    page.wait_for_selector(".seat.me .status[data-i18n='table.busted']")
    assert page.is_visible("#t-reload") and page.is_visible("#t-leave")
    assert page.is_hidden("#t-sitin")
    time.sleep(2)  # nothing is taken from a busted seat sitting out
    assert _me(page)["chips"] == chips
    assert _reload_transfers(server, table_id, uid) == []

    page.click("#t-reload")
    page.wait_for_selector("#sit-dialog[open]")
    assert page.inner_text("#sit-range") == f"From {BUY_MIN} to {BUY_MAX} chips."
    page.fill("#sit-amount", "50")
    page.click("#sit-confirm")
    page.wait_for_selector(".seat.me .status[data-i18n='table.busted']", state="detached")
    page.wait_for_function(f"Number(window.__croupier.account.chips) === {chips - 50}")
    assert _me(page)["chips"] == chips - 50
    # one transfer (its key is the table's unique reload reference): the account's -50,
    # the player's escrow at the table +50
    moved = _reload_transfers(server, table_id, uid)
    assert moved == [{user_account(uid).key: -50, escrow_account(table_id, uid).key: 50}]
    assert not page.is_visible("#sit-dialog[open]")
    # the offer is answered: the table no longer waits for this player (multi-table tabs);
    # with the stack back the next hand may already have started and be this player's turn,
    # so the check leaves the turn out and looks at the offer alone
    assert state(page, "s.reload") is None
    assert not page.evaluate(
        "window.__croupier.multi.needs({...window.__croupier.table.state, legal: null})"
    )
