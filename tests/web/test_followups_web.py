"""The browser client's side of the protocol follow-ups: countdowns on the server's table
clock (``now`` in every frame, after a time bank too), the bring-in and split buttons of
the action bar, the replayer built from the hand's archived events (hand names, side
pots), and a private table's settings for a player who joins by code, who then offers a
split at a 32-Card Draw table with a bot."""

from __future__ import annotations

import secrets
import time
from typing import Any

from croupier.engine.actions import call, check, raise_to
from croupier.engine.cards import parse_cards
from croupier.engine.game import Game
from croupier.engine.state import apply, auto_showdown_action, legal_actions, start_hand
from croupier.history.download import hand_json
from tests.web.conftest import Page, Server
from tests.web.flows import exchange, history_row, ready, sign_up, state, untranslated


def name() -> str:
    return f"f{secrets.token_hex(4)}"


def _quiet_private_table(page: Any, base: str, game: str = "nlhe") -> str:
    """Sign up, create a heads-up private table without bots and sit there alone (no hand
    starts, so nothing but the test's frames reaches the table view); returns its code."""
    sign_up(page, base, name())
    exchange(page, 500)
    page.click("nav a[data-view=lobby]")
    page.select_option("#p-game", game)
    page.fill("#p-sb", "1")
    page.fill("#p-bb", "2")
    page.fill("#p-seats", "2")
    page.uncheck("#p-bots")
    page.click("#private-form button[type=submit]")
    page.wait_for_selector("#private-result:not([hidden])")
    code = page.inner_text("#invite-code")
    page.click("#invite-open")
    page.wait_for_selector("#t-sit:not([hidden])")
    page.click("#t-sit")
    page.wait_for_selector("#sit-dialog[open]")
    page.fill("#sit-amount", "100")
    page.click("#sit-form button[type=submit]")
    page.wait_for_selector(".seat.me")
    return str(code)


BAR_WIDTH = "parseFloat(document.querySelector('.seat.me .timer .bar').style.width)"

# The test drives the table view with frames of its own (a fake page clock, the server's
# command answered at once) and records the commands the bar sends.
INJECT_JS = """
() => {
  const tv = window.__croupier.table;
  window.__sent = [];
  window.__croupier.net.command = (m) => {
    window.__sent.push(m);
    return Promise.resolve({ type: "ack", id: "x", accepted: true, code: "ok" });
  };
  window.__local = 1000;
  tv.clock.local = () => window.__local;
  const me = String(window.__croupier.account.id);
  const seat = Object.values(tv.state.seats).find((x) => x.player_id === me).seat;
  const legal = (over) => ({
    player: 0, can_fold: true, can_check: false, can_call: false, call: 0, can_raise: false,
    min_raise: 0, max_raise: 0, can_bring_in: false, bring_in: 0, can_draw: false,
    max_discards: 0, show_or_muck: false, can_offer_split: false, split_answer: false, ...over,
  });
  window.__frame = (event, now) => {
    tv.onMessage({ type: "event", table_id: tv.tableId, version: tv.state.version + 1,
      epoch: tv.state.epoch, hand_no: 1, players: [me], event, now });
  };
  window.__turn = (over, deadline, now) => window.__frame({
    type: "turn", seat, player_id: me, position: 0, phase: "betting", deadline,
    view: { variant: "stud", structure: "fixed_limit", street: 0, phase: "betting", pot: 2,
      board: [], actor: 0, legal: legal(over),
      players: [{ stack: 99, bet: 1, contributed: 1, folded: false, all_in: false,
        cards: [null, null, "7c"], up: [false, false, true], shown: false }] },
  }, now);
  window.__seat = seat;
  return seat;
}
"""


