"""Tournaments in real Chromium (R-TOUR-1..5, R-TOUR-10, R-TOUR-12, issue #17): the lobby's
tournaments tab with every term before registering, register / unregister with clear
refusals, a Spin played to the end by a browser user against bots (multiplier revealed
before the first hand, the HUD, the final standings, the prize credited, the result in
History), and a scheduled event seen in French by three players: a table move followed
without a reload and an elimination announced with its place."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any, ClassVar

import httpx
import pytest

from croupier.store import open_store
from croupier.store.schema import tournaments
from croupier.store.tournaments import TournamentJournal
from croupier.table.clock import FakeClock
from croupier.tournament import LedgerCashier, TournamentRegistry, scheduled
from croupier.tournament.persist import tournament_store
from croupier.tournament.structures import BlindSchedule, Level
from tests.tournament.kit import standard_places
from tests.web.conftest import SERVE, Page, Server, _need_chromium
from tests.web.flows import english_left, exchange, sign_up, untranslated


class PatientServer(Server):
    """The browser tests' server, given up to four minutes to start (a loaded machine);
    ``extra`` adds settings to its environment."""

    extra: ClassVar[dict[str, str]] = {}

    def env(self) -> dict[str, str]:
        return {**super().env(), **self.extra}

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, str(SERVE)], env=self.env(), stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.base}/health", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError("server did not start in 240 s")


def _serving(kind: type[PatientServer]) -> Iterator[Server]:
    _need_chromium()
    s = kind()
    s.start()
    yield s
    s.close()


@pytest.fixture
def server() -> Iterator[Server]:
    yield from _serving(PatientServer)


class FastSpinServer(PatientServer):
    """Levels at a tenth of their published length (a 2x Spin's 2 minutes: 12 s): once the
    browser player is out, two bots heads-up can play 300 hands at the real clock (measured
    on the engine: 44 to 329 s of play); rising blinds end it within about two minutes."""

    extra: ClassVar[dict[str, str]] = {"CROUPIER_LEVEL_SECONDS_SCALE": "0.1"}


@pytest.fixture
def spin_server() -> Iterator[Server]:
    yield from _serving(FastSpinServer)


def _row(page: Any, tid: str) -> dict[str, Any] | None:
    found: dict[str, Any] | None = page.evaluate(
        f"(window.__croupier.tournaments || []).find(r => r.id === {json.dumps(tid)}) || null"
    )
    return found


def _act_once(page: Any) -> bool:
    """One action if it is our turn: show at the showdown, all-in when a raise is allowed,
    else call or check. True if something was sent."""
    if not page.is_visible("#actionbar") or page.evaluate("window.__croupier.table.busy"):
        return False
    if page.is_visible("#a-show"):
        page.click("#a-show")
    elif page.is_visible("#a-raise") and page.is_visible("[data-preset=max]"):
        page.click("[data-preset=max]")
        page.click("#a-raise")
    elif page.is_visible("#a-call"):
        page.click("#a-call")
    elif page.is_visible("#a-check"):
        page.click("#a-check")
    elif page.is_visible("#a-raise"):
        page.click("#a-raise")
    else:
        return False
    page.wait_for_function("!window.__croupier.table.busy")
    return True


def _shove_until(page: Any, done: Any, limit: float) -> int:
    """Act on every turn (:func:`_act_once`) until ``done()``; returns the actions sent."""
    acted = 0
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if done():
            return acted
        if _act_once(page):
            acted += 1
        page.wait_for_timeout(100)
    raise AssertionError(f"not done in {limit} s ({acted} actions): {page.evaluate(_ROWS)}")


_ROWS = "JSON.stringify((window.__croupier.tournaments || []).filter(r => r.status === 'running'))"


def _chips(page: Any) -> int:
    me: dict[str, Any] = page.evaluate("fetch('/api/me').then(r => r.json())")
    return int(me["chips"])


@pytest.mark.slow
def test_a_spin_played_to_the_end_in_the_browser(spin_server: Server, browser_page: Page) -> None:
    """R-TOUR-10, R-TOUR-2, R-TOUR-5: the tab shows the Spin's multiplier table (eight
    multipliers with their probabilities, 93 % return) and the Sit & Go's structure; a
    registration refused for want of chips says so and moves nothing; the player
    registers, fills the Spin with bots, is taken to their table, sees the multiplier and
    the HUD (level, blinds, next level, rank, average), plays to the end; the final
    standings show three places, the winner's prize is credited, and History lists the
    result."""
    server = spin_server
    page = browser_page.page
    browser_page.allow(r"status of 409")  # the refusal below is a 409 with its code
    sign_up(page, server.base, "Spinner")
    page.goto(f"{server.base}/#/tournaments")
    page.wait_for_selector("article[data-id='spin-10']")
    spin = page.locator("article[data-id='spin-10']")
    spin.locator("summary").click()
    rows = spin.locator(".tour-multipliers tbody tr")
    assert rows.count() == 8
    assert "77.38 %" in rows.nth(0).inner_text() and "×1000" in rows.nth(7).inner_text()
    assert "93.0" in spin.inner_text()
    sng = page.locator("article[data-id='sng-6']")
    sng.locator("summary").click()
    assert sng.locator(".tour-levels tbody tr").count() >= 10
    assert "65 % / 35 %" in sng.locator(".tour-payouts").inner_text()
    # no chips yet: refused with a clear message, nothing moved
    page.evaluate("document.querySelector('#toast').hidden = true")  # the sign-up's toast
    spin.locator("button.primary").click()
    page.wait_for_function(
        "(() => { const t = document.querySelector('#toast');"
        " const s = t.textContent.toLowerCase();"
        " return !t.hidden && (s.includes('chips') || s.includes('fund')); })()"
    )
    assert _row(page, "spin-10")["entrants"] == 0  # type: ignore[index]
    page.goto(f"{server.base}/#/account")
    exchange(page, 100)
    assert _chips(page) == 100
    page.goto(f"{server.base}/#/tournaments")
    spin = page.locator("article[data-id='spin-10']")
    spin.locator("button.primary").click()
    page.wait_for_function(
        "(window.__croupier.tournaments || []).some(r => r.id === 'spin-10' && r.entrants === 1)"
    )
    assert _chips(page) == 90
    page.locator("article[data-id='spin-10'] button", has_text="bots").click()
    # the start takes the player to their table; the multiplier is revealed there
    page.wait_for_function("location.hash.startsWith('#/table/spin-10-t')", timeout=20000)
    page.wait_for_selector("#tour-hud:not([hidden]) #hud-multiplier")
    row = _row(page, "spin-10")
    assert row is not None and row["status"] == "running"
    m = row["multiplier"]
    assert f"×{m}" in page.inner_text("#hud-multiplier")
    assert f"×{m}" in page.inner_text("#hud-news")
    for sel in ("#hud-level", "#hud-next", "#hud-left", "#hud-average"):
        assert page.is_visible(sel), sel
    assert re.fullmatch(r"\d+:\d\d", page.inner_text("#hud-next").strip())
    # the level in force (the first, 10/20, unless this machine took 12 s to get here)
    now = _row(page, "spin-10")
    assert now is not None
    sb, bb, _ = now["blinds"]
    assert now["level"] > 1 or (sb, bb) == (10, 20)
    assert f"{sb} / {bb}" in page.inner_text("#hud-level")

    def finished() -> bool:
        r = _row(page, "spin-10")
        return r is not None and r["status"] == "finished"

    acted = _shove_until(page, finished, 240)
    assert acted >= 1
    page.wait_for_selector("#hud-standings li >> nth=2")
    final = _row(page, "spin-10")
    assert final is not None
    places = sorted(s["place"] for s in final["standings"])
    assert standard_places(places, 3), places  # two out together from equal stacks: 1, 2, 2
    winner = next(s for s in final["standings"] if s["place"] == 1)
    assert winner["prize"] == 10 * m
    me = str(page.evaluate("fetch('/api/me').then(r => r.json())")["id"])
    mine = next(s for s in final["standings"] if s["player_id"] == me)
    # the prize is credited on the ledger (to whoever won)
    with open_store(f"sqlite:///{server.dir / 'croupier.sqlite3'}") as store:
        prizes = store.db.run(
            lambda c: c.exec_driver_sql(
                "SELECT count(*) FROM transfers WHERE kind = 'tournament_prize' AND idem_key LIKE 'tour:spin-10:prize:%'"
            ).scalar()
        )
        assert prizes == sum(1 for s in final["standings"] if s["prize"])
        assert store.audit().ok
    assert _chips(page) == 90 + mine["prize"]
    page.goto(f"{server.base}/#/history")
    page.wait_for_selector("#tour-results:not([hidden]) li[data-id='spin-10']")
    assert "Spin 10" in page.inner_text("#tour-results")


def _reschedule(server: Server, tid: str, starts_in: float) -> None:
    """Move a journaled event's start time (the server is stopped)."""
    with open_store(f"sqlite:///{server.dir / 'croupier.sqlite3'}") as store:
        journal = TournamentJournal(store.db, clock=lambda: 0.0)
        (row,) = [r for r in journal.load() if r.id == tid]
        spec = dict(row.spec, starts_at=time.monotonic() + starts_in)
        journal.save_event(
            tid, root=row.root, kind=row.kind, status=row.status, buy_in=row.buy_in,
            recurring=row.recurring, spec=spec,
        )  # fmt: skip
        store.db.run(
            lambda c: c.execute(
                tournaments.update().where(tournaments.c.id == tid).values(spec=spec)
            )
        )


