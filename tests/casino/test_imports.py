"""The casino package imports only the engine of croupier (its place in the layers)."""

from __future__ import annotations

import ast
from pathlib import Path

import croupier.casino

PACKAGE = Path(croupier.casino.__file__).parent


def test_casino_imports_only_the_engine() -> None:
    """R-BONUS-1: the game is a pure module over the engine (cards, rng, evaluate)."""
    seen = set()
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                seen.add(node.module)
            elif isinstance(node, ast.Import):
                seen.update(a.name for a in node.names)
    ours = {m for m in seen if m.startswith("croupier")}
    assert ours and all(m.startswith(("croupier.engine", "croupier.casino")) for m in ours), ours
    assert not {m for m in seen if m.split(".")[0] in ("asyncio", "socket", "sqlite3")}
