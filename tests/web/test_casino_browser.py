"""Texas Hold'em Bonus in real Chromium: two players at one casino table sharing the
dealer's deck, several rounds with the mouse (chip buttons, boxes, right-click, clear,
repeat, refusals shown), one round with the keyboard alone, the pay tables and the hint,
French, and screenshots at 1366×768 and 390×844 (R-BONUS-1 … R-BONUS-5)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.web.conftest import Page, Server
from tests.web.flows import (
    english_left,
    exchange,
    kept_through_lobbies,
    ready,
    sign_up,
    untranslated,
)

ROOT = Path(__file__).resolve().parents[2]


def cs(page: Any, expr: str) -> Any:
    """An expression over the casino state ``s`` of the page."""
    return page.evaluate(
        f"(() => {{ const s = window.__croupier.casino.state; return {expr}; }})()"
    )


def num(page: Any, sel: str) -> int:
    return int(page.inner_text(sel).replace("\u202f", "").replace("-", "0") or 0)


def open_casino(page: Any, base: str, *, kept: bool = False) -> None:
    ready(page, f"{base}/#/lobby")
    page.wait_for_selector("#casino-list button")
    if kept:  # the lobby's news leaves the casino's list as it was (a click is not lost)
        kept_through_lobbies(page, "#casino-list li[data-table='casino-1'] button")
    page.click("#casino-list li[data-table='casino-1'] button")
    page.wait_for_selector("#view-casino:not([hidden])")
    page.wait_for_function("window.__croupier.casino.state !== null")


def sit(page: Any) -> None:
    page.click("#c-sit")
    page.wait_for_selector("#c-stand:not([hidden])")
    page.wait_for_function("window.__croupier.casino.state.you !== null")


def place(page: Any, chip: int, spot: str, times: int = 1) -> None:
    page.click(f".c-chip-{chip}")
    for _ in range(times):
        page.click(f"#c-spot-{spot}")


def spot(page: Any, name: str) -> str:
    return str(page.inner_text(f"#c-spot-{name} .c-spot-amount")).strip()


def play_round_mouse(pages: list[Any], limit: float = 60) -> None:
    """Whoever has the Play/Bet button clicks it (fold/check on the river for variety)
    until every page is back to betting."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if all(cs(p, "s && s.phase === 'betting' && s.last !== null") for p in pages):
            return
        for p in pages:
            if p.is_visible("#c-play") and p.is_enabled("#c-play"):
                phase = cs(p, "s.phase")
                p.click("#c-fold" if phase == "river" else "#c-play")
                p.wait_for_timeout(150)  # poll interval: this loop looks at every page again
        pages[0].wait_for_timeout(
            100
        )  # poll interval of the bounded loop (it looks at the page again)
    raise AssertionError("the round did not end")


