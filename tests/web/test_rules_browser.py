"""Seed rules in the browser (issue #12): the amount box at a `room` table says what an
under-raise counts as before it is sent (R-BET-9); a new player chooses to wait for the big
blind or post one and the page says "waiting for the big blind" (R-POS-6, R-SEAT-3); the
private form creates a Spread-Limit table with per-round maxima (R-BET-5); the Naiko panel
shows exactly the powers the server offers, and a reloaded page still shows its own Coup
d'Œil peek (R-NAIKO-4..8)."""

from __future__ import annotations

import secrets
import time
from typing import Any

from tests.web.conftest import Page, Server
from tests.web.flows import exchange, ready, sign_up, state, untranslated


def name() -> str:
    return f"r{secrets.token_hex(4)}"


def _create_private(page: Any, **fields: str) -> str:
    page.click("nav a[data-view=lobby]")
    if "game" in fields:
        page.select_option("#p-game", fields.pop("game"))
    for key, value in fields.items():
        page.fill(f"#p-{key}", value)
    page.check("#p-bots")
    page.click("#private-form button[type=submit]")
    page.wait_for_selector("#private-result:not([hidden])")
    code: str = page.inner_text("#invite-code")
    page.click("#invite-open")
    page.wait_for_selector("#t-sit:not([hidden])")
    page.wait_for_function("window.__croupier.table.live")
    return code


def _my_turn(page: Any, limit: float = 90) -> dict[str, Any]:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        legal = state(page, "s.legal")
        if legal and legal.get("can_raise") and page.is_visible("#sizing"):
            if not page.evaluate("window.__croupier.table.busy"):
                got: dict[str, Any] = legal
                return got
        elif legal and page.is_visible("#actionbar"):
            if page.is_visible("#a-check"):
                page.click("#a-check")
            elif page.is_visible("#a-call"):
                page.click("#a-call")
            elif page.is_visible("#a-show"):
                page.click("#a-show")
            page.wait_for_function("!window.__croupier.table.busy")
        page.wait_for_timeout(100)  # poll interval of the bounded loop (it looks at the page again)
    raise AssertionError("no turn with a raise in time")


def test_wait_or_post_the_big_blind_and_the_under_raise_hint(
    server: Server, browser_page: Page
) -> None:
    """R-SEAT-3, R-POS-6: at a private 5/10 table where two bots play, the sit dialog offers
    to wait for the big blind or post one; waiting, the page says so and offers to post now;
    posting, the next hand deals the player in. R-BET-9: on the player's turn the amount
    box accepts an amount under the minimum raise and says before sending what it counts as
    ("Counts as a call"/"a check", "Raised to 20"); sent, the server accepts it."""
    page = browser_page.page
    sign_up(page, server.base, name())
    exchange(page, 600)
    _create_private(page, sb="5", bb="10", seats="4")
    # two bots play: wait for their hand, then sit and choose to wait
    page.wait_for_function("window.__croupier.table.state.handNo > 0", timeout=30000)
    page.click("#t-sit")
    page.wait_for_selector("#sit-dialog[open]")
    assert page.is_visible("#sit-blind") and page.is_checked("#sit-wait")
    page.fill("#sit-amount", "500")
    page.click("#sit-form button[type=submit]")
    page.wait_for_selector(".seat.me")
    page.wait_for_selector("#t-waiting:not([hidden])")
    assert page.inner_text("#t-waiting") == "Waiting for the big blind"
    assert page.is_visible("#t-postnow")
    page.click("#t-postnow")
    page.wait_for_function(
        "document.querySelector('#t-waiting').hidden"
        " || document.querySelector('#t-waiting').textContent.includes('next hand')"
    )
    assert not page.is_visible("#t-postnow")
    page.wait_for_function(
        "(() => { const s = window.__croupier.table.state;"
        " return s.players.includes(String(window.__croupier.table.me)); })()",
        timeout=60000,
    )
    assert not page.is_visible("#t-waiting")

    legal = _my_turn(page)
    low, up, minimum = legal["call_above"], legal["round_up_from"], legal["min_raise"]
    assert up > low + 1 and minimum > up, legal
    page.fill("#amount", str(low + 1))
    page.dispatch_event("#amount", "input")
    hint = page.inner_text("#amount-hint")
    assert hint in ("Counts as a call", "Counts as a check"), hint
    page.fill("#amount", str(up))
    page.dispatch_event("#amount", "input")
    assert page.inner_text("#amount-hint") == f"Raised to {minimum}"
    assert untranslated(page) == []
    page.fill("#amount", str(low + 1))
    page.dispatch_event("#amount", "input")
    page.click("#a-raise")
    page.wait_for_function("!window.__croupier.table.busy")
    assert not page.is_visible("#toast") or "raise" not in page.inner_text("#toast").lower()
    acted = state(page, "s.log.map(l => l.key)")
    assert acted