def test_countdown_on_the_table_clock_and_the_bring_in_and_split_buttons(
    server: Server, browser_page: Page
) -> None:
    """R-TIME-1 (client side): the countdown is ``deadline − now`` of the frame at receipt,
    then runs down on the page's clock; after a time bank the new deadline counts from
    that frame's ``now``. R-POS-5, R-DRAW-5, R-BET-8: the bar shows the bring-in (with its
    amount) and the split offer/answer only when ``legal`` allows them, and the buttons
    and keys I, P, Y, N send ``act`` with ``bring_in``/``offer_split``/``accept_split``/
    ``decline_split``."""
    page = browser_page.page
    _quiet_private_table(page, server.base)
    seat = page.evaluate(INJECT_JS)
    # A turn sent when the table clock read 100, deadline 130: 30 s left at receipt.
    page.evaluate(
        "window.__turn({ can_bring_in: true, bring_in: 1, can_raise: true, min_raise: 2, max_raise: 2 }, 130, 100)"
    )
    assert page.evaluate("window.__croupier.table.remaining()") == 30
    page.evaluate("window.__local += 4; window.__croupier.table.tick()")
    assert page.evaluate("window.__croupier.table.remaining()") == 26
    assert page.inner_text(".seat.me .timer .secs") == "26"
    assert abs(page.evaluate(BAR_WIDTH) - 26 / 30 * 100) < 0.01  # the bar: 26 of 30 s
    # A time bank: new deadline 157 in a frame sent at table time 127 (page clock +27).
    page.evaluate(
        f"window.__local = 1027; window.__frame({{ type: 'time_bank_used', seat: {seat}, deadline: 157 }}, 127);"
        " window.__croupier.table.tick()"
    )
    assert page.evaluate("window.__croupier.table.remaining()") == 30
    assert page.inner_text(".seat.me .timer .secs") == "30"
    assert page.evaluate(BAR_WIDTH) == 100  # a new full bar after the time bank
    page.evaluate("window.__local = 1060; window.__croupier.table.tick()")
    assert page.evaluate("window.__croupier.table.remaining()") == 0

    # The bring-in button, its amount and its key; no split buttons at a stud turn.
    assert page.is_visible("#a-bringin") and page.inner_text("#a-bringin-label") == "Bring in 1"
    for hidden in ("#a-split", "#a-accept", "#a-decline", "#split-help", "#a-check"):
        assert not page.is_visible(hidden), hidden
    page.keyboard.press("i")
    page.wait_for_function("window.__sent.length === 1")
    # A split offered to me: accept/decline (Y), no bring-in.
    page.evaluate("window.__turn({ split_answer: true, can_fold: false }, 200, 190)")
    assert page.is_visible("#a-accept") and page.is_visible("#a-decline")
    assert page.is_visible("#split-help") and not page.is_visible("#a-bringin")
    page.keyboard.press("y")
    page.wait_for_function("window.__sent.length === 2")
    page.evaluate("window.__turn({ split_answer: true, can_fold: false }, 200, 190)")
    page.click("#a-decline")
    page.wait_for_function("window.__sent.length === 3")
    # First to act after the draw: offer a split (P), or check.
    page.evaluate(
        "window.__turn({ can_offer_split: true, can_check: true, can_fold: false }, 200, 190)"
    )
    assert page.is_visible("#a-split") and page.is_visible("#a-check")
    assert not page.is_visible("#a-accept")
    page.keyboard.press("p")
    page.wait_for_function("window.__sent.length === 4")
    page.evaluate(
        "window.__turn({ can_offer_split: true, can_check: true, can_fold: false }, 200, 190)"
    )
    page.click("#a-split")
    page.wait_for_function("window.__sent.length === 5")
    sent = page.evaluate("window.__sent")
    assert [(m["type"], m["action"]) for m in sent] == [
        ("act", "bring_in"),
        ("act", "accept_split"),
        ("act", "decline_split"),
        ("act", "offer_split"),
        ("act", "offer_split"),
    ]
    assert all(m["table_id"] for m in sent)
    page.select_option("#lang", "fr")
    page.evaluate("window.__turn({ split_answer: true, can_fold: false }, 200, 190)")
    assert page.inner_text("#a-accept span") == "Accepter le partage"
    assert untranslated(page) == []


