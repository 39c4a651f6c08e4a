"""What a player downloads of an archived hand: the rules of hand downloads, in one place.

Only a player of the hand may have it (anyone else: ``not_found``, never saying whether it
exists); every format shows that player their own cards and the cards shown, nothing else
(R-FAIR-1):

* ``phh`` — the archived PHH record with other players' unshown cards as ``??``;
* ``txt`` — PokerStars-style text (:mod:`croupier.history.pokerstars`), read by trackers;
* ``json`` — the replayer's record (:func:`hand_json`).

Refusals are :class:`DownloadError` with one code each: ``bad_format``, ``not_found``,
``unsupported`` (a game a format cannot write) and the text export's own codes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from croupier.engine.errors import CodedError, EngineError
from croupier.engine.events import Event
from croupier.engine.game import Game
from croupier.history.phh import dump_phh, load_phh
from croupier.history.pokerstars import PokerStarsError, PokerStarsInfo, to_pokerstars
from croupier.history.redact import redact_phh
from croupier.table.codec import events_from_dicts

__all__ = [
    "FORMATS",
    "Download",
    "DownloadError",
    "game_of_label",
    "hand_json",
    "redacted_phh",
    "render",
    "viewer_position",
]

FORMATS: Final = ("phh", "txt", "json")


class DownloadError(CodedError):
    """A download refused, with its code."""


@dataclass(frozen=True, slots=True)
class Download:
    """A rendered download: its body, media type and file name."""

    body: str
    media_type: str
    filename: str


def viewer_position(players: Sequence[str], account_id: int) -> int:
    """The engine position of ``account_id`` among a hand's ``players`` (player ids by
    position); ``not_found`` if they did not play it.

    >>> viewer_position(["15", "4"], 4)
    1
    >>> viewer_position(["15", "4"], 7)
    Traceback (most recent call last):
    ...
    croupier.history.download.DownloadError: no such hand
    """
    try:
        return list(players).index(str(account_id))
    except ValueError:
        raise DownloadError("not_found", "no such hand") from None


def redacted_phh(phh_text: str, viewer_position: int | None) -> str:
    """The archived PHH record as the player at ``viewer_position`` may see it: cards never
    shown to them are ``??`` (:func:`croupier.history.redact.redact_phh`)."""
    return dump_phh(redact_phh(load_phh(phh_text), viewer_position))


def hand_json(
    table_id: str, hand_id: str, game: str, summary: dict[str, Any], viewer: int
) -> dict[str, Any]:
    """The replayer's record of one archived hand for the player at engine position
    ``viewer``: the engine events redacted for them (their own cards and the cards shown,
    nothing else: R-FAIR-1), the display names, seats and button, and each player's net.

    >>> row = {"type": "hole_dealt", "player": 0, "cards": ["As", "Kd"], "up": [False, False]}
    >>> other = {**row, "player": 1, "cards": ["7c", "2d"]}
    >>> summary = {"events": [row, other], "names": ["ann", "BOT 1"], "seats": [0, 3],
    ...            "button": 3, "players": ["15", "4"], "net": [0, 0]}
    >>> [e["cards"] for e in hand_json("t", "1", "nlhe 1/2 room", summary, 0)["events"]]
    [['As', 'Kd'], [None, None]]
    """
    return {
        "table_id": table_id,
        "hand_id": hand_id,
        "game": game,
        "table_name": summary.get("table_name", table_id),
        "max_seats": int(summary.get("max_seats", 9)),
        "button": summary.get("button"),
        "seats": list(summary["seats"]),
        "names": list(summary["names"]),
        "you": viewer,
        "net": list(summary.get("net", [])),
        "events": [e.to_dict() for e in _events(summary, viewer)],
    }


def _events(summary: dict[str, Any], viewer: int | None) -> list[Event]:
    return events_from_dicts(summary["events"], viewer)


def game_of_label(label: str) -> Game | None:
    """The game an archived hand was played at, from its label (``"nlhe 1/2 room"``: the
    preset, the lobby's stakes, the house rules), or ``None`` if the label says too little.

    >>> g = game_of_label("plo 5/10 naiko")
    >>> g.variant.key, g.stakes.small_blind, g.stakes.big_blind, g.rules.name
    ('omaha', 5, 10, 'naiko')
    >>> game_of_label("chess") is None
    True
    """
    parts = label.split()
    if len(parts) != 3 or parts[1].count("/") != 1:
        return None
    small, _, big = parts[1].partition("/")
    try:
        return Game.of_stakes(parts[0], int(small), int(big), rules=parts[2])
    except (ValueError, EngineError):
        return None


def render(
    fmt: str,
    *,
    table_id: str,
    hand_id: str,
    number: int,
    ended_ms: int,
    label: str,
    phh: str,
    summary: dict[str, Any],
    account_id: int,
    game: Game | None = None,
) -> Download:
    """The download of one archived hand in ``fmt`` for ``account_id`` (see the module).
    ``game``: the table's game when it is still open (else it is read from ``label``)."""
    if fmt not in FORMATS:
        raise DownloadError("bad_format", "download .phh, .txt or .json")
    pos = viewer_position(summary["players"], account_id)
    filename = f"{table_id}-{hand_id}.{fmt}"
    if fmt == "json":
        body = json.dumps(hand_json(table_id, hand_id, label, summary, pos))
        return Download(body, "application/json", filename)
    if fmt == "phh":
        if not phh:
            raise DownloadError("unsupported", "no PHH record for this game")
        return Download(redacted_phh(phh, pos), "text/plain; charset=utf-8", filename)
    game = game if game is not None else game_of_label(label)
    if game is None:
        raise DownloadError("unsupported", f"no PokerStars text for {label!r}")
    info = PokerStarsInfo(
        # unique across the room (the archive's number), with the real time of the hand
        hand_id=number or (int(hand_id) if hand_id.isdigit() else 0),
        players=tuple(summary["names"]),
        seats=tuple(summary["seats"]),
        table=summary.get("table_name", table_id),
        max_seats=int(summary.get("max_seats", 9)),
        started=datetime.fromtimestamp(ended_ms / 1000, UTC),
    )
    try:
        text = to_pokerstars(game, _events(summary, pos), info)
    except PokerStarsError as exc:
        raise DownloadError(exc.code, str(exc)) from None
    return Download(text, "text/plain; charset=utf-8", filename)
