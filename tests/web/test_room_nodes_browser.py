"""A room served by two processes (issue #16, server/cluster.py) as a player sees it in
the browser: the lobby of either process lists every table of the room (R-LOBBY-1);
playing at a table the other process serves opens the page there, signed in, with the
buy-in dialog, and the player sits (R-SEAT-1); when the page's process dies, the page
goes on at the other one and finds its table there (R-CRASH-1)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from croupier.lobby import DEFAULT_TABLES
from croupier.server.cluster import ROOM_LEASE, preferred
from croupier.store import open_store
from croupier.table.journal import Restarted, plan_recovery
from tests.waiting import wait_until
from tests.web.conftest import Page, Server, _need_chromium, free_port
from tests.web.flows import exchange, sign_up

pytestmark = [pytest.mark.slow, pytest.mark.rules("R-LOBBY-1")]

NODES = ("n1", "n2")  # as scripts/room.sh names them


class Node(Server):
    """One process of the room; the second shares the first one's database."""

    def __init__(
        self,
        name: str,
        ports: dict[str, int],
        shared: Server | None = None,
        extra: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.name = name
        self.extra = extra or {}
        self.port = ports[name]
        self.base = f"http://127.0.0.1:{self.port}"
        self.shared = shared

    def env(self) -> dict[str, str]:
        env = super().env()
        db = (self.shared or self).dir / "croupier.sqlite3"
        env.update(
            CROUPIER_DATABASE_URL=f"sqlite:///{db}",
            CROUPIER_NODE_ID=self.name,
            CROUPIER_NODES=",".join(NODES),
            CROUPIER_NODE_URL=self.base,
            CROUPIER_LEASE_SECONDS="2",
        )
        env.update(self.extra)
        return env


def _room(extra: dict[str, str] | None = None) -> Iterator[dict[str, Node]]:
    _need_chromium()
    ports = {n: free_port() for n in NODES}
    a = Node("n1", ports, extra=extra)
    b = Node("n2", ports, shared=a, extra=extra)
    nodes = {"a": a, "b": b}
    try:
        a.start()  # the room node first: it migrates the database
        b.start()
        yield nodes
    finally:
        b.close()
        a.close()


@pytest.fixture
def room() -> Iterator[dict[str, Node]]:
    yield from _room()


@pytest.fixture
def room_redis(redis_env: dict[str, str]) -> Iterator[dict[str, Node]]:
    """The same room with Redis shared by its processes (server/bus.py)."""
    yield from _room(redis_env)


def _kill(node: Node) -> float:
    """SIGKILL ``node``'s process and reap it: when it was killed (monotonic)."""
    assert node.proc is not None
    killed = time.monotonic()
    node.proc.kill()
    node.proc.wait(10)
    return killed


def _doomed_player(browser_page: Page, base: str, prefix: str) -> tuple[Any, dict[str, Any]]:
    """A new player at ``base`` with 300 chips, in the lobby, on a page that will see a
    process of the room killed (its socket and requests refused or cut off: allowed); the
    page and the account as ``/api/me`` gave it."""
    browser_page.allow(r"WebSocket|ERR_CONNECTION_(REFUSED|RESET)")
    page = browser_page.page
    sign_up(page, base, f"{prefix}{secrets.token_hex(3)}")
    exchange(page, 300)
    me: dict[str, Any] = page.evaluate("fetch('/api/me').then((r) => r.json())")
    page.click("nav a[data-view=lobby]")
    return page, me


def test_a_table_of_the_other_process_opens_there_and_the_player_sits(
    room: dict[str, Node], browser_page: Page, artifacts: Any
) -> None:
    a, b = room["a"], room["b"]
    there = sorted(t.table_id for t in DEFAULT_TABLES if preferred(t.table_id, NODES) == b.name)
    table_id = next(t for t in there if not t.startswith("arcade"))
    page = browser_page.page
    sign_up(page, a.base, f"n{secrets.token_hex(3)}")
    exchange(page, 300)
    page.click("nav a[data-view=lobby]")
    # a's lobby lists the room's every public table, b's from the lease b renews
    wait_until(
        lambda: (
            page.eval_on_selector_all("#tables tbody tr", "rs => rs.length") == len(DEFAULT_TABLES)
        ),
        30,
        "every table of the room in a's lobby",
    )
    page.screenshot(path=str(artifacts / "room-nodes-lobby.png"))
    assert httpx.get(f"{a.base}/health").json()["node"] == "n1"
    page.click(f"#tables tbody tr[data-table='{table_id}'] button.primary")
    page.wait_for_url(f"{b.base}/#/table/{table_id}", timeout=30000)
    # signed in at b (the cookie came along) and asked for the buy-in there
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function(
        "window.__croupier && window.__croupier.net && window.__croupier.net.welcome"
        " && window.__croupier.net.welcome.guest === false"
    )
    page.wait_for_selector("#sit-dialog[open]", timeout=30000)
    page.fill("#sit-amount", "200")
    page.click("#sit-form button[type=submit]")
    page.wait_for_selector(".seat.me")
    # 200 bought in, less a blind when the next hand deals the player in at once (its
    # first events can come in the frame of the sit's ack)
    assert 198 <= int(page.inner_text(".seat.me .chips")) <= 200
    page.screenshot(path=str(artifacts / "room-nodes-table.png"))
    # a lists b's table with b's address; b serves it and sees the player seated
    rows = {r["table_id"]: r for r in httpx.get(f"{a.base}/api/tables").json()}
    assert rows[table_id]["node_url"] == b.base

    def humans_at_b() -> int:
        row = {r["table_id"]: r for r in httpx.get(f"{b.base}/api/tables").json()}[table_id]
        assert "node_url" not in row  # b's own table
        return int(row["players"]) - int(row["bots"])

    wait_until(lambda: humans_at_b() == 1, 30, "the player counted at b's table")


def test_with_redis_a_table_of_the_other_process_is_watched_and_chatted_at_from_here(
    room_redis: dict[str, Node], browser_page: Page, artifacts: Any
) -> None:
    """With the room's Redis, watching (and chatting at) a table the other process serves
    happens from the page the player is on; taking a seat opens the page there (the
    cards are dealt there)."""
    a, b = room_redis["a"], room_redis["b"]
    there = sorted(t.table_id for t in DEFAULT_TABLES if preferred(t.table_id, NODES) == b.name)
    table_id = next(t for t in there if t.startswith("nlhe") or t.startswith("plo"))
    page = browser_page.page
    name = f"w{secrets.token_hex(3)}"
    sign_up(page, a.base, name)
    exchange(page, 300)
    page.click("nav a[data-view=lobby]")
    row = f"#tables tbody tr[data-table='{table_id}']"
    page.wait_for_selector(row, timeout=30000)
    page.click(f"{row} button:not(.primary)")  # watch
    page.wait_for_selector(".seat .name", timeout=30000)
    assert page.url.startswith(a.base), page.url  # relayed through Redis: no redirect
    page.fill("#chat-text", "bonjour de n1")
    page.click("#chat-form button[type=submit]")
    page.wait_for_function(
        "[...document.querySelectorAll('#chat-lines li')].some("
        "li => li.textContent.includes('bonjour de n1'))",
        timeout=15000,
    )
    page.set_viewport_size({"width": 1366, "height": 768})
    page.screenshot(path=str(artifacts / "room-redis-watch.png"))
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    page.wait_for_selector(".seat .name")
    page.screenshot(path=str(artifacts / "room-redis-watch-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 768})
    assert page.url.startswith(a.base), page.url
    page.click("#t-sit")
    page.wait_for_url(f"{b.base}/**", timeout=30000)
    page.wait_for_selector("#sit-dialog[open]", timeout=30000)
    page.fill("#sit-amount", "200")
    page.click("#sit-form button[type=submit]")
    page.wait_for_selector(".seat.me")
    wait_until(
        lambda: (
            {h["online"] for h in (httpx.get(f"{n.base}/health").json() for n in (a, b))} == {1}
        ),
        15,
        "one account online in the whole room",
    )


def test_a_page_whose_process_dies_goes_on_at_the_other_and_finds_its_table(
    room: dict[str, Node], browser_page: Page, artifacts: Any
) -> None:
    """Clients reach their tables through any process (issue #16). A player seated at a
    table of b has the page open at b when b is killed (SIGKILL): the page goes on at a
    by itself (the welcome at b named a), and a, once b's lease expired, serves the table
    restored by the crash policy: the seat empty and its stack back in the player's
    account (R-CRASH-1), the audit clean."""
    a, b = room["a"], room["b"]
    there = sorted(t.table_id for t in DEFAULT_TABLES if preferred(t.table_id, NODES) == b.name)
    table_id = next(t for t in there if t.startswith("nlhe") or t.startswith("plo"))
    page, me = _doomed_player(browser_page, a.base, "f")
    row = f"#tables tbody tr[data-table='{table_id}'] button.primary"
    page.wait_for_selector(row, timeout=30000)
    page.click(row)
    page.wait_for_url(f"{b.base}/#/table/{table_id}", timeout=30000)
    page.wait_for_selector("#sit-dialog[open]", timeout=30000)
    page.fill("#sit-amount", "200")
    page.click("#sit-form button[type=submit]")
    page.wait_for_selector(".seat.me")
    page.wait_for_function(
        f"(window.__croupier.peers || []).includes({a.base!r})", timeout=15000
    )  # b's welcome named a (b read a's leases before the page connected)
    killed = _kill(b)
    page.wait_for_url(f"{a.base}/#/table/{table_id}", timeout=30000)
    # a takes the table over when b's lease expires; the page asks again until then
    page.wait_for_function(
        "window.__croupier.table.live && window.__croupier.net.status === 'open'"
        " && window.__croupier.table.state.version >= 0",
        timeout=30000,
    )
    took = time.monotonic() - killed
    print(f"\nthe page was at its table at a {took:.1f} s after b's SIGKILL")
    # the table restarted (a newer epoch than the page knew at b): the player is told
    assert "restarted" in page.inner_text("#toast"), page.inner_text("#toast")
    assert page.url.startswith(a.base), page.url
    page.wait_for_selector(".seat .name", timeout=15000)  # the table, with its bots again
    assert page.locator(".seat.me").count() == 0
    rows = {r["table_id"]: r for r in httpx.get(f"{a.base}/api/tables").json()}
    assert "node_url" not in rows[table_id]  # a's own table now
    # the page came from b because b died: it follows nothing back to b for a while
    # (openAt refuses, without leaving), unless b answers again
    fled = page.evaluate(
        """async (b) => {
          const m = await import('/js/nodes.js');
          const before = [m.fledFrom(b), m.openAt(b, '#/lobby')];
          m.forgetFled();
          const knew = m.parseKnew('3:t-1');
          return [...before, m.fledFrom(b), m.restartedSince(knew, 't-1', 4),
                  m.restartedSince(knew, 't-1', 3), m.restartedSince(knew, 't-2', 9),
                  m.parseKnew('x:t')];
        }""",
        b.base,
    )
    assert fled == [True, False, False, True, False, False, None], fled
    after = page.evaluate("fetch('/api/me').then((r) => r.json())")
    page.set_viewport_size({"width": 1366, "height": 768})
    page.screenshot(path=str(artifacts / "room-failover-table.png"))
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    page.screenshot(path=str(artifacts / "room-failover-table-phone.png"))
    with open_store(f"sqlite:///{a.dir / 'croupier.sqlite3'}") as store:
        # the stack b's journal held for the player when b died (a hand it had not settled
        # voided: the stack at its start) is back in the account, to the chip
        records = store.journal.records(table_id)
        taken = next(i for i, r in enumerate(records) if isinstance(r, Restarted))  # by a
        seats = plan_recovery(records[:taken]).seats
        stack = next(s.stack for s in seats if s.player_id == str(me["id"]))
        assert after["chips"] == me["chips"] - 200 + stack, (me, after, stack)
        assert store.ledger.escrow(table_id).get(int(me["id"]), 0) == 0
        report = store.audit()
        assert report.ok, report


@pytest.mark.rules("R-TOUR-1", "R-CRASH-1")
def test_the_tournaments_page_registers_at_the_process_that_took_the_tournaments_over(
    room: dict[str, Node], browser_page: Page, artifacts: Any
) -> None:
    """The tournaments run on the room's first process (a). A player with the tournaments
    page open at b sees them listed with a's address; a is killed (SIGKILL); b takes the
    tournaments over, the page's list follows by itself, and registering from it is done
    at b: the buy-in leaves the account once, the audit is clean."""
    a, b = room["a"], room["b"]
    page = browser_page.page
    sign_up(page, b.base, f"t{secrets.token_hex(3)}")
    exchange(page, 300)
    me = page.evaluate("fetch('/api/me').then((r) => r.json())")
    page.goto(f"{b.base}/#/tournaments")
    sng = "(window.__croupier.tournaments || []).find((r) => r.id.startsWith('sng-6'))"
    page.wait_for_function(f"({sng} || {{}}).node_url === {a.base!r}", timeout=30000)
    killed = _kill(a)
    # b takes the tournaments' lease over; b's lobby push brings the page b's own rows
    page.wait_for_function(f"{sng} && !{sng}.node_url", timeout=30000)
    print(f"\nthe page listed b's own tournaments {time.monotonic() - killed:.1f} s after a's kill")
    tid = page.evaluate(f"{sng}.id")
    card = page.locator("article.tour", has=page.locator(f"[id='tour-{tid}-name']"))
    card.locator("button.primary").first.click()
    page.wait_for_function(
        f"{sng}.registered.includes({str(me['id'])!r})", timeout=15000
    )  # registered at b (the page never left)
    assert page.url.startswith(b.base), page.url
    page.set_viewport_size({"width": 1366, "height": 768})
    page.screenshot(path=str(artifacts / "room-tournaments-moved.png"))
    after = page.evaluate("fetch('/api/me').then((r) => r.json())")
    buy_in = int(page.evaluate(f"{sng}.buy_in"))
    assert after["chips"] == me["chips"] - buy_in, (me, after)
    with open_store(f"sqlite:///{a.dir / 'croupier.sqlite3'}") as store:
        lease = store.leases.get(ROOM_LEASE)
        assert lease is not None and lease.owner.startswith("n2/")
        report = store.audit()  # (SQLite: one snapshot, the room playing on at b)
        assert report.ok, report.discrepancies


@pytest.mark.rules("R-CRASH-1")
def test_a_casino_page_whose_process_dies_goes_on_at_the_other(
    room: dict[str, Node], browser_page: Page, artifacts: Any
) -> None:
    """The casino runs on the room's first process (a). A player seated at its table has
    the page open at a when a is killed (SIGKILL): the page goes on at b by itself, is
    told the casino moves while a's lease runs out and b takes the casino over (never that
    the table does not exist), then finds the table there and plays: a seat taken at b,
    no chip lost, the audit clean."""
    a, b = room["a"], room["b"]
    page, me = _doomed_player(browser_page, a.base, "c")
    page.wait_for_selector("#casino-list li[data-table='casino-1'] button", timeout=30000)
    page.click("#casino-list li[data-table='casino-1'] button")
    page.wait_for_url(f"{a.base}/#/casino/casino-1")
    page.wait_for_function("window.__croupier.casino.state !== null", timeout=15000)
    page.click("#c-sit")
    page.wait_for_function("window.__croupier.casino.state.you !== null", timeout=15000)
    page.wait_for_function(f"(window.__croupier.peers || []).includes({b.base!r})", timeout=15000)
    # every message the casino page says from now on, at a and then at b
    page.add_init_script(
        "window.__said = []; addEventListener('DOMContentLoaded', () => {"
        " const box = document.querySelector('#c-message');"
        " new MutationObserver(() => window.__said.push(box.className + ' ' + box.textContent))"
        " .observe(box, { childList: true, characterData: true, subtree: true }); });"
    )
    killed = _kill(a)
    page.wait_for_url(f"{b.base}/#/casino/casino-1", timeout=30000)
    page.wait_for_function(
        "window.__croupier.casino.state !== null && window.__croupier.net.status === 'open'",
        timeout=30000,
    )
    took = time.monotonic() - killed
    said = page.evaluate("window.__said")
    print(f"\nthe casino page played at b {took:.1f} s after a's SIGKILL; it said {said}")
    assert not any("error" in s.split(" ", 2)[:2] for s in said), said
    assert not any("does not exist" in s for s in said), said
    # the player sits at b and the casino is b's own now
    if page.evaluate("window.__croupier.casino.state.you") is None:
        page.click("#c-sit")
        page.wait_for_function("window.__croupier.casino.state.you !== null", timeout=15000)
    wait_until(
        lambda: (
            page.evaluate("window.__croupier.casino.lobbyRows.map((r) => r.node_url || null)")
            == [None]
        ),
        15,
        "b's lobby listing the casino as its own",
    )
    page.set_viewport_size({"width": 1366, "height": 768})
    page.screenshot(path=str(artifacts / "room-failover-casino.png"))
    after = page.evaluate("fetch('/api/me').then((r) => r.json())")
    assert after["chips"] == me["chips"], (me, after)  # seated without a bet: nothing moved
    with open_store(f"sqlite:///{a.dir / 'croupier.sqlite3'}") as store:
        lease = store.leases.get(ROOM_LEASE)
        assert lease is not None and lease.owner.startswith("n2/")
        report = store.audit()
        assert report.ok, report.discrepancies