def _side_pot_record() -> dict[str, Any]:
    """A real three-handed No-Limit hand from the engine: the small blind all-in for 20,
    a flop bet of 10 between the other two (main pot 60, side pot 20), all shown; as the
    replayer's JSON route gives it to the big blind (position 1)."""
    game = Game.of("nlhe", blinds=(1, 2))
    deck = list(parse_cards("AsKsQdQc7h2c3dAh9c4s5hJd6c8d"))
    deck += [
        c
        for c in parse_cards("".join(r + s for r in "23456789TJQKA" for s in "cdhs"))
        if c not in deck
    ]
    s, events = start_hand(game, (20, 100, 100), deck)
    for action in (
        call(2),
        raise_to(0, 20),
        call(1),
        call(2),
        raise_to(1, 10),
        call(2),
        check(1),
        check(2),
        check(1),
        check(2),
    ):
        s, more = apply(s, action)
        events += more
    while not s.is_over:
        la = legal_actions(s)
        assert la is not None and la.show_or_muck, la
        s, more = apply(s, auto_showdown_action(s))
        events += more
    summary = {
        "events": [e.to_dict() for e in events],
        "names": ["ann", "BOT 1", "cid"],
        "seats": [0, 2, 4],
        "button": 4,
        "players": ["10", "11", "12"],
        "net": [0, 0, 0],
    }
    return hand_json("t1", "7", "nlhe 1/2 room", summary, 1)


def test_replayer_steps_from_archived_events(server: Server, browser_page: Page) -> None:
    """R-POT-1, R-POT-6 (display): the replayer's steps, built from the hand's archived
    events with the table's own reducer, show the main and side pots, the shown hands'
    names and the awards, with the table's display names; in French the hand names are
    translated."""
    record = _side_pot_record()
    shown = {e["player"]: e["hands"] for e in record["events"] if e["type"] == "cards_shown"}
    assert len(shown) == 3
    page = browser_page.page
    ready(page, f"{server.base}/#/lobby")
    out = page.evaluate(
        """async (rec) => {
      const { replayRecord } = await import('/js/replay.js');
      const { handName } = await import('/js/hands.js');
      const { setLang } = await import('/js/i18n.js');
      const steps = replayRecord(rec);
      const last = steps[steps.length - 1];
      setLang('fr');
      const fr = last.hands.map((h) => (h ? h.map((x) => handName(x)) : null));
      setLang('en');
      return { pots: steps.map((s) => s.pots), last, fr, notes: steps.map((s) => s.note.key),
               first: steps[0] };
    }""",
        record,
    )
    assert [60, 20] in out["pots"], out["pots"]
    last = out["last"]
    assert last["names"] == ["ann", "BOT 1", "cid"]
    assert [last["hands"][p] for p in sorted(shown)] == [shown[p] for p in sorted(shown)]
    assert last["pots"] == [60, 20]  # the exact account at the end (hand_ended.pots)
    assert sum(a["amount"] for a in last["awards"]) == 80
    assert all(a["hand"] for a in last["awards"])
    # a first bet in a round is logged "bets", a raise "raises to" (issue #15)
    assert out["notes"][-1] == "replay.end"
    assert {"log.acted.raise", "log.acted.bet"} & set(out["notes"])
    assert out["first"]["note"]["key"] == "log.forced.small_blind"
    assert out["fr"] != last["hands"]
    ended = next(e for e in record["events"] if e["type"] == "hand_ended")
    assert last["stacks"] == ended["stacks"]