def test_two_players_mouse_rounds_then_keyboard_round(
    server: Server, playwright_: Any, artifacts: Path
) -> None:
    """R-BONUS-1, R-BONUS-2, R-BONUS-3, R-BONUS-5: two browser users share a casino table
    and the dealer's deck for several rounds played with the mouse, then one round is
    played with the keyboard alone; balances follow the settlements."""
    a, b = Page(playwright_, 1366, 768), Page(playwright_, 1366, 768)
    try:
        pa, pb = a.page, b.page
        for p, name in ((pa, "bonnie"), (pb, "clyde")):
            sign_up(p, server.base, name)
            exchange(p, 400)
            open_casino(p, server.base, kept=p is pa)
            sit(p)
        # -- round 1, with the mouse: chips on the boxes, right-click, refusals ----------
        assert pa.is_disabled("#c-repeat")  # repeat only from the second round
        place(pa, 5, "ante", 2)
        place(pa, 1, "bonus", 3)
        assert spot(pa, "ante") == "10" and spot(pa, "bonus") == "3"
        assert num(pa, "#c-stake") == 13 and num(pa, "#c-balance") == 400
        pa.click("#c-spot-bonus", button="right")  # takes the bonus bet back
        assert spot(pa, "bonus") == "" and num(pa, "#c-stake") == 10
        place(pa, 25, "bonus", 2)  # the second chip would make 50 > 25: refused, shown
        assert pa.is_visible("#c-message.error")
        assert "25" in pa.inner_text("#c-message") and spot(pa, "bonus") == "25"
        pa.click("#c-spot-bonus", button="right")
        assert spot(pa, "bonus") == ""
        place(pa, 500, "ante", 2)  # 1010 > 1000 and over the balance: refused
        assert spot(pa, "ante") == "10"
        place(pa, 5, "bonus")
        pa.click("#c-clear")  # clear the bet
        assert spot(pa, "ante") == "" and num(pa, "#c-stake") == 0
        pa.click("#c-deal")  # nothing placed: refused with a message
        assert pa.is_visible("#c-message.error")
        place(pa, 1, "ante")  # an ante of 1 is raised to the minimum 2
        place(pa, 5, "bonus")
        pa.click("#c-deal")
        pa.wait_for_function(
            "window.__croupier.casino.state.seats[window.__croupier.casino.state.you.seat].ready"
        )
        assert "2" in pa.inner_text("#c-message")  # the raise is said
        place(pb, 25, "ante")
        pb.click("#c-deal")
        for p in (pa, pb):
            p.wait_for_function("window.__croupier.casino.state.phase === 'preflop'")
        # one deck: both see the same (hidden) dealer, their own two cards, the other's backs
        for p in (pa, pb):
            assert p.locator("#c-hole svg.card:not(.card-back)").count() == 2
            assert p.locator("#c-dealer-cards svg.card-back").count() == 2
            assert p.locator("#c-others svg.card-back").count() == 2
        holes = [cs(p, "s.seats[s.you.seat].hole") for p in (pa, pb)]
        assert holes[0] != holes[1] and not set(holes[0][i : i + 2] for i in (0, 2)) & set(
            holes[1][i : i + 2] for i in (0, 2)
        )
        a.page.screenshot(path=str(artifacts / "casino-1366-preflop.png"))
        play_round_mouse([pa, pb])
        boards = {cs(p, "s.last.board") for p in (pa, pb)}
        dealers = {cs(p, "s.last.dealer") for p in (pa, pb)}
        assert len(boards) == 1 and len(dealers) == 1  # the same deck for both
        for p in (pa, pb):
            p.wait_for_selector("#c-result:not([hidden])")
            mine = cs(p, "s.last.results.find(r => r.seat === s.you.seat)")
            assert num(p, "#c-balance") == 400 - mine["wagered"] + mine["paid"]
        a.page.screenshot(path=str(artifacts / "casino-1366-result.png"))
        # -- rounds 2 and 3, with the mouse: repeat the bet ---------------------------
        for _ in range(2):
            for p in (pa, pb):
                p.click("#c-repeat")
                p.click("#c-deal")
            for p in (pa, pb):
                p.wait_for_function("window.__croupier.casino.state.phase !== 'betting'")
            play_round_mouse([pa, pb])
        assert cs(pa, "s.last.round_no") >= 3
        assert cs(pa, "s.last.results.length") == 2
        # -- one round with the keyboard alone (player A; B stands up) -------------------
        pb.click("#c-stand")
        pa.wait_for_function("window.__croupier.casino.state.seats.filter(Boolean).length === 1")
        pa.locator("body").focus()
        before = num(pa, "#c-balance")
        pa.keyboard.press("0")  # repeat: ante 2, bonus 5
        assert spot(pa, "ante") == "2" and spot(pa, "bonus") == "5"
        pa.keyboard.press("Delete")  # clear
        assert spot(pa, "ante") == "" and num(pa, "#c-stake") == 0
        pa.keyboard.press("0")
        pa.keyboard.press(".")  # "." clears too
        assert spot(pa, "ante") == ""
        pa.keyboard.press("0")
        pa.keyboard.press("Enter")  # deal
        pa.wait_for_function("window.__croupier.casino.state.phase === 'preflop'")
        pa.wait_for_selector("#c-play:not([hidden])")
        pa.keyboard.press("Enter")  # play: the flop bet of 2x ante
        pa.wait_for_function("window.__croupier.casino.state.phase === 'turn'")
        assert spot(pa, "flop") == "4"
        pa.wait_for_selector("#c-play:not([hidden])")
        pa.keyboard.press("-")  # check the turn
        pa.wait_for_function("window.__croupier.casino.state.phase === 'river'")
        pa.wait_for_selector("#c-play:not([hidden])")
        pa.keyboard.press("Enter")  # bet the river
        pa.wait_for_function("window.__croupier.casino.state.phase === 'betting'")
        mine = cs(pa, "s.last.results.find(r => r.seat === s.you.seat)")
        assert mine["stakes"] == {"ante": 2, "bonus": 5, "flop": 4, "turn": 0, "river": 2}
        pa.wait_for_function(
            f"Number(document.querySelector('#c-balance').textContent.replace(/\\u202f/g, '')) === {before - 13 + mine['paid']}"
        )
        # a fold with "-" before the flop
        pa.keyboard.press("0")
        pa.keyboard.press("Enter")
        pa.wait_for_selector("#c-play:not([hidden])")
        pa.keyboard.press("-")
        pa.wait_for_function("window.__croupier.casino.state.phase === 'betting'")
        assert cs(pa, "s.last.results[0].outcome") == "fold"
        assert a.unexpected() == [] and b.unexpected() == []
    finally:
        a.close()
        b.close()


