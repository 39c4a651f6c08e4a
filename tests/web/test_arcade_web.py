"""The arcade in real Chromium, in English and French (seed 000, issue #14): the entry icon
at the top right shows only while the arcade is available; the "level 6 needed, you are
level N" message comes before any buy-in dialog; the quick match tells a waiting player
how many wait, for how long and when the table starts, and can be cancelled; the points
shop buys and equips. Screenshots at 1366×768 and 390×844 go to test-artifacts/."""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import pytest

from croupier.engine.cards import Card
from croupier.store import open_store
from croupier.table.journal import HandEndRecord, HandStartRecord
from croupier.table.seating import Seat
from tests.web.conftest import ARTIFACTS, Page, Server, _need_chromium
from tests.web.flows import english_left, exchange, ready, sign_up, untranslated


def _db(server: Server) -> str:
    return str(server.dir / "croupier.sqlite3")


def _user_id(server: Server, name: str) -> int:
    with sqlite3.connect(_db(server)) as conn:
        row = conn.execute("SELECT id FROM users WHERE name_key = ?", (name.lower(),)).fetchone()
    return int(row[0])


def _set_level_6(server: Server, name: str) -> None:
    """1 000 experience: level 6 (what 100 hands dealt in earn)."""
    with sqlite3.connect(_db(server)) as conn:
        conn.execute("UPDATE users SET experience = 1000 WHERE name_key = ?", (name.lower(),))


def _earn_points(server: Server, name: str, points: int) -> None:
    """Points from a settled arcade hand, journaled through the store as a table writes it."""
    uid = _user_id(server, name)
    table = f"arcade-web-{uid}"
    seats = (Seat(0, str(uid), stack=0),)
    with open_store(f"sqlite:///{_db(server)}") as store:
        store.journal.append(
            table,
            HandStartRecord(
                1,
                seats,
                (0,),
                (str(uid),),
                (0,),
                0,
                hashlib.sha256(table.encode()).hexdigest(),
                tuple(Card(n) for n in range(52)),
                b"salt",
            ),
        )
        store.journal.append(table, HandEndRecord(1, seats, (0,), 0, (points,)))


