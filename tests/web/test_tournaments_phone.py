"""The tournaments tab on a phone and with the keyboard only, in real Chromium (R-TOUR-1,
R-TOUR-2, R-TOUR-4, issue #17 "keyboard, phone layout").

At 390×844 every event's card, opened details included, fits the viewport's width (no
horizontal scroll, no element past the right edge) and its Register button is reachable
and large enough to tap. With the keyboard alone a player tabs to an event, opens its
details with Space or Enter, tabs on to Register and presses Enter: a refusal (not enough
chips) and a confirmation are both announced in the toast (``role=alert``), and the focus
stays on the card's buttons through the lobby's re-renders. Screenshots at 1366×768 and
390×844 go to test-artifacts/tournaments-*.png (copied to docs/img, where the docs show
them, only with CROUPIER_UPDATE_SCREENSHOT=1 or when absent)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Page, Server, _need_chromium
from tests.web.flows import exchange, kept_through_lobbies, sign_up
from tests.web.test_tournaments_browser import PatientServer

ROOT = Path(__file__).resolve().parents[2]
IMG = ROOT / "test-artifacts"
DOCS_IMG = ROOT / "docs" / "img"


def _shot(page: Any, name: str) -> None:
    """A screenshot in test-artifacts; docs/img keeps its copy unless asked to update it."""
    IMG.mkdir(exist_ok=True)
    page.screenshot(path=str(IMG / name))
    doc = DOCS_IMG / name
    if os.environ.get("CROUPIER_UPDATE_SCREENSHOT") or not doc.exists():
        doc.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(IMG / name, doc)


OVERFLOW_JS = """
() => {
  const vw = document.documentElement.clientWidth;
  const out = [];
  for (const art of document.querySelectorAll('#tour-list article')) {
    for (const el of [art, ...art.querySelectorAll('*')]) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (el.closest('details:not([open])') && el.tagName !== 'SUMMARY'
          && !el.matches('details')) continue;
      if (r.left < -0.5 || r.right > vw + 0.5) {
        out.push(`${art.dataset.id} ${el.tagName}.${el.className} ${r.left}-${r.right} > ${vw}`);
      }
    }
  }
  return {vw, scroll: document.documentElement.scrollWidth, out};
}
"""

BUTTON_JS = """
(tid) => {
  const b = document.querySelector(`article[data-id="${tid}"] button.primary`);
  b.scrollIntoView({block: 'center'});
  const r = b.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {x: r.left, right: r.right, w: r.width, h: r.height, top: r.top, bottom: r.bottom,
          vh: innerHeight, disabled: b.disabled, reachable: b === hit || b.contains(hit)};
}
"""

FOCUS_JS = """
() => {
  const a = document.activeElement;
  if (!a) return null;
  const art = a.closest('article[data-id]');
  return {tag: a.tagName, key: a.dataset.focusKey || null, event: art ? art.dataset.id : null,
          text: a.textContent.trim()};
}
"""


@pytest.fixture
def server() -> Iterator[Server]:
    _need_chromium()
    s = PatientServer()
    s.start()
    yield s
    s.close()


@pytest.fixture
def phone(playwright_: Any) -> Iterator[Page]:
    p = Page(playwright_, 390, 844)
    yield p
    errors = p.unexpected()
    p.close()
    assert errors == [], f"console errors: {errors}"


def _focus(page: Any) -> dict[str, Any] | None:
    found: dict[str, Any] | None = page.evaluate(FOCUS_JS)
    return found


def _tab_to(page: Any, want: Any, limit: int = 80) -> dict[str, Any]:
    """Press Tab until ``want(focus)`` (at most ``limit`` times)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        f = _focus(page)
        if f is not None and want(f):
            return f
    raise AssertionError(f"not reached in {limit} Tabs (focus on {_focus(page)})")


def _toast(page: Any, *words: str) -> str:
    page.wait_for_function(
        "(words) => { const t = document.querySelector('#toast');"
        " const s = t.textContent.toLowerCase();"
        " return !t.hidden && words.some(w => s.includes(w)); }",
        arg=list(words),
    )
    toast = page.locator("#toast")
    assert toast.get_attribute("role") == "alert"
    assert toast.get_attribute("aria-live") == "assertive"
    return str(toast.inner_text())


def _hide_toast(page: Any) -> None:
    page.evaluate("document.querySelector('#toast').hidden = true")


def _fits(page: Any) -> None:
    got: dict[str, Any] = page.evaluate(OVERFLOW_JS)
    assert got["scroll"] <= got["vw"], got
    assert got["out"] == [], got["out"][:10]


