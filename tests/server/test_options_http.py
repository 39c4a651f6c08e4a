"""Table options per account on the server (issue #15): ``GET``/``PUT /api/options`` over
HTTP against the real app and store — defaults when nothing is set, set and forget, kept
across sessions, clear coded errors that change nothing, login
required, and the tables' auto-muck port reading the same option (R-POT-4)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.live import ORIGIN, LiveServer, fast_settings, register_and_login, running


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    path: Path = tmp_path_factory.mktemp("options") / "db.sqlite3"
    with running(fast_settings(f"sqlite:///{path}")) as srv:
        yield srv


def _http(srv: LiveServer, token: str | None) -> httpx.Client:
    headers = {"Origin": ORIGIN}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return httpx.Client(base_url=srv.url, headers=headers, timeout=30)


def _player(srv: LiveServer) -> tuple[str, str]:
    name = f"o{secrets.token_hex(4)}"
    return name, register_and_login(srv.url, name)


def test_options_set_read_and_forget(server: LiveServer) -> None:
    """Issue #15: nothing set → ``{}`` (the client's defaults); a PUT sets some options,
    another session of the account reads them; ``null`` forgets one."""
    name, token = _player(server)
    with _http(server, token) as h:
        r = h.get("/api/options")
        assert r.status_code == 200, r.text
        assert r.json()["options"] == {}
        assert set(r.json()["known"]) == {
            "four_colour",
            "animations",
            "sound_turn",
            "sound_clock",
            "auto_muck",
        }
        r = h.put("/api/options", json={"four_colour": True, "auto_muck": True})
        assert r.status_code == 200, r.text
        assert r.json()["options"] == {"four_colour": True, "auto_muck": True}
        r = h.put("/api/options", json={"animations": False, "sound_turn": True})
        assert r.json()["options"] == {
            "four_colour": True,
            "animations": False,
            "sound_turn": True,
            "auto_muck": True,
        }
    with httpx.Client(base_url=server.url, headers={"Origin": ORIGIN}, timeout=30) as h2:
        r = h2.post("/api/login", json={"name": name, "password": "correct horse battery"})
        assert r.status_code == 200
        again = h2.get("/api/options")  # the session cookie of a second login
        assert again.status_code == 200
        assert again.json()["options"]["four_colour"] is True
        r = h2.put("/api/options", json={"four_colour": None, "auto_muck": False})
        assert r.status_code == 200
        assert r.json()["options"] == {"animations": False, "sound_turn": True, "auto_muck": False}
    with _http(server, token) as h:
        assert h.get("/api/options").json()["options"] == {
            "animations": False,
            "sound_turn": True,
            "auto_muck": False,
        }


def test_bad_options_are_refused_and_change_nothing(server: LiveServer) -> None:
    """Issue #15: an unknown option, a value other than true/false/null, a body that is
    not an object: 422 with a clear code, and nothing changes (one bad name in a batch
    refuses the whole batch)."""
    _, token = _player(server)
    with _http(server, token) as h:
        assert h.put("/api/options", json={"sound_turn": True}).status_code == 200
        cases = [
            ({"volume": True}, "unknown_option"),
            ({"four_colour": True, "volume": 3}, "unknown_option"),
            ({"four_colour": "yes"}, "invalid_option"),
            ({"auto_muck": 1}, "invalid_option"),
            ({"animations": {"on": True}}, "invalid_option"),
            ([True], "invalid"),
        ]
        for body, code in cases:
            r = h.put("/api/options", json=body)
            assert r.status_code == 422, (body, r.text)
            assert r.json()["error"]["code"] == code, (body, r.text)
            assert r.json()["error"]["message"]
        r = h.put(
            "/api/options", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert r.status_code in (400, 422)
        assert h.get("/api/options").json()["options"] == {"sound_turn": True}


def test_options_need_a_login(server: LiveServer) -> None:
    """Issue #15: a guest has no stored options: 401 ``login_required``."""
    with _http(server, None) as h:
        for r in (h.get("/api/options"), h.put("/api/options", json={"four_colour": True})):
            assert r.status_code == 401
            assert r.json()["error"]["code"] == "login_required"
    with _http(server, "not-a-token") as h:
        assert h.get("/api/options").status_code == 401


def test_auto_muck_reaches_the_tables(server: LiveServer) -> None:
    """R-POT-4, issue #15: the option set over HTTP is what a live table asks at a
    showdown decision (the store's port given to every table)."""
    _, token = _player(server)
    with _http(server, token) as h:
        uid = str(h.get("/api/me").json()["id"])
        services = server.app.state.services
        tables = list(services.registry.tables.values())
        assert tables, "the default tables are open"
        table = tables[0].actor.table
        assert table.auto_muck(uid) is False
        assert h.put("/api/options", json={"auto_muck": True}).status_code == 200
        assert table.auto_muck(uid) is True
        assert h.put("/api/options", json={"auto_muck": None}).status_code == 200
        assert table.auto_muck(uid) is False
    assert table.auto_muck("bot-7") is False
