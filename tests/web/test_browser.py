"""The browser client end to end against a real server (see conftest.py).

R-ACC-1 (diamonds → chips), R-SEAT-1 (buy-in in range), R-BET-8 (only legal actions, raise
bounds), R-LOBBY-1 (table list), R-FAIR-1 (others' cards stay hidden), reconnection."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import time
from pathlib import Path
from typing import Any

from tests.web.conftest import ROOT, Page, Server
from tests.web.flows import (
    PASSWORD,
    english_left,
    exchange,
    play_to_showdown,
    ready,
    sign_up,
    state,
    untranslated,
)


def name() -> str:
    return f"p{secrets.token_hex(4)}"


def test_sign_up_exchange_play_with_the_mouse_and_replay(
    server: Server, browser_page: Page, artifacts: Any
) -> None:
    """R-ACC-1, R-SEAT-1, R-BET-8, R-LOBBY-1: sign up, buy chips with diamonds, sit at a
    table with bots, play with the mouse to a showdown, see the chips move, then open the
    hand in the replayer and download it as PHH and PokerStars text."""
    page = browser_page.page
    sign_up(page, server.base, name())
    diamonds = int(page.inner_text("#acc-diamonds").replace("\u202f", ""))
    exchange(page, 300)
    assert int(page.inner_text("#acc-diamonds").replace("\u202f", "")) == diamonds - 300

    page.click("nav a[data-view=lobby]")
    page.wait_for_selector("#tables tbody tr[data-table='nlhe-1-2']")
    assert untranslated(page) == []
    page.screenshot(path=str(artifacts / "lobby.png"))
    # Filters: one game keeps only its tables.
    page.select_option("#f-game", "plo")
    assert page.eval_on_selector_all("#tables tbody tr", "rs => rs.map(r => r.dataset.table)") == [
        "plo-1-2"
    ]
    page.select_option("#f-game", "")

    page.click("#tables tbody tr[data-table='nlhe-1-2'] button.primary")
    page.wait_for_selector("#sit-dialog[open]")
    assert page.get_attribute("#sit-amount", "min") == "80"
    assert page.get_attribute("#sit-amount", "max") == "400"
    page.fill("#sit-amount", "5000")  # out of range: refused by the page, nothing sent
    page.evaluate("document.querySelector('#toast').hidden = true")  # an earlier toast
    page.click("#sit-form button[type=submit]")
    page.wait_for_selector("#toast:not([hidden])")
    assert page.is_visible("#sit-dialog[open]")
    page.fill("#sit-amount", "200")
    page.click("#sit-form button[type=submit]")
    page.wait_for_selector(".seat.me")
    # 200 bought in, less a blind when the next hand deals me in at once (its first events
    # can come in the frame of the sit's ack: the seat is first drawn with the blind posted)
    assert 198 <= int(page.inner_text(".seat.me .chips")) <= 200
    assert page.is_visible(".seat .tag-bot")
    # On my turn my seat shows the countdown from the server's deadline (30 s at a room table).
    page.wait_for_selector("#actionbar:not([hidden])", timeout=60000)
    page.wait_for_selector(".seat.me .timer:not([hidden])")
    assert 1 <= int(page.inner_text(".seat.me .timer .secs")) <= 30
    # The bar offers only legal actions and bounds the amount by the server's min and max.
    legal = state(page, "s.legal")
    assert page.is_visible("#a-check") == legal["can_check"]
    assert page.is_visible("#a-call") == legal["can_call"]
    # R-BET-9: at room tables the field also takes an under-raise (above the call)
    lenient = legal["round_up_from"] > legal["call_above"]
    low = min(legal["min_raise"], legal["call_above"] + 1) if lenient else legal["min_raise"]
    assert page.get_attribute("#amount", "min") == str(low)
    assert page.get_attribute("#amount", "max") == str(legal["max_raise"])
    page.click("[data-preset=max]")
    assert page.input_value("#amount") == str(legal["max_raise"])

    # Others' down cards are drawn as backs; nobody's hidden card text reaches the page.
    seen = play_to_showdown(page, keyboard=False, raise_once=True)
    assert seen["acted"] >= 1 and seen["raised"]
    assert seen["before"] != seen["after"], "no chips moved"
    assert seen["awards"] >= 1
    assert state(
        page,
        "s.log.some(e => e.key === 'log.acted.raise' || e.key === 'log.acted.bet' || e.key === 'log.acted.all_in')",
    )
    page.screenshot(path=str(artifacts / "table.png"))
    readme_shot = ROOT / "docs" / "img" / "table.png"
    if os.environ.get("CROUPIER_UPDATE_SCREENSHOT") or not readme_shot.exists():
        readme_shot.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(artifacts / "table.png", readme_shot)

    page.click("nav a[data-view=history]")
    page.wait_for_selector("#hands tbody tr")
    page.click("#hands tbody tr:first-child button.replay")
    page.wait_for_selector("#replayer:not([hidden])")
    first = page.inner_text("#replay-step")
    page.click("#r-next")
    assert page.inner_text("#replay-step") != first
    page.click("#r-last")
    assert page.is_disabled("#r-next")
    assert page.locator("#replay-table .replay-players li").count() >= 2
    with page.expect_download() as dl:
        page.click("#hands tbody tr:first-child a[href$='.phh']")
    phh = Path(dl.value.path()).read_text(encoding="utf-8")
    assert "actions = [" in phh and "starting_stacks" in phh
    with page.expect_download() as dl:
        page.click("#hands tbody tr:first-child a[href$='.txt']")
    txt = Path(dl.value.path()).read_text(encoding="utf-8")
    assert txt.startswith("PokerStars Hand #")


def test_private_table_keyboard_and_french(
    server: Server, browser_page: Page, artifacts: Any
) -> None:
    """R-BET-8: a private table with bots created from the lobby (invitation code and link),
    played with the keyboard only (R then Enter raises, C checks or calls, S shows), in
    French: every visible text is translated."""
    page = browser_page.page
    sign_up(page, server.base, name())
    exchange(page, 1000)
    page.select_option("#lang", "fr")
    page.click("nav a[data-view=lobby]")
    page.fill("#p-sb", "5")
    page.fill("#p-bb", "10")
    page.fill("#p-seats", "4")
    page.check("#p-bots")
    page.click("#private-form button[type=submit]")
    page.wait_for_selector("#private-result:not([hidden])")
    code = page.inner_text("#invite-code")
    assert re.fullmatch(r"[A-Z2-9]{6,12}", code)
    assert page.input_value("#invite-link").endswith(f"#/join/{code}")
    page.click("#invite-open")
    page.wait_for_selector("#t-sit:not([hidden])")
    page.focus("#t-sit")
    page.keyboard.press("Enter")
    page.wait_for_selector("#sit-dialog[open]")
    assert page.get_attribute("#sit-amount", "max") == "2000"
    page.keyboard.press("Enter")
    page.wait_for_selector(".seat.me")
    seen = play_to_showdown(page, keyboard=True, raise_once=True)
    assert seen["raised"] and seen["before"] != seen["after"]
    assert state(
        page,
        "s.log.some(e => ['log.acted.raise', 'log.acted.bet', 'log.acted.all_in'].includes(e.key))",
    )
    assert page.inner_text("#results h2") == "Abattage"
    assert untranslated(page) == []
    assert english_left(page) == []
    page.screenshot(path=str(artifacts / "table-fr.png"))
    # Back to English, in place.
    page.select_option("#lang", "en")
    assert page.inner_text("nav a[data-view=lobby]") == "Lobby"


def test_every_view_translated_both_ways(server: Server, browser_page: Page) -> None:
    """Switching the language re-translates every view in place; nothing visible stays
    untranslated in either language (guest: lobby, account, history; then a watched table)."""
    page = browser_page.page
    ready(page, f"{server.base}/#/lobby")
    page.wait_for_selector("#tables tbody tr")
    for lang in ("fr", "en", "fr"):
        page.select_option("#lang", lang)
        for view in ("lobby", "account", "history"):
            page.click(f"nav a[data-view={view}]")
            page.wait_for_selector(f"#view-{view}:not([hidden])")
            assert untranslated(page) == [], (lang, view)
            if lang == "fr":
                assert english_left(page) == [], view
    page.goto(f"{server.base}/#/table/nlhe-1-2")
    page.wait_for_selector(".seat .tag-bot")
    assert untranslated(page) == []
    assert english_left(page) == []
    assert page.inner_text("nav a[data-view=history]") == "Historique"


def test_reconnects_after_a_dropped_socket_and_a_server_restart(
    own_server: Server, browser_page: Page
) -> None:
    """A lost connection shows a banner, reconnects by itself with backoff, and resumes the
    table (from the last version, or a snapshot after the restart); a click while offline
    counts for nothing."""
    page = browser_page.page
    browser_page.allow(r"WebSocket connection to .* failed")
    browser_page.allow(r"Failed to load resource: net::ERR_CONNECTION_REFUSED")
    sign_up(page, own_server.base, name())
    exchange(page, 300)
    page.goto(f"{own_server.base}/#/table/nlhe-1-2")
    page.wait_for_selector("#t-sit:not([hidden])")
    page.click("#t-sit")
    page.click("#sit-form button[type=submit]")
    page.wait_for_selector(".seat.me")

    version = state(page, "s.version")
    page.evaluate("window.__croupier.net.drop()")
    page.wait_for_selector("#banner:not([hidden])")
    page.wait_for_function("window.__croupier.net.status === 'open'")
    page.wait_for_function(f"window.__croupier.table.state.version > {version}")
    assert page.is_visible(".seat.me")

    own_server.stop()
    page.wait_for_selector("#banner[data-state='lost']")
    assert page.evaluate("window.__croupier.net.status") in ("lost", "connecting")
    # Nothing counts while offline: a command resolves as refused, not as done.
    ack = page.evaluate("window.__croupier.net.command({type: 'sit_out', table_id: 'nlhe-1-2'})")
    assert ack["accepted"] is False and ack["code"] == "disconnected"
    own_server.start()
    # a restart restores every journaled table first: generous bounds on a loaded machine
    page.wait_for_function("window.__croupier.net.status === 'open'", timeout=60000)
    page.wait_for_selector("#banner[data-state='ok']", timeout=30000)
    epoch = state(page, "s.epoch")
    page.wait_for_function(
        f"window.__croupier.table.state.epoch === {epoch} && window.__croupier.table.state.version > 0",
        timeout=60000,
    )
    assert page.locator(".seat .tag-bot").count() >= 1


def test_phone_screen(server: Server, phone_page: Page, artifacts: Any) -> None:
    """At 390×844 nothing overflows sideways: the lobby, the table and the action bar fit."""
    page = phone_page.page
    sign_up(page, server.base, name())
    exchange(page, 300)
    page.click("nav a[data-view=lobby]")
    page.wait_for_selector("#tables tbody tr")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("#tables tbody tr[data-table='plo-1-2'] button.primary")
    page.wait_for_selector("#sit-dialog[open]")
    page.click("#sit-form button[type=submit]")
    page.wait_for_selector(".seat.me")
    page.wait_for_selector("#actionbar:not([hidden])", timeout=60000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("#actionbar").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    for seat in page.locator(".seat").all():
        b = seat.bounding_box()
        assert b is not None and b["x"] >= -1 and b["x"] + b["width"] <= 391
    page.screenshot(path=str(artifacts / "table-phone.png"))


def test_naiko_panel_for_a_spectator(server: Server, browser_page: Page) -> None:
    """R-NAIKO-2..8 (display): a Naiko table shows the four powers with their cost and a
    tooltip in each language, the Destellos counter, and nothing usable for a spectator."""
    page = browser_page.page
    ready(page, f"{server.base}/#/table/naiko-1-2")
    page.wait_for_selector("#naiko:not([hidden])")
    powers = page.locator("#carrousel .power")
    assert powers.count() == 4
    assert page.locator("#carrousel .power-btn:enabled").count() == 0
    # the costs are the server's (naiko.costs, with the next status the table sends)
    page.wait_for_function("document.querySelectorAll('#carrousel .cost').length === 4")
    costs = page.eval_on_selector_all("#carrousel .cost", "ns => ns.map(n => n.textContent)")
    assert costs == ["1 Destello", "2 Destellos", "2 Destellos", "1 Destello"]  # no "(s)"
    assert re.fullmatch(r"[0-3]/3", page.inner_text("#destellos"))
    tips_en = page.eval_on_selector_all(
        "#carrousel [role=tooltip]", "ns => ns.map(n => n.textContent)"
    )
    page.select_option("#lang", "fr")
    tips_fr = page.eval_on_selector_all(
        "#carrousel [role=tooltip]", "ns => ns.map(n => n.textContent)"
    )
    assert all(tips_en) and all(tips_fr) and tips_en != tips_fr
    assert untranslated(page) == []


def test_client_modules_in_the_page(server: Server, browser_page: Page) -> None:
    """R-POT-3 (side pots by all-in level, for display), the PHH replayer's arithmetic and
    the hand names in French, run as the page's own ES modules."""
    page = browser_page.page
    ready(page, f"{server.base}/#/lobby")
    out = page.evaluate(
        """async () => {
      const { sidePots } = await import('/js/tablestate.js');
      const { parsePhh, replay } = await import('/js/phh.js');
      const { handName } = await import('/js/hands.js');
      const { setLang } = await import('/js/i18n.js');
      const pots = sidePots([
        { contributed: 50, folded: false, all_in: true },
        { contributed: 200, folded: false, all_in: false },
        { contributed: 200, folded: false, all_in: false },
        { contributed: 20, folded: true, all_in: false },
      ]);
      const phh = parsePhh(`variant = "NT"\\nantes = [0, 0]\\nblinds_or_straddles = [1, 2]\\n` +
        `min_bet = 2\\nstarting_stacks = [100, 100]\\nactions = ["d dh p1 AsKs", "d dh p2 ????",\\n` +
        ` "p1 cbr 6", "p2 cc", "d db 7c8c9c", "p2 cc", "p1 cbr 10", "p2 f"]\\n` +
        `players = ["ann", "bob"]\\nfinishing_stacks = [106, 94]\\n`);
      const states = replay(phh);
      setLang('fr');
      const fr = handName('Full house, kings full of nines');
      setLang('en');
      return { pots, steps: states.length, afterRaise: states[3].bets, end: states[states.length - 1].stacks,
               note: states[7].note.key, cards: states[2].cards[1], fr };
    }"""
    )
    assert out["pots"] == [
        {"amount": 170, "eligible": [0, 1, 2]},
        {"amount": 300, "eligible": [1, 2]},
    ]
    assert out["steps"] == 10
    assert out["afterRaise"] == [6, 2]
    assert out["note"] == "replay.bet"  # the first bet of the flop
    assert out["cards"] == [None, None]
    assert out["end"] == [106, 94]
    assert out["fr"] == "Full aux rois par les neuf"


