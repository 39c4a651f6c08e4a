"""Services the tests need, started by scripts/test.sh and named by environment variables."""

from __future__ import annotations

import os

import pytest

__all__ = ["service_url"]


def service_url(variable: str, service: str, start: str) -> str:
    """The URL in ``variable``; missing, the test is skipped with how to start the
    service (``start``), or fails when ``CI`` is set (scripts/test.sh sets it there)."""
    url = os.environ.get(variable)
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {variable} is missing (scripts/test.sh sets it)")
        pytest.skip(f"{service} tests need {variable} ({start})")
    return url
