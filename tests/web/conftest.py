"""Browser tests: a real croupier server (uvicorn on 127.0.0.1, a free port, SQLite in a temp
dir, fast bots) and Debian's Chromium driven by Playwright (never ``playwright install``).

Without /usr/bin/chromium the tests are skipped, unless ``CI`` is set: then
``scripts/chromium.sh`` installs it (Debian's package, as root) and they fail if it cannot.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.ports import free_port
from tests.waiting import wait_until

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
SERVE = Path(__file__).with_name("serve_app.py")


def _need_chromium() -> None:
    if os.path.exists(CHROMIUM):
        return
    if os.environ.get("CI"):
        done = subprocess.run(
            ["bash", str(ROOT / "scripts" / "chromium.sh")], capture_output=True, text=True
        )
        if done.returncode == 0 and os.path.exists(CHROMIUM):
            return
        pytest.fail(f"{CHROMIUM} is missing and scripts/chromium.sh failed: {done.stderr[-500:]}")
    pytest.skip(f"{CHROMIUM} is missing: run `bash scripts/chromium.sh` to install it")


class Server:
    """The server in a subprocess; ``restart()`` keeps the port and the database."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="croupier-web-"))
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = self.dir / "server.log"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CROUPIER_")}
        env.update(
            CROUPIER_DATABASE_URL=f"sqlite:///{self.dir / 'croupier.sqlite3'}",
            CROUPIER_PORT=str(self.port),
            CROUPIER_HOST="127.0.0.1",
            CROUPIER_ALLOWED_ORIGINS=self.base,
            CROUPIER_BOT_DELAY_SECONDS="0.05",
            CROUPIER_BETWEEN_HANDS_SECONDS="0.6",
            CROUPIER_TESTING="1",
            CROUPIER_SHUTDOWN_GRACE_SECONDS="1",
            # every browser of the suite comes from 127.0.0.1 to a server shared by many
            # tests: the per-address cap on private tables (6, tested in
            # tests/server/test_security.py) would refuse the later tests' tables
            CROUPIER_PRIVATE_TABLES_PER_ADDRESS="1000",
        )
        return env

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, str(SERVE)], env=self.env(), stdout=out, stderr=subprocess.STDOUT
            )
        proc = self.proc

        def healthy() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                return httpx.get(f"{self.base}/health", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        # a loaded machine imports slowly
        wait_until(healthy, 90, f"the test server's /health at {self.base}", interval=0.1)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    _need_chromium()
    s = Server()
    s.start()
    yield s
    s.close()


@pytest.fixture
def own_server() -> Iterator[Server]:
    """A server of its own (for tests that stop and restart it)."""
    _need_chromium()
    s = Server()
    s.start()
    yield s
    s.close()


@pytest.fixture(scope="session")
def playwright_() -> Iterator[Any]:
    _need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


class Page:
    """A page in a fresh browser profile that records console errors and page errors."""

    def __init__(
        self, playwright: Any, width: int = 1280, height: int = 900, *, csp: bool = False
    ) -> None:
        self.dir = tempfile.mkdtemp(prefix="croupier-chromium-")
        self.context = playwright.chromium.launch_persistent_context(
            self.dir,
            executable_path=CHROMIUM,
            headless=True,
            args=ARGS,
            viewport={"width": width, "height": height},
            accept_downloads=True,
            # Playwright's wait_for_function evaluates strings in the page, which the
            # room's CSP forbids ('unsafe-eval'); test_csp_web.py runs with the CSP on.
            bypass_csp=not csp,
        )
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.set_default_timeout(15000)

    def _console(self, msg: Any) -> None:
        if msg.type in ("error", "warning"):
            self.errors.append(f"{msg.type}: {msg.text}")

    def allow(self, pattern: str) -> None:
        """Console errors matching ``pattern`` are expected (e.g. a socket to a stopped server)."""
        self.allowed.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]

    def close(self) -> None:
        self.context.close()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def browser_page(playwright_: Any) -> Iterator[Page]:
    p = Page(playwright_)
    yield p
    errors = p.unexpected()
    p.close()
    assert errors == [], f"console errors: {errors}"


@pytest.fixture
def phone_page(playwright_: Any) -> Iterator[Page]:
    p = Page(playwright_, 390, 844)
    yield p
    errors = p.unexpected()
    p.close()
    assert errors == [], f"console errors: {errors}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