@pytest.mark.slow
def test_the_tournaments_tab_on_a_phone_and_by_keyboard(
    server: Server, phone: Page, playwright_: Any
) -> None:
    """R-TOUR-1, R-TOUR-2, R-TOUR-4: see the module docstring."""
    page = phone.page
    phone.allow(r"status of 409")  # the refusal below is a 409 with its code
    sign_up(page, server.base, "Thumbs")
    page.goto(f"{server.base}/#/account")
    exchange(page, 50)  # enough for the Spin (10), not for the Sit & Go (100)
    page.goto(f"{server.base}/#/tournaments")
    page.wait_for_selector("article[data-id='sng-6'] button.primary")
    page.wait_for_selector("article[data-id='spin-10'] button.primary")
    _fits(page)
    _hide_toast(page)
    # open every card's details (the lobby re-renders keep them open)
    page.evaluate(
        "document.querySelectorAll('#tour-list details').forEach(d => { d.open = true; })"
    )
    page.wait_for_selector("article[data-id='spin-10'] details[open] .tour-multipliers")
    _fits(page)  # the levels, payouts and multipliers tables too
    for tid in ("sng-6", "spin-10"):
        b: dict[str, Any] = page.evaluate(BUTTON_JS, tid)
        assert b["reachable"] and not b["disabled"], b
        assert b["h"] >= 40 and b["w"] >= 88, b
        assert b["x"] >= 0 and b["right"] <= 390 and b["top"] >= 0 and b["bottom"] <= b["vh"], b
    page.evaluate(
        "document.querySelectorAll('#tour-list details').forEach(d => { d.open = false; })"
    )
    _hide_toast(page)
    page.evaluate("window.scrollTo(0, 0)")
    _shot(page, "tournaments-phone.png")

    # the keyboard only, from the top of the page
    page.goto(f"{server.base}/#/tournaments")
    page.wait_for_selector("article[data-id='sng-6'] button.primary")
    # lobby messages that leave the events as they were leave their cards as they are (a
    # card drawn again between a key's press and its release loses the key)
    kept_through_lobbies(page, "article[data-id='sng-6'] summary")
    _hide_toast(page)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    f = _tab_to(page, lambda f: f["event"] == "sng-6" and f["tag"] == "SUMMARY")
    page.keyboard.press(" ")
    page.wait_for_selector("article[data-id='sng-6'] details[open] .tour-levels")
    f = _tab_to(page, lambda f: f["event"] is not None, limit=1)
    assert f["event"] == "sng-6" and f["key"] == "sng-6:register", f
    page.keyboard.press("Enter")
    text = _toast(page, "chips", "jetons", "fund")
    assert "sng-6" not in text
    page.wait_for_function("document.activeElement.dataset.focusKey === 'sng-6:register'")
    assert page.evaluate("window.__croupier.tournaments.find(r => r.id === 'sng-6').entrants") == 0
    _hide_toast(page)
    f = _tab_to(page, lambda f: f["event"] == "spin-10", limit=1)
    assert f["tag"] == "SUMMARY", f
    page.keyboard.press("Enter")
    page.wait_for_selector("article[data-id='spin-10'] details[open] .tour-multipliers")
    f = _tab_to(page, lambda f: f["event"] is not None, limit=1)
    assert f["key"] == "spin-10:register", f
    page.keyboard.press("Enter")
    _toast(page, "registered", "inscrit")
    page.wait_for_function(
        "window.__croupier.tournaments.some(r => r.id === 'spin-10' && r.entrants === 1)"
    )
    # the focus moves to the card's next action (Unregister), never lost to the page
    page.wait_for_function("document.activeElement.dataset.focusKey === 'spin-10:unregister'")
    me: dict[str, Any] = page.evaluate("fetch('/api/me').then(r => r.json())")
    assert int(me["chips"]) == 40

    desk = Page(playwright_, 1366, 768)
    try:
        sign_up(desk.page, server.base, "Desk")
        desk.page.goto(f"{server.base}/#/tournaments")
        desk.page.wait_for_selector("article[data-id='spin-10'] button.primary")
        desk.page.locator("article[data-id='spin-10'] summary").click()
        desk.page.wait_for_selector("article[data-id='spin-10'] .tour-multipliers")
        _hide_toast(desk.page)
        # a card keeps its own height when its neighbour's details are open
        heights = desk.page.eval_on_selector_all(
            "#tour-list article", "arts => arts.map(a => a.getBoundingClientRect().height)"
        )
        assert min(heights) < 0.6 * max(heights), heights
        _shot(desk.page, "tournaments-desktop.png")
        assert desk.unexpected() == []
    finally:
        desk.close()