def test_pay_tables_hint_french_and_phone(
    server: Server, playwright_: Any, artifacts: Path
) -> None:
    """R-BONUS-3, R-BONUS-4: the pay tables and the exact returns are shown; the strategy
    hint gives the optimal move; the page is fully French in French; it fits a phone."""
    p = Page(playwright_, 390, 844)
    try:
        page = p.page
        sign_up(page, server.base, "hinty")
        exchange(page, 200)
        open_casino(page, server.base)
        sit(page)
        rows = page.locator("#c-bonus-table tr").count()
        assert rows == 8
        assert "1000" in page.inner_text("#c-bonus-table") and "-2.0369 %" in page.inner_text(
            "#c-returns"
        )
        assert "-8.5406 %" in page.inner_text("#c-returns")
        page.check("#c-hint-on")
        place(page, 5, "ante")
        page.click("#c-deal")
        page.wait_for_selector("#c-play:not([hidden])")
        page.wait_for_function(
            "/optimal|optimal/i.test(document.querySelector('#c-hint').textContent) && !/…/.test(document.querySelector('#c-hint').textContent)"
        )
        page.click("#c-play") if page.is_enabled("#c-play") else page.click("#c-fold")
        page.wait_for_function("window.__croupier.casino.state.phase !== 'preflop'")
        if cs(page, "s.phase") == "turn":
            page.wait_for_function(
                "/%/.test(document.querySelector('#c-hint').textContent)", timeout=30000
            )
            page.screenshot(path=str(artifacts / "casino-390-turn.png"), full_page=True)
        # French
        page.select_option("#lang", "fr")
        page.wait_for_function("document.querySelector('.c-wallet').innerText.includes('Solde')")
        assert page.inner_text("#c-balance").strip() != ""
        assert "Solde" in page.inner_text(".c-wallet") and "Mise" in page.inner_text(".c-wallet")
        assert untranslated(page) == []
        assert english_left(page) == []
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 392, width  # no horizontal scrolling on a phone
        page.screenshot(path=str(artifacts / "casino-390-fr.png"), full_page=True)
        assert p.unexpected() == []
    finally:
        p.close()
