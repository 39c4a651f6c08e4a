"""Shared test setup.

The ``rules`` marker names the SPEC.md rule ids a test covers (docstrings name them too);
``rule_ids(item)`` lists them for coverage reports. The repository root is put on
``sys.path`` so test packages can share helpers (``tests.engine.kit``) under
``--import-mode=importlib``.
"""

from __future__ import annotations

import re
import secrets
import sys
from pathlib import Path

import pytest

from tests.services import service_url

_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

_RULE_ID = re.compile(r"\bR-[A-Z0-9]+-\d+\b")


def rule_ids(item: pytest.Item) -> set[str]:
    """The rule ids a test names in its ``rules`` marker or its docstring."""
    ids: set[str] = set()
    for mark in item.iter_markers("rules"):
        ids.update(str(a) for a in mark.args)
    doc = getattr(getattr(item, "function", None), "__doc__", None) or ""
    ids.update(_RULE_ID.findall(doc))
    return ids


@pytest.fixture
def redis_env() -> dict[str, str]:
    """``CROUPIER_REDIS_URL`` (from ``CROUPIER_TEST_REDIS_URL``, started by scripts/test.sh
    with scripts/redis.sh) and a prefix of this test's own: tests running at the same time
    share the server, not its channels. Skipped with a message outside CI when missing, a
    failure in CI."""
    url = service_url("CROUPIER_TEST_REDIS_URL", "Redis", "bash scripts/redis.sh")
    return {"CROUPIER_REDIS_URL": url, "CROUPIER_REDIS_PREFIX": f"t{secrets.token_hex(4)}"}
