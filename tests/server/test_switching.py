"""The GIL's switch interval of a serving process (server/switching.py, issue #16):
``croupier serve`` sets ``CROUPIER_SWITCH_INTERVAL_MS`` once its room is open, so a store
thread waiting for the GIL after each statement of a hand's transaction waits about that
long, not CPython's 5 ms, and puts the previous interval back at shutdown. (What it buys is
measured in docs/benchmarks.md, never asserted here.)"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator

import pytest
from starlette.applications import Starlette

from croupier.server.serve import tuned
from croupier.server.settings import Settings, SettingsError
from croupier.server.switching import DEFAULT_SWITCH_INTERVAL_MS, tune_switching


@pytest.fixture
def interval() -> Iterator[float]:
    old = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    try:
        yield old
    finally:
        sys.setswitchinterval(old)


def test_croupier_serve_sets_the_interval_while_the_room_is_open(interval: float) -> None:
    seen: list[float] = []

    async def body() -> None:
        app = tuned(Starlette(), 0.0, 0.5)
        assert sys.getswitchinterval() == 0.005  # not before start-up
        async with app.router.lifespan_context(app):
            seen.append(sys.getswitchinterval())
        seen.append(sys.getswitchinterval())

    asyncio.run(body())
    assert seen == [0.0005, 0.005]  # set while open, CPython's own put back at shutdown


def test_without_an_interval_the_interpreter_keeps_its_own(interval: float) -> None:
    async def body() -> float:
        app = tuned(Starlette(), 0.0)
        async with app.router.lifespan_context(app):
            return sys.getswitchinterval()

    assert asyncio.run(body()) == 0.005


def test_the_interval_is_a_setting(interval: float) -> None:
    assert Settings().switch_interval_ms == DEFAULT_SWITCH_INTERVAL_MS == 1.0
    assert Settings.from_env({"CROUPIER_SWITCH_INTERVAL_MS": "5"}).switch_interval_ms == 5.0
    for bad in ("0", "0.05", "-1", "101", "nan"):
        with pytest.raises(SettingsError, match="CROUPIER_SWITCH_INTERVAL_MS"):
            Settings.from_env({"CROUPIER_SWITCH_INTERVAL_MS": bad})
    with pytest.raises(SettingsError, match="a number"):
        Settings.from_env({"CROUPIER_SWITCH_INTERVAL_MS": "often"})
    with pytest.raises(ValueError, match=r"0\.1 to 100 ms"):
        tune_switching(0.0)
    assert sys.getswitchinterval() == 0.005  # a refused interval changes nothing
