"""Words of the client (issue #15 "Words"), no browser needed: the structure names of the
lobby's filter are the ones inside the game names (French and English), no "(s)"
plurals anywhere, and a count followed by a noun takes the ``{n|one|many}`` form."""

from __future__ import annotations

import re

from croupier.engine.game import GAME_PRESETS
from tests.web.test_i18n import WEB, load

NOUNS = {
    "en": ("chips", "points", "diamonds", "players", "bots", "seats", "cards"),
    "fr": ("jetons", "points", "diamants", "joueurs", "robots", "places", "cartes"),
}


def _plain(text: str) -> str:
    return text.lower().replace("-", " ")


def test_structure_names_match_the_game_names() -> None:
    """Issue #15: "structure names consistent between filters and game names": every game
    whose name states its structure states it with the filter's word."""
    for lang in ("fr", "en"):
        d = load(lang)
        words = {
            s: _plain(d[f"structure.{s}"]) for s in (v.value for _, v in GAME_PRESETS.values())
        }
        checked = 0
        for key, (_, structure) in GAME_PRESETS.items():
            name = d.get(f"game.{key}")
            if name is None or "limit" not in _plain(name):
                continue  # stud, draw…: the structure is not in the name
            assert words[structure.value] in _plain(name), (lang, key, name, words[structure.value])
            checked += 1
        assert checked >= 10, (lang, checked)


def test_no_parenthesised_plurals() -> None:
    """Issue #15: plurals without "(s)", in both dictionaries and the page."""
    html = (WEB / "index.html").read_text(encoding="utf-8")
    for lang in ("fr", "en"):
        for key, text in load(lang).items():
            assert not re.search(r"\w\((s|es|x)\)", text), (lang, key, text)
    assert not re.search(r"\w\((s|es|x)\)", html)


def test_counted_nouns_agree_with_the_count() -> None:
    """Issue #15: "{n} chips" would read "1 chips": a count placeholder directly followed
    by a plural noun uses the ``{n|one|many}`` form instead."""
    for lang, nouns in NOUNS.items():
        for key, text in load(lang).items():
            for noun in nouns:
                bad = re.search(r"\{\w+\} " + noun + r"\b", text)
                assert bad is None, (lang, key, text)