def test_draw_game_discards_chosen_cards(server: Server, browser_page: Page) -> None:
    """R-DRAW-1..2 (client side): at a private Five-Card Draw table with bots, the draw
    phase shows the cards as checkboxes bounded by max_discards; the chosen cards are
    discarded with D and the server deals as many back."""
    page = browser_page.page
    sign_up(page, server.base, name())
    exchange(page, 1000)
    page.click("nav a[data-view=lobby]")
    page.select_option("#p-game", "5cd")
    page.fill("#p-seats", "3")
    page.check("#p-bots")
    page.click("#private-form button[type=submit]")
    page.wait_for_selector("#private-result:not([hidden])")
    page.click("#invite-open")
    page.wait_for_selector("#t-sit:not([hidden])")
    page.click("#t-sit")
    page.click("#sit-form button[type=submit]")
    page.wait_for_selector(".seat.me")
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if page.is_visible("#a-draw") and not page.evaluate("window.__croupier.table.busy"):
            before = page.eval_on_selector_all(
                ".seat.me svg.card", "ns => ns.map(n => n.dataset.card)"
            )
            assert len(before) == 5 and all(before)
            page.click(".seat.me svg.card >> nth=0")
            page.click(".seat.me svg.card >> nth=1")
            assert page.locator(".seat.me svg.card[aria-checked=true]").count() == 2
            page.keyboard.press("d")
            page.wait_for_function(
                "window.__croupier.table.state.log.some(e => e.key === 'log.drew')"
            )
            page.wait_for_function(
                f"(() => {{ const c = [...document.querySelectorAll('.seat.me svg.card')].map(n => n.dataset.card);"
                f" return c.length === 5 && !c.includes({before[0]!r}) && !c.includes({before[1]!r}); }})()"
            )
            after = page.eval_on_selector_all(
                ".seat.me svg.card", "ns => ns.map(n => n.dataset.card)"
            )
            assert set(before[2:]) <= set(after)
            return
        if page.is_visible("#actionbar") and not page.evaluate("window.__croupier.table.busy"):
            for sel in ("#a-check", "#a-call", "#a-show"):
                if page.is_visible(sel):
                    page.click(sel)
                    break
        page.wait_for_timeout(100)  # poll interval of the bounded loop (it looks at the page again)
    raise AssertionError("no draw in 60 s")


