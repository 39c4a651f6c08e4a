"""Sign-ups are throttled per address (issue 5: throttles fire)."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.server.live import ORIGIN, fast_settings, running


def test_registrations_per_address_are_throttled(tmp_path: Path) -> None:
    """R-ACC-1: a flood of sign-ups from one address is refused with ``throttled``; nothing is created."""
    settings = fast_settings(f"sqlite:///{tmp_path / 'r.sqlite3'}", registration_burst=2)
    with (
        running(settings) as srv,
        httpx.Client(base_url=srv.url, headers={"Origin": ORIGIN}) as http,
    ):
        codes = []
        for i in range(3):
            r = http.post(
                "/api/register", json={"name": f"flood{i}", "password": "correct horse battery"}
            )
            codes.append((r.status_code, r.json().get("error", {}).get("code")))
        assert codes[:2] == [(201, None), (201, None)]
        assert codes[2] == (429, "throttled")
        r = http.post("/api/login", json={"name": "flood2", "password": "correct horse battery"})
        assert r.status_code != 200  # the refused sign-up created no account
