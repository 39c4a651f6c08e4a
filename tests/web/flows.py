"""What a person does in the browser tests: sign up, buy chips, sit, play a hand to the
showdown with the mouse or the keyboard, and the checks on the page's text."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import croupier

WEB = Path(croupier.__file__).parent / "web"
PASSWORD = "correct-horse-9"

UNTRANSLATED_JS = """
() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const n = walker.currentNode;
    const text = n.textContent.trim();
    if (!/\\p{L}/u.test(text)) continue;
    const el = n.parentElement;
    if (!el || el.closest('[hidden],script,style,template,dialog:not([open])')) continue;
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    if ((r.width === 0 && r.height === 0) || cs.visibility === 'hidden' || cs.display === 'none') continue;
    if (el.closest('[data-i18n],[data-raw]')) continue;
    out.push(text);
  }
  return out;
}
"""

VISIBLE_TEXT_JS = """
() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    const text = walker.currentNode.textContent.trim();
    if (!text || !el || el.closest('[hidden],script,style,dialog:not([open])')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    out.push(text);
  }
  return out;
}
"""


def dictionary(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def untranslated(page: Any) -> list[str]:
    """Visible text nodes that are neither translated (data-i18n) nor data (data-raw)."""
    found: list[str] = page.evaluate(UNTRANSLATED_JS)
    return found


def english_left(page: Any) -> list[str]:
    """Visible texts that are English strings whose French differs (after switching to FR)."""
    en, fr = dictionary("en"), dictionary("fr")
    # Card ranks ("J", "Q", "K", "A") are drawn on the card faces as data in every language:
    # one- or two-letter values are not words to translate.
    english_only = {en[k] for k in en if en[k] != fr[k] and len(en[k]) > 2} - set(fr.values())
    texts: list[str] = page.evaluate(VISIBLE_TEXT_JS)
    return [t for t in texts if t in english_only]


def ready(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function("window.__croupier.net && window.__croupier.net.status === 'open'")


def sign_up(page: Any, base: str, name: str) -> None:
    ready(page, f"{base}/#/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#profile:not([hidden])")
    page.wait_for_function(
        "window.__croupier.net.welcome && window.__croupier.net.welcome.guest === false"
    )


def exchange(page: Any, diamonds: int) -> None:
    chips = int(page.inner_text("#acc-chips").replace("\u202f", ""))
    page.fill("#exchange-amount", str(diamonds))
    page.click("#exchange-form button")
    page.wait_for_function(
        f"Number(document.querySelector('#acc-chips').textContent.replace(/\\u202f/g, '')) === {chips + diamonds}"
    )


def my_seat_stack(page: Any) -> int:
    return int(page.inner_text(".seat.me .chips").replace("\u202f", ""))


def stacks(page: Any) -> list[str]:
    texts: list[str] = page.eval_on_selector_all(".seat .chips", "ns => ns.map(n => n.textContent)")
    return texts


def history_row(page: Any, row: str, timeout: float = 30.0) -> Any:
    """The history page's ``row`` (a selector), once the server has archived that hand
    (it does so just after the hand settles): the page is opened again until it lists it."""
    deadline = time.monotonic() + timeout
    while True:
        page.click("nav a[data-view=history]")
        page.wait_for_selector("#hands")
        if page.locator(row).count():
            return page.locator(row)
        if time.monotonic() > deadline:
            raise AssertionError(f"{row} not in the history after {timeout:g} s")
        page.wait_for_timeout(300)  # poll interval: the page is reloaded below
        page.click("nav a[data-view=lobby]")


def state(page: Any, expr: str) -> Any:
    return page.evaluate(f"(() => {{ const s = window.__croupier.table.state; return {expr}; }})()")


def play_to_showdown(
    page: Any, *, keyboard: bool, raise_once: bool = False, limit: float = 90
) -> dict[str, Any]:
    """Check or call (show at the showdown) until a hand I acted in ends at a showdown.

    Returns what happened: how many actions I sent, the stacks when I first acted and at the
    end, and whether a raise was accepted."""
    acted = 0
    raised = False
    before: list[str] | None = None
    hand_acted: int | None = None
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if page.is_visible("#actionbar") and not page.evaluate("window.__croupier.table.busy"):
            hand = state(page, "s.handNo")
            if before is None:
                before = stacks(page)
            if raise_once and not raised and page.is_visible("#a-raise"):
                if keyboard:
                    page.keyboard.press("r")
                    page.keyboard.press("Enter")
                else:
                    page.click("[data-preset=min]")
                    page.click("#a-raise")
                raised = True
            elif page.is_visible("#a-show"):
                page.keyboard.press("s") if keyboard else page.click("#a-show")
            elif page.is_visible("#a-check"):
                page.keyboard.press("c") if keyboard else page.click("#a-check")
            elif page.is_visible("#a-call"):
                page.keyboard.press("c") if keyboard else page.click("#a-call")
            else:
                page.wait_for_timeout(
                    100
                )  # poll interval of the bounded loop (it looks at the page again)
                continue
            acted += 1
            hand_acted = hand
            page.wait_for_function("!window.__croupier.table.busy")
        if hand_acted is not None:
            # one look at the page (the next hand may clear the results at any moment)
            seen = page.evaluate(
                """() => ({
                  shown: [...document.querySelectorAll('.results .hand-name')]
                    .some((e) => e.offsetParent !== null),
                  awards: document.querySelectorAll('.results .award').length,
                  hand: window.__croupier.table.state.handNo })"""
            )
            if seen["shown"] and seen["hand"] == hand_acted:
                return {
                    "acted": acted,
                    "before": before,
                    "after": stacks(page),
                    "raised": raised,
                    "awards": seen["awards"],
                }
        page.wait_for_timeout(100)  # poll interval of the bounded loop (it looks at the page again)
    raise AssertionError(f"no showdown in {limit} s (acted {acted} times)")


class Spectator:
    """A guest watching ``table_id`` over a raw WebSocket, in a thread, recording every
    table event it is sent (``events``: the event with the frame's ``version`` and
    ``now``). What the server did at the table while a page was away is read here, not
    guessed from a sleep."""

    def __init__(self, base: str, table_id: str) -> None:
        self.base = base
        self.table_id = table_id
        self.events: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._subscribed = threading.Event()
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        if not self._subscribed.wait(30):
            self.close()
            raise AssertionError(
                f"the spectator was not subscribed to {table_id} in 30 s ({self._failed!r})"
            )

    def _read(self) -> None:
        from websockets.sync.client import connect

        try:
            url = self.base.replace("http", "ws", 1) + "/ws"
            with connect(url, origin=self.base) as ws:  # type: ignore[arg-type]
                ws.send(json.dumps({"type": "hello"}))
                ws.send(json.dumps({"type": "subscribe", "table_id": self.table_id}))
                while not self._stop.is_set():
                    try:
                        raw = ws.recv(timeout=0.2)
                    except TimeoutError:
                        continue
                    m = json.loads(raw)
                    if m.get("table_id") != self.table_id:
                        continue
                    if m["type"] == "subscribed":
                        self._subscribed.set()
                    elif m["type"] == "event":
                        e = {**m["event"], "_v": m["version"], "_now": m["now"]}
                        with self._lock:
                            self.events.append(e)
        except Exception as exc:  # reported by wait_for / the constructor
            self._failed = exc

    def seen(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.events)

    def wait_for(self, match: Any, timeout: float, what: str) -> dict[str, Any]:
        """The first recorded event ``match(event)`` holds for, waiting up to ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while True:
            for e in self.seen():
                if match(e):
                    return e
            if time.monotonic() > deadline or self._failed is not None:
                raise AssertionError(
                    f"{what}: not seen in {timeout:g} s ({self._failed!r}); events: {self.seen()}"
                )
            time.sleep(0.1)  # poll interval of a recording filled by the reader thread

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)