def _seed_mtt(server: Server, starts_in: float) -> None:
    """A scheduled event of three heads-up tables' worth: seats of 2, so three players
    sit at two tables (2 and 1) and the lone one moves when the other table's heads-up
    ends (R-TOUR-14: the table with the fewest players, ties the highest number, breaks)."""
    url = f"sqlite:///{server.dir / 'croupier.sqlite3'}"
    fast = BlindSchedule("fast", tuple(Level(b, 2 * b, 0, 60.0) for b in (50, 100, 200, 400)))
    with open_store(url) as store:
        reg = TournamentRegistry(
            LedgerCashier(store.ledger), clock=FakeClock(), store=tournament_store(store)
        )
        reg.add(
            scheduled(
                "mtt-web",
                "Heads-up Express",
                opens_at=0.0,
                starts_at=time.monotonic() + starts_in,
                seats=2,
                max_entrants=3,
                buy_in=20,
                starting_stack=1000,
                schedule=fast,
                between_hands=0.6,
                bot_delay=0.05,
            )
        )


@pytest.mark.slow
def test_scheduled_event_move_and_elimination_in_french(playwright_: Any) -> None:
    """R-TOUR-3, R-TOUR-12, R-TOUR-14, R-TOUR-15 (issue #17): three players, in French,
    register in a scheduled event from the tab (a Sit & Go registration and unregistration
    too, refunded); at its time each is taken to their table; the heads-up's loser sees
    their elimination with its place; the player alone at table 2 sees « Vous changez de
    table : table 1 » and follows to table 1 without a reload; the last one standing wins;
    no English is left on the tab."""
    _need_chromium()
    server = PatientServer()
    try:
        server.start()
        server.stop()
        _seed_mtt(server, starts_in=3600.0)
        server.start()
        pages = [Page(playwright_) for _ in range(3)]
        for p in pages:
            p.allow(r"status of 409")
            p.allow(r"WebSocket|ERR_CONNECTION_REFUSED|Failed to fetch|net::")  # the restart
        try:
            _mtt_flow(server, [p.page for p in pages])
            for p in pages:
                assert p.unexpected() == []
        finally:
            for p in pages:
                p.close()
    finally:
        server.close()


