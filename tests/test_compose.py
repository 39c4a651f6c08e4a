"""The compose file for users with Docker (issue #16): PostgreSQL 16 and Redis 7 with
health checks, the room image built from this repository, two room nodes n1 and n2 on
ports 8000 and 8001. No Docker engine runs on the project's machines, so this checks the
file rather than running it: its services, ports and dependencies, and that every
``CROUPIER_*`` name it sets is a real setting (the names come from
:class:`croupier.server.settings.Settings`) and each node's environment is a valid one."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from croupier.server.settings import Settings

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[1]
SETTING_NAMES = {f"CROUPIER_{f.name.upper()}" for f in dataclasses.fields(Settings)}
NODES = {"n1": 8000, "n2": 8001}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    return loaded


def _expand(value: object) -> str:
    """``${NAME:-default}`` as compose reads it with ``NAME`` unset."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", str(value))


def _env(service: dict[str, Any]) -> dict[str, str]:
    return {k: _expand(v) for k, v in service["environment"].items()}


def _healthy_deps(service: dict[str, Any]) -> dict[str, str]:
    return {name: dep["condition"] for name, dep in service["depends_on"].items()}


def test_postgresql_16_and_redis_7_with_health_checks(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == {"postgres", "redis", *NODES}
    assert services["postgres"]["image"] == "postgres:16"
    assert services["redis"]["image"] == "redis:7"
    for name in ("postgres", "redis"):
        check = services[name]["healthcheck"]
        assert check["test"][0] in ("CMD", "CMD-SHELL") and check["retries"] >= 1
        assert services[name]["restart"] == "unless-stopped"
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    assert "ping" in services["redis"]["healthcheck"]["test"]
    pg = _env(services["postgres"])
    assert set(pg) == {"POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"}


@pytest.mark.parametrize("node", sorted(NODES))
def test_each_node_is_a_valid_room_node_a_browser_on_the_host_reaches(
    compose: dict[str, Any], node: str
) -> None:
    services = compose["services"]
    service = services[node]
    port = NODES[node]
    assert service["build"] == "."
    assert service["restart"] == "unless-stopped"
    assert service["ports"] == [f"127.0.0.1:{port}:{port}"]
    assert "healthcheck" in service
    deps = _healthy_deps(service)
    assert deps["postgres"] == deps["redis"] == "service_healthy"
    if node == "n2":  # the first node migrates the database before the second starts
        assert deps["n1"] == "service_healthy"
    env = _env(service)
    unknown = {k for k in env if k.startswith("CROUPIER_")} - SETTING_NAMES
    assert not unknown, f"not settings of croupier: {sorted(unknown)}"
    assert set(env) <= SETTING_NAMES
    settings = Settings.from_env(env)  # a bad value would raise SettingsError
    assert settings.node_id == node and settings.nodes == tuple(sorted(NODES))
    assert settings.host == "0.0.0.0" and settings.port == port
    assert settings.node_url == f"http://localhost:{port}"
    assert f"http://localhost:{port}" in settings.origins  # the page's own Origin
    db = urlsplit(settings.database_url)
    assert (db.scheme, db.hostname, db.port, db.path) == (
        "postgresql",
        "postgres",
        5432,
        "/croupier",
    )
    pg = _env(services["postgres"])
    assert (db.username, db.password) == (pg["POSTGRES_USER"], pg["POSTGRES_PASSWORD"])
    assert urlsplit(settings.redis_url).hostname == "redis"
    assert settings.redis_url == "redis://redis:6379/0"


def test_the_image_is_built_from_the_repository_and_runs_as_a_user() -> None:
    lines = [
        line.strip()
        for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    froms = [line.split()[1] for line in lines if line.startswith("FROM ")]
    assert froms and all(re.fullmatch(r"python:3\.1[12]-slim", f) for f in froms), froms
    assert any("pip install" in line and line.rstrip().endswith(" .") for line in lines)
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    assert lines[-1] == 'CMD ["croupier", "serve"]'
    ignored = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert {".git", ".venv", "*.sqlite3*"} <= set(ignored)
    for needed in ("pyproject.toml", "setup.py", "README.md", "LICENSE", "src"):
        assert needed not in ignored and (ROOT / needed).exists()