def test_spread_limit_table_from_the_private_form(server: Server, browser_page: Page) -> None:
    """R-BET-5: choosing Spread-Limit Hold'em shows the maxima field; ``1-2-3`` at blinds
    1/1 creates the table (its info line names the game); a bad one gets a clear error."""
    page = browser_page.page
    sign_up(page, server.base, name())
    page.click("nav a[data-view=lobby]")
    assert not page.is_visible("#p-spread-row")
    page.select_option("#p-game", "slhe")
    assert page.is_visible("#p-spread-row")
    page.fill("#p-sb", "1")
    page.fill("#p-bb", "2")
    page.fill("#p-spread", "1-2-3")  # a maximum of 1 is below the big blind of 2
    page.evaluate("document.querySelector('#toast').hidden = true")  # the sign-up's toast
    page.click("#private-form button[type=submit]")
    page.wait_for_selector("#toast:not([hidden])")  # the refusal's, not the sign-up's
    assert page.is_hidden("#private-result")
    page.fill("#p-bb", "1")
    _create_private(page)
    summary = page.evaluate(
        "window.__croupier.summaries.get(window.__croupier.table.tableId) || null"
    )
    spec = page.evaluate(
        "window.__croupier.privateSpecs.get(window.__croupier.table.tableId) || null"
    )
    assert (summary and summary["spread"] == "1-1-2-3") or (spec and spec["spread"] == "1-2-3")


def test_naiko_panel_shows_the_server_offers_and_a_reload_keeps_the_peek(
    server: Server, browser_page: Page
) -> None:
    """R-NAIKO-4..8: on the player's turn every power button is enabled exactly when the
    server's offer says usable, the Ancre's target list is the offer's seats and each cost
    is the server's; after a Coup d'Œil, a reloaded page still shows the peeked card."""
    page = browser_page.page
    sign_up(page, server.base, name())
    exchange(page, 400)
    ready(page, f"{server.base}/#/table/naiko-1-2")
    page.wait_for_selector("#naiko:not([hidden])")
    page.click("#t-sit")
    page.wait_for_selector("#sit-dialog[open]")
    page.fill("#sit-amount", "200")
    page.click("#sit-form button[type=submit]")
    page.wait_for_selector(".seat.me")
    checked = 0
    peeked: str | None = None
    end = time.monotonic() + 150
    while (checked < 2 or peeked is None) and time.monotonic() < end:
        offers = state(page, "s.legal && s.naiko.powers")
        if not offers or page.evaluate("window.__croupier.table.busy"):
            page.wait_for_timeout(
                100
            )  # poll interval of the bounded loop (it looks at the page again)
            continue
        for o in offers:
            sel = f"#carrousel button[data-power={o['power']}]"
            if o["power"] != "sceau_protecteur":
                assert page.is_enabled(sel) == o["usable"], o
            assert f"{o['cost']}" in page.inner_text(sel), o
            if o["power"] == "ancre_courte" and o["usable"]:
                values = page.eval_on_selector_all(
                    "#naiko-target-select option", "os => os.map(o => Number(o.value))"
                )
                assert sorted(values) == sorted(o["target_seats"]), (values, o)
        checked += 1
        coup = next((o for o in offers if o["power"] == "coup_d_oeil" and o["usable"]), None)
        if coup is not None and peeked is None:
            page.click("#carrousel button[data-power=coup_d_oeil]")
            page.wait_for_function("!window.__croupier.table.busy")
            page.wait_for_selector("#peek:not([hidden]) #peek-cards svg")
            cards = state(page, "s.naiko.peeks")
            if cards:
                peeked = cards[-1]
                page.reload()
                page.wait_for_selector("body[data-ready='1']")
                page.wait_for_function("window.__croupier.table.live")
                page.wait_for_function(
                    "(() => { const s = window.__croupier.table.state;"
                    " return s && s.hand && s.naiko.peeks.length > 0; })()",
                    timeout=15000,
                )
                assert peeked in state(page, "s.naiko.peeks")
                assert page.is_visible("#peek:not([hidden]) #peek-cards svg")
                continue
        legal = state(page, "s.legal")
        if page.is_visible("#a-check"):
            page.click("#a-check")
        elif legal.get("can_call") and legal.get("call", 0) <= 6 and page.is_visible("#a-call"):
            page.click("#a-call")
        elif page.is_visible("#a-show"):
            page.click("#a-show")
        elif page.is_visible("#a-fold"):
            page.click("#a-fold")
        page.wait_for_function("!window.__croupier.table.busy")
    assert checked >= 2, "no turn with the server's offers"
    assert peeked is not None, "no Coup d'Œil offered in time"