def test_private_settings_by_code_and_a_split_offer_at_32_card_draw(
    server: Server, browser_page: Page, playwright_: Any
) -> None:
    """R-LOBBY-2: a player who joins a private table by its code gets its settings from
    the server (the buy-in range the host chose bounds the sit dialog; the info line names
    the game). R-DRAW-5: at a heads-up 32-Card Draw table with a bot, that player offers a
    split after the draw with the bar's button and the bot answers (the log says how)."""
    host = browser_page.page
    sign_up(host, server.base, name())
    host.click("nav a[data-view=lobby]")
    host.select_option("#p-game", "32cd")
    host.fill("#p-sb", "1")
    host.fill("#p-bb", "2")
    host.fill("#p-seats", "2")
    host.check("#p-bots")
    host.fill("#p-bmin", "150")
    host.fill("#p-bmax", "0")  # a limit game: a minimum and no maximum (R-SEAT-1)
    host.click("#private-form button[type=submit]")
    host.wait_for_selector("#private-result:not([hidden])")
    code = host.inner_text("#invite-code")

    other = Page(playwright_)
    try:
        page = other.page
        sign_up(page, server.base, name())
        exchange(page, 500)
        page.click("nav a[data-view=lobby]")
        page.fill("#code-input", code.lower())
        page.click("#join-code button")
        page.wait_for_selector("#t-sit:not([hidden])")
        page.wait_for_function("window.__croupier.table.live")
        info = page.inner_text("#table-info")
        assert "32-Card Draw" in info and code in info, info
        page.click("#t-sit")
        page.wait_for_selector("#sit-dialog[open]")
        assert page.get_attribute("#sit-amount", "min") == "150"
        assert page.get_attribute("#sit-amount", "max") == "500"  # no maximum: the chips
        assert page.inner_text("#sit-range") == "At least 150 chips, no maximum."
        page.fill("#sit-amount", "200")
        page.click("#sit-form button[type=submit]")
        page.wait_for_selector(".seat.me")
        offered_in: int | None = None
        end = time.monotonic() + 60
        while time.monotonic() < end:
            hand = state(page, "s.handNo")
            if page.is_visible("#actionbar") and not page.evaluate("window.__croupier.table.busy"):
                if page.is_visible("#a-split") and offered_in is None:
                    page.click("#a-split")
                    offered_in = hand
                elif page.is_visible("#a-draw"):
                    page.keyboard.press("d")
                elif page.is_visible("#a-show"):
                    page.click("#a-show")
                elif page.is_visible("#a-check"):
                    page.click("#a-check")
                elif page.is_visible("#a-call"):
                    page.click("#a-call")
                page.wait_for_function("!window.__croupier.table.busy")
            if offered_in is not None and (
                hand != offered_in or state(page, "!!(s.hand && s.hand.phase === 'ended')")
            ):
                break
            page.wait_for_timeout(
                100
            )  # poll interval of the bounded loop (it looks at the page again)
        assert offered_in is not None, "never first to act after the draw"
        answered = (
            "s.log.some(e => e.key === 'log.split_accepted' || e.key === 'log.split_declined')"
        )
        page.wait_for_function(
            f"(() => {{ const s = window.__croupier.table.state; return {answered}; }})()"
        )
        assert state(page, "s.log.some(e => e.key === 'log.split_offered')")
        # The replayer shows that hand from its events: the split's offer and answer, and
        # at the end the awards (with the hands' names after a showdown).
        row = f"#hands tbody tr[data-hand='{state(page, 's.tableId')}/{offered_in}']"
        history_row(page, row)  # the server archives the hand just after it settles
        page.click(f"{row} button.replay")
        page.wait_for_selector("#replayer:not([hidden])")
        notes = []
        while True:
            notes.append(
                page.get_attribute(
                    "#replay-step span[data-i18n^='log.'], #replay-step span[data-i18n^='replay.']",
                    "data-i18n",
                )
            )
            if page.is_disabled("#r-next"):
                break
            page.click("#r-next")
        assert "log.split_offered" in notes, notes
        assert "log.split_accepted" in notes or "log.split_declined" in notes, notes
        assert notes[-1] == "replay.end"
        if "log.split_declined" in notes:
            assert page.locator("#replay-table .replay-awards .award").count() >= 1
        if "log.shown" in notes:
            assert page.locator("#replay-table .replay-players .hand-name").count() >= 1
        assert untranslated(page) == []
        assert other.unexpected() == []
    finally:
        other.close()