KEEP_JS = """(selector) => {
  document.querySelector(selector).__kept = 1;
  window.__lobbies = 0;
  window.__croupier.net.addEventListener("message", (ev) => {
    if (ev.detail.type === "lobby") window.__lobbies += 1;
  });
}"""


def kept_through_lobbies(page: Any, selector: str, lobbies: int = 3) -> None:
    """The element at ``selector`` is still the same one after ``lobbies`` lobby messages
    that left it as it was: not drawn again (a button or summary drawn again between a
    key's or a button's press and its release loses the click or the key)."""
    page.evaluate(KEEP_JS, selector)
    page.wait_for_function(f"window.__lobbies >= {lobbies}", timeout=30_000)
    kept = page.evaluate("(s) => document.querySelector(s).__kept", selector)
    assert kept == 1, f"{selector} was drawn again by a lobby message that changed nothing"


EVENTS_KEEP_JS = """([selector, box]) => {
  const t = window.__croupier.table;
  if (!t.__counted) {  // the table's drawings, counted, and whether one changed the box
    const draw = t.render.bind(t);
    t.render = () => {
      draw();
      window.__events += 1;
      const now = document.querySelector(window.__watched);
      if (!now || now.outerHTML !== window.__box) window.__changed = true;
    };
    t.__counted = true;
  }
  window.__events = 0;
  window.__changed = false;
  window.__watched = box;
  document.querySelector(selector).__kept = 1;
  window.__box = document.querySelector(box).outerHTML;
}"""

EVENTS_AFTER_JS = """([selector, box]) => {
  const node = document.querySelector(selector);
  return {
    same: !window.__changed && document.querySelector(box).outerHTML === window.__box,
    kept: !!node && node.__kept === 1,
  };
}"""


def kept_through_events(page: Any, selector: str, box: str, events: int = 2) -> None:
    """The element at ``selector`` is still the same one after the table on screen was
    drawn ``events`` times (at its frames), each leaving ``box`` (its container) as it
    was: not drawn again (a button or a box drawn again between a press and its release
    loses the click). When one drawing changed ``box`` (the game moved on, even if it
    came back), look again, up to ten times."""
    for _ in range(10):
        page.evaluate(EVENTS_KEEP_JS, [selector, box])
        page.wait_for_function(f"window.__events >= {events}", timeout=30_000)
        after: dict[str, bool] = page.evaluate(EVENTS_AFTER_JS, [selector, box])
        if after["same"]:
            assert after["kept"], f"{selector} was drawn again by events that changed nothing"
            return
        if not page.is_visible(selector):
            page.wait_for_selector(selector, state="visible", timeout=60_000)
    raise AssertionError(f"{box} changed at every look: nothing to check")