def _mtt_flow(server: Server, pages: list[Any]) -> None:
    names = ["Ana", "Bea", "Cyd"]
    for page, name in zip(pages, names, strict=True):
        sign_up(page, server.base, name)
        page.select_option("#lang", "fr")
        exchange(page, 100)
        page.goto(f"{server.base}/#/tournaments")
        page.wait_for_selector("article[data-id='mtt-web']")
    first = pages[0]
    assert first.inner_text("#tour-title") == "Tournois"
    assert untranslated(first) == [] and english_left(first) == []
    # a Sit & Go registration and its refund
    sng = first.locator("article[data-id='sng-6']")
    sng.locator("button.primary").click()
    first.wait_for_function(
        "(window.__croupier.tournaments || []).some(r => r.id === 'sng-6' && r.entrants === 1)"
    )
    assert "Vous êtes inscrit" in sng.inner_text()
    assert _chips(first) == 0
    sng.locator("button", has_text="Se désinscrire").click()
    first.wait_for_function(
        "(window.__croupier.tournaments || []).some(r => r.id === 'sng-6' && r.entrants === 0)"
    )
    assert _chips(first) == 100
    for n, page in enumerate(pages, start=1):
        page.locator("article[data-id='mtt-web'] button.primary").click()
        page.wait_for_function(
            "n => (window.__croupier.tournaments || [])"
            ".some(r => r.id === 'mtt-web' && r.entrants >= n)",
            arg=n,
        )
    first.wait_for_function(
        "(window.__croupier.tournaments || []).some(r => r.id === 'mtt-web' && r.entrants === 3)"
    )
    row = _row(first, "mtt-web")
    assert row is not None and row["entrants"] == 3
    # the server restarts: the registrations stand; the event is then due in 10 s
    server.stop()
    _reschedule(server, "mtt-web", 10.0)
    server.start()
    first.wait_for_function(
        "(window.__croupier.tournaments || []).some(r => r.id === 'mtt-web' && r.entrants === 3)",
        timeout=120000,
    )
    # a fourth registration is refused (full), in French
    assert "3 / 3" in first.locator("article[data-id='mtt-web']").inner_text()
    ids = {}
    for page, name in zip(pages, names, strict=True):
        ids[name] = str(page.evaluate("fetch('/api/me').then(r => r.json())")["id"])
    # the start: everyone is taken to their table
    for page in pages:
        page.wait_for_function("location.hash.startsWith('#/table/mtt-web-t')", timeout=120000)
    row = _row(first, "mtt-web")
    assert row is not None
    seating = row["seating"]
    alone = next(n for n in names if list(seating.values()).count(seating[ids[n]]) == 1)
    lone_page = pages[names.index(alone)]
    assert seating[ids[alone]] == "mtt-web-t2"
    assert "Table 2" in lone_page.inner_text("#tour-hud")
    heads_up = [pages[names.index(n)] for n in names if n != alone]

    def lone_moved() -> bool:
        return bool(lone_page.evaluate("location.hash === '#/table/mtt-web-t1'"))

    # the heads-up at table 1 plays until someone is out (both shove)
    end = time.monotonic() + 180
    out_page = None
    while time.monotonic() < end and out_page is None:
        for page in heads_up:
            _act_once(page)
        r = _row(first, "mtt-web")
        if r and r.get("standings"):
            out_id = r["standings"][0]["player_id"]
            out_page = pages[[ids[n] for n in names].index(out_id)]
        first.wait_for_timeout(150)
    assert out_page is not None, "nobody was eliminated at table 1"
    out_page.wait_for_function(
        "document.querySelector('#hud-news') && document.querySelector('#hud-news').textContent.includes('place 3')"
    )
    assert "éliminé à la place 3" in out_page.inner_text("#hud-news")
    # the lone player moves to table 1 without a reload
    lone_page.wait_for_function("location.hash === '#/table/mtt-web-t1'", timeout=30000)
    assert lone_moved()
    assert "Vous changez de table : table 1." in lone_page.inner_text("#hud-news")
    assert "Table 1" in lone_page.inner_text("#tour-hud-title")
    # the final heads-up to the end
    finalists = [p for p in pages if p is not out_page]
    # a deal at the final table (R-TOUR-19): both want one, both take equal shares
    for page in finalists:
        page.wait_for_selector("#deal-in:not([disabled])", timeout=60000)
        page.click("#deal-in")
    for page in finalists:
        page.wait_for_selector("#deal-equal", timeout=60000)
        assert "ICM" in page.inner_text("#hud-deal")
        page.click("#deal-equal")
    for page in finalists:
        page.wait_for_function(
            "document.querySelector('#hud-deal') && "
            "document.querySelector('#hud-deal').textContent.includes('Accord conclu')",
            timeout=60000,
        )

    def finished() -> bool:
        r = _row(first, "mtt-web")
        return r is not None and r["status"] == "finished"

    end = time.monotonic() + 180
    while not finished() and time.monotonic() < end:
        for page in finalists:
            _act_once(page)
        first.wait_for_timeout(150)
    assert finished()
    final = _row(first, "mtt-web")
    assert final is not None and sorted(s["place"] for s in final["standings"]) == [1, 2, 3]
    paid = sorted(s["prize"] for s in final["standings"])
    assert paid == [0, 30, 30]  # 65/35 of 60, shared equally by the deal
    first.goto(f"{server.base}/#/tournaments")
    first.wait_for_selector("article[data-id='mtt-web'] .tour-standings li >> nth=2")
    assert "Classement final" in first.inner_text("article[data-id='mtt-web']")
    assert english_left(first) == []
