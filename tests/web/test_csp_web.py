"""The client under the room's Content-Security-Policy (issue 10): with the CSP enforced
(the other browser tests bypass it, because Playwright's own string predicates need
``eval``), signing up, the lobby, a table and the history raise no CSP violation and no
console error."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.waiting import wait_until
from tests.web.conftest import Page, Server
from tests.web.flows import PASSWORD

RECORD = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"""


@pytest.fixture
def csp_page(playwright_: Any) -> Iterator[Page]:
    p = Page(playwright_, csp=True)
    p.context.add_init_script(RECORD)
    yield p
    errors = p.unexpected()
    p.close()
    assert errors == [], f"console errors: {errors}"


def _until(page: Any, fn: str, timeout: float = 15.0) -> None:
    """Poll ``fn`` (a JS function, run by the devtools protocol, not by ``eval``)."""
    wait_until(lambda: page.evaluate(fn), timeout, fn, interval=0.1)


def test_the_client_runs_under_the_csp(server: Server, csp_page: Page) -> None:
    """Issue 10: the page is served with a CSP forbidding inline script and eval; the
    client still signs up, lists tables, opens a table and the history without a single
    CSP violation."""
    page = csp_page.page
    response = page.goto(f"{server.base}/#/account")
    assert response is not None
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe" not in csp
    _until(
        page,
        "() => !!(window.__croupier && window.__croupier.net && window.__croupier.net.status === 'open')",
    )
    page.fill("#signup-name", f"csp{int(time.time() * 1000) % 10**8}")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#profile:not([hidden])")
    page.click("nav a[data-view=lobby]")
    page.wait_for_selector("#tables tbody tr[data-table='nlhe-1-2']")
    # open the table (its Watch button: a click on the row itself opens nothing)
    page.click("#tables tbody tr[data-table='nlhe-1-2'] .actions button:not(.primary)")
    _until(  # the table view is live: drawn from the server's snapshot
        page,
        "() => { const t = window.__croupier.table;"
        " return !!t && t.tableId === 'nlhe-1-2' && t.live; }",
    )
    page.click("nav a[data-view=history]")
    page.wait_for_selector("#view-history:not([hidden]) #hands")
    assert page.evaluate("() => window.__csp") == []
