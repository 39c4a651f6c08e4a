"""Hand downloads (history/download.py, issue #11: the rules of downloads are the history's,
not the edge's). R-FAIR-1: a player gets their own cards and the shown ones, nothing else;
R-POT-6 (history): every format of a played hand; a closed table's hand still exports."""

from __future__ import annotations

import json
import random

import pytest

from croupier.engine.actions import call, check, fold
from croupier.engine.cards import Card
from croupier.engine.game import Game
from croupier.engine.state import apply, auto_showdown_action, legal_actions, start_hand
from croupier.history.download import DownloadError, render
from croupier.history.export import to_phh
from croupier.history.phh import dump_phh


def _archived() -> dict[str, object]:
    """A hand played to its end, archived as the room archives it."""
    game = Game.of_stakes("nlhe", 1, 2)
    deck = [Card(i) for i in range(52)]
    random.Random(5).shuffle(deck)
    state, events = start_hand(game, (200, 200, 200), deck)
    while not state.is_over:
        la = legal_actions(state)
        assert la is not None
        if la.show_or_muck:
            action = auto_showdown_action(state)
        elif la.can_check:
            action = check(la.player)
        elif la.player == 0:
            action = fold(la.player)
        else:
            action = call(la.player)
        state, more = apply(state, action)
        events += more
    names = ["ann", "BOT 1", "cy"]
    summary = {
        "events": [e.to_dict() for e in events],
        "names": names,
        "seats": [0, 2, 4],
        "button": 4,
        "players": ["15", "4", "9"],
        "net": list(state.result.net),  # type: ignore[union-attr]
        "table_name": "NLHE 1/2",
        "max_seats": 6,
    }
    phh = dump_phh(to_phh(game, events, players=names))
    return {"summary": summary, "phh": phh, "deck": deck}


def _render(fmt: str, account_id: int, label: str = "nlhe 1/2 room") -> object:
    a = _archived()
    return render(
        fmt,
        table_id="private-abcd",
        hand_id="3",
        number=77,
        ended_ms=1_700_000_000_000,
        label=label,
        phh=a["phh"],  # type: ignore[arg-type]
        summary=a["summary"],  # type: ignore[arg-type]
        account_id=account_id,
    )


def test_every_format_for_a_player_of_the_hand() -> None:
    deck: list[Card] = _archived()["deck"]  # type: ignore[assignment]
    j = _render("json", 15)
    body = json.loads(j.body)  # type: ignore[attr-defined]
    dealt = [e for e in body["events"] if e["type"] == "hole_dealt"]
    assert dealt[0]["cards"] != [None, None] and body["you"] == 0
    ann = f"{deck[0]}{deck[3]}"
    assert ann in _render("phh", 15).body  # type: ignore[attr-defined]
    seen_by_bot = _render("phh", 4).body  # type: ignore[attr-defined]
    assert ann not in seen_by_bot and "????" in seen_by_bot  # ann folded unseen
    # the table is closed (no live game): the text export reads the game from the label
    txt = _render("txt", 15)
    assert txt.body.startswith("PokerStars Hand #77:")  # type: ignore[attr-defined]
    assert txt.filename == "private-abcd-3.txt"  # type: ignore[attr-defined]
    assert f"Dealt to ann [{deck[0]} {deck[3]}]" in txt.body  # type: ignore[attr-defined]
    assert "Dealt to BOT 1 [" not in txt.body  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("fmt", "account", "code"), [("phh", 99, "not_found"), ("pdf", 15, "bad_format")]
)
def test_refusals(fmt: str, account: int, code: str) -> None:
    with pytest.raises(DownloadError) as err:
        _render(fmt, account)
    assert err.value.code == code


def test_a_label_too_short_for_the_text_is_refused_clearly() -> None:
    with pytest.raises(DownloadError) as err:
        _render("txt", 15, label="chess")
    assert err.value.code == "unsupported"