def _lang(page: Any, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate("document.querySelector('#toast').hidden = true")  # a passing toast
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


@pytest.fixture
def closed_server() -> Iterator[Server]:
    """A server whose arcade opens two hours from now only (CROUPIER_ARCADE_HOURS)."""
    _need_chromium()
    hour = time.gmtime().tm_hour
    s = Server()
    base_env = s.env
    hours = f"{(hour + 2) % 24:02d}:00-{(hour + 3) % 24:02d}:00"
    s.env = lambda: {**base_env(), "CROUPIER_ARCADE_HOURS": hours}  # type: ignore[method-assign]
    s.start()
    yield s
    s.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_entry_icon_and_level_message_before_any_buy_in(
    server: Server, browser_page: Page, lang: str
) -> None:
    """Seed 000 (participation): the arcade icon at the top right is shown while the arcade
    is open (always, by default) and leads to the arcade page; a level-1 player reads
    "level 6 needed, you are level 1" on that page (the quick match button is disabled) and,
    from the lobby's arcade table, in a dialog that opens instead of the buy-in dialog
    (R-SEAT-2). The account page says how experience is earned."""
    page = browser_page.page
    sign_up(page, server.base, f"gate_{lang}")
    _lang(page, lang)
    entry = page.locator("#arcade-entry")
    entry.wait_for(state="visible")
    box = entry.bounding_box()
    assert box is not None and box["x"] > 1280 / 2  # at the top right
    assert box["y"] < 80
    entry.click()
    page.wait_for_selector("#view-arcade:not([hidden])")
    gate = page.locator("#arcade-gate")
    gate.wait_for(state="visible")
    text = gate.inner_text()
    if lang == "en":
        assert "level 6" in text and "level 1" in text
    else:
        assert "niveau 6" in text and "niveau 1" in text
    assert page.locator("#arcade-quick").is_disabled()
    assert untranslated(page) == []
    if lang == "fr":
        assert english_left(page) == []
    # From the lobby: the arcade table's Play gives the level message, not the buy-in dialog.
    page.click("nav a[data-view=lobby]")
    page.click("tr[data-table='arcade-1-2'] button.primary")
    page.wait_for_selector("#level-dialog[open]")
    assert page.locator("#sit-dialog[open]").count() == 0
    msg = page.inner_text("#level-text")
    assert ("level 6" in msg) if lang == "en" else ("niveau 6" in msg)
    assert page.inner_text("#level-xp")  # how to earn experience
    page.click("#level-ok")
    page.wait_for_selector("#level-dialog:not([open])", state="attached")
    assert page.locator("#sit-dialog[open]").count() == 0
    # The table page itself never opens the buy-in dialog for a gated player either.
    page.goto(f"{server.base}/#/table/arcade-1-2")
    # the table view has the server's answer to its subscription (a snapshot, or the
    # refusal a player not seated at an arcade table gets): any dialog would be open now
    page.wait_for_function(
        "(() => { const t = window.__croupier.table; return t.tableId === 'arcade-1-2'"
        " && (t.live || !document.querySelector('#toast').hidden); })()"
    )
    assert page.locator("#sit-dialog[open]").count() == 0
    # The account page: how experience is earned, and both kinds of diamonds.
    page.goto(f"{server.base}/#/account")
    page.wait_for_selector("#profile:not([hidden])")
    rule = page.inner_text("#acc-xp-rule")
    assert "10" in rule and "5" in rule and "100" in rule  # level 2 at 100 experience
    assert "1\u202f000" in rule  # the arcade's level 6 at 1 000
    assert page.inner_text("#acc-bound") == "0"


def test_entry_icon_hidden_while_the_arcade_is_closed(
    closed_server: Server, browser_page: Page
) -> None:
    """Seed 000: "cette icône apparaît quand l'activité est disponible": outside the
    windows of CROUPIER_ARCADE_HOURS the icon is not shown, the arcade page says when it
    opens, and an arcade table's Play says it is closed instead of opening the buy-in."""
    page = browser_page.page
    sign_up(page, closed_server.base, "night_owl")
    # the arcade's status (GET /api/arcade) is known, and drawn
    page.wait_for_function("window.__croupier.arcade && window.__croupier.arcade.status !== null")
    assert page.locator("#arcade-entry").is_hidden()
    page.goto(f"{closed_server.base}/#/arcade")
    page.wait_for_selector("#view-arcade:not([hidden])")
    page.wait_for_function("document.querySelector('#arcade-hours').textContent.includes('closed')")
    assert page.locator("#arcade-quick").is_disabled()
    # An arcade table of the lobby: "closed" comes instead of the buy-in dialog.
    page.click("nav a[data-view=lobby]")
    page.click("tr[data-table='arcade-1-2'] button.primary")
    page.wait_for_function("document.querySelector('#toast').textContent.includes('closed')")
    assert page.locator("#sit-dialog[open]").count() == 0


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_quick_match_feedback_cancel_and_match(server: Server, playwright_: Any, lang: str) -> None:
    """R-SEAT-2 (quick match): a lone player is told they are alone and for how long; they
    can cancel; when a second player queues, both read how many wait and in how many
    seconds the table starts, then land on the same arcade table, where each sees the
    other's avatar and card back from the points shop (R-ACC-1)."""
    pages = [Page(playwright_, 1366, 768), Page(playwright_, 390, 844)]
    names = [f"qa_{lang}", f"qb_{lang}"]
    try:
        for p, name in zip(pages, names, strict=True):
            sign_up(p.page, server.base, name)
            exchange(p.page, 200)
            _set_level_6(server, name)
            ready(p.page, f"{server.base}/#/arcade")
            _lang(p.page, lang)
        a, b = (p.page for p in pages)
        # The first player wears a bought avatar and card back: the other one sees them.
        _earn_points(server, names[0], 600)
        uid = _user_id(server, names[0])
        with open_store(f"sqlite:///{_db(server)}") as store:
            for item in ("avatar_fox", "back_crimson"):
                store.shop.buy(uid, item)
                store.shop.equip(uid, item)
        a.wait_for_selector("#arcade-quick:not([disabled])")
        a.click("#arcade-quick")
        alone = "only player" if lang == "en" else "seul joueur"
        a.wait_for_function(
            f"document.querySelector('#arcade-queue').textContent.includes({alone!r})"
        )
        _shot(a, f"arcade-quick-alone-{lang}-1366")
        a.click("#arcade-quick")  # cancel
        idle = "Not in the queue" if lang == "en" else "pas dans la file"
        a.wait_for_function(
            f"document.querySelector('#arcade-queue').textContent.includes({idle!r})"
        )
        a.click("#arcade-quick")
        a.wait_for_function(
            f"document.querySelector('#arcade-queue').textContent.includes({alone!r})"
        )
        b.wait_for_selector("#arcade-quick:not([disabled])")
        b.click("#arcade-quick")
        two = "2 players waiting" if lang == "en" else "2 joueurs en attente"
        for pg in (a, b):
            pg.wait_for_function(
                f"document.querySelector('#arcade-queue').textContent.includes({two!r})"
            )
        _shot(b, f"arcade-quick-gathering-{lang}-390")
        icon = b.locator("#arcade-entry").bounding_box()
        assert icon is not None and icon["x"] > 390 * 0.75 and icon["y"] < 60  # top right
        _shot(a, f"arcade-quick-gathering-{lang}-1366")
        assert untranslated(a) == [] and untranslated(b) == []
        if lang == "fr":
            assert english_left(a) == [] and english_left(b) == []
        for pg in (a, b):
            pg.wait_for_function("location.hash.startsWith('#/table/arcade-qm-')", timeout=20000)
        assert a.evaluate("location.hash") == b.evaluate("location.hash")
        seat = b.locator(f".seat:has-text('{names[0]}')")
        seat.locator("img.avatar[data-look='avatar_fox']").wait_for()
        # (the seats are redrawn at each event: read them afresh in the page)
        b.wait_for_function(
            """name => [...document.querySelectorAll('.seat')].some(n => n.textContent.includes(name)
                && getComputedStyle(n).getPropertyValue('--card-back').trim() === '#9c1f2e')""",
            arg=names[0],
        )  # crimson
        _shot(b, f"arcade-table-{lang}-390")
        _shot(a, f"arcade-table-{lang}-1366")
        # The first hand ends (by the 15 s clock if nobody acts): the log tells each player
        # the levy and their points (R-RAKE-3).
        levy = "you earn" if lang == "en" else "vous gagnez"
        for pg in (a, b):
            pg.wait_for_function(
                f"document.querySelector('#log').textContent.includes({levy!r})", timeout=40000
            )
        assert (
            b.locator(
                f".seat:has-text('{names[1]}') img.avatar[data-look='avatar_default']"
            ).count()
            == 1
        )
        for p in pages:
            assert p.unexpected() == [], p.unexpected()
    finally:
        for p in pages:
            p.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_points_shop_buy_equip_in_the_browser(server: Server, playwright_: Any, lang: str) -> None:
    """R-ACC-1 (points shop): the shop lists card backs, felts, avatars and emote sets with
    prices; an item too dear says how many points are missing; buying takes the points
    and the item can be equipped (and taken off); the account shows the points left."""
    for width, height in ((1366, 768), (390, 844)):
        p = Page(playwright_, width, height)
        name = f"shop_{lang}_{width}"
        try:
            page = p.page
            sign_up(page, server.base, name)
            _earn_points(server, name, 500)
            ready(page, f"{server.base}/#/shop")
            _lang(page, lang)
            page.wait_for_selector(".shop-item[data-item='avatar_fox']")
            assert page.inner_text("#shop-points").replace("\u202f", "") == "500"
            crown = page.locator(".shop-item[data-item='avatar_crown'] button")
            assert crown.is_disabled()
            assert "2\u202f500" in crown.inner_text()
            _shot(page, f"shop-{lang}-{width}")
            page.click(".shop-item[data-item='avatar_fox'] button")
            page.wait_for_function(
                "document.querySelector('#shop-points').textContent.replace(/\\u202f/g, '') === '300'"
            )
            page.click(".shop-item[data-item='avatar_fox'] button")  # equip
            page.wait_for_selector(".shop-item.equipped[data-item='avatar_fox']")
            assert page.locator(".shop-item.equipped[data-item='avatar_default']").count() == 0
            page.click(".shop-item[data-item='avatar_fox'] button")  # take it off
            page.wait_for_selector(".shop-item.equipped[data-item='avatar_default']")
            # The images are files of the client (no emoji font needed): they loaded.
            loaded = page.eval_on_selector_all(
                ".shop-item img", "imgs => imgs.every(i => i.complete && i.naturalWidth > 0)"
            )
            assert loaded
            assert untranslated(page) == []
            if lang == "fr":
                assert english_left(page) == []
                assert "Magasin du score" in page.inner_text("#shop-title")
            assert p.unexpected() == [], p.unexpected()
        finally:
            p.close()
