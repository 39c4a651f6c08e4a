"""The engine's public API is one import, and the betting vocabulary is one list (issue #11)."""

from __future__ import annotations

from typing import get_args, get_type_hints

import pytest

import croupier.engine as engine
from croupier.bots.runner import to_command
from croupier.bots.strategies import Decision
from croupier.engine.actions import ActionKind
from croupier.server.protocol import Act as WireAct
from croupier.table.commands import Act, ActKind


def test_every_public_name_resolves() -> None:
    missing = [name for name in engine.__all__ if not hasattr(engine, name)]
    assert missing == []
    assert sorted(engine.__all__) == sorted(set(engine.__all__))


def test_one_betting_vocabulary() -> None:
    """The wire's ``act``, the table's ``Act`` command and the bots use the engine's names."""
    assert get_args(ActKind) == engine.BET_KINDS
    assert get_args(get_type_hints(WireAct)["action"]) == engine.BET_KINDS
    assert {ActionKind(k) for k in engine.BET_KINDS} <= set(ActionKind)
    for kind in engine.BET_KINDS:
        command = to_command(Decision(kind, 7), "c1", "p1")
        assert isinstance(command, Act) and command.kind == kind
        action = engine.betting(kind, 3, 7)
        assert action.kind is ActionKind(kind) and action.player == 3
        assert action.amount == (7 if kind == "raise" else 0)


def test_an_unknown_betting_name_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown betting action"):
        engine.betting("draw", 0)
    with pytest.raises(ValueError):
        engine.betting("shove", 0)