def test_sit_out_sit_in_and_leave(server: Server, browser_page: Page) -> None:
    """R-SEAT-1, R-SEAT-3: sit out and back in, then leave: the stack goes back to the
    account once the seat is given up (each step waits for the server's ack)."""
    page = browser_page.page
    sign_up(page, server.base, name())
    exchange(page, 500)
    page.goto(f"{server.base}/#/table/flhe-2-4")
    page.wait_for_selector("#t-sit:not([hidden])")
    page.click("#t-sit")
    page.fill("#sit-amount", "100")
    page.click("#sit-form button[type=submit]")
    page.wait_for_selector(".seat.me")
    page.click("#t-sitout")
    page.wait_for_selector("#t-sitin:not([hidden])")
    assert page.is_visible(".seat.me .status")
    page.click("#t-sitin")
    page.wait_for_selector("#t-sitout:not([hidden])")
    page.fill("#chat-text", "hello   table")
    page.click("#chat-form button[type=submit]")
    page.wait_for_selector("#chat-lines li:has-text('hello table')")
    assert page.input_value("#chat-text") == ""
    page.click("#t-leave")
    page.wait_for_selector(".seat.me", state="detached", timeout=60000)
    page.click("nav a[data-view=account]")
    page.wait_for_function("window.__croupier.account && window.__croupier.account.chips > 400")
    who = page.inner_text("#who")
    page.click("#logout")
    page.wait_for_selector("#auth:not([hidden])")
    assert page.inner_text("#who") == "Guest"
    page.wait_for_function("window.__croupier.net.welcome && window.__croupier.net.welcome.guest")
    page.fill("#login-name", who)
    page.fill("#login-password", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_function(
        "window.__croupier.net.welcome && window.__croupier.net.welcome.guest === false"
    )
    assert page.inner_text("#who") == who
    assert page.is_hidden("#banner") or page.get_attribute("#banner", "data-state") == "ok"
