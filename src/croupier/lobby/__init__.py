"""The lobby (R-LOBBY-1, R-LOBBY-2, R-SEAT-2): table specs and the default cash tables,
private tables with invitation codes, and the arcade quick match. Pure domain logic: the
server wires it to live tables."""

from croupier.lobby.catalog import (
    DEFAULT_TABLES,
    LobbyError,
    TableSpec,
    TableSummary,
    invitation_code,
    private_spec,
)
from croupier.lobby.matchmaking import QuickMatch

__all__ = [
    "DEFAULT_TABLES",
    "LobbyError",
    "QuickMatch",
    "TableSpec",
    "TableSummary",
    "invitation_code",
    "private_spec",
]
